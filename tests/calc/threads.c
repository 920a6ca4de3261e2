/*
 * tests/calc/threads.c -- the library's texts that are built when first asked for
 * (calc/plan.c: the key table's ranges and the keys' full names for "did you mean";
 * calc/search.c: the vpp reject's rule and the schedules' axis names; calc/format.c:
 * the prose units' names) asked for by two threads at once, as the report's pool and
 * a search's threads do.  Each thread checks every text against the value written out
 * here by hand, or, for the schedules, made here from the rows of the schedule table
 * before the threads start (so that a new row needs no edit here): a text being
 * written by one thread while the other reads it shows as a wrong text.  `make check-tsan` runs this program
 * under ThreadSanitizer, which reports such a write even when the text comes out right.
 */
#include "testutil.h"
#include "format.h"
#include "search.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { ROUNDS = 200 };

/* The schedule table's rows' names in order and parallel.schedule's range made of them
 * ("gpipe | 1f1b | ..."), filled by fill_schedules before the threads start. */
static const char *sched_names[CALC_SCHED_N];
static char sched_range[512];
#define NSCHED CALC_SCHED_N

static void fill_schedules(void)
{
	size_t n = 0;
	for (int i = 0; i < NSCHED; i++) {
		sched_names[i] = calc_schedule_at(i)->name;
		n += (size_t)snprintf(sched_range + n, sizeof sched_range - n, "%s%s", i ? " | " : "", sched_names[i]);
	}
}

static pthread_barrier_t start;

struct worker {
	int wrong;          /* texts that differed from the expected ones */
	char first[256];    /* the first of them */
};

static void note(struct worker *w, const char *what, const char *got)
{
	if (!w->wrong++)
		snprintf(w->first, sizeof w->first, "%s: '%s'", what, got ? got : "(null)");
}

static void *work(void *arg)
{
	struct worker *w = arg;
	pthread_barrier_wait(&start);
	for (int round = 0; round < ROUNDS; round++) {
		const char *s;
		int nkeys = 0, nsched = 0;
		/* calc/plan.c key_infos: parallel.schedule's range names the table's rows */
		for (int i = 0; calc_plan_key_at(i); i++, nkeys++) {
			const struct calc_key_info *k = calc_plan_key_at(i);
			if (!k->range || !k->range[0])
				note(w, "empty range", k->key);
			if (!strcmp(k->section, "parallel") && !strcmp(k->key, "schedule")) {
				nsched++;
				if (strcmp(k->range, sched_range))
					note(w, "parallel.schedule range", k->range);
			}
		}
		if (nkeys < 50 || nsched != 1)
			note(w, "key table", "too short");
		/* calc/search.c: interleaved is the table's only row with virtual stages */
		s = calc_reject_desc(CALC_REJ_VPP);
		if (strcmp(s, "interleaved: the layers of a stage are not divisible by vpp"))
			note(w, "vpp reject", s);
		for (int i = 0; i < NSCHED; i++) {
			char want[64];
			snprintf(want, sizeof want, "best with %s", sched_names[i]);
			s = calc_search_axis_name(CALC_AXIS_SCHED0 + i);
			if (strcmp(s, want))
				note(w, "axis name", s);
		}
		/* calc/format.c displays[]: the units with prose = 1, in order, "" left out */
		s = calc_display_prose_names();
		if (strcmp(s, "GB GiB TB MB % ms s days x int billion count"))
			note(w, "prose units", s);
		/* calc/plan.c key_suggest: a misspelt key (tests/bad/typo-set-key.err) */
		if (round % 20 == 0) {
			const char *sets[] = {"parallel.ppp=4"};
			struct calc_plan plan;
			struct calc_diag d = {0};
			if (calc_plan_load(&plan, NULL, sets, 1, &d) != -1 || !d.text ||
			    !strstr(d.text, "unknown key 'parallel.ppp'") || !strstr(d.text, "did you mean 'parallel.pp'?"))
				note(w, "did you mean", d.text);
			calc_diag_free(&d);
		}
	}
	return NULL;
}

static void test_two_threads(void **state)
{
	struct worker w[2];
	pthread_t t[2];
	(void)state;
	fill_schedules(); /* before the threads: they only read it */
	memset(w, 0, sizeof w);
	assert_int_equal(pthread_barrier_init(&start, NULL, 2), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	pthread_barrier_destroy(&start);
	for (int i = 0; i < 2; i++) {
		if (w[i].wrong)
			print_error("thread %d: %d wrong texts, the first %s\n", i, w[i].wrong, w[i].first);
		assert_int_equal(w[i].wrong, 0);
	}
}

/* The schedule table as the texts' expected values read it: its built-in rows only
 * (nothing registered) and parallel.schedule's range their names. */
static void test_table(void **state)
{
	(void)state;
	fill_schedules();
	assert_int_equal(calc_schedule_count(), NSCHED);
	for (int i = 0; i < NSCHED; i++)
		assert_string_equal(calc_schedule_name((enum calc_schedule)i), sched_names[i]);
	assert_non_null(strstr(sched_range, "1f1b | interleaved"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_two_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
