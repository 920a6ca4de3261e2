/*
 * step.h -- public interface of step.c.  Included by calc.h.
 */
#ifndef CALC_STEP_H
#define CALC_STEP_H

#endif
