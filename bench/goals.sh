#!/bin/sh
# bench/goals.sh -- the performance goals, each figure printed beside its goal (`make
# bench-goals`, part of `make bench`), for every plan given (the make target gives the
# shipped plans, plans/*.ini).  Every figure is the median of RUNS runs, the commands
# interleaved (one run of each per round, so that a busy moment of the machine falls on
# all of them alike), timed as CPU time, user + system, of the whole process and of
# every process it waits for (bench/cputime.c):
#   clean build           trainplan report --plan P -o DIR --share . into an empty DIR:
#                         the datasets, the tables, every figure's gnuplot, the HTML
#                         and the PDF, every search run (the `make report` rule)   <= 3 s
#   largest figure data   the largest file of DIR/data after the clean build    <= 1 MB
#   report HTML           trainplan-report --no-pdf of the chapters, the plan's
#                         searches read from DIR/search-cache (report/cache.c),
#                         as every run after the first reads them            <= 50 ms
#   report HTML, searched trainplan-report --no-pdf --no-cache: the first run of a
#                         plan, every search run                             <= 50 ms
#   report HTML + PDF     trainplan-report of the chapters (the cache read) <= 150 ms
#   planner               configurations whose memory was computed (search --stats
#                         "measured") per CPU-second of the whole `trainplan search`
#                         command as a user runs it (the top re-timed by the simulator
#                         included)                                          >= 2 M/s
# and once, for no plan:
#   simulator first run   a fresh process that simulates interleaved p = 64, v = 4,
#                         m = 1,024 once (schedule --bench 1: the first run, page
#                         faults included, and the process's start)        <= 50 ms
# "ok" when the median meets the goal, "MISSED" when it does not; the exit status is 0
# either way (the machine's speed is not a test), 1 when a command fails.
# usage: goals.sh CPUTIME TRAINPLAN TRAINPLAN-REPORT RUNS PLAN... -- CHAPTER...
cpu=$1; tp=$2; rpt=$3; runs=$4; shift 4
plans=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do plans="$plans $1"; shift; done
[ $# -gt 0 ] && shift
[ -n "$plans" ] || { echo "usage: goals.sh CPUTIME TRAINPLAN TRAINPLAN-REPORT RUNS PLAN... -- CHAPTER..." >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trainplan-goals.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# one folder of figures each for the chapters' runs: the plan's name, made unique
k=0
for p in $plans; do
	k=$((k + 1))
	mkdir "$tmp/$k" || exit 2
	"$tp" search --stats --plan "$p" | sed -n 's/^ *"measured": *\([0-9][0-9.eE+-]*\).*/\1/p' > "$tmp/$k/measured"
	[ -s "$tmp/$k/measured" ] || { echo "goals: trainplan search --stats --plan $p gave no count" >&2; exit 1; }
done
i=0
while [ $i -lt "$runs" ]; do
	i=$((i + 1))
	k=0
	for p in $plans; do
		k=$((k + 1)); d=$tmp/$k
		rm -rf "$d/out"
		"$cpu" "$tp" report --plan "$p" -o "$d/out" --share . >> "$d/clean" 2>/dev/null || {
			echo "goals: trainplan report --plan $p failed" >&2; exit 1; }
		"$cpu" "$rpt" --plan "$p" --out-dir "$d/out" --no-pdf -o "$d/r" "$@" >> "$d/html" || exit 1
		"$cpu" "$rpt" --plan "$p" --out-dir "$d/out" --no-pdf --no-cache -o "$d/r" "$@" >> "$d/cold" || exit 1
		"$cpu" "$rpt" --plan "$p" --out-dir "$d/out" -o "$d/r" "$@" >> "$d/both" || exit 1
		"$cpu" "$tp" search --plan "$p" >> "$d/search" || exit 1
	done
	"$cpu" "$tp" schedule --schedule interleaved --p 64 --v 4 --m 1024 --bench 1 >> "$tmp/sim" || exit 1
done
med() { sort -g "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
line() { # WHAT VALUE UNIT GOAL-TEXT OK(1/0)
	printf '  %-56s %10s %-12s (goal %s)  %s\n' "$1" "$2" "$3" "$4" "$( [ "$5" = 1 ] && echo ok || echo MISSED)"; }
ms() { awk -v x="$1" 'BEGIN { printf "%.1f", x * 1e3 }'; }
le() { awk -v x="$1" -v g="$2" 'BEGIN { print (x <= g) }'; }
echo "goals (median of $runs interleaved runs, CPU time of the whole process):"
k=0
for p in $plans; do
	k=$((k + 1)); d=$tmp/$k
	clean=$(med "$d/clean"); html=$(med "$d/html"); cold=$(med "$d/cold"); both=$(med "$d/both")
	search=$(med "$d/search"); measured=$(cat "$d/measured")
	big=$(find "$d/out/data" -type f -exec wc -c {} + | awk '$2 != "total" && $1 > m { m = $1; f = $2 } END { print m + 0, f }')
	bytes=${big%% *}; file=$(basename "${big#* }")
	echo "$p:"
	line "clean build (trainplan report, every search run)" "$(awk -v x="$clean" 'BEGIN { printf "%.2f", x }')" "s CPU" \
		"<= 3 s" "$(le "$clean" 3)"
	line "largest figure data file ($file)" "$(awk -v x="$bytes" 'BEGIN { printf "%.1f", x / 1e3 }')" "kB" \
		"<= 1 MB" "$(le "$bytes" 1000000)"
	line "report HTML" "$(ms "$html")" "ms CPU" "<= 50 ms" "$(le "$html" 0.050)"
	line "report HTML, every search run (--no-cache)" "$(ms "$cold")" "ms CPU" "<= 50 ms" "$(le "$cold" 0.050)"
	line "report HTML + PDF" "$(ms "$both")" "ms CPU" "<= 150 ms" "$(le "$both" 0.150)"
	line "planner, whole search command ($measured configurations)" \
		"$(awk -v n="$measured" -v x="$search" 'BEGIN { printf "%.2f", n / x / 1e6 }')" "M/CPU-s" ">= 2 M/CPU-s" \
		"$(awk -v n="$measured" -v x="$search" 'BEGIN { print (n / x >= 2e6) }')"
done
sim=$(med "$tmp/sim")
echo "every plan:"
line "simulator first run, interleaved p=64 v=4 m=1024" "$(ms "$sim")" "ms CPU" "<= 50 ms" "$(le "$sim" 0.050)"
