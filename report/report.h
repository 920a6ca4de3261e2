/*
 * report.h -- trainplan-report: the literate design report.
 *
 * Pipeline (as cmark's): parse every chapter with cmark-gfm (extensions table,
 * strikethrough, autolink) -> expand calc directives into plain nodes (expand.c) ->
 * number sections, figures and tables and resolve cross-references (doc.c) -> render
 * HTML (html.c) and PDF (layout.c over a device: pdf.c on libharu, textdev.c for
 * golden tests).  Renderers never see a directive.
 *
 * The expanded document contract, which every renderer relies on:
 *  - doc->root is one CMARK_NODE_DOCUMENT holding all chapters in order.
 *  - Every heading node's user_data points to its struct rpt_heading.
 *  - A figure is a paragraph holding exactly one image node; the image node's
 *    user_data points to its struct rpt_figure (url = figure name).
 *  - Every table node (GFM "table" extension) produced from a calc block or written
 *    in a chapter has user_data pointing to its struct rpt_table.
 *  - Cross-references are link nodes with url "#ID" whose text already reads
 *    "Figure 3", "Table 2" or "§4.2".
 *  - Directive code spans have been replaced by text nodes (or emphasis for
 *    conditionals); calc blocks by table nodes.
 */
#ifndef RPT_REPORT_H
#define RPT_REPORT_H

#include <cmark-gfm.h>

#include "../calc/calc.h"
#include "../calc/output.h"

struct rpt_heading {
	int level;         /* 1..6 */
	char number[24];   /* "4.2" ("" for unnumbered) */
	char id[96];       /* anchor id, unique in the document */
	char *text;        /* plain text of the heading, without the number */
	cmark_node *node;
};

struct rpt_figure {
	int number;        /* 1-based */
	char id[96];       /* "fig-bubble-curves" */
	char name[64];     /* figure name = figures/NAME.gp */
	char *caption;     /* alt text */
	char *svg_path;    /* output/figures/NAME.svg */
	char *png_path;    /* output/figures/NAME.png */
	cmark_node *node;  /* the image node */
};

struct rpt_table {
	int number;        /* 1-based */
	char id[96];       /* "tab-memory-breakdown" */
	char *caption;
	char *csv_path;    /* relative link to output/tables/NAME.csv, or NULL */
	int *numeric_cols; /* per column: 1 when the column holds numbers (right-aligned) */
	int ncols;
	cmark_node *node;  /* the table node */
	char *note;        /* footnote of a catalog table (units, sources), or NULL */
};

/* A figure's SVG body (svg_body in html.c: the <svg> element renamed for the page) read
 * by a job on the pool while the chapters are expanded, for the HTML renderer; the
 * renderer reads the file itself when the job did not run or failed. */
struct rpt_svg {
	struct calc_job job;     /* first: the pool's handle */
	char name[64];           /* figure name */
	char *path;              /* OUT/figures/NAME.svg */
	char *body;              /* the prepared text, or NULL */
	size_t len;              /* of body [B] */
	int rc;                  /* svg_body's result (0 ok) */
};
struct rpt_svgs {
	struct rpt_svg **v;
	int n;
};
/* Queue the reading of figure 'name' at 'path' on the pool (when it runs, and not
 * queued yet), as a job taken after every job of a known cost (expand.c, on the main
 * thread only). */
void rpt_svg_prefetch(struct rpt_svgs *c, const char *name, const char *path);
void rpt_svgs_free(struct rpt_svgs *c);

struct rpt_doc {
	cmark_node *root;
	char *title;       /* report title */
	char *subtitle;    /* plan summary line, or rpt_opts.subtitle */
	int plan_line;     /* 1: the title page names the plan file */
	char *date;        /* YYYY-MM-DD from the plan or SOURCE_DATE_EPOCH */
	struct rpt_heading *headings; int nheadings;
	struct rpt_figure *figures;   int nfigures;
	struct rpt_table *tables;     int ntables;
	const struct calc_plan *plan;
	char *out_dir;     /* output folder the figure paths are under ("output") */
	struct rpt_svgs *svgs; /* rpt_opts.svgs: figures read during the expansion, or NULL */
};

/* Options of one PDF render. */
struct rpt_pdf_opts {
	int letter;        /* 0 = A4, 1 = US Letter */
	int justify;       /* 1 = justified paragraphs, 0 = ragged right */
	int *header_breaks; /* when not NULL: incremented for each table-header word the layout
	                       breaks inside (between letters), which it avoids (layout.c, table;
	                       tests/layout/check-header-words.sh) */
};

/* Render the expanded document as PDF into a buffer: *out (malloc'd, caller frees)
 * holds *len bytes [B]; 'name' (the file it is meant for) only labels diagnostics.
 * Writing it is the caller's (calc_output_write).  Returns 0, or -1 with a diagnostic
 * and *out NULL. */
int rpt_pdf_render(const struct rpt_doc *doc, const struct rpt_pdf_opts *o, const char *name,
                   char **out, size_t *len, struct calc_diag *d);
/* Lay the document out through the fixed-width text device and print the pages to
 * 'out' (layout goldens: each Markdown file of tests/layout against its .out_text). Returns 0 or -1. */
int rpt_text_render(const struct rpt_doc *doc, const struct rpt_pdf_opts *o, FILE *out,
                    struct calc_diag *d);
/* Render the expanded document as one HTML page into a buffer: *out (malloc'd, caller
 * frees) holds *len bytes [B].  Returns 0, or -1 with a diagnostic and *out NULL. */
int rpt_html_render(const struct rpt_doc *doc, int unsafe, char **out, size_t *len,
                    struct calc_diag *d);

/* ======================================================================== */
/* Internal interfaces of trainplan-report (doc.c, expand.c, expr.c, lint.c) */
/* ======================================================================== */

/* A position in a chapter, for diagnostics "file:line:col: error: ...". */
struct rpt_loc {
	const char *file; /* chapter path as given on the command line */
	int line;         /* 1-based; 0 = unknown */
	int col;          /* 1-based; 0 = unknown */
};

/* Add "file:line:col: error[ID]: MESSAGE" of kind 'kind' (calc/diag.h: E022 .. E029 are
 * the report's) to 'd'.  Returns -1 (every kind of the report is an error). */
int rpt_error(struct calc_diag *d, enum calc_msg kind, const struct rpt_loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* ---- the expression language (expr.c) --------------------------------- */

/* A value of the expression language: a number with its SI unit, or a text. */
struct rpt_value {
	int is_str;        /* 1: 'str' holds the value */
	double num;        /* SI value [unit] */
	const char *unit;  /* SI unit ("B", "s", "1", "GPUs", ...) or NULL when unknown */
	char str[256];     /* text value */
	int literal;       /* 1: 'str' was written in the chapter ("not applicable"); any
	                      format passes it through unchanged */
};

/*
 * Where names are looked up.  'ctx' is the plan being evaluated; 'lookup', when set,
 * replaces the catalog (unit tests).  A `with` variant evaluates its operand in a fresh
 * scope whose ctx holds a copy of ctx->plan changed by calc_plan_set.
 */
struct rpt_scope {
	struct calc_ctx *ctx;
	int (*lookup)(struct rpt_scope *s, const char *name, struct rpt_value *out, char *err,
	              size_t nerr); /* 0, or -1 with a message in err */
	void *user;
};

struct rpt_expr; /* a parsed expression (opaque) */

/* Parse 'src' (the text of a directive after '='; 'loc' is where src starts).  Returns the
 * expression, or NULL after a diagnostic.  Free with rpt_expr_free. */
struct rpt_expr *rpt_expr_parse(const char *src, const struct rpt_loc *loc, struct calc_diag *d);
void rpt_expr_free(struct rpt_expr *e);
/* Evaluate 'e' in 'sc'.  Returns 0, or -1 after a diagnostic at the failing operand. */
int rpt_expr_eval(const struct rpt_expr *e, struct rpt_scope *sc, struct rpt_value *out,
                  struct calc_diag *d);
/* Show 'v' as format 'fmt' asks ("GB", "GiB", "TB", "MB", "%", "ms", "s", "days", "x",
 * "int", "billion", ".N" decimals, any of them with ".N", or "" for the unit's default).
 * Writes the text with its unit ("69.4 GB", "12.5%", "1,536") to buf.  Returns 0, or -1
 * with a message in err (an unknown format, or a format for another unit). */
int rpt_value_format(const struct rpt_value *v, const char *fmt, char *buf, size_t n, char *err,
                     size_t nerr);
/* Evaluate the body of an inline directive "EXPR |FORMAT" (without the leading '=') to
 * its display text.  Returns 0 or -1 after a diagnostic. */
int rpt_inline_eval(const char *body, struct rpt_scope *sc, const struct rpt_loc *loc, char *buf,
                    size_t n, struct calc_diag *d);
/* Parse "KEY=VALUE, KEY=VALUE" and return a new ctx whose plan is 'base' changed by them
 * (origin 'loc').  Returns the ctx (free with calc_ctx_free + free), or NULL. */
struct calc_ctx *rpt_variant_ctx(const struct calc_plan *base, const char *assigns,
                                 const struct rpt_loc *loc, struct calc_diag *d);

/* Evaluate the condition 'src' of a conditional block (written at 'loc') and set *truth
 * to 1 when it holds (a non-zero number, a non-empty text).  sc NULL only parses it.
 * Returns 0, or -1 after a diagnostic (a bad expression, a NaN condition). */
/* Queue on the library's pool (calc_pool_start) what the directives of the chapters
 * 'texts' (n of them, NULL for one not read) will ask for, so that the expansion finds
 * it computed: the searches of the plans their search.* names are evaluated on, in the
 * chapters' order, then the validation rows (the longest job, and plan-independent),
 * and the plan's own search moved to the back, where the pool's thread starts: the
 * threads are let go (calc_pool_go) as soon as it is queued.  Reads the texts only; parses what looks like a directive, reports nothing.
 * 'needs' (NULL, or n of them, zeroed): per chapter, the jobs queued now or before that
 * its directives wait for (free each .job). */
struct rpt_needs {
	int n;
	const struct calc_job **job; /* the pool's jobs a chapter's directives wait for */
};
void rpt_chapters_prefetch(const char *const *texts, int n, struct rpt_scope *sc, struct rpt_needs *needs);
int rpt_cond_eval(const char *src, struct rpt_scope *sc, const struct rpt_loc *loc, int *truth,
                  struct calc_diag *d);

/* ---- conditional blocks (cond.c) --------------------------------------- */

/* Where a run of the cut text came from: output (line, col) -> chapter (line, col). */
struct rpt_srcseg {
	int out_line, out_col; /* 1-based, in the text cmark parses */
	int src_line, src_col; /* 1-based, in the chapter as written */
};
struct rpt_srcmap {
	struct rpt_srcseg *seg; /* in output order */
	int n;
};

/* Cut the conditional blocks (<!-- if EXPR --> <!-- elif EXPR --> <!-- else -->
 * <!-- end -->) of chapter 'text' (from 'file') for the plan of 'sc': *out receives the
 * kept text (the caller frees it), 'map' where each run of it came from (free with
 * rpt_srcmap_free).  Returns 0, or -1 after diagnostics at file:line:col (a bad
 * condition, a marker without its if, an if without its end); *out is set either way. */
int rpt_cond_apply(const char *file, const char *text, struct rpt_scope *sc, char **out,
                   struct rpt_srcmap *map, struct calc_diag *d);
void rpt_srcmap_free(struct rpt_srcmap *m);
/* Make 'm' the map rpt_node_loc uses (NULL: positions are the chapter's own). */
void rpt_srcmap_use(const struct rpt_srcmap *m);
/* The chapter position of node 'n' of the chapter 'file', through the map in use. */
void rpt_node_loc(cmark_node *n, const char *file, struct rpt_loc *out);

/* ---- loading, expanding and numbering (doc.c, expand.c) --------------- */

/* Files a run writes at its end, together with report.html and report.pdf, so that a run
 * that fails writes nothing.  Paths and data are owned (rpt_outputs_free). */
struct rpt_outputs {
	struct calc_output *v;
	int n;
};
void rpt_outputs_free(struct rpt_outputs *w);

/* The one URL policy of links in chapters, HTML and PDF alike: 1 for http:, https:, mailto:
 * and "#ID", 0 for anything else (url.c). */
int rpt_url_allowed(const char *u);

struct rpt_opts {
	const char *figures_src; /* folder of the NAME.gp scripts ("figures") */
	const char *out_dir;     /* output folder ("output"): figures/, tables/ below it */
	int write_tables;        /* 1: tables/ID.csv for calc blocks with arguments */
	struct rpt_outputs *later; /* where those CSV files are added, written by the caller */
	const char *subtitle;    /* title page line in place of the plan's summary (NULL: the
	                            plan's); the "Plan: FILE" line is then left out */
	struct rpt_svgs *svgs;   /* NULL, or where the figures' SVG read on the pool's threads
	                            while the chapters are expanded are kept for
	                            rpt_html_render (the caller's: rpt_svgs_free after it) */
};

/* Parse the chapters (in the order given), expand directives with the plan, number and
 * resolve.  Fills 'doc' (free with rpt_doc_free).  Every error found is added to 'd'; returns
 * 0, or -1 when any error was found. */
int rpt_doc_load(struct rpt_doc *doc, const char *const *files, int nfiles,
                 const struct calc_plan *plan, const struct rpt_opts *o, struct calc_diag *d);
void rpt_doc_free(struct rpt_doc *doc);
/* Expand the directives of one chapter tree parsed from 'file' (expand.c). */
int rpt_expand(cmark_node *chapter, const char *file, struct calc_ctx *ctx,
               const struct rpt_opts *o, struct calc_diag *d);
/* The syntax extensions the parser attached (for cmark's own renderers). */
cmark_llist *rpt_doc_extensions(void);

/* Pending information attached to a node by the expansion before numbering (doc.c
 * moves it into doc->figures / doc->tables). */
struct rpt_pending {
	int kind;           /* 'f' figure, 't' table */
	char id[96];
	char name[64];
	char *caption;      /* owned */
	char *csv_path;     /* owned, or NULL */
	int *numeric_cols;  /* owned */
	int ncols;
	char *note;         /* owned, or NULL */
};

/* The GFM table node types (exported by cmark-gfm-extensions, not declared in its
 * public headers). */
extern cmark_node_type CMARK_NODE_TABLE, CMARK_NODE_TABLE_ROW, CMARK_NODE_TABLE_CELL,
	CMARK_NODE_STRIKETHROUGH;

/* ---- lint (lint.c) ------------------------------------------------------ */

/* Check chapter 'file' for numbers with units typed by hand in prose (outside inline
 * code, code blocks, link targets and HTML comments).  Adds one diagnostic per finding
 * "file:line:col: error: ..." and returns the number of findings, or -1 when the file
 * cannot be read. */
int rpt_lint_file(const char *file, struct calc_diag *d);
/* Read a whole chapter into a NUL-terminated buffer the caller frees; NULL after a
 * diagnostic (unreadable, or more than 16 MiB: /dev/zero and endless pipes end). */
char *rpt_read_chapter(const char *path, struct calc_diag *d);
/* The same on a text held in memory. */
int rpt_lint_text(const char *file, const char *text, struct calc_diag *d);


/* cache.c: the planner's results kept between runs in DIR/search-cache (the output
 * folder).  rpt_cache_open reads the file and sets the search store
 * (calc_search_store_set); NULL where this executable has no build ID.
 * rpt_cache_output gives the file's new contents (*out: its path, and bytes the caller
 * frees) and returns 1 where this run searched something the file did not hold, else 0.
 * rpt_cache_free unsets the store. */
struct rpt_cache;
struct rpt_cache *rpt_cache_open(const char *dir);
int rpt_cache_output(struct rpt_cache *c, struct calc_output *out);
void rpt_cache_free(struct rpt_cache *c);

#endif
