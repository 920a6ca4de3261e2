/*
 * run.h -- public interface of run.c: checkpoints, failures, goodput, effective run
 * time, energy and cost per token for a whole training run.
 *
 * Which function to call:
 *   calc_run            everything for one plan, from its step time (calc_ctx_run in
 *                       the catalog caches it per context).
 *   calc_run_young,     the optimum checkpoint interval, first order (Young 1974) and
 *   calc_run_daly       higher order (Daly 2006).
 *   calc_run_goodput    Daly's expected useful share of the wall time for a given
 *                       interval, checkpoint cost, restart time and MTBF.
 */
#ifndef CALC_RUN_H
#define CALC_RUN_H

#include "plan.h"
#include "step.h"

struct calc_run {
	/* checkpoints */
	double ckpt_bytes_per_param; /* bytes written per parameter by the recipe [bytes] */
	double ckpt_bytes;           /* one checkpoint of the whole model [bytes] */
	double ckpt_bytes_per_gpu;   /* shard each GPU writes (fully parallel save) [bytes] */
	double storage_bw;           /* achieved write/read bandwidth: min(nodes x per-node, aggregate) [bytes/s] */
	double ckpt_write;           /* time to write one checkpoint to storage [s] */
	double ckpt_blocking;        /* time training stops per checkpoint: the write, or the copy to host
	                                memory when checkpoints are asynchronous [s] */
	double ckpt_load;            /* time to read the checkpoint back at restart [s] */
	/* failures */
	double mtbf;                 /* mean time between failures of the whole job; INFINITY without
	                                failures [s] */
	double restart;              /* one restart: run.restart_time + ckpt_load [s] */
	double interval_young;       /* Young 1974 optimum sqrt(2 delta M) [s] */
	double interval_daly;        /* Daly 2006 optimum [s] */
	double interval;             /* compute time between checkpoints used (run.checkpoint_interval,
	                                else interval_daly; INFINITY without failures) [s] */
	double interval_steps;       /* the interval in optimizer steps */
	double goodput;              /* useful training time / wall time [0..1] */
	double lost_per_failure;     /* expected work redone after one failure (tau + delta) / 2 [s] */
	double failures;             /* expected interruptions of the run */
	/* time and cost */
	double useful_time;          /* failure-free run time (calc_step's run_time) [s] */
	double effective_time;       /* expected wall time with checkpoints and failures [s] */
	double effective_gpu_hours;  /* [GPU-hours] */
	double gpu_cost;             /* effective GPU-hours x cluster.gpu_hour_cost [currency] */
	/* energy */
	double busy;                 /* share of the step the GPUs compute (compute + recompute) [0..1] */
	double gpu_power;            /* mean power of one GPU during training [W] */
	double it_power;             /* GPUs + nodes + network while training [W] */
	double facility_power;       /* it_power x PUE [W] */
	double energy;               /* energy of the run at the facility meter [J] */
	double energy_cost;          /* energy x run.energy_price [currency] */
	double co2;                  /* energy x run.carbon_intensity [kg CO2e] */
	double cost;                 /* gpu_cost + energy_cost [currency] */
	double cost_per_mtokens;     /* cost per 10^6 training tokens [currency] */
};

/*
 * Young 1974 (CACM 17(9)): the first-order optimum compute time between checkpoints,
 * sqrt(2 delta M), for a checkpoint that costs 'delta' seconds and a mean time between
 * failures 'mtbf' seconds.  INFINITY when mtbf is infinite.  Pure arithmetic.
 */
double calc_run_young(double delta, double mtbf);

/*
 * Daly 2006 (FGCS 22(3), Eq. 37): the higher-order optimum
 * sqrt(2 delta M) [1 + sqrt(delta / 2M) / 3 + (delta / 2M) / 9] - delta for delta < 2M,
 * and M otherwise.  INFINITY when mtbf is infinite.  Pure arithmetic.
 */
double calc_run_daly(double delta, double mtbf);

/*
 * Expected useful share of the wall time, Daly 2006 Eq. 20:
 * T_solve / T_wall = tau / (M e^(R/M) (e^((tau + delta)/M) - 1)), with 'tau' compute
 * seconds between checkpoints, 'delta' the checkpoint cost, 'restart' R the time from a
 * failure until work resumes and 'mtbf' M.  Without failures (M infinite) it is
 * tau / (tau + delta), and 1 when tau is infinite too.  Pure arithmetic.
 */
double calc_run_goodput(double tau, double delta, double restart, double mtbf);

/*
 * Fill 'out' for 'plan' whose step result is 'st' (calc_step of the same plan).
 * 'gpus' overrides the GPU count at the plan's per-GPU throughput when > 0 (the
 * cluster-size sweep); 'interval' overrides run.checkpoint_interval when > 0.  Pure
 * arithmetic; never fails.
 */
void calc_run(const struct calc_plan *plan, const struct calc_step *st, int gpus, double interval,
              struct calc_run *out);

#endif
