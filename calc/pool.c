/*
 * pool.c -- a small pool of background threads for work that a caller will ask for
 * later (docs/architecture.md §3, "Threads"): the report queues the searches of its
 * scenarios and the validation rows when it starts, a background thread computes them
 * while the caller goes on, and the caller waits for a job only when it needs its
 * result -- or runs the job itself when no thread has started it yet.
 *
 * A job's result must not depend on which thread runs it or when: the jobs queued are
 * pure functions of their input (a plan, the built-in rows) whose shared caches are
 * guarded where they are written (the simulator's shape cache, the search memos).
 * The threads take the largest job left first, by the estimate each job carries
 * (struct calc_job's cost), so that the last jobs are short and no thread is left
 * waiting at the end for one long job that another started last.  No formulas here.
 */
#include "diag.h"
#include "pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define POOL_MAX_THREADS 16

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static struct calc_job **queue; /* queued jobs, in the order submitted */
static int nqueue, capqueue;
static pthread_t workers[POOL_MAX_THREADS];
static int nworkers, stopping, held; /* held: the workers take no job yet */
static int threads_wanted; /* calc_threads_set; 0: not set */
static int threads_exact;  /* 1: set by calc_threads_set, 0: by calc_threads_default or not */

void calc_threads_set(int n)
{
	threads_wanted = n < 1 ? 1 : n > POOL_MAX_THREADS ? POOL_MAX_THREADS : n;
	threads_exact = 1;
}

void calc_threads_default(int n)
{
	calc_threads_set(n);
	threads_exact = 0;
}

int calc_threads_exact(void)
{
	return threads_exact;
}

int calc_threads_get(void)
{
	return threads_wanted ? threads_wanted : 2;
}

int calc_threads_detect(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 2 ? 2 : (int)n;
}

/* Run job j (state already 1) on this thread and mark it done. */
static void run_job(struct calc_job *j)
{
	j->run(j);
	pthread_mutex_lock(&lock);
	j->state = 2;
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&lock);
}

/* A worker takes the largest job queued (the back of the queue; the job queued last
 * among equals), while the caller runs a job it needs that no thread has started yet
 * itself (calc_pool_wait). */
static void *worker_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	for (;;) {
		while (!stopping && (held || nqueue == 0))
			pthread_cond_wait(&changed, &lock);
		if (stopping)
			break;
		struct calc_job *j = queue[--nqueue];
		j->state = 1;
		pthread_mutex_unlock(&lock);
		run_job(j);
		pthread_mutex_lock(&lock);
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

int calc_pool_start(void)
{
	int n = calc_threads_get() - 1;
	pthread_mutex_lock(&lock);
	stopping = 0;
	held = 1;
	while (nworkers < n) {
		if (pthread_create(&workers[nworkers], NULL, worker_main, NULL) != 0)
			break;
		nworkers++;
	}
	n = nworkers;
	pthread_mutex_unlock(&lock);
	return n;
}

void calc_pool_go(void)
{
	pthread_mutex_lock(&lock);
	held = 0;
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&lock);
}

int calc_pool_active(void)
{
	pthread_mutex_lock(&lock);
	int n = nworkers;
	pthread_mutex_unlock(&lock);
	return n > 0;
}

void calc_pool_submit(struct calc_job *j)
{
	pthread_mutex_lock(&lock);
	j->state = 0;
	if (nqueue == capqueue) {
		capqueue = capqueue * 2 + 16;
		queue = xrealloc(queue, (size_t)capqueue * sizeof *queue);
	}
	/* largest first (longest processing time first: R. L. Graham, "Bounds on
	 * multiprocessing timing anomalies", SIAM J. Appl. Math. 17(2), 1969): the queue
	 * is kept in ascending cost, a job after those of the same cost queued before it,
	 * so that the back, where every thread takes its next job, holds the largest job
	 * left and, among equals, the one queued last */
	int at = nqueue;
	while (at > 0 && queue[at - 1]->cost > j->cost)
		at--;
	for (int k = nqueue; k > at; k--)
		queue[k] = queue[k - 1];
	queue[at] = j;
	nqueue++;
	pthread_cond_signal(&changed);
	pthread_mutex_unlock(&lock);
}

/* Remove j from the queue (the lock held); 1 when it was there. */
static int unqueue(struct calc_job *j)
{
	for (int i = 0; i < nqueue; i++)
		if (queue[i] == j) {
			for (int k = i + 1; k < nqueue; k++)
				queue[k - 1] = queue[k];
			nqueue--;
			return 1;
		}
	return 0;
}

void calc_pool_wait(struct calc_job *j)
{
	pthread_mutex_lock(&lock);
	if (j->state == 0 && unqueue(j)) {
		j->state = 1;
		pthread_mutex_unlock(&lock);
		run_job(j);
		return;
	}
	/* j runs on another thread: meanwhile run the largest job left, as the workers do,
	 * so that the short jobs are left for the end, when they fill the gaps (a caller
	 * that took the short ones first would be left with a long one, or wait on a search
	 * whose memo a long one is still filling) */
	while (j->state == 1) {
		if (nqueue > 0) {
			struct calc_job *k = queue[--nqueue];
			k->state = 1;
			pthread_mutex_unlock(&lock);
			run_job(k);
			pthread_mutex_lock(&lock);
		} else
			pthread_cond_wait(&changed, &lock);
	}
	pthread_mutex_unlock(&lock);
}

void calc_pool_promote(const struct calc_job *j)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < nqueue; i++)
		if (queue[i] == j) {
			struct calc_job *k = queue[i];
			for (int m = i + 1; m < nqueue; m++)
				queue[m - 1] = queue[m];
			queue[nqueue - 1] = k;
			break;
		}
	pthread_mutex_unlock(&lock);
}

int calc_pool_done(const struct calc_job *j)
{
	pthread_mutex_lock(&lock);
	int done = j->state >= 2;
	pthread_mutex_unlock(&lock);
	return done;
}

void calc_pool_stop(void)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < nqueue; i++)
		queue[i]->state = 3; /* never run */
	nqueue = 0;
	stopping = 1;
	pthread_cond_broadcast(&changed);
	int n = nworkers;
	nworkers = 0;
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < n; i++)
		pthread_join(workers[i], NULL);
	pthread_mutex_lock(&lock);
	stopping = held = 0;
	free(queue);
	queue = NULL;
	capqueue = 0;
	pthread_mutex_unlock(&lock);
}
