/*
 * tests/report/expr.c -- the expression language of inline directives (report/expr.c).
 *
 * Most tests evaluate against a fake catalog (fake_lookup below) so that every expected
 * value is worked out by hand from the numbers written here, independently of the
 * engines.  The `with` tests use the real plan and only plan.* quantities, whose values
 * are the assignments themselves (or plans/default.ini, quoted next to the test).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../calc/testutil.h"
#include "report.h"

/* The fake catalog: a.bytes = 80e9 B, a.time = 3600 s, a.frac = 0.125, a.count = 22 GPUs,
 * a.text = "hello", a.big = 1234567, a.params = 101.19e9, a.nan = NaN B (a variant that is
 * not a valid plan), a.inf = +infinity s. */
static int fake_lookup(struct rpt_scope *s, const char *name, struct rpt_value *out, char *err,
                       size_t nerr)
{
	(void)s;
	memset(out, 0, sizeof *out);
	if (!strcmp(name, "a.bytes"))
		out->num = 80e9, out->unit = "B";
	else if (!strcmp(name, "a.time"))
		out->num = 3600, out->unit = "s";
	else if (!strcmp(name, "a.frac"))
		out->num = 0.125, out->unit = "1";
	else if (!strcmp(name, "a.count"))
		out->num = 22, out->unit = "GPUs";
	else if (!strcmp(name, "a.big"))
		out->num = 1234567, out->unit = "1";
	else if (!strcmp(name, "a.params"))
		out->num = 101.19e9, out->unit = "1";
	else if (!strcmp(name, "a.nan"))
		out->num = NAN, out->unit = "B";
	else if (!strcmp(name, "a.inf"))
		out->num = INFINITY, out->unit = "s";
	else if (!strcmp(name, "a.text")) {
		out->is_str = 1;
		strcpy(out->str, "hello");
	} else {
		snprintf(err, nerr, "unknown quantity '%s'", name);
		return -1;
	}
	return 0;
}

/* Evaluate "EXPR |FORMAT" with the fake catalog; returns the text or the diagnostic. */
static const char *ev(const char *body)
{
	static char buf[512];
	struct rpt_scope sc = {NULL, fake_lookup, NULL};
	struct rpt_loc loc = {"t.md", 3, 10};
	struct calc_diag d = {0};
	if (rpt_inline_eval(body, &sc, &loc, buf, sizeof buf, &d) < 0) {
		snprintf(buf, sizeof buf, "%s", d.text ? d.text : "(no message)");
		size_t l = strlen(buf);
		if (l && buf[l - 1] == '\n')
			buf[l - 1] = 0;
	}
	calc_diag_free(&d);
	return buf;
}

static void test_arithmetic(void **state)
{
	(void)state;
	assert_string_equal(ev("1 + 2 * 3"), "7");          /* precedence: 1 + 6 */
	assert_string_equal(ev("(1 + 2) * 3"), "9");
	assert_string_equal(ev("-2 * 3 + 10 / 4"), "-3.5"); /* -6 + 2.5 */
	assert_string_equal(ev("2 \xc3\x97 3 \xc3\xb7 4"), "1.5"); /* 2 × 3 ÷ 4 = 6/4 */
	assert_string_equal(ev("10 - 4 - 3"), "3");          /* left-associative: (10-4)-3 */
	assert_string_equal(ev("1 / 3"), "0.3333");          /* four significant digits */
	assert_string_equal(ev("1e3 * 2"), "2000");
}

static void test_functions(void **state)
{
	(void)state;
	assert_string_equal(ev("min(3, 1, 2)"), "1");
	assert_string_equal(ev("max(3, 1, 2)"), "3");
	assert_string_equal(ev("ceil(2.1)"), "3");
	assert_string_equal(ev("floor(-2.1)"), "-3");
	assert_string_equal(ev("round(2.5)"), "3");
	assert_string_equal(ev("abs(-4)"), "4");
	/* ceil(80e9 / 3.6e9) = ceil(22.2) = 23 (still bytes: shown with int) */
	assert_string_equal(ev("ceil(a.bytes / 3.6e9) |int"), "23");
}

static void test_logic_and_conditionals(void **state)
{
	(void)state;
	assert_string_equal(ev("3 > 2 && 1 == 1"), "1");
	assert_string_equal(ev("not (2 <= 1)"), "1");
	assert_string_equal(ev("1 != 1 or 0"), "0");
	assert_string_equal(ev("2 >= 2 and 2 < 2"), "0");
	assert_string_equal(ev("a.frac > 0.1 ? \"big\" : \"small\""), "big");
	assert_string_equal(ev("a.frac > 0.2 ? \"big\" : \"small\""), "small");
	/* ?: is right-associative: 0 ? a : (1 ? b : c) */
	assert_string_equal(ev("0 ? \"a\" : 1 ? \"b\" : \"c\""), "b");
	assert_string_equal(ev("a.text == \"hello\" ? \"yes\" : \"no\""), "yes");
	assert_string_equal(ev("a.text"), "hello");
	/* a string may hold '|' without starting a format */
	assert_string_equal(ev("1 ? \"a|b\" : \"c\""), "a|b");
}

/* isfinite(x): 1 for a finite number, 0 for NaN and the infinities; the chapter's own
 * text in the other branch passes through the format, a catalog text does not. */
static void test_isfinite_and_literal_text(void **state)
{
	(void)state;
	assert_string_equal(ev("isfinite(a.bytes)"), "1");
	assert_string_equal(ev("isfinite(a.nan)"), "0");
	assert_string_equal(ev("isfinite(a.inf)"), "0");
	assert_string_equal(ev("isfinite(-a.inf)"), "0");
	assert_string_equal(ev("isfinite(0)"), "1");
	/* the value when it is one, the words when it is not, under one format */
	assert_string_equal(ev("isfinite(a.bytes) ? a.bytes : \"not applicable\" |GB"), "80.0 GB");
	assert_string_equal(ev("isfinite(a.nan) ? a.nan : \"not applicable\" |GB"), "not applicable");
	/* the untaken branch is not evaluated: NaN under a format is still an error when taken */
	assert_string_equal(ev("a.nan |GB"), "t.md:3:17: error[E025]: the value is not a finite number");
	assert_string_equal(ev("a.text |GB"), "t.md:3:18: error[E025]: format 'GB' given to the text \"hello\"");
	assert_string_equal(ev("isfinite(a.text)"), "t.md:3:19: error[E025]: isfinite needs a number, got the text \"hello\"");
	assert_string_equal(ev("isfinite(1, 2)"), "t.md:3:10: error[E022]: isfinite takes one argument, got 2");
}

static void test_formats(void **state)
{
	(void)state;
	assert_string_equal(ev("a.bytes |GB"), "80.0 GB");
	assert_string_equal(ev("a.bytes |GiB"), "74.5 GiB");   /* 80e9 / 2^30 = 74.51 */
	assert_string_equal(ev("a.bytes |TB.3"), "0.080 TB");
	assert_string_equal(ev("a.bytes |MB"), "80,000 MB");
	assert_string_equal(ev("a.bytes"), "80.0 GB");         /* bytes default to GB */
	assert_string_equal(ev("a.time |ms"), "3,600,000 ms");   /* seven digits before the point: no decimals (format.h) */
	assert_string_equal(ev("a.time |days.3"), "0.042 days"); /* 3600 / 86400 = 0.04167 */
	assert_string_equal(ev("a.frac |%"), "12.5%");
	assert_string_equal(ev("a.count"), "22");
	assert_string_equal(ev("1536 |int"), "1536");           /* four digits: no separator */
	assert_string_equal(ev("a.big |int"), "1,234,567");
	assert_string_equal(ev("2.5 |x"), "2.50\xc3\x97");
	assert_string_equal(ev("a.params |billion"), "101.2 billion");
	assert_string_equal(ev("0.1234 |.2"), "0.12");
	assert_string_equal(ev("-0.001 |.1"), "0.0");          /* no "-0.0" */
	assert_string_equal(ev("2/3 |%.3g"), "0.667");         /* printf conversions */
	assert_string_equal(ev("1234.5 |%.1f"), "1234.5");
	assert_string_equal(ev("a.bytes |%e"), "8.000000e+10");
	assert_string_equal(ev("1 |%d"), "t.md:3:13: error[E025]: format '%d' is not a printf conversion of one number (e.g. %.3g)");
	assert_string_equal(ev("1 |%.3g%s"), "t.md:3:13: error[E025]: format '%.3g%s' is not a printf conversion of one number (e.g. %.3g)");
}

static void test_units(void **state)
{
	(void)state;
	assert_string_equal(ev("a.bytes / a.bytes |%"), "100.0%"); /* B / B is a plain number */
	assert_string_equal(ev("a.bytes * 2 |GB"), "160.0 GB");
	assert_string_equal(ev("a.count == 22 ? \"22\" : \"other\""), "22"); /* counts compare with numbers */
	assert_string_equal(ev("a.bytes + a.time"), "t.md:3:18: error[E025]: cannot add B and s");
	assert_string_equal(ev("min(a.bytes, a.time)"), "t.md:3:23: error[E025]: min of different units (B and s)");
	assert_string_equal(ev("a.time |GB"),
	                    "t.md:3:18: error[E025]: format 'GB' needs a value in B, this one is in s");
}

static void test_errors_carry_positions(void **state)
{
	(void)state;
	/* columns: the directive body starts at column 10 of line 3 */
	assert_string_equal(ev("1 +"), "t.md:3:13: error[E022]: expression ends too early");
	assert_string_equal(ev("foo(1)"),
	                    "t.md:3:10: error[E023]: unknown function 'foo' (functions: min max ceil floor round abs isfinite)");
	assert_string_equal(ev("2 * nosuch.name"), "t.md:3:14: error[E023]: unknown quantity 'nosuch.name'");
	assert_string_equal(ev("(1 + 2"), "t.md:3:16: error[E022]: expected ')'");
	assert_string_equal(ev("1 2"), "t.md:3:12: error[E022]: unexpected '2' after the expression");
	assert_string_equal(ev("\"open"), "t.md:3:10: error[E022]: unterminated string");
	assert_string_equal(ev("1 / 0"), "t.md:3:12: error[E025]: division by zero");
	assert_string_equal(ev("80GB"), "t.md:3:12: error[E022]: a number cannot carry a unit here ('G'); write SI base units");
	assert_string_equal(ev("a.text + 1"), "t.md:3:17: error[E025]: '+' cannot take text (\"hello\")");
	assert_string_equal(ev("a.bytes |furlongs"),
	                    "t.md:3:19: error[E025]: unknown format 'furlongs' (formats: GB GiB TB MB % ms s days x int billion count .N %.Ng)");
	assert_string_equal(ev("a.text |GB"), "t.md:3:18: error[E025]: format 'GB' given to the text \"hello\"");
	assert_string_equal(ev("1 ? \"a\""), "t.md:3:17: error[E022]: expected ':' after the first branch of '?'");
	/* nesting is bounded (no stack exhaustion on a pathological directive) */
	char deep[200];
	memset(deep, '(', 100);
	strcpy(deep + 100, "1");
	assert_string_equal(ev(deep), "t.md:3:74: error[E022]: expression nested deeper than 64 levels");
	memset(deep, '-', 100);
	assert_string_equal(ev(deep), "t.md:3:74: error[E022]: expression nested deeper than 64 levels");
	/* 30 levels are fine */
	char ok[200] = "";
	for (int i = 0; i < 30; i++)
		strcat(ok, "(");
	strcat(ok, "7");
	for (int i = 0; i < 30; i++)
		strcat(ok, ")");
	assert_string_equal(ev(ok), "7");
}

/* `with` against the real catalog: plan.* values are the plan's own settings. */
static void test_with_variants(void **state)
{
	(void)state;
	struct calc_plan plan;
	load_plan(&plan, NULL, 0);
	struct calc_ctx ctx;
	calc_ctx_init(&ctx, &plan);
	struct rpt_scope sc = {&ctx, NULL, NULL};
	struct rpt_loc loc = {"v.md", 7, 4};
	struct calc_diag d = {0};
	char buf[256];

	assert_int_equal(rpt_inline_eval("plan.seq_len with seq_len=4096 |int", &sc, &loc, buf, sizeof buf, &d), 0);
	assert_string_equal(buf, "4096");
	/* plans/default.ini: seq_len = 2048; the variant must not leak into the base plan */
	assert_int_equal(rpt_inline_eval("plan.seq_len |int", &sc, &loc, buf, sizeof buf, &d), 0);
	assert_string_equal(buf, "2048");
	/* two assignments, blanks around '=': 32 nodes x 8 GPUs = 256 = tp 8 x pp 8 x dp 4 */
	assert_int_equal(rpt_inline_eval("plan.gpus with nodes = 32, dp=4 |int", &sc, &loc, buf, sizeof buf, &d), 0);
	assert_string_equal(buf, "256");
	/* ZeRO §3.1: mixed-precision Adam needs 2 + 2 + 12 = 16 bytes per parameter */
	assert_int_equal(rpt_inline_eval("recipe.bytes_per_param with recipe=zero-paper |int", &sc, &loc, buf,
	                                 sizeof buf, &d), 0);
	assert_string_equal(buf, "16");
	/* variants inside min/max: the comma before a non-assignment ends the list */
	assert_int_equal(rpt_inline_eval("max(plan.seq_len with seq_len=1024, plan.seq_len with seq_len=512) |int",
	                                 &sc, &loc, buf, sizeof buf, &d), 0);
	assert_string_equal(buf, "1024");
	/* KOR22 Table 2: full recomputation stores 2sbh per layer, less than 34sbh/t (t=8: 4.25sbh) */
	assert_int_equal(rpt_inline_eval("(memory.activations with recompute=full) < memory.activations", &sc, &loc,
	                                 buf, sizeof buf, &d), 0);
	assert_string_equal(buf, "1");
	assert_int_equal(d.nerrors, 0);

	/* a bad variant is an error naming where it was written */
	assert_int_equal(rpt_inline_eval("plan.tp with tp=3", &sc, &loc, buf, sizeof buf, &d), -1);
	assert_non_null(d.text);
	assert_non_null(strstr(d.text, "v.md:7:"));
	calc_diag_free(&d);
	calc_ctx_free(&ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arithmetic),
		cmocka_unit_test(test_functions),
		cmocka_unit_test(test_logic_and_conditionals),
		cmocka_unit_test(test_isfinite_and_literal_text),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_errors_carry_positions),
		cmocka_unit_test(test_with_variants),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
