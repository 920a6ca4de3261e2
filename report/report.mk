# report/report.mk -- trainplan-report and the report (docs/architecture.md §2).
#
# The report has one pipeline, `trainplan report` (cli/cmd_report.c), which make runs
# like anyone else:
#   every catalog dataset (plan-marks among them) --> $(OUT)/data/NAME.tsv, in the
#   trainplan report process from one evaluation context; then in parallel jobs
#   every catalog table, from that context --> $(OUT)/tables/*.csv
#   figures/NAME.gp over $(OUT)/data/NAME.tsv
#                   --(gnuplot + figures/style.gp)--> $(OUT)/figures/NAME.svg
#   then chapters/*.md --(trainplan-report)--> $(OUT)/report.html, $(OUT)/report.pdf
#   (trainplan-report starts first and expands the chapters while the stages above run;
#   it reads the figures once they are all drawn)
#   (the HTML inlines the SVG and the PDF draws it as vectors, report/svgpdf.c; a PNG of
#   the same chart is one `make $(OUT)/figures/NAME.png` away)
#
# Every output is written to a temporary file and renamed, and a failing figure stops
# the pipeline before the chapters (its message names the figure), so an interrupted or
# failed build leaves no half-written file; the rule below names the pipeline's inputs,
# so incremental rebuilds follow them.

# A plain `make` (no goal, or all or report, at the top level, without -j) runs two jobs
# at a time (the compiler; the report's ~30 figure jobs run in parallel inside
# `trainplan report`).
# `make check` (check alone, at the top level, without -j) runs CHECK_JOBS jobs at a time
# (the processors online, at least 2), each test group's output kept together (-Otarget)
# so that its closing "N passed, N failed" line stays whole.  Any -j given, other goals
# and sub-makes keep what they were asked for.
CHECK_JOBS ?= $(shell n=$$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2); [ "$$n" -ge 2 ] 2>/dev/null && echo $$n || echo 2)
ifeq ($(MAKELEVEL)$(filter -j%,$(MAKEFLAGS)),0)
ifeq ($(filter-out all report,$(MAKECMDGOALS)),)
MAKEFLAGS += -j2
else ifeq ($(MAKECMDGOALS),check)
MAKEFLAGS += -j$(CHECK_JOBS) -Otarget
endif
endif

REPORT_SRC  = $(wildcard report/*.c)
REPORT_OBJ  = $(REPORT_SRC:%.c=$(BUILD)/%.o)
REPORT_LIBS = -lcmark-gfm-extensions -lcmark-gfm -lz -lm $(REPORT_DL)

# trainplan-report links the archives of cmark-gfm, its extensions, the plan parsers
# (inih, jansson, libyaml) and zlib where Debian's -dev packages ship them, as trainplan
# links everything (Makefile, STATIC_LINK): only libm and the C library stay shared.
# Fewer files mapped and protected and fewer relocations by the dynamic loader at every
# start (`trainplan-report --version`: 189 -> 166 page faults with five shared
# libraries; docs/architecture.md §11).  libharu, of which Debian ships no archive, is
# not linked: report/pdflib.c opens it (dlopen) when a PDF is first drawn, so that a run
# with --no-pdf loads neither it nor libpng and the shared zlib it needs (`--version`:
# 98 -> 71 page faults, 596,767 -> 165,651 instructions).  Where an archive is missing
# it is linked as before.  Asked only when linking; the probe references one symbol of
# each library.
REPORT_ARCHIVES = -lcmark-gfm-extensions -lcmark-gfm $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lz
REPORT_SHARED   = -lm -lpthread $(REPORT_DL)
REPORT_LINK = $(shell printf 'char cmark_version(void), cmark_gfm_core_extensions_ensure_registered(void), \
              json_object(void), ini_parse(void), yaml_get_version_string(void), zlibVersion(void);\nint main(void){return \
              cmark_version() + cmark_gfm_core_extensions_ensure_registered() + json_object() + ini_parse() + \
              yaml_get_version_string() + zlibVersion();}\n' | $(CC) -x c -o $(BUILD)/.report-probe - -Wl,-Bstatic \
              $(REPORT_ARCHIVES) -Wl,-Bdynamic $(REPORT_SHARED) >/dev/null 2>&1 && \
              echo '-Wl,-Bstatic $(REPORT_ARCHIVES) -Wl,-Bdynamic $(REPORT_SHARED)' || \
              echo '$(REPORT_LIBS) $(DEPS_LIBS)'; rm -f $(BUILD)/.report-probe)
# dlopen is in the C library from glibc 2.34, in libdl before
REPORT_DL = $(shell printf '\043include <dlfcn.h>\nint main(void){return dlopen("x", 0) != 0;}\n' | \
            $(CC) -x c -o $(BUILD)/.report-dl-probe - >/dev/null 2>&1 || echo -ldl; rm -f $(BUILD)/.report-dl-probe)
# the SONAME of the libharu found when building, which pdflib.c opens
HPDF_SONAME = $(shell readelf -d "$$($(CC) -print-file-name=libhpdf.so)" 2>/dev/null | \
              sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
$(BUILD)/report/pdflib.o: CFLAGS += $(if $(HPDF_SONAME),-DRPT_HPDF_SONAME='"$(HPDF_SONAME)"')

# It is linked as a position-dependent executable where the compiler can (-no-pie, as
# trainplan's -static is): the 7,038 relative relocations of a PIE's tables (the
# catalog, the presets, the validation rows: pointers to strings and functions) are
# then resolved by the linker, not by the loader at every start in 27 pages it copies
# (`trainplan-report --version`: 123 -> 99 page faults, 691,478 -> 596,767
# instructions; docs/architecture.md §11).
REPORT_NO_PIE = $(shell printf 'int main(void){return 0;}\n' | $(CC) -no-pie -x c -o $(BUILD)/.report-pie-probe - \
                >/dev/null 2>&1 && echo -no-pie; rm -f $(BUILD)/.report-pie-probe)

$(BUILD)/trainplan-report: $(REPORT_OBJ) $(BUILD)/libcalc.a
	$(CC) $(CFLAGS) $(REPORT_NO_PIE) -o $@ $(REPORT_OBJ) $(BUILD)/libcalc.a $(REPORT_LINK)

CHAPTERS  = $(sort $(wildcard chapters/*.md))
FIGURES   = $(filter-out style,$(patsubst figures/%.gp,%,$(wildcard figures/*.gp)))
FIG_SVG   = $(FIGURES:%=$(OUT)/figures/%.svg)

REPORT_OUT += $(OUT)/report.html $(OUT)/report.pdf
report: $(OUT)/report.html $(OUT)/report.pdf

# The whole report from one run of its pipeline: the figures' datasets and charts and
# the tables (in parallel, as many jobs as processors online; REPORT_JOBS sets another
# number), then both report files.  The figures' SVGs, datasets and tables are its
# outputs too: a rule that reads them depends on $(OUT)/report.html.
REPORT_JOBS ?=
$(OUT)/report.html $(OUT)/report.pdf &: $(BUILD)/trainplan $(BUILD)/trainplan-report $(CHAPTERS) $(PLAN) \
		$(wildcard figures/*.gp figures/*.gpi)
	$(BUILD)/trainplan report --plan $(PLAN) -o $(OUT) --share . $(if $(REPORT_JOBS),--jobs $(REPORT_JOBS)) >/dev/null

# A PNG of one chart (not part of the report, which draws the SVG): gnuplot over the
# dataset the pipeline wrote.
$(OUT)/figures/%.png: figures/%.gp figures/style.gp $(wildcard figures/*.gpi) $(OUT)/report.html
	gnuplot -e "datafile='$(OUT)/data/$*.tsv'; outfile='$@.tmp'; device='png'" \
		figures/style.gp figures/$*.gp && mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }

# Plans side by side: make compare PLANS="plans/a.ini plans/b.ini" writes
# output/compare/compare.html and .pdf (cli/compare_doc.c, figures/compare/*.gp).
PLANS ?= plans/default.ini plans/llama2-70b-a100.ini plans/llama3-405b-h100.ini plans/deepseek-v3-h800.ini
.PHONY: compare
compare: $(BUILD)/trainplan $(BUILD)/trainplan-report
	$(BUILD)/trainplan report --compare $(PLANS) -o output/compare

# The tests of trainplan-report and of the report are in tests/report.mk.
