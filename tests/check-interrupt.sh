#!/bin/sh
# An interrupted report run leaves its output folder as it was or whole (docs/architecture.md
# §8): trainplan-report renders the real chapters and is sent SIGINT or SIGTERM after a few
# delays; the folder must then hold no temporary, and either the files it held before (none,
# or an old report.html and report.pdf, byte for byte) or the complete new report (byte for
# byte the report of an uninterrupted run), never a new HTML beside an old PDF.
# usage: check-interrupt.sh TRAINPLAN-REPORT OUT  (OUT holds the figures and tables)
rpt=$1; out=${2:-output}; pass=0; fail=0
tmp=$(mktemp -d /tmp/trainplan-interrupt.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
run() { "$rpt" -o "$1/report" --out-dir "$out" chapters/*.md; }

# A command started with '&' by a non-interactive shell ignores SIGINT; GNU env gives it back
# the default action (started directly, so that $! is the report's own PID); without it,
# SIGTERM alone is tested.
if env --default-signal=INT true 2>/dev/null; then
	dflt="env --default-signal=INT"; sigs="INT TERM"
else
	dflt=""; sigs="TERM"
fi

# the complete report of an uninterrupted run, and its duration [s]
mkdir "$tmp/ref"
t0=$(date +%s.%N)
if ! run "$tmp/ref" 2>"$tmp/err"; then
	bad "the reference run failed: $(cat "$tmp/err")"
	echo "interrupt: $pass passed, $fail failed"
	exit 1
fi
t1=$(date +%s.%N)
# fixed delays early in the run, and late ones near its end (85 % and 97 % of its
# duration) that may fall into the writing of the output
delays="0.05 0.1 0.2 $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f %.2f", 0.85 * (b - a), 0.97 * (b - a) }')"
printf 'old html\n' > "$tmp/old.html"
printf 'old pdf\n' > "$tmp/old.pdf"

n=0
for sig in $sigs; do
	killed=0
	for delay in $delays; do
		for start in empty old; do
			n=$((n + 1)); dir="$tmp/run$n"; mkdir "$dir"
			if [ $start = old ]; then
				cp "$tmp/old.html" "$dir/report.html"; cp "$tmp/old.pdf" "$dir/report.pdf"
			fi
			$dflt "$rpt" -o "$dir/report" --out-dir "$out" chapters/*.md 2>/dev/null &
			pid=$!
			sleep "$delay"
			kill -"$sig" "$pid" 2>/dev/null
			{ wait "$pid"; } 2>/dev/null; rc=$?
			what="SIG$sig after $delay s, folder $start (exit $rc)"
			[ -n "$VERBOSE" ] && echo "$what" >&2
			# ended by the signal (128 + its number) or finished before it came
			case $sig.$rc in
			INT.130|TERM.143) killed=$((killed + 1)); ok ;;
			*.0) ok ;;
			*) bad "$what: neither killed by the signal nor finished" ;;
			esac
			left=$(cd "$dir" && find . -name '*tmp*' | sed 's|^\./||')
			[ -z "$left" ] && ok || bad "$what: left a temporary: $left"
			list=$(cd "$dir" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ')
			if [ "$list" = "report.html report.pdf " ] && cmp -s "$dir/report.html" "$tmp/ref/report.html" &&
			   cmp -s "$dir/report.pdf" "$tmp/ref/report.pdf"; then
				ok # the whole new report
			elif [ $start = empty ] && [ -z "$list" ]; then
				ok # nothing, as before
			elif [ $start = old ] && [ "$list" = "report.html report.pdf " ] &&
			     cmp -s "$dir/report.html" "$tmp/old.html" && cmp -s "$dir/report.pdf" "$tmp/old.pdf"; then
				ok # the old report, untouched
			else
				bad "$what: the folder holds neither the old nor the whole new report: $list"
			fi
		done
	done
	# the early delays must have interrupted a run, or nothing was tested
	[ $killed -gt 0 ] && ok || bad "SIG$sig ended no run (each finished first)"
done

echo "interrupt: $pass passed, $fail failed"
[ $fail -eq 0 ]
