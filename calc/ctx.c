/*
 * ctx.c -- the evaluation context: one plan and the caches of what has been computed
 * for it (engine results in slots, catalog values in the value cache).
 *
 * A file of its own so that modules the catalog lists (report_catalog.c) can start and
 * free contexts of variant plans without calling the catalog back.
 */
#include "ctx.h"
#include "diag.h"
#include "plan.h"
#include "variant.h"

#include <stdlib.h>
#include <stddef.h>
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
	for (int i = 0; i < c->nvariants; i++) {
		if (!c->variants[i].alias) {
			calc_ctx_free(c->variants[i].ctx);
			free(c->variants[i].ctx);
		}
		free(c->variants[i].key);
	}
	free(c->variants);
	for (int i = 0; c->val && i < c->nval; i++) {
		for (int j = 0; c->val[i] && j < CALC_CTX_VAL_BLOCK; j++)
			calc_diag_free(&c->val[i][j].diag);
		free(c->val[i]);
	}
	free(c->val);
	memset(c, 0, sizeof *c);
}

/* 1 when plans a and b compute the same numbers: byte for byte equal but for where
 * their keys were set (key_src, set_origin: the messages' provenance). */
static int same_plan(const struct calc_plan *a, const struct calc_plan *b)
{
	/* the bytes before, between and after the two fields, compared in place (a copy of
	 * the plan with b's fields put in was 2 % of a report's instructions: every new
	 * variant is compared with every earlier one) */
	_Static_assert(offsetof(struct calc_plan, key_src) < offsetof(struct calc_plan, set_origin), "field order");
	const char *x = (const char *)a, *y = (const char *)b;
	size_t s0 = offsetof(struct calc_plan, key_src), e0 = s0 + sizeof a->key_src;
	size_t s1 = offsetof(struct calc_plan, set_origin), e1 = s1 + sizeof a->set_origin;
	return !memcmp(x, y, s0) && !memcmp(x + e0, y + e0, s1 - e0) && !memcmp(x + e1, y + e1, sizeof *a - e1);
}

struct calc_ctx *calc_ctx_variant(struct calc_ctx *base, const char *const *kvs, int n, const char *origin,
                                  struct calc_diag *d)
{
	size_t len = 1;
	for (int i = 0; i < n; i++)
		len += strlen(kvs[i]) + 1;
	char *key = xmalloc(len);
	key[0] = 0;
	for (int i = 0; i < n; i++) {
		strcat(key, kvs[i]);
		strcat(key, "\n");
	}
	for (int i = 0; i < base->nvariants; i++)
		if (!strcmp(base->variants[i].key, key)) {
			free(key);
			return base->variants[i].ctx;
		}
	struct calc_plan *p = xmalloc(sizeof *p);
	if (calc_plan_variant(&base->plan, NULL, kvs, n, origin, CALC_VARIANT_VALIDATE, p, d) < 0) {
		free(p);
		free(key);
		return NULL;
	}
	if (base->nvariants == base->capvariants) {
		base->capvariants = base->capvariants * 2 + 8;
		base->variants = xrealloc(base->variants, (size_t)base->capvariants * sizeof *base->variants);
	}
	/* Other assignments that give the same plan (with tp_overlap=0 where the plan has
	 * 0 already, 50e9 written as 5e10) share that plan's context and its caches: an
	 * equal plan computes the same numbers.  A plan that differs only in bytes nothing
	 * reads (padding) is merely not shared. */
	struct calc_ctx *same = same_plan(p, &base->plan) ? base : NULL;
	for (int i = 0; !same && i < base->nvariants; i++)
		if (same_plan(p, &base->variants[i].ctx->plan))
			same = base->variants[i].ctx;
	struct calc_ctx *vc = same;
	if (!vc) {
		vc = xmalloc(sizeof *vc);
		calc_ctx_init(vc, p);
		vc->root = base->root ? base->root : base;
	}
	free(p);
	base->variants[base->nvariants].key = key;
	base->variants[base->nvariants].ctx = vc;
	base->variants[base->nvariants].alias = same != NULL;
	base->nvariants++;
	return vc;
}
