/*
 * memory.c -- memory of one GPU for every pipeline stage.
 *
 * Model states: parameters held per GPU (tensor-parallel matrices divided by t;
 * norms and row-parallel biases replicated, as Megatron-LM shards them) times the
 * recipe's bytes per parameter, sharded over the data-parallel group by ZeRO stage
 * (Rajbhandari et al. 2020 §5; Megatron's distributed optimizer = stage 1, and its
 * group is DP x CP, Megatron-LM distributed-optimizer docs).
 * Activations per layer: Korthikanti et al. 2022 §4.1-4.2 and Table 2, generalised
 * term by term to GQA (K and V have kv_heads heads), SwiGLU (three FFN-wide
 * tensors), no dropout (no masks), FlashAttention (no s^2 terms; Dao et al. 2022)
 * and context parallelism (sequence divided by cp).  Embedding, final norm, LM head
 * and fp32 logits terms: Korthikanti et al. 2022 §4.3.  In-flight micro-batches
 * per stage come from pipeline.c.
 * Overheads are named plan keys ([overhead]), each with its default's reason in
 * plan.c.
 */
#include "calc.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================== */
/* Activations                                                               */
/* ======================================================================== */

/*
 * Bytes of one layer for one micro-batch.  'rc' chooses what is stored; 'full'
 * recomputation keeps only the layer input.  Element size e = recipe act_bytes
 * (2 for BF16), masks 1 byte (Korthikanti et al. 2022 §4.1).
 *   attention: norm input e*sbh/r, QKV input e*sbh/r, Q e*sb*a*d/t, K and V
 *              e*sb*g*d/t each, output-projection input e*sb*a*d/t, dropout mask
 *              sbh/r; scores: softmax e*a*s*s_kv*b/t (+ dropout mask and output
 *              when dropout), or fp32 softmax statistics 4*a*s*b/t with flash
 *   MLP:       norm input e*sbh/r, fc1 input e*sbh/r, GeLU in + out 2*e*sbf/t
 *              (SwiGLU: gate/up output 2f wide + product = 3*e*sbf/t), mask sbh/r
 * r = t with sequence parallelism, 1 without.  With a = g, d = h/a, f = 4h, e = 2
 * and dropout this is sbh(34 + 5as/h) at t = 1 and sbh(10 + 24/t + 5as/(ht))
 * without SP: Korthikanti et al. 2022 Eq. (1) and Table 2.
 */
static void act_layer(const struct calc_plan *p, enum calc_recompute rc, struct calc_act_layer *o)
{
	const struct calc_model *m = &p->model;
	double e = p->recipe ? p->recipe->act_bytes : 2;
	double t = p->tp, r = p->sp ? p->tp : 1, cp = p->cp > 0 ? p->cp : 1;
	double s = p->seq_len / cp, b = p->micro_batch, h = m->hidden, a = m->heads, g = m->kv_heads;
	double dh = m->head_dim > 0 ? m->head_dim : h / a, f = m->ffn_hidden;
	double sb = s * b, mask = m->dropout ? 1 : 0;

	memset(o, 0, sizeof *o);
	if (rc == CALC_RC_FULL) {
		/* Korthikanti et al. 2022 §5: only the layer input, 2sbh per layer; with
		 * SP the input is the sequence-sharded residual, 2sbh/t (convention:
		 * Megatron-LM's behaviour; the paper's Table 2 lists 2sbh). */
		o->attn = e * sb * h / r;
		o->total = o->attn;
		return;
	}
	o->attn = 2 * e * sb * h / r + e * sb * (a + 2 * g) * dh / t + e * sb * a * dh / t + mask * sb * h / r;
	if (p->flash_attention)
		o->scores = 4 * a * s * b / t; /* fp32 log-sum-exp per row and head */
	else if (rc == CALC_RC_SELECTIVE)
		o->scores = 0; /* recomputed in backward (Korthikanti et al. 2022 §5) */
	else
		o->scores = (e + mask * (1 + e)) * a * s * (s * cp) * b / t; /* s/cp queries x s keys */
	o->mlp = 2 * e * sb * h / r + mask * sb * h / r +
	         (m->mlp == CALC_MLP_SWIGLU ? 3 : 2) * e * sb * f / t;
	o->total = o->attn + o->scores + o->mlp;
}

void calc_memory_act_layer(const struct calc_plan *plan, struct calc_act_layer *out)
{
	act_layer(plan, plan->recompute, out);
}

void calc_memory_act_layer_mode(const struct calc_plan *plan, enum calc_recompute rc, struct calc_act_layer *out)
{
	act_layer(plan, rc, out);
}

/* ======================================================================== */
/* Per stage                                                                 */
/* ======================================================================== */

/* Parameters one GPU of stage 'i' holds (one copy).  Shared with comm.c, which sizes
 * the gradient reduction with the same count; a plan whose layers_per_stage is
 * cleared (the planner's even split) counts L/pp layers per stage, the remainder on
 * the first stages as plan.c splits them. */
double calc_memory_stage_params(const struct calc_plan *p, const struct calc_params *pr, int i)
{
	const struct calc_model *m = &p->model;
	double t = p->tp, h = m->hidden;
	/* replicated over TP: the two norms and the row-parallel biases (attention
	 * output and fc2), Megatron-LM RowParallelLinear / LayerNorm */
	double repl = pr->norms + (m->bias ? 2 * h : 0);
	double per_layer = (pr->layer - repl) / t + repl;
	int pp = p->pp > 0 ? p->pp : 1;
	/* an explicit split (uneven_stages) may hold empty stages: 0 there means 0 layers */
	int layers = p->uneven_stages || p->layers_per_stage[i] > 0 ? p->layers_per_stage[i]
	                                                           : m->layers / pp + (i < m->layers % pp);
	double n = layers * per_layer;

	if (i == 0)
		n += pr->embedding / t + pr->position; /* vocab-parallel embedding; positions replicated */
	if (i == p->pp - 1) {
		n += pr->final_norm;
		if (!m->tied_embeddings)
			n += pr->lm_head / t;
		else if (p->pp > 1)
			n += pr->embedding / t; /* the last stage keeps its own copy of the tied matrix */
	}
	return n;
}

int calc_memory(const struct calc_plan *p, struct calc_memory *out, struct calc_diag *d)
{
	struct calc_params pr;
	struct calc_act_layer full_layer;
	const struct calc_recipe *rec = p->recipe;
	const struct calc_model *m = &p->model;
	int shard = p->dp * (p->cp > 0 ? p->cp : 1);
	int copies = calc_pipeline_param_copies(p);
	double e, t = p->tp, r = p->sp ? p->tp : 1, s, b = p->micro_batch, h = m->hidden, V = m->vocab;

	if (!rec || p->pp < 1 || p->pp > CALC_MAX_STAGES || p->tp < 1)
		return calc_error(d, p->file, 0, "the plan is not valid (recipe, tp or pp missing)");
	e = rec->act_bytes;
	s = (double)p->seq_len / (p->cp > 0 ? p->cp : 1);
	/* clear only what this plan uses: the stage array is large */
	memset(out, 0, offsetof(struct calc_memory, st));
	memset(out->st, 0, (size_t)p->pp * sizeof out->st[0]);
	memset(&out->worst, 0, sizeof *out - offsetof(struct calc_memory, worst));
	calc_model_params(m, &pr);
	act_layer(p, p->recompute, &out->act);
	act_layer(p, CALC_RC_NONE, &full_layer);
	out->nstages = p->pp;

	for (int i = 0; i < p->pp; i++) {
		struct calc_mem_stage *st = &out->st[i];
		double n = calc_memory_stage_params(p, &pr, i), inflight = calc_pipeline_inflight(p, i);

		st->stage = i;
		st->layers = p->layers_per_stage[i];
		st->params = n * copies;
		st->weights = n * calc_recipe_bytes_sharded(rec, CALC_T_WEIGHT, p->zero, shard);
		st->weight_copies = n * calc_recipe_bytes_sharded(rec, CALC_T_WCOPY, p->zero, shard);
		st->gradients = n * calc_recipe_bytes_sharded(rec, CALC_T_GRAD, p->zero, shard) * copies;
		st->master = n * calc_recipe_bytes_sharded(rec, CALC_T_MASTER, p->zero, shard);
		st->optimizer = n * calc_recipe_bytes_sharded(rec, CALC_T_OPT, p->zero, shard);
		if (copies > 1) /* DualPipe (DeepSeek-V3 §3.2.1): a second copy of the weights and
		                 * of their gradients; one optimizer state (convention) */
			st->weight_copies += (copies - 1) * (st->weights + st->weight_copies);

		st->inflight = inflight;
		st->act_layers = st->layers * out->act.total * inflight;
		/* recomputation works on one layer of one micro-batch at a time: the
		 * dropped terms come back for that layer during its backward */
		if (st->layers > 0)
			st->act_layers += full_layer.total - out->act.total;
		st->act_extra = 0;
		if (i == 0) /* token ids (int64) and embedding dropout mask (§4.3), per in-flight mb */
			st->act_extra += inflight * (8 * s * b + (m->dropout ? s * b * h / r : 0));
		if (i == p->pp - 1) {
			/* final norm input, LM-head input, fp32 logits for the loss (§4.3) */
			st->act_extra += 2 * e * s * b * h / r + 4 * s * b * V / t;
			st->ov_temp = 2 * s * b * V / t; /* bf16 logits before the fp32 cast */
		}
		st->activations = st->act_layers + st->act_extra;

		st->states = st->weights + st->weight_copies + st->gradients + st->master + st->optimizer;
		st->ov_cuda = p->cuda_context;
		st->ov_nccl = p->nccl_buffers;
		st->ov_workspace = p->workspace;
		st->ov_frag = p->fragmentation * (st->states + st->activations + st->ov_temp);
		st->overhead = st->ov_cuda + st->ov_nccl + st->ov_workspace + st->ov_frag + st->ov_temp;
		st->total = st->states + st->activations + st->overhead;
		st->capacity = p->gpu_memory;
		st->headroom = st->capacity - st->total;
		if (st->total > out->st[out->worst].total)
			out->worst = i;
	}
	out->fits = 1;
	for (int i = 0; i < p->pp; i++)
		if (out->st[i].headroom < 0)
			out->fits = 0;
	out->states_total = pr.total * calc_recipe_total(rec);
	out->states_min_gpus = (int)ceil(out->states_total / p->gpu_memory);
	out->states_min_gpus_nominal = (int)ceil(out->states_total / p->gpu.memory_nominal);
	return 0;
}
