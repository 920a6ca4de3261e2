# calc/pipeline.mk -- `make bench` rule of the pipeline simulator.
# Target: simulating interleaved 1F1B at p = 64, v = 4, m = 1024 (524,288 ops) in
# under 50 ms; the rule also times the other schedules at p = 64, m = 1024.

.PHONY: bench-pipeline
bench-pipeline: $(BUILD)/trainplan
	@echo "pipeline simulator (target: under 50 ms for interleaved p=64 v=4 m=1024):"
	@$(BUILD)/trainplan schedule --schedule interleaved --p 64 --v 4 --m 1024 --bench 5
	@for s in gpipe 1f1b zb-h1 zb-h2 dualpipe; do \
	  $(BUILD)/trainplan schedule --schedule $$s --p 64 --m 1024 --bench 3 || exit 1; done

BENCHES += bench-pipeline
