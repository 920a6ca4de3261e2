/*
 * comm.c -- collectives over network tiers and the bytes each GPU moves per step.
 *
 * Cost model: alpha-beta, t = steps * latency + factor * S / busbw, with NCCL's
 * bus-bandwidth factors (all-reduce 2(n-1)/n, all-gather / reduce-scatter /
 * all-to-all (n-1)/n; docs/references.md §4.5).  A group
 * that spans nodes runs hierarchically: reduce-scatter on NVLink, the collective on
 * the 1/g shard over the network with every GPU on its own NIC, all-gather on NVLink
 * (docs/references.md §6, "derived inter-node bounds" (b)).  With cluster.nodes_per_leaf
 * a group over several leaves of a rail-optimized fat tree adds a level across the spine
 * at the network bandwidth / cluster.oversubscription (docs/references.md §4.6; NVIDIA
 * DGX SuperPOD reference architecture, Llama 3 §3.3.1).
 *
 * Volumes per GPU per step (docs/references.md §4):
 *   TP  4 all-reduces of b*s*h per layer per micro-batch (Narayanan 2021 §3.2:
 *       8bsh(t-1)/t per layer), 6 with full recomputation (ZeRO §8); with sequence
 *       parallelism 4 all-gathers + 4 reduce-scatters of the same bus bytes
 *       (Korthikanti 2022 §4.2.2).
 *   CP  all-gather of K and V in forward, reduce-scatter of dK, dV in backward
 *       (Llama 3 §3.3.2; docs/references.md §4.7, derived).
 *   PP  b*s*h per stage boundary per micro-batch each way (Narayanan 2021 §3.2), x v
 *       with interleaving (§2.2.2), /t with SP (the sharded tensor, Korthikanti 2022
 *       §4.2.2) or with scatter/gather (§4.1).
 *   DP  gradient all-reduce 2*Psi; ZeRO-1 reduce-scatter + all-gather 2*Psi; ZeRO-3
 *       3*Psi (ZeRO §7), the all-gathers repeated for every micro-batch; from ZeRO-2
 *       on the reduce-scatter too (sharded gradients cannot accumulate locally).
 *   EP  dispatch and combine of every MoE layer, forward and backward, by tier and by
 *       moe.dispatcher (Megatron-Core's alltoall and allgather dispatchers; DeepEP's
 *       per-node and per-GPU copies with node-limited routing, DeepSeek-V3 §3.2.2;
 *       docs/references.md §5.12), the multi-token prediction blocks of the last stage
 *       counted with its layers; ETP all-gather + reduce-scatter of the
 *       received tokens; the expert-DP gradient reduction over edp ranks (Megatron-Core
 *       MoE parallel folding; docs/references.md §5.7).
 */
#include "bounds.h"
#include "model.h"
#include "recipe.h"
#include "plan.h"
#include "memory.h"
#include "comm.h"
#include "pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void comm_experts(const struct calc_plan *plan, int m, const struct calc_stage_layers *all,
                         const struct calc_comm_pre *pre, struct calc_comm *out);
static void ep_split_of(const struct calc_plan *plan, const long st[CALC_DIM_N], struct calc_comm_pre *out);
static void ep_split(const struct calc_plan *plan, const struct calc_comm_pre *pre, const struct calc_stage_layers *all,
                     struct calc_group *edp_group, double *edp_params);
static void edp_reduce(const struct calc_plan *plan, int m, struct calc_comm *out);

#define ACT_BYTES 2.0 /* TP/CP/PP messages travel in BF16 (Megatron, Transformer Engine) */

/* Bytes per element of the sequence-parallel all-gathers of a TP block [B]: under a
 * Transformer Engine recipe that quantizes the linear layers' inputs (fp8-te, fp8-params,
 * mxfp8, nvfp4: the recipes whose linear layers save a quantized input, lin_in_bytes) TE
 * quantizes the tensor before it gathers it -- the norm output of a column-parallel layer
 * in the forward (module/layernorm_linear.py: "quantizer = input_quantizer" passed to
 * gather_along_first_dim or to the userbuffers all-gather) and the output gradient of a
 * row-parallel layer in the backward (module/base.py grad_output_preprocess, FP8 case) --
 * and gathers the quantized data with its scales (distributed.py gather_along_first_dim:
 * _all_gather_fp8, _all_gather_mxfp8, _all_gather_nvfp4; NVIDIA/TransformerEngine at
 * d0067d0da): 1 B per element in FP8, 1 + 1/32 in MXFP8, 1/2 + 1/16 in NVFP4, the bytes a
 * linear layer saves (recipe.c).  The reduce-scatters of the GEMM outputs stay BF16.
 * Any other recipe gathers BF16.  docs/references.md §4.4. */
static double tp_gather_bytes(const struct calc_plan *plan)
{
	const struct calc_recipe *r = plan->recipe;
	return r && r->fp8_compute && r->lin_in_bytes > 0 ? r->lin_in_bytes : ACT_BYTES;
}

const char *calc_tier_name(enum calc_tier t)
{
	return t == CALC_TIER_NVLINK ? "NVLink" : t == CALC_TIER_SPINE ? "spine" : "network";
}

const char *calc_dim_name(enum calc_dim d)
{
	static const char *const names[] = {"TP", "CP", "PP", "DP"};
	return d >= 0 && d < CALC_DIM_N ? names[d] : "?";
}

/* ------------------------------------------------------------------ collectives */

double calc_coll_factor(enum calc_coll k, int n)
{
	if (k == CALC_COLL_P2P)
		return 1;
	if (n <= 1)
		return 0;
	/* docs/references.md §4.5, "Bus bandwidth" correction factors */
	if (k == CALC_COLL_ALLREDUCE)
		return 2.0 * (n - 1) / n;
	return (double)(n - 1) / n;
}

double calc_coll_flat(enum calc_coll k, double bytes, int n, double busbw, double lat)
{
	double steps;

	if (k != CALC_COLL_P2P && n <= 1)
		return 0;
	if (k == CALC_COLL_P2P)
		steps = 1;
	else if (k == CALC_COLL_ALLREDUCE)
		steps = 2.0 * (n - 1); /* ring: reduce-scatter then all-gather, n-1 steps each */
	else
		steps = n - 1;
	return steps * lat + calc_coll_factor(k, n) * bytes / busbw;
}

void calc_comm_links(const struct calc_plan *plan, struct calc_links *out)
{
	double eff = plan->inter_node_eff > 0 ? plan->inter_node_eff : 1;

	out->intra_busbw = plan->intra_node_busbw > 0 ? plan->intra_node_busbw : plan->intra_node_bw;
	out->intra_lat = plan->intra_node_latency;
	out->inter_bw = plan->inter_node_bw * eff;
	out->inter_lat = plan->inter_node_latency;
	if (out->intra_busbw <= 0)
		out->intra_busbw = 1e15; /* no NVLink figure: treat as free rather than divide by 0 */
	if (out->inter_bw <= 0)
		out->inter_bw = 1e15;
	/* an oversubscribed fat tree: the leaf's uplinks carry 1/oversubscription of what its
	 * downlinks do, so a step across the spine gets that share (docs/references.md §4.6) */
	out->spine_bw = out->inter_bw / (plan->oversubscription > 1 ? plan->oversubscription : 1);
	out->spine_lat = plan->spine_latency > 0 ? plan->spine_latency : plan->inter_node_latency;
}

/* The network part of a hierarchical collective: 'k' of 'shard' bytes over the group's
 * nodes, one GPU per node on its own NIC.  Within one leaf a flat ring over the N nodes;
 * over L leaves of n_l nodes each, reduce-scatter inside the leaves, the collective on the
 * 1/n_l shard across the spine, all-gather inside the leaves (for all-gather and
 * reduce-scatter the leaf step and the spine step only).  Ring bus bytes add up to the
 * flat ring's: 2(n_l - 1)/n_l + 2(L - 1)/(L n_l) = 2(N - 1)/N for N = n_l L. */
static double net_coll(enum calc_coll k, double shard, const struct calc_group *g, const struct calc_links *l)
{
	int L = g->leaves, nl = g->leaf_nodes > 0 ? g->leaf_nodes : 1;

	if (L <= 1)
		return calc_coll_flat(k, shard, g->nodes, l->inter_bw, l->inter_lat);
	if (k == CALC_COLL_ALLREDUCE)
		return calc_coll_flat(CALC_COLL_REDUCESCATTER, shard, nl, l->inter_bw, l->inter_lat) +
		       calc_coll_flat(CALC_COLL_ALLREDUCE, shard / nl, L, l->spine_bw, l->spine_lat) +
		       calc_coll_flat(CALC_COLL_ALLGATHER, shard, nl, l->inter_bw, l->inter_lat);
	return calc_coll_flat(k, shard, nl, l->inter_bw, l->inter_lat) +
	       calc_coll_flat(k, shard / nl, L, l->spine_bw, l->spine_lat);
}

double calc_coll_time(enum calc_coll k, double bytes, const struct calc_group *g,
                      const struct calc_links *l)
{
	int n = g->size, pn = g->per_node, nn = g->nodes;

	if (g->tier == CALC_TIER_NVLINK || nn <= 1)
		return calc_coll_flat(k, bytes, n, l->intra_busbw, l->intra_lat);
	switch (k) {
	case CALC_COLL_P2P:
		/* the slowest send of the group: across the spine when it spans leaves */
		return g->leaves > 1 ? calc_coll_flat(k, bytes, 2, l->spine_bw, l->spine_lat)
		                     : calc_coll_flat(k, bytes, 2, l->inter_bw, l->inter_lat);
	case CALC_COLL_ALLTOALL: {
		/* the (n - g)/n of the data addressed to other nodes uses the NIC, the rest NVLink;
		 * of it, what goes to ranks under other leaves crosses the spine */
		double far = bytes * (double)(n - pn) / n, near = bytes * (double)(pn - 1) / n, spine = 0;
		if (g->leaves > 1) {
			int in_leaf = pn * (g->leaf_nodes > 0 ? g->leaf_nodes : 1);
			spine = in_leaf < n ? bytes * (double)(n - in_leaf) / n : 0;
			far -= spine;
			return (n - 1) * l->spine_lat + far / l->inter_bw + spine / l->spine_bw + near / l->intra_busbw;
		}
		return (n - 1) * l->inter_lat + far / l->inter_bw + near / l->intra_busbw;
	}
	case CALC_COLL_ALLREDUCE:
		return calc_coll_flat(CALC_COLL_REDUCESCATTER, bytes, pn, l->intra_busbw, l->intra_lat) +
		       net_coll(CALC_COLL_ALLREDUCE, bytes / pn, g, l) +
		       calc_coll_flat(CALC_COLL_ALLGATHER, bytes, pn, l->intra_busbw, l->intra_lat);
	case CALC_COLL_ALLGATHER:
	case CALC_COLL_REDUCESCATTER:
	default:
		return calc_coll_flat(k, bytes, pn, l->intra_busbw, l->intra_lat) + net_coll(k, bytes / pn, g, l);
	}
}

double calc_coll_net_bytes(enum calc_coll k, double bytes, const struct calc_group *g)
{
	int n = g->size, pn = g->per_node, nn = g->nodes;

	if (g->tier == CALC_TIER_NVLINK || nn <= 1)
		return 0; /* (over leaves the same total: net_coll's bus bytes add up to the ring's) */
	if (k == CALC_COLL_P2P)
		return bytes;
	if (k == CALC_COLL_ALLTOALL)
		return bytes * (double)(n - pn) / n;
	return calc_coll_factor(k, nn) * bytes / pn;
}

/* ------------------------------------------------------------------ placement */

static int degree(const struct calc_plan *p, enum calc_dim d)
{
	int v = d == CALC_DIM_TP ? p->tp : d == CALC_DIM_CP ? p->cp : d == CALC_DIM_PP ? p->pp : p->dp;
	return v > 0 ? v : 1;
}

/* Stride of each dimension's coordinate in the global rank: the product of the
 * degrees of the dimensions placed inside it, as Megatron-Core's RankGenerator orders
 * the ranks (megatron/core/parallel_state.py at core_v0.19.0; its default order
 * tp-cp-ep-dp-pp, docs/references.md §4.9).  The dense layers' generator has ep = 1, so
 * an ep token takes no room here.  A missing or malformed placement falls back to
 * tp-cp-pp-dp (plan.c validates the key). */
static void strides_in(const struct calc_plan *p, const int *place, int n, long st[CALC_DIM_N])
{
	int order[CALC_DIM_N + 1];
	long acc = 1;

	if (n > 0)
		memcpy(order, place, (size_t)n * sizeof *order);
	else {
		for (n = 0; n < CALC_DIM_N; n++)
			order[n] = n;
	}
	for (int i = 0; i < n; i++) {
		if (order[i] == CALC_PLACE_EP)
			continue;
		st[order[i]] = acc;
		acc *= degree(p, (enum calc_dim)order[i]);
	}
}

/* strides_in of the plan's placement, parsed here. */
static void strides(const struct calc_plan *p, long st[CALC_DIM_N])
{
	int order[CALC_DIM_N + 1], n = calc_placement_parse(p->placement, order);
	strides_in(p, order, n, st);
}

/* The expert layers' strides under a placement with an ep token: Megatron-Core's
 * expert RankGenerator (parallel_state.py initialize_model_parallel, core_v0.19.0) takes
 * the same order with tp -> etp, cp -> 1, ep -> ep, dp -> edp and pp -> pp.  Returns -1 for
 * a placement without ep: then a stage's expert ranks are its GPUs in rank order, etp
 * innermost, then ep, then edp (the convention before the ep token). */
static int expert_strides_in(const struct calc_plan *p, const int *order, int norder, long *s_etp, long *s_ep,
                             long *s_edp)
{
	long acc = 1;

	if (norder != CALC_DIM_N + 1)
		return -1;
	for (int i = 0; i < CALC_DIM_N + 1; i++) {
		long n = 1;
		switch (order[i]) {
		case CALC_DIM_TP: *s_etp = acc; n = p->etp > 0 ? p->etp : 1; break;
		case CALC_PLACE_EP: *s_ep = acc; n = p->ep > 0 ? p->ep : 1; break;
		case CALC_DIM_DP: *s_edp = acc; n = p->edp > 0 ? p->edp : 1; break;
		case CALC_DIM_PP: n = p->pp > 0 ? p->pp : 1; break;
		default: break; /* cp: 1 in the expert generator */
		}
		acc *= n;
	}
	return 0;
}

/* expert_strides_in of the plan's placement, parsed here. */
static int expert_strides(const struct calc_plan *p, long *s_etp, long *s_ep, long *s_edp)
{
	int order[CALC_DIM_N + 1], n = calc_placement_parse(p->placement, order);
	return expert_strides_in(p, order, n, s_etp, s_ep, s_edp);
}

/* Members of a group of 'n' ranks at stride 's' inside one node of G ranks. */
static int members_in_node(int n, long s, int G)
{
	if (s >= G)
		return 1;
	long fit = G / s;
	return fit < n ? (int)fit : n;
}

/* The nodes, tier and leaves of a group of out->size ranks, out->per_node of them in a
 * node, whose ranks span 'span' consecutive ranks first to last (a group is taken to start
 * at a leaf's first node): how many of the group's nodes one leaf holds, and the spine
 * tier where it spans several leaves.  'span' is read only with cluster.nodes_per_leaf. */
static void place_nodes(const struct calc_plan *plan, int G, double span, struct calc_group *out)
{
	if (out->per_node < 1)
		out->per_node = 1;
	out->nodes = (out->size + out->per_node - 1) / out->per_node;
	out->tier = out->nodes > 1 ? CALC_TIER_NET : CALC_TIER_NVLINK;
	out->leaves = 1;
	out->leaf_nodes = out->nodes;
	if (plan->nodes_per_leaf > 0 && out->nodes > 1) {
		double nodes_spanned = ceil(span / G);
		long nl = (long)floor(plan->nodes_per_leaf / (nodes_spanned / out->nodes));
		nl = nl < 1 ? 1 : nl > out->nodes ? out->nodes : nl;
		out->leaf_nodes = (int)nl;
		out->leaves = (int)((out->nodes + nl - 1) / nl);
		if (out->leaves > 1)
			out->tier = CALC_TIER_SPINE;
	}
}

static void group_of(const struct calc_plan *plan, const long st[CALC_DIM_N], enum calc_dim dim,
                     struct calc_group *out)
{
	int G = plan->gpus_per_node > 0 ? plan->gpus_per_node : 1;
	double span;

	if (dim == CALC_DIM_DP) {
		/* the gradient-reduction group: DP x CP ranks */
		int ndp = degree(plan, CALC_DIM_DP), ncp = degree(plan, CALC_DIM_CP);
		int gdp = members_in_node(ndp, st[CALC_DIM_DP], G);
		int gcp = members_in_node(ncp, st[CALC_DIM_CP], G);
		out->size = ndp * ncp;
		out->per_node = gdp * gcp > G ? G : gdp * gcp;
		span = (double)(ndp - 1) * st[CALC_DIM_DP] + (double)(ncp - 1) * st[CALC_DIM_CP] + 1;
	} else {
		out->size = degree(plan, dim);
		out->per_node = members_in_node(out->size, st[dim], G);
		span = (double)(out->size - 1) * st[dim] + 1;
	}
	place_nodes(plan, G, span, out);
}

/* A group of 'n' ranks at stride 's' in the global rank, placed as group_of places a
 * dimension's group: the sub-groups of hierarchical context parallelism (a2a+p2p: the
 * a2a group of a ranks at the CP stride, the ring of cp / a ranks at a times it). */
static void strided_group(const struct calc_plan *plan, int n, long s, struct calc_group *out)
{
	int G = plan->gpus_per_node > 0 ? plan->gpus_per_node : 1;

	out->size = n > 0 ? n : 1;
	out->per_node = members_in_node(out->size, s, G);
	place_nodes(plan, G, (double)(out->size - 1) * s + 1, out);
}

void calc_comm_group(const struct calc_plan *plan, enum calc_dim dim, struct calc_group *out)
{
	long st[CALC_DIM_N];
	strides(plan, st);
	group_of(plan, st, dim, out);
}

/* ------------------------------------------------------------------ volumes */

/* Layers of the most loaded stage (calc_stage_layers: the plan's split).  Every layer
 * kind there is (dense, of any FFN width) runs the same TP and CP collectives per layer
 * -- their sizes depend on b, s and h only -- so the count of layers, summed over the
 * kinds, is what sizes them. */
static int worst_layers(const struct calc_plan *p, const struct calc_stage_layers *all, double *tp_share)
{
	int pp = p->pp > 0 ? p->pp : 1, w = 0, nk = calc_model_nkinds(&p->model), blocks[CALC_MAX_KINDS];
	*tp_share = 1;
	for (int k = 0; k < nk; k++) {
		struct calc_layer_kind kd;
		int at, ml, mb;
		calc_model_kind(&p->model, k, &kd);
		blocks[k] = calc_layer_type_parts(kd.type, &at, &ml, &mb);
	}
	if (calc_model_is_hybrid(&p->model)) {
		/* A hybrid model's layers are one block each (model.hybrid_pattern): the stage
		 * with the most TP blocks, its layers and its blocks over two per layer, so
		 * that the rows below, sized by the dense layer's two blocks, count its own. */
		int wb = 0;
		for (int i = 0; i < pp && i < CALC_MAX_STAGES; i++) {
			struct calc_stage_layers sl;
			int n = 0, b = 0;
			if (all)
				sl = all[i];
			else
				calc_stage_layers(p, i, &sl);
			for (int k = 0; k < nk; k++)
				n += sl.count[k], b += sl.count[k] * blocks[k];
			if (b > wb || (b == wb && n > w))
				wb = b, w = n;
		}
		*tp_share = w > 0 ? wb / (2.0 * w) : 1;
		return w;
	}
	if (calc_stage_layers_uniform(p))
		return p->model.layers / pp;
	if (!calc_model_has_kinds(&p->model) && calc_stage_layers_heaviest(p) >= -1) {
		/* the middle stage with the most layers, or an end */
		int h = calc_stage_layers_heaviest(p), ends[3] = {0, pp - 1, h};
		for (int j = 0; j < 3; j++)
			if (ends[j] >= 0) {
				struct calc_stage_layers sl;
				calc_stage_layers(p, ends[j], &sl);
				if (sl.layers > w)
					w = sl.layers;
			}
		return w;
	}
	for (int i = 0; i < pp && i < CALC_MAX_STAGES; i++) {
		struct calc_stage_layers sl;
		int n = 0;
		if (all)
			sl = all[i];
		else
			calc_stage_layers(p, i, &sl);
		for (int k = 0; k < calc_model_nkinds(&p->model); k++)
			n += sl.count[k]; /* CALC_LAYER_DENSE: one layer's collectives each */
		if (n > w)
			w = n;
	}
	return w;
}

/* Parameters held by one GPU of the most loaded stage, counted by memory.c's terms
 * (TP shards the matrices and the vocabulary, norms and row-parallel biases stay
 * replicated; the first stage holds the embedding, the last the LM head or, tied with
 * pp > 1, Megatron's copy of the embedding; MEG-MEM, docs/references.md §1.2).  With every
 * stage holding the same layers only the two ends can hold the most. */
static double grad_params_of(const struct calc_plan *p, const struct calc_stage_layers *all, int heavy,
                             const struct calc_params *pr);

static double grad_params(const struct calc_plan *p, const struct calc_stage_layers *all)
{
	return grad_params_of(p, all, calc_stage_layers_uniform(p) ? -1 : calc_stage_layers_heaviest(p), NULL);
}

/* grad_params with 'heavy', calc_stage_layers_heaviest of the plan (-1 where its stages
 * are uniform; calc_comm_pre_layers keeps it) and 'pr', calc_model_params of its model
 * (NULL: computed here). */
static double grad_params_of(const struct calc_plan *p, const struct calc_stage_layers *all, int heavy,
                             const struct calc_params *pr)
{
	struct calc_params own;
	struct calc_mem_terms k;
	int pp = p->pp > 0 ? p->pp : 1;
	double w = 0;

	if (!pr) {
		calc_model_params(&p->model, &own);
		pr = &own;
	}
	calc_memory_terms_params(p, pr, &k);
	for (int i = 0; i < pp && i < CALC_MAX_STAGES; i++) {
		struct calc_stage_layers sl;
		double n;
		/* without kinds the parameters grow with the layers: the ends and the middle
		 * stage with the most layers are the candidates */
		if (heavy >= -1 && i > 0 && i < pp - 1 && i != heavy)
			i = heavy > i ? heavy : pp - 1;
		if (all)
			sl = all[i];
		else
			calc_stage_layers(p, i, &sl);
		n = calc_memory_terms_stage_params(&k, &sl);
		if (n > w)
			w = n;
	}
	return w;
}

/* ------------------------------------------------------------------ DP collectives */

double calc_comm_grad_bytes(const struct calc_plan *plan)
{
	double gb;
	if (plan->grad_reduce == 1)
		return 2; /* BF16 reduction (FSDP MixedPrecision reduce_dtype, NeMo distributed Adam) */
	if (plan->grad_reduce == 2)
		return 4; /* FP32 reduction (torchtitan's default mixed_precision_reduce) */
	gb = plan->recipe ? calc_recipe_bytes(plan->recipe, CALC_T_GRAD) : 2;
	return gb > 0 ? gb : 2;
}

/* calc_comm_dp_time on 'links', calc_comm_links of the plan (computed once by a caller
 * that times several collectives, or kept in calc_comm_pre). */
static double dp_time_on(const struct calc_plan *plan, const struct calc_links *links, enum calc_coll k, double bytes,
                         const struct calc_group *g)
{
	struct calc_links l = *links;
	double eff = plan->dp_bw_eff > 0 && plan->dp_bw_eff < 1 ? plan->dp_bw_eff : 1;

	if (eff < 1) {
		l.intra_busbw *= eff;
		l.inter_bw *= eff;
		l.spine_bw *= eff;
	}
	/* A flat ring over every rank of a group that spans nodes: each rank's whole
	 * (n-1)/n S crosses its own NIC, n-1 network latencies (nccl-tests
	 * docs/references.md §4.5 ring; what a ring without NVLink aggregation costs). */
	if (plan->dp_flat && g->tier != CALC_TIER_NVLINK && g->nodes > 1)
		return g->leaves > 1 ? calc_coll_flat(k, bytes, g->size, l.spine_bw, l.spine_lat) /* the ring's slowest link */
		                     : calc_coll_flat(k, bytes, g->size, l.inter_bw, l.inter_lat);
	return calc_coll_time(k, bytes, g, &l);
}

double calc_comm_dp_time(const struct calc_plan *plan, enum calc_coll k, double bytes, const struct calc_group *g)
{
	struct calc_links l;
	calc_comm_links(plan, &l);
	return dp_time_on(plan, &l, k, bytes, g);
}

/*
 * FSDP / ZeRO-3 as it runs (PyTorch FSDP, Zhao et al. 2023 §3-4; DeepSpeed ZeRO-3,
 * Rajbhandari et al. 2020 §5.3): one FSDP unit per transformer layer, plus the
 * embedding and the final norm with the LM head.  A unit's parameters are all-gathered
 * before its forward and, with reshard_after_forward, again before its backward; its
 * gradients are reduce-scattered after its backward, every micro-batch, or once per
 * step with no_sync (the unsharded gradients accumulate meanwhile).  With pipeline
 * parallelism a stage keeps its parameters gathered over the step's micro-batches and
 * reduces once, as torchtitan runs FSDP with PP (reshard_after_forward off for PP).
 * HSDP (Zhao et al. 2023 §3.2.2) shards over groups of parallel.hsdp ranks -- the
 * innermost DP ranks -- and all-reduces each reduced shard over the replicas.  Every
 * unit's collective pays its own latency: a ring of n ranks n-1 steps (NCCL runs
 * all-gather and reduce-scatter as rings).  Each collective's time is on its own here;
 * step.c hides it behind the compute of the neighbouring unit.
 */
static void fsdp_units(const struct calc_plan *plan, int m, struct calc_comm_dim *x, struct calc_comm *out)
{
	const struct calc_recipe *r = plan->recipe;
	struct calc_params pr;
	struct calc_mem_terms k;
	struct calc_group sg = x->group, rg = {1, 1, 1, CALC_TIER_NVLINK, 1, 1};
	int n = x->group.size, S = plan->fsdp_shard > 0 && plan->fsdp_shard < n ? plan->fsdp_shard : n;
	int pp = plan->pp > 0 ? plan->pp : 1;
	double wb = r ? calc_recipe_bytes(r, CALC_T_WEIGHT) : 2, gb = calc_comm_grad_bytes(plan);
	double units = 0, wparams = 0, wbytes = 0, unit_ag = 0, unit_rs = 0, wl;

	if (wb <= 0)
		wb = 2;
	/* parallel.fsdp_fp8_gather: the layers' Float8Linear weights cross in FP8, 1 byte, the
	 * embedding and the LM head in the compute dtype (memory.c calc_memory_terms_fsdp,
	 * docs/references.md §1.8) */
	wl = plan->fsdp_fp8_gather ? 1 : wb;
	if (S < n) {
		/* the shard group: the innermost S ranks of the DP group; the replicas: the rest */
		sg.size = S;
		sg.per_node = x->group.per_node < S ? x->group.per_node : S;
		sg.nodes = (S + sg.per_node - 1) / sg.per_node;
		sg.tier = sg.nodes > 1 ? CALC_TIER_NET : CALC_TIER_NVLINK;
		rg.size = n / S;
		rg.per_node = x->group.per_node / sg.per_node > 1 ? x->group.per_node / sg.per_node : 1;
		if (rg.per_node > rg.size)
			rg.per_node = rg.size;
		rg.nodes = (rg.size + rg.per_node - 1) / rg.per_node;
		rg.tier = rg.nodes > 1 ? CALC_TIER_NET : CALC_TIER_NVLINK;
		if (x->group.leaves > 1) {
			/* the shard group's nodes fill leaves as the DP group's do; a leaf holds
			 * leaf_nodes / (nodes of one shard group) replicas */
			int ln = x->group.leaf_nodes > 0 ? x->group.leaf_nodes : 1;
			sg.leaf_nodes = ln < sg.nodes ? ln : sg.nodes;
			sg.leaves = (sg.nodes + sg.leaf_nodes - 1) / sg.leaf_nodes;
			rg.leaf_nodes = ln / sg.nodes > 1 ? ln / sg.nodes : 1;
			if (rg.leaf_nodes > rg.nodes)
				rg.leaf_nodes = rg.nodes;
			rg.leaves = (rg.nodes + rg.leaf_nodes - 1) / rg.leaf_nodes;
			sg.tier = sg.leaves > 1 ? CALC_TIER_SPINE : sg.tier;
			rg.tier = rg.leaves > 1 ? CALC_TIER_SPINE : rg.tier;
		}
	}
	calc_model_params(&plan->model, &pr);
	calc_memory_terms_params(plan, &pr, &k);
#define AG(P) calc_comm_dp_time(plan, CALC_COLL_ALLGATHER, (P) * wb, &sg)
#define RS(P) (calc_comm_dp_time(plan, CALC_COLL_REDUCESCATTER, (P) * gb, &sg) + \
	       (rg.size > 1 ? calc_comm_dp_time(plan, CALC_COLL_ALLREDUCE, (P) * gb / S, &rg) : 0))
	for (int j = 0; j < k.nkinds && j < CALC_MAX_KINDS; j++) {
		out->fsdp_ag[j] = calc_comm_dp_time(plan, CALC_COLL_ALLGATHER, k.kind_params[j] * wl, &sg);
		out->fsdp_rs[j] = RS(k.kind_params[j]);
	}
	out->fsdp_ag_first = AG(k.first_params);
	out->fsdp_rs_first = RS(k.first_params);
	out->fsdp_ag_last = AG(k.last_norm + k.last_head);
	out->fsdp_rs_last = RS(k.last_norm + k.last_head);
#undef AG
#undef RS
	out->fsdp = 1;
	out->fsdp_gathers = pp > 1 ? 1 : (double)m * (plan->reshard_after_forward ? 2 : 1);
	out->fsdp_reduces = pp > 1 || plan->no_sync ? 1 : m;
	/* the stage with the most parameters sets the step's traffic */
	for (int i = 0; i < pp && i < CALC_MAX_STAGES; i++) {
		struct calc_stage_layers sl;
		double ag = 0, rs = 0, u = 0, dense = 0;
		calc_stage_layers(plan, i, &sl);
		for (int j = 0; j < k.nkinds && j < CALC_MAX_KINDS; j++) {
			ag += sl.count[j] * out->fsdp_ag[j];
			rs += sl.count[j] * out->fsdp_rs[j];
			u += sl.count[j];
			dense += sl.count[j] * k.kind_params[j];
		}
		if (sl.embedding)
			ag += out->fsdp_ag_first, rs += out->fsdp_rs_first, u++;
		if (sl.head)
			ag += out->fsdp_ag_last, rs += out->fsdp_rs_last, u++;
		if (calc_memory_terms_stage_params(&k, &sl) > wparams || i == 0) {
			wparams = calc_memory_terms_stage_params(&k, &sl);
			wbytes = wl == wb ? wparams * wb : dense * wl + (wparams - dense) * wb; /* the stage's gathered bytes */
			unit_ag = ag;
			unit_rs = rs;
			units = u;
		}
	}
	x->collective = S < n ? "HSDP per-layer all-gathers + reduce-scatters + replica all-reduces"
	                      : "per-layer all-gathers + reduce-scatters";
	x->count = units * (out->fsdp_gathers + out->fsdp_reduces * (S < n ? 2 : 1));
	x->bytes = calc_coll_factor(CALC_COLL_ALLGATHER, S) *
	                   (wl == wb ? wparams * (out->fsdp_gathers * wb + out->fsdp_reduces * gb)
	                             : out->fsdp_gathers * wbytes + out->fsdp_reduces * wparams * gb) +
	           (S < n ? out->fsdp_reduces * calc_coll_factor(CALC_COLL_ALLREDUCE, rg.size) * wparams * gb / S : 0);
	x->net_bytes = out->fsdp_gathers * calc_coll_net_bytes(CALC_COLL_ALLGATHER, wbytes, &sg) +
	               out->fsdp_reduces * calc_coll_net_bytes(CALC_COLL_REDUCESCATTER, wparams * gb, &sg) +
	               (S < n ? out->fsdp_reduces * calc_coll_net_bytes(CALC_COLL_ALLREDUCE, wparams * gb / S, &rg) : 0);
	x->time = out->fsdp_gathers * unit_ag + out->fsdp_reduces * unit_rs;
}

static int head_dim(const struct calc_model *m)
{
	return m->head_dim > 0 ? m->head_dim : m->heads > 0 ? m->hidden / m->heads : m->hidden;
}

void calc_comm_pre(const struct calc_plan *plan, struct calc_comm_pre *out)
{
	out->dp_memo = NULL;
	out->pr = NULL;
	calc_comm_pre_layers(plan, out);
	calc_comm_pre_groups(plan, out);
}

void calc_comm_pre_layers(const struct calc_plan *plan, struct calc_comm_pre *out)
{
	out->has_all = calc_model_has_kinds(&plan->model);
	out->have_sl = (plan->pp > 0 ? plan->pp : 1) <= CALC_MAX_STAGES;
	calc_stage_layers_all(plan, out->all); /* every stage's layers, read by step.c */
	out->uniform = calc_stage_layers_uniform(plan); /* and which stages can be critical */
	out->heavy = out->uniform ? -1 : calc_stage_layers_heaviest(plan); /* read when not uniform */
	out->worst_layers = worst_layers(plan, out->has_all ? out->all : NULL, &out->tp_share);
	out->place_n = calc_placement_parse(plan->placement, out->place);
}

void calc_comm_pre_groups(const struct calc_plan *plan, struct calc_comm_pre *out)
{
	long st[CALC_DIM_N];
	calc_comm_links(plan, &out->links);
	strides_in(plan, out->place, out->place_n, st);
	for (int d = 0; d < CALC_DIM_N; d++)
		group_of(plan, st, (enum calc_dim)d, &out->group[d]);
	/* all[] holds every stage's layers with or without kinds (have_sl): for a model
	 * without kinds the same struct as calc_stage_layers makes, which grad_params_of
	 * asked for each candidate stage of each item (1.2 % of the instructions of
	 * `trainplan search --plan plans/llama3-405b-h100.ini`, callgrind) */
	out->grad_params = grad_params_of(plan, out->have_sl ? out->all : NULL, out->heavy, out->pr);
	if (plan->model.moe.experts > 0)
		ep_split_of(plan, st, out);
	if (out->dp_memo) /* another split: other links and groups */
		out->dp_memo->n = out->dp_memo->nopt = 0;
}

/* The step's bytes and network bytes over the rows, in calc_comm_with's order. */
static void totals(struct calc_comm *out)
{
	out->bytes_total = out->net_bytes_total = 0;
	for (int d = 0; d < CALC_DIM_N; d++) {
		out->bytes_total += out->dim[d].bytes;
		out->net_bytes_total += out->dim[d].net_bytes;
	}
	out->bytes_total += out->ep.bytes;
	out->net_bytes_total += out->ep.net_bytes;
}

int calc_comm(const struct calc_plan *plan, struct calc_comm *out)
{
	return calc_comm_with(plan, NULL, out);
}

/* The DP row without FSDP over x->group (more than one rank), of 'params' gradients per
 * GPU (the worst stage, every parameter copy): ZeRO §7 -- all-reduce (2 Psi), ZeRO-1
 * reduce-scatter of gradients + all-gather of updated weights (2 Psi), from ZeRO-2 a
 * reduce-scatter per micro-batch, ZeRO-3 two all-gathers of weights per micro-batch
 * (the comment in calc_comm_with says why). */
static void dp_collectives(const struct calc_plan *plan, const struct calc_links *links, int m, double params,
                           struct calc_comm_dim *x, int time_only)
{
	const struct calc_recipe *r = plan->recipe;
	double gb = calc_comm_grad_bytes(plan), wb = r ? calc_recipe_bytes(r, CALC_T_WEIGHT) : 2;
	double G = params * gb, W = params * (wb > 0 ? wb : 2);
	int n = x->group.size;
	struct calc_links own;

	/* 'links': calc_comm_links of the plan, or NULL (computed here); 'time_only': only
	 * x->time is wanted (calc_comm_dp_only), the same number */
	if (!links) {
		calc_comm_links(plan, &own);
		links = &own;
	}
	if (plan->zero == 0) {
		x->time = dp_time_on(plan, links, CALC_COLL_ALLREDUCE, G, &x->group);
		if (time_only)
			return;
		x->collective = "all-reduce";
		x->count = 1;
		x->bytes = calc_coll_factor(CALC_COLL_ALLREDUCE, n) * G;
		x->net_bytes = calc_coll_net_bytes(CALC_COLL_ALLREDUCE, G, &x->group);
	} else {
		double ag = plan->zero >= 3 ? 2.0 * m : 1, rs = plan->zero >= 2 ? m : 1;
		x->time = rs * dp_time_on(plan, links, CALC_COLL_REDUCESCATTER, G, &x->group) +
		          ag * dp_time_on(plan, links, CALC_COLL_ALLGATHER, W, &x->group);
		if (time_only)
			return;
		x->collective = plan->zero >= 3   ? "m reduce-scatters + 2m all-gathers"
		              : plan->zero >= 2 ? "m reduce-scatters + all-gather"
		                                : "reduce-scatter + all-gather";
		x->count = rs + ag;
		x->bytes = calc_coll_factor(CALC_COLL_REDUCESCATTER, n) * (rs * G + ag * W);
		x->net_bytes = rs * calc_coll_net_bytes(CALC_COLL_REDUCESCATTER, G, &x->group) +
		               ag * calc_coll_net_bytes(CALC_COLL_ALLGATHER, W, &x->group);
	}
}

double calc_comm_dp_only(const struct calc_plan *plan, const struct calc_comm_pre *pre, double *grad_params)
{
	struct calc_comm_dim x;
	int m = calc_plan_microbatches(plan);
	if (m < 1)
		m = 1;
	*grad_params = pre->grad_params * calc_pipeline_param_copies(plan);
	if (pre->group[CALC_DIM_DP].size <= 1 || plan->fsdp)
		return 0;
	memset(&x, 0, sizeof x);
	x.group = pre->group[CALC_DIM_DP];
	dp_collectives(plan, &pre->links, m, *grad_params, &x, 1);
	return x.time;
}

/* CP of a hybrid model (model.hybrid_pattern), per layer kind: the attention layers
 * ('*') run parallel.cp_comm's exchange as above; a Mamba-2 layer ('M') runs Megatron-
 * Core's MambaContextParallel whatever cp_comm is (megatron/core/ssm/mamba_context_parallel.py
 * at d98e8a64dd, called from mamba_mixer.py lines 512 and 728).  pre_conv_ssm (lines
 * 140-199) turns the in_proj output [z, x, B, C, dt] from sequence-sharded (s/cp tokens)
 * to head-sharded (all s tokens) with five all-to-alls, one per tensor (calls at lines
 * 162, 165, 187, 190, 193): z and x d_i / t wide, B and C N max(G / t, cp) wide after
 * the group repeat, dt H / t; post_conv_ssm (lines 201-212) turns the scan's output y
 * (d_i / t) back with one.  The all-to-all's autograd is the reverse all-to-all of the
 * same size (mappings.py _AllToAll), so the backward runs six of the same bytes.
 * Nothing overlaps them: the conv1d and scan wait for the input, out_proj for y.  The
 * conv1d needs no halo: every rank holds the whole sequence of its heads.  MLP and MoE
 * layers ('-', 'E') run no CP collective.  The CP row counts the stage with the most CP
 * time, its attention and Mamba layers each with its own; block recomputation's kept
 * layers (skip) in proportion.  docs/references.md §4.11. */
/* The all-to-alls of one pass of a layer whose tensors are w[0..n-1] values wide per token
 * of the rank's 'tok' tokens: time, bytes and network bytes one rank sends. */
static void cp_a2a_set(const double *w, int n, double tok, int cp, const struct calc_group *g,
                       const struct calc_links *l, double *time, double *bytes, double *nbytes)
{
	*time = *bytes = *nbytes = 0;
	for (int i = 0; i < n; i++) {
		double S = tok * w[i] * ACT_BYTES;
		*time += calc_coll_time(CALC_COLL_ALLTOALL, S, g, l);
		*bytes += calc_coll_factor(CALC_COLL_ALLTOALL, cp) * S;
		*nbytes += calc_coll_net_bytes(CALC_COLL_ALLTOALL, S, g);
	}
}

static void cp_hybrid(const struct calc_plan *plan, const struct calc_stage_layers *all, const struct calc_links *l,
                      int cp, int t, int m, double mL, int full, double skip, struct calc_comm *out)
{
	const struct calc_model *md = &plan->model;
	const struct calc_mamba *mx = &md->mamba;
	const struct calc_gdn *gd = &md->gdn;
	struct calc_comm_dim *x = &out->dim[CALC_DIM_CP];
	double b = plan->micro_batch, tok = b * (double)plan->seq_len / cp, di = (double)mx->heads * mx->head_dim;
	double gn = mx->state * calc_cp_mamba_groups(md, t, cp);
	/* Mamba-2: the six tensors' widths per token of one TP rank: z, x, B, C, dt in, y out */
	double w[6] = {di / t, di / t, gn, gn, (double)mx->heads / t, di / t};
	/* gated delta-net (gated_delta_net/gdn.py at d98e8a64dd): a2a_cp_to_hp at line 175
	 * sends the whole in_proj output [q, k, v, z, beta, alpha] in one all-to-all
	 * (common.py lines 819-866, after a head permutation so that one a2a equals one per
	 * section), (2 H_k d_k + 2 H_v d_v + 2 H_v) / t wide; _gated_norm_and_a2a (common.py
	 * lines 347-368, a2a_hp_to_cp lines 869-898) sends the gated norm's output back,
	 * H_v d_v / t wide.  Convention: recompute_norm_out (which repeats the second in the
	 * backward) off. */
	double K = (double)gd->key_heads * gd->key_dim, V = (double)gd->value_heads * gd->value_dim;
	double wg[2] = {(2 * K + 2 * V + 2.0 * gd->value_heads) / t, V / t};
	double ma, mby, mnb, ga, gby, gnb;
	double att_t = out->cp_layer_f + out->cp_layer_b, att_n, att_by, att_nb, worst = -1, na = 0, nm = 0, ng = 0;
	int pp = plan->pp > 0 ? plan->pp : 1, nk = calc_model_nkinds(md), has_m = 0, has_g = 0, has_a[CALC_MAX_KINDS],
	    is_m[CALC_MAX_KINDS], is_g[CALC_MAX_KINDS];

	for (int k = 0; k < nk && k < CALC_MAX_KINDS; k++) {
		struct calc_layer_kind kd;
		int at, ml, mb;
		calc_model_kind(md, k, &kd);
		calc_layer_type_parts(kd.type, &at, &ml, &mb);
		has_a[k] = at;
		is_m[k] = kd.type == CALC_LAYER_MAMBA;
		is_g[k] = kd.type == CALC_LAYER_GDN;
		has_m |= is_m[k];
		has_g |= is_g[k];
	}
	cp_a2a_set(w, has_m ? 6 : 0, tok, cp, &x->group, l, &ma, &mby, &mnb);
	cp_a2a_set(wg, has_g ? 2 : 0, tok, cp, &x->group, l, &ga, &gby, &gnb);
	out->cp_mamba_f = ma;
	out->cp_mamba_b = ma + full * ma;
	out->cp_mamba_bytes = mby;
	out->cp_gdn_f = ga;
	out->cp_gdn_b = ga + full * ga;
	out->cp_gdn_bytes = gby;
	for (int i = 0; i < pp && i < CALC_MAX_STAGES; i++) {
		struct calc_stage_layers sl;
		double a = 0, n = 0, g = 0, c;
		if (all)
			sl = all[i];
		else
			calc_stage_layers(plan, i, &sl);
		for (int k = 0; k < nk && k < CALC_MAX_KINDS; k++)
			a += has_a[k] ? sl.count[k] : 0, n += is_m[k] ? sl.count[k] : 0, g += is_g[k] ? sl.count[k] : 0;
		c = a * att_t + n * (out->cp_mamba_f + out->cp_mamba_b) + g * (out->cp_gdn_f + out->cp_gdn_b);
		if (c > worst)
			worst = c, na = a, nm = n, ng = g;
	}
	/* the attention rows above count every layer of the stage (mL): keep the attention
	 * layers' share of them, add the Mamba and gated delta-net layers' */
	{
		double sc = mL > 0 ? m * na / mL : 0, r = 2 + full - skip;
		out->cp_attn_share = sc;
		out->cp_mamba_share = mL > 0 ? m * nm / mL : 0;
		out->cp_gdn_share = mL > 0 ? m * ng / mL : 0;
		att_n = x->count, att_by = x->bytes, att_nb = x->net_bytes;
		x->count = att_n * sc + m * (nm * 6 + ng * 2) * r;
		x->bytes = att_by * sc + m * (nm * mby + ng * gby) * r;
		x->net_bytes = att_nb * sc + m * (nm * mnb + ng * gnb) * r;
		x->time = x->time * sc + m * nm * (out->cp_mamba_f + out->cp_mamba_b - skip * out->cp_mamba_f) +
		          m * ng * (out->cp_gdn_f + out->cp_gdn_b - skip * out->cp_gdn_f);
	}
	if (has_m)
		x->collective = plan->cp_comm == CALC_CP_ALLGATHER ? "all-gather K,V (attn), all-to-all z,x,B,C,dt + y (Mamba)"
		              : plan->cp_comm == CALC_CP_P2P     ? "ring K,V (attn), all-to-all z,x,B,C,dt + y (Mamba)"
		                                                 : "all-to-all Q,K,V + O (attn), z,x,B,C,dt + y (Mamba)";
	else if (has_g)
		x->collective = plan->cp_comm == CALC_CP_ALLGATHER ? "all-gather K,V (attn), all-to-all qkvzba + out (GDN)"
		              : plan->cp_comm == CALC_CP_P2P     ? "ring K,V (attn), all-to-all qkvzba + out (GDN)"
		                                                 : "all-to-all Q,K,V + O (attn), qkvzba + out (GDN)";
}

/* The PP row of calc_comm_with (its comment there) and out->p2p, from the PP group
 * already in out->dim[CALC_DIM_PP].group: calc_comm_with and calc_comm_resched. */
static void pp_row(const struct calc_plan *plan, const struct calc_links *l, int m, struct calc_comm *out)
{
	struct calc_comm_dim *x = &out->dim[CALC_DIM_PP];
	int t = degree(plan, CALC_DIM_TP), cp = degree(plan, CALC_DIM_CP), pp = degree(plan, CALC_DIM_PP);
	int v = plan->vpp > 0 ? plan->vpp : 1;
	double b = plan->micro_batch, s_loc = (double)plan->seq_len / cp, h = plan->model.hidden;

	if (pp > 1) {
		double S = b * s_loc * h * ACT_BYTES;
		int sp = plan->sp && t > 1, sg = !sp && plan->p2p_scatter_gather && t > 1;
		double send = sp || sg ? S / t : S;
		struct calc_group intra = {t, t, 1, CALC_TIER_NVLINK, 1, 1};
		out->p2p = calc_coll_time(CALC_COLL_P2P, send, &x->group, l) +
		           (sg ? calc_coll_time(CALC_COLL_ALLGATHER, S, &intra, l) : 0);
		x->collective = sp ? "send/recv (SP shard)" : sg ? "send/recv (scatter/gather)" : "send/recv";
		x->count = 2.0 * m * v;
		x->bytes = x->count * send;
		x->net_bytes = x->group.tier != CALC_TIER_NVLINK ? x->bytes : 0;
		x->time = x->count * out->p2p;
	} else
		x->collective = "-";
}

/* The DP row without FSDP of calc_comm_with, out->grad_params set, its group in place
 * and its other fields zero: calc_comm_with, calc_comm_rezero and calc_comm_resched. */
static void dp_row(const struct calc_plan *plan, const struct calc_comm_pre *pre, int m, struct calc_comm *out)
{
	struct calc_comm_dim *x = &out->dim[CALC_DIM_DP];
	struct calc_comm_dp_memo *dm = pre ? pre->dp_memo : NULL;

	if (x->group.size <= 1) {
		x->collective = "-";
		return;
	}
	/* dp_collectives reads of the plan the ZeRO stage, the recipe and the efficiency
	 * keys (the search's own), with the split's links and group, m and the parameters:
	 * a row kept of the same split (pre) with the same stage, m, parameters and recipe
	 * is the same row */
	if (dm)
		for (int i = 0; i < dm->n; i++)
			if (dm->e[i].zero == plan->zero && dm->e[i].m == m && dm->e[i].params == out->grad_params &&
			    dm->e[i].recipe == plan->recipe) {
				*x = dm->e[i].x;
				return;
			}
	dp_collectives(plan, pre ? &pre->links : NULL, m, out->grad_params, x, 0);
	if (dm && dm->n < CALC_COMM_DP_MEMO) {
		dm->e[dm->n].recipe = plan->recipe;
		dm->e[dm->n].zero = plan->zero;
		dm->e[dm->n].m = m;
		dm->e[dm->n].params = out->grad_params;
		dm->e[dm->n++].x = *x;
	}
}

int calc_comm_with(const struct calc_plan *plan, const struct calc_comm_pre *pre, struct calc_comm *out)
{
	struct calc_links l;
	const struct calc_model *md = &plan->model;
	int t = degree(plan, CALC_DIM_TP), cp = degree(plan, CALC_DIM_CP), pp = degree(plan, CALC_DIM_PP);
	int m = calc_plan_microbatches(plan);
	int full = plan->recompute == CALC_RC_FULL, Lst;
	double tp_share = 1;
	double b = plan->micro_batch, s_loc = (double)plan->seq_len / cp, h = md->hidden;
	double mL, skipL;
	struct calc_comm_dim *x;
	/* the layers of every stage, once, for a model with kinds (the loops below are then
	 * O(pp), not O(pp^2): the planner times millions of these) */
	struct calc_stage_layers all_sl[CALC_MAX_STAGES], *all = NULL;

	if (m < 1)
		m = 1;
	memset(out, 0, sizeof *out);
	if (pre) { /* calc_comm_pre of a plan with the same split */
		all = pre->has_all ? (struct calc_stage_layers *)pre->all : NULL;
		Lst = pre->worst_layers;
		tp_share = pre->tp_share;
		l = pre->links;
		for (int d = 0; d < CALC_DIM_N; d++)
			out->dim[d].group = pre->group[d];
	} else {
		long st[CALC_DIM_N];
		if (calc_model_has_kinds(md)) {
			calc_stage_layers_all(plan, all_sl);
			all = all_sl;
		}
		Lst = worst_layers(plan, all, &tp_share);
		calc_comm_links(plan, &l);
		strides(plan, st);
		for (int d = 0; d < CALC_DIM_N; d++)
			group_of(plan, st, (enum calc_dim)d, &out->dim[d].group);
	}
	mL = (double)m * Lst;
	out->cp_attn_share = out->tp_share = 1;
	/* layer passes whose forward full recomputation does not repeat: the layers that
	 * recompute_method = block keeps (calc_recompute_layers); 0 otherwise */
	skipL = full ? mL - (double)m * calc_recompute_layers(plan, Lst) : 0;
	if (md->mtp_depth > 0) {
		/* The stage of the LM head also runs the model.mtp_depth multi-token prediction
		 * blocks (DeepSeek-V3 §2.2), each with one layer's TP and CP collectives and,
		 * under full recomputation, their repeat (step.c mtp_cost charges the block's
		 * whole comm_b): when that stage's passes, (L + D)(4 + 2 full) - 2 skip, exceed
		 * the most loaded stage's, it sizes the rows, which then bound what the step
		 * exposes. */
		struct calc_stage_layers sl;
		double Ll, sk;
		if (all && pp <= CALC_MAX_STAGES)
			sl = all[pp - 1];
		else
			calc_stage_layers(plan, pp - 1, &sl);
		Ll = (double)m * (sl.layers + md->mtp_depth);
		sk = full ? (double)m * (sl.layers - calc_recompute_layers(plan, sl.layers)) : 0;
		if (Ll * (4 + 2 * full) - 2 * sk > mL * (4 + 2 * full) - 2 * skipL)
			mL = Ll, skipL = sk;
	}

	/* TP: Narayanan 2021 §3.2 -- two all-reduces of b*s*h forward, two backward, per
	 * layer per micro-batch; full recomputation repeats the forward two (ZeRO §8) in
	 * the layers it recomputes (skipL: those recompute_method = block keeps).
	 * With SP each all-reduce becomes all-gather + reduce-scatter of equal bus bytes
	 * (Korthikanti 2022 §4.2.2).  SP's extra backward all-gather of the saved norm output
	 * (§4.2.2: overlapped with the input-gradient GEMM) is not counted.  Under a Transformer
	 * Engine quantized recipe each all-gather moves the quantized tensor, Sg = b s h e_q
	 * bytes (tp_gather_bytes), the reduce-scatter S in BF16. */
	x = &out->dim[CALC_DIM_TP];
	if (t > 1) {
		double S = b * s_loc * h * ACT_BYTES, ncoll = 4 + 2 * full;
		double Sg = plan->sp ? b * s_loc * h * tp_gather_bytes(plan) : S;
		double tar = plan->sp ? calc_coll_time(CALC_COLL_ALLGATHER, Sg, &x->group, &l) +
		                            calc_coll_time(CALC_COLL_REDUCESCATTER, S, &x->group, &l)
		                      : calc_coll_time(CALC_COLL_ALLREDUCE, S, &x->group, &l);
		x->collective = plan->sp ? "all-gather + reduce-scatter" : "all-reduce";
		/* all-reduces (or their pairs) per step; a hybrid model's layers one block each */
		double n = (mL * ncoll - 2 * skipL) * tp_share;
		x->count = n * (plan->sp ? 2 : 1);
		x->bytes = plan->sp ? n * (calc_coll_factor(CALC_COLL_ALLGATHER, t) * Sg +
		                           calc_coll_factor(CALC_COLL_REDUCESCATTER, t) * S)
		                    : n * calc_coll_factor(CALC_COLL_ALLREDUCE, t) * S;
		x->net_bytes = plan->sp ? n * (calc_coll_net_bytes(CALC_COLL_ALLGATHER, Sg, &x->group) +
		                               calc_coll_net_bytes(CALC_COLL_REDUCESCATTER, S, &x->group))
		                        : n * calc_coll_net_bytes(CALC_COLL_ALLREDUCE, S, &x->group);
		out->tp_layer_f = 2 * tar;
		out->tp_layer_b = (2 + 2 * full) * tar;
		x->time = (mL * (out->tp_layer_f + out->tp_layer_b) - skipL * out->tp_layer_f) * tp_share;
		out->tp_share = tp_share;
	} else
		x->collective = "-";

	/* CP, by parallel.cp_comm (docs/references.md §4.7).  K = b s 2 g_t d bytes are the
	 * K and V of this TP rank's g_t KV heads over the whole sequence; a rank holds K / cp.
	 *   allgather: all-gather of K forward, reduce-scatter of dK, dV backward (Llama 3
	 *     §3.3.2; TE AttnFuncWithCPAndKVAllGather).  With fewer KV heads than TP ranks each
	 *     rank keeps one (replicated) head.
	 *   p2p: a ring of cp ranks, each step sends the K, V chunk in hand (K / cp) to the
	 *     next rank while attending to it: cp - 1 sends forward; backward K, V and dK, dV
	 *     travel together, 2 (cp - 1) chunks over cp steps (TE AttnFuncWithCPAndKVP2P at
	 *     d0067d0: p2p_comm_buffers of (2, *kv.shape), kv alone in step 0, dkv alone in
	 *     the last; Liu et al. 2023 Ring Attention §3).
	 *   a2a: all-to-all of this rank's Q, K, V (b s/cp d (h_t + 2 g_t)) to heads before
	 *     the attention, and of its output (b s/cp d h_t) back to sequence after it;
	 *     backward the same of dO, dQ, dK, dV (Jacobs et al. 2023 DeepSpeed-Ulysses §3.1:
	 *     4Nh/P per GPU for MHA; TE AttnFuncWithCPAndQKVOA2A).
	 *   a2a+p2p: the a2a over a = cp_a2a_size adjacent CP ranks (b s/cp tokens each), then
	 *     the ring over the cp / a groups with chunks of a s/cp tokens and g_t / a heads:
	 *     K / cp bytes again (TE AttnFuncWithCPAndKVP2P with cp_group = [a2a, p2p]).
	 * Full recomputation repeats the forward's; the ring's sends overlap the attention
	 * core (cp_ring_*, step.c), the all-to-alls are on the critical path. */
	x = &out->dim[CALC_DIM_CP];
	out->cp_ring_f = out->cp_ring_b = 0;
	out->cp_ring_steps = 0;
	out->cp_ring_send1 = out->cp_ring_send2 = 0;
	if (cp > 1 && plan->cp_comm == CALC_CP_ALLGATHER) {
		int kv = md->kv_heads > 0 ? md->kv_heads : md->heads;
		double kvh = (double)kv / t < 1 ? 1 : (double)kv / t;
		double S = b * plan->seq_len * 2 * kvh * head_dim(md) * ACT_BYTES;
		double tag = calc_coll_time(CALC_COLL_ALLGATHER, S, &x->group, &l);
		double trs = calc_coll_time(CALC_COLL_REDUCESCATTER, S, &x->group, &l);
		x->collective = "all-gather K,V + reduce-scatter dK,dV";
		x->count = mL * (2 + full) - skipL;
		x->bytes = x->count * calc_coll_factor(CALC_COLL_ALLGATHER, cp) * S;
		x->net_bytes = x->count * calc_coll_net_bytes(CALC_COLL_ALLGATHER, S, &x->group);
		out->cp_layer_f = tag;
		out->cp_layer_b = trs + full * tag;
		x->time = mL * (out->cp_layer_f + out->cp_layer_b) - skipL * out->cp_layer_f;
	} else if (cp > 1) {
		int kv = md->kv_heads > 0 ? md->kv_heads : md->heads;
		double kvh = (double)kv / t < 1 ? 1 : (double)kv / t, qh = (double)md->heads / t, d = head_dim(md);
		double K = b * plan->seq_len * 2 * kvh * d * ACT_BYTES, chunk = K / cp;
		int a = calc_cp_a2a_group(plan, cp), r = cp / (a > 0 ? a : 1);
		struct calc_group ga = x->group, gr = x->group;
		double f_b = 0, b_b = 0, f_nb = 0, b_nb = 0, f_n = 0, b_n = 0; /* bytes, net bytes, count */
		double a2a_t = 0, ring_f = 0, ring_b = 0;
		if (plan->cp_comm == CALC_CP_A2A_P2P) {
			long st[CALC_DIM_N];
			strides(plan, st);
			strided_group(plan, a, st[CALC_DIM_CP], &ga);
			strided_group(plan, r, st[CALC_DIM_CP] * a, &gr);
		}
		if (a > 1) {
			/* per pass two all-to-alls: Q, K, V in and the output out (backward dO in,
			 * dQ, dK, dV out), the same bytes each way */
			double qkv = b * ((double)plan->seq_len / cp) * d * (qh + 2 * kvh) * ACT_BYTES;
			double o = b * ((double)plan->seq_len / cp) * d * qh * ACT_BYTES;
			a2a_t = calc_coll_time(CALC_COLL_ALLTOALL, qkv, &ga, &l) + calc_coll_time(CALC_COLL_ALLTOALL, o, &ga, &l);
			f_b = calc_coll_factor(CALC_COLL_ALLTOALL, a) * (qkv + o);
			f_nb = calc_coll_net_bytes(CALC_COLL_ALLTOALL, qkv, &ga) + calc_coll_net_bytes(CALC_COLL_ALLTOALL, o, &ga);
			f_n = 2;
			b_b = f_b, b_nb = f_nb, b_n = f_n;
		}
		if (r > 1) {
			double p1 = calc_coll_time(CALC_COLL_P2P, chunk, &gr, &l);
			double p2 = calc_coll_time(CALC_COLL_P2P, 2 * chunk, &gr, &l);
			double nb1 = calc_coll_net_bytes(CALC_COLL_P2P, chunk, &gr);
			ring_f = (r - 1) * p1;
			/* backward: step 0 sends K, V, steps 1 .. r-2 K, V with dK, dV, the last dK, dV */
			ring_b = r > 2 ? 2 * p1 + (r - 2) * p2 : 2 * p1;
			out->cp_ring_steps = r;
			out->cp_ring_send1 = p1;
			out->cp_ring_send2 = p2;
			f_b += (r - 1) * chunk, f_nb += (r - 1) * nb1, f_n += r - 1;
			b_b += 2.0 * (r - 1) * chunk, b_nb += 2.0 * (r - 1) * nb1, b_n += r;
		}
		x->collective = plan->cp_comm == CALC_CP_P2P ? "ring send/recv K,V (dK,dV)"
		              : plan->cp_comm == CALC_CP_A2A ? "all-to-all Q,K,V + O"
		                                             : "all-to-all Q,K,V + O, ring send/recv K,V (dK,dV)";
		out->cp_layer_f = a2a_t + ring_f;
		out->cp_layer_b = a2a_t + ring_b + full * (a2a_t + ring_f);
		out->cp_ring_f = ring_f;
		out->cp_ring_b = ring_b + full * ring_f;
		x->count = mL * (f_n + b_n + full * f_n) - skipL * f_n;
		x->bytes = mL * (f_b + b_b + full * f_b) - skipL * f_b;
		x->net_bytes = mL * (f_nb + b_nb + full * f_nb) - skipL * f_nb;
		x->time = mL * (out->cp_layer_f + out->cp_layer_b) - skipL * out->cp_layer_f;
	} else
		x->collective = "-";
	if (cp > 1 && calc_model_is_hybrid(md))
		cp_hybrid(plan, all, &l, cp, t, m, mL, full, mL > 0 ? skipL / mL : 0, out);

	/* PP: b*s*h per boundary per micro-batch each way (Narayanan 2021 §3.2), v times with
	 * interleaving (§2.2.2).  With sequence parallelism the stage output is already
	 * sharded over the TP ranks (Korthikanti 2022 §4.2.2): each rank sends its b*s*h/t
	 * slice and the next stage keeps it sharded, no gather.  Without SP the
	 * scatter/gather optimisation sends 1/t over the link and all-gathers on NVLink
	 * (Narayanan 2021 §4.1).  A stage in the middle sends activations forward and
	 * gradients back. */
	pp_row(plan, &l, m, out);

	/* DP over DP x CP ranks: ZeRO §7 -- all-reduce (2 Psi), ZeRO-1 reduce-scatter of
	 * gradients + all-gather of updated weights (2 Psi), ZeRO-3 one more all-gather of
	 * weights, both gathers every micro-batch (3 Psi for m = 1).  From ZeRO-2 on a rank
	 * keeps only its shard of the gradients (ZeRO §5.2), so each micro-batch's gradients
	 * are reduce-scattered into the shard before the next micro-batch accumulates:
	 * m reduce-scatters per step instead of one (DeepSpeed refuses ZeRO >= 2 with
	 * pipeline parallelism for this reason).  Gradients travel at the recipe's gradient
	 * precision (Megatron reduces FP32 main grads; FP8-LM §3.2.2) unless
	 * efficiency.grad_reduce names another.  With parallel.fsdp the collectives run per
	 * FSDP unit (fsdp_units below). */
	x = &out->dim[CALC_DIM_DP];
	out->grad_params = (pre ? pre->grad_params : grad_params(plan, all)) * calc_pipeline_param_copies(plan);
	if (x->group.size > 1 && plan->fsdp)
		fsdp_units(plan, m, x, out);
	else
		dp_row(plan, pre, m, out);

	comm_experts(plan, m, all, pre, out);
	totals(out);
	return 0;
}

void calc_comm_rezero(const struct calc_plan *plan, const struct calc_comm_pre *pre, struct calc_comm *out)
{
	struct calc_comm_dim *x = &out->dim[CALC_DIM_DP];
	struct calc_group g = x->group;
	int m = calc_plan_microbatches(plan);

	/* Of calc_comm_with's rows only dp_collectives and edp_reduce read plan->zero, and
	 * neither under parallel.fsdp (fsdp_units reads no ZeRO stage, edp_reduce takes 3) */
	if (plan->fsdp)
		return;
	if (m < 1)
		m = 1;
	/* the DP row as calc_comm_with leaves it before comm_experts adds the expert-DP
	 * reduction: zero, its group, then dp_collectives (grad_params, edp_params and
	 * edp_group do not read the ZeRO stage) */
	memset(x, 0, sizeof *x);
	x->group = g;
	out->edp_bytes = out->edp_time = 0;
	dp_row(plan, pre, m, out);
	if (plan->model.moe.experts > 0) /* comm_experts returns before edp_reduce without */
		edp_reduce(plan, m, out);
	totals(out);
}

int calc_comm_resched_applies(const struct calc_plan *plan, const struct calc_comm_pre *pre)
{
	/* recompute_method = block recomputes the first N layers of each of the vpp chunks
	 * (calc_recompute_layers), which the TP, CP and EP rows read under full
	 * recomputation; fsdp_units is not re-timed here */
	return pre && !plan->fsdp && !(plan->recompute == CALC_RC_FULL && plan->recompute_method == CALC_RC_METHOD_BLOCK);
}

void calc_comm_resched(const struct calc_plan *plan, const struct calc_comm_pre *pre, struct calc_comm *out)
{
	struct calc_comm_dim *y = &out->dim[CALC_DIM_PP];
	struct calc_group gp = y->group;
	int m = calc_plan_microbatches(plan);

	/* Of calc_comm_with's rows, the schedule and vpp are read by the PP row (v sends
	 * per micro-batch each way) and, through calc_pipeline_param_copies (DualPipe's two
	 * copies of the parameters), by the DP row's gradients and the expert-DP reduction's
	 * parameters; the ZeRO stage by the DP row and the expert-DP reduction alone
	 * (calc_comm_rezero).  Everything else reads the split, the recomputation and SP,
	 * which the caller keeps (calc_comm_resched_applies: the recomputed layers read vpp
	 * only under recompute_method = block).  Each row is cleared and computed by the
	 * code calc_comm_with runs, in its order: the PP row, then the parameters the DP row
	 * and comm_experts's tail read, then those two rows as the ZeRO re-timing does. */
	if (m < 1)
		m = 1;
	memset(y, 0, sizeof *y);
	y->group = gp;
	out->p2p = 0;
	pp_row(plan, &pre->links, m, out);
	out->grad_params = pre->grad_params * calc_pipeline_param_copies(plan);
	if (plan->model.moe.experts > 0)
		out->edp_params = pre->edp_params1 * calc_pipeline_param_copies(plan);
	calc_comm_rezero(plan, pre, out);
}

/* ------------------------------------------------------------------ expert parallelism */

/* GPUs of one pipeline stage inside one node: a node of G GPUs holds GPUs of
 * members_in_node(pp, stride of PP) stages, G / that of each (parallel.placement). */
static int stage_gpus_in(const struct calc_plan *p, const long st[CALC_DIM_N])
{
	int G = p->gpus_per_node > 0 ? p->gpus_per_node : 1,
	    n = members_in_node(degree(p, CALC_DIM_PP), st[CALC_DIM_PP], G);
	return n > 0 && G / n > 0 ? G / n : 1;
}

/* stage_gpus_in with the plan's strides. */
static int stage_gpus_in_node(const struct calc_plan *p)
{
	long st[CALC_DIM_N];
	strides(p, st);
	return stage_gpus_in(p, st);
}

/* MoE layers of the stage whose all-to-all passes are the most; *rcs: the share of
 * them that full recomputation repeats (0 without it).  A stage of n MoE layers among
 * L runs n (4 + 2 r) dispatches and combines per micro-batch, r = the share
 * calc_recompute_layers gives its L layers (the MoE layers alike, as step.c counts the
 * recomputed work).  The stage that holds the LM head also runs the model.mtp_depth
 * multi-token prediction blocks of calc_model_mtp_kind's kind (DeepSeek-V3 §2.2), each
 * recomputed in full under full recomputation, whose dispatch and combine step.c's
 * mtp_cost charges: an MoE block counts here too, so the EP row's time bounds what the
 * step exposes of it. */
static int worst_moe_layers(const struct calc_plan *p, const struct calc_stage_layers *all,
                            const struct calc_comm_pre *pre, double *rcs)
{
	int moe = 0, pp = p->pp > 0 ? p->pp : 1, nk = calc_model_nkinds(&p->model), is_moe[CALC_MAX_KINDS];
	int mtp = 0, full = p->recompute == CALC_RC_FULL;
	/* module recomputation of the MoE block (Megatron-Core recompute_modules "moe") runs
	 * the whole block's forward again in the backward, its dispatch and combine included:
	 * MoELayer.forward checkpoints custom_forward, which routes, dispatches, computes and
	 * combines (megatron/core/transformer/moe/moe_layer.py at 2d1fa8d37 and d98e8a64) */
	int rmoe = (calc_recompute_modules(p->recompute, p->recompute_modules) & CALC_RCM_MOE) != 0;
	double best = -1;
	if (pre) { /* ep_split_of's, of the same model */
		for (int j = 0; j < nk; j++)
			is_moe[j] = pre->moe_kinds >> j & 1;
		mtp = pre->mtp_moe;
	} else {
		for (int j = 0; j < nk; j++) {
			struct calc_layer_kind kd;
			calc_model_kind(&p->model, j, &kd);
			is_moe[j] = calc_layer_type_is_moe(kd.type);
		}
		if (p->model.mtp_depth > 0 && is_moe[calc_model_mtp_kind(&p->model)])
			mtp = p->model.mtp_depth;
	}
	*rcs = 0;
	if (pre && pre->moe_nst >= 0) {
		/* the distinct stages in order (ep_split_of): the first with the most passes is
		 * the first stage with the most, the passes reading nothing else of a stage */
		for (int i = 0; i < pre->moe_nst; i++) {
			int n = pre->moe_st[i][0], d = pre->moe_st[i][1], layers = pre->moe_st[i][2];
			double r, passes;
			if (n + d <= 0)
				continue;
			r = full && layers > 0 ? calc_recompute_layers(p, layers) / layers : rmoe;
			passes = n * (4 + 2 * r) + d * (4 + 2 * (full || rmoe));
			if (passes > best) {
				best = passes;
				moe = n + d;
				*rcs = (passes - 4.0 * moe) / (2.0 * moe);
			}
		}
		return moe;
	}
	for (int i = 0; i < pp && i < CALC_MAX_STAGES; i++) {
		struct calc_stage_layers sl;
		int n = 0, d;
		double r, passes;
		if (all)
			sl = all[i];
		else
			calc_stage_layers(p, i, &sl);
		for (int j = 0; j < nk; j++)
			if (is_moe[j])
				n += sl.count[j];
		d = sl.head ? mtp : 0;
		if (n + d <= 0)
			continue;
		r = full && sl.layers > 0 ? calc_recompute_layers(p, sl.layers) / sl.layers : rmoe;
		passes = n * (4 + 2 * r) + d * (4 + 2 * (full || rmoe));
		if (passes > best) {
			best = passes;
			moe = n + d;
			*rcs = (passes - 4.0 * moe) / (2.0 * moe);
		}
	}
	return moe;
}

/*
 * Where the expert ranks sit: with an ep token in parallel.placement, as Megatron-Core's
 * expert RankGenerator places them (expert_strides: the EP group at its stride in the
 * order with etp for tp, 1 for cp and edp for dp, so Megatron-Core's default
 * tp-cp-ep-dp-pp puts EP right outside ETP and inside the expert-DP ranks); without one,
 * a stage's GPUs in rank order, etp innermost, then ep, then edp, of which a node holds
 * what parallel.placement gives it (with pipeline stages outermost, tp-cp-dp-pp, one
 * stage's GPUs; with tp-cp-pp-dp and tp cp < a node, several stages).
 * Each of the T = s b / (cp r) tokens of a GPU (r = t with sequence parallelism) goes
 * to k experts spread uniformly over the ep ranks; its copies to the other per_node - 1
 * ranks of the node cross NVLink, k (N - 1) / N of them (at most M with node-limited
 * routing, DeepSeek-V3 §3.2.2: one network send per target node, forwarded over
 * NVLink there) cross the network, N = nodes of the EP group.  The combine returns
 * as many bytes; backward repeats both, and full recomputation once more in the layers
 * it recomputes (with recompute_method = block the stage's share calc_recompute_layers
 * gives, the MoE layers alike, as step.c counts the recomputed work).  Element
 * bytes: the recipe's activation size.  Time per all-to-all: (ep - 1) steps of latency
 * plus each tier's bytes over its bandwidth (calc_links).  ETP: an all-gather of the
 * k T etp received copies over the etp ranks (innermost, inside a node) before the
 * expert GEMMs and a reduce-scatter of as many after them, forward and backward.
 * Stage of the most MoE layers.
 */
static void comm_ep(const struct calc_plan *p, const struct calc_stage_layers *all, const struct calc_comm_pre *pre,
                    struct calc_ep_comm *o);

void calc_comm_ep(const struct calc_plan *p, struct calc_ep_comm *o)
{
	comm_ep(p, NULL, NULL, o);
}

/* calc_comm_ep with the stages' layers 'all' (NULL: looked up) and what ep_split_of
 * keeps of the split in 'pre' (NULL: computed here). */
static void comm_ep(const struct calc_plan *p, const struct calc_stage_layers *all, const struct calc_comm_pre *pre,
                    struct calc_ep_comm *o)
{
	const struct calc_moe *x = &p->model.moe;
	struct calc_links l;
	int ep = p->ep > 0 ? p->ep : 1, etp = p->etp > 0 ? p->etp : 1, moe, m = calc_plan_microbatches(p);
	double e = p->recipe ? p->recipe->act_bytes : 2, r = p->sp ? p->tp : 1, k = x->top_k;
	double T = (double)p->seq_len / (p->cp > 0 ? p->cp : 1) * p->micro_batch / r, h = p->model.hidden;
	double nvl, net, per_layer, passes;
	int placed;
	long s_etp = 1, s_ep = 1, s_edp = 1;

	memset(o, 0, sizeof *o);
	if (m < 1)
		m = 1;
	if (x->experts <= 0 || (ep <= 1 && etp <= 1))
		return;
	moe = o->moe_layers = worst_moe_layers(p, all, pre, &o->rc_share);
	if (pre) {
		placed = pre->ex_placed;
		s_etp = pre->s_etp, s_ep = pre->s_ep, s_edp = pre->s_edp;
	} else
		placed = expert_strides(p, &s_etp, &s_ep, &s_edp) == 0;
	/* all-to-all passes per MoE layer: dispatch + combine of the forward and of the
	 * backward, and of the recomputed forward in the recomputed share of the layers (1
	 * but with recompute_method = block, which recomputes only the first N of a chunk) */
	passes = 4 + 2 * o->rc_share;
	if (pre)
		l = pre->links;
	else
		calc_comm_links(p, &l);
	if (etp > 1) {
		int G = pre ? pre->stage_gpus : stage_gpus_in_node(p);
		struct calc_group g = {etp, etp < G ? etp : G, 1, CALC_TIER_NVLINK, 1, 1};
		if (placed)
			g.per_node = members_in_node(etp, s_etp, p->gpus_per_node > 0 ? p->gpus_per_node : 1);
		double S = k * T * etp * h * e; /* the gathered copies of one ETP group */
		g.nodes = (etp + g.per_node - 1) / g.per_node;
		g.tier = g.nodes > 1 ? CALC_TIER_NET : CALC_TIER_NVLINK;
		o->etp_coll = calc_coll_time(CALC_COLL_ALLGATHER, S, &g, &l);
		o->etp_bytes = passes * moe * m * calc_coll_factor(CALC_COLL_ALLGATHER, etp) * S;
		o->etp_time = passes * moe * m * o->etp_coll;
	}
	if (ep <= 1)
		return;
	if (placed) /* the EP group at its stride in Megatron-Core's expert rank order */
		o->per_node = members_in_node(ep, s_ep, p->gpus_per_node > 0 ? p->gpus_per_node : 1);
	else
	{
		int G = pre ? pre->stage_gpus : stage_gpus_in_node(p);
		o->per_node = G / etp < ep ? G / etp : ep;
	}
	if (o->per_node < 1)
		o->per_node = 1;
	o->nodes = (ep + o->per_node - 1) / o->per_node;
	per_layer = passes * T * h * e; /* dispatch + combine, forward + backward, per copy */
	if (p->moe_dispatcher == CALC_DISP_ALLGATHER) {
		/* Megatron-Core MoEAllGatherTokenDispatcher (token_dispatcher.py at commit d98e8a6):
		 * the T tokens of every EP rank all-gathered, each rank keeps those its experts take,
		 * and the combine reduce-scatters the outputs back: an all-gather and a
		 * reduce-scatter of the ep T h e gathered array per layer and pass, k not entering
		 * (ring bus bytes (ep - 1)/ep of it, docs/references.md §4.5) */
		struct calc_group g = {ep, o->per_node, o->nodes, o->nodes > 1 ? CALC_TIER_NET : CALC_TIER_NVLINK, 1, 1};
		double S = ep * T * h * e, net1 = calc_coll_net_bytes(CALC_COLL_ALLGATHER, S, &g);
		double all1 = calc_coll_factor(CALC_COLL_ALLGATHER, ep) * S;
		o->net_bytes = passes / 2 * moe * m * 2 * net1;
		o->nvl_bytes = passes / 2 * moe * m * 2 * (all1 - net1);
		o->bytes = o->nvl_bytes + o->net_bytes;
		o->a2a = (calc_coll_time(CALC_COLL_ALLGATHER, S, &g, &l) + calc_coll_time(CALC_COLL_REDUCESCATTER, S, &g, &l)) / 2;
		o->time = passes * moe * m * o->a2a;
		return;
	}
	if (p->moe_dispatcher == CALC_DISP_DEEPEP || p->moe_dispatcher == CALC_DISP_HYBRIDEP) {
		/* DeepEP's normal kernels (DeepSeek-V3 §3.2.2; deepseek-ai/DeepEP README): a token
		 * crosses the network once per target node, to the GPU of its own local rank there,
		 * which forwards it over NVLink to the target GPUs of that node; inside the own
		 * node, one copy per target GPU.  With the k experts uniform over the E (over the M
		 * nodes node-limited routing allows, E M / N experts then), the expected number
		 * of distinct targets among n groups of E/n experts each is
		 * n (1 - C(E - E/n, k) / C(E, k)) (hypergeometric: the chance a group gets none);
		 * a target GPU's copy crosses NVLink unless it is the receiving GPU itself, 1 in
		 * per_node, so NVLink carries G (g - 1)/g copies and the network D (N - 1)/N
		 * (derived).  HybridEP moves the same bytes (Megatron-Core MoE README, the flex
		 * dispatcher's backends). */
		double N = o->nodes, g = o->per_node, M = x->node_limit > 0 && x->node_limit < N ? x->node_limit : N;
		double Ex = x->experts * M / N, ranks = g * M;
		double G = ranks * (1 - calc_moe_none_share(Ex, Ex / ranks, k));
		double D = M * (1 - calc_moe_none_share(Ex, Ex / M, k));
		nvl = G * (g - 1) / g;
		net = N > 1 ? D * (N - 1) / N : 0;
	} else {
		/* Megatron-Core MoEAlltoAllTokenDispatcher: one copy per routed expert to its rank,
		 * k per token whatever the node limit (the all-to-all's input splits count a
		 * token once per expert, token_dispatcher.py at commit d98e8a6) */
		nvl = k * (o->per_node - 1) / ep;
		net = o->nodes > 1 ? k * (o->nodes - 1.0) / o->nodes : 0;
	}
	o->nvl_bytes = per_layer * nvl * moe * m;
	o->net_bytes = per_layer * net * moe * m;
	o->bytes = o->nvl_bytes + o->net_bytes;
	if (p->moe_dispatcher == CALC_DISP_ALLTOALL)
		o->a2a = (ep - 1) * (o->nodes > 1 ? l.inter_lat : l.intra_lat) + T * h * e * nvl / l.intra_busbw +
		         T * h * e * net / l.inter_bw;
	else {
		/* DeepEP forwards over NVLink while the network sends arrive (its normal kernels
		 * pipeline the two domains, deepseek-ai/DeepEP README): the slower tier sets the
		 * time, after one latency per tier */
		double tn = T * h * e * nvl / l.intra_busbw, tr = T * h * e * net / l.inter_bw;
		o->a2a = (o->nodes > 1 ? l.inter_lat : 0) + l.intra_lat + (tn > tr ? tn : tr);
	}
	o->time = passes * moe * m * o->a2a;
}

double calc_moe_none_share(double E, double n, double k)
{
	double r = 1;
	/* C(E - n, k) / C(E, k) = prod_{i < k} (E - n - i) / (E - i) */
	for (int i = 0; i < k && i < 65536; i++) {
		if (E - n - i <= 0)
			return 0;
		r *= (E - n - i) / (E - i);
	}
	return r;
}

/*
 * The EP row and the expert-DP gradient reduction of calc_comm.  The routed experts'
 * gradients are reduced over the expert-DP group -- the edp ranks that hold the same
 * experts, laid out after the etp x ep ranks of one expert group -- with the DP
 * row's collectives (all-reduce, or ZeRO's reduce-scatter + all-gather over edp,
 * Megatron-Core's expert distributed optimizer), sized by the routed-expert
 * parameters one GPU of the worst stage holds.
 */
static void comm_experts(const struct calc_plan *plan, int m, const struct calc_stage_layers *all,
                         const struct calc_comm_pre *pre, struct calc_comm *out)
{
	struct calc_ep_comm e;
	struct calc_comm_dim *x = &out->ep;
	/* the backward repeats the forward's dispatch and combine under full recomputation
	 * and with the MoE block recomputed as a module (worst_moe_layers) */
	int refwd = plan->recompute == CALC_RC_FULL ||
	            (calc_recompute_modules(plan->recompute, plan->recompute_modules) & CALC_RCM_MOE);

	x->collective = "-";
	out->edp_group = (struct calc_group){1, 1, 1, CALC_TIER_NVLINK, 1, 1};
	if (plan->model.moe.experts <= 0)
		return;
	comm_ep(plan, all, pre, &e);
	x->group.size = plan->ep > 0 ? plan->ep : 1;
	x->group.per_node = e.per_node > 0 ? e.per_node : 1;
	x->group.nodes = e.nodes > 0 ? e.nodes : 1;
	x->group.tier = x->group.nodes > 1 ? CALC_TIER_NET : CALC_TIER_NVLINK;
	if (e.bytes > 0 || e.etp_bytes > 0) {
		x->collective = e.etp_bytes > 0 && e.bytes > 0 ? "all-to-all + ETP all-gather/reduce-scatter"
		              : e.bytes > 0                     ? "all-to-all dispatch + combine"
		                                                : "ETP all-gather + reduce-scatter";
		x->count = (double)m * e.moe_layers * (4 + 2 * e.rc_share) * ((e.bytes > 0) + (e.etp_bytes > 0));
		x->bytes = e.bytes + e.etp_bytes;
		x->net_bytes = e.net_bytes;
		x->time = e.time + e.etp_time;
		out->ep_nvl_bytes = e.nvl_bytes;
		/* per layer; a layer that recompute_method = block keeps pays ep_layer_b less
		 * ep_layer_f (step.c) */
		out->ep_layer_f = 2 * e.a2a + 2 * e.etp_coll;
		out->ep_layer_b = (2 + 2 * refwd) * (e.a2a + e.etp_coll);
	}
	if (pre) { /* ep_split_of's, of the same split */
		out->edp_group = pre->edp_group;
		out->edp_params = pre->edp_params1;
	} else
		ep_split(plan, NULL, all, &out->edp_group, &out->edp_params);
	out->edp_params *= calc_pipeline_param_copies(plan);
	edp_reduce(plan, m, out);
}

/* What comm_experts reads of the split alone: the expert-DP group, and the routed-expert
 * parameters of one GPU of the stage with the most, one copy ('all': the stages' layers,
 * or NULL: looked up; 'pre': NULL, or the split's calc_comm_pre whose stage_gpus, ex_placed,
 * s_edp and pr ep_split_of has set, read instead of computing them again). */
static void ep_split(const struct calc_plan *plan, const struct calc_comm_pre *pre, const struct calc_stage_layers *all,
                     struct calc_group *edp_group, double *edp_params)
{
	int edp = plan->edp > 0 ? plan->edp : 1, G = pre ? pre->stage_gpus : stage_gpus_in_node(plan);
	int inner = (plan->ep > 0 ? plan->ep : 1) * (plan->etp > 0 ? plan->etp : 1);

	*edp_group = (struct calc_group){1, 1, 1, CALC_TIER_NVLINK, 1, 1};
	*edp_params = 0;
	/* the expert-DP group: at its stride in the expert order, or (no ep token) stride ep x
	 * etp, consecutive expert groups inside a node */
	edp_group->size = edp;
	{
		long s_etp, s_ep, s_edp;
		int placed = pre ? pre->ex_placed : expert_strides(plan, &s_etp, &s_ep, &s_edp) == 0;
		if (pre)
			s_edp = pre->s_edp;
		if (placed) /* Megatron-Core's expert order */
			edp_group->per_node = members_in_node(edp, s_edp, plan->gpus_per_node > 0 ? plan->gpus_per_node : 1);
		else
			edp_group->per_node = inner >= G ? 1 : (G / inner < edp ? G / inner : edp);
	}
	edp_group->nodes = (edp + edp_group->per_node - 1) / edp_group->per_node;
	edp_group->tier = edp_group->nodes > 1 ? CALC_TIER_NET : CALC_TIER_NVLINK;
	{
		struct calc_params own;
		const struct calc_params *pr = pre ? pre->pr : NULL;
		struct calc_mem_terms k;
		int pp = plan->pp > 0 ? plan->pp : 1;
		if (!pr) {
			calc_model_params(&plan->model, &own);
			pr = &own;
		}
		calc_memory_terms_params(plan, pr, &k);
		for (int i = 0; i < pp && i < CALC_MAX_STAGES; i++) {
			struct calc_stage_layers sl;
			double n;
			if (all)
				sl = all[i];
			else
				calc_stage_layers(plan, i, &sl);
			n = calc_memory_terms_stage_experts(&k, &sl);
			if (n > *edp_params)
				*edp_params = n;
		}
	}
}

/* ep_split and the rest of what the EP rows read of the split alone, into 'out' (whose
 * stages' layers calc_comm_pre_layers has set). */
static void ep_split_of(const struct calc_plan *plan, const long st[CALC_DIM_N], struct calc_comm_pre *out)
{
	const struct calc_model *md = &plan->model;
	int nk = calc_model_nkinds(md);

	out->moe_kinds = 0;
	for (int j = 0; j < nk; j++) {
		struct calc_layer_kind kd;
		calc_model_kind(md, j, &kd);
		if (calc_layer_type_is_moe(kd.type))
			out->moe_kinds |= 1u << j;
	}
	out->mtp_moe = md->mtp_depth > 0 && (out->moe_kinds >> calc_model_mtp_kind(md) & 1) ? md->mtp_depth : 0;
	out->stage_gpus = stage_gpus_in(plan, st);
	out->s_etp = out->s_ep = out->s_edp = 1;
	out->ex_placed = expert_strides_in(plan, out->place, out->place_n, &out->s_etp, &out->s_ep, &out->s_edp) == 0;
	ep_split(plan, out, out->has_all ? out->all : NULL, &out->edp_group, &out->edp_params1);
	out->moe_nst = 0;
	for (int i = 0; i < (plan->pp > 0 ? plan->pp : 1) && i < CALC_MAX_STAGES && out->moe_nst >= 0; i++) {
		struct calc_stage_layers sl;
		int n = 0, d, k;
		if (out->has_all)
			sl = out->all[i];
		else
			calc_stage_layers(plan, i, &sl);
		for (int j = 0; j < nk; j++)
			if (out->moe_kinds >> j & 1)
				n += sl.count[j];
		d = sl.head ? out->mtp_moe : 0;
		for (k = 0; k < out->moe_nst; k++)
			if (out->moe_st[k][0] == n && out->moe_st[k][1] == d && out->moe_st[k][2] == sl.layers)
				break;
		if (k < out->moe_nst)
			continue;
		if (out->moe_nst == CALC_MOE_STAGE_KINDS) {
			out->moe_nst = -1; /* worst_moe_layers walks the stages */
			break;
		}
		out->moe_st[k][0] = n, out->moe_st[k][1] = d, out->moe_st[k][2] = sl.layers;
		out->moe_nst++;
	}
}

/* The expert-DP gradient reduction of comm_experts over out->edp_group, sized by
 * out->edp_params (both set there): its bytes and time, added to the DP row.  The only
 * part of the EP rows that reads the ZeRO stage (calc_comm_rezero). */
static void edp_reduce(const struct calc_plan *plan, int m, struct calc_comm *out)
{
	struct calc_comm_dim *dp = &out->dim[CALC_DIM_DP];
	const struct calc_recipe *r = plan->recipe;
	const struct calc_group *g = &out->edp_group;
	int edp = plan->edp > 0 ? plan->edp : 1;
	double gb = calc_comm_grad_bytes(plan), wb = r ? calc_recipe_bytes(r, CALC_T_WEIGHT) : 2;
	double G_ = out->edp_params * gb, W_ = out->edp_params * (wb > 0 ? wb : 2);

	if (edp <= 1)
		return;
	if (plan->zero == 0 && !plan->fsdp) {
		out->edp_bytes = calc_coll_factor(CALC_COLL_ALLREDUCE, edp) * G_;
		dp->net_bytes += calc_coll_net_bytes(CALC_COLL_ALLREDUCE, G_, g);
		out->edp_time = calc_comm_dp_time(plan, CALC_COLL_ALLREDUCE, G_, g);
		dp->count += 1;
	} else {
		int z = plan->fsdp ? 3 : plan->zero;
		double ag = z >= 3 ? 2.0 * m : 1, rs = z >= 2 ? m : 1;
		out->edp_bytes = calc_coll_factor(CALC_COLL_REDUCESCATTER, edp) * (rs * G_ + ag * W_);
		dp->net_bytes += rs * calc_coll_net_bytes(CALC_COLL_REDUCESCATTER, G_, g) +
		                 ag * calc_coll_net_bytes(CALC_COLL_ALLGATHER, W_, g);
		out->edp_time = rs * calc_comm_dp_time(plan, CALC_COLL_REDUCESCATTER, G_, g) +
		                ag * calc_comm_dp_time(plan, CALC_COLL_ALLGATHER, W_, g);
		dp->count += rs + ag;
	}
	dp->bytes += out->edp_bytes;
	dp->time += out->edp_time;
	if (!dp->collective || !strcmp(dp->collective, "-"))
		dp->collective = "expert-DP reduction";
}