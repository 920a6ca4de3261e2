/*
 * validate.h -- the validation rows queued on the pool (validate.c).
 */
#ifndef CALC_VALIDATE_H
#define CALC_VALIDATE_H

#include "pool.h"

/* Queue the validation rows (validate.c; they do not depend on any plan) on the pool,
 * when it runs, as CALC_VALIDATE_JOBS jobs of consecutive rows that the pool's threads
 * share; the validation quantities and tables wait for all of them.  Writes the jobs
 * (queued now or before) to jobs[0 .. n) when jobs is not NULL and returns n, or 0 when
 * none is queued (no pool, or the rows are computed already). */
#define CALC_VALIDATE_JOBS 4
int calc_validate_prefetch(const struct calc_job **jobs);

#endif
