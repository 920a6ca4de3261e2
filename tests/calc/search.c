/*
 * tests/calc/search.c -- the planner (search.c) against an independent brute-force loop.
 *
 * The brute force below walks the grid the planner documents (search.c header: tp | N,
 * pp | N/tp up to 256, cp | N/(tp pp) up to max_cp, micro-batch 1..max_mb, gpipe, 1f1b,
 * zb-h1, zb-h2, dualpipe and interleaved vpp 2..max_vpp with pp > 1, 1f1b alone with
 * pp = 1, three recomputations, SP only with tp > 1, ZeRO 0-3) with its own loops, and
 * judges every configuration with the reference engines only: calc_plan_validate for
 * validity, calc_memory for the worst stage, calc_step_fast for the time.  It shares no
 * code with search.c's enumeration, reject checks or lean memory path, so the two agree
 * only if the planner is right.  Crafted configurations hit every reject reason.
 *
 * Where pp does not divide the layers the planner also tries Megatron-Core's
 * account_embedding + account_loss (docs/references.md §3.7) when pp divides L + 2 (with
 * at least 2 per stage), and account_embedding or account_loss alone when it divides
 * L + 1, and Megatron's first/last stage layers with the middle stages at ceil(L / pp);
 * the brute force walks them after the plan's own split, with its own stage layers.
 */
#include "testutil.h"
#include "search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A small model on 2 nodes x 8 GPUs: 6 layers (pp = 4 splits unevenly), 8 heads and
 * 4 KV heads (tp = 8 and 16 do not divide), seq_len 1000 (cp = 8, 16 do not divide
 * 2 cp), global batch 32 (micro-batch 3 does not divide), 2 GB per GPU (some do not
 * fit: the fixed overheads alone are 1.5 GB, plan.c defaults). */
static const char *const small_sets[] = {
	"model.layers=6",  "model.hidden=512",  "model.heads=8",       "model.kv_heads=4",
	"model.ffn_hidden=2048", "model.vocab=32000", "cluster.nodes=2", "cluster.gpus_per_node=8",
	"parallel.tp=1",   "parallel.pp=1",     "parallel.dp=0",       "training.global_batch=32",
	"training.seq_len=1000", "cluster.gpu_memory=2GB",
	"plan.framework=any", /* every schedule of the table: the brute force walks them all */
};
#define NSMALL ((int)(sizeof small_sets / sizeof small_sets[0]))

struct bf {
	int tp, pp, dp, cp, vpp, mb, sp, rc, zero, sched, recipe;
	int valid, fits, worst;
	long idx;        /* position in the brute force's walk */
	double mem, time, cost;
	int split;       /* enum calc_search_split */
};

/* Layers per stage, written independently: remainder first, the default parallel.split
 * (the first L mod p stages hold one layer more). */
static void bf_split(int L, int p, int *out)
{
	/* remainder-first, the default parallel.split: hand the L mod p extra layers out
	 * one at a time from stage 0 on */
	int left = L;
	for (int i = 0; i < p; i++)
		out[i] = 0;
	for (int i = 0; left > 0; i = (i + 1) % p, left--)
		out[i]++;
}

static struct bf *brute(const struct calc_plan *base, int max_mb, int max_cp, int max_vpp, int *nout)
{
	int N = calc_plan_gpus(base), cap = 1024, n = 0, L = base->model.layers;
	struct bf *v = malloc((size_t)cap * sizeof *v);
	struct calc_plan *p = malloc(sizeof *p);
	struct calc_memory *m = malloc(sizeof *m);
	struct calc_step st;
	int rindex = -1;
	for (int i = 0; calc_recipe_at(i); i++)
		if (calc_recipe_at(i) == base->recipe)
			rindex = i;
	for (int tp = 1; tp <= N; tp++) {
		if (N % tp)
			continue;
		for (int pp = 1; pp <= N / tp && pp <= 256; pp++) {
			if ((N / tp) % pp)
				continue;
			for (int cp = 1; cp <= N / tp / pp && cp <= max_cp; cp++) {
				if ((N / tp / pp) % cp)
					continue;
				for (int mb = 1; mb <= max_mb; mb++)
				for (int acc = 0; acc < CALC_SEARCH_SPLIT_N; acc++) {
					int sch[16], vv[16], ns = 0;
					/* the account_* rules: e and l layers more to split, only where pp
					 * does not divide L and divides L + e + l, at least 2 a stage */
					int ae = acc == CALC_SPLIT_ACCOUNT_BOTH || acc == CALC_SPLIT_ACCOUNT_EMB;
					int al = acc == CALC_SPLIT_ACCOUNT_BOTH || acc == CALC_SPLIT_ACCOUNT_LOSS;
					/* first/last: middle stages ceil(L / pp), the rest R at the ends, the
					 * last floor(R / 2), both at least one */
					int q = (L + pp - 1) / pp, R = L - (pp - 2) * q, fl = acc == CALC_SPLIT_FIRST_LAST;
					if (fl && (pp < 3 || L % pp == 0 || R / 2 < 1 || R - R / 2 < 1 ||
					           ((L + 2) % pp == 0 && (L + 2) / pp >= 2)))
						continue; /* the account_* stages where both flags divide */
					if (acc != CALC_SPLIT_PLAN && !fl && (pp < 2 || L % pp == 0 || (L + ae + al) % pp ||
					                                      (L + ae + al) / pp < 2))
						continue;
					if (pp == 1)
						sch[ns] = CALC_SCHED_1F1B, vv[ns++] = 1;
					else {
						sch[ns] = CALC_SCHED_GPIPE, vv[ns++] = 1;
						sch[ns] = CALC_SCHED_1F1B, vv[ns++] = 1;
						sch[ns] = CALC_SCHED_ZBH1, vv[ns++] = 1;
						sch[ns] = CALC_SCHED_ZBH2, vv[ns++] = 1;
						sch[ns] = CALC_SCHED_DUALPIPE, vv[ns++] = 1;
						for (int x = 2; x <= max_vpp; x++)
							sch[ns] = CALC_SCHED_INTERLEAVED, vv[ns++] = x;
					}
					for (int s = 0; s < ns; s++)
						for (int rc = 0; rc < 3; rc++)
							/* with FlashAttention selective is the same configuration
							 * as none (no s^2 scores stored or recomputed either
							 * way): the search keeps only none */
							if (!(rc == CALC_RC_SELECTIVE && base->flash_attention))
							for (int sp = 0; sp < (tp > 1 ? 2 : 1); sp++)
								for (int z = 0; z < 4; z++) {
									struct calc_diag d = {0};
									struct bf *b;
									if (n == cap)
										v = realloc(v, (size_t)(cap *= 2) * sizeof *v);
									b = &v[n];
									memset(b, 0, sizeof *b);
									*b = (struct bf){tp, pp, N / tp / pp / cp, cp, vv[s], mb, sp, rc, z, sch[s],
									                 rindex, 0, 0, -1, n, 0, 0, 0, acc};
									*p = *base;
									p->tp = tp, p->pp = pp, p->cp = cp, p->dp = b->dp, p->dp_auto = 0;
									p->vpp = vv[s], p->micro_batch = mb, p->sp = sp, p->zero = z;
									p->recompute = (enum calc_recompute)rc;
									p->schedule = (enum calc_schedule)sch[s];
									p->uneven_stages = 0;
									p->account_embedding = ae, p->account_loss = al;
									p->first_stage_layers = fl ? R - R / 2 : 0;
									p->last_stage_layers = fl ? R / 2 : 0;
									p->chunks.n = 0;
									b->split = acc;
									if (acc != CALC_SPLIT_PLAN) {
										/* the chunks of the rule (model.c), and their
										 * stage sums against this file's own */
										char msg[512];
										const char *key;
										int chunks = sch[s] == CALC_SCHED_INTERLEAVED ? vv[s] : 1;
										calc_plan_chunk(p, chunks, msg, sizeof msg, &key);
										if (p->chunks.n)
											for (int i = 0; i < pp; i++)
												assert_int_equal(p->layers_per_stage[i],
												                 fl ? (i == 0 ? R - R / 2 : i == pp - 1 ? R / 2 : q)
												                    : (L + ae + al) / pp - (ae && i == 0) -
												                      (al && i == pp - 1));
									} else if (pp <= L) {
										bf_split(L, pp, p->layers_per_stage);
										p->uneven_stages = L % pp ? pp : 0;
									}
									b->valid = calc_plan_validate(p, &d) == 0;
									calc_diag_free(&d);
									if (b->valid) {
										assert_int_equal(calc_memory(p, m, &d), 0);
										b->worst = m->worst;
										b->mem = m->st[m->worst].total;
										b->fits = m->fits;
										if (b->fits) {
											calc_step_fast(p, &st);
											b->time = st.time;
											b->cost = st.cost;
										}
									}
									n++;
								}
				}
			}
		}
	}
	free(p);
	free(m);
	*nout = n;
	return v;
}

static int same_cfg(const struct bf *b, const struct calc_search_cfg *c)
{
	return b->tp == c->tp && b->pp == c->pp && b->dp == c->dp && b->cp == c->cp && b->vpp == c->vpp &&
	       b->mb == c->micro_batch && b->sp == c->sp && b->rc == c->recompute && b->zero == c->zero &&
	       b->sched == c->schedule && b->split == c->split;
}

/* Brute-force order for the time objective: time, then memory, then the walk. */
static int bf_better(const struct bf *a, const struct bf *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	if (a->mem != b->mem)
		return a->mem < b->mem;
	return a->idx < b->idx;
}

static void load_small(struct calc_plan *p)
{
	load_plan(p, small_sets, NSMALL);
}

static void run(const struct calc_plan *p, struct calc_search_opts *o, struct calc_search_result *r)
{
	struct calc_diag d = {0};
	int rc = calc_search(p, o, r, &d);
	if (rc)
		print_error("%s", d.text ? d.text : "");
	calc_diag_free(&d);
	assert_int_equal(rc, 0);
}

/* ------------------------------------------------------------------ tests */

/* Counts, every row's outcome, memory and time, the top K and the runner-ups. */
static void test_brute_force(void **state)
{
	struct calc_plan *p = malloc(sizeof *p);
	struct calc_search_opts o;
	struct calc_search_result r;
	int n, nvalid = 0, nfit = 0, ninvalid = 0;
	struct bf *v;
	(void)state;

	load_small(p);
	v = brute(p, 8, 16, 8, &n);
	calc_search_opts_init(&o);
	o.keep_all = 1;
	o.top = 20;
	run(p, &o, &r);

	for (int i = 0; i < n; i++) {
		nvalid += v[i].valid;
		ninvalid += !v[i].valid;
		nfit += v[i].valid && v[i].fits;
	}
	assert_true(nfit > 100 && nvalid - nfit > 100 && ninvalid > 100); /* the case exercises all three */
	assert_int_equal(r.evaluated, n);
	assert_int_equal(r.nrows, n);
	assert_int_equal(r.measured, nvalid);
	assert_int_equal(r.ranked, nfit);
	assert_int_equal(r.rejected[CALC_REJ_MEMORY], nvalid - nfit);

	/* row by row, in the same walk order */
	for (int i = 0; i < n; i++) {
		const struct calc_search_row *x = &r.rows[i];
		const struct bf *b = &v[i];
		assert_true(same_cfg(b, &x->c));
		assert_int_equal(x->reject != CALC_REJ_NONE && x->reject != CALC_REJ_MEMORY, !b->valid);
		if (!b->valid)
			continue;
		assert_int_equal(x->worst, b->worst);
		assert_near(x->memory, b->mem, 1e-12);
		assert_int_equal(x->reject == CALC_REJ_NONE, b->fits);
		if (b->fits) {
			assert_near(x->step_time, b->time, 1e-12);
			assert_near(x->cost, b->cost, 1e-12);
		}
	}

	/* top 20 by time (ties: less memory, then the walk) */
	{
		struct bf **best = calloc(20, sizeof *best);
		int nb = 0;
		for (int i = 0; i < n; i++) {
			int k;
			if (!v[i].valid || !v[i].fits)
				continue;
			if (nb == 20 && !bf_better(&v[i], best[19]))
				continue;
			k = nb < 20 ? nb++ : 19;
			while (k > 0 && bf_better(&v[i], best[k - 1])) {
				best[k] = best[k - 1];
				k--;
			}
			best[k] = &v[i];
		}
		assert_int_equal(r.ntop, nb);
		for (int i = 0; i < nb; i++) {
			assert_true(same_cfg(best[i], &r.top[i].r.c));
			assert_near(r.top[i].r.step_time, best[i]->time, 1e-12);
		}
		free(best);
	}

	/* runner-ups: best without PP, best with ZeRO-3, best with TP across nodes */
	{
		const struct {
			int axis;
			int (*pred)(const struct bf *);
		} ax[] = {
			{CALC_AXIS_NO_PP, NULL}, {CALC_AXIS_ZERO3, NULL}, {CALC_AXIS_TP_ACROSS, NULL},
		};
		for (size_t a = 0; a < sizeof ax / sizeof ax[0]; a++) {
			const struct bf *b = NULL;
			for (int i = 0; i < n; i++) {
				int ok = ax[a].axis == CALC_AXIS_NO_PP ? v[i].pp == 1
				         : ax[a].axis == CALC_AXIS_ZERO3 ? v[i].zero == 3
				                                         : v[i].tp > 8;
				if (ok && v[i].valid && v[i].fits && (!b || bf_better(&v[i], b)))
					b = &v[i];
			}
			assert_int_equal(r.have_axis[ax[a].axis], b != NULL);
			if (b)
				assert_true(same_cfg(b, &r.axis[ax[a].axis].c));
		}
	}

	/* heatmap: the best time of each (tp, pp) */
	for (int c = 0; c < r.ncells; c++) {
		double best = INFINITY;
		int feasible = 0;
		for (int i = 0; i < n; i++)
			if (v[i].tp == r.cells[c].tp && v[i].pp == r.cells[c].pp && v[i].valid && v[i].fits) {
				feasible++;
				if (v[i].time < best)
					best = v[i].time;
			}
		assert_int_equal(r.cells[c].feasible, feasible);
		if (feasible)
			assert_near(r.cells[c].best, best, 1e-12);
	}
	calc_search_free(&r);
	free(v);
	free(p);
}

/* Two results with the same counts: evaluated, ranked, each reason's rejects, the top's
 * size. */
static void assert_same_counts(const struct calc_search_result *a, const struct calc_search_result *b)
{
	assert_int_equal(a->evaluated, b->evaluated);
	assert_int_equal(a->ranked, b->ranked);
	for (int i = 0; i < CALC_REJ_N; i++)
		assert_int_equal(a->rejected[i], b->rejected[i]);
	assert_int_equal(a->ntop, b->ntop);
}

/* The same ranking on one thread and on two; and opts.leaves_per_thread: a grid smaller
 * than it runs on one thread whatever opts.threads says, one of at least that many
 * leaves on the threads asked for. */
static void test_threads(void **state)
{
	static const long long lpt[] = {0, 0, 1LL << 60, 1}; /* 1 << 60: more than any grid has */
	static const int threads[] = {1, 2, 2, 2}, used[] = {1, 2, 1, 2};
	struct calc_plan p;
	struct calc_search_opts o;
	struct calc_search_result a, b;
	(void)state;
	load_plan(&p, NULL, 0);
	calc_search_opts_init(&o);
	o.recheck = 0;
	o.threads = 1;
	run(&p, &o, &a);
	assert_int_equal(a.threads, 1);
	for (int k = 1; k < 4; k++) {
		o.threads = threads[k];
		o.leaves_per_thread = lpt[k];
		run(&p, &o, &b);
		assert_int_equal(b.threads, used[k]);
		assert_same_counts(&a, &b);
		for (int i = 0; i < a.ntop; i++)
			assert_int_equal(a.top[i].r.key, b.top[i].r.key);
		assert_int_equal(a.closest_miss.key, b.closest_miss.key);
		calc_search_free(&b);
	}
	calc_search_free(&a);
}

/* The lean worst-stage path against calc_memory on the 100B default model over TP,
 * PP (even and uneven), every schedule, recomputation, SP, ZeRO and micro-batch. */
static void test_memory_lean(void **state)
{
	static const int tps[] = {1, 2, 4, 8}, pps[] = {1, 2, 3, 4, 6, 7, 8, 16};
	struct calc_plan base, *p = malloc(sizeof *p);
	struct calc_memory *m = malloc(sizeof *m);
	int checked = 0;
	(void)state;
	load_plan(&base, NULL, 0);
	for (size_t a = 0; a < 4; a++)
		for (size_t b = 0; b < sizeof pps / sizeof pps[0]; b++)
			for (int s = 0; s < CALC_SCHED_N; s++)
				for (int rc = 0; rc < 3; rc++)
					for (int z = 0; z < 4; z++)
						for (int mb = 1; mb <= 2; mb++) {
							struct calc_diag d = {0};
							int worst;
							double total, head;
							struct calc_search_cfg c = {0};
							c.tp = tps[a], c.pp = pps[b], c.cp = 1, c.dp = 4, c.micro_batch = mb;
							c.gpus_per_node = tps[a], c.nodes = pps[b] * 4, c.gpus = c.nodes * tps[a];
							c.sp = (signed char)(tps[a] > 1 && z % 2), c.zero = (signed char)z;
							c.recompute = (signed char)rc, c.schedule = (signed char)s;
							c.vpp = s == CALC_SCHED_INTERLEAVED ? 2 : 1;
							for (int i = 0; calc_recipe_at(i); i++)
								if (calc_recipe_at(i) == base.recipe)
									c.recipe = (signed char)i;
							calc_search_apply(&base, &c, p);
							if (calc_plan_validate(p, &d) < 0) {
								calc_diag_free(&d);
								continue;
							}
							assert_int_equal(calc_memory(p, m, &d), 0);
							calc_search_memory(p, &worst, &total, &head);
							assert_int_equal(worst, m->worst);
							assert_near(total, m->st[m->worst].total, 1e-12);
							assert_near(head, m->st[m->worst].headroom, 1e-9);
							checked++;
						}
	assert_true(checked > 1000);
	free(p);
	free(m);
}

static const struct calc_search_row *find(const struct calc_search_result *r, int tp, int pp, int cp, int mb,
                                          int sched, int vpp)
{
	for (long long i = 0; i < r->nrows; i++) {
		const struct calc_search_cfg *c = &r->rows[i].c;
		if (c->tp == tp && c->pp == pp && c->cp == cp && c->micro_batch == mb && c->schedule == sched &&
		    c->vpp == vpp && c->recompute == CALC_RC_NONE && c->zero == 1)
			return &r->rows[i];
	}
	fail_msg("configuration tp %d pp %d cp %d mb %d not in the rows", tp, pp, cp, mb);
	return NULL;
}

/* One crafted configuration per reject reason; the reason is the first failing rule. */
static void test_reject_reasons(void **state)
{
	struct calc_plan p;
	struct calc_search_opts o;
	struct calc_search_result r;
	const struct calc_search_row *x;
	(void)state;

	load_small(&p);
	calc_search_opts_init(&o);
	o.keep_all = 1;
	o.recheck = 0;
	run(&p, &o, &r);
	/* 8 heads: tp = 16 does not divide them; 4 KV heads: tp = 8 does not divide them */
	x = find(&r, 16, 1, 1, 1, CALC_SCHED_1F1B, 1);
	assert_int_equal(x->reject, CALC_REJ_TP);
	x = find(&r, 8, 1, 1, 1, CALC_SCHED_1F1B, 1);
	assert_int_equal(x->reject, CALC_REJ_TP);
	/* 6 layers cannot fill 8 stages */
	x = find(&r, 1, 8, 1, 1, CALC_SCHED_1F1B, 1);
	assert_int_equal(x->reject, CALC_REJ_PP);
	/* 4 stages take 6 layers unevenly: 2, 2, 1, 1 (remainder first) -- valid */
	x = find(&r, 1, 4, 1, 1, CALC_SCHED_1F1B, 1);
	assert_true(x->reject == CALC_REJ_NONE || x->reject == CALC_REJ_MEMORY);
	assert_int_equal(x->c.uneven, 1);
	/* seq_len 1000 is not divisible by 2 x 8 = 16 */
	x = find(&r, 1, 1, 8, 1, CALC_SCHED_1F1B, 1);
	assert_int_equal(x->reject, CALC_REJ_CP);
	/* B = 32 is not divisible by b x dp = 3 x 16 */
	x = find(&r, 1, 1, 1, 3, CALC_SCHED_1F1B, 1);
	assert_int_equal(x->reject, CALC_REJ_BATCH);
	/* interleaved, pp 2, vpp 4: 6 layers not divisible by 2 x 4 */
	x = find(&r, 1, 2, 1, 1, CALC_SCHED_INTERLEAVED, 4);
	assert_int_equal(x->reject, CALC_REJ_VPP);
	/* interleaved, uneven pp 4 (2, 2, 1, 1 layers): a stage of 1 layer cannot hold 2 chunks */
	x = find(&r, 1, 4, 1, 1, CALC_SCHED_INTERLEAVED, 2);
	assert_int_equal(x->reject, CALC_REJ_VPP);
	/* interleaved, pp 2, vpp 3 (6 = 2 x 3 layers), dp 8, b 4: m = 32/32 = 1, not a multiple of 2 */
	x = find(&r, 1, 2, 1, 4, CALC_SCHED_INTERLEAVED, 3);
	assert_int_equal(x->reject, CALC_REJ_INTERLEAVED);
	/* dualpipe, pp 2, dp 8, b 2: m = 2 < 2 pp = 4 */
	x = find(&r, 1, 2, 1, 2, CALC_SCHED_DUALPIPE, 1);
	assert_int_equal(x->reject, CALC_REJ_DUALPIPE);
	/* tp 1, pp 1, dp 16, b 1, selective, ZeRO-1.  By hand: parameters 12 L h^2 + V h =
	 * 12 x 6 x 512^2 + 32000 x 512 = 35.3e6 at 2 + 4 + 12/16 = 6.75 B (bf16 weights, fp32
	 * grads, master + Adam over 16 ranks; Megatron-LM README) = 0.238 GB; activations
	 * 34 sbh x 6 layers = 34 x 1000 x 512 x 6 = 0.104 GB (Korthikanti 2022 Table 2 with
	 * selective recompute); fp32 logits 4 s b V = 0.128 GB and their bf16 transient
	 * 0.064 GB (§4.3); fixed overheads 1.5 GB; fragmentation 5 % of the 0.534 GB
	 * allocated = 0.027 GB.  Total about 2.06 GB > 2 GB: the worst (only) stage is 0. */
	x = find(&r, 1, 1, 1, 1, CALC_SCHED_1F1B, 1);
	assert_int_equal(x->reject, CALC_REJ_MEMORY);
	assert_int_equal(x->worst, 0);
	assert_near(x->memory, 2.06e9, 0.03);
	assert_true(x->headroom < 0);
	/* the closest miss is the memory reject with the largest (least negative) headroom */
	for (long long i = 0; i < r.nrows; i++)
		if (r.rows[i].reject == CALC_REJ_MEMORY)
			assert_true(r.rows[i].headroom <= r.closest_miss.headroom);
	assert_int_equal(r.closest_miss.reject, CALC_REJ_MEMORY);
	for (int i = CALC_REJ_TP; i < CALC_REJ_N; i++)
		assert_true(calc_search_reject_shown(&r, (enum calc_reject)i) ? r.rejected[i] > 0 : r.rejected[i] == 0);
	calc_search_free(&r);

	/* --even: pp 4 does not divide 6 layers */
	o.even_only = 1;
	run(&p, &o, &r);
	x = find(&r, 1, 4, 1, 1, CALC_SCHED_1F1B, 1);
	assert_int_equal(x->reject, CALC_REJ_PP);
	calc_search_free(&r);

	/* an FP8 recipe on a GPU without FP8 tensor cores (A100: FP8 '-' in its preset) */
	{
		const char *sets[NSMALL + 1];
		int fp8 = 0, nrec = 0;
		memcpy(sets, small_sets, sizeof small_sets);
		sets[NSMALL] = "cluster.gpu=a100-80g";
		load_plan(&p, sets, NSMALL + 1);
		o.even_only = 0;
		o.vary_recipe = 1;
		run(&p, &o, &r);
		/* recipes without gradients (seed, docs/references.md §1's memory baseline) are not
		 * searched: no row carries one */
		for (int i = 0; calc_recipe_at(i); i++)
			if (calc_recipe_bytes(calc_recipe_at(i), CALC_T_GRAD) > 0) {
				nrec++;
				fp8 += calc_recipe_at(i)->fp8_compute != 0; /* FP8, MXFP8 or NVFP4 */
			}
		assert_true(fp8 > 0);
		assert_true(nrec > 0);
		for (long long i = 0; i < r.nrows; i++)
			assert_true(calc_recipe_bytes(calc_recipe_at(r.rows[i].c.recipe), CALC_T_GRAD) > 0);
		assert_int_equal(r.evaluated % nrec, 0);
		/* every configuration of an FP8 recipe, and only those: each recipe has the same grid */
		assert_int_equal(r.rejected[CALC_REJ_FP8], r.evaluated / nrec * fp8);
		for (long long i = 0; i < r.nrows; i++)
			assert_int_equal(calc_recipe_at(r.rows[i].c.recipe)->fp8_compute != 0, r.rows[i].reject == CALC_REJ_FP8);
		calc_search_free(&r);
	}
}

/* Every ranked configuration of the small case, applied to the plan, passes
 * calc_plan_validate; the Pareto frontier is the set no other point dominates. */
static void test_apply_and_pareto(void **state)
{
	struct calc_plan p, *q = malloc(sizeof *q);
	struct calc_search_opts o;
	struct calc_search_result r;
	(void)state;
	load_small(&p);
	calc_search_opts_init(&o);
	o.keep_feasible = 1;
	o.recheck = 0;
	run(&p, &o, &r);
	assert_int_equal(r.nrows, r.ranked);
	for (long long i = 0; i < r.nrows; i++) {
		struct calc_diag d = {0};
		int dominated = 0;
		calc_search_apply(&p, &r.rows[i].c, q);
		assert_int_equal(calc_plan_validate(q, &d), 0);
		/* dominated: another point needs no more memory and is no slower, and is
		 * strictly better in one of the two or (an identical point) comes first */
		for (long long j = 0; j < r.nrows && !dominated; j++)
			dominated = j != i && r.rows[j].memory <= r.rows[i].memory &&
			            r.rows[j].step_time <= r.rows[i].step_time &&
			            (r.rows[j].memory < r.rows[i].memory || r.rows[j].step_time < r.rows[i].step_time || j < i);
		assert_int_equal(r.frontier[i], !dominated);
	}
	calc_search_free(&r);
	free(q);
}

/* opts.pareto_sample: the points kept are the rows a search keeping every ranked row
 * gives at their places in the Pareto set's order -- each row's configuration (from its
 * key: row_of_point), key, memory and step time bit for bit, and its frontier mark --
 * on one and two threads, with three and two recomputation modes, an MoE grid (ep,
 * etp) and the optimizer offload as a dimension. */
static long long sample_all(const struct calc_search_point *pts, const char *frontier, long long n, char *keep)
{
	(void)pts, (void)frontier;
	memset(keep, 1, (size_t)n);
	return n;
}

static long long sample_third(const struct calc_search_point *pts, const char *frontier, long long n, char *keep)
{
	long long k = 0;
	(void)pts;
	for (long long i = 0; i < n; i++)
		k += keep[i] = i % 3 == 1 || frontier[i];
	return k;
}

/* calc_search_pack and calc_search_unpack (search_store.c, the report's cache): a
 * result read back holds what the search gave, field by field -- the counts, the
 * ranked top with its breakdowns and simulated times, the pick's row, the heatmap's
 * cells, the rows kept and their frontier marks -- and packs to the same bytes again;
 * bytes cut short, with one more, or of another layout are refused and leave nothing. */
static void same_row(const struct calc_search_row *a, const struct calc_search_row *b)
{
	assert_true(a->key == b->key && a->reject == b->reject && a->worst == b->worst && a->memory == b->memory &&
	            a->headroom == b->headroom && a->step_time == b->step_time && a->mfu == b->mfu &&
	            a->tokens_per_s == b->tokens_per_s && a->run_time == b->run_time && a->cost == b->cost);
	assert_true(a->c.tp == b->c.tp && a->c.pp == b->c.pp && a->c.dp == b->c.dp && a->c.cp == b->c.cp &&
	            a->c.vpp == b->c.vpp && a->c.micro_batch == b->c.micro_batch && a->c.m == b->c.m &&
	            a->c.sp == b->c.sp && a->c.zero == b->c.zero && a->c.recompute == b->c.recompute &&
	            a->c.schedule == b->c.schedule && a->c.ep == b->c.ep && a->c.split == b->c.split);
}

static void test_pack(void **state)
{
	struct calc_plan *p = malloc(sizeof *p);
	struct calc_search_opts o;
	struct calc_search_result r, u, v;
	(void)state;
	load_plan(p, small_sets, NSMALL);
	for (int kind = 0; kind < 2; kind++) {
		calc_search_opts_init(&o);
		o.top = 40;
		o.recheck = 1;      /* simulated times in the top */
		o.breakdown_top = 5; /* breakdowns of some rows only */
		o.keep_feasible = kind == 1;
		o.pareto_sample = kind == 1 ? calc_search_pareto_sample : NULL;
		run(p, &o, &r);
		struct calc_diag d = {0};
		assert_int_equal(calc_search_pick_band(p, &r, CALC_PICK_TOP, &d), 0);
		calc_diag_free(&d);
		assert_true(r.ntop > 5 && r.ncells > 0 && (kind == 0 || (r.nrows > 10 && r.frontier)));
		char *b, *b2;
		size_t n = calc_search_pack(&r, &b);
		assert_int_equal(calc_search_unpack(b, n, &u), 0);
		/* the counts and the scalars */
		assert_true(u.evaluated == r.evaluated && u.measured == r.measured && u.ranked == r.ranked &&
		            u.pruned == r.pruned && u.partial == r.partial && u.rechecked == r.rechecked);
		for (int i = 0; i < CALC_REJ_N; i++)
			assert_true(u.rejected[i] == r.rejected[i]);
		assert_true(u.opts.top == r.opts.top && u.opts.objective == r.opts.objective);
		assert_true(!u.opts.pareto_sample && !u.opts.memo && !u.opts.seed); /* the caller's to set */
		for (int i = 0; i < CALC_AXIS_N; i++) {
			assert_int_equal(u.have_axis[i], r.have_axis[i]);
			if (r.have_axis[i])
				same_row(&u.axis[i], &r.axis[i]);
		}
		/* the top, with its breakdowns and simulated times */
		assert_int_equal(u.ntop, r.ntop);
		assert_int_equal(u.top_alloc, r.top_alloc);
		for (int i = 0; i < r.ntop; i++) {
			same_row(&u.top[i].r, &r.top[i].r);
			assert_int_equal(u.top[i].sim_ok, r.top[i].sim_ok);
			assert_true(u.top[i].sim_time == r.top[i].sim_time || (isnan(u.top[i].sim_time) && isnan(r.top[i].sim_time)));
			assert_int_equal(u.top[i].fast != NULL, r.top[i].fast != NULL);
			assert_int_equal(r.top[i].fast != NULL, i < 5);
			if (r.top[i].fast)
				assert_true(u.top[i].fast->time == r.top[i].fast->time &&
				            u.top[i].fast->bubble == r.top[i].fast->bubble &&
				            !memcmp(u.top[i].fast, r.top[i].fast, sizeof *r.top[i].fast));
		}
		assert_int_equal(u.pick_kept, r.pick_kept);
		assert_int_equal(u.pick_top.fast != NULL, r.pick_top.fast != NULL);
		if (r.pick_top.fast)
			same_row(&u.pick_top.r, &r.pick_top.r);
		/* the heatmap, the rows and the frontier */
		assert_int_equal(u.ncells, r.ncells);
		for (int i = 0; i < r.ncells; i++)
			assert_true(u.cells[i].tp == r.cells[i].tp && u.cells[i].pp == r.cells[i].pp &&
			            !memcmp(&u.cells[i].best, &r.cells[i].best, sizeof r.cells[i].best) && /* NaN: none fits */
			            u.cells[i].feasible == r.cells[i].feasible);
		assert_true(u.nrows == r.nrows && u.npoints == r.npoints);
		for (long long i = 0; i < r.nrows; i++) {
			same_row(&u.rows[i], &r.rows[i]);
			assert_int_equal(u.frontier[i], r.frontier[i]);
		}
		/* the same bytes again */
		size_t n2 = calc_search_pack(&u, &b2);
		assert_true(n2 == n && !memcmp(b, b2, n));
		free(b2);
		/* cut short anywhere, one byte more, another layout: refused, nothing kept */
		for (size_t cut = 0; cut < n; cut += cut < 4096 ? 1 : 97) {
			assert_int_equal(calc_search_unpack(b, cut, &v), -1);
			assert_true(!v.top && !v.cells && !v.rows && !v.frontier && !v.pick_top.fast && v.ntop == 0);
		}
		char *more = malloc(n + 1);
		memcpy(more, b, n);
		more[n] = 0;
		assert_int_equal(calc_search_unpack(more, n + 1, &v), -1);
		more[8] ^= 1; /* the result's size in the header */
		assert_int_equal(calc_search_unpack(more, n, &v), -1);
		free(more);
		free(b);
		calc_search_free(&u);
		calc_search_free(&r);
	}
	free(p);
}

static void test_pareto_points(void **state)
{
	const char *small[NSMALL + 2], *moe[] = {"model.preset=olmoe-1b-7b", "cluster.nodes=2", "parallel.tp=1",
	                                          "parallel.pp=1", "parallel.dp=16", "training.seq_len=4096",
	                                          "training.global_batch=64"};
	struct calc_plan *p = malloc(sizeof *p);
	struct calc_search_opts o;
	struct calc_search_result all, pts;
	(void)state;
	memcpy(small, small_sets, sizeof small_sets);
	for (int plan = 0; plan < 4; plan++) {
		int n = NSMALL;
		if (plan == 1)
			small[n++] = "training.flash_attention=0"; /* selective recomputation searched too */
		if (plan == 3)
			small[n++] = "cluster.gpu_memory=80GB";
		if (plan == 2)
			load_plan(p, moe, 7);
		else
			load_plan(p, small, n);
		if (plan == 3)
			p->cpu_optimizer_rate = 1e8;
		for (int threads = 1; threads <= 2; threads++)
			for (int third = 0; third < 2; third++) {
				calc_search_opts_init(&o);
				o.recheck = 0;
				o.threads = threads;
				o.max_mb = plan == 2 ? 2 : 8;
				o.offload_optimizer = plan == 3;
				o.keep_feasible = 1;
				run(p, &o, &all);
				o.pareto_sample = third ? sample_third : sample_all;
				run(p, &o, &pts);
				assert_true(all.nrows > 100);
				assert_int_equal(pts.npoints, all.nrows);
				assert_int_equal(pts.ranked, all.ranked);
				long long k = 0;
				for (long long i = 0; i < all.nrows; i++) {
					if (third && !(i % 3 == 1 || all.frontier[i]))
						continue;
					const struct calc_search_row *a = &all.rows[i], *b = &pts.rows[k];
					const struct calc_search_cfg *x = &a->c, *y = &b->c;
					assert_true(k < pts.nrows);
					assert_true(a->key == b->key && a->memory == b->memory && a->step_time == b->step_time);
					assert_int_equal(all.frontier[i], pts.frontier[k]);
					assert_true(x->gpus == y->gpus && x->nodes == y->nodes && x->gpus_per_node == y->gpus_per_node &&
					            x->tp == y->tp && x->pp == y->pp && x->dp == y->dp && x->cp == y->cp &&
					            x->vpp == y->vpp && x->micro_batch == y->micro_batch && x->m == y->m &&
					            x->sp == y->sp && x->zero == y->zero && x->recompute == y->recompute &&
					            x->schedule == y->schedule && x->recipe == y->recipe && x->uneven == y->uneven &&
					            x->split == y->split && x->ep == y->ep && x->etp == y->etp &&
					            x->offload == y->offload);
					k++;
				}
				assert_int_equal(k, pts.nrows);
				calc_search_free(&all);
				calc_search_free(&pts);
			}
	}
	free(p);
}

/* The memory objective: the winner has the most headroom of the brute force. */
static void test_objective_memory(void **state)
{
	struct calc_plan p;
	struct calc_search_opts o;
	struct calc_search_result r;
	struct bf *v;
	int n;
	double best = -INFINITY;
	(void)state;
	load_small(&p);
	v = brute(&p, 8, 16, 8, &n);
	for (int i = 0; i < n; i++)
		if (v[i].valid && v[i].fits && p.gpu_memory - v[i].mem > best)
			best = p.gpu_memory - v[i].mem;
	calc_search_opts_init(&o);
	o.objective = CALC_OBJ_MEMORY;
	o.recheck = 0;
	run(&p, &o, &r);
	assert_true(r.ntop > 0);
	assert_near(r.top[0].r.headroom, best, 1e-12);
	for (int i = 1; i < r.ntop; i++)
		assert_true(r.top[i].r.headroom <= r.top[i - 1].r.headroom);
	calc_search_free(&r);
	free(v);
}

/* The catalog: search.best.* of the context's plan equal the search's winner, and
 * the search runs once per context. */
static void test_catalog(void **state)
{
	struct calc_plan p;
	struct calc_ctx c;
	struct calc_diag d = {0};
	struct calc_value v = {0};
	const struct calc_search_result *r;
	struct calc_table t;
	double best;
	(void)state;
	load_small(&p);
	calc_ctx_init(&c, &p);
	r = calc_ctx_search(&c, &d);
	assert_non_null(r);
	assert_ptr_equal(calc_ctx_search(&c, &d), r);
	assert_int_equal(calc_catalog_get(&c, "search.best.tp", &v, &d), 0);
	assert_int_equal(v.num, r->top[0].r.c.tp);
	assert_int_equal(calc_catalog_get(&c, "search.best.pp", &v, &d), 0);
	assert_int_equal(v.num, r->top[0].r.c.pp);
	assert_int_equal(calc_catalog_get(&c, "search.best.schedule", &v, &d), 0);
	assert_string_equal(v.str, calc_schedule_name((enum calc_schedule)r->top[0].r.c.schedule));
	assert_int_equal(calc_catalog_get(&c, "search.best.step_time", &v, &d), 0);
	assert_near(v.num, r->top[0].r.step_time, 1e-15);
	best = r->top[0].r.step_time;
	assert_int_equal(r->top_only, 1); /* the quantities need only the top K */
	assert_int_equal(calc_catalog_build(&c, "search-heatmap", 1, NULL, &t, &d), 0);
	/* the heatmap needs the complete search, which replaced the top-K one (r is freed):
	 * a new result with the same top */
	r = calc_ctx_search(&c, &d);
	assert_non_null(r);
	assert_int_equal(r->top_only, 0);
	assert_true(r->top[0].r.step_time == best);
	assert_int_equal(t.nrows, r->ncells);
	calc_table_free(&t);
	assert_int_equal(calc_catalog_build(&c, "search-rejects", 0, NULL, &t, &d), 0);
	/* ranked, the nine built-in reasons (interleaved and dualpipe have checks), total */
	assert_int_equal(t.nrows, 1 + 9 + 1);
	assert_near(t.cells[(t.nrows - 1) * t.ncols + 1].v, (double)r->evaluated, 0);
	calc_table_free(&t);
	calc_ctx_free(&c);
	calc_diag_free(&d);
}

/* A variant's search for the top only does not count (opts.no_counts; result.partial),
 * and a count asked after it is the complete search's, never the partial one's: each
 * count of the catalog (search.ranked, search.evaluated, search.rejected_memory, the
 * search-rejects table) against calc_search of the variant's plan with the default
 * options (every leaf's memory computed).  The partial result of the same search ranks
 * fewer (test_no_counts), so serving its counts fails here.  Where nothing fits, found is
 * 0 and the best's message counts the grid. */
static void test_catalog_no_counts(void **state)
{
	static const char *const seq[] = {"training.seq_len=8192", "training.seq_len=16777216"};
	struct calc_plan *p = malloc(sizeof *p);
	(void)state;
	for (int k = 0; k < 2; k++) {
		struct calc_diag d = {0};
		struct calc_ctx root, *vc;
		struct calc_value v = {0};
		struct calc_search_opts o;
		struct calc_search_result full;
		struct calc_table t;
		assert_int_equal(calc_plan_load(p, "plans/default.ini", NULL, 0, &d), 0);
		calc_ctx_init(&root, p);
		/* the root's search first, as in the report: its top seeds the variant's */
		assert_int_equal(calc_catalog_get(&root, "search.best.tp", &v, &d), 0);
		vc = calc_ctx_variant(&root, &seq[k], 1, "test", &d);
		assert_non_null(vc);
		calc_search_opts_init(&o);
		o.recheck = 0;
		o.top = CALC_PICK_TOP; /* the catalog keeps the recommendation's window, grown to the band */
		run(&vc->plan, &o, &full);
		for (int w; (w = calc_search_pick_window(&full, &vc->plan)) > 0;) {
			calc_search_free(&full);
			o.top = w;
			run(&vc->plan, &o, &full);
		}
		assert_int_equal(calc_catalog_get(vc, "search.found", &v, &d), 0);
		assert_int_equal((int)v.num, full.ntop);
		assert_int_equal((int)v.num, full.ranked < o.top ? full.ranked : o.top);
		if (full.ntop > 0) {
			assert_int_equal(calc_catalog_get(vc, "search.best.step_time", &v, &d), 0);
			assert_true(v.num == full.top[0].r.step_time);
			assert_int_equal(calc_catalog_get(vc, "search.best.tp", &v, &d), 0);
			assert_int_equal((int)v.num, full.top[0].r.c.tp);
		} else {
			assert_int_equal(calc_catalog_get(vc, "search.best.tp", &v, &d), -1);
			char want[64]; /* the grid of Megatron-Core's schedules (plan.framework = stack) */
			snprintf(want, sizeof want, "no configuration of %lld fits in memory", full.evaluated);
			assert_non_null(strstr(d.text, want));
			calc_diag_free(&d);
		}
		assert_int_equal(calc_catalog_get(vc, "search.ranked", &v, &d), 0);
		assert_true(v.num == (double)full.ranked);
		assert_int_equal(calc_catalog_get(vc, "search.rejected_memory", &v, &d), 0);
		assert_true(v.num == (double)full.rejected[CALC_REJ_MEMORY]);
		assert_int_equal(calc_catalog_get(vc, "search.evaluated", &v, &d), 0);
		assert_true(v.num == (double)full.evaluated);
		calc_search_free(&full);
		/* a second variant of the same plan: the table first after the top */
		vc = calc_ctx_variant(&root, (const char *const[]){seq[k], "efficiency.gemm=0.5"}, 2, "test", &d);
		assert_non_null(vc);
		run(&vc->plan, &o, &full);
		assert_int_equal(calc_catalog_get(vc, "search.found", &v, &d), 0);
		assert_int_equal(calc_catalog_build(vc, "search-rejects", 0, NULL, &t, &d), 0);
		assert_true(t.cells[1].v == (double)full.ranked); /* row "ranked", column configurations */
		assert_true(t.cells[(t.nrows - 1) * t.ncols + 1].v == (double)full.evaluated);
		calc_table_free(&t);
		calc_search_free(&full);
		calc_ctx_free(&root);
		calc_diag_free(&d);
	}
	free(p);
}

/* A GPU count that is not a whole number of nodes is refused with a message. */
static void test_bad_gpus(void **state)
{
	struct calc_plan p;
	struct calc_search_opts o;
	struct calc_search_result r;
	struct calc_diag d = {0};
	(void)state;
	load_small(&p);
	calc_search_opts_init(&o);
	o.ngpus = 1;
	o.gpus[0] = 12; /* 8 GPUs per node */
	assert_int_equal(calc_search(&p, &o, &r, &d), -1);
	assert_non_null(strstr(d.text, "12 GPUs"));
	calc_diag_free(&d);
}

/* The seed recipe holds no gradients (docs/references.md §1: weights + Adam moments, the
 * textbook memory baseline): as the plan's recipe it is refused by the search and by
 * the step time, with the reason. */
static void test_seed_refused(void **state)
{
	const char *sets[NSMALL + 1];
	struct calc_plan p;
	struct calc_search_opts o;
	struct calc_search_result r;
	struct calc_step *st = malloc(sizeof *st);
	struct calc_diag d = {0};
	(void)state;
	memcpy(sets, small_sets, sizeof small_sets);
	sets[NSMALL] = "training.recipe=seed";
	load_plan(&p, sets, NSMALL + 1);
	calc_search_opts_init(&o);
	assert_int_equal(calc_search(&p, &o, &r, &d), -1);
	assert_non_null(strstr(d.text, "no gradients"));
	calc_diag_free(&d);
	assert_int_equal(calc_step(&p, st, &d), -1);
	assert_non_null(strstr(d.text, "no gradients"));
	calc_diag_free(&d);
	free(st);
}

/* --min-headroom: the winner is the fastest configuration of the independent brute
 * force among those that leave at least the margin free, and every ranked row does. */
static void test_min_headroom(void **state)
{
	struct calc_plan p;
	struct calc_search_opts o;
	struct calc_search_result r;
	struct bf *v;
	int n, ranked = 0;
	double margin, best = INFINITY;
	(void)state;
	load_small(&p);
	v = brute(&p, 8, 16, 8, &n);
	/* a margin half the largest headroom any configuration leaves */
	margin = 0;
	for (int i = 0; i < n; i++)
		if (v[i].valid && v[i].fits && p.gpu_memory - v[i].mem > margin)
			margin = p.gpu_memory - v[i].mem;
	margin /= 2;
	for (int i = 0; i < n; i++)
		if (v[i].valid && v[i].fits && p.gpu_memory - v[i].mem >= margin) {
			ranked++;
			if (v[i].time < best)
				best = v[i].time;
		}
	calc_search_opts_init(&o);
	o.min_headroom = margin;
	o.recheck = 0;
	run(&p, &o, &r);
	assert_int_equal(r.ranked, ranked);
	assert_true(r.ntop > 0);
	assert_near(r.top[0].r.step_time, best, 1e-12);
	for (int i = 0; i < r.ntop; i++)
		assert_true(r.top[i].r.headroom >= margin);
	calc_search_free(&r);
	free(v);
}

/* MoE: ep and etp are axes.  OLMoE 1B-7B (64 experts of 1024, 16 layers) on 2 nodes of
 * 8: a configuration whose ep x etp does not divide tp x cp x dp is an ep-fold reject
 * (checked here by its arithmetic and by calc_plan_validate on the applied plan), never
 * a candidate with edp = 1; every ranked one applies to a valid plan with those degrees
 * and edp = tp cp dp / (ep etp), and its closed-form time is calc_step_fast's of that plan. */
static void test_moe_axes(void **state)
{
	const char *sets[] = {"model.preset=olmoe-1b-7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=1",
	                      "parallel.dp=16", "training.seq_len=4096", "training.global_batch=64"};
	struct calc_plan p, *q = malloc(sizeof *q);
	struct calc_search_opts o;
	struct calc_search_result r;
	struct calc_step *st = malloc(sizeof *st);
	long long ep_rej = 0, ranked = 0, etp_seen = 0;
	(void)state;

	load_plan(&p, sets, 7);
	calc_search_opts_init(&o);
	o.keep_all = 1;
	o.recheck = 0;
	o.max_mb = 2;
	o.max_vpp = 2;
	run(&p, &o, &r);
	assert_int_equal(r.moe, 1);
	for (long long i = 0; i < r.nrows; i++) {
		const struct calc_search_row *x = &r.rows[i];
		int fold = (x->c.tp * x->c.cp * x->c.dp) % (x->c.ep * x->c.etp) == 0;
		if (x->reject == CALC_REJ_EP) {
			struct calc_diag d = {0};
			assert_false(fold);
			calc_search_apply(&p, &x->c, q);
			assert_true(calc_plan_validate(q, &d) < 0);
			calc_diag_free(&d);
			ep_rej++;
		} else if (x->reject == CALC_REJ_NONE) {
			struct calc_diag d = {0};
			assert_true(fold);
			assert_int_equal(x->c.tp % x->c.etp, 0);
			calc_search_apply(&p, &x->c, q);
			assert_int_equal(calc_plan_validate(q, &d), 0);
			assert_int_equal(q->ep, x->c.ep);
			assert_int_equal(q->etp, x->c.etp);
			assert_int_equal(q->edp, x->c.tp * x->c.cp * x->c.dp / (x->c.ep * x->c.etp));
			if (ranked++ % 97 == 0) {
				calc_step_fast(q, st);
				assert_near(x->step_time, st->time, 1e-12);
			}
			etp_seen |= x->c.etp > 1;
			calc_diag_free(&d);
		}
	}
	assert_true(ep_rej > 0 && ep_rej == r.rejected[CALC_REJ_EP]);
	assert_true(ranked > 0 && etp_seen);
	assert_int_equal(r.top[0].r.reject, CALC_REJ_NONE);
	calc_search_free(&r);
	free(q);
	free(st);
}

/* Megatron-LM's other order tp-cp-ep-pp-dp gives the expert layers the pipeline groups
 * of the dense ones only where etp x ep = tp x cp (Megatron-Core asserts it,
 * parallel_state.py initialize_model_parallel at core_v0.19.0; comm.h
 * calc_placement_pp_agrees): OLMoE 1B-7B on 2 nodes of 8 with pp free, every ranked
 * candidate with pp > 1 has etp x ep = tp x cp, and some candidate that folds (ep x etp
 * divides tp x cp x dp) is an ep-fold reject for that reason alone. */
static void test_moe_placement(void **state)
{
	const char *sets[] = {"model.preset=olmoe-1b-7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=1",
	                      "parallel.dp=16", "training.seq_len=4096", "training.global_batch=64",
	                      "parallel.placement=tp-cp-ep-pp-dp"};
	struct calc_plan p;
	struct calc_search_opts o;
	struct calc_search_result r;
	long long ranked_pp = 0, order_rej = 0;
	(void)state;

	load_plan(&p, sets, 8);
	calc_search_opts_init(&o);
	o.keep_all = 1;
	o.recheck = 0;
	o.max_mb = 1;
	o.max_vpp = 1;
	run(&p, &o, &r);
	for (long long i = 0; i < r.nrows; i++) {
		const struct calc_search_cfg *c = &r.rows[i].c;
		int fold = (c->tp * c->cp * c->dp) % (c->ep * c->etp) == 0;
		if (r.rows[i].reject == CALC_REJ_NONE && c->pp > 1) {
			assert_int_equal(c->etp * c->ep, c->tp * c->cp);
			ranked_pp++;
		}
		if (r.rows[i].reject == CALC_REJ_EP && fold) {
			assert_true(c->pp > 1 && c->etp * c->ep != c->tp * c->cp);
			order_rej++;
		}
	}
	assert_true(order_rej > 0);
	assert_true(ranked_pp > 0);
	calc_search_free(&r);
}

/* The progress callback's record. */
struct prog {
	int n;
	double share[4096];
};

static void record(void *arg, double done, double elapsed)
{
	struct prog *g = arg;
	(void)elapsed;
	if (g->n < 4096)
		g->share[g->n++] = done;
}

/* Progress is weighted by the leaves each item evaluates: with every row kept, every
 * item goes leaf by leaf, so the total work is r.evaluated (the brute force's count,
 * test_brute_force) and each share times it is a whole number of leaves; the shares
 * never decrease and the last is 1.  Weighting by items would give equal steps of
 * 1/items, but the items here differ in leaves (pipeline depths have different
 * schedule variants), so the steps must differ. */
static void test_progress(void **state)
{
	struct calc_plan *p = malloc(sizeof *p);
	struct calc_search_opts o;
	struct calc_search_result r;
	struct prog *g = calloc(1, sizeof *g);
	(void)state;

	load_small(p);
	for (int threads = 1; threads <= 2; threads++) {
		double step_min = 2, step_max = 0;
		g->n = 0;
		calc_search_opts_init(&o);
		o.keep_all = 1;
		o.threads = threads;
		o.progress = record;
		o.progress_arg = g;
		o.progress_interval = 0; /* a call after every item of the calling thread */
		run(p, &o, &r);
		/* with two threads only the calling thread reports, after its own items: under
		 * load the other thread may take nearly all of them, so only the last call is sure */
		assert_true(g->n >= (threads == 1 ? 3 : 1) && g->n < 4096);
		assert_true(g->share[g->n - 1] == 1.0);
		for (int i = 0; i < g->n; i++) {
			double leaves = g->share[i] * (double)r.evaluated;
			assert_true(g->share[i] >= 0 && g->share[i] <= 1);
			assert_true(fabs(leaves - round(leaves)) < 1e-6 * (double)r.evaluated);
			if (i > 0) {
				double step = g->share[i] - g->share[i - 1];
				assert_true(step >= 0);
				if (threads == 1 && step > 0) {
					step_min = fmin(step_min, step);
					step_max = fmax(step_max, step);
				}
			}
		}
		if (threads == 1)
			assert_true(step_max > step_min * 1.5);
		calc_search_free(&r);
	}
	free(g);
	free(p);
}

/* opts.top_only skips the leaves whose lower bound cannot enter the top K: the top K
 * (every field), the counts and the memory rejects must be those of the full search,
 * on the shipped plans and on variants with a slower network and a longer sequence
 * (other winners, other bounds), and with one thread and two. */
static void test_top_only(void **state)
{
	static const char *const files[] = {"plans/default.ini", "plans/llama2-70b-a100.ini",
	                                    "plans/llama3-405b-h100.ini"};
	static const char *const vars[][1] = {{NULL}, {"cluster.inter_node_bw=3.125e9"}, {"training.seq_len=8192"}};
	struct calc_plan *p = malloc(sizeof *p);
	(void)state;
	for (int f = 0; f < 3; f++)
		for (int v = 0; v < 3; v++)
			for (int threads = 1; threads <= 2; threads++) {
				struct calc_diag d = {0};
				struct calc_search_opts o;
				struct calc_search_result a, b;
				assert_int_equal(calc_plan_load(p, files[f], vars[v], vars[v][0] ? 1 : 0, &d), 0);
				calc_diag_free(&d);
				calc_search_opts_init(&o);
				o.threads = threads;
				o.recheck = 0;
				run(p, &o, &a);
				o.top_only = 1;
				run(p, &o, &b);
				assert_int_equal(a.top_only, 0);
				assert_int_equal(b.top_only, 1);
				assert_true(b.pruned > 0 && b.pruned < b.ranked);
				assert_int_equal(a.evaluated, b.evaluated);
				assert_int_equal(a.measured, b.measured);
				assert_int_equal(a.ranked, b.ranked);
				for (int r = 0; r < CALC_REJ_N; r++)
					assert_int_equal(a.rejected[r], b.rejected[r]);
				assert_int_equal(a.ntop, b.ntop);
				for (int i = 0; i < a.ntop; i++) {
					assert_memory_equal(&a.top[i].r, &b.top[i].r, sizeof a.top[i].r);
					assert_true(a.top[i].fast && b.top[i].fast && a.top[i].fast->time == b.top[i].fast->time);
				}
				if (getenv("TOP_ONLY_STATS"))
					fprintf(stderr, "%s %s %d: pruned %lld of %lld ranked, %.1f -> %.1f ms\n", files[f],
					        vars[v][0] ? vars[v][0] : "-", threads, b.pruned, b.ranked, 1e3 * a.elapsed_s,
					        1e3 * b.elapsed_s);
				calc_search_free(&a);
				calc_search_free(&b);
			}
	free(p);
}

/* opts.no_counts computes a leaf's memory only where its bound could enter the top K:
 * the top K (every field) must be the full search's, and evaluated and measured too,
 * while ranked and the memory rejects leave leaves out (result.partial), on the shipped
 * plans and on variants with a longer and a shorter sequence and a slower network (other
 * memory sides), with one thread and two; seeded with the plan's own top (which need not
 * fit under a variant), with configurations that are no leaf of the grid, with more
 * configurations than a seed keeps (CALC_SEARCH_SEED, the first ones no leaf), or not at
 * all.
 * The expected top is the complete search's (every leaf's memory computed, every ranked
 * leaf timed). */
static void test_no_counts(void **state)
{
	static const char *const files[] = {"plans/default.ini", "plans/llama2-70b-a100.ini",
	                                    "plans/llama3-405b-h100.ini"};
	static const char *const vars[][1] = {{NULL}, {"training.seq_len=8192"}, {"training.seq_len=2048"},
	                                      {"cluster.inter_node_bw=3.125e9"}};
	struct calc_plan *p = malloc(sizeof *p), *q = malloc(sizeof *q);
	(void)state;
	for (int f = 0; f < 3; f++) {
		struct calc_diag d = {0};
		struct calc_search_opts o;
		struct calc_search_result own;
		struct calc_search_cfg seed[CALC_SEARCH_SEED], many[3 * CALC_SEARCH_SEED];
		int nseed;
		assert_int_equal(calc_plan_load(p, files[f], NULL, 0, &d), 0);
		calc_search_opts_init(&o);
		o.recheck = 0;
		o.top = CALC_SEARCH_SEED;
		run(p, &o, &own);
		nseed = own.ntop;
		for (int i = 0; i < nseed; i++)
			seed[i] = own.top[i].r.c;
		calc_search_free(&own);
		seed[0].tp = 3; /* no TP degree of the grid */
		seed[1].micro_batch = 1000; /* above max_mb */
		for (int i = 0; i < 3 * CALC_SEARCH_SEED; i++) {
			many[i] = seed[i % nseed];
			if (i < CALC_SEARCH_SEED + 2)
				many[i].tp = 3;
		}
		for (int v = 0; v < 4; v++)
			for (int threads = 1; threads <= 2; threads++)
				for (int seeded = 0; seeded <= 2; seeded++) {
					struct calc_search_result a, b;
					assert_int_equal(calc_plan_load(q, files[f], vars[v], vars[v][0] ? 1 : 0, &d), 0);
					calc_search_opts_init(&o);
					o.threads = threads;
					o.recheck = 0;
					run(q, &o, &a);
					o.top_only = 1;
					o.no_counts = 1;
					o.seed = seeded == 2 ? many : seeded ? seed : NULL;
					o.nseed = seeded == 2 ? 3 * CALC_SEARCH_SEED : seeded ? nseed : 0;
					run(q, &o, &b);
					assert_int_equal(a.partial, 0);
					assert_int_equal(b.partial, 1);
					assert_true(b.unchecked > 0);
					assert_int_equal(a.evaluated, b.evaluated);
					assert_int_equal(a.measured, b.measured);
					/* the partial counts are short of the full ones: a test that read them
					 * as the counts would fail */
					assert_true(b.ranked < a.ranked);
					assert_true(b.ranked + b.rejected[CALC_REJ_MEMORY] + b.unchecked == a.measured);
					assert_int_equal(a.ntop, b.ntop);
					for (int i = 0; i < a.ntop; i++) {
						assert_memory_equal(&a.top[i].r, &b.top[i].r, sizeof a.top[i].r);
						assert_true(a.top[i].fast && b.top[i].fast && a.top[i].fast->time == b.top[i].fast->time);
					}
					if (getenv("TOP_ONLY_STATS"))
						fprintf(stderr, "%s %s %d seed %d: unchecked %lld of %lld measured, %.2f ms CPU\n",
						        files[f], vars[v][0] ? vars[v][0] : "-", threads, seeded, b.unchecked,
						        b.measured, 1e3 * b.cpu_s);
					calc_search_free(&a);
					calc_search_free(&b);
				}
		calc_diag_free(&d);
	}
	free(p);
	free(q);
}

/* opts.top_axes: a top-only search that keeps the axes' best (the search-axes table)
 * must give every axis' best row of the complete search, bit for bit, as well as its
 * top K and counts, while still leaving leaves untimed (the expected rows are the
 * complete search's: every ranked leaf timed).  The four shipped plans, at their own
 * network and at 25 Gb/s per GPU. */
static void test_top_axes(void **state)
{
	static const char *const files[] = {"plans/default.ini", "plans/llama2-70b-a100.ini",
	                                    "plans/llama3-405b-h100.ini", "plans/deepseek-v3-h800.ini"};
	static const char *const vars[][1] = {{NULL}, {"cluster.inter_node_bw=3.125e9"}};
	struct calc_plan *p = malloc(sizeof *p);
	long long pruned = 0;
	(void)state;
	for (int f = 0; f < 4; f++)
		for (int v = 0; v < 2; v++)
			for (int threads = 1; threads <= 2; threads++) {
				struct calc_diag d = {0};
				struct calc_search_opts o;
				struct calc_search_result a, b;
				if (f == 3 && (v > 0 || threads < 2))
					continue; /* the MoE plan's million leaves: once */
				assert_int_equal(calc_plan_load(p, files[f], vars[v], vars[v][0] ? 1 : 0, &d), 0);
				calc_diag_free(&d);
				calc_search_opts_init(&o);
				o.threads = threads;
				o.recheck = 0;
				run(p, &o, &a);
				o.top_only = 1;
				o.top_axes = 1;
				run(p, &o, &b);
				assert_int_equal(b.top_only, 1);
				assert_true(b.pruned >= 0 && b.pruned < b.ranked);
				pruned += b.pruned;
				assert_int_equal(a.evaluated, b.evaluated);
				assert_int_equal(a.ranked, b.ranked);
				assert_int_equal(a.ntop, b.ntop);
				for (int i = 0; i < a.ntop; i++)
					assert_memory_equal(&a.top[i].r, &b.top[i].r, sizeof a.top[i].r);
				for (int x = 0; x < CALC_AXIS_N; x++) {
					assert_int_equal(a.have_axis[x], b.have_axis[x]);
					if (a.have_axis[x])
						assert_memory_equal(&a.axis[x], &b.axis[x], sizeof a.axis[x]);
				}
				if (getenv("TOP_ONLY_STATS"))
					fprintf(stderr, "%s %s %d: axes kept, pruned %lld of %lld ranked, %.1f -> %.1f ms\n",
					        files[f], vars[v][0] ? vars[v][0] : "-", threads, b.pruned, b.ranked,
					        1e3 * a.elapsed_s, 1e3 * b.elapsed_s);
				calc_search_free(&a);
				calc_search_free(&b);
			}
	assert_true(pruned > 0); /* the default plan at its own network leaves thousands untimed */
	free(p);
}

/* The leaves a search will visit, counted without searching (calc_search_size, the
 * estimate that orders the report's jobs).  By hand for 2 GPUs on one node, dense,
 * FlashAttention (recomputation none or full: 2 modes), max_mb = 2, max_vpp = 2, the six
 * schedules of schedules.c (GPipe, 1F1B, ZB-H1, ZB-H2, DualPipe without a vpp, the
 * interleaved 1F1B with vpp 2), 4 ZeRO stages:
 *   tp 1, pp 1: cp 1 or 2, mb 1 or 2: 4 items x 1 schedule x 2 x 1 SP x 4 = 32
 *   tp 1, pp 2: cp 1, mb 1 or 2:      2 items x 6 schedules x 2 x 1 x 4 = 96
 *   tp 2, pp 1: cp 1, mb 1 or 2:      2 items x 1 x 2 x 2 SP (on, off) x 4 = 32
 * 160 in all; and for larger grids the leaves the search itself counts as it walks
 * (evaluated), the MoE grid's ep and etp included; 0 for options calc_search refuses. */
static void test_size(void **state)
{
	const char *two[NSMALL + 3];
	const char *moe[] = {"model.preset=olmoe-1b-7b", "cluster.nodes=2", "parallel.tp=1", "parallel.pp=1",
	                     "parallel.dp=16", "training.seq_len=4096", "training.global_batch=64"};
	struct calc_plan *p = malloc(sizeof *p);
	struct calc_search_opts o;
	struct calc_search_result r;
	(void)state;
	for (int i = 0; i < NSMALL; i++)
		two[i] = small_sets[i];
	two[6] = "cluster.nodes=1";
	two[7] = "cluster.gpus_per_node=2";
	two[NSMALL] = "training.flash_attention=1";
	two[NSMALL + 1] = "parallel.dp=2";
	two[NSMALL + 2] = "cluster.gpu_memory=80GB";
	load_plan(p, two, NSMALL + 3);
	calc_search_opts_init(&o);
	o.max_mb = 2;
	o.max_vpp = 2;
	o.recheck = 0;
	assert_int_equal(calc_search_size(p, &o), 160);
	run(p, &o, &r);
	assert_int_equal(r.evaluated, 160);
	calc_search_free(&r);

	load_small(p);
	calc_search_opts_init(&o);
	o.recheck = 0;
	run(p, &o, &r);
	assert_true(r.evaluated > 1000);
	assert_int_equal(calc_search_size(p, &o), r.evaluated);
	calc_search_free(&r);

	load_plan(p, moe, 7);
	o.max_mb = 2;
	run(p, &o, &r);
	assert_int_equal(calc_search_size(p, &o), r.evaluated);
	calc_search_free(&r);

	o.max_vpp = 0;
	assert_int_equal(calc_search_size(p, &o), 0);
	free(p);
}

/* Two plans have the same memory side when they differ only in what time reads. */
static void test_same_memory(void **state)
{
	const char *bw[] = {"cluster.inter_node_bw=3.125e9", "efficiency.gemm=0.5", "efficiency.gemm_shape=auto"},
	           *seq[] = {"training.seq_len=4096"};
	/* zeroed: a plan's strings leave what follows their NUL as the buffer had it; a
	 * plan file, whose title an override does not rewrite */
	struct calc_plan *p = calloc(1, sizeof *p), *q = calloc(1, sizeof *q);
	struct calc_diag d = {0};
	(void)state;
	assert_int_equal(calc_plan_load(p, "plans/default.ini", NULL, 0, &d), 0);
	assert_int_equal(calc_plan_load(q, "plans/default.ini", bw, 3, &d), 0);
	assert_true(calc_search_same_memory(p, q));
	assert_true(calc_search_same_memory(p, p));
	assert_int_equal(calc_plan_load(q, "plans/default.ini", seq, 1, &d), 0);
	assert_false(calc_search_same_memory(p, q));
	calc_diag_free(&d);
	free(p);
	free(q);
}

/* A memo of the memory side (opts.memo): a scenario that changes only what time reads
 * (network, GEMM efficiency, TP overlap, the GEMMs' falloff by shape: the summary's
 * gemm_shape = "auto", which the H100 plans take and the A100 one leaves off, since the
 * measured table is of sm_90 alone) searched with the plan's memo must give the
 * counts, memory rejects, misses and top K (every field) of the same search without
 * one, top-only and complete, and neither its seeded threshold nor the items it skips
 * (the memo's counts and lower bounds in their place) may change them; a
 * scenario that changes memory (a longer sequence) or the grid (max_mb) must not fit
 * the memo. */
static void test_memo(void **state)
{
	static const char *const files[] = {"plans/default.ini", "plans/llama2-70b-a100.ini",
	                                    "plans/llama3-405b-h100.ini"};
	/* slower and faster GEMMs: a faster one has lower bounds than the plan's, which the
	 * memo's bounds must not stand in for */
	static const char *const times[][1] = {{"cluster.inter_node_bw=3.125e9"}, {"efficiency.gemm=0.5"},
	                                       {"efficiency.tp_overlap=0"}, {"efficiency.gemm=0.9"},
	                                       {"efficiency.gemm_shape=auto"}};
	enum { NTIMES = sizeof times / sizeof times[0] };
	struct calc_plan *p = malloc(sizeof *p), *q = malloc(sizeof *q);
	long long scaled = 0;
	(void)state;
	for (int f = 0; f < 3; f++) {
		struct calc_diag d = {0};
		struct calc_search_opts o;
		struct calc_search_result base;
		struct calc_search_memo *m = calc_search_memo_new();
		assert_int_equal(calc_plan_load(p, files[f], NULL, 0, &d), 0);
		calc_search_opts_init(&o);
		o.recheck = 0;
		o.top_only = 1;
		o.memo = m;
		assert_int_equal(calc_search_memo_fits(m, p, &o), 1); /* empty */
		run(p, &o, &base);
		calc_search_free(&base);
		/* the plan's top K, and a deep one whose K-th best lies among many close leaves,
		 * where an item skipped on too high a bound would leave a hole */
		int top0 = o.top;
		for (int v = 0; v < 2 * NTIMES; v++)
			for (int top_only = 0; top_only <= 1; top_only++) {
				struct calc_search_result a, b;
				assert_int_equal(calc_plan_load(q, files[f], times[v % NTIMES], 1, &d), 0);
				o.top_only = top_only;
				o.top = v < NTIMES ? top0 : 400;
				assert_int_equal(calc_search_memo_fits(m, q, &o), 1);
				o.memo = NULL;
				run(q, &o, &a);
				o.memo = m;
				run(q, &o, &b);
				/* the GEMM scenarios' bounds derived from the memo's (bounds_scaled), the
				 * others' taken as they are or computed */
				if (strstr(times[v % NTIMES][0], "gemm") && top_only)
					scaled += b.bounds_scaled;
				else
					assert_int_equal(b.bounds_scaled, 0);
				assert_int_equal(a.evaluated, b.evaluated);
				assert_int_equal(a.measured, b.measured);
				assert_int_equal(a.ranked, b.ranked);
				for (int r = 0; r < CALC_REJ_N; r++)
					assert_int_equal(a.rejected[r], b.rejected[r]);
				assert_int_equal(a.miss_first, b.miss_first);
				assert_int_equal(a.miss_middle, b.miss_middle);
				assert_int_equal(a.miss_last, b.miss_last);
				/* a sum over two threads' shares: equal but for the order of the additions */
				assert_true(fabs(a.miss_mean - b.miss_mean) <= 1e-12 * fabs(a.miss_mean));
				assert_int_equal(a.have_closest, b.have_closest);
				if (a.have_closest)
					assert_memory_equal(&a.closest_miss, &b.closest_miss, sizeof a.closest_miss);
				assert_int_equal(a.ntop, b.ntop);
				for (int i = 0; i < a.ntop; i++)
					assert_memory_equal(&a.top[i].r, &b.top[i].r, sizeof a.top[i].r);
				for (int x = 0; !top_only && x < CALC_AXIS_N; x++) {
					assert_int_equal(a.have_axis[x], b.have_axis[x]);
					if (a.have_axis[x])
						assert_memory_equal(&a.axis[x], &b.axis[x], sizeof a.axis[x]);
				}
				calc_search_free(&a);
				calc_search_free(&b);
			}
		{ /* twice the plan's sequence: more activations per layer */
			char kv[64];
			const char *mem[1] = {kv};
			snprintf(kv, sizeof kv, "training.seq_len=%d", 2 * p->seq_len);
			assert_int_equal(calc_plan_load(q, files[f], mem, 1, &d), 0);
			assert_int_equal(calc_search_memo_fits(m, q, &o), 0);
		}
		o.max_mb = 4; /* another grid */
		assert_int_equal(calc_search_memo_fits(m, p, &o), 0);
		calc_diag_free(&d);
		calc_search_memo_free(m);
	}
	assert_true(scaled > 0);
	free(p);
	free(q);
}

/* A GEMM-efficiency scenario's lower bounds derived from the plan's (calc_search_gemm_scale,
 * calc_search_bound_scale; the proof is in calc/search.c): for every ranked leaf of a
 * complete search, its bound under plan P0 (calc_step_fast_bound of its own compute, the
 * bound the memo keeps) times the factor is at most the same leaf's step time under P1
 * (calc_step_fast, computed from scratch), over slower and faster GEMMs, every schedule of
 * the table (the small plan, plan.framework = any), an MoE model (the grouped expert GEMMs
 * and the router's terms) and an FP8 recipe whose FP8 GEMMs run at efficiency.gemm_fp8.
 * The factors themselves, by hand: r = min(1, e0 / e1) less 1e-9, so 0.5 -> 0.8 gives
 * 0.625 (1 - 1e-9) and 0.5 -> 0.3 gives 1 - 1e-9; ZB-H1, ZB-H2 and DualPipe at p = 4, m = 8
 * take r m / (m + p - 1) = r 8 / 11. */
static void test_gemm_bound(void **state)
{
	static const char *const moe[] = {"model.preset=olmoe-1b-7b", "cluster.nodes=2", "parallel.tp=1",
	                                  "parallel.pp=1", "parallel.dp=16", "training.seq_len=4096",
	                                  "training.global_batch=64", "efficiency.gemm=0.5"};
	static const char *const fp8[] = {"training.recipe=fp8-te", "efficiency.gemm=0.5", "efficiency.gemm_fp8=0.4"};
	static const char *const effs[][2] = {{"efficiency.gemm=0.8", NULL}, {"efficiency.gemm=0.3", NULL},
	                                      {"efficiency.gemm=0.5", "efficiency.gemm_fp8=0.7"}};
	const char *sets[NSMALL + 8]; /* the small plan, four keys of the FP8 grid, two of a scenario */
	struct calc_plan *p0 = malloc(sizeof *p0), *p1 = malloc(sizeof *p1), *a = malloc(sizeof *a),
	                 *b = malloc(sizeof *b);
	long long checked = 0, zb = 0;
	int seen[CALC_SCHED_N] = {0};
	(void)state;
	assert_near(calc_search_bound_scale(0.625, CALC_SCHED_1F1B, 4, 8), 0.625, 1e-15);
	assert_near(calc_search_bound_scale(0.625, CALC_SCHED_ZBH1, 4, 8), 0.625 * 8 / 11, 1e-15);
	assert_near(calc_search_bound_scale(0.625, CALC_SCHED_DUALPIPE, 1, 8), 0.625, 1e-15);
	assert_true(calc_search_bound_scale(0.625, CALC_SCHED_N, 4, 8) == 0); /* a registered row */
	for (int plan = 0; plan < 3; plan++)
		for (int e = 0; e < 3; e++) {
			struct calc_search_opts o;
			struct calc_search_result r;
			int n = 0;
			if (plan == 0) {
				for (int i = 0; i < NSMALL; i++)
					sets[n++] = small_sets[i];
				sets[n++] = "efficiency.gemm=0.5";
			} else if (plan == 1)
				for (int i = 0; i < 8; i++)
					sets[n++] = moe[i];
			else {
				for (int i = 0; i < NSMALL; i++)
					sets[n++] = small_sets[i];
				sets[n++] = "cluster.gpu_memory=80GB"; /* FP8 on the H100 of the defaults */
				for (int i = 0; i < 3; i++)
					sets[n++] = fp8[i];
			}
			load_plan(p0, sets, n);
			for (int k = 0; k < 2 && effs[e][k]; k++)
				sets[n++] = effs[e][k];
			load_plan(p1, sets, n);
			double r0 = calc_search_gemm_scale(p0, p1);
			/* e0 / e1 of each efficiency, the least and at most 1 (gemm_fp8 unset reads as
			 * efficiency.gemm, whether or not the recipe has FP8 GEMMs) */
			double want = e == 0 ? 0.5 / 0.8 : e == 1 ? 1 : plan == 2 ? 0.4 / 0.7 : 0.5 / 0.7;
			assert_near(r0, want * (1 - 1e-9), 1e-15);
			calc_search_opts_init(&o);
			o.recheck = 0;
			o.max_mb = 2;
			o.keep_feasible = 1;
			run(p0, &o, &r);
			assert_true(r.nrows > 0);
			for (long long i = 0; i < r.nrows; i++) {
				const struct calc_search_cfg *c = &r.rows[i].c;
				struct calc_step_compute pre;
				struct calc_step st;
				calc_search_apply(p0, c, a);
				calc_search_apply(p1, c, b);
				calc_step_compute(a, &pre);
				double lb = calc_step_fast_bound(a, &pre, &st);
				calc_step_fast(b, &st);
				double f = calc_search_bound_scale(r0, c->schedule, c->pp, calc_plan_microbatches(b));
				assert_true(f > 0 && f <= 1);
				assert_true(lb >= 0);
				if (!(lb * f <= st.time))
					print_error("plan %d eff %d: %s pp %d: bound %.17g x %.17g > step %.17g\n", plan, e,
					            calc_schedule_at(c->schedule)->name, c->pp, lb, f, st.time);
				assert_true(lb * f <= st.time);
				seen[c->schedule] = 1;
				zb += c->pp > 1 && (c->schedule == CALC_SCHED_ZBH1 || c->schedule == CALC_SCHED_ZBH2 ||
				                    c->schedule == CALC_SCHED_DUALPIPE);
				checked++;
			}
			calc_search_free(&r);
		}
	for (int s = 0; s < CALC_SCHED_N; s++)
		assert_true(seen[s]);
	assert_true(checked > 1000 && zb > 100);
	free(p0);
	free(p1);
	free(a);
	free(b);
}

/*
 * The DP window's bound (calc_step_dp_bound_at, the proof above it in calc/step_fast.c):
 * for every ranked leaf of three grids (the small plan with every schedule, an MoE model
 * with expert parallelism, an FP8 recipe) at 50, 25, 3.125 and 1 GB/s between nodes and
 * a DP overlap of 0.8 (the default) and 1, the bound from the leaf's compute bound
 * (calc_step_fast_bound, as leaf_bound) and from its own makespan (the ZeRO stages of a
 * timed pair, bound_zero's st_same) never exceeds its step time, which the second path
 * computes from scratch (calc_step_fast); it is never below the old bound, lb + (1 - ov) D
 * + optimizer (calc_step_dp_bound), but for rounding (1e-12), and it is tighter on many
 * leaves at low bandwidth.  Then the search that prunes with it (top_only, the window the
 * recommendation keeps, CALC_PICK_TOP_FIRST rows) gives the complete search's top, every
 * count, and the same recommendation read through calc_search_pick_band (rank, window,
 * others in the band, the pick) -- the complete search (every ranked leaf timed) being
 * the second path.
 */
static void test_dp_window_bound(void **state)
{
	static const char *const moe[] = {"model.preset=olmoe-1b-7b", "cluster.nodes=2", "parallel.tp=1",
	                                  "parallel.pp=1", "parallel.dp=16", "training.seq_len=4096",
	                                  "training.global_batch=64"};
	static const char *const fp8[] = {"cluster.gpu_memory=80GB", "training.recipe=fp8-te", "efficiency.gemm_fp8=0.4"};
	static const char *const bws[] = {"cluster.inter_node_bw=50e9", "cluster.inter_node_bw=25e9",
	                                  "cluster.inter_node_bw=3.125e9", "cluster.inter_node_bw=1e9"};
	static const char *const ovs[] = {"efficiency.dp_overlap=0.8", "efficiency.dp_overlap=1"};
	const char *sets[NSMALL + 8];
	struct calc_plan *p = malloc(sizeof *p), *a = malloc(sizeof *a);
	struct calc_comm_pre *cp = malloc(sizeof *cp);
	struct calc_step *st = malloc(sizeof *st), *sc = malloc(sizeof *sc);
	long long checked = 0, tighter = 0, pruned = 0;
	(void)state;
	for (int plan = 0; plan < 3; plan++)
		for (int k = 0; k < 4; k++)
			for (int v = 0; v < 2; v++) {
				struct calc_search_opts o;
				struct calc_search_result r, full, pr;
				struct calc_diag d = {0};
				int n = 0;
				if (plan == 1)
					for (int i = 0; i < 7; i++)
						sets[n++] = moe[i];
				else
					for (int i = 0; i < NSMALL; i++)
						sets[n++] = small_sets[i];
				if (plan == 2)
					for (int i = 0; i < 3; i++)
						sets[n++] = fp8[i];
				sets[n++] = bws[k];
				sets[n++] = ovs[v];
				load_plan(p, sets, n);
				calc_search_opts_init(&o);
				o.recheck = 0;
				o.max_mb = 2;
				o.keep_feasible = 1;
				run(p, &o, &r);
				assert_true(r.nrows > 0);
				for (long long i = 0; i < r.nrows; i++) {
					struct calc_step_compute pre;
					struct calc_step_dp_lb x;
					calc_search_apply(p, &r.rows[i].c, a);
					calc_step_compute(a, &pre);
					calc_comm_pre(a, cp);
					pre.comm = cp;
					double lb = calc_step_fast_bound(a, &pre, sc);
					calc_step_dp_parts(a, cp, &x);
					calc_step_fast(a, st);
					assert_true(lb >= 0 && lb <= st->makespan);
					double b1 = calc_step_dp_bound_at(a, &x, lb), b2 = calc_step_dp_bound_at(a, &x, st->makespan);
					double old = lb + calc_step_dp_bound(a, cp);
					if (!(b1 <= st->time && b2 <= st->time))
						print_error("plan %d %s %s: %s pp %d dp %d zero %d: bounds %.17g %.17g > step %.17g\n",
						            plan, bws[k], ovs[v], calc_schedule_at(r.rows[i].c.schedule)->name,
						            r.rows[i].c.pp, r.rows[i].c.dp, r.rows[i].c.zero, b1, b2, st->time);
					assert_true(b1 <= st->time && b2 <= st->time);
					/* b2 >= b1 but for the 1e-9 of the window's margin, which from ZeRO-2 on
					 * makes the bound fall by 1e-9 of its makespan's growth */
					if (!(b1 >= old * (1 - 1e-12) && b2 >= b1 - 1e-9 * (st->makespan - lb) - 1e-12 * b1))
						print_error("plan %d %s %s: zero %d: old %.17g b1 %.17g b2 %.17g\n", plan, bws[k],
						            ovs[v], r.rows[i].c.zero, old, b1, b2);
					assert_true(b1 >= old * (1 - 1e-12));
					assert_true(b2 >= b1 - 1e-9 * (st->makespan - lb) - 1e-12 * b1);
					tighter += b1 > 1.01 * old;
					checked++;
				}
				calc_search_free(&r);
				/* the search that prunes with it, against the complete one */
				calc_search_opts_init(&o);
				o.recheck = 0;
				o.max_mb = 2;
				o.top = CALC_PICK_TOP_FIRST;
				run(p, &o, &full);
				o.top_only = 1;
				run(p, &o, &pr);
				assert_int_equal(full.top_only, 0);
				assert_int_equal(pr.top_only, 1);
				pruned += pr.pruned;
				assert_int_equal(full.evaluated, pr.evaluated);
				assert_int_equal(full.ranked, pr.ranked);
				for (int j = 0; j < CALC_REJ_N; j++)
					assert_int_equal(full.rejected[j], pr.rejected[j]);
				assert_int_equal(full.ntop, pr.ntop);
				for (int j = 0; j < full.ntop; j++) {
					assert_memory_equal(&full.top[j].r, &pr.top[j].r, sizeof full.top[j].r);
					/* the breakdown, where the search made one, the same in both */
					assert_true(!full.top[j].fast == !pr.top[j].fast);
					if (full.top[j].fast)
						assert_true(full.top[j].fast->time == pr.top[j].fast->time);
				}
				assert_int_equal(calc_search_pick_band(p, &full, CALC_PICK_TOP, &d), 0);
				assert_int_equal(calc_search_pick_band(p, &pr, CALC_PICK_TOP, &d), 0);
				calc_diag_free(&d);
				assert_int_equal(calc_search_kept(&full), calc_search_kept(&pr));
				assert_int_equal(full.pick_rank, pr.pick_rank);
				assert_int_equal(full.pick_in_band, pr.pick_in_band);
				{
					struct calc_pick_why wf, wp;
					const struct calc_search_top *sf = calc_search_safe_why(&full, p, &wf);
					const struct calc_search_top *sp = calc_search_safe_why(&pr, p, &wp);
					assert_true((sf == NULL) == (sp == NULL));
					if (sf)
						assert_memory_equal(&sf->r, &sp->r, sizeof sf->r);
					assert_int_equal(wf.rank, wp.rank);
					assert_int_equal(wf.in_band, wp.in_band);
				}
				calc_search_free(&full);
				calc_search_free(&pr);
			}
	if (getenv("DP_BOUND_STATS"))
		fprintf(stderr, "dp window bound: %lld leaves, %lld tighter by > 1 %%, %lld pruned\n", checked, tighter,
		        pruned);
	assert_true(checked > 1000 && tighter > 100 && pruned > 0); /* the comparison prunes */
	free(p);
	free(a);
	free(cp);
	free(st);
	free(sc);
}

/* One recommendation everywhere (calc/pick.c): Llama 3 70B on 1,024 H100 with Llama 3's
 * 8K batch (Table 4: 2,048 sequences of 8,192 tokens) and no split of its own.  The
 * expected pick is found here by a second walk of the search's top 100, by hand from the
 * rule as pick.c's comment states it: of those whose headroom is at least 10% of the
 * usable memory, within validation.band (the catalog's, a second way to the band) of the
 * fastest of them, the one with no CP below 8,192 tokens, then no ZeRO stage above the
 * framework's distributed optimizer (ZeRO-1), then the fewest stages, then
 * the least CP, then 1F1B before interleaved (Megatron-Core's list), then the faster.  The
 * catalog's search.safe.* and search.pick.* and the split the plan takes
 * (calc_plan_pick_split) must all be it. */
static void test_pick_one_rule(void **state)
{
	static const char *const sets[] = {"model.preset=llama3-70b", "cluster.preset=dgx-h100-ndr",
	                                   "cluster.nodes=128", "training.seq_len=8192", "training.global_batch=2048"};
	struct calc_plan *p = malloc(sizeof *p), *q = malloc(sizeof *q);
	struct calc_search_result r;
	struct calc_search_opts o;
	struct calc_diag d = {0};
	struct calc_ctx c;
	struct calc_value v = {0};
	int first = -1, want = -1;
	double band;
	(void)state;
	load_plan(p, sets, 5);
	assert_int_equal(p->split_unset, 1); /* no degree written: the default plan's 8 x 8 x 8 is not taken */
	calc_search_opts_init(&o);
	o.top = 100000; /* every split of the band and beyond: the rule reads the whole band (pick.c) */
	o.recheck_top = 1;
	assert_int_equal(calc_search(p, &o, &r, &d), 0);
	assert_true(r.ntop > 100);
	calc_ctx_init(&c, p);
	assert_int_equal(calc_catalog_get(&c, "validation.band", &v, &d), 0);
	band = v.num;
	assert_true(band > 0.05 && band < 0.5);
	for (int i = 0; i < r.ntop; i++) {
		const struct calc_search_row *x = &r.top[i].r;
		if (x->memory > 0.9 * p->gpu_memory)
			continue;
		if (first < 0) {
			first = want = i;
			continue;
		}
		if (x->step_time > r.top[first].r.step_time * (1 + band))
			continue;
		const struct calc_search_cfg *a = &x->c, *b = &r.top[want].r.c;
		/* the seq is 8,192: CP is not refused by the sequence rule here; the stack is
		 * Megatron-Core's, whose recipes run the distributed optimizer (ZeRO-1): a stage
		 * above it is less simple, ZeRO-0 is not */
		int ka[4] = {a->zero > 1 ? a->zero - 1 : 0, a->pp, a->cp, a->pp > 1 && a->schedule != CALC_SCHED_1F1B};
		int kb[4] = {b->zero > 1 ? b->zero - 1 : 0, b->pp, b->cp, b->pp > 1 && b->schedule != CALC_SCHED_1F1B};
		for (int k = 0; k < 4; k++)
			if (ka[k] != kb[k]) {
				if (ka[k] < kb[k])
					want = i;
				break;
			}
	}
	assert_true(first > 0);    /* the fastest does not leave the margin here: the margin matters */
	assert_true(want > first); /* and a simpler one lies within the band: the band matters */
	assert_true(r.top[want].r.c.pp <= r.top[first].r.c.pp);
	assert_int_equal(calc_catalog_get(&c, "search.safe.rank", &v, &d), 0);
	assert_int_equal(v.num, want + 1);
	assert_int_equal(calc_catalog_get(&c, "search.pick.pp", &v, &d), 0);
	assert_int_equal(v.num, r.top[want].r.c.pp);
	assert_int_equal(calc_catalog_get(&c, "search.pick.cp", &v, &d), 0);
	assert_int_equal(v.num, r.top[want].r.c.cp);
	calc_ctx_free(&c);
	*q = *p;
	assert_int_equal(calc_plan_pick_split(q, &d), 0);
	assert_int_equal(q->split_picked, 1);
	assert_int_equal(q->split_unset, 0);
	assert_int_equal(q->tp, r.top[want].r.c.tp);
	assert_int_equal(q->pp, r.top[want].r.c.pp);
	assert_int_equal(q->dp, r.top[want].r.c.dp);
	assert_int_equal(q->cp, r.top[want].r.c.cp);
	assert_int_equal(q->vpp, r.top[want].r.c.vpp);
	assert_int_equal(q->micro_batch, r.top[want].r.c.micro_batch);
	assert_int_equal((int)q->schedule, r.top[want].r.c.schedule);
	assert_int_equal(calc_plan_validate(q, &d), 0);
	assert_null(d.text);
	calc_search_free(&r);
	free(p);
	free(q);
}

/* What the report asks of the planner once per distinct plan.  (a) A variant equal to
 * the plan but for where its key was set (the default plan's own 2,048 tokens, written
 * again) reads the plan's search: its context keeps none of its own, and every value is
 * the plan's.  (b) The catalog's searches give the closed-form breakdown (calc_search_top.
 * fast) only to the rows search-breakdown shows; the pick's, asked for, is the one a
 * search that breaks down every row (opts.breakdown_top 0, a second way) gives its row,
 * bit for bit.  (c) search.framework.* where the framework runs the pick is the pick. */
static void test_search_once_per_plan(void **state)
{
	static const char *const same[] = {"training.seq_len=2048"};
	static const char *const qs[] = {"search.best.step_time", "search.ranked", "search.safe.rank", "search.pick.tp"};
	struct calc_plan *p = malloc(sizeof *p);
	struct calc_diag d = {0};
	struct calc_ctx root, *vc;
	struct calc_value v = {0}, w = {0};
	struct calc_search_opts o;
	struct calc_search_result r;
	(void)state;
	assert_int_equal(calc_plan_load(p, "plans/default.ini", NULL, 0, &d), 0);
	assert_int_equal(p->seq_len, 2048);
	calc_ctx_init(&root, p);
	vc = calc_ctx_variant(&root, same, 1, "test", &d);
	assert_non_null(vc);
	assert_true(vc != &root); /* kept apart by where its key was set */
	for (size_t i = 0; i < sizeof qs / sizeof *qs; i++) {
		assert_int_equal(calc_catalog_get(vc, qs[i], &v, &d), 0);
		assert_int_equal(calc_catalog_get(&root, qs[i], &w, &d), 0);
		assert_true(v.num == w.num);
	}
	assert_null(vc->slot[CALC_SLOT_SEARCH]);
	assert_non_null(root.slot[CALC_SLOT_SEARCH]);
	/* (b): the pick's rank and breakdown against a search breaking down every row */
	calc_search_opts_init(&o);
	o.recheck = 0;
	o.top = CALC_PICK_TOP_FIRST;
	assert_int_equal(calc_search(p, &o, &r, &d), 0);
	assert_int_equal(calc_catalog_get(&root, "search.safe.rank", &v, &d), 0);
	int rank = (int)v.num;
	assert_true(rank >= 1 && rank <= r.ntop);
	const struct calc_step *f = r.top[rank - 1].fast;
	assert_non_null(f);
	assert_int_equal(calc_catalog_get(&root, "search.pick.bubble", &v, &d), 0);
	assert_true(v.num == f->bubble);
	assert_int_equal(calc_catalog_get(&root, "search.pick.cp_time", &v, &d), 0);
	assert_true(v.num == f->comm.dim[CALC_DIM_CP].time);
	assert_int_equal(calc_catalog_get(&root, "search.pick.cp_exposed", &v, &d), 0);
	assert_true(v.num == f->exposed[CALC_DIM_CP]);
	/* (c): megatron (the default stack's) runs the pick: its values are the pick's */
	assert_int_equal(calc_catalog_get(&root, "search.framework.runs_pick", &v, &d), 0);
	assert_true(v.num == 1);
	assert_int_equal(calc_catalog_get(&root, "search.framework.step_time", &v, &d), 0);
	assert_true(v.num == r.top[rank - 1].r.step_time);
	assert_null(d.text);
	calc_search_free(&r);
	calc_ctx_free(&root);
	free(p);
}

/* The sequence rule of the recommendation (pick.c rule a): at 2,048 tokens a split with CP
 * is recommended only where none without it lies in the band.  The default plan's model
 * at 2,048 tokens: the fastest that leaves the margin has CP 2 (the thin GEMMs of the
 * step model cost nothing extra, docs/references.md §5.10), and the pick has none. */
static void test_pick_short_sequence(void **state)
{
	struct calc_plan *p = malloc(sizeof *p);
	struct calc_search_result r;
	struct calc_search_opts o;
	struct calc_diag d = {0};
	struct calc_pick_why w;
	(void)state;
	load_plan(p, NULL, 0);
	assert_int_equal(p->seq_len, 2048);
	calc_search_opts_init(&o);
	o.top = CALC_PICK_TOP;
	o.recheck = 0;
	assert_int_equal(calc_search(p, &o, &r, &d), 0);
	const struct calc_search_top *t = calc_search_safe_why(&r, p, &w);
	assert_non_null(t);
	assert_true(w.fastest > 0);
	assert_true(r.top[w.fastest - 1].r.c.cp > 1);
	assert_int_equal(t->r.c.cp, 1);
	assert_int_equal(w.short_seq_cp, 1);
	/* within the band of the fastest that leaves the margin */
	assert_true(t->r.step_time <= r.top[w.fastest - 1].r.step_time * (1 + w.band));
	assert_true(t->r.headroom >= p->memory_margin * p->gpu_memory);
	/* no split of the top with fewer stages and no CP is in the band and the margin */
	for (int i = 0; i < r.ntop; i++)
		if (r.top[i].r.c.cp == 1 && r.top[i].r.headroom >= p->memory_margin * p->gpu_memory &&
		    r.top[i].r.step_time <= r.top[w.fastest - 1].r.step_time * (1 + w.band))
			assert_true(r.top[i].r.c.pp >= t->r.c.pp);
	calc_search_free(&r);
	free(p);
}

/* The recommendation does not hang on the window: the default plan's search kept at
 * CALC_PICK_TOP and grown by calc_search_pick_window picks what a search keeping every
 * ranked split picks (a second method: no window at all), under plan.pick_band absolute
 * and fixed 5 %; the pick is not the last row read, and the grown window's last row is
 * outside the band. */
static void test_pick_window(void **state)
{
	struct calc_plan *p = malloc(sizeof *p);
	static const char *const fixed[] = {"plan.pick_band=fixed", "plan.pick_band_fixed=0.05"};
	(void)state;
	for (int mode = 0; mode < 2; mode++) {
		struct calc_search_result r, all;
		struct calc_search_opts o;
		struct calc_diag d = {0};
		struct calc_pick_why w, wa;
		load_plan(p, mode ? fixed : NULL, mode ? 2 : 0);
		calc_search_opts_init(&o);
		o.recheck = 0;
		o.top_only = 1;
		o.top = CALC_PICK_TOP;
		assert_int_equal(calc_search(p, &o, &r, &d), 0);
		for (int k; (k = calc_search_pick_window(&r, p)) > 0;) {
			calc_search_free(&r);
			o.top = k;
			assert_int_equal(calc_search(p, &o, &r, &d), 0);
		}
		const struct calc_search_top *t = calc_search_safe_why(&r, p, &w);
		assert_non_null(t);
		assert_int_equal(w.window_short, 0);
		assert_true(w.rank < r.ntop);
		assert_true(r.top[r.ntop - 1].r.step_time > r.top[w.fastest - 1].r.step_time * (1 + w.band));
		o.top_only = 0;
		o.top = 100000; /* more than are ranked: every one kept */
		assert_int_equal(calc_search(p, &o, &all, &d), 0);
		assert_true(all.ntop < o.top);
		const struct calc_search_top *ta = calc_search_safe_why(&all, p, &wa);
		assert_non_null(ta);
		assert_int_equal(wa.rank, w.rank);
		assert_int_equal(ta->r.c.tp, t->r.c.tp);
		assert_int_equal(ta->r.c.pp, t->r.c.pp);
		assert_int_equal(ta->r.c.dp, t->r.c.dp);
		assert_int_equal(ta->r.c.vpp, t->r.c.vpp);
		assert_int_equal(ta->r.c.micro_batch, t->r.c.micro_batch);
		assert_near(ta->r.step_time, t->r.step_time, 1e-12);
		if (mode)
			assert_near(w.band, 0.05, 1e-12);
		calc_search_free(&all);
		calc_search_free(&r);
	}
	free(p);
}

/* The whole band in one more pass (calc_search_pick_band) picks what the grown window
 * picks, bit for bit: the same split (its enumeration key, step time and memory), rank,
 * fastest, count inside the band, window size and flags.  The reference is the rule as it
 * was before the pass: the search kept at CALC_PICK_TOP and searched again at 4 K until its
 * last row is outside the band (calc_search_pick_window alone), and, where every ranked
 * split fits in one list, calc_search_safe_why over that list (a second method: no window).
 * Over the shipped plans but DeepSeek-V3 (its grown window takes a minute here), the
 * tests/cli plans that name no split, and 12 random small plans (a fixed seed) drawn over
 * the GPU count, the margin, the band and the framework. */
static int pick_paths[3]; /* grown windows: searched again, held in the first list, one more pass */
static void pick_pair(const struct calc_plan *p, const char *what)
{
	struct calc_search_opts o;
	struct calc_search_result ref, one, all;
	struct calc_diag d = {0};
	struct calc_pick_why wr, wn, wa;
	calc_search_opts_init(&o);
	o.recheck = 0;
	o.top_only = 1;
	o.top = CALC_PICK_TOP;
	run(p, &o, &ref);
	for (int k; (k = calc_search_pick_window(&ref, p)) > 0;) {
		calc_search_free(&ref);
		o.top = k;
		run(p, &o, &ref);
	}
	o.top = CALC_PICK_TOP;
	run(p, &o, &one);
	int grows = calc_search_pick_window(&one, p) > 0;
	calc_search_free(&one);
	o.top = CALC_PICK_TOP_FIRST;
	run(p, &o, &one);
	assert_int_equal(calc_search_pick_band(p, &one, CALC_PICK_TOP, &d), 0);
	for (int k; (k = calc_search_pick_window(&one, p)) > 0;) { /* where the pass leaves it */
		calc_search_free(&one);
		o.top = k;
		run(p, &o, &one);
	}
	const struct calc_search_top *tr = calc_search_safe_why(&ref, p, &wr);
	const struct calc_search_top *tn = calc_search_safe_why(&one, p, &wn);
	int how = one.pick_kept ? 2 : one.opts.top <= CALC_PICK_TOP_FIRST ? 1 : 0;
	if (grows) {
		print_message("%s: %s, rank %d of %d\n", what,
		              how == 2 ? "band read in one more pass" : how ? "window held" : "window grown",
		              wn.rank, calc_search_kept(&one));
		pick_paths[how]++;
	}
	assert_true((tr == NULL) == (tn == NULL));
	assert_int_equal(wn.fastest, wr.fastest);
	assert_int_equal(wn.rank, wr.rank);
	assert_int_equal(wn.in_band, wr.in_band);
	assert_int_equal(wn.short_seq_cp, wr.short_seq_cp);
	assert_int_equal(wn.window_short, wr.window_short);
	assert_int_equal(calc_search_kept(&one), ref.ntop);
	assert_true(wn.band == wr.band || (isnan(wn.band) && isnan(wr.band)));
	if (tr) {
		assert_true(tn->r.key == tr->r.key);
		assert_true(tn->r.step_time == tr->r.step_time);
		assert_true(tn->r.memory == tr->r.memory);
		assert_true(tn->r.headroom == tr->r.headroom);
		assert_int_equal(tn->r.c.tp, tr->r.c.tp);
		assert_int_equal(tn->r.c.pp, tr->r.c.pp);
		assert_int_equal(tn->r.c.cp, tr->r.c.cp);
		assert_int_equal(tn->r.c.zero, tr->r.c.zero);
		assert_int_equal(tn->r.c.schedule, tr->r.c.schedule);
		assert_true(tn->fast && tr->fast && tn->fast->time == tr->fast->time);
	}
	const struct calc_search_top *pn = calc_search_pick(&one, p, NULL), *pr = calc_search_pick(&ref, p, NULL);
	assert_true((pn == NULL) == (pr == NULL));
	if (pn)
		assert_true(pn->r.key == pr->r.key);
	if (ref.ranked < CALC_PICK_TOP_MAX && tr) { /* every ranked split in one list */
		o.top_only = 0;
		o.top = CALC_PICK_TOP_MAX;
		run(p, &o, &all);
		assert_true(all.ntop == all.ranked);
		const struct calc_search_top *ta = calc_search_safe_why(&all, p, &wa);
		assert_non_null(ta);
		assert_true(ta->r.key == tn->r.key);
		assert_int_equal(wa.rank, wn.rank);
		assert_int_equal(wa.in_band >= wn.in_band, 1); /* the list reads past the window's end */
		calc_search_free(&all);
	}
	calc_search_free(&ref);
	calc_search_free(&one);
}

static void test_pick_band(void **state)
{
	static const char *const files[] = {"plans/default.ini", "plans/llama2-70b-a100.ini",
	                                    "plans/llama3-405b-h100.ini", "tests/cli/llama3-8b.ini",
	                                    "tests/cli/presets-only-dense.ini", "tests/cli/llama3-70b-1024.ini"};
	static const char *const fws[] = {"plan.framework=stack", "plan.framework=any", "plan.framework=torchtitan"};
	static const int nodes[] = {2, 4, 8, 16, 32, 64};
	struct calc_plan *p = malloc(sizeof *p);
	unsigned long long x = 30;
	(void)state;
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		struct calc_diag d = {0};
		int rc = calc_plan_load(p, files[i], NULL, 0, &d);
		if (rc)
			print_error("%s", d.text ? d.text : "");
		calc_diag_free(&d);
		assert_int_equal(rc, 0);
		pick_pair(p, files[i]);
	}
	for (int k = 0; k < 12; k++) {
		char n[64], m[64], b[64];
		const char *sets[5];
		x = x * 6364136223846793005ULL + 1442695040888963407ULL; /* Knuth's MMIX LCG */
		snprintf(n, sizeof n, "cluster.nodes=%d", nodes[(x >> 33) % 6]);
		snprintf(m, sizeof m, "plan.memory_margin=%.3f", (double)((x >> 20) % 300) / 1000);
		snprintf(b, sizeof b, "plan.pick_band_fixed=%.4f", 0.001 + (double)((x >> 40) % 1000) / 5000);
		sets[0] = n;
		sets[1] = m;
		sets[2] = fws[(x >> 50) % 3];
		sets[3] = "plan.pick_band=fixed";
		sets[4] = b;
		load_plan(p, sets, (x >> 60) % 2 ? 5 : 3);
		pick_pair(p, n);
	}
	/* each way of reading the window was taken (the cases above are fixed) */
	assert_true(pick_paths[0] > 0 && pick_paths[1] > 0 && pick_paths[2] > 0);
	free(p);
}

/* plan.framework: the default takes the stack's framework; each stack family maps to its
 * framework (frameworks.c); 'any' searches every schedule; the default plan's search
 * enumerates only Megatron-Core's 1F1B and interleaved at pp > 1. */
static void test_plan_framework(void **state)
{
	struct calc_plan *p = malloc(sizeof *p);
	struct calc_search_result r;
	struct calc_search_opts o;
	struct calc_diag d = {0};
	static const char *const any[] = {"plan.framework=any"};
	static const char *const tt[] = {"efficiency.stack=torchtitan"};
	int how = -1;
	(void)state;
	assert_string_equal(calc_framework_of_stack(NULL)->name, "megatron");
	assert_string_equal(calc_framework_of_stack("megatron-core-2024")->name, "megatron");
	assert_string_equal(calc_framework_of_stack("megatron-bridge-0.6")->name, "nemo");
	assert_string_equal(calc_framework_of_stack("nemo-2024")->name, "nemo");
	assert_string_equal(calc_framework_of_stack("torchtitan")->name, "torchtitan");
	assert_string_equal(calc_framework_of_stack("deepspeed-megatron")->name, "deepspeed");
	assert_null(calc_framework_of_stack("fsdp1"));
	/* the key's names after stack and any are the table's, in its order */
	for (int i = 0; calc_framework_at(i); i++) {
		char set[64];
		const char *s1[1] = {set};
		snprintf(set, sizeof set, "plan.framework=%s", calc_framework_at(i)->name);
		load_plan(p, s1, 1);
		assert_ptr_equal(calc_plan_framework(p, &how), calc_framework_at(i));
		assert_int_equal(how, 0);
	}
	load_plan(p, NULL, 0);
	assert_string_equal(calc_plan_framework(p, &how)->name, "megatron");
	assert_int_equal(how, 1);
	assert_int_equal(calc_plan_sched_mask(p), (1ull << CALC_SCHED_1F1B) | (1ull << CALC_SCHED_INTERLEAVED));
	load_plan(p, tt, 1);
	assert_string_equal(calc_plan_framework(p, NULL)->name, "torchtitan");
	load_plan(p, any, 1);
	assert_null(calc_plan_framework(p, NULL));
	assert_int_equal(calc_plan_sched_mask(p), ~0ull);
	/* the default plan's search: only 1F1B and interleaved rows at pp > 1 */
	load_plan(p, NULL, 0);
	calc_search_opts_init(&o);
	o.keep_feasible = 1;
	o.recheck = 0;
	assert_int_equal(calc_search(p, &o, &r, &d), 0);
	assert_true(r.nrows > 0);
	for (long long i = 0; i < r.nrows; i++)
		assert_true(r.rows[i].c.pp == 1 || r.rows[i].c.schedule == CALC_SCHED_1F1B ||
		            r.rows[i].c.schedule == CALC_SCHED_INTERLEAVED);
	calc_search_free(&r);
	free(p);
}

/* plan.framework = torchtitan: the planner places the layers by torchtitan's rule
 * (torchtitan/distributed/pipeline_parallel.py at b5bcd76, generate_llm_fqn_per_model_part,
 * with pipeline_parallel_first/last_stage_less_layers a and b, default 1 and 1): L + a + b
 * effective layers over the virtual stages, floor each, the first (L + a + b) mod n one
 * more, a off the first and b off the last.  By hand for the small model's 6 layers at
 * pp 2 with a = b = 1: 8 / 2 = 4 each, 3 and 3; with a = 1 alone: 7 = 4 + 3, 3 and 3;
 * at pp 4 with a = b = 1: 8 / 4 = 2 each, 1, 2, 2, 1.  The search of a torchtitan plan
 * ranks only the plan's own placement and torchtitan's (none of Megatron-Core's
 * account_* and first/last rules), and among them placements of torchtitan's. */
static void test_torchtitan_split(void **state)
{
	struct calc_plan *p = malloc(sizeof *p), *q = malloc(sizeof *q);
	struct calc_search_result r;
	struct calc_search_opts o;
	struct calc_search_cfg c;
	struct calc_diag d = {0};
	static const struct {
		int pp, split, st[4];
		const char *text;
	} cases[] = {
		{2, CALC_SPLIT_TT_BOTH, {3, 3}, "first_stage_less_layers=1 last_stage_less_layers=1"},
		{2, CALC_SPLIT_TT_FIRST, {3, 3}, "first_stage_less_layers=1"},
		{4, CALC_SPLIT_TT_BOTH, {1, 2, 2, 1}, "first_stage_less_layers=1 last_stage_less_layers=1"},
	};
	const char *sets[NSMALL];
	int tt = 0;
	(void)state;
	for (int i = 0; i < NSMALL; i++)
		sets[i] = strcmp(small_sets[i], "plan.framework=any") ? small_sets[i] : "plan.framework=torchtitan";
	load_plan(p, sets, NSMALL);
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char text[256];
		memset(&c, 0, sizeof c);
		c.nodes = 2, c.gpus_per_node = 8, c.tp = 1, c.pp = cases[k].pp, c.dp = 16 / cases[k].pp, c.cp = 1;
		c.vpp = 1, c.micro_batch = 1, c.schedule = CALC_SCHED_1F1B, c.split = (signed char)cases[k].split;
		c.recipe = 0;
		for (int i = 0; calc_recipe_at(i); i++)
			if (calc_recipe_at(i) == p->recipe)
				c.recipe = (signed char)i;
		calc_search_apply(p, &c, q);
		for (int i = 0; i < cases[k].pp; i++)
			assert_int_equal(q->layers_per_stage[i], cases[k].st[i]);
		calc_search_split_text(p, &c, text, sizeof text);
		assert_string_equal(text, cases[k].text);
	}
	calc_search_opts_init(&o);
	o.keep_feasible = 1;
	o.recheck = 0;
	assert_int_equal(calc_search(p, &o, &r, &d), 0);
	assert_true(r.nrows > 0);
	for (long long i = 0; i < r.nrows; i++) {
		int s = r.rows[i].c.split;
		assert_true(s == CALC_SPLIT_PLAN || s == CALC_SPLIT_TT_BOTH || s == CALC_SPLIT_TT_FIRST ||
		            s == CALC_SPLIT_TT_LAST);
		tt += s != CALC_SPLIT_PLAN;
	}
	assert_true(tt > 0);
	calc_search_free(&r);
	calc_diag_free(&d);
	free(p);
	free(q);
}

/* search --for (calc/frameworks.c): every ranked configuration of a framework's search
 * is one it runs, checked here against the rules as the sources state them (not through
 * calc_framework_allows): Megatron-Core runs 1F1B and interleaved 1F1B
 * (megatron/core/pipeline_parallel/schedules.py); DeepSpeed's pipeline engine runs its
 * 1F1B TrainSchedule and refuses ZeRO-2 and ZeRO-3 with pp > 1
 * (deepspeed/runtime/pipe/engine.py); torchtitan's FSDP2 has no ZeRO-1 and its TP always
 * shards the sequence.  And the framework's search ranks a subset of the full search:
 * its best is no faster, and the configurations it refuses are counted. */
static void test_frameworks(void **state)
{
	struct calc_plan p;
	struct calc_search_opts o;
	struct calc_search_result all, r;
	(void)state;
	load_small(&p);
	calc_search_opts_init(&o);
	o.recheck = 0;
	run(&p, &o, &all);
	assert_non_null(calc_framework_find("megatron"));
	assert_null(calc_framework_find("megatron-lm"));
	for (int f = 0; calc_framework_at(f); f++) {
		const struct calc_framework *fw = calc_framework_at(f);
		calc_search_opts_init(&o);
		o.recheck = 0;
		o.keep_feasible = 1;
		o.allow = calc_framework_allows;
		o.allow_arg = fw;
		run(&p, &o, &r);
		assert_true(r.nrows > 0);
		/* what it does not run is refused (ZeRO, SP, CP) or, a schedule, not enumerated */
		assert_true(r.rejected[CALC_REJ_FRAMEWORK] > 0 || r.evaluated < all.evaluated);
		assert_true(r.top[0].r.step_time >= all.top[0].r.step_time);
		for (long long i = 0; i < r.nrows; i++) {
			const struct calc_search_cfg *c = &r.rows[i].c;
			int pipe = c->pp > 1;
			if (!strcmp(fw->name, "megatron") || !strcmp(fw->name, "nemo"))
				assert_true(!pipe || c->schedule == CALC_SCHED_1F1B || c->schedule == CALC_SCHED_INTERLEAVED);
			if (!strcmp(fw->name, "nemo"))
				assert_true(c->zero <= 1);
			if (!strcmp(fw->name, "deepspeed")) {
				assert_true(!pipe || c->schedule == CALC_SCHED_1F1B);
				assert_true(!pipe || c->zero <= 1);
				assert_int_equal(c->cp, 1);
			}
			if (!strcmp(fw->name, "torchtitan")) {
				assert_true(c->zero != 1);
				assert_true(c->tp == 1 || c->sp);
				assert_true(!pipe || (c->schedule != CALC_SCHED_ZBH1 && c->schedule != CALC_SCHED_ZBH2));
			}
		}
		calc_search_free(&r);
	}
	calc_search_free(&all);
}

/* opts.breakdown_top: the first N rows of the top K get the closed-form breakdown, whose
 * step time is the row's own (both are the closed form of the same configuration), and
 * the rows after them none (fast left NULL); 0 breaks down every row. */
static void test_breakdown_top(void **state)
{
	struct calc_plan *p = malloc(sizeof *p);
	struct calc_search_opts o;
	struct calc_search_result r;
	(void)state;

	load_small(p);
	calc_search_opts_init(&o);
	o.top = 20;
	o.recheck = 0;
	o.breakdown_top = 5;
	run(p, &o, &r);
	assert_int_equal(r.ntop, 20);
	for (int i = 0; i < r.ntop; i++) {
		if (i < 5) {
			assert_non_null(r.top[i].fast);
			assert_true(r.top[i].fast->time > 0);
			assert_near(r.top[i].fast->time, r.top[i].r.step_time, 1e-12 * r.top[i].r.step_time);
		} else
			assert_null(r.top[i].fast);
	}
	calc_search_free(&r);
	o.breakdown_top = 0;
	run(p, &o, &r);
	for (int i = 0; i < r.ntop; i++) {
		assert_non_null(r.top[i].fast);
		assert_near(r.top[i].fast->time, r.top[i].r.step_time, 1e-12 * r.top[i].r.step_time);
	}
	calc_search_free(&r);
	free(p);
}

/* Optimizer offload as a dimension of the grid (opts.offload_optimizer, docs/references.md
 * §2.13): every item twice, the second with the states on the host; its ZeRO-0 leaves
 * rejected (offload-zero) -- as many as the plain search's ZeRO-0 leaves that reach the
 * memory check; a leaf with offload against its twin without: the worst stage lighter by
 * the master weights and Adam moments of the rank's shard, 12 bytes per parameter over
 * dp = 16 (megatron recipe: fp32 master 4 + two fp32 moments 8, docs/references.md §1)
 * with the plan's fragmentation share on top, and the step longer by the host link
 * copies (fp32 gradient 4 + bf16 weight 2 bytes per parameter at the GPU's PCIe rate)
 * and the host's step (cluster.cpu_optimizer_rate) less the GPU's pass over 30 bytes per
 * parameter at HBM rate (§2.13, by hand).  Without cluster.cpu_optimizer_rate the
 * dimension is dropped and the reason named. */
static void test_offload_dimension(void **state)
{
	struct calc_plan p;
	struct calc_search_opts o;
	struct calc_search_result plain, off;
	struct calc_params pr;
	const char *why;
	long long zero0 = 0;
	const struct calc_search_row *a = NULL, *b = NULL;
	const char *sets[NSMALL + 1];
	(void)state;
	memcpy(sets, small_sets, sizeof small_sets);
	sets[NSMALL] = "cluster.gpu_memory=80GB"; /* the pair below fits and is timed */
	load_plan(&p, sets, NSMALL + 1);
	calc_search_opts_init(&o);
	o.recheck = 0;
	o.keep_all = 1;
	o.offload_optimizer = 1;
	assert_true(calc_search_offload_share(&p, &o, &why) == 0); /* no rate: not considered */
	assert_non_null(why);
	assert_non_null(strstr(why, "cluster.cpu_optimizer_rate"));
	p.cpu_optimizer_rate = 1e8;
	assert_true(calc_search_offload_share(&p, &o, &why) == 1);
	assert_null(why);
	o.offload_optimizer = 0;
	run(&p, &o, &plain);
	assert_true(plain.opts.offload_optimizer == 0);
	o.offload_optimizer = 1;
	run(&p, &o, &off);
	assert_true(off.opts.offload_optimizer == 1);
	assert_int_equal(off.evaluated, 2 * plain.evaluated);
	assert_int_equal(plain.rejected[CALC_REJ_OFFLOAD], 0);
	for (long long i = 0; i < plain.nrows; i++)
		zero0 += plain.rows[i].c.zero == 0 &&
		         (plain.rows[i].reject == CALC_REJ_NONE || plain.rows[i].reject == CALC_REJ_MEMORY);
	assert_true(zero0 > 0);
	assert_int_equal(off.rejected[CALC_REJ_OFFLOAD], zero0);
	for (long long i = 0; i < off.nrows; i++) {
		const struct calc_search_row *x = &off.rows[i];
		if (x->c.offload > 0 && x->c.zero == 0) /* refused, by this check or an earlier one */
			assert_true(x->reject != CALC_REJ_NONE && x->reject != CALC_REJ_MEMORY);
		if (x->c.tp == 1 && x->c.pp == 1 && x->c.cp == 1 && x->c.dp == 16 && x->c.micro_batch == 1 &&
		    x->c.recompute == CALC_RC_NONE && x->c.zero == 1 && x->c.sp == 0) {
			if (x->c.offload > 0)
				b = x;
			else
				a = x;
		}
	}
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(b->reject, CALC_REJ_NONE);
	calc_model_params(&p.model, &pr);
	double n = pr.total / 16; /* the rank's ZeRO-1 shard of the parameters */
	assert_near(p.gpu.hbm_bw, 3350e9, 0); /* H100 SXM datasheet, docs/references.md §6.1 */
	assert_near(p.gpu.pcie_bw, 64e9, 0);  /* PCIe Gen5 x16, one direction */
	assert_near(a->memory - b->memory, 12 * n * (1 + p.fragmentation), 1e-9);
	assert_near(b->step_time - a->step_time, n * (4 + 2) / 64e9 + n / 1e8 - n * 30 / 3350e9, 1e-6);
	calc_search_free(&plain);
	calc_search_free(&off);

	/* a memo of the offload grid (its ZeRO-0 leaves held as not fitting) re-times the
	 * leaves as a search without it does: the same counts and top, on a slower network */
	struct calc_search_memo *m = calc_search_memo_new();
	struct calc_search_result first, x, y;
	o.keep_all = 0;
	o.top_only = 1;
	o.memo = m;
	run(&p, &o, &first);
	calc_search_free(&first);
	assert_true(calc_search_memo_filled(m));
	p.inter_node_bw = 3.125e9;
	assert_int_equal(calc_search_memo_fits(m, &p, &o), 1);
	o.memo = NULL;
	run(&p, &o, &x);
	o.memo = m;
	run(&p, &o, &y);
	assert_same_counts(&x, &y);
	for (int i = 0; i < x.ntop; i++)
		assert_memory_equal(&x.top[i].r, &y.top[i].r, sizeof x.top[i].r);
	calc_search_free(&x);
	calc_search_free(&y);
	calc_search_memo_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_brute_force),     cmocka_unit_test(test_threads),
		cmocka_unit_test(test_moe_axes),
		cmocka_unit_test(test_moe_placement),
		cmocka_unit_test(test_memory_lean),     cmocka_unit_test(test_reject_reasons),
		cmocka_unit_test(test_apply_and_pareto), cmocka_unit_test(test_pareto_points), cmocka_unit_test(test_pack),
		cmocka_unit_test(test_objective_memory),
		cmocka_unit_test(test_min_headroom),
		cmocka_unit_test(test_seed_refused),
		cmocka_unit_test(test_catalog),         cmocka_unit_test(test_bad_gpus),
		cmocka_unit_test(test_progress), cmocka_unit_test(test_top_only), cmocka_unit_test(test_top_axes),
		cmocka_unit_test(test_no_counts), cmocka_unit_test(test_catalog_no_counts),
		cmocka_unit_test(test_memo),
		cmocka_unit_test(test_gemm_bound),
		cmocka_unit_test(test_dp_window_bound),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_same_memory),
		cmocka_unit_test(test_pick_one_rule),
		cmocka_unit_test(test_pick_short_sequence), cmocka_unit_test(test_pick_window), cmocka_unit_test(test_pick_band),
		cmocka_unit_test(test_plan_framework),
		cmocka_unit_test(test_torchtitan_split),
		cmocka_unit_test(test_frameworks),
		cmocka_unit_test(test_offload_dimension),
		cmocka_unit_test(test_breakdown_top),
		cmocka_unit_test(test_search_once_per_plan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
