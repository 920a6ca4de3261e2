/*
 * tests/calc/comm.c -- collectives, placement on network tiers and per-GPU volumes.
 *
 * Expected values are worked by hand in the comments from the formulas' sources:
 * docs/references.md §4.5 (bus factors), Narayanan et al. 2021 §3.2 (TP, PP),
 * Korthikanti et al. 2022 §4.2.2 (SP), ZeRO §7 (DP), docs/references.md §6 (hierarchical).
 */
#include "testutil.h"
#include "search.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- collectives */

static void test_bus_factors(void **state)
{
	/* docs/references.md §4.5: all-reduce 2(n-1)/n, all-gather and reduce-scatter
	 * (n-1)/n; n = 8: 14/8 = 1.75 and 7/8 = 0.875. */
	assert_near(calc_coll_factor(CALC_COLL_ALLREDUCE, 8), 1.75, 1e-12);
	assert_near(calc_coll_factor(CALC_COLL_ALLGATHER, 8), 0.875, 1e-12);
	assert_near(calc_coll_factor(CALC_COLL_REDUCESCATTER, 8), 0.875, 1e-12);
	assert_near(calc_coll_factor(CALC_COLL_ALLTOALL, 4), 0.75, 1e-12);
	assert_near(calc_coll_factor(CALC_COLL_P2P, 2), 1, 1e-12);
	/* a group of one moves nothing */
	assert_near(calc_coll_factor(CALC_COLL_ALLREDUCE, 1), 0, 1e-12);
	assert_near(calc_coll_flat(CALC_COLL_ALLREDUCE, 1e9, 1, 1e11, 5e-6), 0, 1e-12);
}

static void test_flat_alpha_beta(void **state)
{
	/* 1 GB all-reduce over 8 ranks at busbw 100 GB/s, 5 us per step: ring of 2(n-1) =
	 * 14 steps -> 70 us, plus 1.75 * 1e9 / 1e11 = 17.5 ms: 17.570 ms. */
	assert_near(calc_coll_flat(CALC_COLL_ALLREDUCE, 1e9, 8, 1e11, 5e-6), 0.01757, 1e-9);
	/* all-gather of the same: 7 steps -> 35 us + 8.75 ms. */
	assert_near(calc_coll_flat(CALC_COLL_ALLGATHER, 1e9, 8, 1e11, 5e-6), 0.008785, 1e-9);
	/* one send of 100 MB at 50 GB/s with 6 us: 2.006 ms */
	assert_near(calc_coll_flat(CALC_COLL_P2P, 1e8, 2, 5e10, 6e-6), 0.002006, 1e-9);
	/* all-reduce = reduce-scatter + all-gather (ZeRO §7.1; KOR22 §4.2.2) */
	assert_near(calc_coll_flat(CALC_COLL_ALLREDUCE, 3e8, 16, 2e11, 2e-6),
	            calc_coll_flat(CALC_COLL_REDUCESCATTER, 3e8, 16, 2e11, 2e-6) +
	                calc_coll_flat(CALC_COLL_ALLGATHER, 3e8, 16, 2e11, 2e-6),
	            1e-12);
}

static void test_hierarchical(void **state)
{
	struct calc_links l = {400e9, 0, 50e9, 0, 50e9, 0};
	struct calc_group g = {16, 8, 2, CALC_TIER_NET, 1, 2};
	struct calc_group one = {16, 1, 16, CALC_TIER_NET, 1, 16};
	struct calc_group in = {8, 8, 1, CALC_TIER_NVLINK, 1, 1};

	/* 2 nodes x 8 GPUs, S = 1 GB, no latency: reduce-scatter on NVLink 0.875 GB / 400
	 * GB/s = 2.1875 ms; all-reduce of the 1/8 shard (125 MB) over 2 nodes, factor 1, at
	 * 50 GB/s = 2.5 ms; all-gather 2.1875 ms: 6.875 ms.  The network part equals the
	 * bound of docs/references.md §6 (b): 2(N-1)/N * S / (g B_nic) = 1e9 / 4e11 = 2.5 ms. */
	assert_near(calc_coll_time(CALC_COLL_ALLREDUCE, 1e9, &g, &l), 6.875e-3, 1e-9);
	assert_near(calc_coll_net_bytes(CALC_COLL_ALLREDUCE, 1e9, &g), 125e6, 1e-9);
	/* one rank per node: flat ring on the network, 2 * 15/16 * 1e9 / 5e10 = 37.5 ms */
	assert_near(calc_coll_time(CALC_COLL_ALLREDUCE, 1e9, &one, &l), 37.5e-3, 1e-9);
	assert_near(calc_coll_net_bytes(CALC_COLL_ALLREDUCE, 1e9, &one), 1.875e9, 1e-9);
	/* inside a node: NVLink only, nothing on the network; 1.75e9 / 4e11 = 4.375 ms */
	assert_near(calc_coll_time(CALC_COLL_ALLREDUCE, 1e9, &in, &l), 4.375e-3, 1e-9);
	assert_near(calc_coll_net_bytes(CALC_COLL_ALLREDUCE, 1e9, &in), 0, 1e-12);
	/* reduce-scatter across 2 nodes: 2.1875 ms on NVLink + (1/2) * 125 MB / 50 GB/s = 1.25 ms */
	assert_near(calc_coll_time(CALC_COLL_REDUCESCATTER, 1e9, &g, &l), 3.4375e-3, 1e-9);
}

/* ------------------------------------------------------------- placement */

static void test_placement(void **state)
{
	struct calc_plan p;
	struct calc_group g;
	const char *s1[] = {"parallel.tp=2", "parallel.pp=4", "parallel.dp=64"};
	const char *s1o[] = {"parallel.tp=2", "parallel.pp=4", "parallel.dp=64", "parallel.placement=tp-cp-pp-dp"};
	const char *s2[] = {"parallel.placement=dp-tp-cp-pp"};
	const char *s3[] = {"parallel.tp=4", "parallel.cp=2", "parallel.dp=8"};

	/* default: tp 8, pp 8, dp 8 on nodes of 8 GPUs, Megatron-Core's order tp-cp-ep-dp-pp
	 * (megatron/core/parallel_state.py at core_v0.19.0; ep takes no room in the dense
	 * layers' ranks): TP stride 1, DP stride 8, PP stride 64 */
	load_plan(&p, NULL, 0);
	assert_string_equal(p.placement, "tp-cp-ep-dp-pp");
	calc_comm_group(&p, CALC_DIM_TP, &g);
	assert_int_equal(g.size, 8);
	assert_int_equal(g.per_node, 8);
	assert_int_equal(g.tier, CALC_TIER_NVLINK);
	calc_comm_group(&p, CALC_DIM_PP, &g); /* stride 64: every stage 8 nodes further */
	assert_int_equal(g.per_node, 1);
	assert_int_equal(g.nodes, 8);
	assert_int_equal(g.tier, CALC_TIER_NET);
	calc_comm_group(&p, CALC_DIM_DP, &g); /* stride 8: one rank per node */
	assert_int_equal(g.per_node, 1);
	assert_int_equal(g.nodes, 8);
	assert_int_equal(g.tier, CALC_TIER_NET);

	/* tp 2, pp 4, dp 64 in Megatron-Core's order: DP stride 2, four DP ranks in a node,
	 * 64 / 4 = 16 nodes; PP stride 2 x 64 = 128, one stage per node */
	load_plan(&p, s1, 3);
	calc_comm_group(&p, CALC_DIM_DP, &g);
	assert_int_equal(g.per_node, 4);
	assert_int_equal(g.nodes, 16);
	calc_comm_group(&p, CALC_DIM_PP, &g);
	assert_int_equal(g.per_node, 1);
	assert_int_equal(g.nodes, 4);
	assert_int_equal(g.tier, CALC_TIER_NET);
	/* the same in tp-cp-pp-dp (Megatron-LM --use-tp-pp-dp-mapping for a dense model): PP
	 * stride 2, four stages in a node -> the whole pipeline on NVLink; DP stride 8 -> one
	 * rank per node, 64 nodes */
	load_plan(&p, s1o, 4);
	calc_comm_group(&p, CALC_DIM_PP, &g);
	assert_int_equal(g.per_node, 4);
	assert_int_equal(g.tier, CALC_TIER_NVLINK);
	calc_comm_group(&p, CALC_DIM_DP, &g);
	assert_int_equal(g.per_node, 1);
	assert_int_equal(g.nodes, 64);
	/* an ep token anywhere leaves a dense layer's strides as without it */
	assert_true(calc_plan_set(&p, "parallel.placement=ep-tp-cp-pp-dp", "test", &(struct calc_diag){0}) == 0);
	calc_comm_group(&p, CALC_DIM_PP, &g);
	assert_int_equal(g.per_node, 4);
	calc_comm_group(&p, CALC_DIM_DP, &g);
	assert_int_equal(g.nodes, 64);

	/* DP innermost: DP inside the node, TP (stride 8) across nodes */
	load_plan(&p, s2, 1);
	calc_comm_group(&p, CALC_DIM_DP, &g);
	assert_int_equal(g.tier, CALC_TIER_NVLINK);
	calc_comm_group(&p, CALC_DIM_TP, &g);
	assert_int_equal(g.per_node, 1);
	assert_int_equal(g.tier, CALC_TIER_NET);

	/* tp 4, cp 2, pp 8, dp 8: CP stride 4, both CP ranks in one node; the gradient
	 * group is DP x CP = 16 ranks, 2 per node (the CP pair; DP stride 8) over 8 nodes */
	load_plan(&p, s3, 3);
	calc_comm_group(&p, CALC_DIM_CP, &g);
	assert_int_equal(g.per_node, 2);
	assert_int_equal(g.tier, CALC_TIER_NVLINK);
	calc_comm_group(&p, CALC_DIM_DP, &g);
	assert_int_equal(g.size, 16);
	assert_int_equal(g.per_node, 2);
	assert_int_equal(g.nodes, 8);
}

/* The order strings: Megatron-Core's RankGenerator splits the order at '-' and takes each
 * of tp, cp, ep, dp, pp once (parallel_state.py at core_v0.19.0); trainplan needs tp, cp,
 * pp and dp and takes ep as an option. */
static void test_placement_parse(void **state)
{
	int o[CALC_DIM_N + 1];
	assert_int_equal(calc_placement_parse("tp-cp-ep-dp-pp", o), 5);
	assert_int_equal(o[0], CALC_DIM_TP);
	assert_int_equal(o[1], CALC_DIM_CP);
	assert_int_equal(o[2], CALC_PLACE_EP);
	assert_int_equal(o[3], CALC_DIM_DP);
	assert_int_equal(o[4], CALC_DIM_PP);
	assert_int_equal(calc_placement_parse("tp-cp-pp-dp", o), 4);
	assert_int_equal(o[2], CALC_DIM_PP);
	assert_int_equal(calc_placement_parse("tp-cp-ep-pp", o), -1);    /* no dp */
	assert_int_equal(calc_placement_parse("tp-cp-ep-ep-dp-pp", o), -1); /* ep twice */
	assert_int_equal(calc_placement_parse("tp-cp-dp-pp-", o), -1);
	assert_int_equal(calc_placement_parse("tp_cp_dp_pp", o), -1);
	assert_int_equal(calc_placement_parse("tp-cp-dp-ppx", o), -1);
	assert_int_equal(calc_placement_parse("", o), -1);
	/* Megatron-Core asserts one pipeline group for the dense and the expert layers
	 * (initialize_model_parallel): with pp last always; with tp-cp-ep-pp-dp the ranks
	 * inside pp are tp x cp = 1 dense and etp x ep = 8 expert (tp 1, ep 8), which differ,
	 * or tp x cp = 8 and etp x ep = 1 x 8 (tp 8, ep 8, etp 1), which agree */
	assert_true(calc_placement_pp_agrees("tp-cp-ep-dp-pp", 1, 1, 8, 2, 8, 1));
	assert_false(calc_placement_pp_agrees("tp-cp-ep-pp-dp", 1, 1, 8, 2, 8, 1));
	assert_true(calc_placement_pp_agrees("tp-cp-ep-pp-dp", 8, 1, 1, 2, 8, 1));
	assert_true(calc_placement_pp_agrees("tp-cp-ep-pp-dp", 1, 1, 8, 1, 8, 1)); /* pp 1 */
	assert_true(calc_placement_pp_agrees("tp-cp-pp-dp", 1, 1, 8, 2, 8, 1));     /* no ep token */
}

/* Where the expert ranks sit: OLMoE 1B-7B (16 MoE layers, h = 2048, top-8 of 64 experts,
 * no node limit) on 2 nodes of 8, tp 1, pp 1, dp 16, ep 8, etp 1 (edp 2), s 4096, b 1,
 * B 64: m = 64 / 16 = 4 micro-batches, T = 4096 tokens per GPU, one copy's traffic per
 * step 4 (dispatch + combine, forward + backward) x 4096 x 2048 x 2 B x 16 layers x 4 =
 * 4,294,967,296 B.
 * - tp-cp-ep-dp-pp (Megatron-Core's default): EP stride etp = 1, the 8 EP ranks in one
 *   node: k (8 - 1) / 8 = 7 copies over NVLink, none over the network; the expert-DP pair
 *   at stride 8, one per node.
 * - tp-cp-dp-ep-pp: EP stride edp = 2, ranks 0, 2, .., 14: 4 per node on 2 nodes:
 *   k (4 - 1) / 8 = 3 copies over NVLink, k (2 - 1) / 2 = 4 over the network (the same 7
 *   leave the GPU); the expert-DP pair adjacent, on NVLink.
 * - tp-cp-dp-pp (no ep token): a stage's GPUs in rank order, EP right after etp: as the
 *   first. */
static void test_placement_experts(void **state)
{
	const char *sets[] = {"model.preset=olmoe-1b-7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=1",
	                      "parallel.dp=16", "parallel.ep=8", "training.seq_len=4096", "training.global_batch=64",
	                      "training.micro_batch=1", "parallel.sp=no", "parallel.recompute=selective",
	                      "parallel.placement=tp-cp-ep-dp-pp"};
	const double copy = 4.0 * 4096 * 2048 * 2 * 16 * 4;
	struct calc_plan p;
	struct calc_ep_comm e;
	struct calc_comm c;

	load_plan(&p, sets, 12);
	assert_int_equal(p.edp, 2);
	assert_true(p.model.moe.node_limit == 0 && p.model.moe.top_k == 8);
	calc_comm_ep(&p, &e);
	assert_int_equal(e.per_node, 8);
	assert_int_equal(e.nodes, 1);
	assert_near(e.nvl_bytes, 7 * copy, 1e-12);
	assert_true(e.net_bytes == 0);
	calc_comm(&p, &c);
	assert_int_equal(c.ep.group.tier, CALC_TIER_NVLINK);
	assert_int_equal(c.edp_group.per_node, 1);
	assert_int_equal(c.edp_group.nodes, 2);

	assert_true(calc_plan_set(&p, "parallel.placement=tp-cp-dp-ep-pp", "test", &(struct calc_diag){0}) == 0);
	calc_comm_ep(&p, &e);
	assert_int_equal(e.per_node, 4);
	assert_int_equal(e.nodes, 2);
	assert_near(e.nvl_bytes, 3 * copy, 1e-12);
	assert_near(e.net_bytes, 4 * copy, 1e-12);
	calc_comm(&p, &c);
	assert_int_equal(c.ep.group.tier, CALC_TIER_NET);
	assert_int_equal(c.edp_group.per_node, 2);
	assert_int_equal(c.edp_group.nodes, 1);

	assert_true(calc_plan_set(&p, "parallel.placement=tp-cp-dp-pp", "test", &(struct calc_diag){0}) == 0);
	calc_comm_ep(&p, &e);
	assert_int_equal(e.per_node, 8);
	assert_int_equal(e.nodes, 1);
	assert_near(e.nvl_bytes, 7 * copy, 1e-12);

	/* Megatron-LM's other order, tp-cp-ep-pp-dp, with pp 2 and ep 8 over tp 1: the expert
	 * ranks inside pp number 8, the dense 1 -- refused at the key, as Megatron-Core
	 * refuses it */
	{
		const char *bad[] = {"model.preset=olmoe-1b-7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=2",
		                     "parallel.dp=8", "parallel.ep=8", "training.global_batch=64",
		                     "parallel.placement=tp-cp-ep-pp-dp"};
		struct calc_diag d = {0};
		assert_true(calc_plan_load(&p, NULL, bad, 8, &d) < 0);
		assert_non_null(strstr(d.recs[0].msg, "parallel.placement = tp-cp-ep-pp-dp"));
		calc_diag_free(&d);
	}
}

/* Transformer Engine's quantized recipes all-gather the quantized tensor under SP
 * (TransformerEngine module/layernorm_linear.py and module/base.py at d0067d0da: the norm
 * output and the output gradient are quantized before gather_along_first_dim), the
 * reduce-scatters stay BF16 (calc/comm.c tp_gather_bytes).  Default plan (dense-100b, tp 8
 * on one H100 node: ring busbw 370 GB/s, 3 us a step; b s h = 2048 x 10240 elements):
 * BF16 forward = 2 x (AG + RS), each 7 x 3 us + 7/8 x 2 B x bsh / 370e9; FP8 (fp8-params)
 * the all-gathers at 1 B an element; MXFP8 on HGX B200 (busbw 721.8 GB/s) at 1 + 1/32 B;
 * the torchao recipe (torch-mp-fp8, not TE) gathers BF16.  Bytes per layer and
 * micro-batch (4 AG + 4 RS, selective recomputation): 7/8 bsh (4 x 1 + 4 x 2) B in FP8
 * against 7/8 bsh x 16 B in BF16. */
static void test_tp_quantized_gather(void **state)
{
	const double e = 2048.0 * 10240; /* b s h elements of one micro-batch */
	const char *f8[] = {"training.recipe=fp8-params"};
	const char *mx[] = {"cluster.preset=hgx-b200-ndr", "training.recipe=mxfp8"};
	const char *mxb[] = {"cluster.preset=hgx-b200-ndr", "training.recipe=megatron"};
	const char *ta[] = {"training.recipe=torch-mp-fp8"};
	struct calc_plan p;
	struct calc_comm c;
	(void)state;

	load_plan(&p, NULL, 0);
	calc_comm(&p, &c);
	assert_near(c.tp_layer_f, 2 * 2 * (7 * 3e-6 + 7.0 / 8 * 2 * e / 370e9), 1e-15);
	load_plan(&p, f8, 1);
	calc_comm(&p, &c);
	assert_near(c.tp_layer_f, 2 * ((7 * 3e-6 + 7.0 / 8 * 1 * e / 370e9) + (7 * 3e-6 + 7.0 / 8 * 2 * e / 370e9)),
	            1e-15);
	assert_near(c.tp_layer_b, c.tp_layer_f, 1e-15);
	assert_near(c.dim[CALC_DIM_TP].bytes, 192 * 10 * 7.0 / 8 * e * (4 * 1 + 4 * 2), 1e-3);
	assert_near(c.dim[CALC_DIM_TP].count, 192 * 10 * 8, 1e-12);
	load_plan(&p, mx, 2);
	calc_comm(&p, &c);
	assert_near(c.tp_layer_f,
	            2 * ((7 * 3e-6 + 7.0 / 8 * (1 + 1.0 / 32) * e / 721.8e9) + (7 * 3e-6 + 7.0 / 8 * 2 * e / 721.8e9)),
	            1e-15);
	load_plan(&p, mxb, 2);
	calc_comm(&p, &c);
	assert_near(c.tp_layer_f, 2 * 2 * (7 * 3e-6 + 7.0 / 8 * 2 * e / 721.8e9), 1e-15);
	load_plan(&p, ta, 1);
	calc_comm(&p, &c);
	assert_near(c.tp_layer_f, 2 * 2 * (7 * 3e-6 + 7.0 / 8 * 2 * e / 370e9), 1e-15);
}

/* ------------------------------------------------------------- volumes */

/* Worked example: the default plan, dense-100b (h = 10240, L = 80, tied embeddings,
 * LayerNorm, no biases), s = 2048, b = 1, B = 1536, tp 8, pp 8, dp 8: m = 1536 / 8 =
 * 192 micro-batches, 10 layers per stage, SP, selective recompute, scatter/gather,
 * ZeRO-1, megatron recipe (fp32 grads 4 B, bf16 weights 2 B). */
#define BSH (2048.0 * 10240 * 2) /* one micro-batch's b*s*h in BF16 = 41,943,040 B */

static void test_volumes_default(void **state)
{
	struct calc_plan p;
	struct calc_comm c;
	double psi;

	load_plan(&p, NULL, 0);
	calc_comm(&p, &c);
	/* TP: Narayanan §3.2 8bsh(t-1)/t elements per layer per micro-batch, 2 B each:
	 * 8 * 2048 * 10240 * 7/8 * 2 = 293,601,280 B; x 10 layers x 192 = 563,714,457,600 B */
	assert_near(c.dim[CALC_DIM_TP].bytes, 563714457600.0, 1e-12);
	assert_near(c.dim[CALC_DIM_TP].bytes / (192 * 10), 8 * 2048.0 * 10240 * 7 / 8 * 2, 1e-12);
	assert_int_equal(c.dim[CALC_DIM_TP].net_bytes, 0);
	/* SP: 4 all-gathers + 4 reduce-scatters per layer per micro-batch (KOR22 §4.2.2) */
	assert_near(c.dim[CALC_DIM_TP].count, 192 * 10 * 8, 1e-12);
	/* PP: bsh per boundary per micro-batch each way, /t with scatter/gather:
	 * 2 * 192 * 41,943,040 / 8 = 2,013,265,920 B, all on the network */
	assert_near(c.dim[CALC_DIM_PP].bytes, 2013265920.0, 1e-12);
	assert_near(c.dim[CALC_DIM_PP].net_bytes, 2013265920.0, 1e-12);
	/* DP: the last stage holds 10 layers of 12h^2 = 1,258,291,200 matrix parameters,
	 * sharded over tp 8 (157,286,400 each), and 2 LayerNorms (4h = 40,960) replicated
	 * on every TP rank as memory.c holds them (Megatron LayerNorm is not split); the
	 * final norm (2h = 20,480, replicated) and Megatron's copy of the tied embedding
	 * (V h / 8 = 65,536,000): 10 * 157,327,360 + 20,480 + 65,536,000 = 1,638,830,080
	 * per GPU.  ZeRO-1: reduce-scatter of 4-B grads + all-gather of 2-B weights,
	 * 7/8 * 6 * 1,638,830,080 = 8,603,857,920 B. */
	psi = 10 * (1258291200.0 / 8 + 40960) + 20480 + 524288000.0 / 8;
	assert_near(psi, 1638830080.0, 1e-12);
	assert_near(c.grad_params, psi, 1e-12);
	assert_near(c.dim[CALC_DIM_DP].bytes, 7.0 / 8 * 6 * psi, 1e-12);
	assert_near(c.dim[CALC_DIM_CP].bytes, 0, 1e-12);
	assert_near(c.bytes_total, 563714457600.0 + 2013265920.0 + 7.0 / 8 * 6 * psi, 1e-12);
	/* The same count as the memory breakdown: gradients of the last stage (the most
	 * parameters), unsharded by ZeRO-1, are psi x 4 B. */
	{
		struct calc_memory *mem = malloc(sizeof *mem);
		struct calc_diag d = {0};
		assert_int_equal(calc_memory(&p, mem, &d), 0);
		assert_near(mem->st[7].gradients, psi * 4, 1e-12);
		free(mem);
		calc_diag_free(&d);
	}
}

static void test_p2p_sp(void **state)
{
	/* One pipeline send of the default plan (SP, tp 8; PP stride 8, so every send
	 * crosses the network: NDR 50 GB/s x 0.85 = 42.5 GB/s, 6 us).  With SP the stage
	 * output is already sharded over the TP ranks (Korthikanti 2022 §4.2.2): each rank
	 * sends bsh/t = 5,242,880 B and nothing is gathered: 6 us + 5,242,880 / 42.5e9 =
	 * 129.36 us.  Without SP the scatter/gather optimisation (Narayanan 2021 §4.1) sends
	 * the same slice and all-gathers the full bsh on NVLink: 7 steps x 3 us + 7/8 x
	 * 41,943,040 / 370e9 = 120.19 us more. */
	const char *nosp[] = {"parallel.sp=no"};
	struct calc_plan p;
	struct calc_comm c;

	load_plan(&p, NULL, 0);
	calc_comm(&p, &c);
	assert_near(c.p2p, 6e-6 + BSH / 8 / 42.5e9, 1e-9);
	assert_near(c.dim[CALC_DIM_PP].bytes, 2 * 192 * BSH / 8, 1e-12);
	load_plan(&p, nosp, 1);
	calc_comm(&p, &c);
	assert_near(c.p2p, 6e-6 + BSH / 8 / 42.5e9 + 7 * 3e-6 + 7.0 / 8 * BSH / 370e9, 1e-9);
}

static void test_volumes_variants(void **state)
{
	struct calc_plan p;
	struct calc_comm c, base;
	const char *full[] = {"parallel.recompute=full"};
	const char *nosg[] = {"parallel.p2p_scatter_gather=no", "parallel.sp=no", "parallel.schedule=interleaved",
	                      "parallel.vpp=2"};
	const char *cp2[] = {"parallel.cp=2", "parallel.dp=4", "parallel.cp_comm=allgather"};

	load_plan(&p, NULL, 0);
	calc_comm(&p, &base);
	/* full recomputation repeats the two forward collectives: 6 instead of 4 (ZeRO §8) */
	load_plan(&p, full, 1);
	calc_comm(&p, &c);
	assert_near(c.dim[CALC_DIM_TP].bytes, base.dim[CALC_DIM_TP].bytes * 6 / 4, 1e-12);
	/* no SP and no scatter/gather: the whole bsh per send; interleaving v = 2 doubles the sends
	 * (Narayanan §2.2.2): 2 * 192 * 2 * 41,943,040 = 32,212,254,720 B */
	load_plan(&p, nosg, 4);
	calc_comm(&p, &c);
	assert_near(c.dim[CALC_DIM_PP].bytes, 2 * 192 * 2 * BSH, 1e-12);
	/* CP = 2 (DP 4, m = 384), all-gathered: each rank holds s/2 tokens, so the TP messages halve;
	 * K and V of 80/8 = 10 heads x 128 for the whole sequence: S = 2048 * 2 * 10 * 128 *
	 * 2 = 10,485,760 B; forward all-gather + backward reduce-scatter per layer per
	 * micro-batch at (cp-1)/cp = 1/2: 384 * 10 * 2 * 5,242,880 = 40,265,318,400 B */
	load_plan(&p, cp2, 3);
	calc_comm(&p, &c);
	assert_near(c.dim[CALC_DIM_CP].bytes, 40265318400.0, 1e-12);
	assert_near(c.dim[CALC_DIM_TP].bytes, 384 * 10 * 4 * 1.75 * BSH / 2, 1e-12);
	assert_int_equal(c.dim[CALC_DIM_DP].group.size, 8); /* gradients over DP x CP */
}

/* parallel.cp_comm (docs/references.md §4.7) on the default plan (dense-100b: 80 heads
 * and 80 KV heads of d = 128, tp 8 -> 10 of each per TP rank, 10 layers a stage,
 * s = 2048, b = 1) at cp = 4, dp = 2: m = 1536 / 2 = 768, 7,680 layer passes a step.
 * S = b s 2 g_t d 2 B = 2048 * 2 * 10 * 128 * 2 = 10,485,760 B: this rank's K and V over
 * the whole sequence; a CP rank holds S / 4 = 2,621,440 B of it. */
static void test_cp_comm_modes(void **state)
{
	const char *ag[] = {"parallel.cp=4", "parallel.dp=2", "parallel.cp_comm=allgather"};
	const char *p2p[] = {"parallel.cp=4", "parallel.dp=2", "parallel.cp_comm=p2p"};
	const char *unset[] = {"parallel.cp=4", "parallel.dp=2"};
	const char *a2a[] = {"parallel.cp=4", "parallel.dp=4", "parallel.tp=4", "parallel.cp_comm=a2a"};
	const char *hyb[] = {"parallel.cp=4", "parallel.dp=2", "parallel.cp_comm=a2a+p2p", "parallel.cp_a2a_size=2"};
	const double S = 10485760.0, chunk = S / 4, n = 768.0 * 10;
	struct calc_plan p;
	struct calc_comm c;
	double p1, p2;

	/* allgather (Llama 3 §3.3.2): forward all-gather and backward reduce-scatter of S,
	 * 3/4 of it each: 1.5 S = 15,728,640 B a layer pass */
	load_plan(&p, ag, 3);
	calc_comm(&p, &c);
	assert_near(c.dim[CALC_DIM_CP].bytes, n * 1.5 * S, 1e-12);
	assert_near(c.cp_ring_f + c.cp_ring_b, 0, 1e-12);
	/* p2p (TE AttnFuncWithCPAndKVP2P): forward 3 sends of a chunk; backward K, V with
	 * dK, dV, 6 chunks: 9 x 2,621,440 = 23,592,960 B a pass.  The CP group sits at
	 * stride 8 (tp-cp-pp-dp, tp fills a node): every send crosses the network, 6 us +
	 * bytes / 42.5 GB/s (test_p2p_sp's link); forward 3 sends of a chunk, backward one
	 * chunk in the first and last step and two in the 2 others. */
	load_plan(&p, p2p, 3);
	calc_comm(&p, &c);
	p1 = 6e-6 + chunk / 42.5e9, p2 = 6e-6 + 2 * chunk / 42.5e9;
	assert_near(c.dim[CALC_DIM_CP].bytes, n * 9 * chunk, 1e-12);
	assert_near(c.dim[CALC_DIM_CP].count, n * (3 + 4), 1e-12);
	assert_near(c.cp_layer_f, 3 * p1, 1e-9);
	assert_near(c.cp_layer_b, 2 * p1 + 2 * p2, 1e-9);
	assert_near(c.cp_ring_f, c.cp_layer_f, 1e-12);
	assert_near(c.cp_ring_b, c.cp_layer_b, 1e-12);
	/* a plan that does not write cp_comm takes its stack's: the default plan's
	 * megatron-core-0.19 runs the ring (Megatron-LM --cp-comm-type default p2p,
	 * arguments.py:3054 at core_v0.19.0), the same 9 chunks a pass */
	load_plan(&p, unset, 2);
	calc_comm(&p, &c);
	assert_near(c.dim[CALC_DIM_CP].bytes, n * 9 * chunk, 1e-12);
	/* a2a (Jacobs et al. 2023 §3.1) needs the heads of a TP rank divisible by cp: at tp 4
	 * (dp 4, m = 384, 3,840 layer passes) 20 heads and 20 KV heads a rank.  Each pass two
	 * all-to-alls, of this rank's Q, K, V, b s/cp d (h_t + 2 g_t) 2 B = 512 * 128 * 60 * 2
	 * = 7,864,320 B, and of its output 512 * 128 * 20 * 2 = 2,621,440 B, 3/4 of each
	 * leaving the rank.  (Ulysses' 4 N h / P with N h = 2048 x 2560 x 2 B over P = 4 is
	 * the same 10,485,760 B before the 3/4.) */
	load_plan(&p, a2a, 4);
	calc_comm(&p, &c);
	assert_near(c.dim[CALC_DIM_CP].bytes, 3840.0 * 2 * 0.75 * (7864320.0 + 2621440.0), 1e-12);
	assert_near(c.dim[CALC_DIM_CP].bytes, 3840.0 * 2 * 0.75 * 4 * (2048.0 * 2560 * 2) / 4, 1e-12);
	assert_near(c.cp_ring_f + c.cp_ring_b, 0, 1e-12);
	/* a2a+p2p, a = 2: all-to-alls of 1/2 of the same 5,242,880 B a pass (2,621,440), and a
	 * ring of 4 / 2 = 2 groups passing chunks of S / 4 (g_t / 2 heads, 2 s / 4 tokens):
	 * one forward, two backward: 2 x 2,621,440 + 3 x 2,621,440 = 13,107,200 B a pass */
	load_plan(&p, hyb, 4);
	calc_comm(&p, &c);
	assert_near(c.dim[CALC_DIM_CP].bytes, n * 13107200.0, 1e-12);
	assert_near(c.cp_ring_f, 6e-6 + chunk / 42.5e9, 1e-9);
}

/* The all-to-all's head rule (TE AttnFuncWithCPAndQKVOA2A asserts q and k heads % cp):
 * Llama 3 8B has 32 heads and 8 KV heads. */
static void test_cp_heads(void **state)
{
	const char *l8[] = {"model.preset=llama3-8b", "parallel.cp_comm=a2a"};
	const char *l8h[] = {"model.preset=llama3-8b", "parallel.cp_comm=a2a+p2p", "parallel.cp_a2a_size=4"};
	struct calc_plan p;
	int q = 0, kv = 0;

	load_plan(&p, l8, 2);
	/* tp 8: 4 query heads and 1 KV head a rank: no a2a over 2 */
	assert_int_equal(calc_cp_heads_ok(&p, 8, 2, &q, &kv), 0);
	assert_int_equal(q, 4);
	assert_int_equal(kv, 1);
	/* tp 1: 32 and 8: cp 8 divides both, cp 16 not the 8 KV heads */
	assert_int_equal(calc_cp_heads_ok(&p, 1, 8, NULL, NULL), 1);
	assert_int_equal(calc_cp_heads_ok(&p, 1, 16, NULL, NULL), 0);
	assert_int_equal(calc_cp_heads_ok(&p, 8, 1, NULL, NULL), 1); /* no CP, no rule */
	/* a2a+p2p over groups of 4: tp 2 leaves 16 and 4 heads, any cp a multiple of 4 */
	load_plan(&p, l8h, 3);
	assert_int_equal(calc_cp_a2a_group(&p, 32), 4);
	assert_int_equal(calc_cp_heads_ok(&p, 2, 32, NULL, NULL), 1);
	assert_int_equal(calc_cp_heads_ok(&p, 4, 32, NULL, NULL), 0); /* 2 KV heads a rank */
}

/* CP of a Mamba-2 layer (Megatron-Core MambaContextParallel, mamba_context_parallel.py at
 * d98e8a64dd; docs/references.md §4.11), on Nemotron-H 8B (calc/presets.c: hidden 4096,
 * 128 Mamba heads of 64, d_i = 8,192, state N = 128, 8 groups; 24 M, 4 *, 24 - layers),
 * seq 8,192, micro-batch 1, BF16.  Per layer pass five all-to-alls of the in_proj output
 * (z, x d_i / t; B, C N max(G / t, cp); dt H / t wide) and one of y (d_i / t), each of
 * the rank's s / cp tokens, (cp - 1) / cp of it leaving the rank:
 *   tp 1, cp 2: 8192 + 8192 + 1024 + 1024 + 128 + 8192 = 26,752 values a token,
 *     x 4,096 tokens x 2 B x 1/2 = 109,576,192 B;
 *   tp 8, cp 2: 1 group a TP rank, repeated to 2: 1024 + 1024 + 256 + 256 + 16 + 1024
 *     = 3,600, x 4,096 x 2 x 1/2 = 14,745,600 B. */
static void test_cp_mamba(void **state)
{
	const char *t1[] = {"model.preset=nemotron-h-8b", "training.seq_len=8192", "training.global_batch=512",
	                    "cluster.nodes=32", "parallel.tp=1", "parallel.pp=1", "parallel.cp=2", "parallel.cp_comm=p2p"};
	const char *t8[] = {"model.preset=nemotron-h-8b", "training.seq_len=8192", "training.global_batch=512",
	                    "cluster.nodes=32", "parallel.tp=8", "parallel.pp=1", "parallel.cp=2", "parallel.cp_comm=p2p"};
	const char *rc[] = {"model.preset=nemotron-h-8b", "training.seq_len=8192", "training.global_batch=512",
	                    "cluster.nodes=32", "parallel.tp=1", "parallel.pp=1", "parallel.cp=2", "parallel.cp_comm=p2p",
	                    "parallel.recompute=full"};
	double w[6] = {8192, 8192, 1024, 1024, 128, 8192}, a2a = 0;
	struct calc_plan p;
	struct calc_comm c;
	struct calc_group g;
	struct calc_links l;
	struct calc_model m;
	(void)state;

	load_plan(&p, t1, 8);
	calc_comm(&p, &c);
	assert_near(c.cp_mamba_bytes, 109576192.0, 1e-12);
	/* the same six sizes timed one by one on the CP group (2 adjacent ranks, NVLink);
	 * nothing overlaps them, the backward runs the same six */
	calc_comm_group(&p, CALC_DIM_CP, &g);
	calc_comm_links(&p, &l);
	for (int i = 0; i < 6; i++)
		a2a += calc_coll_time(CALC_COLL_ALLTOALL, 4096.0 * w[i] * 2, &g, &l);
	assert_near(c.cp_mamba_f, a2a, 1e-12);
	assert_near(c.cp_mamba_b, a2a, 1e-12);
	/* the CP row: 512 / (1 x 128) = 4 micro-batches; 24 Mamba layers, forward and
	 * backward; 4 attention layers on the ring (K = 8192 x 2 x 8 x 128 x 2 B, chunk K / 2
	 * = 16,777,216 B: one send forward, two chunks backward); the MLP layers none:
	 * 4 x (24 x 2 x 109,576,192 + 4 x 3 x 16,777,216) = 21,843,935,232 B */
	assert_near(c.dim[CALC_DIM_CP].bytes, 21843935232.0, 1e-12);
	/* full recomputation repeats the forward's six */
	load_plan(&p, rc, 9);
	calc_comm(&p, &c);
	assert_near(c.cp_mamba_b, 2 * a2a, 1e-12);
	/* tp 8: the group repeat */
	load_plan(&p, t8, 8);
	calc_comm(&p, &c);
	assert_near(c.cp_mamba_bytes, 14745600.0, 1e-12);

	/* the rules (mamba_context_parallel.py lines 103-132): 128 heads and 8 groups */
	m = p.model;
	assert_int_equal(calc_cp_mamba_ok(&m, 1, 2), 1);
	assert_int_equal(calc_cp_mamba_ok(&m, 8, 2), 1);   /* 16 heads, 1 group repeated to 2 */
	assert_int_equal(calc_cp_mamba_ok(&m, 8, 16), 1);  /* 16 heads, 1 head a CP rank */
	assert_int_equal(calc_cp_mamba_ok(&m, 8, 32), 0);  /* 16 heads over 32 ranks */
	assert_int_equal(calc_cp_mamba_ok(&m, 1, 1), 1);
	m.mamba.heads = 96, m.mamba.groups = 6;
	assert_int_equal(calc_cp_mamba_ok(&m, 1, 3), 1);   /* 6 groups, 2 a rank */
	assert_int_equal(calc_cp_mamba_ok(&m, 1, 4), 0);   /* 6 groups over 4: neither divides */
	assert_int_equal(calc_cp_mamba_ok(&m, 3, 4), 1);   /* 32 heads; 2 groups, each repeated to 2 ranks */
	assert_near(calc_cp_mamba_groups(&m, 3, 4), 4, 1e-12);
	assert_near(calc_cp_mamba_groups(&m, 1, 3), 6, 1e-12);
}

/* CP of a gated delta-net layer (Megatron-Core gated_delta_net/gdn.py and common.py at
 * d98e8a64dd; docs/references.md §4.11) on Qwen3-Next 80B-A3B (calc/presets.c: 16 key
 * heads and 32 value heads of 128; 36 G, 12 *, 48 E layers), seq 8,192, micro-batch 1,
 * BF16, tp 1, cp 2: one all-to-all of the in_proj output, 2 x 2,048 + 2 x 4,096 + 2 x 32
 * = 12,352 values a token, and one of the norm's output, 4,096: 16,448 x 4,096 tokens x
 * 2 B x 1/2 = 67,371,008 B a pass. */
static void test_cp_gdn(void **state)
{
	const char *s1[] = {"model.preset=qwen3-next-80b-a3b", "training.seq_len=8192", "training.global_batch=512",
	                    "cluster.nodes=32", "parallel.tp=1", "parallel.pp=1", "parallel.cp=2", "parallel.cp_comm=p2p"};
	double w[2] = {12352, 4096}, a2a = 0;
	struct calc_plan p;
	struct calc_comm c;
	struct calc_group g;
	struct calc_links l;
	struct calc_model m;
	(void)state;

	load_plan(&p, s1, 8);
	calc_comm(&p, &c);
	assert_near(c.cp_gdn_bytes, 67371008.0, 1e-12);
	assert_near(c.cp_mamba_bytes, 0, 1e-12);
	calc_comm_group(&p, CALC_DIM_CP, &g);
	calc_comm_links(&p, &l);
	for (int i = 0; i < 2; i++)
		a2a += calc_coll_time(CALC_COLL_ALLTOALL, 4096.0 * w[i] * 2, &g, &l);
	assert_near(c.cp_gdn_f, a2a, 1e-12);
	assert_near(c.cp_gdn_b, a2a, 1e-12);
	/* the CP row: 4 micro-batches; 36 G layers both ways; 12 attention layers on the ring
	 * (K = 8192 x 2 x 2 KV heads x 256 x 2 B, chunk K / 2 = 8,388,608 B, three a pass):
	 * 4 x (36 x 2 x 67,371,008 + 12 x 3 x 8,388,608) = 20,610,809,856 B */
	assert_near(c.dim[CALC_DIM_CP].bytes, 20610809856.0, 1e-12);
	/* the rule: key heads 16 and value heads 32 of a TP rank divisible by cp */
	m = p.model;
	assert_int_equal(calc_cp_gdn_ok(&m, 1, 16), 1);
	assert_int_equal(calc_cp_gdn_ok(&m, 1, 32), 0);
	assert_int_equal(calc_cp_gdn_ok(&m, 4, 4), 1);  /* 4 and 8 a TP rank */
	assert_int_equal(calc_cp_gdn_ok(&m, 4, 8), 0);
}

static void test_zero_volumes(void **state)
{
	/* ZeRO §7: plain DP moves 2 Psi, ZeRO-1/2 also 2 Psi, ZeRO-3 3 Psi (1.5x), with
	 * gradients and weights of the same width (zero-paper recipe: 2 B each) and one
	 * micro-batch (global batch 8 = dp). */
	const char *z0[] = {"training.recipe=zero-paper", "training.global_batch=8", "parallel.zero=0"};
	const char *z1[] = {"training.recipe=zero-paper", "training.global_batch=8", "parallel.zero=1"};
	const char *z3[] = {"training.recipe=zero-paper", "training.global_batch=8", "parallel.zero=3"};
	struct calc_plan p;
	struct calc_comm c0, c1, c3;

	load_plan(&p, z0, 3);
	calc_comm(&p, &c0);
	load_plan(&p, z1, 3);
	calc_comm(&p, &c1);
	load_plan(&p, z3, 3);
	calc_comm(&p, &c3);
	/* 2 (n-1)/n Psi * 2 B with n = 8 */
	assert_near(c0.dim[CALC_DIM_DP].bytes, 2 * 7.0 / 8 * c0.grad_params * 2, 1e-12);
	assert_near(c1.dim[CALC_DIM_DP].bytes / c0.dim[CALC_DIM_DP].bytes, 1.0, 1e-12);
	assert_near(c3.dim[CALC_DIM_DP].bytes / c0.dim[CALC_DIM_DP].bytes, 1.5, 1e-12);
}

/* The DP collectives of ZeRO-1 move the recipe's weight bytes in the parameter
 * all-gather: default plan (dp 8, FP32 main gradients G = 4 psi): fp8-te gathers BF16
 * weights, 7/8 (4 + 2) psi per step; fp8-params (TE's FP8 parameters, Megatron-Core
 * --fp8-param-gather) gathers FP8, 7/8 (4 + 1) psi (docs/references.md §2.1). */
static void test_fp8_param_gather(void **state)
{
	const char *te[] = {"training.recipe=fp8-te"};
	const char *fp[] = {"training.recipe=fp8-params"};
	struct calc_plan p;
	struct calc_comm a, b;
	(void)state;
	load_plan(&p, te, 1);
	calc_comm(&p, &a);
	load_plan(&p, fp, 1);
	calc_comm(&p, &b);
	assert_near(a.dim[CALC_DIM_DP].bytes, 7.0 / 8 * 6 * a.grad_params, 1e-12);
	assert_near(b.dim[CALC_DIM_DP].bytes, 7.0 / 8 * 5 * b.grad_params, 1e-12);
}

static void test_zero2_per_microbatch(void **state)
{
	/* ZeRO-2 shards the gradients (ZeRO §5.2): a rank cannot accumulate the full
	 * gradient over micro-batches, so every micro-batch reduce-scatters its gradients.
	 * Default plan (megatron recipe, fp32 grads G = 4 psi, bf16 weights W = 2 psi,
	 * dp 8, m = 192): ZeRO-1 moves 7/8 (G + W) = 7/8 x 6 psi per step, ZeRO-2
	 * 7/8 (192 G + W) = 7/8 x 770 psi, ZeRO-3 7/8 (192 G + 384 W) = 7/8 x 1536 psi. */
	const char *z2[] = {"parallel.zero=2"};
	const char *z3[] = {"parallel.zero=3"};
	struct calc_plan p;
	struct calc_comm c1, c2, c3;
	struct calc_step *s1 = malloc(sizeof *s1), *s2 = malloc(sizeof *s2);

	load_plan(&p, NULL, 0);
	calc_comm(&p, &c1);
	calc_step_fast(&p, s1);
	load_plan(&p, z2, 1);
	calc_comm(&p, &c2);
	calc_step_fast(&p, s2);
	load_plan(&p, z3, 1);
	calc_comm(&p, &c3);
	assert_near(c2.grad_params, c1.grad_params, 1e-12);
	assert_near(c1.dim[CALC_DIM_DP].bytes, 7.0 / 8 * 6 * c1.grad_params, 1e-12);
	assert_near(c2.dim[CALC_DIM_DP].bytes, 7.0 / 8 * (192 * 4 + 2) * c1.grad_params, 1e-12);
	assert_near(c3.dim[CALC_DIM_DP].bytes, 7.0 / 8 * (192 * 4 + 384 * 2) * c1.grad_params, 1e-12);
	assert_near(c2.dim[CALC_DIM_DP].count, 193, 1e-12);
	/* the saving in gradient memory is paid for in step time */
	assert_true(s2->time > s1->time * 1.5);
	free(s1);
	free(s2);
}

static void test_tp_across_nodes(void **state)
{
	/* TP 16 on 8-GPU nodes (H100 preset: NVLink busbw 370 GB/s, 3 us; NDR 50 GB/s x
	 * 0.85 = 42.5 GB/s, 6 us): two nodes, 8 ranks each.  With SP the forward runs two
	 * all-gathers and two reduce-scatters of S = bsh = 41,943,040 B, each hierarchical:
	 * on NVLink 7 steps x 3 us + 7/8 S / 370e9, across the 2 nodes 1 step x 6 us +
	 * 1/2 (S/8) / 42.5e9.  Network bytes per reduce-scatter: 1/2 * S/8. */
	const char *s16[] = {"parallel.tp=16", "parallel.pp=4"};
	struct calc_plan p;
	struct calc_comm c8, c16;

	load_plan(&p, NULL, 0);
	calc_comm(&p, &c8);
	load_plan(&p, s16, 2);
	calc_comm(&p, &c16);
	assert_int_equal(c16.dim[CALC_DIM_TP].group.tier, CALC_TIER_NET);
	assert_int_equal(c16.dim[CALC_DIM_TP].group.nodes, 2);
	assert_near(c16.tp_layer_f, 4 * (7 * 3e-6 + 7.0 / 8 * BSH / 370e9 + 6e-6 + 0.5 * BSH / 8 / 42.5e9), 1e-9);
	/* m = 1536 / 8 = 192, 80 / 4 = 20 layers, 8 collectives per layer */
	assert_near(c16.dim[CALC_DIM_TP].net_bytes, 192 * 20 * 8 * 0.5 * BSH / 8, 1e-12);
	assert_true(c16.tp_layer_f > c8.tp_layer_f);
}

static void test_a100_busbw(void **state)
{
	/* dgx-a100-hdr: collective busbw from the NVLink3 line rate per direction (300 GB/s,
	 * docs/references.md §6) times the protocol factor NCCL shows on H100 (370 / 450,
	 * nvidia/nccl-tests #212): 246.67 GB/s, not the 195 GB/s sendrecv measurement. */
	const struct calc_cluster_preset *c = calc_preset_cluster("dgx-a100-hdr");
	const struct calc_cluster_preset *h = calc_preset_cluster("dgx-h100-ndr");

	assert_non_null(c);
	assert_near(c->intra_busbw, 246.666667e9, 1e-6);
	assert_near(c->intra_busbw / c->intra_bw, h->intra_busbw / h->intra_bw, 1e-12);
}

/* FSDP (parallel.fsdp): one all-gather per layer, by hand.  RMSNorm layer of h = 1024,
 * f = 4096, no biases: 4h^2 + 2hf + 2h = 12,584,960 parameters, 2 bytes each (BF16
 * weights of the megatron recipe).  A flat ring over 16 ranks on the network at
 * 10 GB/s x dp_bandwidth 0.5, no latency: 15/16 * 25,169,920 B / 5e9 B/s. */
static const char *const fsdp_sets[] = {
	"model.layers=2", "model.hidden=1024", "model.heads=8", "model.kv_heads=8", "model.ffn_hidden=4096",
	"model.vocab=1024", "model.mlp=gelu", "model.norm=rmsnorm", "model.bias=no", "model.tied_embeddings=yes",
	"model.dropout=no", "model.max_pos=0", "cluster.nodes=2", "cluster.gpus_per_node=8", "parallel.tp=1",
	"parallel.pp=1", "parallel.cp=1", "parallel.dp=16", "parallel.vpp=1", "parallel.schedule=1f1b",
	"training.global_batch=32", "training.micro_batch=1", "cluster.inter_node_bw=10e9",
	"cluster.inter_node_eff=1", "cluster.inter_node_latency=0", "cluster.intra_node_latency=0",
	"efficiency.dp_bandwidth=0.5", "efficiency.dp_algorithm=flat", "efficiency.grad_reduce=bf16",
	"parallel.fsdp=yes",
};
#define NFSDP (int)(sizeof fsdp_sets / sizeof fsdp_sets[0])

static void test_fsdp_per_layer(void **state)
{
	struct calc_plan p;
	struct calc_comm c;
	const char *sets[NFSDP + 1];
	(void)state;
	for (int i = 0; i < NFSDP; i++)
		sets[i] = fsdp_sets[i];
	load_plan(&p, sets, NFSDP);
	assert_int_equal(p.zero, 3); /* FSDP full shard is ZeRO-3 */
	calc_comm(&p, &c);
	assert_int_equal(c.fsdp, 1);
	assert_near(c.fsdp_ag[0], 15.0 / 16 * 25169920 / 5e9, 1e-9);
	assert_near(c.fsdp_rs[0], 15.0 / 16 * 25169920 / 5e9, 1e-9); /* BF16 gradients, same size */
	/* m = 32 / 16 = 2 micro-batches: gather in forward and again in backward each */
	assert_near(c.fsdp_gathers, 4, 0);
	assert_near(c.fsdp_reduces, 2, 0);
	sets[NFSDP] = "parallel.no_sync=yes";
	load_plan(&p, sets, NFSDP + 1);
	calc_comm(&p, &c);
	assert_near(c.fsdp_reduces, 1, 0);
	sets[NFSDP] = "parallel.reshard_after_forward=no";
	load_plan(&p, sets, NFSDP + 1);
	calc_comm(&p, &c);
	assert_near(c.fsdp_gathers, 2, 0);
}

/* parallel.fsdp_fp8_gather: the plan of test_fsdp_per_layer with torchao's Float8 linears
 * (recipe torch-mp-fp8) gathers a layer's 12,584,960 parameters at 1 byte, half the BF16
 * time: 15/16 x 12,584,960 B / 5e9 B/s; the embedding unit (tied, V h = 1,048,576
 * parameters) keeps its 2 bytes (torchtitan's Float8 converter swaps nn.Linear only, and
 * not the output layer), and the reduce-scatters keep the BF16 gradients.  Without the key
 * the layer gathers in BF16, as before.  The step's gathered volume, x->bytes, falls by
 * one byte of each of the 2 layers' parameters in each of the 4 gathers (2 micro-batches,
 * forward and backward): 4 x 15/16 x 2 x 12,584,960 B. */
static void test_fsdp_fp8_gather(void **state)
{
	struct calc_plan p;
	struct calc_comm c, c0;
	const char *sets[NFSDP + 2];
	(void)state;
	for (int i = 0; i < NFSDP; i++)
		sets[i] = fsdp_sets[i];
	sets[NFSDP] = "training.recipe=torch-mp-fp8";
	load_plan(&p, sets, NFSDP + 1);
	calc_comm(&p, &c0);
	assert_near(c0.fsdp_ag[0], 15.0 / 16 * 25169920 / 5e9, 1e-9);
	sets[NFSDP + 1] = "parallel.fsdp_fp8_gather=yes";
	load_plan(&p, sets, NFSDP + 2);
	calc_comm(&p, &c);
	assert_near(c.fsdp_ag[0], 15.0 / 16 * 12584960 / 5e9, 1e-9);
	assert_near(c.fsdp_ag_first, 15.0 / 16 * 2 * 1048576 / 5e9, 1e-9);
	assert_near(c.fsdp_ag_first, c0.fsdp_ag_first, 1e-15);
	assert_near(c.fsdp_rs[0], 15.0 / 16 * 25169920 / 5e9, 1e-9);
	assert_near(c.fsdp_gathers, 4, 0);
	assert_near(c0.dim[CALC_DIM_DP].bytes - c.dim[CALC_DIM_DP].bytes, 4 * 15.0 / 16 * 2 * 12584960 * 1.0, 1e-3);
}

/* Without prefetch nothing overlaps: the exposed DP time is every collective (a second
 * method: the sum comm.c reports); with prefetch it is less, and never negative. */
static void test_fsdp_exposure(void **state)
{
	struct calc_plan p;
	struct calc_step st;
	struct calc_diag d = {0};
	const char *sets[NFSDP + 1];
	double serial;
	(void)state;
	for (int i = 0; i < NFSDP; i++)
		sets[i] = fsdp_sets[i];
	sets[NFSDP] = "parallel.fsdp_prefetch=0";
	load_plan(&p, sets, NFSDP + 1);
	assert_int_equal(calc_step(&p, &st, &d), 0);
	assert_near(st.dp_exposed, st.comm.dim[CALC_DIM_DP].time, 1e-12);
	serial = st.dp_exposed;
	load_plan(&p, sets, NFSDP);
	assert_int_equal(calc_step(&p, &st, &d), 0);
	assert_true(st.dp_exposed < serial);
	assert_true(st.dp_exposed >= 0);
	calc_diag_free(&d);
}

/* DeepSeek-V3 on 256 nodes x 8, tp 1, pp 16, ep 64, s 4096 by hand, pipeline stages
 * outermost (placement tp-cp-dp-pp): the EP group spans 8 nodes of 8 ranks.  The
 * alltoall dispatcher sends one copy per routed expert, k = 8 per token, whatever the
 * node limit: 8 x 7 / 64 = 0.875 of them over NVLink and 8 x 7 / 8 = 7 over the network.
 * Per copy per MoE layer per micro-batch 4 (dispatch, combine, forward, backward) x
 * 4096 x 7168 x 2 bytes; the worst stage holds 4 MoE layers, and m = 15360 / 128 = 120
 * micro-batches.  DeepEP (moe.dispatcher = deepep) with at most M = 4 nodes: the 8
 * experts fall among the 4 x 32 = 128 experts of the 4 nodes, 4 on each of 32 GPUs; a
 * GPU is missed with C(124, 8) / C(128, 8) = 0.770019685 (Python math.comb), a node with
 * C(96, 8) / C(128, 8) = 0.092747269: G = 32 x 0.229980315 = 7.359370079 target GPUs,
 * D = 4 x 0.907252731 = 3.629010924 target nodes; NVLink G x 7/8 = 6.439448819 copies,
 * the network D x 7/8 = 3.175384559.  Without the node limit: C(252, 8) / C(256, 8) and
 * C(224, 8) / C(256, 8) give 6.716281418 and 4.632820500. */
static void test_ep_alltoall(void **state)
{
	const char *sets[] = {"model.preset=deepseek-v3", "tp=1", "pp=16", "dp=0", "ep=64", "nodes=256",
	                      "global_batch=15360", "parallel.split=remainder-first", "seq_len=4096", "sp=no",
	                      "parallel.placement=tp-cp-dp-pp"};
	struct calc_plan p;
	struct calc_ep_comm e;
	double copy = 4.0 * 4096 * 7168 * 2 * 4 * 120;
	load_plan(&p, sets, 11);
	calc_comm_ep(&p, &e);
	assert_int_equal(e.per_node, 8);
	assert_int_equal(e.nodes, 8);
	assert_near(e.nvl_bytes, copy * 0.875, 1e-12);
	assert_near(e.net_bytes, copy * 7, 1e-12);
	assert_true(calc_plan_set(&p, "moe.dispatcher=deepep", "test", &(struct calc_diag){0}) == 0);
	calc_comm_ep(&p, &e);
	assert_near(e.nvl_bytes, copy * 6.439448819, 1e-9);
	assert_near(e.net_bytes, copy * 3.175384559, 1e-9);
	assert_true(calc_plan_set(&p, "model.moe_node_limit=0", "test", &(struct calc_diag){0}) == 0);
	calc_comm_ep(&p, &e);
	assert_near(e.nvl_bytes, copy * 6.716281418, 1e-9);
	assert_near(e.net_bytes, copy * 4.632820500, 1e-9);
	assert_true(calc_plan_set(&p, "moe.dispatcher=alltoall", "test", &(struct calc_diag){0}) == 0);
	calc_comm_ep(&p, &e);
	assert_near(e.net_bytes, copy * 8 * 7 / 8, 1e-12);
	/* the default placement tp-cp-pp-dp puts the 16 stages innermost after tp = cp = 1:
	 * a node holds 8 stages, one GPU of each, so the 64 EP ranks of a stage sit on 64
	 * nodes and every copy but the own one crosses the network: 8 x 63 / 64 */
	assert_true(calc_plan_set(&p, "parallel.placement=tp-cp-pp-dp", "test", &(struct calc_diag){0}) == 0);
	calc_comm_ep(&p, &e);
	assert_int_equal(e.per_node, 1);
	assert_int_equal(e.nodes, 64);
	assert_true(e.nvl_bytes == 0);
	assert_near(e.net_bytes, copy * 8 * 63 / 64, 1e-12);
}

/* The allgather dispatcher (Megatron-Core MoEAllGatherTokenDispatcher) on Mixtral 8x7B,
 * one node of 8, tp 1, ep 8: every rank all-gathers the T h e = 4096 x 4096 x 2 B of the 8 ranks and
 * reduce-scatters as much back, the ring's bus bytes 7/8 of the 8 T h e array each, k
 * not entering: 2 x 7 x 4096 x 4096 x 2 B per pass pair, 4 passes (dispatch + combine,
 * forward and backward; no recomputation) per layer and micro-batch, 32 layers, m = 64 /
 * 8 = 8; all over NVLink.  The alltoall dispatcher sends k = 2 copies, 7/8 of them to
 * other GPUs: 2 x 7/8 x T h e per pass. */
static void test_ep_allgather(void **state)
{
	const char *sets[] = {"model.preset=mixtral-8x7b", "cluster.nodes=1", "tp=1", "pp=1", "dp=8", "ep=8",
	                      "sp=no", "seq_len=4096", "global_batch=64", "recompute=selective", "moe.dispatcher=allgather"};
	struct calc_plan p;
	struct calc_ep_comm e;
	double the = 4096.0 * 4096 * 2;
	load_plan(&p, sets, 11);
	calc_comm_ep(&p, &e);
	assert_near(e.bytes, 4 / 2 * 2 * 7 * the * 32 * 8, 1e-12);
	assert_true(e.net_bytes == 0);
	assert_true(calc_plan_set(&p, "moe.dispatcher=alltoall", "test", &(struct calc_diag){0}) == 0);
	calc_comm_ep(&p, &e);
	assert_near(e.bytes, 4 * 2 * 7.0 / 8 * the * 32 * 8, 1e-12);
}

/* The expert-DP gradient reduction of Mixtral 8x7B on one node of 8, tp 1, dp 8, ep 4:
 * edp = 8 / 4 = 2 GPUs hold the same 2 experts of each of the 32 layers, 32 x 2 x 3 x
 * 4096 x 14336 = 11,274,289,152 parameters; ZeRO-1 reduce-scatters their FP32 gradients
 * (megatron recipe: 4 B) and all-gathers the BF16 weights (2 B), 1/2 of each message
 * per GPU: 3 B per parameter.  With etp 2 (edp 1) nothing is reduced and every MoE
 * layer's forward and backward each run an all-gather and a reduce-scatter of the
 * k T etp = 2 x 4096 x 2 copies of h = 4096 BF16 values over 2 ranks. */
static void test_expert_dp_reduction(void **state)
{
	const char *sets[] = {"model.preset=mixtral-8x7b", "cluster.nodes=1", "tp=1", "pp=1", "dp=8", "ep=4",
	                      "zero=1", "sp=no", "seq_len=4096", "global_batch=64"};
	struct calc_plan p;
	struct calc_comm c;
	struct calc_ep_comm e;
	double P = 32 * 2 * 3 * 4096.0 * 14336;

	load_plan(&p, sets, 10);
	assert_int_equal(p.edp, 2);
	calc_comm(&p, &c);
	assert_near(c.edp_params, P, 1e-12);
	assert_near(c.edp_bytes, 3 * P, 1e-12);
	assert_int_equal(c.edp_group.size, 2);
	assert_true(c.edp_group.tier == CALC_TIER_NVLINK);
	assert_near(c.bytes_total, c.dim[CALC_DIM_TP].bytes + c.dim[CALC_DIM_CP].bytes + c.dim[CALC_DIM_PP].bytes +
	                           c.dim[CALC_DIM_DP].bytes + c.ep.bytes, 1e-12);
	assert_true(calc_plan_set(&p, "etp=2", "test", &(struct calc_diag){0}) == 0);
	assert_int_equal(p.edp, 1);
	calc_comm(&p, &c);
	calc_comm_ep(&p, &e);
	assert_true(c.edp_bytes == 0);
	/* 4 collectives per MoE layer per micro-batch, m = 64 / 8 = 8, half the gathered
	 * array each on 2 ranks */
	assert_near(e.etp_bytes, 4.0 * 32 * 8 * 0.5 * (2 * 4096.0 * 2 * 4096 * 2), 1e-12);
}

/* The exposed time of every row of the comm table (step.c's critical GPU) is at most the
 * collective's own time (comm.c): what is hidden can only shrink it.  The cases cover
 * the MoE layer of DeepSeek-V3's multi-token prediction module on the last stage, which
 * the EP row missed while the step charged it (pp 2: 30 + 1 MoE blocks on the last
 * stage against the 28 of the first, 3 of whose 31 layers are dense), DualPipe, full
 * recomputation with block checkpointing, FSDP, TP across nodes, Mixtral with ETP, and
 * the dispatchers: DeepEP, the EP overlap of Megatron-Core and allgather with imbalance. */
static void test_exposed_within_time(void **state)
{
	static const char *const cases[][12] = {
		{"model.preset=deepseek-v3", "cluster.preset=hgx-b200-ndr", "nodes=256", "tp=1", "pp=2", "dp=0",
		 "ep=64", "global_batch=15360", "seq_len=4096", "schedule=1f1b", "recompute=full",
		 "parallel.split=remainder-first"},
		{"model.preset=deepseek-v3", "cluster.preset=hgx-h800-ib", "nodes=256", "tp=1", "pp=16", "dp=0",
		 "ep=64", "global_batch=15360", "seq_len=4096", "schedule=dualpipe", "recompute=full",
		 "parallel.split=remainder-first"},
		{"model.preset=deepseek-v3", "cluster.preset=hgx-b200-ndr", "nodes=128", "tp=2", "pp=8", "dp=0",
		 "ep=32", "global_batch=4096", "seq_len=4096", "recompute=full", "recompute_method=block",
		 "parallel.split=remainder-first"},
		{"model.preset=mixtral-8x7b", "nodes=4", "tp=2", "pp=2", "dp=0", "ep=4", "etp=2", "global_batch=256",
		 "seq_len=4096", "recompute=selective", "sp=yes", "zero=1"},
		{"nodes=64", "tp=8", "pp=8", "dp=0", "fsdp=yes", "zero=3", "recompute=full", NULL},
		{"nodes=64", "tp=16", "pp=4", "dp=0", "efficiency.tp_overlap=0.5", "efficiency.tp_overlap_sms=16",
		 "cp=2", NULL},
		{"model.preset=deepseek-v3", "cluster.preset=hgx-b200-ndr", "nodes=256", "tp=1", "pp=2", "dp=0",
		 "ep=64", "global_batch=15360", "seq_len=4096", "schedule=1f1b", "moe.dispatcher=deepep",
		 "parallel.split=remainder-first"},
		{"model.preset=mixtral-8x7b", "nodes=4", "tp=1", "pp=4", "dp=0", "ep=8", "global_batch=256",
		 "schedule=interleaved", "vpp=2", "moe.overlap_ep_comm=yes", "recompute=selective", NULL},
		{"model.preset=mixtral-8x7b", "nodes=2", "tp=1", "pp=1", "dp=0", "ep=8", "global_batch=64",
		 "moe.dispatcher=allgather", "model.moe_imbalance=1.5", NULL},
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		struct calc_plan p;
		struct calc_step st;
		struct calc_diag d = {0};
		int n = 0;
		while (n < 12 && cases[c][n])
			n++;
		load_plan(&p, cases[c], n);
		assert_int_equal(calc_step(&p, &st, &d), 0);
		calc_diag_free(&d);
		for (int i = 0; i < CALC_DIM_N; i++) {
			if (st.exposed[i] > st.comm.dim[i].time * (1 + 1e-12) + 1e-15)
				print_error("case %zu, %s: exposed %.6g s > time %.6g s\n", c, calc_dim_name((enum calc_dim)i),
				            st.exposed[i], st.comm.dim[i].time);
			assert_true(st.exposed[i] <= st.comm.dim[i].time * (1 + 1e-12) + 1e-15);
		}
		if (st.ep_exposed > st.comm.ep.time * (1 + 1e-12))
			print_error("case %zu, EP: exposed %.6g s > time %.6g s\n", c, st.ep_exposed, st.comm.ep.time);
		assert_true(st.ep_exposed <= st.comm.ep.time * (1 + 1e-12));
	}
}

/* The H800 cluster as the DeepSeek-V3 report (§3.1-3.2.2) states it: NVLink 160 GB/s
 * and InfiniBand 50 GB/s per GPU, 8 GPUs a node; H800 compute as H100 SXM. */
static void test_h800_preset(void **state)
{
	const char *sets[] = {"cluster.preset=hgx-h800-ib", "cluster.nodes=64"};
	struct calc_plan p;
	load_plan(&p, sets, 2);
	assert_near(p.intra_node_bw, 160e9, 1e-12);
	assert_near(p.inter_node_bw, 50e9, 1e-12);
	assert_int_equal(p.gpus_per_node, 8);
	assert_near(p.gpu.bf16_flops, calc_preset_gpu("h100-sxm-80g")->bf16_flops, 1e-12);
	assert_near(p.gpu.fp8_flops, 1979e12, 1e-12);
	assert_string_equal(p.gpu.name, "h800-80g");
}

/* Three tiers (docs/references.md §4.6): 8 nodes of one GPU each under 2 leaves of 4, the
 * spine at half the NIC bandwidth (oversubscription 2).  All-reduce of S = 1 GB: inside
 * each leaf a reduce-scatter over 4 nodes, 3 x 6 us + 3/4 x 1e9 / 50e9 = 15.018 ms; across
 * the spine an all-reduce of the 1/4 shard over 2 leaves, 2 x 6 us + 2 (1/2) x 2.5e8 /
 * 25e9 = 10.012 ms; the all-gather inside the leaves 15.018 ms: 40.048 ms, against the
 * flat ring's 14 x 6 us + 2 x 7/8 x 1e9 / 50e9 = 35.084 ms on one leaf. */
static void test_spine(void **state)
{
	struct calc_links l = {400e9, 3e-6, 50e9, 6e-6, 25e9, 6e-6};
	struct calc_links l0 = {400e9, 0, 50e9, 0, 50e9, 0};
	struct calc_group two = {8, 1, 8, CALC_TIER_SPINE, 2, 4}, flat = {8, 1, 8, CALC_TIER_NET, 1, 8};
	struct calc_group g16 = {64, 8, 8, CALC_TIER_SPINE, 4, 2}, f16 = {64, 8, 8, CALC_TIER_NET, 1, 8};
	assert_near(calc_coll_time(CALC_COLL_ALLREDUCE, 1e9, &two, &l), 40.048e-3, 1e-9);
	assert_near(calc_coll_time(CALC_COLL_ALLREDUCE, 1e9, &flat, &l), 35.084e-3, 1e-9);
	/* reduce-scatter: 15.018 ms in the leaves + 1 x 6 us + (1/2) x 2.5e8 / 25e9 = 5.006 ms */
	assert_near(calc_coll_time(CALC_COLL_REDUCESCATTER, 1e9, &two, &l), 20.024e-3, 1e-9);
	/* a send across leaves: 6 us + 1e9 / 25e9 = 40.006 ms */
	assert_near(calc_coll_time(CALC_COLL_P2P, 1e9, &two, &l), 40.006e-3, 1e-9);
	/* without oversubscription or latency the levels add up to the flat ring:
	 * 2(4-1)/4 + 2(2-1)/(2 x 4) = 2(8-1)/8 of the shard, also with 8 GPUs per node */
	assert_near(calc_coll_time(CALC_COLL_ALLREDUCE, 1e9, &two, &l0), calc_coll_time(CALC_COLL_ALLREDUCE, 1e9, &flat, &l0), 1e-12);
	assert_near(calc_coll_time(CALC_COLL_ALLGATHER, 1e9, &g16, &l0), calc_coll_time(CALC_COLL_ALLGATHER, 1e9, &f16, &l0), 1e-12);
	assert_near(calc_coll_net_bytes(CALC_COLL_ALLREDUCE, 1e9, &two), 2 * 7.0 / 8 * 1e9, 1e-12);

	/* The default plan (tp 8, pp 8, dp 8 on 64 nodes of 8) in the order tp-cp-pp-dp: the
	 * DP group's ranks are 64 apart, one per node, nodes 0, 8, ..., 56.  With 32 nodes per
	 * leaf it spans 2 leaves of 4 of its nodes; with 64 per leaf one leaf, and nothing
	 * changes.  (In Megatron-Core's tp-cp-ep-dp-pp the DP ranks are 8 apart, on nodes
	 * 0 .. 7 under one leaf.) */
	struct calc_plan p, q;
	struct calc_comm a, b;
	const char *order[] = {"parallel.placement=tp-cp-pp-dp"};
	const char *one_leaf[] = {"nodes_per_leaf=64", "oversubscription=4", "parallel.placement=tp-cp-pp-dp"};
	const char *two_leaves[] = {"nodes_per_leaf=32", "oversubscription=2", "zero=0", "parallel.placement=tp-cp-pp-dp"};
	const char *two_mc[] = {"nodes_per_leaf=32", "oversubscription=2", "zero=0"};
	load_plan(&p, order, 1);
	load_plan(&q, one_leaf, 3);
	calc_comm(&p, &a);
	calc_comm(&q, &b);
	for (int d = 0; d < CALC_DIM_N; d++) {
		assert_true(a.dim[d].time == b.dim[d].time);
		assert_int_equal(b.dim[d].group.tier, a.dim[d].group.tier);
	}
	load_plan(&q, two_mc, 3);
	calc_comm(&q, &b);
	assert_int_equal(b.dim[CALC_DIM_DP].group.tier, CALC_TIER_NET);
	/* there the stages are 64 ranks = 8 nodes apart, nodes 0, 8, .., 56: a span of 57
	 * nodes for 8, so floor(32 / (57 / 8)) = 4 of them per leaf, 2 leaves */
	assert_int_equal(b.dim[CALC_DIM_PP].group.tier, CALC_TIER_SPINE);
	assert_int_equal(b.dim[CALC_DIM_PP].group.leaf_nodes, 4);
	load_plan(&q, two_leaves, 4);
	calc_comm(&q, &b);
	assert_int_equal(b.dim[CALC_DIM_DP].group.tier, CALC_TIER_SPINE);
	assert_int_equal(b.dim[CALC_DIM_DP].group.leaves, 2);
	assert_int_equal(b.dim[CALC_DIM_DP].group.leaf_nodes, 4);
	assert_int_equal(b.dim[CALC_DIM_PP].group.tier, CALC_TIER_NET); /* stages 1 node apart: one leaf */
	{
		/* NIC 400 Gb/s x 0.85 = 42.5 GB/s in a leaf, 21.25 GB/s across the spine, 6 us a step;
		 * G = the gradient bytes one GPU reduces (FP32 main grads of megatron: 4 B/param) */
		double eff = q.dp_bw_eff > 0 && q.dp_bw_eff < 1 ? q.dp_bw_eff : 1, G = b.grad_params * 4;
		double in = 42.5e9 * eff, sp = 21.25e9 * eff;
		double want = 2 * (3 * 6e-6 + 0.75 * G / in) + 2 * 6e-6 + G / 4 / sp;
		assert_near(b.dim[CALC_DIM_DP].time, want, 1e-9);
	}
	assert_string_equal(calc_tier_name(CALC_TIER_SPINE), "spine");
}

/* Plans test_rezero and test_resched both re-time: an MoE model without DP (dp 1, edp 2:
 * the DP row "-" until the expert-DP reduction names it), and one under parallel.fsdp. */
static const char *const nodp[] = {"model.preset=olmoe-1b-7b", "cluster.nodes=1", "parallel.tp=2", "parallel.pp=4",
                                   "parallel.dp=1", "parallel.ep=1", "parallel.etp=1", "training.seq_len=4096",
                                   "training.global_batch=64", "training.micro_batch=1"};
static const char *const fsdp[] = {"parallel.fsdp=yes", "parallel.pp=1", "parallel.tp=8", "parallel.dp=0"};

/* calc_comm_rezero (calc/comm.c): calc_comm_with of one ZeRO stage turned into another's
 * must be calc_comm_with of that stage, every field bit for bit (the second method: the
 * whole model run again), from each stage to each, with and without calc_comm_pre; on
 * the default plan (dense, DP 8), on OLMoE with an expert-DP pair (edp 2: the expert-DP
 * reduction, ZeRO-dependent, added to the DP row) and without DP (dp 1, edp 2: the DP row
 * "-" until the expert-DP reduction names it), and under parallel.fsdp (nothing reads the
 * ZeRO stage).  The fields compared one by one first, to name a difference. */
static void test_rezero(void **state)
{
	const char *moe[] = {"model.preset=olmoe-1b-7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=1",
	                     "parallel.dp=16", "parallel.ep=8", "training.seq_len=4096", "training.global_batch=64",
	                     "training.micro_batch=1", "parallel.sp=no", "parallel.recompute=selective",
	                     "parallel.placement=tp-cp-dp-ep-pp"};
	struct {
		const char *const *sets;
		int n;
	} plans[] = {{NULL, 0}, {moe, 12}, {nodp, 10}, {fsdp, 4}};
	(void)state;
	for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++) {
		struct calc_plan p;
		struct calc_comm_pre pre;
		load_plan(&p, plans[i].sets, plans[i].n);
		calc_comm_pre(&p, &pre);
		for (int z0 = 0; z0 <= 3; z0++)
			for (int z1 = 0; z1 <= 3; z1++)
				for (int with_pre = 0; with_pre <= 1; with_pre++) {
					const struct calc_comm_pre *cp = with_pre ? &pre : NULL;
					struct calc_comm got, want;
					p.zero = z0;
					calc_comm_with(&p, cp, &got);
					p.zero = z1;
					calc_comm_rezero(&p, cp, &got);
					calc_comm_with(&p, cp, &want);
					assert_memory_equal(&got.dim[CALC_DIM_DP].time, &want.dim[CALC_DIM_DP].time, sizeof(double));
					assert_memory_equal(&got.dim[CALC_DIM_DP].bytes, &want.dim[CALC_DIM_DP].bytes, sizeof(double));
					assert_memory_equal(&got.dim[CALC_DIM_DP].count, &want.dim[CALC_DIM_DP].count, sizeof(double));
					assert_memory_equal(&got.edp_time, &want.edp_time, sizeof(double));
					assert_memory_equal(&got.bytes_total, &want.bytes_total, sizeof(double));
					assert_memory_equal(&got.net_bytes_total, &want.net_bytes_total, sizeof(double));
					assert_string_equal(got.dim[CALC_DIM_DP].collective, want.dim[CALC_DIM_DP].collective);
					assert_memory_equal(&got, &want, sizeof got);
				}
		/* the cases are the ones meant: the expert-DP reduction and the DP row's own */
		if (i == 1 || i == 2) {
			struct calc_comm c;
			assert_int_equal(p.edp, 2);
			p.zero = 1;
			calc_comm(&p, &c);
			assert_true(c.edp_time > 0);
		}
		if (i == 2)
			assert_int_equal(pre.group[CALC_DIM_DP].size, 1);
	}
}

/* calc_comm_resched: calc_comm_with of one schedule variant (schedule, vpp) at one ZeRO
 * stage turned into another's, compared with calc_comm_with of the other itself, every
 * field bit for bit, from each of 24 variants (six schedules and vpp: GPipe, 1F1B,
 * interleaved with 2 and 4 chunks, ZB-H1, DualPipe, whose two parameter copies double
 * the DP row's gradients; times the four ZeRO stages) to each.  Plans: the default
 * (TP 8 with SP, PP, DP), the same without SP (the scatter/gather PP sends), with full
 * recomputation (the TP row's repeat), an MoE plan with PP and an expert-DP reduction
 * (edp 2), and one without DP.  calc_comm_resched_applies refuses parallel.fsdp and
 * recompute_method = block (whose recomputed layers per chunk read vpp), where the
 * planner times the variant in full.  Each with the planner's memo of the DP rows of a
 * split (calc_comm_dp_memo) and without, and the ZeRO re-timing (calc_comm_rezero) after
 * each, against calc_comm_with without a memo. */
static void test_resched(void **state)
{
	const char *nosp[] = {"parallel.sp=no"};
	const char *full[] = {"parallel.recompute=full"};
	const char *moe[] = {"model.preset=olmoe-1b-7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=2",
	                     "parallel.dp=8", "parallel.ep=4", "training.seq_len=4096", "training.global_batch=64",
	                     "training.micro_batch=1", "parallel.sp=no", "parallel.recompute=selective",
	                     "parallel.placement=tp-cp-dp-ep-pp"};
	const char *block[] = {"parallel.recompute=full", "parallel.recompute_method=block",
	                       "parallel.recompute_num_layers=1"};
	struct {
		const char *const *sets;
		int n;
	} plans[] = {{NULL, 0}, {nosp, 1}, {full, 1}, {moe, 12}, {nodp, 10}};
	const int sched[6] = {CALC_SCHED_GPIPE, CALC_SCHED_1F1B, CALC_SCHED_INTERLEAVED, CALC_SCHED_INTERLEAVED,
	                      CALC_SCHED_ZBH1, CALC_SCHED_DUALPIPE};
	const int vpp[6] = {1, 1, 2, 4, 1, 1};
	(void)state;
	for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++) {
		struct calc_plan p;
		struct calc_comm_pre pre;
		load_plan(&p, plans[i].sets, plans[i].n);
		calc_comm_pre(&p, &pre);
		assert_true(calc_comm_resched_applies(&p, &pre));
		assert_false(calc_comm_resched_applies(&p, NULL));
		/* 'got' with the planner's memo of the DP rows (calc_comm_dp_memo, filled as
		 * the variants go) and without, 'want' always without */
		struct calc_comm_dp_memo dm;
		struct calc_comm_pre pre0 = pre;
		dm.n = 0;
		for (int a = 0; a < 48; a++)
			for (int b = 0; b < 24; b++) {
				struct calc_comm got, want;
				pre.dp_memo = a >= 24 ? &dm : NULL;
				p.schedule = (enum calc_schedule)sched[a % 24 / 4], p.vpp = vpp[a % 24 / 4], p.zero = a % 4;
				calc_comm_with(&p, &pre, &got);
				p.schedule = (enum calc_schedule)sched[b / 4], p.vpp = vpp[b / 4], p.zero = b % 4;
				calc_comm_resched(&p, &pre, &got);
				calc_comm_with(&p, &pre0, &want);
				assert_memory_equal(&got.dim[CALC_DIM_PP].time, &want.dim[CALC_DIM_PP].time, sizeof(double));
				assert_memory_equal(&got.dim[CALC_DIM_PP].count, &want.dim[CALC_DIM_PP].count, sizeof(double));
				assert_memory_equal(&got.p2p, &want.p2p, sizeof(double));
				assert_memory_equal(&got.grad_params, &want.grad_params, sizeof(double));
				assert_memory_equal(&got.dim[CALC_DIM_DP].time, &want.dim[CALC_DIM_DP].time, sizeof(double));
				assert_memory_equal(&got.edp_params, &want.edp_params, sizeof(double));
				assert_memory_equal(&got.edp_time, &want.edp_time, sizeof(double));
				assert_memory_equal(&got.bytes_total, &want.bytes_total, sizeof(double));
				assert_string_equal(got.dim[CALC_DIM_PP].collective, want.dim[CALC_DIM_PP].collective);
				assert_string_equal(got.dim[CALC_DIM_DP].collective, want.dim[CALC_DIM_DP].collective);
				assert_memory_equal(&got, &want, sizeof got);
				/* and the ZeRO re-timing from there, through the memo too */
				p.zero = (b + 1) % 4;
				calc_comm_rezero(&p, &pre, &got);
				calc_comm_with(&p, &pre0, &want);
				assert_memory_equal(&got, &want, sizeof got);
			}
		/* the memo held the DP rows met: two parameter copies, four stages (none
		 * without DP) */
		assert_int_equal(dm.n, i == 4 ? 0 : 8);
		pre.dp_memo = NULL;
		/* the cases are the ones meant: the rows re-timed change between variants */
		{
			struct calc_comm c1, c2;
			p.zero = 1;
			p.schedule = CALC_SCHED_1F1B, p.vpp = 1;
			calc_comm_with(&p, &pre, &c1);
			p.schedule = CALC_SCHED_DUALPIPE;
			calc_comm_with(&p, &pre, &c2);
			/* DualPipe keeps two copies of every parameter (param_copies 2) */
			assert_true(c2.grad_params == 2 * c1.grad_params);
			if (i == 3) {
				assert_int_equal(p.edp, 2);
				assert_true(c1.edp_time > 0);
				assert_true(c2.edp_params == 2 * c1.edp_params);
			}
			if (i == 4)
				assert_int_equal(pre.group[CALC_DIM_DP].size, 1);
			else
				assert_true(c2.dim[CALC_DIM_DP].time > c1.dim[CALC_DIM_DP].time);
			p.schedule = CALC_SCHED_INTERLEAVED, p.vpp = 2;
			calc_comm_with(&p, &pre, &c2);
			/* 2 m v sends (Narayanan 2021 §2.2.2): twice 1F1B's with v = 2 */
			assert_true(c2.dim[CALC_DIM_PP].count == 2 * c1.dim[CALC_DIM_PP].count);
			assert_true(c1.dim[CALC_DIM_PP].time > 0);
		}
	}
	{
		struct calc_plan p;
		struct calc_comm_pre pre;
		load_plan(&p, fsdp, 4);
		calc_comm_pre(&p, &pre);
		assert_false(calc_comm_resched_applies(&p, &pre));
		load_plan(&p, block, 3);
		calc_comm_pre(&p, &pre);
		assert_false(calc_comm_resched_applies(&p, &pre));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ep_alltoall),     cmocka_unit_test(test_expert_dp_reduction),
		cmocka_unit_test(test_ep_allgather),
		cmocka_unit_test(test_h800_preset),     cmocka_unit_test(test_exposed_within_time),
		cmocka_unit_test(test_bus_factors),     cmocka_unit_test(test_flat_alpha_beta),
		cmocka_unit_test(test_hierarchical),    cmocka_unit_test(test_placement), cmocka_unit_test(test_placement_parse),
		cmocka_unit_test(test_placement_experts),
		cmocka_unit_test(test_volumes_default), cmocka_unit_test(test_volumes_variants),
		cmocka_unit_test(test_cp_comm_modes),   cmocka_unit_test(test_cp_heads),
		cmocka_unit_test(test_zero_volumes),    cmocka_unit_test(test_tp_across_nodes), cmocka_unit_test(test_tp_quantized_gather),
		cmocka_unit_test(test_p2p_sp),          cmocka_unit_test(test_zero2_per_microbatch),
		cmocka_unit_test(test_fp8_param_gather), cmocka_unit_test(test_cp_mamba), cmocka_unit_test(test_cp_gdn),
		cmocka_unit_test(test_a100_busbw),      cmocka_unit_test(test_spine),
		cmocka_unit_test(test_fsdp_per_layer),
		cmocka_unit_test(test_fsdp_fp8_gather),  cmocka_unit_test(test_fsdp_exposure),
		cmocka_unit_test(test_rezero),          cmocka_unit_test(test_resched),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
