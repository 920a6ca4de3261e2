# calc/comm.mk -- `make bench` timings of the time model (comm.c, step.c).
.PHONY: bench-comm
$(BUILD)/bench/step: bench/step.c $(BUILD)/libcalc.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(DEPS_CFLAGS) -Icalc -o $@ $< $(BUILD)/libcalc.a $(DEPS_LIBS)

bench-comm: $(BUILD)/bench/step
	$(BUILD)/bench/step

BENCHES += bench-comm
