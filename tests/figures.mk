# tests/figures.mk -- the figures' datasets stay small (report/report.mk draws them).
#
#   check-figure-data  every figure's dataset (figures/*.gp) for every shipped plan
#                      (plans/*.ini) is at most 1 MB (tests/check-figure-data.sh)

.PHONY: check-figure-data
check-figure-data: $(BUILD)/trainplan
	@sh tests/check-figure-data.sh $(BUILD)/trainplan $(SHIPPED_PLANS) -- $(FIGURES)

CHECKS += check-figure-data
