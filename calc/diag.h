/*
 * diag.h -- what every part of trainplan shares: diagnostics and allocation.
 *
 * A small header of its own so that the renderers and the layout engine, which need
 * only these, do not recompile when an engine header changes.
 */
#ifndef CALC_DIAG_H
#define CALC_DIAG_H

#include <stddef.h>

/* ======================================================================== */
/* Diagnostics                                                               */
/* ======================================================================== */

/*
 * A growing list of messages, one per line, each already formatted as
 * "FILE:LINE: error: MESSAGE" (or without LINE where no line applies).
 * Zero-initialise before use; calc_diag_free releases the text.
 */
struct calc_diag {
	char *text;  /* all messages, '\n'-terminated each; NULL when empty */
	size_t len;  /* bytes used in text */
	size_t cap;  /* bytes allocated */
	int nerrors; /* number of messages added */
};

/* Append one message "file:line: error: ..." (line <= 0 omits it; file NULL
 * omits both).  Always returns -1 so callers can write `return calc_error(...)`. */
int calc_error(struct calc_diag *d, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void calc_diag_free(struct calc_diag *d);

/* Out of memory prints one message and exits with status 2: the only exit. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
