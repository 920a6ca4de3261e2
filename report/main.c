/*
 * main.c -- trainplan-report: build the literate design report from chapters.
 *
 *   trainplan-report [--plan FILE] [--set KEY=VALUE]... [-o BASE] [--out-dir DIR]
 *                    [--figures DIR] [--subtitle TEXT] [--no-pdf] [--paper a4|letter] [--ragged] [--unsafe]
 *                    [--threads N] chapter.md...
 *       writes BASE.html and BASE.pdf (BASE defaults to output/report; figures and
 *       tables are looked up under DIR, by default the folder of BASE).  --threads (or
 *       the environment's TRAINPLAN_THREADS): threads for the searches and the
 *       validation rows, by default the processors online, at most 2; 1 computes them
 *       on one thread.  The output does not depend on it.
 *   trainplan-report --lint chapter.md...        numbers with units typed by hand
 *   trainplan-report --expand chapter.md...      the expanded Markdown (golden tests)
 *   trainplan-report --text chapter.md...        pages through the text device (layout goldens)
 *   trainplan-report --version
 *
 * Exit status: 0 success, 1 lint findings, 2 bad input (any diagnostic).  Only this
 * file prints; everything else returns diagnostics (docs/architecture.md §3).
 */
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "../calc/files.h"
#include "../calc/search.h"
#include "../calc/version.h"

/* The chapter syntax in brief, for authors (--help). */
static const char syntax_help[] =
	"\nChapter syntax (GFM Markdown plus directives; docs/architecture.md §6):\n"
	"  `=EXPR |FORMAT`        a computed value: catalog names (trainplan get --list), numbers,\n"
	"                         + - * / (× ÷), min max ceil floor round abs isfinite, < <= > >= == !=,\n"
	"                         && || !, COND ? \"text\" : \"text\", EXPR with KEY=VALUE, ...\n"
	"                         VALUE: a word (full, fp8-te) or an expression on the plan\n"
	"                         (with cp=plan.cp*2, dp=plan.dp/2); valid with ... is 0 for a\n"
	"                         variant the plan rejects, where a plain with is an error\n"
	"                         FORMAT: GB GiB TB MB % ms s days x int billion count, .N (decimals),\n"
	"                         GB.2 (both), %.3g (printf); none = the unit's default\n"
	"  ```calc                a table from the catalog (trainplan table --list):\n"
	"  table NAME [KEY=VALUE ...] [with KEY=VALUE, ...]\n"
	"  caption: TEXT          (optional; default the table's title)\n"
	"  id: tab-ID             (optional; default tab-NAME)\n"
	"  ```\n"
	"  ```calc text NAME ```  (a calc block holding \"text NAME\") the text value of quantity NAME as plain code\n"
	"  ![Caption](NAME)       figure NAME (figures/NAME.gp), id fig-NAME; ![..](NAME \"#ID\") sets the id\n"
	"  ## Heading {#ID}       a section's anchor (default: from its text); {-} leaves it unnumbered\n"
	"  Table: Caption {#ID}   right after a table written in Markdown: its caption and id\n"
	"  [](#ID)                a cross-reference: reads \"§4.2\", \"Figure 3\" or \"Table 2\"\n"
	"  <!-- lint-ok -->       exempts its line from the lint (quoting a paper's numbers)\n"
	"  <!-- if EXPR -->       keeps what follows up to the next marker when EXPR holds;\n"
	"  <!-- elif EXPR -->     then the first branch that holds, or <!-- else -->; close\n"
	"  <!-- else -->          with <!-- end -->.  Alone on a line a marker takes the line,\n"
	"  <!-- end -->           so whole paragraphs, list items, table rows and sections come\n"
	"                         and go; inside a line it chooses words.  Blocks nest.\n";

static void usage(FILE *f)
{
	fputs("usage: trainplan-report [--plan FILE] [--set KEY=VALUE]... [-o BASE] [--out-dir DIR]\n"
	      "                        [--figures DIR] [--subtitle TEXT] [--no-pdf] [--paper a4|letter] [--ragged] [--unsafe]\n"
	      "                        [--threads N] [--wait-fd N] [--no-cache] chapter.md...\n"
	      "       trainplan-report --lint chapter.md...\n"
	      "       trainplan-report [--plan FILE] [--set KEY=VALUE]... --expand chapter.md...\n"
	      "       trainplan-report [--plan FILE] [--set KEY=VALUE]... --text chapter.md...\n",
	      f);
}

/* The document is freed before the process exits only where a leak checker looks (the
 * sanitizer builds: check-report-asan): its tree is some 20,000 cmark nodes and 115,000
 * blocks, whose walk and frees just before exit(3) returns all of it to the kernel at
 * once were 4.9 M of the default report's 413 M instructions (callgrind) and about 2 %
 * of its CPU time (medians of interleaved runs; docs/architecture.md §11). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RPT_FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define RPT_FREE_AT_EXIT 1
#endif
#endif
#ifndef RPT_FREE_AT_EXIT
#define RPT_FREE_AT_EXIT 0
#endif

/* --threads N: 1 .. 16 into *n.  Returns 0, or -1 for anything else. */
static int threads_arg(const char *s, int *n)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (end == s || *end || v < 1 || v > 16)
		return -1;
	*n = (int)v;
	return 0;
}

static int print_diag(const struct calc_diag *d)
{
	for (int i = 0; i < d->nrecs; i++) {
		char line[1100];
		calc_diag_format(&d->recs[i], line, sizeof line);
		fprintf(stderr, "trainplan-report: %s\n", line);
	}
	return 2;
}

static int fail(const char *msg, const char *arg)
{
	char shown[512]; /* an argument's ESC as \xHH, not a command to the terminal */
	fprintf(stderr, "trainplan-report: error: %s%s%s\n", msg, arg ? " " : "",
	        arg ? calc_text_shown(shown, sizeof shown, arg) : "");
	usage(stderr);
	return 2;
}

/* The folder part of 'path' ("output/report" -> "output"; "report" -> "."). */
static void dir_of(const char *path, char *out, size_t n)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(out, n, ".");
	else
		snprintf(out, n, "%.*s", (int)(slash - path), path);
}

static int run_lint(char **files, int nfiles)
{
	struct calc_diag d = {0};
	int findings = 0, bad = 0;
	for (int i = 0; i < nfiles; i++) {
		int n = rpt_lint_file(files[i], &d);
		if (n < 0)
			bad = 1;
		else
			findings += n;
	}
	print_diag(&d);
	calc_diag_free(&d);
	if (bad)
		return 2;
	if (findings)
		fprintf(stderr, "trainplan-report: lint: %d finding%s\n", findings, findings == 1 ? "" : "s");
	return findings ? 1 : 0;
}

/* The output folder, and its tables/ when CSV files go there.  Returns 0 or -1. */
static int make_dirs(const char *dir, int tables, struct calc_diag *d)
{
	char tdir[CALC_PATH_MAX + 8];
	snprintf(tdir, sizeof tdir, "%s/tables", dir);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return calc_error(d, dir, 0, "cannot create the output folder: %s", strerror(errno));
	if (tables && mkdir(tdir, 0777) != 0 && errno != EEXIST)
		return calc_error(d, tdir, 0, "cannot create the output folder: %s", strerror(errno));
	return 0;
}

/* calc_output_write with SIGINT, SIGTERM, SIGHUP and SIGQUIT held until the renames are
 * done: an interrupt during the write takes effect after it, so that neither a temporary
 * nor a new HTML beside an old PDF is left behind. */
static int write_blocked(const struct calc_output *outs, int n, struct calc_diag *d)
{
	sigset_t hold, old;
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	sigprocmask(SIG_BLOCK, &hold, &old);
	int rc = calc_output_write(outs, n, d);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int main(int argc, char **argv)
{
	calc_heap_setup(); /* before the first allocation (calc/diag.h) */
	const char *plan_file = NULL, *base = "output/report", *out_dir = NULL, *figures = "figures", *subtitle = NULL;
	const char **sets = xcalloc((size_t)argc + 1, sizeof *sets);
	char **files = xcalloc((size_t)argc + 1, sizeof *files);
	int nsets = 0, nfiles = 0, lint = 0, expand = 0, text = 0, no_pdf = 0, letter = 0, unsafe = 0, ragged = 0;
	int no_cache = 0;
	int threads = 0, wait_fd = -1;
	const char *env = getenv("TRAINPLAN_THREADS");
	if (env && *env && threads_arg(env, &threads) < 0)
		return fail("TRAINPLAN_THREADS: allowed is an integer 1 .. 16, not", env);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int more = i + 1 < argc;
		if (!strcmp(a, "--plan") && more)
			plan_file = argv[++i];
		else if (!strcmp(a, "--set") && more)
			sets[nsets++] = argv[++i];
		else if (!strcmp(a, "-o") && more)
			base = argv[++i];
		else if (!strcmp(a, "--out-dir") && more)
			out_dir = argv[++i];
		else if (!strcmp(a, "--figures") && more)
			figures = argv[++i];
		else if (!strcmp(a, "--subtitle") && more)
			subtitle = argv[++i];
		else if (!strcmp(a, "--lint"))
			lint = 1;
		else if (!strcmp(a, "--expand"))
			expand = 1;
		else if (!strcmp(a, "--text"))
			text = 1;
		else if (!strcmp(a, "--no-pdf"))
			no_pdf = 1;
		else if (!strcmp(a, "--no-cache"))
			no_cache = 1;
		else if (!strcmp(a, "--letter"))
			letter = 1;
		else if (!strcmp(a, "--paper") && more) {
			const char *v = argv[++i];
			if (!strcmp(v, "a4"))
				letter = 0;
			else if (!strcmp(v, "letter"))
				letter = 1;
			else
				return fail("--paper: allowed are a4 and letter, not", v);
		} else if (!strcmp(a, "--threads") && more) {
			if (threads_arg(argv[++i], &threads) < 0)
				return fail("--threads: allowed is an integer 1 .. 16, not", argv[i]);
		} else if (!strcmp(a, "--wait-fd") && more) {
			char *end;
			long v = strtol(argv[++i], &end, 10);
			if (!*argv[i] || *end || v < 0 || v > 65535)
				return fail("--wait-fd: allowed is an open file descriptor, not", argv[i]);
			wait_fd = (int)v;
		} else if (!strcmp(a, "--ragged"))
			ragged = 1;
		else if (!strcmp(a, "--unsafe"))
			unsafe = 1;
		else if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
			printf("trainplan-report %s\n", CALC_VERSION);
			free(sets);
			free(files);
			return 0;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			fputs(syntax_help, stdout);
			free(sets);
			free(files);
			return 0;
		} else if (a[0] == '-' && a[1])
			return fail("unknown or incomplete option", a);
		else
			files[nfiles++] = argv[i];
	}
	if (!nfiles)
		return fail("no chapters given", NULL);
	/* the subtitle goes into report.html and the PDF as it is: UTF-8 text without control
	 * characters, its bytes not quoted back to the terminal */
	if (subtitle && calc_text_plain(subtitle) >= 0) {
		char where[96];
		long bad = calc_text_plain(subtitle);
		snprintf(where, sizeof where, "byte %ld (0x%02X); allowed: UTF-8 text without control characters", bad + 1,
		         (unsigned char)subtitle[bad]);
		free(sets);
		free(files);
		return fail("--subtitle: a control character or a byte that is not UTF-8 at", where);
	}
	if (threads)
		calc_threads_set(threads);
	else
		calc_threads_default(calc_threads_detect());
#ifdef __GLIBC__
	/* The simulator's timelines (tens of MB over a run, up to a few MB each) are
	 * allocated and freed many times; glibc maps and unmaps such blocks, or trims the
	 * heap after them, and each new mapping faults its pages in again (about a third of
	 * the validation rows' time).  Keeping freed memory for reuse costs no more than the
	 * run's peak. */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
	if (lint + expand + text > 1)
		return fail("--lint, --expand and --text exclude each other", NULL);
	if (lint) {
		int rc = run_lint(files, nfiles);
		free(sets);
		free(files);
		return rc;
	}

	struct calc_diag d = {0};
	struct calc_plan *plan = xcalloc(1, sizeof *plan);
	/* a plan that sets no split takes the planner's pick, as the CLI's does */
	if (calc_plan_load(plan, plan_file, sets, nsets, &d) < 0 || calc_plan_pick_split(plan, &d) < 0) {
		print_diag(&d);
		calc_diag_free(&d);
		free(plan);
		free(sets);
		free(files);
		return 2;
	}

	if (plan->split_picked) /* said as the CLI says it (cli_split_note) */
		fprintf(stderr, "trainplan-report: note: no parallel degree is set; split derived by the planner (its "
		        "recommendation, as `trainplan search` ranks it): tp %d, pp %d, dp %d, cp %d, vpp %d, %s\n",
		        plan->tp, plan->pp, plan->dp, plan->cp, plan->vpp, calc_schedule_name(plan->schedule));
	char dir[CALC_PATH_MAX];
	if (out_dir)
		snprintf(dir, sizeof dir, "%s", out_dir);
	else
		dir_of(base, dir, sizeof dir);
	/* the planner's results of an earlier run of this build (cache.c) */
	struct rpt_cache *cache = no_cache ? NULL : rpt_cache_open(dir);
	struct rpt_outputs later = {0};
	struct rpt_svgs svgs = {0};
	/* --wait-fd: the figures are being drawn while the chapters are expanded (`trainplan
	 * report`, cli/cmd_report.c), so none is read before the descriptor reaches its end
	 * (none read ahead on the pool, which could find a figure of an earlier run) */
	struct rpt_opts o = {figures, dir, !expand && !text, &later, subtitle,
	                     expand || text || wait_fd >= 0 ? NULL : &svgs};
	struct rpt_doc doc;
	int rc = rpt_doc_load(&doc, (const char *const *)files, nfiles, plan, &o, &d);
	if (wait_fd >= 0) { /* the go-ahead is a byte before the end; an end without one: write nothing */
		char b[64];
		ssize_t n;
		int go = 0;
		while ((n = read(wait_fd, b, sizeof b)) != 0)
			if (n > 0)
				go = 1;
			else if (errno != EINTR)
				break;
		close(wait_fd);
		if (!go) {
			rpt_doc_free(&doc);
			rpt_cache_free(cache);
			rpt_outputs_free(&later);
			calc_diag_free(&d);
			free(plan);
			free(sets);
			free(files);
			return 2;
		}
	}
	if (rc == 0 && expand) {
		char *md = cmark_render_commonmark(doc.root, CMARK_OPT_DEFAULT, 0);
		fputs(md, stdout);
		free(md);
	} else if (rc == 0 && text) {
		struct rpt_pdf_opts po = {letter, !ragged, NULL};
		rc = rpt_text_render(&doc, &po, stdout, &d);
	} else if (rc == 0) {
		/* both rendered first, then written together: never a new HTML beside an old PDF */
		char html[CALC_PATH_MAX + 8], pdf[CALC_PATH_MAX + 8];
		int nouts = 2 + later.n;
		struct calc_output *outs = xcalloc((size_t)nouts, sizeof *outs);
		char *hbuf = NULL, *pbuf = NULL;
		outs[0].path = html;
		outs[1].path = pdf;
		snprintf(html, sizeof html, "%s.html", base);
		snprintf(pdf, sizeof pdf, "%s.pdf", base);
		rc = rpt_html_render(&doc, unsafe, &hbuf, &outs[0].len, &d);
		if (rc == 0 && !no_pdf) {
			struct rpt_pdf_opts po = {letter, !ragged, NULL};
			rc = rpt_pdf_render(&doc, &po, pdf, &pbuf, &outs[1].len, &d);
		}
		outs[0].data = hbuf;
		outs[1].data = pbuf;
		/* the table CSVs of the chapters after the PDF; without one, they follow the HTML */
		for (int i = 0; i < later.n; i++)
			outs[2 + i] = later.v[i];
		if (no_pdf) {
			outs[1] = outs[--nouts];
		}
		/* a run with any error writes nothing, and all files are replaced together */
		if (rc == 0 && d.nerrors == 0 && make_dirs(dir, later.n > 0, &d) == 0)
			rc = write_blocked(outs, nouts, &d);
		struct calc_output co;
		if (rc == 0 && d.nerrors == 0 && rpt_cache_output(cache, &co)) {
			/* whole or not at all, as the report; one that cannot be written is only
			 * not kept */
			struct calc_diag cd = {0};
			write_blocked(&co, 1, &cd);
			calc_diag_free(&cd);
			free((char *)co.data);
		}
		free(outs);
		free(hbuf);
		free(pbuf);
	}
	rpt_outputs_free(&later);
	/* --expand and --text write to stdout: a full disk shows only here */
	if ((expand || text) && rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
		rc = calc_error(&d, "<stdout>", 0, "cannot write the output: %s", strerror(errno));
#if RPT_FREE_AT_EXIT
	rpt_doc_free(&doc);
	rpt_cache_free(cache); /* after the document, whose searches may read it */
#endif
	rpt_svgs_free(&svgs);
	free(plan);
	free(sets);
	free(files);
	if (rc < 0 || d.nerrors) {
		print_diag(&d);
		calc_diag_free(&d);
		return 2;
	}
	calc_diag_free(&d);
	return 0;
}
