/*
 * catalog_step.c -- the catalog entries of the step engine (step.c): step time and its
 * parts, MFU/HFU, throughput, run time and cost, the step tables and the step-breakdown,
 * step-timeline and interconnect-sweep datasets.
 *
 * FLOPs, op times and the step time are step.c's (Korthikanti et al. 2022 App. A,
 * Narayanan et al. 2021 Eq. 3-4, PaLM §4); the plan's step is computed once per context
 * (calc_ctx_step).
 */
#include "bounds.h"
#include "diag.h"
#include "model.h"
#include "plan.h"
#include "variant.h"
#include "table.h"
#include "catalog.h"
#include "step.h"
#include "pipeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ catalog */

struct step_cache {
	int failed;
	struct calc_step st;
};

const struct calc_step *calc_ctx_step(struct calc_ctx *c, struct calc_diag *d)
{
	struct step_cache *sc = c->slot[CALC_SLOT_STEP];
	if (!sc) {
		sc = xcalloc(1, sizeof *sc);
		sc->failed = calc_step(&c->plan, &sc->st, d) < 0;
		c->slot[CALC_SLOT_STEP] = sc;
		c->slot_free[CALC_SLOT_STEP] = free;
		if (sc->failed)
			return NULL;
	} else if (sc->failed) {
		calc_error(d, c->plan.file, 0, "the step time of this plan could not be computed");
		return NULL;
	}
	return &sc->st;
}

#define Q(fn, expr)                                                                    \
	static int fn(struct calc_ctx *c, struct calc_value *o, struct calc_diag *d)    \
	{                                                                              \
		const struct calc_step *st = calc_ctx_step(c, d);                          \
		if (!st)                                                                   \
			return -1;                                                         \
		o->num = (expr);                                                           \
		return 0;                                                                  \
	}
Q(q_time, st->time)
Q(q_makespan, st->makespan)
Q(q_compute, st->compute)
Q(q_recompute, st->recompute)
Q(q_tp_comm, st->tp_comm)
Q(q_tp_overlap_cost, st->tp_overlap_cost)
Q(q_host_sync, st->host_sync)
Q(q_bubble, st->bubble)
Q(q_bubble_frac, st->bubble / st->time)
Q(q_dp_exposed, st->dp_exposed)
Q(q_optimizer, st->optimizer)
Q(q_mfu, st->mfu)
Q(q_mfu_fp8, st->mfu_fp8)
Q(q_hfu, st->hfu)
Q(q_model_tflops, st->model_tflops)
Q(q_hw_tflops, st->hw_tflops)
Q(q_tokens_per_s, st->tokens_per_s)
Q(q_model_flops, st->flops.model)
Q(q_hw_flops, st->flops.hardware)
Q(q_flops_token, st->flops.per_token)
Q(q_peak, st->peak)
Q(q_layer_f, st->layer.f)
Q(q_layer_tpf, st->layer.comm_f)
Q(q_critical, st->critical)
Q(q_layer_b, st->layer.b + st->layer.w)
Q(q_steps, st->steps)
Q(q_run_time, st->run_time)
Q(q_days, st->run_time / 86400)
Q(q_gpu_hours, st->gpu_hours)
Q(q_cost, st->cost)
Q(q_pp_exposed, st->exposed[CALC_DIM_PP])
/* The run normalised per GPU, per token and per GPU-hour, for comparing plans of other
 * sizes, models and prices: tokens/s over the GPUs; tokens a GPU-hour trains (3600 s
 * of the per-GPU rate); GPU-hours over the token budget, per 10^9 tokens (failure-free,
 * as run.gpu_hours; the cost per 10^6 tokens is run.cost_per_mtokens, catalog_run.c). */
Q(q_tok_gpu, st->tokens_per_s / calc_plan_gpus(&c->plan))
Q(q_tok_gpuh, 3600 * st->tokens_per_s / calc_plan_gpus(&c->plan))
Q(q_gpuh_btok, c->plan.tokens > 0 ? 1e9 * st->gpu_hours / c->plan.tokens : NAN)

/*
 * The MoE parts of one MoE layer (step.c layer_compute, docs/references.md §5.12) per
 * step on the critical GPU: its stage's MoE layers (with the multi-token prediction
 * blocks of the stage that holds the LM head) times the micro-batches times forward +
 * backward, 3x the forward (the backward of a part is twice it).  *k: the MoE kind, or
 * -1 for a dense model (then 0 layers).
 */
static double moe_layers_step(const struct calc_plan *p, const struct calc_step *st, int *k)
{
	struct calc_stage_layers sl;
	int nk = calc_model_nkinds(&p->model), m = calc_plan_microbatches(p), n = 0;

	*k = -1;
	for (int j = 0; j < nk; j++) {
		struct calc_layer_kind kd;
		calc_model_kind(&p->model, j, &kd);
		if (kd.type == CALC_LAYER_MOE || kd.type == CALC_LAYER_EXPERTS)
			*k = j;
	}
	if (*k < 0)
		return 0;
	{
		/* under DualPipe the critical rank r runs stages r and p-1-r for half the
		 * micro-batches each (step.c calc_step_pipeline): the pair's mean */
		const struct calc_sched *row = calc_schedule_at((int)p->schedule);
		int pp = p->pp > 0 ? p->pp : 1, dual = row && row->two_way && pp > 1;
		double sum = 0;
		for (int i = 0; i < 1 + dual; i++) {
			calc_stage_layers(p, i ? pp - 1 - st->critical : st->critical, &sl);
			n = sl.count[*k];
			if (sl.head && p->model.mtp_depth > 0 && calc_model_mtp_kind(&p->model) == *k)
				n += p->model.mtp_depth;
			sum += n;
		}
		return sum / (1 + dual) * (m > 0 ? m : 1);
	}
}

#define QMOE(fn, field)                                                                  \
	static int fn(struct calc_ctx *c, struct calc_value *o, struct calc_diag *d)      \
	{                                                                                \
		const struct calc_step *st = calc_ctx_step(c, d);                            \
		int k;                                                                       \
		double n;                                                                    \
		if (!st)                                                                     \
			return -1;                                                           \
		n = moe_layers_step(&c->plan, st, &k);                                       \
		o->num = k < 0 ? 0 : 3 * n * st->kind_layer[k].field;                        \
		return 0;                                                                    \
	}
QMOE(q_moe_router, moe_router)
QMOE(q_moe_permute, moe_permute)
QMOE(q_moe_experts, moe_experts)
QMOE(q_moe_skew, moe_skew)

const struct calc_quantity calc_q_step[] = {
	{"step.time", "s", "time of one optimizer step", q_time},
	{"step.makespan", "s", "pipeline part of the step (compute, recompute, TP/CP comm, bubble)", q_makespan},
	{"step.compute", "s", "forward + backward compute of the critical stage per step", q_compute},
	{"step.recompute", "s", "activation recomputation per step", q_recompute},
	{"step.tp_comm", "s", "exposed TP + CP collectives per step, with the expert all-to-all of an MoE model (comm.ep.exposed)", q_tp_comm},
	{"step.tp_overlap_cost", "s", "of step.tp_comm, the GEMM time the hidden TP + CP collectives cost in the SMs they take", q_tp_overlap_cost},
	{"step.moe_host", "s", "of step.compute, the MoE layers' host time after their token-count synchronisation that no GPU work hides (moe.host_time, docs/references.md §5.16)", q_host_sync},
	{"step.bubble_time", "s", "pipeline idle time of the critical stage per step", q_bubble},
	{"step.bubble_fraction", "1", "pipeline idle share of the step", q_bubble_frac},
	{"step.dp_exposed", "s", "gradient reduction not hidden behind the backward", q_dp_exposed},
	{"step.pp_exposed", "s", "pipeline sends on the fill and drain path", q_pp_exposed},
	{"step.optimizer", "s", "optimizer step", q_optimizer},
	{"step.mfu", "1", "model FLOPs utilisation (PaLM §4), against the dense BF16 peak", q_mfu},
	{"step.mfu_fp8", "1", "FP8 recipes: model FLOPs utilisation against the dense FP8 peak (FP4 for nvfp4; else 0)", q_mfu_fp8},
	{"step.hfu", "1", "hardware FLOPs utilisation (incl. recomputation), against the dense BF16 peak", q_hfu},
	{"step.model_tflops_per_gpu", "FLOP/s", "model FLOPs per second per GPU", q_model_tflops},
	{"step.hardware_tflops_per_gpu", "FLOP/s", "hardware FLOPs per second per GPU", q_hw_tflops},
	{"step.tokens_per_s", "tokens/s", "tokens per second of the whole job", q_tokens_per_s},
	{"step.model_flops", "FLOP", "model FLOPs per step, all GPUs (Korthikanti 2022 Eq. 7)", q_model_flops},
	{"step.hardware_flops", "FLOP", "hardware FLOPs per step, all GPUs (Eq. 8 / Narayanan Eq. 3)", q_hw_flops},
	{"step.flops_per_token", "FLOP", "model FLOPs per token", q_flops_token},
	{"step.peak_flops", "FLOP/s", "dense BF16 tensor peak of one GPU the MFU is measured against", q_peak},
	{"step.layer_forward", "s", "forward of one layer for one micro-batch (compute only)", q_layer_f},
	{"step.critical_stage", "1", "the pipeline stage whose busy time sets the step's breakdown (0-based)", q_critical},
	{"step.layer_tp_forward", "s", "exposed TP/CP collectives of one layer's forward for one micro-batch "
	                               "(as the step-layers dataset draws them)", q_layer_tpf},
	{"step.layer_backward", "s", "backward of one layer for one micro-batch (B + W, compute only)", q_layer_b},
	{"step.moe.router", "s", "MoE router per step on the critical GPU: gating GEMM, score function, top-k, aux loss "
	                         "(forward + backward; 0 for a dense model)", q_moe_router},
	{"step.moe.permute", "s", "MoE token sort and permutation into expert order and back, per step on the critical GPU",
	 q_moe_permute},
	{"step.moe.experts", "s", "MoE grouped expert GEMMs and activation at the balanced load, per step on the critical GPU",
	 q_moe_experts},
	{"step.moe.skew", "s", "what the busiest expert GPU adds over the balanced load (padding to model.capacity_factor "
	                       "or model.moe_imbalance), per step on the critical GPU", q_moe_skew},
	{"run.steps", "1", "optimizer steps for the token budget", q_steps},
	{"run.time", "s", "wall-clock time of the run", q_run_time},
	{"run.days", "days", "wall-clock time of the run in days", q_days},
	{"run.gpu_hours", "GPU-h", "GPU-hours of the run", q_gpu_hours},
	{"run.cost", "currency", "cost of the run at cluster.gpu_hour_cost", q_cost},
	{"step.tokens_per_s_per_gpu", "tokens/s", "tokens per second per GPU (step.tokens_per_s over the GPUs)", q_tok_gpu},
	{"run.tokens_per_gpu_hour", "tokens", "tokens one GPU-hour trains", q_tok_gpuh},
	{"run.gpu_hours_per_btokens", "GPU-h", "GPU-hours per 10^9 tokens of the budget (run.gpu_hours / plan.tokens)",
	 q_gpuh_btok},
	{0},
};

/* The `trainplan step` breakdown. */
static int t_step(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                  struct calc_diag *d)
{
	const struct calc_step *st = calc_ctx_step(c, d);
	static const char *const names[] = {"compute (forward + backward)", "recomputation",
	                                    "TP/CP communication (exposed)", "pipeline bubble",
	                                    "DP communication (exposed)", "optimizer step",
	                                    "host overhead (efficiency.step_overhead)", "step"};
	double v[8];
	int cn, ct, cs;

	if (!st)
		return -1;
	v[0] = st->compute;
	v[1] = st->recompute;
	v[2] = st->tp_comm;
	v[3] = st->bubble;
	v[4] = st->dp_exposed;
	v[5] = st->optimizer;
	v[6] = st->overhead;
	v[7] = st->time;
	calc_table_init(t, "step", "Step time breakdown of one GPU of the critical pipeline stage");
	cn = calc_table_col(t, "component", "", CALC_D_TEXT, 0);
	ct = calc_table_col(t, "time", "s", CALC_D_MS, 1);
	cs = calc_table_col(t, "share", "1", CALC_D_PCT, 1);
	for (int i = 0; i < 8; i++) {
		int r;
		if (i == 6 && !(st->overhead > 0))
			continue; /* the row only where the plan sets one */
		r = calc_table_row(t);
		calc_table_str(t, r, cn, names[i]);
		calc_table_num(t, r, ct, v[i]);
		calc_table_num(t, r, cs, v[i] / st->time);
	}
	calc_table_note(t, "Op times are rooflines (GEMMs and attention core at efficiency.gemm / "
	                   "efficiency.attention of the dense peak, GEMMs less tile and wave quantization, "
	                   "memory-bound ops at HBM bandwidth); the bubble comes from the pipeline simulator.");
	return 0;
}

/* Throughput and run totals. */
static int t_step_summary(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                          struct calc_diag *d)
{
	const struct calc_step *st = calc_ctx_step(c, d);
	int cq, cv, cu;
	struct {
		const char *name, *unit;
		double v;
	} rows[12];
	int n = 0;

	if (!st)
		return -1;
#define ROW(nm, u, x) (rows[n].name = nm, rows[n].unit = u, rows[n].v = (x), n++)
	ROW("step.time", "s", st->time);
	ROW("step.mfu", "%", 100 * st->mfu);
	ROW("step.hfu", "%", 100 * st->hfu);
	if (st->mfu_fp8 > 0)
		ROW("step.mfu_fp8", "%", 100 * st->mfu_fp8);
	ROW("step.model_tflops_per_gpu", "TFLOP/s", st->model_tflops / 1e12);
	ROW("step.hardware_tflops_per_gpu", "TFLOP/s", st->hw_tflops / 1e12);
	ROW("step.peak_flops", "TFLOP/s", st->peak / 1e12);
	ROW("step.tokens_per_s", "tokens/s", st->tokens_per_s);
	ROW("run.steps", "steps", st->steps);
	ROW("run.days", "days", st->run_time / 86400);
	ROW("run.gpu_hours", "GPU-hours", st->gpu_hours);
	ROW("run.cost", "currency", st->cost);
#undef ROW
	calc_table_init(t, "step-summary", "Throughput, utilisation and run totals");
	cq = calc_table_col(t, "quantity", "", CALC_D_TEXT, 0);
	cv = calc_table_col(t, "value", "", CALC_D_NUM, 4);
	cu = calc_table_col(t, "unit", "", CALC_D_TEXT, 0);
	for (int i = 0; i < n; i++) {
		int r = calc_table_row(t);
		calc_table_str(t, r, cq, rows[i].name);
		calc_table_num(t, r, cv, rows[i].v);
		calc_table_str(t, r, cu, rows[i].unit);
	}
	{
		char note[512];
		snprintf(note, sizeof note, "%s HFU counts recomputation %s.",
		         st->mfu_fp8 > 0 ? "MFU and HFU as PaLM §4 and Korthikanti 2022 §6.3 define them, against the dense "
		                           "(no-sparsity) BF16 peak (docs/references.md §6); step.mfu_fp8 measures the same "
		                           "model FLOPs against the dense FP8 (nvfp4: FP4) peak the layer GEMMs run at."
		                         : "MFU and HFU as PaLM §4 and Korthikanti 2022 §6.3 define them, against the "
		                           "dense (no-sparsity) BF16 tensor peak (docs/references.md §6).",
		         c->plan.hfu_count == CALC_HFU_KOR22
		             ? "by Korthikanti 2022 Eq. 8 / Narayanan 2021 Eq. 3 (efficiency.hfu_count = kor22-eq8)"
		             : "as executed (efficiency.hfu_count = executed)");
		calc_table_note(t, note);
	}
	return 0;
}

/* step-moe: the parts of one MoE layer, per micro-batch and per step. */
static int t_step_moe(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_step *st = calc_ctx_step(c, d);
	const struct calc_layer_time *lt;
	int k, cn, cf, ct, cs;
	double n;

	if (!st)
		return -1;
	n = moe_layers_step(&c->plan, st, &k);
	calc_table_init(t, "step-moe", "Parts of one MoE layer on one GPU of the critical pipeline stage");
	cn = calc_table_col(t, "part", "", CALC_D_TEXT, 0);
	cf = calc_table_col(t, "forward", "s", CALC_D_MS, 3);
	ct = calc_table_col(t, "forward + backward", "s", CALC_D_MS, 3);
	cs = calc_table_col(t, "per step", "s", CALC_D_MS, 1);
	if (k < 0) {
		calc_table_note(t, "The model has no MoE layers.");
		return 0;
	}
	lt = &st->kind_layer[k];
	{
		const struct calc_moe *x = &c->plan.model.moe;
		const char *skew = x->capacity > 0 ? "skew: padding to the capacity factor"
		                                   : "skew: load imbalance of the busiest expert GPU";
		const char *names[] = {"router (gating GEMM, scores, top-k, aux loss)",
		                       "permutation (sort, permute, unpermute)", "experts at the balanced load", skew,
		                       "dispatch + combine (exposed)"};
		double f[5] = {lt->moe_router, lt->moe_permute, lt->moe_experts, lt->moe_skew, lt->ep_f};
		double fb[5] = {3 * f[0], 3 * f[1], 3 * f[2], 3 * f[3], lt->ep_f + lt->ep_b};
		for (int i = 0; i < 5; i++) {
			int r = calc_table_row(t);
			calc_table_str(t, r, cn, names[i]);
			calc_table_num(t, r, cf, f[i]);
			calc_table_num(t, r, ct, fb[i]);
			calc_table_num(t, r, cs, n * fb[i]);
		}
	}
	calc_table_note(t, "One MoE layer for one micro-batch (trainplan references, section 5.12); the backward of a compute part "
	                   "is twice its forward, and per step counts the critical stage's MoE layers (with the "
	                   "multi-token prediction blocks where it holds the LM head) times the micro-batches.  The "
	                   "parts are inside the step table's compute; the exposed dispatch and combine inside its "
	                   "TP/CP communication.");
	return 0;
}

const struct calc_tabledef calc_t_step[] = {
	{"step-moe", "parts of one MoE layer: router, permutation, experts, skew, dispatch and combine", "", t_step_moe},
	{"step", "step time breakdown: compute, recompute, TP comm, bubble, DP comm, optimizer", "", t_step},
	{"step-summary", "MFU, HFU, TFLOP/s per GPU, tokens/s, run days, GPU-hours and cost", "", t_step_summary},
	{0},
};

/* A copy of 'base' with another (tp, pp), DP filling the GPUs, stages split by the
 * plan's rule (parallel.split), built by calc_plan_variant.  Returns 0 when the variant
 * is a valid plan. */
static int variant(const struct calc_plan *base, int tp, int pp, struct calc_plan *v)
{
	struct calc_diag d = {0};
	struct calc_layout l;
	int gpus = calc_plan_gpus(base), cp = base->cp > 0 ? base->cp : 1, rc;

	if (tp < 1 || pp < 1 || (long)tp * pp * cp > gpus || gpus % (tp * pp * cp) || pp > CALC_MAX_STAGES)
		return -1;
	calc_layout_keep(&l);
	l.tp = tp;
	l.pp = pp;
	l.dp = gpus / (tp * pp * cp);
	rc = calc_plan_variant(base, &l, NULL, 0, NULL, CALC_VARIANT_VALIDATE, v, &d);
	calc_diag_free(&d);
	return rc;
}

/* step-breakdown: stacked components for a few splits around the plan's. */
static int d_step_breakdown(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                            struct calc_diag *d)
{
	const struct calc_plan *p = &c->plan;
	int cand[][2] = {{p->tp, p->pp},     {p->tp / 2, p->pp * 2}, {p->tp * 2, p->pp / 2},
	                 {p->tp, p->pp * 2}, {p->tp, p->pp / 2},     {p->tp / 2, p->pp},
	                 {p->tp * 2, p->pp}};
	struct calc_plan *v = xmalloc(sizeof *v);
	struct calc_step *st = xmalloc(sizeof *st);
	int cl, ctp, cpp, cdp, cc, cr, ctc, cb, cdx, co, ctm, cm;

	calc_table_init(t, "step-breakdown", "Step time components for candidate splits of the same GPUs");
	cl = calc_table_col(t, "split", "", CALC_D_TEXT, 0);
	ctp = calc_table_col(t, "tp", "1", CALC_D_INT, 0);
	cpp = calc_table_col(t, "pp", "1", CALC_D_INT, 0);
	cdp = calc_table_col(t, "dp", "1", CALC_D_INT, 0);
	cc = calc_table_col(t, "compute", "s", CALC_D_S, 3);
	cr = calc_table_col(t, "recompute", "s", CALC_D_S, 3);
	ctc = calc_table_col(t, "tp_comm", "s", CALC_D_S, 3);
	cb = calc_table_col(t, "bubble", "s", CALC_D_S, 3);
	cdx = calc_table_col(t, "dp_exposed", "s", CALC_D_S, 3);
	co = calc_table_col(t, "optimizer", "s", CALC_D_S, 3);
	ctm = calc_table_col(t, "time", "s", CALC_D_S, 3);
	cm = calc_table_col(t, "mfu", "1", CALC_D_PCT, 1);
	for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
		char label[48];
		int r, dup = 0;
		for (size_t j = 0; j < i; j++)
			dup |= cand[j][0] == cand[i][0] && cand[j][1] == cand[i][1];
		if (dup || variant(p, cand[i][0], cand[i][1], v) < 0)
			continue;
		if (calc_step(v, st, d) < 0) {
			free(v);
			free(st);
			return -1;
		}
		snprintf(label, sizeof label, "TP%d PP%d DP%d", v->tp, v->pp, v->dp);
		r = calc_table_row(t);
		calc_table_str(t, r, cl, label);
		calc_table_num(t, r, ctp, v->tp);
		calc_table_num(t, r, cpp, v->pp);
		calc_table_num(t, r, cdp, v->dp);
		calc_table_num(t, r, cc, st->compute);
		calc_table_num(t, r, cr, st->recompute);
		calc_table_num(t, r, ctc, st->tp_comm);
		calc_table_num(t, r, cb, st->bubble);
		calc_table_num(t, r, cdx, st->dp_exposed);
		calc_table_num(t, r, co, st->optimizer);
		calc_table_num(t, r, ctm, st->time);
		calc_table_num(t, r, cm, st->mfu);
	}
	free(v);
	free(st);
	calc_table_note(t, "The plan's split first, then TP and PP halved and doubled with DP filling "
	                   "the same GPUs; splits the plan's model or batch does not allow are left out.");
	return 0;
}

/* interconnect-sweep: step time against the network bandwidth per GPU for TP across
 * nodes (TP = 2 x gpus_per_node) and PP across nodes (TP = gpus_per_node). */
static int d_interconnect(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                          struct calc_diag *d)
{
	static const double gbps[] = {12.5, 25, 50, 100, 200, 400};
	const struct calc_plan *p = &c->plan;
	int G = p->gpus_per_node, model = p->tp * p->pp;
	struct calc_plan *va = xmalloc(sizeof *va), *vb = xmalloc(sizeof *vb);
	struct calc_step *st = xmalloc(sizeof *st);
	int oka, okb, cg, cbw, cta, ctb, cma, cmb, rc = 0;

	oka = model % (2 * G) == 0 && variant(p, 2 * G, model / (2 * G), va) == 0;
	okb = model % G == 0 && variant(p, G, model / G, vb) == 0;
	calc_table_init(t, "interconnect-sweep", "Step time against inter-node bandwidth per GPU");
	cg = calc_table_col(t, "inter_gbps", "Gb/s", CALC_D_NUM, 4);
	cbw = calc_table_col(t, "inter_node_bw", "B/s", CALC_D_GBPS, 2);
	cta = calc_table_col(t, "time_tp_across", "s", CALC_D_S, 3);
	ctb = calc_table_col(t, "time_pp_across", "s", CALC_D_S, 3);
	cma = calc_table_col(t, "mfu_tp_across", "1", CALC_D_PCT, 1);
	cmb = calc_table_col(t, "mfu_pp_across", "1", CALC_D_PCT, 1);
	for (size_t i = 0; i < sizeof gbps / sizeof gbps[0]; i++) {
		int r = calc_table_row(t);
		double bw = gbps[i] * 1e9 / 8;
		calc_table_num(t, r, cg, gbps[i]);
		calc_table_num(t, r, cbw, bw);
		calc_table_num(t, r, cta, NAN);
		calc_table_num(t, r, ctb, NAN);
		calc_table_num(t, r, cma, NAN);
		calc_table_num(t, r, cmb, NAN);
		if (oka) {
			va->inter_node_bw = bw;
			if ((rc = calc_step(va, st, d)) < 0)
				break;
			calc_table_num(t, r, cta, st->time);
			calc_table_num(t, r, cma, st->mfu);
		}
		if (okb) {
			vb->inter_node_bw = bw;
			if ((rc = calc_step(vb, st, d)) < 0)
				break;
			calc_table_num(t, r, ctb, st->time);
			calc_table_num(t, r, cmb, st->mfu);
		}
	}
	if (rc == 0) {
		char note[256];
		snprintf(note, sizeof note,
		         "TP across nodes: TP%d PP%d; PP across nodes: TP%d PP%d; DP fills the GPUs. "
		         "NaN where the model does not allow the split.",
		         2 * G, model / (2 * G), G, model / G);
		calc_table_note(t, note);
	}
	free(va);
	free(vb);
	free(st);
	return rc;
}

/* step-timeline: one step of the critical GPU as segments on its streams, from the step
 * engine's breakdown (step.c).  The compute stream holds the six parts of the step in
 * order -- the pipeline bubble (idle, with the exposed sends of the fill and drain path),
 * forward compute, the cost of the forward's hidden TP/CP collectives ("overlap cost":
 * the GEMMs slowed by the SMs the collectives take, step.tp_overlap_cost,
 * docs/references.md §4.8), the wait for its exposed TP/CP collectives, recomputation,
 * backward compute, the backward's overlap cost and wait, the exposed DP reduction, the
 * optimizer -- so that its segments add up to step.time.  The forward/backward split of
 * step.compute and of step.tp_comm follows one layer of the first kind
 * (calc_layer_time: f against b + w, comm_f against comm_b).  The communication streams:
 * TP/CP collectives (with the expert all-to-all of a MoE model, stream_name TP/CP/EP),
 * their exposed parts under the compute stream's waits and the hidden rest under the
 * forward and the backward compute with its overlap cost (efficiency.tp_overlap; drawn at
 * most as long as that compute); PP sends, the exposed ones in the bubble and the rest under
 * the compute; the DP gradient reduction, its hidden part ending with the pipeline part
 * (behind the last backward, Megatron overlap_grad_reduce; step.c) and its exposed part
 * after it.  Segments are totals per step, not single operations. */
enum { TL_COMPUTE, TL_TP, TL_PP, TL_DP };

static void tl_seg(struct calc_table *t, const int *col, int stream, const char *seg, double a, double b,
                   int exposed, int ep)
{
	static const char *const streams[] = {"compute", "TP/CP", "PP", "DP"};
	int r;
	if (!(b > a))
		return;
	r = calc_table_row(t);
	calc_table_num(t, r, col[0], stream);
	/* the TP/CP stream also carries the expert all-to-all of a MoE model (step.tp_comm) */
	calc_table_str(t, r, col[1], stream == TL_TP && ep ? "TP/CP/EP" : streams[stream]);
	calc_table_str(t, r, col[2], seg);
	calc_table_num(t, r, col[3], a);
	calc_table_num(t, r, col[4], b);
	calc_table_num(t, r, col[5], b - a);
	calc_table_num(t, r, col[6], exposed);
}

static int d_step_timeline(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                           struct calc_diag *d)
{
	const struct calc_step *st = calc_ctx_step(c, d);
	const struct calc_layer_time *ly;
	double fwd_share, tpf_share, x, f0, f1, b0, b1, tpf0, tpb0, hid, pp_exp, pp_hid, dp_hid, cost, wait;
	int col[7], ep;

	if (!st)
		return -1;
	ep = st->comm.ep.time > 0;
	ly = &st->layer;
	fwd_share = ly->f + ly->b + ly->w > 0 ? ly->f / (ly->f + ly->b + ly->w) : 0.5;
	tpf_share = ly->comm_f + ly->comm_b > 0 ? ly->comm_f / (ly->comm_f + ly->comm_b) : 0.5;
	calc_table_init(t, "step-timeline", "one step of the critical GPU: compute and communication streams");
	col[0] = calc_table_col(t, "stream", "1", CALC_D_INT, 0);
	col[1] = calc_table_col(t, "stream_name", "", CALC_D_TEXT, 0);
	col[2] = calc_table_col(t, "segment", "", CALC_D_TEXT, 0);
	col[3] = calc_table_col(t, "start", "s", CALC_D_S, 4);
	col[4] = calc_table_col(t, "end", "s", CALC_D_S, 4);
	col[5] = calc_table_col(t, "duration", "s", CALC_D_S, 4);
	col[6] = calc_table_col(t, "exposed", "1", CALC_D_INT, 0);

	/* the compute stream: the six parts of step.c's breakdown, end to end; step.tp_comm
	 * as the overlap cost of the hidden TP/CP collectives and the wait for the rest */
	cost = st->tp_overlap_cost;
	wait = st->tp_comm - cost;
	x = 0;
	tl_seg(t, col, TL_COMPUTE, "bubble", x, x + st->bubble, 1, ep);
	x += st->bubble;
	f0 = x;
	tl_seg(t, col, TL_COMPUTE, "forward", x, x + st->compute * fwd_share, 1, ep);
	x += st->compute * fwd_share;
	tl_seg(t, col, TL_COMPUTE, "overlap cost", x, x + cost * tpf_share, 1, ep);
	x += cost * tpf_share;
	f1 = x;
	tpf0 = x;
	tl_seg(t, col, TL_COMPUTE, "TP/CP wait", x, x + wait * tpf_share, 1, ep);
	x += wait * tpf_share;
	tl_seg(t, col, TL_COMPUTE, "recompute", x, x + st->recompute, 1, ep);
	x += st->recompute;
	b0 = x;
	tl_seg(t, col, TL_COMPUTE, "backward", x, x + st->compute * (1 - fwd_share), 1, ep);
	x += st->compute * (1 - fwd_share);
	tl_seg(t, col, TL_COMPUTE, "overlap cost", x, x + cost * (1 - tpf_share), 1, ep);
	x += cost * (1 - tpf_share);
	b1 = x;
	tpb0 = x;
	tl_seg(t, col, TL_COMPUTE, "TP/CP wait", x, x + wait * (1 - tpf_share), 1, ep);
	x += wait * (1 - tpf_share);
	tl_seg(t, col, TL_COMPUTE, "DP wait", x, x + st->dp_exposed, 1, ep);
	x += st->dp_exposed;
	tl_seg(t, col, TL_COMPUTE, "optimizer", x, x + st->optimizer, 1, ep);

	/* TP/CP (and the expert all-to-all): exposed under the waits, the rest hidden
	 * under the forward and the backward (with their overlap cost) in proportion */
	tl_seg(t, col, TL_TP, "exposed", tpf0, tpf0 + wait * tpf_share, 1, ep);
	tl_seg(t, col, TL_TP, "exposed", tpb0, tpb0 + wait * (1 - tpf_share), 1, ep);
	hid = st->comm.dim[CALC_DIM_TP].time + st->comm.dim[CALC_DIM_CP].time + st->comm.ep.time - wait;
	if (hid > 0) {
		double hf = hid * tpf_share < f1 - f0 ? hid * tpf_share : f1 - f0;
		double hb = hid - hf < b1 - b0 ? hid - hf : b1 - b0;
		tl_seg(t, col, TL_TP, "hidden", f0, f0 + hf, 0, ep);
		tl_seg(t, col, TL_TP, "hidden", b0, b0 + hb, 0, ep);
	}

	/* PP: the sends of the fill and drain path inside the bubble, the rest under compute */
	pp_exp = st->exposed[CALC_DIM_PP] < st->bubble ? st->exposed[CALC_DIM_PP] : st->bubble;
	tl_seg(t, col, TL_PP, "exposed", 0, pp_exp, 1, ep);
	pp_hid = st->comm.dim[CALC_DIM_PP].time - st->exposed[CALC_DIM_PP];
	if (pp_hid > b1 - f0)
		pp_hid = b1 - f0;
	tl_seg(t, col, TL_PP, "hidden", f0, f0 + pp_hid, 0, ep);

	/* DP: the hidden part ends with the pipeline part, the exposed part follows it */
	dp_hid = st->comm.dim[CALC_DIM_DP].time - st->dp_exposed;
	if (dp_hid > st->makespan)
		dp_hid = st->makespan;
	tl_seg(t, col, TL_DP, "hidden", st->makespan - dp_hid, st->makespan, 0, ep);
	tl_seg(t, col, TL_DP, "exposed", st->makespan, st->makespan + st->dp_exposed, 1, ep);
	calc_table_note(t, "Totals per step on the critical stage, not single operations: the compute stream's "
	                   "segments are step.c's breakdown (bubble, compute split into forward and backward as "
	                   "one layer's, exposed TP/CP, recomputation, exposed DP, optimizer) and add up to the "
	                   "step time; the TP/CP part is the wait for the exposed collectives and the overlap "
	                   "cost of the hidden ones (the GEMMs slowed by the SMs they take); exposed: on the "
	                   "critical path.");
	return 0;
}

/* step-layers: the forward of the first micro-batch on the critical stage (step.critical),
 * layer by layer, so that the TP/CP collectives are drawn inside the layers where
 * step-timeline draws them as totals per step: each layer's forward compute
 * (calc_layer_time f) and then the exposed part of its forward collectives (comm_f: with
 * tensor parallelism two all-reduces, or with sequence parallelism two all-gathers and
 * two reduce-scatters, Korthikanti et al. 2022 §4.2.2; drawn together after the layer's
 * compute, since the layer time does not split the compute between them).  The stage's
 * layers, at most 16, end to end (under interleaving a micro-batch passes them chunk by
 * chunk, other work between), by kind in the stage's counts (a stage of several kinds:
 * each kind's layers together). */
static int d_step_layers(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_step *st = calc_ctx_step(c, d);
	struct calc_stage_layers sl;
	int col[7], n, layer = 0;
	double x = 0;
	if (!st)
		return -1;
	calc_stage_layers(&c->plan, st->critical, &sl);
	{
		int any = 0;
		for (int k = 0; k < CALC_MAX_KINDS; k++)
			any += sl.count[k];
		if (!any)
			sl.count[0] = sl.layers;
	}
	n = sl.layers;
	if (n > 16)
		n = 16;
	calc_table_init(t, "step-layers", "the first micro-batch's forward on the critical stage, layer by layer");
	col[0] = calc_table_col(t, "layer", "1", CALC_D_INT, 0);
	col[1] = calc_table_col(t, "kind", "1", CALC_D_INT, 0);
	col[2] = calc_table_col(t, "segment", "", CALC_D_TEXT, 0);
	col[3] = calc_table_col(t, "start", "s", CALC_D_S, 6);
	col[4] = calc_table_col(t, "end", "s", CALC_D_S, 6);
	col[5] = calc_table_col(t, "duration", "s", CALC_D_S, 6);
	col[6] = calc_table_col(t, "stage", "1", CALC_D_INT, 0);
	for (int k = 0; k < CALC_MAX_KINDS && layer < n; k++) {
		int cnt = sl.count[k];
		const struct calc_layer_time *ly = &st->kind_layer[k];
		for (int i = 0; i < cnt && layer < n; i++) {
			const char *seg[2] = {"compute", "TP/CP"};
			double dur[2] = {ly->f, ly->comm_f};
			layer++;
			for (int j = 0; j < 2; j++) {
				int r;
				if (!(dur[j] > 0))
					continue;
				r = calc_table_row(t);
				calc_table_num(t, r, col[0], layer);
				calc_table_num(t, r, col[1], k);
				calc_table_str(t, r, col[2], seg[j]);
				calc_table_num(t, r, col[3], x);
				calc_table_num(t, r, col[4], x + dur[j]);
				calc_table_num(t, r, col[5], dur[j]);
				calc_table_num(t, r, col[6], st->critical);
				x += dur[j];
			}
		}
	}
	calc_table_note(t, "One micro-batch's forward on the critical stage, layer by layer: each layer's forward "
	                   "compute, then the exposed part of its forward TP/CP collectives (drawn together after "
	                   "the compute); the stage's layers end to end, at most 16.");
	return 0;
}

const struct calc_tabledef calc_d_step[] = {
	{"step-breakdown", "stacked step-time components for a few candidate splits", "", d_step_breakdown},
	{"step-timeline", "one step of the critical GPU: compute, TP/CP, PP and DP streams, exposed and hidden",
	 "", d_step_timeline},
	{"step-layers", "the first micro-batch's forward on the critical stage, layer by layer: compute and the "
	                "exposed TP/CP collectives inside each layer", "", d_step_layers},
	{"interconnect-sweep", "step time vs inter-node bandwidth 12.5-400 Gb/s per GPU, TP vs PP across nodes",
	 "", d_interconnect},
	{0},
};
