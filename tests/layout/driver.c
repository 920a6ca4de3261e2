/*
 * driver.c -- layout test driver: Markdown file -> text pages or PDF, without the
 * calculation library or the directive expansion.
 *
 *   layout-driver [--letter] [--ragged] [--pdf OUT.pdf] [--header-breaks] FILE.md
 * --header-breaks prints "header breaks: N" on standard error: the table-header words the
 * layout broke inside (tests/layout/check-header-words.sh).
 *
 * It builds the expanded-document contract of report/report.h by hand, so the layout
 * goldens (tests/layout/NAME.md -> NAME.out_text) test the layout engine alone:
 *  - headings numbered 1, 1.1, 1.1.1 ... with ids "sec-NUMBER"; a heading whose
 *    text starts with "-" is unnumbered (the "-" is dropped);
 *  - a paragraph holding only an image is figure N, its PNG the image URL relative to
 *    the Markdown file, its caption the alt text;
 *  - a table is table N; a paragraph right before it that starts with "Table:" is its
 *    caption (and is removed), a paragraph right after it that starts with "Note:"
 *    its footnote (removed too); a column whose body cells all parse as numbers is
 *    numeric;
 *  - the first line "% TITLE" sets the title; the subtitle is the file name and the
 *    date is 2026-01-01.
 * The diagnostic helpers of the calculation library are defined here, so the driver
 * links with nothing of calc/.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>

#include "../../report/layout.h"

/* ---- the calc diagnostics contract (calc.h), minimal */

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fputs("layout-driver: out of memory\n", stderr);
		exit(2);
	}
	return p;
}
void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p) {
		fputs("layout-driver: out of memory\n", stderr);
		exit(2);
	}
	return p;
}
void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("layout-driver: out of memory\n", stderr);
		exit(2);
	}
	return p;
}
char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}
int calc_error(struct calc_diag *d, const char *file, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (file && line > 0)
		fprintf(stderr, "%s:%d: error: %s\n", file, line, msg);
	else if (file)
		fprintf(stderr, "%s: error: %s\n", file, msg);
	else
		fprintf(stderr, "error: %s\n", msg);
	d->nerrors++;
	return -1;
}

/* ---- building the document */

static void plain(cmark_node *n, char *buf, size_t cap, size_t *len)
{
	for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
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
			plain(c, buf, cap, len);
			break;
		}
		if (lit) {
			size_t k = strlen(lit);
			if (*len + k + 1 < cap) {
				memcpy(buf + *len, lit, k);
				*len += k;
				buf[*len] = 0;
			}
		}
	}
}

static char *plain_text(cmark_node *n)
{
	char buf[2048];
	size_t len = 0;
	buf[0] = 0;
	plain(n, buf, sizeof buf, &len);
	return xstrdup(buf);
}

static int is_type(cmark_node *n, const char *t)
{
	const char *s = cmark_node_get_type_string(n);
	return s && strcmp(s, t) == 0;
}

static int is_number(const char *s)
{
	char *end;
	if (!*s)
		return 0;
	strtod(s, &end);
	while (*end == ' ' || *end == '%' || *end == 'x')
		end++;
	return *end == 0;
}

int main(int argc, char **argv)
{
	struct rpt_pdf_opts o = {0, 1, NULL};
	const char *pdf = NULL, *file = NULL;
	int hbreaks = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--letter") == 0)
			o.letter = 1;
		else if (strcmp(argv[i], "--ragged") == 0)
			o.justify = 0;
		else if (strcmp(argv[i], "--pdf") == 0 && i + 1 < argc)
			pdf = argv[++i];
		else if (strcmp(argv[i], "--header-breaks") == 0)
			o.header_breaks = &hbreaks;
		else
			file = argv[i];
	}
	if (!file) {
		fputs("usage: layout-driver [--letter] [--ragged] [--pdf OUT.pdf] [--header-breaks] FILE.md\n", stderr);
		return 2;
	}
	FILE *f = fopen(file, "rb");
	if (!f) {
		perror(file);
		return 2;
	}
	char *text = NULL;
	size_t len = 0, cap = 0, got;
	char chunk[65536];
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (len + got + 1 > cap) {
			cap = (len + got + 1) * 2;
			text = xrealloc(text, cap);
		}
		memcpy(text + len, chunk, got);
		len += got;
	}
	fclose(f);
	if (!text)
		text = xstrdup("");
	else
		text[len] = 0;

	struct rpt_doc doc;
	memset(&doc, 0, sizeof doc);
	doc.title = xstrdup("Layout test");
	char *body = text;
	if (text[0] == '%') {
		char *nl = strchr(text, '\n');
		if (nl)
			*nl = 0;
		free(doc.title);
		doc.title = xstrdup(text + 1 + (text[1] == ' '));
		body = nl ? nl + 1 : text + strlen(text);
	}
	const char *base = strrchr(file, '/');
	doc.subtitle = xstrdup(base ? base + 1 : file);
	doc.date = xstrdup("2026-01-01");

	cmark_gfm_core_extensions_ensure_registered();
	cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
	const char *exts[] = {"table", "strikethrough", "autolink"};
	for (int i = 0; i < 3; i++)
		cmark_parser_attach_syntax_extension(p, cmark_find_syntax_extension(exts[i]));
	cmark_parser_feed(p, body, strlen(body));
	doc.root = cmark_parser_finish(p);

	/* count, then fill */
	int nh = 0, nf = 0, nt = 0;
	cmark_iter *it = cmark_iter_new(doc.root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (cmark_node_get_type(n) == CMARK_NODE_HEADING)
			nh++;
		else if (cmark_node_get_type(n) == CMARK_NODE_IMAGE)
			nf++;
		else if (is_type(n, "table"))
			nt++;
	}
	cmark_iter_free(it);
	doc.headings = xcalloc(nh + 1, sizeof *doc.headings);
	doc.figures = xcalloc(nf + 1, sizeof *doc.figures);
	doc.tables = xcalloc(nt + 1, sizeof *doc.tables);
	int num[7] = {0};
	char dir[512] = ".";
	if (base) {
		snprintf(dir, sizeof dir, "%.*s", (int)(base - file), file);
	}
	cmark_node *drop[256];
	int ndrop = 0;
	it = cmark_iter_new(doc.root);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (cmark_node_get_type(n) == CMARK_NODE_HEADING) {
			struct rpt_heading *h = &doc.headings[doc.nheadings++];
			h->level = cmark_node_get_heading_level(n);
			h->text = plain_text(n);
			h->node = n;
			if (h->text[0] == '-') {
				memmove(h->text, h->text + 1, strlen(h->text));
				cmark_node *t = cmark_node_first_child(n);
				const char *lit = t ? cmark_node_get_literal(t) : NULL;
				if (lit && lit[0] == '-') {
					char *cp = xstrdup(lit + 1);
					cmark_node_set_literal(t, cp);
					free(cp);
				}
				snprintf(h->id, sizeof h->id, "sec-u%d", doc.nheadings);
			} else {
				num[h->level]++;
				for (int l = h->level + 1; l <= 6; l++)
					num[l] = 0;
				size_t k = 0;
				for (int l = 1; l <= h->level; l++)
					k += snprintf(h->number + k, sizeof h->number - k, "%s%d", l > 1 ? "." : "",
					              num[l]);
				snprintf(h->id, sizeof h->id, "sec-%s", h->number);
			}
			cmark_node_set_user_data(n, h);
		} else if (cmark_node_get_type(n) == CMARK_NODE_IMAGE) {
			cmark_node *par = cmark_node_parent(n);
			if (!(cmark_node_get_type(par) == CMARK_NODE_PARAGRAPH && cmark_node_first_child(par) == n &&
			      !cmark_node_next(n)))
				continue;
			struct rpt_figure *fg = &doc.figures[doc.nfigures++];
			fg->number = doc.nfigures;
			snprintf(fg->name, sizeof fg->name, "%s", cmark_node_get_url(n));
			snprintf(fg->id, sizeof fg->id, "fig-%s", fg->name);
			fg->caption = plain_text(n);
			char path[1024];
			snprintf(path, sizeof path, "%s/%s", dir, fg->name);
			fg->png_path = xstrdup(path);
			fg->node = n;
			cmark_node_set_user_data(n, fg);
		} else if (is_type(n, "table")) {
			struct rpt_table *tb = &doc.tables[doc.ntables++];
			tb->number = doc.ntables;
			snprintf(tb->id, sizeof tb->id, "tab-%d", tb->number);
			tb->node = n;
			cmark_node *prev = cmark_node_previous(n);
			if (prev && cmark_node_get_type(prev) == CMARK_NODE_PARAGRAPH) {
				char *cap = plain_text(prev);
				if (strncmp(cap, "Table:", 6) == 0) {
					tb->caption = xstrdup(cap + 6 + (cap[6] == ' '));
					if (ndrop < 256)
						drop[ndrop++] = prev;
				}
				free(cap);
			}
			cmark_node *next = cmark_node_next(n);
			if (next && cmark_node_get_type(next) == CMARK_NODE_PARAGRAPH) {
				char *note = plain_text(next);
				if (strncmp(note, "Note:", 5) == 0) {
					tb->note = xstrdup(note + 5 + (note[5] == ' '));
					if (ndrop < 256)
						drop[ndrop++] = next;
				}
				free(note);
			}
			tb->ncols = cmark_gfm_extensions_get_table_columns(n);
			tb->numeric_cols = xcalloc(tb->ncols + 1, sizeof(int));
			for (int c = 0; c < tb->ncols; c++) {
				int all = 1, any = 0, ci;
				for (cmark_node *r = cmark_node_first_child(n); r; r = cmark_node_next(r)) {
					if (cmark_gfm_extensions_get_table_row_is_header(r))
						continue;
					cmark_node *cell = cmark_node_first_child(r);
					for (ci = 0; cell && ci < c; ci++)
						cell = cmark_node_next(cell);
					if (!cell)
						continue;
					char *s = plain_text(cell);
					any = 1;
					if (!is_number(s))
						all = 0;
					free(s);
				}
				tb->numeric_cols[c] = all && any;
			}
			cmark_node_set_user_data(n, tb);
		}
	}
	cmark_iter_free(it);
	for (int i = 0; i < ndrop; i++)
		cmark_node_free(drop[i]);

	struct calc_diag d;
	memset(&d, 0, sizeof d);
	int rc;
	if (pdf) {
		char *buf = NULL;
		size_t len = 0;
		rc = rpt_pdf_render(&doc, &o, pdf, &buf, &len, &d);
		/* a test driver linked without the library: a plain write is enough here */
		FILE *f = rc == 0 ? fopen(pdf, "wb") : NULL;
		if (rc == 0 && (!f || fwrite(buf, 1, len, f) != len))
			rc = -1;
		if (f && fclose(f) != 0)
			rc = -1;
		free(buf);
	} else
		rc = rpt_text_render(&doc, &o, stdout, &d);
	if (o.header_breaks)
		fprintf(stderr, "header breaks: %d\n", hbreaks);

	for (int i = 0; i < doc.nheadings; i++)
		free(doc.headings[i].text);
	for (int i = 0; i < doc.nfigures; i++) {
		free(doc.figures[i].caption);
		free(doc.figures[i].png_path);
	}
	for (int i = 0; i < doc.ntables; i++) {
		free(doc.tables[i].caption);
		free(doc.tables[i].note);
		free(doc.tables[i].numeric_cols);
	}
	free(doc.headings);
	free(doc.figures);
	free(doc.tables);
	free(doc.title);
	free(doc.subtitle);
	free(doc.date);
	cmark_node_free(doc.root);
	cmark_parser_free(p);
	free(text);
	return rc < 0 ? 1 : 0;
}
