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

/* Megatron-Core MambaContextParallel.__init__ (megatron/core/ssm/mamba_context_parallel.py
 * lines 103-132 at d98e8a64dd): nheads_local_tp % cp_size == 0 ("nheads must be evenly
 * divisible by tp_size * cp_size"); groups of a TP rank fewer than cp: cp_size %
 * ngroups_local_tp == 0 and each group state repeated cp / (G / tp) times, else
 * ngroups_local_tp % cp_size == 0. */
int calc_cp_mamba_ok(const struct calc_model *m, int tp, int cp)
{
	int t = tp > 0 ? tp : 1, h, g;
	if (cp <= 1)
		return 1;
	if (m->mamba.heads <= 0 || m->mamba.groups <= 0 || m->mamba.heads % t || m->mamba.groups % t)
		return 1; /* the shape or TP rules speak first */
	h = m->mamba.heads / t, g = m->mamba.groups / t;
	if (h % cp)
		return 0;
	return g < cp ? cp % g == 0 : g % cp == 0;
}

/* The same source, lines 114-132 and 140-199: B and C leave in_proj with G / tp groups of
 * N each per token; with fewer groups than CP ranks each group is repeated cp / (G / tp)
 * times before the all-to-all, so that every CP rank receives one group: the groups a
 * token carries into the all-to-all are max(G / tp, cp). */
double calc_cp_mamba_groups(const struct calc_model *m, int tp, int cp)
{
	double g = (double)m->mamba.groups / (tp > 0 ? tp : 1);
	return cp > 1 && g < cp ? cp : g;
}

/* Megatron-Core's gated delta-net under CP (megatron/core/ssm/gated_delta_net/gdn.py lines
 * 51-64 at d98e8a64dd, and common.py lines 627-632: "split_sections ... must be divisible by
 * cp_size for GDN"): the in_proj sections of a TP rank, q and k H_k d_k / tp, v and z
 * H_v d_v / tp, beta and alpha H_v / tp, each divisible by cp; the query and key are then
 * split by whole heads (common.py line 421, qk_dim_local_tp // key_head_dim // cp_size),
 * so the key heads of a TP rank too. */
int calc_cp_gdn_ok(const struct calc_model *m, int tp, int cp)
{
	int t = tp > 0 ? tp : 1;
	const struct calc_gdn *g = &m->gdn;
	if (cp <= 1)
		return 1;
	if (g->key_heads <= 0 || g->value_heads <= 0 || g->key_heads % t || g->value_heads % t)
		return 1; /* the shape or TP rules speak first */
	return (g->key_heads / t) % cp == 0 && (g->value_heads / t) % cp == 0;
}
