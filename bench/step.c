/*
 * bench/step.c -- timings of the time model: calc_comm, calc_step_fast (the planner's
 * path, closed-form bubble) and calc_step (pipeline simulator) on the default plan and
 * on a sweep of splits, reported in nanoseconds per call.
 *
 *   build/bench/step [iterations]
 */
#include "calc.h"
#include "search.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	struct calc_plan *p = malloc(sizeof *p), *var = malloc(20 * sizeof *var);
	struct calc_step *st = malloc(sizeof *st);
	struct calc_comm cm;
	struct calc_diag d = {0};
	static const int tps[] = {1, 2, 4, 8}, pps[] = {1, 2, 4, 8, 16};
	double t0, sink = 0;
	long full = n / 1000 > 10 ? n / 1000 : 10;

	if (calc_plan_load(p, NULL, NULL, 0, &d) < 0) {
		fputs(d.text ? d.text : "plan\n", stderr);
		return 2;
	}
	t0 = now();
	for (long i = 0; i < n; i++) {
		calc_comm(p, &cm);
		sink += cm.bytes_total;
	}
	printf("calc_comm           %8.1f ns/call\n", (now() - t0) / n * 1e9);

	/* 20 valid splits of the default plan's 512 GPUs, loaded once */
	for (int i = 0; i < 20; i++) {
		char a[32], b[32];
		const char *sets[] = {a, b, "parallel.dp=0"};
		snprintf(a, sizeof a, "parallel.tp=%d", tps[i % 4]);
		snprintf(b, sizeof b, "parallel.pp=%d", pps[i / 4]);
		if (calc_plan_load(&var[i], NULL, sets, 3, &d) < 0) {
			fputs(d.text ? d.text : "plan\n", stderr);
			return 2;
		}
	}
	t0 = now();
	for (long i = 0; i < n; i++) {
		calc_step_fast(&var[i % 20], st);
		sink += st->time;
	}
	printf("calc_step_fast      %8.1f ns/call (%.2f million configurations/s)\n", (now() - t0) / n * 1e9,
	       n / (now() - t0) / 1e6);

	if (calc_plan_load(p, NULL, NULL, 0, &d) < 0)
		return 2;
	t0 = now();
	for (long i = 0; i < full; i++) {
		if (calc_step(p, st, &d) < 0)
			return 2;
		sink += st->time;
	}
	printf("calc_step           %8.1f us/call (simulator, default plan, m = %d, p = %d)\n",
	       (now() - t0) / full * 1e6, calc_plan_microbatches(p), p->pp);
	free(p);
	free(var);
	free(st);
	calc_diag_free(&d);
	return sink == 0; /* keep the work observable */
}
