# bench/bench.mk -- `make bench-goals`: the performance goals of every shipped plan, each
# figure beside its goal (bench/goals.sh; median of BENCH_RUNS, calc/search.mk,
# interleaved runs, CPU time).  BENCH_PLANS=FILE... measures other plans.
$(BUILD)/bench/cputime: bench/cputime.c | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -o $@ $<

.PHONY: bench-goals
BENCH_PLANS ?= $(SHIPPED_PLANS)
bench-goals: $(BUILD)/bench/cputime $(BUILD)/trainplan $(BUILD)/trainplan-report
	@sh bench/goals.sh $(BUILD)/bench/cputime $(BUILD)/trainplan $(BUILD)/trainplan-report $(BENCH_RUNS) \
		$(BENCH_PLANS) -- $(CHAPTERS)

BENCHES += bench-goals
