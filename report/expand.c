/*
 * expand.c -- replace the calc directives of one chapter by plain cmark nodes.
 *
 * docs/architecture.md §6.  Three kinds of directive:
 *  - an inline code span starting with '=' becomes a text node holding the value
 *    (expr.c evaluates it);
 *  - a fenced code block with info string "calc" becomes a GFM table node built from a
 *    catalog table:
 *        table NAME [KEY=VALUE ...] [with KEY=VALUE, ...]
 *        caption: text        (optional; default: the catalog table's title)
 *        id: tab-name         (optional; default: tab-NAME)
 *  - an image whose target is a figure name (figures/NAME.gp exists) standing alone in
 *    its paragraph becomes a figure (numbered later by doc.c).
 * The table and figure nodes carry a struct rpt_pending in user_data until doc.c numbers
 * them.  Every failure is a diagnostic at chapter.md:LINE:COL; expansion continues so
 * that one run reports every problem.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmark-gfm-core-extensions.h>

#include "report.h"

/* Plain text of a node's inline children (for captions and headings). */
char *rpt_node_text(cmark_node *n);
char *rpt_node_text(cmark_node *n)
{
	size_t cap = 64, len = 0;
	char *buf = xmalloc(cap);
	buf[0] = 0;
	cmark_iter *it = cmark_iter_new(n);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *c = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		const char *lit = NULL;
		switch (cmark_node_get_type(c)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
			lit = cmark_node_get_literal(c);
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			lit = " ";
			break;
		default:
			break;
		}
		if (!lit)
			continue;
		size_t l = strlen(lit);
		if (len + l + 1 > cap) {
			cap = (len + l + 1) * 2;
			buf = xrealloc(buf, cap);
		}
		memcpy(buf + len, lit, l + 1);
		len += l;
	}
	cmark_iter_free(it);
	return buf;
}

static cmark_node *text_node(const char *s)
{
	cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
	cmark_node_set_literal(t, s);
	return t;
}

/* ======================================================================== */
/* Inline values                                                             */
/* ======================================================================== */

static int expand_inline(cmark_node *code, const char *file, struct calc_ctx *ctx,
                         struct calc_diag *d)
{
	const char *lit = cmark_node_get_literal(code);
	/* cmark gives the column of the literal's first character, the '='; the expression
	 * starts one column later (exact while the span sits on one line). */
	struct rpt_loc loc;
	rpt_node_loc(code, file, &loc);
	loc.col++;
	struct rpt_scope sc = {ctx, NULL, NULL};
	char buf[512];
	if (rpt_inline_eval(lit + 1, &sc, &loc, buf, sizeof buf, d) < 0)
		return -1;
	cmark_node *t = text_node(buf);
	cmark_node_insert_before(code, t);
	cmark_node_free(code);
	return 0;
}

/* ======================================================================== */
/* calc blocks -> GFM tables                                                 */
/* ======================================================================== */

static cmark_node *new_ext_node(cmark_node_type type)
{
	cmark_syntax_extension *ext = cmark_find_syntax_extension("table");
	return cmark_node_new_with_ext(type, ext);
}

/* Build a GFM table node from a catalog table.  Numbers are right-aligned. */
static cmark_node *table_node(const struct calc_table *t, int *numeric)
{
	cmark_node *tab = new_ext_node(CMARK_NODE_TABLE);
	uint8_t align[24];
	for (int c = 0; c < t->ncols; c++) {
		numeric[c] = t->cols[c].disp != CALC_D_TEXT;
		align[c] = numeric[c] ? 'r' : 'l';
	}
	cmark_gfm_extensions_set_table_columns(tab, (uint16_t)t->ncols);
	cmark_gfm_extensions_set_table_alignments(tab, (uint16_t)t->ncols, align);
	char buf[4096]; /* a cell of the longest prose column (validation notes) in whole */
	for (int r = -1; r < t->nrows; r++) {
		cmark_node *row = new_ext_node(CMARK_NODE_TABLE_ROW);
		if (r < 0)
			cmark_gfm_extensions_set_table_row_is_header(row, 1);
		for (int c = 0; c < t->ncols; c++) {
			/* cells without the extension's opaque record: it only serves the parser,
			 * and cmark-gfm 0.29's table extension never frees it for cells */
			cmark_node *cell = cmark_node_new(CMARK_NODE_TABLE_CELL);
			cmark_node_set_syntax_extension(cell, cmark_find_syntax_extension("table"));
			if (r < 0) {
				calc_table_header_text(t, c, buf, sizeof buf);
				for (char *u = buf; *u; u++)
					if (*u == '_')
						*u = ' '; /* "weight_copies" reads "weight copies" */
			}
			else
				calc_table_cell_text(t, r, c, buf, sizeof buf);
			if (buf[0])
				cmark_node_append_child(cell, text_node(buf));
			cmark_node_append_child(row, cell);
		}
		cmark_node_append_child(tab, row);
	}
	return tab;
}

/* A table as CSV for path, added to the files written at the end of the run (the caller
 * writes them with report.html and report.pdf, whole or not at all). */
static int write_csv(const struct calc_table *t, const char *path, struct rpt_outputs *later,
                     struct calc_diag *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return calc_error(d, path, 0, "cannot write: %s", strerror(errno));
	calc_table_write(t, CALC_F_CSV, f);
	fclose(f);
	if (!later) {
		struct calc_output out = {path, buf, len};
		int rc = calc_output_write(&out, 1, d);
		free(buf);
		return rc;
	}
	later->v = xrealloc(later->v, sizeof *later->v * (size_t)(later->n + 1));
	later->v[later->n++] = (struct calc_output){xstrdup(path), buf, len};
	return 0;
}

void rpt_outputs_free(struct rpt_outputs *w)
{
	for (int i = 0; i < w->n; i++) {
		free((char *)w->v[i].path);
		free((char *)w->v[i].data);
	}
	free(w->v);
	w->v = NULL;
	w->n = 0;
}

/* 1 when 'want' names column 'name'; '_' stands for a space ("ZeRO-1_per_GPU"). */
static int same_column(const char *name, const char *want)
{
	for (; *name && *want; name++, want++)
		if (*name != *want && !(*name == ' ' && *want == '_'))
			return 0;
	return !*name && !*want;
}

/* Keep only the columns named in 'list' ("source,model,GPUs"), in that order: the
 * table argument columns= shows part of a wide catalog table.  Returns 0, or -1 after
 * a diagnostic naming the table's columns when one is unknown. */
static int select_columns(struct calc_table *t, const char *list, const struct rpt_loc *loc,
                          struct calc_diag *d)
{
	int pick[24], n = 0;
	char buf[512];
	snprintf(buf, sizeof buf, "%s", list);
	char *save = NULL;
	for (char *c = strtok_r(buf, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
		int k = 0;
		while (k < t->ncols && !same_column(t->cols[k].name, c))
			k++;
		if (k == t->ncols) {
			char names[1024] = "";
			for (int i = 0; i < t->ncols; i++)
				snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
				         t->cols[i].name);
			return rpt_error(d, CALC_M_BAD_ARGUMENT, loc, "columns=: table %s has no column '%s' (it has: %s)", t->name, c, names);
		}
		if (n == 24)
			return rpt_error(d, CALC_M_BAD_ARGUMENT, loc, "columns=: at most 24 columns");
		pick[n++] = k;
	}
	if (n == 0)
		return rpt_error(d, CALC_M_BAD_ARGUMENT, loc, "columns= names no column");
	struct calc_col cols[24];
	struct calc_cell *cells = xcalloc((size_t)(t->nrows ? t->nrows : 1) * (size_t)n, sizeof *cells);
	for (int j = 0; j < n; j++)
		cols[j] = t->cols[pick[j]];
	for (int r = 0; r < t->nrows; r++)
		for (int j = 0; j < n; j++) {
			struct calc_cell *c = &t->cells[r * t->ncols + pick[j]];
			cells[r * n + j].v = c->v;
			cells[r * n + j].s = c->s ? xstrdup(c->s) : NULL;
		}
	for (int i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i].s);
	free(t->cells);
	t->cells = cells;
	t->caprows = t->nrows;
	memcpy(t->cols, cols, sizeof cols[0] * (size_t)n);
	t->ncols = n;
	return 0;
}

static int expand_block(cmark_node *block, const char *file, struct calc_ctx *ctx,
                        const struct rpt_opts *o, struct calc_diag *d)
{
	const char *lit = cmark_node_get_literal(block);
	struct rpt_loc at0;
	rpt_node_loc(block, file, &at0);
	int line0 = at0.line + 1; /* first line inside the fence */
	int col0 = at0.col;
	char *text = xstrdup(lit ? lit : "");
	char name[CALC_NAME_MAX] = "", caption[400] = "", id[96] = "", with[512] = "", columns[512] = "";
	struct calc_args args = {0};
	int nlines = 0, rc = 0, have_table = 0;
	struct rpt_loc loc = {file, line0, col0};
	char *save = NULL;
	for (char *ln = strtok_r(text, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save), nlines++) {
		loc.line = line0 + nlines;
		while (*ln == ' ' || *ln == '\t')
			ln++;
		if (!*ln || *ln == '#')
			continue;
		if (!strncmp(ln, "caption:", 8)) {
			char *v = ln + 8;
			while (*v == ' ')
				v++;
			if (strlen(v) >= sizeof caption)
				rc = rpt_error(d, CALC_M_DOCUMENT, &loc, "a caption of %zu bytes: at most %zu", strlen(v),
				               sizeof caption - 1);
			snprintf(caption, sizeof caption, "%s", v);
			continue;
		}
		if (!strncmp(ln, "id:", 3)) {
			char *v = ln + 3;
			while (*v == ' ')
				v++;
			if (strlen(v) >= sizeof id) {
				rc = rpt_error(d, CALC_M_DOCUMENT, &loc, "an id of %zu bytes: at most %zu", strlen(v), sizeof id - 1);
				continue;
			}
			snprintf(id, sizeof id, "%s", v);
			for (char *p = id; *p; p++)
				if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_') {
					rc = rpt_error(d, CALC_M_DOCUMENT, &loc, "id '%s' may hold only letters, digits, '-' and '_'", id);
					break;
				}
			continue;
		}
		if (strncmp(ln, "table ", 6) != 0) {
			rc = rpt_error(d, CALC_M_SYNTAX, &loc, "unknown calc directive '%s' (expected: table NAME [KEY=VALUE ...] [with KEY=VALUE, ...], caption: TEXT, id: ID)", ln);
			continue;
		}
		if (have_table) {
			rc = rpt_error(d, CALC_M_SYNTAX, &loc, "one table per calc block");
			continue;
		}
		have_table = 1;
		char *w = strstr(ln, " with ");
		if (w) {
			snprintf(with, sizeof with, "%s", w + 6);
			*w = 0;
		}
		char *save2 = NULL;
		char *tok = strtok_r(ln + 6, " \t", &save2);
		if (!tok) {
			rc = rpt_error(d, CALC_M_SYNTAX, &loc, "'table' needs a name (see: trainplan table --list)");
			continue;
		}
		snprintf(name, sizeof name, "%s", tok);
		while ((tok = strtok_r(NULL, " \t", &save2))) {
			char *eq = strchr(tok, '=');
			if (!eq || eq == tok) {
				rc = rpt_error(d, CALC_M_SYNTAX, &loc, "table argument '%s' is not KEY=VALUE", tok);
				continue;
			}
			if (args.n >= 8) {
				rc = rpt_error(d, CALC_M_BAD_ARGUMENT, &loc, "at most 8 table arguments");
				break;
			}
			if (eq - tok == 7 && !strncmp(tok, "columns", 7)) { /* the report's, not the table's */
				snprintf(columns, sizeof columns, "%s", eq + 1);
				continue;
			}
			snprintf(args.key[args.n], sizeof args.key[0], "%.*s", (int)(eq - tok), tok);
			snprintf(args.val[args.n], sizeof args.val[0], "%s", eq + 1);
			args.n++;
		}
	}
	free(text);
	loc.line = line0;
	if (!have_table && rc == 0)
		rc = rpt_error(d, CALC_M_SYNTAX, &loc, "empty calc block (expected: table NAME ...)");
	if (rc < 0 || !have_table)
		return -1;
	if (!calc_catalog_table(name))
		return rpt_error(d, CALC_M_UNKNOWN_NAME, &loc, "unknown table '%s' (trainplan table --list names them)", name);
	struct calc_ctx *vc = NULL;
	if (with[0]) {
		vc = rpt_variant_ctx(&ctx->plan, with, &loc, d);
		if (!vc)
			return -1;
	}
	struct calc_table t;
	calc_table_init(&t, name, "");
	struct calc_diag tmp = {0};
	if (calc_catalog_build(vc ? vc : ctx, name, 0, &args, &t, &tmp) < 0) {
		char msg[512];
		/* the library's kind (an unknown table, an argument it does not take), else the
		 * table failed to evaluate */
		enum calc_msg kind = tmp.nrecs > 0 && tmp.recs[0].kind != CALC_M_NONE ? tmp.recs[0].kind : CALC_M_EVALUATION;
		snprintf(msg, sizeof msg, "%s", calc_diag_first(&tmp, "failed"));
		char *nl = strchr(msg, '\n');
		if (nl)
			*nl = 0;
		calc_diag_free(&tmp);
		calc_table_free(&t);
		if (vc) {
			calc_ctx_free(vc);
			free(vc);
		}
		return rpt_error(d, kind, &loc, "table %s: %s", name, msg);
	}
	calc_diag_free(&tmp);
	if (columns[0] && select_columns(&t, columns, &loc, d) < 0) {
		calc_table_free(&t);
		if (vc) {
			calc_ctx_free(vc);
			free(vc);
		}
		return -1;
	}

	struct rpt_pending *pd = xcalloc(1, sizeof *pd);
	pd->kind = 't';
	snprintf(pd->name, sizeof pd->name, "%s", name);
	if (id[0])
		snprintf(pd->id, sizeof pd->id, "%s", id);
	else
		snprintf(pd->id, sizeof pd->id, "tab-%s", name);
	pd->caption = xstrdup(caption[0] ? caption : t.title);
	pd->ncols = t.ncols;
	pd->note = t.note && t.note[0] ? xstrdup(t.note) : NULL;
	pd->numeric_cols = xcalloc((size_t)(t.ncols > 0 ? t.ncols : 1), sizeof(int));
	cmark_node *tab = table_node(&t, pd->numeric_cols);
	/* The table's CSV: the catalog's own (trainplan table --all) when the block shows
	 * the table as it is; otherwise the report writes what it shows. */
	if (args.n == 0 && !vc) { /* columns= shows part of it: the CSV is the whole table */
		char p[CALC_PATH_MAX];
		snprintf(p, sizeof p, "tables/%s.csv", name);
		pd->csv_path = xstrdup(p);
	} else if (o && o->write_tables && o->out_dir) {
		char p[CALC_PATH_MAX], full[CALC_PATH_MAX * 2];
		snprintf(p, sizeof p, "tables/%s.csv", pd->id);
		snprintf(full, sizeof full, "%s/%s", o->out_dir, p);
		if (write_csv(&t, full, o->later, d) == 0)
			pd->csv_path = xstrdup(p);
		else
			rc = -1;
	}
	calc_table_free(&t);
	if (vc) {
		calc_ctx_free(vc);
		free(vc);
	}
	cmark_node_set_user_data(tab, pd);
	cmark_node_insert_before(block, tab);
	cmark_node_free(block);
	return rc;
}

/* ======================================================================== */
/* Figures                                                                   */
/* ======================================================================== */

/* A figure name: lower-case letters, digits, '-' and '_' (no '.', no '/'). */
static int is_figure_name(const char *url)
{
	if (!url || !*url || strlen(url) >= 64)
		return 0;
	for (const char *p = url; *p; p++)
		if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '-' || *p == '_'))
			return 0;
	return 1;
}

static int expand_figure(cmark_node *img, const char *file, const struct rpt_opts *o,
                         struct calc_diag *d)
{
	const char *name = cmark_node_get_url(img);
	struct rpt_loc loc;
	rpt_node_loc(img, file, &loc);
	/* the report is self-contained: no file, path or remote image, only its own charts */
	if (!is_figure_name(name))
		return rpt_error(d, CALC_M_FIGURE, &loc, "image '%s' is not a figure (an image names a chart of "
		                 "figures/NAME.gp by its NAME: lower-case letters, digits, '-' and '_')",
		                 name ? name : "");
	char gp[CALC_PATH_MAX];
	snprintf(gp, sizeof gp, "%s/%s.gp", o && o->figures_src ? o->figures_src : "figures", name);
	if (access(gp, R_OK) != 0)
		return rpt_error(d, CALC_M_FIGURE, &loc, "unknown figure '%s' (no %s)", name, gp);
	cmark_node *par = cmark_node_parent(img);
	int alone = par && cmark_node_get_type(par) == CMARK_NODE_PARAGRAPH;
	for (cmark_node *c = par ? cmark_node_first_child(par) : NULL; c && alone; c = cmark_node_next(c)) {
		if (c == img)
			continue;
		const char *lit = cmark_node_get_literal(c);
		if (cmark_node_get_type(c) != CMARK_NODE_TEXT || !lit || strspn(lit, " \t") != strlen(lit))
			alone = 0;
	}
	if (!alone)
		return rpt_error(d, CALC_M_FIGURE, &loc, "figure '%s' must stand alone in its paragraph", name);
	/* drop blank text around the image so the paragraph holds exactly one image */
	for (cmark_node *c = cmark_node_first_child(par), *next; c; c = next) {
		next = cmark_node_next(c);
		if (c != img)
			cmark_node_free(c);
	}
	struct rpt_pending *pd = xcalloc(1, sizeof *pd);
	pd->kind = 'f';
	snprintf(pd->name, sizeof pd->name, "%s", name);
	const char *title = cmark_node_get_title(img);
	if (title && title[0] == '#' && strlen(title + 1) >= sizeof pd->id) {
		rpt_error(d, CALC_M_DOCUMENT, &loc, "an id of %zu bytes: at most %zu", strlen(title + 1), sizeof pd->id - 1);
		free(pd);
		return -1;
	}
	if (title && title[0] == '#')
		snprintf(pd->id, sizeof pd->id, "%s", title + 1);
	else
		snprintf(pd->id, sizeof pd->id, "fig-%s", name);
	pd->caption = rpt_node_text(img);
	if (!pd->caption[0])
		rpt_error(d, CALC_M_FIGURE, &loc, "figure '%s' needs a caption (the image's alt text)", name);
	cmark_node_set_user_data(img, pd);
	if (o && o->svgs) {
		/* the path number_document gives the figure */
		char svg[CALC_PATH_MAX * 2];
		snprintf(svg, sizeof svg, "%s/figures/%s.svg", o->out_dir ? o->out_dir : "output", name);
		rpt_svg_prefetch(o->svgs, name, svg);
	}
	return 0;
}

/* ======================================================================== */
/* One chapter                                                               */
/* ======================================================================== */

int rpt_expand(cmark_node *chapter, const char *file, struct calc_ctx *ctx,
               const struct rpt_opts *o, struct calc_diag *d)
{
	/* Collect first: the tree changes while directives are replaced. */
	size_t n = 0, cap = 64;
	cmark_node **list = xmalloc(cap * sizeof *list);
	cmark_node_type *types = xmalloc(cap * sizeof *types);
	cmark_iter *it = cmark_iter_new(chapter);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *c = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		cmark_node_type ty = cmark_node_get_type(c);
		int take = 0;
		if (ty == CMARK_NODE_CODE) {
			const char *lit = cmark_node_get_literal(c);
			take = lit && lit[0] == '=';
		} else if (ty == CMARK_NODE_CODE_BLOCK) {
			const char *info = cmark_node_get_fence_info(c);
			take = info && (!strcmp(info, "calc") || !strncmp(info, "calc ", 5));
		} else if (ty == CMARK_NODE_IMAGE) {
			take = 1; /* every image is a figure, or an error */
		}
		if (take) {
			if (n == cap) {
				cap *= 2;
				list = xrealloc(list, cap * sizeof *list);
				types = xrealloc(types, cap * sizeof *types);
			}
			types[n] = ty;
			list[n++] = c;
		}
	}
	cmark_iter_free(it);
	int rc = 0;
	/* Values first, so that captions holding values read as text. */
	for (size_t i = 0; i < n; i++)
		if (types[i] == CMARK_NODE_CODE && expand_inline(list[i], file, ctx, d) < 0)
			rc = -1;
	for (size_t i = 0; i < n; i++) {
		cmark_node_type ty = types[i]; /* code spans were replaced (and freed) above */
		if (ty == CMARK_NODE_CODE_BLOCK && expand_block(list[i], file, ctx, o, d) < 0)
			rc = -1;
		if (ty == CMARK_NODE_IMAGE && expand_figure(list[i], file, o, d) < 0)
			rc = -1;
	}
	free(list);
	free(types);
	cmark_consolidate_text_nodes(chapter);
	return rc;
}
