/*
 * catalog_search.c -- the catalog entries of the planner (search.c): the best
 * configuration's quantities, the search tables and datasets.
 *
 * The planner's grid, rejection rules and ranking are search.c's; the planner runs
 * once per context with the default options (calc_ctx_search).
 */
#include "bounds.h"
#include "diag.h"
#include "format.h"
#include "plan.h"
#include "memory.h"
#include "table.h"
#include "pool.h"
#include "catalog.h"
#include "pipeline.h"
#include "search.h"
#include "export.h"

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================== */
/* Catalog                                                                   */
/* ======================================================================== */

enum { NEED_BEST, NEED_TOP, NEED_AXES, NEED_FULL, NEED_ROWS };

struct search_cache {
	int failed;
	int level; /* what the result holds: NEED_BEST the top K (opts.no_counts where no memo
	              of its memory side is there to read: result.partial, its counts not
	              served), NEED_TOP the top K and the counts
	              (opts.top_only), NEED_AXES also the axes' best (opts.top_axes),
	              NEED_FULL also the heatmap,
	              NEED_ROWS also every ranked row (keep_feasible: the Pareto set) */
	int first;    /* 1: only the first configuration kept (opts.top 1, no window for the
	                 recommendation): a `with` variant whose directives read the fastest
	                 configuration and the counts alone (calc_search_name_first); it serves
	                 need_best and the counts, anything else searches again */
	struct calc_search_result r;
};

/* The memory sides of the searches of a root context and its variants: a variant
 * that changes only time (a network or efficiency scenario) re-times the leaves of an
 * earlier search instead of computing their memory again (calc_search_memo).  Searches
 * of one root may run on several threads (calc_ctx_search_prefetch): the list is read
 * and changed under memo_lock, and a search that finds its memo being filled by another
 * waits for it (memo_done), so every memo has one writer and its readers come after. */
struct memo_list {
	int n;
	struct calc_search_memo **m;
	int *filling; /* per memo: 1 while a search fills it */
};

static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t memo_done = PTHREAD_COND_INITIALIZER;

static void memo_list_free(void *p)
{
	struct memo_list *l = p;
	for (int i = 0; i < l->n; i++)
		calc_search_memo_free(l->m[i]);
	free(l->m);
	free(l->filling);
	free(l);
}

/* The memo for a search of c's plan with options o: one that fits, or a new one kept in
 * the root context and bound to this memory side; its index in the list in *at.  Call
 * with memo_lock held. */
static struct calc_search_memo *memo_for(struct calc_ctx *root, const struct calc_plan *plan,
                                        const struct calc_search_opts *o, int *at)
{
	struct memo_list *l = root->slot[CALC_SLOT_SEARCH_MEMO];
	if (!l) {
		l = xcalloc(1, sizeof *l);
		root->slot[CALC_SLOT_SEARCH_MEMO] = l;
		root->slot_free[CALC_SLOT_SEARCH_MEMO] = memo_list_free;
	}
	for (int i = 0; i < l->n; i++)
		if (calc_search_memo_fits(l->m[i], plan, o)) {
			*at = i;
			return l->m[i];
		}
	l->m = xrealloc(l->m, (size_t)(l->n + 1) * sizeof *l->m);
	l->filling = xrealloc(l->filling, (size_t)(l->n + 1) * sizeof *l->filling);
	l->filling[l->n] = 0;
	l->m[l->n] = calc_search_memo_new();
	calc_search_memo_claim(l->m[l->n], plan, o);
	*at = l->n;
	return l->m[l->n++];
}

/* 1 when the memo list of 'root' holds one that fits a search of 'plan' with 'o' (filled,
 * being filled, or claimed); the seed of the root plan's own memo, once a search of it
 * has ended, into seed (at most CALC_SEARCH_SEED; *nseed, 0 for none).  Takes memo_lock. */
static int memo_there(struct calc_ctx *root, const struct calc_plan *plan, const struct calc_search_opts *o,
                      struct calc_search_cfg *seed, int *nseed)
{
	int there = 0;
	*nseed = 0;
	pthread_mutex_lock(&memo_lock);
	struct memo_list *l = root->slot[CALC_SLOT_SEARCH_MEMO];
	for (int i = 0; l && i < l->n; i++) {
		if (calc_search_memo_fits(l->m[i], plan, o))
			there = 1;
		/* 'filled' is written by its filler before it clears 'filling' under memo_lock */
		if (!*nseed && !l->filling[i] && calc_search_memo_filled(l->m[i]) &&
		    calc_search_memo_fits(l->m[i], &root->plan, o))
			*nseed = calc_search_memo_seed(l->m[i], seed, CALC_SEARCH_SEED);
	}
	pthread_mutex_unlock(&memo_lock);
	return there;
}

/* calc_search with its memo (o->memo set here): waits while another thread fills the
 * memo, and fills it itself when it is empty. */
static int search_memo(struct calc_ctx *root, const struct calc_plan *plan, struct calc_search_opts *o,
                       struct calc_search_result *r, struct calc_diag *d)
{
	int at, filler = 0;
	pthread_mutex_lock(&memo_lock);
	o->memo = memo_for(root, plan, o, &at);
	struct memo_list *l = root->slot[CALC_SLOT_SEARCH_MEMO];
	while (l->filling[at])
		pthread_cond_wait(&memo_done, &memo_lock);
	if (!calc_search_memo_filled(o->memo))
		l->filling[at] = filler = 1;
	pthread_mutex_unlock(&memo_lock);
	int rc = calc_search(plan, o, r, d);
	if (filler) {
		pthread_mutex_lock(&memo_lock);
		l->filling[at] = 0;
		pthread_cond_broadcast(&memo_done);
		pthread_mutex_unlock(&memo_lock);
	}
	return rc;
}

static void cache_free(void *p)
{
	struct search_cache *sc = p;
	calc_search_free(&sc->r);
	free(sc);
}

/* The searches queued by calc_ctx_search_prefetch, kept in the root context: each the
 * first search a context of its plan would run (at NEED_TOP; the root's own at
 * NEED_AXES), on one thread of the pool.  A context's first search takes the result of
 * an entry of its plan instead of searching (prefetch_take). */
struct prefetch {
	struct calc_job job;
	struct calc_ctx *root;
	struct calc_plan plan;
	int need;                /* NEED_*; raised while queued (atomic: the pool's thread reads
	                            it when it starts the job) */
	int first;               /* 1: a search of the first configuration only (search_cache.
	                            first); cleared while queued when a later directive reads
	                            more (atomic, as need) */
	int taken;               /* 1: a context has taken (or dropped) the result; the entry
	                            stays until the root is freed, for calc_pool_done */
	struct search_cache *sc; /* the result; NULL once taken */
	long long leaves;        /* calc_search_size of the plan (for the cost) */
};
/* Planner searches of `with` variants in one document: queued ahead (the pool's
 * prefetch) and run when asked, together.  The shipped chapters run 10 with each plan
 * of plans/ and tests/report/plans/; 200 variants each reading search.best.tp ran 200
 * searches. */
#define CALC_MAX_VARIANT_SEARCHES 32

struct prefetch_list {
	int n;
	struct prefetch **p;
	int searched;            /* searches of variants run by ctx_search (CALC_MAX_VARIANT_SEARCHES) */
};

static void prefetch_list_free(void *x)
{
	struct prefetch_list *l = x;
	for (int i = 0; i < l->n; i++) {
		if (l->p[i]->sc)
			cache_free(l->p[i]->sc);
		free(l->p[i]);
	}
	free(l->p);
	free(l);
}

/* The root's list of queued searches, made on first use. */
static struct prefetch_list *root_list(struct calc_ctx *root)
{
	struct prefetch_list *l = root->slot[CALC_SLOT_PREFETCH];
	if (!l) {
		l = xcalloc(1, sizeof *l);
		root->slot[CALC_SLOT_PREFETCH] = l;
		root->slot_free[CALC_SLOT_PREFETCH] = prefetch_list_free;
	}
	return l;
}

/* 1 when a search of a and one of b give the same result: the plans are equal but for
 * where their keys were set (the messages' provenance). */
static int same_search_plan(const struct calc_plan *a, const struct calc_plan *b)
{
	/* the bytes around the three fields compared in place, without a copy of the plan */
	_Static_assert(offsetof(struct calc_plan, key_line) < offsetof(struct calc_plan, key_src) &&
	               offsetof(struct calc_plan, key_src) < offsetof(struct calc_plan, set_origin), "field order");
	const char *x = (const char *)a, *y = (const char *)b;
	size_t s0 = offsetof(struct calc_plan, key_line), e0 = s0 + sizeof a->key_line;
	size_t s1 = offsetof(struct calc_plan, key_src), e1 = s1 + sizeof a->key_src;
	size_t s2 = offsetof(struct calc_plan, set_origin), e2 = s2 + sizeof a->set_origin;
	return !memcmp(x, y, s0) && !memcmp(x + e0, y + e0, s1 - e0) && !memcmp(x + e1, y + e1, s2 - e1) &&
	       !memcmp(x + e2, y + e2, sizeof *a - e2);
}

/* 1 when a search of 'plan' keeps its memory side in a memo: the root's own memory side
 * (its scenarios that change only time, and its later searches, read it), or one that
 * another queued search shares.  A scenario whose memory side no other queued search
 * has (a longer sequence) keeps none: nothing would read it.  Without a queue (one
 * thread) every search keeps one.  The queue is complete before any search runs (the
 * report's first pass); the result does not depend on the memo. */
static int memo_wanted(struct calc_ctx *root, const struct calc_plan *plan)
{
	const struct prefetch_list *l = root->slot[CALC_SLOT_PREFETCH];
	if (!l || calc_search_same_memory(&root->plan, plan))
		return 1;
	for (int i = 0; i < l->n; i++)
		if (!same_search_plan(&l->p[i]->plan, plan) && calc_search_same_memory(&l->p[i]->plan, plan))
			return 1;
	return 0;
}

/* The options of a search at level 'need' on 'threads' threads. */
static void search_opts(struct calc_search_opts *o, int need, int threads)
{
	calc_search_opts_init(o);
	o->keep_feasible = need >= NEED_ROWS;
	o->pareto_sample = need >= NEED_ROWS ? calc_search_pareto_sample : NULL; /* t_pareto */
	o->top_only = need <= NEED_AXES;
	o->top_axes = need == NEED_AXES;
	o->no_counts = need == NEED_BEST;
	o->recheck = 0; /* the simulator re-checks the top only where a simulated time is shown */
	o->top = CALC_PICK_TOP_FIRST; /* the recommendation's window (pick.c, calc_search_pick_band) */
	o->recheck_top = 10;    /* the rows search-top shows */
	o->breakdown_top = 10;  /* the rows search-breakdown shows; the pick's, where it ranks
	                           below them, on demand (need_pick_fast) */
	o->threads = threads; /* the result does not depend on it */
	o->leaves_per_thread = calc_threads_exact() ? 0 : CALC_SEARCH_LEAVES_PER_THREAD;
}

/* The store of results between processes (calc_search_store_set; NULL: none). */
static struct calc_search_store store;
static int store_on;

void calc_search_store_set(const struct calc_search_store *s)
{
	store_on = s != NULL;
	if (s)
		store = *s;
}

/* The key of a result of a search of 'plan' in the store: the plan as it searches --
 * its bytes but where its keys were set (same_search_plan) and its two pointers, whose
 * rows are named after the build's identity and the schedule table's generation (the
 * recipe's name with training.main_grads, which the plan's bytes hold, gives its row;
 * the stack's name its knobs) -- and, last (store_key_level), what the result holds: its
 * level and whether it is of the first configuration alone.  The search reads nothing
 * else (same_search_plan; the catalog's queue and memos change how fast a result comes
 * and what it holds beyond what was asked, never what it gives: test_memo).  A block of
 * its own; its length in *n. */
static unsigned char *store_key(const struct calc_plan *plan, size_t *n)
{
	static const char tag[] = "trainplan search 1";
	const char *recipe = plan->recipe ? plan->recipe->name : "";
	const char *stack = plan->stack ? plan->stack->name : "";
	unsigned long gen = calc_schedule_generation();
	int lv[2] = {0, 0};
	size_t len = sizeof tag + store.nbuild + sizeof gen + sizeof *plan + strlen(recipe) + 1 + strlen(stack) + 1 +
	             sizeof lv;
	unsigned char *k = xcalloc(1, len), *at = k;
#define KPUT(x, sz) (memcpy(at, (x), (sz)), at += (sz))
	struct calc_plan *p = (struct calc_plan *)k; /* first: the block's alignment */
	KPUT(plan, sizeof *plan);
	memset(p->key_line, 0, sizeof p->key_line);
	memset(p->key_src, 0, sizeof p->key_src);
	memset(p->set_origin, 0, sizeof p->set_origin);
	p->recipe = NULL;
	p->stack = NULL;
	KPUT(tag, sizeof tag);
	KPUT(store.build, store.nbuild);
	KPUT(&gen, sizeof gen);
	KPUT(recipe, strlen(recipe) + 1);
	KPUT(stack, strlen(stack) + 1);
	KPUT(lv, sizeof lv);
#undef KPUT
	*n = len;
	return k;
}

/* The level in the store's key of the search of what the plan's framework runs
 * (ctx_search_fw), a function of the plan (its stack) as the others are. */
#define STORE_FW (-1)

/* The key k (n bytes, store_key) of a result at 'level', of the first configuration
 * alone or not ('first'). */
static void store_key_level(unsigned char *k, size_t n, int level, int first)
{
	int lv[2] = {level, first};
	memcpy(k + n - sizeof lv, lv, sizeof lv);
}

static struct search_cache *search_run(struct calc_ctx *root, const struct calc_plan *plan, int need, int first,
                                       int threads, struct calc_diag *d);

/* Result r of a search of 'plan' into the store, at 'level' ('first' as search_cache). */
static void store_result(const struct calc_plan *plan, int level, int first, const struct calc_search_result *r)
{
	size_t klen, n;
	char *val;
	unsigned char *key = store_key(plan, &klen);
	store_key_level(key, klen, level, first);
	n = calc_search_pack(r, &val);
	store.put(store.arg, key, klen, val, n);
	free(val);
	free(key);
}

/* search_run, or a result from the store where one there serves (and then given to it).
 * A result serves a request as a cached one of the context does (ctx_search_as): at
 * its level or above, and of the first configuration alone only where that is asked. */
static struct search_cache *search_new(struct calc_ctx *root, const struct calc_plan *plan, int need, int first,
                                       int threads, struct calc_diag *d)
{
	if (!store_on)
		return search_run(root, plan, need, first, threads, d);
	size_t klen, vlen;
	unsigned char *key = store_key(plan, &klen);
	for (int level = need; level <= NEED_ROWS; level++)
		for (int f = first; f >= 0; f--) {
			store_key_level(key, klen, level, f);
			const char *v = store.get(store.arg, key, klen, &vlen);
			if (!v)
				continue;
			struct search_cache *sc = xcalloc(1, sizeof *sc);
			if (calc_search_unpack(v, vlen, &sc->r) == 0) {
				sc->r.opts.pareto_sample = level >= NEED_ROWS ? calc_search_pareto_sample : NULL; /* search_opts */
				sc->level = level;
				sc->first = f;
				free(key);
				return sc;
			}
			free(sc); /* bytes of another layout: searched again, and stored anew */
		}
	struct search_cache *sc = search_run(root, plan, need, first, threads, d);
	if (!sc->failed)
		store_result(plan, sc->level, sc->first, &sc->r);
	free(key);
	return sc;
}

/* calc_search of 'plan' at level 'need' on 'threads' threads, its memo from 'root';
 * with 'first' the first configuration only (search_cache.first: the top is exact, so
 * its first row is the one a search keeping the window gives; no window is read).
 * Returns the cache entry (sc->failed after diagnostics in 'd'). */
static struct search_cache *search_run(struct calc_ctx *root, const struct calc_plan *plan, int need, int first,
                                       int threads, struct calc_diag *d)
{
	struct calc_search_opts o;
	search_opts(&o, need, threads);
	struct search_cache *sc = xcalloc(1, sizeof *sc);
	sc->level = need;
	sc->first = first;
	if (first)
		o.top = 1;
	if (need == NEED_BEST) {
		/* only the top: read a memo of this memory side where there is one (its counts
		 * come with it), else search without one, not counting, from the root's top */
		struct calc_search_cfg seed[CALC_SEARCH_SEED];
		int nseed;
		if (!memo_there(root, plan, &o, seed, &nseed)) {
			o.seed = seed;
			o.nseed = nseed;
			sc->failed = calc_search(plan, &o, &sc->r, d) < 0;
			if (first)
				return sc;
			/* the recommendation's window from the rows kept, or one more pass (pick.c) */
			sc->failed = sc->failed || calc_search_pick_band(plan, &sc->r, CALC_PICK_TOP, d) < 0;
			for (int k; !sc->failed && (k = calc_search_pick_window(&sc->r, plan)) > 0;) {
				calc_search_free(&sc->r); /* the recommendation reads the whole band (pick.c) */
				o.top = k;
				sc->failed = calc_search(plan, &o, &sc->r, d) < 0;
			}
			return sc;
		}
		o.no_counts = 0; /* with a memo the counts come at no cost: a NEED_TOP result */
		sc->level = NEED_TOP;
	}
	/* The Pareto set's search (NEED_ROWS, every ranked leaf timed) reads a memo of its
	 * memory side that is there but fills none: in `trainplan report` and `trainplan data`
	 * it is the first search and no later one reads its memo (the datasets and tables after
	 * it take its result), and filling it (the memory total and worst stage of each of the
	 * DeepSeek-V3 plan's 4.76 M measured leaves) was 0.55 s of the 1.89 s of CPU of
	 * `trainplan data search-pareto` (1.89 -> 1.34 s without it, perf stat, medians of 4
	 * interleaved runs).  A later
	 * search of that memory side fills one itself.  The result does not depend on the memo
	 * (test_memo, tests/calc/search.c). */
	struct calc_search_cfg seed_[CALC_SEARCH_SEED];
	int nseed_, memo = memo_wanted(root, plan) && (need < NEED_ROWS || memo_there(root, plan, &o, seed_, &nseed_));
	sc->failed = (memo ? search_memo(root, plan, &o, &sc->r, d) : calc_search(plan, &o, &sc->r, d)) < 0;
	if (first)
		return sc;
	sc->failed = sc->failed || calc_search_pick_band(plan, &sc->r, CALC_PICK_TOP, d) < 0;
	for (int k; !sc->failed && (k = calc_search_pick_window(&sc->r, plan)) > 0;) {
		calc_search_free(&sc->r); /* the recommendation reads the whole band (pick.c) */
		o.top = k;
		sc->failed = (memo ? search_memo(root, plan, &o, &sc->r, d) : calc_search(plan, &o, &sc->r, d)) < 0;
	}
	return sc;
}

static void prefetch_run(struct calc_job *j)
{
	struct prefetch *p = (struct prefetch *)j;
	struct calc_diag d = {0};
	/* the level as raised by the last directive read before the job started */
	p->sc = search_new(p->root, &p->plan, __atomic_load_n(&p->need, __ATOMIC_ACQUIRE),
	                   __atomic_load_n(&p->first, __ATOMIC_ACQUIRE), 1, &d);
	calc_diag_free(&d);
}

/* The time of one leaf [us], for the pool's order only: the default plan's searches
 * (199,872 leaves; thread CPU time, the fastest quarter of a dozen runs) re-timed from
 * a memo (about 3.3 ms), computing their memory side (8.2 ms), the plan's own, the
 * axes' best kept (10.5 ms), a scenario of another memory side that does not count
 * (4.3 ms, seeded by the root's top: the sensitivity table's longer sequences when they
 * read the window), and one that searches for the fastest configuration alone (1.7 ms:
 * those sequences now, search.fits and search.best.*). */
#define SEARCH_LEAF_US 0.0165
#define SEARCH_LEAF_MEM_US 0.041
#define SEARCH_LEAF_AXES_US 0.0525
#define SEARCH_LEAF_BEST_US 0.0215
#define SEARCH_LEAF_FIRST_US 0.0085
void calc_search_prefetch_counts(const struct calc_job *j)
{
	struct prefetch *p = (struct prefetch *)j; /* its first member */
	if (j && __atomic_load_n(&p->need, __ATOMIC_ACQUIRE) < NEED_TOP)
		__atomic_store_n(&p->need, NEED_TOP, __ATOMIC_RELEASE);
}

void calc_search_prefetch_all(const struct calc_job *j)
{
	struct prefetch *p = (struct prefetch *)j; /* its first member */
	if (j)
		__atomic_store_n(&p->first, 0, __ATOMIC_RELEASE);
}

const struct calc_job *calc_ctx_search_prefetch(struct calc_ctx *root, const struct calc_plan *plan)
{
	return calc_ctx_search_prefetch_first(root, plan, 1, 0);
}

const struct calc_job *calc_ctx_search_prefetch_for(struct calc_ctx *root, const struct calc_plan *plan, int counts)
{
	return calc_ctx_search_prefetch_first(root, plan, counts, 0);
}

const struct calc_job *calc_ctx_search_prefetch_first(struct calc_ctx *root, const struct calc_plan *plan, int counts,
                                                      int first)
{
	if (!calc_pool_active())
		return NULL;
	if (same_search_plan(plan, &root->plan) && root->slot[CALC_SLOT_SEARCH])
		return NULL;
	struct prefetch_list *l = root_list(root);
	for (int i = 0; i < l->n; i++)
		if (same_search_plan(&l->p[i]->plan, plan)) {
			/* a directive that reads the counts: the job, where it has not started, gives
			 * them (else the context searches again) */
			if (counts)
				calc_search_prefetch_counts(&l->p[i]->job);
			if (!first) /* a directive that reads more than the first configuration */
				calc_search_prefetch_all(&l->p[i]->job);
			return &l->p[i]->job;
		}
	if (l->n >= CALC_MAX_VARIANT_SEARCHES)
		return NULL; /* past the bound: ctx_search says so where the value is asked for */
	struct prefetch *p = xcalloc(1, sizeof *p);
	p->job.run = prefetch_run;
	p->root = root;
	p->plan = *plan;
	/* as ctx_search's first request for the top: the root's own keeps the axes' best */
	p->need = same_search_plan(plan, &root->plan) ? NEED_AXES : counts ? NEED_TOP : NEED_BEST;
	p->first = first && p->need != NEED_AXES;
	/* its cost for the pool's order [us]: its leaves at the time of one leaf, timed
	 * from a memo another search of its memory side fills, with the memory side
	 * computed (the first queued of its memory side) or with the axes' best too (the
	 * plan's own, which fills the plan's memo) */
	struct calc_search_opts o;
	search_opts(&o, p->need, 1);
	double per_leaf = p->need == NEED_AXES                ? SEARCH_LEAF_AXES_US
	                  : p->need == NEED_BEST && p->first ? SEARCH_LEAF_FIRST_US
	                  : p->need == NEED_BEST             ? SEARCH_LEAF_BEST_US
	                                                     : SEARCH_LEAF_MEM_US;
	p->leaves = -1;
	for (int i = 0; i < l->n && per_leaf != SEARCH_LEAF_AXES_US; i++)
		if (calc_search_same_memory(&l->p[i]->plan, plan)) {
			per_leaf = SEARCH_LEAF_US;
			p->leaves = l->p[i]->leaves; /* the same memory side walks the same grid */
		}
	if (p->leaves < 0)
		p->leaves = calc_search_size(plan, &o);
	p->job.cost = per_leaf * (double)p->leaves;
	l->p = xrealloc(l->p, (size_t)(l->n + 1) * sizeof *l->p);
	l->p[l->n++] = p;
	calc_pool_submit(&p->job);
	return &p->job;
}

/* The queued search of c's plan, done (waited for, or run here) and moved into c's
 * cache; nothing when none was queued.  A failed or dropped one is forgotten, so that
 * the search runs again in ctx_search and writes its diagnostics there. */
static void prefetch_take(struct calc_ctx *c)
{
	struct calc_ctx *root = c->root ? c->root : c;
	struct prefetch_list *l = root->slot[CALC_SLOT_PREFETCH];
	for (int i = 0; l && i < l->n; i++) {
		struct prefetch *p = l->p[i];
		if (p->taken || !same_search_plan(&p->plan, &c->plan))
			continue;
		calc_pool_wait(&p->job);
		if (p->job.state == 2 && p->sc && !p->sc->failed) {
			c->slot[CALC_SLOT_SEARCH] = p->sc;
			c->slot_free[CALC_SLOT_SEARCH] = cache_free;
			p->sc = NULL;
		}
		if (p->sc)
			cache_free(p->sc);
		p->sc = NULL;
		p->taken = 1;
		return;
	}
}

/* The planner once per context, for what is asked (NEED_*).  Most quantities need
 * only the top K (NEED_BEST: a variant's search need not count where no memo gives the
 * counts, opts.no_counts) or the top K and the counts, which a search that does not time
 * what cannot enter the top K gives (opts.top_only: a scenario of a chapter asks for
 * nothing else); the
 * axes' best need a leaf timed where it could beat an axis' best (opts.top_axes); the
 * heatmap needs every ranked leaf timed, the Pareto set also every row kept (about a
 * third more).  Asking for more than the cached result holds runs the search again at
 * that level (same top and counts). */
static const struct calc_search_result *ctx_search_as(struct calc_ctx *c, int need, int first, struct calc_diag *d);

/* The context whose search serves c: the root where c's plan searches as the root's (a
 * variant equal to the plan but for where its keys were set, `with seq_len=4096` where the
 * plan has 4096, which calc_ctx_variant keeps apart for its messages' sake), else c.  A
 * search reads neither where keys were set nor anything of the context but its plan
 * (same_search_plan), so the root's result is the one c's own search would give, and a
 * report searches once per distinct plan. */
static struct calc_ctx *search_ctx(struct calc_ctx *c)
{
	return c->root && same_search_plan(&c->plan, &c->root->plan) ? c->root : c;
}

static const struct calc_search_result *ctx_search(struct calc_ctx *c, int need, struct calc_diag *d)
{
	return ctx_search_as(c, need, 0, d);
}

/* ctx_search for a quantity that reads only the first configuration or the counts
 * ('first' 1: a `with` variant's context may search for the first configuration alone,
 * search_cache.first) or more (0: a result of the first alone is searched again). */
static const struct calc_search_result *ctx_search_as(struct calc_ctx *c, int need, int first, struct calc_diag *d)
{
	c = search_ctx(c);
	struct search_cache *sc = c->slot[CALC_SLOT_SEARCH];
	/* The plan's own context (no root) keeps the axes' best from its first search: the
	 * report asks it for search-axes too, and one search that keeps them costs less than
	 * a top-only search and then a second one (the same top and counts either way). */
	if (need <= NEED_TOP && !c->root)
		need = NEED_AXES;
	if (!sc) {
		prefetch_take(c);
		sc = c->slot[CALC_SLOT_SEARCH];
	}
	if (!c->root)
		first = 0; /* the plan's own search keeps the window and the axes' best */
	if (sc && !sc->failed && (need > sc->level || (sc->first && !first))) {
		cache_free(sc);
		c->slot[CALC_SLOT_SEARCH] = sc = NULL;
	}
	if (!sc && c->root) {
		/* each `with` variant that reads the planner runs a search of its own (seconds
		 * each): a document runs at most CALC_MAX_VARIANT_SEARCHES of them */
		struct prefetch_list *l = root_list(c->root);
		if (l->n + l->searched >= CALC_MAX_VARIANT_SEARCHES) {
			calc_error(d, c->plan.file, 0, "more than %d planner searches of `with` variants in one run (each "
			           "variant searches anew): read search.* of fewer variants", CALC_MAX_VARIANT_SEARCHES);
			return NULL;
		}
		l->searched++;
	}
	if (!sc) {
		sc = search_new(c->root ? c->root : c, &c->plan, need, first, calc_threads_get(), d);
		c->slot[CALC_SLOT_SEARCH] = sc;
		c->slot_free[CALC_SLOT_SEARCH] = cache_free;
		if (sc->failed)
			return NULL;
	} else if (sc->failed) {
		calc_error(d, c->plan.file, 0, "the search of this plan failed");
		return NULL;
	}
	return &sc->r;
}

const struct calc_search_result *calc_ctx_search(struct calc_ctx *c, struct calc_diag *d)
{
	return ctx_search(c, NEED_TOP, d);
}

/* The search of c for a quantity that reads only its top K (NEED_BEST: perhaps a result
 * without counts, result.partial). */
static const struct calc_search_result *ctx_search_top(struct calc_ctx *c, struct calc_diag *d)
{
	return ctx_search(c, NEED_BEST, d);
}

/* calc_ctx_search with the top re-checked by the simulator (sim_ok, sim_time). */
static const struct calc_search_result *ctx_search_sim(struct calc_ctx *c, struct calc_diag *d)
{
	if (!ctx_search_top(c, d))
		return NULL;
	{
		struct search_cache *sc = search_ctx(c)->slot[CALC_SLOT_SEARCH];
		int was = sc->r.rechecked;
		calc_search_recheck(&search_ctx(c)->plan, &sc->r);
		/* the simulated times kept with the result: a later run reads them too (the
		 * default plan's report re-checks ten rows, 6.8 M of its 144 M instructions
		 * when its searches come from the store, callgrind) */
		if (!was && store_on)
			store_result(&search_ctx(c)->plan, sc->level, sc->first, &sc->r);
		return &sc->r;
	}
}

/* The fastest configuration; 'first' 1 where a search of it alone serves (ctx_search_as). */
static const struct calc_search_top *need_best_as(struct calc_ctx *c, int first, struct calc_diag *d)
{
	const struct calc_search_result *r = ctx_search_as(c, NEED_BEST, first, d);
	if (!r)
		return NULL;
	if (r->ntop < 1 && r->partial && !(r = ctx_search_as(c, NEED_TOP, first, d))) /* the messages' counts */
		return NULL;
	if (r->ntop < 1 && r->measured == 0) {
		calc_error(d, c->plan.file, 0, "search: none of %lld configurations is valid (trainplan table "
		           "search-rejects gives the reasons)", r->evaluated);
		return NULL;
	}
	if (r->ntop < 1) {
		calc_error(d, c->plan.file, 0, "search: no configuration of %lld fits in memory", r->evaluated);
		return NULL;
	}
	return &r->top[0];
}

static const struct calc_search_top *need_best(struct calc_ctx *c, struct calc_diag *d)
{
	return need_best_as(c, 1, d);
}

/* A quantity of one ranked configuration: GET(c, d) picks it (need_best: the fastest,
 * need_safe_top: the recommendation), EXPR reads a number of it, EXPRS a text. */
#define QTOP(fn, GET, expr)                                                             \
	static int fn(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)        \
	{                                                                               \
		const struct calc_search_top *b = GET(c, d);                                \
		if (!b)                                                                 \
			return -1;                                                      \
		v->num = (expr);                                                        \
		return 0;                                                               \
	}
#define QTOPS(fn, GET, expr)                                                            \
	static int fn(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)        \
	{                                                                               \
		const struct calc_search_top *b = GET(c, d);                                \
		if (!b)                                                                 \
			return -1;                                                      \
		v->num = NAN;                                                           \
		v->str = (expr);                                                        \
		return 0;                                                               \
	}
#define QB(fn, expr) QTOP(fn, need_best, expr)
#define QBS(fn, expr) QTOPS(fn, need_best, expr)
QB(q_tp, b->r.c.tp)
QB(q_pp, b->r.c.pp)
QB(q_dp, b->r.c.dp)
QB(q_cp, b->r.c.cp)
QB(q_ep, b->r.c.ep)
QB(q_etp, b->r.c.etp)
QB(q_vpp, b->r.c.vpp)
QB(q_mb, b->r.c.micro_batch)
QBS(q_rc, calc_recompute_name((enum calc_recompute)b->r.c.recompute))
QB(q_zero, b->r.c.zero)
QBS(q_sched, calc_schedule_name((enum calc_schedule)b->r.c.schedule))
QBS(q_sp, b->r.c.sp ? "yes" : "no")
QB(q_time, b->r.step_time)
static int q_time_sim(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	const struct calc_search_result *r = ctx_search_sim(c, d);
	if (!r || !need_best(c, d))
		return -1;
	v->num = r->top[0].sim_ok ? r->top[0].sim_time : NAN;
	return 0;
}
QB(q_mfu, b->r.mfu)
QB(q_memory, b->r.memory)
QB(q_headroom, b->r.headroom)
QB(q_cost, b->r.cost)

/* The recommendation: the fastest of the planner's top configurations whose worst stage
 * leaves plan.memory_margin of the usable memory free (headroom >= margin x usable), so
 * that fragmentation, a longer sequence or a framework's extra buffers do not stop the
 * run.  NULL and a diagnostic when none of the kept top configurations does. */
static const struct calc_search_top *need_safe(struct calc_ctx *c, int *rank, struct calc_diag *d)
{
	if (!need_best_as(c, 0, d)) /* the window, not the first configuration alone */
		return NULL;
	const struct calc_search_result *r = ctx_search_top(c, d); /* need_best's */
	const struct calc_search_top *t = calc_search_safe(r, &c->plan, rank); /* the one rule, pick.c */
	if (t)
		return t;
	calc_error(d, c->plan.file, 0, "search: none of the %d fastest configurations leaves plan.memory_margin = "
	           "%.0f%% of the memory free", calc_search_kept(r), 100 * c->plan.memory_margin);
	return NULL;
}

static const struct calc_search_top *need_safe_top(struct calc_ctx *c, struct calc_diag *d)
{
	return need_safe(c, NULL, d);
}
/* The split the report discusses: the recommendation, or the fastest split where none
 * of the top leaves the memory margin. */
static const struct calc_search_top *need_pick(struct calc_ctx *c, struct calc_diag *d)
{
	struct calc_diag why = {0};
	const struct calc_search_top *t = need_safe(c, NULL, &why);
	calc_diag_free(&why);
	return t ? t : need_best(c, d);
}
/* need_pick with its closed-form breakdown (calc_search_top.fast), computed here where
 * the search left it out (opts.breakdown_top): the row belongs to c's cached search
 * (or to the root's, search_ctx), which keeps it. */
static const struct calc_search_top *need_pick_fast(struct calc_ctx *c, struct calc_diag *d)
{
	const struct calc_search_top *t = need_pick(c, d);
	if (t && !t->fast)
		calc_search_top_fast(&search_ctx(c)->plan, (struct calc_search_top *)t);
	return t;
}
#define QP(fn, expr) QTOP(fn, need_pick, expr)
#define QPS(fn, expr) QTOPS(fn, need_pick, expr)
QP(q_p_tp, b->r.c.tp)
QP(q_p_pp, b->r.c.pp)
QP(q_p_dp, b->r.c.dp)
QP(q_p_cp, b->r.c.cp)
/* the pick's closed-form breakdown (calc_step_fast, as its step time): the CP exchange
 * per step, its exposed part, and the pipeline bubble, so that a sentence on what the
 * pick trades TP for reads the model's own overlap */
QTOP(q_p_cp_time, need_pick_fast, b->fast->comm.dim[CALC_DIM_CP].time)
QTOP(q_p_cp_exposed, need_pick_fast, b->fast->exposed[CALC_DIM_CP])
QTOP(q_p_bubble, need_pick_fast, b->fast->bubble)
QPS(q_p_rc, calc_recompute_name((enum calc_recompute)b->r.c.recompute))
QPS(q_p_sched, calc_schedule_name((enum calc_schedule)b->r.c.schedule))
QP(q_p_time, b->r.step_time)

#define QS(fn, expr) QTOP(fn, need_safe_top, expr)
#define QSS(fn, expr) QTOPS(fn, need_safe_top, expr)
QS(q_s_tp, b->r.c.tp)
QS(q_s_pp, b->r.c.pp)
QS(q_s_dp, b->r.c.dp)
QS(q_s_cp, b->r.c.cp)
QS(q_s_ep, b->r.c.ep)
QS(q_s_etp, b->r.c.etp)
QS(q_s_vpp, b->r.c.vpp)
QS(q_s_mb, b->r.c.micro_batch)
QSS(q_s_rc, calc_recompute_name((enum calc_recompute)b->r.c.recompute))
QS(q_s_zero, b->r.c.zero)
QSS(q_s_sched, calc_schedule_name((enum calc_schedule)b->r.c.schedule))
QSS(q_s_sp, b->r.c.sp ? "yes" : "no")
QS(q_s_time, b->r.step_time)
QS(q_s_mfu, b->r.mfu)
QS(q_s_memory, b->r.memory)
QS(q_s_headroom, b->r.headroom)
QS(q_s_cost, b->r.cost)

/* The framework whose launch flags `trainplan export --for` writes for the plan's stack
 * (efficiency.stack): calc_framework_of_stack's (frameworks.c, the one map of stacks to
 * frameworks).  A stack no export writes (fsdp1: PyTorch FSDP without a launcher of its
 * own) gets megatron and *own = 0. */
static const struct calc_framework *stack_framework(const struct calc_plan *p, int *own)
{
	const struct calc_framework *f = calc_framework_of_stack(p->stack ? p->stack->name : NULL);
	*own = f != NULL;
	return f ? f : calc_framework_find("megatron");
}

/* The search of what the plan's framework runs (as `trainplan search --for FW`: opts.allow
 * = calc_framework_allows), its top K only, grown to the whole band as the plan's own
 * search is, once per context. */
struct fw_cache {
	int failed;
	struct calc_search_result r;
	char split[CALC_LAYOUT_MAX + 64]; /* search.framework.split's text */
	char *export;                     /* search.framework.export's text, owned; NULL until asked */
	int searched;                     /* 1: r holds the search (or failed says why not); 0:
	                                     not run, the framework running the pick (need_fw_from) */
};
static void fw_cache_free(void *p)
{
	struct fw_cache *fc = p;
	if (!fc->failed)
		calc_search_free(&fc->r);
	free(fc->export);
	free(fc);
}
/* c's framework cache, made (without a search) on first use. */
static struct fw_cache *fw_slot(struct calc_ctx *c)
{
	struct fw_cache *fc = c->slot[CALC_SLOT_SEARCH_FW];
	if (!fc) {
		fc = xcalloc(1, sizeof *fc);
		c->slot[CALC_SLOT_SEARCH_FW] = fc;
		c->slot_free[CALC_SLOT_SEARCH_FW] = fw_cache_free;
	}
	return fc;
}
static const struct calc_search_result *ctx_search_fw(struct calc_ctx *c, struct calc_diag *d)
{
	struct fw_cache *fc = fw_slot(c);
	if (!fc->searched) {
		struct calc_search_opts o;
		int own;
		search_opts(&o, NEED_BEST, calc_threads_get());
		o.allow = calc_framework_allows;
		o.allow_arg = stack_framework(&c->plan, &own);
		fc->searched = 1;
		if (store_on) { /* the store's result, which is the one searched below */
			size_t klen, vlen;
			unsigned char *key = store_key(&c->plan, &klen);
			store_key_level(key, klen, STORE_FW, 0);
			const void *v = store.get(store.arg, key, klen, &vlen);
			if (v && calc_search_unpack(v, vlen, &fc->r) == 0) {
				fc->r.opts.allow = o.allow; /* the hooks as the search below had them */
				fc->r.opts.allow_arg = o.allow_arg;
				free(key);
				return &fc->r;
			}
			free(key);
		}
		/* as the plan's own search and `trainplan search --for`: the window's first growth
		 * kept at once (search_opts: CALC_PICK_TOP_FIRST rows), the window read from them
		 * or the whole band in one more pass (calc_search_pick_band), so that a second
		 * search is the exception; the pick does not depend on the rows kept (pick.c) */
		fc->failed = calc_search(&c->plan, &o, &fc->r, d) < 0;
		fc->failed = fc->failed || calc_search_pick_band(&c->plan, &fc->r, CALC_PICK_TOP, d) < 0;
		/* the recommendation reads the whole band (pick.c), as `trainplan search --for` does */
		for (int k; !fc->failed && (k = calc_search_pick_window(&fc->r, &c->plan)) > 0;) {
			calc_search_free(&fc->r);
			o.top = k;
			fc->failed = calc_search(&c->plan, &o, &fc->r, d) < 0;
		}
		if (fc->failed)
			return NULL;
		if (store_on)
			store_result(&c->plan, STORE_FW, 0, &fc->r);
	} else if (fc->failed) {
		calc_error(d, c->plan.file, 0, "the search of what the plan's framework runs failed");
		return NULL;
	}
	return &fc->r;
}

/* The recommendation among what the framework runs: the planner's pick (search.pick)
 * where the framework runs it (search.framework.runs_pick), so that search.framework.*
 * and its export are the pick's; else the recommendation's own rule (calc_search_pick,
 * pick.c) over that search's top.  The pick's rule reads the whole band of the full
 * search, which the framework's top K need not hold, so the two may differ where the
 * framework runs the pick.  '*from' (when not NULL) is the search the top belongs to. */
static const struct calc_search_top *need_fw_from(struct calc_ctx *c, const struct calc_search_result **from,
                                                  struct calc_diag *d)
{
	const struct calc_search_result *r;
	const struct calc_search_top *t;
	struct calc_diag why = {0};
	int own;
	/* the pick first: where the framework runs it, the framework's own search is not
	 * needed (it would fail only as the plan's own does: the same plan and options but
	 * opts.allow, which refuses leaves and no option) */
	fw_slot(c);
	t = need_pick(c, &why);
	calc_diag_free(&why);
	if (t && calc_framework_allows(stack_framework(&c->plan, &own), &t->r.c)) {
		if (from)
			*from = ctx_search_top(c, d);
		return t;
	}
	if (!(r = ctx_search_fw(c, d)))
		return NULL;
	if (from)
		*from = r;
	if (!(t = calc_search_pick(r, &c->plan, NULL)))
		calc_error(d, c->plan.file, 0, "search: no configuration that %s runs fits in memory",
		           stack_framework(&c->plan, &own)->title);
	return t;
}
static const struct calc_search_top *need_fw(struct calc_ctx *c, struct calc_diag *d)
{
	return need_fw_from(c, NULL, d);
}
#define QF(fn, expr) QTOP(fn, need_fw, expr)
#define QFS(fn, expr) QTOPS(fn, need_fw, expr)
QF(q_f_tp, b->r.c.tp)
QF(q_f_pp, b->r.c.pp)
QF(q_f_dp, b->r.c.dp)
QF(q_f_cp, b->r.c.cp)
QF(q_f_ep, b->r.c.ep)
QF(q_f_etp, b->r.c.etp)
QF(q_f_vpp, b->r.c.vpp)
QF(q_f_mb, b->r.c.micro_batch)
QFS(q_f_rc, calc_recompute_name((enum calc_recompute)b->r.c.recompute))
QF(q_f_zero, b->r.c.zero)
QFS(q_f_sched, calc_schedule_name((enum calc_schedule)b->r.c.schedule))
QFS(q_f_sp, b->r.c.sp ? "yes" : "no")
QF(q_f_time, b->r.step_time)
QF(q_f_memory, b->r.memory)
static int q_f_name(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	int own;
	v->num = NAN;
	v->str = stack_framework(&c->plan, &own)->name;
	return 0;
}
static int q_f_title(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	int own;
	v->num = NAN;
	v->str = stack_framework(&c->plan, &own)->title;
	return 0;
}
/* 1 when the framework runs a configuration that fits, NaN-free: a chapter tests it
 * before it reads search.framework.* (which fail where it runs none). */
static int q_f_found(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	struct calc_diag why = {0};
	v->num = need_fw(c, &why) != NULL;
	calc_diag_free(&why);
	return 0;
}
static int q_f_own(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	int own;
	stack_framework(&c->plan, &own);
	v->num = own;
	return 0;
}
/* 1 when the planner's pick (search.pick) is a configuration the framework runs: then the
 * framework's pick is the same split. */
static int q_f_runs_pick(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	const struct calc_search_top *t = need_pick(c, d);
	int own;
	if (!t)
		return -1;
	v->num = calc_framework_allows(stack_framework(&c->plan, &own), &t->r.c);
	return 0;
}
/* The split key that reproduces the framework pick's placement where its stages are
 * uneven ("" when the plan's split rule places it), as search's split column. */
static int q_f_split(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	const struct calc_search_result *from = NULL;
	const struct calc_search_top *t = need_fw_from(c, &from, d);
	struct fw_cache *fc = c->slot[CALC_SLOT_SEARCH_FW];
	const char *txt;
	if (!t || !from)
		return -1;
	txt = calc_search_split_cell(from, &t->r.c, fc->split, sizeof fc->split);
	if (txt != fc->split)
		snprintf(fc->split, sizeof fc->split, "%s", txt);
	v->num = NAN;
	v->str = strcmp(fc->split, "even") ? fc->split : "";
	return 0;
}

/* What `trainplan export --for FRAMEWORK` writes for the plan with the configuration of
 * search.framework.* applied (calc_search_apply: degrees, schedule, layer split, recipe),
 * FRAMEWORK being search.framework.name: the launch flags of the pick where the framework
 * runs it (search.framework.runs_pick), else of the best configuration it runs.  The
 * export's own error (a setting the framework cannot express) is this quantity's. */
static int q_f_export(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	const struct calc_search_top *t = need_fw(c, d);
	struct fw_cache *fc = c->slot[CALC_SLOT_SEARCH_FW];
	int own, rc;
	if (!t)
		return -1;
	if (!fc->export) {
		struct calc_plan *p = xmalloc(sizeof *p);
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (!m) {
			free(p);
			return calc_error(d, c->plan.file, 0, "search.framework.export: out of memory");
		}
		calc_search_apply(&c->plan, &t->r.c, p);
		rc = calc_export(p, calc_export_find(stack_framework(&c->plan, &own)->name), m, NULL, d);
		fclose(m);
		free(p);
		if (rc < 0) {
			free(buf);
			return -1;
		}
		/* the first line, a comment naming the plan file and the split, is split after
		 * its colon where it is longer than a printed page's code line (88 characters) */
		char *nl = strchr(buf, '\n'), *colon = strstr(buf, ": ");
		if (buf[0] == '#' && nl && nl - buf > 88 && colon && colon < nl) {
			size_t at = (size_t)(colon - buf) + 1, n = strlen(buf);
			char *wrapped = xmalloc(n + 3);
			memcpy(wrapped, buf, at);
			memcpy(wrapped + at, "\n#", 2);
			memcpy(wrapped + at + 2, buf + at, n - at + 1);
			free(buf);
			buf = wrapped;
		}
		fc->export = buf;
	}
	v->num = NAN;
	v->str = fc->export;
	return 0;
}

/* The recommendation's rank, NaN (not an error) when the planner ranked nothing or none
 * of its top splits leaves the margin: a chapter tests it with isfinite(). */
static int q_s_rank(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	struct calc_diag why = {0};
	int rank = 0;
	v->num = need_safe(c, &rank, &why) ? rank : NAN;
	calc_diag_free(&why);
	return 0;
}

/* What the recommendation rule measured from (pick.c): the fastest of the top that leaves
 * the margin (its rank and step time) and the band; NaN where none leaves it. */
static int pick_why(struct calc_ctx *c, struct calc_pick_why *w, const struct calc_search_result **out,
                    struct calc_diag *d)
{
	if (!need_best_as(c, 0, d)) /* the window, not the first configuration alone */
		return -1;
	const struct calc_search_result *r = ctx_search_top(c, d);
	calc_search_safe_why(r, &c->plan, w);
	*out = r;
	return 0;
}
static int q_m_rank(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	struct calc_pick_why w;
	const struct calc_search_result *r;
	struct calc_diag why = {0};
	v->num = pick_why(c, &w, &r, &why) == 0 && w.fastest ? w.fastest : NAN;
	calc_diag_free(&why);
	return 0;
}
static int q_m_time(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	struct calc_pick_why w;
	const struct calc_search_result *r;
	struct calc_diag why = {0};
	v->num = pick_why(c, &w, &r, &why) == 0 && w.fastest ? r->top[w.fastest - 1].r.step_time : NAN;
	calc_diag_free(&why);
	return 0;
}
static int q_m_band(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	struct calc_pick_why w;
	const struct calc_search_result *r;
	struct calc_diag why = {0};
	v->num = pick_why(c, &w, &r, &why) == 0 && w.fastest ? w.band : NAN;
	calc_diag_free(&why);
	return 0;
}

/* 1 when the recommendation, applied to the plan with the plan's own layout keys
 * (parallel.account_embedding, first_stage_layers ...), is a valid plan that Megatron-LM
 * runs (1F1B or interleaved, or one stage): what `trainplan export --for megatron` needs. */
static int q_s_export(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	const struct calc_search_top *t = need_safe(c, NULL, d);
	if (!t)
		return -1;
	struct calc_plan *p = xmalloc(sizeof *p);
	struct calc_diag why = {0};
	calc_search_apply(&c->plan, &t->r.c, p);
	v->num = (t->r.c.pp == 1 || t->r.c.schedule == CALC_SCHED_1F1B || t->r.c.schedule == CALC_SCHED_INTERLEAVED) &&
	         calc_plan_validate(p, &why) == 0;
	calc_diag_free(&why);
	free(p);
	return 0;
}

/* plan.pick_band by name: which band the recommendation is chosen in (pick.c) */
static int q_pick_band(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	static const char *const names[] = {"absolute", "comparison", "fixed"};
	v->num = NAN;
	v->str = c->plan.pick_band >= 0 && c->plan.pick_band < 3 ? names[c->plan.pick_band] : "absolute";
	return 0;
}

static int q_margin(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	v->num = c->plan.memory_margin;
	return 0;
}

#define QR(fn, expr)                                                                    \
	static int fn(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)        \
	{                                                                               \
		const struct calc_search_result *r = ctx_search_as(c, NEED_TOP, 1, d);      \
		if (!r)                                                                 \
			return -1;                                                      \
		v->num = (double)(expr);                                                \
		return 0;                                                               \
	}
/* The top configurations found, min(K, configurations that fit): > 0 iff one fits.  It
 * reads no counts, so a scenario that asks only this and the best's quantities is searched
 * without counting (NEED_BEST). */
static int q_found(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	const struct calc_search_result *r = ctx_search_top(c, d);
	if (!r)
		return -1;
	v->num = calc_search_kept(r); /* the window the recommendation read (pick.c) */
	return 0;
}

/* 1 when a configuration fits (search.found > 0), else 0.  The top is exact, so a search
 * keeping one row holds one iff the window holds one: found is min(K, ranked) or the
 * band's count, and > 0 iff ranked > 0 (pick.c, calc_search_kept).  Read of the fastest
 * configuration alone, so a `with` variant asked only this and search.best.* searches for
 * that configuration alone (calc_search_name_first), without the window's 400 rows. */
static int q_fits(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	const struct calc_search_result *r = ctx_search_as(c, NEED_BEST, 1, d);
	if (!r)
		return -1;
	v->num = r->ntop > 0;
	return 0;
}

/* The quantities that read a search's counts (QR): a directive naming one needs a search
 * that counts (calc_search_name_counts). */
QR(q_evaluated, r->evaluated)
QR(q_ranked, r->ranked)
QR(q_rejected, r->evaluated - r->ranked)
QR(q_rej_memory, r->rejected[CALC_REJ_MEMORY])

int calc_search_name_counts(const char *name)
{
	/* those that read the top K alone (need_best, need_safe, need_pick, q_found) or no
	 * search; any other name -- the counts (QR), one added later -- counts */
	static const char *const top[] = {"search.best.", "search.safe.", "search.pick.", "search.margin.",
	                                  "search.framework."};
	for (size_t i = 0; i < sizeof top / sizeof *top; i++)
		if (!strncmp(name, top[i], strlen(top[i])))
			return 0;
	return strcmp(name, "search.found") && strcmp(name, "search.fits") && strcmp(name, "search.memory_margin") &&
	       strcmp(name, "search.pick_band");
}

int calc_search_name_first(const char *name)
{
	/* need_best's (but the simulator's re-check of the top), q_fits, the counts (QR), or none */
	static const char *const first[] = {"search.fits", "search.evaluated", "search.ranked", "search.rejected",
	                                    "search.rejected_memory", "search.memory_margin", "search.pick_band"};
	if (!strncmp(name, "search.best.", 12))
		return strcmp(name, "search.best.step_time_sim") != 0;
	for (size_t i = 0; i < sizeof first / sizeof *first; i++)
		if (!strcmp(name, first[i]))
			return 1;
	return 0;
}

const struct calc_quantity calc_q_search[] = {
	{"search.best.tp", "1", "tensor-parallel degree of the best configuration", q_tp},
	{"search.best.pp", "1", "pipeline stages of the best configuration", q_pp},
	{"search.best.dp", "1", "data-parallel degree of the best configuration", q_dp},
	{"search.best.cp", "1", "context-parallel degree of the best configuration", q_cp},
	{"search.best.ep", "1", "expert-parallel degree of the best configuration (1 for a dense model)", q_ep},
	{"search.best.etp", "1", "expert tensor-parallel degree of the best configuration (1 for a dense model)", q_etp},
	{"search.best.vpp", "1", "model chunks per stage of the best configuration (interleaved)", q_vpp},
	{"search.best.micro_batch", "1", "micro-batch size of the best configuration [sequences]", q_mb},
	{"search.best.recompute", "", "activation recomputation of the best configuration", q_rc},
	{"search.best.sp", "", "sequence parallelism of the best configuration", q_sp},
	{"search.best.zero", "1", "ZeRO stage of the best configuration", q_zero},
	{"search.best.schedule", "", "pipeline schedule of the best configuration", q_sched},
	{"search.best.step_time", "s", "step time of the best configuration (closed-form bubble)", q_time},
	{"search.best.step_time_sim", "s", "step time of the best configuration with the pipeline simulator",
	 q_time_sim},
	{"search.best.mfu", "1", "MFU of the best configuration", q_mfu},
	{"search.best.memory", "B", "memory per GPU of the best configuration's worst stage", q_memory},
	{"search.best.headroom", "B", "usable memory minus the best configuration's worst stage", q_headroom},
	{"search.best.cost", "currency", "run cost of the best configuration for the token budget", q_cost},
	{"search.memory_margin", "1", "share of usable memory the recommendation leaves free (plan.memory_margin)", q_margin},
	{"search.margin.rank", "1", "rank by step time of the fastest of the top that leaves the memory margin (NaN: none)", q_m_rank},
	{"search.margin.step_time", "s", "step time of the fastest of the top that leaves the memory margin (NaN: none)", q_m_time},
	{"search.safe.band", "1", "the band the recommendation is chosen in: plan.pick_band's, validation.band of the plan's stack by default (NaN: unknown or none leaves the margin)", q_m_band},
	{"search.pick_band", "", "the kind of band the recommendation is chosen in (plan.pick_band): absolute, comparison or fixed", q_pick_band},
	{"search.safe.exportable", "1", "1 when the recommendation with the plan's layout keys is a valid plan of 1F1B or interleaved (trainplan export --for megatron)", q_s_export},
	{"search.safe.rank", "1", "rank by step time of the recommendation: the simplest within search.safe.band of the fastest that leaves the memory margin (calc/pick.c)", q_s_rank},
	{"search.safe.tp", "1", "tensor-parallel degree of the recommendation", q_s_tp},
	{"search.safe.pp", "1", "pipeline stages of the recommendation", q_s_pp},
	{"search.safe.dp", "1", "data-parallel degree of the recommendation", q_s_dp},
	{"search.safe.cp", "1", "context-parallel degree of the recommendation", q_s_cp},
	{"search.safe.ep", "1", "expert-parallel degree of the recommendation (1 for a dense model)", q_s_ep},
	{"search.safe.etp", "1", "expert tensor-parallel degree of the recommendation (1 for a dense model)", q_s_etp},
	{"search.safe.vpp", "1", "model chunks per stage of the recommendation (interleaved)", q_s_vpp},
	{"search.safe.micro_batch", "1", "micro-batch size of the recommendation [sequences]", q_s_mb},
	{"search.safe.recompute", "", "activation recomputation of the recommendation", q_s_rc},
	{"search.safe.sp", "", "sequence parallelism of the recommendation", q_s_sp},
	{"search.safe.zero", "1", "ZeRO stage of the recommendation", q_s_zero},
	{"search.safe.schedule", "", "pipeline schedule of the recommendation", q_s_sched},
	{"search.safe.step_time", "s", "step time of the recommendation (closed-form bubble)", q_s_time},
	{"search.safe.mfu", "1", "MFU of the recommendation", q_s_mfu},
	{"search.safe.memory", "B", "memory per GPU of the recommendation's worst stage", q_s_memory},
	{"search.safe.headroom", "B", "usable memory minus the recommendation's worst stage", q_s_headroom},
	{"search.safe.cost", "currency", "run cost of the recommendation for the token budget", q_s_cost},
	{"search.pick.tp", "1", "tensor-parallel degree of the recommendation, or of the best configuration where none leaves the margin", q_p_tp},
	{"search.pick.pp", "1", "pipeline stages of the recommendation, or of the best configuration where none leaves the margin", q_p_pp},
	{"search.pick.dp", "1", "data-parallel degree of the recommendation, or of the best configuration where none leaves the margin", q_p_dp},
	{"search.pick.cp", "1", "context-parallel degree of the recommendation, or of the best configuration where none leaves the margin", q_p_cp},
	{"search.pick.recompute", "", "recomputation of the recommendation, or of the best configuration where none leaves the margin", q_p_rc},
	{"search.pick.schedule", "", "schedule of the recommendation, or of the best configuration where none leaves the margin", q_p_sched},
	{"search.pick.cp_time", "s", "CP exchange per step of the recommendation (or best), if none overlapped", q_p_cp_time},
	{"search.pick.cp_exposed", "s", "of search.pick.cp_time, the part on the critical path", q_p_cp_exposed},
	{"search.pick.bubble", "s", "pipeline bubble per step of the recommendation (or best), closed form", q_p_bubble},
	{"search.pick.step_time", "s", "step time of the recommendation, or of the best configuration where none leaves the margin", q_p_time},
	{"search.framework.name", "", "framework of the plan's stack whose launch flags trainplan export writes (--for)", q_f_name},
	{"search.framework.title", "", "that framework in words", q_f_title},
	{"search.framework.own", "1", "1: the plan's stack is that framework's; 0: the stack has no export of its own "
	 "(megatron stands in)", q_f_own},
	{"search.framework.found", "1", "1: the framework runs a configuration that fits (search.framework.* exist)",
	 q_f_found},
	{"search.framework.runs_pick", "1", "1: the framework runs the planner's pick (search.pick) as it stands", q_f_runs_pick},
	{"search.framework.tp", "1", "tensor-parallel degree of the best configuration the framework runs", q_f_tp},
	{"search.framework.pp", "1", "pipeline stages of the best configuration the framework runs", q_f_pp},
	{"search.framework.dp", "1", "data-parallel degree of the best configuration the framework runs", q_f_dp},
	{"search.framework.cp", "1", "context-parallel degree of the best configuration the framework runs", q_f_cp},
	{"search.framework.ep", "1", "expert-parallel degree of the best configuration the framework runs", q_f_ep},
	{"search.framework.etp", "1", "expert tensor-parallel degree of the best configuration the framework runs", q_f_etp},
	{"search.framework.vpp", "1", "model chunks per stage of the best configuration the framework runs", q_f_vpp},
	{"search.framework.micro_batch", "1", "micro-batch of the best configuration the framework runs [sequences]", q_f_mb},
	{"search.framework.recompute", "", "recomputation of the best configuration the framework runs", q_f_rc},
	{"search.framework.sp", "", "sequence parallelism of the best configuration the framework runs", q_f_sp},
	{"search.framework.zero", "1", "ZeRO stage of the best configuration the framework runs", q_f_zero},
	{"search.framework.schedule", "", "schedule of the best configuration the framework runs", q_f_sched},
	{"search.framework.split", "", "plan keys of the uneven placement of the best configuration the framework runs "
	 "(\"\" where the split rule places it)", q_f_split},
	{"search.framework.export", "", "what trainplan export --for search.framework.name writes for the plan with "
	                                "that configuration: the framework's launch flags or config", q_f_export},
	{"search.framework.step_time", "s", "step time of the best configuration the framework runs (closed-form bubble)",
	 q_f_time},
	{"search.framework.memory", "B", "memory per GPU of the worst stage of the best configuration the framework runs",
	 q_f_memory},
	{"search.evaluated", "1", "configurations the planner considered", q_evaluated},
	{"search.ranked", "1", "configurations that are valid and fit (ranked)", q_ranked},
	{"search.fits", "1", "1 when a configuration of the planner's grid fits, else 0 (search.found > 0, read of the fastest configuration alone)", q_fits},
	{"search.found", "1", "top configurations the planner keeps: the recommendation's window (pick.c: 100, grown until its last row is outside the band), or the configurations that fit where fewer", q_found},
	{"search.rejected", "1", "configurations rejected (invalid or do not fit)", q_rejected},
	{"search.rejected_memory", "1", "valid configurations that do not fit in memory", q_rej_memory},
	{NULL, NULL, NULL, NULL},
};

/* top=K limits the rows (at most the cached K). */
/* The top table's throughput and cost as a reader keeps them (docs/references.md §9.20):
 * four significant digits, grouped (460,900 tokens/s, 4,132,000), not every digit of a
 * prediction (460,938; 4,131,897).  The values stay exact: JSON and TSV write them in
 * full; `trainplan search` (cli/cmd_search.c) keeps its own integer columns for CSV. */
static void top_reader_cols(struct calc_table *t)
{
	for (int i = 0; i < t->ncols; i++)
		if (t->cols[i].disp == CALC_D_INT &&
		    (!strcmp(t->cols[i].name, "tokens_per_s") || !strcmp(t->cols[i].name, "cost")))
			t->cols[i].disp = CALC_D_NUM, t->cols[i].prec = 4;
}

static int t_top(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_search_result *r = ctx_search_sim(c, d);
	const char *k = calc_args_get(a, "top");
	if (!r)
		return -1;
	{ /* the rows shown decide the columns (an uneven split's), not the window kept for the
	   * recommendation (pick.c), whose size the table does not depend on */
		long n = k ? strtol(k, NULL, 10) : 10;
		struct calc_search_result *v = xmalloc(sizeof *v);
		*v = *r;
		if (n > 0 && n < v->ntop)
			v->ntop = (int)n;
		calc_search_table_top(v, t);
		top_reader_cols(t);
		free(v);
	}
	if (!k && t->nrows > 10) { /* the search keeps CALC_PICK_TOP for the recommendation; 10 are shown */
		for (int i = 10 * t->ncols; i < t->nrows * t->ncols; i++)
			free(t->cells[i].s), t->cells[i].s = NULL;
		t->nrows = 10;
	}
	if (k) {
		char *end;
		long n = strtol(k, &end, 10);
		/* strtol, not atoi: "3x" was read as 3 and 10^20 overflowed; above 10 (the
		 * rows the planner keeps) was cut to 10 without a word */
		if (end == k || *end || n < 1 || n > 10)
			return calc_error_id(d, CALC_M_BAD_ARGUMENT, NULL, 0, "search-top: top=%s: expected an integer 1 .. 10", k);
		if (n < t->nrows) {
			for (int i = n * t->ncols; i < t->nrows * t->ncols; i++)
				free(t->cells[i].s), t->cells[i].s = NULL;
			t->nrows = n;
		}
	}
	return 0;
}

#define TB(fn, call)                                                                              \
	static int fn(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d) \
	{                                                                                         \
		const struct calc_search_result *r = calc_ctx_search(c, d);                           \
		if (!r)                                                                           \
			return -1;                                                                \
		call(r, t);                                                                       \
		return 0;                                                                         \
	}
/* The search's table of outcomes (search.c), its rules said as the catalog's search runs:
 * no --min-headroom and no --even (options of `trainplan search`, which a plan file does
 * not set), and of the memory rejects the smallest overshoot, the closest miss, not the
 * mean, which the grid's absurd splits (a 100B model on one GPU) make meaningless: the
 * mean of the default plan's rejects was 157 GB where the closest miss is 3 MB short. */
static int t_rejects(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_search_result *r = calc_ctx_search(c, d);
	if (!r)
		return -1;
	calc_search_table_rejects(r, t);
	for (int row = 0; row < t->nrows && t->ncols >= 4; row++) {
		const char *out = t->cells[row * t->ncols].s;
		char buf[480];
		if (!out)
			continue;
		if (!strcmp(out, "pp-layers") && !r->opts.even_only)
			calc_table_str(t, row, 3, "pp is more than the layers");
		if (strcmp(out, "memory") || r->opts.min_headroom > 0)
			continue;
		if (!r->have_closest) {
			calc_table_str(t, row, 3, "the worst pipeline stage does not fit in the GPU's usable memory");
			continue;
		}
		const struct calc_search_cfg *m = &r->closest_miss.c;
		double short_mb = -r->closest_miss.headroom / 1e6;
		/* the counts with the table's thousands separators (533,075, not 533075) */
		char nf[32], nm[32], nl[32];
		calc_fmt_fixed((double)r->miss_first, 0, CALC_SEP_ALL, nf, sizeof nf);
		calc_fmt_fixed((double)r->miss_middle, 0, CALC_SEP_ALL, nm, sizeof nm);
		calc_fmt_fixed((double)r->miss_last, 0, CALC_SEP_ALL, nl, sizeof nl);
		snprintf(buf, sizeof buf, "the worst pipeline stage does not fit in the GPU's usable memory; worst stage "
		         "first %s, middle %s, last %s; the smallest overshoot (the closest miss): stage %d short by "
		         "%.*f MB (tp %d pp %d dp %d cp %d mb %d %s ZeRO-%d %s)", nf, nm, nl,
		         r->closest_miss.worst, short_mb < 10 ? 2 : 0, short_mb, m->tp, m->pp, m->dp, m->cp, m->micro_batch,
		         calc_recompute_name((enum calc_recompute)m->recompute), m->zero,
		         calc_schedule_name((enum calc_schedule)m->schedule));
		calc_table_str(t, row, 3, buf);
	}
	return 0;
}
/* The first 10 rows, as search-top shows: the search keeps the recommendation's window
 * (pick.c: 100 or more), which is not a table to print */
static int t_breakdown(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_search_result *r = calc_ctx_search(c, d);
	if (!r)
		return -1;
	calc_search_table_breakdown(r, t);
	if (t->nrows > 10) {
		for (int i = 10 * t->ncols; i < t->nrows * t->ncols; i++)
			free(t->cells[i].s), t->cells[i].s = NULL;
		t->nrows = 10;
	}
	return 0;
}

/* The axes' best: a top-only search that keeps them exact (opts.top_axes); the heatmap
 * needs every ranked leaf timed, the complete search. */
#define TBF(fn, need, call)                                                                       \
	static int fn(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d) \
	{                                                                                         \
		const struct calc_search_result *r = ctx_search(c, need, d);                          \
		if (!r)                                                                           \
			return -1;                                                                \
		call(r, t);                                                                       \
		return 0;                                                                         \
	}
TBF(t_axes, NEED_AXES, calc_search_table_axes)
TBF(t_heatmap, NEED_FULL, calc_search_table_heatmap)

/*
 * The search-pareto dataset: what figures/search-pareto.gp draws, not every ranked
 * configuration (a large MoE plan ranks over a million, tens of MB of TSV for a chart
 * of a few thousand points).  It holds every configuration on the frontier (which
 * includes the best), and of the others a deterministic sample: at most PARETO_NEAR
 * of those within PARETO_WINDOW times the best step time (near() and the y range of figures/search-pareto.gp) and at
 * most PARETO_FAR of the slower ones, each sample every k-th row in the result's order
 * (by memory, then step time), k the smallest stride that keeps it under its bound.
 * A plan with fewer rows keeps them all.
 */
#define PARETO_WINDOW 1.5 /* figures/search-pareto.gp: set yrange [ : T_min*1.5] */
enum { PARETO_NEAR = 600, PARETO_FAR = 300 }; /* a chart of about 600 points */

long long calc_search_pareto_sample(const struct calc_search_point *pts, const char *frontier, long long nrows,
                                    char *keep)
{
	double best = INFINITY;
	long long near = 0, far = 0, kn, kf, in = 0, jf = 0, n = 0;
	for (long long i = 0; i < nrows; i++)
		if (pts[i].step_time < best)
			best = pts[i].step_time;
	for (long long i = 0; i < nrows; i++)
		if (!(frontier && frontier[i])) {
			if (pts[i].step_time < PARETO_WINDOW * best)
				near++;
			else
				far++;
		}
	kn = near > PARETO_NEAR ? (near + PARETO_NEAR - 1) / PARETO_NEAR : 1;
	kf = far > PARETO_FAR ? (far + PARETO_FAR - 1) / PARETO_FAR : 1;
	for (long long i = 0; i < nrows; i++) {
		if (frontier && frontier[i])
			keep[i] = 1;
		else if (pts[i].step_time < PARETO_WINDOW * best)
			keep[i] = in++ % kn == 0;
		else
			keep[i] = jf++ % kf == 0;
		n += keep[i];
	}
	return n;
}

/* The search at NEED_ROWS keeps the sample's rows alone (opts.pareto_sample, search_opts):
 * the DeepSeek-V3 plan ranks 2,244,475 configurations, and keeping each as a row (136
 * bytes: 305 MB in the items' arrays, copied into one and sorted by qsort) to write 829
 * of them was most of `trainplan data search-pareto` and of the report's datasets phase:
 * 6.85 s of CPU (perf stat task-clock, both threads) and 159,903 page faults before,
 * 1.50 s and 17,419 with the points (13.20 -> 12.83 G instructions, callgrind: the time
 * went to the faults and copies, which it does not count). */
static int t_pareto(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_search_result *r = ctx_search(c, NEED_ROWS, d);
	char note[512];
	if (!r)
		return -1;
	calc_search_table_pareto(r, t);
	if (r->nrows < r->npoints) {
		snprintf(note, sizeof note, "%s Of %lld configurations that fit: every one on the frontier and a sample of the "
		         "others, every k-th by memory (at most %d within %.1f times the best step time, %d beyond).",
		         t->note ? t->note : "", r->npoints, PARETO_NEAR, PARETO_WINDOW, PARETO_FAR);
		calc_table_note(t, note);
	}
	return 0;
}

/*
 * plan-marks: where the plan as written and the planner's pick sit on the charts that
 * show the design space (the TP x PP heatmap, the memory/time plane), one row: the
 * plan's tp, pp, memory of its worst stage and closed-form step time (calc_step_fast, the
 * planner's own time, so that the plan and the grid are timed alike), the same of the
 * pick (the recommendation, or the fastest split where none leaves the margin; NaN where
 * nothing fits), the plan's inter-node bandwidth per GPU, and its schedule, recomputation
 * and recipe by name, its point on the bubble curves (micro-batches per step and the
 * closed-form bubble of its schedule), its GPU count and its sequence length.
 */
static int t_marks(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t, struct calc_diag *d)
{
	const struct calc_memory *m = calc_ctx_memory(c, d);
	if (!m)
		return -1;
	struct calc_step *st = xmalloc(sizeof *st);
	calc_step_fast(&c->plan, st);
	struct calc_diag why = {0};
	const struct calc_search_top *pk = need_pick(c, &why);
	calc_diag_free(&why);
	calc_table_init(t, "plan-marks", "the plan and the pick on the design-space charts");
	static const char *const names[] = {"plan_tp", "plan_pp", "plan_memory", "plan_step_time", "pick_tp",
	                                    "pick_pp", "pick_memory", "pick_step_time", "inter_node_bw"};
	static const char *const units[] = {"1", "1", "B", "s", "1", "1", "B", "s", "B/s"};
	for (int i = 0; i < 9; i++)
		calc_table_col(t, names[i], units[i], CALC_D_NUM, 6);
	/* the plan's schedule, recomputation and recipe, for the charts whose rows are these */
	int csched = calc_table_col(t, "plan_schedule", "", CALC_D_TEXT, 0);
	int crc = calc_table_col(t, "plan_recompute", "", CALC_D_TEXT, 0);
	int crecipe = calc_table_col(t, "plan_recipe", "", CALC_D_TEXT, 0);
	/* the plan's point on the bubble curves: its micro-batches per step and the closed-form
	 * idle share of its schedule at equal op costs, as the curves are drawn (Narayanan et al.
	 * 2021 §2.2: (p-1)/(vm+p-1) for 1F1B and interleaved; the schedule table's row otherwise),
	 * the same figure as pipeline.bubble_fraction (catalog_pipeline.c) */
	int cm = calc_table_col(t, "plan_microbatches", "1", CALC_D_NUM, 6);
	int cb = calc_table_col(t, "plan_bubble", "1", CALC_D_NUM, 6);
	/* the pick's point on the same curves, by the same closed form ("" and NaN without one) */
	int cps = calc_table_col(t, "pick_schedule", "", CALC_D_TEXT, 0);
	int cpm = calc_table_col(t, "pick_microbatches", "1", CALC_D_NUM, 6);
	int cpb = calc_table_col(t, "pick_bubble", "1", CALC_D_NUM, 6);
	/* the plan's GPU count, for the charts over the cluster size (goodput-vs-gpus) */
	int cg = calc_table_col(t, "plan_gpus", "GPUs", CALC_D_INT, 0);
	/* the plan's sequence length, for the charts over it (activations-vs-seq) */
	int cs = calc_table_col(t, "plan_seq_len", "tokens", CALC_D_INT, 0);
	/* the model's parameters (model.params: every expert, a tied matrix once), for the
	 * charts over the model size (states-vs-size) */
	int cpar = calc_table_col(t, "plan_params", "1", CALC_D_NUM, 6);
	int r = calc_table_row(t);
	calc_table_num(t, r, cg, c->plan.nodes * c->plan.gpus_per_node);
	calc_table_num(t, r, cs, c->plan.seq_len);
	struct calc_params mpr;
	calc_model_params(&c->plan.model, &mpr);
	calc_table_num(t, r, cpar, mpr.total);
	int pm = calc_plan_microbatches(&c->plan);
	struct calc_pp_closed cf;
	calc_pipeline_closed_flush(c->plan.schedule, c->plan.pp, pm,
	                           c->plan.schedule == CALC_SCHED_INTERLEAVED ? c->plan.vpp : 1, 1, 1, 1,
	                           !c->plan.post_validation, &cf);
	calc_table_num(t, r, cm, pm);
	calc_table_num(t, r, cb, c->plan.pp > 1 ? cf.fraction : 0);
	calc_table_str(t, r, cps, pk ? calc_schedule_name((enum calc_schedule)pk->r.c.schedule) : "");
	calc_table_num(t, r, cpm, pk ? pk->r.c.m : NAN);
	if (pk) {
		calc_pipeline_closed_flush((enum calc_schedule)pk->r.c.schedule, pk->r.c.pp, pk->r.c.m,
		                           pk->r.c.schedule == CALC_SCHED_INTERLEAVED ? pk->r.c.vpp : 1, 1, 1, 1,
		                           !c->plan.post_validation, &cf);
		calc_table_num(t, r, cpb, pk->r.c.pp > 1 ? cf.fraction : 0);
	} else
		calc_table_num(t, r, cpb, NAN);
	calc_table_str(t, r, csched, calc_schedule_name(c->plan.schedule));
	calc_table_str(t, r, crc, calc_recompute_name(c->plan.recompute));
	calc_table_str(t, r, crecipe, c->plan.recipe_name);
	double v[9] = {c->plan.tp, c->plan.pp, m->st[m->worst].total, st->time, NAN, NAN, NAN, NAN,
	               c->plan.inter_node_bw};
	if (pk) {
		v[4] = pk->r.c.tp;
		v[5] = pk->r.c.pp;
		v[6] = pk->r.memory;
		v[7] = pk->r.step_time;
	}
	for (int i = 0; i < 9; i++)
		calc_table_num(t, r, i, v[i]);
	free(st);
	return 0;
}

const struct calc_tabledef calc_t_search[] = {
	{"search-top", "the best configurations of the planner (top 10 by step time)", "top=K (K <= 10)", t_top},
	{"search-breakdown", "step time breakdown of the top configurations", "", t_breakdown},
	{"search-axes", "the runner-up on each axis (without PP, with ZeRO-3, per schedule ...)", "", t_axes},
	{"search-rejects", "configurations of the planner's grid by outcome and reject reason", "", t_rejects},
	{NULL, NULL, NULL, NULL},
};

const struct calc_tabledef calc_d_search[] = {
	{"search-pareto", "memory vs step time of the configurations that fit: the frontier and a sample of the rest", "",
	 t_pareto},
	{"search-heatmap", "best step time over TP x PP", "", t_heatmap},
	{"plan-marks", "the plan and the pick (tp, pp, memory, closed-form step time), the plan's inter-node "
	               "bandwidth, its (micro-batches, bubble) point, GPU count and sequence length, for marking the charts", "", t_marks},
	{NULL, NULL, NULL, NULL},
};
