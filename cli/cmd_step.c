/*
 * cmd_step.c -- `trainplan step`: step time breakdown (compute, recomputation, TP
 * communication, pipeline bubble, exposed DP communication, optimizer), MFU / HFU,
 * throughput and the run totals for the plan's token budget.
 *
 *   trainplan step [--plan FILE] [--set K=V]... [--format text|csv|json|md|tsv]
 *                  [--table step|step-summary|step-moe]
 * JSON prints every step.* and run.* catalog quantity in SI units.  Two tables, step
 * (the breakdown) and step-summary (throughput and run totals): text and Markdown
 * print both, CSV and TSV one per stream, the first unless --table names the other.
 */
#include "cli.h"
#include "../calc/search.h"

#include <stdio.h>
#include <string.h>

/* The envelope with every step.* and run.* quantity by catalog name.  Returns 0, -1
 * with a diagnostic, or 2 after an error message. */
static int print_json(struct calc_ctx *c, struct calc_diag *d)
{
	struct cli_json j;
	json_t *data = json_object();
	cli_json_begin(&j, "step", &c->plan);
	for (int i = 0; calc_q_step[i].name; i++) {
		struct calc_value v = {0};
		if (calc_q_step[i].get(c, &v, d) < 0) {
			json_decref(data);
			json_decref(j.root);
			return -1;
		}
		cli_json_quantity(&j, data, &calc_q_step[i], &v);
	}
	if (cli_fit(c, CALC_F_JSON, &j, data, d) < 0) {
		json_decref(data);
		json_decref(j.root);
		return -1;
	}
	return cli_json_end(&j, data, stdout);
}

int cmd_step(int argc, char **argv)
{
	struct cli_opts o;
	struct calc_plan plan;
	struct calc_ctx c;
	struct calc_table t, s, moe = {0};
	struct calc_diag d = {0};
	const struct calc_step *st;
	const char *table = NULL, *v;
	int rc;

	if ((rc = cli_parse(argc, argv, &o)) != 0)
		return rc;
	for (int i = 0; i < o.nrest; i++) {
		const char *opt = cli_next("step", &o, &i, &v);
		if (!opt)
			return 2;
		if (!*opt)
			return cli_extra("step", v);
		if (!cli_is(opt, "--table"))
			return cli_unhandled("step", opt);
		if (cli_value_ok("step", "--table", v))
			return 2;
		table = v;
	}
	if (!table && (o.format == CALC_F_CSV || o.format == CALC_F_TSV))
		table = "step"; /* one table per stream */
	if ((rc = cli_load(&o, &plan)) != 0)
		return rc;
	calc_ctx_init(&c, &plan);
	if (!(st = calc_ctx_step(&c, &d))) {
		calc_ctx_free(&c);
		return cli_fail(&d);
	}
	if (o.format == CALC_F_JSON) {
		rc = print_json(&c, &d);
		calc_ctx_free(&c);
		return rc < 0 ? cli_fail(&d) : rc;
	}
	if (calc_catalog_build(&c, "step", 0, NULL, &t, &d) < 0 ||
	    calc_catalog_build(&c, "step-summary", 0, NULL, &s, &d) < 0 ||
	    ((plan.model.moe.experts > 0 || (table && !strcmp(table, "step-moe"))) &&
	     calc_catalog_build(&c, "step-moe", 0, NULL, &moe, &d) < 0)) {
		calc_ctx_free(&c);
		return cli_fail(&d);
	}
	if (o.format == CALC_F_TEXT) {
		printf("plan: %s\n", plan.file);
		printf("split: tp %d, cp %d, pp %d, dp %d, vpp %d, sp %s, ZeRO-%d, recompute %s, schedule %s, "
		       "%d micro-batches of %d x %d tokens\n",
		       plan.tp, plan.cp, plan.pp, plan.dp, plan.vpp, plan.sp ? "yes" : "no", plan.zero,
		       calc_recompute_name(plan.recompute), calc_schedule_name(plan.schedule),
		       calc_plan_microbatches(&plan), plan.micro_batch, plan.seq_len);
		/* the layer GEMMs' share: efficiency.gemm_fp8 where they take FP8 inputs and it is set */
		double ge = st->gemm_peak != plan.gpu.bf16_flops && plan.gemm_eff_fp8 > 0 ? plan.gemm_eff_fp8 : plan.gemm_eff;
		const char *prec = st->gemm_peak == plan.gpu.bf16_flops ? "BF16"
		                   : plan.gpu.fp4_flops > 0 && st->gemm_peak == plan.gpu.fp4_flops ? "FP4" : "FP8";
		if (calc_plan_has_layout(&plan)) { /* the keys that placed the layers, chunk by chunk */
			char lay[CALC_LAYOUT_MAX + 64];
			calc_layout_describe(&plan, lay, sizeof lay);
			printf("layout: %s, %d virtual stages in all, %d per pipeline stage\n", lay, plan.chunks.n, plan.chunks.v);
		}
		if (plan.gemm_basis == 1) /* efficiency.gemm_basis = achievable: of the measured matmul rate */
			printf("efficiency: GEMMs at %.0f%% of the achievable %s matmul rate %.1f TFLOP/s (measured), ",
			       100 * ge, prec,
			       calc_display_value(st->gemm_peak == plan.gpu.bf16_flops ? plan.gpu.matmul_max : plan.gpu.matmul_max_fp8,
			                          "TFLOP/s"));
		else
			printf("efficiency: GEMMs at %.0f%% of the dense %s peak %.0f TFLOP/s, ", 100 * ge, prec,
			       calc_display_value(st->gemm_peak, "TFLOP/s"));
		printf("attention core at %.0f%% of the "
		       "dense BF16 peak %.0f TFLOP/s (%s datasheet, no sparsity); TP overlap %.0f%%, DP overlap %.0f%%\n",
		       100 * plan.attn_eff, calc_display_value(plan.gpu.bf16_flops, "TFLOP/s"), plan.gpu.name, 100 * plan.tp_overlap,
		       100 * plan.dp_overlap);
		if (plan.gemm_shape) /* efficiency.gemm_shape = table or auto: say which applies */
			printf("GEMM shape: %s\n", calc_gemm_shape_on(&plan)
			                              ? "each GEMM's rate scaled by XLA's measured sm_90 table (docs/references.md §5.10)"
			                              : "no table for this GPU (efficiency.gemm_shape = auto): GEMM rates not scaled by shape");
		if (calc_schedule_at((int)plan.schedule)->flushed) /* its row: ZB-H2 */
			printf("%s: %s\n", calc_schedule_name(plan.schedule), plan.post_validation
			                   ? "steps back to back, optimizer checks validated afterwards "
			                     "(parallel.post_validation = yes, Qi et al. 2024 §4): bubble (p-1)(F+B-2W)"
			                   : "a flush between steps (parallel.post_validation = no): bubble "
			                     "(p-1) max(F, F+B-2W)");
		if (cli_fit(&c, o.format, NULL, NULL, &d) < 0) {
			calc_ctx_free(&c);
			return cli_fail(&d);
		}
		printf("per layer and micro-batch: forward %.3f ms, backward %.3f ms (B %.3f + W %.3f), "
		       "TP/CP comm %.3f ms; critical stage %d\n\n",
		       st->layer.f * 1e3, (st->layer.b + st->layer.w) * 1e3, st->layer.b * 1e3, st->layer.w * 1e3,
		       (st->layer.comm_f + st->layer.comm_b) * 1e3, st->critical);
	}
	if (o.format != CALC_F_TEXT && cli_fit(&c, o.format, NULL, NULL, &d) < 0) {
		calc_ctx_free(&c);
		return cli_fail(&d);
	}
	if (!table || !strcmp(table, "step"))
		calc_table_write(&t, o.format, stdout);
	if (!table && (o.format == CALC_F_TEXT || o.format == CALC_F_MD))
		printf("\n");
	/* an MoE model: the parts of its MoE layer after the breakdown */
	if ((!table && plan.model.moe.experts > 0 && (o.format == CALC_F_TEXT || o.format == CALC_F_MD)) ||
	    (table && !strcmp(table, "step-moe"))) {
		calc_table_write(&moe, o.format, stdout);
		if (!table)
			printf("\n");
	}
	if (!table || !strcmp(table, "step-summary"))
		calc_table_write(&s, o.format, stdout);
	if (o.format == CALC_F_TEXT)
		printf("\nrun: %.4g tokens at %d sequences x %d tokens per step, %d GPUs at %.2f per GPU-hour\n",
		       plan.tokens, plan.global_batch, plan.seq_len, calc_plan_gpus(&plan), plan.gpu_hour_cost);
	calc_table_free(&t);
	calc_table_free(&s);
	if (moe.name[0])
		calc_table_free(&moe);
	calc_ctx_free(&c);
	calc_diag_free(&d);
	return 0;
}
