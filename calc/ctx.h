/*
 * ctx.h -- the layout of the evaluation context's value cache, shared by ctx.c (which
 * frees it) and catalog.c (which fills it).  Not part of the public API.
 */
#ifndef CALC_CTX_H
#define CALC_CTX_H

#include "catalog.h"
#include "diag.h"


/*
 * One cached evaluation of a quantity: the value, or the failure, and the diagnostics
 * the evaluation wrote, which every later use of the quantity writes again.
 */
#define CALC_CTX_VAL_BLOCK 64 /* entries of one block of calc_ctx.val */
struct calc_ctx_value {
	int state;            /* 0 not evaluated, 1 a value, -1 failed */
	struct calc_value v;  /* the value (state 1) */
	struct calc_diag diag; /* the diagnostics of the evaluation (records); owned */
};

/* One cached variant: its assignments joined by '\n' and its context. */
struct calc_ctx_variant {
	char *key;             /* owned */
	struct calc_ctx *ctx;  /* owned, unless 'alias' */
	int alias;             /* 1: ctx is the base or another entry's context (the same plan) */
};

#endif
