/*
 * gemm_table.c -- GEMM efficiency by shape on sm_90 (H100, H200, H800): the small-GEMM
 * falloff of efficiency.gemm_shape = table (docs/references.md §5.10).
 *
 * Source: XLA's measured matmul performance table, tensorflow/tensorflow
 * third_party/xla/xla/service/gpu/model/matmul_interpolator_data.h at commit
 * 372d578bb861cc5804e56d37d93aec931a59762c (kDefaultMatmulPTable, key "sm_90"; the
 * companion hlo_op_profiles_data.h names sm_90 "NVIDIA H100 80GB HBM3"): measured FLOP/s
 * of a batched matmul b x (m x k) x (k x n), bf16 x bf16 -> bf16, for b in {1, 2, 4} and
 * m, n, k in {256, 512, 1024, 2048, 4096}.  Held here, in TFLOP/s rounded to 0.01: all
 * 125 points of b = 1, and the 50 points of b = 2 and 4 at m = 4096, which stand for a
 * GEMM of M = b m = 8,192 and 16,384 rows (a batched matmul of b equal parts cuts the
 * same output tiles as one GEMM of b m rows).  The largest rate of the whole table,
 * 808.70 TFLOP/s (b 4, 4096 x 2048 x 4096), is among them.
 *
 * Caveats of the file: it states neither the kernel library XLA picked for each shape
 * nor the clocks or the timing method; each shape is one measurement on one H100 SXM
 * (a few neighbouring points are not monotone: b 4, m 4096, k 4096 measures 808.70 at
 * n 2048 and 793.13 at n 4096); the rates include each kernel's launch and tail,
 * which is what makes the small shapes slow.  The other sm_90 parts (H100 PCIe, H800,
 * H200, H100 96 GB) take the H100 SXM's ratios: a convention, UNVERIFIED.  FP8 GEMMs
 * take the BF16 ratios (convention, UNVERIFIED: the table has no FP8 entries).
 *
 * The shape factor S(M, N, K) is the table's rate at that shape over its largest rate,
 * trilinear in log2 M, log2 N, log2 K on the grid M in {2^8 .. 2^14}, N and K in
 * {2^8 .. 2^12}; a shape beyond the grid takes the rate of the nearest edge (clamped:
 * a GEMM wider than 4,096 columns is as efficient as one of 4,096, one of fewer than
 * 256 rows as one of 256).  The points include their own tile and wave quantization,
 * which step.c charges separately on the actual shape (calc_gemm_wave_share): each
 * point's rate is divided by the model's quantization of that point on the H100 SXM's
 * 132 SMs before the ratios are formed, so that quantization is counted once.
 */
#include "plan.h"
#include "gemm_table.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#define SM90_SMS 132 /* H100 SXM5: 132 SMs (NVIDIA H100 Tensor Core GPU Architecture, 2022) */

/* XLA sm_90 bf16 rates [TFLOP/s]: [m][n][k], each of m, n, k over 256 .. 4096 (b = 1). */
static const double b1[5][5][5] = {
	/* m = 256 */
	{{6.45, 11.46, 19.46, 31.13, 84.31},      /* n = 256 */
	 {11.46, 21.96, 39.11, 62.37, 91.68},     /* n = 512 */
	 {22.67, 41.84, 72.47, 118.99, 172.29},   /* n = 1024 */
	 {41.84, 78.22, 138.08, 215.78, 285.87},  /* n = 2048 */
	 {78.03, 138.08, 225.20, 324.59, 412.03}}, /* n = 4096 */
	/* m = 512 */
	{{11.46, 21.79, 39.29, 60.13, 91.06},
	 {21.62, 40.72, 71.24, 114.72, 174.54},
	 {43.46, 80.47, 138.65, 216.48, 309.61},
	 {79.32, 143.40, 232.61, 342.39, 430.53},
	 {134.22, 236.30, 373.35, 522.25, 644.12}},
	/* m = 1024 */
	{{21.96, 40.92, 68.34, 113.17, 169.68},
	 {42.91, 82.24, 141.28, 220.03, 298.93},
	 {82.04, 145.57, 236.30, 349.98, 470.11},
	 {139.52, 237.55, 373.35, 524.29, 653.53},
	 {209.72, 338.93, 490.29, 634.22, 738.47}},
	/* m = 2048 */
	{{43.58, 77.31, 135.85, 216.13, 307.49},
	 {83.89, 142.78, 235.88, 347.71, 451.15},
	 {141.58, 238.40, 373.35, 523.27, 653.13},
	 {213.04, 345.48, 493.90, 631.98, 737.97},
	 {299.26, 450.40, 594.21, 715.35, 753.64}},
	/* m = 4096 */
	{{82.24, 137.24, 217.18, 304.69, 376.22},
	 {142.48, 238.82, 370.77, 521.74, 649.96},
	 {216.48, 343.71, 488.06, 631.98, 738.47},
	 {304.00, 447.02, 593.23, 716.07, 758.43},
	 {392.16, 543.12, 677.44, 738.74, 783.33}},
};

/* The same at m = 4096 for b = 2 and b = 4: [b][n][k]. */
static const double bm[2][5][5] = {
	/* b = 2 */
	{{135.03, 234.65, 366.21, 508.40, 584.19},
	 {211.03, 340.65, 487.18, 622.82, 729.69},
	 {301.61, 445.54, 598.18, 713.45, 750.61},
	 {394.47, 546.43, 680.88, 733.30, 783.19},
	 {464.02, 607.67, 692.97, 763.01, 807.67}},
	/* b = 4 */
	{{206.49, 335.13, 477.64, 588.67, 622.46},
	 {298.59, 441.51, 589.00, 703.63, 728.59},
	 {393.31, 542.04, 673.84, 720.52, 777.59},
	 {458.47, 607.49, 687.86, 759.30, 808.70},
	 {503.87, 619.86, 725.51, 764.58, 793.13}},
};

/* The grid's rates with their quantization divided out, over the largest of them:
 * S at the grid points, [M index 0..6 for 2^8 .. 2^14][n][k]. */
static double grid[7][5][5];
static pthread_once_t grid_once = PTHREAD_ONCE_INIT;

double calc_gemm_table_rate(int i, int j, int k)
{
	if (i < 0 || i > 6 || j < 0 || j > 4 || k < 0 || k > 4)
		return 0;
	return (i <= 4 ? b1[i][j][k] : bm[i - 5][j][k]) * 1e12;
}

static void grid_build(void)
{
	double top = 0;
	for (int i = 0; i < 7; i++)
		for (int j = 0; j < 5; j++)
			for (int k = 0; k < 5; k++) {
				double M = 256.0 * (1 << i), N = 256.0 * (1 << j);
				grid[i][j][k] = calc_gemm_table_rate(i, j, k) / calc_gemm_wave_share(M, N, SM90_SMS);
				if (grid[i][j][k] > top)
					top = grid[i][j][k];
			}
	for (int i = 0; i < 7; i++)
		for (int j = 0; j < 5; j++)
			for (int k = 0; k < 5; k++)
				grid[i][j][k] /= top;
}

/* Position of x on the grid 256 * 2^0 .. 256 * 2^last in log2: the lower index and the
 * weight of the upper one, clamped to the edges. */
static void locate(double x, int last, int *lo, double *w)
{
	double t = x > 0 ? log2(x / 256.0) : 0;
	if (t <= 0) {
		*lo = 0, *w = 0;
		return;
	}
	if (t >= last) {
		*lo = last - 1, *w = 1;
		return;
	}
	*lo = (int)floor(t);
	*w = t - *lo;
}

double calc_gemm_shape_factor(double M, double N, double K)
{
	int i, j, k;
	double wi, wj, wk, s = 0;
	pthread_once(&grid_once, grid_build);
	locate(M, 6, &i, &wi);
	locate(N, 4, &j, &wj);
	locate(K, 4, &k, &wk);
	for (int a = 0; a < 2; a++)
		for (int b = 0; b < 2; b++)
			for (int c = 0; c < 2; c++) {
				double w = (a ? wi : 1 - wi) * (b ? wj : 1 - wj) * (c ? wk : 1 - wk);
				if (w > 0)
					s += w * grid[i + a][j + b][k + c];
			}
	return s;
}

int calc_gemm_table_covers(const char *gpu)
{
	/* the sm_90 presets (calc/presets.c): H100 SXM, PCIe and 96 GB, H800, H200 */
	return gpu && (strncmp(gpu, "h100", 4) == 0 || strncmp(gpu, "h800", 4) == 0 || strncmp(gpu, "h200", 4) == 0);
}

int calc_gemm_shape_on(const struct calc_plan *p)
{
	return p->gemm_shape == 1 || (p->gemm_shape == 2 && calc_gemm_table_covers(p->gpu.name));
}
