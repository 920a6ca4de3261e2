/*
 * frameworks.c -- what each training framework runs, for `trainplan search --for`:
 * its pipeline schedules, its ZeRO stages (with and without pipeline parallelism), its
 * context parallelism and whether its tensor parallelism always shards the sequence.
 * The same sets as `trainplan export --for` writes (calc/export.c), so that a
 * configuration the search returns for a framework can be exported to it.
 *
 * Sources:
 *  - Megatron-LM / Megatron-Core (megatron): megatron/core/pipeline_parallel/schedules.py,
 *    get_forward_backward_func: no pipelining, 1F1B ("without interleaving") and
 *    interleaved 1F1B with virtual stages; no GPipe, zero-bubble or DualPipe.  ZeRO-1 is
 *    --use-distributed-optimizer; Megatron FSDP's --data-parallel-sharding-strategy
 *    no_shard, optim, optim_grads, optim_grads_params are ZeRO-0 to ZeRO-3
 *    (megatron/training/arguments.py).
 *  - NeMo 2 / Megatron-Bridge (nemo): trains through Megatron-Core, so the same
 *    schedules; the file `export --for nemo` writes says ZeRO-0 or ZeRO-1 (fused Adam or
 *    distributed_fused_adam), so the search keeps to those.
 *  - torchtitan: pipeline schedules of torch.distributed.pipelining
 *    (torch/distributed/pipelining/schedules.py, get_schedule_class: GPipe, 1F1B,
 *    Interleaved1F1B, LoopedBFS, InterleavedZeroBubble, ZBVZeroBubble, DualPipeV), of
 *    which the step model has GPipe, 1F1B, interleaved 1F1B and DualPipe (DualPipeV, as
 *    the export writes it); ZB-H1 and ZB-H2 are not torchtitan's zero-bubble schedules
 *    (those are interleaved or V-shaped), so they are left out.  Data parallelism is
 *    FSDP2: data_parallel_replicate_degree (ZeRO-0), data_parallel_shard_degree with
 *    reshard_after_forward (ZeRO-3) or without it (ZeRO-2); there is no ZeRO-1
 *    (torchtitan/config/job_config.py).  Its tensor parallel plan shards the norms'
 *    sequence (SequenceParallel), so TP always comes with SP.
 *  - DeepSpeed (deepspeed): the pipeline engine runs TrainSchedule, a 1F1B order
 *    (deepspeed/runtime/pipe/schedule.py), and refuses ZeRO-2 and ZeRO-3 with pipeline
 *    parallelism ("ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism",
 *    deepspeed/runtime/pipe/engine.py, PipelineEngine.__init__).  Its long-sequence
 *    parallelism, DeepSpeed-Ulysses, exchanges heads with all-to-alls; the step model's
 *    context parallelism is Megatron's ring, so cp stays 1 (not modelled for DeepSpeed).
 *
 *
 * Optimizer-state offload (training.offload_optimizer, docs/references.md §2.13) is
 * Megatron-Core's --optimizer-cpu-offload (HybridDeviceOptimizer,
 * megatron/core/optimizer/cpu_offloading/hybrid_optimizer.py), which export --for
 * megatron writes, under training.offload_style = megatron; DeepSpeed's ZeRO-Offload
 * (zero_optimization.offload_optimizer, Ren et al. 2021) under offload_style =
 * zero-offload, which export --for deepspeed writes; NeMo's and torchtitan's exports
 * write neither, so their searches leave it out (calc_search_offload_share names the
 * reason when the plan's style is not the framework's).
 * plan.framework (calc_plan_framework) restricts the planner's schedules for every search
 * of a plan -- `trainplan search`, a plan without a split and the report -- to one
 * framework's; its default, 'stack', takes the framework of the plan's efficiency.stack
 * (calc_framework_of_stack): the Megatron-Core stacks run Megatron-Core's schedules,
 * nemo and megatron-bridge NeMo's (the same, through Megatron-Core), torchtitan
 * torchtitan's and the DeepSpeed stacks the pipeline engine's; fsdp1 (no pipeline
 * parallelism in the framework) has none in the table, so every schedule is searched.
 *
 * zero_default, the sharding a framework's production runs use (the recommendation takes
 * more as less simple, pick.c): Megatron-Core and NeMo 1, the distributed optimizer that
 * Megatron-Bridge's recipes turn on (ddp.use_distributed_optimizer = True in
 * src/megatron/bridge/recipes/llama/h100/llama3.py at 067f987d; ZeRO-3 is the opt-in
 * Megatron-FSDP, --use-megatron-fsdp); torchtitan 3, FSDP2's fully_shard over
 * data_parallel_shard_degree = -1 (its default); DeepSpeed none (-1): its
 * zero_optimization.stage defaults to 0 and its examples set every stage.
 *
 * The file paths are those of the frameworks' main branches; the commits they were
 * read at are not pinned (docs/references.md §9.23).
 */
#include "plan.h"
#include "search.h"

#include <string.h>

static const struct calc_framework frameworks[] = {
	{"megatron", "Megatron-LM (Megatron-Core)", {CALC_SCHED_1F1B, CALC_SCHED_INTERLEAVED, -1}, 0xf, 0xf, 0, 0,
	 1u << CALC_OFFLOAD_MEGATRON, 1},
	{"nemo", "NeMo 2 / Megatron-Bridge (Megatron-Core)", {CALC_SCHED_1F1B, CALC_SCHED_INTERLEAVED, -1}, 0x3, 0x3, 0, 0, 0,
	 1},
	{"torchtitan", "torchtitan (FSDP2, torch.distributed.pipelining)",
	 {CALC_SCHED_GPIPE, CALC_SCHED_1F1B, CALC_SCHED_INTERLEAVED, CALC_SCHED_DUALPIPE, -1}, 0xd, 0xd, 1, 0, 0, 3},
	{"deepspeed", "DeepSpeed (pipeline engine)", {CALC_SCHED_1F1B, -1}, 0xf, 0x3, 0, 1, 1u << CALC_OFFLOAD_ZERO, -1},
};

const struct calc_framework *calc_framework_find(const char *name)
{
	for (size_t i = 0; i < sizeof frameworks / sizeof frameworks[0]; i++)
		if (!strcmp(frameworks[i].name, name))
			return &frameworks[i];
	return NULL;
}

const struct calc_framework *calc_framework_at(int i)
{
	return i >= 0 && (size_t)i < sizeof frameworks / sizeof frameworks[0] ? &frameworks[i] : NULL;
}

int calc_framework_allows(const void *arg, const struct calc_search_cfg *c)
{
	const struct calc_framework *f = arg;
	int ok = c->pp == 1; /* one stage runs no schedule */
	for (int i = 0; !ok && i < CALC_FRAMEWORK_SCHEDS && f->schedules[i] >= 0; i++)
		ok = c->schedule == f->schedules[i];
	if (!ok)
		return 0;
	if (!((c->pp > 1 ? f->zero_pp : f->zero) >> c->zero & 1))
		return 0;
	if (f->sp_with_tp && c->tp > 1 && !c->sp)
		return 0;
	if (f->cp_one && c->cp > 1)
		return 0;
	if (c->offload > 0 && !f->opt_offload) /* the style: calc_search_offload_share */
		return 0;
	return 1;
}

int calc_framework_index(const struct calc_framework *f)
{
	return f ? (int)(f - frameworks) : -1;
}

const struct calc_framework *calc_framework_of_stack(const char *stack)
{
	static const struct {
		const char *prefix, *framework;
	} map[] = {
		{"megatron-core", "megatron"}, {"megatron-bridge", "nemo"}, {"nemo", "nemo"},
		{"torchtitan", "torchtitan"}, {"deepspeed-", "deepspeed"},
	};
	if (!stack)
		stack = "megatron-core";
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (!strncmp(stack, map[i].prefix, strlen(map[i].prefix)))
			return calc_framework_find(map[i].framework);
	return NULL;
}

const struct calc_framework *calc_plan_framework(const struct calc_plan *p, int *how)
{
	if (how)
		*how = p->framework == 0;
	if (p->framework == 0)
		return calc_framework_of_stack(p->stack ? p->stack->name : NULL);
	if (p->framework == 1)
		return NULL;
	return calc_framework_at(p->framework - 2);
}

unsigned long long calc_framework_sched_mask(const struct calc_framework *f)
{
	unsigned long long m = 0;
	if (!f)
		return ~0ull;
	for (int i = 0; i < CALC_FRAMEWORK_SCHEDS && f->schedules[i] >= 0; i++)
		if (f->schedules[i] < 64)
			m |= 1ull << f->schedules[i];
	return m;
}

unsigned long long calc_plan_sched_mask(const struct calc_plan *p)
{
	return calc_framework_sched_mask(calc_plan_framework(p, NULL));
}
