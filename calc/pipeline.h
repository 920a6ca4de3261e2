/*
 * pipeline.h -- pipeline schedules: closed-form bubbles and the event simulator.
 * Included by calc.h; see pipeline.c for the sources of every formula.
 */
#ifndef CALC_PIPELINE_H
#define CALC_PIPELINE_H

/*
 * Per-op costs of one pipeline run.  tf[i], tb[i], tw[i] are the times of one
 * micro-batch through *all* layers of stage i (all its chunks together): forward,
 * backward for inputs (B) and backward for weights (W).  A schedule that does not
 * split the backward runs B and W as one op of tb + tw; with v chunks per stage
 * each chunk op costs 1/v of the stage's time.
 */
struct calc_pp_costs {
	enum calc_schedule sched;
	int p;       /* stages */
	int m;       /* micro-batches per step */
	int v;       /* model chunks per stage (interleaved; 1 otherwise) */
	double tf[CALC_MAX_STAGES]; /* [s] */
	double tb[CALC_MAX_STAGES]; /* [s] */
	double tw[CALC_MAX_STAGES]; /* [s] */
	double p2p;  /* latency + transfer time of one activation send between stages [s] */
};

/* One executed op of the timeline. */
struct calc_pp_op {
	int stage;    /* 0-based */
	char op;      /* 'F', 'B' (input grads, or the whole backward), 'W' (weight grads) */
	int mb;       /* micro-batch, 0-based */
	int chunk;    /* model chunk on this stage, 0-based */
	double start; /* [s] */
	double end;   /* [s] */
};

struct calc_pp_result {
	double makespan;                       /* first op start to last op end [s] */
	double busy[CALC_MAX_STAGES];          /* [s] */
	double idle[CALC_MAX_STAGES];          /* makespan - busy [s] */
	double peak_inflight[CALC_MAX_STAGES]; /* micro-batch activation sets held at the peak */
	int nops;
	struct calc_pp_op *ops;                /* owned; calc_pp_result_free */
};

int calc_pipeline_simulate(const struct calc_pp_costs *c, struct calc_pp_result *r,
                           struct calc_diag *d);
void calc_pp_result_free(struct calc_pp_result *r);

/* Check the plan's schedule settings (vpp, m against p, evenness for DualPipe ...).
 * Called by calc_plan_validate; returns 0 or -1 with one message per problem. */
int calc_pipeline_check(const struct calc_plan *plan, struct calc_diag *d);

#endif
