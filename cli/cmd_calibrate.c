/*
 * cmd_calibrate.c -- `trainplan calibrate`: efficiency keys fitted to measured runs
 * (calc/calibrate.c), with each value's uncertainty, every run's error and the error
 * on the runs kept out of the fit.
 *
 *   trainplan calibrate --measurements FILE.csv | --megatron-log FILE [--skip-iterations N]
 *                       --fit KEY[:LO:HI][,KEY...] [--holdout RULE] [--write-stack FILE]
 *                       [--plan FILE] [--set KEY=VALUE]... [--format text|csv|json|md|tsv]
 *
 * Every run starts from the plan (--plan, --set), then takes its row's keys.  JSON is
 * the envelope of cli.h whose data is {"fitted": {KEY: value}, "uncertainty": {KEY:
 * sigma}, errors, "rows": [...]}.  Two tables, calibration and calibration-runs: CSV
 * and TSV print one per stream, the first unless --table names the other.
 * --write-stack writes the fitted values as a plan fragment that a plan includes.
 * A fitted value at a bound of its range gets a note on standard error (the bound, not
 * the runs, set it); peak memory is compared with the prediction and its error printed
 * apart, never part of the fit.  --skip-iterations N (default CALC_CALIB_SKIP_DEFAULT,
 * 10) leaves out the log lines that average any of the first N iterations.
 */
#include "cli.h"
#include "../calc/calibrate.h"
#include "../calc/files.h"
#include "../calc/output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fitted values as a plan fragment: one [section] per key's section. */
static int write_stack(const char *path, const char *src, const struct calc_calib_fit *fit, struct calc_diag *d)
{
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);
	struct calc_output o;
	int rc;
	char shown[CALC_PATH_MAX * 4];
	/* the file name in a comment: a newline in it would start a plan line */
	fprintf(m, "# efficiency keys fitted by trainplan calibrate to %s\n", calc_text_shown(shown, sizeof shown, src));
	for (int i = 0; i < fit->nkeys; i++) {
		const char *dot = strchr(fit->keys[i].name, '.');
		int prev = i > 0 && !strncmp(fit->keys[i - 1].name, fit->keys[i].name, (size_t)(dot - fit->keys[i].name) + 1);
		if (!prev)
			fprintf(m, "[%.*s]\n", (int)(dot - fit->keys[i].name), fit->keys[i].name);
		fprintf(m, "%s = %.6g\n", dot + 1, fit->keys[i].value);
	}
	fclose(m);
	o.path = path;
	o.data = out;
	o.len = len;
	rc = calc_output_write(&o, 1, d);
	free(out);
	return rc;
}

/* The envelope (cli.h): data holds the fitted values and their uncertainty by key,
 * the errors, and each run with METRIC_measured, METRIC_predicted and METRIC_error
 * for every metric it has (SI units: TFLOP/s written as FLOP/s). */
static int print_json(const struct calc_plan *plan, const struct calc_calib_data *data,
                      const struct calc_calib_fit *fit, const char *rule)
{
	static const char *const units[CALC_CAL_NMETRICS] = {"s", "tokens/s", "FLOP/s", "FLOP/s", "B"};
	static const double scale[CALC_CAL_NMETRICS] = {1, 1, 1e12, 1e12, 1};
	struct cli_json j;
	json_t *o = json_object(), *fitted = json_object(), *sigma = json_object(), *rows = json_array();
	cli_json_begin(&j, "calibrate", plan);
	for (int i = 0; i < fit->nkeys; i++) {
		cli_json_num(&j, fitted, fit->keys[i].name, fit->keys[i].value, "1");
		cli_json_num(&j, sigma, fit->keys[i].name, fit->keys[i].sigma, "1");
	}
	json_object_set_new(o, "fitted", fitted);
	json_object_set_new(o, "uncertainty", sigma);
	json_object_set_new(o, "holdout", json_string(rule));
	cli_json_num(&j, o, "fitted_rows", fit->nin, "1");
	cli_json_num(&j, o, "heldout_rows", fit->nout, "1");
	cli_json_num(&j, o, "in_sample_mean_abs_error", fit->in_mae, "1");
	if (fit->nmem) { /* compared, never fitted */
		cli_json_num(&j, o, "peak_memory_mean_abs_error", fit->mem_mae, "1");
		cli_json_num(&j, o, "peak_memory_rows", fit->nmem, "1");
	}
	{
		json_t *ab = json_object();
		for (int i = 0; i < fit->nkeys; i++)
			if (fit->keys[i].at_bound)
				json_object_set_new(ab, fit->keys[i].name,
				                    json_string(fit->keys[i].at_bound < 0 ? "low" : "high"));
		json_object_set_new(o, "at_bound", ab);
	}
	cli_json_num(&j, o, "heldout_mean_abs_error", fit->out_mae, "1");
	if (fit->folds) {
		cli_json_num(&j, o, "cross_validated_mean_abs_error", fit->cv_mae, "1");
		cli_json_num(&j, o, "folds", fit->folds, "1");
	}
	for (int i = 0; i < data->nrows; i++) {
		const struct calc_calib_row *r = &data->rows[i];
		json_t *row = json_object();
		json_object_set_new(row, "name", json_string(r->label));
		json_object_set_new(row, "role", json_string(r->holdout ? "held out" : "fitted"));
		for (int m = 0; m < CALC_CAL_NMETRICS; m++) {
			char key[96];
			const char *name = calc_calib_metric_name(m);
			if (!r->has[m])
				continue;
			snprintf(key, sizeof key, "%s_measured", name);
			cli_json_num(&j, row, key, r->measured[m] * scale[m], units[m]);
			snprintf(key, sizeof key, "%s_predicted", name);
			cli_json_num(&j, row, key, r->predicted[m] * scale[m], units[m]);
			snprintf(key, sizeof key, "%s_error", name);
			cli_json_num(&j, row, key, r->predicted[m] / r->measured[m] - 1, "1");
			if (fit->folds && !r->holdout) {
				snprintf(key, sizeof key, "%s_cross_validated_error", name);
				cli_json_num(&j, row, key, r->cv_predicted[m] / r->measured[m] - 1, "1");
			}
		}
		json_array_append_new(rows, row);
	}
	json_object_set_new(o, "rows", rows);
	return cli_json_end(&j, o, stdout);
}

int cmd_calibrate(int argc, char **argv)
{
	struct cli_opts o;
	struct calc_diag d = {0};
	struct calc_calib_data data;
	struct calc_calib_fit fit;
	const char *meas = NULL, *log = NULL, *keys = NULL, *rule = "every:3", *stack = NULL, *v, *table = NULL;
	char *text, *end;
	long skip = CALC_CALIB_SKIP_DEFAULT;
	int rc, skip_given = 0;

	memset(&data, 0, sizeof data);
	memset(&fit, 0, sizeof fit);
	if ((rc = cli_parse(argc, argv, &o)) != 0)
		return rc;
	for (int i = 0; i < o.nrest; i++) {
		const char *val, *opt = cli_next("calibrate", &o, &i, &val);
		if (!opt)
			return 2;
		if (cli_is(opt, "--measurements") && (v = val))
			meas = v;
		else if (cli_is(opt, "--megatron-log") && (v = val))
			log = v;
		else if (cli_is(opt, "--skip-iterations") && (v = val)) {
			errno = 0;
			skip = strtol(v, &end, 10);
			if (!*v || *end || errno || skip < 0 || skip > 1000000000)
				return cli_error("calibrate: --skip-iterations %s: allowed is a whole number of iterations, "
				                 "0 to 1000000000", v);
			skip_given = 1;
		} else if (cli_is(opt, "--fit") && (v = val))
			keys = v;
		else if (cli_is(opt, "--holdout") && (v = val))
			rule = v;
		else if (cli_is(opt, "--write-stack") && (v = val))
			stack = v;
		else if (cli_is(opt, "--table") && (v = val)) {
			if (cli_value_ok("calibrate", "--table", v))
				return 2;
			table = v;
		} else if (!*opt)
			return cli_extra("calibrate", val);
		else
			return cli_unhandled("calibrate", opt);
	}
	if (!meas == !log)
		return cli_error("calibrate: name the runs with --measurements FILE.csv or --megatron-log FILE");
	if (skip_given && !log)
		return cli_error("calibrate: --skip-iterations applies to --megatron-log; a measurements file gives "
		                 "one row per run, already measured past its warm-up");
	if (!keys)
		return cli_error("calibrate: name the keys to fit with --fit KEY[,KEY...]");
	if (calc_calib_parse_keys(keys, &fit, &d) < 0)
		return cli_fail(&d);
	if (!(text = calc_calib_read_file(meas ? meas : log, meas ? "measurements file" : "training log", &d)))
		return cli_fail(&d);
	rc = meas ? calc_calib_read_csv(meas, text, &data, &d) : calc_calib_read_megatron_log(log, text, NULL, 0, skip, &data, &d);
	free(text);
	if (rc < 0 || calc_calib_holdout(&data, rule, &fit, &d) < 0 ||
	    calc_calibrate(o.plan, o.sets, o.nsets, &data, &fit, &d) < 0) {
		calc_calib_data_free(&data);
		return cli_fail(&d);
	}
	/* a value on its bound was stopped there, not chosen by the runs: its uncertainty and
	 * the fit's errors describe the bound */
	for (int i = 0; i < fit.nkeys; i++)
		if (fit.keys[i].at_bound)
			fprintf(stderr, "trainplan: note: calibrate: %s = %.4g sits at its %s bound %.4g: the runs ask for a "
			        "value %s it, so the bound, not the runs, sets it (widen it with --fit %s:LO:HI where the "
			        "key's meaning allows, or look for a cost the model leaves out)\n",
			        fit.keys[i].name, fit.keys[i].value, fit.keys[i].at_bound < 0 ? "lower" : "upper",
			        fit.keys[i].at_bound < 0 ? fit.keys[i].lo : fit.keys[i].hi,
			        fit.keys[i].at_bound < 0 ? "below" : "above", fit.keys[i].name);
	if (stack && write_stack(stack, meas ? meas : log, &fit, &d) < 0) {
		calc_calib_data_free(&data);
		return cli_fail(&d);
	}
	if (!table && (o.format == CALC_F_CSV || o.format == CALC_F_TSV))
		table = "calibration"; /* one table per stream */
	if (o.format == CALC_F_JSON) {
		/* each run is a plan of its own: "plan": null */
		if ((rc = print_json(NULL, &data, &fit, rule))) {
			calc_calib_data_free(&data);
			return rc;
		}
	} else {
		struct calc_table t;
		int cn, cv, cs, clo, chi, cr, crole, cm, cme, cpr, ce, ccv = -1;
		calc_table_init(&t, "calibration", "Fitted efficiency keys");
		cn = calc_table_col(&t, "key", "", CALC_D_TEXT, 0);
		cv = calc_table_col(&t, "value", "", CALC_D_NUM, 4);
		cs = calc_table_col(&t, "uncertainty", "", CALC_D_NUM, 2);
		clo = calc_table_col(&t, "low", "", CALC_D_NUM, 4);
		chi = calc_table_col(&t, "high", "", CALC_D_NUM, 4);
		for (int i = 0; i < fit.nkeys; i++) {
			int row = calc_table_row(&t);
			calc_table_str(&t, row, cn, fit.keys[i].name);
			calc_table_num(&t, row, cv, fit.keys[i].value);
			calc_table_num(&t, row, cs, fit.keys[i].sigma);
			calc_table_num(&t, row, clo, fit.keys[i].lo);
			calc_table_num(&t, row, chi, fit.keys[i].hi);
		}
		if (!table || !strcmp(table, "calibration"))
			calc_table_write(&t, o.format, stdout);
		calc_table_free(&t);
		if (!table && o.format == CALC_F_TEXT)
			printf("\n");
		calc_table_init(&t, "calibration-runs", "Every measured run with the fitted values");
		cr = calc_table_col(&t, "run", "", CALC_D_TEXT, 0);
		crole = calc_table_col(&t, "role", "", CALC_D_TEXT, 0);
		cm = calc_table_col(&t, "metric", "", CALC_D_TEXT, 0);
		cme = calc_table_col(&t, "measured", "", CALC_D_NUM, 5);
		cpr = calc_table_col(&t, "predicted", "", CALC_D_NUM, 5);
		ce = calc_table_col(&t, "error", "1", CALC_D_PCT, 1);
		if (fit.folds)
			ccv = calc_table_col(&t, "cross-validated error", "1", CALC_D_PCT, 1);
		for (int i = 0; i < data.nrows; i++) {
			const struct calc_calib_row *r = &data.rows[i];
			for (int m = 0; m < CALC_CAL_NMETRICS; m++) {
				int row;
				if (!r->has[m])
					continue;
				row = calc_table_row(&t);
				calc_table_str(&t, row, cr, r->label);
				/* peak memory is compared, never fitted */
				calc_table_str(&t, row, crole, r->holdout ? "held out" : m == CALC_CAL_PEAK_MEMORY ? "compared" : "fitted");
				calc_table_str(&t, row, cm, calc_calib_metric_name(m));
				calc_table_num(&t, row, cme, r->measured[m]);
				calc_table_num(&t, row, cpr, r->predicted[m]);
				calc_table_num(&t, row, ce, r->predicted[m] / r->measured[m] - 1);
				if (ccv >= 0)
					calc_table_num(&t, row, ccv, r->cv_predicted[m] / r->measured[m] - 1);
			}
		}
		if (!table || !strcmp(table, "calibration-runs"))
			calc_table_write(&t, o.format, stdout);
		calc_table_free(&t);
		if (o.format == CALC_F_TEXT) {
			/* who chose the held-out runs: the CSV's holdout column where a row gives it,
			 * the --holdout rule for the others */
			int given = 0;
			for (int i = 0; i < data.nrows; i++)
				given += data.rows[i].holdout_given;
			printf("\nfitted on %d run%s, %d held out (", fit.nin, fit.nin == 1 ? "" : "s", fit.nout);
			if (given == data.nrows)
				printf("the holdout column");
			else if (given)
				printf("the holdout column, --holdout %s for the other rows", rule);
			else
				printf("--holdout %s", rule);
			printf("); mean absolute error %.1f%% in sample, ", 100 * fit.in_mae);
			if (fit.nout)
				printf("%.1f%% held out", 100 * fit.out_mae);
			else
				printf("none held out");
			if (fit.folds)
				printf(", %.1f%% cross-validated over %d folds", 100 * fit.cv_mae, fit.folds);
			printf("\n");
			if (fit.nmem)
				printf("peak memory, compared and not fitted: mean absolute error %.1f%% over %d run%s\n",
				       100 * fit.mem_mae, fit.nmem, fit.nmem == 1 ? "" : "s");
		}
	}
	calc_calib_data_free(&data);
	calc_diag_free(&d);
	return 0;
}
