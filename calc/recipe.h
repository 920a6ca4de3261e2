/*
 * recipe.h -- recipes: the convention ledger of bytes per parameter (recipe.c).
 */
#ifndef CALC_RECIPE_H
#define CALC_RECIPE_H

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

#endif
