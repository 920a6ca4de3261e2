/*
 * schedules.c -- the table of pipeline schedules: one row per schedule with its name,
 * op-order generator, closed-form bubble, in-flight activations per stage, parameter
 * copies and conditions.  Every other module (plan parsing, the simulator in
 * pipeline.c, memory, step, search, the CLI) reads these rows; adding a schedule is
 * one row plus its generator plus its tests.  Depends on nothing but plan.h and the
 * declarations of pipeline.h (it calls only calc_error).
 *
 * Schedules and their sources:
 *   GPipe        Huang et al. 2019; bubble (p-1)(t_f+t_b), Narayanan et al. 2021 §2.2.1.
 *   1F1B         PipeDream-Flush, Narayanan et al. 2021 §2.2.1: same bubble, at most p
 *                micro-batches in flight; warm-up p-i-1 forwards on stage i.
 *   interleaved  Narayanan et al. 2021 §2.2.2: v chunks per stage, bubble (p-1)(t_f+t_b)/v;
 *                op order of Megatron-LM's interleaved schedule (warm-up (p-i-1)*2+(v-1)p
 *                chunk forwards, micro-batches in groups of p); activations
 *                p(1 + (p-1)/(pv)) on stage 0, Korthikanti et al. 2022 §4.2.3.
 *   ZB-H1, ZB-H2 Qi et al. 2024 (Zero Bubble) §2-3, Table 2: backward split into B and W;
 *                bubbles (p-1)(T_F+T_B-T_W) and (p-1)(T_F+T_B-2T_W); stage i (1-based)
 *                holds (p-i+1) M_B (H1) or (2p-2i+1) M_B (H2) activation sets.
 *   DualPipe     DeepSeek-V3 §3.2.1 Table 2 and the deepseek-ai/DualPipe README: two
 *                directions, two parameter copies, bubble (p/2-1)(F&B + B - 3W), p+1
 *                activation sets; op order of the eight steps of the reference
 *                implementation (dualpipe.py, DualPipe.step).
 *
 * tests/calc/pipeline.c checks every row's closed form and in-flight rule against the
 * event simulator over a grid of (p, m, v), and registers a toy row through the table.
 */
#include "bounds.h"
#include "diag.h"
#include "plan.h"
#include "schedules.h"
#include "pipeline.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The keys the plan's micro-batch count m = global_batch / (micro_batch x dp) comes
 * from, for calc_sched_plan_error. */
#define M_KEYS "training.global_batch training.micro_batch dp"

static int imin(int a, int b)
{
	return a < b ? a : b;
}

void calc_sched_emit(struct calc_sched_gen *g, char op, int full, int mb, int chunk)
{
	if (g->out && g->n < g->cap) {
		struct calc_pp_op *o = &g->out[g->n];
		o->stage = g->stage;
		o->op = op;
		o->full = (char)full;
		o->pair = 0;
		o->mb = mb;
		o->chunk = chunk;
		o->start = o->end = 0;
	}
	g->n++;
}

/* ======================================================================== */
/* GPipe and 1F1B                                                            */
/* ======================================================================== */

/* GPipe: every forward, then every backward (Huang et al. 2019). */
static void gen_gpipe(struct calc_sched_gen *g, int p, int m, int v, int s, int base)
{
	for (int i = 0; i < m; i++)
		calc_sched_emit(g, 'F', 0, base + i, 0);
	for (int i = 0; i < m; i++)
		calc_sched_emit(g, 'B', 1, base + i, 0);
}

/* GPipe runs every forward before the first backward: m sets. */
static double inflight_gpipe(int p, int m, int v, int stage)
{
	return m;
}

/* Narayanan et al. 2021 §2.2.1: t_pb = (p - 1)(t_f + t_b), for GPipe and 1F1B. */
static void closed_gpipe(int p, int m, int v, double tf, double tb, double tw, int flush,
                         struct calc_pp_closed *out)
{
	out->bubble = (p - 1) * (tf + tb + tw);
	out->exact = 1;
	out->source = "Narayanan et al. 2021 §2.2.1: (p-1)(t_f+t_b)";
}

static void closed_1f1b(int p, int m, int v, double tf, double tb, double tw, int flush,
                        struct calc_pp_closed *out)
{
	out->bubble = (p - 1) * (tf + tb + tw);
	out->exact = 1;
	out->source = "Narayanan et al. 2021 §2.2.1: (p-1)(t_f+t_b), as GPipe";
}

/* 1F1B (Narayanan et al. 2021 §2.2.1, Fig. 4 top): p-s-1 warm-up forwards, then one
 * forward and one backward in turn, then the remaining backwards. */
static void gen_1f1b(struct calc_sched_gen *g, int p, int m, int v, int s, int base)
{
	int w = imin(p - s - 1, m);
	for (int i = 0; i < w; i++)
		calc_sched_emit(g, 'F', 0, base + i, 0);
	for (int i = 0; i < m - w; i++) {
		calc_sched_emit(g, 'F', 0, base + w + i, 0);
		calc_sched_emit(g, 'B', 1, base + i, 0);
	}
	for (int i = m - w; i < m; i++)
		calc_sched_emit(g, 'B', 1, base + i, 0);
}

/* Narayanan et al. 2021 §2.2.1: p - i stashed on stage i; Qi et al. 2024 §2.3: ZB-H1
 * keeps the same (p - i + 1) M_B, i 1-based. */
static double inflight_1f1b(int p, int m, int v, int stage)
{
	return imin(p - stage, m);
}

/* ======================================================================== */
/* Interleaved 1F1B                                                          */
/* ======================================================================== */

/* Interleaved 1F1B in Megatron-LM's order: virtual micro-batch k runs chunk (k/p) % v
 * of micro-batch (k/(pv))p + k%p forward; backwards walk the chunks in reverse.  The
 * forward and the backward walk keep k as (group k/(pv), chunk (k/p) % v, rank k%p) and
 * step it by one, which is the same micro-batch and chunk without three divisions an
 * op. */
struct vmb {
	int mb;    /* base + (k/(pv))p + k%p: the micro-batch of virtual micro-batch k */
	int r;     /* k % p */
	int chunk; /* (k/p) % v */
};

static void vmb_next(struct vmb *x, int p, int v)
{
	x->mb++;
	if (++x->r == p) {
		x->r = 0;
		x->mb -= p;
		if (++x->chunk == v) {
			x->chunk = 0;
			x->mb += p;
		}
	}
}

static void gen_interleaved(struct calc_sched_gen *g, int p, int m, int v, int s, int base)
{
	int total = m * v, w;
	struct vmb f = {base, 0, 0}, b = {base, 0, 0};
	if (v == 1) {
		gen_1f1b(g, p, m, v, s, base);
		return;
	}
	w = m == p ? total : imin((p - s - 1) * 2 + (v - 1) * p, total);
	for (int k = 0; k < w; k++, vmb_next(&f, p, v))
		calc_sched_emit(g, 'F', 0, f.mb, f.chunk);
	for (int i = 0; i < total - w; i++, vmb_next(&f, p, v), vmb_next(&b, p, v)) {
		calc_sched_emit(g, 'F', 0, f.mb, f.chunk);
		calc_sched_emit(g, 'B', 1, b.mb, v - 1 - b.chunk);
	}
	for (int i = total - w; i < total; i++, vmb_next(&b, p, v))
		calc_sched_emit(g, 'B', 1, b.mb, v - 1 - b.chunk);
}

/* Megatron-LM interleaved schedule: warm-up chunk forwards of rank i = (p - i - 1) * 2 +
 * (v - 1) * p (all m*v when m == p), plus the one forward of the steady state; each chunk
 * holds 1/v of the stage.  On stage 0 this is p + (p-1)/v = p(1 + (p-1)/(pv)), the
 * factor of Korthikanti et al. 2022 §4.2.3.  One chunk is plain 1F1B. */
static double inflight_interleaved(int p, int m, int v, int i)
{
	double chunks;
	if (v <= 1)
		return imin(p - i, m);
	chunks = m == p ? (double)m * v : (double)(p - i - 1) * 2 + (double)(v - 1) * p + 1;
	if (chunks > (double)m * v)
		chunks = (double)m * v;
	return chunks / v;
}

/* Narayanan et al. 2021 §2.2.2: t_pb^int = (p - 1)(t_f + t_b)/v; one chunk is 1F1B. */
static void closed_interleaved(int p, int m, int v, double tf, double tb, double tw, int flush,
                               struct calc_pp_closed *out)
{
	if (v <= 1) {
		closed_1f1b(p, m, v, tf, tb, tw, flush, out);
		return;
	}
	out->bubble = (p - 1) * (tf + tb + tw) / v;
	out->exact = m % p == 0;
	out->source = "Narayanan et al. 2021 §2.2.2: (p-1)(t_f+t_b)/v, m a multiple of p";
}

/* Megatron-LM's interleaved order needs m to be a multiple of p (v > 1). */
static const char *check_interleaved(int p, int m, int v, const struct calc_sched_plan *sp,
                                     struct calc_diag *d)
{
	if (p < 1 || !(m % p) || (!sp && v <= 1))
		return NULL;
	if (d && sp)
		calc_sched_plan_error(sp, d, "schedule pp " M_KEYS, "parallel.schedule = interleaved: "
		                "micro-batches m = %d (global_batch / (micro_batch x dp)) must be a "
		                "multiple of parallel.pp = %d (Narayanan et al. 2021 §2.2.2)", m, p);
	else if (d)
		calc_error(d, NULL, 0, "pipeline: interleaved schedule: m = %d micro-batches "
		           "must be a multiple of p = %d (Narayanan et al. 2021 §2.2.2)", m, p);
	return "m not a multiple of p";
}

/* ======================================================================== */
/* Zero bubble: ZB-H1 and ZB-H2                                              */
/* ======================================================================== */

/*
 * ZB-H1 and ZB-H2 (Qi et al. 2024 §3.1, Figs. 3-4).  ZB-H1 keeps 1F1B's p-s-1 warm-up
 * forwards and postpones the W of stage s by s micro-batches, so W passes fill the
 * cool-down; ZB-H2 doubles the warm-up to 2(p-s-1) forwards and the postponement to
 * 2s, turning the trapezoid into a parallelogram.  The postponed counts are those of
 * the paper's memory formulas: stage i (1-based) keeps (i-1) (H1) or (2i-2) (H2) W
 * passes pending.  In the cool-down every B is followed by one pending W.
 */
static void gen_zb(struct calc_sched_gen *g, int p, int m, int s, int h2, int base)
{
	int w = imin(h2 ? 2 * (p - s - 1) : p - s - 1, m);
	int delay = h2 ? 2 * s : s, wn = 0;
	for (int i = 0; i < w; i++)
		calc_sched_emit(g, 'F', 0, base + i, 0);
	for (int i = 0; i < m - w; i++) {
		calc_sched_emit(g, 'F', 0, base + w + i, 0);
		calc_sched_emit(g, 'B', 0, base + i, 0);
		if (i >= delay)
			calc_sched_emit(g, 'W', 0, base + wn++, 0);
	}
	for (int i = m - w; i < m; i++) {
		calc_sched_emit(g, 'B', 0, base + i, 0);
		calc_sched_emit(g, 'W', 0, base + wn++, 0);
	}
	while (wn < m)
		calc_sched_emit(g, 'W', 0, base + wn++, 0);
}

static void gen_zbh1(struct calc_sched_gen *g, int p, int m, int v, int s, int base)
{
	gen_zb(g, p, m, s, 0, base);
}

static void gen_zbh2(struct calc_sched_gen *g, int p, int m, int v, int s, int base)
{
	gen_zb(g, p, m, s, 1, base);
}

/* Qi et al. 2024 Table 2: (p - 1)(T_F + T_B - T_W). */
static void closed_zbh1(int p, int m, int v, double tf, double tb, double tw, int flush,
                        struct calc_pp_closed *out)
{
	out->bubble = (p - 1) * (tf + tb - tw);
	out->exact = m >= p && tw <= tb && tw <= tf;
	out->source = "Qi et al. 2024 Table 2: (p-1)(T_F+T_B-T_W)";
}

/* Qi et al. 2024 §2.3: device i (1-based) holds (2p - 2i + 1) M_B. */
static double inflight_zbh2(int p, int m, int v, int i)
{
	return imin(2 * p - 2 * i - 1, m);
}

/* Qi et al. 2024 Table 2: (p - 1)(T_F + T_B - 2T_W), steady state with the optimizer
 * step's synchronisation removed (post-validation, §4).  With a flush between steps (no
 * post-validation) the last stage cannot start before p-1 forwards have run:
 * (p-1) max(T_F, T_F+T_B-2T_W) (derived; the simulator's single step gives the same). */
static void closed_zbh2(int p, int m, int v, double tf, double tb, double tw, int flush,
                        struct calc_pp_closed *out)
{
	out->bubble = (p - 1) * (tf + tb - 2 * tw);
	if (out->bubble < 0)
		out->bubble = 0;
	out->exact = m >= 2 * p - 1 && tw <= tf && tw <= tb;
	out->source = "Qi et al. 2024 Table 2: (p-1)(T_F+T_B-2T_W), no flush between steps";
	if (flush) {
		if (out->bubble < (p - 1) * tf)
			out->bubble = (p - 1) * tf;
		out->source = "Qi et al. 2024 Table 2 with a flush between steps: (p-1) max(T_F, T_F+T_B-2T_W)";
	}
}

/* ======================================================================== */
/* DualPipe                                                                  */
/* ======================================================================== */

/*
 * DualPipe (DeepSeek-V3 §3.2.1), in the order of the eight steps of the reference
 * implementation (deepseek-ai/DualPipe, DualPipe.step).  Rank r with half rank
 * h = min(r, p-1-r) runs "phase 0" of the direction in which it is early (stage h) and
 * "phase 1" of the other (stage p-1-h).  Micro-batches 0 .. m/2-1 enter at rank 0,
 * m/2 .. m-1 at rank p-1.  W passes of split backwards run first in, first out.
 * An overlapped "F&B" pair waits for the inputs of both and then takes F + B (the
 * overlap of computation with communication is not modelled).
 */
struct dp_state {
	struct calc_sched_gen *g;
	int dir[2];   /* direction of phase 0 and 1 */
	int nf[2];    /* next forward micro-batch (local) per phase */
	int nb[2];    /* next backward micro-batch (local) per phase */
	int half;     /* micro-batches per direction */
	int base;
	int wq[2 * CALC_MAX_STAGES + 2]; /* pending W: dir * half + local micro-batch */
	int wh, wt;   /* queue head and tail */
};

static void dp_f(struct dp_state *st, int ph)
{
	int d = st->dir[ph];
	calc_sched_emit(st->g, 'F', 0, st->base + d * st->half + st->nf[ph]++, d);
}

static void dp_b(struct dp_state *st, int ph, int zb);

/* An overlapped forward of phase 'f' and whole backward of phase 'b' ("F&B"). */
static void dp_fb(struct dp_state *st, int f, int b)
{
	dp_f(st, f);
	if (st->g->out && st->g->n <= st->g->cap) /* the F went to 'out' */
		st->g->out[st->g->n - 1].pair = 1;
	dp_b(st, b, 0);
}

static void dp_b(struct dp_state *st, int ph, int zb)
{
	int d = st->dir[ph], local = st->nb[ph]++;
	calc_sched_emit(st->g, 'B', !zb, st->base + d * st->half + local, d);
	if (zb && st->wt < (int)(sizeof st->wq / sizeof st->wq[0]))
		st->wq[st->wt++] = d * st->half + local;
}

static void dp_w(struct dp_state *st)
{
	int e;
	if (st->wh >= st->wt)
		return; /* nothing pending: the simulator reports the missing W */
	e = st->wq[st->wh++];
	calc_sched_emit(st->g, 'W', 0, st->base + e, e / st->half);
}

static void gen_dualpipe(struct calc_sched_gen *g, int p, int m, int v, int r, int base)
{
	struct dp_state st;
	int H = p / 2, h = imin(r, p - 1 - r), zb;

	memset(&st, 0, sizeof st);
	st.g = g;
	st.half = m / 2;
	st.base = base;
	st.dir[0] = r < H ? 0 : 1;
	st.dir[1] = 1 - st.dir[0];
	for (int i = 0; i < (H - h - 1) * 2; i++) /* step 1: nF0 */
		dp_f(&st, 0);
	for (int i = 0; i < h + 1; i++) { /* step 2: nF0F1 */
		dp_f(&st, 0);
		dp_f(&st, 1);
	}
	for (int i = 0; i < H - h - 1; i++) { /* step 3: nB1W1F1, zero bubble */
		dp_b(&st, 1, 1);
		dp_w(&st);
		dp_f(&st, 1);
	}
	for (int i = 0; i < st.half - p + h + 1; i++) { /* step 4: nF0B1F1B0 */
		if (i == 0 && h == H - 1) { /* the middle ranks do not overlap the first pair */
			dp_f(&st, 0);
			dp_b(&st, 1, 0);
		} else
			dp_fb(&st, 0, 1);
		dp_fb(&st, 1, 0);
	}
	for (int i = 0; i < H - h - 1; i++) { /* step 5: nB1F1B0 */
		dp_b(&st, 1, 0);
		dp_fb(&st, 1, 0);
	}
	zb = 0;
	for (int i = 0; i < h + 1; i++) { /* step 6: nB1B0, second half split */
		if (i == (h + 1) / 2 && h % 2 == 1)
			zb = 1;
		dp_b(&st, 1, zb);
		if (i == (h + 1) / 2 && h % 2 == 0)
			zb = 1;
		dp_b(&st, 0, zb);
	}
	for (int i = 0; i < H - h - 1; i++) { /* step 7: nWB0 */
		dp_w(&st);
		dp_b(&st, 0, 1);
	}
	for (int i = 0; i < h + 1; i++) /* step 8: nW */
		dp_w(&st);
}

/* DeepSeek-V3 Table 2: PP + 1 activation sets.  By the step counts of the reference
 * order every rank reaches it: steps 1-2 run (p/2-h-1)*2 + 2(h+1) = p forwards, step 4
 * adds one more before its first backward (h = half rank); tests/calc/pipeline.c checks
 * it against the simulator. */
static double inflight_dualpipe(int p, int m, int v, int stage)
{
	return imin(p + 1, m);
}

/* DeepSeek-V3 Table 2: (PP/2 - 1)(F&B + B - 3W) with B the whole backward; F&B, a forward
 * and a backward chunk overlapped, is taken as F + B (no overlap of computation and
 * communication is modelled here). */
static void closed_dualpipe(int p, int m, int v, double tf, double tb, double tw, int flush,
                            struct calc_pp_closed *out)
{
	double full = tb + tw;
	out->bubble = (p / 2 - 1) * ((tf + full) + full - 3 * tw);
	out->exact = p % 2 == 0 && m % 2 == 0 && m >= 2 * p && tf == tb && tw <= tb;
	out->source = "DeepSeek-V3 §3.2.1 Table 2: (p/2-1)(F&B+B-3W), F&B = F+B";
}

/* Two directions of m/2 micro-batches meeting in the middle: p and m even, m >= 2p
 * (DeepSeek-V3 §3.2.1; the reference implementation's step counts). */
static const char *check_dualpipe(int p, int m, int v, const struct calc_sched_plan *sp,
                                  struct calc_diag *d)
{
	if (!(p < 2 || p % 2 || m % 2 || m < 2 * p))
		return NULL;
	if (d && sp) {
		if (p < 2 || p % 2)
			calc_sched_plan_error(sp, d, "schedule pp", "parallel.pp = %d with parallel.schedule = "
			                "dualpipe: pp must be even (DeepSeek-V3 §3.2.1)", p);
		if (m % 2)
			calc_sched_plan_error(sp, d, "schedule " M_KEYS, "parallel.schedule = dualpipe: "
			                "micro-batches m = %d must be even (DeepSeek-V3 §3.2.1)", m);
		else if (m < 2 * p)
			calc_sched_plan_error(sp, d, "schedule pp " M_KEYS, "parallel.schedule = dualpipe: "
			                "micro-batches m = %d must be at least 2 x pp = %d (DualPipe "
			                "reference implementation)", m, 2 * p);
	} else if (d)
		calc_error(d, NULL, 0, "pipeline: dualpipe: p = %d and m = %d must be even and "
		           "m >= 2p (DeepSeek-V3 §3.2.1; DualPipe reference implementation)", p, m);
	return "needs even p, even m >= 2p";
}

int calc_sched_plan_error(const struct calc_sched_plan *sp, struct calc_diag *d, const char *keys,
                          const char *fmt, ...)
{
	char msg[1024];
	int line = 0;
	const char *f = sp->origin ? sp->origin(sp->plan, keys, &line) : sp->plan->file;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return calc_error_id(d, CALC_M_KEY_RULE, f, line, "%s", msg);
}

/* ======================================================================== */
/* The table                                                                 */
/* ======================================================================== */

static const struct calc_sched builtin[CALC_SCHED_N] = {
	[CALC_SCHED_GPIPE] = {
		.name = "gpipe", .title = "GPipe", .source = "Huang et al. 2019; Narayanan et al. 2021 §2.2.1",
		.param_copies = 1, .note = "",
		.gen = gen_gpipe, .closed = closed_gpipe, .inflight = inflight_gpipe,
	},
	[CALC_SCHED_1F1B] = {
		.name = "1f1b", .title = "1F1B (PipeDream-Flush)", .source = "Narayanan et al. 2021 §2.2.1",
		.param_copies = 1, .note = "",
		.gen = gen_1f1b, .closed = closed_1f1b, .inflight = inflight_1f1b,
	},
	[CALC_SCHED_INTERLEAVED] = {
		.name = "interleaved", .title = "interleaved 1F1B",
		.source = "Narayanan et al. 2021 §2.2.2; Megatron-LM's op order; Korthikanti et al. 2022 §4.2.3",
		.uses_vpp = 1, .param_copies = 1, .note = "",
		.gen = gen_interleaved, .closed = closed_interleaved, .inflight = inflight_interleaved,
		.check = check_interleaved, .reject = "interleaved-m",
		.reject_desc = "interleaved: m is not a multiple of pp (Narayanan et al. 2021 §2.2.2)",
	},
	[CALC_SCHED_ZBH1] = {
		.name = "zb-h1", .title = "ZB-H1 (zero bubble, 1F1B's memory)", .source = "Qi et al. 2024 §2-3, Table 2",
		.param_copies = 1, .note = "",
		.gen = gen_zbh1, .closed = closed_zbh1, .inflight = inflight_1f1b,
	},
	[CALC_SCHED_ZBH2] = {
		.name = "zb-h2", .title = "ZB-H2 (zero bubble, twice the activations)",
		.source = "Qi et al. 2024 §2-4, Table 2", .flushed = 1, .param_copies = 1, .note = "",
		.gen = gen_zbh2, .closed = closed_zbh2, .inflight = inflight_zbh2,
	},
	[CALC_SCHED_DUALPIPE] = {
		.name = "dualpipe", .title = "DualPipe", .source = "DeepSeek-V3 §3.2.1, Table 2; deepseek-ai/DualPipe",
		.two_way = 1, .param_copies = 2, .note = "F&B taken as F + B", .ep_overlap = 1,
		.gen = gen_dualpipe, .closed = closed_dualpipe, .inflight = inflight_dualpipe,
		.check = check_dualpipe, .reject = "dualpipe",
		.reject_desc = "dualpipe: pp and m must be even and m >= 2 pp (DeepSeek-V3 §3.2.1)",
	},
};

static struct calc_sched extra[CALC_SCHED_MAX - CALC_SCHED_N];
static int nextra;
/* Bumped by every change of the table (calc_schedule_generation). */
static unsigned long generation = 1;

unsigned long calc_schedule_generation(void)
{
	return generation;
}

int calc_schedule_count(void)
{
	return CALC_SCHED_N + nextra;
}

const struct calc_sched *calc_schedule_at(int id)
{
	if (id >= 0 && id < CALC_SCHED_N)
		return &builtin[id];
	if (id >= CALC_SCHED_N && id < CALC_SCHED_N + nextra)
		return &extra[id - CALC_SCHED_N];
	return NULL;
}

const char *calc_schedule_name(enum calc_schedule s)
{
	const struct calc_sched *r = calc_schedule_at((int)s);
	return r ? r->name : "?";
}

int calc_schedule_parse(const char *name, enum calc_schedule *out)
{
	for (int i = 0; i < calc_schedule_count(); i++)
		if (!strcmp(name, calc_schedule_at(i)->name)) {
			*out = (enum calc_schedule)i;
			return 0;
		}
	return -1;
}

char *calc_schedule_names(char *buf, size_t n, const char *sep)
{
	size_t at = 0;
	if (n == 0)
		return buf;
	buf[0] = 0;
	for (int i = 0; i < calc_schedule_count() && at + 1 < n; i++) {
		int k = snprintf(buf + at, n - at, "%s%s", i ? sep : "", calc_schedule_at(i)->name);
		if (k < 0)
			break;
		at += (size_t)k;
	}
	return buf;
}

enum calc_schedule calc_schedule_plain(void)
{
	return CALC_SCHED_1F1B;
}

int calc_schedule_vpp(enum calc_schedule s, int vpp)
{
	const struct calc_sched *r = calc_schedule_at((int)s);
	if (!r || !r->uses_vpp)
		return 1;
	return vpp > 1 ? vpp : 2;
}

int calc_schedule_register(const struct calc_sched *row, struct calc_diag *d)
{
	size_t len = row && row->name ? strlen(row->name) : 0;
	enum calc_schedule dup;

	if (!row || !len || len > 31 || strspn(row->name, "abcdefghijklmnopqrstuvwxyz0123456789-") != len)
		return calc_error(d, NULL, 0, "schedule table: a new row needs a name of 1 .. 31 characters "
		                  "a-z, 0-9 and '-'");
	if (!calc_schedule_parse(row->name, &dup))
		return calc_error(d, NULL, 0, "schedule table: %s is already a schedule", row->name);
	if (!row->gen || !row->closed || !row->inflight || row->param_copies < 1)
		return calc_error(d, NULL, 0, "schedule table: %s needs a generator, a closed form, an "
		                  "in-flight rule and param_copies >= 1", row->name);
	if (row->check && (!row->reject || !row->reject_desc))
		return calc_error(d, NULL, 0, "schedule table: %s has a check but no reject name and rule",
		                  row->name);
	if (nextra >= CALC_SCHED_MAX - CALC_SCHED_N)
		return calc_error(d, NULL, 0, "schedule table: full (at most %d schedules)", CALC_SCHED_MAX);
	extra[nextra] = *row;
	if (!extra[nextra].title)
		extra[nextra].title = extra[nextra].name;
	if (!extra[nextra].source)
		extra[nextra].source = "";
	if (!extra[nextra].note)
		extra[nextra].note = "";
	generation++;
	return CALC_SCHED_N + nextra++;
}

void calc_schedule_unregister_all(void)
{
	memset(extra, 0, sizeof extra);
	nextra = 0;
	generation++;
}
