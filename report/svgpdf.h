/*
 * svgpdf.h -- a figure's SVG (gnuplot's svg terminal) drawn into a PDF page as vectors.
 */
#ifndef SVGPDF_H
#define SVGPDF_H

#include <hpdf.h>

/* Width and height of the SVG at 'path' in its own units (viewBox, else width and
 * height).  Returns 0, or -1 when the file cannot be read or has no size. */
int rpt_svg_size(const char *path, double *w, double *h);

/*
 * Draw the SVG at 'path' into the box (x, y, w, h) of 'page' [pt, PDF coordinates,
 * (x, y) the lower left corner], its text in 'font' (a UTF-8 font of 'doc'); 'mark'
 * (if not NULL) is given each text drawn (UTF-8), so that the caller knows the code
 * points the font must map.  The page's graphics state is saved and restored around
 * it.  Returns 0, or -1 when the file cannot be read or has no size (nothing is drawn
 * then).
 */
int rpt_svg_pdf(HPDF_Doc doc, HPDF_Page page, HPDF_Font font, const char *path, double x, double y,
                double w, double h, void (*mark)(void *ctx, const char *text), void *mark_ctx);

/*
 * Page operators written directly to 'page' (an open libharu page), byte for byte
 * as libharu 2.3's own calls write them and keeping the same page state, without
 * the scratch buffer those clear per call (report/svgpdf.c); in a state or with a
 * value libharu refuses, its own call runs and reports the error.
 *   rpt_page_point   op 'm': HPDF_Page_MoveTo (x, y) [pt]; op 'l': HPDF_Page_LineTo
 *   rpt_page_rgb     HPDF_Page_SetRGBFill, or with 'stroke' SetRGBStroke (r, g, b in 0..1)
 *   rpt_page_concat  HPDF_Page_Concat (a, b, c, d, x, y), the matrix of PDF 32000-1:2008
 *                    section 8.3.4
 *   rpt_page_linewidth  HPDF_Page_SetLineWidth
 *   rpt_page_dash    HPDF_Page_SetDash (lengths, their number, phase)
 *   rpt_page_font    HPDF_Page_SetFontAndSize
 *   rpt_page_rect, rpt_page_circle, rpt_page_textmatrix  HPDF_Page_Rectangle,
 *                    HPDF_Page_Circle, HPDF_Page_SetTextMatrix
 */
/* A number as strtod reads it (the same value and end), faster for plain decimals. */
double rpt_svg_num(const char *p, char **end);

/* A number as HPDF_FToA writes it (the same bytes, no NUL) at 's' (room for 12
 * characters); returns the end. */
char *rpt_ftoa(char *s, HPDF_REAL val);

/* Append 'n' bytes to 'st' as HPDF_Stream_Write does (the same stream contents), by
 * memcpy into a memory stream's blocks.  Returns HPDF_OK or libharu's error. */
HPDF_STATUS rpt_stream_write(HPDF_Stream st, const void *data, size_t n);

/* Give memory stream 'st' read and write functions that do what libharu's do, by
 * memcpy (other streams are left as they are). */
void rpt_stream_fast(HPDF_Stream st);

void rpt_page_point(HPDF_Page page, HPDF_REAL x, HPDF_REAL y, char op);
void rpt_page_rgb(HPDF_Page page, HPDF_REAL r, HPDF_REAL g, HPDF_REAL b, int stroke);
void rpt_page_concat(HPDF_Page page, HPDF_REAL a, HPDF_REAL b, HPDF_REAL c, HPDF_REAL d,
                     HPDF_REAL x, HPDF_REAL y);
void rpt_page_linewidth(HPDF_Page page, HPDF_REAL w);
void rpt_page_dash(HPDF_Page page, const HPDF_UINT16 *ptn, HPDF_UINT n, HPDF_UINT phase);
void rpt_page_font(HPDF_Page page, HPDF_Font font, HPDF_REAL size);
void rpt_page_rect(HPDF_Page page, HPDF_REAL x, HPDF_REAL y, HPDF_REAL w, HPDF_REAL h);
void rpt_page_circle(HPDF_Page page, HPDF_REAL x, HPDF_REAL y, HPDF_REAL r);
void rpt_page_textmatrix(HPDF_Page page, HPDF_REAL a, HPDF_REAL b, HPDF_REAL c, HPDF_REAL d,
                         HPDF_REAL x, HPDF_REAL y);

#endif
