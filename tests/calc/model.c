/*
 * tests/calc/model.c -- parameter counts against published figures.
 */
#include "testutil.h"

#include <string.h>

/* Narayanan et al. 2021 Table 1: every row's parameter count (billions, one
 * decimal) must come out of the presets.  The expected value of each row is also
 * recomputed here with Eq. (2), P = 12lh^2 (1 + 13/(12h) + (V + s)/(12lh)), and the
 * library may differ from Eq. (2) only by the final LayerNorm (2h) it adds. */
static void test_nar21_table1(void **state)
{
	static const struct {
		const char *preset;
		double billions; /* Table 1, "Number of parameters (billion)" */
		int l, h;
	} rows[] = {
		{"nar21-1.7b", 1.7, 24, 2304},      {"nar21-3.6b", 3.6, 30, 3072},
		{"nar21-7.5b", 7.5, 36, 4096},      {"nar21-18.4b", 18.4, 40, 6144},
		{"nar21-39.1b", 39.1, 48, 8192},    {"nar21-76.1b", 76.1, 60, 10240},
		{"nar21-145.6b", 145.6, 80, 12288}, {"nar21-310.1b", 310.1, 96, 16384},
		{"nar21-529.6b", 529.6, 105, 20480}, {"nar21-1t", 1008.0, 128, 25600},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct calc_model *m = calc_preset_model(rows[i].preset);
		struct calc_params p;
		double l = rows[i].l, h = rows[i].h, V = 51200, s = 2048;
		double eq2 = 12 * l * h * h * (1 + 13 / (12 * h) + (V + s) / (12 * l * h));
		assert_non_null(m);
		calc_model_params(m, &p);
		assert_near(p.total, eq2 + 2 * h, 1e-12);
		assert_near(round(p.total / 1e8) / 10, rows[i].billions, 1e-9);
	}
}

/* GQA + SwiGLU + untied embeddings against the published totals of the released
 * checkpoints (sum of tensor sizes in the Hugging Face safetensors index):
 * Llama-2-70B 68,976,648,192; Llama-3-8B 8,030,261,248.  Hand check for Llama-2-70B:
 * per layer Q,O 2*8192*8192 + K,V 2*8192*1024 + MLP 3*8192*28672 + norms 2*8192
 * = 855,654,400; x80 + 2*32000*8192 + 8192 = 68,976,648,192. */
static void test_llama_totals(void **state)
{
	struct calc_params p;
	calc_model_params(calc_preset_model("llama2-70b"), &p);
	assert_near(p.layer, 855654400.0, 0);
	assert_near(p.total, 68976648192.0, 0);
	calc_model_params(calc_preset_model("llama3-8b"), &p);
	assert_near(p.total, 8030261248.0, 0);
}

/* The same per-layer count by Megatron-LM's own formula (theoretical_memory_usage.py):
 * self_attn = 2h^2 (1 + g/a) (d a / h); layer = 2h (f * 3/2 + 1) + self_attn (RMSNorm). */
static void test_megatron_formula(void **state)
{
	const char *names[] = {"llama2-7b", "llama2-13b", "llama2-70b", "llama3-8b", "llama3-70b", "llama3.1-405b"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const struct calc_model *m = calc_preset_model(names[i]);
		struct calc_params p;
		double h = m->hidden, a = m->heads, g = m->kv_heads, d = h / a, f = m->ffn_hidden;
		double attn = 2 * h * h * (1 + g / a) * (d * a / h);
		double layer = 2 * h * (f * 1.5 + 1) + attn;
		calc_model_params(m, &p);
		assert_near(p.layer, layer, 1e-12);
		assert_near(p.total, m->layers * layer + h + 2 * h * m->vocab, 1e-12);
	}
}

/* dense-100b: REFERENCES.md §7.4: 12 L h^2 = 100.66e9, V h = 0.52e9, ~101.19e9 total. */
static void test_dense_100b(void **state)
{
	struct calc_params p;
	calc_model_params(calc_preset_model("dense-100b"), &p);
	assert_near(80 * (p.attn + p.mlp), 12.0 * 80 * 10240 * 10240, 1e-12);
	assert_near(p.total / 1e9, 101.19, 1e-4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nar21_table1),
		cmocka_unit_test(test_llama_totals),
		cmocka_unit_test(test_megatron_formula),
		cmocka_unit_test(test_dense_100b),
	};
	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
