/*
 * cmd_memory.c -- `trainplan memory`: memory per GPU for every pipeline stage.
 *
 *   trainplan memory [--plan FILE] [--set K=V]... [--format text|csv|json|md]
 *                    [--require-fit]
 * --require-fit exits with status 1 when a stage does not fit.
 */
#include "cli.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static void line(const char *name, double bytes)
{
	char gb[64], gib[64];
	calc_fmt_in(bytes, "GB", 10, 2, gb, sizeof gb);
	calc_fmt_in(bytes, "GiB", 10, 2, gib, sizeof gib);
	printf("  %-34s %s %s\n", name, gb, gib);
}

/* Every stage side by side: one row per item, one column per stage. */
static void print_stages(const struct calc_memory *m)
{
	static const struct {
		const char *name;
		size_t off;
	} rows[] = {
#define R(n, f) {n, offsetof(struct calc_mem_stage, f)}
		R("weights", weights),          R("weight copies", weight_copies), R("gradients", gradients),
		R("master weights", master),    R("optimizer states", optimizer),  R("activations", activations),
		R("  in flight (micro-batches)", inflight), R("overhead: CUDA context", ov_cuda),
		R("overhead: NCCL buffers", ov_nccl), R("overhead: workspaces", ov_workspace),
		R("overhead: fragmentation", ov_frag), R("overhead: logits transient", ov_temp),
		R("total", total),              R("headroom", headroom),
#undef R
	};
	printf("  %-30s", "stage");
	for (int i = 0; i < m->nstages; i++)
		printf(" %7d", i);
	printf("\n  %-30s", "layers");
	for (int i = 0; i < m->nstages; i++)
		printf(" %7d", m->st[i].layers);
	printf("\n");
	for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
		int count = rows[r].off == offsetof(struct calc_mem_stage, inflight);
		printf("  %-30s", rows[r].name);
		for (int i = 0; i < m->nstages; i++) {
			double v = *(const double *)((const char *)&m->st[i] + rows[r].off);
			if (count)
				printf(" %7.3g", v);
			else
				printf(" %7.2f", calc_display_value(v, "GB"));
		}
		printf("\n");
	}
}

static void print_text(const struct calc_plan *p, const struct calc_memory *m)
{
	const struct calc_mem_stage *w = &m->st[m->worst];
	struct calc_params pr;
	char buf[64];

	calc_model_params(&p->model, &pr);
	printf("plan: %s\n", p->file);
	printf("model: %s, %.2f billion parameters (%d layers, hidden %d, %d heads, %d KV heads, FFN %d %s)\n",
	       p->model.name, calc_display_value(pr.total, "billion"), p->model.layers, p->model.hidden, p->model.heads, p->model.kv_heads,
	       p->model.ffn_hidden, p->model.mlp == CALC_MLP_SWIGLU ? "SwiGLU" : "GeLU");
	if (calc_model_is_hybrid(&p->model)) {
		/* a hybrid model's layers by kind (model.hybrid_pattern, docs/references.md §5.14) */
		static const char *const what[] = {"Mamba-2", "attention", "MLP", "MoE", "gated delta-net", "Mamba-1"};
		int n[6] = {0}, count[CALC_MAX_KINDS];
		calc_model_kind_counts(&p->model, count);
		for (int k = 0; k < calc_model_nkinds(&p->model); k++) {
			struct calc_layer_kind kd;
			int at, ml, mb;
			calc_model_kind(&p->model, k, &kd);
			calc_layer_type_parts(kd.type, &at, &ml, &mb);
			n[kd.type == CALC_LAYER_GDN      ? 4
			  : kd.type == CALC_LAYER_MAMBA1 ? 5
			  : mb                           ? 0
			  : at                           ? 1
			  : kd.type == CALC_LAYER_EXPERTS ? 3
			                                 : 2] += count[k];
		}
		printf("layers:");
		for (int i = 0, c = 0; i < 6; i++)
			if (n[i] > 0)
				printf("%s %d %s", c++ ? "," : "", n[i], what[i]);
		printf(" (one block each, model.hybrid_pattern)\n");
	}
	char gb[64], gib[64];
	calc_fmt_in(p->gpu_memory, "GB", 0, 2, gb, sizeof gb);
	calc_fmt_in(p->gpu_memory, "GiB", 0, 2, gib, sizeof gib);
	printf("cluster: %d x %s (%d nodes x %d), usable %s = %s per GPU\n", calc_plan_gpus(p),
	       p->gpu.name, p->nodes, p->gpus_per_node, gb, gib);
	printf("split: tp %d, pp %d, dp %d, cp %d, vpp %d, sp %s, ZeRO-%d, recompute %s, schedule %s, "
	       "micro-batch %d, %d micro-batches\n",
	       p->tp, p->pp, p->dp, p->cp, p->vpp, p->sp ? "yes" : "no", p->zero, calc_recompute_name(p->recompute),
	       calc_schedule_name(p->schedule), p->micro_batch, calc_plan_microbatches(p));
	if (calc_plan_has_layout(p)) { /* the keys that placed the layers, chunk by chunk */
		char lay[CALC_LAYOUT_MAX + 64];
		calc_layout_describe(p, lay, sizeof lay);
		printf("layout: %s, %d virtual stages in all, %d per pipeline stage\n", lay, p->chunks.n, p->chunks.v);
	}
	printf("recipe: %s (%.4g bytes/param unsharded)\n", p->recipe->name, calc_recipe_total(p->recipe));
	printf("units: GB = 10^9 bytes, GiB = 2^30 bytes\n\n");

	printf("worst stage: %d of %d (%d layers, %.3f billion parameters per GPU)\n", m->worst, m->nstages,
	       w->layers, calc_display_value(w->params, "billion"));
	line("weights", w->weights);
	line("weight copies", w->weight_copies);
	line("gradients", w->gradients);
	line("master weights", w->master);
	line("optimizer states", w->optimizer);
	snprintf(buf, sizeof buf, "activations (in flight: %.3g mb)", w->inflight);
	line(buf, w->activations);
	line("overhead: CUDA context", w->ov_cuda);
	line("overhead: NCCL buffers", w->ov_nccl);
	line("overhead: workspaces", w->ov_workspace);
	line("overhead: fragmentation", w->ov_frag);
	line("overhead: logits transient", w->ov_temp);
	line("total", w->total);
	line("usable memory", w->capacity);
	line(w->headroom >= 0 ? "headroom" : "headroom (DOES NOT FIT)", w->headroom);
	printf("\nevery stage, per GPU (GB):\n");
	print_stages(m);
	calc_fmt_in(m->states_total, "GB", 0, 1, gb, sizeof gb);
	printf("\nwhole model: %.2f billion parameters x %.4g B = %s of model states (%s)\n",
	       calc_display_value(pr.total, "billion"), calc_recipe_total(p->recipe), gb, p->recipe->name);
	calc_fmt_in(p->gpu_memory, "GB", 0, 2, gb, sizeof gb);
	calc_fmt_in(p->gpu.memory_nominal, "GB", 0, 0, gib, sizeof gib);
	printf("GPUs needed just to hold them: %d (usable %s each, as CUDA reports it), %d (marketed %s each)\n",
	       m->states_min_gpus, gb, m->states_min_gpus_nominal, gib);
	printf("fits: %s\n", m->fits ? "yes, every stage" : "NO");
}

/* The envelope: the worst stage's breakdown as catalog quantities, then every stage.
 * Returns 0, or 2 after printing the diagnostics. */
static int print_json(struct calc_ctx *c, const struct calc_memory *m)
{
	static const char *const names[] = {
		"model.params", "memory.weights", "memory.weight_copies", "memory.gradients", "memory.master",
		"memory.optimizer", "memory.activations", "memory.overhead", "memory.total", "memory.headroom",
		"memory.fits", "memory.worst_stage", "memory.states_total", "memory.states_min_gpus",
		"memory.states_min_gpus_nominal", "gpu.memory",
	};
	static const struct {
		const char *key;
		size_t off;
		const char *unit;
	} fields[] = {
#define F(k, f, u) {k, offsetof(struct calc_mem_stage, f), u}
		F("params", params, "1"), F("weights", weights, "B"), F("weight_copies", weight_copies, "B"),
		F("gradients", gradients, "B"), F("master", master, "B"), F("optimizer", optimizer, "B"),
		F("inflight", inflight, "1"), F("activations", activations, "B"), F("overhead_cuda", ov_cuda, "B"),
		F("overhead_nccl", ov_nccl, "B"), F("overhead_workspace", ov_workspace, "B"),
		F("overhead_fragmentation", ov_frag, "B"), F("overhead_logits", ov_temp, "B"), F("total", total, "B"),
		F("headroom", headroom, "B"),
#undef F
	};
	struct cli_json j;
	struct calc_diag d = {0};
	json_t *data = json_object(), *stages = json_array();

	cli_json_begin(&j, "memory", &c->plan);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct calc_value v;
		if (calc_catalog_get(c, names[i], &v, &d) < 0) {
			json_decref(data);
			json_decref(stages);
			json_decref(j.root);
			return cli_fail(&d);
		}
		cli_json_quantity(&j, data, calc_catalog_quantity(names[i]), &v);
	}
	for (int i = 0; i < m->nstages; i++) {
		const struct calc_mem_stage *s = &m->st[i];
		json_t *o = json_object();
		cli_json_num(&j, o, "stage", s->stage, "1");
		cli_json_num(&j, o, "layers", s->layers, "1");
		for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
			cli_json_num(&j, o, fields[f].key, *(const double *)((const char *)s + fields[f].off), fields[f].unit);
		json_array_append_new(stages, o);
	}
	json_object_set_new(data, "stages", stages);
	calc_diag_free(&d);
	return cli_json_end(&j, data, stdout);
}

int cmd_memory(int argc, char **argv)
{
	struct cli_opts o;
	struct calc_plan plan;
	struct calc_memory *m;
	struct calc_diag d = {0};
	struct calc_ctx ctx;
	struct calc_table t;
	int require_fit = 0, rc;

	if ((rc = cli_parse(argc, argv, &o)))
		return rc;
	for (int i = 0; i < o.nrest; i++) {
		const char *v, *opt = cli_next("memory", &o, &i, &v);
		if (!opt)
			return 2;
		if (!*opt)
			return cli_extra("memory", v);
		if (cli_is(opt, "--require-fit"))
			require_fit = 1;
		else
			return cli_unhandled("memory", opt);
	}
	if ((rc = cli_load(&o, &plan)))
		return rc;
	calc_ctx_init(&ctx, &plan);
	if (!(m = (struct calc_memory *)calc_ctx_memory(&ctx, &d)) ||
	    calc_catalog_build(&ctx, "memory-stages", 0, NULL, &t, &d) < 0) {
		calc_ctx_free(&ctx);
		return cli_fail(&d);
	}
	switch (o.format) {
	case CALC_F_JSON: rc = print_json(&ctx, m); break;
	case CALC_F_TEXT: print_text(&plan, m); rc = 0; break;
	default: calc_table_write(&t, o.format, stdout); rc = 0; break;
	}
	if (!rc)
		rc = require_fit && !m->fits ? 1 : 0;
	calc_table_free(&t);
	calc_ctx_free(&ctx);
	return rc;
}
