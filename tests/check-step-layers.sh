#!/bin/sh
# tests/check-step-layers.sh -- the dataset step-layers (figures/step-layers.gp) draws TP
# inside the layers: the default plan (plans/default.ini: dense-100b, 80 layers, pp 8, so
# 80 / 8 = 10 layers on every stage) has 10 layers, each its compute (step.layer_forward)
# then its exposed TP/CP collectives (step.layer_tp_forward), end to end, so the last
# row ends at 10 x (forward + collectives); a plan without TP or CP
# (tests/report/plans/tp1.ini) has no TP/CP segment.
# usage: check-step-layers.sh TRAINPLAN
bin=$1; fail=0
get() { "$bin" get "$1" --plan "$2" | sed 's/.* = //; s/ s$//'; }
f=$(get step.layer_forward plans/default.ini)
c=$(get step.layer_tp_forward plans/default.ini)
"$bin" data step-layers --plan plans/default.ini | awk -F'\t' -v f="$f" -v c="$c" '
	function near(a, b) { return a - b < 1e-9 * (b > 0 ? b : 1) && b - a < 1e-9 * (b > 0 ? b : 1) }
	NR == 1 { next }
	{ n[$3]++; if ($1 > L) L = $1; end = $5
	  if ($3 == "compute" && !near($6, f)) { print "FAIL: layer " $1 " compute " $6 ", step.layer_forward " f > "/dev/stderr"; bad = 1 }
	  if ($3 == "TP/CP" && !near($6, c)) { print "FAIL: layer " $1 " TP/CP " $6 ", step.layer_tp_forward " c > "/dev/stderr"; bad = 1 } }
	END {
		if (L != 10 || n["compute"] != 10 || n["TP/CP"] != 10) { print "FAIL: default: " L " layers, " n["compute"] " compute and " n["TP/CP"] " TP/CP segments, want 10 each" > "/dev/stderr"; bad = 1 }
		if (!near(end, 10 * (f + c))) { print "FAIL: default: the forward ends at " end ", want 10 x (" f " + " c ")" > "/dev/stderr"; bad = 1 }
		exit bad
	}' || fail=1
if "$bin" data step-layers --plan tests/report/plans/tp1.ini | cut -f3 | grep -qx 'TP/CP'; then
	echo "FAIL: tp1: a TP/CP segment in a plan without TP or CP" >&2; fail=1
fi
[ $fail = 0 ] && echo "step layers: default 10 layers with their TP/CP inside, tp1 none"
exit $fail
