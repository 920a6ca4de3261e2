# tests/fast.mk -- `make check-fast`: the planner's fast path (calc/step_fast.c and the
# layers of calc/search.c: shared stage 1, ZeRO re-timing, bounds and pruning, no_counts,
# the memo) against the plain walk, bit for bit, on every shipped plan and the search
# fixtures of the CLI goldens (tests/fast/check.c says what is compared).

FAST_BIN = $(BUILD)/tests/fast/check
FAST_CASES = \
	"plans/default.ini" \
	"plans/llama2-70b-a100.ini" \
	"plans/llama3-405b-h100.ini" \
	"plans/deepseek-v3-h800.ini" \
	"tests/cli/llama3-70b-1024.ini" \
	"- --set model.preset=mixtral-8x22b --gpus 512" \
	"- --set model.preset=llama3-8b --set plan.framework=torchtitan --gpus 64" \
	"- --set model.preset=llama3-8b --set cluster.nodes=2 --set zero=3 --set pp=1 --set dp=0 --set cluster.cpu_optimizer_rate=1e9 --set cluster.nvme_bw=6e9 --set training.offload_optimizer=1 --set training.offload_style=zero-offload --set training.offload_device=nvme --set training.offload_param=nvme" \
	"- --set model.preset=mixtral-8x7b --set cluster.nodes=4 --set training.offload_modules=qkv_linear,core_attn,attn_proj,expert_fc1,moe_act" \
	"- --set model.preset=nemotron-h-8b --set training.seq_len=16384 --set cluster.nodes=4" \
	"- --set model.preset=qwen3-next-80b-a3b --set training.seq_len=16384 --set cluster.nodes=8" \
	"- --set model.preset=jamba-v0.1 --set cluster.nodes=4" \
	"- --set model.layers=6 --set model.hidden=512 --set model.heads=8 --set model.kv_heads=4 --set model.ffn_hidden=2048 --set model.vocab=32000 --set nodes=2 --set gpus_per_node=8 --set tp=1 --set pp=1 --set dp=0 --set global_batch=32 --set seq_len=1000 --set cluster.gpu_memory=2GB"

$(FAST_BIN): tests/fast/check.c $(BUILD)/libcalc.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(DEPS_CFLAGS) -Icalc -o $@ $< $(BUILD)/libcalc.a $(DEPS_LIBS)

# Each case is a target of its own, run-fast/N (the Nth of FAST_CASES; phony, so that
# every check runs it again), so that make -j runs them side by side with the other
# groups; each keeps its line (and, when it fails, its messages) in $(RUNS_DIR)/fast/N.ok
# or N.fail, and check-fast prints the failures and the closing line.
FAST_N    := $(shell set -- $(FAST_CASES); echo $$#)
FAST_RUNS  = $(addprefix run-fast/,$(shell seq 1 $(FAST_N)))
.PHONY: check-fast $(FAST_RUNS)
$(FAST_RUNS): run-fast/%: $(FAST_BIN)
	@mkdir -p $(RUNS_DIR)/fast && rm -f $(RUNS_DIR)/fast/$*.ok $(RUNS_DIR)/fast/$*.fail; \
	set -- $(FAST_CASES); eval "c=\"\$${$*}\""; \
	if $(FAST_BIN) $$c > $(RUNS_DIR)/fast/$*.out 2>&1; then mv $(RUNS_DIR)/fast/$*.out $(RUNS_DIR)/fast/$*.ok; \
	else { cat $(RUNS_DIR)/fast/$*.out; echo "FAIL: $(FAST_BIN) $$c"; } > $(RUNS_DIR)/fast/$*.fail; \
	  rm -f $(RUNS_DIR)/fast/$*.out; fi
check-fast: $(FAST_RUNS)
	@pass=0; fail=0; for i in $$(seq 1 $(FAST_N)); do \
	  if [ -f $(RUNS_DIR)/fast/$$i.ok ]; then cat $(RUNS_DIR)/fast/$$i.ok; pass=$$((pass + 1)); \
	  else fail=$$((fail + 1)); cat $(RUNS_DIR)/fast/$$i.fail >&2 2>/dev/null || echo "FAIL: fast case $$i did not run" >&2; fi; \
	done; echo "fast: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

CHECKS += check-fast
