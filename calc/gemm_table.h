/*
 * gemm_table.h -- public interface of gemm_table.c: the GEMM efficiency by shape on
 * sm_90 (XLA's measured table, docs/references.md §5.10) and the tile and wave
 * quantization that step.c's GEMM times apply.
 */
#ifndef CALC_GEMM_TABLE_H
#define CALC_GEMM_TABLE_H

#include "plan.h"

#include <math.h>

/* GEMM efficiency by shape (gemm_table.c, docs/references.md §5.10). */

/* Share of the tile slots an (M x K) * (K x N) GEMM's output fills on a GPU of 'sms' SMs
 * [0..1]: ceil(M/128) ceil(N/128) tiles of 128 x 128 in waves of 'sms', a partial tile
 * and a partial last wave costing whole ones, no wave term below one wave (NVIDIA Deep
 * Learning Performance Guide, "Matrix Multiplication Background"; the rule of step.c's
 * GEMM times).  1 when sms <= 0 or M, N <= 0. */
static inline double calc_gemm_wave_share(double M, double N, int sms)
{
	/* inline: the op times call it for every GEMM of every leaf the planner times */
	double tile = 128, tiles, slots;
	if (sms <= 0 || M <= 0 || N <= 0)
		return 1;
	tiles = ceil(M / tile) * ceil(N / tile);
	slots = tiles < sms ? tiles : ceil(tiles / sms) * sms;
	return M * N / (slots * tile * tile);
}

/* Shape factor S(M, N, K) of an (M x K) * (K x N) BF16 GEMM on sm_90 [0..1]: XLA's
 * measured rate at that shape, its own quantization divided out, over the table's
 * largest; trilinear in log2 M, N, K, clamped to the grid M 256 .. 16384, N and K
 * 256 .. 4096.  Thread-safe (the grid is built once). */
double calc_gemm_shape_factor(double M, double N, double K);

/* The table's measured rate at grid point (i, j, k): M = 256 * 2^i (i 0..6; i 5 and 6 are
 * b 2 and 4 of m 4096), N = 256 * 2^j, K = 256 * 2^k (j, k 0..4) [FLOP/s]; 0 outside. */
double calc_gemm_table_rate(int i, int j, int k);

/* 1 when the GPU preset 'gpu' (its name) is an sm_90 part the table covers, else 0. */
int calc_gemm_table_covers(const char *gpu);

/* 1 when the plan's GEMMs take the shape factor: efficiency.gemm_shape = table, or auto
 * on a GPU the table covers; else 0. */
int calc_gemm_shape_on(const struct calc_plan *p);

#endif
