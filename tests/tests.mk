# tests/tests.mk -- unit tests (cmocka), CLI goldens, bad-input corpus, sanitizers.
# Each tests/calc/NAME.c is one cmocka program linked with the calc library.
# `make check UPDATE=1` rewrites the goldens; review the diff like code.

# The test programs themselves compile without optimisation and with line tables only
# (-O0 -g1: a third of the time of -O2 -g for tests/calc/step.c); the library they test
# is the one built with CFLAGS.  Other flags of CFLAGS (a target, a sysroot) carry over.
TEST_CFLAGS ?= $(filter-out -O% -g%,$(CFLAGS)) -O0 -g1

UNIT_SRC  = $(wildcard tests/calc/*.c)
UNIT_BIN  = $(UNIT_SRC:tests/calc/%.c=$(BUILD)/tests/%)
ASAN_DIR  = $(BUILD)/asan
# -g1: the line tables, so that a sanitizer's report names each frame's function, file and
# line, without the descriptions of local variables (-g), which take a third of the
# compile time of an instrumented object; build with ASAN_FLAGS='... -g' to debug one.
ASAN_FLAGS = -O1 -g1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# The test programs themselves (tests/calc, tests/report, the layout driver) under a
# sanitizer compile at -O0, as TEST_CFLAGS does: half the compile time of -O1 for
# tests/calc/*.c, and the library they test keeps the sanitizer's -O1.
ASAN_TEST_FLAGS = $(filter-out -O%,$(ASAN_FLAGS)) -O0
ASAN_LIB_OBJ = $(CALC_LIB_SRC:%.c=$(ASAN_DIR)/%.o)
ASAN_UNIT_BIN = $(UNIT_SRC:tests/calc/%.c=$(ASAN_DIR)/tests/%)

$(BUILD)/tests/%: tests/calc/%.c $(BUILD)/libcalc.a tests/calc/testutil.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(TEST_CFLAGS) $(DEPS_CFLAGS) -Icalc -o $@ $< $(BUILD)/libcalc.a $$(pkg-config --libs cmocka) $(DEPS_LIBS)

# tests/calc/titan_py.c compiles the reader of torchtitan's Python configuration into itself
$(BUILD)/tests/titan_py $(ASAN_DIR)/tests/titan_py: cli/import_titan_py.c cli/import_titan_py.h

$(ASAN_DIR)/%.o: %.c | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(ASAN_FLAGS) $(DEPS_CFLAGS) -I$(BUILD) -MMD -MP -c -o $@ $<
$(ASAN_DIR)/calc/plan.o: $(BUILD)/default_plan.h
# the bands table the build embeds (Makefile, band_table.h): without it the sanitizer
# builds' calc_validate_band_built has no table and tests/calc/step.c skips its check
$(ASAN_DIR)/calc/validate.o: $(BUILD)/band_table.h
$(ASAN_DIR)/libcalc.a: $(ASAN_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^
$(ASAN_DIR)/tests/%: tests/calc/%.c $(ASAN_DIR)/libcalc.a tests/calc/testutil.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(ASAN_TEST_FLAGS) $(DEPS_CFLAGS) -Icalc -o $@ $< $(ASAN_DIR)/libcalc.a $$(pkg-config --libs cmocka) $(DEPS_LIBS)

# Each test program runs as a target of its own (a phony one, so that every check runs
# it again), so that make -j runs them side by side with the other groups, the longest
# (tests/calc/search.c, 29 of the unit tests' 30 CPU-seconds, and over ten times that
# under ASan, whose memmove, which the planner's top list calls, copies byte by byte) first; tests/run-unit.sh --one keeps each one's counts in RUNS_DIR/GROUP and --sum prints
# the failures and the group's closing line.
# Under ASan, tests/calc/search.c runs as two processes side by side: its longest test
# (UNIT_SLOW_TEST, over half of the program's time) alone, and the others (UNIT_TESTS and
# UNIT_SKIP, tests/calc/testutil.h).
RUNS_DIR   = $(BUILD)/runs
UNIT_SLOW  = search
UNIT_SLOW_TEST = test_pick_band
unit_order = $(filter $(UNIT_SLOW:%=\%/%),$(1)) $(filter-out $(UNIT_SLOW:%=\%/%),$(1))
UNIT_RUNS  = $(call unit_order,$(UNIT_BIN:$(BUILD)/tests/%=run-unit/%))
ASAN_RUNS  = $(if $(filter %/search,$(ASAN_UNIT_BIN)),run-asan/search.1 run-asan/search.2) \
             $(filter-out run-asan/search,$(ASAN_UNIT_BIN:$(ASAN_DIR)/tests/%=run-asan/%))
ASAN_RUN_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
.PHONY: $(UNIT_RUNS) $(ASAN_RUNS)
$(UNIT_RUNS): run-unit/%: $(BUILD)/tests/%
	@sh tests/run-unit.sh --one $(RUNS_DIR)/unit $<
$(filter-out run-asan/search.%,$(ASAN_RUNS)): run-asan/%: $(ASAN_DIR)/tests/%
	@$(ASAN_RUN_ENV) sh tests/run-unit.sh --one $(RUNS_DIR)/asan $<
run-asan/search.1: $(ASAN_DIR)/tests/search
	@UNIT_TESTS=$(UNIT_SLOW_TEST) $(ASAN_RUN_ENV) sh tests/run-unit.sh --one $(RUNS_DIR)/asan $< 1
run-asan/search.2: $(ASAN_DIR)/tests/search
	@UNIT_SKIP=$(UNIT_SLOW_TEST) $(ASAN_RUN_ENV) sh tests/run-unit.sh --one $(RUNS_DIR)/asan $< 2

.PHONY: check-unit check-cli check-bad check-asan
check-unit: $(UNIT_RUNS)
	@sh tests/run-unit.sh --sum $(RUNS_DIR)/unit $(UNIT_BIN)

check-cli: $(BUILD)/trainplan
	@sh tests/run-cli.sh $(BUILD)/trainplan $(UPDATE)

check-bad: $(BUILD)/trainplan
	@sh tests/run-bad.sh $(BUILD)/trainplan $(UPDATE)

check-asan: $(ASAN_RUNS)
	@echo "unit tests under AddressSanitizer + UBSan:"
	@sh tests/run-unit.sh --sum $(RUNS_DIR)/asan $(ASAN_UNIT_BIN)

CHECKS += check-unit check-cli check-bad check-asan

# The library's threads under ThreadSanitizer: the texts built when first asked for
# (tests/calc/threads.c), the pool and what is queued on it (tests/calc/pool.c) and the
# catalog's index built by racing lookups (tests/calc/catalog.c).  A data race fails
# the test program (TSan's exit status 66).
TSAN_DIR      = $(BUILD)/tsan
TSAN_FLAGS    = -O1 -g1 -fsanitize=thread
TSAN_TEST_FLAGS = $(filter-out -O%,$(TSAN_FLAGS)) -O0
TSAN_LIB_OBJ  = $(CALC_LIB_SRC:%.c=$(TSAN_DIR)/%.o)
TSAN_UNIT_BIN = $(TSAN_DIR)/tests/threads $(TSAN_DIR)/tests/pool $(TSAN_DIR)/tests/catalog

$(TSAN_DIR)/%.o: %.c | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(TSAN_FLAGS) $(DEPS_CFLAGS) -I$(BUILD) -MMD -MP -c -o $@ $<
$(TSAN_DIR)/calc/plan.o: $(BUILD)/default_plan.h
$(TSAN_DIR)/calc/validate.o: $(BUILD)/band_table.h
$(TSAN_DIR)/libcalc.a: $(TSAN_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^
$(TSAN_DIR)/tests/%: tests/calc/%.c $(TSAN_DIR)/libcalc.a tests/calc/testutil.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(TSAN_TEST_FLAGS) $(DEPS_CFLAGS) -Icalc -o $@ $< $(TSAN_DIR)/libcalc.a $$(pkg-config --libs cmocka) $(DEPS_LIBS)

.PHONY: check-tsan
check-tsan: $(TSAN_UNIT_BIN)
	@echo "unit tests of the library's threads under ThreadSanitizer:"
	@TSAN_OPTIONS=halt_on_error=1 sh tests/run-unit.sh $(TSAN_UNIT_BIN)

CHECKS += check-tsan

# No two source files call or include each other in a loop (docs/architecture.md §1):
# tests/check-loops.sh reads the objects' symbols (nm) and the #include lines.
.PHONY: check-loops
check-loops: $(BUILD)/trainplan $(BUILD)/trainplan-report
	@sh tests/check-loops.sh $(BUILD)

CHECKS += check-loops

# Every JSON output has one envelope (README "Machine-readable output"): each command
# with --format json through tests/cli/json-check, a jansson program.
$(BUILD)/tests/json-check: tests/cli/json-check.c | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(DEPS_CFLAGS) -o $@ $< $(DEPS_LIBS)

.PHONY: check-json
check-json: $(BUILD)/trainplan $(BUILD)/tests/json-check
	@sh tests/cli/json-check.sh $(BUILD)/trainplan $(BUILD)/tests/json-check

CHECKS += check-json

# check-diag-ids  the message kinds of calc/diag.c: each raised by a source and expected
#                 by a test, the goldens show the ID wherever the scheme gives one (the
#                 plan reader, the expansion, the command line's usage errors, no split
#                 fits), and every command's usage errors carry theirs
#                 (tests/check-diag-ids.sh)
.PHONY: check-diag-ids
check-diag-ids: $(BUILD)/trainplan
	@sh tests/check-diag-ids.sh $(BUILD)/trainplan

CHECKS += check-diag-ids
