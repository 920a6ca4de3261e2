/*
 * layout.c -- the page layout engine: document -> lines -> blocks -> pages.
 *
 * Shaped as mandoc's term.c is: the engine breaks text into lines and lines into
 * pages in points and draws only through a device (layout.h), so the same engine
 * drives the PDF (pdf.c) and the fixed-width text device of the golden tests
 * (textdev.c).  It never calls libharu.
 *
 * Model (a much simplified form of TeX's vertical list, Knuth, "The TeXbook", ch. 12
 * and 15): every block becomes a list of items -- one line of a paragraph, one table
 * row, one code line, a figure -- each with a height and a list of drawing
 * operations relative to its top.  An item may be glued to the next one ("keep"):
 * headings to the following line, the first two and the last two lines of a
 * paragraph (orphan and widow control; see "widow" and "orphan" in the glossary of The
 * Chicago Manual of Style, 17th ed.),
 * a figure to its caption, a table caption to the header row.  The page builder
 * fills pages first-fit and, when an item does not fit, moves the whole kept chain
 * that ends in it to the next page.  A table row that starts a page gets a copy of
 * the table's header row first.
 *
 * Lines: greedy first-fit breaking at spaces and after a '-', '/' or '_' between
 * letters or digits (after a '/' only before two of them: never "(GB/" + "s)");
 * widths from the device, per code point; a word wider than the whole line breaks
 * between code points.  Justified lines spread the leftover width over the spaces,
 * except the last line of a paragraph.
 *
 * Tables: column widths as in the informative automatic table layout of CSS 2.1
 * (section 17.5.2.2): each column has a minimum width (its widest word) and a
 * preferred width (its widest unbroken cell); if the preferred widths fit they are
 * used, otherwise each column gets its minimum plus a share of the remaining width
 * proportional to (preferred - minimum).  Where that leaves a header taller than it
 * need be, the narrowest widths that set every header in fewer lines are taken, and
 * the rest shared as before, if the whole table then takes fewer lines.  A table
 * whose minimum widths exceed the text width is first set smaller, down to 75 %.
 *
 * The table of contents needs page numbers before the pages are drawn: pagination
 * runs over the complete item list first (the TOC's items have fixed heights, so
 * its page numbers cannot change the pagination), then a second pass draws every
 * page with the numbers known.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>

#include "layout.h"

/* ------------------------------------------------------------------ typography */

#define BODY_SIZE 9.8      /* body text [pt] */
#define BODY_LEAD 13.6     /* body leading [pt] */
#define PAR_SKIP 6.5       /* space after a paragraph [pt] */
#define TIGHT_SKIP 2.0     /* space between items of a tight list [pt] */
#define CODE_SIZE 8.2
#define CODE_LEAD 10.8
#define CODE_PAD 5.0       /* shaded margin around a code block [pt] */
#define TAB_SIZE 8.2
#define TAB_LEAD 10.6
#define TAB_PADX 4.0
#define TAB_PADY 2.6
#define NOTE_SIZE 7.4     /* table footnotes [pt] */
#define NOTE_LEAD 9.8
#define CAP_SIZE 8.6
#define CAP_LEAD 11.4
#define LIST_INDENT 17.0
#define QUOTE_INDENT 14.0
#define NEST_MIN_W 120.0   /* nested quotes and lists stop indenting at this width [pt] */
#define HEAD_SIZE 7.6      /* running header and footer */

#define C_TEXT 0x1a1a1aU
#define C_HEAD 0x17365dU
#define C_LINK 0x1d4f91U
#define C_GREY 0x666666U
#define C_RULE 0x9aa5b1U
#define C_CODEBG 0xf2f3f5U
#define C_INLCODEBG 0xeceef1U
#define C_THEAD 0xdbe3ec
#define C_TSTRIPE 0xf4f6f9U
#define C_QUOTE 0xb8c2cc

static const double head_size[7] = {0, 17.0, 13.2, 11.2, 10.2, 9.8, 9.8};

/* ------------------------------------------------------------------ utilities */

unsigned rpt_utf8_next(const char *s, size_t len, size_t *n)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned c = u[0];
	size_t need;
	if (c < 0x80) {
		*n = 1;
		return c;
	}
	if (c >= 0xc2 && c <= 0xdf)
		need = 2, c &= 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		need = 3, c &= 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		need = 4, c &= 0x07;
	else {
		*n = 1;
		return 0xfffd;
	}
	if (need > len) {
		*n = 1;
		return 0xfffd;
	}
	for (size_t i = 1; i < need; i++) {
		if ((u[i] & 0xc0) != 0x80) {
			*n = 1;
			return 0xfffd;
		}
		c = (c << 6) | (u[i] & 0x3f);
	}
	*n = need;
	return c;
}

void rpt_layout_defaults(struct rpt_layout_opts *lo, int letter, int justify)
{
	memset(lo, 0, sizeof *lo);
	if (letter) {
		lo->page_w = 612.0; /* 8.5 x 11 in */
		lo->page_h = 792.0;
	} else {
		lo->page_w = 595.28; /* 210 x 297 mm */
		lo->page_h = 841.89;
	}
	lo->margin_top = 68;
	lo->margin_bottom = 62;
	lo->margin_left = 72;
	lo->margin_right = 72;
	lo->justify = justify;
	lo->title_page = 1;
}

/* ------------------------------------------------------------------ items */

enum op_kind { OP_TEXT, OP_RULE, OP_RECT, OP_IMAGE, OP_LINK, OP_ANCHOR, OP_BOOKMARK, OP_PAGEREF };

/* One drawing operation; x from the page's left edge, y downwards from the top of
 * its item [pt].  Strings are offsets into the layout's string pool. */
struct op {
	enum op_kind kind;
	enum rpt_font font;
	int level;     /* bookmark level; PAGEREF: heading index */
	double size;   /* font size [pt] */
	double x, y;   /* text: baseline start; rule: start; rect/image/link: top-left */
	double w, h;   /* rect/image/link: extent; rule: end point (x1, y1); pageref: right edge in w */
	size_t s, len; /* text, path, target, anchor id */
	int ref;       /* bookmark and pageref: heading index */
	size_t s2;     /* bookmark: title offset (len2 bytes) */
	size_t len2;
	unsigned rgb;
};

struct item {
	double h;      /* height [pt] */
	int keep;      /* 1 = no page break between this item and the next */
	int discard;   /* vertical space: dropped at the top of a page */
	int brk;       /* start a new page before this item */
	int hdr;       /* table header item repeated when this row starts a page, or -1 */
	int chapter;   /* heading index of the level-1 heading this item opens, or -1 */
	int h1;        /* 1 = this item is a level-1 heading (a chapter opens) */
	int fig;       /* 1 = this item is a figure's image (it may float, paginate) */
	int op0, nops; /* its operations */
	int nbars;     /* block quote bars drawn beside it */
	double bar[4]; /* their x [pt] */
};

/* A placed item: which item, on which page, with its top at 'top' [pt from page top]. */
struct place {
	int item;
	int page;
	double top;
};

struct L {
	const struct rpt_doc *doc;
	const struct rpt_layout_opts *lo;
	const struct rpt_device *dev;
	struct calc_diag *d;
	int err;

	char *pool; size_t npool, cpool;
	struct op *ops; int nops, cops;
	struct item *items; int nitems, citems;

	/* block context */
	int nbars; double bar[4];
	const char *marker; size_t marker_len; double marker_x; int marker_right;
	enum rpt_font marker_font; double marker_size; unsigned marker_rgb;
	const char *pend_anchor;             /* anchor for the next item */
	const struct rpt_heading *pend_bm;   /* bookmark for the next item */
	int tight; /* inside a tight list */
	int in_header; /* 1 while a table's header row is set (lo->header_breaks counts) */

	/* pagination */
	struct place *pl; int npl, cpl;
	int npages;
	int *head_page;    /* per heading: page it is on */
	int *page_chapter; /* per page: heading index of the last chapter starting on or
	                    * before its end (its running header), or -1 */
	int *page_opens;   /* per page: 1 when a chapter starts on it */
	int body_first;    /* first page of the body */
	int toc_first;
};

static size_t pool_add(struct L *L, const char *s, size_t len)
{
	if (L->npool + len + 1 > L->cpool) {
		/* 's' may point into the pool itself (a fragment of a piece) */
		int inside = L->pool && s >= L->pool && s < L->pool + L->npool;
		size_t off = inside ? (size_t)(s - L->pool) : 0;
		L->cpool = (L->npool + len + 1) * 2 + 4096;
		L->pool = xrealloc(L->pool, L->cpool);
		if (inside)
			s = L->pool + off;
	}
	size_t at = L->npool;
	memcpy(L->pool + at, s, len);
	L->pool[at + len] = 0;
	L->npool += len + 1;
	return at;
}

static struct op *op_new(struct L *L, enum op_kind k)
{
	if (L->nops == L->cops) {
		L->cops = L->cops ? 2 * L->cops : 1024;
		L->ops = xrealloc(L->ops, L->cops * sizeof *L->ops);
	}
	struct op *o = &L->ops[L->nops++];
	memset(o, 0, sizeof *o);
	o->kind = k;
	o->rgb = C_TEXT;
	L->items[L->nitems - 1].nops++;
	return o;
}

static void op_anchor(struct L *L, const char *id);
static void op_bookmark(struct L *L, const struct rpt_heading *h);

/* Start a new item of height h; following op_new calls add to it. */
static struct item *item_new(struct L *L, double h)
{
	if (L->nitems == L->citems) {
		L->citems = L->citems ? 2 * L->citems : 256;
		L->items = xrealloc(L->items, L->citems * sizeof *L->items);
	}
	struct item *it = &L->items[L->nitems++];
	memset(it, 0, sizeof *it);
	it->h = h;
	it->hdr = -1;
	it->chapter = -1;
	it->op0 = L->nops;
	it->nbars = L->nbars;
	memcpy(it->bar, L->bar, sizeof it->bar);
	if (L->pend_anchor) {
		const char *id = L->pend_anchor;
		L->pend_anchor = NULL;
		op_anchor(L, id);
	}
	if (L->pend_bm) {
		const struct rpt_heading *h = L->pend_bm;
		L->pend_bm = NULL;
		op_bookmark(L, h);
	}
	return &L->items[L->nitems - 1];
}

/* Vertical space; consecutive spaces collapse to the largest. */
static void vspace(struct L *L, double h)
{
	if (L->nitems == 0)
		return;
	struct item *last = &L->items[L->nitems - 1];
	if (last->discard) {
		if (h > last->h)
			last->h = h;
		return;
	}
	int keep = last->keep;
	const char *pa = L->pend_anchor;
	const struct rpt_heading *pb = L->pend_bm;
	L->pend_anchor = NULL;
	L->pend_bm = NULL;
	struct item *it = item_new(L, h);
	L->pend_anchor = pa;
	L->pend_bm = pb;
	it->discard = 1;
	it->keep = keep;
}

static void op_text(struct L *L, enum rpt_font f, double size, double x, double y, const char *s,
                    size_t len, unsigned rgb)
{
	struct op *o = op_new(L, OP_TEXT);
	o->font = f;
	o->size = size;
	o->x = x;
	o->y = y;
	o->s = pool_add(L, s, len);
	o->len = len;
	o->rgb = rgb;
}

static void op_rect(struct L *L, double x, double y, double w, double h, unsigned rgb)
{
	struct op *o = op_new(L, OP_RECT);
	o->x = x, o->y = y, o->w = w, o->h = h, o->rgb = rgb;
}

static void op_rule(struct L *L, double x0, double y0, double x1, double y1, double lw, unsigned rgb)
{
	struct op *o = op_new(L, OP_RULE);
	o->x = x0, o->y = y0, o->w = x1, o->h = y1, o->size = lw, o->rgb = rgb;
}

static void op_link(struct L *L, double x, double y, double w, double h, const char *t)
{
	struct op *o = op_new(L, OP_LINK);
	o->x = x, o->y = y, o->w = w, o->h = h;
	o->len = strlen(t);
	o->s = pool_add(L, t, o->len);
}

static void op_anchor(struct L *L, const char *id)
{
	struct op *o = op_new(L, OP_ANCHOR);
	o->len = strlen(id);
	o->s = pool_add(L, id, o->len);
}

/* Index of heading 'h' in doc->headings, or -1. */
static int head_index(const struct L *L, const struct rpt_heading *h)
{
	const struct rpt_doc *doc = L->doc;
	if (!h)
		return -1;
	if (h >= doc->headings && h < doc->headings + doc->nheadings)
		return (int)(h - doc->headings);
	for (int i = 0; i < doc->nheadings; i++)
		if (strcmp(doc->headings[i].id, h->id) == 0)
			return i;
	return -1;
}

static void op_bookmark(struct L *L, const struct rpt_heading *h)
{
	char title[512];
	struct op *o = op_new(L, OP_BOOKMARK);
	o->level = h->level;
	o->ref = head_index(L, h);
	snprintf(title, sizeof title, "%s%s%s", h->number, h->number[0] ? " " : "",
	         h->text ? h->text : "");
	o->len = strlen(h->id);
	o->s = pool_add(L, h->id, o->len);
	o->len2 = strlen(title);
	o->s2 = pool_add(L, title, o->len2);
}

static double W(struct L *L, enum rpt_font f, double size, const char *s, size_t len)
{
	return len ? L->dev->width(L->dev->ctx, f, size, s, len) : 0.0;
}

/* ------------------------------------------------------------------ inline text */

/* A piece of a paragraph: text in one style, without spaces (except code). */
struct piece {
	enum rpt_font font;
	double size;
	size_t s, len;   /* pool offset */
	double w;        /* width [pt] */
	int sp;          /* a space precedes this piece */
	int hard;        /* a hard line break precedes this piece */
	int brkok;       /* a line may break before this piece, without a space */
	int nb;          /* the space before it does not break: a unit after its number */
	int code;        /* inline code (shaded) */
	double rise;     /* baseline shift of a subscript, downwards [pt]; 0 otherwise */
	long link;       /* pool offset of the link target, or -1 */
	unsigned rgb;
};

struct pieces {
	struct piece *v;
	int n, cap;
	int pending_sp, pending_hard;
};

struct style {
	int bold, italic, code, family; /* family: 0 serif, 1 sans */
	int sub;                        /* inside <sub>...</sub>: a subscript (math) */
	long link;
	double size;
	unsigned rgb;
};

static enum rpt_font font_of(const struct style *st)
{
	if (st->code)
		return st->bold ? RPT_MONO_BOLD : RPT_MONO;
	if (st->family == 1) {
		if (st->bold)
			return RPT_SANS_BOLD;
		return st->italic ? RPT_SANS_ITALIC : RPT_SANS;
	}
	if (st->bold)
		return st->italic ? RPT_SERIF_BOLDITALIC : RPT_SERIF_BOLD;
	return st->italic ? RPT_SERIF_ITALIC : RPT_SERIF;
}

static void piece_add(struct L *L, struct pieces *P, const struct style *st, const char *s,
                      size_t len)
{
	if (P->n == P->cap) {
		P->cap = P->cap ? 2 * P->cap : 64;
		P->v = xrealloc(P->v, P->cap * sizeof *P->v);
	}
	struct piece *p = &P->v[P->n++];
	p->font = font_of(st);
	/* a subscript at 70 % of the size, its baseline 0.2 em lower (the proportions of
	 * TeX's \scriptstyle subscript, about 0.7 and 0.15-0.25 em) */
	p->size = st->code ? st->size * 0.88 : st->sub ? st->size * 0.7 : st->size;
	p->rise = st->sub && !st->code ? st->size * 0.2 : 0;
	p->s = pool_add(L, s, len);
	p->len = len;
	p->w = W(L, p->font, p->size, s, len);
	p->sp = P->pending_sp;
	p->hard = P->pending_hard;
	p->brkok = 0;
	p->nb = 0;
	p->code = st->code;
	p->link = st->link;
	p->rgb = st->link >= 0 ? C_LINK : st->rgb;
	P->pending_sp = P->pending_hard = 0;
}

/* Split text at spaces into pieces. */
static void text_add(struct L *L, struct pieces *P, const struct style *st, const char *s, size_t len)
{
	size_t i = 0;
	while (i < len) {
		if (s[i] == ' ' || s[i] == '\n' || s[i] == '\t') {
			if (P->n > 0 || P->pending_hard)
				P->pending_sp = 1;
			i++;
			continue;
		}
		size_t j = i;
		while (j < len && s[j] != ' ' && s[j] != '\n' && s[j] != '\t')
			j++;
		/* break opportunities inside the word: after '-', '/' or '_' between
		 * letters or digits (as UAX #14 allows after a hyphen); after a '/' only
		 * before two of them, so that a unit's "/s" stays whole */
		size_t a = i;
		for (size_t k = i + 1; k + 2 < j; k++) {
			if ((s[k] == '-' || s[k] == '/' || s[k] == '_') && isalnum((unsigned char)s[k - 1]) &&
			    isalnum((unsigned char)s[k + 1]) && (s[k] != '/' || isalnum((unsigned char)s[k + 2])) &&
			    k - a >= 2) {
				piece_add(L, P, st, s + a, k + 1 - a);
				if (a > i)
					P->v[P->n - 1].brkok = 1;
				a = k + 1;
			}
		}
		piece_add(L, P, st, s + a, j - a);
		if (a > i)
			P->v[P->n - 1].brkok = 1;
		i = j;
	}
}

static void inlines(struct L *L, struct pieces *P, cmark_node *n, struct style st)
{
	for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
		cmark_node_type t = cmark_node_get_type(c);
		const char *lit;
		struct style s2 = st;
		switch (t) {
		case CMARK_NODE_TEXT:
			lit = cmark_node_get_literal(c);
			if (lit)
				text_add(L, P, &st, lit, strlen(lit));
			break;
		case CMARK_NODE_CODE:
			lit = cmark_node_get_literal(c);
			s2.code = 1;
			if (lit)
				text_add(L, P, &s2, lit, strlen(lit));
			break;
		case CMARK_NODE_SOFTBREAK:
			if (P->n > 0)
				P->pending_sp = 1;
			break;
		case CMARK_NODE_LINEBREAK:
			P->pending_hard = 1;
			P->pending_sp = 0;
			break;
		case CMARK_NODE_EMPH:
			s2.italic = 1;
			inlines(L, P, c, s2);
			break;
		case CMARK_NODE_STRONG:
			s2.bold = 1;
			inlines(L, P, c, s2);
			break;
		case CMARK_NODE_LINK: {
			const char *url = cmark_node_get_url(c);
			if (url && *url)
				s2.link = (long)pool_add(L, url, strlen(url));
			inlines(L, P, c, s2);
			break;
		}
		case CMARK_NODE_IMAGE:
			/* an image inside running text: its alt text */
			s2.italic = 1;
			inlines(L, P, c, s2);
			break;
		case CMARK_NODE_HTML_INLINE:
			/* <sub> and </sub>: the text between them is a subscript (math such as
			 * t<sub>f</sub>); the siblings after the tag take the new style */
			lit = cmark_node_get_literal(c);
			if (lit && !strcmp(lit, "<sub>"))
				st.sub = 1;
			else if (lit && !strcmp(lit, "</sub>"))
				st.sub = 0;
			break;
		case CMARK_NODE_FOOTNOTE_REFERENCE:
			break;
		default:
			inlines(L, P, c, st); /* strikethrough and other extensions: their text */
			break;
		}
	}
}

/* One line of broken text: pieces [p0, p1) with positions. */
struct frag {
	int piece;
	size_t off, len; /* the part of the piece's text on this line */
	double x, w;     /* relative to the line start [pt] */
};

struct line {
	int f0, nf;
	double w;        /* natural width [pt] */
	int nspaces;
	int last;        /* last line of the paragraph, or ends in a hard break */
};

struct lines {
	struct frag *f; int nf, cf;
	struct line *l; int nl, cl;
};

static void frag_add(struct lines *B, int piece, size_t off, size_t len, double x, double w)
{
	if (B->nf == B->cf) {
		B->cf = B->cf ? 2 * B->cf : 64;
		B->f = xrealloc(B->f, B->cf * sizeof *B->f);
	}
	B->f[B->nf++] = (struct frag){piece, off, len, x, w};
	B->l[B->nl - 1].nf++;
}

static void line_new(struct lines *B)
{
	if (B->nl == B->cl) {
		B->cl = B->cl ? 2 * B->cl : 16;
		B->l = xrealloc(B->l, B->cl * sizeof *B->l);
	}
	B->l[B->nl++] = (struct line){B->nf, 0, 0, 0, 0};
}

static double space_w(struct L *L, const struct piece *p)
{
	return W(L, p->font, p->size, " ", 1);
}

/* A number as the catalog formats it: digits with an optional sign, thousands commas
 * and a decimal point ("-4.1", "1,024", "18.97"), maybe after an opening bracket. */
static int is_number(const char *s, size_t n)
{
	size_t i = 0, dig = 0;
	while (n > 0 && strchr("([", *s)) /* "(4.47 s)" */
		s++, n--;
	if (n == 0)
		return 0;
	if (i < n && (s[i] == '-' || s[i] == '+'))
		i++;
	for (; i < n; i++) {
		if (isdigit((unsigned char)s[i]))
			dig++;
		else if (s[i] != '.' && s[i] != ',')
			return 0;
	}
	return dig > 0 && isdigit((unsigned char)s[n - 1]);
}

/* A display unit of calc/format.c or a unit the tables name ("GB", "ms", "GB/s"), maybe
 * before a closing bracket or a punctuation mark. */
static int is_unit(const char *s, size_t n)
{
	static const char *const units[] = {"GB", "GiB", "TB", "MB", "KB", "kB", "B", "ms", "s", "us",
	                                    "\xc2\xb5s", "ns", "min", "hours", "days", "W", "kW", "MW",
	                                    "MWh", "GB/s", "TB/s", "Gb/s", "TFLOP/s", "PFLOP/s",
	                                    "billion", NULL};
	while (n > 0 && strchr(")],.;:", s[n - 1])) /* "(4.47 s)," */
		n--;
	for (int i = 0; units[i]; i++)
		if (strlen(units[i]) == n && !memcmp(units[i], s, n))
			return 1;
	return 0;
}

/* Glue each unit to the number before it ("12.3 GB"), so that a line never breaks
 * between them: the space stays, as a non-breaking space would (UAX #14 class GL). */
static void glue_units(const struct L *L, struct pieces *P)
{
	for (int k = 1; k < P->n; k++) {
		const struct piece *a = &P->v[k - 1], *b = &P->v[k];
		if (b->sp && !b->hard && !b->brkok && is_unit(L->pool + b->s, b->len) &&
		    is_number(L->pool + a->s, a->len))
			P->v[k].nb = 1;
	}
}

/* Break pieces into lines of at most 'width' [pt]; first-fit. */
static void break_lines(struct L *L, const struct pieces *P, double width, struct lines *B)
{
	B->nf = B->nl = 0;
	line_new(B);
	int i = 0;
	while (i < P->n) {
		/* the word: pieces i..j-1 without a space between them, or with a glued
		 * one (a unit after its number) */
		int j = i + 1;
		double ww = P->v[i].w;
		while (j < P->n && (!P->v[j].sp || P->v[j].nb) && !P->v[j].hard && !P->v[j].brkok) {
			ww += P->v[j].w + (P->v[j].nb ? space_w(L, &P->v[j - 1]) : 0);
			j++;
		}
		struct line *ln = &B->l[B->nl - 1];
		if (P->v[i].hard && ln->nf > 0) {
			ln->last = 1;
			line_new(B);
			ln = &B->l[B->nl - 1];
		}
		double sw = (ln->nf > 0 && P->v[i].sp) ? space_w(L, &P->v[i - 1]) : 0;
		/* a word wider than a whole line starts where it is, when there is room */
		int split_here = ww > width + 0.01 && width - (ln->w + sw) > 2.5 * P->v[i].size;
		if (ln->nf > 0 && ln->w + sw + ww > width + 0.01 && !split_here) {
			line_new(B);
			ln = &B->l[B->nl - 1];
			sw = 0;
		}
		if (ln->nf > 0 && sw > 0)
			ln->nspaces++;
		double x = ln->w + sw;
		if (ww <= width + 0.01 || (ln->nf > 0 && !split_here)) {
			for (int k = i; k < j; k++) {
				if (k > i && P->v[k].nb) {
					x += space_w(L, &P->v[k - 1]);
					B->l[B->nl - 1].nspaces++;
				}
				frag_add(B, k, 0, P->v[k].len, x, P->v[k].w);
				x += P->v[k].w;
			}
			B->l[B->nl - 1].w = x;
		} else {
			/* a word wider than the line: break it between code points */
			if (L->in_header && L->lo->header_breaks)
				(*L->lo->header_breaks)++;
			for (int k = i; k < j; k++) {
				const struct piece *p = &P->v[k];
				const char *s = L->pool + p->s;
				size_t a = 0;
				if (k > i && p->nb && x > 0) {
					x += space_w(L, &P->v[k - 1]);
					B->l[B->nl - 1].nspaces++;
				}
				while (a < p->len) {
					size_t b = a, n;
					double cw = 0;
					while (b < p->len) {
						rpt_utf8_next(s + b, p->len - b, &n);
						double c = W(L, p->font, p->size, s + b, n);
						if (x + cw + c > width + 0.01 && (b > a || x > 0))
							break;
						cw += c;
						b += n;
					}
					if (b == a) { /* nothing fits after x: new line */
						B->l[B->nl - 1].w = x;
						line_new(B);
						x = 0;
						continue;
					}
					frag_add(B, k, a, b - a, x, cw);
					x += cw;
					B->l[B->nl - 1].w = x;
					a = b;
					if (a < p->len) {
						line_new(B);
						x = 0;
					}
				}
			}
		}
		i = j;
	}
	B->l[B->nl - 1].last = 1;
}

/*
 * Emit the lines of 'P' broken to 'width' at 'x' as items of height 'lead'.
 * align: 'l', 'c', 'r' or 'j' (justify).  Sets keep for widow/orphan control when
 * 'widows' is set.  Returns the number of lines.
 */
static int emit_lines(struct L *L, const struct pieces *P, double x, double width, double lead,
                      char align, int widows, struct lines *B)
{
	break_lines(L, P, width, B);
	if (P->n == 0)
		return 0;
	int first = L->nitems;
	for (int li = 0; li < B->nl; li++) {
		struct line *ln = &B->l[li];
		item_new(L, lead);
		double maxsize = 0;
		for (int k = 0; k < ln->nf; k++)
			if (P->v[B->f[ln->f0 + k].piece].size > maxsize)
				maxsize = P->v[B->f[ln->f0 + k].piece].size;
		double base = (lead - maxsize) / 2 + maxsize * 0.8;
		double dx = 0, extra = 0;
		if (align == 'r')
			dx = width - ln->w;
		else if (align == 'c')
			dx = (width - ln->w) / 2;
		else if (align == 'j' && !ln->last && ln->nspaces > 0)
			extra = (width - ln->w) / ln->nspaces;
		if (L->marker && li == 0) {
			double mw = W(L, L->marker_font, L->marker_size, L->marker, L->marker_len);
			double mx = L->marker_right ? L->marker_x - mw : L->marker_x;
			op_text(L, L->marker_font, L->marker_size, mx, base, L->marker, L->marker_len,
			        L->marker_rgb);
			L->marker = NULL;
		}
		double shift = 0;
		for (int k = 0; k < ln->nf; k++) {
			struct frag *f = &B->f[ln->f0 + k];
			const struct piece *p = &P->v[f->piece];
			if (k > 0 && p->sp && f->off == 0) /* a glued space stretches too */
				shift += extra;
			double fx = x + dx + f->x + shift;
			if (p->code)
				op_rect(L, fx - 0.8, base - p->size * 0.82, f->w + 1.6, p->size * 1.08,
				        C_INLCODEBG);
			op_text(L, p->font, p->size, fx, base + p->rise, L->pool + p->s + f->off, f->len, p->rgb);
			if (p->link >= 0) {
				/* one link box over consecutive fragments of the same target */
				double lw = f->w;
				int k2 = k + 1;
				while (k2 < ln->nf && P->v[B->f[ln->f0 + k2].piece].link == p->link) {
					struct frag *g = &B->f[ln->f0 + k2];
					lw = g->x + g->w - f->x;
					k2++;
				}
				if (k == 0 || P->v[B->f[ln->f0 + k - 1].piece].link != p->link)
					op_link(L, fx, base - p->size * 0.9, lw + (k2 - k - 1) * extra,
					        p->size * 1.2, L->pool + p->link);
			}
		}
	}
	if (widows && B->nl >= 2) {
		L->items[first].keep = 1;             /* orphan: first line not alone */
		L->items[L->nitems - 2].keep = 1;     /* widow: last line not alone */
	}
	return B->nl;
}

/* ------------------------------------------------------------------ blocks */

static void block(struct L *L, cmark_node *n, double x, double w, int depth);

/* The indent of one more nesting level: 'in', or 0 once the text would be narrower than
 * NEST_MIN_W (past ~25 levels the width went negative and the text left the page). */
static double nest_indent(double w, double in)
{
	return w - in >= NEST_MIN_W ? in : 0;
}

static void blocks(struct L *L, cmark_node *n, double x, double w, int depth)
{
	for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c))
		block(L, c, x, w, depth);
}

static int is_type(cmark_node *n, const char *name)
{
	const char *t = cmark_node_get_type_string(n);
	return t && strcmp(t, name) == 0;
}

static void paragraph(struct L *L, cmark_node *n, double x, double w, struct style st,
                      double lead, char align, int widows)
{
	struct pieces P = {0};
	struct lines B = {0};
	inlines(L, &P, n, st);
	glue_units(L, &P);
	emit_lines(L, &P, x, w, lead, align, widows, &B);
	free(P.v);
	free(B.f);
	free(B.l);
}

static struct style base_style(double size, int family)
{
	struct style st = {0};
	st.size = size;
	st.family = family;
	st.link = -1;
	st.rgb = C_TEXT;
	return st;
}

/* The PNG's width and height [px] from its IHDR chunk (PNG spec 1.2, section 11.2.2:
 * signature 8 bytes, chunk length 4, "IHDR" 4, then width and height big-endian). */
static int png_size(const char *path, double *pw, double *ph)
{
	unsigned char b[24];
	FILE *f = path ? fopen(path, "rb") : NULL;
	if (!f)
		return -1;
	size_t got = fread(b, 1, sizeof b, f);
	fclose(f);
	if (got != sizeof b || memcmp(b, "\x89PNG\r\n\x1a\n", 8) != 0 || memcmp(b + 12, "IHDR", 4) != 0)
		return -1;
	unsigned long wd = ((unsigned long)b[16] << 24) | (b[17] << 16) | (b[18] << 8) | b[19];
	unsigned long ht = ((unsigned long)b[20] << 24) | (b[21] << 16) | (b[22] << 8) | b[23];
	if (!wd || !ht)
		return -1;
	*pw = (double)wd;
	*ph = (double)ht;
	return 0;
}

/* The SVG's width and height in its units, from the viewBox of its <svg> element
 * (SVG 1.1 section 7.7; gnuplot writes viewBox="0 0 W H"). */
static int svg_size(const char *path, double *pw, double *ph)
{
	char b[1024];
	FILE *f = path ? fopen(path, "rb") : NULL;
	if (!f)
		return -1;
	size_t got = fread(b, 1, sizeof b - 1, f);
	fclose(f);
	b[got] = 0;
	const char *v = strstr(b, "viewBox=\"");
	double x0, y0, wd, ht;
	if (!v || sscanf(v + 9, "%lf %lf %lf %lf", &x0, &y0, &wd, &ht) != 4 || wd <= 0 || ht <= 0)
		return -1;
	*pw = wd;
	*ph = ht;
	return 0;
}

static double text_h(const struct L *L)
{
	return L->lo->page_h - L->lo->margin_top - L->lo->margin_bottom;
}

static void caption(struct L *L, const char *label, const char *text, double x, double w,
                    char align)
{
	struct pieces P = {0};
	struct lines B = {0};
	struct style st = base_style(CAP_SIZE, 1);
	st.bold = 1;
	text_add(L, &P, &st, label, strlen(label));
	st.bold = 0;
	if (text && *text) {
		P.pending_sp = 1;
		text_add(L, &P, &st, text, strlen(text));
	}
	emit_lines(L, &P, x, w, CAP_LEAD, align, 0, &B);
	free(P.v);
	free(B.f);
	free(B.l);
}

static void figure(struct L *L, const struct rpt_figure *fg, double x, double w)
{
	double pw = 16, ph = 10;
	/* the SVG when it was rendered (drawn as vectors), else the PNG; unreadable: 16:10,
	 * and the device reports it */
	int vector = svg_size(fg->svg_path, &pw, &ph) == 0;
	if (!vector)
		png_size(fg->png_path, &pw, &ph);
	double iw = w, ih = w * ph / pw;
	double maxh = text_h(L) * 0.85; /* a tall chart (one bar per validation run) keeps its labels legible */
	if (ih > maxh) {
		ih = maxh;
		iw = ih * pw / ph;
	}
	vspace(L, 4);
	struct item *it = item_new(L, ih + 6);
	it->keep = 1;
	it->fig = 1;
	op_anchor(L, fg->id);
	struct op *o = op_new(L, OP_IMAGE);
	o->x = x + (w - iw) / 2;
	o->y = 0;
	o->w = iw;
	o->h = ih;
	const char *path = vector ? fg->svg_path : fg->png_path ? fg->png_path : fg->name;
	o->len = strlen(path);
	o->s = pool_add(L, path, o->len);
	int first = L->nitems;
	char label[32];
	snprintf(label, sizeof label, "Figure %d.", fg->number);
	caption(L, label, fg->caption, x, w, 'c');
	for (int i = first; i < L->nitems - 1; i++)
		L->items[i].keep = 1;
	vspace(L, PAR_SKIP + 2);
}

/* ---- tables */

struct cell {
	cmark_node *node;
	struct pieces P;
	double minw, maxw; /* widest word, whole cell unbroken [pt] */
};

/* Lines a cell takes at the outer width 'cw' [pt] (its padding 'padx' inside). */
static int cell_nlines(struct L *L, const struct cell *ce, double cw, double padx)
{
	if (!ce->P.n)
		return 1;
	struct lines B = {0};
	break_lines(L, &ce->P, cw - 2 * padx, &B);
	int n = B.nl;
	free(B.f);
	free(B.l);
	return n;
}

/* The narrowest outer width in [lo, hi] [pt] at which the cell takes at most 'k'
 * lines, to a tenth of a point; 'hi' where even that takes more (first-fit breaking
 * never takes more lines at a larger width). */
static double cell_width_for(struct L *L, const struct cell *ce, int k, double lo, double hi,
                             double padx)
{
	if (cell_nlines(L, ce, hi, padx) > k)
		return hi;
	while (hi - lo > 0.1) {
		double mid = (lo + hi) / 2;
		if (cell_nlines(L, ce, mid, padx) <= k)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* Lines of the whole table at the column widths 'cw' [pt]: each row as tall as its
 * tallest cell. */
static int table_nlines(struct L *L, const struct cell *cells, int nrows, int ncols,
                        const double *cw, double padx)
{
	int total = 0;
	for (int r = 0; r < nrows; r++) {
		int m = 1;
		for (int c = 0; c < ncols; c++) {
			int n = cell_nlines(L, &cells[r * ncols + c], cw[c], padx);
			if (n > m)
				m = n;
		}
		total += m;
	}
	return total;
}

static void table(struct L *L, cmark_node *n, double x, double w)
{
	const struct rpt_table *tb = cmark_node_get_user_data(n);
	int ncols = cmark_gfm_extensions_get_table_columns(n);
	const uint8_t *al = cmark_gfm_extensions_get_table_alignments(n);
	if (ncols <= 0)
		return;
	int nrows = 0;
	for (cmark_node *r = cmark_node_first_child(n); r; r = cmark_node_next(r))
		nrows++;
	struct cell *cells = xcalloc((size_t)nrows * ncols, sizeof *cells);
	double *minw = xcalloc(ncols, sizeof *minw), *maxw = xcalloc(ncols, sizeof *maxw);
	double *cw = xcalloc(ncols, sizeof *cw);
	double *bminw = xcalloc(ncols, sizeof *bminw); /* the widest word of the body [pt] */
	/* the least width of a column: its body's widest word, and its header's widest piece
	 * between break opportunities (a space, or after '-', '/' or '_' inside a word,
	 * text_add), so that no header word breaks between letters [pt] */
	double *floorw = xcalloc(ncols, sizeof *floorw);
	double padx = TAB_PADX, pady = TAB_PADY, tsize = TAB_SIZE, tlead = TAB_LEAD;
	/* A table whose narrowest layout is wider than the text is set smaller (down to
	 * 75 %: widths scale with the size, or 60 % where the body's words or the header's
	 * pieces between break opportunities need it), before any word has to break inside. */
	double scale = 1.0;
	int ri;
	for (int pass = 0; pass < 2; pass++) {
		double smin0 = 0;
		for (int c = 0; c < ncols; c++)
			minw[c] = maxw[c] = bminw[c] = floorw[c] = 0;
		for (int i = 0; i < nrows * ncols; i++) {
			free(cells[i].P.v);
			memset(&cells[i], 0, sizeof cells[i]);
		}
		ri = 0;
		for (cmark_node *r = cmark_node_first_child(n); r; r = cmark_node_next(r), ri++) {
			int hdr = cmark_gfm_extensions_get_table_row_is_header(r);
			int ci = 0;
			for (cmark_node *c = cmark_node_first_child(r); c && ci < ncols; c = cmark_node_next(c), ci++) {
				struct cell *ce = &cells[ri * ncols + ci];
				struct style st = base_style(TAB_SIZE * scale, 1);
				st.bold = hdr;
				ce->node = c;
				inlines(L, &ce->P, c, st);
				glue_units(L, &ce->P);
				double word = 0, seg = 0;
				for (int k = 0; k < ce->P.n; k++) {
					const struct piece *p = &ce->P.v[k];
					/* the header's pieces between break opportunities */
					if ((p->sp && !p->nb) || p->hard || p->brkok)
						seg = 0;
					seg += (p->sp && p->nb && k > 0 ? space_w(L, &ce->P.v[k - 1]) : 0) + p->w;
					if (hdr && seg + 2 * padx > floorw[ci])
						floorw[ci] = seg + 2 * padx;
					/* hyphens and slashes do not lower the minimum: a column
					 * breaks "zero-paper" only when even the minimum widths of
					 * all columns do not fit; a number and its unit are one word */
					if ((p->sp && !p->nb) || p->hard)
						word = 0;
					if (p->sp && k > 0) {
						ce->maxw += space_w(L, &ce->P.v[k - 1]);
						if (p->nb)
							word += space_w(L, &ce->P.v[k - 1]);
					}
					word += p->w;
					ce->maxw += p->w;
					if (word > ce->minw)
						ce->minw = word;
				}
				if (ce->minw + 2 * padx > minw[ci])
					minw[ci] = ce->minw + 2 * padx;
				if (!hdr && ce->minw + 2 * padx > bminw[ci])
					bminw[ci] = ce->minw + 2 * padx;
				if (ce->maxw + 2 * padx > maxw[ci])
					maxw[ci] = ce->maxw + 2 * padx;
			}
		}
		double sbmin0 = 0;
		for (int c = 0; c < ncols; c++) {
			if (bminw[c] > floorw[c])
				floorw[c] = bminw[c];
			smin0 += minw[c], sbmin0 += floorw[c];
		}
		if (pass == 1 || smin0 <= w)
			break;
		scale = w / smin0 < 0.75 ? 0.75 : w / smin0 * 0.999;
		/* where even the body's words (numbers with their units) and the header's
		 * pieces do not fit at 75 %, down to 60 % until they do: a header breaks at a
		 * space, a hyphen or an underscore, never between letters */
		if (sbmin0 * scale > w)
			scale = w / sbmin0 < 0.6 ? 0.6 : w / sbmin0 * 0.999;
		padx = TAB_PADX * scale;
		pady = TAB_PADY * scale;
		tsize = TAB_SIZE * scale;
		tlead = TAB_LEAD * scale;
	}
	/* CSS 2.1 section 17.5.2.2 (informative automatic layout) */
	double smin = 0, smax = 0, sfloor = 0, sbmin = 0;
	for (int c = 0; c < ncols; c++)
		smin += minw[c], smax += maxw[c], sfloor += floorw[c], sbmin += bminw[c];
	for (int c = 0; c < ncols; c++) {
		if (smax <= w)
			cw[c] = maxw[c];
		else if (smin >= w && sfloor < w && smin > sfloor)
			/* too narrow even at the smallest size: the header words break at
			 * their hyphens and underscores (floorw), never between letters, and
			 * no word of the body (a number and its unit) breaks */
			cw[c] = floorw[c] + (minw[c] - floorw[c]) * (w - sfloor) / (smin - sfloor);
		else if (smin >= w && sbmin < w && smin > sbmin)
			/* narrower still (no font the report uses gets here on its tables:
			 * tests/layout/check-header-words.sh): the header words break inside,
			 * before any word of the body does */
			cw[c] = bminw[c] + (minw[c] - bminw[c]) * (w - sbmin) / (smin - sbmin);
		else if (smin >= w)
			cw[c] = minw[c] * w / smin;
		else
			cw[c] = minw[c] + (maxw[c] - minw[c]) * (w - smin) / (smax - smin);
	}
	/* The proportional share gives most of the spare width to the columns with the
	 * longest headers, and a short column's header can be left several lines taller
	 * than the others (busy / step (ms) in four lines).  Where the header rows could
	 * take fewer lines: the narrowest widths that set every header in k lines, for the
	 * smallest k that fits, and the rest shared as before, kept only when the whole
	 * table takes fewer lines than with the proportional widths. */
	if (smax > w && smin < w) {
		int hl = 1;
		ri = 0;
		for (cmark_node *r = cmark_node_first_child(n); r; r = cmark_node_next(r), ri++)
			if (cmark_gfm_extensions_get_table_row_is_header(r))
				for (int c = 0; c < ncols; c++) {
					int nl = cell_nlines(L, &cells[ri * ncols + c], cw[c], padx);
					if (nl > hl)
						hl = nl;
				}
		double *need = xcalloc(ncols, sizeof *need), *nw = xcalloc(ncols, sizeof *nw);
		for (int k = 1; k < hl; k++) {
			double sneed = 0;
			for (int c = 0; c < ncols; c++) {
				need[c] = minw[c];
				ri = 0;
				for (cmark_node *r = cmark_node_first_child(n); r; r = cmark_node_next(r), ri++) {
					if (!cmark_gfm_extensions_get_table_row_is_header(r))
						continue;
					double cwk = cell_width_for(L, &cells[ri * ncols + c], k, minw[c], maxw[c], padx);
					if (cwk > need[c])
						need[c] = cwk;
				}
				sneed += need[c];
			}
			if (sneed > w)
				continue;
			double spare = 0;
			for (int c = 0; c < ncols; c++)
				spare += maxw[c] - need[c];
			for (int c = 0; c < ncols; c++)
				nw[c] = need[c] + (spare > 0 ? (maxw[c] - need[c]) * (w - sneed) / spare
				                             : (w - sneed) / ncols);
			if (table_nlines(L, cells, nrows, ncols, nw, padx) <
			    table_nlines(L, cells, nrows, ncols, cw, padx))
				memcpy(cw, nw, ncols * sizeof *cw);
			break;
		}
		free(need);
		free(nw);
	}
	double tw = 0;
	for (int c = 0; c < ncols; c++)
		tw += cw[c];

	vspace(L, 6);
	if (tb) {
		int first = L->nitems;
		char label[32];
		snprintf(label, sizeof label, "Table %d.", tb->number);
		L->pend_anchor = tb->id;
		caption(L, label, tb->caption, x, w, 'l');
		for (int i = first; i < L->nitems; i++)
			L->items[i].keep = 1;
		vspace(L, 3);
	}
	int hdr_item = -1, body_row = 0;
	ri = 0;
	for (cmark_node *r = cmark_node_first_child(n); r; r = cmark_node_next(r), ri++) {
		int hdr = cmark_gfm_extensions_get_table_row_is_header(r);
		/* lay out every cell to find the row height */
		int maxl = 1;
		struct lines *cl = xcalloc(ncols, sizeof *cl);
		L->in_header = hdr;
		for (int c = 0; c < ncols; c++) {
			break_lines(L, &cells[ri * ncols + c].P, cw[c] - 2 * padx, &cl[c]);
			if (cells[ri * ncols + c].P.n && cl[c].nl > maxl)
				maxl = cl[c].nl;
		}
		L->in_header = 0;
		double rh = maxl * tlead + 2 * pady;
		struct item *it = item_new(L, rh);
		int me = L->nitems - 1;
		if (hdr) {
			hdr_item = me;
			it->keep = 1;
			op_rect(L, x, 0, tw, rh, C_THEAD);
			op_rule(L, x, 0, x + tw, 0, 0.8, C_RULE);
			op_rule(L, x, rh, x + tw, rh, 0.6, C_RULE);
		} else {
			it->hdr = hdr_item;
			if (body_row % 2 == 1)
				op_rect(L, x, 0, tw, rh, C_TSTRIPE);
			body_row++;
			if (!cmark_node_next(r))
				op_rule(L, x, rh, x + tw, rh, 0.8, C_RULE);
		}
		double cx = x;
		for (int c = 0; c < ncols; c++) {
			struct cell *ce = &cells[ri * ncols + c];
			char a = al && al[c] ? (char)al[c] : 'l';
			if (!(al && al[c]) && tb && tb->numeric_cols && c < tb->ncols && tb->numeric_cols[c] && !hdr)
				a = 'r';
			if (!(al && al[c]) && tb && tb->numeric_cols && c < tb->ncols && tb->numeric_cols[c] && hdr)
				a = 'r';
			for (int li = 0; li < cl[c].nl && ce->P.n; li++) {
				struct line *ln = &cl[c].l[li];
				double inner = cw[c] - 2 * padx;
				double dx = a == 'r' ? inner - ln->w : a == 'c' ? (inner - ln->w) / 2 : 0;
				double base = pady + li * tlead + (tlead - tsize) / 2 + tsize * 0.8;
				for (int k = 0; k < ln->nf; k++) {
					struct frag *f = &cl[c].f[ln->f0 + k];
					const struct piece *p = &ce->P.v[f->piece];
					double fx = cx + padx + dx + f->x;
					op_text(L, p->font, p->size, fx, base + p->rise, L->pool + p->s + f->off, f->len, p->rgb);
					if (p->link >= 0)
						op_link(L, fx, base - p->size * 0.9, f->w, p->size * 1.2, L->pool + p->link);
				}
			}
			cx += cw[c];
			free(cl[c].f);
			free(cl[c].l);
		}
		free(cl);
	}
	/* a short table stays in one piece; a longer one breaks neither after its first
	 * one or two body rows nor before its last one or two: the header and the
	 * first three rows, and the last three rows, are each kept together */
	if (nrows <= 6) {
		for (int i = L->nitems - nrows; i < L->nitems - 1; i++)
			L->items[i].keep = 1;
	} else {
		for (int i = L->nitems - nrows; i < L->nitems - nrows + 3; i++)
			L->items[i].keep = 1;
		for (int i = L->nitems - 3; i < L->nitems - 1; i++)
			L->items[i].keep = 1;
	}
	/* the catalog table's footnote (units, sources), kept with the last row */
	if (tb && tb->note && *tb->note) {
		L->items[L->nitems - 1].keep = 1;
		int first = L->nitems;
		item_new(L, 3)->keep = 1;
		struct pieces P = {0};
		struct lines B = {0};
		struct style st = base_style(NOTE_SIZE, 1);
		st.rgb = C_GREY;
		text_add(L, &P, &st, tb->note, strlen(tb->note));
		emit_lines(L, &P, x, w, NOTE_LEAD, 'l', 0, &B);
		for (int i = first; i < L->nitems - 1; i++)
			L->items[i].keep = 1;
		free(P.v);
		free(B.f);
		free(B.l);
	}
	for (int i = 0; i < nrows * ncols; i++)
		free(cells[i].P.v);
	free(cells);
	free(minw);
	free(maxw);
	free(bminw);
	free(floorw);
	free(cw);
	vspace(L, PAR_SKIP + 3);
}

/* ---- code blocks */

static void code_block(struct L *L, cmark_node *n, double x, double w)
{
	const char *lit = cmark_node_get_literal(n);
	if (!lit)
		lit = "";
	size_t len = strlen(lit);
	if (len && lit[len - 1] == '\n')
		len--;
	double cwid = W(L, RPT_MONO, CODE_SIZE, "0", 1);
	double inner = w - 2 * CODE_PAD;
	vspace(L, 3);
	int first = L->nitems;
	size_t i = 0;
	do {
		size_t j = i;
		while (j < len && lit[j] != '\n')
			j++;
		/* wrap a long line between code points */
		size_t a = i;
		do {
			size_t b = a, k;
			double lw = 0;
			while (b < j) {
				size_t n1;
				unsigned cp = rpt_utf8_next(lit + b, j - b, &n1);
				double c = cp == '\t' ? 4 * cwid : W(L, RPT_MONO, CODE_SIZE, lit + b, n1);
				if (lw + c > inner && b > a)
					break;
				lw += c;
				b += n1;
			}
			int firstline = L->nitems == first;
			double top = firstline ? CODE_PAD : 0;
			item_new(L, CODE_LEAD + top);
			op_rect(L, x, 0, w, CODE_LEAD + top, C_CODEBG);
			double base = top + (CODE_LEAD - CODE_SIZE) / 2 + CODE_SIZE * 0.8;
			/* expand tabs to spaces, four columns */
			char buf[1024];
			size_t bl = 0;
			for (k = a; k < b && bl < sizeof buf - 4; k++) {
				if (lit[k] == '\t') {
					memcpy(buf + bl, "    ", 4);
					bl += 4;
				} else
					buf[bl++] = lit[k];
			}
			if (bl)
				op_text(L, RPT_MONO, CODE_SIZE, x + CODE_PAD, base, buf, bl, 0x222222);
			a = b;
		} while (a < j);
		i = j + 1;
	} while (i <= len);
	int nl = L->nitems - first;
	struct item *last = &L->items[L->nitems - 1];
	/* bottom padding: grow the last line and its shade */
	last->h += CODE_PAD;
	L->ops[last->op0].h += CODE_PAD;
	if (nl >= 2) {
		L->items[first].keep = 1;
		L->items[L->nitems - 2].keep = 1;
	}
	if (nl <= 4)
		for (int k = first; k < L->nitems - 1; k++)
			L->items[k].keep = 1;
	vspace(L, PAR_SKIP + 1);
}

/* ---- headings */

static void heading(struct L *L, cmark_node *n, double x, double w)
{
	const struct rpt_heading *h = cmark_node_get_user_data(n);
	int level = cmark_node_get_heading_level(n);
	if (level < 1 || level > 6)
		level = 6;
	double size = head_size[level];
	double lead = size * 1.3;
	vspace(L, level == 1 ? 0 : level == 2 ? 16 : 12);
	int first = L->nitems;
	struct pieces P = {0};
	struct lines B = {0};
	struct style st = base_style(size, 1);
	st.bold = 1;
	st.rgb = C_HEAD;
	double numw = 0;
	if (h && h->number[0]) {
		numw = W(L, RPT_SANS_BOLD, size, h->number, strlen(h->number)) + size * 0.9;
		if (numw < size * 2.2)
			numw = size * 2.2;
	}
	if (h) {
		L->pend_anchor = h->id;
		L->pend_bm = h;
	}
	if (numw > 0) {
		L->marker = h->number;
		L->marker_len = strlen(h->number);
		L->marker_x = x;
		L->marker_right = 0;
		L->marker_font = RPT_SANS_BOLD;
		L->marker_size = size;
		L->marker_rgb = C_HEAD;
	}
	inlines(L, &P, n, st);
	emit_lines(L, &P, x + numw, w - numw, lead, 'l', 0, &B);
	if (L->nitems == first)
		item_new(L, lead);
	struct item *it = &L->items[first];
	for (int i = first; i < L->nitems; i++)
		L->items[i].keep = 1;
	if (level == 1) {
		it->brk = 1;
		it->h1 = 1;
		it->chapter = head_index(L, h);
	}
	free(P.v);
	free(B.f);
	free(B.l);
	vspace(L, level == 1 ? 12 : 5);
}

static void block(struct L *L, cmark_node *n, double x, double w, int depth)
{
	cmark_node_type t = cmark_node_get_type(n);
	switch (t) {
	case CMARK_NODE_DOCUMENT:
		blocks(L, n, x, w, depth);
		break;
	case CMARK_NODE_HEADING:
		heading(L, n, x, w);
		break;
	case CMARK_NODE_PARAGRAPH: {
		cmark_node *c = cmark_node_first_child(n);
		if (c && !cmark_node_next(c) && cmark_node_get_type(c) == CMARK_NODE_IMAGE &&
		    cmark_node_get_user_data(c)) {
			figure(L, cmark_node_get_user_data(c), x, w);
			break;
		}
		paragraph(L, n, x, w, base_style(BODY_SIZE, 0), BODY_LEAD, L->lo->justify ? 'j' : 'l', 1);
		vspace(L, L->tight ? TIGHT_SKIP : PAR_SKIP);
		break;
	}
	case CMARK_NODE_BLOCK_QUOTE: {
		/* at most four bars: a deeper quote draws none, and so removes none */
		int bar = L->nbars < 4;
		vspace(L, 3);
		if (bar)
			L->bar[L->nbars++] = x + 2;
		blocks(L, n, x + nest_indent(w, QUOTE_INDENT), w - nest_indent(w, QUOTE_INDENT), depth + 1);
		if (bar)
			L->nbars--;
		vspace(L, PAR_SKIP);
		break;
	}
	case CMARK_NODE_LIST: {
		int ordered = cmark_node_get_list_type(n) == CMARK_ORDERED_LIST;
		int num = cmark_node_get_list_start(n);
		int paren = cmark_node_get_list_delim(n) == CMARK_PAREN_DELIM;
		int saved = L->tight;
		L->tight = cmark_node_get_list_tight(n);
		static const char *bullets[3] = {"\xe2\x80\xa2", "\xe2\x80\x93", "\xe2\x97\xa6"};
		double in = nest_indent(w, LIST_INDENT), mx = in > 0 ? x : x - LIST_INDENT;
		for (cmark_node *it = cmark_node_first_child(n); it; it = cmark_node_next(it)) {
			char mark[32];
			if (ordered) {
				snprintf(mark, sizeof mark, "%d%c", num++, paren ? ')' : '.');
				L->marker_right = 1;
				L->marker_x = mx + LIST_INDENT - 4;
			} else {
				snprintf(mark, sizeof mark, "%s", bullets[depth % 3]);
				L->marker_right = 0;
				L->marker_x = mx + 5;
			}
			L->marker = mark;
			L->marker_len = strlen(mark);
			L->marker_font = RPT_SERIF;
			L->marker_size = BODY_SIZE;
			L->marker_rgb = C_TEXT;
			blocks(L, it, x + in, w - in, depth + 1);
			L->marker = NULL;
		}
		L->tight = saved;
		vspace(L, saved ? TIGHT_SKIP : PAR_SKIP); /* a list nested in a tight list is tight */
		break;
	}
	case CMARK_NODE_CODE_BLOCK:
		code_block(L, n, x, w);
		break;
	case CMARK_NODE_THEMATIC_BREAK: {
		vspace(L, 6);
		item_new(L, 8);
		op_rule(L, x + w * 0.3, 4, x + w * 0.7, 4, 0.6, C_RULE);
		vspace(L, 6);
		break;
	}
	case CMARK_NODE_HTML_BLOCK:
		break;
	default:
		if (is_type(n, "table"))
			table(L, n, x, w);
		else
			blocks(L, n, x, w, depth);
		break;
	}
}

/* ------------------------------------------------------------------ furniture */

static void plain_lines(struct L *L, const char *text, enum rpt_font f, double size, double lead,
                        double x, double w, char align, unsigned rgb)
{
	struct pieces P = {0};
	struct lines B = {0};
	struct style st = base_style(size, f == RPT_SERIF ? 0 : 1);
	st.bold = f == RPT_SANS_BOLD;
	st.rgb = rgb;
	text_add(L, &P, &st, text, strlen(text));
	emit_lines(L, &P, x, w, lead, align, 0, &B);
	free(P.v);
	free(B.f);
	free(B.l);
}

static void title_page(struct L *L, double x, double w)
{
	const struct rpt_doc *doc = L->doc;
	double top = text_h(L) * 0.26;
	item_new(L, top);
	op_rule(L, x, top - 26, x + w * 0.25, top - 26, 3.0, C_HEAD);
	op_text(L, RPT_SANS_BOLD, 8.5, x, top - 10, "TRAINING PLAN \xe2\x80\x94 DESIGN REPORT", 31, C_GREY);
	plain_lines(L, doc->title ? doc->title : "Report", RPT_SANS_BOLD, 22, 28, x, w, 'l', C_HEAD);
	item_new(L, 16);
	if (doc->subtitle && *doc->subtitle)
		plain_lines(L, doc->subtitle, RPT_SERIF, 12, 16.5, x, w, 'l', 0x333333);
	if (doc->plan && doc->plan->file[0] && doc->plan_line) {
		char line[CALC_PATH_MAX + 32];
		if (strcmp(doc->plan->file, "<default>") == 0)
			snprintf(line, sizeof line, "Plan: the built-in default plan");
		else
			snprintf(line, sizeof line, "Plan: %s", doc->plan->file);
		item_new(L, 6);
		plain_lines(L, line, RPT_SANS, 9, 13, x, w, 'l', C_GREY);
	}
	item_new(L, 22);
	if (doc->date && *doc->date)
		plain_lines(L, doc->date, RPT_SANS, 11, 15, x, w, 'l', C_GREY);
}

/* Entries for headings of level 1 and 2, with dot leaders and page numbers. */
static void contents(struct L *L, double x, double w)
{
	const struct rpt_doc *doc = L->doc;
	struct item *it = item_new(L, head_size[1] * 1.3);
	it->brk = 1;
	op_text(L, RPT_SANS_BOLD, head_size[1], x, (head_size[1] * 1.3 - head_size[1]) / 2 + head_size[1] * 0.8,
	        "Contents", 8, C_HEAD);
	vspace(L, 14);
	double numx[3] = {0, x, x + 24};
	double numw[3] = {0, 24, 30};
	double pagew = 30; /* page number column [pt] */
	for (int i = 0; i < doc->nheadings; i++) {
		const struct rpt_heading *h = &doc->headings[i];
		if (h->level > 2)
			continue;
		int lv = h->level;
		enum rpt_font f = lv == 1 ? RPT_SANS_BOLD : RPT_SERIF;
		double size = lv == 1 ? 9.8 : 9.4, lead = lv == 1 ? 14.0 : 12.6;
		if (lv == 1)
			vspace(L, 7);
		double tx = numx[lv] + numw[lv];
		double tw = x + w - pagew - 12 - tx;
		int first = L->nitems;
		struct pieces P = {0};
		struct lines B = {0};
		struct style st = base_style(size, lv == 1 ? 1 : 0);
		st.bold = lv == 1;
		if (h->number[0]) {
			L->marker = h->number;
			L->marker_len = strlen(h->number);
			L->marker_x = numx[lv];
			L->marker_right = 0;
			L->marker_font = f;
			L->marker_size = size;
			L->marker_rgb = C_TEXT;
		}
		text_add(L, &P, &st, h->text ? h->text : "", h->text ? strlen(h->text) : 0);
		emit_lines(L, &P, tx, tw, lead, 'l', 0, &B);
		L->marker = NULL;
		if (L->nitems == first)
			item_new(L, lead);
		/* on the last line: dot leaders and the page number (an op filled in when
		 * the page is drawn) */
		double lastw = B.nl ? B.l[B.nl - 1].w : 0;
		double base = (lead - size) / 2 + size * 0.8;
		double gap = 4.6;
		double d0 = ceil((tx + lastw + 5) / gap) * gap;
		for (double dx = d0; dx < x + w - pagew; dx += gap)
			op_text(L, RPT_SERIF, size, dx, base, ".", 1, C_GREY);
		struct op *o = op_new(L, OP_PAGEREF);
		o->font = f;
		o->size = size;
		o->x = x + w;
		o->y = base;
		o->ref = i;
		o->rgb = C_TEXT;
		for (int k = first; k < L->nitems; k++) {
			if (k < L->nitems - 1)
				L->items[k].keep = 1;
		}
		/* the whole entry is a link to its heading */
		char target[100];
		snprintf(target, sizeof target, "#%s", h->id);
		op_link(L, numx[lv], 0, x + w - numx[lv], lead, target);
		free(P.v);
		free(B.f);
		free(B.l);
	}
}

/* ------------------------------------------------------------------ pages */

static void place(struct L *L, int item, int page, double top)
{
	if (L->npl == L->cpl) {
		L->cpl = L->cpl ? 2 * L->cpl : 512;
		L->pl = xrealloc(L->pl, L->cpl * sizeof *L->pl);
	}
	L->pl[L->npl++] = (struct place){item, page, top};
}

/* A chapter opens on the page of its predecessor's last lines when they fill less
 * than this share of the text height, SPILL_GAP below them [pt]. */
#define SPILL_FILL 0.35
#define SPILL_GAP 30.0

/* A figure that does not fit below what fills less than this share of the text height
 * floats: the blocks after it fill the page first and it opens the next page (the
 * placement LaTeX gives a float that does not fit "here"), so that no page before it is
 * left more than half empty. */
#define FLOAT_FILL 0.6

/* The end (inclusive) of the kept chain that starts at item i. */
static int chain_end(const struct L *L, int i)
{
	while (i < L->nitems - 1 && L->items[i].keep)
		i++;
	return i;
}

/* Floats the figure chain j..e: places on 'page' from 'y' the kept chains after e that fit
 * whole (up to a page break, another figure or a table row), then the figure chain at the
 * top of the next page.  Returns the first item not placed; *y and *first follow. */
static int float_figure(struct L *L, int *plidx, double *ytop, int j, int e, int *page, double *y, int *first)
{
	double bottom = L->lo->page_h - L->lo->margin_bottom;
	int k = e + 1;
	while (k < L->nitems) {
		int ke = chain_end(L, k), ok = 1;
		double hh = 0;
		for (int m = k; m <= ke && ok; m++) {
			const struct item *it = &L->items[m];
			ok = !it->brk && !it->fig && it->hdr < 0;
			hh += it->h;
		}
		if (!ok || *y + hh > bottom + 0.01)
			break;
		for (int m = k; m <= ke; m++) {
			plidx[m] = L->npl;
			ytop[m] = *y;
			place(L, m, *page, *y);
			*y += L->items[m].h;
		}
		k = ke + 1;
	}
	(*page)++;
	*y = L->lo->margin_top;
	*first = -1;
	for (int m = j; m <= e; m++) {
		if (L->items[m].discard && *first < 0)
			continue;
		if (*first < 0)
			*first = m;
		plidx[m] = L->npl;
		ytop[m] = *y;
		place(L, m, *page, *y);
		*y += L->items[m].h;
	}
	return k;
}

/* First-fit page builder with kept chains, repeated table headers and floating figures. */
static void paginate(struct L *L)
{
	const struct rpt_layout_opts *lo = L->lo;
	double top = lo->margin_top, bottom = lo->page_h - lo->margin_bottom;
	int *plidx = xcalloc(L->nitems + 1, sizeof *plidx);
	double *ytop = xcalloc(L->nitems + 1, sizeof *ytop);
	int page = 1, first = -1;
	double y = top;
	int i = 0;
	while (i < L->nitems) {
		const struct item *it = &L->items[i];
		if (it->brk && first >= 0) {
			/* a chapter whose predecessor spilt a few lines onto a page of their own
			 * starts below them instead of leaving that page near-empty */
			if (it->h1 && !L->items[first].brk && y - top < SPILL_FILL * (bottom - top)) {
				y += SPILL_GAP;
			} else {
				page++, y = top, first = -1;
				continue;
			}
		}
		plidx[i] = L->npl;
		if (it->discard && first < 0) {
			i++;
			continue;
		}
		ytop[i] = y;
		if (first >= 0 && y + it->h > bottom + 0.01) {
			int j = i;
			while (j > first && L->items[j - 1].keep)
				j--;
			if (j == first)
				j = i; /* the chain fills the page: break inside it */
			if (j > first && ytop[j] - top < FLOAT_FILL * (bottom - top)) {
				int e = chain_end(L, j), fig = 0;
				for (int m = j; m <= e; m++)
					fig |= L->items[m].fig;
				if (fig && e + 1 < L->nitems) {
					L->npl = plidx[j];
					y = ytop[j];
					i = float_figure(L, plidx, ytop, j, e, &page, &y, &first);
					continue;
				}
			}
			L->npl = plidx[j];
			page++, y = top, first = -1;
			i = j;
			continue;
		}
		if (first < 0 && it->hdr >= 0 && it->hdr != i) {
			place(L, it->hdr, page, y);
			y += L->items[it->hdr].h;
		}
		if (first < 0)
			first = i;
		ytop[i] = y;
		place(L, i, page, y);
		y += it->h;
		i++;
	}
	/* the pages are those something landed on: a break, or an item too tall for the rest
	 * of the page, followed only by items a page top discards (the space after the last
	 * table) opened a page that nothing lands on, a blank last page */
	L->npages = 1;
	for (int k = 0; k < L->npl; k++)
		if (L->pl[k].page > L->npages)
			L->npages = L->pl[k].page;
	free(plidx);
	free(ytop);
}

static double Y(const struct L *L, double top, double dy)
{
	return L->lo->page_h - top - dy;
}

static void draw_item(struct L *L, const struct item *it, double top, int page)
{
	const struct rpt_device *dv = L->dev;
	void *c = dv->ctx;
	for (int b = 0; b < it->nbars; b++)
		if (dv->rule)
			dv->rule(c, it->bar[b], Y(L, top, 0), it->bar[b], Y(L, top, it->h), 1.6, C_QUOTE);
	for (int k = 0; k < it->nops; k++) {
		const struct op *o = &L->ops[it->op0 + k];
		const char *s = L->pool + o->s;
		switch (o->kind) {
		case OP_TEXT:
			if (dv->text)
				dv->text(c, o->font, o->size, o->x, Y(L, top, o->y), s, o->len, o->rgb);
			break;
		case OP_RULE:
			if (dv->rule)
				dv->rule(c, o->x, Y(L, top, o->y), o->w, Y(L, top, o->h), o->size, o->rgb);
			break;
		case OP_RECT:
			if (dv->rect)
				dv->rect(c, o->x, Y(L, top, o->y + o->h), o->w, o->h, o->rgb);
			break;
		case OP_IMAGE:
			if (dv->image && dv->image(c, s, o->x, Y(L, top, o->y + o->h), o->w, o->h) < 0 && !L->err)
				L->err = calc_error(L->d, s, 0, "cannot place the figure image");
			break;
		case OP_LINK:
			if (dv->link)
				dv->link(c, o->x, Y(L, top, o->y + o->h), o->w, o->h, s);
			break;
		case OP_ANCHOR:
			if (dv->anchor)
				dv->anchor(c, s, Y(L, top, -4));
			break;
		case OP_BOOKMARK:
			if (dv->bookmark)
				dv->bookmark(c, o->level, L->pool + o->s2, s);
			break;
		case OP_PAGEREF: {
			char num[16];
			int pg = o->ref >= 0 ? L->head_page[o->ref] : 0;
			snprintf(num, sizeof num, "%d", pg);
			double nw = W(L, o->font, o->size, num, strlen(num));
			if (dv->text)
				dv->text(c, o->font, o->size, o->x - nw, Y(L, top, o->y), num, strlen(num),
				         o->rgb);
			break;
		}
		}
	}
	(void)page;
}

static void furniture(struct L *L, int page)
{
	const struct rpt_layout_opts *lo = L->lo;
	const struct rpt_device *dv = L->dev;
	void *c = dv->ctx;
	double x = lo->margin_left, w = lo->page_w - lo->margin_left - lo->margin_right;
	char buf[600];
	if (page < L->toc_first || !dv->text)
		return;
	/* footer */
	snprintf(buf, sizeof buf, "page %d of %d", page, L->npages);
	double fw = W(L, RPT_SANS, HEAD_SIZE, buf, strlen(buf));
	dv->text(c, RPT_SANS, HEAD_SIZE, x + (w - fw) / 2, lo->margin_bottom - 30, buf, strlen(buf), C_GREY);
	/* running header: the chapter, not on the page that opens it */
	if (L->page_opens[page])
		return;
	const char *left = "Contents";
	if (page >= L->body_first) {
		int ch = L->page_chapter[page];
		if (ch < 0)
			return;
		const struct rpt_heading *h = &L->doc->headings[ch];
		snprintf(buf, sizeof buf, "%s%s%s", h->number, h->number[0] ? "  " : "", h->text ? h->text : "");
		left = buf;
	}
	double yb = lo->page_h - lo->margin_top + 22;
	dv->text(c, RPT_SANS, HEAD_SIZE, x, yb, left, strlen(left), C_GREY);
	/* the running title on the right, after the chapter with 18 pt between them;
	 * a title too long for what is left ends at a word with an ellipsis */
	const char *t = L->doc->title ? L->doc->title : "";
	double avail = w - W(L, RPT_SANS, HEAD_SIZE, left, strlen(left)) - 18;
	char tbuf[600];
	snprintf(tbuf, sizeof tbuf, "%s", t);
	double tw = W(L, RPT_SANS, HEAD_SIZE, tbuf, strlen(tbuf));
	while (tw > avail) {
		char *sp = strrchr(tbuf, ' ');
		if (!sp || sp == tbuf) {
			tbuf[0] = 0;
			break;
		}
		strcpy(sp, "\xe2\x80\xa6"); /* U+2026 */
		if (sp > tbuf && sp[-1] == ',')
			memmove(sp - 1, sp, strlen(sp) + 1);
		tw = W(L, RPT_SANS, HEAD_SIZE, tbuf, strlen(tbuf));
		if (tw > avail) /* drop the ellipsis and one more word */
			*strrchr(tbuf, '\xe2') = 0;
	}
	if (tbuf[0] && left == buf)
		dv->text(c, RPT_SANS, HEAD_SIZE, x + w - tw, yb, tbuf, strlen(tbuf), C_GREY);
	if (dv->rule)
		dv->rule(c, x, yb - 5, x + w, yb - 5, 0.5, C_RULE);
}

int rpt_layout_run(const struct rpt_doc *doc, const struct rpt_layout_opts *lo,
                   const struct rpt_device *dev, struct calc_diag *d)
{
	struct L L;
	memset(&L, 0, sizeof L);
	L.doc = doc;
	L.lo = lo;
	L.dev = dev;
	L.d = d;
	double x = lo->margin_left, w = lo->page_w - lo->margin_left - lo->margin_right;

	int toc_item = 0, body_item = 0;
	if (lo->title_page) {
		title_page(&L, x, w);
		toc_item = L.nitems;
		contents(&L, x, w);
	}
	body_item = L.nitems;
	if (doc->root)
		block(&L, doc->root, x, w, 0);
	if (L.nitems == 0)
		item_new(&L, 1);
	if (body_item < L.nitems)
		L.items[body_item].brk = 1;

	paginate(&L);

	/* where things landed */
	L.head_page = xcalloc(doc->nheadings + 1, sizeof *L.head_page);
	L.page_chapter = xcalloc(L.npages + 2, sizeof *L.page_chapter);
	L.page_opens = xcalloc(L.npages + 2, sizeof *L.page_opens);
	L.toc_first = lo->title_page ? 2 : 1;
	L.body_first = L.npages + 1;
	int chapter = -1, lastpage = 0;
	for (int p = 0; p <= L.npages + 1; p++)
		L.page_chapter[p] = -1;
	for (int k = 0; k < L.npl; k++) {
		const struct place *pl = &L.pl[k];
		const struct item *it = &L.items[pl->item];
		int first_on_page = pl->page != lastpage;
		if (first_on_page) {
			L.page_chapter[pl->page] = chapter;
			lastpage = pl->page;
		}
		if (lo->title_page && pl->item == toc_item)
			L.toc_first = pl->page;
		if (pl->item >= body_item && pl->page < L.body_first)
			L.body_first = pl->page;
		if (it->chapter >= 0) {
			chapter = it->chapter;
			/* no running header on a page a chapter opens at the top */
			if (L.page_chapter[pl->page] < 0 || first_on_page)
				L.page_opens[pl->page] = 1;
			/* a page's header names the last chapter that starts on or before the
			 * page's end: a chapter opening mid-page (below a predecessor's spilt
			 * lines) names that page, as LaTeX's \leftmark does */
			L.page_chapter[pl->page] = chapter;
		}
		for (int o = 0; o < it->nops; o++) {
			const struct op *op = &L.ops[it->op0 + o];
			if (op->kind == OP_BOOKMARK && op->ref >= 0 && op->ref < doc->nheadings)
				L.head_page[op->ref] = pl->page;
		}
	}
	if (!lo->title_page)
		L.toc_first = 1;
	else
		L.page_opens[L.toc_first] = 1;

	/* draw */
	int k = 0;
	for (int p = 1; p <= L.npages && !L.err; p++) {
		if (dev->begin_page)
			dev->begin_page(dev->ctx, p, lo->page_w, lo->page_h);
		furniture(&L, p);
		for (; k < L.npl && L.pl[k].page == p; k++)
			draw_item(&L, &L.items[L.pl[k].item], L.pl[k].top, p);
		if (dev->end_page)
			dev->end_page(dev->ctx);
		if (dev->failed && dev->failed(dev->ctx) && !L.err)
			L.err = calc_error(d, NULL, 0, "the output device failed on page %d", p);
	}
	int npages = L.npages;
	free(L.pool);
	free(L.ops);
	free(L.items);
	free(L.pl);
	free(L.head_page);
	free(L.page_chapter);
	free(L.page_opens);
	return L.err ? -1 : npages;
}
