/*
 * catalog.c -- every output by a stable dotted name.
 *
 * Quantities (numbers or text with a unit), tables and datasets of every module
 * are joined here in one namespace, which the CLI (`trainplan get/table/data`) and
 * the report's directives both read, so that a number has one source.  The plan's
 * own inputs are quantities too (plan.tp, model.layers, gpu.memory ...).
 */
#include "diag.h"
#include "model.h"
#include "plan.h"
#include "table.h"
#include "catalog.h"
#include "schedules.h"
#include "search.h"
#include "suggest.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"

/* ---------------------------------------------------------------- plan inputs */

#define QI(fn, expr)                                                                  \
	static int fn(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)      \
	{                                                                                 \
		const struct calc_plan *p = &c->plan;                                     \
		struct calc_params pr;                                                    \
		(void)pr;                                                                 \
		v->num = (expr);                                                          \
		return 0;                                                                 \
	}
#define QS(fn, expr)                                                                  \
	static int fn(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)      \
	{                                                                                 \
		const struct calc_plan *p = &c->plan;                                     \
		v->num = NAN;                                                             \
		v->str = (expr);                                                          \
		return 0;                                                                 \
	}

QI(q_tp, p->tp)
QI(q_pp, p->pp)
QI(q_dp, p->dp)
QI(q_cp, p->cp)
QI(q_vpp, p->vpp)
QI(q_split_derived, p->split_picked)
QI(q_published_layout, p->published_layout && !p->split_picked)
QI(q_sp, p->sp)
QI(q_zero, p->zero)
QI(q_gpus, calc_plan_gpus(p))
QI(q_nodes, p->nodes)
QI(q_gpn, p->gpus_per_node)
QI(q_seq, p->seq_len)
QI(q_gbs, p->global_batch)
QI(q_mbs, p->micro_batch)
QI(q_m, calc_plan_microbatches(p))
QI(q_tokens, p->tokens)
QI(q_tokens_step, (double)p->global_batch * p->seq_len)
QI(q_flash, p->flash_attention)
QI(q_postval, p->post_validation)
QS(q_recompute, calc_recompute_name(p->recompute))
QS(q_schedule, calc_schedule_name(p->schedule))
QS(q_recipe, p->recipe_name)
/* parallel.cp_comm (enum calc_cp_comm, calc.h) and where its value came from */
QS(q_cp_comm, p->cp_comm == CALC_CP_P2P ? "p2p"
             : p->cp_comm == CALC_CP_A2A ? "a2a"
             : p->cp_comm == CALC_CP_A2A_P2P ? "a2a+p2p"
                                             : "allgather")
QS(q_cp_comm_source, calc_plan_key_source(p, "parallel", "cp_comm"))
QS(q_stack, p->stack ? p->stack->name : "")
QS(q_title, p->title)

/* The framework the planner searches for (plan.framework, calc_plan_framework): its
 * title, its default schedule (the first of its list in frameworks.c) and the ZeRO stage
 * of its production recipes (zero_default), the rules the recommendation follows
 * (pick.c rules b and e); "" and NaN under plan.framework = any. */
static const struct calc_framework *plan_fw(const struct calc_plan *p)
{
	return calc_plan_framework(p, NULL);
}
static const char *fw_title(const struct calc_plan *p)
{
	const struct calc_framework *f = plan_fw(p);
	return f ? f->title : "";
}
static const char *fw_schedule(const struct calc_plan *p)
{
	const struct calc_framework *f = plan_fw(p);
	return f && f->schedules[0] >= 0 ? calc_schedule_name(f->schedules[0]) : "";
}
static double fw_zero(const struct calc_plan *p)
{
	const struct calc_framework *f = plan_fw(p);
	return f && f->zero_default >= 0 ? f->zero_default : NAN;
}
QS(q_fw_title, fw_title(p))
QS(q_fw_schedule, fw_schedule(p))
QI(q_fw_zero, fw_zero(p))
QI(q_layers, p->model.layers)
QI(q_hidden, p->model.hidden)
QI(q_heads, p->model.heads)
QI(q_kv, p->model.kv_heads)
QI(q_hdim, p->model.head_dim)
QI(q_ffn, p->model.ffn_hidden)
QI(q_vocab, p->model.vocab)
QS(q_model, p->model.name)
QI(q_params, (calc_model_params(&p->model, &pr), pr.total))
QI(q_params_active, (calc_model_params(&p->model, &pr), pr.active))
QI(q_experts, p->model.moe.experts)
QI(q_hybrid, calc_model_is_hybrid(&p->model))
/* The layers of type 't' in model 'm' (a hybrid model's Mamba-2 or gated delta-net mixers) */
static double layers_of_type(const struct calc_model *m, enum calc_layer_type t)
{
	int count[CALC_MAX_KINDS];
	double n = 0;
	calc_model_kind_counts(m, count);
	for (int k = 0; k < calc_model_nkinds(m); k++) {
		struct calc_layer_kind kd;
		calc_model_kind(m, k, &kd);
		if (kd.type == t)
			n += count[k];
	}
	return n;
}
QI(q_mamba_layers, layers_of_type(&p->model, CALC_LAYER_MAMBA))
QI(q_gdn_layers, layers_of_type(&p->model, CALC_LAYER_GDN))
QI(q_mamba1_layers, layers_of_type(&p->model, CALC_LAYER_MAMBA1))
QI(q_topk, p->model.moe.top_k)
QI(q_ep, p->ep)
QI(q_etp, p->etp)
QI(q_edp, p->edp)
QS(q_mlp, p->model.mlp == CALC_MLP_SWIGLU ? "SwiGLU" : "GeLU")
QS(q_norm, p->model.norm == CALC_NORM_RMSNORM ? "RMSNorm" : "LayerNorm")
QS(q_gpu, p->gpu.name)
QS(q_gpu_title, p->gpu.title && *p->gpu.title ? p->gpu.title : p->gpu.name)
QI(q_gpu_mem, p->gpu_memory)
QI(q_gpu_nom, p->gpu.memory_nominal)
QI(q_gpu_hbm, p->gpu.hbm_bw)
QI(q_gpu_bf16, p->gpu.bf16_flops)
QI(q_gpu_fp8, p->gpu.fp8_flops)
QI(q_gpu_fp4, p->gpu.fp4_flops)
QI(q_intra, p->intra_node_bw)
QI(q_intra_bus, p->intra_node_busbw)
QI(q_inter, p->inter_node_bw)
QI(q_cost, p->gpu_hour_cost)
QS(q_cluster, p->cluster_preset)
QS(q_dispatcher, p->moe_dispatcher == CALC_DISP_ALLGATHER ? "allgather"
                : p->moe_dispatcher == CALC_DISP_DEEPEP  ? "deepep"
                : p->moe_dispatcher == CALC_DISP_HYBRIDEP ? "hybridep"
                                                           : "alltoall")
QI(q_overlap_ep, p->overlap_ep_comm)
QI(q_comm_sms, p->moe_comm_sms)

static const struct calc_quantity calc_q_plan[] = {
	{"plan.title", "", "title of the plan", q_title},
	{"plan.tp", "1", "tensor-parallel degree", q_tp},
	{"plan.pp", "1", "pipeline stages", q_pp},
	{"plan.dp", "1", "data-parallel degree", q_dp},
	{"plan.cp", "1", "context-parallel degree", q_cp},
	{"plan.vpp", "1", "model chunks per pipeline stage", q_vpp},
	{"plan.sp", "1", "1 with sequence parallelism", q_sp},
	{"plan.zero", "1", "ZeRO stage", q_zero},
	{"plan.gpus", "GPUs", "GPUs of the cluster", q_gpus},
	{"plan.nodes", "1", "nodes of the cluster", q_nodes},
	{"plan.gpus_per_node", "1", "GPUs per node", q_gpn},
	{"plan.seq_len", "tokens", "sequence length", q_seq},
	{"plan.global_batch", "sequences", "global batch per optimizer step", q_gbs},
	{"plan.micro_batch", "sequences", "micro-batch size", q_mbs},
	{"plan.microbatches", "1", "micro-batches per pipeline per step m = B/(b d)", q_m},
	{"plan.tokens", "tokens", "token budget of the run", q_tokens},
	{"plan.tokens_per_step", "tokens", "tokens per optimizer step B s", q_tokens_step},
	{"plan.flash_attention", "1", "1 with FlashAttention", q_flash},
	{"plan.post_validation", "1", "1 when ZB-H2 runs without a flush between steps (optimizer post-validation)",
	 q_postval},
	{"plan.recompute", "", "activation recomputation", q_recompute},
	{"plan.schedule", "", "pipeline schedule", q_schedule},
	{"plan.framework_title", "", "the framework the planner searches for (plan.framework), in words; empty under any", q_fw_title},
	{"plan.framework_schedule", "", "that framework's default schedule, the one the recommendation prefers; empty under any", q_fw_schedule},
	{"plan.framework_zero", "1", "the ZeRO stage of that framework's production recipes, the most the recommendation takes as simple (NaN under any)", q_fw_zero},
	{"plan.moe_dispatcher", "", "MoE token dispatcher (moe.dispatcher)", q_dispatcher},
	{"plan.moe_comm_sms", "1", "SMs the hidden MoE dispatch and combine take from the GEMMs (moe.comm_sms)", q_comm_sms},
	{"plan.overlap_ep_comm", "1", "1 when moe.overlap_ep_comm hides the dispatch and combine behind another micro-batch", q_overlap_ep},
	{"plan.recipe", "", "bytes-per-parameter recipe", q_recipe},
	{"plan.cp_comm", "", "how the CP ranks exchange the attention's K and V (parallel.cp_comm)", q_cp_comm},
	{"plan.cp_comm_source", "", "where parallel.cp_comm came from: plan, override, stack (efficiency.stack's "
	 "framework default) or default (the project's)", q_cp_comm_source},
	{"plan.stack", "", "software stack whose defaults fill the keys the plan leaves unset (efficiency.stack)", q_stack},
	{"model.name", "", "model preset or source", q_model},
	{"model.layers", "1", "transformer layers", q_layers},
	{"model.params", "1", "parameters of the model, total (every expert; a tied matrix counted once)", q_params},
	{"model.params_active", "1", "parameters activated per token (top-k routed experts; = total when dense)", q_params_active},
	{"model.experts", "1", "routed experts per MoE layer (0 = dense)", q_experts},
	{"model.hybrid", "1", "1 when the layers are one block each (model.hybrid_pattern: Mamba-2, gated delta-net, attention, MLP or MoE)", q_hybrid},
	{"model.mamba_layers", "1", "Mamba-2 layers of a hybrid model (0 = none)", q_mamba_layers},
	{"model.gdn_layers", "1", "gated delta-net layers of a hybrid model (0 = none)", q_gdn_layers},
	{"model.mamba1_layers", "1", "Mamba-1 layers (S) of a hybrid model (0 = none)", q_mamba1_layers},
	{"model.top_k", "1", "routed experts per token", q_topk},
	{"parallel.ep", "1", "expert-parallel degree", q_ep},
	{"parallel.etp", "1", "expert tensor-parallel degree", q_etp},
	{"parallel.edp", "1", "expert data-parallel degree tp cp dp / (ep etp)", q_edp},
	{"model.hidden", "1", "hidden size", q_hidden},
	{"model.heads", "1", "attention heads", q_heads},
	{"model.kv_heads", "1", "key/value heads", q_kv},
	{"model.head_dim", "1", "width of one head", q_hdim},
	{"model.ffn_hidden", "1", "MLP inner width", q_ffn},
	{"model.vocab", "1", "vocabulary size", q_vocab},
	{"model.mlp", "", "MLP type", q_mlp},
	{"model.norm", "", "normalisation", q_norm},
	{"gpu.name", "", "GPU preset", q_gpu},
	{"gpu.title", "", "GPU model", q_gpu_title},
	{"gpu.memory", "B", "usable memory per GPU (as CUDA reports it, or cluster.gpu_memory)", q_gpu_mem},
	{"gpu.memory_nominal", "B", "marketed memory per GPU read as decimal GB (the datasheet's 80 GB is 80 GiB of HBM)", q_gpu_nom},
	{"gpu.hbm_bw", "B/s", "HBM bandwidth", q_gpu_hbm},
	{"gpu.bf16_flops", "FLOP/s", "dense BF16 tensor peak", q_gpu_bf16},
	{"gpu.fp8_flops", "FLOP/s", "dense FP8 tensor peak", q_gpu_fp8},
	{"gpu.fp4_flops", "FLOP/s", "dense FP4 tensor peak (0 = none; no recipe computes in FP4)", q_gpu_fp4},
	{"cluster.name", "", "cluster preset", q_cluster},
	{"cluster.intra_node_bw", "B/s", "NVLink per GPU per direction", q_intra},
	{"cluster.intra_node_busbw", "B/s", "NCCL bus bandwidth inside a node", q_intra_bus},
	{"cluster.inter_node_bw", "B/s", "network per GPU per direction", q_inter},
	{"cluster.gpu_hour_cost", "", "price of one GPU-hour", q_cost},
	{"plan.split_derived", "1", "1 when the plan sets no split and takes the planner's recommendation (calc/pick.c)",
	 q_split_derived},
	{"plan.published_layout", "1", "1 when the plan's split is the published run's (plan.published_layout) and set, not derived",
	 q_published_layout},
	{NULL, NULL, NULL, NULL},
};

static const struct calc_tabledef calc_t_plan[] = {{0}};
extern const struct calc_tabledef calc_t_presets[];

/* ---------------------------------------------------------------- the namespace */

/* The report's own entries (calc/report_catalog.c): comparisons, baselines, validation. */
extern const struct calc_quantity calc_q_report[];
extern const struct calc_tabledef calc_t_report[], calc_d_report[];
extern const struct calc_quantity calc_q_validate[];
extern const struct calc_tabledef calc_t_validate[], calc_d_validate[];
extern const struct calc_quantity calc_q_run[];
extern const struct calc_tabledef calc_t_run[], calc_d_run[];
extern const struct calc_quantity calc_q_framework[]; /* calc/framework.c */
static const struct calc_tabledef calc_t_none[] = {{NULL, NULL, NULL, NULL}};

static const struct calc_quantity *const qmods[] = {calc_q_plan, calc_q_memory, calc_q_pipeline, calc_q_comm,
                                                    calc_q_step, calc_q_search, calc_q_report, calc_q_validate, calc_q_run,
                                                    calc_q_framework};
static const struct calc_tabledef *const tmods[] = {calc_t_presets, calc_t_memory, calc_t_pipeline, calc_t_comm,
                                                    calc_t_step, calc_t_search, calc_t_report, calc_t_validate, calc_t_run,
                                                    calc_t_none};
static const struct calc_tabledef *const dmods[] = {calc_t_plan, calc_d_memory, calc_d_pipeline, calc_d_comm,
                                                    calc_d_step, calc_d_search, calc_d_report, calc_d_validate, calc_d_run,
                                                    calc_t_none};
#define NMODS (int)(sizeof qmods / sizeof qmods[0])

/*
 * The index of the namespace, built once: every entry by position (module order) and
 * the positions sorted by name (ties by position, so the first module wins as a scan
 * in module order would).
 */
struct idx_name {
	const char *name;
	int pos;
};
struct idx_kind {
	int n;
	const void **at;        /* entry by position */
	struct idx_name *byname; /* n, sorted by name then position */
};
static struct idx_kind idx_q, idx_t, idx_d;
static pthread_once_t idx_once = PTHREAD_ONCE_INIT;

static int cmp_name(const void *a, const void *b)
{
	const struct idx_name *x = a, *y = b;
	int r = strcmp(x->name, y->name);
	return r ? r : (x->pos > y->pos) - (x->pos < y->pos);
}

static void idx_fill(struct idx_kind *k, int n)
{
	k->n = n;
	k->at = xcalloc((size_t)n + 1, sizeof *k->at);
	k->byname = xcalloc((size_t)n + 1, sizeof *k->byname);
}

static void idx_sort(struct idx_kind *k)
{
	qsort(k->byname, (size_t)k->n, sizeof *k->byname, cmp_name);
}

static void tabs_index(struct idx_kind *k, const struct calc_tabledef *const *mods)
{
	int n = 0;
	for (int m = 0; m < NMODS; m++)
		for (int j = 0; mods[m][j].name; j++)
			n++;
	idx_fill(k, n);
	n = 0;
	for (int m = 0; m < NMODS; m++)
		for (int j = 0; mods[m][j].name; j++, n++) {
			k->at[n] = &mods[m][j];
			k->byname[n].name = mods[m][j].name;
			k->byname[n].pos = n;
		}
	idx_sort(k);
}

static void idx_build(void)
{
	int n = 0;
	for (int m = 0; m < NMODS; m++)
		for (int j = 0; qmods[m][j].name; j++)
			n++;
	idx_fill(&idx_q, n);
	n = 0;
	for (int m = 0; m < NMODS; m++)
		for (int j = 0; qmods[m][j].name; j++, n++) {
			idx_q.at[n] = &qmods[m][j];
			idx_q.byname[n].name = qmods[m][j].name;
			idx_q.byname[n].pos = n;
		}
	idx_sort(&idx_q);
	tabs_index(&idx_t, tmods);
	tabs_index(&idx_d, dmods);
}

/* Position of 'name' in kind 'k', or -1: the lowest position among equal names. */
static int idx_find(const struct idx_kind *k, const char *name)
{
	int lo = 0, hi = k->n; /* first entry whose name is >= name */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(k->byname[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < k->n && !strcmp(k->byname[lo].name, name) ? k->byname[lo].pos : -1;
}

static const struct idx_kind *kind_of(int kind)
{
	pthread_once(&idx_once, idx_build);
	return kind == 0 ? &idx_q : kind == 1 ? &idx_t : &idx_d;
}

static const void *entry_at(int kind, int i)
{
	const struct idx_kind *k = kind_of(kind);
	return i >= 0 && i < k->n ? k->at[i] : NULL;
}

static const void *entry_named(int kind, const char *name)
{
	const struct idx_kind *k = kind_of(kind);
	int i = idx_find(k, name);
	return i < 0 ? NULL : k->at[i];
}

const struct calc_quantity *calc_catalog_quantity_at(int i) { return entry_at(0, i); }
const struct calc_tabledef *calc_catalog_table_at(int i) { return entry_at(1, i); }
const struct calc_tabledef *calc_catalog_dataset_at(int i) { return entry_at(2, i); }
const struct calc_quantity *calc_catalog_quantity(const char *name) { return entry_named(0, name); }
const struct calc_tabledef *calc_catalog_table(const char *name) { return entry_named(1, name); }
const struct calc_tabledef *calc_catalog_dataset(const char *name) { return entry_named(2, name); }

/* Names that share the prefix before the last dot, for "did you mean". */
static void similar(const char *name, int kind, char *buf, size_t n, struct calc_suggest *s)
{
	const char *dot = strrchr(name, '.');
	size_t plen = dot ? (size_t)(dot - name) : strlen(name);
	int count = 0;
	buf[0] = 0;
	for (int i = 0;; i++) {
		const char *cand;
		if (kind == 0) {
			const struct calc_quantity *q = calc_catalog_quantity_at(i);
			cand = q ? q->name : NULL;
		} else {
			const struct calc_tabledef *t = kind == 1 ? calc_catalog_table_at(i) : calc_catalog_dataset_at(i);
			cand = t ? t->name : NULL;
		}
		if (!cand)
			break;
		calc_suggest_offer(s, cand);
		if ((kind != 0 || !strncmp(cand, name, plen)) && count < 12) {
			snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", count ? ", " : "", cand);
			count++;
		}
	}
}

int calc_catalog_get(struct calc_ctx *c, const char *name, struct calc_value *out, struct calc_diag *d)
{
	const struct idx_kind *k = kind_of(0);
	int i = idx_find(k, name);
	const struct calc_quantity *q = i < 0 ? NULL : k->at[i];
	struct calc_ctx_value *cv;
	if (!q) {
		char list[1024], dym[160];
		struct calc_suggest s;
		calc_suggest_init(&s, name);
		similar(name, 0, list, sizeof list, &s);
		calc_suggest_text(&s, dym, sizeof dym);
		if (list[0])
			return calc_error_id(d, CALC_M_UNKNOWN_NAME, NULL, 0, "unknown quantity '%s' (close names: %s; trainplan get --list)%s", name,
			                  list, dym);
		return calc_error_id(d, CALC_M_UNKNOWN_NAME, NULL, 0, "unknown quantity '%s' (trainplan get --list shows every name)%s", name, dym);
	}
	out->num = NAN;
	out->str = NULL;
	if (!c->val) {
		c->nval = (k->n + CALC_CTX_VAL_BLOCK - 1) / CALC_CTX_VAL_BLOCK;
		c->val = xcalloc((size_t)c->nval, sizeof *c->val);
	}
	if (!c->val[i / CALC_CTX_VAL_BLOCK])
		c->val[i / CALC_CTX_VAL_BLOCK] = xcalloc(CALC_CTX_VAL_BLOCK, sizeof **c->val);
	cv = &c->val[i / CALC_CTX_VAL_BLOCK][i % CALC_CTX_VAL_BLOCK];
	if (cv->state == 0) {
		cv->v.num = NAN;
		cv->v.str = NULL;
		cv->state = q->get(c, &cv->v, &cv->diag) < 0 ? -1 : 1;
	}
	calc_diag_append(d, &cv->diag);
	if (cv->state < 0)
		return -1;
	*out = cv->v;
	return 0;
}

int calc_catalog_build(struct calc_ctx *c, const char *name, int dataset, const struct calc_args *a,
                       struct calc_table *out, struct calc_diag *d)
{
	const struct calc_tabledef *t = dataset ? calc_catalog_dataset(name) : calc_catalog_table(name);
	static const struct calc_args none = {0};
	if (!t) {
		char list[2048], dym[160];
		struct calc_suggest s;
		calc_suggest_init(&s, name);
		similar(name, dataset ? 2 : 1, list, sizeof list, &s);
		return calc_error_id(d, CALC_M_UNKNOWN_NAME, NULL, 0, "unknown %s '%s' (allowed: %s)%s", dataset ? "dataset" : "table", name, list,
		                  calc_suggest_text(&s, dym, sizeof dym));
	}
	/* an argument the entry does not take is a mistake, not ignored: its params name
	 * each one as "KEY=" */
	for (int i = 0; a && i < a->n; i++) {
		size_t kl = strlen(a->key[i]);
		const char *p = t->params;
		int found = 0;
		for (; p && (p = strstr(p, a->key[i])); p += kl)
			if ((p == t->params || p[-1] == ' ') && p[kl] == '=')
				found = 1;
		if (!found)
			return calc_error_id(d, CALC_M_BAD_ARGUMENT, NULL, 0, "%s '%s' takes no argument '%s' (arguments: %s)",
			                  dataset ? "dataset" : "table", name, a->key[i],
			                  t->params && t->params[0] ? t->params : "none");
	}
	memset(out, 0, sizeof *out);
	if (t->build(c, a ? a : &none, out, d) < 0) {
		calc_table_free(out);
		return -1;
	}
	return 0;
}
