# tests/plans.mk -- the report for every plan in tests/report/plans/: one GPU, odd d,
# p = 1, t = 1, a 40 GB A100 that only just fits, MI300X, a small model on one node,
# uneven stages, the interleaved schedule, ZeRO-3, a long sequence with cp > 1 and a
# plan that does not fit.  Each builds into $(BUILD)/plans/NAME and must exit 0, pass
# tidy and show no NaN; the chapters must pass the lint (tests/report/check-plans.sh).

PLANS_TEST = $(sort $(wildcard tests/report/plans/*.ini))

.PHONY: check-plans
check-plans: $(BUILD)/trainplan $(BUILD)/trainplan-report
	@sh tests/report/check-plans.sh "$(MAKE)" $(BUILD) $(PLANS_TEST)

CHECKS += check-plans
