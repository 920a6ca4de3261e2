/*
 * model.c -- parameter counts of a dense decoder-only transformer.
 *
 * Per layer (h hidden, a heads, g KV heads, d head width, f FFN width):
 *   attention  Q: h*a*d, K and V: h*g*d each, O: a*d*h  (GQA: Ainslie et al. 2023;
 *              Megatron-LM theoretical_memory_usage.py writes the same as
 *              2h^2 (1 + g/a) (a d / h));  biases a*d + 2*g*d + h when present
 *   MLP        GeLU 2*h*f, SwiGLU 3*h*f (gate, up, down; Shazeer 2020); biases
 *              f + h (GeLU) or 2f + h (SwiGLU) when present
 *   norms      two per layer: LayerNorm 2h (scale and shift), RMSNorm h
 * Model: L layers + final norm + token embedding V*h + learned positions max_pos*h
 * + an untied LM head V*h.
 * A model may hold layers of several kinds (calc_layer_kind: today dense layers of
 * different FFN widths); every per-layer count above is per kind, and the model's
 * layers are the sum over its sequence of kinds.
 * With a = g, d = h/a, f = 4h, biases and learned positions this is Narayanan et al.
 * 2021 Eq. (2): P = 12 l h^2 (1 + 13/(12h) + (V + s)/(12 l h)) plus the final
 * LayerNorm (2h), which Eq. (2) leaves out.
 *
 * Layer split over pipeline stages (calc_layers_split), L layers on p stages:
 *   remainder-first  L = q p + r, stages 0 .. r-1 hold q + 1 layers, the rest q
 *                    (Megatron-LM's rule for a layer count p does not divide)
 *   even             q = L / p on every stage, p | L
 *   llama3           lighter first and last stage: Dubey et al. 2024 (Llama 3) §3.3.2
 *                    balance the pipeline by taking one transformer layer out of the
 *                    first and out of the last stage (126 layers on 16 stages: 7, 8 x 14,
 *                    7; wording UNVERIFIED against the paper's text).  Here L + 2 =
 *                    q p + r: the middle stages hold q, the first and the last q - 1, and
 *                    the r extra layers go one each to the middle stages 1 .. r (a last
 *                    one, when r = p - 1, to stage 0).  With p <= 2 there is no middle
 *                    stage and the rule is remainder-first.
 *
 * Layouts placed chunk by chunk (calc_layout_chunks), Megatron-Core at
 * NVIDIA/Megatron-LM d98e8a64ddf34856e74b24714e3bedb2f5a39553
 * (docs/references.md §3.7).  With n = pp v virtual stages, virtual stage g = c pp + s
 * is chunk c of stage s and the layers run in the order of g:
 *   first/last       --decoder-first/last-pipeline-num-layers (TransformerConfig
 *                    num_layers_in_first/last_pipeline_stage; __post_init__ and
 *                    transformer_block.py get_num_layers_to_build): the first (last)
 *                    stage holds f (l) layers, the other stages (L - f - l) / (pp - k)
 *                    each, k the ends given; each of f, l and the middle stages' layers
 *                    divisible by v, a stage's chunks equal.  Not with account_*.
 *   account_*        --account-for-embedding/loss-in-pipeline-split: the embedding
 *                    (loss) counts as a layer, (L + e + l) / (pp v) per virtual stage,
 *                    which must divide; virtual stage 0 (n - 1) builds one layer fewer.
 *   layout           --pipeline-model-parallel-layout (pipeline_parallel_layer_layout.py
 *                    parse_str_to_list, validate_layer_layout): '|' ends a virtual stage,
 *                    "(X)*k" and "x*k" repeat, ',' is cosmetic; E embedding (first),
 *                    t a transformer layer (L of them), m an MTP module (mtp_depth of
 *                    them, after every t, in one virtual stage, the last chunk of its
 *                    stage, not on stage 0 before its last chunk), L the loss (last);
 *                    the number of virtual stages divisible by pp, v = n / pp.
 * torchtitan's rule (pytorch/torchtitan fb3b230e, torchtitan/distributed/
 * pipeline_parallel.py generate_llm_fqn_per_model_part), first/last_stage_less_layers
 * a and b: L + a + b effective layers over the n virtual stages, q = floor / n each and
 * the first (L + a + b) mod n one more, less a on the first and b on the last; refused
 * when n > L + a + b or a or b exceeds q.
 */
#include "bounds.h"
#include "diag.h"
#include "model.h"
#include "plan.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* 1 when the layers of 'm' come from the MoE rule (experts, no explicit sequence). */
static int moe_rule(const struct calc_model *m)
{
	return m->seq.nkinds <= 0 && m->moe.experts > 0;
}

/* 1 when every layer of the MoE rule is MoE. */
static int moe_all(const struct calc_model *m)
{
	return m->moe.first_dense <= 0 && m->moe.every <= 1;
}

int calc_model_has_kinds(const struct calc_model *m)
{
	return m->seq.nruns > 0 || moe_rule(m);
}

int calc_model_layer_is_moe(const struct calc_model *m, int i)
{
	int e = m->moe.every > 1 ? m->moe.every : 1;
	return m->moe.experts > 0 && i >= m->moe.first_dense && (i + 1) % e == 0;
}

int calc_model_nkinds(const struct calc_model *m)
{
	if (m->seq.nkinds > 0)
		return m->seq.nkinds;
	if (moe_rule(m))
		return moe_all(m) ? 1 : 2;
	return 1;
}

void calc_model_kind(const struct calc_model *m, int k, struct calc_layer_kind *out)
{
	if (m->seq.nkinds > 0 && k >= 0 && k < m->seq.nkinds)
		*out = m->seq.kind[k];
	else if (moe_rule(m) && (moe_all(m) || k == 1))
		*out = (struct calc_layer_kind){CALC_LAYER_MOE, 0};
	else
		*out = (struct calc_layer_kind){CALC_LAYER_DENSE, m->ffn_hidden};
}

/* MLP parameters of width f: SwiGLU 3hf, GeLU 2hf, with biases when the model has them. */
static double mlp_params(const struct calc_model *m, double f)
{
	double h = m->hidden;
	if (m->mlp == CALC_MLP_SWIGLU)
		return 3 * h * f + (m->bias ? 2 * f + h : 0);
	return 2 * h * f + (m->bias ? f + h : 0);
}

/* Attention of one layer: its total into *all, the part TP does not shard into *rep. */
static void attn_params(const struct calc_model *m, double *all, double *rep)
{
	double h = m->hidden, a = m->heads, g = m->kv_heads;
	double d = m->head_dim > 0 ? m->head_dim : (m->heads ? h / a : 0);
	const struct calc_mla *x = &m->mla;

	if (x->kv_lora_rank > 0) {
		/* DeepSeek-V2 §2.1.2 / V3 §2.1.1: q = W_UQ RMSNorm(W_DQ h) (or W_Q h), the
		 * latent c_KV and the shared RoPE key from one down projection, keys' non-RoPE
		 * part and values up-projected from c_KV per head, and W_O */
		double dq = x->qk_nope_dim + x->qk_rope_dim, cq = x->q_lora_rank, ckv = x->kv_lora_rank;
		double down = h * (ckv + x->qk_rope_dim) + ckv; /* W_DKV, W_KR and the latent norm */
		double q = cq > 0 ? h * cq + cq + cq * a * dq : h * a * dq;
		*all = down + q + ckv * a * (x->qk_nope_dim + x->v_head_dim) + a * x->v_head_dim * h;
		/* the down projections and their norms are replicated over TP (Megatron-Core
		 * MLA builds them as duplicated linears) */
		*rep = down + (cq > 0 ? h * cq + cq : 0);
		if (m->bias)
			*all += h, *rep += h;
		return;
	}
	*all = h * a * d + 2 * h * g * d + a * d * h;
	/* gated attention (Qwen3-Next attn_output_gate; Hugging Face Qwen3NextAttention
	 * builds q_proj h x 2 a d_h, the query and the gate): one more h x a d_h, sharded
	 * by heads as the query */
	if (m->attn_gate)
		*all += h * a * d;
	*rep = 0;
	if (m->bias)
		*all += a * d + 2 * g * d + h, *rep += h;
}

int calc_layer_type_parts(enum calc_layer_type t, int *attn, int *mlp, int *mamba)
{
	*attn = *mlp = *mamba = 0;
	switch (t) { /* every kind: -Werror=switch fails the build on a new one */
	case CALC_LAYER_DENSE:
	case CALC_LAYER_MOE:
		*attn = *mlp = 1;
		return 2;
	case CALC_LAYER_MAMBA:
	case CALC_LAYER_GDN:
	case CALC_LAYER_MAMBA1:
		*mamba = 1;
		return 1;
	case CALC_LAYER_ATTN:
		*attn = 1;
		return 1;
	case CALC_LAYER_MLP:
	case CALC_LAYER_EXPERTS:
		*mlp = 1;
		return 1;
	}
	return 2;
}

int calc_layer_type_is_moe(enum calc_layer_type t)
{
	switch (t) { /* every kind: -Werror=switch fails the build on a new one */
	case CALC_LAYER_DENSE:
	case CALC_LAYER_MAMBA:
	case CALC_LAYER_GDN:
	case CALC_LAYER_MAMBA1:
	case CALC_LAYER_ATTN:
	case CALC_LAYER_MLP:
		return 0;
	case CALC_LAYER_MOE:
	case CALC_LAYER_EXPERTS:
		return 1;
	}
	return 0;
}

int calc_model_has_mamba1(const struct calc_model *m)
{
	struct calc_layer_kind kd;
	int count[CALC_MAX_KINDS];
	calc_model_kind_counts(m, count);
	for (int k = 0; k < calc_model_nkinds(m); k++) {
		calc_model_kind(m, k, &kd);
		if (kd.type == CALC_LAYER_MAMBA1 && count[k] > 0)
			return 1;
	}
	return 0;
}

int calc_model_is_hybrid(const struct calc_model *m)
{
	struct calc_layer_kind kd;
	for (int k = 0; k < calc_model_nkinds(m); k++) {
		int a, f, s;
		calc_model_kind(m, k, &kd);
		if (calc_layer_type_parts(kd.type, &a, &f, &s) == 1)
			return 1;
	}
	return 0;
}

int calc_model_set_hybrid(struct calc_model *m, char *msg, size_t nmsg)
{
	int kind_of[6] = {-1, -1, -1, -1, -1, -1}, nk = 0, nr = 0, n = 0;
	static const enum calc_layer_type types[6] = {CALC_LAYER_MAMBA, CALC_LAYER_ATTN, CALC_LAYER_MLP,
	                                              CALC_LAYER_EXPERTS, CALC_LAYER_GDN, CALC_LAYER_MAMBA1};
	struct calc_layer_seq q;

	memset(&q, 0, sizeof q);
	for (const char *c = m->hybrid; *c; c++, n++) {
		/* megatron/core/ssm/mamba_hybrid_layer_allocation.py (Symbols: MAMBA 'M',
		 * ATTENTION '*', MLP '-', MOE 'E', GDN 'G'); 'S' this project's Mamba-1 (model.h) */
		int t = *c == 'M' ? 0 : *c == '*' ? 1 : *c == '-' ? 2 : *c == 'E' ? 3 : *c == 'G' ? 4 : *c == 'S' ? 5 : -1;
		if (*c == '|') {
			snprintf(msg, nmsg, "model.hybrid_pattern = %s: layer %d is '|', a pipeline stage boundary of "
			         "Megatron-Core's --hybrid-layer-pattern, which is not read here (give the stages with "
			         "parallel.layers_per_stage)", m->hybrid, n);
			return -1;
		}
		if (*c == '/') {
			/* Megatron-Core's MTP_SEPARATOR: "<main>/<mtp>/<mtp>/...", each part after the
			 * main pattern one MTP depth of those layers (parse_hybrid_pattern,
			 * megatron/core/models/hybrid/hybrid_layer_allocation.py at d98e8a64dd) */
			snprintf(msg, nmsg, "model.hybrid_pattern = %s: layer %d is '/', Megatron-Core's separator of the "
			         "multi-token prediction layers (<main>/<mtp>/<mtp>), whose per-depth layer pattern is not "
			         "modelled (allowed: the main pattern alone, without MTP)", m->hybrid, n);
			return -1;
		}
		if (*c == 'D' || *c == '+') {
			/* Megatron-Core's Symbols DS_ATTENTION, MLA (hybrid_layer_allocation.py) */
			snprintf(msg, nmsg, "model.hybrid_pattern = %s: layer %d is %c, %s, which is not modelled in a hybrid "
			         "pattern (allowed: M Mamba-2, S Mamba-1, G gated delta-net, * attention, - MLP, E MoE)", m->hybrid, n, *c,
			         *c == 'D' ? "a DeepSeek sparse attention layer" : "an MLA attention layer");
			return -1;
		}
		if (t < 0) {
			snprintf(msg, nmsg, "model.hybrid_pattern = %s: layer %d is '%c' (allowed: M Mamba-2, S Mamba-1, G gated "
			         "delta-net, * attention, - MLP, E MoE, as Megatron-Core's hybrid_override_pattern)", m->hybrid, n, *c);
			return -1;
		}
		if (kind_of[t] < 0) {
			if (nk >= CALC_MAX_KINDS) {
				snprintf(msg, nmsg, "model.hybrid_pattern = %s has more than %d kinds of layer", m->hybrid,
				         CALC_MAX_KINDS);
				return -1;
			}
			kind_of[t] = nk;
			q.kind[nk].type = types[t];
			q.kind[nk].ffn_hidden = t == 2 ? m->ffn_hidden : 0;
			nk++;
		}
		if (nr > 0 && q.run_kind[nr - 1] == kind_of[t])
			q.run_count[nr - 1]++;
		else {
			if (nr >= CALC_MAX_RUNS) {
				snprintf(msg, nmsg, "model.hybrid_pattern = %s has more than %d runs of equal layers", m->hybrid,
				         CALC_MAX_RUNS);
				return -1;
			}
			q.run_kind[nr] = (unsigned char)kind_of[t];
			q.run_count[nr++] = 1;
		}
	}
	if (n == 0) {
		snprintf(msg, nmsg, "model.hybrid_pattern is empty");
		return -1;
	}
	q.nkinds = nk;
	q.nruns = nr;
	m->seq = q;
	return n;
}

/* Mamba-2 mixer of one layer (Megatron-Core MambaMixer, megatron/core/ssm/mamba_mixer.py
 * at d98e8a64dd; Dao & Gu 2024 §7.1): in_proj h x (2 d_i + 2 G N + H) for z, x, B, C
 * and dt (no bias), the depthwise conv1d over x, B, C (d_i + 2 G N channels, d_conv taps
 * and a bias), A_log, D and dt_bias (H each), the gated RMSNorm over d_i and out_proj
 * d_i x h; d_i = H P.  Every one of them is split over TP by heads and groups (the
 * column-parallel in_proj, "tensor_model_parallel" on the conv, A_log, D, dt_bias and
 * the norm's weight), out_proj row-parallel: nothing of the mixer is replicated. */
static double mamba_params(const struct calc_model *m)
{
	const struct calc_mamba *x = &m->mamba;
	double h = m->hidden, di = (double)x->heads * x->head_dim, gn = 2.0 * x->groups * x->state;
	return h * (2 * di + gn + x->heads) + (di + gn) * (x->conv + 1) + 3.0 * x->heads + di + di * h;
}

/* Gated delta-net mixer of one layer (Megatron-Core GatedDeltaNet,
 * megatron/core/ssm/gated_delta_net.py at e867835174; Hugging Face
 * Qwen3NextGatedDeltaNet builds the same weights as in_proj_qkvz and in_proj_ba): in_proj
 * h x (2 K + 2 V + 2 H_v) for q, k, v, the output gate z, beta and alpha (no bias), the
 * depthwise conv1d over q, k, v (2 K + V channels, 'conv' taps, conv_bias = False),
 * A_log and dt_bias (H_v each), the gated RMSNorm over one value head (d_v, the same
 * weight for every head) and out_proj V x h; K = H_k d_k, V = H_v d_v.  TP splits in_proj,
 * the conv, A_log and dt_bias by heads ("tensor_model_parallel"), out_proj row-parallel;
 * the norm's d_v weight is whole on every rank (replicated). */
static double gdn_params(const struct calc_model *m)
{
	const struct calc_gdn *x = &m->gdn;
	double h = m->hidden, K = (double)x->key_heads * x->key_dim, V = (double)x->value_heads * x->value_dim;
	return h * (2 * K + 2 * V + 2.0 * x->value_heads) + (2 * K + V) * x->conv + 2.0 * x->value_heads + x->value_dim +
	       V * h;
}

/* Mamba-1 mixer of one layer (Gu & Dao 2023 §3.4 Algorithm 2; mamba_ssm/modules/
 * mamba_simple.py at 52f57d66f8, class Mamba, and transformers' JambaMambaMixer): in_proj
 * h x 2 d_i for x and z (bias = False), the depthwise conv1d over x (d_i channels,
 * d_conv taps and a bias, conv_bias = True), x_proj d_i x (R + 2 N) for dt, B and C (no
 * bias), dt_proj R x d_i with its bias, A_log d_i x N, D d_i and out_proj d_i x h (no
 * bias); with model.mamba1_inner_norms Jamba's RMSNorms of dt, B and C, R + 2 N weights. */
static double mamba1_params(const struct calc_model *m)
{
	const struct calc_mamba1 *x = &m->mamba1;
	double h = m->hidden, di = x->inner, n = x->state, r = x->dt_rank;
	return h * 2 * di + di * (x->conv + 1) + di * (r + 2 * n) + r * di + di + di * n + di + di * h +
	       (x->inner_norms ? r + 2 * n : 0);
}

double calc_model_mixer_params(const struct calc_model *m, enum calc_layer_type t)
{
	return t == CALC_LAYER_MAMBA   ? mamba_params(m)
	       : t == CALC_LAYER_GDN   ? gdn_params(m)
	       : t == CALC_LAYER_MAMBA1 ? mamba1_params(m)
	                                : 0;
}

void calc_model_mixer(const struct calc_model *m, enum calc_layer_type t, struct calc_mixer *o)
{
	memset(o, 0, sizeof *o);
	if (t == CALC_LAYER_MAMBA) {
		/* MambaMixer: [z, x, B, C, dt] in, d_i out, conv over x, B, C; the gated norm's
		 * groups G; the scan reads x, B, C, dt and writes y */
		const struct calc_mamba *x = &m->mamba;
		double di = (double)x->heads * x->head_dim, gn = 2.0 * x->groups * x->state;
		*o = (struct calc_mixer){2 * di + gn + x->heads, di, di + gn, x->heads, x->groups, 2 * di + gn + x->heads};
	} else if (t == CALC_LAYER_GDN) {
		/* GatedDeltaNet: [q, k, v, z, beta, alpha] in, V out, conv over q, k, v; the
		 * gated norm per value head; the delta rule reads q, k, v, g, beta and writes o */
		const struct calc_gdn *x = &m->gdn;
		double K = (double)x->key_heads * x->key_dim, V = (double)x->value_heads * x->value_dim, H = x->value_heads;
		*o = (struct calc_mixer){2 * K + 2 * V + 2 * H, V, 2 * K + V, H, H, 2 * K + 2 * V + 2 * H};
	} else if (t == CALC_LAYER_MAMBA1) {
		/* Mamba: [x, z] in, d_i out, conv over x; no gated norm (z gates y inside the
		 * scan); one channel a 'head'; the selective scan reads u, delta, z, B, C and
		 * writes y (selective_scan_cuda.fwd, mamba_ssm selective_scan_interface.py) */
		const struct calc_mamba1 *x = &m->mamba1;
		double di = x->inner, n = x->state;
		*o = (struct calc_mixer){2 * di, di, di, di, 0, 4 * di + 2 * n};
	}
}

void calc_model_kind_params(const struct calc_model *m, int k, struct calc_layer_params *out)
{
	struct calc_layer_kind kd;
	double h = m->hidden, rep;
	double norm = m->norm == CALC_NORM_LAYERNORM ? 2 * h : h;

	calc_model_kind(m, k, &kd);
	attn_params(m, &out->attn, &rep);
	out->norms = 2 * norm;
	switch (kd.type) { /* every kind: -Werror=switch fails the build on a new one */
	case CALC_LAYER_DENSE:
		break;
	case CALC_LAYER_MAMBA:
		/* one block: its pre-norm (MambaLayer.norm) and the mixer, counted as 'attn'
		 * (the sequence mixer); TP replicates the norm alone */
		out->attn = mamba_params(m);
		out->mlp = out->experts = 0;
		out->norms = norm;
		out->total = out->active = out->attn + out->norms;
		out->replicated = out->norms;
		return;
	case CALC_LAYER_MAMBA1:
		/* one block: its pre-norm and the mixer, counted as 'attn' (the sequence
		 * mixer); TP is refused for it (calc_plan_validate), replicated = the norms */
		out->attn = mamba1_params(m);
		out->mlp = out->experts = 0;
		out->norms = norm;
		out->total = out->active = out->attn + out->norms;
		out->replicated = out->norms + (m->mamba1.inner_norms ? m->mamba1.dt_rank + 2.0 * m->mamba1.state : 0);
		return;
	case CALC_LAYER_GDN:
		/* one block: its pre-norm and the mixer, counted as 'attn' (the sequence
		 * mixer); TP replicates the pre-norm and the gated norm's d_v weight */
		out->attn = gdn_params(m);
		out->mlp = out->experts = 0;
		out->norms = norm;
		out->total = out->active = out->attn + out->norms;
		out->replicated = out->norms + m->gdn.value_dim;
		return;
	case CALC_LAYER_ATTN:
		/* one block: pre-norm and attention (a TransformerLayer without its MLP) */
		out->mlp = out->experts = 0;
		out->norms = norm;
		out->total = out->active = out->attn + out->norms;
		out->replicated = out->norms + rep;
		return;
	case CALC_LAYER_MLP:
		/* one block: pre-norm and the MLP (megatron/core/ssm/mlp_layer.py) */
		out->attn = 0;
		out->mlp = mlp_params(m, kd.ffn_hidden);
		out->experts = 0;
		out->norms = norm;
		out->total = out->active = out->mlp + out->norms;
		out->replicated = out->norms + (m->bias ? h : 0);
		return;
	case CALC_LAYER_MOE:
	case CALC_LAYER_EXPERTS: {
		const struct calc_moe *e = &m->moe;
		double one = mlp_params(m, e->expert_ffn);
		double shared = e->shared * mlp_params(m, e->shared_ffn > 0 ? e->shared_ffn : e->expert_ffn);
		double router = h * e->experts + (e->router_bias ? e->experts : 0) + (e->shared_gate ? h : 0);
		out->experts = e->experts * one;
		out->mlp = out->experts + shared + router;
		out->total = out->attn + out->mlp + out->norms;
		out->active = out->total - (e->experts - e->top_k) * one;
		/* the router (and a shared-expert gate) is replicated over TP; row-parallel
		 * biases of the experts are inside 'experts', sharded by EP */
		out->replicated = out->norms + rep + router + (m->bias && e->shared ? h : 0);
		if (kd.type == CALC_LAYER_EXPERTS) {
			/* one block (megatron/core/ssm/ layer 'E'): its pre-norm and the MoE, no attention */
			out->total -= out->attn + norm;
			out->active -= out->attn + norm;
			out->replicated -= rep + norm;
			out->attn = 0;
			out->norms = norm;
		}
		return;
	}
	}
	out->mlp = mlp_params(m, kd.ffn_hidden);
	out->experts = 0;
	out->total = out->attn + out->mlp + out->norms;
	out->active = out->total;
	out->replicated = out->norms + rep + (m->bias ? h : 0);
}

/* MoE layers of the MoE rule among layers [0, n): i >= first_dense, (i + 1) % e == 0. */
static int moe_below(const struct calc_model *m, int n)
{
	int e = m->moe.every > 1 ? m->moe.every : 1, fd = m->moe.first_dense > 0 ? m->moe.first_dense : 0;
	if (n <= fd)
		return 0;
	return n / e - fd / e; /* multiples of e in (fd, n] */
}

/* Layers of each kind in layers [from, from + n) of the sequence, added to count[]. */
static void count_kinds(const struct calc_model *m, int from, int n, int *count)
{
	int at = 0;
	if (moe_rule(m)) {
		int moe = moe_below(m, from + n) - moe_below(m, from);
		if (moe_all(m))
			count[0] += n;
		else
			count[0] += n - moe, count[1] += moe;
		return;
	}
	if (m->seq.nruns <= 0) {
		count[0] += n;
		return;
	}
	for (int j = 0; j < m->seq.nruns && n > 0; j++) {
		int lo = at > from ? at : from, hi = at + m->seq.run_count[j];
		if (hi > from + n)
			hi = from + n;
		if (hi > lo)
			count[m->seq.run_kind[j]] += hi - lo;
		at += m->seq.run_count[j];
	}
}

int calc_model_window_layers(const struct calc_model *m)
{
	if (m->window <= 0 || m->layers <= 0)
		return 0;
	/* layer i full when (i + 1) % N == 0: floor(L / N) full layers (Gemma 2
	 * is_sliding = not layer_idx % 2, Gemma 3 (layer_idx + 1) % sliding_window_pattern,
	 * in transformers' modeling_gemma2.py / modeling_gemma3.py) */
	return m->window_full_every > 0 ? m->layers - m->layers / m->window_full_every : m->layers;
}

double calc_model_attn_keys(const struct calc_model *m, double s, int counted)
{
	int nw = calc_model_window_layers(m), L = m->layers > 0 ? m->layers : 1;
	double w = m->window, kf = counted ? s : 0.5 * s, kw;

	if (nw <= 0)
		return kf;
	if (w >= s)
		kw = kf; /* the window covers the sequence: causal attention */
	else
		/* a query i < w sees i + 1 keys, the others w: s w - w (w - 1) / 2 pairs */
		kw = counted ? w : w * (1 - (w - 1) / (2 * s));
	return ((L - nw) * kf + nw * kw) / L;
}

void calc_model_kind_counts(const struct calc_model *m, int *count)
{
	memset(count, 0, CALC_MAX_KINDS * sizeof *count);
	count_kinds(m, 0, m->layers, count);
}

void calc_model_params(const struct calc_model *m, struct calc_params *out)
{
	double h = m->hidden;
	double norm = m->norm == CALC_NORM_LAYERNORM ? 2 * h : h;

	double active = 0;

	memset(out->kind_layers, 0, sizeof out->kind_layers);
	out->nkinds = calc_model_nkinds(m);
	count_kinds(m, 0, m->layers, out->kind_layers);
	out->layers = 0;
	for (int k = 0; k < out->nkinds; k++) {
		calc_model_kind_params(m, k, &out->kind[k]);
		out->layers += out->kind_layers[k] * out->kind[k].total;
		active += out->kind_layers[k] * out->kind[k].active;
	}
	out->attn = out->kind[0].attn;
	out->mlp = out->kind[0].mlp;
	out->norms = out->kind[0].norms;
	out->layer = out->kind[0].total;
	out->embedding = (double)m->vocab * h;
	out->position = (double)m->max_pos * h;
	out->lm_head = m->tied_embeddings ? 0 : (double)m->vocab * h;
	out->final_norm = norm;
	out->total = out->layers + out->embedding + out->position + out->lm_head + out->final_norm;
	out->active = out->total - (out->layers - active);
	out->mtp = 0;
	if (m->mtp_depth > 0) {
		/* DeepSeek-V3 §2.2: per depth a transformer block (here of the last layer's kind),
		 * the projection M in R^{h x 2h} and RMSNorms of the hidden state and of the
		 * embedding; embedding and output head shared with the main model */
		int k = calc_model_mtp_kind(m);
		out->mtp = m->mtp_depth * (out->kind[k].total + 2 * h * h + 2 * norm);
	}
}

int calc_model_mtp_kind(const struct calc_model *m)
{
	/* DeepSeek-V3 §2.2: the MTP block is a transformer block like the main model's last */
	int last = m->layers > 0 ? m->layers - 1 : 0;
	if (moe_rule(m) && !moe_all(m))
		return calc_model_layer_is_moe(m, last);
	if (m->seq.nruns > 0)
		return m->seq.run_kind[m->seq.nruns - 1];
	return 0;
}

int calc_model_set_layers(struct calc_model *m, const struct calc_layer_kind *kinds, int nkinds,
                          const int *kinds_of_run, const int *counts, int nruns, struct calc_diag *d)
{
	int L = 0;
	if (nkinds < 1 || nkinds > CALC_MAX_KINDS || nruns < 1 || nruns > CALC_MAX_RUNS)
		return calc_error(d, NULL, 0, "a model has 1 .. %d layer kinds in 1 .. %d runs (got %d kinds, %d runs)",
		                  CALC_MAX_KINDS, CALC_MAX_RUNS, nkinds, nruns);
	for (int j = 0; j < nruns; j++) {
		if (kinds_of_run[j] < 0 || kinds_of_run[j] >= nkinds || counts[j] < 1)
			return calc_error(d, NULL, 0, "layer run %d: %d layers of kind %d (kinds 0 .. %d, at least one layer)",
			                  j, counts[j], kinds_of_run[j], nkinds - 1);
		L += counts[j];
	}
	m->seq.nkinds = nkinds;
	for (int k = 0; k < nkinds; k++)
		m->seq.kind[k] = kinds[k];
	m->seq.nruns = nruns;
	for (int j = 0; j < nruns; j++) {
		m->seq.run_kind[j] = (unsigned char)kinds_of_run[j];
		m->seq.run_count[j] = counts[j];
	}
	m->layers = L;
	m->ffn_hidden = kinds[0].ffn_hidden; /* what the plan checks (TP divides it) */
	return 0;
}

static int stage_nlayers(const struct calc_plan *p, int i);

int calc_plan_has_layout(const struct calc_plan *p)
{
	return p->first_stage_layers > 0 || p->last_stage_layers > 0 || p->account_embedding || p->account_loss ||
	       p->layout[0] || p->first_less > 0 || p->last_less > 0;
}

/* parse_str_to_list's two substitutions, as re.sub runs them: every "(X)*k" (X up to
 * the first ')', not empty) becomes k copies of X, then every "x*k" k copies of x; ','
 * is dropped first.  Returns the length, or -1 when the result would not fit in 'cap'. */
static int layout_unroll(const char *in, char *out, int cap)
{
	char a[CALC_LAYOUT_MAX], b[8192];
	int n = 0;
	for (const char *s = in; *s; s++)
		if (*s != ',') {
			if (n >= (int)sizeof a - 1)
				return -1;
			a[n++] = *s;
		}
	a[n] = 0;
	for (int pass = 0; pass < 2; pass++) {
		const char *src = pass ? b : a;
		char *dst = pass ? out : b;
		int dcap = pass ? cap : (int)sizeof b, m = 0, i = 0, len = (int)strlen(src);
		while (i < len) {
			int from = i, to = -1, j;
			if (pass == 0 && src[i] == '(') { /* \(([^)]+)\)\*(\d+) */
				const char *close = strchr(src + i + 1, ')');
				if (close && close > src + i + 1 && close[1] == '*' && isdigit((unsigned char)close[2]))
					from = i + 1, to = (int)(close - src), j = to + 2;
			} else if (pass == 1 && i + 2 < len + 1 && src[i + 1] == '*' && isdigit((unsigned char)src[i + 2]))
				from = i, to = i + 1, j = i + 2; /* (.)\*(\d+) */
			if (to >= 0) {
				long k = 0;
				while (isdigit((unsigned char)src[j])) {
					k = k * 10 + (src[j++] - '0');
					if (k > 100000)
						return -1;
				}
				for (long r = 0; r < k; r++) {
					if (m + (to - from) >= dcap)
						return -1;
					memcpy(dst + m, src + from, (size_t)(to - from));
					m += to - from;
				}
				i = j;
				continue;
			}
			if (m + 1 >= dcap)
				return -1;
			dst[m++] = src[i++];
		}
		dst[m] = 0;
		n = m;
	}
	return n;
}

/* a refusal: its message formatted only for a caller that shows it (nmsg > 0; the
 * planner's checks pass none: the messages of the candidates it refuses were 1.3 % of
 * the instructions of `trainplan search --plan plans/llama3-405b-h100.ini`) */
#define LAYOUT_FAIL(k, ...) ((nmsg > 0 ? snprintf(msg, nmsg, __VA_ARGS__) : 0), *key = (k), -1)

/* The layout string of 'p' into 'out' at pp stages (v: the plan's chunks per stage). */
static int layout_string(const struct calc_plan *p, int pp, int v, struct calc_chunks *out, char *msg, size_t nmsg,
                         const char **key)
{
	char ex[8192];
	int len = layout_unroll(p->layout, ex, (int)sizeof ex), g = 0, ne = 0, nl = 0, nt = 0, nm = 0, mt_after = 0;
	int mtp = p->model.mtp_depth > 0 ? p->model.mtp_depth : 0, nonempty_first = -1;
	char last = 0;

	if (len < 0)
		return LAYOUT_FAIL("layout", "parallel.layout = %s unrolls to more than %d characters", p->layout,
		                   (int)sizeof ex - 1);
	memset(out, 0, sizeof *out);
	out->embed = out->head = out->mtp = -1;
	for (int i = 0; i <= len; i++) {
		char c = ex[i];
		if (c == '|' || c == 0) {
			if (++g > CALC_MAX_VSTAGES)
				return LAYOUT_FAIL("layout", "parallel.layout = %s has more than %d virtual stages", p->layout,
				                   CALC_MAX_VSTAGES);
			continue;
		}
		switch (c) {
		case 'E':
			if (nt || nm || nl || ne)
				return LAYOUT_FAIL("layout", "parallel.layout = %s: the embedding E must come first, once",
				                   p->layout);
			ne++, out->embed = (short)g;
			break;
		case 't':
			if (nm || nl)
				return LAYOUT_FAIL("layout", "parallel.layout = %s: a transformer layer t after the MTP "
				                   "modules m or the loss L (decoder layers must be placed before MTP layers)",
				                   p->layout);
			nt++, out->layers[g]++;
			break;
		case 'm':
			if (nl)
				return LAYOUT_FAIL("layout", "parallel.layout = %s: an MTP module m after the loss L", p->layout);
			if (nm && out->mtp != g)
				mt_after = 1;
			nm++, out->mtp = (short)g;
			break;
		case 'L':
			if (nl)
				return LAYOUT_FAIL("layout", "parallel.layout = %s: the loss L must come last, once", p->layout);
			nl++, out->head = (short)g;
			break;
		default:
			return LAYOUT_FAIL("layout", "parallel.layout = %s: '%c' is not a layer (allowed: E embedding, "
			                   "t transformer layer, m MTP module, L loss; '|' ends a virtual stage, (X)*k and "
			                   "x*k repeat, ',' is ignored)", p->layout, c);
		}
		if (nonempty_first < 0)
			nonempty_first = c;
		last = c;
	}
	if (ne != 1 || nonempty_first != 'E')
		return LAYOUT_FAIL("layout", "parallel.layout = %s: the first layer must be the embedding E, given once",
		                   p->layout);
	if (nl != 1 || last != 'L')
		return LAYOUT_FAIL("layout", "parallel.layout = %s: the last layer must be the loss L, given once", p->layout);
	if (nt != p->model.layers)
		return LAYOUT_FAIL("layout", "parallel.layout = %s holds %d transformer layers t but model.layers = %d",
		                   p->layout, nt, p->model.layers);
	if (nm != mtp)
		return LAYOUT_FAIL("layout", "parallel.layout = %s holds %d MTP modules m but model.mtp_depth = %d",
		                   p->layout, nm, mtp);
	if (mt_after)
		return LAYOUT_FAIL("layout", "parallel.layout = %s: all MTP modules m must be in one virtual stage",
		                   p->layout);
	if (pp < 1 || g % pp)
		return LAYOUT_FAIL("layout", "parallel.layout = %s has %d virtual stages, which parallel.pp = %d does not "
		                   "divide (pp x vpp virtual stages)", p->layout, g, pp);
	if (v > 0 && g / pp != v)
		return LAYOUT_FAIL("layout", "parallel.layout = %s has %d virtual stages = pp %d x %d chunks, but the plan "
		                   "runs %d chunk%s per stage (%s)", p->layout, g, pp, g / pp, v, v == 1 ? "" : "s",
		                   g / pp > 1 ? "set parallel.vpp to the chunks and parallel.schedule = interleaved"
		                              : "set parallel.vpp = 1 or a schedule without virtual stages");
	if (nm && v > 1 && out->mtp / pp != v - 1)
		return LAYOUT_FAIL("layout", "parallel.layout = %s: the MTP modules m must be in the last chunk of their "
		                   "stage (virtual stage %d is chunk %d of stage %d)", p->layout, out->mtp, out->mtp / pp,
		                   out->mtp % pp);
	if (nm && pp > 1 && out->mtp % pp == 0)
		return LAYOUT_FAIL("layout", "parallel.layout = %s: the MTP modules m may not be on the first stage",
		                   p->layout);
	v = g / pp;
	out->n = g;
	out->v = v;
	if ((long)g > CALC_MAX_VSTAGES)
		return LAYOUT_FAIL("layout", "parallel.layout = %s: at most %d virtual stages", p->layout, CALC_MAX_VSTAGES);
	if (!nm)
		out->mtp = out->head;
	return 0;
}

int calc_layout_chunks(const struct calc_plan *p, int pp, int v, struct calc_chunks *out, char *msg, size_t nmsg,
                       const char **key)
{
	int L = p->model.layers, f = p->first_stage_layers, l = p->last_stage_layers, n;

	out->n = 0;
	if (!calc_plan_has_layout(p))
		return 0;
	if (p->layout[0]) {
		if (f > 0 || l > 0 || p->account_embedding || p->account_loss || p->first_less > 0 || p->last_less > 0)
			return LAYOUT_FAIL("layout", "parallel.layout cannot be set with parallel.first_stage_layers, "
			                   "last_stage_layers, account_embedding, account_loss, first_stage_less_layers or "
			                   "last_stage_less_layers (Megatron-Core: pipeline_model_parallel_layout cannot be "
			                   "set with other pipeline layout arguments)");
		return layout_string(p, pp, v, out, msg, nmsg, key);
	}
	if ((p->first_less > 0 || p->last_less > 0) && (f > 0 || l > 0 || p->account_embedding || p->account_loss))
		return LAYOUT_FAIL(p->first_less > 0 ? "first_stage_less_layers" : "last_stage_less_layers",
		                   "parallel.first_stage_less_layers and last_stage_less_layers (torchtitan's rule) cannot "
		                   "be set with Megatron-Core's first_stage_layers, last_stage_layers, account_embedding or "
		                   "account_loss");
	if (v < 1)
		v = 1;
	if (pp < 1 || (long)pp * v > CALC_MAX_VSTAGES)
		return LAYOUT_FAIL("pp", "parallel.pp x vpp = %d x %d virtual stages: a layout placed chunk by chunk has "
		                   "at most %d", pp, v, CALC_MAX_VSTAGES);
	memset(out, 0, sizeof *out);
	n = pp * v;
	out->n = n;
	out->v = v;
	out->embed = 0;
	out->head = out->mtp = (short)(n - 1);
	if (p->first_less > 0 || p->last_less > 0) {
		/* torchtitan generate_llm_fqn_per_model_part: L + a + b effective layers, q each
		 * and the first r one more, less a on the first and b on the last */
		int a = p->first_less, b = p->last_less, eff = L + a + b, q = eff / n, r = eff % n;
		const char *k = a > 0 ? "first_stage_less_layers" : "last_stage_less_layers";
		if (n > eff || q == 0)
			return LAYOUT_FAIL(k, "parallel.first_stage_less_layers = %d, last_stage_less_layers = %d: %d virtual "
			                   "stages (pp x vpp = %d x %d) are more than the %d + %d + %d effective layers", a, b,
			                   n, pp, v, L, a, b);
		if (a > q || b > q)
			return LAYOUT_FAIL(k, "parallel.first_stage_less_layers = %d, last_stage_less_layers = %d: a weight "
			                   "exceeds the %d layers of a virtual stage (torchtitan: \"exceeds minimum layers per "
			                   "stage\")", a, b, q);
		for (int g = 0; g < n; g++)
			out->layers[g] = (short)(q + (g < r) - (g == 0 ? a : 0) - (g == n - 1 ? b : 0));
		return 0;
	}
	if (f > 0 || l > 0) {
		int mid = L, left = pp, per;
		const char *k = f > 0 ? "first_stage_layers" : "last_stage_layers";
		if (p->account_embedding || p->account_loss)
			return LAYOUT_FAIL(k, "parallel.first_stage_layers and last_stage_layers cannot be set with "
			                   "account_embedding or account_loss (Megatron-Core: \"Does not support standalone "
			                   "embedding stage and standalone loss stage with uneven pp\")");
		if (f > 0 && f % v)
			return LAYOUT_FAIL("first_stage_layers", "parallel.first_stage_layers = %d is not divisible by the "
			                   "%d chunks of a stage (vpp)", f, v);
		if (l > 0 && l % v)
			return LAYOUT_FAIL("last_stage_layers", "parallel.last_stage_layers = %d is not divisible by the "
			                   "%d chunks of a stage (vpp)", l, v);
		if (f > 0)
			mid -= f, left--;
		if (l > 0)
			mid -= l, left--;
		if (mid < 0 || (mid > 0) != (left > 0))
			return LAYOUT_FAIL(k, "parallel.first_stage_layers = %d and last_stage_layers = %d leave %d layers of "
			                   "model.layers = %d for %d middle stage%s (parallel.pp = %d)", f, l, mid, L, left,
			                   left == 1 ? "" : "s", pp);
		if (left > 0 && mid % left)
			return LAYOUT_FAIL(k, "parallel.first_stage_layers = %d and last_stage_layers = %d leave %d layers, "
			                   "which the %d middle stages do not divide (model.layers = %d, parallel.pp = %d)", f, l,
			                   mid, left, L, pp);
		per = left > 0 ? mid / left : 0;
		if (per % v)
			return LAYOUT_FAIL(k, "parallel.first_stage_layers = %d and last_stage_layers = %d leave %d layers on "
			                   "each middle stage, not divisible by the %d chunks of a stage (vpp)", f, l, per, v);
		for (int s = 0; s < pp; s++) {
			int ls = s == 0 && f > 0 ? f : s == pp - 1 && l > 0 ? l : per;
			for (int c = 0; c < v; c++)
				out->layers[c * pp + s] = (short)(ls / v);
		}
		return 0;
	}
	{
		int e = p->account_embedding ? 1 : 0, lo = p->account_loss ? 1 : 0, tot = L + e + lo;
		const char *k = e ? "account_embedding" : "account_loss";
		if (tot % n)
			return LAYOUT_FAIL(k, "parallel.account_embedding = %s, account_loss = %s: %d layers + %d = %d are not "
			                   "divisible by pp x vpp = %d x %d = %d virtual stages", e ? "yes" : "no",
			                   lo ? "yes" : "no", L, e + lo, tot, pp, v, n);
		for (int g = 0; g < n; g++)
			out->layers[g] = (short)(tot / n - (e && g == 0) - (lo && g == n - 1));
		if (out->layers[0] < 0 || out->layers[n - 1] < 0)
			return LAYOUT_FAIL(k, "parallel.account_embedding/account_loss: %d layers on %d virtual stages leave "
			                   "none to take out of the first or last", L, n);
	}
	return 0;
}

int calc_plan_chunk(struct calc_plan *p, int v, char *msg, size_t nmsg, const char **key)
{
	int pp = p->pp > 0 ? p->pp : 1;
	if (calc_layout_chunks(p, pp, v, &p->chunks, msg, nmsg, key) < 0) {
		p->chunks.n = 0;
		return -1;
	}
	if (p->chunks.n > 0 && pp <= CALC_MAX_STAGES)
		for (int i = 0; i < pp; i++)
			p->layers_per_stage[i] = stage_nlayers(p, i);
	return 0;
}

void calc_layout_describe(const struct calc_plan *p, char *buf, size_t n)
{
	buf[0] = 0;
	if (p->layout[0])
		snprintf(buf, n, "layout=%s", p->layout);
	else if (p->first_stage_layers > 0 || p->last_stage_layers > 0)
		snprintf(buf, n, "first_stage_layers=%d last_stage_layers=%d", p->first_stage_layers, p->last_stage_layers);
	else if (p->account_embedding || p->account_loss)
		snprintf(buf, n, "account_embedding=%s account_loss=%s", p->account_embedding ? "yes" : "no",
		         p->account_loss ? "yes" : "no");
	else if (p->first_less > 0 || p->last_less > 0)
		snprintf(buf, n, "first_stage_less_layers=%d last_stage_less_layers=%d", p->first_less, p->last_less);
}

/* First transformer layer of virtual stage g. */
static int chunk_from(const struct calc_chunks *ch, int g)
{
	int from = 0;
	for (int j = 0; j < g; j++)
		from += ch->layers[j];
	return from;
}

void calc_chunk_layers(const struct calc_plan *p, int g, struct calc_stage_layers *out)
{
	const struct calc_chunks *ch = &p->chunks;
	memset(out, 0, sizeof *out);
	if (g < 0 || g >= ch->n)
		return;
	out->layers = ch->layers[g];
	out->embedding = g == ch->embed;
	out->head = g == ch->head;
	out->mtp = p->model.mtp_depth > 0 && g == ch->mtp;
	if (!calc_model_has_kinds(&p->model))
		out->count[0] = out->layers;
	else
		count_kinds(&p->model, chunk_from(ch, g), out->layers, out->count);
}

/* Stage i of a chunk layout: the sum of its chunks, each counted over its own range. */
static void chunk_stage(const struct calc_plan *p, int i, struct calc_stage_layers *out)
{
	const struct calc_chunks *ch = &p->chunks;
	int pp = p->pp > 0 ? p->pp : 1;
	memset(out, 0, sizeof *out);
	for (int g = i; g < ch->n; g += pp) {
		struct calc_stage_layers c;
		calc_chunk_layers(p, g, &c);
		out->layers += c.layers;
		for (int k = 0; k < CALC_MAX_KINDS; k++)
			out->count[k] += c.count[k];
		out->embedding |= c.embedding;
		out->head |= c.head;
		out->mtp |= c.mtp;
	}
}

/* Layers of stage i: the plan's list, or with a cleared list the plan's rule. */
static int stage_nlayers(const struct calc_plan *p, int i)
{
	int pp = p->pp > 0 ? p->pp : 1, tmp[CALC_MAX_STAGES];
	if (p->chunks.n > 0) {
		int n = 0;
		for (int g = i; g < p->chunks.n; g += pp)
			n += p->chunks.layers[g];
		return n;
	}
	if (p->uneven_stages || p->layers_per_stage[i] > 0)
		return p->layers_per_stage[i];
	if (p->split == CALC_SPLIT_REMAINDER_FIRST || calc_layers_split(p->model.layers, pp, p->split, tmp, NULL) < 0)
		return p->model.layers / pp + (i < p->model.layers % pp);
	return tmp[i];
}

void calc_stage_layers(const struct calc_plan *p, int i, struct calc_stage_layers *out)
{
	int pp = p->pp > 0 ? p->pp : 1;
	if (p->chunks.n > 0) {
		chunk_stage(p, i, out);
		return;
	}
	memset(out, 0, sizeof *out);
	out->layers = stage_nlayers(p, i);
	out->embedding = i == 0;
	out->head = i == pp - 1;
	out->mtp = out->head && p->model.mtp_depth > 0;
	if (!calc_model_has_kinds(&p->model)) {
		out->count[0] = out->layers;
		return;
	}
	{
		int from = 0;
		for (int j = 0; j < i; j++)
			from += stage_nlayers(p, j);
		count_kinds(&p->model, from, out->layers, out->count);
	}
}

void calc_stage_layers_all(const struct calc_plan *p, struct calc_stage_layers *out)
{
	int pp = p->pp > 0 ? p->pp : 1, from = 0, kinds = calc_model_has_kinds(&p->model);
	for (int i = 0; i < pp && i < CALC_MAX_STAGES; i++) {
		if (p->chunks.n > 0) {
			chunk_stage(p, i, &out[i]);
			continue;
		}
		memset(&out[i], 0, sizeof out[i]);
		out[i].layers = stage_nlayers(p, i);
		out[i].embedding = i == 0;
		out[i].head = i == pp - 1;
		out[i].mtp = out[i].head && p->model.mtp_depth > 0;
		if (kinds)
			count_kinds(&p->model, from, out[i].layers, out[i].count);
		else
			out[i].count[0] = out[i].layers;
		from += out[i].layers;
	}
}

static const char *const split_names[CALC_SPLIT_N] = {"remainder-first", "even", "llama3"};

const char *calc_split_name(enum calc_split s)
{
	return s >= 0 && s < CALC_SPLIT_N ? split_names[s] : "?";
}

int calc_layers_split(int L, int p, enum calc_split policy, int *out, struct calc_diag *d)
{
	int q, r;

	if (p < 1 || p > CALC_MAX_STAGES || L < p)
		return calc_error(d, NULL, 0, "%d layers cannot be split over %d pipeline stages (1 .. %d stages, "
		                  "at most one per layer)", L, p, L < CALC_MAX_STAGES ? L : CALC_MAX_STAGES);
	if (policy == CALC_SPLIT_EVEN && L % p)
		return calc_error(d, NULL, 0, "parallel.split = even: %d stages do not divide %d layers", p, L);
	if (policy == CALC_SPLIT_LLAMA3 && p > 2) {
		q = (L + 2) / p, r = (L + 2) % p;
		for (int i = 0; i < p; i++)
			out[i] = q - (i == 0 || i == p - 1) + (i >= 1 && i <= r && i < p - 1);
		if (r == p - 1)
			out[0]++;
		if (out[0] < 1 || out[p - 1] < 1)
			return calc_error(d, NULL, 0, "parallel.split = llama3: %d layers on %d stages leave the first or "
			                  "the last stage empty", L, p);
		return 0;
	}
	q = L / p, r = L % p;
	for (int i = 0; i < p; i++)
		out[i] = q + (i < r);
	return 0;
}

int calc_stage_layers_uniform(const struct calc_plan *p)
{
	int pp = p->pp > 0 ? p->pp : 1;
	return !calc_model_has_kinds(&p->model) && !p->uneven_stages && !p->chunks.n && p->model.layers % pp == 0 &&
	       (p->split != CALC_SPLIT_LLAMA3 || pp <= 2);
}

int calc_stage_layers_heaviest(const struct calc_plan *p)
{
	int pp = p->pp > 0 ? p->pp : 1, best = -1, bn = -1;
	const int *lps = p->layers_per_stage;
	if (calc_model_has_kinds(&p->model))
		return -2;
	if (p->chunks.n > 0) {
		/* a chunk layout: the middle stages hold layers alone when the embedding is on
		 * stage 0 and the loss and MTP modules on the last (the rules; a layout string may
		 * place them elsewhere: then every stage is looked at) */
		const struct calc_chunks *ch = &p->chunks;
		if (ch->embed % pp != 0 || ch->head % pp != pp - 1 || (p->model.mtp_depth > 0 && ch->mtp % pp != pp - 1))
			return -2;
		for (int i = 1; i < pp - 1; i++) {
			int n = stage_nlayers(p, i);
			if (n > bn)
				bn = n, best = i;
		}
		return best;
	}
	if (p->uneven_stages || lps[0] > 0) { /* a filled list: read it */
		for (int i = 1; i < pp - 1; i++)
			if (lps[i] > bn)
				bn = lps[i], best = i;
		return best;
	}
	for (int i = 1; i < pp - 1; i++) {
		int n = stage_nlayers(p, i);
		if (n > bn)
			bn = n, best = i;
	}
	return best;
}
