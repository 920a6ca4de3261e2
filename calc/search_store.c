/*
 * search_store.c -- a search result as bytes, and back (calc_search_pack,
 * calc_search_unpack): what a store of results between processes keeps
 * (calc_search_store, catalog_search.c; trainplan-report's cache file, report/cache.c).
 *
 * The bytes are the result's own structures as this build lays them out, with every
 * pointer cleared: a header of sizes, the result, then its arrays (the ranked top with
 * the closed-form breakdowns the search made, the pick's row, the heatmap's cells, the
 * rows kept and their frontier marks).  They are read back only by the build that wrote
 * them (the store's key holds the build's identity), so no field is converted; the
 * header's sizes and counts are checked all the same, and bytes that do not add up are
 * refused (-1), never read past.
 */
#include "search.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PACK_MAGIC "tpsr0001"

struct pack_head {
	char magic[8];
	uint32_t sz_res, sz_top, sz_step, sz_cell, sz_row;
	uint32_t ntop;      /* rows of top[] (top_alloc: as the search made them) */
	uint32_t nfast;     /* of which with a breakdown (a bit each in fast_bits) */
	uint32_t pick_fast; /* 1: pick_top carries a breakdown */
	uint32_t frontier;  /* 1: frontier[] (nrows bytes) follows the rows */
	uint64_t ncells, nrows;
};

struct wbuf {
	char *p;
	size_t n, cap;
};

static void put(struct wbuf *b, const void *x, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, x, n);
	b->n += n;
}

/* Every pointer of a result cleared: its arrays (they follow it in the bytes), the
 * options' hooks and the memo, which belonged to the search that ran (a caller that
 * reads a hook of the result sets it again: catalog_search.c). */
static void clear_pointers(struct calc_search_result *r)
{
	r->top = NULL;
	r->cells = NULL;
	r->rows = NULL;
	r->frontier = NULL;
	r->pick_top.fast = NULL;
	r->opts.pareto_sample = NULL;
	r->opts.progress = NULL;
	r->opts.progress_arg = NULL;
	r->opts.seed = NULL;
	r->opts.allow = NULL;
	r->opts.allow_arg = NULL;
	r->opts.band_simpler = NULL;
	r->opts.band_arg = NULL;
	r->opts.memo = NULL;
}

size_t calc_search_pack(const struct calc_search_result *r, char **out)
{
	struct pack_head h = {0};
	struct wbuf b = {0};
	memcpy(h.magic, PACK_MAGIC, 8);
	h.sz_res = sizeof *r;
	h.sz_top = sizeof *r->top;
	h.sz_step = sizeof *r->top->fast;
	h.sz_cell = sizeof *r->cells;
	h.sz_row = sizeof *r->rows;
	h.ntop = r->top ? (uint32_t)r->top_alloc : 0;
	for (uint32_t i = 0; i < h.ntop; i++)
		h.nfast += r->top[i].fast != NULL;
	h.pick_fast = r->pick_top.fast != NULL;
	h.frontier = r->frontier != NULL;
	h.ncells = r->cells ? (uint64_t)r->ncells : 0;
	h.nrows = r->rows ? (uint64_t)r->nrows : 0;
	put(&b, &h, sizeof h);

	/* the result, its pointers cleared */
	struct calc_search_result c = *r;
	clear_pointers(&c);
	put(&b, &c, sizeof c);
	for (uint32_t i = 0; i < h.ntop; i++) {
		struct calc_search_top t = r->top[i];
		unsigned char has = t.fast != NULL;
		t.fast = NULL;
		put(&b, &t, sizeof t);
		put(&b, &has, 1);
		if (has)
			put(&b, r->top[i].fast, sizeof *r->top[i].fast);
	}
	if (h.pick_fast)
		put(&b, r->pick_top.fast, sizeof *r->pick_top.fast);
	if (h.ncells)
		put(&b, r->cells, h.ncells * sizeof *r->cells);
	if (h.nrows)
		put(&b, r->rows, h.nrows * sizeof *r->rows);
	if (h.frontier && h.nrows)
		put(&b, r->frontier, h.nrows);
	*out = b.p;
	return b.n;
}

struct rbuf {
	const char *p;
	size_t n, at;
};

static int take(struct rbuf *b, void *x, size_t n)
{
	if (n > b->n - b->at)
		return -1;
	memcpy(x, b->p + b->at, n);
	b->at += n;
	return 0;
}

/* A copy of the next n bytes in a block of its own (NULL where there are fewer). */
static void *take_new(struct rbuf *b, size_t n)
{
	if (n > b->n - b->at)
		return NULL;
	void *x = xmalloc(n ? n : 1);
	memcpy(x, b->p + b->at, n);
	b->at += n;
	return x;
}

int calc_search_unpack(const void *buf, size_t n, struct calc_search_result *r)
{
	struct rbuf b = {buf, n, 0};
	struct pack_head h;
	memset(r, 0, sizeof *r);
	if (take(&b, &h, sizeof h) < 0 || memcmp(h.magic, PACK_MAGIC, 8) || h.sz_res != sizeof *r ||
	    h.sz_top != sizeof *r->top || h.sz_step != sizeof *r->top->fast || h.sz_cell != sizeof *r->cells ||
	    h.sz_row != sizeof *r->rows || h.ntop > (1u << 20) || h.nfast > h.ntop || h.pick_fast > 1 ||
	    h.frontier > 1 || h.ncells > (1u << 24) || h.nrows > (1ull << 32))
		return -1;
	if (take(&b, r, sizeof *r) < 0)
		return -1;
	clear_pointers(r); /* none is read from the bytes (pack wrote them cleared) */
	if ((long long)h.ntop != (r->top_alloc > 0 ? r->top_alloc : 0) || r->ntop < 0 || r->ntop > r->top_alloc ||
	    (long long)h.ncells != (long long)r->ncells || (long long)h.nrows != r->nrows) {
		memset(r, 0, sizeof *r);
		return -1;
	}
	r->top_alloc = 0; /* counts the rows read so far: calc_search_free's bound */
	r->ncells = 0;
	r->nrows = 0;
	if (h.ntop)
		r->top = xcalloc(h.ntop, sizeof *r->top);
	for (uint32_t i = 0; i < h.ntop; i++) {
		unsigned char has;
		if (take(&b, &r->top[i], sizeof r->top[i]) < 0 || take(&b, &has, 1) < 0 || has > 1)
			goto bad;
		r->top[i].fast = NULL;
		r->top_alloc = (int)i + 1;
		if (has && !(r->top[i].fast = take_new(&b, sizeof *r->top[i].fast)))
			goto bad;
	}
	if (h.pick_fast && !(r->pick_top.fast = take_new(&b, sizeof *r->pick_top.fast)))
		goto bad;
	if (h.ncells && !(r->cells = take_new(&b, h.ncells * sizeof *r->cells)))
		goto bad;
	r->ncells = (int)h.ncells;
	if (h.nrows && !(r->rows = take_new(&b, h.nrows * sizeof *r->rows)))
		goto bad;
	r->nrows = (long long)h.nrows;
	if (h.frontier && h.nrows && !(r->frontier = take_new(&b, h.nrows)))
		goto bad;
	if (b.at != b.n)
		goto bad;
	return 0;
bad:
	calc_search_free(r);
	return -1;
}
