/*
 * placement.c -- parallel.placement, the rank order of the parallel groups: parsing the
 * order string and Megatron-Core's rule that the dense and the expert layers share their
 * pipeline groups (megatron/core/parallel_state.py initialize_model_parallel and
 * RankGenerator at core_v0.19.0; docs/references.md §4.9).  A leaf of the library: plan.c
 * validates with it, comm.c lays the groups out with it, search.c rejects with it.
 */
#include "comm.h"

/* parallel.placement's tokens innermost first (calc_placement_parse): tp, cp, pp, dp and
 * Megatron-Core's optional ep, as two characters each and '-' between them.  Plain
 * character tests, no string calls: the planner evaluates this millions of times. */
int calc_placement_parse(const char *s, int order[CALC_DIM_N + 1])
{
	int seen = 0, n = 0;

	if (!s)
		return -1;
	while (n < CALC_DIM_N + 1 && s[0] && s[1]) {
		int d = s[0] == 't' && s[1] == 'p' ? CALC_DIM_TP
		      : s[0] == 'c' && s[1] == 'p' ? CALC_DIM_CP
		      : s[0] == 'p' && s[1] == 'p' ? CALC_DIM_PP
		      : s[0] == 'd' && s[1] == 'p' ? CALC_DIM_DP
		      : s[0] == 'e' && s[1] == 'p' ? CALC_PLACE_EP : -1;
		if (d < 0 || (seen & (1 << d)))
			return -1;
		seen |= 1 << d;
		order[n++] = d;
		s += 2;
		if (!*s)
			break;
		if (*s != '-' || !s[1])
			return -1;
		s++;
	}
	if (*s || (seen & ((1 << CALC_DIM_N) - 1)) != (1 << CALC_DIM_N) - 1)
		return -1;
	return n;
}

int calc_placement_pp_agrees(const char *placement, int tp, int cp, int dp, int pp, int ep, int etp)
{
	int order[CALC_DIM_N + 1];
	if (pp <= 1)
		return 1;
	return calc_placement_pp_agrees_in(order, calc_placement_parse(placement, order), tp, cp, dp, pp, ep, etp);
}

int calc_placement_pp_agrees_in(const int *order, int n, int tp, int cp, int dp, int pp, int ep, int etp)
{
	long dense = 1, expert = 1;
	long edp = (long)etp * ep > 0 ? (long)tp * cp * dp / ((long)etp * ep) : 1;

	if (pp <= 1 || n != CALC_DIM_N + 1)
		return 1;
	for (int i = 0; i < CALC_DIM_N + 1 && order[i] != CALC_DIM_PP; i++) {
		dense *= order[i] == CALC_DIM_TP ? tp : order[i] == CALC_DIM_CP ? cp : order[i] == CALC_DIM_DP ? dp : 1;
		expert *= order[i] == CALC_DIM_TP ? etp : order[i] == CALC_PLACE_EP ? ep : order[i] == CALC_DIM_DP ? edp : 1;
	}
	return dense == expert;
}
