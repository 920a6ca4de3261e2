/*
 * textdev.c -- the fixed-width text device and rpt_text_render.
 *
 * Placeholder until the layout engine lands: it links, and reports that the text
 * device is not available yet.
 */
#include "report.h"

int rpt_text_render(const struct rpt_doc *doc, const struct rpt_pdf_opts *o, FILE *out,
                    struct calc_diag *d)
{
	(void)doc;
	(void)o;
	(void)out;
	return calc_error(d, NULL, 0, "text layout output is not available yet");
}
