/*
 * search.h -- public interface of search.c, the planner.
 *
 * The planner walks every combination of (GPUs, recipe, TP, PP, CP, micro-batch,
 * schedule with its VPP, recomputation, SP, ZeRO stage) of a candidate grid, rejects
 * the invalid ones with a reason, measures the memory of the worst pipeline stage of
 * the rest, times the ones that fit with the closed-form step model
 * (calc_step_fast) and ranks them.  The top K are re-checked with the pipeline
 * simulator (calc_step).  See search.c for the grid and the order of the checks.
 */
#ifndef CALC_SEARCH_H
#define CALC_SEARCH_H

#include <stddef.h>

#include "bounds.h"
#include "diag.h"
#include "plan.h"
#include "table.h"
#include "catalog.h"
#include "step.h"

/* Why a configuration is not in the ranking; the first check that fails names it. */
enum calc_reject {
	CALC_REJ_NONE,        /* valid and fits: ranked */
	CALC_REJ_FP8,         /* the recipe computes in FP8, the GPU has no FP8 tensor cores */
	CALC_REJ_TP,          /* tp does not divide heads, kv_heads or ffn_hidden */
	CALC_REJ_PP,          /* pp > layers (with --even: pp does not divide layers) */
	CALC_REJ_CP,          /* seq_len is not divisible by 2 x cp */
	CALC_REJ_EP,          /* MoE: ep x etp does not divide tp x cp x dp (parallel folding), or
	                       * the placement's expert pipeline groups differ (comm.h) */
	CALC_REJ_ETP,         /* MoE: etp does not divide the expert FFN width */
	CALC_REJ_BATCH,       /* global_batch is not divisible by micro_batch x dp */
	CALC_REJ_VPP,         /* a vpp schedule: layers of a stage not divisible by vpp */
	CALC_REJ_SCHED0,      /* + schedule id: the schedule's own check (its row's reject) */
	CALC_REJ_INTERLEAVED = CALC_REJ_SCHED0 + CALC_SCHED_INTERLEAVED, /* m not a multiple of pp */
	CALC_REJ_DUALPIPE = CALC_REJ_SCHED0 + CALC_SCHED_DUALPIPE,       /* pp or m odd, m < 2 pp */
	CALC_REJ_MEMORY = CALC_REJ_SCHED0 + CALC_SCHED_MAX, /* the worst stage does not fit in
	                                                       the GPU's usable memory */
	CALC_REJ_FRAMEWORK,   /* opts.allow refuses it: the framework named does not run it */
	CALC_REJ_OFFLOAD,     /* optimizer offload without ZeRO >= 1 or FSDP (Megatron-Core builds
	                         its hybrid optimizer on the distributed optimizer) */
	CALC_REJ_N
};
const char *calc_reject_name(enum calc_reject r); /* "tp-divides", "memory", ... */
const char *calc_reject_desc(enum calc_reject r); /* one line, with the rule's source */
/* 1: a reason the search can give (a schedule's slot only when its row has a check). */
int calc_reject_used(enum calc_reject r);
struct calc_search_result;
/* 1: reason 'r' belongs in the outcome table of result 'res' (calc_reject_used, and the
 * expert reasons only for a model with experts). */
int calc_search_reject_shown(const struct calc_search_result *res, enum calc_reject r);
/* The reason of schedule s's own check failing (CALC_REJ_SCHED0 + s). */
enum calc_reject calc_reject_of_schedule(enum calc_schedule s);

/* What the ranking minimises. */
enum calc_objective {
	CALC_OBJ_TIME,     /* step time [s] (default) */
	CALC_OBJ_COST,     /* cost of the run for the plan's token budget [currency] */
	CALC_OBJ_MEMORY,   /* largest worst-stage headroom first (ties: faster first) */
	CALC_OBJ_EFFECTIVE_DAYS, /* expected wall time of the run with checkpoints and failures
	                            (run.c, run.effective_days) [s] */
	CALC_OBJ_TOTAL_COST,     /* GPU-hours of that wall time and the energy (run.c,
	                            run.total_cost) [currency] */
	CALC_OBJ_N
};
const char *calc_objective_name(enum calc_objective o);
int calc_objective_parse(const char *s, enum calc_objective *out);

#define CALC_SEARCH_MAX_GPUS 64 /* GPU counts of one search (--gpus lists or ranges) */
#define CALC_SEARCH_MAX_ROWS 20000000 /* rows kept with keep_all (about 2.4 GB) */
#define CALC_SEARCH_MAX_ITEMS (1 << 22) /* splits of one search (about 100 bytes each), checked
                                           before the grid is allocated */
#define CALC_PICK_TOP 100 /* the top configurations a search for the recommendation keeps first
                              (pick.c); calc_search_pick_window grows it until the band is read */
#define CALC_PICK_TOP_FIRST (4 * CALC_PICK_TOP) /* what a search for the recommendation keeps:
                              the window's first growth too, the most common, without a second
                              search (calc_search_pick_band) */
#define CALC_PICK_TOP_MAX 100000 /* the most it grows to (the most a search keeps, search.c) */
/* opts.leaves_per_thread where the user gave no number of threads (`trainplan search`
 * without --threads, the catalog's searches after calc_threads_default): a second
 * thread for a grid of 2 M leaves or more.  A second thread adds about 1 % of
 * instructions (callgrind: the 405B plan 44.21 -> 44.41 M; the DeepSeek-V3 plan at 64
 * GPUs 614 -> 621 M), but on a 2-core machine the two busy threads each run slower and
 * a small grid gains no time for it (perf stat, CPU ms and wall ms on 1 and on 2
 * threads): the 405B plan (127,680 leaves) 6.0 / 7.3 and 6.8 / 7.8, 41 interleaved pairs
 * 0.91 of the CPU and 0.99 of the wall time; `--gpus 256-16384 --max-mb 16` of it
 * (1.55 M) 22.9 / 25.1 and 34.9 / 24.7; the DeepSeek-V3 plan at 64 GPUs (1.78 M) 41.9 /
 * 48.0 and 61.3 / 36.7; the default plan `--gpus 64-4096 --max-mb 32 --vary recipe`
 * (39 M) 877 / 854 and 983 / 632. */
#define CALC_SEARCH_LEAVES_PER_THREAD 2000000LL
#define CALC_SEARCH_SEED 16 /* top configurations a memo keeps as a later search's seed */

struct calc_search_memo;
struct calc_search_cfg;

/* A ranked configuration as the Pareto set orders it (opts.pareto_sample). */
struct calc_search_point {
	double memory;    /* worst stage total per GPU [bytes] */
	double step_time; /* closed-form step time [s] */
	long long key;    /* position in the enumeration */
};

struct calc_search_opts {
	int ngpus;                       /* 0: the plan's GPU count */
	int gpus[CALC_SEARCH_MAX_GPUS];  /* GPU counts to search (multiples of the node size,
	                                    or fewer GPUs than one node) */
	int vary_recipe;                 /* 1: every recipe the GPU can run; 0: the plan's */
	int even_only;                   /* 1: pp must divide layers (no uneven split) */
	int max_mb;                      /* micro-batch sizes 1 .. max_mb (default 8) */
	int max_cp;                      /* context-parallel degrees up to this (default 16) */
	int max_vpp;                     /* interleaved chunks 2 .. max_vpp (default 8) */
	double offload_optimizer;        /* share F of the optimizer states (training.
	                                    offload_optimizer) tried offloaded to the host besides
	                                    none: a dimension of the grid; 0 (default): the plan's
	                                    own share, if any.  Considered only where the plan has
	                                    cluster.cpu_optimizer_rate and a host link
	                                    (calc_search_offload_share) */
	int offload_only;                /* 1: with offload_optimizer in effect, only the splits
	                                    with it (a plan's own share kept: the split a plan
	                                    without one takes, calc_plan_pick_split); default 0 */
	int top;                         /* K ranked configurations kept (default 10) */
	enum calc_objective objective;
	int threads;                     /* worker threads (default 2) */
	long long leaves_per_thread;     /* > 0: at most one thread more for each this many
	                                    leaves of the grid (the leaves of the items that
	                                    pass the item checks), so that a small search runs
	                                    on one; 0 (default): 'threads' threads.  The result
	                                    does not depend on it (CALC_SEARCH_LEAVES_PER_THREAD) */
	int keep_feasible;               /* 1: keep every ranked row (Pareto dataset) */
	/* with keep_feasible (not keep_all): the rows kept are a sample of the Pareto set.
	 * Each ranked leaf is kept as its point (struct calc_search_point, 24 bytes, not a
	 * row's 136), the points ordered as the Pareto set is (memory, step time, key) and
	 * the frontier marked, and 'pareto_sample' marks in keep[] (n entries, zeroed) the
	 * points to keep and returns how many.  result.rows holds those, in that order, each
	 * with its configuration, key, memory and step time (its other fields 0: the grid's
	 * enumeration gives the configuration from the key); result.frontier theirs;
	 * result.npoints the points they were chosen from.  NULL (default): every row. */
	long long (*pareto_sample)(const struct calc_search_point *pts, const char *frontier, long long n,
	                           char *keep);
	int keep_all;                    /* 1: keep every configuration (--all) */
	int recheck;                     /* 1: re-time the top K with the simulator (default) */
	int recheck_top;                 /* the simulator re-checks the first this many of the top K
	                                    (0: all of them; default 0) */
	int breakdown_top;               /* the closed-form breakdown (calc_search_top.fast) is
	                                    computed for the first this many of the top K, the
	                                    others' left NULL (0: all of them; default 0): a caller
	                                    that shows fewer rows than it keeps for the
	                                    recommendation's window (trainplan search) */
	int top_only;                    /* 1: only the top K and the counts are wanted (objective
	                                    time, no kept rows): a leaf that fits but whose lower
	                                    bound (calc_step_fast_bound) cannot enter the thread's
	                                    top K is counted as ranked and not timed, so the axes'
	                                    best, the heatmap cells and the Pareto set are left
	                                    incomplete (result.top_only); default 0 */
	int top_axes;                    /* with top_only: the axes' best stay exact too -- a leaf
	                                    is left untimed only when its lower bound can enter
	                                    neither the top K nor beat the best of any axis it is
	                                    on (result.axis as a complete search gives it); the
	                                    heatmap and the Pareto set stay incomplete; default 0 */
	double min_headroom;             /* memory a ranked configuration must leave free on its
	                                    worst stage [bytes] (default 0: the plan's overheads,
	                                    incl. fragmentation, are the only margin) */
	/* progress: called by the calling thread about every progress_interval seconds
	 * with the share of the work done [0..1] and the elapsed time [s], and once more
	 * with 1 when the enumeration is over; NULL for none.  The share weights each item
	 * of the grid by the leaves it evaluates (schedule variants x recomputation modes x
	 * SP x ZeRO stages), an item refused whole by none, so that it tracks the time
	 * spent; it never decreases. */
	void (*progress)(void *arg, double done, double elapsed);
	void *progress_arg;
	double progress_interval;        /* least time between two progress calls [s] (default 0.25) */
	int no_counts;                   /* with top_only, in a search that neither reads nor fills
	                                    a memo: only the top K is wanted, not the counts -- a
	                                    leaf's memory is computed only where its lower bound
	                                    (with its ZeRO stage's DP part) could still enter the
	                                    top K, so the counts that depend on the memory check
	                                    leave out the leaves not checked (result.partial,
	                                    result.unchecked); default 0 */
	int nseed;                       /* configurations of seed[] (at most CALC_SEARCH_SEED) */
	const struct calc_search_cfg *seed; /* a top-only search that reads no memo times the
	                                    ones that are leaves of its grid and fit, under its
	                                    plan, as a first bound of the K-th best (any
	                                    configurations: the others are passed over); NULL:
	                                    none (default) */
	/* a configuration that allow() refuses (0) is rejected as CALC_REJ_FRAMEWORK before
	 * its memory is computed: what a framework runs (calc_framework_allows, frameworks.c);
	 * NULL: every configuration (default).  Not with memo, seed or top_only, whose
	 * bounds and counts do not know it. */
	int (*allow)(const void *arg, const struct calc_search_cfg *c);
	const void *allow_arg;
	/* bit s: pipeline schedule s (enum calc_schedule, the table's index) is searched at
	 * pp > 1; a depth of one stage runs no schedule and is always searched.  0 (default):
	 * calc_search takes the schedules of the plan's framework (plan.framework,
	 * calc_plan_sched_mask), or of allow_arg's when allow is calc_framework_allows.  Part
	 * of the grid: a memo and a seed see only these leaves. */
	unsigned long long sched_mask;
	/* the recommendation's band (pick.c, calc_search_pick_band): with band_limit > 0 every
	 * ranked leaf whose step time is at most band_limit is timed (a lower bound prunes only
	 * above it) and counted (result.band_n); of those whose headroom is at least band_want
	 * the result keeps the least under band_simpler (< 0: a is simpler than b), ties to the
	 * one that ranks first (result.band_best, band_before: the ranked leaves before it), and
	 * counts them (band_nsafe); objective time only.  0 (default): none */
	double band_limit;
	double band_want;
	int (*band_simpler)(const void *arg, const struct calc_search_cfg *a, const struct calc_search_cfg *b);
	const void *band_arg;
	struct calc_search_memo *memo;   /* the memory side of an earlier search to reuse, or an
	                                    empty one to fill (calc_search_memo_new); NULL: none
	                                    (default).  Ignored where it does not fit the plan and
	                                    the grid (calc_search_memo_fits) or with keep_all. */
};
/* Defaults as documented above. */
void calc_search_opts_init(struct calc_search_opts *o);
/* The share of the optimizer states a search of 'plan' under 'o' tries offloaded besides
 * none: o->offload_optimizer, else the plan's training.offload_optimizer; 0 when neither
 * asks for it, or when the plan has no cluster.cpu_optimizer_rate (no default: the time
 * of the host's step is unknown) or no host link (gpu.pcie_bw), which 'why' then names
 * (NULL: not wanted). */
double calc_search_offload_share(const struct calc_plan *plan, const struct calc_search_opts *o, const char **why);

/* What a training framework runs (frameworks.c, its sources there): `search --for`. */
#define CALC_FRAMEWORK_SCHEDS 8
struct calc_framework {
	const char *name;          /* megatron, nemo, torchtitan, deepspeed (as export --for) */
	const char *title;
	int schedules[CALC_FRAMEWORK_SCHEDS]; /* enum calc_schedule it runs with pp > 1, ended by -1 */
	unsigned zero;             /* bit z: ZeRO stage z without pipeline parallelism */
	unsigned zero_pp;          /* bit z: ZeRO stage z with pp > 1 */
	int sp_with_tp;            /* 1: its TP always shards the sequence (sp = yes) */
	int cp_one;                /* 1: no context parallelism as the step model has it */
	unsigned opt_offload;      /* bit s: runs optimizer-state offload of training.offload_style s
	                              (enum calc_offload_style), and its export writes it */
	int zero_default;          /* the ZeRO stage its production recipes run, the most the
	                              recommendation takes as simple (pick.c rule b); -1: none */
};
const struct calc_framework *calc_framework_find(const char *name); /* NULL: unknown */
const struct calc_framework *calc_framework_at(int i);              /* NULL past the end */
/* 1 when framework 'arg' (a struct calc_framework) runs configuration 'c': the
 * opts.allow of a search --for. */
int calc_framework_allows(const void *arg, const struct calc_search_cfg *c);
/* The framework whose schedules the planner searches for plan p (plan.framework: its own,
 * or with 'stack' the framework of efficiency.stack, calc_framework_of_stack); NULL: every
 * schedule ('any', or a stack of no framework in the table).  *how, when not NULL: 1 when
 * the framework came from the stack. */
const struct calc_framework *calc_plan_framework(const struct calc_plan *p, int *how);
/* The framework a stack preset's release runs (megatron-core* -> megatron, nemo* and
 * megatron-bridge* -> nemo, torchtitan, deepspeed-*); NULL: none in the table (fsdp1). */
const struct calc_framework *calc_framework_of_stack(const char *stack);
/* Bit s for every schedule framework f runs (calc_framework_allows's list); all bits when
 * f is NULL. */
unsigned long long calc_framework_sched_mask(const struct calc_framework *f);
/* The schedules the planner searches for plan p: calc_framework_sched_mask of
 * calc_plan_framework. */
unsigned long long calc_plan_sched_mask(const struct calc_plan *p);
/* Index of framework f in the table (calc_framework_at), -1 for NULL. */
int calc_framework_index(const struct calc_framework *f);

/*
 * The memory side of one search: for every leaf that reached the memory check, its
 * worst stage and that stage's total, in enumeration order.  It depends on the plan
 * but for the keys that change only time (cluster.inter_node_bw, efficiency.gemm,
 * efficiency.attention, efficiency.tp_overlap, efficiency.dp_overlap,
 * efficiency.gemm_shape: memory.c reads none of them) and on the grid options, so the
 * chapters' scenarios that change only those (the sensitivity and weak-network tables,
 * the summary's gemm_shape = "auto") and a second search of the same plan
 * at another level (top_only, keep_feasible) re-time the leaves without computing
 * their memory again.  A search's counts, rejects and ranking are the same with a
 * memo as without.
 */
/* An empty memo: the first search given it fills it. */
struct calc_search_memo *calc_search_memo_new(void);
/* Release a memo (NULL: nothing). */
void calc_search_memo_free(struct calc_search_memo *m);
/* 1 when 'm' is empty, or was filled by a search of a plan and grid with the same
 * memory side as 'plan' and 'o' (o->keep_all excluded); 0 otherwise. */
int calc_search_memo_fits(const struct calc_search_memo *m, const struct calc_plan *plan,
                          const struct calc_search_opts *o);
/* Bind an empty memo to the memory side of 'plan' and 'o' before a search fills it, so
 * that calc_search_memo_fits refuses other plans meanwhile (searches that run on
 * several threads take their memos before any of them has filled one). */
void calc_search_memo_claim(struct calc_search_memo *m, const struct calc_plan *plan,
                            const struct calc_search_opts *o);
/* 1 once a search has filled 'm'. */
int calc_search_memo_filled(const struct calc_search_memo *m);
/* The configurations of the last top of a search of 'm' (at most 'max'), for another
 * search's opts.seed; returns how many (0 while none has ended). */
int calc_search_memo_seed(const struct calc_search_memo *m, struct calc_search_cfg *out, int max);

/*
 * How a configuration places the layers on its stages.  The plan's own placement
 * (parallel.split, or Megatron-Core's layout keys when the plan sets them) is always
 * tried; where pp does not divide the layers of a plan without layout keys or an explicit
 * layers_per_stage, the planner also tries Megatron-Core's account_* rules that make the
 * split even with the embedding and/or the loss counted as a layer, and its first/last
 * stage rule with the middle stages at ceil(L / pp) (docs/references.md §3.7).
 */
enum calc_search_split {
	CALC_SPLIT_PLAN,          /* the plan's own */
	CALC_SPLIT_ACCOUNT_BOTH,  /* account_embedding = yes, account_loss = yes: (L + 2) / pp */
	CALC_SPLIT_ACCOUNT_EMB,   /* account_embedding = yes: (L + 1) / pp, stage 0 one fewer */
	CALC_SPLIT_ACCOUNT_LOSS,  /* account_loss = yes: (L + 1) / pp, the last stage one fewer */
	CALC_SPLIT_FIRST_LAST,    /* first_stage_layers and last_stage_layers: the middle stages
	                             ceil(L / pp), the ends the rest, the last no more than the
	                             first (search.c first_last) */
	/* torchtitan's rule (generate_llm_fqn_per_model_part; model.c), plan.framework =
	 * torchtitan only, in place of Megatron-Core's four above */
	CALC_SPLIT_TT_BOTH,       /* first_stage_less_layers = 1, last_stage_less_layers = 1
	                             (torchtitan's defaults) */
	CALC_SPLIT_TT_FIRST,      /* first_stage_less_layers = 1 alone */
	CALC_SPLIT_TT_LAST,       /* last_stage_less_layers = 1 alone */
	CALC_SEARCH_SPLIT_N
};
struct calc_search_cfg;
/* The plan keys that reproduce configuration c's placement of the layers of 'base'
 * ("even" when every stage holds the same layers), into buf. */
void calc_search_split_text(const struct calc_plan *base, const struct calc_search_cfg *c, char *buf, size_t n);
struct calc_search_result;
/* The same for a configuration of search result 'r' (the text may be r's own or buf). */
const char *calc_search_split_cell(const struct calc_search_result *r, const struct calc_search_cfg *c, char *buf,
                                   size_t n);

/* One configuration. */
struct calc_search_cfg {
	int gpus, nodes, gpus_per_node;
	int tp, pp, dp, cp, vpp;   /* vpp = 1 unless schedule = interleaved */
	int micro_batch;           /* b [sequences] */
	int m;                     /* micro-batches per step (0 when B is not divisible) */
	signed char sp, zero;
	signed char recompute;     /* enum calc_recompute */
	signed char schedule;      /* enum calc_schedule */
	signed char recipe;        /* index for calc_recipe_at */
	signed char uneven;        /* 1: layers split unevenly (pp does not divide layers) */
	signed char split;         /* enum calc_search_split: how the layers are placed */
	int ep, etp;               /* expert (tensor) parallelism; 1 and 1 for a dense model */
	double offload;            /* training.offload_optimizer of the configuration: the share
	                              of the optimizer states on the host [0..1] (0: none) */
};

/* One configuration with its outcome. */
struct calc_search_row {
	struct calc_search_cfg c;
	long long key;             /* position in the enumeration (ties break on it) */
	unsigned char reject;      /* enum calc_reject */
	short worst;               /* worst pipeline stage, 0-based (-1: not measured) */
	double memory;             /* worst stage total per GPU [bytes] (0: not measured) */
	double headroom;           /* usable memory - memory [bytes]; < 0 does not fit */
	double step_time;          /* closed-form step time [s] (0: not timed) */
	double mfu;                /* [0..1] */
	double tokens_per_s;       /* whole job [tokens/s] */
	double run_time;           /* plan's token budget [s] */
	double cost;               /* [currency] */
	double effective_time;     /* run wall time with checkpoints and failures [s]; only for the
	                              effective-days and total-cost objectives (else 0) */
	double total_cost;         /* effective GPU-hours and energy [currency]; as effective_time */
};

/* A runner-up on one axis ("best without PP", ...). */
enum calc_search_axis {
	CALC_AXIS_BEST,          /* the winner */
	CALC_AXIS_NO_PP,         /* pp = 1 */
	CALC_AXIS_NO_TP,         /* tp = 1 */
	CALC_AXIS_TP_IN_NODE,    /* the TP group inside one node */
	CALC_AXIS_TP_ACROSS,     /* the TP group spans nodes */
	CALC_AXIS_NO_RECOMPUTE,  /* recompute = none */
	CALC_AXIS_FULL_RECOMPUTE,/* recompute = full */
	CALC_AXIS_ZERO0,         /* plain data parallelism */
	CALC_AXIS_ZERO3,         /* ZeRO-3 */
	CALC_AXIS_CP,            /* cp > 1 */
	CALC_AXIS_MB1,           /* micro-batch 1 */
	CALC_AXIS_SCHED0,        /* + schedule id: best of each schedule of the table */
	CALC_AXIS_N = CALC_AXIS_SCHED0 + CALC_SCHED_MAX
};
const char *calc_search_axis_name(int axis); /* "best without PP", "best with dualpipe" */
/* Axes in use: CALC_AXIS_SCHED0 + calc_schedule_count(). */
int calc_search_axis_count(void);

struct calc_search_top {
	struct calc_search_row r;
	struct calc_step *fast;  /* breakdown with the closed-form bubble; NULL until computed
	                            (the first opts.breakdown_top rows, or later by
	                            calc_search_top_fast), then a block of its own that the
	                            result owns (calc_search_free): a search keeps hundreds of
	                            rows for the recommendation's window and breaks down ten of
	                            them, so the ~2 kB breakdown is not part of every row
	                            (docs/architecture.md §11) */
	int sim_ok;              /* 1: the simulator ran */
	double sim_time;         /* step time with the pipeline simulator [s] */
};

struct calc_search_cell {    /* search-heatmap */
	int tp, pp;
	double best;             /* best objective value over the other axes (step time [s]) */
	int feasible;            /* configurations of this (tp, pp) that fit */
};

struct calc_search_result {
	struct calc_search_opts opts;
	int threads;                    /* threads used */
	double elapsed_s;               /* wall time of the enumeration [s] */
	double cpu_s;                   /* CPU time of all threads in the enumeration [s] */
	long long evaluated;            /* configurations considered (every leaf of the grid) */
	long long measured;             /* of which valid: worst-stage memory computed */
	long long ranked;               /* of which fit: timed and ranked */
	long long rejected[CALC_REJ_N]; /* by first failing check ([CALC_REJ_NONE] unused) */
	int moe;                        /* 1: the model has experts: ep and etp are axes */
	int layers;                     /* the model's layers */
	char split_plan[CALC_LAYOUT_MAX + 64]; /* calc_search_split_text of an uneven configuration
	                                   that keeps the plan's placement */
	/* memory rejects: where and by how much */
	long long miss_first, miss_middle, miss_last; /* worst stage first / middle / last */
	int have_closest;
	struct calc_search_row closest_miss;          /* smallest overshoot */
	double miss_mean;                             /* mean overshoot of memory rejects [bytes] */
	/* ranking */
	int ntop;
	struct calc_search_top *top;    /* ntop, best first; owned */
	int top_alloc;                  /* rows of top[] as the search made them (ntop may be cut
	                                   after: pick.c, trainplan search), whose breakdowns
	                                   (calc_search_top.fast) calc_search_free releases */
	int rechecked;                  /* 1: sim_ok and sim_time of top[] are filled */
	int top_only;                   /* 1: searched with opts.top_only in effect: only top[], the
	                                   counts and the memory rejects are complete */
	long long pruned;               /* of ranked, leaves not timed (opts.top_only) */
	int partial;                    /* 1: searched with opts.no_counts in effect: only top[],
	                                   evaluated and measured are complete; ranked, the memory
	                                   rejects, the misses and closest_miss leave out the
	                                   'unchecked' leaves (a count of this result must not be
	                                   served: search again without no_counts) */
	long long unchecked;            /* of measured, leaves whose memory was not computed, their
	                                   bound hopeless (opts.no_counts) */
	long long bounds_shared;        /* lower bounds taken from opts.memo as they are, neither
	                                   computed nor compared with stage 1 of their (recompute,
	                                   SP) pair, which is computed only where a leaf of it is
	                                   timed: the plan differs from the memo's filling search
	                                   only in keys stage 1 does not read
	                                   (cluster.inter_node_bw, efficiency.tp_overlap,
	                                   efficiency.dp_overlap) */
	long long bounds_scaled;        /* lower bounds derived from opts.memo's without stage 1 where
	                                   the plan differs from the memo's filling search only in
	                                   the GEMM efficiencies (efficiency.gemm, gemm_fp8) and keys
	                                   stage 1 does not read: the memo's bound times
	                                   calc_search_bound_scale of calc_search_gemm_scale */
	int have_axis[CALC_AXIS_N];
	struct calc_search_row axis[CALC_AXIS_N];
	int ncells;
	struct calc_search_cell *cells; /* (tp, pp) pairs, sorted; owned */
	long long nrows;
	struct calc_search_row *rows;   /* keep_all: every leaf in enumeration order;
	                                   keep_feasible: every ranked row by memory; owned */
	char *frontier;                 /* keep_feasible: 1 for rows on the Pareto frontier */
	long long npoints;              /* opts.pareto_sample: the ranked rows the kept ones were
	                                   chosen from (0 otherwise) */
	/* opts.band_limit > 0: the band's leaves (see there) */
	long long band_n;               /* ranked leaves with step time <= band_limit */
	long long band_nsafe;           /* of which headroom >= band_want */
	int band_have;                  /* 1: band_best is set (band_nsafe > 0) */
	struct calc_search_row band_best; /* the simplest of those, ties to the first ranked */
	long long band_before;          /* ranked leaves that rank before band_best (exact
	                                   while band_n <= CALC_PICK_TOP_MAX) */
	/* the recommendation's window read in one more pass (calc_search_pick_band, pick.c):
	 * pick_kept > 0 when set */
	int pick_kept;                  /* the top K the growing window would have ended with */
	int pick_rank;                  /* 1-based rank of the pick in the whole ranking */
	int pick_in_band;               /* others that leave the margin within the band */
	struct calc_search_top pick_top; /* the pick where it ranks below top[] (rank > ntop) */
};

/* Re-evaluate the ranked top of 'r' (a calc_search of 'plan') with the pipeline
 * simulator: sim_ok and sim_time of every top[] entry.  Once: later calls return at
 * once.  calc_search calls it when opts.recheck is set; the catalog calls it only
 * for the entries that show simulated times. */
void calc_search_recheck(const struct calc_plan *plan, struct calc_search_result *r);
/* The closed-form breakdown of t, a row of a search of 'plan' (its top or its pick_top),
 * computed where the search left it out (opts.breakdown_top): the same calc_step_fast of
 * the configuration applied to 'plan' as the search's own rows get. */
void calc_search_top_fast(const struct calc_plan *plan, struct calc_search_top *t);

/* The number of leaves (schedule, vpp, recomputation, SP, ZeRO under each split) that
 * calc_search(plan, o) enumerates, counted without searching: an estimate of its
 * work, for ordering jobs.  0 where calc_search would refuse the plan or the options. */
/* 1 when searches of a and b have the same memory side (they differ at most in what
 * only time reads: network bandwidth, efficiencies, overlaps), so that the second
 * re-times the first's leaves from its memo (calc_search_memo). */
int calc_search_same_memory(const struct calc_plan *a, const struct calc_plan *b);
/* The factor r (0 < r <= 1, 0: none) by which the GEMM times of plan 'to' are at least
 * those of plan 'from' where the two differ only in the GEMM efficiencies (efficiency.gemm,
 * efficiency.gemm_fp8): min(1, e_from / e_to) over both, less a relative margin of 1e-9
 * for rounding. */
double calc_search_gemm_scale(const struct calc_plan *from, const struct calc_plan *to);
/* The factor by which a leaf's lower bound (calc_step_fast_bound) under plan P0 bounds
 * the same leaf's step time under P1 where calc_search_gemm_scale(P0, P1) = r, for the
 * leaf's schedule 'sched' (enum calc_schedule), pp 'p' and 'm' micro-batches: r for GPipe,
 * 1F1B and interleaved 1F1B (and p = 1), r m / (m + p - 1) for ZB-H1, ZB-H2 and DualPipe,
 * 0 (none) for a registered schedule.  The proof is in search.c. */
double calc_search_bound_scale(double r, int sched, int p, int m);
long long calc_search_size(const struct calc_plan *plan, const struct calc_search_opts *o);
/*
 * Search every configuration of the plan's model and cluster under 'o' (NULL = the
 * defaults).  The plan supplies the model, the cluster, the batch, the sequence length,
 * the recipe (unless vary_recipe), the overheads and the efficiencies.  Fills 'out'
 * (release with calc_search_free).  Returns 0, or -1 after a diagnostic (a GPU count
 * that is not a multiple of the node size, a bad option).  Runs o->threads threads.
 */
int calc_search(const struct calc_plan *plan, const struct calc_search_opts *o,
                struct calc_search_result *out, struct calc_diag *d);
void calc_search_free(struct calc_search_result *r);
/*
 * The recommendation, one rule for `trainplan search`, the split a plan without one
 * takes (calc_plan_pick_split) and the report's search.safe.* and search.pick.*: of the
 * kept top configurations whose worst stage leaves plan.memory_margin of the usable
 * memory free (headroom >= margin x usable), the simplest of those within validation.band
 * of the fastest of them (pick.c: the rules and their sources).  Returns it and its
 * 1-based rank in *rank, or NULL where none of the top leaves the margin (*rank = 0);
 * NULL too when nothing was ranked.
 */
const struct calc_search_top *calc_search_safe(const struct calc_search_result *r, const struct calc_plan *plan,
                                               int *rank);
/* What the recommendation rule found (pick.c): the rank of the fastest that leaves the
 * margin, the band, how many others of the top are inside it, and the pick's rank. */
struct calc_pick_why {
	int fastest;      /* 1-based rank of the fastest that leaves the margin; 0: none */
	int rank;         /* 1-based rank of the recommendation; 0: none */
	double band;      /* validation.band of the plan's stack (NaN: unknown) */
	int in_band;      /* others of the top that leave the margin within the band */
	int short_seq_cp; /* 1: the fastest had CP on a sequence under 8,192 tokens, the pick none */
	int window_short; /* 1: every row of the window is inside the band and more were ranked
	                     (the window reached CALC_PICK_TOP_MAX, or was not grown) */
};
/* 0 when the search's top K holds every split the recommendation rule reads (pick.c): all
 * that were ranked, or up to the first row outside the band of the fastest that leaves the
 * margin; else the larger K to search again with (4 K, at most CALC_PICK_TOP_MAX), so that
 * the pick does not depend on the window's size. */
/* The key that names the recommendation's band under plan.pick_band: "validation.band",
 * "validation.compare_band" or "plan.pick_band_fixed". */
const char *calc_pick_band_key(const struct calc_plan *plan);
int calc_search_pick_window(const struct calc_search_result *r, const struct calc_plan *plan);
/* The recommendation's window of result r, a calc_search of 'plan' for it that kept
 * opts.top >= k0 rows (CALC_PICK_TOP_FIRST for k0 = CALC_PICK_TOP), as a search keeping
 * k0 and grown by calc_search_pick_window gives it, bit for bit (pick.c): where the grown
 * window lies within r's rows, r is cut to it (ntop, opts.top); where it reaches past
 * them, one more enumeration reads the whole band instead: the pick, its rank and the
 * window's size in r->pick_*.  Where it cannot (none of r's rows leaves the margin, or
 * the grown window would be cut short at CALC_PICK_TOP_MAX) r is left as it is, and
 * calc_search_pick_window grows it as before; else that returns 0.  Returns 0, or -1
 * after a diagnostic. */
int calc_search_pick_band(const struct calc_plan *plan, struct calc_search_result *r, int k0, struct calc_diag *d);
/* The top K the recommendation rule read: r->ntop, or the grown window's (pick_kept). */
int calc_search_kept(const struct calc_search_result *r);
/* calc_search_safe with what the rule found in *why (may be NULL). */
const struct calc_search_top *calc_search_safe_why(const struct calc_search_result *r, const struct calc_plan *plan,
                                                   struct calc_pick_why *why);
/* calc_search_safe, or the first of the top where none leaves the margin; NULL when
 * nothing was ranked. */
const struct calc_search_top *calc_search_pick(const struct calc_search_result *r, const struct calc_plan *plan,
                                               int *rank);
/*
 * A plan whose split is unset (plan->split_unset: it names a model or a cluster and no
 * parallel degree) takes the planner's pick over its GPUs (calc_search_pick of a search
 * for step time, the plan's recipe and objective defaults) with its whole layout: tp,
 * pp, dp, cp, vpp, micro-batch, schedule, recomputation, SP, ZeRO, ep and etp.  A plan
 * whose split is set is left alone.  Returns 0 (and clears split_unset, setting
 * split_picked), or -1 after a diagnostic naming the plan file when no split of the
 * model fits its cluster.
 */
int calc_plan_pick_split(struct calc_plan *plan, struct calc_diag *d);

/* Apply a configuration to a copy of a plan: degrees, schedule, layer split, recipe
 * and GPU count.  The result passes calc_plan_validate when the configuration was
 * ranked (tests/calc/search.c checks it). */
void calc_search_apply(const struct calc_plan *base, const struct calc_search_cfg *c,
                       struct calc_plan *out);

/* Worst-stage memory of a plan by the planner's lean path: the same terms as
 * calc_memory, evaluated only on the stages that can be the worst.  Fills the worst
 * stage (0-based), its total [bytes] and its headroom [bytes]. */
void calc_search_memory(const struct calc_plan *plan, int *worst, double *total,
                        double *headroom);

/* The search result of a catalog context (default options), computed once: at least the
 * top K and the counts (it may be a top-K-only search, result.top_only); it keeps no rows.
 * A later catalog request for the axes, the heatmap or the Pareto set replaces it by a
 * complete search, so the pointer is good until the next catalog request on 'c'.  NULL
 * after a diagnostic. */
const struct calc_search_result *calc_ctx_search(struct calc_ctx *c, struct calc_diag *d);

/* Fill tables from a result: the top K with breakdowns, the runner-ups, the reject
 * counts, every kept row (--all), the Pareto set and the heatmap. */
void calc_search_table_top(const struct calc_search_result *r, struct calc_table *t);
void calc_search_table_breakdown(const struct calc_search_result *r, struct calc_table *t);
void calc_search_table_axes(const struct calc_search_result *r, struct calc_table *t);
void calc_search_table_rejects(const struct calc_search_result *r, struct calc_table *t);
void calc_search_table_rows(const struct calc_search_result *r, struct calc_table *t);
void calc_search_table_pareto(const struct calc_search_result *r, struct calc_table *t);
/* The rows of the search-pareto dataset (calc/catalog_search.c; opts.pareto_sample): of
 * the 'n' points of a keep_feasible search in the Pareto set's order, 'frontier' marking
 * its frontier, every point on the frontier and a bounded, deterministic sample of the
 * others; keep[i] = 1 for each point kept (keep has n entries).  Returns how many. */
long long calc_search_pareto_sample(const struct calc_search_point *pts, const char *frontier, long long n,
                                    char *keep);
void calc_search_table_heatmap(const struct calc_search_result *r, struct calc_table *t);


/*
 * Results kept between processes (search_store.c, catalog_search.c).
 *
 * calc_search_pack writes a result (top, breakdowns, cells, rows) as bytes into a block
 * of its own (*out, the caller frees it) and returns their count; calc_search_unpack
 * reads them back into 'r' (calc_search_free releases it), -1 where the bytes are not a
 * result of this build's layout.  The options' hooks (opts.pareto_sample, allow,
 * band_simpler, progress) and opts.memo and opts.seed come back NULL.  The bytes are this build's structures: only the build
 * that wrote them reads them (calc_search_store's key holds the build's identity).
 */
size_t calc_search_pack(const struct calc_search_result *r, char **out);
int calc_search_unpack(const void *buf, size_t n, struct calc_search_result *r);
/*
 * A store of the catalog's searches (calc_ctx_search and every quantity of the planner):
 * where one is set, a search first asks get() for the result stored under its key (the
 * plan as it searches, what the search keeps, the schedule table's generation and the
 * build's identity 'build', 'nbuild' bytes: the store's caller gives it, and a result is
 * never served to another build) and runs only where none is there; a result it runs is
 * given to put().  The result served is the one the search gives, byte for byte (the
 * search is a function of its key).  get() returns the bytes (valid until the process
 * ends) or NULL, *vlen their count; put() copies them.  Both are called from the threads
 * of the pool: the store locks.  Set it before the first search (not thread-safe); NULL
 * sets none.
 */
struct calc_search_store {
	void *arg;
	const void *(*get)(void *arg, const void *key, size_t klen, size_t *vlen);
	void (*put)(void *arg, const void *key, size_t klen, const void *val, size_t vlen);
	const void *build;
	size_t nbuild;
};
void calc_search_store_set(const struct calc_search_store *s);

#endif
