# tests/fuzz.mk -- libFuzzer harnesses (tests/fuzz/NAME.c), built with clang under ASan + UBSan.
#
#   make fuzz                    every harness for FUZZ_SECONDS (60) each
#   make fuzz FUZZ=plan FUZZ_SECONDS=600
#   make fuzz-build              only build them: $(BUILD)/fuzz/NAME
#   make check-fuzz-seeds        (part of make check, any compiler) every seed through
#                                its harness once, without libFuzzer (tests/fuzz/replay.c)
#
# tests/fuzz/NAME.dict, when present, lists the words of the input language (plan keys,
# catalog names) so that the fuzzer reaches past the "unknown key" messages.
# Only these targets need clang (Debian: clang libclang-rt-14-dev); `make` and
# `make check` do not.  Each harness starts from the seeds in tests/fuzz/corpus/NAME/ and
# keeps what it finds in $(BUILD)/fuzz/corpus/NAME/, and also reads the inputs of the
# project's own tests (FUZZ_SEEDS_NAME: tests/bad for the plan and config.json readers,
# tests/expand for the chapter readers); inputs go up to FUZZ_MAX_LEN (1 MB); a crash, leak, sanitizer report,
# timeout or excessive memory stops the run with the input in $(BUILD)/fuzz/artifacts/.
# Copy a reproducer into tests/fuzz/corpus/NAME/ once the bug is fixed, and add a test.

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_ALL      = number plan quantities hfconfig expr doc pdf import calibrate export
FUZZ_MAX_LEN ?= 1048576
FUZZ_SEEDS_plan     = tests/bad
FUZZ_SEEDS_hfconfig = tests/bad
FUZZ_SEEDS_doc      = tests/expand
FUZZ_SEEDS_pdf      = tests/expand tests/fuzz/corpus/doc
FUZZ_SEEDS_import   = tests/bad tests/import/megatron tests/import/torchtitan tests/import/deepspeed tests/import/nemo
FUZZ_SEEDS_calibrate = tests/cli
FUZZ_SEEDS_export   = tests/fuzz/corpus/plan
FUZZ         ?= $(FUZZ_ALL)
FUZZ_DIR      = $(BUILD)/fuzz
FUZZ_FLAGS    = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
                -fno-sanitize-recover=undefined
FUZZ_CALC_OBJ   = $(CALC_LIB_SRC:%.c=$(FUZZ_DIR)/%.o)
FUZZ_REPORT_OBJ = $(filter-out $(FUZZ_DIR)/report/main.o,$(REPORT_SRC:%.c=$(FUZZ_DIR)/%.o))
# the harnesses that read chapters need the report's objects and libraries
FUZZ_WITH_REPORT = expr doc pdf

$(FUZZ_DIR)/calc/%.o: calc/%.c $(BUILD)/default_plan.h | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(DEPS_CFLAGS) -I$(BUILD) -MMD -MP -c -o $@ $<
$(FUZZ_DIR)/report/%.o: report/%.c | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(DEPS_CFLAGS) -Icalc -MMD -MP -c -o $@ $<

$(FUZZ_DIR)/cli/%.o: cli/%.c | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(DEPS_CFLAGS) -MMD -MP -c -o $@ $<
# the export harness runs the command itself: the CLI's objects but main
FUZZ_CLI_OBJ = $(filter-out $(FUZZ_DIR)/cli/main.o,$(CALC_CLI_SRC:%.c=$(FUZZ_DIR)/%.o))
$(FUZZ_DIR)/export: tests/fuzz/export.c tests/fuzz/fuzz.h $(FUZZ_CLI_OBJ) $(FUZZ_CALC_OBJ)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer $(DEPS_CFLAGS) -Icalc -Icli -o $@ $< \
		$(FUZZ_CLI_OBJ) $(FUZZ_CALC_OBJ) $(DEPS_LIBS)

$(FUZZ_DIR)/number $(FUZZ_DIR)/plan $(FUZZ_DIR)/quantities $(FUZZ_DIR)/hfconfig $(FUZZ_DIR)/calibrate: $(FUZZ_DIR)/%: tests/fuzz/%.c \
		tests/fuzz/fuzz.h $(FUZZ_CALC_OBJ)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer $(DEPS_CFLAGS) -Icalc -o $@ $< \
		$(FUZZ_CALC_OBJ) $(DEPS_LIBS)
# the import harness compiles cli/cmd_import.c into itself and needs cli/common.c, and
# cli/help.c with the options table (cli/options.c) its parser walks
$(FUZZ_DIR)/cli/common.o: cli/common.c $(BUILD)/default_plan.h | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(DEPS_CFLAGS) -I$(BUILD) -MMD -MP -c -o $@ $<
$(FUZZ_DIR)/cli/help.o: cli/help.c | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(DEPS_CFLAGS) -I$(BUILD) -MMD -MP -c -o $@ $<
$(FUZZ_DIR)/import: tests/fuzz/import.c tests/fuzz/fuzz.h cli/cmd_import.c $(FUZZ_DIR)/cli/common.o \
		$(FUZZ_DIR)/cli/help.o $(FUZZ_DIR)/cli/options.o $(FUZZ_CALC_OBJ)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer $(DEPS_CFLAGS) -Icalc -I$(BUILD) -o $@ $< \
		$(FUZZ_DIR)/cli/common.o $(FUZZ_DIR)/cli/help.o $(FUZZ_DIR)/cli/options.o $(FUZZ_CALC_OBJ) $(DEPS_LIBS)
$(FUZZ_WITH_REPORT:%=$(FUZZ_DIR)/%): $(FUZZ_DIR)/%: tests/fuzz/%.c tests/fuzz/fuzz.h \
		$(FUZZ_CALC_OBJ) $(FUZZ_REPORT_OBJ)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer $(DEPS_CFLAGS) -Icalc -Ireport -o $@ $< \
		$(FUZZ_REPORT_OBJ) $(FUZZ_CALC_OBJ) $(REPORT_LIBS) $(DEPS_LIBS)

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ:%=$(FUZZ_DIR)/%)

# -timeout: one input taking longer than 10 s is a hang; -rss_limit_mb: 2 GB is runaway memory.
fuzz: fuzz-build
	@for h in $(FUZZ); do \
	  mkdir -p $(FUZZ_DIR)/corpus/$$h $(FUZZ_DIR)/artifacts; \
	  echo "fuzz: $$h for $(FUZZ_SECONDS) s"; \
	  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  $(FUZZ_DIR)/$$h -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -max_len=$(FUZZ_MAX_LEN) -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/artifacts/$$h- \
	    $$([ -f tests/fuzz/$$h.dict ] && echo -dict=tests/fuzz/$$h.dict) \
	    $(FUZZ_DIR)/corpus/$$h tests/fuzz/corpus/$$h $$(case $$h in plan|hfconfig) echo tests/bad;; \
	      doc) echo tests/expand;; pdf) echo tests/expand tests/fuzz/corpus/doc;; \
	      import) echo tests/bad tests/import/megatron tests/import/torchtitan tests/import/deepspeed tests/import/nemo;; \
	      calibrate) echo tests/cli;; export) echo tests/fuzz/corpus/plan;; esac) \
	    2>$(FUZZ_DIR)/$$h.log || \
	    { tail -n 60 $(FUZZ_DIR)/$$h.log; exit 1; }; \
	  grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' $(FUZZ_DIR)/$$h.log; \
	done

# The seeds as a regression test of make check: each harness linked with
# tests/fuzz/replay.c instead of libFuzzer (gcc is enough), every seed once.  The
# harnesses compile as the unit tests do (TEST_CFLAGS, -O0 -g1) and link the library
# and objects built with CFLAGS.
REPLAY_DIR = $(BUILD)/replay
REPLAY_CALC = number plan hfconfig calibrate
REPLAY_REPORT = expr doc pdf
REPLAY_RPT_OBJ = $(filter-out $(BUILD)/report/main.o,$(REPORT_OBJ))
$(REPLAY_CALC:%=$(REPLAY_DIR)/%): $(REPLAY_DIR)/%: tests/fuzz/%.c tests/fuzz/replay.c tests/fuzz/fuzz.h \
		$(BUILD)/libcalc.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(TEST_CFLAGS) $(DEPS_CFLAGS) -Icalc -o $@ $< tests/fuzz/replay.c $(BUILD)/libcalc.a $(DEPS_LIBS)
$(REPLAY_REPORT:%=$(REPLAY_DIR)/%): $(REPLAY_DIR)/%: tests/fuzz/%.c tests/fuzz/replay.c tests/fuzz/fuzz.h \
		$(REPLAY_RPT_OBJ) $(BUILD)/libcalc.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(TEST_CFLAGS) $(DEPS_CFLAGS) -Icalc -Ireport -o $@ $< tests/fuzz/replay.c $(REPLAY_RPT_OBJ) \
		$(BUILD)/libcalc.a $(REPORT_LIBS) $(DEPS_LIBS)

$(REPLAY_DIR)/import: tests/fuzz/import.c tests/fuzz/replay.c tests/fuzz/fuzz.h cli/cmd_import.c \
		$(BUILD)/cli/common.o $(BUILD)/cli/help.o $(BUILD)/cli/options.o $(BUILD)/libcalc.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(TEST_CFLAGS) $(DEPS_CFLAGS) -Icalc -I$(BUILD) -o $@ $< tests/fuzz/replay.c $(BUILD)/cli/common.o \
		$(BUILD)/cli/help.o $(BUILD)/cli/options.o $(BUILD)/libcalc.a $(DEPS_LIBS)

REPLAY_CLI_OBJ = $(filter-out $(BUILD)/cli/main.o,$(CALC_CLI_OBJ))
$(REPLAY_DIR)/export: tests/fuzz/export.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(REPLAY_CLI_OBJ) $(BUILD)/libcalc.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(TEST_CFLAGS) $(DEPS_CFLAGS) -Icalc -Icli -o $@ $< tests/fuzz/replay.c $(REPLAY_CLI_OBJ) \
		$(BUILD)/libcalc.a $(DEPS_LIBS)

.PHONY: check-fuzz-seeds
check-fuzz-seeds: $(REPLAY_CALC:%=$(REPLAY_DIR)/%) $(REPLAY_REPORT:%=$(REPLAY_DIR)/%) $(REPLAY_DIR)/export $(REPLAY_DIR)/import
	@$(REPLAY_DIR)/number tests/fuzz/corpus/number/*
	@$(REPLAY_DIR)/plan tests/fuzz/corpus/plan/* tests/bad/*.ini
	@$(REPLAY_DIR)/hfconfig tests/fuzz/corpus/hfconfig/* tests/bad/*.json
	@$(REPLAY_DIR)/expr tests/fuzz/corpus/expr/*
	@$(REPLAY_DIR)/doc tests/fuzz/corpus/doc/* tests/expand/*.md
	@$(REPLAY_DIR)/pdf tests/fuzz/corpus/pdf/* tests/expand/*.md
	@$(REPLAY_DIR)/import tests/fuzz/corpus/import/* tests/bad/import-* tests/import/megatron/* tests/import/torchtitan/* tests/import/deepspeed/* tests/import/nemo/*
	@$(REPLAY_DIR)/calibrate tests/fuzz/corpus/calibrate/* tests/cli/*.csv
	@$(REPLAY_DIR)/export tests/fuzz/corpus/export/* tests/fuzz/corpus/plan/*

CHECKS += check-fuzz-seeds
