/*
 * search.c -- the planner: every valid split of a model over a cluster, the rejects
 * with their reasons, and a ranking of the rest.
 *
 * The grid.  For each GPU count N (the plan's, or --gpus) and recipe (the plan's, or
 * every recipe with --vary recipe):
 *   tp   every divisor of N                         (Megatron TP; Narayanan 2021 §2.3)
 *   pp   every divisor of N/tp up to 256 stages     (§2.2), the layers split by the
 *        plan's rule (parallel.split, calc_layers_split in model.c: by default
 *        remainder-first, L = q pp + r and the first r stages carry q + 1 layers; a
 *        depth the rule refuses, e.g. 'even' with pp not dividing L, is a pp-layers
 *        reject)
 *   cp   every divisor of N/(tp pp) up to max_cp    (context parallelism)
 *   dp   N / (tp pp cp)
 *   b    micro-batch 1 .. max_mb
 *   schedule  every row of the schedule table (schedules.c) without vpp in table order
 *        (gpipe, 1f1b, zb-h1, zb-h2, dualpipe), then each vpp row (interleaved) with vpp
 *        2 .. max_vpp; with pp = 1 only the plain "1f1b" (one stage has no schedule to
 *        choose)
 *   recompute none, selective, full (with FlashAttention none and full: selective is
 *        then the same configuration as none, and 'none' is kept);  sp no/yes (only "no" when tp = 1: nothing to
 *        shard);  ZeRO 0, 1, 2, 3.
 * Every leaf of that grid is one configuration.  The checks run in the order of enum
 * calc_reject and the first that fails names the reject; they are the checks of
 * calc_plan_validate and calc_pipeline_check (tests/calc/search.c holds the two
 * against each other).  A valid configuration gets the memory of its worst pipeline
 * stage; one that fits gets its step time from calc_step_fast (the closed-form bubble
 * of its schedule, docs/references.md §3) and enters the ranking.
 *
 * Speed.  Work items are (recipe, N, tp, pp, cp, micro-batch) handed to the threads in
 * order; a rejected subtree is counted by multiplication, not walked (unless every row
 * is kept).  The memory of the worst stage is computed on a few candidate stages
 * (first, last, and the middle stage with the most in-flight micro-batches for each mix
 * of layers) by memory.c itself: its per-stage terms (struct calc_mem_terms) are set
 * per work item and per leaf only where they change, and calc_memory_stage_total adds
 * them as calc_memory does, so a leaf costs a few dozen floating-point operations plus
 * calc_step_fast when it fits.  A search for the top K only (opts.top_only) does not time
 * a leaf whose lower bound cannot enter it; one that needs no counts either
 * (opts.no_counts) takes that bound before the memory and computes the memory of the
 * leaves that could enter alone.
 */
#include "bounds.h"
#include "diag.h"
#include "model.h"
#include "recipe.h"
#include "plan.h"
#include "variant.h"
#include "memory.h"
#include "table.h"
#include "pipeline.h"
#include "run.h"
#include "search.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define MAX_CAND 8 /* stage 0, stage p-1 and the middle stages of up to 6 layer mixes */
#define KEY_BITS 24 /* leaves of one work item < 2^24 */
#define MAX_VARIANTS 72 /* (schedule, vpp) pairs of one pipeline depth */

/* ======================================================================== */
/* Names                                                                     */
/* ======================================================================== */

static const struct {
	const char *name, *desc;
} rej_info[CALC_REJ_N] = {
	[CALC_REJ_NONE] = {"ranked", "valid, fits in memory: timed and ranked"},
	[CALC_REJ_FP8] = {"fp8-gpu", "the recipe computes in FP8 (or MXFP8, NVFP4) but the GPU has no such tensor cores"},
	[CALC_REJ_TP] = {"tp-divides", "tp does not divide heads, kv_heads or ffn_hidden (Megatron shards heads and "
	                               "the FFN over TP, Narayanan et al. 2021 §2.3), or a hybrid model's Mamba-2 heads or "
	                               "groups or gated delta-net heads"},
	[CALC_REJ_PP] = {"pp-layers", "pp is more than the layers (with --even: pp does not divide the layers)"},
	[CALC_REJ_CP] = {"cp-seq", "seq_len is not divisible by 2 x cp (load-balanced causal chunks, Llama 3 §3.3.2), or "
	                           "parallel.cp_comm's all-to-all group does not divide cp or the heads of a TP rank, or a hybrid "
	                           "model's Mamba-2 heads or groups or gated delta-net heads of a TP rank do not split "
	                           "over cp"},
	[CALC_REJ_EP] = {"ep-fold", "ep x etp does not divide tp x cp x dp: the experts of a stage fold onto its "
	                            "GPUs as etp x ep x edp (Megatron-Core MoE parallel folding); or "
	                            "parallel.placement gives the experts other pipeline groups"},
	[CALC_REJ_ETP] = {"etp-divides", "etp does not divide the expert FFN width (each expert's fc1 and fc2 are "
	                                 "split over etp ranks)"},
	[CALC_REJ_BATCH] = {"batch", "global_batch is not divisible by micro_batch x dp (m = B/(b d) must be an "
	                             "integer, Narayanan et al. 2021 §3.1)"},
	[CALC_REJ_VPP] = {"vpp-layers", NULL}, /* described by vpp_desc from the table */
	[CALC_REJ_MEMORY] = {"memory", "the worst pipeline stage does not fit in the GPU's usable memory (less any "
	                               "--min-headroom asked for)"},
	[CALC_REJ_FRAMEWORK] = {"framework", "the framework named (search --for) does not run it: its schedules, "
	                                     "ZeRO stages and degrees (calc/frameworks.c)"},
	[CALC_REJ_OFFLOAD] = {"offload-zero", "optimizer offload without ZeRO >= 1 or FSDP (Megatron-Core's hybrid "
	                                      "optimizer runs on the distributed optimizer, docs/references.md §2.13)"},
};

/* The schedule row whose own check reason r is, or NULL. */
static const struct calc_sched *rej_sched(enum calc_reject r)
{
	const struct calc_sched *row;
	if (r < CALC_REJ_SCHED0 || r >= CALC_REJ_MEMORY)
		return NULL;
	row = calc_schedule_at((int)(r - CALC_REJ_SCHED0));
	return row && row->check ? row : NULL;
}

int calc_reject_used(enum calc_reject r)
{
	if (r >= CALC_REJ_SCHED0 && r < CALC_REJ_MEMORY)
		return rej_sched(r) != NULL;
	return r >= 0 && r < CALC_REJ_N;
}

int calc_search_reject_shown(const struct calc_search_result *res, enum calc_reject r)
{
	if ((r == CALC_REJ_EP || r == CALC_REJ_ETP) && !res->moe)
		return 0;
	if (r == CALC_REJ_FRAMEWORK && !res->opts.allow)
		return 0;
	if (r == CALC_REJ_OFFLOAD && !(res->opts.offload_optimizer > 0))
		return 0;
	return calc_reject_used(r);
}

enum calc_reject calc_reject_of_schedule(enum calc_schedule s)
{
	return (enum calc_reject)(CALC_REJ_SCHED0 + (int)s);
}

const char *calc_reject_name(enum calc_reject r)
{
	const struct calc_sched *row = rej_sched(r);
	if (row)
		return row->reject;
	return r >= 0 && r < CALC_REJ_N && rej_info[r].name ? rej_info[r].name : "?";
}

/*
 * Texts that name the schedule table's rows: the vpp reject's rule ("interleaved: the
 * layers of a stage are not divisible by vpp", naming the table's vpp schedules) and
 * each schedule's axis ("best with <name>").  Written under a lock when first asked
 * for and again when the table has changed (calc_schedule_generation), which happens
 * only between runs (calc_schedule_register is not thread-safe); a search's threads
 * and the report's only read them.
 */
static struct {
	pthread_mutex_t lock;
	unsigned long gen; /* the table's generation they name; 0: not written */
	char vpp[256];
	char axis[CALC_SCHED_MAX][48];
} sched_text = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void sched_text_fill(void)
{
	unsigned long gen = calc_schedule_generation();
	pthread_mutex_lock(&sched_text.lock);
	if (sched_text.gen != gen) {
		char *buf = sched_text.vpp;
		size_t n = sizeof sched_text.vpp;
		buf[0] = 0;
		for (int i = 0; i < calc_schedule_count(); i++)
			if (calc_schedule_at(i)->uses_vpp && strlen(buf) + 40 < n)
				snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "",
				         calc_schedule_at(i)->name);
		snprintf(buf + strlen(buf), n - strlen(buf), ": the layers of a stage are not divisible by vpp");
		for (int i = 0; i < calc_schedule_count(); i++)
			snprintf(sched_text.axis[i], sizeof sched_text.axis[i], "best with %s",
			         calc_schedule_name((enum calc_schedule)i));
		sched_text.gen = gen;
	}
	pthread_mutex_unlock(&sched_text.lock);
}

static const char *vpp_desc(void)
{
	sched_text_fill();
	return sched_text.vpp;
}

const char *calc_reject_desc(enum calc_reject r)
{
	const struct calc_sched *row = rej_sched(r);
	if (row)
		return row->reject_desc;
	if (r == CALC_REJ_VPP)
		return vpp_desc();
	return r >= 0 && r < CALC_REJ_N && rej_info[r].desc ? rej_info[r].desc : "?";
}

static const char *const obj_names[CALC_OBJ_N] = {"time", "cost", "memory", "effective-days", "total-cost"};

const char *calc_objective_name(enum calc_objective o)
{
	return o >= 0 && o < CALC_OBJ_N ? obj_names[o] : "?";
}

int calc_objective_parse(const char *s, enum calc_objective *out)
{
	for (int i = 0; i < CALC_OBJ_N; i++)
		if (!strcmp(s, obj_names[i])) {
			*out = (enum calc_objective)i;
			return 0;
		}
	if (!strcmp(s, "step-time") || !strcmp(s, "step_time")) {
		*out = CALC_OBJ_TIME;
		return 0;
	}
	return -1;
}

const char *calc_search_axis_name(int axis)
{
	static const char *const names[CALC_AXIS_SCHED0] = {
		[CALC_AXIS_BEST] = "best overall",
		[CALC_AXIS_NO_PP] = "best without PP",
		[CALC_AXIS_NO_TP] = "best without TP",
		[CALC_AXIS_TP_IN_NODE] = "best without TP across nodes",
		[CALC_AXIS_TP_ACROSS] = "best with TP across nodes",
		[CALC_AXIS_NO_RECOMPUTE] = "best without recomputation",
		[CALC_AXIS_FULL_RECOMPUTE] = "best with full recomputation",
		[CALC_AXIS_ZERO0] = "best without ZeRO",
		[CALC_AXIS_ZERO3] = "best with ZeRO-3",
		[CALC_AXIS_CP] = "best with CP",
		[CALC_AXIS_MB1] = "best with micro-batch 1",
	};
	if (axis >= 0 && axis < CALC_AXIS_SCHED0)
		return names[axis];
	if (axis >= CALC_AXIS_SCHED0 && axis < calc_search_axis_count()) {
		sched_text_fill();
		return sched_text.axis[axis - CALC_AXIS_SCHED0];
	}
	return "?";
}

int calc_search_axis_count(void)
{
	return CALC_AXIS_SCHED0 + calc_schedule_count();
}

/* The axes configuration c is on, bit a for axis a: every one (the best overall), pp 1,
 * tp 1, TP inside or across nodes, recomputation none or full, ZeRO 0 or 3, cp > 1,
 * micro-batch 1, and its schedule's.  axis_mask_item: those an item's leaves share (the
 * best overall, pp, tp, the node, cp, micro-batch); axis_mask_leaf: the rest. */
static unsigned long long axis_mask_item(const struct calc_search_cfg *c)
{
	unsigned long long m = 1ull << CALC_AXIS_BEST;
	_Static_assert(CALC_AXIS_N <= 64, "axis_mask holds 64 axes");
	m |= (unsigned long long)(c->pp == 1) << CALC_AXIS_NO_PP;
	m |= (unsigned long long)(c->tp == 1) << CALC_AXIS_NO_TP;
	m |= (unsigned long long)(c->tp <= c->gpus_per_node) << CALC_AXIS_TP_IN_NODE;
	m |= (unsigned long long)(c->tp > c->gpus_per_node) << CALC_AXIS_TP_ACROSS;
	m |= (unsigned long long)(c->cp > 1) << CALC_AXIS_CP;
	m |= (unsigned long long)(c->micro_batch == 1) << CALC_AXIS_MB1;
	return m;
}

static inline unsigned long long axis_mask_leaf(const struct calc_search_cfg *c)
{
	unsigned long long m = 0;
	m |= (unsigned long long)(c->recompute == CALC_RC_NONE) << CALC_AXIS_NO_RECOMPUTE;
	m |= (unsigned long long)(c->recompute == CALC_RC_FULL) << CALC_AXIS_FULL_RECOMPUTE;
	m |= (unsigned long long)(c->zero == 0) << CALC_AXIS_ZERO0;
	m |= (unsigned long long)(c->zero == 3) << CALC_AXIS_ZERO3;
	if (c->schedule >= 0 && CALC_AXIS_SCHED0 + c->schedule < CALC_AXIS_N)
		m |= 1ull << (CALC_AXIS_SCHED0 + c->schedule);
	return m;
}

static unsigned long long axis_mask(const struct calc_search_cfg *c)
{
	return axis_mask_item(c) | axis_mask_leaf(c);
}

void calc_search_opts_init(struct calc_search_opts *o)
{
	memset(o, 0, sizeof *o);
	o->max_mb = 8;
	o->max_cp = 16; /* Llama 3 used CP 16 for its 128K-token stage (§3.3.2) */
	o->max_vpp = 8;
	o->top = 10;
	o->objective = CALC_OBJ_TIME;
	o->threads = 2;
	o->recheck = 1;
	o->progress_interval = 0.25;
}

double calc_search_offload_share(const struct calc_plan *plan, const struct calc_search_opts *o, const char **why)
{
	double f = o && o->offload_optimizer > 0 ? o->offload_optimizer : plan->offload_optimizer;
	if (why)
		*why = NULL;
	if (!(f > 0))
		return 0;
	if (!(plan->cpu_optimizer_rate > 0)) { /* no default: no source gives the hosts' CPU Adam rate */
		if (why)
			*why = "cluster.cpu_optimizer_rate is not set";
		return 0;
	}
	if (!(plan->gpu.pcie_bw > 0)) {
		if (why)
			*why = "the GPU has no host link (cluster.gpu_pcie_bw)";
		return 0;
	}
	if (f < 1 && plan->offload_style == CALC_OFFLOAD_ZERO) {
		if (why)
			*why = "training.offload_style = zero-offload offloads the whole partition (share 1)";
		return 0;
	}
	if (o && o->allow == calc_framework_allows && o->allow_arg &&
	    !(((const struct calc_framework *)o->allow_arg)->opt_offload >> plan->offload_style & 1)) {
		if (why) /* search --for: the framework runs no optimizer offload of the plan's style */
			*why = plan->offload_style == CALC_OFFLOAD_ZERO
			               ? "the framework named does not run ZeRO-Offload (training.offload_style)"
			               : "the framework named does not run Megatron-Core's optimizer offload "
			                 "(training.offload_style)";
		return 0;
	}
	return f > 1 ? 1 : f;
}

/* ======================================================================== */
/* A candidate as a plan (the one variant builder, variant.c)                */
/* ======================================================================== */

/* CALC_SPLIT_FIRST_LAST at depth pp of L layers: the middle stages hold q = ceil(L / pp),
 * the first and the last the rest, the last (which holds the LM head and the loss) no
 * more than the first: f = R - floor(R / 2), l = floor(R / 2), R = L - (pp - 2) q.
 * Returns 1 when both ends hold at least one layer (pp >= 3). */
static int first_last(int L, int pp, int *f, int *l)
{
	int q, R;
	if (pp < 3)
		return 0;
	q = (L + pp - 1) / pp;
	R = L - (pp - 2) * q;
	*l = R / 2;
	*f = R - *l;
	return *l >= 1 && *f >= 1;
}

/* Set the layout keys of 'p' (of L layers, at depth pp) to placement s; the plan's own
 * (CALC_SPLIT_PLAN) from 'base'. */
static void split_keys(struct calc_plan *p, const struct calc_plan *base, int s, int pp)
{
	int f = 0, l = 0;
	p->account_embedding = s == CALC_SPLIT_PLAN ? base->account_embedding
	                       : s == CALC_SPLIT_ACCOUNT_BOTH || s == CALC_SPLIT_ACCOUNT_EMB;
	p->account_loss = s == CALC_SPLIT_PLAN ? base->account_loss
	                  : s == CALC_SPLIT_ACCOUNT_BOTH || s == CALC_SPLIT_ACCOUNT_LOSS;
	if (s == CALC_SPLIT_FIRST_LAST)
		first_last(base->model.layers, pp, &f, &l);
	p->first_stage_layers = s == CALC_SPLIT_PLAN ? base->first_stage_layers : f;
	p->last_stage_layers = s == CALC_SPLIT_PLAN ? base->last_stage_layers : l;
	p->first_less = s == CALC_SPLIT_PLAN ? base->first_less : s == CALC_SPLIT_TT_BOTH || s == CALC_SPLIT_TT_FIRST;
	p->last_less = s == CALC_SPLIT_PLAN ? base->last_less : s == CALC_SPLIT_TT_BOTH || s == CALC_SPLIT_TT_LAST;
}

/* 1 for torchtitan's placements (enum calc_search_split) */
static int split_is_tt(int s)
{
	return s == CALC_SPLIT_TT_BOTH || s == CALC_SPLIT_TT_FIRST || s == CALC_SPLIT_TT_LAST;
}

void calc_search_apply(const struct calc_plan *base, const struct calc_search_cfg *c, struct calc_plan *out)
{
	struct calc_layout l = {
		.nodes = c->nodes, .gpus_per_node = c->gpus_per_node, .tp = c->tp, .pp = c->pp, .dp = c->dp,
		.cp = c->cp, .vpp = c->vpp, .sp = c->sp, .zero = c->zero, .recompute = c->recompute,
		.schedule = c->schedule, .micro_batch = c->micro_batch, .recipe = calc_recipe_at(c->recipe),
	};
	char kv[2][32];
	const char *kvs[2] = {kv[0], kv[1]};
	int n = 0;
	struct calc_plan *own = NULL;
	if (c->split != CALC_SPLIT_PLAN || c->offload != base->offload_optimizer) {
		own = xmalloc(sizeof *own);
		*own = *base;
		if (c->split != CALC_SPLIT_PLAN) { /* a Megatron-Core rule the planner tried */
			split_keys(own, base, c->split, c->pp);
			own->uneven_stages = 0;
		}
		own->offload_optimizer = c->offload; /* the grid's optimizer offload */
		base = own;
	}
	if (base->model.moe.experts > 0 && c->ep > 0 && c->etp > 0) {
		snprintf(kv[0], sizeof kv[0], "parallel.ep=%d", c->ep);
		snprintf(kv[1], sizeof kv[1], "parallel.etp=%d", c->etp);
		n = 2;
	}
	if (n) {
		/* unchecked, as a layout alone is applied: a ranked configuration is valid */
		struct calc_diag d = {0};
		calc_plan_variant(base, &l, kvs, n, "search", CALC_VARIANT_UNCHECKED, out, &d);
		calc_diag_free(&d);
	} else
		calc_plan_variant(base, &l, NULL, 0, NULL, 0, out, NULL);
	free(own);
}

/* ======================================================================== */
/* Worst-stage memory: memory.c's terms on candidate stages                  */
/* ======================================================================== */

/* Candidate stages in index order. */
struct cands {
	int n;
	int idx[MAX_CAND];
	struct calc_stage_layers sl[MAX_CAND];
	double infl[MAX_CAND];
};

static int same_layers(const struct calc_stage_layers *a, const struct calc_stage_layers *b, int nk)
{
	if (a->layers != b->layers)
		return 0;
	for (int k = 0; k < nk; k++)
		if (a->count[k] != b->count[k])
			return 0;
	return 1;
}

static void cand_add(struct cands *c, const struct calc_plan *p, const struct calc_stage_layers *all, int i,
                     const double *infl)
{
	c->idx[c->n] = i;
	if (all)
		c->sl[c->n] = all[i];
	else
		calc_stage_layers(p, i, &c->sl[c->n]);
	c->infl[c->n] = infl[i];
	c->n++;
}

/* The stages that can be the worst: stage 0, stage p-1 and, among the middle stages
 * holding the same layers (per kind), the first with the most in-flight micro-batches
 * (the total grows with them, every other term being equal between such stages).
 * 'all': every stage's layers (calc_comm_pre_layers of the plan), or NULL: each looked
 * up (calc_stage_layers). */
static void cands_build(const struct calc_plan *p, const struct calc_stage_layers *all, int np, const double *infl,
                        struct cands *c)
{
	int best[MAX_CAND], ng = 0, nk = calc_model_nkinds(&p->model);
	struct calc_stage_layers grp[MAX_CAND], sl;

	c->n = 0;
	cand_add(c, p, all, 0, infl);
	for (int i = 1; i < np - 1; i++) {
		int g = 0;
		if (all)
			sl = all[i];
		else
			calc_stage_layers(p, i, &sl);
		while (g < ng && !same_layers(&grp[g], &sl, nk))
			g++;
		if (g == ng && ng < MAX_CAND - 2) {
			grp[ng] = sl;
			best[ng++] = i;
		} else if (g < ng && infl[i] > infl[best[g]])
			best[g] = i;
	}
	/* index order */
	for (int x = 1; x < ng; x++)
		for (int y = x; y > 0 && best[y] < best[y - 1]; y--) {
			int t = best[y];
			best[y] = best[y - 1];
			best[y - 1] = t;
		}
	for (int g = 0; g < ng; g++)
		cand_add(c, p, all, best[g], infl);
	if (np > 1)
		cand_add(c, p, all, np - 1, infl);
}

/* The worst candidate stage's memory and its index, from each candidate's parts
 * (calc_memory_stage_parts of k, which the four ZeRO stages of a leaf share). */
static double mem_worst(const struct calc_mem_terms *k, const struct cands *c, const struct calc_mem_stage_parts *pt,
                        int *worst)
{
	double wt = -1;
	for (int j = 0; j < c->n; j++) {
		double t = calc_memory_stage_of(k, &c->sl[j], c->infl[j], &pt[j], NULL);
		if (t > wt)
			wt = t, *worst = c->idx[j];
	}
	return wt;
}

void calc_search_memory(const struct calc_plan *plan, int *worst, double *total, double *headroom)
{
	struct calc_mem_terms k;
	struct cands c;
	double infl[CALC_MAX_STAGES];
	int np = plan->pp < CALC_MAX_STAGES ? plan->pp : CALC_MAX_STAGES;

	calc_memory_terms(plan, &k);
	for (int i = 0; i < np; i++)
		infl[i] = calc_pipeline_inflight(plan, i);
	cands_build(plan, NULL, np, infl, &c);
	struct calc_mem_stage_parts pt[MAX_CAND];
	for (int j = 0; j < c.n; j++)
		calc_memory_stage_parts(&k, &c.sl[j], c.infl[j], &pt[j]);
	*worst = 0;
	*total = mem_worst(&k, &c, pt, worst);
	*headroom = k.capacity - *total;
}

/* ======================================================================== */
/* The enumeration                                                           */
/* ======================================================================== */

/* What a leaf's lower bound reads of calc_step_compute (leaf_bound: the layers' compute
 * and the model's ends; calc_step_fast_busy and the pipeline stage read of the
 * plan only its structure, which the memo's key holds): the model's ends, then one
 * layer time per kind of the model, packed (memo_in_size). */
static size_t memo_in_size(int nk)
{
	return sizeof(struct calc_step_ends) + (size_t)nk * sizeof(struct calc_layer_time);
}

static void memo_in_pack(unsigned char *at, const struct calc_step_compute *c, int nk)
{
	memcpy(at, &c->ends, sizeof c->ends);
	memcpy(at + sizeof c->ends, c->kind, (size_t)nk * sizeof *c->kind);
}

static int memo_in_same(const unsigned char *at, const struct calc_step_compute *c, int nk)
{
	return !memcmp(at, &c->ends, sizeof c->ends) && !memcmp(at + sizeof c->ends, c->kind, (size_t)nk * sizeof *c->kind);
}

/* The memory side of one item: worst stage and its total per leaf that reached the
 * memory check, in enumeration order (written by the one thread that runs the item). */
struct memo_item {
	int n;
	double *total;               /* [bytes] */
	short *worst;                /* stage, 0-based */
	/* the filling search's lower bounds (leaf_bound) per (schedule variant, recompute,
	 * SP) of the item, NAN where it computed none, and per (recompute, SP) the compute
	 * they were computed from: a search whose compute there is the same, bit for bit,
	 * has the same bounds (a network or overlap scenario: their bounds read neither) */
	double *lb;                  /* [variants x recompute modes x SP choices] [s], or NULL */
	int *in;                     /* [recompute modes x SP choices]: the index of that compute
	                                in the memo's pool of them (memo_in_put), -1 not set */
	double lbmin;                /* with lb: the least of its bounds over the (schedule variant,
	                                recompute, SP) that have a leaf that fits (INFINITY: none
	                                fits; the filling search bounds every such one at its first
	                                leaf that fits) */
};

static pthread_mutex_t seed_lock = PTHREAD_MUTEX_INITIALIZER; /* memo seeds */

#define MEMO_SEED CALC_SEARCH_SEED /* top configurations a memo keeps as the next search's seed */

struct calc_search_memo {
	int filled;                  /* 1: a search has written it */
	struct calc_plan key;        /* the plan that filled it, as memo_key leaves it */
	struct calc_search_opts grid; /* its options (the grid's are compared) */
	struct calc_plan stage1;     /* the plan that filled it, as stage1_key leaves it: a
	                                search whose plan has the same (stage1_same) has the
	                                filling search's stage 1 in every leaf, bit for bit */
	int claimed;                 /* 1: key and grid set by calc_search_memo_claim, not yet
	                                filled: it fits only that memory side.  Set once, before
	                                any search of the memo, and read before 'filled', which
	                                the filling search writes while other threads test
	                                whether the memo fits them (not beside it) */
	int nitems;
	struct memo_item *items;
	/* the items' arrays, carved out of blocks that the filling search's threads take in
	 * turn (memo_carve): one allocation per MEMO_BLOCK bytes instead of five per item,
	 * each item's arrays side by side in the order the thread wrote them, and freed
	 * block by block.  (malloc per item, the heap grown a page at a time, and its free
	 * took 18 % of the CPU samples of the DeepSeek-V3 plan's report, perf record.) */
	pthread_mutex_t block_lock;
	int nblocks, capblocks;
	unsigned char **blocks;
	/* the computes the items' bounds were computed from (memo_item.in), each kept once:
	 * the items of one tp, cp, micro-batch and expert split share it whatever their pp
	 * and dp, and a copy per item (456 bytes per (recompute, SP) pair under the DeepSeek-V3
	 * plan) was a large share of the memo.  in_size bytes each in in_pool, found through in_hash (open
	 * addressing, index + 1, 0 empty); under in_lock while the filling search runs */
	pthread_mutex_t in_lock;
	unsigned char *in_pool;
	size_t in_size;
	int in_n, in_cap, in_hcap;
	int *in_hash;
	int nseed;                   /* configurations of seed[] */
	struct calc_search_cfg seed[MEMO_SEED]; /* the top of the last search that used it */
	/* The filling search's counts, which depend on the memory side and the grid alone
	 * (every leaf is counted whether or not it is timed), kept for the searches that read
	 * the memo at the same min_headroom: a top-only search of them skips the items whose
	 * leaves cannot enter its top K and takes the counts from here (have_counts: set) */
	int have_counts;
	double counts_headroom;      /* opts.min_headroom of the filling search [bytes] */
	struct calc_search_result counts; /* evaluated .. closest_miss; no owned arrays */
};

/* 'plan' without what does not change the memory side of a search: the keys that only
 * time reads (memory.c reads none of inter_node_bw, gemm_eff, attn_eff, tp_overlap,
 * dp_overlap, eff_auto, gemm_shape) and where the keys were set. */
static void memo_key(const struct calc_plan *plan, struct calc_plan *out)
{
	memcpy(out, plan, sizeof *out);
	out->inter_node_bw = 0;
	out->gemm_eff = out->gemm_eff_fp8 = out->attn_eff = 0;
	out->tp_overlap = out->dp_overlap = 0;
	out->eff_auto = 0;
	out->gemm_shape = 0; /* the GEMMs' rate by shape: step.c (gemm_time) alone reads it */
	memset(out->key_line, 0, sizeof out->key_line);
	memset(out->key_src, 0, sizeof out->key_src);
	memset(out->set_origin, 0, sizeof out->set_origin);
}

/* 'plan' without what stage 1 of the step (calc_step_compute: layer_compute, end_times
 * and calc_flops in step.c) does not read: of memo_key's time-only keys, inter_node_bw
 * (read by comm.c alone), tp_overlap (tp_charge: stage 2, calc_step_layer_comm, and the
 * finish) and dp_overlap (the finish, calc_step_dp_bound); the GEMM and attention
 * efficiencies stay, which stage 1 reads.  Two plans with the same stage1_key have the
 * same stage 1 for every leaf of a grid, and so the same lower bounds (leaf_bound reads
 * stage 1 and the plan's structure only). */
static void stage1_key(const struct calc_plan *plan, struct calc_plan *out)
{
	memcpy(out, plan, sizeof *out);
	out->inter_node_bw = 0;
	out->tp_overlap = out->dp_overlap = 0;
	memset(out->key_line, 0, sizeof out->key_line);
	memset(out->key_src, 0, sizeof out->key_src);
	memset(out->set_origin, 0, sizeof out->set_origin);
}

/* The GEMM efficiencies the layer GEMMs run at (step.c gemm_rate): efficiency.gemm for the
 * BF16 GEMMs, efficiency.gemm_fp8 (0: efficiency.gemm) for those with FP8 inputs. */
static double eff_fp8(const struct calc_plan *p)
{
	return p->gemm_eff_fp8 > 0 ? p->gemm_eff_fp8 : p->gemm_eff;
}

double calc_search_gemm_scale(const struct calc_plan *from, const struct calc_plan *to)
{
	double g0 = from->gemm_eff, g1 = to->gemm_eff, f0 = eff_fp8(from), f1 = eff_fp8(to), r = 1;
	if (!(g0 > 0 && g1 > 0 && f0 > 0 && f1 > 0) || !isfinite(g0 + g1 + f0 + f1))
		return 0;
	if (g0 / g1 < r)
		r = g0 / g1;
	if (f0 / f1 < r)
		r = f0 / f1;
	/* a relative margin of 1e-9 for rounding: the identities the proof uses (below) hold
	 * in real arithmetic, and the step engine's sums round differently at each efficiency
	 * (an MoE layer's expert_elem, a sum of GEMM terms less the same terms, is exactly
	 * its memory traffic only in real arithmetic) */
	return r * (1 - 1e-9);
}

/*
 * Why calc_search_bound_scale(calc_search_gemm_scale(P0, P1), s, p, m) times a leaf's lower
 * bound under plan P0 (leaf_bound: calc_step_fast_busy and calc_step_fast_bound_of) is a
 * lower bound of the same leaf's step time under P1, where P1 differs from P0 only in the
 * GEMM efficiencies and keys stage 1 does not read (stage1_key).  Let e0, e1 be the
 * efficiencies (BF16 and FP8), r = min(1, e0 / e1) over both.
 *  1. Stage 1 (calc_step_compute: layer_compute and end_times in step.c).  Every field the
 *     bound reads (a kind's f, b, w, recompute; the ends' first_*, last_*, mtp_proj) is a
 *     sum with non-negative coefficients of GEMM times max(tc, tm) (gemm_time_calc,
 *     grouped_time: tc = 2MNK / (peak x efficiency) x a quantization and shape factor that
 *     do not read the efficiency, tm the operands' traffic, which does not either), the
 *     unfused attention core's FLOPs / gemm_rate, and terms that read no GEMM efficiency
 *     (traffic / hbm, the attention core at efficiency.attn); an MoE layer's expert_elem and
 *     b's "- mtr" are such terms (exact identities: expert_elem is the router's, the
 *     permutation's and the activation's traffic; b holds 2 elem >= mtr).  Each GEMM part
 *     X(e1) = X(e0) e0 / e1 >= r X(e0) where it is tc, and tm = tm >= r tm; a term that
 *     reads no efficiency is >= r times itself (r <= 1).  So every field under P1 is >= r
 *     times the field under P0, and, sums with non-negative coefficients, every stage's
 *     per micro-batch tf, tb, tw (stage_cost: n_k times the kinds' fields, the ends; with
 *     recompute_method = block tb = sum n (b + (1 - keep) recompute), 0 <= keep <= 1; the
 *     offloaded layers' copies are 0 in stage 1) and S = tf + tb + tw.
 *  2. The bound is L = m S_c + beta(tf_c, tb_c, tw_c), c the rank of the largest m S
 *     (calc_step_pipeline), beta the closed-form bubble at p2p = 0 where every stage holds
 *     the same layers (else 0).  GPipe and 1F1B: beta = (p - 1) S, interleaved (p - 1) S / v
 *     (schedules.c): L = (m + k) max_i S_i, k >= 0, so L(P1) >= r L(P0) whichever rank is
 *     critical.  ZB-H1 (p - 1)(F + B - W), ZB-H2 max(0, (p - 1)(F + B - 2W)) or with a
 *     flush also (p - 1) F, DualPipe (p/2 - 1)(F + 2B - W), all clamped at 0: beta is not a
 *     function of S and the critical rank may change, but 0 <= beta <= (p - 1) S_c, so
 *     L(P0) <= (m + p - 1) S_c(P0) and L(P1) >= m max_i S_i(P1) >= m r S_c(P0) >=
 *     r m / (m + p - 1) L(P0).  A schedule registered at run time has an unknown closed
 *     form: no bound is derived (0).
 */
double calc_search_bound_scale(double r, int sched, int p, int m)
{
	if (!(r > 0))
		return 0;
	if (p <= 1 || sched == CALC_SCHED_GPIPE || sched == CALC_SCHED_1F1B || sched == CALC_SCHED_INTERLEAVED)
		return r;
	if ((sched == CALC_SCHED_ZBH1 || sched == CALC_SCHED_ZBH2 || sched == CALC_SCHED_DUALPIPE) && m >= 1)
		return r * m / (m + p - 1.0);
	return 0;
}

int calc_search_same_memory(const struct calc_plan *a, const struct calc_plan *b)
{
	struct calc_plan *ka = xmalloc(sizeof *ka), *kb = xmalloc(sizeof *kb);
	memo_key(a, ka);
	memo_key(b, kb);
	int same = !memcmp(ka, kb, sizeof *ka);
	free(ka);
	free(kb);
	return same;
}

/* 1 when a and b walk the same grid (GPU counts after defaulting, recipes, axes). */
static int same_grid(const struct calc_search_opts *a, const struct calc_search_opts *b)
{
	if (a->ngpus != b->ngpus || a->vary_recipe != b->vary_recipe || a->even_only != b->even_only ||
	    a->max_mb != b->max_mb || a->max_cp != b->max_cp || a->max_vpp != b->max_vpp ||
	    a->offload_optimizer != b->offload_optimizer || a->offload_only != b->offload_only ||
	    a->sched_mask != b->sched_mask)
		return 0;
	for (int i = 0; i < a->ngpus; i++)
		if (a->gpus[i] != b->gpus[i])
			return 0;
	return 1;
}

struct calc_search_memo *calc_search_memo_new(void)
{
	struct calc_search_memo *m = xcalloc(1, sizeof(struct calc_search_memo));
	pthread_mutex_init(&m->block_lock, NULL);
	pthread_mutex_init(&m->in_lock, NULL);
	return m;
}

void calc_search_memo_free(struct calc_search_memo *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->nblocks; i++)
		free(m->blocks[i]);
	free(m->blocks);
	pthread_mutex_destroy(&m->block_lock);
	free(m->in_pool);
	free(m->in_hash);
	pthread_mutex_destroy(&m->in_lock);
	free(m->items);
	free(m);
}

static uint64_t memo_in_hash(const unsigned char *b, size_t n)
{
	uint64_t h = 1469598103934665603u; /* FNV-1a over 8-byte words, then the tail's bytes */
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t x;
		memcpy(&x, b + i, sizeof x);
		h = (h ^ x) * 1099511628211u;
	}
	for (; i < n; i++)
		h = (h ^ b[i]) * 1099511628211u;
	return h ^ h >> 32;
}

/* The index of compute c (memo_in_pack, nk kinds) in m's pool, added if new. */
static int memo_in_put(struct calc_search_memo *m, const struct calc_step_compute *c, int nk)
{
	size_t sz = memo_in_size(nk);
	unsigned char buf[sizeof(struct calc_step_ends) + CALC_MAX_KINDS * sizeof(struct calc_layer_time)];
	uint64_t h;
	int at;

	memo_in_pack(buf, c, nk);
	h = memo_in_hash(buf, sz);
	pthread_mutex_lock(&m->in_lock);
	m->in_size = sz; /* one model per memo (memo_key) */
	if (2 * (m->in_n + 1) > m->in_hcap) { /* at most half full: grown and rehashed */
		int cap = m->in_hcap ? 2 * m->in_hcap : 256, *t = xcalloc((size_t)cap, sizeof *t);
		for (int i = 0; i < m->in_n; i++) {
			uint64_t g = memo_in_hash(m->in_pool + (size_t)i * sz, sz);
			int j = (int)(g & (uint64_t)(cap - 1));
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = i + 1;
		}
		free(m->in_hash);
		m->in_hash = t;
		m->in_hcap = cap;
	}
	for (at = (int)(h & (uint64_t)(m->in_hcap - 1)); m->in_hash[at]; at = (at + 1) & (m->in_hcap - 1))
		if (!memcmp(m->in_pool + (size_t)(m->in_hash[at] - 1) * sz, buf, sz)) {
			int idx = m->in_hash[at] - 1;
			pthread_mutex_unlock(&m->in_lock);
			return idx;
		}
	if (m->in_n == m->in_cap) {
		m->in_cap = m->in_cap ? 2 * m->in_cap : 64;
		m->in_pool = xrealloc(m->in_pool, (size_t)m->in_cap * sz);
	}
	memcpy(m->in_pool + (size_t)m->in_n * sz, buf, sz);
	m->in_hash[at] = ++m->in_n;
	pthread_mutex_unlock(&m->in_lock);
	return m->in_n - 1;
}

#define MEMO_BLOCK (2 << 20) /* bytes of one block of a memo's arrays: one huge page of x86-64 */

/* A new block of at least 'need' bytes, owned by memo m (the threads of its filling
 * search take blocks concurrently), aligned to MEMO_BLOCK and, where the system has
 * transparent huge pages on request, backed by them: one page fault and one TLB entry
 * per block instead of 512. */
static unsigned char *memo_block(struct calc_search_memo *m, size_t need)
{
	void *v = NULL;
	unsigned char *b;
	if (need < MEMO_BLOCK || posix_memalign(&v, MEMO_BLOCK, need) != 0 || !v)
		v = xmalloc(need);
#ifdef MADV_HUGEPAGE
	else
		madvise(v, need, MADV_HUGEPAGE); /* advice: ignored where not available */
#endif
	b = v;
	pthread_mutex_lock(&m->block_lock);
	if (m->nblocks == m->capblocks) {
		m->capblocks = m->capblocks ? 2 * m->capblocks : 64;
		m->blocks = xrealloc(m->blocks, (size_t)m->capblocks * sizeof *m->blocks);
	}
	m->blocks[m->nblocks++] = b;
	pthread_mutex_unlock(&m->block_lock);
	return b;
}

/* The grid options with the GPU count defaulted as calc_search does. */
static void grid_of(const struct calc_plan *plan, const struct calc_search_opts *o, struct calc_search_opts *g)
{
	*g = *o;
	if (g->ngpus <= 0) {
		g->ngpus = 1;
		g->gpus[0] = calc_plan_gpus(plan);
	}
	if (!g->sched_mask)
		g->sched_mask = g->allow == calc_framework_allows ? calc_framework_sched_mask(g->allow_arg)
		                                                  : calc_plan_sched_mask(plan);
}

void calc_search_memo_claim(struct calc_search_memo *m, const struct calc_plan *plan,
                            const struct calc_search_opts *o)
{
	if (m->filled || m->claimed || o->keep_all)
		return;
	memo_key(plan, &m->key);
	grid_of(plan, o, &m->grid);
	m->claimed = 1;
}

int calc_search_memo_filled(const struct calc_search_memo *m)
{
	return m->filled;
}

int calc_search_memo_seed(const struct calc_search_memo *m, struct calc_search_cfg *out, int max)
{
	pthread_mutex_lock(&seed_lock); /* a search of m writes its top back when it ends */
	int n = m->nseed < max ? m->nseed : max;
	if (n > 0)
		memcpy(out, m->seed, (size_t)n * sizeof *out);
	pthread_mutex_unlock(&seed_lock);
	return n > 0 ? n : 0;
}

int calc_search_memo_fits(const struct calc_search_memo *m, const struct calc_plan *plan,
                          const struct calc_search_opts *o)
{
	struct calc_plan *k;
	struct calc_search_opts g;
	int fits;
	if (!m->claimed && !m->filled) /* claimed first: set once, before any search reads it */
		return 1;
	if (o->keep_all)
		return 0;
	grid_of(plan, o, &g);
	if (!same_grid(&g, &m->grid))
		return 0;
	k = xmalloc(sizeof *k);
	memo_key(plan, k);
	fits = !memcmp(k, &m->key, sizeof *k);
	free(k);
	return fits;
}

struct item {
	int recipe, gpus, nodes, gpn, tp, pp, cp, dp, mb;
	int split;                   /* enum calc_search_split */
	int offload;                 /* 1: the optimizer states offloaded at opts.offload_optimizer */
	int ep, etp;                 /* expert degrees (1, 1 for a dense model) */
	long long key0;              /* first key of the item */
	signed char pre;             /* item_check's verdict (enum calc_reject), set once after
	                                build_items: the order, the progress weights and the
	                                walk read it (it was computed three to four times) */
	/* written by the one thread that runs the item */
	double best;                 /* best objective of the item (heatmap) */
	int feasible;
	long long nrows, caprows;
	struct calc_search_row *rows;
};

struct shared {
	const struct calc_plan *base;
	struct calc_search_opts o;
	/* sched_variants at pp = 1 [0] and at pp > 1 [1] (it reads pp no further), made once
	 * for the search: at each item they were 1.5 % of the 405B plan's `search` */
	struct {
		int n, sched[MAX_VARIANTS], vpp[MAX_VARIANTS];
	} var[2];
	struct item *items;
	int nitems;
	int next;                    /* next item to take (atomic) */
	int *order;                  /* items in the order the threads take them: the valid
	                                ones (heavy) first, so that both threads share them */
	long long *work;             /* progress weight of each item: the leaves it evaluates
	                                one by one (0 for an item refused whole); NULL
	                                without opts.progress */
	long long work_total;        /* the leaves of every item (with opts.progress or
	                                opts.leaves_per_thread; else 0) */
	long long work_done;         /* work of the items finished (atomic) */
	double t0;
	struct calc_search_memo *memo; /* opts.memo where it fits, else NULL */
	int memo_read;               /* 1: the leaves' memory comes from memo; 0: memo (if any)
	                                is being filled */
	int stage1_same;             /* 1: memo_read, and the plan's stage1_key is the filling
	                                search's: the memo's lower bounds hold as they are, and
	                                stage 1 of a pair is computed only where a leaf of it is
	                                timed (pair_ready) */
	double seed_time;            /* top_only: a step time the K-th best cannot exceed (the
	                                K-th best of memo's seed re-timed) [s]; INFINITY: none */
	int lazy;                    /* 1: opts.no_counts in effect: a leaf's memory is computed
	                                only when its bound is not hopeless (leaf) */
	double gemm_scale;           /* > 0: memo_read, and the plan differs from the filling
	                                search's stage1_key only in the GEMM efficiencies: the memo's
	                                bounds times bound_scale(gemm_scale, ...) bound this search's
	                                leaves (calc_search_gemm_scale), and stage 1 of a pair is
	                                computed only where a leaf of it is timed or a bound is not
	                                derived (pair_ready); 0: none */
	int lazy1;                   /* 1: stage1_same or gemm_scale > 0 (enter_pair) */
	int skip_early;              /* 1: skip_items and (stage1_same or gemm_scale > 0): an item
	                                whose memo entry's lbmin, scaled, is hopeless is passed over
	                                before its plan is set up */
	int skip_items;              /* 1: an item whose every leaf is hopeless is not walked
	                                (memo_read, top-only without the axes, the memo's counts
	                                taken instead of the leaves': skip_hopeless) */
};

/* A leaf of the band (opts.band_limit): what better() reads under objective time. */
struct band_leaf {
	double step_time, memory;
	long long key;
};

/* The top K of a walk (top_insert). */
struct top_ent {
	double obj;    /* objective() under a non-time objective */
	double step_time, memory;
	long long key;
	int slot;      /* the row's index in rows */
};
struct topk {
	int n;                        /* rows kept */
	struct top_ent *h;            /* the heap, n entries */
	struct calc_search_row *rows; /* rows[0 .. n-1], in slots */
};

struct worker {
	struct shared *sh;
	pthread_t th;
	/* sched_check's verdicts on a layout placed chunk by chunk, for the running item's
	 * placement (lay_key = split x 512 + pp; 0: none): lay_v[v] -1 not known, 0 refused,
	 * 1 placed.  They depend on the placement keys, pp and v alone (calc_layout_chunks),
	 * which the items of one depth and placement share: asked of model.c for every
	 * schedule variant of every item, they were 8.5 % of the instructions of `trainplan
	 * search --plan plans/llama3-405b-h100.ini` (callgrind) */
	int lay_key;
	signed char *lay_v;
	/* ... kept for LAY_CACHE placements met in this search, by lay_key modulo LAY_CACHE
	 * (lay_v points into it): the items run placement after placement (heavy first),
	 * so a verdict kept for the running placement alone was asked again at almost every
	 * item, a message formatted each time (perf record of the DeepSeek-V3 plan's report) */
#define LAY_CACHE 64
	struct {
		int key; /* lay_key, 0: none */
		signed char v[MAX_VARIANTS];
	} lay_c[LAY_CACHE];
	/* the lay_key of comm_pre's stage layers (calc_comm_pre_layers, which read the model
	 * and the placement alone; 0: none): of the Llama 3.1 405B plan's items, which share
	 * a few placements, they were 14 % of the instructions of its `search` */
	int pre_key;
	/* ... and those layers kept for PRE_CACHE placements met in this search, by
	 * lay_c's slot (pre_layers): the items run placement after placement (heavy first),
	 * so the layers kept for the running placement alone were computed again at 577,155
	 * of the DeepSeek-V3 plan's report's 697,371 items (calc_comm_pre_layers 902 M of its
	 * 32.3 G instructions, callgrind; 1.2 M now).  gen is the pre_gen they were computed
	 * under, which the candidate stages kept for them (cands_c) stay keyed by. */
#define PRE_CACHE LAY_CACHE
	struct {
		int key;   /* lay_key, 0: none */
		int gen;   /* pre_gen of the computation */
		int n;     /* stages in all */
		int has_all, have_sl, uniform, heavy, worst_layers;
		double tp_share;
		struct calc_stage_layers *all;
	} pre_c[PRE_CACHE];
	/* the lay_key and chunks per stage (the running schedule's vpp, 0 without layout
	 * keys) of the last calc_plan_resplit of w->plan (0: none): the split reads the
	 * placement keys, pp and those chunks alone and writes the same pp, chunks, stage
	 * list and uneven flag again, so an item of the same key skips it (the 405B plan's
	 * resplits and their chunking were 13 % of its `search`, callgrind) */
	int split_key, split_v;
	int pre_gen; /* the running layers' number: the calc_comm_pre_layers of this worker
	                are numbered 1, 2, ... (pre_gens of them so far) */
	int pre_gens;
	/* mem_ready's candidate stages and parameter copies, by (comm_pre's stage layers as
	 * pre_gen counts them, m, schedule, vpp), CANDS_CACHE of them by that key's hash
	 * (m 0: none): they read those layers, the in-flight micro-batches (schedule, pp, m,
	 * vpp) and the schedule's copies alone, which the items of one placement and m
	 * share; built per item and schedule they were 4.6 % of the 405B plan's `search` */
#define CANDS_CACHE 128
	struct {
		int lay, m, sched, vpp, copies;
		struct cands c;
	} cands_c[CANDS_CACHE];
	struct calc_plan plan;       /* the configuration being evaluated */
	struct calc_params pr;       /* of the plan's model */
	struct calc_mem_terms k;     /* memory.c's terms of the running item and leaf */
	struct calc_step st;         /* scratch */
	/* the compute part of the running leaf's step (calc_step_compute), one per
	 * (recompute, sp) of the running item: the schedule, vpp and ZeRO stage of the
	 * leaves below do not change it */
	struct calc_step_compute pre[3][2];
	int have_pre[3][2];
	/* stage 1's parts met in this search (calc_step_compute_memo): the items of one tp,
	 * cp, micro-batch, recipe and expert split share them whatever their pp, dp and
	 * placement, and a dense layer kind whatever the expert split */
	struct calc_step_compute_memo *s1;
	const struct calc_step_compute *cur; /* of the running leaf (pair_ready) */
	/* the running item's calc_step_fast_busy per (recompute, sp), for the schedules met so
	 * far: it reads the schedule only through two_way and (recompute_method = block) vpp,
	 * so the schedules of one item share it (busy_key: two_way + 2 vpp, -1 unused) */
	struct calc_step_busy busy[3][2][4];
	int busy_key[3][2][4];
	int cur_rc, cur_sp;                  /* the running leaf's (recompute, sp) indices */
	int cur_s;                           /* and its schedule variant's */
	int nrc, nsp;                        /* recompute modes and SP choices of the running item */
	double lbv[MAX_VARIANTS][3][2];      /* bound_for of the running item, NAN: not yet */
	/* sched_check of each schedule variant of the running item (with m micro-batches; set
	 * where its plan is), asked once for the item's walk, skip_hopeless and its memo, and
	 * each accepted variant's index among them (-1: refused): a memo keeps bounds for
	 * these alone, not for every variant (most of a deep pipeline's vpp are refused) */
	signed char s_rej[MAX_VARIANTS];
	short s_slot[MAX_VARIANTS];
	signed char in_same[3][2];           /* the running item's compute equals the memo's: 1,
	                                        0, -1 not compared */
	/* skip_hopeless of the running item: 1 where a (schedule variant, recompute, SP) has no
	 * leaf that fits or a hopeless bound, whose leaves its walk then passes over (the
	 * threshold only falls) */
	unsigned char grp_skip[MAX_VARIANTS][3][2];
	int have_grp;                        /* 1: grp_skip is set for the running item */
	struct calc_mem_stage_parts parts[MAX_CAND]; /* of the running leaf's candidate stages */
	struct calc_comm_pre comm_pre;       /* of the running item */
	struct calc_comm_dp_memo dp_memo;    /* comm_pre's: the running item's DP rows */
	long long evaluated, measured, ranked, rejected[CALC_REJ_N];
	long long pruned;            /* of ranked, not timed (opts.top_only) */
	long long unchecked;         /* of measured, memory not computed (sh->lazy) */
	long long bounds_shared;     /* bounds taken from the memo without stage 1 (stage1_same) */
	long long bounds_scaled;     /* bounds derived from the memo's without stage 1 (gemm_scale) */
	int item_due;                /* 1: the running item's memory terms (parameters, FSDP, the
	                                bytes per ZeRO stage) are still to compute (mem_ready) */
	struct calc_mem_terms zk[4]; /* the bytes per parameter of the running item by ZeRO stage */
	const struct calc_recipe *zk_recipe; /* ... for this recipe, dp x cp and edp (shard 0: none) */
	int zk_shard, zk_edp;
	int cands_due;               /* 1: the running schedule variant's candidate stages are
	                                still to build (mem_ready) */
	int parts_due;               /* 1: the running (recompute, SP) pair's memory parts are
	                                still to compute (mem_ready) */
	/* the layers' activations (calc_mem_terms act[], act_full[]) of the running item by
	 * recompute mode and SP: they read neither the schedule nor vpp, so the schedule
	 * variants of an item share them (calc_memory_terms_act_rest) */
	double act_c[CALC_RC_OP_SAC + 1][2][2][CALC_MAX_KINDS];
	unsigned char act_have[CALC_RC_OP_SAC + 1][2];
	double bound;                /* lower bound of the running leaf's step time, or -1 */
	int st_same;                 /* 1: st holds calc_step_fast_with of the running (recompute,
	                                SP) pair at another ZeRO stage (calc_step_fast_rezero) */
	struct calc_comm comm_kept[3][2]; /* of the running item by (recompute, SP): the
	                                communication rows of the last leaf timed in full, at
	                                its schedule, vpp and ZeRO stage, which the item's other
	                                schedule variants re-time (calc_step_fast_resched) */
	unsigned char comm_have[3][2];
	struct calc_step_dp_lb dp_bound[8]; /* calc_step_dp_parts of the running item by the schedule's
	                                parameter copies (1 or 2) and ZeRO stage: it reads neither
	                                the recomputation nor SP, and of the schedule only its
	                                copies (calc_pipeline_param_copies) ... */
	int have_dp_bound;           /* ... bit 4 (copies - 1) + z: dp_bound[4 (copies - 1) + z] is computed */
	int dp_slot;                 /* 4 (copies - 1) of the running schedule, or -1: its copies
	                                are not kept (more than 2) */
	int bound_due;               /* 1: bound is still to compute for the running (recompute,
	                                SP) pair, at its first leaf that fits (calc_step_fast_bound
	                                reads neither the ZeRO stage nor the memory) */
	long long miss_first, miss_middle, miss_last;
	double miss_sum;
	struct calc_search_row closest;
	int have_closest;
	struct topk top; /* opts.top, a heap whose root is the worst (top_insert) */
	int have_axis[CALC_AXIS_N];
	unsigned long long axis_have; /* the axes of have_axis, as bits */
	unsigned long long item_axes; /* axis_mask_item of the running item's leaves */
	double axis_max;              /* the largest step time of those axes' bests (axis_kept) */
	struct calc_search_row axis[CALC_AXIS_N];
	double last_progress;
	/* the running item's heatmap figures, written to the item at its end (items sit
	 * side by side in memory: writing them per leaf would bounce cache lines between
	 * the threads) */
	double item_best;
	int item_feasible;
	double cpu_s;                /* CPU time of this thread in the enumeration [s] */
	struct memo_item *mi;        /* the running item's memo entry, or NULL */
	int mj;                      /* its next leaf */
	unsigned char *ar_at;        /* the free part of this thread's block of the memo's */
	size_t ar_left;              /* arrays (memo_carve), and its bytes */
	size_t ar_next;              /* bytes of its next block (0: the first) */
	struct memo_item *ar_mi;     /* the item whose total and worst were carved last, with */
	long long ar_cap;            /* room for ar_cap leaves each: trimmed to its n (memo_trim) */
	/* opts.band_limit > 0: this thread's leaves of the band (merged in merge) */
	long long band_n, band_nsafe;
	int band_have;
	struct calc_search_row band_best;
	long long nband, capband;
	struct band_leaf *band;      /* step time, memory and key of each, to rank band_best */
	/* opts.pareto_sample: this thread's ranked leaves as points (merged in merge) */
	long long npts, cappts;
	struct calc_search_point *pts;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Objective of a ranked row: smaller is better. */
static double objective(enum calc_objective o, const struct calc_search_row *r)
{
	switch (o) {
	case CALC_OBJ_COST: return r->cost;
	case CALC_OBJ_MEMORY: return -r->headroom;
	case CALC_OBJ_EFFECTIVE_DAYS: return r->effective_time;
	case CALC_OBJ_TOTAL_COST: return r->total_cost;
	default: return r->step_time;
	}
}

/* 1 when a ranks before b: objective, then step time, then less memory, then
 * enumeration order (so the ranking does not depend on the threads). */
static inline int better(enum calc_objective o, const struct calc_search_row *a, const struct calc_search_row *b)
{
	/* objective time is the step time, which the next test compares: asked once here
	 * (the default objective; called for every ranked leaf and each of its axes, the
	 * objective's switch and the repeated comparison were 4 % of the instructions of
	 * `trainplan search --plan plans/llama2-70b-a100.ini`, callgrind) */
	if (o != CALC_OBJ_TIME) {
		double x = objective(o, a), y = objective(o, b);
		if (x != y)
			return x < y;
	}
	if (a->step_time != b->step_time)
		return a->step_time < b->step_time;
	if (a->memory != b->memory)
		return a->memory < b->memory;
	return a->key < b->key;
}

/*
 * The top K of a walk: a binary heap whose root, h[0], is the worst row kept (for every
 * child c of an entry a, better(a, c) is false), so that a row that enters costs log K
 * moves of an entry, and the K-th best, which a bound is held against (hopeless), is at
 * hand.  better() is a strict total order (the enumeration key breaks every tie), so the
 * K rows kept and their order once sorted (top_sort) do not depend on the order in which
 * they came.  (A sorted array with a memmove of the rows behind each one that entered
 * took 6.5 % of the CPU samples of `trainplan search --plan plans/default.ini`, perf
 * record: with CALC_PICK_TOP_FIRST rows kept most enter early and move about K / 2 rows
 * of 152 bytes each.)  The heap moves entries of what better() reads (objective, step
 * time, memory, key: the same comparisons on the same numbers) and the slot of the row in
 * 'rows', which stays where it entered until a better one takes its slot: a heap of the
 * rows themselves moved 152 bytes per level and, at 400 rows, 60 kB, more than the
 * first-level cache (top_sift_down was 3.5-3.9 % of the CPU samples of `trainplan
 * search` of the Llama 2 70B and the Llama 3.1 405B plans, perf record, against 2.2 % of
 * their instructions).  struct top_ent and struct topk are defined before struct worker.
 */

static inline int ent_better(enum calc_objective o, const struct top_ent *a, const struct top_ent *b)
{
	if (o != CALC_OBJ_TIME && a->obj != b->obj) /* better()'s order */
		return a->obj < b->obj;
	if (a->step_time != b->step_time)
		return a->step_time < b->step_time;
	if (a->memory != b->memory)
		return a->memory < b->memory;
	return a->key < b->key;
}

static void top_init(struct topk *t, int k)
{
	t->n = 0;
	t->h = xcalloc((size_t)(k > 0 ? k : 1), sizeof *t->h);
	t->rows = xcalloc((size_t)(k > 0 ? k : 1), sizeof *t->rows);
}

static void top_free(struct topk *t)
{
	free(t->h);
	free(t->rows);
	t->h = NULL;
	t->rows = NULL;
}

static void top_sift_down(struct top_ent *h, int n, int i, enum calc_objective o)
{
	struct top_ent x = h[i];
	for (;;) {
		int c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && ent_better(o, &h[c], &h[c + 1]))
			c++; /* the worse child */
		if (!ent_better(o, &x, &h[c]))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

static void top_insert(struct topk *t, int k, enum calc_objective o, const struct calc_search_row *r)
{
	struct top_ent e;
	if (k <= 0)
		return;
	e.obj = o != CALC_OBJ_TIME ? objective(o, r) : 0;
	e.step_time = r->step_time;
	e.memory = r->memory;
	e.key = r->key;
	if (t->n < k) { /* room: up from the last leaf while the parent is the better */
		int i = t->n++;
		e.slot = i;
		t->rows[i] = *r;
		while (i > 0 && ent_better(o, &t->h[(i - 1) / 2], &e)) {
			t->h[i] = t->h[(i - 1) / 2];
			i = (i - 1) / 2;
		}
		t->h[i] = e;
		return;
	}
	if (!ent_better(o, &e, &t->h[0])) /* no better than the K-th best */
		return;
	e.slot = t->h[0].slot; /* the worst leaves: its slot takes the row */
	t->rows[e.slot] = *r;
	t->h[0] = e;
	top_sift_down(t->h, k, 0, o);
}

/* The K-th best row's step time of a full top K (top_insert's heap). */
static double top_worst_time(const struct topk *t)
{
	return t->h[0].step_time;
}

/* Heap t's entries sorted in place, the best first: its i-th best row is then
 * t->rows[t->h[i].slot]. */
static void top_sort(struct topk *t, enum calc_objective o)
{
	for (int end = t->n - 1; end > 0; end--) {
		struct top_ent x = t->h[0];
		t->h[0] = t->h[end];
		t->h[end] = x; /* the worst of h[0 .. end] goes last */
		top_sift_down(t->h, end, 0, o);
	}
}

/* A ranked leaf inside the band (opts.band_limit): counted, kept for the rank of the
 * pick, and the pick of this thread where it leaves band_want and is simpler (ties: the
 * one that ranks first, better()). */
static void band_add(struct worker *w, const struct calc_search_row *r)
{
	const struct calc_search_opts *o = &w->sh->o;
	int c;
	w->band_n++;
	/* at most CALC_PICK_TOP_MAX a thread (24 bytes each): a thread with more makes the band
	 * wider than the window's most, which calc_search_pick_band does not read from here */
	if (w->nband < CALC_PICK_TOP_MAX) {
		if (w->nband == w->capband) {
			w->capband = w->capband ? 2 * w->capband : 1024;
			w->band = xrealloc(w->band, (size_t)w->capband * sizeof *w->band);
		}
		w->band[w->nband++] = (struct band_leaf){r->step_time, r->memory, r->key};
	}
	if (!(r->headroom >= o->band_want))
		return;
	w->band_nsafe++;
	if (!w->band_have || (c = o->band_simpler(o->band_arg, &r->c, &w->band_best.c)) < 0 ||
	    (c == 0 && better(o->objective, r, &w->band_best))) {
		w->band_best = *r;
		w->band_have = 1;
	}
}

/* A ranked leaf as its point (opts.pareto_sample): the thread's array, in 2 MiB pages
 * from 4 MiB on (xrealloc), not the item's rows. */
static void point_push(struct worker *w, const struct calc_search_row *r)
{
	if (w->npts == w->cappts) {
		w->cappts = w->cappts ? 2 * w->cappts : 4096;
		w->pts = xrealloc(w->pts, (size_t)w->cappts * sizeof *w->pts);
	}
	w->pts[w->npts++] = (struct calc_search_point){r->memory, r->step_time, r->key};
}

/* The Pareto set's order of points: by memory, then step time, then key (cmp_pareto's
 * for rows; the keys are unique, so the order is total). */
static int pt_less(const struct calc_search_point *x, const struct calc_search_point *y)
{
	return x->memory != y->memory ? x->memory < y->memory
	       : x->step_time != y->step_time ? x->step_time < y->step_time : x->key < y->key;
}

/* Sort a[0 .. n) by pt_less, tmp of n points as scratch: a merge sort, its comparison
 * inlined.  Returns the one of a and tmp that holds the sorted points. */
static struct calc_search_point *sort_points(struct calc_search_point *a, struct calc_search_point *tmp, long long n)
{
	enum { RUN = 16 };
	for (long long lo = 0; lo < n; lo += RUN) { /* insertion sort of each run */
		long long hi = lo + RUN < n ? lo + RUN : n;
		for (long long i = lo + 1; i < hi; i++) {
			struct calc_search_point x = a[i];
			long long j = i;
			for (; j > lo && pt_less(&x, &a[j - 1]); j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
	}
	struct calc_search_point *src = a, *dst = tmp;
	for (long long w = RUN; w < n; w *= 2) {
		for (long long lo = 0; lo < n; lo += 2 * w) {
			long long mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			long long i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				dst[k++] = pt_less(&src[j], &src[i]) ? src[j++] : src[i++];
			while (i < mid)
				dst[k++] = src[i++];
			while (j < hi)
				dst[k++] = src[j++];
		}
		struct calc_search_point *x = src;
		src = dst;
		dst = x;
	}
	return src;
}

static void row_push(struct item *it, const struct calc_search_row *r)
{
	if (it->nrows == it->caprows) {
		it->caprows = it->caprows ? 2 * it->caprows : 256;
		it->rows = xrealloc(it->rows, (size_t)it->caprows * sizeof *it->rows);
	}
	it->rows[it->nrows++] = *r;
}

/* Reject the leaves of a subtree without walking it. */
static void reject_many(struct worker *w, enum calc_reject why, long long n)
{
	w->evaluated += n;
	w->rejected[why] += n;
}

/* The placements tried at depth pp (enum calc_search_split): the plan's, and where pp does
 * not divide the layers of a plan that places them by a rule alone, the account_* rules
 * whose layers pp divides (docs/references.md §3.7).  nsplit_of counts them, split_of
 * names the k-th. */
static int split_ok(const struct calc_plan *plan, int pp, int s)
{
	int L = plan->model.layers, extra, f, l;
	const struct calc_framework *fw;
	if (s == CALC_SPLIT_PLAN)
		return 1;
	if (calc_plan_has_layout(plan) || plan->uneven_stages || pp < 2)
		return 0;
	/* plan.framework = torchtitan: its own rule, whose defaults (1, 1) place even a depth
	 * that divides the layers unevenly (torchtitan/config/configs.py at b5bcd76:
	 * pipeline_parallel_first/last_stage_less_layers = 1); L + a + b effective layers over
	 * pp stages, each weight at most a stage's share (the chunks of a vpp are checked per
	 * leaf, sched_check); Megatron-Core's keys are not torchtitan's */
	fw = calc_plan_framework(plan, NULL);
	if (fw && !strcmp(fw->name, "torchtitan")) {
		int a = s == CALC_SPLIT_TT_BOTH || s == CALC_SPLIT_TT_FIRST, b = s == CALC_SPLIT_TT_BOTH || s == CALC_SPLIT_TT_LAST;
		return split_is_tt(s) && L + a + b >= 2 * pp && (L + a + b) / pp > a && (L + a + b) / pp > b;
	}
	if (split_is_tt(s) || L % pp == 0)
		return 0;
	if (s == CALC_SPLIT_FIRST_LAST) /* where both account_* flags split pp evenly, the rule
	                                 * gives their stages (q - 1, q, ..., q - 1): tried once */
		return first_last(L, pp, &f, &l) && !split_ok(plan, pp, CALC_SPLIT_ACCOUNT_BOTH);
	extra = (s == CALC_SPLIT_ACCOUNT_BOTH || s == CALC_SPLIT_ACCOUNT_EMB) +
	        (s == CALC_SPLIT_ACCOUNT_BOTH || s == CALC_SPLIT_ACCOUNT_LOSS);
	return (L + extra) % pp == 0 && (L + extra) / pp >= 2;
}

static int nsplit_of(const struct calc_plan *plan, int pp, int even_only)
{
	int n = 0;
	for (int s = 0; s < CALC_SEARCH_SPLIT_N; s++)
		n += split_ok(plan, pp, s) && (!even_only || s == CALC_SPLIT_PLAN);
	return n;
}

static int split_of(const struct calc_plan *plan, int pp, int k)
{
	for (int s = 0; s < CALC_SEARCH_SPLIT_N; s++)
		if (split_ok(plan, pp, s) && k-- == 0)
			return s;
	return CALC_SPLIT_PLAN;
}

void calc_search_split_text(const struct calc_plan *base, const struct calc_search_cfg *c, char *buf, size_t n)
{
	int f = 0, l = 0;
	switch ((enum calc_search_split)c->split) {
	case CALC_SPLIT_FIRST_LAST:
		first_last(base->model.layers, c->pp, &f, &l);
		snprintf(buf, n, "first_stage_layers=%d last_stage_layers=%d", f, l);
		return;
	case CALC_SPLIT_ACCOUNT_BOTH:
		snprintf(buf, n, "account_embedding=yes account_loss=yes");
		return;
	case CALC_SPLIT_ACCOUNT_EMB:
		snprintf(buf, n, "account_embedding=yes");
		return;
	case CALC_SPLIT_ACCOUNT_LOSS:
		snprintf(buf, n, "account_loss=yes");
		return;
	case CALC_SPLIT_TT_BOTH:
		snprintf(buf, n, "first_stage_less_layers=1 last_stage_less_layers=1");
		return;
	case CALC_SPLIT_TT_FIRST:
		snprintf(buf, n, "first_stage_less_layers=1");
		return;
	case CALC_SPLIT_TT_LAST:
		snprintf(buf, n, "last_stage_less_layers=1");
		return;
	case CALC_SPLIT_PLAN:
	case CALC_SEARCH_SPLIT_N:
		break;
	}
	if (calc_plan_has_layout(base))
		calc_layout_describe(base, buf, n);
	else if (c->uneven)
		snprintf(buf, n, "split=%s", calc_split_name(base->split));
	else
		snprintf(buf, n, "even");
}

/* What item_check reads of the base plan alone, made once for the search's items: per
 * item, calc_model_has_mamba1 walked the layers twice and calc_placement_pp_agrees parsed
 * parallel.placement again (169 M and 160 M of the 32.3 G instructions of the DeepSeek-V3
 * plan's report, callgrind; 27 M together now). */
struct item_fixed {
	int mamba1;                     /* calc_model_has_mamba1 of the model */
	int place_n;                    /* calc_placement_parse of parallel.placement */
	int place[CALC_DIM_N + 1];
	signed char lay_pp[CALC_MAX_STAGES + 1]; /* the layout keys' verdict by pp (below) */
};

/* The checks that depend only on the work item (recipe, tp, pp, cp).  fx->lay_pp[pp]: the
 * verdict of the plan's layout keys at depth pp (-1 not known, 0 refused, 1 placed),
 * kept over the items, which share a few depths (1,432 items of the Llama 3.1 405B
 * plan asked model.c each time: 1.4 % of its `search`, callgrind). */
static enum calc_reject item_check(const struct calc_plan *base, const struct item *it, int even_only,
                                   struct item_fixed *fx)
{
	signed char *lay_pp = fx->lay_pp;
	const struct calc_recipe *r = calc_recipe_at(it->recipe);
	const struct calc_model *m = &base->model;
	if ((r->fp8_compute && base->gpu.fp8_flops <= 0) || (calc_recipe_block_scaled(r) && base->gpu.fp4_flops <= 0))
		return CALC_REJ_FP8;
	if (m->heads % it->tp || m->kv_heads % it->tp || m->ffn_hidden % it->tp)
		return CALC_REJ_TP;
	/* a hybrid model's Mamba-2 mixers: TP splits their heads and groups (mamba_mixer.py
	 * asserts nheads % tp_size and ngroups % tp_size) */
	if (calc_model_is_hybrid(m) && m->mamba.heads > 0 && (m->mamba.heads % it->tp || m->mamba.groups % it->tp))
		return CALC_REJ_TP;
	/* its gated delta-net mixers: TP splits their key and value heads (gated_delta_net.py
	 * at e867835174: qk_dim // tp_size, num_value_heads // tp_size) */
	if (calc_model_is_hybrid(m) && m->gdn.key_heads > 0 && (m->gdn.key_heads % it->tp || m->gdn.value_heads % it->tp))
		return CALC_REJ_TP;
	/* its Mamba-1 mixers: neither TP nor CP is modelled for them (calc_plan_validate) */
	if (it->tp > 1 && fx->mamba1)
		return CALC_REJ_TP;
	if (it->cp > 1 && fx->mamba1)
		return CALC_REJ_CP;
	/* CP of a hybrid model: MambaContextParallel's head and group rules, gated delta-net's
	 * head rule (calc_plan_validate) */
	if (calc_model_is_hybrid(m) && it->cp > 1 && (!calc_cp_mamba_ok(m, it->tp, it->cp) || !calc_cp_gdn_ok(m, it->tp, it->cp)))
		return CALC_REJ_CP;
	if (it->split != CALC_SPLIT_PLAN) {
		/* a Megatron-Core rule the planner tries (split_ok built the item only where the
		 * rule splits this depth) */
		if (it->pp > CALC_MAX_STAGES || !split_ok(base, it->pp, it->split))
			return CALC_REJ_PP;
	} else if (calc_plan_has_layout(base)) {
		/* Megatron-Core's layout keys: the stage totals at this depth (any chunks) */
		struct calc_chunks ch;
		const char *key;
		int pp = it->pp;
		if (pp > CALC_MAX_STAGES)
			return CALC_REJ_PP;
		if (pp < 0 || lay_pp[pp] < 0) {
			int ok = calc_layout_chunks(base, pp, 0, &ch, NULL, 0, &key) == 0;
			if (pp >= 0)
				lay_pp[pp] = (signed char)ok;
			if (!ok)
				return CALC_REJ_PP;
		} else if (!lay_pp[pp])
			return CALC_REJ_PP;
	} else if (it->pp > m->layers || it->pp > CALC_MAX_STAGES || (even_only && m->layers % it->pp))
		return CALC_REJ_PP;
	else {
		int tmp[CALC_MAX_STAGES];
		if (calc_layers_split(m->layers, it->pp, base->split, tmp, NULL) < 0)
			return CALC_REJ_PP; /* parallel.split = even or llama3 refuses this depth */
	}
	if (it->cp > 1 && base->seq_len % (2 * it->cp))
		return CALC_REJ_CP;
	/* parallel.cp_comm's all-to-all: its group divides cp and the heads of a TP rank */
	if (it->cp > 1 && ((base->cp_comm == CALC_CP_A2A_P2P && it->cp % calc_cp_a2a_group(base, it->cp)) ||
	                   !calc_cp_heads_ok(base, it->tp, it->cp, NULL, NULL)))
		return CALC_REJ_CP;
	if (m->moe.experts > 0) {
		if ((long long)it->tp * it->cp * it->dp % ((long long)it->ep * it->etp))
			return CALC_REJ_EP;
		/* an order with pp inside (tp-cp-ep-pp-dp): plan.c's rule, Megatron-Core's assert */
		if (!calc_placement_pp_agrees_in(fx->place, fx->place_n, it->tp, it->cp, it->dp, it->pp, it->ep, it->etp))
			return CALC_REJ_EP;
		if (m->moe.expert_ffn % it->etp)
			return CALC_REJ_ETP;
	}
	return CALC_REJ_NONE;
}

/* The schedule variants of a pipeline depth: (schedule, vpp), at most MAX_VARIANTS, of the
 * schedules in mask (opts.sched_mask).  The table's schedules without vpp in table order, then each vpp schedule with vpp 2 ..
 * max_vpp; with pp = 1 only the plain schedule (one stage has no schedule to choose). */
static int sched_searched(unsigned long long mask, int s)
{
	return s >= 64 || (mask >> s & 1);
}

static int sched_variants(int pp, int max_vpp, unsigned long long mask, int *sched, int *vpp)
{
	int n = 0, ns = calc_schedule_count();
	if (pp == 1) {
		sched[0] = calc_schedule_plain(), vpp[0] = 1;
		return 1;
	}
	for (int i = 0; i < ns && n < MAX_VARIANTS; i++)
		if (!calc_schedule_at(i)->uses_vpp && sched_searched(mask, i))
			sched[n] = i, vpp[n] = 1, n++;
	for (int i = 0; i < ns; i++)
		if (calc_schedule_at(i)->uses_vpp && sched_searched(mask, i))
			for (int v = 2; v <= max_vpp && n < MAX_VARIANTS; v++)
				sched[n] = i, vpp[n] = v, n++;
	return n;
}


static int nsp_of(int tp)
{
	return tp > 1 ? 2 : 1;
}

/* The recomputation modes searched, into rcs[]; returns how many.  With FlashAttention
 * selective recomputation has nothing to recompute -- the attention core stores no
 * s^2 scores either way (Korthikanti 2022 §5; memory.c, step.c) -- so "selective" is
 * the same configuration as "none" and only "none" is kept. */
static int recompute_modes(const struct calc_plan *base, int rcs[3])
{
	int n = 0;
	rcs[n++] = CALC_RC_NONE;
	if (!base->flash_attention)
		rcs[n++] = CALC_RC_SELECTIVE;
	rcs[n++] = CALC_RC_FULL;
	return n;
}

/* The schedule checks of calc_pipeline_check for a valid m: a vpp schedule's layers,
 * then the row's own check. */
static enum calc_reject sched_check(struct worker *w, const struct calc_plan *p, int sched, int v, int m)
{
	const struct calc_sched *row = calc_schedule_at(sched);
	int pp = p->pp, L = p->model.layers;
	if (calc_plan_has_layout(p)) {
		/* the layout keys' rules at this v (stage totals do not depend on it); a
		 * worker's verdicts kept for its running placement (w->lay_v) */
		int ve = row->uses_vpp ? v : 1, ok = w && ve < MAX_VARIANTS ? w->lay_v[ve] : -1;
		if (ok < 0) {
			struct calc_chunks ch;
			const char *key;
			ok = calc_layout_chunks(p, pp, ve, &ch, NULL, 0, &key) == 0; /* no message: not shown */
			if (w && ve < MAX_VARIANTS)
				w->lay_v[ve] = (signed char)ok;
		}
		if (!ok)
			return CALC_REJ_VPP;
		/* torchtitan's rule (first/last_stage_less_layers): torchtitan makes
		 * ceil((L + a + b) / layers_per_stage) virtual stages
		 * (torchtitan/distributed/pipeline_parallel.py at b5bcd76, _get_pipeline_metadata),
		 * so pp v of them only where some layers_per_stage gives that count (export --for
		 * torchtitan's test); DualPipeV's two V-placed chunks per rank are not the stage
		 * totals costed here, so not with that rule */
		if (p->first_less > 0 || p->last_less > 0) {
			int eff = L + p->first_less + p->last_less, nvs = pp * (row->uses_vpp ? v : 1), k;
			if ((enum calc_schedule)sched == CALC_SCHED_DUALPIPE)
				return CALC_REJ_VPP;
			k = (eff + nvs - 1) / nvs;
			if (nvs > pp && (eff + k - 1) / k != nvs)
				return CALC_REJ_VPP;
		}
	} else if (row->uses_vpp) {
		if (p->uneven_stages) {
			for (int i = 0; i < pp; i++)
				if (p->layers_per_stage[i] % v)
					return CALC_REJ_VPP;
		} else if (L % (pp * v))
			return CALC_REJ_VPP;
	}
	if (row->check && row->check(pp, m, v, NULL, NULL))
		return calc_reject_of_schedule((enum calc_schedule)sched);
	return CALC_REJ_NONE;
}

/* 1 when the leaf of row->c, whose step time is at least 'lb' [s], could still beat
 * this thread's best of an axis it is on (opts.top_axes): an axis without a best yet, or
 * one whose best is not faster than the bound.  The margin is the top K's. */
static int axis_open(const struct worker *w, const struct calc_search_row *row, double lb)
{
	for (unsigned long long m = axis_mask(&row->c); m; m &= m - 1) {
		int a = __builtin_ctzll(m);
		if (!w->have_axis[a] || !(lb > w->axis[a].step_time * (1 + 1e-12)))
			return 1;
	}
	return 0;
}

/* 1 when a leaf whose step time is at least 'lb' [s] cannot enter this thread's top K
 * (nor, so, the merged one) nor (opts.top_axes) beat its best of any of its axes. */
static int hopeless(const struct worker *w, const struct calc_search_row *row, double lb)
{
	const struct calc_search_opts *o = &w->sh->o;
	/* opts.band_limit: a leaf that may be inside the band is timed (the margin is the top K's) */
	return ((w->top.n == o->top && lb > top_worst_time(&w->top) * (1 + 1e-12)) || lb > w->sh->seed_time) &&
	       !(o->top_axes && axis_open(w, row, lb)) && !(o->band_limit > 0 && !(lb > o->band_limit * (1 + 1e-12)));
}

/* The running pair's compute part (calc_step_compute, once per item and (recompute,
 * SP), with the item's calc_comm_pre) in w->cur, computed here where enter_pair left it
 * to the first leaf that reads it. */
static void pair_ready(struct worker *w)
{
	int ri = w->cur_rc, sp = w->cur_sp;
	if (!w->have_pre[ri][sp]) {
		calc_step_compute_memo(&w->s1, &w->plan, &w->pre[ri][sp]);
		w->pre[ri][sp].comm = &w->comm_pre;
		w->have_pre[ri][sp] = 1;
	}
}

/* calc_step_fast_bound of the running leaf, its busy part shared by the schedules of
 * the running item that read it alike (w->busy). */
static double leaf_bound(struct worker *w)
{
	const struct calc_plan *p = &w->plan;
	const struct calc_sched *row = calc_schedule_at((int)p->schedule);
	int block = p->recompute == CALC_RC_FULL && p->recompute_method == CALC_RC_METHOD_BLOCK;
	int key = (row && row->two_way && p->pp > 1) + 2 * (block && p->vpp > 1 ? p->vpp : 1);
	int *keys = w->busy_key[w->cur_rc][w->cur_sp], i;
	struct calc_step_busy *b = w->busy[w->cur_rc][w->cur_sp];

	for (i = 0; i < 4 && keys[i] >= 0; i++)
		if (keys[i] == key)
			return calc_step_fast_bound_of(p, &b[i], &w->st);
	if (i == 4) /* more kinds than kept: the oldest makes room */
		i = 0;
	pair_ready(w);
	calc_step_fast_busy(p, w->cur, &w->st, &b[i]);
	keys[i] = key;
	return calc_step_fast_bound_of(p, &b[i], &w->st);
}

/* leaf_bound of the running (schedule variant, recompute, SP), once per item: from the
 * memo when its compute there is this search's (bit for bit), else computed (and, when
 * filling the memo, kept in it). */
static double bound_for(struct worker *w)
{
	int s = w->cur_s, ri = w->cur_rc, sp = w->cur_sp, at = ri * w->nsp + sp;
	struct memo_item *mi = w->mi;
	double b = w->lbv[s][ri][sp];
	if (!isnan(b))
		return b;
	if (mi && mi->lb && w->sh->memo_read && mi->in[at] >= 0 && w->sh->gemm_scale > 0) {
		/* a GEMM-efficiency scenario: the memo's bound scaled (calc_search_bound_scale:
		 * its proof), where the schedule has a factor; else computed below */
		double f = calc_search_bound_scale(w->sh->gemm_scale, (int)w->plan.schedule, w->plan.pp,
		                                   calc_plan_microbatches(&w->plan));
		double b0 = mi->lb[(w->s_slot[s] * w->nrc + ri) * w->nsp + sp];
		if (f > 0 && !isnan(b0)) {
			b = b0 >= 0 ? b0 * f : b0; /* below 0: none, as the memo's */
			w->bounds_scaled++;
		}
	} else if (mi && mi->lb && w->sh->memo_read && mi->in[at] >= 0) {
		if (w->in_same[ri][sp] < 0 && w->sh->stage1_same)
			w->in_same[ri][sp] = 1; /* the same stage 1 by its inputs (stage1_key) */
		else if (w->in_same[ri][sp] < 0) {
			int nk = calc_model_nkinds(&w->plan.model);
			const struct calc_search_memo *m = w->sh->memo; /* filled: its pool no longer grows */
			w->in_same[ri][sp] = (signed char)memo_in_same(m->in_pool + (size_t)mi->in[at] * m->in_size, w->cur, nk);
		}
		if (w->in_same[ri][sp])
			b = mi->lb[(w->s_slot[s] * w->nrc + ri) * w->nsp + sp];
		if (!isnan(b) && w->sh->stage1_same)
			w->bounds_shared++;
	}
	if (isnan(b)) {
		b = leaf_bound(w);
		if (mi && mi->lb && !w->sh->memo_read) {
			mi->lb[(w->s_slot[s] * w->nrc + ri) * w->nsp + sp] = b;
			if (mi->in[at] < 0)
				mi->in[at] = memo_in_put(w->sh->memo, w->cur, calc_model_nkinds(&w->plan.model));
		}
	}
	w->lbv[s][ri][sp] = b;
	return b;
}

/* The memory terms of the running leaf that are still to compute (w->item_due: its
 * item's; w->cands_due: the candidate stages of its schedule variant, m micro-batches;
 * w->parts_due: the parts of its (recompute, SP) pair), into w->k, c and w->parts. */
static void mem_ready(struct worker *w, struct cands *c, int m)
{
	struct calc_plan *p = &w->plan;
	if (w->item_due) {
		calc_memory_terms_params(p, &w->pr, &w->k);
		calc_memory_terms_fsdp(p, &w->k);
		if (w->zk_recipe != p->recipe || w->zk_shard != p->dp * p->cp || w->zk_edp != p->edp) {
			/* they read the recipe and the two shard degrees alone, which the items
			 * of one dp x cp (micro-batches, ep and etp) mostly share */
			for (int z = 0; z < 4; z++) {
				calc_memory_terms_bytes(p->recipe, z, p->dp * p->cp, &w->zk[z]);
				calc_memory_terms_expert_bytes(p->recipe, z, p->edp, &w->zk[z]);
			}
			w->zk_recipe = p->recipe;
			w->zk_shard = p->dp * p->cp;
			w->zk_edp = p->edp;
		}
		w->item_due = 0;
	}
	if (w->cands_due) {
		unsigned h = ((unsigned)w->pre_gen * 2654435761u ^ (unsigned)m * 40503u ^ (unsigned)p->schedule * 977u ^
		              (unsigned)p->vpp) % CANDS_CACHE;
		int keyed = w->comm_pre.have_sl && w->pre_gen > 0 && m > 0; /* the running layers */
		if (keyed && w->cands_c[h].m == m && w->cands_c[h].lay == w->pre_gen &&
		    w->cands_c[h].sched == (int)p->schedule && w->cands_c[h].vpp == p->vpp) {
			*c = w->cands_c[h].c;
			w->k.copies = w->cands_c[h].copies;
		} else {
			double infl[CALC_MAX_STAGES];
			infl[0] = 0; /* (pp >= 1 sets it) */
			calc_pipeline_inflight_stages(p, m, p->vpp, p->pp, infl);
			/* the running item's stage layers, which comm_pre holds for its placement */
			cands_build(p, w->comm_pre.have_sl ? w->comm_pre.all : NULL, p->pp, infl, c);
			w->k.copies = calc_pipeline_param_copies(p);
			if (keyed) {
				w->cands_c[h].lay = w->pre_gen;
				w->cands_c[h].m = m;
				w->cands_c[h].sched = (int)p->schedule;
				w->cands_c[h].vpp = p->vpp;
				w->cands_c[h].copies = w->k.copies;
				w->cands_c[h].c = *c;
			}
		}
		w->cands_due = 0;
	}
	if (w->parts_due) {
		int rc = (int)p->recompute, sp = p->sp != 0;
		if (rc >= 0 && rc <= CALC_RC_OP_SAC && w->act_have[rc][sp]) {
			memcpy(w->k.act, w->act_c[rc][sp][0], sizeof w->k.act);
			memcpy(w->k.act_full, w->act_c[rc][sp][1], sizeof w->k.act_full);
			calc_memory_terms_act_rest(p, &w->k);
		} else {
			calc_memory_terms_act(p, &w->k);
			if (rc >= 0 && rc <= CALC_RC_OP_SAC) {
				memcpy(w->act_c[rc][sp][0], w->k.act, sizeof w->k.act);
				memcpy(w->act_c[rc][sp][1], w->k.act_full, sizeof w->k.act_full);
				w->act_have[rc][sp] = 1;
			}
		}
		for (int j = 0; j < c->n; j++)
			calc_memory_stage_parts(&w->k, &c->sl[j], c->infl[j], &w->parts[j]);
		w->parts_due = 0;
	}
}

/* calc_step_dp_parts of the running leaf (ZeRO stage 'zero', in w->plan), kept per
 * parameter copies and ZeRO stage for the running item (w->dp_bound), into *x. */
static void dp_bound_of(struct worker *w, int zero, struct calc_step_dp_lb *x)
{
	int dz = w->dp_slot >= 0 ? w->dp_slot + zero : -1;
	if (dz < 0) {
		calc_step_dp_parts(&w->plan, &w->comm_pre, x);
		return;
	}
	if (!(w->have_dp_bound >> dz & 1)) {
		calc_step_dp_parts(&w->plan, &w->comm_pre, &w->dp_bound[dz]);
		w->have_dp_bound |= 1 << dz;
	}
	*x = w->dp_bound[dz];
}

/* A lower bound of the running leaf's step time [s] with its own ZeRO stage 'zero': the
 * bound of its (recompute, SP) pair or, once a leaf of the pair is timed (st_same: the
 * ZeRO stages share the makespan, calc_step_fast_rezero), that makespan, the larger,
 * plus the leaf's exposed DP collectives that the window of that makespan cannot hide
 * and its optimizer (calc_step_dp_bound_at: time = makespan + dp_exposed + optimizer,
 * step.c finish). */
static double bound_zero(struct worker *w, int zero)
{
	double b = w->st_same && w->st.makespan > w->bound ? w->st.makespan : w->bound;
	struct calc_step_dp_lb x;
	dp_bound_of(w, zero, &x);
	return calc_step_dp_bound_at(&w->plan, &x, b);
}

/*
 * The running best of each axis row->c is on (opts.top_axes' rows, the runner-up
 * table).  Under the time objective a row that is slower than the best of every axis it
 * is on changes none (better() needs a step time no larger), and most ranked rows are:
 * when each of its axes has a best and its step time is above the largest of those
 * (axis_max, kept as the bests change), the row is compared with none of them.  The
 * same bests: `trainplan search --threads 1 --plan plans/llama2-70b-a100.ini` (callgrind)
 * 39.12 -> 37.64 M instructions (of its 11,957 ranked rows, most compared with none).
 * The axes an item's leaves share are taken once per item (w->item_axes, set where
 * run_item sets the micro-batch): 37.27 -> 36.90 M, the 405B plan 48.02 -> 47.80 M.
 */
static void axis_keep(struct worker *w, const struct calc_search_row *row)
{
	const struct calc_search_opts *o = &w->sh->o;
	unsigned long long am = w->item_axes | axis_mask_leaf(&row->c);
	int changed = 0;
	if (o->objective == CALC_OBJ_TIME && !(am & ~w->axis_have) && row->step_time > w->axis_max)
		return;
	for (unsigned long long m = am; m; m &= m - 1) {
		int a = __builtin_ctzll(m);
		if (!w->have_axis[a] || better(o->objective, row, &w->axis[a])) {
			w->axis[a] = *row;
			w->have_axis[a] = 1;
			w->axis_have |= 1ull << a;
			changed = 1;
		}
	}
	if (changed) {
		double mx = -INFINITY;
		for (unsigned long long m = w->axis_have; m; m &= m - 1) {
			double t = w->axis[__builtin_ctzll(m)].step_time;
			mx = t > mx || isnan(t) ? t : mx; /* a NaN makes every later test false */
		}
		w->axis_max = mx;
	}
}

/* Evaluate one valid leaf whose configuration is in w->plan and row->c. */
static void leaf(struct worker *w, struct item *it, struct calc_search_row *row, struct cands *c)
{
	const struct calc_search_opts *o = &w->sh->o;
	int worst = 0;
	double total;

	w->evaluated++;
	w->measured++;
	if (w->sh->lazy) {
		/* the counts are not wanted: a leaf that cannot enter the top K, fit or not,
		 * needs no memory (the bound reads neither the memory nor the ZeRO stage, the
		 * DP part no memory) */
		if (w->bound_due) {
			w->bound = bound_for(w);
			w->bound_due = 0;
		}
		if (w->bound >= 0 && (hopeless(w, row, w->bound) || hopeless(w, row, bound_zero(w, row->c.zero)))) {
			w->unchecked++;
			return;
		}
		mem_ready(w, c, row->c.m);
	}
	if (w->mi && w->sh->memo_read) {
		total = w->mi->total[w->mj];
		worst = w->mi->worst[w->mj++];
	} else {
		const struct calc_mem_terms *zk = &w->zk[row->c.zero]; /* the leaf's ZeRO stage */
		mem_ready(w, c, row->c.m);
		w->k.bw = zk->bw, w->k.bwc = zk->bwc, w->k.bg = zk->bg, w->k.bm = zk->bm, w->k.bo = zk->bo;
		w->k.ebw = zk->ebw, w->k.ebwc = zk->ebwc, w->k.ebg = zk->ebg, w->k.ebm = zk->ebm, w->k.ebo = zk->ebo;
		/* parallel.grad_buffer's shard and whether the leaf's stage is ZeRO 1 (memory.c) */
		w->k.bg_sh = zk->bg_sh, w->k.ebg_sh = zk->ebg_sh, w->k.zero1 = zk->zero1;
		/* the offloads that run at ZeRO-3 only (memory.c's terms at the leaf's stage) */
		w->k.param_off = calc_plan_offload_param_at(&w->plan, row->c.zero);
		w->k.opt_nvme = calc_plan_offload_nvme_at(&w->plan, row->c.zero);
		total = mem_worst(&w->k, c, w->parts, &worst);
		if (w->mi) {
			w->mi->total[w->mi->n] = total;
			w->mi->worst[w->mi->n++] = (short)worst;
		}
	}
	row->worst = (short)worst;
	row->memory = total;
	row->headroom = w->k.capacity - total;
	if (row->headroom < o->min_headroom) {
		row->reject = CALC_REJ_MEMORY;
		w->rejected[CALC_REJ_MEMORY]++;
		if (worst == 0)
			w->miss_first++;
		else if (worst == w->plan.pp - 1)
			w->miss_last++;
		else
			w->miss_middle++;
		w->miss_sum -= row->headroom - o->min_headroom;
		if (!w->have_closest || row->headroom > w->closest.headroom ||
		    (row->headroom == w->closest.headroom && row->key < w->closest.key)) {
			w->closest = *row;
			w->have_closest = 1;
		}
		if (o->keep_all)
			row_push(it, row);
		return;
	}
	if (w->bound_due) { /* it overwrites st */
		w->bound = bound_for(w);
		w->bound_due = 0;
		if (w->mi && w->mi->lb && !w->sh->memo_read && !(w->bound >= w->mi->lbmin))
			w->mi->lbmin = w->bound; /* a bound below 0 (none) makes lbmin skip nothing */
	}
	/* it fits, but cannot enter the top K: by the compute and bubble of its (recompute,
	 * SP) pair alone, or with its own exposed DP collectives and optimizer added (lazy:
	 * tested before the memory, against the same top) */
	int gone = !w->sh->lazy && w->bound >= 0 && hopeless(w, row, w->bound);
	if (gone || (!w->sh->lazy && w->bound >= 0 && hopeless(w, row, bound_zero(w, row->c.zero)))) {
		w->ranked++;
		w->item_feasible++;
		w->pruned++;
		return;
	}
	pair_ready(w);
	if (w->st_same)
		calc_step_fast_rezero(&w->plan, w->cur, &w->st);
	else {
		/* the pair's rows at another schedule variant (and ZeRO stage) of the item, kept
		 * apart: st also serves the bounds as scratch */
		int ri = w->cur_rc, sp = w->cur_sp;
		if (w->comm_have[ri][sp] && calc_comm_resched_applies(&w->plan, w->cur->comm)) {
			w->st.comm = w->comm_kept[ri][sp];
			calc_step_fast_resched(&w->plan, w->cur, &w->st);
		} else
			calc_step_fast_with(&w->plan, w->cur, &w->st);
		w->comm_kept[ri][sp] = w->st.comm;
		w->comm_have[ri][sp] = 1;
	}
	w->st_same = 1;
	row->reject = CALC_REJ_NONE;
	row->step_time = w->st.time;
	row->mfu = w->st.mfu;
	row->tokens_per_s = w->st.tokens_per_s;
	row->run_time = w->st.run_time;
	row->cost = w->st.cost;
	if (o->objective == CALC_OBJ_EFFECTIVE_DAYS || o->objective == CALC_OBJ_TOTAL_COST) {
		struct calc_run run;
		calc_run(&w->plan, &w->st, 0, 0, &run); /* checkpoints and failures of this split */
		row->effective_time = run.effective_time;
		row->total_cost = run.cost;
	}
	w->ranked++;
	w->item_feasible++;
	if (w->item_feasible == 1 || objective(o->objective, row) < w->item_best)
		w->item_best = objective(o->objective, row);
	top_insert(&w->top, o->top, o->objective, row);
	if (o->band_limit > 0 && row->step_time <= o->band_limit)
		band_add(w, row);
	axis_keep(w, row);
	if (o->keep_all || o->keep_feasible) {
		if (o->pareto_sample && !o->keep_all)
			point_push(w, row);
		else
			row_push(it, row);
	}
}

/* Record a rejected leaf (only walked when every row is kept). */
static void leaf_reject(struct worker *w, struct item *it, struct calc_search_row *row, enum calc_reject why)
{
	w->evaluated++;
	w->rejected[why]++;
	row->reject = (unsigned char)why;
	row->worst = -1;
	row->memory = row->headroom = row->step_time = row->mfu = row->tokens_per_s = row->run_time = row->cost = 0;
	row->effective_time = row->total_cost = 0;
	row_push(it, row);
}

/* 1 when opts.top_only takes effect: the time objective, a top K, and no rows kept. */
static int top_only_applies(const struct calc_search_opts *o)
{
	return o->top_only && o->objective == CALC_OBJ_TIME && o->top > 0 && !o->keep_all && !o->keep_feasible;
}

/* 'n' bytes of the memo's arrays for this thread (8-byte aligned). */
static void *memo_carve(struct worker *w, size_t n)
{
	void *r;
	n = (n + 7) & ~(size_t)7;
	if (n > w->ar_left) { /* the rest of the block stays unused */
		/* a thread's blocks grow from MEMO_BLOCK / 32 to MEMO_BLOCK, so that a small
		 * search's memo does not clear a huge page per thread */
		size_t next = w->ar_next ? w->ar_next : MEMO_BLOCK / 32, sz = n > next ? n : next;
		w->ar_next = 2 * next < MEMO_BLOCK ? 2 * next : MEMO_BLOCK;
		w->ar_at = memo_block(w->sh->memo, sz);
		w->ar_left = sz;
	}
	r = w->ar_at;
	w->ar_at += n;
	w->ar_left -= n;
	return r;
}

/* The running item's total and worst, carved last with room for every leaf of the item,
 * cut down to the leaves that reached the memory check (mi->n): worst moved down to
 * right after them and the rest given back to the thread's block. */
static void memo_trim(struct worker *w)
{
	struct memo_item *mi = w->ar_mi;
	unsigned char *end;
	w->ar_mi = NULL;
	if (!mi || mi->n >= w->ar_cap)
		return;
	short *worst = (short *)(mi->total + mi->n);
	memmove(worst, mi->worst, (size_t)mi->n * sizeof *worst);
	mi->worst = worst;
	end = (unsigned char *)(worst + mi->n);
	end = (unsigned char *)(((uintptr_t)end + 7) & ~(uintptr_t)7);
	w->ar_left += (size_t)(w->ar_at - end);
	w->ar_at = end;
}

/* Make (schedule variant s, recompute ri, SP sp) of the running item, whose plan w->plan
 * already holds, the running one: its indices and compute part (pair_ready: at once, or
 * with sh->lazy1 where a leaf reads it, the memo's bounds, as they are or scaled, standing
 * for it). */
static void enter_pair(struct worker *w, int s, int ri, int sp)
{
	w->cur = &w->pre[ri][sp];
	w->cur_rc = ri;
	w->cur_sp = sp;
	w->cur_s = s;
	if (!w->sh->lazy1)
		pair_ready(w);
}

/* 1 when no leaf of the running item (its split in w->plan, m micro-batches, the memo
 * entry w->mi) can enter the top K (sh->skip_items): none fits, or the least lower bound
 * of those that fit -- leaf_bound of each (schedule, recompute, SP) with a ZeRO stage that
 * fits, the bound the walk would compute -- is hopeless.  Fills w->pre and the busy parts
 * the walk then reuses. */
static int skip_hopeless(struct worker *w, const int *sv, const int *vv, int nv, const int *rcs, int nrc,
                         int nsp, int m)
{
	const struct calc_search_opts *o = &w->sh->o;
	struct calc_plan *p = &w->plan;
	const double *total = w->mi->total;
	double lb = INFINITY;
	int j = 0, any = 0;
	memset(w->grp_skip, 1, sizeof w->grp_skip);
	w->have_grp = 1;
	for (int s = 0; s < nv; s++) {
		if (w->s_rej[s] != CALC_REJ_NONE)
			continue; /* its leaves are rejected without a memo entry */
		p->schedule = (enum calc_schedule)sv[s];
		p->vpp = vv[s];
		int copies = calc_pipeline_param_copies(p), slot = copies == 1 || copies == 2 ? 4 * (copies - 1) : -1;
		for (int ri = 0; ri < nrc; ri++) {
			p->recompute = (enum calc_recompute)rcs[ri];
			for (int sp = 0; sp < nsp; sp++, j += 4) {
				int fits = 0;
				p->sp = (signed char)(nsp == 2 ? sp : 0);
				for (int z = 0; z < 4; z++) /* as leaf() rejects: headroom < min_headroom */
					fits |= !(w->k.capacity - total[j + z] < o->min_headroom) << z;
				if (!fits)
					continue;
				enter_pair(w, s, ri, sp);
				double b = bound_for(w);
				any = 1;
				w->grp_skip[s][ri][sp] = b >= 0 && hopeless(w, NULL, b);
				if (!w->grp_skip[s][ri][sp]) /* with each fitting leaf's DP bound, as leaf() */
					for (int z = 0; z < 4; z++) {
						double bz = b;
						struct calc_step_dp_lb x;
						if (!(fits >> z & 1))
							continue;
						p->zero = z;
						if (b >= 0 && slot < 0) {
							calc_step_dp_parts(p, &w->comm_pre, &x);
							bz = calc_step_dp_bound_at(p, &x, b);
						} else if (b >= 0) {
							if (!(w->have_dp_bound >> (slot + z) & 1)) {
								calc_step_dp_parts(p, &w->comm_pre, &w->dp_bound[slot + z]);
								w->have_dp_bound |= 1 << (slot + z);
							}
							bz = calc_step_dp_bound_at(p, &w->dp_bound[slot + z], b);
						}
						if (bz < lb)
							lb = bz;
					}
			}
		}
	}
	return !any || (lb >= 0 && hopeless(w, NULL, lb));
}

/* The slot of placement (split, pp) in lay_c and pre_c. */
static int lay_slot(int split, int pp)
{
	return (int)(((unsigned)split * 61u + (unsigned)pp) % LAY_CACHE);
}

/* comm_pre's stage layers of the running placement (w->lay_key, split into w->plan):
 * kept in slot c of pre_c, or computed and kept there.  What calc_comm_pre_layers writes
 * is restored but the placement's parse (place, place_n), which its first call set and
 * which is the same for every item of the search. */
static void pre_layers(struct worker *w, int c)
{
	struct calc_comm_pre *cp = &w->comm_pre;
	int n = w->plan.pp > 0 ? w->plan.pp : 1;
	if (n > CALC_MAX_STAGES)
		n = CALC_MAX_STAGES;
	if (w->pre_c[c].key == w->lay_key && w->pre_c[c].n == n) {
		cp->has_all = w->pre_c[c].has_all;
		cp->have_sl = w->pre_c[c].have_sl;
		cp->uniform = w->pre_c[c].uniform;
		cp->heavy = w->pre_c[c].heavy;
		cp->worst_layers = w->pre_c[c].worst_layers;
		cp->tp_share = w->pre_c[c].tp_share;
		memcpy(cp->all, w->pre_c[c].all, (size_t)n * sizeof *cp->all);
		w->pre_gen = w->pre_c[c].gen;
	} else {
		calc_comm_pre_layers(&w->plan, cp);
		w->pre_gen = ++w->pre_gens; /* the candidate stages kept for other layers: not these */
		w->pre_c[c].key = w->lay_key;
		w->pre_c[c].gen = w->pre_gen;
		w->pre_c[c].has_all = cp->has_all;
		w->pre_c[c].have_sl = cp->have_sl;
		w->pre_c[c].uniform = cp->uniform;
		w->pre_c[c].heavy = cp->heavy;
		w->pre_c[c].worst_layers = cp->worst_layers;
		w->pre_c[c].tp_share = cp->tp_share;
		if (w->pre_c[c].n < n || !w->pre_c[c].all)
			w->pre_c[c].all = xrealloc(w->pre_c[c].all, (size_t)n * sizeof *cp->all);
		w->pre_c[c].n = n;
		memcpy(w->pre_c[c].all, cp->all, (size_t)n * sizeof *cp->all);
	}
	w->pre_key = w->lay_key;
}

/* The configuration fields an item gives each of its leaves, as run_item sets them: all
 * but the schedule, vpp, recomputation, SP and ZeRO stage (the leaf's loops). */
static void item_cfg(const struct shared *sh, const struct item *it, struct calc_search_cfg *c)
{
	const struct calc_plan *base = sh->base;
	int B = base->global_batch, tmp[CALC_MAX_STAGES];
	c->gpus = it->gpus;
	c->nodes = it->nodes;
	c->gpus_per_node = it->gpn;
	c->tp = it->tp;
	c->pp = it->pp;
	c->cp = it->cp;
	c->dp = it->dp;
	c->recipe = (signed char)it->recipe;
	c->ep = it->ep;
	c->etp = it->etp;
	c->split = (signed char)it->split;
	/* the optimizer offload of this item: none or the grid's share */
	c->offload = it->offload ? sh->o.offload_optimizer : 0;
	c->uneven = it->split != CALC_SPLIT_PLAN || calc_plan_has_layout(base);
	if (!c->uneven && it->pp <= CALC_MAX_STAGES && calc_layers_split(base->model.layers, it->pp, base->split, tmp, NULL) == 0)
		for (int i = 1; i < it->pp; i++)
			c->uneven |= tmp[i] != tmp[0];
	c->micro_batch = it->mb;
	c->m = B % (it->mb * it->dp) ? 0 : B / (it->mb * it->dp);
}

/* The row of the leaf 'key' with its point's memory and step time (opts.pareto_sample):
 * the key is the item's key0 (the item's index times 2^KEY_BITS, build_items) plus the
 * leaf's place in run_item's loops over the schedule variants, the recomputation modes,
 * SP and the four ZeRO stages, each leaf counted whether walked or not. */
static void row_of_point(const struct shared *sh, const struct calc_search_point *pt, struct calc_search_row *row)
{
	const struct item *it = &sh->items[pt->key >> KEY_BITS];
	long long local = pt->key & ((1LL << KEY_BITS) - 1);
	int rcs[3], nrc = recompute_modes(sh->base, rcs), nsp = nsp_of(it->tp);
	int z = (int)(local % 4), sp = (int)(local / 4 % nsp), ri = (int)(local / 4 / nsp % nrc);
	int s = (int)(local / 4 / nsp / nrc);
	memset(row, 0, sizeof *row);
	item_cfg(sh, it, &row->c);
	row->c.schedule = (signed char)sh->var[it->pp != 1].sched[s];
	row->c.vpp = sh->var[it->pp != 1].vpp[s];
	row->c.recompute = (signed char)rcs[ri];
	row->c.sp = (signed char)(nsp == 2 ? sp : 0);
	row->c.zero = (signed char)z;
	row->key = pt->key;
	row->memory = pt->memory;
	row->step_time = pt->step_time;
}

static void run_item(struct worker *w, struct item *it)
{
	const struct calc_search_opts *o = &w->sh->o;
	const struct calc_plan *base = w->sh->base;
	struct calc_plan *p = &w->plan;
	struct calc_search_row row;
	const int *sv = w->sh->var[it->pp != 1].sched, *vv = w->sh->var[it->pp != 1].vpp;
	int nv = w->sh->var[it->pp != 1].n;
	int nsp = nsp_of(it->tp), B = base->global_batch, rcs[3], nrc = recompute_modes(base, rcs);
	enum calc_reject pre = (enum calc_reject)it->pre;
	long long per_mb = (long long)nv * nrc * nsp * 4, local = 0;
	int prune = top_only_applies(o);

	int mread = w->sh->memo && w->sh->memo_read; /* the leaves' memory is known */

	w->item_best = 0;
	w->item_feasible = 0;
	w->bound = -1;
	w->bound_due = 0;
	w->st_same = 0;
	w->item_due = w->cands_due = w->parts_due = 0;
	w->mi = NULL;
	w->mj = 0;
	memset(w->have_pre, 0, sizeof w->have_pre);
	memset(w->comm_have, 0, sizeof w->comm_have);
	memset(w->act_have, 0, sizeof w->act_have);
	memset(w->busy_key, -1, sizeof w->busy_key);
	memset(w->in_same, -1, sizeof w->in_same);
	w->have_grp = 0;
	for (int i = 0; i < nv; i++)
		for (int j = 0; j < 3; j++)
			w->lbv[i][j][0] = w->lbv[i][j][1] = NAN;
	w->nrc = nrc;
	w->nsp = nsp;
	w->have_dp_bound = 0;
	if (pre != CALC_REJ_NONE && !o->keep_all) {
		reject_many(w, pre, per_mb);
		return;
	}
	if (w->sh->skip_early && pre == CALC_REJ_NONE && B % (it->mb * it->dp) == 0) {
		/* skip_hopeless's verdict before the plan is set up: its least bound is
		 * min(b + dp) >= min(b) = lbmin over the same fitting pairs, the same b (the
		 * memo's, stage1_same; with gemm_scale each b is the memo's times its
		 * variant's factor f_s, so min(f_s b) >= min(f_s) lbmin for b >= 0), and the DP
		 * part (calc_step_dp_bound) is >= 0; hopeless grows with the bound (no axes) */
		const struct memo_item *e = &w->sh->memo->items[it - w->sh->items];
		double f = 1; /* gemm_scale: the least factor over the item's schedule variants */
		if (w->sh->gemm_scale > 0) {
			int m = B / (it->mb * it->dp);
			for (int s = 0; s < nv && f > 0; s++) {
				double fs = calc_search_bound_scale(w->sh->gemm_scale, sv[s], it->pp, m);
				f = fs < f ? fs : f;
			}
		}
		if (e->lb && (isinf(e->lbmin) || (f > 0 && e->lbmin >= 0 && hopeless(w, NULL, e->lbmin * f))))
			return;
	}
	memset(&row, 0, sizeof row);
	item_cfg(w->sh, it, &row.c);
	p->offload_optimizer = row.c.offload;
	/* the placement: the plan's, or a Megatron-Core rule of this item */
	split_keys(p, base, it->split, it->pp);
	if (w->lay_key != it->split * 512 + it->pp) { /* another placement: its verdicts unknown */
		int c;
		w->lay_key = it->split * 512 + it->pp;
		/* the slot by split and pp both: lay_key modulo LAY_CACHE was pp's alone (512 is a
		 * multiple of it), and the splits of one pp took each other's slot in turn: 2.13 M
		 * of sched_check's calc_layout_chunks in the DeepSeek-V3 plan's report, 384 M of
		 * its 32.3 G instructions (callgrind; 2,354 calls, 0.4 M now) */
		c = lay_slot(it->split, it->pp);
		if (w->lay_c[c].key != w->lay_key) { /* not met, or its slot taken since */
			w->lay_c[c].key = w->lay_key;
			memset(w->lay_c[c].v, -1, sizeof w->lay_c[c].v);
		}
		w->lay_v = w->lay_c[c].v;
	}

	p->nodes = it->nodes;
	p->gpus_per_node = it->gpn;
	p->tp = it->tp;
	p->cp = it->cp;
	p->dp = it->dp;
	p->recipe = calc_recipe_grads(calc_recipe_at(it->recipe), p->main_grads); /* training.main_grads */
	p->ep = it->ep;
	p->etp = it->etp;
	if (pre == CALC_REJ_NONE) {
		int sv_now = 0;
		if (calc_plan_has_layout(p)) { /* variant.c's chunks of the plan's schedule */
			const struct calc_sched *srow = calc_schedule_at((int)p->schedule);
			sv_now = srow && srow->uses_vpp && p->vpp > 0 ? p->vpp : 1;
		}
		if (w->split_key != w->lay_key || w->split_v != sv_now) {
			calc_plan_resplit(p, it->pp, NULL);
			w->split_key = w->lay_key;
			w->split_v = sv_now;
		}
		calc_memory_terms_fixed(p, &w->k); /* the capacity */
		/* item_check refused an ep x etp that does not divide tp x cp x dp */
		p->edp = (int)((long long)it->tp * it->cp * it->dp / ((long long)it->ep * it->etp));
		if (w->pre_key != w->lay_key) /* the stage layers of the running placement */
			pre_layers(w, lay_slot(it->split, it->pp));
		calc_comm_pre_groups(p, &w->comm_pre);
		if (!mread) { /* the terms of the leaves' memory, which a memo holds: at once or
		               * (lazy) where a leaf needs them */
			w->item_due = 1;
			if (!w->sh->lazy)
				mem_ready(w, NULL, 0);
		}
	} else {
		if (p->pp != it->pp)
			w->split_key = 0; /* the last split's stage list no longer matches p->pp */
		p->pp = it->pp;
	}

	{
		int mb = it->mb, m = B % (mb * it->dp) ? 0 : B / (mb * it->dp);
		enum calc_reject r1 = pre != CALC_REJ_NONE ? pre : m ? CALC_REJ_NONE : CALC_REJ_BATCH;
		w->item_axes = axis_mask_item(&row.c);
		p->micro_batch = mb;
		if (r1 != CALC_REJ_NONE && !o->keep_all) {
			reject_many(w, r1, per_mb);
			return;
		}
		int nvalid = 0;
		if (r1 == CALC_REJ_NONE)
			for (int s = 0; s < nv; s++) {
				w->s_rej[s] = (signed char)sched_check(w, p, sv[s], vv[s], m);
				w->s_slot[s] = (short)(w->s_rej[s] == CALC_REJ_NONE ? nvalid++ : -1);
			}
		if (w->sh->memo && r1 == CALC_REJ_NONE) {
			w->mi = &w->sh->memo->items[it - w->sh->items];
			if (!mread) {
				if (prune) { /* the bounds it computes, for the searches that read it */
					size_t nb = (size_t)nvalid * nrc * nsp;
					w->mi->lb = memo_carve(w, nb * sizeof *w->mi->lb);
					for (size_t i = 0; i < nb; i++)
						w->mi->lb[i] = NAN;
					w->mi->in = memo_carve(w, (size_t)nrc * nsp * sizeof *w->mi->in);
					for (int i = 0; i < nrc * nsp; i++)
						w->mi->in[i] = -1;
					w->mi->lbmin = INFINITY;
				}
				/* last, so that memo_trim can give back what the item does not use */
				w->mi->total = memo_carve(w, (size_t)per_mb * (sizeof *w->mi->total + sizeof *w->mi->worst));
				w->mi->worst = (short *)(w->mi->total + per_mb);
				w->ar_mi = w->mi;
				w->ar_cap = per_mb;
			}
		}
		if (w->sh->skip_items && mread && r1 == CALC_REJ_NONE &&
		    skip_hopeless(w, sv, vv, nv, rcs, nrc, nsp, m))
			return;
		for (int s = 0; s < nv; s++) {
			enum calc_reject r2 = r1 != CALC_REJ_NONE ? r1 : (enum calc_reject)w->s_rej[s];
			long long per_s = (long long)nrc * nsp * 4;
			struct cands c;
			row.c.schedule = (signed char)sv[s];
			row.c.vpp = vv[s];
			if (r2 != CALC_REJ_NONE && !o->keep_all) {
				reject_many(w, r2, per_s);
				local += per_s;
				continue;
			}
			if (r2 == CALC_REJ_NONE) {
				p->schedule = (enum calc_schedule)sv[s];
				p->vpp = vv[s];
				if (!mread) { /* the candidate stages, at once or (lazy) where a leaf needs them */
					w->cands_due = 1;
					if (!w->sh->lazy)
						mem_ready(w, &c, m);
				}
				int copies = calc_pipeline_param_copies(p);
				w->dp_slot = copies == 1 || copies == 2 ? 4 * (copies - 1) : -1;
			}
			for (int ri = 0; ri < nrc; ri++) {
				row.c.recompute = (signed char)rcs[ri];
				p->recompute = (enum calc_recompute)rcs[ri];
				for (int sp = 0; sp < nsp; sp++) {
					row.c.sp = (signed char)(nsp == 2 ? sp : 0);
					p->sp = row.c.sp;
					if (r2 == CALC_REJ_NONE && w->have_grp && w->grp_skip[s][ri][sp]) {
						/* not one of its leaves can be timed (the counts are the memo's) */
						local += 4;
						w->mj += 4;
						continue;
					}
					if (r2 == CALC_REJ_NONE) {
						if (!mread) {
							w->parts_due = 1;
							if (!w->sh->lazy)
								mem_ready(w, &c, m);
						}
						enter_pair(w, s, ri, sp);
						w->bound = -1;
						w->bound_due = prune;
						w->st_same = 0;
					}
					for (int z = 0; z < 4; z++) {
						row.c.zero = (signed char)z;
						row.key = it->key0 + local++;
						if (r2 != CALC_REJ_NONE) {
							leaf_reject(w, it, &row, r2);
							continue;
						}
						if (it->offload && z == 0 && !p->fsdp) {
							/* plan.c's rule: the hybrid optimizer needs the distributed
							 * optimizer.  A memo keeps the four ZeRO stages of a pair,
							 * this one as not fitting */
							if (w->mi && w->sh->memo_read)
								w->mj++;
							else if (w->mi) {
								w->mi->total[w->mi->n] = INFINITY;
								w->mi->worst[w->mi->n++] = 0;
							}
							if (o->keep_all)
								leaf_reject(w, it, &row, CALC_REJ_OFFLOAD);
							else
								reject_many(w, CALC_REJ_OFFLOAD, 1);
							continue;
						}
						if (o->allow && !o->allow(o->allow_arg, &row.c)) {
							if (o->keep_all) /* the row is kept only for --all */
								leaf_reject(w, it, &row, CALC_REJ_FRAMEWORK);
							else
								reject_many(w, CALC_REJ_FRAMEWORK, 1);
							continue;
						}
						p->zero = z;
						row.step_time = row.mfu = row.tokens_per_s = row.run_time = row.cost = 0;
						leaf(w, it, &row, &c);
					}
				}
			}
		}
	}
}

static double thread_cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	double c0 = thread_cpu_s();
	for (;;) {
		int i = __atomic_fetch_add(&sh->next, 1, __ATOMIC_RELAXED);
		if (i >= sh->nitems)
			break;
		run_item(w, &sh->items[sh->order[i]]);
		memo_trim(w);
		sh->items[sh->order[i]].best = w->item_best;
		sh->items[sh->order[i]].feasible = w->item_feasible;
		if (sh->work) {
			/* the share of the work done, by leaves rather than items: an item's cost
			 * grows with its leaves, and the items refused whole cost nothing */
			long long done = __atomic_add_fetch(&sh->work_done, sh->work[sh->order[i]], __ATOMIC_RELAXED);
			double t = now_s();
			if (w->last_progress >= 0 && t - w->last_progress >= sh->o.progress_interval) {
				sh->o.progress(sh->o.progress_arg, sh->work_total > 0 ? (double)done / sh->work_total : 1.0,
				               t - sh->t0);
				w->last_progress = t;
			}
		}
	}
	w->cpu_s = thread_cpu_s() - c0;
	if (w->npts) { /* opts.pareto_sample: this thread's points in order, beside the others' */
		struct calc_search_point *tmp = xmalloc((size_t)w->npts * sizeof *tmp), *sorted;
		sorted = sort_points(w->pts, tmp, w->npts);
		free(sorted == tmp ? w->pts : tmp);
		w->pts = sorted;
		w->cappts = w->npts;
	}
	return NULL;
}

/* ======================================================================== */
/* Setup, merge, re-check                                                    */
/* ======================================================================== */

/* The divisors of n in ascending order, the first 'max' of them: those up to sqrt(n),
 * then their cofactors from the largest down (a loop over every i <= n was 3.5 % of
 * `trainplan search --plan plans/llama3-405b-h100.ini`, callgrind: n = 16,384 and its
 * quotients, again for each item). */
static int divisors(int n, int *out, int max)
{
	int k = 0, nhi = 0, hi[1600]; /* an int below 2^31 has at most 1,600 divisors */
	for (int i = 1; (long long)i * i <= n && k < max; i++)
		if (n % i == 0) {
			out[k++] = i;
			if (i != n / i)
				hi[nhi++] = n / i;
		}
	for (int j = nhi - 1; j >= 0 && k < max; j--) /* (k < max: every small one is in) */
			out[k++] = hi[j];
	return k;
}

/* Items in enumeration order: recipe, N, tp, pp, cp, micro-batch. */
/* The items build_items makes for 'nr' recipes: the same loops, counted, so that a grid
 * past CALC_SEARCH_MAX_ITEMS is refused before anything is allocated (every axis at its
 * maximum on 110,880 GPUs is 28,953,600 items, gigabytes). */
static long long count_items(const struct calc_plan *plan, const struct calc_search_opts *o, int nr)
{
	long long count = 0;
	int gpn0 = plan->gpus_per_node;
	for (int g = 0; g < o->ngpus; g++) {
		int n = o->gpus[g], tps[64], ntp = divisors(n, tps, 64), nep = 1, netp = 1, etps[64] = {1};
		if (plan->model.moe.experts > 0) {
			int de[64], nde = divisors(plan->model.moe.experts, de, 64), dt[64], ndt = divisors(n, dt, 64);
			nep = netp = 0;
			for (int i = 0; i < nde; i++)
				nep += de[i] <= n;
			for (int i = 0; i < ndt; i++)
				if (dt[i] <= gpn0)
					etps[netp++] = dt[i];
		}
		for (int a = 0; a < ntp; a++) {
			int pps[64], npp = divisors(n / tps[a], pps, 64), fits = 0;
			for (int f = 0; f < netp; f++) /* etp | tp: the grid's rule */
				fits += netp == 1 || tps[a] % etps[f] == 0;
			for (int b = 0; b < npp && pps[b] <= CALC_MAX_STAGES; b++) {
				int cps[64], ncp = divisors(n / tps[a] / pps[b], cps, 64);
				for (int c = 0; c < ncp && cps[c] <= o->max_cp; c++)
					count += (long long)nep * fits * o->max_mb;
			}
		}
	}
	return count * nr * (calc_search_offload_share(plan, o, NULL) > 0 && !o->offload_only ? 2 : 1);
}

static int build_items(const struct calc_plan *plan, const struct calc_search_opts *o, struct shared *sh,
                       struct calc_diag *d)
{
	int recipes[32], nr = 0, cap = 0;
	long long key = 0;
	int gpn0 = plan->gpus_per_node;

	/* A recipe without gradients (seed: the textbook memory baseline, weights and
	 * Adam state only) does not train: it is left out of --vary recipe and refused
	 * as the plan's own recipe. */
	if (o->vary_recipe) {
		for (int i = 0; calc_recipe_at(i) && nr < 32; i++)
			if (calc_recipe_bytes(calc_recipe_at(i), CALC_T_GRAD) > 0)
				recipes[nr++] = i;
	} else {
		for (int i = 0; calc_recipe_at(i); i++)
			if (calc_recipe_at(i) == calc_recipe_grads(plan->recipe, 0)) /* its preset */
				recipes[nr++] = i;
		if (!nr)
			return calc_error(d, plan->file, 0, "search: the plan's recipe is not a preset recipe");
		if (!(calc_recipe_bytes(plan->recipe, CALC_T_GRAD) > 0))
			return calc_error(d, plan->file, 0,
			                  "search: training.recipe = %s holds no gradients (a memory baseline, not a "
			                  "trainable recipe); choose another recipe or --vary recipe",
			                  plan->recipe->name);
	}
	for (int g = 0; g < o->ngpus; g++) {
		int n = o->gpus[g];
		if (n < 1 || (n > gpn0 && n % gpn0))
			return calc_error(d, plan->file, 0, "search: %d GPUs is not a whole number of %d-GPU nodes", n,
			                  gpn0);
	}
	long long count = count_items(plan, o, nr);
	if (count > CALC_SEARCH_MAX_ITEMS)
		return calc_error(d, plan->file, 0,
		                  "search: %lld splits to evaluate (recipes x GPU counts x tp x pp x cp x ep x etp x "
		                  "micro-batch sizes): at most %d; lower --max-mb (%d), --max-cp (%d) or name fewer "
		                  "--gpus", count, CALC_SEARCH_MAX_ITEMS, o->max_mb, o->max_cp);
	for (int ri = 0; ri < nr; ri++)
		for (int g = 0; g < o->ngpus; g++) {
			int n = o->gpus[g], tps[64], ntp = divisors(n, tps, 64);
			/* MoE: ep every divisor of the experts up to N; etp every divisor of tp up to
			 * a node (from 1, no expert TP, to Megatron-Core's default etp = tp: the
			 * expert GEMMs' TP stays on NVLink inside the attention's TP group); dense:
			 * the plan's (1, 1) */
			int eps[64] = {plan->ep > 0 ? plan->ep : 1}, etps[64] = {plan->etp > 0 ? plan->etp : 1};
			int nep = 1, netp = 1;
			if (plan->model.moe.experts > 0) {
				int de[64], nde = divisors(plan->model.moe.experts, de, 64), dt[64], ndt = divisors(n, dt, 64);
				nep = netp = 0;
				for (int i = 0; i < nde; i++)
					if (de[i] <= n)
						eps[nep++] = de[i];
				for (int i = 0; i < ndt; i++)
					if (dt[i] <= gpn0)
						etps[netp++] = dt[i];
			}
			int gpn = n < gpn0 ? n : gpn0, nodes = n / gpn;
			int noff = o->offload_optimizer > 0 ? 2 : 1; /* none, and the grid's optimizer offload
			                                                (offload_only: the second alone) */
			for (int a = 0; a < ntp; a++) {
				int pps[64], npp = divisors(n / tps[a], pps, 64);
				for (int b = 0; b < npp && pps[b] <= CALC_MAX_STAGES; b++) {
					int cps[64], ncp = divisors(n / tps[a] / pps[b], cps, 64);
					/* the placements of this depth, once (split_ok was 3 % of the default
					 * plan's search when asked again for every micro-batch and item) */
					int splits[CALC_SEARCH_SPLIT_N], nspl = nsplit_of(plan, pps[b], o->even_only);
					for (int k = 0; k < nspl; k++)
						splits[k] = split_of(plan, pps[b], k);
					for (int c = 0; c < ncp && cps[c] <= o->max_cp; c++)
					for (int e = 0; e < nep; e++)
					for (int f = 0; f < netp; f++)
					for (int mb = 1; mb <= o->max_mb; mb++)
					for (int sp = 0; sp < nspl; sp++)
					for (int off = o->offload_only && noff == 2; off < noff; off++) {
						struct item *it;
						if (netp > 1 && tps[a] % etps[f])
							break; /* etp | tp: the grid's rule, see build_items */
						if (sh->nitems == cap) {
							cap = cap ? 2 * cap : 256;
							sh->items = xrealloc(sh->items, (size_t)cap * sizeof *sh->items);
						}
						it = &sh->items[sh->nitems++];
						memset(it, 0, sizeof *it);
						it->recipe = recipes[ri];
						it->gpus = n;
						it->nodes = nodes;
						it->gpn = gpn;
						it->tp = tps[a];
						it->pp = pps[b];
						it->cp = cps[c];
						it->dp = n / (tps[a] * pps[b] * cps[c]);
						it->mb = mb;
						it->split = splits[sp];
						it->offload = off;
						it->ep = eps[e];
						it->etp = etps[f];
						it->key0 = key;
						key += 1LL << KEY_BITS;
					}
				}
			}
		}
	return 0;
}

static int cmp_cells(const void *a, const void *b)
{
	const struct calc_search_cell *x = a, *y = b;
	return x->tp != y->tp ? (x->tp > y->tp) - (x->tp < y->tp) : (x->pp > y->pp) - (x->pp < y->pp);
}

static int cmp_pareto(const void *a, const void *b)
{
	const struct calc_search_row *x = a, *y = b;
	if (x->memory != y->memory)
		return x->memory < y->memory ? -1 : 1;
	if (x->step_time != y->step_time)
		return x->step_time < y->step_time ? -1 : 1;
	return (x->key > y->key) - (x->key < y->key);
}

/* opts.pareto_sample: the threads' points (each thread's sorted, worker_main) merged in
 * the Pareto set's order, the frontier marked as for rows (a point is on it when it is
 * faster than every point before it), and the sample's points as rows (row_of_point).
 * The rows and frontier are those that the complete rows (keep_feasible alone), sorted by
 * cmp_pareto, give at the sampled places. */
static void merge_points(struct calc_search_result *out, struct worker *ws, int nw, const struct shared *sh)
{
	long long n = 0, at[64] = {0};
	for (int i = 0; i < nw; i++)
		n += ws[i].npts;
	struct calc_search_point *pts = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *pts);
	for (long long k = 0; k < n; k++) { /* the least of the threads' next points */
		int b = -1;
		for (int i = 0; i < nw; i++)
			if (at[i] < ws[i].npts && (b < 0 || pt_less(&ws[i].pts[at[i]], &ws[b].pts[at[b]])))
				b = i;
		pts[k] = ws[b].pts[at[b]++];
	}
	for (int i = 0; i < nw; i++) {
		free(ws[i].pts);
		ws[i].pts = NULL;
		ws[i].npts = ws[i].cappts = 0;
	}
	char *frontier = xcalloc((size_t)(n > 0 ? n : 1), 1), *keep = xcalloc((size_t)(n > 0 ? n : 1), 1);
	double best = INFINITY;
	for (long long i = 0; i < n; i++)
		if (pts[i].step_time < best) {
			best = pts[i].step_time;
			frontier[i] = 1;
		}
	long long nk = sh->o.pareto_sample(pts, frontier, n, keep);
	out->npoints = n;
	out->rows = xmalloc((size_t)(nk > 0 ? nk : 1) * sizeof *out->rows);
	out->frontier = xcalloc((size_t)(nk > 0 ? nk : 1), 1);
	for (long long i = 0; i < n; i++)
		if (keep[i] && out->nrows < nk) {
			row_of_point(sh, &pts[i], &out->rows[out->nrows]);
			out->frontier[out->nrows++] = frontier[i];
		}
	free(keep);
	free(frontier);
	free(pts);
}

static void merge(struct calc_search_result *out, struct worker *ws, int nw, struct shared *sh)
{
	const struct calc_search_opts *o = &sh->o;
	struct topk top;
	int ntop;
	long long nrows = 0;

	top_init(&top, o->top);

	for (int i = 0; i < nw; i++) {
		struct worker *w = &ws[i];
		out->evaluated += w->evaluated;
		out->cpu_s += w->cpu_s;
		out->measured += w->measured;
		out->ranked += w->ranked;
		out->pruned += w->pruned;
		out->unchecked += w->unchecked;
		out->bounds_shared += w->bounds_shared;
		out->bounds_scaled += w->bounds_scaled;
		for (int r = 0; r < CALC_REJ_N; r++)
			out->rejected[r] += w->rejected[r];
		out->miss_first += w->miss_first;
		out->miss_middle += w->miss_middle;
		out->miss_last += w->miss_last;
		out->miss_mean += w->miss_sum;
		if (w->have_closest && (!out->have_closest || w->closest.headroom > out->closest_miss.headroom ||
		                        (w->closest.headroom == out->closest_miss.headroom &&
		                         w->closest.key < out->closest_miss.key))) {
			out->closest_miss = w->closest;
			out->have_closest = 1;
		}
		for (int k = 0; k < w->top.n; k++)
			top_insert(&top, o->top, o->objective, &w->top.rows[k]);
		for (int a = 0; a < CALC_AXIS_N; a++)
			if (w->have_axis[a] && (!out->have_axis[a] || better(o->objective, &w->axis[a], &out->axis[a]))) {
				out->axis[a] = w->axis[a];
				out->have_axis[a] = 1;
			}
		out->band_n += w->band_n;
		out->band_nsafe += w->band_nsafe;
		if (w->band_have) {
			int c = out->band_have ? o->band_simpler(o->band_arg, &w->band_best.c, &out->band_best.c) : -1;
			if (c < 0 || (c == 0 && better(o->objective, &w->band_best, &out->band_best))) {
				out->band_best = w->band_best;
				out->band_have = 1;
			}
		}
	}
	if (out->band_have) /* the leaves of the band that rank before the pick */
		for (int i = 0; i < nw; i++)
			for (long long k = 0; k < ws[i].nband; k++) {
				const struct band_leaf *b = &ws[i].band[k];
				struct calc_search_row x;
				x.step_time = b->step_time;
				x.memory = b->memory;
				x.key = b->key;
				out->band_before += better(CALC_OBJ_TIME, &x, &out->band_best);
			}
	if (out->rejected[CALC_REJ_MEMORY])
		out->miss_mean /= out->rejected[CALC_REJ_MEMORY];
	top_sort(&top, o->objective);
	ntop = top.n;
	out->ntop = out->top_alloc = ntop;
	out->top = xcalloc((size_t)(ntop > 0 ? ntop : 1), sizeof *out->top);
	for (int i = 0; i < ntop; i++)
		out->top[i].r = top.rows[top.h[i].slot];
	top_free(&top);

	/* heatmap cells: (tp, pp) over every other axis; at most one per item, each written
	 * when it is made (not cleared before: only the ncells made are touched), the block
	 * cut to them after */
	out->cells = xmalloc((size_t)(sh->nitems > 0 ? sh->nitems : 1) * sizeof *out->cells);
	for (int i = 0, last = -1; i < sh->nitems; i++) {
		const struct item *it = &sh->items[i];
		int j;
		/* one cell per (tp, pp): the previous item's first (items of a (tp, pp) are
		 * consecutive in enumeration order), else a look over all of them */
		if (last >= 0 && out->cells[last].tp == it->tp && out->cells[last].pp == it->pp)
			j = last;
		else
			for (j = 0; j < out->ncells; j++)
				if (out->cells[j].tp == it->tp && out->cells[j].pp == it->pp)
					break;
		last = j;
		if (j == out->ncells) {
			out->cells[j] = (struct calc_search_cell){it->tp, it->pp, NAN, 0};
			out->ncells++;
		}
		if (it->feasible && (!out->cells[j].feasible || it->best < out->cells[j].best))
			out->cells[j].best = it->best;
		out->cells[j].feasible += it->feasible;
		nrows += it->nrows;
	}
	qsort(out->cells, (size_t)out->ncells, sizeof *out->cells, cmp_cells);
	out->cells = xrealloc(out->cells, (size_t)(out->ncells > 0 ? out->ncells : 1) * sizeof *out->cells);

	if (o->keep_feasible && o->pareto_sample && !o->keep_all)
		merge_points(out, ws, nw, sh);
	else if (o->keep_all || o->keep_feasible) {
		out->rows = xmalloc((size_t)(nrows > 0 ? nrows : 1) * sizeof *out->rows);
		for (int i = 0; i < sh->nitems; i++) {
			struct item *it = &sh->items[i];
			if (it->nrows)
				memcpy(out->rows + out->nrows, it->rows, (size_t)it->nrows * sizeof *it->rows);
			out->nrows += it->nrows;
		}
		if (!o->keep_all) { /* the Pareto set: by memory, frontier marked */
			/* sorted by memory then time, a point is on the frontier when it is faster
			 * than every point before it (no other needs no more memory and is no
			 * slower; of identical points the first) */
			double best = INFINITY;
			qsort(out->rows, (size_t)out->nrows, sizeof *out->rows, cmp_pareto);
			out->frontier = xcalloc((size_t)(out->nrows > 0 ? out->nrows : 1), 1);
			for (long long i = 0; i < out->nrows; i++)
				if (out->rows[i].step_time < best) {
					best = out->rows[i].step_time;
					out->frontier[i] = 1;
				}
		}
	}
}

/* The leaves below sh's items: per item its (schedule, vpp) pairs, recomputation
 * modes, SP choices and the four ZeRO stages. */
static long long count_leaves(const struct calc_plan *plan, const struct shared *sh)
{
	long long leaves = 0;
	int sv[MAX_VARIANTS], vv[MAX_VARIANTS], rcs[3], nrc = recompute_modes(plan, rcs);
	for (int i = 0; i < sh->nitems; i++)
		leaves += (long long)sched_variants(sh->items[i].pp, sh->o.max_vpp, sh->o.sched_mask, sv, vv) * nrc *
		          nsp_of(sh->items[i].tp) * 4;
	return leaves;
}

/* The options a search of 'plan' runs with: 'opts', or the defaults when NULL, and the
 * plan's own GPU count when they name none. */
static void opts_of(const struct calc_plan *plan, const struct calc_search_opts *opts, struct calc_search_opts *o)
{
	if (opts)
		*o = *opts;
	else
		calc_search_opts_init(o);
	if (o->ngpus <= 0) {
		o->ngpus = 1;
		o->gpus[0] = calc_plan_gpus(plan);
	}
	o->offload_optimizer = calc_search_offload_share(plan, o, NULL);
	if (!o->sched_mask) /* the schedules of the plan's framework (plan.framework), or --for's */
		o->sched_mask = o->allow == calc_framework_allows ? calc_framework_sched_mask(o->allow_arg)
		                                                  : calc_plan_sched_mask(plan);
}

long long calc_search_size(const struct calc_plan *plan, const struct calc_search_opts *opts)
{
	struct shared sh;
	memset(&sh, 0, sizeof sh);
	opts_of(plan, opts, &sh.o);
	if (sh.o.max_vpp < 1 || sh.o.max_vpp > MAX_VARIANTS - 6 || sh.o.ngpus > CALC_SEARCH_MAX_GPUS || !plan->recipe ||
	    plan->model.layers < 1 || plan->model.heads < 1 || plan->global_batch < 1)
		return 0;
	struct calc_diag d = {0};
	long long leaves = build_items(plan, &sh.o, &sh, &d) < 0 ? 0 : count_leaves(plan, &sh);
	calc_diag_free(&d);
	free(sh.items);
	return leaves;
}

/* The counts of a search's leaves -- evaluated, measured, ranked, the rejects, the memory
 * misses and the closest one -- from 'from' into 'to' (the memo's, which depend on the
 * memory side and the grid alone). */
static void counts_copy(struct calc_search_result *to, const struct calc_search_result *from)
{
	to->evaluated = from->evaluated;
	to->measured = from->measured;
	to->ranked = from->ranked;
	memcpy(to->rejected, from->rejected, sizeof to->rejected);
	to->miss_first = from->miss_first;
	to->miss_middle = from->miss_middle;
	to->miss_last = from->miss_last;
	to->miss_mean = from->miss_mean;
	to->have_closest = from->have_closest;
	to->closest_miss = from->closest_miss;
}

/* The index of the item of sh holding configuration c, or -1. */
static int item_of(const struct shared *sh, const struct calc_search_cfg *c)
{
	for (int i = 0; i < sh->nitems; i++) {
		const struct item *x = &sh->items[i];
		if (x->recipe == c->recipe && x->gpus == c->gpus && x->tp == c->tp && x->pp == c->pp && x->cp == c->cp &&
		    x->split == c->split && (x->offload ? sh->o.offload_optimizer : 0) == c->offload &&
		    x->mb == c->micro_batch && x->ep == c->ep && x->etp == c->etp && x->nodes == c->nodes &&
		    x->gpn == c->gpus_per_node)
			return i;
	}
	return -1;
}

/* 1 when configuration c is a leaf of sh's grid that the search of 'plan' ranks: its
 * item's and schedule's checks pass and its worst stage (calc_search_memory of the
 * configuration applied to 'plan', into p) leaves opts.min_headroom free with a margin
 * of 1e-6 of its total, against rounding between that path and the leaves' (a
 * configuration at the edge is passed over: a seed only bounds). */
static int seed_fits(const struct calc_plan *plan, const struct shared *sh, const struct calc_search_cfg *c,
                     struct calc_plan *p)
{
	const struct calc_search_opts *o = &sh->o;
	int at = item_of(sh, c);
	const struct item *it = at >= 0 ? &sh->items[at] : NULL;
	int sv[MAX_VARIANTS], vv[MAX_VARIANTS], nv, rcs[3], nrc = recompute_modes(plan, rcs), ok = 0;
	if (!it || it->pre != CALC_REJ_NONE || plan->global_batch % (it->mb * it->dp))
		return 0;
	if (c->zero < 0 || c->zero > 3 || c->sp < 0 || c->sp >= nsp_of(it->tp))
		return 0;
	for (int i = 0; i < nrc; i++)
		ok |= rcs[i] == c->recompute;
	nv = sched_variants(it->pp, o->max_vpp, o->sched_mask, sv, vv);
	int s = 0;
	while (s < nv && !(sv[s] == c->schedule && vv[s] == c->vpp))
		s++;
	if (!ok || s == nv)
		return 0;
	calc_search_apply(plan, c, p);
	if (sched_check(NULL, p, sv[s], vv[s], plan->global_batch / (it->mb * it->dp)) != CALC_REJ_NONE)
		return 0;
	int worst;
	double total, headroom;
	calc_search_memory(p, &worst, &total, &headroom);
	return headroom - o->min_headroom > 1e-6 * fabs(total);
}

int calc_search(const struct calc_plan *plan, const struct calc_search_opts *opts, struct calc_search_result *out,
                struct calc_diag *d)
{
	struct shared sh;
	struct worker *ws;
	int nw;

	memset(out, 0, sizeof *out);
	memset(&sh, 0, sizeof sh);
	opts_of(plan, opts, &sh.o);
	if (sh.o.max_mb < 1 || sh.o.max_mb > 1024 || sh.o.max_cp < 1 || sh.o.max_vpp < 1 ||
	    sh.o.max_vpp > MAX_VARIANTS - 6 || sh.o.top < 0 || sh.o.top > 100000 || sh.o.ngpus > CALC_SEARCH_MAX_GPUS)
		return calc_error(d, plan->file, 0, "search: an option is out of range (max_mb 1..1024, max_vpp "
		                  "1..%d, top 0..100000, at most %d GPU counts)", MAX_VARIANTS - 6, CALC_SEARCH_MAX_GPUS);
	{ /* every (schedule, vpp) pair of the table must fit in one pipeline depth's list */
		int n0 = 0, n1 = 0;
		for (int i = 0; i < calc_schedule_count(); i++)
			calc_schedule_at(i)->uses_vpp ? n1++ : n0++;
		if (n0 + (long)n1 * (sh.o.max_vpp - 1) > MAX_VARIANTS)
			return calc_error(d, plan->file, 0, "search: max_vpp = %d gives %ld schedule variants "
			                  "for %d schedules: at most %d", sh.o.max_vpp,
			                  n0 + (long)n1 * (sh.o.max_vpp - 1), n0 + n1, MAX_VARIANTS);
	}
	if (!plan->recipe || plan->model.layers < 1 || plan->model.heads < 1 || plan->global_batch < 1)
		return calc_error(d, plan->file, 0, "search: the plan is incomplete (model, recipe or batch)");
	sh.base = plan;
	if (build_items(plan, &sh.o, &sh, d) < 0) {
		free(sh.items);
		return -1;
	}
	{
		struct item_fixed fx;
		fx.mamba1 = calc_model_has_mamba1(&plan->model);
		fx.place_n = calc_placement_parse(plan->placement, fx.place);
		memset(fx.lay_pp, -1, sizeof fx.lay_pp);
		for (int i = 0; i < sh.nitems; i++)
			sh.items[i].pre = (signed char)item_check(plan, &sh.items[i], sh.o.even_only, &fx);
	}
	if (sh.o.keep_all) { /* every row is kept: refuse what would not fit in memory */
		long long leaves = count_leaves(plan, &sh);
		if (leaves > CALC_SEARCH_MAX_ROWS) {
			free(sh.items);
			return calc_error(d, plan->file, 0, "search: keeping every row would take %lld rows (at most %d); "
			                  "narrow the grid (fewer GPU counts, --max-mb, --max-vpp, --max-cp)", leaves,
			                  CALC_SEARCH_MAX_ROWS);
		}
	}
	if (sh.o.memo && calc_search_memo_fits(sh.o.memo, plan, &sh.o) && !sh.o.keep_all) {
		struct calc_search_memo *m = sh.o.memo;
		if (m->filled && m->nitems == sh.nitems) {
			struct calc_plan *k1 = xmalloc(sizeof *k1);
			sh.memo = m;
			sh.memo_read = 1;
			stage1_key(plan, k1);
			sh.stage1_same = !memcmp(k1, &m->stage1, sizeof *k1);
			if (!sh.stage1_same) { /* the same but for the GEMM efficiencies? */
				struct calc_plan *k0 = xmalloc(sizeof *k0);
				*k0 = m->stage1;
				k0->gemm_eff = k0->gemm_eff_fp8 = k1->gemm_eff = k1->gemm_eff_fp8 = 0;
				k0->eff_auto = k1->eff_auto = 0; /* where they came from: read by plan.c alone */
				if (!memcmp(k1, k0, sizeof *k1))
					sh.gemm_scale = calc_search_gemm_scale(&m->stage1, plan);
				free(k0);
			}
			sh.lazy1 = sh.stage1_same || sh.gemm_scale > 0;
			free(k1);
		} else if (!m->filled) {
			sh.memo = m;
			stage1_key(plan, &m->stage1);
			if (!m->claimed) { /* a claimed memo has them, and other threads read them */
				memo_key(plan, &m->key);
				grid_of(plan, &sh.o, &m->grid);
			}
			m->nitems = sh.nitems;
			m->items = xcalloc((size_t)(sh.nitems > 0 ? sh.nitems : 1), sizeof *m->items);
		}
	}
	sh.seed_time = INFINITY;
	/* the seed is copied under seed_lock: searches of one memo may run on several
	 * threads (the report's prefetch), and each writes its top back */
	struct calc_search_cfg seed[MEMO_SEED];
	int nseed = 0;
	if (sh.memo_read) {
		pthread_mutex_lock(&seed_lock);
		nseed = sh.memo->nseed;
		memcpy(seed, sh.memo->seed, (size_t)nseed * sizeof *seed);
		pthread_mutex_unlock(&seed_lock);
	}
	/* without a memo, the seed the caller gives: those of its configurations that are
	 * leaves of this grid and fit under this plan (seed_fits) */
	struct calc_plan *sp = xmalloc(sizeof *sp);
	struct calc_search_cfg given[MEMO_SEED]; /* their items are walked first */
	int ngiven = 0;
	if (!sh.memo_read && top_only_applies(&sh.o) && sh.o.seed)
		for (int i = 0; i < sh.o.nseed && ngiven < MEMO_SEED; i++) { /* nseed <= ngiven */
			/* one that does not fit (the seed of a shorter sequence) may with half the
			 * micro-batch or twice the CP degree: the activations per GPU grow with the
			 * tokens of a micro-batch on it, s b / cp (docs/references.md §2.2) */
			struct calc_search_cfg c = sh.o.seed[i];
			int ok = seed_fits(plan, &sh, &c, sp);
			for (int k = 0; !ok && k < 2; k++) {
				c = sh.o.seed[i];
				if (k == 0 && c.micro_batch % 2 == 0)
					c.micro_batch /= 2;
				else if (k == 1 && c.dp % 2 == 0)
					c.cp *= 2, c.dp /= 2;
				else
					continue;
				ok = seed_fits(plan, &sh, &c, sp);
			}
			if (ok)
				seed[nseed++] = c;
			given[ngiven++] = ok ? c : sh.o.seed[i];
		}
	free(sp);
	sh.o.seed = NULL; /* the caller's array: not kept in the result */
	sh.o.nseed = 0;
	sh.lazy = top_only_applies(&sh.o) && sh.o.no_counts && !sh.memo;
	if (top_only_applies(&sh.o) && nseed >= sh.o.top) {
		/* The seed, configurations that fit (the memo's: the memory side is the same),
		 * timed under this plan: the K-th best of any K that fit bounds the K-th best of
		 * all, so a leaf whose lower bound exceeds it cannot enter the top K from the
		 * first item on.  A relative margin of 1e-9 covers rounding between
		 * calc_step_fast and the leaves' calc_step_fast_with; the top K is the same as
		 * without the seed. */
		struct calc_plan *p = xmalloc(sizeof *p);
		double t[MEMO_SEED];
		for (int i = 0; i < nseed; i++) {
			struct calc_step st;
			calc_search_apply(plan, &seed[i], p);
			calc_step_fast(p, &st);
			t[i] = st.time;
			for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
				double x = t[j];
				t[j] = t[j - 1];
				t[j - 1] = x;
			}
		}
		free(p);
		if (t[sh.o.top - 1] > 0 && isfinite(t[sh.o.top - 1]))
			sh.seed_time = t[sh.o.top - 1] * (1 + 1e-9);
	}
	/* a top-only search of a filled memo (not the axes: an item's bound says nothing of
	 * its axes) skips the hopeless items and counts as the memo's filling search did */
	struct calc_search_result counts;
	if (sh.memo_read && top_only_applies(&sh.o) && !sh.o.top_axes) {
		pthread_mutex_lock(&seed_lock);
		if (sh.memo->have_counts && sh.memo->counts_headroom == sh.o.min_headroom) {
			counts = sh.memo->counts;
			sh.skip_items = 1;
			sh.skip_early = sh.stage1_same || sh.gemm_scale > 0;
		}
		pthread_mutex_unlock(&seed_lock);
	}
	sh.order = xmalloc((size_t)(sh.nitems > 0 ? sh.nitems : 1) * sizeof *sh.order);
	{
		int k = 0;
		for (int pass = 0; pass < 2; pass++)
			for (int i = 0; i < sh.nitems; i++)
				if ((sh.items[i].pre == CALC_REJ_NONE) == (pass == 0))
					sh.order[k++] = i;
		/* the items of the given seed first, fitting or not (their other leaves, another
		 * recomputation or ZeRO stage, are likely among the fastest that fit): the top K
		 * they fill early puts more leaves out of it.  The ranking does not depend on
		 * the order (better(): ties break on the key). */
		for (int g = 0, front = 0; g < ngiven; g++) {
			int at = item_of(&sh, &given[g]), pos = front;
			while (at >= 0 && pos < sh.nitems && sh.order[pos] != at)
				pos++;
			if (at < 0 || pos == sh.nitems)
				continue; /* not an item of the grid, or in front already */
			for (int j = pos; j > front; j--)
				sh.order[j] = sh.order[j - 1];
			sh.order[front++] = at;
		}
	}
	for (int k = 0; k < 2; k++)
		sh.var[k].n = sched_variants(k ? 2 : 1, sh.o.max_vpp, sh.o.sched_mask, sh.var[k].sched, sh.var[k].vpp);
	if (sh.o.progress || sh.o.leaves_per_thread > 0) {
		/* the leaves each item evaluates one by one: the progress's weights, and the
		 * size of the grid that opts.leaves_per_thread reads (sched_variants counts
		 * the same variants for every pp > 1) */
		int rcs[3], nrc = recompute_modes(plan, rcs);
		if (sh.o.progress)
			sh.work = xcalloc((size_t)(sh.nitems > 0 ? sh.nitems : 1), sizeof *sh.work);
		for (int i = 0; i < sh.nitems; i++) {
			const struct item *it = &sh.items[i];
			long long w = sh.o.keep_all || it->pre == CALC_REJ_NONE
			                  ? (long long)sh.var[it->pp > 1].n * nrc * nsp_of(it->tp) * 4
			                  : 0;
			if (sh.work)
				sh.work[i] = w;
			sh.work_total += w;
		}
	}
	nw = sh.o.threads < 1 ? 1 : sh.o.threads > 64 ? 64 : sh.o.threads;
	if (nw > sh.nitems && sh.nitems > 0)
		nw = sh.nitems;
	if (sh.o.leaves_per_thread > 0 && nw > 1 + sh.work_total / sh.o.leaves_per_thread)
		nw = (int)(1 + sh.work_total / sh.o.leaves_per_thread);
	ws = xcalloc((size_t)nw, sizeof *ws);
	for (int i = 0; i < nw; i++) {
		ws[i].comm_pre.dp_memo = &ws[i].dp_memo;
		ws[i].comm_pre.pr = &ws[i].pr; /* of the model, which the search does not change */
	}
	sh.t0 = now_s();
	for (int i = 0; i < nw; i++) {
		ws[i].sh = &sh;
		ws[i].plan = *plan;
		ws[i].plan.dp_auto = 0;
		calc_model_params(&plan->model, &ws[i].pr);
		top_init(&ws[i].top, sh.o.top);
		ws[i].axis_max = -INFINITY;
		ws[i].last_progress = i == 0 ? sh.t0 : -1;
	}
	for (int i = 1; i < nw; i++)
		if (pthread_create(&ws[i].th, NULL, worker_main, &ws[i]) != 0) {
			ws[i].th = 0;
			ws[i].last_progress = -2; /* not started: thread 0 takes its share */
		}
	worker_main(&ws[0]);
	for (int i = 1; i < nw; i++)
		if (ws[i].last_progress != -2)
			pthread_join(ws[i].th, NULL);
	out->elapsed_s = now_s() - sh.t0;
	if (sh.memo && !sh.memo_read) /* only the search that filled it writes it */
		sh.memo->filled = 1;
	if (sh.o.progress) /* the last call: every item is done */
		sh.o.progress(sh.o.progress_arg, 1.0, out->elapsed_s);
	free(sh.work);
	out->threads = nw;
	out->opts = sh.o;
	out->moe = plan->model.moe.experts > 0;
	out->layers = plan->model.layers;
	{ /* the text of an uneven configuration that keeps the plan's placement */
		struct calc_search_cfg c0;
		memset(&c0, 0, sizeof c0);
		c0.uneven = 1;
		calc_search_split_text(plan, &c0, out->split_plan, sizeof out->split_plan);
	}
	out->top_only = top_only_applies(&sh.o);
	out->partial = sh.lazy;
	merge(out, ws, nw, &sh);
	if (sh.skip_items) { /* the counts of every leaf, timed or not, walked or not */
		long long timed = out->ranked - out->pruned;
		counts_copy(out, &counts);
		out->pruned = out->ranked - timed;
	}
	if (sh.memo && !(sh.o.band_limit > 0)) { /* the next search of this memory side starts from this top */
		pthread_mutex_lock(&seed_lock);
		if (!sh.memo_read) {
			memset(&sh.memo->counts, 0, sizeof sh.memo->counts);
			counts_copy(&sh.memo->counts, out);
			sh.memo->counts_headroom = sh.o.min_headroom;
			sh.memo->have_counts = 1;
		}
		sh.memo->nseed = out->ntop < MEMO_SEED ? out->ntop : MEMO_SEED;
		for (int i = 0; i < sh.memo->nseed; i++)
			sh.memo->seed[i] = out->top[i].r.c;
		pthread_mutex_unlock(&seed_lock);
	}
	for (int i = 0; i < nw; i++) {
		top_free(&ws[i].top);
		free(ws[i].band);
		calc_step_compute_memo_free(ws[i].s1);
		for (int c = 0; c < PRE_CACHE; c++)
			free(ws[i].pre_c[c].all);
		free(ws[i].pts);
	}
	free(ws);
	for (int i = 0; i < sh.nitems; i++)
		free(sh.items[i].rows);
	free(sh.items);
	free(sh.order);

	/* the top K: breakdown with the closed form (the first opts.breakdown_top), then
	 * (opts.recheck) the simulator */
	for (int i = 0; i < out->ntop && (sh.o.breakdown_top <= 0 || i < sh.o.breakdown_top); i++)
		calc_search_top_fast(plan, &out->top[i]);
	if (sh.o.recheck)
		calc_search_recheck(plan, out);
	return 0;
}

void calc_search_top_fast(const struct calc_plan *plan, struct calc_search_top *t)
{
	if (t->fast)
		return;
	struct calc_plan *p = xmalloc(sizeof *p);
	calc_search_apply(plan, &t->r.c, p);
	t->fast = xmalloc(sizeof *t->fast);
	calc_step_fast(p, t->fast);
	free(p);
}

void calc_search_recheck(const struct calc_plan *plan, struct calc_search_result *r)
{
	if (r->rechecked)
		return;
	r->rechecked = 1;
	int n = r->opts.recheck_top > 0 && r->opts.recheck_top < r->ntop ? r->opts.recheck_top : r->ntop;
	for (int i = 0; i < n; i++) {
		struct calc_search_top *t = &r->top[i];
		struct calc_plan *p = xmalloc(sizeof *p);
		struct calc_diag dd = {0};
		struct calc_step *st = xmalloc(sizeof *st);
		calc_search_apply(plan, &t->r.c, p);
		t->sim_ok = calc_step(p, st, &dd) == 0;
		t->sim_time = t->sim_ok ? st->time : NAN;
		calc_diag_free(&dd);
		free(st);
		free(p);
	}
}

void calc_search_free(struct calc_search_result *r)
{
	for (int i = 0; r->top && i < r->top_alloc; i++)
		free(r->top[i].fast);
	free(r->pick_top.fast);
	free(r->top);
	free(r->cells);
	free(r->rows);
	free(r->frontier);
	memset(r, 0, sizeof *r);
}

/* ======================================================================== */
/* Tables                                                                    */
/* ======================================================================== */

/* The text of configuration c's placement of the layers (calc_search_split_text). */
const char *calc_search_split_cell(const struct calc_search_result *r, const struct calc_search_cfg *c, char *buf,
                                   size_t n)
{
	int f = 0, l = 0;
	switch ((enum calc_search_split)c->split) {
	case CALC_SPLIT_ACCOUNT_BOTH:
	case CALC_SPLIT_ACCOUNT_EMB:
	case CALC_SPLIT_ACCOUNT_LOSS:
	case CALC_SPLIT_TT_BOTH:
	case CALC_SPLIT_TT_FIRST:
	case CALC_SPLIT_TT_LAST:
		calc_search_split_text(NULL, c, buf, n); /* reads no plan for these */
		return buf;
	case CALC_SPLIT_FIRST_LAST:
		first_last(r->layers, c->pp, &f, &l);
		snprintf(buf, n, "first_stage_layers=%d last_stage_layers=%d", f, l);
		return buf;
	case CALC_SPLIT_PLAN:
	case CALC_SEARCH_SPLIT_N:
		break;
	}
	return c->uneven ? r->split_plan : "even";
}

/* 1 when a configuration of 'n' (stride 'size' bytes from 'first') splits unevenly: the
 * tables then show each one's placement (column "split"). */
static int any_uneven(const void *first, long long n, size_t size)
{
	for (long long i = 0; i < n; i++)
		if (((const struct calc_search_cfg *)(const void *)((const char *)first + i * (long long)size))->uneven)
			return 1;
	return 0;
}

static void cfg_cols(struct calc_table *t, int recipe, int moe, int split, int off)
{
	calc_table_col(t, "tp", "", CALC_D_INT, 0);
	calc_table_col(t, "pp", "", CALC_D_INT, 0);
	calc_table_col(t, "dp", "", CALC_D_INT, 0);
	calc_table_col(t, "cp", "", CALC_D_INT, 0);
	calc_table_col(t, "vpp", "", CALC_D_INT, 0);
	if (moe) {
		calc_table_col(t, "ep", "", CALC_D_INT, 0);
		calc_table_col(t, "etp", "", CALC_D_INT, 0);
	}
	calc_table_col(t, "micro_batch", "", CALC_D_INT, 0);
	calc_table_col(t, "sp", "", CALC_D_TEXT, 0);
	calc_table_col(t, "recompute", "", CALC_D_TEXT, 0);
	calc_table_col(t, "zero", "", CALC_D_INT, 0);
	calc_table_col(t, "schedule", "", CALC_D_TEXT, 0);
	if (recipe)
		calc_table_col(t, "recipe", "", CALC_D_TEXT, 0);
	if (split) /* the plan keys that reproduce the placement of the layers */
		calc_table_col(t, "split", "", CALC_D_TEXT, 0);
	if (off) /* the grid's optimizer offload: training.offload_optimizer */
		calc_table_col(t, "offload_optimizer", "1", CALC_D_FIXED, 2);
}

/* Fill the configuration cells from column 'c0'; returns the next column. */
static int cfg_cells(struct calc_table *t, int r, int c0, const struct calc_search_cfg *c, int recipe, int moe,
                     const struct calc_search_result *split, int off)
{
	int k = c0;
	calc_table_num(t, r, k++, c->tp);
	calc_table_num(t, r, k++, c->pp);
	calc_table_num(t, r, k++, c->dp);
	calc_table_num(t, r, k++, c->cp);
	calc_table_num(t, r, k++, c->vpp);
	if (moe) {
		calc_table_num(t, r, k++, c->ep);
		calc_table_num(t, r, k++, c->etp);
	}
	calc_table_num(t, r, k++, c->micro_batch);
	calc_table_str(t, r, k++, c->sp ? "yes" : "no");
	calc_table_str(t, r, k++, calc_recompute_name((enum calc_recompute)c->recompute));
	calc_table_num(t, r, k++, c->zero);
	calc_table_str(t, r, k++, calc_schedule_name((enum calc_schedule)c->schedule));
	if (recipe) {
		const struct calc_recipe *rc = calc_recipe_at(c->recipe);
		calc_table_str(t, r, k++, rc ? rc->name : "?");
	}
	if (split) {
		char buf[CALC_LAYOUT_MAX + 64];
		calc_table_str(t, r, k++, calc_search_split_cell(split, c, buf, sizeof buf));
	}
	if (off)
		calc_table_num(t, r, k++, c->offload);
	return k;
}

static int many_gpus(const struct calc_search_result *r)
{
	return r->opts.ngpus > 1;
}

void calc_search_table_top(const struct calc_search_result *r, struct calc_table *t)
{
	int vr = r->opts.vary_recipe;
	const struct calc_search_result *sp = r->ntop > 0 && any_uneven(&r->top[0].r.c, r->ntop, sizeof r->top[0]) ? r : NULL;
	calc_table_init(t, "search-top", "The best configurations found by the planner");
	calc_table_col(t, "rank", "", CALC_D_INT, 0);
	if (many_gpus(r))
		calc_table_col(t, "gpus", "", CALC_D_INT, 0);
	cfg_cols(t, vr, r->moe, sp != NULL, r->opts.offload_optimizer > 0);
	calc_table_col(t, "memory", "B", CALC_D_GB, 1);
	calc_table_col(t, "step_time", "s", CALC_D_FIXED, 3);
	calc_table_col(t, "step_time_sim", "s", CALC_D_FIXED, 3);
	calc_table_col(t, "mfu", "1", CALC_D_PCT, 1);
	calc_table_col(t, "tokens_per_s", "tokens/s", CALC_D_INT, 0);
	calc_table_col(t, "run_time", "s", CALC_D_DAYS, 1);
	calc_table_col(t, "cost", "currency", CALC_D_INT, 0);
	for (int i = 0; i < r->ntop; i++) {
		const struct calc_search_top *x = &r->top[i];
		int row = calc_table_row(t), k = 0;
		calc_table_num(t, row, k++, i + 1);
		if (many_gpus(r))
			calc_table_num(t, row, k++, x->r.c.gpus);
		k = cfg_cells(t, row, k, &x->r.c, vr, r->moe, sp, r->opts.offload_optimizer > 0);
		calc_table_num(t, row, k++, x->r.memory);
		calc_table_num(t, row, k++, x->r.step_time);
		calc_table_num(t, row, k++, x->sim_ok ? x->sim_time : NAN);
		calc_table_num(t, row, k++, x->r.mfu);
		calc_table_num(t, row, k++, x->r.tokens_per_s);
		calc_table_num(t, row, k++, x->r.run_time);
		calc_table_num(t, row, k++, x->r.cost);
	}
	{
		char note[640];
		snprintf(note, sizeof note, "Ranked by %s. memory = worst pipeline stage per GPU, GB = 10^9 bytes; "
		         "step_time with the closed-form bubble of the schedule, step_time_sim with the pipeline "
		         "simulator; run_time in days for the plan's token budget.%s", calc_objective_name(r->opts.objective),
		         sp ? " split: the plan keys that place the layers (parallel.*); the closed form takes the "
		              "critical stage as a whole, so with virtual stages of different layers only step_time_sim "
		              "costs each chunk as it is (trainplan references, section 3.7)." : "");
		calc_table_note(t, note);
	}
}

/* search-breakdown: where the step time of each of the top K goes. */
void calc_search_table_breakdown(const struct calc_search_result *r, struct calc_table *t)
{
	calc_table_init(t, "search-breakdown", "Step time breakdown of the best configurations");
	calc_table_col(t, "rank", "", CALC_D_INT, 0);
	calc_table_col(t, "compute", "s", CALC_D_FIXED, 3);
	calc_table_col(t, "recompute", "s", CALC_D_FIXED, 3);
	calc_table_col(t, "tp_comm", "s", CALC_D_FIXED, 3);
	calc_table_col(t, "bubble", "s", CALC_D_FIXED, 3);
	calc_table_col(t, "dp_exposed", "s", CALC_D_FIXED, 3);
	calc_table_col(t, "optimizer", "s", CALC_D_FIXED, 3);
	calc_table_col(t, "step_time", "s", CALC_D_FIXED, 3);
	calc_table_col(t, "headroom", "B", CALC_D_GB, 1);
	calc_table_col(t, "worst_stage", "", CALC_D_INT, 0);
	static const struct calc_step none; /* a row the search did not break down: zeros */
	for (int i = 0; i < r->ntop; i++) {
		const struct calc_search_top *x = &r->top[i];
		const struct calc_step *f = x->fast ? x->fast : &none;
		int row = calc_table_row(t);
		double v[] = {i + 1, f->compute, f->recompute, f->tp_comm, f->bubble,
		              f->dp_exposed, f->optimizer, f->time, x->r.headroom, x->r.worst};
		for (int k = 0; k < 10; k++)
			calc_table_num(t, row, k, v[k]);
	}
	calc_table_note(t, r->moe ? "Closed-form step (the schedule's closed-form bubble, not the simulator): compute, recomputation, exposed TP/CP collectives "
	                            "with the expert all-to-all (tp_comm), pipeline bubble of the critical stage, exposed DP "
	                            "reduction and optimizer sum to the step time; headroom of the worst stage in GB = 10^9 bytes."
	                 : "Closed-form step (the schedule's closed-form bubble, not the simulator): compute, recomputation, exposed TP/CP collectives, "
	                   "pipeline bubble of the critical stage, exposed DP reduction and optimizer sum to the step "
	                   "time; headroom of the worst stage in GB = 10^9 bytes.");
}

void calc_search_table_axes(const struct calc_search_result *r, struct calc_table *t)
{
	int vr = r->opts.vary_recipe;
	double best = r->have_axis[CALC_AXIS_BEST] ? r->axis[CALC_AXIS_BEST].step_time : NAN;
	const struct calc_search_result *sp = any_uneven(&r->axis[0].c, CALC_AXIS_N, sizeof r->axis[0]) ? r : NULL;
	calc_table_init(t, "search-axes", "The runner-up on each axis");
	calc_table_col(t, "axis", "", CALC_D_TEXT, 0);
	if (many_gpus(r))
		calc_table_col(t, "gpus", "", CALC_D_INT, 0);
	cfg_cols(t, vr, r->moe, sp != NULL, r->opts.offload_optimizer > 0);
	calc_table_col(t, "memory", "B", CALC_D_GB, 1);
	calc_table_col(t, "step_time", "s", CALC_D_FIXED, 3);
	calc_table_col(t, "vs_best", "1", CALC_D_PCT, 1);
	calc_table_col(t, "mfu", "1", CALC_D_PCT, 1);
	for (int a = 0; a < calc_search_axis_count(); a++) {
		int row = calc_table_row(t), k = 0;
		calc_table_str(t, row, k++, calc_search_axis_name(a));
		if (!r->have_axis[a]) {
			/* a schedule outside the plan's framework (opts.sched_mask) was not searched */
			int off = a >= CALC_AXIS_SCHED0 && !sched_searched(r->opts.sched_mask, a - CALC_AXIS_SCHED0);
			if (many_gpus(r))
				k++;
			for (int c = k; c < t->ncols; c++)
				calc_table_str(t, row, c, c == k ? (off ? "not searched" : "none fits") : "");
			continue;
		}
		if (many_gpus(r))
			calc_table_num(t, row, k++, r->axis[a].c.gpus);
		k = cfg_cells(t, row, k, &r->axis[a].c, vr, r->moe, sp, r->opts.offload_optimizer > 0);
		calc_table_num(t, row, k++, r->axis[a].memory);
		calc_table_num(t, row, k++, r->axis[a].step_time);
		calc_table_num(t, row, k++, r->axis[a].step_time / best - 1);
		calc_table_num(t, row, k++, r->axis[a].mfu);
	}
	calc_table_note(t, "Each row is the best configuration (by the search objective) that has the named "
	                   "property; vs_best = its closed-form step time over the winner's, minus one.");
}

void calc_search_table_rejects(const struct calc_search_result *r, struct calc_table *t)
{
	calc_table_init(t, "search-rejects", "Configurations by outcome");
	calc_table_col(t, "outcome", "", CALC_D_TEXT, 0);
	calc_table_col(t, "configurations", "", CALC_D_INT, 0);
	calc_table_col(t, "share", "1", CALC_D_PCT, 1);
	calc_table_col(t, "rule", "", CALC_D_TEXT, 0);
	for (int i = 0; i < CALC_REJ_N; i++) {
		int row;
		long long n = i == CALC_REJ_NONE ? r->ranked : r->rejected[i];
		if (!calc_search_reject_shown(r, (enum calc_reject)i))
			continue;
		row = calc_table_row(t);
		calc_table_str(t, row, 0, calc_reject_name((enum calc_reject)i));
		calc_table_num(t, row, 1, (double)n);
		calc_table_num(t, row, 2, r->evaluated ? (double)n / r->evaluated : 0);
		if (i == CALC_REJ_MEMORY && r->have_closest) {
			char buf[400];
			const struct calc_search_cfg *c = &r->closest_miss.c;
			snprintf(buf, sizeof buf, "%s; worst stage first %lld, middle %lld, last %lld; mean overshoot "
			         "%.1f GB; closest miss: stage %d short by %.*f MB (tp %d pp %d dp %d cp %d mb %d %s "
			         "ZeRO-%d %s)", calc_reject_desc(CALC_REJ_MEMORY), r->miss_first, r->miss_middle,
			         r->miss_last, r->miss_mean / 1e9, r->closest_miss.worst,
			         /* a miss under 10 MB keeps two decimals: never "short by 0 MB" */
			         (r->opts.min_headroom - r->closest_miss.headroom) / 1e6 < 10 ? 2 : 0,
			         (r->opts.min_headroom - r->closest_miss.headroom) / 1e6,
			         c->tp, c->pp, c->dp, c->cp, c->micro_batch,
			         calc_recompute_name((enum calc_recompute)c->recompute), c->zero,
			         calc_schedule_name((enum calc_schedule)c->schedule));
			calc_table_str(t, row, 3, buf);
		} else
			calc_table_str(t, row, 3, calc_reject_desc((enum calc_reject)i));
	}
	{
		int row = calc_table_row(t);
		calc_table_str(t, row, 0, "total");
		calc_table_num(t, row, 1, (double)r->evaluated);
		calc_table_num(t, row, 2, 1);
		calc_table_str(t, row, 3, "every configuration of the grid");
	}
}

void calc_search_table_rows(const struct calc_search_result *r, struct calc_table *t)
{
	calc_table_init(t, "search-all", "Every configuration of the search");
	calc_table_col(t, "gpus", "", CALC_D_INT, 0);
	const struct calc_search_result *sp = r->nrows > 0 && any_uneven(&r->rows[0].c, r->nrows, sizeof r->rows[0]) ? r : NULL;
	cfg_cols(t, 1, r->moe, sp != NULL, r->opts.offload_optimizer > 0);
	calc_table_col(t, "outcome", "", CALC_D_TEXT, 0);
	calc_table_col(t, "worst_stage", "", CALC_D_INT, 0);
	calc_table_col(t, "memory", "B", CALC_D_GB, 2);
	calc_table_col(t, "headroom", "B", CALC_D_GB, 2);
	calc_table_col(t, "step_time", "s", CALC_D_FIXED, 4);
	calc_table_col(t, "mfu", "1", CALC_D_PCT, 2);
	calc_table_col(t, "tokens_per_s", "tokens/s", CALC_D_INT, 0);
	calc_table_col(t, "cost", "currency", CALC_D_INT, 0);
	for (long long i = 0; i < r->nrows; i++) {
		const struct calc_search_row *x = &r->rows[i];
		int row = calc_table_row(t), k = 0, timed = x->reject == CALC_REJ_NONE;
		calc_table_num(t, row, k++, x->c.gpus);
		k = cfg_cells(t, row, k, &x->c, 1, r->moe, sp, r->opts.offload_optimizer > 0);
		calc_table_str(t, row, k++, calc_reject_name((enum calc_reject)x->reject));
		calc_table_num(t, row, k++, x->worst >= 0 ? x->worst : NAN);
		calc_table_num(t, row, k++, x->worst >= 0 ? x->memory : NAN);
		calc_table_num(t, row, k++, x->worst >= 0 ? x->headroom : NAN);
		calc_table_num(t, row, k++, timed ? x->step_time : NAN);
		calc_table_num(t, row, k++, timed ? x->mfu : NAN);
		calc_table_num(t, row, k++, timed ? x->tokens_per_s : NAN);
		calc_table_num(t, row, k++, timed ? x->cost : NAN);
	}
}

void calc_search_table_pareto(const struct calc_search_result *r, struct calc_table *t)
{
	calc_table_init(t, "search-pareto", "Memory vs step time of every configuration that fits");
	calc_table_col(t, "memory", "B", CALC_D_GB, 2);
	calc_table_col(t, "step_time", "s", CALC_D_FIXED, 4);
	calc_table_col(t, "frontier", "", CALC_D_INT, 0);
	const struct calc_search_result *sp = r->nrows > 0 && any_uneven(&r->rows[0].c, r->nrows, sizeof r->rows[0]) ? r : NULL;
	cfg_cols(t, 0, r->moe, sp != NULL, r->opts.offload_optimizer > 0);
	for (long long i = 0; i < r->nrows; i++) {
		const struct calc_search_row *x = &r->rows[i];
		int row = calc_table_row(t);
		calc_table_num(t, row, 0, x->memory);
		calc_table_num(t, row, 1, x->step_time);
		calc_table_num(t, row, 2, r->frontier ? r->frontier[i] : 0);
		cfg_cells(t, row, 3, &x->c, 0, r->moe, sp, r->opts.offload_optimizer > 0);
	}
	calc_table_note(t, "memory = worst pipeline stage per GPU; frontier = 1 when no other configuration needs "
	                   "no more memory and is no slower (closed-form step time; of identical points the first).");
}

void calc_search_table_heatmap(const struct calc_search_result *r, struct calc_table *t)
{
	calc_table_init(t, "search-heatmap", "Best step time over TP x PP");
	calc_table_col(t, "tp", "", CALC_D_INT, 0);
	calc_table_col(t, "pp", "", CALC_D_INT, 0);
	calc_table_col(t, r->opts.objective == CALC_OBJ_TIME ? "step_time" : "objective",
	               r->opts.objective == CALC_OBJ_TIME ? "s" : "", CALC_D_FIXED, 3);
	calc_table_col(t, "feasible", "", CALC_D_INT, 0);
	for (int i = 0; i < r->ncells; i++) {
		int row = calc_table_row(t);
		calc_table_num(t, row, 0, r->cells[i].tp);
		calc_table_num(t, row, 1, r->cells[i].pp);
		calc_table_num(t, row, 2, r->cells[i].feasible ? r->cells[i].best : NAN);
		calc_table_num(t, row, 3, r->cells[i].feasible);
	}
	calc_table_note(t, "Best closed-form step time of every (tp, pp) over the other axes (cp, micro-batch, "
	                   "schedule, recomputation, SP, ZeRO); NaN where nothing fits.");
}
