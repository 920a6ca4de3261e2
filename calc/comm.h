/*
 * comm.h -- public interface of comm.c.  Included by calc.h.
 */
#ifndef CALC_COMM_H
#define CALC_COMM_H

#endif
