/*
 * tests/calc/hf.c -- reading Hugging Face config.json (calc_model_from_hf, calc/hfconfig.c).
 *
 * Expected values are the fields written into each file here (Llama 3 8B's published
 * config.json: hidden 4096, 32 layers, 32 heads, 8 KV heads, FFN 14336, vocab 128256).
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Write 'pad' spaces then 'json' to a fresh temporary file; the path goes to 'path'. */
static void write_temp(char *path, size_t pad, const char *json)
{
	strcpy(path, "/tmp/trainplan-hf-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	for (size_t i = 0; i < pad; i++)
		fputc(' ', f);
	fputs(json, f);
	assert_int_equal(fclose(f), 0);
}

static const char *llama3_8b = "{\"hidden_size\": 4096, \"num_hidden_layers\": 32, \"num_attention_heads\": 32, "
                               "\"num_key_value_heads\": 8, \"intermediate_size\": 14336, "
                               "\"vocab_size\": 128256, \"hidden_act\": \"silu\", \"rms_norm_eps\": 1e-5}";

static void test_reads_fields(void **state)
{
	char path[64];
	struct calc_model m;
	struct calc_diag d = {0};
	(void)state;
	write_temp(path, 100, llama3_8b);
	assert_int_equal(calc_model_from_hf(&m, path, &d), 0);
	unlink(path);
	assert_int_equal(m.hidden, 4096);
	assert_int_equal(m.layers, 32);
	assert_int_equal(m.kv_heads, 8);
	assert_int_equal(m.ffn_hidden, 14336);
	assert_int_equal(m.vocab, 128256);
	assert_int_equal(m.mlp, CALC_MLP_SWIGLU);
	calc_diag_free(&d);
}

/* A file past 1 MiB is not a config.json: reading stops there (an endless stream of
 * whitespace, e.g. hf_config = /dev/stdin fed by `yes ''`, used to hang). */
static void test_too_big(void **state)
{
	char path[64];
	struct calc_model m;
	struct calc_diag d = {0};
	(void)state;
	write_temp(path, (1 << 20) + 1, llama3_8b);
	assert_int_equal(calc_model_from_hf(&m, path, &d), -1);
	unlink(path);
	assert_non_null(d.text);
	assert_non_null(strstr(d.text, "more than 1048576 bytes: not a config.json"));
	calc_diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_fields),
		cmocka_unit_test(test_too_big),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
