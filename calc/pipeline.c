/*
 * pipeline.c -- pipeline schedules: closed-form bubbles, an event simulator, in-flight
 * activations per stage and the bubble tables (catalog entries: catalog_pipeline.c).
 *
 * Schedules and their sources (REFERENCES.md §3):
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
 * The simulator executes the same schedules op by op and must agree with the closed
 * forms where those hold; tests/calc/pipeline.c checks that over a grid of (p, m, v).
 */
#include "calc.h"
#include "pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const sched_ids[CALC_SCHED_N] = {"gpipe", "1f1b", "interleaved",
                                                    "zb-h1", "zb-h2", "dualpipe"};

int calc_schedule_parse(const char *name, enum calc_schedule *out)
{
	for (int i = 0; i < CALC_SCHED_N; i++)
		if (!strcmp(name, sched_ids[i])) {
			*out = (enum calc_schedule)i;
			return 0;
		}
	return -1;
}

static int imin(int a, int b)
{
	return a < b ? a : b;
}

/* ======================================================================== */
/* Closed forms                                                              */
/* ======================================================================== */

/*
 * Peak in-flight micro-batch activation sets of stage 'stage' (0-based), in units of
 * the activations of all of that stage's layers for one micro-batch.
 */
double calc_pipeline_inflight_for(enum calc_schedule s, int p, int m, int v, int stage)
{
	int i = stage;
	double chunks;

	if (p < 1 || m < 1)
		return 0;
	if (v < 1)
		v = 1;
	switch (s) {
	case CALC_SCHED_GPIPE:
		/* GPipe runs every forward before the first backward: m sets. */
		return m;
	case CALC_SCHED_INTERLEAVED:
		if (v > 1) {
			/* Megatron-LM interleaved schedule: warm-up chunk forwards of rank i
			 * = (p - i - 1) * 2 + (v - 1) * p (all m*v when m == p), plus the one
			 * forward of the steady state; each chunk holds 1/v of the stage.  On
			 * stage 0 this is p + (p-1)/v = p(1 + (p-1)/(pv)), the factor of
			 * Korthikanti et al. 2022 §4.2.3. */
			chunks = m == p ? (double)m * v : (double)(p - i - 1) * 2 + (double)(v - 1) * p + 1;
			if (chunks > (double)m * v)
				chunks = (double)m * v;
			return chunks / v;
		}
		return imin(p - i, m); /* v = 1 is plain 1F1B */
	case CALC_SCHED_ZBH2:
		/* Qi et al. 2024 §2.3: device i (1-based) holds (2p - 2i + 1) M_B. */
		return imin(2 * p - 2 * i - 1, m);
	case CALC_SCHED_DUALPIPE:
		/* DeepSeek-V3 Table 2: PP + 1 activation sets.  By the step counts of the
		 * reference order every rank reaches it: steps 1-2 run (p/2-h-1)*2 + 2(h+1)
		 * = p forwards, step 4 adds one more before its first backward (h = half
		 * rank); tests/calc/pipeline.c checks it against the simulator. */
		return imin(p + 1, m);
	case CALC_SCHED_ZBH1: /* Qi et al. 2024 §2.3: (p - i + 1) M_B, i 1-based */
	case CALC_SCHED_1F1B: /* Narayanan et al. 2021 §2.2.1: p - i stashed on stage i */
	default:
		return imin(p - i, m);
	}
}

void calc_pipeline_closed(enum calc_schedule s, int p, int m, int v, double tf, double tb,
                          double tw, struct calc_pp_closed *out)
{
	calc_pipeline_closed_flush(s, p, m, v, tf, tb, tw, 0, out);
}

int calc_pipeline_sim_steps(enum calc_schedule s, const struct calc_plan *plan)
{
	return s == CALC_SCHED_ZBH2 && !plan->post_validation ? 1 : 2;
}

void calc_pipeline_closed_flush(enum calc_schedule s, int p, int m, int v, double tf, double tb,
                                double tw, int flush, struct calc_pp_closed *out)
{
	double full = tb + tw; /* an unsplit backward */

	memset(out, 0, sizeof *out);
	if (v < 1)
		v = 1;
	out->ideal = m * (tf + tb + tw);
	out->param_copies = s == CALC_SCHED_DUALPIPE ? 2 : 1;
	out->inflight_peak = calc_pipeline_inflight_for(s, p, m, v, 0);
	switch (s) {
	case CALC_SCHED_GPIPE:
		/* Narayanan et al. 2021 §2.2.1: t_pb = (p - 1)(t_f + t_b). */
		out->bubble = (p - 1) * (tf + full);
		out->exact = 1;
		out->source = "Narayanan et al. 2021 §2.2.1: (p-1)(t_f+t_b)";
		break;
	case CALC_SCHED_INTERLEAVED:
		if (v > 1) {
			/* Narayanan et al. 2021 §2.2.2: t_pb^int = (p - 1)(t_f + t_b)/v. */
			out->bubble = (p - 1) * (tf + full) / v;
			out->exact = m % p == 0;
			out->source = "Narayanan et al. 2021 §2.2.2: (p-1)(t_f+t_b)/v, m a multiple of p";
			break;
		}
		/* one chunk is 1F1B */
		/* fall through */
	case CALC_SCHED_1F1B:
		out->bubble = (p - 1) * (tf + full);
		out->exact = 1;
		out->source = "Narayanan et al. 2021 §2.2.1: (p-1)(t_f+t_b), as GPipe";
		break;
	case CALC_SCHED_ZBH1:
		/* Qi et al. 2024 Table 2: (p - 1)(T_F + T_B - T_W). */
		out->bubble = (p - 1) * (tf + tb - tw);
		out->exact = m >= p && tw <= tb && tw <= tf;
		out->source = "Qi et al. 2024 Table 2: (p-1)(T_F+T_B-T_W)";
		break;
	case CALC_SCHED_ZBH2:
		/* Qi et al. 2024 Table 2: (p - 1)(T_F + T_B - 2T_W), steady state with the
		 * optimizer step's synchronisation removed (post-validation, §4). */
		out->bubble = (p - 1) * (tf + tb - 2 * tw);
		if (out->bubble < 0)
			out->bubble = 0;
		out->exact = m >= 2 * p - 1 && tw <= tf && tw <= tb;
		out->source = "Qi et al. 2024 Table 2: (p-1)(T_F+T_B-2T_W), no flush between steps";
		if (flush) {
			/* with a flush between steps (no post-validation) the last stage cannot
			 * start before p-1 forwards have run: (p-1) max(T_F, T_F+T_B-2T_W)
			 * (derived; the simulator's single step gives the same) */
			if (out->bubble < (p - 1) * tf)
				out->bubble = (p - 1) * tf;
			out->source = "Qi et al. 2024 Table 2 with a flush between steps: (p-1) max(T_F, T_F+T_B-2T_W)";
		}
		break;
	case CALC_SCHED_DUALPIPE:
		/* DeepSeek-V3 Table 2: (PP/2 - 1)(F&B + B - 3W) with B the whole backward;
		 * F&B, a forward and a backward chunk overlapped, is taken as F + B (no
		 * overlap of computation and communication is modelled here). */
		out->bubble = (p / 2 - 1) * ((tf + full) + full - 3 * tw);
		out->exact = p % 2 == 0 && m % 2 == 0 && m >= 2 * p && tf == tb && tw <= tb;
		out->source = "DeepSeek-V3 §3.2.1 Table 2: (p/2-1)(F&B+B-3W), F&B = F+B";
		break;
	default:
		break;
	}
	if (out->bubble < 0)
		out->bubble = 0;
	out->overhead = out->ideal > 0 ? out->bubble / out->ideal : 0;
	out->fraction = out->ideal + out->bubble > 0 ? out->bubble / (out->ideal + out->bubble) : 0;
}

/* ======================================================================== */
/* Schedules as op orders                                                    */
/* ======================================================================== */

/* Appends ops of one stage; with out == NULL it only counts them. */
struct gen {
	struct calc_pp_op *out;
	int n;
	int stage;
};

static void emit(struct gen *g, char op, int full, int mb, int chunk)
{
	if (g->out) {
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

/* GPipe: every forward, then every backward (Huang et al. 2019). */
static void gen_gpipe(struct gen *g, int m, int base)
{
	for (int i = 0; i < m; i++)
		emit(g, 'F', 0, base + i, 0);
	for (int i = 0; i < m; i++)
		emit(g, 'B', 1, base + i, 0);
}

/* 1F1B (Narayanan et al. 2021 §2.2.1, Fig. 4 top): p-s-1 warm-up forwards, then one
 * forward and one backward in turn, then the remaining backwards. */
static void gen_1f1b(struct gen *g, int p, int m, int s, int base)
{
	int w = imin(p - s - 1, m);
	for (int i = 0; i < w; i++)
		emit(g, 'F', 0, base + i, 0);
	for (int i = 0; i < m - w; i++) {
		emit(g, 'F', 0, base + w + i, 0);
		emit(g, 'B', 1, base + i, 0);
	}
	for (int i = m - w; i < m; i++)
		emit(g, 'B', 1, base + i, 0);
}

/* Interleaved 1F1B in Megatron-LM's order: virtual micro-batch k runs chunk (k/p) % v
 * of micro-batch (k/(pv))p + k%p forward; backwards walk the chunks in reverse. */
static void gen_interleaved(struct gen *g, int p, int m, int v, int s, int base)
{
	int total = m * v, w;
	if (v == 1) {
		gen_1f1b(g, p, m, s, base);
		return;
	}
	w = m == p ? total : imin((p - s - 1) * 2 + (v - 1) * p, total);
#define FWD(k) emit(g, 'F', 0, base + ((k) / (p * v)) * p + (k) % p, ((k) / p) % v)
#define BWD(k) emit(g, 'B', 1, base + ((k) / (p * v)) * p + (k) % p, v - 1 - ((k) / p) % v)
	for (int k = 0; k < w; k++)
		FWD(k);
	for (int i = 0; i < total - w; i++) {
		FWD(w + i);
		BWD(i);
	}
	for (int i = total - w; i < total; i++)
		BWD(i);
#undef FWD
#undef BWD
}

/*
 * ZB-H1 and ZB-H2 (Qi et al. 2024 §3.1, Figs. 3-4).  ZB-H1 keeps 1F1B's p-s-1 warm-up
 * forwards and postpones the W of stage s by s micro-batches, so W passes fill the
 * cool-down; ZB-H2 doubles the warm-up to 2(p-s-1) forwards and the postponement to
 * 2s, turning the trapezoid into a parallelogram.  The postponed counts are those of
 * the paper's memory formulas: stage i (1-based) keeps (i-1) (H1) or (2i-2) (H2) W
 * passes pending.  In the cool-down every B is followed by one pending W.
 */
static void gen_zb(struct gen *g, int p, int m, int s, int h2, int base)
{
	int w = imin(h2 ? 2 * (p - s - 1) : p - s - 1, m);
	int delay = h2 ? 2 * s : s, wn = 0;
	for (int i = 0; i < w; i++)
		emit(g, 'F', 0, base + i, 0);
	for (int i = 0; i < m - w; i++) {
		emit(g, 'F', 0, base + w + i, 0);
		emit(g, 'B', 0, base + i, 0);
		if (i >= delay)
			emit(g, 'W', 0, base + wn++, 0);
	}
	for (int i = m - w; i < m; i++) {
		emit(g, 'B', 0, base + i, 0);
		emit(g, 'W', 0, base + wn++, 0);
	}
	while (wn < m)
		emit(g, 'W', 0, base + wn++, 0);
}

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
	struct gen *g;
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
	emit(st->g, 'F', 0, st->base + d * st->half + st->nf[ph]++, d);
}

static void dp_b(struct dp_state *st, int ph, int zb);

/* An overlapped forward of phase 'f' and whole backward of phase 'b' ("F&B"). */
static void dp_fb(struct dp_state *st, int f, int b)
{
	dp_f(st, f);
	if (st->g->out)
		st->g->out[st->g->n - 1].pair = 1;
	dp_b(st, b, 0);
}

static void dp_b(struct dp_state *st, int ph, int zb)
{
	int d = st->dir[ph], local = st->nb[ph]++;
	emit(st->g, 'B', !zb, st->base + d * st->half + local, d);
	if (zb && st->wt < (int)(sizeof st->wq / sizeof st->wq[0]))
		st->wq[st->wt++] = d * st->half + local;
}

static void dp_w(struct dp_state *st)
{
	int e;
	if (st->wh >= st->wt)
		return; /* nothing pending: the simulator reports the missing W */
	e = st->wq[st->wh++];
	emit(st->g, 'W', 0, st->base + e, e / st->half);
}

static void gen_dualpipe(struct gen *g, int p, int m, int r, int base)
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

/* Ops of stage s for all steps. */
static int gen_stage(const struct calc_pp_costs *c, int s, struct calc_pp_op *out)
{
	struct gen g = {out, 0, s};
	int steps = c->steps > 1 ? c->steps : 1;
	for (int k = 0; k < steps; k++) {
		int base = k * c->m;
		switch (c->sched) {
		case CALC_SCHED_GPIPE:
			gen_gpipe(&g, c->m, base);
			break;
		case CALC_SCHED_INTERLEAVED:
			gen_interleaved(&g, c->p, c->m, c->v, s, base);
			break;
		case CALC_SCHED_ZBH1:
		case CALC_SCHED_ZBH2:
			gen_zb(&g, c->p, c->m, s, c->sched == CALC_SCHED_ZBH2, base);
			break;
		case CALC_SCHED_DUALPIPE:
			gen_dualpipe(&g, c->p, c->m, s, base);
			break;
		case CALC_SCHED_1F1B:
		default:
			gen_1f1b(&g, c->p, c->m, s, base);
			break;
		}
	}
	return g.n;
}

/* ======================================================================== */
/* The event simulator                                                       */
/* ======================================================================== */

#define SIM_MAX_OPS (1 << 26)

static int check_costs(const struct calc_pp_costs *c, struct calc_diag *d)
{
	const char *name = c->sched >= 0 && c->sched < CALC_SCHED_N ? sched_ids[c->sched] : "?";
	int steps = c->steps > 1 ? c->steps : 1;
	if (c->sched < 0 || c->sched >= CALC_SCHED_N)
		return calc_error(d, NULL, 0, "pipeline: unknown schedule %d", (int)c->sched);
	if (c->p < 1 || c->p > CALC_MAX_STAGES)
		return calc_error(d, NULL, 0, "pipeline: p = %d stages: allowed 1 .. %d", c->p,
		                  CALC_MAX_STAGES);
	if (c->m < 1)
		return calc_error(d, NULL, 0, "pipeline: m = %d micro-batches: at least 1", c->m);
	if (c->v < 1 || (c->v > 1 && c->sched != CALC_SCHED_INTERLEAVED))
		return calc_error(d, NULL, 0, "pipeline: v = %d chunks with schedule %s: v > 1 needs "
		                  "schedule interleaved, and v >= 1", c->v, name);
	if (steps > 8)
		return calc_error(d, NULL, 0, "pipeline: steps = %d: allowed 1 .. 8", c->steps);
	if ((double)c->m * c->v * c->p * steps * 3 > SIM_MAX_OPS)
		return calc_error(d, NULL, 0, "pipeline: p x m x v = %d x %d x %d is too large to "
		                  "simulate (at most %d ops)", c->p, c->m, c->v, SIM_MAX_OPS);
	if (c->sched == CALC_SCHED_INTERLEAVED && c->v > 1 && c->m % c->p)
		return calc_error(d, NULL, 0, "pipeline: interleaved schedule: m = %d micro-batches "
		                  "must be a multiple of p = %d (Narayanan et al. 2021 §2.2.2)", c->m, c->p);
	if (c->sched == CALC_SCHED_DUALPIPE && (c->p % 2 || c->m % 2 || c->m < 2 * c->p))
		return calc_error(d, NULL, 0, "pipeline: dualpipe: p = %d and m = %d must be even and "
		                  "m >= 2p (DeepSeek-V3 §3.2.1; DualPipe reference implementation)",
		                  c->p, c->m);
	if (!(c->p2p >= 0) || !isfinite(c->p2p))
		return calc_error(d, NULL, 0, "pipeline: p2p = %g s: must be >= 0", c->p2p);
	for (int i = 0; i < c->p; i++)
		if (!(c->tf[i] >= 0 && c->tb[i] >= 0 && c->tw[i] >= 0) || !isfinite(c->tf[i]) ||
		    !isfinite(c->tb[i]) || !isfinite(c->tw[i]))
			return calc_error(d, NULL, 0, "pipeline: stage %d costs tf = %g, tb = %g, tw = %g "
			                  "s: must be finite and >= 0", i, c->tf[i], c->tb[i], c->tw[i]);
	/* No op ends later than every op of every stage run one after another, each after
	 * a transfer: if that bound overflows, start and end times could become inf. */
	{
		int w = 0;
		for (int i = 1; i < c->p; i++)
			if (c->tf[i] + c->tb[i] + c->tw[i] > c->tf[w] + c->tb[w] + c->tw[w])
				w = i;
		if (!isfinite(((double)c->m * c->v * steps) * c->p *
		              (c->tf[w] + c->tb[w] + c->tw[w] + 3 * c->p2p)))
			return calc_error(d, NULL, 0, "pipeline: stage %d costs tf = %g, tb = %g, tw = %g, "
			                  "p2p = %g s overflow the timeline of p = %d, m = %d, v = %d",
			                  w, c->tf[w], c->tb[w], c->tw[w], c->p2p, c->p, c->m, c->v);
	}
	return 0;
}

/* Shape of the micro-batch path: L path stages; path stage g of a micro-batch of
 * direction 'dir' runs on rank_of(g, dir). */
struct path {
	enum calc_schedule sched;
	int p, v, L;
};

static int rank_of(const struct path *pa, int g, int dir)
{
	if (pa->sched == CALC_SCHED_DUALPIPE)
		return dir ? pa->p - 1 - g : g;
	return g % pa->p;
}

static int path_stage(const struct path *pa, const struct calc_pp_op *o)
{
	if (pa->sched == CALC_SCHED_DUALPIPE)
		return o->chunk ? pa->p - 1 - o->stage : o->stage;
	return o->chunk * pa->p + o->stage;
}

static double op_cost(const struct calc_pp_costs *c, const struct path *pa,
                      const struct calc_pp_op *o, int g)
{
	int i = pa->sched == CALC_SCHED_DUALPIPE ? g : o->stage;
	double v = pa->sched == CALC_SCHED_DUALPIPE ? 1 : c->v;
	switch (o->op) {
	case 'F':
		return c->tf[i] / v;
	case 'B':
		return (o->full ? c->tb[i] + c->tw[i] : c->tb[i]) / v;
	default:
		return c->tw[i] / v;
	}
}

static const char *op_what(const struct calc_pp_op *o, char *buf, size_t n)
{
	snprintf(buf, n, "%c%s of micro-batch %d, chunk %d", o->op,
	         o->op == 'B' ? (o->full ? " (whole backward)" : " (input grads)") : "", o->mb,
	         o->chunk);
	return buf;
}

/* Bookkeeping per (micro-batch, path stage): end times and the W state. */
enum { WS_NONE, WS_PENDING, WS_DONE, WS_FULL };

struct simstate {
	double *fend, *bend; /* -1 = not run yet [s] */
	unsigned char *ws;
	int nmb;
};

/* Why op 'o' cannot run now; NULL when it can ('*t' = earliest start by inputs). */
static const char *blocked(const struct calc_pp_costs *c, const struct path *pa,
                           const struct simstate *ss, const struct calc_pp_op *o, int g,
                           double *t)
{
	size_t k = (size_t)o->mb * pa->L + g;
	int dir = pa->sched == CALC_SCHED_DUALPIPE ? o->chunk : 0;
	*t = 0;
	switch (o->op) {
	case 'F':
		if (ss->fend[k] >= 0)
			return "it already ran";
		if (g > 0) {
			if (ss->fend[k - 1] < 0)
				return "the forward of the previous pipeline stage has not run";
			*t = ss->fend[k - 1] + (rank_of(pa, g - 1, dir) != o->stage ? c->p2p : 0);
		}
		return NULL;
	case 'B':
		if (ss->bend[k] >= 0)
			return "it already ran";
		if (ss->fend[k] < 0)
			return "its forward has not run on this stage";
		*t = ss->fend[k];
		if (g < pa->L - 1) {
			double a;
			if (ss->bend[k + 1] < 0)
				return "the backward of the next pipeline stage has not run";
			a = ss->bend[k + 1] + (rank_of(pa, g + 1, dir) != o->stage ? c->p2p : 0);
			if (a > *t)
				*t = a;
		}
		return NULL;
	case 'W':
		if (ss->ws[k] == WS_DONE)
			return "it already ran";
		if (ss->ws[k] == WS_FULL)
			return "its backward already included the weight gradients";
		if (ss->ws[k] != WS_PENDING)
			return "its input backward (B) has not run";
		*t = ss->bend[k];
		return NULL;
	default:
		return "unknown op (allowed F, B, W)";
	}
}

int calc_pipeline_simulate_ops(const struct calc_pp_costs *c, struct calc_pp_op *ops, int nops,
                               struct calc_pp_result *r, struct calc_diag *d)
{
	const char *name;
	struct path pa;
	struct simstate ss;
	int steps, p, *off, *pos, *queue, qh = 0, qn = 0, rc = 0;
	unsigned char *inq;
	double *free_at, *cnt, *peak, *wcnt, *wpeak, *step_end;
	char *blk = NULL, what[96];
	size_t n;

	memset(r, 0, sizeof *r);
	if (check_costs(c, d) < 0)
		return -1;
	name = sched_ids[c->sched];
	steps = c->steps > 1 ? c->steps : 1;
	p = c->p;
	pa.sched = c->sched;
	pa.p = p;
	pa.v = c->sched == CALC_SCHED_INTERLEAVED ? c->v : 1;
	pa.L = pa.v * p;
	ss.nmb = steps * c->m;
	n = (size_t)ss.nmb * pa.L;

	/* One scratch block: end times, W states, per-stage counters and the queue. */
	{
		size_t nd = 2 * n + (size_t)p * 6 + (size_t)steps, ni = (size_t)(p + 1) * 3;
		char *q = blk = xcalloc(1, nd * sizeof(double) + ni * sizeof(int) + n + (size_t)p + 1);
		double *dv = (double *)(void *)q;
		int *iv = (int *)(void *)(dv + nd);
		ss.fend = dv;
		ss.bend = dv + n;
		free_at = dv + 2 * n;
		cnt = free_at + p;
		peak = cnt + p;
		wcnt = peak + p;
		wpeak = wcnt + p;
		step_end = wpeak + p;
		off = iv;
		pos = iv + (p + 1);
		queue = iv + 2 * (p + 1);
		ss.ws = (unsigned char *)(iv + ni);
		inq = ss.ws + n;
	}
	for (size_t k = 0; k < n; k++)
		ss.fend[k] = ss.bend[k] = -1;
	for (int k = 0; k < steps; k++)
		step_end[k] = 0;

	/* Ops must be grouped by stage in stage order; check ranges as we go. */
	for (int s = 0, i = 0; s <= p; s++) {
		while (i < nops && ops[i].stage < s)
			i++;
		off[s] = i;
	}
	for (int i = 0; i < nops; i++) {
		const struct calc_pp_op *o = &ops[i];
		int chunks = c->sched == CALC_SCHED_DUALPIPE ? 2 : pa.v;
		if (o->stage < 0 || o->stage >= p || (i && o->stage < ops[i - 1].stage)) {
			rc = calc_error(d, NULL, 0, "pipeline: %s: op %d on stage %d: ops must be grouped "
			                "by stage 0 .. %d in order", name, i, o->stage, p - 1);
			goto out;
		}
		if (o->mb < 0 || o->mb >= ss.nmb || o->chunk < 0 || o->chunk >= chunks) {
			rc = calc_error(d, NULL, 0, "pipeline: %s: op %d on stage %d: micro-batch %d or "
			                "chunk %d out of range (0 .. %d, 0 .. %d)", name, i, o->stage, o->mb,
			                o->chunk, ss.nmb - 1, chunks - 1);
			goto out;
		}
	}

	for (int s = 0; s < p; s++) {
		pos[s] = off[s];
		queue[qn++] = s;
		inq[s] = 1;
	}
	while (qn > 0) {
		int s = queue[qh];
		qh = (qh + 1) % (p + 1);
		qn--;
		inq[s] = 0;
		while (pos[s] < off[s + 1]) {
			struct calc_pp_op *o = &ops[pos[s]];
			int g = path_stage(&pa, o), dir = c->sched == CALC_SCHED_DUALPIPE ? o->chunk : 0;
			size_t k = (size_t)o->mb * pa.L + g;
			double t, dur;
			int wake = -1;
			if (blocked(c, &pa, &ss, o, g, &t))
				break;
			if (o->pair) { /* an F&B pair starts when both inputs are in */
				double t2;
				if (pos[s] + 1 >= off[s + 1] || o[1].op != 'B') {
					rc = calc_error(d, NULL, 0, "pipeline: %s: stage %d op %d: an F&B pair "
					                "needs a B after its F", name, s, pos[s] - off[s]);
					goto out;
				}
				if (blocked(c, &pa, &ss, o + 1, path_stage(&pa, o + 1), &t2))
					break;
				if (t2 > t)
					t = t2;
			}
			dur = op_cost(c, &pa, o, g);
			o->start = t > free_at[s] ? t : free_at[s];
			o->end = o->start + dur;
			free_at[s] = o->end;
			if (o->end > step_end[o->mb / c->m])
				step_end[o->mb / c->m] = o->end;
			if (o->mb < c->m)
				r->busy[s] += dur;
			switch (o->op) {
			case 'F':
				ss.fend[k] = o->end;
				cnt[s] += 1;
				if (cnt[s] > peak[s])
					peak[s] = cnt[s];
				if (g + 1 < pa.L)
					wake = rank_of(&pa, g + 1, dir);
				break;
			case 'B':
				ss.bend[k] = o->end;
				cnt[s] -= 1;
				ss.ws[k] = o->full ? WS_FULL : WS_PENDING;
				if (!o->full) {
					wcnt[s] += 1;
					if (wcnt[s] > wpeak[s])
						wpeak[s] = wcnt[s];
				}
				if (g > 0)
					wake = rank_of(&pa, g - 1, dir);
				break;
			default:
				ss.ws[k] = WS_DONE;
				wcnt[s] -= 1;
				break;
			}
			pos[s]++;
			if (wake >= 0 && wake != s && !inq[wake]) {
				queue[(qh + qn) % (p + 1)] = wake;
				qn++;
				inq[wake] = 1;
			}
		}
	}

	/* Every stage must have run all its ops: otherwise the order violates a
	 * dependency (a B before its F, or a cycle of waits).  Name the stage whose
	 * next op is blocked by something on the stage itself when there is one (the
	 * cause); the others only wait for it. */
	{
		int bad = -1;
		for (int s = 0; s < p; s++)
			if (pos[s] < off[s + 1]) {
				const struct calc_pp_op *o = &ops[pos[s]];
				double t;
				const char *why = blocked(c, &pa, &ss, o, path_stage(&pa, o), &t);
				if (bad < 0 || (why && !strstr(why, "pipeline stage")))
					bad = s;
				if (why && !strstr(why, "pipeline stage"))
					break;
			}
		if (bad >= 0) {
			const struct calc_pp_op *o = &ops[pos[bad]];
			double t;
			const char *why = blocked(c, &pa, &ss, o, path_stage(&pa, o), &t);
			rc = calc_error(d, NULL, 0, "pipeline: %s: dependency violated: stage %d cannot run "
			                "op %d (%s): %s", name, bad, pos[bad] - off[bad],
			                op_what(o, what, sizeof what), why ? why : "blocked");
			goto out;
		}
	}
	/* ... and every micro-batch must have passed every path stage forward and
	 * backward, with each split backward's W. */
	for (size_t k = 0; k < n; k++) {
		int mb = (int)(k / pa.L), g = (int)(k % pa.L);
		const char *miss = ss.fend[k] < 0 ? "forward" : ss.bend[k] < 0 ? "backward" :
		                   ss.ws[k] == WS_PENDING ? "weight-gradient (W)" : NULL;
		if (miss) {
			rc = calc_error(d, NULL, 0, "pipeline: %s: the %s of micro-batch %d on path stage %d "
			                "never runs", name, miss, mb, g);
			goto out;
		}
	}

	r->makespan = step_end[0];
	r->period = steps > 1 ? step_end[steps - 1] - step_end[steps - 2] : r->makespan;
	for (int s = 0; s < p; s++) {
		r->idle[s] = r->makespan - r->busy[s];
		r->peak_inflight[s] = peak[s] / pa.v;
		r->peak_wpending[s] = wpeak[s];
		if (r->busy[s] > r->ideal)
			r->ideal = r->busy[s];
	}
	if (r->ideal > 0) {
		r->bubble_overhead = (r->period - r->ideal) / r->ideal;
		r->bubble_fraction = (r->period - r->ideal) / r->period;
	}
	r->nops = nops;
out:
	free(blk);
	return rc;
}

int calc_pipeline_simulate(const struct calc_pp_costs *c, struct calc_pp_result *r,
                           struct calc_diag *d)
{
	struct calc_pp_op *ops;
	int n = 0;

	memset(r, 0, sizeof *r);
	if (check_costs(c, d) < 0)
		return -1;
	for (int s = 0; s < c->p; s++)
		n += gen_stage(c, s, NULL);
	ops = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *ops);
	for (int s = 0, at = 0; s < c->p; s++)
		at += gen_stage(c, s, ops + at);
	if (calc_pipeline_simulate_ops(c, ops, n, r, d) < 0) {
		free(ops);
		return -1;
	}
	r->ops = ops;
	r->nops = n;
	return 0;
}

void calc_pp_result_free(struct calc_pp_result *r)
{
	free(r->ops);
	r->ops = NULL;
	r->nops = 0;
}

void calc_pp_costs_unit(struct calc_pp_costs *c, enum calc_schedule s, int p, int m, int v)
{
	memset(c, 0, sizeof *c);
	c->sched = s;
	c->p = p;
	c->m = m;
	c->v = v < 1 ? 1 : v;
	c->steps = 1;
	for (int i = 0; i < CALC_MAX_STAGES; i++)
		c->tf[i] = c->tb[i] = c->tw[i] = 1;
}

/* ======================================================================== */
/* ASCII Gantt                                                               */
/* ======================================================================== */

void calc_pipeline_gantt(const struct calc_pp_result *r, double unit, FILE *out)
{
	int p = 0, maxmb = 0, width = 2, cells;
	char label[16];

	for (int i = 0; i < r->nops; i++) {
		if (r->ops[i].stage + 1 > p)
			p = r->ops[i].stage + 1;
		if (r->ops[i].mb > maxmb)
			maxmb = r->ops[i].mb;
	}
	if (unit <= 0) { /* the shortest op */
		for (int i = 0; i < r->nops; i++) {
			double len = r->ops[i].end - r->ops[i].start;
			if (len > 0 && (unit <= 0 || len < unit))
				unit = len;
		}
		if (unit <= 0)
			unit = 1;
	}
	width = 1 + snprintf(label, sizeof label, "%d", maxmb);
	cells = 0;
	for (int i = 0; i < r->nops; i++) {
		int e = (int)lround(r->ops[i].end / unit);
		if (e > cells)
			cells = e;
	}
	for (int s = 0, i = 0; s < p; s++) {
		int at = 0;
		fprintf(out, "stage %*d |", p > 100 ? 3 : p > 10 ? 2 : 1, s);
		for (; i < r->nops && r->ops[i].stage == s; i++) {
			const struct calc_pp_op *o = &r->ops[i];
			int a = (int)lround(o->start / unit), e = (int)lround(o->end / unit);
			char kind = o->chunk % 2 ? (char)(o->op - 'A' + 'a') : o->op;
			for (; at < a; at++)
				fprintf(out, "%.*s", width, "................");
			if (e <= a)
				continue;
			fprintf(out, "%c%-*d", kind, width - 1, o->mb);
			for (at++; at < e; at++)
				fprintf(out, "%.*s", width, "================");
		}
		for (; at < cells; at++)
			fprintf(out, "%.*s", width, "................");
		fputs("|\n", out);
	}
	fprintf(out, "one cell = %g s; F forward, B backward (input gradients, or the whole backward), "
	        "W weight gradients; '=' continues an op, '.' idle; lower case: chunk 1 "
	        "(interleaved) or the reverse direction (DualPipe)\n", unit);
}

/* ======================================================================== */
/* The plan: in-flight activations, parameter copies, checks                 */
/* ======================================================================== */

/*
 * Micro-batches (in units of one stage's full activation set) that stage 'stage' holds
 * at its peak under the plan's schedule: calc_pipeline_inflight_for with the plan's p,
 * m and v.  Split backwards keep a smaller set M_W until their W runs (Qi et al. 2024
 * §2.3: (i-1) M_W on stage i under ZB-H1, (2i-2) M_W under ZB-H2); those are not
 * counted here because M_W < M_B and stage 0, the peak, keeps none.
 */
double calc_pipeline_inflight(const struct calc_plan *plan, int stage)
{
	int v = plan->schedule == CALC_SCHED_INTERLEAVED ? plan->vpp : 1;
	return calc_pipeline_inflight_for(plan->schedule, plan->pp, calc_plan_microbatches(plan), v,
	                                  stage);
}

/* DualPipe keeps two copies of the parameters (DeepSeek-V3 §3.2.1, Table 2: rank i
 * holds stage i and stage p-1-i); every other schedule one. */
int calc_pipeline_param_copies(const struct calc_plan *plan)
{
	return plan->schedule == CALC_SCHED_DUALPIPE ? 2 : 1;
}

int calc_pipeline_check(const struct calc_plan *plan, struct calc_diag *d)
{
	const char *f = plan->file;
	const char *sched = calc_schedule_name(plan->schedule);
	int p = plan->pp, v = plan->vpp, m = calc_plan_microbatches(plan), L = plan->model.layers;
	int before = d->nerrors;

	if (v < 1)
		calc_error(d, f, 0, "parallel.vpp = %d: allowed 1 .. 64", v);
	if (v > 1 && plan->schedule != CALC_SCHED_INTERLEAVED)
		calc_error(d, f, 0, "parallel.vpp = %d needs parallel.schedule = interleaved (schedule "
		           "is %s); use vpp = 1 with %s", v, sched, sched);
	if (plan->schedule == CALC_SCHED_INTERLEAVED) {
		if (v < 2)
			calc_error(d, f, 0, "parallel.schedule = interleaved needs parallel.vpp >= 2 "
			           "(vpp = %d); use schedule = 1f1b for one chunk", v);
		if (p < 2)
			calc_error(d, f, 0, "parallel.schedule = interleaved needs parallel.pp >= 2 (pp = %d)",
			           p);
		if (p > 0 && m % p)
			calc_error(d, f, 0, "parallel.schedule = interleaved: micro-batches m = %d (global_batch"
			           " / (micro_batch x dp)) must be a multiple of parallel.pp = %d "
			           "(Narayanan et al. 2021 §2.2.2)", m, p);
		if (v > 1 && p > 0 && !plan->uneven_stages && L % (p * v))
			calc_error(d, f, 0, "parallel.vpp = %d: model.layers = %d is not divisible by pp x vpp "
			           "= %d x %d = %d", v, L, p, v, p * v);
		if (v > 1 && plan->uneven_stages)
			for (int i = 0; i < plan->uneven_stages && i < CALC_MAX_STAGES; i++)
				if (plan->layers_per_stage[i] % v) {
					calc_error(d, f, 0, "parallel.vpp = %d: parallel.layers_per_stage[%d] = %d "
					           "is not divisible by vpp", v, i, plan->layers_per_stage[i]);
					break;
				}
	}
	if (plan->schedule == CALC_SCHED_DUALPIPE) {
		if (p < 2 || p % 2)
			calc_error(d, f, 0, "parallel.pp = %d with parallel.schedule = dualpipe: pp must be "
			           "even (DeepSeek-V3 §3.2.1)", p);
		if (m % 2)
			calc_error(d, f, 0, "parallel.schedule = dualpipe: micro-batches m = %d must be even "
			           "(DeepSeek-V3 §3.2.1)", m);
		else if (m < 2 * p)
			calc_error(d, f, 0, "parallel.schedule = dualpipe: micro-batches m = %d must be at "
			           "least 2 x pp = %d (DualPipe reference implementation)", m, 2 * p);
	}
	return d->nerrors > before ? -1 : 0;
}

/* ======================================================================== */
/* Tables and datasets                                                       */
/* ======================================================================== */

void calc_pipeline_curves(struct calc_table *t, const char *name, const int *ps, int np,
                          const int *vs, int nv, const int *ms, int nm)
{
	char col[48];
	calc_table_init(t, name, "Pipeline bubble fraction vs micro-batches per step");
	calc_table_col(t, "m", "", CALC_D_INT, 0);
	for (int i = 0; i < np; i++)
		for (int j = 0; j < nv; j++) {
			if (vs[j] > 1)
				snprintf(col, sizeof col, "p%d_v%d", ps[i], vs[j]);
			else
				snprintf(col, sizeof col, "p%d_1f1b", ps[i]);
			calc_table_col(t, col, "1", CALC_D_PCT, 2);
		}
	for (int k = 0; k < nm; k++) {
		int r = calc_table_row(t), c = 1;
		calc_table_num(t, r, 0, ms[k]);
		for (int i = 0; i < np; i++)
			for (int j = 0; j < nv; j++) {
				struct calc_pp_closed cf;
				calc_pipeline_closed(vs[j] > 1 ? CALC_SCHED_INTERLEAVED : CALC_SCHED_1F1B, ps[i],
				                     ms[k], vs[j], 1, 1, 1, &cf);
				calc_table_num(t, r, c++, cf.fraction);
			}
	}
	calc_table_note(t, "Bubble fraction = idle share of the step (p-1)/(vm+p-1), the closed form of "
	                "Narayanan et al. 2021 §2.2 (1F1B: v = 1; interleaved: v chunks per stage), at equal "
	                "costs on every stage.  Megatron-LM's interleaved schedule needs m to be a multiple "
	                "of p; the curves show the formula at every m.");
}

void calc_pipeline_timeline(struct calc_table *t, const char *name, const struct calc_pp_result *r,
                            const struct calc_pp_costs *c)
{
	char title[160], op[2] = {0, 0};
	if (c->sched == CALC_SCHED_INTERLEAVED)
		snprintf(title, sizeof title, "interleaved schedule, p = %d, m = %d, v = %d", c->p, c->m,
		         c->v);
	else
		snprintf(title, sizeof title, "%s schedule, p = %d, m = %d", sched_ids[c->sched], c->p,
		         c->m);
	calc_table_init(t, name, title);
	calc_table_col(t, "stage", "", CALC_D_INT, 0);
	calc_table_col(t, "op", "", CALC_D_TEXT, 0);
	calc_table_col(t, "kind", "", CALC_D_INT, 0);
	calc_table_col(t, "mb", "", CALC_D_INT, 0);
	calc_table_col(t, "chunk", "", CALC_D_INT, 0);
	calc_table_col(t, "start", "s", CALC_D_NUM, 6);
	calc_table_col(t, "end", "s", CALC_D_NUM, 6);
	for (int i = 0; i < r->nops; i++) {
		const struct calc_pp_op *o = &r->ops[i];
		int row = calc_table_row(t);
		op[0] = o->op;
		calc_table_num(t, row, 0, o->stage);
		calc_table_str(t, row, 1, op);
		/* kind: 0 forward, 1 input backward, 2 weight gradients, 3 whole backward */
		calc_table_num(t, row, 2, o->op == 'F' ? 0 : o->op == 'W' ? 2 : o->full ? 3 : 1);
		calc_table_num(t, row, 3, o->mb);
		calc_table_num(t, row, 4, o->chunk);
		calc_table_num(t, row, 5, o->start);
		calc_table_num(t, row, 6, o->end);
	}
	calc_table_note(t, "One row per op in each stage's execution order.  kind: 0 forward, 1 backward for "
	                "inputs (B), 2 backward for weights (W), 3 whole backward.  chunk: model chunk "
	                "(interleaved) or direction (DualPipe: 0 enters at stage 0, 1 at stage p-1).  Catalog "
	                "timelines use equal unit costs T_F = T_B = T_W = 1 (backward = 2 forward when not "
	                "split) and no p2p time; the step engine supplies measured costs.");
}
