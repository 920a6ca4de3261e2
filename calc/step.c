/*
 * step.c -- FLOPs, op-level times, step time, MFU/HFU, run time and cost.
 *
 * FLOPs: Korthikanti et al. 2022 App. A Eq. 7 (model FLOPs); hardware FLOPs either as
 * executed (efficiency.hfu_count = executed, the default) or by Korthikanti's Eq. 8
 * (selective recomputation) and Narayanan et al. 2021 Eq. 3 (full recomputation), with
 * the per-layer terms of Narayanan's appendix (QKV, QK^T, attention x V, out-proj, MLP)
 * generalised to GQA and SwiGLU.  MFU / HFU as PaLM (Chowdhery et al. 2022 §4) and
 * Korthikanti 2022 §6.3 define them, against the dense BF16 tensor peak (REFERENCES.md
 * §6; Llama 3 reports "BF16 MFU"), also for FP8 recipes, which get a second, named
 * figure against the FP8 peak.
 *
 * Op times: each GEMM and the attention core is a roofline, max(FLOPs / (peak * eff),
 * bytes / HBM bandwidth), GEMMs with tile and wave quantization (NVIDIA Deep Learning
 * Performance Guide); norms, residual adds, dropout and the activation function are
 * memory bound (bytes / HBM bandwidth).  The backward splits into B (input gradients)
 * and W (weight gradients) as Qi et al. 2024 §2 do.
 *
 * Step time: the pipeline makespan of those op times plus the exposed TP/CP collectives
 * on the critical path (calc_pipeline_simulate, or the closed-form bubbles of
 * REFERENCES.md §3 in calc_step_fast), plus the exposed part of the DP reduction, plus
 * the optimizer step.  Run time for a token budget as Narayanan 2021 Eq. 4 does it:
 * steps = tokens / (B s), time = steps * step time.
 */
#include "calc.h"
#include "step.h"
#include "search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ FLOPs */

static double head_dim(const struct calc_model *m)
{
	return m->head_dim > 0 ? m->head_dim : m->heads > 0 ? (double)m->hidden / m->heads : m->hidden;
}

/* Forward FLOPs per token of one layer's GEMMs [FLOP/token].  Narayanan 2021 App.:
 * QKV 6h^2, out-proj 2h^2, MLP 16h^2 per token (2 FLOPs per multiply-add); here the
 * K and V projections have kv_heads * head_dim columns (GQA) and SwiGLU has three
 * h x f matrices against GeLU's two. */
static double gemm_flops_token(const struct calc_model *m, int kind)
{
	struct calc_layer_kind kd;
	double h = m->hidden, d = head_dim(m), a = m->heads, f;
	calc_model_kind(m, kind, &kd);
	f = kd.ffn_hidden; /* CALC_LAYER_DENSE: one MLP of width f */
	double kv = m->kv_heads > 0 ? m->kv_heads : a;
	return 2 * h * d * (a + 2 * kv) + 2 * a * d * h + (m->mlp == CALC_MLP_SWIGLU ? 6 : 4) * h * f;
}

/* Forward FLOPs per token of the attention core, QK^T and attention x V over the full
 * s x s square as Narayanan 2021 and Korthikanti 2022 count it (4 s h per token). */
static double attn_flops_token(const struct calc_model *m, double s)
{
	return 4 * s * m->heads * head_dim(m);
}

void calc_flops(const struct calc_plan *plan, struct calc_flops *out)
{
	const struct calc_model *m = &plan->model;
	double s = plan->seq_len, tokens = (double)plan->global_batch * s, L = 0;
	double A = attn_flops_token(m, s), lg = 2.0 * m->hidden * m->vocab, LGA = 0;
	double fwd, extra;
	int count[CALC_MAX_KINDS] = {0};

	/* the layers of every kind: L (G + A) is the sum of n_k (G_k + A) over the kinds (the
	 * attention core A is the same in every kind) */
	if (m->seq.nruns > 0)
		for (int j = 0; j < m->seq.nruns; j++)
			count[m->seq.run_kind[j]] += m->seq.run_count[j];
	else
		count[0] = m->layers;
	for (int k = 0; k < calc_model_nkinds(m); k++) {
		LGA += count[k] * (gemm_flops_token(m, k) + A);
		L += count[k];
	}
	fwd = LGA + lg;

	/* Model FLOPs: forward + backward (2x forward) = 3x forward, Korthikanti Eq. 7:
	 * 72 B L s h^2 (1 + s/(6h) + V/(12 h L)) for the GPT shape. */
	out->per_token = 3 * fwd;
	out->model = out->per_token * tokens;
	out->attn_share = 3 * L * A / out->per_token;
	if (plan->hfu_count == CALC_HFU_KOR22) {
		if (plan->recompute == CALC_RC_FULL)
			/* Narayanan Eq. 3: one more forward of every layer, not of the logits:
			 * 96 B s l h^2 (1 + s/(6h) + V/(16 l h)). */
			extra = LGA;
		else if (plan->recompute == CALC_RC_SELECTIVE || plan->flash_attention)
			/* Korthikanti Eq. 8: 72 B L s h^2 (1 + s/(3h) + V/(12hL)), i.e. the
			 * attention term s/(6h) counted twice more: 3 A per layer over Eq. 7,
			 * charged to FlashAttention's recomputation too. */
			extra = 3 * L * A;
		else
			extra = 0;
	} else {
		/* Executed: count the operations that run again.  Full recomputation re-runs
		 * the forward of every layer, attention included (G + A; Narayanan Eq. 3);
		 * selective recomputation without FlashAttention re-runs the attention core's
		 * forward, QK^T and attention x V (A; Korthikanti 2022 §5); FlashAttention's
		 * backward recomputes the scores QK^T (A/2; Dao 2023 §3.1.2), also after a
		 * full recomputation, and makes selective recomputation moot. */
		extra = 0;
		if (plan->recompute == CALC_RC_FULL)
			extra += LGA;
		if (plan->flash_attention)
			extra += L * A / 2;
		else if (plan->recompute == CALC_RC_SELECTIVE)
			extra += L * A;
	}
	out->hardware = out->model + extra * tokens;
}

/* ------------------------------------------------------------------ op times */

/* Roofline time of an (M x K) * (K x N) GEMM with 'eb'-byte operands [s] on a GPU of
 * 'sms' SMs.  Tile and wave quantization (NVIDIA Deep Learning Performance Guide,
 * "Matrix Multiplication Background"): the output is cut into ceil(M/128) ceil(N/128)
 * tiles, a partial tile costs a whole one, and the tiles run in waves of one per SM,
 * a partial last wave costing a whole one.  128 x 128 is a tile cuBLAS uses on A100
 * and H100 (the guide's examples also use 256 x 128, which penalises thin GEMMs more
 * than the runs of trainplan validate show).  With fewer tiles than SMs the wave
 * term is not charged: split-K kernels spread K over the idle SMs (derived, UNVERIFIED
 * as a rule).  The compute time is divided by the used share; large GEMMs lose a few
 * per cent, thin ones (few tokens per GPU under large CP, narrow TP shards) more.
 * 'peak' is already scaled by efficiency.gemm. */
#define TILE 128.0
static double gemm_time(double M, double N, double K, double peak, double hbm, double eb, int sms)
{
	double tc = 2 * M * N * K / peak, tm = (M * K + K * N + M * N) * eb / hbm;
	if (sms > 0 && M > 0 && N > 0) {
		double tiles = ceil(M / TILE) * ceil(N / TILE), slots = tiles < sms ? tiles : ceil(tiles / sms) * sms;
		tc /= M * N / (slots * TILE * TILE);
	}
	return tc > tm ? tc : tm;
}

static double gemm_peak(const struct calc_plan *p)
{
	if (p->recipe && p->recipe->fp8_compute && p->gpu.fp8_flops > 0)
		return p->gpu.fp8_flops;
	return p->gpu.bf16_flops;
}

void calc_layer_time(const struct calc_plan *plan, const struct calc_comm *cm, struct calc_layer_time *o)
{
	calc_layer_time_kind(plan, cm, 0, o);
}

void calc_layer_time_kind(const struct calc_plan *plan, const struct calc_comm *cm, int kind,
                          struct calc_layer_time *o)
{
	const struct calc_model *m = &plan->model;
	struct calc_layer_kind kd;
	double t = plan->tp > 0 ? plan->tp : 1, cp = plan->cp > 0 ? plan->cp : 1;
	double s = plan->seq_len, T = plan->micro_batch * s / cp; /* tokens per GPU per micro-batch */
	double h = m->hidden, d = head_dim(m), a = m->heads, f = (calc_model_kind(m, kind, &kd), kd.ffn_hidden);
	double kv = m->kv_heads > 0 ? m->kv_heads : a, kvh = kv / t < 1 ? 1 : kv / t;
	double hbm = plan->gpu.hbm_bw > 0 ? plan->gpu.hbm_bw : 1e12;
	double fp8 = plan->recipe && plan->recipe->fp8_compute && plan->gpu.fp8_flops > 0;
	double peak = gemm_peak(plan) * plan->gemm_eff, eb = fp8 ? 1 : 2;
	double peak16 = plan->gpu.bf16_flops, shard = plan->sp ? t : 1;
	int sms = plan->gpu.sms;
	double drop = m->dropout ? 1 : 0, attn_b, elem_bytes, tpo;

	/* GEMMs of one layer on one TP rank (Megatron's column/row split, Narayanan §2.3). */
	o->gemm = gemm_time(T, d * (a / t + 2 * kvh), h, peak, hbm, eb, sms) /* QKV */
	        + gemm_time(T, h, a * d / t, peak, hbm, eb, sms)                /* out-proj */
	        + gemm_time(T, (m->mlp == CALC_MLP_SWIGLU ? 2 : 1) * f / t, h, peak, hbm, eb, sms) /* up */
	        + gemm_time(T, h, f / t, peak, hbm, eb, sms);                   /* down */

	/* Attention core, in BF16 even in FP8 recipes (DeepSeek-V3 §3.3.1).  Counted FLOPs
	 * 4 (s/cp) s (a/t) d per micro-batch sequence. */
	{
		double fl = 4 * T * s * (a / t) * d;
		if (plan->flash_attention) {
			/* Causal FlashAttention skips the tiles above the diagonal: half the counted
			 * FLOPs; its backward runs 5 matmuls against the forward's 2 (x2.5, it
			 * recomputes QK^T; Dao 2023, FlashAttention-2 §3).  Operand traffic Q, K, V, O. */
			double io = T * 2 * d * (2 * a / t + 2 * kvh) / hbm;
			o->attn = 0.5 * fl / (peak16 * plan->attn_eff) + io;
			attn_b = 2.5 * 0.5 * fl / (peak16 * plan->attn_eff) + 2 * io;
		} else {
			/* Materialised scores: two batched GEMMs over the full square plus the
			 * s^2 traffic of QK^T write, softmax read/write, dropout read/write/mask and
			 * the read by attention x V: 8 + 5 (dropout) bytes per score (Korthikanti
			 * 2022 §4.1 lists the same tensors); the backward moves as much again. */
			double sc = T * (a / t) * s * (8 + 5 * drop) / hbm;
			o->attn = fl / (peak16 * plan->gemm_eff) + sc;
			attn_b = 2 * fl / (peak16 * plan->gemm_eff) + sc;
		}
	}

	/* Memory-bound ops per token: two norms (read + write h, 2 B), two residual adds
	 * (read 2h, write h), two dropouts (read h, write h, 1 B mask), sharded over t with
	 * SP (Korthikanti 2022 §4.2.2); the activation function on f/t (GeLU read + write,
	 * SwiGLU two reads + one write). */
	elem_bytes = (8 * h + 12 * h + drop * 10 * h) / shard +
	             (m->mlp == CALC_MLP_SWIGLU ? 6 : 4) * f / t;
	o->elem = T * elem_bytes / hbm;

	o->f = o->gemm + o->attn + o->elem;
	/* Backward: dgrad and wgrad GEMMs each as much as the forward GEMM (same M, N, K
	 * permuted); elementwise backward reads the saved input and the incoming gradient
	 * and writes the outgoing one: twice the forward traffic (derived). */
	o->b = o->gemm + attn_b + 2 * o->elem;
	o->w = o->gemm;
	if (plan->recompute == CALC_RC_FULL)
		o->recompute = o->f;
	else if (plan->recompute == CALC_RC_SELECTIVE && !plan->flash_attention)
		o->recompute = o->attn; /* Korthikanti 2022 §5: the attention core only */
	else
		o->recompute = 0;

	tpo = plan->tp_overlap < 0 ? 0 : plan->tp_overlap > 1 ? 1 : plan->tp_overlap;
	o->comm_f = (1 - tpo) * (cm->tp_layer_f + cm->cp_layer_f);
	o->comm_b = (1 - tpo) * (cm->tp_layer_b + cm->cp_layer_b);
}

/* ------------------------------------------------------------------ stages */

/* Per micro-batch times of the embedding (first stage) and of the LM head with the
 * loss (last stage): the logits GEMM T x h x V/t (vocabulary-parallel, Megatron) and
 * about 10 bytes per logit of cross-entropy traffic (bf16 write, fp32 read + write).
 * The output head stays in BF16 in FP8 recipes (DeepSeek-V3 §3.3.1 keeps the
 * embedding, output head, attention and norms in higher precision). */
struct ends {
	double first_f, first_b, first_w, last_f, last_b, last_w;
};

static void end_times(const struct calc_plan *plan, struct ends *e)
{
	const struct calc_model *m = &plan->model;
	double t = plan->tp > 0 ? plan->tp : 1, cp = plan->cp > 0 ? plan->cp : 1;
	double T = plan->micro_batch * (double)plan->seq_len / cp, h = m->hidden, V = m->vocab;
	double hbm = plan->gpu.hbm_bw > 0 ? plan->gpu.hbm_bw : 1e12;
	double peak = plan->gpu.bf16_flops * plan->gemm_eff;
	double lg = gemm_time(T, V / t, h, peak, hbm, 2, plan->gpu.sms), ce = T * 10 * V / t / hbm;
	double emb = T * h * 4 / hbm; /* gather the rows: read + write h values of 2 B */

	e->first_f = emb;
	e->first_b = 0;
	e->first_w = emb;
	e->last_f = lg + ce;
	e->last_b = lg + ce;
	e->last_w = lg;
}

/* One stage's per micro-batch costs and the parts the breakdown names. */
struct stage_cost {
	double tf, tb, tw;          /* [s] */
	double recompute, comm;     /* parts of tf + tb [s] */
};

static void stage_cost(const struct calc_plan *plan, const struct calc_layer_time *lt, const struct ends *e,
                       int i, struct stage_cost *o)
{
	struct calc_stage_layers sl;
	int nk = calc_model_nkinds(&plan->model);

	calc_stage_layers(plan, i, &sl);
	/* every layer kind the stage holds, n_k times the op times of one layer of it */
	memset(o, 0, sizeof *o);
	for (int k = 0; k < nk; k++) {
		double n = sl.count[k];
		if (!sl.count[k])
			continue;
		o->tf += n * (lt[k].f + lt[k].comm_f);
		o->tb += n * (lt[k].b + lt[k].recompute + lt[k].comm_b);
		o->tw += n * lt[k].w;
		o->recompute += n * lt[k].recompute;
		o->comm += n * (lt[k].comm_f + lt[k].comm_b);
	}
	if (sl.embedding) {
		o->tf += e->first_f;
		o->tb += e->first_b;
		o->tw += e->first_w;
	}
	if (sl.head) {
		o->tf += e->last_f;
		o->tb += e->last_b;
		o->tw += e->last_w;
	}
}

/* Stage costs into 'c' (may be NULL: the fast path) and the parts of the critical GPU
 * -- the one with the most work per step -- into 'st'.  A GPU runs one stage, except
 * under DualPipe where rank i runs stage i for half the micro-batches and stage p-1-i
 * for the other half (DeepSeek-V3 §3.2.1), so its costs are the pair's mean.  Without
 * 'c' and with an even split only the first GPU (embedding, and under DualPipe also the
 * LM head) and the last (LM head) can be critical.  Returns the critical busy time. */
static double fill_stages(const struct calc_plan *plan, struct calc_step *st, struct calc_pp_costs *c)
{
	const struct calc_layer_time *lt = st->kind_layer;
	struct ends e;
	int p = plan->pp > 0 ? plan->pp : 1, m = calc_plan_microbatches(plan);
	int dual = plan->schedule == CALC_SCHED_DUALPIPE && p > 1;
	int nrank = dual ? (p + 1) / 2 : p, uniform = !c && calc_stage_layers_uniform(plan), heavy = -2;
	double best = -1;

	if (m < 1)
		m = 1;
	end_times(plan, &e);
	if (c)
		for (int i = 0; i < p; i++) {
			struct stage_cost sc;
			stage_cost(plan, lt, &e, i, &sc);
			c->tf[i] = sc.tf;
			c->tb[i] = sc.tb;
			c->tw[i] = sc.tw;
		}
	/* without kinds, of the middle stages the one with the most layers has the most work */
	if (!c && !uniform && !dual)
		heavy = calc_stage_layers_heaviest(plan);
	for (int r = 0; r < nrank; r++) {
		struct stage_cost a, b;
		double busy;
		if (uniform && r > 0 && r < nrank - 1)
			r = nrank - 1; /* the middle GPUs are copies with less work */
		else if (heavy >= -1 && r > 0 && r < nrank - 1 && r != heavy)
			r = heavy > r ? heavy : nrank - 1;
		if (dual && r > 0 && uniform)
			break;
		stage_cost(plan, lt, &e, r, &a);
		if (dual) {
			stage_cost(plan, lt, &e, p - 1 - r, &b);
			a.tf = (a.tf + b.tf) / 2;
			a.tb = (a.tb + b.tb) / 2;
			a.tw = (a.tw + b.tw) / 2;
			a.recompute = (a.recompute + b.recompute) / 2;
			a.comm = (a.comm + b.comm) / 2;
		}
		busy = m * (a.tf + a.tb + a.tw);
		if (busy > best) {
			best = busy;
			st->critical = r;
			st->tf = a.tf;
			st->tb = a.tb;
			st->tw = a.tw;
			st->recompute = m * a.recompute;
			st->tp_comm = m * a.comm;
			st->compute = busy - st->recompute - st->tp_comm;
		}
	}
	return best;
}

/* Closed-form pipeline idle time of the critical stage (REFERENCES.md §3):
 * GPipe / 1F1B (p-1)(F+B+W) (Narayanan 2021 §2.2.1), interleaved (p-1)(F+B+W)/v
 * (§2.2.2), ZB-H1 (p-1)(F+B-W), ZB-H2 (p-1)(F+B-2W) (Qi et al. 2024 Table 2) only
 * with post-validation (§4: no flush between steps, parallel.post_validation);
 * flushed, the last stage cannot start before p-1 forwards have run, so ZB-H2 idles
 * (p-1) max(F, F+B-2W) (derived; the simulator's single step gives the same,
 * tests/calc/step.c),
 * DualPipe (p/2-1)(F&B + B' - 3W) with F&B = F+B+W and B' = B+W (DeepSeek-V3 Table 2);
 * plus one send each way per stage boundary on the fill and drain paths. */
static double closed_bubble(const struct calc_plan *plan, const struct calc_step *st)
{
	int p = plan->pp > 0 ? plan->pp : 1, v = plan->vpp > 0 ? plan->vpp : 1;
	struct calc_pp_closed cf;

	if (p <= 1)
		return 0;
	/* the formulas live in pipeline.c, with the plan's ZB-H2 flush convention */
	calc_pipeline_closed_flush(plan->schedule, p, calc_plan_microbatches(plan), v, st->tf, st->tb, st->tw,
	                           !plan->post_validation, &cf);
	return cf.bubble + 2.0 * (p - 1) * st->comm.p2p;
}

/* Everything after the makespan: DP exposure, optimizer, totals, FLOP rates, run. */
static void finish(const struct calc_plan *plan, struct calc_step *st)
{
	const struct calc_comm_dim *dp = &st->comm.dim[CALC_DIM_DP];
	const struct calc_recipe *r = plan->recipe;
	int m = calc_plan_microbatches(plan), n = calc_plan_gpus(plan), p = plan->pp > 0 ? plan->pp : 1;
	double ov = plan->dp_overlap < 0 ? 0 : plan->dp_overlap > 1 ? 1 : plan->dp_overlap;
	double window, hid, tokens_step = (double)plan->global_batch * plan->seq_len;
	double hbm = plan->gpu.hbm_bw > 0 ? plan->gpu.hbm_bw : 1e12;

	if (m < 1)
		m = 1;
	if (n < 1)
		n = 1;
	/* The gradient reduction of a step can hide behind the backward of the last
	 * micro-batch and the parameter all-gather behind the next forward (Megatron
	 * overlap_grad_reduce / overlap_param_gather).  From ZeRO-2 on every micro-batch
	 * reduce-scatters its gradients (comm.c), each behind its own backward; ZeRO-3
	 * also gathers the weights behind every forward. */
	window = (plan->zero >= 2 ? m : 1) * (st->tb + st->tw) + (plan->zero >= 3 ? m : 1) * st->tf;
	hid = ov * dp->time < window ? ov * dp->time : window;
	st->dp_exposed = dp->time - hid;

	/* Optimizer: one pass over the states the rank updates -- read and write master
	 * weights and moments, read gradients, write weights -- at HBM bandwidth; ZeRO >= 1
	 * updates a 1/(DP x CP) shard (ZeRO §5.1). */
	if (plan->optimizer_time >= 0)
		st->optimizer = plan->optimizer_time;
	else {
		double per = r ? 2 * (calc_recipe_bytes(r, CALC_T_MASTER) + calc_recipe_bytes(r, CALC_T_OPT)) +
		                     calc_recipe_bytes(r, CALC_T_GRAD) + calc_recipe_bytes(r, CALC_T_WEIGHT)
		               : 2 * 12 + 4 + 2;
		double shard = plan->zero >= 1 ? dp->group.size : 1;
		st->optimizer = st->comm.grad_params * per / shard / hbm;
	}
	st->time = st->makespan + st->dp_exposed + st->optimizer;

	{
		/* split the critical GPU's exposed collectives between TP and CP */
		double tp = st->comm.tp_layer_f + st->comm.tp_layer_b, cpc = st->comm.cp_layer_f + st->comm.cp_layer_b;
		double sh = tp + cpc > 0 ? tp / (tp + cpc) : 1;
		st->exposed[CALC_DIM_TP] = st->tp_comm * sh;
		st->exposed[CALC_DIM_CP] = st->tp_comm * (1 - sh);
	}
	st->exposed[CALC_DIM_PP] = p > 1 ? 2.0 * (p - 1) * st->comm.p2p : 0;
	st->exposed[CALC_DIM_DP] = st->dp_exposed;

	calc_flops(plan, &st->flops);
	st->peak = plan->gpu.bf16_flops;
	st->gemm_peak = gemm_peak(plan);
	st->model_tflops = st->flops.model / st->time / n;
	st->hw_tflops = st->flops.hardware / st->time / n;
	st->mfu = st->model_tflops / st->peak;
	st->hfu = st->hw_tflops / st->peak;
	st->mfu_fp8 = st->gemm_peak != st->peak ? st->model_tflops / st->gemm_peak : 0;
	st->tokens_per_s = tokens_step / st->time;
	st->steps = plan->tokens / tokens_step;
	st->run_time = st->steps * st->time;
	st->gpu_hours = st->run_time * n / 3600;
	st->cost = st->gpu_hours * plan->gpu_hour_cost;
}

/* Op times of one layer of every kind; st->layer is kind 0's. */
static void layer_times(const struct calc_plan *plan, struct calc_step *st)
{
	int nk = calc_model_nkinds(&plan->model);
	for (int k = 0; k < nk; k++)
		calc_layer_time_kind(plan, &st->comm, k, &st->kind_layer[k]);
	st->layer = st->kind_layer[0];
}

void calc_step_fast(const struct calc_plan *plan, struct calc_step *st)
{
	double busy;

	calc_comm(plan, &st->comm);
	layer_times(plan, st);
	busy = fill_stages(plan, st, NULL);
	st->bubble = closed_bubble(plan, st);
	st->makespan = busy + st->bubble;
	finish(plan, st);
}

int calc_step(const struct calc_plan *plan, struct calc_step *st, struct calc_diag *d)
{
	struct calc_pp_costs *c;
	struct calc_pp_result res;
	int p = plan->pp > 0 ? plan->pp : 1;
	double busy;

	memset(st, 0, sizeof *st);
	if (plan->recipe && !(calc_recipe_bytes(plan->recipe, CALC_T_GRAD) > 0))
		return calc_error(d, plan->file, 0,
		                  "training.recipe = %s holds no gradients (a memory baseline, not a trainable "
		                  "recipe): it has no step time; choose a recipe that trains",
		                  plan->recipe->name);
	calc_comm(plan, &st->comm);
	layer_times(plan, st);
	if (p > CALC_MAX_STAGES)
		return calc_error(d, plan->file, 0, "parallel.pp = %d exceeds %d stages", p, CALC_MAX_STAGES);
	c = xcalloc(1, sizeof *c);
	c->sched = plan->schedule;
	c->p = p;
	c->m = calc_plan_microbatches(plan);
	c->v = plan->schedule == CALC_SCHED_INTERLEAVED && plan->vpp > 0 ? plan->vpp : 1;
	c->p2p = st->comm.p2p;
	/* ZB-H2 with post-validation runs steps back to back: the steady-state period of
	 * two simulated steps; otherwise one step from an empty pipeline to a flush. */
	c->steps = plan->schedule == CALC_SCHED_ZBH2 && plan->post_validation ? 2 : 1;
	busy = fill_stages(plan, st, c);
	memset(&res, 0, sizeof res);
	if (calc_pipeline_simulate(c, &res, d) < 0) {
		free(c);
		calc_pp_result_free(&res);
		return -1;
	}
	st->makespan = c->steps > 1 ? res.period : res.makespan;
	st->bubble = st->makespan - busy;
	if (st->bubble < 0)
		st->bubble = 0;
	calc_pp_result_free(&res);
	free(c);
	finish(plan, st);
	return 0;
}

/* ------------------------------------------------------------------ catalog */

struct step_cache {
	int failed;
	struct calc_step st;
};

const struct calc_step *calc_ctx_step(struct calc_ctx *c, struct calc_diag *d)
{
	struct step_cache *sc = c->slot[CALC_SLOT_STEP];
	if (!sc) {
		sc = xcalloc(1, sizeof *sc);
		sc->failed = calc_step(&c->plan, &sc->st, d) < 0;
		c->slot[CALC_SLOT_STEP] = sc;
		c->slot_free[CALC_SLOT_STEP] = free;
		if (sc->failed)
			return NULL;
	} else if (sc->failed) {
		calc_error(d, c->plan.file, 0, "the step time of this plan could not be computed");
		return NULL;
	}
	return &sc->st;
}

#define Q(fn, expr)                                                                    \
	static int fn(struct calc_ctx *c, struct calc_value *o, struct calc_diag *d)    \
	{                                                                              \
		const struct calc_step *st = calc_ctx_step(c, d);                          \
		if (!st)                                                                   \
			return -1;                                                         \
		o->num = (expr);                                                           \
		return 0;                                                                  \
	}
Q(q_time, st->time)
Q(q_makespan, st->makespan)
Q(q_compute, st->compute)
Q(q_recompute, st->recompute)
Q(q_tp_comm, st->tp_comm)
Q(q_bubble, st->bubble)
Q(q_bubble_frac, st->bubble / st->time)
Q(q_dp_exposed, st->dp_exposed)
Q(q_optimizer, st->optimizer)
Q(q_mfu, st->mfu)
Q(q_mfu_fp8, st->mfu_fp8)
Q(q_hfu, st->hfu)
Q(q_model_tflops, st->model_tflops)
Q(q_hw_tflops, st->hw_tflops)
Q(q_tokens_per_s, st->tokens_per_s)
Q(q_model_flops, st->flops.model)
Q(q_hw_flops, st->flops.hardware)
Q(q_flops_token, st->flops.per_token)
Q(q_peak, st->peak)
Q(q_layer_f, st->layer.f)
Q(q_layer_b, st->layer.b + st->layer.w)
Q(q_steps, st->steps)
Q(q_run_time, st->run_time)
Q(q_days, st->run_time / 86400)
Q(q_gpu_hours, st->gpu_hours)
Q(q_cost, st->cost)
Q(q_pp_exposed, st->exposed[CALC_DIM_PP])

const struct calc_quantity calc_q_step[] = {
	{"step.time", "s", "time of one optimizer step", q_time},
	{"step.makespan", "s", "pipeline part of the step (compute, recompute, TP/CP comm, bubble)", q_makespan},
	{"step.compute", "s", "forward + backward compute of the critical stage per step", q_compute},
	{"step.recompute", "s", "activation recomputation per step", q_recompute},
	{"step.tp_comm", "s", "exposed TP + CP collectives per step", q_tp_comm},
	{"step.bubble_time", "s", "pipeline idle time of the critical stage per step", q_bubble},
	{"step.bubble_fraction", "1", "pipeline idle share of the step", q_bubble_frac},
	{"step.dp_exposed", "s", "gradient reduction not hidden behind the backward", q_dp_exposed},
	{"step.pp_exposed", "s", "pipeline sends on the fill and drain path", q_pp_exposed},
	{"step.optimizer", "s", "optimizer step", q_optimizer},
	{"step.mfu", "1", "model FLOPs utilisation (PaLM §4), against the dense BF16 peak", q_mfu},
	{"step.mfu_fp8", "1", "FP8 recipes: model FLOPs utilisation against the dense FP8 peak (else 0)", q_mfu_fp8},
	{"step.hfu", "1", "hardware FLOPs utilisation (incl. recomputation), against the dense BF16 peak", q_hfu},
	{"step.model_tflops_per_gpu", "FLOP/s", "model FLOPs per second per GPU", q_model_tflops},
	{"step.hardware_tflops_per_gpu", "FLOP/s", "hardware FLOPs per second per GPU", q_hw_tflops},
	{"step.tokens_per_s", "tokens/s", "tokens per second of the whole job", q_tokens_per_s},
	{"step.model_flops", "FLOP", "model FLOPs per step, all GPUs (Korthikanti 2022 Eq. 7)", q_model_flops},
	{"step.hardware_flops", "FLOP", "hardware FLOPs per step, all GPUs (Eq. 8 / Narayanan Eq. 3)", q_hw_flops},
	{"step.flops_per_token", "FLOP", "model FLOPs per token", q_flops_token},
	{"step.peak_flops", "FLOP/s", "dense BF16 tensor peak of one GPU the MFU is measured against", q_peak},
	{"step.layer_forward", "s", "forward of one layer for one micro-batch (compute only)", q_layer_f},
	{"step.layer_backward", "s", "backward of one layer for one micro-batch (B + W, compute only)", q_layer_b},
	{"run.steps", "1", "optimizer steps for the token budget", q_steps},
	{"run.time", "s", "wall-clock time of the run", q_run_time},
	{"run.days", "days", "wall-clock time of the run in days", q_days},
	{"run.gpu_hours", "GPU-h", "GPU-hours of the run", q_gpu_hours},
	{"run.cost", "currency", "cost of the run at cluster.gpu_hour_cost", q_cost},
	{0},
};

/* The `trainplan step` breakdown. */
static int t_step(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                  struct calc_diag *d)
{
	const struct calc_step *st = calc_ctx_step(c, d);
	static const char *const names[] = {"compute (forward + backward)", "recomputation",
	                                    "TP/CP communication (exposed)", "pipeline bubble",
	                                    "DP communication (exposed)", "optimizer step", "step"};
	double v[7];
	int cn, ct, cs;

	if (!st)
		return -1;
	v[0] = st->compute;
	v[1] = st->recompute;
	v[2] = st->tp_comm;
	v[3] = st->bubble;
	v[4] = st->dp_exposed;
	v[5] = st->optimizer;
	v[6] = st->time;
	calc_table_init(t, "step", "Step time breakdown of one GPU of the critical pipeline stage");
	cn = calc_table_col(t, "component", "", CALC_D_TEXT, 0);
	ct = calc_table_col(t, "time", "s", CALC_D_MS, 1);
	cs = calc_table_col(t, "share", "1", CALC_D_PCT, 1);
	for (int i = 0; i < 7; i++) {
		int r = calc_table_row(t);
		calc_table_str(t, r, cn, names[i]);
		calc_table_num(t, r, ct, v[i]);
		calc_table_num(t, r, cs, v[i] / st->time);
	}
	calc_table_note(t, "Op times are rooflines (GEMMs and attention core at efficiency.gemm / "
	                   "efficiency.attention of the dense peak, GEMMs less tile and wave quantization, "
	                   "memory-bound ops at HBM bandwidth); the bubble comes from the pipeline simulator.");
	return 0;
}

/* Throughput and run totals. */
static int t_step_summary(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                          struct calc_diag *d)
{
	const struct calc_step *st = calc_ctx_step(c, d);
	int cq, cv, cu;
	struct {
		const char *name, *unit;
		double v;
	} rows[12];
	int n = 0;

	if (!st)
		return -1;
#define ROW(nm, u, x) (rows[n].name = nm, rows[n].unit = u, rows[n].v = (x), n++)
	ROW("step.time", "s", st->time);
	ROW("step.mfu", "%", 100 * st->mfu);
	ROW("step.hfu", "%", 100 * st->hfu);
	if (st->mfu_fp8 > 0)
		ROW("step.mfu_fp8", "%", 100 * st->mfu_fp8);
	ROW("step.model_tflops_per_gpu", "TFLOP/s", st->model_tflops / 1e12);
	ROW("step.hardware_tflops_per_gpu", "TFLOP/s", st->hw_tflops / 1e12);
	ROW("step.peak_flops", "TFLOP/s", st->peak / 1e12);
	ROW("step.tokens_per_s", "tokens/s", st->tokens_per_s);
	ROW("run.steps", "steps", st->steps);
	ROW("run.days", "days", st->run_time / 86400);
	ROW("run.gpu_hours", "GPU-hours", st->gpu_hours);
	ROW("run.cost", "currency", st->cost);
#undef ROW
	calc_table_init(t, "step-summary", "Throughput, utilisation and run totals");
	cq = calc_table_col(t, "quantity", "", CALC_D_TEXT, 0);
	cv = calc_table_col(t, "value", "", CALC_D_NUM, 4);
	cu = calc_table_col(t, "unit", "", CALC_D_TEXT, 0);
	for (int i = 0; i < n; i++) {
		int r = calc_table_row(t);
		calc_table_str(t, r, cq, rows[i].name);
		calc_table_num(t, r, cv, rows[i].v);
		calc_table_str(t, r, cu, rows[i].unit);
	}
	{
		char note[512];
		snprintf(note, sizeof note, "%s HFU counts recomputation %s.",
		         st->mfu_fp8 > 0 ? "MFU and HFU as PaLM §4 and Korthikanti 2022 §6.3 define them, against the dense "
		                           "(no-sparsity) BF16 peak (REFERENCES.md §6); step.mfu_fp8 measures the same "
		                           "model FLOPs against the dense FP8 peak the layer GEMMs run at."
		                         : "MFU and HFU as PaLM §4 and Korthikanti 2022 §6.3 define them, against the "
		                           "dense (no-sparsity) BF16 tensor peak (REFERENCES.md §6).",
		         c->plan.hfu_count == CALC_HFU_KOR22
		             ? "by Korthikanti 2022 Eq. 8 / Narayanan 2021 Eq. 3 (efficiency.hfu_count = kor22-eq8)"
		             : "as executed (efficiency.hfu_count = executed)");
		calc_table_note(t, note);
	}
	return 0;
}

const struct calc_tabledef calc_t_step[] = {
	{"step", "step time breakdown: compute, recompute, TP comm, bubble, DP comm, optimizer", "", t_step},
	{"step-summary", "MFU, HFU, TFLOP/s per GPU, tokens/s, run days, GPU-hours and cost", "", t_step_summary},
	{0},
};

/* A copy of 'base' with another (tp, pp), DP filling the GPUs, stages split by the
 * plan's rule (parallel.split).  Returns 0 when the variant is a valid plan. */
static int variant(const struct calc_plan *base, int tp, int pp, struct calc_plan *v)
{
	struct calc_diag d = {0};
	int gpus = calc_plan_gpus(base), cp = base->cp > 0 ? base->cp : 1, rc;

	if (tp < 1 || pp < 1 || (long)tp * pp * cp > gpus || gpus % (tp * pp * cp) || pp > CALC_MAX_STAGES)
		return -1;
	*v = *base;
	v->tp = tp;
	v->pp = pp;
	v->dp = gpus / (tp * pp * cp);
	v->uneven_stages = 0;
	memset(v->layers_per_stage, 0, sizeof v->layers_per_stage);
	if (calc_layers_split(v->model.layers, pp, v->split, v->layers_per_stage, NULL) < 0)
		return -1;
	if (v->schedule == CALC_SCHED_INTERLEAVED && pp == 1)
		v->schedule = CALC_SCHED_1F1B;
	rc = calc_plan_validate(v, &d);
	calc_diag_free(&d);
	return rc;
}

/* step-breakdown: stacked components for a few splits around the plan's. */
static int d_step_breakdown(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                            struct calc_diag *d)
{
	const struct calc_plan *p = &c->plan;
	int cand[][2] = {{p->tp, p->pp},     {p->tp / 2, p->pp * 2}, {p->tp * 2, p->pp / 2},
	                 {p->tp, p->pp * 2}, {p->tp, p->pp / 2},     {p->tp / 2, p->pp},
	                 {p->tp * 2, p->pp}};
	struct calc_plan *v = xmalloc(sizeof *v);
	struct calc_step *st = xmalloc(sizeof *st);
	int cl, ctp, cpp, cdp, cc, cr, ctc, cb, cdx, co, ctm, cm;

	calc_table_init(t, "step-breakdown", "Step time components for candidate splits of the same GPUs");
	cl = calc_table_col(t, "split", "", CALC_D_TEXT, 0);
	ctp = calc_table_col(t, "tp", "1", CALC_D_INT, 0);
	cpp = calc_table_col(t, "pp", "1", CALC_D_INT, 0);
	cdp = calc_table_col(t, "dp", "1", CALC_D_INT, 0);
	cc = calc_table_col(t, "compute", "s", CALC_D_S, 3);
	cr = calc_table_col(t, "recompute", "s", CALC_D_S, 3);
	ctc = calc_table_col(t, "tp_comm", "s", CALC_D_S, 3);
	cb = calc_table_col(t, "bubble", "s", CALC_D_S, 3);
	cdx = calc_table_col(t, "dp_exposed", "s", CALC_D_S, 3);
	co = calc_table_col(t, "optimizer", "s", CALC_D_S, 3);
	ctm = calc_table_col(t, "time", "s", CALC_D_S, 3);
	cm = calc_table_col(t, "mfu", "1", CALC_D_PCT, 1);
	for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
		char label[48];
		int r, dup = 0;
		for (size_t j = 0; j < i; j++)
			dup |= cand[j][0] == cand[i][0] && cand[j][1] == cand[i][1];
		if (dup || variant(p, cand[i][0], cand[i][1], v) < 0)
			continue;
		if (calc_step(v, st, d) < 0) {
			free(v);
			free(st);
			return -1;
		}
		snprintf(label, sizeof label, "TP%d PP%d DP%d", v->tp, v->pp, v->dp);
		r = calc_table_row(t);
		calc_table_str(t, r, cl, label);
		calc_table_num(t, r, ctp, v->tp);
		calc_table_num(t, r, cpp, v->pp);
		calc_table_num(t, r, cdp, v->dp);
		calc_table_num(t, r, cc, st->compute);
		calc_table_num(t, r, cr, st->recompute);
		calc_table_num(t, r, ctc, st->tp_comm);
		calc_table_num(t, r, cb, st->bubble);
		calc_table_num(t, r, cdx, st->dp_exposed);
		calc_table_num(t, r, co, st->optimizer);
		calc_table_num(t, r, ctm, st->time);
		calc_table_num(t, r, cm, st->mfu);
	}
	free(v);
	free(st);
	calc_table_note(t, "The plan's split first, then TP and PP halved and doubled with DP filling "
	                   "the same GPUs; splits the plan's model or batch does not allow are left out.");
	return 0;
}

/* interconnect-sweep: step time against the network bandwidth per GPU for TP across
 * nodes (TP = 2 x gpus_per_node) and PP across nodes (TP = gpus_per_node). */
static int d_interconnect(struct calc_ctx *c, const struct calc_args *a, struct calc_table *t,
                          struct calc_diag *d)
{
	static const double gbps[] = {12.5, 25, 50, 100, 200, 400};
	const struct calc_plan *p = &c->plan;
	int G = p->gpus_per_node, model = p->tp * p->pp;
	struct calc_plan *va = xmalloc(sizeof *va), *vb = xmalloc(sizeof *vb);
	struct calc_step *st = xmalloc(sizeof *st);
	int oka, okb, cg, cbw, cta, ctb, cma, cmb, rc = 0;

	oka = model % (2 * G) == 0 && variant(p, 2 * G, model / (2 * G), va) == 0;
	okb = model % G == 0 && variant(p, G, model / G, vb) == 0;
	calc_table_init(t, "interconnect-sweep", "Step time against inter-node bandwidth per GPU");
	cg = calc_table_col(t, "inter_gbps", "Gb/s", CALC_D_NUM, 4);
	cbw = calc_table_col(t, "inter_node_bw", "B/s", CALC_D_GBPS, 2);
	cta = calc_table_col(t, "time_tp_across", "s", CALC_D_S, 3);
	ctb = calc_table_col(t, "time_pp_across", "s", CALC_D_S, 3);
	cma = calc_table_col(t, "mfu_tp_across", "1", CALC_D_PCT, 1);
	cmb = calc_table_col(t, "mfu_pp_across", "1", CALC_D_PCT, 1);
	for (size_t i = 0; i < sizeof gbps / sizeof gbps[0]; i++) {
		int r = calc_table_row(t);
		double bw = gbps[i] * 1e9 / 8;
		calc_table_num(t, r, cg, gbps[i]);
		calc_table_num(t, r, cbw, bw);
		calc_table_num(t, r, cta, NAN);
		calc_table_num(t, r, ctb, NAN);
		calc_table_num(t, r, cma, NAN);
		calc_table_num(t, r, cmb, NAN);
		if (oka) {
			va->inter_node_bw = bw;
			if ((rc = calc_step(va, st, d)) < 0)
				break;
			calc_table_num(t, r, cta, st->time);
			calc_table_num(t, r, cma, st->mfu);
		}
		if (okb) {
			vb->inter_node_bw = bw;
			if ((rc = calc_step(vb, st, d)) < 0)
				break;
			calc_table_num(t, r, ctb, st->time);
			calc_table_num(t, r, cmb, st->mfu);
		}
	}
	if (rc == 0) {
		char note[256];
		snprintf(note, sizeof note,
		         "TP across nodes: TP%d PP%d; PP across nodes: TP%d PP%d; DP fills the GPUs. "
		         "NaN where the model does not allow the split.",
		         2 * G, model / (2 * G), G, model / G);
		calc_table_note(t, note);
	}
	free(va);
	free(vb);
	free(st);
	return rc;
}

const struct calc_tabledef calc_d_step[] = {
	{"step-breakdown", "stacked step-time components for a few candidate splits", "", d_step_breakdown},
	{"interconnect-sweep", "step time vs inter-node bandwidth 12.5-400 Gb/s per GPU, TP vs PP across nodes",
	 "", d_interconnect},
	{0},
};
