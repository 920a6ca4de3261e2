/*
 * pdf.c -- the PDF device on libharu and rpt_pdf_render.
 *
 * Placeholder until the layout engine lands: it links, and reports that PDF
 * output is not available yet.
 */
#include "report.h"

int rpt_pdf_render(const struct rpt_doc *doc, const struct rpt_pdf_opts *o, const char *path,
                   struct calc_diag *d)
{
	(void)doc;
	(void)o;
	return calc_error(d, path, 0, "PDF output is not available yet");
}
