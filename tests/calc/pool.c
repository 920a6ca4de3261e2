/*
 * tests/calc/pool.c -- the pool of background threads (pool.c) and what is queued on
 * it: every job runs once, the largest queued first, a job nobody started runs on the
 * caller that waits for it, stop drops what is still queued, and a prefetched search
 * and the validation rows give the same numbers as the serial path (the second
 * method: a fresh context on one thread, no pool, no shared memo).
 */
#include "testutil.h"
#include "step.h"
#include "schedules.h"
#include "search.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct count_job {
	struct calc_job job;
	int runs;          /* how often run() was called */
	pthread_t by;      /* the thread of the last run */
};

static void count_run(struct calc_job *j)
{
	struct count_job *c = (struct count_job *)j;
	c->runs++;
	c->by = pthread_self();
}

/* Two threads: every job runs exactly once, whoever takes it, and is done (state 2)
 * once calc_pool_wait returns. */
static void test_pool_runs_once(void **state)
{
	(void)state;
	struct count_job jobs[16];
	calc_threads_set(2);
	assert_int_equal(calc_pool_start(), 1);
	assert_true(calc_pool_active());
	for (int i = 0; i < 16; i++) {
		memset(&jobs[i], 0, sizeof jobs[i]);
		jobs[i].job.run = count_run;
		calc_pool_submit(&jobs[i].job);
	}
	calc_pool_go();
	for (int i = 0; i < 16; i++) {
		calc_pool_wait(&jobs[i].job);
		assert_int_equal(jobs[i].job.state, 2);
	}
	calc_pool_stop();
	assert_false(calc_pool_active());
	for (int i = 0; i < 16; i++)
		assert_int_equal(jobs[i].runs, 1);
}

/* The order jobs start in: a counter every run takes a ticket from. */
static int tickets;
struct order_job {
	struct calc_job job;
	int ticket;
};

static void order_run(struct calc_job *j)
{
	((struct order_job *)j)->ticket = __atomic_fetch_add(&tickets, 1, __ATOMIC_SEQ_CST);
}

/* The pool's thread takes the job queued last first, and a promoted job before it: with
 * a, b, c queued and a promoted, a runs first (unpromoted the thread would start c). */
static void test_pool_promote(void **state)
{
	(void)state;
	struct order_job j[3];
	struct timespec pause = {0, 50 * 1000 * 1000};
	memset(j, 0, sizeof j);
	tickets = 0;
	calc_threads_set(2);
	assert_int_equal(calc_pool_start(), 1);
	for (int i = 0; i < 3; i++) {
		j[i].job.run = order_run;
		calc_pool_submit(&j[i].job);
	}
	calc_pool_promote(&j[0].job);
	calc_pool_go();
	nanosleep(&pause, NULL); /* the thread runs all three meanwhile */
	for (int i = 0; i < 3; i++)
		calc_pool_wait(&j[i].job);
	calc_pool_stop();
	/* first whoever ran it: the thread takes it before c, and a caller that finds it
	 * not started runs it on its first wait */
	assert_int_equal(j[0].ticket, 0);
}

/* Largest first: with jobs of cost 1, 3, 2, 0 and 2 queued, the pool's thread starts
 * the largest (3); this thread, waiting for it, runs the rest largest first -- the 2
 * queued last, the 2 queued first, then 1 and 0 -- and the large one ends only when
 * they have run, so the order cannot depend on the timing.  Unordered (submission
 * order) the thread would start the last queued, a 2. */
static struct order_job big;
static int big_started;
static void big_run(struct calc_job *j)
{
	order_run(j);
	__atomic_store_n(&big_started, 1, __ATOMIC_SEQ_CST);
	struct timespec pause = {0, 1000 * 1000};
	while (__atomic_load_n(&tickets, __ATOMIC_SEQ_CST) < 5)
		nanosleep(&pause, NULL);
}

static void test_pool_largest_first(void **state)
{
	(void)state;
	static const double cost[] = {1, 3, 2, 0, 2};
	struct order_job j[5];
	struct timespec pause = {0, 1000 * 1000};
	memset(j, 0, sizeof j);
	tickets = 0;
	big_started = 0;
	calc_threads_set(2);
	assert_int_equal(calc_pool_start(), 1);
	for (int i = 0; i < 5; i++) {
		struct order_job *o = i == 1 ? &big : &j[i];
		memset(o, 0, sizeof *o);
		o->job.run = i == 1 ? big_run : order_run;
		o->job.cost = cost[i];
		calc_pool_submit(&o->job);
	}
	calc_pool_go();
	while (!__atomic_load_n(&big_started, __ATOMIC_SEQ_CST))
		nanosleep(&pause, NULL);
	calc_pool_wait(&big.job);
	calc_pool_stop();
	assert_int_equal(big.ticket, 0);
	assert_int_equal(j[4].ticket, 1);
	assert_int_equal(j[2].ticket, 2);
	assert_int_equal(j[0].ticket, 3);
	assert_int_equal(j[3].ticket, 4);
}

/* Held threads take nothing: a job waited for runs on the caller; stop drops the rest
 * (state 3, never run). */
static void test_pool_caller_and_stop(void **state)
{
	(void)state;
	struct count_job a = {{count_run, 0, 0}, 0, 0}, b = {{count_run, 0, 0}, 0, 0};
	calc_threads_set(2);
	assert_int_equal(calc_pool_start(), 1);
	calc_pool_submit(&a.job);
	calc_pool_submit(&b.job);
	assert_false(calc_pool_done(&a.job));
	calc_pool_wait(&a.job); /* not released: no thread may have taken it */
	assert_int_equal(a.runs, 1);
	assert_true(pthread_equal(a.by, pthread_self()));
	assert_true(calc_pool_done(&a.job));
	assert_false(calc_pool_done(&b.job));
	calc_pool_stop();
	assert_int_equal(b.job.state, 3);
	assert_int_equal(b.runs, 0);
	assert_true(calc_pool_done(&b.job)); /* dropped: waiting for it returns at once */
}

/* One thread: no pool; queuing functions do nothing and searches run as before. */
static void test_pool_one_thread(void **state)
{
	(void)state;
	calc_threads_set(1);
	assert_int_equal(calc_pool_start(), 0);
	assert_false(calc_pool_active());
	calc_pool_stop();
	calc_threads_set(2);
}

/* The numbers of the search quantities of a plan and of three variants, the first two
 * of which share the plan's memory side (a memo) and the third not. */
static const char *const qnames[] = {
	"search.best.step_time", "search.best.tp",  "search.best.pp",  "search.best.dp",
	"search.best.cp",        "search.ranked",   "search.evaluated", "search.rejected_memory",
	"search.safe.step_time", "search.safe.rank",
};
#define NQ (int)(sizeof qnames / sizeof qnames[0])
static const char *const variants[][1] = {
	{"cluster.inter_node_bw=12.5e9"}, {"efficiency.gemm=0.6"}, {"training.seq_len=4096"},
};
#define NV (int)(sizeof variants / sizeof variants[0])

static void values(struct calc_ctx *c, double *out)
{
	struct calc_diag d = {0};
	for (int i = 0; i < NQ; i++) {
		struct calc_value v = {0};
		assert_int_equal(calc_catalog_get(c, qnames[i], &v, &d), 0);
		out[i] = v.num;
	}
	calc_diag_free(&d);
}

static void test_prefetch_same_numbers(void **state)
{
	(void)state;
	struct calc_plan *plan = malloc(sizeof *plan);
	struct calc_diag d = {0};
	load_plan(plan, NULL, 0);
	double want[NV + 1][NQ], got[NV + 1][NQ];

	/* serial: one thread, a context of its own for every plan */
	calc_threads_set(1);
	for (int k = 0; k <= NV; k++) {
		struct calc_ctx root;
		calc_ctx_init(&root, plan);
		struct calc_ctx *c = k == 0 ? &root : calc_ctx_variant(&root, variants[k - 1], 1, "test", &d);
		assert_non_null(c);
		values(c, want[k]);
		calc_ctx_free(&root);
	}

	/* prefetched: all four queued on two threads first, read in the reverse order */
	calc_threads_set(2);
	struct calc_ctx root;
	calc_ctx_init(&root, plan);
	struct calc_ctx *vc[NV + 1];
	vc[0] = &root;
	for (int k = 1; k <= NV; k++) {
		vc[k] = calc_ctx_variant(&root, variants[k - 1], 1, "test", &d);
		assert_non_null(vc[k]);
	}
	assert_int_equal(calc_pool_start(), 1);
	const struct calc_job *job[NV + 1];
	for (int k = 0; k <= NV; k++) {
		job[k] = calc_ctx_search_prefetch(&root, &vc[k]->plan);
		assert_non_null(job[k]);
	}
	/* a plan queued before: its job again, not a second search */
	for (int k = 0; k <= NV; k++)
		assert_ptr_equal(calc_ctx_search_prefetch(&root, &vc[k]->plan), job[k]);
	calc_pool_go();
	for (int k = NV; k >= 0; k--) {
		values(vc[k], got[k]);
		assert_true(calc_pool_done(job[k])); /* taken: the job stays, done */
	}
	calc_pool_stop();
	calc_ctx_free(&root);
	for (int k = 0; k <= NV; k++)
		for (int i = 0; i < NQ; i++)
			if (memcmp(&want[k][i], &got[k][i], sizeof(double)) != 0) {
				print_error("%s (plan %d): %.17g serial, %.17g prefetched\n", qnames[i], k, want[k][i],
				            got[k][i]);
				fail();
			}
	/* a variant changes the answer: the comparison can tell plans apart */
	assert_true(want[3][0] != want[0][0]);
	calc_diag_free(&d);
	free(plan);
}

/* A `with` variant whose directives read only the fastest configuration and the counts
 * searches for the first configuration alone (opts.top 1, calc_search_name_first): its
 * numbers are those of the search that keeps the recommendation's window, bit for bit --
 * the context that asks search.safe.rank first (the window), against one that asks the
 * first configuration and the counts alone, serially and queued on the pool with first =
 * 1; asking the window afterwards searches again and gives the window's numbers. */
static const char *const first_names[] = {
	"search.best.step_time", "search.best.tp", "search.best.pp", "search.best.dp", "search.best.cp",
	"search.best.micro_batch", "search.best.memory", "search.ranked", "search.evaluated", "search.rejected_memory",
};
#define NF (int)(sizeof first_names / sizeof first_names[0])

static void first_values(struct calc_ctx *c, double *out)
{
	struct calc_diag d = {0};
	for (int i = 0; i < NF; i++) {
		struct calc_value v = {0};
		assert_int_equal(calc_catalog_get(c, first_names[i], &v, &d), 0);
		out[i] = v.num;
	}
	calc_diag_free(&d);
}

static void test_search_first_only(void **state)
{
	(void)state;
	struct calc_plan *plan = malloc(sizeof *plan);
	struct calc_diag d = {0};
	load_plan(plan, NULL, 0);
	for (int i = 0; i < NF; i++)
		assert_true(calc_search_name_first(first_names[i]));
	assert_false(calc_search_name_first("search.safe.tp"));
	assert_false(calc_search_name_first("search.found"));
	assert_false(calc_search_name_first("search.best.step_time_sim"));
	assert_false(calc_search_name_first("search.framework.tp"));
	for (int k = 0; k < NV; k++) {
		double want[NF], first[NF], queued[NF], safe_w, safe_f;
		struct calc_value v = {0};
		/* the window first */
		calc_threads_set(1);
		struct calc_ctx root;
		calc_ctx_init(&root, plan);
		struct calc_ctx *c = calc_ctx_variant(&root, variants[k], 1, "test", &d);
		assert_non_null(c);
		assert_int_equal(calc_catalog_get(c, "search.safe.rank", &v, &d), 0);
		safe_w = v.num;
		first_values(c, want);
		calc_ctx_free(&root);
		/* the first configuration and the counts alone, then the window */
		calc_ctx_init(&root, plan);
		c = calc_ctx_variant(&root, variants[k], 1, "test", &d);
		assert_non_null(c);
		first_values(c, first);
		assert_int_equal(calc_catalog_get(c, "search.safe.rank", &v, &d), 0);
		safe_f = v.num;
		calc_ctx_free(&root);
		/* queued on the pool as a search of the first configuration */
		calc_threads_set(2);
		calc_ctx_init(&root, plan);
		c = calc_ctx_variant(&root, variants[k], 1, "test", &d);
		assert_non_null(c);
		assert_int_equal(calc_pool_start(), 1);
		assert_non_null(calc_ctx_search_prefetch_first(&root, &c->plan, 1, 1));
		calc_pool_go();
		first_values(c, queued);
		calc_pool_stop();
		calc_ctx_free(&root);
		for (int i = 0; i < NF; i++) {
			if (memcmp(&want[i], &first[i], sizeof(double)) || memcmp(&want[i], &queued[i], sizeof(double))) {
				print_error("%s (%s): %.17g with the window, %.17g first only, %.17g queued\n", first_names[i],
				            variants[k][0], want[i], first[i], queued[i]);
				fail();
			}
		}
		assert_memory_equal(&safe_w, &safe_f, sizeof(double));
	}
	calc_diag_free(&d);
	free(plan);
}

/* search.fits is search.found > 0 read of the fastest configuration alone: a variant
 * asked it first searches for that configuration alone, without the window (opts.top 1,
 * no counts: calc_search_name_first, not calc_search_name_counts).  Compared, for the
 * chapters' longer sequences (4,096 and 8,192 tokens: configurations fit) and one so long
 * that none fits (16,777,216: trainplan get's golden get-search-found-none, found 0),
 * with the window's route (a context asked search.found first, which keeps the
 * recommendation's window) and with the queued route (the pool's job with first = 1 and
 * counts = 0, as the report queues the sequence rows of the sensitivity table); and,
 * by a second method, with calc_search of the variant's plan with every leaf counted
 * (fits = 1 iff ranked > 0: the top is exact, search.h).  The fastest's step time is the
 * same bits on every route, and search.found asked after search.fits is the window's. */
static void test_search_fits(void **state)
{
	(void)state;
	static const char *const seq[][1] = {
		{"training.seq_len=4096"}, {"training.seq_len=8192"}, {"training.seq_len=16777216"}};
	struct calc_plan *plan = malloc(sizeof *plan);
	struct calc_diag d = {0};
	load_plan(plan, NULL, 0);
	assert_true(calc_search_name_first("search.fits"));
	assert_false(calc_search_name_counts("search.fits"));
	for (int k = 0; k < 3; k++) {
		struct calc_value v = {0};
		double found_w, fits_f, found_f, fits_q, best_w = NAN, best_f = NAN, best_q = NAN;
		calc_threads_set(1);
		/* the window's route: the root searched first (its top seeds the variant's) */
		struct calc_ctx root;
		calc_ctx_init(&root, plan);
		assert_int_equal(calc_catalog_get(&root, "search.best.tp", &v, &d), 0);
		struct calc_ctx *c = calc_ctx_variant(&root, seq[k], 1, "test", &d);
		assert_non_null(c);
		assert_int_equal(calc_catalog_get(c, "search.found", &v, &d), 0);
		found_w = v.num;
		if (found_w > 0) {
			assert_int_equal(calc_catalog_get(c, "search.best.step_time", &v, &d), 0);
			best_w = v.num;
		}
		/* the second method: every leaf counted, the plain options */
		struct calc_search_opts o;
		struct calc_search_result full;
		calc_search_opts_init(&o);
		o.recheck = 0;
		o.threads = 1;
		assert_int_equal(calc_search(&c->plan, &o, &full, &d), 0);
		assert_true((found_w > 0) == (full.ranked > 0));
		if (full.ranked > 0)
			assert_memory_equal(&best_w, &full.top[0].r.step_time, sizeof(double));
		calc_search_free(&full);
		calc_ctx_free(&root);
		/* search.fits first: the fastest alone, then the window when found is asked */
		calc_ctx_init(&root, plan);
		assert_int_equal(calc_catalog_get(&root, "search.best.tp", &v, &d), 0);
		c = calc_ctx_variant(&root, seq[k], 1, "test", &d);
		assert_non_null(c);
		assert_int_equal(calc_catalog_get(c, "search.fits", &v, &d), 0);
		fits_f = v.num;
		if (fits_f > 0) {
			assert_int_equal(calc_catalog_get(c, "search.best.step_time", &v, &d), 0);
			best_f = v.num;
		}
		assert_int_equal(calc_catalog_get(c, "search.found", &v, &d), 0);
		found_f = v.num;
		calc_ctx_free(&root);
		/* queued on the pool as the report queues it */
		calc_threads_set(2);
		calc_ctx_init(&root, plan);
		c = calc_ctx_variant(&root, seq[k], 1, "test", &d);
		assert_non_null(c);
		assert_int_equal(calc_pool_start(), 1);
		assert_non_null(calc_ctx_search_prefetch_first(&root, &c->plan, 0, 1));
		calc_pool_go();
		assert_int_equal(calc_catalog_get(c, "search.fits", &v, &d), 0);
		fits_q = v.num;
		if (fits_q > 0) {
			assert_int_equal(calc_catalog_get(c, "search.best.step_time", &v, &d), 0);
			best_q = v.num;
		}
		calc_pool_stop();
		calc_ctx_free(&root);
		assert_true(fits_f == (found_w > 0 ? 1 : 0));
		assert_true(fits_q == fits_f);
		assert_true(found_f == found_w);
		assert_true(k < 2 ? fits_f == 1 : fits_f == 0); /* the two fit, the last does not */
		if (fits_f > 0) {
			assert_memory_equal(&best_w, &best_f, sizeof(double));
			assert_memory_equal(&best_w, &best_q, sizeof(double));
		}
	}
	calc_diag_free(&d);
	free(plan);
}

/* The validation rows computed in parts on the pool's thread and this one give the
 * numbers and the table of `trainplan validate`'s serial run: calc_validate in this
 * thread.  Where the rows computed when trainplan was built hold (the built-in schedule
 * table), nothing is queued; another schedule table (calc_schedule_unregister_all moves
 * its generation) has the rows run, and queued. */
static void test_validate_prefetch(void **state)
{
	(void)state;
	static const char *const names[] = {"validation.rows", "validation.within_15", "validation.mean_abs_error",
	                                    "validation.max_abs_error", "validation.nofit"};
	struct calc_plan *plan = malloc(sizeof *plan);
	struct calc_diag d = {0};
	load_plan(plan, NULL, 0);
	struct calc_validation serial;
	struct calc_table t;
	assert_int_equal(calc_validate(NULL, 0, &t, &serial, &d), 0);
	calc_threads_set(2);
	assert_int_equal(calc_pool_start(), 1);
	const struct calc_job *job[CALC_VALIDATE_JOBS], *again[CALC_VALIDATE_JOBS];
	struct calc_validate_res built;
	if (calc_validate_row_built(0, &built) >= 0) { /* a build with the table */
		assert_int_equal(calc_validate_prefetch(job), 0);
		calc_schedule_unregister_all(); /* another generation: the rows are run */
	}
	assert_int_equal(calc_validate_prefetch(job), CALC_VALIDATE_JOBS);
	assert_int_equal(calc_validate_prefetch(again), CALC_VALIDATE_JOBS);
	for (int k = 0; k < CALC_VALIDATE_JOBS; k++)
		assert_ptr_equal(again[k], job[k]); /* queued once */
	calc_pool_go();
	struct calc_ctx c;
	calc_ctx_init(&c, plan);
	double want[] = {serial.rows, serial.within, serial.mean_abs, serial.max_abs, serial.nofit};
	for (int i = 0; i < 5; i++) {
		struct calc_value v = {0};
		assert_int_equal(calc_catalog_get(&c, names[i], &v, &d), 0);
		assert_memory_equal(&v.num, &want[i], sizeof(double));
	}
	/* the table assembled from the parts, cell by cell, as the serial run's */
	struct calc_table got;
	assert_int_equal(calc_catalog_build(&c, "validation", 0, NULL, &got, &d), 0);
	assert_int_equal(got.nrows, t.nrows);
	assert_int_equal(got.ncols, t.ncols);
	for (int i = 0; i < t.nrows * t.ncols; i++) {
		if (t.cells[i].s || got.cells[i].s)
			assert_string_equal(got.cells[i].s, t.cells[i].s);
		else
			assert_memory_equal(&got.cells[i].v, &t.cells[i].v, sizeof(double));
	}
	calc_table_free(&got);
	calc_table_free(&t);
	calc_pool_stop();
	calc_ctx_free(&c);
	calc_diag_free(&d);
	free(plan);
}

/* The bandwidth searches queued on the pool's thread (calc_network_prefetch) give the
 * numbers and the sweep table of the same context evaluated without a pool; the
 * lever's bandwidth differs from the crossover's, so a mix-up of the cache would show. */
static void test_network_prefetch(void **state)
{
	(void)state;
	static const char *const names[] = {"network.crossover_bw", "network.bf16_reduce_bw",
	                                    "network.dp_overlap_bw", "network.deeper_step_time"};
	struct calc_plan *plan = malloc(sizeof *plan);
	struct calc_diag d = {0};
	load_plan(plan, NULL, 0);
	double want[4], got[4];
	struct calc_table tw, tg;
	struct calc_ctx c;
	calc_ctx_init(&c, plan);
	for (int i = 0; i < 4; i++) {
		struct calc_value v = {0};
		assert_int_equal(calc_catalog_get(&c, names[i], &v, &d), 0);
		want[i] = v.num;
	}
	assert_int_equal(calc_catalog_build(&c, "network-sweep", 0, NULL, &tw, &d), 0);
	calc_ctx_free(&c);
	assert_null(calc_network_prefetch(&c, "network.crossover_bw")); /* no pool */
	calc_threads_set(2);
	assert_int_equal(calc_pool_start(), 1);
	calc_ctx_init(&c, plan);
	const struct calc_job *j[4];
	for (int i = 0; i < 3; i++)
		assert_non_null(j[i] = calc_network_prefetch(&c, names[i]));
	assert_non_null(j[3] = calc_network_prefetch(&c, "network-sweep"));
	assert_ptr_equal(calc_network_prefetch(&c, names[0]), j[0]); /* queued once */
	assert_null(calc_network_prefetch(&c, names[3])); /* one point: not queued */
	calc_pool_go();
	for (int i = 0; i < 4; i++) {
		struct calc_value v = {0};
		assert_int_equal(calc_catalog_get(&c, names[i], &v, &d), 0);
		got[i] = v.num;
	}
	assert_int_equal(calc_catalog_build(&c, "network-sweep", 0, NULL, &tg, &d), 0);
	for (int i = 0; i < 4; i++)
		assert_true(calc_pool_done(j[i]));
	calc_pool_stop();
	calc_ctx_free(&c);
	for (int i = 0; i < 4; i++)
		assert_memory_equal(&got[i], &want[i], sizeof(double));
	assert_true(want[0] != want[1]);
	assert_int_equal(tg.nrows, tw.nrows);
	for (int i = 0; i < tw.nrows * tw.ncols; i++)
		assert_memory_equal(&tg.cells[i].v, &tw.cells[i].v, sizeof(double));
	calc_table_free(&tw);
	calc_table_free(&tg);
	calc_diag_free(&d);
	free(plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_runs_once),       cmocka_unit_test(test_pool_caller_and_stop),
		cmocka_unit_test(test_pool_promote),         cmocka_unit_test(test_pool_largest_first),
		cmocka_unit_test(test_pool_one_thread),      cmocka_unit_test(test_prefetch_same_numbers),
		cmocka_unit_test(test_validate_prefetch),    cmocka_unit_test(test_network_prefetch),
		cmocka_unit_test(test_search_first_only),    cmocka_unit_test(test_search_fits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
