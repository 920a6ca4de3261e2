/*
 * calc.h -- the trainplan calculation library: public types and functions.
 *
 * Plain structs in, plain structs out.  Units are SI base units everywhere inside
 * the library (bytes, seconds, FLOP, bytes/s, FLOP/s); the unit of every field is in
 * its comment.  The library never prints to the terminal and never exits (except
 * xmalloc on out-of-memory): a function that fails returns -1 after adding a
 * diagnostic "file:line: error: message" to a struct calc_diag, which the caller
 * prints.  Functions that take a FILE * write only to the stream they are handed.
 *
 * Ownership: every pointer a function returns inside a struct is owned by that
 * struct and released by the matching *_free function; nothing else allocates.
 */
#ifndef CALC_H
#define CALC_H

#include <stddef.h>
#include <stdio.h>

#define CALC_MAX_STAGES 256 /* pipeline stages (pp * vpp chunks is bounded separately) */
#define CALC_MAX_VSTAGES 256 /* virtual stages pp x v of a layout placed chunk by chunk */
#define CALC_LAYOUT_MAX 512  /* characters of parallel.layout */
#define CALC_NAME_MAX 64
#define CALC_PATH_MAX 512
#define CALC_PLAN_MAX_INCLUDES 4 /* files one plan may include, all levels */
#define CALC_PLAN_NKEYS 176 /* upper bound of the plan keys (plan.c) */

#include "diag.h"

/* ======================================================================== */
/* Units                                                                     */
/* ======================================================================== */

/*
 * Parse a number with an optional unit suffix into SI base units.
 * 'kind' says what is expected: bytes ("80 GB", "80 GiB", "80e9"), bytes/s
 * ("50 GB/s", "400 Gb/s"), seconds ("5 us", "2 ms"), a plain number ("300e9",
 * "1.5T" for tokens), or a fraction ("0.8" or "80%").  Returns 0, or -1 when the
 * text is not a number or the suffix is not allowed for the kind.
 */
enum calc_unit {
	CALC_U_NONE,     /* plain number; k/M/G/T/P suffixes allowed (10^3 ...) */
	CALC_U_BYTES,    /* B, kB, MB, GB, TB, KiB, MiB, GiB, TiB */
	CALC_U_BYTES_S,  /* B/s, GB/s, ..., Gb/s (bits: /8), Tb/s */
	CALC_U_SECONDS,  /* s, ms, us, ns, min, h, days */
	CALC_U_FRACTION, /* 0..1 or "N%" */
	CALC_U_FLOPS,    /* FLOP/s, TFLOP/s, PFLOP/s; plain numbers too */
	CALC_U_MONEY,    /* currency units per GPU-hour: plain number */
};
int calc_parse_number(const char *text, enum calc_unit kind, double *out);

/* ======================================================================== */
/* Model                                                                     */
/* ======================================================================== */

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
/*
 * The token dispatcher of the MoE layers (moe.dispatcher; Megatron-Core
 * moe_token_dispatcher_type and, for flex, moe_flex_dispatcher_backend,
 * megatron/core/transformer/transformer_config.py at commit d98e8a6):
 *   alltoall  one copy per routed expert to the expert's rank (MoEAlltoAllTokenDispatcher)
 *   allgather every token all-gathered over the EP group, reduce-scattered back
 *   deepep    one copy per target node over the network and per target GPU over NVLink
 *             (DeepEP's normal kernels, DeepSeek-V3 §3.2.2)
 *   hybridep  the same bytes as deepep (NVIDIA HybridEP, flex backend "hybridep")
 */
enum calc_moe_dispatcher { CALC_DISP_ALLTOALL, CALC_DISP_ALLGATHER, CALC_DISP_DEEPEP, CALC_DISP_HYBRIDEP };

/* How the ranks of a context-parallel group exchange attention inputs
 * (parallel.cp_comm; Megatron-LM --cp-comm-type, Transformer Engine's
 * attn_forward_func_with_cp; comm.c, docs/references.md §4.7):
 *   allgather  K and V all-gathered before the local attention, dK and dV
 *              reduce-scattered after it (Llama 3 §3.3.2; TE AttnFuncWithCPAndKVAllGather)
 *   p2p        K and V passed around a ring, cp - 1 sends hidden behind the attention of
 *              the chunk in hand; backward K, V and dK, dV (Liu et al. 2023 Ring
 *              Attention; TE AttnFuncWithCPAndKVP2P), Megatron-LM's default
 *   a2a        all-to-all of Q, K, V to heads before attention and of the output back to
 *              sequence after it (Jacobs et al. 2023 DeepSpeed-Ulysses; TE
 *              AttnFuncWithCPAndQKVOA2A): heads and KV heads per TP rank divisible by cp
 *   a2a+p2p    a2a inside groups of parallel.cp_a2a_size ranks, p2p ring across them */
enum calc_cp_comm { CALC_CP_ALLGATHER, CALC_CP_P2P, CALC_CP_A2A, CALC_CP_A2A_P2P };

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
/* The widths of the mixer of a layer of type 't' (CALC_LAYER_MAMBA or CALC_LAYER_GDN;
 * all zero for another type). */
void calc_model_mixer(const struct calc_model *m, enum calc_layer_type t, struct calc_mixer *x);
/* Parameters of one mixer of type 't' (the block's pre-norm not included). */
double calc_model_mixer_params(const struct calc_model *m, enum calc_layer_type t);
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
 * to blame ("layout", "first_stage_layers", ...; without "parallel.").  O(pp v) plus
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

/* ======================================================================== */
/* Hardware and cluster                                                      */
/* ======================================================================== */

struct calc_gpu {
	char name[CALC_NAME_MAX];
	const char *title;       /* "NVIDIA H100 SXM5 80 GB" */
	double memory_nominal;   /* marketed capacity read as decimal GB, e.g. "80 GB" = 80e9 [bytes];
	                          * the HBM itself holds 80 GiB, of which CUDA reports memory_usable */
	double memory_usable;    /* total memory as CUDA reports it [bytes] */
	double hbm_bw;           /* HBM bandwidth [bytes/s] */
	double bf16_flops;       /* dense (no sparsity) BF16 tensor peak [FLOP/s] */
	double fp8_flops;        /* dense FP8 tensor peak [FLOP/s]; 0 = no FP8 */
	double nvlink_bw;        /* GPU-GPU link bandwidth per direction [bytes/s] */
	double tdp;              /* board power [W] */
	const char *source;      /* where the figures come from */
	int sms;                 /* streaming multiprocessors (GEMM wave quantization); 0 = ignore */
	double gemm_eff;         /* default efficiency.gemm on this GPU [0..1] (presets.c) */
	double attn_eff;         /* default efficiency.attention on this GPU [0..1] */
	double fp4_flops;        /* dense FP4 tensor peak [FLOP/s]; 0 = no FP4 (no recipe computes
	                          * in FP4 yet: the figure is data for the presets table and keys) */
	double pcie_bw;          /* host link, PCIe x16 per direction [bytes/s]; 0 = not known */
	double matmul_max;       /* measured maximum achievable dense BF16 matmul rate (MAMF) [FLOP/s];
	                          * 0 = not measured (docs/references.md §5.9) */
	double matmul_max_fp8;   /* the same for FP8 inputs [FLOP/s]; 0 = not measured */
	double gemm_eff_fp8;     /* default efficiency.gemm_fp8 on this GPU: FP8 GEMMs' share of the
	                          * dense FP8 peak [0..1]; 0 = gemm_eff (presets.c) */
};

struct calc_cluster_preset {
	const char *name;
	const char *title;
	const char *gpu;           /* GPU preset name */
	int gpus_per_node;
	double intra_bw;           /* NVLink per GPU per direction [bytes/s] */
	double intra_busbw;        /* measured NCCL bus bandwidth inside a node [bytes/s] */
	double inter_bw;           /* NIC per GPU per direction [bytes/s] */
	double intra_lat;          /* [s] */
	double inter_lat;          /* [s] */
	double gpu_hour_cost;      /* [currency / GPU-hour] */
	const char *source;
};

/* ======================================================================== */
/* Recipes: the convention ledger of bytes per parameter                     */
/* ======================================================================== */

enum calc_tclass {
	CALC_T_WEIGHT,  /* parameters used by the forward pass */
	CALC_T_WCOPY,   /* extra copies of weights (FP8 casts, DualPipe's 2nd copy is not here) */
	CALC_T_GRAD,    /* gradients / accumulation buffers */
	CALC_T_MASTER,  /* fp32 (or fp16) master weights kept by the optimizer */
	CALC_T_OPT,     /* optimizer moments */
	CALC_T_NCLASS
};

struct calc_recipe_item {
	enum calc_tclass cls;
	const char *tensor; /* "Adam first moment (m)" */
	const char *dtype;  /* "fp32" */
	double bytes;       /* bytes per parameter */
	int zero_stage;     /* the smallest ZeRO stage that shards it over DP (1, 2 or 3) */
	const char *source;
};

struct calc_recipe {
	const char *name;  /* "megatron" */
	const char *title; /* one line */
	int nitems;
	struct calc_recipe_item items[8];
	double act_bytes;  /* bytes per stored activation element (2 = BF16) */
	int fp8_compute;   /* the layer GEMMs' inputs: 0 BF16 (or the recipe's own dtype), else one
	                    * of CALC_LP_*: nonzero means low precision (recipe.c) */
	const char *note;  /* the convention in words, with its source */
	double lin_in_bytes; /* bytes per element of the input a linear layer saves for its
	                      * backward (QKV, fc1, fc2 and the experts' fc1 and fc2; memory.c);
	                      * 0 = act_bytes (docs/references.md §2.10) */
};

/* calc_recipe.fp8_compute: what the layer GEMMs take as inputs */
#define CALC_LP_FP8 1   /* FP8 with per-tensor scales: the FP8 peak, any GPU with FP8 tensor cores */
#define CALC_LP_MXFP8 2 /* MXFP8 (OCP MX): the FP8 peak, block-scaled tensor cores (an FP4 peak) */
#define CALC_LP_NVFP4 3 /* NVFP4: the FP4 peak, block-scaled tensor cores */
/* 1 when the recipe needs block-scaled (microscaling) tensor cores, which the model takes a
 * GPU with an FP4 peak to have (Blackwell; docs/references.md §2.11) */
static inline int calc_recipe_block_scaled(const struct calc_recipe *r)
{
	return r && (r->fp8_compute == CALC_LP_MXFP8 || r->fp8_compute == CALC_LP_NVFP4);
}
const struct calc_recipe *calc_recipe_find(const char *name);
/* Newton-Schulz iterations the recipe's optimizer runs on every matrix per step (Muon: 5);
 * 0 for an element-wise optimizer (Adam, SGD, Adafactor). */
int calc_recipe_ns_iters(const struct calc_recipe *r);
const struct calc_recipe *calc_recipe_at(int i); /* NULL past the end */
/* Bytes per parameter of one class (all items of it), unsharded. */
double calc_recipe_bytes(const struct calc_recipe *r, enum calc_tclass cls);
double calc_recipe_total(const struct calc_recipe *r);
/* Bytes per parameter held by one GPU under ZeRO 'zero' over 'dp' ranks. */
double calc_recipe_bytes_sharded(const struct calc_recipe *r, enum calc_tclass cls, int zero,
                                 int dp);
/* The recipe r with its gradients held in another dtype (training.main_grads): 0 the
 * recipe's own (its preset), 1 BF16 (2 B), 2 FP32 (4 B).  The result is r's preset when
 * the bytes are the preset's (or the preset has no gradients), else a copy of the preset
 * whose gradient items are replaced by one of those bytes (static storage, never freed);
 * its name is the preset's.  r may itself be such a copy. */
const struct calc_recipe *calc_recipe_grads(const struct calc_recipe *r, int main_grads);

/* ======================================================================== */
/* Software stacks: named conventions of a framework (stacks.c)              */
/* ======================================================================== */

/* A stack preset: plan keys as "section.key=value", applied where the plan leaves the
 * key unset (efficiency.stack). */
struct calc_stack {
	const char *name;      /* "torchtitan" */
	const char *title;     /* one line */
	const char *source;    /* where its conventions come from */
	const char *knobs[12]; /* "section.key=value", NULL-terminated */
	const char *alias;     /* another stack's name: this name is that stack (its knobs unused) */
};
/* The stack of that name, an alias resolved to its stack; NULL: no such stack. */
const struct calc_stack *calc_stack_find(const char *name);
const struct calc_stack *calc_stack_at(int i);              /* NULL past the end */

/* ======================================================================== */
/* The plan                                                                  */
/* ======================================================================== */

/* none, selective (Korthikanti 2022 §5), full; 'modules' recomputes the submodules of
 * parallel.recompute_modules (Megatron-Core's recompute_modules); 'deepseek-v3' the
 * RMSNorms and the MLA up-projections (DeepSeek-AI 2024 §3.2.3), = modules layernorm,
 * mla_up_proj.  calc_recompute_modules gives the submodules of each mode.  'op-sac' is
 * torchtitan's selective op-level activation checkpointing (selective_ac_option = "op",
 * torchtitan/parallelisms/parallelize_llama.py _save_list at commit 9dec370): each layer
 * keeps its input and the outputs of the odd-numbered matmuls, of SDPA and of the
 * reduce-scatters, and recomputes the rest (memory.c act_layer, step.c layer_compute). */
enum calc_recompute { CALC_RC_NONE, CALC_RC_SELECTIVE, CALC_RC_FULL, CALC_RC_MODULES, CALC_RC_DSV3, CALC_RC_OP_SAC };
/* Which layers of a model chunk 'full' recomputes (Megatron-LM --recompute-method, with
 * --recompute-num-layers N; megatron/core/recompute.py checkpointed_forward): unset is
 * uniform with N = 1; 'uniform' checkpoints groups of N consecutive layers of each chunk
 * (one input kept per group, the group recomputed together in the backward); 'block'
 * checkpoints the first N layers of each chunk and keeps the others' activations. */
enum calc_rc_method { CALC_RC_METHOD_UNSET, CALC_RC_METHOD_UNIFORM, CALC_RC_METHOD_BLOCK };
/* Submodules of a layer that 'modules' recomputes, one bit each, named as Megatron-Core's
 * TransformerConfig.recompute_modules (megatron/core/transformer/transformer_config.py). */
enum calc_rc_module {
	CALC_RCM_CORE_ATTN = 1 << 0,      /* core_attn: the attention core (scores, softmax, x V) */
	CALC_RCM_MOE_ACT = 1 << 1,        /* moe_act: the routed experts' activation function */
	CALC_RCM_LAYERNORM = 1 << 2,      /* layernorm: input_layernorm and pre_mlp_layernorm */
	CALC_RCM_MLA_UP_PROJ = 1 << 3,    /* mla_up_proj: MLA up-projections and RoPE */
	CALC_RCM_MLP = 1 << 4,            /* mlp: the dense MLP submodule */
	CALC_RCM_MOE = 1 << 5,            /* moe: the whole MoE layer */
	CALC_RCM_SHARED_EXPERTS = 1 << 6, /* shared_experts: the MoE layer's shared experts */
	CALC_RCM_N = 7                    /* number of module names */
};
/* The loss's kernel, which sets the logits' bytes on the last stage (memory.c
 * calc_memory_terms_act, docs/references.md §3.5). */
enum calc_cross_entropy {
	CALC_XENT_FUSED, /* Megatron-LM's fused vocab-parallel cross-entropy: BF16 logits and
	                    one FP32 copy, exp and gradient in place: 6 B per logit */
	CALC_XENT_TORCH  /* torch F.cross_entropy on logits.float() (torchtitan): 12 B per
	                    logit at the loss's backward; 16 B under DTensor loss_parallel
	                    (tp > 1) */
};
/* How hardware FLOPs (HFU) count recomputation (step.c calc_flops). */
enum calc_hfu_count {
	CALC_HFU_EXECUTED, /* what runs: selective +1 attention-core forward, FlashAttention's
	                      backward +QK^T, full +1 forward of every layer */
	CALC_HFU_KOR22,    /* Korthikanti 2022 Eq. 8 for selective / FlashAttention, Narayanan
	                      2021 Eq. 3 for full (reproduces KOR22 Table 5's HFU/MFU) */
};
/* Pipeline schedules: an id is a row of the schedule table (schedules.c, declared in
 * pipeline.h), which holds every fact of a schedule.  These names are the built-in rows;
 * calc_schedule_register adds rows after them, up to CALC_SCHED_MAX. */
enum calc_schedule {
	CALC_SCHED_GPIPE,
	CALC_SCHED_1F1B,
	CALC_SCHED_INTERLEAVED,
	CALC_SCHED_ZBH1,
	CALC_SCHED_ZBH2,
	CALC_SCHED_DUALPIPE,
	CALC_SCHED_N /* built-in rows */
};
#define CALC_SCHED_MAX 16 /* rows of the schedule table, built-in and registered */
/* The row's name ("1f1b"), "?" outside the table. */
const char *calc_schedule_name(enum calc_schedule s);
const char *calc_recompute_name(enum calc_recompute r);
/* The name of module bit i (0 .. CALC_RCM_N - 1, "core_attn"), NULL outside. */
const char *calc_rc_module_name(int i);
/* The submodules (enum calc_rc_module bits) recomputed under mode 'rc' with the plan's
 * parallel.recompute_modules 'modules': 'modules' for CALC_RC_MODULES, layernorm |
 * mla_up_proj for CALC_RC_DSV3, 0 for none, selective and full (which memory.c and
 * step.c treat as whole modes). */
unsigned calc_recompute_modules(enum calc_recompute rc, unsigned modules);
/* Layers of a stage of 'layers' layers whose forward runs again in the backward, for the
 * plan's recomputation: with recompute = full and recompute_method = block, the first
 * N = recompute_num_layers of each of the vpp chunks, v min(N, layers / v)
 * (megatron/core/recompute.py checkpointed_forward; docs/references.md §2.4); otherwise
 * all 'layers' (uniform groups recompute every layer once; the other modes repeat a part
 * of every layer).  0 for layers <= 0. */
double calc_recompute_layers(const struct calc_plan *plan, int layers);
/* The same rule without the plan, for a caller given no plan (step.c's pipeline stage):
 * the plan's recompute = full with recompute_method = block ('block'), vpp ('v', 1
 * when not set) and recompute_num_layers ('n', 1 when not set). */
struct calc_rc_rule {
	int block, v, n;
};
void calc_rc_rule_of(const struct calc_plan *plan, struct calc_rc_rule *out);
double calc_rc_rule_layers(const struct calc_rc_rule *r, int layers);

/* training.offload_style: the conventions of optimizer-state offload (docs/references.md
 * §2.13).  Megatron-Core's HybridDeviceOptimizer keeps the gradients on the GPU and moves
 * the offloaded share's gradient (the recipe's gradient bytes) down and its weight (the
 * recipe's weight bytes) up; DeepSpeed's ZeRO-Offload (Ren et al. 2021 §3.5, §4.2) keeps
 * the fp16 gradients on the host too and moves 2 + 2 bytes per parameter (§3.3's 4M). */
enum calc_offload_style { CALC_OFFLOAD_MEGATRON, CALC_OFFLOAD_ZERO };

struct calc_plan {
	/* where the plan came from, for diagnostics and the report's title page */
	char file[CALC_PATH_MAX]; /* plan file, or "<default>" */
	char title[128];          /* [plan] title */
	char date[32];            /* [plan] date (YYYY-MM-DD); "" = SOURCE_DATE_EPOCH or today */
	double memory_margin;     /* [plan] share of usable memory the recommended split leaves free [0..0.9] */
	double published_gpu_hours; /* [plan] GPU-hours of the published run the plan reproduces (0 = none) */
	char published_source[160]; /* [plan] where published_gpu_hours is published ("" = none) */
	char currency[8];         /* [plan] ISO 4217 code of the prices ("" = not named) */
	int framework;            /* [plan] framework whose pipeline schedules the planner searches:
	                             0 stack (efficiency.stack's), 1 any, 2 + i calc_framework_at(i)
	                             (frameworks.c, calc_plan_framework) */

	struct calc_model model;
	char hf_config[CALC_PATH_MAX]; /* model read from this config.json ("" = none) */

	/* [cluster] */
	char cluster_preset[CALC_NAME_MAX];
	struct calc_gpu gpu;
	int nodes;
	int gpus_per_node;
	int gpus_total;        /* cluster.gpus: the GPU count the plan gives instead of its nodes
	                        * (nodes = gpus / gpus_per_node); 0 = not given */
	double gpu_memory;     /* usable memory per GPU [bytes] (defaults to gpu.memory_usable) */
	double intra_node_bw;  /* NVLink per GPU per direction [bytes/s] */
	double intra_node_busbw; /* NCCL bus bandwidth achieved inside a node [bytes/s] */
	double inter_node_bw;  /* network per GPU per direction [bytes/s] */
	double intra_node_latency; /* [s] */
	double inter_node_latency; /* [s] */
	double inter_node_eff; /* achieved share of inter_node_bw for collectives [0..1] */
	double gpu_hour_cost;  /* [currency / GPU-hour] */
	int nodes_per_leaf;    /* nodes under one leaf (rail) switch group; 0 = one leaf for all
	                          nodes (two tiers: NVLink and the network) */
	double oversubscription; /* leaf-to-spine oversubscription: a collective step across
	                          leaves gets the network bandwidth divided by it [>= 1; 0 = 1] */
	double spine_latency;  /* per ring step across the spine [s]; 0 = inter_node_latency */

	/* [training] */
	int seq_len;           /* s [tokens] */
	int global_batch;      /* B [sequences per optimizer step] */
	int micro_batch;       /* b [sequences] */
	char recipe_name[CALC_NAME_MAX];
	const struct calc_recipe *recipe;
	double tokens;         /* token budget of the run [tokens] */
	int flash_attention;   /* 1: no s^2 attention activations stored */
	int cross_entropy;     /* enum calc_cross_entropy: the loss's kernel */
	int main_grads;        /* dtype of the gradients held: 0 the recipe's, 1 BF16, 2 FP32
	                          (training.main_grads; calc_recipe_grads makes 'recipe' hold them) */

	/* [parallel] */
	int tp, pp, dp, cp, vpp;
	int ep, etp;           /* expert parallelism and expert tensor parallelism: Megatron-Core
	                          MoE "parallel folding", the experts of an MoE layer use
	                          etp x ep x edp of the same tp x cp x dp GPUs of a stage */
	int edp;               /* expert data parallelism tp cp dp / (etp ep), derived */
	int cp_comm;           /* enum calc_cp_comm: how the CP ranks exchange attention inputs */
	int cp_a2a_size;       /* for cp_comm = a2a+p2p: ranks of an a2a group (the first of
	                          Megatron-LM --hierarchical-context-parallel-sizes); 0 = unset */
	int sp;                /* sequence parallelism with TP (Korthikanti 2022) */
	int zero;              /* 0..3 */
	enum calc_recompute recompute;
	unsigned recompute_modules; /* enum calc_rc_module bits, for recompute = modules */
	int recompute_method;  /* enum calc_rc_method, for recompute = full */
	int recompute_num_layers; /* N of recompute_method [layers]; 0: unset (= 1) */
	/* DeepSpeed's activation checkpointing (deepspeed.checkpointing.configure, the
	 * "activation_checkpointing" JSON section; ZeRO-R, Rajbhandari et al. 2020 §6.1 P_a
	 * and P_a+cpu), for recompute = full only (memory.c act_layer, step.c ckpt_traffic) */
	int partition_activations; /* 1: each TP rank keeps 1/t of a layer's checkpoint, all-gathered
	                              before its recomputation */
	int cpu_checkpointing; /* 1: checkpoints live in host memory, copied over PCIe */
	/* training.offload_activations: layers whose activations Megatron-Core's layer-level CPU
	 * offloading (Transformer Engine's cpu_offload, --cpu-offloading-num-layers) keeps in
	 * host memory, copied over the host link gpu.pcie_bw (memory.c offload_act, step.c
	 * offload_traffic, docs/references.md §2.12); 0 = none */
	int offload_layers;
	/* training.offload_optimizer: the share of the rank's master weights and optimizer
	 * states that Megatron-Core's HybridDeviceOptimizer keeps and updates on the host
	 * (--optimizer-cpu-offload --optimizer-offload-fraction; memory.c, step.c
	 * optimizer_time, docs/references.md §2.13); 0 = none */
	double offload_optimizer;
	/* training.offload_style: whose optimizer offload training.offload_optimizer is (enum
	 * calc_offload_style; docs/references.md §2.13) */
	int offload_style;
	double cpu_optimizer_rate; /* cluster.cpu_optimizer_rate: parameters the host's optimizer
	                              updates per second for one GPU [1/s]; 0 = not known */
	/* With SP (tp > 1), what the backward of a column-parallel linear (QKV, fc1, the LM
	 * head) keeps of its input (memory.c act_layer, docs/references.md §2.9): 0 sharded,
	 * the sequence shard that Megatron-LM all-gathers again in backward (Korthikanti 2022
	 * §4.2.2); 1 gathered, the all-gathered input itself (PyTorch DTensor TP) */
	int sp_saved_input;
	enum calc_schedule schedule;
	int layers_per_stage[CALC_MAX_STAGES]; /* layers of each stage; sums to model.layers */
	/* Megatron-Core's layout keys (model.c calc_layout_chunks, docs/references.md §3.7) */
	int first_stage_layers; /* layers of stage 0 (--decoder-first-pipeline-num-layers); 0: unset */
	int last_stage_layers;  /* layers of the last stage (--decoder-last-pipeline-num-layers); 0: unset */
	int account_embedding;  /* 1: the embedding counts as one layer of the split */
	int account_loss;       /* 1: the loss (with the LM head) counts as one layer of the split */
	char layout[CALC_LAYOUT_MAX]; /* --pipeline-model-parallel-layout, e.g. "Et*3|(tt|)*29m|L"; "" none */
	/* torchtitan's weights of the ends (pipeline_parallel_first/last_stage_less_layers) */
	int first_less;         /* the embedding counts as this many layers; 0: unset */
	int last_less;          /* the norm and output count as this many layers; 0: unset */
	struct calc_chunks chunks; /* derived from the four above at pp and the schedule's v */
	int uneven_stages;     /* > 0: layers_per_stage was given explicitly (its entries) */
	enum calc_split split; /* rule filling layers_per_stage when it is not given */
	int p2p_scatter_gather; /* 1: PP sends split over the TP ranks (Narayanan 2021 §4.1) */
	char placement[32];    /* group order innermost first, e.g. "tp-cp-pp-dp" */
	int post_validation;   /* 1: ZB-H2 runs steps back to back, the optimizer's global
	                          checks validated afterwards (Qi et al. 2024 §4); 0: each
	                          step ends in a flush (default) */
	/* FSDP / ZeRO-3 as PyTorch FSDP and DeepSpeed run it, one FSDP unit per layer
	 * (comm.c calc_comm_fsdp, step.c, memory.c) */
	int fsdp;              /* 1: per-layer all-gathers and reduce-scatters (implies zero = 3) */
	int fsdp_shard;        /* HSDP: ranks of one shard group; 0 = the whole DP x CP group */
	int reshard_after_forward; /* 1: a layer's parameters are freed after its forward and
	                              gathered again for its backward (FSDP default) */
	int fsdp_prefetch;     /* layers gathered ahead of the one computing (0 = none) */
	int no_sync;           /* 1: gradients accumulate unsharded over the micro-batches and are
	                          reduce-scattered once per step (FSDP no_sync) */
	int grad_reduce;       /* dtype of the DP gradient reduction: 0 the recipe's, 1 BF16, 2 FP32 */

	/* [overhead] named per-GPU memory overheads */
	double cuda_context;   /* CUDA context, kernels and library modules [bytes] */
	double nccl_buffers;   /* NCCL communicator buffers [bytes] */
	double workspace;      /* cuBLAS / attention workspaces [bytes] */
	double fragmentation;  /* allocator fragmentation, share of allocated memory [0..1] */

	/* [efficiency] achieved shares of peak used by the time model */
	double gemm_eff;       /* GEMM throughput / dense tensor peak (or, with gemm_basis, / the
	                        * measured achievable matmul rate) [0..1] */
	double gemm_eff_fp8;   /* the same for the GEMMs that take FP8 inputs [0..1]; 0 = gemm_eff */
	int gemm_basis;        /* what efficiency.gemm is a share of: 0 the datasheet's dense peak,
	                        * 1 gpu.matmul_max (docs/references.md §5.9) */
	int gemm_shape;        /* GEMM efficiency by shape: 0 none, 1 table (XLA's sm_90 table, gemm_table.c,
	                        * docs/references.md §5.10), 2 auto (table where the GPU has one);
	                        * calc_gemm_shape_on says which applies */
	double attn_eff;       /* attention core throughput / peak [0..1] */
	double dp_overlap;     /* share of DP communication hidden behind backward [0..1] */
	double tp_overlap;     /* share of TP communication hidden behind compute [0..1] */
	double tp_overlap_sms; /* SMs the overlapped TP/CP collectives hold from the GEMMs [SMs] */
	const struct calc_stack *stack; /* efficiency.stack (NULL: the defaults, megatron-core) */
	double dp_bw_eff;      /* achieved share of the modelled bandwidth in DP collectives [0..1] */
	int dp_flat;           /* 1: DP collectives as one flat ring whose every hop may cross the
	                          network (no NVLink aggregation inside a node) */
	double grouped_gemm;   /* throughput of the grouped per-expert GEMMs / efficiency.gemm [0..1] */
	double ep_overlap;     /* share of the EP all-to-all hidden behind compute [0..1] (DualPipe
	                          overlaps one micro-batch's all-to-all with another's compute) */
	/* [moe] how the MoE layers run (docs/references.md §5.12) */
	int moe_dispatcher;    /* enum calc_moe_dispatcher: the token dispatcher */
	int overlap_ep_comm;   /* 1: Megatron-Core overlap_moe_expert_parallel_comm, one
	                          micro-batch's dispatch and combine under another's compute */
	int router_fusion;     /* 1: the router's score, top-k and aux-loss ops as fused kernels
	                          (Megatron-Core moe_router_fusion) */
	int permute_fusion;    /* 1: the permutation's index computation as one fused kernel
	                          (Megatron-Core moe_permute_fusion) */
	double moe_comm_sms;   /* SMs the dispatch and combine kernels hold from the GEMMs while
	                          they run hidden (DeepEP num_sms, HybridEP moe_hybridep_num_sms);
	                          0 = not charged [SMs] */
	double optimizer_time; /* optimizer step per iteration; < 0 = estimate from HBM [s] */
	double step_overhead;  /* fixed host-side time per step outside the GPU timeline (data
	                          loading, logging, synchronisation; docs/references.md §5.11) [s] */
	enum calc_hfu_count hfu_count; /* convention of the hardware FLOPs (HFU) */

	/* [run] checkpoints, failures and energy of the whole run (run.c) */
	int ckpt_optimizer;    /* 1: checkpoints hold the optimizer states and master weights */
	int ckpt_async;        /* 1: training stops only for the copy to host memory */
	double storage_node_bw;  /* file-system write/read bandwidth of one node [bytes/s] */
	double storage_bw;     /* aggregate file-system bandwidth [bytes/s] */
	double host_copy_bw;   /* device-to-host copy per GPU (asynchronous checkpoints) [bytes/s] */
	double failure_rate;   /* job-stopping failures per GPU-hour [1/GPU-hour] */
	double restart_time;   /* from a failure to training again, without the checkpoint load [s] */
	double ckpt_interval;  /* compute time between checkpoints; 0 = Daly's optimum [s] */
	double gpu_idle_power; /* power of an idle GPU / its TDP [0..1] */
	double node_power;     /* one node without its GPUs: CPUs, memory, NICs, switches, fans [W] */
	double network_power;  /* network switches and optics per GPU [W] */
	double pue;            /* facility power / IT power [>= 1] */
	double energy_price;   /* [currency / kWh] */
	double carbon_intensity; /* grid emissions; 0 = not reported [kg CO2e / kWh] */

	/* bookkeeping of the loader: which values were derived, where each key was set */
	int dp_auto;           /* 1: dp derived from the GPU count */
	int split_unset;       /* 1: the user names a model or a cluster and no parallel degree
	                        * (tp, pp, dp, cp, vpp, ep, etp, layers_per_stage): the default
	                        * plan's split does not apply, the degrees are 1 (dp the rest)
	                        * until calc_plan_pick_split puts the planner's pick in */
	int split_picked;      /* 1: the split is the planner's pick (calc_plan_pick_split) */
	int head_dim_auto;     /* 1: head_dim = hidden / heads */
	int gpu_memory_auto;   /* 1: gpu_memory = gpu.memory_usable */
	int eff_auto;          /* bit 0: gemm_eff = gpu.gemm_eff, bit 1: attn_eff = gpu.attn_eff,
	                        * bit 2: gemm_eff_fp8 from the GPU (or 0 when the plan sets gemm_eff) */
	int key_line[CALC_PLAN_NKEYS];            /* line where each key was last set (0 = not) */
	unsigned char key_src[CALC_PLAN_NKEYS];   /* 0 default plan, 1 plan file, 2 override,
	                                             3 + i the file includes[i] */
	unsigned char key_stack[CALC_PLAN_NKEYS]; /* 1: the value is efficiency.stack's knob
	                                             (a key the plan left unset) */
	char includes[CALC_PLAN_MAX_INCLUDES][CALC_PATH_MAX]; /* files the plan includes, in order */
	int nincludes;
	char set_origin[96];   /* origin of the last override ("--set", "chapter.md:3:7") */
};

/*
 * Load a plan: start from the built-in default plan (plans/default.ini, embedded),
 * then apply 'file' (NULL = none), then each of the 'nsets' overrides "KEY=VALUE"
 * ("section.key=value" or a bare key where the key name is unique), then resolve
 * presets and validate.  Every problem found is added to 'd'; returns 0 or -1.
 */
int calc_plan_load(struct calc_plan *plan, const char *file, const char *const *sets, int nsets,
                   struct calc_diag *d);
/* Apply one more "KEY=VALUE" to a loaded plan and re-validate it ('origin' names it in
 * messages, e.g. "chapter.md:12:5").  Returns 0 or -1. */
int calc_plan_set(struct calc_plan *plan, const char *kv, const char *origin, struct calc_diag *d);
/* Apply several "KEY=VALUE" at once, then derive and validate the result once (a
 * change of two degrees whose product must stay the GPU count passes through no
 * invalid intermediate plan).  Returns 0 or -1; on -1 the plan may be half-changed. */
int calc_plan_set_many(struct calc_plan *plan, const char *const *kvs, int n, const char *origin,
                       struct calc_diag *d);
/*
 * Plan variants (variant.c): the one builder.  A layout change names the parallel
 * degrees and training choices to replace; a field < 0 (recipe NULL) keeps the base's.
 * A new pp re-splits the layers by the plan's rule (parallel.split) and marks the
 * stages uneven when they differ.
 */
struct calc_layout {
	int nodes, gpus_per_node;
	int tp, pp, dp, cp, vpp;
	int sp, zero;
	int recompute;         /* enum calc_recompute, or < 0 */
	int schedule;          /* enum calc_schedule, or < 0 */
	int micro_batch;
	const struct calc_recipe *recipe;
};
/* Set every field of 'l' to "keep". */
void calc_layout_keep(struct calc_layout *l);
/* Set pl->pp to 'pp' and split the layers by the plan's rule.  Returns 0, or -1 (with a
 * diagnostic when 'd' is not NULL) when the rule cannot split that depth; the list is
 * then left as it was and the planner's own checks refuse the depth. */
int calc_plan_resplit(struct calc_plan *pl, int pp, struct calc_diag *d);
#define CALC_VARIANT_VALIDATE 1u  /* validate the result even without assignments */
#define CALC_VARIANT_UNCHECKED 2u /* apply the assignments, ignore the validator (memory
                                     of a recipe this GPU cannot run, say) */
/*
 * Fill 'out' with 'base' changed by 'lay' (NULL: none) and then by the 'n' assignments
 * "KEY=VALUE" ('origin' names them in messages), validated once as a whole (unless
 * CALC_VARIANT_UNCHECKED).  Returns 0, or -1 after diagnostics in 'd'.
 */
int calc_plan_variant(const struct calc_plan *base, const struct calc_layout *lay, const char *const *kvs, int n,
                      const char *origin, unsigned flags, struct calc_plan *out, struct calc_diag *d);
/* Check the plan is consistent (divisibility, ranges, product of degrees = GPUs). */
int calc_plan_validate(const struct calc_plan *plan, struct calc_diag *d);
/*
 * Fill 'm' from the Hugging Face config.json at 'path' (hfconfig.c: the families it
 * reads and what each leaves to its defaults).  Returns 0, or -1 with a diagnostic
 * naming the file (and the line of the field, where there is one) when the file
 * cannot be read, is not valid JSON, lacks a size, or describes what the model does
 * not have: state-space layers, an encoder, experts outside an MoE family, an MoE
 * layout without a rule in struct calc_moe, an unknown model_type.
 */
int calc_model_from_hf(struct calc_model *m, const char *path, struct calc_diag *d);
/* Number of GPUs = nodes * gpus_per_node. */
static inline int calc_plan_gpus(const struct calc_plan *plan)
{
	return plan->nodes * plan->gpus_per_node;
}
/* Micro-batches per pipeline per step m = B / (b * dp); 0 when b * dp is not positive. */
static inline int calc_plan_microbatches(const struct calc_plan *plan)
{
	long den = (long)plan->micro_batch * plan->dp;
	return den > 0 ? (int)(plan->global_batch / den) : 0;
}
/* The layers whose activations are offloaded (training.offload_activations) where the
 * split allows it: Megatron-Core offloads only at pp = 1 without recomputation (the plan
 * check refuses the rest; a planner candidate of another split, or with recomputation,
 * offloads nothing and is costed so). */
static inline int calc_plan_offload_layers(const struct calc_plan *plan)
{
	return plan->pp == 1 && plan->recompute == CALC_RC_NONE ? plan->offload_layers : 0;
}
/* Write the default plan text (embedded copy of plans/default.ini). */
const char *calc_plan_default_text(void);

/* The plan's keys, for --set, `trainplan presets keys` and the README. */
struct calc_key_info {
	const char *section;
	const char *key;
	const char *type;    /* "int", "number", "bytes", "bytes/s", "seconds", "bool", "enum", "text" */
	const char *range;   /* allowed values or range, in words */
	const char *meaning;
};
const struct calc_key_info *calc_plan_key_at(int i); /* NULL past the end */
/* Where key SECTION.NAME of a loaded plan was last set, for messages about it: the file
 * (the plan, an included file, the default plan or the override's origin) and in *line
 * its line (0 for an override or a key never set). */
const char *calc_plan_key_origin(const struct calc_plan *p, const char *section, const char *name, int *line);
/*
 * Where the value of a plan key came from: "plan" (the plan file or a file it includes),
 * "override" (--set), "stack" (a knob of efficiency.stack on a key the plan left unset,
 * calc/stacks.c) or "default" (the project's default plan, plans/default.ini, or the
 * built-in default of a key it does not set).  NULL for an unknown key.
 */
const char *calc_plan_key_source(const struct calc_plan *p, const char *section, const char *name);
/* Of the keys in 'keys' (space-separated, at most 8: "section.name", or a bare name of
 * [parallel]), the one the user set last (override > plan file > included file >
 * default, then the later line): its file as calc_plan_key_origin, its line in *line.
 * With none of them known: the plan file and line 0. */
const char *calc_plan_keys_origin(const struct calc_plan *p, const char *keys, int *line);

/* Presets. */
const struct calc_model *calc_preset_model(const char *name);
const struct calc_model *calc_preset_model_at(int i);
const char *calc_preset_model_source(const char *name);
const struct calc_gpu *calc_preset_gpu(const char *name);
const struct calc_gpu *calc_preset_gpu_at(int i);
const struct calc_cluster_preset *calc_preset_cluster(const char *name);
const struct calc_cluster_preset *calc_preset_cluster_at(int i);

/* ======================================================================== */
/* Memory                                                                    */
/* ======================================================================== */

/* Activation bytes per layer per micro-batch, split by where they come from. */
struct calc_act_layer {
	double attn;     /* attention block incl. its input norm [bytes] */
	double scores;   /* s^2 attention scores/softmax/dropout (0 with flash/selective) [bytes] */
	double mlp;      /* MLP block incl. its input norm [bytes] */
	double total;    /* per layer per micro-batch [bytes] */
};

struct calc_mem_stage {
	int stage;           /* 0-based pipeline rank */
	int layers;          /* transformer layers on this stage (all chunks) */
	double params;       /* parameters held by one GPU of this stage [parameters] */
	double weights;      /* [bytes] */
	double weight_copies;/* [bytes] (FP8 casts; DualPipe's second copy) */
	double gradients;    /* [bytes] */
	double master;       /* [bytes] */
	double optimizer;    /* [bytes] */
	double inflight;     /* micro-batches whose activations are held at the peak */
	double act_layers;   /* activations of the transformer layers at the peak [bytes] */
	double act_extra;    /* embedding / final norm / LM head / loss activations [bytes] */
	double activations;  /* act_layers + act_extra [bytes] */
	double ov_cuda;      /* CUDA context [bytes] */
	double ov_nccl;      /* NCCL buffers [bytes] */
	double ov_workspace; /* workspaces [bytes] */
	double ov_frag;      /* fragmentation [bytes] */
	double ov_temp;      /* largest transient buffer (bf16 logits on the last stage) [bytes] */
	double fsdp_buffers; /* FSDP's gathered weights and unsharded gradients, counted in
	                        weight_copies and gradients [bytes] */
	double overhead;     /* sum of the five above [bytes] */
	double states;       /* weights + copies + gradients + master + optimizer [bytes] */
	double total;        /* states + activations + overhead [bytes] */
	double capacity;     /* usable GPU memory [bytes] */
	double headroom;     /* capacity - total [bytes]; < 0 does not fit */
	double host;         /* held in host memory instead: the offloaded layers' activations
	                        (training.offload_activations) and the offloaded master weights
	                        and optimizer states (training.offload_optimizer) [bytes] */
};

struct calc_memory {
	int nstages;
	struct calc_mem_stage st[CALC_MAX_STAGES];
	int worst;             /* stage with the largest total */
	struct calc_act_layer act;   /* one layer, one micro-batch, this plan's settings */
	double states_total;   /* model states of the whole model, unsharded, by the recipe [bytes] */
	int states_min_gpus;   /* ceil(states_total / usable capacity) */
	int states_min_gpus_nominal; /* ceil(states_total / nominal capacity) */
	int fits;              /* 1: every stage fits */
};

/*
 * The terms of a stage's memory that do not depend on which stage it is, filled at
 * the level where each changes (the planner keeps them per work item and changes only
 * the parts a leaf changes).  calc_memory uses them too: one owner of every term.
 */
struct calc_mem_terms {
	int p;                                 /* pipeline stages */
	int nkinds;                            /* layer kinds */
	double kind_params[CALC_MAX_KINDS];    /* one layer of each kind on one GPU [parameters] */
	double first_params;                   /* embedding / t + positions, stage 0 [parameters] */
	double last_norm;                      /* final norm, last stage [parameters] */
	double last_head;                      /* untied LM head / t, or the tied matrix's copy when
	                                          pp > 1, last stage [parameters] */
	double bw, bwc, bg, bm, bo;            /* bytes per parameter on one GPU after ZeRO: weights,
	                                          weight copies, gradients, master, optimizer [B] */
	double kind_expert[CALC_MAX_KINDS];    /* routed experts of one layer of each kind on one GPU,
	                                          / (ep etp); not in kind_params [parameters] */
	double ebw, ebwc, ebg, ebm, ebo;       /* the same bytes for expert parameters, ZeRO over the
	                                          expert-DP group (edp) [B] */
	int copies;                            /* parameter copies (2 for DualPipe) */
	double act[CALC_MAX_KINDS];            /* one layer of each kind, one micro-batch, stored [B] */
	double act_full[CALC_MAX_KINDS];       /* the same without recomputation [B] */
	int rc_method;                         /* enum calc_rc_method under recompute = full, else 0 */
	int rc_layers;                         /* its N [layers] (1 when unset) */
	int chunks;                            /* model chunks per stage (vpp) */
	int offload_layers;                    /* training.offload_activations [layers] (pp = 1) */
	double opt_off;                        /* training.offload_optimizer: share of the master
	                                          weights and optimizer states on the host [0..1] */
	int opt_off_grads;                     /* 1: the gradients of that share live on the host too
	                                          (training.offload_style = zero-offload) */
	int ckpt_cpu;                          /* 1: the full-recomputation checkpoints live in host
	                                          memory (parallel.cpu_checkpointing); act[] holds
	                                          the one in transfer */
	double first_act;                      /* per in-flight micro-batch on stage 0: token ids,
	                                          embedding dropout mask [B] */
	double last_act;                       /* last stage: final norm and LM-head inputs, fp32
	                                          logits [B] */
	double last_temp;                      /* last stage: the loss's transient beyond last_act:
	                                          bf16 logits (fused), or the bf16 logits and
	                                          gradients at the loss's backward (torch) [B] */
	double fixed[3];                       /* CUDA context, NCCL buffers, workspaces [B] */
	double frag;                           /* fragmentation share of allocated memory [0..1] */
	double capacity;                       /* usable memory [B] */
	/* FSDP (parallel.fsdp; all zero without it): gathered, unsharded buffers */
	double fsdp_w;                         /* bytes per parameter of a gathered unit's weights [B] */
	double fsdp_g;                         /* bytes per parameter of its unsharded gradients [B] */
	int fsdp_units;                        /* units gathered at once: 1 + parallel.fsdp_prefetch */
	int fsdp_keep_w;                       /* 1: the stage's parameters stay gathered from the
	                                          forward to the backward (reshard_after_forward off,
	                                          or pp > 1) */
	int fsdp_keep_g;                       /* 1: the stage's unsharded gradients accumulate over
	                                          the micro-batches (no_sync, or pp > 1) */
};
/* Parameter terms (p, nkinds, kind_params, first/last) from the plan's tp, pp, model;
 * 'pr' from calc_model_params. */
void calc_memory_terms_params(const struct calc_plan *plan, const struct calc_params *pr,
                              struct calc_mem_terms *k);
/* Bytes per parameter by class under ZeRO 'zero' over 'shard' ranks (dp x cp). */
void calc_memory_terms_bytes(const struct calc_recipe *r, int zero, int shard, struct calc_mem_terms *k);
/* Expert bytes per parameter by class under ZeRO 'zero' over the 'edp' expert-DP ranks. */
void calc_memory_terms_expert_bytes(const struct calc_recipe *r, int zero, int edp, struct calc_mem_terms *k);
/* Routed-expert parameters one GPU of a stage holding 'sl' holds, one copy [parameters]. */
double calc_memory_terms_stage_experts(const struct calc_mem_terms *k, const struct calc_stage_layers *sl);
/* Activation terms under the plan's recompute, sp, tp, cp, micro-batch and sequence. */
void calc_memory_terms_act(const struct calc_plan *plan, struct calc_mem_terms *k);
/* Overheads and capacity. */
void calc_memory_terms_fixed(const struct calc_plan *plan, struct calc_mem_terms *k);
/* The FSDP buffer terms (fsdp_*) from parallel.fsdp, fsdp_prefetch, reshard_after_forward,
 * no_sync, pp, efficiency.grad_reduce and the recipe; all zero without FSDP. */
void calc_memory_terms_fsdp(const struct calc_plan *plan, struct calc_mem_terms *k);
/* All of them, and copies, for one plan (plan->recipe must be set). */
void calc_memory_terms(const struct calc_plan *plan, struct calc_mem_terms *k);
/*
 * Memory of one GPU of a stage holding 'sl' with 'inflight' micro-batches at its peak:
 * returns the total [B] and, when 'st' is not NULL, fills every term of it except
 * stage, layers and headroom-independent bookkeeping (stage, layers, capacity,
 * headroom are set too).  Pure arithmetic on 'k'.
 */
/* Parameters one GPU of a stage holding 'sl' holds, one copy, without the routed experts
 * (what the data-parallel group reduces) [parameters]. */
double calc_memory_terms_stage_params(const struct calc_mem_terms *k, const struct calc_stage_layers *sl);
double calc_memory_stage_total(const struct calc_mem_terms *k, const struct calc_stage_layers *sl,
                               double inflight, struct calc_mem_stage *st);
/* calc_memory_stage_total in two steps, for callers that vary only the state bytes per
 * parameter (bw .. ebo: the ZeRO stage): the parts that do not read them, then the total
 * from those parts under k's bytes -- the same arithmetic, so the same result bit for bit. */
struct calc_mem_stage_parts {
	double n, ne;    /* parameters, and routed-expert parameters, of one copy [parameters] */
	double gw, gg;   /* FSDP's gathered weights and unsharded gradients [B] */
	double act;      /* the layers' activations at the peak [B] */
	double extra;    /* the ends' activations (embedding inputs, LM head and loss) [B] */
	double temp;     /* the loss's transient [B] */
};
void calc_memory_stage_parts(const struct calc_mem_terms *k, const struct calc_stage_layers *sl, double inflight,
                             struct calc_mem_stage_parts *out);
double calc_memory_stage_of(const struct calc_mem_terms *k, const struct calc_stage_layers *sl, double inflight,
                            const struct calc_mem_stage_parts *parts, struct calc_mem_stage *st);

/* Compute per-stage memory of one GPU.  Returns 0 or -1 with a diagnostic. */
int calc_memory(const struct calc_plan *plan, struct calc_memory *out, struct calc_diag *d);
/* Activations of one layer (of kind 0) for one micro-batch under the plan's
 * tp/sp/cp/recompute. */
void calc_memory_act_layer(const struct calc_plan *plan, struct calc_act_layer *out);
/* Activations of one layer of kind 'k' for one micro-batch under recomputation 'rc'. */
void calc_memory_act_kind(const struct calc_plan *plan, int k, enum calc_recompute rc,
                          struct calc_act_layer *out);
/* Parameters one GPU of pipeline stage 'i' holds, one copy: TP shards the matrices and
 * the vocabulary; norms, row-parallel biases and learned positions stay replicated
 * (Megatron-LM).  'pr' comes from calc_model_params.  Pure arithmetic. */
double calc_memory_stage_params(const struct calc_plan *plan, const struct calc_params *pr, int i);

/* ======================================================================== */
/* Pipeline (pipeline.c)                                                     */
/* ======================================================================== */

/* Micro-batches (in units of one stage's full activation set) that stage 'stage'
 * holds at its peak under the plan's schedule; see pipeline.c for sources. */
double calc_pipeline_inflight(const struct calc_plan *plan, int stage);
/* Copies of the parameters each GPU holds (2 for DualPipe, else 1). */
int calc_pipeline_param_copies(const struct calc_plan *plan);

/* ======================================================================== */
/* Tables and datasets                                                       */
/* ======================================================================== */

/* How a column's SI value is shown in text, Markdown and the report. */
enum calc_disp {
	CALC_D_TEXT,   /* the cell's string */
	CALC_D_INT,    /* integer with thousands separators in text */
	CALC_D_NUM,    /* %.*g-style with 'prec' significant digits */
	CALC_D_FIXED,  /* %.*f with 'prec' decimals */
	CALC_D_GB,     /* bytes shown as GB (10^9) with 'prec' decimals */
	CALC_D_GIB,    /* bytes shown as GiB (2^30) */
	CALC_D_TB,     /* bytes shown as TB (10^12) */
	CALC_D_MB,     /* bytes shown as MB (10^6) */
	CALC_D_PCT,    /* fraction shown as percent */
	CALC_D_MS,     /* seconds shown as milliseconds */
	CALC_D_S,      /* seconds */
	CALC_D_DAYS,   /* seconds shown as days */
	CALC_D_GBPS,   /* bytes/s shown as GB/s */
	CALC_D_TFLOPS, /* FLOP/s shown as TFLOP/s */
	CALC_D_BILLION,/* count shown in billions (parameters) */
};

struct calc_col {
	char name[48];     /* header, without unit */
	const char *unit;  /* SI unit of the stored value: "B", "s", "1", "FLOP/s", ... or "" */
	enum calc_disp disp;
	int prec;
};

struct calc_cell {
	double v;  /* SI value (NAN when the cell is text only) */
	char *s;   /* text, or NULL for a number */
};

struct calc_table {
	char name[CALC_NAME_MAX]; /* catalog name */
	char title[160];          /* caption */
	int ncols;
	struct calc_col cols[24];
	int nrows, caprows;
	struct calc_cell *cells;  /* nrows * ncols, row-major */
	char *note;               /* optional footnote (sources), owned */
};

void calc_table_init(struct calc_table *t, const char *name, const char *title);
/* Add a column; returns its index. */
int calc_table_col(struct calc_table *t, const char *name, const char *unit, enum calc_disp disp,
                   int prec);
/* Start a new row; returns its index.  Then set cells. */
int calc_table_row(struct calc_table *t);
void calc_table_num(struct calc_table *t, int row, int col, double v);
void calc_table_str(struct calc_table *t, int row, int col, const char *s);
void calc_table_note(struct calc_table *t, const char *note);
void calc_table_free(struct calc_table *t);
/* Show one cell as the column's display unit wants ("12.34"); no unit suffix. */
void calc_table_cell_text(const struct calc_table *t, int row, int col, char *buf, size_t n);
/* Header text with its display unit, e.g. "weights (GB)". */
void calc_table_header_text(const struct calc_table *t, int col, char *buf, size_t n);
/* Display unit label of a column ("GB", "%", "ms", "" ...). */
const char *calc_disp_unit(enum calc_disp disp);

enum calc_format { CALC_F_TEXT, CALC_F_CSV, CALC_F_JSON, CALC_F_MD, CALC_F_TSV };
int calc_format_parse(const char *s, enum calc_format *out);
/* Write a table in one format.  CSV follows RFC 4180; TSV writes SI values (for
 * gnuplot); JSON writes SI values (bytes as integers) keyed by column name. */
void calc_table_write(const struct calc_table *t, enum calc_format f, FILE *out);

/* JSON (jansson's json_t; <jansson.h> declares it).  How every JSON of trainplan is
 * dumped: two-space indent, keys in the order they were set, 10 significant digits. */
#define CALC_JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))
struct json_t;
/* The JSON key of a column or name: lower-case snake_case without the parenthesised
 * parts ("memory per GPU" -> "memory_per_gpu", "run (days)" -> "run", "GPUs/node" ->
 * "gpus_per_node", "fp8-gpu" -> "fp8_gpu"); "value" when nothing is left. */
void calc_json_key(const char *name, char *buf, size_t n);
/* The unit a value stored in 'unit' is written in, in SI base units: "days" becomes
 * "s" with *scale 86400; "" (a count or a ratio) becomes "1"; the rest are kept,
 * *scale 1. */
const char *calc_json_unit(const char *unit, double *scale);
/* The key 'key' (a calc_json_key or a catalog name) of a value stored in 'unit', as
 * JSON writes it into buf (n bytes): a value in days is written in seconds
 * (calc_json_unit), so its key says time, not days: the last word "days" (between
 * start, '.' or '_' and end, '.' or '_') becomes "time" ("run.days" -> "run.time",
 * "run.effective_days" -> "run.effective_time", the catalog's quantities in seconds;
 * "days" -> "time"), and a key without that word gets "_time" ("run" -> "run_time").
 * Other keys are copied.  Returns buf. */
char *calc_json_time_key(const char *key, const char *unit, char *buf, size_t n);
/* A number in SI unit 'unit': an integer when exact below 2^53 (counts), a real
 * otherwise, null when NaN or infinite; bytes ("B") rounded to an integer.  A new
 * reference. */
struct json_t *calc_json_number(double v, const char *unit);
/* The rows of 't' as a JSON array of objects keyed by calc_json_key of the column
 * names, values in SI base units; a yes/no text column becomes true/false (null when
 * empty).  Adds "key": "unit" to the object 'units' (when not NULL) for each numeric
 * column not named there yet.  A new reference. */
struct json_t *calc_table_json(const struct calc_table *t, struct json_t *units);

/* ======================================================================== */
/* Catalog: every output by a stable dotted name                             */
/* ======================================================================== */

/*
 * An evaluation context: one plan plus caches of what has been computed for it, so
 * that evaluating many quantities of one plan computes each engine once and each
 * quantity once.  Module caches live in the slots (filled by calc_ctx_memory,
 * calc_ctx_step, calc_ctx_search ...); calc_catalog_get keeps every quantity's value,
 * or its failure and diagnostics, by the quantity's position in the catalog.  A context
 * belongs to one thread at a time; contexts of different plans are independent.
 */
enum calc_slot {
	CALC_SLOT_MEMORY,
	CALC_SLOT_PIPELINE,
	CALC_SLOT_COMM,
	CALC_SLOT_STEP,
	CALC_SLOT_SEARCH,
	CALC_SLOT_SEARCH_MEMO, /* of a root context: the memory sides of its and its variants'
	                          searches (calc_search_memo) */
	CALC_SLOT_NETWORK,     /* report_catalog.c: step times of the plan and its neighbours by
	                          inter-node bandwidth */
	CALC_SLOT_PREFETCH,    /* catalog_search.c: the search queued by calc_ctx_search_prefetch */
	CALC_SLOT_SEARCH_FW,   /* catalog_search.c: the search of what the plan's stack's framework runs */
	CALC_SLOT_N
};
struct calc_ctx_value;

/*
 * Threads (pool.c; docs/architecture.md §3).  A job is work queued for a background
 * thread whose result a caller asks for later; its result does not depend on the thread
 * that runs it.  The pool is one per process: calc_pool_start starts calc_threads_get() - 1
 * threads, calc_pool_stop joins them and drops the jobs no thread has started.
 */
struct calc_job {
	void (*run)(struct calc_job *j); /* computes the job's result (any thread) */
	int state;                       /* 0 queued, 1 running, 2 done, 3 dropped (never run) */
	double cost;                     /* estimated work [us]: the order the threads take jobs in
	                                  * (largest first), never the result; 0 unknown */
};
/* The threads the library may use: searches, the pool (n < 1 is 1).  Before any call,
 * calc_threads_get() is 2, the searches' default. */
void calc_threads_set(int n);
int calc_threads_get(void);
/* The processors online, at most 2 (the default of trainplan-report --threads). */
int calc_threads_detect(void);
/* Start calc_threads_get() - 1 background threads (none when 1), held until calc_pool_go:
 * the caller queues its jobs first.  Returns how many threads run. */
int calc_pool_start(void);
/* Let the threads take jobs. */
void calc_pool_go(void);
/* 1 while background threads run (jobs queued now will run on them or in
 * calc_pool_wait). */
int calc_pool_active(void);
/* Queue job j (state 0) by its cost: the threads take the largest queued job first and,
 * among jobs of the same cost, the one queued last.  Call only while calc_pool_active(). */
void calc_pool_submit(struct calc_job *j);
/* Return when j has run: runs it on the calling thread when no thread has started it,
 * else runs the largest queued jobs while the thread that has finishes it.  A dropped
 * job (state 3) returns at once. */
void calc_pool_wait(struct calc_job *j);
/* Move queued job j (nothing when it is not queued) to the back of the queue, where the
 * pool's threads take their next job. */
void calc_pool_promote(const struct calc_job *j);
/* 1 when j has run (or was dropped): calc_pool_wait(j) would return at once.  Any
 * thread; it only reads. */
int calc_pool_done(const struct calc_job *j);
/* Join the threads; jobs still queued are dropped (state 3).  Call before freeing what
 * queued jobs refer to. */
void calc_pool_stop(void);
/* Queue the validation rows (validate.c; they do not depend on any plan) on the pool,
 * when it runs, as CALC_VALIDATE_JOBS jobs of consecutive rows that the pool's threads
 * share; the validation quantities and tables wait for all of them.  Writes the jobs
 * (queued now or before) to jobs[0 .. n) when jobs is not NULL and returns n, or 0 when
 * none is queued (no pool, or the rows are computed already). */
#define CALC_VALIDATE_JOBS 4
int calc_validate_prefetch(const struct calc_job **jobs);
struct calc_ctx_variant;
struct calc_ctx {
	struct calc_plan plan;
	void *slot[CALC_SLOT_N];              /* module caches, owned */
	void (*slot_free[CALC_SLOT_N])(void *);
	struct calc_ctx_value *val;           /* value cache, one per quantity position; owned */
	int nval;                             /* entries of val (0 until the first calc_catalog_get) */
	struct calc_ctx_variant *variants;    /* variant contexts by their assignments; owned */
	int nvariants, capvariants;
	struct calc_ctx *root;                /* the context this one is a variant of (through
	                                         calc_ctx_variant), NULL for none: caches that
	                                         variants share live there */
};
/*
 * The context of 'base' changed by the 'n' assignments "KEY=VALUE" (calc_plan_variant,
 * validated once), built on first use and kept in 'base' so that every directive with
 * the same assignments shares one context and its caches (a chapter that asks for five
 * numbers of one scenario computes the scenario once).  'origin' names the first
 * caller in messages.  Returns the context (owned by 'base', freed with it), or NULL
 * after diagnostics in 'd' when the variant is not a valid plan (not cached).
 */
struct calc_ctx *calc_ctx_variant(struct calc_ctx *base, const char *const *kvs, int n, const char *origin,
                                  struct calc_diag *d);
/* Start a context for a copy of 'plan'; nothing is computed yet. */
void calc_ctx_init(struct calc_ctx *c, const struct calc_plan *plan);
/* Release every cache; the context may be initialised again. */
void calc_ctx_free(struct calc_ctx *c);
/* Queue on the pool (when it runs) the search that calc_ctx_search will run first for a
 * context of 'plan' -- the root context 'root' or one of its variants (calc_ctx_variant);
 * such a context's search quantities then wait for it instead of searching.  Results
 * are the same as without.  'root' must outlive the pool's jobs (calc_pool_stop).
 * Returns the job that search waits for (queued now or before; calc_pool_done tells
 * when it has run), or NULL when none is queued (no pool, or the root's search is
 * there already). */
const struct calc_job *calc_ctx_search_prefetch(struct calc_ctx *root, const struct calc_plan *plan);
/* calc_ctx_search_prefetch for a directive that reads the search's counts ('counts' 1:
 * search.ranked, search.evaluated ...) or only its top (0: search.best.*, search.found
 * ...): a variant's first search is then one that does not count (opts.no_counts) where
 * no memo of its memory side is there to read.  A later call with counts = 1 (or
 * calc_search_prefetch_counts) raises a queued job that has not started; a context whose
 * result holds no counts searches again when one is asked. */
const struct calc_job *calc_ctx_search_prefetch_for(struct calc_ctx *root, const struct calc_plan *plan, int counts);
/* Job j of calc_ctx_search_prefetch_for is to count, as with counts = 1 (where it has not
 * started). */
void calc_search_prefetch_counts(const struct calc_job *j);
/* 1 when the value of quantity 'name' reads a search's counts (every name but those of the
 * top K: search.best.*, search.safe.*, search.pick.*, search.found, search.memory_margin). */
int calc_search_name_counts(const char *name);
/* Queue on the pool (when it runs) the bandwidth search behind quantity or table 'name'
 * of context c (report_catalog.c: network.crossover_bw, network.bf16_reduce_bw,
 * network.dp_overlap_bw, the table network-sweep), which fills c's cache of step times;
 * evaluating 'name' in c then waits for the job and reads the cache, with the numbers
 * it computes without.  c must outlive the pool's jobs (calc_pool_stop) and be
 * evaluated on this thread only.  Returns the job (queued now or before), or NULL for
 * another name or without a pool. */
const struct calc_job *calc_network_prefetch(struct calc_ctx *c, const char *name);
/* The memory result of the context's plan, computed once. NULL after a diagnostic. */
const struct calc_memory *calc_ctx_memory(struct calc_ctx *c, struct calc_diag *d);

struct calc_value {
	double num;      /* SI value */
	const char *str; /* non-NULL for a text value (static or owned by the ctx) */
};

struct calc_quantity {
	const char *name;  /* "memory.total" */
	const char *unit;  /* SI unit: "B", "s", "1", "FLOP/s", "GPUs", "" for text */
	const char *desc;  /* one line */
	int (*get)(struct calc_ctx *c, struct calc_value *out, struct calc_diag *d);
};

/* Named arguments of a table or dataset ("recipes=seed,megatron"). */
struct calc_args {
	int n;
	char key[8][32];
	char val[8][256];
};
const char *calc_args_get(const struct calc_args *a, const char *key);

struct calc_tabledef {
	const char *name;   /* "memory-breakdown" */
	const char *desc;
	const char *params; /* accepted arguments in words, "" if none */
	int (*build)(struct calc_ctx *c, const struct calc_args *a, struct calc_table *out,
	             struct calc_diag *d);
};

/* Each module exports its entries, terminated by an entry whose name is NULL.
 * catalog.c joins them; see catalog.c for the list of modules. */
extern const struct calc_quantity calc_q_memory[], calc_q_pipeline[], calc_q_comm[],
	calc_q_step[], calc_q_search[];
extern const struct calc_tabledef calc_t_memory[], calc_t_pipeline[], calc_t_comm[],
	calc_t_step[], calc_t_search[];
extern const struct calc_tabledef calc_d_memory[], calc_d_pipeline[], calc_d_comm[],
	calc_d_step[], calc_d_search[];

/*
 * Name lookup: a binary search over an index sorted by name that the first lookup builds
 * (once per process, thread-safe).  Where two modules give one name, the first module of
 * catalog.c's list wins.  NULL when there is no such entry.  The _at forms walk the
 * entries by position (0, 1, ... until NULL), in module order.
 */
const struct calc_quantity *calc_catalog_quantity(const char *name);
const struct calc_quantity *calc_catalog_quantity_at(int i);
const struct calc_tabledef *calc_catalog_table(const char *name);
const struct calc_tabledef *calc_catalog_table_at(int i);
const struct calc_tabledef *calc_catalog_dataset(const char *name);
const struct calc_tabledef *calc_catalog_dataset_at(int i);
/* Evaluate one quantity by name (unknown names are an error listing close names).  The
 * first use in a context computes it; later uses return the cached value, or fail again
 * with the same diagnostics.  Returns 0, or -1 after a diagnostic. */
int calc_catalog_get(struct calc_ctx *c, const char *name, struct calc_value *out,
                     struct calc_diag *d);
/* Build one table or dataset by name with arguments. */
int calc_catalog_build(struct calc_ctx *c, const char *name, int dataset, const struct calc_args *a,
                       struct calc_table *out, struct calc_diag *d);

#endif
