/*
 * cmd_compare.c -- `trainplan compare A.ini B.ini [C.ini ...]`: plans side by side,
 * the most common question of a planning meeting, and the document of
 * `trainplan report --compare` (cmd_report.c).
 *
 *   trainplan compare A.ini B.ini ... [--set KEY=VALUE]... [--format text|csv|json|md|tsv]
 *
 * One row per plan: memory per GPU of the worst stage, whether it fits, step time,
 * MFU, pipeline bubble share, bytes per GPU per step over NVLink and over the
 * network, run days and cost; then one row per later plan with its difference from
 * the first (B - A, same units).  Every value is a catalog quantity (catalog.c), so
 * the figures are those of `trainplan get`; --set applies to every plan.
 *
 * The comparison report is one Markdown document (cli_cmp_write_md) made of the same
 * pieces: tables of catalog quantities with a row per plan (cli_cmp_quantities, the
 * table above), and catalog tables (memory-stages, step, comm) turned so that each
 * plan is a column (cli_cmp_pivot), each with its differences from the first plan.
 * The formulas are the engines' (docs/references.md); nothing here computes a number
 * but a difference.
 */
#include "cli.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct cli_cmp_metric cli_cmp_headline[] = {
	{"memory.total", "memory per GPU", "B", CALC_D_GB, 2},
	{"step.time", "step time", "s", CALC_D_S, 3},
	{"step.mfu", "MFU", "1", CALC_D_PCT, 1},
	{"step.bubble_fraction", "bubble", "1", CALC_D_PCT, 1},
	{"comm.total.bytes", "comm all tiers", "B", CALC_D_GB, 2},
	{"comm.net.bytes", "comm network", "B", CALC_D_GB, 2},
	{"run.days", "run (days)", "days", CALC_D_FIXED, 2},
	{"run.cost", "cost (currency)", "currency", CALC_D_NUM, 4},
};
const int cli_cmp_nheadline = (int)(sizeof cli_cmp_headline / sizeof cli_cmp_headline[0]);

void cli_cmp_free(struct cli_cmp *c)
{
	for (int k = 0; k < c->n; k++)
		calc_ctx_free(&c->ctx[k]);
	free(c->ctx);
	c->ctx = NULL;
	c->n = 0;
}

int cli_cmp_load(struct cli_cmp *c, const struct cli_opts *o, const char *const *files, int n)
{
	char real[CLI_CMP_MAX][PATH_MAX];
	int rc;
	memset(c, 0, sizeof *c);
	if (n < 2)
		return cli_error("compare: name two plans or more (trainplan compare A.ini B.ini)");
	if (n > CLI_CMP_MAX)
		return cli_error("compare: at most %d plans", CLI_CMP_MAX);
	c->ctx = xcalloc((size_t)n, sizeof *c->ctx);
	for (int k = 0; k < n; k++) {
		struct cli_opts po = *o;
		struct calc_plan *plan;
		if (!strcmp(files[k], "-") && k > 0)
			for (int j = 0; j < k; j++)
				if (!strcmp(files[j], "-")) {
					cli_cmp_free(c);
					return cli_error("compare: standard input can be read once");
				}
		/* the same file twice is a typing error, not a comparison */
		real[k][0] = 0;
		if (strcmp(files[k], "-") && !realpath(files[k], real[k]))
			real[k][0] = 0;
		for (int j = 0; j < k && real[k][0]; j++)
			if (!strcmp(real[j], real[k])) {
				cli_cmp_free(c);
				return cli_error("compare: '%s' and '%s' are the same file; name each plan once",
				                 files[j], files[k]);
			}
		po.plan = files[k];
		plan = xcalloc(1, sizeof *plan);
		if ((rc = cli_load(&po, plan))) {
			free(plan);
			cli_cmp_free(c);
			return rc;
		}
		calc_ctx_init(&c->ctx[k], plan);
		free(plan);
		c->files[k] = files[k];
		snprintf(c->label[k], sizeof c->label[k], "%c", 'A' + k);
		c->n = k + 1;
	}
	/* the currency of the costs: one the plans share, or none where they differ */
	snprintf(c->currency, sizeof c->currency, "%s", c->ctx[0].plan.currency);
	for (int k = 1; k < n; k++)
		if (strcmp(c->ctx[k].plan.currency, c->ctx[0].plan.currency))
			c->currency_mixed = 1;
	if (c->currency_mixed)
		c->currency[0] = 0;
	return 0;
}

/* The header of metric m: "(currency)" in it names the plans' currency where they set
 * one (plan.currency), or says that each plan's costs are in its own. */
static const char *cmp_column(const struct cli_cmp *c, const struct cli_cmp_metric *m, char *buf, size_t n)
{
	const char *p = strstr(m->column, "(currency)");
	if (!p || (!c->currency[0] && !c->currency_mixed))
		return m->column;
	snprintf(buf, n, "%.*s(%s)%s", (int)(p - m->column), m->column,
	         c->currency_mixed ? "each plan's currency" : c->currency, p + strlen("(currency)"));
	return buf;
}

/* Quantity 'name' of plan k: 0, or -1 after a diagnostic in 'd'. */
static int cmp_get(struct cli_cmp *c, int k, const char *name, struct calc_value *v, struct calc_diag *d)
{
	return calc_catalog_get(&c->ctx[k], name, v, d);
}

int cli_cmp_quantities(struct cli_cmp *c, const struct cli_cmp_metric *m, int nm, int fits, int by_label,
                       const char *name, const char *title, struct calc_table *t, struct calc_diag *d)
{
	const int base = fits ? 2 : 1;
	double *v = xcalloc((size_t)c->n * (size_t)nm, sizeof *v);
	int *fit = xcalloc((size_t)c->n, sizeof *fit);
	for (int k = 0; k < c->n; k++) {
		struct calc_value val;
		for (int j = 0; j < nm; j++) {
			if (cmp_get(c, k, m[j].quantity, &val, d) < 0)
				goto fail;
			v[k * nm + j] = val.num;
		}
		if (fits) {
			if (cmp_get(c, k, "memory.fits", &val, d) < 0)
				goto fail;
			fit[k] = val.num > 0.5;
		}
	}
	calc_table_init(t, name, title);
	calc_table_col(t, "plan", "", CALC_D_TEXT, 0);
	if (fits)
		calc_table_col(t, "fits", "", CALC_D_TEXT, 0);
	for (int j = 0; j < nm; j++) {
		char col[128];
		calc_table_col(t, cmp_column(c, &m[j], col, sizeof col), m[j].unit, m[j].disp, m[j].prec);
	}
	for (int k = 0; k < c->n; k++) {
		int r = calc_table_row(t);
		calc_table_str(t, r, 0, by_label ? c->label[k] : c->files[k]);
		if (fits)
			calc_table_str(t, r, 1, fit[k] ? "yes" : "no");
		for (int j = 0; j < nm; j++)
			calc_table_num(t, r, base + j, v[k * nm + j]);
	}
	for (int k = 1; k < c->n; k++) {
		char row[2 * CALC_PATH_MAX + 8];
		int r = calc_table_row(t);
		if (by_label)
			snprintf(row, sizeof row, "%s\xe2\x88\x92%s", c->label[k], c->label[0]);
		else
			snprintf(row, sizeof row, "%s - %s", c->files[k], c->files[0]);
		calc_table_str(t, r, 0, row);
		if (fits)
			calc_table_str(t, r, 1, "");
		for (int j = 0; j < nm; j++) /* costs in two currencies have no difference */
			calc_table_num(t, r, base + j,
			               c->currency_mixed && !strcmp(m[j].unit, "currency") ? NAN : v[k * nm + j] - v[j]);
	}
	free(v);
	free(fit);
	return 0;
fail:
	free(v);
	free(fit);
	return -1;
}

static int col_named(const struct calc_table *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i].name, name))
			return i;
	return -1;
}

int cli_cmp_pivot(struct cli_cmp *c, const char *table, const char *keyname, const char *valname, int deltas,
                  const char *title, struct calc_table *t, struct calc_diag *d)
{
	struct calc_table *src = xcalloc((size_t)c->n, sizeof *src);
	struct calc_args none = {0};
	int vc = -1, ok = 0, rc = -1;
	char key[CALC_PATH_MAX];
	for (int k = 0; k < c->n; k++) {
		if (calc_catalog_build(&c->ctx[k], table, 0, &none, &src[k], d) < 0)
			goto out;
		ok = k + 1;
		if ((vc = col_named(&src[k], valname)) < 0) {
			calc_error(d, table, 0, "table %s has no column '%s'", table, valname);
			goto out;
		}
	}
	vc = col_named(&src[0], valname);
	const struct calc_col *col = &src[0].cols[vc];
	int text = col->disp == CALC_D_TEXT;
	if (text)
		deltas = 0;
	calc_table_init(t, table, title);
	calc_table_col(t, keyname, "", CALC_D_TEXT, 0);
	for (int k = 0; k < c->n; k++)
		calc_table_col(t, c->label[k], col->unit, col->disp, col->prec);
	for (int k = 1; k < c->n && deltas; k++) {
		char name[16];
		snprintf(name, sizeof name, "%s\xe2\x88\x92%s", c->label[k], c->label[0]);
		calc_table_col(t, name, col->unit, col->disp, col->prec);
	}
	/* rows: the keys of every plan's table, in order of first appearance */
	for (int k = 0; k < c->n; k++)
		for (int r = 0; r < src[k].nrows; r++) {
			int row = -1;
			calc_table_cell_text(&src[k], r, 0, key, sizeof key);
			for (int i = 0; i < t->nrows && row < 0; i++)
				if (!strcmp(t->cells[i * t->ncols].s, key))
					row = i;
			if (row < 0) {
				row = calc_table_row(t);
				calc_table_str(t, row, 0, key);
				for (int j = 1; j < t->ncols; j++)
					if (text)
						calc_table_str(t, row, j, "");
					else
						calc_table_num(t, row, j, NAN);
			}
		}
	for (int k = 0; k < c->n; k++) {
		int kv = col_named(&src[k], valname);
		for (int r = 0; r < src[k].nrows; r++) {
			calc_table_cell_text(&src[k], r, 0, key, sizeof key);
			for (int i = 0; i < t->nrows; i++)
				if (!strcmp(t->cells[i * t->ncols].s, key)) {
					const struct calc_cell *cell = &src[k].cells[r * src[k].ncols + kv];
					if (text)
						calc_table_str(t, i, 1 + k, cell->s ? cell->s : "");
					else
						calc_table_num(t, i, 1 + k, cell->v);
					break;
				}
		}
	}
	for (int i = 0; i < t->nrows && deltas; i++)
		for (int k = 1; k < c->n; k++) {
			double a = t->cells[i * t->ncols + 1].v, b = t->cells[i * t->ncols + 1 + k].v;
			calc_table_num(t, i, c->n + k, a - a == 0 && b - b == 0 ? b - a : NAN);
		}
	rc = 0;
out:
	for (int k = 0; k < ok; k++)
		calc_table_free(&src[k]);
	free(src);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	struct cli_opts o;
	struct cli_cmp c;
	struct calc_table t;
	struct calc_diag d = {0};
	const char *files[CLI_CMP_MAX];
	int nplans = 0, rc;

	if ((rc = cli_parse(argc, argv, &o)))
		return rc;
	if (o.plan)
		files[nplans++] = o.plan;
	for (int i = 0; i < o.nrest; i++) {
		const char *val, *opt = cli_next("compare", &o, &i, &val);
		if (!opt)
			return 2;
		if (*opt)
			return cli_unhandled("compare", opt);
		if (nplans >= CLI_CMP_MAX)
			return cli_error("compare: at most %d plans", CLI_CMP_MAX);
		files[nplans++] = o.rest[i];
	}
	if ((rc = cli_cmp_load(&c, &o, files, nplans)))
		return rc;
	if (cli_cmp_quantities(&c, cli_cmp_headline, cli_cmp_nheadline, 1, 0, "compare",
	                       "Plans side by side; the rows B - A are differences from the first plan", &t, &d) < 0) {
		cli_cmp_free(&c);
		return cli_fail(&d);
	}
	calc_diag_free(&d);
	rc = cli_table_write("compare", NULL, &t, o.format);
	calc_table_free(&t);
	cli_cmp_free(&c);
	return rc;
}
