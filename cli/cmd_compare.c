/*
 * cmd_compare.c -- `trainplan compare A.ini B.ini [C.ini ...]`: plans side by side,
 * the most common question of a planning meeting.
 *
 *   trainplan compare A.ini B.ini ... [--set KEY=VALUE]... [--format text|csv|json|md|tsv]
 *
 * One row per plan: memory per GPU of the worst stage, whether it fits, step time,
 * MFU, pipeline bubble share, bytes per GPU per step over NVLink and over the
 * network, run days and cost; then one row per later plan with its difference from
 * the first (B - A, same units).  Every value is a catalog quantity (catalog.c), so
 * the figures are those of `trainplan get`; --set applies to every plan.
 */
#include "cli.h"

#include <math.h>
#include <string.h>

#define CMP_MAX_PLANS 16

static const struct {
	const char *quantity; /* catalog name */
	const char *column;
	const char *unit;
	enum calc_disp disp;
	int prec;
} metrics[] = {
	{"memory.total", "memory per GPU", "B", CALC_D_GB, 2},
	{"step.time", "step time", "s", CALC_D_S, 3},
	{"step.mfu", "MFU", "1", CALC_D_PCT, 1},
	{"step.bubble_fraction", "bubble", "1", CALC_D_PCT, 1},
	{"comm.total.bytes", "comm all tiers", "B", CALC_D_GB, 2},
	{"comm.net.bytes", "comm network", "B", CALC_D_GB, 2},
	{"run.days", "run (days)", "days", CALC_D_FIXED, 2},
	{"run.cost", "cost (currency)", "currency", CALC_D_NUM, 4},
};
#define NMETRICS (int)(sizeof metrics / sizeof metrics[0])

int cmd_compare(int argc, char **argv)
{
	struct cli_opts o;
	struct calc_table t;
	const char *files[CMP_MAX_PLANS];
	double v[CMP_MAX_PLANS][NMETRICS];
	int fits[CMP_MAX_PLANS], nplans = 0, rc;

	if ((rc = cli_parse(argc, argv, &o)))
		return rc;
	if (o.plan)
		files[nplans++] = o.plan;
	for (int i = 0; i < o.nrest; i++) {
		if (o.rest[i][0] == '-' && o.rest[i][1])
			return cli_error("compare: unknown argument '%s' (allowed: PLAN.ini..., --set, --format)", o.rest[i]);
		if (nplans >= CMP_MAX_PLANS)
			return cli_error("compare: at most %d plans", CMP_MAX_PLANS);
		files[nplans++] = o.rest[i];
	}
	if (nplans < 2)
		return cli_error("compare: name two plans or more (trainplan compare A.ini B.ini)");
	for (int k = 0; k < nplans; k++) {
		struct cli_opts po = o;
		struct calc_plan plan;
		struct calc_ctx ctx;
		struct calc_diag d = {0};
		struct calc_value val;
		if (!strcmp(files[k], "-") && k > 0)
			for (int j = 0; j < k; j++)
				if (!strcmp(files[j], "-"))
					return cli_error("compare: standard input can be read once");
		po.plan = files[k];
		if ((rc = cli_load(&po, &plan)))
			return rc;
		calc_ctx_init(&ctx, &plan);
		for (int m = 0; m < NMETRICS; m++) {
			if (calc_catalog_get(&ctx, metrics[m].quantity, &val, &d) < 0) {
				calc_ctx_free(&ctx);
				return cli_fail(&d);
			}
			v[k][m] = val.num;
		}
		if (calc_catalog_get(&ctx, "memory.fits", &val, &d) < 0) {
			calc_ctx_free(&ctx);
			return cli_fail(&d);
		}
		fits[k] = val.num > 0.5;
		calc_ctx_free(&ctx);
		calc_diag_free(&d);
	}

	calc_table_init(&t, "compare", "Plans side by side; the rows B - A are differences from the first plan");
	calc_table_col(&t, "plan", "", CALC_D_TEXT, 0);
	calc_table_col(&t, "fits", "", CALC_D_TEXT, 0);
	for (int m = 0; m < NMETRICS; m++)
		calc_table_col(&t, metrics[m].column, metrics[m].unit, metrics[m].disp, metrics[m].prec);
	for (int k = 0; k < nplans; k++) {
		int r = calc_table_row(&t);
		calc_table_str(&t, r, 0, files[k]);
		calc_table_str(&t, r, 1, fits[k] ? "yes" : "no");
		for (int m = 0; m < NMETRICS; m++)
			calc_table_num(&t, r, 2 + m, v[k][m]);
	}
	for (int k = 1; k < nplans; k++) {
		char name[2 * CALC_PATH_MAX + 8];
		int r = calc_table_row(&t);
		snprintf(name, sizeof name, "%s - %s", files[k], files[0]);
		calc_table_str(&t, r, 0, name);
		calc_table_str(&t, r, 1, "");
		for (int m = 0; m < NMETRICS; m++)
			calc_table_num(&t, r, 2 + m, v[k][m] - v[0][m]);
	}
	rc = cli_table_write("compare", NULL, &t, o.format);
	calc_table_free(&t);
	return rc;
}
