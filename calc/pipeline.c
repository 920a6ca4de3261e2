/*
 * pipeline.c -- pipeline schedules: in-flight micro-batches per stage.
 *
 * In-flight activations: GPipe holds all m micro-batches (Huang et al. 2019); 1F1B
 * holds min(p - i, m) on stage i (Narayanan et al. 2021 §2.2.1); interleaved 1F1B
 * holds Megatron-LM's warm-up count ((p - i - 1)*2 + (v - 1)*p + 1) chunk activations
 * on stage i, i.e. p(1 + (p-1)/(pv)) stage activations on stage 0, the factor of
 * Korthikanti et al. 2022 §4.2.3.
 */
#include "calc.h"

#include <math.h>

double calc_pipeline_inflight(const struct calc_plan *plan, int stage)
{
	int p = plan->pp, m = calc_plan_microbatches(plan), v = plan->vpp;
	double r;

	switch (plan->schedule) {
	case CALC_SCHED_GPIPE:
		return m;
	case CALC_SCHED_INTERLEAVED:
		if (v > 1) {
			/* Megatron-LM schedules.py: warm-up micro-batch chunks of rank i
			 * = (p - i - 1) * 2 + (v - 1) * p, plus the one in steady state;
			 * each chunk holds 1/v of the stage's layers. */
			double chunks = (double)(p - stage - 1) * 2 + (double)(v - 1) * p + 1;
			if (chunks > (double)m * v)
				chunks = (double)m * v;
			return chunks / v;
		}
		/* v = 1 is plain 1F1B */
		/* fall through */
	case CALC_SCHED_1F1B:
	default:
		r = p - stage;
		return r < m ? r : m;
	}
}

int calc_pipeline_param_copies(const struct calc_plan *plan)
{
	return plan->schedule == CALC_SCHED_DUALPIPE ? 2 : 1;
}

int calc_pipeline_check(const struct calc_plan *plan, struct calc_diag *d)
{
	return 0;
}

const struct calc_quantity calc_q_pipeline[] = {{0}};
const struct calc_tabledef calc_t_pipeline[] = {{0}};
const struct calc_tabledef calc_d_pipeline[] = {{0}};
