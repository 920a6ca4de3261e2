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
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trainplan-marks.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# value of catalog quantity NAME for the plan, as trainplan get's TSV gives it
val() { # NAME [ARGS...]
	q=$1; shift
	"$bin" get "$q" --format tsv --plan "$plan" "$@" | awk -F'\t' 'NR == 2 { print $2 }'
}
# column COL of this plan's plan-marks row
mark() { # COL
	awk -F'\t' -v col="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c[col] }' "$tmp/marks"
}
# A within a relative TOL of B (B > 0)
near() { # A B TOL
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; exit !(b > 0 && d <= t * b && d >= -t * b) }'
}
for plan in "$@"; do
	"$bin" data plan-marks --plan "$plan" > "$tmp/marks" || { echo "FAIL: $plan: trainplan data plan-marks" >&2; fail=1; continue; }
	gpus=$(val plan.gpus)
	days=$(val run.time)
	rows=$("$bin" data goodput-vs-gpus --plan "$plan" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["plan"] == 1 { print $c["gpus"], $c["failure-free days"] }')
	if [ "$(printf '%s\n' "$rows" | grep -c .)" != 1 ]; then
		echo "FAIL: $plan: goodput-vs-gpus flags $(printf '%s\n' "$rows" | grep -c .) rows as the plan's, want 1" >&2; fail=1; continue
	fi
	set -- $rows
	[ "$1" = "$gpus" ] || { echo "FAIL: $plan: the flagged row has $1 GPUs, the plan $gpus" >&2; fail=1; }
	near "$2" "$(awk -v s="$days" 'BEGIN { printf "%.10g", s / 86400 }')" 1e-6 ||
		{ echo "FAIL: $plan: the flagged row's failure-free days $2, the plan's run.time $days s" >&2; fail=1; }
	[ "$(mark plan_gpus)" = "$gpus" ] || { echo "FAIL: $plan: plan-marks plan_gpus $(mark plan_gpus), the plan $gpus" >&2; fail=1; }
	seq=$(val plan.seq_len)
	[ -n "$seq" ] && [ "$(mark plan_seq_len)" = "$seq" ] ||
		{ echo "FAIL: $plan: plan-marks plan_seq_len '$(mark plan_seq_len)', the plan '$seq'" >&2; fail=1; }
	par=$(val model.params)
	near "$(mark plan_params)" "$par" 1e-5 ||
		{ echo "FAIL: $plan: plan-marks plan_params '$(mark plan_params)', the model '$par'" >&2; fail=1; }
	for set in "" "run.checkpoint_interval=1800"; do
		sa=; [ -n "$set" ] && sa="--set $set"
		want=$(val checkpoint.interval $sa)
		got=$("$bin" data goodput-vs-interval --plan "$plan" $sa | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["interval"] + 0 < last { bad = 1 } { last = $c["interval"] + 0 }
			$c["plan"] == 1 { k++; iv = $c["interval"] } END { print (bad ? "unsorted" : k + 0), iv }')
		set -- $got
		[ "$1" = 1 ] && near "$2" "$want" 1e-6 ||
			{ echo "FAIL: $plan ${set:+($set)}: goodput-vs-interval flags '$got' (rows, interval), the plan runs $want s" >&2; fail=1; }
	done
	n=$((n + 1))
done
[ $fail = 0 ] && echo "plan marks: $n plan(s), the plan's GPU count flagged once"
exit $fail
