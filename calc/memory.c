/*
 * memory.c -- memory of one GPU for every pipeline stage.
 *
 * Model states: parameters held per GPU (tensor-parallel matrices divided by t;
 * norms and row-parallel biases replicated, as Megatron-LM shards them) times the
 * recipe's bytes per parameter, sharded over the data-parallel group by ZeRO stage
 * (Rajbhandari et al. 2020 §5; Megatron's distributed optimizer = stage 1, and its
 * group is DP x CP, Megatron-LM distributed-optimizer docs).
 * Activations per layer: Korthikanti et al. 2022 §4.1-4.2 and Table 2, generalised
 * term by term to GQA (K and V have kv_heads heads), SwiGLU (three FFN-wide
 * tensors), no dropout (no masks), FlashAttention (no s^2 terms; Dao et al. 2022)
 * and context parallelism (sequence divided by cp).  Embedding, final norm, LM head
 * and fp32 logits terms: Korthikanti et al. 2022 §4.3; the loss's transient by its
 * kernel (fused or torch cross-entropy): docs/references.md §2.5.  In-flight micro-batches
 * per stage come from pipeline.c.
 * Mixture of experts (Megatron-Core MoE "parallel folding"): routed experts are split
 * by EP and each expert by ETP, and ZeRO shards their states over the expert-DP
 * group edp = t cp d / (ep etp); MoE activations in moe_act below.  MLA activations
 * take the per-head query/key width nope + rope and the value width.
 * DeepSpeed's partitioned and CPU activation checkpoints (ZeRO-R, Rajbhandari et al.
 * 2020 §6.1; docs/references.md §2.8) in act_layer and ckpt_act.
 * Overheads are named plan keys ([overhead]), each with its default's reason in
 * plan.c.
 */
#include "bounds.h"
#include "diag.h"
#include "model.h"
#include "recipe.h"
#include "plan.h"
#include "memory.h"
#include "pipeline.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================== */
/* Activations                                                               */
/* ======================================================================== */

/*
 * Bytes of one layer for one micro-batch.  'rc' chooses what is stored; 'full'
 * recomputation keeps only the layer input.  Element size e = recipe act_bytes
 * (2 for BF16), masks 1 byte (Korthikanti et al. 2022 §4.1).
 *   attention: norm input e*sbh/r, QKV input e*sbh/r, Q e*sb*a*d/t, K and V
 *              e*sb*g*d/t each, output-projection input e*sb*a*d/t, dropout mask
 *              sbh/r; scores: softmax e*a*s*s_kv*b/t (+ dropout mask and output
 *              when dropout), or fp32 softmax statistics 4*a*s*b/t with flash
 *   MLP:       norm input e*sbh/r, fc1 input e*sbh/r, GeLU in + out 2*e*sbf/t
 *              (SwiGLU: gate/up output 2f wide + product = 3*e*sbf/t), mask sbh/r
 * r = t with sequence parallelism, 1 without.  With a = g, d = h/a, f = 4h, e = 2
 * and dropout this is sbh(34 + 5as/h) at t = 1 and sbh(10 + 24/t + 5as/(ht))
 * without SP: Korthikanti et al. 2022 Eq. (1) and Table 2.
 * Under a Transformer Engine FP8 recipe the saved inputs of the QKV, fc1 and fc2 linears
 * (the QKV input, the fc1 input and the GeLU / SwiGLU output) are their 1-byte FP8 casts
 * (lin_bytes); the output projection's input stays the attention output in e, which the
 * fused attention keeps (docs/references.md §2.10).
 */
/* Bytes per element of the input a linear layer saves for its backward: the recipe's
 * (1 under Transformer Engine's FP8 recipes, which save the FP8 cast; recipe.c
 * TE_FP8_SAVED_INPUT, docs/references.md §2.10), else the activations' e. */
static double lin_bytes(const struct calc_plan *p, double e)
{
	return p->recipe && p->recipe->lin_in_bytes > 0 ? p->recipe->lin_in_bytes : e;
}

/*
 * The MoE block of one layer for one micro-batch (sb tokens of this CP rank):
 *   norm input and router input e*sbh/r, fp32 router logits 4*sb*E/r, top-k
 *   probabilities (fp32) and indices (int64) 12*sb*k/r, the routing map sb*E/r (1 B)
 *   and the permutation's int64 positions 8*sb*k/r, dropout mask sbh/r;
 *   routed tokens: each of the T = sb/r tokens of a GPU goes to k experts, and an
 *   expert GPU receives phi k T copies on average (phi = the capacity factor, or the
 *   dropless imbalance of the busiest expert), gathered over the etp ranks of its
 *   expert tensor-parallel group: per copy the dispatched input e*h (fc1's input),
 *   fc1's output 2 f_e/etp wide and the SwiGLU product f_e/etp (GeLU: 2 f_e/etp in
 *   all), and its routing probability in fp32 (4 B);
 *   shared experts as a dense MLP of width shared * shared_ffn over TP.
 * Megatron-Core MoE (token dispatcher, grouped MLP) stores these tensors.  It applies
 * the routing probabilities inside the activation function (TEGroupedMLP.forward in
 * megatron/core/transformer/moe/experts.py: weighted_bias_swiglu_impl(fc1 output, bias,
 * permuted_probs)), so the probabilities' gradient comes from the activation's backward
 * over fc1's output, and the combine (unpermute without probabilities) keeps nothing:
 * the expert output is not stored (an earlier count here kept it, e*h per copy, as the
 * gate's gradient needs it when the combine weights the outputs).  The permutation is
 * an index gather whose backward needs only the indices.
 * Module recomputation (rcm, calc_recompute_modules; Megatron-Core
 * TransformerConfig.recompute_modules): 'moe' checkpoints the whole block, which keeps
 * only its input (the norm output); 'moe_act' drops the activation function's output
 * (the SwiGLU product, recomputed from fc1's output; output-discarding checkpointing);
 * 'shared_experts' drops the shared experts' inner tensors; 'layernorm' drops the norm
 * output (the router's and fc1's input) and keeps the norm input.
 */
static double moe_act(const struct calc_plan *p, double e, double sb, double r, double mask, unsigned rcm)
{
	const struct calc_moe *x = &p->model.moe;
	double h = p->model.hidden, t = p->tp, etp = p->etp > 0 ? p->etp : 1, k = x->top_k;
	double phi = x->capacity > 0 ? x->capacity : x->imbalance > 1 ? x->imbalance : 1;
	double wide = p->model.mlp == CALC_MLP_SWIGLU ? 3 : 2, fs = x->shared_ffn > 0 ? x->shared_ffn : x->expert_ffn;
	double T = sb / r, copies = phi * k * T * etp, v;
	/* the norm input (the residual) and, unless 'layernorm' drops it, the norm output */
	v = e * sb * h / r + ((rcm & CALC_RCM_LAYERNORM) ? 0 : e * sb * h / r) + mask * sb * h / r;
	if (rcm & CALC_RCM_MOE) /* the checkpoint keeps its input, the norm output */
		return v + ((rcm & CALC_RCM_LAYERNORM) ? e * sb * h / r : 0);
	v += 4 * T * x->experts + 12 * T * k;
	/* the routing map (T x E, 1 B) the dispatcher keeps for the combine and the int64
	 * position of each of the k T copies the permutation's backward gathers by
	 * (moe_utils.py permute at commit d98e8a6: sorted_indices; docs/references.md §5.12);
	 * the fused permutation's int32 row map is counted the same (UNVERIFIED) */
	v += T * x->experts + 8 * T * k;
	/* per copy: fc1's input, fc1's output (wide - 1 of the f_e/etp widths), the
	 * activation's output (fc2's input, 1; 'moe_act' drops it), the fp32 probability;
	 * the two linears' inputs at lin_bytes (the FP8 cast under a TE FP8 recipe) */
	v += copies * (lin_bytes(p, e) * h + (wide - 1) * e * x->expert_ffn / etp +
	               ((rcm & CALC_RCM_MOE_ACT) ? 0 : lin_bytes(p, e) * x->expert_ffn / etp) + 4);
	if (x->shared > 0 && !(rcm & CALC_RCM_SHARED_EXPERTS))
		v += wide * e * sb * x->shared * fs / t;
	return v;
}

/*
 * The saved input of the column-parallel linears of a dense layer (QKV, fc1) for one
 * micro-batch of sb tokens [B] (parallel.sp_saved_input, docs/references.md §2.9).
 * Without SP, or with it as Megatron-LM runs it, the norm output e*sbh/r: SP keeps the
 * sequence shard and all-gathers it again for the weight gradient (Korthikanti et al.
 * 2022 §4.2.2).  'gathered' (PyTorch DTensor TP as torchtitan applies it:
 * PrepareModuleInput turns the sequence-sharded norm output into a replicated tensor
 * before wq/wk/wv and w1/w3, and autograd saves that input) keeps the all-gathered
 * sbh, in the linears' input dtype: 1 B under an FP8-compute recipe, whose
 * Float8ColwiseParallel casts before the all-gather and saves the FP8 tensor
 * (torchao.float8.float8_tensor_parallel), e otherwise.  Only with SP and t > 1.
 */
static double sp_linear_input(const struct calc_plan *p, double e, double sb)
{
	double t = p->tp > 0 ? p->tp : 1, r = p->sp ? t : 1;
	if (p->sp_saved_input && p->sp && t > 1)
		return (p->recipe && p->recipe->fp8_compute ? 1 : e) * sb * p->model.hidden;
	/* Megatron-LM with Transformer Engine: the FP8 cast of the local shard under a TE
	 * FP8 recipe (layernorm_linear.py saves ln_out, the norm's FP8 output, and gathers
	 * it again for the weight gradient), the BF16 shard otherwise */
	return lin_bytes(p, e) * sb * p->model.hidden / r;
}

static void act_layer(const struct calc_plan *p, int kind, enum calc_recompute rc, struct calc_act_layer *o)
{
	const struct calc_model *m = &p->model;
	struct calc_layer_kind kd;
	double e = p->recipe ? p->recipe->act_bytes : 2;
	double t = p->tp, r = p->sp ? p->tp : 1, cp = p->cp > 0 ? p->cp : 1;
	double s = p->seq_len / cp, b = p->micro_batch, h = m->hidden, a = m->heads, g = m->kv_heads;
	double dh = m->head_dim > 0 ? m->head_dim : h / a, f;
	double sb = s * b, mask = m->dropout ? 1 : 0, lin_in;
	unsigned rcm;

	calc_model_kind(m, kind, &kd);
	f = kd.ffn_hidden;
	memset(o, 0, sizeof *o);
	lin_in = sp_linear_input(p, e, sb);
	/* MLA: per head Q and K nope + rope wide, V and the output-projection input v wide:
	 * a (2 (nope + rope) + 2 v) in all, which g = a and d = (nope + rope + v) / 2 give in
	 * the terms below (the small latents c_Q, c_KV are not counted) */
	if (m->mla.kv_lora_rank > 0)
		g = a, dh = (m->mla.qk_nope_dim + m->mla.qk_rope_dim + m->mla.v_head_dim) / 2.0;
	if (rc == CALC_RC_OP_SAC) {
		/* torchtitan's selective op-level checkpointing (selective_ac_option = "op";
		 * torchtitan/parallelisms/parallelize_llama.py at commit 9dec370, _save_list and
		 * _custom_policy): the checkpointed block keeps its input, and the caching
		 * dispatch mode keeps the output of every op of _save_list -- aten.mm except
		 * every second one (the count runs 1, 2, ... over the block's matmuls, the even
		 * ones are recomputed), the SDPA flash/efficient kernels (output and fp32
		 * log-sum-exp) and the reduce-scatters.  torchtitan's Llama block runs its
		 * matmuls in the order wq, wk, wv, wo, w1, w3, w2 (SwiGLU: w2(silu(w1 x) *
		 * w3 x); GeLU: fc1, fc2), so it keeps wq (a*d/t wide), wv (g*d/t), w1 (f/t)
		 * and w2 (h: a row-parallel output before its reduce-scatter); GeLU keeps wq,
		 * wv and fc1.  With TP and SP the two reduce-scatters keep sbh/t each.  The
		 * norms, RoPE, the activation function, the residual adds and (without flash
		 * attention, whose math kernel is not in the list) the attention core are
		 * recomputed.  Not counted: the outputs of abs and max (the Float8 amax), which
		 * torchtitan's Table 1 shows cost nothing visible (77.0 GiB with torch.compile,
		 * 76.8 with Float8 added).
		 * training.compile (docs/references.md §2.19): eager SAC keeps every output the
		 * policy marks MUST_SAVE whether the backward reads it or not
		 * (torch/utils/checkpoint.py _CachingTorchDispatchMode, torch 1963fc8: it appends
		 * 'out' to its storage for MUST_SAVE and PREFER_SAVE, and the recomputation pops
		 * it).  torch.compile of the block hands the tagged joint graph to the min-cut
		 * partitioner (torch/_functorch/partitioners.py, min_cut_rematerialization_partition;
		 * must_recompute() takes PREFER_RECOMPUTE as recompute), which saves only forward
		 * values the backward graph reads.  The MLP's output feeds nothing but the last
		 * residual add (TransformerBlock.forward, torchtitan models/llama/model.py at
		 * 9dec370: h = x + attention(...), out = h + feed_forward(...)), whose backward
		 * reads no input, and nothing in the block reads 'out': w2's output, and with TP
		 * and SP the MLP's reduce-scatter output, are neither saved nor recomputed.  The
		 * attention's reduce-scatter output stays: the recomputed ffn_norm(h) reads h. */
		double swiglu = m->mlp == CALC_MLP_SWIGLU, kept = p->compile ? 0 : 1;
		o->attn = e * sb * h / r + e * sb * a * dh / t + e * sb * g * dh / t;
		if (p->flash_attention) {
			o->attn += e * sb * a * dh / t;
			o->scores = 4 * a * s * b / t; /* fp32 log-sum-exp per row and head */
		}
		o->mlp = e * sb * f / t + (swiglu ? kept * e * sb * h : 0);
		if (t > 1 && p->sp)
			o->mlp += (1 + kept) * e * sb * h / t;
		o->total = o->attn + o->scores + o->mlp;
		return;
	}
	if (rc == CALC_RC_FULL) {
		/* Korthikanti et al. 2022 §5: only the layer input, 2sbh per layer; with
		 * SP the input is the sequence-sharded residual, 2sbh/t (convention:
		 * Megatron-LM's behaviour; the paper's Table 2 lists 2sbh).  DeepSpeed's
		 * partition_activations (ZeRO-R P_a, Rajbhandari et al. 2020 §6.1) keeps 1/t
		 * of it on each TP rank: 2sbh/t, which SP's sharded input already is (no
		 * second division).  The layer being recomputed holds its gathered input,
		 * which act_full counts, in place of its partition (checkpointing.py
		 * gather_partitioned_activations replaces the saved tensor's data). */
		o->attn = e * sb * h / (p->partition_activations ? t : r);
		o->total = o->attn;
		return;
	}
	/* Module recomputation (calc_recompute_modules, Megatron-Core recompute_modules):
	 * 'layernorm' drops the norm output (the QKV input, the fc1 input), 'mla_up_proj'
	 * the up-projected Q, K and V (the MLA up projections and RoPE run again before the
	 * attention core's backward), 'core_attn' the attention core's own tensors (the
	 * scores, or FlashAttention's statistics; its checkpoint keeps Q, K and V), 'mlp' the
	 * dense MLP's inner tensors (the checkpoint keeps its input); DeepSeek-AI 2024
	 * §3.2.3 recomputes the RMSNorms and the MLA up-projections (= layernorm,
	 * mla_up_proj). */
	rcm = calc_recompute_modules(rc, p->recompute_modules);
	o->attn = e * sb * h / r + ((rcm & CALC_RCM_LAYERNORM) ? 0 : lin_in) +
	          ((rcm & CALC_RCM_MLA_UP_PROJ) ? 0 : e * sb * (a + 2 * g) * dh / t) + e * sb * a * dh / t +
	          mask * sb * h / r;
	/* gated attention (model.attn_gate): the gate's input, a d_h per token, kept for
	 * the sigmoid's backward (the gated output is out-proj's input, above) */
	if (m->attn_gate)
		o->attn += e * sb * a * dh / t;
	if (rcm & CALC_RCM_CORE_ATTN)
		o->scores = 0;
	else if (p->flash_attention)
		o->scores = 4 * a * s * b / t; /* fp32 log-sum-exp per row and head */
	else if (rc == CALC_RC_SELECTIVE)
		o->scores = 0; /* recomputed in backward (Korthikanti et al. 2022 §5) */
	else
		o->scores = (e + mask * (1 + e)) * a * s * (s * cp) * b / t; /* s/cp queries x s keys */
	switch (kd.type) { /* every kind: -Werror=switch fails the build on a new one */
	case CALC_LAYER_MOE:
		o->mlp = moe_act(p, e, sb, r, mask, rcm);
		o->total = o->attn + o->scores + o->mlp;
		return;
	case CALC_LAYER_EXPERTS: /* a hybrid model's MoE layer: no attention */
		o->attn = o->scores = 0;
		o->mlp = moe_act(p, e, sb, r, mask, rcm);
		o->total = o->mlp;
		return;
	case CALC_LAYER_ATTN: /* a hybrid model's attention layer: no MLP */
		o->total = o->attn + o->scores;
		return;
	case CALC_LAYER_MAMBA: {
		/* A Mamba-2 layer as Megatron-Core trains it (MambaLayer and MambaMixer at
		 * d98e8a64dd, the memory-efficient path mamba_split_conv1d_scan_combined of
		 * mamba_ssm, whose ctx.save_for_backward keeps zxbcdt and out_x; derived,
		 * docs/references.md §5.14): the layer input e h / r and its dropout mask, the
		 * norm output in_proj saves (lin_in), the in_proj output [z, x, B, C, dt]
		 * e (2 d_i + 2 G N + H) / t, the scan's output out_x, the gated RMSNorm's input
		 * and out_proj's input e d_i / t each, and the norm's fp32 rstd per group,
		 * 4 G / t, per token.  The conv1d output and the chunk states are recomputed in
		 * the backward (not stored).  Module recomputation (recompute_modules) acts inside
		 * Megatron-Core's TransformerLayer, not in a MambaLayer (hybrid_block.py at
		 * d98e8a64dd checkpoints a MambaLayer only under full recomputation): the norm
		 * output stays.
		 * Under CP (MambaContextParallel, docs/references.md §4.11) every tensor is s / cp
		 * tokens' worth per rank (sb): the kernel's zxbcdt and out_x arrive head-sharded
		 * over the whole sequence (d / cp wide of s tokens), the rest sequence-sharded;
		 * B and C carry max(G / t, cp) groups per TP rank when the groups are repeated
		 * to one per CP rank (mamba_context_parallel.py lines 114-132 at d98e8a64dd). */
		const struct calc_mamba *x = &m->mamba;
		double di = (double)x->heads * x->head_dim, gt = (double)x->groups / t, gn;
		gn = 2.0 * x->state * (cp > 1 && gt < cp ? cp : gt);
		o->attn = e * sb * h / r + lin_in + mask * sb * h / r +
		          e * sb * ((2 * di + x->heads) / t + gn) + 3 * e * sb * di / t + 4 * sb * x->groups / t;
		o->scores = o->mlp = 0;
		o->total = o->attn;
		return;
	}
	case CALC_LAYER_MAMBA1: {
		/* A Mamba-1 layer as the reference implementation trains it (mamba_simple.py at
		 * 52f57d66f8, Mamba.forward's fused path mamba_inner_fn with checkpoint_lvl = 1;
		 * MambaInnerFn.forward's ctx.save_for_backward in mamba_ssm/ops/
		 * selective_scan_interface.py keeps xz, x_dbl, B, C, scan_intermediates and out,
		 * and drops conv1d_out and delta, recomputed in the backward; derived,
		 * docs/references.md §5.17): the layer input e h / r and its dropout mask, the
		 * norm output in_proj saves (lin_in), xz e 2 d_i, x_dbl e (R + 2 N), B and C e N
		 * each (contiguous copies), the scan's output out e d_i, and the scan's chunk
		 * states in fp32, 4 x d_i x 2 N per chunk of 2048 tokens of a sequence
		 * (selective_scan_fwd's x, n_chunks = ceil(L / 2048)).  out_z is recomputed by
		 * the backward's scan (not stored).  TP and CP are refused for the kind
		 * (calc_plan_validate); Jamba's dt, B and C RMSNorms' rstd not counted. */
		const struct calc_mamba1 *x = &m->mamba1;
		double di = x->inner, n = x->state, seq = s * cp, chunks = ceil(seq / 2048.0);
		o->attn = e * sb * h / r + lin_in + mask * sb * h / r +
		          e * sb * (2 * di + x->dt_rank + 2 * n + 2 * n + di) / t + 8 * di * n * chunks / seq * sb / t;
		o->scores = o->mlp = 0;
		o->total = o->attn;
		return;
	}
	case CALC_LAYER_GDN: {
		/* A gated delta-net layer as Megatron-Core trains it (GatedDeltaNet at e867835174
		 * with FLA's chunk_gated_delta_rule, whose ChunkGatedDeltaRuleFunction saves q, k,
		 * v, g, beta and the WY matrix A, C wide per head and token, and FLA's l2norm on q
		 * and k before it, which keeps an rstd per head;
		 * derived, docs/references.md §5.15): the layer input e h / r and its dropout
		 * mask, the norm output in_proj saves (lin_in), the in_proj output [q, k, v, z,
		 * beta, alpha] e (2 K + 2 V + 2 H_v) / t (the conv's input, z for the gate), the
		 * conv1d's SiLU output e (2 K + V) / t (the L2 norms' input), the kernel's q and k
		 * (L2-normed and repeated to H_v heads, e H_v d_k each) and v (e V), g in fp32
		 * (4 H_v), beta (e H_v), the two L2 norms' fp32 rstd (8 H_k: GatedDeltaNet normalizes
		 * q and k before repeating them) and A (e H_v C);
		 * the gated RMSNorm's input and out_proj's input (e V each) and the norm's fp32
		 * rstd per head (4 H_v), all over t.  The chunk states are recomputed in the
		 * backward (not stored).  Module recomputation acts in a TransformerLayer only,
		 * as for Mamba-2. */
		const struct calc_gdn *x = &m->gdn;
		double K = (double)x->key_heads * x->key_dim, V = (double)x->value_heads * x->value_dim, H = x->value_heads;
		double C = x->chunk < s * cp ? x->chunk : s * cp;
		o->attn = e * sb * h / r + lin_in + mask * sb * h / r +
		          sb / t * (e * (2 * K + 2 * V + 2 * H) + e * (2 * K + V) + e * (2 * H * x->key_dim + V) + 4 * H + e * H +
		                    8.0 * x->key_heads + e * H * C + 2 * e * V + 4 * H);
		o->scores = o->mlp = 0;
		o->total = o->attn;
		return;
	}
	case CALC_LAYER_MLP: /* a hybrid model's MLP layer: the MLP below, no attention */
		o->attn = o->scores = 0;
		break;
	case CALC_LAYER_DENSE: /* one MLP of width f, below */
		break;
	}
	/* the inner tensors: the activation's input (fc1's output, 2f wide for SwiGLU) in
	 * e, and its output, fc2's saved input, at lin_bytes */
	o->mlp = e * sb * h / r + ((rcm & CALC_RCM_LAYERNORM) ? 0 : lin_in) + mask * sb * h / r +
	         ((rcm & CALC_RCM_MLP) ? 0 : ((m->mlp == CALC_MLP_SWIGLU ? 2 : 1) * e + lin_bytes(p, e)) * sb * f / t);
	/* 'mlp' with 'layernorm': the MLP's checkpoint keeps its input, the norm output */
	if ((rcm & CALC_RCM_MLP) && (rcm & CALC_RCM_LAYERNORM))
		o->mlp += e * sb * h / r;
	o->total = o->attn + o->scores + o->mlp;
}

/*
 * Fine-grained activation offloading (training.offload_modules; Megatron-Core's
 * --fine-grained-activation-offloading --offload-modules, docs/references.md §2.14): each
 * named module offloads what autograd saves inside it -- its input and whatever else it
 * saves -- to pinned host memory on a side stream after its forward and reloads it before
 * its backward (megatron/core/pipeline_parallel/fine_grained_activation_offload.py at
 * d98e8a6: group_start hooks saved_tensors_hooks, bulk_offload_group, bulk_reload_group).
 * A tensor of fewer than min_offloaded_tensor_size = 1024 * 1024 elements (its default,
 * transformer_config.py at d98e8a6; tensor_need_offloading_checker) stays on the GPU.
 * The groups, in act_layer's terms of one layer and one micro-batch:
 *   attn_norm:  the input norm's input e sbh/r where the norm is its own module (MLA, whose
 *               spec keeps input_layernorm); IdentityOp -- skipped -- where Transformer
 *               Engine fuses it into linear_qkv (gpt_layer_specs.py at d98e8a6,
 *               TELayerNormColumnParallelLinear; transformer_layer.py _set_offload_modules)
 *   qkv_linear: the QKV projection's saved input, the norm output (lin_in), and under the
 *               fused norm its input e sbh/r as well (LayerNormLinear saves both); MLA's
 *               qkv_linear wraps the down and up projections, whose saved latents are not
 *               counted here (act_layer does not count them)
 *   core_attn:  Q, K and V (three tensors) and the softmax statistics or scores (o.scores)
 *   attn_proj:  the output projection's input, the core's output e sb a d/t (the core
 *               saves the same tensor: attn_proj needs core_attn, plan.c)
 *   mlp_norm:   the pre-MLP norm's input e sbh/r on an MoE layer (a dense layer's is fused
 *               into linear_fc1: IdentityOp)
 *   expert_fc1: the routed experts' fc1 input, lin_bytes h per token copy (moe_act above)
 *   moe_act:    fc1's output (wide - 1) e f_e/etp per copy and the fp32 probabilities
 * The dense MLP, Mamba-2 and gated delta-net layers have no offload module here (fused_group_mlp
 * and gdp_qkv are not modelled).  Module recomputation drops what act_layer drops.
 */
static double off_big(double bytes, double elem)
{
	return bytes / elem >= 1024.0 * 1024.0 ? bytes : 0; /* min_offloaded_tensor_size */
}

double calc_memory_offload_bytes(const struct calc_plan *p, int kind)
{
	const struct calc_model *m = &p->model;
	struct calc_layer_kind kd;
	struct calc_act_layer a;
	unsigned om = p->offload_modules, rcm = calc_recompute_modules(p->recompute, p->recompute_modules);
	double e = p->recipe ? p->recipe->act_bytes : 2, t = p->tp, r = p->sp ? p->tp : 1, cp = p->cp > 0 ? p->cp : 1;
	double s = p->seq_len / cp, b = p->micro_batch, h = m->hidden, na = m->heads, g = m->kv_heads;
	double dh = m->head_dim > 0 ? m->head_dim : h / na, sb = s * b, v = 0, lb = lin_bytes(p, e), lin_in;
	int attn = 0, moe = 0, mla = m->mla.kv_lora_rank > 0;

	/* full recomputation and op-level SAC are refused with it (plan.c); a planner
	 * candidate with either offloads nothing and is costed so */
	if (!om || p->recompute == CALC_RC_FULL || p->recompute == CALC_RC_OP_SAC)
		return 0;
	calc_model_kind(m, kind, &kd);
	switch (kd.type) { /* every kind: -Werror=switch fails the build on a new one */
	case CALC_LAYER_DENSE:
	case CALC_LAYER_ATTN:
		attn = 1;
		break;
	case CALC_LAYER_MOE:
		attn = moe = 1;
		break;
	case CALC_LAYER_EXPERTS:
		moe = 1;
		break;
	case CALC_LAYER_MLP:
	case CALC_LAYER_MAMBA:
	case CALC_LAYER_GDN:
	case CALC_LAYER_MAMBA1:
		return 0;
	}
	if (mla)
		g = na, dh = (m->mla.qk_nope_dim + m->mla.qk_rope_dim + m->mla.v_head_dim) / 2.0;
	lin_in = sp_linear_input(p, e, sb);
	if (attn) {
		/* the saved QKV input's elements: all-gathered sbh or the shard sbh/r (sp_linear_input) */
		double lin_el = p->sp_saved_input && p->sp && t > 1 ? sb * h : sb * h / r;
		act_layer(p, kind, p->recompute, &a);
		if ((om & CALC_OFM_ATTN_NORM) && mla)
			v += off_big(e * sb * h / r, e);
		if (om & CALC_OFM_QKV_LINEAR) {
			if (!mla)
				v += off_big(e * sb * h / r, e);
			if (!(rcm & CALC_RCM_LAYERNORM))
				v += lin_el >= 1024.0 * 1024.0 ? lin_in : 0;
		}
		if (om & CALC_OFM_CORE_ATTN) {
			if (!(rcm & CALC_RCM_MLA_UP_PROJ))
				v += off_big(e * sb * na * dh / t, e) + 2 * off_big(e * sb * g * dh / t, e);
			/* the statistics are fp32 (4 B); the s^2 scores in e */
			v += off_big(a.scores, p->flash_attention ? 4 : e);
		}
		if (om & CALC_OFM_ATTN_PROJ)
			v += off_big(e * sb * na * dh / t, e);
	}
	if (moe) {
		const struct calc_moe *x = &m->moe;
		double etp = p->etp > 0 ? p->etp : 1, k = x->top_k, wide = m->mlp == CALC_MLP_SWIGLU ? 3 : 2;
		double phi = x->capacity > 0 ? x->capacity : x->imbalance > 1 ? x->imbalance : 1;
		double copies = phi * k * (sb / r) * etp;
		if (om & CALC_OFM_MLP_NORM)
			v += off_big(e * sb * h / r, e);
		if ((om & CALC_OFM_EXPERT_FC1) && !(rcm & CALC_RCM_MOE))
			v += off_big(lb * copies * h, lb);
		if ((om & CALC_OFM_MOE_ACT) && !(rcm & CALC_RCM_MOE))
			v += off_big((wide - 1) * e * copies * x->expert_ffn / etp, e) + off_big(4 * copies, 4);
	}
	/* training.offload_fraction (activation_offload_fraction): post_warmup_callback keeps
	 * the first int-rounded share of a chunk's eligible groups in forward order offloaded
	 * and the rest on the GPU; counted as that share of every layer's bytes (convention:
	 * the groups of their mean size, exact for one module; docs/references.md §2.14) */
	return v * p->offload_fraction;
}

/* The bytes of one layer of kind 'kind' of the weights' partition one GPU holds: its
 * parameters on the GPU (calc_memory_terms_params) times the recipe's weight bytes under
 * the plan's ZeRO stage over dp x cp, the routed experts' over the expert-DP group
 * (calc_memory_terms_bytes), as memory.c counts memory.weights. */
double calc_memory_layer_weight_bytes(const struct calc_plan *p, int kind)
{
	struct calc_params pr;
	struct calc_mem_terms k;

	if (!p->recipe)
		return 0;
	calc_model_params(&p->model, &pr);
	calc_memory_terms_params(p, &pr, &k);
	calc_memory_terms_bytes(p->recipe, p->zero, p->dp * (p->cp > 0 ? p->cp : 1), &k);
	calc_memory_terms_expert_bytes(p->recipe, p->zero, p->edp > 0 ? p->edp : 1, &k);
	return kind >= 0 && kind < k.nkinds ? k.kind_params[kind] * k.bw + k.kind_expert[kind] * k.ebw : 0;
}

void calc_memory_act_layer(const struct calc_plan *plan, struct calc_act_layer *out)
{
	act_layer(plan, 0, plan->recompute, out);
}

void calc_memory_act_kind(const struct calc_plan *plan, int k, enum calc_recompute rc, struct calc_act_layer *out)
{
	act_layer(plan, k, rc, out);
}

/* ======================================================================== */
/* Per stage                                                                 */
/* ======================================================================== */

/* Parameters of the layers and ends a stage holds, one copy on one GPU; the terms
 * in the order calc_memory has always added them (first ends, final norm, head). */
double calc_memory_terms_stage_experts(const struct calc_mem_terms *k, const struct calc_stage_layers *sl)
{
	double n = 0;
	for (int j = 0; j < k->nkinds; j++)
		n += sl->count[j] * k->kind_expert[j];
	return n;
}

double calc_memory_terms_stage_params(const struct calc_mem_terms *k, const struct calc_stage_layers *sl)
{
	double n = 0;
	for (int j = 0; j < k->nkinds; j++)
		n += sl->count[j] * k->kind_params[j];
	if (sl->embedding)
		n += k->first_params;
	if (sl->head) {
		n += k->last_norm;
		n += k->last_head;
	}
	return n;
}

void calc_memory_terms_params(const struct calc_plan *p, const struct calc_params *pr, struct calc_mem_terms *k)
{
	const struct calc_model *m = &p->model;
	double t = p->tp;

	k->p = p->pp;
	k->nkinds = pr->nkinds;
	/* replicated over TP: the two norms and the row-parallel biases (attention
	 * output and fc2), Megatron-LM RowParallelLinear / LayerNorm */
	for (int j = 0; j < pr->nkinds; j++) {
		/* routed experts: EP splits the experts, ETP each expert (parallel folding) */
		double ex = pr->kind[j].experts, epx = (double)(p->ep > 0 ? p->ep : 1) * (p->etp > 0 ? p->etp : 1);
		k->kind_params[j] = (pr->kind[j].total - ex - pr->kind[j].replicated) / t + pr->kind[j].replicated;
		k->kind_expert[j] = ex / epx;
	}
	k->first_params = pr->embedding / t + pr->position; /* vocab-parallel embedding; positions replicated */
	k->last_norm = pr->final_norm;
	/* the last stage keeps its own copy of a tied matrix when pp > 1 */
	k->last_head = !m->tied_embeddings ? pr->lm_head / t : p->pp > 1 ? pr->embedding / t : 0;
}

void calc_memory_terms_bytes(const struct calc_recipe *r, int zero, int shard, struct calc_mem_terms *k)
{
	k->bw = calc_recipe_bytes_sharded(r, CALC_T_WEIGHT, zero, shard);
	k->bwc = calc_recipe_bytes_sharded(r, CALC_T_WCOPY, zero, shard);
	k->bg = calc_recipe_bytes_sharded(r, CALC_T_GRAD, zero, shard);
	k->bm = calc_recipe_bytes_sharded(r, CALC_T_MASTER, zero, shard);
	k->bo = calc_recipe_bytes_sharded(r, CALC_T_OPT, zero, shard);
	k->bg_sh = calc_recipe_bytes_sharded(r, CALC_T_GRAD, 2, shard);
	k->zero1 = zero == 1;
}

void calc_memory_terms_expert_bytes(const struct calc_recipe *r, int zero, int edp, struct calc_mem_terms *k)
{
	k->ebw = calc_recipe_bytes_sharded(r, CALC_T_WEIGHT, zero, edp);
	k->ebwc = calc_recipe_bytes_sharded(r, CALC_T_WCOPY, zero, edp);
	k->ebg = calc_recipe_bytes_sharded(r, CALC_T_GRAD, zero, edp);
	k->ebm = calc_recipe_bytes_sharded(r, CALC_T_MASTER, zero, edp);
	k->ebo = calc_recipe_bytes_sharded(r, CALC_T_OPT, zero, edp);
	k->ebg_sh = calc_recipe_bytes_sharded(r, CALC_T_GRAD, 2, edp);
}

void calc_memory_terms_act(const struct calc_plan *p, struct calc_mem_terms *k)
{
	int nk = calc_model_nkinds(&p->model);

	k->nkinds = nk;
	for (int j = 0; j < nk; j++) {
		struct calc_act_layer a;
		act_layer(p, j, p->recompute, &a);
		k->act[j] = a.total;
		if (p->recompute != CALC_RC_NONE)
			act_layer(p, j, CALC_RC_NONE, &a);
		k->act_full[j] = a.total;
	}
	calc_memory_terms_act_rest(p, k);
}

void calc_memory_terms_act_rest(const struct calc_plan *p, struct calc_mem_terms *k)
{
	const struct calc_model *m = &p->model;
	double e = p->recipe ? p->recipe->act_bytes : 2, t = p->tp, r = p->sp ? p->tp : 1;
	double s = (double)p->seq_len / (p->cp > 0 ? p->cp : 1), b = p->micro_batch, h = m->hidden, V = m->vocab;
	int nk = calc_model_nkinds(m);

	k->nkinds = nk;
	k->rc_method = p->recompute == CALC_RC_FULL ? p->recompute_method : CALC_RC_METHOD_UNSET;
	k->rc_layers = p->recompute_num_layers > 0 ? p->recompute_num_layers : 1;
	k->chunks = p->vpp > 0 ? p->vpp : 1;
	k->ckpt_cpu = p->recompute == CALC_RC_FULL && p->cpu_checkpointing;
	k->offload_layers = calc_plan_offload_layers(p);
	for (int j = 0; j < nk; j++)
		k->off_mod[j] = calc_memory_offload_bytes(p, j);
	k->opt_off = p->offload_optimizer;
	k->opt_off_grads = p->offload_optimizer > 0 && p->offload_style == CALC_OFFLOAD_ZERO;
	k->opt_nvme = calc_plan_offload_nvme(p);
	k->param_off = calc_plan_offload_param(p);
	/* token ids (int64) and embedding dropout mask (§4.3), per in-flight mb */
	k->first_act = 8 * s * b + (m->dropout ? s * b * h / r : 0);
	/* final norm input, LM-head input, fp32 logits for the loss (§4.3); with
	 * sp_saved_input = gathered the LM head (DTensor's ColwiseParallel, in BF16: torchtitan
	 * converts no output layer to Float8) keeps its all-gathered input (§2.9) */
	k->last_act = e * s * b * h / r + (p->sp_saved_input && p->sp && t > 1 ? e * s * b * h : e * s * b * h / r) +
	              4 * s * b * V / t;
	/* the loss's transient beyond those 4 B per logit (docs/references.md §2.5): fused
	 * (Megatron-LM's vocab-parallel cross-entropy), the bf16 logits before the fp32 cast,
	 * 2 B; torch (F.cross_entropy on logits.float(), torchtitan's loss_fn), 12 B per
	 * logit at the loss's backward -- nll_loss's gradient and log_softmax's input
	 * gradient next to the saved output -- and 16 B under DTensor's loss_parallel
	 * (tp > 1: exp(x), the sum and the product next to the saved output) */
	k->last_temp = (p->cross_entropy == CALC_XENT_TORCH ? (t > 1 ? 12 : 8) : 2) * s * b * V / t;
	/* parallel.pp_runtime = torch (calc_memory_stage_parts): the hidden state a stage sends,
	 * e s b h / r (the sequence shard under SP: torchtitan's blocks return the local shard
	 * of a RowwiseParallel output), and the last stage's output, the logits e s b V / t
	 * (vocabulary-sharded under loss_parallel; torchtitan's Transformer.forward returns
	 * self.output(h), in the activations' dtype, at 9dec370) */
	k->grad_chunk = p->grad_buffer == 1;
	k->pp_torch = p->pp_runtime == 1 && p->pp > 1;
	k->pp_m = calc_plan_microbatches(p);
	k->pp_x = e * s * b * h / r;
	k->pp_out = e * s * b * V / t;
}

void calc_memory_terms_fixed(const struct calc_plan *p, struct calc_mem_terms *k)
{
	k->fixed[0] = p->cuda_context;
	k->fixed[1] = p->nccl_buffers;
	k->fixed[2] = p->workspace;
	k->frag = p->fragmentation;
	k->capacity = p->gpu_memory;
}

/*
 * FSDP buffers (Zhao et al. 2023 §3.2-3.4; FSDP2 in Liang et al. 2024 §3.1): each unit
 * (one layer, or the embedding, or the final norm with the LM head) keeps its shard of
 * the states -- counted by ZeRO-3 above -- and, while it computes, an all-gathered copy of
 * its parameters in the compute dtype; the unit being prefetched holds one more: 1 +
 * parallel.fsdp_prefetch units gathered at once (FSDP's rate limiter keeps at most two
 * all-gathers in flight, §3.4).  Its backward writes unsharded gradients, reduce-scattered
 * per unit: as many units' gradients in flight, in the reduction's dtype
 * (efficiency.grad_reduce; the recipe's gradients otherwise).  Two cases keep a whole
 * stage: reshard_after_forward = no keeps every gathered unit from its forward to its
 * backward, and with PP a stage keeps its parameters gathered over the step, as
 * torchtitan runs FSDP with PP (reshard_after_forward off for PP) and as comm.c counts
 * its gathers; no_sync (and PP, which reduces once per step) keeps the stage's unsharded
 * gradients over the micro-batches.
 */
void calc_memory_terms_fsdp(const struct calc_plan *p, struct calc_mem_terms *k)
{
	const struct calc_recipe *r = p->recipe;
	double gb = r ? calc_recipe_bytes(r, CALC_T_GRAD) : 0;

	k->fsdp_w = k->fsdp_wl = k->fsdp_g = 0;
	k->fsdp_units = k->fsdp_keep_w = k->fsdp_keep_g = 0;
	k->fsdp_live = 0;
	if (!p->fsdp || !r)
		return;
	/* the gathered units in the weights' dtype; a recipe that keeps no compute weights
	 * (torch-mp: FSDP casts each unit as it gathers it, param_dtype = bf16) gathers them
	 * in the activations' dtype (docs/references.md §2.7) */
	k->fsdp_w = calc_recipe_bytes(r, CALC_T_WEIGHT) > 0 ? calc_recipe_bytes(r, CALC_T_WEIGHT) : r->act_bytes;
	/* parallel.fsdp_fp8_gather (docs/references.md §1.8): torchao's Float8Linear casts its
	 * sharded weight to FP8 before FSDP2's all-gather and the gathered weight stays FP8, a
	 * Float8Tensor over the all-gather's uint8 output (torchao/float8/fsdp_utils.py at
	 * torchao eab345c, WeightWithDynamicFloat8CastTensor fsdp_pre_all_gather /
	 * fsdp_post_all_gather; torchtitan's docs/float8.md at 9dec370 states the FP8 gather;
	 * docs/references.md §10 for what is not read here), 1 byte a parameter.  torchtitan swaps every nn.Linear but the output layer
	 * (module_filter_fn fqn != "output", torchtitan/float8.py at 9dec370): the embedding and
	 * the LM head stay in the compute dtype.  Convention: a layer's norms (2h of its
	 * parameters) are counted with its linears; the routed experts keep fsdp_w. */
	k->fsdp_wl = p->fsdp_fp8_gather ? 1 : k->fsdp_w;
	k->fsdp_g = p->grad_reduce == 1 ? 2 : p->grad_reduce == 2 ? 4 : gb > 0 ? gb : k->fsdp_w;
	k->fsdp_units = 1 + (p->fsdp_prefetch > 0 ? p->fsdp_prefetch : 0);
	k->fsdp_live = 0;
	if (p->fsdp_live > 0) {
		/* DeepSpeed ZeRO-3 gathers parameters per submodule and releases them once more
		 * than stage3_max_live_parameters are resident (deepspeed/runtime/zero/config.py at
		 * cbf3d66: max_live_parameters, default 1e9, "the maximum number of parameters
		 * resident per GPU before releasing"; it fetches ahead at most
		 * stage3_prefetch_bucket_size, 5e7, within it).  A submodule is gathered whole, so the cap never goes
		 * below one layer's largest linear on a TP rank: the fused QKV projection h (a +
		 * 2 g) d_h or the MLP's fc1 h f (h 2 f gated), as Megatron builds them
		 * (docs/references.md §2.16). */
		const struct calc_model *m = &p->model;
		double h = m->hidden, d = m->head_dim > 0 ? m->head_dim : (m->heads ? h / m->heads : 0);
		double gate = m->mlp == CALC_MLP_SWIGLU ? 2 : 1;
		double qkv = h * (m->heads + 2.0 * m->kv_heads) * d, fc1 = h * m->ffn_hidden * gate;
		double big = (qkv > fc1 ? qkv : fc1) / (p->tp > 0 ? p->tp : 1);
		k->fsdp_live = p->fsdp_live > big ? p->fsdp_live : big;
	}
	k->fsdp_keep_w = p->pp > 1 || !p->reshard_after_forward;
	k->fsdp_keep_g = p->pp > 1 || p->no_sync;
}

/* The gathered weights and unsharded gradients of one GPU of a stage holding 'sl' [B]:
 * 'gw' and 'gg' get the two parts. */
static void fsdp_buffers(const struct calc_mem_terms *k, const struct calc_stage_layers *sl, double *gw, double *gg)
{
	double all = calc_memory_terms_stage_params(k, sl) + calc_memory_terms_stage_experts(k, sl), unit = 0, fly;
	double dense = 0, wunit = k->fsdp_w; /* the layers' dense parameters; the largest unit's bytes */

	*gw = *gg = 0;
	if (k->fsdp_units < 1)
		return;
	for (int j = 0; j < k->nkinds; j++) {
		dense += sl->count[j] * k->kind_params[j];
		if (sl->count[j] > 0 && k->kind_params[j] + k->kind_expert[j] > unit) {
			unit = k->kind_params[j] + k->kind_expert[j];
			wunit = k->fsdp_wl == k->fsdp_w ? k->fsdp_w
			      : (k->kind_params[j] * k->fsdp_wl + k->kind_expert[j] * k->fsdp_w) / unit;
		}
	}
	if (sl->embedding && k->first_params > unit)
		unit = k->first_params, wunit = k->fsdp_w;
	if (sl->head && k->last_norm + k->last_head > unit)
		unit = k->last_norm + k->last_head, wunit = k->fsdp_w;
	fly = k->fsdp_units * unit < all ? k->fsdp_units * unit : all; /* never more than the stage */
	if (k->fsdp_live > 0 && k->fsdp_live < fly)
		/* DeepSpeed's live-parameter cap; its gradients leave in reduce buckets of
		 * reduce_bucket_size (5e8, config.py at cbf3d66) as they are produced, counted
		 * at the same cap (convention: the larger of the two at the default) */
		fly = k->fsdp_live;
	/* the layers' dense weights in fsdp_wl (FP8 with parallel.fsdp_fp8_gather), the rest in
	 * fsdp_w; the gradients stay in fsdp_g either way */
	*gw = !k->fsdp_keep_w ? fly * wunit
	    : k->fsdp_wl == k->fsdp_w ? all * k->fsdp_w : dense * k->fsdp_wl + (all - dense) * k->fsdp_w;
	*gg = (k->fsdp_keep_g ? all : fly) * k->fsdp_g;
}

void calc_memory_terms(const struct calc_plan *p, struct calc_mem_terms *k)
{
	struct calc_params pr;
	int shard = p->dp * (p->cp > 0 ? p->cp : 1);

	/* HSDP: the states are sharded over one shard group and replicated over the others */
	if (p->fsdp && p->fsdp_shard > 0 && p->fsdp_shard < shard)
		shard = p->fsdp_shard;
	calc_model_params(&p->model, &pr);
	calc_memory_terms_params(p, &pr, k);
	calc_memory_terms_bytes(p->recipe, p->zero, shard, k);
	calc_memory_terms_expert_bytes(p->recipe, p->zero, p->edp > 0 ? p->edp : 1, k);
	k->copies = calc_pipeline_param_copies(p);
	calc_memory_terms_act(p, k);
	calc_memory_terms_fixed(p, k);
	calc_memory_terms_fsdp(p, k);
}

/*
 * Layer activations of one stage under recompute = full with Megatron-LM's
 * --recompute-method and --recompute-num-layers N (megatron/core/recompute.py,
 * checkpointed_forward; docs/references.md §2.4).  A stage holds v = vpp chunks of
 * c = L_stage / v layers (the TransformerBlock of a chunk is its
 * num_layers_per_pipeline_rank), and with N' = min(N, c):
 *   uniform: ceil(c / N') checkpointed groups per chunk, each keeping its input x (the
 *            same layer input 'full' keeps, k->act); during a group's backward its N'
 *            layers are recomputed and held in full at once:
 *            v ceil(c/N') x inflight + N' a_full - x
 *   block:   the first N' layers of each chunk keep x, the other c - N' keep their
 *            activations; one checkpointed layer is recomputed at a time:
 *            v (N' x + (c - N') a_full) inflight + a_full - x
 * a_full is one layer without recomputation (k->act_full).  With several layer kinds in
 * a stage the kind order is not modelled (convention): the peak takes the largest
 * kind's a_full, and block's fully stored layers are each kind's share (L_stage - v N') /
 * L_stage of its count.  N = 1 uniform is today's 'full' (the caller's other branch).
 */
static double rc_method_act(const struct calc_mem_terms *k, const struct calc_stage_layers *sl, double inflight)
{
	double v = k->chunks, L = sl->layers, c, n, x = 0, big = 0, stored = 0, act;

	if (sl->layers <= 0)
		return 0;
	c = L / v;
	n = k->rc_layers < c ? k->rc_layers : c;
	for (int j = 0; j < k->nkinds; j++)
		if (sl->count[j] > 0) {
			x = k->act[j]; /* every kind keeps the same layer input under full */
			if (k->act_full[j] > big)
				big = k->act_full[j];
			stored += sl->count[j] * k->act_full[j];
		}
	/* CPU checkpoints (k->ckpt_cpu): of the checkpoints only the one in transfer stays
	 * on the GPU, beside the group recomputed from the one brought back (ckpt_act) */
	if (k->rc_method == CALC_RC_METHOD_UNIFORM) {
		act = k->ckpt_cpu ? x + n * big : v * ceil(c / n) * x * inflight + n * big - x;
	} else {
		act = k->ckpt_cpu ? x + stored * (L - v * n) / L * inflight + big
		                  : (v * n * x + stored * (L - v * n) / L) * inflight + big - x;
	}
	return act;
}

/*
 * Layer activations of one stage with CPU checkpoints (parallel.cpu_checkpointing;
 * ZeRO-R P_a+cpu, Rajbhandari et al. 2020 §6.1: "reducing the activation memory overhead
 * to nearly zero").  DeepSpeed copies each checkpoint to host memory after the layer's
 * forward and back before its recomputation (checkpointing.py: partition.cpu() in
 * CheckpointFunction.forward, gather_partitioned_activations / move_to_device in its
 * backward).  Convention: one checkpoint in transfer stays on the GPU -- the next
 * layer's, fetched while this layer computes (step.c overlaps the copy with the layer's
 * compute) -- beside the layer recomputed in full from the one brought back, whatever
 * the micro-batches in flight: max x + max a_full over the stage's kinds.
 */
static double ckpt_act(const struct calc_mem_terms *k, const struct calc_stage_layers *sl)
{
	double x = 0, big = 0;

	if (sl->layers <= 0)
		return 0;
	for (int j = 0; j < k->nkinds; j++)
		if (sl->count[j] > 0) {
			if (k->act[j] > x)
				x = k->act[j];
			if (k->act_full[j] > big)
				big = k->act_full[j];
		}
	return x + big;
}

/*
 * Layer activations of one stage with layer-level activation offloading
 * (training.offload_activations = N; Megatron-Core's cpu_offloading with
 * cpu_offloading_num_layers = N, which it allows only at pp = 1 without recomputation:
 * megatron/core/transformer/transformer_config.py; docs/references.md §2.12).
 * Transformer Engine offloads layers 0 .. N-1 and synchronises so that "activation
 * memory usage is equal to (num_layers - num_offloaded_layers) * T, where T is the memory
 * footprint of a layer" (transformer_engine/pytorch/cpu_offload.py at d0067d0,
 * get_cpu_offload_context): the L - N layers not offloaded.  The kinds share the
 * offloaded layers in proportion to their counts (exact for a model of one kind);
 * 'inflight' is 1 at pp = 1 and multiplies for form's sake.
 */
static double offload_act(const struct calc_mem_terms *k, const struct calc_stage_layers *sl, double inflight)
{
	double act = 0, keep;

	if (sl->layers <= 0)
		return 0;
	keep = (double)(sl->layers - k->offload_layers) / sl->layers;
	for (int j = 0; j < k->nkinds; j++)
		if (sl->count[j] > 0)
			act += sl->count[j] * keep * k->act[j] * inflight;
	return act;
}

/*
 * The bytes of a stage's layer activations that fine-grained offloading (off_mod) keeps
 * in host memory at its peak: every offloaded group of the inflight micro-batches' layers
 * but CALC_OFFLOAD_KEEP of the largest kind's, which stay on the GPU -- the margin
 * post_warmup_callback keeps (the last group of each module name of the first chunk to
 * run its backward, fine_grained_activation_offload.py at d98e8a6) and the group
 * bulk_reload brings back ahead of the backward that needs it (convention,
 * docs/references.md §2.14).
 */
static double fg_offload_host(const struct calc_mem_terms *k, const struct calc_stage_layers *sl, double inflight)
{
	double all = 0, big = 0, keep;

	for (int j = 0; j < k->nkinds; j++)
		if (sl->count[j] > 0 && k->off_mod[j] > 0) {
			all += sl->count[j] * k->off_mod[j] * inflight;
			if (k->off_mod[j] > big)
				big = k->off_mod[j];
		}
	keep = CALC_OFFLOAD_KEEP * big;
	return all > keep ? all - keep : 0;
}

/*
 * The buffers of torch.distributed.pipelining's PipelineStage on one GPU of a stage holding
 * 'sl' with 'inflight' micro-batches at its peak (parallel.pp_runtime = torch, torchtitan's
 * runtime; torch/distributed/pipelining/stage.py at 0138610331c9, docs/references.md §2.17):
 *   - _prepare_forward_infra allocates one receive buffer of the stage input per micro-batch
 *     (args_recv_info, on every stage but the first) and _prepare_backward_infra one of the
 *     output gradient per micro-batch (grad_recv_info, on every stage but the last), kept
 *     from the first step on: m x per pipeline stage; a buffer of an in-flight micro-batch is
 *     the first layer's saved input, which the layers' activations count already;
 *   - forward_one_chunk keeps each micro-batch's output in fwd_cache until its backward
 *     (backward_one_chunk pops it): x per in-flight micro-batch of a stage that sends one
 *     (Megatron-Core frees the output's data once sent, deallocate_output_tensor in
 *     megatron/core/pipeline_parallel/schedules.py at d98e8a6, so megatron adds nothing);
 *   - the last stage appends every micro-batch's output to output_chunks, cleared only by
 *     clear_runtime_states at the next step: all m outputs (the logits) at its last backward
 *     (every stage did so before pytorch/pytorch PR #153383 of May 2025, torch 2.6.0's
 *     stage.py line 703: not counted, docs/references.md §2.17);
 *   - stage_backward (_backward.py) runs torch.autograd.backward, which accumulates the
 *     gradient of each receive buffer (a leaf, requires_grad) into its .grad, and reads
 *     grads_input from there; get_bwd_send_ops pops the tuple from bwd_cache but the .grad
 *     stays until clear_runtime_states (a.buffer.grad = None) at the start of the next
 *     step() (schedules.py): x per micro-batch whose backward the stage has run.  At a
 *     1F1B stage's peak (the backward of micro-batch m - f, f in flight) m - f have run;
 *     read in torch 2.6.0 (stage.py backward_one_chunk, clear_runtime_states; _backward.py
 *     stage_backward), the release branched from main in December 2024, the month of the
 *     torch 1963fc8 that torchtitan's Tables 1-6 ran.
 * With v > 1 pipeline stages on a GPU, F = v stages receive (one fewer on the first GPU, whose
 * first stage takes the tokens) and G = v send (one fewer on the last), and the in-flight
 * micro-batches (in units of the GPU's whole stage set) are spread over them alike:
 *   x (m (F + G) - inflight F + inflight G + (m - inflight) F) + [last] m out.
 */
static double torch_pp_buffers(const struct calc_mem_terms *k, const struct calc_stage_layers *sl, double inflight)
{
	double v = k->chunks > 0 ? k->chunks : 1, F = v - (sl->embedding ? 1 : 0), G = v - (sl->head ? 1 : 0);
	double done = k->pp_m > inflight ? k->pp_m - inflight : 0; /* backwards run: their input gradients */
	double b = k->pp_x * (k->pp_m * (F + G) - inflight * F + inflight * G + done * F);
	if (sl->head)
		b += k->pp_m * k->pp_out;
	return b;
}

void calc_memory_stage_parts(const struct calc_mem_terms *k, const struct calc_stage_layers *sl, double inflight,
                             struct calc_mem_stage_parts *o)
{
	double act = 0, extra = 0, temp = 0, peak = 0;

	o->n = calc_memory_terms_stage_params(k, sl);
	o->ne = calc_memory_terms_stage_experts(k, sl);
	fsdp_buffers(k, sl, &o->gw, &o->gg);
	if (k->rc_method != CALC_RC_METHOD_UNSET && (k->rc_method != CALC_RC_METHOD_UNIFORM || k->rc_layers > 1))
		act = rc_method_act(k, sl, inflight);
	else if (k->ckpt_cpu)
		act = ckpt_act(k, sl);
	else if (k->offload_layers > 0)
		act = offload_act(k, sl, inflight);
	else {
		for (int j = 0; j < k->nkinds; j++)
			if (sl->count[j] > 0) {
				act += sl->count[j] * k->act[j] * inflight;
				if (k->act_full[j] - k->act[j] > peak)
					peak = k->act_full[j] - k->act[j];
			}
		/* recomputation works on one layer of one micro-batch at a time: the dropped
		 * terms come back for that layer during its backward (the largest kind's) */
		if (sl->layers > 0)
			act += peak;
		act -= fg_offload_host(k, sl, inflight);
	}
	if (sl->embedding)
		extra += inflight * k->first_act;
	if (sl->head) {
		extra += k->last_act;
		temp = k->last_temp;
	}
	if (k->pp_torch)
		extra += torch_pp_buffers(k, sl, inflight);
	o->act = act;
	o->extra = extra;
	o->temp = temp;
}

double calc_memory_stage_total(const struct calc_mem_terms *k, const struct calc_stage_layers *sl, double inflight,
                               struct calc_mem_stage *st)
{
	struct calc_mem_stage_parts pt;

	calc_memory_stage_parts(k, sl, inflight, &pt);
	return calc_memory_stage_of(k, sl, inflight, &pt, st);
}

double calc_memory_stage_of(const struct calc_mem_terms *k, const struct calc_stage_layers *sl, double inflight,
                            const struct calc_mem_stage_parts *pt, struct calc_mem_stage *st)
{
	double n = pt->n, ne = pt->ne, w, wc, g, ms, o, act = pt->act, extra = pt->extra, temp = pt->temp, states, acts,
	       frag, host = 0, nvme = 0;

	/* a dense model has ne = 0 and adds exact zeros */
	w = n * k->bw + ne * k->ebw;
	wc = n * k->bwc + ne * k->ebwc;
	g = (n * k->bg + ne * k->ebg) * k->copies;
	if (k->grad_chunk && k->zero1 && inflight >= k->pp_m - 1e-9) {
		/* parallel.grad_buffer = per-chunk (docs/references.md §2.18): the reduce-scattered
		 * shard, and the unsharded gradient of a model chunk from its first backward to its
		 * reduce-scatter after its last.  When every forward of the step runs before its
		 * first backward on this stage (inflight >= m), the stage's peak of activations
		 * comes before any gradient and the chunks' backwards follow one another: at most
		 * the chunk in its backward holds an unsharded gradient, 1/v of the stage's (the
		 * chunks' mean; convention), counted in full beside the whole peak of activations
		 * (its first micro-batch's activations are freed as it grows: not subtracted), the
		 * shard counted whole although the chunks not yet reduced have none (conservative).
		 * Otherwise the chunks' backwards interleave with the forwards of later
		 * micro-batches, every chunk's gradient lives through the steady phase, and the
		 * persistent count stands. */
		double v = k->chunks > 0 ? k->chunks : 1, pc = (n * k->bg_sh + ne * k->ebg_sh) * k->copies + g / v;
		if (pc < g) /* one chunk (v = 1) keeps the stage's: the shard is not added to it */
			g = pc;
	}
	ms = n * k->bm + ne * k->ebm;
	o = n * k->bo + ne * k->ebo;
	/* training.offload_optimizer: HybridDeviceOptimizer moves that share of the rank's
	 * parameters, with their fp32 master copy and optimizer states, to host memory
	 * (megatron/core/optimizer/cpu_offloading/hybrid_optimizer.py at d98e8a6,
	 * _get_sub_optimizer_param_groups; docs/references.md §2.13) */
	double ms_all = ms, o_all = o; /* the rank's master and moment bytes before offload (opt_nvme) */
	if (k->opt_off > 0) {
		host = (ms + o) * k->opt_off;
		ms *= 1 - k->opt_off;
		o *= 1 - k->opt_off;
		/* training.offload_style = zero-offload: ZeRO-Offload assigns the fp16 gradients to
		 * the host as well, streamed out during the backward so that the GPU holds a few
		 * buckets only (Ren et al. 2021 §3.5, §4.1; the buckets are not counted) */
		if (k->opt_off_grads) {
			host += g * k->opt_off;
			g *= 1 - k->opt_off;
		}
		/* training.offload_device = nvme: ZeRO-Infinity keeps the fp32 partition, its
		 * moments and its fp32 gradients in NVMe swap files and the host only the pinned
		 * swap buffers: buffer_count = 4 buffers (DeepSpeedZeroOffloadOptimizerConfig's
		 * default) of the largest sub-group, at most sub_group_size = 1e9 elements
		 * (DeepSpeedZeroConfig's default), in fp32 (deepspeed/runtime/zero/offload_config.py,
		 * config.py, swap_tensor/partitioned_optimizer_swapper.py at edaa722).  The rank's
		 * partition is taken from its master bytes, 4 per parameter (docs/references.md
		 * §2.15) */
		if (k->opt_nvme) {
			double part = ms_all > 0 ? ms_all / 4 : o_all / 8; /* fp32 master, or Adam's two fp32 moments */
			nvme = host;
			host = 4 * 4 * (part < 1e9 ? part : 1e9);
		}
	}
	/* training.offload_param: DeepSpeed ZeRO-3 keeps the rank's partition of the weights in
	 * host memory (cpu) or in NVMe swap files (nvme), and the host then the pinned swap
	 * buffers, buffer_count = 5 of buffer_size = 1e8 elements in 2 B
	 * (DeepSpeedZeroOffloadParamConfig's defaults, offload_config.py at edaa722; max_in_cpu
	 * not modelled: every element on NVMe); the gathered layers are not counted, as for
	 * ZeRO-3 without offload (docs/references.md §2.15) */
	if (k->param_off) {
		if (k->param_off == 2) {
			nvme += w;
			host += 5 * 1e8 * 2;
		} else
			host += w;
		w = 0;
	}
	if (k->copies > 1) /* DualPipe (DeepSeek-V3 §3.2.1): a second copy of the weights and
	                    * of their gradients, the experts' too; one optimizer state (convention) */
		wc += (k->copies - 1) * (w + wc);
	wc += pt->gw; /* FSDP: gathered units are weight copies, unsharded gradients gradients */
	g += pt->gg;
	acts = act + extra;
	states = w + wc + g + ms + o;
	frag = k->frag * (states + acts + temp);
	if (st) {
		st->layers = sl->layers;
		st->params = (n + ne) * k->copies;
		st->weights = w;
		st->weight_copies = wc;
		st->gradients = g;
		st->master = ms;
		st->optimizer = o;
		st->inflight = inflight;
		st->act_layers = act;
		st->act_extra = extra;
		st->activations = acts;
		st->ov_cuda = k->fixed[0];
		st->ov_nccl = k->fixed[1];
		st->ov_workspace = k->fixed[2];
		st->ov_frag = frag;
		st->ov_temp = temp;
		st->fsdp_buffers = pt->gw + pt->gg;
		st->overhead = k->fixed[0] + k->fixed[1] + k->fixed[2] + frag + temp;
		st->states = states;
		st->total = states + acts + st->overhead;
		st->capacity = k->capacity;
		st->headroom = st->capacity - st->total;
		/* the offloaded layers' share of the stage's layer activations (offload_act) */
		if (k->offload_layers > 0 && sl->layers > 0)
			for (int j = 0; j < k->nkinds; j++)
				host += sl->count[j] * k->act[j] * inflight * k->offload_layers / sl->layers;
		/* training.offload_modules: the offloaded groups (fg_offload_host) */
		host += fg_offload_host(k, sl, inflight);
		st->host = host;
		st->nvme = nvme;
	}
	return states + acts + (k->fixed[0] + k->fixed[1] + k->fixed[2] + frag + temp);
}

/* Parameters one GPU of stage 'i' holds (one copy).  Shared with comm.c, which sizes
 * the gradient reduction with the same count. */
double calc_memory_stage_params(const struct calc_plan *p, const struct calc_params *pr, int i)
{
	struct calc_mem_terms k;
	struct calc_stage_layers sl;
	calc_memory_terms_params(p, pr, &k);
	calc_stage_layers(p, i, &sl);
	return calc_memory_terms_stage_params(&k, &sl);
}

int calc_memory(const struct calc_plan *p, struct calc_memory *out, struct calc_diag *d)
{
	struct calc_params pr;
	struct calc_mem_terms k;

	if (!p->recipe || p->pp < 1 || p->pp > CALC_MAX_STAGES || p->tp < 1)
		return calc_error(d, p->file, 0, "the plan is not valid (recipe, tp or pp missing)");
	/* clear only what this plan uses: the stage array is large */
	memset(out, 0, offsetof(struct calc_memory, st));
	memset(out->st, 0, (size_t)p->pp * sizeof out->st[0]);
	memset(&out->worst, 0, sizeof *out - offsetof(struct calc_memory, worst));
	calc_model_params(&p->model, &pr);
	calc_memory_terms(p, &k);
	act_layer(p, 0, p->recompute, &out->act);
	out->nstages = p->pp;

	for (int i = 0; i < p->pp; i++) {
		struct calc_mem_stage *st = &out->st[i];
		struct calc_stage_layers sl;
		calc_stage_layers(p, i, &sl);
		calc_memory_stage_total(&k, &sl, calc_pipeline_inflight(p, i), st);
		st->stage = i;
		st->layers = p->layers_per_stage[i];
		if (st->total > out->st[out->worst].total)
			out->worst = i;
	}
	out->fits = 1;
	for (int i = 0; i < p->pp; i++)
		if (out->st[i].headroom < 0)
			out->fits = 0;
	out->states_total = pr.total * calc_recipe_total(p->recipe);
	out->states_min_gpus = (int)ceil(out->states_total / p->gpu_memory);
	out->states_min_gpus_nominal = (int)ceil(out->states_total / p->gpu.memory_nominal);
	return 0;
}
