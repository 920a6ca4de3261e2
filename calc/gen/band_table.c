/*
 * calc/gen/band_table.c -- writes build/band_table.h: the recommendation's band
 * (calc_validate_plan_band, docs/references.md §7.15) for every stack preset on every
 * GPU generation, run from the validation rows with the built-in schedule table, so that
 * `trainplan search` reads it instead of running the rows (docs/architecture.md §11).
 * Linked with the library objects and a copy of calc/validate.c compiled with
 * CALC_NO_BAND_TABLE (Makefile).  The bands are printed as hexadecimal floats, exact;
 * tests/calc/step.c recomputes every entry and compares it bit for bit.
 */
#include "schedules.h"
#include "stacks.h"
#include "step.h"

#include <math.h>
#include <stdio.h>

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
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
