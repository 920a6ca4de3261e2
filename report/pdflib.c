/*
 * pdflib.c -- libharu opened when a PDF is first drawn, and the table of its functions
 * that pdf.c and svgpdf.c call through (pdflib.h says why).  No formulas here.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#define RPT_PDFLIB_TABLE
#include "pdflib.h"
#include "../calc/diag.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The SONAME of the libharu the report was built against (report/report.mk); the
 * development link name where it was not given. */
#ifndef RPT_HPDF_SONAME
#define RPT_HPDF_SONAME "libhpdf.so"
#endif

const struct rpt_hpdf *rpt_hpdf_table;
static struct rpt_hpdf table;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char why[512]; /* why the load failed */

/* Every function of the table from handle h; 0, or -1 (why[] set) when one is missing. */
static int fill(void *h, const char *lib)
{
	void *f;
#define RPT_HPDF_SYM(name)                                                                   \
	if (!(f = dlsym(h, #name))) {                                                            \
		snprintf(why, sizeof why, "%s has no function %s", lib, #name);                      \
		return -1;                                                                           \
	}                                                                                        \
	memcpy(&table.name, &f, sizeof f); /* a function's address from dlsym (POSIX dlsym(3)) */
	RPT_HPDF_FUNCS(RPT_HPDF_SYM)
#undef RPT_HPDF_SYM
	return 0;
}

static void load(void)
{
	/* a program linked with libharu (the layout tests) uses the copy it has */
	if (dlsym(RTLD_DEFAULT, "HPDF_New") && fill(RTLD_DEFAULT, "the program") == 0) {
		__atomic_store_n(&rpt_hpdf_table, &table, __ATOMIC_RELEASE);
		return;
	}
	void *h = dlopen(RPT_HPDF_SONAME, RTLD_LAZY | RTLD_LOCAL);
	const char *lib = RPT_HPDF_SONAME;
	if (!h && strcmp(lib, "libhpdf.so") != 0) {
		h = dlopen("libhpdf.so", RTLD_LAZY | RTLD_LOCAL);
		lib = "libhpdf.so";
	}
	if (!h) {
		const char *e = dlerror();
		snprintf(why, sizeof why, "%s", e ? e : RPT_HPDF_SONAME);
		return;
	}
	if (fill(h, lib) == 0)
		__atomic_store_n(&rpt_hpdf_table, &table, __ATOMIC_RELEASE);
}

const struct rpt_hpdf *rpt_hpdf_open(void)
{
	pthread_once(&once, load);
	return __atomic_load_n(&rpt_hpdf_table, __ATOMIC_ACQUIRE);
}

int rpt_hpdf_load(const char *file, struct calc_diag *d)
{
	if (rpt_hpdf_open())
		return 0;
	return calc_error(d, file, 0, "cannot load libharu, which draws the PDF: %s (install libharu, or use --no-pdf)",
	                  why);
}
