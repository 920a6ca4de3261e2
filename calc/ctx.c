/*
 * ctx.c -- the evaluation context: one plan and the caches of what has been computed
 * for it (engine results in slots, catalog values in the value cache).
 *
 * A file of its own so that modules the catalog lists (report_catalog.c) can start and
 * free contexts of variant plans without calling the catalog back.
 */
#include "ctx.h"

#include <stdlib.h>
#include <string.h>

void calc_ctx_init(struct calc_ctx *c, const struct calc_plan *plan)
{
	memset(c, 0, sizeof *c);
	c->plan = *plan;
}

void calc_ctx_free(struct calc_ctx *c)
{
	for (int i = 0; i < CALC_SLOT_N; i++)
		if (c->slot[i] && c->slot_free[i])
			c->slot_free[i](c->slot[i]);
	for (int i = 0; c->val && i < c->nval; i++)
		calc_diag_free(&c->val[i].diag);
	free(c->val);
	memset(c, 0, sizeof *c);
}
