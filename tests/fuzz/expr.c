/*
 * tests/fuzz/expr.c -- libFuzzer harness of the expression language (report/expr.c).
 *
 * The input is the body of an inline directive, "EXPR |FORMAT", evaluated against the
 * real catalog of the default plan (plans/default.ini), `with` variants included.  The
 * search.* quantities are answered "unknown" here: one of them runs the planner for
 * seconds, which would only slow the fuzzer down.  The contract: 0 with a display text,
 * or -1 with one diagnostic "t.md:LINE:COL: error: ..."; a number never shown as "nan" or "inf".
 */
#include "fuzz.h"
#include "calc.h"
#include "report.h"

static struct calc_plan *plan;

static int lookup(struct rpt_scope *sc, const char *name, struct rpt_value *out, char *err, size_t nerr)
{
	struct calc_value v;
	struct calc_diag tmp = {0};
	const struct calc_quantity *q;
	if (!strncmp(name, "search.", 7)) {
		snprintf(err, nerr, "unknown quantity '%s' (search.* is left out of the fuzzer)", name);
		return -1;
	}
	if (calc_catalog_get(sc->ctx, name, &v, &tmp) < 0) {
		snprintf(err, nerr, "%s", tmp.text ? tmp.text : "failed");
		calc_diag_free(&tmp);
		return -1;
	}
	memset(out, 0, sizeof *out);
	q = calc_catalog_quantity(name);
	if (v.str) {
		out->is_str = 1;
		snprintf(out->str, sizeof out->str, "%s", v.str);
	} else {
		out->num = v.num;
		out->unit = q ? q->unit : NULL;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct calc_diag d = {0};
	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (!plan) {
		plan = malloc(sizeof *plan);
		if (calc_plan_load(plan, NULL, NULL, 0, &d) < 0)
			abort();
	}
	char *body = fuzz_strndup(data, size);
	struct calc_ctx ctx;
	calc_ctx_init(&ctx, plan);
	struct rpt_scope sc = {&ctx, lookup, NULL};
	struct rpt_loc loc = {"t.md", 3, 10};
	char buf[512];
	if (rpt_inline_eval(body, &sc, &loc, buf, sizeof buf, &d) == 0) {
		FUZZ_CHECK(d.nerrors == 0);
		/* a number is never shown as nan or inf (a text literal may say anything) */
		if (!strchr(body, '"'))
			FUZZ_CHECK(!strstr(buf, "nan") && !strstr(buf, "inf"));
	} else {
		FUZZ_CHECK(d.nerrors > 0 && d.text && d.text[d.len - 1] == '\n');
	}
	calc_ctx_free(&ctx);
	calc_diag_free(&d);
	free(body);
	return 0;
}
