/*
 * calc.h -- the trainplan calculation library: the module headers of its plan, its parts
 * and its catalog in one include (docs/architecture.md §1 names the header of each module).
 *
 * Plain structs in, plain structs out.  Units are SI base units everywhere inside
 * the library (bytes, seconds, FLOP, bytes/s, FLOP/s); the unit of every field is in
 * its comment.  The library never prints to the terminal and never exits (except
 * xmalloc on out-of-memory): a function that fails returns -1 after adding a
 * diagnostic "file:line: error: message" to a struct calc_diag, which the caller
 * prints.  Functions that take a FILE * write only to the stream they are handed.
 *
 * Ownership: every pointer a function returns inside a struct is owned by that
 * struct and released by the matching *_free function; nothing else allocates.
 */
#ifndef CALC_H
#define CALC_H

#include <stddef.h>
#include <stdio.h>

/* The module headers, each the owner of its module's API (docs/architecture.md §1).
 * Files outside calc/ include this one; a file in calc/ includes the headers it needs.
 * The headers of the engines (pipeline.h, comm.h, gemm_table.h, step.h,
 * search.h, run.h, calibrate.h) are included by name. */
#include "bounds.h"
#include "diag.h"
#include "units.h"
#include "model.h"
#include "presets.h"
#include "recipe.h"
#include "stacks.h"
#include "plan.h"
#include "variant.h"
#include "memory.h"
#include "table.h"
#include "pool.h"
#include "validate.h"
#include "catalog.h"
#include "schedules.h"

#endif
