/*
 * tests/calc/memory.c -- recipes, ZeRO sharding and activations against the papers.
 */
#include "testutil.h"
#include "pipeline.h"

#include <stdlib.h>
#include <string.h>

/* ZeRO paper Figure 1 / §5: Psi = 7.5B, N_d = 64, K = 12:
 * baseline (2+2+12) Psi = 120 GB; P_os 2Psi + 2Psi + 12Psi/64 = 31.4 GB;
 * P_os+g 2Psi + 14Psi/64 = 16.6 GB; P_os+g+p 16Psi/64 = 1.9 GB. */
static void test_zero_figure1(void **state)
{
	const struct calc_recipe *r = calc_recipe_find("zero-paper");
	const double psi = 7.5e9, expect[4] = {120.0e9, 31.40625e9, 16.640625e9, 1.875e9};
	assert_non_null(r);
	for (int z = 0; z <= 3; z++) {
		double b = 0;
		for (int k = 0; k < CALC_T_NCLASS; k++)
			b += calc_recipe_bytes_sharded(r, (enum calc_tclass)k, z, 64);
		assert_near(psi * b, expect[z], 1e-12);
	}
	/* the paper's rounded figures */
	assert_near(round(psi * 4.1875 / 1e8) / 10, 31.4, 1e-9);
	assert_near(round(psi * (2 + 14.0 / 64) / 1e8) / 10, 16.6, 1e-9);
}

/* The same through the whole memory engine: one stage, no TP, dp = 64 on a model
 * of Psi parameters: model states per GPU = Psi x the ZeRO figures above. */
static void test_zero_end_to_end(void **state)
{
	const char *sets[] = {"model.preset=nar21-7.5b", "nodes=8", "tp=1", "pp=1", "dp=64", "global_batch=512",
	                      "recipe=zero-paper", "zero=0"};
	struct calc_plan p;
	struct calc_memory *m = malloc(sizeof *m);
	struct calc_diag d = {0};
	struct calc_params pr;
	const double per[4] = {16, 4 + 12.0 / 64, 2 + 14.0 / 64, 16.0 / 64};
	load_plan(&p, sets, 8);
	calc_model_params(&p.model, &pr);
	for (int z = 0; z <= 3; z++) {
		p.zero = z;
		assert_int_equal(calc_memory(&p, m, &d), 0);
		assert_near(m->st[0].states, pr.total * per[z], 1e-12);
	}
	free(m);
}

/* Megatron-LM README "Distributed Optimizer": bf16 params + fp32 grads = 18 B/param,
 * 6 + 12/d with the distributed optimizer. */
static void test_megatron_recipe(void **state)
{
	const struct calc_recipe *r = calc_recipe_find("megatron");
	int ds[] = {1, 2, 8, 64, 1000};
	assert_near(calc_recipe_total(r), 18, 0);
	for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) {
		double b = 0;
		for (int k = 0; k < CALC_T_NCLASS; k++)
			b += calc_recipe_bytes_sharded(r, (enum calc_tclass)k, 1, ds[i]);
		assert_near(b, 6 + 12.0 / ds[i], 1e-12);
	}
	/* the seed baseline: 2 + 8; FP8-LM Eq. (8): 6 on the optimizer side (+1 FP8 weights) */
	assert_near(calc_recipe_total(calc_recipe_find("seed")), 10, 0);
	assert_near(calc_recipe_total(calc_recipe_find("fp8-lm")) - calc_recipe_bytes(calc_recipe_find("fp8-lm"),
	                                                                                CALC_T_WEIGHT), 6, 0);
	assert_near(calc_recipe_total(calc_recipe_find("zero-paper")), 16, 0);
	assert_near(calc_recipe_total(calc_recipe_find("deepseek-v3")), 14, 0);
}

/* Megatron-Core's precision-aware optimizer with --exp-avg-dtype bf16 and --exp-avg-sq-dtype
 * bf16 (megatron/training/arguments.py), main params and grads at their fp32 default: by hand,
 * bf16 weights 2 + fp32 main grads 4 + fp32 master 4 + m 2 + v 2 = 14 B/param; with the
 * distributed optimizer (ZeRO-1) the master and both moments (4 + 2 + 2 = 8) are sharded over
 * d, so 2 + 4 + 8/d: d = 8 gives 7, d = 64 gives 6.125.  Against the megatron recipe the
 * moments save 4 B/param unsharded, 4/d sharded. */
static void test_bf16_moments_recipe(void **state)
{
	const struct calc_recipe *r = calc_recipe_find("adam-bf16");
	const double want[][2] = {{1, 14}, {2, 10}, {8, 7}, {64, 6.125}};
	assert_non_null(r);
	assert_near(calc_recipe_total(r), 14, 0);
	assert_near(calc_recipe_bytes(r, CALC_T_OPT), 4, 0);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		double b = 0;
		for (int k = 0; k < CALC_T_NCLASS; k++)
			b += calc_recipe_bytes_sharded(r, (enum calc_tclass)k, 1, (int)want[i][0]);
		assert_near(b, want[i][1], 1e-12);
	}
}

/* Transformer Engine's FP8 parameters (recipe fp8-params: fp8_model_init, Megatron-Core
 * --fp8-param-gather; docs/references.md §2.1), by hand: FP8 weights 1 + FP32 main grads 4
 * + FP32 master 4 + m 4 + v 4 = 17 B/param, no weight copy; with the distributed optimizer
 * the master and moments (12) are sharded over d: 5 + 12/d, d = 8 gives 6.5, d = 64 gives
 * 5.1875.  Against fp8-te (2 + 1 + 4 + 12/d) it saves the BF16 weights, 2 B/param. */
static void test_fp8_params_recipe(void **state)
{
	const struct calc_recipe *r = calc_recipe_find("fp8-params"), *te = calc_recipe_find("fp8-te");
	const double want[][2] = {{1, 17}, {8, 6.5}, {64, 5.1875}};
	(void)state;
	assert_non_null(r);
	assert_true(r->fp8_compute);
	assert_near(calc_recipe_total(r), 17, 0);
	assert_near(calc_recipe_bytes(r, CALC_T_WEIGHT), 1, 0);
	assert_near(calc_recipe_bytes(r, CALC_T_WCOPY), 0, 0);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		double b = 0, bt = 0;
		for (int k = 0; k < CALC_T_NCLASS; k++) {
			b += calc_recipe_bytes_sharded(r, (enum calc_tclass)k, 1, (int)want[i][0]);
			bt += calc_recipe_bytes_sharded(te, (enum calc_tclass)k, 1, (int)want[i][0]);
		}
		assert_near(b, want[i][1], 1e-12);
		assert_near(bt - b, 2, 1e-12);
	}
}

/* The seed question: ~100B parameters x (2 + 8) bytes ~ 1,000 GB -> at least 13
 * GPUs of 80 GB (12.65 for dense-100b's 101.19B). */
static void test_seed_min_gpus(void **state)
{
	const char *sets[] = {"recipe=seed"};
	struct calc_plan p;
	struct calc_memory *m = malloc(sizeof *m);
	struct calc_diag d = {0};
	load_plan(&p, sets, 1);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_near(m->states_total, 101.19e9 * 10, 1e-4);
	assert_int_equal(m->states_min_gpus_nominal, 13);
	free(m);
}

/* Korthikanti et al. 2022 Table 2 for GPT-3 175B (a = 96, s = 2048, h = 12288,
 * b = 1, t = 8, dropout, no FlashAttention), in units of sbh (5as/h = 80):
 *   no parallelism              34 + 80         = 114
 *   TP                          10 + 24/8 + 80/8 = 23
 *   TP + SP                     34/8 + 80/8      = 14.25
 *   TP + selective              10 + 24/8        = 13
 *   TP + SP + selective         34/8             = 4.25
 *   full recompute              2
 * (the library adds nothing else to a layer: no flash statistics when flash is off) */
static void test_kor22_table2(void **state)
{
	struct {
		const char *tp, *sp, *rc;
		double sbh;
	} rows[] = {
		{"tp=1", "sp=no", "recompute=none", 114},  {"tp=8", "sp=no", "recompute=none", 23},
		{"tp=8", "sp=yes", "recompute=none", 14.25}, {"tp=8", "sp=no", "recompute=selective", 13},
		{"tp=8", "sp=yes", "recompute=selective", 4.25}, {"tp=8", "sp=no", "recompute=full", 2},
		{"tp=1", "sp=no", "recompute=full", 2},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const char *sets[] = {"model.preset=gpt3-175b", "flash_attention=no", "dp=0", "pp=8", rows[i].tp,
		                      rows[i].sp, rows[i].rc, "seq_len=2048", "micro_batch=1", "recipe=megatron",
		                      "global_batch=1536"};
		struct calc_plan p;
		struct calc_act_layer a;
		load_plan(&p, sets, 11);
		calc_memory_act_layer(&p, &a);
		assert_near(a.total / (2048.0 * 1 * 12288), rows[i].sbh, 1e-12);
	}
	/* convention: full recomputation with SP stores the sequence-sharded input 2sbh/t */
	{
		const char *sets[] = {"model.preset=gpt3-175b", "flash_attention=no", "tp=8", "sp=yes", "recompute=full"};
		struct calc_plan p;
		struct calc_act_layer a;
		load_plan(&p, sets, 5);
		calc_memory_act_layer(&p, &a);
		assert_near(a.total / (2048.0 * 12288), 2.0 / 8, 1e-12);
	}
}

/* GQA + SwiGLU + no dropout + FlashAttention, Llama 2 70B, t = 8 with SP, b = 1,
 * s = 4096, by hand (elements of 2 bytes):
 *   attention: norm in + QKV in 2*2*sbh/8 = 0.5 sbh; Q (64 heads) + K, V (8 heads)
 *     2*sb*(64 + 16)*128/8 = 2560 sb; out-proj input 2*sb*64*128/8 = 2048 sb;
 *     flash statistics 4*64*s*b/8 = 32 sb
 *   MLP: norm in + fc1 in 0.5 sbh; SwiGLU 3*2*sb*28672/8 = 21504 sb
 * total = sb (8192 + 2560 + 2048 + 32 + 21504) = 34336 sb. */
static void test_gqa_swiglu(void **state)
{
	const char *sets[] = {"model.preset=llama2-70b", "tp=8", "sp=yes", "recompute=selective", "seq_len=4096",
	                      "flash_attention=yes", "pp=8", "dp=0"};
	struct calc_plan p;
	struct calc_act_layer a;
	load_plan(&p, sets, 8);
	calc_memory_act_layer(&p, &a);
	assert_near(a.total, 34336.0 * 4096, 1e-12);
	/* context parallelism divides the sequence: cp = 2 halves every term */
	const char *sets2[] = {"model.preset=llama2-70b", "tp=8", "sp=yes", "seq_len=4096", "pp=4", "cp=2", "dp=0"};
	load_plan(&p, sets2, 7);
	calc_memory_act_layer(&p, &a);
	assert_near(a.total, 34336.0 * 2048, 1e-12);
}

/* Stage-0 activations against Megatron-LM's compute_activation_memory (SP +
 * selective): per layer sbh(18 + 4f/h) = 34 sbh, times L layers (1F1B stage 0 holds
 * p micro-batches of L/p layers), plus 8sbp + sbhp, all over t.  Our only
 * difference is the token ids (8sb per micro-batch), which we do not divide by t:
 * the difference 8sbp(1 - 1/t) is allowed for explicitly. */
static void test_megatron_activation_formula(void **state)
{
	const char *sets[] = {"model.preset=gpt3-175b", "tp=8", "pp=8", "dp=0", "sp=yes", "recompute=selective",
	                      "flash_attention=yes"};
	struct calc_plan p;
	struct calc_memory *m = malloc(sizeof *m);
	struct calc_diag d = {0};
	double s = 2048, b = 1, h = 12288, L = 96, t = 8, pp = 8, f = 4 * h;
	double meg = (s * b * h * (18 + 4 * f / h) * L + 8 * s * b * pp + s * b * h * pp) / t;
	load_plan(&p, sets, 7);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	/* remove the FlashAttention softmax statistics, which Megatron does not count */
	double flash = 4.0 * 96 * s * b / t * (L / pp) * pp;
	assert_near(m->st[0].activations - flash - 8 * s * b * pp * (1 - 1 / t), meg, 1e-9);
	free(m);
}

/* In-flight micro-batches: 1F1B stage i holds p - i (Narayanan 2021 §2.2.1);
 * interleaved stage 0 holds p(1 + (p-1)/(pv)) (Korthikanti 2022 §4.2.3); GPipe m. */
static void test_inflight(void **state)
{
	const char *sets[] = {"pp=8", "schedule=1f1b"};
	struct calc_plan p;
	load_plan(&p, sets, 2);
	for (int i = 0; i < 8; i++)
		assert_near(calc_pipeline_inflight(&p, i), 8 - i, 0);
	p.schedule = CALC_SCHED_INTERLEAVED;
	p.vpp = 2;
	assert_near(calc_pipeline_inflight(&p, 0), 8 * (1 + 7.0 / 16), 1e-12);
	p.schedule = CALC_SCHED_GPIPE;
	assert_near(calc_pipeline_inflight(&p, 3), calc_plan_microbatches(&p), 0);
}

/* Tensor parallelism divides the matrices but not the norms; the last stage of a
 * tied-embedding model keeps its own copy of the embedding. */
static void test_stage_params(void **state)
{
	const char *sets[] = {"tp=8", "pp=8"};
	struct calc_plan p;
	struct calc_memory *m = malloc(sizeof *m);
	struct calc_diag d = {0};
	double h = 10240, V = 51200, layer = 12 * h * h, norms = 4 * h;
	load_plan(&p, sets, 2);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_near(m->st[3].params, 10 * (layer / 8 + norms), 1e-12);
	assert_near(m->st[0].params, 10 * (layer / 8 + norms) + V * h / 8, 1e-12);
	assert_near(m->st[7].params, 10 * (layer / 8 + norms) + V * h / 8 + 2 * h, 1e-12);
	free(m);
}

/* Mixtral 8x7B with expert parallelism, worked by hand: tp 2, pp 4 (8 layers per
 * stage), 512 GPUs so dp = 64; ep 8 gives expert-DP 2 x 64 / 8 = 16.  A middle stage
 * holds per layer the attention 2 h^2 + 2 h 1024 = 41,943,040 over TP, the norms
 * 2h = 8,192 and the router 8h = 32,768 replicated, and 8 experts of 3 h 14,336 =
 * 176,160,768 over EP: one per GPU.  Megatron recipe, distributed optimizer (ZeRO-1):
 * bf16 weights 2 B, fp32 gradients 4 B, master 4 B and Adam 8 B over the group of each
 * parameter (dp x cp = 64 for the dense part, edp = 16 for the experts). */
static void test_moe_expert_parallel(void **state)
{
	const char *sets[] = {"model.preset=mixtral-8x7b", "tp=2", "pp=4", "dp=0", "ep=8", "recipe=megatron", "zero=1"};
	struct calc_plan p;
	struct calc_memory *m = malloc(sizeof *m);
	struct calc_diag d = {0};
	double dense = 41943040.0 / 2 + 8192 + 32768, ex = 176160768;
	load_plan(&p, sets, 7);
	assert_int_equal(p.dp, 64);
	assert_int_equal(p.edp, 16);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_near(m->st[1].params, 8 * (dense + ex), 1e-12);
	assert_near(m->st[1].weights, 8 * (dense + ex) * 2, 1e-12);
	assert_near(m->st[1].gradients, 8 * (dense + ex) * 4, 1e-12);
	assert_near(m->st[1].master, 8 * (dense * 4 / 64 + ex * 4 / 16), 1e-12);
	assert_near(m->st[1].optimizer, 8 * (dense * 8 / 64 + ex * 8 / 16), 1e-12);
	free(m);
}

/* Routed-token activations grow with the load imbalance: each of the T = s b / t =
 * 4096 / 2 tokens of a GPU (sequence parallel) sends k = 2 copies, and an expert GPU
 * holds phi k T of them, each with its dispatched input (e h), the SwiGLU fc1 output
 * and product (3 e f) and its fp32 probability (4 B); Megatron-Core keeps no expert
 * output (experts.py applies the probabilities in the activation).  Going from phi = 1
 * to 2 adds 2 x 2048 x (2 x 4096 + 3 x 2 x 14336 + 4) = 385,892,352 bytes to one layer. */
static void test_moe_imbalance(void **state)
{
	const char *sets[] = {"model.preset=mixtral-8x7b", "tp=2", "pp=4", "dp=0", "sp=yes", "seq_len=4096",
	                      "micro_batch=1", "recompute=selective"};
	struct calc_plan p;
	struct calc_act_layer a1, a2;
	struct calc_diag d = {0};
	load_plan(&p, sets, 8);
	calc_memory_act_kind(&p, 0, CALC_RC_SELECTIVE, &a1);
	assert_int_equal(calc_plan_set(&p, "model.moe_imbalance=2", "test", &d), 0);
	calc_memory_act_kind(&p, 0, CALC_RC_SELECTIVE, &a2);
	assert_near(a2.mlp - a1.mlp, 385892352.0, 1e-12);
	assert_near(a2.attn, a1.attn, 1e-12);
	calc_diag_free(&d);
}

/* What the router and the permutation keep (docs/references.md §5.12), by hand on Mixtral
 * 8x7B at tp 2 with SP, s = 4096, b = 1: T = 2048 tokens a GPU.  Per expert a token keeps
 * its fp32 router logit (4 B) and its column of the routing map (1 B): 16 experts in
 * place of 8 add 2048 x 8 x 5 = 81,920 bytes.  Per routed slot its fp32 probability and
 * int64 index (12 B), the permutation's int64 position (8 B) and, on the expert GPU, the
 * copy's input (e h = 8,192), fc1 output and SwiGLU product (3 e f = 86,016) and fp32
 * probability (4): top-4 in place of top-2 adds 2 x 2048 x (12 + 8 + 8192 + 86016 + 4) =
 * 385,974,272 bytes (Megatron-Core moe_utils.py permute at commit d98e8a6 keeps the
 * sorted int64 indices; the routing map stays with the dispatcher until the combine). */
static void test_moe_router_permute_memory(void **state)
{
	const char *sets[] = {"model.preset=mixtral-8x7b", "tp=2", "pp=4", "dp=0", "sp=yes", "seq_len=4096",
	                      "micro_batch=1", "recompute=selective"};
	struct calc_plan p;
	struct calc_act_layer a1, a2;
	struct calc_diag d = {0};
	load_plan(&p, sets, 8);
	calc_memory_act_kind(&p, 0, CALC_RC_SELECTIVE, &a1);
	assert_int_equal(calc_plan_set(&p, "model.experts=16", "test", &d), 0);
	calc_memory_act_kind(&p, 0, CALC_RC_SELECTIVE, &a2);
	assert_near(a2.mlp - a1.mlp, 81920.0, 1e-12);
	assert_int_equal(calc_plan_set(&p, "model.experts=8", "test", &d), 0);
	assert_int_equal(calc_plan_set(&p, "model.top_k=4", "test", &d), 0);
	calc_memory_act_kind(&p, 0, CALC_RC_SELECTIVE, &a2);
	assert_near(a2.mlp - a1.mlp, 385974272.0, 1e-12);
	calc_diag_free(&d);
}

/* Module recomputation by hand on Mixtral 8x7B (h = 4096, 32 heads, 8 KV heads, top-2
 * of 8 experts of width 14,336, no shared experts) at tp 2 with SP, s = 4096, b = 1,
 * BF16, FlashAttention.  Against no recomputation, 'layernorm' drops the two norm
 * outputs, 2 x e s b h / t = 2 x 16,777,216; 'core_attn' the fp32 log-sum-exp,
 * 4 a s b / t = 262,144; 'moe_act' the SwiGLU product of each of the k s b / t = 4,096
 * copies, 4,096 x e x 14,336 = 117,440,512: 151,257,088 bytes in all.  'moe' keeps of the
 * MoE block only the norm input and the checkpoint's input, 2 x 16,777,216. */
static void test_recompute_modules(void **state)
{
	const char *sets[] = {"model.preset=mixtral-8x7b", "tp=2", "pp=4", "dp=0", "sp=yes", "seq_len=4096",
	                      "micro_batch=1", "flash_attention=yes", "recompute=modules",
	                      "recompute_modules=layernorm,core_attn,moe_act"};
	struct calc_plan p;
	struct calc_act_layer a0, a1;
	struct calc_diag d = {0};
	load_plan(&p, sets, 10);
	assert_int_equal(p.recompute_modules, CALC_RCM_LAYERNORM | CALC_RCM_CORE_ATTN | CALC_RCM_MOE_ACT);
	calc_memory_act_kind(&p, 0, CALC_RC_NONE, &a0);
	calc_memory_act_kind(&p, 0, CALC_RC_MODULES, &a1);
	assert_near(a0.total - a1.total, 2 * 16777216.0 + 262144 + 117440512, 1e-12);
	assert_int_equal(calc_plan_set(&p, "parallel.recompute_modules=moe", "test", &d), 0);
	calc_memory_act_kind(&p, 0, CALC_RC_MODULES, &a1);
	assert_near(a1.mlp, 2 * 16777216.0, 1e-12);
	calc_diag_free(&d);
}

/* DeepSeek-V3's recomputation (DeepSeek-AI 2024 §3.2.3: the RMSNorms and the MLA
 * up-projections) on its own shape (h = 7168, 128 heads, q/k 128 + 64 wide, v 128) at
 * tp 2 with SP, s = 4096: the two norm outputs, 2 x e s b h / t = 58,720,256, and the
 * up-projected Q, K, V, e s b a (2 (128 + 64) + 128) / t = 2 x 4096 x 128 x 512 / 2 =
 * 268,435,456 -- counted as memory.c's (a + 2a) (nope + rope + v) / 2 = 384 x 160 per
 * token and head group, e s b 61,440 / t = 251,658,240. */
static void test_recompute_deepseek_v3(void **state)
{
	const char *sets[] = {"model.preset=deepseek-v3", "tp=2", "pp=1", "dp=0", "ep=8", "sp=yes", "seq_len=4096",
	                      "micro_batch=1", "flash_attention=yes", "recompute=deepseek-v3"};
	struct calc_plan p;
	struct calc_act_layer a0, a1;
	load_plan(&p, sets, 10);
	calc_memory_act_kind(&p, 0, CALC_RC_NONE, &a0);
	calc_memory_act_kind(&p, 0, CALC_RC_DSV3, &a1);
	assert_near(a0.total - a1.total, 58720256.0 + 251658240.0, 1e-12);
}

/* torchtitan's op-level SAC (torchtitan/parallelisms/parallelize_llama.py at 9dec370:
 * _save_list keeps aten.mm except every second one, the SDPA flash kernel, the
 * reduce-scatters) on Llama 3 8B (h = 4096, 32 heads, 8 KV heads of 128, f = 14,336,
 * Llama Team 2024 Table 3), s = 8192, b = 1, BF16.  The block's matmuls in order are wq,
 * wk, wv, wo, w1, w3, w2: kept wq, wv, w1, w2.  Bytes per token at tp 1: input 2 h =
 * 8192, wq 2 h = 8192, wv 2 x 1024 = 2048, SDPA output 2 h = 8192 and fp32 log-sum-exp
 * 4 x 32 = 128, w1 2 f = 28,672, w2 2 h = 8192: 63,616, x 8192 = 521,142,272.  At tp 2
 * with SP: input 4096, wq 4096, wv 1024, SDPA 4096 + 64, w1 14,336, w2 (the row-parallel
 * partial sum, h wide) 8192, two reduce-scatters 2 x 4096: 44,096, x 8192 = 361,234,432. */
/* Megatron-LM's --recompute-method (megatron/core/recompute.py checkpointed_forward) on
 * Llama 3 8B (h 4096, a 32, g 8, d 128, f 14336 SwiGLU; Llama 3 paper Table 3) at tp 1,
 * s 8192, b 1, flash, BF16, pp 4: 8 layers a stage, 4 micro-batches in flight given.
 * By hand per token: one layer in full F/sb = norm in 2h + QKV in 2h + Q, K, V
 * 2 (a + 2g) d + projection in 2 a d + fp32 log-sum-exp 4a + norm in 2h + fc1 in 2h +
 * SwiGLU 3 x 2f = 8192 + 8192 + 12288 + 8192 + 128 + 8192 + 8192 + 86016 = 139,392 B,
 * F = 1,141,899,264 B; the checkpointed input x = 2sh = 67,108,864 B.
 *   unset:      8 x 4 + F - x  = 31x + F
 *   uniform 2:  4 groups: 4 x 4 + 2F - x = 15x + 2F
 *   uniform 3:  ceil(8/3) = 3 groups: 3 x 4 + 3F - x = 11x + 3F
 *   block 3:    (3x + 5F) 4 + F - x = 11x + 21F
 *   block 8:    every layer checkpointed = unset */
static void test_recompute_method(void **state)
{
	const double F = 1141899264.0, x = 67108864.0;
	struct {
		const char *method, *n;
		double act; /* [B] */
	} cases[] = {
		{NULL, NULL, 31 * x + F},
		{"uniform", "2", 15 * x + 2 * F},
		{"uniform", "3", 11 * x + 3 * F},
		{"block", "3", 11 * x + 21 * F},
		{"block", "8", 31 * x + F},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *sets[] = {"model.preset=llama3-8b", "tp=1", "pp=4", "dp=0", "sp=no", "seq_len=8192",
		                      "micro_batch=1", "flash_attention=yes", "recompute=full", "recipe=megatron",
		                      "schedule=1f1b", NULL, NULL};
		char m[64], n[64];
		int ns = 11;
		struct calc_plan p;
		struct calc_mem_terms k;
		struct calc_stage_layers sl;
		struct calc_mem_stage st;
		if (cases[i].method) {
			snprintf(m, sizeof m, "parallel.recompute_method=%s", cases[i].method);
			snprintf(n, sizeof n, "parallel.recompute_num_layers=%s", cases[i].n);
			sets[ns++] = m;
			sets[ns++] = n;
		}
		load_plan(&p, sets, ns);
		calc_memory_terms(&p, &k);
		assert_near(k.act[0], x, 1e-12);
		assert_near(k.act_full[0], F, 1e-12);
		calc_stage_layers(&p, 1, &sl);
		assert_int_equal(sl.layers, 8);
		calc_memory_stage_total(&k, &sl, 4, &st);
		assert_near(st.act_layers, cases[i].act, 1e-12);
	}
}

/* DeepSpeed's partition_activations and cpu_checkpointing (ZeRO-R P_a and P_a+cpu,
 * Rajbhandari et al. 2020 §6.1) on Llama 3 8B (h 4096, a 32, g 8, d 128, f 14336
 * SwiGLU; Llama 3 paper Table 3) at tp 4 without SP, s 8192, b 1, flash, BF16, pp 4: 8
 * layers a stage, 4 micro-batches in flight given.  By hand per token, one layer in
 * full F/sb = norm in 2h + QKV in 2h + Q, K, V 2 (a + 2g) d / t + projection in 2 a d / t
 * + fp32 log-sum-exp 4 a / t + norm in 2h + fc1 in 2h + SwiGLU 3 x 2 f / t = 8192 + 8192
 * + 3072 + 2048 + 32 + 8192 + 8192 + 21504 = 59,424 B, F = 486,801,408 B; the checkpoint
 * x = 2sh = 67,108,864 B, partitioned x/4 = 16,777,216 B.
 *   plain:                8 x 4 + F - x = 31x + F
 *   partitioned:          31 x/4 + F (the recomputed layer's gathered input is in F)
 *   CPU:                  x in transfer + F;  CPU + partitioned: x/4 + F
 *   CPU, uniform 2:       x + 2F;  CPU, block 3: x + 5F x 4 + F = x + 21F
 * With SP the checkpoint is already x/4: partitioning changes nothing. */
static void test_deepspeed_checkpoints(void **state)
{
	const double F = 486801408.0, x = 67108864.0;
	struct {
		const char *sets[3];
		double act; /* [B] */
	} cases[] = {
		{{NULL}, 31 * x + F},
		{{"parallel.partition_activations=yes"}, 31 * x / 4 + F},
		{{"parallel.cpu_checkpointing=yes"}, x + F},
		{{"parallel.cpu_checkpointing=yes", "parallel.partition_activations=yes"}, x / 4 + F},
		{{"parallel.cpu_checkpointing=yes", "parallel.recompute_method=uniform", "parallel.recompute_num_layers=2"}, x + 2 * F},
		{{"parallel.cpu_checkpointing=yes", "parallel.recompute_method=block", "parallel.recompute_num_layers=3"}, x + 21 * F},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *sets[16] = {"model.preset=llama3-8b", "tp=4", "pp=4", "dp=0", "sp=no", "seq_len=8192",
		                        "micro_batch=1", "flash_attention=yes", "recompute=full", "recipe=megatron",
		                        "schedule=1f1b"};
		int ns = 11;
		struct calc_plan p;
		struct calc_mem_terms k;
		struct calc_stage_layers sl;
		struct calc_mem_stage st;
		for (int j = 0; j < 3 && cases[i].sets[j]; j++)
			sets[ns++] = cases[i].sets[j];
		load_plan(&p, sets, ns);
		calc_memory_terms(&p, &k);
		assert_near(k.act_full[0], F, 1e-12);
		calc_stage_layers(&p, 1, &sl);
		assert_int_equal(sl.layers, 8);
		calc_memory_stage_total(&k, &sl, 4, &st);
		assert_near(st.act_layers, cases[i].act, 1e-12);
	}
	/* SP shards the checkpoint already: partitioned or not, x/4 */
	{
		const char *sets[] = {"model.preset=llama3-8b", "tp=4", "pp=4", "dp=0", "sp=yes", "seq_len=8192",
		                      "recompute=full", "recipe=megatron", "parallel.partition_activations=yes"};
		struct calc_plan p;
		struct calc_act_layer a;
		load_plan(&p, sets, 9);
		calc_memory_act_layer(&p, &a);
		assert_near(a.total, x / 4, 1e-12);
		p.partition_activations = 0;
		calc_memory_act_layer(&p, &a);
		assert_near(a.total, x / 4, 1e-12);
	}
}

/* Layer-level activation offloading (training.offload_activations = N) on Llama 3 8B at
 * tp 4 without SP, pp 1, s 8192, b 1, flash, no recomputation: one layer's activations F
 * = 486,801,408 B by hand (the sum per token in test_deepspeed_checkpoints' comment,
 * 59,424 B x 8192).  Transformer Engine keeps on the GPU the layers it does not offload,
 * "(num_layers - num_offloaded_layers) * T" (transformer_engine/pytorch/cpu_offload.py,
 * get_cpu_offload_context): 32 F without offload, 20 F with 12, F with 31. */
static void test_offload_activations(void **state)
{
	const double F = 486801408.0;
	struct {
		const char *n;
		double act; /* [B] */
	} cases[] = {{"0", 32 * F}, {"12", 20 * F}, {"31", F}};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char n[64];
		const char *sets[] = {"model.preset=llama3-8b", "tp=4", "pp=1", "dp=0", "sp=no", "seq_len=8192",
		                      "micro_batch=1", "flash_attention=yes", "recompute=none", "recipe=megatron",
		                      "cluster.gpu_pcie_bw=64e9", n};
		struct calc_plan p;
		struct calc_mem_terms k;
		struct calc_stage_layers sl;
		struct calc_mem_stage st;
		snprintf(n, sizeof n, "training.offload_activations=%s", cases[i].n);
		load_plan(&p, sets, 12);
		calc_memory_terms(&p, &k);
		assert_near(k.act[0], F, 1e-12);
		calc_stage_layers(&p, 0, &sl);
		assert_int_equal(sl.layers, 32);
		calc_memory_stage_total(&k, &sl, 1, &st);
		assert_near(st.act_layers, cases[i].act, 1e-12);
		/* the offloaded layers' activations are in host memory: 32 F less what stays */
		assert_near(st.host, 32 * F - cases[i].act, 1e-12);
		/* a planner candidate with recomputation or pipeline stages offloads nothing */
		p.recompute = CALC_RC_SELECTIVE;
		calc_memory_terms(&p, &k);
		assert_int_equal(k.offload_layers, 0);
		p.recompute = CALC_RC_NONE;
		p.pp = 2;
		calc_memory_terms(&p, &k);
		assert_int_equal(k.offload_layers, 0);
	}
}

/* Fine-grained activation offloading (training.offload_modules; Megatron-Core's
 * --offload-modules, docs/references.md §2.14) on Llama 3 8B (h 4096, 32 heads of 128, 8
 * KV heads) at tp 4 without SP, s 8192, b 1, flash, recipe megatron (e = 2 B, no FP8
 * casts).  Each group is what autograd saves inside the module, by hand from the layer's
 * tensors (Korthikanti et al. 2022 §4.1 generalised as memory.c act_layer counts them):
 *   qkv_linear: the fused norm's input 2 x 8192 x 4096 = 67,108,864 B and its output, the
 *               QKV input, 67,108,864 B (TELayerNormColumnParallelLinear saves both);
 *   core_attn:  Q 2 x 8192 x 32 x 128 / 4 = 16,777,216 B, K and V 4,194,304 B each
 *               (2,097,152 elements: above the 1,048,576-element minimum), and the fp32
 *               statistics 4 x 32 x 8192 / 4 = 262,144 B = 65,536 elements, below
 *               min_offloaded_tensor_size (its default 1024 x 1024): they stay;
 *   attn_proj:  the core's output, 16,777,216 B.
 * All three: m = 134,217,728 + 25,165,824 + 16,777,216 = 176,160,768 B a layer.  Of a
 * stage of 32 layers with 3 micro-batches in flight, all but CALC_OFFLOAD_KEEP = 2 groups
 * (the margin and the one reloaded ahead) are in host memory: (3 x 32 - 2) m.  At s =
 * 1024 the core's Q is 1,048,576 elements (offloaded: not below the minimum) and K, V
 * 262,144 each (kept): core_attn alone moves 2,097,152 B.  With offload_fraction f
 * (Megatron-Core's activation_offload_fraction over the groups) f of it. */
static void test_offload_modules(void **state)
{
	const double m = 176160768.0;
	const char *sets[] = {"model.preset=llama3-8b", "tp=4", "pp=1", "dp=0", "sp=no", "seq_len=8192",
	                      "micro_batch=1", "flash_attention=yes", "recompute=none", "recipe=megatron",
	                      "cluster.gpu_pcie_bw=64e9", "training.offload_modules=qkv_linear,core_attn,attn_proj"};
	struct calc_plan p;
	struct calc_mem_terms k;
	struct calc_stage_layers sl;
	struct calc_mem_stage st0, st1;
	(void)state;
	load_plan(&p, sets, 11);
	calc_memory_terms(&p, &k);
	calc_stage_layers(&p, 0, &sl);
	assert_int_equal(sl.layers, 32);
	calc_memory_stage_total(&k, &sl, 3, &st0);
	assert_near(st0.host, 0, 0);
	load_plan(&p, sets, 12);
	assert_near(calc_memory_offload_bytes(&p, 0), m, 1e-12);
	calc_memory_terms(&p, &k);
	calc_memory_stage_total(&k, &sl, 3, &st1);
	assert_near(st1.host, (3 * 32 - 2) * m, 1e-12);
	assert_near(st0.act_layers - st1.act_layers, (3 * 32 - 2) * m, 1e-12);
	assert_near(st1.gradients, st0.gradients, 1e-12);
	/* each module alone */
	p.offload_modules = CALC_OFM_QKV_LINEAR;
	assert_near(calc_memory_offload_bytes(&p, 0), 134217728.0, 1e-12);
	p.offload_modules = CALC_OFM_CORE_ATTN;
	assert_near(calc_memory_offload_bytes(&p, 0), 25165824.0, 1e-12);
	/* a dense layer's norms are fused (IdentityOp): attn_norm moves nothing */
	p.offload_modules = CALC_OFM_ATTN_NORM;
	assert_near(calc_memory_offload_bytes(&p, 0), 0, 0);
	/* the minimum tensor size at s = 1024 */
	p.offload_modules = CALC_OFM_CORE_ATTN;
	p.seq_len = 1024;
	assert_near(calc_memory_offload_bytes(&p, 0), 2097152.0, 1e-12);
	/* training.offload_fraction = 0.5: half of the groups, counted as half of each
	 * layer's bytes (core_attn: 25,165,824 / 2) */
	p.offload_fraction = 0.5;
	p.seq_len = 8192;
	assert_near(calc_memory_offload_bytes(&p, 0), 12582912.0, 1e-12);
	p.offload_fraction = 1;
	/* a planner candidate with full recomputation offloads nothing */
	p.recompute = CALC_RC_FULL;
	assert_near(calc_memory_offload_bytes(&p, 0), 0, 0);
}

/* training.offload_device = nvme (ZeRO-Infinity's optimizer swap, docs/references.md
 * §2.15): Llama 3 8B, P = 8,030,261,248 parameters, on 8 GPUs at ZeRO-3 with the megatron
 * recipe: the rank's partition of P / 8 = 1,003,782,656 parameters keeps its fp32 master
 * (4 B), two Adam moments (8 B) and fp32 gradient (4 B) on NVMe, 16 P / 8 = 2 P B, none on
 * the GPU; the host holds DeepSpeed's 4 pinned fp32 swap buffers of the largest sub-group,
 * min(P / 8, sub_group_size = 1e9) = 1e9 elements: 16e9 B (offload_config.py buffer_count
 * = 4, config.py sub_group_size = 1e9, DeepSpeed at edaa722). */
static void test_nvme_offload_memory(void **state)
{
	const double P = 8030261248.0;
	const char *sets[] = {"model.preset=llama3-8b", "cluster.nodes=1", "tp=1", "pp=1", "dp=8", "zero=3",
	                      "recipe=megatron", "cluster.cpu_optimizer_rate=1e9", "training.offload_optimizer=1",
	                      "training.offload_style=zero-offload", "cluster.nvme_bw=6e9", "training.offload_device=nvme"};
	struct calc_plan p;
	struct calc_memory *m0 = calloc(1, sizeof *m0), *m1 = calloc(1, sizeof *m1);
	struct calc_diag d = {0};
	(void)state;
	load_plan(&p, sets, 11);
	assert_int_equal(calc_memory(&p, m0, &d), 0);
	assert_near(m0->st[0].host, 16 * P / 8, 1e-12); /* ZeRO-Offload: all on the host */
	assert_near(m0->st[0].nvme, 0, 0);
	load_plan(&p, sets, 12);
	assert_int_equal(calc_memory(&p, m1, &d), 0);
	assert_near(m1->st[0].gradients, 0, 0);
	assert_near(m1->st[0].master, 0, 0);
	assert_near(m1->st[0].optimizer, 0, 0);
	assert_near(m1->st[0].nvme, 2 * P, 1e-12);
	assert_near(m1->st[0].host, 16e9, 1e-12);
	assert_near(m1->st[0].total, m0->st[0].total, 1e-12); /* the GPU's share is ZeRO-Offload's */
	free(m0);
	free(m1);
	calc_diag_free(&d);
}

/* training.offload_param (DeepSpeed ZeRO-3 parameter offload, docs/references.md §2.15):
 * Llama 3 8B on 8 GPUs at ZeRO-3, tp 1, pp 1, recipe megatron: the rank's partition of the
 * bf16 weights is 2 P / 8 = 2,007,565,312 B; cpu moves it to the host, nvme to NVMe with
 * the host holding 5 swap buffers of 1e8 two-byte elements, 1e9 B (offload_config.py at
 * edaa722: buffer_count, buffer_size); nothing else moves. */
static void test_param_offload_memory(void **state)
{
	const double P = 8030261248.0;
	const char *sets[] = {"model.preset=llama3-8b", "cluster.nodes=1", "tp=1", "pp=1", "dp=8", "zero=3",
	                      "recipe=megatron", "cluster.nvme_bw=6e9", "training.offload_param=cpu"};
	struct calc_plan p;
	struct calc_memory *m0 = calloc(1, sizeof *m0), *m1 = calloc(1, sizeof *m1);
	struct calc_diag d = {0};
	(void)state;
	load_plan(&p, sets, 8);
	assert_int_equal(calc_memory(&p, m0, &d), 0);
	assert_near(m0->st[0].weights, 2 * P / 8, 1e-12);
	load_plan(&p, sets, 9);
	assert_int_equal(calc_memory(&p, m1, &d), 0);
	assert_near(m1->st[0].weights, 0, 0);
	assert_near(m1->st[0].host, 2 * P / 8, 1e-12);
	assert_near(m1->st[0].master, m0->st[0].master, 1e-12);
	assert_near(m1->st[0].activations, m0->st[0].activations, 1e-12);
	p.offload_param = 2;
	assert_int_equal(calc_memory(&p, m1, &d), 0);
	assert_near(m1->st[0].nvme, 2 * P / 8, 1e-12);
	assert_near(m1->st[0].host, 1e9, 1e-12);
	free(m0);
	free(m1);
	calc_diag_free(&d);
}

/* Optimizer offload (training.offload_optimizer = f, Megatron-Core's HybridDeviceOptimizer):
 * Llama 3 8B, P = 8,030,261,248 parameters (tests/calc/model.c, Hugging Face's count), tp 1,
 * pp 1, dp 8, ZeRO-1, recipe megatron (fp32 master 4 B and Adam moments 8 B per
 * parameter, ZeRO §3): each rank holds P / 8 of them, 4 P / 8 = 4,015,130,624 B of master
 * weights and 8,030,261,248 B of moments; with f = 0.25 three quarters of each stay on the
 * GPU, and nothing else moves. */
static void test_offload_optimizer(void **state)
{
	const double P = 8030261248.0;
	const char *sets[] = {"model.preset=llama3-8b", "cluster.nodes=1", "tp=1", "pp=1", "dp=8", "zero=1",
	                      "recipe=megatron", "cluster.cpu_optimizer_rate=1e9", "training.offload_optimizer=0.25"};
	struct calc_plan p;
	struct calc_memory *m0 = calloc(1, sizeof *m0), *m1 = calloc(1, sizeof *m1);
	struct calc_diag d = {0};
	(void)state;
	load_plan(&p, sets, 8);
	assert_int_equal(calc_memory(&p, m0, &d), 0);
	assert_near(m0->st[0].master, 4 * P / 8, 1e-12);
	assert_near(m0->st[0].optimizer, 8 * P / 8, 1e-12);
	load_plan(&p, sets, 9);
	assert_int_equal(calc_memory(&p, m1, &d), 0);
	assert_near(m1->st[0].master, 0.75 * 4 * P / 8, 1e-12);
	assert_near(m1->st[0].optimizer, 0.75 * 8 * P / 8, 1e-12);
	assert_near(m0->st[0].host, 0, 0);
	assert_near(m1->st[0].host, 0.25 * 12 * P / 8, 1e-12);
	assert_near(m1->st[0].weights, m0->st[0].weights, 1e-12);
	assert_near(m1->st[0].gradients, m0->st[0].gradients, 1e-12);
	assert_near(m1->st[0].activations, m0->st[0].activations, 1e-12);
	free(m0);
	free(m1);
	calc_diag_free(&d);
}

/* training.offload_style = zero-offload: ZeRO-Offload keeps the gradients on the host too
 * (Ren et al. 2021 §3.5: "all fp32 model states and fp16 gradients" in CPU memory), so
 * the GPU holds the bf16 weights alone of the model states; memory.host gains the
 * gradients.  Llama 3 8B on 8 GPUs at ZeRO-1 with the megatron recipe: fp32 gradients of
 * every parameter (4 P, ZeRO-1 does not shard them), master 4 and moments 8 bytes of
 * the rank's eighth, by hand. */
static void test_zero_offload_memory(void **state)
{
	const double P = 8030261248.0;
	const char *sets[] = {"model.preset=llama3-8b", "cluster.nodes=1", "tp=1", "pp=1", "dp=8", "zero=1",
	                      "recipe=megatron", "cluster.cpu_optimizer_rate=1e9", "training.offload_optimizer=1",
	                      "training.offload_style=zero-offload"};
	struct calc_plan p;
	struct calc_memory *m0 = calloc(1, sizeof *m0), *m1 = calloc(1, sizeof *m1);
	struct calc_diag d = {0};
	(void)state;
	load_plan(&p, sets, 9);
	assert_int_equal(calc_memory(&p, m0, &d), 0);
	assert_near(m0->st[0].gradients, 4 * P, 1e-12); /* megatron: the gradients stay */
	assert_near(m0->st[0].host, 12 * P / 8, 1e-12);
	load_plan(&p, sets, 10);
	assert_int_equal(calc_memory(&p, m1, &d), 0);
	assert_near(m1->st[0].gradients, 0, 0);
	assert_near(m1->st[0].master, 0, 0);
	assert_near(m1->st[0].optimizer, 0, 0);
	assert_near(m1->st[0].weights, 2 * P, 1e-12);
	assert_near(m1->st[0].host, 12 * P / 8 + 4 * P, 1e-12);
	assert_near(m1->st[0].activations, m0->st[0].activations, 1e-12);
	free(m0);
	free(m1);
	calc_diag_free(&d);
}

static void test_op_sac(void **state)
{
	const char *sets[] = {"model.preset=llama3-8b", "tp=1", "dp=0", "sp=yes", "seq_len=8192",
	                      "micro_batch=1", "flash_attention=yes", "recompute=op-sac", "recipe=megatron"};
	struct calc_plan p;
	struct calc_act_layer a;
	struct calc_diag d = {0};
	load_plan(&p, sets, 9);
	calc_memory_act_layer(&p, &a);
	assert_near(a.total, 521142272.0, 1e-12);
	assert_int_equal(calc_plan_set(&p, "parallel.tp=2", "test", &d), 0);
	assert_int_equal(calc_plan_set(&p, "parallel.dp=0", "test", &d), 0);
	calc_memory_act_layer(&p, &a);
	assert_near(a.total, 361234432.0, 1e-12);
	calc_diag_free(&d);
}

/* training.compile under op-sac (docs/references.md §2.19), by hand on Llama 3 8B (h =
 * 4,096, 32 heads of 128, 8 KV heads, SwiGLU f = 14,336) at s = 8,192, b = 1, flash, e = 2.
 * Eager, tp 1: block input 2 sbh + wq 2 sbh + wv 2 sb 1,024 + SDPA output 2 sbh =
 * 218,103,808, log-sum-exp 4 x 32 x 8,192 = 1,048,576, w1 2 sb f = 234,881,024 and w2
 * 2 sbh = 67,108,864: 521,142,272 B.  Compiled, w2's output (read by the residual add
 * alone) goes: 454,033,408 B.  tp 2 with SP, eager: 109,051,904 + 524,288 + (117,440,512
 * + 67,108,864 + 2 x 33,554,432 of reduce-scatter outputs) = 361,234,432; compiled, w2's
 * output and the MLP's reduce-scatter output go (the attention's stays: the recomputed
 * ffn_norm reads h = x + it): 260,571,136 B.  Full recomputation keeps the
 * block input only, compiled or not.  A stage of 32 layers at b = 2: the activations
 * drop by 31 of the 2 sbh per layer (the layer in its backward holds its whole set either
 * way, memory.c calc_memory_stage_parts): 31 x 134,217,728 = 4,160,749,568 B. */
static void test_op_sac_compile(void **state)
{
	const char *sets[] = {"model.preset=llama3-8b", "nodes=1", "tp=1", "pp=1", "dp=0", "sp=yes", "seq_len=8192",
	                      "global_batch=16", "micro_batch=1", "flash_attention=yes", "recompute=op-sac",
	                      "recipe=megatron"};
	struct calc_plan p;
	struct calc_act_layer a;
	struct calc_memory *m = malloc(sizeof *m);
	struct calc_diag d = {0};
	double eager;
	(void)state;
	load_plan(&p, sets, 12);
	assert_int_equal(p.compile, 0); /* eager unless the plan says */
	assert_int_equal(calc_plan_set(&p, "training.compile=yes", "test", &d), 0);
	calc_memory_act_layer(&p, &a);
	assert_near(a.total, 454033408.0, 1e-12);
	assert_int_equal(calc_plan_set(&p, "parallel.tp=2", "test", &d), 0);
	assert_int_equal(calc_plan_set(&p, "parallel.dp=0", "test", &d), 0);
	calc_memory_act_layer(&p, &a);
	assert_near(a.total, 260571136.0, 1e-12);
	assert_int_equal(calc_plan_set(&p, "training.compile=no", "test", &d), 0);
	calc_memory_act_layer(&p, &a);
	assert_near(a.total, 361234432.0, 1e-12);
	/* full recomputation: the sequence-sharded block input 2 sbh / 2, compiled or not */
	assert_int_equal(calc_plan_set(&p, "parallel.recompute=full", "test", &d), 0);
	assert_int_equal(calc_plan_set(&p, "training.compile=yes", "test", &d), 0);
	calc_memory_act_layer(&p, &a);
	assert_near(a.total, 33554432.0, 1e-12);
	/* a stage: 32 layers at b = 2, tp 1 */
	sets[8] = "micro_batch=2";
	load_plan(&p, sets, 12);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	eager = m->st[0].activations;
	assert_int_equal(calc_plan_set(&p, "training.compile=yes", "test", &d), 0);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_near(eager - m->st[0].activations, 4160749568.0, 1e-12);
	calc_diag_free(&d);
	free(m);
}

/* The loss's transient (docs/references.md §2.5) worked by hand on Llama 3 8B (V =
 * 128,256) at s = 8,192, b = 2: s b V = 2 x 8,192 x 128,256 = 2,101,346,304 logits on the
 * one stage.  fused (Megatron-LM): 2 B per logit beyond the 4 B fp32 logits of the
 * activations = 4,202,692,608 B; torch (F.cross_entropy on an fp32 upcast), tp = 1: the
 * backward's saved log_softmax output, nll_loss's gradient and log_softmax's input
 * gradient, 12 B, 8 beyond the 4 = 16,810,770,432 B; tp = 2 (DTensor loss_parallel): 16 B
 * per local logit, 12 beyond the 4, on s b V / 2 = 1,050,673,152 logits = 12,608,077,824 B.
 * The totals differ by the transient plus its 5% fragmentation share. */
static void test_cross_entropy(void **state)
{
	const char *sets[] = {"model.preset=llama3-8b", "nodes=1", "tp=1", "pp=1", "dp=0", "sp=yes", "seq_len=8192",
	                      "global_batch=16", "micro_batch=2", "flash_attention=yes", "recompute=full",
	                      "recipe=megatron", "fragmentation=0.05"};
	struct calc_plan p;
	struct calc_memory *m = malloc(sizeof *m);
	struct calc_diag d = {0};
	double fused_total, fused_act;
	load_plan(&p, sets, 13);
	assert_int_equal(p.cross_entropy, CALC_XENT_FUSED);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_near(m->st[0].ov_temp, 4202692608.0, 1e-12);
	fused_total = m->st[0].total;
	fused_act = m->st[0].activations;
	assert_int_equal(calc_plan_set(&p, "training.cross_entropy=torch", "test", &d), 0);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_near(m->st[0].ov_temp, 16810770432.0, 1e-12);
	assert_near(m->st[0].activations, fused_act, 1e-12); /* the 4 B stay activations */
	assert_near(m->st[0].total - fused_total, 1.05 * (16810770432.0 - 4202692608.0), 1e-9);
	assert_int_equal(calc_plan_set(&p, "parallel.tp=2", "test", &d), 0);
	assert_int_equal(calc_plan_set(&p, "parallel.dp=0", "test", &d), 0);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_near(m->st[0].ov_temp, 12608077824.0, 1e-12);
	/* torchtitan's stack names the torch loss */
	sets[12] = "efficiency.stack=torchtitan";
	load_plan(&p, sets, 13);
	assert_int_equal(p.cross_entropy, CALC_XENT_TORCH);
	calc_diag_free(&d);
	free(m);
}

/* parallel.sp_saved_input (docs/references.md §2.9) worked by hand on Llama 3 8B (h =
 * 4,096, 32 heads of 128, 8 KV heads, SwiGLU f = 14,336) at s = 8,192, b = 1, flash, no
 * recomputation, BF16 activations (e = 2): sbh = 33,554,432.  Sharded at tp 2 with SP:
 * attention 2 sbh/2 (norm input) + 2 sbh/2 (QKV input) + 2 sb (32 + 16) 128 / 2 (Q, K, V)
 * + 2 sb 32 x 128 / 2 (out-proj input) = 150,994,944 B, FlashAttention's fp32 statistics
 * 4 x 32 x 8,192 / 2 = 524,288 B, MLP 2 sbh/2 + 2 sbh/2 + 3 x 2 sb f / 2 = 419,430,400 B:
 * 570,949,632 B.  Gathered: the QKV and fc1 inputs are the whole 2 sbh each, 2 x (2 sbh -
 * sbh) = 67,108,864 B more; the LM head's input too, 2 sbh - sbh = 33,554,432 B more on
 * the last stage.  Under an FP8-compute recipe the gathered inputs are FP8, 1 B: at tp 4
 * that is 2 x (sbh - 2 sbh/4) = 33,554,432 B above the sharded count (the LM head stays
 * BF16: 2 sbh - 2 sbh/4 = 50,331,648 B more). */
static void test_sp_saved_input(void **state)
{
	const char *sets[] = {"model.preset=llama3-8b", "nodes=1", "tp=2", "pp=1", "dp=0", "sp=yes", "seq_len=8192",
	                      "global_batch=4", "micro_batch=1", "flash_attention=yes", "recompute=none",
	                      "recipe=megatron"};
	struct calc_plan p;
	struct calc_act_layer a;
	struct calc_memory *m = malloc(sizeof *m);
	struct calc_diag d = {0};
	double sharded, extra;
	(void)state;
	load_plan(&p, sets, 12);
	assert_int_equal(p.sp_saved_input, 0); /* sharded: the default, Megatron-LM's */
	calc_memory_act_layer(&p, &a);
	assert_near(a.total, 570949632.0, 1e-12);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	extra = m->st[0].act_extra;
	assert_int_equal(calc_plan_set(&p, "parallel.sp_saved_input=gathered", "test", &d), 0);
	calc_memory_act_layer(&p, &a);
	assert_near(a.total, 570949632.0 + 67108864.0, 1e-12);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_near(m->st[0].act_extra - extra, 33554432.0, 1e-9);
	/* without SP nothing is sharded: the key changes nothing */
	assert_int_equal(calc_plan_set(&p, "parallel.sp=no", "test", &d), 0);
	calc_memory_act_layer(&p, &a);
	sharded = a.total;
	assert_int_equal(calc_plan_set(&p, "parallel.sp_saved_input=sharded", "test", &d), 0);
	calc_memory_act_layer(&p, &a);
	assert_near(a.total, sharded, 1e-12);
	/* FP8 linears at tp 4 */
	sets[2] = "tp=4";
	sets[11] = "recipe=torch-mp-fp8";
	load_plan(&p, sets, 12);
	calc_memory_act_layer(&p, &a);
	sharded = a.total;
	assert_int_equal(calc_memory(&p, m, &d), 0);
	extra = m->st[0].act_extra;
	assert_int_equal(calc_plan_set(&p, "parallel.sp_saved_input=gathered", "test", &d), 0);
	calc_memory_act_layer(&p, &a);
	assert_near(a.total - sharded, 33554432.0, 1e-9);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_near(m->st[0].act_extra - extra, 50331648.0, 1e-9);
	/* the torchtitan stack names it; a bad value is refused */
	sets[11] = "efficiency.stack=torchtitan";
	load_plan(&p, sets, 12);
	assert_int_equal(p.sp_saved_input, 1);
	assert_true(calc_plan_set(&p, "parallel.sp_saved_input=replicated", "test", &d) < 0);
	calc_diag_free(&d);
	free(m);
}

/* parallel.pp_runtime = torch (docs/references.md §2.17): torch.distributed.pipelining's
 * buffers, worked by hand on Llama 3 8B (h 4,096, vocabulary 128,256) at tp 2 with SP, pp 4
 * (8 layers a stage), s 8,192, b 1, 8 micro-batches, BF16 (e = 2), no recomputation.  The
 * hidden state between two stages is x = 2 x 8,192 x 4,096 / 2 = 33,554,432 B (the sequence
 * shard), one micro-batch's logits out = 2 x 8,192 x 128,256 / 2 = 1,050,673,152 B.
 * 1F1B keeps 4, 3, 2, 1 micro-batches in flight on stages 0-3, and at a stage's peak (the
 * backward of micro-batch 8 - f) the 8 - f backwards before it have each left the input
 * gradient in a receive buffer's .grad (stage_backward, torch 2.6.0), so (F receives, G sends):
 *   stage 0 (F 0, G 1): 8 grad buffers + 4 held outputs = 12 x = 402,653,184 B
 *   stage 1 (F 1, G 1): 8 + 8 buffers - 3 in flight (the layers' inputs) + 3 outputs + 5
 *                       input gradients = 21 x = 704,643,072 B
 *   stage 2 (F 1, G 1): 16 - 2 + 2 + 6 = 22 x
 *   stage 3 (F 1, G 0): 8 - 1 receive buffers + 7 input gradients = 14 x = 469,762,048 B,
 *                       and the 8 outputs of output_chunks, 8,405,385,216 B: 8,875,147,264 B.
 * Interleaved with v = 2 (Megatron's order keeps 2 (p - 1) + (v - 1) p + 1 = 11 chunks, 5.5
 * stage sets, on stage 0): F = 1 (its second chunk), G = 2: x (8 x 3 - 5.5 + 2 x 5.5 + (8 -
 * 5.5) x 1) = 32 x = 1,073,741,824 B. */
static void test_pp_runtime_torch(void **state)
{
	const char *sets[] = {"model.preset=llama3-8b", "nodes=1", "tp=2", "pp=4", "dp=1", "sp=yes", "seq_len=8192",
	                      "global_batch=8", "micro_batch=1", "flash_attention=yes", "recompute=none",
	                      "recipe=megatron", "schedule=1f1b"};
	const double x = 33554432.0, want[4] = {12 * x, 21 * x, 0, 14 * x + 8 * 1050673152.0};
	struct calc_plan p;
	struct calc_memory *m = malloc(sizeof *m), *t = malloc(sizeof *t);
	struct calc_diag d = {0};
	(void)state;
	load_plan(&p, sets, 13);
	assert_int_equal(p.pp_runtime, 0); /* megatron: the default */
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_int_equal(calc_plan_set(&p, "parallel.pp_runtime=torch", "test", &d), 0);
	assert_int_equal(calc_memory(&p, t, &d), 0);
	for (int i = 0; i < 4; i++)
		if (i != 2)
			assert_near(t->st[i].act_extra - m->st[i].act_extra, want[i], 1e-9);
	/* stage 2: F 1, G 1, 2 in flight: 16 x as on stage 1, and 6 input gradients */
	assert_near(t->st[2].act_extra - m->st[2].act_extra, 22 * x, 1e-9);
	/* the buffers take the overhead's share like any activation: the totals move by more */
	assert_true(t->st[0].total - m->st[0].total > 12 * x);
	/* interleaved, v = 2 */
	{
		const char *iv[] = {sets[0], sets[1], sets[2], sets[3], sets[4], sets[5], sets[6], sets[7], sets[8],
		                    sets[9], sets[10], sets[11], "schedule=interleaved", "vpp=2"};
		load_plan(&p, iv, 14);
	}
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_int_equal(calc_plan_set(&p, "parallel.pp_runtime=torch", "test", &d), 0);
	assert_int_equal(calc_memory(&p, t, &d), 0);
	assert_near(t->st[0].inflight, 5.5, 1e-12);
	assert_near(t->st[0].act_extra - m->st[0].act_extra, 32 * x, 1e-9);
	/* without a pipeline there is nothing to buffer */
	sets[3] = "pp=1";
	sets[4] = "dp=4";
	sets[7] = "global_batch=32";
	load_plan(&p, sets, 13);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_int_equal(calc_plan_set(&p, "parallel.pp_runtime=torch", "test", &d), 0);
	assert_int_equal(calc_memory(&p, t, &d), 0);
	assert_near(t->st[0].total, m->st[0].total, 1e-12);
	/* the torchtitan stack names it; a bad value is refused */
	sets[12] = "efficiency.stack=torchtitan";
	load_plan(&p, sets, 13);
	assert_int_equal(p.pp_runtime, 1);
	assert_true(calc_plan_set(&p, "parallel.pp_runtime=pippy", "test", &d) < 0);
	calc_diag_free(&d);
	free(m);
	free(t);
}

/* parallel.pp_runtime = torch with the interleaved schedule at m = p (docs/references.md
 * §2.17): torch's ScheduleInterleaved1F1B warms rank i up with (v - 1) p + 2 (p - 1 - i)
 * chunk forwards, capped at m v, and holds one more in its steady state, where Megatron-LM
 * runs every forward first at m = p.  Llama 3 8B at tp 2, pp 4, v = 2, 4 micro-batches:
 *   rank 0: min(4 + 6 + 1, 8) = 8 chunks = 4 stage sets; rank 1: min(4 + 4 + 1, 8) = 8 = 4;
 *   rank 2: 4 + 2 + 1 = 7 chunks = 3.5;                  rank 3: 4 + 0 + 1 = 5 = 2.5;
 * Megatron's order: 4 on every rank.  At m = 8 (m != p) the two agree (rank 3: 2 x 0 + 4 +
 * 1 = 5 chunks, 2.5). */
static void test_pp_runtime_torch_interleaved(void **state)
{
	const char *sets[] = {"model.preset=llama3-8b", "nodes=1", "tp=2", "pp=4", "dp=1", "sp=yes", "seq_len=8192",
	                      "global_batch=4", "micro_batch=1", "flash_attention=yes", "recompute=none",
	                      "recipe=megatron", "schedule=interleaved", "vpp=2"};
	const double torch[4] = {4, 4, 3.5, 2.5};
	struct calc_plan p;
	struct calc_memory *m = malloc(sizeof *m), *t = malloc(sizeof *t);
	struct calc_diag d = {0};
	(void)state;
	load_plan(&p, sets, 14);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_int_equal(calc_plan_set(&p, "parallel.pp_runtime=torch", "test", &d), 0);
	assert_int_equal(calc_memory(&p, t, &d), 0);
	for (int i = 0; i < 4; i++) {
		assert_near(m->st[i].inflight, 4, 1e-12);
		assert_near(t->st[i].inflight, torch[i], 1e-12);
	}
	sets[7] = "global_batch=8";
	load_plan(&p, sets, 14);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_int_equal(calc_plan_set(&p, "parallel.pp_runtime=torch", "test", &d), 0);
	assert_int_equal(calc_memory(&p, t, &d), 0);
	assert_near(t->st[3].inflight, 2.5, 1e-12);
	for (int i = 0; i < 4; i++)
		assert_near(t->st[i].inflight, m->st[i].inflight, 1e-12);
	calc_diag_free(&d);
	free(m);
	free(t);
}

/* parallel.grad_buffer = per-chunk (docs/references.md §2.18), by hand on Llama 3 8B (h
 * 4,096, 32 heads of 128, 8 KV heads, SwiGLU f 14,336) at tp 2, pp 4, dp 4, recipe megatron
 * (FP32 gradients, 4 B), interleaved with v = 2.  One layer holds 2 x 4,096^2 + 2 x 4,096 x
 * 1,024 + 3 x 4,096 x 14,336 = 218,103,808 matrix parameters and 8,192 norm weights: on a TP
 * rank 109,051,904 + 8,192 = 109,060,096; a middle stage's 8 layers n = 872,480,768.  With 4
 * micro-batches (m = p: every chunk's forward runs before any backward) stage 1 keeps the
 * shard 4 / 4 n and one chunk's unsharded gradient 4 n / 2: 3 n = 2,617,442,304 B, where the
 * persistent buffer is 4 n = 3,489,923,072 B.  With 8 micro-batches stage 1 keeps 2 (p - 2) +
 * (v - 1) p + 1 = 9 of 16 chunks in flight, the backwards interleave with forwards, and the
 * persistent 4 n stands. */
static void test_grad_buffer_per_chunk(void **state)
{
	const char *sets[] = {"model.preset=llama3-8b", "nodes=4", "tp=2", "pp=4", "dp=4", "sp=yes", "seq_len=8192",
	                      "global_batch=16", "micro_batch=1", "flash_attention=yes", "recompute=none",
	                      "recipe=megatron", "schedule=interleaved", "vpp=2", "zero=1"};
	const double n = 872480768.0;
	struct calc_plan p;
	struct calc_memory *m = malloc(sizeof *m);
	struct calc_diag d = {0};
	(void)state;
	load_plan(&p, sets, 15);
	assert_int_equal(p.grad_buffer, 0); /* persistent: the default */
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_near(m->st[1].gradients, 4 * n, 1e-12);
	assert_int_equal(calc_plan_set(&p, "parallel.grad_buffer=per-chunk", "test", &d), 0);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_near(m->st[1].inflight, 4, 1e-12);
	assert_near(m->st[1].gradients, 3 * n, 1e-12);
	/* 8 micro-batches: not every forward before the first backward */
	sets[7] = "global_batch=32";
	load_plan(&p, sets, 15);
	assert_int_equal(calc_plan_set(&p, "parallel.grad_buffer=per-chunk", "test", &d), 0);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_near(m->st[1].inflight, 4.5, 1e-12);
	assert_near(m->st[1].gradients, 4 * n, 1e-12);
	/* ZeRO 2 shards the gradients already: refused, as is a bad value */
	assert_true(calc_plan_set(&p, "parallel.zero=2", "test", &d) < 0);
	assert_true(calc_plan_set(&p, "parallel.grad_buffer=sometimes", "test", &d) < 0);
	calc_diag_free(&d);
	free(m);
}

/* What a Transformer Engine FP8 recipe saves of a linear layer's input: its 1-byte FP8
 * cast (transformer_engine/pytorch/module/linear.py saves the quantized inputmat,
 * layernorm_linear.py the FP8 ln_out; docs/references.md §2.10), for the QKV, fc1 and fc2
 * inputs; the output projection's input stays the BF16 attention output, which the fused
 * attention keeps (Megatron-Core set_save_original_input).  Worked by hand for Llama 3.1
 * 405B (h 16,384, 128 heads of 128, 8 KV heads, SwiGLU f 53,248, no dropout) at s 8,192,
 * b 1, t 4 with SP and FlashAttention, no recomputation; sbh/t = 33,554,432 elements:
 *   attention: norm input 2 sbh/t = 67,108,864; QKV input 1 x sbh/t = 33,554,432;
 *              Q, K, V 2 sb (128 + 16) 128 / 4 = 75,497,472; attention output
 *              2 sb 128 x 128 / 4 = 67,108,864; log-sum-exp 4 x 128 x 8192 / 4 = 1,048,576
 *   MLP:       norm input 67,108,864; fc1 input 33,554,432; fc1 output 2 x 2 sbf/t and
 *              fc2 input 1 x sbf/t, 5 x 8192 x 53248 / 4 = 545,259,520
 * in all 890,241,024 B; in BF16 (megatron) the three linear inputs take 2 B: + 2 x
 * 33,554,432 + 109,051,904 = 1,066,401,792 B.
 * The published run (Megatron-Bridge docs/performance-summary-archive.md, 26.06 and
 * 26.04.01 containers: DGX-GB200, 256 GPUs, FP8 current scaling, batch 1,536, micro-batch
 * 1, sequence 8,192, TP 4, PP 16, CP 1, VP 4; perf_recipes/llama/gb200/llama31.py
 * llama31_405b_pretrain_256gpu_gb200_fp8cs_config: SP, no recomputation) ran, so it must
 * fit in the GB200's usable memory; modelled as in docs/references.md §7.9 (fp8-params,
 * BF16 main gradients, 126 layers as 128), on 4 NVL72 racks of 64 GPUs. */
static void test_te_fp8_saved_inputs(void **state)
{
	const char *sets[] = {"model.preset=llama3.1-405b", "model.layers=128", "cluster.preset=gb200-nvl72",
	                      "cluster.gpus_per_node=64", "cluster.nodes=4", "tp=4", "pp=16", "cp=1", "dp=0",
	                      "vpp=4", "schedule=interleaved", "recompute=none", "sp=yes", "zero=1",
	                      "seq_len=8192", "global_batch=1536", "micro_batch=1", "flash_attention=yes",
	                      "training.main_grads=bf16", "recipe=fp8-params"};
	const int n = sizeof sets / sizeof sets[0];
	struct calc_plan p;
	struct calc_act_layer a;
	struct calc_memory *m = malloc(sizeof *m);
	struct calc_diag d = {0};
	(void)state;
	load_plan(&p, sets, n);
	calc_memory_act_layer(&p, &a);
	assert_near(a.attn, 67108864.0 + 33554432 + 75497472 + 67108864, 1e-12);
	assert_near(a.scores, 1048576.0, 1e-12);
	assert_near(a.mlp, 67108864.0 + 33554432 + 545259520, 1e-12);
	assert_near(a.total, 890241024.0, 1e-12);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_true(m->fits); /* it ran */
	assert_true(m->st[0].total <= 185.0 * 1073741824.0);
	/* fp8-te saves the same; the BF16 recipe its 2-byte inputs */
	sets[n - 1] = "recipe=fp8-te";
	load_plan(&p, sets, n);
	calc_memory_act_layer(&p, &a);
	assert_near(a.total, 890241024.0, 1e-12);
	sets[n - 1] = "recipe=megatron";
	load_plan(&p, sets, n);
	calc_memory_act_layer(&p, &a);
	assert_near(a.total, 1066401792.0, 1e-12);
	/* recomputing the MLP drops its inner tensors, the FP8 fc2 input with them */
	sets[n - 1] = "recipe=fp8-params";
	load_plan(&p, sets, n);
	const char *rcm[] = {"recompute=modules", "recompute_modules=mlp"};
	assert_int_equal(calc_plan_set_many(&p, rcm, 2, "test", &d), 0);
	calc_memory_act_layer(&p, &a);
	assert_near(a.mlp, 67108864.0 + 33554432, 1e-12);
	/* an MoE layer's experts save their fc1 and fc2 inputs in FP8 too: Mixtral 8x7B (h
	 * 4,096, top-2 of 8 experts of width 14,336), s 4,096, t 1, no SP: each of the
	 * sb = 4,096 tokens sends 2 copies, and BF16 to FP8 saves per copy h + f_e bytes,
	 * plus the QKV input's sbh: 4096 x 4096 + 2 x 4096 x (4096 + 14336) = 167,772,160 */
	const char *moe[] = {"model.preset=mixtral-8x7b", "tp=1", "sp=no", "pp=4", "dp=0", "ep=1", "seq_len=4096",
	                     "recompute=none", "flash_attention=yes", "recipe=megatron"};
	double bf16;
	load_plan(&p, moe, 10);
	calc_memory_act_layer(&p, &a);
	bf16 = a.total;
	moe[9] = "recipe=fp8-params";
	load_plan(&p, moe, 10);
	calc_memory_act_layer(&p, &a);
	assert_near(bf16 - a.total, 167772160.0, 1e-12);
	calc_diag_free(&d);
	free(m);
}

/* The block-scaled recipes (docs/references.md §2.11): an MXFP8 element carries 1/32 of an
 * E8M0 scale byte (OCP MX v1.0: blocks of 32), an NVFP4 element is half a byte plus 1/16 of
 * an E4M3 scale byte (NVFP4 report: blocks of 16).  Weights are held row- and column-wise
 * (two quantizations), with FP32 main gradients, master weights and Adam: 2 x 1.03125 + 16 =
 * 18.0625 B and 2 x 0.5625 + 16 = 17.125 B per parameter.  The saved linear inputs of the
 * 405B layer of test_te_fp8_saved_inputs take 1.03125 and 0.5625 B per element. */
static void test_block_scaled_recipes(void **state)
{
	const char *sets[] = {"model.preset=llama3.1-405b", "model.layers=128", "cluster.preset=gb200-nvl72",
	                      "cluster.gpus_per_node=64", "cluster.nodes=4", "tp=4", "pp=16", "cp=1", "dp=0",
	                      "vpp=4", "schedule=interleaved", "recompute=none", "sp=yes", "zero=1",
	                      "seq_len=8192", "global_batch=1536", "micro_batch=1", "flash_attention=yes",
	                      "recipe=mxfp8"};
	const int n = sizeof sets / sizeof sets[0];
	const double sbh = 33554432.0, sbf = 109051904.0; /* s b h / t and s b f / t */
	const double fixed_attn = 2 * sbh + 75497472.0 + 67108864.0, fixed_mlp = 2 * sbh + 4 * sbf;
	struct calc_plan p;
	struct calc_act_layer a;
	(void)state;
	assert_near(calc_recipe_total(calc_recipe_find("mxfp8")), 18.0625, 1e-12);
	assert_near(calc_recipe_total(calc_recipe_find("nvfp4")), 17.125, 1e-12);
	assert_near(calc_recipe_bytes(calc_recipe_find("nvfp4"), CALC_T_WEIGHT), 1.125, 1e-12);
	load_plan(&p, sets, n);
	calc_memory_act_layer(&p, &a);
	assert_near(a.attn, fixed_attn + 1.03125 * sbh, 1e-12);
	assert_near(a.mlp, fixed_mlp + 1.03125 * (sbh + sbf), 1e-12);
	sets[n - 1] = "recipe=nvfp4";
	load_plan(&p, sets, n);
	calc_memory_act_layer(&p, &a);
	assert_near(a.attn, fixed_attn + 0.5625 * sbh, 1e-12);
	assert_near(a.mlp, fixed_mlp + 0.5625 * (sbh + sbf), 1e-12);
}

/* FSDP buffers worked by hand on the default model (dense-100b: h = 10240, 80 layers, V
 * = 51,200, tied embeddings, no biases) at tp 8, Megatron recipe (2 + 4 + 4 + 8 bytes).
 * One layer on a TP rank is 12 h^2 / 8 + 4 h = 157,327,360 parameters (the norms are
 * replicated), larger than the embedding V h / 8 = 65,536,000, so it is the unit.  A
 * one-stage GPU holds 80 layers + the embedding + the final norm 2h = 12,651,745,280
 * parameters, sharded by ZeRO-3 over dp.  With one unit prefetched two units are gathered
 * at once (2 B each) and two units' gradients are unsharded (4 B each); without
 * reshard_after_forward all gathered weights stay, with no_sync all unsharded gradients. */
static void test_fsdp_buffers(void **state)
{
	const double layer = 157327360.0, emb = 65536000.0, all = 80 * layer + emb + 20480;
	struct {
		const char *set; /* one more key */
		double gw, gg;   /* gathered weights, unsharded gradients [B] */
	} cases[] = {
		{"parallel.fsdp_prefetch=1", 2 * layer * 2, 2 * layer * 4},
		{"parallel.fsdp_prefetch=0", layer * 2, layer * 4},
		{"parallel.fsdp_prefetch=3", 4 * layer * 2, 4 * layer * 4},
		{"parallel.reshard_after_forward=no", all * 2, 2 * layer * 4},
		{"parallel.no_sync=yes", 2 * layer * 2, all * 4},
		{"efficiency.grad_reduce=bf16", 2 * layer * 2, 2 * layer * 2},
	};
	struct calc_memory *m = malloc(sizeof *m);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *sets[] = {"tp=8", "pp=1", "dp=0", "recipe=megatron", "fsdp=yes", cases[i].set};
		struct calc_plan p;
		struct calc_diag d = {0};
		double shard;
		load_plan(&p, sets, 6);
		shard = p.dp * p.cp;
		assert_true(shard > 1);
		assert_int_equal(calc_memory(&p, m, &d), 0);
		assert_near(m->st[0].params, all, 1e-12);
		assert_near(m->st[0].weights, all * 2 / shard, 1e-12);
		assert_near(m->st[0].weight_copies, cases[i].gw, 1e-12);
		assert_near(m->st[0].gradients, all * 4 / shard + cases[i].gg, 1e-12);
		assert_near(m->st[0].fsdp_buffers, cases[i].gw + cases[i].gg, 1e-12);
	}
	free(m);
}

/* DeepSpeed ZeRO-3's live-parameter cap (parallel.fsdp_live_params, stage3_max_live_parameters
 * in deepspeed/runtime/zero/config.py) on the model of test_fsdp_buffers (dense-100b, h =
 * 10,240, MHA, GeLU MLP of f = 4 h = 40,960, tp 8, Megatron recipe: gathered weights 2 B,
 * unsharded gradients 4 B).  By hand: the largest linear of a layer on a TP rank is fc1, h f
 * / 8 = 10,240 x 40,960 / 8 = 52,428,800 parameters (the fused QKV, 3 h^2 / 8 = 39,321,600,
 * is smaller); two whole layers are 2 x 157,327,360 = 314,654,720.  A cap of 1e8 holds
 * 1e8 parameters gathered; a cap of 1e7 is raised to fc1; a cap of 1e9 is above the two
 * layers and changes nothing. */
static void test_fsdp_live_params(void **state)
{
	const double layer = 157327360.0, fc1 = 52428800.0;
	struct {
		const char *set; /* the cap */
		double fly;      /* parameters gathered at once */
	} cases[] = {
		{"parallel.fsdp_live_params=1e8", 1e8},
		{"parallel.fsdp_live_params=1e7", fc1},
		{"parallel.fsdp_live_params=1e9", 2 * layer},
		{"parallel.fsdp_live_params=0", 2 * layer},
	};
	struct calc_memory *m = malloc(sizeof *m);
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *sets[] = {"tp=8", "pp=1", "dp=0", "recipe=megatron", "fsdp=yes", cases[i].set};
		struct calc_plan p;
		struct calc_diag d = {0};
		load_plan(&p, sets, 6);
		assert_int_equal(calc_memory(&p, m, &d), 0);
		assert_near(m->st[0].weight_copies, cases[i].fly * 2, 1e-12);
		assert_near(m->st[0].fsdp_buffers, cases[i].fly * (2 + 4), 1e-12);
	}
	free(m);
}

/* FSDP with PP keeps a stage's parameters gathered and its gradients unsharded over the
 * step (torchtitan): at pp 2 the first stage holds 40 layers + the embedding, the last
 * 40 layers + the final norm + its copy of the tied matrix; HSDP shards the states over
 * one shard group of 4 ranks only. */
static void test_fsdp_pp_hsdp(void **state)
{
	const double layer = 157327360.0, emb = 65536000.0, s0 = 40 * layer + emb, s1 = 40 * layer + 20480 + emb;
	const char *sets[] = {"tp=8", "pp=2", "dp=0", "recipe=megatron", "fsdp=yes", "parallel.hsdp=4"};
	struct calc_plan p;
	struct calc_diag d = {0};
	struct calc_memory *m = malloc(sizeof *m);
	load_plan(&p, sets, 6);
	assert_true(p.dp * p.cp > 4);
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_near(m->st[0].weights, s0 * 2 / 4, 1e-12);
	assert_near(m->st[0].weight_copies, s0 * 2, 1e-12);
	assert_near(m->st[0].gradients, s0 * 4 / 4 + s0 * 4, 1e-12);
	assert_near(m->st[1].weight_copies, s1 * 2, 1e-12);
	assert_near(m->st[1].master, s1 * 4 / 4, 1e-12);
	free(m);
}

/* parallel.fsdp_fp8_gather on the plan of test_fsdp_pp_hsdp without HSDP (dense-100b, TP 8,
 * PP 2) under torchao's Float8 linears (recipe torch-mp-fp8: FSDP2 gathers BF16 weights,
 * act_bytes 2, and its unsharded FP32 gradients follow efficiency.grad_reduce, megatron's
 * default of the recipe's gradients: torch-mp's 4 B).  With PP a stage keeps its layers
 * gathered: stage 0 holds 40 layers of 157,327,360 parameters and the embedding
 * (65,536,000), stage 1 40 layers, the final norm (2h = 20,480) and the tied head
 * (65,536,000).  FP8 gathers put the layers at 1 byte and leave the embedding, the norm and
 * the head at 2: stage 0 40 x 157,327,360 + 2 x 65,536,000 = 6,424,166,400 B against 2 x
 * (40 x 157,327,360 + 65,536,000) = 12,717,260,800 B; stage 1 6,293,094,400 + 2 x
 * 65,556,480.  The unsharded gradients do not move.  Without PP (reshard after forward,
 * one unit prefetched) two layers are gathered at once: 2 x 157,327,360 B. */
static void test_fsdp_fp8_gather(void **state)
{
	const double layer = 157327360.0, emb = 65536000.0;
	struct calc_memory *m = malloc(sizeof *m), *m0 = malloc(sizeof *m0);
	for (int pp = 2; pp >= 1; pp--) {
		const char *sets[] = {"tp=8", pp == 2 ? "pp=2" : "pp=1", "dp=0", "recipe=torch-mp-fp8", "fsdp=yes",
		                      "parallel.fsdp_fp8_gather=yes"};
		struct calc_plan p;
		struct calc_diag d = {0};
		load_plan(&p, sets, 5);
		assert_int_equal(calc_memory(&p, m0, &d), 0);
		load_plan(&p, sets, 6);
		assert_int_equal(p.fsdp_fp8_gather, 1);
		assert_int_equal(calc_memory(&p, m, &d), 0);
		if (pp == 2) {
			assert_near(m0->st[0].weight_copies, 2 * (40 * layer + emb), 1e-12);
			assert_near(m->st[0].weight_copies, 40 * layer + 2 * emb, 1e-12);
			assert_near(m->st[1].weight_copies, 40 * layer + 2 * (20480 + emb), 1e-12);
		} else
			assert_near(m->st[0].weight_copies, 2 * layer, 1e-12);
		assert_near(m->st[0].gradients, m0->st[0].gradients, 1e-12);
	}
	free(m);
	free(m0);
}

/* NeMo's performance summary (NeMo 25.02, DGX-H100) ran GPT-3 175B on 512 H100 80 GB
 * with TP 4, PP 8, VP 6, micro-batch 2, sequence 2,048 and the distributed optimizer.
 * The first stage holds 12 layers of 12 h^2 / 4 + 4 h (norms) + 3.75 h (biases: QKV's 3h
 * and fc1's 4h split over TP, the output projection's and fc2's h replicated), the
 * embedding V h / 4 and the learned positions s h (h = 12288): 5,619,412,992 parameters.  NeMo's distributed Adam keeps the
 * gradients in BF16: 2 + 2 bytes whole and 12 over dp = 16, 4.75 B per parameter =
 * 26.7 GB, against 6.75 B = 37.9 GB with Megatron's FP32 main gradients; the 11 GB
 * decide whether the run fits. */
static void test_nemo_gpt3_h100(void **state)
{
	const char *base[] = {"model.preset=gpt3-175b", "cluster.preset=dgx-h100-ndr", "nodes=64", "tp=4", "pp=8",
	                      "dp=0", "vpp=6", "schedule=interleaved", "micro_batch=2", "global_batch=2048",
	                      "seq_len=2048", "zero=1", "sp=yes", "flash_attention=yes", "recompute=none", NULL};
	const double h = 12288, n0 = 12 * (12 * h * h / 4 + 4 * h + 3.75 * h) + 51200 * h / 4 + 2048 * h;
	struct calc_memory *m = malloc(sizeof *m);
	const char *sets[17];
	int n = 0;
	for (; base[n]; n++)
		sets[n] = base[n];
	for (int nemo = 0; nemo <= 1; nemo++) {
		struct calc_plan p;
		struct calc_diag d = {0};
		sets[n] = nemo ? "efficiency.stack=nemo" : "efficiency.stack=megatron-core";
		load_plan(&p, sets, n + 1);
		assert_int_equal(p.dp, 16);
		assert_int_equal(calc_memory(&p, m, &d), 0);
		assert_near(m->st[0].params, n0, 1e-12);
		assert_near(m->st[0].states, n0 * (nemo ? 2 + 2 + 12.0 / 16 : 2 + 4 + 12.0 / 16), 1e-12);
		assert_int_equal(m->fits, nemo);
	}
	free(m);
}

/* training.main_grads retypes a recipe's gradients and nothing else: fp8-te (2 + 1 + 4 +
 * 4 + 8 = 19 B, Transformer Engine's FP8 copy and Megatron's FP32 main gradients) with
 * BF16 gradients is 2 + 1 + 2 + 4 + 8 = 17 B; zero-paper's 16-bit gradients are already
 * 2 B, so bf16 leaves the preset itself; fp32 makes them 4 B (18 B, megatron's bytes). */
static void test_main_grads_recipe(void **state)
{
	const struct calc_recipe *te = calc_recipe_find("fp8-te"), *zp = calc_recipe_find("zero-paper");
	const struct calc_recipe *te16 = calc_recipe_grads(te, 1), *zp32 = calc_recipe_grads(zp, 2);
	assert_ptr_not_equal(te16, te);
	assert_string_equal(te16->name, "fp8-te");
	assert_near(calc_recipe_bytes(te16, CALC_T_GRAD), 2, 0);
	assert_near(calc_recipe_total(te16), 17, 0);
	assert_near(calc_recipe_bytes(te16, CALC_T_WCOPY), 1, 0);
	assert_int_equal(te16->fp8_compute, 1);
	assert_ptr_equal(calc_recipe_grads(te, 0), te);
	assert_ptr_equal(calc_recipe_grads(te16, 0), te);  /* back to the preset */
	assert_ptr_equal(calc_recipe_grads(te16, 1), te16);
	assert_ptr_equal(calc_recipe_grads(zp, 1), zp);
	assert_near(calc_recipe_total(zp32), 18, 0);
	assert_ptr_equal(calc_recipe_grads(calc_recipe_find("seed"), 1), calc_recipe_find("seed"));
}

/* Every recipe of the table is found by its own name and is its own base under
 * calc_recipe_grads (the names are unique: calc_recipe_grads takes a recipe of the table
 * as its base without looking its name up), and only "muon" runs Newton-Schulz
 * iterations, 5 of them (Jordan et al. 2024; Liu et al. 2025, Algorithm 1), its
 * retyped copies too (calc_recipe_ns_iters reads the first bytes before the name). */
static void test_recipe_table_names(void **state)
{
	int n = 0, muon = 0;
	for (const struct calc_recipe *r; (r = calc_recipe_at(n)); n++) {
		assert_ptr_equal(calc_recipe_find(r->name), r);
		assert_ptr_equal(calc_recipe_grads(r, 0), r);
		int want = strcmp(r->name, "muon") ? 0 : 5;
		muon += want == 5;
		assert_int_equal(calc_recipe_ns_iters(r), want);
		for (int g = 1; g <= 2; g++)
			assert_int_equal(calc_recipe_ns_iters(calc_recipe_grads(r, g)), want);
	}
	assert_true(n > 1);
	assert_int_equal(muon, 1);
	assert_int_equal(calc_recipe_ns_iters(NULL), 0);
}

/* The NeMo GPT-3 175B plan of test_nemo_gpt3_h100 with the FP8 recipe of NeMo 24.07's
 * rows (training.recipe = fp8-te): the nemo stack's training.main_grads = bf16 keeps its
 * BF16 gradients under the FP8 recipe, so the first stage holds 2 + 1 (the FP8 copy) + 2
 * bytes whole and 12 over dp = 16: 5.75 B per parameter, against 7.75 B with Megatron-Core's
 * FP32 main gradients. */
static void test_nemo_fp8_grads(void **state)
{
	const double h = 12288, n0 = 12 * (12 * h * h / 4 + 4 * h + 3.75 * h) + 51200 * h / 4 + 2048 * h;
	struct calc_memory *m = malloc(sizeof *m);
	for (int nemo = 0; nemo <= 1; nemo++) {
		const char *sets[] = {"model.preset=gpt3-175b", "cluster.preset=dgx-h100-ndr", "nodes=64", "tp=4", "pp=8",
		                      "dp=0", "vpp=6", "schedule=interleaved", "micro_batch=2", "global_batch=2048",
		                      "seq_len=2048", "zero=1", "sp=yes", "flash_attention=yes", "recompute=none",
		                      "training.recipe=fp8-te",
		                      nemo ? "efficiency.stack=nemo" : "efficiency.stack=megatron-core"};
		struct calc_plan p;
		struct calc_diag d = {0};
		load_plan(&p, sets, 17);
		assert_int_equal(calc_memory(&p, m, &d), 0);
		assert_near(m->st[0].states, n0 * (nemo ? 2 + 1 + 2 + 12.0 / 16 : 2 + 1 + 4 + 12.0 / 16), 1e-12);
		assert_string_equal(p.recipe_name, "fp8-te");
	}
	free(m);
}

/* llm-foundry's MPT-30B on 8 A100 80 GB (FSDP FULL_SHARD, amp_bf16; the validation row)
 * with the fsdp1 stack's torch-mp states: PyTorch FSDP with MixedPrecision keeps the FP32
 * sharded parameters (the optimizer's own), FP32 sharded gradients and Adam's two FP32
 * moments, 16 B per parameter over 8 ranks, and no BF16 copy (Zhao et al. 2023 §4.2).
 * N = 29,975,214,080 (llm-foundry's NumParams, tests/calc/model.c); the largest unit is a
 * layer, 12 h^2 + 9h (biases) + 4h (two LayerNorms) = 616,655,872 at h = 7,168; two units
 * in flight (the computing one and the prefetched one) gathered in BF16 and their BF16
 * unsharded gradients (efficiency.grad_reduce = bf16): 2 x 616,655,872 x 2 B each. */
static void test_fsdp1_mpt30b_states(void **state)
{
	const char *sets[] = {"model.preset=mpt-30b", "cluster.preset=dgx-a100-hdr", "nodes=1", "tp=1", "pp=1",
	                      "dp=8", "seq_len=2048", "global_batch=504", "micro_batch=3", "flash_attention=yes",
	                      "recompute=full", "efficiency.stack=fsdp1"};
	const double N = 29975214080.0, layer = 12 * 7168.0 * 7168 + 13 * 7168.0, fly = 2 * layer * 2;
	struct calc_plan p;
	struct calc_diag d = {0};
	struct calc_memory *m = malloc(sizeof *m);
	load_plan(&p, sets, 12);
	assert_string_equal(p.recipe_name, "torch-mp");
	assert_int_equal(calc_memory(&p, m, &d), 0);
	assert_near(m->st[0].weights, 0, 0);
	assert_near(m->st[0].master, N * 4 / 8, 1e-12);
	assert_near(m->st[0].optimizer, N * 8 / 8, 1e-12);
	assert_near(m->st[0].weight_copies, fly, 1e-12);
	assert_near(m->st[0].gradients, N * 4 / 8 + fly, 1e-12);
	assert_near(m->st[0].states, N * 16 / 8 + 2 * fly, 1e-12);
	/* torchtitan's Float8 (torchao Float8Linear under FSDP2; torchtitan docs/float8.md)
	 * keeps the weights in high precision and casts them to float8 per GEMM: the same
	 * 16 B of states, with the GEMMs at the FP8 peak. */
	{
		const struct calc_recipe *r = calc_recipe_find("torch-mp-fp8");
		assert_non_null(r);
		assert_int_equal(r->fp8_compute, 1);
		assert_near(calc_recipe_total(r), 16, 0);
		assert_near(calc_recipe_bytes_sharded(r, CALC_T_MASTER, 1, 8), 4, 0);
		assert_near(calc_recipe_bytes_sharded(r, CALC_T_MASTER, 3, 8), 0.5, 0);
	}
	/* The same states without FSDP, under ZeRO-1 (DDP with Adam's moments sharded): the
	 * FP32 parameters and gradients whole on every rank, 4 + 4 + 8 / 8 = 9 B per
	 * parameter. */
	{
		const char *ddp[] = {"model.preset=mpt-30b", "cluster.preset=dgx-a100-hdr", "nodes=1", "tp=1", "pp=1",
		                     "dp=8", "seq_len=2048", "global_batch=504", "micro_batch=3", "flash_attention=yes",
		                     "recompute=full", "training.recipe=torch-mp", "parallel.zero=1"};
		load_plan(&p, ddp, 13);
		assert_int_equal(calc_memory(&p, m, &d), 0);
		assert_near(m->st[0].master, N * 4, 1e-12);
		assert_near(m->st[0].gradients, N * 4, 1e-12);
		assert_near(m->st[0].optimizer, N * 8 / 8, 1e-12);
	}
	free(m);
}

/* Catalog value 'name' of the plan 'file' (NULL: the default) with overrides 'sets'. */
static double quantity(const char *file, const char *const *sets, int n, const char *name)
{
	struct calc_plan *p = malloc(sizeof *p);
	struct calc_diag d = {0};
	struct calc_ctx c;
	struct calc_value v;
	assert_non_null(p);
	if (calc_plan_load(p, file, sets, n, &d) != 0)
		print_error("%s", d.text ? d.text : "");
	assert_null(d.text);
	calc_ctx_init(&c, p);
	if (calc_catalog_get(&c, name, &v, &d) != 0)
		print_error("%s: %s", name, d.text ? d.text : "");
	assert_null(d.text);
	calc_ctx_free(&c);
	free(p);
	return v.num;
}

/* Chapter 02's bytes per parameter of the textbook baseline (seed recipe, ZeRO-0): BF16
 * weights are 2 bytes and FP32 Adam momentum and variance 4 + 4, whatever the schedule.
 * DualPipe keeps two copies of the parameters (DeepSeek-V3 §3.2.1), so
 * memory.params_per_gpu counts each parameter twice while memory.weights holds one copy:
 * the bytes per parameter divide by memory.params_per_copy, which under DualPipe is half
 * of memory.params_per_gpu and, as a second method, what one GPU of the same split
 * holds under 1F1B. */
static void test_bytes_per_param_copies(void **state)
{
	static const char *const f1b[] = {"training.recipe=seed", "parallel.zero=0"};
	static const char *const dual[] = {"training.recipe=seed", "parallel.zero=0", "parallel.schedule=dualpipe"};
	static const char *const ds[] = {"training.recipe=seed", "parallel.zero=0"};
	const char *ds_file = "plans/deepseek-v3-h800.ini";
	(void)state;

	/* 1F1B: one copy, the two counts agree */
	double one = quantity(NULL, f1b, 2, "memory.params_per_copy");
	assert_true(one > 0);
	assert_true(quantity(NULL, f1b, 2, "memory.params_per_gpu") == one);
	assert_near(quantity(NULL, f1b, 2, "memory.weights") / one, 2, 1e-12);
	assert_near(quantity(NULL, f1b, 2, "memory.optimizer") / one, 8, 1e-12);

	/* DualPipe on the default plan (pp = 8, m = 192: even, >= 2p); its worst stage may
	 * be another than 1F1B's, so the same stage of the 1F1B plan is compared */
	double copy = quantity(NULL, dual, 3, "memory.params_per_copy");
	int worst = (int)quantity(NULL, dual, 3, "memory.worst_stage");
	struct calc_plan *p = malloc(sizeof *p);
	struct calc_memory *m = malloc(sizeof *m);
	struct calc_diag d = {0};
	assert_true(p && m);
	assert_int_equal(calc_plan_load(p, NULL, f1b, 2, &d), 0);
	assert_int_equal(calc_memory(p, m, &d), 0);
	assert_true(worst >= 0 && worst < m->nstages);
	assert_true(copy == m->st[worst].params);
	free(m);
	free(p);
	assert_true(quantity(NULL, dual, 3, "memory.params_per_gpu") == 2 * copy);
	assert_near(quantity(NULL, dual, 3, "memory.weights") / copy, 2, 1e-12);
	assert_near(quantity(NULL, dual, 3, "memory.optimizer") / copy, 8, 1e-12);

	/* the DeepSeek-V3 plan runs DualPipe with routed experts */
	copy = quantity(ds_file, ds, 2, "memory.params_per_copy");
	assert_true(quantity(ds_file, ds, 2, "memory.params_per_gpu") == 2 * copy);
	assert_near(quantity(ds_file, ds, 2, "memory.weights") / copy, 2, 1e-12);
	assert_near(quantity(ds_file, ds, 2, "memory.optimizer") / copy, 8, 1e-12);
}

/* A Mamba-2 layer's activations under CP (MambaContextParallel, docs/references.md §4.11,
 * §5.14): every term is s / cp tokens' worth a rank, so at tp 1 (8 groups, cp 2) the
 * layer stores exactly half of cp 1's; at tp 8 the one group of a TP rank is repeated to
 * the 2 CP ranks, so B and C, 2 N per token at cp 1, are 2 N x 2 of the s / 2 tokens: half
 * of cp 1's plus e (s / 2) b 2 N (2 - 1) = 2 x 4096 x 256 = 2,097,152 B (Nemotron-H 8B,
 * N = 128, seq 8,192, micro-batch 1, BF16). */
static void test_mamba_cp_act(void **state)
{
	const char *a1[] = {"model.preset=nemotron-h-8b", "training.seq_len=8192", "cluster.nodes=32",
	                    "parallel.tp=1", "parallel.pp=1", "parallel.cp=1", "training.micro_batch=1"};
	const char *a2[] = {"model.preset=nemotron-h-8b", "training.seq_len=8192", "cluster.nodes=32",
	                    "parallel.tp=1", "parallel.pp=1", "parallel.cp=2", "training.micro_batch=1"};
	const char *b1[] = {"model.preset=nemotron-h-8b", "training.seq_len=8192", "cluster.nodes=32",
	                    "parallel.tp=8", "parallel.pp=1", "parallel.cp=1", "training.micro_batch=1"};
	const char *b2[] = {"model.preset=nemotron-h-8b", "training.seq_len=8192", "cluster.nodes=32",
	                    "parallel.tp=8", "parallel.pp=1", "parallel.cp=2", "training.micro_batch=1"};
	struct calc_plan p;
	struct calc_act_layer x1, x2;
	int k = -1;
	(void)state;
	load_plan(&p, a1, 7);
	for (int i = 0; i < calc_model_nkinds(&p.model); i++) {
		struct calc_layer_kind kd;
		calc_model_kind(&p.model, i, &kd);
		if (kd.type == CALC_LAYER_MAMBA)
			k = i;
	}
	assert_true(k >= 0);
	calc_memory_act_kind(&p, k, CALC_RC_NONE, &x1);
	load_plan(&p, a2, 7);
	calc_memory_act_kind(&p, k, CALC_RC_NONE, &x2);
	assert_near(x2.total, x1.total / 2, 1e-12);
	load_plan(&p, b1, 7);
	calc_memory_act_kind(&p, k, CALC_RC_NONE, &x1);
	load_plan(&p, b2, 7);
	calc_memory_act_kind(&p, k, CALC_RC_NONE, &x2);
	assert_near(x2.total, x1.total / 2 + 2097152.0, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_figure1),
		cmocka_unit_test(test_zero_end_to_end),
		cmocka_unit_test(test_megatron_recipe),
		cmocka_unit_test(test_bf16_moments_recipe),
		cmocka_unit_test(test_seed_min_gpus),
		cmocka_unit_test(test_kor22_table2),
		cmocka_unit_test(test_gqa_swiglu),
		cmocka_unit_test(test_megatron_activation_formula),
		cmocka_unit_test(test_inflight),
		cmocka_unit_test(test_stage_params),
		cmocka_unit_test(test_moe_expert_parallel),
		cmocka_unit_test(test_moe_imbalance), cmocka_unit_test(test_moe_router_permute_memory),
		cmocka_unit_test(test_recompute_modules),
		cmocka_unit_test(test_recompute_deepseek_v3),
		cmocka_unit_test(test_fsdp_buffers),
		cmocka_unit_test(test_fsdp_fp8_gather),
		cmocka_unit_test(test_fsdp_live_params),
		cmocka_unit_test(test_fsdp_pp_hsdp),
		cmocka_unit_test(test_op_sac),
		cmocka_unit_test(test_op_sac_compile),
		cmocka_unit_test(test_cross_entropy),
		cmocka_unit_test(test_sp_saved_input),
		cmocka_unit_test(test_pp_runtime_torch),
		cmocka_unit_test(test_pp_runtime_torch_interleaved),
		cmocka_unit_test(test_grad_buffer_per_chunk),
		cmocka_unit_test(test_te_fp8_saved_inputs),
		cmocka_unit_test(test_block_scaled_recipes),
		cmocka_unit_test(test_fp8_params_recipe),
		cmocka_unit_test(test_recompute_method),
		cmocka_unit_test(test_deepspeed_checkpoints),
		cmocka_unit_test(test_offload_activations),
		cmocka_unit_test(test_offload_optimizer),
		cmocka_unit_test(test_offload_modules),
		cmocka_unit_test(test_nvme_offload_memory),
		cmocka_unit_test(test_param_offload_memory),
		cmocka_unit_test(test_zero_offload_memory),
		cmocka_unit_test(test_nemo_gpt3_h100),
		cmocka_unit_test(test_main_grads_recipe),
		cmocka_unit_test(test_recipe_table_names),
		cmocka_unit_test(test_nemo_fp8_grads),
		cmocka_unit_test(test_fsdp1_mpt30b_states),
		cmocka_unit_test(test_bytes_per_param_copies),
		cmocka_unit_test(test_mamba_cp_act),
	};
	return cmocka_run_group_tests_name("memory", tests, NULL, NULL);
}
