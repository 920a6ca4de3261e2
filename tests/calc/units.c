/*
 * tests/calc/units.c -- numbers with unit suffixes (calc/units.c).
 *
 * Expected values are worked out by hand from the prefix definitions (IEC 80000-13:
 * k = 10^3, G = 10^9, Gi = 2^30; a lowercase b is a bit, 1/8 byte).
 */
#include "testutil.h"

static double parse(const char *text, enum calc_unit kind)
{
	double v = -12345;
	assert_int_equal(calc_parse_number(text, kind, &v), 0);
	return v;
}

static void test_suffixes(void **state)
{
	(void)state;
	assert_near(parse("80 GiB", CALC_U_BYTES), 85899345920.0, 1e-15); /* 80 x 2^30 */
	assert_near(parse("80 GB", CALC_U_BYTES), 80e9, 1e-15);
	assert_near(parse("400 Gb/s", CALC_U_BYTES_S), 50e9, 1e-15);      /* 400e9 bits / 8 */
	assert_near(parse(" 5 us ", CALC_U_SECONDS), 5e-6, 1e-15);
	assert_near(parse("12.5%", CALC_U_FRACTION), 0.125, 1e-15);
	assert_near(parse("1.5T", CALC_U_NONE), 1.5e12, 1e-15);
}

/* A number is finite: a suffix that takes a finite value past DBL_MAX (~1.8e308) is
 * refused rather than returned as infinity, as are inf and nan spelled out. */
static void test_finite_only(void **state)
{
	double v = 7;
	(void)state;
	assert_int_equal(calc_parse_number("1e308 PB", CALC_U_BYTES, &v), -1);
	assert_int_equal(calc_parse_number("1e300 PFLOP/s", CALC_U_FLOPS, &v), -1);
	assert_int_equal(calc_parse_number("1e306 days", CALC_U_SECONDS, &v), -1);
	assert_int_equal(calc_parse_number("inf", CALC_U_NONE, &v), -1);
	assert_int_equal(calc_parse_number("nan GB", CALC_U_BYTES, &v), -1);
	assert_true(v == 7); /* untouched on failure */
	assert_near(parse("1e308 B", CALC_U_BYTES), 1e308, 1e-15);   /* still finite */
}

static void test_rejects(void **state)
{
	double v;
	(void)state;
	assert_int_equal(calc_parse_number("", CALC_U_BYTES, &v), -1);
	assert_int_equal(calc_parse_number("GB", CALC_U_BYTES, &v), -1);
	assert_int_equal(calc_parse_number("80 GB/s", CALC_U_BYTES, &v), -1); /* a rate is not a size */
	assert_int_equal(calc_parse_number("2.5 $", CALC_U_MONEY, &v), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suffixes),
		cmocka_unit_test(test_finite_only),
		cmocka_unit_test(test_rejects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
