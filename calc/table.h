/*
 * table.h -- tables and datasets, and how they are written as text, CSV, TSV,
 * Markdown and JSON (table.c).
 */
#ifndef CALC_TABLE_H
#define CALC_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "bounds.h"

/* How a column's SI value is shown in text, Markdown and the report. */
enum calc_disp {
	CALC_D_TEXT,   /* the cell's string */
	CALC_D_INT,    /* integer with thousands separators in text */
	CALC_D_NUM,    /* %.*g-style with 'prec' significant digits */
	CALC_D_FIXED,  /* %.*f with 'prec' decimals */
	CALC_D_GB,     /* bytes shown as GB (10^9) with 'prec' decimals */
	CALC_D_GIB,    /* bytes shown as GiB (2^30) */
	CALC_D_TB,     /* bytes shown as TB (10^12) */
	CALC_D_MB,     /* bytes shown as MB (10^6) */
	CALC_D_PCT,    /* fraction shown as percent */
	CALC_D_MS,     /* seconds shown as milliseconds */
	CALC_D_S,      /* seconds */
	CALC_D_DAYS,   /* seconds shown as days */
	CALC_D_GBPS,   /* bytes/s shown as GB/s */
	CALC_D_TFLOPS, /* FLOP/s shown as TFLOP/s */
	CALC_D_BILLION,/* count shown in billions (parameters) */
};

struct calc_col {
	char name[48];     /* header, without unit */
	const char *unit;  /* SI unit of the stored value: "B", "s", "1", "FLOP/s", ... or "" */
	enum calc_disp disp;
	int prec;
};

struct calc_cell {
	double v;  /* SI value (NAN when the cell is text only) */
	char *s;   /* text, or NULL for a number */
};

struct calc_table {
	char name[CALC_NAME_MAX]; /* catalog name */
	char title[160];          /* caption */
	int ncols;
	struct calc_col cols[24];
	int nrows, caprows;
	struct calc_cell *cells;  /* nrows * ncols, row-major */
	char *note;               /* optional footnote (sources), owned */
};

void calc_table_init(struct calc_table *t, const char *name, const char *title);
/* Add a column; returns its index. */
int calc_table_col(struct calc_table *t, const char *name, const char *unit, enum calc_disp disp,
                   int prec);
/* Start a new row; returns its index.  Then set cells. */
int calc_table_row(struct calc_table *t);
void calc_table_num(struct calc_table *t, int row, int col, double v);
void calc_table_str(struct calc_table *t, int row, int col, const char *s);
void calc_table_note(struct calc_table *t, const char *note);
void calc_table_free(struct calc_table *t);
/* Show one cell as the column's display unit wants ("12.34"); no unit suffix. */
void calc_table_cell_text(const struct calc_table *t, int row, int col, char *buf, size_t n);
/* Header text with its display unit, e.g. "weights (GB)". */
void calc_table_header_text(const struct calc_table *t, int col, char *buf, size_t n);
/* Display unit label of a column ("GB", "%", "ms", "" ...). */
const char *calc_disp_unit(enum calc_disp disp);

enum calc_format { CALC_F_TEXT, CALC_F_CSV, CALC_F_JSON, CALC_F_MD, CALC_F_TSV };
int calc_format_parse(const char *s, enum calc_format *out);
/* Write a table in one format.  CSV follows RFC 4180; TSV writes SI values (for
 * gnuplot); JSON writes SI values (bytes as integers) keyed by column name. */
void calc_table_write(const struct calc_table *t, enum calc_format f, FILE *out);

/* JSON (jansson's json_t; <jansson.h> declares it).  How every JSON of trainplan is
 * dumped: two-space indent, keys in the order they were set, 10 significant digits. */
#define CALC_JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))
struct json_t;
/* The JSON key of a column or name: lower-case snake_case without the parenthesised
 * parts ("memory per GPU" -> "memory_per_gpu", "run (days)" -> "run", "GPUs/node" ->
 * "gpus_per_node", "fp8-gpu" -> "fp8_gpu"); "value" when nothing is left. */
void calc_json_key(const char *name, char *buf, size_t n);
/* The unit a value stored in 'unit' is written in, in SI base units: "days" becomes
 * "s" with *scale 86400; "" (a count or a ratio) becomes "1"; the rest are kept,
 * *scale 1. */
const char *calc_json_unit(const char *unit, double *scale);
/* The key 'key' (a calc_json_key or a catalog name) of a value stored in 'unit', as
 * JSON writes it into buf (n bytes): a value in days is written in seconds
 * (calc_json_unit), so its key says time, not days: the last word "days" (between
 * start, '.' or '_' and end, '.' or '_') becomes "time" ("run.days" -> "run.time",
 * "run.effective_days" -> "run.effective_time", the catalog's quantities in seconds;
 * "days" -> "time"), and a key without that word gets "_time" ("run" -> "run_time").
 * Other keys are copied.  Returns buf. */
char *calc_json_time_key(const char *key, const char *unit, char *buf, size_t n);
/* A number in SI unit 'unit': an integer when exact below 2^53 (counts), a real
 * otherwise, null when NaN or infinite; bytes ("B") rounded to an integer.  A new
 * reference. */
struct json_t *calc_json_number(double v, const char *unit);
/* The rows of 't' as a JSON array of objects keyed by calc_json_key of the column
 * names, values in SI base units; a yes/no text column becomes true/false (null when
 * empty).  Adds "key": "unit" to the object 'units' (when not NULL) for each numeric
 * column not named there yet.  A new reference. */
struct json_t *calc_table_json(const struct calc_table *t, struct json_t *units);

#endif
