#!/bin/sh
# tests/check-figure-data.sh -- no figure's dataset over 1 MB (10^6 bytes) for any shipped
# plan: a chart of a few thousand points needs no more, and gnuplot reads every byte
# (the search-pareto dataset of plans/deepseek-v3-h800.ini was 69 MB before it was cut
# to the frontier and a sample, calc/catalog_search.c).
# usage: check-figure-data.sh TRAINPLAN PLAN.ini... -- FIGURE...
tp=$1; shift
plans=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do plans="$plans $1"; shift; done
shift
limit=1000000; pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trainplan-figdata.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# every dataset of a plan from one process (trainplan data --all, as the report's
# pipeline writes them: one evaluation context, one planner search), then each figure's
for p in $plans; do
	rm -rf "$tmp/data"; mkdir "$tmp/data"
	"$tp" data --all --dir "$tmp/data" --plan "$p"; rc=$?
	for f in "$@"; do
		n=$(wc -c < "$tmp/data/$f.tsv" 2>/dev/null || echo 0)
		if [ $rc = 0 ] && [ "$n" -gt 0 ] && [ "$n" -le $limit ]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1)); echo "FAIL: trainplan data $f --plan $p: exit $rc, $n bytes (at most $limit)" >&2
		fi
	done
done
echo "figure data: $pass passed, $fail failed"
[ $fail -eq 0 ]
