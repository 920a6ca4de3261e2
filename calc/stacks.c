/*
 * stacks.c -- software-stack presets (efficiency.stack): the named conventions of a
 * training framework, as plan keys.
 *
 * One set of values per stack; a plan (or a validation row) sets only what its paper or
 * log states and takes the rest from its stack.  A stack's knobs apply to every key the
 * plan file and the overrides leave unset (plan.c apply_stack); a plan that names no
 * stack takes megatron-core.  A stack whose defaults changed with a release keeps the old
 * values under a dated name, so that old results (and the validation rows fitted with
 * them) stay reproducible; the bare name is an alias of the newest.
 *
 * Rank order (parallel.placement, innermost first; docs/references.md §4.9), each from
 * the framework's source at a commit:
 *   Megatron-Core     tp-cp-ep-dp-pp: initialize_model_parallel's order
 *                     (megatron/core/parallel_state.py at core_v0.19.0, 5be9626709af, and
 *                     the same at core_r0.8.0, baf94af3c667, 2024-08), which Megatron-LM
 *                     passes unless --use-tp-pp-dp-mapping (megatron/training/initialize.py,
 *                     'tp-cp-ep-pp-dp'); the expert RankGenerator takes the same order with
 *                     etp, ep and edp (comm.c expert_strides).  NeMo 2 and Megatron-Bridge
 *                     call it with the default.
 *   torchtitan        tp-cp-ep-dp-pp: build_mesh unflattens the world mesh outermost first
 *                     as (pp, dp_replicate, dp_shard, cp, tp) and, for the experts,
 *                     (pp, dp_replicate, efsdp, ep) (torchtitan/distributed/parallel_dims.py
 *                     at b5bcd76c66d0, lines 307-329): EP innermost, which is Megatron-Core's
 *                     expert order with etp = 1, torchtitan's.
 *   DeepSpeed         tp-cp-dp-pp: PipeModelDataParallelTopology(axes = ['pipe', 'data',
 *                     'model']) with the last axis innermost (deepspeed/runtime/pipe/
 *                     topology.py at edaa72212672, ProcessTopology and line 248); DeepSpeed
 *                     has no context parallelism in that topology (cp = 1 in its rows).
 *   PyTorch FSDP      tp-cp-dp-pp: a 2-D mesh (dp, tp) with TP innermost
 *                     (init_device_mesh, torch.distributed.device_mesh); FSDP1 has no
 *                     pipeline or context parallelism (pp = cp = 1 in its rows).
 *
 * Context parallelism's exchange (parallel.cp_comm; docs/references.md §4.7, §4.10),
 * each framework's default where the user names none:
 *   Megatron-Core     p2p, the ring: Megatron-LM --cp-comm-type default ["p2p"]
 *                     (megatron/training/arguments.py:3054 at core_v0.19.0, 5be9626709af);
 *                     TransformerConfig.cp_comm_type = None (transformer_config.py:987)
 *                     is passed to Transformer Engine as "p2p" (megatron/core/extensions/
 *                     transformer_engine.py:1870-1871), TE's AttnFuncWithCPAndKVP2P.
 *                     Megatron-Bridge 0.6.0's recipes (src/megatron/bridge/recipes,
 *                     perf_recipes and models/llama at 51885cf132b2) do not set
 *                     cp_comm_type, nor do NeMo 2's recipes and GPT/Llama configs
 *                     (nemo/collections/llm at 8cfedd7203, 2025-09-20; only Mistral's sets
 *                     a2a), so megatron-bridge-0.6 and nemo run the same ring.
 *   torchtitan        allgather: parallelism.context_parallel_rotate_method = "allgather"
 *                     (torchtitan/config/configs.py line 245 at 0e9e265797c5, 2026-06-14),
 *                     PyTorch's context-parallel SDPA all-gathering the K, V shards
 *                     (the next commit, 8e5554449, removed the knob as unused).
 *   DeepSpeed, FSDP1  no context parallelism in these stacks (cp = 1 in their rows): no
 *                     knob, the project's default stays.
 * The dated stacks (megatron-core-2024, nemo-2024) keep the project's earlier default,
 * allgather (Llama 3 §3.3.2), under which their validation rows were fitted.
 *
 *   megatron-core     an alias of megatron-core-0.19.
 *   megatron-core-0.19  Megatron-Core 0.19 as Megatron-Bridge 0.6.0's pre-training recipes
 *                     configure it (src/megatron/bridge/recipes/common.py _pretrain_common at
 *                     v0.6.0, 51885cf132b2, lines 80-88: use_distributed_optimizer = True,
 *                     overlap_grad_reduce = True, overlap_param_gather = True,
 *                     grad_reduce_in_fp32 = True): the order above; the distributed optimizer
 *                     is the default plan's parallel.zero = 1 (not a knob: the planner
 *                     sets the ZeRO stage of each candidate, and a stack's knob would
 *                     override it); FP32 gradients reduced in FP32 (the megatron recipe's; the
 *                     knob is left to the recipe so that a plan's own recipe keeps its
 *                     gradients), efficiency.dp_overlap at its default 0.8: the recipes
 *                     overlap the gradient reduce-scatter and the parameter all-gather, and
 *                     no source publishes the share hidden.  TP communication overlap
 *                     (Transformer Engine userbuffers) is a choice of each model's recipe
 *                     in Megatron-Bridge 0.6.0 (on in recipes/llama/h100/llama3.py, off in
 *                     recipes/deepseek/h100/deepseek_v3.py) and off in Megatron-LM's
 *                     arguments (--tp-comm-overlap); the share it hides is not published, so
 *                     efficiency.tp_overlap stays 0 (docs/references.md §4.8).  CUDA graphs:
 *                     cuda_graph_impl = "none" by default (megatron/core/transformer/
 *                     transformer_config.py line 1075 at d98e8a64), training.cuda_graphs'
 *                     default none.  moe.host_time = 4.4e-3 with moe.host_overlap = none is
 *                     FITTED, not a framework value: the host's time after a dropless MoE
 *                     layer's token-count synchronisation (token_dispatcher.py
 *                     _maybe_dtoh_and_synchronize, HybridEP's num_permuted_tokens), least
 *                     squares on 6 of the 12 Megatron-Bridge 26.04.01 / 26.06 MoE rows that
 *                     show a fixed per-layer gap, the other 6 held out (calc/validate.c,
 *                     docs/references.md §5.16; 4.4 ms since the H100's FP8 GEMM share is
 *                     derived (calc/presets.c), RMS 10.3 % on the six rows; 4.5 ms before,
 *                     since the MoE block's module recomputation repeats its host time, 5 ms
 *                     before that); megatron-bridge-0.6 carries the same.
 *   megatron-core-2024  the values trainplan gave megatron-core before the stacks carried
 *                     their rank order: the plan's defaults with placement tp-cp-pp-dp
 *                     (Megatron-LM's --use-tp-pp-dp-mapping order for a dense model).  The
 *                     Megatron validation rows run under it (calc/validate.c).
 *   megatron-bridge-0.6  Megatron-Bridge 0.6.0's performance recipes
 *                     (src/megatron/bridge/perf_recipes/_common.py _benchmark_common at
 *                     v0.6.0, 51885cf132b2, line 72: ddp.grad_reduce_in_fp32 = False, over
 *                     the pre-training recipe's settings above): BF16 gradients reduced in
 *                     BF16 -- with grad_reduce_in_fp32 off Megatron-Core's gradient buffer
 *                     takes the parameters' dtype (megatron/core/distributed/
 *                     param_and_grad_buffer.py group_params_for_buffers at core_v0.19.0) --
 *                     so training.main_grads = bf16 and efficiency.grad_reduce = bf16.
 *                     Its MoE recipes (perf_recipes/deepseek/common.py lines 34-37 and
 *                     55-77 at 067f987: the flex dispatcher with the HybridEP backend on 32
 *                     SMs, moe_router_fusion and moe_permute_fusion on) give
 *                     moe.dispatcher = hybridep, moe.comm_sms = 32 and both fusions; on a
 *                     dense model these keys do nothing.  Their overlap_moe_expert_parallel_comm
 *                     is not a stack value: Megatron-Core refuses it without EP and with full
 *                     recomputation (plan.c), and a key the plan did not write must not
 *                     refuse a plan -- a plan sets moe.overlap_ep_comm itself.
 *   deepspeed-zero3   DeepSpeed ZeRO-3 as Narayanan et al. 2021 §5.2 ran it against
 *                     PTD-P (Rajbhandari et al. 2020 §5.3): FP16 mixed-precision Adam
 *                     (2 + 2 + 12 bytes), per-module parameter gathers, FP16 gradient
 *                     reduce-scatter.  The gathered parameters and unsharded gradients a
 *                     rank holds at once are DeepSpeed's default stage3_max_live_parameters,
 *                     1e9 (deepspeed/runtime/zero/config.py, max_live_parameters), never
 *                     less than the layer's largest linear (calc/memory.c) -- not whole
 *                     layers as FSDP.  Its collectives: one flat ring over the ranks;
 *                     dp_bandwidth 0.85 and dp_overlap 0.6 fitted to two of the six
 *                     rows of Narayanan 2021 Table 2 (175B on 384 and on 1,536 GPUs),
 *                     the other four held out (calc/validate.c).
 *   deepspeed-megatron  DeepSpeed's pipeline engine and data parallelism over Megatron's
 *                     tensor parallelism as MT-NLG 530B ran it (Smith et al. 2022 §2.3-2.4):
 *                     the ZeRO mixed-precision optimizer's bytes (2 + 2 + 12, ZeRO §3.1);
 *                     efficiency.gemm 0.55 fitted (trainplan calibrate: 0.547) on the
 *                     2,240-GPU run of §2.4, the 2,800- and 3,360-GPU runs held out
 *                     (calc/validate.c, tests/cli/calibrate-dsmeg.*).
 *   fsdp1             PyTorch FSDP FULL_SHARD (Zhao et al. 2023 §3-4): one unit per
 *                     layer, BACKWARD_PRE prefetch, BF16 MixedPrecision with BF16
 *                     gradient reduction; its states are the torch-mp recipe's (FP32
 *                     sharded parameters, gradients and moments, 16 B; recipe.c).
 *                     efficiency.gemm 0.74 of the GPU's measured achievable matmul rate
 *                     (efficiency.gemm_basis = achievable: A100 271.2, H100 794.5 TFLOP/s
 *                     BF16, docs/references.md §5.9) fitted (trainplan calibrate: 0.741
 *                     +- 0.028; 0.616 +- 0.032 of the datasheet peak before) on 4 of the
 *                     8 MPT rows of llm-foundry's benchmark tables (A100 80 GB and H100;
 *                     calc/validate.c, tests/cli/calibrate-fsdp1.*), the other 4 held
 *                     out; one value for both GPUs, since a stack's knob does not depend
 *                     on the GPU -- a share of the achievable rate, as cuBLAS reaches
 *                     86.9% of the A100's peak and 80.3% of the H100's.
 *   torchtitan        torchtitan with FSDP2 (Liang et al. 2024 §3.1): per-layer
 *                     fully_shard, reshard_after_forward, FP32 gradient reduction
 *                     (mixed_precision_reduce = float32), the torch-mp recipe's states
 *                     (FSDP2 MixedPrecisionPolicy, param_dtype = bf16: FP32 sharded
 *                     parameters); with PP a stage keeps its
 *                     parameters gathered (comm.c); the loss is torch's
 *                     F.cross_entropy on an FP32 upcast, under loss_parallel with TP
 *                     (train.py loss_fn; docs/references.md §2.5); DTensor TP saves
 *                     the all-gathered input of the column-parallel linears
 *                     (parallel.sp_saved_input = gathered, §2.9).  Hidden TP collectives
 *                     take no SMs (efficiency.tp_overlap_sms 0): its async TP
 *                     (parallelism.enable_async_tensor_parallel, with torch.compile;
 *                     torchtitan/distributed/tensor_parallel.py maybe_enable_async_tp sets
 *                     torch._inductor.config._micro_pipeline_tp) runs the all-gather +
 *                     matmul and matmul + reduce-scatter as torch's symm_mem
 *                     fused_all_gather_matmul and fused_matmul_reduce_scatter, which move
 *                     each shard by Tensor.copy_ between symmetric-memory buffers
 *                     (torch/distributed/_symmetric_memory/__init__.py), for contiguous
 *                     tensors of one dtype a cudaMemcpyAsync (aten/src/ATen/native/cuda/
 *                     Copy.cu copy_device_to_device): the copy engine, not a kernel.  Not
 *                     counted: the one-block barrier kernels between the chunks and the
 *                     reduce-scatter's final sum of the t partials (docs/references.md
 *                     §4.8).  Its tp_overlap stays the default 0: async TP is off by
 *                     default (enable_async_tensor_parallel = False), and no source says
 *                     what share of the collectives it hides.  The same defaults hold in
 *                     the current torchtitan (torchtitan/config/configs.py at b5bcd76c66d0:
 *                     mixed_precision_param = "bfloat16" line 94, mixed_precision_reduce =
 *                     "float32" line 102, enable_async_tensor_parallel = False line 298), so
 *                     the stack has no dated alias; its order is above.  Its pipeline runs
 *                     torch.distributed.pipelining's PipelineStage (torchtitan's
 *                     pipeline_llama.py at 9dec370), whose per-micro-batch receive buffers,
 *                     retained outputs and the input gradients left in the receive buffers
 *                     parallel.pp_runtime = torch counts (memory.c, docs/references.md §2.17).
 *   nemo              NeMo with Megatron-Core and Apex distributed Adam: BF16 gradients
 *                     reduced in BF16 (NeMo docs, "distributed_fused_adam", grad_sync_dtype),
 *                     FP32 master weights and moments: 2 + 2 + 4 + 8 bytes, the plan's
 *                     recipe with training.main_grads = bf16 (recipe.c calc_recipe_grads;
 *                     docs/references.md §2.6), so that the FP8 recipe fp8-te of its rows
 *                     keeps the stack's BF16 gradients.  So the GPT-3 175B run of
 *                     NeMo's performance summary (NeMo 25.02, DGX-H100: 512 GPUs, TP 4,
 *                     PP 8, VP 6, micro-batch 2, sequence 2,048) fits 80 GB, which FP32
 *                     main gradients would not (tests/calc/memory.c).  efficiency.gemm
 *                     0.533 fitted (trainplan calibrate: 0.5330 with Transformer Engine's
 *                     FP8 TP all-gathers, docs/references.md §4.2; 0.5457 before them under
 *                     the H100 attention share 0.35 of calc/presets.c; 0.54 under the
 *                     earlier 0.37, tests/calc/calibrate.c) on 3 of the 7 FP8 rows of NeMo
 *                     24.07's performance summary (GPT-3 175B on 128 GPUs, Llama 2 7B,
 *                     Llama 3 70B; docs/references.md §7.8), the other 4 held out
 *                     (calc/validate.c).  Fitted on FP8 runs only, it also applies to a
 *                     BF16 plan of this stack.
 *   nemo-2024         nemo's values with placement tp-cp-pp-dp, the order trainplan used when
 *                     the NeMo 24.07 rows fitted efficiency.gemm (0.533); those rows run under
 *                     it (calc/validate.c).  Under nemo's own order the four held-out rows
 *                     come out at a mean error of 6.2 % (7.6 % under nemo-2024), the fit
 *                     unchanged.
 *   torchtitan's rows fitted no knob of the stack: their fitted pair is the Grand Teton
 *   GPU's (h100-96g-500w, calc/presets.c), the hardware they ran on.
 */
#include "stacks.h"

#include <string.h>

static const struct calc_stack stacks[] = {
	{"megatron-core", "Megatron-Core, the newest release trainplan has (megatron-core-0.19)", "", {NULL},
	 "megatron-core-0.19"},
	{"megatron-core-0.19", "Megatron-Core 0.19 as Megatron-Bridge 0.6.0's pre-training recipes run it",
	 "Megatron-LM core_v0.19.0 parallel_state.py (order); Megatron-Bridge v0.6.0 recipes/common.py _pretrain_common",
	 {"parallel.placement=tp-cp-ep-dp-pp", "parallel.cp_comm=p2p", "moe.host_time=4.4e-3", "moe.host_overlap=none", NULL}, NULL},
	{"megatron-core-2024", "Megatron-Core as trainplan had it before the stacks' rank orders (tp-cp-pp-dp)",
	 "trainplan's earlier defaults; Megatron-LM --use-tp-pp-dp-mapping (initialize.py)",
	 {"parallel.placement=tp-cp-pp-dp", NULL}, NULL},
	{"megatron-bridge-0.6", "Megatron-Bridge 0.6.0 performance recipes (BF16 gradient reduction)",
	 "Megatron-Bridge v0.6.0 perf_recipes/_common.py _benchmark_common, recipes/common.py _pretrain_common",
	 {"parallel.placement=tp-cp-ep-dp-pp", "parallel.cp_comm=p2p", "training.main_grads=bf16", "efficiency.grad_reduce=bf16",
	  "moe.dispatcher=hybridep", "moe.comm_sms=32", "moe.router_fusion=yes", "moe.permute_fusion=yes",
	  "moe.host_time=4.4e-3", "moe.host_overlap=none", NULL}, NULL},
	{"deepspeed-zero3", "DeepSpeed ZeRO-3 as run in 2021 (no model parallelism)",
	 "Rajbhandari et al. 2020 §5.3; Narayanan et al. 2021 §5.2 / Table 2; DeepSpeed pipe/topology.py (order), "
	 "zero/config.py (stage3_max_live_parameters)",
	 {"parallel.fsdp=yes", "training.recipe=zero-paper", "efficiency.dp_algorithm=flat",
	  "efficiency.dp_bandwidth=0.85", "efficiency.dp_overlap=0.6", "parallel.placement=tp-cp-dp-pp",
	  "parallel.fsdp_live_params=1e9", NULL}, NULL},
	{"deepspeed-megatron", "DeepSpeed pipeline engine over Megatron tensor parallelism (2021-22)",
	 "Smith et al. 2022 (MT-NLG) §2.3-2.4; ZeRO §3.1 (the optimizer's bytes); DeepSpeed pipe/topology.py (order)",
	 {"training.recipe=zero-paper", "efficiency.gemm=0.55", "parallel.placement=tp-cp-dp-pp", NULL}, NULL},
	{"fsdp1", "PyTorch FSDP FULL_SHARD, BF16 mixed precision",
	 "Zhao et al. 2023 (PyTorch FSDP) §3-4; llm-foundry MPT benchmark tables (gemm); ml-engineering MAMF table (gemm_basis)",
	 {"parallel.fsdp=yes", "training.recipe=torch-mp", "efficiency.grad_reduce=bf16", "efficiency.gemm_basis=achievable",
	  "efficiency.gemm=0.74", "parallel.placement=tp-cp-dp-pp", NULL}, NULL},
	{"torchtitan", "torchtitan with FSDP2, FP32 gradient reduction",
	 "Liang et al. 2024 (TorchTitan) §3.1; torch symm_mem async TP (copy-engine copies); parallel_dims.py (order)",
	 {"parallel.fsdp=yes", "training.recipe=torch-mp", "efficiency.grad_reduce=fp32",
	  "training.cross_entropy=torch", "efficiency.tp_overlap_sms=0", "parallel.sp_saved_input=gathered",
	  "parallel.placement=tp-cp-ep-dp-pp", "parallel.cp_comm=allgather",
	  "parallel.pp_runtime=torch", NULL}, NULL},
	{"nemo", "NeMo, Megatron-Core with Apex distributed Adam (BF16 gradients)",
	 "NeMo docs: distributed_fused_adam, grad_sync_dtype = bf16; NeMo 24.07 performance summary (gemm); "
	 "Megatron-Core 0.8 parallel_state.py (order)",
	 {"training.main_grads=bf16", "efficiency.grad_reduce=bf16", "efficiency.gemm=0.533",
	  "parallel.placement=tp-cp-ep-dp-pp", "parallel.cp_comm=p2p", NULL}, NULL},
	{"nemo-2024", "nemo as trainplan had it before the stacks' rank orders (tp-cp-pp-dp)",
	 "as nemo; the order trainplan used when the NeMo 24.07 rows fitted efficiency.gemm",
	 {"training.main_grads=bf16", "efficiency.grad_reduce=bf16", "efficiency.gemm=0.533",
	  "parallel.placement=tp-cp-pp-dp", NULL}, NULL},
};
#define NSTACKS (int)(sizeof stacks / sizeof stacks[0])

const struct calc_stack *calc_stack_at(int i)
{
	return i >= 0 && i < NSTACKS ? &stacks[i] : NULL;
}

const struct calc_stack *calc_stack_find(const char *name)
{
	for (int i = 0; i < NSTACKS; i++)
		if (!strcmp(stacks[i].name, name))
			return stacks[i].alias ? calc_stack_find(stacks[i].alias) : &stacks[i];
	return NULL;
}
