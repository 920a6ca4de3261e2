/*
 * run.c -- run-level planning: checkpoint size and cost, failures, the optimum
 * checkpoint interval, goodput, effective run time, energy and cost per token.
 *
 * Sources:
 *   Young 1974, "A first order approximation to the optimum checkpoint interval",
 *     CACM 17(9): tau = sqrt(2 delta M).
 *   Daly 2006, "A higher order estimate of the optimum checkpoint interval for restart
 *     dumps", FGCS 22(3): the expected wall time
 *     T_w = M e^(R/M) (e^((tau + delta)/M) - 1) T_s / tau (Eq. 20) and its optimum
 *     tau = sqrt(2 delta M) [1 + sqrt(delta/2M)/3 + (delta/2M)/9] - delta (Eq. 37).
 *   Dubey et al. 2024, "The Llama 3 Herd of Models" §3.3.4: 466 job interruptions in a
 *     54-day snapshot of pre-training, 419 unexpected, on up to 16,384 H100 GPUs, more
 *     than 90% effective training time; §3.1.1: Tectonic sustains 2 TB/s.  The default
 *     failure rate per GPU-hour is 419 / (54 x 24 x 16,384) = 1.973e-5 (plans/default.ini).
 *
 * Failures are independent and memoryless per GPU, so the job's MTBF is
 * 1 / (failure_rate x GPUs).  Checkpoints are written fully in parallel: every GPU
 * writes 1/GPUs of the model states, at the smaller of the nodes' summed bandwidth and
 * the file system's aggregate bandwidth; the restart reads them back at the same rate.
 * Power: a GPU draws its TDP while it computes and gpu_idle_power x TDP while it waits
 * (bubble, exposed communication, optimizer, restarts); nodes and network add fixed
 * power; the PUE scales IT power to the facility meter.
 */
#include "run.h"

#include <math.h>

double calc_run_young(double delta, double mtbf)
{
	if (isinf(mtbf))
		return INFINITY;
	return sqrt(2 * delta * mtbf);
}

double calc_run_daly(double delta, double mtbf)
{
	double x;
	if (isinf(mtbf))
		return INFINITY;
	if (delta >= 2 * mtbf)
		return mtbf;
	x = delta / (2 * mtbf);
	return sqrt(2 * delta * mtbf) * (1 + sqrt(x) / 3 + x / 9) - delta;
}

double calc_run_goodput(double tau, double delta, double restart, double mtbf)
{
	if (isinf(mtbf))
		return isinf(tau) ? 1 : tau / (tau + delta);
	if (isinf(tau) || tau <= 0)
		return 0;
	return tau / (mtbf * exp(restart / mtbf) * expm1((tau + delta) / mtbf));
}

void calc_run(const struct calc_plan *plan, const struct calc_step *st, int gpus, double interval,
              struct calc_run *out)
{
	const struct calc_recipe *r = plan->recipe;
	struct calc_params pr;
	int n = gpus > 0 ? gpus : calc_plan_gpus(plan);
	double nodes = gpus > 0 ? ceil((double)gpus / plan->gpus_per_node) : plan->nodes;
	double load_w, idle_w, down;

	calc_model_params(&plan->model, &pr);
	/* checkpoint: the weights as the forward pass holds them, plus master weights and
	 * optimizer moments unless the plan saves weights only */
	out->ckpt_bytes_per_param = calc_recipe_bytes(r, CALC_T_WEIGHT);
	if (plan->ckpt_optimizer)
		out->ckpt_bytes_per_param += calc_recipe_bytes(r, CALC_T_MASTER) + calc_recipe_bytes(r, CALC_T_OPT);
	out->ckpt_bytes = pr.total * out->ckpt_bytes_per_param;
	out->ckpt_bytes_per_gpu = out->ckpt_bytes / n;
	out->storage_bw = fmin(nodes * plan->storage_node_bw, plan->storage_bw);
	out->ckpt_write = out->ckpt_bytes / out->storage_bw;
	out->ckpt_blocking = plan->ckpt_async ? out->ckpt_bytes_per_gpu / plan->host_copy_bw : out->ckpt_write;
	out->ckpt_load = out->ckpt_bytes / out->storage_bw;

	/* failures */
	out->mtbf = plan->failure_rate > 0 ? 3600 / (plan->failure_rate * n) : INFINITY;
	out->restart = plan->restart_time + out->ckpt_load;
	out->interval_young = calc_run_young(out->ckpt_blocking, out->mtbf);
	out->interval_daly = calc_run_daly(out->ckpt_blocking, out->mtbf);
	if (interval <= 0)
		interval = plan->ckpt_interval;
	out->interval = interval > 0 ? interval : out->interval_daly;
	/* an asynchronous write must end before the next checkpoint starts */
	if (plan->ckpt_async && out->interval < out->ckpt_write)
		out->interval = out->ckpt_write;
	/* checkpoints are taken between optimizer steps: at most one per step */
	if (out->interval < st->time)
		out->interval = st->time;
	out->interval_steps = out->interval / st->time;
	out->goodput = calc_run_goodput(out->interval, out->ckpt_blocking, out->restart, out->mtbf);
	out->lost_per_failure = isinf(out->interval) ? 0 : (out->interval + out->ckpt_blocking) / 2;

	/* time and cost; the sweep over GPU counts keeps the plan's tokens per GPU-second */
	out->useful_time = gpus > 0 ? st->run_time * calc_plan_gpus(plan) / n : st->run_time;
	out->effective_time = out->goodput > 0 ? out->useful_time / out->goodput : INFINITY;
	out->failures = isinf(out->mtbf) ? 0 : out->effective_time / out->mtbf;
	out->effective_gpu_hours = out->effective_time * n / 3600;
	out->gpu_cost = out->effective_gpu_hours * plan->gpu_hour_cost;

	/* energy: computing at TDP, waiting at the idle share; restarts wait */
	out->busy = st->time > 0 ? fmin(1, (st->compute + st->recompute) / st->time) : 0;
	out->gpu_power = plan->gpu.tdp * (plan->gpu_idle_power + (1 - plan->gpu_idle_power) * out->busy);
	out->it_power = n * (out->gpu_power + plan->network_power) + nodes * plan->node_power;
	out->facility_power = out->it_power * plan->pue;
	idle_w = n * (plan->gpu.tdp * plan->gpu_idle_power + plan->network_power) + nodes * plan->node_power;
	load_w = out->it_power;
	down = fmin(out->failures * out->restart, out->effective_time);
	out->energy = plan->pue * (load_w * (out->effective_time - down) + idle_w * down);
	out->energy_cost = out->energy / 3.6e6 * plan->energy_price;
	out->co2 = out->energy / 3.6e6 * plan->carbon_intensity;
	out->cost = out->gpu_cost + out->energy_cost;
	out->cost_per_mtokens = plan->tokens > 0 ? out->cost / (plan->tokens / 1e6) : 0;
}
