/*
 * table.c -- tables and datasets: building them and writing them as text, CSV
 * (RFC 4180), JSON, GFM Markdown and TSV.
 *
 * A cell holds an SI value (or text); its column says how to show it.  Text,
 * Markdown and CSV show display units named in the header ("total (GB)"); JSON and
 * TSV keep SI values so that other tools and gnuplot never guess a unit.
 *
 * JSON: calc_table_json turns a table into rows keyed by snake_case column names
 * ("memory per GPU" -> memory_per_gpu, "GPUs/node" -> gpus_per_node) and names every
 * numeric column's unit; the trainplan command wraps it in its envelope
 * (schema trainplan/1, cli/common.c).  JSON is written with jansson.
 */
#include "diag.h"
#include "table.h"
#include "files.h"
#include "format.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void calc_table_init(struct calc_table *t, const char *name, const char *title)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "%s", name);
	snprintf(t->title, sizeof t->title, "%s", title);
}

int calc_table_col(struct calc_table *t, const char *name, const char *unit, enum calc_disp disp, int prec)
{
	struct calc_col *c;
	if (t->ncols >= (int)(sizeof t->cols / sizeof t->cols[0]))
		return t->ncols - 1;
	c = &t->cols[t->ncols];
	snprintf(c->name, sizeof c->name, "%s", name);
	c->unit = unit;
	c->disp = disp;
	c->prec = prec;
	return t->ncols++;
}

int calc_table_row(struct calc_table *t)
{
	if (t->nrows == t->caprows) {
		t->caprows = t->caprows ? t->caprows * 2 : 16;
		t->cells = xrealloc(t->cells, (size_t)t->caprows * (size_t)t->ncols * sizeof *t->cells);
	}
	for (int c = 0; c < t->ncols; c++)
		t->cells[t->nrows * t->ncols + c] = (struct calc_cell){NAN, NULL};
	return t->nrows++;
}

void calc_table_num(struct calc_table *t, int row, int col, double v)
{
	if (row < t->nrows && col < t->ncols)
		t->cells[row * t->ncols + col].v = v;
}

void calc_table_str(struct calc_table *t, int row, int col, const char *s)
{
	if (row < t->nrows && col < t->ncols) {
		struct calc_cell *c = &t->cells[row * t->ncols + col];
		free(c->s);
		c->s = xstrdup(s);
	}
}

void calc_table_note(struct calc_table *t, const char *note)
{
	free(t->note);
	t->note = xstrdup(note);
}

void calc_table_free(struct calc_table *t)
{
	for (int i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i].s);
	free(t->cells);
	free(t->note);
	memset(t, 0, sizeof *t);
}

/* The display unit of a column kind (format.h), or NULL for the kinds without one. */
static const struct calc_display *disp_display(enum calc_disp disp)
{
	switch (disp) {
	case CALC_D_GB: return calc_display_find("GB");
	case CALC_D_GIB: return calc_display_find("GiB");
	case CALC_D_TB: return calc_display_find("TB");
	case CALC_D_MB: return calc_display_find("MB");
	case CALC_D_PCT: return calc_display_find("%");
	case CALC_D_MS: return calc_display_find("ms");
	case CALC_D_S: return calc_display_find("s");
	case CALC_D_DAYS: return calc_display_find("days");
	case CALC_D_GBPS: return calc_display_find("GB/s");
	case CALC_D_TFLOPS: return calc_display_find("TFLOP/s");
	case CALC_D_BILLION: return calc_display_find("billion");
	default: return NULL;
	}
}

const char *calc_disp_unit(enum calc_disp disp)
{
	const struct calc_display *u = disp_display(disp);
	return u ? u->name : "";
}

void calc_table_cell_text(const struct calc_table *t, int row, int col, char *buf, size_t n)
{
	const struct calc_cell *c = &t->cells[row * t->ncols + col];
	const struct calc_col *k = &t->cols[col];
	const struct calc_display *u = disp_display(k->disp);

	if (c->s || isnan(c->v)) {
		/* a text from outside (a file name, a run's label) shows its control bytes as
		 * \xHH: an ESC would be a command to the terminal that shows the table */
		calc_text_shown(buf, n, c->s ? c->s : "");
		return;
	}
	if (k->disp == CALC_D_NUM) {
		int sig = k->prec > 0 ? k->prec : 4;
		double a = fabs(c->v);
		if (a >= 1e3 && a < 1e15) {
			/* 'sig' significant digits in positional notation, grouped as the
			 * integer columns are: 118,600 rather than 1.186e+05, 7,328 rather
			 * than 7328; no trailing zeros after the point, as %g (CSV keeps %g) */
			int dec = sig - 1 - (int)floor(log10(a));
			if (dec > 0) {
				size_t len;
				calc_fmt_fixed(c->v, dec, CALC_SEP_ALL, buf, n);
				len = strlen(buf);
				while (len > 0 && buf[len - 1] == '0')
					buf[--len] = 0;
				if (len > 0 && buf[len - 1] == '.')
					buf[--len] = 0;
			} else {
				double q = pow(10, -dec);
				calc_fmt_fixed(round(c->v / q) * q, 0, CALC_SEP_ALL, buf, n);
			}
		} else
			snprintf(buf, n, "%.*g", sig, c->v);
	}
	else if (k->disp == CALC_D_INT)
		calc_fmt_fixed(c->v, 0, CALC_SEP_ALL, buf, n);
	else {
		/* the reader's rounding, as the prose's (format.h); a large value grouped, also
		 * in a column without decimals (21,095 ms, not 21095: docs/references.md §9.20) */
		double x = u ? c->v / u->div : c->v;
		int dec = calc_fmt_reader_dec(x, k->prec);
		calc_fmt_fixed(x, dec, CALC_SEP_LONG, buf, n);
	}
}

void calc_table_header_text(const struct calc_table *t, int col, char *buf, size_t n)
{
	const char *u = calc_disp_unit(t->cols[col].disp);
	if (*u)
		snprintf(buf, n, "%s (%s)", t->cols[col].name, u);
	else
		snprintf(buf, n, "%s", t->cols[col].name);
}

int calc_format_parse(const char *s, enum calc_format *out)
{
	static const char *const names[] = {"text", "csv", "json", "md", "tsv"};
	for (int i = 0; i < 5; i++)
		if (!strcmp(s, names[i]))
			return *out = (enum calc_format)i, 0;
	return -1;
}

static int is_text_col(const struct calc_table *t, int col)
{
	return t->cols[col].disp == CALC_D_TEXT;
}

static void csv_field(FILE *out, const char *s);

/* A CSV field.  A text cell that a spreadsheet would take as a formula (=, +, -, @ first,
 * or a tab or CR first: OWASP, "CSV Injection") gets a leading apostrophe, which
 * spreadsheets show as text and do not run; a lone "-" (no value) is left as it is.
 * Control bytes are shown as \xHH. */
static void csv_text(FILE *out, const char *s)
{
	char *shown = xmalloc(strlen(s) * 4 + 2);
	shown[0] = '\'';
	calc_text_shown(shown + 1, strlen(s) * 4 + 1, s);
	int formula = s[0] && (strchr("\t\r", s[0]) || (strchr("=+-@", s[0]) && s[1])); /* "-" alone is a dash */
	csv_field(out, formula ? shown : shown + 1);
	free(shown);
}

static void csv_field(FILE *out, const char *s)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
}

/* A number in SI units for JSON/TSV: integers when exact (bytes), else %.10g. */
static void si_number(FILE *out, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", out);
	else if (v == floor(v) && fabs(v) < 9e15)
		fprintf(out, "%.0f", v);
	else
		fprintf(out, "%.10g", v);
}

/* fprintf(out, "%s%*s", lead, width, s): lead, then s padded with spaces to |width|
 * bytes, on the left where width > 0, on the right where it is < 0 */
static void put_padded(FILE *out, const char *lead, const char *s, int width)
{
	static const char spaces[64] = "                                                               ";
	size_t k = strlen(s), wa = width < 0 ? (size_t)-(long)width : (size_t)width, pad = wa > k ? wa - k : 0;
	fputs(lead, out);
	if (width < 0)
		fwrite(s, 1, k, out);
	while (pad > 0) {
		size_t q = pad < sizeof spaces - 1 ? pad : sizeof spaces - 1;
		fwrite(spaces, 1, q, out);
		pad -= q;
	}
	if (width >= 0)
		fwrite(s, 1, k, out);
}

void calc_table_write(const struct calc_table *t, enum calc_format f, FILE *out)
{
	char buf[512];
	int w[24] = {0};

	switch (f) {
	case CALC_F_TEXT: {
		/* each cell's text made once, for its column's width and then written: the
		 * widths pass and the writing pass made every cell twice, and each was written
		 * by fprintf's "%*s" (together 2.3 M of the 49.7 M instructions of `trainplan
		 * search --plan plans/llama2-70b-a100.ini`, callgrind, for its 10-row tables) */
		size_t ncell = (size_t)t->nrows * (size_t)t->ncols, len = 0, cap = 0;
		size_t *at = xmalloc((ncell > 0 ? ncell : 1) * sizeof *at);
		char *txt = NULL;
		for (int c = 0; c < t->ncols; c++) {
			calc_table_header_text(t, c, buf, sizeof buf);
			w[c] = (int)strlen(buf);
			for (int r = 0; r < t->nrows; r++) {
				size_t k;
				calc_table_cell_text(t, r, c, buf, sizeof buf);
				k = strlen(buf);
				if ((int)k > w[c])
					w[c] = (int)k;
				if (len + k + 1 > cap) {
					cap = 2 * (len + k + 1) + 4096;
					txt = xrealloc(txt, cap);
				}
				at[(size_t)r * (size_t)t->ncols + (size_t)c] = len;
				memcpy(txt + len, buf, k + 1);
				len += k + 1;
			}
		}
		fprintf(out, "%s\n", t->title);
		for (int c = 0; c < t->ncols; c++) {
			calc_table_header_text(t, c, buf, sizeof buf);
			put_padded(out, c ? "  " : "", buf, is_text_col(t, c) ? -w[c] : w[c]);
		}
		fputc('\n', out);
		for (int r = 0; r < t->nrows; r++) {
			for (int c = 0; c < t->ncols; c++) {
				const char *cell = txt + at[(size_t)r * (size_t)t->ncols + (size_t)c];
				if (c == t->ncols - 1 && is_text_col(t, c))
					put_padded(out, c ? "  " : "", cell, 0);
				else
					put_padded(out, c ? "  " : "", cell, is_text_col(t, c) ? -w[c] : w[c]);
			}
			fputc('\n', out);
		}
		if (t->note)
			fprintf(out, "%s\n", t->note);
		free(txt);
		free(at);
		break;
	}
	case CALC_F_MD:
		fprintf(out, "%s\n\n|", t->title);
		for (int c = 0; c < t->ncols; c++) {
			calc_table_header_text(t, c, buf, sizeof buf);
			fprintf(out, " %s |", buf);
		}
		fputs("\n|", out);
		for (int c = 0; c < t->ncols; c++)
			fputs(is_text_col(t, c) ? " :--- |" : " ---: |", out);
		fputc('\n', out);
		for (int r = 0; r < t->nrows; r++) {
			fputc('|', out);
			for (int c = 0; c < t->ncols; c++) {
				calc_table_cell_text(t, r, c, buf, sizeof buf);
				fputc(' ', out);
				for (const char *p = buf; *p; p++) {
					if (*p == '|')
						fputc('\\', out);
					fputc(*p, out);
				}
				fputs(" |", out);
			}
			fputc('\n', out);
		}
		if (t->note)
			fprintf(out, "\n%s\n", t->note);
		break;
	case CALC_F_CSV:
		for (int c = 0; c < t->ncols; c++) {
			calc_table_header_text(t, c, buf, sizeof buf);
			if (c)
				fputc(',', out);
			csv_field(out, buf);
		}
		fputs("\r\n", out);
		for (int r = 0; r < t->nrows; r++) {
			for (int c = 0; c < t->ncols; c++) {
				const struct calc_cell *cell = &t->cells[r * t->ncols + c];
				if (c)
					fputc(',', out);
				if (cell->s || isnan(cell->v))
					csv_text(out, cell->s ? cell->s : "");
				else {
					/* spreadsheets want plain numbers: no thousands separators */
					calc_table_cell_text(t, r, c, buf, sizeof buf);
					if (t->cols[c].disp == CALC_D_INT)
						snprintf(buf, sizeof buf, "%.0f", cell->v);
					else if (t->cols[c].disp == CALC_D_NUM) {
						/* %g's significant digits, but no digit of the integer part lost:
						 * 460938 stays 460938 where %.4g wrote 4.609e+05 (the text cell
						 * rounds it for a reader; a spreadsheet keeps every digit) */
						int sig = t->cols[c].prec > 0 ? t->cols[c].prec : 4;
						if (fabs(cell->v) >= pow(10, sig) && fabs(cell->v) < 9e15)
							snprintf(buf, sizeof buf, "%.0f", cell->v);
						else
							snprintf(buf, sizeof buf, "%.*g", sig, cell->v);
					}
					else {
						/* the column's own decimals, not the reader's rounding */
						const struct calc_display *u = disp_display(t->cols[c].disp);
						calc_fmt_fixed(u ? cell->v / u->div : cell->v, t->cols[c].prec, CALC_SEP_NONE,
						               buf, sizeof buf);
					}
					csv_field(out, buf);
				}
			}
			fputs("\r\n", out);
		}
		break;
	case CALC_F_TSV:
		for (int c = 0; c < t->ncols; c++)
			fprintf(out, "%s%s", c ? "\t" : "", t->cols[c].name);
		fputc('\n', out);
		for (int r = 0; r < t->nrows; r++) {
			for (int c = 0; c < t->ncols; c++) {
				const struct calc_cell *cell = &t->cells[r * t->ncols + c];
				if (c)
					fputc('\t', out);
				if (cell->s && calc_text_plain(cell->s) >= 0) {
					calc_table_cell_text(t, r, c, buf, sizeof buf);
					fputs(buf, out);
				} else if (cell->s)
					fputs(*cell->s ? cell->s : "-", out);
				else if (isnan(cell->v))
					fputs("NaN", out);
				else
					si_number(out, cell->v);
			}
			fputc('\n', out);
		}
		break;
	case CALC_F_JSON: {
		json_t *units = json_object(), *o = json_object();
		json_t *rows = calc_table_json(t, units);
		char *text;
		json_object_set_new(o, "table", json_string(t->name));
		json_object_set_new(o, "title", json_string(t->title));
		json_object_set_new(o, "units", units);
		json_object_set_new(o, "rows", rows);
		if ((text = json_dumps(o, CALC_JSON_FLAGS))) {
			fprintf(out, "%s\n", text);
			free(text);
		}
		json_decref(o);
	}
		break;
	}
}

/* ---------------------------------------------------------------- JSON */

void calc_json_key(const char *name, char *buf, size_t n)
{
	size_t k = 0;
	int depth = 0, gap = 0;
	if (!n)
		return;
	for (const char *p = name; *p && k + 1 < n; p++) {
		unsigned char ch = (unsigned char)*p;
		if (ch == '(') {
			depth++;
			continue;
		}
		if (ch == ')') {
			depth -= depth > 0;
			continue;
		}
		if (depth)
			continue;
		if (ch == '/' && k > 0 && islower((unsigned char)p[1])) { /* "GPUs/node": per */
			if (k + 5 < n) {
				memcpy(buf + k, "_per_", 5);
				k += 5;
			}
			gap = 0;
			continue;
		}
		if (ch == '%') { /* a share, stored as a fraction */
			gap = 1;
			continue;
		}
		if (isalnum(ch)) {
			if (gap && k > 0 && buf[k - 1] != '_')
				buf[k++] = '_';
			if (k + 1 < n)
				buf[k++] = (char)tolower(ch);
			gap = 0;
		} else
			gap = 1;
	}
	buf[k] = 0;
	if (!k)
		snprintf(buf, n, "value");
}

const char *calc_json_unit(const char *unit, double *scale)
{
	*scale = 1;
	if (!unit || !*unit)
		return "1";
	if (!strcmp(unit, "days")) {
		*scale = 86400;
		return "s";
	}
	return unit;
}

char *calc_json_time_key(const char *key, const char *unit, char *buf, size_t n)
{
	const char *at = NULL;
	size_t len = strlen(key);
	if (!n)
		return buf;
	if (!unit || strcmp(unit, "days")) {
		snprintf(buf, n, "%s", key);
		return buf;
	}
	for (const char *p = strstr(key, "days"); p; p = strstr(p + 1, "days"))
		if ((p == key || p[-1] == '.' || p[-1] == '_') && (!p[4] || p[4] == '.' || p[4] == '_'))
			at = p;
	if (at)
		snprintf(buf, n, "%.*stime%s", (int)(at - key), key, at + 4);
	else
		snprintf(buf, n, "%.*s_time", (int)len, key);
	return buf;
}

json_t *calc_json_number(double v, const char *unit)
{
	if (!isfinite(v))
		return json_null();
	if (unit && !strcmp(unit, "B") && fabs(v) < 9007199254740992.0)
		v = round(v);
	if (v == floor(v) && fabs(v) < 9007199254740992.0) /* 2^53: exact as an integer */
		return json_integer((json_int_t)v);
	return json_real(v);
}

/* A text column whose every non-empty cell is "yes" or "no" (and one at least): a
 * yes/no column, written as true / false (null when empty). */
static int is_bool_col(const struct calc_table *t, int col)
{
	int seen = 0;
	if (t->cols[col].disp != CALC_D_TEXT || !t->nrows)
		return 0;
	for (int r = 0; r < t->nrows; r++) {
		const char *s = t->cells[r * t->ncols + col].s;
		if (!s || !*s)
			continue;
		if (strcmp(s, "yes") && strcmp(s, "no"))
			return 0;
		seen = 1;
	}
	return seen;
}

json_t *calc_table_json(const struct calc_table *t, json_t *units)
{
	char keys[24][64];
	double scale[24];
	int isbool[24];
	json_t *rows = json_array();

	for (int c = 0; c < t->ncols; c++) {
		const char *u = calc_json_unit(t->cols[c].unit, &scale[c]);
		char name[48], base[54];
		calc_json_key(t->cols[c].name, name, sizeof name);
		calc_json_time_key(name, t->cols[c].unit, base, sizeof base); /* days, written in s */
		snprintf(keys[c], sizeof keys[c], "%s", base);
		for (int b = 0, dup = 2; b < c; b++) /* two columns of one name: name_2, name_3 */
			if (!strcmp(keys[b], keys[c])) {
				snprintf(keys[c], sizeof keys[c], "%s_%d", base, dup++ % 100);
				b = -1;
			}
		isbool[c] = is_bool_col(t, c);
		if (t->cols[c].disp != CALC_D_TEXT && units && !json_object_get(units, keys[c]))
			json_object_set_new(units, keys[c], json_string(u));
	}
	for (int r = 0; r < t->nrows; r++) {
		json_t *row = json_object();
		for (int c = 0; c < t->ncols; c++) {
			const struct calc_cell *cell = &t->cells[r * t->ncols + c];
			json_t *v;
			if (isbool[c])
				v = cell->s && *cell->s ? json_boolean(!strcmp(cell->s, "yes")) : json_null();
			else if (cell->s)
				v = json_string(cell->s);
			else if (t->cols[c].disp == CALC_D_TEXT)
				v = json_null();
			else
				v = calc_json_number(cell->v * scale[c], calc_json_unit(t->cols[c].unit, &(double){0}));
			json_object_set_new(row, keys[c], v);
		}
		json_array_append_new(rows, row);
	}
	return rows;
}
