/*
 * table.c -- tables and datasets: building them and writing them as text, CSV
 * (RFC 4180), JSON, GFM Markdown and TSV.
 *
 * A cell holds an SI value (or text); its column says how to show it.  Text,
 * Markdown and CSV show display units named in the header ("total (GB)"); JSON and
 * TSV keep SI values so that other tools and gnuplot never guess a unit.
 */
#include "calc.h"
#include "format.h"

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
		snprintf(buf, n, "%s", c->s ? c->s : "");
		return;
	}
	if (k->disp == CALC_D_NUM)
		snprintf(buf, n, "%.*g", k->prec > 0 ? k->prec : 4, c->v);
	else if (k->disp == CALC_D_INT)
		calc_fmt_fixed(c->v, 0, CALC_SEP_ALL, buf, n);
	else
		calc_fmt_fixed(u ? c->v / u->div : c->v, k->prec, CALC_SEP_NONE, buf, n);
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

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
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

void calc_table_write(const struct calc_table *t, enum calc_format f, FILE *out)
{
	char buf[512];
	int w[24] = {0};

	switch (f) {
	case CALC_F_TEXT:
		for (int c = 0; c < t->ncols; c++) {
			calc_table_header_text(t, c, buf, sizeof buf);
			w[c] = (int)strlen(buf);
			for (int r = 0; r < t->nrows; r++) {
				calc_table_cell_text(t, r, c, buf, sizeof buf);
				if ((int)strlen(buf) > w[c])
					w[c] = (int)strlen(buf);
			}
		}
		fprintf(out, "%s\n", t->title);
		for (int c = 0; c < t->ncols; c++) {
			calc_table_header_text(t, c, buf, sizeof buf);
			fprintf(out, "%s%*s", c ? "  " : "", is_text_col(t, c) ? -w[c] : w[c], buf);
		}
		fputc('\n', out);
		for (int r = 0; r < t->nrows; r++) {
			for (int c = 0; c < t->ncols; c++) {
				calc_table_cell_text(t, r, c, buf, sizeof buf);
				if (c == t->ncols - 1 && is_text_col(t, c))
					fprintf(out, "%s%s", c ? "  " : "", buf);
				else
					fprintf(out, "%s%*s", c ? "  " : "", is_text_col(t, c) ? -w[c] : w[c], buf);
			}
			fputc('\n', out);
		}
		if (t->note)
			fprintf(out, "%s\n", t->note);
		break;
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
					csv_field(out, cell->s ? cell->s : "");
				else {
					/* spreadsheets want plain numbers: no thousands separators */
					calc_table_cell_text(t, r, c, buf, sizeof buf);
					if (t->cols[c].disp == CALC_D_INT)
						snprintf(buf, sizeof buf, "%.0f", cell->v);
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
				if (cell->s)
					fputs(*cell->s ? cell->s : "-", out);
				else if (isnan(cell->v))
					fputs("NaN", out);
				else
					si_number(out, cell->v);
			}
			fputc('\n', out);
		}
		break;
	case CALC_F_JSON:
		fputs("{\"name\": ", out);
		json_string(out, t->name);
		fputs(", \"title\": ", out);
		json_string(out, t->title);
		fputs(", \"units\": {", out);
		for (int c = 0; c < t->ncols; c++) {
			if (c)
				fputs(", ", out);
			json_string(out, t->cols[c].name);
			fputs(": ", out);
			json_string(out, t->cols[c].unit ? t->cols[c].unit : "");
		}
		fputs("}, \"rows\": [", out);
		for (int r = 0; r < t->nrows; r++) {
			fputs(r ? ",\n  {" : "\n  {", out);
			for (int c = 0; c < t->ncols; c++) {
				const struct calc_cell *cell = &t->cells[r * t->ncols + c];
				if (c)
					fputs(", ", out);
				json_string(out, t->cols[c].name);
				fputs(": ", out);
				if (cell->s)
					json_string(out, cell->s);
				else
					si_number(out, cell->v);
			}
			fputc('}', out);
		}
		fputs("\n]}\n", out);
		break;
	}
}
