/*
 * tests/report/html.c -- the HTML renderer (report/html.c) on small documents.
 *
 * Each test writes a chapter (and, for figures, a stand-in figure script and SVG) to a
 * scratch folder, loads it with rpt_doc_load, renders it and looks for what a reader
 * relies on: escaping of raw HTML unless --unsafe, no dangerous link, numbers
 * right-aligned, numbered captions, the SVG inlined with its ids prefixed, the table of
 * contents, and an error (not a blank) when a figure was never rendered.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../calc/testutil.h"
#include "report.h"

static char dir[64];

static void write_file(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

/* Load dir/ch.md holding 'md', render it; returns the HTML (static) or NULL with the
 * diagnostics in 'err'. */
static const char *render(const char *md, int unsafe, char *err, size_t nerr)
{
	static struct calc_plan plan;
	load_plan(&plan, NULL, 0);
	write_file("ch.md", md);
	char ch[128], out[128], figs[128];
	snprintf(ch, sizeof ch, "%s/ch.md", dir);
	snprintf(out, sizeof out, "%s/report.html", dir);
	snprintf(figs, sizeof figs, "%s/figsrc", dir);
	const char *files[] = {ch};
	struct rpt_opts o = {figs, dir, 1, NULL, NULL, NULL};
	struct rpt_doc doc;
	struct calc_diag d = {0};
	int rc = rpt_doc_load(&doc, files, 1, &plan, &o, &d);
	if (rc == 0) {
		char *buf = NULL;
		size_t len = 0;
		rc = rpt_html_render(&doc, unsafe, &buf, &len, &d);
		struct calc_output o1 = {out, buf, len};
		if (rc == 0)
			rc = calc_output_write(&o1, 1, &d);
		free(buf);
	}
	rpt_doc_free(&doc);
	if (err)
		snprintf(err, nerr, "%s", d.text ? d.text : "");
	calc_diag_free(&d);
	return rc == 0 ? slurp(out) : NULL;
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/rpt-html-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	char p[128];
	snprintf(p, sizeof p, "%s/figsrc", dir);
	mkdir(p, 0777);
	snprintf(p, sizeof p, "%s/figures", dir);
	mkdir(p, 0777);
	snprintf(p, sizeof p, "%s/tables", dir);
	mkdir(p, 0777);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_raw_html_is_escaped_unless_unsafe(void **state)
{
	(void)state;
	const char *md = "# T\n\nText <b>bold</b> here.\n\n<div class=\"x\">block</div>\n";
	const char *h = render(md, 0, NULL, 0);
	assert_non_null(h);
	assert_non_null(strstr(h, "Text &lt;b&gt;bold&lt;/b&gt; here."));
	assert_non_null(strstr(h, "&lt;div class=&quot;x&quot;&gt;block&lt;/div&gt;"));
	assert_null(strstr(h, "<div class=\"x\">"));
	h = render(md, 1, NULL, 0);
	assert_non_null(strstr(h, "Text <b>bold</b> here."));
	assert_non_null(strstr(h, "<div class=\"x\">block</div>"));
}

/* Math: <sub> and </sub> pass in safe mode too (the PDF draws them as a subscript);
 * any other raw tag beside them is still escaped. */
static void test_subscript_passes(void **state)
{
	(void)state;
	const char *md = "# T\n\nidle t<sub>f</sub> and <b>x</b>\n";
	const char *h = render(md, 0, NULL, 0);
	assert_non_null(h);
	assert_non_null(strstr(h, "t<sub>f</sub> and &lt;b&gt;x&lt;/b&gt;"));
}

static void test_dangerous_links_are_dropped(void **state)
{
	(void)state;
	const char *h = render("# T\n\n[click](javascript:alert(1)) and [ok](https://example.org/a?b=1&c=2)\n", 0,
	                       NULL, 0);
	assert_non_null(h);
	assert_null(strstr(h, "javascript:"));
	assert_non_null(strstr(h, "<a href=\"\">click</a>"));
	assert_non_null(strstr(h, "href=\"https://example.org/a?b=1&amp;c=2\""));
}

/* One policy for HTML and PDF: http, https, mailto and anchors, nothing else, --unsafe or not. */
static void test_url_policy(void **state)
{
	(void)state;
	assert_int_equal(rpt_url_allowed("https://example.org/"), 1);
	assert_int_equal(rpt_url_allowed("HTTP://example.org/"), 1);
	assert_int_equal(rpt_url_allowed("mailto:a@example.org"), 1);
	assert_int_equal(rpt_url_allowed("#tab-1"), 1);
	assert_int_equal(rpt_url_allowed("javascript:alert(1)"), 0);
	assert_int_equal(rpt_url_allowed("VBScript:x"), 0);
	assert_int_equal(rpt_url_allowed("file:///etc/passwd"), 0);
	assert_int_equal(rpt_url_allowed("data:image/png;base64,AA"), 0);
	assert_int_equal(rpt_url_allowed("../secret.html"), 0);
	assert_int_equal(rpt_url_allowed("http:relative"), 0);
	assert_int_equal(rpt_url_allowed(NULL), 0);
	for (int unsafe = 0; unsafe < 2; unsafe++) {
		const char *h = render("# T\n\n[a](vbscript:x) [b](file:///etc/passwd) [c](data:text/html,x) "
		                       "[d](mailto:a@example.org)\n", unsafe, NULL, 0);
		assert_non_null(h);
		assert_null(strstr(h, "vbscript:"));
		assert_null(strstr(h, "file:"));
		assert_null(strstr(h, "data:"));
		assert_non_null(strstr(h, "<a href=\"\">b</a>"));
		assert_non_null(strstr(h, "href=\"mailto:a@example.org\""));
	}
}

static void test_tables_numbered_and_numbers_right_aligned(void **state)
{
	(void)state;
	const char *md = "# T\n\n| name | GPUs |\n|---|---|\n| a | 1,024 |\n| b | 12.5 |\n\nTable: Counts {#tab-c}\n\n"
	                 "See [](#tab-c).\n";
	const char *h = render(md, 0, NULL, 0);
	assert_non_null(h);
	assert_non_null(strstr(h, "<table id=\"tab-c\">"));
	assert_non_null(strstr(h, "<caption><span class=\"label\">Table 1.</span> Counts</caption>"));
	/* the number column is right-aligned, the name column is not */
	assert_non_null(strstr(h, "<td>a</td><td class=\"num\">1,024</td>"));
	assert_non_null(strstr(h, "<th>name</th><th class=\"num\">GPUs</th>"));
	assert_non_null(strstr(h, "<a class=\"xref\" href=\"#tab-c\">Table 1</a>"));
	/* the caption paragraph is not shown twice */
	assert_null(strstr(h, "<p>Table: Counts"));
}

/* A calc table links to its CSV: the catalog's own file when shown as it is, a file the
 * report writes when arguments change it. */
static void test_calc_tables_link_their_csv(void **state)
{
	(void)state;
	const char *md = "# T\n\n```calc\ntable recipe-ledger\n```\n\n"
	                 "```calc\ntable recipe-summary recipes=seed,zero-paper\ncaption: Two recipes\n```\n";
	char err[1024];
	const char *h = render(md, 0, err, sizeof err);
	if (!h)
		fail_msg("%s", err);
	assert_non_null(strstr(h, "<a class=\"csv\" href=\"tables/recipe-ledger.csv\">CSV</a>"));
	assert_non_null(strstr(h, "Two recipes <a class=\"csv\" href=\"tables/tab-recipe-summary.csv\">CSV</a>"));
	/* the catalog table's footnote follows it */
	assert_non_null(strstr(h, "</table>\n<p class=\"table-note\">Bytes per parameter; per-GPU columns shard"));
	/* numeric columns right-aligned: the header of a number column */
	assert_non_null(strstr(h, "<th class=\"num\">bytes/param</th>"));
	char path[128];
	snprintf(path, sizeof path, "%s/tables/tab-recipe-summary.csv", dir);
	const char *csv = slurp(path); /* (reuses the buffer 'h' pointed to) */
	assert_non_null(csv);
	/* the two rows asked for, and only them; ZeRO §3.1: zero-paper totals 16 bytes */
	assert_non_null(strstr(csv, "\nseed,"));
	assert_non_null(strstr(csv, "\nzero-paper,2,0,2,4,8,16,"));
	assert_null(strstr(csv, "megatron"));
}

/* A long cell is shown whole: the a100 cluster preset's source runs past 300
 * characters, and its last words (Narayanan et al. 2021 §5) end the cell. */
static void test_long_cells_are_not_cut(void **state)
{
	(void)state;
	char err[1024];
	const char *h = render("# T\n\n```calc\ntable cluster-presets\n```\n", 0, err, sizeof err);
	if (!h)
		fail_msg("%s", err);
	assert_non_null(strstr(h, "8 x HDR 200&nbsp;Gb/s per node (Narayanan et al. 2021 §5)</td>"));
}

static void test_figure_inlined_with_prefixed_ids(void **state)
{
	(void)state;
	write_file("figsrc/chart.gp", "# stand-in\n");
	write_file("figures/chart.svg",
	           "<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<svg width=\"10\" height=\"10\">\n<title>Gnuplot</title>\n"
	           "<defs><path id='gpPt0' d='M0,0'/></defs><use xlink:href='#gpPt0'/>"
	           "<g id=\"plot\"></g><g id=\"plot\"></g><rect fill=\"url(#grad)\"/></svg>\n");
	const char *h = render("# T\n\n![Memory & more](chart)\n\nAs [](#fig-chart) shows.\n", 0, NULL, 0);
	assert_non_null(h);
	assert_non_null(strstr(h, "<figure id=\"fig-chart\">"));
	assert_null(strstr(h, "<?xml"));
	assert_null(strstr(h, "<title>Gnuplot"));
	assert_non_null(strstr(h, "<svg role=\"img\" aria-label=\"Memory &amp; more\" width=\"10\""));
	assert_non_null(strstr(h, "id='chart-gpPt0'"));
	assert_non_null(strstr(h, "xlink:href='#chart-gpPt0'"));
	assert_non_null(strstr(h, "id=\"chart-plot\""));
	assert_non_null(strstr(h, "id=\"chart-plot-2\"")); /* a repeated id made unique */
	assert_non_null(strstr(h, "url(#chart-grad)"));
	assert_non_null(strstr(h, "<figcaption><span class=\"label\">Figure 1.</span> Memory &amp; more</figcaption>"));
	assert_non_null(strstr(h, "<a class=\"xref\" href=\"#fig-chart\">Figure 1</a>"));
}

static void test_missing_svg_is_an_error(void **state)
{
	(void)state;
	write_file("figsrc/never.gp", "# stand-in\n");
	char err[1024];
	const char *h = render("# T\n\n![Never drawn](never)\n", 0, err, sizeof err);
	assert_null(h);
	assert_non_null(strstr(err, "figures/never.svg"));
	assert_non_null(strstr(err, "cannot read figure 'never'"));
}

/* A number and its unit never wrap apart: the space between them is a no-break space
 * ("9.14 / s" included), while a number followed by a word keeps its plain space. */
static void test_number_and_unit_do_not_wrap_apart(void **state)
{
	(void)state;
	const char *md = "# T\n\nA step of 9.14 s, 2.1 / s, 1,536 GPUs at 80.0 GB and 5,000 USD; 3 stages.\n\n"
	                 "| a | b |\n|---|---:|\n| x | 12.5 ms |\n\nTable: Times at 400 Gb/s {#tab-t}\n";
	const char *h = render(md, 0, NULL, 0);
	assert_non_null(h);
	assert_non_null(strstr(h, "9.14&nbsp;s,"));
	assert_non_null(strstr(h, "2.1&nbsp;/&nbsp;s,"));
	assert_non_null(strstr(h, "1,536&nbsp;GPUs"));
	assert_non_null(strstr(h, "80.0&nbsp;GB"));
	assert_non_null(strstr(h, "5,000&nbsp;USD"));
	assert_non_null(strstr(h, "12.5&nbsp;ms"));
	assert_non_null(strstr(h, "Times at 400&nbsp;Gb/s")); /* a table's caption */
	assert_non_null(strstr(h, "3 stages."));
	assert_null(strstr(h, "9.14 s"));
}

/* A header word with a hyphen stays whole in a narrow column; a body cell and prose are
 * not touched, and the header's other words may still wrap between them. */
static void test_header_words_do_not_break_at_a_hyphen(void **state)
{
	(void)state;
	const char *md = "# T\n\nA micro-batch.\n\n| ZeRO-1 per GPU | forward / micro-batch |\n|---|---:|\n| fp8-lm | 1 |\n";
	const char *h = render(md, 0, NULL, 0);
	assert_non_null(h);
	assert_non_null(strstr(h, "<span class=\"nw\">ZeRO-1</span> per GPU</th>"));
	assert_non_null(strstr(h, "forward / <span class=\"nw\">micro-batch</span></th>"));
	assert_non_null(strstr(h, "<td>fp8-lm</td>"));
	assert_non_null(strstr(h, "<p>A micro-batch.</p>"));
	assert_non_null(strstr(h, "th .nw{white-space:nowrap}"));
}

/* A table of ten columns or more gets the wide table's smaller type (the search's
 * tables of 16 and 19 columns overflowed the 50rem column at 1280 px); one of fewer
 * columns does not.  A text cell breaks a key=value list or a snake_case word only
 * after its '_' and '=' (a <wbr>), never inside a plain word; numbers and headers are
 * left alone, and "_" at a word's start or before a space gets no break. */
static void test_wide_tables_and_cell_joints(void **state)
{
	(void)state;
	const char *md = "# T\n\n| a | b | c | d | e | f | g | h | i | split |\n"
	                 "|---|---|---|---|---|---|---|---|---|---|\n"
	                 "| 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | account_embedding=yes account_loss=yes |\n\n"
	                 "| x | y_z |\n|---|---:|\n| interleaved | 1_000 |\n| =c a_ b | 2 |\n";
	const char *h = render(md, 0, NULL, 0);
	assert_non_null(h);
	assert_non_null(strstr(h, "account_<wbr>embedding=<wbr>yes account_<wbr>loss=<wbr>yes</td>"));
	assert_non_null(strstr(h, "<td>interleaved</td>"));
	assert_non_null(strstr(h, ">1_000</td>"));      /* a right-aligned cell: untouched */
	assert_non_null(strstr(h, "<td>=c a_ b</td>"));
	assert_non_null(strstr(h, ">y_z</th>"));        /* a header: untouched */
	const char *first = strstr(h, "<table");
	assert_non_null(first);
	assert_true(!strncmp(first, "<table class=\"wide\"", 19));
	const char *second = strstr(first + 1, "<table");
	assert_non_null(second);
	assert_true(strncmp(second, "<table class=\"wide\"", 19) != 0);
	assert_non_null(strstr(h, "table.wide{font-size:"));
}

static void test_toc_and_heading_numbers(void **state)
{
	(void)state;
	const char *h = render("# One\n\n## Two {#two}\n\n### Three\n\n#### Four\n\n# Five\n", 0, NULL, 0);
	assert_non_null(h);
	assert_non_null(strstr(h, "<nav class=\"toc\""));
	assert_non_null(strstr(h, "<li class=\"l1\"><a href=\"#one\"><span class=\"secnum\">1</span>One</a></li>"));
	assert_non_null(strstr(h, "<li class=\"l2\"><a href=\"#two\"><span class=\"secnum\">1.1</span>Two</a></li>"));
	assert_non_null(strstr(h, "<li class=\"l3\"><a href=\"#three\">"));
	assert_null(strstr(h, "<li class=\"l4\"")); /* the contents stop at level 3 */
	assert_non_null(strstr(h, "<h4 id=\"four\"><span class=\"secnum\">1.1.1.1</span>Four</h4>"));
	assert_non_null(strstr(h, "<h1 id=\"five\"><span class=\"secnum\">2</span>Five</h1>"));
	/* written to a temporary file and renamed: nothing left behind */
	char tmp[128];
	snprintf(tmp, sizeof tmp, "%s/report.html.tmp", dir);
	assert_int_equal(access(tmp, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw_html_is_escaped_unless_unsafe),
		cmocka_unit_test(test_subscript_passes),
		cmocka_unit_test(test_url_policy),
		cmocka_unit_test(test_dangerous_links_are_dropped),
		cmocka_unit_test(test_tables_numbered_and_numbers_right_aligned),
		cmocka_unit_test(test_calc_tables_link_their_csv),
		cmocka_unit_test(test_long_cells_are_not_cut),
		cmocka_unit_test(test_figure_inlined_with_prefixed_ids),
		cmocka_unit_test(test_missing_svg_is_an_error),
		cmocka_unit_test(test_toc_and_heading_numbers),
		cmocka_unit_test(test_number_and_unit_do_not_wrap_apart),
		cmocka_unit_test(test_header_words_do_not_break_at_a_hyphen),
		cmocka_unit_test(test_wide_tables_and_cell_joints),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
