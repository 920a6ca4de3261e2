/*
 * tests/fuzz/import.c -- libFuzzer harness of `trainplan import` (cli/cmd_import.c).
 *
 * The input is read as a Megatron-LM launch script, a torchtitan TOML and a DeepSpeed
 * JSON in turn, over the built-in plan.  Each import returns -1 with at least one error,
 * each message one line, or 0; the plan an import accepts, written as import writes it,
 * must load (calc_plan_load) without an error: the importer never prints a plan that does
 * not load, and the input never decides the keys of the INI (a quoted newline or
 * '[' in a word once wrote keys of its own).
 */
#include "fuzz.h"
#include "calc.h"
#include "../../cli/cmd_import.c"
#include "../../cli/import_titan_py.c"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct calc_plan *base;
	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (!base) {
		struct calc_diag d = {0};
		base = malloc(sizeof *base);
		FUZZ_CHECK(base && calc_plan_load(base, NULL, NULL, 0, &d) == 0);
		calc_diag_free(&d);
	}
	for (int fw = 0; fw < 4; fw++) {
		static const char *const names[] = {"megatron", "torchtitan", "deepspeed", "nemo"};
		struct imp *im = calloc(1, sizeof *im);
		char *text = malloc(size + 1);
		FUZZ_CHECK(im && text);
		memcpy(text, data, size);
		text[size] = 0;
		im->file = "fuzz";
		im->base = base;
		if (import_text(im, fw, text, size) < 0) {
			FUZZ_CHECK(im->d.nerrors > 0 && im->d.text && im->d.text[im->d.len - 1] == '\n');
			for (int r = 0; r < im->d.nrecs; r++)
				FUZZ_CHECK(!strchr(im->d.recs[r].msg, '\n'));
		} else {
			char *ini = NULL, path[64];
			size_t n = 0;
			FILE *f = open_memstream(&ini, &n);
			struct calc_plan *p = malloc(sizeof *p);
			struct calc_diag d = {0};
			FUZZ_CHECK(f && p);
			write_ini(im, names[fw], NULL, f);
			fclose(f);
			if (fuzz_write_temp((const unsigned char *)ini, n, ".ini", path) == 0) {
				int rc = calc_plan_load(p, path, NULL, 0, &d);
				unlink(path);
				if (rc != 0)
					fprintf(stderr, "%s--\n%s", ini, d.text ? d.text : "");
				FUZZ_CHECK(rc == 0);
			}
			calc_diag_free(&d);
			free(p);
			free(ini);
		}
		for (int i = 0; i < im->n; i++)
			free(im->kv[i].val);
		calc_diag_free(&im->d);
		free(im);
		free(text);
	}
	return 0;
}
