#!/bin/sh
# tests/check-plan-marks.sh -- the goodput-vs-GPUs chart marks the plan
# (figures/goodput-vs-gpus.gp): for each plan, the dataset goodput-vs-gpus flags exactly
# one row (column plan = 1), at the plan's GPU count (trainplan get plan.gpus), whose
# failure-free days are the plan's own run time (run.time / 86,400 s, computed by the run
# engine for the plan rather than for a GPU count of the sweep), and plan-marks carries
# the same count (plan_gpus) for the charts over the cluster size, and the plan's sequence
# length (plan_seq_len, equal to trainplan get plan.seq_len) for the activations chart,
# and the model's parameters (plan_params, equal to trainplan get model.params) for the
# states-vs-size chart; goodput-vs-interval flags exactly one row (column plan = 1), at the
# interval the plan runs (checkpoint.interval: Daly's optimum, or run.checkpoint_interval
# when the plan sets one, tried at 1,800 s too), its rows in increasing interval.
# usage: check-plan-marks.sh TRAINPLAN PLAN.ini...
bin=$1; shift
fail=0; n=0
for plan in "$@"; do
	gpus=$("$bin" get plan.gpus --plan "$plan" | sed 's/.* = //; s/ GPUs*$//')
	days=$("$bin" get run.time --plan "$plan" | sed 's/.* = //; s/ s$//')
	rows=$("$bin" data goodput-vs-gpus --plan "$plan" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["plan"] == 1 { print $c["gpus"], $c["failure-free days"] }')
	marks=$("$bin" data plan-marks --plan "$plan" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["plan_gpus"] }')
	if [ "$(printf '%s\n' "$rows" | grep -c .)" != 1 ]; then
		echo "FAIL: $plan: goodput-vs-gpus flags $(printf '%s\n' "$rows" | grep -c .) rows as the plan's, want 1" >&2; fail=1; continue
	fi
	set -- $rows
	[ "$1" = "$gpus" ] || { echo "FAIL: $plan: the flagged row has $1 GPUs, the plan $gpus" >&2; fail=1; }
	awk -v a="$2" -v b="$days" 'BEGIN { d = a - b / 86400; exit !(d < 1e-6 * a && d > -1e-6 * a) }' ||
		{ echo "FAIL: $plan: the flagged row's failure-free days $2, the plan's run.time $days s" >&2; fail=1; }
	[ "$marks" = "$gpus" ] || { echo "FAIL: $plan: plan-marks plan_gpus $marks, the plan $gpus" >&2; fail=1; }
	seq=$("$bin" get plan.seq_len --format tsv --plan "$plan" | awk -F'\t' 'NR == 2 { print $2 }')
	mseq=$("$bin" data plan-marks --plan "$plan" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["plan_seq_len"] }')
	[ -n "$seq" ] && [ "$mseq" = "$seq" ] || { echo "FAIL: $plan: plan-marks plan_seq_len '$mseq', the plan '$seq'" >&2; fail=1; }
	par=$("$bin" get model.params --format tsv --plan "$plan" | awk -F'\t' 'NR == 2 { print $2 }')
	mpar=$("$bin" data plan-marks --plan "$plan" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["plan_params"] }')
	awk -v a="$mpar" -v b="$par" 'BEGIN { d = a - b; exit !(b > 0 && d <= 1e-5 * b && d >= -1e-5 * b) }' ||
		{ echo "FAIL: $plan: plan-marks plan_params '$mpar', the model '$par'" >&2; fail=1; }
	for set in "" "run.checkpoint_interval=1800"; do
		sa=; [ -n "$set" ] && sa="--set $set"
		want=$("$bin" get checkpoint.interval --format tsv --plan "$plan" $sa | awk -F'\t' 'NR == 2 { print $2 }')
		got=$("$bin" data goodput-vs-interval --plan "$plan" $sa | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["interval"] + 0 < last { bad = 1 } { last = $c["interval"] + 0 }
			$c["plan"] == 1 { k++; iv = $c["interval"] } END { print (bad ? "unsorted" : k + 0), iv }')
		set -- $got
		[ "$1" = 1 ] && awk -v a="$2" -v b="$want" 'BEGIN { d = a - b; exit !(b > 0 && d <= 1e-6 * b && d >= -1e-6 * b) }' ||
			{ echo "FAIL: $plan ${set:+($set)}: goodput-vs-interval flags '$got' (rows, interval), the plan runs $want s" >&2; fail=1; }
	done
	n=$((n + 1))
done
[ $fail = 0 ] && echo "plan marks: $n plan(s), the plan's GPU count flagged once"
exit $fail
