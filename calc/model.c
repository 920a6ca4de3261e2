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
 * With a = g, d = h/a, f = 4h, biases and learned positions this is Narayanan et al.
 * 2021 Eq. (2): P = 12 l h^2 (1 + 13/(12h) + (V + s)/(12 l h)) plus the final
 * LayerNorm (2h), which Eq. (2) leaves out.
 */
#include "calc.h"

void calc_model_params(const struct calc_model *m, struct calc_params *out)
{
	double h = m->hidden, a = m->heads, g = m->kv_heads, f = m->ffn_hidden;
	double d = m->head_dim > 0 ? m->head_dim : (m->heads ? h / a : 0);
	double norm = m->norm == CALC_NORM_LAYERNORM ? 2 * h : h;

	out->attn = h * a * d + 2 * h * g * d + a * d * h;
	if (m->bias)
		out->attn += a * d + 2 * g * d + h;
	if (m->mlp == CALC_MLP_SWIGLU)
		out->mlp = 3 * h * f + (m->bias ? 2 * f + h : 0);
	else
		out->mlp = 2 * h * f + (m->bias ? f + h : 0);
	out->norms = 2 * norm;
	out->layer = out->attn + out->mlp + out->norms;
	out->embedding = (double)m->vocab * h;
	out->position = (double)m->max_pos * h;
	out->lm_head = m->tied_embeddings ? 0 : (double)m->vocab * h;
	out->final_norm = norm;
	out->total = m->layers * out->layer + out->embedding + out->position + out->lm_head +
	             out->final_norm;
}
