/*
 * tests/calc/run.c -- checkpoints, failures, goodput and energy of the run (run.c).
 *
 * Young's interval and Daly's estimate are computed here by hand from their papers'
 * formulas (Young 1974 CACM 17(9); Daly 2006 FGCS 22(3) Eq. 37); the goodput against
 * its limits (no failures; Young's first-order waste sqrt(2 delta / M)); the Llama 3
 * check against the published > 90% effective training time and 419 unexpected
 * interruptions in 54 days on 16,384 GPUs (Dubey et al. 2024 §3.3.4); energy by hand.
 */
#include "testutil.h"
#include "run.h"

#include <string.h>

static void test_young_by_hand(void **state)
{
	/* delta = 1 min, M = 10 h: sqrt(2 x 60 x 36,000) = sqrt(4.32e6) = 2078.46 s */
	assert_near(calc_run_young(60, 36000), 2078.46, 1e-5);
	assert_true(isinf(calc_run_young(60, INFINITY)));
}

static void test_daly_formula(void **state)
{
	/* Daly 2006 Eq. 37 with delta = 60 s, M = 36,000 s: x = delta / 2M = 8.3333e-4,
	 * sqrt(x) / 3 = 0.0096225, x / 9 = 0.0000926, so
	 * tau = 2078.46 x 1.0097151 - 60 = 2038.65 s */
	assert_near(calc_run_daly(60, 36000), 2038.65, 1e-5);
	/* delta >= 2M: the optimum is M itself */
	assert_near(calc_run_daly(100, 40), 40, 1e-12);
	/* Daly's estimate is below Young's for small delta / M by about delta */
	assert_true(calc_run_daly(1, 1e6) < calc_run_young(1, 1e6));
}

static void test_goodput_limits(void **state)
{
	/* no failures: 1 without checkpoints, tau / (tau + delta) with them */
	assert_near(calc_run_goodput(INFINITY, 5, 600, INFINITY), 1, 1e-15);
	assert_near(calc_run_goodput(95, 5, 600, INFINITY), 0.95, 1e-12);
	/* Young's first order: at tau = sqrt(2 delta M) the waste is sqrt(2 delta / M)
	 * (+ R / M); delta = 10 s, M = 1e6 s, R = 0: 1 - sqrt(2e-5) = 0.995528 */
	assert_near(calc_run_goodput(calc_run_young(10, 1e6), 10, 0, 1e6), 1 - sqrt(2e-5), 1e-4);
	/* a plan without failures has goodput 1 and no interruptions */
	{
		const char *s[] = {"run.failure_rate=0"};
		struct calc_plan p;
		struct calc_step st;
		struct calc_run r;
		load_plan(&p, s, 1);
		memset(&st, 0, sizeof st);
		st.time = 10;
		st.run_time = 86400;
		calc_run(&p, &st, 0, 0, &r);
		assert_near(r.goodput, 1, 1e-15);
		assert_near(r.failures, 0, 1e-15);
		assert_near(r.effective_time, 86400, 1e-15);
	}
}

static void test_llama3(void **state)
{
	/* Llama 3 405B on 16,384 H100 (Dubey et al. 2024 §3.3.4): 419 unexpected
	 * interruptions in 54 days, more than 90% effective training time. */
	const char *s[] = {"model.preset=llama3.1-405b", "cluster.preset=dgx-h100-ndr", "cluster.nodes=2048",
	                   "parallel.tp=8", "parallel.pp=1", "parallel.dp=0", "training.seq_len=8192",
	                   "training.global_batch=2048"};
	struct calc_plan p;
	struct calc_step st;
	struct calc_run r;
	load_plan(&p, s, 8);
	memset(&st, 0, sizeof st);
	st.time = 1;
	st.run_time = 54 * 86400;
	calc_run(&p, &st, 0, 0, &r);
	/* job MTBF = 54 d x 86,400 s / 419 = 11,135.5 s (the default rate is rounded to 4 digits) */
	assert_near(r.mtbf, 54 * 86400.0 / 419, 2e-4);
	assert_near(54 * 86400 / r.mtbf, 419, 2e-4);
	assert_true(r.goodput > 0.90);
	assert_true(r.goodput < 1);
	/* checkpoint by hand: 405B x (2 + 4 + 8) bytes (megatron recipe: bf16 weights, fp32
	 * master, two fp32 moments) at min(2048 x 10 GB/s, 2 TB/s) */
	assert_near(r.ckpt_bytes_per_param, 14, 1e-12);
	assert_near(r.ckpt_write, r.ckpt_bytes / 2e12, 1e-12);
	assert_true(r.ckpt_bytes > 14 * 4.0e11 && r.ckpt_bytes < 14 * 4.1e11);
}

static void test_energy_by_hand(void **state)
{
	/* 512 H100 (700 W TDP) on 64 nodes, busy 70% of the step, idle at 15% of TDP:
	 * P_gpu = 700 x (0.15 + 0.85 x 0.7) = 521.5 W; IT = 512 x (521.5 + 50) + 64 x 2500
	 * = 452,608 W; x PUE 1.1 = 497,868.8 W; one day: 4.30159e10 J = 11,949 kWh, at
	 * 0.10 per kWh: 1,194.9; with 0.4 kg/kWh: 4,779.6 kg. */
	const char *s[] = {"run.failure_rate=0", "run.carbon_intensity=0.4"};
	struct calc_plan p;
	struct calc_step st;
	struct calc_run r;
	load_plan(&p, s, 2);
	memset(&st, 0, sizeof st);
	st.time = 10;
	st.compute = 6;
	st.recompute = 1;
	st.run_time = 86400;
	calc_run(&p, &st, 0, 0, &r);
	assert_near(r.gpu_power, 521.5, 1e-12);
	assert_near(r.it_power, 452608, 1e-12);
	assert_near(r.facility_power, 497868.8, 1e-12);
	assert_near(r.energy, 497868.8 * 86400, 1e-12);
	assert_near(r.energy_cost, 1194.885, 1e-6);
	assert_near(r.co2, 4779.54, 1e-6);
	/* cost per million tokens: (512 GPU-days x 24 h x 2.50 + 1194.885) / 300,000 */
	assert_near(r.cost_per_mtokens, (512 * 24 * 2.5 + 1194.885) / 3e5, 1e-6);
}

static void test_async_and_weights_only(void **state)
{
	/* asynchronous: training stops for the shard's copy to host memory at 25 GB/s;
	 * weights only: 2 bytes per parameter (bf16) */
	const char *s[] = {"run.checkpoint_async=yes", "run.checkpoint_optimizer=no"};
	struct calc_plan p;
	struct calc_step st;
	struct calc_run r;
	load_plan(&p, s, 2);
	memset(&st, 0, sizeof st);
	st.time = 10;
	st.run_time = 86400;
	calc_run(&p, &st, 0, 0, &r);
	assert_near(r.ckpt_bytes_per_param, 2, 1e-12);
	assert_near(r.ckpt_blocking, r.ckpt_bytes / 512 / 25e9, 1e-12);
	assert_near(r.ckpt_write, r.ckpt_bytes / 640e9, 1e-12);
	/* the interval follows from the blocking time: Young with delta = copy time */
	assert_near(r.interval_young, sqrt(2 * r.ckpt_blocking * r.mtbf), 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_young_by_hand),  cmocka_unit_test(test_daly_formula),
		cmocka_unit_test(test_goodput_limits), cmocka_unit_test(test_llama3),
		cmocka_unit_test(test_energy_by_hand), cmocka_unit_test(test_async_and_weights_only),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
