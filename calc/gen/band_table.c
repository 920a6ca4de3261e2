/*
 * calc/gen/band_table.c -- writes build/band_table.h: the recommendation's band
 * (calc_validate_plan_band, docs/references.md §7.15) for every stack preset on every
 * GPU generation, run from the validation rows with the built-in schedule table, so that
 * `trainplan search` reads it instead of running the rows (docs/architecture.md §11).
 * Linked with the library objects and a copy of calc/validate.c compiled with
 * CALC_NO_BAND_TABLE (Makefile).  The bands are printed as hexadecimal floats, exact;
 * Then every validation row as the model computes it (calc_validate_row_built), which the
 * validation table reads instead of running the rows.
 * tests/calc/step.c recomputes every entry of both and compares it bit for bit.
 */
#include "schedules.h"
#include "stacks.h"
#include "step.h"

#include <math.h>
#include <stdio.h>

/* A double as C source, exact: a hexadecimal float, NAN or INFINITY; then ", ". */
static void num(double x)
{
	if (isnan(x))
		printf("NAN, ");
	else if (isinf(x))
		printf("%sINFINITY, ", x < 0 ? "-" : "");
	else
		printf("%a, ", x);
}

/* 1 when s can stand in a C string literal as it is. */
static int name_ok(const char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\\' || *s < ' ' || *s > '~')
			return 0;
	return 1;
}

int main(void)
{
	/* calc_gpu_generation's values */
	static const char *const gens[] = {"A100", "H100", "Blackwell", "other"};
	const struct calc_stack *s;
	if (calc_validate_band_built(-1, NULL, NULL, NULL) != -1) {
		fprintf(stderr, "band_table: this generator must be linked without a built table\n");
		return 1;
	}
	printf("/* Written by calc/gen/band_table.c when trainplan is built; do not edit. */\n");
	printf("#define BAND_BUILT_SCHED_GEN %luUL\n", calc_schedule_generation());
	printf("static const struct band_built band_built[] = {\n");
	for (int i = 0; (s = calc_stack_at(i)) != NULL; i++)
		for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++) {
			double b = calc_validate_band_run(s->name, gens[g]);
			if (isnan(b))
				printf("\t{\"%s\", \"%s\", NAN},\n", s->name, gens[g]);
			else
				printf("\t{\"%s\", \"%s\", %a}, /* %.17g */\n", s->name, gens[g], b, b);
		}
	printf("};\n");
	/* every validation row as the model computes it (calc_validate_row_built) */
	printf("static const struct calc_validate_res rows_built[] = {\n");
	for (int i = 0; i < calc_validate_row_count(); i++) {
		struct calc_validate_res r;
		if (calc_validate_row_run(i, &r) < 0) {
			printf("\t{0}, /* row %d: predicts nothing, or failed: run where it is asked for */\n", i);
			continue;
		}
		if (!name_ok(r.model) || !name_ok(r.recipe)) {
			fprintf(stderr, "band_table: row %d: a name that is not plain text\n", i);
			return 1;
		}
		printf("\t{1, ");
		num(r.pred);
		num(r.mfu);
		num(r.hfu);
		num(r.peak);
		printf("%d, %d, %d, \"%s\", \"%s\"}, /* row %d: %.17g */\n", r.dp, r.v, r.fits, r.model, r.recipe, i,
		       r.pred);
	}
	printf("};\n");
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
