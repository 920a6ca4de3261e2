/*
 * catalog_memory.c -- the catalog entries of the memory engine (memory.c): model and
 * memory quantities, the memory and recipe tables, the activations dataset.
 *
 * Every number comes from calc_memory and calc_memory_act_kind (memory.c) or the
 * recipe ledger (recipe.c); the formulas and their sources (Korthikanti et al. 2022,
 * Rajbhandari et al. 2020) are named there.  The plan's memory result is computed once
 * per context (calc_ctx_memory, catalog.c).
 */
#include "diag.h"
#include "model.h"
#include "recipe.h"
#include "plan.h"
#include "memory.h"
#include "table.h"
#include "catalog.h"
#include "pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================== */
/* Catalog entries                                                           */
/* ======================================================================== */

/* The plan's memory result, kept in the context's memory slot: computed once; after
 * a failure the next use computes it again (and writes the same diagnostic). */
struct mem_cache {
	int have;
	struct calc_memory m;
};

const struct calc_memory *calc_ctx_memory(struct calc_ctx *c, struct calc_diag *d)
{
	struct mem_cache *k = c->slot[CALC_SLOT_MEMORY];
	if (!k) {
		k = xmalloc(sizeof *k);
		k->have = 0;
		c->slot[CALC_SLOT_MEMORY] = k;
		c->slot_free[CALC_SLOT_MEMORY] = free;
	}
	if (!k->have) {
		if (calc_memory(&c->plan, &k->m, d) < 0)
			return NULL;
		k->have = 1;
	}
	return &k->m;
}

#define MEM(c) (&((struct mem_cache *)(c)->slot[CALC_SLOT_MEMORY])->m)
#define WORST(c) (&MEM(c)->st[MEM(c)->worst])

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
QSTAGE(q_host, host)
QSTAGE(q_params_gpu, params)

/* The parameters of one copy of the worst stage's share: memory.params_per_gpu counts
 * every copy a schedule keeps (DualPipe two, DeepSeek-V3 §3.2.1), memory.weights one. */
static int q_params_copy(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	if (need_mem(c, d) < 0)
		return -1;
	v->num = WORST(c)->params / calc_pipeline_param_copies(&c->plan);
	return 0;
}

static int q_fits(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	if (need_mem(c, d) < 0)
		return -1;
	v->num = MEM(c)->fits;
	return 0;
}
static int q_worst(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	if (need_mem(c, d) < 0)
		return -1;
	v->num = MEM(c)->worst;
	return 0;
}
static int q_states_total(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	if (need_mem(c, d) < 0)
		return -1;
	v->num = MEM(c)->states_total;
	return 0;
}
static int q_min_gpus(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	if (need_mem(c, d) < 0)
		return -1;
	v->num = MEM(c)->states_min_gpus;
	return 0;
}
static int q_min_gpus_nominal(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	if (need_mem(c, d) < 0)
		return -1;
	v->num = MEM(c)->states_min_gpus_nominal;
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
/* 1 when the plan's recipe runs its GEMMs in FP8 (and the GPU has FP8 tensor cores). */
static int q_recipe_fp8(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	v->num = c->plan.recipe && c->plan.recipe->fp8_compute && c->plan.gpu.fp8_flops > 0;
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
/* Bytes per parameter of one tensor class of the recipe; the DP reduction sends the
 * gradients and gathers the weights at these precisions (comm.c, recipe.c). */
static int q_grad_bytes(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	v->num = c->plan.recipe ? calc_recipe_bytes(c->plan.recipe, CALC_T_GRAD) : 0;
	return 0;
}
static int q_weight_bytes(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	v->num = c->plan.recipe ? calc_recipe_bytes(c->plan.recipe, CALC_T_WEIGHT) : 0;
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

/* The routed experts of the worst stage on one GPU (memory.c's terms: sharded by ep and
 * etp, ZeRO over the expert-DP group, DualPipe's copies): what = 0 parameters, 1 the
 * bytes of their states. */
static int q_expert(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d, int what)
{
	struct calc_mem_terms k;
	struct calc_stage_layers sl;
	double n;
	if (need_mem(c, d) < 0)
		return -1;
	calc_memory_terms(&c->plan, &k);
	calc_stage_layers(&c->plan, MEM(c)->worst, &sl);
	n = calc_memory_terms_stage_experts(&k, &sl);
	v->num = what == 0 ? n : n * k.copies * (k.ebw + k.ebwc + k.ebg + k.ebm + k.ebo);
	return 0;
}
static int q_expert_params(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d) { return q_expert(c, v, d, 0); }
static int q_expert_states(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d) { return q_expert(c, v, d, 1); }

const struct calc_quantity calc_q_memory[] = {
	{"model.params_per_layer", "1", "parameters of one transformer layer", q_params_layer},
	{"model.params_embedding", "1", "parameters of the embeddings and an untied LM head", q_params_emb},
	{"memory.params_per_gpu", "1", "parameters one GPU of the worst stage holds", q_params_gpu},
	{"memory.weights", "B", "weights per GPU (worst stage)", q_weights},
	{"memory.weight_copies", "B", "extra weight copies per GPU: FP8 casts, DualPipe's second copy", q_copies},
	{"memory.gradients", "B", "gradients per GPU (worst stage)", q_grads},
	{"memory.master", "B", "master weights per GPU (worst stage)", q_master},
	{"memory.optimizer", "B", "optimizer moments per GPU (worst stage)", q_opt},
	{"memory.host", "B", "host memory per GPU holding offloaded activations, master weights and optimizer states (worst stage)", q_host},
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
	{"recipe.fp8", "1", "1 when the plan's recipe runs its GEMMs in FP8 on this GPU, else 0", q_recipe_fp8},
	{"recipe.bytes_per_param_gpu", "B", "bytes per parameter held per GPU after ZeRO sharding", q_bpp_gpu},
	{"recipe.grad_bytes", "B", "bytes per parameter of the gradients (the precision the DP reduction sends)", q_grad_bytes},
	{"recipe.weight_bytes", "B", "bytes per parameter of the weights (the precision ZeRO gathers)", q_weight_bytes},
	{"memory.expert_params", "1", "routed-expert parameters one GPU of the worst stage holds (after EP and ETP)",
	 q_expert_params},
	{"memory.expert_states", "B", "model states of those routed experts per GPU (in memory.states)", q_expert_states},
	{"memory.params_per_copy", "1", "parameters of one copy of the worst stage's share per GPU (memory.params_per_gpu "
	 "over the schedule's copies: DualPipe keeps two)", q_params_copy},
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
			return calc_error_id(d, CALC_M_BAD_ARGUMENT, NULL, 0, "recipes=%s: '%s' is not a recipe (trainplan presets recipes)", v, name);
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
		if ((rs[i]->fp8_compute && p.gpu.fp8_flops <= 0) || (calc_recipe_block_scaled(rs[i]) && p.gpu.fp4_flops <= 0)) {
			/* an FP8 recipe on a GPU without FP8 tensor cores: an error when asked
			 * for by name (as the plan validator says), left out of "all" */
			if (calc_args_get(a, "recipes") && strcmp(calc_args_get(a, "recipes"), "all"))
				return calc_error(d, NULL, 0, "recipe %s computes in FP8 but %s has no %s tensor cores",
				                  rs[i]->name, p.gpu.name, calc_recipe_block_scaled(rs[i]) ? "block-scaled" : "FP8");
			continue;
		}
		m = xmalloc(sizeof *m);
		p.recipe = calc_recipe_grads(rs[i], p.main_grads);
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
		char note[320];
		int len = snprintf(note, sizeof note, "Bytes per parameter; per-GPU columns shard over the data-parallel "
		                                      "group of %d (dp x cp) ranks.", dp);
		if (c->plan.model.moe.experts > 0 && len > 0 && (size_t)len < sizeof note)
			/* the routed experts' states shard over their expert-DP group (memory.c) */
			snprintf(note + len, sizeof note - (size_t)len, " The routed experts' states shard over their "
			         "expert-data-parallel group of %d ranks instead.", c->plan.edp > 0 ? c->plan.edp : 1);
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
		calc_memory_act_kind(p, 0, (enum calc_recompute)rc, &l);
		calc_table_str(t, r, 0, calc_recompute_name((enum calc_recompute)rc));
		calc_table_num(t, r, 1, l.attn);
		calc_table_num(t, r, 2, l.scores);
		calc_table_num(t, r, 3, l.mlp);
		calc_table_num(t, r, 4, l.total);
		calc_table_num(t, r, 5, l.total / ((double)p->seq_len / p->cp * p->micro_batch * p->model.hidden));
	}
	calc_table_note(t, "MB = 10^6 bytes. 'per sbh' is the total over s*b*h, the unit of Korthikanti et al. 2022 "
	                   "Table 2 (34/t with SP and no s^2 term).");
	if (calc_model_is_hybrid(&c->plan.model)) {
		struct calc_layer_kind kd;
		int at, ml, mb;
		calc_model_kind(&c->plan.model, 0, &kd);
		calc_layer_type_parts(kd.type, &at, &ml, &mb);
		calc_table_note(t, kd.type == CALC_LAYER_GDN
		                       ? "A hybrid model: the rows are its first layer's kind, a gated delta-net layer, whose "
		                         "mixer is in the attention column (docs/references.md §5.15)."
		                   : mb ? "A hybrid model: the rows are its first layer's kind, a Mamba-2 layer, whose mixer "
		                          "is in the attention column (docs/references.md §5.14)."
		                        : "A hybrid model: the rows are its first layer's kind (model.hybrid_pattern).");
	}
	return 0;
}

/* model-params: where the parameters are. */
static int t_params(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	struct calc_params pr;
	const struct calc_model *m = &c->plan.model;
	double attn = 0, mlp = 0, norms = 0, experts = 0, mamba = 0, gdn = 0;
	calc_model_params(m, &pr);
	/* every kind of layer: n_k layers of kind k each; a Mamba-2 layer's mixer, which
	 * calc_layer_params holds in 'attn', counted apart */
	for (int k = 0; k < pr.nkinds; k++) {
		struct calc_layer_kind kd;
		int at, ml, mb;
		calc_model_kind(m, k, &kd);
		calc_layer_type_parts(kd.type, &at, &ml, &mb);
		if (kd.type == CALC_LAYER_GDN)
			gdn += pr.kind_layers[k] * pr.kind[k].attn;
		else if (mb)
			mamba += pr.kind_layers[k] * pr.kind[k].attn;
		else
			attn += pr.kind_layers[k] * pr.kind[k].attn;
		mlp += pr.kind_layers[k] * pr.kind[k].mlp;
		norms += pr.kind_layers[k] * pr.kind[k].norms;
		experts += pr.kind_layers[k] * pr.kind[k].experts;
	}
	calc_table_init(t, "model-params", "Parameters of the model");
	calc_table_col(t, "part", "", CALC_D_TEXT, 0);
	calc_table_col(t, "count", "1", CALC_D_INT, 0);
	calc_table_col(t, "share", "1", CALC_D_PCT, 2);
	struct {
		const char *name;
		double v;
	} rows[] = {
		{"attention (all layers)", attn}, {"MLP (all layers)", mlp},
		{"norms (all layers)", norms},    {"token embedding", pr.embedding},
		{"position embedding", pr.position},             {"LM head (untied)", pr.lm_head},
		{"final norm", pr.final_norm},                   {"total", pr.total},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int r = calc_table_row(t);
		calc_table_str(t, r, 0, rows[i].name);
		calc_table_num(t, r, 1, rows[i].v);
		calc_table_num(t, r, 2, rows[i].v / pr.total);
		if (i == 0 && mamba > 0) { /* a hybrid model's Mamba-2 mixers */
			r = calc_table_row(t);
			calc_table_str(t, r, 0, "Mamba-2 mixers (all layers)");
			calc_table_num(t, r, 1, mamba);
			calc_table_num(t, r, 2, mamba / pr.total);
		}
		if (i == 0 && gdn > 0) { /* a hybrid model's gated delta-net mixers */
			r = calc_table_row(t);
			calc_table_str(t, r, 0, "gated delta-net mixers (all layers)");
			calc_table_num(t, r, 1, gdn);
			calc_table_num(t, r, 2, gdn / pr.total);
		}
		if (i == 1 && m->moe.experts > 0) { /* MoE: the routed experts of the MLPs */
			r = calc_table_row(t);
			calc_table_str(t, r, 0, "of the MLP, routed experts");
			calc_table_num(t, r, 1, experts);
			calc_table_num(t, r, 2, experts / pr.total);
		}
	}
	return 0;
}

/* states-by-size: model states of common model sizes by recipe, and the GPUs of
 * the plan's type needed just to hold them (no activations).  The count divides by the
 * marketed capacity read as decimal GB (gpu.memory_nominal), the one rule of every
 * "GPUs to hold" count (memory.states_min_gpus_nominal, memory.c), so that the table
 * and the chapters give the same count for the same model. */
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
			calc_table_num(t, r, 2 + 2 * i, ceil(b / c->plan.gpu.memory_nominal));
		}
	}
	{
		char note[320];
		snprintf(note, sizeof note, "GB = 10^9 bytes. GPUs: %s counted at %.1f GB each (the marketed capacity "
		                            "read as decimal GB), model states only (no activations, no overheads).",
		         c->plan.gpu.name, c->plan.gpu.memory_nominal / 1e9);
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

/* states-vs-size: the states-by-size table as a dataset, for its figure. */
static int d_by_size(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	if (t_by_size(c, a, t, d) < 0)
		return -1;
	snprintf(t->name, sizeof t->name, "states-vs-size");
	return 0;
}

const struct calc_tabledef calc_d_memory[] = {
	{"memory-breakdown", "memory per GPU (worst stage) by recipe, for a stacked bar chart", "recipes=...",
	 t_breakdown},
	{"activations-vs-seq", "activations per GPU vs sequence length for none/selective/full recompute", "",
	 d_act_seq},
	{"memory-stages", "memory per GPU for every pipeline stage", "", t_stages},
	{"states-vs-size", "model states and minimum GPUs for 1B ... 1T parameters by recipe", "recipes=a,b,...",
	 d_by_size},
	{NULL, NULL, NULL, NULL},
};
