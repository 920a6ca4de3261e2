/*
 * plan.c -- plan files (INI through inih), overrides, presets (a Hugging Face
 * config.json is read by hfconfig.c) and validation with precise diagnostics.
 *
 * Loading is two-phase so that the order of lines does not matter: every
 * "section.key = value" of the embedded default plan, then of the plan file, then
 * of each --set is collected with its origin; presets (model.preset,
 * model.hf_config, cluster.preset, cluster.gpu) are applied first, in that order of
 * origin, then every other key, last one winning, except a key of the default plan
 * that a preset the user wrote also sets (the preset's value stands; a key the user
 * wrote wins over the preset).  Then values are derived
 * (head_dim, dp, the even layer split, usable memory) and the plan is validated.
 */
#include "bounds.h"
#include "diag.h"
#include "units.h"
#include "model.h"
#include "presets.h"
#include "recipe.h"
#include "stacks.h"
#include "plan.h"
#include "comm.h"
#include "gemm_table.h"
#include "files.h"
#include "pipeline.h"
#include "suggest.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "default_plan.h"

#define DEFAULT_FILE "plans/default.ini"

/* ======================================================================== */
/* The key table                                                             */
/* ======================================================================== */

enum ktype { K_INT, K_NUM, K_BOOL, K_ENUM, K_SCHED, K_TEXT, K_LIST, K_PRESET, K_MODULES };
/* K_SCHED: a row name of the schedule table (schedules.c), stored as its id. */

struct key {
	const char *section;
	const char *name;
	enum ktype type;
	enum calc_unit unit;   /* K_NUM */
	size_t off;            /* offset in struct calc_plan */
	double min, max;       /* allowed range (K_INT, K_NUM) */
	const char *const *enums; /* K_ENUM values, NULL-terminated, index = stored int */
	const char *typename;
	const char *meaning;
};

static const char *const mlp_names[] = {"gelu", "swiglu", NULL};
static const char *const norm_names[] = {"layernorm", "rmsnorm", NULL};
static const char *const rc_names[] = {"none", "selective", "full", "modules", "deepseek-v3", "op-sac", NULL};
/* in the order of the bits of enum calc_rc_module (Megatron-Core recompute_modules) */
static const char *const rcm_names[] = {"core_attn", "moe_act", "layernorm", "mla_up_proj", "mlp", "moe",
                                        "shared_experts", NULL};
/* in the order of enum calc_rc_method; 'none' = unset (uniform with N = 1) */
static const char *const rc_method_names[] = {"none", "uniform", "block", NULL};
static const char *const hfu_names[] = {"executed", "kor22-eq8", NULL};
/* in the order of enum calc_split (calc_split_name in model.c names the same) */
static const char *const grad_reduce_names[] = {"recipe", "bf16", "fp32", NULL};
/* the loss's logits: calc_cross_entropy (plan.h), memory.c calc_memory_terms_act */
static const char *const xent_names[] = {"fused", "torch", NULL};
/* the gradients' dtype: calc_recipe_grads (recipe.c), in the order of calc_plan.main_grads */
static const char *const main_grads_names[] = {"recipe", "bf16", "fp32", NULL};
static const char *const dp_algo_names[] = {"hierarchical", "flat", NULL};
static const char *const gemm_basis_names[] = {"peak", "achievable", NULL};
/* efficiency.gemm_shape: calc_plan.gemm_shape, step.c gemm_time */
static const char *const gemm_shape_names[] = {"none", "table", "auto", NULL};
static const char *const split_names[] = {"remainder-first", "even", "llama3", NULL};
static const char *const offload_style_names[] = {"megatron", "zero-offload", NULL}; /* enum calc_offload_style */
static const char *const offload_device_names[] = {"cpu", "nvme", NULL}; /* training.offload_device */
static const char *const offload_param_names[] = {"none", "cpu", "nvme", NULL}; /* training.offload_param */
/* in the order of the bits of enum calc_off_module (Megatron-Core offload_modules,
 * transformer_config.py at d98e8a6; fused_group_mlp and gdp_qkv are not modelled) */
static const char *const ofm_names[] = {"attn_norm", "qkv_linear", "core_attn", "attn_proj", "mlp_norm",
                                        "expert_fc1", "moe_act", NULL};
/* the saved input of a column-parallel linear under SP: calc_plan.sp_saved_input, memory.c act_layer */
static const char *const sp_saved_names[] = {"sharded", "gathered", NULL};
/* the pipeline runtime's buffers: calc_plan.pp_runtime, memory.c calc_memory_stage_parts */
static const char *const pp_runtime_names[] = {"megatron", "torch", NULL};
/* the unsharded gradients' lifetime: calc_plan.grad_buffer, memory.c calc_memory_stage_of */
static const char *const grad_buffer_names[] = {"persistent", "per-chunk", NULL};
/* parallel.cp_comm: enum calc_cp_comm (plan.h), comm.c, step.c layer_comm */
static const char *const cp_comm_names[] = {"allgather", "p2p", "a2a", "a2a+p2p", NULL};
/* moe.dispatcher: enum calc_moe_dispatcher (plan.h), comm.c comm_ep, step.c layer_compute */
static const char *const dispatcher_names[] = {"alltoall", "allgather", "deepep", "hybridep", NULL};
/* training.cuda_graphs: enum calc_cuda_graphs (plan.h), step.c moe_host */
static const char *const cuda_graphs_names[] = {"none", "partial", "full", NULL};
/* moe.host_overlap: calc_plan.moe_host_overlap, step.c moe_host */
static const char *const host_overlap_names[] = {"gpu", "none", NULL};

/* plan.framework: calc_plan.framework; after 'stack' and 'any' the frameworks of
 * frameworks.c in their table's order (tests/calc/search.c test_plan_framework checks it) */
static const char *const pick_band_names[] = {"absolute", "comparison", "fixed", NULL}; /* enum calc_pick_band */
static const char *const framework_names[] = {"stack", "any", "megatron", "nemo", "torchtitan", "deepspeed", NULL};
#define P(f) offsetof(struct calc_plan, f)
#define BIG 1e30

static const struct key keys[] = {
	{"plan", "title", K_TEXT, 0, P(title), 0, 0, NULL, "text", "report title"},
	{"plan", "date", K_TEXT, 0, P(date), 0, 0, NULL, "text", "report date YYYY-MM-DD (default: SOURCE_DATE_EPOCH or today)"},
	{"plan", "memory_margin", K_NUM, CALC_U_FRACTION, P(memory_margin), 0, 0.9, NULL, "fraction", "share of usable memory the recommended split leaves free"},
	{"plan", "pick_band", K_ENUM, 0, P(pick_band), 0, 0, pick_band_names, "enum", "band within which the recommendation takes the simplest split of the fastest (docs/references.md 9.25): absolute (validation.band, 90% of the held-out |error| of the plan's stack and GPU generation), comparison (validation.compare_band, 90% of the error of the ratio of two held-out rows of one source and model: the per-source bias removed), fixed (plan.pick_band_fixed)"},
	{"plan", "pick_band_fixed", K_NUM, CALC_U_FRACTION, P(pick_band_fixed), 0, 1, NULL, "fraction", "the band with plan.pick_band = fixed, a tolerance of the user's own (no source; 0: the fastest that leaves the memory margin)"},
	{"plan", "published_gpu_hours", K_NUM, CALC_U_NONE, P(published_gpu_hours), 0, 1e12, NULL, "number", "GPU-hours of the published run this plan reproduces, compared in the report (0 = none; needs plan.published_source)"},
	{"plan", "published_layout", K_BOOL, 0, P(published_layout), 0, 1, NULL, "bool", "the plan's split is the one the published run of plan.published_source ran: the report shows the planner's pick beside it (default no)"},
	{"plan", "published_source", K_TEXT, 0, P(published_source), 0, 0, NULL, "text", "where plan.published_gpu_hours is published (paper and table, or model card)"},
	{"plan", "currency", K_TEXT, 0, P(currency), 0, 0, NULL, "text", "ISO 4217 code of the currency of cluster.gpu_hour_cost and run.energy_price, shown beside costs (e.g. USD; default empty: the prices' own unit, not named)"},
	{"plan", "framework", K_ENUM, 0, P(framework), 0, 0, framework_names, "enum", "framework whose pipeline schedules the planner searches (calc/frameworks.c; Megatron-Core: 1F1B and interleaved): stack (the framework of efficiency.stack; none for fsdp1), any (every schedule the step model has), megatron, nemo, torchtitan, deepspeed"},

	{"model", "preset", K_PRESET, 0, 0, 0, 0, NULL, "preset", "model preset (trainplan presets models)"},
	{"model", "hf_config", K_PRESET, 0, 0, 0, 0, NULL, "path", "Hugging Face config.json to read the model from"},
	{"model", "layers", K_INT, 0, P(model.layers), 1, 100000, NULL, "int", "transformer layers L"},
	{"model", "hidden", K_INT, 0, P(model.hidden), 1, 1e7, NULL, "int", "model width h"},
	{"model", "heads", K_INT, 0, P(model.heads), 1, 100000, NULL, "int", "attention heads a"},
	{"model", "kv_heads", K_INT, 0, P(model.kv_heads), 1, 100000, NULL, "int", "key/value heads (GQA; = heads for MHA)"},
	{"model", "head_dim", K_INT, 0, P(model.head_dim), 1, 100000, NULL, "int", "per-head width (default hidden / heads)"},
	{"model", "ffn_hidden", K_INT, 0, P(model.ffn_hidden), 1, 1e8, NULL, "int", "MLP inner width f"},
	{"model", "vocab", K_INT, 0, P(model.vocab), 1, 1e8, NULL, "int", "vocabulary size V"},
	{"model", "max_pos", K_INT, 0, P(model.max_pos), 0, 1e8, NULL, "int", "learned position embeddings (0 = none, e.g. RoPE)"},
	{"model", "mlp", K_ENUM, 0, P(model.mlp), 0, 0, mlp_names, "enum", "MLP type"},
	{"model", "norm", K_ENUM, 0, P(model.norm), 0, 0, norm_names, "enum", "normalisation"},
	{"model", "tied_embeddings", K_BOOL, 0, P(model.tied_embeddings), 0, 1, NULL, "bool", "LM head shares the input embedding"},
	{"model", "bias", K_BOOL, 0, P(model.bias), 0, 1, NULL, "bool", "linear layers carry biases"},
	{"model", "dropout", K_BOOL, 0, P(model.dropout), 0, 1, NULL, "bool", "dropout layers present (their masks are stored)"},
	{"model", "experts", K_INT, 0, P(model.moe.experts), 0, 65536, NULL, "int", "routed experts per MoE layer (0 = dense model)"},
	{"model", "top_k", K_INT, 0, P(model.moe.top_k), 0, 65536, NULL, "int", "routed experts per token (1 .. model.experts)"},
	{"model", "expert_ffn", K_INT, 0, P(model.moe.expert_ffn), 0, 1e8, NULL, "int", "inner width of one routed expert"},
	{"model", "shared_experts", K_INT, 0, P(model.moe.shared), 0, 64, NULL, "int", "shared experts every token goes through"},
	{"model", "shared_ffn", K_INT, 0, P(model.moe.shared_ffn), 0, 1e8, NULL, "int", "inner width of one shared expert (0 = model.expert_ffn)"},
	{"model", "first_dense", K_INT, 0, P(model.moe.first_dense), 0, 100000, NULL, "int", "leading dense layers before the MoE layers"},
	{"model", "moe_every", K_INT, 0, P(model.moe.every), 0, 100000, NULL, "int", "after them, layer i is MoE when i + 1 is a multiple of this (0, 1 = every layer)"},
	{"model", "shared_gate", K_BOOL, 0, P(model.moe.shared_gate), 0, 1, NULL, "bool", "a sigmoid gate scales the shared experts (Qwen2-MoE)"},
	{"model", "router_bias", K_BOOL, 0, P(model.moe.router_bias), 0, 1, NULL, "bool", "the router carries a per-expert bias (DeepSeek-V3)"},
	{"model", "capacity_factor", K_NUM, CALC_U_NONE, P(model.moe.capacity), 0, 64, NULL, "number", "expert capacity as a multiple of k T / E (0 = dropless)"},
	{"model", "moe_imbalance", K_NUM, CALC_U_NONE, P(model.moe.imbalance), 1, 64, NULL, "number", "dropless: tokens of the busiest expert / the mean"},
	{"model", "moe_node_limit", K_INT, 0, P(model.moe.node_limit), 0, 100000, NULL, "int", "nodes a token is dispatched to at most (0 = no limit)"},
	{"model", "q_lora_rank", K_INT, 0, P(model.mla.q_lora_rank), 0, 1e6, NULL, "int", "MLA query latent width (0 = queries from h directly)"},
	{"model", "kv_lora_rank", K_INT, 0, P(model.mla.kv_lora_rank), 0, 1e6, NULL, "int", "MLA key/value latent width (0 = no MLA)"},
	{"model", "qk_rope_dim", K_INT, 0, P(model.mla.qk_rope_dim), 0, 100000, NULL, "int", "MLA RoPE part of each query and of the shared key"},
	{"model", "qk_nope_dim", K_INT, 0, P(model.mla.qk_nope_dim), 0, 100000, NULL, "int", "MLA non-RoPE part of each head's query and key"},
	{"model", "v_head_dim", K_INT, 0, P(model.mla.v_head_dim), 0, 100000, NULL, "int", "MLA value width per head"},
	{"model", "sliding_window", K_INT, 0, P(model.window), 0, 1e8, NULL, "int",
	 "sliding-window attention: a windowed layer attends to the last this many tokens (0 = none; costed with FlashAttention only)"},
	{"model", "window_full_every", K_INT, 0, P(model.window_full_every), 0, 100000, NULL, "int",
	 "with sliding_window: layer i attends in full when i + 1 is a multiple of this (2 = alternate: Gemma 2, GPT-OSS; 6: Gemma 3; 0 = all windowed: Mistral)"},
	{"model", "mtp_depth", K_INT, 0, P(model.mtp_depth), 0, 16, NULL, "int", "multi-token prediction modules (DeepSeek-V3; 0 = none)"},
	{"model", "hybrid_pattern", K_TEXT, 0, P(model.hybrid), 0, 0, NULL, "text",
	 "layers of a hybrid model, one character each: M Mamba-2, S Mamba-1 (this project's letter, docs/references.md §5.17), G gated delta-net, * attention, - MLP, E MoE (Megatron-Core --hybrid-override-pattern; its length is model.layers; empty = not hybrid)"},
	{"model", "mamba_heads", K_INT, 0, P(model.mamba.heads), 0, 100000, NULL, "int", "Mamba-2 SSM heads H (mamba_num_heads; 0 = no Mamba layers)"},
	{"model", "mamba_head_dim", K_INT, 0, P(model.mamba.head_dim), 0, 100000, NULL, "int", "width P of each Mamba-2 head (mamba_head_dim)"},
	{"model", "mamba_state", K_INT, 0, P(model.mamba.state), 0, 100000, NULL, "int", "Mamba-2 state size N (mamba_state_dim, ssm_state_size)"},
	{"model", "mamba_groups", K_INT, 0, P(model.mamba.groups), 0, 100000, NULL, "int", "Mamba-2 groups G sharing B and C (mamba_num_groups, n_groups)"},
	{"model", "mamba_conv", K_INT, 0, P(model.mamba.conv), 0, 1024, NULL, "int", "kernel width of the Mamba-2 causal conv1d (0 = Megatron-Core's default 4)"},
	{"model", "mamba_chunk", K_INT, 0, P(model.mamba.chunk), 0, 1e6, NULL, "int", "chunk length Q of the Mamba-2 SSD scan [tokens] (0 = Megatron-Core's default 128)"},
	{"model", "mamba1_inner", K_INT, 0, P(model.mamba1.inner), 0, 1e7, NULL, "int", "Mamba-1 inner width d_inner = expand x hidden (mamba_expand x hidden_size; 0 = no S layers)"},
	{"model", "mamba1_state", K_INT, 0, P(model.mamba1.state), 0, 100000, NULL, "int", "Mamba-1 state size N of each channel (mamba_d_state, d_state)"},
	{"model", "mamba1_conv", K_INT, 0, P(model.mamba1.conv), 0, 1024, NULL, "int", "kernel width of the Mamba-1 causal conv1d (mamba_d_conv, d_conv; mamba_simple.py's default 4)"},
	{"model", "mamba1_dt_rank", K_INT, 0, P(model.mamba1.dt_rank), 0, 1e7, NULL, "int", "Mamba-1 step-size projection rank R (mamba_dt_rank, dt_rank)"},
	{"model", "mamba1_inner_norms", K_BOOL, 0, P(model.mamba1.inner_norms), 0, 1, NULL, "bool", "Mamba-1 with RMSNorms on dt, B and C (Jamba's dt_layernorm, b_layernorm, c_layernorm)"},
	{"model", "gdn_key_heads", K_INT, 0, P(model.gdn.key_heads), 0, 100000, NULL, "int", "gated delta-net query/key heads H_k (linear_num_key_heads; 0 = no G layers)"},
	{"model", "gdn_value_heads", K_INT, 0, P(model.gdn.value_heads), 0, 100000, NULL, "int", "gated delta-net value heads H_v, a multiple of gdn_key_heads (linear_num_value_heads)"},
	{"model", "gdn_key_dim", K_INT, 0, P(model.gdn.key_dim), 0, 100000, NULL, "int", "width d_k of each gated delta-net query/key head (linear_key_head_dim)"},
	{"model", "gdn_value_dim", K_INT, 0, P(model.gdn.value_dim), 0, 100000, NULL, "int", "width d_v of each gated delta-net value head (linear_value_head_dim)"},
	{"model", "gdn_conv", K_INT, 0, P(model.gdn.conv), 0, 1024, NULL, "int", "kernel width of the gated delta-net causal conv1d (linear_conv_kernel_dim; 0 = 4, Qwen3-Next's)"},
	{"model", "gdn_chunk", K_INT, 0, P(model.gdn.chunk), 0, 1e6, NULL, "int", "chunk length C of the chunked delta rule [tokens] (0 = 64, FLA's chunk_gated_delta_rule)"},
	{"model", "attn_gate", K_BOOL, 0, P(model.attn_gate), 0, 1, NULL, "bool", "gated attention: a sigmoid output gate per head, its h x a*head_dim weight fused into the query projection (Qwen3-Next attn_output_gate)"},

	{"cluster", "preset", K_PRESET, 0, 0, 0, 0, NULL, "preset", "cluster preset (trainplan presets clusters)"},
	{"cluster", "gpu", K_PRESET, 0, 0, 0, 0, NULL, "preset", "GPU preset (trainplan presets gpus)"},
	{"cluster", "nodes", K_INT, 0, P(nodes), 1, 1e6, NULL, "int", "nodes"},
	{"cluster", "gpus_per_node", K_INT, 0, P(gpus_per_node), 1, 1024, NULL, "int", "GPUs per node"},
	{"cluster", "gpus", K_INT, 0, P(gpus_total), 1, 1e8, NULL, "int", "GPUs of the job in all, instead of cluster.nodes: nodes = gpus / gpus_per_node (a multiple of gpus_per_node, or fewer GPUs than one node)"},
	{"cluster", "gpu_memory", K_NUM, CALC_U_BYTES, P(gpu_memory), 1e6, 1e15, NULL, "bytes", "usable memory per GPU (default: as CUDA reports it)"},
	/* the GPU's own figures, each overriding cluster.gpu's: an unlisted part is these keys */
	{"cluster", "gpu_name", K_TEXT, 0, P(gpu.name), 0, 0, NULL, "text", "name of the GPU in tables and titles (default: the preset's)"},
	{"cluster", "gpu_memory_nominal", K_NUM, CALC_U_BYTES, P(gpu.memory_nominal), 1e6, 1e15, NULL, "bytes", "memory per GPU as marketed (decimal GB; default: the preset's)"},
	{"cluster", "gpu_hbm_bw", K_NUM, CALC_U_BYTES_S, P(gpu.hbm_bw), 1e9, 1e15, NULL, "bytes/s", "HBM bandwidth per GPU (default: the preset's)"},
	{"cluster", "gpu_bf16_flops", K_NUM, CALC_U_FLOPS, P(gpu.bf16_flops), 1e12, 1e18, NULL, "FLOP/s", "dense BF16 tensor peak, no sparsity (default: the preset's)"},
	{"cluster", "gpu_fp8_flops", K_NUM, CALC_U_FLOPS, P(gpu.fp8_flops), 0, 1e18, NULL, "FLOP/s", "dense FP8 tensor peak, no sparsity (0 = no FP8; default: the preset's)"},
	{"cluster", "gpu_fp4_flops", K_NUM, CALC_U_FLOPS, P(gpu.fp4_flops), 0, 1e18, NULL, "FLOP/s", "dense FP4 tensor peak, no sparsity (0 = no FP4; default: the preset's)"},
	{"cluster", "gpu_sms", K_INT, 0, P(gpu.sms), 0, 100000, NULL, "int", "streaming multiprocessors for GEMM wave quantization (0 = ignore; default: the preset's)"},
	{"cluster", "gpu_tdp", K_NUM, CALC_U_NONE, P(gpu.tdp), 1, 1e5, NULL, "number", "board power of one GPU [W] (default: the preset's)"},
	{"cluster", "gpu_pcie_bw", K_NUM, CALC_U_BYTES_S, P(gpu.pcie_bw), 0, 1e15, NULL, "bytes/s", "host link per GPU per direction: PCIe x16, NVLink-C2C on GB200 (0 = not known; default: the preset's)"},
	{"cluster", "gpu_matmul_max", K_NUM, CALC_U_FLOPS, P(gpu.matmul_max), 0, 1e18, NULL, "FLOP/s", "measured maximum achievable dense BF16 matmul rate (0 = not measured; default: the preset's)"},
	{"cluster", "gpu_matmul_max_fp8", K_NUM, CALC_U_FLOPS, P(gpu.matmul_max_fp8), 0, 1e18, NULL, "FLOP/s", "measured maximum achievable FP8 matmul rate (0 = not measured; default: the preset's)"},
	{"cluster", "intra_node_bw", K_NUM, CALC_U_BYTES_S, P(intra_node_bw), 1e6, 1e15, NULL, "bytes/s", "NVLink bandwidth per GPU per direction"},
	{"cluster", "intra_node_busbw", K_NUM, CALC_U_BYTES_S, P(intra_node_busbw), 1e6, 1e15, NULL, "bytes/s", "NCCL bus bandwidth achieved inside a node"},
	{"cluster", "inter_node_bw", K_NUM, CALC_U_BYTES_S, P(inter_node_bw), 1e6, 1e15, NULL, "bytes/s", "network bandwidth per GPU per direction"},
	{"cluster", "intra_node_latency", K_NUM, CALC_U_SECONDS, P(intra_node_latency), 0, 1, NULL, "seconds", "latency of one NVLink transfer"},
	{"cluster", "inter_node_latency", K_NUM, CALC_U_SECONDS, P(inter_node_latency), 0, 1, NULL, "seconds", "latency of one network transfer"},
	{"cluster", "inter_node_eff", K_NUM, CALC_U_FRACTION, P(inter_node_eff), 0.01, 1, NULL, "fraction", "achieved share of the network bandwidth in collectives"},
	{"cluster", "nodes_per_leaf", K_INT, 0, P(nodes_per_leaf), 0, 1e6, NULL, "int", "nodes under one leaf switch group of a rail-optimized fat tree (0 = one leaf for all nodes)"},
	{"cluster", "oversubscription", K_NUM, CALC_U_NONE, P(oversubscription), 1, 64, NULL, "number", "leaf-to-spine oversubscription: a step across leaves gets the network bandwidth / this"},
	{"cluster", "spine_latency", K_NUM, CALC_U_SECONDS, P(spine_latency), 0, 1, NULL, "seconds", "latency of one network step across the spine (0 = inter_node_latency)"},
	{"cluster", "gpu_hour_cost", K_NUM, CALC_U_MONEY, P(gpu_hour_cost), 0, 1e6, NULL, "number", "price of one GPU-hour (in plan.currency)"},

	{"training", "seq_len", K_INT, 0, P(seq_len), 1, 1e8, NULL, "int", "sequence length s [tokens]"},
	{"training", "global_batch", K_INT, 0, P(global_batch), 1, 1e9, NULL, "int", "global batch B [sequences per step]"},
	{"training", "micro_batch", K_INT, 0, P(micro_batch), 1, 1e6, NULL, "int", "micro-batch b [sequences]"},
	{"training", "recipe", K_PRESET, 0, 0, 0, 0, NULL, "preset", "bytes-per-parameter recipe (trainplan presets recipes)"},
	{"training", "tokens", K_NUM, CALC_U_NONE, P(tokens), 1, 1e18, NULL, "number", "token budget of the run"},
	{"training", "flash_attention", K_BOOL, 0, P(flash_attention), 0, 1, NULL, "bool", "FlashAttention (no s^2 activations stored)"},
	{"training", "main_grads", K_ENUM, 0, P(main_grads), 0, 0, main_grads_names, "enum", "dtype of the gradients held (recipe: its own; bf16 as NeMo's grad_sync_dtype, fp32 as Megatron's main grads)"},
	{"training", "cross_entropy", K_ENUM, 0, P(cross_entropy), 0, 0, xent_names, "enum", "loss kernel: fused (Megatron, 6 B per logit) or torch (F.cross_entropy on an FP32 upcast, 12 B; 16 B with loss_parallel under TP)"},
	{"training", "compile", K_BOOL, 0, P(compile), 0, 1, NULL, "bool",
	 "torch.compile of each transformer block (torchtitan's training.compile): under parallel.recompute = op-sac "
	 "the compiled block keeps only the saved outputs its backward reads, not the MLP's output nor its "
	 "reduce-scatter's (default no: eager, which keeps every output of the save list); other compile effects on "
	 "memory are not modelled, and the time is the stack's fitted efficiency"},

	{"parallel", "tp", K_INT, 0, P(tp), 1, 4096, NULL, "int", "tensor-parallel degree t"},
	{"parallel", "pp", K_INT, 0, P(pp), 1, CALC_MAX_STAGES, NULL, "int", "pipeline stages p"},
	{"parallel", "dp", K_INT, 0, P(dp), 0, 1e7, NULL, "int", "data-parallel degree d (0 = GPUs / (tp pp cp))"},
	{"parallel", "cp", K_INT, 0, P(cp), 1, 4096, NULL, "int", "context-parallel degree"},
	{"parallel", "cp_comm", K_ENUM, 0, P(cp_comm), 0, 0, cp_comm_names, "enum",
	 "how CP ranks exchange attention inputs (Megatron-LM --cp-comm-type): allgather K,V (Llama 3), p2p ring, a2a "
	 "(Ulysses; heads and KV heads per TP rank divisible by cp), a2a+p2p (a2a within cp_a2a_size ranks, ring across); "
	 "unset: the stack's (p2p for megatron-core, megatron-bridge and nemo, allgather for torchtitan; calc/stacks.c), "
	 "else allgather (trainplan get plan.cp_comm_source says which)"},
	{"parallel", "cp_a2a_size", K_INT, 0, P(cp_a2a_size), 0, 4096, NULL, "int",
	 "for cp_comm = a2a+p2p: ranks of an all-to-all group, dividing cp (Megatron-LM --hierarchical-context-parallel-sizes A cp/A; 0 = unset)"},
	{"parallel", "ep", K_INT, 0, P(ep), 1, 65536, NULL, "int", "expert-parallel degree (divides model.experts)"},
	{"parallel", "etp", K_INT, 0, P(etp), 1, 4096, NULL, "int", "expert tensor-parallel degree (ep x etp divides tp x cp x dp)"},
	{"parallel", "vpp", K_INT, 0, P(vpp), 1, 64, NULL, "int", "model chunks per pipeline stage (interleaved schedule)"},
	{"parallel", "sp", K_BOOL, 0, P(sp), 0, 1, NULL, "bool", "sequence parallelism with TP"},
	{"parallel", "zero", K_INT, 0, P(zero), 0, 3, NULL, "int", "ZeRO stage over the data-parallel group"},
	{"parallel", "recompute", K_ENUM, 0, P(recompute), 0, 0, rc_names, "enum", "activation recomputation"},
	{"parallel", "recompute_modules", K_MODULES, 0, P(recompute_modules), 0, 0, rcm_names, "list",
	 "for recompute = modules: core_attn moe_act layernorm mla_up_proj mlp moe shared_experts"},
	{"parallel", "recompute_method", K_ENUM, 0, P(recompute_method), 0, 0, rc_method_names, "enum",
	 "for recompute = full: Megatron-LM's --recompute-method (none = uniform with 1 layer)"},
	{"parallel", "recompute_num_layers", K_INT, 0, P(recompute_num_layers), 1, 100000, NULL, "int",
	 "for recompute_method: layers of a group (uniform) or checkpointed per chunk (block)"},
	{"parallel", "partition_activations", K_BOOL, 0, P(partition_activations), 0, 1, NULL, "bool",
	 "for recompute = full: DeepSpeed's partitioned checkpoints, 1/t per TP rank, all-gathered before recomputation"},
	{"parallel", "sp_saved_input", K_ENUM, 0, P(sp_saved_input), 0, 0, sp_saved_names, "enum",
	 "with SP: what a column-parallel linear keeps of its input, sharded (Megatron) or gathered (DTensor TP)"},
	{"parallel", "pp_runtime", K_ENUM, 0, P(pp_runtime), 0, 0, pp_runtime_names, "enum",
	 "with pp > 1: the pipeline runtime's buffers, megatron (none beyond the activations) or torch "
	 "(torch.distributed.pipelining: a receive buffer per micro-batch each way, outputs held to their backward, "
	 "the last stage's outputs for the step)"},
	{"parallel", "grad_buffer", K_ENUM, 0, P(grad_buffer), 0, 0, grad_buffer_names, "enum",
	 "the unsharded gradients' lifetime with zero 1: persistent (Megatron's gradient buffer, all step) or per-chunk "
	 "(FSDP accumulating over the micro-batches, Llama 3 §3.3.2: a model chunk's from its first backward to its "
	 "reduce-scatter after its last, the shard kept)"},
	{"parallel", "cpu_checkpointing", K_BOOL, 0, P(cpu_checkpointing), 0, 1, NULL, "bool",
	 "for recompute = full: DeepSpeed's checkpoints in host memory, copied over PCIe (cluster.gpu_pcie_bw)"},
	{"training", "offload_activations", K_INT, 0, P(offload_layers), 0, 100000, NULL, "layers",
	 "layers whose activations live in host memory, copied over cluster.gpu_pcie_bw (Megatron-Core --cpu-offloading-num-layers; "
	 "needs pp = 1 and recompute = none; 0 = none)"},
	{"training", "offload_modules", K_MODULES, 0, P(offload_modules), 0, 0, ofm_names, "list",
	 "submodules whose saved inputs live in host memory, copied over cluster.gpu_pcie_bw behind each layer's compute "
	 "(Megatron-Core --fine-grained-activation-offloading --offload-modules: attn_norm qkv_linear core_attn attn_proj "
	 "mlp_norm expert_fc1 moe_act; any pp and vpp; recompute none, selective or modules; empty = none)"},
	{"training", "offload_fraction", K_NUM, CALC_U_FRACTION, P(offload_fraction), 0, 1, NULL, "fraction",
	 "for offload_modules: the share of the eligible offload groups offloaded, the first in forward order "
	 "(Megatron-Core --activation-offload-fraction; default 1)"},
	{"training", "offload_optimizer", K_NUM, CALC_U_FRACTION, P(offload_optimizer), 0, 1, NULL, "fraction",
	 "share of the master weights and optimizer states kept and stepped on the host (Megatron-Core "
	 "--optimizer-cpu-offload --optimizer-offload-fraction; needs cluster.cpu_optimizer_rate; 0 = none)"},
	{"training", "offload_style", K_ENUM, 0, P(offload_style), 0, 0, offload_style_names, "enum",
	 "whose optimizer offload training.offload_optimizer is: megatron (HybridDeviceOptimizer: gradients stay on the "
	 "GPU, the recipe's gradient and weight bytes cross the host link) or zero-offload (DeepSpeed ZeRO-Offload, "
	 "Ren et al. 2021: fp16 gradients on the host too, 2 + 2 bytes per parameter; the whole share, F = 1)"},
	{"training", "offload_device", K_ENUM, 0, P(offload_device), 0, 0, offload_device_names, "enum",
	 "where DeepSpeed keeps the offloaded optimizer partition (zero_optimization.offload_optimizer.device): cpu "
	 "(ZeRO-Offload) or nvme (ZeRO-Infinity: the fp32 states and gradients swapped over cluster.nvme_bw; ZeRO-3, "
	 "offload_style = zero-offload)"},
	{"training", "offload_param", K_ENUM, 0, P(offload_param), 0, 0, offload_param_names, "enum",
	 "where DeepSpeed ZeRO-3 keeps each rank's parameter partition (zero_optimization.offload_param.device): none "
	 "(the GPU), cpu or nvme (ZeRO-Infinity), fetched over cluster.gpu_pcie_bw (and cluster.nvme_bw) for every "
	 "forward and backward; zero = 3 without FSDP, pp = 1"},
	{"training", "nvme_pipeline", K_BOOL, 0, P(nvme_pipeline), 0, 1, NULL, "bool",
	 "for offload_device = nvme: DeepSpeed's pipeline_read / pipeline_write, the swaps overlapped with the CPU "
	 "optimizer step (PipelinedOptimizerSwapper; default no, as DeepSpeed's)"},
	{"cluster", "nvme_bw", K_NUM, CALC_U_BYTES_S, P(nvme_bw), 0, 1e15, NULL, "bytes/s",
	 "NVMe bandwidth for one GPU, reads and writes together, for training.offload_device = nvme (no default: no "
	 "preset gives its host's drives; 0 = not known)"},
	{"cluster", "cpu_optimizer_rate", K_NUM, CALC_U_NONE, P(cpu_optimizer_rate), 0, 1e15, NULL, "1/s",
	 "parameters the host's optimizer (CPU Adam) updates per second for one GPU, for training.offload_optimizer "
	 "(no default: no source gives it for a preset's host; 0 = not known)"},
	{"parallel", "schedule", K_SCHED, 0, P(schedule), 0, 0, NULL, "enum", "pipeline schedule"},
	{"parallel", "layers_per_stage", K_LIST, 0, 0, 0, 0, NULL, "list", "layers of each stage, e.g. 19,21,20,20 (default: parallel.split)"},
	{"parallel", "split", K_ENUM, 0, P(split), 0, 0, split_names, "enum", "layer split rule without layers_per_stage; an uneven split must be named"},
	{"parallel", "first_stage_layers", K_INT, 0, P(first_stage_layers), 0, 100000, NULL, "int",
	 "layers of the first stage, the others split evenly (Megatron --decoder-first-pipeline-num-layers; 0 = unset)"},
	{"parallel", "last_stage_layers", K_INT, 0, P(last_stage_layers), 0, 100000, NULL, "int",
	 "layers of the last stage, the others split evenly (Megatron --decoder-last-pipeline-num-layers; 0 = unset)"},
	{"parallel", "account_embedding", K_BOOL, 0, P(account_embedding), 0, 1, NULL, "bool",
	 "the embedding counts as one layer of the split (Megatron --account-for-embedding-in-pipeline-split)"},
	{"parallel", "account_loss", K_BOOL, 0, P(account_loss), 0, 1, NULL, "bool",
	 "the loss and LM head count as one layer of the split (Megatron --account-for-loss-in-pipeline-split)"},
	{"parallel", "first_stage_less_layers", K_INT, 0, P(first_less), 0, 1000, NULL, "int",
	 "the embedding counts as this many layers of the split (torchtitan pipeline_parallel_first_stage_less_layers; 0 = unset)"},
	{"parallel", "last_stage_less_layers", K_INT, 0, P(last_less), 0, 1000, NULL, "int",
	 "the norm and output count as this many layers of the split (torchtitan pipeline_parallel_last_stage_less_layers; 0 = unset)"},
	{"parallel", "layout", K_TEXT, 0, P(layout), 0, 0, NULL, "text",
	 "layers of every virtual stage, e.g. Et*3|(tt|)*29m|L (Megatron --pipeline-model-parallel-layout; empty = none)"},
	{"parallel", "p2p_scatter_gather", K_BOOL, 0, P(p2p_scatter_gather), 0, 1, NULL, "bool", "split PP sends over the TP ranks"},
	{"parallel", "placement", K_TEXT, 0, P(placement), 0, 0, NULL, "text", "rank order of the groups, innermost first: tp, cp, pp, dp and optionally ep, where Megatron-Core's expert ranks sit (default: the stack's; megatron-core tp-cp-ep-dp-pp)"},
	{"parallel", "fsdp", K_BOOL, 0, P(fsdp), 0, 1, NULL, "bool", "ZeRO-3 as FSDP runs it, per layer (sets zero = 3)"},
	{"parallel", "hsdp", K_INT, 0, P(fsdp_shard), 0, 1e7, NULL, "int", "HSDP shard group size (0 = all DP x CP ranks: plain FSDP)"},
	{"parallel", "reshard_after_forward", K_BOOL, 0, P(reshard_after_forward), 0, 1, NULL, "bool", "FSDP frees a gathered layer after its forward"},
	{"parallel", "fsdp_prefetch", K_INT, 0, P(fsdp_prefetch), 0, 64, NULL, "int", "FSDP layers gathered ahead (0 = no prefetch)"},
	{"parallel", "fsdp_live_params", K_NUM, CALC_U_NONE, P(fsdp_live), 0, 1e13, NULL, "number",
	 "parameters a rank holds gathered (and unsharded gradients), never less than one layer's largest linear: DeepSpeed ZeRO-3's stage3_max_live_parameters (0 = whole layers, as FSDP)"},
	{"parallel", "no_sync", K_BOOL, 0, P(no_sync), 0, 1, NULL, "bool", "FSDP reduces gradients once per step, not per micro-batch"},
	{"parallel", "fsdp_fp8_gather", K_BOOL, 0, P(fsdp_fp8_gather), 0, 1, NULL, "bool",
	 "FSDP all-gathers the layers' Float8Linear weights in FP8, 1 byte a parameter (torchtitan float8.enable_fsdp_float8_all_gather; recipe torch-mp-fp8 only; default no, torchtitan's)"},
	{"parallel", "post_validation", K_BOOL, 0, P(post_validation), 0, 1, NULL, "bool", "ZB-H2 without a flush between steps (Qi et al. 2024 §4; default no)"},

	{"overhead", "cuda_context", K_NUM, CALC_U_BYTES, P(cuda_context), 0, 1e12, NULL, "bytes", "CUDA context, kernels and library modules per GPU"},
	{"overhead", "nccl_buffers", K_NUM, CALC_U_BYTES, P(nccl_buffers), 0, 1e12, NULL, "bytes", "NCCL communicator buffers per GPU"},
	{"overhead", "workspace", K_NUM, CALC_U_BYTES, P(workspace), 0, 1e12, NULL, "bytes", "cuBLAS and attention workspaces"},
	{"overhead", "fragmentation", K_NUM, CALC_U_FRACTION, P(fragmentation), 0, 0.9, NULL, "fraction", "allocator fragmentation, share of allocated memory"},

	{"efficiency", "gemm", K_NUM, CALC_U_FRACTION, P(gemm_eff), 0.01, 1, NULL, "fraction", "achieved GEMM throughput / dense peak, or / the measured matmul rate (efficiency.gemm_basis; default: the GPU preset's)"},
	{"efficiency", "gemm_fp8", K_NUM, CALC_U_FRACTION, P(gemm_eff_fp8), 0, 1, NULL, "fraction", "efficiency.gemm for the GEMMs of an FP8 recipe that take FP8 inputs, a share of the FP8 peak (0 = efficiency.gemm; default: the GPU preset's FP8 value, or efficiency.gemm where the plan sets that)"},
	{"efficiency", "gemm_basis", K_ENUM, 0, P(gemm_basis), 0, 0, gemm_basis_names, "enum", "what efficiency.gemm is a share of: the dense peak, or the GPU's measured achievable matmul rate (cluster.gpu_matmul_max)"},
	{"efficiency", "gemm_shape", K_ENUM, 0, P(gemm_shape), 0, 0, gemm_shape_names, "enum", "GEMM efficiency by shape: none, table (the small-GEMM falloff of XLA's measured sm_90 matmul table; H100, H200, H800 only), or auto (table where the GPU has one, else none)"},
	{"efficiency", "attention", K_NUM, CALC_U_FRACTION, P(attn_eff), 0.01, 1, NULL, "fraction", "achieved attention-core throughput / dense peak (default: the GPU preset's)"},
	{"efficiency", "dp_overlap", K_NUM, CALC_U_FRACTION, P(dp_overlap), 0, 1, NULL, "fraction", "share of DP communication hidden behind backward"},
	{"efficiency", "grouped_gemm", K_NUM, CALC_U_FRACTION, P(grouped_gemm), 0.01, 1, NULL, "fraction", "grouped per-expert GEMM throughput as a share of efficiency.gemm"},
	{"moe", "dispatcher", K_ENUM, 0, P(moe_dispatcher), 0, 0, dispatcher_names, "enum",
	 "token dispatcher (Megatron-Core --moe-token-dispatcher-type; deepep and hybridep: flex with that backend); "
	 "default alltoall, which Megatron-Core recommends with EP (its own default is allgather)"},
	{"moe", "overlap_ep_comm", K_BOOL, 0, P(overlap_ep_comm), 0, 1, NULL, "bool",
	 "hide one micro-batch's dispatch and combine under another's compute (Megatron-Core "
	 "--overlap-moe-expert-parallel-comm; 1F1B steady phase only)"},
	{"moe", "router_fusion", K_BOOL, 0, P(router_fusion), 0, 1, NULL, "bool",
	 "router score, top-k and aux-loss ops as fused kernels (Megatron-Core --moe-router-fusion)"},
	{"moe", "permute_fusion", K_BOOL, 0, P(permute_fusion), 0, 1, NULL, "bool",
	 "token permutation index computation fused (Megatron-Core --moe-permute-fusion)"},
	{"moe", "comm_sms", K_NUM, CALC_U_NONE, P(moe_comm_sms), 0, 1024, NULL, "number",
	 "SMs the hidden dispatch and combine take from the GEMMs (0 = not charged; DeepEP V1 24, V2 6-12 per its "
	 "README; Megatron-Bridge sets moe_hybridep_num_sms 16 or 32)"},
	{"moe", "host_time", K_NUM, CALC_U_SECONDS, P(moe_host_time), 0, 1, NULL, "seconds",
	 "host time to launch the kernels one dropless MoE layer runs after its token-count device-to-host "
	 "synchronisation, per micro-batch, forward + backward, exposed as moe.host_overlap says (0 = none; "
	 "the Megatron-Core stacks' 4.4 ms with host_overlap = none is FITTED on 6 of the 12 Megatron-Bridge "
	 "26.04.01 and 26.06 MoE rows that show a fixed per-layer gap, the other 6 held out; no source gives "
	 "it; docs/references.md 5.16)"},
	{"moe", "host_overlap", K_ENUM, 0, P(moe_host_overlap), 0, 0, host_overlap_names, "enum",
	 "what hides moe.host_time: gpu, the layer's own GPU work of the pass (exposed max(0, H - GPU time)), or "
	 "none (the GPU waits for all of it); no source decides between them; in the passes moe.overlap_ep_comm "
	 "pairs, the pair's compute hides it either way (docs/references.md 5.16)"},
	{"training", "cuda_graphs", K_ENUM, 0, P(cuda_graphs), 0, 0, cuda_graphs_names, "enum",
	 "CUDA graphs (Megatron-Core --cuda-graph-impl): none; partial, per-layer graphs (local or "
	 "transformer_engine), which leave a dropless MoE layer's experts uncaptured; full, the whole "
	 "iteration (full_iteration): no MoE host time (moe.host_time)"},
	{"efficiency", "ep_overlap", K_NUM, CALC_U_FRACTION, P(ep_overlap), 0, 1, NULL, "fraction", "share of the expert all-to-all hidden behind compute"},
	{"efficiency", "tp_overlap", K_NUM, CALC_U_FRACTION, P(tp_overlap), 0, 1, NULL, "fraction", "share of TP communication hidden behind compute"},
	{"efficiency", "tp_overlap_sms", K_NUM, CALC_U_NONE, P(tp_overlap_sms), 0, 1024, NULL, "number", "SMs the hidden TP collectives take from the GEMMs (Transformer Engine userbuffers: 8.5)"},
	{"efficiency", "stack", K_PRESET, 0, 0, 0, 0, NULL, "preset", "software stack preset, its framework's defaults where the plan sets nothing: megatron-core (= megatron-core-0.19, the default), megatron-core-2024, megatron-bridge-0.6, nemo, nemo-2024, torchtitan, fsdp1, deepspeed-zero3, deepspeed-megatron"},
	{"efficiency", "dp_bandwidth", K_NUM, CALC_U_FRACTION, P(dp_bw_eff), 0.01, 1, NULL, "fraction", "achieved share of the modelled bandwidth in DP collectives"},
	{"efficiency", "dp_algorithm", K_ENUM, 0, P(dp_flat), 0, 0, dp_algo_names, "enum", "DP collectives: hierarchical, or one flat ring over the network"},
	{"efficiency", "grad_reduce", K_ENUM, 0, P(grad_reduce), 0, 0, grad_reduce_names, "enum", "dtype of the DP gradient reduction (recipe: its gradients')"},
	{"efficiency", "hfu_count", K_ENUM, 0, P(hfu_count), 0, 0, hfu_names, "enum", "hardware FLOPs of recomputation: executed ops, or Korthikanti 2022 Eq. 8"},
	{"efficiency", "optimizer_time", K_NUM, CALC_U_SECONDS, P(optimizer_time), -1, 1e4, NULL, "seconds", "optimizer step time (-1 = estimate from HBM bandwidth)"},
	{"efficiency", "step_overhead", K_NUM, CALC_U_SECONDS, P(step_overhead), 0, 1e4, NULL, "seconds", "fixed host-side time per step outside the GPU timeline: data loading, logging, host synchronisation (0 = none; fit it with trainplan calibrate)"},

	{"run", "checkpoint_optimizer", K_BOOL, 0, P(ckpt_optimizer), 0, 1, NULL, "bool", "checkpoints hold master weights and optimizer states (no: weights only)"},
	{"run", "checkpoint_async", K_BOOL, 0, P(ckpt_async), 0, 1, NULL, "bool", "asynchronous checkpoints: training stops only for the copy to host memory"},
	{"run", "checkpoint_interval", K_NUM, CALC_U_SECONDS, P(ckpt_interval), 0, 1e9, NULL, "seconds", "compute time between checkpoints (0 = Daly 2006 optimum)"},
	{"run", "storage_node_bw", K_NUM, CALC_U_BYTES_S, P(storage_node_bw), 1e6, 1e15, NULL, "bytes/s", "file-system write and read bandwidth of one node"},
	{"run", "storage_bw", K_NUM, CALC_U_BYTES_S, P(storage_bw), 1e6, 1e16, NULL, "bytes/s", "aggregate file-system bandwidth"},
	{"run", "host_copy_bw", K_NUM, CALC_U_BYTES_S, P(host_copy_bw), 1e6, 1e15, NULL, "bytes/s", "device-to-host copy per GPU (asynchronous checkpoints)"},
	{"run", "failure_rate", K_NUM, CALC_U_NONE, P(failure_rate), 0, 1, NULL, "number", "job-stopping failures per GPU-hour"},
	{"run", "restart_time", K_NUM, CALC_U_SECONDS, P(restart_time), 0, 1e7, NULL, "seconds", "from a failure to training again, without the checkpoint load"},
	{"run", "gpu_idle_power", K_NUM, CALC_U_FRACTION, P(gpu_idle_power), 0, 1, NULL, "fraction", "power of an idle GPU as a share of its TDP"},
	{"run", "node_power", K_NUM, CALC_U_NONE, P(node_power), 0, 1e6, NULL, "number", "power of one node without its GPUs [W]"},
	{"run", "network_power", K_NUM, CALC_U_NONE, P(network_power), 0, 1e5, NULL, "number", "network switches and optics per GPU [W]"},
	{"run", "pue", K_NUM, CALC_U_NONE, P(pue), 1, 10, NULL, "number", "power usage effectiveness: facility power / IT power"},
	{"run", "energy_price", K_NUM, CALC_U_MONEY, P(energy_price), 0, 1e4, NULL, "number", "price of one kWh at the facility meter (in plan.currency; 0 = in gpu_hour_cost)"},
	{"run", "carbon_intensity", K_NUM, CALC_U_NONE, P(carbon_intensity), 0, 10, NULL, "number", "grid emissions [kg CO2e per kWh] (0 = not reported)"},
};

#define NKEYS (int)(sizeof keys / sizeof keys[0])
_Static_assert(sizeof keys / sizeof keys[0] <= CALC_PLAN_NKEYS, "raise CALC_PLAN_NKEYS");

/*
 * The key table as struct calc_key_info, with each key's range written out.  Built once
 * under a lock (plans are read and keys listed on several threads); the schedule keys'
 * ranges name the schedule table's rows, so they are written again when the table has
 * changed (calc_schedule_generation), which happens only between runs
 * (calc_schedule_register is not thread-safe).
 */
static struct calc_key_info *key_info; /* NKEYS entries; heap blocks, not 38 kB of bss
                                          (struct calc_model's built, presets.c) */
static char (*key_ranges)[160];
static unsigned long key_info_gen; /* the schedule table's generation the ranges name; 0: not built */
static pthread_mutex_t key_info_lock = PTHREAD_MUTEX_INITIALIZER;

static void key_infos_build(void)
{
	key_info = xmalloc(NKEYS * sizeof *key_info);
	key_ranges = xmalloc(NKEYS * sizeof *key_ranges);
	for (int i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];
		char *r = key_ranges[i];
		r[0] = 0;
		if (k->type == K_SCHED) {
			calc_schedule_names(r, sizeof key_ranges[i], " | ");
		} else if (k->type == K_ENUM) {
			for (int j = 0; k->enums[j]; j++)
				snprintf(r + strlen(r), 160 - strlen(r), "%s%s", j ? " | " : "", k->enums[j]);
		} else if (k->type == K_BOOL) {
			strcpy(r, "yes | no");
		} else if (k->type == K_INT || k->type == K_NUM) {
			snprintf(r, 160, "%g .. %g", k->min, k->max);
		} else if (k->type == K_LIST) {
			strcpy(r, "comma-separated ints summing to model.layers");
		} else if (k->type == K_MODULES) {
			strcpy(r, "comma-separated Megatron-Core module names");
		} else {
			strcpy(r, "text");
		}
		key_info[i] = (struct calc_key_info){k->section, k->name, k->typename, r, k->meaning};
	}
}

static const struct calc_key_info *key_infos(void)
{
	unsigned long gen = calc_schedule_generation();
	pthread_mutex_lock(&key_info_lock);
	if (!key_info_gen) {
		key_infos_build();
	} else if (key_info_gen != gen) { /* the schedule table has grown or shrunk */
		for (int i = 0; i < NKEYS; i++)
			if (keys[i].type == K_SCHED)
				calc_schedule_names(key_ranges[i], sizeof key_ranges[i], " | ");
	}
	key_info_gen = gen;
	pthread_mutex_unlock(&key_info_lock);
	return key_info;
}

const struct calc_key_info *calc_plan_key_at(int i)
{
	return i >= 0 && i < NKEYS ? &key_infos()[i] : NULL;
}

/* The keys ordered by (section, name), built once (plans are read on several threads),
 * for a binary search: every plan line and --set looks its key up. */
static int key_sorted[NKEYS];
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static int key_cmp(const char *sa, const char *na, const char *sb, const char *nb)
{
	int c = strcmp(sa, sb);
	return c ? c : strcmp(na, nb);
}

static int key_sort_cmp(const void *a, const void *b)
{
	const struct key *x = &keys[*(const int *)a], *y = &keys[*(const int *)b];
	return key_cmp(x->section, x->name, y->section, y->name);
}

static void key_sort(void)
{
	for (int i = 0; i < NKEYS; i++)
		key_sorted[i] = i;
	qsort(key_sorted, NKEYS, sizeof *key_sorted, key_sort_cmp);
}

/* The index of key section.name in keys[], or -1. */
static int key_index(const char *section, const char *name)
{
	int lo = 0, hi = NKEYS - 1;
	pthread_once(&key_once, key_sort);
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2, k = key_sorted[mid];
		int c = key_cmp(section, name, keys[k].section, keys[k].name);
		if (!c)
			return k;
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return -1;
}

static int key_index_named(const char *sec, const char *name)
{
	int i = key_index(sec, name);
	return i;
}

/* ======================================================================== */
/* Entries: "section.key = value" with origin                                */
/* ======================================================================== */

struct entry {
	int key;
	char value[1024];
	const char *file;
	int line;
	unsigned char src; /* 0 default, 1 plan file, 2 override */
};

struct entries {
	struct entry *e;
	int n, cap;
	int bad; /* errors seen while collecting */
};

static void push(struct entries *es, int key, const char *value, const char *file, int line, int src)
{
	if (es->n == es->cap) {
		es->cap = es->cap ? es->cap * 2 : 64;
		es->e = xrealloc(es->e, (size_t)es->cap * sizeof *es->e);
	}
	struct entry *e = &es->e[es->n++];
	e->key = key;
	snprintf(e->value, sizeof e->value, "%s", value);
	e->file = file;
	e->line = line;
	e->src = (unsigned char)src;
}

static const char *const sections[] = {"plan", "model", "cluster", "training", "parallel", "moe", "overhead", "efficiency", "run", NULL};

static int known_section(const char *s)
{
	for (int i = 0; sections[i]; i++)
		if (!strcmp(sections[i], s))
			return 1;
	return 0;
}

/* Names of the keys of a section, for "allowed: ..." */
static void section_keys(const char *sec, char *buf, size_t n, struct calc_suggest *s)
{
	buf[0] = 0;
	for (int i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].section, sec)) {
			snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "", keys[i].name);
			calc_suggest_offer(s, keys[i].name);
		}
}

/* The closest section name to 'sec', as "; did you mean '...'?" or "". */
static const char *section_suggest(const char *sec, char *buf, size_t n)
{
	struct calc_suggest s;
	calc_suggest_init(&s, sec);
	for (int i = 0; sections[i]; i++)
		calc_suggest_offer(&s, sections[i]);
	return calc_suggest_text(&s, buf, n);
}

/* A plan is a few kB; reading stops here so that /dev/zero or an endless pipe ends. */
#define PLAN_MAX_BYTES (1 << 20)

struct reader {
	const char *text; /* string input, or NULL */
	FILE *f;
	int line;
	int toolong;      /* line that exceeded the buffer */
	long bytes;       /* read so far from f */
	int toobig;       /* 1: f went past PLAN_MAX_BYTES (/dev/zero, /dev/urandom, ...) */
	int maxline;      /* the longest line inih takes [B] */
	int badline, badcol; /* the first line that is not a plan's text (a NUL, not UTF-8, a
	                        CR inside it, text after "[section]"), or 0 */
	char badmsg[160]; /* what is wrong with it */
	struct entries *es;
	const char *file;
	int src;
	struct calc_diag *d;
	struct calc_plan *plan; /* where included file names are kept */
	int depth;              /* 0: the plan file, 1: a file it includes, ... */
	const char *chain[CALC_PLAN_MAX_INCLUDES + 2]; /* real paths of the files being read */
	const char *names[CALC_PLAN_MAX_INCLUDES + 2]; /* the same files as messages name them */
};

static int collect_include(struct reader *r, const char *value);

/* Keep the first problem of a line: 'line' and 'col' (1-based) and the message. */
static void line_problem(struct reader *r, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void line_problem(struct reader *r, int line, int col, const char *fmt, ...)
{
	if (r->badline)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->badmsg, sizeof r->badmsg, fmt, ap);
	va_end(ap);
	r->badline = line;
	r->badcol = col;
}

/* The checks inih does not make on the line str[0..n): text (no NUL, UTF-8), no carriage
 * return but one at its end (CR-only line ends would make the file one line), nothing
 * but a comment after "[section]" (inih drops it: "[parallel] tp = 4" set nothing). */
static void check_line(struct reader *r, const char *str, int n)
{
	int line = r->line + 1, nul;
	long bad = calc_text_check(str, (size_t)n, &nul);
	if (bad >= 0 && nul)
		line_problem(r, line, (int)bad + 1, "a NUL byte: a plan is text");
	else if (bad >= 0)
		line_problem(r, line, (int)bad + 1, "byte 0x%02X is not UTF-8: a plan is UTF-8 text",
		             (unsigned char)str[bad]);
	const char *cr = memchr(str, '\r', (size_t)n);
	if (cr && cr - str < n - 1)
		line_problem(r, line, (int)(cr - str) + 1,
		             "a carriage return inside the line (CR-only line ends?): save the file with LF "
		             "or CRLF line ends");
	int i = 0;
	while (i < n && (str[i] == ' ' || str[i] == '\t'))
		i++;
	if (i < n && str[i] == '[') {
		const char *close = memchr(str + i, ']', (size_t)(n - i));
		if (close) {
			int j = (int)(close - str) + 1;
			while (j < n && (str[j] == ' ' || str[j] == '\t' || str[j] == '\r'))
				j++;
			if (j < n && str[j] != ';' && str[j] != '#')
				line_problem(r, line, j + 1, "text after [%.*s]: each key goes on a line of its own "
				             "after the section", (int)(close - str - i - 1), str + i + 1);
		}
	}
}

static char *read_line(char *str, int num, void *stream)
{
	struct reader *r = stream;
	int i = 0;
	r->maxline = num - 2;
	if (r->text) {
		if (!*r->text)
			return NULL;
		while (*r->text && *r->text != '\n') {
			if (i < num - 2)
				str[i++] = *r->text;
			else if (!r->toolong)
				r->toolong = r->line + 1;
			r->text++;
		}
		if (*r->text == '\n')
			r->text++;
	} else {
		int c = 0;
		if (r->toobig)
			return NULL;
		while ((c = fgetc(r->f)) != EOF) {
			if (++r->bytes > PLAN_MAX_BYTES) {
				r->toobig = 1;
				return NULL;
			}
			if (c == '\n')
				break;
			if (i < num - 2)
				str[i++] = (char)c;
			else if (!r->toolong)
				r->toolong = r->line + 1;
		}
		if (c == EOF && i == 0)
			return NULL;
	}
	check_line(r, str, i);
	str[i++] = '\n';
	str[i] = 0;
	r->line++;
	return str;
}

static int on_value(void *user, const char *section, const char *name, const char *value)
{
	struct reader *r = user;
	char dym[160];
	int k;
	if (!strcmp(name, "include") && r->plan) {
		if (collect_include(r, value ? value : "") < 0)
			r->es->bad = 1;
		return 1;
	}
	/* A line of a file that is not a plan (an include or --plan naming /etc/shadow or a
	 * credentials file) is not quoted: a name is shown only when it is a plan key, or a
	 * section close to one of the plan's (docs/architecture.md §5, "What a plan reads"). */
	if (!*section) {
		int any = 0;
		for (int i = 0; sections[i] && !any; i++)
			any = key_index(sections[i], name) >= 0;
		if (!any)
			return calc_error_id(r->d, CALC_M_OUTSIDE_SECTION, r->file, r->line, "a line outside any section that is not a plan key (the "
			                  "line is not shown: is %s a plan?)", r->file), r->es->bad = 1, 1;
		return calc_error_id(r->d, CALC_M_OUTSIDE_SECTION, r->file, r->line, "'%s' is outside any section (sections: plan, model, cluster, "
		                  "training, parallel, overhead, efficiency, run)", name), r->es->bad = 1, 1;
	}
	if (!known_section(section)) {
		if (!*section_suggest(section, dym, sizeof dym))
			return calc_error_id(r->d, CALC_M_UNKNOWN_SECTION, r->file, r->line, "an unknown section (allowed: plan, model, cluster, training, "
			                  "parallel, overhead, efficiency, run; the line is not shown: is %s a plan?)",
			                  r->file), r->es->bad = 1, 1;
		return calc_error_id(r->d, CALC_M_UNKNOWN_SECTION, r->file, r->line, "unknown section [%s] (allowed: plan, model, cluster, "
		                  "training, parallel, overhead, efficiency, run)%s", section,
		                  section_suggest(section, dym, sizeof dym)), r->es->bad = 1, 1;
	}
	k = key_index(section, name);
	if (k < 0) {
		char list[1024];
		struct calc_suggest s;
		calc_suggest_init(&s, name);
		section_keys(section, list, sizeof list, &s);
		calc_error_id(r->d, CALC_M_UNKNOWN_KEY, r->file, r->line, "unknown key '%s' in [%s] (allowed: %s)%s", name, section, list,
		           calc_suggest_text(&s, dym, sizeof dym));
		r->es->bad = 1;
		return 1;
	}
	if (!value || !*value) {
		const struct calc_key_info *ki = calc_plan_key_at(k);
		calc_error_id(r->d, CALC_M_NO_VALUE, r->file, r->line, "%s.%s has no value (allowed: %s)", section, name, ki->range);
		r->es->bad = 1;
		return 1;
	}
	/* a key set twice in one file is a mistake (a later file or --set overrides) */
	for (int i = 0; i < r->es->n; i++)
		if (r->es->e[i].key == k && r->es->e[i].src == r->src) {
			calc_error_id(r->d, CALC_M_KEY_TWICE, r->file, r->line, "%s.%s is set twice in this file (first at line %d)",
			           section, name, r->es->e[i].line);
			r->es->bad = 1;
			return 1;
		}
	push(r->es, k, value, r->file, r->line, r->src);
	return 1;
}

/* Parse INI text or a file into entries.  Returns 0 or -1 (messages in d).  With
 * 'parent' (a reader of a plan file), 'include = FILE' lines outside any section read
 * FILE in their place (collect_include). */
/* Debian's libinih is built with run-time settings (globals): lift the 200-byte line
 * limit and keep one value per line so that line numbers stay exact.  Set once, as plans
 * may be read on several threads (the report's validation rows on the pool). */
static pthread_once_t ini_once = PTHREAD_ONCE_INIT;
static void ini_settings(void)
{
	ini_use_stack = false;
	ini_max_line = 4096;
	ini_allow_multiline = false;
	ini_allow_inline_comments = true;
}

static int collect_in(struct entries *es, const char *text, FILE *f, const char *file, int src,
                      struct calc_diag *d, const struct reader *parent, struct calc_plan *plan, const char *real)
{
	struct reader r = {.text = text, .f = f, .es = es, .file = file, .src = src, .d = d, .plan = plan};
	int before = d->nerrors, rc;
	if (parent) {
		r.depth = parent->depth + 1;
		memcpy(r.chain, parent->chain, sizeof r.chain);
		memcpy(r.names, parent->names, sizeof r.names);
	}
	r.chain[r.depth] = real;
	r.names[r.depth] = file;
	pthread_once(&ini_once, ini_settings);
	rc = ini_parse_stream(read_line, &r, on_value, &r);
	if (r.toobig)
		calc_error_id(d, CALC_M_PLAN_UNREADABLE, file, 0, "more than %d bytes: not a plan file", PLAN_MAX_BYTES);
	else if (r.badline)
		calc_error_id_at(d, CALC_M_NOT_TEXT, file, r.badline, r.badcol, "%s", r.badmsg);
	else if (r.toolong)
		calc_error_id(d, CALC_M_LINE_TOO_LONG, file, r.toolong, "line longer than %d bytes (the longest line a plan may have)",
		           r.maxline);
	else if (rc > 0)
		calc_error_id(d, CALC_M_MALFORMED, file, rc, "malformed line (expected '[section]', 'key = value' or a comment)");
	else if (rc < 0)
		calc_error_id(d, CALC_M_PLAN_UNREADABLE, file, 0, "cannot read the plan (%s)", rc == -2 ? "out of memory" : "read error");
	return d->nerrors > before ? -1 : 0;
}

static int collect(struct entries *es, const char *text, FILE *f, const char *file, int src,
                   struct calc_diag *d)
{
	return collect_in(es, text, f, file, src, d, NULL, NULL, NULL);
}

/* 'include = FILE' in the file r reads (in any section or none): FILE (relative to that file's folder) is read
 * in its place, so that the keys after the line override it.  A file that includes
 * itself, directly or through others, is refused with the chain. */
static int collect_include(struct reader *r, const char *value)
{
	struct calc_plan *p = r->plan;
	char path[2 * CALC_PATH_MAX], real[PATH_MAX], chain[1536];
	const char *slash = r->src == 1 || r->src >= 3 ? strrchr(r->file, '/') : NULL;
	FILE *f;
	int i;
	if (!*value)
		return calc_error_id(r->d, CALC_M_NO_VALUE, r->file, r->line, "include has no value (allowed: the path of a plan file, "
		                  "relative to this one)");
	if (value[0] != '/' && slash)
		snprintf(path, sizeof path, "%.*s/%s", (int)(slash - r->file), r->file, value);
	else
		snprintf(path, sizeof path, "%s", value);
	char why[128];
	if (!(f = calc_file_open(path, "r", why, sizeof why)))
		return calc_error_id(r->d, CALC_M_INCLUDE, r->file, r->line, "include = %s: cannot open %s: %s", value, path, why);
	if (!realpath(path, real)) {
		int e = errno;
		fclose(f);
		return calc_error_id(r->d, CALC_M_INCLUDE, r->file, r->line, "include = %s: cannot open %s: %s", value, path, strerror(e));
	}
	for (i = 0; i <= r->depth; i++)
		if (r->chain[i] && !strcmp(r->chain[i], real)) {
			/* the files from the one included again down to this one */
			chain[0] = 0;
			for (int j = i; j <= r->depth; j++)
				snprintf(chain + strlen(chain), sizeof chain - strlen(chain), "%s -> ", r->names[j]);
			fclose(f);
			return calc_error_id(r->d, CALC_M_INCLUDE, r->file, r->line, "include = %s: the plan includes itself (%s%s; allowed: "
			                  "a file not already being read)", value, chain, path);
		}
	if (p->nincludes >= CALC_PLAN_MAX_INCLUDES) {
		fclose(f);
		return calc_error_id(r->d, CALC_M_INCLUDE, r->file, r->line, "include = %s: more than %d included files", value,
		                  CALC_PLAN_MAX_INCLUDES);
	}
	if (strlen(path) >= sizeof p->includes[0]) {
		fclose(f);
		return calc_error_id(r->d, CALC_M_INCLUDE, r->file, r->line, "include = %s: path too long (at most %d bytes)", value,
		                  CALC_PATH_MAX - 1);
	}
	i = p->nincludes++;
	memcpy(p->includes[i], path, strlen(path) + 1);
	collect_in(r->es, NULL, f, p->includes[i], 3 + i, r->d, r, p, real);
	fclose(f);
	return 0;
}

/* ======================================================================== */
/* Values                                                                    */
/* ======================================================================== */

static int parse_bool(const char *v, int *out)
{
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcasecmp(v, "on") || !strcmp(v, "1"))
		return *out = 1, 0;
	if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcasecmp(v, "off") || !strcmp(v, "0"))
		return *out = 0, 0;
	return -1;
}

static void list_presets(char *buf, size_t n, int which, struct calc_suggest *s)
{
	buf[0] = 0;
	for (int i = 0;; i++) {
		const char *name = NULL;
		if (which == 0) {
			const struct calc_model *m = calc_preset_model_at(i);
			name = m ? m->name : NULL;
		} else if (which == 1) {
			const struct calc_gpu *g = calc_preset_gpu_at(i);
			name = g ? g->name : NULL;
		} else if (which == 2) {
			const struct calc_cluster_preset *c = calc_preset_cluster_at(i);
			name = c ? c->name : NULL;
		} else if (which == 4) {
			const struct calc_stack *st = calc_stack_at(i);
			name = st ? st->name : NULL;
		} else {
			const struct calc_recipe *r = calc_recipe_at(i);
			name = r ? r->name : NULL;
		}
		if (!name)
			break;
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? ", " : "", name);
		calc_suggest_offer(s, name);
	}
}

static void apply_gpu(struct calc_plan *p, const struct calc_gpu *g)
{
	p->gpu = *g;
	p->gpu_memory_auto = 1;
}

static void apply_cluster(struct calc_plan *p, const struct calc_cluster_preset *c)
{
	snprintf(p->cluster_preset, sizeof p->cluster_preset, "%s", c->name);
	apply_gpu(p, calc_preset_gpu(c->gpu));
	p->gpus_per_node = c->gpus_per_node;
	p->intra_node_bw = c->intra_bw;
	p->intra_node_busbw = c->intra_busbw;
	p->inter_node_bw = c->inter_bw;
	p->intra_node_latency = c->intra_lat;
	p->inter_node_latency = c->inter_lat;
	p->gpu_hour_cost = c->gpu_hour_cost;
}

/* Set one entry's value into the plan.  Returns 0 or -1 (message in d). */
static int apply(struct calc_plan *p, const struct entry *e, struct calc_diag *d)
{
	const struct key *k = &keys[e->key];
	const char *v = e->value;
	char *base = (char *)p;
	char list[2048], dym[160];
	struct calc_suggest sg;
	double x;
	int b;

	switch (k->type) {
	case K_INT: {
		char *end;
		errno = 0;
		double n = strtod(v, &end);
		while (isspace((unsigned char)*end))
			end++;
		/* strtod reads hexadecimal (0x8, 0x1p3), infinity and NaN: a plan writes decimals */
		if (end == v || *end || n != floor(n) || errno || strpbrk(v, "xXiInN"))
			return calc_error_id(d, CALC_M_NOT_NUMBER, e->file, e->line, "%s.%s = %s is not an integer (allowed: %g .. %g)",
			                  k->section, k->name, v, k->min, k->max);
		if (n < k->min || n > k->max)
			return calc_error_id(d, CALC_M_OUT_OF_RANGE, e->file, e->line, "%s.%s = %s is out of range (allowed: %g .. %g)",
			                  k->section, k->name, v, k->min, k->max);
		*(int *)(base + k->off) = (int)n;
		if (k->off == P(dp))
			p->dp_auto = n == 0;
		if (k->off == P(model.head_dim))
			p->head_dim_auto = 0;
		return 0;
	}
	case K_NUM:
		if (calc_parse_number(v, k->unit, &x) < 0) {
			static const char *const hint[] = {
				[CALC_U_NONE] = "a number, e.g. 300e9 or 300G",
				[CALC_U_BYTES] = "bytes with an optional unit: B, kB, MB, GB, TB, KiB, MiB, GiB, TiB",
				[CALC_U_BYTES_S] = "a rate with an optional unit: GB/s, Gb/s, TB/s, ...",
				[CALC_U_SECONDS] = "seconds with an optional unit: s, ms, us, ns",
				[CALC_U_FRACTION] = "a fraction 0..1 or a percentage",
				[CALC_U_FLOPS] = "FLOP/s with an optional unit: TFLOP/s, PFLOP/s",
				[CALC_U_MONEY] = "a plain number",
			};
			return calc_error_id(d, CALC_M_NOT_NUMBER, e->file, e->line, "%s.%s = %s is not %s", k->section, k->name, v, hint[k->unit]);
		}
		if (x < k->min || x > k->max)
			return calc_error_id(d, CALC_M_OUT_OF_RANGE, e->file, e->line, "%s.%s = %s is out of range (allowed: %g .. %g)",
			                  k->section, k->name, v, k->min, k->max);
		*(double *)(base + k->off) = x;
		if (k->off == P(gpu_memory))
			p->gpu_memory_auto = 0;
		if (k->off == P(gemm_eff))
			p->eff_auto &= ~1;
		if (k->off == P(attn_eff))
			p->eff_auto &= ~2;
		if (k->off == P(gemm_eff_fp8))
			p->eff_auto &= ~4;
		return 0;
	case K_BOOL:
		if (parse_bool(v, &b) < 0)
			return calc_error_id(d, CALC_M_NOT_BOOL, e->file, e->line, "%s.%s = %s is not a yes/no value (allowed: yes, no, true, "
			                  "false, on, off, 1, 0)", k->section, k->name, v);
		*(int *)(base + k->off) = b;
		return 0;
	case K_SCHED: {
		enum calc_schedule sc;
		if (!calc_schedule_parse(v, &sc)) {
			*(int *)(base + k->off) = (int)sc;
			return 0;
		}
		calc_suggest_init(&sg, v);
		for (int i = 0; i < calc_schedule_count(); i++)
			calc_suggest_offer(&sg, calc_schedule_at(i)->name);
		return calc_error_id(d, CALC_M_NOT_ALLOWED, e->file, e->line, "%s.%s = %s is not allowed (allowed: %s)%s", k->section, k->name, v,
		                  calc_schedule_names(list, sizeof list, ", "), calc_suggest_text(&sg, dym, sizeof dym));
	}
	case K_ENUM:
		for (int i = 0; k->enums[i]; i++)
			if (!strcmp(k->enums[i], v)) {
				*(int *)(base + k->off) = i;
				return 0;
			}
		list[0] = 0;
		calc_suggest_init(&sg, v);
		for (int i = 0; k->enums[i]; i++) {
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", k->enums[i]);
			calc_suggest_offer(&sg, k->enums[i]);
		}
		return calc_error_id(d, CALC_M_NOT_ALLOWED, e->file, e->line, "%s.%s = %s is not allowed (allowed: %s)%s", k->section, k->name, v,
		                  list, calc_suggest_text(&sg, dym, sizeof dym));
	case K_TEXT: {
		size_t cap = k->off == P(title) ? sizeof p->title : k->off == P(date) ? sizeof p->date
		           : k->off == P(gpu.name) ? sizeof p->gpu.name : k->off == P(layout) ? sizeof p->layout
		           : k->off == P(published_source) ? sizeof p->published_source
		           : k->off == P(currency) ? sizeof p->currency : k->off == P(model.hybrid) ? sizeof p->model.hybrid
		           : sizeof p->placement;
		if (strlen(v) >= cap)
			return calc_error_id(d, CALC_M_TOO_LONG, e->file, e->line, "%s.%s is too long (at most %zu characters)", k->section,
			                  k->name, cap - 1);
		/* a title reaches report.html, the PDF, a terminal and CSV cells: UTF-8 without
		 * control characters (an ESC would be a terminal command), the bytes not quoted */
		long bad = calc_text_plain(v);
		if (bad >= 0)
			return calc_error_id(d, CALC_M_CONTROL_CHAR, e->file, e->line, "%s.%s: byte %ld (0x%02X) is a control character or not UTF-8 "
			                  "(allowed: UTF-8 text without control characters)", k->section, k->name, bad + 1,
			                  (unsigned char)v[bad]);
		if (k->off == P(currency) && *v &&
		    (strlen(v) != 3 || strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != 3))
			return calc_error_id(d, CALC_M_NOT_ALLOWED, e->file, e->line, "plan.currency = %s is not a currency code (allowed: three "
			                  "capital letters as in ISO 4217, e.g. USD, EUR, CNY; empty for none)", v);
		if (k->off == P(placement)) {
			/* a permutation of tp, cp, pp, dp, with or without ep (placement.c) */
			int order[CALC_DIM_N + 1];
			if (calc_placement_parse(v, order) < 0)
				return calc_error_id(d, CALC_M_NOT_ALLOWED, e->file, e->line, "parallel.placement = %s is not an order of tp, cp, pp, dp "
				                  "and optionally ep, innermost first, joined by '-' (e.g. tp-cp-ep-dp-pp, "
				                  "Megatron-Core's; tp-cp-pp-dp)", v);
		}
		if (k->off == P(date)) {
			int y, mo, da;
			char extra;
			if (*v && (strlen(v) != 10 || sscanf(v, "%4d-%2d-%2d%c", &y, &mo, &da, &extra) != 3 || mo < 1 ||
			           mo > 12 || da < 1 || da > 31))
				return calc_error_id(d, CALC_M_NOT_ALLOWED, e->file, e->line, "plan.date = %s is not a date YYYY-MM-DD", v);
			/* the Gregorian calendar: 30 days hath September, and 29 in a leap February */
			static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
			int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
			if (*v && da > mdays[mo - 1] + (mo == 2 && leap))
				return calc_error_id(d, CALC_M_OUT_OF_RANGE, e->file, e->line, "plan.date = %s: %04d-%02d has %d days", v, y, mo,
				                  mdays[mo - 1] + (mo == 2 && leap));
		}
		if (k->off == P(gpu.name) && !*v)
			return calc_error_id(d, CALC_M_NO_VALUE, e->file, e->line, "cluster.gpu_name is empty (allowed: a name of 1 .. %zu "
			                  "characters)", cap - 1);
		memcpy(base + k->off, v, strlen(v) + 1); /* fits: strlen(v) < cap was checked */
		if (k->off == P(gpu.name))
			p->gpu.title = NULL; /* the preset's title names another part: titles use the name */
		return 0;
	}
	case K_LIST: {
		int n = 0;
		const char *s = v;
		while (*s) {
			char *end;
			long x2 = strtol(s, &end, 10);
			if (end == s || x2 < 0 || x2 > 100000)
				return calc_error_id(d, CALC_M_NOT_NUMBER, e->file, e->line, "parallel.layers_per_stage = %s: expected comma-separated "
				                  "non-negative integers, e.g. 19,21,20,20", v);
			if (n >= CALC_MAX_STAGES)
				return calc_error_id(d, CALC_M_TOO_LONG, e->file, e->line, "parallel.layers_per_stage has more than %d entries",
				                  CALC_MAX_STAGES);
			p->layers_per_stage[n++] = (int)x2;
			s = end;
			while (isspace((unsigned char)*s))
				s++;
			if (*s == ',')
				s++;
			else if (*s)
				return calc_error_id(d, CALC_M_NOT_NUMBER, e->file, e->line, "parallel.layers_per_stage = %s: expected comma-separated "
				                  "non-negative integers, e.g. 19,21,20,20", v);
			while (isspace((unsigned char)*s))
				s++;
		}
		p->uneven_stages = n;
		return 0;
	}
	case K_MODULES: {
		/* comma-separated names of k->enums, each at most once; empty: none */
		unsigned mask = 0;
		const char *s = v;
		while (*s) {
			size_t n;
			int i;
			while (isspace((unsigned char)*s))
				s++;
			n = strcspn(s, ", \t");
			for (i = 0; k->enums[i]; i++)
				if (strlen(k->enums[i]) == n && !strncmp(k->enums[i], s, n))
					break;
			list[0] = 0;
			for (int j = 0; k->enums[j]; j++)
				snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "", k->enums[j]);
			if (!k->enums[i])
				return calc_error_id(d, CALC_M_NOT_ALLOWED, e->file, e->line, "%s.%s = %s: '%.*s' is not a module (allowed: a "
				                  "comma-separated list of %s)", k->section, k->name, v, (int)n, s, list);
			if (mask & (1u << i))
				return calc_error_id(d, CALC_M_NOT_ALLOWED, e->file, e->line, "%s.%s = %s names %s twice", k->section, k->name, v,
				                  k->enums[i]);
			mask |= 1u << i;
			s += n;
			while (isspace((unsigned char)*s))
				s++;
			if (*s == ',')
				s++;
			else if (*s)
				return calc_error_id(d, CALC_M_NOT_ALLOWED, e->file, e->line, "%s.%s = %s: expected a comma-separated list of %s",
				                  k->section, k->name, v, list);
		}
		*(unsigned *)(base + k->off) = mask;
		return 0;
	}
	case K_PRESET:
		if (!strcmp(k->name, "preset") && !strcmp(k->section, "model")) {
			const struct calc_model *m = calc_preset_model(v);
			if (!m) {
				calc_suggest_init(&sg, v);
				list_presets(list, sizeof list, 0, &sg);
				return calc_error_id(d, CALC_M_UNKNOWN_PRESET, e->file, e->line, "model.preset = %s is not a model preset (allowed: %s)%s", v, list, calc_suggest_text(&sg, dym, sizeof dym));
			}
			p->model = *m;
			/* a preset that names its head width keeps it (Qwen3: 128 heads' width against
			 * hidden / heads = 64), as an imported config.json does */
			p->head_dim_auto = m->head_dim == 0;
			p->hf_config[0] = 0;
			return 0;
		}
		if (!strcmp(k->name, "hf_config")) {
			char path[2 * CALC_PATH_MAX + 1024];
			/* relative to the plan file's folder */
			if (v[0] != '/' && (e->src == 1 || e->src >= 3) && strchr(e->file, '/'))
				snprintf(path, sizeof path, "%.*s/%s", (int)(strrchr(e->file, '/') - e->file), e->file, v);
			else
				snprintf(path, sizeof path, "%s", v);
			if (strlen(path) >= sizeof p->hf_config)
				return calc_error_id(d, CALC_M_TOO_LONG, e->file, e->line, "model.hf_config path is too long (at most %d bytes)",
				                  CALC_PATH_MAX - 1);
			if (calc_model_from_hf(&p->model, path, d) < 0)
				return -1;
			memcpy(p->hf_config, path, strlen(path) + 1);
			p->head_dim_auto = p->model.head_dim == 0;
			return 0;
		}
		if (!strcmp(k->name, "preset")) {
			const struct calc_cluster_preset *c = calc_preset_cluster(v);
			if (!c) {
				calc_suggest_init(&sg, v);
				list_presets(list, sizeof list, 2, &sg);
				return calc_error_id(d, CALC_M_UNKNOWN_PRESET, e->file, e->line, "cluster.preset = %s is not a cluster preset (allowed: %s)%s", v,
				                  list, calc_suggest_text(&sg, dym, sizeof dym));
			}
			apply_cluster(p, c);
			return 0;
		}
		if (!strcmp(k->name, "gpu")) {
			const struct calc_gpu *g = calc_preset_gpu(v);
			if (!g) {
				calc_suggest_init(&sg, v);
				list_presets(list, sizeof list, 1, &sg);
				return calc_error_id(d, CALC_M_UNKNOWN_PRESET, e->file, e->line, "cluster.gpu = %s is not a GPU preset (allowed: %s)%s", v, list, calc_suggest_text(&sg, dym, sizeof dym));
			}
			apply_gpu(p, g);
			return 0;
		}
		if (!strcmp(k->name, "stack")) {
			const struct calc_stack *st = calc_stack_find(v);
			if (!st) {
				calc_suggest_init(&sg, v);
				list_presets(list, sizeof list, 4, &sg);
				return calc_error_id(d, CALC_M_UNKNOWN_PRESET, e->file, e->line, "efficiency.stack = %s is not a stack preset (allowed: %s)%s", v,
				                  list, calc_suggest_text(&sg, dym, sizeof dym));
			}
			p->stack = st;
			return 0;
		}
		if (!strcmp(k->name, "recipe")) {
			const struct calc_recipe *r = calc_recipe_find(v);
			if (!r) {
				calc_suggest_init(&sg, v);
				list_presets(list, sizeof list, 3, &sg);
				return calc_error_id(d, CALC_M_NOT_ALLOWED, e->file, e->line, "training.recipe = %s is not a recipe (allowed: %s)%s", v, list, calc_suggest_text(&sg, dym, sizeof dym));
			}
			p->recipe = r;
			snprintf(p->recipe_name, sizeof p->recipe_name, "%s", r->name);
			return 0;
		}
		break;
	}
	return 0;
}

static int is_phase0(int k)
{
	return keys[k].type == K_PRESET && strcmp(keys[k].name, "recipe");
}

/* A stack's knobs (stacks.c) on every key the plan file and the overrides left unset:
 * they replace the built-in defaults, never what the user wrote. */
static int apply_stack(struct calc_plan *p, struct calc_diag *d)
{
	int rc = 0;
	if (!p->stack)
		return 0;
	for (int i = 0; i < 12 && p->stack->knobs[i]; i++) {
		const char *kv = p->stack->knobs[i], *eq = strchr(kv, '=');
		char sec[32], name[64];
		const char *dot = strchr(kv, '.');
		struct entry e;
		if (!eq || !dot || dot > eq)
			continue;
		snprintf(sec, sizeof sec, "%.*s", (int)(dot - kv), kv);
		snprintf(name, sizeof name, "%.*s", (int)(eq - dot - 1), dot + 1);
		e.key = key_index(sec, name);
		if (e.key < 0)
			continue;
		if (p->key_src[e.key] > 0) { /* the plan's own value (a later --set included) */
			p->key_stack[e.key] = 0;
			continue;
		}
		p->key_stack[e.key] = 1;
		snprintf(e.value, sizeof e.value, "%s", eq + 1);
		e.file = "efficiency.stack";
		e.line = 0;
		e.src = 0;
		if (apply(p, &e, d) < 0)
			rc = -1;
	}
	return rc;
}

/* 1 when the preset key 'pk' (model.preset, model.hf_config, cluster.preset,
 * cluster.gpu) sets the plan field of key 'k': a model preset every model field, a
 * GPU preset every GPU field and the usable memory (apply_gpu), a cluster preset those
 * and the node and network fields of apply_cluster. */
static int preset_owns(int pk, int k)
{
	size_t off = keys[k].off;
	int model = off >= P(model) && off < P(model) + sizeof(struct calc_model) && keys[k].type != K_PRESET;
	int gpu = (off >= P(gpu) && off < P(gpu) + sizeof(struct calc_gpu)) || off == P(gpu_memory);
	if (keys[k].type == K_PRESET)
		return 0;
	if (!strcmp(keys[pk].section, "model"))
		return model;
	if (!strcmp(keys[pk].section, "cluster") && !strcmp(keys[pk].name, "gpu"))
		return gpu;
	if (strcmp(keys[pk].section, "cluster") || strcmp(keys[pk].name, "preset"))
		return 0; /* efficiency.stack: its knobs never replace what the user wrote (apply_stack) */
	return gpu || off == P(gpus_per_node) || off == P(intra_node_bw) || off == P(intra_node_busbw) ||
	       off == P(inter_node_bw) || off == P(intra_node_latency) || off == P(inter_node_latency) ||
	       off == P(gpu_hour_cost);
}

/* 1 when entry 'e' of the built-in default plan sets a field that a preset the user
 * wrote (plan file, include or --set) also sets: the preset's value stands, so that a
 * key the user did not write never changes what a preset means (cluster.preset =
 * gb200-nvl72 keeps its 72 GPUs per NVLink domain against the default plan's
 * gpus_per_node = 8).  A key the user wrote wins over the preset (phase 1). */
static int default_under_user_preset(const struct entries *es, const struct entry *e)
{
	if (e->src != 0)
		return 0;
	for (int i = 0; i < es->n; i++)
		if (es->e[i].src != 0 && is_phase0(es->e[i].key) && preset_owns(es->e[i].key, e->key))
			return 1;
	return 0;
}

/* 1 when key 'k' is one of the parallel degrees that make up a split. */
static int split_key(int k)
{
	static const char *const names[] = {"tp", "pp", "dp", "cp", "vpp", "ep", "etp", "layers_per_stage", NULL};
	if (k < 0 || strcmp(keys[k].section, "parallel"))
		return 0;
	for (int i = 0; names[i]; i++)
		if (!strcmp(keys[k].name, names[i]))
			return 1;
	return 0;
}

/* The default plan's split (8 x 8 x 8 of dense-100b on 512 H100) belongs to its own
 * model and cluster: a plan that names another model or cluster (a [model] or [cluster]
 * key the user wrote) keeps it only where it is valid there (calc_plan_load tries it
 * first), so that a key the user did not write never refuses the plan.  Otherwise it is
 * left out, and the degrees the user leaves unset are Megatron-LM's argument
 * defaults, --tensor-model-parallel-size, --pipeline-model-parallel-size and
 * --context-parallel-size 1 and dp = the GPUs left (megatron/training/arguments.py),
 * and a plan that sets none of them has its split derived by the planner
 * (calc_plan_pick_split, split_unset). */
static int default_split_dropped(const struct entries *es, const struct entry *e, int *user_split)
{
	int own = 0;
	*user_split = 0;
	for (int i = 0; i < es->n; i++)
		if (es->e[i].src != 0) {
			if (es->e[i].key >= 0 && (!strcmp(keys[es->e[i].key].section, "model") ||
			                          !strcmp(keys[es->e[i].key].section, "cluster")))
				own = 1;
			if (split_key(es->e[i].key))
				*user_split = 1;
		}
	return own && (!e || (e->src == 0 && split_key(e->key)));
}

/* cluster.gpus: the nodes it takes at the plan's GPUs per node; fewer GPUs than one
 * node are part of one node (its NVLink domain is then that many GPUs).  A count that
 * is not a multiple of the node is left to calc_plan_validate, which says so. */
static void apply_gpus(struct calc_plan *p)
{
	int kn = key_index("cluster", "nodes");
	if (p->gpus_total <= 0 || p->gpus_per_node <= 0 || (kn >= 0 && p->key_src[kn] != 0))
		return; /* nodes the user wrote stay: calc_plan_validate compares the two */
	if (p->gpus_total < p->gpus_per_node) {
		p->gpus_per_node = p->gpus_total;
		p->nodes = 1;
	} else if (p->gpus_total % p->gpus_per_node == 0)
		p->nodes = p->gpus_total / p->gpus_per_node;
}

/* Apply entries: presets first (in order), then everything else; an entry of the
 * default plan that a preset the user wrote overrides is left out, and so is the
 * default plan's split under a model or cluster of the user's (default_split_dropped). */
static int apply_all(struct calc_plan *p, const struct entries *es, int drop_split, struct calc_diag *d)
{
	int rc = 0, user_split = 0;
	if (drop_split && default_split_dropped(es, NULL, &user_split)) {
		p->tp = p->pp = p->cp = p->vpp = 1;
		p->dp = 0;
		p->dp_auto = 1;
		p->split_unset = !user_split;
	}
	for (int phase = 0; phase < 2; phase++)
		for (int i = 0; i < es->n; i++) {
			const struct entry *e = &es->e[i];
			int us;
			if (is_phase0(e->key) != (phase == 0))
				continue;
			if (phase == 1 && default_under_user_preset(es, e))
				continue;
			if (phase == 1 && drop_split && default_split_dropped(es, e, &us))
				continue;
			if (apply(p, e, d) < 0)
				rc = -1;
			p->key_line[e->key] = e->line;
			p->key_src[e->key] = e->src;
		}
	if (apply_stack(p, d) < 0)
		rc = -1;
	apply_gpus(p);
	return rc;
}

/* ======================================================================== */
/* Derived values and validation                                             */
/* ======================================================================== */

/* 1 when the model or the cluster differs from the default plan's: a key of
 * [model] or [cluster] set by the plan file, an include or an override. */
static int hardware_or_model_set(const struct calc_plan *p)
{
	for (int i = 0; i < NKEYS; i++)
		if (p->key_src[i] != 0 && (!strcmp(keys[i].section, "model") || !strcmp(keys[i].section, "cluster")))
			return 1;
	return 0;
}

/* The [plan] title and date belong to the plan that states them.  A plan that
 * leaves them unset (the default plan's then stand in, key_src 0) is titled after
 * its own model and cluster, "Training llama3-70b on 64 nodes of 8 H100 SXM5 80 GB",
 * and dated "" (the report takes SOURCE_DATE_EPOCH or today).  The default plan
 * itself, without a plan file and with its model and cluster, keeps both. */
static void derive_title(struct calc_plan *p)
{
	int kt = key_index("plan", "title"), kd = key_index("plan", "date");
	int own = strcmp(p->file, DEFAULT_FILE) != 0 || hardware_or_model_set(p);
	if (!own)
		return;
	if (kd >= 0 && p->key_src[kd] == 0)
		p->date[0] = 0;
	if (kt < 0 || p->key_src[kt] != 0)
		return;
	const char *gpu = p->gpu.title && *p->gpu.title ? p->gpu.title : p->gpu.name;
	if (!strncmp(gpu, "NVIDIA ", 7))
		gpu += 7;
	char model[CALC_NAME_MAX + 32];
	if (p->model.name[0])
		snprintf(model, sizeof model, "%s", p->model.name);
	else
		snprintf(model, sizeof model, "a %d-layer transformer", p->model.layers);
	int n = snprintf(p->title, sizeof p->title, "Training %s on %d node%s of %d %s", model, p->nodes,
	                 p->nodes == 1 ? "" : "s", p->gpus_per_node, gpu);
	if (n < 0 || (size_t)n >= sizeof p->title) /* cut at a whole word */
		for (char *s = p->title + sizeof p->title - 1; s > p->title; s--)
			if (*s == ' ') {
				*s = 0;
				break;
			}
}

/* The chunks per stage the plan's schedule runs: vpp with a schedule that has virtual
 * stages, else 1. */
static int plan_chunks(const struct calc_plan *p)
{
	const struct calc_sched *row = calc_schedule_at((int)p->schedule);
	return row && row->uses_vpp && p->vpp > 0 ? p->vpp : 1;
}

static void derive(struct calc_plan *p)
{
	int gpus = calc_plan_gpus(p);
	derive_title(p);
	/* the recipe's bytes with the gradients of training.main_grads (recipe.c) */
	if (p->recipe)
		p->recipe = calc_recipe_grads(p->recipe, p->main_grads);
	if (p->head_dim_auto && p->model.heads > 0)
		p->model.head_dim = p->model.hidden / p->model.heads;
	if (p->model.kv_heads <= 0)
		p->model.kv_heads = p->model.heads;
	/* model.hybrid_pattern: the layer sequence from the pattern (a bad one is refused by
	 * calc_plan_validate with the reason); Megatron-Core MambaMixer's defaults d_conv = 4,
	 * chunk_size = 128 (mamba_mixer.py at d98e8a64dd) where the plan leaves them 0 */
	if (p->model.hybrid[0]) {
		char msg[256];
		if (p->model.mamba.conv <= 0)
			p->model.mamba.conv = 4;
		if (p->model.mamba.chunk <= 0)
			p->model.mamba.chunk = 128;
		/* gated delta-net: Qwen3-Next's linear_conv_kernel_dim = 4 (config.json) and
		 * FLA's chunk_gated_delta_rule chunk of 64 tokens
		 * (fla/ops/gated_delta_rule/chunk.py, prepare_chunk_indices(cu_seqlens, 64)) */
		if (p->model.gdn.conv <= 0)
			p->model.gdn.conv = 4;
		if (p->model.gdn.chunk <= 0)
			p->model.gdn.chunk = 64;
		if (calc_model_set_hybrid(&p->model, msg, sizeof msg) < 0)
			memset(&p->model.seq, 0, sizeof p->model.seq);
	}
	if (p->gpu_memory_auto)
		p->gpu_memory = p->gpu.memory_usable;
	/* efficiencies the plan does not set come from the GPU preset (presets.c) */
	if (p->eff_auto & 1)
		p->gemm_eff = p->gpu.gemm_eff > 0 ? p->gpu.gemm_eff : 0.75;
	if (p->eff_auto & 2)
		p->attn_eff = p->gpu.attn_eff > 0 ? p->gpu.attn_eff : 0.50;
	/* the FP8 GEMMs' share: the GPU preset's own, unless the plan sets efficiency.gemm
	 * alone, which then holds for every GEMM (as before there were two) */
	if (p->eff_auto & 4)
		p->gemm_eff_fp8 = (p->eff_auto & 1) ? p->gpu.gemm_eff_fp8 : 0;
	if (p->dp_auto && p->tp > 0 && p->pp > 0 && p->cp > 0) {
		long long model = (long long)p->tp * p->pp * p->cp; /* up to 2^32: not an int */
		p->dp = gpus / model > 0 ? (int)(gpus / model) : 1;
	}
	/* FSDP's FULL_SHARD is ZeRO-3: weights, gradients and optimizer states sharded */
	if (p->fsdp)
		p->zero = 3;
	p->edp = 1;
	if (p->ep > 0 && p->etp > 0 && (long long)p->tp * p->cp * p->dp % ((long long)p->ep * p->etp) == 0)
		p->edp = (int)((long long)p->tp * p->cp * p->dp / ((long long)p->ep * p->etp));
	/* the split rule fills the stages; a split it refuses (validation says why) is
	 * filled remainder-first so that no stage is left undefined */
	if (!p->uneven_stages && p->pp > 0 &&
	    calc_layers_split(p->model.layers, p->pp, p->split, p->layers_per_stage, NULL) < 0)
		for (int i = 0; i < p->pp && i < CALC_MAX_STAGES; i++)
			p->layers_per_stage[i] = p->model.layers / p->pp + (i < p->model.layers % p->pp);
	/* Megatron-Core's layout keys place the layers chunk by chunk (model.c); one that
	 * cannot is refused by validate_layout with the reason */
	p->chunks.n = 0;
	if (calc_plan_has_layout(p) && !p->uneven_stages && p->pp > 0) {
		char msg[512];
		const char *key;
		calc_plan_chunk(p, plan_chunks(p), msg, sizeof msg, &key);
	}
}

/* Where a key was set: file and line for messages. */
static const char *key_file(const struct calc_plan *p, int k, int *line)
{
	if (k < 0) {
		*line = 0;
		return p->file;
	}
	*line = p->key_line[k];
	switch (p->key_src[k]) {
	case 0: return p->key_line[k] ? DEFAULT_FILE : p->file;
	case 1: return p->file;
	case 2: *line = 0; return p->set_origin[0] ? p->set_origin : "--set";
	default: return p->key_src[k] - 3 < p->nincludes ? p->includes[p->key_src[k] - 3] : p->file;
	}
}

const char *calc_plan_key_origin(const struct calc_plan *p, const char *section, const char *name, int *line)
{
	return key_file(p, key_index(section, name), line);
}

const char *calc_plan_key_source(const struct calc_plan *p, const char *section, const char *name)
{
	int k = key_index(section, name);
	if (k < 0)
		return NULL;
	if (p->key_src[k] == 2)
		return "override";
	if (p->key_src[k] != 0)
		return "plan";
	return p->key_stack[k] ? "stack" : "default";
}

#define KEYI(sec, name) key_index_named(sec, name)

/* Of several keys, the one set last by the user (override > plan file > default),
 * so that a message about their combination points where the user changed it. */
static int latest_key(const struct calc_plan *p, const char *const *names)
{
	/* rank: override 3 > plan file 2 > an included file 1 > default 0 */
	static const int rank[] = {0, 2, 3};
#define RANK(k) (p->key_src[k] < 3 ? rank[p->key_src[k]] : 1)
	int best = -1;
	for (int i = 0; names[i]; i++) {
		/* "section.name", or a bare name of [parallel] */
		const char *dot = strchr(names[i], '.');
		char sec[32];
		snprintf(sec, sizeof sec, "%.*s", dot ? (int)(dot - names[i]) : 8, dot ? names[i] : "parallel");
		int k = key_index(sec, dot ? dot + 1 : names[i]);
		if (k < 0)
			continue;
		if (best < 0 || RANK(k) > RANK(best) || (RANK(k) == RANK(best) && p->key_line[k] > p->key_line[best]))
			best = k;
#undef RANK
	}
	return best;
}

const char *calc_plan_keys_origin(const struct calc_plan *p, const char *keys, int *line)
{
	const char *names[9];
	char buf[256], *save = NULL;
	int n = 0;
	snprintf(buf, sizeof buf, "%s", keys ? keys : "");
	for (char *t = strtok_r(buf, " ", &save); t && n < 8; t = strtok_r(NULL, " ", &save))
		names[n++] = t;
	names[n] = NULL;
	return key_file(p, latest_key(p, names), line);
}

static void divisors(int n, char *buf, size_t cap)
{
	buf[0] = 0;
	for (int i = 1, c = 0; i <= n && c < 16; i++)
		if (n % i == 0) {
			snprintf(buf + strlen(buf), cap - strlen(buf), "%s%d", c ? " " : "", i);
			c++;
		}
	if (strlen(buf) + 5 < cap && n > 1) {
		int c = 0;
		for (int i = 1; i <= n; i++)
			c += n % i == 0;
		if (c > 16)
			strcat(buf, " ...");
	}
}

/* 1 when the plan names its layer split (parallel.split set in a plan file, the
 * default plan or an override). */
static int split_named(const struct calc_plan *p)
{
	int k = key_index("parallel", "split");
	return k >= 0 && (p->key_line[k] || p->key_src[k]);
}

/* 1 when every layer of 'm' is an MoE layer (model.ffn_hidden is then not used). */
static int moe_only(const struct calc_model *m)
{
	struct calc_layer_kind kd;
	for (int k = 0; k < calc_model_nkinds(m); k++) {
		calc_model_kind(m, k, &kd);
		switch (kd.type) { /* every kind: -Werror=switch fails the build on a new one */
		case CALC_LAYER_DENSE:
		case CALC_LAYER_MLP:
			return 0;
		case CALC_LAYER_MOE:
		case CALC_LAYER_EXPERTS:
		case CALC_LAYER_MAMBA:
		case CALC_LAYER_GDN:
		case CALC_LAYER_MAMBA1:
		case CALC_LAYER_ATTN:
			break;
		}
	}
	return 1;
}

/* The MoE, MLA and expert-parallel rules (Megatron-Core parallel folding: the experts
 * of a stage use etp x ep x edp of its tp x cp x dp GPUs). */
#define ERR(sec, key, ...) (f = key_file(p, KEYI(sec, key), &line), calc_error_id(d, CALC_M_KEY_RULE, f, line, __VA_ARGS__))
static void validate_moe(const struct calc_plan *p, struct calc_diag *d)
{
	const struct calc_model *m = &p->model;
	const struct calc_moe *e = &m->moe;
	const struct calc_mla *x = &m->mla;
	long long attn = (long long)p->tp * p->cp * p->dp;
	const char *f;
	int line;
	char dv[160];

	if (e->experts > 0) {
		if (e->top_k < 1 || e->top_k > e->experts)
			ERR("model", "top_k", "model.top_k = %d: a token goes to 1 .. model.experts = %d routed experts",
			    e->top_k, e->experts);
		if (e->expert_ffn < 1)
			ERR("model", "expert_ffn", "model.expert_ffn is not set: give the width of one routed expert "
			    "(1 .. 1e+08)");
		if (e->first_dense >= m->layers && m->layers > 0)
			ERR("model", "first_dense", "model.first_dense = %d leaves no MoE layer of model.layers = %d "
			    "(allowed: 0 .. %d)", e->first_dense, m->layers, m->layers - 1);
		if (e->experts % p->ep)
			ERR("parallel", "ep", "parallel.ep = %d does not divide model.experts = %d (allowed: %s)", p->ep,
			    e->experts, (divisors(e->experts, dv, sizeof dv), dv));
		else if (attn % ((long long)p->ep * p->etp))
			ERR("parallel", "ep", "parallel.ep x etp = %d x %d does not divide tp x cp x dp = %lld, the GPUs "
			    "of a stage the experts are folded onto", p->ep, p->etp, attn);
		else if (!calc_placement_pp_agrees(p->placement, p->tp, p->cp, p->dp, p->pp, p->ep, p->etp))
			ERR("parallel", "placement", "parallel.placement = %s gives the expert layers (etp %d x ep %d) other "
			    "pipeline groups than the dense layers (tp %d x cp %d): Megatron-Core requires the same "
			    "(allowed: an order ending in pp, or etp x ep = tp x cp)", p->placement, p->etp, p->ep, p->tp,
			    p->cp);
		if (e->expert_ffn > 0 && e->expert_ffn % p->etp)
			ERR("parallel", "etp", "parallel.etp = %d does not divide model.expert_ffn = %d (allowed: %s)",
			    p->etp, e->expert_ffn, (divisors(e->expert_ffn, dv, sizeof dv), dv));
		/* Megatron-Core refuses padding to the capacity with DeepEP
		 * (transformer_config.py at commit d98e8a6, __post_init__: "moe_pad_expert_input_to_capacity"
		 * with the deepep flex backend), and model.capacity_factor here is padding */
		if (e->capacity > 0 && p->moe_dispatcher == CALC_DISP_DEEPEP)
			ERR("moe", "dispatcher", "moe.dispatcher = deepep with model.capacity_factor = %g: DeepEP does not "
			    "pad the experts' inputs to a capacity (allowed: capacity_factor = 0, or dispatcher alltoall, "
			    "allgather or hybridep)", e->capacity);
	} else {
		if (e->top_k > 0 || e->expert_ffn > 0 || e->shared > 0)
			ERR("model", "experts", "model.top_k, expert_ffn and shared_experts need model.experts "
			    "(routed experts, 1 .. 65536)");
		if (p->ep > 1 || p->etp > 1)
			ERR("parallel", "ep", "parallel.ep = %d, etp = %d: a dense model has no experts to split "
			    "(allowed: 1)", p->ep, p->etp);
	}
	if (p->overlap_ep_comm) {
		/* the conditions Megatron-Core puts on overlap_moe_expert_parallel_comm
		 * (megatron/core/transformer/transformer_config.py at commit d98e8a6, __post_init__) */
		unsigned rcm = calc_recompute_modules(p->recompute, p->recompute_modules);
		if (e->experts <= 0 || p->ep <= 1)
			ERR("moe", "overlap_ep_comm", "moe.overlap_ep_comm = yes needs expert parallelism (parallel.ep = %d; "
			    "allowed: ep >= 2 on an MoE model, or overlap_ep_comm = no)", p->ep);
		else if (p->moe_dispatcher == CALC_DISP_ALLGATHER)
			ERR("moe", "overlap_ep_comm", "moe.overlap_ep_comm = yes with moe.dispatcher = allgather: the overlap "
			    "runs with the alltoall, deepep or hybridep dispatchers only");
		else if (p->recompute == CALC_RC_FULL)
			ERR("moe", "overlap_ep_comm", "moe.overlap_ep_comm = yes with parallel.recompute = full: the overlap "
			    "runs without full recomputation (allowed: none, selective, modules without moe)");
		else if (rcm & CALC_RCM_MOE)
			ERR("moe", "overlap_ep_comm", "moe.overlap_ep_comm = yes with the moe module recomputed: the overlap "
			    "runs without it (allowed: recompute_modules without moe)");
		else if (p->pp > 1 && p->schedule != CALC_SCHED_INTERLEAVED)
			ERR("moe", "overlap_ep_comm", "moe.overlap_ep_comm = yes with parallel.pp = %d needs the interleaved "
			    "schedule with virtual stages (allowed: pp = 1, or schedule = interleaved)", p->pp);
	}
	if (x->kv_lora_rank > 0) {
		const char *miss = x->qk_rope_dim < 1 ? "qk_rope_dim" : x->qk_nope_dim < 1 ? "qk_nope_dim"
		                 : x->v_head_dim < 1 ? "v_head_dim" : NULL;
		if (miss)
			ERR("model", miss, "model.%s is not set: MLA (model.kv_lora_rank = %d) needs qk_rope_dim, "
			    "qk_nope_dim and v_head_dim (each 1 .. 100000)", miss, x->kv_lora_rank);
	} else if (x->q_lora_rank > 0 || x->qk_rope_dim > 0 || x->qk_nope_dim > 0 || x->v_head_dim > 0)
		ERR("model", "kv_lora_rank", "model.q_lora_rank, qk_rope_dim, qk_nope_dim and v_head_dim need "
		    "model.kv_lora_rank (MLA, 1 .. 1e+06)");
}
#undef ERR

/* model.hybrid_pattern (Megatron-Core's hybrid models, megatron/core/ssm/): the pattern,
 * its length against model.layers, the Mamba-2 shape and what a hybrid model is not
 * costed with. */
#define ERR(sec, key, ...) (f = key_file(p, KEYI(sec, key), &line), calc_error_id(d, CALC_M_KEY_RULE, f, line, __VA_ARGS__))
#define ERR2(k1, k2, ...)                                                                      \
	do {                                                                                   \
		static const char *const ks_[] = {k1, k2, NULL};                                 \
		f = key_file(p, latest_key(p, ks_), &line);                                    \
		calc_error_id(d, CALC_M_KEY_RULE, f, line, __VA_ARGS__);                        \
	} while (0)
static void validate_hybrid(const struct calc_plan *p, struct calc_diag *d)
{
	const struct calc_model *m = &p->model;
	const struct calc_mamba *x = &m->mamba;
	const struct calc_gdn *gd = &m->gdn;
	struct calc_model c = *m;
	char msg[CALC_LAYOUT_MAX + 256], dv[160];
	const char *f;
	int line, n = calc_model_set_hybrid(&c, msg, sizeof msg), count[CALC_MAX_KINDS], mamba = 0, moe = 0, gdn = 0,
	    mamba1 = 0;

	if (n < 0) { /* the pattern itself (E021); the checks below are rules between keys (E017) */
		f = key_file(p, KEYI("model", "hybrid_pattern"), &line);
		calc_error_id(d, CALC_M_HYBRID_PATTERN, f, line, "%s", msg);
		return;
	}
	if (n != m->layers) {
		ERR2("model.hybrid_pattern", "model.layers", "model.hybrid_pattern has %d layers but model.layers = %d "
		     "(allowed: model.layers = the pattern's length, as Megatron-Core asserts)", n, m->layers);
		return;
	}
	calc_model_kind_counts(m, count);
	for (int k = 0; k < calc_model_nkinds(m); k++) {
		struct calc_layer_kind kd;
		calc_model_kind(m, k, &kd);
		if (kd.type == CALC_LAYER_MAMBA && count[k] > 0)
			mamba = 1;
		if (kd.type == CALC_LAYER_EXPERTS && count[k] > 0)
			moe = 1;
		if (kd.type == CALC_LAYER_GDN && count[k] > 0)
			gdn = 1;
		if (kd.type == CALC_LAYER_MAMBA1 && count[k] > 0)
			mamba1 = 1;
	}
	/* Mamba-1 (S): no framework source splits it over TP or CP -- Megatron-Core's
	 * hybrid models run Mamba-2 alone (megatron/core/ssm/mamba_mixer.py), and
	 * mamba_simple.py's x_proj reduces over all d_inner channels, which a TP split of
	 * d_inner would have to all-reduce -- so both are refused rather than costed */
	if (mamba1 && (m->mamba1.inner <= 0 || m->mamba1.state <= 0 || m->mamba1.dt_rank <= 0 || m->mamba1.conv <= 0))
		ERR("model", "hybrid_pattern", "model.hybrid_pattern has Mamba-1 layers (S) but their shape is not set: "
		    "model.mamba1_inner = %d, mamba1_state = %d, mamba1_dt_rank = %d, mamba1_conv = %d (allowed: each at "
		    "least 1)", m->mamba1.inner, m->mamba1.state, m->mamba1.dt_rank, m->mamba1.conv);
	if (mamba1 && p->tp > 1)
		ERR2("tp", "model.hybrid_pattern", "parallel.tp = %d with Mamba-1 layers (S) in model.hybrid_pattern: "
		     "tensor parallelism of a Mamba-1 mixer is not modelled, no framework source splits it (allowed: "
		     "tp = 1)", p->tp);
	if (mamba1 && p->cp > 1)
		ERR2("cp", "model.hybrid_pattern", "parallel.cp = %d with Mamba-1 layers (S) in model.hybrid_pattern: "
		     "context parallelism of a Mamba-1 mixer is not modelled, no framework source splits its scan over "
		     "ranks (allowed: cp = 1)", p->cp);
	/* GatedDeltaNet (gated_delta_net.py at e867835174): q and k repeated from H_k to
	 * H_v heads (num_value_heads // num_key_heads), every dimension split over TP */
	if (gdn && (gd->key_heads <= 0 || gd->value_heads <= 0 || gd->key_dim <= 0 || gd->value_dim <= 0))
		ERR("model", "hybrid_pattern", "model.hybrid_pattern has gated delta-net layers (G) but their shape is not "
		    "set: model.gdn_key_heads = %d, gdn_value_heads = %d, gdn_key_dim = %d, gdn_value_dim = %d (allowed: "
		    "each at least 1)", gd->key_heads, gd->value_heads, gd->key_dim, gd->value_dim);
	else if (gdn && gd->value_heads % gd->key_heads)
		ERR2("model.gdn_key_heads", "model.gdn_value_heads", "model.gdn_key_heads = %d does not divide "
		     "model.gdn_value_heads = %d (allowed: value heads a multiple of key heads, as GatedDeltaNet repeats "
		     "q and k to the value heads)", gd->key_heads, gd->value_heads);
	else if (gdn && p->tp > 0 && (gd->key_heads % p->tp || gd->value_heads % p->tp))
		ERR2("tp", "model.gdn_key_heads", "parallel.tp = %d must divide model.gdn_key_heads = %d and "
		     "model.gdn_value_heads = %d (GatedDeltaNet splits its heads over TP)", p->tp, gd->key_heads,
		     gd->value_heads);
	if (mamba && (x->heads <= 0 || x->head_dim <= 0 || x->state <= 0 || x->groups <= 0))
		ERR("model", "hybrid_pattern", "model.hybrid_pattern has Mamba layers (M) but the Mamba-2 shape is not "
		    "set: model.mamba_heads = %d, mamba_head_dim = %d, mamba_state = %d, mamba_groups = %d (allowed: each "
		    "at least 1)", x->heads, x->head_dim, x->state, x->groups);
	else if (mamba && x->heads % x->groups)
		ERR2("model.mamba_groups", "model.mamba_heads", "model.mamba_groups = %d does not divide model.mamba_heads "
		     "= %d (Megatron-Core MambaMixer: nheads must be evenly divisible by ngroups)", x->groups, x->heads);
	else if (mamba && p->tp > 0 && (x->heads % p->tp || x->groups % p->tp))
		ERR2("tp", "model.mamba_groups", "parallel.tp = %d must divide model.mamba_heads = %d and model.mamba_groups "
		     "= %d (Megatron-Core MambaMixer splits heads and groups over TP)", p->tp, x->heads, x->groups);
	/* CP of a hybrid model: Megatron-Core's MambaContextParallel (mamba_context_parallel.py
	 * lines 103-132 at d98e8a64dd; comm.c cp_hybrid, docs/references.md §4.11) */
	if (p->cp > 1 && mamba && x->heads > 0 && x->groups > 0 && (p->tp <= 0 || (x->heads % p->tp == 0 && x->groups % p->tp == 0)) &&
	    !calc_cp_mamba_ok(m, p->tp, p->cp)) {
		int t = p->tp > 0 ? p->tp : 1, hl = x->heads / t, gl = x->groups / t;
		if (hl % p->cp)
			ERR2("cp", "model.mamba_heads", "parallel.cp = %d must divide the Mamba heads of a TP rank, "
			     "model.mamba_heads / tp = %d / %d = %d (Megatron-Core MambaContextParallel: nheads must be evenly "
			     "divisible by tp_size * cp_size; allowed: %s)", p->cp, x->heads, t, hl,
			     (divisors(hl, dv, sizeof dv), dv));
		else
			ERR2("cp", "model.mamba_groups", "parallel.cp = %d and the Mamba groups of a TP rank, "
			     "model.mamba_groups / tp = %d / %d = %d: one must divide the other (Megatron-Core "
			     "MambaContextParallel shards the groups over CP or repeats each to cp / groups ranks; allowed: "
			     "a cp that divides %d or is a multiple of it, and divides the %d heads of a TP rank)", p->cp,
			     x->groups, t, gl, gl, hl);
	}
	/* gated delta-net's CP (gated_delta_net/gdn.py lines 51-64 and common.py lines 421,
	 * 627-632 at d98e8a64dd; comm.c cp_hybrid, docs/references.md §4.11) */
	if (p->cp > 1 && gdn && gd->key_heads > 0 && gd->value_heads > 0 && gd->value_heads % gd->key_heads == 0 &&
	    (p->tp <= 0 || (gd->key_heads % p->tp == 0 && gd->value_heads % p->tp == 0)) && !calc_cp_gdn_ok(m, p->tp, p->cp)) {
		int t = p->tp > 0 ? p->tp : 1;
		ERR2("cp", "model.gdn_key_heads", "parallel.cp = %d must divide the gated delta-net key and value heads of a "
		     "TP rank, model.gdn_key_heads / tp = %d and model.gdn_value_heads / tp = %d (Megatron-Core's GDN "
		     "all-to-all splits each in_proj section and the key heads over CP; allowed: %s)", p->cp,
		     gd->key_heads / t, gd->value_heads / t, (divisors(gd->key_heads / t, dv, sizeof dv), dv));
	}
	if (moe && m->moe.experts <= 0)
		ERR2("model.experts", "model.hybrid_pattern", "model.hybrid_pattern has MoE layers (E) but model.experts = 0 "
		     "(allowed: the routed experts of each, at least 1)");
	else if (!moe && m->moe.experts > 0)
		ERR2("model.experts", "model.hybrid_pattern", "model.experts = %d but model.hybrid_pattern has no MoE layer "
		     "(E) to hold them (allowed: 0, or E layers in the pattern)", m->moe.experts);
	else if (m->moe.every > 1)
		ERR2("model.moe_every", "model.hybrid_pattern", "model.moe_every = %d with model.hybrid_pattern: the "
		     "pattern places the MoE layers (E) (allowed: 0, 1)", m->moe.every);
	else if (m->moe.first_dense > 0)
		ERR2("model.first_dense", "model.hybrid_pattern", "model.first_dense = %d with model.hybrid_pattern: the "
		     "pattern places the MoE layers (E) (allowed: 0)", m->moe.first_dense);
	/* Megatron-Core's hybrid MTP runs a layer pattern of its own at each depth
	 * (megatron/core/models/hybrid/hybrid_model.py at d98e8a6: "<main>/<mtp>/<mtp>"), not
	 * the one block of the main model's last kind the plan's MTP is (DeepSeek-V3 §2.2) */
	if (m->mtp_depth > 0)
		ERR2("model.mtp_depth", "model.hybrid_pattern", "model.mtp_depth = %d with model.hybrid_pattern is not "
		     "modelled: Megatron-Core's hybrid MTP runs a layer pattern of its own at each depth, which the "
		     "plan's one-block MTP does not hold (allowed: model.mtp_depth = 0 on a hybrid model)", m->mtp_depth);
	else if (m->window > 0 || m->mla.kv_lora_rank > 0 || m->attn_chunk > 0)
		ERR("model", "hybrid_pattern", "model.hybrid_pattern with %s is not modelled (allowed: a hybrid model "
		    "with plain attention, no MTP)", m->window > 0 ? "model.sliding_window" :
		    m->mla.kv_lora_rank > 0 ? "MLA (model.kv_lora_rank)" : m->mtp_depth > 0 ? "model.mtp_depth" :
		    "chunked attention");
	if (p->recompute == CALC_RC_OP_SAC)
		ERR2("recompute", "model.hybrid_pattern", "parallel.recompute = op-sac with model.hybrid_pattern: "
		     "torchtitan's op-level checkpointing of a hybrid model is not modelled (allowed: none, selective, "
		     "full, modules)");
}
#undef ERR
#undef ERR2

int calc_plan_validate(const struct calc_plan *p, struct calc_diag *d)
{
	int before = d->nerrors, line, gpus = calc_plan_gpus(p), hq_ = 0, hkv_ = 0;
	const struct calc_model *m = &p->model;
	const char *f;
	char dv[160];

#define ERR(sec, key, ...) (f = key_file(p, KEYI(sec, key), &line), calc_error_id(d, CALC_M_KEY_RULE, f, line, __VA_ARGS__))
	/* a check of two keys points at the one the user set last (latest_key) */
#define ERR2(k1, k2, ...)                                                                      \
	do {                                                                                   \
		static const char *const ks_[] = {k1, k2, NULL};                                 \
		f = key_file(p, latest_key(p, ks_), &line);                                    \
		calc_error_id(d, CALC_M_KEY_RULE, f, line, __VA_ARGS__);                        \
	} while (0)

	if (m->layers <= 0 || m->hidden <= 0 || m->heads <= 0 || m->ffn_hidden <= 0 || m->vocab <= 0)
		ERR("model", "preset", "the model is incomplete (layers = %d, hidden = %d, heads = %d, ffn_hidden = %d, "
		    "vocab = %d): give model.preset, model.hf_config or every model key", m->layers, m->hidden, m->heads,
		    m->ffn_hidden, m->vocab);
	if (m->heads > 0 && m->kv_heads > 0 && m->heads % m->kv_heads)
		ERR2("model.kv_heads", "model.heads", "model.kv_heads = %d does not divide model.heads = %d (allowed: %s)", m->kv_heads,
		    m->heads, (divisors(m->heads, dv, sizeof dv), dv));
	if (p->head_dim_auto && m->heads > 0 && m->hidden % m->heads)
		ERR2("model.heads", "model.hidden", "model.heads = %d does not divide model.hidden = %d; set model.head_dim", m->heads,
		    m->hidden);
	if (p->tp > 0 && m->heads > 0 && m->heads % p->tp)
		ERR2("tp", "model.heads", "parallel.tp = %d does not divide model.heads = %d (allowed: %s)", p->tp, m->heads,
		    (divisors(m->heads, dv, sizeof dv), dv));
	else if (p->tp > 0 && m->kv_heads > 0 && m->kv_heads % p->tp)
		ERR2("tp", "model.kv_heads", "parallel.tp = %d does not divide model.kv_heads = %d (allowed: %s)", p->tp,
		    m->kv_heads, (divisors(m->kv_heads, dv, sizeof dv), dv));
	if (p->tp > 0 && m->ffn_hidden > 0 && m->ffn_hidden % p->tp && !moe_only(m))
		ERR2("tp", "model.ffn_hidden", "parallel.tp = %d does not divide model.ffn_hidden = %d", p->tp, m->ffn_hidden);
	if (p->fsdp_shard > 0 && p->dp > 0 && ((long long)p->dp * (p->cp > 0 ? p->cp : 1)) % p->fsdp_shard)
		ERR("parallel", "hsdp", "parallel.hsdp = %d does not divide the DP x CP ranks = %lld (allowed: %s)",
		    p->fsdp_shard, (long long)p->dp * (p->cp > 0 ? p->cp : 1),
		    (divisors(p->dp * (p->cp > 0 ? p->cp : 1), dv, sizeof dv), dv));
	if (p->fsdp_shard > 0 && !p->fsdp)
		ERR("parallel", "hsdp", "parallel.hsdp = %d needs parallel.fsdp = yes", p->fsdp_shard);
	/* torchao casts a Float8Linear's sharded weight to FP8 before FSDP2's all-gather
	 * (WeightWithDynamicFloat8CastTensor.fsdp_pre_all_gather); torchtitan turns it on only
	 * with FSDP sharding and its Float8 converter (torchtitan/float8.py at 9dec370) */
	if (p->fsdp_fp8_gather && (!p->fsdp || strcmp(p->recipe_name, "torch-mp-fp8")))
		ERR2("parallel.fsdp_fp8_gather", "training.recipe", "parallel.fsdp_fp8_gather = yes gathers torchao's "
		     "Float8Linear weights under FSDP, but %s%s (allowed: parallel.fsdp = yes with training.recipe = "
		     "torch-mp-fp8, or fsdp_fp8_gather = no)", !p->fsdp ? "parallel.fsdp is no" : "training.recipe is ",
		     !p->fsdp ? "" : p->recipe_name);
	/* a published figure is compared only with its source (house rule: every reference
	 * value cites where it comes from) */
	if (p->published_gpu_hours > 0 && !p->published_source[0])
		ERR("plan", "published_gpu_hours", "plan.published_gpu_hours = %.0f needs plan.published_source "
		    "(where the figure is published)", p->published_gpu_hours);
	if (p->published_layout && !p->published_source[0])
		ERR("plan", "published_layout", "plan.published_layout = yes needs plan.published_source "
		    "(the run whose layout the plan states)");
	validate_moe(p, d);
	/* recompute = modules needs its list, and the list needs that mode; mla_up_proj needs
	 * MLA (Megatron-Core's TransformerConfig checks the same) */
	if (p->recompute == CALC_RC_MODULES && !p->recompute_modules)
		ERR2("parallel.recompute", "parallel.recompute_modules", "parallel.recompute = modules needs "
		     "parallel.recompute_modules (a comma-separated list of core_attn, moe_act, layernorm, mla_up_proj, "
		     "mlp, moe, shared_experts)");
	else if (p->recompute != CALC_RC_MODULES && p->recompute_modules)
		ERR2("parallel.recompute_modules", "parallel.recompute", "parallel.recompute_modules is set but "
		     "parallel.recompute = %s (allowed: recompute = modules, or no recompute_modules)",
		     calc_recompute_name(p->recompute));
	else if ((calc_recompute_modules(p->recompute, p->recompute_modules) & CALC_RCM_MLA_UP_PROJ) && m->mla.kv_lora_rank <= 0)
		ERR2("parallel.recompute_modules", "parallel.recompute", "parallel.recompute = %s recomputes mla_up_proj, "
		     "but the model has no MLA (model.kv_lora_rank = 0)", calc_recompute_name(p->recompute));
	/* op-sac models torchtitan's policy on its Llama block (attention with GQA, a dense
	 * MLP): its matmul count is not defined here for MLA or MoE layers */
	if (p->recompute == CALC_RC_OP_SAC && (m->mla.kv_lora_rank > 0 || m->moe.experts > 0))
		ERR2("parallel.recompute", "model.experts", "parallel.recompute = op-sac models dense layers with "
		     "MHA or GQA only, but the model has %s (allowed: none, selective, full, modules, deepseek-v3)",
		     m->moe.experts > 0 ? "MoE layers (model.experts > 0)" : "MLA (model.kv_lora_rank > 0)");
	/* Megatron-LM's --recompute-method and --recompute-num-layers belong to granularity
	 * full, and N lies in 1 .. the layers of a chunk (TransformerConfig.__post_init__:
	 * "recompute_num_layers must be between 1 and num_layers_per_pipeline_rank") */
	if (p->recompute != CALC_RC_FULL && p->recompute_method != CALC_RC_METHOD_UNSET)
		ERR2("parallel.recompute_method", "parallel.recompute", "parallel.recompute_method = %s needs "
		     "parallel.recompute = full, but it is %s (allowed: recompute = full, or recompute_method = none)",
		     rc_method_names[p->recompute_method], calc_recompute_name(p->recompute));
	else if (p->recompute_num_layers > 0 && p->recompute_method == CALC_RC_METHOD_UNSET)
		ERR2("parallel.recompute_num_layers", "parallel.recompute_method", "parallel.recompute_num_layers = %d "
		     "needs parallel.recompute_method = uniform or block (with parallel.recompute = full)",
		     p->recompute_num_layers);
	else if (p->recompute_num_layers > 0 && p->pp > 0 && p->pp <= m->layers && m->layers > 0) {
		int least = m->layers / p->pp, v = p->vpp > 0 ? p->vpp : 1;
		for (int i = 0; i < p->uneven_stages && i < p->pp; i++)
			if (p->layers_per_stage[i] < least)
				least = p->layers_per_stage[i];
		if (p->recompute_num_layers > least / v)
			ERR2("parallel.recompute_num_layers", "pp", "parallel.recompute_num_layers = %d is more than the "
			     "%d layers of a model chunk (%d layers on the smallest stage, vpp = %d; allowed: 1 .. %d)",
			     p->recompute_num_layers, least / v, least, v, least / v);
	}
	/* parallel.grad_buffer = per-chunk frees the unsharded gradients that ZeRO 1 keeps
	 * (memory.c calc_memory_stage_of); ZeRO 2 and 3 and FSDP shard them already, each its
	 * own way (recipe.c, memory.c fsdp_buffers), and ZeRO 0's all-reduce leaves them whole */
	if (p->grad_buffer == 1 && (p->zero != 1 || p->fsdp))
		ERR2("parallel.grad_buffer", "parallel.zero", "parallel.grad_buffer = per-chunk frees the unsharded "
		     "gradients of ZeRO 1, but zero is %d%s (allowed: zero = 1 without parallel.fsdp, or "
		     "grad_buffer = persistent)", p->zero, p->fsdp ? " with parallel.fsdp" : "");
	/* DeepSpeed's partition_activations and cpu_checkpointing act on the checkpoints of
	 * deepspeed.checkpointing.checkpoint, the layer inputs of full recomputation
	 * (deepspeed/runtime/activation_checkpointing/checkpointing.py); the host copies need
	 * the GPU's PCIe bandwidth */
	if (p->recompute != CALC_RC_FULL && p->cpu_checkpointing)
		ERR2("parallel.cpu_checkpointing", "parallel.recompute", "parallel.cpu_checkpointing = yes needs "
		     "parallel.recompute = full, but it is %s (allowed: recompute = full, or cpu_checkpointing = no)",
		     calc_recompute_name(p->recompute));
	else if (p->recompute != CALC_RC_FULL && p->partition_activations)
		ERR2("parallel.partition_activations", "parallel.recompute", "parallel.partition_activations = yes needs "
		     "parallel.recompute = full, but it is %s (allowed: recompute = full, or partition_activations = no)",
		     calc_recompute_name(p->recompute));
	else if (p->cpu_checkpointing && p->gpu.pcie_bw <= 0)
		ERR2("parallel.cpu_checkpointing", "cluster.gpu_pcie_bw", "parallel.cpu_checkpointing = yes needs the host "
		     "link of the GPU (%s), which its preset does not give: set cluster.gpu_pcie_bw (allowed: 1e+06 .. 1e+15 bytes/s)",
		     p->gpu.name);
	/* Megatron-Core's layer-level CPU offloading raises unless 0 <= N < num_layers, pp = 1
	 * and recompute_granularity is None (megatron/core/transformer/transformer_config.py,
	 * TransformerConfig.__post_init__); its copies need the host link */
	if (p->offload_layers > 0 && m->layers > 0 && p->offload_layers >= m->layers)
		ERR2("training.offload_activations", "model.layers", "training.offload_activations = %d is not less than "
		     "model.layers = %d (allowed: 0 .. %d)", p->offload_layers, m->layers, m->layers - 1);
	else if (p->offload_layers > 0 && p->pp > 1)
		ERR2("training.offload_activations", "pp", "training.offload_activations = %d needs parallel.pp = 1, "
		     "but it is %d: Megatron-Core's CPU offloading does not support pipeline parallelism "
		     "(allowed: pp = 1, or offload_activations = 0)", p->offload_layers, p->pp);
	else if (p->offload_layers > 0 && p->recompute != CALC_RC_NONE)
		ERR2("training.offload_activations", "parallel.recompute", "training.offload_activations = %d needs "
		     "parallel.recompute = none, but it is %s (allowed: recompute = none, or offload_activations = 0)",
		     p->offload_layers, calc_recompute_name(p->recompute));
	else if (p->offload_layers > 0 && p->gpu.pcie_bw <= 0)
		ERR2("training.offload_activations", "cluster.gpu_pcie_bw", "training.offload_activations = %d needs the "
		     "host link of the GPU (%s), which its preset does not give: set cluster.gpu_pcie_bw (allowed: 1e+06 .. "
		     "1e+15 bytes/s)", p->offload_layers, p->gpu.name);
	/* Megatron-Core's fine-grained activation offloading (transformer_config.py at d98e8a6,
	 * TransformerConfig.__post_init__): not with the layer-level cpu_offloading; attn_proj
	 * only with core_attn; no expert module inside a recomputed 'moe'.  Full recomputation
	 * keeps only the layer input, and op-level SAC is torchtitan's: neither is modelled with
	 * it (docs/references.md §2.14).  The copies need the host link. */
	if (p->offload_modules) {
		unsigned om = p->offload_modules, rcm = calc_recompute_modules(p->recompute, p->recompute_modules);
		if (p->offload_layers > 0)
			ERR2("training.offload_modules", "training.offload_activations", "training.offload_modules is set with "
			     "training.offload_activations = %d: Megatron-Core's fine-grained offloading cannot be enabled with "
			     "the layer-level cpu_offloading (allowed: one of the two)", p->offload_layers);
		else if ((om & CALC_OFM_ATTN_PROJ) && !(om & CALC_OFM_CORE_ATTN))
			ERR2("training.offload_modules", "training.offload_modules", "training.offload_modules names attn_proj "
			     "without core_attn: the output projection's input is the attention core's output, which the core's "
			     "backward needs (allowed: attn_proj together with core_attn)");
		else if ((om & (CALC_OFM_EXPERT_FC1 | CALC_OFM_MOE_ACT | CALC_OFM_MLP_NORM)) && m->moe.experts <= 0)
			ERR2("training.offload_modules", "model.experts", "training.offload_modules names %s, a module of the "
			     "MoE layer, but the model has no routed experts (allowed: attn_norm, qkv_linear, core_attn, "
			     "attn_proj on a dense model, whose fused pre-MLP norm offloads nothing)",
			     (om & CALC_OFM_EXPERT_FC1) ? "expert_fc1" : (om & CALC_OFM_MOE_ACT) ? "moe_act" : "mlp_norm");
		else if ((om & (CALC_OFM_EXPERT_FC1 | CALC_OFM_MOE_ACT)) && (rcm & CALC_RCM_MOE))
			ERR2("training.offload_modules", "parallel.recompute_modules", "training.offload_modules names %s "
			     "while the whole moe module is recomputed (allowed: recompute_modules without moe, or no expert "
			     "module offloaded)", (om & CALC_OFM_EXPERT_FC1) ? "expert_fc1" : "moe_act");
		else if (p->recompute == CALC_RC_FULL || p->recompute == CALC_RC_OP_SAC)
			ERR2("training.offload_modules", "parallel.recompute", "training.offload_modules with parallel.recompute "
			     "= %s is not modelled (allowed: recompute none, selective, modules or deepseek-v3)",
			     calc_recompute_name(p->recompute));
		else if (p->gpu.pcie_bw <= 0)
			ERR2("training.offload_modules", "cluster.gpu_pcie_bw", "training.offload_modules needs the host link "
			     "of the GPU (%s), which its preset does not give: set cluster.gpu_pcie_bw (allowed: 1e+06 .. "
			     "1e+15 bytes/s)", p->gpu.name);
	}
	else if (p->offload_fraction < 1)
		ERR2("training.offload_fraction", "training.offload_modules", "training.offload_fraction = %g is the share "
		     "of the offload groups of training.offload_modules, which is not set (allowed: 1 without "
		     "offload_modules)", p->offload_fraction);
	/* HybridDeviceOptimizer (megatron/core/optimizer/__init__.py at d98e8a6) is built for
	 * Adam with the distributed optimizer; its host step has no rate of its own here */
	if (p->offload_optimizer > 0 && p->cpu_optimizer_rate <= 0)
		ERR2("training.offload_optimizer", "cluster.cpu_optimizer_rate", "training.offload_optimizer = %g needs "
		     "the rate of the host's optimizer step, which no preset gives: set cluster.cpu_optimizer_rate "
		     "(parameters per second for one GPU; allowed: > 0 .. 1e+15)", p->offload_optimizer);
	else if (p->offload_optimizer > 0 && p->gpu.pcie_bw <= 0)
		ERR2("training.offload_optimizer", "cluster.gpu_pcie_bw", "training.offload_optimizer = %g needs the "
		     "host link of the GPU (%s), which its preset does not give: set cluster.gpu_pcie_bw (allowed: 1e+06 .. "
		     "1e+15 bytes/s)", p->offload_optimizer, p->gpu.name);
	else if (p->offload_optimizer > 0 && p->zero < 1 && !p->fsdp)
		ERR2("training.offload_optimizer", "parallel.zero", "training.offload_optimizer = %g needs the "
		     "distributed optimizer, but parallel.zero = %d (allowed: zero >= 1 or fsdp = yes, or "
		     "offload_optimizer = 0)", p->offload_optimizer, p->zero);
	/* DeepSpeed's offload_optimizer moves the rank's whole partition to the host (ZeRO-Offload,
	 * Ren et al. 2021 §4.2); a share of it is ZeRO-3's Twin-Flow "ratio", not modelled */
	else if (p->offload_optimizer > 0 && p->offload_optimizer < 1 && p->offload_style == CALC_OFFLOAD_ZERO)
		ERR2("training.offload_style", "training.offload_optimizer", "training.offload_style = zero-offload "
		     "offloads the rank's whole optimizer partition, but training.offload_optimizer = %g (allowed: "
		     "offload_optimizer = 1 with zero-offload, or offload_style = megatron for a share)",
		     p->offload_optimizer);
	/* ZeRO-Infinity's optimizer swap to NVMe: DeepSpeed builds its swapper in ZeRO-3 only
	 * (deepspeed/runtime/zero/stage3.py at edaa722, _configure_tensor_swapping) */
	if (p->offload_device == 1 && !(p->offload_optimizer > 0 && p->offload_style == CALC_OFFLOAD_ZERO))
		ERR2("training.offload_device", "training.offload_style", "training.offload_device = nvme is DeepSpeed's "
		     "offload_optimizer device and needs training.offload_optimizer = 1 with offload_style = zero-offload "
		     "(allowed: offload_device = cpu otherwise)");
	else if (p->offload_device == 1 && p->zero != 3)
		ERR2("training.offload_device", "parallel.zero", "training.offload_device = nvme needs parallel.zero = 3, "
		     "but it is %d: DeepSpeed swaps optimizer states to NVMe in ZeRO-3 only (allowed: zero = 3, or "
		     "offload_device = cpu)", p->zero);
	else if (p->offload_device == 1 && p->nvme_bw <= 0)
		ERR2("training.offload_device", "cluster.nvme_bw", "training.offload_device = nvme needs the NVMe "
		     "bandwidth, which no preset gives: set cluster.nvme_bw (bytes per second for one GPU; allowed: > 0 .. "
		     "1e+15)");
	else if (p->offload_param && (p->zero != 3 || p->fsdp))
		ERR2("training.offload_param", "parallel.zero", "training.offload_param = %s is DeepSpeed's ZeRO-3 parameter "
		     "offload, but parallel.zero = %d%s (allowed: zero = 3 without FSDP, or offload_param = none)",
		     offload_param_names[p->offload_param], p->zero, p->fsdp ? " with parallel.fsdp = yes" : "");
	else if (p->offload_param && p->pp > 1)
		ERR2("training.offload_param", "pp", "training.offload_param = %s needs parallel.pp = 1, but it is %d: "
		     "DeepSpeed's pipeline engine refuses ZeRO-3 (allowed: pp = 1, or offload_param = none)",
		     offload_param_names[p->offload_param], p->pp);
	else if (p->offload_param && p->gpu.pcie_bw <= 0)
		ERR2("training.offload_param", "cluster.gpu_pcie_bw", "training.offload_param = %s needs the host link of "
		     "the GPU (%s), which its preset does not give: set cluster.gpu_pcie_bw (allowed: 1e+06 .. 1e+15 "
		     "bytes/s)", offload_param_names[p->offload_param], p->gpu.name);
	else if (p->offload_param == 2 && p->nvme_bw <= 0)
		ERR2("training.offload_param", "cluster.nvme_bw", "training.offload_param = nvme needs the NVMe bandwidth, "
		     "which no preset gives: set cluster.nvme_bw (bytes per second for one GPU; allowed: > 0 .. 1e+15)");
	else if (p->nvme_pipeline && p->offload_device != 1)
		ERR2("training.nvme_pipeline", "training.offload_device", "training.nvme_pipeline = yes pipelines the NVMe "
		     "swaps, but training.offload_device = cpu (allowed: offload_device = nvme, or nvme_pipeline = no)");
	if (p->pp > m->layers && m->layers > 0 && !calc_plan_has_layout(p))
		ERR2("pp", "model.layers", "parallel.pp = %d is more than model.layers = %d (allowed: 1 .. %d)", p->pp, m->layers,
		    m->layers);
	else if (calc_plan_has_layout(p)) {
		/* Megatron-Core's layout keys (model.c calc_layout_chunks says why one is refused) */
		char msg[512];
		const char *key = "layout";
		struct calc_chunks tmp;
		if (p->uneven_stages)
			ERR("parallel", "layers_per_stage", "parallel.layers_per_stage cannot be set with parallel.layout, "
			    "first_stage_layers, last_stage_layers, account_embedding, account_loss, first_stage_less_layers "
			    "or last_stage_less_layers (choose one way to place the layers)");
		else if (p->pp > 0 && calc_layout_chunks(p, p->pp, plan_chunks(p), &tmp, msg, sizeof msg, &key) < 0)
			ERR("parallel", key, "%s", msg);
	} else if (p->uneven_stages) {
		int sum = 0;
		for (int i = 0; i < p->uneven_stages; i++)
			sum += p->layers_per_stage[i];
		if (p->uneven_stages != p->pp)
			ERR("parallel", "layers_per_stage", "parallel.layers_per_stage has %d entries but parallel.pp = %d",
			    p->uneven_stages, p->pp);
		else if (sum != m->layers)
			ERR("parallel", "layers_per_stage", "parallel.layers_per_stage sums to %d but model.layers = %d", sum,
			    m->layers);
	} else if (p->pp > 0 && m->layers % p->pp && !split_named(p))
		/* an uneven split is a choice: the plan names its rule or lists the stages */
		ERR2("pp", "model.layers", "parallel.pp = %d does not divide model.layers = %d (divisors: %s); or give "
		    "parallel.layers_per_stage", p->pp, m->layers, (divisors(m->layers, dv, sizeof dv), dv));
	else if (p->pp > 0 && m->layers > 0 && p->split == CALC_SPLIT_EVEN && m->layers % p->pp)
		ERR("parallel", "split", "parallel.split = even: parallel.pp = %d does not divide model.layers = %d "
		    "(divisors: %s); or choose remainder-first or llama3", p->pp, m->layers,
		    (divisors(m->layers, dv, sizeof dv), dv));
	else if (p->pp > 0 && m->layers > 0) {
		int tmp[CALC_MAX_STAGES];
		if (calc_layers_split(m->layers, p->pp, p->split, tmp, NULL) < 0)
			ERR("parallel", "split", "parallel.split = %s: %d layers on parallel.pp = %d stages leave the first "
			    "or the last stage empty", calc_split_name(p->split), m->layers, p->pp);
	}
	if (p->gpus_total > 0 && p->gpus_total != gpus) {
		int kn = KEYI("cluster", "nodes"), kg = KEYI("cluster", "gpus");
		if (p->gpus_total % p->gpus_per_node)
			ERR("cluster", "gpus", "cluster.gpus = %d is not a multiple of cluster.gpus_per_node = %d (allowed: "
			    "multiples of %d, or fewer than %d)", p->gpus_total, p->gpus_per_node, p->gpus_per_node,
			    p->gpus_per_node);
		else if (kn >= 0 && kg >= 0 && p->key_src[kn] != 0)
			ERR("cluster", "gpus", "cluster.gpus = %d but cluster.nodes x gpus_per_node = %d x %d = %d: give one "
			    "of cluster.gpus and cluster.nodes", p->gpus_total, p->nodes, p->gpus_per_node, gpus);
	}
	/* in long long: 4096 x 256 x 10^7 x 4096 overflows int (and could wrap to 'gpus') */
	if ((long long)p->tp * p->pp * p->dp * p->cp != gpus) {
		static const char *const degrees[] = {"tp", "pp", "dp", "cp", "cluster.nodes", "cluster.gpus_per_node",
		                                      "cluster.preset", NULL};
		f = key_file(p, latest_key(p, degrees), &line);
		if (p->dp_auto)
			calc_error_id(d, CALC_M_KEY_RULE, f, line, "tp x pp x cp = %d x %d x %d = %lld does not divide the %d GPUs (%d nodes x %d)",
			    p->tp, p->pp, p->cp, (long long)p->tp * p->pp * p->cp, gpus, p->nodes, p->gpus_per_node);
		else
			calc_error_id(d, CALC_M_KEY_RULE, f, line, "tp x pp x dp x cp = %d x %d x %d x %d = %lld but the cluster has %d GPUs "
			    "(%d nodes x %d); set parallel.dp = 0 to derive it", p->tp, p->pp, p->dp, p->cp,
			    (long long)p->tp * p->pp * p->dp * p->cp, gpus, p->nodes, p->gpus_per_node);
	}
	else if (p->dp > 0 && p->micro_batch > 0 && p->global_batch % ((long long)p->micro_batch * p->dp) &&
	         !p->split_unset) { /* an unset split is the planner's to choose (calc_plan_pick_split) */
		/* a derived dp follows the GPU count and the other degrees */
		static const char *const fixed[] = {"training.global_batch", "training.micro_batch", "dp", NULL};
		static const char *const derived[] = {"training.global_batch", "training.micro_batch", "dp", "tp", "pp",
		                                      "cp", "cluster.nodes", "cluster.gpus_per_node", "cluster.preset", NULL};
		f = key_file(p, latest_key(p, p->dp_auto ? derived : fixed), &line);
		calc_error_id(d, CALC_M_KEY_RULE, f, line, "training.global_batch = %d is not divisible by micro_batch x dp = %d x %d "
		           "= %lld", p->global_batch, p->micro_batch, p->dp, (long long)p->micro_batch * p->dp);
	}
	if (m->hybrid[0])
		validate_hybrid(p, d);
	if (m->window_full_every > 0 && m->window <= 0)
		ERR("model", "window_full_every", "model.window_full_every = %d needs model.sliding_window > 0 (the layers "
		    "between the full ones attend through the window)", m->window_full_every);
	else if (m->window > 0 && !p->flash_attention)
		ERR2("model.sliding_window", "training.flash_attention", "model.sliding_window = %d needs training.flash_attention = "
		     "yes: the window is costed as FlashAttention runs it (window_size), skipping the tiles outside it; eager "
		     "attention masks a full s x s score matrix, which is not modelled with a window", m->window);
	else if (m->window > 0 && m->mla.kv_lora_rank > 0)
		ERR("model", "sliding_window", "model.sliding_window = %d with MLA (model.kv_lora_rank) is not modelled "
		    "(allowed: 0)", m->window);
	if (p->cp_comm == CALC_CP_A2A_P2P && p->cp_a2a_size < 2)
		ERR("parallel", "cp_comm", "parallel.cp_comm = a2a+p2p needs parallel.cp_a2a_size >= 2, the ranks of an "
		    "all-to-all group (Megatron-LM --hierarchical-context-parallel-sizes)");
	else if (p->cp_a2a_size > 0 && p->cp_comm != CALC_CP_A2A_P2P)
		ERR2("cp_a2a_size", "cp_comm", "parallel.cp_a2a_size = %d is only for parallel.cp_comm = a2a+p2p (cp_comm = %s)",
		    p->cp_a2a_size, cp_comm_names[p->cp_comm]);
	else if (p->cp_comm == CALC_CP_A2A_P2P && p->cp > 1 && p->cp % p->cp_a2a_size)
		ERR2("cp_a2a_size", "cp", "parallel.cp_a2a_size = %d must divide parallel.cp = %d (a2a groups of adjacent "
		    "CP ranks, a ring across them)", p->cp_a2a_size, p->cp);
	else if (p->cp > 1 && p->tp > 0 && !calc_cp_heads_ok(p, p->tp, p->cp, &hq_, &hkv_))
		ERR2("cp_comm", "cp", "parallel.cp_comm = %s: the all-to-all over %d CP ranks needs the %d query heads and "
		    "%d KV heads of a TP rank (tp = %d) divisible by %d (Transformer Engine AttnFuncWithCPAndQKVOA2A)",
		    cp_comm_names[p->cp_comm], calc_cp_a2a_group(p, p->cp), hq_, hkv_, p->tp, calc_cp_a2a_group(p, p->cp));
	if (p->cp > 1 && p->seq_len % (2 * p->cp))
		ERR2("cp", "training.seq_len", "parallel.cp = %d: training.seq_len = %d must be divisible by 2 x cp = %d "
		    "(load-balanced causal chunks, Llama 3 §3.3.2)", p->cp, p->seq_len, 2 * p->cp);
	/* Llama 4's chunked attention (create_chunked_causal_mask in transformers): token i
	 * sees token j <= i only when i / chunk == j / chunk, so with seq_len <= chunk it is
	 * causal attention, and beyond that it is a window the model does not have */
	if (m->attn_chunk > 0 && p->seq_len > m->attn_chunk)
		ERR2("model.hf_config", "training.seq_len", "training.seq_len = %d is longer than the attention chunk "
		     "of model.hf_config (attention_chunk_size = %d): chunked attention is not modelled beyond one chunk "
		     "(allowed: seq_len 1 .. %d)", p->seq_len, m->attn_chunk, m->attn_chunk);
	if (!p->recipe)
		ERR("training", "recipe", "training.recipe is not set");
	if (p->recipe && p->recipe->fp8_compute && p->gpu.fp8_flops <= 0 &&
	    (p->key_src[KEYI("cluster", "gpu_fp8_flops")] > 0 || p->key_line[KEYI("cluster", "gpu_fp8_flops")] > 0))
		ERR2("training.recipe", "cluster.gpu_fp8_flops", "training.recipe = %s computes in FP8 but cluster.gpu_fp8_flops = 0: the GPU "
		     "has no FP8 tensor cores (choose a BF16 recipe: seed, zero-paper, megatron, fp32, adam-8bit)", p->recipe->name);
	else if (p->recipe && p->recipe->fp8_compute && p->gpu.fp8_flops <= 0)
		ERR("training", "recipe", "training.recipe = %s computes in FP8 but cluster.gpu = %s has no FP8 tensor "
		    "cores (choose a BF16 recipe: seed, zero-paper, megatron, fp32, adam-8bit)", p->recipe->name, p->gpu.name);
	/* MXFP8 and NVFP4 need block-scaled (microscaling) tensor cores; the GPU presets that
	 * have them are those with an FP4 peak (Blackwell), the rest are refused, never run
	 * at another format's rate (docs/references.md §2.11) */
	else if (calc_recipe_block_scaled(p->recipe) && p->gpu.fp4_flops <= 0)
		ERR2("training.recipe", "cluster.gpu_fp4_flops", "training.recipe = %s needs block-scaled (microscaling) "
		     "tensor cores, which cluster.gpu = %s does not have (no FP4 peak): choose a GPU with one (b200-180g, "
		     "gb200-186g, b300-288g, gb300-288g), give cluster.gpu_fp4_flops, or an FP8 recipe (fp8-te, fp8-params)",
		     p->recipe->name, p->gpu.name);
	/* NVFP4's E4M3 block scales are NVIDIA's format; the AMD parts' FP4 peak is MXFP4
	 * (E8M0 scales per 32, the MI355X spec), so an NVFP4 recipe is refused on them */
	else if (p->recipe && p->recipe->fp8_compute == CALC_LP_NVFP4 && p->gpu.title && !strncmp(p->gpu.title, "AMD ", 4))
		ERR("training", "recipe", "training.recipe = nvfp4 needs NVIDIA's NVFP4 tensor cores, which cluster.gpu = "
		    "%s does not have (its FP4 peak is MXFP4): choose an NVIDIA Blackwell GPU (b200-180g, gb200-186g, "
		    "b300-288g, gb300-288g) or another recipe (mxfp8, fp8-params)", p->gpu.name);
	/* efficiency.gemm_basis = achievable divides by the GPU's measured matmul rate: the
	 * BF16 one always (the LM head, unfused attention), the FP8 one for an FP8 recipe */
	if (p->gemm_basis == 1 && p->gpu.matmul_max <= 0)
		ERR2("efficiency.gemm_basis", "cluster.gpu_matmul_max", "efficiency.gemm_basis = achievable needs the "
		     "measured matmul rate of the GPU (%s), which its preset does not give: set cluster.gpu_matmul_max "
		     "(allowed: 1e+12 .. 1e+18 FLOP/s), or efficiency.gemm_basis = peak", p->gpu.name);
	else if (p->gemm_basis == 1 && p->recipe && p->recipe->fp8_compute == CALC_LP_NVFP4)
		ERR2("efficiency.gemm_basis", "training.recipe", "efficiency.gemm_basis = achievable with the FP4 recipe "
		     "%s needs a measured FP4 matmul rate, which no GPU preset has: set efficiency.gemm_basis = peak",
		     p->recipe->name);
	else if (p->gemm_basis == 1 && p->recipe && p->recipe->fp8_compute && p->gpu.fp8_flops > 0 &&
	         p->gpu.matmul_max_fp8 <= 0)
		ERR2("efficiency.gemm_basis", "cluster.gpu_matmul_max_fp8", "efficiency.gemm_basis = achievable with the FP8 "
		     "recipe %s needs the measured FP8 matmul rate of the GPU (%s), which its preset does not give: set "
		     "cluster.gpu_matmul_max_fp8 (allowed: 1e+12 .. 1e+18 FLOP/s), or efficiency.gemm_basis = peak",
		     p->recipe->name, p->gpu.name);
	/* efficiency.gemm_shape = table holds measured rates of sm_90 only (gemm_table.c):
	 * another GPU is refused, never given the H100's falloff silently */
	if (p->gemm_shape == 1 && !calc_gemm_table_covers(p->gpu.name))
		ERR2("efficiency.gemm_shape", "cluster.gpu", "efficiency.gemm_shape = table has measured rates of sm_90 GPUs "
		     "only (h100-*, h200-*, h800-*), not of cluster.gpu = %s: set efficiency.gemm_shape = none", p->gpu.name);
	if (d->nerrors == before)
		calc_pipeline_check(p, calc_plan_keys_origin, d);
#undef ERR
#undef ERR2
	return d->nerrors > before ? -1 : 0;
}

/* ======================================================================== */
/* Loading                                                                   */
/* ======================================================================== */

/* The closest key to 'key' ("section.name" when 'dotted', else the bare name or the
 * dotted one, whichever is closer), as "; did you mean '...'?" or "". */
static char (*key_full)[96]; /* "section.name" of every key, built once (a heap block, not
                                18 kB of bss: struct calc_model's built, presets.c) */
static pthread_once_t key_full_once = PTHREAD_ONCE_INIT;

static void key_full_build(void)
{
	key_full = xmalloc(NKEYS * sizeof *key_full);
	for (int i = 0; i < NKEYS; i++)
		snprintf(key_full[i], sizeof key_full[i], "%s.%s", keys[i].section, keys[i].name);
}

static const char *key_suggest(const char *key, int dotted, char *buf, size_t n)
{
	const char (*full)[96];
	struct calc_suggest s;
	pthread_once(&key_full_once, key_full_build);
	full = key_full;
	calc_suggest_init(&s, key);
	for (int i = 0; i < NKEYS; i++) {
		if (!dotted)
			calc_suggest_offer(&s, keys[i].name);
		calc_suggest_offer(&s, full[i]);
	}
	return calc_suggest_text(&s, buf, n);
}

static int split_kv(const char *kv, char *sec, char *name, char *val, size_t cap, struct calc_diag *d,
                    const char *origin)
{
	const char *eq = strchr(kv, '=');
	char key[128], dym[160];
	size_t n;
	if (!eq)
		return calc_error_id(d, CALC_M_MALFORMED, origin, 0, "'%s': expected KEY=VALUE, e.g. parallel.tp=4", kv);
	n = (size_t)(eq - kv);
	while (n && isspace((unsigned char)kv[n - 1]))
		n--;
	if (n >= sizeof key)
		return calc_error_id(d, CALC_M_UNKNOWN_KEY, origin, 0, "'%s': key too long", kv);
	memcpy(key, kv, n);
	key[n] = 0;
	eq++;
	while (isspace((unsigned char)*eq))
		eq++;
	snprintf(val, cap, "%s", eq);
	const char *dot = strchr(key, '.');
	if (dot) {
		snprintf(sec, 32, "%.*s", (int)(dot - key), key);
		snprintf(name, 64, "%s", dot + 1);
		if (key_index(sec, name) < 0)
			return calc_error_id(d, CALC_M_UNKNOWN_KEY, origin, 0, "unknown key '%s' (trainplan presets keys lists them)%s", key,
			                  key_suggest(key, 1, dym, sizeof dym));
		return 0;
	}
	/* a bare key works where its name is unique */
	int found = -1, count = 0;
	for (int i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].name, key))
			found = i, count++;
	if (count == 0)
		return calc_error_id(d, CALC_M_UNKNOWN_KEY, origin, 0, "unknown key '%s' (trainplan presets keys lists them)%s", key,
		                  key_suggest(key, 0, dym, sizeof dym));
	if (count > 1) {
		char list[256] = "";
		for (int i = 0; i < NKEYS; i++)
			if (!strcmp(keys[i].name, key))
				snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s.%s", list[0] ? ", " : "",
				         keys[i].section, keys[i].name);
		return calc_error_id(d, CALC_M_UNKNOWN_KEY, origin, 0, "key '%s' is ambiguous (use one of: %s)", key, list);
	}
	snprintf(sec, 32, "%s", keys[found].section);
	snprintf(name, 64, "%s", keys[found].name);
	return 0;
}

static void plan_reset(struct calc_plan *p)
{
	memset(p, 0, sizeof *p);
	p->head_dim_auto = 1;
	p->gpu_memory_auto = 1;
	/* the default stack (its knobs, placement among them, apply in apply_stack) */
	p->stack = calc_stack_find("megatron-core");
	snprintf(p->placement, sizeof p->placement, "tp-cp-ep-dp-pp");
	/* Defaults of the keys the default plan does not set (each with its reason). */
	p->cp = 1;
	p->vpp = 1;
	p->ep = 1;
	p->etp = 1;
	p->grouped_gemm = 0.8;       /* grouped GEMMs of small per-expert shapes reach less of the
	                              * peak than one large GEMM; assumed (UNVERIFIED), set it */
	p->ep_overlap = 0;           /* no all-to-all hidden unless the plan says so */
	p->p2p_scatter_gather = 1;   /* Megatron-LM default (Narayanan et al. 2021 §4.1) */
	/* Llama 3 §3.3.2's all-gather CP, what the CP model has costed from the start, for a
	 * stack without a CP default (DeepSpeed, FSDP1, the dated stacks); the stacks of
	 * Megatron-Core carry its --cp-comm-type default p2p and torchtitan its allgather
	 * (apply_stack, calc/stacks.c) */
	p->cp_comm = CALC_CP_ALLGATHER;
	p->cp_a2a_size = 0;
	p->post_validation = 0;      /* a flush between steps: the DP reduction and the optimizer
	                              * step run between them in step.c, and post-validation
	                              * (Qi et al. 2024 §4) is not in Megatron-LM */
	p->inter_node_eff = 0.85;    /* docs/references.md §6: ~0.8-0.9 of g x B_nic */
	p->cuda_context = 0.75e9;    /* CUDA context + PyTorch/cuBLAS/cuDNN/NCCL modules: ~0.5-1 GB */
	p->nccl_buffers = 0.5e9;     /* NCCL_BUFFSIZE 4 MiB x channels x peers, a few communicators */
	p->workspace = 0.25e9;       /* cuBLAS workspace (32 MiB per stream on Hopper) + attention */
	p->fragmentation = 0.05;     /* Megatron-LM adds a 5% buffer (theoretical_memory_usage.py) */
	/* GEMM and attention efficiencies: per GPU preset (presets.c, calibrated with
	 * trainplan validate), 0.75 / 0.50 for a GPU without them */
	p->eff_auto = 7;
	p->gemm_eff = 0.75;
	p->attn_eff = 0.50;
	p->dp_overlap = 0.8;
	p->tp_overlap = 0.0;
	/* Transformer Engine's userbuffers defaults (module/base.py initialize_ub): 1 SM for
	 * the ring-exchange all-gathers, 16 for the pipelined and bulk reduce-scatters, of
	 * equal bus bytes with SP: 8.5 on average (docs/references.md §4.8) */
	p->tp_overlap_sms = 8.5;
	p->dp_bw_eff = 1;            /* the links as calc_comm_links models them */
	p->reshard_after_forward = 1; /* FSDP FULL_SHARD and FSDP2 fully_shard defaults */
	p->fsdp_prefetch = 1;        /* FSDP backward_prefetch / FSDP2: one layer ahead */
	p->memory_margin = 0.10;     /* the recommendation leaves 10% of usable memory free */
	p->pick_band = CALC_PICK_BAND_ABSOLUTE; /* pick.c, docs/references.md §9.25 */
	p->pick_band_fixed = 0.05;   /* used only with pick_band = fixed: a tolerance, no source */
	p->optimizer_time = -1;
	p->offload_fraction = 1;     /* Megatron-Core activation_offload_fraction's default */
	/* HFU counts the recomputation that runs (step.c); kor22-eq8 is Korthikanti's
	 * convention, which charges 3 attention cores for selective recomputation and for
	 * FlashAttention alike, and is kept for comparisons with KOR22 Table 5 */
	p->hfu_count = CALC_HFU_EXECUTED;
}

/* The entries of the built-in default plan (default_plan.h), which every load reads
 * first: collected once per process.  Left empty when the text gave any message, so
 * that each load collects it again and reports it. */
static struct entries default_es;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;

static void default_parse(void)
{
	struct calc_diag d = {0};
	struct entries es = {0};
	collect(&es, default_plan_text, NULL, DEFAULT_FILE, 0, &d);
	if (d.nrecs == 0 && !es.bad)
		default_es = es;
	else
		free(es.e);
	calc_diag_free(&d);
}

int calc_plan_load(struct calc_plan *plan, const char *file, const char *const *sets, int nsets,
                   struct calc_diag *d)
{
	struct entries es = {0};
	int before = d->nerrors;
	const char *fname = file ? file : DEFAULT_FILE;

	plan_reset(plan);
	snprintf(plan->file, sizeof plan->file, "%s", fname);
	pthread_once(&default_once, default_parse);
	if (default_es.n > 0) { /* the built-in defaults, as collect reads them */
		es.n = es.cap = default_es.n;
		es.e = xmalloc((size_t)es.cap * sizeof *es.e);
		memcpy(es.e, default_es.e, (size_t)es.n * sizeof *es.e);
	} else
		collect(&es, default_plan_text, NULL, DEFAULT_FILE, 0, d);
	if (file) {
		/* "-" is standard input; includes from it are relative to this folder */
		int from_stdin = !strcmp(file, "-");
		char why[128];
		FILE *f = from_stdin ? stdin : calc_file_open(file, "r", why, sizeof why);
		if (from_stdin)
			snprintf(plan->file, sizeof plan->file, "<stdin>");
		if (!f) {
			calc_error_id(d, CALC_M_PLAN_UNREADABLE, file, 0, "cannot open the plan: %s", why);
		} else {
			char real[PATH_MAX];
			if (from_stdin || !realpath(file, real))
				snprintf(real, sizeof real, "<stdin>");
			collect_in(&es, NULL, f, plan->file, 1, d, NULL, plan, real);
			if (!from_stdin)
				fclose(f);
		}
	}
	for (int i = 0; i < nsets; i++) {
		char sec[32], name[64], val[1024];
		if (split_kv(sets[i], sec, name, val, sizeof val, d, "--set") == 0)
			push(&es, key_index(sec, name), val, "--set", 0, 2);
	}
	if (d->nerrors == before) {
		/* the default plan's split first; where it is not valid under the user's model or
		 * cluster, again without it (default_split_dropped), and only that load's
		 * messages are the plan's: none of them is about a key the user did not write */
		struct calc_plan *saved = xmalloc(sizeof *saved);
		int dummy;
		*saved = *plan;
		for (int drop = 0; drop < 2; drop++) {
			struct calc_diag t = {0};
			if (drop)
				*plan = *saved;
			if (apply_all(plan, &es, drop, &t) == 0 && t.nerrors == 0) {
				derive(plan);
				calc_plan_validate(plan, &t);
			}
			if (t.nerrors == 0 || drop || !default_split_dropped(&es, NULL, &dummy)) {
				calc_diag_append(d, &t);
				calc_diag_free(&t);
				break;
			}
			calc_diag_free(&t);
		}
		free(saved);
	}
	free(es.e);
	return d->nerrors > before ? -1 : 0;
}

int calc_plan_set_many(struct calc_plan *plan, const char *const *kvs, int n, const char *origin,
                       struct calc_diag *d)
{
	int before = d->nerrors;
	struct entry *es = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *es);
	int ne = 0;
	for (int i = 0; i < n; i++) {
		char sec[32], name[64];
		struct entry *e = &es[ne];
		if (split_kv(kvs[i], sec, name, e->value, sizeof e->value, d, origin) < 0)
			continue;
		e->key = key_index(sec, name);
		e->file = origin;
		e->line = 0;
		e->src = 2;
		ne++;
	}
	/* apply every assignment first: "pp=16, dp=4" is only consistent as a whole; the
	 * presets among them first, so that "cluster.preset=X, gpus_per_node=4" keeps the
	 * 4 whatever the order (calc_plan_load's two phases) */
	for (int phase = 0; phase < 2; phase++)
		for (int i = 0; i < ne; i++) {
			if (is_phase0(es[i].key) != (phase == 0))
				continue;
			if (apply(plan, &es[i], d) < 0)
				continue;
			plan->key_line[es[i].key] = 0;
			plan->key_src[es[i].key] = 2;
			if (split_key(es[i].key)) /* the split is the assignments' now */
				plan->split_unset = 0;
			if (!strcmp(keys[es[i].key].section, "cluster") && !strcmp(keys[es[i].key].name, "nodes"))
				plan->gpus_total = 0; /* the nodes assigned now are the count */
		}
	free(es);
	snprintf(plan->set_origin, sizeof plan->set_origin, "%s", origin);
	apply_stack(plan, d);
	apply_gpus(plan);
	if (d->nerrors > before)
		return -1;
	/* a changed GPU count or degree re-derives dp when it was derived */
	derive(plan);
	calc_plan_validate(plan, d);
	return d->nerrors > before ? -1 : 0;
}

int calc_plan_set(struct calc_plan *plan, const char *kv, const char *origin, struct calc_diag *d)
{
	return calc_plan_set_many(plan, &kv, 1, origin, d);
}

const char *calc_plan_default_text(void)
{
	return default_plan_text;
}

const char *calc_rc_module_name(int i)
{
	return i >= 0 && i < CALC_RCM_N ? rcm_names[i] : NULL;
}

const char *calc_off_module_name(int i)
{
	return i >= 0 && i < CALC_OFM_N ? ofm_names[i] : NULL;
}

unsigned calc_recompute_modules(enum calc_recompute rc, unsigned modules)
{
	if (rc == CALC_RC_MODULES)
		return modules;
	if (rc == CALC_RC_DSV3) /* DeepSeek-AI 2024 §3.2.3: the RMSNorms and the MLA up-projections */
		return CALC_RCM_LAYERNORM | CALC_RCM_MLA_UP_PROJ;
	return 0;
}

void calc_rc_rule_of(const struct calc_plan *plan, struct calc_rc_rule *out)
{
	out->block = plan->recompute == CALC_RC_FULL && plan->recompute_method == CALC_RC_METHOD_BLOCK;
	out->v = plan->vpp > 0 ? plan->vpp : 1;
	out->n = plan->recompute_num_layers > 0 ? plan->recompute_num_layers : 1;
}

double calc_rc_rule_layers(const struct calc_rc_rule *r, int layers)
{
	double v = r->v, c = layers / v, n = r->n;

	if (layers <= 0)
		return 0;
	if (!r->block)
		return layers;
	return v * (n < c ? n : c); /* the first min(N, c) layers of each of the v chunks */
}

double calc_recompute_layers(const struct calc_plan *plan, int layers)
{
	struct calc_rc_rule r;
	calc_rc_rule_of(plan, &r);
	return calc_rc_rule_layers(&r, layers);
}

const char *calc_recompute_name(enum calc_recompute r)
{
	return r >= 0 && r <= CALC_RC_OP_SAC ? rc_names[r] : "?";
}
