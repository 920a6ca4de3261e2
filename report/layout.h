/*
 * layout.h -- the page layout engine of trainplan-report and its output devices.
 *
 * As mandoc separates term.c (line breaking) from its ASCII, PostScript and PDF
 * devices, layout.c breaks the expanded document (report.h) into lines, blocks and
 * pages in points and draws them through a small table of functions, a device.
 * layout.c never calls libharu.  Two devices exist: pdf.c (libharu, the real PDF)
 * and textdev.c (fixed-width pages as text, for golden tests of the layout).
 *
 * Coordinates: points (1/72 in), origin at the bottom-left corner of the page, y
 * growing upwards, as in PDF.  A text baseline is given by (x, y).  Colours are
 * 0xRRGGBB.  Strings are UTF-8 and are passed with an explicit length.
 */
#ifndef RPT_LAYOUT_H
#define RPT_LAYOUT_H

#include <stddef.h>

#include "report.h"

/* The faces the layout uses; a device maps each to a real font. */
enum rpt_font {
	RPT_SERIF,         /* body text: DejaVu Serif */
	RPT_SERIF_BOLD,
	RPT_SERIF_ITALIC,
	RPT_SERIF_BOLDITALIC,
	RPT_SANS,          /* tables, captions, running heads: DejaVu Sans */
	RPT_SANS_BOLD,     /* headings, table headers */
	RPT_SANS_ITALIC,
	RPT_MONO,          /* code: DejaVu Sans Mono */
	RPT_MONO_BOLD,
	RPT_NFONTS
};

/*
 * An output device.  Every function receives 'ctx'.  Drawing functions act on the
 * current page, opened by begin_page.  Functions may be NULL where a device has
 * nothing to do (the layout checks).  A device reports its own failures through
 * its context; rpt_layout_run asks 'failed' after each page.
 */
struct rpt_device {
	void *ctx;
	/* Advance width of the UTF-8 text s[0..len) in 'font' at 'size' [pt]. */
	double (*width)(void *ctx, enum rpt_font font, double size, const char *s, size_t len);
	/* Open page 'pageno' (1-based) of 'w' x 'h' [pt]. */
	void (*begin_page)(void *ctx, int pageno, double w, double h);
	void (*end_page)(void *ctx);
	/* Text with its baseline starting at (x, y). */
	void (*text)(void *ctx, enum rpt_font font, double size, double x, double y,
	             const char *s, size_t len, unsigned rgb);
	/* A line from (x0, y0) to (x1, y1), 'lw' [pt] wide. */
	void (*rule)(void *ctx, double x0, double y0, double x1, double y1, double lw,
	             unsigned rgb);
	/* A filled rectangle with its bottom-left corner at (x, y). */
	void (*rect)(void *ctx, double x, double y, double w, double h, unsigned rgb);
	/* The PNG at 'path' scaled into the box at (x, y) of 'w' x 'h'.  Returns 0 or -1. */
	int (*image)(void *ctx, const char *path, double x, double y, double w, double h);
	/* A clickable box: 'target' is "#ID" (an anchor of this document) or a URL. */
	void (*link)(void *ctx, double x, double y, double w, double h, const char *target);
	/* Anchor 'id' at height 'y' of the current page. */
	void (*anchor)(void *ctx, const char *id, double y);
	/* A bookmark (outline entry) of 'level' (1 = top) titled 'title', pointing at
	 * anchor 'id'.  Called in document order, after the anchor. */
	void (*bookmark)(void *ctx, int level, const char *title, const char *id);
	/* Non-zero once the device has failed (the layout then stops). */
	int (*failed)(void *ctx);
};

/* Page geometry and typography of one layout [pt]. */
struct rpt_layout_opts {
	double page_w, page_h;      /* A4 595.28 x 841.89; Letter 612 x 792 */
	double margin_top, margin_bottom, margin_left, margin_right;
	int justify;                /* 1 = justified paragraphs, 0 = ragged right */
	int title_page;             /* 1 = title page and table of contents */
	int *header_breaks;         /* when not NULL: counts table-header words broken inside */
};

/* Fill 'lo' with the house geometry for the given paper and justification. */
void rpt_layout_defaults(struct rpt_layout_opts *lo, int letter, int justify);

/*
 * Lay out 'doc' through 'dev': title page, table of contents (page numbers from a
 * first, measuring pass), the body with running header and "page X of Y" footer.
 * The device sees each page once, in order.  Reads the PNG headers of figures for
 * their aspect ratio.  Returns the number of pages, or -1 after a diagnostic in 'd'
 * (an unreadable figure, a device failure).
 */
int rpt_layout_run(const struct rpt_doc *doc, const struct rpt_layout_opts *lo,
                   const struct rpt_device *dev, struct calc_diag *d);

/* Decode one UTF-8 code point at s[0..len); stores its length in *n (>= 1).
 * Invalid bytes decode as U+FFFD, one byte each. */
unsigned rpt_utf8_next(const char *s, size_t len, size_t *n);

#endif
