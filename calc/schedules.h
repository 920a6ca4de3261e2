/*
 * schedules.h -- public interface of schedules.c: the table of pipeline schedules, one
 * row each with its name, generator, closed-form bubble, in-flight rule, parameter
 * copies and validity check, and the names, parsing and registration of its rows.
 */
#ifndef CALC_SCHEDULES_H
#define CALC_SCHEDULES_H

#include <stddef.h>

#include "diag.h"
#include "plan.h"

/* of pipeline.h, which includes this header */
struct calc_pp_closed;
struct calc_pp_op;

/* Where a generator appends the ops of one stage: the first 'cap' go to 'out', every
 * op is counted (with out == NULL or cap = 0 it only counts), so a caller that gave too
 * little room sees n > cap and can generate again with room for n. */
struct calc_sched_gen {
	struct calc_pp_op *out; /* room for cap ops of the stage, or NULL */
	int n;                  /* ops appended (or counted) so far */
	int stage;              /* 0-based */
	int cap;                /* ops 'out' has room for [ops] */
};
/* Append one op ('F', 'B' or 'W'; full = 1: a B that is the whole backward) of
 * micro-batch mb and chunk (or direction) 'chunk' to g's stage; past g->cap (or with
 * g->out NULL) it is only counted. */
void calc_sched_emit(struct calc_sched_gen *g, char op, int full, int mb, int chunk);

/*
 * One row per schedule: every fact the other modules read.  Adding a schedule is one
 * row (a static one in schedules.c, or calc_schedule_register) plus its generator
 * and its tests; the plan parser, `trainplan presets keys`, the simulator, the memory
 * engine, the step engine, the search and the CLI read the row.
 */
/* The plan a schedule row's check reports on, and where its messages go: 'origin'
 * gives the file of the key of 'keys' (space-separated plan keys) the user set last
 * and its line in *line (calc_plan_keys_origin); NULL: the plan file, no line. */
struct calc_sched_plan {
	const struct calc_plan *plan;
	const char *(*origin)(const struct calc_plan *plan, const char *keys, int *line);
};

struct calc_sched {
	const char *name;     /* plan value and CLI name, e.g. "zb-h1" */
	const char *title;    /* for people, e.g. "ZB-H1 (zero bubble, half the memory of H2)" */
	const char *source;   /* where the op order and the formulas come from */
	int uses_vpp;         /* 1: v > 1 model chunks per stage (parallel.vpp >= 2), stage
	                         layers divisible by v, p >= 2; 0: v = 1 */
	int two_way;          /* 1: rank i holds path stages i and p-1-i and micro-batches enter
	                         at both ends (DualPipe); chunk of an op = its direction */
	int flushed;          /* 1: the bubble depends on parallel.post_validation (ZB-H2): a
	                         flush between steps unless the optimizer step is post-validated */
	int param_copies;     /* copies of the parameters per GPU [1] */
	const char *note;     /* short remark for the comparison table, "" for none */
	/* The ops of stage 'stage' for one step of m micro-batches numbered base .. base+m-1,
	 * in execution order, through calc_sched_emit. */
	void (*gen)(struct calc_sched_gen *g, int p, int m, int v, int stage, int base);
	/* Closed-form bubble at uniform stages: fills bubble, exact and source of 'out'
	 * (the caller derives ideal, overhead, fraction, in-flight and copies); 'flush' = 1
	 * for a flushed row without post-validation. */
	void (*closed)(int p, int m, int v, double tf, double tb, double tw, int flush,
	               struct calc_pp_closed *out);
	/* Peak in-flight activation sets of stage 'stage' (0-based), in units of the
	 * activations of all of that stage's layers for one micro-batch; p, m >= 1, v >= 1. */
	double (*inflight)(int p, int m, int v, int stage);
	/* The schedule's own conditions on (p, m, v), NULL when it has none.  Returns NULL
	 * when they hold, else a short reason ("m not a multiple of p").  With d != NULL it
	 * also reports them: as plan-key messages (one per unmet condition, each through
	 * calc_sched_plan_error at the key of the condition the user set last) when 'sp'
	 * names the plan p, m and v come from, else (sp NULL) as one "pipeline: ..."
	 * message of the simulator. */
	const char *(*check)(int p, int m, int v, const struct calc_sched_plan *sp, struct calc_diag *d);
	const char *reject;      /* the search's name for a failed check, e.g. "dualpipe" */
	const char *reject_desc; /* one line: the rule and its source */
	double ep_overlap;       /* share of the expert all-to-all the schedule itself runs
	                            behind another micro-batch's compute (DualPipe 1) [0..1] */
};

/* Append the error printf(fmt, ...) at sp->origin(sp->plan, keys), the key of 'keys'
 * (space-separated plan keys) the user set last; with no origin, at the plan file.
 * Returns -1. */
int calc_sched_plan_error(const struct calc_sched_plan *sp, struct calc_diag *d, const char *keys,
                          const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Rows in the table: CALC_SCHED_N built-in plus the registered ones. */
int calc_schedule_count(void);
/* Row 'id', NULL outside 0 .. calc_schedule_count() - 1. */
const struct calc_sched *calc_schedule_at(int id);
/*
 * Add a row (copied) after the built-in ones; it must have a new name of 1 .. 31
 * characters [a-z0-9-], a generator, a closed form and an in-flight rule, and
 * param_copies >= 1.  Returns its id, or -1 with a diagnostic when the row is
 * incomplete, the name is taken or the table is full.  Not thread-safe: register
 * before plans are parsed and searches run.
 */
int calc_schedule_register(const struct calc_sched *row, struct calc_diag *d);
/* Remove every registered row (tests); ids of built-in rows are unchanged. */
void calc_schedule_unregister_all(void);
/*
 * The table's generation: a counter that every calc_schedule_register and
 * calc_schedule_unregister_all bumps.  A schedule id names a row only within one
 * generation (unregistering and registering again reuses the ids), so every memo
 * whose key holds a schedule id also holds the generation it was filled in.
 */
unsigned long calc_schedule_generation(void);
/* The row's name ("1f1b"), "?" outside the table. */
const char *calc_schedule_name(enum calc_schedule s);
/* Parse a schedule name ("1f1b", ...); returns 0 or -1. */
int calc_schedule_parse(const char *name, enum calc_schedule *out);
/* The table's names in order, joined by 'sep' ("gpipe, 1f1b, ..."), into buf (n bytes,
 * truncated to fit); returns buf. */
char *calc_schedule_names(char *buf, size_t n, const char *sep);
/* The schedule a single stage or a single chunk runs (1F1B): what a vpp schedule
 * becomes at pp = 1, and the search's only schedule at pp = 1. */
enum calc_schedule calc_schedule_plain(void);
/* Chunks v a schedule runs with for a requested vpp: vpp schedules at least 2, others 1. */
int calc_schedule_vpp(enum calc_schedule s, int vpp);

#endif
