/*
 * presets.h -- GPUs, clusters and models by name (presets.c, presets_tables.c).
 */
#ifndef CALC_PRESETS_H
#define CALC_PRESETS_H

#include "bounds.h"
#include "model.h"

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


/* Presets. */
const struct calc_model *calc_preset_model(const char *name);
const struct calc_model *calc_preset_model_at(int i);
const char *calc_preset_model_source(const char *name);
const struct calc_gpu *calc_preset_gpu(const char *name);
const struct calc_gpu *calc_preset_gpu_at(int i);
const struct calc_cluster_preset *calc_preset_cluster(const char *name);
const struct calc_cluster_preset *calc_preset_cluster_at(int i);

#endif
