# tests/report.mk -- tests of trainplan-report and of the report it writes
# (docs/architecture.md §6-§8; how they are built: report/report.mk).
#
#   check-report-unit  cmocka unit tests of the report's modules (tests/report/*.c)
#   check-expand       expansion goldens: tests/expand/NAME.md -> NAME.out (UPDATE=1 rewrites)
#   check-lint         the lint's goldens (tests/report/lint/; UPDATE=1 rewrites)
#   check-html         report.html of PLAN passes tidy and holds what it must
#   check-two-plans    the same chapters with a second plan (tests/report/plans/mi300x.ini,
#                      whose report check-plans builds) give a valid report with other numbers
#   check-report-asan  the unit tests, the chapters through the HTML renderer and every
#                      expansion golden under AddressSanitizer + UBSan
#   check-threads      the report on one and on two threads: the same HTML, the same
#                      messages after errors
#   check-cache        the planner's results kept between runs (report/cache.c): the
#                      same report from the cache, nothing searched twice, a stale or
#                      broken file ignored
#   check-numbers      no ungrouped number of 5+ digits, no predicted quantity with its unit
#                      in more than four significant digits, in the expanded chapters (§9.20)

RPT_UNIT_SRC = $(wildcard tests/report/*.c)
RPT_UNIT_BIN = $(RPT_UNIT_SRC:tests/report/%.c=$(BUILD)/tests/report/%)
RPT_LIB_OBJ  = $(filter-out $(BUILD)/report/main.o,$(REPORT_OBJ))

$(BUILD)/tests/report/%: tests/report/%.c $(RPT_LIB_OBJ) $(BUILD)/libcalc.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(TEST_CFLAGS) $(DEPS_CFLAGS) -Icalc -Ireport -o $@ $< $(RPT_LIB_OBJ) $(BUILD)/libcalc.a \
		$$(pkg-config --libs cmocka) $(REPORT_LIBS) $(DEPS_LIBS)

# A second plan: the same report must come out with other numbers.  Its report is the
# one check-plans builds for tests/report/plans/mi300x.ini (tests/plans.mk), read here
# rather than built a second time.
PLAN_B_NAME = mi300x
OUT_B       = $(BUILD)/plans/$(PLAN_B_NAME)

.PHONY: check-report-unit check-expand check-lint check-html check-two-plans
check-report-unit: $(RPT_UNIT_BIN)
	@sh tests/run-unit.sh $(RPT_UNIT_BIN)

check-expand: $(BUILD)/trainplan-report
	@sh tests/report/run-expand.sh $(BUILD)/trainplan-report $(UPDATE)

check-lint: $(BUILD)/trainplan-report
	@sh tests/report/run-lint.sh $(BUILD)/trainplan-report $(UPDATE)

check-html: $(OUT)/report.html
	@sh tests/report/check-html.sh $(OUT)/report.html

check-two-plans: $(OUT)/report.html $(OUT_B)/.ok
	@[ -f $(OUT_B)/.ok ] || { echo "FAIL: the report of tests/report/plans/$(PLAN_B_NAME).ini did not build (check-plans)" >&2; exit 1; }
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
	$(CC) $(WARN) $(ASAN_TEST_FLAGS) $(DEPS_CFLAGS) -Icalc -Ireport -o $@ $< $(RPT_ASAN_OBJ) $(RPT_ASAN)/libcalc.a \
		$$(pkg-config --libs cmocka) $(REPORT_LIBS) $(DEPS_LIBS)
$(RPT_ASAN)/trainplan-report: $(RPT_ASAN_OBJ) $(RPT_ASAN)/report/main.o $(RPT_ASAN)/libcalc.a
	$(CC) $(ASAN_FLAGS) -o $@ $(RPT_ASAN_OBJ) $(RPT_ASAN)/report/main.o $(RPT_ASAN)/libcalc.a $(REPORT_LIBS) $(DEPS_LIBS)

.PHONY: check-report-asan
check-report-asan: $(RPT_ASAN_UNIT) $(RPT_ASAN)/trainplan-report $(OUT)/report.html
	@echo "report under AddressSanitizer + UBSan:"
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 sh tests/run-unit.sh $(RPT_ASAN_UNIT)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 $(RPT_ASAN)/trainplan-report --plan $(PLAN) --no-pdf --no-cache \
		-o $(RPT_ASAN)/report --out-dir $(OUT) $(CHAPTERS) && echo "asan: the chapters render"
	@rm -rf $(RPT_ASAN)/cache && mkdir -p $(RPT_ASAN)/cache && cp -R $(OUT)/figures $(RPT_ASAN)/cache/ && \
	for i in 1 2; do ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 $(RPT_ASAN)/trainplan-report --plan $(PLAN) \
		--no-pdf -o $(RPT_ASAN)/cache/report --out-dir $(RPT_ASAN)/cache $(CHAPTERS) || exit 1; done && \
	echo "asan: the chapters render, their searches stored and read back (search-cache)"
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 sh tests/report/run-expand.sh $(RPT_ASAN)/trainplan-report

# The report on one and on two threads: the same HTML, the same messages after errors.
.PHONY: check-threads
check-threads: $(BUILD)/trainplan-report $(OUT)/report.html
	@sh tests/report/check-threads.sh $(BUILD)/trainplan-report $(PLAN) $(OUT) $(BUILD)/threads $(CHAPTERS)

# The planner's results kept between runs: the same report, read from the cache.
.PHONY: check-cache
check-cache: $(BUILD)/trainplan-report $(OUT)/report.html
	@sh tests/report/check-cache.sh $(BUILD)/trainplan-report $(PLAN) $(OUT) $(BUILD)/cache-check $(CHAPTERS)

# Statements the report must or must not make for a given plan (tests/report/claims/).
.PHONY: check-claims
check-claims: $(BUILD)/trainplan-report $(EXPANDED)
	@sh tests/report/check-claims.sh $(BUILD)/trainplan-report $(EXPANDED_DIR)

CHECKS += check-report-unit check-expand check-lint check-html check-two-plans check-report-asan
# The reader's rounding in every shipped plan's expanded chapters: no ungrouped number of
# five or more digits outside code, links and citations (docs/references.md §9.20), and
# the cover of the 16,384-GPU plan with its count grouped.
.PHONY: check-numbers
check-numbers: $(BUILD)/trainplan-report $(EXPANDED)
	@sh tests/report/check-numbers.sh --cover $(BUILD)/trainplan-report plans/llama3-405b-h100.ini $(EXPANDED)

CHECKS += check-claims check-threads check-cache check-numbers

# validation.band (the headline times' uncertainty band) against awk over the rows.
.PHONY: check-band
check-band: $(BUILD)/trainplan
	@sh tests/check-band.sh $(BUILD)/trainplan
CHECKS += check-band

# The report's command for the recommendation's launch flags runs (trainplan export).
.PHONY: check-pick-export
check-pick-export: $(BUILD)/trainplan-report $(BUILD)/trainplan $(EXPANDED)
	@sh tests/report/check-pick-export.sh $(BUILD)/trainplan-report $(BUILD)/trainplan $(EXPANDED_DIR)
CHECKS += check-pick-export
