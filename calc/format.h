/*
 * format.h -- how trainplan writes a number for a reader: display units and digits.
 *
 * One table of display units (GB, GiB, %, ms, ...) and the functions that write a
 * value with them, shared by the tables of the library (calc/table.c), the formats
 * of the chapters (report/expr.c, `=memory.total |GB`) and the text views of the
 * trainplan command.  Values come in SI base units (bytes, seconds, fractions).
 */
#ifndef CALC_FORMAT_H
#define CALC_FORMAT_H

#include <stddef.h>

/* A display unit: a value in SI unit 'need' is shown as value / div. */
struct calc_display {
	const char *name;   /* "GB", "GiB", "%", ...: the chapter format and the table header unit */
	const char *need;   /* SI unit the value must be in ("B", "s", "1"); NULL = any */
	double div;         /* shown number = value / div [value's unit per display unit] */
	int dec;            /* decimals a chapter format shows by default; -1 = natural */
	const char *suffix; /* written after the number in prose: " GB", "%", "\xc3\x97" (×) */
	int prose;          /* 1 when chapters may name it after '|' */
};

/* Thousands separators: none, for integer parts of 5 digits or more (prose: 4096,
 * 12,345), or for every integer part of 4 digits or more (tables: 1,024). */
enum calc_sep { CALC_SEP_NONE, CALC_SEP_LONG, CALC_SEP_ALL };

/* The display unit called 'name' ("GB", "" for plain decimals), or NULL. */
const struct calc_display *calc_display_find(const char *name);

/* The names of the display units chapters may use, separated by spaces, for messages. */
const char *calc_display_prose_names(void);

/*
 * Write x with 'dec' decimals (0..9) and separators 'g' into buf (size n, always
 * NUL-terminated).  A number that rounds to zero is written without a minus sign.
 */
void calc_fmt_fixed(double x, int dec, enum calc_sep g, char *buf, size_t n);

/*
 * The reader's rounding, one rule for prose and tables: 'dec' decimals at most, fewer
 * where x has digits before the point, so that no more than four significant digits
 * show past the integer part (107.28 -> 107.3, 1720320.00 -> 1720320, 9.14 and
 * 44.8 unchanged).  Returns the decimals to write x with.
 */
int calc_fmt_reader_dec(double x, int dec);

/*
 * Write the SI value 'v' in display unit 'u' with 'dec' decimals (dec < 0: u->dec
 * under the reader's rounding, calc_fmt_reader_dec; when u->dec is -1 too, integers as
 * integers and other numbers with four significant digits) and separators 'g'; with
 * 'suffix' the unit's suffix follows (" GB").
 */
void calc_fmt_si(double v, const struct calc_display *u, int dec, enum calc_sep g, int suffix,
                 char *buf, size_t n);

/* The SI value 'v' in display unit 'name' (v / div; "GB": bytes / 10^9).  An unknown
 * name returns v unchanged. */
double calc_display_value(double v, const char *name);

/* Write the SI value 'v' as "NUMBER NAME" in display unit 'name' (e.g. "80.00 GB"),
 * the number as printf's %W.Df with width 'width' (0: no padding) and 'dec' decimals:
 * the text views of the trainplan command. */
void calc_fmt_in(double v, const char *name, int width, int dec, char *buf, size_t n);

#endif
