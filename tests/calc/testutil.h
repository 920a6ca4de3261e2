/*
 * testutil.h -- shared helpers of the cmocka unit tests.
 */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "calc.h"

#include <stdlib.h>

/* UNIT_TESTS=PATTERN runs only the tests whose names match, UNIT_SKIP=PATTERN all but
 * those (cmocka's glob of * and ?): make runs the longest test of a program in a process
 * of its own beside the others (tests/tests.mk, run-asan/search.1 and .2). */
__attribute__((constructor)) static void testutil_filter(void)
{
	const char *only = getenv("UNIT_TESTS"), *skip = getenv("UNIT_SKIP");
	if (only && *only)
		cmocka_set_test_filter(only);
	if (skip && *skip)
		cmocka_set_skip_filter(skip);
}

/* Fail unless |actual - expected| <= rel * |expected| (or <= rel when expected is 0). */
#define assert_near(actual, expected, rel) \
	assert_near_impl((double)(actual), (double)(expected), (double)(rel), #actual, __FILE__, __LINE__)

static inline void assert_near_impl(double a, double e, double rel, const char *what, const char *file, int line)
{
	double tol = e != 0 ? fabs(e) * rel : rel;
	if (!(fabs(a - e) <= tol)) {
		print_error("%s = %.10g, expected %.10g (relative tolerance %g)\n", what, a, e, rel);
		_fail(file, line);
	}
}

/* Load the default plan with overrides; fails the test on a diagnostic. */
static inline void load_plan(struct calc_plan *p, const char *const *sets, int n)
{
	struct calc_diag d = {0};
	int rc = calc_plan_load(p, NULL, sets, n, &d);
	if (rc != 0)
		print_error("%s", d.text ? d.text : "");
	calc_diag_free(&d);
	assert_int_equal(rc, 0);
}

#endif
