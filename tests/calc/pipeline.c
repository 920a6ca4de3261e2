/*
 * tests/calc/pipeline.c -- pipeline schedules: closed forms against the papers, the
 * event simulator against the closed forms over a grid of (p, m, v), the simulator's
 * dependency checks, the memory hook, the plan checks, the ASCII Gantt, a toy schedule
 * registered through the schedule table alone, the README's list of schedules, and the
 * shortcuts of the shape cache (a replayed order, the makespan and period from a
 * shape's compiled order) against the event loop, bit for bit, and generators that
 * are wrong in each way the shape compiler must catch (or that emit more ops than a
 * schedule has), which must fail in the span with the event loop's message.
 *
 * Reference values come from the papers' formulas evaluated by hand in the comments;
 * the grid compares two independent methods: the closed forms and the op-by-op
 * simulation of each schedule's order.
 */
#include "testutil.h"
#include "step.h"
#include "search.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Simulate schedule s with equal costs (tf, tb, tw on every stage), two back-to-back
 * steps so that the steady-state period is measured too. */
static void sim(enum calc_schedule s, int p, int m, int v, double tf, double tb, double tw,
                struct calc_pp_result *r)
{
	struct calc_pp_costs c;
	struct calc_diag d = {0};
	int rc;
	calc_pp_costs_unit(&c, s, p, m, v);
	for (int i = 0; i < p; i++) {
		c.tf[i] = tf;
		c.tb[i] = tb;
		c.tw[i] = tw;
	}
	c.steps = 2;
	rc = calc_pipeline_simulate(&c, r, &d);
	if (rc)
		print_error("%s", d.text ? d.text : "");
	calc_diag_free(&d);
	assert_int_equal(rc, 0);
	calc_pp_result_free(r); /* keep the figures, drop the timeline */
}

/* ------------------------------------------------------------------ closed forms */

static void test_closed_forms(void **state)
{
	struct calc_pp_closed cf;
	(void)state;

	/* Narayanan et al. 2021 §2.2.1: bubble / ideal = (p-1)/m.  Default plan: p = 8,
	 * m = 1536 / (1 x 8) = 192: 7/192 = 0.0364583; idle share 7/(192+7) = 7/199
	 * = 0.0351759. */
	calc_pipeline_closed(CALC_SCHED_1F1B, 8, 192, 1, 1, 1, 1, &cf);
	assert_near(cf.overhead, 7.0 / 192, 1e-12);
	assert_near(cf.fraction, 7.0 / 199, 1e-12);
	assert_near(cf.bubble, 7 * 3, 1e-12); /* (p-1)(t_f + t_b), t_b = T_B + T_W = 2 */
	assert_near(cf.ideal, 192 * 3, 1e-12);
	assert_near(cf.inflight_peak, 8, 0); /* "p or fewer micro-batches" (§2.2.1) */
	assert_int_equal(cf.param_copies, 1);

	/* GPipe: same bubble, all m micro-batches stashed (§2.2.1). */
	calc_pipeline_closed(CALC_SCHED_GPIPE, 4, 8, 1, 1, 1, 1, &cf);
	assert_near(cf.overhead, 3.0 / 8, 1e-12);
	assert_near(cf.fraction, 3.0 / 11, 1e-12);
	assert_near(cf.inflight_peak, 8, 0);

	/* Interleaved, Narayanan et al. 2021 §2.2.2: (1/v)(p-1)/m; p = 8, m = 192, v = 2:
	 * 7/384 = 0.0182292; idle share 7/(384+7) = 7/391.  Activations on stage 0:
	 * p(1 + (p-1)/(pv)) = 8(1 + 7/16) = 11.5 (Korthikanti et al. 2022 §4.2.3). */
	calc_pipeline_closed(CALC_SCHED_INTERLEAVED, 8, 192, 2, 1, 1, 1, &cf);
	assert_near(cf.overhead, 7.0 / 384, 1e-12);
	assert_near(cf.fraction, 7.0 / 391, 1e-12);
	assert_near(cf.inflight_peak, 11.5, 1e-12);
	assert_true(cf.exact);
	calc_pipeline_closed(CALC_SCHED_INTERLEAVED, 8, 100, 2, 1, 1, 1, &cf);
	assert_false(cf.exact); /* 100 is not a multiple of 8 */

	/* ZB-H1, Qi et al. 2024 Table 2: (p-1)(T_F + T_B - T_W); equal costs: 1/3 of
	 * 1F1B's (p-1)(T_F + T_B + T_W) (README of sail-sg: (p-1)/(3m)).  p = 4, m = 8:
	 * 3 x 1 = 3 against 1F1B's 9; overhead 3/24 = 0.125 = (4-1)/(3 x 8). */
	calc_pipeline_closed(CALC_SCHED_ZBH1, 4, 8, 1, 1, 1, 1, &cf);
	assert_near(cf.bubble, 3, 1e-12);
	assert_near(cf.overhead, 3.0 / 24, 1e-12);
	assert_near(cf.inflight_peak, 4, 0); /* p M_B */
	/* unequal: T_F = 2, T_B = 1.5, T_W = 0.5, p = 5: 4 x (2 + 1.5 - 0.5) = 12 */
	calc_pipeline_closed(CALC_SCHED_ZBH1, 5, 10, 1, 2, 1.5, 0.5, &cf);
	assert_near(cf.bubble, 12, 1e-12);

	/* ZB-H2: (p-1)(T_F + T_B - 2T_W) = 0 at equal costs; (2p - 1) M_B = 7 at p = 4. */
	calc_pipeline_closed(CALC_SCHED_ZBH2, 4, 8, 1, 1, 1, 1, &cf);
	assert_near(cf.bubble, 0, 1e-12);
	assert_near(cf.inflight_peak, 7, 0);
	/* T_F = 2, T_B = 1.5, T_W = 0.5, p = 5: 4 x (2 + 1.5 - 1) = 10 */
	calc_pipeline_closed(CALC_SCHED_ZBH2, 5, 10, 1, 2, 1.5, 0.5, &cf);
	assert_near(cf.bubble, 10, 1e-12);

	/* DualPipe, DeepSeek-V3 Table 2: (PP/2 - 1)(F&B + B - 3W), B the whole backward.
	 * p = 8, F = 1, B = 1 + 1 = 2, W = 1, F&B = F + B = 3: 3 x (3 + 2 - 3) = 6.
	 * Parameters 2x, activations PP + 1 = 9. */
	calc_pipeline_closed(CALC_SCHED_DUALPIPE, 8, 16, 1, 1, 1, 1, &cf);
	assert_near(cf.bubble, 6, 1e-12);
	assert_near(cf.overhead, 6.0 / 48, 1e-12);
	assert_near(cf.inflight_peak, 9, 0);
	assert_int_equal(cf.param_copies, 2);
}

/* Per-stage in-flight counts by hand (stage i 0-based). */
static void test_inflight_per_stage(void **state)
{
	(void)state;
	/* 1F1B p = 4: p - i = 4, 3, 2, 1 (Narayanan et al. 2021 §2.2.1) */
	for (int i = 0; i < 4; i++)
		assert_near(calc_pipeline_inflight_for(CALC_SCHED_1F1B, 4, 8, 1, i), 4 - i, 0);
	/* m < p caps at m: p = 8, m = 3 */
	assert_near(calc_pipeline_inflight_for(CALC_SCHED_1F1B, 8, 3, 1, 0), 3, 0);
	/* ZB-H2 (Qi et al. 2024 §2.3, device i 1-based: 2p - 2i + 1): p = 4 -> 7, 5, 3, 1 */
	for (int i = 0; i < 4; i++)
		assert_near(calc_pipeline_inflight_for(CALC_SCHED_ZBH2, 4, 8, 1, i), 7 - 2 * i, 0);
	/* interleaved p = 4, v = 2, m = 8: chunks (p-i-1)*2 + (v-1)p + 1 = 11, 9, 7, 5,
	 * over v = 2 -> 5.5, 4.5, 3.5, 2.5 */
	for (int i = 0; i < 4; i++)
		assert_near(calc_pipeline_inflight_for(CALC_SCHED_INTERLEAVED, 4, 8, 2, i), 5.5 - i, 0);
}

/* ------------------------------------------------------------------ the grid */

/*
 * The simulator against the closed forms.  For every schedule and every (p, m, v) in
 * the grid where the closed form's conditions hold (calc_pp_closed.exact), the bubble
 * per stage from the simulation (steady-state period minus the busiest stage's busy
 * time) equals the closed form, and every stage's simulated peak of in-flight
 * activation sets equals calc_pipeline_inflight_for.  Several cost sets: equal costs,
 * a backward twice the forward with no W, and unequal F, B, W.
 */
static void test_grid(void **state)
{
	static const double costs[][3] = {{1, 1, 1}, {1, 2, 0}, {2, 1.5, 0.5}, {1, 1, 0.5}};
	int checked = 0, exact = 0;
	(void)state;

	for (int s = 0; s < CALC_SCHED_N; s++)
		for (int ci = 0; ci < 4; ci++)
			for (int p = 1; p <= 12; p++)
				for (int m = 1; m <= 36; m++)
					for (int v = 1; v <= (s == CALC_SCHED_INTERLEAVED ? 4 : 1); v++) {
						struct calc_pp_closed cf;
						struct calc_pp_result r;
						double tf = costs[ci][0], tb = costs[ci][1], tw = costs[ci][2];
						if (s == CALC_SCHED_INTERLEAVED && (v == 1 || m % p))
							continue;
						if (s == CALC_SCHED_DUALPIPE && (p % 2 || m % 2 || m < 2 * p))
							continue;
						if (ci > 0 && (m % 3 || p % 2)) /* coarser grid for the others */
							continue;
						calc_pipeline_closed((enum calc_schedule)s, p, m, v, tf, tb, tw, &cf);
						sim((enum calc_schedule)s, p, m, v, tf, tb, tw, &r);
						checked++;
						/* one flush per step: the period is the makespan, except for
						 * ZB-H2, whose parallelogram overlaps the next step */
						if (s != CALC_SCHED_ZBH2)
							assert_near(r.period, r.makespan, 1e-12);
						assert_near(r.ideal, cf.ideal, 1e-12);
						if (cf.exact) {
							exact++;
							assert_near(r.period - r.ideal, cf.bubble, 1e-9);
							assert_near(r.bubble_fraction, cf.fraction, 1e-9);
						}
						for (int i = 0; i < p; i++)
							assert_near(r.peak_inflight[i],
							            calc_pipeline_inflight_for((enum calc_schedule)s, p, m,
							                                       v, i), 1e-12);
					}
	assert_true(exact >= 1000);
	assert_true(checked >= exact);
}

/*
 * Where the closed forms do not hold, the simulator still bounds them sensibly:
 * - ZB-H1 with m < p: only m W passes exist to fill the p-1 gaps of the cool-down, so
 *   the bubble lies between Qi et al.'s (p-1)(T_F+T_B-T_W) and 1F1B's
 *   (p-1)(T_F+T_B+T_W).  Example p = 4, m = 2: 5, between 3 and 9.
 * - ZB-H2 with m < 2p-1: the warm-up cannot hold 2(p-1) forwards, so some bubble stays
 *   (more than 0), but no more than 1F1B's.
 * - DualPipe with T_F != T_B: the reference order is tuned for equal chunks; the
 *   bubble moves away from (p/2-1)(F&B+B-3W) (p = 4, m = 8, T_F = 2: 4 against 3)
 *   but stays below 1F1B's.
 * - 1F1B with T_W > T_B split (ZB-H1 at T_W = 2): the formula turns negative in
 *   part; the simulator's bubble stays >= 0.
 */
static void test_deviations(void **state)
{
	struct calc_pp_result r;
	(void)state;

	sim(CALC_SCHED_ZBH1, 4, 2, 1, 1, 1, 1, &r);
	assert_near(r.period - r.ideal, 5, 1e-12);
	for (int p = 2; p <= 12; p++)
		for (int m = 1; m < p; m++) {
			sim(CALC_SCHED_ZBH1, p, m, 1, 1, 1, 1, &r);
			assert_true(r.period - r.ideal > (p - 1) * 1.0 + 1e-9);
			assert_true(r.period - r.ideal <= (p - 1) * 3.0 + 1e-9);
		}
	for (int p = 2; p <= 12; p++)
		for (int m = 1; m < 2 * p - 1; m++) {
			sim(CALC_SCHED_ZBH2, p, m, 1, 1, 1, 1, &r);
			assert_true(r.period - r.ideal > 1e-9);
			assert_true(r.period - r.ideal <= (p - 1) * 3.0 + 1e-9);
		}
	sim(CALC_SCHED_DUALPIPE, 4, 8, 1, 2, 1, 1, &r);
	assert_near(r.period - r.ideal, 4, 1e-12);
	for (int p = 2; p <= 12; p += 2) {
		sim(CALC_SCHED_DUALPIPE, p, 4 * p, 1, 2, 1, 1, &r);
		assert_true(r.period - r.ideal < (p - 1) * 4.0);
		sim(CALC_SCHED_DUALPIPE, p, 4 * p, 1, 1, 2, 1, &r);
		assert_true(r.period - r.ideal < (p - 1) * 4.0);
	}
	sim(CALC_SCHED_ZBH1, 4, 8, 1, 1, 1, 2, &r);
	assert_true(r.period - r.ideal >= 0);
}

/* ------------------------------------------------------------------ uneven stages, p2p */

static void test_uneven_and_p2p(void **state)
{
	struct calc_pp_costs c;
	struct calc_pp_result r;
	struct calc_diag d = {0};
	(void)state;

	/*
	 * Uneven stages break (p-1)/m.  Hand simulation, 1F1B, p = 2, m = 2, stage 0
	 * (embedding) F = 1, B = 2; stage 1 (LM head and loss) F = 2, B = 4 (tw = 0):
	 *   s0: F0 0-1, F1 1-2;            s1: F0 1-3, B0 3-7, F1 7-9, B1 9-13
	 *   s0: B0 7-9, B1 13-15           -> makespan 15
	 * A uniform closed form with the slow stage, (m+p-1)(t_f+t_b) = 3 x 6 = 18, is
	 * wrong by 3: the fast stage does not add the slow stage's fill and drain.
	 */
	calc_pp_costs_unit(&c, CALC_SCHED_1F1B, 2, 2, 1);
	c.tf[0] = 1, c.tb[0] = 2, c.tw[0] = 0;
	c.tf[1] = 2, c.tb[1] = 4, c.tw[1] = 0;
	assert_int_equal(calc_pipeline_simulate(&c, &r, &d), 0);
	assert_near(r.makespan, 15, 1e-12);
	assert_near(r.busy[0], 6, 1e-12);
	assert_near(r.busy[1], 12, 1e-12);
	assert_near(r.idle[0], 9, 1e-12);
	calc_pp_result_free(&r);

	/*
	 * GPipe on uneven stages has an exact second method: forwards and backwards are
	 * two flow shops of identical jobs, each taking sum(t_s) + (m-1) max(t_s).
	 * p = 4, m = 6, tf = {2, 1, 1, 3}, tb + tw = {3, 2, 2, 5}:
	 *   forward  7 + 5 x 3 = 22, backward 12 + 5 x 5 = 37 -> 59.
	 */
	calc_pp_costs_unit(&c, CALC_SCHED_GPIPE, 4, 6, 1);
	{
		static const double tf[] = {2, 1, 1, 3}, tb[] = {2, 1, 1, 4}, tw[] = {1, 1, 1, 1};
		for (int i = 0; i < 4; i++)
			c.tf[i] = tf[i], c.tb[i] = tb[i], c.tw[i] = tw[i];
	}
	assert_int_equal(calc_pipeline_simulate(&c, &r, &d), 0);
	assert_near(r.makespan, 59, 1e-12);
	calc_pp_result_free(&r);

	/*
	 * Point-to-point time: one micro-batch through 1F1B on p stages crosses p-1 links
	 * forward and p-1 backward: makespan = p(T_F + T_B + T_W) + 2(p-1) p2p.
	 * p = 6, unit costs, p2p = 0.25: 18 + 2.5 = 20.5.
	 */
	calc_pp_costs_unit(&c, CALC_SCHED_1F1B, 6, 1, 1);
	c.p2p = 0.25;
	assert_int_equal(calc_pipeline_simulate(&c, &r, &d), 0);
	assert_near(r.makespan, 20.5, 1e-12);
	calc_pp_result_free(&r);
	/* with many micro-batches the p2p time only adds: above the closed form's
	 * m(t_f + t_b) + (p-1)(t_f + t_b)/v = 16 x 3 + 3 x 3 / 2 = 52.5 */
	calc_pp_costs_unit(&c, CALC_SCHED_INTERLEAVED, 4, 16, 2);
	c.p2p = 0.1;
	assert_int_equal(calc_pipeline_simulate(&c, &r, &d), 0);
	assert_true(r.makespan > 52.5 + 1e-9);
	calc_pp_result_free(&r);
	calc_diag_free(&d);
}

/*
 * Chunks of one stage that cost differently (calc_pp_costs.per_chunk): interleaved 1F1B
 * at p = 2, v = 2, m = 2, no p2p.  With m v = 4 ops per rank, Megatron-LM's interleaved
 * schedule (schedules.py, forward_backward_pipelining_with_interleaving) warms up every
 * forward on both ranks, chunk 0 of both micro-batches first, then runs every backward,
 * chunk 1 first.  Virtual stages g = chunk p + stage: g0 (rank 0, chunk 0), g1 (rank 1,
 * chunk 0), g2 (rank 0, chunk 1), g3 (rank 1, chunk 1); forward times 3, 2, 1, 2,
 * backward twice that, W 0 (each rank 4 forward, 8 backward per micro-batch).  By hand,
 * each op at max(its input's end, its rank free):
 *   F: r0 g0 0-3, 3-6 | r1 g1 3-5, 6-8 | r0 g2 6-7, 8-9 | r1 g3 8-10, 10-12
 *   B: r1 g3 12-16, 16-20 | r0 g2 16-18, 20-22 | r1 g1 20-24, 24-28 | r0 g0 24-30, 30-36
 * Makespan 36, busy 24 on each rank.  Equal chunks of the same stage totals (2 forward
 * and 4 backward every chunk) give, the same way:
 *   F 0-2, 2-4 | 2-4, 4-6 | 4-6, 6-8 | 6-8, 8-10;  B 10-14, 14-18 | 14-18, 18-22 |
 *   18-22, 22-26 | 22-26, 26-30: 30.
 */
static void test_uneven_chunks(void **state)
{
	struct calc_pp_costs c;
	struct calc_pp_result r;
	struct calc_diag d = {0};
	double ms, per;

	calc_pp_costs_unit(&c, CALC_SCHED_INTERLEAVED, 2, 2, 2);
	c.per_chunk = 1;
	for (int g = 0; g < 4; g++) {
		static const double f[] = {3, 2, 1, 2};
		c.tf[g] = f[g];
		c.tb[g] = 2 * f[g];
		c.tw[g] = 0;
	}
	assert_int_equal(calc_pipeline_simulate(&c, &r, &d), 0);
	assert_near(r.makespan, 36, 1e-12);
	assert_near(r.busy[0], 24, 1e-12);
	assert_near(r.busy[1], 24, 1e-12);
	calc_pp_result_free(&r);
	/* the span takes the same path */
	assert_int_equal(calc_pipeline_simulate_span(&c, &ms, &per, &d), 0);
	assert_near(ms, 36, 1e-12);
	/* the same stage totals with equal chunks: each rank forward 4, backward 8 */
	c.per_chunk = 0;
	c.tf[0] = c.tf[1] = 4, c.tb[0] = c.tb[1] = 8;
	assert_int_equal(calc_pipeline_simulate(&c, &r, &d), 0);
	assert_near(r.makespan, 30, 1e-12);
	calc_pp_result_free(&r);
	/* per chunk needs virtual stages */
	calc_pp_costs_unit(&c, CALC_SCHED_1F1B, 2, 2, 1);
	c.per_chunk = 1;
	assert_int_equal(calc_pipeline_simulate(&c, &r, &d), -1);
	assert_non_null(strstr(d.text, "per chunk"));
	calc_pp_result_free(&r);
	calc_diag_free(&d);
}

/* ------------------------------------------------------------------ dependency checks */

static int has(const struct calc_diag *d, const char *what)
{
	return d->text && strstr(d->text, what);
}

/* A shape simulated before (calc_pipeline_simulate replays its recorded op order) must
 * give, with other costs, what the event loop gives for the same ops
 * (calc_pipeline_simulate_ops, which never replays): every op's start and end and
 * every figure of the result, bit for bit.  Every schedule of the table, stages of
 * different costs, p2p 0 and not (at p = 1 no op waits for a transfer), one and two
 * steps; the first call of each shape records it, the next ones replay. */
static void test_replay_same(void **state)
{
	static const int ps[] = {1, 2, 4, 5}, ms[] = {4, 8, 12};
	int hits = 0;
	(void)state;
	for (int si = 0; si < calc_schedule_count(); si++) {
		const struct calc_sched *row = calc_schedule_at(si);
		for (int a = 0; a < 4; a++)
			for (int b = 0; b < 3; b++)
				for (int steps = 1; steps <= 2; steps++) {
					int v = row->uses_vpp ? 2 : 1, p = ps[a], m = ms[b];
					struct calc_diag d = {0};
					if (row->check && row->check(p, m, v, NULL, NULL))
						continue;
					for (int round = 0; round < 3; round++) {
						struct calc_pp_costs c;
						struct calc_pp_result r, x;
						struct calc_pp_op *ops;
						calc_pp_costs_unit(&c, (enum calc_schedule)si, p, m, v);
						c.steps = steps;
						c.p2p = round * 0.37;
						for (int i = 0; i < p; i++) { /* uneven stages, different per round */
							c.tf[i] = 1 + 0.1 * i + 0.3 * round;
							c.tb[i] = 2 + 0.05 * (p - i) + 0.2 * round;
							c.tw[i] = 0.5 + 0.01 * i * round;
						}
						assert_int_equal(calc_pipeline_simulate(&c, &r, &d), 0);
						ops = malloc(sizeof *ops * (size_t)r.nops);
						memcpy(ops, r.ops, sizeof *ops * (size_t)r.nops);
						for (int i = 0; i < r.nops; i++)
							ops[i].start = ops[i].end = -1;
						assert_int_equal(calc_pipeline_simulate_ops(&c, ops, r.nops, &x, &d), 0);
						for (int i = 0; i < r.nops; i++) {
							assert_true(ops[i].start == r.ops[i].start);
							assert_true(ops[i].end == r.ops[i].end);
						}
						assert_true(x.makespan == r.makespan && x.period == r.period && x.ideal == r.ideal);
						assert_true(x.bubble_overhead == r.bubble_overhead);
						for (int i = 0; i < p; i++) {
							assert_true(x.busy[i] == r.busy[i] && x.idle[i] == r.idle[i]);
							assert_true(x.peak_inflight[i] == r.peak_inflight[i]);
							assert_true(x.peak_wpending[i] == r.peak_wpending[i]);
						}
						{ /* the figures alone: the same numbers without the timeline */
							struct calc_pp_result y;
							assert_int_equal(calc_pipeline_simulate_times(&c, &y, &d), 0);
							assert_true(y.makespan == r.makespan && y.period == r.period && y.ideal == r.ideal);
							assert_memory_equal(y.busy, r.busy, sizeof y.busy);
							assert_memory_equal(y.peak_inflight, r.peak_inflight, sizeof y.peak_inflight);
							assert_int_equal(y.nops, r.nops);
							calc_pp_result_free(&y);
						}
						hits += round > 0;
						free(ops);
						calc_pp_result_free(&r);
						calc_diag_free(&d);
					}
				}
	}
	assert_true(hits > 50);
}

/* The makespan and period alone (calc_pipeline_simulate_span: a new shape's op order
 * and program found without simulate()'s times, a known shape run from its program)
 * must be the bits the event loop gives for the same ops (calc_pipeline_simulate_ops,
 * which never uses the shape cache).  Every schedule, uneven stages, p2p 0 and not, one
 * and two steps; per shape the first call is the span of a new shape (the compiled
 * path), the second a known one, and a shape recorded by calc_pipeline_simulate first
 * is then run from the program that recording compiled.  p = 1 has no transfers
 * between stages (interleaved chunks on one stage pass theirs without one).  Shapes no
 * other test uses, and this test runs first, while the shape cache has room. */
static void test_span_same(void **state)
{
	static const int ps[] = {1, 3, 6}, ms[] = {6, 18};
	int n = 0;
	(void)state;
	for (int si = 0; si < calc_schedule_count(); si++) {
		const struct calc_sched *row = calc_schedule_at(si);
		for (int a = 0; a < 3; a++)
			for (int b = 0; b < 2; b++)
				for (int steps = 1; steps <= 2; steps++) {
					int v = row->uses_vpp ? 3 : 1, p = ps[a], m = ms[b], first = (a + b + steps) % 2;
					if (row->check && row->check(p, m, v, NULL, NULL))
						continue;
					for (int round = 0; round < 3; round++) {
						struct calc_pp_costs c;
						struct calc_pp_result r, x;
						struct calc_diag d = {0};
						double mk, per;
						calc_pp_costs_unit(&c, (enum calc_schedule)si, p, m, v);
						c.steps = steps;
						c.p2p = round * 0.29;
						for (int i = 0; i < p; i++) {
							c.tf[i] = 1.3 + 0.17 * i + 0.1 * round;
							c.tb[i] = 2.1 + 0.07 * (p - i) + 0.3 * round;
							c.tw[i] = 0.7 + 0.03 * i * (round + 1);
						}
						if (first && round == 0) { /* recorded by the full simulation */
							assert_int_equal(calc_pipeline_simulate(&c, &r, &d), 0);
							calc_pp_result_free(&r);
						}
						assert_int_equal(calc_pipeline_simulate_span(&c, &mk, &per, &d), 0);
						assert_int_equal(calc_pipeline_simulate(&c, &r, &d), 0);
						for (int i = 0; i < r.nops; i++)
							r.ops[i].start = r.ops[i].end = -1;
						assert_int_equal(calc_pipeline_simulate_ops(&c, r.ops, r.nops, &x, &d), 0);
						assert_true(mk == x.makespan);
						assert_true(per == x.period);
						assert_true(mk > 0 && per > 0);
						n++;
						calc_pp_result_free(&r);
						calc_diag_free(&d);
					}
				}
	}
	assert_true(n > 60);
}

/* Every op's start and end and every figure of 'r' against the event loop's for the
 * same ops (calc_pipeline_simulate_ops, which never uses the shape cache), bit for bit. */
static void same_as_event_loop(const struct calc_pp_costs *c, const struct calc_pp_result *r)
{
	struct calc_pp_op *ops = malloc(sizeof *ops * (size_t)r->nops);
	struct calc_pp_result x;
	struct calc_diag d = {0};
	memcpy(ops, r->ops, sizeof *ops * (size_t)r->nops);
	for (int i = 0; i < r->nops; i++)
		ops[i].start = ops[i].end = -1;
	assert_int_equal(calc_pipeline_simulate_ops(c, ops, r->nops, &x, &d), 0);
	for (int i = 0; i < r->nops; i++)
		if (ops[i].start != r->ops[i].start || ops[i].end != r->ops[i].end)
			fail_msg("op %d: %.17g .. %.17g against the event loop's %.17g .. %.17g", i, r->ops[i].start,
			         r->ops[i].end, ops[i].start, ops[i].end);
	assert_true(x.makespan == r->makespan && x.period == r->period && x.ideal == r->ideal);
	assert_true(x.bubble_overhead == r->bubble_overhead && x.bubble_fraction == r->bubble_fraction);
	assert_memory_equal(x.busy, r->busy, sizeof x.busy);
	assert_memory_equal(x.idle, r->idle, sizeof x.idle);
	assert_memory_equal(x.peak_inflight, r->peak_inflight, sizeof x.peak_inflight);
	assert_memory_equal(x.peak_wpending, r->peak_wpending, sizeof x.peak_wpending);
	free(ops);
	calc_diag_free(&d);
}

/* Shapes of more ops than the cache keeps a copy of (32,768): the first run times the
 * ops in the event loop that finds their order, a later full result generates the ops
 * again and replays the order into them, the figures alone and the span run from the
 * order and from the program compiled on the span's first call.  Each must give the
 * event loop's bits (calc_pipeline_simulate_ops) at its own costs: every schedule at
 * p = 8, m = 2,560 (40,960 ops and more), two steps, uneven stages and a p2p time, and
 * for the vpp schedules costs per chunk (the span's too, from the program).  Shapes no other test uses, run early while
 * the shape cache has room. */
static void test_large_replay_same(void **state)
{
	int n = 0;
	(void)state;
	for (int si = 0; si < calc_schedule_count(); si++) {
		const struct calc_sched *row = calc_schedule_at(si);
		int p = 8, m = 2560, v = row->uses_vpp ? 2 : 1;
		if (row->check && row->check(p, m, v, NULL, NULL))
			continue;
		for (int round = 0; round < 4 + row->uses_vpp; round++) {
			struct calc_pp_costs c;
			struct calc_pp_result r, y;
			struct calc_diag d = {0};
			double mk, per;
			calc_pp_costs_unit(&c, (enum calc_schedule)si, p, m, v);
			c.steps = 2;
			c.p2p = 0.013 * round;
			for (int i = 0; i < p; i++) {
				c.tf[i] = 1.1 + 0.07 * i + 0.3 * round;
				c.tb[i] = 2.3 + 0.11 * (p - i) + 0.1 * round;
				c.tw[i] = 0.6 + 0.02 * i * (round + 1);
			}
			if (round == 4) { /* each chunk its own time */
				c.per_chunk = 1;
				for (int g = 0; g < p * v; g++) {
					c.tf[g] = 0.5 + 0.03 * g;
					c.tb[g] = 1.2 + 0.05 * (p * v - g);
					c.tw[g] = 0.3 + 0.01 * g;
				}
			}
			if (round == 2) { /* the figures alone first, then the timeline to check them */
				assert_int_equal(calc_pipeline_simulate_times(&c, &y, &d), 0);
				assert_null(y.ops);
			}
			if (round == 3) { /* the span first: its program is compiled now */
				assert_int_equal(calc_pipeline_simulate_span(&c, &mk, &per, &d), 0);
				assert_int_equal(calc_pipeline_simulate_span(&c, &y.makespan, &y.period, &d), 0);
				assert_true(mk == y.makespan && per == y.period);
			}
			assert_int_equal(calc_pipeline_simulate(&c, &r, &d), 0);
			assert_true(r.nops > 32768);
			same_as_event_loop(&c, &r);
			if (round == 2) {
				assert_true(y.makespan == r.makespan && y.period == r.period && y.ideal == r.ideal);
				assert_memory_equal(y.busy, r.busy, sizeof y.busy);
				assert_memory_equal(y.peak_inflight, r.peak_inflight, sizeof y.peak_inflight);
				assert_memory_equal(y.peak_wpending, r.peak_wpending, sizeof y.peak_wpending);
				calc_pp_result_free(&y);
			}
			if (round == 3)
				assert_true(mk == r.makespan && per == r.period);
			if (round == 4) { /* costs per chunk through the program round 3 compiled */
				assert_int_equal(calc_pipeline_simulate_span(&c, &mk, &per, &d), 0);
				assert_true(mk == r.makespan && per == r.period);
			}
			n++;
			calc_pp_result_free(&r);
			calc_diag_free(&d);
		}
	}
	assert_true(n >= 20);
}

/* The interleaved order against Megatron-LM's formula, by divisions: stage s runs w =
 * min((p-s-1)*2 + (v-1)p, mv) warm-up forwards (all mv when m = p), then a forward and
 * a backward in turn, then the rest of the backwards; virtual micro-batch k is chunk
 * (k/p) % v of micro-batch (k/(pv))p + k%p, backwards walking the chunks in reverse.
 * The generator steps k by one instead of dividing. */
static void test_interleaved_order(void **state)
{
	int checked = 0;
	(void)state;
	for (int p = 2; p <= 5; p++)
		for (int v = 2; v <= 4; v++)
			for (int m = p; m <= 3 * p; m += p) {
				struct calc_pp_costs c;
				struct calc_pp_result r;
				struct calc_diag d = {0};
				int i = 0;
				calc_pp_costs_unit(&c, CALC_SCHED_INTERLEAVED, p, m, v);
				assert_int_equal(calc_pipeline_simulate(&c, &r, &d), 0);
				for (int s = 0; s < p; s++) {
					int total = m * v, w = m == p ? total : (p - s - 1) * 2 + (v - 1) * p;
					int nf = 0, nb = 0;
					if (w > total)
						w = total;
					for (int j = 0; j < 2 * total; j++, i++) {
						const struct calc_pp_op *o = &r.ops[i];
						int fwd = j < w || (j < w + 2 * (total - w) && (j - w) % 2 == 0);
						int k = fwd ? nf++ : nb++;
						assert_int_equal(o->stage, s);
						assert_int_equal(o->op, fwd ? 'F' : 'B');
						assert_int_equal(o->mb, (k / (p * v)) * p + k % p);
						assert_int_equal(o->chunk, fwd ? (k / p) % v : v - 1 - (k / p) % v);
						checked++;
					}
				}
				assert_int_equal(i, r.nops);
				calc_pp_result_free(&r);
			}
	assert_true(checked > 1000);
}

/* A bad plan's costs fail in the span as in the simulation, with the same message. */
static void test_span_refuses(void **state)
{
	struct calc_pp_costs c;
	struct calc_pp_result r;
	struct calc_diag d1 = {0}, d2 = {0};
	double mk = 1, per = 1;
	(void)state;
	calc_pp_costs_unit(&c, CALC_SCHED_1F1B, 4, 8, 1);
	c.tf[2] = -1;
	assert_int_equal(calc_pipeline_simulate(&c, &r, &d1), -1);
	assert_int_equal(calc_pipeline_simulate_span(&c, &mk, &per, &d2), -1);
	assert_non_null(d1.text);
	assert_non_null(d2.text);
	assert_string_equal(d1.text, d2.text);
	assert_true(mk == 0 && per == 0);
	calc_pp_result_free(&r);
	calc_diag_free(&d1);
	calc_diag_free(&d2);
}

static void test_dependencies(void **state)
{
	struct calc_pp_costs c;
	struct calc_pp_result r, x;
	struct calc_diag d = {0};
	struct calc_pp_op *ops, t;
	int n, last0 = 0;
	(void)state;

	calc_pp_costs_unit(&c, CALC_SCHED_1F1B, 4, 8, 1);
	assert_int_equal(calc_pipeline_simulate(&c, &r, &d), 0);
	n = r.nops;
	ops = malloc(sizeof *ops * (size_t)n);

	/* the produced order replays unchanged */
	memcpy(ops, r.ops, sizeof *ops * (size_t)n);
	assert_int_equal(calc_pipeline_simulate_ops(&c, ops, n, &x, &d), 0);
	assert_near(x.makespan, r.makespan, 0);

	/* no backward before its forward: on stage 3 (ops F0 B0 F1 ...) swap F0 and B0 */
	memcpy(ops, r.ops, sizeof *ops * (size_t)n);
	for (int i = 0; i < n; i++)
		if (ops[i].stage == 3) {
			t = ops[i], ops[i] = ops[i + 1], ops[i + 1] = t;
			break;
		}
	assert_int_equal(calc_pipeline_simulate_ops(&c, ops, n, &x, &d), -1);
	assert_true(has(&d, "dependency violated: stage 3"));
	assert_true(has(&d, "its forward has not run on this stage"));
	calc_diag_free(&d);

	/* stage order: stage 0's first backward placed before its forwards is a cycle of
	 * waits (stage 0 waits for stage 1's B, which waits for stage 0's F) */
	memcpy(ops, r.ops, sizeof *ops * (size_t)n);
	for (int i = 0; i < n && ops[i].stage == 0; i++)
		if (ops[i].op == 'B') {
			t = ops[i];
			memmove(ops + 1, ops, sizeof *ops * (size_t)i);
			ops[0] = t;
			break;
		}
	assert_int_equal(calc_pipeline_simulate_ops(&c, ops, n, &x, &d), -1);
	assert_true(has(&d, "dependency violated"));
	calc_diag_free(&d);

	/* a missing op */
	memcpy(ops, r.ops, sizeof *ops * (size_t)n);
	for (int i = 0; i < n; i++)
		if (ops[i].stage == 0)
			last0 = i;
	memmove(ops + last0, ops + last0 + 1, sizeof *ops * (size_t)(n - last0 - 1));
	assert_int_equal(calc_pipeline_simulate_ops(&c, ops, n - 1, &x, &d), -1);
	assert_true(has(&d, "never runs"));
	calc_diag_free(&d);

	/* a repeated op */
	memcpy(ops, r.ops, sizeof *ops * (size_t)n);
	ops[1] = ops[0];
	assert_int_equal(calc_pipeline_simulate_ops(&c, ops, n, &x, &d), -1);
	assert_true(has(&d, "it already ran"));
	calc_diag_free(&d);

	/* chunk order (interleaved): a chunk-1 forward before chunk 0 of the same
	 * micro-batch on stage 0 cannot run */
	calc_pp_result_free(&r);
	calc_pp_costs_unit(&c, CALC_SCHED_INTERLEAVED, 2, 4, 2);
	assert_int_equal(calc_pipeline_simulate(&c, &r, &d), 0);
	free(ops);
	ops = malloc(sizeof *ops * (size_t)r.nops);
	memcpy(ops, r.ops, sizeof *ops * (size_t)r.nops);
	ops[0].chunk = 1; /* F0 chunk 1 first, then F1, F0 chunk 0 never ... */
	assert_int_equal(calc_pipeline_simulate_ops(&c, ops, r.nops, &x, &d), -1);
	assert_true(has(&d, "the forward of the previous pipeline stage has not run"));
	calc_diag_free(&d);

	/* schedule conditions */
	calc_pp_costs_unit(&c, CALC_SCHED_INTERLEAVED, 4, 6, 2);
	assert_int_equal(calc_pipeline_simulate(&c, &x, &d), -1);
	assert_true(has(&d, "must be a multiple of p = 4"));
	calc_diag_free(&d);
	calc_pp_costs_unit(&c, CALC_SCHED_DUALPIPE, 3, 12, 1);
	assert_int_equal(calc_pipeline_simulate(&c, &x, &d), -1);
	assert_true(has(&d, "dualpipe"));
	calc_diag_free(&d);
	calc_pp_costs_unit(&c, CALC_SCHED_1F1B, 4, 8, 1);
	c.tb[2] = -1;
	assert_int_equal(calc_pipeline_simulate(&c, &x, &d), -1);
	assert_true(has(&d, "stage 2 costs"));
	calc_diag_free(&d);

	free(ops);
	calc_pp_result_free(&r);
}

/* ------------------------------------------------------------------ memory hook */

/*
 * The memory engine takes its in-flight counts and parameter copies from pipeline.c;
 * check them against the simulator's peaks on the default plan (p = 8, m = 192) for
 * every schedule, and that ZB-H2 and DualPipe show in calc_memory.
 */
static void test_memory_hook(void **state)
{
	/* one plan per row of the schedule table, read from the table so that a new row is
	 * checked too (a fixed list indexed by CALC_SCHED_N read past its end when the
	 * table grew): v = 2 for a row that uses virtual stages */
	char sets[CALC_SCHED_N][2][48];
	const char *set[2];
	struct calc_memory *m1 = malloc(sizeof *m1), *m2 = malloc(sizeof *m2);
	struct calc_plan plan;
	struct calc_diag d = {0};
	(void)state;

	for (int s = 0; s < CALC_SCHED_N; s++) {
		const struct calc_sched *row = calc_schedule_at(s);
		struct calc_pp_result r;
		assert_non_null(row);
		snprintf(sets[s][0], sizeof sets[s][0], "schedule=%s", row->name);
		snprintf(sets[s][1], sizeof sets[s][1], "vpp=%d", row->uses_vpp ? 2 : 1);
		set[0] = sets[s][0], set[1] = sets[s][1];
		load_plan(&plan, set, 2);
		assert_int_equal(plan.schedule, s);
		sim(plan.schedule, plan.pp, calc_plan_microbatches(&plan), plan.vpp, 1, 1, 1, &r);
		for (int i = 0; i < plan.pp; i++)
			assert_near(calc_pipeline_inflight(&plan, i), r.peak_inflight[i], 1e-12);
		assert_int_equal(calc_pipeline_param_copies(&plan), s == CALC_SCHED_DUALPIPE ? 2 : 1);
	}

	/* ZB-H2 holds 2p - 1 = 15 sets on stage 0 where 1F1B holds p = 8: the layers'
	 * activations grow by 15/8 (Qi et al. 2024 Table 2: (2p-1) M_B vs p M_B). */
	set[0] = sets[CALC_SCHED_1F1B][0], set[1] = sets[CALC_SCHED_1F1B][1];
	load_plan(&plan, set, 2);
	assert_int_equal(calc_memory(&plan, m1, &d), 0);
	set[0] = sets[CALC_SCHED_ZBH2][0], set[1] = sets[CALC_SCHED_ZBH2][1];
	load_plan(&plan, set, 2);
	assert_int_equal(calc_memory(&plan, m2, &d), 0);
	assert_near(m2->st[0].inflight, 15, 0);
	assert_near(m1->st[0].inflight, 8, 0);
	assert_true(m2->st[0].activations > m1->st[0].activations * 1.5);

	/* DualPipe: a second copy of the weights (DeepSeek-V3 Table 2, "Parameter 2x") */
	set[0] = sets[CALC_SCHED_DUALPIPE][0], set[1] = sets[CALC_SCHED_DUALPIPE][1];
	load_plan(&plan, set, 2);
	assert_int_equal(calc_memory(&plan, m2, &d), 0);
	assert_near(m2->st[0].inflight, 9, 0); /* PP + 1 */
	assert_true(m2->st[0].weight_copies >= m1->st[0].weights * 0.999);
	free(m1);
	free(m2);
	calc_diag_free(&d);
}

/* ------------------------------------------------------------------ plan checks */

static void test_plan_check(void **state)
{
	struct calc_plan plan, p;
	struct calc_diag d = {0};
	(void)state;

	load_plan(&plan, NULL, 0); /* p = 8, m = 192, 80 layers */
	assert_int_equal(calc_pipeline_check(&plan, calc_plan_keys_origin, &d), 0);

	p = plan;
	p.vpp = 3; /* 1F1B with vpp = 3 */
	assert_int_equal(calc_pipeline_check(&p, calc_plan_keys_origin, &d), -1);
	assert_true(has(&d, "error[E017]: parallel.vpp = 3 needs parallel.schedule = interleaved"));
	calc_diag_free(&d);

	p.schedule = CALC_SCHED_INTERLEAVED; /* 80 layers not divisible by 8 x 3 */
	assert_int_equal(calc_pipeline_check(&p, calc_plan_keys_origin, &d), -1);
	assert_true(has(&d, "model.layers = 80 is not divisible by pp x vpp = 8 x 3 = 24"));
	calc_diag_free(&d);

	p.vpp = 2;
	p.global_batch = 1544; /* m = 1544 / 8 = 193, not a multiple of 8 */
	assert_int_equal(calc_pipeline_check(&p, calc_plan_keys_origin, &d), -1);
	assert_true(has(&d, "m = 193"));
	calc_diag_free(&d);

	p = plan;
	p.schedule = CALC_SCHED_DUALPIPE;
	p.pp = 5;
	assert_int_equal(calc_pipeline_check(&p, calc_plan_keys_origin, &d), -1);
	assert_true(has(&d, "parallel.pp = 5 with parallel.schedule = dualpipe"));
	calc_diag_free(&d);
	p.pp = 8;
	p.global_batch = 8 * 7; /* m = 7: odd */
	assert_int_equal(calc_pipeline_check(&p, calc_plan_keys_origin, &d), -1);
	assert_true(has(&d, "m = 7 must be even"));
	calc_diag_free(&d);
	p.global_batch = 8 * 10; /* m = 10 < 2p = 16 */
	assert_int_equal(calc_pipeline_check(&p, calc_plan_keys_origin, &d), -1);
	assert_true(has(&d, "at least 2 x pp = 16"));
	/* a plan changed in memory keeps the default plan's key lines */
	assert_true(has(&d, "default.ini:"));
	calc_diag_free(&d);
}

/* Load plan text 'ini' from a temporary file; expect it refused with exactly one error,
 * at that file and line 'line', whose message contains 'what'. */
static void expect_at(const char *ini, int line, const char *what)
{
	char path[64];
	struct calc_plan p;
	struct calc_diag d = {0};

	strcpy(path, "/tmp/trainplan-sched-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(ini, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(calc_plan_load(&p, path, NULL, 0, &d), -1);
	remove(path);
	if (d.nrecs != 1 || !d.recs[0].file || strcmp(d.recs[0].file, path) || d.recs[0].line != line ||
	    !strstr(d.recs[0].msg, what))
		print_error("expected one error at %s:%d containing '%s', got:\n%s", path, line, what,
		            d.text ? d.text : "(none)");
	assert_int_equal(d.nrecs, 1);
	assert_string_equal(d.recs[0].file, path);
	assert_int_equal(d.recs[0].line, line);
	assert_non_null(strstr(d.recs[0].msg, what));
	calc_diag_free(&d);
}

/* Each schedule check points at the line of the key of its condition set last: the
 * lines below are counted by hand (1 is the section header). */
static void test_plan_check_lines(void **state)
{
	(void)state;
	/* 1F1B with vpp = 3: vpp is on line 3 */
	expect_at("[parallel]\nschedule = 1f1b\nvpp = 3\n", 3, "parallel.vpp = 3 needs");
	/* interleaved, vpp = 3: 80 layers vs 8 x 3; vpp (line 2) after schedule (line 3)
	 * is not a key of the layer condition, so line 2 */
	expect_at("[parallel]\nvpp = 3\nschedule = interleaved\n", 2, "not divisible by pp x vpp");
	/* interleaved needs vpp >= 2: schedule on line 2, vpp = 1 only from the default */
	expect_at("[parallel]\nschedule = interleaved\n", 2, "needs parallel.vpp >= 2");
	/* m = 1544 / 8 = 193: global_batch (line 5) is set after the schedule (line 2) */
	expect_at("[parallel]\nschedule = interleaved\nvpp = 2\n[training]\nglobal_batch = 1544\n", 5,
	          "m = 193");
	/* the same with the schedule set last (line 5) */
	expect_at("[training]\nglobal_batch = 1544\n[parallel]\nvpp = 2\nschedule = interleaved\n", 5,
	          "m = 193");
	expect_at("[training]\nglobal_batch = 1544\n[parallel]\nschedule = interleaved\nvpp = 2\n", 4,
	          "m = 193");
	/* DualPipe with pp = 5 on 40 x 8 = 8 x 5 x 8 GPUs: pp on line 5 */
	expect_at("[cluster]\nnodes = 40\n[parallel]\nschedule = dualpipe\npp = 5\n", 5,
	          "pp must be even");
	/* DualPipe with m = 56 / 8 = 7: the schedule (line 4) is set after global_batch */
	expect_at("[training]\nglobal_batch = 56\n[parallel]\nschedule = dualpipe\n", 4, "m = 7 must be even");
	/* m = 80 / 8 = 10 < 2 x 8: global_batch (line 4) is set after the schedule (line 2) */
	expect_at("[parallel]\nschedule = dualpipe\n[training]\nglobal_batch = 80\n", 4, "at least 2 x pp");
}

/* ------------------------------------------------------------------ Gantt, catalog */

static void test_gantt_small(void **state)
{
	struct calc_pp_costs c;
	struct calc_pp_result r;
	struct calc_diag d = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	(void)state;

	/* 1F1B p = 2, m = 2, unit costs (backward = 2 cells), by hand:
	 *   stage 0: F0 0-1, F1 1-2, B0 4-6, B1 7-9
	 *   stage 1: F0 1-2, B0 2-4, F1 4-5, B1 5-7  -> makespan 9 = (m+p-1) x 3 */
	calc_pp_costs_unit(&c, CALC_SCHED_1F1B, 2, 2, 1);
	assert_int_equal(calc_pipeline_simulate(&c, &r, &d), 0);
	f = open_memstream(&buf, &len);
	calc_pipeline_gantt(&r, 0, f);
	fclose(f);
	assert_non_null(strstr(buf, "stage 0 |F0F1....B0==..B1==|\n"
	                            "stage 1 |..F0B0==F1B1==....|\n"));
	free(buf);
	calc_pp_result_free(&r);
}

static void test_catalog(void **state)
{
	struct calc_plan plan;
	struct calc_ctx c;
	struct calc_value v;
	struct calc_table t;
	struct calc_args a = {0};
	struct calc_diag d = {0};
	(void)state;

	load_plan(&plan, NULL, 0);
	calc_ctx_init(&c, &plan);
	assert_int_equal(calc_catalog_get(&c, "pipeline.bubble_fraction", &v, &d), 0);
	assert_near(v.num, 7.0 / 199, 1e-12); /* (p-1)/(m+p-1), p = 8, m = 192 */
	assert_int_equal(calc_catalog_get(&c, "pipeline.bubble_overhead", &v, &d), 0);
	assert_near(v.num, 7.0 / 192, 1e-12);
	assert_int_equal(calc_catalog_get(&c, "pipeline.sim_bubble_fraction", &v, &d), 0);
	assert_near(v.num, 7.0 / 199, 1e-12);
	assert_int_equal(calc_catalog_get(&c, "pipeline.inflight_peak", &v, &d), 0);
	assert_near(v.num, 8, 0);
	assert_int_equal(calc_catalog_get(&c, "pipeline.param_copies", &v, &d), 0);
	assert_near(v.num, 1, 0);

	/* schedule-gantt-1f1b: p = 4, m = 8, 1F1B: one F and one B per micro-batch and
	 * stage = 2 x 4 x 8 = 64 rows */
	assert_int_equal(calc_catalog_build(&c, "schedule-gantt-1f1b", 1, &a, &t, &d), 0);
	assert_int_equal(t.nrows, 64);
	calc_table_free(&t);
	/* ZB-H1 splits the backward: 3 x 4 x 8 = 96 rows */
	assert_int_equal(calc_catalog_build(&c, "schedule-gantt-zb-h1", 1, &a, &t, &d), 0);
	assert_int_equal(t.nrows, 96);
	calc_table_free(&t);
	/* bubble-curves: m plus 5 values of p x (1F1B, v = 2, v = 4) = 16 columns */
	assert_int_equal(calc_catalog_build(&c, "bubble-curves", 1, &a, &t, &d), 0);
	assert_int_equal(t.ncols, 16);
	assert_near(t.cells[0 * t.ncols + 1].v, 1.0 / 2, 1e-12); /* m = 1, p = 2: 1/(1+1) */
	calc_table_free(&t);
	/* schedule-compare: one row per schedule */
	assert_int_equal(calc_catalog_build(&c, "schedule-compare", 0, &a, &t, &d), 0);
	assert_int_equal(t.nrows, CALC_SCHED_N);
	int ncols = t.ncols;
	calc_table_free(&t);
	/* its dataset adds the usable capacity for the chart: the H100 preset's 79.1 GiB */
	assert_int_equal(calc_catalog_build(&c, "schedule-compare", 1, &a, &t, &d), 0);
	assert_int_equal(t.nrows, CALC_SCHED_N);
	assert_int_equal(t.ncols, ncols + 1);
	assert_string_equal(t.cols[ncols].name, "capacity");
	assert_near(t.cells[0 * t.ncols + ncols].v, 79.1 * 1073741824.0, 0.001);
	calc_table_free(&t);
	calc_ctx_free(&c);
	calc_diag_free(&d);
}

/* ZB-H2 with a flush between steps (no post-validation, the default): the closed form
 * (p-1) max(T_F, T_F+T_B-2T_W) equals the simulator's single step, and is larger than
 * the back-to-back form (p-1)(T_F+T_B-2T_W) when T_W is large.  Hand value: p = 4,
 * unit costs: 3 idle units per stage against 0 back to back. */
static void test_zbh2_flushed(void **state)
{
	struct calc_pp_closed cf, cb;
	calc_pipeline_closed_flush(CALC_SCHED_ZBH2, 4, 8, 1, 1, 1, 1, 1, &cf);
	calc_pipeline_closed(CALC_SCHED_ZBH2, 4, 8, 1, 1, 1, 1, &cb);
	assert_near(cf.bubble, 3, 1e-12);
	assert_near(cb.bubble, 0, 1e-12);
	for (int p = 2; p <= 8; p++)
		for (int m = 2 * p - 1; m <= 3 * p; m += 3) {
			struct calc_pp_costs c;
			struct calc_pp_result r;
			struct calc_diag d = {0};
			calc_pipeline_closed_flush(CALC_SCHED_ZBH2, p, m, 1, 1, 1, 1, 1, &cf);
			calc_pp_costs_unit(&c, CALC_SCHED_ZBH2, p, m, 1);
			c.steps = 1;
			assert_int_equal(calc_pipeline_simulate(&c, &r, &d), 0);
			assert_near(r.bubble_fraction, cf.fraction, 1e-9);
			calc_pp_result_free(&r);
		}
}

/* ------------------------------------------------------------------ the table */

/*
 * A toy schedule, "toy", registered through the table alone: every stage runs one
 * micro-batch at a time, F then its whole backward, so micro-batch i+1 enters stage 0
 * only when micro-batch i has come back.  By hand, at uniform costs: a micro-batch takes
 * p (T_F + T_B + T_W) through the pipe and back, so a step takes m p (T_F + T_B + T_W);
 * each stage is busy m (T_F + T_B + T_W) of it, idle (p - 1) m (T_F + T_B + T_W); it
 * holds one activation set at a time.  Its own condition: m even (to exercise a check).
 */
static void gen_toy(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{
	for (int i = 0; i < m; i++) {
		calc_sched_emit(g, 'F', 0, base + i, 0);
		calc_sched_emit(g, 'B', 1, base + i, 0);
	}
}

static void closed_toy(int p, int m, int v, double tf, double tb, double tw, int flush,
                       struct calc_pp_closed *out)
{
	out->bubble = (double)(p - 1) * m * (tf + tb + tw);
	out->exact = 1;
	out->source = "by hand: one micro-batch in the pipe at a time";
}

static double inflight_toy(int p, int m, int v, int stage)
{
	return 1;
}

static const char *check_toy(int p, int m, int v, const struct calc_sched_plan *sp, struct calc_diag *d)
{
	if (m % 2 == 0)
		return NULL;
	if (d && sp)
		calc_sched_plan_error(sp, d, "training.global_batch", "toy: m = %d must be even", m);
	else if (d)
		calc_error(d, NULL, 0, "toy: m = %d must be even", m);
	return "m odd";
}

static const struct calc_sched toy_row = {
	.name = "toy", .title = "one micro-batch at a time", .source = "tests/calc/pipeline.c",
	.param_copies = 1, .gen = gen_toy, .closed = closed_toy, .inflight = inflight_toy,
	.check = check_toy, .reject = "toy-m", .reject_desc = "toy: m must be even",
};

/*
 * A generator that emits more ops than any schedule has: stage 0 runs the toy's order
 * and then 3 p m forwards of micro-batch 0 more, past the room the simulator gives a
 * shape's ops in one pass (3 ops per micro-batch and stage).  The simulator must see
 * every op the generator emitted (generating again into room for all of them) and say
 * that the first extra forward repeats one, in the span as in the full simulation; with
 * the ops cut at the room, stages 1 .. p-1 would have none and the message would name
 * another op.
 */
static void gen_extra(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{
	gen_toy(g, p, m, v, stage, base);
	if (stage == 0)
		for (int i = 0; i < 3 * p * m; i++)
			calc_sched_emit(g, 'F', 0, base, 0);
}

static void test_gen_overflow(void **state)
{
	struct calc_sched row = toy_row;
	struct calc_pp_costs c;
	struct calc_pp_result r;
	struct calc_diag d1 = {0}, d2 = {0};
	double mk, per;
	int id;
	(void)state;
	row.name = "toy-extra";
	row.gen = gen_extra;
	id = calc_schedule_register(&row, &d1);
	assert_true(id >= CALC_SCHED_N);
	calc_pp_costs_unit(&c, (enum calc_schedule)id, 3, 4, 1);
	assert_int_equal(calc_pipeline_simulate(&c, &r, &d1), -1);
	assert_int_equal(calc_pipeline_simulate_span(&c, &mk, &per, &d2), -1);
	assert_true(has(&d1, "toy-extra: dependency violated: stage 0 cannot run op 8 (F of "
	                "micro-batch 0, chunk 0): it already ran"));
	assert_string_equal(d1.text, d2.text);
	calc_pp_result_free(&r);
	calc_diag_free(&d1);
	calc_diag_free(&d2);
	calc_schedule_unregister_all();
}

/*
 * Generators that are wrong in each way the shape compiler (calc/pipeline.c, compile)
 * must catch without simulate()'s checks, for p = 3, m = 4 on the toy's order (stage s:
 * F0 B0 F1 B1 ..., whole backwards).  Each is simulated, and its span must fail with the
 * very message of the event loop: a shape the compiler took would give a span instead.
 */
static void gen_bad_f(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{ /* stage 0 runs the forward of micro-batch 0 twice, that of micro-batch 1 never */
	for (int i = 0; i < m; i++) {
		calc_sched_emit(g, 'F', 0, base + (stage == 0 && i == 1 ? 0 : i), 0);
		calc_sched_emit(g, 'B', 1, base + i, 0);
	}
}

static void gen_bad_b(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{ /* stage 0 (no stage waits for its backwards) runs that of micro-batch 0 twice */
	for (int i = 0; i < m; i++) {
		calc_sched_emit(g, 'F', 0, base + i, 0);
		calc_sched_emit(g, 'B', 1, base + (stage == 0 && i == 1 ? 0 : i), 0);
	}
}

static void gen_bad_bnone(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{ /* stage 0 (no stage waits for its backwards) never runs that of micro-batch 3 */
	for (int i = 0; i < m; i++) {
		calc_sched_emit(g, 'F', 0, base + i, 0);
		if (stage || i != 3)
			calc_sched_emit(g, 'B', 1, base + i, 0);
	}
}

static void gen_bad_wfull(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{ /* stage 2 splits micro-batch 2's backward but runs no W for it, and runs one after
   * micro-batch 3's whole backward: as many W as split backwards, on the wrong one */
	for (int i = 0; i < m; i++) {
		int split = stage == 2 && i == 2;
		calc_sched_emit(g, 'F', 0, base + i, 0);
		calc_sched_emit(g, 'B', !split, base + i, 0);
	}
	if (stage == 2)
		calc_sched_emit(g, 'W', 0, base + 3, 0);
}

static void gen_bad_wbefore(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{ /* stage 1: the W of micro-batch 0 first, then the toy's order (whole backwards) */
	if (stage == 1)
		calc_sched_emit(g, 'W', 0, base, 0);
	gen_toy(g, p, m, v, stage, base);
}

/* split backwards, each followed by its W, except as 'bad' says */
static void gen_split(struct calc_sched_gen *g, int m, int stage, int base, int bad)
{
	for (int i = 0; i < m; i++) {
		calc_sched_emit(g, 'F', 0, base + i, 0);
		calc_sched_emit(g, 'B', 0, base + i, 0);
		if (stage == 1 && i == 2 && bad == 0)
			continue; /* no W for micro-batch 2 */
		calc_sched_emit(g, 'W', 0, base + (stage == 1 && i == 2 && bad == 1 ? 1 : i), 0);
	}
}

static void gen_bad_wnone(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{
	gen_split(g, m, stage, base, 0);
}

static void gen_bad_wtwice(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{ /* stage 1 runs the W of micro-batch 1 twice, that of micro-batch 2 never */
	gen_split(g, m, stage, base, 1);
}

static void gen_bad_order(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{ /* stage 2 runs micro-batch 1's backward before its forward */
	for (int i = 0; i < m; i++) {
		int a = stage == 2 && i == 1;
		calc_sched_emit(g, a ? 'B' : 'F', a, base + i, 0);
		calc_sched_emit(g, a ? 'F' : 'B', !a, base + i, 0);
	}
}

static void gen_bad_stage(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{ /* the ops of stages 1 and 2 trade places: stage 2's come before stage 1's */
	int s = g->stage;
	g->stage = stage == 1 ? 2 : stage == 2 ? 1 : stage;
	gen_toy(g, p, m, v, g->stage, base);
	g->stage = s;
}

/* The toy's order with op 'at' of stage 1 changed by 'how': 0 micro-batch m (out of
 * range), 1 chunk 1 (out of range at v = 1), 2 op 'X' (no such op), 3 an F marked as the
 * first of an F&B pair, followed by an F (the pair has no B). */
static void gen_bad_field(struct calc_sched_gen *g, int p, int m, int v, int stage, int base, int how)
{
	for (int i = 0; i < m; i++) {
		int bad = stage == 1 && i == 2;
		calc_sched_emit(g, bad && how == 2 ? 'X' : 'F', 0, base + (bad && how == 0 ? m : i),
		                bad && how == 1);
		if (bad && how == 3 && g->out && g->n <= g->cap)
			g->out[g->n - 1].pair = 1;
		calc_sched_emit(g, 'B', 1, base + i, 0);
	}
}

static void gen_bad_mb(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{
	gen_bad_field(g, p, m, v, stage, base, 0);
}

static void gen_bad_chunk(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{
	gen_bad_field(g, p, m, v, stage, base, 1);
}

static void gen_bad_op(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{
	gen_bad_field(g, p, m, v, stage, base, 2);
}

static void gen_bad_pair(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{ /* stage 1: F of micro-batch 2 marked as a pair's F, then F of micro-batch 3 */
	for (int i = 0; i < m; i++) {
		calc_sched_emit(g, 'F', 0, base + i, 0);
		if (stage == 1 && i == 2 && g->out && g->n <= g->cap)
			g->out[g->n - 1].pair = 1;
		if (stage != 1 || i != 2)
			calc_sched_emit(g, 'B', 1, base + i, 0);
	}
	if (stage == 1)
		calc_sched_emit(g, 'B', 1, base + 2, 0);
}

static void test_bad_generators(void **state)
{
	static const struct {
		void (*gen)(struct calc_sched_gen *, int, int, int, int, int);
		const char *msg;
	} bad[] = {
		{gen_bad_f, "dependency violated: stage 0 cannot run op 2 (F of micro-batch 0, chunk 0): "
		            "it already ran"},
		{gen_bad_b, "dependency violated: stage 0 cannot run op 3 (B (whole backward) of "
		            "micro-batch 0, chunk 0): it already ran"},
		{gen_bad_bnone, "the backward of micro-batch 3 on path stage 0 never runs"},
		{gen_bad_wfull, "dependency violated: stage 2 cannot run op 8 (W of micro-batch 3, chunk "
		                "0): its backward already included the weight gradients"},
		{gen_bad_wbefore, "dependency violated: stage 1 cannot run op 0 (W of micro-batch 0, chunk "
		                  "0): its input backward (B) has not run"},
		{gen_bad_wnone, "the weight-gradient (W) of micro-batch 2 on path stage 1 never runs"},
		{gen_bad_wtwice, "dependency violated: stage 1 cannot run op 8 (W of micro-batch 1, chunk "
		                 "0): it already ran"},
		{gen_bad_order, "dependency violated: stage 2 cannot run op 2 (B (whole backward) of "
		                "micro-batch 1, chunk 0): its forward has not run on this stage"},
		{gen_bad_stage, "op 16 on stage 1: ops must be grouped by stage 0 .. 2 in order"},
		{gen_bad_mb, "op 12 on stage 1: micro-batch 4 or chunk 0 out of range (0 .. 3, 0 .. 0)"},
		{gen_bad_chunk, "op 12 on stage 1: micro-batch 2 or chunk 1 out of range (0 .. 3, 0 .. 0)"},
		{gen_bad_op, "dependency violated: stage 1 cannot run op 4 (X of micro-batch 2, chunk 0): "
		             "unknown op (allowed F, B, W)"},
		{gen_bad_pair, "stage 1 op 4: an F&B pair needs a B after its F"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct calc_sched row = toy_row;
		struct calc_pp_costs c;
		struct calc_pp_result r;
		struct calc_diag d1 = {0}, d2 = {0};
		double mk, per;
		int id, rc1, rc2;
		row.name = "toy-bad";
		row.gen = bad[i].gen;
		id = calc_schedule_register(&row, &d1);
		calc_pp_costs_unit(&c, (enum calc_schedule)id, 3, 4, 1);
		rc2 = calc_pipeline_simulate_span(&c, &mk, &per, &d2);
		rc1 = calc_pipeline_simulate(&c, &r, &d1);
		calc_schedule_unregister_all();
		if (!has(&d1, bad[i].msg))
			print_error("case %zu: %s\n", i, d1.text ? d1.text : "(no message)");
		assert_int_equal(id, CALC_SCHED_N);
		assert_int_equal(rc1, -1);
		assert_int_equal(rc2, -1);
		assert_true(has(&d1, bad[i].msg));
		assert_non_null(d2.text);
		assert_string_equal(d1.text, d2.text);
		calc_pp_result_free(&r);
		calc_diag_free(&d1);
		calc_diag_free(&d2);
	}
}

/*
 * The span of a new shape of every built-in schedule is compiled from one generation of
 * its ops: the generator runs once per stage and step (p x steps calls).  A shape the
 * compiler refused would be simulated and generate its ops again (2 p x steps calls) --
 * with the same numbers, so only the count shows it.  The rows cover whole backwards
 * (GPipe, 1F1B, interleaved), split backwards and their W (ZB-H1, ZB-H2) and F&B pairs
 * (DualPipe); each gets its own m, so that no shape is known before.
 */
static void (*counted_gen)(struct calc_sched_gen *, int, int, int, int, int);
static int gen_calls;

static void gen_counted(struct calc_sched_gen *g, int p, int m, int v, int stage, int base)
{
	gen_calls++;
	counted_gen(g, p, m, v, stage, base);
}

static void test_span_compiles(void **state)
{
	(void)state;
	for (int si = 0; si < CALC_SCHED_N; si++) {
		struct calc_sched row = *calc_schedule_at(si);
		struct calc_pp_costs c;
		struct calc_diag d = {0};
		double mk, per;
		int p = 4, m = 8 * (si + 1), v = row.uses_vpp ? 2 : 1, steps = 2, id;
		counted_gen = row.gen;
		row.name = "counted";
		row.gen = gen_counted;
		id = calc_schedule_register(&row, &d);
		assert_int_equal(id, CALC_SCHED_N);
		assert_null(row.check ? row.check(p, m, v, NULL, NULL) : NULL);
		calc_pp_costs_unit(&c, (enum calc_schedule)id, p, m, v);
		c.steps = steps;
		gen_calls = 0;
		assert_int_equal(calc_pipeline_simulate_span(&c, &mk, &per, &d), 0);
		calc_schedule_unregister_all();
		if (gen_calls != p * steps)
			print_error("%s: %d generator calls\n", calc_schedule_at(si)->name, gen_calls);
		assert_int_equal(gen_calls, p * steps);
		assert_true(mk > 0 && per > 0);
		calc_diag_free(&d);
	}
}

/*
 * A schedule id names a row only within one generation of the table: unregister the
 * toy and register, under the same name and so the same id, a row that runs 1F1B's
 * order.  calc_step of the very same plan must then give 1F1B's makespan, not the
 * toy's that it computed before (the step engine keeps the last simulations per
 * thread, calc/step.c sim_memo, keyed by the costs, which hold the id).  Expected values:
 * the built-in 1F1B row on the same plan, and the toy's closed form, m p (t_F + t_B)
 * of one micro-batch at a time against 1F1B's (m + p - 1)(t_F + t_B) (Narayanan et
 * al. 2021 §2.2.1): with p = 8 the toy is several times slower.
 */
static void test_memo_generation(void **state)
{
	const char *sets[] = {"parallel.schedule=toy"};
	struct calc_sched row = toy_row;
	const struct calc_sched *ref = calc_schedule_at(CALC_SCHED_1F1B);
	struct calc_step *st = calloc(3, sizeof *st);
	struct calc_diag d = {0};
	struct calc_plan plan, plain;
	unsigned long g0 = calc_schedule_generation();
	int id;
	(void)state;

	id = calc_schedule_register(&toy_row, &d);
	assert_int_equal(id, CALC_SCHED_N);
	assert_true(calc_schedule_generation() != g0);
	load_plan(&plan, sets, 1);
	assert_int_equal(plan.pp, 8);
	assert_int_equal(calc_step(&plan, &st[0], &d), 0);

	calc_schedule_unregister_all();
	row.gen = ref->gen;
	row.closed = ref->closed;
	row.inflight = ref->inflight;
	row.check = NULL;
	row.reject = row.reject_desc = NULL;
	assert_int_equal(calc_schedule_register(&row, &d), id);
	assert_int_equal(calc_step(&plan, &st[1], &d), 0);
	plain = plan;
	plain.schedule = CALC_SCHED_1F1B;
	assert_int_equal(calc_step(&plain, &st[2], &d), 0);
	calc_schedule_unregister_all();

	/* the toy runs one micro-batch at a time: with m = 192 and p = 8, about
	 * 8 x 192 / (192 + 7) = 7.7 times 1F1B's pipeline part */
	assert_true(st[0].makespan > 5 * st[2].makespan);
	assert_true(st[1].makespan == st[2].makespan);
	assert_true(st[1].time == st[2].time);
	free(st);
	calc_diag_free(&d);
}

/* The small model of tests/calc/search.c: 6 layers on 2 nodes x 8 GPUs. */
static const char *const toy_small[] = {
	"model.layers=6",  "model.hidden=512",  "model.heads=8",       "model.kv_heads=4",
	"model.ffn_hidden=2048", "model.vocab=32000", "cluster.nodes=2", "cluster.gpus_per_node=8",
	"parallel.tp=1",   "parallel.pp=1",     "parallel.dp=0",       "training.global_batch=32",
	"training.seq_len=1000", "cluster.gpu_memory=2GB",
	"plan.framework=any", /* every schedule of the table: the brute force walks them all */
};

static void test_toy_schedule(void **state)
{
	struct calc_diag d = {0};
	struct calc_plan plan;
	struct calc_pp_closed cf;
	struct calc_pp_result r;
	struct calc_memory *mem = malloc(sizeof *mem);
	struct calc_search_opts o;
	struct calc_search_result sr;
	enum calc_schedule s;
	const char *sets[2] = {"parallel.schedule=toy", "training.global_batch=1528"};
	char names[256];
	int id, on_toy = 0, k;
	(void)state;

	id = calc_schedule_register(&toy_row, &d);
	assert_int_equal(id, CALC_SCHED_N);
	assert_int_equal(calc_schedule_count(), CALC_SCHED_N + 1);
	assert_true(calc_schedule_register(&toy_row, &d) < 0); /* the name is taken */
	assert_int_equal(calc_schedule_parse("toy", &s), 0);
	assert_int_equal(s, id);
	assert_string_equal(calc_schedule_name(s), "toy");
	assert_non_null(strstr(calc_schedule_names(names, sizeof names, ", "), "dualpipe, toy"));
	for (k = 0; calc_plan_key_at(k); k++) /* `trainplan presets keys` */
		if (!strcmp(calc_plan_key_at(k)->key, "schedule"))
			assert_non_null(strstr(calc_plan_key_at(k)->range, "| dualpipe | toy"));

	/* the closed form and the simulator: p = 4, m = 3 at unit costs (an unsplit backward
	 * of 2): bubble 3 x 3 x 3 = 27, ideal 9, fraction 27/36 = 0.75 */
	calc_pipeline_closed(s, 4, 4, 1, 1, 1, 1, &cf);
	assert_near(cf.bubble, 3 * 4 * 3, 1e-12);
	assert_near(cf.fraction, 36.0 / 48, 1e-12);
	assert_near(cf.inflight_peak, 1, 0);
	for (int p = 1; p <= 6; p++)
		for (int m = 2; m <= 10; m += 2) {
			calc_pipeline_closed(s, p, m, 1, 2, 1.5, 0.5, &cf);
			sim(s, p, m, 1, 2, 1.5, 0.5, &r);
			assert_near(r.period - r.ideal, cf.bubble, 1e-9);
			assert_near(r.makespan, (double)m * p * 4, 1e-9);
			for (int i = 0; i < p; i++)
				assert_near(r.peak_inflight[i], 1, 0);
		}
	{ /* its check: the simulator refuses an odd m with the row's message */
		struct calc_pp_costs c;
		calc_pp_costs_unit(&c, s, 4, 3, 1);
		assert_int_equal(calc_pipeline_simulate(&c, &r, &d), -1);
		assert_non_null(strstr(d.text, "toy: m = 3 must be even"));
		calc_diag_free(&d);
	}

	/* a plan accepts the name (--set schedule=toy); m = 1528 / 8 = 191 is odd: the
	 * plan check reports the row's message */
	assert_int_equal(calc_plan_load(&plan, NULL, sets, 2, &d), -1);
	assert_non_null(strstr(d.text, "toy: m = 191 must be even"));
	calc_diag_free(&d);
	load_plan(&plan, sets, 1);
	assert_int_equal(plan.schedule, s);
	/* the memory engine holds one micro-batch where 1F1B holds p = 8 on stage 0 */
	assert_int_equal(calc_memory(&plan, mem, &d), 0);
	for (int i = 0; i < mem->nstages; i++)
		assert_near(mem->st[i].inflight, 1, 0);
	assert_near(calc_pipeline_inflight(&plan, 0), 1, 0);

	/* the search enumerates it (pp > 1), rejects odd m with its reason and keeps a
	 * "best with toy" axis */
	load_plan(&plan, toy_small, (int)(sizeof toy_small / sizeof toy_small[0]));
	calc_search_opts_init(&o);
	o.keep_all = 1;
	o.recheck = 0;
	o.threads = 1;
	assert_int_equal(calc_search(&plan, &o, &sr, &d), 0);
	for (long long i = 0; i < sr.nrows; i++)
		if (sr.rows[i].c.schedule == (int)s) {
			on_toy++;
			assert_true(sr.rows[i].c.pp > 1);
			assert_int_equal(sr.rows[i].reject == calc_reject_of_schedule(s), sr.rows[i].c.m % 2);
		}
	assert_true(on_toy > 0);
	assert_true(sr.rejected[calc_reject_of_schedule(s)] > 0);
	assert_true(calc_reject_used(calc_reject_of_schedule(s)));
	assert_string_equal(calc_reject_name(calc_reject_of_schedule(s)), "toy-m");
	assert_string_equal(calc_search_axis_name(CALC_AXIS_SCHED0 + s), "best with toy");
	assert_int_equal(calc_search_axis_count(), CALC_AXIS_SCHED0 + CALC_SCHED_N + 1);
	calc_search_free(&sr);

	calc_schedule_unregister_all();
	assert_int_equal(calc_schedule_count(), CALC_SCHED_N);
	assert_int_equal(calc_schedule_parse("toy", &s), -1);
	free(mem);
	calc_diag_free(&d);
}

/* The schedule lists of README.md and plans/default.ini (the "schedule = ..." comment,
 * and any other line naming three or more schedules) name exactly the table's
 * schedules, in its order.  README.md's generated preset lists (between the
 * "<!-- presets: begin" and "<!-- presets: end" lines) are checked by
 * tests/readme-presets.sh against trainplan presets instead. */
static void check_lists(const char *path)
{
	char line[1024], want[256];
	int lists = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("%s: cannot open (run from the source tree)", path);
	calc_schedule_names(want, sizeof want, " | ");
	int generated = 0;
	while (fgets(line, sizeof line, f)) {
		int named = 0;
		char *semi;
		if (!strncmp(line, "<!-- presets: ", 14)) {
			generated = !strncmp(line + 14, "begin", 5);
			continue;
		}
		if (generated)
			continue;
		for (int i = 0; i < calc_schedule_count(); i++) {
			const char *w = calc_schedule_name((enum calc_schedule)i), *q = line;
			size_t n = strlen(w);
			for (; (q = strstr(q, w)); q += n) /* a whole word: not "1f1b" in "zb-h1" */
				if ((q == line || !strchr("abcdefghijklmnopqrstuvwxyz0123456789-", q[-1])) &&
				    !strchr("abcdefghijklmnopqrstuvwxyz0123456789-", q[n] ? q[n] : ' ')) {
					named++;
					break;
				}
		}
		if (named < 3 && !(strncmp(line, "schedule", 8) == 0 && strchr(line, ';')))
			continue;
		lists++;
		semi = strchr(line, ';');
		assert_non_null(semi);
		semi++;
		while (*semi == ' ')
			semi++;
		semi[strcspn(semi, "\r\n")] = 0;
		if (strcmp(semi, want))
			fail_msg("%s: schedule list \"%s\", the table has \"%s\"", path, semi, want);
	}
	fclose(f);
	assert_true(lists >= 1);
}

static void test_readme_lists(void **state)
{
	(void)state;
	check_lists("README.md");
	check_lists("plans/default.ini");
}

/* A plan whose schedules are too large to simulate: calc_pipeline_compare fails with the
 * ops limit and leaves no table behind (check-asan's leak check sees one that it kept).
 * 3 ops x 8 stages x 10^9 micro-batches x 1 chunk x 2 steps = 4.8e10 ops > 2^22. */
static void test_compare_refusal_frees(void **state)
{
	(void)state;
	const char *sets[] = {"global_batch=1000000000", "micro_batch=1", "nodes=1", "gpus_per_node=8",
	                      "tp=1", "pp=8", "dp=1"};
	struct calc_plan plan;
	load_plan(&plan, sets, 7);
	struct calc_table t;
	struct calc_diag d = {0};
	assert_int_equal(calc_pipeline_compare(&plan, &t, "schedule-compare", &d), -1);
	assert_non_null(strstr(d.text, "48000000000 ops: at most 4194304"));
	assert_int_equal(t.nrows, 0);
	assert_null(t.cells);
	calc_diag_free(&d);
}

/* The schedule comparison of a plan whose layout keys place its layers: Llama 3.1 405B
 * (plans/llama3-405b-h100.ini, Llama 3 §3.3.2) runs 126 layers plus the embedding and
 * the loss in p = 16 stages of v = 8 chunks, 128 virtual stages of one; 126 % 128 != 0,
 * yet the interleaved row is the plan's own schedule, not "layers not divisible".  Hand
 * values, Narayanan et al. 2021 §2.2.2 at m = 2048 / (1 x 128) = 16: overhead
 * (p - 1)/(v m) = 15/128, fraction 15/(128 + 15). */
static void test_compare_own_layout(void **state)
{
	(void)state;
	struct calc_plan plan;
	struct calc_diag d = {0};
	struct calc_table t;
	assert_int_equal(calc_plan_load(&plan, "plans/llama3-405b-h100.ini", NULL, 0, &d), 0);
	assert_int_equal(calc_pipeline_compare(&plan, &t, "schedule-compare", &d), 0);
	int row = -1;
	for (int r = 0; r < t.nrows; r++)
		if (!strcmp(t.cells[r * t.ncols].s, "interleaved"))
			row = r;
	assert_true(row >= 0);
	assert_near(t.cells[row * t.ncols + 1].v, 8, 0);
	assert_near(t.cells[row * t.ncols + 2].v, 15.0 / 128, 1e-12);
	assert_near(t.cells[row * t.ncols + 3].v, 15.0 / 143, 1e-12);
	calc_table_free(&t);
	calc_diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_span_same),      cmocka_unit_test(test_span_refuses),
		cmocka_unit_test(test_large_replay_same),
		cmocka_unit_test(test_interleaved_order),
		cmocka_unit_test(test_zbh2_flushed),
		cmocka_unit_test(test_toy_schedule),   cmocka_unit_test(test_gen_overflow),
		cmocka_unit_test(test_memo_generation),
		cmocka_unit_test(test_bad_generators), cmocka_unit_test(test_span_compiles),
		cmocka_unit_test(test_readme_lists),
		cmocka_unit_test(test_closed_forms),   cmocka_unit_test(test_inflight_per_stage),
		cmocka_unit_test(test_grid),           cmocka_unit_test(test_deviations),
		cmocka_unit_test(test_uneven_and_p2p), cmocka_unit_test(test_dependencies),
		cmocka_unit_test(test_memory_hook),    cmocka_unit_test(test_plan_check),
		cmocka_unit_test(test_plan_check_lines),
		cmocka_unit_test(test_gantt_small),    cmocka_unit_test(test_catalog),
		cmocka_unit_test(test_compare_refusal_frees),
		cmocka_unit_test(test_compare_own_layout), cmocka_unit_test(test_replay_same),
		cmocka_unit_test(test_uneven_chunks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
