/*
 * tests/fuzz/calibrate.c -- libFuzzer harness of `trainplan calibrate`'s inputs
 * (calc/calibrate.c): the measurements file, the --fit keys, the --holdout rule and a
 * Megatron-LM log.
 *
 * The input is a measurements CSV.  A first line "#!KEYS RULE" (a CSV comment) gives
 * --fit and --holdout; without it they are efficiency.gemm and every:3.  The file goes
 * through calc_calib_read_file (the size and text checks), calc_calib_read_csv, the keys
 * and the rule, and, for at most 8 runs (a fit loads each run's plan many times), the fit.
 * Every refusal is diagnostics "FILE:LINE: error: ..." ending in a newline; what is
 * accepted holds CALC_CALIB_MAX_ROWS runs at most, each with a positive finite measured
 * value; a fit that succeeds has every value inside its bounds and a finite, non-negative
 * uncertainty.  The same text read as a Megatron-LM log gives one run or a refusal.
 */
#include "fuzz.h"
#include "calibrate.h"

static void check_diag(const struct calc_diag *d)
{
	FUZZ_CHECK(d->nerrors > 0 && d->text && d->len > 0 && d->text[d->len - 1] == '\n');
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char path[64], keys[256] = "efficiency.gemm", rule[64] = "every:3";
	struct calc_diag d = {0};
	struct calc_calib_data cal;
	struct calc_calib_fit fit;
	char *text;
	int rc;

	if (size > FUZZ_MAX_INPUT || fuzz_write_temp(data, size, ".csv", path) < 0)
		return 0;
	text = calc_calib_read_file(path, "measurements file", &d);
	unlink(path);
	if (!text) {
		check_diag(&d);
		calc_diag_free(&d);
		return 0;
	}
	FUZZ_CHECK(strlen(text) == size); /* no NUL byte passed the reader */
	if (!strncmp(text, "#!", 2)) {
		char line[320];
		size_t len = strcspn(text + 2, "\n");
		if (len > sizeof line - 1)
			len = sizeof line - 1;
		memcpy(line, text + 2, len);
		line[len] = 0;
		char *sp = strchr(line, ' ');
		if (sp) {
			*sp = 0;
			snprintf(rule, sizeof rule, "%s", sp + 1);
		}
		snprintf(keys, sizeof keys, "%s", line);
	}
	memset(&cal, 0, sizeof cal);
	memset(&fit, 0, sizeof fit);
	rc = calc_calib_read_csv(path, text, &cal, &d);
	if (rc < 0) {
		check_diag(&d);
	} else {
		FUZZ_CHECK(cal.nrows >= 1 && cal.nrows <= CALC_CALIB_MAX_ROWS);
		for (int i = 0; i < cal.nrows; i++)
			for (int m = 0; m < CALC_CAL_NMETRICS; m++)
				if (cal.rows[i].has[m])
					FUZZ_CHECK(isfinite(cal.rows[i].measured[m]) && cal.rows[i].measured[m] > 0);
		if (calc_calib_parse_keys(keys, &fit, &d) < 0 || calc_calib_holdout(&cal, rule, &fit, &d) < 0) {
			check_diag(&d);
		} else {
			FUZZ_CHECK(fit.nkeys >= 1 && fit.nkeys <= CALC_CALIB_MAX_KEYS);
			for (int k = 0; k < fit.nkeys; k++)
				FUZZ_CHECK(isfinite(fit.keys[k].lo) && isfinite(fit.keys[k].hi) && fit.keys[k].lo < fit.keys[k].hi);
			FUZZ_CHECK((long)(fit.folds + 1) * cal.nrows <= CALC_CALIB_MAX_WORK || !fit.folds);
			if (cal.nrows <= 8) {
				if (calc_calibrate(NULL, NULL, 0, &cal, &fit, &d) < 0) {
					check_diag(&d);
				} else {
					for (int k = 0; k < fit.nkeys; k++) {
						FUZZ_CHECK(fit.keys[k].value >= fit.keys[k].lo && fit.keys[k].value <= fit.keys[k].hi);
						FUZZ_CHECK(isfinite(fit.keys[k].sigma) && fit.keys[k].sigma >= 0);
					}
					FUZZ_CHECK(isfinite(fit.in_mae) && isfinite(fit.out_mae) && isfinite(fit.cv_mae));
				}
			}
		}
	}
	calc_calib_data_free(&cal);
	calc_diag_free(&d);

	/* the same text as a training log */
	memset(&cal, 0, sizeof cal);
	if (calc_calib_read_megatron_log(path, text, NULL, 0, 0, &cal, &d) < 0) {
		check_diag(&d);
	} else {
		FUZZ_CHECK(cal.nrows == 1);
		for (int m = 0; m < CALC_CAL_NMETRICS; m++)
			if (cal.rows[0].has[m])
				FUZZ_CHECK(isfinite(cal.rows[0].measured[m]) && cal.rows[0].measured[m] > 0);
	}
	calc_calib_data_free(&cal);
	calc_diag_free(&d);
	free(text);
	return 0;
}
