#!/bin/sh
# The planner's uneven layouts and optimizer offload can be reproduced: for searches
# whose recommendation places the layers unevenly or offloads the optimizer states,
# `search --write-plan` writes the keys that say so (the "split" and "offload_optimizer"
# the search names), `step` of the written plan gives the recommendation's simulated step
# time to the last digit, and, where the recommendation is one Megatron-LM runs,
# `export --for megatron` of the written plan gives Megatron-Core's flags for it.
#   1. Llama 3.1 405B (126 layers) on 16,384 H100 without its layout keys, searched for
#      Megatron-LM: interleaved with both account_* flags, whose end stages (3 layers at
#      vpp 4) a stage list could not state.
#   2. The same over the whole grid: ZB-H2 with both account_* flags (no export: not a
#      schedule of Megatron-LM's).
#   3. Mixtral 8x22B cut to 54 layers on 512 H100, every schedule, the simplest within
#      a fixed 5 % of the fastest (plan.pick_band = fixed; the stack's band reads down to
#      an even pp 2): an uneven layout, pp 8 interleaved v 7 with both account_* flags
#      (54 layers + embedding + loss = 56 = 8 x 7 chunks; with the MoE layers' host wait of
#      the stack) or DualPipe at pp 4 (54 / 4 = 13.5) under the plan's remainder-first rule,
#      written as its split (no export, as 2).
#   4. DeepSeek-V3 (61 layers) on 2,048 H800 for Megatron-LM, within a fixed 2 % (the
#      stack's band reads down to pp 2): pp 8 with the first/last stage rule, middle
#      stages ceil(61 / 8) = 8, the rest 61 - 48 = 13 at the ends, 7 first and 6 last
#      (docs/references.md §3.7), --decoder-first/last-pipeline-num-layers.
#   5. Llama 3 70B on 16 H100 with --offload-optimizer 1 (a host step of 1e9 parameters
#      per second, a value for the test): the whole optimizer on the host, which lets
#      the split keep its activations, --optimizer-cpu-offload in the export.
#   6. Llama 3 70B on 1,024 H100 with plan.framework = torchtitan (band fixed at 5 %: under the
#      absolute band the simplest pick is pp 1, no layout to place): torchtitan's rule with
#      first/last_stage_less_layers (docs/references.md §3.7), which export --for
#      torchtitan writes as pipeline_parallel_first/last_stage_less_layers.
bin=$1; pass=0; fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
llama="--plan plans/llama3-405b-h100.ini --set account_embedding=no --set account_loss=no --set split=remainder-first
       --set vpp=1 --set schedule=1f1b"
case_() { # name, recommendation (grep -E on its JSON), flags expected in export --for megatron
	  # (grep -E; - for no export), search arguments...
	name=$1; what=$2; want=$3; shift 3
	# shellcheck disable=SC2086
	"$bin" search "$@" --top 10 --format json --write-plan "$tmp/$name.ini" > "$tmp/$name.json" 2> "$tmp/$name.err"
	rec=$(sed -n '/"recommended"/,/}/p' "$tmp/$name.json")
	split=$(printf '%s\n' "$rec" | sed -n 's/.*"split": "\(.*\)",*$/\1/p')
	a=$(printf '%s\n' "$rec" | sed -n 's/.*"step_time_sim": \([0-9][0-9.e+-]*\).*/\1/p')
	b=$("$bin" step --plan "$tmp/$name.ini" --format json 2>&1 | sed -n 's/.*"step.time": \([0-9][0-9.e+-]*\).*/\1/p')
	flags=""
	[ "$want" = - ] || flags=$("$bin" export --for megatron --plan "$tmp/$name.ini" 2>&1)
	if printf '%s\n' "$rec" | grep -Eq -- "$what" && [ -n "$a" ] && [ "$a" = "$b" ] &&
	   { [ "$want" = - ] || printf '%s\n' "$flags" | grep -Eq -- "$want"; }; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $name: split '$split', search's simulated step time '$a' s, written plan's step.time '$b' s," \
		     "export flags matching '$want':" >&2
		printf '%s\n' "$flags" | grep -E -- "pipeline|virtual|error" >&2
	fi
}
# shellcheck disable=SC2086
case_ llama-megatron '"split": "account' "--account-for-embedding-in-pipeline-split" $llama --for megatron
# shellcheck disable=SC2086
case_ llama-all '"split": "account' - $llama
case_ mixtral '"split": "(split=remainder-first|account_embedding=yes account_loss=yes)' - \
	--set model.preset=mixtral-8x22b --set model.layers=54 --set plan.framework=any --gpus 512 \
	--set plan.pick_band=fixed --set plan.pick_band_fixed=0.05
case_ deepseek '"split": "first_stage_layers=7 last_stage_layers=6"' \
	"--decoder-first-pipeline-num-layers 7" --plan plans/deepseek-v3-h800.ini --for megatron \
	--set plan.pick_band=fixed --set plan.pick_band_fixed=0.02
case_ offload '"offload_optimizer": 1,' "--optimizer-cpu-offload" --set model.preset=llama3-70b \
	--set cluster.cpu_optimizer_rate=1e9 --gpus 16 --offload-optimizer 1 --for megatron
case_ torchtitan '"split": "(first|last)_stage_less_layers' - --plan tests/cli/llama3-70b-1024.ini \
	--set plan.framework=torchtitan --set plan.pick_band=fixed --set plan.pick_band_fixed=0.05
tt=$("$bin" export --for torchtitan --plan "$tmp/torchtitan.ini" 2>&1)
if printf '%s\n' "$tt" | grep -Eq '^pipeline_parallel_(first|last)_stage_less_layers = 1'; then
	pass=$((pass + 1))
else
	fail=$((fail + 1)); echo "FAIL: torchtitan: export --for torchtitan of the written plan:" >&2
	printf '%s\n' "$tt" | grep -E "pipeline|error" >&2
fi
echo "search-layout: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
