/*
 * tests/calc/catalog.c -- the catalog's namespace and its per-context value cache
 * (calc/catalog.c).
 *
 * Lookup is checked against a second method, a plain scan over the entries by
 * position; cached values against the engine called directly on the same plan; cached
 * failures against the diagnostic of the first evaluation.
 */
#include "testutil.h"
#include "search.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* First position whose name is 'name', by a linear scan; -1 when none. */
static int scan_quantity(const char *name)
{
	const struct calc_quantity *q;
	for (int i = 0; (q = calc_catalog_quantity_at(i)); i++)
		if (!strcmp(q->name, name))
			return i;
	return -1;
}

static void test_lookup_agrees_with_scan(void **state)
{
	const struct calc_quantity *q;
	const struct calc_tabledef *t;
	int n = 0;
	for (int i = 0; (q = calc_catalog_quantity_at(i)); i++, n++) {
		const struct calc_quantity *found = calc_catalog_quantity(q->name);
		assert_non_null(found);
		assert_ptr_equal(found, calc_catalog_quantity_at(scan_quantity(q->name)));
	}
	assert_true(n > 100); /* plan inputs, engines, report: far more than a hundred */
	for (int i = 0; (t = calc_catalog_table_at(i)); i++) {
		const struct calc_tabledef *f = calc_catalog_table(t->name);
		assert_non_null(f);
		assert_string_equal(f->name, t->name);
		for (int j = 0; j < i; j++) /* the first of equal names wins */
			if (!strcmp(calc_catalog_table_at(j)->name, t->name)) {
				assert_ptr_equal(f, calc_catalog_table_at(j));
				break;
			}
	}
	for (int i = 0; (t = calc_catalog_dataset_at(i)); i++)
		assert_string_equal(calc_catalog_dataset(t->name)->name, t->name);
	assert_null(calc_catalog_quantity("memory.totall"));
	assert_null(calc_catalog_quantity(""));
	assert_null(calc_catalog_quantity("zzz.after.everything"));
	assert_null(calc_catalog_quantity("a.before.everything"));
	assert_null(calc_catalog_table("memory-stage"));
	assert_null(calc_catalog_dataset("no-such-dataset"));
	assert_null(calc_catalog_quantity_at(-1));
	assert_null(calc_catalog_quantity_at(n));
}

/*
 * Every name of the catalog names one entry: a quantity, table or dataset defined in
 * two modules' arrays would be shadowed by the first (the index's lookup takes the
 * lowest position), its own definition never reached.  Checked by a second method, a
 * pairwise scan over the positions, within each kind.
 */
static void test_names_unique(void **state)
{
	const struct calc_quantity *q, *q2;
	const struct calc_tabledef *t, *t2;
	int dups = 0;
	(void)state;
	for (int i = 0; (q = calc_catalog_quantity_at(i)); i++)
		for (int j = 0; j < i && (q2 = calc_catalog_quantity_at(j)); j++)
			if (!strcmp(q->name, q2->name)) {
				print_error("quantity %s is defined twice (positions %d and %d)\n", q->name, j, i);
				dups++;
			}
	for (int i = 0; (t = calc_catalog_table_at(i)); i++)
		for (int j = 0; j < i && (t2 = calc_catalog_table_at(j)); j++)
			if (!strcmp(t->name, t2->name)) {
				print_error("table %s is defined twice (positions %d and %d)\n", t->name, j, i);
				dups++;
			}
	for (int i = 0; (t = calc_catalog_dataset_at(i)); i++)
		for (int j = 0; j < i && (t2 = calc_catalog_dataset_at(j)); j++)
			if (!strcmp(t->name, t2->name)) {
				print_error("dataset %s is defined twice (positions %d and %d)\n", t->name, j, i);
				dups++;
			}
	assert_int_equal(dups, 0);
}

/*
 * The search-pareto dataset's rows (calc_search_pareto_sample): every frontier row, at
 * most 600 of the other rows within 1.5 times the best step time and 300 beyond, each
 * every k-th in order.  A made-up result of 10,000 rows: rows i % 200 == 0 on the
 * frontier at the best time 1.0 (50 rows); of the others i % 4 == 1 at 1.4 (near:
 * 2,500 rows), the rest at 2.0 (far: 7,450 rows).  By hand: near stride
 * ceil(2500 / 600) = 5 keeps 2500 / 5 = 500; far stride ceil(7450 / 300) = 25 keeps
 * 7450 / 25 = 298; 50 + 500 + 298 = 848 rows.  A result of 100 rows keeps them all.
 */
static void test_pareto_sample(void **state)
{
	enum { N = 10000 };
	struct calc_search_point *pts = calloc(N, sizeof *pts);
	char *frontier = calloc(N, 1), *keep = calloc(N, 1), *again = calloc(N, 1);
	long long near = 0, far = 0, front = 0;
	(void)state;
	for (int i = 0; i < N; i++) {
		frontier[i] = i % 200 == 0;
		pts[i].memory = 1e9 + i;
		pts[i].step_time = frontier[i] ? 1.0 : i % 4 == 1 ? 1.4 : 2.0;
		pts[i].key = i;
	}
	assert_int_equal(calc_search_pareto_sample(pts, frontier, N, keep), 848);
	for (int i = 0; i < N; i++) {
		if (frontier[i])
			front += keep[i];
		else if (i % 4 == 1)
			near += keep[i];
		else
			far += keep[i];
	}
	assert_int_equal(front, 50);
	assert_int_equal(near, 500);
	assert_int_equal(far, 298);
	assert_true(keep[1] && !keep[5] && !keep[17] && keep[21]); /* near rows 1, 5, ..., 21: every 5th */
	assert_int_equal(calc_search_pareto_sample(pts, frontier, N, again), 848);
	assert_memory_equal(keep, again, N);
	assert_int_equal(calc_search_pareto_sample(pts, frontier, 100, keep), 100);
	free(pts);
	free(frontier);
	free(keep);
	free(again);
}

/* Lookups from several threads at once, the first ones building the index. */
static void *lookup_worker(void *arg)
{
	long bad = 0;
	const struct calc_quantity *q;
	(void)arg;
	for (int r = 0; r < 20; r++)
		for (int i = 0; (q = calc_catalog_quantity_at(i)); i++)
			bad += calc_catalog_quantity(q->name) == NULL;
	return (void *)bad;
}

static void test_lookup_threads(void **state)
{
	pthread_t th[4];
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&th[i], NULL, lookup_worker, NULL), 0);
	for (int i = 0; i < 4; i++) {
		void *bad;
		assert_int_equal(pthread_join(th[i], &bad), 0);
		assert_true(bad == NULL);
	}
}

/* A cached value is the engine's value, and stays it on every use. */
static void test_value_cache(void **state)
{
	struct calc_plan *p = malloc(sizeof *p);
	struct calc_memory *m = malloc(sizeof *m);
	struct calc_diag d = {0};
	struct calc_ctx c;
	struct calc_value v1, v2;

	load_plan(p, NULL, 0);
	assert_int_equal(calc_memory(p, m, &d), 0);
	calc_ctx_init(&c, p);
	assert_int_equal(c.nval, 0);
	assert_int_equal(calc_catalog_get(&c, "memory.total", &v1, &d), 0);
	assert_true(c.nval > 0);
	assert_int_equal(calc_catalog_get(&c, "memory.total", &v2, &d), 0);
	assert_true(v1.num == m->st[m->worst].total);
	assert_true(v2.num == v1.num);
	assert_null(v2.str);
	assert_int_equal(calc_catalog_get(&c, "plan.schedule", &v1, &d), 0);
	assert_int_equal(calc_catalog_get(&c, "plan.schedule", &v2, &d), 0);
	assert_string_equal(v1.str, calc_schedule_name(p->schedule));
	assert_ptr_equal(v1.str, v2.str);
	assert_null(d.text);
	calc_ctx_free(&c);
	free(m);
	free(p);
}

/* A failure is cached with its diagnostic: the second use says what the first said. */
static void test_error_cache(void **state)
{
	static const char *const sets[] = {"training.recipe=seed"};
	struct calc_plan *p = malloc(sizeof *p);
	struct calc_diag d1 = {0}, d2 = {0};
	struct calc_ctx c;
	struct calc_value v;

	load_plan(p, sets, 1);
	calc_ctx_init(&c, p);
	assert_int_equal(calc_catalog_get(&c, "step.time", &v, &d1), -1);
	assert_int_equal(calc_catalog_get(&c, "step.time", &v, &d2), -1);
	assert_non_null(d1.text);
	assert_non_null(strstr(d1.text, "holds no gradients"));
	assert_int_equal(d1.nerrors, 1);
	assert_string_equal(d2.text, d1.text);
	assert_int_equal(d2.nerrors, d1.nerrors);
	/* a quantity that needs no step still works in the same context */
	calc_diag_free(&d2);
	assert_int_equal(calc_catalog_get(&c, "plan.tp", &v, &d2), 0);
	assert_true(v.num == p->tp);
	calc_diag_free(&d1);
	calc_diag_free(&d2);
	calc_ctx_free(&c);
	free(p);
}

/* An unknown name is an error naming it, and does not touch the cache. */
static void test_unknown(void **state)
{
	struct calc_plan *p = malloc(sizeof *p);
	struct calc_diag d = {0};
	struct calc_ctx c;
	struct calc_value v;

	load_plan(p, NULL, 0);
	calc_ctx_init(&c, p);
	assert_int_equal(calc_catalog_get(&c, "memory.totall", &v, &d), -1);
	assert_non_null(strstr(d.text, "unknown quantity 'memory.totall'"));
	assert_non_null(strstr(d.text, "memory.total"));
	assert_int_equal(c.nval, 0);
	calc_diag_free(&d);
	calc_ctx_free(&c);
	free(p);
}

/* model-params for an MoE model sums every kind of layer: DeepSeek-V3's parts add up to
 * its total, and its routed experts are 58 MoE layers x 256 x 3 x 7168 x 2048 =
 * 653,908,770,816 parameters (DeepSeek-V3 §4.2 shapes, by hand). */
static void test_model_params_moe(void **state)
{
	const char *sets[] = {"model.preset=deepseek-v3", "parallel.tp=1", "parallel.pp=1", "parallel.dp=0",
	                      "parallel.ep=64", "cluster.nodes=8"};
	struct calc_plan p;
	struct calc_ctx c;
	struct calc_table t;
	struct calc_args a = {0};
	struct calc_diag d = {0};
	double sum = 0, total = 0, experts = 0;
	(void)state;

	load_plan(&p, sets, 6);
	calc_ctx_init(&c, &p);
	assert_int_equal(calc_catalog_build(&c, "model-params", 0, &a, &t, &d), 0);
	for (int r = 0; r < t.nrows; r++) {
		const char *name = t.cells[r * t.ncols].s;
		double v = t.cells[r * t.ncols + 1].v;
		if (!strcmp(name, "total"))
			total = v;
		else if (!strcmp(name, "of the MLP, routed experts"))
			experts = v;
		else
			sum += v;
	}
	assert_near(sum, total, 1e-12);
	assert_near(experts, 58 * 256 * 3 * 7168.0 * 2048, 1e-12);
	calc_table_free(&t);
	calc_ctx_free(&c);
	calc_diag_free(&d);
}

/* JSON writes a value in days in seconds, under a key that says time: examples worked
 * by hand, then every catalog quantity in days against the quantity its JSON key
 * names, which must be in seconds and hold 86400 times the value. */
static void test_json_days_keys(void **state)
{
	static const char *const cases[][3] = {
		{"run.days", "days", "run.time"},
		{"run.effective_days", "days", "run.effective_time"},
		{"days", "days", "time"},
		{"effective_days", "days", "effective_time"},
		{"failure_free_days", "days", "failure_free_time"},
		{"run", "days", "run_time"},
		{"holidays", "days", "holidays_time"},     /* "days" inside a word is not the word */
		{"days_a.days_b", "days", "days_a.time_b"}, /* the last word */
		{"run.days", "s", "run.days"},              /* other units: the key as it is */
		{"memory_per_gpu", "B", "memory_per_gpu"},
		{"run.days", "", "run.days"},
	};
	struct calc_plan *p = malloc(sizeof *p);
	const struct calc_quantity *q;
	struct calc_diag d = {0};
	struct calc_ctx c;
	char buf[64];
	int n = 0;
	(void)state;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_string_equal(calc_json_time_key(cases[i][0], cases[i][1], buf, sizeof buf), cases[i][2]);
	assert_string_equal(calc_json_time_key("run.days", "days", buf, 6), "run.t"); /* truncated */

	load_plan(p, NULL, 0);
	calc_ctx_init(&c, p);
	for (int i = 0; (q = calc_catalog_quantity_at(i)); i++) {
		struct calc_value vd, vs;
		const struct calc_quantity *twin;
		if (strcmp(q->unit, "days"))
			continue;
		n++;
		calc_json_time_key(q->name, q->unit, buf, sizeof buf);
		twin = calc_catalog_quantity(buf);
		if (!twin)
			print_error("%s is written as %s, which is no catalog quantity\n", q->name, buf);
		assert_non_null(twin);
		assert_string_equal(twin->unit, "s");
		assert_int_equal(calc_catalog_get(&c, q->name, &vd, &d), 0);
		assert_int_equal(calc_catalog_get(&c, twin->name, &vs, &d), 0);
		assert_true(vd.num > 0);
		assert_near(vs.num, vd.num * 86400, 1e-12);
	}
	assert_true(n >= 2); /* run.days and run.effective_days */
	calc_ctx_free(&c);
	free(p);
}

/* Column 'name' of table 't'; fails the test when there is none. */
static int col_of(const struct calc_table *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i].name, name))
			return i;
	fail_msg("no column %s in %s", name, t->name);
	return -1;
}

static double q_num(struct calc_ctx *c, const char *name)
{
	struct calc_value v;
	struct calc_diag d = {0};
	assert_int_equal(calc_catalog_get(c, name, &v, &d), 0);
	return v.num;
}

/* step-timeline: the compute stream's segments follow one another and add up to the
 * step time, computed a second way as the sum of the six catalog parts of the step
 * (step.compute + step.recompute + step.tp_comm + step.bubble_time + step.dp_exposed +
 * step.optimizer); each communication stream's exposed and hidden parts add up to its
 * collectives' time per step (comm.dp.time; comm.tp.time with tp_overlap hiding a
 * share).  Plans: the default, and one with full recomputation, TP overlap, ZeRO-1 and
 * interleaving, so that every kind of segment occurs.  With tp_overlap 0.5 half of every
 * TP collective is exposed and half hidden, and hiding costs the GEMMs c / S of the hidden
 * half (docs/references.md §4.8): c = 8.5 SMs (efficiency.tp_overlap_sms' default), S =
 * 132 (H100 SXM datasheet), drawn as the compute stream's "overlap cost"; the default
 * plan (all layers alike, so comm.tp.time is the critical stage's) has no CP. */
static void test_step_timeline(void **state)
{
	static const char *const sets[] = {"parallel.recompute=full", "efficiency.tp_overlap=0.5",
	                                   "parallel.schedule=interleaved", "parallel.vpp=2"};
	for (int k = 0; k < 2; k++) {
		struct calc_plan *p = malloc(sizeof *p);
		struct calc_ctx c;
		struct calc_table t;
		struct calc_args a = {0};
		struct calc_diag d = {0};
		double x = 0, sum = 0, parts, dp = 0, tp = 0, dpw = 0, tpw = 0, last_end = 0, ovc = 0, tph = 0;
		int cs, cseg, ca, cb, cdur, n = 0;

		load_plan(p, sets, k ? 4 : 0);
		calc_ctx_init(&c, p);
		assert_int_equal(calc_catalog_build(&c, "step-timeline", 1, &a, &t, &d), 0);
		cs = col_of(&t, "stream");
		cseg = col_of(&t, "segment");
		ca = col_of(&t, "start");
		cb = col_of(&t, "end");
		cdur = col_of(&t, "duration");
		for (int r = 0; r < t.nrows; r++) {
			const struct calc_cell *row = &t.cells[r * t.ncols];
			assert_true(row[cb].v > row[ca].v);
			assert_near(row[cdur].v, row[cb].v - row[ca].v, 1e-12);
			if (row[cs].v == 0) {
				assert_near(row[ca].v, x, 1e-12); /* end to end, no gap */
				x = row[cb].v;
				sum += row[cdur].v;
				last_end = row[cb].v;
				n++;
				if (!strcmp(row[cseg].s, "DP wait"))
					dpw += row[cdur].v;
				if (!strcmp(row[cseg].s, "TP/CP wait"))
					tpw += row[cdur].v;
				if (!strcmp(row[cseg].s, "overlap cost"))
					ovc += row[cdur].v;
			} else if (row[cs].v == 1) {
				tp += row[cdur].v;
				if (!strcmp(row[cseg].s, "hidden"))
					tph += row[cdur].v;
			} else if (row[cs].v == 3) {
				dp += row[cdur].v;
			}
		}
		parts = q_num(&c, "step.compute") + q_num(&c, "step.recompute") + q_num(&c, "step.tp_comm") +
		        q_num(&c, "step.bubble_time") + q_num(&c, "step.dp_exposed") + q_num(&c, "step.optimizer");
		assert_true(n >= 5);
		assert_near(sum, q_num(&c, "step.time"), 1e-9 * q_num(&c, "step.time"));
		assert_near(sum, parts, 1e-9 * parts);
		assert_near(last_end, q_num(&c, "step.time"), 1e-9 * parts);
		assert_near(dpw, q_num(&c, "step.dp_exposed"), 1e-12);
		assert_near(tpw + ovc, q_num(&c, "step.tp_comm"), 1e-12);
		assert_near(ovc, q_num(&c, "step.tp_overlap_cost"), 1e-12);
		assert_near(dp, q_num(&c, "comm.dp.time"), 1e-12);
		/* TP with half the collectives hidden: exposed and hidden make the whole */
		assert_near(tp, q_num(&c, "comm.tp.time"), 1e-9 * q_num(&c, "comm.tp.time"));
		if (k) {
			double C = q_num(&c, "comm.tp.time");
			assert_true(q_num(&c, "step.recompute") > 0);
			assert_near(tpw, 0.5 * C, 1e-9);
			assert_near(tph, 0.5 * C, 1e-9);
			assert_near(ovc, 0.5 * C * 8.5 / 132, 1e-9);
		} else
			assert_true(ovc == 0 && tph == 0);
		calc_table_free(&t);
		calc_ctx_free(&c);
		calc_diag_free(&d);
		free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup_threads), /* first: threads race to build the index */
		cmocka_unit_test(test_lookup_agrees_with_scan),
		cmocka_unit_test(test_names_unique),
		cmocka_unit_test(test_pareto_sample),
		cmocka_unit_test(test_value_cache),
		cmocka_unit_test(test_error_cache),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_model_params_moe),
		cmocka_unit_test(test_json_days_keys),
		cmocka_unit_test(test_step_timeline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
