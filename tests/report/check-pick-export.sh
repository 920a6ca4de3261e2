#!/bin/sh
# tests/report/check-pick-export.sh -- the report's table of the command that writes the
# launch flags (chapter 8, "The command that writes ..."), of the recommendation where the
# framework of the plan's stack runs it, else of the best configuration that framework
# runs, runs: for each shipped plan the `--for`, `--plan`, `--set KEY=` rows and the
# placement keys are put together into `trainplan export`, which must exit 0 and name the
# table's degrees in its first line.  Every plan's report must have the table; so must
# the Llama 2 plan's under the torchtitan, deepspeed-megatron and fsdp1 stacks, whose
# flags are torchtitan's, DeepSpeed's and (fsdp1 has no export) Megatron-LM's.
# usage: check-pick-export.sh TRAINPLAN-REPORT TRAINPLAN [EXPANDED-DIR]
# With EXPANDED-DIR, plans/NAME.ini's expanded chapters (without a stack override) are
# read from EXPANDED-DIR/NAME.md when that file is there (tests/report.mk expands each
# shipped plan once).
rpt=$1; bin=$2; expanded=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; n=0
for run in plans/*.ini "plans/llama2-70b-a100.ini torchtitan torchtitan" \
	"plans/llama2-70b-a100.ini deepspeed-megatron deepspeed" "plans/llama2-70b-a100.ini fsdp1 megatron"; do
	set -- $run
	plan=$1; stack=${2:-}; want=${3:-}
	name=$(basename "$plan" .ini)
	if [ -n "$stack" ]; then set -- --set "efficiency.stack=$stack"; else set --; fi
	if [ -z "$stack" ] && [ -n "$expanded" ] && [ -f "$expanded/$name.md" ]; then
		cp "$expanded/$name.md" "$tmp/x" || exit 2
	else
		"$rpt" --plan "$plan" "$@" --expand chapters/*.md >"$tmp/x" 2>/dev/null || { echo "FAIL: $plan $stack: expand" >&2; fail=1; continue; }
	fi
	if grep -q '^| `trainplan export` | value |' "$tmp/x"; then
		set --
		fw=$(sed -n 's/^| `--for` | \(.*\) |$/\1/p' "$tmp/x")
		if [ -n "$want" ] && [ "$fw" != "$want" ]; then echo "FAIL: $plan $stack: flags for '$fw', want $want" >&2; fail=1; fi
		file=$(sed -n 's/^| `--plan` | \(.*\) |$/\1/p' "$tmp/x")
		sed -n 's/^| `--set \([a-z_.]*=\)` | \(.*\) |$/\1\2/p' "$tmp/x" >"$tmp/sets"
		# the placement keys, one cell "key=value key=value" (Markdown escapes the '_')
		sed -n 's/^| `--set`, once for each of these | \(.*\) |$/\1/p' "$tmp/x" | sed 's/\\_/_/g' | tr ' ' '\n' >>"$tmp/sets"
		[ -n "$stack" ] && echo "efficiency.stack=$stack" >>"$tmp/sets"
		while IFS= read -r kv; do [ -n "$kv" ] && set -- "$@" --set "$kv"; done <"$tmp/sets"
		if ! "$bin" export --for "$fw" --plan "$file" "$@" >"$tmp/out" 2>"$tmp/err"; then
			echo "FAIL: $plan $stack: the report's export command fails: $(head -1 "$tmp/err")" >&2; fail=1
		fi
		tp=$(sed -n 's/^parallel.tp=//p' "$tmp/sets"); pp=$(sed -n 's/^parallel.pp=//p' "$tmp/sets")
		zero=$(sed -n 's/^parallel.zero=//p' "$tmp/sets")
		if [ "$fw" = deepspeed ]; then # a DeepSpeed JSON config: its ZeRO stage
			grep -q "\"stage\": $zero[,}]" "$tmp/out" || { echo "FAIL: $plan $stack: the DeepSpeed config has no ZeRO stage $zero" >&2; fail=1; }
		else
		head -1 "$tmp/out" | grep -q "tp $tp x .*pp $pp " || { echo "FAIL: $plan $stack: export's first line does not name tp $tp, pp $pp: $(head -1 "$tmp/out")" >&2; fail=1; }
		fi
		n=$((n + 1))
	else
		echo "FAIL: $plan $stack: no command that writes launch flags" >&2; fail=1
	fi
done
[ $fail = 0 ] && echo "pick export: $n command(s) run, one for every plan and stack"
exit $fail
