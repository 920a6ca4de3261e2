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
};

struct rpt_doc {
	cmark_node *root;
	char *title;       /* report title */
	char *subtitle;    /* plan summary line */
	char *date;        /* YYYY-MM-DD from the plan or SOURCE_DATE_EPOCH */
	struct rpt_heading *headings; int nheadings;
	struct rpt_figure *figures;   int nfigures;
	struct rpt_table *tables;     int ntables;
	const struct calc_plan *plan;
};

/* Options of one PDF render. */
struct rpt_pdf_opts {
	int letter;        /* 0 = A4, 1 = US Letter */
	int justify;       /* 1 = justified paragraphs, 0 = ragged right */
};

/* Render the expanded document as PDF to 'path' (written to a temporary file and
 * renamed).  Returns 0, or -1 with a diagnostic. */
int rpt_pdf_render(const struct rpt_doc *doc, const struct rpt_pdf_opts *o, const char *path,
                   struct calc_diag *d);
/* Lay the document out through the fixed-width text device and print the pages to
 * 'out' (layout goldens: tests/layout/NAME.md -> NAME.out_text). Returns 0 or -1. */
int rpt_text_render(const struct rpt_doc *doc, const struct rpt_pdf_opts *o, FILE *out,
                    struct calc_diag *d);
/* Render the expanded document as HTML to 'path'.  Returns 0 or -1. */
int rpt_html_render(const struct rpt_doc *doc, const char *path, int unsafe, struct calc_diag *d);

#endif
