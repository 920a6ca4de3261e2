/*
 * pick.c -- the planner's recommendation, one rule wherever a split is recommended:
 * `trainplan search` (its "recommended" line), a plan that names a model or a cluster
 * and no split (calc_plan_pick_split), and the report's search.safe.* and search.pick.*
 * (catalog_search.c).
 *
 * The rule: of the search's top K by its objective, the first whose worst pipeline
 * stage leaves plan.memory_margin of the usable memory free.  The margin is a
 * convention of this project (plan.memory_margin, default 10%, docs/references.md
 * §9.21): no framework states one; it covers allocator fragmentation beyond the modelled
 * share, a longer sequence and a framework's buffers that the memory model does not list.
 */
#include "calc.h"
#include "search.h"

#include <stdio.h>

const struct calc_search_top *calc_search_safe(const struct calc_search_result *r, const struct calc_plan *plan,
                                               int *rank)
{
	double want = plan->memory_margin * plan->gpu_memory;
	if (rank)
		*rank = 0;
	for (int i = 0; i < r->ntop; i++)
		if (r->top[i].r.headroom >= want) {
			if (rank)
				*rank = i + 1;
			return &r->top[i];
		}
	return NULL;
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
	if (calc_search(plan, &o, &r, d) < 0)
		return -1;
	t = calc_search_pick(&r, plan, NULL);
	if (!t) {
		/* at the cluster's size, or the model, as the user set them last */
		int line;
		const char *f = calc_plan_keys_origin(plan, "cluster.nodes cluster.gpus_per_node cluster.preset "
		                                      "model.preset model.hf_config", &line);
		calc_error(d, f, line, "the plan sets no split (parallel.tp, pp, dp, cp, ...) and no split of %s "
		           "fits its %d GPUs (%d node%s x %d %s): give more cluster.nodes, or a split of your own "
		           "(trainplan search lists the rejects)", plan->model.name[0] ? plan->model.name : "the model",
		           calc_plan_gpus(plan), plan->nodes, plan->nodes == 1 ? "" : "s", plan->gpus_per_node, plan->gpu.name);
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
