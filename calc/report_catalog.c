/*
 * report_catalog.c -- catalog tables and datasets the design report needs and no engine
 * module provides: comparisons of one plan under a few variants (recomputation policy,
 * recipe), the 1F1B bubble over a p x m grid, per-stage monitoring baselines, and
 * model-state memory by model size as a dataset for a chart.  (The validation rows
 * live in validate.c, shared with `trainplan validate`.)
 *
 * Nothing here is a new formula: every number comes from the engines (memory.c,
 * pipeline.c, step.c) through the catalog or their public functions, evaluated for a
 * copy of the plan changed by calc_plan_set.  Sources of the formulas are the engines'
 * (docs/references.md §1-§7).
 */
#include "bounds.h"
#include "diag.h"
#include "recipe.h"
#include "plan.h"
#include "variant.h"
#include "memory.h"
#include "table.h"
#include "pool.h"
#include "catalog.h"
#include "search.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================== */
/* Plan variants                                                             */
/* ======================================================================== */

/*
 * Initialise 'vc' with a copy of c's plan changed by the assignments "k=v" in 'sets'
 * (NULL-terminated).  Returns 0, or -1 after a diagnostic when the changed plan is
 * not valid.  The assignments are the report's own, so a malformed one is a defect here.
 * The caller frees 'vc' with calc_ctx_free.
 */
static int variant(const struct calc_ctx *c, const struct calc_layout *lay, const char *const *sets, int n,
                   struct calc_ctx *vc, struct calc_diag *d)
{
	struct calc_plan *p = xmalloc(sizeof *p);
	/* one validation of the whole variant: pp x 2 with dp / 2 is only valid together */
	if (calc_plan_variant(&c->plan, lay, sets, n, "report", CALC_VARIANT_VALIDATE, p, d) < 0) {
		free(p);
		return -1;
	}
	calc_ctx_init(vc, p);
	free(p);
	return 0;
}

/*
 * As variant(), but without validating the result: for the memory of a recipe that this
 * GPU cannot run (an FP8 recipe on a GPU without FP8 tensor cores), whose memory is
 * still well defined.  Only memory quantities may be read from such a context.
 */
static void variant_memory_only(const struct calc_ctx *c, const char *const *sets, int n, struct calc_ctx *vc)
{
	struct calc_plan *p = xmalloc(sizeof *p);
	/* the validator's refusal (FP8 on this GPU) is expected: the plan is changed anyway */
	calc_plan_variant(&c->plan, NULL, sets, n, "report", CALC_VARIANT_UNCHECKED, p, NULL);
	calc_ctx_init(vc, p);
	free(p);
}

/*
 * The few results of a context this file reads, taken from the engines' caches
 * (calc_ctx_memory, calc_ctx_step) rather than by catalog name, so that this file,
 * which the catalog lists, never calls the catalog back.
 */
enum rc_val {
	V_GPU_MEMORY,      /* usable memory per GPU [B] */
	V_MEM_TOTAL,       /* memory per GPU, worst stage [B] */
	V_MEM_ACT,         /* activations per GPU, worst stage [B] */
	V_MEM_STATES,      /* model states per GPU, worst stage [B] */
	V_MEM_COPIES,      /* extra weight copies per GPU, worst stage [B] */
	V_MEM_FITS,        /* 1 when every stage fits */
	V_STATES_TOTAL,    /* model states of the whole model [B] */
	V_MIN_GPUS_NOM,    /* GPUs of nominal memory for the states */
	V_BPP,             /* bytes per parameter, unsharded [B] */
	V_BPP_GPU,         /* bytes per parameter per GPU after ZeRO [B] */
	V_STEP_TIME,       /* [s] */
	V_STEP_RECOMPUTE,  /* [s] */
	V_STEP_MFU,        /* [1] */
	V_STEP_HFU,        /* [1] */
	V_STEP_PEAK,       /* dense BF16 peak [FLOP/s] */
	V_STEP_GEMM_PEAK,  /* dense peak the layer GEMMs run at: FP8 for FP8 recipes [FLOP/s] */
	V_STEP_MFU_GEMM,   /* MFU against the GEMM peak (step.mfu_fp8 for FP8 recipes) [1] */
	V_RUN_TIME,        /* [s] */
};

/* One result of a context as a number; NAN (and a diagnostic, *bad = 1) when it fails. */
static double num(struct calc_ctx *c, enum rc_val which, struct calc_diag *d, int *bad)
{
	const struct calc_plan *p = &c->plan;
	if (which == V_GPU_MEMORY)
		return p->gpu_memory;
	if (which == V_BPP)
		return calc_recipe_total(p->recipe);
	if (which == V_BPP_GPU) {
		double s = 0;
		for (int k = 0; k < CALC_T_NCLASS; k++)
			s += calc_recipe_bytes_sharded(p->recipe, (enum calc_tclass)k, p->zero, p->dp * p->cp);
		return s;
	}
	if (which <= V_MIN_GPUS_NOM) {
		const struct calc_memory *m = calc_ctx_memory(c, d);
		const struct calc_mem_stage *w;
		if (!m) {
			*bad = 1;
			return NAN;
		}
		w = &m->st[m->worst];
		switch (which) {
		case V_MEM_TOTAL: return w->total;
		case V_MEM_ACT: return w->activations;
		case V_MEM_STATES: return w->states;
		case V_MEM_COPIES: return w->weight_copies;
		case V_MEM_FITS: return m->fits;
		case V_STATES_TOTAL: return m->states_total;
		default: return m->states_min_gpus_nominal;
		}
	}
	{
		const struct calc_step *st = calc_ctx_step(c, d);
		if (!st) {
			*bad = 1;
			return NAN;
		}
		switch (which) {
		case V_STEP_TIME: return st->time;
		case V_STEP_RECOMPUTE: return st->recompute;
		case V_STEP_MFU: return st->mfu;
		case V_STEP_HFU: return st->hfu;
		case V_STEP_PEAK: return st->peak;
		case V_STEP_GEMM_PEAK: return st->gemm_peak;
		case V_STEP_MFU_GEMM: return st->mfu_fp8 > 0 ? st->mfu_fp8 : st->mfu;
		default: return st->run_time;
		}
	}
}

/* ======================================================================== */
/* recompute-compare: none / selective / full on this plan                   */
/* ======================================================================== */

/*
 * One row per recomputation policy (Korthikanti et al. 2022 §5: none, selective, full):
 * activations and total memory of the worst stage, whether every stage fits, the
 * recomputation time per step, step time, MFU and HFU (PaLM §4).  Memory from memory.c,
 * times from step.c, so the policies differ only in what the engines compute.
 */
static int b_recompute(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                       struct calc_diag *d)
{
	calc_table_init(t, "recompute-compare", "Activation recomputation on this plan: memory against time");
	static const char *const pol[] = {"none", "selective", "full"};
	int cp = calc_table_col(t, "recompute", "", CALC_D_TEXT, 0);
	int cact = calc_table_col(t, "activations", "B", CALC_D_GB, 1);
	int ctot = calc_table_col(t, "total", "B", CALC_D_GB, 1);
	int ccap = calc_table_col(t, "capacity", "B", CALC_D_GB, 1);
	int cfit = calc_table_col(t, "fits", "", CALC_D_TEXT, 0);
	int crec = calc_table_col(t, "recompute time", "s", CALC_D_MS, 0);
	int cstep = calc_table_col(t, "step", "s", CALC_D_S, 2);
	/* step.mfu's peak, the dense BF16 one, named as recipe-compare names the GEMMs' */
	int cmfu = calc_table_col(t, "MFU of BF16 peak", "1", CALC_D_PCT, 1);
	int chfu = calc_table_col(t, "HFU", "1", CALC_D_PCT, 1);
	int bad = 0;
	for (int i = 0; i < 3; i++) {
		char kv[64];
		snprintf(kv, sizeof kv, "parallel.recompute=%s", pol[i]);
		const char *sets[] = {kv, NULL};
		struct calc_ctx vc;
		if (variant(c, NULL, sets, 1, &vc, d) < 0)
			return -1;
		int r = calc_table_row(t);
		calc_table_str(t, r, cp, pol[i]);
		calc_table_num(t, r, cact, num(&vc, V_MEM_ACT, d, &bad));
		calc_table_num(t, r, ctot, num(&vc, V_MEM_TOTAL, d, &bad));
		calc_table_num(t, r, ccap, num(&vc, V_GPU_MEMORY, d, &bad));
		calc_table_str(t, r, cfit, num(&vc, V_MEM_FITS, d, &bad) > 0 ? "yes" : "no");
		calc_table_num(t, r, crec, num(&vc, V_STEP_RECOMPUTE, d, &bad));
		calc_table_num(t, r, cstep, num(&vc, V_STEP_TIME, d, &bad));
		calc_table_num(t, r, cmfu, num(&vc, V_STEP_MFU, d, &bad));
		calc_table_num(t, r, chfu, num(&vc, V_STEP_HFU, d, &bad));
		calc_ctx_free(&vc);
		if (bad)
			return -1;
	}
	calc_table_note(t, "Worst pipeline stage. Recompute time is the forward work repeated in the "
	                   "backward pass per step; MFU counts model FLOPs only, HFU adds the recomputation "
	                   "(PaLM §4, Korthikanti et al. 2022 §6.3).");
	return 0;
}

/* ======================================================================== */
/* recipe-compare: BF16 against FP8 recipes on this plan                     */
/* ======================================================================== */

/*
 * One row per recipe (default: megatron, fp8-te, fp8-lm, led by the plan's own where it is
 * none of them; recipes=a,b,...):
 * bytes per parameter unsharded and per GPU under the plan's ZeRO stage, model states
 * of the whole model, GPUs of nominal memory needed just to hold them, memory per GPU
 * of the worst stage, fits, the dense peak the GEMMs run at, step time, MFU and run
 * days.  Recipes and their sources: recipe.c (docs/references.md §2).
 */
static int b_recipes(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                     struct calc_diag *d)
{
	calc_table_init(t, "recipe-compare", "Recipes on this plan: memory, GPUs and time");
	char list[256];
	const char *given = calc_args_get(a, "recipes");
	/* the plan's own recipe leads when it is none of the three compared */
	if (given)
		snprintf(list, sizeof list, "%s", given);
	else if (strcmp(c->plan.recipe_name, "megatron") && strcmp(c->plan.recipe_name, "fp8-te") &&
	         strcmp(c->plan.recipe_name, "fp8-lm"))
		snprintf(list, sizeof list, "%s,megatron,fp8-te,fp8-lm", c->plan.recipe_name);
	else
		snprintf(list, sizeof list, "megatron,fp8-te,fp8-lm");
	int cn = calc_table_col(t, "recipe", "", CALC_D_TEXT, 0);
	int cb = calc_table_col(t, "bytes/param", "B", CALC_D_NUM, 3);
	int cbg = calc_table_col(t, "bytes/param per GPU", "B", CALC_D_NUM, 3);
	int cst = calc_table_col(t, "model states", "B", CALC_D_TB, 2);
	int cmin = calc_table_col(t, "min GPUs", "GPUs", CALC_D_INT, 0);
	int ctot = calc_table_col(t, "memory per GPU", "B", CALC_D_GB, 1);
	int ccap = calc_table_col(t, "capacity", "B", CALC_D_GB, 1);
	int cfit = calc_table_col(t, "fits", "", CALC_D_TEXT, 0);
	int cpk = calc_table_col(t, "GEMM peak", "FLOP/s", CALC_D_TFLOPS, 0);
	int cstep = calc_table_col(t, "step", "s", CALC_D_S, 2);
	/* against the peak the GEMMs run at (FP8 for an FP8 recipe), not step.mfu's BF16 peak */
	int cmfu = calc_table_col(t, "MFU of GEMM peak", "1", CALC_D_PCT, 1);
	int cday = calc_table_col(t, "run", "s", CALC_D_DAYS, 1);
	int bad = 0;
	char *save = NULL;
	for (char *r = strtok_r(list, ",", &save); r; r = strtok_r(NULL, ",", &save)) {
		char kv[96];
		snprintf(kv, sizeof kv, "training.recipe=%s", r);
		const char *sets[] = {kv, NULL};
		struct calc_ctx vc;
		struct calc_diag why = {0};
		int runs = variant(c, NULL, sets, 1, &vc, &why) == 0;
		calc_diag_free(&why);
		if (!runs) {
			/* not a valid plan here (FP8 on a GPU without FP8 tensor cores): the
			 * memory is still defined, the time is not */
			variant_memory_only(c, sets, 1, &vc);
			if (!calc_recipe_find(r)) {
				calc_ctx_free(&vc);
				return calc_error(d, NULL, 0, "recipe-compare: no recipe '%s'", r);
			}
		}
		int row = calc_table_row(t);
		calc_table_str(t, row, cn, r);
		calc_table_num(t, row, cb, num(&vc, V_BPP, d, &bad));
		calc_table_num(t, row, cbg, num(&vc, V_BPP_GPU, d, &bad));
		calc_table_num(t, row, cst, num(&vc, V_STATES_TOTAL, d, &bad));
		calc_table_num(t, row, cmin, num(&vc, V_MIN_GPUS_NOM, d, &bad));
		calc_table_num(t, row, ctot, num(&vc, V_MEM_TOTAL, d, &bad));
		calc_table_num(t, row, ccap, num(&vc, V_GPU_MEMORY, d, &bad));
		calc_table_str(t, row, cfit, num(&vc, V_MEM_FITS, d, &bad) > 0 ? "yes" : "no");
		if (runs) {
			calc_table_num(t, row, cpk, num(&vc, V_STEP_GEMM_PEAK, d, &bad));
			calc_table_num(t, row, cstep, num(&vc, V_STEP_TIME, d, &bad));
			calc_table_num(t, row, cmfu, num(&vc, V_STEP_MFU_GEMM, d, &bad));
			calc_table_num(t, row, cday, num(&vc, V_RUN_TIME, d, &bad));
		} else {
			calc_table_str(t, row, cpk, "no FP8 cores");
		}
		calc_ctx_free(&vc);
		if (bad)
			return -1;
	}
	calc_table_note(t, "min GPUs: model states of the whole model over the GPU's nominal memory, "
	                   "rounded up. Memory per GPU: worst pipeline stage with activations and "
	                   "overheads. GEMM peak: the dense peak the recipe's layer GEMMs run at (FP8 for the FP8 "
	                   "recipes); MFU is measured against it, so an FP8 recipe's MFU is its step.mfu_fp8. A recipe this GPU cannot run "
	                   "shows its memory only.");
	return 0;
}

/* ======================================================================== */
/* bubble-grid: 1F1B bubble share for p x m                                  */
/* ======================================================================== */

/*
 * Idle share of the step (p-1)/(m+p-1) for 1F1B (Narayanan et al. 2021 §2.2, the same
 * for GPipe), one row per p and one column per m, from calc_pipeline_closed.
 */
static int b_bubble_grid(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                         struct calc_diag *d)
{
	calc_table_init(t, "bubble-grid", "1F1B bubble share of the step, (p-1)/(m+p-1)");
	static const int ps[] = {2, 4, 8, 16, 32, 64};
	static const int ms[] = {1, 4, 8, 16, 32, 64, 128, 256, 512};
	int np = (int)(sizeof ps / sizeof ps[0]), nm = (int)(sizeof ms / sizeof ms[0]);
	calc_table_col(t, "p", "1", CALC_D_INT, 0);
	for (int j = 0; j < nm; j++) {
		char h[32];
		snprintf(h, sizeof h, "m = %d", ms[j]);
		calc_table_col(t, h, "1", CALC_D_PCT, 1);
	}
	for (int i = 0; i < np; i++) {
		int r = calc_table_row(t);
		calc_table_num(t, r, 0, ps[i]);
		for (int j = 0; j < nm; j++) {
			struct calc_pp_closed cl;
			calc_pipeline_closed(CALC_SCHED_1F1B, ps[i], ms[j], 1, 1, 2, 0, &cl);
			calc_table_num(t, r, j + 1, cl.fraction);
		}
	}
	calc_table_note(t, "p pipeline stages, m micro-batches per step; equal stages, no "
	                   "point-to-point cost (Narayanan et al. 2021 §2.2). GPipe has the same "
	                   "bubble; interleaving with v chunks divides the idle time by v.");
	return 0;
}

/* Margin of the monitoring alerts over the plan's predictions [fraction]. */
#define MONITOR_MARGIN 0.05

/* ======================================================================== */
/* monitor-stages: expected per-stage figures as alert baselines             */
/* ======================================================================== */

/*
 * One row per pipeline stage, from the same simulation as step.time (calc_step_stages):
 * layers, expected forward and backward time of one micro-batch (the stage's T_F and
 * T_B + T_W: layer times of step.c with the exposed TP/CP collectives and the
 * recomputation, plus embedding, LM head and loss on the first and last stage), busy
 * time per step, expected idle time (the step's pipeline part minus the busy time:
 * bubble and point-to-point waits), and the memory high-water mark of memory.c.
 * The alert columns add the stated margin (MONITOR_MARGIN) to each prediction: idle
 * alert = idle + margin x pipeline part (additive, since the busiest stage idles
 * almost not at all), memory alert = high-water x (1 + margin), at most the usable
 * memory.  A plan's own predictions are below every alert by construction; tests/calc/
 * report_catalog.c checks it for the shipped plans.
 */
static int q_monitor_margin(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	(void)c, (void)d;
	v->num = MONITOR_MARGIN;
	return 0;
}

/* The efficiency inputs the step model assumes (plan keys), for the report's prose. */
static int q_tp_overlap(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	(void)d;
	v->num = c->plan.tp_overlap;
	return 0;
}
static int q_tp_overlap_sms(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	(void)d;
	v->num = c->plan.tp_overlap_sms;
	return 0;
}
/* the hidden TP collectives' cost as a share of their hidden time, c / S (step.c
 * tp_charge; docs/references.md §4.8) */
static int q_tp_overlap_cost(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	double sms = c->plan.gpu.sms, k = c->plan.tp_overlap_sms;
	(void)d;
	v->num = sms > 0 ? (k < sms ? k / sms : 1) : 0;
	return 0;
}
static int q_dp_overlap(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	(void)d;
	v->num = c->plan.dp_overlap;
	return 0;
}
static int q_gemm_eff(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	(void)d;
	v->num = c->plan.gemm_eff;
	return 0;
}
/* the share the GEMMs with FP8 inputs run at (step.c gemm_rate): efficiency.gemm_fp8, or
 * efficiency.gemm where that is 0 */
static int q_gemm_eff_fp8(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	(void)d;
	v->num = c->plan.gemm_eff_fp8 > 0 ? c->plan.gemm_eff_fp8 : c->plan.gemm_eff;
	return 0;
}

static int b_monitor(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                     struct calc_diag *d)
{
	calc_table_init(t, "monitor-stages", "Expected per-stage figures: the alert baselines");
	const struct calc_memory *mem = calc_ctx_memory(c, d);
	const struct calc_step *st = mem ? calc_ctx_step(c, d) : NULL;
	if (!st)
		return -1;
	const struct calc_plan *p = &c->plan;
	struct calc_pp_costs *pc = xcalloc(1, sizeof *pc);
	struct calc_pp_result r;
	if (calc_step_stages(p, pc, &r, d) < 0) {
		free(pc);
		return -1;
	}
	int cs = calc_table_col(t, "stage", "1", CALC_D_INT, 0);
	int cl = calc_table_col(t, "layers", "1", CALC_D_INT, 0);
	int cf = calc_table_col(t, "forward / micro-batch", "s", CALC_D_MS, 1);
	int cb = calc_table_col(t, "backward / micro-batch", "s", CALC_D_MS, 1);
	int cbusy = calc_table_col(t, "busy / step", "s", CALC_D_MS, 0);
	int cidle = calc_table_col(t, "idle / step", "s", CALC_D_MS, 0);
	int cia = calc_table_col(t, "idle alert", "s", CALC_D_MS, 0);
	int cmem = calc_table_col(t, "memory high-water", "B", CALC_D_GB, 1);
	int cma = calc_table_col(t, "memory alert", "B", CALC_D_GB, 1);
	int chd = calc_table_col(t, "headroom", "B", CALC_D_GB, 1);
	for (int s = 0; s < mem->nstages && s < pc->p; s++) {
		int layers = p->layers_per_stage[s];
		if (layers <= 0)
			layers = p->model.layers / (p->pp > 0 ? p->pp : 1);
		double busy = r.busy[s], idle = st->makespan > busy ? st->makespan - busy : 0;
		double hw = mem->st[s].total, malert = hw * (1 + MONITOR_MARGIN);
		if (malert > p->gpu_memory && hw <= p->gpu_memory)
			malert = p->gpu_memory;
		int row = calc_table_row(t);
		calc_table_num(t, row, cs, s);
		calc_table_num(t, row, cl, layers);
		{ /* the stage's time: with costs per chunk (a layout placed chunk by chunk) the sum
		   * of its chunks, virtual stages s, s + p, ... */
			double f = 0, b = 0;
			for (int g = s; g < (pc->per_chunk ? pc->p * pc->v : s + 1); g += pc->p)
				f += pc->tf[g], b += pc->tb[g] + pc->tw[g];
			calc_table_num(t, row, cf, f);
			calc_table_num(t, row, cb, b);
		}
		calc_table_num(t, row, cbusy, busy);
		calc_table_num(t, row, cidle, idle);
		calc_table_num(t, row, cia, idle + MONITOR_MARGIN * st->makespan);
		calc_table_num(t, row, cmem, hw);
		calc_table_num(t, row, cma, malert);
		calc_table_num(t, row, chd, mem->st[s].headroom);
	}
	calc_pp_result_free(&r);
	free(pc);
	char note[640];
	snprintf(note, sizeof note,
	         "Forward and backward per micro-batch: the stage's times in the cost model's pipeline "
	         "simulation (roofline GEMMs and attention, exposed TP/CP collectives, recomputation in "
	         "the backward, embedding on the first stage, LM head and loss on the last). Idle = "
	         "pipeline part of the step minus busy time (bubble and point-to-point waits). Alerts: "
	         "idle + %.0f%% of the pipeline part; memory high-water + %.0f%%, at most the usable memory.",
	         100 * MONITOR_MARGIN, 100 * MONITOR_MARGIN);
	calc_table_note(t, note);
	return 0;
}

/* ======================================================================== */
/* network-sweep: where to put the GPUs when the network is slow             */
/* ======================================================================== */

/* The neighbours of the plan's split on the same GPUs (step_at). */
enum { NB_PLAN, NB_DEEPER, NB_WIDER, NB_TP_ACROSS, NB_PP_ACROSS, NB_N };

/*
 * The step times step_at has computed for this context, by neighbour, lever and
 * bandwidth: network.crossover_bw and both levers re-time the plan at the same grid
 * points, and each point is one pipeline simulation.  A hit returns the very number
 * computed before, so the cache changes no result.  The report computes the searches of
 * the bandwidth (the crossover, the two levers, the sweep table) ahead on the pool's
 * threads (calc_network_prefetch), so the cache is read and filled under its lock; a
 * point is computed outside it, and two threads that compute the same point compute
 * the same number (one pure function of the plan), so which one it keeps changes
 * nothing.
 */
struct net_entry {
	int which;          /* NB_* */
	const char *lever;  /* the lever's assignment (a string literal), NULL for none */
	double bw;          /* inter-node bandwidth [B/s per GPU] */
	double t;           /* step time [s], NAN when the variant is not a valid plan */
};
enum net_kind { NJ_CROSS, NJ_BF16, NJ_OVERLAP, NJ_SWEEP, NJ_N }; /* the searches queued ahead */
struct net_job {
	struct calc_job job; /* first: a job is its net_job */
	struct calc_ctx *c;  /* the context whose cache it fills */
	enum net_kind kind;
};
struct net_cache {
	int n, cap;
	struct net_entry *e;
	pthread_mutex_t lock;        /* guards n, cap, e */
	struct net_job jobs[NJ_N];   /* calc_network_prefetch's, while queued[] */
	int queued[NJ_N];            /* 1: jobs[k] was queued and not waited for yet */
};

static void net_cache_free(void *p)
{
	struct net_cache *k = p;
	if (k) {
		free(k->e);
		pthread_mutex_destroy(&k->lock);
	}
	free(k);
}

/* The context's cache, created on first use (by the thread that owns the context: the
 * expansion, or calc_network_prefetch before it queues a job). */
static struct net_cache *net_cache_of(struct calc_ctx *c)
{
	if (!c->slot[CALC_SLOT_NETWORK]) {
		struct net_cache *k = xcalloc(1, sizeof *k);
		pthread_mutex_init(&k->lock, NULL);
		c->slot[CALC_SLOT_NETWORK] = k;
		c->slot_free[CALC_SLOT_NETWORK] = net_cache_free;
	}
	return c->slot[CALC_SLOT_NETWORK];
}

/* Before reading the cache for search 'kind' on the expansion's thread: the job queued
 * for it has run (here, when no thread had started it). */
static void net_wait(struct calc_ctx *c, enum net_kind kind)
{
	struct net_cache *k = c->slot[CALC_SLOT_NETWORK];
	if (k && k->queued[kind]) {
		calc_pool_wait(&k->jobs[kind].job);
		k->queued[kind] = 0;
	}
}

/* The plan at inter-node bandwidth 'bw' [B/s per GPU] as neighbour 'which', with the
 * plan key assignment 'lever' ("efficiency.grad_reduce=bf16", only with NB_PLAN) or
 * none (NULL): its value 'what' (V_STEP_TIME, V_MEM_TOTAL, V_MEM_FITS), NAN when it is
 * not a valid plan. */
static double neighbour_value(const struct calc_ctx *c, int which, const char *lever, double bw, enum rc_val what)
{
	const struct calc_plan *p0 = &c->plan;
	int tp = p0->tp, pp = p0->pp, dp = p0->dp, G = p0->gpus_per_node, model = p0->tp * p0->pp;
	if (which == NB_DEEPER) {
		if (dp % 2)
			return NAN;
		pp *= 2, dp /= 2;
	} else if (which == NB_WIDER) {
		if (pp % 2)
			return NAN;
		pp /= 2, dp *= 2;
	} else if (which == NB_TP_ACROSS || which == NB_PP_ACROSS) {
		/* the model-parallel group t x p kept, TP over two nodes or one node */
		tp = which == NB_TP_ACROSS ? 2 * G : G;
		if (model % tp)
			return NAN;
		pp = model / tp;
	}
	if (pp < 1 || pp > CALC_MAX_STAGES || pp > p0->model.layers)
		return NAN;
	char bwset[64];
	const char *list[] = {bwset, lever};
	struct calc_layout l;
	snprintf(bwset, sizeof bwset, "cluster.inter_node_bw=%.17g", bw);
	calc_layout_keep(&l);
	if (which != NB_PLAN) /* the new stages split by the plan's rule (parallel.split) */
		l.tp = tp, l.pp = pp, l.dp = dp;
	struct calc_diag tmp = {0};
	struct calc_ctx vc;
	double t = NAN;
	if (variant(c, which != NB_PLAN ? &l : NULL, list, lever ? 2 : 1, &vc, &tmp) == 0) {
		int bad = 0;
		t = num(&vc, what, &tmp, &bad);
		calc_ctx_free(&vc);
	}
	calc_diag_free(&tmp);
	return t;
}

static double step_compute(const struct calc_ctx *c, int which, const char *lever, double bw)
{
	return neighbour_value(c, which, lever, bw, V_STEP_TIME);
}

/* step_compute, once per (which, lever, bw) of this context (struct net_cache). */
static int net_find(const struct net_cache *k, int which, const char *lever, double bw, double *t)
{
	for (int i = 0; i < k->n; i++) {
		const struct net_entry *e = &k->e[i];
		if (e->which == which && e->bw == bw &&
		    (e->lever == lever || (e->lever && lever && !strcmp(e->lever, lever)))) {
			*t = e->t;
			return 1;
		}
	}
	return 0;
}

static double step_lever_at(struct calc_ctx *c, int which, const char *lever, double bw)
{
	struct net_cache *k = c->slot[CALC_SLOT_NETWORK];
	double t;
	if (!k) /* created before any job is queued for c, so only without one */
		k = net_cache_of(c);
	pthread_mutex_lock(&k->lock);
	int hit = net_find(k, which, lever, bw, &t);
	pthread_mutex_unlock(&k->lock);
	if (hit)
		return t;
	t = step_compute(c, which, lever, bw);
	double kept;
	pthread_mutex_lock(&k->lock);
	if (!net_find(k, which, lever, bw, &kept)) {
		if (k->n == k->cap) {
			k->cap = k->cap ? 2 * k->cap : 64;
			k->e = xrealloc(k->e, (size_t)k->cap * sizeof *k->e);
		}
		k->e[k->n++] = (struct net_entry){which, lever, bw, t};
	}
	pthread_mutex_unlock(&k->lock);
	return t;
}

/*
 * The plan's split against two neighbours on the same GPUs, at inter-node bandwidth
 * 'bw' [B/s per GPU per direction]: deeper pipeline (pp x 2, dp / 2) and more data
 * parallelism (pp / 2, dp x 2).  Layers are split over the new stages by the plan's
 * rule (parallel.split, calc_layers_split).  NAN when the neighbour is not a valid plan.
 * Step times from step.c.
 */
static double step_at(struct calc_ctx *c, int which, double bw)
{
	return step_lever_at(c, which, NULL, bw);
}

static const double sweep_gbps[] = {12.5, 25, 50, 100, 200, 400, 800}; /* network-sweep's rows [Gb/s] */

static int b_network(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                     struct calc_diag *d)
{
	net_wait(c, NJ_SWEEP);
	calc_table_init(t, "network-sweep", "Step time against inter-node bandwidth: the plan and its neighbours");
	const double *gbps = sweep_gbps;
	int cg = calc_table_col(t, "network per GPU (Gb/s)", "1", CALC_D_NUM, 4);
	int cbw = calc_table_col(t, "inter_node_bw", "B/s", CALC_D_GBPS, 1);
	int cpl = calc_table_col(t, "plan", "s", CALC_D_S, 2);
	int cde = calc_table_col(t, "deeper pipeline", "s", CALC_D_S, 2);
	int cwi = calc_table_col(t, "more data parallel", "s", CALC_D_S, 2);
	for (size_t i = 0; i < sizeof sweep_gbps / sizeof sweep_gbps[0]; i++) {
		double bw = gbps[i] * 1e9 / 8;
		int r = calc_table_row(t);
		calc_table_num(t, r, cg, gbps[i]);
		calc_table_num(t, r, cbw, bw);
		calc_table_num(t, r, cpl, step_at(c, NB_PLAN, bw));
		calc_table_num(t, r, cde, step_at(c, NB_DEEPER, bw));
		calc_table_num(t, r, cwi, step_at(c, NB_WIDER, bw));
	}
	calc_table_note(t, "deeper pipeline: pp x 2 and dp / 2; more data parallel: pp / 2 and dp x 2; "
	                   "same GPUs, TP and micro-batch. Empty where the neighbour is not a valid plan.");
	return 0;
}

/*
 * The inter-node bandwidth [B/s per GPU] at which the deeper-pipeline neighbour
 * becomes as fast as the plan's split: below it, GPUs are better spent on pipeline
 * stages than on data-parallel replicas.  Found on a log grid from 1 to 1,600 Gb/s
 * and refined by bisection; 0 when the two do not cross in that range, NAN when the
 * neighbour is not a valid plan (dp odd, or 2p stages more than the layers), as every
 * other neighbour quantity (network.deeper_step_time): the chapters tell the two
 * cases apart with isfinite().
 */
static double crossover(struct calc_ctx *c);

static int q_crossover(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	net_wait(c, NJ_CROSS);
	v->num = crossover(c);
	return 0;
}

static double crossover(struct calc_ctx *c)
{
	/* One point per octave from 1 Gb/s to 2 Tb/s per GPU, then a bisection in log space
	 * of the first octave where the sign changes, to 2^-24 of an octave (a relative
	 * error below 5e-8; the chapters show whole Gb/s).  Each point simulates two plans,
	 * so the grid is coarse and the bisection short. */
	double lo = 1e9 / 8, prev = NAN, prev_bw = 0;
	for (int i = 0; i <= 11; i++) {
		double bw = lo * pow(2.0, i);
		double diff = step_at(c, NB_PLAN, bw) - step_at(c, NB_DEEPER, bw);
		if (isnan(diff))
			return NAN;
		if (i > 0 && ((prev > 0) != (diff > 0))) {
			double a = prev_bw, b = bw, fa = prev;
			for (int k = 0; k < 24; k++) {
				double mid = sqrt(a * b);
				double fm = step_at(c, NB_PLAN, mid) - step_at(c, NB_DEEPER, mid);
				if ((fm > 0) == (fa > 0))
					a = mid, fa = fm;
				else
					b = mid;
			}
			return sqrt(a * b);
		}
		prev = diff, prev_bw = bw;
	}
	return 0;
}

/* The plan's step time at inter-node bandwidth 'bw' [B/s per GPU], with the plan key
 * assignment 'lever' ("efficiency.grad_reduce=bf16") or none (NULL).  NAN when the
 * variant is not a valid plan.  Without a lever it is step_at's NB_PLAN, one cache. */
static double lever_step_at(struct calc_ctx *c, const char *lever, double bw)
{
	return step_lever_at(c, NB_PLAN, lever, bw);
}

#define LEVER_GAIN 0.05 /* a lever "pays" when it saves this share of the step */

/*
 * The inter-node bandwidth [B/s per GPU] below which 'lever' saves at least LEVER_GAIN
 * of the plan's step time: the saving grows as the network slows, since every lever
 * here shrinks or hides network traffic.  Same grid and bisection as q_crossover (one
 * point per octave from 1 Gb/s to 2 Tb/s, then 16 halvings in log space); 0 when the
 * lever saves less than that even at 1 Gb/s, NAN when the variant is not valid.
 */
static double lever_bw(struct calc_ctx *c, const char *lever)
{
	double lo = 1e9 / 8, prev = NAN, prev_bw = 0;
	for (int i = 0; i <= 11; i++) {
		double bw = lo * pow(2.0, i);
		double t0 = lever_step_at(c, NULL, bw), t1 = lever_step_at(c, lever, bw);
		double f = (t0 - t1) / t0 - LEVER_GAIN;
		if (isnan(f))
			return NAN;
		if (i == 0 && f < 0)
			return 0;
		if (i > 0 && (prev > 0) != (f > 0)) {
			double a = prev_bw, b = bw;
			for (int k = 0; k < 16; k++) {
				double mid = sqrt(a * b);
				double m0 = lever_step_at(c, NULL, mid), m1 = lever_step_at(c, lever, mid);
				if ((m0 - m1) / m0 - LEVER_GAIN > 0)
					a = mid;
				else
					b = mid;
			}
			return sqrt(a * b);
		}
		prev = f, prev_bw = bw;
	}
	return lo * pow(2.0, 11); /* pays across the whole range */
}

#define LEVER_BF16 "efficiency.grad_reduce=bf16"
#define LEVER_OVERLAP "efficiency.dp_overlap=1"

static int q_bf16_bw(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	net_wait(c, NJ_BF16);
	v->num = lever_bw(c, LEVER_BF16);
	return 0;
}
static int q_lever_gain(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	v->num = LEVER_GAIN;
	return 0;
}
static int q_overlap_bw(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	net_wait(c, NJ_OVERLAP);
	v->num = lever_bw(c, LEVER_OVERLAP);
	return 0;
}

/* calc_network_prefetch's job: the search of its kind, for the cache it fills. */
static void net_job_run(struct calc_job *j)
{
	const struct net_job *nj = (const struct net_job *)j;
	struct calc_ctx *c = nj->c;
	if (nj->kind == NJ_CROSS)
		crossover(c);
	else if (nj->kind == NJ_BF16)
		lever_bw(c, LEVER_BF16);
	else if (nj->kind == NJ_OVERLAP)
		lever_bw(c, LEVER_OVERLAP);
	else
		for (size_t i = 0; i < sizeof sweep_gbps / sizeof sweep_gbps[0]; i++) {
			double bw = sweep_gbps[i] * 1e9 / 8;
			step_at(c, NB_PLAN, bw);
			step_at(c, NB_DEEPER, bw);
			step_at(c, NB_WIDER, bw);
		}
}

/* An estimate of a network job's work for the pool's order [us], measured on the
 * default plan (thread CPU time, the fastest quarter of a dozen runs): the crossover,
 * queued first and taken first of the four, scans and bisects the plan and its deeper
 * neighbour (about 4 ms); the sweep reads most of its bandwidths from the cache the
 * crossover filled (about 1.3 ms); a lever's scan stops where the lever pays or never
 * can (0.03-0.7 ms). */
static double net_job_cost(enum net_kind kind)
{
	return kind == NJ_CROSS ? 4000 : kind == NJ_SWEEP ? 1300 : 600;
}

const struct calc_job *calc_network_prefetch(struct calc_ctx *c, const char *name)
{
	static const char *const names[NJ_N] = {"network.crossover_bw", "network.bf16_reduce_bw",
	                                        "network.dp_overlap_bw", "network-sweep"};
	int kind = -1;
	for (int k = 0; k < NJ_N && kind < 0; k++)
		if (!strcmp(name, names[k]))
			kind = k;
	if (kind < 0 || !calc_pool_active())
		return NULL;
	struct net_cache *k = net_cache_of(c);
	if (!k->queued[kind]) {
		k->jobs[kind] = (struct net_job){{net_job_run, 0, net_job_cost((enum net_kind)kind)}, c,
		                                 (enum net_kind)kind};
		k->queued[kind] = 1;
		calc_pool_submit(&k->jobs[kind].job);
	}
	return &k->jobs[kind].job;
}

/* The deeper-pipeline neighbour's step time at the plan's own bandwidth. */
static int q_deeper_time(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	v->num = step_at(c, NB_DEEPER, c->plan.inter_node_bw);
	return 0;
}
/* TP across nodes (t = 2 x GPUs per node) and PP across nodes (t = GPUs per node), the
 * model-parallel group t x p of the plan kept, at the plan's bandwidth (a chapter asks for
 * another with `with inter_node_bw=...`).  These neighbours, the deeper and the wider
 * pipeline stay here rather than in the chapters: they re-spread the layers over the new
 * stages (layers_per_stage, extra layers in the middle), which a `with` on the plan cannot
 * say, and network.crossover_bw bisects over them.  Scenarios that only change plan keys
 * (cp x 2 in place of half the DP, a 12.5 Gb/s network) are written in the chapters. */
static int q_tpx(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	v->num = step_at(c, NB_TP_ACROSS, c->plan.inter_node_bw);
	return 0;
}
static int q_ppx(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	v->num = step_at(c, NB_PP_ACROSS, c->plan.inter_node_bw);
	return 0;
}
static int q_wider_time(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	v->num = step_at(c, NB_WIDER, c->plan.inter_node_bw);
	return 0;
}
/* Memory of the two neighbours (the same layout as their step times; memory does not
 * depend on the bandwidth): the fullest stage's total [B] and whether every stage fits
 * (1 / 0), NAN when the neighbour is not a valid plan. */
#define NMEM(fn, which, what)                                                           \
	static int fn(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)       \
	{                                                                                  \
		v->num = neighbour_value(c, which, NULL, c->plan.inter_node_bw, what);      \
		return 0;                                                                  \
	}
NMEM(q_deeper_mem, NB_DEEPER, V_MEM_TOTAL)
NMEM(q_deeper_fits, NB_DEEPER, V_MEM_FITS)
NMEM(q_wider_mem, NB_WIDER, V_MEM_TOTAL)
NMEM(q_wider_fits, NB_WIDER, V_MEM_FITS)
#undef NMEM


/* ======================================================================== */
/* fp8.*: the FP8 recipes on this plan, memory side defined on every GPU     */
/* ======================================================================== */

/* These stay here rather than in the chapters as `with recipe=fp8-te`: on a GPU without
 * FP8 tensor cores the validator refuses that variant, while its memory is still what
 * chapter 9 shows.  Whether the GPU has FP8 is gpu.fp8_flops > 0 in the chapters. */

static double recipe_mem(struct calc_ctx *c, const char *recipe, enum rc_val which)
{
	char kv[64];
	snprintf(kv, sizeof kv, "training.recipe=%s", recipe);
	const char *sets[] = {kv, NULL};
	struct calc_ctx vc;
	variant_memory_only(c, sets, 1, &vc);
	struct calc_diag tmp = {0};
	int bad = 0;
	double x = num(&vc, which, &tmp, &bad);
	calc_diag_free(&tmp);
	calc_ctx_free(&vc);
	return x;
}
#define RMEM(fn, recipe, which)                                                         \
	static int fn(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)       \
	{                                                                                  \
		v->num = recipe_mem(c, recipe, which);                                      \
		return 0;                                                                  \
	}
RMEM(q_te_total, "fp8-te", V_MEM_TOTAL)
RMEM(q_te_states, "fp8-te", V_MEM_STATES)
RMEM(q_te_copies, "fp8-te", V_MEM_COPIES)
RMEM(q_te_act, "fp8-te", V_MEM_ACT)
RMEM(q_lm_act, "fp8-lm", V_MEM_ACT)
RMEM(q_te_min, "fp8-te", V_MIN_GPUS_NOM)
RMEM(q_te_fits, "fp8-te", V_MEM_FITS)
RMEM(q_lm_total, "fp8-lm", V_MEM_TOTAL)
RMEM(q_lm_states, "fp8-lm", V_MEM_STATES)
RMEM(q_lm_min, "fp8-lm", V_MIN_GPUS_NOM)
RMEM(q_lm_fits, "fp8-lm", V_MEM_FITS)
RMEM(q_lm_bpp, "fp8-lm", V_BPP)
RMEM(q_te_bpp, "fp8-te", V_BPP)


/* ======================================================================== */
/* The placement in words                                                    */
/* ======================================================================== */

/*
 * parallel.placement ("tp-cp-pp-dp", innermost first) as the report says it: "TP
 * innermost, then CP, PP and DP".  The words depend on the order alone, and a report
 * asks for few orders, so each text is made once and kept for the life of the process
 * (a short list under a lock: the report's threads may ask at once).
 */
struct placement_text {
	struct placement_text *next;
	char order[64];
	char text[160];
};
static struct placement_text *placement_texts;
static pthread_mutex_t placement_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *placement_words(const char *order)
{
	struct placement_text *w;
	pthread_mutex_lock(&placement_lock);
	for (w = placement_texts; w; w = w->next)
		if (!strcmp(w->order, order))
			break;
	if (!w) {
		char tok[8][16];
		int n = 0;
		size_t len = 0;
		w = xcalloc(1, sizeof *w);
		snprintf(w->order, sizeof w->order, "%s", order);
		for (const char *q = order; *q && n < 8;) {
			size_t k = strcspn(q, "-");
			size_t j;
			for (j = 0; j < k && j < sizeof tok[n] - 1; j++)
				tok[n][j] = (char)(q[j] >= 'a' && q[j] <= 'z' ? q[j] - 'a' + 'A' : q[j]);
			tok[n++][j] = 0;
			q += k;
			if (*q == '-')
				q++;
		}
		for (int i = 0; i < n && len < sizeof w->text; i++) {
			const char *sep = i == 0 ? "" : i == 1 ? " innermost, then " : i == n - 1 ? " and " : ", ";
			len += (size_t)snprintf(w->text + len, sizeof w->text - len, "%s%s", sep, tok[i]);
		}
		if (n == 1 && len < sizeof w->text)
			snprintf(w->text + len, sizeof w->text - len, " alone");
		w->next = placement_texts;
		placement_texts = w;
	}
	pthread_mutex_unlock(&placement_lock);
	return w->text;
}

static int q_placement_text(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	(void)d;
	v->num = NAN;
	v->str = placement_words(c->plan.placement);
	return 0;
}

/*
 * 1 when the plan's placement is Megatron-Core's default order, "tp-cp-ep-dp-pp"
 * (NVIDIA/Megatron-LM megatron/core/parallel_state.py, initialize_model_parallel's
 * `order` argument, commit 934c8260ad), read without "ep" where the plan's order does
 * not name the expert dimension ("tp-cp-dp-pp"), else 0.
 */
static int q_placement_megatron(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	(void)d;
	const char *pl = c->plan.placement;
	int has_ep = !strncmp(pl, "ep-", 3) || strstr(pl, "-ep-") || (strlen(pl) >= 3 && !strcmp(pl + strlen(pl) - 3, "-ep"));
	v->num = !strcmp(pl, has_ep ? "tp-cp-ep-dp-pp" : "tp-cp-dp-pp");
	return 0;
}

/* The published run a plan reproduces (plan.published_gpu_hours and its source), for
 * the report's comparison of its prediction with the published GPU-hours. */
static int q_published_gpuh(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	(void)d;
	v->num = c->plan.published_gpu_hours;
	return 0;
}
static int q_published_source(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	(void)d;
	v->num = NAN;
	v->str = c->plan.published_source;
	return 0;
}

/* plan.currency: the ISO 4217 code the report writes beside costs ("" = not named). */
static int q_currency(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	(void)d;
	v->num = NAN;
	v->str = c->plan.currency;
	return 0;
}

/* model.dropout: whether the layers' dropout masks and outputs are stored (a plan key) */
static int q_dropout(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	(void)d;
	v->num = c->plan.model.dropout ? 1 : 0;
	return 0;
}

/* ======================================================================== */
/* Catalog entries                                                           */
/* ======================================================================== */

const struct calc_quantity calc_q_report[] = {
	{"network.crossover_bw", "B/s", "inter-node bandwidth per GPU below which pp x 2, dp / 2 is faster than the plan (0: no crossover; NaN: pp x 2, dp / 2 is not a valid plan)",
	 q_crossover},
	{"efficiency.tp_overlap", "1", "share of the TP collectives assumed hidden behind compute (plan key)", q_tp_overlap},
	{"efficiency.tp_overlap_sms", "1", "SMs the hidden TP collectives take from the GEMMs (plan key)", q_tp_overlap_sms},
	{"efficiency.tp_overlap_cost", "1", "cost of hiding TP collectives, a share of the hidden time (SMs taken / the GPU's)", q_tp_overlap_cost},
	{"efficiency.dp_overlap", "1", "share of the gradient reduction a collective can run under the backward (plan key)", q_dp_overlap},
	{"efficiency.gemm", "1", "achieved GEMM throughput / dense peak the step model assumes (plan key or GPU preset)", q_gemm_eff},
	{"efficiency.gemm_fp8", "1", "achieved throughput of the GEMMs with FP8 inputs / dense FP8 peak (efficiency.gemm_fp8, the GPU preset's, or efficiency.gemm)", q_gemm_eff_fp8},
	{"plan.published_gpu_hours", "GPU-h", "GPU-hours of the published run the plan reproduces (0 = none)",
	 q_published_gpuh},
	{"plan.published_source", "", "where plan.published_gpu_hours is published", q_published_source},
	{"model.dropout", "1", "1 when the model has dropout layers, whose masks and outputs are stored (plan key), else 0",
	 q_dropout},
	{"plan.currency", "", "ISO 4217 code of the plan's prices, written beside costs (\"\" = not named)", q_currency},
	{"comm.placement", "", "parallel.placement in words: the group order, innermost first", q_placement_text},
	{"comm.placement_megatron", "1", "1 when parallel.placement is Megatron-Core's default order tp-cp-ep-dp-pp "
	                                 "(tp-cp-dp-pp where the order names no EP), else 0", q_placement_megatron},
	{"monitor.margin", "1", "margin of the monitoring alerts over the plan's predicted times and memory",
	 q_monitor_margin},
	{"fp8.te.bytes_per_param", "B", "bytes per parameter of fp8-te, unsharded", q_te_bpp},
	{"fp8.te.total", "B", "memory per GPU (worst stage) with recipe fp8-te, on any GPU", q_te_total},
	{"fp8.te.states", "B", "model states per GPU (worst stage) with recipe fp8-te", q_te_states},
	{"fp8.te.weight_copies", "B", "FP8 weight copy per GPU (worst stage) with recipe fp8-te", q_te_copies},
	{"fp8.te.activations", "B", "activations per GPU (worst stage) with recipe fp8-te (FP8 linear inputs)", q_te_act},
	{"fp8.lm.activations", "B", "activations per GPU (worst stage) with recipe fp8-lm", q_lm_act},
	{"fp8.te.min_gpus", "GPUs", "GPUs of nominal memory to hold the model states with fp8-te", q_te_min},
	{"fp8.te.fits", "1", "1 when every stage fits with fp8-te", q_te_fits},
	{"fp8.lm.bytes_per_param", "B", "bytes per parameter of fp8-lm, unsharded", q_lm_bpp},
	{"fp8.lm.total", "B", "memory per GPU (worst stage) with recipe fp8-lm, on any GPU", q_lm_total},
	{"fp8.lm.states", "B", "model states per GPU (worst stage) with recipe fp8-lm", q_lm_states},
	{"fp8.lm.min_gpus", "GPUs", "GPUs of nominal memory to hold the model states with fp8-lm", q_lm_min},
	{"fp8.lm.fits", "1", "1 when every stage fits with fp8-lm", q_lm_fits},
	{"network.tp_across_time", "s", "step time with TP over two nodes (t = 2 x GPUs per node, t x p kept; NaN: invalid)", q_tpx},
	{"network.pp_across_time", "s", "step time with TP in one node and PP across nodes (t = GPUs per node, t x p kept)", q_ppx},
	{"network.deeper_step_time", "s", "step time with pp x 2, dp / 2 (NaN when not a valid plan)", q_deeper_time},
	{"network.wider_step_time", "s", "step time with pp / 2, dp x 2 (NaN when not a valid plan)", q_wider_time},
	{"network.deeper_memory", "B", "memory per GPU (worst stage) with pp x 2, dp / 2 (NaN when not a valid plan)", q_deeper_mem},
	{"network.deeper_fits", "1", "1 when every stage fits with pp x 2, dp / 2 (NaN when not a valid plan)", q_deeper_fits},
	{"network.wider_memory", "B", "memory per GPU (worst stage) with pp / 2, dp x 2 (NaN when not a valid plan)", q_wider_mem},
	{"network.wider_fits", "1", "1 when every stage fits with pp / 2, dp x 2 (NaN when not a valid plan)", q_wider_fits},
	{"network.bf16_reduce_bw", "B/s", "inter-node bandwidth per GPU below which a BF16 gradient reduction saves 5% of the step (0: nowhere from 1 Gb/s up)", q_bf16_bw},
	{"network.dp_overlap_bw", "B/s", "inter-node bandwidth per GPU below which hiding all of the gradient reduction saves 5% of the step (0: nowhere from 1 Gb/s up)", q_overlap_bw},
	{"network.lever_gain", "1", "share of the step a lever must save for network.bf16_reduce_bw and network.dp_overlap_bw", q_lever_gain},
	{NULL, NULL, NULL, NULL},
};

const struct calc_tabledef calc_t_report[] = {
	{"recompute-compare", "none, selective and full recomputation on this plan: memory, step time, MFU",
	 "", b_recompute},
	{"recipe-compare", "recipes on this plan: bytes per parameter, minimum GPUs, memory, step time",
	 "recipes=a,b,... (default megatron,fp8-te,fp8-lm)", b_recipes},
	{"bubble-grid", "1F1B bubble share of the step for p x m", "", b_bubble_grid},
	{"monitor-stages", "expected per-stage forward/backward/idle time and memory high-water", "",
	 b_monitor},
	{"network-sweep", "step time vs inter-node bandwidth for the plan, a deeper pipeline and more DP", "",
	 b_network},
	{NULL, NULL, NULL, NULL},
};

const struct calc_tabledef calc_d_report[] = {
	{"recompute-compare", "memory and step time per recomputation policy", "", b_recompute},
	{"recipe-compare", "memory per GPU, minimum GPUs and step time by recipe",
	 "recipes=a,b,... (default megatron,fp8-te,fp8-lm)", b_recipes},
	{"monitor-stages", "expected per-stage times and memory high-water", "", b_monitor},
	{"network-sweep", "step time vs inter-node bandwidth for the plan, a deeper pipeline and more DP", "",
	 b_network},
	{NULL, NULL, NULL, NULL},
};
