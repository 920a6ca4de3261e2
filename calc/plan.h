/*
 * plan.h -- the plan: its struct, its keys, loading, setting and validating it
 * (plan.c); the names of recomputation modes (plan.c).
 */
#ifndef CALC_PLAN_H
#define CALC_PLAN_H

#include "bounds.h"
#include "diag.h"
#include "model.h"
#include "presets.h"
#include "recipe.h"
#include "stacks.h"

#define CALC_PLAN_MAX_INCLUDES 4 /* files one plan may include, all levels */
#define CALC_PLAN_NKEYS 200 /* upper bound of the plan keys (plan.c) */

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
/* training.cuda_graphs: what the step captures in CUDA graphs (Megatron-Core cuda_graph_impl,
 * transformer_config.py at d98e8a64): none; partial, per-layer graphs ("local" or
 * "transformer_engine" with --cuda-graph-modules) that leave a dropless MoE layer's
 * experts, dispatch and combine uncaptured; full, the whole iteration ("full_iteration") */
enum calc_cuda_graphs { CALC_GRAPHS_NONE, CALC_GRAPHS_PARTIAL, CALC_GRAPHS_FULL };

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
 * schedules.h), which holds every fact of a schedule.  These names are the built-in rows;
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
/* training.offload_modules: the submodules whose saved inputs Megatron-Core's fine-grained
 * activation offloading copies to host memory, one bit each, named as
 * TransformerConfig.offload_modules (megatron/core/transformer/transformer_config.py at
 * d98e8a6; memory.c offload_module_bytes, docs/references.md §2.14). */
enum calc_off_module {
	CALC_OFM_ATTN_NORM = 1 << 0,  /* attn_norm: the attention's input norm (IdentityOp when fused) */
	CALC_OFM_QKV_LINEAR = 1 << 1, /* qkv_linear: the QKV projection (with its fused norm) */
	CALC_OFM_CORE_ATTN = 1 << 2,  /* core_attn: the attention core */
	CALC_OFM_ATTN_PROJ = 1 << 3,  /* attn_proj: the attention's output projection */
	CALC_OFM_MLP_NORM = 1 << 4,   /* mlp_norm: the pre-MLP norm (IdentityOp when fused) */
	CALC_OFM_EXPERT_FC1 = 1 << 5, /* expert_fc1: the routed experts' fc1 */
	CALC_OFM_MOE_ACT = 1 << 6,    /* moe_act: the routed experts' activation function */
	CALC_OFM_N = 7                /* number of module names */
};
/* The name of offload-module bit i (0 .. CALC_OFM_N - 1, "attn_norm"), NULL outside. */
const char *calc_off_module_name(int i);

/* plan.pick_band: which band the recommendation takes the simplest split within (pick.c,
 * docs/references.md §9.25) */
enum calc_pick_band {
	CALC_PICK_BAND_ABSOLUTE,   /* validation.band: 90 % of held-out |error| (calc_validate_band) */
	CALC_PICK_BAND_COMPARISON, /* validation.compare_band: 90 % of the error of the ratio of two
	                              held-out rows of one source and model (calc_validate_compare_band) */
	CALC_PICK_BAND_FIXED       /* plan.pick_band_fixed, the user's own */
};

struct calc_plan {
	/* where the plan came from, for diagnostics and the report's title page */
	char file[CALC_PATH_MAX]; /* plan file, or "<default>" */
	char title[128];          /* [plan] title */
	char date[32];            /* [plan] date (YYYY-MM-DD); "" = SOURCE_DATE_EPOCH or today */
	double memory_margin;     /* [plan] share of usable memory the recommended split leaves free [0..0.9] */
	int pick_band;            /* [plan] the recommendation's band (pick.c): enum calc_pick_band */
	double pick_band_fixed;   /* [plan] the band with pick_band = fixed [0..1] */
	double published_gpu_hours; /* [plan] GPU-hours of the published run the plan reproduces (0 = none) */
	char published_source[160]; /* [plan] where published_gpu_hours is published ("" = none) */
	int published_layout;     /* [plan] 1: the plan's split is the published run's (compared with the pick) */
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
	int compile;           /* 1: torch.compile of each transformer block (training.compile;
	                          memory.c act_layer under op-sac) */
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
	/* training.offload_modules: enum calc_off_module bits, Megatron-Core's fine-grained
	 * activation offloading (--fine-grained-activation-offloading --offload-modules;
	 * memory.c, step.c offload_traffic, docs/references.md §2.14); 0 = none */
	unsigned offload_modules;
	/* training.offload_fraction: Megatron-Core's activation_offload_fraction, the share
	 * of the eligible offload groups that are offloaded (default 1; memory.c) */
	double offload_fraction;
	/* training.offload_optimizer: the share of the rank's master weights and optimizer
	 * states that Megatron-Core's HybridDeviceOptimizer keeps and updates on the host
	 * (--optimizer-cpu-offload --optimizer-offload-fraction; memory.c, step.c
	 * optimizer_time, docs/references.md §2.13); 0 = none */
	double offload_optimizer;
	/* training.offload_style: whose optimizer offload training.offload_optimizer is (enum
	 * calc_offload_style; docs/references.md §2.13) */
	int offload_style;
	/* training.offload_device: where DeepSpeed keeps the offloaded optimizer partition
	 * (zero_optimization.offload_optimizer.device): 0 cpu (ZeRO-Offload), 1 nvme
	 * (ZeRO-Infinity's PartitionedOptimizerSwapper; memory.c, step.c, docs/references.md
	 * §2.15) */
	int offload_device;
	int offload_param;  /* training.offload_param: DeepSpeed's ZeRO-3 parameter partition in
	                       host memory (1 cpu) or on NVMe (2 nvme); 0 none (memory.c, step.c,
	                       docs/references.md §2.15) */
	int nvme_pipeline;  /* training.nvme_pipeline: DeepSpeed's pipeline_read / pipeline_write
	                       (PipelinedOptimizerSwapper) */
	double nvme_bw;     /* cluster.nvme_bw: NVMe bytes per second for one GPU, reads and writes
	                       together [B/s]; 0 = not known */
	double cpu_optimizer_rate; /* cluster.cpu_optimizer_rate: parameters the host's optimizer
	                              updates per second for one GPU [1/s]; 0 = not known */
	/* With SP (tp > 1), what the backward of a column-parallel linear (QKV, fc1, the LM
	 * head) keeps of its input (memory.c act_layer, docs/references.md §2.9): 0 sharded,
	 * the sequence shard that Megatron-LM all-gathers again in backward (Korthikanti 2022
	 * §4.2.2); 1 gathered, the all-gathered input itself (PyTorch DTensor TP) */
	int sp_saved_input;
	/* The pipeline runtime's own buffers (memory.c calc_memory_stage_parts, docs/references.md
	 * §2.17): 0 megatron, none beyond the activations (Megatron-Core frees a stage output's
	 * data once sent); 1 torch, torch.distributed.pipelining's PipelineStage: a receive buffer
	 * per micro-batch for the stage input and for the output gradient, the outputs held to
	 * their backward, and on the last stage every micro-batch's output for the step */
	int pp_runtime;
	/* The unsharded gradients' lifetime (memory.c calc_memory_stage_of, docs/references.md
	 * §2.18): 0 persistent, the stage's gradient buffer held all step (Megatron's DDP and
	 * distributed optimizer); 1 per-chunk, FSDP accumulating over the micro-batches (Llama 3
	 * §3.3.2): a model chunk's unsharded gradient lives from its first backward to
	 * its reduce-scatter after its last, the shard kept */
	int grad_buffer;
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
	double fsdp_live;      /* parameters a rank holds gathered at once, never less than one
	                          layer's largest linear (DeepSpeed ZeRO-3's stage3_max_live_parameters;
	                          0 = whole units, as FSDP) */
	int no_sync;           /* 1: gradients accumulate unsharded over the micro-batches and are
	                          reduce-scattered once per step (FSDP no_sync) */
	int fsdp_fp8_gather;   /* 1: FSDP all-gathers the layers' Float8Linear weights in FP8 and
	                          keeps them gathered in FP8 (torchao enable_fsdp_float8_all_gather,
	                          recipe torch-mp-fp8 only; 0: in the compute dtype, torchtitan's default) */
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
	double moe_host_time;  /* moe.host_time: host time to launch what one MoE layer runs after
	                          its token-count synchronisation, per micro-batch, forward +
	                          backward (fitted, docs/references.md §5.16) [s] */
	int cuda_graphs;       /* training.cuda_graphs: enum calc_cuda_graphs */
	int moe_host_overlap;  /* moe.host_overlap: 0 (gpu) the host's launches run while the GPU
	                          works, exposed max(0, H - GPU time); 1 (none) the GPU waits
	                          for all of H (step.c moe_host) */
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
/* Check the plan is consistent (divisibility, ranges, product of degrees = GPUs). */
int calc_plan_validate(const struct calc_plan *plan, struct calc_diag *d);
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
/* ZeRO-3's parameter offload (training.offload_param) where the split allows it: ZeRO-3
 * without FSDP at pp = 1 (the plan check refuses the rest; a planner candidate of another
 * ZeRO stage or depth offloads nothing and is costed so). */
static inline int calc_plan_offload_param_at(const struct calc_plan *plan, int zero)
{
	return zero == 3 && !plan->fsdp && plan->pp == 1 ? plan->offload_param : 0;
}
static inline int calc_plan_offload_param(const struct calc_plan *plan)
{
	return calc_plan_offload_param_at(plan, plan->zero);
}
/* ZeRO-Infinity's optimizer swap to NVMe (training.offload_device = nvme) where it runs:
 * ZeRO-3 under offload_style = zero-offload (a planner candidate of another ZeRO stage
 * keeps the states in host memory, ZeRO-Offload's). */
static inline int calc_plan_offload_nvme_at(const struct calc_plan *plan, int zero)
{
	return plan->offload_device == 1 && zero == 3 && plan->offload_optimizer > 0 &&
	       plan->offload_style == CALC_OFFLOAD_ZERO;
}
static inline int calc_plan_offload_nvme(const struct calc_plan *plan)
{
	return calc_plan_offload_nvme_at(plan, plan->zero);
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

#endif
