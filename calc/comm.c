/*
 * comm.c -- not yet written: the catalog entries of this module are empty.
 */
#include "calc.h"

const struct calc_quantity calc_q_comm[] = {{0}};
const struct calc_tabledef calc_t_comm[] = {{0}};
const struct calc_tabledef calc_d_comm[] = {{0}};
