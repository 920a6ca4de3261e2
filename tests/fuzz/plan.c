/*
 * tests/fuzz/plan.c -- libFuzzer harness of plan loading (calc/plan.c).
 *
 * The input is a plan file.  calc_plan_load must return 0 or -1 with at least one
 * diagnostic, each "FILE:LINE: error: ..." ending in a newline.  A plan it accepts must
 * give finite, non-negative memory for every stage (calc_memory), so the validation and
 * the engines agree on what a valid plan is.
 */
#include "fuzz.h"
#include "calc.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char path[64];
	struct calc_plan *plan;
	struct calc_diag d = {0};
	if (size > FUZZ_MAX_INPUT || fuzz_write_temp(data, size, ".ini", path) < 0)
		return 0;
	plan = malloc(sizeof *plan);
	int rc = calc_plan_load(plan, path, NULL, 0, &d);
	unlink(path);
	if (rc < 0) {
		FUZZ_CHECK(d.nerrors > 0 && d.text && d.len > 0 && d.text[d.len - 1] == '\n');
	} else {
		FUZZ_CHECK(d.nerrors == 0);
		struct calc_memory *mem = malloc(sizeof *mem);
		if (calc_memory(plan, mem, &d) == 0) {
			FUZZ_CHECK(mem->nstages >= 1 && mem->nstages <= CALC_MAX_STAGES);
			for (int s = 0; s < mem->nstages; s++) {
				FUZZ_CHECK(isfinite(mem->st[s].total) && mem->st[s].total >= 0);
				FUZZ_CHECK(isfinite(mem->st[s].activations) && mem->st[s].activations >= 0);
			}
		}
		free(mem);
	}
	calc_diag_free(&d);
	free(plan);
	return 0;
}
