/*
 * output.h -- the one way trainplan writes a file: whole or not at all.
 *
 * Every writer of trainplan and trainplan-report (tables, CSV, report.html,
 * report.pdf) builds its output in memory and hands it here.  A small header of its
 * own so that the renderers do not depend on the engines' header.
 */
#ifndef CALC_OUTPUT_H
#define CALC_OUTPUT_H

#include <stddef.h>

#include "diag.h"

/* One file to write: its path and its whole contents. */
struct calc_output {
	const char *path; /* where it goes; its folder must exist */
	const char *data; /* the bytes to write (not NUL-terminated necessarily) */
	size_t len;       /* number of bytes in data [B] */
};

/*
 * Write the n outputs 'outs' so that each is whole or absent, and all of them are
 * replaced together: every contents is first written to a temporary file in the
 * folder of its path (PATH.tmp.PID), then, once all are written, every temporary is
 * renamed onto its path.  A write that fails (full disk, file size limit) removes
 * every temporary and leaves the old files untouched.  Returns 0, or -1 with a
 * diagnostic "PATH: error: cannot write: REASON".
 */
int calc_output_write(const struct calc_output *outs, int n, struct calc_diag *d);

#endif
