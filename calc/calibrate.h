/*
 * calibrate.h -- fitting efficiency keys to measured runs (calibrate.c): the rows of a
 * measurements file, the hold-out rule, the fit and its errors in and out of sample.
 */
#ifndef CALC_CALIBRATE_H
#define CALC_CALIBRATE_H

#include "bounds.h"
#include "diag.h"

#define CALC_CALIB_MAX_KEYS 8   /* keys fitted at once */
#define CALC_CALIB_MAX_SETS 48  /* plan keys of one measured run */
#define CALC_CALIB_MAX_ROWS 1024
#define CALC_CALIB_MAX_WORK 16384 /* (folds + 1) x runs of k-fold and leave-one-out */
#define CALC_CALIB_MAX_BYTES (4 << 20) /* a measurements file or log [B] */

/* What a measured column holds. */
enum calc_calib_metric {
	CALC_CAL_STEP_TIME,   /* step_time: one optimizer step [s] */
	CALC_CAL_TOKENS,      /* tokens_per_s: the whole job [tokens/s] */
	CALC_CAL_TFLOPS,      /* tflops: model TFLOP/s per GPU [10^12 FLOP/s] */
	CALC_CAL_HW_TFLOPS,   /* hw_tflops: hardware TFLOP/s per GPU [10^12 FLOP/s] */
	CALC_CAL_PEAK_MEMORY, /* peak_memory: the worst stage's memory per GPU [bytes] */
	CALC_CAL_NMETRICS
};
/* The column name of a metric ("step_time"). */
const char *calc_calib_metric_name(enum calc_calib_metric m);

/* One measured run. */
struct calc_calib_row {
	int line;                           /* line of the file */
	char label[64];                     /* the "name" column, or "row N" */
	int nsets;
	char *sets[CALC_CALIB_MAX_SETS];    /* "section.key=value", owned */
	int has[CALC_CAL_NMETRICS];         /* 1: measured */
	double measured[CALC_CAL_NMETRICS]; /* in the metric's unit */
	double predicted[CALC_CAL_NMETRICS];/* with the fitted values (in-sample fit) */
	double cv_predicted[CALC_CAL_NMETRICS]; /* by a fit that did not see the row (k-fold,
	                                       leave-one-out); = predicted for held-out rows */
	int holdout;                        /* 1: kept out of the fit */
	int holdout_given;                  /* 1: the file's "holdout" column said so */
	int fold;                           /* k-fold: the fold the row belongs to */
};

struct calc_calib_data {
	char file[CALC_PATH_MAX];
	int nrows;
	struct calc_calib_row *rows;
};

/* One key to fit, with its bounds and the result. */
struct calc_calib_key {
	char name[64];         /* "efficiency.gemm" */
	double lo, hi;         /* bounds of the fit, in the key's unit */
	double value;          /* fitted value */
	double sigma;          /* one standard error (0 when the fit has no spare degree) */
	int at_bound;          /* -1: the value sits at lo, 1: at hi (the bound, not the runs,
	                          set it), 0: inside */
};

struct calc_calib_fit {
	int nkeys;
	struct calc_calib_key keys[CALC_CALIB_MAX_KEYS];
	int folds;             /* 0: one hold-out split; k > 1: k-fold cross-validation */
	int nin, nout;         /* rows in the fit / held out (0 held out under k-fold) */
	double in_mae;         /* mean |predicted / measured - 1| over the fitted rows */
	double out_mae;        /* the same over the held-out rows (0 when none) */
	double cv_mae;         /* k-fold / leave-one-out: the same, each row predicted by a fit
	                          without it (0 when folds = 0) */
	int iterations;        /* Levenberg-Marquardt iterations of the main fit */
	int nmem;              /* runs with a measured peak memory (never part of the fit) */
	double mem_mae;        /* mean |predicted / measured - 1| of their peak memory */
};

/*
 * The contents of a measurements CSV or a training log 'path' ("-": standard input),
 * NUL-terminated: a regular file (calc_file_open) of at most CALC_CALIB_MAX_BYTES that is
 * UTF-8 text without NUL bytes or control characters but tab, CR and LF.  'what' names
 * it in messages ("measurements file").  Returns the text (free it), or NULL with a
 * diagnostic that quotes none of its bytes.
 */
char *calc_calib_read_file(const char *path, const char *what, struct calc_diag *d);
/*
 * Read a measurements CSV: one header line of column names, then one run per line.
 * Columns: step_time, tokens_per_s, tflops, hw_tflops, peak_memory (measured, any
 * subset, empty = not measured); name (a label); holdout (yes/no: overrides the rule);
 * every other column a plan key ("parallel.tp"), an empty cell leaving it unset.
 * Lines starting with '#' and blank lines are skipped.  'text' is the file's contents
 * (NUL-terminated), 'path' its name for messages.  Returns 0, or -1 with diagnostics.
 */
int calc_calib_read_csv(const char *path, const char *text, struct calc_calib_data *out, struct calc_diag *d);
/*
 * Read Megatron-LM training log lines as measurements of one run whose plan keys are
 * 'sets': the iteration-weighted mean of the "iteration I/T | ... elapsed time per
 * iteration (ms): X" lines whose averaging window lies wholly after iteration 'skip'
 * becomes step_time, and the largest "max allocated: X" (MB, 2^20 bytes) peak_memory.
 * Megatron-LM (megatron/training/training.py, training_log, at d98e8a64) prints each
 * line as the mean over the iterations since the previous line, and does not restart
 * its timer after the first logged iteration; so the window of the first two lines is
 * taken to start at iteration 0, and that of a later line after the previous line's
 * iteration.  Iterations are counted as the log numbers them (a resumed run: add the
 * iteration it resumed from).  'skip' = 0 uses every line.  Appends one row.  Returns
 * 0, or -1 when the log holds neither, when every time line falls in the warm-up, or
 * when 'skip' > 0 and a time line has no iteration number.
 */
#define CALC_CALIB_SKIP_DEFAULT 10
int calc_calib_read_megatron_log(const char *path, const char *text, const char *const *sets, int nsets,
                                 long skip, struct calc_calib_data *out, struct calc_diag *d);
void calc_calib_data_free(struct calc_calib_data *data);

/*
 * Parse "KEY[:LO:HI],KEY..." into fit->keys (default bounds 0.05 .. 1, the range of a
 * share).  Returns 0, or -1 with a diagnostic.
 */
int calc_calib_parse_keys(const char *spec, struct calc_calib_fit *fit, struct calc_diag *d);
/*
 * Apply a hold-out rule: "every:N" (the N-th, 2N-th ... rows are held out; the
 * default every:3), "none", "kfold:K" (every row in the fit, and each also predicted by
 * the fit on the other K-1 folds) or "loo" (k-fold with one row per fold).  Rows whose
 * file said holdout keep it.  Returns 0, or -1 on an unknown rule.
 */
int calc_calib_holdout(struct calc_calib_data *data, const char *rule, struct calc_calib_fit *fit,
                       struct calc_diag *d);
/*
 * Fit fit->keys to the measured rows not held out by bounded Levenberg-Marquardt on the
 * relative residuals predicted / measured - 1 (every measured time metric of a row is
 * one residual: the efficiency keys are time keys, so peak memory is predicted and its
 * error reported in mem_mae, never folded into the objective).  Each row's plan is the plan 'file' (NULL = the built-in default) with
 * 'sets', then the row's keys, then the keys being fitted.  Fills the values, their
 * standard errors (s^2 (J^T J)^-1), every row's predictions and the errors.  Returns 0,
 * or -1 with diagnostics (a row whose plan does not load, too few rows).
 */
int calc_calibrate(const char *file, const char *const *sets, int nsets, struct calc_calib_data *data,
                   struct calc_calib_fit *fit, struct calc_diag *d);

#endif
