/*
 * export.c -- the plan's split and training settings as a framework takes them
 * (megatron, nemo, torchtitan, deepspeed), so a chosen split goes into a launch script
 * without translating it by hand.  `trainplan export --for FRAMEWORK` (cli/cmd_export.c)
 * writes it to stdout; the report's catalog (catalog_search.c, search.pick.export) renders
 * the pick's in the summary.  The library writes only to the streams it is given.
 *
 * Every setting the plan's memory and step time depend on is written in the framework's
 * words, and every flag and key is one the framework's source defines: the lists in
 * tests/export/ are read from Megatron-LM, Megatron-Bridge, torchtitan and DeepSpeed at
 * the commits named there, and `make check-export-flags` checks each export against them.
 * What a framework cannot express is said: a plan choice with no equivalent (a pipeline
 * schedule the framework does not run, a split or rank order it cannot take) is an error
 * at the plan key's file and line (exit status 2 in the CLI, which, like the catalog,
 * writes the export to a memory stream and shows nothing of a failed one); what its
 * file cannot say (ZeRO-1 in torchtitan, selective recomputation in DeepSpeed's JSON) is
 * a note, a comment in the output where the format has comments, on the notes stream
 * otherwise (JSON; stderr in the CLI).  `trainplan import` (cmd_import.c) reads the Megatron-LM, torchtitan and
 * DeepSpeed outputs back into the same plan (`make check-roundtrip`).
 */
#include "calc.h"
#include "export.h"
#include "files.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

enum fw { FW_MEGATRON = CALC_EXPORT_MEGATRON, FW_NEMO = CALC_EXPORT_NEMO, FW_TORCHTITAN = CALC_EXPORT_TORCHTITAN,
	FW_DEEPSPEED = CALC_EXPORT_DEEPSPEED, FW_TORCHTITAN_PY = CALC_EXPORT_TORCHTITAN_PY };

#define MAX_NOTES 16
struct notes {
	char text[MAX_NOTES][240];
	int n;
};

static void note(struct notes *ns, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct notes *ns, const char *fmt, ...)
{
	va_list ap;
	if (ns->n >= MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(ns->text[ns->n++], sizeof ns->text[0], fmt, ap);
	va_end(ap);
}

/* An error about plan key SECTION.NAME at its file and line; returns 2. */
static int key_error(struct calc_diag *d, const struct calc_plan *p, const char *section, const char *name,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int key_error(struct calc_diag *d, const struct calc_plan *p, const char *section, const char *name,
                     const char *fmt, ...)
{
	char msg[400];
	int line;
	const char *file = calc_plan_key_origin(p, section, name, &line);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return calc_error(d, file, line, "%s.%s: %s", section, name, msg);
}

/* The plan's MoE layers as Megatron-LM's --moe-layer-freq list, "[0,1,...]", one 0/1 per
 * layer by the model's own rule (calc_model_layer_is_moe); -1 when it does not fit 'n'. */
static int moe_freq_list(const struct calc_model *m, char *buf, size_t n)
{
	size_t o = 0;
	buf[0] = 0;
	for (int i = 0; i < m->layers && o + 4 < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%d", i ? "," : "[", calc_model_layer_is_moe(m, i));
	if (o + 2 >= n)
		return -1;
	snprintf(buf + o, n - o, "]");
	return 0;
}

/* 1 when every stage holds the same number of layers. */
static int stages_even(const struct calc_plan *p)
{
	for (int i = 1; i < p->pp; i++)
		if (p->layers_per_stage[i] != p->layers_per_stage[0])
			return 0;
	return 1;
}

/* 1 when the stages between the first and the last are even (what Megatron-LM's
 * first/last stage sizes and torchtitan's first/last "less layers" can say). */
static int middle_even(const struct calc_plan *p)
{
	for (int i = 2; i < p->pp - 1; i++)
		if (p->layers_per_stage[i] != p->layers_per_stage[1])
			return 0;
	return p->pp >= 3;
}

/*
 * A hybrid model's pattern with its pipeline segments (Megatron-LM at d98e8a6:
 * arguments.py derives the virtual stages from the '|' segments of --hybrid-layer-pattern
 * and refuses --num-layers-per-virtual-pipeline-stage, --num-virtual-stages-per-pipeline-
 * rank, --pipeline-model-parallel-layout and the account_* flags with one;
 * hybrid_layer_allocation.py select_pipeline_segment gives segment vp x pp + pp_rank to a
 * rank's virtual stage vp, the order of the plan's virtual stages g = c pp + s).  Into
 * 'out' the pattern with a '|' after each virtual stage's layers: the plan's chunks, or
 * each stage's layers in vpp equal chunks, or the stages' own.  Returns 0, 1 when the
 * pattern needs no '|' (one stage, or even stages without virtual stages: Megatron-Core
 * splits num_layers / pp), -1 when the stages do not split into vpp chunks or the
 * string would not fit in 'n'.
 */
static int hybrid_segments(const struct calc_plan *p, char *out, size_t n)
{
	int v = p->vpp > 1 && p->schedule == CALC_SCHED_INTERLEAVED ? p->vpp : 1, nv, at = 0;
	size_t o = 0;
	int count[CALC_MAX_VSTAGES];

	if (p->pp <= 1 || (p->chunks.n == 0 && v == 1 && stages_even(p) && !calc_plan_has_layout(p)))
		return 1;
	if (p->chunks.n > 0) {
		nv = p->chunks.n;
		for (int g = 0; g < nv; g++)
			count[g] = p->chunks.layers[g];
	} else {
		nv = p->pp * v;
		if (nv > CALC_MAX_VSTAGES)
			return -1;
		for (int s = 0; s < p->pp; s++) {
			if (p->layers_per_stage[s] % v)
				return -1;
			for (int c = 0; c < v; c++)
				count[c * p->pp + s] = p->layers_per_stage[s] / v;
		}
	}
	for (int g = 0; g < nv; g++) {
		if (o + (size_t)count[g] + 2 > n || at + count[g] > (int)strlen(p->model.hybrid))
			return -1;
		memcpy(out + o, p->model.hybrid + at, (size_t)count[g]);
		o += (size_t)count[g];
		at += count[g];
		if (g + 1 < nv)
			out[o++] = '|';
	}
	out[o] = 0;
	return at == (int)strlen(p->model.hybrid) ? 0 : -1;
}

/* The schedule check every framework shares: 'ok' lists the schedules it runs (by
 * enum), ended by -1.  A plan with one stage runs no schedule.  Returns 0 or 2. */
static int check_schedule(struct calc_diag *d, const struct calc_plan *p, const char *fw, const char *fw_title, const int *ok)
{
	char allowed[160] = "";
	if (p->pp == 1)
		return 0;
	for (int i = 0; ok[i] >= 0; i++) {
		if ((int)p->schedule == ok[i])
			return 0;
		snprintf(allowed + strlen(allowed), sizeof allowed - strlen(allowed), "%s%s", i ? ", " : "",
		         calc_schedule_name((enum calc_schedule)ok[i]));
	}
	return key_error(d, p, "parallel", "schedule",
	                 "export --for %s: %s cannot express the schedule '%s' (it runs %s)", fw, fw_title,
	                 calc_schedule_name(p->schedule), allowed);
}

static long train_samples(const struct calc_plan *p)
{
	return (long)ceil(p->tokens / p->seq_len);
}

static long train_steps(const struct calc_plan *p)
{
	return (long)ceil(p->tokens / ((double)p->global_batch * p->seq_len));
}

/* The plan's file name as it may stand in a comment of the output: a newline would end
 * the comment and run the rest as shell (or a TOML or YAML key), a control character is
 * not allowed in a TOML comment (TOML 1.0.0, "Comment") nor printable in YAML 1.2.2
 * (§5.1, c-printable), and a terminal takes ESC as the start of a command; each such
 * byte, and each byte that is not UTF-8, is written as \\xHH (calc_text_shown). */
static const char *shown_file(const struct calc_plan *p, char *buf, size_t n)
{
	return calc_text_shown(buf, n, p->file);
}

static void print_notes(const struct notes *ns, FILE *f, const char *prefix)
{
	for (int i = 0; i < ns->n; i++)
		fprintf(f, "%s%s\n", prefix, ns->text[i]);
}

/* ------------------------------------------------------------------------ */
/* Megatron-LM: flags of megatron/training/arguments.py (NVIDIA/Megatron-LM at commit
 * d98e8a64ddf3, 2026-08-22; tests/export/megatron-args.txt; flags generated from the fields of megatron/core/model_parallel_config.py
 * and megatron/core/transformer/transformer_config.py), launched by torchrun.
 * Megatron-LM runs 1F1B, and interleaved 1F1B with virtual stages; the distributed
 * optimizer is ZeRO-1, Megatron FSDP's sharding strategies optim_grads and
 * optim_grads_params are ZeRO-2 and ZeRO-3. */

/* Megatron-Core's --pipeline-model-parallel-layout of the plan's chunks: one entry per
 * virtual stage in model order, 'E' the embedding, "t*N" N transformer layers, 'm' the
 * MTP block, 'L' the loss with the output layer, entries separated by '|'
 * (megatron/core/transformer/pipeline_parallel_layer_layout.py at commit d98e8a6).
 * Without a chunk layout, virtual stage c x pp + s holds 1/v of stage s's layers, which
 * needs each stage's layers divisible by v.  Returns 0, or -1 when it does not fit. */
static int megatron_layout(const struct calc_plan *p, char *buf, size_t n)
{
	int pp = p->pp, v = p->vpp > 1 ? p->vpp : 1, total = pp * v;
	char e[CALC_MAX_VSTAGES][16];
	size_t o = 0;
	buf[0] = 0;
	if (total > CALC_MAX_VSTAGES)
		return -1;
	for (int g = 0; g < total; g++) {
		int layers, s = g % pp;
		int embed = p->chunks.n > 0 ? g == p->chunks.embed : g == 0;
		int head = p->chunks.n > 0 ? g == p->chunks.head : g == total - 1;
		int mtp = p->model.mtp_depth > 0 && (p->chunks.n > 0 ? g == p->chunks.mtp : g == total - 1);
		if (p->chunks.n > 0)
			layers = p->chunks.layers[g];
		else if (p->layers_per_stage[s] % v)
			return -1;
		else
			layers = p->layers_per_stage[s] / v;
		snprintf(e[g], sizeof e[g], "%s%s%.0d%s%s", embed ? "E" : "", layers > 1 ? "t*" : layers == 1 ? "t" : "",
		         layers > 1 ? layers : 0, mtp ? "m" : "", head ? "L" : "");
	}
	/* runs of equal entries as "(X|)*k", which parse_str_to_list expands */
	for (int g = 0; g < total;) {
		int k = 1, w;
		while (g + k < total && !strcmp(e[g + k], e[g]))
			k++;
		if (g + k == total && k > 1)
			k--; /* the last entry has no '|' after it */
		if (k > 1)
			w = snprintf(buf + o, n - o, "(%s|)*%d", e[g], k);
		else
			w = snprintf(buf + o, n - o, "%s%s", e[g], g + 1 < total ? "|" : "");
		if (w < 0 || (size_t)w >= n - o)
			return -1;
		o += (size_t)w;
		g += k;
	}
	return 0;
}

static int export_megatron(const struct calc_plan *p, FILE *f, FILE *notes, struct calc_diag *d)
{
	static const int ok[] = {CALC_SCHED_1F1B, CALC_SCHED_INTERLEAVED, -1};
	const struct calc_model *m = &p->model;
	struct notes ns = {0};
	char buf[96][CALC_LAYOUT_MAX + 48], shown[CALC_PATH_MAX * 4];
	int n = 0, rc, hybrid_pipes = 0;

	if ((rc = check_schedule(d, p, "megatron", "Megatron-LM", ok)))
		return rc;
#define FLAG(...) snprintf(buf[n++], sizeof buf[0], __VA_ARGS__)
	FLAG("--num-layers %d", m->layers);
	FLAG("--hidden-size %d", m->hidden);
	FLAG("--num-attention-heads %d", m->heads);
	if (m->kv_heads != m->heads) {
		FLAG("--group-query-attention");
		FLAG("--num-query-groups %d", m->kv_heads);
	}
	if (m->head_dim * m->heads != m->hidden)
		FLAG("--kv-channels %d", m->head_dim);
	FLAG("--ffn-hidden-size %d", m->ffn_hidden);
	FLAG("--vocab-size %d", m->vocab);
	{
		/* Megatron-LM pads the vocabulary to a multiple of --make-vocab-size-divisible-by
		 * (default 128) x tp (megatron/training/vocab_utils.py:58 and
		 * megatron/core/tokenizers/utils/build_tokenizer.py:138 at d98e8a6; docs/references.md §7.14); the plan counts model.vocab as given, so the largest power of two up
		 * to 128 that keeps it unpadded is written, or the default with a note when tp does not
		 * divide the vocabulary */
		int d = 128;
		while (d > 1 && m->vocab % ((long)d * p->tp))
			d /= 2;
		if (m->vocab % ((long)d * p->tp))
			note(&ns, "Megatron-LM pads the vocabulary of %d to a multiple of 128 x tp %d, which the plan does "
			          "not count", m->vocab, p->tp);
		else if (d != 128)
			FLAG("--make-vocab-size-divisible-by %d", d);
	}
	FLAG("--seq-length %d", p->seq_len);
	FLAG("--max-position-embeddings %d", m->max_pos > 0 ? m->max_pos : p->seq_len);
	FLAG("--position-embedding-type %s", m->max_pos > 0 ? "learned_absolute" : "rope");
	if (m->mlp == CALC_MLP_SWIGLU)
		FLAG("--swiglu");
	if (m->norm == CALC_NORM_RMSNORM)
		FLAG("--normalization RMSNorm");
	if (!m->tied_embeddings)
		FLAG("--untie-embeddings-and-output-weights");
	if (!m->bias)
		FLAG("--disable-bias-linear");
	if (!m->dropout) {
		FLAG("--attention-dropout 0");
		FLAG("--hidden-dropout 0");
	}
	if (m->moe.experts > 0) {
		FLAG("--num-experts %d", m->moe.experts);
		FLAG("--moe-router-topk %d", m->moe.top_k);
		FLAG("--moe-ffn-hidden-size %d", m->moe.expert_ffn);
		if (m->moe.shared > 0)
			FLAG("--moe-shared-expert-intermediate-size %d",
			     m->moe.shared * (m->moe.shared_ffn ? m->moe.shared_ffn : m->moe.expert_ffn));
		/* DeepSeek-V3's aux-loss-free per-expert bias (transformer_config.py
		 * moe_router_enable_expert_bias at d98e8a6) */
		if (m->moe.router_bias)
			FLAG("--moe-router-enable-expert-bias");
		/* Qwen2-MoE / Qwen3-Next's sigmoid gate on the shared experts
		 * (transformer_config.py moe_shared_expert_gate at d98e8a6) */
		if (m->moe.shared > 0 && m->moe.shared_gate)
			FLAG("--moe-shared-expert-gate");
		/* node-limited routing (DeepSeek-V3 §2.1.2, M nodes per token): Megatron-Core's
		 * group-limited routing with one group of experts per node of the EP group
		 * (--moe-router-num-groups, --moe-router-group-topk; transformer_config.py at d98e8a6),
		 * which is what it is when the experts of a group sit on one node */
		if (m->moe.node_limit > 0 && p->ep > p->gpus_per_node && p->ep % p->gpus_per_node == 0 &&
		    m->moe.node_limit < p->ep / p->gpus_per_node) {
			FLAG("--moe-router-num-groups %d", p->ep / p->gpus_per_node);
			FLAG("--moe-router-group-topk %d", m->moe.node_limit);
		}
		/* --moe-layer-freq: an int N (layer i is MoE when i %% N == 0) or a Python list
		 * expression of 0/1 per layer (arguments.py moe_freq_type, gpt_layer_specs.py at
		 * commit d98e8a6).  The plan's rule: layers 0 .. first_dense - 1 dense, and of the
		 * others layer i MoE when (i + 1) %% model.moe_every == 0 (model.h struct calc_moe,
		 * calc_model_layer_is_moe), written here as the list it gives. */
		if (m->moe.every > 1) {
			char freq[CALC_LAYOUT_MAX];
			if (moe_freq_list(m, freq, sizeof freq) < 0)
				return key_error(d, p, "model", "moe_every", "export --for megatron: %d layers are too many to "
				                 "write as a --moe-layer-freq list here", m->layers);
			FLAG("--moe-layer-freq \"%s\"", freq);
		} else if (m->moe.first_dense > 0)
			FLAG("--moe-layer-freq \"([0]*%d+[1]*%d)\"", m->moe.first_dense, m->layers - m->moe.first_dense);
	}
	if (m->mla.kv_lora_rank > 0) {
		/* --multi-latent-attention and its ranks (arguments.py:3548-3556 at commit d98e8a6;
		 * --q-lora-rank absent = None: queries projected from h directly) */
		FLAG("--multi-latent-attention");
		if (m->mla.q_lora_rank > 0)
			FLAG("--q-lora-rank %d", m->mla.q_lora_rank);
		FLAG("--kv-lora-rank %d", m->mla.kv_lora_rank);
		FLAG("--qk-head-dim %d", m->mla.qk_nope_dim);
		FLAG("--qk-pos-emb-head-dim %d", m->mla.qk_rope_dim);
		FLAG("--v-head-dim %d", m->mla.v_head_dim);
	}
	if (m->mtp_depth > 0)
		FLAG("--mtp-num-layers %d", m->mtp_depth);
	/* gated attention (model.attn_gate; transformer_config.py attention_output_gate at
	 * d98e8a6) */
	if (m->attn_gate)
		FLAG("--attention-output-gate");
	/* Mamba-1 layers (S, docs/references.md §5.17): Megatron-Core's hybrid allocation
	 * has no symbol for them, so no flag runs them */
	if (strchr(m->hybrid, 'S'))
		return key_error(d, p, "model", "hybrid_pattern", "export --for megatron: the pattern has Mamba-1 layers "
		                 "(S), which Megatron-Core does not run (its hybrid layer pattern knows M Mamba-2, G, *, -, "
		                 "E); allowed: a pattern without S");
	if (m->hybrid[0]) {
		/* the stages of a hybrid model: '|' between the virtual stages' layers, or the
		 * plain pattern that Megatron-Core splits evenly (hybrid_segments) */
		char seg[CALC_LAYOUT_MAX];
		int rc = hybrid_segments(p, seg, sizeof seg);
		if (rc < 0)
			return key_error(d, p, "model", "hybrid_pattern", "export --for megatron: the stages' layers (%d on "
			                 "stage 0) do not split into the %d virtual stages of each rank, or the pattern with "
			                 "'|' between them is longer than %d characters", p->layers_per_stage[0],
			                 p->vpp > 1 ? p->vpp : 1, (int)sizeof seg - 2);
		hybrid_pipes = rc == 0;
		FLAG("--hybrid-layer-pattern \"%s\"", rc == 0 ? seg : m->hybrid);
		/* a hybrid model (docs/references.md §5.14) runs under pretrain_hybrid.py with its
		 * layer pattern and Mamba-2 shape (megatron/training/arguments.py at d98e8a6:
		 * --hybrid-layer-pattern, which --hybrid-override-pattern is the deprecated name
		 * of; --mamba-num-heads, --mamba-head-dim, --mamba-num-groups, --mamba-state-dim);
		 * the conv1d kernel and the SSD chunk are MambaMixer's constructor defaults (4,
		 * 128), with no flag */
		if (m->mamba.heads > 0) {
			FLAG("--mamba-num-heads %d", m->mamba.heads);
			FLAG("--mamba-head-dim %d", m->mamba.head_dim);
			FLAG("--mamba-num-groups %d", m->mamba.groups);
			FLAG("--mamba-state-dim %d", m->mamba.state);
		}
		/* gated delta-net layers (G, docs/references.md §5.15): their shape as
		 * transformer_config.py names it at d98e8a6 (linear_num_key_heads,
		 * linear_num_value_heads, linear_key_head_dim, linear_value_head_dim,
		 * linear_conv_kernel_dim); the chunk is FLA's fixed 64, with no flag */
		if (strchr(m->hybrid, 'G')) {
			FLAG("--linear-num-key-heads %d", m->gdn.key_heads);
			FLAG("--linear-num-value-heads %d", m->gdn.value_heads);
			FLAG("--linear-key-head-dim %d", m->gdn.key_dim);
			FLAG("--linear-value-head-dim %d", m->gdn.value_dim);
			FLAG("--linear-conv-kernel-dim %d", m->gdn.conv);
			if (m->gdn.chunk != 64)
				note(&ns, "Megatron-LM has no flag for the gated delta-net chunk (%d): FLA's "
				          "chunk_gated_delta_rule runs chunks of 64", m->gdn.chunk);
		}
		if (strchr(m->hybrid, 'M') && (m->mamba.conv != 4 || m->mamba.chunk != 128))
			note(&ns, "Megatron-LM has no flag for the Mamba-2 conv1d kernel (%d) or the SSD chunk (%d): "
			          "MambaMixer's defaults 4 and 128 run", m->mamba.conv, m->mamba.chunk);
		if (m->mlp == CALC_MLP_GELU)
			note(&ns, "the MLP layers are written as GeLU, Megatron-LM's default; a model of squared-ReLU MLPs "
			          "(Nemotron-H) takes --squared-relu, of the same shape and cost here");
	}
	FLAG("--micro-batch-size %d", p->micro_batch);
	FLAG("--global-batch-size %d", p->global_batch);
	FLAG("--train-samples %ld", train_samples(p));
	FLAG("--tensor-model-parallel-size %d", p->tp);
	FLAG("--pipeline-model-parallel-size %d", p->pp);
	/* the pipeline split (arguments.py:3103-3120 and transformer_config.py:137-141 at commit
	 * d98e8a6): the plan's own layout keys in Megatron-Core's words; torchtitan's rule and an
	 * uneven stage list as the layout string of the same placement; even stages with
	 * --num-virtual-stages-per-pipeline-rank (a layout fixes the virtual stages itself) */
	if (p->pp > 1 && !hybrid_pipes) {
		int vs = p->vpp > 1;
		char lay[CALC_LAYOUT_MAX];
		if (p->layout[0]) {
			FLAG("--pipeline-model-parallel-layout \"%s\"", p->layout);
			vs = 0;
		} else if (p->first_stage_layers > 0 || p->last_stage_layers > 0) {
			if (p->first_stage_layers > 0)
				FLAG("--decoder-first-pipeline-num-layers %d", p->first_stage_layers);
			if (p->last_stage_layers > 0)
				FLAG("--decoder-last-pipeline-num-layers %d", p->last_stage_layers);
		} else if (p->account_embedding || p->account_loss) {
			if (p->account_embedding)
				FLAG("--account-for-embedding-in-pipeline-split");
			if (p->account_loss)
				FLAG("--account-for-loss-in-pipeline-split");
		} else if (p->chunks.n > 0 || !stages_even(p) || m->layers % (p->pp * (p->vpp > 1 ? p->vpp : 1))) {
			if (!vs && p->chunks.n == 0 && (middle_even(p) || p->pp == 2)) {
				FLAG("--decoder-first-pipeline-num-layers %d", p->layers_per_stage[0]);
				FLAG("--decoder-last-pipeline-num-layers %d", p->layers_per_stage[p->pp - 1]);
			} else if (megatron_layout(p, lay, sizeof lay) == 0) {
				FLAG("--pipeline-model-parallel-layout \"%s\"", lay);
				vs = 0;
			} else {
				return key_error(d, p, "parallel", p->uneven_stages ? "layers_per_stage" : "vpp",
				                 "export --for megatron: the stages' layers (%d on stage 0) do not split into "
				                 "the %d virtual stages of each rank, and Megatron-LM gives every virtual stage "
				                 "of a rank its share of whole layers (allowed: stages whose layers vpp divides, "
				                 "or parallel.layout)", p->layers_per_stage[0], p->vpp);
			}
		}
		if (vs)
			FLAG("--num-virtual-stages-per-pipeline-rank %d", p->vpp);
	}
	FLAG("--context-parallel-size %d", p->cp);
	/* CP's exchange (arguments.py:3221, default p2p, and :580-585 at d98e8a6) in the words
	 * Transformer Engine takes (context_parallel.py:5096-5139 at d0067d0d: all_gather) */
	if (p->cp > 1) {
		static const char *const te[] = {"all_gather", "p2p", "a2a", "a2a+p2p"};
		FLAG("--cp-comm-type %s", te[p->cp_comm]);
		if (p->cp_comm == CALC_CP_A2A_P2P)
			FLAG("--hierarchical-context-parallel-sizes %d %d", p->cp_a2a_size, p->cp / p->cp_a2a_size);
	}
	if (m->moe.experts > 0) {
		FLAG("--expert-model-parallel-size %d", p->ep);
		FLAG("--expert-tensor-parallel-size %d", p->etp);
		/* moe.*: Megatron-Core's options of the same meaning (transformer_config.py and
		 * model_parallel_config.py at commit d98e8a6; docs/references.md §5.12) */
		if (p->moe_dispatcher == CALC_DISP_DEEPEP || p->moe_dispatcher == CALC_DISP_HYBRIDEP) {
			FLAG("--moe-token-dispatcher-type flex");
			FLAG("--moe-flex-dispatcher-backend %s", p->moe_dispatcher == CALC_DISP_DEEPEP ? "deepep" : "hybridep");
		} else
			FLAG("--moe-token-dispatcher-type %s", p->moe_dispatcher == CALC_DISP_ALLGATHER ? "allgather" : "alltoall");
		if (p->overlap_ep_comm)
			FLAG("--overlap-moe-expert-parallel-comm");
		if (p->router_fusion)
			FLAG("--moe-router-fusion");
		if (p->permute_fusion)
			FLAG("--moe-permute-fusion");
		if (m->moe.capacity > 0) {
			FLAG("--moe-expert-capacity-factor %g", m->moe.capacity);
			FLAG("--moe-pad-expert-input-to-capacity");
		}
	}
	/* training.cuda_graphs (docs/references.md §5.16): Megatron-Core's cuda_graph_impl
	 * (transformer_config.py line 1075 at d98e8a64); per-layer graphs of an MoE model
	 * capture what comes before the token-count sync, as Megatron-Bridge's presets do */
	if (p->cuda_graphs == CALC_GRAPHS_FULL)
		FLAG("--cuda-graph-impl full_iteration");
	else if (p->cuda_graphs == CALC_GRAPHS_PARTIAL) {
		FLAG("--cuda-graph-impl transformer_engine");
		if (m->moe.experts > 0)
			FLAG("--cuda-graph-modules attn moe_router moe_preprocess");
	}
	if (p->sp && p->tp > 1)
		FLAG("--sequence-parallel");
	if (p->zero == 1) {
		FLAG("--use-distributed-optimizer");
	} else if (p->zero >= 2) {
		FLAG("--use-distributed-optimizer");
		FLAG("--use-megatron-fsdp");
		FLAG("--data-parallel-sharding-strategy %s", p->zero == 2 ? "optim_grads" : "optim_grads_params");
	}
	/* the optimizer's dtypes: Adam moments in BF16 are --use-precision-aware-optimizer with
	 * --exp-avg-dtype / --exp-avg-sq-dtype bf16 and fp32 master weights (arguments.py:3667 at
	 * commit d98e8a6; recipes adam-bf16 and deepseek-v3, recipe.c) */
	if (!strcmp(p->recipe_name, "adam-bf16") || !strcmp(p->recipe_name, "deepseek-v3")) {
		FLAG("--use-precision-aware-optimizer");
		FLAG("--main-params-dtype fp32");
		FLAG("--exp-avg-dtype bf16");
		FLAG("--exp-avg-sq-dtype bf16");
	} else if (strcmp(p->recipe_name, "megatron") && strcmp(p->recipe_name, "fp32") && strcmp(p->recipe_name, "fp8-te") &&
	           strcmp(p->recipe_name, "fp8-params") && strcmp(p->recipe_name, "mxfp8") && strcmp(p->recipe_name, "nvfp4")) {
		return key_error(d, p, "training", "recipe", "export --for megatron: the recipe '%s' has no Megatron-LM "
		                 "flags (allowed: megatron, fp32, fp8-te, fp8-params, mxfp8, nvfp4, adam-bf16, deepseek-v3)",
		                 p->recipe_name);
	}
	/* training.offload_optimizer: HybridDeviceOptimizer, whose README (megatron/core/optimizer/
	 * cpu_offloading/README.md at d98e8a6) adds --use-precision-aware-optimizer to the two */
	if (p->offload_optimizer > 0 && p->offload_style == CALC_OFFLOAD_ZERO)
		return key_error(d, p, "training", "offload_style", "export --for megatron: training.offload_style = "
		                 "zero-offload is DeepSpeed's ZeRO-Offload, costed so; Megatron-LM's "
		                 "--optimizer-cpu-offload is offload_style = megatron (allowed: megatron)");
	if (p->offload_param)
		return key_error(d, p, "training", "offload_param", "export --for megatron: training.offload_param is "
		                 "DeepSpeed's ZeRO-3 parameter offload, which Megatron-LM does not run (allowed: none)");
	if (p->offload_optimizer > 0) {
		FLAG("--optimizer-cpu-offload");
		FLAG("--optimizer-offload-fraction %g", p->offload_optimizer);
		if (strcmp(p->recipe_name, "adam-bf16") && strcmp(p->recipe_name, "deepseek-v3"))
			FLAG("--use-precision-aware-optimizer");
	}
	/* training.offload_activations: layer-level CPU offloading of activations, not weights
	 * (transformer_config.py at d98e8a6: cpu_offloading, cpu_offloading_num_layers) */
	if (p->offload_layers > 0) {
		FLAG("--cpu-offloading");
		FLAG("--cpu-offloading-num-layers %d", p->offload_layers);
	}
	/* training.offload_modules: fine-grained activation offloading, the list argument of
	 * TransformerConfig.offload_modules (transformer_config.py at d98e8a6) */
	if (p->offload_modules) {
		char mods[160] = "";
		for (int i = 0; i < CALC_OFM_N; i++)
			if (p->offload_modules & (1u << i))
				snprintf(mods + strlen(mods), sizeof mods - strlen(mods), " %s", calc_off_module_name(i));
		FLAG("--fine-grained-activation-offloading");
		FLAG("--offload-modules%s", mods);
		if (p->offload_fraction < 1)
			FLAG("--activation-offload-fraction %g", p->offload_fraction);
	}
	/* the gradients: --grad-reduce-in-bf16 holds the main grads and reduces them in BF16
	 * (arguments.py:1213 at commit d98e8a6 turns accumulate_allreduce_grads_in_fp32 off); one
	 * flag for both, so a plan with the two apart has no Megatron-LM equivalent */
	if (strcmp(p->recipe_name, "fp32")) {
		int g16 = p->main_grads == 1, r16 = p->grad_reduce == 1;
		if (g16 != r16 && p->main_grads != 0 && p->grad_reduce != 0)
			return key_error(d, p, "training", "main_grads", "export --for megatron: main grads in %s reduced in %s: "
			                 "Megatron-LM's --grad-reduce-in-bf16 sets both (allowed: training.main_grads and "
			                 "efficiency.grad_reduce both bf16 or both fp32)", g16 ? "bf16" : "fp32", r16 ? "bf16" : "fp32");
		if (g16 || r16)
			FLAG("--grad-reduce-in-bf16");
	}
	/* the loss: Megatron-LM's fused vocab-parallel cross-entropy (training.cross_entropy) */
	if (p->cross_entropy == CALC_XENT_FUSED)
		FLAG("--cross-entropy-loss-fusion");
	/* overlap: efficiency.dp_overlap > 0 hides the gradient reduce-scatter behind the
	 * backward (--overlap-grad-reduce) and, with the distributed optimizer, the parameter
	 * all-gather behind the forward (--overlap-param-gather); efficiency.tp_overlap > 0 is
	 * Transformer Engine's userbuffer overlap (--tp-comm-overlap, model_parallel_config.py:265).
	 * The gradients are reduced over DP x CP (the group dp_cp, megatron/core/
	 * process_groups_config.py:261 at d98e8a6), so CP alone has a reduction to hide. */
	if (p->dp * p->cp > 1 && p->dp_overlap > 0) {
		FLAG("--overlap-grad-reduce");
		if (p->zero >= 1)
			FLAG("--overlap-param-gather");
	}
	if (p->tp > 1 && p->tp_overlap > 0)
		FLAG("--tp-comm-overlap");
	/* rank order: Megatron-LM's tp-cp-ep-dp-pp, or tp-cp-ep-pp-dp with --use-tp-pp-dp-mapping
	 * (megatron/training/initialize.py:395, training/config/common_config.py:105 at d98e8a6);
	 * without ep in parallel.placement the expert ranks follow cp, as there */
	{
		char order[48];
		const char *s = p->placement, *c = strstr(s, "cp");
		if (strstr(s, "ep") || !c)
			snprintf(order, sizeof order, "%s", s);
		else if (!c[2])
			snprintf(order, sizeof order, "%s-ep", s);
		else
			snprintf(order, sizeof order, "%.*sep-%s", (int)(c - s + 3), s, c + 3);
		if (!strcmp(order, "tp-cp-ep-pp-dp"))
			FLAG("--use-tp-pp-dp-mapping");
		else if (strcmp(order, "tp-cp-ep-dp-pp") && (p->pp > 1 || p->dp > 1))
			return key_error(d, p, "parallel", "placement", "export --for megatron: the rank order %s is not one of "
			                 "Megatron-LM's (allowed: tp-cp-ep-dp-pp, its default, or tp-cp-ep-pp-dp with "
			                 "--use-tp-pp-dp-mapping)", p->placement);
	}
	if (p->recompute == CALC_RC_SELECTIVE) {
		FLAG("--recompute-granularity selective");
	} else if (p->recompute == CALC_RC_FULL) {
		/* parallel.recompute_method unset is uniform with N = 1 (plan.h enum calc_rc_method) */
		FLAG("--recompute-granularity full");
		FLAG("--recompute-method %s", p->recompute_method == CALC_RC_METHOD_BLOCK ? "block" : "uniform");
		FLAG("--recompute-num-layers %d", p->recompute_num_layers > 0 ? p->recompute_num_layers : 1);
	} else if (p->recompute == CALC_RC_MODULES || p->recompute == CALC_RC_DSV3) {
		/* Megatron-Core's selective granularity with --recompute-modules; DeepSeek-V3's
		 * recomputation is the modules layernorm, mla_up_proj (calc_recompute_modules) */
		char mods[72] = "";
		unsigned bits = calc_recompute_modules(p->recompute, p->recompute_modules);
		for (int i = 0; i < CALC_RCM_N; i++)
			if (bits & (1u << i))
				snprintf(mods + strlen(mods), sizeof mods - strlen(mods), " %s", calc_rc_module_name(i));
		FLAG("--recompute-granularity selective");
		FLAG("--recompute-modules%s", mods);
	}
	FLAG("--attention-backend %s", p->flash_attention ? "flash" : "unfused");
	if (strcmp(p->recipe->name, "fp32")) {
		FLAG("--bf16");
		/* Megatron-LM TransformerConfig fp8_recipe / fp4_format / fp4_recipe (transformer_config.py)
		 * and Megatron-Bridge's bf16_with_mxfp8_mixed and bf16_with_nvfp4_mixed */
		if (p->recipe->fp8_compute == CALC_LP_MXFP8) {
			FLAG("--fp8-format e4m3");
			FLAG("--fp8-recipe mxfp8");
			FLAG("--fp8-param-gather");
			FLAG("--reuse-grad-buf-for-mxfp8-param-ag");
		} else if (p->recipe->fp8_compute == CALC_LP_NVFP4) {
			FLAG("--fp4-format e2m1");
			FLAG("--fp4-recipe nvfp4");
			FLAG("--fp4-param-gather");
		} else if (!strcmp(p->recipe_name, "deepseek-v3")) {
			/* DeepSeek-V3 §3.3.2: E4M3 everywhere with 1x128 / 128x128 block scales, which is
			 * Transformer Engine's blockwise recipe (transformer_config.py fp8_recipe at d98e8a6) */
			FLAG("--fp8-format e4m3");
			FLAG("--fp8-recipe blockwise");
		} else if (p->recipe->fp8_compute)
			FLAG("--fp8-format hybrid");
		if (!strcmp(p->recipe->name, "fp8-params"))
			FLAG("--fp8-param-gather"); /* TE's FP8 parameters, gathered in FP8 */
	}
#undef FLAG
	fprintf(f, "# Megatron-LM flags for %s: tp %d x cp %d x pp %d x dp %d = %d GPUs, %d micro-batches per step\n",
	        shown_file(p, shown, sizeof shown), p->tp, p->cp, p->pp, p->dp, calc_plan_gpus(p), calc_plan_microbatches(p));
	print_notes(&ns, f, "# note: ");
	fprintf(f, "torchrun --nnodes %d --nproc-per-node %d %s \\\n", p->nodes, p->gpus_per_node,
	        m->hybrid[0] ? "pretrain_hybrid.py" : "pretrain_gpt.py");
	for (int i = 0; i < n; i++)
		fprintf(f, "    %s%s\n", buf[i], i + 1 < n ? " \\" : "");
	return 0;
}

/* ------------------------------------------------------------------------ */
/* NeMo 2: Megatron-Bridge (NVIDIA-NeMo/Megatron-Bridge at commit 067f987d, 2026-08-22),
 * the training library of NeMo 2, run by scripts/training/run_recipe.py with a recipe and
 * KEY=VALUE overrides of its ConfigContainer (src/megatron/bridge/training/config.py):
 * model.* the GPTModelProvider's fields (src/megatron/bridge/models/gpt_provider.py, a
 * Megatron-Core TransformerConfig; Megatron-LM at 2a75ac12, the commit Megatron-Bridge
 * pins in 3rdparty/Megatron-LM), train.*, optimizer.*, ddp.*, dist.* and mixed_precision
 * (a recipe of src/megatron/bridge/training/mixed_precision.py).  The architecture is
 * written key by key over the recipe vanilla_gpt_pretrain_1gpu_h100_bf16_config
 * (recipes/gpt/h100/vanilla_gpt.py), or deepseek_v3_pretrain_1024gpu_h100_bf16_config
 * (recipes/deepseek/h100/deepseek_v3.py) for multi-latent attention, whose provider has
 * the MLA fields.  Megatron-Core runs 1F1B and interleaved 1F1B. */

static int export_nemo(const struct calc_plan *p, FILE *f, FILE *notes, struct calc_diag *d)
{
	static const int ok[] = {CALC_SCHED_1F1B, CALC_SCHED_INTERLEAVED, -1};
	const struct calc_model *m = &p->model;
	struct notes ns = {0};
	char buf[96][CALC_LAYOUT_MAX + 64], shown[CALC_PATH_MAX * 4];
	const char *mp = NULL;
	int n = 0, rc;
	if ((rc = check_schedule(d, p, "nemo", "NeMo (Megatron-Core)", ok)))
		return rc;
	if (m->hybrid[0])
		return key_error(d, p, "model", "hybrid_pattern", "export --for nemo: a hybrid model is a MambaModelProvider "
		                 "of Megatron-Bridge (NemotronHModelProvider), not the GPT recipe written here (export "
		                 "--for megatron writes it for pretrain_hybrid.py)");
	if (p->offload_layers > 0 || p->offload_optimizer > 0 || p->offload_modules || p->offload_param)
		note(&ns, "CPU offloading (training.offload_activations, offload_modules, offload_optimizer, offload_param) is not written: "
		     "set model.cpu_offloading, model.fine_grained_activation_offloading with model.offload_modules, or "
		     "optimizer.optimizer_cpu_offload by hand");
	if (p->zero >= 2)
		return key_error(d, p, "parallel", "zero", "export --for nemo: ZeRO-%d is Megatron FSDP's, not written here "
		                 "(allowed: 0, 1; export --for megatron writes Megatron FSDP)", p->zero);
	if (p->recompute == CALC_RC_DSV3)
		return key_error(d, p, "parallel", "recompute", "export --for nemo: write DeepSeek-V3's recomputation as "
		                 "recompute = modules with its modules (allowed: none, selective, full, modules)");
	/* mixed_precision: the recipe's name (mixed_precision.py) */
	if (!strcmp(p->recipe_name, "megatron") || !strcmp(p->recipe_name, "adam-bf16"))
		mp = "bf16_mixed";
	else if (!strcmp(p->recipe_name, "fp8-te") || !strcmp(p->recipe_name, "fp8-params"))
		mp = "bf16_with_fp8_delayed_scaling_mixed"; /* which gathers FP8 parameters (mixed_precision.py:231) */
	else if (!strcmp(p->recipe_name, "mxfp8"))
		mp = "bf16_with_mxfp8_mixed";
	else if (!strcmp(p->recipe_name, "nvfp4"))
		mp = "bf16_with_nvfp4_mixed";
	else if (!strcmp(p->recipe_name, "deepseek-v3"))
		mp = "bf16_with_fp8_subchannel_scaling_mixed"; /* 1x128 / 128x128 block scales */
	else if (strcmp(p->recipe_name, "fp32"))
		return key_error(d, p, "training", "recipe", "export --for nemo: the recipe '%s' has no Megatron-Bridge "
		                 "mixed-precision recipe (allowed: megatron, adam-bf16, fp8-te, fp8-params, mxfp8, nvfp4, "
		                 "deepseek-v3, fp32)",
		                 p->recipe_name);
#define KV(...) snprintf(buf[n++], sizeof buf[0], __VA_ARGS__)
	KV("model.num_layers=%d", m->layers);
	KV("model.hidden_size=%d", m->hidden);
	KV("model.num_attention_heads=%d", m->heads);
	KV("model.num_query_groups=%d", m->kv_heads);
	KV("model.kv_channels=%d", m->head_dim);
	KV("model.ffn_hidden_size=%d", m->ffn_hidden);
	KV("model.vocab_size=%d", m->vocab);
	KV("model.should_pad_vocab=false"); /* the plan counts model.vocab as given */
	KV("model.seq_length=%d", p->seq_len);
	KV("dataset.seq_length=%d", p->seq_len);
	KV("model.position_embedding_type=%s", m->max_pos > 0 ? "learned_absolute" : "rope");
	/* SwiGLU: a gated linear unit of SiLU (activation_func by its name,
	 * src/megatron/bridge/utils/activation_map.py) */
	KV("model.gated_linear_unit=%s", m->mlp == CALC_MLP_SWIGLU ? "true" : "false");
	KV("model.activation_func=%s", m->mlp == CALC_MLP_SWIGLU ? "silu" : "gelu");
	KV("model.normalization=%s", m->norm == CALC_NORM_RMSNORM ? "RMSNorm" : "LayerNorm");
	KV("model.share_embeddings_and_output_weights=%s", m->tied_embeddings ? "true" : "false");
	KV("model.add_bias_linear=%s", m->bias ? "true" : "false");
	KV("model.hidden_dropout=%s", m->dropout ? "0.1" : "0.0");
	KV("model.attention_dropout=%s", m->dropout ? "0.1" : "0.0");
	if (m->mla.kv_lora_rank > 0) {
		KV("model.q_lora_rank=%s", "null");
		if (m->mla.q_lora_rank > 0)
			snprintf(buf[n - 1], sizeof buf[0], "model.q_lora_rank=%d", m->mla.q_lora_rank);
		KV("model.kv_lora_rank=%d", m->mla.kv_lora_rank);
		KV("model.qk_head_dim=%d", m->mla.qk_nope_dim);
		KV("model.qk_pos_emb_head_dim=%d", m->mla.qk_rope_dim);
		KV("model.v_head_dim=%d", m->mla.v_head_dim);
	}
	if (m->moe.experts > 0) {
		KV("model.num_moe_experts=%d", m->moe.experts);
		KV("model.moe_router_topk=%d", m->moe.top_k);
		KV("model.moe_ffn_hidden_size=%d", m->moe.expert_ffn);
		KV("model.moe_shared_expert_intermediate_size=%s", "null");
		if (m->moe.shared > 0)
			snprintf(buf[n - 1], sizeof buf[0], "model.moe_shared_expert_intermediate_size=%d",
			         m->moe.shared * (m->moe.shared_ffn ? m->moe.shared_ffn : m->moe.expert_ffn));
		KV("model.moe_router_enable_expert_bias=%s", m->moe.router_bias ? "true" : "false");
		if (m->moe.node_limit > 0 && p->ep > p->gpus_per_node && p->ep % p->gpus_per_node == 0 &&
		    m->moe.node_limit < p->ep / p->gpus_per_node) {
			/* node-limited routing as group-limited routing, a group per node (as for megatron) */
			KV("model.moe_router_num_groups=%d", p->ep / p->gpus_per_node);
			KV("model.moe_router_group_topk=%d", m->moe.node_limit);
		}
		/* moe_layer_freq: 1 or the list of 0/1 per layer, by the plan's rule (model.h struct calc_moe) */
		if (m->moe.every > 1 || m->moe.first_dense > 0) {
			char freq[CALC_LAYOUT_MAX];
			if (moe_freq_list(m, freq, sizeof freq) < 0)
				return key_error(d, p, "model", "layers", "export --for nemo: %d layers are too many to write as a "
				                 "model.moe_layer_freq list here", m->layers);
			KV("model.moe_layer_freq=%s", freq);
		} else
			KV("model.moe_layer_freq=1");
		if (p->moe_dispatcher == CALC_DISP_DEEPEP || p->moe_dispatcher == CALC_DISP_HYBRIDEP) {
			KV("model.moe_token_dispatcher_type=flex");
			KV("model.moe_flex_dispatcher_backend=%s", p->moe_dispatcher == CALC_DISP_DEEPEP ? "deepep" : "hybridep");
		} else
			KV("model.moe_token_dispatcher_type=%s", p->moe_dispatcher == CALC_DISP_ALLGATHER ? "allgather" : "alltoall");
		KV("model.expert_model_parallel_size=%d", p->ep);
		KV("model.expert_tensor_parallel_size=%d", p->etp);
	}
	if (m->mtp_depth > 0)
		KV("model.mtp_num_layers=%d", m->mtp_depth);
	KV("model.tensor_model_parallel_size=%d", p->tp);
	KV("model.pipeline_model_parallel_size=%d", p->pp);
	KV("model.context_parallel_size=%d", p->cp);
	/* CP's exchange: TransformerConfig cp_comm_type (None is p2p: Megatron-LM
	 * megatron/core/extensions/transformer_engine.py:2141 at d98e8a6), TE's words */
	if (p->cp > 1) {
		static const char *const te[] = {"all_gather", "p2p", "a2a", "a2a+p2p"};
		KV("model.cp_comm_type=%s", te[p->cp_comm]);
		if (p->cp_comm == CALC_CP_A2A_P2P)
			KV("model.hierarchical_context_parallel_sizes=[%d,%d]", p->cp_a2a_size, p->cp / p->cp_a2a_size);
	}
	KV("model.sequence_parallel=%s", p->sp && p->tp > 1 ? "true" : "false");
	if (p->pp > 1) {
		char lay[CALC_LAYOUT_MAX];
		if (p->vpp > 1 && !p->layout[0] && p->chunks.n == 0 && stages_even(p))
			KV("model.virtual_pipeline_model_parallel_size=%d", p->vpp);
		else
			KV("model.virtual_pipeline_model_parallel_size=null");
		if (p->layout[0])
			KV("model.pipeline_model_parallel_layout=\"%s\"", p->layout);
		else if (p->first_stage_layers > 0 || p->last_stage_layers > 0) {
			if (p->first_stage_layers > 0)
				KV("model.num_layers_in_first_pipeline_stage=%d", p->first_stage_layers);
			if (p->last_stage_layers > 0)
				KV("model.num_layers_in_last_pipeline_stage=%d", p->last_stage_layers);
			if (p->vpp > 1)
				snprintf(buf[n++], sizeof buf[0], "model.virtual_pipeline_model_parallel_size=%d", p->vpp);
		} else if (p->account_embedding || p->account_loss) {
			KV("model.account_for_embedding_in_pipeline_split=%s", p->account_embedding ? "true" : "false");
			KV("model.account_for_loss_in_pipeline_split=%s", p->account_loss ? "true" : "false");
			if (p->vpp > 1)
				KV("model.virtual_pipeline_model_parallel_size=%d", p->vpp);
		} else if (p->chunks.n > 0 || !stages_even(p) || m->layers % (p->pp * (p->vpp > 1 ? p->vpp : 1))) {
			if (megatron_layout(p, lay, sizeof lay) < 0)
				return key_error(d, p, "parallel", p->uneven_stages ? "layers_per_stage" : "vpp",
				                 "export --for nemo: the stages' layers do not split into the %d virtual stages "
				                 "of each rank (allowed: stages whose layers vpp divides, or parallel.layout)", p->vpp);
			KV("model.pipeline_model_parallel_layout=\"%s\"", lay);
		}
	}
	/* recomputation (TransformerConfig recompute_*) */
	if (p->recompute == CALC_RC_NONE)
		KV("model.recompute_granularity=null");
	else if (p->recompute == CALC_RC_SELECTIVE) {
		KV("model.recompute_granularity=selective");
		KV("model.recompute_modules=[core_attn]");
	} else if (p->recompute == CALC_RC_FULL) {
		KV("model.recompute_granularity=full");
		KV("model.recompute_method=%s", p->recompute_method == CALC_RC_METHOD_BLOCK ? "block" : "uniform");
		KV("model.recompute_num_layers=%d", p->recompute_num_layers > 0 ? p->recompute_num_layers : 1);
	} else {
		char mods[96] = "";
		unsigned bits = calc_recompute_modules(p->recompute, p->recompute_modules);
		for (int i = 0; i < CALC_RCM_N; i++)
			if (bits & (1u << i))
				snprintf(mods + strlen(mods), sizeof mods - strlen(mods), "%s%s", mods[0] ? "," : "",
				         calc_rc_module_name(i));
		KV("model.recompute_granularity=selective");
		KV("model.recompute_modules=[%s]", mods);
	}
	KV("model.cross_entropy_loss_fusion=%s", p->cross_entropy == CALC_XENT_FUSED ? "true" : "false");
	KV("model.tp_comm_overlap=%s", p->tp > 1 && p->tp_overlap > 0 ? "true" : "false");
	KV("train.micro_batch_size=%d", p->micro_batch);
	KV("train.global_batch_size=%d", p->global_batch);
	KV("train.train_iters=%ld", train_steps(p));
	KV("mixed_precision=%s", mp ? mp : "null");
	/* optimizer and DDP (megatron/core/optimizer/optimizer_config.py,
	 * megatron/core/distributed/distributed_data_parallel_config.py at 2a75ac12) */
	KV("optimizer.use_distributed_optimizer=%s", p->zero == 1 ? "true" : "false");
	KV("ddp.use_distributed_optimizer=%s", p->zero == 1 ? "true" : "false");
	KV("optimizer.use_precision_aware_optimizer=%s",
	   !strcmp(p->recipe_name, "adam-bf16") || !strcmp(p->recipe_name, "deepseek-v3") ? "true" : "false");
	if (!strcmp(p->recipe_name, "adam-bf16") || !strcmp(p->recipe_name, "deepseek-v3"))
		note(&ns, "BF16 Adam moments: optimizer.exp_avg_dtype and exp_avg_sq_dtype are torch dtypes "
		          "(torch.bfloat16), set in the recipe; the overrides take no dtype");
	KV("ddp.grad_reduce_in_fp32=%s", p->grad_reduce == 1 || p->main_grads == 1 ? "false" : "true");
	/* a mixed-precision recipe's fields overwrite DDP's (mixed_precision.py:142
	 * update_config_with_precision_overrides), and every BF16 one reduces in FP32 (:194) */
	if ((p->grad_reduce == 1 || p->main_grads == 1) && mp)
		note(&ns, "BF16 gradients: the mixed-precision recipe %s sets grad_reduce_in_fp32 = True over "
		     "ddp.grad_reduce_in_fp32 (mixed_precision.py:142, :194); set it in the recipe", mp);
	/* reduced over DP x CP, as for megatron */
	KV("ddp.overlap_grad_reduce=%s", p->dp * p->cp > 1 && p->dp_overlap > 0 ? "true" : "false");
	KV("ddp.overlap_param_gather=%s", p->dp * p->cp > 1 && p->dp_overlap > 0 && p->zero == 1 ? "true" : "false");
	if (!p->flash_attention)
		note(&ns, "attention without flash attention: model.attention_backend (an enum of Megatron-Core) set to "
		          "unfused in the recipe");
	{
		/* rank order as Megatron-LM's (initialize.py:395): dist.use_tp_pp_dp_mapping */
		const char *s = p->placement, *c = strstr(s, "cp");
		char order[48];
		if (strstr(s, "ep") || !c)
			snprintf(order, sizeof order, "%s", s);
		else if (!c[2])
			snprintf(order, sizeof order, "%s-ep", s);
		else
			snprintf(order, sizeof order, "%.*sep-%s", (int)(c - s + 3), s, c + 3);
		if (strcmp(order, "tp-cp-ep-pp-dp") && strcmp(order, "tp-cp-ep-dp-pp") && (p->pp > 1 || p->dp > 1))
			return key_error(d, p, "parallel", "placement", "export --for nemo: the rank order %s is not one of "
			                 "Megatron-Core's (allowed: tp-cp-ep-dp-pp, or tp-cp-ep-pp-dp)", p->placement);
		KV("dist.use_tp_pp_dp_mapping=%s", strcmp(order, "tp-cp-ep-pp-dp") ? "false" : "true");
	}
	/* bf16_with_fp8_delayed_scaling_mixed, bf16_with_mxfp8_mixed and bf16_with_nvfp4_mixed hold
	 * the parameters in the low-precision format (mixed_precision.py:231, :264) */
	if (!strcmp(p->recipe_name, "fp8-te"))
		note(&ns, "FP8 with BF16 parameters: Megatron-Bridge's FP8 recipes gather FP8 parameters "
		          "(fp8_param_gather = True, mixed_precision.py:231), which is training.recipe = fp8-params; "
		          "set fp8_param_gather = False in the recipe");
#undef KV
	fprintf(f, "# Megatron-Bridge (NeMo 2) recipe overrides for %s: tp %d x cp %d x pp %d x dp %d = %d GPUs, "
	        "%d micro-batches per step\n", shown_file(p, shown, sizeof shown), p->tp, p->cp, p->pp, p->dp,
	        calc_plan_gpus(p), calc_plan_microbatches(p));
	print_notes(&ns, f, "# note: ");
	fprintf(f, "torchrun --nnodes %d --nproc-per-node %d scripts/training/run_recipe.py \\\n", p->nodes, p->gpus_per_node);
	fprintf(f, "    --recipe %s --mode pretrain \\\n", m->mla.kv_lora_rank > 0 ? "deepseek_v3_pretrain_1024gpu_h100_bf16_config"
	                                                                            : "vanilla_gpt_pretrain_1gpu_h100_bf16_config");
	/* Hydra reads [, (, |, * and quotes itself: such an override goes to it in single quotes */
	for (int i = 0; i < n; i++)
		fprintf(f, strpbrk(buf[i], "[]()|*\"") ? "    '%s'%s\n" : "    %s%s\n", buf[i], i + 1 < n ? " \\" : "");
	return 0;
}

/* ------------------------------------------------------------------------ */
/* torchtitan: the [model], [training], [parallelism], [activation_checkpoint] and
 * [quantize] fields of torchtitan/config/job_config.py (pytorch/torchtitan at commit
 * 238fa995, the last with TOML job configs; tests/export/torchtitan-keys.txt), the TOML a
 * job's --job.config_file reads.  Current torchtitan takes the same fields as Python
 * dataclasses; the TOML is the form torchtitan at that commit reads.  Data parallelism is FSDP2 (data_parallel_shard_degree,
 * ZeRO-3, or ZeRO-2 without resharding after the forward) and plain replication
 * (data_parallel_replicate_degree, ZeRO-0); HSDP is both.  Schedules are PyTorch's
 * torch.distributed.pipelining names; sequence parallelism always comes with TP. */

static const char *tt_schedule(enum calc_schedule s)
{
	switch (s) {
	case CALC_SCHED_GPIPE: return "GPipe";
	case CALC_SCHED_1F1B: return "1F1B";
	case CALC_SCHED_INTERLEAVED: return "Interleaved1F1B";
	case CALC_SCHED_DUALPIPE: return "DualPipeV";
	default: return NULL;
	}
}

/* torchtitan's models by name and flavor (torchtitan/models/NAME/__init__.py at 238fa995)
 * and the presets of the same models, as import --from torchtitan reads them */
static const struct {
	const char *preset, *name, *flavor;
} tt_models[] = {
	{"llama3-8b", "llama3", "8B"},
	{"llama3-70b", "llama3", "70B"},
	{"llama3.1-405b", "llama3", "405B"},
	{"deepseek-v3", "deepseek_v3", "671B"},
};

/* The torchtitan model of the plan's: its preset's name and flavor when the plan's model
 * is that preset's, unchanged in the keys that size it; NULL otherwise. */
static int tt_model(const struct calc_plan *p)
{
	const struct calc_model *m = &p->model, *pm;
	for (size_t k = 0; k < sizeof tt_models / sizeof tt_models[0]; k++) {
		if (strcmp(m->name, tt_models[k].preset) || !(pm = calc_preset_model(tt_models[k].preset)))
			continue;
		if (pm->layers == m->layers && pm->hidden == m->hidden && pm->heads == m->heads &&
		    pm->kv_heads == m->kv_heads && pm->ffn_hidden == m->ffn_hidden && pm->vocab == m->vocab &&
		    pm->moe.experts == m->moe.experts && pm->mla.kv_lora_rank == m->mla.kv_lora_rank)
			return (int)k;
	}
	return -1;
}

static int export_titan_py(const struct calc_plan *p, FILE *f, struct notes *ns, int replicate, int shard,
                           const char *reshard, int fit, int a, int b, int k);

static int export_torchtitan(const struct calc_plan *p, FILE *f, FILE *notes, struct calc_diag *d, int py)
{
	static const int ok[] = {CALC_SCHED_GPIPE, CALC_SCHED_1F1B, CALC_SCHED_INTERLEAVED, CALC_SCHED_DUALPIPE, -1};
	struct notes ns = {0};
	int replicate = 1, shard = p->dp, rc;
	const char *reshard = "default";
	char shown[CALC_PATH_MAX * 4];
	if ((rc = check_schedule(d, p, "torchtitan", "torchtitan", ok)))
		return rc;
	if (p->model.hybrid[0])
		return key_error(d, p, "model", "hybrid_pattern", "export --for torchtitan: a hybrid model (Mamba-2 or gated "
		                 "delta-net layers) is no torchtitan model and flavor of this table (export --for megatron writes it)");
	if (p->offload_layers > 0 || p->offload_optimizer > 0 || p->offload_modules || p->offload_param)
		note(&ns, "CPU offloading (training.offload_activations, offload_modules, offload_optimizer, offload_param) "
		     "has no torchtitan equivalent written here");
	if (p->zero == 0) {
		replicate = p->dp;
		shard = 1;
	} else if (p->fsdp && p->fsdp_shard > 0 && p->fsdp_shard < p->dp * p->cp) {
		shard = p->fsdp_shard / p->cp > 0 ? p->fsdp_shard / p->cp : 1;
		replicate = p->dp / shard;
	}
	/* activation_checkpoint.mode: selective, full, memory_budget or none (job_config.py:652);
	 * op-sac is torchtitan's per-op selective policy itself (selective_ac_option = "op",
	 * activation_checkpoint.py:177 at 238fa995; SelectiveAC at b5bcd76c) */
	if (p->recompute != CALC_RC_NONE && p->recompute != CALC_RC_SELECTIVE && p->recompute != CALC_RC_FULL &&
	    p->recompute != CALC_RC_OP_SAC)
		return key_error(d, p, "parallel", "recompute", "export --for torchtitan: recompute = %s (lists of modules) is "
		                 "Megatron-Core's; torchtitan runs none, selective, op-sac or full (allowed: none, selective, "
		                 "op-sac, full)", calc_recompute_name(p->recompute));
	if (p->zero == 1)
		note(&ns, "ZeRO-1 has no torchtitan equivalent: FSDP2 without resharding after the forward "
		          "(ZeRO-2) is the nearest");
	if (p->zero >= 1 && p->zero <= 2)
		reshard = "never";
	else if (p->zero == 3)
		reshard = p->reshard_after_forward ? "always" : "never";
	/* current torchtitan has enable_sequence_parallel (configs.py:169 at b5bcd76c) and
	 * model_registry(moe_comm_backend=...): the function writes both (export_titan_py) */
	if (p->tp > 1 && !p->sp && !py)
		note(&ns, "torchtitan always runs sequence parallelism with TP (the plan has parallel.sp = no)");
	if (p->model.moe.experts > 0 && p->moe_dispatcher != CALC_DISP_DEEPEP && p->moe_dispatcher != CALC_DISP_ALLTOALL && !py)
		note(&ns, "torchtitan dispatches tokens by all-to-all or DeepEP (expert_parallel_comm_backend); the plan's "
		          "moe.dispatcher = %s is written as all-to-all", p->moe_dispatcher == CALC_DISP_ALLGATHER ? "allgather" : "hybridep");
	if (tt_model(p) < 0)
		note(&ns, "the model '%s' is no torchtitan model and flavor of this table (llama3 8B, 70B, 405B; "
		          "deepseek_v3 671B): a flavor for it goes into torchtitan/models/NAME/__init__.py", p->model.name);
	/* torchtitan's FSDP2 mixed precision holds FP32 parameters, gradients and Adam states and
	 * computes in mixed_precision_param (the torch-mp recipes, recipe.c); mixed_precision_reduce
	 * takes float32 only (job_config.py:290) */
	if (strcmp(p->recipe_name, "torch-mp") && strcmp(p->recipe_name, "torch-mp-fp8") && strcmp(p->recipe_name, "fp32"))
		note(&ns, "the recipe '%s' has no torchtitan equivalent: torchtitan keeps FP32 parameters, gradients and "
		          "Adam states, written as mixed_precision_param = \"bfloat16\" (recipe torch-mp, which import "
		          "reads back)", p->recipe_name);
	if (p->grad_reduce == 1)
		note(&ns, "torchtitan reduces gradients in float32 only (mixed_precision_reduce); the plan reduces in bf16");
	if (p->cross_entropy == CALC_XENT_FUSED)
		note(&ns, "torchtitan's loss is torch's cross-entropy on FP32 logits (training.cross_entropy = torch); the "
		          "plan assumes Megatron-LM's fused kernel");
	if (p->recompute == CALC_RC_SELECTIVE)
		note(&ns, py ? "selective recomputation written as torchtitan's per-op policy (SelectiveAC, "
		               "distributed/activation_checkpoint.py:185 at b5bcd76c)"
		             : "selective recomputation written as torchtitan's per-op policy (selective_ac_option = \"op\")");
	/* the split: torchtitan's rule (generate_llm_fqn_per_model_part,
	 * torchtitan/distributed/pipeline_parallel.py at 238fa995) weighs the embedding and the
	 * output as pipeline_parallel_first/last_stage_less_layers layers (default 1 and 1,
	 * job_config.py:377-383), spreads layers + weights over the virtual stages, the first
	 * ones one more, and takes the weights off the first and the last; the number of
	 * virtual stages is ceil((layers + weights) / pipeline_parallel_layers_per_stage)
	 * (pipeline_parallel.py:74).  The plan's own weights are written; without them the
	 * weights 0 and 0, or 1 and 1, that give the plan's stages; otherwise the stages as
	 * module_fqns_per_model_part. */
	int v = p->schedule == CALC_SCHED_DUALPIPE ? 2 : p->vpp > 1 ? p->vpp : 1, nvs = p->pp * v;

	int a = p->first_less, b = p->last_less, fit = -1, L = p->model.layers, k = 0;
	if (p->pp > 1) {
		if (a > 0 || b > 0)
			fit = 1;
		for (int w = 0; fit < 0 && w <= 1; w++) {
			int eff = L + 2 * w, ok = eff / nvs >= w;
			for (int g = 0; ok && g < nvs; g++) {
				int want = eff / nvs + (g < eff % nvs) - (g == 0 ? w : 0) - (g == nvs - 1 ? w : 0);
				int have = p->chunks.n > 0 ? p->chunks.layers[g]
				         : v == 1 ? p->layers_per_stage[g]
				         : p->layers_per_stage[g % p->pp] % v ? -1 : p->layers_per_stage[g % p->pp] / v;
				ok = want == have;
			}
			if (ok)
				a = b = w, fit = 1;
		}
		if (fit > 0 && v > 1) {
			int eff = L + a + b;
			k = (eff + nvs - 1) / nvs;
			if ((eff + k - 1) / k != nvs)
				return key_error(d, p, "parallel", "vpp", "export --for torchtitan: no pipeline_parallel_layers_per_stage "
				                 "gives %d virtual stages of %d layers and weights %d + %d (torchtitan takes "
				                 "ceil((layers + weights) / layers_per_stage) stages)", nvs, L, a, b);
		}
		if (fit < 0 && v > 1)
			return key_error(d, p, "parallel", p->uneven_stages ? "layers_per_stage" : "split",
			                 "export --for torchtitan: the stages' layers do not follow torchtitan's rule over %d "
			                 "virtual stages (allowed: parallel.first_stage_less_layers and last_stage_less_layers, "
			                 "or the stages that rule gives)", nvs);
	}
	if (py) {
		/* model_spec = model_registry(FLAVOR) names one of the family's flavors
		 * (torchtitan/models/llama3/__init__.py:369 at b5bcd76c); a model that is none needs
		 * a flavor in torchtitan's source first, which a config function cannot add */
		if (tt_model(p) < 0)
			return key_error(d, p, "model", "preset", "export --for torchtitan-py: the model '%s' is no torchtitan "
			                 "model and flavor (allowed: llama3-8b, llama3-70b, llama3.1-405b, deepseek-v3, unchanged): "
			                 "its flavor goes into torchtitan/models/NAME/__init__.py first (export --for torchtitan "
			                 "writes the job TOML without a [model] table)", p->model.name);
		if (p->pp > 1 && fit < 0)
			return key_error(d, p, "parallel", p->uneven_stages ? "layers_per_stage" : "split",
			                 "export --for torchtitan-py: the stages' layers do not follow torchtitan's rule "
			                 "(module_fqns_per_model_part, which writes any stages, is not read back by import; "
			                 "allowed: parallel.first_stage_less_layers and last_stage_less_layers, or the stages "
			                 "that rule gives; export --for torchtitan writes them)");
		return export_titan_py(p, f, &ns, replicate, shard, reshard, fit, a, b, k);
	}
	fprintf(f, "# torchtitan job config for %s: tp %d x cp %d x pp %d x dp %d = %d GPUs\n",
	        shown_file(p, shown, sizeof shown), p->tp, p->cp,
	        p->pp, p->dp, calc_plan_gpus(p));
	print_notes(&ns, f, "# note: ");
	if (tt_model(p) >= 0 || !strcmp(p->recipe_name, "torch-mp-fp8")) {
		fprintf(f, "\n[model]\n");
		if (tt_model(p) >= 0) /* else the note above: a flavor goes into torchtitan first */
			fprintf(f, "name = \"%s\"\nflavor = \"%s\"\n", tt_models[tt_model(p)].name,
			        tt_models[tt_model(p)].flavor);
		/* torchao Float8 linears with per-tensor scales (the torch-mp-fp8 recipe): the
		 * converter "quantize.linear.float8" (torchtitan/components/quantization/float8.py:238
		 * at 238fa995) and [quantize.linear.float8] recipe_name (job_config.py:731-747) */
		if (!strcmp(p->recipe_name, "torch-mp-fp8"))
			fprintf(f, "converters = [\"quantize.linear.float8\"]\n");
	}
	fprintf(f, "\n[training]\n");
	/* local_batch_size is what a data-parallel rank runs per forward and backward; torchtitan
	 * accumulates global_batch_size / (local_batch_size x dp) of them per step (torchtitan/train.py:212
	 * at commit 238fa995).  Without PP that is one micro-batch; with PP it is the whole pipeline
	 * batch, cut into micro-batches of pipeline_parallel_microbatch_size, all of them in one
	 * schedule run, as the plan's pipeline runs them */
	fprintf(f, "local_batch_size = %d\n", p->pp > 1 ? p->global_batch / p->dp : p->micro_batch);
	fprintf(f, "global_batch_size = %d\n", p->global_batch);
	fprintf(f, "seq_len = %d\n", p->seq_len);
	fprintf(f, "steps = %ld\n", train_steps(p));
	fprintf(f, "mixed_precision_param = \"%s\"\n", strcmp(p->recipe->name, "fp32") ? "bfloat16" : "float32");
	fprintf(f, "\n[parallelism]\n");
	fprintf(f, "data_parallel_replicate_degree = %d\n", replicate);
	fprintf(f, "data_parallel_shard_degree = %d\n", shard);
	fprintf(f, "fsdp_reshard_after_forward = \"%s\"\n", reshard);
	fprintf(f, "tensor_parallel_degree = %d\n", p->tp);
	fprintf(f, "pipeline_parallel_degree = %d\n", p->pp);
	if (p->pp > 1) {
		fprintf(f, "pipeline_parallel_schedule = \"%s\"\n", tt_schedule(p->schedule));
		fprintf(f, "pipeline_parallel_microbatch_size = %d\n", p->micro_batch);
		if (fit > 0) {
			fprintf(f, "pipeline_parallel_first_stage_less_layers = %d\n", a);
			fprintf(f, "pipeline_parallel_last_stage_less_layers = %d\n", b);
			if (v > 1)
				fprintf(f, "pipeline_parallel_layers_per_stage = %d\n", k);
		} else if (v == 1) {
			int from = 0;
			fprintf(f, "pipeline_parallel_first_stage_less_layers = 0\n");
			fprintf(f, "pipeline_parallel_last_stage_less_layers = 0\n");
			fprintf(f, "module_fqns_per_model_part = [");
			for (int s = 0; s < p->pp; s++) {
				fprintf(f, "%s[%s", s ? ", " : "", s == 0 ? "\"tok_embeddings\"" : "");
				for (int i = 0; i < p->layers_per_stage[s]; i++, from++)
					fprintf(f, "%s\"layers.%d\"", s == 0 || i ? ", " : "", from);
				fprintf(f, "%s]", s < p->pp - 1 ? "" : s == 0 || p->layers_per_stage[s] ? ", \"norm\", \"output\""
				                                                               : "\"norm\", \"output\"");
			}
			fprintf(f, "]\n");
		}
	}
	fprintf(f, "context_parallel_degree = %d\n", p->cp);
	if (p->tp > 1 && p->tp_overlap > 0)
		fprintf(f, "enable_async_tensor_parallel = true\n"); /* job_config.py:357 */
	if (p->model.moe.experts > 0) {
		fprintf(f, "expert_parallel_degree = %d\n", p->ep);
		fprintf(f, "expert_tensor_parallel_degree = %d\n", p->etp);
		/* DeepEP's kernels (job_config.py:474 expert_parallel_comm_backend) */
		fprintf(f, "expert_parallel_comm_backend = \"%s\"\n", p->moe_dispatcher == CALC_DISP_DEEPEP ? "deepep" : "standard");
	}
	if (!strcmp(p->recipe_name, "torch-mp-fp8") && tt_model(p) >= 0)
		fprintf(f, "\n[quantize.linear.float8]\nrecipe_name = \"tensorwise\"\n");
	/* training.compile, or async TP, which needs it (job_config.py:721 [compile] enable) */
	if (p->compile || (p->tp > 1 && p->tp_overlap > 0))
		fprintf(f, "\n[compile]\nenable = true\n");
	fprintf(f, "\n[activation_checkpoint]\n");
	fprintf(f, "mode = \"%s\"\n", p->recompute == CALC_RC_OP_SAC ? "selective" : calc_recompute_name(p->recompute));
	if (p->recompute == CALC_RC_SELECTIVE || p->recompute == CALC_RC_OP_SAC)
		fprintf(f, "selective_ac_option = \"op\"\n");
	return 0;
}

/* Current torchtitan (pytorch/torchtitan at commit b5bcd76c66d0acb1a08b176d9639425bc55e0b2a,
 * 2026-08-21) configures a run with a Python function returning Trainer.Config in
 * torchtitan/models/FAMILY/config_registry.py, chosen with --module FAMILY --config NAME
 * (torchtitan/config/manager.py:49-95).  The function written is self-contained, as the
 * registry's own base functions are (llama3_70b(): return Trainer.Config(...)): every field
 * the prediction depends on is set, none is inherited from a registry function whose
 * values change between commits.  The fields are those of TrainingConfig, ParallelismConfig
 * and CompileConfig (torchtitan/config/configs.py at b5bcd76c; tests/export/
 * torchtitan-py-fields.txt) and Trainer.Config's model_spec, optimizer and
 * activation_checkpoint (torchtitan/trainer.py:77-116).  A micro-batch is
 * num_tokens_per_microbatch_per_dp_rank tokens packed from documents of max_context_length
 * (components/data/packing.py:21-55): micro_batch x seq_len; a step is
 * num_tokens_per_train_step tokens (configs.py:43-59): global_batch x seq_len; with PP a
 * rank runs num_pp_microbatches micro-batches per schedule run (trainer.py:409-415), the
 * plan's micro-batches per step. */
static void py_name(const struct calc_plan *p, char *buf, size_t n)
{
	const char *base = p->file[0] && strcmp(p->file, "-") ? p->file : "plan", *s = strrchr(base, '/');
	size_t j = 0, len;
	s = s ? s + 1 : base;
	len = strlen(s);
	if (len > 4 && !strcmp(s + len - 4, ".ini"))
		len -= 4;
	for (size_t i = 0; i < len && j + 1 < n && j < 60; i++)
		buf[j++] = isalnum((unsigned char)s[i]) && !((unsigned char)s[i] & 0x80) ? (char)tolower((unsigned char)s[i]) : '_';
	buf[j] = 0;
	if (!j)
		snprintf(buf, n, "plan");
}

static int export_titan_py(const struct calc_plan *p, FILE *f, struct notes *ns, int replicate, int shard,
                           const char *reshard, int fit, int a, int b, int k)
{
	char shown[CALC_PATH_MAX * 4], name[64];
	int tm = tt_model(p), fp8 = !strcmp(p->recipe_name, "torch-mp-fp8") && tm >= 0, v = p->pp > 1 && fit > 0;
	int moe = p->model.moe.experts > 0, async_tp = p->tp > 1 && p->tp_overlap > 0;
	py_name(p, name, sizeof name);
	if (p->tp > 1 && p->etp != p->tp && moe)
		note(ns, "ParallelismConfig has no expert_tensor_parallel_degree at this commit: the experts' TP degree "
		          "is torchtitan's own (the plan has etp %d)", p->etp);
	if (fp8)
		note(ns, "Float8LinearConverter's recipes are rowwise and rowwise_with_gw_hp (components/quantization/"
		          "float8.py:58 at b5bcd76c): written is rowwise; the plan counts the torch-mp-fp8 recipe's "
		          "per-tensor scales");
	if (moe && p->moe_dispatcher == CALC_DISP_ALLGATHER)
		note(ns, "model_registry's moe_comm_backend is standard (all-to-all), deepep, hybridep or "
		          "minimal_async_ep (models/common/config_utils.py:376-424 at b5bcd76c): the plan's moe.dispatcher = "
		          "allgather is written as standard");
	fprintf(f, "# torchtitan config_registry.py function (pytorch/torchtitan at commit b5bcd76c) for %s:\n"
	           "# tp %d x cp %d x pp %d x dp %d = %d GPUs.  Put it into torchtitan/models/%s/config_registry.py\n"
	           "# and run it with --module %s --config trainplan_%s\n",
	        shown_file(p, shown, sizeof shown), p->tp, p->cp, p->pp, p->dp, calc_plan_gpus(p),
	        tt_models[tm].name, tt_models[tm].name, name);
	print_notes(ns, f, "# note: ");
	fprintf(f, "\nfrom torchtitan.components.optimizer import default_adamw\n");
	if (fp8)
		fprintf(f, "from torchtitan.components.quantization import Float8LinearConverter\n");
	fprintf(f, "from torchtitan.config import %sParallelismConfig, TrainingConfig\n",
	        async_tp || p->compile ? "CompileConfig, " : "");
	if (p->recompute != CALC_RC_NONE)
		fprintf(f, "from torchtitan.distributed.activation_checkpoint import %s\n",
		        p->recompute == CALC_RC_FULL ? "FullAC" : "SelectiveAC");
	if (tm >= 0)
		fprintf(f, "from torchtitan.models.%s import model_registry\n", tt_models[tm].name);
	fprintf(f, "from torchtitan.trainer import Trainer\n\n\n");
	fprintf(f, "def trainplan_%s() -> Trainer.Config:\n", name);
	fprintf(f, "    return Trainer.Config(\n");
	if (tm >= 0) {
		/* model_registry(flavor, converters=..., moe_comm_backend=...):
		 * torchtitan/models/llama3/__init__.py:369, deepseek_v3/__init__.py:616 at b5bcd76c */
		fprintf(f, "        model_spec=model_registry(\"%s\"", tt_models[tm].flavor);
		if (fp8)
			fprintf(f, ", converters=[Float8LinearConverter.Config()]");
		if (moe)
			fprintf(f, ", moe_comm_backend=\"%s\"", p->moe_dispatcher == CALC_DISP_DEEPEP ? "deepep"
			        : p->moe_dispatcher == CALC_DISP_HYBRIDEP ? "hybridep" : "standard");
		fprintf(f, "),\n");
	}
	/* AdamW over every parameter (optimizer.py:378-399) */
	fprintf(f, "        optimizer=default_adamw(),\n");
	fprintf(f, "        training=TrainingConfig(\n");
	fprintf(f, "            num_tokens_per_microbatch_per_dp_rank=%ld,\n", (long)p->micro_batch * p->seq_len);
	fprintf(f, "            num_tokens_per_train_step=%ld,\n", (long)p->global_batch * p->seq_len);
	fprintf(f, "            max_context_length=%d,\n", p->seq_len);
	fprintf(f, "            steps=%ld,\n", train_steps(p));
	fprintf(f, "            mixed_precision_param=\"%s\",\n", strcmp(p->recipe->name, "fp32") ? "bfloat16" : "float32");
	fprintf(f, "        ),\n");
	fprintf(f, "        parallelism=ParallelismConfig(\n");
	fprintf(f, "            data_parallel_replicate_degree=%d,\n", replicate);
	fprintf(f, "            data_parallel_shard_degree=%d,\n", shard);
	fprintf(f, "            fsdp_reshard_after_forward=\"%s\",\n", reshard);
	fprintf(f, "            tensor_parallel_degree=%d,\n", p->tp);
	fprintf(f, "            enable_sequence_parallel=%s,\n", p->sp || p->tp == 1 ? "True" : "False");
	fprintf(f, "            pipeline_parallel_degree=%d,\n", p->pp);
	if (p->pp > 1) {
		fprintf(f, "            pipeline_parallel_schedule=\"%s\",\n", tt_schedule(p->schedule));
		fprintf(f, "            num_pp_microbatches=%d,\n", calc_plan_microbatches(p));
		if (v) {
			fprintf(f, "            pipeline_parallel_first_stage_less_layers=%d,\n", a);
			fprintf(f, "            pipeline_parallel_last_stage_less_layers=%d,\n", b);
			if (k > 0)
				fprintf(f, "            pipeline_parallel_layers_per_stage=%d,\n", k);
		}
	}
	fprintf(f, "            context_parallel_degree=%d,\n", p->cp);
	if (moe)
		fprintf(f, "            expert_parallel_degree=%d,\n", p->ep);
	fprintf(f, "        ),\n");
	if (async_tp) /* async TP is a compile pass (configs.py:298-312) */
		fprintf(f, "        compile=CompileConfig(enable=True, enable_async_tensor_parallel=True),\n");
	else if (p->compile) /* training.compile (CompileConfig.enable, configs.py:295) */
		fprintf(f, "        compile=CompileConfig(enable=True),\n");
	/* SelectiveAC.Config() is Trainer.Config's default (trainer.py:108-110); None runs none */
	fprintf(f, "        activation_checkpoint=%s,\n", p->recompute == CALC_RC_FULL ? "FullAC.Config()"
	        : p->recompute == CALC_RC_SELECTIVE || p->recompute == CALC_RC_OP_SAC ? "SelectiveAC.Config()" : "None");
	fprintf(f, "    )\n");
	return 0;
}

/* ------------------------------------------------------------------------ */
/* DeepSpeed: the keys of docs/_pages/config-json.md (deepspeedai/DeepSpeed at commit
 * edaa722; tests/export/deepspeed-keys.txt) and of
 * deepspeed/runtime/config.py (pipeline.stages, sequence_parallel_size).
 * train_batch_size = train_micro_batch_size_per_gpu x gradient_accumulation_steps x
 * the data-parallel ranks; with a pipeline the accumulation steps are its
 * micro-batches.  The pipeline engine refuses ZeRO-2 and ZeRO-3
 * (deepspeed/runtime/pipe/engine.py), and runs its own 1F1B-like schedule. */

static int export_deepspeed(const struct calc_plan *p, FILE *f, FILE *notes, struct calc_diag *d)
{
	static const int ok[] = {CALC_SCHED_1F1B, -1};
	struct notes ns = {0};
	int rc;
	if ((rc = check_schedule(d, p, "deepspeed", "DeepSpeed's pipeline engine", ok)))
		return rc;
	if (p->model.hybrid[0])
		return key_error(d, p, "model", "hybrid_pattern", "export --for deepspeed: the model's hybrid layers (Mamba-2, gated "
		                 "delta-net) are the model code's, not a key of DeepSpeed's config (export --for megatron writes a hybrid "
		                 "model)");
	int zoff = p->offload_optimizer > 0 && p->offload_style == CALC_OFFLOAD_ZERO; /* ZeRO-Offload */
	if ((zoff && p->offload_device == 1) || p->offload_param == 2)
		note(&ns, "zero_optimization's nvme_path is written as /local_nvme: set it to the mount point of the "
		     "machine's NVMe drives");
	if (p->offload_layers > 0 || p->offload_modules || (p->offload_optimizer > 0 && !zoff))
		note(&ns, "Megatron-Core's CPU offloading (training.offload_activations, offload_modules, offload_optimizer) "
		     "is not written; DeepSpeed's own is zero_optimization.offload_optimizer (training.offload_style = "
		     "zero-offload)");
	if (p->pp > 1 && p->zero >= 2)
		return key_error(d, p, "parallel", "zero",
		                 "export --for deepspeed: DeepSpeed's pipeline engine runs ZeRO-0 and ZeRO-1 only "
		                 "(the plan has ZeRO-%d with pp %d)", p->zero, p->pp);
	if (p->recompute == CALC_RC_SELECTIVE)
		note(&ns, "selective recomputation has no DeepSpeed key; the model's own checkpointing decides it");
	if (p->tp > 1 && p->sp)
		note(&ns, "sequence parallelism with TP is the model's (Megatron-DeepSpeed), not a key of this file");
	if (p->cp > 1)
		note(&ns, "context parallelism written as DeepSpeed-Ulysses' sequence_parallel_size");
	fprintf(f, "{\n");
	fprintf(f, "  \"train_batch_size\": %d,\n", p->global_batch);
	fprintf(f, "  \"train_micro_batch_size_per_gpu\": %d,\n", p->micro_batch);
	fprintf(f, "  \"gradient_accumulation_steps\": %d,\n", calc_plan_microbatches(p));
	if (strcmp(p->recipe->name, "fp32"))
		fprintf(f, "  \"bf16\": {\"enabled\": true},\n");
	/* the gradients' dtypes: communication_data_type for the DP reduction
	 * (deepspeed/runtime/config.py:209 at edaa722) and data_types.grad_accum_dtype for the
	 * gradients held (config.py:896), written where the plan sets them */
	if (p->grad_reduce)
		fprintf(f, "  \"communication_data_type\": \"%s\",\n", p->grad_reduce == 1 ? "bf16" : "fp32");
	if (p->main_grads)
		fprintf(f, "  \"data_types\": {\"grad_accum_dtype\": \"%s\"},\n", p->main_grads == 1 ? "bf16" : "fp32");
	/* training.offload_device = nvme: ZeRO-Infinity's swap (offload_config.py at edaa722:
	 * device, nvme_path, pipeline_read, pipeline_write); the path is the machine's */
	fprintf(f, "  \"zero_optimization\": {\"stage\": %d, \"overlap_comm\": true, \"contiguous_gradients\": true", p->zero);
	if (zoff && p->offload_device == 1)
		fprintf(f, ", \"offload_optimizer\": {\"device\": \"nvme\", \"nvme_path\": \"/local_nvme\"%s}",
		        p->nvme_pipeline ? ", \"pipeline_read\": true, \"pipeline_write\": true" : "");
	else if (zoff)
		fprintf(f, ", \"offload_optimizer\": {\"device\": \"cpu\"}");
	/* training.offload_param: ZeRO-3's parameter offload (offload_config.py at edaa722) */
	if (p->offload_param)
		fprintf(f, ", \"offload_param\": {\"device\": \"%s\"%s}", p->offload_param == 2 ? "nvme" : "cpu",
		        p->offload_param == 2 ? ", \"nvme_path\": \"/local_nvme\"" : "");
	fprintf(f, "}");
	if (p->tp > 1)
		fprintf(f, ",\n  \"tensor_parallel\": {\"autotp_size\": %d}", p->tp);
	if (p->pp > 1)
		fprintf(f, ",\n  \"pipeline\": {\"stages\": %d}", p->pp);
	if (p->cp > 1)
		fprintf(f, ",\n  \"sequence_parallel_size\": %d", p->cp);
	/* parallel.partition_activations and cpu_checkpointing are this section's keys; SP with
	 * TP keeps the same 1/t checkpoint, which DeepSpeed's partitioning gives a model
	 * without Megatron's SP */
	if (p->recompute == CALC_RC_FULL)
		fprintf(f, ",\n  \"activation_checkpointing\": {\"partition_activations\": %s, "
		           "\"contiguous_memory_optimization\": false, \"cpu_checkpointing\": %s}",
		        p->partition_activations || (p->tp > 1 && p->sp) ? "true" : "false",
		        p->cpu_checkpointing ? "true" : "false");
	fprintf(f, "\n}\n");
	if (notes)
		print_notes(&ns, notes, "trainplan: note: ");
	return 0;
}

const char *const calc_export_names[CALC_EXPORT_N + 1] = {"megatron", "nemo", "torchtitan", "deepspeed",
                                                           "torchtitan-py", NULL};

int calc_export_find(const char *name)
{
	for (int k = 0; k < CALC_EXPORT_N; k++)
		if (name && !strcmp(name, calc_export_names[k]))
			return k;
	return -1;
}

int calc_export(const struct calc_plan *p, int fw, FILE *f, FILE *notes, struct calc_diag *d)
{
	switch (fw) {
	case FW_MEGATRON: return export_megatron(p, f, notes, d) ? -1 : 0;
	case FW_NEMO: return export_nemo(p, f, notes, d) ? -1 : 0;
	case FW_TORCHTITAN: return export_torchtitan(p, f, notes, d, 0) ? -1 : 0;
	case FW_TORCHTITAN_PY: return export_torchtitan(p, f, notes, d, 1) ? -1 : 0;
	case FW_DEEPSPEED: return export_deepspeed(p, f, notes, d) ? -1 : 0;
	default: return calc_error(d, NULL, 0, "export: unknown framework %d", fw);
	}
}
