# bench/bench.mk -- `make bench-goals`: the performance goals, each figure beside its
# goal (bench/goals.sh; median of BENCH_RUNS, calc/search.mk, interleaved runs, CPU time).
$(BUILD)/bench/cputime: bench/cputime.c | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -o $@ $<

.PHONY: bench-goals
bench-goals: $(BUILD)/bench/cputime $(BUILD)/trainplan $(BUILD)/trainplan-report $(OUT)/report.html
	@sh bench/goals.sh $(BUILD)/bench/cputime $(BUILD)/trainplan $(BUILD)/trainplan-report $(PLAN) $(OUT) \
		$(BENCH_RUNS) $(CHAPTERS)

BENCHES += bench-goals
