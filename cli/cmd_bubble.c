/*
 * cmd_bubble.c -- `trainplan bubble`: the pipeline bubble, one point or curves.
 *
 *   trainplan bubble [--plan FILE] [--set K=V]... [--format text|csv|json|md|tsv]
 *                    [--schedule NAME] [--all] [--p LIST] [--v LIST] [--m LIST]
 *
 * Without lists: the bubble of the plan's schedule at its p, m and v (closed form and
 * event simulator at equal unit costs), with in-flight activations and parameter
 * copies; --schedule evaluates another schedule at the plan's p and m; --all compares
 * every schedule (catalog table schedule-compare).  With --p, --v or --m (comma-
 * separated integers): curves of the bubble fraction against m, one column per
 * (p, v), v = 1 meaning 1F1B (catalog dataset bubble-curves).  Formulas: pipeline.c.
 */
#include "cli.h"
#include "../calc/step.h"

#include <stdlib.h>
#include <string.h>

/* Parse a comma-separated list of integers lo..hi; returns the count, or -1 after an
 * error message. */
static int list(const char *opt, const char *v, int *out, int max, int lo, int hi)
{
	int n = 0;
	while (*v) {
		char *end;
		long x = strtol(v, &end, 10);
		if (end == v || x < lo || x > hi || (*end && *end != ',') || n >= max) {
			cli_error("bubble: %s %s: expected up to %d comma-separated integers %d .. %d", opt, v,
			          max, lo, hi);
			return -1;
		}
		out[n++] = (int)x;
		v = *end ? end + 1 : end;
	}
	return n;
}

/* One row: the schedule's bubble at (p, m, v). */
static int point(const struct calc_plan *plan, enum calc_schedule s, struct calc_table *t,
                 struct calc_diag *d)
{
	int p = plan->pp, m = calc_plan_microbatches(plan);
	int v = calc_schedule_vpp(s, plan->vpp);
	struct calc_pp_closed cf;
	struct calc_pp_costs c;
	struct calc_pp_result r;
	int row;

	calc_pipeline_closed_flush(s, p, m, v, 1, 1, 1, !plan->post_validation, &cf);
	calc_pp_costs_unit(&c, s, p, m, v);
	c.steps = calc_pipeline_sim_steps(s, plan);
	if (calc_pipeline_simulate(&c, &r, d) < 0)
		return -1;
	calc_table_init(t, "bubble", "Pipeline bubble of one schedule");
	calc_table_col(t, "schedule", "", CALC_D_TEXT, 0);
	calc_table_col(t, "p", "", CALC_D_INT, 0);
	calc_table_col(t, "m", "", CALC_D_INT, 0);
	calc_table_col(t, "v", "", CALC_D_INT, 0);
	calc_table_col(t, "bubble_overhead", "1", CALC_D_PCT, 3);
	calc_table_col(t, "bubble_fraction", "1", CALC_D_PCT, 3);
	calc_table_col(t, "simulated_fraction", "1", CALC_D_PCT, 3);
	calc_table_col(t, "inflight", "1", CALC_D_NUM, 4);
	calc_table_col(t, "param_copies", "1", CALC_D_INT, 0);
	row = calc_table_row(t);
	calc_table_str(t, row, 0, calc_schedule_name(s));
	calc_table_num(t, row, 1, p);
	calc_table_num(t, row, 2, m);
	calc_table_num(t, row, 3, v);
	calc_table_num(t, row, 4, cf.overhead);
	calc_table_num(t, row, 5, cf.fraction);
	calc_table_num(t, row, 6, r.bubble_fraction);
	calc_table_num(t, row, 7, cf.inflight_peak);
	calc_table_num(t, row, 8, cf.param_copies);
	calc_pp_result_free(&r);
	{
		char note[400];
		snprintf(note, sizeof note, "Closed form: %s.  Overhead = idle / ideal time; fraction = idle "
		         "share of the step; simulated = event simulator, steady state, equal unit costs "
		         "T_F = T_B = T_W, no p2p time.", cf.source);
		calc_table_note(t, note);
	}
	return 0;
}

int cmd_bubble(int argc, char **argv)
{
	struct cli_opts o;
	struct calc_plan plan;
	struct calc_diag d = {0};
	struct calc_table t;
	enum calc_schedule s;
	int rc, all = 0, have_s = 0, ps[8], vs[4], ms[256], np = 0, nv = 0, nm = 0;

	if ((rc = cli_parse(argc, argv, &o)))
		return rc;
	for (int i = 0; i < o.nrest; i++) {
		const char *v;
		const char *val, *opt = cli_next("bubble", &o, &i, &val);
		if (!opt)
			return 2;
		if (cli_is(opt, "--all"))
			all = 1;
		else if (cli_is(opt, "--schedule") && (v = val)) {
			char names[256];
			if (calc_schedule_parse(v, &s) < 0)
				return cli_error("bubble: --schedule %s: allowed are %s", v,
				                 calc_schedule_names(names, sizeof names, ", "));
			have_s = 1;
		} else if (cli_is(opt, "--p") && (v = val)) {
			if ((np = list("--p", v, ps, 8, 1, CALC_MAX_STAGES)) < 0)
				return 2;
		} else if (cli_is(opt, "--v") && (v = val)) {
			if ((nv = list("--v", v, vs, 4, 1, 64)) < 0)
				return 2;
		} else if (cli_is(opt, "--m") && (v = val)) {
			if ((nm = list("--m", v, ms, 256, 1, 1 << 20)) < 0)
				return 2;
		} else if (!*opt)
			return cli_extra("bubble", val);
		else
			return cli_unhandled("bubble", opt);
	}
	if ((rc = cli_load(&o, &plan)))
		return rc;
	if (np || nv || nm) {
		if (!np)
			ps[np++] = plan.pp;
		if (!nv) {
			vs[nv++] = 1;
			if (plan.vpp > 1)
				vs[nv++] = plan.vpp;
		}
		if (!nm)
			for (int m = 1; m <= 256; m = m < 8 ? m + 1 : m < 32 ? m + 4 : m < 64 ? m + 8 : m + 16)
				ms[nm++] = m;
		if (np * nv > 23)
			return cli_error("bubble: %d values of --p x %d of --v: at most 23 curves", np, nv);
		calc_pipeline_curves(&t, "bubble-curves", ps, np, vs, nv, ms, nm);
	} else if (all) {
		if (calc_pipeline_compare(&plan, &t, "schedule-compare", &d) < 0)
			return cli_fail(&d);
	} else if (point(&plan, have_s ? s : plan.schedule, &t, &d) < 0)
		return cli_fail(&d);
	rc = cli_table_write("bubble", &plan, &t, o.format);
	calc_table_free(&t);
	calc_diag_free(&d);
	return rc;
}
