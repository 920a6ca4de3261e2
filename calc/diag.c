/*
 * diag.c -- diagnostics and the one out-of-memory exit.
 *
 * A diagnostic is a record (file, line, column, severity, message); the text form
 * "FILE:LINE:COL: error: MESSAGE" is made from the record by calc_diag_format, in the
 * layout compilers use, so that editors can jump to the place.
 */
#include "calc.h"
#include "files.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void append(struct calc_diag *d, const char *s, size_t n)
{
	if (d->len + n + 1 > d->cap) {
		d->cap = (d->len + n + 1) * 2 + 64;
		d->text = xrealloc(d->text, d->cap);
	}
	memcpy(d->text + d->len, s, n);
	d->len += n;
	d->text[d->len] = 0;
}

static const char *severity_word(enum calc_severity s)
{
	switch (s) {
	case CALC_WARNING:
		return "warning";
	case CALC_NOTE:
		return "note";
	case CALC_ERROR:
	default:
		return "error";
	}
}

int calc_diag_format(const struct calc_diag_rec *r, char *buf, size_t n)
{
	const char *sev = severity_word(r->severity);
	if (r->file && r->line > 0 && r->col > 0)
		return snprintf(buf, n, "%s:%d:%d: %s: %s", r->file, r->line, r->col, sev, r->msg);
	if (r->file && r->line > 0)
		return snprintf(buf, n, "%s:%d: %s: %s", r->file, r->line, sev, r->msg);
	if (r->file)
		return snprintf(buf, n, "%s: %s: %s", r->file, sev, r->msg);
	return snprintf(buf, n, "%s: %s", sev, r->msg);
}

/* A copy of s as a terminal may show it: a control byte (but newline and tab) or a byte
 * that is not UTF-8 as \xHH (calc_text_shown).  A file name or a value quoted in a
 * message can hold an ESC, which the terminal showing the message would run. */
static char *shown_dup(const char *s)
{
	size_t n = strlen(s), o = 0;
	char *out, *seg;
	if (calc_text_plain(s) < 0)
		return xstrdup(s);
	out = xmalloc(n * 4 + 1);
	seg = xmalloc(n + 1);
	while (*s) {
		size_t k = strcspn(s, "\n\t");
		memcpy(seg, s, k);
		seg[k] = 0;
		calc_text_shown(out + o, n * 4 + 1 - o, seg);
		o += strlen(out + o);
		s += k;
		if (*s)
			out[o++] = *s++;
	}
	out[o] = 0;
	free(seg);
	return out;
}

static int add(struct calc_diag *d, const char *file, int line, int col,
               enum calc_severity severity, const char *fmt, va_list ap)
{
	char msg[1024], buf[1024];
	int rc = severity == CALC_ERROR ? -1 : 0;
	if (!d)
		return rc;
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (d->nrecs == d->caprecs) {
		d->caprecs = d->caprecs * 2 + 8;
		d->recs = xrealloc(d->recs, (size_t)d->caprecs * sizeof *d->recs);
	}
	struct calc_diag_rec *r = &d->recs[d->nrecs++];
	r->file = file ? shown_dup(file) : NULL;
	r->line = line > 0 ? line : 0;
	r->col = r->line > 0 && col > 0 ? col : 0;
	r->severity = severity;
	r->msg = shown_dup(msg);
	/* the formatted line, cut as before at 1022 bytes + newline */
	int n = calc_diag_format(r, buf, sizeof buf);
	if (n > (int)sizeof buf - 2)
		n = (int)sizeof buf - 2;
	buf[n++] = '\n';
	append(d, buf, (size_t)n);
	if (severity == CALC_ERROR)
		d->nerrors++;
	return rc;
}

int calc_error(struct calc_diag *d, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = add(d, file, line, 0, CALC_ERROR, fmt, ap);
	va_end(ap);
	return rc;
}

int calc_error_at(struct calc_diag *d, const char *file, int line, int col,
                  enum calc_severity severity, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = add(d, file, line, col, severity, fmt, ap);
	va_end(ap);
	return rc;
}

const char *calc_diag_first(const struct calc_diag *d, const char *fallback)
{
	return d && d->nrecs > 0 ? d->recs[0].msg : fallback;
}

void calc_diag_append(struct calc_diag *d, const struct calc_diag *src)
{
	for (int i = 0; d && i < src->nrecs; i++) {
		const struct calc_diag_rec *r = &src->recs[i];
		calc_error_at(d, r->file, r->line, r->col, r->severity, "%s", r->msg);
	}
}

void calc_diag_free(struct calc_diag *d)
{
	for (int i = 0; i < d->nrecs; i++) {
		free(d->recs[i].file);
		free(d->recs[i].msg);
	}
	free(d->recs);
	free(d->text);
	memset(d, 0, sizeof *d);
}

static void oom(void)
{
	fputs("trainplan: error: out of memory\n", stderr);
	exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}
