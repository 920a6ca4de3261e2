/*
 * cmd_comm.c -- `trainplan comm`: bytes and time per GPU per step, by parallel
 * dimension and network tier (the catalog table "comm").
 *
 *   trainplan comm [--plan FILE] [--set K=V]... [--format text|csv|json|md|tsv]
 */
#include "cli.h"
#include "../calc/step.h"

#include <stdio.h>

int cmd_comm(int argc, char **argv)
{
	struct cli_opts o;
	struct calc_plan plan;
	struct calc_ctx c;
	struct calc_table t;
	struct calc_diag d = {0};
	struct calc_links l;
	int rc;

	if ((rc = cli_parse(argc, argv, &o)) != 0)
		return rc;
	for (int i = 0; i < o.nrest; i++) {
		const char *v, *opt = cli_next("comm", &o, &i, &v);
		if (!opt)
			return 2;
		return *opt ? cli_unhandled("comm", opt) : cli_extra("comm", v);
	}
	if ((rc = cli_load(&o, &plan)) != 0)
		return rc;
	calc_ctx_init(&c, &plan);
	if (calc_catalog_build(&c, "comm", 0, NULL, &t, &d) < 0) {
		calc_ctx_free(&c);
		return cli_fail(&d);
	}
	if (o.format == CALC_F_TEXT) {
		calc_comm_links(&plan, &l);
		printf("plan: %s\n", plan.file);
		printf("split: tp %d, cp %d, pp %d, dp %d (placement %s, innermost first), %d GPUs per node, "
		       "%d micro-batches of %d x %d tokens\n",
		       plan.tp, plan.cp, plan.pp, plan.dp, plan.placement, plan.gpus_per_node,
		       calc_plan_microbatches(&plan), plan.micro_batch, plan.seq_len);
		printf("links: NVLink bus bandwidth %.0f GB/s, %.1f us per step; network %.1f GB/s per GPU "
		       "(%.0f Gb/s x %.2f), %.1f us per step\n",
		       calc_display_value(l.intra_busbw, "GB/s"), l.intra_lat * 1e6,
		       calc_display_value(l.inter_bw, "GB/s"), plan.inter_node_bw * 8 / 1e9,
		       plan.inter_node_eff, l.inter_lat * 1e6);
		if (plan.nodes_per_leaf > 0 && plan.nodes > plan.nodes_per_leaf)
			printf("spine: %d nodes per leaf; across leaves %.1f GB/s per GPU (oversubscription %g), "
			       "%.1f us per step\n",
			       plan.nodes_per_leaf, calc_display_value(l.spine_bw, "GB/s"),
			       plan.oversubscription > 1 ? plan.oversubscription : 1, l.spine_lat * 1e6);
		printf("units: GB = 10^9 bytes, ms = 10^-3 s; bytes per GPU per step\n");
	}
	if (o.format == CALC_F_JSON) { /* the table's envelope with memory.fits beside it */
		struct cli_json j;
		json_t *data;
		cli_json_begin(&j, "comm", &plan);
		data = cli_json_table(&j, &t);
		if (json_is_object(data) && cli_fit(&c, o.format, &j, data, &d) < 0) {
			json_decref(data);
			json_decref(j.root);
			calc_table_free(&t);
			calc_ctx_free(&c);
			return cli_fail(&d);
		}
		rc = cli_json_end(&j, data, stdout);
	} else {
		if (cli_fit(&c, o.format, NULL, NULL, &d) < 0) {
			calc_table_free(&t);
			calc_ctx_free(&c);
			return cli_fail(&d);
		}
		if (o.format == CALC_F_TEXT)
			printf("\n");
		rc = cli_table_write("comm", &plan, &t, o.format);
	}
	calc_table_free(&t);
	calc_ctx_free(&c);
	calc_diag_free(&d);
	return rc;
}
