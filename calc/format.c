/*
 * format.c -- display units and digits (format.h).
 *
 * Prefixes as in IEC 80000-13: G = 10^9, T = 10^12, M = 10^6, Gi = 2^30; a day is
 * 86,400 s.  Thousands separators are commas, as in English prose.
 */
#include "format.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const struct calc_display displays[] = {
	{"GB", "B", 1e9, 1, " GB", 1},
	{"GiB", "B", 1073741824.0, 1, " GiB", 1},
	{"TB", "B", 1e12, 2, " TB", 1},
	{"MB", "B", 1e6, 0, " MB", 1},
	{"%", "1", 0.01, 1, "%", 1},
	{"ms", "s", 1e-3, 1, " ms", 1},
	{"s", "s", 1, 2, " s", 1},
	{"days", "s", 86400, 1, " days", 1},
	{"x", NULL, 1, 2, "\xc3\x97", 1}, /* × */
	{"int", NULL, 1, 0, "", 1},
	{"billion", NULL, 1e9, 1, " billion", 1},
	{"count", NULL, 1, 0, "", 1}, /* a large count as a reader says it: calc_fmt_si */
	{"", NULL, 1, -1, "", 1}, /* ".N": decimals only */
	{"GB/s", "B/s", 1e9, 1, " GB/s", 0},
	{"TFLOP/s", "FLOP/s", 1e12, 1, " TFLOP/s", 0},
	{NULL, NULL, 0, 0, NULL, 0},
};

const struct calc_display *calc_display_find(const char *name)
{
	for (int i = 0; displays[i].name; i++)
		if (!strcmp(displays[i].name, name))
			return &displays[i];
	return NULL;
}

/* The prose units' names, built once (the report's threads ask for them). */
static char prose_names[128];
static pthread_once_t prose_once = PTHREAD_ONCE_INIT;

static void prose_names_build(void)
{
	size_t l = 0;
	for (int i = 0; displays[i].name; i++)
		if (displays[i].prose && displays[i].name[0])
			l += (size_t)snprintf(prose_names + l, sizeof prose_names - l, "%s%s", l ? " " : "",
			                      displays[i].name);
}

const char *calc_display_prose_names(void)
{
	pthread_once(&prose_once, prose_names_build);
	return prose_names;
}

/*
 * "%.*f" of a finite a >= 0 with dec <= FIXED_DEC into raw (room for at least 48 bytes),
 * exactly as glibc's printf writes it, or 0 where this does not apply (then the caller
 * asks snprintf).  A double is m 2^E with m < 2^53 (IEEE 754-2008 §3.4: the significand
 * with its hidden bit, E the biased exponent less 1075; a subnormal's E is -1074); its
 * value times 10^dec, m 10^dec 2^E, is rounded to an integer R to the nearest, an exact
 * tie to the even R -- what printf does in the default rounding mode (C11 7.21.6.1 §8:
 * "the value is rounded to the appropriate number of digits"; glibc rounds the exact
 * binary value by the current rounding mode; docs/references.md, C11-PRINTF) -- and R is
 * written with dec digits after the point.  With E < 0, m 10^dec < 2^53 2^50 = 2^103
 * (10^15 < 2^50) is exact in 128 bits, R its quotient by 2^-E rounded by the remainder;
 * with E >= 0 the product is an integer.  R must fit in 64 bits, else snprintf.  printf's "%.*f" cost about 1,150
 * instructions a number (callgrind); the tables of `trainplan search` format about 800,
 * 3 % of the command's instructions on the Llama 2 70B plan.  tests/calc/format.c
 * (test_fixed_exact) compares the two over millions of values: ties, decimals near
 * them, every binade, subnormals, and each precision. */
#define FIXED_DEC 15
static int fixed_raw(double a, int dec, char *raw)
{
	static const unsigned long long p10[FIXED_DEC + 1] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
		100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
		10000000000000ULL, 100000000000000ULL, 1000000000000000ULL};
	unsigned long long bits, m, r;
	unsigned __int128 v;
	int e;
	char dig[32];
	int nd = 0, o = 0;

	if (dec < 0 || dec > FIXED_DEC || !(a >= 0) || !isfinite(a))
		return 0;
	memcpy(&bits, &a, sizeof bits);
	e = (int)(bits >> 52 & 0x7ff);
	m = bits & ((1ULL << 52) - 1);
	if (e)
		m |= 1ULL << 52;
	e = e ? e - 1075 : -1074;
	v = (unsigned __int128)m * p10[dec]; /* < 2^103 */
	if (e >= 0) {
		if (e > 63 || (v >> (127 - e)) != 0)
			return 0;
		v <<= e;
	} else if (-e >= 105) { /* v < 2^103 <= half of 2^-e: rounds to 0 */
		v = 0;
	} else {
		int k = -e;
		unsigned __int128 q = v >> k, rem = v - (q << k), half = (unsigned __int128)1 << (k - 1);
		if (rem > half || (rem == half && (q & 1)))
			q++;
		v = q;
	}
	if (v >> 64)
		return 0;
	r = (unsigned long long)v;
	do { /* R's digits, the last first */
		dig[nd++] = (char)('0' + r % 10);
		r /= 10;
	} while (r);
	while (nd < dec + 1) /* at least one digit before the point */
		dig[nd++] = '0';
	while (nd > dec)
		raw[o++] = dig[--nd];
	if (dec > 0) {
		raw[o++] = '.';
		while (nd > 0)
			raw[o++] = dig[--nd];
	}
	raw[o] = 0;
	return 1;
}

void calc_fmt_fixed(double x, int dec, enum calc_sep g, char *buf, size_t n)
{
	char raw[400];
	if (dec < 0)
		dec = 6; /* as printf's "%.*f" with a negative precision */
	if (dec > 300)
		dec = 300;
	if (!fixed_raw(fabs(x), dec, raw))
		snprintf(raw, sizeof raw, "%.*f", dec, fabs(x));
	int neg = x < 0 && strspn(raw, "0.") != strlen(raw); /* no "-0" */
	char *dot = strchr(raw, '.');
	size_t intlen = dot ? (size_t)(dot - raw) : strlen(raw);
	size_t min = g == CALC_SEP_ALL ? 4 : g == CALC_SEP_LONG ? 5 : (size_t)-1;
	size_t o = 0;
	if (n == 0)
		return;
	if (neg && o + 1 < n)
		buf[o++] = '-';
	for (size_t i = 0; i < intlen && o + 1 < n; i++) {
		if (i > 0 && (intlen - i) % 3 == 0 && intlen >= min && o + 2 < n)
			buf[o++] = ',';
		buf[o++] = raw[i];
	}
	buf[o] = 0;
	if (dot) { /* snprintf(buf + o, n - o, "%s", dot): as much as fits, terminated */
		size_t k = strlen(dot);
		if (k > n - o - 1)
			k = n - o - 1;
		memcpy(buf + o, dot, k);
		buf[o + k] = 0;
	}
}

int calc_fmt_reader_dec(double x, int dec)
{
	/* the digits a reader keeps: at most four significant ones past the integer part
	 * (107.28 s reads 107.3 s, 1720320.00 reads 1720320), never more than asked */
	if (dec > 0 && isfinite(x) && x != 0) {
		int lead = (int)floor(log10(fabs(x))) + 1; /* digits before the point */
		int keep = 4 - lead;
		if (keep < 0)
			keep = 0;
		if (keep < dec)
			dec = keep;
	}
	return dec;
}

void calc_fmt_si(double v, const struct calc_display *u, int dec, enum calc_sep g, int suffix,
                 char *buf, size_t n)
{
	double x = v / u->div;
	const char *sfx = suffix ? u->suffix : "";
	if (!strcmp(u->name, "count") && isfinite(v)) {
		/* four significant digits, the rule of every predicted quantity (prose:
		 * calc_fmt_reader_dec; the quantity tables: table.c's significant-digit cells),
		 * so that a count in prose reads as the table row it came from: past a million
		 * in millions or billions (2874612 reads 2.875 million where the table prints
		 * 2,875,000), below it rounded to four digits (311617 reads 311,600, 950 stays
		 * 950) */
		double a = fabs(v);
		const char *w = "";
		char num[400];
		if (a >= 1e9)
			x = v / 1e9, w = " billion";
		else if (a >= 1e6)
			x = v / 1e6, w = " million";
		if (*w)
			calc_fmt_fixed(x, calc_fmt_reader_dec(x, 3), g, num, sizeof num);
		else {
			double p = a >= 1e4 ? pow(10, floor(log10(a)) - 3) : 1;
			calc_fmt_fixed(round(v / p) * p, 0, g, num, sizeof num);
		}
		snprintf(buf, n, "%s%s", num, w);
		return;
	}
	if (dec < 0 && u->dec >= 0)
		dec = calc_fmt_reader_dec(x, u->dec);
	else if (dec < 0)
		dec = u->dec;
	if (dec < 0) {
		/* natural: integers as integers, else four significant digits */
		if (x == floor(x) && fabs(x) < 1e15)
			dec = 0;
		else {
			snprintf(buf, n, "%.4g%s", x, sfx);
			return;
		}
	}
	char num[400];
	calc_fmt_fixed(x, dec, g, num, sizeof num);
	snprintf(buf, n, "%s%s", num, sfx);
}

double calc_display_value(double v, const char *name)
{
	const struct calc_display *u = calc_display_find(name);
	return u ? v / u->div : v;
}

void calc_fmt_in(double v, const char *name, int width, int dec, char *buf, size_t n)
{
	snprintf(buf, n, "%*.*f %s", width, dec, calc_display_value(v, name), name);
}
