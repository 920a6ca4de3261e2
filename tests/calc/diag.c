/*
 * tests/calc/diag.c -- diagnostics as records (calc/diag.c).
 *
 * The expected lines are written out by hand in the "FILE:LINE:COL: SEVERITY: MESSAGE"
 * layout of compilers; the records are checked field by field, never through the text.
 */
#include "testutil.h"

static void test_records(void **state)
{
	struct calc_diag d = {0};
	(void)state;
	assert_int_equal(calc_error(&d, "a.ini", 3, "bad %s", "key"), -1);
	assert_int_equal(calc_error_at(&d, "c.md", 7, 12, CALC_ERROR, "no %d", 5), -1);
	assert_int_equal(calc_error_at(&d, "c.md", 0, 12, CALC_WARNING, "odd"), 0);
	assert_int_equal(calc_error(&d, NULL, 0, "plain"), -1);
	assert_int_equal(d.nrecs, 4);
	assert_int_equal(d.nerrors, 3); /* the warning does not count */
	assert_string_equal(d.recs[0].file, "a.ini");
	assert_int_equal(d.recs[0].line, 3);
	assert_int_equal(d.recs[0].col, 0);
	assert_string_equal(d.recs[0].msg, "bad key");
	assert_int_equal(d.recs[1].col, 12);
	assert_int_equal(d.recs[2].col, 0); /* no column without a line */
	assert_int_equal(d.recs[2].severity, CALC_WARNING);
	assert_null(d.recs[3].file);
	assert_string_equal(calc_diag_first(&d, "none"), "bad key");
	assert_string_equal(d.text, "a.ini:3: error: bad key\n"
	                            "c.md:7:12: error: no 5\n"
	                            "c.md: warning: odd\n"
	                            "error: plain\n");
	char line[64];
	assert_int_equal(calc_diag_format(&d.recs[1], line, sizeof line), 22);
	assert_string_equal(line, "c.md:7:12: error: no 5");
	calc_diag_free(&d);
	assert_int_equal(d.nrecs, 0);
	assert_null(d.text);
	assert_string_equal(calc_diag_first(&d, "none"), "none");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
