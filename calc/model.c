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
 */
#include "calc.h"

#include <stddef.h>
#include <string.h>

int calc_model_nkinds(const struct calc_model *m)
{
	return m->seq.nkinds > 0 ? m->seq.nkinds : 1;
}

void calc_model_kind(const struct calc_model *m, int k, struct calc_layer_kind *out)
{
	if (m->seq.nkinds > 0 && k >= 0 && k < m->seq.nkinds)
		*out = m->seq.kind[k];
	else
		*out = (struct calc_layer_kind){CALC_LAYER_DENSE, m->ffn_hidden};
}

void calc_model_kind_params(const struct calc_model *m, int k, struct calc_layer_params *out)
{
	struct calc_layer_kind kd;
	double h = m->hidden, a = m->heads, g = m->kv_heads, f;
	double d = m->head_dim > 0 ? m->head_dim : (m->heads ? h / a : 0);
	double norm = m->norm == CALC_NORM_LAYERNORM ? 2 * h : h;

	calc_model_kind(m, k, &kd);
	f = kd.ffn_hidden;
	out->attn = h * a * d + 2 * h * g * d + a * d * h;
	if (m->bias)
		out->attn += a * d + 2 * g * d + h;
	/* CALC_LAYER_DENSE: one MLP */
	if (m->mlp == CALC_MLP_SWIGLU)
		out->mlp = 3 * h * f + (m->bias ? 2 * f + h : 0);
	else
		out->mlp = 2 * h * f + (m->bias ? f + h : 0);
	out->norms = 2 * norm;
	out->total = out->attn + out->mlp + out->norms;
	out->replicated = out->norms + (m->bias ? 2 * h : 0);
}

/* Layers of each kind in layers [from, from + n) of the sequence, added to count[]. */
static void count_kinds(const struct calc_model *m, int from, int n, int *count)
{
	int at = 0;
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

void calc_model_params(const struct calc_model *m, struct calc_params *out)
{
	double h = m->hidden;
	double norm = m->norm == CALC_NORM_LAYERNORM ? 2 * h : h;

	memset(out->kind_layers, 0, sizeof out->kind_layers);
	out->nkinds = calc_model_nkinds(m);
	count_kinds(m, 0, m->layers, out->kind_layers);
	out->layers = 0;
	for (int k = 0; k < out->nkinds; k++) {
		calc_model_kind_params(m, k, &out->kind[k]);
		out->layers += out->kind_layers[k] * out->kind[k].total;
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

/* Layers of stage i: the plan's list, or with a cleared list the plan's rule. */
static int stage_nlayers(const struct calc_plan *p, int i)
{
	int pp = p->pp > 0 ? p->pp : 1, tmp[CALC_MAX_STAGES];
	if (p->uneven_stages || p->layers_per_stage[i] > 0)
		return p->layers_per_stage[i];
	if (p->split == CALC_SPLIT_REMAINDER_FIRST || calc_layers_split(p->model.layers, pp, p->split, tmp, NULL) < 0)
		return p->model.layers / pp + (i < p->model.layers % pp);
	return tmp[i];
}

void calc_stage_layers(const struct calc_plan *p, int i, struct calc_stage_layers *out)
{
	int pp = p->pp > 0 ? p->pp : 1;
	memset(out, 0, sizeof *out);
	out->layers = stage_nlayers(p, i);
	out->embedding = i == 0;
	out->head = i == pp - 1;
	if (p->model.seq.nruns <= 0) {
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
	return p->model.seq.nruns <= 0 && !p->uneven_stages && p->model.layers % pp == 0 &&
	       (p->split != CALC_SPLIT_LLAMA3 || pp <= 2);
}

int calc_stage_layers_heaviest(const struct calc_plan *p)
{
	int pp = p->pp > 0 ? p->pp : 1, best = -1, bn = -1;
	const int *lps = p->layers_per_stage;
	if (p->model.seq.nruns > 0)
		return -2;
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
