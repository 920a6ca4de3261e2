/*
 * cmd_presets.c -- `trainplan presets [models|gpus|clusters|recipes|keys]`.
 */
#include "cli.h"

#include <string.h>

static void models(struct calc_table *t)
{
	const struct calc_model *m;
	calc_table_init(t, "models", "Model presets");
	const char *cols[] = {"name", "layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "mlp", "params", "source"};
	for (int c = 0; c < 10; c++)
		calc_table_col(t, cols[c], c == 8 ? "1" : "", c == 0 || c == 7 || c == 9 ? CALC_D_TEXT
		                                       : c == 8                       ? CALC_D_BILLION
		                                                                      : CALC_D_INT,
		               c == 8 ? 2 : 0);
	snprintf(t->cols[8].name, sizeof t->cols[8].name, "params");
	for (int i = 0; (m = calc_preset_model_at(i)); i++) {
		struct calc_params pr;
		int r = calc_table_row(t);
		calc_model_params(m, &pr);
		calc_table_str(t, r, 0, m->name);
		calc_table_num(t, r, 1, m->layers);
		calc_table_num(t, r, 2, m->hidden);
		calc_table_num(t, r, 3, m->heads);
		calc_table_num(t, r, 4, m->kv_heads);
		calc_table_num(t, r, 5, m->ffn_hidden);
		calc_table_num(t, r, 6, m->vocab);
		calc_table_str(t, r, 7, m->mlp == CALC_MLP_SWIGLU ? "swiglu" : "gelu");
		calc_table_num(t, r, 8, pr.total);
		calc_table_str(t, r, 9, calc_preset_model_source(m->name));
	}
}

static void gpus(struct calc_table *t)
{
	const struct calc_gpu *g;
	calc_table_init(t, "gpus", "GPU presets (dense tensor peaks, no sparsity)");
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
		calc_table_num(t, r, 6, g->nvlink_bw);
		calc_table_str(t, r, 7, g->source);
	}
}

static void clusters(struct calc_table *t)
{
	const struct calc_cluster_preset *c;
	calc_table_init(t, "clusters", "Cluster presets (bandwidths per GPU per direction)");
	calc_table_col(t, "name", "", CALC_D_TEXT, 0);
	calc_table_col(t, "gpu", "", CALC_D_TEXT, 0);
	calc_table_col(t, "GPUs/node", "", CALC_D_INT, 0);
	calc_table_col(t, "NVLink", "B/s", CALC_D_GBPS, 0);
	calc_table_col(t, "NCCL busbw in node", "B/s", CALC_D_GBPS, 0);
	calc_table_col(t, "network", "B/s", CALC_D_GBPS, 1);
	calc_table_col(t, "source", "", CALC_D_TEXT, 0);
	for (int i = 0; (c = calc_preset_cluster_at(i)); i++) {
		int r = calc_table_row(t);
		calc_table_str(t, r, 0, c->name);
		calc_table_str(t, r, 1, c->gpu);
		calc_table_num(t, r, 2, c->gpus_per_node);
		calc_table_num(t, r, 3, c->intra_bw);
		calc_table_num(t, r, 4, c->intra_busbw);
		calc_table_num(t, r, 5, c->inter_bw);
		calc_table_str(t, r, 6, c->source);
	}
}

static void recipes(struct calc_table *t)
{
	const struct calc_recipe *rc;
	calc_table_init(t, "recipes", "Recipes: bytes per parameter (unsharded)");
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
}

static void keys(struct calc_table *t)
{
	const struct calc_key_info *k;
	calc_table_init(t, "keys", "Plan keys");
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
}

int cmd_presets(int argc, char **argv)
{
	struct cli_opts o;
	struct calc_table t;
	static const struct {
		const char *name;
		void (*fn)(struct calc_table *);
	} kinds[] = {{"models", models}, {"gpus", gpus}, {"clusters", clusters}, {"recipes", recipes}, {"keys", keys}};
	int rc, shown = 0;

	if ((rc = cli_parse(argc, argv, &o)))
		return rc;
	for (int i = 0; i < o.nrest; i++) {
		int ok = 0;
		for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
			ok |= !strcmp(o.rest[i], kinds[k].name);
		if (!ok)
			return cli_error("presets: unknown kind '%s' (allowed: models, gpus, clusters, recipes, keys)",
			                 o.rest[i]);
	}
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		int want = o.nrest == 0 && strcmp(kinds[k].name, "keys");
		for (int i = 0; i < o.nrest; i++)
			want |= !strcmp(o.rest[i], kinds[k].name);
		if (!want)
			continue;
		if (shown++ && o.format == CALC_F_TEXT)
			printf("\n");
		kinds[k].fn(&t);
		calc_table_write(&t, o.format, stdout);
		calc_table_free(&t);
	}
	return 0;
}
