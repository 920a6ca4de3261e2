/*
 * calibrate.c -- `trainplan calibrate`: efficiency keys fitted to measured runs.
 *
 * Each measured run is a row of plan keys and measured values (step time, throughput,
 * TFLOP/s per GPU, peak memory).  The named keys are fitted by bounded least squares on
 * the relative residuals predicted / measured - 1 with Levenberg-Marquardt (Marquardt
 * 1963: the damped normal equations (J^T J + lambda diag(J^T J)) delta = -J^T r, the
 * Jacobian by forward differences, each step projected into the bounds), and each
 * value's standard error is the square root of the diagonal of s^2 (J^T J)^-1 with s^2 =
 * SSR / (n - k) (the linearised covariance of nonlinear least squares, Seber and Wild
 * 1989 §2.1).  Part of the rows is held out of the fit (every third by default), or
 * every row is predicted by a fit on the others (k-fold, leave-one-out), so that the
 * error printed next to the in-sample error is out of sample.  Only times are residuals;
 * peak memory is predicted and its error reported apart (docs/references.md §5.6).
 */
#include "calibrate.h"
#include "files.h"
#include "step.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const metric_names[CALC_CAL_NMETRICS] = {"step_time", "tokens_per_s", "tflops", "hw_tflops",
                                                             "peak_memory"};

const char *calc_calib_metric_name(enum calc_calib_metric m)
{
	return m >= 0 && m < CALC_CAL_NMETRICS ? metric_names[m] : "?";
}

/* ---------------------------------------------------------------- reading */

char *calc_calib_read_file(const char *path, const char *what, struct calc_diag *d)
{
	char why[128];
	FILE *f = strcmp(path, "-") ? calc_file_open(path, "rb", why, sizeof why) : stdin;
	char *buf = NULL;
	size_t n = 0, cap = 0, r;
	long bad;
	int nul;
	if (!f) {
		calc_error(d, path, 0, "cannot read the %s: %s", what, why);
		return NULL;
	}
	/* at most one byte past the bound is read: a longer file (or /dev/zero on standard
	 * input) is refused without reading it to its end */
	do {
		size_t room, left = CALC_CALIB_MAX_BYTES + 1 - n;
		if (n + 4096 + 1 > cap)
			buf = xrealloc(buf, cap = 2 * cap + 4096 + 1);
		room = cap - n - 1;
		r = fread(buf + n, 1, room < left ? room : left, f);
		n += r;
	} while (r > 0 && n <= CALC_CALIB_MAX_BYTES);
	if (f != stdin)
		fclose(f);
	buf[n] = 0;
	if (n > CALC_CALIB_MAX_BYTES) {
		free(buf);
		calc_error(d, path, 0, "more than %d bytes: the %s is larger than calibrate reads (at most %d runs)",
		           CALC_CALIB_MAX_BYTES, what, CALC_CALIB_MAX_ROWS);
		return NULL;
	}
	/* text: no NUL byte (the rest of the file would be dropped), UTF-8, no control
	 * character but tab, CR and LF; the bytes of a file that is not text are not quoted */
	bad = calc_text_check(buf, n, &nul);
	for (size_t i = 0; i < (bad < 0 ? n : (size_t)bad); i++) {
		unsigned char c = (unsigned char)buf[i];
		if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7F) {
			bad = (long)i;
			break;
		}
	}
	if (bad >= 0) {
		int line = 1, col = 1;
		for (long i = 0; i < bad; i++)
			if (buf[i] == '\n')
				line++, col = 1;
			else
				col++;
		calc_error(d, path, line, "column %d: byte 0x%02X: the %s is UTF-8 text without NUL bytes or control "
		           "characters", col, (unsigned char)buf[bad], what);
		free(buf);
		return NULL;
	}
	return buf;
}

static struct calc_calib_row *add_row(struct calc_calib_data *o, int line)
{
	struct calc_calib_row *r;
	o->rows = xrealloc(o->rows, (size_t)(o->nrows + 1) * sizeof *o->rows);
	r = &o->rows[o->nrows++];
	memset(r, 0, sizeof *r);
	r->line = line;
	snprintf(r->label, sizeof r->label, "row %d", o->nrows);
	return r;
}

static void trim(char *s)
{
	size_t n = strlen(s), i = 0;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	memmove(s, s + i, n - i + 1);
}

/* Split 'line' (modified) at commas into at most 'max' fields. */
static int split(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;
	for (;;) {
		char *c = strchr(p, ',');
		if (n == max)
			return -1;
		f[n++] = p;
		if (!c)
			break;
		*c = 0;
		p = c + 1;
	}
	for (int i = 0; i < n; i++)
		trim(f[i]);
	return n;
}

int calc_calib_read_csv(const char *path, const char *text, struct calc_calib_data *o, struct calc_diag *d)
{
	char *buf = xstrdup(text), *save = NULL, *ln;
	char *head[CALC_CALIB_MAX_SETS + 8], *cell[CALC_CALIB_MAX_SETS + 8];
	int role[CALC_CALIB_MAX_SETS + 8]; /* metric, -1 plan key, -2 name, -3 holdout */
	int ncol = -1, line = 0, err = 0, nmeas = 0;
	char *hbuf = NULL;

	snprintf(o->file, sizeof o->file, "%s", path);
	for (ln = strtok_r(buf, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
		line++;
		trim(ln);
		if (!*ln || *ln == '#')
			continue;
		if (ncol < 0) {
			hbuf = xstrdup(ln);
			ncol = split(hbuf, head, CALC_CALIB_MAX_SETS + 8);
			if (ncol < 0) {
				err = calc_error(d, path, line, "more than %d columns", CALC_CALIB_MAX_SETS + 8);
				break;
			}
			for (int j = 0; j < ncol; j++) {
				role[j] = -1;
				for (int m = 0; m < CALC_CAL_NMETRICS; m++)
					if (!strcmp(head[j], metric_names[m]))
						role[j] = m, nmeas++;
				if (!strcmp(head[j], "name"))
					role[j] = -2;
				else if (!strcmp(head[j], "holdout"))
					role[j] = -3;
				else if (role[j] == -1 && !*head[j])
					err = calc_error(d, path, line, "column %d has no name", j + 1);
				for (int i = 0; i < j && !err; i++)
					if (!strcmp(head[i], head[j]))
						err = calc_error(d, path, line, "column %d: %s is also column %d (a column is named "
						                 "once)", j + 1, head[j], i + 1);
			}
			if (!nmeas)
				err = calc_error(d, path, line,
				                 "no measured column (step_time, tokens_per_s, tflops, hw_tflops, peak_memory)");
			if (err)
				break;
			continue;
		}
		{
			int n = split(ln, cell, CALC_CALIB_MAX_SETS + 8);
			struct calc_calib_row *r;
			if (n != ncol) {
				err = calc_error(d, path, line, "%d fields, the header has %d", n < 0 ? CALC_CALIB_MAX_SETS + 8 : n,
				                 ncol);
				continue;
			}
			if (o->nrows == CALC_CALIB_MAX_ROWS) {
				err = calc_error(d, path, line, "more than %d measured runs (the most calibrate fits at once)",
				                 CALC_CALIB_MAX_ROWS);
				break;
			}
			r = add_row(o, line);
			for (int j = 0; j < ncol; j++) {
				char *end;
				if (!*cell[j])
					continue;
				if (role[j] >= 0) {
					double v = strtod(cell[j], &end);
					if (*end || !(v > 0) || !isfinite(v)) {
						err = calc_error(d, path, line, "%s = '%s' is not a positive finite number", head[j], cell[j]);
						continue;
					}
					r->has[role[j]] = 1;
					r->measured[role[j]] = v;
				} else if (role[j] == -2) {
					snprintf(r->label, sizeof r->label, "%s", cell[j]);
				} else if (role[j] == -3) {
					r->holdout_given = 1;
					r->holdout = !strcmp(cell[j], "yes") || !strcmp(cell[j], "1") || !strcmp(cell[j], "true");
				} else if (r->nsets < CALC_CALIB_MAX_SETS) {
					size_t len = strlen(head[j]) + strlen(cell[j]) + 2;
					r->sets[r->nsets] = xmalloc(len);
					snprintf(r->sets[r->nsets++], len, "%s=%s", head[j], cell[j]);
				}
			}
		}
	}
	if (!err && ncol < 0)
		err = calc_error(d, path, 0, "no header line");
	free(hbuf);
	free(buf);
	if (!err && o->nrows == 0)
		err = calc_error(d, path, 0, "no measured run");
	return err ? -1 : 0;
}

/* The iteration number I of " iteration I/T" on the line that holds 'at' (the line
 * starts after 'text' or a newline), or -1 when the line gives none before 'at'. */
static long log_iteration(const char *text, const char *at)
{
	const char *b = at, *p;
	while (b > text && b[-1] != '\n')
		b--;
	for (p = b; (p = strstr(p, "iteration")) && p < at; p++) {
		char *end;
		const char *q = p + 9;
		long v;
		while (*q == ' ')
			q++;
		if (*q < '0' || *q > '9')
			continue;
		v = strtol(q, &end, 10);
		if (*end == '/' && v >= 0)
			return v;
	}
	return -1;
}

int calc_calib_read_megatron_log(const char *path, const char *text, const char *const *sets, int nsets,
                                 long skip, struct calc_calib_data *o, struct calc_diag *d)
{
	static const char ktime[] = "elapsed time per iteration (ms):", kmem[] = "max allocated:";
	double sum = 0, peak = 0, n = 0;
	long prev = 0;
	int lines = 0, nl = 1;
	const char *p, *counted = text;
	struct calc_calib_row *r;

	/* Megatron-LM d98e8a64, megatron/training/training.py, training_log: a line's time
	 * is elapsed_time / total_iterations, the mean over the iterations since the timer
	 * was last reset; the first logged iteration is printed "to document initialization
	 * overhead" without a reset (should_reset = not is_first_iteration).  So the mean
	 * over a stretch of lines is weighted by the iterations each line covers. */
	for (p = strstr(text, ktime); p; p = strstr(p + 1, ktime)) {
		double v = strtod(p + sizeof ktime - 1, NULL);
		long it = log_iteration(text, p), start;
		for (; counted < p; counted++)
			nl += *counted == '\n';
		if (it < 0 && skip > 0)
			return calc_error(d, path, nl, "an 'elapsed time per iteration (ms)' without 'iteration N/M' before it: "
			                  "the warm-up iterations cannot be told apart (--skip-iterations 0 uses every line)");
		if (it >= 0 && lines && it <= prev)
			return calc_error(d, path, nl, "iteration %ld after iteration %ld: the log of one run is read, "
			                  "numbered upwards", it, prev);
		start = lines <= 1 ? 0 : prev; /* the window is (start, it] */
		if (v > 0 && isfinite(v) && start >= skip) {
			double w = it > prev ? (double)(it - prev) : 1;
			sum += v * w, n += w;
		}
		if (it >= 0)
			prev = it;
		lines++;
	}
	for (p = strstr(text, kmem); p; p = strstr(p + 1, kmem)) {
		double v = strtod(p + sizeof kmem - 1, NULL);
		if (v > peak && isfinite(v))
			peak = v;
	}
	if (lines && !n && skip > 0)
		return calc_error(d, path, 0, "all %d 'elapsed time per iteration' lines average iterations within the "
		                  "first %ld (the warm-up that --skip-iterations leaves out): log a longer run, or "
		                  "lower --skip-iterations", lines, skip);
	if (!n && !(peak > 0))
		return calc_error(d, path, 0, "no 'elapsed time per iteration (ms)' or 'max allocated' in the log");
	/* 1e400 is read as infinity and left out above; finite times can still add up to it */
	if (!isfinite(sum) || !isfinite(peak * 1048576.0))
		return calc_error(d, path, 0, "the log's times or memory are past the range of a number");
	snprintf(o->file, sizeof o->file, "%s", path);
	r = add_row(o, 0);
	snprintf(r->label, sizeof r->label, "%s", path);
	for (int i = 0; i < nsets && r->nsets < CALC_CALIB_MAX_SETS; i++)
		r->sets[r->nsets++] = xstrdup(sets[i]);
	if (n)
		r->has[CALC_CAL_STEP_TIME] = 1, r->measured[CALC_CAL_STEP_TIME] = sum / n / 1e3;
	if (peak > 0) /* Megatron prints torch.cuda.max_memory_allocated() / 2^20 */
		r->has[CALC_CAL_PEAK_MEMORY] = 1, r->measured[CALC_CAL_PEAK_MEMORY] = peak * 1048576.0;
	return 0;
}

void calc_calib_data_free(struct calc_calib_data *data)
{
	for (int i = 0; i < data->nrows; i++)
		for (int j = 0; j < data->rows[i].nsets; j++)
			free(data->rows[i].sets[j]);
	free(data->rows);
	data->rows = NULL;
	data->nrows = 0;
}

/* ---------------------------------------------------------------- options */

int calc_calib_parse_keys(const char *spec, struct calc_calib_fit *fit, struct calc_diag *d)
{
	char *buf = xstrdup(spec), *save = NULL, *tok;
	int err = 0;

	fit->nkeys = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct calc_calib_key *k;
		char *c = strchr(tok, ':');
		if (fit->nkeys == CALC_CALIB_MAX_KEYS) {
			err = calc_error(d, NULL, 0, "calibrate: at most %d keys are fitted at once", CALC_CALIB_MAX_KEYS);
			break;
		}
		k = &fit->keys[fit->nkeys++];
		memset(k, 0, sizeof *k);
		k->lo = 0.05;
		k->hi = 1;
		if (c) {
			char *end;
			*c++ = 0;
			k->lo = strtod(c, &end);
			if (*end != ':' || (k->hi = strtod(end + 1, &end), *end) || !(k->hi > k->lo)) {
				err = calc_error(d, NULL, 0, "calibrate: '%s': bounds are KEY:LO:HI with LO < HI", tok);
				break;
			}
		}
		if (!strchr(tok, '.') || strlen(tok) >= sizeof k->name) {
			err = calc_error(d, NULL, 0, "calibrate: '%s' is not a plan key (section.key)", tok);
			break;
		}
		if (!isfinite(k->lo) || !isfinite(k->hi)) {
			err = calc_error(d, NULL, 0, "calibrate: '%s': a bound is not a finite number", tok);
			break;
		}
		{
			const struct calc_key_info *ki = NULL;
			const char *dot = strchr(tok, '.');
			for (int i = 0; (ki = calc_plan_key_at(i)); i++)
				if (strlen(ki->section) == (size_t)(dot - tok) && !strncmp(ki->section, tok, (size_t)(dot - tok)) &&
				    !strcmp(ki->key, dot + 1))
					break;
			if (!ki) {
				err = calc_error(d, NULL, 0, "calibrate: '%s' is not a plan key (`trainplan presets keys` lists them)",
				                 tok);
				break;
			}
			/* a least-squares fit moves a number continuously: an int, bool, enum or text key
			 * has no derivative */
			if (strcmp(ki->type, "number") && strcmp(ki->type, "fraction") && strcmp(ki->type, "seconds") &&
			    strcmp(ki->type, "bytes") && strcmp(ki->type, "bytes/s")) {
				err = calc_error(d, NULL, 0, "calibrate: %s is a key of type %s: only number keys are fitted "
				                 "(fraction, number, seconds, bytes, bytes/s)", tok, ki->type);
				break;
			}
		}
		for (int i = 0; i + 1 < fit->nkeys; i++)
			if (!strcmp(fit->keys[i].name, tok)) {
				err = calc_error(d, NULL, 0, "calibrate: --fit names %s twice", tok);
				break;
			}
		if (err)
			break;
		snprintf(k->name, sizeof k->name, "%s", tok);
	}
	free(buf);
	if (!err && !fit->nkeys)
		err = calc_error(d, NULL, 0, "calibrate: --fit names no key");
	return err ? -1 : 0;
}

int calc_calib_holdout(struct calc_calib_data *data, const char *rule, struct calc_calib_fit *fit,
                       struct calc_diag *d)
{
	int every = 0, k = 0;
	long lk = 0;
	char *end;

	if (!rule || !strcmp(rule, "every:3"))
		every = 3;
	else if (!strncmp(rule, "every:", 6) && (every = (int)strtol(rule + 6, &end, 10), !*end) && every >= 2)
		;
	else if (!strcmp(rule, "none"))
		every = 0;
	else if (!strcmp(rule, "loo"))
		k = data->nrows;
	else if (!strncmp(rule, "kfold:", 6) && (lk = strtol(rule + 6, &end, 10), !*end) && lk >= 2)
		k = lk > CALC_CALIB_MAX_WORK ? CALC_CALIB_MAX_WORK + 1 : (int)lk; /* past the bound below */
	else
		return calc_error(d, NULL, 0,
		                  "calibrate: unknown hold-out rule '%s' (every:N with N >= 2, none, kfold:K, loo)", rule);
	/* the work is quadratic under leave-one-out: each of the folds + 1 fits evaluates
	 * every run, so their product is bounded before any fit starts */
	if (k > 1 && ((long)k + 1) * data->nrows > CALC_CALIB_MAX_WORK)
		return calc_error(d, NULL, 0,
		                  "calibrate: --holdout %s: %d runs in each of the folds + 1 fits are more than %d run "
		                  "fits in all (the bound of (folds + 1) x runs): use kfold:K with K <= %d",
		                  rule, data->nrows, CALC_CALIB_MAX_WORK,
		                  CALC_CALIB_MAX_WORK / (data->nrows > 0 ? data->nrows : 1) - 1);
	fit->folds = k > 1 ? k : 0;
	for (int i = 0; i < data->nrows; i++) {
		struct calc_calib_row *r = &data->rows[i];
		r->fold = fit->folds ? i % fit->folds : 0;
		if (!r->holdout_given)
			r->holdout = !fit->folds && every > 0 && (i + 1) % every == 0;
	}
	return 0;
}

/* ---------------------------------------------------------------- fitting */

struct ctx {
	const char *file;
	const char *const *sets;
	int nsets;
	struct calc_calib_data *data;
	const struct calc_calib_fit *fit;
	struct calc_plan *plan;
	struct calc_step *step;
	struct calc_memory *mem;
};

/* Predict every measured metric of row 'r' with the keys at 'x' into 'out'. */
static int predict(struct ctx *c, const struct calc_calib_row *r, const double *x, double *out, struct calc_diag *d)
{
	int n = 0, need_mem = r->has[CALC_CAL_PEAK_MEMORY];
	const char **sets = xmalloc((size_t)(c->nsets + r->nsets + c->fit->nkeys) * sizeof *sets);
	char kv[CALC_CALIB_MAX_KEYS][96];
	int rc;

	for (int i = 0; i < c->nsets; i++)
		sets[n++] = c->sets[i];
	for (int i = 0; i < r->nsets; i++)
		sets[n++] = r->sets[i];
	for (int i = 0; i < c->fit->nkeys; i++) {
		snprintf(kv[i], sizeof kv[i], "%s=%.17g", c->fit->keys[i].name, x[i]);
		sets[n++] = kv[i];
	}
	rc = calc_plan_load(c->plan, c->file, sets, n, d);
	free(sets);
	if (rc < 0)
		return calc_error(d, c->data->file, r->line, "calibrate: %s: the run's plan does not load", r->label);
	if (calc_step(c->plan, c->step, d) < 0)
		return -1;
	out[CALC_CAL_STEP_TIME] = c->step->time;
	out[CALC_CAL_TOKENS] = c->step->tokens_per_s;
	out[CALC_CAL_TFLOPS] = c->step->model_tflops / 1e12;
	out[CALC_CAL_HW_TFLOPS] = c->step->hw_tflops / 1e12;
	out[CALC_CAL_PEAK_MEMORY] = 0;
	if (need_mem) {
		if (calc_memory(c->plan, c->mem, d) < 0)
			return -1;
		out[CALC_CAL_PEAK_MEMORY] = c->mem->st[c->mem->worst].total;
	}
	return 0;
}

/* Residuals of the rows that 'use' selects (use(r) != 0) at 'x'; returns their number,
 * or -1.  'res' may be NULL (count only). */
static int residuals(struct ctx *c, const double *x, int (*use)(const struct calc_calib_row *, int), int arg,
                     double *res, struct calc_diag *d)
{
	int n = 0;
	for (int i = 0; i < c->data->nrows; i++) {
		const struct calc_calib_row *r = &c->data->rows[i];
		double pred[CALC_CAL_NMETRICS];
		if (!use(r, arg))
			continue;
		if (res && predict(c, r, x, pred, d) < 0)
			return -1;
		for (int m = 0; m < CALC_CAL_NMETRICS; m++)
			if (r->has[m] && m != CALC_CAL_PEAK_MEMORY) { /* memory: reported, not fitted */
				if (res)
					res[n] = pred[m] / r->measured[m] - 1;
				n++;
			}
	}
	return n;
}

static int use_fit(const struct calc_calib_row *r, int fold)
{
	return !r->holdout && (fold < 0 || r->fold != fold);
}

static double ssr(const double *r, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += r[i] * r[i];
	return s;
}

/* Solve the k x k system a x = b in place by Gaussian elimination with partial
 * pivoting; returns -1 when singular. */
static int solve(double a[][CALC_CALIB_MAX_KEYS], double *b, int k)
{
	for (int i = 0; i < k; i++) {
		int p = i;
		for (int j = i + 1; j < k; j++)
			if (fabs(a[j][i]) > fabs(a[p][i]))
				p = j;
		if (!(fabs(a[p][i]) > 1e-300))
			return -1;
		if (p != i) {
			double t;
			for (int j = 0; j < k; j++)
				t = a[i][j], a[i][j] = a[p][j], a[p][j] = t;
			t = b[i], b[i] = b[p], b[p] = t;
		}
		for (int j = i + 1; j < k; j++) {
			double f = a[j][i] / a[i][i];
			for (int l = i; l < k; l++)
				a[j][l] -= f * a[i][l];
			b[j] -= f * b[i];
		}
	}
	for (int i = k - 1; i >= 0; i--) {
		for (int j = i + 1; j < k; j++)
			b[i] -= a[i][j] * b[j];
		b[i] /= a[i][i];
	}
	return 0;
}

/* Jacobian of the residuals at x by forward differences (backward at the upper bound). */
static int jacobian(struct ctx *c, const double *x, const double *r0, int n, int fold, double *J, struct calc_diag *d)
{
	const struct calc_calib_fit *f = c->fit;
	double *r1 = xmalloc((size_t)n * sizeof *r1), xp[CALC_CALIB_MAX_KEYS];
	for (int j = 0; j < f->nkeys; j++) {
		double h = 1e-5 * (f->keys[j].hi - f->keys[j].lo);
		memcpy(xp, x, sizeof xp);
		if (xp[j] + h > f->keys[j].hi)
			h = -h;
		xp[j] += h;
		if (residuals(c, xp, use_fit, fold, r1, d) < 0) {
			free(r1);
			return -1;
		}
		for (int i = 0; i < n; i++)
			J[i * CALC_CALIB_MAX_KEYS + j] = (r1[i] - r0[i]) / h;
	}
	free(r1);
	return 0;
}

/* Bounded Levenberg-Marquardt on the rows of 'fold' (-1: all rows in the fit) from x;
 * x gets the minimum, sigma (may be NULL) the standard errors.  Returns iterations or -1. */
static int lm(struct ctx *c, int fold, double *x, double *sigma, struct calc_diag *d)
{
	const struct calc_calib_fit *f = c->fit;
	int k = f->nkeys, n = residuals(c, x, use_fit, fold, NULL, d), it;
	double *r = NULL, *rt = NULL, *J = NULL, lambda = 1e-3, s0;

	if (n < k)
		return calc_error(d, c->data->file, 0, "calibrate: %d measured times in the fit for %d keys: too few "
		                  "(peak memory is compared, never fitted)", n, k);
	r = xmalloc((size_t)n * sizeof *r);
	rt = xmalloc((size_t)n * sizeof *rt);
	J = xmalloc((size_t)n * CALC_CALIB_MAX_KEYS * sizeof *J);
	if (residuals(c, x, use_fit, fold, r, d) < 0)
		goto fail;
	s0 = ssr(r, n);
	for (it = 0; it < 100; it++) {
		double A[CALC_CALIB_MAX_KEYS][CALC_CALIB_MAX_KEYS], g[CALC_CALIB_MAX_KEYS], xt[CALC_CALIB_MAX_KEYS];
		double st, step = 0;
		if (jacobian(c, x, r, n, fold, J, d) < 0)
			goto fail;
		/* a key no measured value depends on has no fitted value: it would stay at the
		 * start, the middle of its bounds, with an uncertainty of 0 */
		for (int a = 0; it == 0 && fold < 0 && a < k; a++) {
			int moves = 0;
			for (int i = 0; i < n; i++)
				moves |= J[i * CALC_CALIB_MAX_KEYS + a] != 0;
			if (!moves) {
				calc_error(d, c->data->file, 0, "calibrate: no measured value of the fitted runs depends on %s "
				           "(it is not identifiable from these runs: fit other keys, or add runs it affects)",
				           f->keys[a].name);
				goto fail;
			}
		}
		for (;;) {
			for (int a = 0; a < k; a++) {
				g[a] = 0;
				for (int i = 0; i < n; i++)
					g[a] -= J[i * CALC_CALIB_MAX_KEYS + a] * r[i];
				for (int b = 0; b < k; b++) {
					A[a][b] = 0;
					for (int i = 0; i < n; i++)
						A[a][b] += J[i * CALC_CALIB_MAX_KEYS + a] * J[i * CALC_CALIB_MAX_KEYS + b];
				}
				A[a][a] += lambda * (A[a][a] > 0 ? A[a][a] : 1e-12);
			}
			if (solve(A, g, k) < 0) {
				lambda *= 10;
				if (lambda > 1e12)
					break;
				continue;
			}
			step = 0;
			for (int a = 0; a < k; a++) {
				xt[a] = x[a] + g[a];
				if (xt[a] < f->keys[a].lo)
					xt[a] = f->keys[a].lo;
				if (xt[a] > f->keys[a].hi)
					xt[a] = f->keys[a].hi;
				step += fabs(xt[a] - x[a]) / (f->keys[a].hi - f->keys[a].lo);
			}
			if (residuals(c, xt, use_fit, fold, rt, d) < 0)
				goto fail;
			st = ssr(rt, n);
			if (st <= s0) {
				memcpy(x, xt, (size_t)k * sizeof *x);
				memcpy(r, rt, (size_t)n * sizeof *r);
				lambda = lambda / 3 > 1e-12 ? lambda / 3 : 1e-12;
				if (s0 - st <= 1e-14 * (s0 > 1e-300 ? s0 : 1) || step < 1e-10) {
					s0 = st;
					goto done;
				}
				s0 = st;
				break;
			}
			lambda *= 4;
			if (lambda > 1e12 || step < 1e-12)
				goto done;
		}
	}
done:
	if (sigma) {
		double A[CALC_CALIB_MAX_KEYS][CALC_CALIB_MAX_KEYS], s2 = n > k ? s0 / (n - k) : 0;
		if (jacobian(c, x, r, n, fold, J, d) < 0)
			goto fail;
		for (int j = 0; j < k; j++) {
			double e[CALC_CALIB_MAX_KEYS] = {0};
			for (int a = 0; a < k; a++)
				for (int b = 0; b < k; b++) {
					A[a][b] = 0;
					for (int i = 0; i < n; i++)
						A[a][b] += J[i * CALC_CALIB_MAX_KEYS + a] * J[i * CALC_CALIB_MAX_KEYS + b];
				}
			e[j] = 1;
			sigma[j] = solve(A, e, k) < 0 || !(e[j] >= 0) ? 0 : sqrt(s2 * e[j]);
		}
	}
	free(r);
	free(rt);
	free(J);
	return it + 1;
fail:
	free(r);
	free(rt);
	free(J);
	return -1;
}

/* Mean relative error of a row's time metrics (peak memory is kept apart: mem_mae). */
static double row_err(const struct calc_calib_row *r, const double *pred)
{
	double s = 0;
	int n = 0;
	for (int m = 0; m < CALC_CAL_NMETRICS; m++)
		if (r->has[m] && m != CALC_CAL_PEAK_MEMORY)
			s += fabs(pred[m] / r->measured[m] - 1), n++;
	return n ? s / n : 0;
}

int calc_calibrate(const char *file, const char *const *sets, int nsets, struct calc_calib_data *data,
                   struct calc_calib_fit *fit, struct calc_diag *d)
{
	struct ctx c = {file, sets, nsets, data, fit, xmalloc(sizeof *c.plan), xmalloc(sizeof *c.step),
	                xmalloc(sizeof *c.mem)};
	double x[CALC_CALIB_MAX_KEYS], sigma[CALC_CALIB_MAX_KEYS], sin = 0, sout = 0, scv = 0;
	int rc = -1, it;

	for (int j = 0; j < fit->nkeys; j++)
		x[j] = (fit->keys[j].lo + fit->keys[j].hi) / 2;
	if ((it = lm(&c, -1, x, sigma, d)) < 0)
		goto out;
	fit->iterations = it;
	fit->nin = fit->nout = 0;
	for (int j = 0; j < fit->nkeys; j++) {
		const struct calc_calib_key *k = &fit->keys[j];
		double tol = 1e-6 * (k->hi - k->lo); /* the projection puts a bounded value exactly on it */
		fit->keys[j].value = x[j], fit->keys[j].sigma = sigma[j];
		fit->keys[j].at_bound = x[j] <= k->lo + tol ? -1 : x[j] >= k->hi - tol ? 1 : 0;
	}
	fit->nmem = 0;
	fit->mem_mae = 0;
	for (int i = 0; i < data->nrows; i++) {
		struct calc_calib_row *r = &data->rows[i];
		if (predict(&c, r, x, r->predicted, d) < 0)
			goto out;
		memcpy(r->cv_predicted, r->predicted, sizeof r->predicted);
		if (r->has[CALC_CAL_PEAK_MEMORY])
			fit->nmem++, fit->mem_mae += fabs(r->predicted[CALC_CAL_PEAK_MEMORY] /
			                                  r->measured[CALC_CAL_PEAK_MEMORY] - 1);
		if (r->holdout)
			fit->nout++, sout += row_err(r, r->predicted);
		else
			fit->nin++, sin += row_err(r, r->predicted);
	}
	/* k-fold: each fold's rows predicted by the fit on the others */
	for (int f = 0; f < fit->folds; f++) {
		double xf[CALC_CALIB_MAX_KEYS];
		int any = 0;
		for (int i = 0; i < data->nrows; i++)
			any |= data->rows[i].fold == f && !data->rows[i].holdout;
		if (!any)
			continue;
		memcpy(xf, x, sizeof xf);
		if (lm(&c, f, xf, NULL, d) < 0)
			goto out;
		for (int i = 0; i < data->nrows; i++) {
			struct calc_calib_row *r = &data->rows[i];
			if (r->fold != f || r->holdout)
				continue;
			if (predict(&c, r, xf, r->cv_predicted, d) < 0)
				goto out;
			scv += row_err(r, r->cv_predicted);
		}
	}
	if (fit->nmem)
		fit->mem_mae /= fit->nmem;
	fit->in_mae = fit->nin ? sin / fit->nin : 0;
	fit->out_mae = fit->nout ? sout / fit->nout : 0;
	fit->cv_mae = fit->folds && fit->nin ? scv / fit->nin : 0;
	rc = 0;
out:
	free(c.plan);
	free(c.step);
	free(c.mem);
	return rc;
}
