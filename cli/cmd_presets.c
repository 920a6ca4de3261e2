/*
 * cmd_presets.c -- `trainplan presets [models|gpus|clusters|recipes|keys]`: the
 * catalog tables model-presets, gpu-presets, cluster-presets, recipe-presets and
 * plan-keys (presets_tables.c).
 */
#include "cli.h"

#include <string.h>

int cmd_presets(int argc, char **argv)
{
	struct cli_opts o;
	struct calc_table t;
	struct calc_diag d = {0};
	static const char *const kinds[][2] = {{"models", "model-presets"},   {"gpus", "gpu-presets"},
	                                       {"clusters", "cluster-presets"}, {"recipes", "recipe-presets"},
	                                       {"keys", "plan-keys"}};
	int rc, shown = 0;

	if ((rc = cli_parse(argc, argv, &o)))
		return rc;
	for (int i = 0; i < o.nrest; i++) {
		int ok = 0;
		for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
			ok |= !strcmp(o.rest[i], kinds[k][0]);
		if (!ok)
			return cli_error("presets: unknown kind '%s' (allowed: models, gpus, clusters, recipes, keys)",
			                 o.rest[i]);
	}
	/* Several tables: one JSON array of them, or a blank line between them (without
	 * it CSV and Markdown ran the tables together into one). */
	int many = o.nrest != 1, json = o.format == CALC_F_JSON;
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		int want = o.nrest == 0 && strcmp(kinds[k][0], "keys");
		for (int i = 0; i < o.nrest; i++)
			want |= !strcmp(o.rest[i], kinds[k][0]);
		if (!want)
			continue;
		if (json && many)
			printf(shown ? "," : "[");
		else if (shown)
			printf("\n");
		shown++;
		/* these tables do not depend on the plan */
		if (calc_catalog_build(NULL, kinds[k][1], 0, NULL, &t, &d) < 0)
			return cli_fail(&d);
		calc_table_write(&t, o.format, stdout);
		calc_table_free(&t);
	}
	if (json && many)
		printf("]\n");
	return 0;
}
