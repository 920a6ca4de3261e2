/*
 * tests/calc/model.c -- parameter counts against published figures; the layer split
 * rules; a model of two layer kinds with its per-stage figures worked out by hand.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "search.h"
#include "step.h"

/* Narayanan et al. 2021 Table 1: every row's parameter count (billions, one
 * decimal) must come out of the presets.  The expected value of each row is also
 * recomputed here with Eq. (2), P = 12lh^2 (1 + 13/(12h) + (V + s)/(12lh)), and the
 * library may differ from Eq. (2) only by the final LayerNorm (2h) it adds. */
static void test_nar21_table1(void **state)
{
	static const struct {
		const char *preset;
		double billions; /* Table 1, "Number of parameters (billion)" */
		int l, h;
	} rows[] = {
		{"nar21-1.7b", 1.7, 24, 2304},      {"nar21-3.6b", 3.6, 30, 3072},
		{"nar21-7.5b", 7.5, 36, 4096},      {"nar21-18.4b", 18.4, 40, 6144},
		{"nar21-39.1b", 39.1, 48, 8192},    {"nar21-76.1b", 76.1, 60, 10240},
		{"nar21-145.6b", 145.6, 80, 12288}, {"nar21-310.1b", 310.1, 96, 16384},
		{"nar21-529.6b", 529.6, 105, 20480}, {"nar21-1t", 1008.0, 128, 25600},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct calc_model *m = calc_preset_model(rows[i].preset);
		struct calc_params p;
		double l = rows[i].l, h = rows[i].h, V = 51200, s = 2048;
		double eq2 = 12 * l * h * h * (1 + 13 / (12 * h) + (V + s) / (12 * l * h));
		assert_non_null(m);
		calc_model_params(m, &p);
		assert_near(p.total, eq2 + 2 * h, 1e-12);
		assert_near(round(p.total / 1e8) / 10, rows[i].billions, 1e-9);
	}
}

/* GQA + SwiGLU + untied embeddings against the published totals of the released
 * checkpoints (sum of tensor sizes in the Hugging Face safetensors index):
 * Llama-2-70B 68,976,648,192; Llama-3-8B 8,030,261,248.  Hand check for Llama-2-70B:
 * per layer Q,O 2*8192*8192 + K,V 2*8192*1024 + MLP 3*8192*28672 + norms 2*8192
 * = 855,654,400; x80 + 2*32000*8192 + 8192 = 68,976,648,192. */
static void test_llama_totals(void **state)
{
	struct calc_params p;
	calc_model_params(calc_preset_model("llama2-70b"), &p);
	assert_near(p.layer, 855654400.0, 0);
	assert_near(p.total, 68976648192.0, 0);
	calc_model_params(calc_preset_model("llama3-8b"), &p);
	assert_near(p.total, 8030261248.0, 0);
}

/* Llama 3.2 1B (huggingface.co/meta-llama/Llama-3.2-1B config.json: L 16, h 2048, 32 heads
 * of 64, 8 KV heads, FFN 8192, V 128,256, tied embeddings).  By hand: per layer Q,O
 * 2*2048*2048 + K,V 2*2048*512 + MLP 3*2048*8192 + norms 2*2048 = 60,821,504; x16 +
 * one embedding 128,256*2048 (the head shares it) + the final norm 2048
 * = 1,235,814,400.  The model card gives 1.23 B ("1B (1.23B)", shared embeddings);
 * untied, it would count V h = 262,668,288 more. */
static void test_llama32_1b(void **state)
{
	struct calc_params p;
	const struct calc_model *m = calc_preset_model("llama3.2-1b");
	assert_non_null(m);
	assert_int_equal(m->tied_embeddings, 1);
	calc_model_params(m, &p);
	assert_near(p.layer, 60821504.0, 0);
	assert_near(p.total, 1235814400.0, 0);
	assert_true(p.total >= 1.23e9 && p.total < 1.24e9);
}

/* MPT as llm-foundry benchmarks it, against the NumParams column of its throughput tables
 * (scripts/train/benchmarking/README.md of mosaicml/llm-foundry, commit 495218376, rows at
 * sequence 2,048): mpt-7b 6,658,859,008, mpt-13b 12,853,954,560, mpt-30b 29,975,214,080,
 * mpt-70b 64,862,437,376.  Hand check for mpt-70b (h = 8192, L = 80, V = 50,368): per layer
 * 12 h^2 of weights + 9h of biases + two LayerNorms 4h = 805,412,864; x80 + V h (tied) +
 * 2048 h of learned positions + the final LayerNorm 2h = 64,862,437,376.  The same column
 * grows by 1024 h per 1024 tokens of sequence (the 1,024-token mpt-7b row: 6,654,664,704),
 * which is the learned position table. */
static void test_mpt_totals(void **state)
{
	const struct {
		const char *name;
		double total;
	} t[] = {{"mpt-7b", 6658859008.0}, {"mpt-13b", 12853954560.0}, {"mpt-30b", 29975214080.0},
	         {"mpt-70b", 64862437376.0}};
	struct calc_params p;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		assert_non_null(calc_preset_model(t[i].name));
		calc_model_params(calc_preset_model(t[i].name), &p);
		assert_near(p.total, t[i].total, 0);
	}
	calc_model_params(calc_preset_model("mpt-70b"), &p);
	assert_near(p.layer, 805412864.0, 0);
}

/* The same per-layer count by Megatron-LM's own formula (theoretical_memory_usage.py):
 * self_attn = 2h^2 (1 + g/a) (d a / h); layer = 2h (f * 3/2 + 1) + self_attn (RMSNorm). */
static void test_megatron_formula(void **state)
{
	const char *names[] = {"llama2-7b", "llama2-13b", "llama2-70b", "llama3-8b", "llama3-70b", "llama3.1-405b"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const struct calc_model *m = calc_preset_model(names[i]);
		struct calc_params p;
		double h = m->hidden, a = m->heads, g = m->kv_heads, d = h / a, f = m->ffn_hidden;
		double attn = 2 * h * h * (1 + g / a) * (d * a / h);
		double layer = 2 * h * (f * 1.5 + 1) + attn;
		calc_model_params(m, &p);
		assert_near(p.layer, layer, 1e-12);
		assert_near(p.total, m->layers * layer + h + 2 * h * m->vocab, 1e-12);
	}
}

/* dense-100b: docs/references.md §7.4: 12 L h^2 = 100.66e9, V h = 0.52e9, ~101.19e9 total. */
static void test_dense_100b(void **state)
{
	struct calc_params p;
	calc_model_params(calc_preset_model("dense-100b"), &p);
	assert_near(80 * (p.attn + p.mlp), 12.0 * 80 * 10240 * 10240, 1e-12);
	assert_near(p.total / 1e9, 101.19, 1e-4);
}

/* The split rules, by hand.  remainder-first: 80 = 26 x 3 + 2, so 27, 27, 26; even:
 * 80 / 8 = 10, and 3 stages do not divide 80; llama3: Llama 3 405B's 126 layers on 16
 * stages are 7, 8 x 14, 7 (Dubey et al. 2024 §3.3.2), 80 on 8 are 82 = 10 x 8 + 2 slots
 * with the two extra on stages 1 and 2: 9, 11, 11, 10, 10, 10, 10, 9; 80 on 64 stages
 * would leave 82 / 64 - 1 = 0 on the ends; 7 on 2 stages has no middle: 4, 3. */
static void test_layers_split(void **state)
{
	int o[CALC_MAX_STAGES], e16[16], e8[] = {9, 11, 11, 10, 10, 10, 10, 9};
	struct calc_diag d = {0};

	assert_int_equal(calc_layers_split(80, 3, CALC_SPLIT_REMAINDER_FIRST, o, NULL), 0);
	assert_int_equal(o[0], 27);
	assert_int_equal(o[1], 27);
	assert_int_equal(o[2], 26);
	assert_int_equal(calc_layers_split(80, 8, CALC_SPLIT_EVEN, o, NULL), 0);
	for (int i = 0; i < 8; i++)
		assert_int_equal(o[i], 10);
	assert_int_equal(calc_layers_split(80, 3, CALC_SPLIT_EVEN, o, &d), -1);
	assert_non_null(strstr(d.text, "even"));
	calc_diag_free(&d);
	for (int i = 0; i < 16; i++)
		e16[i] = i == 0 || i == 15 ? 7 : 8;
	assert_int_equal(calc_layers_split(126, 16, CALC_SPLIT_LLAMA3, o, NULL), 0);
	assert_memory_equal(o, e16, sizeof e16);
	assert_int_equal(calc_layers_split(80, 8, CALC_SPLIT_LLAMA3, o, NULL), 0);
	assert_memory_equal(o, e8, sizeof e8);
	assert_int_equal(calc_layers_split(80, 64, CALC_SPLIT_LLAMA3, o, NULL), -1);
	assert_int_equal(calc_layers_split(7, 2, CALC_SPLIT_LLAMA3, o, NULL), 0);
	assert_int_equal(o[0], 4);
	assert_int_equal(o[1], 3);
	/* more stages than layers, none at all: refused by every rule */
	for (int r = 0; r < CALC_SPLIT_N; r++) {
		assert_int_equal(calc_layers_split(6, 8, (enum calc_split)r, o, NULL), -1);
		assert_int_equal(calc_layers_split(6, 0, (enum calc_split)r, o, NULL), -1);
	}
}

/*
 * Two layer kinds: dense layers of FFN width 256 (A) and 128 (B) in the order A A B B
 * B A, on tp 2 x pp 3 (remainder-first: 2, 2, 2 layers, so the stages hold A A | B B |
 * B A), GeLU, RMSNorm, no biases, untied head, h 64, 4 heads of 16, vocab 1000, s 128,
 * b 1, no recomputation, no FlashAttention, 1F1B with m = 8, megatron recipe (2 + 4 +
 * 4 + 8 = 18 B per parameter, ZeRO 0), overheads 0.  By hand:
 *   attention 4 h^2 = 16384; norms 2h = 128; MLP 2hf: A 32768, B 16384;
 *   layer A 49280, B 32896; per GPU (tp 2, norms replicated) A 24704, B 16512;
 *   embedding and head V h / 2 = 32000 each per GPU, final norm 64;
 *   stage 0: 2 A + 32000 = 81408; stage 1: 2 B = 33024; stage 2: B + A + 64 + 32000 = 73280.
 *   Activations per layer (memory.c's terms, e = 2, t = 2, no SP, sb = 128):
 *   attention 2e sbh + e sb (a + 2g) d / t + e sb a d / t = 32768 + 24576 + 8192 = 65536,
 *   scores e a s^2 b / t = 65536, MLP 2e sbh + 2e sb f / t = 32768 + 256 f:
 *   A 229376, B 196608.  In flight (1F1B, Narayanan 2021 §2.2.1): p - i = 3, 2, 1.
 *   stage 0: 2 A x 3 + token ids 3 x 8 s b = 1376256 + 3072;
 *   stage 1: 2 B x 2 = 786432;
 *   stage 2: (A + B) x 1 + norm and head inputs 2e sbh + fp32 logits 4 s b V / t
 *            = 425984 + 32768 + 256000, plus the bf16 logits transient 2 s b V / t = 128000.
 *   Totals: 81408 x 18 + 1379328 = 2844672; 33024 x 18 + 786432 = 1380864;
 *           73280 x 18 + 714752 + 128000 = 2161792.
 *   FLOPs per token (Narayanan 2021 App., 2 per multiply-add): GEMMs 2hd(a + 2g) + 2adh
 *   + 4hf = 32768 + 4hf: A 98304, B 65536; attention core 4 s a d = 32768; logits 2 h V
 *   = 128000; forward 3 (A + 32768) + 3 (B + 32768) + 128000 = 816128, x 3 = 2448384.
 */
static void test_two_kinds(void **state)
{
	const char *sets[] = {"model.layers=6", "model.hidden=64", "model.heads=4", "model.kv_heads=4",
	                      "model.ffn_hidden=256", "model.vocab=1000", "model.max_pos=0", "model.mlp=gelu",
	                      "model.norm=rmsnorm", "model.tied_embeddings=no", "model.bias=no", "model.dropout=no",
	                      "training.seq_len=128", "training.micro_batch=1", "training.global_batch=8",
	                      "training.recipe=megatron", "training.flash_attention=no", "cluster.nodes=1",
	                      "cluster.gpus_per_node=6", "parallel.tp=2", "parallel.pp=3", "parallel.dp=0",
	                      "parallel.cp=1", "parallel.sp=no", "parallel.zero=0", "parallel.recompute=none",
	                      "parallel.schedule=1f1b", "overhead.cuda_context=0", "overhead.nccl_buffers=0",
	                      "overhead.workspace=0", "overhead.fragmentation=0"};
	const struct calc_layer_kind kinds[] = {{CALC_LAYER_DENSE, 256}, {CALC_LAYER_DENSE, 128}};
	const int run_kind[] = {0, 1, 0}, run_count[] = {2, 3, 1};
	const double params[] = {81408, 33024, 73280}, total[] = {2844672, 1380864, 2161792};
	const int count_a[] = {2, 0, 1}, count_b[] = {0, 2, 1};
	struct calc_plan p;
	struct calc_params pr;
	struct calc_memory *m = malloc(sizeof *m);
	struct calc_diag d = {0};
	struct calc_flops fl;
	int worst;
	double wt, hr;

	load_plan(&p, sets, (int)(sizeof sets / sizeof sets[0]));
	assert_int_equal(calc_model_set_layers(&p.model, kinds, 2, run_kind, run_count, 3, &d), 0);
	assert_int_equal(p.model.layers, 6);
	assert_int_equal(calc_plan_validate(&p, &d), 0);

	calc_model_params(&p.model, &pr);
	assert_int_equal(pr.nkinds, 2);
	assert_near(pr.kind[0].total, 49280, 1e-15);
	assert_near(pr.kind[1].total, 32896, 1e-15);
	assert_near(pr.total, 3 * 49280 + 3 * 32896 + 64000 + 64000 + 64, 1e-15);
	for (int i = 0; i < 3; i++) {
		struct calc_stage_layers sl;
		calc_stage_layers(&p, i, &sl);
		assert_int_equal(sl.layers, 2);
		assert_int_equal(sl.count[0], count_a[i]);
		assert_int_equal(sl.count[1], count_b[i]);
		assert_near(calc_memory_stage_params(&p, &pr, i), params[i], 1e-15);
	}

	assert_int_equal(calc_memory(&p, m, &d), 0);
	for (int i = 0; i < 3; i++) {
		assert_near(m->st[i].params, params[i], 1e-15);
		assert_near(m->st[i].total, total[i], 1e-15);
	}
	assert_int_equal(m->worst, 0);
	/* the planner's path: memory.c's terms on candidate stages */
	calc_search_memory(&p, &worst, &wt, &hr);
	assert_int_equal(worst, 0);
	assert_near(wt, total[0], 1e-15);

	calc_flops(&p, &fl);
	assert_near(fl.per_token, 2448384, 1e-15);
	assert_near(fl.model, 2448384.0 * 8 * 128, 1e-15);
	free(m);
	calc_diag_free(&d);
}

/* A small hybrid model (model.hybrid_pattern = M-*-M-, Megatron-Core's layer symbols),
 * h = 64, 4 heads of 16, f = 256 (GeLU), V = 1000 untied, RMSNorm, no biases; Mamba-2
 * H = 4 heads of P = 32 (d_i = 128), N = 16, G = 2, d_conv = 4, chunk 64; s = 128, b = 1,
 * tp = 2, pp = 3 (two layers a stage: M-, *-, M-), no SP.  By hand (docs/references.md
 * §5.14, the MambaMixer shapes at Megatron-LM d98e8a64dd):
 *   Mamba  in_proj 64 x (2 x 128 + 2 x 2 x 16 + 4) = 20,736, conv1d (128 + 64) x (4 + 1)
 *          = 960, A_log, D, dt_bias 12, gated norm 128, out_proj 128 x 64 = 8,192, pre-norm
 *          64: 30,092
 *   '*'    Q, K, V, O 4 x 64 x 64 = 16,384 and its norm: 16,448
 *   '-'    2 x 64 x 256 = 32,768 and its norm: 32,832
 *   model  2 x 30,092 + 16,448 + 3 x 32,832 + 2 x 64,000 + 64 = 303,192
 * One GPU of each stage (TP halves all but the norms): stage 0 15,078 + 16,448 + the
 * embedding 32,000 = 63,526; stage 1 8,256 + 16,448 = 24,704; stage 2 15,078 + 16,448 +
 * 64 + the head 32,000 = 63,590.
 * Forward FLOPs per token: Mamba projections 2 x 64 x 324 + 2 x 128 x 64 = 57,856, its SSD
 * scan (Q = 64) 2 Q P H + 2 Q N G + 4 N P H = 16,384 + 4,096 + 8,192 and conv1d 2 x 4 x 192
 * = 1,536: 88,064; attention 2 x 64 x 16 x 12 + 2 x 64 x 64 = 32,768 and its core 4 s a d =
 * 32,768; an MLP 4 x 64 x 256 = 65,536; the head 128,000: 566,272, times 3.
 * Activations per micro-batch (2-byte activations, t = 2): Mamba the input 2 s h = 16,384,
 * the norm output 16,384, [z, x, B, C, dt] 2 s 324 / 2 = 41,472, out_x, the gated norm's
 * input and out_proj's input 3 x 2 s 128 / 2 = 49,152 and the fp32 rstd 4 s 2 / 2 = 512:
 * 123,904; attention (FlashAttention) 16,384 + 16,384 + Q, K, V 2 s 192 / 2 = 24,576 + the
 * core's output 8,192 + the fp32 log-sum-exp 4 a s / t = 1,024: 66,560; an MLP 16,384 +
 * 16,384 + (2 + 2) s f / 2 = 98,304. */
static void test_hybrid_small(void **state)
{
	const char *sets[] = {"model.layers=6", "model.hidden=64", "model.heads=4", "model.kv_heads=4",
	                      "model.ffn_hidden=256", "model.vocab=1000", "model.max_pos=0", "model.mlp=gelu",
	                      "model.norm=rmsnorm", "model.tied_embeddings=no", "model.bias=no", "model.dropout=no",
	                      "model.hybrid_pattern=M-*-M-", "model.mamba_heads=4", "model.mamba_head_dim=32",
	                      "model.mamba_state=16", "model.mamba_groups=2", "model.mamba_conv=4",
	                      "model.mamba_chunk=64", "training.seq_len=128", "training.micro_batch=1",
	                      "training.global_batch=8", "training.recipe=megatron", "training.flash_attention=yes",
	                      "cluster.nodes=1", "cluster.gpus_per_node=6", "parallel.tp=2", "parallel.pp=3",
	                      "parallel.dp=0", "parallel.cp=1", "parallel.sp=no", "parallel.zero=0",
	                      "parallel.recompute=none", "parallel.schedule=1f1b"};
	const double stage[] = {63526, 24704, 63590};
	struct calc_plan p;
	struct calc_params pr;
	struct calc_diag d = {0};
	struct calc_flops fl;
	struct calc_layer_kind kd;
	int mk = -1, ak = -1, fk = -1;

	load_plan(&p, sets, (int)(sizeof sets / sizeof sets[0]));
	assert_int_equal(calc_plan_validate(&p, &d), 0);
	assert_true(calc_model_is_hybrid(&p.model));
	assert_int_equal(calc_model_nkinds(&p.model), 3);
	for (int k = 0; k < 3; k++) {
		calc_model_kind(&p.model, k, &kd);
		if (kd.type == CALC_LAYER_MAMBA)
			mk = k;
		else if (kd.type == CALC_LAYER_ATTN)
			ak = k;
		else if (kd.type == CALC_LAYER_MLP)
			fk = k;
	}
	assert_true(mk >= 0 && ak >= 0 && fk >= 0);
	calc_model_params(&p.model, &pr);
	assert_near(pr.kind[mk].total, 30092, 1e-15);
	assert_near(pr.kind[ak].total, 16448, 1e-15);
	assert_near(pr.kind[fk].total, 32832, 1e-15);
	assert_int_equal(pr.kind_layers[mk], 2);
	assert_int_equal(pr.kind_layers[ak], 1);
	assert_int_equal(pr.kind_layers[fk], 3);
	assert_near(pr.total, 303192, 1e-15);
	for (int i = 0; i < 3; i++)
		assert_near(calc_memory_stage_params(&p, &pr, i), stage[i], 1e-15);

	calc_flops(&p, &fl);
	assert_near(fl.per_token, 3 * 566272.0, 1e-15);
	{
		struct calc_act_layer a;
		calc_memory_act_kind(&p, mk, CALC_RC_NONE, &a);
		assert_near(a.total, 123904, 1e-15);
		calc_memory_act_kind(&p, ak, CALC_RC_NONE, &a);
		assert_near(a.total, 66560, 1e-15);
		calc_memory_act_kind(&p, fk, CALC_RC_NONE, &a);
		assert_near(a.total, 98304, 1e-15);
		/* full recomputation keeps each layer's input alone, 2 s h */
		calc_memory_act_kind(&p, mk, CALC_RC_FULL, &a);
		assert_near(a.total, 16384, 1e-15);
		/* module recomputation acts in a TransformerLayer, not in a MambaLayer (Megatron-Core
		 * hybrid_block.py at d98e8a64dd): 'layernorm' drops the MLP layer's norm output,
		 * 2 s h = 16,384, and none of the Mamba layer's */
		p.recompute_modules = CALC_RCM_LAYERNORM;
		calc_memory_act_kind(&p, mk, CALC_RC_MODULES, &a);
		assert_near(a.total, 123904, 1e-15);
		calc_memory_act_kind(&p, fk, CALC_RC_MODULES, &a);
		assert_near(a.total, 98304 - 16384, 1e-15);
	}
	calc_diag_free(&d);
}

/* A small gated delta-net model (model.hybrid_pattern = G-*-G-, Megatron-Core's 'G'), the
 * M-*-M- test's shapes with gated attention (model.attn_gate) and, in place of the Mamba
 * mixers, H_k = 2 query/key heads of d_k = 16 (K = 32), H_v = 4 value heads of d_v = 32
 * (V = 128), conv 4, chunk 64.  By hand (docs/references.md §5.15; GatedDeltaNet at
 * Megatron-LM e867835174, Qwen3NextGatedDeltaNet):
 *   G      in_proj 64 x (2 x 32 + 2 x 128 + 2 x 4) = 20,992, conv1d (2 x 32 + 128) x 4 = 768,
 *          A_log and dt_bias 8, gated norm d_v 32, out_proj 128 x 64 = 8,192, pre-norm 64:
 *          30,056
 *   '*'    Q, K, V, O 16,384, the output gate 64 x 4 x 16 = 4,096, its norm 64: 20,544
 *   '-'    32,832
 *   model  2 x 30,056 + 20,544 + 3 x 32,832 + 2 x 64,000 + 64 = 307,216
 * One GPU of each stage (TP halves all but the pre-norms and the gated norm's 32): a G
 * layer (30,056 - 96) / 2 + 96 = 15,076, '*' 20,480 / 2 + 64 = 10,304, '-' 16,448: stage 0
 * 15,076 + 16,448 + 32,000 = 63,524; stage 1 26,752; stage 2 15,076 + 16,448 + 64 + 32,000
 * = 63,588.
 * Forward FLOPs per token: G projections 2 x 64 x (328 + 128) = 58,368, the chunked delta
 * rule (C = 64) H_v (6 C d_k + 4 C d_v + 6 d_k d_v) = 4 x (6,144 + 8,192 + 3,072) = 69,632
 * and conv1d 2 x 4 x 192 = 1,536: 129,536; attention 32,768 + the gate 2 x 64 x 64 = 8,192
 * and its core 32,768: 73,728; an MLP 65,536; the head 128,000: 657,408, times 3.
 * Activations per micro-batch (2-byte activations, t = 2, s b / t = 64): G the input and
 * the norm output 16,384 each, and per token over t: in_proj's output 2 x 328 = 656, the
 * conv output 2 x 192 = 384, the kernel's q, k (repeated to 4 heads) and v 2 x (128 + 128)
 * = 512, g 4 x 4 = 16, beta 2 x 4 = 8, the L2 norms' rstd on the 2 key heads 8 x 2 = 16,
 * A 2 x 4 x 64 = 512, the gated norm's and out_proj's inputs 2 x 2 x 128 = 512, the norm's
 * rstd 16: 2,632 x 64 = 168,448; 201,216 in all.  Attention 66,560 (the M-*-M- test) + the gate's input 2 s a
 * d / t = 8,192 = 74,752. */
static void test_gdn_small(void **state)
{
	const char *sets[] = {"model.layers=6", "model.hidden=64", "model.heads=4", "model.kv_heads=4",
	                      "model.ffn_hidden=256", "model.vocab=1000", "model.max_pos=0", "model.mlp=gelu",
	                      "model.norm=rmsnorm", "model.tied_embeddings=no", "model.bias=no", "model.dropout=no",
	                      "model.hybrid_pattern=G-*-G-", "model.gdn_key_heads=2", "model.gdn_value_heads=4",
	                      "model.gdn_key_dim=16", "model.gdn_value_dim=32", "model.gdn_conv=4",
	                      "model.gdn_chunk=64", "model.attn_gate=yes", "training.seq_len=128",
	                      "training.micro_batch=1", "training.global_batch=8", "training.recipe=megatron",
	                      "training.flash_attention=yes", "cluster.nodes=1", "cluster.gpus_per_node=6",
	                      "parallel.tp=2", "parallel.pp=3", "parallel.dp=0", "parallel.cp=1", "parallel.sp=no",
	                      "parallel.zero=0", "parallel.recompute=none", "parallel.schedule=1f1b"};
	const double stage[] = {63524, 26752, 63588};
	struct calc_plan p;
	struct calc_params pr;
	struct calc_diag d = {0};
	struct calc_flops fl;
	struct calc_layer_kind kd;
	struct calc_act_layer a;
	int gk = -1, ak = -1, fk = -1;

	load_plan(&p, sets, (int)(sizeof sets / sizeof sets[0]));
	assert_int_equal(calc_plan_validate(&p, &d), 0);
	assert_true(calc_model_is_hybrid(&p.model));
	assert_int_equal(calc_model_nkinds(&p.model), 3);
	for (int k = 0; k < 3; k++) {
		calc_model_kind(&p.model, k, &kd);
		if (kd.type == CALC_LAYER_GDN)
			gk = k;
		else if (kd.type == CALC_LAYER_ATTN)
			ak = k;
		else if (kd.type == CALC_LAYER_MLP)
			fk = k;
	}
	assert_true(gk >= 0 && ak >= 0 && fk >= 0);
	calc_model_params(&p.model, &pr);
	assert_near(pr.kind[gk].total, 30056, 1e-15);
	assert_near(pr.kind[gk].replicated, 96, 1e-15);
	assert_near(pr.kind[ak].total, 20544, 1e-15);
	assert_near(pr.kind[fk].total, 32832, 1e-15);
	assert_int_equal(pr.kind_layers[gk], 2);
	assert_near(pr.total, 307216, 1e-15);
	for (int i = 0; i < 3; i++)
		assert_near(calc_memory_stage_params(&p, &pr, i), stage[i], 1e-15);

	calc_flops(&p, &fl);
	assert_near(fl.per_token, 3 * 657408.0, 1e-15);

	calc_memory_act_kind(&p, gk, CALC_RC_NONE, &a);
	assert_near(a.total, 201216, 1e-15);
	calc_memory_act_kind(&p, ak, CALC_RC_NONE, &a);
	assert_near(a.total, 74752, 1e-15);
	/* full recomputation keeps each layer's input alone, 2 s h */
	calc_memory_act_kind(&p, gk, CALC_RC_FULL, &a);
	assert_near(a.total, 16384, 1e-15);
	calc_diag_free(&d);
}

/* A small Mamba-1 model (model.hybrid_pattern = S-*-S-, the project's 'S'): the M-*-M-
 * test's attention and MLP shapes and, in place of the Mamba-2 mixers, d_inner = 128,
 * N = 8, d_conv 4, R = 4, with Jamba's dt, B and C RMSNorms.  By hand (Gu & Dao 2023
 * §3.4; mamba_simple.py at 52f57d66f8; docs/references.md §5.17):
 *   S      in_proj 64 x 256 = 16,384, conv1d 128 x 4 + 128 = 640, x_proj 128 x (4 + 16) =
 *          2,560, dt_proj 4 x 128 + 128 = 640, A_log 128 x 8 = 1,024, D 128, out_proj
 *          128 x 64 = 8,192, the three inner norms 4 + 8 + 8 = 20, pre-norm 64: 29,652
 *   '*'    Q, K, V, O 4 x 64 x 64 = 16,384 and its norm: 16,448
 *   '-'    2 x 64 x 256 + 64 = 32,832
 *   model  2 x 29,652 + 16,448 + 3 x 32,832 + 2 x 64,000 + 64 = 302,312
 * Forward FLOPs per token: S in_proj 2 x 64 x 256 = 32,768, x_proj 2 x 128 x 20 = 5,120,
 * dt_proj 2 x 4 x 128 = 1,024, out_proj 2 x 128 x 64 = 16,384, the scan 9 x 128 x 8 =
 * 9,216 and the conv 2 x 4 x 128 = 1,024: 65,536; attention 32,768 + its core 4 s h =
 * 32,768; an MLP 4 x 64 x 256 = 65,536; the head 2 x 64 x 1,000 = 128,000: 6 x 65,536 +
 * 128,000 = 521,216, times 3.
 * Activations of an S layer per micro-batch (2-byte activations, s b = 128, t = 1): the
 * input and the norm output 2 x 128 x 64 = 16,384 each; xz, x_dbl, B, C and out 2 x (256
 * + 20 + 8 + 8 + 128) = 840 a token, 107,520; the scan's fp32 chunk states 4 x 128 x 2 x 8
 * for the one chunk of 2,048 the 128 tokens fill, 8,192: 148,480. */
static void test_mamba1_small(void **state)
{
	const char *sets[] = {"model.layers=6", "model.hidden=64", "model.heads=4", "model.kv_heads=4",
	                      "model.ffn_hidden=256", "model.vocab=1000", "model.max_pos=0", "model.mlp=gelu",
	                      "model.norm=rmsnorm", "model.tied_embeddings=no", "model.bias=no", "model.dropout=no",
	                      "model.hybrid_pattern=S-*-S-", "model.mamba1_inner=128", "model.mamba1_state=8",
	                      "model.mamba1_conv=4", "model.mamba1_dt_rank=4", "model.mamba1_inner_norms=yes",
	                      "training.seq_len=128", "training.micro_batch=1", "training.global_batch=8",
	                      "training.recipe=megatron", "training.flash_attention=yes", "cluster.nodes=1",
	                      "cluster.gpus_per_node=1", "parallel.tp=1", "parallel.pp=1", "parallel.dp=0",
	                      "parallel.cp=1", "parallel.sp=no", "parallel.zero=0", "parallel.recompute=none",
	                      "parallel.schedule=1f1b"};
	struct calc_plan p;
	struct calc_params pr;
	struct calc_diag d = {0};
	struct calc_flops fl;
	struct calc_layer_kind kd;
	struct calc_act_layer a;
	int sk = -1;

	load_plan(&p, sets, (int)(sizeof sets / sizeof sets[0]));
	assert_int_equal(calc_plan_validate(&p, &d), 0);
	assert_true(calc_model_is_hybrid(&p.model));
	for (int k = 0; k < calc_model_nkinds(&p.model); k++) {
		calc_model_kind(&p.model, k, &kd);
		if (kd.type == CALC_LAYER_MAMBA1)
			sk = k;
	}
	assert_true(sk >= 0);
	assert_false(calc_layer_type_is_moe(CALC_LAYER_MAMBA1));
	calc_model_params(&p.model, &pr);
	assert_near(pr.kind[sk].total, 29652, 1e-15);
	assert_int_equal(pr.kind_layers[sk], 2);
	assert_near(pr.total, 302312, 1e-15);
	assert_near(pr.active, 302312, 1e-15);

	calc_flops(&p, &fl);
	assert_near(fl.per_token, 3 * 521216.0, 1e-15);

	calc_memory_act_kind(&p, sk, CALC_RC_NONE, &a);
	assert_near(a.total, 148480, 1e-15);
	calc_diag_free(&d);

	/* no source splits a Mamba-1 mixer over TP or CP: both refused */
	p.tp = 2;
	p.gpus_per_node = 2;
	assert_int_not_equal(calc_plan_validate(&p, &d), 0);
	assert_non_null(d.text);
	assert_non_null(strstr(d.text, "tensor parallelism of a Mamba-1 mixer"));
	calc_diag_free(&d);
	p.tp = 1;
	p.cp = 2;
	assert_int_not_equal(calc_plan_validate(&p, &d), 0);
	assert_non_null(d.text);
	assert_non_null(strstr(d.text, "context parallelism of a Mamba-1 mixer"));
	calc_diag_free(&d);
}

/* Jamba-v0.1 (huggingface.co/ai21labs/Jamba-v0.1 config.json): 52 B total and 12 B active
 * in Lieber et al. 2024 Table 1.  Counted by hand from the config (h = 4,096, d_inner =
 * 8,192, N = 16, R = 256, d_conv 4; 28 Mamba-1 and 4 attention mixers, 16 dense and 16
 * MoE SwiGLU blocks of 14,336, 16 experts top 2, V = 65,536 untied):
 *   Mamba-1 mixer 2 x 4,096 x 8,192 + 8,192 x 5 + 8,192 x 288 + 256 x 8,192 + 8,192
 *                 + 8,192 x 16 + 8,192 + 8,192 x 4,096 + 288 = 105,308,448
 *   attention     4,096 x 4,096 x 2 + 2 x 4,096 x 1,024 = 41,943,040
 *   SwiGLU MLP    3 x 4,096 x 14,336 = 176,160,768; MoE 16 of them + the router 65,536
 *   pre-norms     64 x 4,096; embedding and head 2 x 65,536 x 4,096; final norm 4,096
 *   total  28 x 105,308,448 + 4 x 41,943,040 + 16 x 176,160,768 + 16 x 2,818,637,824
 *          + 262,144 + 536,870,912 + 4,096 = 51,570,323,328
 *   active total - 16 x 14 x 176,160,768 = 12,110,311,296 */
static void test_jamba_preset(void **state)
{
	const char *sets[] = {"model.preset=jamba-v0.1", "cluster.nodes=1", "cluster.gpus_per_node=8", "parallel.tp=1",
	                      "parallel.pp=1", "parallel.dp=0", "parallel.ep=8", "training.seq_len=4096",
	                      "training.global_batch=64"};
	struct calc_plan p;
	struct calc_params pr;
	struct calc_diag d = {0};

	load_plan(&p, sets, (int)(sizeof sets / sizeof sets[0]));
	assert_int_equal(calc_plan_validate(&p, &d), 0);
	calc_model_params(&p.model, &pr);
	assert_near(pr.total, 51570323328.0, 1e-15);
	assert_near(pr.active, 12110311296.0, 1e-15);
	calc_diag_free(&d);
}

/* A hybrid model with MoE layers (model.hybrid_pattern = ME*E, Nemotron 3's E): the M-*-M-
 * test's shapes, 4 GeLU experts of 32, top 2, one shared expert of 64, a router with a
 * per-expert bias.  By hand: an E layer the experts 4 x 2 x 64 x 32 = 16,384, the shared
 * expert 2 x 64 x 64 = 8,192, the router 64 x 4 + 4 = 260 and its pre-norm 64: 24,900, of
 * which a token activates 24,900 - 2 x 4,096 = 16,708 (no attention in it); the model
 * 30,092 + 2 x 24,900 + 16,448 + 2 x 64,000 + 64 = 224,404, active 208,020.  Forward FLOPs
 * per token: an E layer the router 2 x 64 x 4 = 512 and 4 x 64 x (2 x 32 + 64) = 32,768;
 * with the Mamba layer's 88,064, the attention layer's 65,536 and the head's 128,000:
 * 348,160, times 3. */
static void test_hybrid_moe_small(void **state)
{
	const char *sets[] = {"model.layers=4", "model.hidden=64", "model.heads=4", "model.kv_heads=4",
	                      "model.ffn_hidden=256", "model.vocab=1000", "model.max_pos=0", "model.mlp=gelu",
	                      "model.norm=rmsnorm", "model.tied_embeddings=no", "model.bias=no", "model.dropout=no",
	                      "model.hybrid_pattern=ME*E", "model.mamba_heads=4", "model.mamba_head_dim=32",
	                      "model.mamba_state=16", "model.mamba_groups=2", "model.mamba_chunk=64",
	                      "model.experts=4", "model.top_k=2", "model.expert_ffn=32", "model.shared_experts=1",
	                      "model.shared_ffn=64", "model.router_bias=yes", "training.seq_len=128",
	                      "training.micro_batch=1", "training.global_batch=8", "training.recipe=megatron",
	                      "cluster.nodes=1", "cluster.gpus_per_node=1", "parallel.tp=1", "parallel.pp=1",
	                      "parallel.dp=0", "parallel.cp=1", "parallel.ep=1", "parallel.recompute=none"};
	struct calc_plan p;
	struct calc_params pr;
	struct calc_diag d = {0};
	struct calc_flops fl;

	load_plan(&p, sets, (int)(sizeof sets / sizeof sets[0]));
	assert_int_equal(calc_plan_validate(&p, &d), 0);
	calc_model_params(&p.model, &pr);
	assert_near(pr.total, 224404, 1e-15);
	assert_near(pr.active, 208020, 1e-15);
	calc_flops(&p, &fl);
	assert_near(fl.per_token, 3 * 348160.0, 1e-15);
	calc_diag_free(&d);
}

/* A second method for the hybrid layers' TP collectives: a layer of one block (Mamba,
 * attention or MLP alone) runs one all-reduce each way, half a dense layer's two, so the
 * M-*-M- model's stages of two layers move what a dense model's stages of one layer move
 * at the same b, s, h, tp and micro-batches. */
static void test_hybrid_tp_bytes(void **state)
{
	const char *base[] = {"model.hidden=64", "model.heads=4", "model.kv_heads=4", "model.ffn_hidden=256",
	                      "model.vocab=1000", "model.mlp=gelu", "model.norm=rmsnorm", "training.seq_len=128",
	                      "training.micro_batch=1", "training.global_batch=8", "cluster.nodes=1",
	                      "cluster.gpus_per_node=6", "parallel.tp=2", "parallel.pp=3", "parallel.dp=0",
	                      "parallel.cp=1", "parallel.sp=yes", "parallel.recompute=none", "model.layers=3"};
	const char *hyb[] = {"model.hidden=64", "model.heads=4", "model.kv_heads=4", "model.ffn_hidden=256",
	                     "model.vocab=1000", "model.mlp=gelu", "model.norm=rmsnorm", "training.seq_len=128",
	                     "training.micro_batch=1", "training.global_batch=8", "cluster.nodes=1",
	                     "cluster.gpus_per_node=6", "parallel.tp=2", "parallel.pp=3", "parallel.dp=0",
	                     "parallel.cp=1", "parallel.sp=yes", "parallel.recompute=none", "model.layers=6",
	                     "model.hybrid_pattern=M-*-M-", "model.mamba_heads=4", "model.mamba_head_dim=32",
	                     "model.mamba_state=16", "model.mamba_groups=2"};
	struct calc_plan a, b;
	struct calc_comm ca, cb;

	load_plan(&a, base, (int)(sizeof base / sizeof base[0]));
	load_plan(&b, hyb, (int)(sizeof hyb / sizeof hyb[0]));
	assert_int_equal(calc_comm(&a, &ca), 0);
	assert_int_equal(calc_comm(&b, &cb), 0);
	assert_true(ca.dim[CALC_DIM_TP].bytes > 0);
	assert_near(cb.dim[CALC_DIM_TP].bytes, ca.dim[CALC_DIM_TP].bytes, 1e-15);
	assert_near(cb.dim[CALC_DIM_TP].time, ca.dim[CALC_DIM_TP].time, 1e-12);
	/* a gated delta-net layer is one block too (GatedDeltaNet: column-parallel in_proj,
	 * row-parallel out_proj): G-*-G- moves what M-*-M- moves */
	hyb[19] = "model.hybrid_pattern=G-*-G-";
	hyb[20] = "model.gdn_key_heads=2";
	hyb[21] = "model.gdn_value_heads=4";
	hyb[22] = "model.gdn_key_dim=16";
	hyb[23] = "model.gdn_value_dim=32";
	load_plan(&b, hyb, (int)(sizeof hyb / sizeof hyb[0]));
	assert_int_equal(calc_comm(&b, &cb), 0);
	assert_near(cb.dim[CALC_DIM_TP].bytes, ca.dim[CALC_DIM_TP].bytes, 1e-15);
}

/* The Nemotron-H presets against their names (NVIDIA 2025, arXiv 2504.03624: 8 B and
 * 56 B) and against the hand counts of docs/references.md §5.14: 8,100,852,736 and
 * 56,324,350,464. */
static void test_hybrid_presets(void **state)
{
	struct calc_params p;
	const struct calc_model *m = calc_preset_model("nemotron-h-8b");
	assert_non_null(m);
	calc_model_params(m, &p);
	assert_near(p.total, 8100852736.0, 1e-15);
	assert_near(p.total / 1e9, 8, 0.02 * 8);
	m = calc_preset_model("nemotron-h-56b");
	assert_non_null(m);
	calc_model_params(m, &p);
	assert_near(p.total, 56324350464.0, 1e-15);
	assert_near(p.total / 1e9, 56, 0.02 * 56);
	/* Nemotron 3 Nano (docs/references.md §5.14): 23 M of H 64 x 64, N 128, G 8 on h 2,688:
	 * 27,697,152 + 30,720 + 192 + 4,096 + 11,010,048 + 2,688 = 38,744,896; 6 attention layers
	 * of 32 heads and 2 KV heads of 128: 23,396,352 + 2,688; 23 E layers of 128 experts of
	 * 2 x 2688 x 1856 = 9,977,856, a shared expert 2 x 2688 x 3712 = 19,955,712, the router
	 * 2688 x 128 + 128 and the norm: 1,297,468,160, active 80,169,728; 2 x 131,072 x 2688 +
	 * 2688: 31,577,940,288 in all, 3,580,076,352 active, against 31.6 B (the Hub's count of
	 * nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16) and 3.5 B active (its model card) */
	m = calc_preset_model("nemotron-3-nano-30b-a3b");
	assert_non_null(m);
	calc_model_params(m, &p);
	assert_near(p.total, 31577940288.0, 1e-15);
	assert_near(p.active, 3580076352.0, 1e-15);
	assert_near(p.total / 1e9, 31.6, 0.02 * 31.6);
	assert_near(p.active / 1e9, 3.5, 0.03 * 3.5);
}

/* Mixture-of-experts presets against their published total and activated counts
 * (each preset's source names the paper or model card).  Published figures are
 * rounded, and the activated counts are the authors' own convention (whether the
 * embedding is counted), so a preset must come within 2% of each. */
static void test_moe_published(void **state)
{
	static const struct {
		const char *preset;
		double total, active; /* published [billions] */
	} rows[] = {
		{"mixtral-8x7b", 46.7, 12.9},  /* Jiang et al. 2024 */
		{"mixtral-8x22b", 141, 39},    /* Mistral AI 2024 */
		{"deepseek-v3", 671, 37},      /* DeepSeek-V3 report, abstract */
		{"qwen3-235b-a22b", 235, 22},  /* Qwen3 report */
		{"qwen3-30b-a3b", 30.5, 3.3},  /* Qwen3-30B-A3B model card */
		{"dbrx", 132, 36},             /* Databricks 2024 */
		{"olmoe-1b-7b", 6.9, 1.3},     /* Muennighoff et al. 2024 */
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct calc_model *m = calc_preset_model(rows[i].preset);
		struct calc_params p;
		assert_non_null(m);
		calc_model_params(m, &p);
		assert_near(p.total / 1e9, rows[i].total, 0.02 * rows[i].total);
		assert_near(p.active / 1e9, rows[i].active, 0.02 * rows[i].active);
	}
}

/* Qwen3-30B-A3B by hand from its config.json (h 2048, 48 layers, 32 heads of 128, 4 KV
 * heads, 128 SwiGLU experts of 768, top-8, all layers MoE, V 151,936, untied): attention
 * 2 x 2048 x 4096 + 2 x 2048 x 512 = 18,874,368, one expert 3 x 2048 x 768 = 4,718,592,
 * router 128 x 2048 = 262,144, norms 4,096: a layer 623,120,384; 48 of them and
 * 2 x 151,936 x 2048 + 2048 = 30,532,110,336 in all (the model card: 30.5 B); active
 * 48 x (18,874,368 + 8 x 4,718,592 + 266,240) + 622,331,904 = 3,353,020,416 (3.3 B). */
static void test_qwen3_30b_by_hand(void **state)
{
	struct calc_params p;
	(void)state;
	calc_model_params(calc_preset_model("qwen3-30b-a3b"), &p);
	assert_near(p.total, 30532110336.0, 1e-12);
	assert_near(p.active, 3353020416.0, 1e-12);
}

/* Mixtral 8x7B by hand from its config.json (h 4096, 32 heads of 128, 8 KV heads,
 * 8 SwiGLU experts of 14,336, top-2, V 32,000, untied, RMSNorm): per layer
 * attention 2 h^2 + 2 h (8 x 128) = 41,943,040, one expert 3 h f = 176,160,768,
 * router 8 h = 32,768, norms 2 h = 8,192. */
static void test_mixtral_by_hand(void **state)
{
	struct calc_params p;
	double attn = 41943040, expert = 176160768, router = 32768, norms = 8192, emb = 32000.0 * 4096;
	calc_model_params(calc_preset_model("mixtral-8x7b"), &p);
	assert_int_equal(p.nkinds, 1);
	assert_near(p.kind[0].attn, attn, 0);
	assert_near(p.kind[0].experts, 8 * expert, 0);
	assert_near(p.kind[0].total, attn + 8 * expert + router + norms, 0);
	assert_near(p.total, 32 * (attn + 8 * expert + router + norms) + 2 * emb + 4096, 0);
	assert_near(p.active, 32 * (attn + 2 * expert + router + norms) + 2 * emb + 4096, 0);
}

/* DeepSeek-V3 by hand from its config.json and the report's §2.1 (MLA): h 7168, 128
 * heads, d_c' 1536, d_c 512, d_h^R 64, d_h 128, value 128.  Attention per layer:
 * W_DQ 7168 x 1536, its norm 1536, W_UQ 1536 x 128 (128 + 64), W_DKV + W_KR
 * 7168 x (512 + 64), its norm 512, W_UK + W_UV 512 x 128 (128 + 128), W_O
 * 128 x 128 x 7168.  3 dense layers (SwiGLU 18,432), 58 MoE layers of 256 routed
 * experts of 2,048 plus one shared, top-8, a router with a bias. */
static void test_deepseek_v3_by_hand(void **state)
{
	struct calc_params p;
	double h = 7168;
	double attn = h * 1536 + 1536 + 1536.0 * 128 * 192 + h * 576 + 512 + 512.0 * 128 * 256 + 128.0 * 128 * h;
	double expert = 3 * h * 2048, router = 256 * h + 256, norms = 2 * h;
	double dense = attn + 3 * h * 18432 + norms, moe = attn + 257 * expert + router + norms;
	double emb = 129280 * h;
	calc_model_params(calc_preset_model("deepseek-v3"), &p);
	assert_int_equal(p.nkinds, 2);
	assert_int_equal(p.kind_layers[0], 3);
	assert_int_equal(p.kind_layers[1], 58);
	assert_near(p.kind[0].attn, attn, 0);
	assert_near(p.kind[1].total, moe, 0);
	assert_near(p.total, 3 * dense + 58 * moe + 2 * emb + h, 1);
	assert_near(p.active, 3 * dense + 58 * (moe - 248 * expert) + 2 * emb + h, 1);
	/* one MTP module: an MoE layer, the 2h -> h projection, two norms */
	assert_near(p.mtp, moe + 2 * h * h + 2 * h, 1);
}

/* Which layers are MoE: first_dense, then every n-th (i + 1 divisible by n). */
static void test_moe_rule(void **state)
{
	struct calc_model m = *calc_preset_model("olmoe-1b-7b");
	int count[CALC_MAX_KINDS];
	m.layers = 10, m.moe.first_dense = 3, m.moe.every = 2;
	/* layers 0..9: MoE where i >= 3 and (i + 1) even: 3, 5, 7, 9 */
	assert_false(calc_model_layer_is_moe(&m, 1));
	assert_false(calc_model_layer_is_moe(&m, 2));
	assert_true(calc_model_layer_is_moe(&m, 3));
	assert_false(calc_model_layer_is_moe(&m, 4));
	assert_true(calc_model_layer_is_moe(&m, 9));
	calc_model_kind_counts(&m, count);
	assert_int_equal(calc_model_nkinds(&m), 2);
	assert_int_equal(count[0], 6);
	assert_int_equal(count[1], 4);
	assert_true(calc_model_has_kinds(&m));
	m.moe.first_dense = 0, m.moe.every = 1;
	assert_int_equal(calc_model_nkinds(&m), 1);
	m.moe.experts = 0;
	assert_false(calc_model_has_kinds(&m));
}

/* The layers of every virtual stage of a layout, and of every stage (the sum of its chunks). */
static void check_chunks(const struct calc_plan *p, int pp, int v, const int *want_vs, const int *want_stage)
{
	struct calc_chunks ch;
	char msg[512];
	const char *key = NULL;
	int rc = calc_layout_chunks(p, pp, v, &ch, msg, sizeof msg, &key);
	if (rc)
		print_error("%s\n", msg);
	assert_int_equal(rc, 0);
	assert_int_equal(ch.n, pp * v);
	for (int g = 0; g < ch.n; g++)
		assert_int_equal(ch.layers[g], want_vs[g]);
	for (int s = 0; s < pp; s++) {
		int n = 0;
		for (int g = s; g < ch.n; g += pp)
			n += ch.layers[g];
		assert_int_equal(n, want_stage[s]);
	}
}

/*
 * Megatron-Core's layouts (NVIDIA/Megatron-LM d98e8a64, transformer_block.py
 * get_num_layers_to_build, transformer_config.py __post_init__,
 * pipeline_parallel_layer_layout.py), the published splits worked out by hand:
 * - Llama 3.1 405B, 126 layers, PP 8 x VP 8 with both account_* flags: (126 + 2) / 8 = 16
 *   per stage, 16 / 8 = 2 per virtual stage; virtual stage 0 (the embedding) and 63 (the
 *   loss) build one fewer: stages 15, 16 x 6, 15.
 * - Qwen3-235B-A22B, 94 layers, PP 8 x VP 4 with both flags: (94 + 2) / 8 = 12, 3 per
 *   virtual stage, the first and last 2: stages 11, 12 x 6, 11.
 * - DeepSeek-V3, 61 layers and one MTP module, Megatron-Bridge's layout for (16, 1) and
 *   (4, 4) (NVIDIA-NeMo/Megatron-Bridge 355cef45, recipes/deepseek/deepseek_v3.py:
 *   [E + t*4] + [t*4]*14 + [t, mtp, loss]), written Et*4|(t*4|)*14tmL: 16 virtual stages
 *   of 4, 4 x 14, 1 layers.  At PP 16 they are the stages; at PP 4 x VP 4 stage s holds
 *   virtual stages s, s + 4, s + 8, s + 12: 16, 16, 16, 4 + 4 + 4 + 1 = 13.  At PP 8 x VP 2
 *   (the same list for the (8, 2) entry at commit 17a381f95, lines 29-49, the 26.04.01
 *   B200 run) stage s holds s and s + 8: 8 x 7 and 4 + 1 = 5 on stage 7.
 * - Megatron's own example Et*3|(tt|)*29m|L (TransformerConfig docstring) for the same
 *   model at PP 16 x VP 2: 3, 2 x 29, 0 (m), 0 (L); m in virtual stage 30 = chunk 1 of
 *   stage 14, L in 31.
 * - TransformerConfig's example E|(tt|)*2,(t|)*4,mL (8 layers, one MTP module) at PP 4:
 *   E | tt | tt | t | t | t | t | mL, VP 2.
 * - first/last: 126 layers, PP 8, first 15 and last 15: (126 - 30) / 6 = 16 in the
 *   middle; with VP 8 refused (15 is not divisible by 8), the case account_* covers.
 */
static void test_megatron_layouts(void **state)
{
	struct calc_plan *p = calloc(1, sizeof *p);
	struct calc_chunks ch;
	char msg[512];
	const char *key = NULL;
	int vs[CALC_MAX_VSTAGES], st[CALC_MAX_STAGES];

	/* Llama 3.1 405B PP 8 x VP 8 */
	p->model.layers = 126;
	p->account_embedding = p->account_loss = 1;
	for (int g = 0; g < 64; g++)
		vs[g] = g == 0 || g == 63 ? 1 : 2;
	for (int s = 0; s < 8; s++)
		st[s] = s == 0 || s == 7 ? 15 : 16;
	check_chunks(p, 8, 8, vs, st);
	assert_int_equal(calc_layout_chunks(p, 8, 8, &ch, msg, sizeof msg, &key), 0);
	assert_int_equal(ch.embed, 0);
	assert_int_equal(ch.head, 63);
	/* the same model at PP 16 x VP 8: 128 / 128 = 1, the ends none */
	for (int g = 0; g < 128; g++)
		vs[g] = g == 0 || g == 127 ? 0 : 1;
	for (int s = 0; s < 16; s++)
		st[s] = s == 0 || s == 15 ? 7 : 8;
	check_chunks(p, 16, 8, vs, st);
	/* PP 8 x VP 3: 128 is not divisible by 24 */
	assert_int_equal(calc_layout_chunks(p, 8, 3, &ch, msg, sizeof msg, &key), -1);
	assert_string_equal(key, "account_embedding");
	assert_non_null(strstr(msg, "128 are not divisible by pp x vpp = 8 x 3 = 24"));

	/* Qwen3-235B-A22B PP 8 x VP 4 */
	p->model.layers = 94;
	for (int g = 0; g < 32; g++)
		vs[g] = g == 0 || g == 31 ? 2 : 3;
	for (int s = 0; s < 8; s++)
		st[s] = s == 0 || s == 7 ? 11 : 12;
	check_chunks(p, 8, 4, vs, st);

	/* DeepSeek-V3, Megatron-Bridge's layout at PP 16 and at PP 4 x VP 4 */
	p->account_embedding = p->account_loss = 0;
	p->model.layers = 61;
	p->model.mtp_depth = 1;
	snprintf(p->layout, sizeof p->layout, "Et*4|(t*4|)*14tmL");
	for (int g = 0; g < 16; g++)
		vs[g] = g == 15 ? 1 : 4;
	check_chunks(p, 16, 1, vs, vs);
	st[0] = st[1] = st[2] = 16, st[3] = 13;
	check_chunks(p, 4, 4, vs, st);
	for (int s = 0; s < 8; s++)
		st[s] = s == 7 ? 5 : 8;
	check_chunks(p, 8, 2, vs, st);
	assert_int_equal(calc_layout_chunks(p, 4, 4, &ch, msg, sizeof msg, &key), 0);
	assert_int_equal(ch.embed, 0);
	assert_int_equal(ch.head, 15);
	assert_int_equal(ch.mtp, 15);
	/* v = 0: as the layout says */
	assert_int_equal(calc_layout_chunks(p, 4, 0, &ch, msg, sizeof msg, &key), 0);
	assert_int_equal(ch.v, 4);
	/* the plan's chunks differ from the layout's */
	assert_int_equal(calc_layout_chunks(p, 4, 2, &ch, msg, sizeof msg, &key), -1);
	assert_string_equal(key, "layout");

	/* Megatron's example: Et*3|(tt|)*29m|L at PP 16 x VP 2 */
	snprintf(p->layout, sizeof p->layout, "Et*3|(tt|)*29m|L");
	for (int g = 0; g < 32; g++)
		vs[g] = g == 0 ? 3 : g <= 29 ? 2 : 0;
	for (int s = 0; s < 16; s++) /* stage s: virtual stages s and 16 + s */
		st[s] = vs[s] + vs[16 + s];
	assert_int_equal(st[0], 5);
	assert_int_equal(st[14], 2);
	check_chunks(p, 16, 2, vs, st);
	assert_int_equal(calc_layout_chunks(p, 16, 2, &ch, msg, sizeof msg, &key), 0);
	assert_int_equal(ch.mtp, 30);
	assert_int_equal(ch.head, 31);
	/* m in virtual stage 6 at PP 4 x VP 4 (chunk 1 of stage 2) is refused: not the
	 * stage's last chunk (validate_layer_layout) */
	snprintf(p->layout, sizeof p->layout, "Et*11|(t*10|)*5,m|L||||||||");
	assert_int_equal(calc_layout_chunks(p, 4, 4, &ch, msg, sizeof msg, &key), -1);
	assert_non_null(strstr(msg, "last chunk"));

	/* TransformerConfig's example at PP 4: VP 2 */
	p->model.layers = 8;
	snprintf(p->layout, sizeof p->layout, "E|(tt|)*2,(t|)*4,mL");
	{
		int v8[] = {0, 2, 2, 1, 1, 1, 1, 0}, s4[] = {1, 3, 3, 1};
		check_chunks(p, 4, 2, v8, s4);
	}
	assert_int_equal(calc_layout_chunks(p, 4, 2, &ch, msg, sizeof msg, &key), 0);
	assert_int_equal(ch.mtp, 7);

	/* --decoder-first/last-pipeline-num-layers */
	p->layout[0] = 0;
	p->model.mtp_depth = 0;
	p->model.layers = 126;
	p->first_stage_layers = p->last_stage_layers = 15;
	for (int s = 0; s < 8; s++)
		st[s] = s == 0 || s == 7 ? 15 : 16;
	check_chunks(p, 8, 1, st, st);
	assert_int_equal(calc_layout_chunks(p, 8, 8, &ch, msg, sizeof msg, &key), -1);
	assert_string_equal(key, "first_stage_layers");
	/* the first alone: (126 - 6) / 15 = 8 on the other stages */
	p->first_stage_layers = 6, p->last_stage_layers = 0;
	for (int s = 0; s < 16; s++)
		st[s] = s == 0 ? 6 : 8;
	check_chunks(p, 16, 1, st, st);
	/* with VP 2 each stage's chunks are equal: 3 + 3 and 4 + 4 */
	for (int g = 0; g < 32; g++)
		vs[g] = g % 16 == 0 ? 3 : 4;
	check_chunks(p, 16, 2, vs, st);

	/* torchtitan's rule (pytorch/torchtitan fb3b230e, generate_llm_fqn_per_model_part):
	 * its docstring's example, 2 stages of 3 layers with the ends weighing 2 each: 7
	 * effective layers, 3 a stage and the first one more: 4 - 2 = 2 and 3 - 2 = 1 */
	p->first_stage_layers = 0;
	p->model.layers = 3;
	p->first_less = p->last_less = 2;
	{
		int t2[] = {2, 1};
		check_chunks(p, 2, 1, t2, t2);
	}
	/* DeepSeek-V3's 61 layers on 16 stages with the defaults 1 and 1: 63 = 3 x 16 + 15:
	 * 4 - 1 = 3, 4 x 14, 3 - 1 = 2 */
	p->model.layers = 61;
	p->first_less = p->last_less = 1;
	for (int s = 0; s < 16; s++)
		st[s] = s == 0 ? 3 : s == 15 ? 2 : 4;
	check_chunks(p, 16, 1, st, st);
	/* a weight above a stage's layers is refused: 61 + 2 + 2 over 32 is 2 a stage */
	p->first_less = p->last_less = 3;
	assert_int_equal(calc_layout_chunks(p, 32, 1, &ch, msg, sizeof msg, &key), -1);
	assert_string_equal(key, "first_stage_less_layers");
	free(p);
}

/* The stages of a plan with a layout: embedding, loss and MTP where it places them, the
 * layers of each kind over each chunk's own range (DeepSeek-V3: layers 0 .. 2 dense). */
static void test_layout_stages(void **state)
{
	static const char *const sets[] = {"model.preset=deepseek-v3", "parallel.pp=4", "parallel.vpp=4",
	                                   "parallel.schedule=interleaved", "parallel.tp=1", "parallel.ep=8",
	                                   "parallel.dp=128", "parallel.sp=no", "training.global_batch=512",
	                                   "parallel.layout=Et*4|(t*4|)*14tmL"};
	struct calc_plan *p = calloc(1, sizeof *p);
	struct calc_stage_layers sl;

	load_plan(p, sets, (int)(sizeof sets / sizeof sets[0]));
	assert_int_equal(p->chunks.n, 16);
	/* stage 0: virtual stages 0, 4, 8, 12 = layers 0-3, 16-19, 32-35, 48-51: 3 dense */
	calc_stage_layers(p, 0, &sl);
	assert_int_equal(sl.layers, 16);
	assert_int_equal(sl.count[0], 3);
	assert_int_equal(sl.count[1], 13);
	assert_true(sl.embedding && !sl.head && !sl.mtp);
	/* stage 3: 3, 7, 11, 15 = layers 12-15, 28-31, 44-47, 60, the loss and the MTP module */
	calc_stage_layers(p, 3, &sl);
	assert_int_equal(sl.layers, 13);
	assert_int_equal(sl.count[1], 13);
	assert_true(!sl.embedding && sl.head && sl.mtp);
	/* virtual stage 15 alone: one MoE layer, the loss, the MTP module */
	calc_chunk_layers(p, 15, &sl);
	assert_int_equal(sl.layers, 1);
	assert_true(sl.head && sl.mtp && !sl.embedding);
	assert_int_equal(p->layers_per_stage[3], 13);
	free(p);
}

/* model.sliding_window (docs/references.md §5.13), worked by hand.  A causal layer's
 * query i sees i + 1 keys: s (s + 1) / 2 pairs, costed s / 2 a query (FlashAttention
 * skips the masked tiles); a windowed one min(i + 1, w): s w - w (w - 1) / 2 pairs, w (1 -
 * (w - 1) / (2 s)) a query.  At s = 32,768 and w = 4,096: 4,096 x (1 - 4,095 / 65,536)
 * = 4,096 - 255.9375 = 3,840.0625 keys. */
static void test_sliding_window(void **state)
{
	struct calc_model m;
	struct calc_plan p, q;
	struct calc_flops f0, fw;
	const char *base[] = {"model.preset=llama3-8b", "training.seq_len=32768"};
	const char *win[] = {"model.preset=llama3-8b", "training.seq_len=32768", "model.sliding_window=4096"};

	memset(&m, 0, sizeof m);
	m.layers = 32;
	assert_near(calc_model_attn_keys(&m, 32768, 0), 16384, 1e-15); /* no window: s / 2 */
	assert_near(calc_model_attn_keys(&m, 32768, 1), 32768, 1e-15); /* counted: s */
	m.window = 4096; /* Mistral 7B: every layer */
	assert_int_equal(calc_model_window_layers(&m), 32);
	assert_near(calc_model_attn_keys(&m, 32768, 0), 3840.0625, 1e-15);
	assert_near(calc_model_attn_keys(&m, 32768, 1), 4096, 1e-15);
	/* Gemma 2 / GPT-OSS: alternate, layers 1, 3, ... full: 16 and 16,
	 * (16 x 16,384 + 16 x 3,840.0625) / 32 = 10,112.03125 */
	m.window_full_every = 2;
	assert_int_equal(calc_model_window_layers(&m), 16);
	assert_near(calc_model_attn_keys(&m, 32768, 0), 10112.03125, 1e-15);
	assert_near(calc_model_attn_keys(&m, 32768, 1), (16 * 32768.0 + 16 * 4096.0) / 32, 1e-15);
	/* Gemma 3 1B: 26 layers, every 6th full (layers 5, 11, 17, 23): 22 windowed */
	m.layers = 26, m.window = 512, m.window_full_every = 6;
	assert_int_equal(calc_model_window_layers(&m), 22);
	/* GPT-OSS's 128-token window at s = 4,096: 128 (1 - 127 / 8,192) = 126.015625 keys */
	m.layers = 24, m.window = 128, m.window_full_every = 2;
	assert_near(calc_model_attn_keys(&m, 4096, 0), (12 * 2048 + 12 * 126.015625) / 24, 1e-15);
	/* a window as long as the sequence is causal attention */
	m.window = 4096;
	assert_near(calc_model_attn_keys(&m, 4096, 0), 2048, 1e-15);

	/* model FLOPs: Llama 3 8B (32 layers, 32 heads x 128) counts 4 s a d per token and
	 * layer forward (Narayanan 2021), x 3 with the backward; every layer windowed at
	 * 4,096 saves 3 x 32 x 4 x (32,768 - 4,096) x 32 x 128 per token */
	load_plan(&p, base, 2);
	load_plan(&q, win, 3);
	calc_flops(&p, &f0);
	calc_flops(&q, &fw);
	assert_near(f0.per_token - fw.per_token, 3.0 * 32 * 4 * (32768 - 4096) * 32 * 128, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nar21_table1),
		cmocka_unit_test(test_llama_totals),
		cmocka_unit_test(test_mpt_totals),
		cmocka_unit_test(test_megatron_formula),
		cmocka_unit_test(test_dense_100b),
		cmocka_unit_test(test_layers_split),
		cmocka_unit_test(test_two_kinds),
		cmocka_unit_test(test_moe_published),
		cmocka_unit_test(test_llama32_1b),
		cmocka_unit_test(test_qwen3_30b_by_hand),
		cmocka_unit_test(test_mixtral_by_hand),
		cmocka_unit_test(test_deepseek_v3_by_hand),
		cmocka_unit_test(test_moe_rule),
		cmocka_unit_test(test_megatron_layouts),
		cmocka_unit_test(test_layout_stages),
		cmocka_unit_test(test_sliding_window),
		cmocka_unit_test(test_hybrid_small),
		cmocka_unit_test(test_gdn_small),
		cmocka_unit_test(test_mamba1_small),
		cmocka_unit_test(test_jamba_preset),
		cmocka_unit_test(test_hybrid_tp_bytes),
		cmocka_unit_test(test_hybrid_moe_small),
		cmocka_unit_test(test_hybrid_presets),
	};
	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
