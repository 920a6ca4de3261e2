/*
 * model.h -- the model: layer kinds, MoE, MLA and Mamba shapes, parameter counts,
 * the layers of each pipeline stage and the chunk layout (model.c); a model read from a
 * Hugging Face config.json (hfconfig.c).
 */
#ifndef CALC_MODEL_H
#define CALC_MODEL_H

#include <stddef.h>

#include "bounds.h"
#include "diag.h"

enum calc_mlp { CALC_MLP_GELU, CALC_MLP_SWIGLU };
enum calc_norm { CALC_NORM_LAYERNORM, CALC_NORM_RMSNORM };
enum calc_pos { CALC_POS_NONE, CALC_POS_LEARNED }; /* rope/alibi have no parameters */

#define CALC_MAX_KINDS 4 /* kinds of transformer layer in one model */
#define CALC_MAX_RUNS 256 /* runs of equal kind in a model's layer sequence (Nemotron-H 56B's
                            hybrid pattern of 118 layers has 108) */

/* What a transformer layer is made of.  Each type has its own parameter count,
 * activations, FLOPs and communication (model.c, memory.c, step.c, comm.c). */
enum calc_layer_type {
	CALC_LAYER_DENSE, /* self-attention + one dense MLP */
	CALC_LAYER_MOE,   /* self-attention + a router, model.moe.experts routed experts and
	                     model.moe.shared shared experts (the shape is the model's moe) */
	/* The layers of a hybrid model (model.hybrid_pattern, Megatron-Core's
	 * hybrid_override_pattern): each is one block with its own pre-norm and residual,
	 * attention and MLP being separate layers (megatron/core/ssm/mamba_block.py) */
	CALC_LAYER_MAMBA, /* 'M': a Mamba-2 mixer (Dao & Gu 2024; the shape is model.mamba) */
	CALC_LAYER_ATTN,  /* '*': self-attention alone (the model's attention shape) */
	CALC_LAYER_MLP,   /* '-': one dense MLP alone, of width ffn_hidden */
	CALC_LAYER_EXPERTS, /* 'E': an MoE block alone (router, routed and shared experts of the
	                       model's moe; Nemotron 3) */
	CALC_LAYER_GDN,     /* 'G': a gated delta-net mixer (Yang, Kautz & Hatamizadeh 2024;
	                       Qwen3-Next; the shape is model.gdn) */
	CALC_LAYER_MAMBA1,  /* 'S': a Mamba-1 mixer, the selective SSM "S6" (Gu & Dao 2023 §3;
	                       Jamba; the shape is model.mamba1).  Megatron-Core's hybrid
	                       allocation has no Mamba-1 symbol: 'S' is this project's letter,
	                       one Megatron-Core does not use (M * - E G D + | /) */
};

/* Shape of the Mamba-2 mixers of a hybrid model (Megatron-Core MambaMixer,
 * megatron/core/ssm/mamba_mixer.py at d98e8a64dd; Nemotron-H config.json): d_inner =
 * heads x head_dim; in_proj h -> [z, x, B, C, dt] = 2 d_inner + 2 groups state + heads. */
struct calc_mamba {
	int heads;    /* SSM heads H (mamba_num_heads) */
	int head_dim; /* P, the width of each head (mamba_head_dim) */
	int state;    /* N, the state size (mamba_state_dim, ssm_state_size) */
	int groups;   /* G, groups of heads that share B and C (mamba_num_groups, n_groups) */
	int conv;     /* kernel width of the depthwise causal conv1d (d_conv, conv_kernel) */
	int chunk;    /* Q, chunk length of the SSD scan (chunk_size) [tokens] */
};

/* Shape of the gated delta-net mixers of a hybrid model (Megatron-Core GatedDeltaNet,
 * megatron/core/ssm/gated_delta_net.py at e867835174; Hugging Face
 * Qwen3NextGatedDeltaNet; Qwen3-Next config.json linear_*): K = key_heads x key_dim,
 * V = value_heads x value_dim; in_proj h -> [q, k, v, z, beta, alpha] = 2 K + 2 V +
 * 2 value_heads; the delta rule runs on value_heads heads, q and k repeated to them. */
struct calc_gdn {
	int key_heads;   /* query/key heads (linear_num_key_heads) */
	int value_heads; /* value heads (linear_num_value_heads), a multiple of key_heads */
	int key_dim;     /* d_k of each query/key head (linear_key_head_dim) */
	int value_dim;   /* d_v of each value head (linear_value_head_dim) */
	int conv;        /* kernel width of the depthwise causal conv1d (linear_conv_kernel_dim) */
	int chunk;       /* C, chunk length of the chunked delta rule [tokens] */
};

/* Shape of the Mamba-1 mixers of a hybrid model (Gu & Dao 2023 §3.4 Algorithm 2 and the
 * reference implementation mamba_ssm/modules/mamba_simple.py, class Mamba; Jamba's
 * JambaMambaMixer in transformers' modeling_jamba.py): in_proj h -> [x, z] = 2 d_inner,
 * the depthwise causal conv1d over x, x_proj d_inner -> [dt, B, C] = R + 2 N, dt_proj
 * R -> d_inner, out_proj d_inner -> h. */
struct calc_mamba1 {
	int inner;       /* d_inner = expand x h (mamba_expand x hidden_size) */
	int state;       /* N, the state size of each channel (mamba_d_state, d_state) */
	int conv;        /* kernel width of the depthwise causal conv1d (mamba_d_conv, d_conv) */
	int dt_rank;     /* R, the rank of the step-size projection (mamba_dt_rank, dt_rank) */
	int inner_norms; /* 1: RMSNorms on dt, B and C after x_proj (Jamba's dt_layernorm,
	                    b_layernorm, c_layernorm; R + 2 N weights); 0: none (Mamba) */
};

/* The widths of a recurrent sequence mixer (Mamba-2 or gated delta-net) per token
 * [elements]: what its in_proj writes, what its out_proj reads, the channels of its
 * conv1d, its heads, the groups of its gated norm (one fp32 rstd each) and what its scan
 * reads and writes. */
struct calc_mixer {
	double in, inner, conv_ch, heads, norm_groups, scan_io;
};

/* One kind of transformer layer: the type and the shape that differs between kinds;
 * the attention shape (hidden, heads, kv_heads, head_dim, mla) and the expert shape
 * (moe) are the model's. */
struct calc_layer_kind {
	enum calc_layer_type type;
	int ffn_hidden; /* MLP inner width f of this kind (dense); 0 for an MoE kind */
};

/*
 * Mixture-of-experts shape of a model's MoE layers; experts = 0: a dense model.
 * Which layers are MoE: layers 0 .. first_dense-1 are dense (width model.ffn_hidden);
 * of the others, layer i (0-based) is MoE when (i + 1) % every == 0 (every <= 1: all
 * of them).  This is Hugging Face's Qwen2-MoE decoder_sparse_step and Llama 4's
 * interleave_moe_layer_step; DeepSeek's first_k_dense_replace with moe_layer_freq 1.
 * A model with experts > 0 and no explicit layer sequence (seq.nkinds = 0) takes its
 * layer kinds from this rule (model.c): kind 0 = MoE when every layer is MoE, else
 * kind 0 = dense and kind 1 = MoE.
 */

struct calc_moe {
	int experts;        /* routed experts E per MoE layer; 0 = no MoE layers */
	int top_k;          /* routed experts each token is sent to k (1 .. E) */
	int expert_ffn;     /* inner width of one routed expert f_e */
	int shared;         /* shared experts every token goes through (DeepSeek, Qwen2-MoE) */
	int shared_ffn;     /* inner width of one shared expert; 0 = expert_ffn */
	int first_dense;    /* leading dense layers (DeepSeek first_k_dense_replace) */
	int every;          /* of the others, every n-th layer is MoE; 0 or 1 = all */
	int shared_gate;    /* 1: a sigmoid gate h -> 1 scales the shared experts (Qwen2-MoE) */
	int router_bias;    /* 1: the router carries a per-expert bias (DeepSeek-V3's
	                       aux-loss-free e_score_correction_bias) */
	double capacity;    /* capacity factor: an expert takes at most capacity * k * T / E of
	                       T tokens, the rest are dropped; 0 = dropless */
	double imbalance;   /* dropless: tokens of the busiest expert / the mean [>= 1];
	                       1 = perfectly balanced (the default) */
	int node_limit;     /* M: nodes a token is dispatched to at most (DeepSeek-V3 M = 4);
	                       0 = no limit */
};

/*
 * Multi-head latent attention (DeepSeek-V2/V3): kv_lora_rank = 0 means ordinary
 * (grouped-query) attention with model.heads, kv_heads and head_dim.  With MLA, keys
 * and values come from a compressed latent of kv_lora_rank plus one shared RoPE key of
 * qk_rope_dim; each head's query and key have qk_nope_dim + qk_rope_dim, each value
 * v_head_dim.  model.kv_heads and head_dim are not used.
 */
struct calc_mla {
	int q_lora_rank;  /* d_c' of the query latent; 0 = queries projected from h directly */
	int kv_lora_rank; /* d_c of the key/value latent; 0 = not MLA */
	int qk_rope_dim;  /* d_h^R: RoPE part of each query and of the one shared key */
	int qk_nope_dim;  /* d_h: non-RoPE part of each head's query and key */
	int v_head_dim;   /* value width per head */
};

/* Layer kinds of a model.  nkinds = 0: every layer is one dense kind of width
 * model.ffn_hidden (every plan today).  Otherwise kind[0 .. nkinds-1], and the layer
 * sequence is nruns runs: run_count[j] layers of kind run_kind[j], in order, summing to
 * model.layers (calc_model_set_layers builds and checks them). */
struct calc_layer_seq {
	int nkinds;
	struct calc_layer_kind kind[CALC_MAX_KINDS];
	int nruns;
	unsigned char run_kind[CALC_MAX_RUNS];
	int run_count[CALC_MAX_RUNS];
};

/* A decoder-only transformer: a sequence of layers of one or more kinds. */
struct calc_model {
	char name[CALC_NAME_MAX]; /* preset name or "custom" */
	int layers;               /* transformer blocks L */
	int hidden;               /* model width h */
	int heads;                /* attention (query) heads a */
	int kv_heads;             /* key/value heads (GQA); == heads for MHA */
	int head_dim;             /* per-head width; hidden / heads unless set */
	int ffn_hidden;           /* MLP inner width f */
	int vocab;                /* vocabulary V (padded as the framework pads it) */
	int max_pos;              /* learned position embeddings rows (0 = none) */
	enum calc_mlp mlp;
	enum calc_norm norm;
	int tied_embeddings; /* 1: the LM head reuses the input embedding */
	int bias;            /* 1: linear layers carry biases (GPT-2/3, Megatron GPT) */
	int dropout;         /* 1: dropout layers (and their masks) are present */
	struct calc_layer_seq seq; /* layer kinds; all zero: one dense kind, or the MoE rule */
	struct calc_moe moe;       /* experts; all zero: dense */
	struct calc_mla mla;       /* latent attention; all zero: ordinary attention */
	int mtp_depth;             /* multi-token prediction modules D (DeepSeek-V3 §2.2): each
	                              adds one layer of the last layer's kind, a 2h -> h
	                              projection and two norms, and shares the embedding and
	                              the LM head; 0 = none */
	int attn_chunk;            /* chunked attention (Llama 4's attention_chunk_size): some
	                              layers attend only within chunks of this many tokens
	                              [tokens]; exact as causal attention while seq_len is at
	                              most this (calc_plan_validate refuses longer); 0 = none */
	int window;                /* sliding-window attention: a windowed layer's query attends
	                              to the last 'window' tokens (itself included) [tokens];
	                              0 = none (Mistral 7B 4096, Gemma 2 4096, Gemma 3 1024,
	                              GPT-OSS 128) */
	int window_full_every;     /* with a window: layer i (0-based) attends in full when
	                              i + 1 is a multiple of this (2 = alternate, Gemma 2 and
	                              GPT-OSS; 6 = five windowed to one full, Gemma 3); 0 = every
	                              layer windowed (Mistral 7B) */
	struct calc_mamba mamba;   /* Mamba-2 mixers; used by layers of CALC_LAYER_MAMBA */
	char hybrid[CALC_LAYOUT_MAX]; /* model.hybrid_pattern: one character per layer, M Mamba,
	                              '*' attention, '-' MLP, E MoE (Megatron-Core's
	                              hybrid_override_pattern); empty = not hybrid */
	struct calc_gdn gdn;       /* gated delta-net mixers; used by layers of CALC_LAYER_GDN */
	int attn_gate;             /* 1: gated attention, an output gate sigmoid(x W_g) on every
	                              head's output, W_g h x a d_h fused into the query
	                              projection (Qwen3-Next attn_output_gate) */
	struct calc_mamba1 mamba1; /* Mamba-1 mixers; used by layers of CALC_LAYER_MAMBA1 */
};

/* Parameter counts of one layer of one kind [parameters]. */
struct calc_layer_params {
	double attn;       /* Q, K, V, O weights (+ biases); MLA: its projections and latent norms */
	double mlp;        /* MLP weights (+ biases); MoE: router, every routed and shared expert */
	double experts;    /* of mlp, the routed experts (what EP shards); 0 for a dense kind */
	double active;     /* total with only top_k routed experts (= total for a dense kind) */
	double norms;      /* the two norms */
	double total;      /* attn + mlp + norms */
	double replicated; /* of total, what TP does not shard: the norms and the row-parallel
	                      biases (attention output, fc2), as Megatron-LM keeps them; MLA's
	                      down projections and latent norms; the router */
};

/* Parameter counts [parameters] for one model; see model.c for the formulas. */
struct calc_params {
	double attn;       /* per layer of kind 0: Q, K, V, O weights (+ biases) */
	double mlp;        /* per layer of kind 0: MLP weights (+ biases) */
	double norms;      /* per layer of kind 0: the two norms */
	double layer;      /* per layer of kind 0 = attn + mlp + norms */
	int nkinds;        /* kinds of layer (1 for a model without kinds) */
	struct calc_layer_params kind[CALC_MAX_KINDS]; /* one layer of each kind */
	int kind_layers[CALC_MAX_KINDS]; /* layers of each kind in the model */
	double layers;     /* all transformer layers, every kind */
	double embedding;  /* token embedding V*h */
	double position;   /* learned position embedding max_pos*h */
	double lm_head;    /* untied output projection V*h (0 when tied) */
	double final_norm; /* final norm */
	double total;      /* everything, counting a tied matrix once (without MTP) */
	double active;     /* activated per token: total with only top_k routed experts of
	                      each MoE layer (= total for a dense model) */
	double mtp;        /* the multi-token prediction modules (not in total) */
};
void calc_model_params(const struct calc_model *m, struct calc_params *out);

/* 1 when 'm' has layers of more than one kind or of a kind other than the default dense
 * one: an explicit sequence, or MoE layers by the MoE rule (then per-stage layer counts
 * go by kind). */
int calc_model_has_kinds(const struct calc_model *m);
/* 1 when layer 'i' (0-based) is an MoE layer by the MoE rule (struct calc_moe). */
int calc_model_layer_is_moe(const struct calc_model *m, int i);
/* The layer kind of each multi-token prediction module's transformer block: the kind of
 * the model's last layer (DeepSeek-V3 §2.2).  Meaningful when m->mtp_depth > 0. */
int calc_model_mtp_kind(const struct calc_model *m);
/* What a layer of type 't' holds: an attention core (*attn), an MLP or MoE block
 * (*mlp), a recurrent sequence mixer, Mamba-2 or gated delta-net (*mamba); returns its TP blocks, each one column-parallel input
 * and one row-parallel output (2 for a dense or MoE layer, 1 for a hybrid model's). */
int calc_layer_type_parts(enum calc_layer_type t, int *attn, int *mlp, int *mamba);
/* 1 when a layer of type 't' holds routed experts (CALC_LAYER_MOE, CALC_LAYER_EXPERTS):
 * the one exhaustive switch the time and communication models ask. */
int calc_layer_type_is_moe(enum calc_layer_type t);
/* The widths of the mixer of a layer of type 't' (CALC_LAYER_MAMBA or CALC_LAYER_GDN;
 * all zero for another type). */
void calc_model_mixer(const struct calc_model *m, enum calc_layer_type t, struct calc_mixer *x);
/* Parameters of one mixer of type 't' (the block's pre-norm not included). */
double calc_model_mixer_params(const struct calc_model *m, enum calc_layer_type t);
/* 1 when 'm' has Mamba-1 layers (CALC_LAYER_MAMBA1), which no framework source splits
 * over TP or CP: calc_plan_validate and the planner keep them at tp = cp = 1. */
int calc_model_has_mamba1(const struct calc_model *m);
/* 1 when 'm' has a layer of a hybrid type (CALC_LAYER_MAMBA, _ATTN, _MLP). */
int calc_model_is_hybrid(const struct calc_model *m);
/* Build the layer sequence of m->hybrid (model.hybrid_pattern): kinds in the order of
 * their first character, runs of equal characters.  m->layers is not changed.  Returns
 * the pattern's length, or -1 with a message in 'msg' (a character other than M, '*',
 * '-', E, a '|', more than CALC_MAX_RUNS runs). */
int calc_model_set_hybrid(struct calc_model *m, char *msg, size_t nmsg);
/* Layers of the model that attend through the sliding window (model.window,
 * model.window_full_every); 0 without a window. */
int calc_model_window_layers(const struct calc_model *m);
/* Keys per query of the attention core over the model's layers, their mean, at sequence
 * length 's' (docs/references.md §5.13).  counted = 1: the counting convention of the
 * model FLOPs (the full s x s square, Narayanan 2021; a windowed layer min(w, s));
 * counted = 0: what causal FlashAttention executes (s / 2; a windowed layer w (1 - (w -
 * 1) / (2 s)) for w < s, the first w - 1 queries seeing fewer). */
double calc_model_attn_keys(const struct calc_model *m, double s, int counted);
/* Layers of each kind of the whole model into count[0 .. CALC_MAX_KINDS-1]. */
void calc_model_kind_counts(const struct calc_model *m, int *count);
/* Kinds of layer in 'm': nkinds, or 1 for a model without kinds. */
int calc_model_nkinds(const struct calc_model *m);
/* Kind 'k' of 'm' (for a model without kinds, k = 0: dense, model.ffn_hidden). */
void calc_model_kind(const struct calc_model *m, int k, struct calc_layer_kind *out);
/* Parameters of one layer of kind 'k'; see model.c. */
void calc_model_kind_params(const struct calc_model *m, int k, struct calc_layer_params *out);
/*
 * Give 'm' layer kinds: 'nkinds' kinds and the layer sequence as 'nruns' runs of
 * counts[j] layers of kind kinds_of_run[j].  m->layers becomes the sum of the counts.
 * Returns 0, or -1 with a diagnostic when a count is not positive, a run names a kind
 * that is not there, or there are more than CALC_MAX_KINDS kinds or CALC_MAX_RUNS runs.
 */
int calc_model_set_layers(struct calc_model *m, const struct calc_layer_kind *kinds, int nkinds,
                          const int *kinds_of_run, const int *counts, int nruns, struct calc_diag *d);

/* The layers one pipeline stage holds (all its chunks). */
struct calc_stage_layers {
	int layers;                /* transformer layers */
	int count[CALC_MAX_KINDS]; /* of them, layers of each kind */
	int embedding;             /* 1: the token (and learned position) embedding, stage 0 */
	int head;                  /* 1: the final norm, the LM head and the loss, last stage */
	int mtp;                   /* 1: the multi-token prediction modules (model.mtp_depth > 0):
	                              with the head, unless parallel.layout places them */
};
struct calc_plan;
/*
 * Layers of stage 'i' of 'plan': parallel.layers_per_stage as plan.c filled it (or a
 * list cleared to zeros: the plan's split rule), counted by kind over the stage's
 * contiguous range of the layer sequence.  With interleaving (vpp > 1) and more than
 * one kind the count assumes the stage's chunks are that one range.  O(1) for a model
 * without kinds, O(i) otherwise.
 */
void calc_stage_layers(const struct calc_plan *plan, int i, struct calc_stage_layers *out);
/* calc_stage_layers of every stage 0 .. pp-1 into out[0 .. pp-1] in one pass, O(L + pp)
 * (min(pp, CALC_MAX_STAGES) entries). */
void calc_stage_layers_all(const struct calc_plan *plan, struct calc_stage_layers *out);
/* 1 when, without looking at the stages, every stage is known to hold the same layers:
 * a model without kinds, a split the plan did not list, p dividing L, and a rule that
 * splits evenly then (not llama3 beyond 2 stages).  0 means "maybe not". O(1). */
int calc_stage_layers_uniform(const struct calc_plan *plan);
/* For a model without kinds: the first of the middle stages (1 .. p-2) with the most
 * layers, -1 when there is no middle stage.  -2 when the model has kinds (then every
 * stage has to be looked at).  O(p) over the plan's list. */
int calc_stage_layers_heaviest(const struct calc_plan *plan);

/* ------------------------------------------------------------------ layer split */

/*
 * A layout placed virtual stage by virtual stage (Megatron-Core's model chunks): the
 * transformer layers of each of the n = pp x v virtual stages, where virtual stage
 * g = c pp + s is chunk c of stage s (TransformerConfig.pipeline_model_parallel_layout:
 * "layout[i] ... the a-th vpp stage and the b-th pp stage", i = a pp + b), and the
 * virtual stages that hold the embedding, the loss (final norm, LM head and loss) and
 * the multi-token prediction modules.  The layers run in the order of g.
 */
struct calc_chunks {
	int n;                          /* virtual stages; 0: none (the stage list, equal chunks) */
	int v;                          /* chunks per stage */
	short layers[CALC_MAX_VSTAGES]; /* transformer layers of virtual stage g */
	short embed, head, mtp;         /* virtual stages of E, L and m */
};

/* How the layers of a model are split over pipeline stages (parallel.split). */
enum calc_split {
	CALC_SPLIT_REMAINDER_FIRST, /* L = q p + r: the first r stages hold q + 1 layers */
	CALC_SPLIT_EVEN,            /* q layers on every stage; p must divide L */
	CALC_SPLIT_LLAMA3,          /* the first and the last stage hold one layer fewer than
	                               the middle ones (Llama 3, Dubey et al. 2024 §3.3.2) */
	CALC_SPLIT_N
};
const char *calc_split_name(enum calc_split s);

/*
 * Layers of each of 'p' stages of an 'L'-layer model under 'policy' into out[0 .. p-1]
 * (see model.c for the rules).  Returns 0, or -1 with a diagnostic in 'd' (which may
 * be NULL) when the policy cannot split L over p: p < 1, p > L, p > CALC_MAX_STAGES,
 * 'even' with p not dividing L, 'llama3' with an empty first or last stage.  On -1
 * out[] is left unspecified.  Pure arithmetic.
 */
int calc_layers_split(int L, int p, enum calc_split policy, int *out, struct calc_diag *d);

/* 1 when the plan sets one of the layout keys (first_stage_layers, last_stage_layers,
 * account_embedding, account_loss, layout). */
int calc_plan_has_layout(const struct calc_plan *plan);
/*
 * The chunk layout of 'plan' at 'pp' stages of 'v' chunks each (v = 1 without a
 * schedule with virtual stages; v = 0: whatever a layout string has, else 1) by
 * Megatron-Core's rules (model.c): a layout string,
 * or the first and last stages' layers, or the embedding and the loss counted as
 * layers.  Returns 0 with 'out' filled (out->n = 0 when the plan sets no layout key),
 * or -1 with the reason in msg[0 .. nmsg-1] naming the keys, and in *key the plan key
 * to blame ("layout", "first_stage_layers", ...; without "parallel."); with nmsg 0 (msg
 * may be NULL) no message is formatted, the key still set.  O(pp v) plus
 * the length of the expanded layout string.
 */
int calc_layout_chunks(const struct calc_plan *plan, int pp, int v, struct calc_chunks *out, char *msg,
                       size_t nmsg, const char **key);
/* Set plan->chunks by calc_layout_chunks at the plan's pp and 'v' chunks per stage and,
 * when it places the layers, layers_per_stage to each stage's sum.  Returns 0, or -1 with
 * msg and key as calc_layout_chunks (chunks then cleared, the stage list as it was). */
int calc_plan_chunk(struct calc_plan *plan, int v, char *msg, size_t nmsg, const char **key);
/* The layers of virtual stage g of the plan's chunk layout (plan->chunks.n > 0), counted
 * by kind over its range of the layer sequence; embedding, head and mtp as placed. */
void calc_chunk_layers(const struct calc_plan *plan, int g, struct calc_stage_layers *out);
/* Write the plan's layout compactly into buf ("" when there is none): the keys that
 * reproduce it, e.g. "account_embedding=yes account_loss=yes" or "layout=Et|tt|...". */
void calc_layout_describe(const struct calc_plan *plan, char *buf, size_t n);


/*
 * Fill 'm' from the Hugging Face config.json at 'path' (hfconfig.c: the families it
 * reads and what each leaves to its defaults).  Returns 0, or -1 with a diagnostic
 * naming the file (and the line of the field, where there is one) when the file
 * cannot be read, is not valid JSON, lacks a size, or describes what the model does
 * not have: state-space layers, an encoder, experts outside an MoE family, an MoE
 * layout without a rule in struct calc_moe, an unknown model_type.
 */
int calc_model_from_hf(struct calc_model *m, const char *path, struct calc_diag *d);

#endif
