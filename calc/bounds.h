/*
 * bounds.h -- the sizes of the library's fixed arrays that more than one module's
 * structs use (names, paths, pipeline stages, the layout string).
 */
#ifndef CALC_BOUNDS_H
#define CALC_BOUNDS_H

#define CALC_MAX_STAGES 256 /* pipeline stages (pp * vpp chunks is bounded separately) */
#define CALC_MAX_VSTAGES 256 /* virtual stages pp x v of a layout placed chunk by chunk */
#define CALC_LAYOUT_MAX 512  /* characters of parallel.layout */
#define CALC_NAME_MAX 64
#define CALC_PATH_MAX 512

#endif
