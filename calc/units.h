/*
 * units.h -- numbers with unit suffixes read into SI base units (units.c).
 */
#ifndef CALC_UNITS_H
#define CALC_UNITS_H

/*
 * Parse a number with an optional unit suffix into SI base units.
 * 'kind' says what is expected: bytes ("80 GB", "80 GiB", "80e9"), bytes/s
 * ("50 GB/s", "400 Gb/s"), seconds ("5 us", "2 ms"), a plain number ("300e9",
 * "1.5T" for tokens), or a fraction ("0.8" or "80%").  Returns 0, or -1 when the
 * text is not a number or the suffix is not allowed for the kind.
 */
enum calc_unit {
	CALC_U_NONE,     /* plain number; k/M/G/T/P suffixes allowed (10^3 ...) */
	CALC_U_BYTES,    /* B, kB, MB, GB, TB, KiB, MiB, GiB, TiB */
	CALC_U_BYTES_S,  /* B/s, GB/s, ..., Gb/s (bits: /8), Tb/s */
	CALC_U_SECONDS,  /* s, ms, us, ns, min, h, days */
	CALC_U_FRACTION, /* 0..1 or "N%" */
	CALC_U_FLOPS,    /* FLOP/s, TFLOP/s, PFLOP/s; plain numbers too */
	CALC_U_MONEY,    /* currency units per GPU-hour: plain number */
};
int calc_parse_number(const char *text, enum calc_unit kind, double *out);

#endif
