#!/bin/sh
# Outputs do not depend on the locale: under de_DE.UTF-8 (a decimal comma) trainplan,
# trainplan-report and the figures give the same bytes as under C.  The locale is
# compiled into a scratch folder with localedef when the system lacks it; without
# localedef's sources the test says so and passes.
# usage: check-locale.sh TRAINPLAN TRAINPLAN-REPORT
tp=$1; rpt=$2; pass=0; fail=0
tmp=$(mktemp -d /tmp/trainplan-locale.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
loc=de_DE.UTF-8
if LC_ALL=$loc locale 2>&1 | grep -q 'Cannot set'; then
	if localedef -i de_DE -f UTF-8 "$tmp/$loc" >/dev/null 2>&1; then LOCPATH=$tmp; export LOCPATH
	else echo "locale: no $loc and no localedef sources: skipped"; exit 0; fi
fi
# the locale must really use a decimal comma, or the test proves nothing
[ "$(LC_ALL=$loc awk 'BEGIN { printf "%.1f", 1.5 }')" = "1,5" ] ||
	[ "$(LC_ALL=$loc printf '%.1f' 1.5 2>/dev/null)" = "1,5" ] ||
	{ echo "locale: $loc has no decimal comma here: skipped"; exit 0; }
same() { # NAME COMMAND...: the command's stdout and status under C and under $loc
	name=$1; shift
	LC_ALL=C "$@" > "$tmp/c.out" 2>&1; rc1=$?
	LC_ALL=$loc "$@" > "$tmp/de.out" 2>&1; rc2=$?
	if [ $rc1 -eq $rc2 ] && cmp -s "$tmp/c.out" "$tmp/de.out"; then pass=$((pass + 1))
	else fail=$((fail + 1)); echo "FAIL: $name differs under $loc" >&2; diff "$tmp/c.out" "$tmp/de.out" | head -5 >&2; fi
}
same "trainplan memory" "$tp" memory
same "trainplan step --format json" "$tp" step --format json
same "trainplan data interconnect-sweep" "$tp" data interconnect-sweep
same "trainplan table --all" "$tp" table memory-breakdown --format csv
same "trainplan --set inter_node_bw=12.5GB/s" "$tp" get step.time --set inter_node_bw=12.5GB/s
same "trainplan-report --expand" "$rpt" --expand chapters/*.md
# the figures' own scripts: gnuplot with the figure's count of valid placements (one stats
# pass; an awk through a shell before, whose "$3+0==$3" a decimal comma made false)
"$tp" data interconnect-sweep > "$tmp/is.tsv"
for fig in interconnect-sweep step-breakdown; do
	"$tp" data $fig > "$tmp/$fig.tsv"
	same "figure $fig" gnuplot -e "datafile='$tmp/$fig.tsv'; outfile='/dev/stdout'; device='svg'" \
		figures/style.gp figures/$fig.gp
done
LC_ALL=$loc gnuplot -e "datafile='$tmp/is.tsv'; outfile='$tmp/is.svg'; device='svg'" figures/style.gp \
	figures/interconnect-sweep.gp 2>/dev/null
if grep -q 'neither placement' "$tmp/is.svg"; then
	fail=$((fail + 1)); echo "FAIL: interconnect-sweep under $loc says neither placement is valid" >&2
else pass=$((pass + 1)); fi
echo "locale: $pass passed, $fail failed"
[ $fail -eq 0 ]
