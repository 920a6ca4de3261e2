/*
 * catalog_comm.c -- the catalog entries of the communication engine (comm.c): bytes,
 * times and network tiers per parallel dimension, the `comm` table and the comm-vs-tp
 * and tp-pp-diagram datasets.
 *
 * Collective sizes and times are comm.c's (NCCL bus-byte accounting,
 * docs/references.md §4.5; Megatron-LM and ZeRO message sizes); the
 * exposed times of the `comm` table come from the step engine (step.c) through the
 * context's cached step.
 */
#include "bounds.h"
#include "diag.h"
#include "model.h"
#include "plan.h"
#include "table.h"
#include "catalog.h"
#include "comm.h"
#include "step.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ catalog */

static const struct calc_comm *ctx_comm(struct calc_ctx *c)
{
	if (!c->slot[CALC_SLOT_COMM]) {
		struct calc_comm *cm = xmalloc(sizeof *cm);
		calc_comm(&c->plan, cm);
		c->slot[CALC_SLOT_COMM] = cm;
		c->slot_free[CALC_SLOT_COMM] = free;
	}
	return c->slot[CALC_SLOT_COMM];
}

#define QBYTES(fn, D)                                                                  \
	static int fn(struct calc_ctx *c, struct calc_value *o, struct calc_diag *d)    \
	{                                                                              \
		o->num = ctx_comm(c)->dim[D].bytes;                                        \
		return 0;                                                                  \
	}
#define QTIME(fn, D)                                                                   \
	static int fn(struct calc_ctx *c, struct calc_value *o, struct calc_diag *d)    \
	{                                                                              \
		o->num = ctx_comm(c)->dim[D].time;                                         \
		return 0;                                                                  \
	}
#define QTIER(fn, D)                                                                   \
	static int fn(struct calc_ctx *c, struct calc_value *o, struct calc_diag *d)    \
	{                                                                              \
		o->num = ctx_comm(c)->dim[D].group.tier;                                   \
		o->str = calc_tier_name(ctx_comm(c)->dim[D].group.tier);                   \
		return 0;                                                                  \
	}
QBYTES(q_tp_bytes, CALC_DIM_TP)
QBYTES(q_cp_bytes, CALC_DIM_CP)
QBYTES(q_pp_bytes, CALC_DIM_PP)
QBYTES(q_dp_bytes, CALC_DIM_DP)
QTIME(q_tp_time, CALC_DIM_TP)
QTIME(q_cp_time, CALC_DIM_CP)
QTIME(q_pp_time, CALC_DIM_PP)
QTIME(q_dp_time, CALC_DIM_DP)
QTIER(q_tp_tier, CALC_DIM_TP)
QTIER(q_cp_tier, CALC_DIM_CP)
QTIER(q_pp_tier, CALC_DIM_PP)
QTIER(q_dp_tier, CALC_DIM_DP)

static int q_total(struct calc_ctx *c, struct calc_value *o, struct calc_diag *d)
{
	o->num = ctx_comm(c)->bytes_total;
	return 0;
}

static int q_net(struct calc_ctx *c, struct calc_value *o, struct calc_diag *d)
{
	o->num = ctx_comm(c)->net_bytes_total;
	return 0;
}

static int q_p2p(struct calc_ctx *c, struct calc_value *o, struct calc_diag *d)
{
	o->num = ctx_comm(c)->p2p;
	return 0;
}

static int q_tp_layer(struct calc_ctx *c, struct calc_value *o, struct calc_diag *d)
{
	o->num = ctx_comm(c)->tp_layer_f + ctx_comm(c)->tp_layer_b;
	return 0;
}

static int q_ep(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d, int what)
{
	struct calc_ep_comm e;
	const struct calc_comm *cm = ctx_comm(c);
	calc_comm_ep(&c->plan, &e);
	v->num = what == 0 ? e.bytes : what == 1 ? e.net_bytes : what == 2 ? e.time : what == 3 ? e.nvl_bytes
	       : what == 4 ? e.etp_bytes : what == 5 ? cm->edp_bytes : what == 6 ? cm->edp_time : cm->edp_group.size;
	return 0;
}
static int q_ep_nvl(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d) { return q_ep(c, v, d, 3); }
static int q_etp_bytes(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d) { return q_ep(c, v, d, 4); }
static int q_edp_bytes(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d) { return q_ep(c, v, d, 5); }
static int q_edp_time(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d) { return q_ep(c, v, d, 6); }
static int q_ep_exposed(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	const struct calc_step *st = calc_ctx_step(c, d);
	if (!st)
		return -1;
	v->num = st->ep_exposed;
	return 0;
}
static int q_ep_nodes(struct calc_ctx *c, struct calc_value *o, struct calc_diag *d)
{
	o->num = ctx_comm(c)->ep.group.nodes;
	return 0;
}
static int q_ep_per_node(struct calc_ctx *c, struct calc_value *o, struct calc_diag *d)
{
	o->num = ctx_comm(c)->ep.group.per_node;
	return 0;
}
static int q_ep_tier(struct calc_ctx *c, struct calc_value *o, struct calc_diag *d)
{
	const struct calc_comm *cm = ctx_comm(c);
	o->num = cm->ep.group.tier;
	o->str = cm->ep.group.size > 1 ? calc_tier_name(cm->ep.group.tier) : "-";
	return 0;
}
static int q_ep_bytes(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d) { return q_ep(c, v, d, 0); }
static int q_ep_net(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d) { return q_ep(c, v, d, 1); }
static int q_ep_time(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d) { return q_ep(c, v, d, 2); }

/* The exposed part of the CP exchange per step (step.c's breakdown): what the ring's
 * K/V sends could not hide under the attention they overlap with. */
static int q_cp_exposed(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	const struct calc_step *st = calc_ctx_step(c, d);
	if (!st)
		return -1;
	v->num = st->exposed[CALC_DIM_CP];
	return 0;
}

/*
 * One point of the comm-vs-tp sweep: the plan with TP degree 'tp' and DP shrinking to
 * keep the GPU count (d_comm_vs_tp below).  Returns 0, or -1 where the sweep has no such
 * point (tp x pp x cp exceeds the GPUs, or does not divide them).
 */
static int tp_sweep_point(const struct calc_ctx *c, int tp, struct calc_comm *cm)
{
	int gpus = calc_plan_gpus(&c->plan);
	int rest = c->plan.pp * (c->plan.cp > 0 ? c->plan.cp : 1) * tp;
	if (tp < 1 || rest > gpus || gpus % rest)
		return -1;
	struct calc_plan *p = xmalloc(sizeof *p);
	*p = c->plan;
	p->tp = tp;
	p->dp = gpus / rest;
	calc_comm(p, cm);
	free(p);
	return 0;
}

/* The step of Figure comm-vs-tp at the node boundary: TP time (which = 0) or bytes (1) at
 * t = 2 g over t = g, g the GPUs of a node; NaN where the sweep does not reach 2 g or a
 * node holds one GPU. */
static int q_tp_node_ratio(struct calc_ctx *c, struct calc_value *v, int which)
{
	int g = c->plan.gpus_per_node;
	struct calc_comm *in = xmalloc(sizeof *in), *out = xmalloc(sizeof *out);
	v->num = NAN;
	if (g > 1 && tp_sweep_point(c, g, in) == 0 && tp_sweep_point(c, 2 * g, out) == 0) {
		double a = which ? in->dim[CALC_DIM_TP].bytes : in->dim[CALC_DIM_TP].time;
		double b = which ? out->dim[CALC_DIM_TP].bytes : out->dim[CALC_DIM_TP].time;
		if (a > 0)
			v->num = b / a;
	}
	free(in);
	free(out);
	return 0;
}
static int q_tp_node_time(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	(void)d;
	return q_tp_node_ratio(c, v, 0);
}
static int q_tp_node_bytes(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	(void)d;
	return q_tp_node_ratio(c, v, 1);
}

const struct calc_quantity calc_q_comm[] = {
	{"comm.ep.bytes", "B", "bytes one GPU sends per step in the expert all-to-all (dispatch + combine, fwd + bwd)", q_ep_bytes},
	{"comm.ep.net_bytes", "B", "of comm.ep.bytes, what crosses the network", q_ep_net},
	{"comm.ep.time", "s", "time of the expert all-to-all per step if none overlapped", q_ep_time},
	{"comm.ep.nvl_bytes", "B", "of comm.ep.bytes, what goes to GPUs of the own node over NVLink", q_ep_nvl},
	{"comm.ep.exposed", "s", "exposed expert all-to-all and ETP collectives per step (after efficiency.ep_overlap "
	                         "or DualPipe's overlap)", q_ep_exposed},
	{"comm.ep.tier", "", "network tier the expert all-to-all crosses (NVLink or network)", q_ep_tier},
	{"comm.ep.nodes", "1", "nodes one EP group spans", q_ep_nodes},
	{"comm.ep.per_node", "1", "EP ranks of one group inside a node", q_ep_per_node},
	{"comm.etp.bytes", "B", "bytes one GPU sends per step in the ETP all-gathers and reduce-scatters", q_etp_bytes},
	{"comm.edp.bytes", "B", "bytes one GPU sends per step in the expert-DP gradient reduction (in comm.dp.bytes)",
	 q_edp_bytes},
	{"comm.edp.time", "s", "time of the expert-DP gradient reduction per step (in comm.dp.time)", q_edp_time},
	{"comm.tp.bytes", "B", "bytes one GPU sends per step for tensor parallelism (NCCL bus bytes)", q_tp_bytes},
	{"comm.cp.bytes", "B", "bytes one GPU sends per step for context parallelism (K/V exchange)", q_cp_bytes},
	{"comm.pp.bytes", "B", "bytes one GPU of a middle stage sends per step between pipeline stages", q_pp_bytes},
	{"comm.dp.bytes", "B", "bytes one GPU sends per step for the gradient reduction (DP x CP, ZeRO)", q_dp_bytes},
	{"comm.total.bytes", "B", "bytes one GPU sends per step, all dimensions", q_total},
	{"comm.net.bytes", "B", "bytes one GPU sends per step over the inter-node network", q_net},
	{"comm.tp.time", "s", "time of the TP collectives per step if none overlapped", q_tp_time},
	{"comm.cp.time", "s", "time of the CP collectives per step if none overlapped", q_cp_time},
	{"comm.cp.exposed", "s", "of comm.cp.time, the part on the critical path of the step", q_cp_exposed},
	{"comm.tp_sweep.node_time_ratio", "1", "TP time per step at t = 2 x gpus_per_node over t = gpus_per_node, DP "
	                                       "shrinking to keep the GPUs (the step of the comm-vs-tp chart; NaN "
	                                       "where the sweep has no such pair)", q_tp_node_time},
	{"comm.tp_sweep.node_bytes_ratio", "1", "TP bytes per GPU per step at t = 2 x gpus_per_node over t = "
	                                        "gpus_per_node, as comm.tp_sweep.node_time_ratio", q_tp_node_bytes},
	{"comm.pp.time", "s", "time of all pipeline sends of one GPU per step", q_pp_time},
	{"comm.dp.time", "s", "time of the gradient reduction per step if not overlapped", q_dp_time},
	{"comm.tp.layer_time", "s", "TP collectives of one layer for one micro-batch (forward + backward)", q_tp_layer},
	{"comm.pp.p2p_time", "s", "one activation send between adjacent stages", q_p2p},
	{"comm.tp.tier", "", "network tier the TP group uses (NVLink or network)", q_tp_tier},
	{"comm.cp.tier", "", "network tier the CP group uses", q_cp_tier},
	{"comm.pp.tier", "", "slowest network tier a pipeline send crosses", q_pp_tier},
	{"comm.dp.tier", "", "network tier of the gradient-reduction group", q_dp_tier},
	{0},
};

/* One row of the `comm` table: the columns are the ones t_comm adds, in order. */
static void comm_row(struct calc_table *t, const char *name, const struct calc_comm_dim *x, double exposed)
{
	int r = calc_table_row(t), k = 0;
	calc_table_str(t, r, k++, name);
	calc_table_str(t, r, k++, x->collective);
	calc_table_num(t, r, k++, x->group.size);
	calc_table_num(t, r, k++, x->group.per_node);
	calc_table_str(t, r, k++, x->group.size > 1 ? calc_tier_name(x->group.tier) : "-");
	calc_table_num(t, r, k++, x->bytes);
	calc_table_num(t, r, k++, x->net_bytes);
	calc_table_num(t, r, k++, x->time);
	calc_table_num(t, r, k, exposed);
}

/* The `trainplan comm` table: one row per dimension (and EP for an MoE model). */
static int t_comm(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                  struct calc_diag *d)
{
	const struct calc_comm *cm = ctx_comm(c);
	const struct calc_step *st = calc_ctx_step(c, d);
	int moe = c->plan.model.moe.experts > 0;

	if (!st)
		return -1;
	calc_table_init(t, "comm", "Communication per GPU per step, by parallel dimension and network tier");
	calc_table_col(t, "dimension", "", CALC_D_TEXT, 0);
	calc_table_col(t, "collective", "", CALC_D_TEXT, 0);
	calc_table_col(t, "group", "1", CALC_D_INT, 0);
	calc_table_col(t, "per node", "1", CALC_D_INT, 0);
	calc_table_col(t, "tier", "", CALC_D_TEXT, 0);
	calc_table_col(t, "bytes", "B", CALC_D_GB, 2);
	calc_table_col(t, "network bytes", "B", CALC_D_GB, 2);
	calc_table_col(t, "time", "s", CALC_D_MS, 1);
	calc_table_col(t, "exposed", "s", CALC_D_MS, 1);
	for (int i = 0; i < CALC_DIM_N; i++)
		comm_row(t, calc_dim_name((enum calc_dim)i), &cm->dim[i], st->exposed[i]);
	if (moe) /* the expert all-to-all (and ETP collectives) of the EP group */
		comm_row(t, "EP", &cm->ep, st->ep_exposed);
	{
		char note[900];
		snprintf(note, sizeof note,
		         "Bytes are what one GPU sends per step in NCCL bus-byte accounting (all-reduce 2(n-1)/n, "
		         "all-gather and reduce-scatter (n-1)/n of the message; "
		         "trainplan references, section 4.5); PP counts a middle stage (activations forward, gradients back)%s.  "
		         "Exposed: the part on the critical path of the step.",
		         moe ? "; EP is the expert all-to-all (dispatch and combine of every MoE layer, forward and "
		               "backward) of the stage with the most MoE layers, and DP includes the expert-DP "
		               "gradient reduction"
		             : "");
		calc_table_note(t, note);
	}
	return 0;
}

const struct calc_tabledef calc_t_comm[] = {
	{"comm", "bytes and time per GPU per step, by dimension and network tier", "", t_comm},
	{0},
};

/* comm-vs-tp: TP traffic per GPU per step for TP = 1 .. 64, DP shrinking to keep the
 * GPU count; the group leaves the node where TP exceeds gpus_per_node. */
static int d_comm_vs_tp(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                        struct calc_diag *d)
{
	int ctp, cnode, ccross, cb, cnb, ctime, clayer;
	int gpus = calc_plan_gpus(&c->plan);
	struct calc_plan *p = xmalloc(sizeof *p);

	calc_table_init(t, "comm-vs-tp", "TP bytes and time per GPU per step against the TP degree");
	ctp = calc_table_col(t, "tp", "1", CALC_D_INT, 0);
	cnode = calc_table_col(t, "gpus_per_node", "1", CALC_D_INT, 0);
	ccross = calc_table_col(t, "crosses_nodes", "1", CALC_D_INT, 0);
	cb = calc_table_col(t, "tp_bytes", "B", CALC_D_GB, 2);
	cnb = calc_table_col(t, "tp_net_bytes", "B", CALC_D_GB, 2);
	ctime = calc_table_col(t, "tp_time", "s", CALC_D_S, 3);
	clayer = calc_table_col(t, "tp_layer_time", "s", CALC_D_MS, 3);
	for (int tp = 1; tp <= 64; tp *= 2) {
		struct calc_comm cm;
		int rest = c->plan.pp * (c->plan.cp > 0 ? c->plan.cp : 1) * tp;
		int r;
		if (rest > gpus)
			break;
		*p = c->plan;
		p->tp = tp;
		p->dp = gpus / rest;
		calc_comm(p, &cm);
		r = calc_table_row(t);
		calc_table_num(t, r, ctp, tp);
		calc_table_num(t, r, cnode, p->gpus_per_node);
		calc_table_num(t, r, ccross, cm.dim[CALC_DIM_TP].group.tier != CALC_TIER_NVLINK);
		calc_table_num(t, r, cb, cm.dim[CALC_DIM_TP].bytes);
		calc_table_num(t, r, cnb, cm.dim[CALC_DIM_TP].net_bytes);
		calc_table_num(t, r, ctime, cm.dim[CALC_DIM_TP].time);
		calc_table_num(t, r, clayer, cm.tp_layer_f + cm.tp_layer_b);
	}
	free(p);
	calc_table_note(t, "DP = GPUs / (TP x PP x CP) for each row; the groups are laid out by "
	                   "parallel.placement, and a TP group that does not fit in a node crosses the network.");
	return 0;
}

/* tp-pp-diagram: what the TP-vs-PP diagram of chapter 4 labels, one row per pipeline
 * stage.  Each row holds the stage's layers (first and last of its contiguous range, and
 * whether it holds the embedding or the LM head) and the plan-wide numbers of the
 * drawing: the TP degree, the heads per TP rank, sequence parallelism, the message of one
 * TP collective (b*s/cp*h BF16 elements, Narayanan 2021 §3.2; comm.c) with the bytes one
 * GPU sends for it (all-reduce 2(t-1)/t of it, or with SP the all-gather and the
 * reduce-scatter (t-1)/t each, docs/references.md §4.5), the
 * TP collectives of one layer forward and backward, the bytes of one point-to-point send
 * between stages (b*s*h/t with SP or scatter/gather, Narayanan 2021 §4.1) and the tier
 * of each (0 NVLink, 1 network). */
static int d_tp_pp_diagram(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                           struct calc_diag *d)
{
	const struct calc_plan *pl = &c->plan;
	const struct calc_comm *cm = ctx_comm(c);
	const struct calc_comm_dim *tp = &cm->dim[CALC_DIM_TP], *pp = &cm->dim[CALC_DIM_PP];
	struct calc_stage_layers *sl = xcalloc(CALC_MAX_STAGES, sizeof *sl);
	int np = pl->pp > 0 ? pl->pp : 1, ntp = pl->tp > 0 ? pl->tp : 1, cp = pl->cp > 0 ? pl->cp : 1;
	int full = pl->recompute == CALC_RC_FULL, first = 0;
	/* the message of one TP collective: the b x s/cp x h activation in BF16 (comm.c) */
	double msg = (double)pl->micro_batch * pl->seq_len / cp * pl->model.hidden * 2.0;
	double per_coll = ntp > 1 ? calc_coll_factor(CALC_COLL_ALLREDUCE, ntp) * msg : 0;
	double send = pp->count > 0 ? pp->bytes / pp->count : 0;
	int cst, cfirst, clast, clay, cemb, chead, ctp, cpp, cvpp, csp, cheads, cmsg, ccoll, cf, cb,
	    ctier, csend, cptier;

	if (np > CALC_MAX_STAGES)
		np = CALC_MAX_STAGES;
	calc_stage_layers_all(pl, sl);
	calc_table_init(t, "tp-pp-diagram", "what the TP-vs-PP diagram labels, one row per pipeline stage");
	cst = calc_table_col(t, "stage", "1", CALC_D_INT, 0);
	cfirst = calc_table_col(t, "first_layer", "1", CALC_D_INT, 0);
	clast = calc_table_col(t, "last_layer", "1", CALC_D_INT, 0);
	clay = calc_table_col(t, "layers", "1", CALC_D_INT, 0);
	cemb = calc_table_col(t, "embedding", "1", CALC_D_INT, 0);
	chead = calc_table_col(t, "head", "1", CALC_D_INT, 0);
	ctp = calc_table_col(t, "tp", "1", CALC_D_INT, 0);
	cpp = calc_table_col(t, "pp", "1", CALC_D_INT, 0);
	cvpp = calc_table_col(t, "vpp", "1", CALC_D_INT, 0);
	csp = calc_table_col(t, "sp", "", CALC_D_TEXT, 0);
	cheads = calc_table_col(t, "heads_per_gpu", "1", CALC_D_INT, 0);
	cmsg = calc_table_col(t, "tp_message_bytes", "B", CALC_D_MB, 1);
	ccoll = calc_table_col(t, "tp_coll_bytes", "B", CALC_D_MB, 1);
	cf = calc_table_col(t, "tp_colls_fwd", "1", CALC_D_INT, 0);
	cb = calc_table_col(t, "tp_colls_bwd", "1", CALC_D_INT, 0);
	ctier = calc_table_col(t, "tp_tier", "1", CALC_D_INT, 0);
	csend = calc_table_col(t, "send_bytes", "B", CALC_D_MB, 1);
	cptier = calc_table_col(t, "pp_tier", "1", CALC_D_INT, 0);
	for (int i = 0; i < np; i++) {
		int r = calc_table_row(t);
		calc_table_num(t, r, cst, i);
		calc_table_num(t, r, cfirst, first);
		calc_table_num(t, r, clast, first + sl[i].layers - 1);
		calc_table_num(t, r, clay, sl[i].layers);
		calc_table_num(t, r, cemb, sl[i].embedding);
		calc_table_num(t, r, chead, sl[i].head);
		calc_table_num(t, r, ctp, ntp);
		calc_table_num(t, r, cpp, pl->pp > 0 ? pl->pp : 1);
		calc_table_num(t, r, cvpp, pl->vpp > 0 ? pl->vpp : 1);
		calc_table_str(t, r, csp, pl->sp && ntp > 1 ? "yes" : "no");
		calc_table_num(t, r, cheads, pl->model.heads / ntp);
		calc_table_num(t, r, cmsg, ntp > 1 ? msg : 0);
		calc_table_num(t, r, ccoll, per_coll);
		/* two per layer forward, two backward, and the forward two again under full
		 * recomputation (Narayanan 2021 §3.2; comm.c) */
		calc_table_num(t, r, cf, ntp > 1 ? 2 : 0);
		calc_table_num(t, r, cb, ntp > 1 ? 2 + 2 * full : 0);
		calc_table_num(t, r, ctier, tp->group.tier == CALC_TIER_NET);
		calc_table_num(t, r, csend, send);
		calc_table_num(t, r, cptier, pp->group.tier == CALC_TIER_NET);
		first += sl[i].layers;
	}
	free(sl);
	calc_table_note(t, "TP collectives per layer and micro-batch: all-reduces (with SP an all-gather and "
	                   "a reduce-scatter each) after attention and after the MLP, forward and backward; "
	                   "tp_coll_bytes is what one GPU sends for one of them.  PP: one send of the "
	                   "boundary activation per micro-batch forward and of its gradient backward.");
	return 0;
}

const struct calc_tabledef calc_d_comm[] = {
	{"comm-vs-tp", "TP bytes and time per GPU per step vs TP degree 1-64, NVLink/network boundary marked",
	 "", d_comm_vs_tp},
	{"tp-pp-diagram", "TP-vs-PP diagram labels: per stage its layers; TP degree, bytes per collective and "
	                  "per PP send, tiers",
	 "", d_tp_pp_diagram},
	{0},
};
