# tests/figures.mk -- the figures' datasets stay small (report/report.mk draws them).
#
#   check-figure-data  every figure's dataset (figures/*.gp) for every shipped plan
#                      (plans/*.ini) is at most 1 MB (tests/check-figure-data.sh)
#   check-figure-isolation  every chart of the report equals the same chart drawn by a
#                      gnuplot of its own, byte for byte (tests/check-figure-isolation.sh)
#   check-figure-axes  one quantity per axis: no second y axis (tests/check-figure-axes.sh)
#   check-figure-colours  one colour per meaning: the charts that split the step colour its
#                      parts as the step timeline does, the Gantt charts' forward, backward
#                      and W passes and the comparison's plans take colours no other
#                      meaning uses, and no series of any chart for any shipped plan
#                      in gnuplot's default line order (tests/check-figure-colours.sh)

.PHONY: check-figure-data
check-figure-data: $(BUILD)/trainplan
	@sh tests/check-figure-data.sh $(BUILD)/trainplan $(SHIPPED_PLANS) -- $(FIGURES)

CHECKS += check-figure-data

# No state passes from one figure to the next: the pipeline's SVG of each figure is the
# SVG that gnuplot draws of that figure alone (the default plan, and the one-GPU plan, whose
# two search charts have no data and end their scripts early; tests/check-figure-isolation.sh).
.PHONY: check-figure-isolation
check-figure-isolation: $(BUILD)/trainplan $(BUILD)/trainplan-report
	@sh tests/check-figure-isolation.sh $(BUILD)/trainplan plans/default.ini tests/report/plans/one-gpu.ini -- $(FIGURES)

CHECKS += check-figure-isolation

# One quantity per axis: no figure but the listed ones has a second y axis.
.PHONY: check-figure-axes
check-figure-axes:
	@sh tests/check-figure-axes.sh
CHECKS += check-figure-axes

# One colour per meaning: the step's parts as the step timeline colours them, every series
# of every chart for every shipped plan in a colour figures/style.gp names (none in
# gnuplot's default line order), no two names one colour.
.PHONY: check-figure-colours
check-figure-colours: $(BUILD)/trainplan
	@sh tests/check-figure-colours.sh $(BUILD)/trainplan $(SHIPPED_PLANS)
CHECKS += check-figure-colours

# The goodput-vs-GPUs chart marks the plan: its GPU count flagged once in the dataset, at
# the plan's own run time, and in plan-marks (tests/check-plan-marks.sh).
.PHONY: check-plan-marks
check-plan-marks: $(BUILD)/trainplan
	@sh tests/check-plan-marks.sh $(BUILD)/trainplan $(SHIPPED_PLANS) tests/report/plans/one-gpu.ini tests/report/plans/odd-dp.ini
CHECKS += check-plan-marks

# The step's layers with the TP/CP collectives inside them (tests/check-step-layers.sh).
.PHONY: check-step-layers
check-step-layers: $(BUILD)/trainplan
	@sh tests/check-step-layers.sh $(BUILD)/trainplan
CHECKS += check-step-layers
