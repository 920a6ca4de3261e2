/*
 * pick.c -- the planner's recommendation, one rule wherever a split is recommended:
 * `trainplan search` (its "recommended" line), a plan that names a model or a cluster
 * and no split (calc_plan_pick_split), and the report's search.safe.* and search.pick.*
 * (catalog_search.c).
 *
 * The rule, over the search's top K by its objective:
 *
 * 1. Memory: only those whose worst pipeline stage leaves plan.memory_margin of the
 *    usable memory free.  The margin is a convention of this project (plan.memory_margin,
 *    default 10%, docs/references.md §9.21): no framework states one; it covers allocator
 *    fragmentation beyond the modelled share, a longer sequence and a framework's buffers
 *    that the memory model does not list.
 * 2. Within the uncertainty band of the fastest of those, the simplest.  The band is
 *    plan.pick_band's (calc_validate_plan_band, docs/references.md §9.25): absolute
 *    (default), validation.band of the plan's stack, the |error| that 90% of its
 *    held-out validation rows do not exceed (§7.15); comparison, the error of the model
 *    on the ratio of two splits' times, over held-out pairs of one source and model
 *    (§7.18); fixed, plan.pick_band_fixed.  Two splits whose predicted times differ by
 *    less than the band are not told apart by the model, so the one with less machinery
 *    is recommended.  The rule reads every ranked split within the band: the window of
 *    the search grows until its last row is outside the band (calc_search_pick_window),
 *    so that the pick does not depend on how many rows a search keeps; a search for the
 *    recommendation keeps CALC_PICK_TOP_FIRST rows, and calc_search_pick_band reads the
 *    window from them, or the whole band in one more pass, without searching again.
 *    Simpler, in this order:
 *    a. no context parallelism below 8,192 tokens per sequence: Megatron Core's
 *       Parallelism Strategies Guide gives CP as "best for long sequences (8K+ tokens)"
 *       (docs.nvidia.com/megatron-core/developer-guide/latest/user-guide/
 *       parallelism-guide.html, the overview table); a shorter sequence takes CP only
 *       where no split without it is in the band (memory);
 *    b. no more sharding than the framework's production recipes run (zero_default of
 *       frameworks.c: the distributed optimizer, ZeRO-1, for Megatron-Core and NeMo, whose
 *       ZeRO-3 is the opt-in Megatron-FSDP; FSDP, ZeRO-3, for torchtitan): each stage
 *       above it counts as more machinery, each gathering weights or gradients the
 *       recipes do not;
 *    c. fewer pipeline stages (fewer point-to-point hops, bubble and stage-balance
 *       concerns);
 *    d. a smaller CP degree;
 *    e. the framework's default schedule: the first of its list in frameworks.c
 *       (Megatron-Core: 1F1B, interleaved only when virtual stages are asked for,
 *       get_forward_backward_func); without a framework 1F1B, then interleaved, then
 *       the rest;
 *    and then the faster.  Where the band is unknown (no validation rows) the fastest
 *    that leaves the margin is the recommendation, as step 1 alone.
 */
#include "diag.h"
#include "plan.h"
#include "search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tokens per sequence from which context parallelism is simple enough to recommend
 * (rule a above: Megatron Core's guide, "long sequences (8K+ tokens)"). */
#define CP_MIN_SEQ 8192

static int sched_rank(const struct calc_framework *f, int s)
{
	if (f) {
		for (int i = 0; i < CALC_FRAMEWORK_SCHEDS && f->schedules[i] >= 0; i++)
			if (f->schedules[i] == s)
				return i;
		return CALC_FRAMEWORK_SCHEDS;
	}
	return s == CALC_SCHED_1F1B ? 0 : s == CALC_SCHED_INTERLEAVED ? 1 : 2;
}

/* ZeRO stages above the framework's production default (rule b; 0 without a framework) */
static int over_zero(const struct calc_framework *f, int zero)
{
	return f && f->zero_default >= 0 && zero > f->zero_default ? zero - f->zero_default : 0;
}

/* <0: a is simpler than b under rules a-e; 0: as simple */
static int simpler(const struct calc_plan *p, const struct calc_framework *f, const struct calc_search_cfg *a,
                   const struct calc_search_cfg *b)
{
	int ka[5] = {a->cp > 1 && p->seq_len < CP_MIN_SEQ, over_zero(f, a->zero), a->pp, a->cp,
	             a->pp > 1 ? sched_rank(f, a->schedule) : 0};
	int kb[5] = {b->cp > 1 && p->seq_len < CP_MIN_SEQ, over_zero(f, b->zero), b->pp, b->cp,
	             b->pp > 1 ? sched_rank(f, b->schedule) : 0};
	for (int i = 0; i < 5; i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	return 0;
}

/* The order of rules a-e as opts.band_simpler reads it (calc_search_pick_band). */
struct band_arg {
	const struct calc_plan *plan;
	const struct calc_framework *f;
};
static int band_simpler(const void *arg, const struct calc_search_cfg *a, const struct calc_search_cfg *b)
{
	const struct band_arg *x = arg;
	return simpler(x->plan, x->f, a, b);
}

/* the framework searched for: search --for's, else the plan's (plan.framework) */
static const struct calc_framework *pick_framework(const struct calc_search_result *r, const struct calc_plan *plan)
{
	return r->opts.allow == calc_framework_allows ? r->opts.allow_arg : calc_plan_framework(plan, NULL);
}

const struct calc_search_top *calc_search_safe_why(const struct calc_search_result *r, const struct calc_plan *plan,
                                                   struct calc_pick_why *why)
{
	double want = plan->memory_margin * plan->gpu_memory;
	/* the framework searched for: search --for's, else the plan's (plan.framework) */
	const struct calc_framework *f = pick_framework(r, plan);
	int first = -1, best = -1;
	struct calc_pick_why w = {0};
	w.band = NAN;
	for (int i = 0; i < r->ntop && first < 0; i++)
		if (r->top[i].r.headroom >= want)
			first = i;
	if (first >= 0) {
		w.fastest = first + 1;
		w.band = calc_validate_plan_band(plan);
		best = first;
		/* the band is over step times: with another objective the first that leaves the margin */
		if (isfinite(w.band) && w.band > 0 && r->opts.objective == CALC_OBJ_TIME) {
			double limit = r->top[first].r.step_time * (1 + w.band);
			for (int i = first + 1; i < r->ntop; i++)
				if (r->top[i].r.headroom >= want && r->top[i].r.step_time <= limit) {
					w.in_band++;
					if (simpler(plan, f, &r->top[i].r.c, &r->top[best].r.c) < 0)
						best = i;
				}
		}
		if (r->pick_kept > 0 && isfinite(w.band) && w.band > 0 && r->opts.objective == CALC_OBJ_TIME) {
			/* the whole band, read in one more pass (calc_search_pick_band) */
			const struct calc_search_top *t = r->pick_rank <= r->ntop ? &r->top[r->pick_rank - 1] : &r->pick_top;
			w.in_band = r->pick_in_band;
			w.rank = r->pick_rank;
			w.short_seq_cp = plan->seq_len < CP_MIN_SEQ && r->top[first].r.c.cp > 1 && t->r.c.cp == 1;
			if (why)
				*why = w;
			return t;
		}
		w.rank = best + 1;
		w.window_short = r->ntop == r->opts.top && (r->partial || r->ranked > r->ntop) && isfinite(w.band) &&
		                 w.band > 0 && r->opts.objective == CALC_OBJ_TIME &&
		                 r->top[r->ntop - 1].r.step_time <= r->top[first].r.step_time * (1 + w.band);
		w.short_seq_cp = plan->seq_len < CP_MIN_SEQ && r->top[first].r.c.cp > 1 && r->top[best].r.c.cp == 1;
	}
	if (why)
		*why = w;
	return best >= 0 ? &r->top[best] : NULL;
}

const char *calc_pick_band_key(const struct calc_plan *plan)
{
	switch ((enum calc_pick_band)plan->pick_band) {
	case CALC_PICK_BAND_ABSOLUTE:
		return "validation.band";
	case CALC_PICK_BAND_COMPARISON:
		return "validation.compare_band";
	case CALC_PICK_BAND_FIXED:
		return "plan.pick_band_fixed";
	}
	return "validation.band";
}

int calc_search_pick_window(const struct calc_search_result *r, const struct calc_plan *plan)
{
	double want = plan->memory_margin * plan->gpu_memory;
	int first = -1;
	/* every ranked split is kept: the window is the whole list; or the band was read in
	 * one more pass (calc_search_pick_band) */
	if (r->pick_kept > 0 || r->ntop < r->opts.top || (!r->partial && r->ranked <= r->ntop) ||
	    r->opts.top >= CALC_PICK_TOP_MAX)
		return 0;
	for (int i = 0; i < r->ntop && first < 0; i++)
		if (r->top[i].r.headroom >= want)
			first = i;
	if (first >= 0) {
		double band = calc_validate_plan_band(plan);
		if (r->opts.objective != CALC_OBJ_TIME || !isfinite(band) || band <= 0 ||
		    r->top[r->ntop - 1].r.step_time > r->top[first].r.step_time * (1 + band))
			return 0;
	}
	/* none of the window leaves the margin, or its last row is inside the band */
	return r->opts.top * 4 < CALC_PICK_TOP_MAX ? r->opts.top * 4 : CALC_PICK_TOP_MAX;
}

/*
 * The window without searching again.  r kept opts.top >= k0 rows (CALC_PICK_TOP_FIRST):
 * its top is exact, so the first n rows of r are what a search keeping n gives, and the
 * window's growth from k0 is followed over them; where it ends within them r is cut to it
 * (ntop and opts.top as that search leaves them).
 *
 * The whole band in one more pass.  The window of calc_search_pick_window grows by 4 until
 * its last row is outside the band of the fastest that leaves the margin, and the rule
 * then reads rows 1 .. K.  Every row inside the band ranks before every row outside it (the
 * ranking is by step time), so the rows the grown window holds inside the band are all the
 * ranked splits whose step time is at most T (1 + band), T the fastest's: one enumeration
 * with opts.band_limit = T (1 + band) times each of those (a lower bound prunes only above
 * the limit), keeps the least under rules a-e with ties to the first ranked (a streaming
 * minimum, one per thread, merged) and counts the splits ranked before it (its rank) and
 * those of the band (the K the window would have ended with).  The pick is the rule's over
 * the whole list, bit for bit (tests/calc/search.c test_pick_band compares the two).
 * Where the window would reach CALC_PICK_TOP_MAX still inside the band (a window the rule
 * reads cut short), or where no row of the first top leaves the margin (T unknown), the
 * result is left as it is and calc_search_pick_window grows it as before.
 */
int calc_search_pick_band(const struct calc_plan *plan, struct calc_search_result *r, int k0, struct calc_diag *d)
{
	double want = plan->memory_margin * plan->gpu_memory, band = calc_validate_plan_band(plan);
	int first = -1, k = k0, n;
	struct calc_search_opts o;
	struct calc_search_result b;
	struct band_arg arg;
	/* the window as it grows from k0 over the rows r holds (r->opts.top >= k0, exact) */
	for (;;) {
		int f = -1;
		if (k > r->opts.top)
			break; /* beyond the rows held */
		n = r->ntop < k ? r->ntop : k; /* rows of a search keeping k: r's top is exact */
		if (n < k || (!r->partial && r->ranked <= n) || k >= CALC_PICK_TOP_MAX)
			goto held;
		for (int i = 0; i < n && f < 0; i++)
			if (r->top[i].r.headroom >= want)
				f = i;
		if (f >= 0 && (r->opts.objective != CALC_OBJ_TIME || !isfinite(band) || band <= 0 ||
		               r->top[n - 1].r.step_time > r->top[f].r.step_time * (1 + band)))
			goto held;
		k = k * 4 < CALC_PICK_TOP_MAX ? k * 4 : CALC_PICK_TOP_MAX;
	}
	/* the window reaches past the rows held: one more pass where the fastest that leaves
	 * the margin is among them (the band's limit known), else the window grows as before
	 * (calc_search_pick_window, from r->opts.top on: the same sequence) */
	for (int i = 0; i < r->ntop && first < 0; i++)
		if (r->top[i].r.headroom >= want)
			first = i;
	if (first < 0)
		return 0;
	o = r->opts;
	arg.plan = plan;
	arg.f = pick_framework(r, plan);
	o.band_limit = r->top[first].r.step_time * (1 + band);
	o.band_want = want;
	o.band_simpler = band_simpler;
	o.band_arg = &arg;
	o.top = 1;
	o.top_only = 1;
	o.top_axes = 0;
	o.no_counts = 0; /* every leaf's memory is checked: the ranked count is whole */
	o.keep_all = o.keep_feasible = 0;
	o.recheck = 0;
	o.progress = NULL;
	if (o.memo && !calc_search_memo_filled(o.memo))
		o.memo = NULL; /* this pass reads a memo, never fills one */
	if (calc_search(plan, &o, &b, d) < 0)
		return -1;
	if (b.band_have) {
		/* the K the window grows to: from opts.top by 4 until its last row (rank K, or the
		 * last ranked) is outside the band, every split is kept, or it reaches the most */
		long long R = b.ranked;
		int kept;
		k = k0;
		for (;;) {
			long long n = R < k ? R : k;
			if (n < k || (!r->partial && R <= n) || k >= CALC_PICK_TOP_MAX || n > b.band_n)
				break;
			k = k * 4 < CALC_PICK_TOP_MAX ? k * 4 : CALC_PICK_TOP_MAX;
		}
		kept = (int)(R < k ? R : k);
		if (!(kept == k && b.band_n >= k && (r->partial || R > kept))) { /* not cut short */
			r->pick_kept = kept;
			r->pick_rank = (int)b.band_before + 1;
			r->pick_in_band = (int)b.band_nsafe - 1;
			free(r->pick_top.fast);
			memset(&r->pick_top, 0, sizeof r->pick_top);
			r->pick_top.r = b.band_best;
			calc_search_top_fast(plan, &r->pick_top); /* its closed-form breakdown, as the top's */
		}
	}
	calc_search_free(&b);
	return 0;
held: /* the rule reads r's first n rows: r is now what a search keeping k gives */
	r->ntop = n;
	r->opts.top = k;
	return 0;
}

int calc_search_kept(const struct calc_search_result *r)
{
	return r->pick_kept > 0 ? r->pick_kept : r->ntop;
}

const struct calc_search_top *calc_search_safe(const struct calc_search_result *r, const struct calc_plan *plan,
                                               int *rank)
{
	struct calc_pick_why w;
	const struct calc_search_top *t = calc_search_safe_why(r, plan, &w);
	if (rank)
		*rank = w.rank;
	return t;
}

const struct calc_search_top *calc_search_pick(const struct calc_search_result *r, const struct calc_plan *plan,
                                               int *rank)
{
	const struct calc_search_top *t = calc_search_safe(r, plan, rank);
	if (t || r->ntop == 0)
		return t;
	if (rank)
		*rank = 1;
	return &r->top[0];
}

int calc_plan_pick_split(struct calc_plan *plan, struct calc_diag *d)
{
	struct calc_search_opts o;
	struct calc_search_result r;
	const struct calc_search_top *t;
	struct calc_plan out;

	if (!plan->split_unset)
		return 0;
	calc_search_opts_init(&o);
	o.recheck = 0;
	o.top_only = 1; /* the top K is exact (search.h); the counts are not needed */
	o.offload_only = plan->offload_optimizer > 0; /* the plan's own optimizer offload stays */
	o.top = CALC_PICK_TOP_FIRST;
	if (calc_search(plan, &o, &r, d) < 0)
		return -1;
	if (calc_search_pick_band(plan, &r, CALC_PICK_TOP, d) < 0) {
		calc_search_free(&r);
		return -1;
	}
	for (int k; (k = calc_search_pick_window(&r, plan)) > 0;) {
		calc_search_free(&r);
		o.top = k;
		if (calc_search(plan, &o, &r, d) < 0)
			return -1;
	}
	t = calc_search_pick(&r, plan, NULL);
	if (!t) {
		/* at the cluster's size, or the model, as the user set them last */
		int line;
		const char *f = calc_plan_keys_origin(plan, "cluster.nodes cluster.gpus_per_node cluster.preset "
		                                      "model.preset model.hf_config", &line);
		calc_error_id(d, CALC_M_NO_SPLIT_FITS, f, line,
		              "the plan sets no split (parallel.tp, pp, dp, cp, ...) and no split of %s "
		              "fits its %d GPUs (%d node%s x %d %s): give more cluster.nodes, or a split of your own "
		              "(trainplan search lists the rejects)", plan->model.name[0] ? plan->model.name : "the model",
		              calc_plan_gpus(plan), plan->nodes, plan->nodes == 1 ? "" : "s", plan->gpus_per_node,
		              plan->gpu.name);
		calc_search_free(&r);
		return -1;
	}
	calc_search_apply(plan, &t->r.c, &out);
	calc_search_free(&r);
	out.split_unset = 0;
	out.split_picked = 1;
	*plan = out;
	return 0;
}
