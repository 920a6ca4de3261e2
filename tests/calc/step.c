/*
 * tests/calc/step.c -- FLOP counts, op-level roofline times, step time and run totals.
 *
 * FLOPs are pinned to the papers' closed forms (Korthikanti 2022 Eq. 7-8, Narayanan
 * 2021 Eq. 3) evaluated here independently, to the published MFU/HFU of Korthikanti
 * Table 5 and to PaLM App. B's 6N + 12LHQT for a GQA/SwiGLU model.  Per-layer times
 * are checked against Korthikanti Table 4; the fast path against the simulator path
 * and against the pipeline module's closed forms.
 */
#include "testutil.h"
#include "search.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- FLOPs */

/* Korthikanti 2022 Table 3: GPT-3 175B, s = 2048, V = 51200, B = 64 on 64 GPUs. */
static const char *const k175[] = {"model.preset=gpt3-175b", "cluster.preset=dgx-a100-hdr", "cluster.nodes=8",
                                   "parallel.tp=8",          "parallel.pp=8",                "parallel.dp=1",
                                   "training.global_batch=64", "parallel.recompute=selective",
                                   "parallel.schedule=interleaved", "parallel.vpp=3", "training.flash_attention=no",
                                   "efficiency.hfu_count=kor22-eq8"};

/* efficiency.step_overhead adds its seconds to the step and nothing else: the step of the
 * default plan with 0.25 s is the step without plus 0.25 s (the same makespan, DP and
 * optimizer terms), and MFU, tokens per second and the run time follow the longer step
 * (each the same quantity over the step time). */
static void test_step_overhead(void **state)
{
	const char *with[] = {"efficiency.step_overhead=0.25"};
	struct calc_plan *p = malloc(sizeof *p), *q = malloc(sizeof *q);
	struct calc_step *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	struct calc_diag d = {0};
	load_plan(p, NULL, 0);
	load_plan(q, with, 1);
	assert_int_equal(calc_step(p, a, &d), 0);
	assert_int_equal(calc_step(q, b, &d), 0);
	assert_true(a->overhead == 0);
	assert_true(b->overhead == 0.25);
	assert_true(b->makespan == a->makespan && b->dp_exposed == a->dp_exposed && b->optimizer == a->optimizer);
	assert_near(b->time, a->time + 0.25, 1e-12);
	assert_near(b->mfu, a->mfu * a->time / b->time, 1e-12);
	assert_near(b->tokens_per_s, a->tokens_per_s * a->time / b->time, 1e-12);
	assert_near(b->run_time, a->run_time * b->time / a->time, 1e-12);
	free(p);
	free(q);
	free(a);
	free(b);
}

static void test_flops_eq7_eq8(void **state)
{
	struct calc_plan p;
	struct calc_flops f;
	double B = 64, L = 96, s = 2048, h = 12288, V = 51200;

	load_plan(&p, k175, sizeof k175 / sizeof k175[0]);
	calc_flops(&p, &f);
	/* Eq. 7: 72 B L s h^2 (1 + s/(6h) + V/(12 h L)) = 1.41103e17 */
	assert_near(f.model, 72 * B * L * s * h * h * (1 + s / (6 * h) + V / (12 * h * L)), 1e-12);
	/* Eq. 8 (selective recomputation): 72 B L s h^2 (1 + s/(3h) + V/(12 h L)) */
	assert_near(f.hardware, 72 * B * L * s * h * h * (1 + s / (3 * h) + V / (12 * h * L)), 1e-12);
	/* The published figures agree: Table 5 gives 13.75 s at MFU 51.4% and HFU 52.8% on
	 * 64 A100 (312 TFLOP/s), so model FLOPs = 0.514 * 312e12 * 64 * 13.75 = 1.4112e17
	 * and hardware FLOPs = 0.528 * 312e12 * 64 * 13.75 = 1.4497e17 (rounding of the
	 * published percentages: < 0.2%). */
	assert_near(f.model, 0.514 * 312e12 * 64 * 13.75, 2e-3);
	assert_near(f.hardware, 0.528 * 312e12 * 64 * 13.75, 2e-3);
}

static void test_flops_eq7_22b(void **state)
{
	/* Korthikanti Table 3/5: 22B (h 6144, 48 layers, 64 heads), B = 4, 8 GPUs, 1.10 s at
	 * MFU 41.5%: 0.415 * 312e12 * 8 * 1.10 = 1.1394e15; Eq. 7 gives 1.1436e15 (the
	 * published MFU is rounded to 0.1 point, 0.24% of 41.5). */
	const char *s[] = {"model.preset=kor22-22b", "cluster.preset=dgx-a100-hdr", "cluster.nodes=1",
	                   "parallel.tp=8", "parallel.pp=1", "parallel.dp=1", "training.global_batch=4",
	                   "training.micro_batch=4"};
	struct calc_plan p;
	struct calc_flops f;
	double B = 4, L = 48, sl = 2048, h = 6144, V = 51200;

	load_plan(&p, s, 8);
	calc_flops(&p, &f);
	assert_near(f.model, 72 * B * L * sl * h * h * (1 + sl / (6 * h) + V / (12 * h * L)), 1e-12);
	assert_near(f.model, 0.415 * 312e12 * 8 * 1.10, 5e-3);
}

static void test_flops_eq3(void **state)
{
	/* Narayanan 2021 Eq. 3 (full recomputation) for the 1T model of Table 1: l = 128,
	 * h = 25600, B = 3072, s = 2048, V = 51200:
	 * F = 96 B s l h^2 (1 + s/(6h) + V/(16 l h)). */
	const char *s[] = {"model.preset=nar21-1t", "cluster.preset=dgx-a100-hdr", "cluster.nodes=384",
	                   "parallel.tp=8", "parallel.pp=64", "parallel.dp=6", "training.global_batch=3072",
	                   "parallel.recompute=full", "training.flash_attention=no"};
	struct calc_plan p;
	struct calc_flops f;
	double B = 3072, l = 128, sl = 2048, h = 25600, V = 51200;

	load_plan(&p, s, 9);
	calc_flops(&p, &f);
	assert_near(f.hardware, 96 * B * sl * l * h * h * (1 + sl / (6 * h) + V / (16 * l * h)), 1e-12);
	/* and the model FLOPs are Eq. 7 of the same model: hardware / model = 4/3 on the
	 * layers, 1 on the logits */
	assert_near(f.model, 72 * B * l * sl * h * h * (1 + sl / (6 * h) + V / (12 * h * l)), 1e-12);
}

/* Hardware FLOPs as executed (efficiency.hfu_count = executed, the default), per token
 * over the model FLOPs, for the GPT-3 175B plan of Korthikanti Table 3 (L = 96,
 * h = 12288, s = 2048; A = 4 s h = 100,663,296 FLOP per layer for QK^T and attention x
 * V over the full square, G = 24 h^2 = 3,623,878,656 for the GEMMs):
 *   none, no FlashAttention       +0
 *   selective, no FlashAttention  +L A      (the attention core's forward again)
 *   none or selective with flash  +L A / 2  (FlashAttention's backward recomputes QK^T)
 *   full, no flash                +L (G + A) (one more forward: Narayanan Eq. 3)
 *   full with flash               +L (G + A + A/2)
 * so full always charges more than none + FlashAttention. */
static void test_flops_executed(void **state)
{
	static const char *const modes[][2] = {{"parallel.recompute=none", "training.flash_attention=no"},
	                                       {"parallel.recompute=selective", "training.flash_attention=no"},
	                                       {"parallel.recompute=none", "training.flash_attention=yes"},
	                                       {"parallel.recompute=selective", "training.flash_attention=yes"},
	                                       {"parallel.recompute=full", "training.flash_attention=no"},
	                                       {"parallel.recompute=full", "training.flash_attention=yes"}};
	double L = 96, h = 12288, sl = 2048, A = 4 * sl * h, G = 24 * h * h, tok = 64 * sl;
	double want[] = {0, L * A, L * A / 2, L * A / 2, L * (G + A), L * (G + A + A / 2)};
	struct calc_plan p;
	struct calc_flops f;

	for (int i = 0; i < 6; i++) {
		const char *s[] = {k175[0], k175[1], k175[2], k175[3], k175[4], k175[5], k175[6], modes[i][0], modes[i][1]};
		load_plan(&p, s, 9);
		calc_flops(&p, &f);
		assert_near((f.hardware - f.model) / tok + 1, want[i] + 1, 1e-9);
	}
}

static void test_flops_gqa_swiglu(void **state)
{
	/* Llama 3 70B (80 layers, h 8192, 64 heads of 128, 8 KV heads, SwiGLU f 28672,
	 * V 128256, untied).  PaLM App. B (as nanoGPT's estimate_mfu implements it): model
	 * FLOPs per token = 6N + 12 L H Q T with N the parameters that multiply: per layer
	 * Q and O 2 * 8192 * 8192, K and V 2 * 8192 * 1024, MLP 3 * 8192 * 28672 =
	 * 855,638,016; the LM head 128256 * 8192 = 1,050,673,152 (the input lookup does no
	 * multiply-adds); T = s = 2048. */
	const char *s[] = {"model.preset=llama3-70b", "parallel.recompute=none"};
	struct calc_plan p;
	struct calc_flops f;
	double N = 80 * 855638016.0 + 1050673152.0;

	load_plan(&p, s, 2);
	calc_flops(&p, &f);
	assert_near(f.per_token, 6 * N + 12.0 * 80 * 64 * 128 * 2048, 1e-12);
	assert_near(f.model, f.per_token * 1536 * 2048, 1e-12);
}

/* ------------------------------------------------------------- op times */

static void test_roofline(void **state)
{
	const char *cb[] = {"efficiency.gemm=0.5"};
	const char *mb[] = {"efficiency.gemm=0.5", "training.seq_len=1"};
	struct calc_plan p;
	struct calc_comm c;
	struct calc_layer_time lt;
	double h = 10240;

	/* Compute bound: dense-100b, b = 1, s = 2048, t = 8: the four GEMMs do 24 b s h^2 / t
	 * FLOPs (Narayanan App.) at 0.5 x 989 TFLOP/s (H100 SXM dense BF16, docs/references.md §6),
	 * less the tile and wave quantization of 128 x 128 tiles on 132 SMs (NVIDIA "Matrix
	 * Multiplication Background"): M = 2048 tokens = 16 tiles;
	 *   QKV      N = 3h/8 = 3840: 16 x 30 = 480 tiles, 4 waves = 528 slots, used 480/528
	 *   out-proj N = h = 10240:   16 x 80 = 1280 tiles, 10 waves = 1320 slots
	 *   up       N = 4h/8 = 5120: 16 x 40 = 640 tiles, 5 waves = 660 slots
	 *   down     N = h:           1280 / 1320 as out-proj.
	 * FLOPs 2 M N K with K = h, h/8, h, 4h/8. */
	load_plan(&p, cb, 1);
	calc_comm(&p, &c);
	calc_layer_time(&p, &c, &lt);
	assert_near(lt.gemm,
	            2 * 2048 * h * (3840 * 528 / 480.0 + 1280 * 1320 / 1280.0 + 5120 * 660 / 640.0 + 5120 * 1320 / 1280.0) /
	                (989e12 * 0.5),
	            1e-12);
	/* without SMs to fill (sms = 0) the plain roofline: 24 b s h^2 / t */
	p.gpu.sms = 0;
	calc_layer_time(&p, &c, &lt);
	assert_near(lt.gemm, 24 * 2048 * h * h / 8 / (989e12 * 0.5), 1e-12);
	assert_near(lt.w, lt.gemm, 1e-12); /* wgrad = forward GEMMs */

	/* Memory bound: one token.  Each GEMM reads its weight (K x N) and moves the M x K
	 * input and M x N output, 2 B each: weights 12 h^2 / 8 * 2 = 314,572,800 B; the
	 * token rows (h + 3h/8) + (h/8 + h) + (h + h/2) + (h/2 + h) = 56,320 values =
	 * 112,640 B; at 3.35 TB/s (H100 SXM HBM3). */
	load_plan(&p, mb, 2);
	calc_comm(&p, &c);
	calc_layer_time(&p, &c, &lt);
	assert_near(lt.gemm, (314572800.0 + 112640.0) / 3.35e12, 1e-12);
}

/* step.c keeps the last inputs and time of each layer GEMM call site (gemm_time_at):
 * plans that alternate in one GEMM input each must still get their own roofline.  The
 * hand values of test_roofline (dense-100b, b 1, s 2048, t 8, 0.5 x 989 TFLOP/s H100 SXM
 * dense BF16, 132 SMs): 'waves' with the tile and wave quantization, 'plain' without SMs
 * (sms = 0); efficiency.gemm 0.25 halves the rate (twice 'waves'); b 2 doubles the rows
 * and every tile count with them (QKV 960 tiles in 8 waves of 132 = 1056 slots, the same
 * share as 480 / 528; out-proj and down 2560 / 2640, up 1280 / 1320): twice 'waves'.
 * One token (s 1) is memory bound, (314,572,800 + 112,640) B at 3.35 TB/s H100 SXM HBM3,
 * twice that at half the bandwidth.  The LM head, T x V/t x h = 2048 x 51200/8 x 10240
 * at the same rate (800 tiles in 924 slots), doubles with the halved rate as well. */
static void test_gemm_memo_alternating(void **state)
{
	const char *cb[] = {"efficiency.gemm=0.5"};
	const char *mb[] = {"efficiency.gemm=0.5", "training.seq_len=1"};
	struct calc_plan p, q, r;
	struct calc_comm c;
	struct calc_layer_time lt;
	struct calc_step_compute *pre = malloc(sizeof *pre);
	double h = 10240, head = -1;
	double waves = 2 * 2048 * h * (3840 * 528 / 480.0 + 1280 * 1320 / 1280.0 + 5120 * 660 / 640.0 +
	                               5120 * 1320 / 1280.0) / (989e12 * 0.5);
	double plain = 24 * 2048 * h * h / 8 / (989e12 * 0.5), bytes = (314572800.0 + 112640.0) / 3.35e12;

	load_plan(&p, cb, 1);
	load_plan(&r, mb, 2);
	calc_comm(&p, &c);
	for (int i = 0; i < 15; i++) {
		double want = waves;
		q = i % 5 == 4 ? r : p;
		if (i % 5 == 1)
			q.gpu.sms = 0, want = plain;
		else if (i % 5 == 2)
			q.gemm_eff = 0.25, want = 2 * waves;
		else if (i % 5 == 3)
			q.micro_batch = 2, want = 2 * waves;
		else if (i % 5 == 4)
			q.gpu.hbm_bw = i % 2 ? 3.35e12 / 2 : 3.35e12, want = i % 2 ? 2 * bytes : bytes;
		calc_layer_time(&q, &c, &lt);
		assert_near(lt.gemm, want, 1e-12);
		if (i % 5 == 0 || i % 5 == 2) {
			calc_step_compute(&q, pre);
			if (i % 5 == 0)
				head = pre->ends.last_w;
			else /* the head of the halved rate after the default's and before it again */
				assert_near(pre->ends.last_w, 2 * head, 1e-12);
			/* 16 x 50 = 800 tiles in 7 waves of 132 SMs = 924 slots */
			assert_near(head, 2 * 2048 * 6400 * h / (989e12 * 0.5) * 924 / 800, 1e-12);
		}
	}
	free(pre);
	(void)state;
}

/* The stage costs of an uneven split, each stage n_i layers (48 layers of kor22-22b over
 * 5 stages: 10, 10, 10, 9, 9, the remainder on the first stages) times one layer's
 * times with its collectives, plus the embedding on the first stage and the LM head
 * with its loss on the last: summed here stage by stage, against the simulator's costs
 * (step.c costs each distinct middle stage once and copies it to the stages alike). */
static void test_uneven_stage_costs(void **state)
{
	const char *s[] = {"model.preset=kor22-22b", "cluster.preset=dgx-a100-hdr", "cluster.nodes=5", "parallel.tp=8",
	                   "parallel.pp=5", "parallel.dp=1", "training.global_batch=8", "parallel.recompute=none",
	                   "parallel.schedule=1f1b", "parallel.split=remainder-first"};
	static const int want_n[5] = {10, 10, 10, 9, 9};
	struct calc_plan p;
	struct calc_comm cm;
	struct calc_layer_time lt;
	struct calc_step_compute *pre = malloc(sizeof *pre);
	struct calc_pp_costs *c = malloc(sizeof *c);
	struct calc_pp_result r;
	struct calc_diag d = {0};

	load_plan(&p, s, 10);
	calc_comm(&p, &cm);
	calc_layer_time(&p, &cm, &lt);
	calc_step_compute(&p, pre);
	assert_int_equal(calc_step_stages(&p, c, &r, &d), 0);
	calc_pp_result_free(&r);
	assert_int_equal(c->p, 5);
	for (int i = 0; i < 5; i++) {
		const struct calc_step_ends *e = &pre->ends;
		double n = want_n[i], f = n * (lt.f + lt.comm_f), b = n * (lt.b + lt.comm_b), w = n * lt.w;
		assert_int_equal(p.layers_per_stage[i], want_n[i]);
		if (i == 0)
			f += e->first_f, b += e->first_b, w += e->first_w;
		if (i == 4)
			f += e->last_f, b += e->last_b, w += e->last_w;
		assert_near(c->tf[i], f, 1e-12);
		assert_near(c->tb[i], b, 1e-12);
		assert_near(c->tw[i], w, 1e-12);
	}
	calc_diag_free(&d);
	free(pre);
	free(c);
	(void)state;
}

/* DualPipe's critical GPU on an uneven split: kor22-22b's 48 layers over 10 stages,
 * remainder-first 5 x 8 then 4 x 2, so rank r runs stages r and 9 - r: rank 0 the
 * embedding with 5 layers and the head with 4, rank 1 5 + 4 layers, ranks 2 .. 4 5 + 5.
 * Its busy time without collectives is m times the larger pair mean of F + B + W, summed
 * here from one layer's times and the two ends (DeepSeek-V3 §3.2.1: a rank runs each of
 * its two stages for half the micro-batches).  Ranks 3 and 4 repeat rank 2's stages,
 * which step.c does not cost again. */
static void test_dualpipe_uneven_busy(void **state)
{
	const char *s[] = {"model.preset=kor22-22b", "cluster.preset=dgx-a100-hdr", "cluster.nodes=10", "parallel.tp=8",
	                   "parallel.pp=10", "parallel.dp=1", "training.global_batch=40", "parallel.recompute=none",
	                   "parallel.schedule=dualpipe", "parallel.split=remainder-first"};
	struct calc_plan p;
	struct calc_step *st = malloc(sizeof *st);
	struct calc_step_compute *pre = malloc(sizeof *pre);
	struct calc_comm_pre *cp = malloc(sizeof *cp);
	struct calc_step_busy busy;
	double want = 0, m = 40, rank0 = 0;

	load_plan(&p, s, 10);
	calc_step_compute(&p, pre);
	calc_comm_pre(&p, cp);
	pre->comm = cp;
	calc_step_fast_busy(&p, pre, st, &busy);
	for (int r = 0; r < 5; r++) {
		const struct calc_layer_time *lt = &pre->kind[0];
		const struct calc_step_ends *e = &pre->ends;
		double n = (r < 8 ? 5 : 4) + (9 - r < 8 ? 5 : 4), one = lt->f + lt->b + lt->w;
		double t = n * one / 2; /* the pair's layers, each stage half the micro-batches */
		if (r == 0)
			t += (e->first_f + e->first_b + e->first_w + e->last_f + e->last_b + e->last_w) / 2, rank0 = m * t;
		if (m * t > want)
			want = m * t;
	}
	assert_near(busy.busy, want, 1e-12);
	/* a rank of 5 + 5 layers is critical here, above rank 0's 9 layers and both ends */
	assert_true(want > rank0);
	free(st);
	free(pre);
	free(cp);
	(void)state;
}

/* The forward GEMM time of one layer [s] of the default plan with 'sets', without wave
 * quantization (gpu.sms = 0); the plan is left in *p. */
static double layer_gemm_nowave(struct calc_plan *p, const char **sets, int n)
{
	struct calc_comm c;
	struct calc_layer_time lt;
	load_plan(p, sets, n);
	p->gpu.sms = 0;
	calc_comm(p, &c);
	calc_layer_time(p, &c, &lt);
	return lt.gemm;
}

/* efficiency.gemm_basis = achievable: efficiency.gemm is a share of the GPU's measured
 * maximum achievable matmul rate (MAMF) rather than of the datasheet peak.  The MAMF
 * values are stas00/ml-engineering compute/accelerator/README.md, "Maximum Achievable
 * Matmul FLOPS comparison table": H100 SXM 794.5 TFLOP/s BF16 and 1,402.6 FP8, A100 SXM
 * 271.2 BF16.  The layer of test_roofline (dense-100b, b = 1, s = 2048, t = 8; 24 b s
 * h^2 / t GEMM FLOPs, no wave quantization with sms = 0) at 0.5 of each. */
static void test_gemm_basis(void **state)
{
	const char *h1[] = {"efficiency.gemm=0.5", "efficiency.gemm_basis=achievable"};
	const char *f8[] = {"efficiency.gemm=0.5", "efficiency.gemm_basis=achievable", "training.recipe=fp8-te"};
	const char *a1[] = {"efficiency.gemm=0.5", "efficiency.gemm_basis=achievable", "cluster.gpu=a100-80g"};
	const char *pk[] = {"efficiency.gemm=0.5", "efficiency.gemm_basis=peak", "cluster.gpu=a100-80g"};
	struct calc_plan p;
	double h = 10240, fl = 24 * 2048 * h * h / 8;

	assert_near(layer_gemm_nowave(&p, h1, 2), fl / (794.5e12 * 0.5), 1e-12);
	assert_near(layer_gemm_nowave(&p, f8, 3), fl / (1402.6e12 * 0.5), 1e-12);
	assert_near(layer_gemm_nowave(&p, a1, 3), fl / (271.2e12 * 0.5), 1e-12);
	/* the datasheet basis: A100's 312 TFLOP/s dense BF16 */
	assert_near(layer_gemm_nowave(&p, pk, 3), fl / (312e12 * 0.5), 1e-12);

	/* a second method through the whole step (head, loss, pipeline, DP): 0.7 of the
	 * H100's 989 TFLOP/s is 0.7 x 989 / 794.5 of its achievable rate, the same GEMM rate,
	 * so the same step to rounding */
	{
		char eff[64];
		const char *pe[] = {"efficiency.gemm=0.7"};
		const char *ac[] = {eff, "efficiency.gemm_basis=achievable"};
		struct calc_step *sa = malloc(sizeof *sa), *sb = malloc(sizeof *sb);
		struct calc_diag d = {0};
		snprintf(eff, sizeof eff, "efficiency.gemm=%.17g", 0.7 * 989 / 794.5);
		load_plan(&p, pe, 1);
		assert_int_equal(calc_step(&p, sa, &d), 0);
		load_plan(&p, ac, 2);
		assert_int_equal(calc_step(&p, sb, &d), 0);
		assert_near(sb->time, sa->time, 1e-12 * sa->time);
		assert_near(sb->mfu, sa->mfu, 1e-12);
		calc_diag_free(&d);
		free(sa);
		free(sb);
	}
}

/* One GEMM efficiency per precision on Blackwell (calc/presets.c, docs/references.md §5.9):
 * the layer of test_gemm_basis (24 b s h^2 / t FLOPs, no wave quantization) at the dense
 * peaks of the datasheets (HGX B200: BF16 2,250 / FP8 4,500 TFLOP/s; GB200: 2,500 / 5,000)
 * times the preset's share.  The FP8 shares are the calibrate fits (tests/cli/
 * calibrate-b200.*, calibrate-gb200.*: 0.5441 and 0.4857, taken as 0.544 and 0.486); the BF16
 * shares are derived here
 * from the MAMF table (ml-engineering: B200 BF16 1,745.0 / FP8 3,432.5, GB200 1,822.0 /
 * 3,615.6 TFLOP/s) as the same share of the achievable rate, rounded to two places. */
static void test_gemm_per_precision(void **state)
{
	const char *b16[] = {"cluster.preset=hgx-b200-ndr", "training.recipe=megatron"};
	const char *b8[] = {"cluster.preset=hgx-b200-ndr", "training.recipe=fp8-params"};
	const char *g16[] = {"cluster.preset=gb200-nvl72", "cluster.gpus_per_node=8", "training.recipe=megatron"};
	const char *g8[] = {"cluster.preset=gb200-nvl72", "cluster.gpus_per_node=8", "training.recipe=fp8-params"};
	const char *one[] = {"cluster.preset=hgx-b200-ndr", "training.recipe=fp8-params", "efficiency.gemm=0.6"};
	const char *two[] = {"cluster.preset=hgx-b200-ndr", "training.recipe=fp8-params", "efficiency.gemm=0.6",
	                     "efficiency.gemm_fp8=0.7"};
	const char *h8[] = {"training.recipe=fp8-params"};
	/* GB300: the FP8 share fitted (tests/cli/calibrate-gb300.*: 0.6326), the BF16 share
	 * derived with GB200's MAMF ratios (calc/presets.c; docs/references.md §7.7) */
	const char *u16[] = {"cluster.preset=gb300-nvl72", "cluster.gpus_per_node=8", "training.recipe=megatron"};
	const char *u8[] = {"cluster.preset=gb300-nvl72", "cluster.gpus_per_node=8", "training.recipe=fp8-params"};
	struct calc_plan p;
	double h = 10240, fl = 24 * 2048 * h * h / 8;
	double b200_16 = round(100 * 0.5441 * 4500 / 3432.5 * 1745.0 / 2250) / 100;
	double gb200_16 = round(100 * 0.4857 * 5000 / 3615.6 * 1822.0 / 2500) / 100;
	double gb300_16 = round(100 * 0.6326 * 5000 / 3615.6 * 1822.0 / 2500) / 100;
	double tb8, tg8;
	(void)state;

	assert_near(b200_16, 0.55, 1e-12);
	assert_near(gb200_16, 0.49, 1e-12);
	assert_near(gb300_16, 0.64, 1e-12);
	assert_near(layer_gemm_nowave(&p, u16, 3), fl / (2500e12 * gb300_16), 1e-12);
	assert_near(layer_gemm_nowave(&p, u8, 3), fl / (5000e12 * 0.633), 1e-12);
	assert_near(layer_gemm_nowave(&p, b16, 2), fl / (2250e12 * b200_16), 1e-12);
	tb8 = layer_gemm_nowave(&p, b8, 2);
	assert_near(tb8, fl / (4500e12 * 0.544), 1e-12);
	assert_near(layer_gemm_nowave(&p, g16, 3), fl / (2500e12 * gb200_16), 1e-12);
	tg8 = layer_gemm_nowave(&p, g8, 3);
	assert_near(tg8, fl / (5000e12 * 0.486), 1e-12);
	/* a GB200 is no longer 1.46 B200s in FP8 GEMMs: within 10 % of one */
	assert_true(tb8 / tg8 < 1.1 && tb8 / tg8 > 0.9);
	/* efficiency.gemm alone holds for every GEMM; efficiency.gemm_fp8 for the FP8 ones */
	assert_near(layer_gemm_nowave(&p, one, 3), fl / (4500e12 * 0.6), 1e-12);
	assert_near(layer_gemm_nowave(&p, two, 4), fl / (4500e12 * 0.7), 1e-12);
	two[1] = "training.recipe=megatron";
	assert_near(layer_gemm_nowave(&p, two, 4), fl / (2250e12 * 0.6), 1e-12);
	/* Hopper: the BF16 share fitted (tests/cli/calibrate-h100.*: 0.6981, taken as 0.70), the
	 * FP8 share derived from it by the same rule, by the MAMF table's H100 SXM rates (BF16
	 * 794.5 of 989, FP8 1,402.6 of 1,979 TFLOP/s dense; the H800 takes the H100 SXM row) and
	 * H200's FP8 rate (1,453.4; BF16 "the same" as H100) */
	double h100_8 = round(100 * 0.6981 * 989 / 794.5 * 1402.6 / 1979) / 100;
	double h200_8 = round(100 * 0.6981 * 989 / 794.5 * 1453.4 / 1979) / 100;
	const char *h16[] = {"training.recipe=megatron"};
	const char *e8[] = {"training.recipe=fp8-params", "cluster.gpu=h800-80g"};
	const char *r8[] = {"training.recipe=fp8-params", "cluster.gpu=h200-141g"};
	const char *c8[] = {"training.recipe=fp8-params", "cluster.gpu=h100-pcie-80g"};
	assert_near(h100_8, 0.62, 1e-12);
	assert_near(h200_8, 0.64, 1e-12);
	assert_near(layer_gemm_nowave(&p, h16, 1), fl / (989e12 * 0.70), 1e-12);
	assert_near(layer_gemm_nowave(&p, h8, 1), fl / (1979e12 * h100_8), 1e-12);
	assert_near(layer_gemm_nowave(&p, e8, 2), fl / (1979e12 * h100_8), 1e-12);
	assert_near(layer_gemm_nowave(&p, r8, 2), fl / (1979e12 * h200_8), 1e-12);
	/* a GPU without a measured matmul rate (H100 PCIe) keeps one share for both:
	 * its datasheet's dense FP8 1,513 TFLOP/s at the BF16 fit */
	assert_near(layer_gemm_nowave(&p, c8, 2), fl / (1513e12 * 0.70), 1e-12);
	/* the plan's efficiency.gemm alone still sets the H100's FP8 GEMMs too */
	{
		const char *o8[] = {"training.recipe=fp8-params", "efficiency.gemm=0.70"};
		assert_near(layer_gemm_nowave(&p, o8, 2), fl / (1979e12 * 0.70), 1e-12);
	}
	/* MXFP8 at the FP8 peak, NVFP4 at the FP4 peak (HGX B200: 72 PFLOP/s dense FP4 per 8
	 * GPUs), both at the FP8 share (docs/references.md §2.11: no FP4 fit) */
	const char *mx[] = {"cluster.preset=hgx-b200-ndr", "training.recipe=mxfp8"};
	const char *nv[] = {"cluster.preset=hgx-b200-ndr", "training.recipe=nvfp4"};
	assert_near(layer_gemm_nowave(&p, mx, 2), fl / (4500e12 * 0.544), 1e-12);
	assert_near(layer_gemm_nowave(&p, nv, 2), fl / (72e15 / 8 * 0.544), 1e-12);
}

/* Korthikanti 2022 Table 4: one layer of the 22B model on 8 A100 (TP 8, b = 4,
 * s = 2048, no FlashAttention): forward 7.7 ms, backward 11.9 ms without recomputation;
 * 7.2 ms forward with SP; 27.2 ms combined with full recomputation.  The op-level model
 * with GEMMs at 75% of peak and NCCL 195 GB/s must land within 10% (tolerance: the
 * model has two efficiency knobs, not a kernel list). */
static void test_layer_kor22_table4(void **state)
{
	const char *base[] = {"model.preset=kor22-22b", "cluster.preset=dgx-a100-hdr", "cluster.nodes=1",
	                      "parallel.tp=8", "parallel.pp=1", "parallel.dp=1", "training.global_batch=4",
	                      "training.micro_batch=4", "training.flash_attention=no", "efficiency.gemm=0.75",
	                      "efficiency.tp_overlap=0", "parallel.sp=no", "parallel.recompute=none"};
	const char *sets[14];
	struct calc_plan p;
	struct calc_comm c;
	struct calc_layer_time lt;

	load_plan(&p, base, 13);
	calc_comm(&p, &c);
	calc_layer_time(&p, &c, &lt);
	assert_near(lt.f + lt.comm_f, 7.7e-3, 0.10);
	assert_near(lt.b + lt.w + lt.comm_b, 11.9e-3, 0.10);

	memcpy(sets, base, sizeof base);
	sets[11] = "parallel.sp=yes";
	load_plan(&p, sets, 13);
	calc_comm(&p, &c);
	calc_layer_time(&p, &c, &lt);
	assert_near(lt.f + lt.comm_f, 7.2e-3, 0.10);

	sets[11] = "parallel.sp=no";
	sets[12] = "parallel.recompute=full";
	load_plan(&p, sets, 13);
	calc_comm(&p, &c);
	calc_layer_time(&p, &c, &lt);
	assert_near(lt.f + lt.comm_f + lt.b + lt.w + lt.recompute + lt.comm_b, 27.2e-3, 0.10);
}

/* ------------------------------------------------------------- step */

/* training.offload_style = zero-offload (DeepSpeed's ZeRO-Offload, docs/references.md
 * §2.13): the whole rank's optimizer on the host, fp16 gradients down and fp16 parameters
 * up, 2 + 2 bytes per parameter (Ren et al. 2021 §3.3's 4M), against Megatron's recipe
 * bytes (fp32 gradient 4 + bf16 weight 2); by hand for Llama 3 8B on 8 H100 at ZeRO-1:
 * n = 8,030,261,248 / 8 parameters a rank, PCIe Gen5 64e9 bytes/s, a host step of 1e9
 * parameters per second. */
static void test_zero_offload_time(void **state)
{
	const double n = 8030261248.0 / 8;
	const char *s[] = {"model.preset=llama3-8b", "cluster.preset=dgx-h100-ndr", "cluster.nodes=1", "tp=1", "pp=1",
	                   "dp=8", "zero=1", "recipe=megatron", "cluster.cpu_optimizer_rate=1e9",
	                   "training.offload_optimizer=1", "training.offload_style=zero-offload"};
	struct calc_plan p;
	struct calc_step *st0 = calloc(1, sizeof *st0), *st1 = calloc(1, sizeof *st1);
	struct calc_diag d = {0};
	(void)state;
	load_plan(&p, s, 10);
	assert_int_equal(calc_step(&p, st0, &d), 0);
	assert_near(st0->optimizer, n * 6 / 64e9 + n / 1e9, 1e-9); /* megatron: nothing on the GPU */
	load_plan(&p, s, 11);
	assert_int_equal(calc_step(&p, st1, &d), 0);
	assert_near(st1->optimizer, n * 4 / 64e9 + n / 1e9, 1e-9);
	assert_near(st0->time - st1->time, n * 2 / 64e9, 1e-6);
	free(st0);
	free(st1);
	calc_diag_free(&d);
}

/* parallel.cp_comm's overlap (docs/references.md §4.7), tp_overlap 0 so the TP part is
 * charged whole: each of the ring's sends (p2p) hides behind the attention of its own
 * step, 1/cp of the pass's attention core (TE AttnFuncWithCPAndKVP2P: step i sends what
 * step i + 1 needs while attending to its chunk; every step the same query-key pairs under
 * the causal load balancing), what exceeds it is exposed; the all-to-alls (a2a) are
 * exposed whole.  A 128K-token sequence makes the attention core long (2 x 128K x 128K /
 * cp FLOPs a head): the ring hides completely; at 2K tokens on slow links it does not.
 * The links (test_cp_comm_modes' plan: dense-100b, tp 8, cp 4 at stride 8, every send over
 * the network): a chunk is S / 4 = 2,621,440 B per 2,048 tokens (10 KV heads of 128 a TP
 * rank, K and V in BF16), sent in 6 us + bytes / (link x 0.85). */
static void test_cp_overlap(void **state)
{
	const char *ring[] = {"parallel.cp=4", "parallel.dp=2", "parallel.cp_comm=p2p", "training.seq_len=131072",
	                      "training.global_batch=16"};
	const char *slow[] = {"parallel.cp=4", "parallel.dp=2", "parallel.cp_comm=p2p", "cluster.inter_node_bw=1 GB/s"};
	/* 60K tokens (30 x 2,048): long enough that the whole pass's attention exceeds the
	 * ring's three forward sends, short enough that one step's quarter of it does not
	 * cover one send */
	const char *mid[] = {"parallel.cp=4", "parallel.dp=2", "parallel.cp_comm=p2p", "training.seq_len=61440",
	                     "training.global_batch=16"};
	const char *a2a[] = {"parallel.cp=4", "parallel.dp=4", "parallel.tp=4", "parallel.cp_comm=a2a"};
	const double chunk = 2621440.0;
	struct calc_plan p;
	struct calc_step st;
	struct calc_diag d = {0};
	const struct calc_layer_time *o = &st.layer;
	double p1, p2;

	load_plan(&p, ring, 5);
	assert_int_equal(calc_step(&p, &st, &d), 0);
	assert_true(st.comm.cp_ring_f > 0 && st.comm.cp_ring_f < o->attn / 4 * 3);
	assert_near(o->comm_f, st.comm.tp_layer_f, 1e-12);
	assert_near(o->comm_b, st.comm.tp_layer_b, 1e-12);
	/* the breakdown: every exposed collective is TP's, none CP's */
	assert_near(st.exposed[CALC_DIM_CP], 0, 1e-12);
	assert_near(st.exposed[CALC_DIM_TP], st.tp_comm, 1e-12);
	/* 1 GB/s: a chunk takes 6 us + 2,621,440 / 0.85e9 = 3.090 ms, two 6.174 ms; forward 3
	 * sends each less a quarter of the attention, backward 2 of one chunk and 2 of two,
	 * each less a quarter of the backward's */
	load_plan(&p, slow, 4);
	assert_int_equal(calc_step(&p, &st, &d), 0);
	p1 = 6e-6 + chunk / 0.85e9, p2 = 6e-6 + 2 * chunk / 0.85e9;
	assert_near(st.comm.cp_ring_send1, p1, 1e-9);
	assert_near(st.comm.cp_ring_send2, p2, 1e-9);
	assert_true(p1 > o->attn / 4 && p1 > o->attn_b / 4);
	assert_near(o->comm_f, st.comm.tp_layer_f + 3 * (p1 - o->attn / 4), 1e-9);
	assert_near(o->comm_b, st.comm.tp_layer_b + 2 * (p1 - o->attn_b / 4) + 2 * (p2 - o->attn_b / 4), 1e-9);
	/* 60K tokens on the default link (42.5 GB/s): a chunk of 30 x 2,621,440 B takes 6 us +
	 * 78,643,200 / 42.5e9 = 1.856 ms; the ring's three take less than the forward's
	 * attention, which the earlier rule (the ring's total against the pass's attention)
	 * hid whole, but each more than its step's quarter: 3 (p1 - attn / 4) exposed */
	load_plan(&p, mid, 5);
	assert_int_equal(calc_step(&p, &st, &d), 0);
	p1 = 6e-6 + 30 * chunk / 42.5e9;
	assert_near(st.comm.cp_ring_send1, p1, 1e-9);
	assert_true(3 * p1 < o->attn && p1 > o->attn / 4);
	assert_near(o->comm_f, st.comm.tp_layer_f + 3 * (p1 - o->attn / 4), 1e-9);
	assert_true(st.exposed[CALC_DIM_CP] > 0);
	load_plan(&p, a2a, 4);
	assert_int_equal(calc_step(&p, &st, &d), 0);
	assert_true(st.comm.cp_layer_f > 0);
	assert_near(o->comm_f, st.comm.tp_layer_f + st.comm.cp_layer_f, 1e-12);
	assert_near(o->comm_b, st.comm.tp_layer_b + st.comm.cp_layer_b, 1e-12);
	calc_diag_free(&d);
}

/* Muon (recipe muon, docs/references.md §1.9): 5 Newton-Schulz iterations of 4 s^2 l +
 * 2 s^3 FLOPs on each whole matrix (s, l its short and long side).  dense-100b (GeLU,
 * h = 10240, 80 heads of 128, f = 40960), 10 layers a stage: per layer four 10240 x 10240
 * matrices, 5 x 6 x 10240^3 = 32,212,254,720,000 each, and two 10240 x 40960, 5 x (4 x
 * 10240^2 x 40960 + 2 x 10240^3) = 96,636,764,160,000 each: 322,122,547,200,000 a layer,
 * 3,221,225,472,000,000 a stage, at the BF16 GEMM rate.  SGD with momentum holds the same
 * bytes (14 B), so its optimizer pass is Muon's without the iterations; with tp 1 and
 * ZeRO 0 there is nothing to gather. */
static void test_muon_newton_schulz(void **state)
{
	const char *mu[] = {"training.recipe=muon", "parallel.tp=1", "parallel.zero=0", "parallel.dp=64"};
	const char *sg[] = {"training.recipe=sgd-momentum", "parallel.tp=1", "parallel.zero=0", "parallel.dp=64"};
	const char *mu8[] = {"training.recipe=muon"};
	const char *sg8[] = {"training.recipe=sgd-momentum"};
	struct calc_plan p, q;
	struct calc_step a, b;
	struct calc_diag d = {0};
	double ns = 3221225472000000.0;

	load_plan(&p, mu, 4);
	load_plan(&q, sg, 4);
	assert_int_equal(calc_step(&p, &a, &d), 0);
	assert_int_equal(calc_step(&q, &b, &d), 0);
	assert_near(a.optimizer - b.optimizer, ns / (p.gpu.bf16_flops * p.gemm_eff), 1e-9);
	/* tp 8, ZeRO-1: the gathers over DP and TP come on top */
	load_plan(&p, mu8, 1);
	load_plan(&q, sg8, 1);
	assert_int_equal(calc_step(&p, &a, &d), 0);
	assert_int_equal(calc_step(&q, &b, &d), 0);
	assert_true(a.optimizer - b.optimizer > ns / (p.gpu.bf16_flops * p.gemm_eff));
	/* the bytes: Muon and SGD one FP32 buffer, 2 + 4 + 4 + 4; Adafactor none counted */
	assert_near(calc_recipe_total(calc_recipe_find("muon")), 14, 1e-15);
	assert_near(calc_recipe_total(calc_recipe_find("sgd-momentum")), 14, 1e-15);
	assert_near(calc_recipe_total(calc_recipe_find("adafactor")), 10, 1e-15);
	assert_int_equal(calc_recipe_ns_iters(calc_recipe_find("muon")), 5);
	assert_int_equal(calc_recipe_ns_iters(calc_recipe_find("megatron")), 0);
	calc_diag_free(&d);
}

static void test_breakdown_sums(void **state)
{
	struct calc_plan p;
	struct calc_step st;
	struct calc_diag d = {0};

	load_plan(&p, NULL, 0);
	assert_int_equal(calc_step(&p, &st, &d), 0);
	calc_diag_free(&d);
	/* the six components add up to the step; the pipeline part to the makespan */
	assert_near(st.compute + st.recompute + st.tp_comm + st.bubble, st.makespan, 1e-12);
	assert_near(st.makespan + st.dp_exposed + st.optimizer, st.time, 1e-12);
	/* MFU = model FLOPs / (time x GPUs x peak) (PaLM §4) */
	assert_near(st.mfu * 989e12 * 512 * st.time, st.flops.model, 1e-12);
	assert_near(st.hfu / st.mfu, st.flops.hardware / st.flops.model, 1e-12);
	assert_near(st.tokens_per_s, 1536.0 * 2048 / st.time, 1e-12);
	/* 1F1B, m = 192, p = 8: the idle share is near (p-1)/(m+p-1) = 7/199 = 3.5%
	 * (Narayanan §2.2.1); the ends (embedding, LM head) and sends move it slightly. */
	assert_near(st.bubble / st.makespan, 7.0 / 199, 0.15);
}

static void test_run_totals(void **state)
{
	const char *s[] = {"parallel.recompute=full"};
	struct calc_plan p;
	struct calc_step st;
	double steps = 300e9 / (1536.0 * 2048), P = 101190881280.0;

	load_plan(&p, s, 1);
	calc_step_fast(&p, &st);
	assert_near(st.steps, steps, 1e-12);
	assert_near(st.run_time, steps * st.time, 1e-12);
	assert_near(st.gpu_hours, steps * st.time * 512 / 3600, 1e-12);
	assert_near(st.cost, st.gpu_hours * 2.50, 1e-12);
	/* Narayanan Eq. 4: training time ~ 8 T P / (n X) with X the achieved FLOP/s per GPU
	 * counted by Eq. 3; it drops the attention and logit terms (s/(6h) = 3.3% here), so
	 * the two agree within 5%.  P = 101.19e9 (docs/references.md §7.4, dense-100b). */
	assert_near(st.run_time, 8 * 300e9 * P / (512 * st.hw_tflops), 0.05);
}

static void test_overlap_knobs(void **state)
{
	const char *none[] = {"efficiency.dp_overlap=0", "efficiency.tp_overlap=0"};
	const char *all[] = {"efficiency.dp_overlap=1", "efficiency.tp_overlap=1"};
	struct calc_plan p;
	struct calc_step a, b;

	load_plan(&p, none, 2);
	calc_step_fast(&p, &a);
	assert_near(a.dp_exposed, a.comm.dim[CALC_DIM_DP].time, 1e-12);
	assert_true(a.tp_comm > 0);
	load_plan(&p, all, 2);
	calc_step_fast(&p, &b);
	/* hidden whole, the collectives still cost the 8.5 SMs (docs/references.md §4.8)
	 * they take of H100 SXM's 132 (H100 datasheet): 8.5/132 of their time */
	assert_near(b.tp_comm, a.tp_comm * 8.5 / 132, 1e-12);
	/* full overlap hides at most one micro-batch's forward + backward of the stage */
	assert_near(b.dp_exposed, fmax(0, b.comm.dim[CALC_DIM_DP].time - (b.tf + b.tb + b.tw)), 1e-12);
}

/* The fast path's closed-form bubble is the pipeline module's closed form (DualPipe on the
 * mean of the two stages a GPU runs) plus one send
 * each way per boundary; its step time stays within 2% of the simulator's. */
static void test_fast_vs_simulator(void **state)
{
	/* every row of the schedule table (v = 2 where it uses virtual stages), read from
	 * the table so that a new schedule is checked too */
	for (int i = 0; i < CALC_SCHED_N; i++) {
		const struct calc_sched *row = calc_schedule_at(i);
		char sched[48], vpp[32];
		const char *s[] = {sched, vpp, "parallel.recompute=full"};
		const enum calc_schedule id = (enum calc_schedule)i;
		struct calc_plan p;
		struct calc_step fast, full;
		struct calc_pp_closed cf;
		struct calc_diag d = {0};
		int m;

		assert_non_null(row);
		snprintf(sched, sizeof sched, "parallel.schedule=%s", row->name);
		snprintf(vpp, sizeof vpp, "parallel.vpp=%d", row->uses_vpp ? 2 : 1);
		load_plan(&p, s, 3);
		m = calc_plan_microbatches(&p);
		calc_step_fast(&p, &fast);
		assert_int_equal(calc_step(&p, &full, &d), 0);
		calc_diag_free(&d);
		assert_int_equal(p.schedule, id);
		calc_pipeline_closed(id, p.pp, m, p.vpp, fast.tf, fast.tb, fast.tw, &cf);
		assert_near(fast.bubble - 2.0 * (p.pp - 1) * fast.comm.p2p, cf.bubble, 1e-9);
		assert_near(fast.time, full.time, 0.02);
	}
}

/* The planner may hand calc_step_fast a plan with layers_per_stage cleared (even split
 * L/pp): for pp = 8 dividing L = 80 that is the same plan as the filled one. */
static void test_fast_even_default(void **state)
{
	struct calc_plan p;
	struct calc_step a, b;

	load_plan(&p, NULL, 0);
	calc_step_fast(&p, &a);
	memset(p.layers_per_stage, 0, sizeof p.layers_per_stage);
	calc_step_fast(&p, &b);
	assert_near(b.time, a.time, 1e-12);
	assert_near(b.comm.bytes_total, a.comm.bytes_total, 1e-12);
}

/* FP8 recipes: MFU against the dense BF16 peak (docs/references.md §6; Llama 3 reports
 * "BF16 MFU"), a second figure against the FP8 peak; the LM head in BF16 (DeepSeek-V3
 * §3.3.1).  Default plan (H100: BF16 989, FP8 1,979 TFLOP/s; HBM 3.35 TB/s) with the
 * fp8-te recipe. */
static void test_fp8_mfu_and_head(void **state)
{
	const char *s[] = {"training.recipe=fp8-te"};
	struct calc_plan p;
	struct calc_step st;
	double T = 2048, Vt = 51200 / 8.0, h = 10240, lg, ce, head;

	load_plan(&p, s, 1);
	calc_step_fast(&p, &st);
	assert_near(st.peak, 989e12, 1e-12);
	assert_near(st.gemm_peak, 1979e12, 1e-12);
	assert_near(st.mfu, st.model_tflops / 989e12, 1e-12);
	assert_near(st.mfu_fp8, st.model_tflops / 1979e12, 1e-12);
	/* The last stage's forward is 10 layers plus the logits GEMM, T x h x V/t at the
	 * BF16 peak x efficiency.gemm (compute bound: 2 T h V/t = 2.684e11 FLOP over
	 * 989e12 x eff against (T h + h V/t + T V/t) x 2 B = 0.199 GB over 3.35 TB/s =
	 * 59 us), less tile and wave quantization (128 x 128 tiles: 16 x 50 = 800 tiles on
	 * 132 SMs, 7 waves = 924 slots), and the cross-entropy traffic of Megatron-Core's
	 * vocabulary-parallel loss (docs/references.md §5.8): forward 40 B per logit (the
	 * BF16 logits written, cast to FP32, max, subtract, exp, sum, divide), backward 14 B
	 * (scale the softmax, cast back to BF16). */
	assert_int_equal(st.critical, 7);
	lg = 2 * T * Vt * h / (989e12 * p.gemm_eff) * 924 / 800;
	ce = T * (2 + (2 + 4) + 4 + (4 + 4) + (4 + 4) + 4 + (4 + 4)) * Vt / 3350e9;
	head = st.tf - 10 * (st.layer.f + st.layer.comm_f);
	assert_near(head, lg + ce, 1e-9);
	/* the backward: the logits' input gradient (a GEMM as large as the forward's) and
	 * (4 + 4) + (4 + 2) = 14 B per logit of loss backward */
	ce = T * ((4 + 4) + (4 + 2)) * Vt / 3350e9;
	head = st.tb - 10 * (st.layer.b + st.layer.recompute + st.layer.comm_b);
	assert_near(head, lg + ce, 1e-9);
}

/* ZB-H2's zero bubble needs steps back to back, the optimizer's global checks
 * validated afterwards (Qi et al. 2024 §4, post-validation).  With a flush between
 * steps the last stage cannot start before p-1 forwards: (p-1) max(F, F+B-2W). */
static void test_zbh2_flush(void **state)
{
	const char *flush[] = {"parallel.schedule=zb-h2"};
	const char *post[] = {"parallel.schedule=zb-h2", "parallel.post_validation=yes"};
	struct calc_plan p;
	struct calc_step *fa = malloc(sizeof *fa), *sa = malloc(sizeof *sa);
	struct calc_step *fb = malloc(sizeof *fb), *sb = malloc(sizeof *sb);
	struct calc_pp_costs *c = calloc(1, sizeof *c);
	struct calc_pp_result r;
	struct calc_diag d = {0};

	/* The simulator on unit costs, p = 4, m = 8: one flushed step idles (p-1) F = 3
	 * per stage (F + B - 2W = 0); two steps back to back reach the paper's 0 bubble in
	 * the steady-state period: 8 x 3 = 24. */
	c->sched = CALC_SCHED_ZBH2, c->p = 4, c->m = 8, c->v = 1, c->steps = 1;
	for (int i = 0; i < 4; i++)
		c->tf[i] = c->tb[i] = c->tw[i] = 1;
	memset(&r, 0, sizeof r);
	assert_int_equal(calc_pipeline_simulate(c, &r, &d), 0);
	assert_near(r.makespan, 24 + 3, 1e-12);
	calc_pp_result_free(&r);
	c->steps = 2;
	memset(&r, 0, sizeof r);
	assert_int_equal(calc_pipeline_simulate(c, &r, &d), 0);
	assert_near(r.period, 24, 1e-12);
	calc_pp_result_free(&r);

	/* Default plan (p = 8): flushed, the fast path charges 7 max(F, F+B-2W) plus the
	 * sends on the fill and drain; the simulator agrees within 2%. */
	load_plan(&p, flush, 1);
	calc_step_fast(&p, fa);
	assert_int_equal(calc_step(&p, sa, &d), 0);
	assert_near(fa->bubble, 7 * fmax(fa->tf, fa->tf + fa->tb - 2 * fa->tw) + 14 * fa->comm.p2p, 1e-12);
	assert_near(fa->time, sa->time, 0.02);
	/* post-validation on: the paper's (p-1)(F+B-2W), at least 0, and the simulator's
	 * steady-state period */
	load_plan(&p, post, 2);
	calc_step_fast(&p, fb);
	assert_int_equal(calc_step(&p, sb, &d), 0);
	assert_near(fb->bubble, 7 * fmax(0, fb->tf + fb->tb - 2 * fb->tw) + 14 * fb->comm.p2p, 1e-12);
	assert_near(fb->time, sb->time, 0.02);
	assert_true(sa->time > sb->time);
	calc_diag_free(&d);
	free(c), free(fa), free(sa), free(fb), free(sb);
}

/* Efficiencies come from the GPU preset unless the plan sets them (presets.c): A100
 * 0.73 / 0.50, H100 0.70 / 0.35 (GEMMs fitted on the calibrating Megatron validation rows,
 * tests/cli/calibrate-h100.*; attention from FlashAttention-3's abstract, 35 %)
 * (docs/references.md §7.7; the refit is tests/calc/calibrate.c).  Held out of that fit:
 * Touvron et al. 2023 Table 2 give 1,720,320 A100-80GB GPU-hours for Llama 2 70B on 2T
 * tokens; plans/llama2-70b-a100.ini's split must predict fewer (the published total also
 * holds restarts and evaluation, so the model may only be faster), and no fewer than the
 * GPUs would need at their full dense peak: 6 N D / (312 TFLOP/s x 3600 s) with N the
 * model's parameters and D = 2e12 tokens (Kaplan et al. 2020 §2.1's 6 N per token; a bound
 * from the hardware, not from the published figure).  The GPU-hours are the steps (2e12 /
 * (1024 x 4096)) times the step time times 1,024 GPUs.  The row's error itself is reported,
 * held out, by `trainplan validate` (-18.2% with the fitted 0.73). */
static void test_efficiency_presets(void **state)
{
	const char *a100[] = {"cluster.preset=dgx-a100-hdr"};
	const char *set[] = {"cluster.preset=dgx-a100-hdr", "efficiency.gemm=0.6"};
	const char *l2[] = {"model.preset=llama2-70b", "cluster.preset=dgx-a100-hdr", "cluster.nodes=128",
	                    "training.seq_len=4096", "training.global_batch=1024", "training.tokens=2e12",
	                    "parallel.tp=8", "parallel.pp=4", "parallel.dp=32", "parallel.schedule=interleaved",
	                    "parallel.vpp=2"};
	struct calc_plan p;
	struct calc_params pr;
	struct calc_step *st = malloc(sizeof *st);
	struct calc_diag d = {0};

	load_plan(&p, NULL, 0);
	assert_near(p.gemm_eff, 0.70, 1e-12);
	assert_near(p.attn_eff, 0.35, 1e-12);
	load_plan(&p, a100, 1);
	assert_near(p.gemm_eff, 0.73, 1e-12);
	assert_near(p.attn_eff, 0.50, 1e-12);
	load_plan(&p, set, 2);
	assert_near(p.gemm_eff, 0.6, 1e-12);
	assert_near(p.attn_eff, 0.50, 1e-12);
	load_plan(&p, l2, 11);
	assert_int_equal(calc_step(&p, st, &d), 0);
	assert_true(st->gpu_hours < 1720320);
	calc_model_params(&p.model, &pr);
	assert_true(st->gpu_hours > 6 * pr.total * 2e12 / (312e12 * 3600));
	assert_near(st->gpu_hours, 2e12 / (1024.0 * 4096) * st->time * 1024 / 3600, 1e-6 * st->gpu_hours);
	calc_diag_free(&d);
	free(st);
}

/* The Grand Teton H100 (h100-96g-500w) pair was fitted on torchtitan's tokens per second;
 * torchtitan's docs/performance.md (2025-01-30) states separately, as MFU against the
 * SXM peak, that Llama 3.1 8B with FSDP alone on 8 or 128 of these GPUs "without Float8
 * achieves 33% to 39% MFU" (with or without torch.compile).  The eager run of its
 * Table 1 (8 GPUs, local batch 2, sequence 8,192, selective AC) lands in that range. */
static void test_grand_teton_mfu(void **state)
{
	const char *tt[] = {"model.preset=llama3-8b", "cluster.preset=grand-teton-h100", "cluster.nodes=1",
	                    "parallel.tp=1", "parallel.pp=1", "parallel.dp=8", "training.seq_len=8192",
	                    "training.global_batch=16", "training.micro_batch=2", "parallel.recompute=selective",
	                    "training.flash_attention=yes", "efficiency.stack=torchtitan"};
	struct calc_plan p;
	struct calc_step *st = malloc(sizeof *st);
	struct calc_diag d = {0};

	load_plan(&p, tt, 12);
	assert_int_equal(calc_step(&p, st, &d), 0);
	assert_true(st->mfu >= 0.33 && st->mfu <= 0.39);
	calc_diag_free(&d);
	free(st);
}

/* A second method for the kind machinery: the default plan's 80 layers given as two
 * kinds of the same shape in three runs (30 of kind 0, 20 of kind 1, 30 of kind 0) on
 * an uneven 3-stage split (27, 27, 26: runs and stages do not line up) is the same
 * model, so the step (simulated and closed-form), its traffic and memory must be the
 * plan's without kinds to the last bit. */
static void test_kinds_same_shape(void **state)
{
	const char *s[] = {"parallel.pp=3", "parallel.split=remainder-first", "cluster.nodes=3", "parallel.dp=0"};
	struct calc_plan a, b;
	struct calc_step sa, sb, fa, fb;
	struct calc_memory *ma = malloc(sizeof *ma), *mb = malloc(sizeof *mb);
	struct calc_diag d = {0};
	struct calc_layer_kind k[2];
	const int run_kind[] = {0, 1, 0}, run_count[] = {30, 20, 30};

	load_plan(&a, s, 4);
	b = a;
	k[0] = k[1] = (struct calc_layer_kind){CALC_LAYER_DENSE, a.model.ffn_hidden};
	assert_int_equal(calc_model_set_layers(&b.model, k, 2, run_kind, run_count, 3, &d), 0);
	assert_int_equal(calc_step(&a, &sa, &d), 0);
	assert_int_equal(calc_step(&b, &sb, &d), 0);
	calc_step_fast(&a, &fa);
	calc_step_fast(&b, &fb);
	assert_true(sa.time == sb.time && sa.bubble == sb.bubble && sa.critical == sb.critical);
	assert_true(fa.time == fb.time && fa.flops.model == fb.flops.model);
	assert_true(sa.comm.bytes_total == sb.comm.bytes_total);
	assert_int_equal(calc_memory(&a, ma, &d), 0);
	assert_int_equal(calc_memory(&b, mb, &d), 0);
	for (int i = 0; i < 3; i++)
		assert_true(ma->st[i].total == mb->st[i].total);
	free(ma);
	free(mb);
	calc_diag_free(&d);
}

/* ------------------------------------------------------------- MoE */

/* Mixtral 8x7B (32 layers, h 4096, 32 heads of 128, 8 KV heads, 8 SwiGLU experts of
 * 14336, top-2, V 32000), s = 2048, by hand: a token multiplies per layer Q and O
 * 2 x 4096 x 4096 = 33,554,432, K and V 2 x 4096 x 1024 = 8,388,608, the router
 * 4096 x 8 = 32,768 and two experts 2 x 3 x 4096 x 14336 = 352,321,536: 394,297,344
 * weights; the LM head 32000 x 4096 = 131,072,000.  Model FLOPs per token
 * 6 N_active + 12 L a d s (PaLM App. B, attention core over the full square). */
static void test_flops_moe_active(void **state)
{
	const char *s[] = {"model.preset=mixtral-8x7b", "parallel.tp=8", "parallel.ep=8", "parallel.recompute=none"};
	struct calc_plan p;
	struct calc_flops f;
	double N = 32 * 394297344.0 + 131072000.0;

	load_plan(&p, s, 4);
	calc_flops(&p, &f);
	assert_near(f.per_token, 6 * N + 12.0 * 32 * 32 * 128 * 2048, 1e-12);
	/* 8 experts instead of 2 would be 3.4x the MLP FLOPs: the count is the activated one */
	assert_true(f.per_token < 6 * (32 * (41943040.0 + 8 * 176160768.0)) / 2);
}

/* DeepSeek-V3's MLA (h 7168, 128 heads, q rank 1536, kv rank 512, RoPE 64, non-RoPE
 * 128, value 128) and MoE (256 experts of 2048, top-8, 1 shared; 3 dense layers of
 * 18432), by hand per token: attention W_DQ 7168 x 1536 = 11,010,048, W_UQ 1536 x 128 x
 * 192 = 37,748,736, W_DKV + W_KR 7168 x 576 = 4,128,768, W_UK + W_UV 512 x 128 x 256 =
 * 16,777,216, W_O 128 x 128 x 7168 = 117,440,512: 187,105,280; a dense MLP 3 x 7168 x
 * 18432 = 396,361,728; an MoE MLP the router 7168 x 256 = 1,835,008 plus 9 experts of
 * 3 x 7168 x 2048 = 44,040,192: 398,196,736; the LM head 129280 x 7168 = 926,679,040.
 * Attention core per token and layer 2 s a (192 + 128) (DeepSeek-V2 §2.1). */
static void test_flops_mla(void **state)
{
	const char *s[] = {"model.preset=deepseek-v3", "parallel.tp=1", "parallel.pp=1", "parallel.dp=0",
	                   "parallel.ep=64", "cluster.nodes=8", "parallel.recompute=none", "training.seq_len=4096",
	                   "parallel.sp=no", "model.mtp_depth=0"};
	struct calc_plan p;
	struct calc_flops f;
	double N = 3 * (187105280.0 + 396361728.0) + 58 * (187105280.0 + 398196736.0) + 926679040.0;
	/* DeepSeek-V3 §2.2, its one MTP module: an MoE block as the last layer, the projection
	 * M 7168 x 14336 = 102,760,448 and the shared head again */
	double mtp = 187105280.0 + 398196736.0 + 102760448.0 + 926679040.0;

	load_plan(&p, s, 10);
	calc_flops(&p, &f);
	assert_near(f.per_token, 6 * N + 3 * 61 * 2.0 * 4096 * 128 * 320, 1e-12);
	s[9] = "model.mtp_depth=1"; /* the preset's */
	load_plan(&p, s, 10);
	calc_flops(&p, &f);
	assert_near(f.per_token, 6 * (N + mtp) + 3 * 62 * 2.0 * 4096 * 128 * 320, 1e-12);
}

/* Multi-token prediction on the last stage (DeepSeek-V3 §2.2), by hand on Korthikanti's
 * 22B (Table 3: h 6144, 48 layers, GeLU, V 51200, s 2048) with TP 8 over two stages of 24
 * layers.  Model FLOPs gain per token 3 x (24 h^2 + 4 s h) for the block (Narayanan 2021
 * App.), 3 x 4 h^2 for the projection 2h -> h and 3 x 2 h V for the shared head.  The
 * last stage's forward gains one layer (stage 0's forward less its embedding gather, over
 * 24), the head (stage 1's forward less its 24 layers) and the projection GEMM, 2048 x
 * 768 x 12288 per GPU: 96 whole 128 x 128 tiles, fewer than 108 SMs, compute bound
 * (72 MB at 2 TB/s is 36 us against 180 us), 2 M N K / (peak x efficiency.gemm); the
 * first stage does not change. */
static void test_mtp_last_stage(void **state)
{
	const char *s[] = {"model.preset=kor22-22b", "cluster.preset=dgx-a100-hdr", "cluster.nodes=2", "parallel.tp=8",
	                   "parallel.pp=2", "parallel.dp=1", "training.global_batch=8", "parallel.recompute=none",
	                   "model.mtp_depth=0"};
	struct calc_plan p;
	struct calc_flops f0, f1;
	struct calc_pp_costs c0, c1;
	struct calc_pp_result r;
	struct calc_diag d = {0};
	double h = 6144, sl = 2048, V = 51200, T = 2048, proj, emb, layer_f, layer_b, layer_w;

	load_plan(&p, s, 9);
	calc_flops(&p, &f0);
	assert_int_equal(calc_step_stages(&p, &c0, &r, &d), 0);
	calc_pp_result_free(&r);
	s[8] = "model.mtp_depth=1";
	load_plan(&p, s, 9);
	calc_flops(&p, &f1);
	assert_int_equal(calc_step_stages(&p, &c1, &r, &d), 0);
	calc_pp_result_free(&r);

	assert_near(f1.per_token - f0.per_token, 3 * (24 * h * h + 4 * sl * h + 4 * h * h + 2 * h * V), 1e-9);
	proj = 2 * T * (h / 8) * (2 * h) / (p.gpu.bf16_flops * p.gemm_eff);
	emb = T * h * 4 / p.gpu.hbm_bw;
	layer_f = (c0.tf[0] - emb) / 24;
	layer_b = c0.tb[0] / 24;
	layer_w = (c0.tw[0] - emb) / 24;
	assert_near(c1.tf[0], c0.tf[0], 1e-12);
	assert_near(c1.tf[1], c0.tf[1] + layer_f + proj + (c0.tf[1] - 24 * layer_f), 1e-9);
	assert_near(c1.tb[1], c0.tb[1] + layer_b + proj + (c0.tb[1] - 24 * layer_b), 1e-9);
	assert_near(c1.tw[1], c0.tw[1] + layer_w + proj + (c0.tw[1] - 24 * layer_w), 1e-9);
	calc_diag_free(&d);
}

/* The routed experts' GEMMs of one Mixtral layer, tp 1, ep 8, s = b s = 4096 tokens:
 * each GPU holds one expert and receives k T = 8192 copies; fc1 8192 x 28672 x 4096 and
 * fc2 8192 x 4096 x 14336, 2 M N K FLOPs each, on 132 SMs in 128 x 128 tiles: fc1
 * 64 x 224 = 14,336 tiles in 109 waves (14,388 slots), fc2 64 x 32 = 2,048 tiles in 16
 * waves (2,112 slots).  Halving efficiency.grouped_gemm adds their time at the full one
 * (both compute bound), and a dropless imbalance of 2 doubles the copies (and the tiles
 * and waves: 2 x 14,388 and 2 x 2,112 slots), adding the same again. */
static void test_moe_grouped_gemm(void **state)
{
	const char *s[] = {"model.preset=mixtral-8x7b", "cluster.nodes=1", "parallel.tp=1", "parallel.pp=1",
	                   "parallel.dp=8", "parallel.ep=8", "parallel.sp=no", "training.seq_len=4096",
	                   "training.global_batch=64", "efficiency.grouped_gemm=1", "efficiency.gemm=0.5"};
	struct calc_plan p, q, r;
	struct calc_comm cm;
	struct calc_layer_time a, b, c;
	double peak = 989e12 * 0.5;
	double fc = (2.0 * 8192 * 28672 * 4096 * 14388 / 14336 + 2.0 * 8192 * 4096 * 14336 * 2112 / 2048) / peak;

	load_plan(&p, s, 11);
	q = p, r = p;
	q.grouped_gemm = 0.5;
	r.model.moe.imbalance = 2;
	calc_comm(&p, &cm);
	calc_layer_time_kind(&p, &cm, 0, &a);
	calc_layer_time_kind(&q, &cm, 0, &b);
	calc_layer_time_kind(&r, &cm, 0, &c);
	assert_near(b.gemm - a.gemm, fc, 1e-9);
	assert_near(c.gemm - a.gemm, fc, 1e-9);
	assert_true(a.w == a.gemm); /* the weight gradients: the same grouped GEMMs again */
}

/* The parts of an MoE layer (docs/references.md §5.12) by hand on one GPU (no tile
 * quantization: gpu_sms = 0) of a small model: h = 1024, E = 8 experts of width
 * f_e = 512, top-2, SwiGLU, T = 1024 tokens, BF16, ep = 1 (all 8 experts local).  With
 * P16 = the BF16 peak x efficiency.gemm and B = HBM bandwidth:
 *   router: the gating GEMM 1024 x 8 x 1024, max(2 x 1024 x 8 x 1024 / P16,
 *     (1024 x 1024 + 1024 x 8 + 8 x 1024) x 2 / B), plus 1024 x (53 x 8 + 62 x 2) bytes
 *     (unfused) or 1024 x 19 x 8 (router_fusion);
 *   permutation: the sort 1024 x (19 x 8 + 20 x 2) bytes and k T = 2048 copies of
 *     (2 + 3 + 1/2) x 2 x 1024 bytes (alltoall, ep 1: no chunk sort);
 *   experts: 2048 copies over 8 experts at P16 x grouped_gemm: fc1 2048 x 1024 x 1024
 *     reading 2048 x 1024 + 8 x 1024 x 1024 + 2048 x 1024 values, fc2 2048 x 1024 x 512
 *     reading 2048 x 512 + 8 x 512 x 1024 + 2048 x 1024, each the larger of its FLOPs
 *     and bytes; the SwiGLU on 2048 x 6 x 512 bytes;
 *   skew: model.moe_imbalance = 1.5 gives 3072 copies: the experts at 3072 less at 2048.
 * The backward: twice each forward part (step.h). */
static double rl(double fl, double by, double peak, double bw)
{
	return fl / peak > by / bw ? fl / peak : by / bw;
}
static void test_moe_layer_parts(void **state)
{
	const char *s[] = {"cluster.nodes=1", "cluster.gpus_per_node=1", "cluster.gpu_sms=0", "parallel.tp=1",
	                   "parallel.pp=1", "parallel.dp=1", "parallel.sp=no", "model.layers=2", "model.hidden=1024",
	                   "model.heads=8", "model.kv_heads=8", "model.ffn_hidden=4096", "model.experts=8",
	                   "model.top_k=2", "model.expert_ffn=512", "model.mlp=swiglu", "training.seq_len=1024",
	                   "training.global_batch=1", "training.micro_batch=1", "parallel.recompute=none"};
	struct calc_plan p;
	struct calc_comm cm;
	struct calc_layer_time a, b;
	double B, P16, Pg, router, perm, experts;

	load_plan(&p, s, 20);
	B = p.gpu.hbm_bw, P16 = p.gpu.bf16_flops * p.gemm_eff, Pg = P16 * p.grouped_gemm;
	router = rl(2.0 * 1024 * 8 * 1024, (1024.0 * 1024 + 1024 * 8 + 8 * 1024) * 2, P16, B) + 1024.0 * (53 * 8 + 62 * 2) / B;
	perm = (1024.0 * (19 * 8 + 20 * 2) + 2048.0 * 5.5 * 2 * 1024) / B;
	experts = rl(2.0 * 2048 * 1024 * 1024, (2048.0 * 1024 + 8 * 1024 * 1024 + 2048 * 1024) * 2, Pg, B) +
	          rl(2.0 * 2048 * 1024 * 512, (2048.0 * 512 + 8 * 512 * 1024 + 2048 * 1024) * 2, Pg, B) +
	          2048.0 * 6 * 512 / B;
	calc_comm(&p, &cm);
	calc_layer_time_kind(&p, &cm, 0, &a);
	assert_near(a.moe_router, router, 1e-12);
	assert_near(a.moe_permute, perm, 1e-12);
	assert_near(a.moe_experts, experts, 1e-12);
	assert_true(a.moe_skew == 0);
	/* fused router and permutation: 19 and 5 bytes per token per expert */
	assert_int_equal(calc_plan_set(&p, "moe.router_fusion=yes", "test", &(struct calc_diag){0}), 0);
	assert_int_equal(calc_plan_set(&p, "moe.permute_fusion=yes", "test", &(struct calc_diag){0}), 0);
	calc_layer_time_kind(&p, &cm, 0, &b);
	assert_near(b.moe_router, router - 1024.0 * (53 * 8 + 62 * 2) / B + 1024.0 * 19 * 8 / B, 1e-12);
	assert_near(b.moe_permute, perm - 1024.0 * (19 * 8 + 20 * 2) / B + 1024.0 * 5 * 8 / B, 1e-12);
	/* the busiest GPU 1.5x the mean: the grouped GEMMs and activation on 3072 copies */
	assert_int_equal(calc_plan_set(&p, "model.moe_imbalance=1.5", "test", &(struct calc_diag){0}), 0);
	calc_layer_time_kind(&p, &cm, 0, &b);
	assert_near(b.moe_skew,
	            rl(2.0 * 3072 * 1024 * 1024, (3072.0 * 1024 + 8 * 1024 * 1024 + 3072 * 1024) * 2, Pg, B) +
	                rl(2.0 * 3072 * 1024 * 512, (3072.0 * 512 + 8 * 512 * 1024 + 3072 * 1024) * 2, Pg, B) +
	                3072.0 * 6 * 512 / B - experts,
	            1e-12);
	/* the parts are inside the layer's compute: the forward grows by the skew */
	assert_near(b.f - a.f, b.moe_skew + b.moe_router + b.moe_permute - a.moe_router - a.moe_permute, 1e-9);
}

/* Fine-grained experts do not run like one large GEMM (docs/references.md §5.12): a
 * Qwen3-30B-A3B-like layer (h = 2048, 128 experts of width 768, top-8) on one H100 of
 * 132 SMs with T = 1024 tokens and ep = 1 gives each expert k T / E = 64 rows.  Each
 * expert's GEMM is cut into 128 x 128 tiles on its own: fc1 (N = 2 x 768) 1 x 12 tiles an
 * expert, 1,536 in all, in ceil(1536 / 132) = 12 waves of 132: a used share of
 * 8192 x 1536 / (1584 x 128 x 128) = 0.4848; fc2 (N = 2048) 16 tiles an expert, 2,048 in
 * 16 waves: 8192 x 2048 / (2112 x 128 x 128) = 0.4848.  Each GEMM takes the larger of
 * its compute over that share and its bytes, every expert's weights read once (fc1 reads
 * 128 x 2048 x 1536 weights: 805 MB, more than the 64-row tiles compute); the SwiGLU
 * reads and writes 8192 x 6 x 768 bytes.  One fused 8192-row GEMM of the same FLOPs
 * would take 2 x 8192 x 3 x 2048 x 768 / P, less than half. */
static void test_moe_fine_grained_experts(void **state)
{
	const char *s[] = {"cluster.nodes=1", "cluster.gpus_per_node=1", "parallel.tp=1", "parallel.pp=1",
	                   "parallel.dp=1", "parallel.sp=no", "model.layers=2", "model.hidden=2048", "model.heads=16",
	                   "model.kv_heads=4", "model.head_dim=128", "model.ffn_hidden=6144", "model.experts=128",
	                   "model.top_k=8", "model.expert_ffn=768", "model.mlp=swiglu", "training.seq_len=1024",
	                   "training.global_batch=1", "training.micro_batch=1", "parallel.recompute=none"};
	struct calc_plan p;
	struct calc_comm cm;
	struct calc_layer_time a;
	double B, Pg, fc1, fc2, want, sh1 = 8192.0 * 1536 / (1584.0 * 16384), sh2 = 8192.0 * 2048 / (2112.0 * 16384);

	load_plan(&p, s, 20);
	assert_int_equal(p.gpu.sms, 132);
	B = p.gpu.hbm_bw, Pg = p.gpu.bf16_flops * p.gemm_eff * p.grouped_gemm;
	fc1 = rl(2.0 * 8192 * 1536 * 2048 / sh1, (8192.0 * 2048 + 128.0 * 2048 * 1536 + 8192.0 * 1536) * 2, Pg, B);
	fc2 = rl(2.0 * 8192 * 2048 * 768 / sh2, (8192.0 * 768 + 128.0 * 768 * 2048 + 8192.0 * 2048) * 2, Pg, B);
	want = fc1 + fc2 + 8192.0 * 6 * 768 / B;
	calc_comm(&p, &cm);
	calc_layer_time_kind(&p, &cm, 0, &a);
	assert_near(a.moe_experts, want, 1e-12);
	assert_true(a.moe_experts > 2 * (2.0 * 8192 * 3 * 2048 * 768 / Pg));
}

/* moe.overlap_ep_comm (Megatron-Core's combined 1F1B): Mixtral 8x7B, 2 nodes, ep 8,
 * dp 16, batch 64, pp 1: m = 4 micro-batches, of which the first forward and the last
 * backward run alone: 3/4 of each pass's dispatch and combine hide behind the other
 * pass's compute.  Interleaved, pp 4, vpp 2, m = 8 on 8 GPUs of dp 2: rank 0 warms up
 * 2 (4 - 1) + (2 - 1) 4 + 1 = 11 of its m v = 16 forwards, so 5/16 overlap.  With full
 * recomputation Megatron-Core refuses the overlap: a plan error. */
static void test_moe_overlap_ep_comm(void **state)
{
	const char *s[] = {"model.preset=mixtral-8x7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=1",
	                   "parallel.dp=16", "parallel.ep=8", "parallel.sp=no", "training.global_batch=64",
	                   "parallel.recompute=selective", "moe.overlap_ep_comm=yes"};
	const char *iv[] = {"model.preset=mixtral-8x7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=4",
	                    "parallel.dp=4", "parallel.ep=4", "parallel.sp=no", "training.global_batch=32",
	                    "parallel.recompute=selective", "moe.overlap_ep_comm=yes", "parallel.schedule=interleaved",
	                    "parallel.vpp=2"};
	struct calc_plan p;
	struct calc_comm cm;
	struct calc_layer_time a;
	struct calc_diag d = {0};
	double cf, cb;

	load_plan(&p, s, 10);
	calc_comm(&p, &cm);
	calc_layer_time_kind(&p, &cm, 0, &a);
	cf = cm.ep_layer_f, cb = cm.ep_layer_b;
	assert_true(cf > 0);
	assert_near(a.ep_f, cf - (0.75 * cf < a.b + a.w ? 0.75 * cf : a.b + a.w), 1e-12);
	assert_near(a.ep_b, cb - (0.75 * cb < a.f ? 0.75 * cb : a.f), 1e-12);
	/* moe.comm_sms = 33 of the H100's 132 SMs: the hidden time costs a quarter of itself */
	{
		struct calc_layer_time c2;
		assert_int_equal(calc_plan_set(&p, "moe.comm_sms=33", "test", &d), 0);
		calc_layer_time_kind(&p, &cm, 0, &c2);
		assert_near(c2.ep_f, a.ep_f + 0.25 * (cf - a.ep_f), 1e-12);
		assert_near(c2.ep_b, a.ep_b + 0.25 * (cb - a.ep_b), 1e-12);
	}
	load_plan(&p, iv, 12);
	assert_int_equal(calc_plan_microbatches(&p), 8);
	calc_comm(&p, &cm);
	calc_layer_time_kind(&p, &cm, 0, &a);
	cf = cm.ep_layer_f;
	assert_near(a.ep_f, cf - (5.0 / 16 * cf < a.b + a.w ? 5.0 / 16 * cf : a.b + a.w), 1e-12);
	assert_true(calc_plan_set(&p, "parallel.recompute=full", "test", &d) != 0);
	assert_non_null(d.text);
	assert_non_null(strstr(d.text, "moe.overlap_ep_comm = yes with parallel.recompute = full"));
	calc_diag_free(&d);
}

/* moe.host_time (docs/references.md §5.16): Mixtral 8x7B, 32 MoE layers, pp 1, dp 16,
 * batch 64, micro-batch 1: m = 4.  The megatron-core stack's H = 4.4 ms, none hidden: each
 * layer's forward 4.4/3 = 1.4667 ms and backward 2.9333 ms, the step's pipeline part
 * 4 x 32 x 4.4 ms = 0.5632 s longer than with H = 0.  With the MoE block recomputed as a
 * module the backward runs the forward's dispatch, combine and launches again: its host
 * time 2.9333 ms + 1.4667 ms = 4.4 ms,
 * and the backward's all-to-all passes two (dispatch and combine) more, ep_layer_b twice
 * ep_layer_f.  Hidden by the GPU (host_overlap = gpu): a pass exposes
 * what H's share exceeds of the pass's GPU time, none for H = 1 us, H/3 - (f + comm_f)
 * for H = 1 s.  With moe.overlap_ep_comm, hidden behind the pair's compute in the paired
 * passes.  None with a whole-iteration graph, with padding to a capacity, on the
 * dated stack (its rows were fitted without it) or on a dense model. */
static void test_moe_host_time(void **state)
{
	const char *s[] = {"model.preset=mixtral-8x7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=1",
	                   "parallel.dp=16", "parallel.ep=8", "parallel.sp=no", "training.global_batch=64",
	                   "parallel.recompute=selective"};
	struct calc_plan p;
	struct calc_comm cm;
	struct calc_layer_time a;
	struct calc_step st, st0, fast;
	struct calc_diag d = {0};

	(void)state;
	load_plan(&p, s, 9);
	assert_true(p.moe_host_time == 4.4e-3);
	assert_int_equal(p.moe_host_overlap, 1);
	calc_comm(&p, &cm);
	calc_layer_time_kind(&p, &cm, 0, &a);
	assert_near(a.host_f, 4.4e-3 / 3, 1e-15);
	assert_near(a.host_b, 8.8e-3 / 3, 1e-15);
	assert_int_equal(calc_step(&p, &st, &d), 0);
	calc_step_fast(&p, &fast);
	assert_true(fast.host_sync == st.host_sync);
	assert_near(st.host_sync, 4 * 32 * 4.4e-3, 1e-12);
	assert_int_equal(calc_plan_set(&p, "moe.host_time=0", "test", &d), 0);
	assert_int_equal(calc_step(&p, &st0, &d), 0);
	assert_true(st0.host_sync == 0);
	assert_near(st.makespan - st0.makespan, 0.5632, 1e-9);

	/* the MoE block recomputed as a module (Megatron-Core recompute_modules "moe") */
	{
		const char *s4[] = {"model.preset=mixtral-8x7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=1",
		                    "parallel.dp=16", "parallel.ep=8", "parallel.sp=no", "training.global_batch=64",
		                    "parallel.recompute=modules", "parallel.recompute_modules=moe"};
		struct calc_comm cm0;
		load_plan(&p, s4, 10);
		calc_comm(&p, &cm);
		calc_layer_time_kind(&p, &cm, 0, &a);
		assert_true(cm.ep_layer_f > 0);
		assert_near(cm.ep_layer_b, 2 * cm.ep_layer_f, 1e-15);
		assert_near(a.host_f, 4.4e-3 / 3, 1e-15);
		assert_near(a.host_b, 4.4e-3, 1e-15);
		load_plan(&p, s, 9);
		calc_comm(&p, &cm0);
		assert_near(cm0.ep_layer_b, cm0.ep_layer_f, 1e-15);
		assert_near(cm0.ep_layer_f, cm.ep_layer_f, 1e-15);
		cm = cm0;
	}

	/* hidden by the layer's own GPU work */
	assert_int_equal(calc_plan_set(&p, "moe.host_overlap=gpu", "test", &d), 0);
	assert_int_equal(calc_plan_set(&p, "moe.host_time=1e-6", "test", &d), 0);
	calc_layer_time_kind(&p, &cm, 0, &a);
	assert_true(a.host_f == 0 && a.host_b == 0);
	assert_int_equal(calc_plan_set(&p, "moe.host_time=1", "test", &d), 0);
	calc_layer_time_kind(&p, &cm, 0, &a);
	assert_near(a.host_f, 1.0 / 3 - (a.f + a.comm_f), 1e-12);
	assert_near(a.host_b, 2.0 / 3 - (a.b + a.w + a.recompute + a.comm_b), 1e-12);

	/* moe.overlap_ep_comm: m = 4 without pipelining, so 3 of the 4 passes have a partner
	 * ((m - 1) / m, Megatron-Core combined_1f1b.py) and hide the pair's host time behind
	 * the pair's compute f + b + w + recompute; the fourth exposes what host_overlap says.
	 * H = 1 ms is less than a Mixtral layer's pair compute at 2,048 tokens (f alone is
	 * more than 1 ms: asserted), so the step exposes 1/4 of it: 4 x 32 x H / 4 = 32 ms. */
	assert_int_equal(calc_plan_set(&p, "moe.host_overlap=none", "test", &d), 0);
	assert_int_equal(calc_plan_set(&p, "moe.overlap_ep_comm=yes", "test", &d), 0);
	assert_int_equal(calc_plan_set(&p, "moe.host_time=1e-3", "test", &d), 0);
	calc_layer_time_kind(&p, &cm, 0, &a);
	assert_true(a.f > 1e-3);
	assert_near(a.host_f, 0.25 * 1e-3 / 3, 1e-15);
	assert_near(a.host_b, 0.25 * 2e-3 / 3, 1e-15);
	assert_int_equal(calc_step(&p, &st, &d), 0);
	calc_step_fast(&p, &fast);
	assert_true(fast.host_sync == st.host_sync);
	assert_near(st.host_sync, 4 * 32 * 0.25e-3, 1e-12);
	/* H = 1 s exceeds the pair's compute g: the paired passes expose H - g */
	assert_int_equal(calc_plan_set(&p, "moe.host_time=1", "test", &d), 0);
	calc_layer_time_kind(&p, &cm, 0, &a);
	{
		double g = a.f + a.b + a.w + a.recompute;
		assert_true(g < 1);
		assert_near(a.host_f, 0.25 / 3 + 0.75 * (1 - g) / 3, 1e-12);
		assert_near(a.host_b, 0.25 * 2 / 3 + 0.75 * 2 * (1 - g) / 3, 1e-12);
	}
	assert_int_equal(calc_plan_set(&p, "moe.overlap_ep_comm=no", "test", &d), 0);

	/* no synchronisation to wait for */
	assert_int_equal(calc_plan_set(&p, "training.cuda_graphs=full", "test", &d), 0);
	calc_layer_time_kind(&p, &cm, 0, &a);
	assert_true(a.host_f == 0 && a.host_b == 0);
	assert_int_equal(calc_plan_set(&p, "training.cuda_graphs=partial", "test", &d), 0);
	calc_layer_time_kind(&p, &cm, 0, &a);
	assert_true(a.host_f > 0);
	assert_int_equal(calc_plan_set(&p, "model.capacity_factor=1", "test", &d), 0);
	calc_comm(&p, &cm);
	calc_layer_time_kind(&p, &cm, 0, &a);
	assert_true(a.host_f == 0 && a.host_b == 0);

	/* the dated stack and a dense model */
	{
		const char *s2[] = {"model.preset=mixtral-8x7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=1",
		                    "parallel.dp=16", "parallel.ep=8", "parallel.sp=no", "training.global_batch=64",
		                    "efficiency.stack=megatron-core-2024"};
		const char *s3[] = {"model.preset=llama3-8b", "cluster.nodes=1", "parallel.tp=1", "parallel.pp=1"};
		load_plan(&p, s2, 9);
		assert_true(p.moe_host_time == 0);
		load_plan(&p, s3, 4);
		assert_true(p.moe_host_time == 4.4e-3);
		calc_comm(&p, &cm);
		calc_layer_time_kind(&p, &cm, 0, &a);
		assert_true(a.host_f == 0 && a.host_b == 0);
	}
	calc_diag_free(&d);
}

/* The all-to-all in the step: with no overlap every MoE layer's dispatch and combine
 * is on the critical path (pp 1: the critical GPU holds all 32 layers, so the exposed
 * time is comm.ep's whole time); efficiency.ep_overlap = 0.5 hides half of it (each
 * layer's compute is longer than half its all-to-all); under DualPipe none shows. */
static void test_moe_alltoall_exposed(void **state)
{
	const char *s[] = {"model.preset=mixtral-8x7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=1",
	                   "parallel.dp=16", "parallel.ep=8", "parallel.sp=no", "training.global_batch=64"};
	const char *dual[] = {"model.preset=mixtral-8x7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=2",
	                      "parallel.dp=8", "parallel.ep=8", "parallel.sp=no", "training.global_batch=64",
	                      "parallel.schedule=dualpipe"};
	struct calc_plan p;
	struct calc_step *st = malloc(sizeof *st);
	struct calc_ep_comm e;
	struct calc_diag d = {0};

	load_plan(&p, s, 8);
	calc_comm_ep(&p, &e);
	assert_int_equal(calc_step(&p, st, &d), 0);
	assert_true(e.time > 0);
	assert_near(st->ep_exposed, e.time, 1e-12);
	assert_near(st->comm.ep.time, e.time, 1e-12);
	p.ep_overlap = 0.5;
	assert_int_equal(calc_step(&p, st, &d), 0);
	assert_near(st->ep_exposed, 0.5 * e.time, 1e-12);
	load_plan(&p, dual, 9);
	assert_int_equal(calc_step(&p, st, &d), 0);
	assert_true(st->comm.ep.time > 0);
	assert_true(st->ep_exposed == 0);
	free(st);
	calc_diag_free(&d);
}

/* The planner's cached parts (calc_step_compute, calc_comm_pre) of one leaf serve its
 * siblings that differ in schedule, vpp and ZeRO stage: calc_step_fast_with gives
 * calc_step_fast's numbers, bit for bit.  DualPipe hides the expert all-to-all
 * (schedule-dependent), so a cache that held the collectives would fail here. */
/* recompute_method = block repeats the forward's TP collectives only in the layers it
 * recomputes.  Default plan: 80 layers over pp 8 = 10 per stage, m = 1536 / 8 = 192
 * micro-batches, SP (each all-reduce an all-gather + reduce-scatter pair of one time).
 * A layer runs 2 pairs forward and 2 backward (Narayanan 2021 §3.2), and 2 more when its
 * forward runs again.  Counted by hand: none 4 x 10 pairs per micro-batch; full
 * (uniform) 6 x 10; block with N = 2 of one chunk 4 x 10 + 2 x 2 = 44; interleaved with
 * v = 2 chunks of 5, N = 2 of each: 40 + 2 x 4 = 48.  The pair time cancels out of the
 * ratios; with tp_overlap = 0 step.tp_comm is the comm table's TP time. */
static void test_block_recompute_tp_comm(void **state)
{
	const char *none[] = {"parallel.recompute=none", "efficiency.tp_overlap=0"};
	const char *full[] = {"parallel.recompute=full", "efficiency.tp_overlap=0"};
	const char *block[] = {"parallel.recompute=full", "efficiency.tp_overlap=0", "parallel.recompute_method=block",
	                       "parallel.recompute_num_layers=2"};
	const char *iblock[] = {"parallel.recompute=full", "efficiency.tp_overlap=0", "parallel.recompute_method=block",
	                        "parallel.recompute_num_layers=2", "parallel.schedule=interleaved", "parallel.vpp=2"};
	const char *inone[] = {"parallel.recompute=none", "efficiency.tp_overlap=0", "parallel.schedule=interleaved",
	                       "parallel.vpp=2"};
	struct calc_plan p;
	struct calc_step a, b, c;
	struct calc_diag d = {0};

	load_plan(&p, none, 2);
	calc_step_fast(&p, &a);
	load_plan(&p, full, 2);
	calc_step_fast(&p, &b);
	load_plan(&p, block, 4);
	calc_step_fast(&p, &c);
	assert_near(b.comm.dim[CALC_DIM_TP].time / a.comm.dim[CALC_DIM_TP].time, 60.0 / 40, 1e-12);
	assert_near(c.comm.dim[CALC_DIM_TP].time / a.comm.dim[CALC_DIM_TP].time, 44.0 / 40, 1e-12);
	assert_near(c.comm.dim[CALC_DIM_TP].count, 192.0 * 44 * 2, 1e-12);
	assert_near(c.tp_comm / a.tp_comm, 44.0 / 40, 1e-12);
	assert_near(b.tp_comm / a.tp_comm, 60.0 / 40, 1e-12);
	/* the simulator path charges the same */
	assert_int_equal(calc_step(&p, &c, &d), 0);
	calc_diag_free(&d);
	assert_near(c.tp_comm / a.tp_comm, 44.0 / 40, 1e-12);

	load_plan(&p, inone, 4);
	calc_step_fast(&p, &a);
	load_plan(&p, iblock, 6);
	calc_step_fast(&p, &c);
	assert_near(c.comm.dim[CALC_DIM_TP].time / a.comm.dim[CALC_DIM_TP].time, 48.0 / 40, 1e-12);
	assert_near(c.tp_comm / a.tp_comm, 48.0 / 40, 1e-12);
	(void)state;
}

/* recompute_method = block repeats the expert all-to-all only in the layers it
 * recomputes, as the TP collectives.  Mixtral 8x7B (32 MoE layers), pp 1, ep 8 over 2
 * nodes, m = 64 / 16 = 4 micro-batches.  A MoE layer runs a dispatch and a combine
 * forward and again backward (4 all-to-alls), 2 more when its forward runs again.
 * Counted by hand per micro-batch: none 4 x 32 = 128; full 6 x 32 = 192; block with
 * N = 8 of one chunk 4 x 32 + 2 x 8 = 144 (the comm table's count 4 x 144 = 576).  With
 * pp 2 interleaved, v = 2 chunks of 8 and N = 2 of each: 4 x 16 + 2 x 4 = 72 against
 * none's 64.  With ep_overlap 0 (and tp 1) the step exposes the whole all-to-all time. */
static void test_block_recompute_ep_comm(void **state)
{
#define MIXTRAL_EP "model.preset=mixtral-8x7b", "cluster.nodes=2", "parallel.tp=1", "parallel.ep=8", \
	           "parallel.sp=no", "training.global_batch=64", "efficiency.ep_overlap=0"
	const char *none[] = {MIXTRAL_EP, "parallel.pp=1", "parallel.dp=16", "parallel.recompute=none"};
	const char *full[] = {MIXTRAL_EP, "parallel.pp=1", "parallel.dp=16", "parallel.recompute=full"};
	const char *block[] = {MIXTRAL_EP, "parallel.pp=1", "parallel.dp=16", "parallel.recompute=full",
	                       "parallel.recompute_method=block", "parallel.recompute_num_layers=8"};
	const char *inone[] = {MIXTRAL_EP, "parallel.pp=2", "parallel.dp=8", "parallel.recompute=none",
	                       "parallel.schedule=interleaved", "parallel.vpp=2"};
	const char *iblock[] = {MIXTRAL_EP, "parallel.pp=2", "parallel.dp=8", "parallel.recompute=full",
	                        "parallel.schedule=interleaved", "parallel.vpp=2", "parallel.recompute_method=block",
	                        "parallel.recompute_num_layers=2"};
#undef MIXTRAL_EP
	struct calc_plan p;
	struct calc_step *a = malloc(sizeof *a), *b = malloc(sizeof *b), *c = malloc(sizeof *c);
	struct calc_diag d = {0};

	load_plan(&p, none, 10);
	calc_step_fast(&p, a);
	load_plan(&p, full, 10);
	calc_step_fast(&p, b);
	load_plan(&p, block, 12);
	calc_step_fast(&p, c);
	assert_true(a->comm.ep.time > 0);
	assert_near(b->comm.ep.time / a->comm.ep.time, 192.0 / 128, 1e-12);
	assert_near(c->comm.ep.time / a->comm.ep.time, 144.0 / 128, 1e-12);
	assert_near(c->comm.ep.bytes / a->comm.ep.bytes, 144.0 / 128, 1e-12);
	assert_near(c->comm.ep.count, 4.0 * 144, 1e-12);
	assert_near(a->ep_exposed, a->comm.ep.time, 1e-12);
	assert_near(b->ep_exposed / a->ep_exposed, 192.0 / 128, 1e-12);
	assert_near(c->ep_exposed / a->ep_exposed, 144.0 / 128, 1e-12);
	/* with tp 1 the exposed collectives are the all-to-all alone */
	assert_near(c->tp_comm, c->ep_exposed, 1e-12);
	/* the simulator path charges the same */
	assert_int_equal(calc_step(&p, c, &d), 0);
	assert_near(c->ep_exposed / a->ep_exposed, 144.0 / 128, 1e-12);

	load_plan(&p, inone, 12);
	calc_step_fast(&p, a);
	load_plan(&p, iblock, 14);
	calc_step_fast(&p, c);
	assert_near(c->comm.ep.time / a->comm.ep.time, 72.0 / 64, 1e-12);
	assert_near(c->ep_exposed / a->ep_exposed, 72.0 / 64, 1e-12);
	calc_diag_free(&d);
	free(a);
	free(b);
	free(c);
	(void)state;
}

/* FSDP's per-layer overlap bound (step.c fsdp_exposed) under recompute_method = block:
 * a layer hides its gradient reduce-scatter behind dp_overlap of its backward window, B +
 * W + recomputation + its collectives in a layer that recomputes, B + W + its backward's
 * collectives (less the recomputed forward's, comm_rc) in one block keeps.  Default plan
 * with parallel.fsdp: pp 8, 10 layers a stage, the last micro-batch reduce-scatters
 * (comm.c: a stage keeps its parameters gathered); dp_overlap 0.1 leaves every reduction
 * longer than its hiding window (checked), so each kept layer exposes 0.1 x (recompute +
 * comm_rc) more than under full recomputation: 8 of the 10 layers with N = 2. */
static void test_block_recompute_fsdp_window(void **state)
{
	const char *full[] = {"parallel.fsdp=yes", "efficiency.dp_overlap=0.1", "parallel.recompute=full"};
	const char *block[] = {"parallel.fsdp=yes", "efficiency.dp_overlap=0.1", "parallel.recompute=full",
	                       "parallel.recompute_method=block", "parallel.recompute_num_layers=2"};
	struct calc_plan p;
	struct calc_step *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	const struct calc_layer_time *lt;

	load_plan(&p, full, 3);
	calc_step_fast(&p, a);
	load_plan(&p, block, 5);
	calc_step_fast(&p, b);
	lt = &a->layer;
	assert_true(a->comm.fsdp && lt->recompute > 0 && lt->comm_rc > 0);
	assert_true(a->comm.fsdp_rs[0] > 0.1 * (lt->b + lt->w + lt->recompute + lt->comm_b));
	assert_near(b->dp_exposed - a->dp_exposed, 8 * 0.1 * (lt->recompute + lt->comm_rc), 1e-9 * a->dp_exposed);
	free(a);
	free(b);
	(void)state;
}

/* The hidden TP collectives cost the SMs their kernels hold (docs/references.md §4.8):
 * a layer pays (1 - o) + o c / S of its collectives' time.  Default plan on H100 SXM
 * (S = 132 SMs, H100 datasheet), SP, no CP: o = 0.5 with c = 16 (TE userbuffers'
 * pipeline/bulk num_sm) pays 0.5 + 8/132 = 0.560606...; c = 0 pays 0.5; c = 132 or more
 * (every SM) pays the whole 1; gpu_sms = 0 (no SM count) hides for free, 0.5. */
static void test_tp_overlap_sms(void **state)
{
	static const struct {
		const char *sms, *gpu_sms;
		double pay;
	} cases[] = {{"efficiency.tp_overlap_sms=16", "cluster.gpu_sms=132", 0.5 + 8.0 / 132},
	             {"efficiency.tp_overlap_sms=0", "cluster.gpu_sms=132", 0.5},
	             {"efficiency.tp_overlap_sms=200", "cluster.gpu_sms=132", 1.0},
	             {"efficiency.tp_overlap_sms=16", "cluster.gpu_sms=0", 0.5}};
	const char *zero[] = {"efficiency.tp_overlap=0"};
	struct calc_plan p;
	struct calc_comm c;
	struct calc_layer_time lt;
	struct calc_step a, b;

	load_plan(&p, zero, 1);
	calc_step_fast(&p, &a);
	for (int i = 0; i < 4; i++) {
		const char *s[] = {"efficiency.tp_overlap=0.5", cases[i].sms, cases[i].gpu_sms};
		load_plan(&p, s, 3);
		calc_comm(&p, &c);
		calc_layer_time(&p, &c, &lt);
		assert_near(lt.comm_f, cases[i].pay * c.tp_layer_f, 1e-12);
		assert_near(lt.comm_b, cases[i].pay * c.tp_layer_b, 1e-12);
		calc_step_fast(&p, &b);
		/* the comm table is what runs; the step charges its share */
		assert_near(b.comm.dim[CALC_DIM_TP].time, a.comm.dim[CALC_DIM_TP].time, 1e-12);
		assert_near(b.tp_comm, cases[i].pay * a.tp_comm, 1e-12);
	}
	(void)state;
}

/* torchtitan's async TP moves the shards on the copy engine (Tensor.copy_ of symmetric
 * memory is a cudaMemcpyAsync; calc/stacks.c, docs/references.md §4.8), so its stack
 * hides for free: with tp_overlap 0.5 a layer pays exactly half its TP collectives, where
 * the default stack (Transformer Engine userbuffers, 8.5 of H100's 132 SMs) pays
 * 0.5 + 0.5 x 8.5 / 132. */
static void test_tp_overlap_stack(void **state)
{
	const char *tt[] = {"efficiency.tp_overlap=0.5", "efficiency.stack=torchtitan"};
	const char *mc[] = {"efficiency.tp_overlap=0.5", "efficiency.stack=megatron-core"};
	struct calc_plan p;
	struct calc_comm c;
	struct calc_layer_time lt;

	load_plan(&p, tt, 2);
	assert_true(p.tp_overlap_sms == 0);
	calc_comm(&p, &c);
	calc_layer_time(&p, &c, &lt);
	assert_true(c.tp_layer_f > 0);
	assert_near(lt.comm_f, 0.5 * c.tp_layer_f, 1e-12);
	load_plan(&p, mc, 2);
	calc_comm(&p, &c);
	calc_layer_time(&p, &c, &lt);
	assert_near(lt.comm_f, (0.5 + 0.5 * 8.5 / 132) * c.tp_layer_f, 1e-12);
	(void)state;
}

static void test_fast_with_cached_parts(void **state)
{
	const char *s[] = {"model.preset=mixtral-8x7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=2",
	                   "parallel.dp=8", "parallel.ep=8", "parallel.sp=no", "training.global_batch=64",
	                   "parallel.schedule=1f1b"};
	static const char *const sched[] = {"1f1b", "dualpipe", "zb-h1", "gpipe"};
	struct calc_plan p, q;
	struct calc_step *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	struct calc_step_compute pre;
	struct calc_comm_pre *cp = malloc(sizeof *cp);

	load_plan(&p, s, 9);
	calc_step_compute(&p, &pre);
	calc_comm_pre(&p, cp);
	pre.comm = cp;
	for (int i = 0; i < 4; i++)
		for (int z = 0; z < 4; z++) {
			q = p;
			assert_int_equal(calc_schedule_parse(sched[i], &q.schedule), 0);
			q.zero = z;
			calc_step_fast(&q, a);
			calc_step_fast_with(&q, &pre, b);
			assert_true(a->time > 0);
			assert_true(a->time == b->time && a->makespan == b->makespan && a->dp_exposed == b->dp_exposed);
			assert_true(a->ep_exposed == b->ep_exposed && a->comm.dim[CALC_DIM_DP].time == b->comm.dim[CALC_DIM_DP].time);
		}
	free(a);
	free(b);
	free(cp);
	(void)state;
}

/* DeepSpeed's checkpoint traffic under recompute = full (ZeRO-R §8), Llama 3 8B at tp 4
 * without SP, s 8192, b 1, on the default cluster with the NVLink tier set by hand:
 * intra_node_busbw 400 GB/s, 5 us a ring step.  The partitioned checkpoint's all-gather
 * collects S = 2sh = 67,108,864 B over the 4 TP ranks of a node: 3 steps x 5 us + 3/4 x
 * S / 400e9 = 15 us + 125.83 us = 140.83 us, added to the backward's TP collectives of
 * every recomputed layer.  The CPU copy of the unpartitioned checkpoint over a 1 GB/s
 * link takes S / 1e9 = 67.1 ms each way, far above the layer's compute: the exposed part
 * is the copy less the forward f (less b + w + recompute in the backward); at 64 GB/s
 * the partitioned 16.8 MB (0.26 ms) hides behind the forward of the layer (its GEMMs alone,
 * 2 x 8192 tokens x 218 M weights / 4 at the H100's 989 TFLOP/s, take 0.9 ms or more). */
static void test_deepspeed_ckpt_time(void **state)
{
	const double S = 67108864.0;
	const char *s[] = {"model.preset=llama3-8b", "tp=4", "pp=4", "dp=0", "sp=no", "seq_len=8192", "micro_batch=1",
	                   "recompute=full", "intra_node_busbw=400e9", "intra_node_latency=5e-6",
	                   "parallel.partition_activations=yes", NULL};
	struct calc_plan p;
	struct calc_comm cm;
	struct calc_layer_time a, b;
	(void)state;
	load_plan(&p, s, 10);
	calc_comm(&p, &cm);
	calc_layer_time(&p, &cm, &a);
	assert_true(a.ckpt_ag == 0 && a.ckpt_f == 0 && a.ckpt_b == 0);
	load_plan(&p, s, 11);
	calc_comm(&p, &cm);
	calc_layer_time(&p, &cm, &b);
	assert_near(b.ckpt_ag, 15e-6 + 0.75 * S / 400e9, 1e-9);
	assert_near(b.comm_b - a.comm_b, b.ckpt_ag, 1e-9);
	assert_near(b.comm_rc - a.comm_rc, b.ckpt_ag, 1e-9);
	assert_true(b.ckpt_f == 0 && b.ckpt_b == 0);
	/* CPU checkpoints over 1 GB/s: exposed beyond the layer's own compute */
	p.partition_activations = 0;
	p.cpu_checkpointing = 1;
	p.gpu.pcie_bw = 1e9;
	calc_layer_time(&p, &cm, &b);
	assert_true(b.ckpt_ag == 0);
	assert_near(b.ckpt_f + b.f, S / 1e9, 1e-9);
	assert_near(b.ckpt_b + b.b + b.w + b.recompute, S / 1e9, 1e-9);
	/* partitioned at 64 GB/s: hidden */
	p.partition_activations = 1;
	p.gpu.pcie_bw = 64e9;
	calc_layer_time(&p, &cm, &b);
	assert_true(b.f > S / 4 / 64e9);
	assert_true(b.ckpt_f == 0 && b.ckpt_b == 0);
	/* the step: 8 layers a stage, each micro-batch pays the exposed copies on the critical
	 * stage, in the recomputation segment */
	{
		struct calc_step *st0 = calloc(1, sizeof *st0), *st1 = calloc(1, sizeof *st1);
		struct calc_diag d = {0};
		p.partition_activations = 0;
		p.cpu_checkpointing = 0;
		assert_int_equal(calc_step(&p, st0, &d), 0);
		p.cpu_checkpointing = 1;
		p.gpu.pcie_bw = 1e9;
		assert_int_equal(calc_step(&p, st1, &d), 0);
		assert_near(st1->tf - st0->tf, 8 * (S / 1e9 - st0->layer.f), 1e-9);
		assert_near(st1->recompute - st0->recompute,
		            calc_plan_microbatches(&p) * 8 * (2 * S / 1e9 - st0->layer.f -
		                                               (st0->layer.b + st0->layer.w + st0->layer.recompute)), 1e-6);
		free(st0);
		free(st1);
		calc_diag_free(&d);
	}
}

/* Layer-level activation offloading (training.offload_activations = 12 of Llama 3 8B's
 * 32 layers) at tp 4 without SP, pp 1, s 8192, b 1, no recomputation: one layer's
 * activations F = 486,801,408 B (by hand, tests/calc/memory.c test_offload_activations)
 * cross the host link once each way, F / bw.  Transformer Engine's synchronisation
 * (cpu_offload.py, DefaultOffloadSynchronizer) lets the copies of layers 0 .. 11 run on
 * one stream from layer 1's forward until layer 31's: 30 layers' compute hides them, so
 * per micro-batch the forward grows by max(0, 12 F / bw - 30 (f + comm_f)) and the
 * backward by max(0, 12 F / bw - 30 (b + w + comm_b)).  At 1 GB/s (0.49 s a layer) the
 * copies stick out; at 1 TB/s (0.49 ms a layer, 5.8 ms in all, against 30 forwards of
 * at least 0.9 ms each: the GEMMs alone, 2 x 8192 tokens x 218 M weights / 4 at the
 * H100's 989 TFLOP/s) they are hidden. */
static void test_offload_time(void **state)
{
	const double F = 486801408.0;
	const char *s[] = {"model.preset=llama3-8b", "tp=4", "pp=1", "dp=0", "sp=no", "seq_len=8192", "micro_batch=1",
	                   "recompute=none", "flash_attention=yes", "cluster.gpu_pcie_bw=1e9",
	                   "training.offload_activations=12"};
	struct calc_plan p;
	struct calc_step *st0 = calloc(1, sizeof *st0), *st1 = calloc(1, sizeof *st1);
	struct calc_diag d = {0};
	const struct calc_layer_time *l;
	double cf, cb;
	(void)state;
	load_plan(&p, s, 10);
	assert_int_equal(calc_step(&p, st0, &d), 0);
	load_plan(&p, s, 11);
	assert_int_equal(calc_step(&p, st1, &d), 0);
	l = &st0->layer;
	assert_near(st1->layer.off_f, F / 1e9, 1e-9);
	assert_near(st1->layer.off_b, F / 1e9, 1e-9);
	cf = 12 * F / 1e9 - 30 * (l->f + l->comm_f);
	cb = 12 * F / 1e9 - 30 * (l->b + l->w + l->comm_b);
	assert_true(cf > 0 && cb > 0);
	assert_near(st1->tf - st0->tf, cf, 1e-9);
	assert_near(st1->tb - st0->tb, cb, 1e-9);
	/* at 1 TB/s: hidden */
	p.gpu.pcie_bw = 1e12;
	assert_true(l->f > 0.9e-3);
	assert_int_equal(calc_step(&p, st1, &d), 0);
	assert_near(st1->tf, st0->tf, 1e-12);
	assert_near(st1->tb, st0->tb, 1e-12);
	free(st0);
	free(st1);
	calc_diag_free(&d);
}

/* Fine-grained activation offloading (training.offload_modules = qkv_linear, core_attn,
 * attn_proj) on Llama 3 8B at tp 4 without SP, pp 1, s 8192, b 1: m = 176,160,768 B a
 * layer by hand (tests/calc/memory.c test_offload_modules) crosses the host link once
 * each way, m / bw; Megatron-Core copies on side streams behind the layer's own compute
 * (fine_grained_activation_offload.py: d2h_stream, h2d_stream), so a layer exposes
 * max(0, m / bw - f) in the forward and max(0, m / bw - (b + w)) in the backward, and
 * the stage's 32 layers 32 times that.  At 1 GB/s (0.18 s a layer) they stick out; at
 * 1 TB/s (0.18 ms against a forward of at least 0.9 ms, test_offload_time) hidden. */
static void test_offload_modules_time(void **state)
{
	const double m = 176160768.0;
	const char *s[] = {"model.preset=llama3-8b", "tp=4", "pp=1", "dp=0", "sp=no", "seq_len=8192", "micro_batch=1",
	                   "recompute=none", "flash_attention=yes", "cluster.gpu_pcie_bw=1e9",
	                   "training.offload_modules=qkv_linear,core_attn,attn_proj"};
	struct calc_plan p;
	struct calc_step *st0 = calloc(1, sizeof *st0), *st1 = calloc(1, sizeof *st1);
	struct calc_diag d = {0};
	const struct calc_layer_time *l;
	double cf, cb;
	(void)state;
	load_plan(&p, s, 10);
	assert_int_equal(calc_step(&p, st0, &d), 0);
	load_plan(&p, s, 11);
	assert_int_equal(calc_step(&p, st1, &d), 0);
	l = &st0->layer;
	cf = m / 1e9 - l->f;
	cb = m / 1e9 - (l->b + l->w);
	assert_true(cf > 0 && cb > 0);
	assert_near(st1->layer.off_f, cf, 1e-9);
	assert_near(st1->layer.off_b, cb, 1e-9);
	assert_near(st1->tf - st0->tf, 32 * cf, 1e-9);
	assert_near(st1->tb - st0->tb, 32 * cb, 1e-9);
	/* at 1 TB/s: hidden */
	p.gpu.pcie_bw = 1e12;
	assert_true(l->f > 0.9e-3);
	assert_int_equal(calc_step(&p, st1, &d), 0);
	assert_near(st1->tf, st0->tf, 1e-12);
	assert_near(st1->tb, st0->tb, 1e-12);
	free(st0);
	free(st1);
	calc_diag_free(&d);
}

/* training.offload_device = nvme: the same ZeRO-3 partition of n = P / 8 = 1,003,782,656
 * parameters (Llama 3 8B on 8 GPUs) reads 16 B a parameter from NVMe (fp32 copy, two
 * moments, fp32 gradient) and writes 16 (the three states, and the gradient during the
 * backward): 32 n B at cluster.nvme_bw = 6e9 B/s, 5.354 s.  DeepSpeed's default swapper
 * runs it beside the CPU step (n / 1e9 = 1.004 s): the optimizer step grows by 32 n / bw
 * against device cpu; the pipelined swapper (nvme_pipeline) overlaps the two, the longer
 * one counting: 32 n / bw - n / rate more. */
static void test_nvme_offload_time(void **state)
{
	const double P = 8030261248.0, n = P / 8;
	const char *s[] = {"model.preset=llama3-8b", "cluster.nodes=1", "tp=1", "pp=1", "dp=8", "zero=3",
	                   "recipe=megatron", "cluster.cpu_optimizer_rate=1e9", "training.offload_optimizer=1",
	                   "training.offload_style=zero-offload", "cluster.nvme_bw=6e9", "training.offload_device=nvme",
	                   "training.nvme_pipeline=yes"};
	struct calc_plan p;
	double t0, t1, t2;
	(void)state;
	load_plan(&p, s, 11);
	t0 = calc_step_optimizer_time(&p, P, 0, 8);
	load_plan(&p, s, 12);
	t1 = calc_step_optimizer_time(&p, P, 0, 8);
	load_plan(&p, s, 13);
	t2 = calc_step_optimizer_time(&p, P, 0, 8);
	assert_near(t1 - t0, 32 * n / 6e9, 1e-9);
	assert_near(t2 - t0, 32 * n / 6e9 - n / 1e9, 1e-9);
}

/* training.offload_param = cpu on Llama 3 8B at ZeRO-3 over 8 GPUs (tp 1, pp 1, megatron
 * recipe): a layer's 218,112,000 parameters (attention 4096 x 10240, SwiGLU 3 x 4096 x
 * 14336, two norms of 4096) in bf16 over 8 ranks is a partition of 54,528,000 B, fetched
 * over the host link before the forward's gather and again before the backward's: at
 * 1 GB/s 54.5 ms a pass, exposed beyond the layer's compute of the pass, 32 layers; the
 * GPU's step copies the rank's P / 8 updated bf16 weights back, 2 P / 8 / 1e9 s; with
 * nvme at 6 GB/s the fetch stays the host link's (the slower) and the write to NVMe
 * adds 2 P / 8 / 6e9 s. */
static void test_param_offload_time(void **state)
{
	const double P = 8030261248.0, w = 2 * 218112000.0 / 8;
	const char *s[] = {"model.preset=llama3-8b", "cluster.nodes=1", "tp=1", "pp=1", "dp=8", "zero=3",
	                   "recipe=megatron", "cluster.gpu_pcie_bw=1e9", "cluster.nvme_bw=6e9",
	                   "training.offload_param=cpu"};
	struct calc_plan p;
	struct calc_step *st0 = calloc(1, sizeof *st0), *st1 = calloc(1, sizeof *st1);
	struct calc_diag d = {0};
	const struct calc_layer_time *l;
	double cf, cb;
	(void)state;
	load_plan(&p, s, 9);
	assert_near(calc_memory_layer_weight_bytes(&p, 0), w, 1e-12);
	assert_int_equal(calc_step(&p, st0, &d), 0);
	load_plan(&p, s, 10);
	assert_int_equal(calc_step(&p, st1, &d), 0);
	l = &st0->layer;
	cf = w / 1e9 - l->f;
	cb = w / 1e9 - (l->b + l->w);
	assert_true(cf > 0 && cb > 0);
	assert_near(st1->tf - st0->tf, 32 * cf, 1e-9);
	assert_near(st1->tb - st0->tb, 32 * cb, 1e-9);
	assert_near(st1->optimizer - st0->optimizer, 2 * P / 8 / 1e9, 1e-9);
	p.offload_param = 2;
	assert_int_equal(calc_step(&p, st1, &d), 0);
	assert_near(st1->tf - st0->tf, 32 * cf, 1e-9);
	assert_near(st1->optimizer - st0->optimizer, 2 * P / 8 / 1e9 + 2 * P / 8 / 6e9, 1e-9);
	free(st0);
	free(st1);
	calc_diag_free(&d);
}

/* Optimizer offload's step (training.offload_optimizer = f): Llama 3 8B (P =
 * 8,030,261,248), tp 1, pp 1, dp 8, ZeRO-1, recipe megatron on H100 (HBM 3.35 TB/s, host
 * link 64 GB/s per direction, docs/references.md §6.1), the host's rate 1e9 parameters/s
 * (an input of the test, no measured figure).  Each rank updates n = P / 8 parameters; on
 * the GPU the pass over 2 (4 + 8) + 4 + 2 = 30 B per parameter (read and write master and
 * moments, read the fp32 gradient, write the bf16 weight) at HBM speed, 1 - f of them; for
 * f of them the fp32 gradient (4 B) to the host and the bf16 weight (2 B) back over the
 * link, and the host's step n f / 1e9, one after the other: at f = 0.5
 * 0.5 n 30 / 3.35e12 + 0.5 n 6 / 64e9 + 0.5 n / 1e9. */
static void test_offload_optimizer_time(void **state)
{
	const double n = 8030261248.0 / 8;
	const char *s[] = {"model.preset=llama3-8b", "cluster.preset=dgx-h100-ndr", "cluster.nodes=1", "tp=1", "pp=1",
	                   "dp=8", "zero=1", "recipe=megatron", "cluster.cpu_optimizer_rate=1e9",
	                   "training.offload_optimizer=0.5"};
	struct calc_plan p;
	struct calc_step *st0 = calloc(1, sizeof *st0), *st1 = calloc(1, sizeof *st1);
	struct calc_diag d = {0};
	(void)state;
	load_plan(&p, s, 9);
	assert_near(p.gpu.hbm_bw, 3350e9, 0);
	assert_near(p.gpu.pcie_bw, 64e9, 0);
	assert_int_equal(calc_step(&p, st0, &d), 0);
	assert_near(st0->optimizer, n * 30 / 3350e9, 1e-9);
	load_plan(&p, s, 10);
	assert_int_equal(calc_step(&p, st1, &d), 0);
	assert_near(st1->optimizer, 0.5 * n * 30 / 3350e9 + 0.5 * n * 6 / 64e9 + 0.5 * n / 1e9, 1e-9);
	assert_near(st1->time - st0->time, st1->optimizer - st0->optimizer, 1e-9);
	free(st0);
	free(st1);
	calc_diag_free(&d);
}

/* The planner's shortcuts (search.c) against calc_step_fast, a second path that takes
 * none of them: the lower bounds calc_step_fast_bound + calc_step_dp_bound never exceed
 * the step time; calc_comm_dp_only is the DP row's time; calc_step_fast_rezero from a
 * leaf at another ZeRO stage gives the same step bit for bit.  Dense (the default
 * model) and MoE (expert-DP) plans, plain DP and FSDP, every ZeRO stage, four
 * schedules, DP overlap 0, 0.8 and 1, at 400 and 25 Gb/s per GPU. */
static void test_fast_bounds(void **state)
{
	static const char *const dense[] = {"cluster.nodes=8", "parallel.tp=8", "parallel.pp=4", "parallel.dp=2",
	                                    "training.global_batch=64"};
	static const char *const moe[] = {"model.preset=mixtral-8x7b", "cluster.nodes=2", "parallel.tp=1",
	                                  "parallel.pp=2", "parallel.dp=8", "parallel.ep=8", "parallel.sp=no",
	                                  "training.global_batch=64"};
	static const char *const sched[] = {"1f1b", "dualpipe", "zb-h1", "gpipe"};
	static const double bw[] = {50e9, 3.125e9}, ov[] = {0, 0.8, 1};
	struct calc_plan p, q, r;
	struct calc_step *a = malloc(sizeof *a), *b = malloc(sizeof *b), *c = malloc(sizeof *c);
	struct calc_step_compute pre;
	struct calc_comm_pre *cp = malloc(sizeof *cp);
	int n = 0;

	for (int m = 0; m < 2; m++)
		for (int f = 0; f < 2; f++) {
			if (m == 0)
				load_plan(&p, dense, 5);
			else
				load_plan(&p, moe, 8);
			p.fsdp = f;
			calc_step_compute(&p, &pre); /* reads no network, no schedule, no ZeRO stage */
			pre.comm = cp;
			for (int i = 0; i < 4; i++)
				for (int k = 0; k < 2; k++)
					for (int o = 0; o < 3; o++)
						for (int z = 0; z < 4; z++) {
							double gp, lb, dp;
							q = p;
							assert_int_equal(calc_schedule_parse(sched[i], &q.schedule), 0);
							q.inter_node_bw = bw[k];
							q.dp_overlap = ov[o];
							q.zero = z;
							calc_comm_pre(&q, cp); /* its links are the network's */
							calc_step_fast(&q, a);
							assert_true(a->time > 0);
							lb = calc_step_fast_bound(&q, &pre, c) + calc_step_dp_bound(&q, cp);
							assert_true(lb > 0 && lb <= a->time);
							dp = calc_comm_dp_only(&q, cp, &gp);
							assert_true(gp == a->comm.grad_params);
							if (f) /* FSDP: its exposure per unit is not bounded */
								assert_true(dp == 0);
							else if (m) /* the expert-DP reduction comes on top */
								assert_true(dp > 0 && dp <= a->comm.dim[CALC_DIM_DP].time);
							else
								assert_true(dp > 0 && dp == a->comm.dim[CALC_DIM_DP].time);
							/* the same split at the next ZeRO stage, from this one */
							r = q;
							r.zero = (z + 1) % 4;
							calc_step_fast_with(&q, &pre, b);
							calc_step_fast_rezero(&r, &pre, b);
							calc_step_fast(&r, c);
							assert_true(b->time == c->time && b->makespan == c->makespan &&
							            b->dp_exposed == c->dp_exposed && b->optimizer == c->optimizer &&
							            b->bubble == c->bubble && b->mfu == c->mfu);
							assert_memory_equal(&b->comm, &c->comm, sizeof b->comm);
							n++;
						}
		}
	assert_int_equal(n, 2 * 2 * 4 * 2 * 3 * 4);
	free(a);
	free(b);
	free(c);
	free(cp);
	(void)state;
}

/* The planner bounds the schedules of one split from one busy part (search.c's
 * leaf_bound): calc_step_fast_bound_of with the busy part of another schedule that runs
 * one way (and, with recompute_method = block, has the same vpp) gives each schedule's
 * calc_step_fast_bound bit for bit, and calc_step_dp_bound of one schedule is that of
 * another with as many parameter copies.  The second path is the one-call bound of the
 * schedule itself.  The default model on 4 stages, no recomputation and block. */
static void test_fast_busy_shared(void **state)
{
	static const char *const base[] = {"cluster.nodes=8", "parallel.tp=8", "parallel.pp=4", "parallel.dp=2",
	                                   "training.global_batch=64", "parallel.recompute=full"};
	static const char *const sched[] = {"gpipe", "zb-h1", "zb-h2", "interleaved"};
	struct calc_plan p, q;
	struct calc_step *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	struct calc_step_compute pre;
	struct calc_comm_pre *cp = malloc(sizeof *cp);
	struct calc_step_busy busy;

	for (int blk = 0; blk < 2; blk++) {
		load_plan(&p, base, 6);
		p.recompute_method = blk ? CALC_RC_METHOD_BLOCK : CALC_RC_METHOD_UNSET;
		assert_int_equal(calc_schedule_parse("1f1b", &p.schedule), 0);
		calc_step_compute(&p, &pre);
		calc_comm_pre(&p, cp);
		pre.comm = cp;
		calc_step_fast_busy(&p, &pre, a, &busy);
		assert_true(busy.busy > 0 && busy.tf > 0 && busy.tb > 0);
		for (int i = 0; i < 4; i++) {
			q = p;
			assert_int_equal(calc_schedule_parse(sched[i], &q.schedule), 0);
			q.vpp = i == 3 ? 2 : 1;
			if (blk && q.vpp > 1) /* block reads vpp: its own busy part */
				continue;
			double lb = calc_step_fast_bound(&q, &pre, b);
			assert_true(calc_step_fast_bound_of(&q, &busy, a) == lb);
			assert_true(calc_step_dp_bound(&q, cp) == calc_step_dp_bound(&p, cp));
		}
	}
	free(a);
	free(b);
	free(cp);
	(void)state;
}

/*
 * A layout placed chunk by chunk runs in the simulator with each virtual stage's own
 * costs.  Llama 3.1 405B at PP 8 x VP 8 with both account_* flags (docs/references.md
 * §3.7): virtual stages 1 .. 62 hold two layers each, so each costs, forward, twice one
 * layer's forward with its exposed collectives (st.layer: f + comm_f, a second path to
 * the same number), and the same for the backward (b + recompute + comm_b) and W; virtual
 * stage 0 holds one layer and the embedding, 63 one layer and the loss.  The step's
 * makespan is the simulator's on these costs.
 */
static void test_chunk_costs(void **state)
{
	static const char *const sets[] = {"model.preset=llama3.1-405b", "cluster.nodes=2048", "parallel.tp=8",
	                                   "parallel.pp=8", "parallel.vpp=8", "parallel.schedule=interleaved",
	                                   "parallel.dp=256", "training.seq_len=8192", "training.global_batch=2048",
	                                   "parallel.account_embedding=yes", "parallel.account_loss=yes"};
	struct calc_plan *p = calloc(1, sizeof *p);
	struct calc_pp_costs *c = calloc(1, sizeof *c);
	struct calc_pp_result r;
	struct calc_step *st = calloc(1, sizeof *st);
	struct calc_diag d = {0};
	double lf, lb, lw, ms, per;

	load_plan(p, sets, (int)(sizeof sets / sizeof sets[0]));
	assert_int_equal(calc_step(p, st, &d), 0);
	assert_int_equal(calc_step_stages(p, c, &r, &d), 0);
	assert_int_equal(c->per_chunk, 1);
	assert_int_equal(c->v, 8);
	lf = st->layer.f + st->layer.comm_f + st->layer.ckpt_f;
	lb = st->layer.b + st->layer.recompute + st->layer.comm_b + st->layer.ckpt_b;
	lw = st->layer.w;
	for (int g = 1; g < 63; g++) {
		assert_near(c->tf[g], 2 * lf, 1e-12);
		assert_near(c->tb[g], 2 * lb, 1e-12);
		assert_near(c->tw[g], 2 * lw, 1e-12);
	}
	/* one layer and the embedding (a gather, far below a layer), one layer and the loss */
	assert_true(c->tf[0] > lf && c->tf[0] < 2 * lf);
	assert_true(c->tf[63] > lf);
	/* the step's makespan is the simulator's on these costs */
	assert_int_equal(calc_pipeline_simulate_span(c, &ms, &per, &d), 0);
	assert_near(st->makespan, ms, 1e-12);
	assert_near(r.makespan, ms, 1e-12);
	calc_pp_result_free(&r);
	calc_diag_free(&d);
	free(st);
	free(c);
	free(p);
}

/* calc_validate_compare_band on a small table, by hand.  Held-out rows of stack "a", class
 * "H100 dense", 64 GPUs, model "m" unless said (e = predicted / published - 1):
 *   source S1: r1 TP 2, e = +10 %; r2 TP 4, e = -10 %; r3 TP 8, e = +21 %; r4 TP 8 (r3's
 *              split), e = 0; model "n" TP 2, e = +50 % (no partner of its model);
 *              a calibrating row TP 1, e = +90 % (left out);
 *   source S2: r5 TP 2, e = 0; r6 TP 4, e = 0;
 *   stack "b", source S3: TP 2, e = +5 %; TP 4, e = -5 %.
 * A pair's error is the ratio of the two predictions over the ratio of the two published
 * figures, as a factor >= 1: (1 + e_i) / (1 + e_j) with the larger on top.
 *   (r1, r2) 1.10 / 0.90 - 1 = 0.2222; (r1, r3) 1.21 / 1.10 - 1 = 0.10; (r1, r4) 0.10;
 *   (r2, r3) 1.21 / 0.90 - 1 = 0.3444; (r2, r4) 1 / 0.90 - 1 = 0.1111; (r3, r4) one split,
 *   left out; (r5, r6) 0; S1 with S2 and "m" with "n": other source or model, left out.
 * Stack "a": 6 pairs {0, 0.10, 0.10, 0.1111, 0.2222, 0.3444}: q 0.9, ceil(5.4) = 6th,
 * 0.3444; q 0.5, 3rd, 0.10; q 0.1, 1st, 0, raised to the floor 0.02.  Stack "b": 1 pair
 * (1.05 / 0.95 - 1 = 0.10526), fewer than 5: all 7 pairs, q 0.5 ceil(3.5) = 4th, 0.10526. */
static void test_validate_compare_band(void **state)
{
	struct calc_table t;
	struct calc_band b;
	calc_table_init(&t, "validation", "");
	int cs = calc_table_col(&t, "stack", "", CALC_D_TEXT, 0);
	int csrc = calc_table_col(&t, "source", "", CALC_D_TEXT, 0);
	int cm = calc_table_col(&t, "model", "", CALC_D_TEXT, 0);
	int cg = calc_table_col(&t, "GPUs", "1", CALC_D_INT, 0);
	int ctp = calc_table_col(&t, "TP", "1", CALC_D_INT, 0);
	int ccp = calc_table_col(&t, "CP", "1", CALC_D_INT, 0);
	int cpp = calc_table_col(&t, "PP", "1", CALC_D_INT, 0);
	int cdp = calc_table_col(&t, "DP", "1", CALC_D_INT, 0);
	int cv = calc_table_col(&t, "v", "1", CALC_D_INT, 0);
	int crc = calc_table_col(&t, "recompute", "", CALC_D_TEXT, 0);
	int ce = calc_table_col(&t, "error", "1", CALC_D_PCT, 1);
	int cr = calc_table_col(&t, "role", "", CALC_D_TEXT, 0);
	int cc = calc_table_col(&t, "class", "", CALC_D_TEXT, 0);
	static const struct {
		const char *stack, *src, *model, *role;
		int tp;
		double e;
	} in[] = {
		{"a", "S1", "m", "held out", 2, 0.10},  {"a", "S1", "m", "held out", 4, -0.10},
		{"a", "S1", "m", "held out", 8, 0.21},  {"a", "S1", "m", "held out", 8, 0.0},
		{"a", "S1", "n", "held out", 2, 0.50},  {"a", "S1", "m", "calibrates", 1, 0.90},
		{"a", "S2", "m", "held out", 2, 0.0},   {"a", "S2", "m", "held out", 4, 0.0},
		{"b", "S3", "m", "held out", 2, 0.05},  {"b", "S3", "m", "held out", 4, -0.05},
	};
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		int r = calc_table_row(&t);
		calc_table_str(&t, r, cs, in[i].stack);
		calc_table_str(&t, r, csrc, in[i].src);
		calc_table_str(&t, r, cm, in[i].model);
		calc_table_num(&t, r, cg, 64);
		calc_table_num(&t, r, ctp, in[i].tp);
		calc_table_num(&t, r, ccp, 1);
		calc_table_num(&t, r, cpp, 1);
		calc_table_num(&t, r, cdp, 64 / in[i].tp);
		calc_table_num(&t, r, cv, 1);
		calc_table_str(&t, r, crc, "none");
		calc_table_num(&t, r, ce, in[i].e);
		calc_table_str(&t, r, cr, in[i].role);
		calc_table_str(&t, r, cc, "H100 dense");
	}
	assert_int_equal(calc_validate_compare_band(&t, "a", "H100", 0.9, 5, 0.02, &b), 0);
	assert_int_equal(b.rows, 6);
	assert_int_equal(b.per_stack, 1);
	assert_int_equal(b.per_hardware, 1);
	assert_near(b.band, 1.21 / 0.90 - 1, 1e-12);
	assert_int_equal(calc_validate_compare_band(&t, "a-2024", "H100", 0.5, 5, 0.02, &b), 0);
	assert_near(b.band, 0.10, 1e-12);
	/* the 1st of six is 0: the floor */
	assert_int_equal(calc_validate_compare_band(&t, "a", "H100", 0.1, 5, 0.02, &b), 0);
	assert_near(b.band, 0.02, 1e-12);
	/* no pair on A100: the stack's pairs on every GPU */
	assert_int_equal(calc_validate_compare_band(&t, "a", "A100", 0.9, 5, 0.02, &b), 0);
	assert_int_equal(b.rows, 6);
	assert_int_equal(b.per_hardware, 0);
	assert_int_equal(b.per_stack, 1);
	/* "b" has one pair: all seven */
	assert_int_equal(calc_validate_compare_band(&t, "b", "H100", 0.5, 5, 0.02, &b), 0);
	assert_int_equal(b.rows, 7);
	assert_int_equal(b.per_stack, 0);
	assert_string_equal(b.scope, "all stacks");
	assert_near(b.band, 1.05 / 0.95 - 1, 1e-12);
	/* with min_pairs 1 its own pair */
	assert_int_equal(calc_validate_compare_band(&t, "b", NULL, 0.9, 1, 0, &b), 0);
	assert_int_equal(b.rows, 1);
	assert_near(b.band, 1.05 / 0.95 - 1, 1e-12);
	calc_table_free(&t);
}

/* calc_validate_band on a table of ten held-out rows of stack "a" (|errors| 1 % .. 10 %),
 * three of stack "b" and two calibrating rows of "a" (50 %, left out).  By hand, nearest
 * rank (Hyndman and Fan 1996, definition 1): ceil(0.9 x 10) = 9, the 9th smallest of
 * "a" is 9 %; with min_rows 5, stack "b" (3 rows) falls back to all 13 held-out rows,
 * ceil(0.9 x 13) = 12, the 12th smallest of {1..10, 20, 30, 40} % is 30 %.  A plan stack
 * "a-2024" takes the rows of "a" (its family); "c" has none and falls back too.
 * Hardware: rows 1..6 % of "a" are class "H100 dense", 7..10 % "A100 dense", those of "b"
 * "H100 MoE".  "a" on H100: its six H100 rows, ceil(0.9 x 6) = 6, the 6th smallest, 6 %;
 * "a" on A100: four rows, fewer than 5, so all ten rows of "a", 9 %; "a" on Blackwell: none,
 * the same 9 %; "b" on H100 with min_rows 3: its three rows, 40 %. */
static void test_validate_band(void **state)
{
	struct calc_table t;
	struct calc_band b;
	calc_table_init(&t, "validation", "");
	int cs = calc_table_col(&t, "stack", "", CALC_D_TEXT, 0);
	int ce = calc_table_col(&t, "error", "1", CALC_D_PCT, 1);
	int cr = calc_table_col(&t, "role", "", CALC_D_TEXT, 0);
	int cc = calc_table_col(&t, "class", "", CALC_D_TEXT, 0);
	for (int i = 1; i <= 10; i++) {
		int r = calc_table_row(&t);
		calc_table_str(&t, r, cs, "a");
		calc_table_str(&t, r, cc, i <= 6 ? "H100 dense" : "A100 dense");
		calc_table_num(&t, r, ce, (i % 2 ? -1 : 1) * i / 100.0);
		calc_table_str(&t, r, cr, "held out");
	}
	for (int i = 2; i <= 4; i++) {
		int r = calc_table_row(&t);
		calc_table_str(&t, r, cs, "b");
		calc_table_str(&t, r, cc, "H100 MoE");
		calc_table_num(&t, r, ce, i / 10.0);
		calc_table_str(&t, r, cr, "held out");
	}
	for (int i = 0; i < 2; i++) {
		int r = calc_table_row(&t);
		calc_table_str(&t, r, cs, "a");
		calc_table_str(&t, r, cc, "H100 dense");
		calc_table_num(&t, r, ce, 0.5);
		calc_table_str(&t, r, cr, "calibrates");
	}
	assert_int_equal(calc_validate_band(&t, "a", NULL, 0.9, 5, &b), 0);
	assert_int_equal(b.rows, 10);
	assert_int_equal(b.per_stack, 1);
	assert_string_equal(b.scope, "a");
	assert_near(b.band, 0.09, 1e-12);
	assert_int_equal(calc_validate_band(&t, "a-2024", NULL, 0.9, 5, &b), 0);
	assert_int_equal(b.rows, 10);
	assert_near(b.band, 0.09, 1e-12);
	assert_int_equal(calc_validate_band(&t, "b", NULL, 0.9, 5, &b), 0);
	assert_int_equal(b.rows, 13);
	assert_int_equal(b.per_stack, 0);
	assert_string_equal(b.scope, "all stacks");
	assert_near(b.band, 0.30, 1e-12);
	assert_int_equal(calc_validate_band(&t, "c", NULL, 0.9, 5, &b), 0);
	assert_int_equal(b.rows, 13);
	assert_near(b.band, 0.30, 1e-12);
	/* "b" alone with min_rows 3: ceil(0.9 x 3) = 3, the largest, 40 % */
	assert_int_equal(calc_validate_band(&t, "b", NULL, 0.9, 3, &b), 0);
	assert_int_equal(b.per_stack, 1);
	assert_near(b.band, 0.40, 1e-12);
	assert_int_equal(calc_validate_band(&t, "a", "H100", 0.9, 5, &b), 0);
	assert_int_equal(b.rows, 6);
	assert_int_equal(b.per_stack, 1);
	assert_int_equal(b.per_hardware, 1);
	assert_near(b.band, 0.06, 1e-12);
	assert_int_equal(calc_validate_band(&t, "a", "A100", 0.9, 5, &b), 0);
	assert_int_equal(b.rows, 10);
	assert_int_equal(b.per_stack, 1);
	assert_int_equal(b.per_hardware, 0);
	assert_near(b.band, 0.09, 1e-12);
	assert_int_equal(calc_validate_band(&t, "a", "Blackwell", 0.9, 5, &b), 0);
	assert_int_equal(b.rows, 10);
	assert_near(b.band, 0.09, 1e-12);
	assert_int_equal(calc_validate_band(&t, "b", "H100", 0.9, 3, &b), 0);
	assert_int_equal(b.rows, 3);
	assert_int_equal(b.per_hardware, 1);
	assert_near(b.band, 0.40, 1e-12);
	/* "H10" is no generation: no class begins with "H10 ", so the stack's rows */
	assert_int_equal(calc_validate_band(&t, "a", "H10", 0.9, 5, &b), 0);
	assert_int_equal(b.per_hardware, 0);
	assert_int_equal(b.rows, 10);
	calc_table_free(&t);
}

/* calc_validate_plan_band runs only the validation rows its band reads (calc/validate.c,
 * band_rows), each once per process.  The second method: the whole table, every row
 * run (calc_validate), under calc_validate_band.  For every stack, no stack (megatron-core)
 * and each GPU generation the two give the same bits.  The kept bands answer by stack
 * and generation: over these pairs at least three different bands come back (megatron on
 * H100, torchtitan on A100, all stacks for a stack without rows), so a key that left one
 * out would give a wrong band here.  A schedule registered (a new generation of the
 * schedule table) drops what was kept, and the bands taken again are the same. */
static void test_validate_plan_band_rows(void **state)
{
	static const char *const gpus[] = {"a100-80gb", "h100-sxm", "b200", "none"};
	struct calc_table t;
	struct calc_validation v;
	struct calc_diag d = {0};
	struct calc_plan *p = calloc(1, sizeof *p);
	double seen[64];
	int nseen = 0, npairs = 0;
	(void)state;
	assert_int_equal(calc_validate(NULL, 0, &t, &v, &d), 0);
	for (int round = 0; round < 2; round++) {
		for (int s = -1; s < 0 || calc_stack_at(s); s++)
			for (int g = 0; g < 4; g++) {
				struct calc_band b;
				const char *stk = s < 0 ? "megatron-core" : calc_stack_at(s)->name;
				double want, got;
				p->stack = s < 0 ? NULL : calc_stack_at(s);
				snprintf(p->gpu.name, sizeof p->gpu.name, "%s", gpus[g]);
				want = calc_validate_band(&t, stk, calc_gpu_generation(gpus[g]), CALC_BAND_Q,
				                          CALC_BAND_MIN_ROWS, &b) == 0 ? b.band : NAN;
				got = calc_validate_plan_band(p);
				assert_true(isfinite(want));
				assert_memory_equal(&got, &want, sizeof got);
				npairs += round == 0;
				int k = 0;
				while (k < nseen && seen[k] != got)
					k++;
				if (k == nseen && nseen < 64)
					seen[nseen++] = got;
			}
		if (round == 0) { /* another schedule table: the bands are taken again */
			struct calc_sched row = *calc_schedule_at(CALC_SCHED_1F1B);
			row.name = "band-test";
			assert_true(calc_schedule_register(&row, &d) >= CALC_SCHED_N);
		}
	}
	assert_true(npairs >= 8);
	assert_true(nseen >= 3);
	calc_schedule_unregister_all();
	calc_table_free(&t);
	calc_diag_free(&d);
	free(p);
}

/* The bands computed when trainplan was built (build/band_table.h, calc/gen/band_table.c)
 * against the same bands run from the validation rows now (calc_validate_band_run), bit
 * for bit: a table gone stale (a row, a preset, a stack or a built-in schedule changed
 * and the table not rewritten) fails here.  The table holds every stack preset on every
 * GPU generation calc_gpu_generation names, each pair once. */
static void test_validate_band_built(void **state)
{
	static const char *const gens[] = {"A100", "H100", "Blackwell", "other"};
	int n = calc_validate_band_built(-1, NULL, NULL, NULL), nstacks = 0;
	(void)state;
	if (n < 0) /* a build without the table (the sanitizer builds before it is written) */
		skip();
	while (calc_stack_at(nstacks))
		nstacks++;
	assert_int_equal(n, nstacks * 4);
	for (int s = 0; s < nstacks; s++)
		for (int g = 0; g < 4; g++) {
			int found = 0;
			for (int i = 0; i < n; i++) {
				const char *stk, *gen;
				double band;
				assert_int_equal(calc_validate_band_built(i, &stk, &gen, &band), 1);
				if (strcmp(stk, calc_stack_at(s)->name) || strcmp(gen, gens[g]))
					continue;
				found++;
				double run = calc_validate_band_run(stk, gens[g]);
				assert_memory_equal(&band, &run, sizeof band);
			}
			assert_int_equal(found, 1);
		}
	const char *stk, *gen;
	double band;
	assert_int_equal(calc_validate_band_built(n, &stk, &gen, &band), 0);
}

/* The validation rows computed when trainplan was built (build/band_table.h,
 * calc_validate_row_built), which the validation table reads instead of running the rows:
 * each the row as run now (calc_validate_row_run), bit for bit, so that a table gone stale
 * (a preset, a stack, a formula changed without the header written again) fails here; a
 * row the table leaves out (ok 0) is one that predicts nothing or fails when run. */
static void test_validate_rows_built(void **state)
{
	int n = calc_validate_row_count(), held = 0;
	(void)state;
	struct calc_validate_res b, r;
	if (calc_validate_row_built(0, &b) < 0) /* a build without the table */
		skip();
	for (int i = 0; i < n; i++) {
		int rc = calc_validate_row_run(i, &r);
		if (calc_validate_row_built(i, &b) != 1) {
			assert_int_equal(rc, -1); /* left out: it predicts nothing or fails */
			continue;
		}
		held++;
		assert_int_equal(rc, 0);
		assert_int_equal(b.ok, 1);
		assert_memory_equal(&b.pred, &r.pred, sizeof b.pred);
		assert_memory_equal(&b.mfu, &r.mfu, sizeof b.mfu);
		assert_memory_equal(&b.hfu, &r.hfu, sizeof b.hfu);
		assert_memory_equal(&b.peak, &r.peak, sizeof b.peak);
		assert_int_equal(b.dp, r.dp);
		assert_int_equal(b.v, r.v);
		assert_int_equal(b.fits, r.fits);
		assert_string_equal(b.model, r.model);
		assert_string_equal(b.recipe, r.recipe);
	}
	assert_true(held > 0);
	assert_int_equal(calc_validate_row_built(n, &b), 0);
	assert_int_equal(calc_validate_row_built(-1, &b), 0);
}

/* The pipeline stage takes its typed input and no plan (calc_step_pipeline): four stages
 * of two layers of one kind, F = 1 ms, B = 2 ms, W = 1 ms a layer, the embedding
 * (0.5 ms forward and weight gradient) on stage 0, the head (2 ms forward, 2 ms input
 * and 1 ms weight gradient) on stage 3, m = 8.  By hand: stage 0 per micro-batch
 * T_F 2.5, T_B 4, T_W 2.5 ms; the middle stages 2, 4, 2; stage 3 4, 6, 3 ms -- stage 3
 * is critical, busy 8 x 13 = 104 ms.  1F1B's closed-form bubble (Narayanan et al. 2021
 * §2.2.1) (p - 1)(F + B + W) = 3 x 13 = 39 ms, plus a 0.1 ms send each way per stage
 * boundary on the fill and drain paths, 2 x 3 x 0.1 = 0.6 ms. */
static void test_pipeline_stage_typed(void **state)
{
	struct calc_layer_time lt[1];
	struct calc_stage_layers all[4];
	struct calc_pipeline_in in;
	struct calc_pipeline_out out;
	struct calc_pp_costs *c = calloc(1, sizeof *c);
	(void)state;
	memset(lt, 0, sizeof lt);
	memset(all, 0, sizeof all);
	memset(&in, 0, sizeof in);
	lt[0].f = 1e-3, lt[0].b = 2e-3, lt[0].w = 1e-3;
	for (int i = 0; i < 4; i++)
		all[i].layers = all[i].count[0] = 2, all[i].embedding = i == 0, all[i].head = i == 3;
	in.kind = lt, in.nkinds = 1, in.all = all, in.uniform = 1, in.heavy = -1;
	in.ends.first_f = in.ends.first_w = 0.5e-3;
	in.ends.last_f = in.ends.last_b = 2e-3, in.ends.last_w = 1e-3;
	in.shape.sched = CALC_SCHED_1F1B, in.shape.p = 4, in.shape.m = 8, in.shape.v = in.shape.vpp = 1;
	in.shape.flush = 1, in.shape.p2p = 0.1e-3;
	in.rc.v = in.rc.n = 1;
	assert_near(calc_step_pipeline(&in, NULL, &out), 104e-3, 1e-12);
	assert_int_equal(out.critical, 3);
	assert_near(out.tf, 4e-3, 1e-12);
	assert_near(out.tb, 6e-3, 1e-12);
	assert_near(out.tw, 3e-3, 1e-12);
	assert_near(out.compute, 104e-3, 1e-12);
	assert_near(calc_step_closed_bubble(&in.shape, out.tf, out.tb, out.tw), 39.6e-3, 1e-12);
	/* the simulator's path costs every stage */
	assert_near(calc_step_pipeline(&in, c, &out), 104e-3, 1e-12);
	assert_near(c->tf[0], 2.5e-3, 1e-12);
	assert_near(c->tb[1], 4e-3, 1e-12);
	assert_near(c->tw[2], 2e-3, 1e-12);
	assert_near(c->tw[3], 3e-3, 1e-12);
	/* recompute_method = block with N = 1 of v = 1 chunk: of a stage's 2 layers 1
	 * recomputes, so half of a layer's 1 ms recomputation leaves T_B per layer */
	lt[0].recompute = 1e-3;
	in.rc.block = 1;
	calc_step_pipeline(&in, NULL, &out);
	assert_near(out.tb, 6e-3 + 1e-3, 1e-12);
	assert_near(out.recompute, 8 * 1e-3, 1e-12);
	free(c);
}

/* The index of the plan's last layer kind of type 'type', -1 when it has none. */
static int kind_of_type(const struct calc_plan *p, int type)
{
	struct calc_layer_kind kd;
	int found = -1;
	for (int k = 0; k < calc_model_nkinds(&p->model); k++) {
		calc_model_kind(&p->model, k, &kd);
		if ((int)kd.type == type)
			found = k;
	}
	return found;
}

/* The selective scan of a Mamba-1 layer in the attention core's place (docs/references.md
 * §5.17), Jamba-v0.1 at tp 1, one micro-batch of T = 4,096 tokens: per token 9 d_i N =
 * 9 x 8,192 x 16 = 1,179,648 FLOPs and the conv1d 2 x 4 x 8,192 = 65,536, at the
 * attention core's rate (the BF16 peak x efficiency.attention), plus the scan's operands
 * u, delta, z, y (d_i each) and B, C (N each), 2 bytes each, at the HBM bandwidth:
 *   attn = T (1,245,184) / (peak x eff) + T x 2 x (4 x 8,192 + 2 x 16) / B
 * and its backward twice that.  The projections of the S layer: in_proj 4,096 x 16,384,
 * x_proj 8,192 x 288, dt_proj 256 x 8,192 and out_proj 8,192 x 4,096, each GEMM at
 * least its FLOPs at the GEMM rate (tile and wave quantization only add), 2 T (4,096 x
 * 16,384 + 8,192 x 288 + 256 x 8,192 + 8,192 x 4,096) in all (a lower bound). */
static void test_mamba1_scan_time(void **state)
{
	const char *s[] = {"model.preset=jamba-v0.1", "cluster.preset=dgx-h100-ndr", "cluster.nodes=1", "parallel.tp=1",
	                   "parallel.pp=1", "parallel.dp=0", "parallel.ep=8", "training.seq_len=4096",
	                   "training.micro_batch=1", "training.global_batch=64"};
	struct calc_plan p;
	struct calc_comm cm;
	struct calc_layer_time a;
	int sk;
	double T = 4096, fl, io, gf;
	(void)state;

	load_plan(&p, s, (int)(sizeof s / sizeof s[0]));
	sk = kind_of_type(&p, CALC_LAYER_MAMBA1);
	assert_true(sk >= 0);
	calc_comm(&p, &cm);
	calc_layer_time_kind(&p, &cm, sk, &a);
	fl = T * (9.0 * 8192 * 16 + 2.0 * 4 * 8192);
	io = T * 2 * (4.0 * 8192 + 2 * 16) / p.gpu.hbm_bw;
	assert_near(a.attn, fl / (p.gpu.bf16_flops * p.attn_eff) + io, 1e-12);
	assert_near(a.attn_b, 2 * a.attn, 1e-12);
	gf = 2 * T * (4096.0 * 16384 + 8192.0 * 288 + 256.0 * 8192 + 8192.0 * 4096);
	assert_true(a.gemm >= gf / (p.gpu.bf16_flops * p.gemm_eff) * (1 - 1e-12));
}

/* The Mamba-2 scan's time (docs/references.md §5.14, calc/step.c layer_compute): Nemotron 3
 * Nano (H 64, P 64, N 128, G 8, d_conv 4, chunk Q 128) on H100, tp 1, sequence 8,192,
 * micro-batch 1: T = 8,192 tokens.  FLOPs per token 2 Q P H + 2 Q N G + 4 N P H + 2 d_conv
 * (H P + 2 G N) = 1,048,576 + 262,144 + 2,097,152 + 49,152 = 3,457,024 at the attention
 * rate; traffic per token: the operands x, B, C, dt read and y written, 2 B each,
 * 2 (4,096 + 2,048 + 64 + 4,096) = 20,608 B, and the SSD kernels' intermediates
 * (mamba_ssm ssd_combined.py _mamba_chunk_scan_combined_fwd): the chunk states written in
 * fp32, read, written in bf16 and read, 12 H P N / Q = 12 x 4,096 = 49,152 B, and C B^T in
 * fp32 written and read, 8 G Q = 8,192 B: 77,952 B a token.  The backward twice the
 * forward; at tp 2 every term on half the heads and groups: half the time. */
static void test_mamba2_scan_time(void **state)
{
	const char *s[] = {"model.preset=nemotron-3-nano-30b-a3b", "cluster.preset=dgx-h100-ndr", "cluster.nodes=2",
	                   "parallel.tp=1", "parallel.pp=1", "parallel.dp=16", "parallel.ep=8", "training.seq_len=8192",
	                   "training.micro_batch=1", "training.global_batch=64"};
	struct calc_plan p;
	struct calc_comm cm;
	struct calc_layer_time a, a2;
	int mk;
	double T = 8192;
	(void)state;

	load_plan(&p, s, (int)(sizeof s / sizeof s[0]));
	mk = kind_of_type(&p, CALC_LAYER_MAMBA);
	assert_true(mk >= 0);
	calc_comm(&p, &cm);
	calc_layer_time_kind(&p, &cm, mk, &a);
	assert_near(a.attn, T * 3457024.0 / (p.gpu.bf16_flops * p.attn_eff) + T * 77952.0 / p.gpu.hbm_bw, 1e-15);
	assert_near(a.attn_b, 2 * a.attn, 1e-15);
	s[3] = "parallel.tp=2";
	s[5] = "parallel.dp=8";
	load_plan(&p, s, (int)(sizeof s / sizeof s[0]));
	calc_comm(&p, &cm);
	calc_layer_time_kind(&p, &cm, mk, &a2);
	assert_near(a2.attn, a.attn / 2, 1e-15);
}

/* The Mamba-2 layer's layout transposes (docs/references.md §5.14; MambaMixer._ssm_training,
 * megatron/core/ssm/mamba_mixer.py at 2d1fa8d37): with two sequences a micro-batch the
 * in_proj output and the kernel's output are copied between (s, b, d) and (b, s, d), read and
 * write in BF16, once forward and once backward.  Nemotron 3 Nano at tp 1, by hand: in_proj
 * width 2 x 4,096 + 2 x 8 x 128 + 64 = 10,304 and d_i = 64 x 64 = 4,096, so 4 x (10,304 +
 * 4,096) = 57,600 B a token; 16,384 tokens a micro-batch of 2 x 8,192.  With one sequence
 * nothing moves (the permuted view is contiguous), so the element-wise time of the two
 * micro-batch sizes differs by the copies alone; an attention layer has none. */
static void test_mamba2_transposes(void **state)
{
	const char *s[] = {"model.preset=nemotron-3-nano-30b-a3b", "cluster.preset=dgx-h100-ndr", "cluster.nodes=2",
	                   "parallel.tp=1", "parallel.pp=1", "parallel.dp=16", "parallel.ep=8", "training.seq_len=8192",
	                   "training.micro_batch=1", "training.global_batch=64"};
	struct calc_plan p;
	struct calc_comm cm;
	struct calc_layer_time m1, m2, a1, a2;
	int mk, ak;
	double copies;
	(void)state;

	load_plan(&p, s, (int)(sizeof s / sizeof s[0]));
	mk = kind_of_type(&p, CALC_LAYER_MAMBA);
	ak = kind_of_type(&p, CALC_LAYER_ATTN);
	assert_true(mk >= 0 && ak >= 0);
	calc_comm(&p, &cm);
	calc_layer_time_kind(&p, &cm, mk, &m1);
	calc_layer_time_kind(&p, &cm, ak, &a1);
	s[8] = "training.micro_batch=2";
	load_plan(&p, s, (int)(sizeof s / sizeof s[0]));
	calc_comm(&p, &cm);
	calc_layer_time_kind(&p, &cm, mk, &m2);
	calc_layer_time_kind(&p, &cm, ak, &a2);
	copies = 16384.0 * 57600.0 / p.gpu.hbm_bw;
	assert_near(m2.elem - 2 * m1.elem, copies, 1e-15);
	/* the backward's element-wise part: twice the other ops, the copies once */
	assert_near(m2.b - m2.gemm - m2.attn_b - 2 * m2.elem, -copies, 1e-15);
	assert_near(m1.b - m1.gemm - m1.attn_b - 2 * m1.elem, 0, 1e-15);
	assert_near(a2.elem, 2 * a1.elem, 1e-15);
}

/* CP of a hybrid model, by layer kind (docs/references.md §4.11): on Nemotron-H 8B at tp 1,
 * cp 2 a Mamba-2 layer is charged MambaContextParallel's six all-to-alls each way, whole
 * (nothing overlaps them: the conv1d and scan wait for the input, out_proj for y), an MLP
 * layer no CP collective at all, and an attention layer the ring, which it hides behind
 * its attention core as a dense layer does. */
static void test_cp_hybrid_kinds(void **state)
{
	const char *s[] = {"model.preset=nemotron-h-8b", "training.seq_len=8192", "training.global_batch=512",
	                   "cluster.nodes=32", "parallel.tp=1", "parallel.pp=1", "parallel.cp=2", "parallel.cp_comm=p2p"};
	struct calc_plan p;
	struct calc_step *st = calloc(1, sizeof *st);
	struct calc_diag d = {0};
	int seen = 0;
	(void)state;
	load_plan(&p, s, 8);
	assert_int_equal(calc_step(&p, st, &d), 0);
	assert_true(st->comm.cp_mamba_f > 0);
	for (int k = 0; k < calc_model_nkinds(&p.model); k++) {
		struct calc_layer_kind kd;
		const struct calc_layer_time *o = &st->kind_layer[k];
		calc_model_kind(&p.model, k, &kd);
		if (kd.type == CALC_LAYER_MAMBA) {
			assert_near(o->comm_f, st->comm.cp_mamba_f, 1e-12);
			assert_near(o->comm_b, st->comm.cp_mamba_f, 1e-12);
			seen |= 1;
		} else if (kd.type == CALC_LAYER_MLP) {
			assert_true(o->comm_f == 0 && o->comm_b == 0);
			seen |= 2;
		} else if (kd.type == CALC_LAYER_ATTN) {
			assert_true(o->comm_f <= st->comm.cp_layer_f && o->comm_b <= st->comm.cp_layer_b);
			seen |= 4;
		}
	}
	assert_int_equal(seen, 7);
	/* Qwen3-Next: a gated delta-net layer its two all-to-alls each way, whole; an MoE
	 * layer of the pattern (E) none */
	{
		const char *q[] = {"model.preset=qwen3-next-80b-a3b", "training.seq_len=8192", "training.global_batch=512",
		                   "cluster.nodes=32", "parallel.tp=1", "parallel.pp=1", "parallel.cp=2", "parallel.cp_comm=p2p"};
		seen = 0;
		load_plan(&p, q, 8);
		assert_int_equal(calc_step(&p, st, &d), 0);
		assert_true(st->comm.cp_gdn_f > 0);
		for (int k = 0; k < calc_model_nkinds(&p.model); k++) {
			struct calc_layer_kind kd;
			const struct calc_layer_time *o = &st->kind_layer[k];
			calc_model_kind(&p.model, k, &kd);
			if (kd.type == CALC_LAYER_GDN) {
				assert_near(o->comm_f, st->comm.cp_gdn_f, 1e-12);
				assert_near(o->comm_b, st->comm.cp_gdn_f, 1e-12);
				seen |= 1;
			} else if (kd.type == CALC_LAYER_EXPERTS) {
				assert_true(o->comm_f == 0 && o->comm_b == 0);
				seen |= 2;
			}
		}
		assert_int_equal(seen, 3);
	}
	free(st);
}

/* The planner's leaves of one split with the memo of its DP rows and optimizer times
 * (calc_comm_dp_memo, calc_step_finish_with): a walk over 24 variants (GPipe, 1F1B,
 * interleaved with 2 and 4 chunks, ZB-H1, DualPipe, times the four ZeRO stages) in the
 * planner's order -- a variant's first leaf from the kept rows (calc_step_fast_resched),
 * its other ZeRO stages re-timed (calc_step_fast_rezero) -- against calc_step_fast_with
 * of each leaf without a memo, every communication byte and the step's times bit for
 * bit; on the default plan, an MoE plan with PP and expert DP, and with a quarter of the
 * optimizer offloaded (its time reads the ZeRO stage's shard). */
static void test_fast_memo(void **state)
{
	const char *moe[] = {"model.preset=olmoe-1b-7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=2",
	                     "parallel.dp=8", "parallel.ep=4", "training.seq_len=4096", "training.global_batch=64",
	                     "training.micro_batch=1", "parallel.sp=no", "parallel.recompute=selective",
	                     "parallel.placement=tp-cp-dp-ep-pp"};
	const char *off[] = {"cluster.cpu_optimizer_rate=1e9", "training.offload_optimizer=0.25"};
	struct {
		const char *const *sets;
		int n;
	} plans[] = {{NULL, 0}, {moe, 12}, {off, 2}};
	const int sched[6] = {CALC_SCHED_GPIPE, CALC_SCHED_1F1B, CALC_SCHED_INTERLEAVED, CALC_SCHED_INTERLEAVED,
	                      CALC_SCHED_ZBH1, CALC_SCHED_DUALPIPE};
	const int vpp[6] = {1, 1, 2, 4, 1, 1};
	struct calc_step *got = malloc(sizeof *got), *want = malloc(sizeof *want);
	struct calc_comm_pre *cp = malloc(sizeof *cp), *cp0 = malloc(sizeof *cp0);
	struct calc_comm_dp_memo *dm = malloc(sizeof *dm);
	struct calc_comm kept;
	(void)state;
	for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++) {
		struct calc_plan p;
		struct calc_step_compute pre, pre0;
		load_plan(&p, plans[i].sets, plans[i].n);
		calc_step_compute(&p, &pre);
		calc_comm_pre(&p, cp);
		*cp0 = *cp;
		cp->dp_memo = dm;
		dm->n = dm->nopt = 0;
		pre0 = pre;
		pre.comm = cp;
		pre0.comm = cp0;
		for (int round = 0; round < 2; round++) /* the memo filled, then read */
			for (int s = 0; s < 6; s++)
				for (int z = 0; z < 4; z++) {
					p.schedule = (enum calc_schedule)sched[s], p.vpp = vpp[s], p.zero = z;
					if (z > 0)
						calc_step_fast_rezero(&p, &pre, got);
					else if (s > 0 || round > 0) {
						got->comm = kept;
						calc_step_fast_resched(&p, &pre, got);
					} else
						calc_step_fast_with(&p, &pre, got);
					if (z == 0)
						kept = got->comm;
					memset(want, 0, sizeof *want);
					calc_step_fast_with(&p, &pre0, want);
					assert_true(want->time > 0 && want->optimizer > 0);
					assert_memory_equal(&got->comm, &want->comm, sizeof got->comm);
					assert_memory_equal(&got->optimizer, &want->optimizer, sizeof(double));
					assert_memory_equal(&got->dp_exposed, &want->dp_exposed, sizeof(double));
					assert_memory_equal(&got->makespan, &want->makespan, sizeof(double));
					assert_memory_equal(&got->bubble, &want->bubble, sizeof(double));
					assert_memory_equal(&got->time, &want->time, sizeof(double));
					assert_memory_equal(&got->mfu, &want->mfu, sizeof(double));
					assert_memory_equal(&got->cost, &want->cost, sizeof(double));
				}
		/* one entry per (parameter copies, ZeRO stage): 1F1B's and DualPipe's */
		assert_int_equal(dm->nopt, 8);
		assert_int_equal(dm->n, 8);
	}
	free(got);
	free(want);
	free(cp);
	free(cp0);
	free(dm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds_same_shape),
		cmocka_unit_test(test_flops_moe_active), cmocka_unit_test(test_flops_mla),
		cmocka_unit_test(test_mtp_last_stage),
		cmocka_unit_test(test_moe_grouped_gemm), cmocka_unit_test(test_moe_alltoall_exposed),
		cmocka_unit_test(test_moe_layer_parts),   cmocka_unit_test(test_moe_overlap_ep_comm),
		cmocka_unit_test(test_moe_host_time),
		cmocka_unit_test(test_moe_fine_grained_experts),
		cmocka_unit_test(test_step_overhead),
		cmocka_unit_test(test_flops_eq7_eq8),    cmocka_unit_test(test_flops_eq7_22b),
		cmocka_unit_test(test_flops_eq3),        cmocka_unit_test(test_flops_gqa_swiglu),
		cmocka_unit_test(test_roofline),         cmocka_unit_test(test_layer_kor22_table4),
		cmocka_unit_test(test_breakdown_sums),   cmocka_unit_test(test_run_totals),
		cmocka_unit_test(test_overlap_knobs),    cmocka_unit_test(test_fast_vs_simulator),
		cmocka_unit_test(test_fast_even_default), cmocka_unit_test(test_fp8_mfu_and_head),
		cmocka_unit_test(test_zbh2_flush),       cmocka_unit_test(test_flops_executed),
		cmocka_unit_test(test_efficiency_presets), cmocka_unit_test(test_fast_with_cached_parts),
		cmocka_unit_test(test_grand_teton_mfu),
		cmocka_unit_test(test_gemm_basis),
		cmocka_unit_test(test_gemm_per_precision),
		cmocka_unit_test(test_block_recompute_tp_comm), cmocka_unit_test(test_tp_overlap_sms),
		cmocka_unit_test(test_block_recompute_ep_comm), cmocka_unit_test(test_block_recompute_fsdp_window),
		cmocka_unit_test(test_tp_overlap_stack), cmocka_unit_test(test_deepspeed_ckpt_time),
		cmocka_unit_test(test_offload_time),
		cmocka_unit_test(test_offload_modules_time),
		cmocka_unit_test(test_nvme_offload_time),
		cmocka_unit_test(test_param_offload_time),
		cmocka_unit_test(test_offload_optimizer_time),
		cmocka_unit_test(test_zero_offload_time),
		cmocka_unit_test(test_cp_overlap),
		cmocka_unit_test(test_muon_newton_schulz),
		cmocka_unit_test(test_fast_bounds), cmocka_unit_test(test_fast_busy_shared),
		cmocka_unit_test(test_gemm_memo_alternating), cmocka_unit_test(test_uneven_stage_costs),
		cmocka_unit_test(test_dualpipe_uneven_busy), cmocka_unit_test(test_chunk_costs),
		cmocka_unit_test(test_validate_band), cmocka_unit_test(test_validate_plan_band_rows),
		cmocka_unit_test(test_validate_band_built), cmocka_unit_test(test_fast_memo),
		cmocka_unit_test(test_validate_rows_built),
		cmocka_unit_test(test_pipeline_stage_typed),
		cmocka_unit_test(test_validate_compare_band),
		cmocka_unit_test(test_cp_hybrid_kinds),
		cmocka_unit_test(test_mamba1_scan_time), cmocka_unit_test(test_mamba2_scan_time),
		cmocka_unit_test(test_mamba2_transposes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
