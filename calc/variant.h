/*
 * variant.h -- plan variants: a plan changed by a layout and assignments (variant.c).
 */
#ifndef CALC_VARIANT_H
#define CALC_VARIANT_H

#include "diag.h"
#include "plan.h"

/*
 * Plan variants (variant.c): the one builder.  A layout change names the parallel
 * degrees and training choices to replace; a field < 0 (recipe NULL) keeps the base's.
 * A new pp re-splits the layers by the plan's rule (parallel.split) and marks the
 * stages uneven when they differ.
 */
struct calc_layout {
	int nodes, gpus_per_node;
	int tp, pp, dp, cp, vpp;
	int sp, zero;
	int recompute;         /* enum calc_recompute, or < 0 */
	int schedule;          /* enum calc_schedule, or < 0 */
	int micro_batch;
	const struct calc_recipe *recipe;
};
/* Set every field of 'l' to "keep". */
void calc_layout_keep(struct calc_layout *l);
/* Set pl->pp to 'pp' and split the layers by the plan's rule.  Returns 0, or -1 (with a
 * diagnostic when 'd' is not NULL) when the rule cannot split that depth; the list is
 * then left as it was and the planner's own checks refuse the depth. */
int calc_plan_resplit(struct calc_plan *pl, int pp, struct calc_diag *d);
#define CALC_VARIANT_VALIDATE 1u  /* validate the result even without assignments */
#define CALC_VARIANT_UNCHECKED 2u /* apply the assignments, ignore the validator (memory
                                     of a recipe this GPU cannot run, say) */
/*
 * Fill 'out' with 'base' changed by 'lay' (NULL: none) and then by the 'n' assignments
 * "KEY=VALUE" ('origin' names them in messages), validated once as a whole (unless
 * CALC_VARIANT_UNCHECKED).  Returns 0, or -1 after diagnostics in 'd'.
 */
int calc_plan_variant(const struct calc_plan *base, const struct calc_layout *lay, const char *const *kvs, int n,
                      const char *origin, unsigned flags, struct calc_plan *out, struct calc_diag *d);

#endif
