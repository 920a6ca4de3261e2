/*
 * cmd_run.c -- `trainplan run`: checkpoint size and time, failures, the checkpoint
 * interval (Young 1974, Daly 2006), goodput, effective run days, energy and cost per
 * million tokens for the plan's token budget.
 *
 *   trainplan run [--plan FILE] [--set K=V]... [--format text|csv|json|md|tsv]
 * JSON prints every checkpoint.*, failure.* and run.* quantity of calc/catalog_run.c
 * in SI units (null where a value is infinite, e.g. the MTBF without failures).
 */
#include "cli.h"

#include <math.h>
#include <stdio.h>

extern const struct calc_quantity calc_q_run[];

/* The envelope with every quantity of calc_q_run by catalog name.  Returns 0, -1
 * with a diagnostic, or 2 after an error message. */
static int print_json(struct calc_ctx *c, struct calc_diag *d)
{
	struct cli_json j;
	json_t *data = json_object();
	cli_json_begin(&j, "run", &c->plan);
	for (int i = 0; calc_q_run[i].name; i++) {
		struct calc_value v = {0};
		if (calc_q_run[i].get(c, &v, d) < 0) {
			json_decref(data);
			json_decref(j.root);
			return -1;
		}
		cli_json_quantity(&j, data, &calc_q_run[i], &v);
	}
	if (cli_fit(c, CALC_F_JSON, &j, data, d) < 0) {
		json_decref(data);
		json_decref(j.root);
		return -1;
	}
	return cli_json_end(&j, data, stdout);
}

int cmd_run(int argc, char **argv)
{
	struct cli_opts o;
	struct calc_plan plan;
	struct calc_ctx c;
	struct calc_table t;
	struct calc_diag d = {0};
	int rc;

	if ((rc = cli_parse(argc, argv, &o)) != 0)
		return rc;
	for (int i = 0; i < o.nrest; i++) {
		const char *v, *opt = cli_next("run", &o, &i, &v);
		if (!opt)
			return 2;
		return *opt ? cli_unhandled("run", opt) : cli_extra("run", v);
	}
	if ((rc = cli_load(&o, &plan)) != 0)
		return rc;
	calc_ctx_init(&c, &plan);
	if (o.format == CALC_F_JSON) {
		rc = print_json(&c, &d);
		calc_ctx_free(&c);
		return rc < 0 ? cli_fail(&d) : rc;
	}
	if (calc_catalog_build(&c, "run", 0, NULL, &t, &d) < 0) {
		calc_ctx_free(&c);
		return cli_fail(&d);
	}
	if (o.format == CALC_F_TEXT) {
		printf("plan: %s\n", plan.file);
		printf("run: %.4g tokens on %d GPUs (%d nodes); failures %.4g per GPU-hour, restart %.0f s plus the "
		       "checkpoint load\n",
		       plan.tokens, calc_plan_gpus(&plan), plan.nodes, plan.failure_rate, plan.restart_time);
		printf("checkpoints: %s, %s; storage %.4g GB/s per node, %.4g GB/s in all\n",
		       plan.ckpt_optimizer ? "weights, master weights and optimizer states" : "weights only",
		       plan.ckpt_async ? "asynchronous (training stops for the copy to host memory)" : "synchronous",
		       plan.storage_node_bw / 1e9, plan.storage_bw / 1e9);
		if (cli_fit(&c, o.format, NULL, NULL, &d) < 0) {
			calc_table_free(&t);
			calc_ctx_free(&c);
			return cli_fail(&d);
		}
		printf("power: %s at %.0f W TDP, idle %.0f%% of it; %.0f W per node, %.0f W network per GPU; PUE %.2f; "
		       "%.3g per kWh\n\n",
		       plan.gpu.name, plan.gpu.tdp, 100 * plan.gpu_idle_power, plan.node_power, plan.network_power,
		       plan.pue, plan.energy_price);
	}
	if (o.format != CALC_F_TEXT && cli_fit(&c, o.format, NULL, NULL, &d) < 0) {
		calc_table_free(&t);
		calc_ctx_free(&c);
		return cli_fail(&d);
	}
	calc_table_write(&t, o.format, stdout);
	calc_table_free(&t);
	calc_ctx_free(&c);
	calc_diag_free(&d);
	return 0;
}
