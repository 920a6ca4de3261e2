/*
 * unit.c -- unit tests of the layout engine (report/layout.c) through a recording
 * device whose every code point (space included) is 10 pt wide.
 *
 * The expected positions are worked out by hand below from the engine's documented
 * rules (layout.c header comment) and its typography constants: body leading
 * 13.6 pt, space after a paragraph 6.5 pt, table cell padding 4 pt each side.  The
 * goldens (tests/layout, NAME.out_text) cover whole documents; these tests pin single
 * decisions: justification arithmetic, orphan and widow control, the CSS 2.1 table
 * column widths, the chapter a running header names and UTF-8 decoding.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>

#include <math.h>

#include <hpdf.h>
#include <hpdf_utils.h>

#include "../../report/layout.h"
#include "../../report/svgpdf.h"

/* ---- the calc diagnostics contract, minimal (the test links layout.c alone) */

void *xmalloc(size_t n) { void *p = malloc(n ? n : 1); if (!p) abort(); return p; }
void *xcalloc(size_t n, size_t s) { void *p = calloc(n ? n : 1, s ? s : 1); if (!p) abort(); return p; }
void *xrealloc(void *p, size_t n) { p = realloc(p, n ? n : 1); if (!p) abort(); return p; }
char *xstrdup(const char *s) { size_t n = strlen(s) + 1; return memcpy(xmalloc(n), s, n); }
int calc_error(struct calc_diag *d, const char *file, int line, const char *fmt, ...)
{
	(void)file, (void)line, (void)fmt;
	d->nerrors++;
	return -1;
}

/* ---- a recording device */

#define CW 10.0 /* width of every code point [pt] */

struct rec {
	int page;
	double x, y;
	char s[64];
};

struct recdev {
	int page;
	struct rec r[512];
	int n;
	double bar[64][3]; /* vertical rules (quote bars): x, y low, y high [pt] */
	int nbar;
};

static double r_width(void *ctx, enum rpt_font f, double size, const char *s, size_t len)
{
	(void)ctx, (void)f, (void)size;
	size_t i = 0, k, n = 0;
	while (i < len) {
		rpt_utf8_next(s + i, len - i, &k);
		i += k;
		n++;
	}
	return CW * (double)n;
}

static void r_begin(void *ctx, int pageno, double w, double h)
{
	(void)w, (void)h;
	((struct recdev *)ctx)->page = pageno;
}

static void r_text(void *ctx, enum rpt_font f, double size, double x, double y, const char *s,
                   size_t len, unsigned rgb)
{
	(void)f, (void)size, (void)rgb;
	struct recdev *d = ctx;
	if (d->n == 512 || strncmp(s, "page ", 5) == 0) /* skip the footer */
		return;
	struct rec *r = &d->r[d->n++];
	r->page = d->page;
	r->x = x;
	r->y = y;
	snprintf(r->s, sizeof r->s, "%.*s", (int)len, s);
}

static void r_rule(void *ctx, double x0, double y0, double x1, double y1, double lw, unsigned rgb)
{
	(void)lw, (void)rgb;
	struct recdev *d = ctx;
	if (x0 != x1 || d->nbar == 64)
		return;
	d->bar[d->nbar][0] = x0;
	d->bar[d->nbar][1] = y0 < y1 ? y0 : y1;
	d->bar[d->nbar][2] = y0 < y1 ? y1 : y0;
	d->nbar++;
}

static const struct rec *find(const struct recdev *d, const char *s)
{
	for (int i = 0; i < d->n; i++)
		if (strcmp(d->r[i].s, s) == 0)
			return &d->r[i];
	fail_msg("text \"%s\" was not drawn", s);
	return NULL;
}

/* Lay out Markdown 'md' on a page of text width 'w' and text height 'h' [pt]
 * (margins 10 pt), no title page. */
static void run(const char *md, double w, double h, int justify, struct recdev *out)
{
	cmark_gfm_core_extensions_ensure_registered();
	cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
	cmark_parser_attach_syntax_extension(p, cmark_find_syntax_extension("table"));
	cmark_parser_feed(p, md, strlen(md));
	struct rpt_doc doc;
	memset(&doc, 0, sizeof doc);
	doc.root = cmark_parser_finish(p);
	struct rpt_layout_opts lo;
	rpt_layout_defaults(&lo, 0, justify);
	lo.margin_left = lo.margin_right = lo.margin_top = lo.margin_bottom = 10;
	lo.page_w = w + 20;
	lo.page_h = h + 20;
	lo.title_page = 0;
	memset(out, 0, sizeof *out);
	struct rpt_device dev = {.ctx = out, .width = r_width, .begin_page = r_begin, .text = r_text,
	                         .rule = r_rule};
	struct calc_diag d;
	memset(&d, 0, sizeof d);
	assert_true(rpt_layout_run(&doc, &lo, &dev, &d) > 0);
	cmark_node_free(doc.root);
	cmark_parser_free(p);
}

/*
 * "aa bb cc dd" in 100 pt: aa(20) sp(10) bb(20) sp(10) cc(20) = 80 fits, + dd would
 * be 110, so line 1 is "aa bb cc" and line 2 "dd".  Justified, the 20 pt left over
 * go to the two spaces, 10 pt each: aa at 0, bb at 20+10+10 = 40, cc at
 * 40+20+10+10 = 80 (page x = 10 + that).  Ragged: 0, 30, 60.  The last line is not
 * stretched.  Line 2's baseline is one leading (13.6 pt) below line 1's.
 */
static void test_justify(void **state)
{
	(void)state;
	struct recdev d;
	run("aa bb cc dd\n", 100, 500, 1, &d);
	assert_float_equal(find(&d, "aa")->x, 10, 1e-4);
	assert_float_equal(find(&d, "bb")->x, 50, 1e-4);
	assert_float_equal(find(&d, "cc")->x, 90, 1e-4);
	assert_float_equal(find(&d, "dd")->x, 10, 1e-4);
	assert_float_equal(find(&d, "aa")->y - find(&d, "dd")->y, 13.6, 1e-4);
	run("aa bb cc dd\n", 100, 500, 0, &d);
	assert_float_equal(find(&d, "bb")->x, 40, 1e-4);
	assert_float_equal(find(&d, "cc")->x, 70, 1e-4);
}

/* A word wider than the line (15 code points = 150 pt in 100 pt) breaks between code
 * points: 10 on the first line, 5 on the next. */
static void test_long_word(void **state)
{
	(void)state;
	struct recdev d;
	run("abcdefghijklmno\n", 100, 500, 1, &d);
	assert_string_equal(d.r[0].s, "abcdefghij");
	assert_string_equal(d.r[1].s, "klmno");
}

/*
 * Orphans.  Text height 68.5 pt, width 25 pt so every two-letter word is a line.
 * Paragraph A (3 lines) fills 3 x 13.6 = 40.8 pt, then 6.5 pt of space: 47.3.  B's
 * first line would end at 60.9 (fits), its second at 74.5 (does not): without orphan
 * control b1 would stay alone at the bottom of page 1; with it, b1 moves to page 2.
 */
static void test_orphan(void **state)
{
	(void)state;
	struct recdev d;
	run("a1 a2 a3\n\nb1 b2 b3\n", 25, 68.5, 0, &d);
	assert_int_equal(find(&d, "a3")->page, 1);
	assert_int_equal(find(&d, "b1")->page, 2);
	assert_int_equal(find(&d, "b3")->page, 2);
}

/*
 * Widows.  Same page, one paragraph of six lines: five fit (5 x 13.6 = 68.0 <= 68.5),
 * the sixth would open page 2 alone, so the fifth goes with it: a4 ends page 1.
 */
static void test_widow(void **state)
{
	(void)state;
	struct recdev d;
	run("a1 a2 a3 a4 a5 a6\n", 25, 68.5, 0, &d);
	assert_int_equal(find(&d, "a4")->page, 1);
	assert_int_equal(find(&d, "a5")->page, 2);
	assert_int_equal(find(&d, "a6")->page, 2);
}

/*
 * Table columns (CSS 2.1 section 17.5.2.2).  Column 1 holds "h" and "xx yyyy":
 * minimum = widest word 40 + 2 x 4 padding = 48, preferred = 70 + 8 = 78.  Column 2
 * holds "k" and "z": 10 + 8 = 18 both.
 *  - In 100 pt the preferred widths fit (96): 78 and 18, so "z" starts at
 *    10 + 78 + 4 = 92 and "xx yyyy" stays on one line.
 *  - In 80 pt: 66 <= 80 < 96, so column 1 = 48 + (78 - 48) x (80 - 66) / (96 - 66)
 *    = 62 and column 2 = 18: "z" starts at 10 + 62 + 4 = 76, and column 1's inner
 *    54 pt breaks "xx yyyy" (70) into two lines.
 */
static void test_table_widths(void **state)
{
	(void)state;
	struct recdev d;
	const char *md = "| h | k |\n|---|---|\n| xx yyyy | z |\n";
	run(md, 100, 500, 0, &d);
	assert_float_equal(find(&d, "z")->x, 92, 1e-4);
	assert_float_equal(find(&d, "xx")->y, find(&d, "yyyy")->y, 1e-4);
	run(md, 80, 500, 0, &d);
	assert_float_equal(find(&d, "z")->x, 76, 1e-4);
	assert_float_equal(find(&d, "xx")->x, 14, 1e-4);
	assert_float_equal(find(&d, "yyyy")->x, 14, 1e-4);
	assert_true(find(&d, "xx")->y > find(&d, "yyyy")->y);
}

/*
 * A long table (8 body rows) breaks neither after its first one or two rows nor
 * before its last one or two.  A table row is 10.6 pt of leading + 2 x 2.6 pt of
 * padding = 15.8 pt.
 *  - After a one-line paragraph (13.6 + 6.5 pt) and the table's 6 pt of space, the
 *    header ends at 41.9, row 1 at 57.7, row 2 at 73.5, row 3 at 89.3: in 80 pt,
 *    rows 1-2 would fit and leave the table split after two rows; they open page 2.
 *  - Alone on a page of 135 pt, header + 7 rows (126.4 pt, plus at most the 6 pt of
 *    space) fit and row 8 (142.2) does not: rows 6, 7 and 8 go to page 2 together.
 */
static void test_table_keeps(void **state)
{
	(void)state;
	struct recdev d;
	const char *t = "| h | k |\n|---|---|\n| r1 | a |\n| r2 | a |\n| r3 | a |\n| r4 | a |\n"
	                "| r5 | a |\n| r6 | a |\n| r7 | a |\n| r8 | a |\n";
	char md[512];
	snprintf(md, sizeof md, "p1\n\n%s", t);
	run(md, 200, 80, 0, &d);
	assert_int_equal(find(&d, "p1")->page, 1);
	assert_int_equal(find(&d, "r1")->page, 2);
	assert_int_equal(find(&d, "r3")->page, 2);
	run(t, 200, 135, 0, &d);
	assert_int_equal(find(&d, "r5")->page, 1);
	assert_int_equal(find(&d, "r6")->page, 2);
	assert_int_equal(find(&d, "r8")->page, 2);
}

/*
 * A chapter's last lines do not sit alone on a page.  Text height 200 pt, width 25 pt
 * (one word a line): 14 lines of 13.6 pt fit (190.4), so a 16-line paragraph leaves
 * x5 and x6 on page 2, 27.2 pt = 14% of it.  Chapter "# B" then opens below them
 * on page 2 rather than on a page 3; a chapter after a full page opens a new one.
 */
static void test_chapter_after_spill(void **state)
{
	(void)state;
	struct recdev d;
	run("a1 a2 a3 a4 a5 a6 a7 a8 a9 b0 b1 b2 b3 b4 x5 x6\n\n# B\n\nzz\n", 25, 200, 0, &d);
	assert_int_equal(find(&d, "b4")->page, 1);
	assert_int_equal(find(&d, "x5")->page, 2);
	assert_int_equal(find(&d, "B")->page, 2);
	assert_true(find(&d, "B")->y < find(&d, "x6")->y);
	run("a1 a2 a3 a4 a5 a6 a7 a8 a9 b0 b1 b2 b3 b4 b5 b6 b7 b8 b9 c0 c1 c2 c3 c4 c5 c6 c7 c8\n\n# B\n\nzz\n",
	    25, 200, 0, &d);
	assert_int_equal(find(&d, "c8")->page, 2);
	assert_int_equal(find(&d, "B")->page, 3);
}

/* Lay out 'md' as run() does, but with a title page off and every heading given a
 * struct rpt_heading (number "1", "2", ... for level 1, text "Hn"), as the expansion
 * gives them, so that chapters exist and the running header is drawn. */
static void run_chapters(const char *md, double w, double h, struct recdev *out)
{
	cmark_gfm_core_extensions_ensure_registered();
	cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
	cmark_parser_feed(p, md, strlen(md));
	struct rpt_doc doc;
	memset(&doc, 0, sizeof doc);
	doc.root = cmark_parser_finish(p);
	doc.title = "T";
	struct rpt_heading hs[8];
	memset(hs, 0, sizeof hs);
	char texts[8][16];
	cmark_iter *it = cmark_iter_new(doc.root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_HEADING ||
		    doc.nheadings == 8)
			continue;
		struct rpt_heading *hd = &hs[doc.nheadings];
		hd->level = cmark_node_get_heading_level(n);
		snprintf(hd->number, sizeof hd->number, "%d", doc.nheadings + 1);
		snprintf(hd->id, sizeof hd->id, "sec-%d", doc.nheadings + 1);
		snprintf(texts[doc.nheadings], sizeof texts[0], "H%d", doc.nheadings + 1);
		hd->text = texts[doc.nheadings];
		hd->node = n;
		cmark_node_set_user_data(n, hd);
		doc.nheadings++;
	}
	cmark_iter_free(it);
	doc.headings = hs;
	struct rpt_layout_opts lo;
	rpt_layout_defaults(&lo, 0, 0);
	lo.margin_left = lo.margin_right = lo.margin_bottom = 10;
	lo.margin_top = 40; /* room for the running header, drawn 22 pt above the text */
	lo.page_w = w + 20;
	lo.page_h = h + 50;
	lo.title_page = 0;
	memset(out, 0, sizeof *out);
	struct rpt_device dev = {.ctx = out, .width = r_width, .begin_page = r_begin, .text = r_text};
	struct calc_diag d;
	memset(&d, 0, sizeof d);
	assert_true(rpt_layout_run(&doc, &lo, &dev, &d) > 0);
	cmark_node_free(doc.root);
	cmark_parser_free(p);
}

/* The running header text drawn on 'page', or NULL: the one text above the text
 * block (baseline page_h - margin_top + 22, i.e. h + 32 with run_chapters). */
static const char *header_on(const struct recdev *d, int page, double h)
{
	for (int i = 0; i < d->n; i++)
		if (d->r[i].page == page && d->r[i].y > h + 31 && d->r[i].y < h + 33 &&
		    d->r[i].s[0] != 'T')
			return d->r[i].s;
	return NULL;
}

/*
 * The running header names the last chapter that starts on or before the end of
 * the page.  Text 60 pt wide, 200 pt high; every word is 5 code points (50 pt), so
 * one a line.  "# H1" takes one line of 22 pt (1.3 x 17 pt) and 12 pt after it, so
 * page 1 holds it and 12 lines (34 + 12 x 13.6 = 197.2; 13 lines would make
 * 210.8).  16 words leave 4 lines (54.4 pt + 6.5 after, under 35% of 200 pt) on
 * page 2, where chapter 2 then opens below them: page 2's header is "2  H2", not
 * "1  H1".  With 26 words page 2 is full (14 lines), chapter 2 opens page 3 at its
 * top, and page 2, where no chapter starts, keeps "1  H1".  A page a chapter opens
 * at the top has no header.
 */
static void test_header_mid_page_chapter(void **state)
{
	(void)state;
	struct recdev d;
	run_chapters("# H1\n\n"
	             "w0001 w0002 w0003 w0004 w0005 w0006 w0007 w0008\n"
	             "w0009 w0010 w0011 w0012 w0013 w0014 w0015 w0016\n\n# H2\n\nzz\n",
	             60, 200, &d);
	assert_int_equal(find(&d, "w0012")->page, 1);
	assert_int_equal(find(&d, "w0013")->page, 2);
	assert_int_equal(find(&d, "H2")->page, 2);
	assert_null(header_on(&d, 1, 200));
	assert_non_null(header_on(&d, 2, 200));
	assert_string_equal(header_on(&d, 2, 200), "2  H2");
	run_chapters("# H1\n\n"
	             "w0001 w0002 w0003 w0004 w0005 w0006 w0007 w0008 w0009\n"
	             "w0010 w0011 w0012 w0013 w0014 w0015 w0016 w0017 w0018\n"
	             "w0019 w0020 w0021 w0022 w0023 w0024 w0025 w0026\n\n# H2\n\nzz\n",
	             60, 200, &d);
	assert_int_equal(find(&d, "w0026")->page, 2);
	assert_int_equal(find(&d, "H2")->page, 3);
	assert_non_null(header_on(&d, 2, 200));
	assert_string_equal(header_on(&d, 2, 200), "1  H1");
	assert_null(header_on(&d, 3, 200));
}

/* UTF-8 (RFC 3629): lengths and values, and one U+FFFD per invalid byte. */
static void test_utf8(void **state)
{
	(void)state;
	size_t n;
	assert_int_equal(rpt_utf8_next("A", 1, &n), 0x41);
	assert_int_equal(n, 1);
	assert_int_equal(rpt_utf8_next("\xc3\x97", 2, &n), 0xd7); /* U+00D7 multiplication sign */
	assert_int_equal(n, 2);
	assert_int_equal(rpt_utf8_next("\xe2\x86\x92", 3, &n), 0x2192); /* U+2192 rightwards arrow */
	assert_int_equal(n, 3);
	assert_int_equal(rpt_utf8_next("\xf0\x9f\x98\x80", 4, &n), 0x1f600);
	assert_int_equal(n, 4);
	assert_int_equal(rpt_utf8_next("\xff", 1, &n), 0xfffd);
	assert_int_equal(n, 1);
	assert_int_equal(rpt_utf8_next("\xe2\x86", 2, &n), 0xfffd); /* truncated */
	assert_int_equal(n, 1);
	assert_int_equal(rpt_utf8_next("\xc0\x80", 2, &n), 0xfffd); /* overlong NUL */
	assert_int_equal(n, 1);
}

/*
 * A paragraph back in a block quote after quotes nested five deep keeps its bar.  The
 * layout draws at most four bars; it pushed only four but popped five, so the outer
 * quote lost its bar for the rest of its content.  The outer bar is at the left margin
 * + 2 = 12 pt (layout.c, CMARK_NODE_BLOCK_QUOTE); the text "back" sits on its line.
 */
/*
 * No blank last page.  Text height 41 pt, width 25 pt (one word a line): three lines of
 * 13.6 pt reach 40.8 pt and fit; the space after the paragraph (6.5 pt) does not, and
 * nothing follows it, so the document has one page, not a second one that nothing lands
 * on (the comparison report ended with such a page after its last table).
 */
static void test_no_blank_last_page(void **state)
{
	(void)state;
	struct recdev d;
	cmark_gfm_core_extensions_ensure_registered();
	cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
	const char *md = "x1 x2 x3\n";
	cmark_parser_feed(p, md, strlen(md));
	struct rpt_doc doc;
	memset(&doc, 0, sizeof doc);
	doc.root = cmark_parser_finish(p);
	struct rpt_layout_opts lo;
	rpt_layout_defaults(&lo, 0, 0);
	lo.margin_left = lo.margin_right = lo.margin_top = lo.margin_bottom = 10;
	lo.page_w = 25 + 20;
	lo.page_h = 41 + 20;
	lo.title_page = 0;
	memset(&d, 0, sizeof d);
	struct rpt_device dev = {.ctx = &d, .width = r_width, .begin_page = r_begin, .text = r_text, .rule = r_rule};
	struct calc_diag dg;
	memset(&dg, 0, sizeof dg);
	assert_int_equal(rpt_layout_run(&doc, &lo, &dev, &dg), 1);
	assert_int_equal(find(&d, "x3")->page, 1);
	assert_int_equal(d.page, 1); /* no page begun after it */
	cmark_node_free(doc.root);
	cmark_parser_free(p);
}

/*
 * Math: "t<sub>f</sub>" draws "f" as a subscript right after "t", glued to it (the
 * recording device gives every code point 10 pt, so f starts at t.x + 10), its baseline
 * 0.2 em below t's (layout.c: 70 % of the size, 0.2 em lower, as TeX's script style);
 * the body size is 9.8 pt here and more than 5 pt in any layout, so the drop is between
 * 1 and 4 pt.  The word after the closing tag is back on t's baseline.
 */
static void test_subscript(void **state)
{
	(void)state;
	struct recdev d;
	run("idle t<sub>f</sub> after\n", 300, 500, 0, &d);
	const struct rec *t = find(&d, "t"), *f = find(&d, "f"), *a = find(&d, "after");
	assert_float_equal(f->x, t->x + 10, 1e-4);
	assert_true(t->y - f->y > 1 && t->y - f->y < 4);
	assert_float_equal(a->y, t->y, 1e-4);
}

static void test_quote_bars(void **state)
{
	(void)state;
	static struct recdev out;
	run("> a\n>\n> > b\n> > > c\n> > > > d\n> > > > > e\n>\n> back\n", 400, 600, 0, &out);
	const struct rec *back = find(&out, "back");
	int covered = 0;
	for (int i = 0; i < out.nbar; i++)
		if (out.bar[i][0] == 12 && out.bar[i][1] <= back->y && back->y <= out.bar[i][2])
			covered = 1;
	assert_true(covered);
}

/*
 * The PDF device writes its numbers with rpt_ftoa (report/svgpdf.c) instead of
 * libharu's HPDF_FToA, promising the same bytes.  The reference is libharu's own
 * function (libharu 2.3, hpdf_utils.c): every multiple of 1/64 in [-33000, 33000]
 * (past the +-32767 clamp), the values around each rounding edge (k/100000 -+ a few
 * float steps, where the 0.000005 offset carries a digit), and a million
 * pseudo-random floats over the range (a fixed linear congruential sequence,
 * Numerical Recipes' constants 1664525 and 1013904223).
 */
static void ftoa_same(float v)
{
	char a[64], b[64];
	char *ea = rpt_ftoa(a, v);
	*ea = 0;
	char *eb = HPDF_FToA(b, v, b + sizeof b - 1);
	*eb = 0;
	if (strcmp(a, b) != 0)
		fail_msg("%.9g: rpt_ftoa \"%s\", HPDF_FToA \"%s\"", (double)v, a, b);
}

static void test_ftoa(void **state)
{
	(void)state;
	for (long k = -33000L * 64; k <= 33000L * 64; k++)
		ftoa_same((float)k / 64);
	for (long k = -300000; k <= 300000; k++) {
		float v = (float)k / 100000;
		ftoa_same(v);
		float up = v, down = v;
		for (int i = 0; i < 3; i++) {
			up = nextafterf(up, 1e9f);
			down = nextafterf(down, -1e9f);
			ftoa_same(up);
			ftoa_same(down);
		}
	}
	unsigned x = 12345;
	for (int i = 0; i < 1000000; i++) {
		x = x * 1664525u + 1013904223u;
		ftoa_same(((float)(x >> 8) / (float)(1u << 24) - 0.5f) * 70000);
	}
	ftoa_same(0.0f);
	ftoa_same(-0.0f);
	ftoa_same(1e-30f);
	ftoa_same(-1e-30f);
}

/*
 * The figures' numbers are read by rpt_svg_num (report/svgpdf.c), which promises
 * strtod's value and end.  The reference is strtod itself: decimals of 1 to 18 digits
 * with the point anywhere, signs, leading zeros, and the forms left to strtod
 * (exponents, hex, inf), each followed by a separator or a path command.
 */
static void test_svg_num(void **state)
{
	(void)state;
	static const char *const fixed[] = {"0", "-0", "+5", "5.", ".5", "-.25", "007.10", "1e3", "2E-2",
	                                     "0x1A", "inf", "-", ".", "", " 12.5", "12.5L3", "3.14159265358979",
	                                     "123456789012345678", "0.0000000000000000000000001"};
	char *e1, *e2;
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		double a = rpt_svg_num(fixed[i], &e1), b = strtod(fixed[i], &e2);
		assert_memory_equal(&a, &b, sizeof a);
		assert_ptr_equal(e1, e2);
	}
	unsigned x = 777;
	char buf[64];
	for (int i = 0; i < 300000; i++) {
		x = x * 1664525u + 1013904223u;
		int nd = 1 + (int)(x >> 28) % 18, point = (int)(x >> 20) % (nd + 1);
		int k = 0;
		if (x & 1)
			buf[k++] = '-';
		for (int d = 0; d < nd; d++) {
			if (d == point)
				buf[k++] = '.';
			x = x * 1664525u + 1013904223u;
			buf[k++] = (char)('0' + (x >> 24) % 10);
		}
		buf[k++] = (x & 2) ? ' ' : ',';
		buf[k] = 0;
		double a = rpt_svg_num(buf, &e1), b = strtod(buf, &e2);
		if (memcmp(&a, &b, sizeof a) != 0 || e1 != e2)
			fail_msg("\"%s\": %.17g, strtod %.17g", buf, a, b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_justify),
		cmocka_unit_test(test_long_word),
		cmocka_unit_test(test_orphan),
		cmocka_unit_test(test_widow),
		cmocka_unit_test(test_table_widths),
		cmocka_unit_test(test_table_keeps),
		cmocka_unit_test(test_chapter_after_spill),
		cmocka_unit_test(test_header_mid_page_chapter),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_quote_bars),
		cmocka_unit_test(test_subscript),
		cmocka_unit_test(test_no_blank_last_page),
		cmocka_unit_test(test_ftoa),
		cmocka_unit_test(test_svg_num),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
