/*
 * comm.h -- public interface of comm.c: collectives over network tiers and the bytes
 * each GPU moves per step for every kind of parallelism.
 *
 * Two tiers, NVLink inside a node and the network (InfiniBand/RoCE) across nodes, and a
 * third, the spine, when cluster.nodes_per_leaf groups the nodes under leaf switches of
 * a rail-optimized fat tree (docs/references.md §4.6).
 * Collectives use the alpha-beta cost with NCCL's bus-bandwidth factors
 * (docs/references.md §4.5); volumes follow docs/references.md §4.
 */
#ifndef CALC_COMM_H
#define CALC_COMM_H

#include "bounds.h"
#include "model.h"
#include "plan.h"

enum calc_tier { CALC_TIER_NVLINK, CALC_TIER_NET, CALC_TIER_SPINE };

enum calc_coll {
	CALC_COLL_ALLREDUCE,
	CALC_COLL_ALLGATHER,
	CALC_COLL_REDUCESCATTER,
	CALC_COLL_ALLTOALL,
	CALC_COLL_P2P, /* one send of the whole message to one peer */
};

/* The parallel dimensions, in the order of the `trainplan comm` table. */
enum calc_dim { CALC_DIM_TP, CALC_DIM_CP, CALC_DIM_PP, CALC_DIM_DP, CALC_DIM_N };

const char *calc_tier_name(enum calc_tier t); /* "NVLink", "network", "spine" */
const char *calc_dim_name(enum calc_dim d);   /* "TP", "CP", "PP", "DP" */

/*
 * NCCL bus-bandwidth factor of collective 'k' over 'n' ranks: the bytes each rank
 * sends, as a multiple of the message size S (for all-gather and reduce-scatter S is
 * the total array, recvcount * n).  All-reduce 2(n-1)/n, all-gather, reduce-scatter
 * and all-to-all (n-1)/n, point-to-point 1; 0 for n <= 1 except point-to-point.
 */
double calc_coll_factor(enum calc_coll k, int n);

/*
 * Time [s] of one flat ring collective of 'bytes' (S as above) over 'n' ranks on one
 * tier with bus bandwidth 'busbw' [bytes/s] and per-step latency 'lat' [s]:
 * steps * lat + factor * S / busbw, with 2(n-1) steps for all-reduce, n-1 for
 * all-gather, reduce-scatter and all-to-all, 1 for point-to-point.  0 when n <= 1
 * (except point-to-point).
 */
double calc_coll_flat(enum calc_coll k, double bytes, int n, double busbw, double lat);

/* A communication group laid out on the cluster. */
struct calc_group {
	int size;            /* ranks in the group */
	int per_node;        /* ranks of the group inside one node (g) */
	int nodes;           /* nodes the group spans (N = ceil(size / g)) */
	enum calc_tier tier; /* NVLink when the group fits in a node, network when it fits in a
	                        leaf, else spine */
	int leaves;          /* leaves the group spans (0 or 1: one) */
	int leaf_nodes;      /* nodes of the group under one leaf (when leaves > 1) */
};

/* The links a plan's cluster offers, as the time model uses them.  calc_comm_links
 * fills them from the plan: NVLink at intra_node_busbw (intra_node_bw when that is 0),
 * the network at inter_node_bw * inter_node_eff; a missing bandwidth counts as free. */
struct calc_links {
	double intra_busbw; /* NVLink NCCL bus bandwidth per GPU [bytes/s] */
	double intra_lat;   /* per ring step inside a node [s] */
	double inter_bw;    /* network bandwidth per GPU per direction achieved (bw * eff) [bytes/s] */
	double inter_lat;   /* per ring step across nodes [s] */
	double spine_bw;    /* per GPU across leaves: inter_bw / cluster.oversubscription [bytes/s] */
	double spine_lat;   /* per ring step across leaves [s] */
};
void calc_comm_links(const struct calc_plan *plan, struct calc_links *out);

/*
 * Time [s] of collective 'k' of 'bytes' over group 'g'.  Inside a node: flat ring on
 * NVLink.  Across nodes with g ranks per node: hierarchical -- reduce-scatter inside
 * the node, the collective on the 1/g shard across the N nodes (each GPU on its own
 * NIC), all-gather inside the node (docs/references.md §6, derived bound (b)); with g = 1
 * a flat ring on the network.  Point-to-point across nodes uses one NIC.  A group over
 * L > 1 leaves of n_l of its nodes each adds a level: the network step runs inside each
 * leaf (reduce-scatter / all-gather over n_l nodes) and the collective on the 1/(g n_l)
 * shard crosses the spine over the L leaves at spine_bw and spine_lat; a send or an
 * all-to-all's bytes to other leaves go at spine_bw (docs/references.md §4.6).
 */
double calc_coll_time(enum calc_coll k, double bytes, const struct calc_group *g,
                      const struct calc_links *l);
/* Bytes per GPU that cross the network for the same collective (0 inside a node). */
double calc_coll_net_bytes(enum calc_coll k, double bytes, const struct calc_group *g);

/* parallel.placement: tokens innermost first, each a CALC_DIM_* or CALC_PLACE_EP (the
 * optional ep of Megatron-Core's orders).  Fills 'order' and returns the count (4 without
 * ep, 5 with it), or -1 for a string that is not a '-'-joined order of tp, cp, pp, dp
 * each once and ep at most once. */
#define CALC_PLACE_EP CALC_DIM_N
int calc_placement_parse(const char *s, int order[CALC_DIM_N + 1]);
/* 1 when the placement gives the expert layers the same pipeline groups as the dense
 * ones (Megatron-Core asserts it in initialize_model_parallel): always without an ep
 * token or with pp = 1; else the ranks inside pp must number the same in both orders
 * (tp x cp x [dp] against etp x ep x [edp], edp = tp cp dp / (etp ep)). */
int calc_placement_pp_agrees(const char *placement, int tp, int cp, int dp, int pp, int ep, int etp);
/* The same of a placement parsed (calc_placement_parse: its n tokens in order[], or n -1). */
int calc_placement_pp_agrees_in(const int *order, int n, int tp, int cp, int dp, int pp, int ep, int etp);

/*
 * Lay out dimension 'dim' of the plan on the cluster by parallel.placement
 * (innermost first; Megatron-Core's default tp-cp-ep-dp-pp, the stack's order).  The DP group is the
 * gradient-reduction group, DP x CP ranks (CP ranks hold the same weights).
 */
void calc_comm_group(const struct calc_plan *plan, enum calc_dim dim, struct calc_group *out);

/* One dimension's traffic per GPU per step. */
struct calc_comm_dim {
	const char *collective; /* "all-reduce", "all-gather + reduce-scatter", ... */
	struct calc_group group;
	double bytes;     /* bytes each GPU sends per step, NCCL bus-byte accounting [bytes] */
	double net_bytes; /* of which cross the network [bytes] */
	double count;     /* collectives (or sends) per GPU per step */
	double time;      /* time of all of them if nothing overlapped [s] */
};

struct calc_comm {
	struct calc_comm_dim dim[CALC_DIM_N];
	/* per micro-batch and per transformer layer, on the critical path before overlap */
	double tp_layer_f;    /* TP collectives of the forward of one layer [s] */
	double tp_layer_b;    /* TP collectives of the backward (+ recompute) of one layer [s] */
	double cp_layer_f;    /* CP collectives of the forward of one layer (parallel.cp_comm) [s] */
	double cp_layer_b;    /* CP collectives of the backward (+ recompute forward) of one layer [s] */
	double cp_ring_f;     /* of cp_layer_f, the ring sends (p2p, a2a+p2p) that overlap the
	                         attention core (step.c hides them behind it) [s] */
	double cp_ring_b;     /* of cp_layer_b, the same of the backward (+ recompute) [s] */
	int cp_ring_steps;    /* steps of the ring (its ranks r; 0: no ring): each send overlaps the
	                         attention of one step, 1/r of the pass's (step.c ring_exposed) */
	double cp_ring_send1; /* one ring send of a K, V chunk (forward; first and last of the backward) [s] */
	double cp_ring_send2; /* one backward send of K, V with dK, dV (the middle steps) [s] */
	double cp_mamba_f;    /* CP all-to-alls of the forward of one Mamba-2 layer (MambaContextParallel:
	                         five before the scan, one after) [s] */
	double cp_mamba_b;    /* the same of its backward (+ recomputed forward) [s] */
	double cp_mamba_bytes; /* bytes one rank sends in the forward's six all-to-alls of one
	                          Mamba-2 layer, one micro-batch [bytes] */
	double cp_attn_share;  /* of the layers the TP and CP rows count per micro-batch, the share with
	                          attention's CP exchange: 1, or less in a hybrid model (cp_hybrid) */
	double cp_mamba_share; /* the share of Mamba-2 layers, with cp_mamba_* (0 without) */
	double cp_gdn_f;       /* CP all-to-alls of the forward of one gated delta-net layer (two) [s] */
	double cp_gdn_b;       /* the same of its backward (+ recomputed forward) [s] */
	double cp_gdn_bytes;   /* bytes one rank sends in them, forward, one micro-batch [bytes] */
	double cp_gdn_share;   /* the share of gated delta-net layers, with cp_gdn_* (0 without) */
	double tp_share;       /* TP blocks per layer over two (1; less in a hybrid model) */
	double p2p;           /* one activation send between adjacent stages [s] */
	double grad_params;   /* parameters whose gradients one GPU reduces (worst stage) */
	/* FSDP (parallel.fsdp): the DP collectives of one FSDP unit -- one transformer layer,
	 * the embedding, the final norm with the LM head -- before any overlap */
	int fsdp;                       /* 1: the fields below hold the DP collectives */
	double fsdp_ag[CALC_MAX_KINDS]; /* all-gather of one layer of each kind's parameters [s] */
	double fsdp_rs[CALC_MAX_KINDS]; /* reduce-scatter of its gradients (+ HSDP all-reduce) [s] */
	double fsdp_ag_first, fsdp_rs_first; /* the embedding unit of stage 0 [s] */
	double fsdp_ag_last, fsdp_rs_last;   /* the final norm + LM head unit of the last stage [s] */
	double fsdp_gathers;            /* all-gathers of each unit per step */
	double fsdp_reduces;            /* gradient reductions of each unit per step */
	/* expert parallelism (MoE layers; all zero for a dense model): the EP row of the
	 * `comm` table holds the all-to-all dispatch and combine and, with etp > 1, the ETP
	 * all-gather and reduce-scatter; the expert-DP gradient reduction is in dim[DP] */
	struct calc_comm_dim ep;        /* all-to-all (+ ETP collectives) per step */
	double ep_layer_f;    /* all-to-all dispatch + combine (+ ETP) of one MoE layer's forward [s] */
	double ep_layer_b;    /* the same of its backward (+ recomputed forward) [s] */
	double ep_nvl_bytes;  /* of ep.bytes, all-to-all bytes to GPUs of the own node [bytes] */
	struct calc_group edp_group;    /* expert-DP group: ranks holding the same experts */
	double edp_params;    /* routed-expert parameters whose gradients one GPU reduces (worst stage) */
	double edp_bytes;     /* of dim[DP].bytes, the expert-DP reduction [bytes] */
	double edp_time;      /* of dim[DP].time, the expert-DP reduction [s] */
	double bytes_total;   /* all dimensions [bytes] */
	double net_bytes_total; /* [bytes] */
};

/*
 * The all-to-all group of parallel.cp_comm at context-parallel degree 'cp': cp for a2a,
 * parallel.cp_a2a_size for a2a+p2p, 1 for allgather and p2p (no all-to-all).
 */
int calc_cp_a2a_group(const struct calc_plan *plan, int cp);

/*
 * Whether the heads of the plan's model allow its cp_comm at tensor-parallel degree
 * 'tp' and context-parallel degree 'cp': an all-to-all group of a ranks (a2a, a2a+p2p)
 * needs the query heads and the KV heads of one TP rank divisible by a (Transformer
 * Engine AttnFuncWithCPAndQKVOA2A asserts both); with fewer KV heads than TP ranks a
 * rank holds one.  Writes the heads per TP rank to *q and *kv when not NULL.  Returns 1
 * when allowed (always for allgather and p2p, and for cp <= 1), 0 otherwise.
 */
int calc_cp_heads_ok(const struct calc_plan *plan, int tp, int cp, int *q, int *kv);

/*
 * Whether Megatron-Core's MambaContextParallel runs a Mamba-2 layer of 'm' at tensor-
 * and context-parallel degrees 'tp' and 'cp': the Mamba heads of a TP rank divisible by
 * cp, and its groups divisible by cp or dividing it (mamba_context_parallel.py lines
 * 103-132 at d98e8a64dd; docs/references.md §4.11).  1 when allowed (always for cp <= 1).
 */
int calc_cp_mamba_ok(const struct calc_model *m, int tp, int cp);
/* The Mamba groups a token carries into the CP all-to-all per TP rank: max(G / tp, cp)
 * for cp > 1 (groups repeated to one per CP rank), G / tp otherwise. */
double calc_cp_mamba_groups(const struct calc_model *m, int tp, int cp);
/*
 * Whether Megatron-Core's gated delta-net runs under CP at 'tp' and 'cp': the key and value
 * heads of a TP rank divisible by cp (gated_delta_net/gdn.py lines 51-64 and common.py lines
 * 421, 627-632 at d98e8a64dd; docs/references.md §4.11).  1 when allowed.
 */
int calc_cp_gdn_ok(const struct calc_model *m, int tp, int cp);

/*
 * Traffic of one GPU of the plan per step, per dimension, in SI units.  Pure
 * arithmetic on the plan (no allocation, no simulator); the exposed share of each
 * dimension depends on compute and is in struct calc_step.  Returns 0 (the plan is
 * assumed valid; a zero degree is treated as 1).
 */
int calc_comm(const struct calc_plan *plan, struct calc_comm *out);

/*
 * What calc_comm computes from the split alone: the links, the group of every
 * dimension, the stages' layers, the layers and the parameters (one copy) of the most
 * loaded stage.  It reads the cluster, the model, the layer split, tp, cp, pp, dp, ep,
 * etp, the placement and the recipe -- not the micro-batch, schedule, vpp, sp,
 * recomputation or ZeRO stage -- so the planner computes it once per split.
 */
struct calc_comm_pre {
	struct calc_links links;
	struct calc_group group[CALC_DIM_N];
	int worst_layers;       /* transformer layers of the most loaded stage */
	double tp_share;        /* TP blocks of that stage over two per layer: 1, or less with a
	                           hybrid model's one-block layers (worst_layers) */
	double grad_params;     /* parameters of one GPU of the most loaded stage, one copy */
	int has_all;            /* 1: a model with kinds, whose collectives read all[] */
	int have_sl;            /* 1: all[] holds every stage's layers (pp <= CALC_MAX_STAGES);
	                           step.c's stage costs read it for every model */
	int uniform;            /* calc_stage_layers_uniform of the split (step.c) */
	int heavy;              /* calc_stage_layers_heaviest of the split (step.c); -1 for a
	                           uniform one, whose stage costs do not read it */
	/* of an MoE model (model.moe.experts > 0), what the EP rows read of the split alone
	 * (calc_comm_pre_groups; comm.c comm_ep and comm_experts compute the same without
	 * 'pre'): the planner times every leaf of a split with them */
	unsigned moe_kinds;     /* bit j: layer kind j is an MoE kind */
	int mtp_moe;            /* model.mtp_depth when the MTP blocks' kind is MoE, else 0 */
	int stage_gpus;         /* GPUs of one pipeline stage in a node */
	int ex_placed;          /* 1: the placement has an ep token, and these are its strides: */
	long s_etp, s_ep, s_edp;
	struct calc_group edp_group; /* the expert-DP group */
	double edp_params1;     /* routed-expert parameters of one GPU of the stage with the
	                           most, one copy (edp_params before the schedule's copies) */
	/* the stages' (MoE layers, MTP blocks there, layers) in stage order, each distinct one
	 * once (the EP rows take the first stage of the most all-to-all passes, which depend
	 * on these alone): moe_nst of them, or -1 more than CALC_MOE_STAGE_KINDS */
#define CALC_MOE_STAGE_KINDS 8
	int moe_nst;
	int moe_st[CALC_MOE_STAGE_KINDS][3];
	struct calc_stage_layers all[CALC_MAX_STAGES];
	/* parallel.placement parsed (calc_placement_parse: place_n tokens, or -1), set by
	 * calc_comm_pre_layers and read by calc_comm_pre_groups: the groups' strides and the
	 * expert strides of every item of a search read the same string, which was parsed five
	 * times per item (474 M of the 32.3 G instructions of the DeepSeek-V3 plan's report,
	 * callgrind; 0.2 M now) */
	int place_n;
	int place[CALC_DIM_N + 1];
	/* NULL (calc_comm_pre sets it so), or calc_model_params of the plan's model, which
	 * calc_comm_pre_groups reads twice (the parameters of the most loaded stage, the
	 * routed experts' of the stage with the most): the planner's worker gives its own, made
	 * once for the search (the model does not change in it), instead of two per item
	 * (643 M of the 32.3 G instructions of the DeepSeek-V3 plan's report; 0.3 M now) */
	const struct calc_params *pr;
	/* NULL (calc_comm_pre sets it so), or the caller's memo of the DP row without FSDP
	 * (dp_collectives) by ZeRO stage, micro-batches, parameters and recipe, for the
	 * planner's leaves of one split (their two parameter copies, four ZeRO stages);
	 * calc_comm_pre_groups empties it, the rest of the plan being the split's */
	struct calc_comm_dp_memo *dp_memo;
};
#define CALC_COMM_DP_MEMO 8
struct calc_comm_dp_memo {
	int n;
	struct {
		const struct calc_recipe *recipe;
		int zero, m;
		double params;
		struct calc_comm_dim x;
	} e[CALC_COMM_DP_MEMO];
	/* calc_step_optimizer_time of the split by ZeRO stage, parameters, expert
	 * parameters and recipe (calc_step_finish_with; the rest it reads is the split's) */
	int nopt;
	struct {
		const struct calc_recipe *recipe;
		int zero;
		double params, edp_params, t;
	} opt[CALC_COMM_DP_MEMO];
};
void calc_comm_pre(const struct calc_plan *plan, struct calc_comm_pre *out);
/* calc_comm_pre in two parts: what reads only the model and the placement of the layers
 * on the pipeline stages (pp, parallel.split and the layout keys: has_all, have_sl, all,
 * uniform, heavy, worst_layers, tp_share), which the planner's items of one placement
 * share, and then the rest (links, group, grad_params), which reads the former. */
void calc_comm_pre_layers(const struct calc_plan *plan, struct calc_comm_pre *out);
void calc_comm_pre_groups(const struct calc_plan *plan, struct calc_comm_pre *out);
/* calc_comm with 'pre' from calc_comm_pre of a plan with the same split (NULL: computed
 * here): the same result, bit for bit.  Returns 0. */
int calc_comm_with(const struct calc_plan *plan, const struct calc_comm_pre *pre, struct calc_comm *out);
/*
 * 'out' from calc_comm_with(plan', pre) of a plan' that differs from 'plan' in the ZeRO
 * stage alone, turned into calc_comm_with(plan, pre), bit for bit: only the DP row, the
 * expert-DP reduction (edp_bytes, edp_time) and the totals are computed again; the TP,
 * CP, PP and EP rows read no ZeRO stage.  'pre' may be NULL.  For the planner, which
 * times every ZeRO stage of a split (calc_step_fast_rezero; `make check-fast`).
 */
void calc_comm_rezero(const struct calc_plan *plan, const struct calc_comm_pre *pre, struct calc_comm *out);
/*
 * 'out' from calc_comm_with(plan', pre) of a plan' that differs from 'plan' at most in
 * the schedule, vpp and the ZeRO stage, turned into calc_comm_with(plan, pre), bit for
 * bit: the PP row (and p2p), the DP row with grad_params, the expert-DP reduction
 * (edp_params, edp_bytes, edp_time) and the totals are computed again; the TP, CP and EP
 * rows read none of the three.  Only where calc_comm_resched_applies(plan, pre) (and of
 * plan', the same test): 'pre' given, no parallel.fsdp, and not full recomputation with
 * recompute_method = block (whose recomputed layers per chunk read vpp).  For the
 * planner's schedule variants of one split (calc_step_fast_resched; `make check-fast`).
 */
int calc_comm_resched_applies(const struct calc_plan *plan, const struct calc_comm_pre *pre);
void calc_comm_resched(const struct calc_plan *plan, const struct calc_comm_pre *pre, struct calc_comm *out);
/*
 * The DP row's collective time [s] of calc_comm_with(plan, pre) without the expert-DP
 * reduction (dim[CALC_DIM_DP].time less edp_time, the same number bit for bit), and
 * '*grad_params' its grad_params; 0 without DP or with parallel.fsdp (whose exposure
 * step.c computes per unit).  For the planner's lower bound (calc_step_dp_bound).
 */
double calc_comm_dp_only(const struct calc_plan *plan, const struct calc_comm_pre *pre, double *grad_params);
/*
 * Time [s] of one DP collective 'k' of 'bytes' over 'g' as the plan's DP collectives
 * run: calc_coll_time on links scaled by efficiency.dp_bandwidth, or with
 * efficiency.dp_algorithm = flat one ring over all ranks on the network tier when 'g'
 * spans nodes.  Pure arithmetic.
 */
double calc_comm_dp_time(const struct calc_plan *plan, enum calc_coll k, double bytes, const struct calc_group *g);
/* Bytes per parameter the DP gradient reduction moves: efficiency.grad_reduce, or the
 * recipe's gradient bytes (2 when the recipe holds none). */
double calc_comm_grad_bytes(const struct calc_plan *plan);

/*
 * Expert-parallel all-to-all of one GPU per step (comm.c): per MoE layer and
 * micro-batch a dispatch and a combine in the forward pass and again in the backward
 * pass, over the EP group laid out etp-innermost on consecutive GPUs.  Bytes split by
 * tier; node-limited routing (model.moe_node_limit M) sends a token to at most M
 * remote nodes once each.  With etp > 1 the tokens an expert receives are all-gathered
 * over its ETP group before the expert GEMMs and the outputs reduce-scattered after
 * them (Megatron-Core MoE, expert tensor parallelism), forward and backward.  Full
 * recomputation repeats the forward's collectives in the backward.
 */
struct calc_ep_comm {
	double bytes;      /* all the all-to-all bytes one GPU sends per step [B] */
	double nvl_bytes;  /* of them, to GPUs of its own node [B] */
	double net_bytes;  /* of them, over the network [B] */
	double time;       /* alpha-beta time per step if none overlapped [s] */
	int per_node;      /* EP ranks inside one node */
	int nodes;         /* nodes the EP group spans */
	int moe_layers;    /* MoE layers of the stage with the most of them */
	double rc_share;   /* of them, the share whose forward full recomputation repeats
	                      (calc_recompute_layers; 0 without full recomputation) [1] */
	double a2a;        /* one all-to-all (dispatch or combine) of one MoE layer, one
	                      micro-batch [s] */
	double etp_bytes;  /* ETP all-gather + reduce-scatter bytes per step (etp > 1) [B] */
	double etp_coll;   /* one ETP all-gather (= one reduce-scatter) of one MoE layer, one
	                      micro-batch [s] */
	double etp_time;   /* all of them per step [s] */
};
void calc_comm_ep(const struct calc_plan *plan, struct calc_ep_comm *out);
/* The chance that a token's 'k' distinct experts, drawn uniformly from 'E', miss a given
 * group of 'n' of them: C(E - n, k) / C(E, k) (hypergeometric) [fraction 0..1]. */
double calc_moe_none_share(double E, double n, double k);

#endif
