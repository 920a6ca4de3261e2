/*
 * cmd_schedule.c -- `trainplan schedule`: the op-by-op timeline of a pipeline schedule.
 *
 *   trainplan schedule [--plan FILE] [--set K=V]... [--format tsv|gantt|text|csv|json|md]
 *                      [--schedule NAME] [--p N] [--m N] [--v N]
 *                      [--tf T] [--tb T] [--tw T] [--p2p T]
 *                      [--first F,B,W] [--last F,B,W] [--unit T]
 *
 * Defaults: the plan's schedule, pp, micro-batches and vpp, and equal unit costs
 * T_F = T_B = T_W = 1 s on every stage.  --first and --last add time to the first
 * stage (embedding) and the last (LM head and loss).  --format tsv (the default)
 * writes one row per op for a gnuplot Gantt chart; --format gantt draws an ASCII
 * Gantt chart, one line per stage, cells of --unit seconds (default: the shortest op).
 * --bench N times N simulations and prints the best (for `make bench`).
 */
#include "cli.h"
#include "../calc/step.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The largest ASCII Gantt chart drawn [B]: 16 MiB, some 4,000 screens of 80 x 50. */
#define SCHEDULE_GANTT_MAX_BYTES (16 << 20)

static int int_opt(const char *opt, const char *v, int lo, int hi, int *out)
{
	char *end;
	long x = strtol(v, &end, 10);
	if (end == v || *end || x < lo || x > hi)
		return cli_error("schedule: %s %s: expected an integer %d .. %d", opt, v, lo, hi);
	*out = (int)x;
	return 0;
}

static int time_opt(const char *opt, const char *v, double *out)
{
	if (calc_parse_number(v, CALC_U_SECONDS, out) < 0 || *out < 0)
		return cli_error("schedule: %s %s: expected a time >= 0 (e.g. 1, 2.5 ms, 300 us)", opt, v);
	return 0;
}

/* "F,B,W" extra times of one stage. */
static int triple_opt(const char *opt, const char *v, double x[3])
{
	char buf[128], *tok, *save = NULL;
	int n = 0;
	if (strlen(v) >= sizeof buf)
		return cli_error("schedule: %s: value too long", opt);
	strcpy(buf, v);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n >= 3 || calc_parse_number(tok, CALC_U_SECONDS, &x[n]) < 0 || x[n] < 0)
			return cli_error("schedule: %s %s: expected three times F,B,W >= 0", opt, v);
		n++;
	}
	if (n != 3)
		return cli_error("schedule: %s %s: expected three times F,B,W >= 0", opt, v);
	return 0;
}

int cmd_schedule(int argc, char **argv)
{
	struct cli_opts o;
	struct calc_plan plan;
	struct calc_diag d = {0};
	struct calc_pp_costs c;
	struct calc_pp_result r;
	struct calc_table t;
	enum calc_schedule s;
	char **args = malloc(sizeof *args * (size_t)(argc + 1));
	int nargs = 0, gantt = 0, rc, have_s = 0, p = 0, m = 0, v = 0, first = 0, last = 0, bench = 0;
	double tf = 1, tb = 1, tw = 1, p2p = 0, unit = 0, xf[3] = {0}, xl[3] = {0};

	if (!args)
		return cli_error("out of memory");
	/* --format gantt is this command's own: take it out before the common parser */
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--format=gantt")) {
			gantt = 1;
			continue;
		}
		if (!strcmp(argv[i], "--format") && i + 1 < argc && !strcmp(argv[i + 1], "gantt")) {
			gantt = 1;
			i++;
			continue;
		}
		args[nargs++] = argv[i];
	}
	args[nargs] = NULL;
	rc = cli_parse(nargs, args, &o);
	if (rc) {
		free(args);
		return rc;
	}
	for (int i = 0; i < o.nrest && !rc; i++) {
		const char *x, *val, *opt = cli_next("schedule", &o, &i, &val);
		if (!opt) {
			rc = 2;
			break;
		}
		if (cli_is(opt, "--schedule") && (x = val)) {
			char names[256];
			if (calc_schedule_parse(x, &s) < 0)
				rc = cli_error("schedule: --schedule %s: allowed are %s", x,
				               calc_schedule_names(names, sizeof names, ", "));
			have_s = 1;
		} else if (cli_is(opt, "--p") && (x = val))
			rc = int_opt("--p", x, 1, CALC_MAX_STAGES, &p);
		else if (cli_is(opt, "--m") && (x = val))
			rc = int_opt("--m", x, 1, 1 << 20, &m);
		else if (cli_is(opt, "--v") && (x = val))
			rc = int_opt("--v", x, 1, 64, &v);
		else if (cli_is(opt, "--tf") && (x = val))
			rc = time_opt("--tf", x, &tf);
		else if (cli_is(opt, "--tb") && (x = val))
			rc = time_opt("--tb", x, &tb);
		else if (cli_is(opt, "--tw") && (x = val))
			rc = time_opt("--tw", x, &tw);
		else if (cli_is(opt, "--p2p") && (x = val))
			rc = time_opt("--p2p", x, &p2p);
		else if (cli_is(opt, "--bench") && (x = val))
			rc = int_opt("--bench", x, 1, 1000, &bench);
		else if (cli_is(opt, "--unit") && (x = val))
			rc = time_opt("--unit", x, &unit);
		else if (cli_is(opt, "--first") && (x = val)) {
			rc = triple_opt("--first", x, xf);
			first = 1;
		} else if (cli_is(opt, "--last") && (x = val)) {
			rc = triple_opt("--last", x, xl);
			last = 1;
		} else if (!*opt)
			rc = cli_extra("schedule", val);
		else
			rc = cli_unhandled("schedule", opt);
	}
	if (rc || (rc = cli_load(&o, &plan))) {
		free(args);
		return rc;
	}
	free(args);
	if (!have_s)
		s = plan.schedule;
	if (!p)
		p = plan.pp;
	if (!m)
		m = calc_plan_microbatches(&plan);
	if (!v)
		v = calc_schedule_vpp(s, plan.vpp);
	/* the size is known before any op is simulated: every schedule has at least an F and a
	 * B per stage, micro-batch and chunk, each a row of the table */
	if (!gantt && !bench && 2.0 * p * m * v > CALC_TIMELINE_MAX_OPS)
		return cli_error("schedule: p = %d, m = %d, v = %d give at least %.0f ops (2 x p x m x v), one row "
		                 "each: at most %d rows", p, m, v, 2.0 * p * m * v, CALC_TIMELINE_MAX_OPS);
	calc_pp_costs_unit(&c, s, p, m, v);
	for (int i = 0; i < p; i++) {
		c.tf[i] = tf;
		c.tb[i] = tb;
		c.tw[i] = tw;
	}
	if (first) {
		c.tf[0] += xf[0];
		c.tb[0] += xf[1];
		c.tw[0] += xf[2];
	}
	if (last) {
		c.tf[p - 1] += xl[0];
		c.tb[p - 1] += xl[1];
		c.tw[p - 1] += xl[2];
	}
	c.p2p = p2p;
	if (bench) {
		double best = 0;
		int nops = 0;
		for (int k = 0; k < bench; k++) {
			struct timespec t0, t1;
			double ms;
			clock_gettime(CLOCK_MONOTONIC, &t0);
			if (calc_pipeline_simulate(&c, &r, &d) < 0)
				return cli_fail(&d);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			nops = r.nops;
			calc_pp_result_free(&r);
			ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
			if (k == 0 || ms < best)
				best = ms;
		}
		printf("schedule %s p = %d m = %d v = %d: %d ops simulated in %.2f ms (best of %d)\n",
		       calc_schedule_name(s), p, m, v, nops, best, bench);
		return 0;
	}
	if (calc_pipeline_simulate(&c, &r, &d) < 0)
		return cli_fail(&d);
	if (gantt) {
		struct calc_pp_closed cf;
		struct calc_pp_result r2;
		double used, size = calc_pipeline_gantt_size(&r, unit, &used);
		if (size > SCHEDULE_GANTT_MAX_BYTES) {
			calc_pp_result_free(&r);
			return cli_error("schedule --format gantt: %d stages in cells of %g s make a chart of %.3g bytes: "
			                 "at most %d (a larger --unit, at least %.3g s)", p, used, size,
			                 SCHEDULE_GANTT_MAX_BYTES, used * size / SCHEDULE_GANTT_MAX_BYTES);
		}
		c.steps = 2; /* the steady state of back-to-back steps, for the header */
		if (calc_pipeline_simulate(&c, &r2, &d) < 0) {
			calc_pp_result_free(&r);
			return cli_fail(&d);
		}
		calc_pp_result_free(&r2);
		calc_pipeline_closed(s, p, m, v, tf, tb, tw, &cf);
		printf("%s schedule, p = %d, m = %d, v = %d; T_F = %g s, T_B = %g s, T_W = %g s, p2p = %g s%s\n",
		       calc_schedule_name(s), p, m, v, tf, tb, tw, p2p,
		       first || last ? " (first/last stages heavier)" : "");
		printf("one step: makespan %g s, busiest stage busy %g s, bubble %.2f%% of the step; "
		       "back to back: %.2f%%; closed form %.2f%%%s\n",
		       r.makespan, r.ideal, 100 * (r.makespan - r.ideal) / r.makespan, 100 * r2.bubble_fraction,
		       100 * cf.fraction, cf.exact && !first && !last && p2p == 0 ? "" : " (outside its conditions)");
		calc_pipeline_gantt(&r, unit, stdout);
	} else if (r.nops > CALC_TIMELINE_MAX_OPS) {
		rc = cli_error("schedule: p = %d, m = %d, v = %d give %d ops, one row each: at most %d rows",
		               p, m, v, r.nops, CALC_TIMELINE_MAX_OPS);
		calc_pp_result_free(&r);
		return rc;
	} else {
		calc_pipeline_timeline(&t, "schedule", &r, &c);
		rc = cli_table_write("schedule", &plan, &t, o.format_given ? o.format : CALC_F_TSV);
		calc_table_free(&t);
	}
	calc_pp_result_free(&r);
	calc_diag_free(&d);
	return rc;
}
