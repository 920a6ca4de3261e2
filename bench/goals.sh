#!/bin/sh
# bench/goals.sh -- the performance goals, each figure printed beside its goal (`make
# bench-goals`, part of `make bench`).  Every figure is the median of RUNS runs, the
# commands interleaved (one run of each per round, so that a busy moment of the machine
# falls on all of them alike), timed as CPU time, user + system, of the whole process
# (bench/cputime.c):
#   report HTML           trainplan-report --no-pdf of the chapters, the plan's
#                         searches read from OUT/search-cache (report/cache.c),
#                         as every run after the first reads them            <= 50 ms
#   report HTML, searched trainplan-report --no-pdf --no-cache: the first run of a
#                         plan, every search run                             <= 50 ms
#   report HTML + PDF     trainplan-report of the chapters (the cache read) <= 150 ms
#   planner               configurations whose memory was computed (search --stats
#                         "measured") per CPU-second of the whole `trainplan search`
#                         command as a user runs it (the top re-timed by the simulator
#                         included)                                          >= 2 M/s
#   simulator first run   a fresh process that simulates interleaved p = 64, v = 4,
#                         m = 1,024 once (schedule --bench 1: the first run, page
#                         faults included, and the process's start)        <= 50 ms
# "ok" when the median meets the goal, "MISSED" when it does not; the exit status is 0
# either way (the machine's speed is not a test).
# usage: goals.sh CPUTIME TRAINPLAN TRAINPLAN-REPORT PLAN OUT RUNS CHAPTER...
cpu=$1; tp=$2; rpt=$3; plan=$4; out=$5; runs=$6; shift 6
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trainplan-goals.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

measured=$("$tp" search --stats --plan "$plan" | sed -n 's/^ *"measured": *\([0-9][0-9.eE+-]*\).*/\1/p')
[ -n "$measured" ] || { echo "goals: trainplan search --stats gave no count" >&2; exit 1; }
i=0
while [ $i -lt "$runs" ]; do
	i=$((i + 1))
	"$cpu" "$rpt" --plan "$plan" --out-dir "$out" --no-pdf -o "$tmp/r" "$@" >> "$tmp/html" || exit 1
	"$cpu" "$rpt" --plan "$plan" --out-dir "$out" --no-pdf --no-cache -o "$tmp/r" "$@" >> "$tmp/cold" || exit 1
	"$cpu" "$rpt" --plan "$plan" --out-dir "$out" -o "$tmp/r" "$@" >> "$tmp/both" || exit 1
	"$cpu" "$tp" search --plan "$plan" >> "$tmp/search" || exit 1
	"$cpu" "$tp" schedule --schedule interleaved --p 64 --v 4 --m 1024 --bench 1 >> "$tmp/sim" || exit 1
done
med() { sort -g "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
line() { # WHAT VALUE UNIT GOAL-TEXT OK(1/0)
	printf '%-58s %10s %-12s (goal %s)  %s\n' "$1" "$2" "$3" "$4" "$( [ "$5" = 1 ] && echo ok || echo MISSED)"; }
html=$(med "$tmp/html"); cold=$(med "$tmp/cold"); both=$(med "$tmp/both"); search=$(med "$tmp/search"); sim=$(med "$tmp/sim")
echo "goals for $plan (median of $runs interleaved runs, CPU time of the whole process):"
line "report HTML" "$(awk -v x="$html" 'BEGIN { printf "%.1f", x * 1e3 }')" "ms CPU" "<= 50 ms" \
	"$(awk -v x="$html" 'BEGIN { print (x <= 0.050) }')"
line "report HTML, every search run (--no-cache)" "$(awk -v x="$cold" 'BEGIN { printf "%.1f", x * 1e3 }')" "ms CPU" \
	"<= 50 ms" "$(awk -v x="$cold" 'BEGIN { print (x <= 0.050) }')"
line "report HTML + PDF" "$(awk -v x="$both" 'BEGIN { printf "%.1f", x * 1e3 }')" "ms CPU" "<= 150 ms" \
	"$(awk -v x="$both" 'BEGIN { print (x <= 0.150) }')"
line "planner, whole search command ($measured configurations)" \
	"$(awk -v n="$measured" -v x="$search" 'BEGIN { printf "%.2f", n / x / 1e6 }')" "M/CPU-s" ">= 2 M/CPU-s" \
	"$(awk -v n="$measured" -v x="$search" 'BEGIN { print (n / x >= 2e6) }')"
line "simulator first run, interleaved p=64 v=4 m=1024" "$(awk -v x="$sim" 'BEGIN { printf "%.1f", x * 1e3 }')" \
	"ms CPU" "<= 50 ms" "$(awk -v x="$sim" 'BEGIN { print (x <= 0.050) }')"
