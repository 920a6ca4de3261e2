/*
 * tests/fuzz/hfconfig.c -- libFuzzer harness of calc_model_from_hf (calc/hfconfig.c).
 *
 * The input is a config.json.  The reader returns 0 with a model whose sizes are all
 * positive (so the parameter counts are finite and positive), or -1 with a diagnostic.
 */
#include "fuzz.h"
#include "calc.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char path[64];
	struct calc_model m;
	struct calc_diag d = {0};
	if (size > FUZZ_MAX_INPUT || fuzz_write_temp(data, size, ".json", path) < 0)
		return 0;
	int rc = calc_model_from_hf(&m, path, &d);
	unlink(path);
	if (rc < 0) {
		FUZZ_CHECK(d.nerrors > 0 && d.text && d.text[d.len - 1] == '\n');
	} else {
		struct calc_params p;
		FUZZ_CHECK(m.layers > 0 && m.hidden > 0 && m.heads > 0 && m.kv_heads > 0 && m.vocab > 0);
		FUZZ_CHECK(m.ffn_hidden > 0 && m.head_dim >= 0 && m.max_pos >= 0);
		calc_model_params(&m, &p);
		FUZZ_CHECK(isfinite(p.total) && p.total > 0);
	}
	calc_diag_free(&d);
	return 0;
}
