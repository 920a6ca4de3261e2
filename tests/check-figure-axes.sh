#!/bin/sh
# tests/check-figure-axes.sh -- one quantity per axis: no figure draws a second y axis
# (y2), which puts two quantities on one plot area so that a point of one lands on a line
# of the other (a step time on the capacity line).  A chart of two quantities draws them
# in panels, as figures/recompute-compare.gp and figures/recipe-compare.gp do.  The
# figures listed in 'pending' still have a right axis; the list only shrinks.
pending=""
fail=0; n=0
for f in figures/*.gp figures/compare/*.gp; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .gp)
	case " $pending " in *" $name "*) continue ;; esac
	n=$((n + 1))
	if grep -n -E '^[^#]*(y2label|y2tics|y2range|axes x1y2|x2y2)' "$f" >/dev/null; then
		echo "FAIL: $f draws a second y axis (y2): split it into panels" >&2
		fail=1
	fi
done
for name in $pending; do
	if ! grep -q -E '^[^#]*(y2label|y2tics|axes x1y2)' "figures/$name.gp"; then
		echo "FAIL: figures/$name.gp has no second axis any more: take it off the pending list" >&2
		fail=1
	fi
done
[ $fail = 0 ] && echo "figure-axes: $n figures with one quantity per axis"
exit $fail
