# report/report.mk -- trainplan-report, the figures pipeline and the report (DESIGN.md §2).
#
#   figures/NAME.gp --(trainplan data NAME)--> $(OUT)/data/NAME.tsv
#                   --(gnuplot + figures/style.gp)--> $(OUT)/figures/NAME.svg, NAME.png
#   trainplan table --all --format csv --> $(OUT)/tables/*.csv
#   chapters/*.md --(trainplan-report)--> $(OUT)/report.html, $(OUT)/report.pdf
#
# Every output is written to a temporary file and renamed, so an interrupted build
# leaves no half-written file behind; the rules only name real files, so `make -j2`
# and incremental rebuilds follow the dependencies.

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
.SECONDARY: $(FIG_TSV)
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
$(OUT)/figures/%.svg: figures/%.gp figures/style.gp $(wildcard figures/*.gpi) $(OUT)/data/%.tsv
	@mkdir -p $(dir $@)
	$(call GNUPLOT_RUN,svg)
$(OUT)/figures/%.png: figures/%.gp figures/style.gp $(wildcard figures/*.gpi) $(OUT)/data/%.tsv
	@mkdir -p $(dir $@)
	$(call GNUPLOT_RUN,png)

# The publishable tables, one CSV per catalog table.
$(TABLES_STAMP): $(BUILD)/trainplan $(PLAN)
	@mkdir -p $(dir $@)
	$(BUILD)/trainplan table --all --format csv --plan $(PLAN) --dir $(OUT)/tables
	@touch $@

# Both files come from one run.
$(OUT)/report.html $(OUT)/report.pdf &: $(BUILD)/trainplan-report $(CHAPTERS) $(PLAN) \
		$(FIG_SVG) $(FIG_PNG) $(TABLES_STAMP)
	$(BUILD)/trainplan-report --plan $(PLAN) -o $(OUT)/report $(CHAPTERS)

# ---------------------------------------------------------------- tests
RPT_UNIT_SRC = $(wildcard tests/report/*.c)
RPT_UNIT_BIN = $(RPT_UNIT_SRC:tests/report/%.c=$(BUILD)/tests/report/%)
RPT_LIB_OBJ  = $(filter-out $(BUILD)/report/main.o,$(REPORT_OBJ))

$(BUILD)/tests/report/%: tests/report/%.c $(RPT_LIB_OBJ) $(BUILD)/libcalc.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(DEPS_CFLAGS) -Icalc -Ireport -o $@ $< $(RPT_LIB_OBJ) $(BUILD)/libcalc.a \
		$$(pkg-config --libs cmocka) $(REPORT_LIBS) $(DEPS_LIBS)

# A second plan: the same report must come out with other numbers.
PLAN_B   = tests/report/plan-b.ini
OUT_B    = $(BUILD)/report-b

.PHONY: check-report-unit check-expand check-lint check-html check-two-plans
check-report-unit: $(RPT_UNIT_BIN)
	@sh tests/run-unit.sh $(RPT_UNIT_BIN)

check-expand: $(BUILD)/trainplan-report
	@sh tests/report/run-expand.sh $(BUILD)/trainplan-report $(UPDATE)

check-lint: $(BUILD)/trainplan-report
	@sh tests/report/run-lint.sh $(BUILD)/trainplan-report $(UPDATE)

check-html: $(OUT)/report.html
	@sh tests/report/check-html.sh $(OUT)/report.html

check-two-plans: $(OUT)/report.html
	@$(MAKE) --no-print-directory -s PLAN=$(PLAN_B) OUT=$(OUT_B) $(OUT_B)/report.html
	@sh tests/report/check-html.sh $(OUT_B)/report.html
	@sh tests/report/check-two-plans.sh $(OUT)/report.html $(OUT_B)/report.html

# The report's unit tests and trainplan-report itself under AddressSanitizer + UBSan
# (ASAN_FLAGS and the $(BUILD)/asan/%.o rule come from tests/tests.mk): the unit
# tests, the chapters through the HTML renderer, and every expansion golden.
RPT_ASAN        = $(BUILD)/asan
RPT_ASAN_OBJ    = $(RPT_LIB_OBJ:$(BUILD)/%=$(RPT_ASAN)/%)
RPT_ASAN_UNIT   = $(RPT_UNIT_SRC:tests/report/%.c=$(RPT_ASAN)/tests/report/%)
$(RPT_ASAN)/tests/report/%: tests/report/%.c $(RPT_ASAN_OBJ) $(RPT_ASAN)/libcalc.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(ASAN_FLAGS) $(DEPS_CFLAGS) -Icalc -Ireport -o $@ $< $(RPT_ASAN_OBJ) $(RPT_ASAN)/libcalc.a \
		$$(pkg-config --libs cmocka) $(REPORT_LIBS) $(DEPS_LIBS)
$(RPT_ASAN)/trainplan-report: $(RPT_ASAN_OBJ) $(RPT_ASAN)/report/main.o $(RPT_ASAN)/libcalc.a
	$(CC) $(ASAN_FLAGS) -o $@ $(RPT_ASAN_OBJ) $(RPT_ASAN)/report/main.o $(RPT_ASAN)/libcalc.a $(REPORT_LIBS) $(DEPS_LIBS)

.PHONY: check-report-asan
check-report-asan: $(RPT_ASAN_UNIT) $(RPT_ASAN)/trainplan-report $(FIG_SVG) $(TABLES_STAMP)
	@echo "report under AddressSanitizer + UBSan:"
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 sh tests/run-unit.sh $(RPT_ASAN_UNIT)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 $(RPT_ASAN)/trainplan-report --plan $(PLAN) --no-pdf \
		-o $(RPT_ASAN)/report --out-dir $(OUT) $(CHAPTERS) && echo "asan: the chapters render"
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 sh tests/report/run-expand.sh $(RPT_ASAN)/trainplan-report

CHECKS += check-report-unit check-expand check-lint check-html check-two-plans check-report-asan
