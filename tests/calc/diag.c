/*
 * tests/calc/diag.c -- diagnostics as records (calc/diag.c).
 *
 * The expected lines are written out by hand in the "FILE:LINE:COL: SEVERITY: MESSAGE"
 * layout of compilers; the records are checked field by field, never through the text.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

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

/* Message kinds: each a unique ID "E" and three digits, its severity fixed by the
 * table; the text carries the ID after the severity, and calc_diag_append keeps it. */
/* Blocks of 4 MiB or more take 2 MiB pages (calc/diag.c, huge): only the mapping
 * changes.  A large xcalloc block reads as zeros, a pattern written into a large xmalloc
 * block reads back, and xrealloc keeps it when it grows the block and when it shrinks
 * it, whether or not the kernel gave huge pages (the pattern: byte i = i mod 251, a
 * prime, so that no page repeats another's bytes at the same offsets). */
static void test_large_blocks(void **state)
{
	size_t n = (size_t)9 << 20, bad = 0;
	unsigned char *z = xcalloc(n, 1), *p = xmalloc(n);
	(void)state;
	for (size_t i = 0; i < n; i++)
		bad += z[i] != 0;
	assert_int_equal(bad, 0);
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i % 251);
	p = xrealloc(p, 2 * n);
	for (size_t i = 0; i < n; i++)
		bad += p[i] != (unsigned char)(i % 251);
	assert_int_equal(bad, 0);
	p = xrealloc(p, n / 2);
	for (size_t i = 0; i < n / 2; i++)
		bad += p[i] != (unsigned char)(i % 251);
	assert_int_equal(bad, 0);
	free(p);
	free(z);
}

static void test_kinds(void **state)
{
	struct calc_diag d = {0}, e = {0};
	char ids[CALC_M_N][8];
	(void)state;
	assert_null(calc_msg_kind(CALC_M_NONE)->id);
	for (int m = CALC_M_NONE + 1; m < CALC_M_N; m++) {
		const struct calc_msg_kind *k = calc_msg_kind((enum calc_msg)m);
		assert_non_null(k->id);
		assert_int_equal(strlen(k->id), 4);
		assert_int_equal(k->id[0], 'E');
		assert_true(strspn(k->id + 1, "0123456789") == 3);
		assert_true(k->name[0] && k->meaning[0]);
		snprintf(ids[m], sizeof ids[m], "%s", k->id);
		for (int j = CALC_M_NONE + 1; j < m; j++) /* no ID twice */
			assert_string_not_equal(ids[j], ids[m]);
	}
	/* E010 is the out-of-range kind (calc/diag.h), an error */
	assert_string_equal(calc_msg_kind(CALC_M_OUT_OF_RANGE)->id, "E010");
	assert_int_equal(calc_error_id(&d, CALC_M_OUT_OF_RANGE, "a.ini", 3, "model.layers = %d is out", 0), -1);
	assert_int_equal(d.recs[0].kind, CALC_M_OUT_OF_RANGE);
	assert_int_equal(d.recs[0].severity, CALC_ERROR);
	assert_int_equal(d.nerrors, 1);
	assert_string_equal(d.text, "a.ini:3: error[E010]: model.layers = 0 is out\n");
	calc_diag_append(&e, &d);
	assert_int_equal(e.recs[0].kind, CALC_M_OUT_OF_RANGE);
	assert_string_equal(e.text, d.text);
	calc_diag_free(&d);
	calc_diag_free(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_large_blocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
