/*
 * memory.h -- the memory of one GPU of each pipeline stage, and its terms (memory.c).
 */
#ifndef CALC_MEMORY_H
#define CALC_MEMORY_H

#include "bounds.h"
#include "diag.h"
#include "model.h"
#include "plan.h"
#include "recipe.h"

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
	double nvme;         /* held on NVMe instead (training.offload_device = nvme): the
	                        offloaded master weights, optimizer states and gradients, and
	                        (training.offload_param = nvme) the weights' partition [bytes] */
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
	double bg_sh, ebg_sh;                  /* gradient bytes per parameter sharded over the same
	                                          ranks as ZeRO 2 shards them (parallel.grad_buffer) [B] */
	int zero1;                             /* 1: the bytes above are ZeRO 1's */
	int grad_chunk;                        /* 1: parallel.grad_buffer = per-chunk */
	int copies;                            /* parameter copies (2 for DualPipe) */
	double act[CALC_MAX_KINDS];            /* one layer of each kind, one micro-batch, stored [B] */
	double act_full[CALC_MAX_KINDS];       /* the same without recomputation [B] */
	int rc_method;                         /* enum calc_rc_method under recompute = full, else 0 */
	int rc_layers;                         /* its N [layers] (1 when unset) */
	int chunks;                            /* model chunks per stage (vpp) */
	int offload_layers;                    /* training.offload_activations [layers] (pp = 1) */
	double off_mod[CALC_MAX_KINDS];        /* training.offload_modules: one layer of each kind, one
	                                          micro-batch, copied to host memory [B]
	                                          (calc_memory_offload_bytes) */
	double opt_off;                        /* training.offload_optimizer: share of the master
	                                          weights and optimizer states on the host [0..1] */
	int param_off;                         /* training.offload_param: 1 the weights' partition in
	                                          host memory, 2 on NVMe; 0 on the GPU */
	int opt_nvme;                          /* 1: that share lives on NVMe, the host holding the
	                                          swap buffers (training.offload_device = nvme) */
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
	int pp_torch;                          /* 1: parallel.pp_runtime = torch at pp > 1 (the
	                                          pipeline runtime's buffers below) */
	double pp_m;                           /* micro-batches of a step [1] */
	double pp_x;                           /* one micro-batch's stage input or output, the
	                                          hidden state between two stages [B] */
	double pp_out;                         /* one micro-batch's output of the last stage, the
	                                          logits in the activations' dtype [B] */
	double fixed[3];                       /* CUDA context, NCCL buffers, workspaces [B] */
	double frag;                           /* fragmentation share of allocated memory [0..1] */
	double capacity;                       /* usable memory [B] */
	/* FSDP (parallel.fsdp; all zero without it): gathered, unsharded buffers */
	double fsdp_w;                         /* bytes per parameter of a gathered unit's weights [B] */
	double fsdp_wl;                        /* the same for a transformer layer's (dense) weights:
	                                          1 with parallel.fsdp_fp8_gather, else fsdp_w [B] */
	double fsdp_g;                         /* bytes per parameter of its unsharded gradients [B] */
	int fsdp_units;                        /* units gathered at once: 1 + parallel.fsdp_prefetch */
	double fsdp_live;                      /* cap on the gathered parameters of a rank, already
	                                          raised to one layer's largest linear
	                                          (parallel.fsdp_live_params; 0 = none) */
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
/* calc_memory_terms_act but for act[] and act_full[], which k keeps: of a plan that
 * differs from 'plan' in none of what they read (the model, recipe, tp, sp, cp, etp,
 * micro-batch, sequence, recompute and its modules, flash_attention, compile,
 * partition_activations, sp_saved_input: memory.c act_layer) -- the planner's leaves of
 * one item and (recompute, SP) pair under another schedule or vpp. */
void calc_memory_terms_act_rest(const struct calc_plan *plan, struct calc_mem_terms *k);
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
/* Fine-grained activation offloading (training.offload_modules; docs/references.md §2.14):
 * the bytes of one layer of kind 'k' and one micro-batch that the plan's offloaded modules
 * copy to host memory, under the plan's recomputation; 0 without offload_modules. */
double calc_memory_offload_bytes(const struct calc_plan *plan, int k);
/* The weights' partition of one layer of kind 'k' on one GPU [B] (the plan's ZeRO stage). */
double calc_memory_layer_weight_bytes(const struct calc_plan *plan, int k);
/* The groups of each offloaded module that stay on the GPU at a stage's peak [layers of
 * one micro-batch]: the margin Megatron-Core keeps and the group reloaded ahead. */
#define CALC_OFFLOAD_KEEP 2
/* Activations of one layer of kind 'k' for one micro-batch under recomputation 'rc'. */
void calc_memory_act_kind(const struct calc_plan *plan, int k, enum calc_recompute rc,
                          struct calc_act_layer *out);
/* Parameters one GPU of pipeline stage 'i' holds, one copy: TP shards the matrices and
 * the vocabulary; norms, row-parallel biases and learned positions stay replicated
 * (Megatron-LM).  'pr' comes from calc_model_params.  Pure arithmetic. */
double calc_memory_stage_params(const struct calc_plan *plan, const struct calc_params *pr, int i);

#endif
