/*
 * tests/fast/check.c -- `make check-fast`: the planner's fast path against the plain
 * walk, bit for bit (docs/architecture.md §3, step engine and search).
 *
 *   check-fast PLAN|- [--gpus N] [--set KEY=VALUE]...
 *
 * For the plan ('-': the built-in default) it runs
 *   1. a complete search that keeps every ranked row (opts.keep_feasible: no pruning, no
 *      memo): the leaves share stage 1 per split (calc_step_compute), re-time a ZeRO
 *      stage with calc_step_fast_rezero and add their memory up from shared terms;
 *      every ranked row (a deterministic sample of at most SAMPLE rows, the top K always)
 *      is computed again alone -- calc_search_apply, calc_step_fast and
 *      calc_search_memory of that one plan -- and its step time, MFU, tokens/s, cost,
 *      memory and worst stage must be the same bits;
 *   2. the same search for its top K through each layer of the fast path: top_only
 *      (lower bounds, pruning), top_axes, no_counts (memory only where the bound could
 *      enter), a memo filled then read, and one thread against two: the top K
 *      (configuration, step time, MFU, memory) must be the complete search's, bit for
 *      bit; and for each of the report's time-only scenarios (network bandwidth, GEMM
 *      efficiency, TP and DP overlap) the re-timing from a memo filled by the complete
 *      search and from one filled as the report fills it (top_only + top_axes, its lower
 *      bounds taken as they are where stage 1 is the same) against that plan's own
 *      complete search, and that the bounds are shared exactly where stage 1 is;
 *   3. for the plan and each configuration of the top K, calc_step (the simulator) and
 *      calc_step_fast (the closed form) must agree bit for bit in everything but the
 *      bubble: the critical GPU and its per micro-batch times, the compute, recomputation
 *      and exposed collectives, the FLOPs, the exposed DP collectives and the optimizer.
 * Prints one line per plan and exits 1 at the first difference, naming it.
 */
#include "calc.h"
#include "search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAMPLE 20000 /* ranked rows recomputed alone per plan */

static const char *what = "";
static int failed;

static int same(double a, double b)
{
	return !memcmp(&a, &b, sizeof a);
}

static void differ(const char *field, long long key, double a, double b)
{
	fprintf(stderr, "check-fast: %s: %s of configuration %lld differs: %.17g (fast) vs %.17g (plain)\n", what,
	        field, key, a, b);
	failed = 1;
}

#define CHECK(field, key, a, b)                    \
	do {                                           \
		if (!failed && !same((a), (b)))            \
			differ(field, key, (double)(a), (double)(b)); \
	} while (0)

static void search_or_die(const struct calc_plan *p, const struct calc_search_opts *o, struct calc_search_result *r)
{
	struct calc_diag d = {0};
	if (calc_search(p, o, r, &d) < 0) {
		fprintf(stderr, "check-fast: %s: search failed: %s\n", what, d.text ? d.text : "");
		exit(1);
	}
	calc_diag_free(&d);
}

/* 1. every (sampled) ranked row of a complete search against its plan computed alone */
static long long rows_alone(const struct calc_plan *p, const struct calc_search_result *r)
{
	struct calc_plan *q = malloc(sizeof *q);
	struct calc_step *st = malloc(sizeof *st);
	long long stride = r->nrows / SAMPLE + 1, n = 0;

	for (long long i = 0; i < r->nrows && !failed; i += stride, n++) {
		const struct calc_search_row *row = &r->rows[i];
		int worst;
		double total, head;
		calc_search_apply(p, &row->c, q);
		calc_step_fast(q, st);
		calc_search_memory(q, &worst, &total, &head);
		CHECK("step time", row->key, row->step_time, st->time);
		CHECK("MFU", row->key, row->mfu, st->mfu);
		CHECK("tokens/s", row->key, row->tokens_per_s, st->tokens_per_s);
		CHECK("cost", row->key, row->cost, st->cost);
		CHECK("memory", row->key, row->memory, total);
		CHECK("worst stage", row->key, row->worst, worst);
	}
	free(q);
	free(st);
	return n;
}

/* 2. a top K against the complete search's */
static void same_top(const char *layer, const struct calc_search_result *a, const struct calc_search_result *b)
{
	if (failed)
		return;
	if (a->ntop != b->ntop) {
		fprintf(stderr, "check-fast: %s: %s gives %d configurations, the complete search %d\n", what, layer,
		        b->ntop, a->ntop);
		failed = 1;
		return;
	}
	for (int i = 0; i < a->ntop && !failed; i++) {
		const struct calc_search_row *x = &a->top[i].r, *y = &b->top[i].r;
		if (x->key != y->key || memcmp(&x->c, &y->c, sizeof x->c)) {
			fprintf(stderr, "check-fast: %s: %s ranks configuration %lld at %d, the complete search %lld\n", what,
			        layer, y->key, i + 1, x->key);
			failed = 1;
			return;
		}
		CHECK(layer, x->key, y->step_time, x->step_time);
		CHECK(layer, x->key, y->mfu, x->mfu);
		CHECK(layer, x->key, y->memory, x->memory);
	}
}

/* 3. the plain walk (simulator) against the closed form in all but the bubble */
static void walk_vs_fast(const struct calc_plan *q, long long key)
{
	struct calc_step *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	struct calc_diag d = {0};

	if (calc_step(q, a, &d) == 0) {
		calc_step_fast(q, b);
		CHECK("critical stage", key, b->critical, a->critical);
		CHECK("T_F", key, b->tf, a->tf);
		CHECK("T_B", key, b->tb, a->tb);
		CHECK("T_W", key, b->tw, a->tw);
		CHECK("compute", key, b->compute, a->compute);
		CHECK("recomputation", key, b->recompute, a->recompute);
		CHECK("exposed TP/CP", key, b->tp_comm, a->tp_comm);
		CHECK("exposed EP", key, b->ep_exposed, a->ep_exposed);
		CHECK("model FLOPs", key, b->flops.model, a->flops.model);
		CHECK("hardware FLOPs", key, b->flops.hardware, a->flops.hardware);
		CHECK("exposed DP", key, b->dp_exposed, a->dp_exposed);
		CHECK("optimizer", key, b->optimizer, a->optimizer);
	}
	calc_diag_free(&d);
	free(a);
	free(b);
}

int main(int argc, char **argv)
{
	const char *sets[64] = {0}, *path;
	int nsets = 0, gpus = 0;
	struct calc_plan *p = malloc(sizeof *p), *q = malloc(sizeof *q);
	struct calc_diag d = {0};
	struct calc_search_opts o;
	struct calc_search_result full, r;
	long long alone;

	if (argc < 2) {
		fprintf(stderr, "usage: check-fast PLAN|- [--gpus N] [--set KEY=VALUE]...\n");
		return 2;
	}
	path = strcmp(argv[1], "-") ? argv[1] : NULL;
	for (int i = 2; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--set") && nsets < 64)
			sets[nsets++] = argv[i + 1];
		else if (!strcmp(argv[i], "--gpus"))
			gpus = atoi(argv[i + 1]);
		else {
			fprintf(stderr, "check-fast: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	{
		static char name[2048];
		size_t n = 0;
		for (int i = 1; i < argc && n < sizeof name - 2; i++)
			n += (size_t)snprintf(name + n, sizeof name - n, "%s%s", i > 1 ? " " : "", argv[i]);
		what = name;
	}
	if (calc_plan_load(p, path, sets, nsets, &d) != 0) {
		fprintf(stderr, "%s", d.text ? d.text : "");
		return 2;
	}
	calc_diag_free(&d);

	calc_search_opts_init(&o);
	o.recheck = 0;
	if (gpus > 0)
		o.ngpus = 1, o.gpus[0] = gpus;
	o.keep_feasible = 1;
	search_or_die(p, &o, &full);
	alone = rows_alone(p, &full);
	o.keep_feasible = 0;

	{
		struct {
			const char *name;
			int top_only, top_axes, no_counts, threads;
		} layers[] = {
		        {"top_only (pruning)", 1, 0, 0, 2},
		        {"top_only + top_axes", 1, 1, 0, 2},
		        {"top_only + no_counts", 1, 0, 1, 2},
		        {"top_only, one thread", 1, 0, 0, 1},
		};
		for (size_t i = 0; i < sizeof layers / sizeof layers[0] && !failed; i++) {
			struct calc_search_opts x = o;
			x.top_only = layers[i].top_only, x.top_axes = layers[i].top_axes;
			x.no_counts = layers[i].no_counts, x.threads = layers[i].threads;
			search_or_die(p, &x, &r);
			same_top(layers[i].name, &full, &r);
			calc_search_free(&r);
		}
	}
	if (!failed) { /* the memo: filled by one search, read by the next and by a time-only change */
		/* m: filled by the complete search; m2: filled as the report's root search fills
		 * it (top_only + top_axes: with its lower bounds, which a time-only scenario that
		 * keeps stage 1 -- network, TP and DP overlap -- takes as they are) */
		struct calc_search_memo *m = calc_search_memo_new(), *m2 = calc_search_memo_new();
		struct calc_search_opts x = o, x2 = o;
		/* the report's time-only scenarios (sensitivity and weak-network tables) */
		static const struct {
			const char *set;
			int keeps_stage1; /* 1: stage 1 (calc_step_compute) does not read the key */
		} scen[] = {{"cluster.inter_node_bw=12.5GB/s", 1},
		            {"efficiency.gemm=0.6", 0},
		            {"efficiency.gemm=0.9", 0}, /* faster GEMMs: the filling search's bounds too high */
		            {"efficiency.tp_overlap=0.5", 1},
		            {"efficiency.dp_overlap=0.2", 1}};
		struct calc_search_result fresh;
		x.memo = m;
		search_or_die(p, &x, &r);
		same_top("memo (filling)", &full, &r);
		calc_search_free(&r);
		x.top_only = 1;
		search_or_die(p, &x, &r);
		same_top("memo (read, top_only)", &full, &r);
		calc_search_free(&r);
		x2.memo = m2;
		x2.top_only = 1, x2.top_axes = 1;
		search_or_die(p, &x2, &r);
		same_top("memo (filling, top_only + top_axes)", &full, &r);
		calc_search_free(&r);
		x2.top_axes = 0;
		for (size_t i = 0; i < sizeof scen / sizeof scen[0] && !failed; i++) {
			*q = *p;
			if (calc_plan_set(q, scen[i].set, "check-fast", &d) == 0) {
				/* the scenario's own complete search, no memo, against the memos' re-timing */
				char name[128];
				search_or_die(q, &o, &fresh);
				search_or_die(q, &x, &r);
				snprintf(name, sizeof name, "memo (read, %s)", scen[i].set);
				same_top(name, &fresh, &r);
				calc_search_free(&r);
				search_or_die(q, &x2, &r);
				snprintf(name, sizeof name, "memo of a top-only search (read, %s)", scen[i].set);
				same_top(name, &fresh, &r);
				/* the shared bounds are taken exactly where stage 1 is the same: never
				 * under a GEMM efficiency change, and under a network or overlap change
				 * wherever the filling search bounded a pair that fits (r.ranked > 0) */
				if (!failed && (scen[i].keeps_stage1 ? r.ranked > 0 && r.bounds_shared == 0 : r.bounds_shared != 0)) {
					fprintf(stderr, "check-fast: %s: %s: %lld bounds taken from the memo as they are\n", what,
					        scen[i].set, r.bounds_shared);
					failed = 1;
				}
				calc_search_free(&r);
				calc_search_free(&fresh);
			}
			calc_diag_free(&d);
			d = (struct calc_diag){0};
		}
		calc_diag_free(&d);
		calc_search_memo_free(m);
		calc_search_memo_free(m2);
	}
	walk_vs_fast(p, -1);
	for (int i = 0; i < full.ntop && !failed; i++) {
		calc_search_apply(p, &full.top[i].r.c, q);
		walk_vs_fast(q, full.top[i].r.key);
	}
	if (!failed)
		printf("fast: %s: %lld of %lld ranked rows alone, top %d through 17 fast-path searches, the walk: same bits\n",
		       what, alone, full.nrows, full.ntop);
	calc_search_free(&full);
	free(p);
	free(q);
	return failed;
}
