# report/report.mk -- trainplan-report, the figures pipeline and the report (docs/architecture.md §2).
#
#   figures/NAME.gp --(trainplan data NAME)--> $(OUT)/data/NAME.tsv
#                   --(gnuplot + figures/style.gp)--> $(OUT)/figures/NAME.svg
#   (the HTML inlines the SVG and the PDF draws it as vectors, report/svgpdf.c; a PNG of
#   the same chart is one `make $(OUT)/figures/NAME.png` away)
#   trainplan table --all --format csv --> $(OUT)/tables/*.csv
#   chapters/*.md --(trainplan-report)--> $(OUT)/report.html, $(OUT)/report.pdf
#
# Every output is written to a temporary file and renamed, so an interrupted build
# leaves no half-written file behind; the rules only name real files, so `make -j2`
# and incremental rebuilds follow the dependencies.

# A plain `make` (no goal, or all or report, at the top level, without -j) runs two jobs
# at a time: the figures are ~30 short gnuplot and `trainplan data` processes, and two of
# them at once take a clean build of the report from 3-4 s to about 2 s on two cores.
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
REPORT_LIBS = -lcmark-gfm-extensions -lcmark-gfm -lhpdf -lpng -lz -lm

$(BUILD)/trainplan-report: $(REPORT_OBJ) $(BUILD)/libcalc.a
	$(CC) $(CFLAGS) -o $@ $(REPORT_OBJ) $(BUILD)/libcalc.a $(REPORT_LIBS) $(DEPS_LIBS)

CHAPTERS  = $(sort $(wildcard chapters/*.md))
FIGURES   = $(filter-out style,$(patsubst figures/%.gp,%,$(wildcard figures/*.gp)))
FIG_SVG   = $(FIGURES:%=$(OUT)/figures/%.svg)
FIG_PNG   = $(FIGURES:%=$(OUT)/figures/%.png)
FIG_TSV   = $(FIGURES:%=$(OUT)/data/%.tsv)
.SECONDARY: $(FIG_TSV) $(OUT)/data/plan-marks.tsv
TABLES_STAMP = $(OUT)/tables/.done

REPORT_OUT += $(OUT)/report.html $(OUT)/report.pdf
report: $(OUT)/report.html $(OUT)/report.pdf

# One dataset per figure, in SI units (gnuplot scales for display).
$(OUT)/data/%.tsv: $(BUILD)/trainplan $(PLAN)
	@mkdir -p $(dir $@)
	$(BUILD)/trainplan data $* --plan $(PLAN) > $@.tmp && mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }

# gnuplot reads figures/style.gp (fonts, colours, grid, terminal) then the figure.
GNUPLOT_RUN = gnuplot -e "datafile='$(OUT)/data/$*.tsv'; outfile='$@.tmp'; device='$(1)'" \
	figures/style.gp figures/$*.gp && mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }
# Every chart may mark the plan and the planner's pick: style.gp reads them from
# data/plan-marks.tsv beside the chart's dataset (`trainplan data plan-marks`).
$(OUT)/figures/%.svg: figures/%.gp figures/style.gp $(wildcard figures/*.gpi) $(OUT)/data/%.tsv \
		$(OUT)/data/plan-marks.tsv
	@mkdir -p $(dir $@)
	$(call GNUPLOT_RUN,svg)
$(OUT)/figures/%.png: figures/%.gp figures/style.gp $(wildcard figures/*.gpi) $(OUT)/data/%.tsv \
		$(OUT)/data/plan-marks.tsv
	@mkdir -p $(dir $@)
	$(call GNUPLOT_RUN,png)

# The publishable tables, one CSV per catalog table.
$(TABLES_STAMP): $(BUILD)/trainplan $(PLAN)
	@mkdir -p $(dir $@)
	$(BUILD)/trainplan table --all --format csv --plan $(PLAN) --dir $(OUT)/tables
	@touch $@

# Both files come from one run.
$(OUT)/report.html $(OUT)/report.pdf &: $(BUILD)/trainplan-report $(CHAPTERS) $(PLAN) \
		$(FIG_SVG) $(TABLES_STAMP)
	$(BUILD)/trainplan-report --plan $(PLAN) -o $(OUT)/report $(CHAPTERS)

# Plans side by side: make compare PLANS="plans/a.ini plans/b.ini" writes
# output/compare/compare.html and .pdf (cli/compare_doc.c, figures/compare/*.gp).
PLANS ?= plans/default.ini plans/llama2-70b-a100.ini plans/llama3-405b-h100.ini plans/deepseek-v3-h800.ini
.PHONY: compare
compare: $(BUILD)/trainplan $(BUILD)/trainplan-report
	$(BUILD)/trainplan report --compare $(PLANS) -o output/compare

# The tests of trainplan-report and of the report are in tests/report.mk.
