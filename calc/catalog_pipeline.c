/*
 * catalog_pipeline.c -- the catalog entries of the pipeline engine (pipeline.c): bubble
 * and in-flight quantities of the plan's schedule, the schedule comparison table, the
 * bubble curves and the per-schedule timelines.
 *
 * Closed forms (Narayanan et al. 2021 §2.2, Qi et al. 2024 Table 2, DeepSeek-V3 Table 2)
 * and the event simulator are pipeline.c's; the comparison's memory columns are the
 * memory engine's (memory.c).  This file only picks parameters and fills tables.
 */
#include "bounds.h"
#include "diag.h"
#include "plan.h"
#include "memory.h"
#include "table.h"
#include "catalog.h"
#include "pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Why schedule s cannot run at (p, m, v) with 'layers' split evenly; NULL when it can:
 * the vpp conditions, then the row's own. */
static const char *not_applicable(const struct calc_sched *row, int p, int m, int v, int layers)
{
	if (row->uses_vpp && p < 2)
		return "needs p >= 2";
	if (row->check) {
		const char *why = row->check(p, m, v, NULL, NULL);
		if (why)
			return why;
	}
	if (row->uses_vpp && layers > 0 && layers % (p * v))
		return "layers not divisible by p x v";
	return NULL;
}

int calc_pipeline_compare(const struct calc_plan *plan, struct calc_table *t, const char *name,
                          struct calc_diag *d)
{
	int p = plan->pp, m = calc_plan_microbatches(plan);
	struct calc_memory *mem = xmalloc(sizeof *mem);
	char title[160];

	snprintf(title, sizeof title, "Pipeline schedules at p = %d, m = %d: bubble and memory", p, m);
	calc_table_init(t, name, title);
	calc_table_col(t, "schedule", "", CALC_D_TEXT, 0);
	calc_table_col(t, "v", "", CALC_D_INT, 0);
	calc_table_col(t, "bubble_overhead", "1", CALC_D_PCT, 2);
	calc_table_col(t, "bubble_fraction", "1", CALC_D_PCT, 2);
	calc_table_col(t, "simulated_fraction", "1", CALC_D_PCT, 2);
	calc_table_col(t, "inflight", "1", CALC_D_NUM, 4);
	calc_table_col(t, "param_copies", "1", CALC_D_INT, 0);
	calc_table_col(t, "activations", "B", CALC_D_GB, 2);
	calc_table_col(t, "total", "B", CALC_D_GB, 2);
	calc_table_col(t, "note", "", CALC_D_TEXT, 0);
	for (int s = 0; s < calc_schedule_count(); s++) {
		const struct calc_sched *row = calc_schedule_at(s);
		int v = calc_schedule_vpp((enum calc_schedule)s, plan->vpp), r = calc_table_row(t);
		const char *why = not_applicable(row, p, m, v, plan->model.layers);
		struct calc_pp_closed cf;
		struct calc_plan var = *plan;
		double act = 0;

		calc_table_str(t, r, 0, row->name);
		calc_table_num(t, r, 1, v);
		if (why) {
			for (int c = 2; c <= 8; c++)
				calc_table_num(t, r, c, NAN);
			calc_table_str(t, r, 9, why);
			continue;
		}
		calc_pipeline_closed_flush((enum calc_schedule)s, p, m, v, 1, 1, 1, !plan->post_validation, &cf);
		calc_table_num(t, r, 2, cf.overhead);
		calc_table_num(t, r, 3, cf.fraction);
		{
			struct calc_pp_costs c;
			struct calc_pp_result res;
			calc_pp_costs_unit(&c, (enum calc_schedule)s, p, m, v);
			c.steps = calc_pipeline_sim_steps((enum calc_schedule)s, plan);
			if (calc_pipeline_simulate(&c, &res, d) < 0) {
				free(mem);
				calc_table_free(t); /* a failure leaves no table to free */
				return -1;
			}
			calc_table_num(t, r, 4, res.bubble_fraction);
			calc_pp_result_free(&res);
		}
		calc_table_num(t, r, 5, cf.inflight_peak);
		calc_table_num(t, r, 6, cf.param_copies);
		var.schedule = (enum calc_schedule)s;
		var.vpp = v;
		if (calc_memory(&var, mem, d) < 0) {
			free(mem);
			calc_table_free(t);
			return -1;
		}
		for (int i = 0; i < mem->nstages; i++)
			if (mem->st[i].activations > act)
				act = mem->st[i].activations;
		calc_table_num(t, r, 7, act);
		calc_table_num(t, r, 8, mem->st[mem->worst].total);
		calc_table_str(t, r, 9, row->flushed ? (plan->post_validation ? "no flush between steps"
		                                                              : "flushed: no post-validation")
		                                     : row->note);
	}
	free(mem);
	calc_table_note(t, "Bubble: closed forms (Narayanan et al. 2021 §2.2; Qi et al. 2024 Table 2; "
	                "DeepSeek-V3 Table 2) and the event simulator's steady-state period, both at equal "
	                "unit costs T_F = T_B = T_W on every stage (backward = 2 forward when not split) and no "
	                "p2p time.  Overhead = idle / ideal time; fraction = idle share of the step.  ZB-H2's "
	                "zero bubble assumes the optimizer post-validation of Qi et al. 2024 (parallel.post_validation = yes); "
	                "without it a flush between steps leaves (p-1) max(T_F, T_F+T_B-2T_W) idle, simulated as one step.  "
	                "inflight = micro-batch activation sets on the stage that holds the most (the first); activations = largest "
	                "per-stage activation memory per GPU and total = worst stage's memory per GPU, from "
	                "the memory engine with each schedule's in-flight count and parameter copies.  "
	                "GB = 10^9 bytes.");
	return 0;
}

/* ---------------------------------------------------------------- catalog */

/* Per-plan cache: closed form and simulation of the plan's schedule. */
struct pp_cache {
	struct calc_pp_closed cf;
	struct calc_pp_result sim; /* without ops */
	int have_sim;
};

static void pp_cache_free(void *p)
{
	free(p);
}

static struct pp_cache *pp_cache_get(struct calc_ctx *c, int need_sim, struct calc_diag *d)
{
	struct pp_cache *k = c->slot[CALC_SLOT_PIPELINE];
	const struct calc_plan *pl = &c->plan;
	int v = pl->schedule == CALC_SCHED_INTERLEAVED ? pl->vpp : 1;

	if (!k) {
		k = xcalloc(1, sizeof *k);
		calc_pipeline_closed_flush(pl->schedule, pl->pp, calc_plan_microbatches(pl), v, 1, 1, 1,
		                           !pl->post_validation, &k->cf);
		c->slot[CALC_SLOT_PIPELINE] = k;
		c->slot_free[CALC_SLOT_PIPELINE] = pp_cache_free;
	}
	if (need_sim && !k->have_sim) {
		struct calc_pp_costs cs;
		calc_pp_costs_unit(&cs, pl->schedule, pl->pp, calc_plan_microbatches(pl), v);
		cs.steps = calc_pipeline_sim_steps(pl->schedule, pl);
		if (calc_pipeline_simulate(&cs, &k->sim, d) < 0)
			return NULL;
		calc_pp_result_free(&k->sim);
		k->have_sim = 1;
	}
	return k;
}

#define QCF(fn, expr)                                                                    \
	static int fn(struct calc_ctx *c, struct calc_value *out, struct calc_diag *d)    \
	{                                                                                  \
		struct pp_cache *k = pp_cache_get(c, 0, d);                                \
		if (!k)                                                                    \
			return -1;                                                         \
		out->num = (expr);                                                         \
		out->str = NULL;                                                           \
		return 0;                                                                  \
	}
#define QSIM(fn, expr)                                                                   \
	static int fn(struct calc_ctx *c, struct calc_value *out, struct calc_diag *d)    \
	{                                                                                  \
		struct pp_cache *k = pp_cache_get(c, 1, d);                                \
		if (!k)                                                                    \
			return -1;                                                         \
		out->num = (expr);                                                         \
		out->str = NULL;                                                           \
		return 0;                                                                  \
	}

QCF(q_overhead, k->cf.overhead)
QCF(q_fraction, k->cf.fraction)
QCF(q_inflight, k->cf.inflight_peak)
QCF(q_copies, k->cf.param_copies)
QSIM(q_sim_fraction, k->sim.bubble_fraction)
QSIM(q_sim_overhead, k->sim.bubble_overhead)
QSIM(q_sim_inflight, k->sim.peak_inflight[0])

const struct calc_quantity calc_q_pipeline[] = {
	{"pipeline.bubble_overhead", "1",
	 "pipeline bubble as idle / ideal time (Narayanan's (p-1)/m), closed form, plan's schedule", q_overhead},
	{"pipeline.bubble_fraction", "1",
	 "pipeline bubble as idle share of the step ((p-1)/(m+p-1) for 1F1B), closed form", q_fraction},
	{"pipeline.sim_bubble_overhead", "1", "bubble idle / ideal time from the event simulator (unit costs)",
	 q_sim_overhead},
	{"pipeline.sim_bubble_fraction", "1", "bubble idle share of the step from the event simulator (unit costs)",
	 q_sim_fraction},
	{"pipeline.inflight_peak", "1", "micro-batch activation sets held by stage 0 (the most of any stage under the 1F1B family)",
	 q_inflight},
	{"pipeline.sim_inflight_peak", "1", "activation sets held by stage 0 in the event simulator",
	 q_sim_inflight},
	{"pipeline.param_copies", "1", "copies of the parameters per GPU (2 for DualPipe)", q_copies},
	{NULL, NULL, NULL, NULL},
};

static int t_compare(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                     struct calc_diag *d)
{
	return calc_pipeline_compare(&c->plan, t, "schedule-compare", d);
}

/* The dataset of the same name adds the usable memory per GPU [bytes] as a last column,
 * for the chart's capacity line (figures/schedule-compare.gp). */
static int d_compare(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                     struct calc_diag *d)
{
	struct calc_table base;
	memset(&base, 0, sizeof base);
	if (calc_pipeline_compare(&c->plan, &base, "schedule-compare", d) < 0) {
		calc_table_free(&base);
		return -1;
	}
	calc_table_init(t, base.name, base.title);
	for (int k = 0; k < base.ncols; k++)
		calc_table_col(t, base.cols[k].name, base.cols[k].unit, base.cols[k].disp, base.cols[k].prec);
	int cap = calc_table_col(t, "capacity", "B", CALC_D_GB, 2);
	for (int r = 0; r < base.nrows; r++) {
		int row = calc_table_row(t);
		for (int k = 0; k < base.ncols; k++) {
			const struct calc_cell *e = &base.cells[r * base.ncols + k];
			if (e->s)
				calc_table_str(t, row, k, e->s);
			else
				calc_table_num(t, row, k, e->v);
		}
		calc_table_num(t, row, cap, c->plan.gpu_memory);
	}
	if (base.note)
		calc_table_note(t, base.note);
	calc_table_free(&base);
	return 0;
}

/* Parse "2,4,8" into at most 'max' positive integers; returns the count or -1. */
static int int_list(const char *key, const char *v, int *out, int max, int lo, int hi,
                    struct calc_diag *d)
{
	int n = 0;
	while (v && *v) {
		char *end;
		long x = strtol(v, &end, 10);
		if (end == v || x < lo || x > hi || (*end && *end != ','))
			return calc_error_id(d, CALC_M_BAD_ARGUMENT, NULL, 0, "%s = %s: expected a comma-separated list of integers "
			                  "%d .. %d", key, v, lo, hi);
		if (n >= max)
			return calc_error_id(d, CALC_M_BAD_ARGUMENT, NULL, 0, "%s: at most %d values", key, max);
		out[n++] = (int)x;
		v = *end ? end + 1 : end;
	}
	return n;
}

static int d_curves(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                    struct calc_diag *d)
{
	int ps[8] = {2, 4, 8, 16, 32}, vs[4] = {1, 2, 4}, ms[64], np = 5, nv = 3, nm = 0;
	const char *v;
	for (int m = 1; m <= 256; m = m < 8 ? m + 1 : m < 32 ? m + 4 : m < 64 ? m + 8 : m + 16)
		ms[nm++] = m;
	if ((v = calc_args_get(a, "p")) && (np = int_list("p", v, ps, 8, 1, CALC_MAX_STAGES, d)) < 0)
		return -1;
	if ((v = calc_args_get(a, "v")) && (nv = int_list("v", v, vs, 4, 1, 64, d)) < 0)
		return -1;
	if ((v = calc_args_get(a, "m")) && (nm = int_list("m", v, ms, 64, 1, 1 << 20, d)) < 0)
		return -1;
	if (np * nv + 1 > 24)
		return calc_error(d, NULL, 0, "bubble-curves: %d x %d curves: at most 23", np, nv);
	calc_pipeline_curves(t, "bubble-curves", ps, np, vs, nv, ms, nm);
	return 0;
}

static int gantt_dataset(enum calc_schedule s, const char *name, const struct calc_args *a,
                         struct calc_table *t, struct calc_diag *d)
{
	struct calc_pp_costs c;
	struct calc_pp_result r;
	int p = 4, m = 8, v = s == CALC_SCHED_INTERLEAVED ? 2 : 1, n;
	const char *x;
	if ((x = calc_args_get(a, "p")) && (n = int_list("p", x, &p, 1, 1, CALC_MAX_STAGES, d)) < 0)
		return -1;
	if ((x = calc_args_get(a, "m")) && (n = int_list("m", x, &m, 1, 1, 4096, d)) < 0)
		return -1;
	if ((x = calc_args_get(a, "v")) && (n = int_list("v", x, &v, 1, 1, 64, d)) < 0)
		return -1;
	calc_pp_costs_unit(&c, s, p, m, v);
	if (calc_pipeline_simulate(&c, &r, d) < 0)
		return -1;
	if (r.nops > CALC_TIMELINE_MAX_OPS) {
		calc_error(d, NULL, 0, "%s: p = %d, m = %d, v = %d give %d ops, one row each: at most %d",
		           name, p, m, v, r.nops, CALC_TIMELINE_MAX_OPS);
		calc_pp_result_free(&r);
		return -1;
	}
	calc_pipeline_timeline(t, name, &r, &c);
	calc_pp_result_free(&r);
	return 0;
}

#define GANTT(fn, sched, name)                                                             \
	static int fn(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,  \
	              struct calc_diag *d)                                                 \
	{                                                                                  \
		return gantt_dataset(sched, name, a, t, d);                                \
	}
GANTT(d_g_gpipe, CALC_SCHED_GPIPE, "schedule-gantt-gpipe")
GANTT(d_g_1f1b, CALC_SCHED_1F1B, "schedule-gantt-1f1b")
GANTT(d_g_int, CALC_SCHED_INTERLEAVED, "schedule-gantt-interleaved")
GANTT(d_g_zbh1, CALC_SCHED_ZBH1, "schedule-gantt-zb-h1")
GANTT(d_g_zbh2, CALC_SCHED_ZBH2, "schedule-gantt-zb-h2")
GANTT(d_g_dual, CALC_SCHED_DUALPIPE, "schedule-gantt-dualpipe")

const struct calc_tabledef calc_t_pipeline[] = {
	{"schedule-compare", "bubble and peak activation memory of every schedule at the plan's p and m", "",
	 t_compare},
	{NULL, NULL, NULL, NULL},
};

#define GANTT_ARGS "p=N m=N v=N (default p=4 m=8, v=2 for interleaved)"
const struct calc_tabledef calc_d_pipeline[] = {
	{"bubble-curves", "bubble fraction vs m for p in {2,4,8,16,32}, 1F1B and interleaved v = 2, 4",
	 "p=LIST v=LIST m=LIST", d_curves},
	{"schedule-gantt-gpipe", "GPipe timeline at p = 4, m = 8 (unit costs), one row per op", GANTT_ARGS,
	 d_g_gpipe},
	{"schedule-gantt-1f1b", "1F1B timeline at p = 4, m = 8 (unit costs)", GANTT_ARGS, d_g_1f1b},
	{"schedule-gantt-interleaved", "interleaved 1F1B timeline at p = 4, m = 8, v = 2 (unit costs)",
	 GANTT_ARGS, d_g_int},
	{"schedule-gantt-zb-h1", "ZB-H1 timeline at p = 4, m = 8 (unit costs)", GANTT_ARGS, d_g_zbh1},
	{"schedule-gantt-zb-h2", "ZB-H2 timeline at p = 4, m = 8 (unit costs)", GANTT_ARGS, d_g_zbh2},
	{"schedule-gantt-dualpipe", "DualPipe timeline at p = 4, m = 8 (unit costs)", GANTT_ARGS, d_g_dual},
	{"schedule-compare", "bubble and peak activation memory of every schedule at the plan's p and m", "",
	 d_compare},
	{NULL, NULL, NULL, NULL},
};
