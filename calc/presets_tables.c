/*
 * presets_tables.c -- the presets and the plan keys as catalog tables, for
 * `trainplan presets` and the report's reference appendix.
 */
#include "diag.h"
#include "model.h"
#include "presets.h"
#include "recipe.h"
#include "stacks.h"
#include "plan.h"
#include "table.h"
#include "catalog.h"

#include <string.h>

static int t_models(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_model *m;
	calc_table_init(t, "model-presets", "Model presets");
	const char *cols[] = {"name", "layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "mlp", "params",
	                      "active", "experts", "source"};
	for (int c = 0; c < 12; c++)
		calc_table_col(t, cols[c], c == 8 || c == 9 ? "1" : "",
		               c == 0 || c == 7 || c == 10 || c == 11 ? CALC_D_TEXT
		               : c == 8 || c == 9                     ? CALC_D_BILLION
		                                                      : CALC_D_INT,
		               c == 8 || c == 9 ? 2 : 0);
	for (int i = 0; (m = calc_preset_model_at(i)); i++) {
		struct calc_params pr;
		int r = calc_table_row(t);
		char ex[32] = "-";
		calc_model_params(m, &pr);
		if (m->moe.experts > 0)
			snprintf(ex, sizeof ex, "%d top-%d%s", m->moe.experts, m->moe.top_k,
			         m->moe.shared > 0 ? " +shared" : "");
		calc_table_str(t, r, 0, m->name);
		calc_table_num(t, r, 1, m->layers);
		calc_table_num(t, r, 2, m->hidden);
		calc_table_num(t, r, 3, m->heads);
		calc_table_num(t, r, 4, m->kv_heads);
		calc_table_num(t, r, 5, m->moe.experts > 0 ? m->moe.expert_ffn : m->ffn_hidden);
		calc_table_num(t, r, 6, m->vocab);
		calc_table_str(t, r, 7, m->mlp == CALC_MLP_SWIGLU ? "swiglu" : "gelu");
		calc_table_num(t, r, 8, pr.total);
		calc_table_num(t, r, 9, pr.active);
		calc_table_str(t, r, 10, ex);
		calc_table_str(t, r, 11, calc_preset_model_source(m->name));
	}
	return 0;
}

static int t_gpus(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_gpu *g;
	calc_table_init(t, "gpu-presets", "GPU presets (dense tensor peaks, no sparsity)");
	calc_table_col(t, "name", "", CALC_D_TEXT, 0);
	calc_table_col(t, "memory nominal", "B", CALC_D_GB, 0);
	calc_table_col(t, "memory usable", "B", CALC_D_GIB, 2);
	calc_table_col(t, "HBM", "B/s", CALC_D_GBPS, 0);
	calc_table_col(t, "BF16 dense", "FLOP/s", CALC_D_TFLOPS, 0);
	calc_table_col(t, "FP8 dense", "FLOP/s", CALC_D_TFLOPS, 0);
	calc_table_col(t, "link per direction", "B/s", CALC_D_GBPS, 0);
	calc_table_col(t, "source", "", CALC_D_TEXT, 0);
	for (int i = 0; (g = calc_preset_gpu_at(i)); i++) {
		int r = calc_table_row(t);
		calc_table_str(t, r, 0, g->name);
		calc_table_num(t, r, 1, g->memory_nominal);
		calc_table_num(t, r, 2, g->memory_usable);
		calc_table_num(t, r, 3, g->hbm_bw);
		calc_table_num(t, r, 4, g->bf16_flops);
		if (g->fp8_flops > 0)
			calc_table_num(t, r, 5, g->fp8_flops);
		else
			calc_table_str(t, r, 5, "-");
		calc_table_num(t, r, 6, g->nvlink_bw); /* FP4 peaks: in the sources and gpu.fp4_flops */
		calc_table_str(t, r, 7, g->source);
	}
	return 0;
}

static int t_clusters(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_cluster_preset *cl;
	calc_table_init(t, "cluster-presets", "Cluster presets (bandwidths per GPU per direction)");
	calc_table_col(t, "name", "", CALC_D_TEXT, 0);
	calc_table_col(t, "gpu", "", CALC_D_TEXT, 0);
	calc_table_col(t, "GPUs/node", "", CALC_D_INT, 0);
	calc_table_col(t, "NVLink", "B/s", CALC_D_GBPS, 0);
	calc_table_col(t, "NCCL busbw in node", "B/s", CALC_D_GBPS, 0);
	calc_table_col(t, "network", "B/s", CALC_D_GBPS, 1);
	calc_table_col(t, "source", "", CALC_D_TEXT, 0);
	for (int i = 0; (cl = calc_preset_cluster_at(i)); i++) {
		int r = calc_table_row(t);
		calc_table_str(t, r, 0, cl->name);
		calc_table_str(t, r, 1, cl->gpu);
		calc_table_num(t, r, 2, cl->gpus_per_node);
		calc_table_num(t, r, 3, cl->intra_bw);
		calc_table_num(t, r, 4, cl->intra_busbw);
		calc_table_num(t, r, 5, cl->inter_bw);
		calc_table_str(t, r, 6, cl->source);
	}
	return 0;
}

static int t_recipes(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_recipe *rc;
	calc_table_init(t, "recipe-presets", "Recipes: bytes per parameter (unsharded)");
	calc_table_col(t, "name", "", CALC_D_TEXT, 0);
	calc_table_col(t, "weights", "B", CALC_D_NUM, 3);
	calc_table_col(t, "copies", "B", CALC_D_NUM, 3);
	calc_table_col(t, "grads", "B", CALC_D_NUM, 3);
	calc_table_col(t, "master", "B", CALC_D_NUM, 3);
	calc_table_col(t, "optimizer", "B", CALC_D_NUM, 3);
	calc_table_col(t, "total", "B", CALC_D_NUM, 3);
	calc_table_col(t, "what", "", CALC_D_TEXT, 0);
	for (int i = 0; (rc = calc_recipe_at(i)); i++) {
		int r = calc_table_row(t);
		calc_table_str(t, r, 0, rc->name);
		for (int k = 0; k < CALC_T_NCLASS; k++)
			calc_table_num(t, r, 1 + k, calc_recipe_bytes(rc, (enum calc_tclass)k));
		calc_table_num(t, r, 6, calc_recipe_total(rc));
		calc_table_str(t, r, 7, rc->title);
	}
	return 0;
}

/* The software stacks (stacks.c): what each sets where a plan sets nothing. */
static int t_stacks(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_stack *st;
	calc_table_init(t, "stack-presets", "Software stacks: the keys each sets where the plan sets nothing");
	calc_table_col(t, "name", "", CALC_D_TEXT, 0);
	calc_table_col(t, "sets", "", CALC_D_TEXT, 0);
	calc_table_col(t, "what", "", CALC_D_TEXT, 0);
	calc_table_col(t, "source", "", CALC_D_TEXT, 0);
	for (int i = 0; (st = calc_stack_at(i)); i++) {
		char sets[1024] = "";
		int r = calc_table_row(t);
		if (st->alias)
			snprintf(sets, sizeof sets, "= %s", st->alias);
		for (int k = 0; !st->alias && k < 12 && st->knobs[k]; k++)
			snprintf(sets + strlen(sets), sizeof sets - strlen(sets), "%s%s", k ? ", " : "", st->knobs[k]);
		calc_table_str(t, r, 0, st->name);
		calc_table_str(t, r, 1, sets);
		calc_table_str(t, r, 2, st->title);
		calc_table_str(t, r, 3, st->source);
	}
	calc_table_note(t, "A stack's keys apply where the plan file and the overrides leave a key unset; a plan "
	                   "without efficiency.stack takes megatron-core.  Sources at their commits: calc/stacks.c "
	                   "and docs/references.md §4.9-4.10.");
	return 0;
}

static int t_keys(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_key_info *k;
	calc_table_init(t, "plan-keys", "Plan keys");
	calc_table_col(t, "key", "", CALC_D_TEXT, 0);
	calc_table_col(t, "type", "", CALC_D_TEXT, 0);
	calc_table_col(t, "allowed", "", CALC_D_TEXT, 0);
	calc_table_col(t, "meaning", "", CALC_D_TEXT, 0);
	for (int i = 0; (k = calc_plan_key_at(i)); i++) {
		char name[96];
		int r = calc_table_row(t);
		snprintf(name, sizeof name, "%s.%s", k->section, k->key);
		calc_table_str(t, r, 0, name);
		calc_table_str(t, r, 1, k->type);
		calc_table_str(t, r, 2, k->range);
		calc_table_str(t, r, 3, k->meaning);
	}
	return 0;
}

const struct calc_tabledef calc_t_presets[] = {
	{"model-presets", "model presets with parameter counts and sources", "", t_models},
	{"gpu-presets", "GPU presets: memory, HBM, dense peaks, links, sources", "", t_gpus},
	{"cluster-presets", "cluster presets: GPUs per node, NVLink, NCCL busbw, network", "", t_clusters},
	{"recipe-presets", "recipes: bytes per parameter by class", "", t_recipes},
	{"stack-presets", "software stacks: the plan keys each sets", "", t_stacks},
	{"plan-keys", "every plan key with type, allowed values and meaning", "", t_keys},
	{NULL, NULL, NULL, NULL},
};
