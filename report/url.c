/*
 * url.c -- the one URL policy of the report, for the HTML writer (html.c) and the PDF
 * device (pdf.c) alike: links may go to http:, https: and mailto: (RFC 3986 schemes,
 * compared without case) or to an anchor of the document.
 */
#include <string.h>
#include <strings.h>

#include "report.h"

/* A chapter's link may go to http:, https: or mailto:, or to an anchor of the document
 * ("#ID"); anything else (javascript:, vbscript:, file:, data:, a relative path) is
 * dropped, with or without --unsafe. */
int rpt_url_allowed(const char *u)
{
	static const char *const ok[] = {"http://", "https://", "mailto:", NULL};
	if (!u)
		return 0;
	if (u[0] == '#')
		return 1;
	for (int i = 0; ok[i]; i++)
		if (!strncasecmp(u, ok[i], strlen(ok[i])))
			return 1;
	return 0;
}

