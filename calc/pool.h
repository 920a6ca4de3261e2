/*
 * pool.h -- the library's threads and its job pool (pool.c).
 */
#ifndef CALC_POOL_H
#define CALC_POOL_H

/*
 * Threads (pool.c; docs/architecture.md §3).  A job is work queued for a background
 * thread whose result a caller asks for later; its result does not depend on the thread
 * that runs it.  The pool is one per process: calc_pool_start starts calc_threads_get() - 1
 * threads, calc_pool_stop joins them and drops the jobs no thread has started.
 */
struct calc_job {
	void (*run)(struct calc_job *j); /* computes the job's result (any thread) */
	int state;                       /* 0 queued, 1 running, 2 done, 3 dropped (never run) */
	double cost;                     /* estimated work [us]: the order the threads take jobs in
	                                  * (largest first), never the result; 0 unknown */
};
/* The threads the library may use: searches, the pool (n < 1 is 1).  Before any call,
 * calc_threads_get() is 2, the searches' default.  calc_threads_set is the user's
 * number (--threads), which every search runs on; calc_threads_default a default, from
 * which a small search takes one thread (calc_search_opts.leaves_per_thread):
 * calc_threads_exact() says which was called last (0 before either). */
void calc_threads_set(int n);
void calc_threads_default(int n);
int calc_threads_exact(void);
int calc_threads_get(void);
/* The processors online, at most 2 (the default of trainplan-report --threads). */
int calc_threads_detect(void);
/* Start calc_threads_get() - 1 background threads (none when 1), held until calc_pool_go:
 * the caller queues its jobs first.  Returns how many threads run. */
int calc_pool_start(void);
/* Let the threads take jobs. */
void calc_pool_go(void);
/* 1 while background threads run (jobs queued now will run on them or in
 * calc_pool_wait). */
int calc_pool_active(void);
/* Queue job j (state 0) by its cost: the threads take the largest queued job first and,
 * among jobs of the same cost, the one queued last.  Call only while calc_pool_active(). */
void calc_pool_submit(struct calc_job *j);
/* Return when j has run: runs it on the calling thread when no thread has started it,
 * else runs the largest queued jobs while the thread that has finishes it.  A dropped
 * job (state 3) returns at once. */
void calc_pool_wait(struct calc_job *j);
/* Move queued job j (nothing when it is not queued) to the back of the queue, where the
 * pool's threads take their next job. */
void calc_pool_promote(const struct calc_job *j);
/* 1 when j has run (or was dropped): calc_pool_wait(j) would return at once.  Any
 * thread; it only reads. */
int calc_pool_done(const struct calc_job *j);
/* Join the threads; jobs still queued are dropped (state 3).  Call before freeing what
 * queued jobs refer to. */
void calc_pool_stop(void);

#endif
