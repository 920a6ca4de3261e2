/*
 * presets.c -- named models, GPUs and clusters.
 *
 * Models: Narayanan et al. 2021 Table 1 (nar21-*), Korthikanti et al. 2022 Table 3
 * (kor22-22b), Brown et al. 2020 Table 2.1 (gpt3-175b), the published configs of
 * Llama 2 / Llama 3 / Llama 3.1 / Llama 3.2 (docs/references.md §7.4), MosaicML's MPT models as
 * llm-foundry benchmarks them (mpt-*), and this project's default
 * dense-100b; mixture-of-experts models from their published config.json (each
 * source names the file and the published total and activated counts, which
 * tests/calc/model.c checks).  The Megatron-era GPT models use V = 51,200 (GPT-2's 50,257 padded to a
 * multiple of 1024, as Narayanan 2021 §5.1 states), learned positions for s = 2048,
 * biases, LayerNorm, GeLU, tied embeddings and dropout.
 * GPUs: NVIDIA and AMD datasheets via docs/references.md §6, dense (no-sparsity) peaks.
 */
#include "bounds.h"
#include "diag.h"
#include "model.h"
#include "presets.h"

#include <pthread.h>

#include <string.h>

#define GPT(nm, L, H, A) \
	{nm, L, H, A, A, 0, 4 * (H), 51200, 2048, CALC_MLP_GELU, CALC_NORM_LAYERNORM, 1, 1, 1, {0}, {0}, {0}, 0, 0, 0, 0, {0}, {0}, {0}, 0, {0}}
/* MPT (MosaicML llm-foundry, scripts/train/yamls/pretrain/mpt-*.yaml and the MPTConfig
 * defaults of llmfoundry/models/mpt/configuration_mpt.py): vocabulary 50,368, expansion 4
 * (GeLU), biases (no_bias False), LayerNorm with bias, learned positions (learned_pos_emb
 * True) of max_seq_len 2048, tied embeddings, no dropout (every pdrop 0.0). */
#define MPT(nm, L, H, A) \
	{nm, L, H, A, A, 0, 4 * (H), 50368, 2048, CALC_MLP_GELU, CALC_NORM_LAYERNORM, 1, 1, 0, {0}, {0}, {0}, 0, 0, 0, 0, {0}, {0}, {0}, 0, {0}}
#define LLAMA(nm, L, H, F, A, KV, V) \
	{nm, L, H, A, KV, 0, F, V, 0, CALC_MLP_SWIGLU, CALC_NORM_RMSNORM, 0, 0, 0, {0}, {0}, {0}, 0, 0, 0, 0, {0}, {0}, {0}, 0, {0}}

static const struct calc_model models[] = {
	/* this project's default: GPT-style, no biases, no learned positions (rotary) */
	{"dense-100b", 80, 10240, 80, 80, 0, 40960, 51200, 0, CALC_MLP_GELU, CALC_NORM_LAYERNORM, 1, 0, 1, {0}, {0}, {0}, 0, 0, 0, 0, {0}, {0}, {0}, 0, {0}},
	GPT("gpt3-175b", 96, 12288, 96),
	GPT("kor22-22b", 48, 6144, 64),
	GPT("nar21-1.7b", 24, 2304, 24),
	GPT("nar21-3.6b", 30, 3072, 32),
	GPT("nar21-7.5b", 36, 4096, 32),
	GPT("nar21-18.4b", 40, 6144, 48),
	GPT("nar21-39.1b", 48, 8192, 64),
	GPT("nar21-76.1b", 60, 10240, 80),
	GPT("nar21-145.6b", 80, 12288, 96),
	GPT("nar21-310.1b", 96, 16384, 128),
	GPT("nar21-529.6b", 105, 20480, 128),
	GPT("nar21-1t", 128, 25600, 160),
	MPT("mpt-7b", 32, 4096, 32),
	MPT("mpt-13b", 40, 5120, 40),
	MPT("mpt-30b", 48, 7168, 56),
	MPT("mpt-70b", 80, 8192, 64),
	LLAMA("llama2-7b", 32, 4096, 11008, 32, 32, 32000),
	LLAMA("llama2-13b", 40, 5120, 13824, 40, 40, 32000),
	LLAMA("llama2-70b", 80, 8192, 28672, 64, 8, 32000),
	LLAMA("llama3-8b", 32, 4096, 14336, 32, 8, 128256),
	LLAMA("llama3-70b", 80, 8192, 28672, 64, 8, 128256),
	LLAMA("llama3.1-405b", 126, 16384, 53248, 128, 8, 128256),
	/* Llama 3.2 1B: huggingface.co/meta-llama/Llama-3.2-1B config.json (hidden_size 2048,
	 * num_hidden_layers 16, num_attention_heads 32, num_key_value_heads 8, head_dim 64,
	 * intermediate_size 8192, vocab_size 128256, tie_word_embeddings true, rope_theta
	 * 500000, which the model does not need: rotary positions carry no parameters) */
	{"llama3.2-1b", 16, 2048, 32, 8, 0, 8192, 128256, 0, CALC_MLP_SWIGLU, CALC_NORM_RMSNORM, 1, 0, 0, {0}, {0}, {0}, 0, 0, 0, 0, {0}, {0}, {0}, 0, {0}},
	/* mixture-of-experts: SwiGLU experts, RMSNorm (DBRX LayerNorm), untied, rotary */
	{.name = "mixtral-8x7b", .layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 8, .head_dim = 128,
	 .ffn_hidden = 14336, .vocab = 32000, .mlp = CALC_MLP_SWIGLU, .norm = CALC_NORM_RMSNORM,
	 .moe = {.experts = 8, .top_k = 2, .expert_ffn = 14336, .imbalance = 1}},
	{.name = "mixtral-8x22b", .layers = 56, .hidden = 6144, .heads = 48, .kv_heads = 8, .head_dim = 128,
	 .ffn_hidden = 16384, .vocab = 32768, .mlp = CALC_MLP_SWIGLU, .norm = CALC_NORM_RMSNORM,
	 .moe = {.experts = 8, .top_k = 2, .expert_ffn = 16384, .imbalance = 1}},
	{.name = "deepseek-v3", .layers = 61, .hidden = 7168, .heads = 128, .kv_heads = 128, .head_dim = 0,
	 .ffn_hidden = 18432, .vocab = 129280, .mlp = CALC_MLP_SWIGLU, .norm = CALC_NORM_RMSNORM,
	 .moe = {.experts = 256, .top_k = 8, .expert_ffn = 2048, .shared = 1, .first_dense = 3,
	         .router_bias = 1, .imbalance = 1, .node_limit = 4},
	 .mla = {.q_lora_rank = 1536, .kv_lora_rank = 512, .qk_rope_dim = 64, .qk_nope_dim = 128,
	         .v_head_dim = 128},
	 .mtp_depth = 1},
	{.name = "qwen3-235b-a22b", .layers = 94, .hidden = 4096, .heads = 64, .kv_heads = 4, .head_dim = 128,
	 .ffn_hidden = 12288, .vocab = 151936, .mlp = CALC_MLP_SWIGLU, .norm = CALC_NORM_RMSNORM,
	 .moe = {.experts = 128, .top_k = 8, .expert_ffn = 1536, .imbalance = 1}},
	{.name = "qwen3-30b-a3b", .layers = 48, .hidden = 2048, .heads = 32, .kv_heads = 4, .head_dim = 128,
	 .ffn_hidden = 6144, .vocab = 151936, .mlp = CALC_MLP_SWIGLU, .norm = CALC_NORM_RMSNORM,
	 .moe = {.experts = 128, .top_k = 8, .expert_ffn = 768, .imbalance = 1}},
	{.name = "dbrx", .layers = 40, .hidden = 6144, .heads = 48, .kv_heads = 8, .head_dim = 128,
	 .ffn_hidden = 10752, .vocab = 100352, .mlp = CALC_MLP_SWIGLU, .norm = CALC_NORM_LAYERNORM,
	 .moe = {.experts = 16, .top_k = 4, .expert_ffn = 10752, .imbalance = 1}},
	{.name = "olmoe-1b-7b", .layers = 16, .hidden = 2048, .heads = 16, .kv_heads = 16, .head_dim = 128,
	 .ffn_hidden = 1024, .vocab = 50304, .mlp = CALC_MLP_SWIGLU, .norm = CALC_NORM_RMSNORM,
	 .moe = {.experts = 64, .top_k = 8, .expert_ffn = 1024, .imbalance = 1}},
	/* hybrid Mamba-2 models (model.hybrid_pattern): the MLP is squared ReLU, one up and one
	 * down projection, which the GeLU shape (2 h f, no gate) counts; untied, RMSNorm, no
	 * biases, 8 KV heads of 128, 8 Mamba groups of head width 64 */
	{.name = "nemotron-h-8b", .layers = 52, .hidden = 4096, .heads = 32, .kv_heads = 8, .head_dim = 128,
	 .ffn_hidden = 21504, .vocab = 131072, .mlp = CALC_MLP_GELU, .norm = CALC_NORM_RMSNORM,
	 .mamba = {.heads = 128, .head_dim = 64, .state = 128, .groups = 8, .conv = 4, .chunk = 128},
	 .hybrid = "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-"},
	{.name = "nemotron-h-56b", .layers = 118, .hidden = 8192, .heads = 64, .kv_heads = 8, .head_dim = 128,
	 .ffn_hidden = 32768, .vocab = 131072, .mlp = CALC_MLP_GELU, .norm = CALC_NORM_RMSNORM,
	 .mamba = {.heads = 256, .head_dim = 64, .state = 256, .groups = 8, .conv = 4, .chunk = 128},
	 .hybrid = "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-"
	           "M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-"},
	/* Nemotron 3 Nano: MoE layers (E) of 128 squared-ReLU experts of 1,856, top 6, one
	 * shared expert of 3,712, a sigmoid router with a per-expert bias; 2 KV heads */
	{.name = "nemotron-3-nano-30b-a3b", .layers = 52, .hidden = 2688, .heads = 32, .kv_heads = 2, .head_dim = 128,
	 .ffn_hidden = 1856, .vocab = 131072, .mlp = CALC_MLP_GELU, .norm = CALC_NORM_RMSNORM,
	 .moe = {.experts = 128, .top_k = 6, .expert_ffn = 1856, .shared = 1, .shared_ffn = 3712, .router_bias = 1,
	         .imbalance = 1},
	 .mamba = {.heads = 64, .head_dim = 64, .state = 128, .groups = 8, .conv = 4, .chunk = 128},
	 .hybrid = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME"},
	/* Qwen3-Next 80B-A3B: 48 decoder layers, each a sequence mixer and an MoE block, as
	 * Megatron-Core's hybrid pattern writes them, 96 blocks: three gated delta-net layers
	 * to one gated-attention layer (full_attention_interval 4), each followed by the MoE
	 * (512 SwiGLU experts of 512, top 10, one shared expert of 512 behind a sigmoid gate,
	 * no router bias); 16 query heads and 2 KV heads of 256; untied; the MTP module
	 * (mtp_num_hidden_layers 1) left out */
	{.name = "qwen3-next-80b-a3b", .layers = 96, .hidden = 2048, .heads = 16, .kv_heads = 2, .head_dim = 256,
	 .ffn_hidden = 5120, .vocab = 151936, .mlp = CALC_MLP_SWIGLU, .norm = CALC_NORM_RMSNORM,
	 .moe = {.experts = 512, .top_k = 10, .expert_ffn = 512, .shared = 1, .shared_ffn = 512, .shared_gate = 1,
	         .imbalance = 1},
	 .gdn = {.key_heads = 16, .value_heads = 32, .key_dim = 128, .value_dim = 128, .conv = 4, .chunk = 64},
	 .attn_gate = 1,
	 .hybrid = "GEGEGE*EGEGEGE*EGEGEGE*EGEGEGE*EGEGEGE*EGEGEGE*EGEGEGE*EGEGEGE*EGEGEGE*EGEGEGE*EGEGEGE*E"
	           "GEGEGE*E"},
	/* Jamba: 32 decoder layers, each a sequence mixer and an MLP, as the hybrid pattern
	 * writes them, 64 blocks: layer i attends when i % attn_layer_period (8) =
	 * attn_layer_offset (4), else a Mamba-1 mixer (S; d_inner = mamba_expand 2 x 4096, N =
	 * mamba_d_state 16, mamba_d_conv 4, mamba_dt_rank 256, with the dt, B and C RMSNorms of
	 * JambaMambaMixer); its MLP is MoE when i % expert_layer_period (2) =
	 * expert_layer_offset (1): 16 SwiGLU experts of 14,336, top 2, a router without bias,
	 * else a dense SwiGLU MLP of 14,336; 8 KV heads of 128, no positional embedding,
	 * untied, RMSNorm, no biases (mamba_proj_bias false, mamba_conv_bias true) */
	{.name = "jamba-v0.1", .layers = 64, .hidden = 4096, .heads = 32, .kv_heads = 8, .head_dim = 128,
	 .ffn_hidden = 14336, .vocab = 65536, .mlp = CALC_MLP_SWIGLU, .norm = CALC_NORM_RMSNORM,
	 .moe = {.experts = 16, .top_k = 2, .expert_ffn = 14336, .imbalance = 1},
	 .mamba1 = {.inner = 8192, .state = 16, .conv = 4, .dt_rank = 256, .inner_norms = 1},
	 .hybrid = "S-SES-SE*-SES-SES-SES-SE*-SES-SES-SES-SE*-SES-SES-SES-SE*-SES-SE"},
};

static const char *model_source(const char *name)
{
	if (!strcmp(name, "dense-100b"))
		return "trainplan's own example (no published model)";
	if (!strncmp(name, "nar21-", 6))
		return "Narayanan et al. 2021 Table 1";
	if (!strcmp(name, "kor22-22b"))
		return "Korthikanti et al. 2022 Table 3";
	if (!strcmp(name, "gpt3-175b"))
		return "Brown et al. 2020 Table 2.1 (V padded to 51,200 as Narayanan et al. 2021)";
	if (!strncmp(name, "mpt-", 4))
		return "MosaicML llm-foundry scripts/train/yamls/pretrain (as benchmarked in "
		       "scripts/train/benchmarking/README.md, commit 495218376; NumParams at sequence 2,048)";
	if (!strncmp(name, "llama2", 6))
		return "Llama 2 published config (Touvron et al. 2023)";
	if (!strcmp(name, "mixtral-8x7b"))
		return "huggingface.co/mistralai/Mixtral-8x7B-v0.1 config.json; 46.7 B total, 12.9 B active "
		       "(Jiang et al. 2024, Mixtral of Experts, §2.1)";
	if (!strcmp(name, "mixtral-8x22b"))
		return "huggingface.co/mistralai/Mixtral-8x22B-v0.1 config.json (vocab 32,768); 141 B total, 39 B "
		       "active (Mistral AI, Mixtral 8x22B announcement, 2024)";
	if (!strcmp(name, "deepseek-v3"))
		return "huggingface.co/deepseek-ai/DeepSeek-V3 config.json; 671 B total, 37 B activated, MTP "
		       "module of depth 1 (DeepSeek-AI 2024, DeepSeek-V3 Technical Report, §2, §4.2)";
	if (!strcmp(name, "qwen3-235b-a22b"))
		return "huggingface.co/Qwen/Qwen3-235B-A22B config.json (q/k norms not counted); 235 B total, 22 B "
		       "activated (Qwen Team 2025, Qwen3 Technical Report, Table 2)";
	if (!strcmp(name, "qwen3-30b-a3b"))
		return "huggingface.co/Qwen/Qwen3-30B-A3B config.json (q/k norms not counted); 30.5 B total, 3.3 B "
		       "activated (Qwen3-30B-A3B model card)";
	if (!strcmp(name, "dbrx"))
		return "huggingface.co/databricks/dbrx-base config.json (LayerNorm without bias counted as with); "
		       "132 B total, 36 B active (Databricks 2024, Introducing DBRX)";
	if (!strcmp(name, "olmoe-1b-7b"))
		return "huggingface.co/allenai/OLMoE-1B-7B-0924 config.json (q/k norms not counted); 6.9 B total, "
		       "1.3 B active (Muennighoff et al. 2024, OLMoE, Table 1)";
	if (!strcmp(name, "jamba-v0.1"))
		return "huggingface.co/ai21labs/Jamba-v0.1 config.json (the same shape as ai21labs/AI21-Jamba-1.5-Mini); "
		       "52 B total, 12 B active (Lieber et al. 2024, Jamba: A Hybrid Transformer-Mamba Language Model, "
		       "Table 1; counted here 51.57 B and 12.11 B)";
	if (!strcmp(name, "qwen3-next-80b-a3b"))
		return "huggingface.co/Qwen/Qwen3-Next-80B-A3B-Instruct config.json (q/k norms and the MTP module not "
		       "counted); 80 B total, 3 B activated (its model card; counted here 79.67 B and 3.87 B, 3.25 B "
		       "without the embedding and the head)";
	if (!strcmp(name, "nemotron-3-nano-30b-a3b"))
		return "NVIDIA-NeMo/Megatron-Bridge src/megatron/bridge/models/nemotronh/nemotron_h_provider.py "
		       "(Nemotron3NanoProvider, commit 160ccccb); 31.6 B total (huggingface.co/nvidia/"
		       "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16), 3.5 B active (its model card)";
	if (!strncmp(name, "nemotron-h-", 11))
		return "NVIDIA-NeMo/Megatron-Bridge src/megatron/bridge/models/nemotronh/nemotron_h_provider.py "
		       "(NemotronHModelProvider8B / 56B, commit 160ccccb) and huggingface.co/nvidia/Nemotron-H-8B-Base-8K, "
		       "-56B-Base-8K; 8 B and 56 B parameters in the models' names (NVIDIA 2025, Nemotron-H, arXiv 2504.03624)";
	if (!strcmp(name, "llama3.2-1b"))
		return "huggingface.co/meta-llama/Llama-3.2-1B config.json (tied embeddings); 1.23 B (its model card)";
	return "Llama 3 published config (Llama Team 2024)";
}

#define GB 1e9
#define GIB 1073741824.0
#define TF 1e12

/* Usable memory: the total CUDA/ROCm reports (torch.cuda.get_device_properties
 * .total_memory), as commonly seen in out-of-memory messages; UNVERIFIED against a
 * primary source, and overridable with cluster.gpu_memory. */
/* Achieved shares of the dense BF16 peak in training (efficiency.gemm, .attention),
 * one pair per GPU generation, not per run, fitted with `trainplan calibrate` on at most
 * half of the Megatron validation rows of that generation (docs/references.md §7.7):
 * the rule, fixed before the fit, takes every second row of each source table in the
 * table's order, starting with the first; sources of a single row (KOR22 §6.3, Llama 2
 * Table 2, DeepSeek-V3 Table 1) and the FP8 MoE rows of Megatron-Bridge are held out.
 * - A100 GEMMs 0.73 (fit 0.730 +- 0.017): Narayanan 2021 Table 1, the 1.7B, 7.5B, 39.1B,
 *   145.6B and 529.6B runs (137, 142, 138, 148, 163 TFLOP/s per GPU), and Korthikanti
 *   2022 Table 5, the four full-recomputation iteration times (1.42, 18.13, 49.05, 94.42
 *   s): 9 of the 20 A100 rows.  Attention: not fitted (the one A100 FlashAttention row,
 *   Llama 2's, is held out); FlashAttention-2 reaches 50-73% of the A100 peak (Dao 2023,
 *   abstract), the lower end is taken.
 * - H100 attention 0.35, not fitted: FlashAttention-3's abstract (Shah et al. 2024,
 *   arXiv 2407.08608) puts FlashAttention-2 at "only 35%" of the H100 peak.  H100 GEMMs
 *   0.70 (fit 0.698 with trainplan calibrate, tests/cli/calibrate-h100.*, under that
 *   attention share): Llama Team 2024 Table 4, the 8K-sequence run on 8,192 GPUs (430
 *   TFLOP/s), 1 of its 3 rows; the 16,384-GPU run (400) and the 131K-sequence run with CP
 *   16 (380) are held out (-9.8 % and -2.6 % with the fit).  Before, the pair was fitted
 *   on two of the three rows (0.695 / 0.369, an exact fit of two values), which made Llama
 *   3 Table 4 a source calibrating more than half of its rows.
 * Blackwell: one GEMM efficiency per precision (gpu.gemm_eff for BF16 GEMMs,
 * gpu.gemm_eff_fp8 for FP8 GEMMs, each a share of its own dense peak; efficiency.gemm_fp8).
 * - B200 FP8 GEMMs 0.544 (fit 0.5441 with trainplan calibrate, tests/cli/calibrate-b200.*,
 *   under the attention share 0.35; 0.530 under the earlier 0.37): the Megatron-Bridge 25.11
 *   run of Llama 3 8B on 8 DGX-B200 GPUs in FP8 (30,624 tokens/s per GPU), 1 of the 2 B200
 *   rows; the Llama 3.1 405B run on 128 B200 is held out (+0.8 % with the fit, +3.2 % with
 *   the FP8 TP all-gathers of docs/references.md §4.2, +20 % with
 *   the H100 pair).
 * - GB200 FP8 GEMMs 0.486 (fit 0.4857, tests/cli/calibrate-gb200.*; 0.4747 under the
 *   earlier attention share 0.37): the same source's run of
 *   Llama 3 8B on 8 DGX-GB200 GPUs (31,508 tokens/s per GPU), the first of its 3 GB200 rows;
 *   the Llama 3.1 405B run on 256 GB200 (813) is held out and comes out 20.6 % too slow
 *   (17.5 % with the FP8 TP all-gathers of docs/references.md §4.2)
 *   with it (its TP collectives exposed, efficiency.tp_overlap 0); the Llama 3 70B run
 *   (FSDP) is not modelled.
 * - BF16 GEMMs on Blackwell: no dense BF16 run is published (Megatron-Bridge's Blackwell
 *   rows are FP8, MXFP8 and NVFP4), so the BF16 share is derived (convention, UNVERIFIED):
 *   the framework reaches the same share of the GPU's measured achievable matmul rate (MAMF,
 *   below) in BF16 as its FP8 fit does in FP8, eff16 = eff8 x (peak8 / MAMF8) x (MAMF16 /
 *   peak16).  B200: 0.5441 x 4500/3432.5 x 1745/2250 = 0.553 -> 0.55; GB200: 0.4857 x
 *   5000/3615.6 x 1822/2500 = 0.490 -> 0.49.
 * - GB300 FP8 GEMMs 0.633 (fit 0.6326 with trainplan calibrate, tests/cli/calibrate-gb300.*):
 *   Megatron-Bridge's 26.04.01 run of Llama 3 70B on 64 DGX-GB300 GPUs in FP8 with
 *   Megatron-FSDP (5,248 tokens/s per GPU), the first of the section's four dense GB300
 *   rows; the other three (70B MXFP8 PP 4 VP 5, 405B FP8 TP 4 PP 8 VP 4, 405B MXFP8 TP 2
 *   CP 2 PP 8 VP 4) and the 26.06 repeats are held out (calc/validate.c).  With GB200's
 *   shares, which the preset took before, every dense GB300 row came out 18 to 30 % too
 *   slow: the same recipes run 1.19 to 1.31 times as fast per GPU on GB300 as on GB200
 *   (5,248 against 4,224 for the same 70B FSDP layout) at the same dense BF16 and FP8 peaks.
 *   What makes it faster is not separated by a source (the 1,400 W against 1,200 W power
 *   limit, Blackwell Ultra's doubled SFU rate in the attention softmax); the fit carries it
 *   whole.  BF16: no measured matmul rate on GB300, so GB200's MAMF ratios are taken
 *   (convention, UNVERIFIED): 0.6326 x 5000/3615.6 x 1822/2500 = 0.638 -> 0.64.
 * - B300: no published run; both shares derived from B200's fit by the MAMF rates (UNVERIFIED):
 *   FP8 0.5441 x 3353.3/3432.5 = 0.532 -> 0.53, BF16 0.5441 x 4500/3432.5 x 1769/2250 = 0.561
 *   -> 0.56.  So one GB200 GPU is 0.486 x 5000 / (0.544 x 4500) = 0.99 B200 in FP8 GEMMs (MAMF: 1.05),
 *   where the H100 pair it inherited before made it 1.46.
 * - Attention on Blackwell keeps the H100's 0.35 (no fit; UNVERIFIED).
 * - H100 FP8 GEMMs 0.62: no FP8 share is fitted on H100 (the calibrating H100 rows are BF16),
 *   so it is derived from the BF16 fit by the rule of the Blackwell BF16 shares above, the
 *   other way round (convention, UNVERIFIED): eff8 = eff16 x (peak16 / MAMF16) x (MAMF8 /
 *   peak8) = 0.6981 x 989/794.5 x 1402.6/1979 = 0.616 -> 0.62, where the BF16 fit had run
 *   the FP8 GEMMs at 0.70 of the FP8 peak, a share of FP8's achievable rate (0.99) that cuBLAS
 *   does not reach in BF16 (0.87).  The H800 takes it (the H100 SXM row of the MAMF table,
 *   below); H200 by its own FP8 rate: 0.6981 x 989/794.5 x 1453.4/1979 = 0.638 -> 0.64.
 * - H100 PCIe (no measured matmul rate) takes the H100 pair with one share for both
 *   precisions (assumed, UNVERIFIED), H800 and H200 the H100 BF16 and attention shares;
 *   MI300X none (plan.c's generic 0.75 / 0.50 apply).  The Ampere presets have one GEMM
 *   share for both precisions (gemm_eff_fp8 0). */
#define B200_GEMM_FP8 0.544
#define B200_GEMM 0.55
#define GB200_GEMM_FP8 0.486
#define GB200_GEMM 0.49
#define B300_GEMM_FP8 0.53
#define B300_GEMM 0.56
#define GB300_GEMM_FP8 0.633
#define GB300_GEMM 0.64
/* SMs: A100 108 (NVIDIA A100 Tensor Core GPU Architecture whitepaper), H100 SXM5 132 and
 * PCIe 114 (NVIDIA H100 Tensor Core GPU Architecture whitepaper), H800 and H200 132 (the H100
 * die), B200 and GB200 148, B300 160 (UNVERIFIED); the AMD parts 0: not modelled. */
#define A100_GEMM 0.73
#define A100_ATTN 0.50
#define H100_GEMM 0.70 /* fit 0.6981, tests/cli/calibrate-h100.* */
#define H100_GEMM_FP8 0.62 /* 0.6981 x 989/794.5 x 1402.6/1979 = 0.616 (MAMF rates, above) */
#define H200_GEMM_FP8 0.64 /* 0.6981 x 989/794.5 x 1453.4/1979 = 0.638 */
#define H100_ATTN 0.35 /* FlashAttention-3, abstract: FlashAttention-2 at 35% of the H100 peak */
#define GT_GEMM 0.455 /* fit 0.4547 (0.449 before the loss traffic of docs/references.md §5.8) */
#define GT_ATTN 0.195 /* fit 0.1948 (0.194 before) */

/* Measured maximum achievable matmul rates (gpu.matmul_max, .matmul_max_fp8; MAMF),
 * the mean of 100 timed matmuls at the best shape a brute-force search found, from the
 * "Maximum Achievable Matmul FLOPS comparison table" of stas00/ml-engineering,
 * compute/accelerator/README.md (docs/references.md §5.9).  BF16: A100 SXM 271.2 of 312
 * TFLOP/s (86.9%), H100 SXM 794.5 of 989 (80.3%; "H200 is the same"), B200 SXM 1,745.0
 * (77.6%), B300 SXM 1,769.0, GB200 1,822.0, MI300X 668.4, MI325X 784.9, MI355X 1,565.0.
 * FP8: H100 SXM 1,402.6, H200 SXM 1,453.4, B200 3,432.5, B300 3,353.3, GB200 3,615.6.
 * The table names no memory size: the A100 row is taken for the 40 and 80 GB parts, the
 * H100 SXM row for the H800 (the same die and clocks, UNVERIFIED).  Not measured (0):
 * H100 PCIe, the 500 W Grand Teton H100 (its power cap lowers the clock), FP8 on the
 * AMD parts. */
#define A100_MAMF (271.2 * TF)
#define H100_MAMF (794.5 * TF)
#define H100_MAMF8 (1402.6 * TF)

/* The last field, the host link (gpu.pcie_bw, per direction): PCIe 4.0 x16 on A100,
 * 16 GT/s x 16 lanes with 128b/130b coding = 31.5 GB/s, the A100 datasheet's "PCIe Gen4:
 * 64 GB/s" bidirectional, taken as 32 GB/s; PCIe 5.0 x16 on the Hopper parts, the H100
 * datasheet's "PCIe Gen5: 128 GB/s" bidirectional, 64 GB/s (docs/references.md §6.1).
 * GB200: the Grace CPU's NVLink-C2C, NVIDIA's GB200 NVL72 spec "900 GB/s" bidirectional,
 * taken as 450 GB/s per direction for each GPU (convention: whether the two GPUs of a
 * superchip share it is not stated there).  The other parts leave it 0 (no datasheet
 * figure at hand): cluster.gpu_pcie_bw gives it where parallel.cpu_checkpointing or
 * training.offload_activations needs it. */
static const struct calc_gpu gpus[] = {
	{"a100-40g", "NVIDIA A100 SXM4 40 GB", 40 * GB, 39.59 * GIB, 1555 * GB, 312 * TF, 0, 300 * GB, 400,
	 "NVIDIA A100 datasheet: 40 GB HBM2, 1,555 GB/s, BF16 312 TFLOP/s dense, NVLink3 600 GB/s bidirectional", 108, A100_GEMM, A100_ATTN, 0, 32 * GB, A100_MAMF, 0, 0},
	{"a100-80g", "NVIDIA A100 SXM4 80 GB", 80 * GB, 79.15 * GIB, 2039 * GB, 312 * TF, 0, 300 * GB, 400,
	 "NVIDIA A100 datasheet: 80 GB HBM2e, 2,039 GB/s, BF16 312 TFLOP/s dense, NVLink3 600 GB/s bidirectional", 108, A100_GEMM, A100_ATTN, 0, 32 * GB, A100_MAMF, 0, 0},
	{"h100-sxm-80g", "NVIDIA H100 SXM5 80 GB", 80 * GB, 79.11 * GIB, 3350 * GB, 989 * TF, 1979 * TF, 450 * GB, 700,
	 "NVIDIA H100 datasheet: 80 GB HBM3, 3.35 TB/s, BF16 989 / FP8 1,979 TFLOP/s dense (half the sparse "
	 "figures), NVLink4 900 GB/s bidirectional", 132, H100_GEMM, H100_ATTN, 0, 64 * GB, H100_MAMF, H100_MAMF8,
	 H100_GEMM_FP8},
	{"h100-pcie-80g", "NVIDIA H100 PCIe 80 GB", 80 * GB, 79.11 * GIB, 2000 * GB, 756 * TF, 1513 * TF, 64 * GB, 350,
	 "NVIDIA H100 datasheet: 80 GB HBM2e, 2.0 TB/s, BF16 756 / FP8 1,513 TFLOP/s dense, PCIe5 128 GB/s "
	 "bidirectional", 114, H100_GEMM, H100_ATTN, 0, 64 * GB, 0, 0, 0},
	{"h800-80g", "NVIDIA H800 SXM5 80 GB", 80 * GB, 79.11 * GIB, 3350 * GB, 989 * TF, 1979 * TF, 200 * GB, 700,
	 "the H100 SXM5 die and memory (80 GB HBM3, 3.35 TB/s, BF16 989 / FP8 1,979 TFLOP/s dense) with NVLink cut "
	 "to 400 GB/s bidirectional (NVIDIA H800 export variant; compute as H100 SXM, DeepSeek-V3 §3.1 trains on "
	 "it at H100 speed, UNVERIFIED as a datasheet)", 132, H100_GEMM, H100_ATTN, 0, 64 * GB, H100_MAMF, H100_MAMF8,
	 H100_GEMM_FP8},
	/* Meta's Grand Teton H100 as torchtitan's docs/performance.md (Dec 2024 release)
	 * describes it: 96 GB HBM2e at 2.4 TB/s, the default 500 W power limit.  Its peak is
	 * "between SXM and NVL" and unknown (ibid., footnote 2): the SXM figures are kept, as
	 * torchtitan computes MFU with them, and the efficiency pair GT_GEMM / GT_ATTN is
	 * fitted (trainplan calibrate) on the torchtitan rows of calc/validate.c marked
	 * "calibrates"; it holds the power cap and the eager PyTorch kernels together.  Five
	 * of those six rows are FP8 (torchao Float8), so GT_GEMM is in effect an FP8 share;
	 * with no measured matmul rate for this part no other share is derived from it
	 * (gemm_eff_fp8 0): one share for both precisions. */
	{"h100-96g-500w", "NVIDIA H100 96 GB HBM2e at 500 W (Grand Teton)", 96 * GB, 94.93 * GIB, 2400 * GB,
	 989 * TF, 1979 * TF, 450 * GB, 500,
	 "torchtitan docs/performance.md (Dec 2024): H100 with 96 GB HBM2e, 2.4 TB/s, 500 W power limit; peak "
	 "between SXM and NVL, SXM's BF16 989 / FP8 1,979 TFLOP/s taken; usable memory at H100 80 GB's 79.11/80 "
	 "(UNVERIFIED)", 132, GT_GEMM, GT_ATTN, 0, 64 * GB, 0, 0, 0},
	{"h200-141g", "NVIDIA H200 SXM 141 GB", 141 * GB, 139.8 * GIB, 4800 * GB, 989 * TF, 1979 * TF, 450 * GB, 700,
	 "NVIDIA H200 datasheet: 141 GB HBM3e, 4.8 TB/s, BF16 989 / FP8 1,979 TFLOP/s dense, NVLink4", 132, H100_GEMM, H100_ATTN, 0, 64 * GB, H100_MAMF,
	 1453.4 * TF, H200_GEMM_FP8},
	{"b200-180g", "NVIDIA B200 (HGX, 1000 W) 180 GB", 180 * GB, 178.4 * GIB, 7700 * GB, 2250 * TF, 4500 * TF,
	 900 * GB, 1000,
	 "NVIDIA HGX B200 spec: 180 GB HBM3e, 7.7 TB/s, BF16 2,250 / FP8 4,500 / FP4 9,000 TFLOP/s dense, NVLink5 "
	 "1.8 TB/s bidirectional", 148, B200_GEMM, H100_ATTN, 9000 * TF, 0 /* PCIe: no datasheet figure at hand */, 1745.0 * TF,
	 3432.5 * TF, B200_GEMM_FP8},
	{"mi300x-192g", "AMD Instinct MI300X 192 GB", 192 * GB, 191.98 * GIB, 5300 * GB, 1307 * TF, 2615 * TF,
	 448 * GB, 750,
	 "AMD MI300X spec: 192 GB HBM3, 5.3 TB/s, BF16 ~1,307 / FP8 ~2,615 TFLOP/s dense (UNVERIFIED decimals), "
	 "Infinity Fabric 896 GB/s aggregate", 0, 0, 0, 0, 0 /* PCIe: no datasheet figure at hand */, 668.4 * TF, 0, 0},
	/* Blackwell and CDNA 3/4 parts (docs/references.md §6.1): the figures come from vendor
	 * spec tables as quoted by secondary pages (no primary datasheet text at hand), so each
	 * source string says UNVERIFIED; dense peaks are half the sparse ones. */
	{.name = "gb200-186g", .title = "NVIDIA GB200 (one GPU of an NVL72, 1200 W) 186 GB",
	 .memory_nominal = 186 * GB, .memory_usable = 185.0 * GIB, .hbm_bw = 8000 * GB,
	 .bf16_flops = 2500 * TF, .fp8_flops = 5000 * TF, .fp4_flops = 10000 * TF, .nvlink_bw = 900 * GB,
	 .tdp = 1200, .sms = 148, .gemm_eff = GB200_GEMM, .gemm_eff_fp8 = GB200_GEMM_FP8, .attn_eff = H100_ATTN,
	 .matmul_max = 1822.0 * TF, .matmul_max_fp8 = 3615.6 * TF, .pcie_bw = 450 * GB,
	 .source = "NVIDIA GB200 NVL72 spec per GPU (UNVERIFIED, via secondary copies): 186 GB HBM3e (13.4 TB per "
	           "72 GPUs; MLPerf system descriptions list 186 GB), 8 TB/s, BF16 2,500 / FP8 5,000 / FP4 10,000 "
	           "TFLOP/s dense (half the sparse), NVLink5 1.8 TB/s bidirectional, 1,200 W; SMs as B200; host link "
	           "NVLink-C2C 900 GB/s bidirectional, taken as 450 GB/s per direction per GPU"},
	{.name = "b300-288g", .title = "NVIDIA B300 (HGX, Blackwell Ultra) 288 GB",
	 .memory_nominal = 288 * GB, .memory_usable = 268.6 * GIB, .hbm_bw = 8000 * GB,
	 .bf16_flops = 2250 * TF, .fp8_flops = 4500 * TF, .fp4_flops = 13500 * TF, .nvlink_bw = 900 * GB,
	 .tdp = 1100, .sms = 160, .gemm_eff = B300_GEMM, .gemm_eff_fp8 = B300_GEMM_FP8, .attn_eff = H100_ATTN,
	 .matmul_max = 1769.0 * TF, .matmul_max_fp8 = 3353.3 * TF,
	 .source = "NVIDIA HGX B300 spec per GPU (UNVERIFIED, via secondary copies): 288 GB HBM3e (2.3 TB per 8), "
	           "8 TB/s, BF16 2,250 / FP8 4,500 / FP4 13,500 TFLOP/s dense (108 PFLOP/s FP4 per 8 GPUs), "
	           "NVLink5 1.8 TB/s bidirectional, 1,100 W, 160 SMs (Blackwell Ultra)"},
	/* GB300: the Blackwell Ultra GPU of a GB300 NVL72 rack.  The rack's figures are NVIDIA's
	 * (NVL72 AI Factory enterprise reference architecture, docs.nvidia.com, "System Hardware
	 * & Components": 72 Blackwell Ultra GPUs, 18 compute trays of 4 GPUs and 2 Grace CPUs,
	 * 9 NVSwitch trays, 130 TB/s, 4 ConnectX-8 per tray); the per-GPU peaks are the rack's
	 * advertised dense figures over 72 (180 PF BF16, 360 PF FP8, 1.08 EF FP4, as secondary
	 * copies quote them: UNVERIFIED).  No measured matmul rate: the FP8 GEMM share is fitted
	 * on one Megatron-Bridge run (GB300_GEMM_FP8 above), the BF16 share derived from it by
	 * GB200's matmul rates, the attention share GB200's (UNVERIFIED).  The one
	 * architectural difference NVIDIA documents for training-time work is the doubled SFU
	 * (exponential) throughput of Blackwell Ultra for softmax (NVIDIA technical blog
	 * "Making Softmax More Efficient with NVIDIA Blackwell Ultra", developer.nvidia.com,
	 * 2026), which acts on the attention core only; no source gives a training attention
	 * rate, and even twice GB200's attention share left the dense GB300 validation rows
	 * 9 to 26 % too slow under GB200's GEMM shares (docs/references.md §7.13), so the share
	 * is not raised. */
	{.name = "gb300-288g", .title = "NVIDIA GB300 (one GPU of an NVL72, Blackwell Ultra, 1400 W) 288 GB",
	 .memory_nominal = 288 * GB, .memory_usable = 268.6 * GIB, .hbm_bw = 8000 * GB,
	 .bf16_flops = 2500 * TF, .fp8_flops = 5000 * TF, .fp4_flops = 15000 * TF, .nvlink_bw = 900 * GB,
	 .tdp = 1400, .sms = 160, .gemm_eff = GB300_GEMM, .gemm_eff_fp8 = GB300_GEMM_FP8, .attn_eff = H100_ATTN,
	 .source = "NVIDIA GB300 NVL72 (UNVERIFIED per GPU, via secondary copies of the rack's figures): 288 GB "
	           "HBM3e, 8 TB/s, BF16 2,500 / FP8 5,000 / FP4 15,000 TFLOP/s dense (rack 180 / 360 / 1,080 "
	           "PFLOP/s), NVLink5 1.8 TB/s bidirectional, 1,400 W, 160 SMs; usable memory as B300 "
	           "(UNVERIFIED); FP8 GEMM share fitted on one Megatron-Bridge 26.04.01 run, BF16 share "
	           "derived by GB200's matmul rates, attention share as GB200 (UNVERIFIED)"},
	{.name = "mi325x-256g", .title = "AMD Instinct MI325X 256 GB",
	 .memory_nominal = 256 * GB, .memory_usable = 255.98 * GIB, .hbm_bw = 6000 * GB,
	 .bf16_flops = 1307.4 * TF, .fp8_flops = 2614.9 * TF, .nvlink_bw = 448 * GB, .tdp = 1000,
	 .matmul_max = 784.9 * TF,
	 .source = "AMD Instinct MI325X spec (UNVERIFIED, via secondary copies): 256 GB HBM3E, 6 TB/s, BF16 "
	           "1,307.4 / FP8 2,614.9 TFLOP/s dense (the MI300X compute), Infinity Fabric 7 x 128 GB/s "
	           "bidirectional, 1,000 W"},
	{.name = "mi355x-288g", .title = "AMD Instinct MI355X 288 GB",
	 .memory_nominal = 288 * GB, .memory_usable = 287.98 * GIB, .hbm_bw = 8000 * GB,
	 .bf16_flops = 2516.6 * TF, .fp8_flops = 5033.2 * TF, .fp4_flops = 10066.3 * TF, .nvlink_bw = 537.6 * GB,
	 .tdp = 1400, .matmul_max = 1565.0 * TF,
	 .source = "AMD Instinct MI355X spec (UNVERIFIED, via secondary copies): 288 GB HBM3E, 8 TB/s, BF16 "
	           "2,516.6 / FP8 5,033.2 / MXFP4 10,066.3 TFLOP/s dense (half the sparse), Infinity Fabric "
	           "7 x 153.6 GB/s bidirectional, 1,400 W"},
};

/*
 * Cluster tiers as comm.c uses them (docs/references.md §4.5-4.6, §6):
 * - intra_busbw is the NCCL ring bus bandwidth, used for every collective inside a node
 *   (the NVLS all-reduce peak, ~480 GB/s on H100 per nccl-tests #212, is not assumed).
 *   H100: 370 GB/s measured (#212).  A100 and B200: derived from the NVLink line rate
 *   per direction with the same protocol factor 370/450 = 0.82 (no collective
 *   measurement at hand; A100's 195 GB/s sendrecv figure measures point-to-point).
 *   NVLink5 (B200, GB200, B300): 721.8 GB/s, the bandwidth NCCL's topology model gives a GPU
 *   of 18 NVLink5 links, SM100_NVLINK_BW 40.1 GB/s per link (NVIDIA/nccl src/graph/topo.h
 *   at commit 5067397c26, used for every compute capability >= 10.0; nvidia/nccl #1807 logs
 *   "maxBw 721.8" on 8 B200).  The same model's SM90_NVLINK_BW 20.6 x 18 = 370.8 GB/s
 *   agrees with the 370 GB/s measured on H100 (#212), which the derivation 900 x 370/450 =
 *   740 GB/s used before did not have for NVLink5.
 * - Latencies are per ring step (the alpha of the alpha-beta cost): small-message
 *   all-reduce over 2 GPUs (2 steps) takes about 6 us on H100 NVLink (nvidia/nccl #1259)
 *   and about 10 us on A100 (nvidia/nccl #583), so 3 us per NVLink step; 6 us per
 *   network step is assumed (UNVERIFIED), as is 4 / 8 us on MI300X.
 * - inter_bw is the NIC line rate per GPU; the achieved share is cluster.inter_node_eff
 *   (default 0.85, docs/references.md §6 "0.8-0.9 x g B_nic").
 */
#define NVL5_BUSBW (721.8 * GB) /* 18 x SM100_NVLINK_BW, NVIDIA/nccl src/graph/topo.h */

static const struct calc_cluster_preset clusters[] = {
	{"dgx-h100-ndr", "DGX/HGX H100: 8 x H100 SXM per node, NVLink4, 8 x 400 Gb/s NDR InfiniBand", "h100-sxm-80g", 8,
	 450 * GB, 370 * GB, 50 * GB, 3e-6, 6e-6, 2.50,
	 "NVLink4 450 GB/s per direction and ring busbw 370 GB/s: NCCL maintainer, nvidia/nccl-tests #212; "
	 "one NDR 400 Gb/s NIC per GPU (MLCommons H100 system descriptions)"},
	{"hgx-h800-ib", "H800 cluster of DeepSeek-V3: 8 x H800 per node, NVLink 160 GB/s, 8 x 400 Gb/s InfiniBand",
	 "h800-80g", 8, 160 * GB, 160 * GB * 370 / 450, 50 * GB, 3e-6, 6e-6, 2.00,
	 "DeepSeek-V3 report §3.1-3.2.2: 8 H800 per node over NVLink and NVSwitch, InfiniBand across nodes, "
	 "NVLink 160 GB/s and IB 50 GB/s per GPU as the report states them; ring busbw derived with the H100 "
	 "protocol factor 370/450 (nvidia/nccl-tests #212, UNVERIFIED on H800); $2 per GPU-hour as DeepSeek-V3 "
	 "Table 1 assumes"},
	{"dgx-a100-hdr", "DGX A100: 8 x A100 80 GB per node, NVLink3, 8 x 200 Gb/s HDR InfiniBand", "a100-80g", 8,
	 300 * GB, 300 * GB * 370 / 450, 25 * GB, 3e-6, 6e-6, 1.50,
	 "NVLink3 600 GB/s bidirectional (300 GB/s line rate per direction); collective busbw 247 GB/s derived "
	 "from the line rate with the protocol factor 370/450 NCCL reaches on H100 (nvidia/nccl-tests #212), "
	 "not measured on A100 (the 195 GB/s A100 figure is a sendrecv measurement); 8 x HDR 200 Gb/s per node "
	 "(Narayanan et al. 2021 §5)"},
	{"grand-teton-h100", "Grand Teton: 8 x H100 96 GB (500 W) per node, NVLink4, 400 Gb/s RDMA per GPU",
	 "h100-96g-500w", 8, 450 * GB, 370 * GB, 50 * GB, 3e-6, 6e-6, 2.50,
	 "torchtitan docs/performance.md (Dec 2024): 8 H100 per host fully connected with NVLink, 400 Gb/s RDMA "
	 "per GPU between hosts; NVLink busbw and latencies as dgx-h100-ndr (assumed)"},
	{"hgx-h200-ndr", "HGX H200: 8 x H200 per node, NVLink4, 8 x 400 Gb/s NDR InfiniBand", "h200-141g", 8,
	 450 * GB, 370 * GB, 50 * GB, 3e-6, 6e-6, 3.50,
	 "NVLink4 as H100; all_reduce peak 475 GB/s (nvidia/nccl-tests #272)"},
	{"hgx-b200-ndr", "HGX B200: 8 x B200 per node, NVLink5, 8 x 400 Gb/s InfiniBand", "b200-180g", 8,
	 900 * GB, NVL5_BUSBW, 50 * GB, 3e-6, 6e-6, 5.00,
	 "NVLink5 1.8 TB/s bidirectional; ring busbw 721.8 GB/s, NCCL's NVLink model for sm_100 (src/graph/topo.h: "
	 "18 links x 40.1 GB/s)"},
	{"mi300x-roce", "8 x MI300X per node, Infinity Fabric, 8 x 400 Gb/s RoCE", "mi300x-192g", 8,
	 448 * GB, 310 * GB, 50 * GB, 4e-6, 8e-6, 3.00,
	 "Infinity Fabric 7 x 64 GB/s per direction; busbw assumed at 0.7 of line rate (UNVERIFIED)"},
	/* An NVL72 rack is one NVLink domain of 72 GPUs: comm.c's "node" tier is the NVLink
	 * domain, so a rack is a node of 72 GPUs here. */
	{"gb200-nvl72", "GB200 NVL72: 72 x GB200 GPUs in one NVLink5 domain per rack, 1 x 400 Gb/s NIC per GPU",
	 "gb200-186g", 72, 900 * GB, NVL5_BUSBW, 50 * GB, 3e-6, 6e-6, 6.00,
	 "NVIDIA GB200 NVL72 (UNVERIFIED, via secondary copies): 72 GPUs (18 compute trays of 4) and 36 Grace CPUs "
	 "on NVLink Switch (130 TB/s = 72 x 1.8 TB/s), one ConnectX-7 400 Gb/s per GPU; ring busbw 721.8 GB/s, "
	 "NCCL's NVLink model for sm_100 (src/graph/topo.h: 18 links x 40.1 GB/s); price a convention"},
	{"gb300-nvl72", "GB300 NVL72: 72 x GB300 GPUs in one NVLink5 domain per rack, 1 x 800 Gb/s NIC per GPU",
	 "gb300-288g", 72, 900 * GB, NVL5_BUSBW, 100 * GB, 3e-6, 6e-6, 6.00,
	 "NVIDIA NVL72 AI Factory enterprise reference architecture (docs.nvidia.com): 72 Blackwell Ultra GPUs "
	 "in one NVLink domain (18 compute trays of 4 GPUs and 2 Grace CPUs, 9 NVSwitch trays, 130 TB/s), 4 "
	 "ConnectX-8 per tray (one 800 Gb/s NIC per GPU); ring busbw 721.8 GB/s, NCCL's NVLink model for "
	 "compute capability 10.x (src/graph/topo.h: 18 links x 40.1 GB/s); price a convention"},
	{"hgx-b300-xdr", "HGX B300: 8 x B300 per node, NVLink5, 8 x 800 Gb/s ConnectX-8", "b300-288g", 8,
	 900 * GB, NVL5_BUSBW, 100 * GB, 3e-6, 6e-6, 6.00,
	 "NVIDIA HGX B300 (UNVERIFIED, via secondary copies): NVLink5 1.8 TB/s bidirectional per GPU, networking "
	 "1.6 TB/s per 8 GPUs (800 Gb/s per GPU); ring busbw 721.8 GB/s, NCCL's NVLink model for compute "
	 "capability 10.x (src/graph/topo.h: 18 links x 40.1 GB/s); price a convention"},
	{"mi325x-roce", "8 x MI325X per node, Infinity Fabric, 8 x 400 Gb/s RoCE", "mi325x-256g", 8,
	 448 * GB, 310 * GB, 50 * GB, 4e-6, 8e-6, 3.50,
	 "the MI300X platform's Infinity Fabric (7 x 64 GB/s per direction); busbw assumed at 0.7 of line rate "
	 "(UNVERIFIED); one 400 Gb/s NIC per GPU assumed; price a convention"},
	{"mi355x-roce", "8 x MI355X per node, Infinity Fabric, 8 x 400 Gb/s RoCE", "mi355x-288g", 8,
	 537.6 * GB, 376 * GB, 50 * GB, 4e-6, 8e-6, 4.50,
	 "Infinity Fabric 7 x 76.8 GB/s per direction (UNVERIFIED); busbw assumed at 0.7 of line rate "
	 "(UNVERIFIED); one 400 Gb/s NIC per GPU (AMD Pollara 400) assumed; price a convention"},
};

#define N(a) (int)(sizeof a / sizeof a[0])

/* The presets as every reader sees them: a hybrid model with its layer sequence built
 * from its pattern (calc_model_set_hybrid), so that no reader of a preset (the presets
 * table, the validation rows, export) counts its layers as dense ones.  Each entry is
 * built when first asked for (under built_lock): building all of them to read one
 * touched the whole 77 kB table, 18 of the 174 page faults of `trainplan search --plan
 * plans/llama3-405b-h100.ini` (perf record -e page-faults).  Each is a block of the heap
 * (kept for the process), not an entry of a 77 kB array in the bss: the one a command
 * builds then lies in the heap's first 2 MiB page, which every command touches, instead
 * of a page or two of its own, and the small statics of the files linked around this
 * one lie closer together.  With the key tables of plan.c and the recipes retyped by
 * main_grads (recipe.c) made so too, the search of that plan faults 4 pages of the
 * project's statics instead of 9 (data and bss 20 -> 15, perf record -e page-faults
 * -d; the whole command 70 -> 65, perf stat). */
static struct calc_model *built[N(models)]; /* NULL until built (read with acquire) */
static pthread_mutex_t built_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct calc_model *model_built(int i)
{
	struct calc_model *b = __atomic_load_n(&built[i], __ATOMIC_ACQUIRE);
	if (!b) {
		pthread_mutex_lock(&built_lock);
		if (!(b = built[i])) {
			char msg[CALC_LAYOUT_MAX + 256];
			b = xmalloc(sizeof *b);
			*b = models[i];
			if (b->hybrid[0] && calc_model_set_hybrid(b, msg, sizeof msg) < 0)
				memset(&b->seq, 0, sizeof b->seq); /* a preset's pattern is checked by tests */
			__atomic_store_n(&built[i], b, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&built_lock);
	}
	return b;
}

const struct calc_model *calc_preset_model(const char *name)
{
	for (int i = 0; i < N(models); i++)
		if (!strcmp(models[i].name, name)) /* built[i] keeps models[i]'s name */
			return model_built(i);
	return NULL;
}
const struct calc_model *calc_preset_model_at(int i)
{
	return i >= 0 && i < N(models) ? model_built(i) : NULL;
}
const char *calc_preset_model_source(const char *name) { return model_source(name); }

const struct calc_gpu *calc_preset_gpu(const char *name)
{
	for (int i = 0; i < N(gpus); i++)
		if (!strcmp(gpus[i].name, name))
			return &gpus[i];
	return NULL;
}
const struct calc_gpu *calc_preset_gpu_at(int i) { return i >= 0 && i < N(gpus) ? &gpus[i] : NULL; }

const struct calc_cluster_preset *calc_preset_cluster(const char *name)
{
	for (int i = 0; i < N(clusters); i++)
		if (!strcmp(clusters[i].name, name))
			return &clusters[i];
	return NULL;
}
const struct calc_cluster_preset *calc_preset_cluster_at(int i)
{
	return i >= 0 && i < N(clusters) ? &clusters[i] : NULL;
}
