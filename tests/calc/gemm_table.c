/*
 * tests/calc/gemm_table.c -- GEMM efficiency by shape (calc/gemm_table.c,
 * efficiency.gemm_shape = table, docs/references.md §5.10).
 *
 * Reference values: XLA's measured sm_90 matmul table, tensorflow/tensorflow
 * third_party/xla/xla/service/gpu/model/matmul_interpolator_data.h at commit
 * 372d578bb861cc5804e56d37d93aec931a59762c, bf16 x bf16 -> bf16 rates [TFLOP/s]:
 * b 1 1024^3 236.30, b 1 2048 x 1024 x 1024 373.35, b 1 2048^3 631.98, b 1 4096^3 783.33,
 * b 4 4096 x 2048 x 4096 808.70 (the table's largest).  The quantization divided out of each
 * point is worked by hand from 128 x 128 tiles on the H100 SXM's 132 SMs:
 *   1024 x 1024:  64 tiles, under one wave: share 1
 *   2048 x 1024: 128 tiles, under one wave: share 1
 *   2048 x 2048: 256 tiles, 2 waves = 264 slots: share 256/264
 *   4096 x 4096: 1024 tiles, 8 waves = 1056 slots: share 1024/1056
 *   16384 x 2048 (b 4 of m 4096): 2048 tiles, 16 waves = 2112 slots: share 2048/2112
 * so the largest adjusted rate is 808.70 x 2112/2048 = 833.97 TFLOP/s.
 */
#include "testutil.h"
#include "step.h"

#define TOP (808.70 * 2112.0 / 2048.0)

/* S at grid points: the table's rate over the largest, quantization divided out. */
static void test_grid_points(void **state)
{
	(void)state;
	assert_near(calc_gemm_shape_factor(1024, 1024, 1024), 236.30 / TOP, 1e-9);
	assert_near(calc_gemm_shape_factor(2048, 1024, 1024), 373.35 / TOP, 1e-9);
	assert_near(calc_gemm_shape_factor(2048, 2048, 2048), 631.98 * 264 / 256 / TOP, 1e-9);
	assert_near(calc_gemm_shape_factor(4096, 4096, 4096), 783.33 * 1056 / 1024 / TOP, 1e-9);
	assert_near(calc_gemm_shape_factor(16384, 2048, 4096), 1.0, 1e-9);
	/* the stored rate itself, FLOP/s: b 1 2048^3 and b 4 4096 x 2048 x 4096 */
	assert_near(calc_gemm_table_rate(3, 3, 3), 631.98e12, 1e3);
	assert_near(calc_gemm_table_rate(6, 3, 4), 808.70e12, 1e3);
	assert_true(calc_gemm_table_rate(7, 0, 0) == 0);
	/* the wave share by hand (above) */
	assert_near(calc_gemm_wave_share(2048, 2048, 132), 256.0 / 264, 1e-15);
	assert_near(calc_gemm_wave_share(1000, 1000, 132), 1e6 / (64 * 128.0 * 128), 1e-15); /* 8 x 8 partial tiles */
	assert_near(calc_gemm_wave_share(2048, 2048, 0), 1, 0);
}

/* Between two grid points S lies between them, and at the log2 midpoint it is their
 * mean (linear in log2 M): M = 1024 sqrt 2 between 1024 and 2048 rows. */
static void test_interpolation(void **state)
{
	double lo = 236.30 / TOP, hi = 373.35 / TOP, mid = calc_gemm_shape_factor(1024 * sqrt(2.0), 1024, 1024);
	(void)state;
	assert_true(mid > lo && mid < hi);
	assert_near(mid, (lo + hi) / 2, 1e-9);
	/* a quarter of the way in log2 K between 1024 and 2048 at M = N = 2048: table 493.90
	 * (2048 x 2048 x 1024) and 631.98 (2048^3), both with the share 256/264 */
	assert_near(calc_gemm_shape_factor(2048, 2048, 1024 * pow(2, 0.25)),
	            (0.75 * 493.90 + 0.25 * 631.98) * 264 / 256 / TOP, 1e-9);
}

/* Monotone where the table is: along K at M = N = 2048 (213.04, 345.48, 493.90, 631.98,
 * 737.97) and along M at N = K = 1024 (72.47, 138.65, 236.30, 373.35, 488.06, then b 2
 * 598.18 and b 4 673.84 at m 4096), sampled at eighths of an octave. */
static void test_monotone(void **state)
{
	double prev = 0;
	(void)state;
	for (double e = 8; e <= 12.001; e += 0.125) {
		double s = calc_gemm_shape_factor(2048, 2048, pow(2, e));
		assert_true(s >= prev);
		prev = s;
	}
	prev = 0;
	for (double e = 8; e <= 14.001; e += 0.125) {
		double s = calc_gemm_shape_factor(pow(2, e), 1024, 1024);
		assert_true(s >= prev);
		prev = s;
	}
	assert_true(prev > 0 && prev <= 1);
}

/* Beyond the grid the edge: wider than 4,096 as 4,096, fewer rows than 256 as 256, more
 * rows than 16,384 as 16,384. */
static void test_clamped(void **state)
{
	(void)state;
	assert_near(calc_gemm_shape_factor(4096, 8192, 4096), calc_gemm_shape_factor(4096, 4096, 4096), 1e-15);
	assert_near(calc_gemm_shape_factor(4096, 4096, 16384), calc_gemm_shape_factor(4096, 4096, 4096), 1e-15);
	assert_near(calc_gemm_shape_factor(100, 1024, 1024), calc_gemm_shape_factor(256, 1024, 1024), 1e-15);
	assert_near(calc_gemm_shape_factor(65536, 2048, 4096), 1.0, 1e-9);
	assert_true(calc_gemm_table_covers("h100-sxm-80g") && calc_gemm_table_covers("h200-141g") &&
	            calc_gemm_table_covers("h800-80g") && !calc_gemm_table_covers("a100-80g") &&
	            !calc_gemm_table_covers("b200"));
}

/* The factor is applied: GEMM time per FLOP of one layer of a 2,048-wide model against an
 * 8,192-wide one (f = 4h, s = 4,096, b = 1, t = 1, H100; FLOPs 2 T (4 h^2 + 2 h f)).
 * Without the table both pay only the tile and wave quantization, within 2% of each
 * other.  With it each narrow GEMM is (M, N, K) = (4096, >= 4096, 2048) or a permutation
 * of it, e.g. QKV (4096, 6144, 2048) with N clamped to 4,096: S = 738.74 x 1056/1024,
 * its dgrad (4096, 2048, 6144) 758.43 x 528/512 and its wgrad (2048, 6144, 4096) 753.64 x
 * 528/512, each over 833.97: 0.913, 0.938, 0.932, a mean slowdown (1/0.913 + 1/0.938 +
 * 1/0.932) / 3 = 1.078; the wide layer (every dimension at or past 4,096) at most 3%. */
static void test_applied(void **state)
{
	const char *nar[] = {"model.hidden=2048", "model.heads=16", "model.kv_heads=16", "model.ffn_hidden=8192", "training.seq_len=4096",
	                     "training.micro_batch=1", "parallel.tp=1", "parallel.pp=1", "parallel.dp=0",
	                     "efficiency.gemm_shape=table"};
	const char *wid[] = {"model.hidden=8192", "model.heads=64", "model.kv_heads=64", "model.ffn_hidden=32768", "training.seq_len=4096",
	                     "training.micro_batch=1", "parallel.tp=1", "parallel.pp=1", "parallel.dp=0",
	                     "efficiency.gemm_shape=table"};
	struct calc_plan p;
	struct calc_comm c;
	struct calc_layer_time lt;
	double per[2][2]; /* [narrow, wide][none, table]: GEMM seconds per FLOP */
	for (int w = 0; w < 2; w++)
		for (int t = 0; t < 2; t++) {
			double h = w ? 8192 : 2048, fl = 2 * 4096 * (4 * h * h + 2 * h * 4 * h);
			load_plan(&p, w ? wid : nar, t ? 10 : 9);
			calc_comm(&p, &c);
			calc_layer_time(&p, &c, &lt);
			per[w][t] = lt.gemm / fl;
		}
	assert_true(per[0][1] > 1.04 * per[1][1]); /* narrow slower per FLOP with the table */
	assert_true(per[0][0] < 1.02 * per[1][0]); /* and not without it */
	assert_true(per[1][1] <= 1.03 * per[1][0]); /* wide GEMMs barely move */
	/* the narrow layer's slowdown, about 1.078 by hand (above) */
	assert_true(per[0][1] > 1.06 * per[0][0] && per[0][1] < 1.10 * per[0][0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_grid_points),
	    cmocka_unit_test(test_interpolation),
	    cmocka_unit_test(test_monotone),
	    cmocka_unit_test(test_clamped),
	    cmocka_unit_test(test_applied),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
