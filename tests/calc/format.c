/*
 * tests/calc/format.c -- display units and digits (calc/format.c).
 *
 * Expected strings worked out by hand: 80e9 B / 10^9 = 80 GB; 2^34 B / 2^30 = 16 GiB;
 * 0.4567 = 45.67%; separators every three digits from the right.
 */
#include "testutil.h"

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
	assert_string_equal(calc_display_prose_names(), "GB GiB TB MB % ms s days x int billion");
	calc_fmt_in(85899345920.0, "GiB", 8, 2, buf, sizeof buf);
	assert_string_equal(buf, "   80.00 GiB");
	assert_true(calc_display_value(450e12, "TFLOP/s") == 450);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digits),
		cmocka_unit_test(test_units),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
