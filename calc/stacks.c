/*
 * stacks.c -- software-stack presets (efficiency.stack): the named conventions of a
 * training framework, as plan keys.
 *
 * One set of values per stack; a plan (or a validation row) sets only what its paper or
 * log states and takes the rest from its stack.  A stack's knobs apply to every key the
 * plan file and the overrides leave unset (plan.c apply_stack).  Sources:
 *   megatron-core     Megatron-Core with Transformer Engine: the built-in defaults
 *                     (distributed optimizer, FP32 main gradients; Megatron-LM docs).
 *   deepspeed-zero3   DeepSpeed ZeRO-3 as Narayanan et al. 2021 §5.2 ran it against
 *                     PTD-P (Rajbhandari et al. 2020 §5.3): FP16 mixed-precision Adam
 *                     (2 + 2 + 12 bytes), per-module parameter gathers, FP16 gradient
 *                     reduce-scatter.  Its collectives: one flat ring over the ranks;
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
 *                     what share of the collectives it hides.
 *   nemo              NeMo with Megatron-Core and Apex distributed Adam: BF16 gradients
 *                     reduced in BF16 (NeMo docs, "distributed_fused_adam", grad_sync_dtype),
 *                     FP32 master weights and moments: 2 + 2 + 4 + 8 bytes, the plan's
 *                     recipe with training.main_grads = bf16 (recipe.c calc_recipe_grads;
 *                     docs/references.md §2.6), so that the FP8 recipe fp8-te of its rows
 *                     keeps the stack's BF16 gradients.  So the GPT-3 175B run of
 *                     NeMo's performance summary (NeMo 25.02, DGX-H100: 512 GPUs, TP 4,
 *                     PP 8, VP 6, micro-batch 2, sequence 2,048) fits 80 GB, which FP32
 *                     main gradients would not (tests/calc/memory.c).  efficiency.gemm
 *                     0.54 fitted (trainplan calibrate) on 3 of the 7 FP8 rows of NeMo
 *                     24.07's performance summary (GPT-3 175B on 128 GPUs, Llama 2 7B,
 *                     Llama 3 70B; docs/references.md §7.8), the other 4 held out
 *                     (calc/validate.c).  Fitted on FP8 runs only, it also applies to a
 *                     BF16 plan of this stack.
 *   torchtitan's rows fitted no knob of the stack: their fitted pair is the Grand Teton
 *   GPU's (h100-96g-500w, calc/presets.c), the hardware they ran on.
 */
#include "calc.h"

#include <string.h>

static const struct calc_stack stacks[] = {
	{"megatron-core", "Megatron-Core + Transformer Engine (the defaults)",
	 "Megatron-LM docs: distributed optimizer, FP32 main grads", {NULL}},
	{"deepspeed-zero3", "DeepSpeed ZeRO-3 as run in 2021 (no model parallelism)",
	 "Rajbhandari et al. 2020 §5.3; Narayanan et al. 2021 §5.2 / Table 2",
	 {"parallel.fsdp=yes", "training.recipe=zero-paper", "efficiency.dp_algorithm=flat",
	  "efficiency.dp_bandwidth=0.85", "efficiency.dp_overlap=0.6", NULL}},
	{"deepspeed-megatron", "DeepSpeed pipeline engine over Megatron tensor parallelism (2021-22)",
	 "Smith et al. 2022 (MT-NLG) §2.3-2.4; ZeRO §3.1 (the optimizer's bytes)",
	 {"training.recipe=zero-paper", "efficiency.gemm=0.55", NULL}},
	{"fsdp1", "PyTorch FSDP FULL_SHARD, BF16 mixed precision",
	 "Zhao et al. 2023 (PyTorch FSDP) §3-4; llm-foundry MPT benchmark tables (gemm); ml-engineering MAMF table (gemm_basis)",
	 {"parallel.fsdp=yes", "training.recipe=torch-mp", "efficiency.grad_reduce=bf16", "efficiency.gemm_basis=achievable",
	  "efficiency.gemm=0.74", NULL}},
	{"torchtitan", "torchtitan with FSDP2, FP32 gradient reduction",
	 "Liang et al. 2024 (TorchTitan) §3.1; torch symm_mem async TP (copy-engine copies)",
	 {"parallel.fsdp=yes", "training.recipe=torch-mp", "efficiency.grad_reduce=fp32",
	  "training.cross_entropy=torch", "efficiency.tp_overlap_sms=0", "parallel.sp_saved_input=gathered", NULL}},
	{"nemo", "NeMo, Megatron-Core with Apex distributed Adam (BF16 gradients)",
	 "NeMo docs: distributed_fused_adam, grad_sync_dtype = bf16; NeMo 24.07 performance summary (gemm)",
	 {"training.main_grads=bf16", "efficiency.grad_reduce=bf16", "efficiency.gemm=0.54", NULL}},
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
			return &stacks[i];
	return NULL;
}
