# tests/builds.mk -- what several test groups read, built once (read before the other
# tests/*.mk, whose rules name these files as prerequisites).
#
#   SHIPPED_PLANS   plans/*.ini
#   EXPANDED        $(BUILD)/expanded/NAME.md: the chapters expanded for plans/NAME.ini
#                   (trainplan-report --expand), read by check-claims, check-pick-export
#                   and check-pdf instead of each expanding them again (the DeepSeek-V3
#                   plan's expansion runs its planner searches, about 3 s of CPU)
#   PLAN_EXPANDED   the one of them for PLAN, empty when PLAN is not a shipped plan

SHIPPED_PLANS = $(sort $(wildcard plans/*.ini))
EXPANDED_DIR  = $(BUILD)/expanded
EXPANDED      = $(SHIPPED_PLANS:plans/%.ini=$(EXPANDED_DIR)/%.md)
PLAN_EXPANDED = $(if $(filter plans/$(PLAN_NAME).ini,$(PLAN)),$(EXPANDED_DIR)/$(PLAN_NAME).md)

$(EXPANDED_DIR)/%.md: plans/%.ini $(BUILD)/trainplan-report $(CHAPTERS)
	@mkdir -p $(dir $@)
	@$(BUILD)/trainplan-report --plan $< --expand $(CHAPTERS) > $@.tmp || \
		{ rm -f $@.tmp; echo "FAIL: trainplan-report --plan $< --expand chapters/*.md" >&2; exit 1; }
	@mv $@.tmp $@
