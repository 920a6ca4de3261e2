/*
 * tests/fuzz/quantities.c -- libFuzzer harness of the engines behind the catalog.
 *
 * The input is a plan file.  When calc_plan_load accepts it, every catalog quantity
 * except search.* (the planner takes seconds) is evaluated: memory, pipeline simulator,
 * comm, step and run totals.  The contract: a quantity is a finite number or a text,
 * or fails with a diagnostic; a valid plan never yields infinity, and NaN ("no value")
 * only from the variant quantities (cp2.*, fp8.*, network.*) whose variant is invalid.
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
	calc_diag_free(&d);
	/* the simulator runs p x m x v ops: up to 2^26 (2.6 s, 1.7 GB without sanitizers,
	 * past the fuzzer's timeout with them), and network.crossover_bw simulates some
	 * 150 times (9 s at 400,000 ops); big pipelines are left to the CLI sweep */
	if (rc == 0 && (double)calc_plan_microbatches(plan) * plan->pp * plan->vpp > (1 << 15))
		rc = -1;
	if (rc == 0) {
		struct calc_ctx ctx;
		const struct calc_quantity *q;
		calc_ctx_init(&ctx, plan);
		for (int i = 0; (q = calc_catalog_quantity_at(i)); i++) {
			struct calc_value v;
			struct calc_diag qd = {0};
			if (!strncmp(q->name, "search.", 7))
				continue;
			if (calc_catalog_get(&ctx, q->name, &v, &qd) == 0) {
				/* the variant quantities of report_catalog.c (cp2.*, fp8.*, network.*)
				 * are NaN when their variant is not a valid plan: "no value" */
				int variant = !strncmp(q->name, "cp2.", 4) || !strncmp(q->name, "fp8.", 4) ||
				              !strncmp(q->name, "network.", 8);
				if (!v.str && !isfinite(v.num) && !(variant && isnan(v.num)))
					fprintf(stderr, "%s = %g\n", q->name, v.num);
				FUZZ_CHECK(v.str || isfinite(v.num) || (variant && isnan(v.num)));
			} else {
				FUZZ_CHECK(qd.nerrors > 0);
			}
			calc_diag_free(&qd);
		}
		calc_ctx_free(&ctx);
	}
	free(plan);
	return 0;
}
