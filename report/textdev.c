/*
 * textdev.c -- the fixed-width text device and rpt_text_render.
 *
 * As mandoc tests its typesetting through its ASCII device, the layout engine
 * (layout.c) is tested through this device: every code point is CELL points wide
 * whatever its font and size, and each page is printed as text.  A page lists one
 * row per distinct baseline (its height from the page bottom in points, then the
 * text placed at column x / CELL), horizontal rules as rows of '-', figures as
 * "[figure PATH WxH]" rows, anchors and links as notes after the page, so a golden
 * file shows line breaks, page breaks, repeated table headers and where figures
 * land.  Fills and colours are not shown.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"

#define CELL 6.0 /* width of one code point [pt] */

enum { T_TEXT, T_RULE, T_IMAGE };

struct trow {
	double y;     /* baseline or rule height [pt from the bottom] */
	double x;     /* [pt] */
	double x1;    /* rules: end [pt] */
	int kind;
	int seq;      /* insertion order */
	char *s;
};

struct tdev {
	FILE *out;
	int page;
	int npages;
	double w, h;
	struct trow *rows;
	int n, cap;
	char **notes;
	int nnotes, cnotes;
};

static void add_row(struct tdev *t, int kind, double x, double y, double x1, const char *s, size_t len)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->rows = xrealloc(t->rows, t->cap * sizeof *t->rows);
	}
	struct trow *r = &t->rows[t->n++];
	r->kind = kind;
	r->seq = t->n;
	r->x = x;
	r->y = y;
	r->x1 = x1;
	r->s = xmalloc(len + 1);
	memcpy(r->s, s, len);
	r->s[len] = 0;
}

static void add_note(struct tdev *t, const char *s)
{
	if (t->nnotes == t->cnotes) {
		t->cnotes = t->cnotes ? 2 * t->cnotes : 32;
		t->notes = xrealloc(t->notes, t->cnotes * sizeof *t->notes);
	}
	t->notes[t->nnotes++] = xstrdup(s);
}

static size_t ncodepoints(const char *s, size_t len)
{
	size_t n = 0, i = 0, k;
	while (i < len) {
		rpt_utf8_next(s + i, len - i, &k);
		i += k;
		n++;
	}
	return n;
}

static double t_width(void *ctx, enum rpt_font font, double size, const char *s, size_t len)
{
	(void)ctx, (void)font, (void)size;
	return CELL * (double)ncodepoints(s, len);
}

static void t_begin(void *ctx, int pageno, double w, double h)
{
	struct tdev *t = ctx;
	t->page = pageno;
	t->w = w;
	t->h = h;
}

static void t_text(void *ctx, enum rpt_font font, double size, double x, double y, const char *s,
                   size_t len, unsigned rgb)
{
	(void)font, (void)size, (void)rgb;
	add_row(ctx, T_TEXT, x, y, x, s, len);
}

static void t_rule(void *ctx, double x0, double y0, double x1, double y1, double lw, unsigned rgb)
{
	(void)lw, (void)rgb;
	if (fabs(y0 - y1) < 0.01) /* horizontal rules only; quote bars are not shown */
		add_row(ctx, T_RULE, x0 < x1 ? x0 : x1, y0, x0 < x1 ? x1 : x0, "", 0);
}

static int t_image(void *ctx, const char *path, double x, double y, double w, double h)
{
	char buf[600];
	const char *base = strrchr(path, '/');
	snprintf(buf, sizeof buf, "[figure %s %.0fx%.0f pt]", base ? base + 1 : path, w, h);
	add_row(ctx, T_IMAGE, x, y + h, x, buf, strlen(buf));
	add_row(ctx, T_IMAGE, x, y, x, "[end of figure]", 15);
	return 0;
}

static void t_link(void *ctx, double x, double y, double w, double h, const char *target)
{
	char buf[600];
	snprintf(buf, sizeof buf, "link %s", target);
	struct tdev *t = ctx;
	/* one note per target and page is enough to show that the link exists */
	for (int i = 0; i < t->nnotes; i++)
		if (strcmp(t->notes[i], buf) == 0)
			return;
	add_note(t, buf);
}

static void t_anchor(void *ctx, const char *id, double y)
{
	char buf[600];
	snprintf(buf, sizeof buf, "anchor %s at %.1f", id, y);
	add_note(ctx, buf);
}

static void t_bookmark(void *ctx, int level, const char *title, const char *id)
{
	char buf[700];
	snprintf(buf, sizeof buf, "bookmark %d %s -> #%s", level, title, id);
	add_note(ctx, buf);
}

static int row_cmp(const void *a, const void *b)
{
	const struct trow *p = a, *q = b;
	double ya = round(p->y * 10), yb = round(q->y * 10);
	if (ya != yb)
		return ya > yb ? -1 : 1;
	if (p->kind != q->kind)
		return p->kind - q->kind;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return p->seq - q->seq; /* qsort is not stable: insertion order breaks ties */
}

/* Print the page: rows by height, text placed on a grid of CELL points. */
static void t_end(void *ctx)
{
	struct tdev *t = ctx;
	int cols = (int)(t->w / CELL) + 1;
	char *line = xmalloc((size_t)cols * 8 + 4096);
	fprintf(t->out, "=== page %d ===\n", t->page);
	qsort(t->rows, t->n, sizeof *t->rows, row_cmp);
	int i = 0;
	while (i < t->n) {
		int j = i;
		double y = round(t->rows[i].y * 10) / 10;
		size_t used = 0; /* bytes in line */
		int col = 0;     /* columns in line */
		while (j < t->n && round(t->rows[j].y * 10) / 10 == y && t->rows[j].kind == t->rows[i].kind) {
			struct trow *r = &t->rows[j];
			int want = (int)lround(r->x / CELL);
			if (r->kind == T_RULE) {
				int end = (int)lround(r->x1 / CELL);
				while (col < want)
					line[used++] = ' ', col++;
				while (col < end && used < (size_t)cols * 8)
					line[used++] = '-', col++;
			} else {
				if (want < col)
					want = col; /* overlapping text: set it right after */
				while (col < want)
					line[used++] = ' ', col++;
				size_t len = strlen(r->s);
				if (used + len < (size_t)cols * 8 + 4000) {
					memcpy(line + used, r->s, len);
					used += len;
					col += (int)ncodepoints(r->s, len);
				}
			}
			j++;
		}
		line[used] = 0;
		fprintf(t->out, "%6.1f |%s\n", y, line);
		i = j;
	}
	for (int k = 0; k < t->nnotes; k++)
		fprintf(t->out, "       # %s\n", t->notes[k]);
	for (int k = 0; k < t->n; k++)
		free(t->rows[k].s);
	for (int k = 0; k < t->nnotes; k++)
		free(t->notes[k]);
	t->n = 0;
	t->nnotes = 0;
	free(line);
}

int rpt_text_render(const struct rpt_doc *doc, const struct rpt_pdf_opts *o, FILE *out,
                    struct calc_diag *d)
{
	struct tdev t;
	memset(&t, 0, sizeof t);
	t.out = out;
	struct rpt_device dev = {
		.ctx = &t,
		.width = t_width,
		.begin_page = t_begin,
		.end_page = t_end,
		.text = t_text,
		.rule = t_rule,
		.image = t_image,
		.link = t_link,
		.anchor = t_anchor,
		.bookmark = t_bookmark,
	};
	struct rpt_layout_opts lo;
	rpt_layout_defaults(&lo, o ? o->letter : 0, o ? o->justify : 1);
	lo.header_breaks = o ? o->header_breaks : NULL;
	int n = rpt_layout_run(doc, &lo, &dev, d);
	free(t.rows);
	free(t.notes);
	if (n < 0)
		return -1;
	fprintf(out, "=== %d pages ===\n", n);
	return 0;
}
