/*
 * tests/calc/format.c -- display units and digits (calc/format.c).
 *
 * Expected strings worked out by hand: 80e9 B / 10^9 = 80 GB; 2^34 B / 2^30 = 16 GiB;
 * 0.4567 = 45.67%; separators every three digits from the right.
 */
#include "testutil.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../calc/format.h"

static const char *fixed(double x, int dec, enum calc_sep g)
{
	static char buf[64];
	calc_fmt_fixed(x, dec, g, buf, sizeof buf);
	return buf;
}

static const char *si(double v, const char *unit, int dec)
{
	static char buf[64];
	calc_fmt_si(v, calc_display_find(unit), dec, CALC_SEP_LONG, 1, buf, sizeof buf);
	return buf;
}

static void test_digits(void **state)
{
	(void)state;
	assert_string_equal(fixed(1024, 0, CALC_SEP_ALL), "1,024");
	assert_string_equal(fixed(1024, 0, CALC_SEP_LONG), "1024");
	assert_string_equal(fixed(12345.678, 1, CALC_SEP_LONG), "12,345.7");
	assert_string_equal(fixed(1234567, 0, CALC_SEP_NONE), "1234567");
	assert_string_equal(fixed(-0.004, 2, CALC_SEP_NONE), "0.00"); /* no "-0.00" */
	assert_string_equal(fixed(-1500000, 0, CALC_SEP_ALL), "-1,500,000");
}

/* A table's general-number cells (CALC_D_NUM, 4 significant digits unless the column
 * asks for more) in text: positional and grouped from 1,000 up -- 118,581.4 rounds to
 * 118,600, 7,328.0 prints without a trailing ".0", 8,997.3 at five digits keeps its
 * decimal -- and %g below (0.5098, 1.973e-05); CSV keeps %g for spreadsheets. */
static void test_num_cells(void **state)
{
	const double v[] = {118581.4, 7328.0, 8997.3, 0.5098, 1.973e-5, -2202000.4, 99.0};
	const char *want4[] = {"118,600", "7,328", "8,997", "0.5098", "1.973e-05", "-2,202,000", "99"};
	struct calc_table t;
	char buf[64];
	int c4, c5;
	(void)state;
	calc_table_init(&t, "t", "t");
	c4 = calc_table_col(&t, "a", "", CALC_D_NUM, 4);
	c5 = calc_table_col(&t, "b", "", CALC_D_NUM, 5);
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		int r = calc_table_row(&t);
		calc_table_num(&t, r, c4, v[i]);
		calc_table_num(&t, r, c5, v[i]);
		calc_table_cell_text(&t, r, c4, buf, sizeof buf);
		assert_string_equal(buf, want4[i]);
	}
	calc_table_cell_text(&t, 2, c5, buf, sizeof buf);
	assert_string_equal(buf, "8,997.3");
	calc_table_cell_text(&t, 1, c5, buf, sizeof buf);
	assert_string_equal(buf, "7,328");
	{
		char *mem = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&mem, &len);
		calc_table_write(&t, CALC_F_CSV, f);
		fclose(f);
		/* by hand: 118581.4 and -2202000.4 rounded to integers, every digit of the integer
		 * part kept for a spreadsheet (%.4g wrote 1.186e+05); below 10^4 (prec 4) or 10^5
		 * (prec 5) %g's digits as before: 7328 and 8997.3 */
		assert_non_null(strstr(mem, "\r\n118581,118581\r\n"));
		assert_non_null(strstr(mem, "\r\n7328,7328\r\n"));
		assert_non_null(strstr(mem, "\r\n8997,8997.3\r\n"));
		assert_non_null(strstr(mem, "\r\n-2202000,-2202000\r\n"));
		assert_null(strstr(mem, "e+0"));
		free(mem);
	}
	calc_table_free(&t);
}

/* A large value in a column without decimals grouped as every number of five or more
 * digits (docs/references.md §9.20): 21.095 s shown in ms is 21,095 (by hand:
 * 21.095 x 1000), 768 ms stays 768, 7351 ms stays 7351 (four digits are not grouped). */
static void test_ms_grouped(void **state)
{
	struct calc_table t;
	char buf[64];
	int c;
	(void)state;
	calc_table_init(&t, "t", "t");
	c = calc_table_col(&t, "busy", "s", CALC_D_MS, 0);
	calc_table_num(&t, calc_table_row(&t), c, 21.095);
	calc_table_num(&t, calc_table_row(&t), c, 0.768);
	calc_table_num(&t, calc_table_row(&t), c, 7.351);
	calc_table_cell_text(&t, 0, c, buf, sizeof buf);
	assert_string_equal(buf, "21,095");
	calc_table_cell_text(&t, 1, c, buf, sizeof buf);
	assert_string_equal(buf, "768");
	calc_table_cell_text(&t, 2, c, buf, sizeof buf);
	assert_string_equal(buf, "7351");
	calc_table_free(&t);
}

/* The reader's rounding, one rule for prose and tables (format.h): no more than four
 * significant digits past the integer part, never more decimals than asked.  By hand:
 * 107.28 s at 2 decimals -> 107.3 s (3 digits before the point, 1 after); 1720320.00 ->
 * 1,720,320 (7 before, none after, grouped); 9.14 and 44.8 keep theirs; an explicit
 * precision (".2") is kept; the CSV keeps the column's decimals without separators. */
static void test_reader_rounding(void **state)
{
	struct calc_table t;
	char buf[64];
	(void)state;
	assert_int_equal(calc_fmt_reader_dec(107.28, 2), 1);
	assert_int_equal(calc_fmt_reader_dec(1720320.0, 2), 0);
	assert_int_equal(calc_fmt_reader_dec(9.14, 2), 2);
	assert_int_equal(calc_fmt_reader_dec(44.8, 1), 1);
	assert_int_equal(calc_fmt_reader_dec(0, 2), 2);
	assert_int_equal(calc_fmt_reader_dec(-563.71, 2), 1);
	assert_string_equal(si(107.28, "s", -1), "107.3 s");
	assert_string_equal(si(107.28, "s", 2), "107.28 s");  /* asked for: kept */
	assert_string_equal(si(9.14, "s", -1), "9.14 s");
	/* a large count under the same rule, by hand: four significant digits, in
	 * millions and billions past a million: 1,467,939 -> 1.467939 million -> 1.468
	 * million; 2,201,908 -> 2.202 million; 118,006 -> 118,000; 23,456 -> 23,460;
	 * 950 -> 950; 30,840,000 -> 30.84 million; 295,013.9 -> 295,000; 5.662e9 -> 5.662
	 * billion; 39,812,345 -> 39.81 million; 123,456,789 -> 123.5 million; 311,617 ->
	 * 311,600, as table.c prints a four-digit cell (2,874,612 -> 2,875,000) */
	assert_string_equal(si(1467939, "count", -1), "1.468 million");
	assert_string_equal(si(2201908, "count", -1), "2.202 million");
	assert_string_equal(si(118006, "count", -1), "118,000");
	assert_string_equal(si(23456, "count", -1), "23,460");
	assert_string_equal(si(950, "count", -1), "950");
	assert_string_equal(si(30840000, "count", -1), "30.84 million");
	assert_string_equal(si(295013.9, "count", -1), "295,000");
	assert_string_equal(si(5.662e9, "count", -1), "5.662 billion");
	assert_string_equal(si(39812345, "count", -1), "39.81 million");
	assert_string_equal(si(123456789, "count", -1), "123.5 million");
	assert_string_equal(si(311617, "count", -1), "311,600");
	assert_string_equal(si(2874612, "count", -1), "2.875 million");
	calc_table_init(&t, "t", "t");
	int c = calc_table_col(&t, "published", "", CALC_D_FIXED, 2);
	int r = calc_table_row(&t);
	calc_table_num(&t, r, c, 1720320.0);
	calc_table_cell_text(&t, r, c, buf, sizeof buf);
	assert_string_equal(buf, "1,720,320");
	r = calc_table_row(&t);
	calc_table_num(&t, r, c, 9.14);
	calc_table_cell_text(&t, r, c, buf, sizeof buf);
	assert_string_equal(buf, "9.14");
	{
		char *mem = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&mem, &len);
		calc_table_write(&t, CALC_F_CSV, f);
		fclose(f);
		assert_non_null(strstr(mem, "1720320.00"));
		free(mem);
	}
	calc_table_free(&t);
}

static void test_units(void **state)
{
	char buf[64];
	(void)state;
	assert_string_equal(si(80e9, "GB", -1), "80.0 GB");
	assert_string_equal(si(17179869184.0, "GiB", 2), "16.00 GiB");
	assert_string_equal(si(0.4567, "%", -1), "45.7%");
	assert_string_equal(si(0.0125, "ms", -1), "12.5 ms");
	assert_string_equal(si(2.5, "", -1), "2.5");   /* natural: four significant digits */
	assert_string_equal(si(300, "", -1), "300");   /* natural: an integer as an integer */
	assert_null(calc_display_find("furlong"));
	assert_false(calc_display_find("GB/s")->prose); /* tables only */
	assert_string_equal(calc_display_prose_names(), "GB GiB TB MB % ms s days x int billion count");
	calc_fmt_in(85899345920.0, "GiB", 8, 2, buf, sizeof buf);
	assert_string_equal(buf, "   80.00 GiB");
	assert_true(calc_display_value(450e12, "TFLOP/s") == 450);
}

/* calc_fmt_fixed against the C library's "%.*f" (a second method: glibc rounds the
 * exact binary value), the minus sign put back as calc_fmt_fixed writes it (none where
 * the digits are all zero), over millions of values and every precision 0 .. 17 (the
 * exact path takes 0 .. 15, the rest goes to snprintf): each binade from 2^-80 to 2^80,
 * exact ties (i / 2^s: x 10^dec ends in .5 exactly for many i, s), decimals near a tie
 * ((k + 0.5) / 10^dec and its neighbours), the largest values whose digits fit in 64
 * bits and past them, subnormals, zero and random bit patterns.  Returns the count of
 * values that differ (0). */
static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;
static unsigned long long rng(void) /* xorshift64* (Vigna 2016) */
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static long fixed_check(double x, int dec, long *n)
{
	char got[480], want[480], raw[420];
	int zero = 1;
	if (!isfinite(x))
		return 0;
	calc_fmt_fixed(x, dec, CALC_SEP_NONE, got, sizeof got);
	snprintf(raw, sizeof raw, "%.*f", dec, fabs(x));
	for (const char *c = raw; *c; c++)
		zero &= *c == '0' || *c == '.';
	snprintf(want, sizeof want, "%s%s", x < 0 && !zero ? "-" : "", raw);
	(*n)++;
	if (strcmp(got, want)) {
		print_message("calc_fmt_fixed(%a, %d): %s, printf %s\n", x, dec, got, want);
		return 1;
	}
	return 0;
}

static void test_fixed_exact(void **state)
{
	long bad = 0, n = 0;
	(void)state;
	for (int dec = 0; dec <= 17; dec++) {
		double p = pow(10, dec);
		/* every binade: a random significand at each exponent */
		for (int e = -80; e <= 80; e++)
			for (int i = 0; i < 300; i++) {
				double x = ldexp(1.0 + (double)(rng() >> 11) * 0x1p-53, e);
				bad += fixed_check(x, dec, &n) + fixed_check(-x, dec, &n);
			}
		/* exact binary fractions: many are exact ties at this precision */
		for (int s = 1; s <= 40; s++)
			for (int i = 0; i < 400; i++)
				bad += fixed_check(ldexp((double)(rng() % 100000), -s), dec, &n) +
				       fixed_check(ldexp((double)i, -s), dec, &n);
		/* decimals at and next to a tie of the last digit */
		for (int i = 0; i < 4000; i++) {
			double x = ((double)(rng() % 10000000) + 0.5) / p;
			bad += fixed_check(x, dec, &n) + fixed_check(nextafter(x, 0), dec, &n) +
			       fixed_check(nextafter(x, INFINITY), dec, &n);
		}
		/* around 2^64 / 10^dec, where the digits stop fitting in 64 bits, and integers */
		for (int i = -2000; i <= 2000; i++) {
			double x = ldexp(1, 64) / p * (1 + i * 1e-6);
			bad += fixed_check(x, dec, &n) + fixed_check(nextafter(x, 0), dec, &n) +
			       fixed_check((double)(rng() >> (rng() % 64)), dec, &n);
		}
		/* subnormals, the smallest normals, zeros and random bit patterns */
		for (int i = 0; i < 2000; i++) {
			unsigned long long b = rng() >> 12;
			double x;
			memcpy(&x, &b, sizeof x);
			bad += fixed_check(x, dec, &n) + fixed_check(ldexp(x, 52), dec, &n);
			b = rng();
			memcpy(&x, &b, sizeof x);
			bad += fixed_check(x, dec, &n);
		}
		bad += fixed_check(0.0, dec, &n) + fixed_check(-0.0, dec, &n) + fixed_check(DBL_MIN, dec, &n) +
		       fixed_check(DBL_MAX, dec, &n) + fixed_check(DBL_TRUE_MIN, dec, &n);
	}
	assert_true(n > 2000000);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digits),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_num_cells),
		cmocka_unit_test(test_ms_grouped),
		cmocka_unit_test(test_reader_rounding),
		cmocka_unit_test(test_fixed_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
