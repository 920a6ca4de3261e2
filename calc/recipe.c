/*
 * recipe.c -- the convention ledger: bytes per parameter of every tensor class.
 *
 * Sources disagree on what "mixed-precision Adam" keeps, so each convention is a
 * named recipe and the user chooses (training.recipe).  Sources:
 *   seed        the textbook baseline: BF16 weights (2 B) + Adam m and v (8 B)
 *   zero-paper  Rajbhandari et al. 2020 §3.1: 2 + 2 + K, K = 12 (16 B)
 *   megatron    Megatron-LM README "Distributed Optimizer" table: bf16 params with
 *               fp32 grads 18 B, distributed 6 + 12/d; theoretical_memory_usage.py
 *   fp32        full fp32 training: 4 + 4 + 8 (16 B)
 *   adam-8bit   Dettmers et al. 2021 (bitsandbytes): m, v in 8 bits, 75% less state
 *   fp8-te      Transformer Engine default (fp8.py, fp8_model_init docstring): the
 *               high-precision weights stay and an FP8 copy is cast for the GEMMs
 *   fp8-lm      Peng et al. 2023 Eq. (8): 2 + 1 + 1 + 2 = 6 B on the optimizer side,
 *               plus the FP8 weights the GEMMs read (1 B, outside Eq. (8))
 *   deepseek-v3 DeepSeek-AI 2024 §3.3.3: BF16 moments, FP32 master weights and grads
 *   adam-bf16   Megatron-Core's precision-aware optimizer
 *               (megatron/training/arguments.py of NVIDIA/Megatron-LM, commit d98e8a64dd:
 *               --use-precision-aware-optimizer --exp-avg-dtype bf16 --exp-avg-sq-dtype
 *               bf16, --main-params-dtype and --main-grads-dtype left at fp32): the
 *               megatron recipe with BF16 Adam moments, 2 + 4 + 4 + 2 + 2 = 14 B,
 *               6 + 8/d with the distributed optimizer
 *   torch-mp    PyTorch mixed precision as FSDP runs it (FSDP MixedPrecision,
 *               param_dtype = bf16; FSDP2's MixedPrecisionPolicy in torchtitan; Zhao
 *               et al. 2023 §4.2, docs/references.md §2.7): the FP32 parameters are the
 *               optimizer's own (no master copy, no persistent BF16 copy: a unit is cast
 *               to BF16 when it is all-gathered, and the gathered units are memory.c's
 *               FSDP buffers), FP32 sharded gradients, Adam's two FP32 moments: 16 B
 * ZeRO stages (Rajbhandari et al. 2020 §5): stage 1 shards optimizer states (master
 * weights and moments), stage 2 also gradients, stage 3 also the weights.
 * Gradient dtype (training.main_grads, calc_recipe_grads): the dtype of the gradients a
 * recipe holds is a framework switch independent of the GEMMs' precision -- Megatron-Core's
 * --accumulate-allreduce-grads-in-fp32 (FP32 main gradients, the megatron recipe's 4 B),
 * NeMo's distributed_fused_adam with grad_sync_dtype = bf16 (2 B); docs/references.md §2.6.
 * A recipe with another gradient dtype is the preset with its gradient items replaced by
 * one item of that dtype, so the bytes still come from this table.
 */
#include "diag.h"
#include "recipe.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define W(t, dt, b, src) {CALC_T_WEIGHT, t, dt, b, 3, src}
#define C(t, dt, b, src) {CALC_T_WCOPY, t, dt, b, 3, src}
#define G(t, dt, b, src) {CALC_T_GRAD, t, dt, b, 2, src}
#define M(t, dt, b, src) {CALC_T_MASTER, t, dt, b, 1, src}
#define O(t, dt, b, src) {CALC_T_OPT, t, dt, b, 1, src}
/* PyTorch FSDP's states (torch-mp, torch-mp-fp8): the parameters are the optimizer's own
 * (no master copy), booked as master so that no compute weights are kept and FSDP
 * gathers in BF16, but sharded only where the weights are, from ZeRO-3 on -- under DDP
 * with ZeRO-1 / -2 every rank holds them whole, as torch.distributed's
 * ZeroRedundancyOptimizer shards only Adam's moments.  'src' sources the parameters. */
#define TORCH_MP_STATES(src) \
	{CALC_T_MASTER, "parameters (the optimizer's)", "fp32", 4, 3, src}, \
	G("gradients (sharded)", "fp32", 4, "Zhao et al. 2023 §4.2: gradients in the parameters' dtype"), \
	O("Adam momentum (m)", "fp32", 4, "Kingma & Ba 2015"), O("Adam variance (v)", "fp32", 4, "Kingma & Ba 2015")

/* What a Transformer Engine linear layer saves of its input for the backward under an
 * FP8 recipe: the quantized input, 1 B per element (transformer_engine/pytorch/module/
 * linear.py _Linear forward: "saved_inputmat = inputmat", the input_quantizer's output
 * with only its column-wise data kept for the weight-gradient GEMM; layernorm_linear.py:
 * ln_out, the FP8 output of the fused norm and cast, saved as ln_out_to_save; NVIDIA/
 * TransformerEngine at commit d0067d0da6).  The scale factors (one FP32 per tensor for
 * current or delayed scaling) are not counted.  Megatron-Core makes the attention output
 * projection save its original input instead (set_save_original_input(linear_proj) in
 * megatron/core/transformer/attention.py, NVIDIA/Megatron-LM commit d98e8a64dd, for
 * every FP8 recipe but delayed scaling, TE >= 2.6): the BF16 attention output the fused
 * attention keeps, counted once as before.  docs/references.md §2.10. */
#define TE_FP8_SAVED_INPUT 1

/* Block-scaled formats, bytes per element with their scales (docs/references.md §2.11):
 * - MXFP8 (OCP Microscaling Formats (MX) Specification v1.0, 2023, §5: a block of k = 32
 *   elements shares one E8M0 scale of 8 bits; the elements FP8 E4M3): 1 + 1/32 B.
 * - NVFP4 (NVIDIA 2025, "Pretraining Large Language Models with NVFP4", arXiv:2509.25149,
 *   §2: FP4 E2M1 elements, a block of 16 shares one FP8 E4M3 scale, and one FP32 scale per
 *   tensor, not counted): 1/2 + 1/16 B.
 * Transformer Engine keeps such a weight twice, its row-wise and its column-wise
 * quantization (the blocks run along the rows for the forward GEMM and along the columns
 * for the backward one): MXFP8TensorStorage and NVFP4TensorStorage hold _rowwise_data and
 * _columnwise_data with their scales (transformer_engine/pytorch/tensor/storage/, commit
 * d0067d0da6).  A saved linear input keeps its column-wise data only (linear.py). */
#define MXFP8_BYTES (1 + 1.0 / 32)
#define NVFP4_BYTES (0.5 + 1.0 / 16)

static const struct calc_recipe recipes[] = {
	{"seed", "BF16 weights + Adam moments: the textbook baseline", 3,
	 {W("weights", "bf16", 2, "2 bytes per BF16 value"),
	  O("Adam momentum (m)", "fp32", 4, "Kingma & Ba 2015"),
	  O("Adam variance (v)", "fp32", 4, "Kingma & Ba 2015")},
	 2, 0, "Counts weights and Adam state only (2 + 8 bytes): no gradients, no master copy.", 0},
	{"zero-paper", "ZeRO mixed-precision Adam, 2 + 2 + 12", 5,
	 {W("weights", "fp16", 2, "ZeRO §3.1"), G("gradients", "fp16", 2, "ZeRO §3.1"),
	  M("master weights", "fp32", 4, "ZeRO §3.1"), O("Adam momentum (m)", "fp32", 4, "ZeRO §3.1"),
	  O("Adam variance (v)", "fp32", 4, "ZeRO §3.1")},
	 2, 0, "ZeRO §3.1: 2 + 2 + K bytes, K = 12; gradients kept in 16 bits.", 0},
	{"megatron", "Megatron-LM: bf16 params, fp32 main grads (18; 6 + 12/d distributed)", 5,
	 {W("weights", "bf16", 2, "Megatron-LM README"), G("main gradients", "fp32", 4, "Megatron-LM README"),
	  M("master weights", "fp32", 4, "Megatron-LM README"),
	  O("Adam momentum (m)", "fp32", 4, "Megatron-LM README"),
	  O("Adam variance (v)", "fp32", 4, "Megatron-LM README")},
	 2, 0,
	 "Megatron-LM README 'Distributed Optimizer': bf16 param + fp32 grads = 18 B/param, "
	 "6 + 12/d with the distributed optimizer (zero = 1): the fp32 grads are not sharded.", 0},
	{"fp32", "Full fp32 training: 4 + 4 + 8", 4,
	 {W("weights", "fp32", 4, "fp32"), G("gradients", "fp32", 4, "fp32"),
	  O("Adam momentum (m)", "fp32", 4, "Kingma & Ba 2015"),
	  O("Adam variance (v)", "fp32", 4, "Kingma & Ba 2015")},
	 4, 0, "No mixed precision: weights are their own master copy; activations in fp32.", 0},
	{"adam-8bit", "Mixed precision with 8-bit Adam states (bitsandbytes)", 5,
	 {W("weights", "bf16", 2, "mixed precision"), G("gradients", "bf16", 2, "mixed precision"),
	  M("master weights", "fp32", 4, "mixed precision"),
	  O("Adam momentum (m)", "int8 (block-wise)", 1, "Dettmers et al. 2021"),
	  O("Adam variance (v)", "int8 (block-wise)", 1, "Dettmers et al. 2021")},
	 2, 0,
	 "Dettmers et al. 2021: 8-bit state saves 75% of optimizer memory; block-wise scales "
	 "(one fp32 per 2048 values) are below 0.01 B/param and left out.", 0},
	{"fp8-te", "Transformer Engine FP8: bf16 weights kept plus an FP8 copy", 6,
	 {W("weights", "bf16", 2, "TE fp8.py"), C("FP8 weight copy", "fp8 e4m3", 1, "TE fp8_model_init docstring"),
	  G("main gradients", "fp32", 4, "Megatron-LM README"),
	  M("master weights", "fp32", 4, "Megatron-LM README"),
	  O("Adam momentum (m)", "fp32", 4, "Megatron-LM README"),
	  O("Adam variance (v)", "fp32", 4, "Megatron-LM README")},
	 2, 1,
	 "TE keeps high-precision weights and casts an FP8 copy for the GEMMs (fp8_model_init "
	 "drops the bf16 copy); optimizer and gradients unchanged (FP8-LM §1); a linear layer saves "
	 "the FP8 cast of its input for the backward (1 B per element).",
	 TE_FP8_SAVED_INPUT},
	/* Transformer Engine's FP8 parameters (te.fp8_model_init), as Megatron-Core
	 * --fp8-param-gather builds the model and as NeMo's FP8 precision recipe runs it
	 * (nemo/collections/llm/recipes/precision/mixed_precision.py bf16_with_fp8_mixed:
	 * fp8_param_gather = True): the weights are FP8 tensors, no BF16 copy; the
	 * distributed optimizer's FP32 master weights are cast to FP8 after each step and
	 * the parameter all-gather moves FP8 (1 B; comm.c reads the weight bytes).
	 * docs/references.md §2.1. */
	{"fp8-params", "Transformer Engine FP8 parameters: FP8 weights, no bf16 copy (--fp8-param-gather)", 5,
	 {W("FP8 weights", "fp8 e4m3", 1, "TE fp8_model_init; Megatron-Core --fp8-param-gather"),
	  G("main gradients", "fp32", 4, "Megatron-LM README"),
	  M("master weights", "fp32", 4, "Megatron-LM README"),
	  O("Adam momentum (m)", "fp32", 4, "Megatron-LM README"),
	  O("Adam variance (v)", "fp32", 4, "Megatron-LM README")},
	 2, 1,
	 "Transformer Engine's fp8_model_init (Megatron-Core --fp8-param-gather, NeMo's FP8 precision "
	 "recipe): the weights are held in FP8 only and the distributed optimizer gathers them in FP8; "
	 "1 + 4 + 4 + 4 + 4 = 17 B/param, 5 + 12/d with ZeRO-1; a linear layer saves the FP8 cast of its "
	 "input for the backward (1 B per element).",
	 TE_FP8_SAVED_INPUT},
	{"fp8-lm", "FP8-LM (MS-AMP O2): FP8 grads and first moment, FP16 master and variance", 5,
	 {W("FP8 weights for GEMMs", "fp8", 1, "FP8-LM §2.2 (outside Eq. 8)"),
	  G("gradients", "fp8", 1, "FP8-LM Eq. (8)"),
	  M("master weights (scaled)", "fp16", 2, "FP8-LM Eq. (8)"),
	  O("Adam momentum (m)", "fp8", 1, "FP8-LM Eq. (8)"),
	  O("Adam variance (v)", "fp16", 2, "FP8-LM Eq. (8)")},
	 2, 1, "FP8-LM Eq. (8): 2 + 1 + 1 + 2 = 6 B/param on the optimizer side; the 1 B of FP8 "
	       "compute weights is added here and named separately.",
	 0 /* linear inputs saved at act_bytes: not Transformer Engine (docs/references.md §2.10) */},
	{"deepseek-v3", "DeepSeek-V3: BF16 Adam moments, FP32 master weights and gradients", 5,
	 {W("weights", "bf16", 2, "DeepSeek-V3 §3.3 (BF16 assumed: the paper does not state it)"),
	  G("gradients", "fp32", 4, "DeepSeek-V3 §3.3.3"),
	  M("master weights", "fp32", 4, "DeepSeek-V3 §3.3.3"),
	  O("Adam momentum (m)", "bf16", 2, "DeepSeek-V3 §3.3.3"),
	  O("Adam variance (v)", "bf16", 2, "DeepSeek-V3 §3.3.3")},
	 2, 1, "DeepSeek-V3 §3.3.3: moments in BF16, master weights and gradients in FP32; "
	       "GEMMs in FP8 with fine-grained scaling.",
	 0 /* linear inputs saved at act_bytes: not Transformer Engine (docs/references.md §2.10) */},
	{"adam-bf16", "Megatron-Core precision-aware optimizer: BF16 Adam moments (14; 6 + 8/d)", 5,
	 {W("weights", "bf16", 2, "Megatron-LM README"),
	  G("main gradients", "fp32", 4, "Megatron-LM arguments.py: --main-grads-dtype fp32"),
	  M("master weights", "fp32", 4, "Megatron-LM arguments.py: --main-params-dtype fp32"),
	  O("Adam momentum (m)", "bf16", 2, "Megatron-LM arguments.py: --exp-avg-dtype bf16"),
	  O("Adam variance (v)", "bf16", 2, "Megatron-LM arguments.py: --exp-avg-sq-dtype bf16")},
	 2, 0,
	 "Megatron-Core --use-precision-aware-optimizer with --exp-avg-dtype bf16 and --exp-avg-sq-dtype "
	 "bf16 (megatron/training/arguments.py; Transformer Engine's FusedAdam keeps the states in that "
	 "dtype): 2 + 4 + 4 + 2 + 2 = 14 B/param, 6 + 8/d with the distributed optimizer (zero = 1).", 0},
	{"torch-mp", "PyTorch mixed precision (FSDP): FP32 parameters, gradients and Adam, BF16 compute", 4,
	 {TORCH_MP_STATES("Zhao et al. 2023 §4.2 (FSDP MixedPrecision)")},
	 2, 0,
	 "PyTorch FSDP with MixedPrecision(param_dtype=bf16) and torchtitan's FSDP2 "
	 "MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32): FP32 sharded parameters, "
	 "gradients and Adam moments, 4 + 4 + 8 = 16 B; no BF16 copy is kept, each unit is cast "
	 "to BF16 as it is all-gathered (the FSDP buffers, at the activations' 2 B).", 0},
	/* torchao's Float8Linear under FSDP2, as torchtitan runs Float8 (docs/float8.md): the
	 * weights stay in high precision and are cast to FP8 at each matmul (or before the
	 * all-gather with enable_fsdp_float8_all_gather), so the states are torch-mp's; the
	 * gathered units are still counted at 2 B (the conservative case, without the FP8
	 * all-gather).  docs/references.md §2.7. */
	{"torch-mp-fp8", "torchao Float8 under FSDP: torch-mp's FP32 states, FP8 GEMMs", 4,
	 {TORCH_MP_STATES("torchtitan docs/float8.md (high-precision weights)")},
	 2, 1,
	 "torchtitan's Float8 training (torchao Float8Linear with FSDP2, docs/float8.md): the weights "
	 "stay in high precision and are cast to float8 for each GEMM, so the states are torch-mp's "
	 "4 + 4 + 8 = 16 B with no persistent FP8 or BF16 copy; GEMMs at the FP8 peak.",
	 0 /* linear inputs saved at act_bytes: not Transformer Engine (docs/references.md §2.10) */},
	/* MXFP8 as Megatron-Bridge runs it on Blackwell (src/megatron/bridge/training/
	 * mixed_precision.py bf16_with_mxfp8_mixed: fp8_recipe "mxfp8", fp8_param_gather True,
	 * reuse_grad_buf_for_mxfp8_param_ag True, NVIDIA-NeMo/Megatron-Bridge commit 067f987df0):
	 * the parameters are MXFP8 tensors (row- and column-wise), the distributed optimizer
	 * keeps FP32 master weights and Adam, and the parameter all-gather reuses the gradient
	 * buffer (no extra memory).  Every linear layer's GEMMs run at the FP8 peak. */
	{"mxfp8", "Transformer Engine MXFP8: MXFP8 parameters (row- and column-wise), FP32 master and Adam", 5,
	 {W("MXFP8 weights, row- and column-wise", "mxfp8 e4m3, e8m0 per 32", 2 * MXFP8_BYTES,
	    "TE MXFP8TensorStorage; OCP MX v1.0; Megatron-Bridge bf16_with_mxfp8_mixed"),
	  G("main gradients", "fp32", 4, "Megatron-LM README"),
	  M("master weights", "fp32", 4, "Megatron-LM README"),
	  O("Adam momentum (m)", "fp32", 4, "Megatron-LM README"),
	  O("Adam variance (v)", "fp32", 4, "Megatron-LM README")},
	 2, CALC_LP_MXFP8,
	 "Megatron-Bridge bf16_with_mxfp8_mixed (fp8_param_gather): MXFP8 weights held row- and column-wise, "
	 "2 x (1 + 1/32) B, with FP32 main gradients, master weights and Adam: 18.0625 B/param; a linear layer "
	 "saves the MXFP8 column-wise cast of its input (1 + 1/32 B per element); GEMMs at the FP8 peak on "
	 "block-scaled tensor cores.",
	 MXFP8_BYTES},
	/* NVFP4 as Megatron-Bridge runs it (bf16_with_nvfp4_mixed: fp4 "e2m1", fp4_recipe "nvfp4",
	 * fp4_param_gather True, ibid.) after NVIDIA's NVFP4 pretraining report: the linear
	 * layers' three GEMMs (forward, input gradient, weight gradient) in NVFP4; attention,
	 * norms, embedding and LM head in BF16; FP32 master weights and Adam. */
	{"nvfp4", "Transformer Engine NVFP4: NVFP4 parameters (row- and column-wise), FP32 master and Adam", 5,
	 {W("NVFP4 weights, row- and column-wise", "nvfp4 e2m1, e4m3 per 16", 2 * NVFP4_BYTES,
	    "TE NVFP4TensorStorage; NVIDIA 2025 NVFP4 report §2; Megatron-Bridge bf16_with_nvfp4_mixed"),
	  G("main gradients", "fp32", 4, "Megatron-LM README"),
	  M("master weights", "fp32", 4, "Megatron-LM README; NVFP4 report §4"),
	  O("Adam momentum (m)", "fp32", 4, "Megatron-LM README"),
	  O("Adam variance (v)", "fp32", 4, "Megatron-LM README")},
	 2, CALC_LP_NVFP4,
	 "Megatron-Bridge bf16_with_nvfp4_mixed (fp4_param_gather): NVFP4 weights held row- and column-wise, "
	 "2 x (1/2 + 1/16) B, with FP32 main gradients, master weights and Adam: 17.125 B/param; a linear layer "
	 "saves the NVFP4 column-wise cast of its input (1/2 + 1/16 B per element); the linear layers' GEMMs "
	 "at the FP4 peak, attention and the LM head in BF16.",
	 NVFP4_BYTES},
	/* Optimizers beyond Adam (docs/references.md §1.9), in Megatron-LM's mixed precision:
	 * BF16 weights, FP32 main gradients and master weights, and the optimizer's own state. */
	{"muon", "Muon (Moonlight, Kimi K2): one FP32 momentum, Newton-Schulz on every matrix (14; 6 + 8/d)", 4,
	 {W("weights", "bf16", 2, "Megatron-LM README"), G("main gradients", "fp32", 4, "Megatron-LM README"),
	  M("master weights", "fp32", 4, "Megatron-LM README"),
	  O("Muon momentum (M)", "fp32", 4, "Liu et al. 2025, Muon is Scalable, Algorithm 1")},
	 2, 0,
	 "Liu et al. 2025 (Moonlight) Algorithm 1: one momentum buffer per parameter; every matrix's update "
	 "orthogonalized by 5 Newton-Schulz iterations (Jordan et al. 2024) on the full matrix, gathered over DP "
	 "and TP (Distributed Muon, §2.3). Convention: every parameter counted with one momentum; the embedding, "
	 "LM head and norms that Moonlight updates with AdamW hold a second moment more (4 B each), not counted.", 0},
	{"sgd-momentum", "SGD with momentum: one FP32 momentum buffer (14; 6 + 8/d)", 4,
	 {W("weights", "bf16", 2, "Megatron-LM README"), G("main gradients", "fp32", 4, "Megatron-LM README"),
	  M("master weights", "fp32", 4, "Megatron-LM README"),
	  O("momentum buffer", "fp32", 4, "Sutskever et al. 2013; torch.optim.SGD momentum_buffer")},
	 2, 0, "SGD with (heavy-ball or Nesterov) momentum: one buffer per parameter (torch.optim.SGD), 2 + 4 + 4 + 4 "
	 "bytes; without momentum the buffer is not kept (10 B).", 0},
	{"adafactor", "Adafactor: factored second moment, no first moment (10; 6 + 4/d)", 4,
	 {W("weights", "bf16", 2, "Megatron-LM README"), G("main gradients", "fp32", 4, "Megatron-LM README"),
	  M("master weights", "fp32", 4, "Megatron-LM README"),
	  O("factored second moment (row and column sums)", "fp32", 0, "Shazeer & Stern 2018 §3")},
	 2, 0,
	 "Shazeer & Stern 2018 §3-4: the second moment of an n x m matrix kept as its n row and m column sums, "
	 "4 (n + m) / (n m) B per parameter (under 0.004 B for n, m >= 2048, counted as 0), beta1 = 0 (no "
	 "first moment, the paper's default); vectors keep a full second moment (norms: a negligible share).", 0},
};

#define NRECIPES (int)(sizeof recipes / sizeof recipes[0])

int calc_recipe_ns_iters(const struct calc_recipe *r)
{
	/* Jordan et al. 2024 (Muon) and Liu et al. 2025 (Moonlight, Algorithm 1): 5 steps */
	/* the first two letters tested before the name ("megatron" shares the first): asked
	 * for every leaf the planner times (calc_step_finish), the call to strcmp was 0.8 % of
	 * the instructions of `trainplan search --plan plans/llama2-70b-a100.ini` (callgrind) */
	return r && r->name[0] == 'm' && r->name[1] == 'u' && !strcmp(r->name, "muon") ? 5 : 0;
}

const struct calc_recipe *calc_recipe_at(int i)
{
	return i >= 0 && i < NRECIPES ? &recipes[i] : NULL;
}

const struct calc_recipe *calc_recipe_find(const char *name)
{
	for (int i = 0; i < NRECIPES; i++)
		if (!strcmp(recipes[i].name, name))
			return &recipes[i];
	return NULL;
}

double calc_recipe_bytes(const struct calc_recipe *r, enum calc_tclass cls)
{
	/* Every recipe lives in static storage and never changes once handed out (recipes[]
	 * and regrad[], built once), so each thread keeps the class sums of the last one it
	 * was asked about: the step engine asks for four classes of the same recipe about
	 * 400,000 times per report.  Each class sums its items in item order, as one loop
	 * per class would: the same additions, the same bytes. */
	static _Thread_local const struct calc_recipe *last;
	static _Thread_local double sum[CALC_T_NCLASS];
	if ((unsigned)cls >= CALC_T_NCLASS)
		return 0;
	if (r != last) {
		for (int c = 0; c < CALC_T_NCLASS; c++)
			sum[c] = 0;
		for (int i = 0; i < r->nitems; i++)
			if ((unsigned)r->items[i].cls < CALC_T_NCLASS)
				sum[r->items[i].cls] += r->items[i].bytes;
		last = r;
	}
	return sum[cls];
}

double calc_recipe_total(const struct calc_recipe *r)
{
	double b = 0;
	for (int i = 0; i < r->nitems; i++)
		b += r->items[i].bytes;
	return b;
}

double calc_recipe_bytes_sharded(const struct calc_recipe *r, enum calc_tclass cls, int zero, int dp)
{
	double b = 0;
	for (int i = 0; i < r->nitems; i++)
		if (r->items[i].cls == cls)
			b += r->items[i].bytes / (zero >= r->items[i].zero_stage && dp > 1 ? dp : 1);
	return b;
}

/* The presets with BF16 (column 0) and FP32 (column 1) gradients, built once (a heap
 * block, not 15 kB of bss: struct calc_model's built, presets.c). */
static struct calc_recipe (*regrad)[2];
static pthread_once_t regrad_once = PTHREAD_ONCE_INIT;

static void regrad_build(void)
{
	static const struct {
		const char *dtype;
		double bytes;
		const char *src;
	} g[2] = {
	    {"bf16", 2, "training.main_grads = bf16 (NeMo distributed_fused_adam grad_sync_dtype = bf16)"},
	    {"fp32", 4, "training.main_grads = fp32 (Megatron-Core --accumulate-allreduce-grads-in-fp32)"},
	};
	regrad = xmalloc(NRECIPES * sizeof *regrad);
	for (int i = 0; i < NRECIPES; i++)
		for (int j = 0; j < 2; j++) {
			struct calc_recipe *r = &regrad[i][j];
			int n = 0, put = 0;
			*r = recipes[i];
			for (int k = 0; k < recipes[i].nitems; k++) {
				const struct calc_recipe_item *it = &recipes[i].items[k];
				if (it->cls != CALC_T_GRAD) {
					r->items[n++] = *it;
				} else if (!put) { /* the first gradient item's place, one item */
					r->items[n] = *it;
					r->items[n].tensor = "main gradients";
					r->items[n].dtype = g[j].dtype;
					r->items[n].bytes = g[j].bytes;
					r->items[n].source = g[j].src;
					n++;
					put = 1;
				}
			}
			r->nitems = n;
		}
}

const struct calc_recipe *calc_recipe_grads(const struct calc_recipe *r, int main_grads)
{
	/* a recipe of the table is its own base (the names are unique); another (a copy
	 * retyped by main_grads) is found by its name */
	uintptr_t at = (uintptr_t)r, lo = (uintptr_t)recipes, hi = (uintptr_t)(recipes + NRECIPES);
	const struct calc_recipe *base = !r ? NULL : at >= lo && at < hi ? r : calc_recipe_find(r->name);
	int i;
	if (!base)
		return r;
	if (main_grads != 1 && main_grads != 2)
		return base;
	i = (int)(base - recipes);
	/* no gradients to retype (seed), or the preset's own bytes: the preset itself */
	if (calc_recipe_bytes(base, CALC_T_GRAD) <= 0 || calc_recipe_bytes(base, CALC_T_GRAD) == (main_grads == 1 ? 2 : 4))
		return base;
	pthread_once(&regrad_once, regrad_build);
	return &regrad[i][main_grads - 1];
}
