/*
 * variant.c -- the one builder of plan variants.
 *
 * Every place that changes a plan to look at another one goes through
 * calc_plan_variant: the report's `with` (report/expr.c), the chapter scenarios and the
 * network neighbours (report_catalog.c), the step-breakdown neighbours
 * (catalog_step.c) and the planner's candidates (search.c).  A variant is the base plan
 * with a new parallel layout (struct calc_layout: structured, for the planner's speed)
 * and/or plan-key assignments ("KEY=VALUE", as --set takes them), validated once as a
 * whole.  The validation rows of validate.c and catalog_run.c are variants of the
 * built-in plan and go through the loader (calc_plan_load), which applies assignments
 * the same way.
 */
#include "diag.h"
#include "model.h"
#include "recipe.h"
#include "plan.h"
#include "variant.h"
#include "pipeline.h"

#include <string.h>

void calc_layout_keep(struct calc_layout *l)
{
	l->nodes = l->gpus_per_node = -1;
	l->tp = l->pp = l->dp = l->cp = l->vpp = -1;
	l->sp = l->zero = l->recompute = l->schedule = -1;
	l->micro_batch = -1;
	l->recipe = NULL;
}

/* The chunks per stage of the plan's schedule (1 without virtual stages). */
static int variant_chunks(const struct calc_plan *pl)
{
	const struct calc_sched *row = calc_schedule_at((int)pl->schedule);
	return row && row->uses_vpp && pl->vpp > 0 ? pl->vpp : 1;
}

/* The plan's layout keys at its pp and chunks again ('v' < 0: the schedule's; with
 * d NULL a layout the rules refuse leaves no chunks, which the caller refuses). */
static int rechunk(struct calc_plan *pl, int v, struct calc_diag *d)
{
	char msg[512];
	const char *key;
	pl->uneven_stages = 0;
	/* the message is formatted only where 'd' takes it (the planner passes none) */
	if (calc_plan_chunk(pl, v < 0 ? variant_chunks(pl) : v, msg, d ? sizeof msg : 0, &key) < 0) {
		/* the planner's stage totals hold at any chunks: as the layout says, or one */
		if (!d && v < 0 && calc_plan_chunk(pl, 0, msg, 0, &key) == 0)
			return 0;
		if (d)
			calc_error(d, NULL, 0, "%s", msg);
		return -1;
	}
	return 0;
}

int calc_plan_resplit(struct calc_plan *pl, int pp, struct calc_diag *d)
{
	pl->pp = pp;
	if (calc_plan_has_layout(pl)) /* Megatron-Core's layout keys: stage totals at any v */
		return rechunk(pl, -1, d);
	pl->chunks.n = 0; /* a plan the planner changed from a layout of its own */
	if (calc_layers_split(pl->model.layers, pp, pl->split, pl->layers_per_stage, d) < 0) {
		pl->uneven_stages = 0;
		return -1;
	}
	pl->uneven_stages = 0;
	for (int i = 1; i < pp; i++)
		if (pl->layers_per_stage[i] != pl->layers_per_stage[0])
			pl->uneven_stages = pp;
	return 0;
}

int calc_plan_variant(const struct calc_plan *base, const struct calc_layout *lay, const char *const *kvs, int n,
                      const char *origin, unsigned flags, struct calc_plan *out, struct calc_diag *d)
{
	*out = *base;
	if (lay) {
		if (lay->tp > 0 || lay->pp > 0 || lay->dp > 0 || lay->cp > 0)
			out->split_unset = 0; /* the layout's degrees are the split now */
		if (lay->nodes > 0) {
			out->nodes = lay->nodes;
			out->gpus_total = 0; /* the layout's nodes are the count now */
		}
		if (lay->gpus_per_node > 0)
			out->gpus_per_node = lay->gpus_per_node;
		if (lay->tp > 0)
			out->tp = lay->tp;
		if (lay->dp > 0) {
			out->dp = lay->dp;
			out->dp_auto = 0;
		}
		if (lay->cp > 0)
			out->cp = lay->cp;
		if (lay->vpp > 0)
			out->vpp = lay->vpp;
		if (lay->sp >= 0)
			out->sp = lay->sp;
		if (lay->zero >= 0)
			out->zero = lay->zero;
		if (lay->recompute >= 0)
			out->recompute = (enum calc_recompute)lay->recompute;
		if (lay->schedule >= 0)
			out->schedule = (enum calc_schedule)lay->schedule;
		if (lay->micro_batch > 0)
			out->micro_batch = lay->micro_batch;
		if (lay->recipe) {
			out->recipe = calc_recipe_grads(lay->recipe, out->main_grads);
			snprintf(out->recipe_name, sizeof out->recipe_name, "%s", lay->recipe->name);
		}
		if (lay->pp > 0) {
			if (calc_plan_resplit(out, lay->pp, d) < 0 && d)
				return -1; /* the planner (d NULL) rejects such a depth itself */
			/* a kept schedule with virtual stages has none at pp = 1: the plain one */
			if (lay->schedule < 0 && lay->pp == 1 && calc_schedule_at((int)out->schedule) &&
			    calc_schedule_at((int)out->schedule)->uses_vpp)
				out->schedule = calc_schedule_plain();
		}
		/* the chunks follow the schedule and vpp (calc_plan_resplit placed them) */
		if (calc_plan_has_layout(out) && (lay->vpp > 0 || lay->schedule >= 0 || lay->pp > 0) &&
		    rechunk(out, -1, d) < 0 && d)
			return -1;
	}
	if (n > 0) {
		if (flags & CALC_VARIANT_UNCHECKED) {
			struct calc_diag scratch = {0};
			calc_plan_set_many(out, kvs, n, origin ? origin : "variant", &scratch);
			calc_diag_free(&scratch);
			return 0;
		}
		return calc_plan_set_many(out, kvs, n, origin ? origin : "variant", d);
	}
	if (flags & CALC_VARIANT_VALIDATE)
		return calc_plan_validate(out, d);
	return 0;
}
