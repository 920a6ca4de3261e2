/*
 * cmd_validate.c -- `trainplan validate`: the published training runs of validate.c
 * through the time model with one set of defaults, predicted against published, with
 * the error.
 *
 *   trainplan validate [--set K=V]... [--format text|csv|json|md|tsv]
 *
 * In text, the per-stack summary, the A100 to H100 speed-up pairs and the held-out goals
 * (per GPU generation, dense and MoE; calc_validate_goals) follow the rows.
 * --set overrides apply to every row after the row's own settings, e.g.
 * --set efficiency.gemm=0.7.  Exit status 0; 1 when a row misses the published value
 * by more than 15%.
 */
#include "cli.h"
#include "../calc/step.h"

#include <stdio.h>
#include <string.h>

int cmd_validate(int argc, char **argv)
{
	struct cli_opts o;
	struct calc_table t;
	struct calc_diag d = {0};
	struct calc_validation s;
	struct calc_plan p;
	int rc;

	if ((rc = cli_parse(argc, argv, &o)) != 0)
		return rc;
	for (int i = 0; i < o.nrest; i++) {
		const char *v, *opt = cli_next("validate", &o, &i, &v);
		if (!opt)
			return 2;
		return *opt ? cli_unhandled("validate", opt) : cli_extra("validate", v);
	}
	if (o.plan)
		return cli_error("validate: the rows start from the built-in default plan; use --set");
	if (calc_validate(o.sets, o.nsets, &t, &s, &d) < 0)
		return cli_fail(&d);
	if (o.format == CALC_F_TEXT) {
		const struct calc_gpu *a = calc_preset_gpu("a100-80g"), *h = calc_preset_gpu("h100-sxm-80g");
		/* the overrides as every row sees them, for the defaults line */
		if (calc_plan_load(&p, NULL, o.sets, o.nsets, &d) < 0) {
			calc_table_free(&t);
			return cli_fail(&d);
		}
		printf("defaults: GEMM / attention at %.0f%% / %.0f%% of the dense BF16 peak on A100, %.0f%% / %.0f%% on H100 "
		       "(GPU presets); network efficiency %.2f; TP overlap %.0f%%\n\n",
		       100 * a->gemm_eff, 100 * a->attn_eff, 100 * h->gemm_eff, 100 * h->attn_eff, p.inter_node_eff,
		       100 * p.tp_overlap);
	}
	if ((rc = cli_table_write("validate", NULL, &t, o.format))) {
		calc_table_free(&t);
		return rc;
	}
	if (o.format == CALC_F_TEXT) {
		struct calc_table k;
		calc_validate_stacks(&t, &k, NULL);
		printf("\n");
		rc = cli_table_write("validate", NULL, &k, o.format);
		calc_table_free(&k);
		if (!rc && s.speedup.pairs > 0) {
			calc_validate_speedup(&t, &k, NULL);
			printf("\n");
			rc = cli_table_write("validate", NULL, &k, o.format);
			calc_table_free(&k);
		}
		if (!rc) {
			calc_validate_goals(&t, &k, NULL);
			printf("\n");
			rc = cli_table_write("validate", NULL, &k, o.format);
			calc_table_free(&k);
		}
		if (rc) {
			calc_table_free(&t);
			return rc;
		}
		printf("\n%d rows on %d stacks, %d within 15%%, mean absolute error %.1f%%; held out: %d rows, mean %.1f%%, "
		       "worst stack %.1f%%\n",
		       s.rows, s.stacks, s.within, 100 * s.mean_abs, s.heldout, 100 * s.heldout_mean_abs,
		       100 * s.heldout_stack_max);
		printf("held out by hardware: A100 %.1f%% (%d rows), H100 %.1f%% (%d), Blackwell %.1f%% (%d); dense %.1f%% (%d), "
		       "MoE %.1f%% (%d); %d runs not expressible yet; goals met: %d of %d\n",
		       100 * s.group_mean_abs[CALC_VG_A100], s.group_rows[CALC_VG_A100], 100 * s.group_mean_abs[CALC_VG_H100],
		       s.group_rows[CALC_VG_H100], 100 * s.group_mean_abs[CALC_VG_BLACKWELL],
		       s.group_rows[CALC_VG_BLACKWELL], 100 * s.group_mean_abs[CALC_VG_DENSE], s.group_rows[CALC_VG_DENSE],
		       100 * s.group_mean_abs[CALC_VG_MOE], s.group_rows[CALC_VG_MOE], s.noexpr, s.goals_met, s.goals);
	}
	calc_table_free(&t);
	calc_diag_free(&d);
	return s.within < s.rows ? 1 : 0;
}
