/*
 * tests/calc/variant.c -- the one variant builder (calc/variant.c) against the loader.
 *
 * A variant built from the default plan must equal the plan the loader builds from the
 * same settings (a second path to the same plan: calc_plan_load applies --set
 * overrides), whether the change comes as a layout or as assignments; the planner's
 * layout path re-splits the layers; an unchecked variant keeps what the validator
 * refuses; an invalid variant is refused with a message.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

/* The parts of a plan the engines read after a change of layout. */
static void assert_same_layout(const struct calc_plan *a, const struct calc_plan *b)
{
	assert_int_equal(a->tp, b->tp);
	assert_int_equal(a->pp, b->pp);
	assert_int_equal(a->dp, b->dp);
	assert_int_equal(a->cp, b->cp);
	assert_int_equal(a->micro_batch, b->micro_batch);
	assert_int_equal(a->recompute, b->recompute);
	assert_int_equal(a->schedule, b->schedule);
	for (int i = 0; i < a->pp; i++)
		assert_int_equal(a->layers_per_stage[i], b->layers_per_stage[i]);
}

static void test_assignments_equal_loader(void **state)
{
	(void)state;
	static const char *const sets[] = {"parallel.pp=16", "parallel.dp=4", "parallel.recompute=full"};
	struct calc_plan *base = malloc(sizeof *base), *v = malloc(sizeof *v), *l = malloc(sizeof *l);
	struct calc_diag d = {0};
	load_plan(base, NULL, 0);
	assert_int_equal(calc_plan_variant(base, NULL, sets, 3, "test", 0, v, &d), 0);
	load_plan(l, sets, 3);
	assert_same_layout(v, l);
	/* 80 layers over 16 stages: 5 each (by hand) */
	for (int i = 0; i < 16; i++)
		assert_int_equal(v->layers_per_stage[i], 5);
	calc_diag_free(&d);
	free(base), free(v), free(l);
}

static void test_layout_equals_assignments(void **state)
{
	(void)state;
	static const char *const sets[] = {"parallel.tp=4", "parallel.pp=16", "parallel.dp=8"};
	struct calc_plan *base = malloc(sizeof *base), *v = malloc(sizeof *v), *l = malloc(sizeof *l);
	struct calc_layout lay;
	struct calc_diag d = {0};
	load_plan(base, NULL, 0);
	calc_layout_keep(&lay);
	lay.tp = 4, lay.pp = 16, lay.dp = 8;
	assert_int_equal(calc_plan_variant(base, &lay, NULL, 0, NULL, CALC_VARIANT_VALIDATE, v, &d), 0);
	load_plan(l, sets, 3);
	assert_same_layout(v, l);
	assert_int_equal(v->gpus_per_node * v->nodes, 4 * 16 * 8); /* the GPUs are kept */
	calc_diag_free(&d);
	free(base), free(v), free(l);
}

static void test_layout_resplits_uneven(void **state)
{
	(void)state;
	static const char *const rule[] = {"parallel.split=remainder-first", "parallel.pp=1", "parallel.dp=64"};
	struct calc_plan *base = malloc(sizeof *base), *v = malloc(sizeof *v);
	struct calc_layout lay;
	struct calc_diag d = {0};
	load_plan(base, rule, 3);
	calc_layout_keep(&lay);
	lay.pp = 3, lay.dp = 8, lay.tp = 8; /* 8 x 3 x 8 = 192 of 512 GPUs: the planner's path, no check */
	assert_int_equal(calc_plan_variant(base, &lay, NULL, 0, NULL, 0, v, NULL), 0);
	/* 80 = 3 x 26 + 2: the first two stages hold 27 (remainder first, by hand) */
	assert_int_equal(v->layers_per_stage[0], 27);
	assert_int_equal(v->layers_per_stage[1], 27);
	assert_int_equal(v->layers_per_stage[2], 26);
	assert_true(v->uneven_stages > 0);
	/* validated, the same change is refused: 192 GPUs are not the cluster's 512 */
	assert_int_equal(calc_plan_variant(base, &lay, NULL, 0, NULL, CALC_VARIANT_VALIDATE, v, &d), -1);
	assert_true(d.nerrors > 0);
	calc_diag_free(&d);
	free(base), free(v);
}

static void test_unchecked_keeps_refused(void **state)
{
	(void)state;
	static const char *const a100[] = {"cluster.gpu=a100-80g"};
	static const char *const fp8[] = {"training.recipe=fp8-lm"};
	struct calc_plan *base = malloc(sizeof *base), *v = malloc(sizeof *v);
	struct calc_diag d = {0};
	load_plan(base, a100, 1);
	/* an FP8 recipe on a GPU without FP8 tensor cores: refused when checked */
	assert_int_equal(calc_plan_variant(base, NULL, fp8, 1, "test", 0, v, &d), -1);
	assert_non_null(strstr(d.text, "FP8"));
	/* unchecked: the recipe is in place, for its memory */
	assert_int_equal(calc_plan_variant(base, NULL, fp8, 1, "test", CALC_VARIANT_UNCHECKED, v, NULL), 0);
	assert_string_equal(v->recipe->name, "fp8-lm");
	calc_diag_free(&d);
	free(base), free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_assignments_equal_loader),
		cmocka_unit_test(test_layout_equals_assignments),
		cmocka_unit_test(test_layout_resplits_uneven),
		cmocka_unit_test(test_unchecked_keeps_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
