#!/bin/sh
# tests/check-figure-isolation.sh -- every chart the report's pipeline draws is the chart a
# gnuplot of its own draws from the same dataset, byte for byte: no state of one figure
# (a variable, a setting, a terminal's remembered colour or plot title) reaches the next.
# The reference render is the one process per figure that report/report.mk's PNG rule
# runs: gnuplot -e "datafile=...; outfile=...; device='svg'" figures/style.gp figures/NAME.gp.
# The report's pipeline draws many figures in one gnuplot (with --jobs 1, all of them);
# 'reset session' alone between them fails this test with gnuplot 5.4, figures/between.gpi
# gives back what it keeps (docs/architecture.md §2, "One gnuplot draws many figures").
# usage: check-figure-isolation.sh TRAINPLAN PLAN.ini... -- FIGURE...
tp=$1; shift
plans=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do plans="$plans $1"; shift; done
shift
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trainplan-figiso.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
for p in $plans; do
	rm -rf "$tmp/rep" "$tmp/alone"; mkdir "$tmp/alone"
	if ! "$tp" report "$p" -o "$tmp/rep" --share . --no-pdf --jobs 1 >/dev/null 2>"$tmp/err"; then
		fail=$((fail + 1)); echo "FAIL: trainplan report $p: $(cat "$tmp/err")" >&2
		continue
	fi
	for f in "$@"; do
		gnuplot -e "datafile='$tmp/rep/data/$f.tsv'; outfile='$tmp/alone/$f.svg'; device='svg'" \
			figures/style.gp "figures/$f.gp" 2>"$tmp/err"
		if cmp -s "$tmp/alone/$f.svg" "$tmp/rep/figures/$f.svg"; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "FAIL: figure $f of $p: the report's SVG differs from gnuplot's alone" \
			     "($(diff "$tmp/alone/$f.svg" "$tmp/rep/figures/$f.svg" 2>&1 | grep -c '^[<>]') lines)" >&2
		fi
	done
done
echo "figure isolation: $pass passed, $fail failed"
[ $fail -eq 0 ]
