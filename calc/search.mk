# calc/search.mk -- `make bench` figures of the planner (search.c): configurations per
# second on one and on two threads, for the default plan (100B model, 512 GPUs), for
# Llama 3.1 405B on 16,384 GPUs (its published batch: 2,048 sequences of 8,192 tokens,
# Llama 3 paper Table 4), and for the default model on 16,384 GPUs and over every
# doubling from 8 to 16,384 GPUs.  Fields of `trainplan search --stats`: measured = valid
# configurations whose worst-stage memory was computed (and step time when they fit),
# measured_per_cpu_s = those per CPU-second of all threads, elapsed_s = wall time of the
# enumeration.

SEARCH_405B = --set model.preset=llama3.1-405b --set seq_len=8192 --set global_batch=2048 \
              --set tp=8 --set pp=1 --set dp=0 --gpus 16384

# Each figure is the median of BENCH_RUNS runs, printed beside its goal:
#   planner speed   >= 2 M computed (measured) configurations per CPU-second
#   whole space     < 50 ms wall time of the enumeration for 16,384 GPUs
# ("ok" when the median meets the goal, "MISSED" when it does not; make does not fail).
BENCH_RUNS ?= 5

# bench_med FIELD ARGS...: median of one --stats field over BENCH_RUNS searches.
BENCH_MED = med() { f=$$1; shift; i=0; while [ $$i -lt $(BENCH_RUNS) ]; do i=$$((i + 1)); \
	  $(BUILD)/trainplan search --stats "$$@" | sed -n "s/^ *\"$$f\": *\([0-9][0-9.eE+-]*\).*/\1/p"; \
	done | sort -g | awk '{ a[NR] = $$1 } END { print a[int((NR + 1) / 2)] }'; }; \
	rate() { awk -v x="$$2" -v what="$$1" 'BEGIN { printf "%-58s %7.2f M configurations/CPU-s  (goal >= 2 M)  %s\n", \
	  what, x / 1e6, (x >= 2e6 ? "ok" : "MISSED") }'; }; \
	wall() { awk -v x="$$2" -v what="$$1" 'BEGIN { printf "%-58s %7.1f ms                       (goal < 50 ms)  %s\n", \
	  what, x * 1e3, (x < 0.05 ? "ok" : "MISSED") }'; }

.PHONY: bench-search
bench-search: $(BUILD)/trainplan
	@echo "planner (median of $(BENCH_RUNS) runs; trainplan search --stats):"
	@$(BENCH_MED); \
	rate "default plan, 512 GPUs, 1 thread" $$(med measured_per_cpu_s --threads 1); \
	rate "default plan, 512 GPUs, 2 threads" $$(med measured_per_cpu_s --threads 2); \
	rate "default model, 16384 GPUs, 1 thread" $$(med measured_per_cpu_s --threads 1 --gpus 16384); \
	wall "default model, 16384 GPUs, whole space, 2 threads" $$(med elapsed_s --threads 2 --gpus 16384); \
	rate "llama3.1-405b, 16384 GPUs, 2 threads" $$(med measured_per_cpu_s --threads 2 $(SEARCH_405B)); \
	wall "llama3.1-405b, 16384 GPUs, whole space, 2 threads" $$(med elapsed_s --threads 2 $(SEARCH_405B)); \
	rate "default model, 8 .. 16384 GPUs (12 counts), 2 threads" $$(med measured_per_cpu_s --threads 2 --gpus 8-16384)

BENCHES += bench-search
