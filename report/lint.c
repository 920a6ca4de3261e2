/*
 * lint.c -- find numbers with units typed by hand in the prose of a chapter.
 *
 * docs/architecture.md §6: a number that depends on the plan must come from a directive, or the
 * report drifts from the numbers the moment the plan changes.  The lint flags a number
 * followed by a unit ("80 GB", "12.5%", "3 days", "2.5x", "100B") in prose.  It skips
 * what is not prose: inline code spans (directives among them), fenced code blocks,
 * HTML comments, link targets "](...)" and autolinks "<...>", and numbers glued to a
 * word ("H100", "fp8", "ZB-H1").  A line holding the comment "<!-- lint-ok -->" is
 * exempt (for quoting a paper's own numbers, with the source next to it).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* Units written after a space or glued to the number. */
static const char *const units[] = {
	"GB/s", "Gb/s", "TB/s", "MB/s", "GiB/s", "Tb/s", "TFLOP/s", "PFLOP/s", "GFLOP/s", "FLOP/s",
	"TFLOPS", "PFLOPS", "FLOPs", "FLOP", "GiB", "MiB", "KiB", "TiB", "GB", "MB", "KB", "kB", "TB",
	"PB", "bytes", "byte", "ms", "\xc2\xb5s", "us", "ns", "seconds", "second", "sec", "minutes",
	"minute", "min", "hours", "hour", "hrs", "days", "day", "weeks", "week", "months", "month",
	"GPU-hours", "GPUs", "nodes", "kW", "W", "%", "\xc3\x97", "x", NULL};
/* Units that count only when glued to the number ("100B", "15T", "7M"; "3 B" is prose). */
static const char *const glued[] = {"B", "T", "M", "K", "k", NULL};

static int word_char(unsigned char c) { return isalnum(c) || c == '_'; }

/* Length of the unit at p (0 = none).  'space' tells whether blanks came before it. */
static size_t unit_at(const char *p, int space)
{
	for (int i = 0; units[i]; i++) {
		size_t n = strlen(units[i]);
		if (strncmp(p, units[i], n) != 0)
			continue;
		if (units[i][0] != '%' && (unsigned char)units[i][0] < 0x80 && word_char((unsigned char)p[n]))
			continue; /* "3 xyz", "5 GBs" */
		if (!strcmp(units[i], "x") && space && word_char((unsigned char)p[1]))
			continue;
		return n;
	}
	if (!space)
		for (int i = 0; glued[i]; i++)
			if (p[0] == glued[i][0] && !word_char((unsigned char)p[1]))
				return 1;
	if (space && p[0] == 's' && !word_char((unsigned char)p[1]))
		return 1; /* "3 s" */
	return 0;
}

static void report(struct calc_diag *d, const char *file, int line, int col, const char *num,
                   size_t len)
{
	struct rpt_loc loc = {file, line, col};
	rpt_error(d, CALC_M_HAND_NUMBER, &loc, "number with a unit typed by hand: '%.*s' (write it as a directive, e.g. `=memory.total |GB`)",
	          (int)len, num);
}

int rpt_lint_text(const char *file, const char *text, struct calc_diag *d)
{
	int findings = 0, line = 0, in_comment = 0;
	char fence[16] = ""; /* the open fence ("```" or "~~~~"), "" outside */
	const char *ln = text;
	while (*ln) {
		const char *end = strchr(ln, '\n');
		size_t len = end ? (size_t)(end - ln) : strlen(ln);
		char *s = xmalloc(len + 1);
		memcpy(s, ln, len);
		s[len] = 0;
		line++;
		ln += len + (end ? 1 : 0);

		/* fenced code blocks */
		const char *t = s;
		while (*t == ' ')
			t++;
		if (fence[0]) {
			if (!strncmp(t, fence, strlen(fence)) && strspn(t, fence[0] == '`' ? "`" : "~") >= strlen(fence)) {
				size_t k = strspn(t, fence[0] == '`' ? "`" : "~");
				if (strspn(t + k, " \t") == strlen(t + k))
					fence[0] = 0;
			}
			free(s);
			continue;
		}
		if ((t[0] == '`' || t[0] == '~') && strspn(t, t[0] == '`' ? "`" : "~") >= 3 && t - s < 4) {
			size_t k = strspn(t, t[0] == '`' ? "`" : "~");
			snprintf(fence, sizeof fence, "%.*s", (int)(k < 15 ? k : 15), t);
			free(s);
			continue;
		}
		if (strstr(s, "<!-- lint-ok -->")) {
			free(s);
			continue;
		}
		for (size_t i = 0; i < len;) {
			char c = s[i];
			if (in_comment) {
				char *e = strstr(s + i, "-->");
				if (!e) {
					i = len;
					break;
				}
				in_comment = 0;
				i = (size_t)(e - s) + 3;
				continue;
			}
			if (!strncmp(s + i, "<!--", 4)) {
				in_comment = 1;
				i += 4;
				continue;
			}
			if (c == '`') {
				/* a code span: skip to the closing run of the same length */
				size_t k = strspn(s + i, "`");
				char run[32];
				snprintf(run, sizeof run, "%.*s", (int)(k < 31 ? k : 31), s + i);
				const char *close = s + i + k;
				for (;;) {
					close = strstr(close, run);
					if (!close || close[k] != '`')
						break;
					close += strspn(close, "`");
				}
				i = close ? (size_t)(close - s) + k : i + k;
				continue;
			}
			if (c == ']' && s[i + 1] == '(') {
				char *e = strchr(s + i, ')');
				i = e ? (size_t)(e - s) + 1 : len;
				continue;
			}
			if (c == '<' && (isalpha((unsigned char)s[i + 1]) || s[i + 1] == '/')) {
				char *e = strchr(s + i, '>');
				i = e ? (size_t)(e - s) + 1 : len;
				continue;
			}
			if (word_char((unsigned char)c) && !isdigit((unsigned char)c)) {
				while (i < len && (word_char((unsigned char)s[i]) || s[i] == '-'))
					i++; /* a word, with any digits glued to it: "H100", "ZB-H1" */
				continue;
			}
			if (!isdigit((unsigned char)c) ||
			    (i > 0 && (s[i - 1] == '.' || s[i - 1] == '-' || s[i - 1] == '/' || s[i - 1] == '#'))) {
				if (isdigit((unsigned char)c))
					while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '.'))
						i++;
				else
					i++;
				continue;
			}
			/* a number: 1,536  12.5  300 */
			size_t start = i;
			while (i < len && (isdigit((unsigned char)s[i]) ||
			                   ((s[i] == '.' || s[i] == ',') && isdigit((unsigned char)s[i + 1]))))
				i++;
			size_t j = i;
			int space = 0;
			if (s[j] == ' ') {
				j++;
				space = 1;
			} else if (!strncmp(s + j, "\xc2\xa0", 2)) { /* no-break space */
				j += 2;
				space = 1;
			}
			size_t u = unit_at(s + j, space);
			if (u) {
				report(d, file, line, (int)start + 1, s + start, j + u - start);
				findings++;
				i = j + u;
			} else {
				while (i < len && word_char((unsigned char)s[i]))
					i++; /* "1F1B", "3D" */
			}
		}
		free(s);
	}
	return findings;
}

int rpt_lint_file(const char *file, struct calc_diag *d)
{
	char *buf = rpt_read_chapter(file, d);
	if (!buf)
		return -1;
	int n = rpt_lint_text(file, buf, d);
	free(buf);
	return n;
}
