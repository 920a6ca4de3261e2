/*
 * version.h -- the version of trainplan and trainplan-report (--version), one
 * number for both programs and the library they share.
 */
#ifndef CALC_VERSION_H
#define CALC_VERSION_H

#define CALC_VERSION "0.9.0"

#endif
