# calc/search.mk -- `make bench` figures of the planner (search.c): configurations per
# second on one and on two threads, for the default plan (100B model, 512 GPUs), for
# Llama 3.1 405B on 16,384 GPUs (its published batch: 2,048 sequences of 8,192 tokens,
# Llama 3 paper Table 4), and for the default model over every doubling from 8 to
# 16,384 GPUs.  Each line is the JSON of `trainplan search --stats` on one line:
# evaluated = configurations of the grid, measured = valid ones whose worst-stage memory
# was computed (and step time when they fit), elapsed_s = wall time of the enumeration.

SEARCH_405B = --set model.preset=llama3.1-405b --set seq_len=8192 --set global_batch=2048 \
              --set tp=8 --set pp=1 --set dp=0 --gpus 16384

.PHONY: bench-search
bench-search: $(BUILD)/trainplan
	@echo "search: default plan, 512 GPUs, 1 thread:"
	@$(BUILD)/trainplan search --stats --threads 1 | tr -d '\n' | tr -s ' '; echo
	@echo "search: default plan, 512 GPUs, 2 threads:"
	@$(BUILD)/trainplan search --stats --threads 2 | tr -d '\n' | tr -s ' '; echo
	@echo "search: llama3.1-405b, 16384 GPUs, 2 threads:"
	@$(BUILD)/trainplan search --stats --threads 2 $(SEARCH_405B) | tr -d '\n' | tr -s ' '; echo
	@echo "search: default model, 8 .. 16384 GPUs (12 counts), 1 thread:"
	@$(BUILD)/trainplan search --stats --threads 1 --gpus 8-16384 | tr -d '\n' | tr -s ' '; echo
	@echo "search: default model, 8 .. 16384 GPUs (12 counts), 2 threads:"
	@$(BUILD)/trainplan search --stats --threads 2 --gpus 8-16384 | tr -d '\n' | tr -s ' '; echo

BENCHES += bench-search
