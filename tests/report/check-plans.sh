#!/bin/sh
# tests/report/check-plans.sh -- the report builds and reads for every plan in
# tests/report/plans/ (tests/plans.mk).
#
#   check-plans.sh MAKE BUILD PLAN.ini...
#
# For each plan: `make PLAN=... OUT=BUILD/plans/NAME` builds the figures, tables and
# both report files and must exit 0; report.html must pass `tidy -q -e` without an
# error and hold no "NaN" or "inf" in its text (a number the chapters failed to guard);
# report.pdf must exist and be non-empty.  The chapters' lint does not depend on the
# plan and runs once.  Closes with "plans: N passed, N failed".
mk=$1; build=$2; shift 2
pass=0; fail=0
if ! "$build/trainplan-report" --lint chapters/*.md >/dev/null; then
	echo "FAIL: trainplan-report --lint chapters/*.md" >&2; fail=$((fail + 1))
fi
for plan in "$@"; do
	name=$(basename "$plan" .ini); out=$build/plans/$name; log=$build/plans/$name.log
	mkdir -p "$build/plans"
	if ! $mk --no-print-directory -s BUILD="$build" PLAN="$plan" OUT="$out" \
			"$out/report.html" >"$log" 2>&1; then
		echo "FAIL: $name: the build failed ($log):" >&2; grep -i 'error' "$log" | head -5 >&2
		fail=$((fail + 1)); continue
	fi
	errs=$(tidy -q -e "$out/report.html" 2>&1 | grep -c -i 'error')
	if [ "$errs" != 0 ]; then
		echo "FAIL: $name: tidy finds $errs errors in $out/report.html" >&2
		tidy -q -e "$out/report.html" 2>&1 | grep -i error | head -3 >&2
		fail=$((fail + 1)); continue
	fi
	if sed -e '/<svg/,/<\/svg>/d' -e 's/<[^>]*>//g' "$out/report.html" | grep -q -w -i -e 'nan' -e 'inf'; then
		echo "FAIL: $name: report.html shows NaN or inf:" >&2
		sed -e '/<svg/,/<\/svg>/d' -e 's/<[^>]*>//g' "$out/report.html" | grep -w -i -e 'nan' -e 'inf' | head -3 >&2
		fail=$((fail + 1)); continue
	fi
	if [ ! -s "$out/report.pdf" ]; then
		echo "FAIL: $name: no report.pdf" >&2; fail=$((fail + 1)); continue
	fi
	pass=$((pass + 1))
done
echo "plans: $pass passed, $fail failed"
[ "$fail" = 0 ]
