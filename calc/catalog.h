/*
 * catalog.h -- every output by a stable dotted name: the evaluation context (ctx.c),
 * the quantities, tables and datasets of the catalog modules (catalog*.c, report_catalog.c)
 * and their lookup (catalog.c).
 */
#ifndef CALC_CATALOG_H
#define CALC_CATALOG_H

#include "diag.h"
#include "memory.h"
#include "plan.h"
#include "pool.h"
#include "table.h"

/*
 * An evaluation context: one plan plus caches of what has been computed for it, so
 * that evaluating many quantities of one plan computes each engine once and each
 * quantity once.  Module caches live in the slots (filled by calc_ctx_memory,
 * calc_ctx_step, calc_ctx_search ...); calc_catalog_get keeps every quantity's value,
 * or its failure and diagnostics, by the quantity's position in the catalog.  A context
 * belongs to one thread at a time; contexts of different plans are independent.
 */
enum calc_slot {
	CALC_SLOT_MEMORY,
	CALC_SLOT_PIPELINE,
	CALC_SLOT_COMM,
	CALC_SLOT_STEP,
	CALC_SLOT_SEARCH,
	CALC_SLOT_SEARCH_MEMO, /* of a root context: the memory sides of its and its variants'
	                          searches (calc_search_memo) */
	CALC_SLOT_NETWORK,     /* report_catalog.c: step times of the plan and its neighbours by
	                          inter-node bandwidth */
	CALC_SLOT_PREFETCH,    /* catalog_search.c: the search queued by calc_ctx_search_prefetch */
	CALC_SLOT_SEARCH_FW,   /* catalog_search.c: the search of what the plan's stack's framework runs */
	CALC_SLOT_N
};
struct calc_ctx_value;

struct calc_ctx_variant;
struct calc_ctx {
	struct calc_plan plan;
	void *slot[CALC_SLOT_N];              /* module caches, owned */
	void (*slot_free[CALC_SLOT_N])(void *);
	struct calc_ctx_value **val;          /* value cache, one entry per quantity position, in
	                                         blocks of CALC_CTX_VAL_BLOCK made at the first get
	                                         of one of theirs (a context reads a few dozen of
	                                         the catalog's quantities); owned */
	int nval;                             /* blocks of val (0 until the first calc_catalog_get) */
	struct calc_ctx_variant *variants;    /* variant contexts by their assignments; owned */
	int nvariants, capvariants;
	struct calc_ctx *root;                /* the context this one is a variant of (through
	                                         calc_ctx_variant), NULL for none: caches that
	                                         variants share live there */
};
/*
 * The context of 'base' changed by the 'n' assignments "KEY=VALUE" (calc_plan_variant,
 * validated once), built on first use and kept in 'base' so that every directive with
 * the same assignments shares one context and its caches (a chapter that asks for five
 * numbers of one scenario computes the scenario once).  'origin' names the first
 * caller in messages.  Returns the context (owned by 'base', freed with it), or NULL
 * after diagnostics in 'd' when the variant is not a valid plan (not cached).
 */
struct calc_ctx *calc_ctx_variant(struct calc_ctx *base, const char *const *kvs, int n, const char *origin,
                                  struct calc_diag *d);
/* Start a context for a copy of 'plan'; nothing is computed yet. */
void calc_ctx_init(struct calc_ctx *c, const struct calc_plan *plan);
/* Release every cache; the context may be initialised again. */
void calc_ctx_free(struct calc_ctx *c);
/* Queue on the pool (when it runs) the search that calc_ctx_search will run first for a
 * context of 'plan' -- the root context 'root' or one of its variants (calc_ctx_variant);
 * such a context's search quantities then wait for it instead of searching.  Results
 * are the same as without.  'root' must outlive the pool's jobs (calc_pool_stop).
 * Returns the job that search waits for (queued now or before; calc_pool_done tells
 * when it has run), or NULL when none is queued (no pool, or the root's search is
 * there already). */
const struct calc_job *calc_ctx_search_prefetch(struct calc_ctx *root, const struct calc_plan *plan);
/* calc_ctx_search_prefetch for a directive that reads the search's counts ('counts' 1:
 * search.ranked, search.evaluated ...) or only its top (0: search.best.*, search.found
 * ...): a variant's first search is then one that does not count (opts.no_counts) where
 * no memo of its memory side is there to read.  A later call with counts = 1 (or
 * calc_search_prefetch_counts) raises a queued job that has not started; a context whose
 * result holds no counts searches again when one is asked. */
const struct calc_job *calc_ctx_search_prefetch_for(struct calc_ctx *root, const struct calc_plan *plan, int counts);
/* calc_ctx_search_prefetch_for for a directive whose search names read only the fastest
 * configuration and the counts ('first' 1: search.best.*, search.ranked ...,
 * calc_search_name_first): a variant's first search then keeps that configuration alone
 * (opts.top 1, no window for the recommendation).  A later call with first = 0 (or
 * calc_search_prefetch_all) makes a queued job that has not started keep the window; a
 * context whose result holds the first configuration alone searches again when more is
 * asked. */
const struct calc_job *calc_ctx_search_prefetch_first(struct calc_ctx *root, const struct calc_plan *plan, int counts,
                                                      int first);
/* Job j of calc_ctx_search_prefetch_for is to count, as with counts = 1 (where it has not
 * started). */
void calc_search_prefetch_counts(const struct calc_job *j);
/* Job j of calc_ctx_search_prefetch_first is to keep the window, as with first = 0 (where
 * it has not started). */
void calc_search_prefetch_all(const struct calc_job *j);
/* 1 when the value of quantity 'name' reads of a search only its fastest configuration
 * (search.best.* but the simulator's search.best.step_time_sim, search.fits) or its counts
 * (search.evaluated, search.ranked, search.rejected, search.rejected_memory), or no search
 * (search.memory_margin, search.pick_band); 0 for the rest (the recommendation, its window,
 * the tables). */
int calc_search_name_first(const char *name);
/* 1 when the value of quantity 'name' reads a search's counts (every name but those of the
 * top K: search.best.*, search.safe.*, search.pick.*, search.found, search.fits,
 * search.memory_margin). */
int calc_search_name_counts(const char *name);
/* Queue on the pool (when it runs) the bandwidth search behind quantity or table 'name'
 * of context c (report_catalog.c: network.crossover_bw, network.bf16_reduce_bw,
 * network.dp_overlap_bw, the table network-sweep), which fills c's cache of step times;
 * evaluating 'name' in c then waits for the job and reads the cache, with the numbers
 * it computes without.  c must outlive the pool's jobs (calc_pool_stop) and be
 * evaluated on this thread only.  Returns the job (queued now or before), or NULL for
 * another name or without a pool. */
const struct calc_job *calc_network_prefetch(struct calc_ctx *c, const char *name);
/* The memory result of the context's plan, computed once. NULL after a diagnostic. */
const struct calc_memory *calc_ctx_memory(struct calc_ctx *c, struct calc_diag *d);

struct calc_value {
	double num;      /* SI value */
	const char *str; /* non-NULL for a text value (static or owned by the ctx) */
};

struct calc_quantity {
	const char *name;  /* "memory.total" */
	const char *unit;  /* SI unit: "B", "s", "1", "FLOP/s", "GPUs", "" for text */
	const char *desc;  /* one line */
	int (*get)(struct calc_ctx *c, struct calc_value *out, struct calc_diag *d);
};

/* Named arguments of a table or dataset ("recipes=seed,megatron"). */
struct calc_args {
	int n;
	char key[8][32];
	char val[8][256];
};
const char *calc_args_get(const struct calc_args *a, const char *key);

struct calc_tabledef {
	const char *name;   /* "memory-breakdown" */
	const char *desc;
	const char *params; /* accepted arguments in words, "" if none */
	int (*build)(struct calc_ctx *c, const struct calc_args *a, struct calc_table *out,
	             struct calc_diag *d);
};

/* Each module exports its entries, terminated by an entry whose name is NULL.
 * catalog.c joins them; see catalog.c for the list of modules. */
extern const struct calc_quantity calc_q_memory[], calc_q_pipeline[], calc_q_comm[],
	calc_q_step[], calc_q_search[];
extern const struct calc_tabledef calc_t_memory[], calc_t_pipeline[], calc_t_comm[],
	calc_t_step[], calc_t_search[];
extern const struct calc_tabledef calc_d_memory[], calc_d_pipeline[], calc_d_comm[],
	calc_d_step[], calc_d_search[];

/*
 * Name lookup: a binary search over an index sorted by name that the first lookup builds
 * (once per process, thread-safe).  Where two modules give one name, the first module of
 * catalog.c's list wins.  NULL when there is no such entry.  The _at forms walk the
 * entries by position (0, 1, ... until NULL), in module order.
 */
const struct calc_quantity *calc_catalog_quantity(const char *name);
const struct calc_quantity *calc_catalog_quantity_at(int i);
const struct calc_tabledef *calc_catalog_table(const char *name);
const struct calc_tabledef *calc_catalog_table_at(int i);
const struct calc_tabledef *calc_catalog_dataset(const char *name);
const struct calc_tabledef *calc_catalog_dataset_at(int i);
/* Evaluate one quantity by name (unknown names are an error listing close names).  The
 * first use in a context computes it; later uses return the cached value, or fail again
 * with the same diagnostics.  Returns 0, or -1 after a diagnostic. */
int calc_catalog_get(struct calc_ctx *c, const char *name, struct calc_value *out,
                     struct calc_diag *d);
/* Build one table or dataset by name with arguments. */
int calc_catalog_build(struct calc_ctx *c, const char *name, int dataset, const struct calc_args *a,
                       struct calc_table *out, struct calc_diag *d);

#endif
