/*
 * calc/framework.c -- the frameworks' own published recipes for a model, shown in the
 * report beside the planner's pick (issue: "the pick beside the framework's own recipe").
 *
 * One row per (model preset, GPU family) for which a framework publishes a pre-training
 * configuration.  Only the degrees, batch and what the recipe turns on are recorded, each
 * from the file and function named in the row at the commit named there; nothing here is
 * used by the time model.  A plan whose model and GPU family have no row has none
 * (framework.found = 0) and the report says so.
 *
 * Megatron-Bridge (NVIDIA-NeMo/Megatron-Bridge) at 067f987df03b8355b03192d88d70f1709fedf51a:
 *   src/megatron/bridge/perf_recipes/llama/h100/llama31.py,
 *     llama31_405b_pretrain_1024gpu_h100_bf16_config: TP 8, PP 8, CP 2, VP 8, SP, MBS 1,
 *     GBS 1536, sequence 8192, tp_comm_overlap_cfg = userbuffers_bf16_h100_h16384_tp8_cp2_
 *     mbs1_seqlen8192 (TP communication overlapped with the GEMMs), 1024 H100.
 *   src/megatron/bridge/perf_recipes/deepseek/h100/deepseek_v3.py,
 *     deepseek_v3_pretrain_1024gpu_h100_bf16_config: TP 2, PP 8, VP 4, CP 1, EP 64, SP,
 *     MBS 1, GBS 16384, layout "Et|(tt|)*30mL", recompute_modules mla_up_proj and mlp,
 *     1024 H100 (the plan's H800 is the H100's export variant: same SMs, less NVLink).
 */
#include "diag.h"
#include "plan.h"
#include "catalog.h"
#include "step.h"

#include <math.h>
#include <string.h>

struct frecipe {
	const char *model;      /* model preset */
	const char *gpu_prefix; /* GPU presets it applies to: "h100", "h800" ... (prefix of gpu.name) */
	const char *gpu_prefix2;
	int gpus, tp, pp, cp, vpp, ep, micro, global, seq; /* seq 0: not set in the recipe's function */
	int tp_overlap;         /* 1: the recipe overlaps TP communication with the GEMMs */
	const char *framework, *commit, *file, *function, *extra;
};

static const struct frecipe recipes[] = {
	{"llama3.1-405b", "h100", "h800", 1024, 8, 8, 2, 8, 1, 1, 1536, 8192, 1, "Megatron-Bridge",
	 "067f987df03b8355b03192d88d70f1709fedf51a", "src/megatron/bridge/perf_recipes/llama/h100/llama31.py",
	 "llama31_405b_pretrain_1024gpu_h100_bf16_config", "sequence parallelism, TP communication overlap (userbuffers)"},
	{"deepseek-v3", "h100", "h800", 1024, 2, 8, 1, 4, 64, 1, 16384, 0, 0, "Megatron-Bridge",
	 "067f987df03b8355b03192d88d70f1709fedf51a", "src/megatron/bridge/perf_recipes/deepseek/h100/deepseek_v3.py",
	 "deepseek_v3_pretrain_1024gpu_h100_bf16_config",
	 "sequence parallelism, layout Et|(tt|)*30mL, recomputation of the MLA up-projections and the MLPs"},
};
#define NREC (int)(sizeof recipes / sizeof recipes[0])

static const struct frecipe *find(const struct calc_plan *p)
{
	const char *g = p->gpu.name;
	for (int i = 0; i < NREC; i++)
		if (!strcmp(recipes[i].model, p->model.name) &&
		    (!strncmp(g, recipes[i].gpu_prefix, strlen(recipes[i].gpu_prefix)) ||
		     (recipes[i].gpu_prefix2 && !strncmp(g, recipes[i].gpu_prefix2, strlen(recipes[i].gpu_prefix2)))))
			return &recipes[i];
	return NULL;
}

#define QF(fn, expr)                                                                  \
	static int fn(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)      \
	{                                                                                 \
		const struct frecipe *r = find(&c->plan);                                 \
		v->num = r ? (double)(expr) : NAN;                                        \
		return 0;                                                                 \
	}
#define QFS(fn, expr)                                                                 \
	static int fn(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)      \
	{                                                                                 \
		const struct frecipe *r = find(&c->plan);                                 \
		v->num = NAN;                                                             \
		v->str = r ? (expr) : "";                                                 \
		return 0;                                                                 \
	}
static int q_found(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	v->num = find(&c->plan) != NULL;
	return 0;
}
QF(q_gpus, r->gpus)
QF(q_tp, r->tp)
QF(q_pp, r->pp)
QF(q_cp, r->cp)
QF(q_vpp, r->vpp)
QF(q_ep, r->ep)
QF(q_micro, r->micro)
QF(q_global, r->global)
QF(q_seq, r->seq)
QF(q_overlap, r->tp_overlap)
QF(q_dp, r->gpus / (r->tp * r->pp * r->cp))
QFS(q_framework, r->framework)
QFS(q_commit, r->commit)
QFS(q_file, r->file)
QFS(q_function, r->function)
QFS(q_extra, r->extra)

static int q_shape_on(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	v->num = calc_gemm_shape_on(&c->plan);
	return 0;
}

static int q_plan_file(struct calc_ctx *c, struct calc_value *v, struct calc_diag *d)
{
	v->num = NAN;
	v->str = c->plan.file;
	return 0;
}

const struct calc_quantity calc_q_framework[] = {
	{"plan.file", "", "the plan file as given (\"<default>\" for the built-in plan)", q_plan_file},
	{"efficiency.gemm_shape_on", "1", "1 when the step model applies the measured small-GEMM falloff (efficiency.gemm_shape)",
	 q_shape_on},
	{"framework.found", "1", "1 when a framework publishes a pre-training recipe for the plan's model and GPU", q_found},
	{"framework.gpus", "1", "GPUs of the framework's published recipe", q_gpus},
	{"framework.tp", "1", "TP of the framework's published recipe", q_tp},
	{"framework.pp", "1", "PP of the framework's published recipe", q_pp},
	{"framework.cp", "1", "CP of the framework's published recipe", q_cp},
	{"framework.dp", "1", "DP of the framework's published recipe (GPUs / (TP PP CP))", q_dp},
	{"framework.vpp", "1", "virtual stages per pipeline rank of the framework's published recipe", q_vpp},
	{"framework.ep", "1", "EP of the framework's published recipe", q_ep},
	{"framework.micro_batch", "1", "micro-batch of the framework's published recipe", q_micro},
	{"framework.global_batch", "1", "global batch of the framework's published recipe", q_global},
	{"framework.seq_len", "1", "sequence of the framework's published recipe (0: its base config's)", q_seq},
	{"framework.tp_overlap", "1", "1 when the framework's published recipe overlaps TP communication", q_overlap},
	{"framework.name", "", "framework of the published recipe", q_framework},
	{"framework.commit", "", "commit of the framework's repository the recipe is read at", q_commit},
	{"framework.file", "", "file of the published recipe", q_file},
	{"framework.function", "", "function of the published recipe", q_function},
	{"framework.extra", "", "what else the published recipe turns on", q_extra},
	{NULL, NULL, NULL, NULL},
};
