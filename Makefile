# trainplan -- the one entry point.
#   make            install missing Debian packages, build, write the report for PLAN
#   make check      every test, also under ASan + UBSan and TSan; CHECK_JOBS at a time
#                   (report/report.mk)
#   make bench      timings of the engines and renderers
#   make install    PREFIX=/usr/local DESTDIR=  (make uninstall removes it again)
#   make clean
# Component makefiles (*.mk in calc/, report/, tests/) add rules and append to
# CHECKS (test targets), BENCHES (bench targets) and REPORT_OUT (report files).

PLAN    ?= plans/default.ini
PREFIX  ?= /usr/local
BUILD   ?= build
CC      ?= cc
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror=switch -Wno-unused-parameter -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
PKGS     = inih jansson yaml-0.1
DEPS_CFLAGS  = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
DEPS_LIBS    = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm -lpthread

# Output folder: the default plan writes output/, another plan output/<plan name>/.
PLAN_NAME := $(basename $(notdir $(PLAN)))
ifeq ($(PLAN),plans/default.ini)
OUT ?= output
else
OUT ?= output/$(PLAN_NAME)
endif

# Debian packages the build, the tests and the report need.
DEB_PKGS = build-essential pkg-config libinih-dev libjansson-dev libyaml-dev libcmocka-dev \
           libcmark-gfm-dev libcmark-gfm-extensions-dev libhpdf-dev libpng-dev zlib1g-dev \
           gnuplot-nox fonts-dejavu-core fonts-dejavu-extra tidy qpdf poppler-utils mandoc

CALC_LIB_SRC = $(wildcard calc/*.c)
CALC_CLI_SRC = $(wildcard cli/*.c)
CALC_LIB_OBJ = $(CALC_LIB_SRC:%.c=$(BUILD)/%.o)
CALC_CLI_OBJ = $(CALC_CLI_SRC:%.c=$(BUILD)/%.o)

CHECKS  :=
BENCHES :=
REPORT_OUT :=

.PHONY: all deps check bench install uninstall clean format report
all: deps $(BUILD)/trainplan report

# ---------------------------------------------------------------- dependencies
# What the build needs is libraries found by pkg-config; what the report and the
# tests need is commands (gnuplot, tidy, qpdf, pdftotext) and the DejaVu fonts.
# When all of them are there, nothing is installed and no package manager is asked,
# so `make` builds on any system.  Otherwise, on Debian or Ubuntu, the missing
# Debian packages are installed with apt-get (as root, or through sudo); elsewhere
# the list of what is missing is printed and make stops.  Objects depend on the
# stamp only for their order, never for their age.
DEP_PCS  = inih jansson yaml-0.1 cmocka libcmark-gfm zlib libpng
DEP_CMDS = cc pkg-config gnuplot tidy qpdf pdftotext pdffonts mandoc
deps: $(BUILD)/.deps
$(BUILD)/.deps: Makefile
	@mkdir -p $(BUILD)
	@if pkg-config --exists $(DEP_PCS) 2>/dev/null && [ -f /usr/include/hpdf.h -o -f /usr/local/include/hpdf.h ] && \
	    [ -n "$$(find /usr/share/fonts /usr/local/share/fonts -name DejaVuSans.ttf 2>/dev/null | head -n 1)" ] && \
	    for c in $(DEP_CMDS); do command -v $$c >/dev/null 2>&1 || exit 1; done; then touch $@; exit 0; fi; \
	if ! command -v dpkg-query >/dev/null 2>&1; then \
	  echo "trainplan: please install the libraries ($(DEP_PCS), libharu) and the commands ($(DEP_CMDS)), and DejaVu fonts" >&2; exit 2; fi; \
	missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if ! command -v apt-get >/dev/null 2>&1; then \
	    echo "trainplan: please install:$$missing" >&2; exit 2; \
	  elif [ "$$(id -u)" = 0 ]; then SUDO=""; \
	  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"; \
	  else echo "trainplan: missing packages (run as root or install them):$$missing" >&2; exit 2; fi; \
	  echo "installing:$$missing"; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null || exit 2; \
	fi; touch $@

# ---------------------------------------------------------------- calc
$(BUILD)/%.o: %.c | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(DEPS_CFLAGS) -I$(BUILD) -MMD -MP -c -o $@ $<

$(BUILD)/libcalc.a: $(CALC_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# trainplan is linked statically where the C library's and the dependencies' archives
# are there (Debian's -dev packages ship them): a command then starts without the
# dynamic loader, its five libraries and their relocations (`trainplan --version`: 135
# page faults and 6.7 ms of CPU, perf stat under load, against 35 and 2.5 ms static).
# Not in a sanitizer's build (CFLAGS with -fsanitize), which cannot link statically;
# where the archives are missing it is linked as before.  Asked only when linking.
STATIC_LINK = $(if $(findstring -fsanitize,$(CFLAGS)),,$(shell printf 'int main(void){return 0;}\n' | \
              $(CC) -static -x c -o $(BUILD)/.static-probe - $(DEPS_LIBS) >/dev/null 2>&1 && echo -static; \
              rm -f $(BUILD)/.static-probe))
$(BUILD)/trainplan: $(CALC_CLI_OBJ) $(BUILD)/libcalc.a
	$(CC) $(CFLAGS) $(STATIC_LINK) -o $@ $(CALC_CLI_OBJ) $(BUILD)/libcalc.a $(DEPS_LIBS)

# The default plan is embedded in the library.
$(BUILD)/calc/plan.o: $(BUILD)/default_plan.h
$(BUILD)/default_plan.h: plans/default.ini
	@mkdir -p $(dir $@)
	{ echo 'static const char default_plan_text[] = '; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; echo ';'; } > $@.tmp && mv $@.tmp $@

# The recommendation's band of every stack on every GPU generation, computed from the
# validation rows with the built-in schedules and embedded in calc/validate.o
# (calc_validate_plan_band); the generator links a copy of validate.c without the table.
$(BUILD)/calc/validate.o: $(BUILD)/band_table.h
$(BUILD)/gen/validate.o: calc/validate.c | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(DEPS_CFLAGS) -DCALC_NO_BAND_TABLE -MMD -MP -c -o $@ $<
$(BUILD)/gen/band_table: calc/gen/band_table.c $(BUILD)/gen/validate.o $(filter-out $(BUILD)/calc/validate.o,$(CALC_LIB_OBJ))
	$(CC) $(WARN) $(CFLAGS) $(DEPS_CFLAGS) -Icalc -o $@ $^ $(DEPS_LIBS)
$(BUILD)/band_table.h: $(BUILD)/gen/band_table
	$< > $@.tmp && mv $@.tmp $@

include $(wildcard calc/*.mk report/*.mk tests/*.mk bench/*.mk)

# ---------------------------------------------------------------- check
# make starts the prerequisites in the order listed, so the groups with the longest
# chains of work go first, where they overlap everything else instead of running alone
# at the end: the sanitizer builds with their runs (the planner's searches under ASan),
# the fast path's complete searches, the reports of check-plans and the progress
# check's searches, then the rest in the order the component files add them.
CHECKS_FIRST = check-asan check-tsan check-report-asan check-fast check-plans check-progress
check: deps $(BUILD)/trainplan $(filter $(CHECKS),$(CHECKS_FIRST)) $(CHECKS)
	@echo "make check: all test groups passed"

bench: deps $(BUILD)/trainplan $(BENCHES)

format:
	clang-format -i calc/*.c calc/*.h cli/*.c cli/*.h report/*.c report/*.h tests/calc/*.c

# ---------------------------------------------------------------- install
# The two programs, and under share/trainplan what `trainplan report` needs to build
# a report from any folder: the chapters, the figure scripts and the plans.  Then
# the man pages and the bash and zsh completions.  Installing needs the programs,
# not the report of the default plan.
SHARE_DIR = $(DESTDIR)$(PREFIX)/share/trainplan
MAN_DIR   = $(DESTDIR)$(PREFIX)/share/man/man1
BASHC_DIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHC_DIR  = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
install: deps $(BUILD)/trainplan $(BUILD)/trainplan-report
	install -d $(DESTDIR)$(PREFIX)/bin $(SHARE_DIR)/chapters $(SHARE_DIR)/figures $(SHARE_DIR)/figures/compare \
	  $(SHARE_DIR)/plans \
	  $(MAN_DIR) $(BASHC_DIR) $(ZSHC_DIR)
	install -m 755 $(BUILD)/trainplan $(BUILD)/trainplan-report $(DESTDIR)$(PREFIX)/bin/
	install -m 644 chapters/*.md $(SHARE_DIR)/chapters/
	install -m 644 figures/*.gp figures/*.gpi $(SHARE_DIR)/figures/
	install -m 644 figures/compare/*.gp $(SHARE_DIR)/figures/compare/
	install -m 644 plans/*.ini $(SHARE_DIR)/plans/
	install -m 644 man/trainplan.1 man/trainplan-report.1 $(MAN_DIR)/
	install -m 644 completion/trainplan.bash $(BASHC_DIR)/trainplan
	install -m 644 completion/_trainplan $(ZSHC_DIR)/_trainplan

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/trainplan $(DESTDIR)$(PREFIX)/bin/trainplan-report \
	  $(MAN_DIR)/trainplan.1 $(MAN_DIR)/trainplan-report.1 $(BASHC_DIR)/trainplan $(ZSHC_DIR)/_trainplan
	rm -rf $(SHARE_DIR)

clean:
	rm -rf $(BUILD) output

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
