/*
 * compare_doc.c -- the document of `trainplan report --compare A.ini B.ini ...`: one
 * GFM Markdown file that trainplan-report renders to HTML and PDF like a chapter, and
 * the two datasets its figures draw.
 *
 * Every number is a catalog quantity or a cell of a catalog table of one plan
 * (cli_cmp_quantities and cli_cmp_pivot in cmd_compare.c), shown by the table's own
 * display unit, so the figures are those of `trainplan get`, `trainplan table` and
 * `trainplan compare`; the differences (B − A) and, in the prose, the ratio of two
 * plans' throughput per GPU are the only arithmetic done here.  The
 * formulas are the engines' and are cited there (docs/references.md).
 */
#include "cli.h"
#include "../calc/files.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MD_CELL 1024

/* A Markdown cell of text that may come from a plan (its file name, its title): the
 * document is expanded as a chapter, so a backtick would start an inline value that
 * runs (`=...`), and '|', '[', '<', '!', '{', '*' ... would break the table, make a
 * link, raw HTML, an image or an anchor.  Every ASCII punctuation character that
 * Markdown gives a meaning is written with a backslash, which CommonMark 0.31.2 §2.4
 * allows before any ASCII punctuation (GFM's tables take "\|" in a cell, GFM 0.29
 * §4.10), and a control character or a byte that is not UTF-8 as \xHH
 * (calc_text_shown). */
static void md_cell(FILE *f, const char *s)
{
	char *shown = xmalloc(strlen(s) * 4 + 1);
	calc_text_shown(shown, strlen(s) * 4 + 1, s);
	for (const char *c = shown; *c; c++) {
		if (strchr("\\`*_[]<>!{}#&|~$", *c))
			fputc('\\', f);
		fputc(*c, f);
	}
	free(shown);
}

/* Table 't' as a GFM table with its caption and id (tab-ID) after it. */
static void md_table(FILE *f, const struct calc_table *t, const char *caption, const char *id)
{
	char buf[MD_CELL];
	fputc('|', f);
	for (int c = 0; c < t->ncols; c++) {
		calc_table_header_text(t, c, buf, sizeof buf);
		fputc(' ', f);
		md_cell(f, buf);
		fputs(" |", f);
	}
	fputs("\n|", f);
	for (int c = 0; c < t->ncols; c++)
		fputs(t->cols[c].disp == CALC_D_TEXT ? " :--- |" : " ---: |", f);
	fputc('\n', f);
	for (int r = 0; r < t->nrows; r++) {
		fputc('|', f);
		for (int c = 0; c < t->ncols; c++) {
			const struct calc_cell *cell = &t->cells[r * t->ncols + c];
			if (!cell->s && isnan(cell->v))
				snprintf(buf, sizeof buf, "\xe2\x80\x93"); /* – : the plan has no such row */
			else
				calc_table_cell_text(t, r, c, buf, sizeof buf);
			fputc(' ', f);
			md_cell(f, buf);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	fprintf(f, "\nTable: %s {#tab-%s}\n\n", caption, id);
}

/* The quantities of each section, as columns of a row-per-plan table. */
static const struct cli_cmp_metric memory_q[] = {
	{"memory.states", "model states", "B", CALC_D_GB, 2},
	{"memory.activations", "activations", "B", CALC_D_GB, 2},
	{"memory.overhead", "overheads", "B", CALC_D_GB, 2},
	{"memory.total", "total (worst stage)", "B", CALC_D_GB, 2},
	{"memory.headroom", "headroom", "B", CALC_D_GB, 2},
};
static const struct cli_cmp_metric step_q[] = {
	{"step.time", "step time", "s", CALC_D_S, 3},
	{"step.mfu", "MFU", "1", CALC_D_PCT, 1},
	{"step.hfu", "HFU", "1", CALC_D_PCT, 1},
	{"step.bubble_fraction", "bubble", "1", CALC_D_PCT, 1},
	{"step.tokens_per_s", "tokens/s", "tokens/s", CALC_D_NUM, 4},
};
static const struct cli_cmp_metric comm_q[] = {
	{"comm.total.bytes", "all tiers", "B", CALC_D_GB, 2},
	{"comm.net.bytes", "network", "B", CALC_D_GB, 2},
	{"comm.tp.time", "TP time", "s", CALC_D_MS, 1},
	{"comm.pp.time", "PP time", "s", CALC_D_MS, 1},
	{"comm.dp.time", "DP time", "s", CALC_D_MS, 1},
	{"comm.ep.time", "EP time", "s", CALC_D_MS, 1},
};
static const struct cli_cmp_metric run_q[] = {
	{"run.days", "run (days)", "days", CALC_D_FIXED, 2},
	{"run.gpu_hours", "GPU-hours", "GPU-h", CALC_D_NUM, 4},
	{"run.cost", "cost (currency)", "currency", CALC_D_NUM, 4},
	{"run.goodput", "goodput", "1", CALC_D_PCT, 1},
	{"run.effective_days", "with failures (days)", "days", CALC_D_FIXED, 2},
	{"run.total_cost", "total cost (currency)", "currency", CALC_D_NUM, 4},
};
/* The run normalised per GPU, per token and per GPU-hour (catalog_step.c; the cost per
 * 10^6 tokens is run.total_cost's, catalog_run.c), so that plans of other sizes, token
 * budgets and prices compare; the GPU count is Table 1's, so that the columns leave
 * room for their headers. */
static const struct cli_cmp_metric norm_q[] = {
	{"step.tokens_per_s_per_gpu", "tokens/s per GPU", "tokens/s", CALC_D_NUM, 4},
	{"run.tokens_per_gpu_hour", "tokens per GPU-hour", "tokens", CALC_D_NUM, 4},
	{"run.gpu_hours_per_btokens", "GPU-hours per 10\xe2\x81\xb9 tokens", "GPU-h", CALC_D_NUM, 4},
	{"cluster.gpu_hour_cost", "GPU-hour price (currency)", "currency", CALC_D_FIXED, 2},
	/* "cost", not "total cost": a header holds 47 bytes (struct calc_col), and the
	 * mixed-currency header "(each plan's currency)" would be cut; the section's prose
	 * says it is the total cost */
	{"run.cost_per_mtokens", "cost per 10\xe2\x81\xb6 tokens (currency)", "currency", CALC_D_FIXED, 2},
};
#define N(a) (int)(sizeof a / sizeof a[0])

static int q_table(FILE *f, struct cli_cmp *c, const struct cli_cmp_metric *m, int nm, int fits,
                   const char *caption, const char *id, struct calc_diag *d)
{
	struct calc_table t;
	if (cli_cmp_quantities(c, m, nm, fits, 1, id, caption, &t, d) < 0)
		return -1;
	md_table(f, &t, caption, id);
	calc_table_free(&t);
	return 0;
}

static int p_table(FILE *f, struct cli_cmp *c, const char *table, const char *key, const char *val,
                   const char *caption, const char *id, struct calc_diag *d)
{
	struct calc_table t;
	if (cli_cmp_pivot(c, table, key, val, 1, caption, &t, d) < 0)
		return -1;
	md_table(f, &t, caption, id);
	calc_table_free(&t);
	return 0;
}

static int text_of(struct cli_cmp *c, int k, const char *name, char *buf, size_t n, struct calc_diag *d)
{
	struct calc_value v;
	if (calc_catalog_get(&c->ctx[k], name, &v, d) < 0)
		return -1;
	if (v.str)
		snprintf(buf, n, "%s", v.str);
	else
		calc_fmt_fixed(v.num, 0, CALC_SEP_LONG, buf, n);
	return 0;
}

/* The legend: each plan's letter, title and file as a key (a list, so that a long title
 * reads on one line rather than wrapping in a narrow column), then a table of what each
 * plan runs: model, GPU, GPU count, split, schedule, recomputation and recipe, every
 * column a short name or a number. */
static int plans_table(FILE *f, struct cli_cmp *c, struct calc_diag *d)
{
	static const char *const cols[] = {"model.name", "gpu.name",      "plan.gpus",      "plan.tp",    "plan.pp",
	                                   "plan.dp",    "plan.cp",       "plan.schedule",  "plan.recompute",
	                                   "plan.recipe"};
	static const char *const heads[] = {"model", "GPU", "GPUs", "TP", "PP", "DP", "CP", "schedule", "recompute",
	                                    "recipe"};
	struct calc_table t;
	char buf[CALC_PATH_MAX];
	fputs("The plans, by the letter every table and chart calls them:\n\n", f);
	for (int k = 0; k < c->n; k++) {
		if (text_of(c, k, "plan.title", buf, sizeof buf, d) < 0)
			return -1;
		fprintf(f, "- **%s**: ", c->label[k]);
		md_cell(f, buf);
		fputs(" (", f);
		md_cell(f, c->files[k]);
		fputs(")\n", f);
	}
	fputc('\n', f);
	calc_table_init(&t, "compare-plans", "The plans compared");
	calc_table_col(&t, "plan", "", CALC_D_TEXT, 0);
	for (int j = 0; j < N(cols); j++)
		calc_table_col(&t, heads[j], "", CALC_D_TEXT, 0);
	for (int k = 0; k < c->n; k++) {
		int r = calc_table_row(&t);
		calc_table_str(&t, r, 0, c->label[k]);
		for (int j = 0; j < N(cols); j++) {
			if (text_of(c, k, cols[j], buf, sizeof buf, d) < 0) {
				calc_table_free(&t);
				return -1;
			}
			calc_table_str(&t, r, 1 + j, buf);
		}
	}
	md_table(f, &t, "What each plan runs: A is the baseline of every difference", "compare-plans");
	calc_table_free(&t);
	return 0;
}

/* PATH.tmp, renamed by close_tmp when whole. */
static FILE *open_tmp(const char *path)
{
	char tmp[CALC_PATH_MAX * 2 + 8];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	return fopen(tmp, "w");
}

static int close_tmp(FILE *f, const char *path, struct calc_diag *d)
{
	char tmp[CALC_PATH_MAX * 2 + 8];
	int bad = ferror(f);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
		int e = errno;
		remove(tmp);
		return calc_error(d, path, 0, "cannot write: %s", strerror(e));
	}
	return 0;
}

/* compare-memory.tsv: a row per stage, a column per plan (total per GPU, bytes), then
 * each plan's usable capacity. */
static int memory_data(struct cli_cmp *c, const char *path, struct calc_diag *d)
{
	struct calc_table t;
	double cap[CLI_CMP_MAX];
	FILE *f;
	for (int k = 0; k < c->n; k++) {
		struct calc_value tot, head;
		if (calc_catalog_get(&c->ctx[k], "memory.total", &tot, d) < 0 ||
		    calc_catalog_get(&c->ctx[k], "memory.headroom", &head, d) < 0)
			return -1;
		cap[k] = tot.num + head.num;
	}
	if (cli_cmp_pivot(c, "memory-stages", "stage", "total", 0, "memory per stage", &t, d) < 0)
		return -1;
	if (!(f = open_tmp(path))) {
		calc_table_free(&t);
		return calc_error(d, path, 0, "cannot write: %s", strerror(errno));
	}
	fputs("stage", f);
	for (int k = 0; k < c->n; k++)
		fprintf(f, "\t%s", c->label[k]);
	for (int k = 0; k < c->n; k++)
		fprintf(f, "\tcap %s", c->label[k]);
	fputc('\n', f);
	for (int r = 0; r < t.nrows; r++) {
		fputs(t.cells[r * t.ncols].s, f);
		for (int k = 0; k < c->n; k++) {
			double v = t.cells[r * t.ncols + 1 + k].v;
			if (isnan(v))
				fputs("\tNaN", f);
			else
				fprintf(f, "\t%.10g", v);
		}
		for (int k = 0; k < c->n; k++)
			fprintf(f, "\t%.10g", cap[k]);
		fputc('\n', f);
	}
	calc_table_free(&t);
	return close_tmp(f, path, d);
}

/* compare-step.tsv: a row per plan, a column per component of the step (seconds); the
 * rows of the catalog table `step` but its last, the step itself. */
static int step_data(struct cli_cmp *c, const char *path, struct calc_diag *d)
{
	struct calc_table t;
	FILE *f;
	if (cli_cmp_pivot(c, "step", "component", "time", 0, "step", &t, d) < 0)
		return -1;
	if (!(f = open_tmp(path))) {
		calc_table_free(&t);
		return calc_error(d, path, 0, "cannot write: %s", strerror(errno));
	}
	fputs("plan", f);
	for (int r = 0; r + 1 < t.nrows; r++)
		fprintf(f, "\t%s", t.cells[r * t.ncols].s);
	fputc('\n', f);
	for (int k = 0; k < c->n; k++) {
		fputs(c->label[k], f);
		for (int r = 0; r + 1 < t.nrows; r++) {
			double v = t.cells[r * t.ncols + 1 + k].v;
			fprintf(f, "\t%.10g", isnan(v) ? 0.0 : v);
		}
		fputc('\n', f);
	}
	calc_table_free(&t);
	return close_tmp(f, path, d);
}

/* A number as a reader rounds it (calc_fmt_reader_dec: at most 'dec' decimals, four
 * significant digits past the integer part), with separators in long integers. */
static const char *num(double x, int dec, char *buf, size_t n)
{
	calc_fmt_fixed(x, x == floor(x) ? 0 : calc_fmt_reader_dec(x, dec), CALC_SEP_LONG, buf, n);
	return buf;
}

/* One input of a plan that a comparison names when it differs: a catalog quantity and
 * how the prose calls it. */
static const struct {
	const char *quantity, *what;
} inputs[] = {
	{"model.name", "model"},
	{"gpu.title", "GPU"},
	{"plan.gpus", "GPU count"},
	{"plan.tp", "TP"},
	{"plan.pp", "PP"},
	{"plan.dp", "DP"},
	{"plan.cp", "CP"},
	{"plan.schedule", "schedule"},
	{"plan.recompute", "recomputation"},
	{"plan.recipe", "recipe"},
	{"plan.seq_len", "sequence length"},
	{"plan.global_batch", "global batch"},
	{"plan.micro_batch", "micro-batch"},
	{"plan.tokens", "token budget"},
	{"cluster.gpu_hour_cost", "price per GPU-hour"},
	{"plan.currency", "currency"},
};

/* Input 'name' of plan k as prose writes it: its text, or its number rounded as a reader
 * would (a long count in millions, billions or trillions). */
static int input_text(struct cli_cmp *c, int k, const char *name, char *buf, size_t n, struct calc_diag *d)
{
	struct calc_value v;
	char x[64];
	double a;
	if (calc_catalog_get(&c->ctx[k], name, &v, d) < 0)
		return -1;
	a = fabs(v.num);
	if (v.str)
		snprintf(buf, n, "%s", v.str[0] ? v.str : "none");
	else if (!strcmp(name, "cluster.gpu_hour_cost")) /* a price: cents, as the tables */
		calc_fmt_fixed(v.num, 2, CALC_SEP_LONG, buf, n);
	else if (a >= 1e12)
		snprintf(buf, n, "%s trillion", num(v.num / 1e12, 1, x, sizeof x));
	else if (a >= 1e9)
		snprintf(buf, n, "%s billion", num(v.num / 1e9, 1, x, sizeof x));
	else if (a >= 1e6)
		snprintf(buf, n, "%s million", num(v.num / 1e6, 1, x, sizeof x));
	else
		snprintf(buf, n, "%s", num(v.num, 2, x, sizeof x));
	return 0;
}

/* A factor of a product (x 1.199, x 0.6): four significant digits and no trailing
 * zeros, so that the reader's product of the printed factors comes to the printed
 * whole. */
static const char *factor(double x, char *buf, size_t n)
{
	snprintf(buf, n, "%.4g", x);
	return buf;
}

/* Catalog quantity 'name' of plan k. */
static int qv(struct cli_cmp *c, int k, const char *name, double *v, struct calc_diag *d)
{
	struct calc_value x;
	if (calc_catalog_get(&c->ctx[k], name, &x, d) < 0)
		return -1;
	*v = x.num;
	return 0;
}

/* Why plan k's throughput per GPU and cost per token differ from plan A's, factor by
 * factor.  Throughput per GPU is MFU x peak / model FLOPs per token, the definition of
 * MFU turned round (Chowdhery et al. 2022, PaLM, §4 and App. B: MFU = achieved tokens/s x
 * model FLOPs per token / peak FLOP/s; step.mfu, step.peak_flops, step.flops_per_token
 * of catalog_step.c), so the ratio of two plans' throughput is the product of the ratios
 * of the three; every factor is a catalog value of each plan and holds for any pair.  The
 * cost of 10^6 tokens is the GPU-hours of 10^9 tokens / 1000 x the price per GPU-hour x
 * the share checkpoints, failures and energy add (run.total_cost / run.cost, the cost of
 * the failure-free run being run.gpu_hours x cluster.gpu_hour_cost, catalog_run.c); costs
 * in two currencies are not compared. */
static int why_per_gpu(FILE *f, struct cli_cmp *c, int k, struct calc_diag *d)
{
	double g[2], mfu[2], pk[2], fpt[2], h[2], price[2], cpm[2], tot[2], cost[2];
	char a[64], b[64], x[64];
	const int p[2] = {0, k};
	for (int i = 0; i < 2; i++)
		if (qv(c, p[i], "step.tokens_per_s_per_gpu", &g[i], d) < 0 || qv(c, p[i], "step.mfu", &mfu[i], d) < 0 ||
		    qv(c, p[i], "step.peak_flops", &pk[i], d) < 0 || qv(c, p[i], "step.flops_per_token", &fpt[i], d) < 0 ||
		    qv(c, p[i], "run.gpu_hours_per_btokens", &h[i], d) < 0 ||
		    qv(c, p[i], "cluster.gpu_hour_cost", &price[i], d) < 0 ||
		    qv(c, p[i], "run.cost_per_mtokens", &cpm[i], d) < 0 || qv(c, p[i], "run.total_cost", &tot[i], d) < 0 ||
		    qv(c, p[i], "run.cost", &cost[i], d) < 0)
			return -1;
	/* a ratio needs both sides positive and finite (a plan with no throughput, a price
	 * of 0): otherwise no factor is given rather than "inf" or "nan" */
	for (int i = 0; i < 2; i++)
		if (!(g[i] > 0 && isfinite(g[i]) && mfu[i] > 0 && pk[i] > 0 && fpt[i] > 0 && h[i] > 0 && isfinite(h[i]))) {
			fputs("A plan without a positive throughput has no throughput or cost per token to compare.\n", f);
			return 0;
		}
	fprintf(f, "A step is not a unit that compares across models, batches and clusters; per GPU, plan %s trains "
	           "%s tokens/s against %s in plan %s (%s\xc3\x97). ",
	        c->label[k], num(g[1], 0, a, sizeof a), num(g[0], 0, b, sizeof b), c->label[0],
	        num(g[1] / g[0], 2, x, sizeof x));
	fputs("A GPU's throughput is its MFU times its peak divided by the model FLOPs of a token, so that this "
	      "ratio is the ratio of MFU times that of the peaks divided by that of the FLOPs, to rounding: ", f);
	fprintf(f, "MFU %s%% against %s%% (%s\xc3\x97), ", num(100 * mfu[1], 1, a, sizeof a),
	        num(100 * mfu[0], 1, b, sizeof b), factor(mfu[1] / mfu[0], x, sizeof x));
	if (pk[1] == pk[0])
		fprintf(f, "the same dense BF16 peak (%s TFLOP/s), ", num(pk[0] / 1e12, 0, a, sizeof a));
	else
		fprintf(f, "a dense BF16 peak of %s TFLOP/s against %s (%s\xc3\x97), ", num(pk[1] / 1e12, 0, a, sizeof a),
		        num(pk[0] / 1e12, 0, b, sizeof b), factor(pk[1] / pk[0], x, sizeof x));
	fprintf(f, "%s GFLOP per token against %s (%s\xc3\x97)", num(fpt[1] / 1e9, 0, a, sizeof a),
	        num(fpt[0] / 1e9, 0, b, sizeof b), factor(fpt[1] / fpt[0], x, sizeof x));
	fprintf(f, "; 10\xe2\x81\xb9 tokens take %s GPU-hours against %s ([](#compare-norm)).",
	        num(h[1], 0, a, sizeof a), num(h[0], 0, b, sizeof b));
	if (c->currency_mixed) {
		fputs(" Their costs are in different currencies (plan.currency) and are not compared.\n", f);
		return 0;
	}
	if (!(price[0] > 0 && price[1] > 0 && cpm[0] > 0 && cost[0] > 0 && cost[1] > 0 && isfinite(tot[0]) &&
	      isfinite(tot[1]))) {
		fputs(" A plan without a price per GPU-hour has no cost to compare.\n", f);
		return 0;
	}
	{
		char unit[24] = "";
		if (c->currency[0])
			snprintf(unit, sizeof unit, " %s", c->currency);
		fprintf(f, " A million tokens cost %s%s against %s (%s\xc3\x97): ", num(cpm[1], 2, a, sizeof a), unit,
		        num(cpm[0], 2, b, sizeof b), num(cpm[1] / cpm[0], 2, x, sizeof x));
		fprintf(f, "%s\xc3\x97 the GPU-hours, ", factor(h[1] / h[0], x, sizeof x));
		if (price[1] == price[0])
			fprintf(f, "at the same price per GPU-hour (%s)", num(price[0], 2, a, sizeof a));
		else
			fprintf(f, "at %s\xc3\x97 the price per GPU-hour (%s against %s)", factor(price[1] / price[0], x, sizeof x),
			        num(price[1], 2, a, sizeof a), num(price[0], 2, b, sizeof b));
		fprintf(f, ", with checkpoints, failures and energy adding %s%% against %s%% ([](#compare-run)).\n",
		        num(100 * (tot[1] / cost[1] - 1), 1, a, sizeof a), num(100 * (tot[0] / cost[0] - 1), 1, b, sizeof b));
	}
	return 0;
}

/* What differs: for each plan after A, the inputs in which it differs from A (model, GPUs,
 * split, schedule, recomputation, recipe, batch, budget), and why its step differs: the
 * components of the step (the catalog table `step`) that change it most, then why the
 * throughput per GPU and the cost per token differ, factor by factor (why_per_gpu).
 * Every figure is a catalog value of one plan; the differences and ratios are the only
 * arithmetic, and no sentence is fixed for one pair: each names the values it compares. */
static int differs_prose(FILE *f, struct cli_cmp *c, struct calc_diag *d)
{
	struct calc_table st;
	char a[CALC_PATH_MAX], b[CALC_PATH_MAX];
	if (cli_cmp_pivot(c, "step", "component", "time", 0, "step", &st, d) < 0)
		return -1;
	fputs("## What differs and why {#compare-why}\n\n", f);
	for (int k = 1; k < c->n; k++) {
		int nd = 0;
		struct calc_value ta, tb;
		fprintf(f, "Plan %s (", c->label[k]);
		if (text_of(c, k, "plan.title", b, sizeof b, d) < 0)
			goto fail;
		md_cell(f, b);
		fprintf(f, ") against plan %s: ", c->label[0]);
		for (int i = 0; i < N(inputs); i++) {
			if (input_text(c, 0, inputs[i].quantity, a, sizeof a, d) < 0 ||
			    input_text(c, k, inputs[i].quantity, b, sizeof b, d) < 0)
				goto fail;
			if (!strcmp(a, b))
				continue;
			fprintf(f, "%s%s (", nd ? ", " : "it differs in the ", inputs[i].what);
			md_cell(f, b);
			fputs(" against ", f);
			md_cell(f, a);
			fputc(')', f);
			nd++;
		}
		fputs(nd ? ".\n" : "none of the model, GPUs, split, schedule, recomputation, recipe, batch, token "
		                   "budget and price differ; the difference is in other keys of the plan files.\n", f);
		if (calc_catalog_get(&c->ctx[0], "step.time", &ta, d) < 0 ||
		    calc_catalog_get(&c->ctx[k], "step.time", &tb, d) < 0)
			goto fail;
		fprintf(f, "Its step takes %s s against %s s", num(tb.num, 2, a, sizeof a), num(ta.num, 2, b, sizeof b));
		{
			/* the two components of the step whose change is largest */
			int best[2] = {-1, -1};
			for (int r = 0; r + 1 < st.nrows; r++) {
				double da = st.cells[r * st.ncols + 1].v, db = st.cells[r * st.ncols + 1 + k].v;
				double dv = (isnan(db) ? 0 : db) - (isnan(da) ? 0 : da);
				for (int j = 0; j < 2; j++) {
					double bv = 0;
					if (best[j] >= 0) {
						double ba = st.cells[best[j] * st.ncols + 1].v;
						double bb = st.cells[best[j] * st.ncols + 1 + k].v;
						bv = (isnan(bb) ? 0 : bb) - (isnan(ba) ? 0 : ba);
					}
					if (best[j] < 0 || fabs(dv) > fabs(bv)) {
						if (j == 0)
							best[1] = best[0];
						best[j] = r;
						break;
					}
				}
			}
			for (int j = 0; j < 2 && best[j] >= 0; j++) {
				double da = st.cells[best[j] * st.ncols + 1].v, db = st.cells[best[j] * st.ncols + 1 + k].v;
				double dv = (isnan(db) ? 0 : db) - (isnan(da) ? 0 : da);
				if (dv == 0)
					break;
				fprintf(f, "%s%s %s%s s", j ? ", then " : "; what changes it most is ", st.cells[best[j] * st.ncols].s,
				        dv > 0 ? "+" : "\xe2\x88\x92", num(fabs(dv), 2, a, sizeof a));
			}
		}
		fputs(" ([](#compare-step)).\n\n", f);
		if (why_per_gpu(f, c, k, d) < 0)
			goto fail;
		fputs("\n", f);
	}
	calc_table_free(&st);
	return 0;
fail:
	calc_table_free(&st);
	return -1;
}

int cli_cmp_write_md(struct cli_cmp *c, FILE *f, const char *datadir, struct calc_diag *d)
{
	char path[CALC_PATH_MAX * 2];
	fputs("# The plans side by side {#compare}\n\n", f);
	fprintf(f, "This report compares %d plans. Every number in it is computed by trainplan from the plan "
	           "files, as `trainplan get`, `trainplan table` and `trainplan compare` compute it for each "
	           "plan alone; a column or row B \xe2\x88\x92 A is the difference of plan B from plan A, "
	           "the baseline, in the same unit. A dash marks a row a plan does not have (a stage "
	           "beyond its pipeline).\n\n", c->n);
	if (plans_table(f, c, d) < 0)
		return -1;
	{
		struct calc_table t;
		if (cli_cmp_quantities(c, cli_cmp_headline, cli_cmp_nheadline, 1, 1, "compare", "", &t, d) < 0)
			return -1;
		md_table(f, &t, "The headline numbers of each plan, as `trainplan compare` gives them", "compare");
		calc_table_free(&t);
	}
	if (c->currency_mixed)
		fputs("The plans name different currencies (plan.currency), so each plan's costs are in its own "
		      "and no difference of costs is given.\n\n", f);
	else if (!c->currency[0])
		fputs("Costs are in the unit of the plans' prices (cluster.gpu_hour_cost), which name no currency "
		      "(plan.currency).\n\n", f);
	if (differs_prose(f, c, d) < 0)
		return -1;
	fputs("## Per GPU, per token and per GPU-hour {#compare-norm}\n\n"
	      "The same runs normalised, so that plans of other sizes, token budgets and prices compare: "
	      "the throughput of one GPU, the tokens one GPU-hour trains, the GPU-hours of a fixed number "
	      "of tokens (failure-free, as the run's GPU-hours) and their total cost (with checkpoints, "
	      "failures and energy, as the run's total cost).\n\n", f);
	if (q_table(f, c, norm_q, N(norm_q), 0, "Per GPU, per token and per GPU-hour", "compare-norm", d) < 0)
		return -1;

	fputs("## Memory per GPU {#compare-memory}\n\n"
	      "The memory of one GPU of each plan's worst pipeline stage, by part, and of every stage; "
	      "the headroom is the GPU's usable memory less the total, negative where the plan does "
	      "not fit.\n\n", f);
	if (q_table(f, c, memory_q, N(memory_q), 1, "Memory per GPU of the worst stage", "compare-memory", d) < 0 ||
	    p_table(f, c, "memory-stages", "stage", "total", "Memory per GPU of every pipeline stage",
	            "compare-memory-stages", d) < 0)
		return -1;
	fputs("![Memory per GPU of every pipeline stage; the dashed line is the usable memory of a GPU, "
	      "labelled with the plans whose GPUs have it](compare-memory)\n\n", f);

	fputs("## Step time {#compare-step}\n\n"
	      "One optimizer step of each plan, by component of the critical pipeline stage, and the "
	      "utilisation it gives.\n\n", f);
	if (p_table(f, c, "step", "component", "time", "Step time by component", "compare-step", d) < 0 ||
	    q_table(f, c, step_q, N(step_q), 0, "Step time, utilisation and throughput", "compare-mfu", d) < 0)
		return -1;
	fputs("![Step time of each plan by component](compare-step)\n\n", f);

	fputs("## Communication {#compare-comm}\n\n"
	      "Bytes one GPU sends per step, by parallel dimension, over all tiers and over the network, "
	      "and the tier each dimension's group uses.\n\n", f);
	if (p_table(f, c, "comm", "dimension", "bytes", "Bytes per GPU per step by dimension, all tiers",
	            "compare-comm", d) < 0 ||
	    p_table(f, c, "comm", "dimension", "network bytes", "Bytes per GPU per step by dimension over the network",
	            "compare-comm-net", d) < 0 ||
	    p_table(f, c, "comm", "dimension", "tier", "Network tier of each dimension", "compare-comm-tier", d) < 0 ||
	    q_table(f, c, comm_q, N(comm_q), 0, "Communication per GPU per step: bytes and time if none overlapped",
	            "compare-comm-time", d) < 0)
		return -1;

	fputs("## Run time and cost {#compare-run}\n\n"
	      "The whole run for each plan's token budget, before and with checkpoints and failures.\n\n", f);
	if (q_table(f, c, run_q, N(run_q), 0, "Run time and cost", "compare-run", d) < 0)
		return -1;

	snprintf(path, sizeof path, "%s/compare-memory.tsv", datadir);
	if (memory_data(c, path, d) < 0)
		return -1;
	snprintf(path, sizeof path, "%s/compare-step.tsv", datadir);
	if (step_data(c, path, d) < 0)
		return -1;
	return 0;
}
