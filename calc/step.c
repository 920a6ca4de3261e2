/*
 * step.c -- FLOPs, op-level times, step time, MFU/HFU, run time and cost.
 *
 * FLOPs: Korthikanti et al. 2022 App. A Eq. 7 (model FLOPs); hardware FLOPs either as
 * executed (efficiency.hfu_count = executed, the default) or by Korthikanti's Eq. 8
 * (selective recomputation) and Narayanan et al. 2021 Eq. 3 (full recomputation), with
 * the per-layer terms of Narayanan's appendix (QKV, QK^T, attention x V, out-proj, MLP)
 * generalised to GQA and SwiGLU.  MFU / HFU as PaLM (Chowdhery et al. 2022 §4) and
 * Korthikanti 2022 §6.3 define them, against the dense BF16 tensor peak (docs/references.md
 * §6; Llama 3 reports "BF16 MFU"), also for FP8 recipes, which get a second, named
 * figure against the FP8 peak.
 *
 * Op times: each GEMM and the attention core is a roofline, max(FLOPs / (peak * eff),
 * bytes / HBM bandwidth), GEMMs with tile and wave quantization (NVIDIA Deep Learning
 * Performance Guide) and, with efficiency.gemm_shape, the rate XLA measured at their
 * shape on sm_90 (gemm_table.c, docs/references.md §5.10); norms, residual adds, dropout
 * and the activation function are
 * memory bound (bytes / HBM bandwidth).  The backward splits into B (input gradients)
 * and W (weight gradients) as Qi et al. 2024 §2 do.
 *
 * Step time: the pipeline makespan of those op times plus the exposed TP/CP collectives
 * on the critical path (calc_pipeline_simulate, or the closed-form bubbles of
 * docs/references.md §3 in calc_step_fast), plus the exposed part of the DP reduction, plus
 * the optimizer step.  The hidden TP/CP collectives cost the SMs they take from the GEMMs
 * (Transformer Engine userbuffers' num_sm; docs/references.md §4.8).  Run time for a token budget as Narayanan 2021 Eq. 4 does it:
 * steps = tokens / (B s), time = steps * step time.
 *
 * Mixture of experts (docs/references.md §5.7, §5.12): FLOPs of what a token activates
 * (router, top-k routed and shared experts; MLA's projections and d_qk + d_v attention core,
 * DeepSeek-V3 §2.1); an MoE layer's time in parts -- the router, the sort and permutation,
 * the routed experts as grouped GEMMs (Megatron-Core MoE) at the balanced load, each
 * expert's GEMM quantized on its own, at efficiency.grouped_gemm, and the skew of the
 * busiest expert GPU (capacity padding or imbalance), counted from Megatron-Core's MoE
 * source at commit d98e8a6; the EP dispatch and combine of each MoE layer on the critical
 * path less efficiency.ep_overlap, the schedule's own overlap (DualPipe, DeepSeek-V3
 * §3.2.1) or moe.overlap_ep_comm's steady share (Megatron-Core combined_1f1b.py), bounded
 * by the compute it hides behind.
 */
#include "bounds.h"
#include "diag.h"
#include "model.h"
#include "recipe.h"
#include "plan.h"
#include "memory.h"
#include "step.h"
#include "search.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ FLOPs */

static double head_dim(const struct calc_model *m)
{
	return m->head_dim > 0 ? m->head_dim : m->heads > 0 ? (double)m->hidden / m->heads : m->hidden;
}

/* 1 when the model's attention is multi-head latent attention (DeepSeek-V2/V3). */
static int is_mla(const struct calc_model *m)
{
	return m->mla.kv_lora_rank > 0;
}

/* Width of each head's query and key, and of each head's value. */
static double qk_dim(const struct calc_model *m)
{
	return is_mla(m) ? m->mla.qk_nope_dim + m->mla.qk_rope_dim : head_dim(m);
}
static double v_dim(const struct calc_model *m)
{
	return is_mla(m) ? m->mla.v_head_dim : head_dim(m);
}

/* Routed-expert load of the busiest expert over the mean: the capacity factor (its
 * padded slots are computed too), else the dropless imbalance (model.moe_imbalance). */
static double moe_phi(const struct calc_moe *x)
{
	return x->capacity > 0 ? x->capacity : x->imbalance > 1 ? x->imbalance : 1;
}

/* Forward FLOPs per token of one layer's attention projections [FLOP/token]: 2 per
 * weight of every matrix a token passes.  GQA: Q h a d, K and V h kv d each, O a d h.
 * MLA (DeepSeek-V2 §2.1.2, V3 §2.1.1): the query down and up projections (or one h x a
 * d_qk matrix), the joint key/value down projection with the shared RoPE key
 * h (d_c + d_R), the key and value up projections d_c a (d_nope + d_v), and W_O. */
static double attn_proj_flops_token(const struct calc_model *m)
{
	double h = m->hidden, d = head_dim(m), a = m->heads;
	double kv = m->kv_heads > 0 ? m->kv_heads : a;
	if (is_mla(m)) {
		const struct calc_mla *x = &m->mla;
		double dq = qk_dim(m), cq = x->q_lora_rank, ckv = x->kv_lora_rank;
		double q = cq > 0 ? h * cq + cq * a * dq : h * a * dq;
		return 2 * (q + h * (ckv + x->qk_rope_dim) + ckv * a * (x->qk_nope_dim + x->v_head_dim) + a * x->v_head_dim * h);
	}
	/* gated attention (model.attn_gate): the gate's h x a d_h fused into the query's */
	return 2 * h * d * (a + 2 * kv) + 2 * a * d * h + (m->attn_gate ? 2 * h * a * d : 0);
}

/* Forward FLOPs per token of a Mamba-2 mixer's two projections [FLOP/token]: in_proj
 * h x (2 d_i + 2 G N + H) and out_proj d_i x h (Megatron-Core MambaMixer). */
static double mamba_proj_flops_token(const struct calc_model *m)
{
	const struct calc_mamba *x = &m->mamba;
	double h = m->hidden, di = (double)x->heads * x->head_dim, gn = 2.0 * x->groups * x->state;
	return 2 * h * (2 * di + gn + x->heads) + 2 * di * h;
}

static double mamba_ssd_flops_token(const struct calc_model *m, double s);

/* Forward FLOPs per token of a Mamba-1 mixer's four projections [FLOP/token], 2 per
 * weight (mamba_simple.py at 52f57d66f8): in_proj h x 2 d_i, x_proj d_i x (R + 2 N),
 * dt_proj R x d_i and out_proj d_i x h (docs/references.md §5.17). */
static double mamba1_proj_flops_token(const struct calc_model *m)
{
	const struct calc_mamba1 *x = &m->mamba1;
	double h = m->hidden, di = x->inner, n = x->state, r = x->dt_rank;
	return 2 * h * 2 * di + 2 * di * (r + 2 * n) + 2 * r * di + 2 * di * h;
}

/* Forward FLOPs per token of a Mamba-1 mixer's sequence part [FLOP/token] (docs/
 * references.md §5.17): the selective scan, O(B L D N) in Gu & Dao 2023 §3.3.2, 9 B L D N
 * FLOPs as the paper's author counts the fused kernel (A. Gu in state-spaces/mamba issue
 * #110, 2024-02-01), D = d_i channels: 9 d_i N per token; D u and the gate z (O(d_i))
 * left out; plus the depthwise conv1d, 2 d_conv d_i; independent of the sequence length
 * (a recurrence, not a chunked square). */
static double mamba1_scan_flops_token(const struct calc_model *m)
{
	const struct calc_mamba1 *x = &m->mamba1;
	return 9.0 * x->inner * x->state + 2.0 * x->conv * x->inner;
}

/* Forward FLOPs per token of a gated delta-net mixer's two projections [FLOP/token]:
 * in_proj h x (2 K + 2 V + 2 H_v) and out_proj V x h (Megatron-Core GatedDeltaNet). */
static double gdn_proj_flops_token(const struct calc_model *m)
{
	struct calc_mixer x;
	calc_model_mixer(m, CALC_LAYER_GDN, &x);
	return 2.0 * m->hidden * (x.in + x.inner);
}

/* Forward FLOPs per token of a gated delta-net mixer's sequence part at sequence length
 * s [FLOP/token] (docs/references.md §5.15, derived from Yang, Kautz & Hatamizadeh 2024
 * §3.3 and Yang et al. 2024 "Parallelizing Linear Transformers with the Delta Rule" §3,
 * the chunkwise WY form, chunk C = min(chunk, s), on each of the H_v heads): per chunk
 * K K^T (C x C x d_k), W = T K (C x C x d_k), U = T V (C x C x d_v), Q K^T (C x C x d_k)
 * and its product with the new values (C x C x d_v), and against the chunk state S
 * (d_k x d_v): W S, Q S and the update K^T U', C d_k d_v each:
 *   H_v (6 C d_k + 4 C d_v + 6 d_k d_v)
 * per token, counted over the full C x C squares (the attention convention), the
 * triangular solve for T (C^3 / 3 per chunk) and the gating's elementwise products left
 * out; plus the depthwise conv1d, 2 conv (2 K + V). */
static double gdn_seq_flops_token(const struct calc_model *m, double s)
{
	const struct calc_gdn *x = &m->gdn;
	double C = x->chunk < s ? x->chunk : s, H = x->value_heads, dk = x->key_dim, dv = x->value_dim;
	double K = (double)x->key_heads * dk, V = H * dv;
	return H * (6 * C * dk + 4 * C * dv + 6 * dk * dv) + 2.0 * x->conv * (2 * K + V);
}

/* The sequence part of a recurrent mixer of type 't' [FLOP/token]. */
static double mixer_seq_flops_token(const struct calc_model *m, enum calc_layer_type t, double s)
{
	return t == CALC_LAYER_GDN      ? gdn_seq_flops_token(m, s)
	       : t == CALC_LAYER_MAMBA1 ? mamba1_scan_flops_token(m)
	                                : mamba_ssd_flops_token(m, s);
}

/* Forward FLOPs per token of a Mamba-2 mixer's sequence part at sequence length s
 * [FLOP/token] (docs/references.md §5.14, derived from Dao & Gu 2024 §6 Listing 1, the
 * SSD chunked algorithm, chunk Q = min(chunk, s)): per chunk and head the diagonal
 * block (C B^T masked) X, Q x Q x P, and per chunk and group C B^T, Q x Q x N; the chunk
 * state B^T X and its output C h, N x P per token and head each:
 *   2 Q P H + 2 Q N G + 4 N P H
 * counted over the full Q x Q square (the attention convention), the scan across the
 * chunks (N P H per chunk) left out; plus the depthwise conv1d, 2 d_conv (d_i + 2 G N). */
static double mamba_ssd_flops_token(const struct calc_model *m, double s)
{
	const struct calc_mamba *x = &m->mamba;
	double Q = x->chunk < s ? x->chunk : s, H = x->heads, P = x->head_dim, N = x->state, G = x->groups;
	return 2 * Q * P * H + 2 * Q * N * G + 4 * N * P * H + 2.0 * x->conv * (H * P + 2 * G * N);
}

/* Forward FLOPs per token of one layer's GEMMs [FLOP/token].  Narayanan 2021 App.:
 * QKV 6h^2, out-proj 2h^2, MLP 16h^2 per token (2 FLOPs per multiply-add); here the
 * K and V projections have kv_heads * head_dim columns (GQA) and SwiGLU has three
 * h x f matrices against GeLU's two.  An MoE layer counts what a token activates: the
 * router h x E, its k routed experts and the shared experts (the MFU numerator on
 * activated parameters, as DeepSeek-V3 and Megatron-Core MoE report it). */
static double gemm_flops_token(const struct calc_model *m, int kind)
{
	struct calc_layer_kind kd;
	double h = m->hidden, f, w = m->mlp == CALC_MLP_SWIGLU ? 6 : 4;
	calc_model_kind(m, kind, &kd);
	switch (kd.type) { /* every kind: -Werror=switch fails the build on a new one */
	case CALC_LAYER_MOE:
	case CALC_LAYER_EXPERTS: {
		const struct calc_moe *x = &m->moe;
		double fs = x->shared_ffn > 0 ? x->shared_ffn : x->expert_ffn;
		return (kd.type == CALC_LAYER_MOE ? attn_proj_flops_token(m) : 0) + 2 * h * x->experts +
		       w * h * ((double)x->top_k * x->expert_ffn + x->shared * fs);
	}
	case CALC_LAYER_MAMBA:
		return mamba_proj_flops_token(m);
	case CALC_LAYER_GDN:
		return gdn_proj_flops_token(m);
	case CALC_LAYER_MAMBA1:
		return mamba1_proj_flops_token(m);
	case CALC_LAYER_ATTN:
		return attn_proj_flops_token(m);
	case CALC_LAYER_MLP:
		return w * h * kd.ffn_hidden;
	case CALC_LAYER_DENSE: /* one MLP of width f, below */
		break;
	}
	f = kd.ffn_hidden;
	return attn_proj_flops_token(m) + w * h * f;
}

/* Forward FLOPs per token of the attention core, QK^T and attention x V over the full
 * s x s square as Narayanan 2021 and Korthikanti 2022 count it (4 s h per token);
 * MLA's scores are d_nope + d_R wide and its values d_v: 2 s a (d_qk + d_v). */
static double attn_flops_token(const struct calc_model *m, double s)
{
	if (is_mla(m))
		return 2 * s * m->heads * (qk_dim(m) + v_dim(m));
	return 4 * s * m->heads * head_dim(m);
}

/* Share of a stage's 'layers' whose forward runs again under recompute = full: all of
 * them, except with Megatron-LM's --recompute-method block, which checkpoints only the
 * first N layers of each of the vpp chunks (calc_recompute_layers; docs/references.md
 * §2.4).  Uniform groups recompute every layer once, whatever N. */
static double rc_share_of(const struct calc_rc_rule *r, int layers)
{
	return layers > 0 ? calc_rc_rule_layers(r, layers) / layers : 1;
}

static double rc_share(const struct calc_plan *plan, int layers)
{
	struct calc_rc_rule r;
	calc_rc_rule_of(plan, &r);
	return rc_share_of(&r, layers);
}

/* The same over the model: the recomputed layers of every stage over model.layers. */
static double rc_share_model(const struct calc_plan *plan)
{
	double done = 0;

	if (plan->recompute != CALC_RC_FULL || plan->recompute_method != CALC_RC_METHOD_BLOCK || plan->model.layers <= 0)
		return 1;
	for (int i = 0; i < plan->pp; i++) {
		struct calc_stage_layers sl;
		calc_stage_layers(plan, i, &sl);
		done += sl.layers * rc_share(plan, sl.layers);
	}
	return done / plan->model.layers;
}


void calc_flops(const struct calc_plan *plan, struct calc_flops *out)
{
	const struct calc_model *m = &plan->model;
	double s = plan->seq_len, tokens = (double)plan->global_batch * s, L = 0;
	/* model.sliding_window: a windowed layer's attention counted over min(w, s) keys
	 * (calc_model_attn_keys, docs/references.md §5.13); the mean over the layers */
	double A = attn_flops_token(m, calc_model_attn_keys(m, s, 1)), lg = 2.0 * m->hidden * m->vocab, LGA = 0;
	double fwd, extra, La = 0;
	int count[CALC_MAX_KINDS] = {0};

	/* the layers of every kind: L (G + A) is the sum of n_k (G_k + A) over the kinds (the
	 * attention core A is the same in every kind that attends; a Mamba-2 layer has its
	 * SSD scan instead, a hybrid model's MLP layer neither) */
	calc_model_kind_counts(m, count);
	for (int k = 0; k < calc_model_nkinds(m); k++) {
		struct calc_layer_kind kd;
		int at, ml, mb;
		calc_model_kind(m, k, &kd);
		calc_layer_type_parts(kd.type, &at, &ml, &mb);
		LGA += count[k] * (gemm_flops_token(m, k) + (at ? A : 0) + (mb ? mixer_seq_flops_token(m, kd.type, s) : 0));
		L += count[k];
		La += at ? count[k] : 0;
	}
	fwd = LGA + lg;
	if (m->mtp_depth > 0) {
		/* DeepSeek-V3 §2.2: each of the D multi-token prediction modules runs, per token, a
		 * transformer block (of the last layer's kind: G_k + A, counted with the layers, so
		 * recomputation repeats it too), the projection M in R^{h x 2h} (2 * 2h * h FLOPs)
		 * and the shared output head (2 h V) */
		double D = m->mtp_depth;
		LGA += D * (gemm_flops_token(m, calc_model_mtp_kind(m)) + A + 4.0 * m->hidden * m->hidden);
		L += D;
		La += D;
		fwd = LGA + lg * (1 + D);
	}

	/* Model FLOPs: forward + backward (2x forward) = 3x forward, Korthikanti Eq. 7:
	 * 72 B L s h^2 (1 + s/(6h) + V/(12 h L)) for the GPT shape. */
	out->per_token = 3 * fwd;
	out->model = out->per_token * tokens;
	out->attn_share = 3 * La * A / out->per_token;
	if (plan->hfu_count == CALC_HFU_KOR22) {
		if (plan->recompute == CALC_RC_FULL)
			/* Narayanan Eq. 3: one more forward of every layer, not of the logits:
			 * 96 B s l h^2 (1 + s/(6h) + V/(16 l h)); recompute_method = block only
			 * of its checkpointed layers (rc_share_model). */
			extra = LGA * rc_share_model(plan);
		else if (plan->recompute == CALC_RC_SELECTIVE || plan->flash_attention)
			/* Korthikanti Eq. 8: 72 B L s h^2 (1 + s/(3h) + V/(12hL)), i.e. the
			 * attention term s/(6h) counted twice more: 3 A per layer over Eq. 7,
			 * charged to FlashAttention's recomputation too. */
			extra = 3 * La * A;
		else
			extra = 0;
	} else {
		/* Executed: count the operations that run again.  Full recomputation re-runs
		 * the forward of every layer, attention included (G + A; Narayanan Eq. 3);
		 * selective recomputation without FlashAttention re-runs the attention core's
		 * forward, QK^T and attention x V (A; Korthikanti 2022 §5); FlashAttention's
		 * backward recomputes the scores QK^T (A/2; Dao 2023 §3.1.2), also after a
		 * full recomputation, and makes selective recomputation moot. */
		extra = 0;
		if (plan->recompute == CALC_RC_FULL)
			extra += LGA * rc_share_model(plan);
		if (plan->recompute == CALC_RC_OP_SAC) /* wk, wo, w3 or fc2 again (layer_compute) */
			for (int k = 0; k < calc_model_nkinds(m); k++) {
				struct calc_layer_kind kd;
				calc_model_kind(m, k, &kd);
				extra += count[k] * 2 * m->hidden * (head_dim(m) * (m->kv_heads > 0 ? m->kv_heads : m->heads) +
				                                     head_dim(m) * m->heads + kd.ffn_hidden);
			}
		if (plan->flash_attention)
			extra += La * A / 2;
		else if (plan->recompute == CALC_RC_SELECTIVE)
			extra += La * A;
	}
	out->hardware = out->model + extra * tokens;
}

/* ------------------------------------------------------------------ op times */

/* Roofline time of an (M x K) * (K x N) GEMM with 'eb'-byte operands [s] on a GPU of
 * 'sms' SMs.  Tile and wave quantization (NVIDIA Deep Learning Performance Guide,
 * "Matrix Multiplication Background"): the output is cut into ceil(M/128) ceil(N/128)
 * tiles, a partial tile costs a whole one, and the tiles run in waves of one per SM,
 * a partial last wave costing a whole one.  128 x 128 is a tile cuBLAS uses on A100
 * and H100 (the guide's examples also use 256 x 128, which penalises thin GEMMs more
 * than the runs of trainplan validate show).  With fewer tiles than SMs the wave
 * term is not charged: split-K kernels spread K over the idle SMs (derived, UNVERIFIED
 * as a rule).  The compute time is divided by the used share; large GEMMs lose a few
 * per cent, thin ones (few tokens per GPU under large CP, narrow TP shards) more.
 * 'peak' is already scaled by efficiency.gemm.  'shp' (efficiency.gemm_shape = table)
 * scales the compute time by the GEMM's shape (shape_slowdown). */
#define TILE 128.0

/* The slowdown 1 / S of efficiency.gemm_shape = table (calc_gemm_shape_factor, XLA's
 * sm_90 table, docs/references.md §5.10) for the three GEMMs of an (M x K) * (K x N)
 * linear layer: the forward (M, N, K), the input gradient dX = dY W^T (M, K, N) and the
 * weight gradient dW = X^T dY (K, N, M).  The op times give each of the three the same
 * time, so each takes the mean of the three slowdowns: their sum is the table's, the
 * split among forward, B and W evens out (convention). */
static double shape_slowdown(double M, double N, double K)
{
	return (1 / calc_gemm_shape_factor(M, N, K) + 1 / calc_gemm_shape_factor(M, K, N) +
	        1 / calc_gemm_shape_factor(K, N, M)) / 3;
}
static double gemm_time_calc(double M, double N, double K, double peak, double hbm, double eb, int sms, int shp)
{
	double tc = 2 * M * N * K / peak, tm = (M * K + K * N + M * N) * eb / hbm;
	if (sms > 0 && M > 0 && N > 0)
		tc /= calc_gemm_wave_share(M, N, sms);
	if (shp)
		tc *= shape_slowdown(M, N, K);
	return tc > tm ? tc : tm;
}

/*
 * gemm_time_calc through a per-thread memo by shape: a direct-mapped table of
 * GEMM_HASH entries keyed by every input, compared bit for bit, so that a hit returns
 * the very number gemm_time_calc gave (no result changes).  The planner's compute part
 * (calc_step_compute, once per (recompute, SP) pair of every split) times the same few
 * shapes again and again -- a split's GEMMs depend on the tokens per micro-batch and
 * the TP and expert shards, not on pp, dp or the schedule -- and the shape factor of
 * efficiency.gemm_shape = table costs nine log2 and three trilinear interpolations a
 * GEMM: gemm_time was 15 % of the CPU samples of the DeepSeek-V3 plan's report (perf
 * record).  It replaced a memo of one entry per call site in front of it, which then
 * saved 0.3 % of the instructions of `trainplan search` on the DeepSeek-V3, Llama 2
 * and 405B plans and cost 0.8 % on the default one (callgrind).
 */
struct gemm_key {
	double M, N, K, peak, hbm, eb;
	int sms, shp;
};
#define GEMM_HASH 1024 /* entries, a power of 2 */
struct gemm_memo {
	struct gemm_key key[GEMM_HASH];
	double t[GEMM_HASH];
	unsigned char used[GEMM_HASH];
};
static _Thread_local struct gemm_memo *gemm_hash; /* thread_block's */
/* the keys of the two per-thread memos (the GEMM times, sim_memo's makespans), made once */
static pthread_key_t gemm_hash_key, sim_memo_key;
static pthread_once_t memo_keys_once = PTHREAD_ONCE_INIT;
static void memo_keys_make(void)
{
	pthread_key_create(&gemm_hash_key, free);
	pthread_key_create(&sim_memo_key, free);
}

/*
 * A thread's own block of 'size' zeroed bytes for a memo kept per thread, made on the
 * thread's first use and freed when the thread ends (the pthread key 'key', one of
 * memo_keys_make's, with free as its destructor).  The two memos of this file were
 * _Thread_local arrays, 162 kB of static TLS that the C library clears at the start of
 * every thread, whether it times a step or not (the planner's workers, the report's
 * pool and its figure reader): about 40 page faults a thread (docs/architecture.md
 * §11).  A block is had from the heap, in pages the process has touched before.
 */
static void *thread_block(pthread_key_t *key, size_t size)
{
	void *b = xcalloc(1, size);
	pthread_once(&memo_keys_once, memo_keys_make);
	pthread_setspecific(*key, b);
	return b;
}

static inline uint64_t gemm_bits(double x)
{
	uint64_t u;
	memcpy(&u, &x, sizeof u);
	return u;
}

static double gemm_time(double M, double N, double K, double peak, double hbm, double eb, int sms, int shp)
{
	struct gemm_key k = {M, N, K, peak, hbm, eb, sms, shp};
	uint64_t h = gemm_bits(M) * 0x9e3779b97f4a7c15u ^ gemm_bits(N) * 0xc2b2ae3d27d4eb4fu ^
	             gemm_bits(K) * 0x165667b19e3779f9u ^ gemm_bits(peak) * 0x27d4eb2f165667c5u ^
	             gemm_bits(hbm) ^ gemm_bits(eb) ^ (uint64_t)(unsigned)sms << 1 ^ (uint64_t)(unsigned)shp;
	unsigned i = (unsigned)((h ^ h >> 29 ^ h >> 47) & (GEMM_HASH - 1));
	struct gemm_memo *g = gemm_hash;

	if (!g)
		g = gemm_hash = thread_block(&gemm_hash_key, sizeof *g);
	if (g->used[i] && !memcmp(&g->key[i], &k, sizeof k))
		return g->t[i];
	g->key[i] = k;
	g->t[i] = gemm_time_calc(M, N, K, peak, hbm, eb, sms, shp);
	g->used[i] = 1;
	return g->t[i];
}

/* 1 when the layer GEMMs of the plan's recipe run at the FP4 peak (nvfp4) */
static int fp4_gemms(const struct calc_plan *p)
{
	return p->recipe && p->recipe->fp8_compute == CALC_LP_NVFP4 && p->gpu.fp4_flops > 0;
}

/* Bytes per element of a low-precision GEMM operand with its block scales (recipe.c):
 * FP8 1, MXFP8 1 + 1/32, NVFP4 1/2 + 1/16 (docs/references.md §2.11). */
static double lp_bytes(const struct calc_plan *p)
{
	int lp = p->recipe ? p->recipe->fp8_compute : 0;
	return lp == CALC_LP_NVFP4 ? 0.5 + 1.0 / 16 : lp == CALC_LP_MXFP8 ? 1 + 1.0 / 32 : 1;
}

static double gemm_peak(const struct calc_plan *p)
{
	if (fp4_gemms(p))
		return p->gpu.fp4_flops;
	if (p->recipe && p->recipe->fp8_compute && p->gpu.fp8_flops > 0)
		return p->gpu.fp8_flops;
	return p->gpu.bf16_flops;
}

/* The GEMM rate the op times divide by [FLOP/s], before tile and wave quantization:
 * efficiency.gemm times what efficiency.gemm_basis names -- the datasheet's dense peak
 * (peak), or the GPU's measured maximum achievable matmul rate (achievable: MAMF, the
 * best rate a brute-force search over shapes finds, stas00/ml-engineering
 * compute/accelerator "Maximum Achievable Matmul FLOPS comparison table"; A100 SXM
 * 271.2 of 312 TFLOP/s BF16, H100 SXM 794.5 of 989; docs/references.md §5.9).  The
 * second makes efficiency.gemm a framework's share of what the GPU's matmuls reach, so
 * one stack value carries over between GPUs whose GEMM libraries reach different
 * shares of their datasheet.  'fp8': the GEMM takes FP8 inputs (gemm_peak's rule);
 * 0 for the BF16 GEMMs of an FP8 recipe (LM head, unfused attention). */
static double gemm_rate(const struct calc_plan *p, int fp8)
{
	int f8 = fp8 && p->recipe && p->recipe->fp8_compute && p->gpu.fp8_flops > 0;
	/* an NVFP4 recipe's layer GEMMs at the FP4 peak, at the FP8 share (convention: no FP4
	 * training run is fitted, docs/references.md §2.11); plan.c refuses the achievable basis */
	double base = f8 && fp4_gemms(p) ? p->gpu.fp4_flops : f8 ? p->gpu.fp8_flops : p->gpu.bf16_flops;
	if (p->gemm_basis == 1) {
		double mm = f8 ? p->gpu.matmul_max_fp8 : p->gpu.matmul_max;
		if (mm > 0) /* plan.c requires it; a direct caller without it keeps the peak */
			base = mm;
	}
	/* an FP8 GEMM at its own share where the plan or the GPU preset gives one (efficiency.gemm_fp8) */
	return base * (f8 && p->gemm_eff_fp8 > 0 ? p->gemm_eff_fp8 : p->gemm_eff);
}

void calc_layer_time(const struct calc_plan *plan, const struct calc_comm *cm, struct calc_layer_time *o)
{
	calc_layer_time_kind(plan, cm, 0, o);
}

/* Roofline time of the grouped GEMM of 'ne' local experts sharing 'M' rows (token
 * copies) in all, each (M/ne x K) * (K x N) [s]: the tiles of every expert's GEMM
 * quantized as one wave set (a grouped GEMM launches them together), each expert's
 * weights read once.  'peak' is already scaled by efficiency.gemm and grouped_gemm. */
static double grouped_time(double M, double N, double K, double ne, double peak, double hbm, double eb, int sms,
                                  int shp)
{
	double me = ne > 0 ? M / ne : M, tc = 2 * M * N * K / peak, tm = (M * K + ne * K * N + M * N) * eb / hbm;
	if (sms > 0 && me > 0 && N > 0) {
		double tiles = ne * ceil(me / TILE) * ceil(N / TILE), slots = tiles < sms ? tiles : ceil(tiles / sms) * sms;
		tc /= M * N / (slots * TILE * TILE);
	}
	if (shp && me > 0) /* each expert's GEMM at its own shape (its rows me) */
		tc *= shape_slowdown(me, N, K);
	return tc > tm ? tc : tm;
}

/* Exposed part of collectives 'c' [s] that can run behind compute 'w' [s] for the
 * share 'ov': c - min(ov c, w). */
static double exposed_behind(double c, double w, double ov)
{
	double hid = ov * c < w ? ov * c : w;
	return c - hid;
}

/* The exposed part of the CP ring's sends (p2p, a2a+p2p) in one layer's forward (*ef) and
 * backward (*eb, with the recomputed forward's where full recomputation runs it), step by
 * step as Transformer Engine runs the ring (AttnFuncWithCPAndKVP2P at d0067d0,
 * transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py): each of
 * the r steps first issues the send of the chunk the next step needs, then attends to the
 * chunk in hand, and the next step waits for the send (the forward's loop "wait until KV
 * is received"; the backward's likewise, sending K, V with the dK, dV accumulated so far).
 * A send hides only behind its own step's attention, not behind the others': with the
 * causal load balancing (2 r chunks, rank i holding chunks i and 2 r - 1 - i) every step
 * attends the same 2 c^2 query-key pairs, so a step is 1/r of the pass's attention core
 * w.  Forward: r - 1 sends of a chunk, each exposed by max(0, p1 - w_f / r) (the last step
 * sends nothing); backward: r sends, the first and last of one chunk (K, V alone, dK, dV
 * alone), the r - 2 others of two, each against w_b / r (docs/references.md §4.7). */
static void ring_exposed(const struct calc_comm *cm, double w_f, double w_b, double full, double *ef, double *eb)
{
	int r = cm->cp_ring_steps;
	double p1 = cm->cp_ring_send1, p2 = cm->cp_ring_send2, sf, sb, f, b;
	if (r < 2) {
		*ef = *eb = 0;
		return;
	}
	sf = w_f / r, sb = w_b / r;
	f = (r - 1) * (p1 > sf ? p1 - sf : 0);
	b = 2 * (p1 > sb ? p1 - sb : 0) + (r > 2 ? (r - 2) * (p2 > sb ? p2 - sb : 0) : 0);
	*ef = f;
	*eb = b + full * f;
}

/* Share of the expert all-to-all hidden behind compute: efficiency.ep_overlap, or the
 * schedule's own (DualPipe pairs one micro-batch's forward with another's backward and
 * runs the dispatch and combine of each under the other's compute, DeepSeek-V3
 * §3.2.1), whichever is larger. */
static double ep_overlap_share(const struct calc_plan *plan)
{
	const struct calc_sched *row = calc_schedule_at((int)plan->schedule);
	double ov = plan->ep_overlap < 0 ? 0 : plan->ep_overlap > 1 ? 1 : plan->ep_overlap;
	if (row && plan->pp > 1 && row->ep_overlap > ov)
		ov = row->ep_overlap;
	return ov;
}

/*
 * Bytes the router moves per token, forward (docs/references.md §5.12), counted op by op
 * from Megatron-Core's routing (megatron/core/transformer/moe/moe_utils.py at commit
 * d98e8a6: topk_routing_with_score_function, compute_routing_scores_for_aux_loss,
 * switch_load_balancing_loss_func) over the BF16 logits, E per token:
 *   unfused: score function (softmax in FP32: read 2, write 4), top-k (read 4),
 *   routing_probs = zeros_like(logits).scatter (write 2), routing_map =
 *   zeros_like().int().scatter().bool() (write 2, read 2 + write 4, read 4 + write 1),
 *   the aux loss's scores, top-k and routing map again (6 + 4 + 13) and its two sums over
 *   the tokens (read 4 + 1): 53 B per expert; the top-k values and indices (4 + 8 B) are
 *   written and read five times: 62 B per routed slot.
 *   fused (moe_router_fusion, Transformer Engine's fused router kernels): the top-k
 *   kernel reads the logits and writes the FP32 probabilities and the map (2 + 4 + 1),
 *   the aux-loss score kernel the same (7), the loss reads both (5): 19 B per expert.
 * The backward moves twice the forward (the elementwise convention of layer_compute).
 */
#define ROUTER_E 53.0       /* [bytes per token per expert] */
#define ROUTER_K 62.0       /* [bytes per token per routed slot] */
#define ROUTER_FUSED_E 19.0 /* [bytes per token per expert] */
static double moe_router_bytes(const struct calc_plan *p)
{
	double E = p->model.moe.experts, k = p->model.moe.top_k;
	return p->router_fusion ? ROUTER_FUSED_E * E : ROUTER_E * E + ROUTER_K * k;
}

/*
 * Bytes the permutation's index computation moves per token (moe_utils.py permute at
 * commit d98e8a6, the argsort branch): the routing map transposed (read 1 + write 1 per
 * expert), argsorted as T E one-byte keys into int64 positions (read 1 + write 8; the
 * sort's own passes are not counted, a lower bound), the FP32 probabilities transposed
 * (read 4 + write 4): 19 B per expert; the positions' modulo and the probabilities'
 * gather, 8 + 8 + 4 B per routed slot.  Fused (moe_permute_fusion, Transformer Engine's
 * fused_permute_with_probs): one pass that reads the map and writes an int32 row map,
 * 5 B per expert (derived from its output's shape, UNVERIFIED).
 */
#define SORT_E 19.0       /* [bytes per token per expert] */
#define SORT_K 20.0       /* [bytes per token per routed slot] */
#define SORT_FUSED_E 5.0  /* [bytes per token per expert] */
static double moe_sort_bytes(const struct calc_plan *p)
{
	double E = p->model.moe.experts, k = p->model.moe.top_k;
	return p->permute_fusion ? SORT_FUSED_E * E : SORT_E * E + SORT_K * k;
}

/*
 * Bytes the token copies move in the permutation, forward, per copy of h values of 2 B
 * (the tokens are permuted in BF16 before any FP8 cast): the permute is an index_select
 * (read + write, 2), the unpermute an index_add of each copy into its token's row (read
 * the copy, read and write the row: 3) and the zeroed output (1 per token, 1/k per copy)
 * (moe_utils.py permute / unpermute at commit d98e8a6).  Where they run:
 *   alltoall: on the sending GPU before the dispatch and after the combine ('src', per
 *     token copy it sends), and with ep > 1 and several local experts the received
 *     chunks sorted by expert after the dispatch and back before the combine
 *     (sort_chunks_by_idxs, read + write each way: 4, 'rcv' per received copy);
 *   allgather, deepep, hybridep: the received tokens permuted on the expert GPU ('rcv',
 *     per received copy; MoEAllGatherTokenDispatcher and MoEFlexTokenDispatcher,
 *     token_dispatcher.py at commit d98e8a6).
 */
static void moe_copy_bytes(const struct calc_plan *p, double h, double *src, double *rcv)
{
	double k = p->model.moe.top_k > 0 ? p->model.moe.top_k : 1, ep = p->ep > 0 ? p->ep : 1;
	double ne = p->model.moe.experts / ep, perm = (2 + 3 + 1 / k) * 2 * h;
	if (p->moe_dispatcher == CALC_DISP_ALLTOALL) {
		*src = perm;
		*rcv = ep > 1 && ne > 1 ? 4 * 2 * h : 0;
	} else {
		*src = 0;
		*rcv = perm;
	}
}

/*
 * Share of a stage's forward and backward passes whose expert dispatch and combine
 * moe.overlap_ep_comm hides (Megatron-Core overlap_moe_expert_parallel_comm,
 * megatron/core/pipeline_parallel/combined_1f1b.py at commit d98e8a6: the forward of one
 * micro-batch runs with the backward of another, each one's all-to-all under the other's
 * compute, in the 1F1B steady phase only).  Without pipelining the first forward and the
 * last backward have no partner: (m - 1) / m.  Interleaved, rank 0 runs
 * w = 2 (p - 1) + (v - 1) p + 1 warm-up forwards of its m v (schedules.py at the same
 * commit: the +1 is the overlap's extra forward) and as many cool-down backwards alone:
 * (m v - w) / (m v), the rank with the longest warm-up taken.  0 when the key is off or
 * where Megatron-Core refuses the overlap (plan.c checks the plan; a planner leaf is
 * taken as running without it).
 */
static double ep_a2a_overlap_share(const struct calc_plan *plan)
{
	int p = plan->pp > 0 ? plan->pp : 1, v = plan->vpp > 0 ? plan->vpp : 1, m = calc_plan_microbatches(plan);
	double mv, w;
	unsigned rcm = calc_recompute_modules(plan->recompute, plan->recompute_modules);

	if (!plan->overlap_ep_comm || plan->ep <= 1 || plan->moe_dispatcher == CALC_DISP_ALLGATHER ||
	    plan->recompute == CALC_RC_FULL || (rcm & CALC_RCM_MOE) || m < 1 ||
	    (p > 1 && plan->schedule != CALC_SCHED_INTERLEAVED))
		return 0;
	mv = (double)m * (p > 1 ? v : 1);
	w = p > 1 ? 2.0 * (p - 1) + (v - 1.0) * p + 1 : 1;
	return w < mv ? (mv - w) / mv : 0;
}

/* The compute part of calc_layer_time_kind: every field but comm_f, comm_b, ep_f and
 * ep_b (left 0).  It reads no collective, schedule, vpp, pp, dp or ZeRO stage. */
static void layer_compute(const struct calc_plan *plan, int kind, struct calc_layer_time *o)
{
	const struct calc_model *m = &plan->model;
	struct calc_layer_kind kd;
	double t = plan->tp > 0 ? plan->tp : 1, cp = plan->cp > 0 ? plan->cp : 1;
	double s = plan->seq_len, T = plan->micro_batch * s / cp; /* tokens per GPU per micro-batch */
	double h = m->hidden, d = head_dim(m), a = m->heads, f = (calc_model_kind(m, kind, &kd), kd.ffn_hidden);
	double kv = m->kv_heads > 0 ? m->kv_heads : a, kvh = kv / t < 1 ? 1 : kv / t;
	double hbm = plan->gpu.hbm_bw > 0 ? plan->gpu.hbm_bw : 1e12;
	double fp8 = plan->recipe && plan->recipe->fp8_compute && plan->gpu.fp8_flops > 0;
	double peak = gemm_rate(plan, 1), eb = fp8 ? lp_bytes(plan) : 2;
	double peak16 = plan->gpu.bf16_flops, shard = plan->sp ? t : 1;
	int sms = plan->gpu.sms, moe = 0, shp = calc_gemm_shape_on(plan);
	double drop = m->dropout ? 1 : 0, attn_b, elem_bytes, up = m->mlp == CALC_MLP_SWIGLU ? 2 : 1;
	double act_fn = m->mlp == CALC_MLP_SWIGLU ? 6 : 4, experts = 0, expert_elem = 0, mtr;
	/* parts that module recomputation runs again [s]: the MLA up projections, the dense
	 * MLP (or the shared experts), the routed experts' activation function */
	double t_up = 0, t_mlp = 0, t_moe_act = 0;
	unsigned rcm = calc_recompute_modules(plan->recompute, plan->recompute_modules);

	int has_attn, has_mlp, has_mamba, blocks;
	o->moe_router = o->moe_permute = o->moe_experts = o->moe_skew = 0;
	moe = calc_layer_type_is_moe(kd.type);
	/* a hybrid model's layer is one block: attention, MLP or a Mamba-2 mixer alone */
	blocks = calc_layer_type_parts(kd.type, &has_attn, &has_mlp, &has_mamba);

	if (moe) {
		/* An MoE layer's dense part is its shared experts, a TP-sharded MLP of width
		 * shared x shared_ffn; the rest is timed in four parts (docs/references.md §5.12):
		 *   router: the gating GEMM T_r x E x h in BF16 (DeepSeek-V3 §3.3.1 keeps the
		 *     gating modules in higher precision) and the memory-bound score function,
		 *     top-k, routing map and aux loss, moe_router_bytes per token;
		 *   permutation: the sort of the routing map (moe_sort_bytes per token) and the
		 *     token copies moved into expert order and back (moe_permute_copy_bytes);
		 *   experts: grouped GEMMs of E / ep local experts, f_e / etp columns each, on
		 *     the k T_r etp copies an expert GPU receives on balance (T_r = T / t with SP,
		 *     as memory.c counts them): tokens per expert k T / E over the EP group, each
		 *     expert's GEMM tile- and wave-quantized (and, with efficiency.gemm_shape, at
		 *     its shape) on its own, at efficiency.grouped_gemm of the GEMM efficiency
		 *     (Megatron-Core grouped GEMM), with the activation function on every copy;
		 *   skew: the same on the busiest expert GPU's phi times as many copies (phi the
		 *     capacity factor, the experts padded to it, or model.moe_imbalance) less the
		 *     balanced time. */
		const struct calc_moe *x = &m->moe;
		double etp = plan->etp > 0 ? plan->etp : 1, ep = plan->ep > 0 ? plan->ep : 1, E = x->experts, k = x->top_k;
		double Tr = T / shard, bal = k * Tr * etp, copies = moe_phi(x) * bal, ne = E / ep;
		double gpk = peak * (plan->grouped_gemm > 0 ? plan->grouped_gemm : 1), fe = x->expert_ffn / etp;
		double src, rcv, g_bal, g_phi, act = act_fn * fe;
		f = x->shared * (double)(x->shared_ffn > 0 ? x->shared_ffn : x->expert_ffn);
		moe_copy_bytes(plan, h, &src, &rcv);
		g_bal = grouped_time(bal, up * fe, h, ne, gpk, hbm, eb, sms, shp) + grouped_time(bal, h, fe, ne, gpk, hbm, eb, sms, shp);
		g_phi = copies == bal ? g_bal
		                      : grouped_time(copies, up * fe, h, ne, gpk, hbm, eb, sms, shp) +
		                            grouped_time(copies, h, fe, ne, gpk, hbm, eb, sms, shp);
		o->moe_router = gemm_time(Tr, E, h, gemm_rate(plan, 0), hbm, 2, sms, shp) + Tr * moe_router_bytes(plan) / hbm;
		o->moe_permute = (Tr * moe_sort_bytes(plan) + k * Tr * src + bal * rcv) / hbm;
		o->moe_experts = g_bal + bal * act / hbm;
		o->moe_skew = g_phi - g_bal + (copies - bal) * (act + rcv) / hbm;
		experts = gemm_time(Tr, E, h, gemm_rate(plan, 0), hbm, 2, sms, shp) + g_phi;
		expert_elem = o->moe_router + o->moe_permute + o->moe_experts + o->moe_skew - experts;
		t_moe_act = copies * act / hbm;
	}

	/* GEMMs of one layer on one TP rank (Megatron's column/row split, Narayanan §2.3). */
	if (is_mla(m)) {
		/* MLA: the down projections (and the query latent) are replicated over TP, the
		 * per-head up projections and W_O sharded (Megatron-Core MLA) */
		const struct calc_mla *x = &m->mla;
		double dq = qk_dim(m), cq = x->q_lora_rank, ckv = x->kv_lora_rank;
		o->gemm = (cq > 0 ? gemm_time(T, cq, h, peak, hbm, eb, sms, shp) + gemm_time(T, a / t * dq, cq, peak, hbm, eb, sms, shp)
		                  : gemm_time(T, a / t * dq, h, peak, hbm, eb, sms, shp))
		        + gemm_time(T, ckv + x->qk_rope_dim, h, peak, hbm, eb, sms, shp)
		        + gemm_time(T, a / t * (x->qk_nope_dim + x->v_head_dim), ckv, peak, hbm, eb, sms, shp)
		        + gemm_time(T, h, a * x->v_head_dim / t, peak, hbm, eb, sms, shp);
		/* the up projections mla_up_proj recomputes: the query's from its latent (or
		 * from h without one) and K^nope, V from the KV latent */
		t_up = (cq > 0 ? gemm_time(T, a / t * dq, cq, peak, hbm, eb, sms, shp) : gemm_time(T, a / t * dq, h, peak, hbm, eb, sms, shp))
		     + gemm_time(T, a / t * (x->qk_nope_dim + x->v_head_dim), ckv, peak, hbm, eb, sms, shp);
	} else
		o->gemm = gemm_time(T, d * ((m->attn_gate ? 2 : 1) * a / t + 2 * kvh), h, peak, hbm, eb, sms, shp) /* QKV */
		        + gemm_time(T, h, a * d / t, peak, hbm, eb, sms, shp);      /* out-proj */
	if (!has_attn)
		o->gemm = t_up = 0;
	if (has_mamba) {
		/* Mamba-2 (Megatron-Core MambaMixer) and gated delta-net (GatedDeltaNet): in_proj
		 * column-parallel, the heads (and Mamba's groups) split over t, out_proj
		 * row-parallel */
		struct calc_mixer x;
		calc_model_mixer(m, kd.type, &x);
		o->gemm = gemm_time(T, x.in / t, h, peak, hbm, eb, sms, shp) /* in_proj */
		        + gemm_time(T, h, x.inner / t, peak, hbm, eb, sms, shp); /* out_proj */
		if (kd.type == CALC_LAYER_MAMBA1) /* Mamba-1's x_proj and dt_proj (mamba_simple.py) */
			o->gemm += gemm_time(T, m->mamba1.dt_rank + 2.0 * m->mamba1.state, x.inner, peak, hbm, eb, sms, shp) +
			           gemm_time(T, x.inner, m->mamba1.dt_rank, peak, hbm, eb, sms, shp);
	}
	if (has_mlp && (f > 0 || !moe)) {
		t_mlp = gemm_time(T, up * f / t, h, peak, hbm, eb, sms, shp) /* up */
		      + gemm_time(T, h, f / t, peak, hbm, eb, sms, shp);   /* down */
		o->gemm += t_mlp;
		t_mlp += T * act_fn * f / t / hbm; /* and its activation function */
	}
	if (moe)
		o->gemm += experts;

	/* Attention core, in BF16 even in FP8 recipes (DeepSeek-V3 §3.3.1).  Counted FLOPs
	 * 4 (s/cp) s (a/t) d per micro-batch sequence (MLA: 2 (s/cp) s (a/t) (d_qk + d_v)). */
	if (has_mamba) {
		/* The Mamba-2 mixer's sequence part in the attention core's place: the SSD scan's
		 * FLOPs on this rank's H / t heads (mamba_ssd_flops_token / t) at the attention
		 * core's rate (efficiency.attn; the chunked scan runs its Q x Q and N x P blocks
		 * as small matmuls, as FlashAttention runs its tiles), the backward twice the
		 * forward (each forward matmul has two gradient matmuls; derived); plus its
		 * operands' traffic: read x, B, C, dt and write y, 2 B each, per token.
		 * A Mamba-2 layer's SSD kernels also pass their intermediates through memory
		 * (mamba_ssm/ops/triton/ssd_combined.py _mamba_chunk_scan_combined_fwd,
		 * state-spaces/mamba at e9594ce): _chunk_state_fwd writes the chunk states in
		 * fp32 (states_in_fp32=True), _state_passing_fwd reads them and writes them in
		 * the input's dtype (out_dtype = C.dtype), _chunk_scan_fwd reads them: 4 + 4 +
		 * 2 + 2 B for each of the H/t x P x N values of a chunk of Q tokens; and
		 * _bmm_chunk_fwd writes C B^T in fp32 (output_dtype=torch.float32), Q x Q a
		 * chunk and group, which _chunk_scan_fwd reads: 4 + 4 B.  Per token
		 * 12 (H/t) P N / Q + 8 (G/t) Q bytes (derived from those calls; the backward,
		 * which recomputes them and passes the states' gradients the same way, at twice
		 * the forward as the rest of the scan). */
		struct calc_mixer x;
		double fl, io;
		calc_model_mixer(m, kd.type, &x);
		fl = T * mixer_seq_flops_token(m, kd.type, s) / t, io = T * 2 * x.scan_io / t / hbm;
		if (kd.type == CALC_LAYER_MAMBA && m->mamba.chunk > 0) {
			const struct calc_mamba *mb = &m->mamba;
			double Q = mb->chunk < s ? mb->chunk : s;
			io += T * (12.0 * mb->heads * mb->head_dim * mb->state / Q + 8.0 * mb->groups * Q) / t / hbm;
		}
		o->attn = fl / (peak16 * plan->attn_eff) + io;
		attn_b = 2 * fl / (peak16 * plan->attn_eff) + 2 * io;
	} else if (!has_attn)
		o->attn = attn_b = 0;
	else {
		double fl = is_mla(m) ? 2 * T * s * (a / t) * (qk_dim(m) + v_dim(m)) : 4 * T * s * (a / t) * d;
		if (plan->flash_attention) {
			/* Causal FlashAttention skips the tiles above the diagonal: half the counted
			 * FLOPs; its backward runs 5 matmuls against the forward's 2 (x2.5, it
			 * recomputes QK^T; Dao 2023, FlashAttention-2 §3).  Operand traffic Q, K, V, O. */
			double io = is_mla(m) ? T * 2 * (a / t) * (2 * qk_dim(m) + 2 * v_dim(m)) / hbm
			                      : T * 2 * d * (2 * a / t + 2 * kvh) / hbm;
			/* model.sliding_window: FlashAttention's window_size skips the tiles outside
			 * the window too: w (1 - (w - 1)/(2 s)) keys a query instead of s / 2, the
			 * mean over the layers (calc_model_attn_keys; each layer costed at the
			 * mean, docs/references.md §5.13) */
			double xs = calc_model_window_layers(m) > 0 ? calc_model_attn_keys(m, s, 0) / s : 0.5;
			o->attn = xs * fl / (peak16 * plan->attn_eff) + io;
			attn_b = 2.5 * xs * fl / (peak16 * plan->attn_eff) + 2 * io;
		} else {
			/* Materialised scores: two batched GEMMs over the full square plus the
			 * s^2 traffic of QK^T write, softmax read/write, dropout read/write/mask and
			 * the read by attention x V: 8 + 5 (dropout) bytes per score (Korthikanti
			 * 2022 §4.1 lists the same tensors); the backward moves as much again. */
			double sc = T * (a / t) * s * (8 + 5 * drop) / hbm;
			o->attn = fl / gemm_rate(plan, 0) + sc;
			attn_b = 2 * fl / gemm_rate(plan, 0) + sc;
		}
	}

	/* Memory-bound ops per token: two norms (read + write h, 2 B), two residual adds
	 * (read 2h, write h), two dropouts (read h, write h, 1 B mask), sharded over t with
	 * SP (Korthikanti 2022 §4.2.2); the activation function on f/t (GeLU read + write,
	 * SwiGLU two reads + one write). */
	elem_bytes = (8 * h + 12 * h + drop * 10 * h) / shard + act_fn * f / t;
	if (blocks == 1) {
		/* a hybrid model's layer: one norm, one residual add, one dropout; the MLP's
		 * activation function only in an MLP layer; a Mamba-2 mixer's gated RMSNorm (read
		 * y and z, write, 2 B each) and the SiLU of the conv1d (read + write d_i + 2 G N)
		 * on its rank's share */
		struct calc_mixer x;
		calc_model_mixer(m, kd.type, &x);
		elem_bytes = (4 * h + 6 * h + drop * 5 * h) / shard + (has_mlp ? act_fn * f / t : 0) +
		             (has_mamba ? (6 * x.inner + 4 * x.conv_ch) / t : 0);
	}
	o->elem = T * elem_bytes / hbm;
	if (moe)
		o->elem += expert_elem;
	/* A Mamba-2 layer's layout transposes (docs/references.md §5.14): Megatron-Core's
	 * training path turns the in_proj output from (s, b, d) into (b, s, d) before the
	 * fused kernel and the kernel's output back after it, each with .contiguous()
	 * (MambaMixer._ssm_training, megatron/core/ssm/mamba_mixer.py at 2d1fa8d37 and
	 * d98e8a64dd: rearrange "l b d -> b l d" of zxBCdt, "b l d -> l b d" of y).  With a
	 * micro-batch of one sequence the permuted view is already contiguous (a dimension of
	 * size 1 has no stride to honour) and nothing moves; with b > 1 each is a copy, read
	 * and write in BF16: 2 x 2 (in + d_i) bytes a token on this rank's share.  Its
	 * backward is one copy of the gradient the other way (the gradient of a permuted
	 * copy), so the backward carries it once, not twice as the other element-wise ops. */
	mtr = 0;
	if (kd.type == CALC_LAYER_MAMBA && plan->micro_batch > 1) {
		struct calc_mixer x;
		calc_model_mixer(m, kd.type, &x);
		mtr = T * 4 * (x.in + x.inner) / t / hbm;
		o->elem += mtr;
	}

	o->f = o->gemm + o->attn + o->elem;
	/* Backward: dgrad and wgrad GEMMs each as much as the forward GEMM (same M, N, K
	 * permuted); elementwise backward reads the saved input and the incoming gradient
	 * and writes the outgoing one: twice the forward traffic (derived); the Mamba-2
	 * transposes once (above). */
	o->b = o->gemm + attn_b + 2 * o->elem - mtr;
	o->attn_b = attn_b;
	o->w = o->gemm;
	if (plan->recompute == CALC_RC_FULL)
		o->recompute = o->f;
	else if (plan->recompute == CALC_RC_SELECTIVE && !plan->flash_attention && has_attn)
		o->recompute = o->attn; /* Korthikanti 2022 §5: the attention core only */
	else
		o->recompute = 0;
	/* torchtitan's op-level SAC (memory.c act_layer): the even-numbered matmuls run
	 * again -- wk, wo and w3 (SwiGLU) or wk, wo and fc2 (GeLU) -- with every
	 * memory-bound op, and the attention core unless SDPA's flash kernel saved it.
	 * With TP the all-gathers before wq and w1 run again too (not counted). */
	if (plan->recompute == CALC_RC_OP_SAC && !moe && !is_mla(m) && blocks == 2) {
		o->recompute = gemm_time(T, d * kvh, h, peak, hbm, eb, sms, shp)     /* wk */
		             + gemm_time(T, h, a * d / t, peak, hbm, eb, sms, shp)   /* wo */
		             + (m->mlp == CALC_MLP_SWIGLU ? gemm_time(T, f / t, h, peak, hbm, eb, sms, shp) /* w3 */
		                                          : gemm_time(T, h, f / t, peak, hbm, eb, sms, shp)) /* fc2 */
		             + o->elem + (plan->flash_attention ? 0 : o->attn);
	}
	/* Module recomputation (Megatron-Core recompute_modules; DeepSeek-V3 §3.2.3): the
	 * forward of each recomputed submodule runs again in the backward -- the two norms
	 * (read + write h, 2 B each, over t with SP), the MLA up projections, the attention
	 * core, the dense MLP (not in an MoE layer), the whole MoE block (router, grouped
	 * GEMMs, permutation, shared experts; its dispatch and combine are not repeated
	 * here), the shared experts alone, the routed experts' activation function. */
	if (rcm) {
		if ((rcm & CALC_RCM_LAYERNORM) && !has_mamba) /* none in a MambaLayer (memory.c) */
			o->recompute += T * 4 * blocks * h / shard / hbm;
		if (rcm & CALC_RCM_MLA_UP_PROJ)
			o->recompute += t_up;
		if ((rcm & CALC_RCM_CORE_ATTN) && has_attn)
			o->recompute += o->attn;
		if ((rcm & CALC_RCM_MLP) && !moe)
			o->recompute += t_mlp;
		if (moe && (rcm & CALC_RCM_MOE))
			o->recompute += experts + expert_elem + t_mlp;
		else if (moe) {
			if (rcm & CALC_RCM_SHARED_EXPERTS)
				o->recompute += t_mlp;
			if (rcm & CALC_RCM_MOE_ACT)
				o->recompute += t_moe_act;
		}
	}
	o->comm_f = o->comm_b = o->comm_rc = o->ep_f = o->ep_b = o->ep_rc = 0;
	o->ckpt_ag = o->ckpt_f = o->ckpt_b = 0;
	o->off_f = o->off_b = 0;
	o->host_f = o->host_b = 0;
}

/* The share of a TP or CP collective's time a layer pays (docs/references.md §4.8): the
 * exposed 1 - o, o = efficiency.tp_overlap, and for the hidden o the slow-down of the
 * GEMMs it runs under -- its kernels hold c = efficiency.tp_overlap_sms of the GPU's S
 * SMs (Transformer Engine userbuffers' num_sm, with set_sm_margin the GEMM launches on
 * S - c), so the GEMM runs (S - c) / S as fast while it hides the collective and the
 * hidden time costs c / S of itself again: (1 - o) + o c / S.  Without an SM count
 * (gpu.sms = 0) the hidden part is free. */
static double tp_charge(const struct calc_plan *plan)
{
	double o = plan->tp_overlap < 0 ? 0 : plan->tp_overlap > 1 ? 1 : plan->tp_overlap;
	double c = plan->tp_overlap_sms > 0 ? plan->tp_overlap_sms : 0, S = plan->gpu.sms;
	double share = S > 0 ? (c < S ? c / S : 1) : 0;

	return (1 - o) + o * share;
}

/*
 * DeepSpeed's activation checkpointing under recompute = full (ZeRO-R, Rajbhandari et
 * al. 2020 §6.1 and §8; docs/references.md §2.8), per layer and micro-batch, into 'o'
 * (whose compute part is filled).  The checkpoint is the layer input, x = e s b h / r
 * bytes on a GPU (memory.c act_layer), e s b h / t when partitioned.
 *   partition_activations: an all-gather of the e s b h input over the TP group before
 *     the recomputation (ZeRO-R §8: one all-gather of seq x hidden per transformer
 *     block); on the critical path, as checkpointing.py runs it on the compute stream.
 *     With SP the stored input is already the sequence shard, which the recomputed
 *     forward's own SP all-gather gathers (in comm_rc): nothing is added.
 *   cpu_checkpointing: x to host memory after the forward and back before the
 *     recomputation over the GPU's PCIe link (gpu.pcie_bw per direction; ZeRO-R §8:
 *     "2x added data movement to and from CPU memory"), each copy hidden behind at most
 *     the layer's own compute of its pass (forward f; backward b + w + recompute), the
 *     rest exposed.  Convention: overlapped, as a prefetching implementation runs it;
 *     DeepSpeed's checkpointing.py copies synchronously (partition.cpu(), its transport
 *     stream unused), which the exposed share understates.
 */
static void ckpt_traffic(const struct calc_plan *plan, struct calc_layer_time *o)
{
	double t = plan->tp > 0 ? plan->tp : 1, cp = plan->cp > 0 ? plan->cp : 1;
	double e = plan->recipe ? plan->recipe->act_bytes : 2;
	double in = e * plan->micro_batch * (plan->seq_len / cp) * plan->model.hidden; /* e s b h [B] */
	double x = in / (plan->partition_activations || plan->sp ? t : 1), bw = plan->gpu.pcie_bw;

	if (plan->partition_activations && !plan->sp && t > 1) {
		struct calc_group g;
		struct calc_links l;
		calc_comm_group(plan, CALC_DIM_TP, &g);
		calc_comm_links(plan, &l);
		o->ckpt_ag = calc_coll_time(CALC_COLL_ALLGATHER, in, &g, &l);
		o->comm_b += o->ckpt_ag;
		o->comm_rc += o->ckpt_ag;
	}
	if (plan->cpu_checkpointing && bw > 0) {
		o->ckpt_f = exposed_behind(x / bw, o->f, 1);
		o->ckpt_b = exposed_behind(x / bw, o->b + o->w + o->recompute, 1);
	}
}

/*
 * Layer-level activation offloading (training.offload_activations; memory.c offload_act,
 * docs/references.md §2.12), one layer of kind 'kind' and one micro-batch, into 'o':
 * the time to copy its stored activations a (memory.c act_layer) over the host link,
 * a / gpu.pcie_bw, the same each way (the link's rate per direction).  stage_cost
 * charges what of the offloaded layers' copies their compute does not hide.
 */
static void offload_traffic(const struct calc_plan *plan, int kind, struct calc_layer_time *o)
{
	struct calc_act_layer a;
	double bw = plan->gpu.pcie_bw;

	if (bw <= 0)
		return;
	calc_memory_act_kind(plan, kind, plan->recompute, &a);
	o->off_f = o->off_b = a.total / bw;
}

/*
 * Fine-grained activation offloading (training.offload_modules; memory.c
 * calc_memory_offload_bytes, docs/references.md §2.14), one layer of kind 'kind' and one
 * micro-batch, into 'o': the offloaded groups' bytes c over the host link gpu.pcie_bw (the
 * link's rate per direction), D2H in the forward and H2D in the backward.  Megatron-Core
 * copies each group on its own stream (d2h_stream, h2d_stream) while the compute stream
 * runs on, and reloads a group one group ahead of the backward that needs it
 * (fine_grained_activation_offload.py at d98e8a6: bulk_offload_group, bulk_reload), so a
 * layer's copies hide behind that layer's compute of the pass: exposed only where c /
 * pcie_bw exceeds it (max(0, c / bw - compute), the forward's f, the backward's b + w +
 * recompute).  Already exposed: stage_cost adds them per layer.
 */
static void fg_offload_traffic(const struct calc_plan *plan, int kind, struct calc_layer_time *o)
{
	double bw = plan->gpu.pcie_bw, c, cf, cb;

	if (bw <= 0)
		return;
	c = calc_memory_offload_bytes(plan, kind) / bw;
	cf = cb = c;
	/* training.offload_param (DeepSpeed ZeRO-3 parameter offload, docs/references.md
	 * §2.15): before each all-gather of the layer the rank's partition w comes from the
	 * host, once in the forward and once in the backward (again for the recomputed
	 * forward under full recomputation), w / gpu.pcie_bw, and from NVMe through the
	 * swap buffers at the slower of the two links (nvme); DeepSpeed prefetches the next
	 * modules' parameters while one computes (partitioned_param_coordinator.py at
	 * edaa722, fetch_sub_module), so the copies hide behind the layer's compute as
	 * above */
	if (calc_plan_offload_param(plan)) {
		double w = calc_memory_layer_weight_bytes(plan, kind), t = w / bw;
		if (plan->offload_param == 2 && plan->nvme_bw > 0 && w / plan->nvme_bw > t)
			t = w / plan->nvme_bw;
		cf += t;
		cb += t * (plan->recompute == CALC_RC_FULL ? 2 : 1);
	}
	o->off_f = exposed_behind(cf, o->f, 1);
	o->off_b = exposed_behind(cb, o->b + o->w + o->recompute, 1);
}

/*
 * The exposed copies of layer-level activation offloading on a stage of L layers of
 * which N are offloaded, [s] in each pass, from the copy time C of the N layers and the
 * compute-stream time T of the L layers of the pass.  Transformer Engine's default
 * synchronisation (transformer_engine/pytorch/cpu_offload.py at d0067d0,
 * DefaultOffloadSynchronizer._init_offload_synchronization_dicts) offloads layers
 * 0 .. N-1, starts layer i's copy when layer i+1's forward begins and waits for it only
 * before layer L-N+i's forward; in the backward it starts layer i's reload before layer
 * L-1-N+i's backward, the reload needed at layer i's.  The copies run one after
 * another on one stream, so the last one is the binding one: it may end (L-1) layers
 * into the pass, and the stream starts one layer in, leaving (L-2) layers' compute,
 * (L-2)/L of T, to hide C behind.  Layers of equal time (the kinds in proportion, as
 * memory.c offload_act).
 */
static double offload_exposed(double c, double t, int layers)
{
	double hide = layers > 2 ? t * (layers - 2) / layers : 0;
	return c > hide ? c - hide : 0;
}

/* The collectives of one layer of kind 'kind' on top of its compute part 'o'
 * (layer_compute of the same plan): the TP and CP collectives' charged share (tp_charge)
 * and the expert all-to-all hidden behind the layer's own compute. */
/* moe.host_time (docs/references.md §5.16): a dropless MoE layer needs its per-expert token
 * counts on the host -- the all-to-all's split sizes and the grouped GEMM's m_splits --
 * so the host waits for the GPU there: the alltoall dispatcher's _maybe_dtoh_and_synchronize
 * at its cuda_sync_point, the allgather dispatcher's tokens_per_expert .cpu(), HybridEP's
 * num_permuted_tokens read from a GPU tensor when no capacity bounds it
 * (megatron/core/transformer/moe/token_dispatcher.py lines 320, 452-470, 594-615, 921-958,
 * 1111-1112 and 1175-1178 at d98e8a64, and fused_a2a.py lines 559-562: "causes a D2H
 * synchronization").  After it the GPU has nothing queued and runs what the host launches
 * as fast as the host launches it: a pass of the layer takes max(GPU time, host time),
 * and the host time H not hidden is max(0, H_pass - GPU time of the pass).
 * Conventions, no source splitting H: the forward launches H/3 and the backward 2H/3
 * (its input- and weight-gradient kernels, the 1 : 2 of the MoE parts' times, step.h);
 * the GPU time of a pass is the layer's compute and exposed collectives of that pass
 * (the backward with its weight gradients and recomputation; the recomputed forward's
 * own launches are not added); per-layer CUDA graphs (cuda_graphs = partial) capture
 * none of the launches after the sync (the experts, dispatch and combine; Megatron-Core
 * --cuda-graph-modules), so they count as none; a whole-iteration graph (full) launches
 * no kernel from the host; padding to a capacity (model.capacity_factor > 0,
 * --moe-pad-expert-input-to-capacity) knows the sizes on the host (token_dispatcher.py
 * lines 1113-1126), no sync.
 * With moe.overlap_ep_comm, the passes that have a partner (the share s1 of
 * ep_a2a_overlap_share) run as one combined step per layer, whose host sequence
 * (TransformerLayerSchedulePlan.run, megatron/core/models/common/
 * model_chunk_schedule_plan.py at 2d1fa8d37 and d98e8a64) launches the partner
 * backward's combine and expert backward (mlp.backward) before the forward's dispatch,
 * where the sync waits; the sync waits for an event recorded on the D2H side stream
 * after the token counts (the alltoall dispatcher's _maybe_dtoh_and_synchronize,
 * token_dispatcher.py at 2d1fa8d37) or for HybridEP's copy inside hybrid_ep_dispatch,
 * both ordered before the partner's expert backward on the GPU, so at the sync the GPU
 * still holds the partner's work, and the launches after it run while the GPU works
 * through it: the pair's host time H is exposed only where it exceeds the pair's GPU
 * compute, max(0, H - (f + b + w + recompute)) (derived from that order; the 1 : 2
 * split as above), whatever moe.host_overlap says for a pass without a partner. */
static void moe_host(const struct calc_plan *plan, struct calc_layer_time *o)
{
	double H = plan->moe_host_time;
	/* the MoE block recomputed as a module (recompute_modules "moe") runs its forward
	 * again in the backward, router, sync and launches included (MoELayer.forward
	 * checkpoints custom_forward, megatron/core/transformer/moe/moe_layer.py at 2d1fa8d37):
	 * the backward carries the forward's H/3 once more.  Under full recomputation the
	 * recomputed forward's launches are not counted (docs/references.md §5.16). */
	double rb = (calc_recompute_modules(plan->recompute, plan->recompute_modules) & CALC_RCM_MOE) ? H / 3 : 0;

	o->host_f = o->host_b = 0;
	if (!(H > 0) || plan->cuda_graphs == CALC_GRAPHS_FULL || plan->model.moe.capacity > 0)
		return;
	if (plan->moe_host_overlap) { /* none: the GPU idles for all of it */
		o->host_f = H / 3;
		o->host_b = 2 * H / 3 + rb;
	} else {
		double gf = o->f + o->comm_f, gb = o->b + o->w + o->recompute + o->comm_b;
		o->host_f = H / 3 > gf ? H / 3 - gf : 0;
		o->host_b = 2 * H / 3 + rb > gb ? 2 * H / 3 + rb - gb : 0;
	}
	double s1 = ep_a2a_overlap_share(plan);
	if (s1 > 0) { /* the paired passes: hidden behind the pair's compute */
		double g = o->f + o->b + o->w + o->recompute, x = H > g ? H - g : 0;
		o->host_f = (1 - s1) * o->host_f + s1 * x / 3;
		o->host_b = (1 - s1) * o->host_b + s1 * 2 * x / 3;
	}
}

void calc_step_layer_comm(const struct calc_plan *plan, const struct calc_comm *cm, int kind, struct calc_layer_time *o)
{
	struct calc_layer_kind kd;
	double pay = tp_charge(plan);

	calc_model_kind(&plan->model, kind, &kd);
	int moe = calc_layer_type_is_moe(kd.type), at = 1, ml, mb;
	{
		/* comm.c's tp_layer_* are a dense layer's two blocks; a hybrid model's layer is
		 * one block, one all-reduce (SP: all-gather + reduce-scatter) each way, as
		 * Megatron-Core's MambaMixer runs its column-parallel in_proj and row-parallel
		 * out_proj like attention's QKV and output (mamba_mixer.py at d98e8a64dd). */
		pay *= calc_layer_type_parts(kd.type, &at, &ml, &mb) / 2.0;
	}

	/* CP (parallel.cp_comm, docs/references.md §4.7): the all-gather and reduce-scatter
	 * charged as the TP collectives (the convention of Llama 3's all-gather CP, before the
	 * modes); the ring's sends (p2p, a2a+p2p) hidden behind the attention core of their
	 * pass -- each step's send runs while the chunk in hand is attended (TE
	 * AttnFuncWithCPAndKVP2P, Liu et al. 2023 §3) -- and the all-to-alls exposed, the
	 * attention waiting for their output (TE AttnFuncWithCPAndQKVOA2A).  A hybrid model's
	 * layer without attention runs none of it; its Mamba-2 layers run MambaContextParallel's
	 * six all-to-alls and its gated delta-net layers their two, exposed (comm.c cp_hybrid,
	 * docs/references.md §4.11). */
	double cpm_f = kd.type == CALC_LAYER_MAMBA ? cm->cp_mamba_f : kd.type == CALC_LAYER_GDN ? cm->cp_gdn_f : 0;
	double cpm_b = kd.type == CALC_LAYER_MAMBA ? cm->cp_mamba_b : kd.type == CALC_LAYER_GDN ? cm->cp_gdn_b : 0;
	double full = plan->recompute == CALC_RC_FULL ? 1 : 0;
	if (!at) {
		o->comm_f = pay * cm->tp_layer_f + cpm_f;
		o->comm_b = pay * cm->tp_layer_b + cpm_b;
		o->comm_rc = full ? pay * cm->tp_layer_f + cpm_f : 0;
	} else if (plan->cp_comm == CALC_CP_ALLGATHER) {
		o->comm_f = pay * (cm->tp_layer_f + cm->cp_layer_f);
		o->comm_b = pay * (cm->tp_layer_b + cm->cp_layer_b);
		/* full recomputation runs the forward's collectives again in the backward (comm.c:
		 * tp_layer_b and cp_layer_b hold them), so that part of comm_b is the forward's */
		o->comm_rc = full ? pay * (cm->tp_layer_f + cm->cp_layer_f) : 0;
	} else {
		double ef, eb;
		ring_exposed(cm, o->attn, o->attn_b, full, &ef, &eb);
		double cp_f = cm->cp_layer_f - cm->cp_ring_f + ef;
		double cp_b = cm->cp_layer_b - cm->cp_ring_b + eb;
		o->comm_f = pay * cm->tp_layer_f + cp_f;
		o->comm_b = pay * cm->tp_layer_b + cp_b;
		o->comm_rc = full ? pay * cm->tp_layer_f + cp_f : 0;
	}
	o->ep_f = o->ep_b = o->ep_rc = 0;
	if (moe && (cm->ep_layer_f > 0 || cm->ep_layer_b > 0)) {
		/* the expert all-to-all (and ETP collectives), hidden for the share
		 * ep_overlap_share behind at most the layer's own compute of that pass */
		double ov = ep_overlap_share(plan), s1 = ep_a2a_overlap_share(plan), sh = 0;
		o->ep_f = exposed_behind(cm->ep_layer_f, o->f, ov);
		o->ep_b = exposed_behind(cm->ep_layer_b, o->b + o->w + o->recompute, ov);
		if (s1 > 0) {
			/* moe.overlap_ep_comm: the forward's dispatch and combine under another
			 * micro-batch's backward compute, the backward's under its forward, in the
			 * share s1 of the passes that have a partner; the better of the two ways */
			double xf = exposed_behind(cm->ep_layer_f, o->b + o->w, s1), xb = exposed_behind(cm->ep_layer_b, o->f, s1);
			if (xf < o->ep_f)
				o->ep_f = xf;
			if (xb < o->ep_b)
				o->ep_b = xb;
		}
		/* moe.comm_sms: the hidden dispatch and combine hold c of the GPU's S SMs, so the
		 * compute they hide behind runs (S - c) / S as fast while they run: the hidden
		 * time costs c / S of itself again (as tp_charge charges the TP overlap,
		 * docs/references.md §4.8 and §5.12) */
		if (plan->moe_comm_sms > 0 && plan->gpu.sms > 0)
			sh = (plan->moe_comm_sms < plan->gpu.sms ? plan->moe_comm_sms : plan->gpu.sms) / plan->gpu.sms;
		o->ep_f += sh * (cm->ep_layer_f - o->ep_f);
		o->ep_b += sh * (cm->ep_layer_b - o->ep_b);
		/* with full recomputation ep_layer_b holds the recomputed forward's dispatch and
		 * combine (comm.c) and the window its compute: a layer that does not recompute
		 * (recompute_method = block) exposes ep_layer_b - ep_layer_f behind b + w, so
		 * the difference is the recomputed forward's share of ep_b */
		if (plan->recompute == CALC_RC_FULL) {
			double c = cm->ep_layer_b - cm->ep_layer_f, x = exposed_behind(c, o->b + o->w, ov);
			o->ep_rc = o->ep_b - (x + sh * (c - x));
		}
		o->comm_f += o->ep_f;
		o->comm_b += o->ep_b;
		o->comm_rc += o->ep_rc;
	}
	o->ckpt_ag = o->ckpt_f = o->ckpt_b = 0;
	if (plan->recompute == CALC_RC_FULL && (plan->partition_activations || plan->cpu_checkpointing))
		ckpt_traffic(plan, o);
	o->off_f = o->off_b = 0;
	if (calc_plan_offload_layers(plan) > 0)
		offload_traffic(plan, kind, o);
	else if (plan->offload_modules || calc_plan_offload_param(plan))
		fg_offload_traffic(plan, kind, o);
	o->host_f = o->host_b = 0;
	if (moe)
		moe_host(plan, o);
}

void calc_layer_time_kind(const struct calc_plan *plan, const struct calc_comm *cm, int kind,
                          struct calc_layer_time *o)
{
	layer_compute(plan, kind, o);
	calc_step_layer_comm(plan, cm, kind, o);
}

/* ------------------------------------------------------------------ stages */

/* Per micro-batch times of the embedding (first stage) and of the LM head with the
 * loss (last stage): the logits GEMM T x h x V/t (vocabulary-parallel, Megatron) and
 * the cross-entropy's traffic over the T x V/t logits, as Megatron-Core's unfused
 * vocabulary-parallel cross-entropy runs it (megatron/core/tensor_parallel/cross_entropy.py,
 * docs/references.md §5.8), in bytes per logit:
 *   forward  40 = the GEMM's BF16 write 2, .float() read 2 + write 4, max read 4, the
 *                 in-place subtraction of the max read 4 + write 4, exp read 4 + write 4,
 *                 sum read 4, the in-place division into the saved softmax read 4 + write 4;
 *   backward 14 = the in-place scaling of the softmax by the incoming gradient read 4 +
 *                 write 4, .float()'s backward (FP32 to BF16) read 4 + write 2.
 * The one-element target updates and the per-token reductions' outputs are left out.
 * The output head stays in BF16 in FP8 recipes (DeepSeek-V3 §3.3.1 keeps the
 * embedding, output head, attention and norms in higher precision). */
#define CE_FWD_BYTES 40.0 /* [bytes per logit] */
#define CE_BWD_BYTES 14.0 /* [bytes per logit] */
static void end_times(const struct calc_plan *plan, struct calc_step_ends *e)
{
	const struct calc_model *m = &plan->model;
	double t = plan->tp > 0 ? plan->tp : 1, cp = plan->cp > 0 ? plan->cp : 1;
	double T = plan->micro_batch * (double)plan->seq_len / cp, h = m->hidden, V = m->vocab;
	double hbm = plan->gpu.hbm_bw > 0 ? plan->gpu.hbm_bw : 1e12;
	double peak = gemm_rate(plan, 0);
	double lg = gemm_time(T, V / t, h, peak, hbm, 2, plan->gpu.sms, calc_gemm_shape_on(plan));
	double ce_f = T * CE_FWD_BYTES * V / t / hbm, ce_b = T * CE_BWD_BYTES * V / t / hbm;
	double emb = T * h * 4 / hbm; /* gather the rows: read + write h values of 2 B */

	e->first_f = emb;
	e->first_b = 0;
	e->first_w = emb;
	e->last_f = lg + ce_f;
	e->last_b = lg + ce_b;
	e->last_w = lg;
	e->mtp_proj = 0;
	if (m->mtp_depth > 0) {
		/* an MTP module's projection M in R^{h x 2h} (mtp_cost): a T x (h/t) x 2h GEMM
		 * column-split over TP, in FP8 where the recipe's layer GEMMs are */
		int fp8 = plan->recipe && plan->recipe->fp8_compute && plan->gpu.fp8_flops > 0;
		e->mtp_proj = gemm_time(T, h / t, 2 * h, gemm_rate(plan, 1), hbm, fp8 ? lp_bytes(plan) : 2,
		                        plan->gpu.sms, calc_gemm_shape_on(plan));
	}
}

/* One stage's per micro-batch costs and the parts the breakdown names. */
struct stage_cost {
	double tf, tb, tw;          /* [s] */
	double recompute, comm;     /* parts of tf + tb [s] */
	double ep;                  /* of comm, the expert all-to-all and ETP collectives [s] */
	double host;                /* of tf + tb, the MoE layers' exposed host time [s] */
};

/* The multi-token prediction modules on the stage that holds the LM head (DeepSeek-V3
 * §2.2: D sequential modules after the main model, each RMSNorms of the hidden state and
 * of the next token's embedding, the projection M in R^{h x 2h} of their concatenation, a
 * transformer block, and the output head shared with the main model), per micro-batch:
 * D times the op times of one layer of the block's kind, the projection (end_times: a
 * T x (h/t) x 2h GEMM column-split over TP; forward, input and weight gradients one GEMM
 * each), and the head with its loss as the main head costs.  Added into 'o'. */
static void mtp_cost(const struct calc_pipeline_in *in, struct stage_cost *o)
{
	const struct calc_step_ends *e = &in->ends;
	double D = in->mtp_depth, proj = e->mtp_proj;
	const struct calc_layer_time *k;

	if (D <= 0) /* no modules: nothing to add */
		return;
	k = &in->kind[in->mtp_kind];
	o->tf += D * (k->f + k->comm_f + k->host_f + proj + e->last_f);
	o->tb += D * (k->b + k->recompute + k->comm_b + k->host_b + proj + e->last_b);
	o->host += D * (k->host_f + k->host_b);
	o->tw += D * (k->w + proj + e->last_w);
	o->recompute += D * k->recompute;
	o->comm += D * (k->comm_f + k->comm_b);
	o->ep += D * (k->ep_f + k->ep_b);
}

/* The costs of a stage holding the layers 'slp' (its own index enters only through
 * them: embedding, head, layers and count). */
static void stage_cost(const struct calc_pipeline_in *in, const struct calc_stage_layers *slp, struct stage_cost *o)
{
	const struct calc_stage_layers sl = *slp;
	const struct calc_layer_time *lt = in->kind;
	const struct calc_step_ends *e = &in->ends;
	int nk = in->nkinds, off = in->offload_layers;
	double rc_comm = 0; /* the recomputed forward's collectives of every layer [s] */
	double rc_ep = 0;   /* of them, the expert all-to-all and ETP collectives [s] */
	double ck_f = 0;    /* the exposed checkpoint copies to host memory of every layer [s] */
	double off_cf = 0, off_cb = 0; /* the offloaded layers' copies, forward and backward [s] */
	double off_tf = 0, off_tb = 0; /* the layers' compute-stream time of each pass [s] */

	/* every layer kind the stage holds, n_k times the op times of one layer of it */
	memset(o, 0, sizeof *o);
	for (int k = 0; k < nk; k++) {
		double n = sl.count[k];
		if (!sl.count[k])
			continue;
		o->tf += n * (lt[k].f + lt[k].comm_f);
		o->tb += n * (lt[k].b + lt[k].recompute + lt[k].comm_b + lt[k].ckpt_b);
		o->tw += n * lt[k].w;
		/* the exposed checkpoint copies count with the recomputation they serve */
		o->tf += n * lt[k].ckpt_f;
		o->recompute += n * (lt[k].recompute + lt[k].ckpt_f + lt[k].ckpt_b);
		ck_f += n * lt[k].ckpt_f;
		/* the offloaded layers' copies (pp = 1: the stage holds every layer; the kinds
		 * share them in proportion, as memory.c offload_act) and the compute they run
		 * behind */
		if (off > 0 && sl.layers > 0) {
			double share = (double)off / sl.layers;
			off_cf += n * share * lt[k].off_f;
			off_cb += n * share * lt[k].off_b;
			off_tf += n * (lt[k].f + lt[k].comm_f);
			off_tb += n * (lt[k].b + lt[k].w + lt[k].comm_b);
		} else if (off <= 0) {
			/* fine-grained offloading (fg_offload_traffic): each layer's exposed copies */
			o->tf += n * lt[k].off_f;
			o->tb += n * lt[k].off_b;
		}
		o->comm += n * (lt[k].comm_f + lt[k].comm_b);
		o->ep += n * (lt[k].ep_f + lt[k].ep_b);
		/* the MoE layers' exposed host time (moe_host), after the offloaded copies' window */
		o->tf += n * lt[k].host_f;
		o->tb += n * lt[k].host_b;
		o->host += n * (lt[k].host_f + lt[k].host_b);
		rc_comm += n * lt[k].comm_rc;
		rc_ep += n * lt[k].ep_rc;
	}
	if (off > 0) {
		o->tf += offload_exposed(off_cf, off_tf, sl.layers);
		o->tb += offload_exposed(off_cb, off_tb, sl.layers);
	}
	/* recompute_method = block: only the checkpointed layers run their forward again
	 * (rc_share), with the forward's TP and CP collectives and expert all-to-all
	 * (comm_rc); the kinds alike (memory.c's convention) */
	if (in->rc.block) {
		double keep = 1 - rc_share_of(&in->rc, sl.layers), skip = keep * o->recompute, skip_comm = keep * rc_comm;
		/* a layer that keeps its activations has no checkpoint to copy either */
		o->tf -= keep * ck_f;
		o->tb -= skip - keep * ck_f + skip_comm;
		o->recompute -= skip;
		o->comm -= skip_comm;
		o->ep -= keep * rc_ep;
	}
	if (sl.embedding) {
		o->tf += e->first_f;
		o->tb += e->first_b;
		o->tw += e->first_w;
	}
	if (sl.head) {
		o->tf += e->last_f;
		o->tb += e->last_b;
		o->tw += e->last_w;
	}
	if (sl.mtp) /* with the head, or where parallel.layout places the modules */
		mtp_cost(in, o);
}

void calc_step_pipeline_shape(const struct calc_plan *plan, double p2p, struct calc_pipeline_shape *out)
{
	const struct calc_sched *row = calc_schedule_at((int)plan->schedule);
	int p = plan->pp > 0 ? plan->pp : 1;

	out->sched = plan->schedule;
	out->p = p;
	out->m = calc_plan_microbatches(plan);
	out->dual = row && row->two_way && p > 1;
	out->v = row && row->uses_vpp && plan->vpp > 0 ? plan->vpp : 1;
	out->vpp = plan->vpp > 0 ? plan->vpp : 1;
	out->flush = !plan->post_validation;
	out->p2p = p2p;
}

void calc_step_pipeline_in(const struct calc_plan *plan, const struct calc_layer_time *kind,
                           const struct calc_step_ends *e, const struct calc_comm_pre *cpre,
                           struct calc_stage_layers *buf, struct calc_stage_layers *chunks, double p2p,
                           struct calc_pipeline_in *in)
{
	const struct calc_pipeline_shape *sh = &in->shape;

	calc_step_pipeline_shape(plan, p2p, &in->shape);
	in->kind = kind;
	in->nkinds = calc_model_nkinds(&plan->model);
	in->ends = *e;
	in->offload_layers = calc_plan_offload_layers(plan);
	calc_rc_rule_of(plan, &in->rc);
	in->mtp_depth = plan->model.mtp_depth;
	in->mtp_kind = in->mtp_depth > 0 ? calc_model_mtp_kind(&plan->model) : 0;
	if (cpre && cpre->have_sl) { /* the split's, computed once */
		in->all = cpre->all;
		in->uniform = cpre->uniform;
		in->heavy = cpre->heavy;
	} else {
		calc_stage_layers_all(plan, buf);
		in->all = buf;
		in->uniform = calc_stage_layers_uniform(plan);
		in->heavy = in->uniform ? -1 : calc_stage_layers_heaviest(plan);
	}
	in->chunks = NULL;
	in->nchunks = 0;
	if (chunks && plan->chunks.n > 0 && sh->v > 1 && !sh->dual && plan->chunks.n == sh->p * sh->v &&
	    plan->chunks.n <= CALC_MAX_STAGES) {
		for (int g = 0; g < plan->chunks.n; g++)
			calc_chunk_layers(plan, g, &chunks[g]);
		in->chunks = chunks;
		in->nchunks = plan->chunks.n;
	}
}

/* A GPU runs one stage, except under DualPipe where rank i runs stage i for half the
 * micro-batches and stage p-1-i for the other half (DeepSeek-V3 §3.2.1), so its costs
 * are the pair's mean.  Without 'c' and with an even split only the first GPU
 * (embedding, and under DualPipe also the LM head) and the last (LM head) can be
 * critical; with an uneven one also the heaviest middle stage. */
double calc_step_pipeline(const struct calc_pipeline_in *in, struct calc_pp_costs *c, struct calc_pipeline_out *out)
{
	int p = in->shape.p, m = in->shape.m < 1 ? 1 : in->shape.m, dual = in->shape.dual;
	int nrank = dual ? (p + 1) / 2 : p, heavy = -2;
	int uniform = !c && in->uniform;
	const struct calc_stage_layers *all = in->all;
	double best = -1;

	if (c && in->chunks) {
		/* a layout placed chunk by chunk: each virtual stage g = chunk x p + stage costs
		 * its own layers, embedding, loss and MTP modules (calc_chunk_layers), and the
		 * simulator runs them so (calc_pp_costs.per_chunk) */
		c->per_chunk = 1;
		for (int g = 0; g < in->nchunks; g++) {
			struct stage_cost sc;
			stage_cost(in, &in->chunks[g], &sc);
			c->tf[g] = sc.tf;
			c->tb[g] = sc.tb;
			c->tw[g] = sc.tw;
		}
	} else if (c)
		for (int i = 0; i < p; i++) {
			struct stage_cost sc;
			stage_cost(in, &in->all[i], &sc);
			c->tf[i] = sc.tf;
			c->tb[i] = sc.tb;
			c->tw[i] = sc.tw;
		}
	/* of the middle stages the one with the most layers has the most work */
	if (!c && !uniform && !dual)
		heavy = in->heavy;
	for (int r = 0; r < nrank; r++) {
		struct stage_cost a, b;
		double busy;
		if (uniform && r > 0 && r < nrank - 1)
			r = nrank - 1; /* the middle GPUs are copies with less work */
		else if (heavy >= -1 && r > 0 && r < nrank - 1 && r != heavy)
			r = heavy > r ? heavy : nrank - 1;
		if (dual && r > 0 && uniform)
			break;
		/* DualPipe: a rank whose two stages hold the layers of the previous rank's two
		 * has its costs, bit for bit, and cannot exceed 'best' (which that rank's busy
		 * time entered or did not beat) */
		if (dual && r >= 2 && !memcmp(&all[r], &all[r - 1], sizeof *all) &&
		    !memcmp(&all[p - 1 - r], &all[p - r], sizeof *all))
			continue;
		stage_cost(in, &all[r], &a);
		if (dual) {
			stage_cost(in, &all[p - 1 - r], &b);
			a.tf = (a.tf + b.tf) / 2;
			a.tb = (a.tb + b.tb) / 2;
			a.tw = (a.tw + b.tw) / 2;
			a.recompute = (a.recompute + b.recompute) / 2;
			a.comm = (a.comm + b.comm) / 2;
			a.ep = (a.ep + b.ep) / 2;
			a.host = (a.host + b.host) / 2;
		}
		busy = m * (a.tf + a.tb + a.tw);
		if (busy > best) {
			best = busy;
			out->critical = r;
			out->tf = a.tf;
			out->tb = a.tb;
			out->tw = a.tw;
			out->recompute = m * a.recompute;
			out->tp_comm = m * a.comm;
			out->ep_exposed = m * a.ep;
			out->host_sync = m * a.host;
			out->compute = busy - out->recompute - out->tp_comm;
		}
	}
	out->busy = best;
	return best;
}

/* Closed-form pipeline idle time of the critical stage (docs/references.md §3):
 * GPipe / 1F1B (p-1)(F+B+W) (Narayanan 2021 §2.2.1), interleaved (p-1)(F+B+W)/v
 * (§2.2.2), ZB-H1 (p-1)(F+B-W), ZB-H2 (p-1)(F+B-2W) (Qi et al. 2024 Table 2) only
 * with post-validation (§4: no flush between steps, parallel.post_validation);
 * flushed, the last stage cannot start before p-1 forwards have run, so ZB-H2 idles
 * (p-1) max(F, F+B-2W) (derived; the simulator's single step gives the same,
 * tests/calc/step.c),
 * DualPipe (p/2-1)(F&B + B' - 3W) with F&B = F+B+W and B' = B+W (DeepSeek-V3 Table 2);
 * plus one send each way per stage boundary on the fill and drain paths. */
double calc_step_closed_bubble(const struct calc_pipeline_shape *sh, double tf, double tb, double tw)
{
	int p = sh->p;
	struct calc_pp_closed cf;

	if (p <= 1)
		return 0;
	/* the formulas live in pipeline.c, with the plan's ZB-H2 flush convention */
	calc_pipeline_closed_flush(sh->sched, p, sh->m, sh->vpp, tf, tb, tw, sh->flush, &cf);
	return cf.bubble + 2.0 * (p - 1) * sh->p2p;
}

/*
 * Exposed FSDP collectives of the critical GPU in one step [s] (parallel.fsdp; the
 * per-unit collectives come from comm.c).  Overlap is bounded layer by layer, not by
 * the step: with a prefetch depth of one or more the all-gather of the next unit runs
 * behind the compute of this one (FSDP forward and backward prefetch, Zhao et al. 2023
 * §3.3.3), so a unit exposes max(0, C - ov W) with W its own compute (TP/CP collectives
 * included) and ov = efficiency.dp_overlap, the share of it a collective can run under
 * (kernels and NCCL contend for SMs and memory bandwidth); the first gather of a pass and the last reduction hide behind nothing.
 * Without prefetch every collective is exposed.  Forward: C = the all-gather, in the
 * micro-batches that gather.  Backward: C = all-gather (reshard_after_forward) plus
 * reduce-scatter (in the micro-batches that reduce), W = B + W + recomputation.
 * Micro-batches: without PP every one gathers (reduce-scatters too, unless no_sync:
 * then the last); with PP (a stage keeps its parameters gathered) the first gathers,
 * the last reduces.  Per-unit collectives share the network, so the prefetch depth
 * beyond one does not shorten a steady state of equal units (derived).  With
 * recompute_method = block only the recomputed share of a kind's layers (rc_share, the
 * kinds alike as stage_cost counts them) has the recomputation, and the recomputed
 * forward's collectives, in its backward window; the other layers' window is
 * B + W + their backward collectives (comm_b - comm_rc).
 */
static double fsdp_exposed(const struct calc_plan *plan, const struct calc_step *st)
{
	const struct calc_comm *c = &st->comm;
	struct calc_stage_layers sl;
	struct calc_step_ends e;
	int m = calc_plan_microbatches(plan), pp = plan->pp > 0 ? plan->pp : 1, nk = calc_model_nkinds(&plan->model);
	int pre = plan->fsdp_prefetch > 0, rsh = plan->reshard_after_forward;
	double ov = plan->dp_overlap < 0 ? 0 : plan->dp_overlap > 1 ? 1 : plan->dp_overlap, total = 0, rc = 1;

	if (m < 1)
		m = 1;
	calc_stage_layers(plan, st->critical, &sl);
	if (plan->recompute == CALC_RC_FULL && plan->recompute_method == CALC_RC_METHOD_BLOCK)
		rc = rc_share(plan, sl.layers); /* the share of the stage's layers that recompute */
	end_times(plan, &e);
	/* three classes of micro-batch: the first, the last, the m - 2 between */
	for (int cls = 0; cls < 3; cls++) {
		int first = cls == 0 || m == 1, last = cls == 1 || m == 1;
		double times = cls == 2 ? m - 2 : 1, ef = 0, eb = 0, fill_f = 0, fill_b = 0;
		int gf = pp > 1 ? first : 1, gb = pp > 1 ? 0 : rsh;
		int rd = pp > 1 || plan->no_sync ? last : 1;
		if (times <= 0 || (cls == 1 && m == 1))
			continue;
		/* j = -2 the embedding, -1 the head, then each kind k twice: its recomputed
		 * layers (u = 0) and those recompute_method = block keeps (u = 1; none otherwise) */
		for (int j = -2; j < 2 * nk; j++) {
			int k = j < 0 ? j : j / 2, u = j < 0 ? 0 : j % 2;
			double n, ag, rs, wf, wb, cf, cb;
			if (k == -2) { /* the embedding unit */
				if (!sl.embedding)
					continue;
				n = 1, ag = c->fsdp_ag_first, rs = c->fsdp_rs_first;
				wf = e.first_f, wb = e.first_b + e.first_w;
			} else if (k == -1) { /* final norm + LM head */
				if (!sl.head)
					continue;
				n = 1, ag = c->fsdp_ag_last, rs = c->fsdp_rs_last;
				wf = e.last_f, wb = e.last_b + e.last_w;
			} else {
				const struct calc_layer_time *lt = &st->kind_layer[k];
				n = sl.count[k] * (u ? 1 - rc : rc);
				if (!(n > 0))
					continue;
				ag = c->fsdp_ag[k], rs = c->fsdp_rs[k];
				wf = lt->f + lt->comm_f;
				wb = u ? lt->b + lt->w + lt->comm_b - lt->comm_rc : lt->b + lt->w + lt->recompute + lt->comm_b;
			}
			cf = gf ? ag : 0;
			cb = (gb ? ag : 0) + (rd ? rs : 0);
			wf *= ov; /* the share of a unit's compute a collective can run under */
			wb *= ov;
			if (!pre) {
				ef += n * cf;
				eb += n * cb;
				continue;
			}
			ef += n * (cf > wf ? cf - wf : 0);
			eb += n * (cb > wb ? cb - wb : 0);
			/* the first unit's gather and the last unit's reduction have no neighbour
			 * (a layer block recomputes: it recomputes the first N of a chunk) */
			if (u)
				continue;
			if (cf > fill_f)
				fill_f = cf < wf ? cf : wf;
			if (cb > fill_b)
				fill_b = cb < wb ? cb : wb;
		}
		total += times * (ef + eb + fill_f + fill_b);
	}
	return total;
}

/* Newton-Schulz FLOPs of an n x m matrix over 'it' iterations (Jordan et al. 2024, Muon:
 * X <- a X + (b A + c A^2) X with A = X X^T, X taken with its short side s first, l the
 * long one): X X^T 2 s^2 l, A^2 2 s^3, (b A + c A^2) X 2 s^2 l -- 4 s^2 l + 2 s^3 an
 * iteration (docs/references.md §1.9). */
static double ns_flops(double n, double m, int it)
{
	double s = n < m ? n : m, l = n < m ? m : n;
	return it * (4 * s * s * l + 2 * s * s * s);
}

/* Muon's Newton-Schulz over the matrices of one layer of kind 'kind', each whole (gathered
 * over TP, Distributed Muon): Q, K, V and the output projection as separate matrices
 * (MLA: its down and up projections), the MLP's two or three, an MoE layer's router and
 * the routed experts this rank holds (E / ep) and its shared experts. */
static double ns_layer(const struct calc_plan *plan, int kind, int it)
{
	const struct calc_model *m = &plan->model;
	struct calc_layer_kind kd;
	double h = m->hidden, a = m->heads, g = m->kv_heads > 0 ? m->kv_heads : a, d = head_dim(m), t = 0;
	double nm = m->mlp == CALC_MLP_SWIGLU ? 3 : 2;

	calc_model_kind(m, kind, &kd);
	if (is_mla(m)) {
		const struct calc_mla *x = &m->mla;
		t += x->q_lora_rank > 0 ? ns_flops(h, x->q_lora_rank, it) + ns_flops(x->q_lora_rank, a * qk_dim(m), it)
		                        : ns_flops(h, a * qk_dim(m), it);
		t += ns_flops(h, x->kv_lora_rank + x->qk_rope_dim, it) +
		     ns_flops(x->kv_lora_rank, a * (x->qk_nope_dim + v_dim(m)), it) + ns_flops(a * v_dim(m), h, it);
	} else
		t += ns_flops(h, a * d, it) + 2 * ns_flops(h, g * d, it) + ns_flops(a * d, h, it);
	switch (kd.type) { /* every kind: -Werror=switch fails the build on a new one */
	case CALC_LAYER_DENSE:
		t += nm * ns_flops(h, kd.ffn_hidden, it);
		break;
	case CALC_LAYER_ATTN:
		break;
	case CALC_LAYER_MLP:
		t = nm * ns_flops(h, kd.ffn_hidden, it);
		break;
	case CALC_LAYER_MAMBA: {
		/* in_proj and out_proj; Megatron-Core marks in_proj use_muon = False
		 * (mamba_mixer.py at d98e8a64dd), so only out_proj runs the iterations */
		const struct calc_mamba *x = &m->mamba;
		t = ns_flops((double)x->heads * x->head_dim, h, it);
		break;
	}
	case CALC_LAYER_MAMBA1: {
		/* in_proj, x_proj, dt_proj and out_proj: mamba_simple.py marks none of its
		 * matrices apart, so all four run the iterations */
		const struct calc_mamba1 *x = &m->mamba1;
		t = ns_flops(h, 2.0 * x->inner, it) + ns_flops(x->inner, x->dt_rank + 2.0 * x->state, it) +
		    ns_flops(x->dt_rank, x->inner, it) + ns_flops(x->inner, h, it);
		break;
	}
	case CALC_LAYER_GDN: {
		/* in_proj and out_proj: GatedDeltaNet marks none of its weights apart
		 * (gated_delta_net.py at e867835174), so both run the iterations */
		struct calc_mixer x;
		calc_model_mixer(m, CALC_LAYER_GDN, &x);
		t = ns_flops(h, x.in, it) + ns_flops(x.inner, h, it);
		break;
	}
	case CALC_LAYER_MOE:
	case CALC_LAYER_EXPERTS: {
		const struct calc_moe *e = &m->moe;
		double sf = e->shared_ffn > 0 ? e->shared_ffn : e->expert_ffn, ep = plan->ep > 0 ? plan->ep : 1;
		if (kd.type == CALC_LAYER_EXPERTS)
			t = 0; /* no attention in a hybrid model's MoE layer */
		t += (double)e->experts / ep * nm * ns_flops(h, e->expert_ffn, it) + e->shared * nm * ns_flops(h, sf, it) +
		     ns_flops(h, e->experts, it);
		break;
	}
	}
	return t;
}

/* Muon's step beyond the element-wise pass (recipe muon, docs/references.md §1.9), on the
 * most loaded stage: Distributed Muon (Liu et al. 2025 §2.3, Algorithm 1) gathers each
 * matrix's momentum-updated gradient (FP32) over the ZeRO-1 DP group and over TP, runs
 * the Newton-Schulz iterations on the whole matrix -- every rank of a matrix's DP x TP
 * group the same work -- and keeps its shard.  The gathers: all-gather of the rank's
 * grad_params x 4 B over the DP x CP group (zero >= 1) and of t times it over TP; the
 * iterations at the BF16 GEMM rate; nothing hidden.  The embedding, LM head and norms
 * (AdamW in Moonlight) are not orthogonalized. [s] */
static double muon_time(const struct calc_plan *plan, double grad_params)
{
	int it = calc_recipe_ns_iters(plan->recipe), p = plan->pp > 0 ? plan->pp : 1, nk;
	double per[CALC_MAX_KINDS], worst = 0, t;
	struct calc_group g;
	struct calc_links l;

	if (it <= 0)
		return 0;
	nk = calc_model_nkinds(&plan->model);
	for (int k = 0; k < nk && k < CALC_MAX_KINDS; k++)
		per[k] = ns_layer(plan, k, it);
	for (int i = 0; i < p; i++) {
		struct calc_stage_layers sl;
		double f = 0;
		calc_stage_layers(plan, i, &sl);
		for (int k = 0; k < nk && k < CALC_MAX_KINDS; k++)
			f += sl.count[k] * per[k];
		if (f > worst)
			worst = f;
	}
	t = worst / gemm_rate(plan, 0);
	calc_comm_links(plan, &l);
	if (plan->zero >= 1) {
		calc_comm_group(plan, CALC_DIM_DP, &g);
		t += calc_coll_time(CALC_COLL_ALLGATHER, grad_params * 4, &g, &l);
	}
	if (plan->tp > 1) {
		calc_comm_group(plan, CALC_DIM_TP, &g);
		t += calc_coll_time(CALC_COLL_ALLGATHER, grad_params * 4 * plan->tp, &g, &l);
	}
	return t;
}

/* Optimizer: one pass over the states the rank updates -- read and write master
 * weights and moments, read gradients, write weights -- at HBM bandwidth; ZeRO >= 1
 * updates a 1/(DP x CP) shard (ZeRO §5.1), of 'dp_ranks' ranks.  'grad_params' and
 * 'edp_params' as calc_comm gives them (the routed experts shard over expert-DP). [s] */
double calc_step_optimizer_time(const struct calc_plan *plan, double grad_params, double edp_params, int dp_ranks)
{
	const struct calc_recipe *r = plan->recipe;
	double hbm = plan->gpu.hbm_bw > 0 ? plan->gpu.hbm_bw : 1e12, t;
	if (plan->optimizer_time >= 0)
		return plan->optimizer_time;
	double per = r ? 2 * (calc_recipe_bytes(r, CALC_T_MASTER) + calc_recipe_bytes(r, CALC_T_OPT)) +
	                     calc_recipe_bytes(r, CALC_T_GRAD) + calc_recipe_bytes(r, CALC_T_WEIGHT)
	               : 2 * 12 + 4 + 2;
	double shard = plan->zero >= 1 ? dp_ranks : 1;
	if (plan->fsdp && plan->fsdp_shard > 0 && plan->fsdp_shard < shard)
		shard = plan->fsdp_shard; /* HSDP: the states are sharded over one shard group */
	double n = grad_params / shard; /* parameters the rank updates */
	if (edp_params > 0) /* the routed experts' shard over the expert-DP group */
		n += edp_params / (plan->zero >= 1 && plan->edp > 1 ? plan->edp : 1);
	t = n * per / hbm;
	/* training.offload_optimizer = f (Megatron-Core's HybridDeviceOptimizer,
	 * megatron/core/optimizer/cpu_offloading/hybrid_optimizer.py at d98e8a6): the GPU
	 * updates 1 - f of the rank's parameters; for the rest the gradients go to the host
	 * (_set_sub_optimizer_grads), the host's optimizer steps them at
	 * cluster.cpu_optimizer_rate, and the updated weights come back (the step post-hook's
	 * copy), each copy over the host link at gpu.pcie_bw.  Convention: the three run one
	 * after another after the backward (without overlap_cpu_optimizer_d2h_h2d; with it,
	 * Megatron overlaps them across parameter groups, not counted: an upper bound);
	 * docs/references.md §2.13. */
	if (plan->offload_optimizer > 0) {
		double f = plan->offload_optimizer, bw = plan->gpu.pcie_bw;
		double eg = r ? calc_recipe_bytes(r, CALC_T_GRAD) : 4, ew = r ? calc_recipe_bytes(r, CALC_T_WEIGHT) : 2;
		/* training.offload_style = zero-offload: DeepSpeed's ZeRO-Offload moves fp16
		 * gradients down and fp16 parameters up, 2 + 2 bytes per parameter, the minimum
		 * communication volume 4M of Ren et al. 2021 §3.3 (Figure 2's edges of 2M); the
		 * same serial convention as above (its overlap of the gradient copies with the
		 * backward, §4.1, and the one-step delayed update, §5.2, are not counted) */
		if (plan->offload_style == CALC_OFFLOAD_ZERO)
			eg = 2, ew = 2;
		double cpu = plan->cpu_optimizer_rate > 0 ? f * n / plan->cpu_optimizer_rate : 0;
		t *= 1 - f;
		if (bw > 0)
			t += f * n * (eg + ew) / bw;
		/* training.offload_device = nvme (ZeRO-Infinity's optimizer swapper, ZeRO-3:
		 * deepspeed/runtime/zero/stage3.py and swap_tensor/ at edaa722; docs/references.md
		 * §2.15): per step each parameter of the partition reads its fp32 copy, two Adam
		 * moments and its fp32 gradient from NVMe (swap_in_optimizer_state with
		 * _swap_in_gradients, 16 B) and writes the three states back
		 * (swap_out_optimizer_state, 12 B) after the gradient went out during the backward
		 * (swap_out_gradients, 4 B): 32 B over cluster.nvme_bw, one rate for reads and
		 * writes on the same drives.  PartitionedOptimizerSwapper (DeepSpeed's default)
		 * swaps a sub-group in, steps it on the CPU and swaps it out, one after another:
		 * the swaps add to the CPU step; PipelinedOptimizerSwapper (nvme_pipeline) reads
		 * the next sub-group and writes the previous one while the CPU steps the current:
		 * the longer of the two (the fill and drain of one sub-group not counted) */
		if (calc_plan_offload_nvme(plan) && plan->nvme_bw > 0) {
			double io = f * n * 32 / plan->nvme_bw;
			cpu = plan->nvme_pipeline ? (io > cpu ? io : cpu) : cpu + io;
		}
		t += cpu;
	}
	/* training.offload_param: the updated weights go back to the host partition -- from
	 * the GPU's step over the host link (without optimizer offload; with it the host's
	 * step writes them in place) -- and to NVMe (nvme), the rank's n weights in the
	 * recipe's weight bytes (docs/references.md §2.15) */
	if (calc_plan_offload_param(plan)) {
		double ew = r ? calc_recipe_bytes(r, CALC_T_WEIGHT) : 2;
		if (!(plan->offload_optimizer > 0) && plan->gpu.pcie_bw > 0)
			t += n * ew / plan->gpu.pcie_bw;
		if (plan->offload_param == 2 && plan->nvme_bw > 0)
			t += n * ew / plan->nvme_bw;
	}
	return t + muon_time(plan, grad_params);
}

/* Everything after the makespan: DP exposure, optimizer, totals, FLOP rates, run. */
void calc_step_finish(const struct calc_plan *plan, struct calc_step *st, const struct calc_flops *fl)
{
	calc_step_finish_with(plan, st, fl, NULL);
}

/* calc_step_optimizer_time of a leaf of the split whose memo is 'dm' (NULL: computed):
 * of the plan it reads the ZeRO stage, the recipe and, through muon_time and the
 * offloads, keys of the split and the search alone; the DP group's size is the split's. */
static double optimizer_of(const struct calc_plan *plan, const struct calc_step *st, struct calc_comm_dp_memo *dm)
{
	double gp = st->comm.grad_params, ep = st->comm.edp_params, t;
	if (!dm)
		return calc_step_optimizer_time(plan, gp, ep, st->comm.dim[CALC_DIM_DP].group.size);
	for (int i = 0; i < dm->nopt; i++)
		if (dm->opt[i].zero == plan->zero && dm->opt[i].params == gp && dm->opt[i].edp_params == ep &&
		    dm->opt[i].recipe == plan->recipe)
			return dm->opt[i].t;
	t = calc_step_optimizer_time(plan, gp, ep, st->comm.dim[CALC_DIM_DP].group.size);
	if (dm->nopt < CALC_COMM_DP_MEMO) {
		dm->opt[dm->nopt].recipe = plan->recipe;
		dm->opt[dm->nopt].zero = plan->zero;
		dm->opt[dm->nopt].params = gp;
		dm->opt[dm->nopt].edp_params = ep;
		dm->opt[dm->nopt++].t = t;
	}
	return t;
}

/* calc_step_finish_with; split = 0 leaves st->exposed[TP], exposed[CP] and
 * tp_overlap_cost as they are (calc_step_finish_rezero). */
static inline __attribute__((always_inline)) void finish(const struct calc_plan *plan, struct calc_step *st,
                                                         const struct calc_flops *fl, struct calc_comm_dp_memo *dm,
                                                         int split)
{
	const struct calc_comm_dim *dp = &st->comm.dim[CALC_DIM_DP];
	int m = calc_plan_microbatches(plan), n = calc_plan_gpus(plan), p = plan->pp > 0 ? plan->pp : 1;
	double ov = plan->dp_overlap < 0 ? 0 : plan->dp_overlap > 1 ? 1 : plan->dp_overlap;
	double window, hid, tokens_step = (double)plan->global_batch * plan->seq_len;

	if (m < 1)
		m = 1;
	if (n < 1)
		n = 1;
	/* The gradient reduction of a step can hide behind the backward of the last
	 * micro-batch and the parameter all-gather behind the next forward (Megatron
	 * overlap_grad_reduce / overlap_param_gather).  From ZeRO-2 on every micro-batch
	 * reduce-scatters its gradients (comm.c), each behind its own backward; ZeRO-3
	 * also gathers the weights behind every forward. */
	window = (plan->zero >= 2 ? m : 1) * (st->tb + st->tw) + (plan->zero >= 3 ? m : 1) * st->tf;
	hid = ov * dp->time < window ? ov * dp->time : window;
	st->dp_exposed = st->comm.fsdp ? fsdp_exposed(plan, st) : dp->time - hid;
	if (st->comm.fsdp && st->comm.edp_time > 0)
		/* the expert-DP reduction is outside the FSDP units: hidden as the DP reduction */
		st->dp_exposed += exposed_behind(st->comm.edp_time, window, ov);

	st->optimizer = optimizer_of(plan, st, dm);
	/* efficiency.step_overhead: host time no GPU op hides (docs/references.md §5.11); the
	 * planner's bounds leave it out, which keeps them below every leaf's time */
	st->overhead = plan->step_overhead > 0 ? plan->step_overhead : 0;
	st->time = st->makespan + st->dp_exposed + st->optimizer + st->overhead;

	if (split) {
		/* split the critical GPU's exposed collectives between TP and CP */
		double tp = st->comm.tp_layer_f + st->comm.tp_layer_b, cpc = st->comm.cp_layer_f + st->comm.cp_layer_b;
		double pay = tp_charge(plan), o = plan->tp_overlap < 0 ? 0 : plan->tp_overlap > 1 ? 1 : plan->tp_overlap;
		if (plan->cp_comm != CALC_CP_ALLGATHER) {
			/* the CP exchange is not charged as the TP collectives (layer_comm): split by
			 * what a layer of kind 0 is charged of each, its ring hidden behind the
			 * attention core */
			const struct calc_layer_time *ly = &st->layer;
			double full = plan->recompute == CALC_RC_FULL ? 1 : 0, ef, eb;
			tp *= pay;
			ring_exposed(&st->comm, ly->attn, ly->attn_b, full, &ef, &eb);
			cpc = st->comm.cp_layer_f - st->comm.cp_ring_f + ef + st->comm.cp_layer_b - st->comm.cp_ring_b + eb;
		}
		/* a hybrid model: the attention layers' share of that, the Mamba-2 layers' all-to-alls
		 * (exposed, comm.c cp_hybrid) and the TP blocks' share */
		if (st->comm.cp_mamba_share > 0 || st->comm.cp_gdn_share > 0 || st->comm.cp_attn_share < 1) {
			tp *= st->comm.tp_share;
			cpc = cpc * st->comm.cp_attn_share +
			      (st->comm.cp_mamba_f + st->comm.cp_mamba_b) * st->comm.cp_mamba_share +
			      (st->comm.cp_gdn_f + st->comm.cp_gdn_b) * st->comm.cp_gdn_share;
		}
		double sh = tp + cpc > 0 ? tp / (tp + cpc) : 1, tc = st->tp_comm;
		if (st->ep_exposed > 0)
			tc -= st->ep_exposed; /* the expert all-to-all is the EP row's */
		st->exposed[CALC_DIM_TP] = tc * sh;
		st->exposed[CALC_DIM_CP] = tc * (1 - sh);
		/* every TP/CP collective is charged pay = (1 - o) + o c / S of its time
		 * (tp_charge): of that, o c / S is the hidden part's cost in slower GEMMs */
		st->tp_overlap_cost = pay > 0 ? tc * (pay - (1 - o)) / pay : 0;
	}
	st->exposed[CALC_DIM_PP] = p > 1 ? 2.0 * (p - 1) * st->comm.p2p : 0;
	st->exposed[CALC_DIM_DP] = st->dp_exposed;

	if (fl)
		st->flops = *fl;
	else
		calc_flops(plan, &st->flops);
	st->peak = plan->gpu.bf16_flops;
	st->gemm_peak = gemm_peak(plan);
	st->model_tflops = st->flops.model / st->time / n;
	st->hw_tflops = st->flops.hardware / st->time / n;
	st->mfu = st->model_tflops / st->peak;
	st->hfu = st->hw_tflops / st->peak;
	st->mfu_fp8 = st->gemm_peak != st->peak ? st->model_tflops / st->gemm_peak : 0;
	st->tokens_per_s = tokens_step / st->time;
	st->steps = plan->tokens / tokens_step;
	st->run_time = st->steps * st->time;
	st->gpu_hours = st->run_time * n / 3600;
	st->cost = st->gpu_hours * plan->gpu_hour_cost;
}

void calc_step_finish_with(const struct calc_plan *plan, struct calc_step *st, const struct calc_flops *fl,
                           struct calc_comm_dp_memo *dm)
{
	finish(plan, st, fl, dm, 1);
}

void calc_step_finish_rezero(const struct calc_plan *plan, struct calc_step *st, const struct calc_flops *fl,
                             struct calc_comm_dp_memo *dm)
{
	finish(plan, st, fl, dm, 0);
}

/* ------------------------------------------------------------------ stage 1 */

void calc_step_compute(const struct calc_plan *plan, struct calc_step_compute *out)
{
	int nk = calc_model_nkinds(&plan->model);
	memset(out, 0, sizeof *out);
	for (int k = 0; k < nk; k++)
		layer_compute(plan, k, &out->kind[k]);
	end_times(plan, &out->ends);
	calc_flops(plan, &out->flops);
}

/*
 * The planner computed stage 1 once per (recompute, SP) pair of every item: 263,544 times
 * in `trainplan search --plan plans/deepseek-v3-h800.ini`, of which 32,116 distinct by
 * the eight keys the items vary that it reads, and of the layer kinds' 527,088 only
 * 33,166 distinct when a dense kind is not keyed by ep and etp (layer_compute reads them
 * in its MoE branch alone); the ends and FLOPs read fewer still.  A part is kept by the
 * keys it reads (struct s1_key, compared bit for bit) and computed as calc_step_compute
 * computes it, into zeroed memory, so a kept part is the very bytes a new one would be
 * (a build that compared every result with calc_step_compute's, bit for bit, ran the
 * four shipped plans' searches and reports without a difference).  Every part is kept
 * (open addressing, grown at half full): the items of one key are far apart in the walk,
 * and a direct-mapped cache of 4,096 parts would miss 101,499 of the 527,088 kinds.
 * Stage 1 in that search 1,171 M -> 269 M instructions, in the DeepSeek-V3 plan's report
 * 6,634 M -> 1,495 M of 32.3 G (callgrind).
 */
struct s1_key {
	const struct calc_recipe *recipe;
	int part; /* layer kind (0 ..), S1_ENDS or S1_FLOPS */
	int tp, cp, mb, rc, sp, ep, etp;
};
#define S1_ENDS (-1)
#define S1_FLOPS (-2)
struct s1_entry {
	struct s1_key key;
	union {
		struct calc_layer_time kind;
		struct calc_step_ends ends;
		struct calc_flops flops;
	} v;
};
struct calc_step_compute_memo {
	struct s1_entry *e;
	int n, cap;      /* entries, and room */
	int *hash, hcap; /* index + 1 of an entry, 0 empty; hcap a power of 2 */
};

static unsigned s1_hash(const struct s1_key *k)
{
	uint64_t a = (uint64_t)(unsigned)k->tp | (uint64_t)(unsigned)k->cp << 32;
	uint64_t b = (uint64_t)(unsigned)k->mb | (uint64_t)(unsigned)k->ep << 32;
	uint64_t c = (uint64_t)(unsigned)k->etp ^ (uint64_t)(unsigned)k->part << 32 ^ (uint64_t)(unsigned)k->rc << 40 ^
	             (uint64_t)(unsigned)k->sp << 48;
	uint64_t h = a * 0x9e3779b97f4a7c15u ^ b * 0xc2b2ae3d27d4eb4fu ^ c * 0x165667b19e3779f9u ^
	             (uint64_t)(uintptr_t)k->recipe * 0x27d4eb2f165667c5u;
	return (unsigned)(h ^ h >> 29 ^ h >> 47);
}

/* The entry of key k in m, its value computed from 'plan' when new. */
static const struct s1_entry *s1_get(struct calc_step_compute_memo *m, const struct s1_key *k,
                                     const struct calc_plan *plan)
{
	unsigned h = s1_hash(k);
	int at;
	if (2 * (m->n + 1) > m->hcap) { /* at most half full: grown and rehashed */
		int cap = m->hcap ? 2 * m->hcap : 256, *t = xcalloc((size_t)cap, sizeof *t);
		for (int i = 0; i < m->n; i++) {
			int j = (int)(s1_hash(&m->e[i].key) & (unsigned)(cap - 1));
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = i + 1;
		}
		free(m->hash);
		m->hash = t;
		m->hcap = cap;
	}
	for (at = (int)(h & (unsigned)(m->hcap - 1)); m->hash[at]; at = (at + 1) & (m->hcap - 1))
		if (!memcmp(&m->e[m->hash[at] - 1].key, k, sizeof *k))
			return &m->e[m->hash[at] - 1];
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 128;
		m->e = xrealloc(m->e, (size_t)m->cap * sizeof *m->e);
	}
	struct s1_entry *e = &m->e[m->n];
	memset(e, 0, sizeof *e);
	e->key = *k;
	if (k->part == S1_ENDS)
		end_times(plan, &e->v.ends);
	else if (k->part == S1_FLOPS)
		calc_flops(plan, &e->v.flops);
	else
		layer_compute(plan, k->part, &e->v.kind);
	m->hash[at] = ++m->n;
	return e;
}

void calc_step_compute_memo(struct calc_step_compute_memo **mp, const struct calc_plan *plan,
                            struct calc_step_compute *out)
{
	const struct calc_model *md = &plan->model;
	int nk = calc_model_nkinds(md);
	struct calc_step_compute_memo *m = *mp;
	struct s1_key k;

	if (!m)
		m = *mp = xcalloc(1, sizeof *m);
	memset(out, 0, sizeof *out);
	memset(&k, 0, sizeof k); /* the padding too: keys are compared by their bytes */
	k.recipe = plan->recipe;
	k.tp = plan->tp;
	k.cp = plan->cp;
	k.mb = plan->micro_batch;
	k.rc = (int)plan->recompute;
	k.sp = plan->sp;
	for (int j = 0; j < nk; j++) {
		struct calc_layer_kind kd;
		calc_model_kind(md, j, &kd);
		k.part = j;
		k.ep = calc_layer_type_is_moe(kd.type) ? plan->ep : 0;
		k.etp = calc_layer_type_is_moe(kd.type) ? plan->etp : 0;
		out->kind[j] = s1_get(m, &k, plan)->v.kind;
	}
	k.part = S1_ENDS;
	k.rc = k.sp = k.ep = k.etp = 0;
	out->ends = s1_get(m, &k, plan)->v.ends;
	if (plan->recompute == CALC_RC_FULL && plan->recompute_method == CALC_RC_METHOD_BLOCK)
		calc_flops(plan, &out->flops);
	else {
		k.part = S1_FLOPS;
		k.tp = k.cp = k.mb = 0;
		k.recipe = NULL;
		k.rc = (int)plan->recompute;
		out->flops = s1_get(m, &k, plan)->v.flops;
	}
}

void calc_step_compute_memo_free(struct calc_step_compute_memo *m)
{
	if (!m)
		return;
	free(m->e);
	free(m->hash);
	free(m);
}

/* ------------------------------------------------------------------ the plain walk */

/* The critical GPU's parts between st and the pipeline stage's output. */
void calc_step_out_of(const struct calc_step *st, struct calc_pipeline_out *o)
{
	o->busy = -1;
	o->critical = st->critical;
	o->tf = st->tf, o->tb = st->tb, o->tw = st->tw;
	o->compute = st->compute, o->recompute = st->recompute;
	o->tp_comm = st->tp_comm, o->ep_exposed = st->ep_exposed;
	o->host_sync = st->host_sync;
}

void calc_step_out_to(const struct calc_pipeline_out *o, struct calc_step *st)
{
	st->critical = o->critical;
	st->tf = o->tf, st->tb = o->tb, st->tw = o->tw;
	st->compute = o->compute, st->recompute = o->recompute;
	st->tp_comm = o->tp_comm, st->ep_exposed = o->ep_exposed;
	st->host_sync = o->host_sync;
}

/* Stages 1 and 2 of the plain walk: st->comm, the layer times with their collectives,
 * the simulator's costs into 'c' (schedule, p, m, v, the p2p time and each stage's T_F,
 * T_B, T_W) and the critical GPU's parts into 'st'; 'pre' receives stage 1.  Returns the
 * critical GPU's busy time. */
static double plan_costs(const struct calc_plan *plan, struct calc_step *st, struct calc_step_compute *pre,
                         struct calc_pp_costs *c)
{
	const struct calc_sched *row = calc_schedule_at((int)plan->schedule);
	struct calc_stage_layers *buf = xcalloc(2 * CALC_MAX_STAGES, sizeof *buf);
	struct calc_pipeline_in in;
	struct calc_pipeline_out out;
	int nk = calc_model_nkinds(&plan->model);
	double busy;

	calc_comm(plan, &st->comm);
	calc_step_compute(plan, pre);
	for (int k = 0; k < nk; k++) {
		st->kind_layer[k] = pre->kind[k];
		calc_step_layer_comm(plan, &st->comm, k, &st->kind_layer[k]);
	}
	st->layer = st->kind_layer[0];
	calc_step_pipeline_in(plan, st->kind_layer, &pre->ends, NULL, buf, buf + CALC_MAX_STAGES, st->comm.p2p, &in);
	c->sched = in.shape.sched;
	c->p = in.shape.p;
	c->m = in.shape.m;
	c->v = in.shape.v;
	c->p2p = in.shape.p2p;
	/* A flushed schedule (ZB-H2) with post-validation runs steps back to back: the
	 * steady-state period of two simulated steps; otherwise one step from an empty
	 * pipeline to a flush. */
	c->steps = row && row->flushed && plan->post_validation ? 2 : 1;
	calc_step_out_of(st, &out);
	busy = calc_step_pipeline(&in, c, &out);
	calc_step_out_to(&out, st);
	free(buf);
	return busy;
}

int calc_step_stages(const struct calc_plan *plan, struct calc_pp_costs *c, struct calc_pp_result *r,
                     struct calc_diag *d)
{
	struct calc_step *st;
	struct calc_step_compute *pre;
	memset(r, 0, sizeof *r);
	memset(c, 0, sizeof *c);
	if ((plan->pp > 0 ? plan->pp : 1) > CALC_MAX_STAGES)
		return calc_error(d, plan->file, 0, "parallel.pp = %d exceeds %d stages", plan->pp, CALC_MAX_STAGES);
	st = xcalloc(1, sizeof *st);
	pre = xcalloc(1, sizeof *pre);
	plan_costs(plan, st, pre, c);
	free(pre);
	free(st);
	if (calc_pipeline_simulate(c, r, d) < 0) {
		calc_pp_result_free(r);
		return -1;
	}
	return 0;
}

/*
 * The simulator's answer depends on nothing but its costs and the schedule row that
 * c->sched names, and the report asks for the same costs again and again (a bandwidth
 * sweep changes the DP time, not the pipeline; the variants of one chapter share their
 * stages).  The last few costs and their makespans are kept per thread, each with the
 * schedule table's generation it was simulated in (calc_schedule_generation: an id
 * registered again names another row); a hit returns the very number the simulation
 * gave, so caching changes no result.
 */
enum { SIM_MEMO = 16 };
struct sim_memo {
	int n, next;
	struct calc_pp_costs key[SIM_MEMO];
	unsigned long gen[SIM_MEMO];
	double makespan[SIM_MEMO];
};
static _Thread_local struct sim_memo *sim_memo; /* thread_block's */

static struct sim_memo *sim_memo_get(void)
{
	if (!sim_memo)
		sim_memo = thread_block(&sim_memo_key, sizeof *sim_memo);
	return sim_memo;
}

/* 0 and *makespan filled when these costs were simulated before, else 1. */
static int sim_cached(const struct calc_pp_costs *c, double *makespan)
{
	const struct sim_memo *m = sim_memo_get();
	unsigned long gen = calc_schedule_generation();
	for (int i = 0; i < m->n; i++)
		if (m->gen[i] == gen && !memcmp(&m->key[i], c, sizeof *c)) {
			*makespan = m->makespan[i];
			return 0;
		}
	return 1;
}

static void sim_remember(const struct calc_pp_costs *c, double makespan)
{
	struct sim_memo *m = sim_memo_get();
	int i = m->next;
	m->key[i] = *c;
	m->gen[i] = calc_schedule_generation();
	m->makespan[i] = makespan;
	m->next = (i + 1) % SIM_MEMO;
	if (m->n < SIM_MEMO)
		m->n++;
}

int calc_step(const struct calc_plan *plan, struct calc_step *st, struct calc_diag *d)
{
	struct calc_pp_costs *c;
	struct calc_step_compute *pre;
	int p = plan->pp > 0 ? plan->pp : 1;
	double busy;

	memset(st, 0, sizeof *st);
	if (plan->recipe && !(calc_recipe_bytes(plan->recipe, CALC_T_GRAD) > 0))
		return calc_error(d, plan->file, 0,
		                  "training.recipe = %s holds no gradients (a memory baseline, not a trainable "
		                  "recipe): it has no step time; choose a recipe that trains",
		                  plan->recipe->name);
	if (p > CALC_MAX_STAGES)
		return calc_error(d, plan->file, 0, "parallel.pp = %d exceeds %d stages", p, CALC_MAX_STAGES);
	c = xcalloc(1, sizeof *c);
	pre = xcalloc(1, sizeof *pre);
	busy = plan_costs(plan, st, pre, c);
	if (sim_cached(c, &st->makespan)) {
		double makespan, period;
		if (calc_pipeline_simulate_span(c, &makespan, &period, d) < 0) {
			free(pre);
			free(c);
			return -1;
		}
		st->makespan = c->steps > 1 ? period : makespan;
		sim_remember(c, st->makespan);
	}
	st->bubble = st->makespan - busy;
	if (st->bubble < 0)
		st->bubble = 0;
	free(c);
	/* recompute_method = block counts the recomputed layers per chunk: its hardware
	 * FLOPs read vpp, which stage 1 does not (calc_flops computes them again) */
	calc_step_finish(plan, st, plan->recompute == CALC_RC_FULL && plan->recompute_method == CALC_RC_METHOD_BLOCK
	                               ? NULL : &pre->flops);
	free(pre);
	return 0;
}
