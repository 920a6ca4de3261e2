# tests/plans.mk -- the report for every plan in tests/report/plans/: one GPU, odd d,
# p = 1, t = 1, a 40 GB A100 that only just fits, MI300X, a small model on one node,
# uneven stages, the interleaved schedule, ZeRO-3, a long sequence with cp > 1 and a
# plan that does not fit.  Each builds into $(BUILD)/plans/NAME and must exit 0, pass
# tidy and show no NaN (tests/report/check-plans.sh).
#
# One target per plan, $(BUILD)/plans/NAME/.ok, so that `make -j2 check` builds two
# plans at a time (each through a sub-make that shares the job slots), and a plan that
# passed is not built again until one of its inputs changes.  check-plans then runs the
# chapters' lint once and prints the one closing line "plans: N passed, N failed".

PLANS_TEST = $(sort $(wildcard tests/report/plans/*.ini))
PLANS_OK   = $(PLANS_TEST:tests/report/plans/%.ini=$(BUILD)/plans/%/.ok)

$(BUILD)/plans/%/.ok: tests/report/plans/%.ini tests/report/check-plans.sh tests/layout/check-fill.sh $(BUILD)/trainplan \
		$(BUILD)/trainplan-report $(CHAPTERS) $(wildcard figures/*.gp figures/*.gpi)
	@+sh tests/report/check-plans.sh plan "$(MAKE)" $(BUILD) $<

.PHONY: check-plans
check-plans: $(PLANS_OK) $(BUILD)/trainplan-report
	@sh tests/report/check-plans.sh summary $(BUILD) $(PLANS_TEST)

CHECKS += check-plans
