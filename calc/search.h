/*
 * search.h -- public interface of search.c.  Included by calc.h.
 */
#ifndef CALC_SEARCH_H
#define CALC_SEARCH_H

#endif
