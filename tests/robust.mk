# tests/robust.mk -- outputs are whole or absent (DESIGN.md §8): tests/check-atomic.sh
# makes the writes fail (a full disk, a file size limit) and checks the exit status and
# that no truncated file or temporary is left.  The fuzz harnesses are in tests/fuzz.mk.

.PHONY: check-atomic
check-atomic: $(BUILD)/trainplan $(BUILD)/trainplan-report $(FIG_SVG) $(FIG_PNG) $(TABLES_STAMP)
	@sh tests/check-atomic.sh $(BUILD)/trainplan $(BUILD)/trainplan-report $(OUT)

CHECKS += check-atomic
