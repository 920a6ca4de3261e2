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

/* How grave a diagnostic is.  Only errors count in nerrors. */
enum calc_severity {
	CALC_ERROR,
	CALC_WARNING,
	CALC_NOTE,
};

/* One diagnostic: where it points and what it says. */
struct calc_diag_rec {
	char *file;                  /* path or origin ("--set", "with"); NULL when none applies */
	int line;                    /* 1-based; 0 = no line */
	int col;                     /* 1-based; 0 = no column */
	enum calc_severity severity;
	char *msg;                   /* the message, without location, severity or newline */
};

/*
 * A growing list of diagnostics, kept as records.  'text' is the same list formatted
 * by calc_diag_format (one "FILE:LINE:COL: error: MESSAGE" line each), kept current as
 * records are added, for callers that only print it.  Zero-initialise before use;
 * calc_diag_free releases everything.
 */
struct calc_diag {
	struct calc_diag_rec *recs; /* the records, in the order added */
	int nrecs;                  /* records used */
	int caprecs;                /* records allocated */
	char *text;  /* all records formatted, '\n'-terminated each; NULL when empty */
	size_t len;  /* bytes used in text */
	size_t cap;  /* bytes allocated */
	int nerrors; /* number of records of severity CALC_ERROR */
};

/* Append an error "file:line: error: ..." (line <= 0 omits it; file NULL omits both).
 * Always returns -1 so callers can write `return calc_error(...)`. */
int calc_error(struct calc_diag *d, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Append a diagnostic of any severity with a column (col <= 0 omits it, and it is
 * omitted as well when line <= 0).  Returns -1 for CALC_ERROR, 0 otherwise. */
int calc_error_at(struct calc_diag *d, const char *file, int line, int col,
                  enum calc_severity severity, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Write record 'r' as one line without its newline into buf (size n, always
 * NUL-terminated): "FILE:LINE:COL: SEVERITY: MESSAGE", with the parts that do not
 * apply left out.  Returns the length the whole line would have (as snprintf). */
int calc_diag_format(const struct calc_diag_rec *r, char *buf, size_t n);

/* The message of the first record, or 'fallback' when there is none. */
const char *calc_diag_first(const struct calc_diag *d, const char *fallback);

/* Append a copy of every record of 'src' to 'd' (NULL: nothing), as if each had been
 * added there; 'src' is unchanged. */
void calc_diag_append(struct calc_diag *d, const struct calc_diag *src);
void calc_diag_free(struct calc_diag *d);

/* Out of memory prints one message and exits with status 2: the only exit. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
