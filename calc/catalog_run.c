/*
 * catalog_run.c -- catalog entries of the run-level model (run.c): checkpoint.*,
 * failure.* and run.* quantities, the `run` and `run-validation` tables and the
 * goodput-vs-interval and goodput-vs-gpus datasets.
 *
 * Formulas: Young 1974 (CACM 17(9)) and Daly 2006 (FGCS 22(3)), see run.c.  The
 * validation rows: Llama 3 (Dubey et al. 2024 §3.3.4: 419 unexpected interruptions
 * in a 54-day snapshot on 16,384 H100 GPUs, > 90% effective training time); OPT-175B
 * (Zhang et al. 2022 §2.5 and its logbook: at least 35 manual restarts in about two
 * months on 992 A100 80 GB GPUs; UNVERIFIED); BLOOM (BigScience, Le Scao et al. 2022,
 * and its training notes: on average 1-2 GPU failures a week on 384 A100 80 GB GPUs;
 * UNVERIFIED).
 */
#include "run.h"
#include "format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The run result of the context's plan: the cached step time plus pure arithmetic. */
static int ctx_run(struct calc_ctx *c, struct calc_run *r, struct calc_diag *d)
{
	const struct calc_step *st = calc_ctx_step(c, d);
	if (!st)
		return -1;
	calc_run(&c->plan, st, 0, 0, r);
	return 0;
}

#define Q(fn, expr)                                                                  \
	static int fn(struct calc_ctx *c, struct calc_value *o, struct calc_diag *d)  \
	{                                                                            \
		struct calc_run r;                                                   \
		if (ctx_run(c, &r, d) < 0)                                           \
			return -1;                                                   \
		o->num = (expr);                                                     \
		return 0;                                                            \
	}
#define QP(fn, expr)                                                                 \
	static int fn(struct calc_ctx *c, struct calc_value *o, struct calc_diag *d)  \
	{                                                                            \
		const struct calc_plan *p = &c->plan;                                \
		o->num = (expr);                                                     \
		return 0;                                                            \
	}

Q(q_bytes, r.ckpt_bytes)
Q(q_bytes_gpu, r.ckpt_bytes_per_gpu)
Q(q_bpp, r.ckpt_bytes_per_param)
Q(q_sbw, r.storage_bw)
Q(q_write, r.ckpt_write)
Q(q_block, r.ckpt_blocking)
Q(q_load, r.ckpt_load)
Q(q_interval, r.interval)
Q(q_young, r.interval_young)
Q(q_daly, r.interval_daly)
Q(q_isteps, r.interval_steps)
Q(q_mtbf, r.mtbf)
Q(q_restart, r.restart)
Q(q_lost, r.lost_per_failure)
Q(q_count, r.failures)
Q(q_goodput, r.goodput)
Q(q_eff_time, r.effective_time)
Q(q_eff_days, r.effective_time / 86400)
Q(q_eff_gpuh, r.effective_gpu_hours)
Q(q_gpu_cost, r.gpu_cost)
Q(q_busy, r.busy)
Q(q_gpu_power, r.gpu_power)
Q(q_it_power, r.it_power)
Q(q_fac_power, r.facility_power)
Q(q_energy, r.energy)
Q(q_energy_cost, r.energy_cost)
Q(q_co2, r.co2)
Q(q_total_cost, r.cost)
Q(q_cpm, r.cost_per_mtokens)
QP(q_rate, p->failure_rate)
QP(q_mtbf_gpu, p->failure_rate > 0 ? 3600 / p->failure_rate : INFINITY)
QP(q_rtime, p->restart_time)
QP(q_async, p->ckpt_async)
QP(q_opt, p->ckpt_optimizer)
QP(q_pnode_bw, p->storage_node_bw)
QP(q_pagg_bw, p->storage_bw)
QP(q_host_bw, p->host_copy_bw)
QP(q_idle, p->gpu_idle_power)
QP(q_node_w, p->node_power)
QP(q_net_w, p->network_power)
QP(q_pue, p->pue)
QP(q_price, p->energy_price)
QP(q_carbon, p->carbon_intensity)
QP(q_tdp, p->gpu.tdp)

const struct calc_quantity calc_q_run[] = {
	{"checkpoint.bytes", "B", "one checkpoint of the whole model (weights, and master weights and optimizer states unless run.checkpoint_optimizer = no)", q_bytes},
	{"checkpoint.bytes_per_gpu", "B", "checkpoint shard each GPU writes (fully parallel save)", q_bytes_gpu},
	{"checkpoint.bytes_per_param", "B", "checkpoint bytes per parameter by the recipe", q_bpp},
	{"checkpoint.storage_bw", "B/s", "achieved storage bandwidth: min(nodes x run.storage_node_bw, run.storage_bw)", q_sbw},
	{"checkpoint.write_time", "s", "time to write one checkpoint to storage", q_write},
	{"checkpoint.blocking_time", "s", "training stopped per checkpoint (the write, or the copy to host memory when asynchronous)", q_block},
	{"checkpoint.load_time", "s", "time to read the checkpoint back at a restart", q_load},
	{"checkpoint.interval", "s", "compute time between checkpoints (run.checkpoint_interval, else Daly 2006)", q_interval},
	{"checkpoint.interval_young", "s", "optimum interval, Young 1974: sqrt(2 delta M)", q_young},
	{"checkpoint.interval_daly", "s", "optimum interval, Daly 2006 higher-order estimate", q_daly},
	{"checkpoint.interval_steps", "1", "checkpoint interval in optimizer steps", q_isteps},
	{"checkpoint.async", "1", "1 with asynchronous checkpoints", q_async},
	{"checkpoint.optimizer", "1", "1 when checkpoints hold the optimizer states", q_opt},
	{"failure.rate", "1/GPU-h", "job-stopping failures per GPU-hour", q_rate},
	{"failure.mtbf_gpu", "s", "mean time between failures of one GPU", q_mtbf_gpu},
	{"failure.mtbf", "s", "mean time between failures of the whole job", q_mtbf},
	{"failure.restart_time", "s", "from a failure to training again, excluding the checkpoint load", q_rtime},
	{"failure.restart", "s", "one restart including the checkpoint load", q_restart},
	{"failure.lost_work", "s", "expected work redone after one failure, (interval + checkpoint) / 2", q_lost},
	{"failure.count", "1", "expected interruptions of the run", q_count},
	{"run.goodput", "1", "useful training time / wall time (Daly 2006 Eq. 20)", q_goodput},
	{"run.effective_time", "s", "expected wall time with checkpoints and failures", q_eff_time},
	{"run.effective_days", "days", "expected wall time with checkpoints and failures in days", q_eff_days},
	{"run.effective_gpu_hours", "GPU-h", "GPU-hours with checkpoints and failures", q_eff_gpuh},
	{"run.effective_cost", "currency", "effective GPU-hours at cluster.gpu_hour_cost", q_gpu_cost},
	{"run.busy_share", "1", "share of the step the GPUs compute (compute + recomputation)", q_busy},
	{"run.gpu_power", "W", "mean power of one GPU while training", q_gpu_power},
	{"run.it_power", "W", "GPUs, nodes and network while training", q_it_power},
	{"run.facility_power", "W", "IT power x PUE", q_fac_power},
	{"run.energy", "J", "energy of the run at the facility meter", q_energy},
	{"run.energy_cost", "currency", "energy at run.energy_price", q_energy_cost},
	{"run.co2", "kg", "emissions at run.carbon_intensity (0 when not reported)", q_co2},
	{"run.total_cost", "currency", "effective GPU-hour cost + energy cost", q_total_cost},
	{"run.cost_per_mtokens", "currency", "total cost per million training tokens", q_cpm},
	{"run.storage_node_bw", "B/s", "file-system bandwidth of one node", q_pnode_bw},
	{"run.storage_bw", "B/s", "aggregate file-system bandwidth", q_pagg_bw},
	{"run.host_copy_bw", "B/s", "device-to-host copy per GPU", q_host_bw},
	{"run.gpu_idle_power", "1", "idle power of a GPU as a share of its TDP", q_idle},
	{"run.node_power", "W", "one node without its GPUs", q_node_w},
	{"run.network_power", "W", "network per GPU", q_net_w},
	{"run.pue", "1", "power usage effectiveness", q_pue},
	{"run.energy_price", "currency", "price of one kWh", q_price},
	{"run.carbon_intensity", "kg/kWh", "grid emissions per kWh", q_carbon},
	{"gpu.tdp", "W", "board power of the GPU (datasheet)", q_tdp},
	{0},
};

/* ---------------------------------------------------------------- tables */

/* A value as the run chapter's prose writes it (chapters/11r-run.md): at most 'dec'
 * decimals and no more than four significant digits past the integer part
 * (calc_fmt_reader_dec, docs/references.md §9.20), so that the table and the sentence
 * beside it give the same figure (650.9 expected interruptions read 651, as the prose's
 * `|.0` says it).  dec < 0 keeps the value: the table's four significant digits round
 * it (GPU-hours and costs, the prose's `|count`). */
static double run_rounded(double x, int dec)
{
	double q;
	if (dec < 0 || !isfinite(x))
		return x;
	q = pow(10, calc_fmt_reader_dec(x, dec));
	return round(x * q) / q;
}

static int t_run(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	struct calc_run r;
	struct {
		const char *label, *name, *unit;
		double v;
	} rows[24];
	int n = 0, cq, cv, cu, ck;

	if (ctx_run(c, &r, d) < 0)
		return -1;
	/* each row: its name in words, its catalog name, the unit and the decimals of the
	 * chapter's sentence that gives the same figure */
#define ROW(lb, nm, u, x, dec) \
	(rows[n].label = lb, rows[n].name = nm, rows[n].unit = u, rows[n].v = run_rounded((x), (dec)), n++)
	ROW("checkpoint of the whole model", "checkpoint.bytes", "TB", r.ckpt_bytes / 1e12, 2);
	if (r.ckpt_bytes_per_gpu < 1e9) /* the prose's own choice of unit */
		ROW("checkpoint shard per GPU", "checkpoint.bytes_per_gpu", "MB", r.ckpt_bytes_per_gpu / 1e6, 0);
	else
		ROW("checkpoint shard per GPU", "checkpoint.bytes_per_gpu", "GB", r.ckpt_bytes_per_gpu / 1e9, 1);
	ROW("time to write one checkpoint", "checkpoint.write_time", "s", r.ckpt_write, 2);
	ROW("training stopped per checkpoint", "checkpoint.blocking_time", "s", r.ckpt_blocking, 2);
	ROW("time to load it at a restart", "checkpoint.load_time", "s", r.ckpt_load, 2);
	ROW("mean time between job failures", "failure.mtbf", "hours", r.mtbf / 3600, 1);
	ROW("checkpoint interval, Young's optimum", "checkpoint.interval_young", "min", r.interval_young / 60, 1);
	ROW("checkpoint interval of the plan", "checkpoint.interval", "min", r.interval / 60, 1);
	ROW("checkpoint interval in optimizer steps", "checkpoint.interval_steps", "steps", r.interval_steps, 0);
	ROW("expected interruptions", "failure.count", "interruptions", r.failures, 0);
	ROW("work redone per interruption", "failure.lost_work", "min", r.lost_per_failure / 60, 1);
	ROW("goodput", "run.goodput", "%", 100 * r.goodput, 1);
	ROW("run without failures", "run.days", "days", r.useful_time / 86400, 1);
	ROW("run with checkpoints and failures", "run.effective_days", "days", r.effective_time / 86400, 1);
	ROW("GPU-hours with checkpoints and failures", "run.effective_gpu_hours", "GPU-hours", r.effective_gpu_hours, -1);
	ROW("mean power of one GPU", "run.gpu_power", "W", r.gpu_power, 0);
	ROW("facility power", "run.facility_power", "MW", r.facility_power / 1e6, 2);
	ROW("energy of the run", "run.energy", "MWh", r.energy / 3.6e9, 0);
	/* costs in plan.currency where the plan names one, else in the prices' own unit */
	const char *money = c->plan.currency[0] ? c->plan.currency : "currency";
	ROW("cost of the GPU-hours", "run.effective_cost", money, r.gpu_cost, -1);
	ROW("cost of the energy", "run.energy_cost", money, r.energy_cost, -1);
	ROW("cost per million training tokens", "run.cost_per_mtokens", money, r.cost_per_mtokens, 3);
	if (c->plan.carbon_intensity > 0)
		ROW("emissions", "run.co2", "t CO2e", r.co2 / 1e3, -1);
#undef ROW
	calc_table_init(t, "run", "Checkpoints, failures, effective run time, energy and cost");
	cq = calc_table_col(t, "quantity", "", CALC_D_TEXT, 0);
	cv = calc_table_col(t, "value", "", CALC_D_NUM, 4);
	cu = calc_table_col(t, "unit", "", CALC_D_TEXT, 0);
	ck = calc_table_col(t, "catalog name", "", CALC_D_TEXT, 0);
	for (int i = 0; i < n; i++) {
		int row = calc_table_row(t);
		calc_table_str(t, row, cq, rows[i].label);
		calc_table_num(t, row, cv, rows[i].v);
		calc_table_str(t, row, cu, rows[i].unit);
		calc_table_str(t, row, ck, rows[i].name);
	}
	calc_table_note(t, "Values rounded as the sentences of the run chapter give them (at most four "
	                   "significant digits); trainplan run --format json gives each in full.  Checkpoint interval: Daly 2006 "
	                   "(FGCS 22(3)) higher-order optimum unless run.checkpoint_interval is set; Young 1974 "
	                   "(CACM 17(9)) for comparison.  Goodput: Daly 2006 Eq. 20.  Default failure rate from "
	                   "Llama 3 §3.3.4 (419 unexpected interruptions in 54 days on 16,384 GPUs).");
	return 0;
}

/* One published run: its cluster, its length, what was reported. */
static const struct {
	const char *run, *published;
	const char *const sets[16];
	int nsets;
	int gpus;
	double days;       /* length of the observed window [days] */
	double per_days;   /* predicted interruptions are counted per this many days (0 = the window) */
	double published_share; /* published effective training time [0..1], 0 = none */
} vrows[] = {
	{"Llama 3 405B (Dubey et al. 2024 §3.3.4)", "419 unexpected interruptions in 54 days; > 90% effective training time",
	 {"model.preset=llama3.1-405b", "cluster.preset=dgx-h100-ndr", "cluster.nodes=2048", "parallel.tp=8",
	  "parallel.pp=1", "parallel.dp=0", "training.seq_len=8192", "training.global_batch=2048"},
	 8, 16384, 54, 0, 0.90},
	{"OPT-175B (Zhang et al. 2022 §2.5)", "at least 35 manual restarts in about 2 months",
	 {"model.preset=gpt3-175b", "cluster.preset=dgx-a100-hdr", "cluster.nodes=124", "parallel.tp=8",
	  "parallel.pp=1", "parallel.dp=0", "training.global_batch=992"},
	 7, 992, 60, 0, 0},
	{"BLOOM 176B (Le Scao et al. 2022)", "on average 1-2 GPU failures a week",
	 {"cluster.preset=dgx-a100-hdr", "cluster.nodes=48", "parallel.tp=8", "parallel.pp=1", "parallel.dp=0",
	  "training.global_batch=1536", "model.preset=gpt3-175b", "model.layers=70", "model.hidden=14336",
	  "model.heads=112", "model.kv_heads=112", "model.ffn_hidden=57344", "model.vocab=250880"},
	 13, 384, 105, 7, 0},
};

static int t_run_validation(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                            struct calc_diag *d)
{
	int cr, cg, cday, cpub, cpred, cunit, cshare;
	calc_table_init(t, "run-validation", "Failures and effective training time against published runs");
	cr = calc_table_col(t, "run", "", CALC_D_TEXT, 0);
	cg = calc_table_col(t, "GPUs", "GPUs", CALC_D_INT, 0);
	cday = calc_table_col(t, "days", "days", CALC_D_FIXED, 0);
	cpub = calc_table_col(t, "published", "", CALC_D_TEXT, 0);
	cpred = calc_table_col(t, "predicted interruptions", "1", CALC_D_FIXED, 1);
	cunit = calc_table_col(t, "counted over", "", CALC_D_TEXT, 0);
	cshare = calc_table_col(t, "predicted goodput", "1", CALC_D_PCT, 1);
	for (size_t i = 0; i < sizeof vrows / sizeof vrows[0]; i++) {
		const struct calc_plan *q = &c->plan;
		struct calc_plan p;
		struct calc_step st;
		struct calc_run r;
		int row;
		double window;
		/* the published run's model and cluster on the built-in plan, with this plan's
		 * checkpoint, failure and restart settings */
		if (calc_plan_load(&p, NULL, vrows[i].sets, vrows[i].nsets, d) < 0)
			return -1;
		p.ckpt_optimizer = q->ckpt_optimizer;
		p.ckpt_async = q->ckpt_async;
		p.ckpt_interval = q->ckpt_interval;
		p.storage_node_bw = q->storage_node_bw;
		p.storage_bw = q->storage_bw;
		p.host_copy_bw = q->host_copy_bw;
		p.failure_rate = q->failure_rate;
		p.restart_time = q->restart_time;
		/* the goodput does not depend on the step time: one second per step, the
		 * published window as the failure-free run time */
		memset(&st, 0, sizeof st);
		st.time = 1;
		st.run_time = vrows[i].days * 86400;
		calc_run(&p, &st, 0, 0, &r);
		window = vrows[i].per_days > 0 ? vrows[i].per_days : vrows[i].days;
		row = calc_table_row(t);
		calc_table_str(t, row, cr, vrows[i].run);
		calc_table_num(t, row, cg, vrows[i].gpus);
		calc_table_num(t, row, cday, vrows[i].days);
		calc_table_str(t, row, cpub, vrows[i].published);
		calc_table_num(t, row, cpred, window * 86400 / r.mtbf);
		/* the span the predicted count covers, in words: the published window, or a
		 * week where the source gives a weekly rate (BLOOM) */
		char over[32];
		if (vrows[i].per_days == 7)
			snprintf(over, sizeof over, "a week");
		else
			snprintf(over, sizeof over, "%.0f days", window);
		calc_table_str(t, row, cunit, over);
		calc_table_num(t, row, cshare, r.goodput);
	}
	calc_table_note(t, "Predicted interruptions: the span counted over (the published window, or a week) divided by the job's MTBF at run.failure_rate; the "
	                   "default rate is Llama 3's own (419 / (54 d x 24 h x 16,384 GPUs)), so its row checks "
	                   "the arithmetic and the other rows test the rate on other clusters.  Predicted goodput: "
	                   "Daly 2006 Eq. 20 with the plan's checkpoint and restart settings.  OPT-175B and BLOOM "
	                   "figures are from their logbooks and training notes.");
	return 0;
}

const struct calc_tabledef calc_t_run[] = {
	{"run", "checkpoint size and time, MTBF, checkpoint interval, goodput, effective days, energy and cost", "", t_run},
	{"run-validation", "interruptions and effective training time against Llama 3, OPT-175B and BLOOM", "", t_run_validation},
	{0},
};

/* ---------------------------------------------------------------- datasets */

/* The row of the plan's own checkpoint interval in goodput-vs-interval. */
static void own_row(struct calc_ctx *c, const struct calc_step *st, double own, struct calc_table *t, int ci,
                    int cg, int co, int cp)
{
	struct calc_run rp;
	calc_run(&c->plan, st, 0, own, &rp);
	int row = calc_table_row(t);
	calc_table_num(t, row, ci, rp.interval);
	calc_table_num(t, row, cg, rp.goodput);
	calc_table_num(t, row, co, 0);
	calc_table_num(t, row, cp, 1);
}

/* Goodput over the checkpoint interval, from 1/20 to 20 times Daly's optimum, and the
 * plan's own interval flagged (column plan). */
static int d_goodput_interval(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                              struct calc_diag *d)
{
	const struct calc_step *st = calc_ctx_step(c, d);
	struct calc_run r;
	int ci, cg, co;
	double opt;
	if (!st)
		return -1;
	calc_run(&c->plan, st, 0, 0, &r);
	opt = isinf(r.interval_daly) ? 3600 : r.interval_daly;
	calc_table_init(t, "goodput-vs-interval", "Goodput against the checkpoint interval");
	ci = calc_table_col(t, "interval", "s", CALC_D_S, 0);
	cg = calc_table_col(t, "goodput", "1", CALC_D_PCT, 2);
	co = calc_table_col(t, "optimum", "1", CALC_D_INT, 0);
	/* the plan's own interval: 1 on its row (the optimum's when run.checkpoint_interval = 0,
	 * Daly's optimum then being what the plan runs; calc/run.c) */
	int cp = calc_table_col(t, "plan", "1", CALC_D_INT, 0);
	double own = c->plan.ckpt_interval;
	if (own > 0 && own < opt * pow(20, -1.0))
		own_row(c, st, own, t, ci, cg, co, cp);
	for (int i = 0; i <= 40; i++) {
		double tau = opt * pow(20, (i - 20) / 20.0);
		struct calc_run ri;
		int row = calc_table_row(t);
		calc_run(&c->plan, st, 0, tau, &ri);
		calc_table_num(t, row, ci, ri.interval);
		calc_table_num(t, row, cg, ri.goodput);
		calc_table_num(t, row, co, i == 20);
		calc_table_num(t, row, cp, own <= 0 && i == 20);
		/* the plan's own interval (run.checkpoint_interval), in order among the sweep's */
		double next = opt * pow(20, (i - 19) / 20.0);
		if (own > 0 && own >= tau && (own < next || i == 40))
			own_row(c, st, own, t, ci, cg, co, cp);
	}
	return 0;
}

/* Goodput and effective days over the cluster size at the plan's per-GPU throughput:
 * 8, 16, ... 131,072 GPUs and the plan's own count, flagged (column plan). */
static int d_goodput_gpus(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                          struct calc_diag *d)
{
	const struct calc_step *st = calc_ctx_step(c, d);
	int cn, cg, cd, cu, cp;
	int plan_gpus = c->plan.nodes * c->plan.gpus_per_node, placed = 0;
	if (!st)
		return -1;
	calc_table_init(t, "goodput-vs-gpus", "Goodput and effective run days against the cluster size");
	cn = calc_table_col(t, "gpus", "GPUs", CALC_D_INT, 0);
	cg = calc_table_col(t, "goodput", "1", CALC_D_PCT, 2);
	cd = calc_table_col(t, "effective days", "days", CALC_D_FIXED, 2);
	cu = calc_table_col(t, "failure-free days", "days", CALC_D_FIXED, 2);
	/* 1 on the row of the plan's own GPU count (added between the powers of two where it
	 * is none of them), so that the chart marks where the plan sits */
	cp = calc_table_col(t, "plan", "1", CALC_D_INT, 0);
	for (int n = 8; n <= 131072; n *= 2) {
		int sizes[2] = {0, n}, k0 = 1;
		if (!placed && plan_gpus <= n) {
			placed = 1;
			if (plan_gpus < n)
				sizes[0] = plan_gpus, k0 = 0;
		}
		for (int k = k0; k < 2; k++) {
			struct calc_run r;
			int row = calc_table_row(t);
			calc_run(&c->plan, st, sizes[k], 0, &r);
			calc_table_num(t, row, cn, sizes[k]);
			calc_table_num(t, row, cg, r.goodput);
			calc_table_num(t, row, cd, r.effective_time / 86400);
			calc_table_num(t, row, cu, r.useful_time / 86400);
			calc_table_num(t, row, cp, sizes[k] == plan_gpus);
		}
	}
	return 0;
}

const struct calc_tabledef calc_d_run[] = {
	{"goodput-vs-interval", "goodput over the checkpoint interval (1/20 .. 20 x Daly's optimum)", "", d_goodput_interval},
	{"goodput-vs-gpus", "goodput and effective days over 8 .. 131,072 GPUs at the plan's per-GPU throughput", "", d_goodput_gpus},
	{0},
};
