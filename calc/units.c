/*
 * units.c -- numbers with unit suffixes, into SI base units.
 *
 * Decimal prefixes are powers of 10 (k = 1e3, G = 1e9), binary ones powers of 2
 * (Ki = 2^10, Gi = 2^30), as IEC 80000-13 defines them.  A lowercase 'b' after a
 * prefix in a rate means bits (400 Gb/s = 50e9 bytes/s); 'B' means bytes.
 */
#include "units.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct suffix {
	const char *s;
	double mult;
};

static const struct suffix plain[] = {
	{"", 1}, {"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"B", 1e9}, {"T", 1e12}, {"P", 1e15}, {0, 0},
};
static const struct suffix bytes[] = {
	{"", 1}, {"B", 1}, {"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"PB", 1e15},
	{"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}, {0, 0},
};
static const struct suffix rates[] = {
	{"", 1}, {"B/s", 1}, {"kB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}, {"TB/s", 1e12},
	{"b/s", 0.125}, {"kb/s", 125.0}, {"Mb/s", 1.25e5}, {"Gb/s", 1.25e8}, {"Tb/s", 1.25e11},
	{"Kbps", 125.0}, {"Mbps", 1.25e5}, {"Gbps", 1.25e8}, {"Tbps", 1.25e11},
	{"MiB/s", 1048576.0}, {"GiB/s", 1073741824.0}, {0, 0},
};
static const struct suffix times[] = {
	{"", 1}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"µs", 1e-6}, {"ns", 1e-9},
	{"min", 60}, {"h", 3600}, {"d", 86400}, {"days", 86400}, {0, 0},
};
static const struct suffix flops[] = {
	{"", 1}, {"FLOP/s", 1}, {"GFLOP/s", 1e9}, {"TFLOP/s", 1e12}, {"PFLOP/s", 1e15},
	{"TFLOPS", 1e12}, {"PFLOPS", 1e15}, {0, 0},
};
static const struct suffix fraction[] = {{"", 1}, {"%", 0.01}, {0, 0}};

int calc_parse_number(const char *text, enum calc_unit kind, double *out)
{
	const struct suffix *tab;
	char *end;
	double v;
	size_t n;

	while (isspace((unsigned char)*text))
		text++;
	if (!*text)
		return -1;
	/* decimal only: strtod would also read 0x8, 0x1p3, inf and nan */
	const char *digits = text + (*text == '+' || *text == '-');
	if (!isdigit((unsigned char)*digits) && *digits != '.')
		return -1;
	if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
		return -1;
	v = strtod(text, &end);
	if (end == text || !isfinite(v))
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	n = strlen(end);
	while (n && isspace((unsigned char)end[n - 1]))
		n--;
	switch (kind) {
	case CALC_U_BYTES: tab = bytes; break;
	case CALC_U_BYTES_S: tab = rates; break;
	case CALC_U_SECONDS: tab = times; break;
	case CALC_U_FLOPS: tab = flops; break;
	case CALC_U_FRACTION: tab = fraction; break;
	case CALC_U_MONEY: tab = fraction + 2; break; /* no suffix at all */
	default: tab = plain; break;
	}
	if (n == 0) {
		*out = v;
		return 0;
	}
	for (; tab->s; tab++)
		if (strlen(tab->s) == n && !strncmp(tab->s, end, n)) {
			/* "1e308 PB" is a finite number times a finite unit, and infinite */
			if (!isfinite(v * tab->mult))
				return -1;
			*out = v * tab->mult;
			return 0;
		}
	return -1;
}
