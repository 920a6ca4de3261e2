/*
 * pipeline.h -- pipeline schedules: closed-form bubbles and the event simulator
 * (pipeline.c); it includes schedules.h, the schedule table (schedules.c).  The sources
 * of every formula and op order are with each row in schedules.c.
 */
#ifndef CALC_PIPELINE_H
#define CALC_PIPELINE_H

#include <stdio.h>

#include "bounds.h"
#include "diag.h"
#include "plan.h"
#include "table.h"

/*
 * Per-op costs of one pipeline run.  tf[i], tb[i], tw[i] are the times of one
 * micro-batch through *all* layers of stage i (all its chunks together): forward,
 * backward for inputs (B) and backward for weights (W).  A schedule that does not
 * split the backward runs B and W as one op of tb + tw; with v chunks per stage
 * each chunk op costs 1/v of the stage's time.
 *
 * DualPipe: rank i holds two chunks, stage i of the forward direction and stage
 * p-1-i of the reverse direction (DeepSeek-V3 §3.2.1); a chunk op of path stage k
 * costs tf[k] (tb[k], tw[k]), so index i of the arrays names a stage of the model,
 * which is what an uneven split (embedding on stage 0, LM head on stage p-1) needs.
 *
 * per_chunk = 1 (a schedule with v > 1 chunks, not DualPipe, p v <= CALC_MAX_STAGES):
 * tf[g], tb[g], tw[g] are the times of one micro-batch through virtual stage
 * g = chunk p + stage alone, so chunks of one stage may differ (a layout placed chunk
 * by chunk, model.c calc_layout_chunks); a stage's time is the sum of its chunks.
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
	int steps;   /* back-to-back steps without a flush between them (0 or 1: one step;
	                2: also measure the steady-state period, see calc_pp_result.period) */
	int per_chunk; /* 1: tf, tb, tw per virtual stage (above); 0: per stage, chunks equal */
};

/* One executed op of the timeline. */
struct calc_pp_op {
	int stage;    /* 0-based */
	char op;      /* 'F', 'B' (input grads, or the whole backward), 'W' (weight grads) */
	char full;    /* 1: this 'B' is the whole backward (B and W in one op) */
	char pair;    /* 1: this F and the next op (a B) are one overlapped "F&B" pair
	                 (DualPipe): the F starts when the inputs of both are in */
	int mb;       /* micro-batch, 0-based (step k numbers its micro-batches k*m ...) */
	int chunk;    /* model chunk on this stage, 0-based; DualPipe: direction (0: enters at
	                 stage 0, 1: enters at stage p-1) */
	double start; /* [s] */
	double end;   /* [s] */
};

struct calc_pp_result {
	double makespan;                       /* one step: time 0 to the last op's end [s] */
	double period;                         /* steady-state time per step when steps >= 2
	                                          (last step's end minus the one before); else
	                                          = makespan [s] */
	double ideal;                          /* largest busy time of a stage in one step [s] */
	double bubble_overhead;                /* (period - ideal) / ideal [fraction] */
	double bubble_fraction;                /* (period - ideal) / period [fraction 0..1] */
	double busy[CALC_MAX_STAGES];          /* one step [s] */
	double idle[CALC_MAX_STAGES];          /* makespan - busy [s] */
	double peak_inflight[CALC_MAX_STAGES]; /* micro-batch activation sets (units of one
	                                          stage's layers) held from F until B ends */
	double peak_wpending[CALC_MAX_STAGES]; /* split backwards whose W has not yet run (the
	                                          M_W of Qi et al. 2024 §2.3) at the peak */
	int nops;
	struct calc_pp_op *ops;                /* owned; calc_pp_result_free; grouped by stage,
	                                          in execution order */
};

/*
 * Simulate one schedule op by op.  Each stage runs its ops in the schedule's order; an
 * op starts when its stage is free and its inputs have arrived (the previous stage's F,
 * the next stage's B, plus c->p2p when they cross stages).  Returns 0, or -1 after a
 * diagnostic when the costs are out of range, the schedule does not apply (for example
 * interleaving with m not a multiple of p) or a dependency is violated.  The result's
 * ops array is allocated once, sized up front; free it with calc_pp_result_free.
 */
int calc_pipeline_simulate(const struct calc_pp_costs *c, struct calc_pp_result *r,
                           struct calc_diag *d);
/* calc_pipeline_simulate for the figures alone: r->ops may be left NULL (a shape
 * simulated before is replayed without copying its timeline); the caller frees 'r' with
 * calc_pp_result_free as ever. */
int calc_pipeline_simulate_times(const struct calc_pp_costs *c, struct calc_pp_result *r,
                                 struct calc_diag *d);
/* The makespan and period of calc_pipeline_simulate's result alone (0 and -1 as it):
 * a shape simulated before is replayed from its compiled op order, computing each op's
 * end with the very sums the event loop computes, so both are the same bits. */
int calc_pipeline_simulate_span(const struct calc_pp_costs *c, double *makespan, double *period,
                                struct calc_diag *d);
/*
 * Simulate a caller-given order: 'ops' (nops entries, fields stage, op, full, mb, chunk)
 * grouped by stage in execution order, as calc_pipeline_simulate produces them.  Fills
 * start and end in place and r's figures (r->ops stays NULL: the caller owns 'ops').
 * Fails with a diagnostic naming the op when a dependency cannot be met (a B before its
 * F, a micro-batch out of stage order) or an op is missing or repeated.
 */
int calc_pipeline_simulate_ops(const struct calc_pp_costs *c, struct calc_pp_op *ops, int nops,
                               struct calc_pp_result *r, struct calc_diag *d);
void calc_pp_result_free(struct calc_pp_result *r);

/*
 * Closed forms for uniform stages (the same tf, tb, tw on every stage) and no p2p cost.
 * Times are per stage per step; the papers' formulas are with the rows in schedules.c.
 */
struct calc_pp_closed {
	double bubble;          /* idle time per stage per step [s] */
	double ideal;           /* busy time per stage per step m(tf + tb + tw) [s] */
	double overhead;        /* bubble / ideal (Narayanan's (p-1)/m) [fraction] */
	double fraction;        /* bubble / (ideal + bubble) (idle share) [fraction 0..1] */
	double inflight_peak;   /* micro-batch activation sets held by the busiest stage */
	int param_copies;       /* the row's copies: 2 for DualPipe, else 1 */
	int exact;              /* 1: the event simulator reproduces these figures for
	                           this (p, m, v); 0: outside the formula's conditions */
	const char *source;     /* where the formula comes from */
};
void calc_pipeline_closed(enum calc_schedule s, int p, int m, int v, double tf, double tb,
                          double tw, struct calc_pp_closed *out);
/* As calc_pipeline_closed; 'flush' = 1 charges ZB-H2 the flush between steps that a run
 * without optimizer post-validation has (parallel.post_validation = no). */
void calc_pipeline_closed_flush(enum calc_schedule s, int p, int m, int v, double tf, double tb,
                                double tw, int flush, struct calc_pp_closed *out);
/* Simulated steps for a schedule's bubble under the plan's convention: 2 (the steady
 * state of back-to-back steps) except ZB-H2 with a flush, 1. */
int calc_pipeline_sim_steps(enum calc_schedule s, const struct calc_plan *plan);

/* Peak in-flight micro-batches of stage 'stage' for a schedule, as the closed form
 * gives it (calc_pipeline_inflight for the plan's schedule uses this). */
double calc_pipeline_inflight_for(enum calc_schedule s, int p, int m, int v, int stage);
/* Micro-batches (in units of one stage's full activation set) that stage 'stage'
 * holds at its peak under the plan's schedule; see pipeline.c for sources. */
double calc_pipeline_inflight(const struct calc_plan *plan, int stage);
/* The same for m micro-batches and v chunks, with the plan's schedule and pipeline runtime
 * (parallel.pp_runtime = torch counts torch's interleaved warm-up at m = p). */
double calc_pipeline_inflight_run(const struct calc_plan *plan, int m, int v, int stage);
/* calc_pipeline_inflight_run of stages 0 .. n-1 (n <= plan->pp) into out[0 .. n-1]: the
 * same numbers, the schedule's row looked up once (the planner's candidate stages ask
 * every stage of each new (schedule, vpp, m): 15,590 calls of `trainplan search
 * --threads 1 --plan plans/llama3-405b-h100.ini`, whose instructions went 48.63 -> 48.02
 * M, callgrind; Llama 2 70B 37.55 -> 37.27 M). */
void calc_pipeline_inflight_stages(const struct calc_plan *plan, int m, int v, int n, double *out);
/* Copies of the parameters each GPU holds (2 for DualPipe, else 1). */
int calc_pipeline_param_copies(const struct calc_plan *plan);

/* Fill 'c' with equal unit costs (tf = tb = tw = 1 on every stage, p2p = 0). */
void calc_pp_costs_unit(struct calc_pp_costs *c, enum calc_schedule s, int p, int m, int v);

/* The schedule table (schedules.c) has its own header. */
#include "schedules.h"

/*
 * Write an ASCII Gantt chart of a simulated timeline to 'out', one line per stage.  Time
 * runs in cells of 'unit' seconds (<= 0: the shortest op); each cell is as wide as the
 * label "F12" of the largest micro-batch.  An op prints its label (F, B or W and the
 * micro-batch) in its first cell and '=' in the cells it continues over; '.' is idle.
 * Upper case: chunk 0 (or DualPipe's forward direction); lower case: chunk 1 (reverse
 * direction); further chunks alternate.  A legend line follows.
 */
void calc_pipeline_gantt(const struct calc_pp_result *r, double unit, FILE *out);
/*
 * The size calc_pipeline_gantt would write for r and 'unit' [B] (a double: a tiny unit
 * makes it astronomical), and in *used the unit it would use [s].  The chart is checked
 * against a bound with it before any line is written.
 */
double calc_pipeline_gantt_size(const struct calc_pp_result *r, double unit, double *used);

/*
 * Tables shared by the catalog and the CLI.  calc_pipeline_curves fills 't' with the
 * closed-form bubble fraction against m (one row per m in 'ms') for each p in 'ps' and
 * each v in 'vs' (v = 1: 1F1B; v > 1: interleaved), one column per (p, v).
 * calc_pipeline_timeline fills 't' with one row per op of 'r' (stage, op, kind,
 * micro-batch, chunk, start, end), ready for a gnuplot Gantt chart.
 * calc_pipeline_compare fills 't' with every schedule at the plan's p and m: closed-form
 * and simulated bubble (equal unit costs), peak in-flight activations, parameter copies
 * and the memory engine's activation and total memory.  Returns 0 or -1.
 */
void calc_pipeline_curves(struct calc_table *t, const char *name, const int *ps, int np,
                          const int *vs, int nv, const int *ms, int nm);
void calc_pipeline_timeline(struct calc_table *t, const char *name, const struct calc_pp_result *r,
                            const struct calc_pp_costs *c);
/* Most ops a timeline table holds (one row each, ~170 bytes a row in memory): the
 * simulator goes to 2^26 ops, but a table of 8 million rows took 1.4 GB and 40 s. */
#define CALC_TIMELINE_MAX_OPS (1 << 20)
int calc_pipeline_compare(const struct calc_plan *plan, struct calc_table *t, const char *name,
                          struct calc_diag *d);

/* Check the plan's schedule settings (vpp, m against p, evenness for DualPipe ...).
 * Called by calc_plan_validate with origin = calc_plan_keys_origin; returns 0 or -1
 * with one message per problem, each at origin(plan, keys) for the keys of that
 * problem (NULL: at the plan file, no line).  The locator is passed in, not called
 * by name, because plan.c calls this file. */
int calc_pipeline_check(const struct calc_plan *plan,
                        const char *(*origin)(const struct calc_plan *plan, const char *keys, int *line),
                        struct calc_diag *d);

#endif
