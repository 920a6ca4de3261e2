/*
 * step.c -- not yet written: the catalog entries of this module are empty.
 */
#include "calc.h"

const struct calc_quantity calc_q_step[] = {{0}};
const struct calc_tabledef calc_t_step[] = {{0}};
const struct calc_tabledef calc_d_step[] = {{0}};
