/*
 * cmd_table.c -- `trainplan table NAME [KEY=VALUE]...` and
 * `trainplan table --all [--dir DIR]` (one NAME.csv per catalog table, each
 * written to a temporary file and renamed); `--list` names the tables.
 */
#include "cli.h"
#include "../calc/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int list_defs(const char *command, const struct calc_tabledef *(*at)(int), const char *title,
                     enum calc_format f)
{
	const struct calc_tabledef *def;
	struct calc_table t;
	calc_table_init(&t, "list", title);
	calc_table_col(&t, "name", "", CALC_D_TEXT, 0);
	calc_table_col(&t, "arguments", "", CALC_D_TEXT, 0);
	calc_table_col(&t, "meaning", "", CALC_D_TEXT, 0);
	for (int i = 0; (def = at(i)); i++) {
		int r = calc_table_row(&t);
		calc_table_str(&t, r, 0, def->name);
		calc_table_str(&t, r, 1, def->params && *def->params ? def->params : "-");
		calc_table_str(&t, r, 2, def->desc);
	}
	int rc = cli_table_write(command, NULL, &t, f);
	calc_table_free(&t);
	return rc;
}

/* Write one table to DIR/NAME.EXT, NAME the catalog entry's (two entries may share one
 * builder, whose table carries one name), whole or not at all (JSON: the envelope of
 * 'command' and 'plan').  Returns 0 or 2. */
static int write_file(const char *command, const struct calc_plan *plan, const char *dir, const char *name,
                      const struct calc_table *t, enum calc_format f, const char *ext)
{
	char path[1024];
	char *buf = NULL;
	size_t len = 0;
	snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		return cli_error("cannot write %s: %s", path, strerror(errno));
	if (f == CALC_F_JSON) {
		struct cli_json j;
		cli_json_begin(&j, command, plan);
		if (cli_json_end(&j, cli_json_table(&j, t), mem)) {
			fclose(mem);
			free(buf);
			return 2;
		}
	} else
		calc_table_write(t, f, mem);
	fclose(mem);
	struct calc_diag d = {0};
	struct calc_output out = {path, buf, len};
	int rc = calc_output_write(&out, 1, &d);
	free(buf);
	return rc < 0 ? cli_fail(&d) : 0;
}

/* Every catalog dataset ('dataset') or table of 'ctx' as DIR/NAME.EXT, one file each,
 * whole or not at all (write_file), DIR made when missing: `data --all`, `table --all`
 * and `trainplan report`, which writes both from one context (cmd_report.c).  Returns 0,
 * or 2 after a message that names the entry that failed. */
int cli_catalog_all(struct calc_ctx *ctx, const struct calc_plan *plan, int dataset, const char *dir,
                    enum calc_format f)
{
	const struct calc_tabledef *def;
	struct calc_diag d = {0};
	struct calc_table t;
	const char *command = dataset ? "data" : "table";
	const char *ext = f == CALC_F_CSV ? "csv" : f == CALC_F_JSON ? "json" : f == CALC_F_MD ? "md" : f == CALC_F_TSV ? "tsv" : "txt";
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return cli_error("cannot create %s: %s", dir, strerror(errno));
	for (int i = 0; (def = dataset ? calc_catalog_dataset_at(i) : calc_catalog_table_at(i)); i++) {
		if (calc_catalog_build(ctx, def->name, dataset, NULL, &t, &d) < 0) {
			/* the one that failed is named: --all writes many */
			cli_fail(&d);
			return cli_error("%s --all: the %s %s failed", command, dataset ? "dataset" : "table", def->name);
		}
		int rc = write_file(command, plan, dir, def->name, &t, f, ext);
		calc_table_free(&t);
		if (rc)
			return rc;
	}
	return 0;
}

/* Shared by `table` and `data`. */
static int run(int argc, char **argv, int dataset)
{
	struct cli_opts o;
	struct calc_plan plan;
	struct calc_ctx ctx;
	struct calc_diag d = {0};
	struct calc_args args;
	struct calc_table t;
	const char *dir = "output/tables", *name = NULL;
	int rc, all = 0, first = -1;

	if ((rc = cli_parse(argc, argv, &o)))
		return rc;
	if (!o.format_given)
		o.format = dataset ? CALC_F_TSV : CALC_F_TEXT;
	for (int i = 0; i < o.nrest; i++) {
		const char *v, *val, *opt = cli_next(dataset ? "data" : "table", &o, &i, &val);
		if (!opt)
			return 2;
		if (cli_is(opt, "--list"))
			return list_defs(dataset ? "data" : "table", dataset ? calc_catalog_dataset_at : calc_catalog_table_at,
			                 dataset ? "Catalog datasets" : "Catalog tables", o.format_given ? o.format : CALC_F_TEXT);
		if (cli_is(opt, "--all"))
			all = 1;
		else if (cli_is(opt, "--dir") && (v = val))
			dir = v;
		else if (*opt)
			return cli_unhandled(dataset ? "data" : "table", opt);
		else if (!name && !strchr(o.rest[i], '='))
			name = o.rest[i];
		else if (first < 0)
			first = i;
	}
	if (!all && !name)
		return cli_error("%s: name a %s or give --all (--list shows them)", dataset ? "data" : "table",
		                 dataset ? "dataset" : "table");
	memset(&args, 0, sizeof args);
	if (first >= 0) {
		struct cli_opts sub = o;
		sub.nrest = 0;
		for (int i = first; i < o.nrest; i++)
			if (strchr(o.rest[i], '=') && o.rest[i][0] != '-')
				sub.rest[sub.nrest++] = o.rest[i];
		if ((rc = cli_args(&sub, 0, &args)))
			return rc;
	}
	if ((rc = cli_load(&o, &plan)))
		return rc;
	calc_ctx_init(&ctx, &plan);
	if (all) {
		rc = cli_catalog_all(&ctx, &plan, dataset, dir, o.format);
		calc_ctx_free(&ctx);
		return rc;
	}
	if (calc_catalog_build(&ctx, name, dataset, &args, &t, &d) < 0) {
		calc_ctx_free(&ctx);
		return cli_fail(&d);
	}
	rc = cli_table_write(dataset ? "data" : "table", &plan, &t, o.format);
	calc_table_free(&t);
	calc_ctx_free(&ctx);
	return rc;
}

int cmd_table(int argc, char **argv)
{
	return run(argc, argv, 0);
}

int cmd_data(int argc, char **argv)
{
	return run(argc, argv, 1);
}
