/*
 * pipeline.c -- the pipeline engine: closed-form bubbles and peak in-flight activations
 * of a schedule (from its row of the schedule table, schedules.c), an event simulator
 * that runs the row's op order op by op, an ASCII Gantt chart, the plan's in-flight
 * activations, parameter copies and schedule checks, and tables
 * (catalog entries: catalog_pipeline.c).
 *
 * The formulas and op orders and their sources (Huang et al. 2019; Narayanan et al.
 * 2021 §2.2; Korthikanti et al. 2022 §4.2.3; Qi et al. 2024; DeepSeek-V3 §3.2.1) are
 * with each row in schedules.c.  The simulator executes the same schedules op by op
 * and must agree with the closed forms where those hold; tests/calc/pipeline.c checks
 * that over a grid of (p, m, v).
 */
#include "bounds.h"
#include "diag.h"
#include "model.h"
#include "plan.h"
#include "table.h"
#include "pipeline.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The row of a schedule id, or NULL. */
static const struct calc_sched *row_of(enum calc_schedule s)
{
	return calc_schedule_at((int)s);
}

/* The names of the vpp schedules, "interleaved" (joined by " or "), into buf. */
static const char *vpp_names(char *buf, size_t n)
{
	buf[0] = 0;
	for (int i = 0; i < calc_schedule_count(); i++)
		if (calc_schedule_at(i)->uses_vpp && strlen(buf) + 40 < n)
			snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? " or " : "",
			         calc_schedule_at(i)->name);
	return buf;
}

/* ======================================================================== */
/* Closed forms: the table's rows at uniform stages                          */
/* ======================================================================== */

double calc_pipeline_inflight_for(enum calc_schedule s, int p, int m, int v, int stage)
{
	const struct calc_sched *row = row_of(s);
	if (!row || p < 1 || m < 1)
		return 0;
	return row->inflight(p, m, v < 1 ? 1 : v, stage);
}

void calc_pipeline_closed(enum calc_schedule s, int p, int m, int v, double tf, double tb,
                          double tw, struct calc_pp_closed *out)
{
	calc_pipeline_closed_flush(s, p, m, v, tf, tb, tw, 0, out);
}

int calc_pipeline_sim_steps(enum calc_schedule s, const struct calc_plan *plan)
{
	const struct calc_sched *row = row_of(s);
	return row && row->flushed && !plan->post_validation ? 1 : 2;
}

void calc_pipeline_closed_flush(enum calc_schedule s, int p, int m, int v, double tf, double tb,
                                double tw, int flush, struct calc_pp_closed *out)
{
	const struct calc_sched *row = row_of(s);

	memset(out, 0, sizeof *out);
	if (v < 1)
		v = 1;
	out->ideal = m * (tf + tb + tw);
	if (!row)
		return;
	out->param_copies = row->param_copies;
	out->inflight_peak = calc_pipeline_inflight_for(s, p, m, v, 0);
	row->closed(p, m, v, tf, tb, tw, flush && row->flushed, out);
	if (out->bubble < 0)
		out->bubble = 0;
	out->overhead = out->ideal > 0 ? out->bubble / out->ideal : 0;
	out->fraction = out->ideal + out->bubble > 0 ? out->bubble / (out->ideal + out->bubble) : 0;
}

/* Ops of stage s for all steps, from the row's generator: the first 'cap' into 'out'
 * (NULL: none), all of them counted. */
static int gen_stage(const struct calc_pp_costs *c, const struct calc_sched *row, int s,
                     struct calc_pp_op *out, int cap)
{
	struct calc_sched_gen g = {out, 0, s, out ? cap : 0};
	int steps = c->steps > 1 ? c->steps : 1;
	for (int k = 0; k < steps; k++)
		row->gen(&g, c->p, c->m, row->uses_vpp ? c->v : 1, s, k * c->m);
	return g.n;
}

/* Every op of the shape, grouped by stage in stage order; their count in *n.  One pass
 * into room for 'hint' ops where hint > 0 (their count when the shape was generated
 * before), else into room for three ops (F, B, W) per micro-batch, chunk and stage of
 * each step, the most a valid schedule has (check_costs() bounds it by SIM_MAX_OPS); a
 * generator that emits more is counted and generated again into room for what it
 * emitted, so that simulate() can say what is wrong. */
static void *scratch_get(int slot, size_t n);
enum { SCR_OPS, SCR_COMPILE, SCR_SPAN, SCR_N };

/* gen_all into this thread's scratch block SCR_OPS (scr = 1; the caller frees nothing)
 * or into a block of its own. */
static struct calc_pp_op *gen_ops(const struct calc_pp_costs *c, const struct calc_sched *row, int hint, int *n,
                                  int scr)
{
	int steps = c->steps > 1 ? c->steps : 1, at = 0;
	int cap = hint > 0 ? hint : 3 * c->m * (row->uses_vpp ? c->v : 1) * c->p * steps;
	size_t room = (size_t)(cap > 0 ? cap : 1) * sizeof(struct calc_pp_op);
	struct calc_pp_op *ops = scr ? scratch_get(SCR_OPS, room) : xmalloc(room);
	for (int s = 0; s < c->p; s++)
		at += gen_stage(c, row, s, ops + (at < cap ? at : cap), at < cap ? cap - at : 0);
	if (at > cap) { /* more than a schedule can have: count and generate again */
		if (!scr)
			free(ops);
		ops = scr ? scratch_get(SCR_OPS, (size_t)at * sizeof *ops) : xmalloc((size_t)at * sizeof *ops);
		for (int s = 0, k = 0; s < c->p; s++)
			k += gen_stage(c, row, s, ops + k, at - k);
	}
	*n = at;
	return at < cap && !scr ? xrealloc(ops, (size_t)(at > 0 ? at : 1) * sizeof *ops) : ops;
}

static struct calc_pp_op *gen_all(const struct calc_pp_costs *c, const struct calc_sched *row, int hint, int *n)
{
	return gen_ops(c, row, hint, n, 0);
}

/*
 * Scratch blocks of the span's first call for a shape, kept per thread and reused by
 * its next calls: the generated ops (SCR_OPS; compile_gen: one stage's), compile()'s
 * working block (SCR_COMPILE) and span_run()'s end times (SCR_SPAN), each written before
 * it is read.  A block of
 * hundreds of kB allocated and freed per call came back from the kernel as new pages
 * each time: of the 1,674 page faults of `trainplan search --plan
 * plans/llama3-405b-h100.ini`, 1,060 were its re-check of the top by the simulator
 * (four new shapes and five replays; perf stat against --no-recheck), and page faults
 * were about a fifth of the command's CPU time (perf record).  With the blocks reused
 * 1,485 are left, most of them the programs the cache keeps (20 bytes an op) and the
 * first shape's blocks.  Freed with the thread (a key's destructor); the process's own
 * thread keeps its blocks to the end.
 */
struct scratch {
	void *p;
	size_t n;
};
static __thread struct scratch scratch[SCR_N];
static __thread int scratch_keyed; /* 1: the key holds this thread's blocks */
static pthread_key_t scratch_key;
static int scratch_key_ok;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_free(void *arg)
{
	struct scratch *sc = arg;
	for (int i = 0; i < SCR_N; i++) {
		free(sc[i].p);
		sc[i].p = NULL;
		sc[i].n = 0;
	}
}

static void scratch_init(void)
{
	scratch_key_ok = pthread_key_create(&scratch_key, scratch_free) == 0;
}

/* This thread's block 'slot' with room for n bytes (its former contents not kept). */
static void *scratch_get(int slot, size_t n)
{
	struct scratch *sc = &scratch[slot];
	if (n < 1)
		n = 1;
	if (sc->n < n) {
		pthread_once(&scratch_once, scratch_init);
		if (!scratch_keyed && scratch_key_ok) /* the first block of this thread */
			scratch_keyed = pthread_setspecific(scratch_key, scratch) == 0;
		free(sc->p);
		sc->p = xmalloc(n);
		sc->n = n;
	}
	return sc->p;
}

/* ======================================================================== */
/* The event simulator                                                       */
/* ======================================================================== */

/* The ops one simulation may have: about 50 bytes each, so at most about 210 MB and a
 * second or two.  The shipped plans have 8 x 192 x 3 = 4,608 (default) to 4 x 2 x 384 x 3
 * = 9,216 ops (tests/report/plans/interleaved.ini); 2^20 micro-batches on 8 stages are
 * 25 M ops (1.27 GB), refused here before any is generated. */
#define SIM_MAX_OPS (1 << 22)

static int check_costs(const struct calc_pp_costs *c, struct calc_diag *d)
{
	const struct calc_sched *row = row_of(c->sched);
	int steps = c->steps > 1 ? c->steps : 1;
	if (!row)
		return calc_error(d, NULL, 0, "pipeline: unknown schedule %d", (int)c->sched);
	if (c->p < 1 || c->p > CALC_MAX_STAGES)
		return calc_error(d, NULL, 0, "pipeline: p = %d stages: allowed 1 .. %d", c->p,
		                  CALC_MAX_STAGES);
	if (c->m < 1)
		return calc_error(d, NULL, 0, "pipeline: m = %d micro-batches: at least 1", c->m);
	if (c->v < 1 || (c->v > 1 && !row->uses_vpp)) {
		char vs[160];
		return calc_error(d, NULL, 0, "pipeline: v = %d chunks with schedule %s: v > 1 needs "
		                  "schedule %s, and v >= 1", c->v, row->name, vpp_names(vs, sizeof vs));
	}
	if (steps > 8)
		return calc_error(d, NULL, 0, "pipeline: steps = %d: allowed 1 .. 8", c->steps);
	/* three ops (F, B, W) per micro-batch, chunk and stage, for each simulated step */
	if ((double)c->m * c->v * c->p * steps * 3 > SIM_MAX_OPS)
		return calc_error(d, NULL, 0, "pipeline: 3 ops x p x m x v x steps = 3 x %d x %d x %d x %d = "
		                  "%.0f ops: at most %d can be simulated (p = parallel.pp, m = "
		                  "training.global_batch / (training.micro_batch x dp), v = parallel.vpp)",
		                  c->p, c->m, c->v, steps, 3.0 * c->m * c->v * c->p * steps, SIM_MAX_OPS);
	if (row->check && row->check(c->p, c->m, c->v, NULL, d))
		return -1;
	if (!(c->p2p >= 0) || !isfinite(c->p2p))
		return calc_error(d, NULL, 0, "pipeline: p2p = %g s: must be >= 0", c->p2p);
	if (c->per_chunk && (c->v < 2 || row->two_way || (long)c->p * c->v > CALC_MAX_STAGES))
		return calc_error(d, NULL, 0, "pipeline: costs per chunk need v >= 2 chunks of a schedule that is not "
		                  "two-way and p x v = %d x %d <= %d virtual stages", c->p, c->v, CALC_MAX_STAGES);
	for (int i = 0; i < (c->per_chunk ? c->p * c->v : c->p); i++)
		if (!(c->tf[i] >= 0 && c->tb[i] >= 0 && c->tw[i] >= 0) || !isfinite(c->tf[i]) ||
		    !isfinite(c->tb[i]) || !isfinite(c->tw[i]))
			return calc_error(d, NULL, 0, "pipeline: stage %d costs tf = %g, tb = %g, tw = %g "
			                  "s: must be finite and >= 0", i, c->tf[i], c->tb[i], c->tw[i]);
	/* No op ends later than every op of every stage run one after another, each after
	 * a transfer: if that bound overflows, start and end times could become inf. */
	if (c->per_chunk) { /* the costliest chunk for every op */
		double most = 0;
		for (int g = 0; g < c->p * c->v; g++)
			if (c->tf[g] + c->tb[g] + c->tw[g] > most)
				most = c->tf[g] + c->tb[g] + c->tw[g];
		if (!isfinite(((double)c->m * c->v * steps) * c->p * (c->v * most + 3 * c->p2p)))
			return calc_error(d, NULL, 0, "pipeline: chunk costs up to %g s, p2p = %g s overflow the timeline "
			                  "of p = %d, m = %d, v = %d", most, c->p2p, c->p, c->m, c->v);
	} else {
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
	int two_way; /* the row's two_way: path stage g of direction 1 runs on rank p-1-g */
	int p, v, L;
};

static int rank_of(const struct path *pa, int g, int dir)
{
	if (pa->two_way)
		return dir ? pa->p - 1 - g : g;
	return g % pa->p;
}

static int path_stage(const struct path *pa, const struct calc_pp_op *o)
{
	if (pa->two_way)
		return o->chunk ? pa->p - 1 - o->stage : o->stage;
	return o->chunk * pa->p + o->stage;
}

static double op_cost(const struct calc_pp_costs *c, const struct path *pa,
                      const struct calc_pp_op *o, int g)
{
	int i = pa->two_way || c->per_chunk ? g : o->stage;
	double v = c->per_chunk ? 1 : pa->v; /* per chunk: the chunk's own time */
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
	int dir = pa->two_way ? o->chunk : 0;
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

/* The per-stage counters of a run, carved from its scratch block. */
struct lanes {
	double *free_at;  /* when each stage is next free [s] */
	double *cnt;      /* activation sets held now, per stage */
	double *peak;     /* their peak, per stage */
	double *wcnt;     /* W (weight-gradient) passes pending now, per stage */
	double *wpeak;    /* their peak, per stage */
	double *step_end; /* end of each step [s] */
};

/* Lay out the doubles of a scratch block 'dv' for n (micro-batch, path stage) pairs on p
 * stages: the forward and backward end times of ss, then the lanes, the step ends
 * last. */
static void carve_lanes(double *dv, int p, struct lanes *ln)
{
	ln->free_at = dv;
	ln->cnt = ln->free_at + p;
	ln->peak = ln->cnt + p;
	ln->wcnt = ln->peak + p;
	ln->wpeak = ln->wcnt + p;
	ln->step_end = ln->wpeak + p;
}

static void carve(double *dv, size_t n, int p, struct simstate *ss, struct lanes *ln)
{
	ss->fend = dv;
	ss->bend = dv + n;
	carve_lanes(dv + 2 * n, p, ln);
}

/* The result's totals from a run's step ends and per-stage peaks: makespan, period (the
 * last step's length, for a run of several steps), idle time, peaks per stage, and the
 * bubble against the busiest stage. */
static void sum_up(struct calc_pp_result *r, const struct lanes *ln, int steps, int p, int v)
{
	const double *step_end = ln->step_end, *peak = ln->peak, *wpeak = ln->wpeak;
	r->makespan = step_end[0];
	r->period = steps > 1 ? step_end[steps - 1] - step_end[steps - 2] : r->makespan;
	for (int s = 0; s < p; s++) {
		r->idle[s] = r->makespan - r->busy[s];
		r->peak_inflight[s] = peak[s] / v;
		r->peak_wpending[s] = wpeak[s];
		if (r->busy[s] > r->ideal)
			r->ideal = r->busy[s];
	}
	if (r->ideal > 0) {
		r->bubble_overhead = (r->period - r->ideal) / r->ideal;
		r->bubble_fraction = (r->period - r->ideal) / r->period;
	}
}

/* calc_pipeline_simulate_ops, and with 'order' (room for nops) the indices of the ops in
 * the order they ran. */
/* Op 'o' (its (micro-batch, path stage) index 'k') has run on its stage for 'dur' and
 * ends at 'end' [s]: the stage's lane, the step's end, the stage's busy time (first step
 * only) and the in-flight counts -- an F holds one activation set more, a B frees it and,
 * unless it is the whole backward, leaves a W pending, a W clears it.  The simulator,
 * its replay of a shape and first_run() run every op through here, inlined in each
 * (callgrind, `trainplan schedule --schedule interleaved --p 64 --v 4 --m 1024 --bench
 * 1`: 116.3 M instructions called, 107.4 M inlined; `trainplan validate` 168.4 M, 163.0 M). */
static inline __attribute__((always_inline)) void
lane_run(const struct calc_pp_costs *c, const struct calc_pp_op *o, size_t k, double dur, double end,
         struct simstate *ss, struct lanes *ln, struct calc_pp_result *r)
{
	int s = o->stage, step = o->mb < c->m ? 0 : o->mb / c->m; /* no division for one step */
	ln->free_at[s] = end;
	if (end > ln->step_end[step])
		ln->step_end[step] = end;
	if (o->mb < c->m)
		r->busy[s] += dur;
	switch (o->op) {
	case 'F':
		ss->fend[k] = end;
		ln->cnt[s] += 1;
		if (ln->cnt[s] > ln->peak[s])
			ln->peak[s] = ln->cnt[s];
		break;
	case 'B':
		ss->bend[k] = end;
		ln->cnt[s] -= 1;
		ss->ws[k] = o->full ? WS_FULL : WS_PENDING;
		if (!o->full) {
			ln->wcnt[s] += 1;
			if (ln->wcnt[s] > ln->wpeak[s])
				ln->wpeak[s] = ln->wcnt[s];
		}
		break;
	default:
		ss->ws[k] = WS_DONE;
		ln->wcnt[s] -= 1;
		break;
	}
}

static int simulate(const struct calc_pp_costs *c, struct calc_pp_op *ops, int nops,
                    struct calc_pp_result *r, struct calc_diag *d, int *order)
{
	const struct calc_sched *row;
	const char *name;
	struct path pa;
	struct simstate ss;
	int steps, p, *off, *pos, *queue, qh = 0, qn = 0, rc = 0, nrun = 0;
	unsigned char *inq;
	struct lanes ln;
	char *blk = NULL, what[96];
	size_t n;

	memset(r, 0, sizeof *r);
	if (check_costs(c, d) < 0)
		return -1;
	row = row_of(c->sched);
	name = row->name;
	steps = c->steps > 1 ? c->steps : 1;
	p = c->p;
	pa.two_way = row->two_way;
	pa.p = p;
	pa.v = row->uses_vpp ? c->v : 1;
	pa.L = pa.v * p;
	ss.nmb = steps * c->m;
	n = (size_t)ss.nmb * pa.L;

	/* One scratch block: end times, W states, per-stage counters and the queue.  The end
	 * times are set to -1 below; the rest starts at zero.  (Zeroing the whole block, the
	 * end times too, was a pass over megabytes per run for the long validation runs.) */
	{
		size_t nd = 2 * n + (size_t)p * 6 + (size_t)steps, ni = (size_t)(p + 1) * 3;
		char *q = blk = xmalloc(nd * sizeof(double) + ni * sizeof(int) + n + (size_t)p + 1);
		double *dv = (double *)(void *)q;
		int *iv = (int *)(void *)(dv + nd);
		memset(dv + 2 * n, 0, (nd - 2 * n) * sizeof(double));
		memset(iv, 0, ni * sizeof(int) + n + (size_t)p + 1);
		carve(dv, n, p, &ss, &ln);
		off = iv;
		pos = iv + (p + 1);
		queue = iv + 2 * (p + 1);
		ss.ws = (unsigned char *)(iv + ni);
		inq = ss.ws + n;
	}
	for (size_t k = 0; k < n; k++)
		ss.fend[k] = ss.bend[k] = -1;
	for (int k = 0; k < steps; k++)
		ln.step_end[k] = 0;

	/* Ops must be grouped by stage in stage order; check ranges as we go. */
	for (int s = 0, i = 0; s <= p; s++) {
		while (i < nops && ops[i].stage < s)
			i++;
		off[s] = i;
	}
	for (int i = 0; i < nops; i++) {
		const struct calc_pp_op *o = &ops[i];
		int chunks = pa.two_way ? 2 : pa.v;
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
			int g = path_stage(&pa, o), dir = pa.two_way ? o->chunk : 0;
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
			o->start = t > ln.free_at[s] ? t : ln.free_at[s];
			o->end = o->start + dur;
			lane_run(c, o, k, dur, o->end, &ss, &ln, r);
			if (o->op == 'F' && g + 1 < pa.L)
				wake = rank_of(&pa, g + 1, dir);
			else if (o->op == 'B' && g > 0)
				wake = rank_of(&pa, g - 1, dir);
			if (order)
				order[nrun++] = pos[s];
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

	sum_up(r, &ln, steps, p, pa.v);
	r->nops = nops;
out:
	free(blk);
	return rc;
}

int calc_pipeline_simulate_ops(const struct calc_pp_costs *c, struct calc_pp_op *ops, int nops,
                               struct calc_pp_result *r, struct calc_diag *d)
{
	return simulate(c, ops, nops, r, d, NULL);
}

/*
 * The order in which the simulator runs a generated schedule's ops depends on the
 * schedule, p, m, v and the number of steps alone, not on the costs: an op waits until
 * the ops it needs have run, whatever their times.  So the order of a shape (and its
 * ops, up to SHAPE_COPY_OPS of them; past that a replay generates them again) is kept
 * after its first simulation, and a later simulation of the same shape (the plan at
 * another network bandwidth, a neighbour re-timed) replays that order, computing every
 * start and end with the same expressions, in the same order per stage, as the event
 * loop: the same numbers, without the queue and the checks.  A new shape's first full
 * simulation finds its order and times its ops in one pass without simulate()'s checks
 * (first_run).  The step engine needs only the makespan and the period
 * (calc_pipeline_simulate_span): a shape also keeps its program (struct prog_op), each
 * op with its inputs, cost, stage and step resolved once, which span_run executes
 * without the timeline and the counters; the span's first call for a shape finds its
 * order and program without simulate()'s times and checks (compile).  An op's cost in
 * the program is named by its path stage (prog_by_g), so that costs per chunk (a layout
 * placed chunk by chunk, calc_pp_costs.per_chunk) run the program as well: the
 * planner's re-check of such a top by the simulator took a replay per candidate, with
 * its timeline and counters, about 26 % of `trainplan search --plan
 * plans/llama3-405b-h100.ini` (perf record).  Both fall back
 * to simulate() for ops that are not a valid schedule.  The shapes are kept for the
 * process (at most SHAPE_MAX entries and SHAPE_OPS ops in all; past that, shapes are
 * simulated as new), shared by its threads.
 */
#define SHAPE_MAX 128
#define SHAPE_OPS (1 << 21)
/* A new shape's ops kept in the cache beside its order [ops].  Past this a replay
 * generates them again: a copy costs the first run more than that costs a replay (the
 * 524,288 ops of interleaved p = 64, v = 4, m = 1,024: a copy of 16.8 MB, 4,100 page
 * faults, against 12.4 M instructions of the generator, callgrind). */
#define SHAPE_COPY_OPS (1 << 15)
/* (A first run that returns no ops hands its own ops to the cache instead: no copy.) */

/*
 * One op of a shape's program (one per op, in the order in which they run, so span_run
 * takes them one after another): what span_run needs to compute its end, and nothing
 * else.  End times live in slots: 1 + k the forward end of
 * (micro-batch, path stage) k (simulate()'s fend[k]), 1 + n + k its backward end
 * (bend[k]), 1 + 2n the ends of the W passes, which no op reads; slot 0 is a zero that
 * stands for "no input".  An input from a neighbouring path stage always crosses stages
 * when p > 1 (g -+ 1 runs on stage s -+ 1 mod p, or s +- 1 in DualPipe's reverse
 * direction), one on the op's own path stage never does, so an op names its inputs by
 * kind: the end of 'cross' is taken plus the p2p time (p > 1); the one on its own path
 * stage (a B's forward, a W's backward, a pair's forward of its B), which blocked() also
 * waits for, is not kept: compile() admits a program only where that op runs before it
 * on its own stage, so that its end is at most the stage's last end, which the op waits
 * for anyway, and the larger of the two is the same number without it (every end is
 * >= +0, every cost >= 0: check_costs).  An F without a previous path stage (and a B, a
 * W) has no input that crosses: its 'cross' is slot 2 + 2n, which holds minus the p2p
 * time, so that with it added the input is 0 as blocked() takes it (x + -x = +0
 * exactly).  Without that input an op is 16 bytes instead of 20, and span_run reads one
 * end less per op (and, in a program without pairs, tests no pair): `trainplan search
 * --threads 1 --plan plans/llama3-405b-h100.ini`, whose re-check of the top compiles 5
 * shapes (77,824 ops) and runs 10 programs (229,376 ops), 52.59 -> 50.78 M instructions
 * (callgrind; span_run 4.43 -> 2.83 M).
 */
struct prog_op {
	int cross;             /* the slot of the end it waits for from another stage */
	int pair;              /* an F&B pair's F: the B's input from another stage (0: none) */
	int out;               /* the slot of its own end */
	unsigned short cost;   /* 4 x cost stage + kind: 0 F, 1 B, 2 whole B, 3 W; the cost
	                          stage is the path stage g where 4 L fits (prog_by_g: then
	                          costs per chunk take the program too), else the stage */
	unsigned char lane;    /* the stage it runs on (CALC_MAX_STAGES = 256) */
	unsigned char step;    /* the step of its micro-batch */
};

struct shape {
	const struct calc_sched *row;
	void (*gen)(struct calc_sched_gen *, int, int, int, int, int);
	unsigned long table_gen; /* calc_schedule_generation: a row registered again at
	                            the same address may order its ops otherwise */
	int p, m, v, steps, nops;
	const struct calc_pp_op *ops; /* as generated; NULL: generated again when wanted */
	const int *order;             /* indices into ops in the order they ran (NULL: kept
	                                 for the span alone) */
	const struct prog_op *prog;   /* nops entries, one per op in the order they ran
	                                 (compile); NULL: not compiled yet */
	int pairs;                    /* 1: an op of prog is an F&B pair (prog_op.pair) */
	int noprog;                   /* 1: compile() refused the ops, simulate() ran them */
};
static struct shape shapes[SHAPE_MAX];
static int nshapes;
static long shape_ops;
static pthread_mutex_t shape_lock = PTHREAD_MUTEX_INITIALIZER;

static void shape_key(const struct calc_pp_costs *c, const struct calc_sched *row, struct shape *k)
{
	memset(k, 0, sizeof *k);
	k->row = row;
	k->gen = row->gen;
	/* built-in rows never change; a registered one holds within its generation */
	k->table_gen = (int)c->sched < CALC_SCHED_N ? 0 : calc_schedule_generation();
	k->p = c->p;
	k->m = c->m;
	k->v = row->uses_vpp ? c->v : 1;
	k->steps = c->steps > 1 ? c->steps : 1;
}

/* 1 when shape k's program names an op's cost by its path stage g (4 x g + kind fits
 * the cost field), which costs per chunk need; else by its stage (a path of more than
 * 16,383 virtual stages; costs per chunk have at most CALC_MAX_STAGES).  A two-way row
 * has L = p, and its path stage was its cost stage before as well. */
static int prog_by_g(const struct shape *k)
{
	return 4L * k->v * k->p <= 65535;
}

/* What a caller needs of a shape's entry: its run order (a replay of the timeline) or
 * its program (the span). */
enum { NEED_ORDER = 1, NEED_PROG = 2 };

static int same_shape(const struct shape *e, const struct shape *k)
{
	return e->row == k->row && e->gen == k->gen && e->table_gen == k->table_gen && e->p == k->p &&
	       e->m == k->m && e->v == k->v && e->steps == k->steps;
}

/* The entry of shape 'k' that has what 'need' names (NULL: none). */
static const struct shape *shape_find(const struct shape *k, int need)
{
	const struct shape *hit = NULL;
	pthread_mutex_lock(&shape_lock);
	for (int i = 0; i < nshapes && !hit; i++) {
		const struct shape *e = &shapes[i];
		if (same_shape(e, k) && (e->order || !(need & NEED_ORDER)) && (e->prog || !(need & NEED_PROG)))
			hit = e;
	}
	pthread_mutex_unlock(&shape_lock);
	return hit; /* entries are written once, before nshapes counts them, and never freed */
}

/* Stage wk to the tail qt of the event loop's queue, a ring of p + 1 places (simulate()
 * and event_order()); inq marks the stages queued. */
static inline __attribute__((always_inline)) void enqueue(int *queue, unsigned char *inq, int *qt, int *qn, int wk,
                                                          int p)
{
	queue[*qt] = wk;
	*qt = *qt < p ? *qt + 1 : 0;
	(*qn)++;
	inq[wk] = 1;
}

/*
 * simulate()'s event loop without its times, shared by compile_way() and compile_gen():
 * it copies each op's entry of 'prog' (the ops of stage st at off[st] .. off[st + 1],
 * 'wake' the stage each op wakes) to 'run' as it runs them, and returns how many ran (a
 * cycle of waits leaves some).  An op runs once done[] holds its input that crosses
 * and, with 'pairs' (a constant at each call, so the other load is compiled away), the
 * input of the B it is paired with.  A stage is marked queued (inq) while it runs, so
 * that its own ops do not queue it again; the queue is a ring of p + 1 places.
 */
static inline __attribute__((always_inline)) int event_order(const struct prog_op *prog, const int *wake,
                                                             const int *off, int *pos, int *queue,
                                                             unsigned char *inq, unsigned char *done, int p,
                                                             struct prog_op *run, int pairs)
{
	int qh = 0, qt = 0, qn, nrun = 0;
	for (int st = 0; st < p; st++) {
		pos[st] = off[st];
		queue[qt++] = st;
		inq[st] = 1;
	}
	qn = qt;
	while (qn > 0) { /* head qh, tail qt */
		int st = queue[qh], end = off[st + 1], i;
		qh = qh < p ? qh + 1 : 0;
		qn--;
		for (i = pos[st]; i < end; i++) {
			const struct prog_op *q = &prog[i];
			int wk = wake[i];
			if (!(pairs ? done[q->cross] & done[q->pair] : done[q->cross]))
				break;
			run[nrun++] = *q;
			done[q->out] = 1;
			if (!inq[wk])
				enqueue(queue, inq, &qt, &qn, wk, p);
		}
		pos[st] = i;
		inq[st] = 0;
	}
	return nrun;
}

/*
 * The program of ops 'ops' (nops, as generated for shape 'k'; one entry per op, in the
 * order in which simulate() runs them), without simulate()'s times: the same event loop (a
 * stage runs its ops while their inputs have run, and wakes the stage an F or B feeds),
 * each op's inputs named once, by the slot of the end time it reads (blocked()'s fend
 * and bend), instead of blocked()'s checks.  NULL when the ops are not a complete, valid
 * schedule (an op out of range or repeated, a missing or extra W, an F&B pair without
 * its B, a cycle of waits): then simulate() runs them and says what is wrong.  With
 * 'known' (the order first_run() found for these ops, nops indices into 'ops') the
 * entries are put in that order instead of the event loop's.
 *
 * What it checks, and why that is enough (tests/calc/pipeline.c, test_bad_generators,
 * has a generator for each way to be wrong):
 * - per op: stage in order and in range, micro-batch and chunk in range, op F, B or W
 *   (told apart with its full flag by one switch, which takes a full flag of 0 or 1
 *   only: any other, which simulate() takes as 1, is left to simulate());
 *   a B that repeats a B of its (micro-batch, path stage), or that is whole where a W
 *   was seen; a W that repeats one, or follows a whole B; an op whose input on its own
 *   path stage (a B's forward, a W's backward, a pair's forward of its B, in the same
 *   direction) has not come before it on its stage -- the event loop would wait for
 *   that one forever (a cycle of waits, below), and the program keeps no such input
 *   (struct prog_op).
 * - in all: n forwards and n backwards for the n (micro-batch, path stage) pairs, and
 *   as many W as split backwards.  The backwards are then one per pair (none repeats),
 *   each W belongs to its own split backward (none repeats, none follows a whole one
 *   whichever comes first), so there is one W per split backward.  A repeated F leaves
 *   another pair without one, and that pair's backward is refused (its forward has not
 *   come before it); ops that wait for one another across stages in a cycle end the
 *   event loop with ops left over (a cycle of waits).
 */
static inline __attribute__((always_inline)) struct prog_op *
compile_way(const struct shape *k, const struct calc_pp_op *ops, int nops, const int *known, int two_way,
            int *pairs, int plain)
{
	/* per (micro-batch, path stage): its B seen, its W seen, its B whole, its F seen in
	 * direction 0 (every path of a one-way row) or 1, its B seen in direction 1 */
	enum { HAS_B = 1, HAS_W = 2, FULL = 4, HAS_F0 = 8, HAS_F1 = 16, B_DIR1 = 32 };
	size_t n;
	int p = k->p, m = k->m, steps = k->steps, nmb = steps * m, L = k->v * p, chunks;
	int *off, *pos, *queue, *wake;
	int s = 0, nf = 0, nb = 0, nw = 0, nsplit = 0, by_g = prog_by_g(k), np = 0;
	unsigned char *inq, *done, *has;
	struct prog_op *prog, *run;

	if (plain) /* compile(): k->steps is 1 and prog_by_g(k) holds */
		steps = 1, nmb = m, by_g = 1;
	chunks = two_way ? 2 : k->v;
	n = (size_t)nmb * L;
	/* the program in run order, and one scratch block: the program by op index, then
	 * the stage each op wakes, the event loop's counters and the flags */
	run = xmalloc((size_t)(nops > 0 ? nops : 1) * sizeof *run);
	prog = scratch_get(SCR_COMPILE, (size_t)nops * sizeof *prog +
	                   ((size_t)nops + 3 * ((size_t)p + 1)) * sizeof *wake + (size_t)p + 1 + 3 * n + 3);
	wake = (int *)(void *)(prog + nops); /* the stage an op wakes; its own: none */
	off = wake + nops;   /* the stage's first op, per stage */
	pos = off + p + 1;   /* its next op */
	queue = pos + p + 1; /* the stages to look at */
	inq = (unsigned char *)(queue + p + 1);
	done = inq + p + 1;  /* by slot: its end is known (slots 0 and 2 + 2n: always) */
	has = done + 2 * n + 3; /* by (micro-batch, path stage): HAS_B, HAS_W, FULL */
	memset(inq, 0, (size_t)p + 1 + 3 * n + 3);
	done[0] = done[2 + 2 * n] = 1;
	off[0] = 0;
	/* each op's inputs, output slot, cost, stage, step, and the stage it wakes */
	for (int i = 0; i < nops; i++) {
		const struct calc_pp_op *o = &ops[i];
		struct prog_op *q = &prog[i];
		int st = o->stage, dir = two_way ? o->chunk : 0, g, kind, full;
		unsigned key;
		size_t kk;
		if (st != s) { /* the first op of the next stage with ops */
			if ((unsigned)st >= (unsigned)p || st < s) {
				goto bad;
			}
			while (s < st)
				off[++s] = i;
		}
		if ((unsigned)o->mb >= (unsigned)nmb || (unsigned)o->chunk >= (unsigned)chunks ||
		    (o->pair && (o->op != 'F' || i + 1 >= nops || ops[i + 1].stage != st ||
		                 ops[i + 1].op != 'B'))) {
			goto bad;
		}
		g = two_way ? (dir ? p - 1 - st : st) : o->chunk * p + st; /* path_stage() */
		kk = (size_t)o->mb * L + g;
		memset(q, 0, sizeof *q);
		q->cross = (int)(2 + 2 * n);
		wake[i] = st;
		/* blocked(): what it waits for; slots 1 + kk: fend[kk], 1 + n + kk: bend[kk];
		 * the stage of path stage g -+ 1: rank_of().  What it waits for on its own path
		 * stage (blocked()'s other input) must have come before it on its stage (the
		 * ops are grouped by stage, and (micro-batch, path stage) and direction name
		 * the stage): an op that waits for one after it on its own stage never runs,
		 * and simulate() says so; the program keeps no such input (struct prog_op) */
		key = (unsigned char)o->op | (unsigned)(unsigned char)o->full << 8;
		switch (key) { /* op and full at once */
		case 'F':
		case 'F' | 1 << 8:
			if (g > 0)
				q->cross = (int)kk; /* fend[kk - 1] */
			if (g + 1 < L)
				wake[i] = two_way ? (dir ? st - 1 : st + 1) : st + 1 < p ? st + 1 : 0;
			q->out = (int)(1 + kk);
			has[kk] |= (unsigned char)(HAS_F0 << dir);
			kind = 0;
			nf++;
			break;
		case 'B':
		case 'B' | 1 << 8: /* the whole backward */
			full = key >> 8;
			if ((has[kk] & (HAS_B | (full ? HAS_W : 0))) || !(has[kk] & (HAS_F0 << dir))) {
				goto bad;
			}
			has[kk] |= (unsigned char)(HAS_B | (full ? FULL : 0) | (dir ? B_DIR1 : 0));
			if (g < L - 1)
				q->cross = (int)(1 + n + kk + 1);
			if (g > 0)
				wake[i] = two_way ? (dir ? st + 1 : st - 1) : st > 0 ? st - 1 : p - 1;
			q->out = (int)(1 + n + kk);
			kind = 1 + full;
			nb++;
			nsplit += !full;
			break;
		case 'W':
		case 'W' | 1 << 8:
			if ((has[kk] & (HAS_W | FULL | HAS_B | B_DIR1)) != (HAS_B | (dir ? B_DIR1 : 0))) {
				goto bad;
			}
			has[kk] |= HAS_W;
			q->out = (int)(1 + 2 * n); /* read by no op */
			kind = 3;
			nw++;
			break;
		default:
			goto bad;
		}
		if (o->pair) { /* the B after it: both inputs in */
			const struct calc_pp_op *b = o + 1;
			int g2 = two_way ? (b->chunk ? p - 1 - st : st) : b->chunk * p + st;
			size_t k2 = (size_t)b->mb * L + g2;
			if ((unsigned)b->mb >= (unsigned)nmb || (unsigned)b->chunk >= (unsigned)chunks ||
			    !(has[k2] & (HAS_F0 << (two_way ? b->chunk : 0)))) {
				goto bad; /* (the B itself is checked as the next op) */
			}
			if (g2 < L - 1)
				q->pair = (int)(1 + n + k2 + 1);
			np = 1;
		}
		q->cost = (unsigned short)(4 * (by_g ? g : st) + kind);
		q->lane = (unsigned char)st;
		q->step = (unsigned char)(steps > 1 ? o->mb / m : 0);
	}
	if ((size_t)nf != n || (size_t)nb != n || nw != nsplit)
		goto bad;
	while (s < p)
		off[++s] = nops;
	*pairs = np;

	if (known) { /* the order found before */
		for (int j = 0; j < nops; j++)
			run[j] = prog[known[j]];
		return run;
	}
	if (event_order(prog, wake, off, pos, queue, inq, done, p, run, 1) == nops)
		return run;
	free(run); /* a cycle of waits */
	return NULL;
bad:
	free(run);
	return NULL;
}

/* compile_way for the row's kind of path and for an order known or not, inlined once
 * for each so that the compiler drops the other kind's selects from the loops (about 13
 * instructions an op less).
 * Measured with callgrind on `build/trainplan validate` (405,782 ops compiled, 44.7 M
 * instructions here) and found dearer: the span's ops generated straight into the
 * compiler through a sink in struct calc_sched_gen, a call per op (+12 M: the call and
 * the compiler's state reloaded per op cost more than writing and reading the op); each
 * op read where the event loop comes to it instead of in a pass before it (+6 M: an op
 * that waits is read again, and the loop keeps fewer values in registers); the pair flag
 * in the switch as well (+1.5 M).  The common shape -- a one-way row, one step, costs
 * named by path stage (prog_by_g) -- has copies of its own ('plain': steps, micro-batches
 * and the cost's stage known to the compiler, the same fields): `trainplan search
 * --threads 1 --plan plans/llama3-405b-h100.ini` 49.25 -> 48.63 M instructions, its 5
 * shapes' compile 8.45 -> 7.83 M (callgrind); also tried and not kept, the event loop
 * walking the ops by pointer (+0.26 M). */
static struct prog_op *compile(const struct shape *k, const struct calc_pp_op *ops, int nops,
                               const int *known, int *pairs)
{
	if (!k->row->two_way && k->steps == 1 && prog_by_g(k)) /* one step, costs by path stage */
		return known ? compile_way(k, ops, nops, known, 0, pairs, 1) : compile_way(k, ops, nops, NULL, 0, pairs, 1);
	if (!known)
		return k->row->two_way ? compile_way(k, ops, nops, NULL, 1, pairs, 0)
		                       : compile_way(k, ops, nops, NULL, 0, pairs, 0);
	return k->row->two_way ? compile_way(k, ops, nops, known, 1, pairs, 0)
	                       : compile_way(k, ops, nops, known, 0, pairs, 0);
}

/*
 * compile() of a new shape of the common kind -- a one-way row, one step, costs by path
 * stage (compile()'s 'plain') -- straight from the row's generator: the span's first call
 * for a shape (calc_pipeline_simulate_span).  The count of the ops into *nout; NULL
 * where compile() refuses them.  It keeps compile_way()'s program and verdict: the ops
 * are the generator's, stage after stage, as gen_ops() lays them out, and each is decoded
 * case by case as compile_way() decodes it (the same checks at the same op: out of range,
 * a backward without its forward or repeated, a W without its split backward or repeated;
 * the counts in all; a cycle of waits), into the same slots, costs, lanes and wakes, and
 * run through the same event loop.  What differs is where the work happens:
 * - each stage's ops are generated into a block of one stage (SCR_OPS: 3 m v ops, 48 kB
 *   for the 405B plan's largest shape, which stays in the cache) and decoded from
 *   there, instead of the whole shape's ops (32 bytes an op, 1 MB there) written to
 *   memory and read back; a stage's run of ops is its own, so no stage field is
 *   compared to find where a stage begins;
 * - no op carries an F&B pair's second input, so the event loop tests one input;
 * - a function of its own (noinline): inlined into calc_pipeline_simulate_span the
 *   loops kept their counters and arrays on the stack (0.35 M instructions more).
 * Anything else -- an op of another stage in a stage's run (a generator that writes its
 * ops itself), an F&B pair, more than 3 m v ops on a stage (an F, a B and a W of each
 * of its (micro-batch, chunk): a stage with more repeats one, and compile_way() refuses
 * that as a whole too) -- goes to compile() with the whole shape's ops generated as
 * before, which then answers.  Measured (callgrind, `trainplan search --threads 1 --plan
 * plans/llama3-405b-h100.ini`, whose re-check of the top compiles 5 shapes, 77,824 ops):
 * the span's first calls 9.90 -> 8.76 M instructions (the generator's 1.90 M included
 * both ways), the command 45.92 -> 44.78 M; the heap's 2 MiB pages the command touches 3
 * -> 2 (thp_fault_alloc of /proc/vmstat over 20 runs: 61 -> 40).  Tried and not kept:
 * the counts of each kind in an array indexed by the kind (+0.19 M); compile_way()
 * itself fed stage by stage (+0.06 M).
 */
static __attribute__((noinline)) struct prog_op *
compile_gen(const struct shape *k, const struct calc_pp_costs *c, int *nout, int *pairs)
{
	enum { HAS_B = 1, HAS_W = 2, FULL = 4, HAS_F0 = 8 }; /* compile_way()'s flags */
	int p = k->p, m = k->m, v = k->v, L = v * p, scap = 3 * m * v, i = 0, nf = 0, nb = 0, nw = 0, nsplit = 0;
	int *off, *pos, *queue, *wake;
	size_t n = (size_t)m * L, cap = 3 * n;
	int none = (int)(2 + 2 * n), wslot = (int)(1 + 2 * n); /* no input that crosses; the W's end */
	unsigned char *inq, *done, *has;
	struct calc_pp_op *sbuf;
	struct prog_op *prog, *run;

	sbuf = scratch_get(SCR_OPS, (size_t)scap * sizeof *sbuf);
	/* one block: the program by op index (room for 3 n ops), the stage each op wakes,
	 * the event loop's counters, the flags (compile_way()'s, in the same order) */
	prog = scratch_get(SCR_COMPILE, cap * sizeof *prog + (cap + 3 * ((size_t)p + 1)) * sizeof *wake +
	                                    (size_t)p + 1 + 3 * n + 3);
	wake = (int *)(void *)(prog + cap);
	off = wake + cap;
	pos = off + p + 1;
	queue = pos + p + 1;
	inq = (unsigned char *)(queue + p + 1);
	done = inq + p + 1;
	has = done + 2 * n + 3;
	memset(inq, 0, (size_t)p + 1 + 3 * n + 3);
	done[0] = done[none] = 1;
	for (int st = 0; st < p; st++) {
		int sn = gen_stage(c, k->row, st, sbuf, scap);
		int fw = st + 1 < p ? st + 1 : 0, bw = st > 0 ? st - 1 : p - 1; /* the stages of g + 1, g - 1 */
		if (sn > scap)
			goto general;
		off[st] = i;
		for (int j = 0; j < sn; j++, i++) {
			const struct calc_pp_op *o = &sbuf[j];
			unsigned mb = (unsigned)o->mb, ch = (unsigned)o->chunk;
			int g, kk, cross = none, out, kind, wk = st;
			if (o->stage != st || o->pair)
				goto general;
			if (mb >= (unsigned)m || ch >= (unsigned)v)
				return NULL;
			g = (int)ch * p + st;
			kk = (int)mb * L + g;
			switch ((unsigned char)o->op | (unsigned)(unsigned char)o->full << 8) {
			case 'F':
			case 'F' | 1 << 8:
				if (g > 0)
					cross = kk;
				if (g + 1 < L)
					wk = fw;
				out = 1 + kk;
				has[kk] |= HAS_F0;
				kind = 0;
				nf++;
				break;
			case 'B':
				if ((has[kk] & HAS_B) || !(has[kk] & HAS_F0))
					return NULL;
				has[kk] |= HAS_B;
				kind = 1;
				nsplit++;
				goto back;
			case 'B' | 1 << 8: /* the whole backward */
				if ((has[kk] & (HAS_B | HAS_W)) || !(has[kk] & HAS_F0))
					return NULL;
				has[kk] |= HAS_B | FULL;
				kind = 2;
			back:
				if (g < L - 1)
					cross = (int)(1 + n) + kk + 1;
				if (g > 0)
					wk = bw;
				out = (int)(1 + n) + kk;
				nb++;
				break;
			case 'W':
			case 'W' | 1 << 8:
				if ((has[kk] & (HAS_W | FULL | HAS_B)) != HAS_B)
					return NULL;
				has[kk] |= HAS_W;
				out = wslot;
				kind = 3;
				nw++;
				break;
			default:
				return NULL;
			}
			prog[i] = (struct prog_op){.cross = cross, .out = out, .cost = (unsigned short)(4 * g + kind),
			                           .lane = (unsigned char)st};
			wake[i] = wk;
		}
	}
	if ((size_t)nf != n || (size_t)nb != n || nw != nsplit)
		return NULL;
	off[p] = i;
	*nout = i;
	*pairs = 0;
	run = xmalloc((size_t)(i > 0 ? i : 1) * sizeof *run);
	if (event_order(prog, wake, off, pos, queue, inq, done, p, run, 0) == i) /* no pairs */
		return run;
	free(run); /* a cycle of waits */
	return NULL;
general: /* compile() of the whole shape's ops, as before */
	{
		const struct calc_pp_op *all = gen_ops(c, k->row, 0, nout, 1);
		return compile(k, all, *nout, NULL, pairs);
	}
}

/*
 * The first simulation of a new shape: compile()'s checks and event loop, which find the
 * order in which the ops run, with each op timed as it runs, as replay() times it (the
 * same expressions in the same order per stage: the same bits), so that the first run
 * needs no program and no second pass.  Fills the start and end of 'ops' in place, r's
 * figures and 'order' (room for nops), and returns 0; -1 where compile() would refuse
 * the ops (then simulate() runs them and says what is wrong).
 *
 * Measured on interleaved p = 64, v = 4, m = 1,024 (524,288 ops, `trainplan schedule
 * --bench 1`): compiling the program (two arrays of 20 bytes an op) and replaying into a
 * copy of the ops (32 bytes an op) made the whole command touch 61 MB, 15,812 page
 * faults, about two thirds of its time; this touches the ops, the order and the end
 * times alone (5,452 faults; 16.8 MB of them the ops the caller gets).  The program is compiled when the span first asks for the shape
 * (calc_pipeline_simulate_span).  What the loop then waits for is memory:
 * - PREFETCH: the loop takes a few ops of one stage, then those of another, so it reads
 *   the ops in p streams at once, more than the processor's stream prefetcher follows;
 *   each op asks for the one two places on (the next cache line of its stage).
 * - LAYOUT: the end times and flags of (micro-batch mb, path stage g) are kept at
 *   g nmb + mb here, not mb L + g as in simulate(): a stage runs consecutive
 *   micro-batches of one path stage, so their end times share cache lines (on the shape
 *   above 20 % fewer first-level cache read misses, cachegrind).  The index is private
 *   to this loop; lane_run() takes it as given.
 * - ONE SLOT: the forward's and the backward's end of a (micro-batch, path stage) share
 *   one place: the backward's end replaces the forward's when the backward runs, and no
 *   op reads the forward's end after that (the next path stage's forward, the only
 *   other that reads it, has run before: the backward waits for that stage's backward,
 *   which waits for its forward).  The checks allow one backward per pair; a repeated
 *   forward leaves another pair without one, and the loop then ends with ops left over
 *   and is refused, whatever it read.  On the shape above the end times take 2.1 MB
 *   instead of 4.2 (5,452 page faults for the whole command instead of 5,962).
 */
static inline __attribute__((always_inline)) int
first_run_way(const struct shape *k, const struct calc_pp_costs *c, struct calc_pp_op *ops, int nops, int *order,
              struct calc_pp_result *r, int two_way)
{
	enum { F_DONE = 1, B_DONE = 2, HAS_B = 4, HAS_W = 8, FULL = 16 };
	int p = k->p, m = k->m, steps = k->steps, nmb = steps * m, v = k->v, L = v * p;
	int chunks = two_way ? 2 : v, ncost = c->per_chunk ? L : p;
	int *off, *pos, *queue, qh = 0, qt = 0, qn = 0, nrun = 0, s = 0, nf = 0, nb = 0, nw = 0, nsplit = 0;
	double x = p > 1 ? c->p2p : 0, *cost;
	size_t n = (size_t)nmb * L, nd = n + (size_t)p * 6 + (size_t)steps;
	unsigned char *inq, *st8;
	struct simstate ss;
	struct lanes ln;
	char *blk;

	/* one block: end times (ONE SLOT), lanes and costs (doubles), the event loop's
	 * counters, the W states of lane_run() and the flags per (micro-batch, path stage) */
	blk = xmalloc((nd + 4 * (size_t)ncost) * sizeof(double) + 3 * ((size_t)p + 1) * sizeof(int) +
	              (size_t)p + 1 + 2 * n + 1);
	ss.fend = ss.bend = (double *)(void *)blk;
	carve_lanes(ss.fend + n, p, &ln);
	memset(ln.free_at, 0, (nd - n) * sizeof(double));
	cost = (double *)(void *)blk + nd;
	off = (int *)(void *)(cost + 4 * ncost);
	pos = off + p + 1;
	queue = pos + p + 1;
	inq = (unsigned char *)(queue + p + 1);
	ss.ws = inq + p + 1;
	st8 = ss.ws + n; /* F_DONE, B_DONE: its end is known; HAS_B, HAS_W, FULL: seen */
	memset(inq, 0, (size_t)p + 1);
	memset(st8, 0, n + 1);
	if (c->per_chunk)
		for (int g = 0; g < ncost; g++) { /* replay()'s table: op_cost() per virtual stage */
			cost[4 * g] = c->tf[g];
			cost[4 * g + 1] = c->tb[g];
			cost[4 * g + 2] = c->tb[g] + c->tw[g];
			cost[4 * g + 3] = c->tw[g];
		}
	else
		for (int i = 0; i < p; i++) { /* op_cost(): F, B, whole B, W */
			cost[4 * i] = c->tf[i] / v;
			cost[4 * i + 1] = c->tb[i] / v;
			cost[4 * i + 2] = (c->tb[i] + c->tw[i]) / v;
			cost[4 * i + 3] = c->tw[i] / v;
		}

	/* compile()'s checks, op by op and in all */
	off[0] = 0;
	for (int i = 0; i < nops; i++) {
		const struct calc_pp_op *o = &ops[i];
		int st = o->stage, g, full;
		size_t kk;
		if (st != s) {
			if ((unsigned)st >= (unsigned)p || st < s)
				goto bad;
			while (s < st)
				off[++s] = i;
		}
		if ((unsigned)o->mb >= (unsigned)nmb || (unsigned)o->chunk >= (unsigned)chunks ||
		    (o->pair && (o->op != 'F' || i + 1 >= nops || ops[i + 1].stage != st || ops[i + 1].op != 'B')))
			goto bad;
		g = two_way ? (o->chunk ? p - 1 - st : st) : o->chunk * p + st; /* path_stage() */
		kk = (size_t)g * nmb + o->mb; /* see LAYOUT above */
		switch ((unsigned char)o->op | (unsigned)(unsigned char)o->full << 8) {
		case 'F':
		case 'F' | 1 << 8:
			nf++;
			break;
		case 'B':
		case 'B' | 1 << 8:
			full = o->full;
			if (st8[kk] & (HAS_B | (full ? HAS_W : 0)))
				goto bad;
			st8[kk] |= (unsigned char)(HAS_B | (full ? FULL : 0));
			nb++;
			nsplit += !full;
			break;
		case 'W':
		case 'W' | 1 << 8:
			if (st8[kk] & (HAS_W | FULL))
				goto bad;
			st8[kk] |= HAS_W;
			nw++;
			break;
		default:
			goto bad;
		}
	}
	if ((size_t)nf != n || (size_t)nb != n || nw != nsplit)
		goto bad;
	while (s < p)
		off[++s] = nops;

	/* compile()'s event loop; an op runs when the ends it reads are known (blocked()),
	 * and is timed as replay() times it */
	for (int st = 0; st < p; st++) {
		pos[st] = off[st];
		queue[qt++] = st;
		inq[st] = 1;
	}
	qn = qt;
	while (qn > 0) { /* a ring of p + 1 places: head qh, tail qt */
		int st = queue[qh], end = off[st + 1], i;
		qh = qh < p ? qh + 1 : 0;
		qn--;
		for (i = pos[st]; i < end; i++) {
			struct calc_pp_op *o = &ops[i];
			int dir = two_way ? o->chunk : 0, g = two_way ? (dir ? p - 1 - st : st) : o->chunk * p + st;
			if (i + 2 < end) /* see PREFETCH above */
				__builtin_prefetch(o + 2, 1);
			int kind, wk = st;
			size_t kk = (size_t)g * nmb + o->mb;
			double t, dur, start, fin;
			if (o->op == 'F') {
				if (g > 0 && !(st8[kk - nmb] & F_DONE))
					break;
				t = g > 0 ? ss.fend[kk - nmb] + x : 0;
				if (g + 1 < L)
					wk = two_way ? (dir ? st - 1 : st + 1) : st + 1 < p ? st + 1 : 0;
				kind = 0;
			} else if (o->op == 'B') {
				if (!(st8[kk] & F_DONE) || (g < L - 1 && !(st8[kk + nmb] & B_DONE)))
					break;
				t = ss.fend[kk];
				if (g < L - 1) {
					double a = ss.bend[kk + nmb] + x;
					if (a > t)
						t = a;
				}
				if (g > 0)
					wk = two_way ? (dir ? st + 1 : st - 1) : st > 0 ? st - 1 : p - 1;
				kind = o->full ? 2 : 1;
			} else {
				if (!(st8[kk] & B_DONE))
					break;
				t = ss.bend[kk];
				kind = 3;
			}
			if (o->pair) { /* the B after it: both inputs in */
				const struct calc_pp_op *b = o + 1;
				int g2 = two_way ? (b->chunk ? p - 1 - st : st) : b->chunk * p + st;
				size_t k2 = (size_t)g2 * nmb + b->mb;
				double t2;
				if (!(st8[k2] & F_DONE) || (g2 < L - 1 && !(st8[k2 + nmb] & B_DONE)))
					break;
				t2 = ss.fend[k2];
				if (g2 < L - 1) {
					double a = ss.bend[k2 + nmb] + x;
					if (a > t2)
						t2 = a;
				}
				if (t2 > t)
					t = t2;
			}
			dur = cost[4 * (two_way || c->per_chunk ? g : st) + kind];
			start = t > ln.free_at[st] ? t : ln.free_at[st];
			fin = start + dur;
			o->start = start;
			o->end = fin;
			lane_run(c, o, kk, dur, fin, &ss, &ln, r);
			st8[kk] |= kind == 0 ? F_DONE : kind < 3 ? B_DONE : 0;
			order[nrun++] = i;
			if (!inq[wk])
				enqueue(queue, inq, &qt, &qn, wk, p);
		}
		pos[st] = i;
		inq[st] = 0;
	}
	if (nrun != nops)
		goto bad; /* a cycle of waits */
	sum_up(r, &ln, steps, p, v);
	r->nops = nops;
	free(blk);
	return 0;
bad:
	free(blk);
	return -1;
}

/* first_run_way for the row's kind of path, inlined once for each, as compile() does
 * (callgrind, `trainplan schedule --schedule interleaved --p 64 --v 4 --m 1024 --bench
 * 1`: 107.4 M instructions with the kind of path a variable, 100.9 M inlined for each;
 * `trainplan validate` 163.0 M, 159.9 M). */
static int first_run(const struct shape *k, const struct calc_pp_costs *c, struct calc_pp_op *ops, int nops,
                     int *order, struct calc_pp_result *r)
{
	return k->row->two_way ? first_run_way(k, c, ops, nops, order, r, 1) : first_run_way(k, c, ops, nops, order, r, 0);
}

/* Keep 'ops' (NULL: none, generated again when a replay wants them), 'order' (NULL: the
 * shape is kept for the span alone) and 'prog' (NULL: none) for shape 'k', all taken;
 * 'noprog' = 1: compile() refused the ops.  Frees them when an entry of the shape has
 * what they give already or the cache is full. */
static void shape_add(const struct shape *k, struct calc_pp_op *ops, int nops, int *order,
                      struct prog_op *prog, int noprog)
{
	pthread_mutex_lock(&shape_lock);
	if (nshapes < SHAPE_MAX && shape_ops + nops <= SHAPE_OPS) {
		int dup = 0;
		for (int i = 0; i < nshapes; i++)
			dup |= same_shape(&shapes[i], k) && (shapes[i].order || !order) &&
			       (shapes[i].prog || !prog);
		if (!dup) {
			shapes[nshapes] = *k;
			shapes[nshapes].nops = nops;
			shapes[nshapes].ops = ops;
			shapes[nshapes].order = order;
			shapes[nshapes].prog = prog;
			shapes[nshapes].noprog = noprog;
			shape_ops += nops;
			nshapes++;
			ops = NULL;
			order = NULL;
			prog = NULL;
		}
	}
	pthread_mutex_unlock(&shape_lock);
	free(ops);
	free(order);
	free(prog);
}

/* The event loop of simulate() over the ops 'src' of shape 'sh' (as generated) in its
 * recorded order: every dependency has run when an op's turn comes.  'ops' (NULL: none)
 * receives a copy of them with their start and end ('ops' = 'src': in place).  The p2p time is added to every input from
 * a neighbouring path stage when p > 1 (blocked() adds it where rank_of() differs from
 * the op's stage, which is then always), and an op's cost is op_cost()'s quotient,
 * taken from a table of them per stage and kind. */
static void replay(const struct calc_pp_costs *c, const struct shape *sh, const struct calc_pp_op *src,
                   struct calc_pp_op *ops, struct calc_pp_result *r)
{
	const struct calc_sched *row = sh->row;
	struct path pa;
	struct simstate ss;
	int steps = sh->steps, p = c->p;
	struct lanes ln;
	size_t n;
	int ncost;
	double x = p > 1 ? c->p2p : 0, *cost;

	pa.two_way = row->two_way;
	pa.p = p;
	pa.v = sh->v;
	pa.L = pa.v * p;
	ncost = c->per_chunk ? pa.L : p;
	ss.nmb = steps * c->m;
	n = (size_t)ss.nmb * pa.L;
	{
		/* the end times are not cleared: in the recorded order every op runs after the
		 * ops it reads (blocked() let it run only then), so each end time is written
		 * before it is read; the counters and W states start at zero */
		size_t nd = 2 * n + (size_t)p * 6 + (size_t)steps;
		char *q = xmalloc((nd + 4 * (size_t)ncost) * sizeof(double) + n + 1);
		double *dv = (double *)(void *)q;
		memset(dv + 2 * n, 0, (nd - 2 * n) * sizeof(double));
		carve(dv, n, p, &ss, &ln);
		cost = dv + nd;
		ss.ws = (unsigned char *)(cost + 4 * ncost);
		memset(ss.ws, 0, n + 1);
	}
	if (c->per_chunk)
		for (int g = 0; g < ncost; g++) { /* op_cost() per virtual stage: its own time */
			cost[4 * g] = c->tf[g];
			cost[4 * g + 1] = c->tb[g];
			cost[4 * g + 2] = c->tb[g] + c->tw[g];
			cost[4 * g + 3] = c->tw[g];
		}
	else
		for (int i = 0; i < p; i++) { /* op_cost(): F, B, whole B, W */
			cost[4 * i] = c->tf[i] / pa.v;
			cost[4 * i + 1] = c->tb[i] / pa.v;
			cost[4 * i + 2] = (c->tb[i] + c->tw[i]) / pa.v;
			cost[4 * i + 3] = c->tw[i] / pa.v;
		}
	if (ops && ops != src)
		memcpy(ops, src, (size_t)sh->nops * sizeof *ops);
	for (int j = 0; j < sh->nops; j++) {
		const struct calc_pp_op *o = &src[sh->order[j]];
		int s = o->stage, g = path_stage(&pa, o), kind;
		size_t k = (size_t)o->mb * pa.L + g;
		double t, dur, start, end;
		/* blocked(): the earliest start by the inputs */
		t = 0;
		if (o->op == 'F') {
			if (g > 0)
				t = ss.fend[k - 1] + x;
			kind = 0;
		} else if (o->op == 'B') {
			t = ss.fend[k];
			if (g < pa.L - 1) {
				double a = ss.bend[k + 1] + x;
				if (a > t)
					t = a;
			}
			kind = o->full ? 2 : 1;
		} else {
			t = ss.bend[k];
			kind = 3;
		}
		if (o->pair) { /* the B after it: both inputs in */
			const struct calc_pp_op *b = o + 1;
			int g2 = path_stage(&pa, b);
			size_t k2 = (size_t)b->mb * pa.L + g2;
			double t2 = ss.fend[k2];
			if (g2 < pa.L - 1) {
				double a = ss.bend[k2 + 1] + x;
				if (a > t2)
					t2 = a;
			}
			if (t2 > t)
				t = t2;
		}
		dur = cost[4 * (pa.two_way || c->per_chunk ? g : s) + kind];
		start = t > ln.free_at[s] ? t : ln.free_at[s];
		end = start + dur;
		if (ops) {
			ops[sh->order[j]].start = start;
			ops[sh->order[j]].end = end;
		}
		lane_run(c, o, k, dur, end, &ss, &ln, r);
	}
	sum_up(r, &ln, steps, p, pa.v);
	r->nops = sh->nops;
	free(ss.fend);
}

/* The end of program op q: it starts when its inputs are in (the one from another stage
 * plus the transfer x, an F&B pair's second; the one on its own stage ended before the
 * stage's last op, struct prog_op) and its stage is free, and runs for its cost --
 * blocked()'s and lane_run()'s arithmetic.  'pairs' 0: no op of the program is a pair. */
static inline __attribute__((always_inline)) double prog_end(const struct prog_op *q, const double *e,
                                                             const double *free_at, const double *dur, double x,
                                                             int pairs)
{
	double t = e[q->cross] + x, f = free_at[q->lane];
	if (pairs && q->pair) {
		double b = e[q->pair] + x;
		if (b > t)
			t = b;
	}
	return (t > f ? t : f) + dur[q->cost];
}

/* The makespan and period of shape 'sh' at costs 'c' from its program: the loop of
 * replay() without the timeline, the busy times and the in-flight counts.  Each op's
 * earliest start is the largest of its inputs' ends (plus p2p where they cross), as
 * blocked() takes it, and its end the later of that and its stage's last end plus its
 * cost, op_cost()'s quotient: the same sums of the same numbers, so the same bits (a
 * maximum is exact in any order, and e[0] + 0 = 0 for an input that is not there). */
static void span_run(const struct calc_pp_costs *c, const struct shape *sh, double *makespan,
                     double *period)
{
	const struct prog_op *prog = sh->prog;
	double v = sh->v, x = c->p > 1 ? c->p2p : 0, *e, *dur, *free_at, step_end[8] = {0};
	int p = c->p, nops = sh->nops, L = sh->v * p, ncost = prog_by_g(sh) ? L : p;
	size_t n = (size_t)sh->steps * sh->m * sh->v * p, ns = 2 * n + 3; /* the slots */

	e = scratch_get(SCR_SPAN, (ns + 4 * (size_t)ncost + (size_t)p) * sizeof *e);
	dur = e + ns;
	free_at = dur + 4 * ncost;
	if (c->per_chunk) /* replay()'s table per virtual stage: the chunk's own time */
		for (int g = 0; g < L; g++) {
			dur[4 * g] = c->tf[g];
			dur[4 * g + 1] = c->tb[g];
			dur[4 * g + 2] = c->tb[g] + c->tw[g];
			dur[4 * g + 3] = c->tw[g];
		}
	else
		for (int g = 0; g < ncost; g++) { /* op_cost(): path stage g runs on stage g mod p */
			int i = g % p;
			dur[4 * g] = c->tf[i] / v;
			dur[4 * g + 1] = c->tb[i] / v;
			dur[4 * g + 2] = (c->tb[i] + c->tw[i]) / v;
			dur[4 * g + 3] = c->tw[i] / v;
		}
	for (int i = 0; i < p; i++)
		free_at[i] = 0;
	e[0] = 0;
	e[2 + 2 * n] = -x; /* no input that crosses: -x + x = +0 */
	if (sh->steps == 1) {
		/* one step: its end is the latest end of a stage's last op (each op ends no
		 * earlier than the op before it on its stage) */
		if (sh->pairs)
			for (int j = 0; j < nops; j++)
				e[prog[j].out] = free_at[prog[j].lane] = prog_end(&prog[j], e, free_at, dur, x, 1);
		else
			for (int j = 0; j < nops; j++)
				e[prog[j].out] = free_at[prog[j].lane] = prog_end(&prog[j], e, free_at, dur, x, 0);
		for (int i = 0; i < p; i++)
			if (free_at[i] > step_end[0])
				step_end[0] = free_at[i];
	} else
		for (int j = 0; j < nops; j++) {
			const struct prog_op *q = &prog[j];
			double end = prog_end(q, e, free_at, dur, x, 1);
			e[q->out] = end;
			free_at[q->lane] = end;
			if (end > step_end[q->step])
				step_end[q->step] = end;
		}
	/* sum_up() */
	*makespan = step_end[0];
	*period = sh->steps > 1 ? step_end[sh->steps - 1] - step_end[sh->steps - 2] : *makespan;
}

/* calc_pipeline_simulate; with want_ops = 0 a replay leaves r->ops NULL. */
static int simulate_shape(const struct calc_pp_costs *c, struct calc_pp_result *r, struct calc_diag *d,
                          int want_ops)
{
	struct calc_pp_op *ops;
	const struct calc_sched *row;
	const struct shape *sh;
	struct shape key;
	int n = 0, *order;

	memset(r, 0, sizeof *r);
	if (check_costs(c, d) < 0)
		return -1;
	row = row_of(c->sched);
	shape_key(c, row, &key);
	if ((sh = shape_find(&key, NEED_ORDER))) {
		if (sh->ops) {
			ops = want_ops ? xmalloc((size_t)(sh->nops > 0 ? sh->nops : 1) * sizeof *ops) : NULL;
			replay(c, sh, sh->ops, ops, r);
			r->ops = ops;
			r->nops = sh->nops;
			return 0;
		}
		ops = gen_all(c, row, sh->nops, &n); /* the same generator at the same shape: the same ops */
		if (n == sh->nops) {
			replay(c, sh, ops, ops, r);
			if (!want_ops) {
				free(ops);
				ops = NULL;
			}
			r->ops = ops;
			r->nops = n;
			return 0;
		}
		free(ops);
		memset(r, 0, sizeof *r);
	}
	ops = gen_all(c, row, 0, &n);
	order = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *order);
	if (first_run(&key, c, ops, n, order, r) == 0) { /* the order without simulate()'s checks */
		struct calc_pp_op *copy = NULL;
		if (n <= SHAPE_COPY_OPS && !want_ops) { /* the caller keeps none: the cache takes these */
			copy = ops;
			ops = NULL;
		} else if (n <= SHAPE_COPY_OPS) {
			copy = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *copy);
			memcpy(copy, ops, (size_t)n * sizeof *copy);
		}
		key.nops = n;
		shape_add(&key, copy, n, order, NULL, 0);
		if (!want_ops) {
			free(ops);
			ops = NULL;
		}
		r->ops = ops;
		r->nops = n;
		return 0;
	}
	if (simulate(c, ops, n, r, d, order) < 0) {
		free(order);
		free(ops);
		return -1;
	}
	{
		struct calc_pp_op *copy = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *copy);
		memcpy(copy, ops, (size_t)n * sizeof *copy);
		shape_add(&key, copy, n, order, NULL, 1);
	}
	r->ops = ops;
	r->nops = n;
	return 0;
}

int calc_pipeline_simulate(const struct calc_pp_costs *c, struct calc_pp_result *r,
                           struct calc_diag *d)
{
	return simulate_shape(c, r, d, 1);
}

int calc_pipeline_simulate_times(const struct calc_pp_costs *c, struct calc_pp_result *r,
                                 struct calc_diag *d)
{
	return simulate_shape(c, r, d, 0);
}

int calc_pipeline_simulate_span(const struct calc_pp_costs *c, double *makespan, double *period,
                                struct calc_diag *d)
{
	struct calc_pp_result r;
	const struct shape *sh;
	struct shape key;

	*makespan = *period = 0;
	if (check_costs(c, d) < 0)
		return -1;
	shape_key(c, row_of(c->sched), &key);
	/* costs per chunk (at most CALC_MAX_STAGES virtual stages) take the program too: it
	 * names an op's cost by its path stage (prog_by_g) */
	if ((sh = shape_find(&key, NEED_PROG))) {
		span_run(c, sh, makespan, period);
		return 0;
	}
	if (!((sh = shape_find(&key, NEED_ORDER)) && sh->noprog)) {
		/* a shape without a program: its order (found by a full simulation before, or
		 * now by compile's event loop) and program without simulate()'s checks */
		const struct calc_pp_op *ops = sh ? sh->ops : NULL;
		struct prog_op *prog;
		int n = sh ? sh->nops : 0;
		if (!sh && !key.row->two_way && key.steps == 1 && prog_by_g(&key)) /* compile()'s 'plain' */
			prog = compile_gen(&key, c, &n, &key.pairs);
		else {
			if (!ops) /* the span keeps none: a full result generates them again */
				ops = gen_ops(c, key.row, n, &n, 1);
			prog = compile(&key, ops, n, sh && n == sh->nops ? sh->order : NULL, &key.pairs);
		}
		if (prog) {
			key.nops = n;
			key.prog = prog;
			span_run(c, &key, makespan, period);
			shape_add(&key, NULL, n, NULL, prog, 0);
			return 0;
		}
	}
	if (simulate_shape(c, &r, d, 0) < 0) {
		calc_pp_result_free(&r);
		return -1;
	}
	*makespan = r.makespan;
	*period = r.period;
	calc_pp_result_free(&r);
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

/* The Gantt's time per cell: 'unit' where given, else the shortest op (1 where none has
 * a length), for the chart and for its size alike. */
static double gantt_unit(const struct calc_pp_result *r, double unit)
{
	if (unit > 0)
		return unit;
	for (int i = 0; i < r->nops; i++) {
		double len = r->ops[i].end - r->ops[i].start;
		if (len > 0 && (unit <= 0 || len < unit))
			unit = len;
	}
	return unit > 0 ? unit : 1;
}

double calc_pipeline_gantt_size(const struct calc_pp_result *r, double unit, double *used)
{
	int p = 0, maxmb = 0, width;
	double end = 0;
	char label[16];
	for (int i = 0; i < r->nops; i++) {
		if (r->ops[i].stage + 1 > p)
			p = r->ops[i].stage + 1;
		if (r->ops[i].mb > maxmb)
			maxmb = r->ops[i].mb;
		if (r->ops[i].end > end)
			end = r->ops[i].end;
	}
	unit = gantt_unit(r, unit);
	*used = unit;
	width = 1 + snprintf(label, sizeof label, "%d", maxmb);
	/* each stage's line: "stage NNN |", the cells, "|\n"; then the legend */
	return (double)p * (14 + (end / unit + 1) * width) + 300;
}

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
	unit = gantt_unit(r, unit);
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
	const struct calc_sched *row = row_of(plan->schedule);
	return calc_pipeline_inflight_run(plan, calc_plan_microbatches(plan), row && row->uses_vpp ? plan->vpp : 1, stage);
}

double calc_pipeline_inflight_run(const struct calc_plan *plan, int m, int v, int stage)
{
	int p = plan->pp;
	/* parallel.pp_runtime = torch (docs/references.md §2.17): torch.distributed.pipelining's
	 * ScheduleInterleaved1F1B warms rank i up with (v - 1) x microbatches_per_round +
	 * 2 (p - 1 - i) chunk forwards, capped at m v (get_rank_warmup_ops / _get_warmup_ops in
	 * torch/distributed/pipelining/schedules.py, pytorch/pytorch at 00722e648b74 and its
	 * 2024 versions), microbatches_per_round = m / max(1, m / p) = p for m a multiple of p;
	 * unlike Megatron-LM's interleaved schedule (schedules.c inflight_interleaved) it has no
	 * all-forwards-first case at m = p, the only case where the two counts differ.  Rank i
	 * then holds its warm-up and the steady state's one more forward, each 1/v of the
	 * stage.  The simulated order (gen_interleaved) stays Megatron's. */
	if (plan->pp_runtime == 1 && plan->schedule == CALC_SCHED_INTERLEAVED && v > 1 && p > 1 && m == p &&
	    stage >= 0 && stage < p) {
		double chunks = (double)(v - 1) * p + 2.0 * (p - 1 - stage) + 1;
		return (chunks < (double)m * v ? chunks : (double)m * v) / v;
	}
	return calc_pipeline_inflight_for(plan->schedule, p, m, v, stage);
}

void calc_pipeline_inflight_stages(const struct calc_plan *plan, int m, int v, int n, double *out)
{
	int p = plan->pp;
	const struct calc_sched *row = row_of(plan->schedule);
	if (plan->pp_runtime == 1 && plan->schedule == CALC_SCHED_INTERLEAVED && v > 1 && p > 1 && m == p) {
		for (int i = 0; i < n; i++) /* calc_pipeline_inflight_run's torch count */
			out[i] = calc_pipeline_inflight_run(plan, m, v, i);
		return;
	}
	for (int i = 0; i < n; i++) /* calc_pipeline_inflight_for */
		out[i] = !row || p < 1 || m < 1 ? 0 : row->inflight(p, m, v < 1 ? 1 : v, i);
}

/* The row's copies: DualPipe keeps two (DeepSeek-V3 §3.2.1, Table 2: rank i holds stage i
 * and stage p-1-i); every other schedule one. */
int calc_pipeline_param_copies(const struct calc_plan *plan)
{
	const struct calc_sched *row = row_of(plan->schedule);
	return row ? row->param_copies : 1;
}

/* The conditions every vpp schedule shares (Narayanan et al. 2021 §2.2.2): at least two
 * chunks and two stages, and stage layers divisible by v.  'layers' reports the layer
 * conditions (after the row's own check), else the chunk and stage counts. */
static void check_vpp(const struct calc_sched_plan *sp, const struct calc_sched *row, int layers,
                      struct calc_diag *d)
{
	const struct calc_plan *plan = sp->plan;
	int p = plan->pp, v = plan->vpp, L = plan->model.layers;

	if (!layers) {
		if (v < 2)
			calc_sched_plan_error(sp, d, "schedule vpp", "parallel.schedule = %s needs parallel.vpp "
			                ">= 2 (vpp = %d); use schedule = %s for one chunk", row->name, v,
			                calc_schedule_name(calc_schedule_plain()));
		if (p < 2)
			calc_sched_plan_error(sp, d, "schedule pp", "parallel.schedule = %s needs parallel.pp "
			                ">= 2 (pp = %d)", row->name, p);
		return;
	}
	if (calc_plan_has_layout(plan))
		return; /* the layout keys' own rules (model.c calc_layout_chunks, checked by plan.c) */
	if (v > 1 && p > 0 && !plan->uneven_stages && L % (p * v))
		calc_sched_plan_error(sp, d, "vpp pp model.layers", "parallel.vpp = %d: model.layers = %d "
		                "is not divisible by pp x vpp = %d x %d = %d", v, L, p, v, p * v);
	if (v > 1 && plan->uneven_stages)
		for (int i = 0; i < plan->uneven_stages && i < CALC_MAX_STAGES; i++)
			if (plan->layers_per_stage[i] % v) {
				calc_sched_plan_error(sp, d, "vpp layers_per_stage", "parallel.vpp = %d: "
				                "parallel.layers_per_stage[%d] = %d is not divisible by vpp",
				                v, i, plan->layers_per_stage[i]);
				break;
			}
}

int calc_pipeline_check(const struct calc_plan *plan,
                        const char *(*origin)(const struct calc_plan *plan, const char *keys, int *line),
                        struct calc_diag *d)
{
	const struct calc_sched_plan where = {plan, origin}, *sp = &where;
	const struct calc_sched *row = row_of(plan->schedule);
	int v = plan->vpp, before = d->nerrors;

	if (!row)
		return calc_sched_plan_error(sp, d, "schedule", "parallel.schedule: unknown schedule %d",
		                       (int)plan->schedule);
	if (v < 1)
		calc_sched_plan_error(sp, d, "vpp", "parallel.vpp = %d: allowed 1 .. 64", v);
	if (v > 1 && !row->uses_vpp) {
		char vs[160];
		calc_sched_plan_error(sp, d, "vpp schedule", "parallel.vpp = %d needs parallel.schedule = "
		                "%s (schedule is %s); use vpp = 1 with %s", v, vpp_names(vs, sizeof vs),
		                row->name, row->name);
	}
	if (row->uses_vpp)
		check_vpp(sp, row, 0, d);
	if (row->check)
		row->check(plan->pp, calc_plan_microbatches(plan), v, sp, d);
	if (row->uses_vpp)
		check_vpp(sp, row, 1, d);
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
	const struct calc_sched *row = row_of(c->sched);
	if (row && row->uses_vpp)
		snprintf(title, sizeof title, "%s schedule, p = %d, m = %d, v = %d", row->name, c->p, c->m,
		         c->v);
	else
		snprintf(title, sizeof title, "%s schedule, p = %d, m = %d", row ? row->name : "?", c->p,
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
