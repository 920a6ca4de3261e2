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
# Axes that pick their own tic step from a third of the range (tic_raw, tic_p, tic_m) must
# show at least two intervals: the step is that third rounded to the nearest 1, 2 or 5
# times a power of ten.  Rounded up, a range of 0 to 35.7 s (DeepSeek-V3's recipes, 28.59 s
# times 1.25) got a step of 20 and one tic above zero.  Each rule is run by gnuplot on
# thirds of 1.01, 1.19, 2.1, 3.01, 4.9 and 7.4 times a power of ten.
for f in figures/*.gp; do
	rule=$(sed -n 's/^set ytics 0, \((.*)\) \* tic_p nomirror$/\1/p' "$f")
	[ -n "$rule" ] || continue
	for raw in 1.01 1.19 2.1 3.01 4.9 7.4 11.9 30.1; do
		iv=$(gnuplot -e "tic_raw = $raw; tic_p = 10**floor(log10(tic_raw)); tic_m = tic_raw / tic_p; print 3 * tic_raw / (($rule) * tic_p)" 2>&1)
		if ! awk -v iv="$iv" 'BEGIN { exit !(iv + 0 >= 2 && iv + 0 <= 6) }'; then
			echo "FAIL: $f: a third of the range of $raw gives $iv tic intervals, not 2 to 6" >&2
			fail=1
		fi
	done
done
[ $fail = 0 ] && echo "figure-axes: $n figures with one quantity per axis"
exit $fail
