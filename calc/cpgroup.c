/*
 * cpgroup.c -- the context-parallel group rules of parallel.cp_comm that plan
 * validation, the planner and comm.c share: the size of the all-to-all group and the
 * head divisibility it needs (Transformer Engine context_parallel.py at d0067d0: the
 * a2a exchange splits the attention heads of a TP rank over the group; Jacobs et al.
 * 2023, DeepSpeed-Ulysses §3.1; docs/references.md §4.7).  A leaf of the library, so
 * that plan.c and search.c use it without a call loop through comm.c and memory.c
 * (make check-loops).
 */
#include "comm.h"

int calc_cp_a2a_group(const struct calc_plan *plan, int cp)
{
	switch ((enum calc_cp_comm)plan->cp_comm) {
	case CALC_CP_ALLGATHER:
	case CALC_CP_P2P:
		return 1;
	case CALC_CP_A2A:
		return cp > 0 ? cp : 1;
	case CALC_CP_A2A_P2P:
		return plan->cp_a2a_size > 0 ? plan->cp_a2a_size : 1;
	}
	return 1;
}

int calc_cp_heads_ok(const struct calc_plan *plan, int tp, int cp, int *q, int *kv)
{
	const struct calc_model *m = &plan->model;
	int t = tp > 0 ? tp : 1, a = calc_cp_a2a_group(plan, cp);
	int nkv = m->kv_heads > 0 ? m->kv_heads : m->heads;
	int hq = m->heads / t, hkv = nkv / t < 1 ? 1 : nkv / t;

	if (q)
		*q = hq;
	if (kv)
		*kv = hkv;
	if (cp <= 1 || a <= 1)
		return 1;
	return hq % a == 0 && hkv % a == 0;
}
