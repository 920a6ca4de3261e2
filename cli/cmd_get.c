/*
 * cmd_get.c -- `trainplan get NAME...`: catalog quantities; `--list` names them.
 */
#include "cli.h"

#include <math.h>
#include <string.h>

static void show(const struct calc_quantity *q, const struct calc_value *v)
{
	if (v->str)
		printf("%s = %s\n", q->name, v->str);
	else if (isnan(v->num)) /* a variant that is not a valid plan (JSON: null, CSV: empty) */
		printf("%s = (no value for this plan)\n", q->name);
	else if (!strcmp(q->unit, "B"))
	{
		char gb[64], gib[64];
		calc_fmt_in(v->num, "GB", 0, 3, gb, sizeof gb);
		calc_fmt_in(v->num, "GiB", 0, 3, gib, sizeof gib);
		printf("%s = %.0f B (%s, %s)\n", q->name, v->num, gb, gib);
	}
	else if (!strcmp(q->unit, "1") || !*q->unit)
		printf("%s = %.10g\n", q->name, v->num);
	else
		printf("%s = %.10g %s\n", q->name, v->num, q->unit);
}

int cmd_get(int argc, char **argv)
{
	struct cli_opts o;
	struct calc_plan plan;
	struct calc_ctx ctx;
	struct calc_diag d = {0};
	struct calc_value vals[CLI_MAX_ARGS];
	const struct calc_quantity *qs[CLI_MAX_ARGS];
	int rc, n = 0, list = 0;

	if ((rc = cli_parse(argc, argv, &o)))
		return rc;
	for (int i = 0; i < o.nrest; i++) {
		const char *val, *opt = cli_next("get", &o, &i, &val);
		if (!opt)
			return 2;
		if (cli_is(opt, "--list"))
			list = 1;
		else if (*opt)
			return cli_unhandled("get", opt);
	}
	if (list) {
		const struct calc_quantity *q;
		struct calc_table t;
		calc_table_init(&t, "quantities", "Catalog quantities");
		calc_table_col(&t, "name", "", CALC_D_TEXT, 0);
		calc_table_col(&t, "unit", "", CALC_D_TEXT, 0);
		calc_table_col(&t, "meaning", "", CALC_D_TEXT, 0);
		for (int i = 0; (q = calc_catalog_quantity_at(i)); i++) {
			int r = calc_table_row(&t);
			calc_table_str(&t, r, 0, q->name);
			calc_table_str(&t, r, 1, *q->unit ? q->unit : "text");
			calc_table_str(&t, r, 2, q->desc);
		}
		rc = cli_table_write("get", NULL, &t, o.format);
		calc_table_free(&t);
		return rc;
	}
	if (o.nrest == 0)
		return cli_error("get: name at least one quantity (trainplan get --list shows them)");
	if ((rc = cli_load(&o, &plan)))
		return rc;
	calc_ctx_init(&ctx, &plan);
	for (int i = 0; i < o.nrest; i++) {
		if (!(qs[n] = calc_catalog_quantity(o.rest[i])) || calc_catalog_get(&ctx, o.rest[i], &vals[n], &d) < 0) {
			if (!qs[n])
				calc_catalog_get(&ctx, o.rest[i], &vals[n], &d);
			calc_ctx_free(&ctx);
			return cli_fail(&d);
		}
		n++;
	}
	if (o.format == CALC_F_JSON) {
		/* data: the quantities by catalog name, in the order asked */
		struct cli_json j;
		json_t *data = json_object();
		cli_json_begin(&j, "get", &plan);
		for (int i = 0; i < n; i++)
			cli_json_quantity(&j, data, qs[i], &vals[i]);
		rc = cli_json_end(&j, data, stdout);
		calc_ctx_free(&ctx);
		return rc;
	} else if (o.format == CALC_F_CSV || o.format == CALC_F_TSV) {
		const char *sep = o.format == CALC_F_CSV ? "," : "\t";
		printf("name%svalue%sunit\n", sep, sep);
		for (int i = 0; i < n; i++) {
			if (vals[i].str)
				printf("%s%s%s%s\n", qs[i]->name, sep, vals[i].str, sep);
			else if (isnan(vals[i].num))
				printf("%s%s%s%s\n", qs[i]->name, sep, sep, qs[i]->unit);
			else
				printf("%s%s%.10g%s%s\n", qs[i]->name, sep, vals[i].num, sep, qs[i]->unit);
		}
	} else {
		for (int i = 0; i < n; i++)
			show(qs[i], &vals[i]);
	}
	calc_ctx_free(&ctx);
	return 0;
}
