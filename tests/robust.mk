# tests/robust.mk -- outputs are whole or absent (docs/architecture.md §8): tests/check-atomic.sh
# makes the writes fail (a full disk, a file size limit) and checks the exit status and
# that no truncated file or temporary is left; tests/check-endless.sh gives devices,
# FIFOs, directories and an oversized file as chapter, plan, include and config.json.
# tests/check-interrupt.sh sends SIGINT and SIGTERM to report runs of the real chapters and
# checks that each leaves the old report or the whole new one, and no temporary.
# The fuzz harnesses are in tests/fuzz.mk (the plan reader's limits: tests/cli/plan-endless-file, tests/calc/hf.c).

.PHONY: check-atomic check-endless check-hostile check-interrupt
check-atomic: $(BUILD)/trainplan $(BUILD)/trainplan-report $(OUT)/report.html
	@sh tests/check-atomic.sh $(BUILD)/trainplan $(BUILD)/trainplan-report $(OUT)

check-interrupt: $(BUILD)/trainplan-report $(OUT)/report.html
	@sh tests/check-interrupt.sh $(BUILD)/trainplan-report $(OUT)

check-endless: $(BUILD)/trainplan-report $(BUILD)/trainplan
	@sh tests/check-endless.sh $(BUILD)/trainplan-report $(BUILD)/trainplan

# tests/check-hostile.sh: generated chapters past the limits (operator chains, equal
# headings, long section numbers and labels, many captions) finish at once with the result or
# the limit's message.
check-hostile: $(BUILD)/trainplan-report
	@sh tests/check-hostile.sh $(BUILD)/trainplan-report

# tests/check-locale.sh: the same bytes under de_DE.UTF-8 (a decimal comma) as under C.
.PHONY: check-locale
check-locale: $(BUILD)/trainplan $(BUILD)/trainplan-report
	@sh tests/check-locale.sh $(BUILD)/trainplan $(BUILD)/trainplan-report

CHECKS += check-atomic check-interrupt check-endless check-hostile check-locale

# tests/check-inject.sh: hostile text (file names, titles) written into the generated
# scripts, configs and Markdown of export and report --compare stays text; hostile
# calibrate inputs and sizes are refused before the work.
.PHONY: check-inject
check-inject: $(BUILD)/trainplan $(BUILD)/trainplan-report
	@sh tests/check-inject.sh $(BUILD)/trainplan

CHECKS += check-inject
