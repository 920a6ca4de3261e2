/*
 * cmd_presets.c -- `trainplan presets [models|gpus|clusters|recipes|stacks|keys]`: the
 * catalog tables model-presets, gpu-presets, cluster-presets, recipe-presets,
 * stack-presets and plan-keys (presets_tables.c).
 *
 * JSON: one envelope whose data holds each table by its kind ({"models": {...}}).
 * CSV and TSV: one table per stream, the first kind named (models when none is);
 * --table KIND names it.  Text and Markdown: every table, a blank line between.
 */
#include "cli.h"

#include <string.h>

static const char *const kinds[][2] = {{"models", "model-presets"},   {"gpus", "gpu-presets"},
                                       {"clusters", "cluster-presets"}, {"recipes", "recipe-presets"},
                                       {"stacks", "stack-presets"},     {"keys", "plan-keys"}};
#define NKINDS (sizeof kinds / sizeof kinds[0])

/* The kind 'name' names (a kind or its table's name), or -1. */
static int kind_of(const char *name)
{
	for (size_t k = 0; k < NKINDS; k++)
		if (!strcmp(name, kinds[k][0]) || !strcmp(name, kinds[k][1]))
			return (int)k;
	return -1;
}

int cmd_presets(int argc, char **argv)
{
	struct cli_opts o;
	struct calc_table t;
	struct calc_diag d = {0};
	struct cli_json j;
	json_t *data = NULL;
	int rc, shown = 0, want[NKINDS] = {0}, named = 0, one = -1;

	if ((rc = cli_parse(argc, argv, &o)))
		return rc;
	for (int i = 0; i < o.nrest; i++) {
		const char *v, *opt = cli_next("presets", &o, &i, &v);
		int k;
		if (!opt)
			return 2;
		if (cli_is(opt, "--table")) {
			if (cli_value_ok("presets", "--table", v) || (k = kind_of(v)) < 0)
				return 2;
			one = k;
			continue;
		}
		if (*opt)
			return cli_unhandled("presets", opt);
		if ((k = kind_of(o.rest[i])) < 0 || strchr(o.rest[i], '-'))
			return cli_error("presets: unknown kind '%s' (allowed: models, gpus, clusters, recipes, stacks, keys)",
			                 o.rest[i]);
		want[k] = 1;
		named++;
	}
	if (!named)
		for (size_t k = 0; k < NKINDS; k++)
			want[k] = strcmp(kinds[k][0], "keys") != 0;
	/* one table per stream for CSV and TSV: --table, else the first kind wanted */
	if (one < 0 && (o.format == CALC_F_CSV || o.format == CALC_F_TSV))
		for (size_t k = 0; k < NKINDS && one < 0; k++)
			if (want[k])
				one = (int)k;
	if (one >= 0)
		for (size_t k = 0; k < NKINDS; k++)
			want[k] = (int)k == one;
	if (o.format == CALC_F_JSON) {
		cli_json_begin(&j, "presets", NULL);
		data = json_object();
	}
	for (size_t k = 0; k < NKINDS; k++) {
		if (!want[k])
			continue;
		/* these tables do not depend on the plan */
		if (calc_catalog_build(NULL, kinds[k][1], 0, NULL, &t, &d) < 0) {
			if (data) {
				json_decref(data);
				json_decref(j.root);
			}
			return cli_fail(&d);
		}
		if (data)
			json_object_set_new(data, kinds[k][0], cli_json_table(&j, &t));
		else {
			if (shown++) /* without it Markdown ran the tables together into one */
				printf("\n");
			calc_table_write(&t, o.format, stdout);
		}
		calc_table_free(&t);
	}
	return data ? cli_json_end(&j, data, stdout) : 0;
}
