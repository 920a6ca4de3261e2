/*
 * diag.c -- diagnostics and the one out-of-memory exit.
 */
#include "calc.h"

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

int calc_error(struct calc_diag *d, const char *file, int line, const char *fmt, ...)
{
	char buf[1024];
	int n = 0;
	va_list ap;

	if (!d)
		return -1;
	if (file && line > 0)
		n = snprintf(buf, sizeof buf, "%s:%d: error: ", file, line);
	else if (file)
		n = snprintf(buf, sizeof buf, "%s: error: ", file);
	else
		n = snprintf(buf, sizeof buf, "error: ");
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof buf - 2)
		n = (int)sizeof buf - 2;
	buf[n++] = '\n';
	append(d, buf, (size_t)n);
	d->nerrors++;
	return -1;
}

void calc_diag_free(struct calc_diag *d)
{
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
