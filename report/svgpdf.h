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
 * (x, y) the lower left corner], its text in 'font' (a UTF-8 font of 'doc').  The
 * page's graphics state is saved and restored around it.  Returns 0, or -1 when the
 * file cannot be read or has no size (nothing is drawn then).
 */
int rpt_svg_pdf(HPDF_Doc doc, HPDF_Page page, HPDF_Font font, const char *path, double x, double y,
                double w, double h);

#endif
