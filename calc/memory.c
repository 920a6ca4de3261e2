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
 * and fp32 logits terms: Korthikanti et al. 2022 §4.3.  In-flight micro-batches
 * per stage come from pipeline.c.
 * Overheads are named plan keys ([overhead]), each with its default's reason in
 * plan.c.
 */
#include "calc.h"

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
 */
static void act_layer(const struct calc_plan *p, int kind, enum calc_recompute rc, struct calc_act_layer *o)
{
	const struct calc_model *m = &p->model;
	struct calc_layer_kind kd;
	double e = p->recipe ? p->recipe->act_bytes : 2;
	double t = p->tp, r = p->sp ? p->tp : 1, cp = p->cp > 0 ? p->cp : 1;
	double s = p->seq_len / cp, b = p->micro_batch, h = m->hidden, a = m->heads, g = m->kv_heads;
	double dh = m->head_dim > 0 ? m->head_dim : h / a, f;
	double sb = s * b, mask = m->dropout ? 1 : 0;

	calc_model_kind(m, kind, &kd);
	f = kd.ffn_hidden;
	memset(o, 0, sizeof *o);
	if (rc == CALC_RC_FULL) {
		/* Korthikanti et al. 2022 §5: only the layer input, 2sbh per layer; with
		 * SP the input is the sequence-sharded residual, 2sbh/t (convention:
		 * Megatron-LM's behaviour; the paper's Table 2 lists 2sbh). */
		o->attn = e * sb * h / r;
		o->total = o->attn;
		return;
	}
	o->attn = 2 * e * sb * h / r + e * sb * (a + 2 * g) * dh / t + e * sb * a * dh / t + mask * sb * h / r;
	if (p->flash_attention)
		o->scores = 4 * a * s * b / t; /* fp32 log-sum-exp per row and head */
	else if (rc == CALC_RC_SELECTIVE)
		o->scores = 0; /* recomputed in backward (Korthikanti et al. 2022 §5) */
	else
		o->scores = (e + mask * (1 + e)) * a * s * (s * cp) * b / t; /* s/cp queries x s keys */
	/* CALC_LAYER_DENSE: one MLP of width f */
	o->mlp = 2 * e * sb * h / r + mask * sb * h / r +
	         (m->mlp == CALC_MLP_SWIGLU ? 3 : 2) * e * sb * f / t;
	o->total = o->attn + o->scores + o->mlp;
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
	for (int j = 0; j < pr->nkinds; j++)
		k->kind_params[j] = (pr->kind[j].total - pr->kind[j].replicated) / t + pr->kind[j].replicated;
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
}

void calc_memory_terms_act(const struct calc_plan *p, struct calc_mem_terms *k)
{
	const struct calc_model *m = &p->model;
	double e = p->recipe ? p->recipe->act_bytes : 2, t = p->tp, r = p->sp ? p->tp : 1;
	double s = (double)p->seq_len / (p->cp > 0 ? p->cp : 1), b = p->micro_batch, h = m->hidden, V = m->vocab;
	int nk = calc_model_nkinds(m);

	k->nkinds = nk;
	for (int j = 0; j < nk; j++) {
		struct calc_act_layer a;
		act_layer(p, j, p->recompute, &a);
		k->act[j] = a.total;
		if (p->recompute != CALC_RC_NONE)
			act_layer(p, j, CALC_RC_NONE, &a);
		k->act_full[j] = a.total;
	}
	/* token ids (int64) and embedding dropout mask (§4.3), per in-flight mb */
	k->first_act = 8 * s * b + (m->dropout ? s * b * h / r : 0);
	/* final norm input, LM-head input, fp32 logits for the loss (§4.3) */
	k->last_act = 2 * e * s * b * h / r + 4 * s * b * V / t;
	k->last_temp = 2 * s * b * V / t; /* bf16 logits before the fp32 cast */
}

void calc_memory_terms_fixed(const struct calc_plan *p, struct calc_mem_terms *k)
{
	k->fixed[0] = p->cuda_context;
	k->fixed[1] = p->nccl_buffers;
	k->fixed[2] = p->workspace;
	k->frag = p->fragmentation;
	k->capacity = p->gpu_memory;
}

void calc_memory_terms(const struct calc_plan *p, struct calc_mem_terms *k)
{
	struct calc_params pr;
	calc_model_params(&p->model, &pr);
	calc_memory_terms_params(p, &pr, k);
	calc_memory_terms_bytes(p->recipe, p->zero, p->dp * (p->cp > 0 ? p->cp : 1), k);
	k->copies = calc_pipeline_param_copies(p);
	calc_memory_terms_act(p, k);
	calc_memory_terms_fixed(p, k);
}

double calc_memory_stage_total(const struct calc_mem_terms *k, const struct calc_stage_layers *sl, double inflight,
                               struct calc_mem_stage *st)
{
	double n = calc_memory_terms_stage_params(k, sl), w, wc, g, ms, o, act = 0, extra = 0, temp = 0, states, acts, frag, peak = 0;

	w = n * k->bw;
	wc = n * k->bwc;
	g = n * k->bg * k->copies;
	ms = n * k->bm;
	o = n * k->bo;
	if (k->copies > 1) /* DualPipe (DeepSeek-V3 §3.2.1): a second copy of the weights and
	                    * of their gradients; one optimizer state (convention) */
		wc += (k->copies - 1) * (w + wc);
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
	if (sl->embedding)
		extra += inflight * k->first_act;
	if (sl->head) {
		extra += k->last_act;
		temp = k->last_temp;
	}
	acts = act + extra;
	states = w + wc + g + ms + o;
	frag = k->frag * (states + acts + temp);
	if (st) {
		st->layers = sl->layers;
		st->params = n * k->copies;
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
		st->overhead = k->fixed[0] + k->fixed[1] + k->fixed[2] + frag + temp;
		st->states = states;
		st->total = states + acts + st->overhead;
		st->capacity = k->capacity;
		st->headroom = st->capacity - st->total;
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

/* ======================================================================== */
/* Catalog entries                                                           */
/* ======================================================================== */

#define WORST(c) (&(c)->mem->st[(c)->mem->worst])

static int need_mem(struct calc_ctx *c, struct calc_diag *d)
{
	return calc_ctx_memory(c, d) ? 0 : -1;
}

#define QSTAGE(fn, field)                                                             \
	static int fn(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)      \
	{                                                                                 \
		if (need_mem(c, d) < 0)                                                   \
			return -1;                                                            \
		v->num = WORST(c)->field;                                                 \
		return 0;                                                                 \
	}
QSTAGE(q_weights, weights)
QSTAGE(q_copies, weight_copies)
QSTAGE(q_grads, gradients)
QSTAGE(q_master, master)
QSTAGE(q_opt, optimizer)
QSTAGE(q_states, states)
QSTAGE(q_act, activations)
QSTAGE(q_overhead, overhead)
QSTAGE(q_total, total)
QSTAGE(q_headroom, headroom)
QSTAGE(q_inflight, inflight)
QSTAGE(q_params_gpu, params)

static int q_fits(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	if (need_mem(c, d) < 0)
		return -1;
	v->num = c->mem->fits;
	return 0;
}
static int q_worst(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	if (need_mem(c, d) < 0)
		return -1;
	v->num = c->mem->worst;
	return 0;
}
static int q_states_total(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	if (need_mem(c, d) < 0)
		return -1;
	v->num = c->mem->states_total;
	return 0;
}
static int q_min_gpus(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	if (need_mem(c, d) < 0)
		return -1;
	v->num = c->mem->states_min_gpus;
	return 0;
}
static int q_min_gpus_nominal(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	if (need_mem(c, d) < 0)
		return -1;
	v->num = c->mem->states_min_gpus_nominal;
	return 0;
}
static int q_act_layer(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	struct calc_act_layer a;
	calc_memory_act_layer(&c->plan, &a);
	v->num = a.total;
	return 0;
}
static int q_bpp(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	v->num = calc_recipe_total(c->plan.recipe);
	return 0;
}
static int q_bpp_gpu(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	const struct calc_recipe *r = c->plan.recipe;
	int dp = c->plan.dp * c->plan.cp;
	v->num = 0;
	for (int k = 0; k < CALC_T_NCLASS; k++)
		v->num += calc_recipe_bytes_sharded(r, (enum calc_tclass)k, c->plan.zero, dp);
	return 0;
}
static int q_params(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	struct calc_params pr;
	calc_model_params(&c->plan.model, &pr);
	v->num = pr.total;
	return 0;
}
static int q_params_layer(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	struct calc_params pr;
	calc_model_params(&c->plan.model, &pr);
	v->num = pr.layer;
	return 0;
}
static int q_params_emb(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	struct calc_params pr;
	calc_model_params(&c->plan.model, &pr);
	v->num = pr.embedding + pr.lm_head + pr.position;
	return 0;
}

const struct calc_quantity calc_q_memory[] = {
	{"model.params", "1", "parameters of the whole model (a tied matrix counted once)", q_params},
	{"model.params_per_layer", "1", "parameters of one transformer layer", q_params_layer},
	{"model.params_embedding", "1", "parameters of the embeddings and an untied LM head", q_params_emb},
	{"memory.params_per_gpu", "1", "parameters one GPU of the worst stage holds", q_params_gpu},
	{"memory.weights", "B", "weights per GPU (worst stage)", q_weights},
	{"memory.weight_copies", "B", "extra weight copies per GPU: FP8 casts, DualPipe's second copy", q_copies},
	{"memory.gradients", "B", "gradients per GPU (worst stage)", q_grads},
	{"memory.master", "B", "master weights per GPU (worst stage)", q_master},
	{"memory.optimizer", "B", "optimizer moments per GPU (worst stage)", q_opt},
	{"memory.states", "B", "all model states per GPU (worst stage)", q_states},
	{"memory.activations", "B", "peak stored activations per GPU (worst stage)", q_act},
	{"memory.overhead", "B", "named overheads per GPU: CUDA, NCCL, workspace, fragmentation, logits", q_overhead},
	{"memory.total", "B", "total per GPU (worst stage)", q_total},
	{"memory.headroom", "B", "usable GPU memory minus the total (worst stage; < 0 does not fit)", q_headroom},
	{"memory.fits", "1", "1 when every stage fits in the GPU's usable memory", q_fits},
	{"memory.worst_stage", "1", "pipeline stage (0-based) with the largest total", q_worst},
	{"memory.inflight", "1", "micro-batches of activations the worst stage holds at its peak", q_inflight},
	{"memory.act_per_layer", "B", "activations of one layer for one micro-batch per GPU", q_act_layer},
	{"memory.states_total", "B", "model states of the whole model under the recipe, unsharded", q_states_total},
	{"memory.states_min_gpus", "GPUs", "GPUs needed just to hold the model states (usable memory)", q_min_gpus},
	{"memory.states_min_gpus_nominal", "GPUs", "GPUs needed just to hold the model states at the marketed capacity (80 GB = 80e9 B)",
	 q_min_gpus_nominal},
	{"recipe.bytes_per_param", "B", "bytes per parameter of the plan's recipe, unsharded", q_bpp},
	{"recipe.bytes_per_param_gpu", "B", "bytes per parameter held per GPU after ZeRO sharding", q_bpp_gpu},
	{NULL, NULL, NULL, NULL},
};

/* ---------------------------------------------------------------- tables */

/* Parse "recipes=a,b,c" (or all recipes when absent) into an array. */
static int recipe_list(const struct calc_args *a, const struct calc_recipe **out, int max, struct calc_diag *d)
{
	const char *v = calc_args_get(a, "recipes");
	int n = 0;
	if (!v || !strcmp(v, "all")) {
		for (int i = 0; calc_recipe_at(i) && n < max; i++)
			out[n++] = calc_recipe_at(i);
		return n;
	}
	while (*v && n < max) {
		char name[64];
		size_t k = strcspn(v, ",");
		snprintf(name, sizeof name, "%.*s", (int)k, v);
		out[n] = calc_recipe_find(name);
		if (!out[n])
			return calc_error(d, NULL, 0, "recipes=%s: '%s' is not a recipe (trainplan presets recipes)", v, name);
		n++;
		v += k + (v[k] == ',');
	}
	return n;
}

static void breakdown_cols(struct calc_table *t, int first_text)
{
	calc_table_col(t, first_text ? "recipe" : "stage", "", first_text ? CALC_D_TEXT : CALC_D_INT, 0);
	calc_table_col(t, "weights", "B", CALC_D_GB, 1);
	calc_table_col(t, "weight_copies", "B", CALC_D_GB, 1);
	calc_table_col(t, "gradients", "B", CALC_D_GB, 1);
	calc_table_col(t, "master", "B", CALC_D_GB, 1);
	calc_table_col(t, "optimizer", "B", CALC_D_GB, 1);
	calc_table_col(t, "activations", "B", CALC_D_GB, 1);
	calc_table_col(t, "overhead", "B", CALC_D_GB, 1);
	calc_table_col(t, "total", "B", CALC_D_GB, 1);
	calc_table_col(t, "capacity", "B", CALC_D_GB, 1);
}

static void breakdown_row(struct calc_table *t, const struct calc_mem_stage *st)
{
	int r = t->nrows - 1;
	calc_table_num(t, r, 1, st->weights);
	calc_table_num(t, r, 2, st->weight_copies);
	calc_table_num(t, r, 3, st->gradients);
	calc_table_num(t, r, 4, st->master);
	calc_table_num(t, r, 5, st->optimizer);
	calc_table_num(t, r, 6, st->activations);
	calc_table_num(t, r, 7, st->overhead);
	calc_table_num(t, r, 8, st->total);
	calc_table_num(t, r, 9, st->capacity);
}

/* memory-breakdown: the worst stage per recipe ("recipes=" chooses them). */
static int t_breakdown(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_recipe *rs[16];
	int n = recipe_list(a, rs, 16, d);
	if (n < 0)
		return -1;
	calc_table_init(t, "memory-breakdown", "Memory per GPU (worst pipeline stage) by recipe");
	breakdown_cols(t, 1);
	for (int i = 0; i < n; i++) {
		struct calc_plan p = c->plan;
		struct calc_memory *m;
		if (rs[i]->fp8_compute && p.gpu.fp8_flops <= 0) {
			/* an FP8 recipe on a GPU without FP8 tensor cores: an error when asked
			 * for by name (as the plan validator says), left out of "all" */
			if (calc_args_get(a, "recipes") && strcmp(calc_args_get(a, "recipes"), "all"))
				return calc_error(d, NULL, 0, "recipe %s computes in FP8 but %s has no FP8 tensor cores",
				                  rs[i]->name, p.gpu.name);
			continue;
		}
		m = xmalloc(sizeof *m);
		p.recipe = rs[i];
		snprintf(p.recipe_name, sizeof p.recipe_name, "%s", rs[i]->name);
		if (calc_memory(&p, m, d) < 0) {
			free(m);
			return -1;
		}
		calc_table_row(t);
		calc_table_str(t, t->nrows - 1, 0, rs[i]->name);
		breakdown_row(t, &m->st[m->worst]);
		free(m);
	}
	calc_table_note(t, "GB = 10^9 bytes. Worst stage of the plan's split; overhead = CUDA context, NCCL buffers, "
	                   "workspaces, fragmentation and the logits transient.");
	return 0;
}

/* memory-stages: every pipeline stage of the plan. */
static int t_stages(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_memory *m = calc_ctx_memory(c, d);
	if (!m)
		return -1;
	calc_table_init(t, "memory-stages", "Memory per GPU for every pipeline stage");
	calc_table_col(t, "stage", "", CALC_D_INT, 0);
	calc_table_col(t, "layers", "", CALC_D_INT, 0);
	calc_table_col(t, "params", "1", CALC_D_BILLION, 2);
	calc_table_col(t, "weights", "B", CALC_D_GB, 1);
	calc_table_col(t, "weight_copies", "B", CALC_D_GB, 1);
	calc_table_col(t, "gradients", "B", CALC_D_GB, 1);
	calc_table_col(t, "master", "B", CALC_D_GB, 1);
	calc_table_col(t, "optimizer", "B", CALC_D_GB, 1);
	calc_table_col(t, "inflight", "1", CALC_D_NUM, 3);
	calc_table_col(t, "activations", "B", CALC_D_GB, 1);
	calc_table_col(t, "cuda_context", "B", CALC_D_GB, 2);
	calc_table_col(t, "nccl_buffers", "B", CALC_D_GB, 2);
	calc_table_col(t, "workspace", "B", CALC_D_GB, 2);
	calc_table_col(t, "fragmentation", "B", CALC_D_GB, 2);
	calc_table_col(t, "logits_transient", "B", CALC_D_GB, 2);
	calc_table_col(t, "overhead", "B", CALC_D_GB, 1);
	calc_table_col(t, "total", "B", CALC_D_GB, 1);
	calc_table_col(t, "headroom", "B", CALC_D_GB, 1);
	for (int i = 0; i < m->nstages; i++) {
		const struct calc_mem_stage *st = &m->st[i];
		int r = calc_table_row(t);
		double v[] = {st->stage,     st->layers,  st->params,       st->weights,     st->weight_copies,
		              st->gradients, st->master,  st->optimizer,    st->inflight,    st->activations,
		              st->ov_cuda,   st->ov_nccl, st->ov_workspace, st->ov_frag,     st->ov_temp,
		              st->overhead,  st->total,   st->headroom};
		for (int k = 0; k < (int)(sizeof v / sizeof v[0]); k++)
			calc_table_num(t, r, k, v[k]);
	}
	calc_table_note(t, "GB = 10^9 bytes; params in billions per GPU; inflight = micro-batches of activations held "
	                   "at the stage's peak; overhead = CUDA context + NCCL buffers + workspace + fragmentation + "
	                   "the logits transient.");
	return 0;
}

/* recipe-ledger: every tensor class of the chosen recipes. */
static int t_ledger(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_recipe *rs[16];
	int n;
	if (calc_args_get(a, "recipes")) {
		if ((n = recipe_list(a, rs, 16, d)) < 0)
			return -1;
	} else {
		rs[0] = c->plan.recipe;
		n = 1;
	}
	calc_table_init(t, "recipe-ledger", "Bytes per parameter by tensor class");
	calc_table_col(t, "recipe", "", CALC_D_TEXT, 0);
	calc_table_col(t, "tensor", "", CALC_D_TEXT, 0);
	calc_table_col(t, "dtype", "", CALC_D_TEXT, 0);
	calc_table_col(t, "bytes/param", "B", CALC_D_NUM, 3);
	calc_table_col(t, "sharded from ZeRO", "", CALC_D_INT, 0);
	calc_table_col(t, "source", "", CALC_D_TEXT, 0);
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < rs[i]->nitems; k++) {
			const struct calc_recipe_item *it = &rs[i]->items[k];
			int r = calc_table_row(t);
			calc_table_str(t, r, 0, rs[i]->name);
			calc_table_str(t, r, 1, it->tensor);
			calc_table_str(t, r, 2, it->dtype);
			calc_table_num(t, r, 3, it->bytes);
			calc_table_num(t, r, 4, it->zero_stage);
			calc_table_str(t, r, 5, it->source);
		}
		int r = calc_table_row(t);
		calc_table_str(t, r, 0, rs[i]->name);
		calc_table_str(t, r, 1, "total");
		calc_table_str(t, r, 2, "");
		calc_table_num(t, r, 3, calc_recipe_total(rs[i]));
		calc_table_str(t, r, 4, "");
		calc_table_str(t, r, 5, rs[i]->note);
	}
	return 0;
}

/* recipe-summary: bytes per parameter by class and per GPU under ZeRO 0-3. */
static int t_recipes(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_recipe *rs[16];
	int n = recipe_list(a, rs, 16, d), dp = c->plan.dp * c->plan.cp;
	if (n < 0)
		return -1;
	calc_table_init(t, "recipe-summary", "Bytes per parameter by recipe, and per GPU under each ZeRO stage");
	calc_table_col(t, "recipe", "", CALC_D_TEXT, 0);
	calc_table_col(t, "weights", "B", CALC_D_NUM, 3);
	calc_table_col(t, "copies", "B", CALC_D_NUM, 3);
	calc_table_col(t, "gradients", "B", CALC_D_NUM, 3);
	calc_table_col(t, "master", "B", CALC_D_NUM, 3);
	calc_table_col(t, "optimizer", "B", CALC_D_NUM, 3);
	calc_table_col(t, "total", "B", CALC_D_NUM, 3);
	for (int z = 0; z <= 3; z++) {
		char name[32];
		snprintf(name, sizeof name, "ZeRO-%d per GPU", z);
		calc_table_col(t, name, "B", CALC_D_NUM, 3);
	}
	for (int i = 0; i < n; i++) {
		int r = calc_table_row(t);
		calc_table_str(t, r, 0, rs[i]->name);
		for (int k = 0; k < CALC_T_NCLASS; k++)
			calc_table_num(t, r, 1 + k, calc_recipe_bytes(rs[i], (enum calc_tclass)k));
		calc_table_num(t, r, 6, calc_recipe_total(rs[i]));
		for (int z = 0; z <= 3; z++) {
			double s = 0;
			for (int k = 0; k < CALC_T_NCLASS; k++)
				s += calc_recipe_bytes_sharded(rs[i], (enum calc_tclass)k, z, dp);
			calc_table_num(t, r, 7 + z, s);
		}
	}
	{
		char note[160];
		snprintf(note, sizeof note, "Bytes per parameter; per-GPU columns shard over the data-parallel group of "
		                            "%d (dp x cp) ranks.", dp);
		calc_table_note(t, note);
	}
	return 0;
}

/* activation-terms: one layer, one micro-batch, under each recomputation. */
static int t_act(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	calc_table_init(t, "activation-terms", "Activations of one layer for one micro-batch per GPU");
	calc_table_col(t, "recompute", "", CALC_D_TEXT, 0);
	calc_table_col(t, "attention", "B", CALC_D_MB, 1);
	calc_table_col(t, "scores (s^2)", "B", CALC_D_MB, 1);
	calc_table_col(t, "MLP", "B", CALC_D_MB, 1);
	calc_table_col(t, "total", "B", CALC_D_MB, 1);
	calc_table_col(t, "per sbh", "1", CALC_D_NUM, 4);
	for (int rc = 0; rc <= CALC_RC_FULL; rc++) {
		struct calc_act_layer l;
		int r = calc_table_row(t);
		const struct calc_plan *p = &c->plan;
		act_layer(p, 0, (enum calc_recompute)rc, &l);
		calc_table_str(t, r, 0, calc_recompute_name((enum calc_recompute)rc));
		calc_table_num(t, r, 1, l.attn);
		calc_table_num(t, r, 2, l.scores);
		calc_table_num(t, r, 3, l.mlp);
		calc_table_num(t, r, 4, l.total);
		calc_table_num(t, r, 5, l.total / ((double)p->seq_len / p->cp * p->micro_batch * p->model.hidden));
	}
	calc_table_note(t, "MB = 10^6 bytes. 'per sbh' is the total over s*b*h, the unit of Korthikanti et al. 2022 "
	                   "Table 2 (34/t with SP and no s^2 term).");
	return 0;
}

/* model-params: where the parameters are. */
static int t_params(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	struct calc_params pr;
	const struct calc_model *m = &c->plan.model;
	calc_model_params(m, &pr);
	calc_table_init(t, "model-params", "Parameters of the model");
	calc_table_col(t, "part", "", CALC_D_TEXT, 0);
	calc_table_col(t, "count", "1", CALC_D_INT, 0);
	calc_table_col(t, "share", "1", CALC_D_PCT, 2);
	struct {
		const char *name;
		double v;
	} rows[] = {
		{"attention (all layers)", pr.attn * m->layers}, {"MLP (all layers)", pr.mlp * m->layers},
		{"norms (all layers)", pr.norms * m->layers},    {"token embedding", pr.embedding},
		{"position embedding", pr.position},             {"LM head (untied)", pr.lm_head},
		{"final norm", pr.final_norm},                   {"total", pr.total},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int r = calc_table_row(t);
		calc_table_str(t, r, 0, rows[i].name);
		calc_table_num(t, r, 1, rows[i].v);
		calc_table_num(t, r, 2, rows[i].v / pr.total);
	}
	return 0;
}

/* states-by-size: model states of common model sizes by recipe, and the GPUs of
 * the plan's type needed just to hold them (usable memory, no activations). */
static int t_by_size(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	static const double sizes[] = {1e9, 7e9, 13e9, 70e9, 175e9, 405e9, 1e12};
	static const struct calc_args def = {1, {"recipes"}, {"seed,zero-paper,megatron,fp8-lm"}};
	const struct calc_recipe *rs[8];
	int n = recipe_list(calc_args_get(a, "recipes") ? a : &def, rs, 8, d);
	if (n < 0)
		return -1;
	calc_table_init(t, "states-by-size", "Model-state memory and the GPUs needed to hold it, by model size");
	calc_table_col(t, "parameters", "1", CALC_D_BILLION, 0);
	for (int i = 0; i < n; i++) {
		char name[48];
		snprintf(name, sizeof name, "%s", rs[i]->name);
		calc_table_col(t, name, "B", CALC_D_GB, 0);
		snprintf(name, sizeof name, "%s GPUs", rs[i]->name);
		calc_table_col(t, name, "GPUs", CALC_D_INT, 0);
	}
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		int r = calc_table_row(t);
		calc_table_num(t, r, 0, sizes[k]);
		for (int i = 0; i < n; i++) {
			double b = sizes[k] * calc_recipe_total(rs[i]);
			calc_table_num(t, r, 1 + 2 * i, b);
			calc_table_num(t, r, 2 + 2 * i, ceil(b / c->plan.gpu_memory));
		}
	}
	{
		char note[200];
		snprintf(note, sizeof note, "GB = 10^9 bytes. GPUs: %s with %.1f GB usable each, model states only "
		                            "(no activations, no overheads).", c->plan.gpu.name, c->plan.gpu_memory / 1e9);
		calc_table_note(t, note);
	}
	return 0;
}

const struct calc_tabledef calc_t_memory[] = {
	{"states-by-size", "model states and minimum GPUs for 1B ... 1T parameters by recipe", "recipes=a,b,...",
	 t_by_size},
	{"memory-breakdown", "memory per GPU (worst stage) by recipe", "recipes=a,b,... (default all)", t_breakdown},
	{"memory-stages", "memory per GPU for every pipeline stage", "", t_stages},
	{"recipe-ledger", "bytes per parameter by tensor class, dtype, ZeRO stage and source",
	 "recipes=a,b,... (default the plan's)", t_ledger},
	{"recipe-summary", "bytes per parameter by recipe and per GPU under ZeRO 0-3", "recipes=a,b,...", t_recipes},
	{"activation-terms", "activations of one layer per micro-batch under none/selective/full recompute", "", t_act},
	{"model-params", "parameter count by part of the model", "", t_params},
	{NULL, NULL, NULL, NULL},
};

/* ---------------------------------------------------------------- datasets */

/* activations-vs-seq: peak activations per GPU (worst stage) vs sequence length. */
static int d_act_seq(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	struct calc_memory *m = xmalloc(sizeof *m);
	calc_table_init(t, "activations-vs-seq", "Activation memory per GPU vs sequence length");
	calc_table_col(t, "seq_len", "", CALC_D_INT, 0);
	calc_table_col(t, "none", "B", CALC_D_GIB, 2);
	calc_table_col(t, "selective", "B", CALC_D_GIB, 2);
	calc_table_col(t, "full", "B", CALC_D_GIB, 2);
	calc_table_col(t, "budget", "B", CALC_D_GIB, 2);
	calc_table_col(t, "capacity", "B", CALC_D_GIB, 2);
	for (int s = 512; s <= 32768; s *= 2) {
		int r = calc_table_row(t);
		double budget = 0;
		calc_table_num(t, r, 0, s);
		for (int rc = 0; rc <= CALC_RC_FULL; rc++) {
			struct calc_plan p = c->plan;
			p.seq_len = s;
			p.recompute = (enum calc_recompute)rc;
			if (calc_memory(&p, m, d) < 0) {
				free(m);
				return -1;
			}
			const struct calc_mem_stage *st = &m->st[0]; /* stage 0 holds the most micro-batches */
			double worst = 0;
			for (int i = 0; i < m->nstages; i++)
				if (m->st[i].activations > worst)
					worst = m->st[i].activations, st = &m->st[i];
			calc_table_num(t, r, 1 + rc, worst);
			budget = st->capacity - st->states - (st->overhead - st->ov_frag);
		}
		calc_table_num(t, r, 4, budget);
		calc_table_num(t, r, 5, c->plan.gpu_memory);
	}
	free(m);
	calc_table_note(t, "budget = usable memory minus model states and fixed overheads of the stage with the most "
	                   "activations.");
	return 0;
}

const struct calc_tabledef calc_d_memory[] = {
	{"memory-breakdown", "memory per GPU (worst stage) by recipe, for a stacked bar chart", "recipes=...",
	 t_breakdown},
	{"activations-vs-seq", "activations per GPU vs sequence length for none/selective/full recompute", "",
	 d_act_seq},
	{"memory-stages", "memory per GPU for every pipeline stage", "", t_stages},
	{NULL, NULL, NULL, NULL},
};
