/*
 * step.h -- public interface of step.c (the step engine's stages and the plain walk,
 * calc_step) and step_fast.c (the planner's path, calc_step_fast and its bounds): FLOPs,
 * op-level times, step time, MFU/HFU, run time and cost.  It includes gemm_table.h, the
 * GEMM efficiency by shape that the op times read.
 *
 * Which function to call:
 *   calc_step       the reference: op times per stage fed to the pipeline simulator
 *                   (calc_pipeline_simulate); allocates the simulator's timeline and
 *                   frees it before returning.  Use it for one plan (the CLI, the
 *                   catalog, the report).
 *   calc_step_fast  the same op times and communication with the closed-form bubble of
 *                   the schedule instead of the simulator; no allocation, no
 *                   diagnostics, 0.2-0.4 us.  Use it where millions of
 *                   configurations are ranked (the planner), then confirm the chosen
 *                   few with calc_step.  Both agree exactly for even stages under
 *                   GPipe/1F1B when p2p = 0 (see tests/calc/step.c).
 */
#ifndef CALC_STEP_H
#define CALC_STEP_H

#include "diag.h"
#include "model.h"
#include "plan.h"
#include "table.h"
#include "catalog.h"
#include "comm.h"
#include "pipeline.h"
#include "gemm_table.h"

#include <math.h>

/* FLOPs of one optimizer step of the whole job (all GPUs) [FLOP]. */
struct calc_flops {
	double model;       /* forward + backward, no recomputation (PaLM's MFU numerator) */
	double hardware;    /* model + recomputation as Korthikanti 2022 App. A counts it */
	double per_token;   /* model FLOPs per token [FLOP/token] */
	double attn_share;  /* share of model FLOPs in the s^2 attention core [0..1] */
};
/*
 * Model and hardware FLOPs per step: Korthikanti 2022 Eq. 7 (model) and Eq. 8
 * (selective recomputation or flash attention), Narayanan 2021 Eq. 3 (full
 * recomputation), generalised to GQA (K, V projections of kv_heads * head_dim) and
 * SwiGLU (three h x f matrices).  Biases, norms and softmax are not counted (the
 * papers' lower bound).
 */
void calc_flops(const struct calc_plan *plan, struct calc_flops *out);

/* Times of one transformer layer for one micro-batch on one GPU [s]. */
struct calc_layer_time {
	double gemm;      /* forward GEMMs (QKV, out-proj, MLP), roofline each */
	double attn;      /* forward attention core (QK^T, softmax, attention x V) */
	double attn_b;    /* of b, the attention core's backward */
	double elem;      /* forward memory-bound ops (norms, residual, dropout, activation) */
	double f;         /* forward compute = gemm + attn + elem */
	double b;         /* backward for inputs: dgrad GEMMs, attention and elementwise backward */
	double w;         /* backward for weights: wgrad GEMMs */
	double recompute; /* forward work repeated in the backward (selective or full) */
	double comm_f;    /* TP + CP collectives of the forward, exposed part */
	double comm_b;    /* TP + CP collectives of the backward (+ recompute), exposed part */
	double comm_rc;   /* of comm_b, the collectives of the recomputed forward (full): TP,
	                     CP and ep_rc */
	double ep_f;      /* of comm_f, the expert all-to-all and ETP collectives (MoE) */
	double ep_b;      /* of comm_b, the same of the backward */
	double ep_rc;     /* of ep_b and comm_rc, the same of the recomputed forward (full) */
	/* DeepSpeed's activation checkpointing (parallel.partition_activations and
	 * cpu_checkpointing, recompute = full; step.c ckpt_traffic) */
	double ckpt_ag;   /* of comm_b and comm_rc, the all-gather of the partitioned checkpoint
	                     over the TP group before the recomputation */
	double ckpt_f;    /* exposed copy of the checkpoint to host memory after the forward */
	double ckpt_b;    /* exposed copy back before the recomputation, in the backward */
	/* training.offload_activations (step.c offload_traffic): one offloaded layer's copies */
	double off_f;     /* exposed copy of its activations to host memory in the forward */
	double off_b;     /* exposed copy back to the GPU in the backward */
	/* The parts of an MoE layer's forward (0 for a dense kind; docs/references.md §5.12):
	 * each is inside gemm or elem above, and its backward is twice it (dgrad and wgrad
	 * GEMMs, or twice the traffic), so a part's forward + backward is 3x it. */
	double moe_router;  /* gating GEMM h x E (BF16) and the score function, top-k, routing
	                       map and aux-loss traffic */
	double moe_permute; /* the sort of the routing map, the permutation of the token copies
	                       into expert order and back (and the dispatcher's chunk sort) */
	double moe_experts; /* the grouped expert GEMMs and activation at the balanced load
	                       k T / E tokens per expert, each expert's GEMM quantized on its own */
	double moe_skew;    /* what the busiest expert GPU adds over the balanced load: the
	                       padding to model.capacity_factor, or model.moe_imbalance */
	/* moe.host_time (step.c moe_host, docs/references.md §5.16): the host's launch time
	 * of a dropless MoE layer that its GPU time does not hide, per pass; not in f, b,
	 * comm_f or comm_b */
	double host_f;    /* forward [s] */
	double host_b;    /* backward [s] */
};
/*
 * Fill 'out' with the op times of one layer of 'plan' for one micro-batch on one GPU
 * (tokens b*s/cp, weights split t ways); 'cm' (from calc_comm of the same plan) gives
 * the TP/CP collectives, of which the share 1 - tp_overlap is charged, and of the hidden
 * share tp_overlap_sms / gpu.sms (docs/references.md §4.8).  Pure arithmetic.
 */
void calc_layer_time(const struct calc_plan *plan, const struct calc_comm *cm,
                     struct calc_layer_time *out);
/* The same for one layer of kind 'k' of the plan's model (calc_layer_time is kind 0). */
void calc_layer_time_kind(const struct calc_plan *plan, const struct calc_comm *cm, int k,
                          struct calc_layer_time *out);

struct calc_step {
	struct calc_comm comm;     /* traffic of the plan */
	struct calc_layer_time layer;  /* one layer of kind 0 (= kind_layer[0]) */
	struct calc_layer_time kind_layer[CALC_MAX_KINDS]; /* one layer of each kind */
	double peak;               /* dense BF16 tensor peak, the MFU/HFU denominator [FLOP/s] */
	double gemm_peak;          /* dense peak the layer GEMMs run at (FP8 in FP8 recipes) [FLOP/s] */
	int critical;              /* stage whose busy time sets the breakdown */
	double tf, tb, tw;         /* per micro-batch on the critical stage, incl. comm [s] */
	/* breakdown of the step; the six sum to 'time' */
	double compute;            /* forward + backward compute of the critical stage [s] */
	double recompute;          /* recomputation [s] */
	double tp_comm;            /* exposed TP + CP collectives, and the expert all-to-all [s] */
	double ep_exposed;         /* of tp_comm, the exposed expert all-to-all and ETP collectives [s] */
	double host_sync;          /* of compute, the MoE layers' host launch time after their
	                              token-count synchronisation that the GPU does not hide
	                              (moe.host_time, docs/references.md §5.16) [s] */
	double tp_overlap_cost;    /* of tp_comm, what hiding TP/CP collectives costs the GEMMs
	                              in the SMs they take (docs/references.md §4.8) [s] */
	double bubble;             /* pipeline idle time of the critical stage incl. p2p [s] */
	double dp_exposed;         /* gradient reduction not hidden behind backward [s] */
	double optimizer;          /* optimizer step [s] */
	double overhead;           /* efficiency.step_overhead: host time outside the GPU timeline [s] */
	double makespan;           /* pipeline part = compute + recompute + tp_comm + bubble [s] */
	double time;               /* one optimizer step [s] */
	double exposed[CALC_DIM_N];/* exposed time per dimension [s] */
	struct calc_flops flops;
	double mfu, hfu;           /* against the BF16 peak [0..1] (PaLM §4 / Korthikanti 2022 §6.3) */
	double mfu_fp8;            /* FP8 recipes: model FLOP/s against the dense FP8 peak (FP4 for an NVFP4
	                            * recipe), else 0 [0..1] */
	double model_tflops;       /* model FLOP/s per GPU [FLOP/s] */
	double hw_tflops;          /* hardware FLOP/s per GPU [FLOP/s] */
	double tokens_per_s;       /* whole job [tokens/s] */
	double steps;              /* optimizer steps for plan->tokens */
	double run_time;           /* [s] */
	double gpu_hours;          /* [GPU-hours] */
	double cost;               /* [currency] */
};

/*
 * Step time of the plan with the pipeline simulator: per-stage T_F, T_B, T_W from
 * calc_layer_time (plus embedding, LM head and loss on the first and last stage),
 * makespan from calc_pipeline_simulate, plus exposed DP communication and the
 * optimizer step.  Returns 0, or -1 after a diagnostic (the simulator refused).
 */
int calc_step(const struct calc_plan *plan, struct calc_step *out, struct calc_diag *d);

/*
 * The pipeline of the plan as calc_step simulates it: the stage costs into 'c' (T_F, T_B,
 * T_W per stage with embedding, LM head and loss, exposed TP/CP collectives and
 * recomputation; the p2p time) and the simulator's result into 'r' (busy and idle time
 * per stage, makespan), for per-stage figures such as monitoring baselines.  Returns 0,
 * or -1 after a diagnostic; the caller frees 'r' with calc_pp_result_free either way.
 */
int calc_step_stages(const struct calc_plan *plan, struct calc_pp_costs *c, struct calc_pp_result *r,
                     struct calc_diag *d);

/*
 * The planner's path: as calc_step with the closed-form makespan
 * m*(T_F+T_B+T_W) + bubble of the schedule (docs/references.md §3) on the most loaded
 * stage.  Allocates nothing, never fails; 0.2-0.4 us per call (make bench-comm).
 * The plan need not pass calc_plan_validate, but its fields must agree: dp with the
 * GPU count, and layers_per_stage[0 .. pp-1] either the split for this pp (as plan.c
 * fills it) or all 0, which means an even split L/pp.  The closed forms hold for
 * uniform stages, so with uneven stages or interleaving the result is an estimate
 * (within 2% of calc_step on the default plan for every schedule, tests/calc/step.c).
 */
void calc_step_fast(const struct calc_plan *plan, struct calc_step *out);

/* Per micro-batch times of the embedding on the first stage and of the LM head with
 * the loss on the last: forward, backward (inputs), backward (weights) [s]. */
struct calc_step_ends {
	double first_f, first_b, first_w, last_f, last_b, last_w;
	double mtp_proj; /* one multi-token prediction module's projection GEMM, each of its
	                    forward, input- and weight-gradient passes (0 without MTP) [s] */
};

/*
 * The compute part of a step's op times: one layer of every kind without its
 * collectives (comm_f, comm_b, ep_f, ep_b are 0) and the model's two ends.  It reads
 * the model, GPU, recipe, efficiency keys, tp, cp, ep, etp, micro-batch, sequence, sp,
 * recompute (with recompute_modules), flash attention and global batch of the plan -- not its schedule, vpp, pp, dp, ZeRO
 * stage or network -- so the planner computes it once for all the leaves of a split
 * that differ only in those.
 */
struct calc_step_compute {
	struct calc_layer_time kind[CALC_MAX_KINDS];
	struct calc_step_ends ends;
	struct calc_flops flops;          /* calc_flops of the plan (model, sequence, batch, recompute) */
	const struct calc_comm_pre *comm; /* the split's calc_comm_pre, or NULL (calc_step_compute
	                                     leaves it NULL; a caller that has one sets it) */
};
void calc_step_compute(const struct calc_plan *plan, struct calc_step_compute *out);
/*
 * calc_step_compute through a memo of its parts, for plans that differ only in tp, cp,
 * ep, etp, micro_batch, recipe, recompute and sp and in keys stage 1 does not read (the
 * planner's worker: the leaves of one search).  Each part is kept by what of those it
 * reads: a layer kind by all eight (ep and etp only for an MoE kind), the model's ends by
 * tp, cp, micro_batch and recipe, the FLOPs by recompute (not kept under recompute_method
 * = block, whose FLOPs read pp and vpp); *out is what calc_step_compute writes, bit for
 * bit.  A memo is used by one thread.
 */
struct calc_step_compute_memo;
void calc_step_compute_memo(struct calc_step_compute_memo **m, const struct calc_plan *plan,
                            struct calc_step_compute *out);
void calc_step_compute_memo_free(struct calc_step_compute_memo *m);

/*
 * The step engine runs in three stages, each a function of its own typed input, so that
 * what a stage must not read it is not given:
 *   1. compute of a split  plan -> struct calc_step_compute (above): one layer of each
 *                          kind without collectives, the model's two ends, the FLOPs;
 *   2. pipeline            struct calc_pipeline_in -> struct calc_pipeline_out
 *                          (calc_step_pipeline, calc_step_closed_bubble): the stages'
 *                          per micro-batch costs, the critical GPU and its bubble.  It
 *                          receives no plan: the ZeRO stage, dp, the network (but the
 *                          point-to-point send), the optimizer and the run are out of
 *                          its reach, which the planner's re-timing of a leaf under
 *                          another ZeRO stage (calc_step_fast_rezero) and its bounds
 *                          rely on;
 *   3. finish              the makespan, the DP exposure, the optimizer, the rates and
 *                          the run (step.c finish).
 * calc_step (the plain walk, step.c: stage 2 feeds the simulator) and the planner's path
 * (step_fast.c: stage 2 with the closed-form bubble, stage 1 shared by the leaves of a
 * split) call the same stage functions; `make check-fast` holds their results to each
 * other, bit for bit.
 */
/* The pipeline's shape: what the closed-form bubble reads besides the critical GPU's
 * per micro-batch times. */
struct calc_pipeline_shape {
	enum calc_schedule sched;
	int p;             /* stages */
	int m;             /* micro-batches per step, calc_plan_microbatches (the busy time
	                      counts at least 1) */
	int dual;          /* the schedule runs two ways (DualPipe) and p > 1 */
	int v;             /* model chunks the simulator runs per stage (1 without vpp) */
	int vpp;           /* parallel.vpp as the closed forms read it (1 when not set) */
	int flush;         /* 1: a flush between steps (no parallel.post_validation) */
	double p2p;        /* one activation send between stages [s] */
};
struct calc_pipeline_in {
	struct calc_pipeline_shape shape;
	const struct calc_layer_time *kind; /* one layer of each kind, with its collectives */
	int nkinds;
	struct calc_step_ends ends;         /* the model's two ends and the MTP projection */
	const struct calc_stage_layers *all; /* every stage's layers, p of them */
	const struct calc_stage_layers *chunks; /* every virtual stage's layers (a layout
	                                           placed chunk by chunk, calc_chunk_layers),
	                                           or NULL */
	int nchunks;
	int uniform;       /* calc_stage_layers_uniform of the split */
	int heavy;         /* calc_stage_layers_heaviest of the split (read when not uniform) */
	int offload_layers; /* calc_plan_offload_layers */
	struct calc_rc_rule rc;
	int mtp_depth;     /* model.mtp_depth */
	int mtp_kind;      /* calc_model_mtp_kind: the kind of an MTP module's block */
};
/* The critical GPU -- the one with the most work per step -- and its parts. */
struct calc_pipeline_out {
	double busy;       /* its work in one step, m (F + B + W) [s] */
	int critical;      /* its rank */
	double tf, tb, tw; /* per micro-batch, collectives included [s] */
	double compute, recompute, tp_comm, ep_exposed; /* of busy, as struct calc_step names them [s] */
	double host_sync;  /* of compute, as struct calc_step names it [s] */
};
/* Stage 2: the shape of a plan's pipeline, 'p2p' its point-to-point send [s]. */
void calc_step_pipeline_shape(const struct calc_plan *plan, double p2p, struct calc_pipeline_shape *out);
/* Stage 2: the input of a plan, from the layer times 'kind' (with collectives) and the
 * ends 'e' of stage 1; 'cpre' (may be NULL) the split's calc_comm_pre, whose stage layers
 * it points to, else 'buf' (CALC_MAX_STAGES entries) receives them; 'chunks' (may be
 * NULL: no chunk layout is costed) receives the virtual stages' layers of a layout
 * placed chunk by chunk; 'p2p' the point-to-point send [s]. */
void calc_step_pipeline_in(const struct calc_plan *plan, const struct calc_layer_time *kind,
                           const struct calc_step_ends *e, const struct calc_comm_pre *cpre,
                           struct calc_stage_layers *buf, struct calc_stage_layers *chunks, double p2p,
                           struct calc_pipeline_in *in);
/* Stage 2: every stage's costs into 'c' (may be NULL: only the critical GPU, the
 * planner's path) and the critical GPU into 'out', whose fields are kept when no rank's
 * busy time compares above -1 (NaN).  Returns out->busy.  The stages are at most
 * CALC_MAX_STAGES (plan.c's bound on parallel.pp, and the planner's). */
double calc_step_pipeline(const struct calc_pipeline_in *in, struct calc_pp_costs *c, struct calc_pipeline_out *out);
/* The critical GPU's parts (critical stage, T_F/T_B/T_W, compute, recomputation, TP and
 * exposed EP time) from a step into the pipeline stage's output, and back: the plain
 * walk (step.c) and the planner's path (step_fast.c) both carry them so. */
void calc_step_out_of(const struct calc_step *st, struct calc_pipeline_out *o);
void calc_step_out_to(const struct calc_pipeline_out *o, struct calc_step *st);
/* The closed-form bubble of the critical GPU with per micro-batch times tf, tb, tw, the
 * sends included (docs/references.md §3) [s]. */
double calc_step_closed_bubble(const struct calc_pipeline_shape *sh, double tf, double tb, double tw);
/* Stage 2, the collectives: the exposed TP/CP and expert collectives of one layer of
 * kind 'k' into 'o', which holds its compute (struct calc_step_compute's kind[k]). */
void calc_step_layer_comm(const struct calc_plan *plan, const struct calc_comm *cm, int k, struct calc_layer_time *o);
/* Stage 3: after the makespan (st->makespan and the critical GPU's parts set): the DP
 * exposure, the optimizer, the step time, the FLOP rates and the run; 'fl' (may be NULL:
 * computed) calc_flops of the plan. */
void calc_step_finish(const struct calc_plan *plan, struct calc_step *st, const struct calc_flops *fl);
/* calc_step_finish with the optimizer's time read from, or kept in, 'dm' (NULL: none),
 * the memo of calc_comm_pre of the plan's split: the same result, bit for bit. */
struct calc_comm_dp_memo;
void calc_step_finish_with(const struct calc_plan *plan, struct calc_step *st, const struct calc_flops *fl,
                           struct calc_comm_dp_memo *dm);
/* calc_step_finish_with of 'st' as calc_step_finish_with left it for the same plan at
 * another ZeRO stage, its comm's DP and expert-DP rows re-timed (calc_comm_rezero): the
 * split of the exposed TP and CP collectives (st->exposed[TP], exposed[CP],
 * tp_overlap_cost) is kept, not computed again.  It reads the TP, CP and hybrid fields of
 * st->comm, st->layer, st->tp_comm, st->ep_exposed and the plan's TP overlap, CP exchange
 * and recomputation keys, none of which calc_comm_rezero or the ZeRO stage changes, so
 * the same numbers (`make check-fast`: the fast path against the plain walk bit for bit).
 * Measured (callgrind, `trainplan search --threads 1 --plan plans/llama2-70b-a100.ini`,
 * whose 8,129 re-timed ZeRO stages each ran ring_exposed and the split): 40.04 -> 39.12 M
 * instructions. */
void calc_step_finish_rezero(const struct calc_plan *plan, struct calc_step *st, const struct calc_flops *fl,
                             struct calc_comm_dp_memo *dm);
/* The optimizer step's time [s] of 'grad_params' parameters sharded over 'dp_ranks' DP
 * ranks under the plan's ZeRO stage, and 'edp_params' over the expert-DP group. */
double calc_step_optimizer_time(const struct calc_plan *plan, double grad_params, double edp_params, int dp_ranks);

/* calc_step_fast with 'pre' from calc_step_compute of a plan that differs from 'plan'
 * at most in what calc_step_compute does not read: the same result, bit for bit
 * (calc_step_fast is calc_step_compute followed by this). */
void calc_step_fast_with(const struct calc_plan *plan, const struct calc_step_compute *pre,
                         struct calc_step *out);

/* calc_step_fast_with(plan, pre, st) where 'st' holds already calc_step_fast_with (or
 * this function) of the same 'pre' for a plan that differs from 'plan' only in its ZeRO
 * stage: the layer times, the stages' busy time, the bubble and the makespan do not read
 * the ZeRO stage (in comm.c only the DP and expert-DP collectives do) and are kept; the
 * DP and expert-DP rows (calc_comm_rezero) and everything after the makespan are
 * computed again.  The same result,
 * bit for bit (the planner's leaves of one split differ in the ZeRO stage last). */
void calc_step_fast_rezero(const struct calc_plan *plan, const struct calc_step_compute *pre,
                           struct calc_step *st);

/* calc_step_fast_with(plan, pre, st) where st->comm holds calc_comm_with(plan', pre->comm)
 * of a plan' that differs from 'plan' at most in the schedule, vpp and ZeRO stage, and
 * calc_comm_resched_applies(plan, pre->comm): the communication rows re-timed by
 * calc_comm_resched, then everything after them computed as calc_step_fast_with does.
 * The same result, bit for bit (the planner's schedule variants of one (recompute, SP)
 * pair of a split). */
void calc_step_fast_resched(const struct calc_plan *plan, const struct calc_step_compute *pre,
                            struct calc_step *st);

/* A lower bound of calc_step_fast_with(plan, pre)'s step time [s] from the compute part
 * alone: the critical GPU's compute and, where every stage holds the same layers of one
 * kind, the closed-form bubble of that compute.  It does not depend on the ZeRO stage.
 * The planner skips a leaf whose bound cannot enter its top K.  'scratch' is
 * overwritten. */
double calc_step_fast_bound(const struct calc_plan *plan, const struct calc_step_compute *pre,
                            struct calc_step *scratch);

/* calc_step_fast_bound in two parts, for a caller that bounds several schedules of one
 * split: the critical GPU's busy time without collectives, which reads the schedule
 * only through whether it runs two ways (DualPipe) and, with recompute_method = block,
 * vpp (calc_recompute_layers), ... */
struct calc_step_busy {
	double busy;       /* the critical GPU's compute in one step, no collectives [s] */
	double tf, tb, tw; /* its forward, backward (input) and weight-gradient time per micro-batch [s] */
	int uniform;       /* calc_stage_layers_uniform of the plan (it reads no schedule) */
};
void calc_step_fast_busy(const struct calc_plan *plan, const struct calc_step_compute *pre,
                         struct calc_step *scratch, struct calc_step_busy *out);
/* ... and the bound of plan's schedule from it (the closed-form bubble of that compute
 * where every stage holds the same layers of one kind): calc_step_fast_bound's number,
 * bit for bit, for 'b' from calc_step_fast_busy of the same split (a plan that differs
 * from 'plan' at most in its schedule and vpp).  'scratch' is overwritten. */
double calc_step_fast_bound_of(const struct calc_plan *plan, const struct calc_step_busy *b,
                               struct calc_step *scratch);

/* A lower bound [s] of what calc_step_fast_with(plan, pre) adds after the makespan --
 * the exposed DP collectives and the optimizer -- with 'pre' the split's calc_comm_pre:
 * (1 - efficiency.dp_overlap) of the DP collectives (none with parallel.fsdp) and the
 * optimizer of the dense parameters.  It depends on the ZeRO stage; added to
 * calc_step_fast_bound it bounds the step time. */
double calc_step_dp_bound(const struct calc_plan *plan, const struct calc_comm_pre *pre);

/* calc_step_dp_bound in parts, for a caller that adds them to a makespan bound: the DP
 * collectives' time (calc_comm_dp_only; 0 under parallel.fsdp) and the optimizer's. */
struct calc_step_dp_lb {
	double dp;  /* [s] */
	double opt; /* [s] */
};
void calc_step_dp_parts(const struct calc_plan *plan, const struct calc_comm_pre *pre, struct calc_step_dp_lb *out);
/* A lower bound [s] of calc_step_fast_with(plan, pre)'s step time given 'lb' <= its
 * makespan and 'x' from calc_step_dp_parts(plan, pre): lb plus the DP collectives that
 * neither efficiency.dp_overlap nor the window the makespan leaves them (at most lb / m,
 * or lb from ZeRO-2 on) can hide, plus the optimizer; never below lb +
 * calc_step_dp_bound's (1 - ov) D + optimizer but for rounding (the proof is above its
 * definition in step_fast.c).  With lb < 0 (none) it is calc_step_dp_bound's number. */
double calc_step_dp_bound_at(const struct calc_plan *plan, const struct calc_step_dp_lb *x, double lb);

/* The step result of a catalog context, computed once (NULL after a diagnostic). */
const struct calc_step *calc_ctx_step(struct calc_ctx *c, struct calc_diag *d);

/* Validation against published runs (validate.c). */
/* The A100 to H100 speed-up pairs of the validation rows (calc_validate_speedup). */
struct calc_speedup {
	int pairs;              /* pairs in the table */
	double max_abs, min_abs; /* largest, smallest |predicted / published - 1| of the speed-up */
	int heldout;            /* pairs neither of whose rows took part in a fit */
	double heldout_max_abs; /* largest |error| of those (0 when none) */
};
struct calc_validation {
	int rows;        /* published runs */
	int within;      /* rows within 15% */
	double mean_abs; /* mean |predicted / published - 1| */
	double max_abs;  /* largest |predicted / published - 1| */
	int heldout;     /* rows held out of their stack preset's calibration */
	double heldout_mean_abs; /* mean |error| over those rows (0 when none) */
	int stacks;      /* software stacks with at least one row */
	double heldout_stack_max; /* largest per-stack mean |error| over held-out rows */
	int mem_rows;    /* rows with a published measured peak memory */
	double mem_max_abs; /* largest |predicted peak / published peak - 1| over those rows */
	int nofit;       /* rows (runs that ran) predicted not to fit their GPUs' memory */
	struct calc_speedup speedup; /* the A100 to H100 pairs of the rows */
	int noexpr;      /* published runs shown but not expressible yet (not in 'rows') */
	/* held-out rows and their mean |error| per group (calc_validate_goals):
	 * CALC_VG_ALL, the GPU generations A100 / H100 / Blackwell, dense and MoE */
	int group_rows[6];
	double group_mean_abs[6];
	int sources_over_half; /* sources of which more than half the rows calibrate */
	int goals, goals_met;  /* the held-out validation goals checked, and met */
};
enum { CALC_VG_ALL, CALC_VG_A100, CALC_VG_H100, CALC_VG_BLACKWELL, CALC_VG_DENSE, CALC_VG_MOE };
/* Run every validation row, with 'sets' applied after each row's own settings; fill
 * 'out' (may be NULL) with one row per run and 'sum' (may be NULL).  Returns 0 or -1. */
int calc_validate(const char *const *sets, int nsets, struct calc_table *out, struct calc_validation *sum,
                  struct calc_diag *d);
/* Summarise a table of calc_validate per software stack into 'out': one row per stack
 * with its rows, calibrating and held-out counts, the mean |error| in and out of
 * sample, the largest held-out |error| and the memory rows' largest |error|.
 * 'heldout_max' (may be NULL) receives the largest per-stack held-out mean.  Returns
 * the number of stacks. */
int calc_validate_stacks(const struct calc_table *rows, struct calc_table *out, double *heldout_max);
/* The out-of-sample uncertainty band of the time model: over the held-out rows (role not
 * "calibrates") of 'rows' (a calc_validate table) whose stack is 'stack' and whose class
 * begins with the GPU generation 'hardware' ("H100 dense"); where fewer than 'min_rows'
 * (or 'hardware' is NULL or the table has no class column), over the stack's rows on
 * every GPU; where those are fewer too (or 'stack' is NULL), over all held-out rows.  A
 * row stack matches a plan's stack of its name or of its name and a "-" suffix, the
 * longest such: megatron for megatron-core-0.19, nemo for nemo-2024.  The band is the
 * |error| that a fraction 'q' of those rows do not exceed (nearest rank).  Returns 0, or
 * -1 when no row qualifies (band NaN). */
struct calc_band {
	double band;   /* |predicted / published - 1| at quantile q */
	int rows;      /* rows it is taken over */
	int per_stack; /* 1: the stack's own rows; 0: all held-out rows */
	int per_hardware; /* 1: the stack's rows on the plan's GPU generation only */
	char scope[40]; /* the rows' stack name, or "all stacks" */
};
#define CALC_BAND_Q 0.9      /* the fraction of held-out rows inside the band */
#define CALC_BAND_MIN_ROWS 5 /* fewer held-out rows in a group than this: the next wider group */
int calc_validate_band(const struct calc_table *rows, const char *stack, const char *hardware, double q,
                       int min_rows, struct calc_band *b);
/* The comparison band (docs/references.md §7.18): the error of the model on the ratio of
 * the step times of two splits, which is what ranking two candidates rests on.  Over the
 * pairs of held-out rows of 'rows' (a calc_validate table) that share source, stack,
 * model, GPU count and class and differ in the split (TP, CP, PP, DP, v or recompute),
 * the error of a pair is exp(|ln(1 + e_i) - ln(1 + e_j)|) - 1, e = predicted / published
 * - 1 (the same for a time and for a rate: only the sign of the logarithm differs); the
 * band is the one a fraction 'q' of the pairs do not exceed (nearest rank), and no less
 * than 'floor'.  Pairs are grouped as calc_validate_band groups rows (the plan's stack on
 * its GPU generation, the stack on every GPU, all stacks), the first group with
 * 'min_pairs' pairs or more; b->rows counts pairs.  A pure function of its arguments.
 * Returns 0, or -1 when no pair qualifies (band NaN). */
#define CALC_COMPARE_FLOOR 0.02 /* no source: docs/references.md §7.18 */
int calc_validate_compare_band(const struct calc_table *rows, const char *stack, const char *hardware, double q,
                               int min_pairs, double floor, struct calc_band *b);
/* The GPU generation of a GPU preset name: "A100", "H100" (H100, H800, H200), "Blackwell"
 * (B200, GB200, B300, GB300) or "other". */
const char *calc_gpu_generation(const char *gpu);
/* The recommendation's band (pick.c) for plan p under plan.pick_band: validation.band of
 * its stack and GPU generation (absolute, the catalog's rule), the comparison band of them
 * (comparison, calc_validate_compare_band), or plan.pick_band_fixed (fixed); the first two
 * computed once per stack, generation and kind; NaN where it cannot be had. */
double calc_validate_plan_band(const struct calc_plan *p);
/* The band of a stack name and a GPU generation (calc_gpu_generation's) run from the
 * validation rows now, kept per pair for the process and the schedule table's generation
 * ('gen' is kept by address: a string that lives as long as the process);
 * what calc_validate_plan_band returns where the built table (build/band_table.h) does
 * not hold. */
double calc_validate_band_run(const char *stack, const char *gen);
/* Entry i of the bands computed when trainplan was built: 1 and the entry, 0 past the end;
 * i < 0: the number of entries; -1 when this build has no such table. */
int calc_validate_band_built(int i, const char **stack, const char **gen, double *band);
/* One validation row (validate.c's table, in its order) put through the model with no
 * keys but its own: what the validation table and its summary read of it. */
struct calc_validate_res {
	int ok;                        /* 1: computed */
	double pred;                   /* the row's metric, predicted [the metric's unit] */
	double mfu, hfu;               /* [1] */
	double peak;                   /* predicted peak of the fullest stage [B] (rows with mem_gib) */
	int dp, v, fits;               /* DP degree, interleaving depth shown; 1: predicted to fit */
	char model[CALC_NAME_MAX];     /* the model's name in the table */
	char recipe[CALC_NAME_MAX];    /* training.recipe of the row */
};
/* The number of validation rows. */
int calc_validate_row_count(void);
/* Row i (0 .. calc_validate_row_count() - 1) run through the model now into *o: 0; -1
 * (o->ok 0) for a row that predicts nothing (not expressible) or whose run fails. */
int calc_validate_row_run(int i, struct calc_validate_res *o);
/* Row i as computed when trainplan was built (build/band_table.h, calc/gen/band_table.c),
 * what the validation table reads while the schedule table's generation is the built-in
 * one (and runs the row otherwise): 1 and the row; 0 where the table holds none for it
 * (past the end, or a row that predicts nothing or failed, which is run where it is asked
 * for, with its message); -1 when this build has no such table. */
int calc_validate_row_built(int i, struct calc_validate_res *o);
/* Fill 'out' (may be NULL: not built) with one row per A100 to H100 pair of a calc_validate
 * table 'rows' (validate.c: one model, stack, recipe and checkpointing setting on both
 * GPUs): stack, model, the two runs, published and predicted speed-up, error, role; and 's'
 * (may be NULL).  A pair whose rows the table does not hold (a --set that changes a row's
 * recipe) is left out.  Returns the pairs built. */
int calc_validate_speedup(const struct calc_table *rows, struct calc_table *out, struct calc_speedup *s);
/* The held-out goals over a calc_validate table 'rows' (validate.c, docs/references.md
 * §7.13): the mean |error| of the held-out rows in all, per GPU generation and for dense
 * and MoE models, the largest peak-memory error, the runs predicted not to fit and the
 * sources that calibrate more than half their rows, each against its limit, met or
 * missed.  Fills 'out' (may be NULL) with one row per goal and the group and goal fields
 * of 's' (may be NULL).  Rows marked "not expressible" take no part.  Returns the goals
 * met. */
int calc_validate_goals(const struct calc_table *rows, struct calc_table *out, struct calc_validation *s);

#endif
