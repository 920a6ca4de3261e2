#!/bin/sh
# tests/report/check-plans.sh -- the report builds and reads for every plan in
# tests/report/plans/ (tests/plans.mk runs one plan per target, in parallel under -j).
#
#   check-plans.sh plan MAKE BUILD PLAN.ini      check one plan
#   check-plans.sh summary BUILD PLAN.ini...     the lint, then the closing line
#
# plan: `make PLAN=... OUT=BUILD/plans/NAME` builds the figures, tables and both report
# files and must exit 0; report.html must pass `tidy -q -e` without an error and hold no
# "NaN" or "inf" in its text (a number the chapters failed to guard); report.pdf must
# exist, be non-empty and have no page more than half empty but the title, the contents,
# a page before a chapter and the last (tests/layout/check-fill.sh).  A plan that passes gets the stamp BUILD/plans/NAME/.ok, one
# that fails BUILD/plans/NAME.fail with the reason (the exit status is 0 either way, so
# that every plan runs and the summary counts them).
# summary: the chapters' lint, which does not depend on the plan, runs once; then
# "plans: N passed, N failed" over the stamps; the exit status is 1 if any failed.
mode=$1; shift
case $mode in
plan)
	mk=$1; build=$2; plan=$3
	name=$(basename "$plan" .ini); out=$build/plans/$name; log=$build/plans/$name.log
	mkdir -p "$build/plans"
	rm -f "$out/.ok" "$build/plans/$name.fail"
	failed() { echo "FAIL: $name: $1" | tee "$build/plans/$name.fail" >&2; }
	if ! $mk --no-print-directory -s BUILD="$build" PLAN="$plan" OUT="$out" \
			"$out/report.html" >"$log" 2>&1; then
		failed "the build failed ($log):"; grep -i 'error' "$log" | head -5 >&2
		exit 0
	fi
	errs=$(tidy -q -e "$out/report.html" 2>&1 | grep -c -i 'error')
	if [ "$errs" != 0 ]; then
		failed "tidy finds $errs errors in $out/report.html"
		tidy -q -e "$out/report.html" 2>&1 | grep -i error | head -3 >&2
		exit 0
	fi
	if sed -e '/<svg/,/<\/svg>/d' -e 's/<[^>]*>//g' "$out/report.html" | grep -q -w -i -e 'nan' -e 'inf'; then
		failed "report.html shows NaN or inf:"
		sed -e '/<svg/,/<\/svg>/d' -e 's/<[^>]*>//g' "$out/report.html" | grep -w -i -e 'nan' -e 'inf' | head -3 >&2
		exit 0
	fi
	if [ ! -s "$out/report.pdf" ]; then
		failed "no report.pdf"; exit 0
	fi
	if ! sh tests/layout/check-fill.sh "$out/report.pdf" >/dev/null 2>"$out/fill.err"; then
		failed "report.pdf has a page more than half empty:"; head -3 "$out/fill.err" >&2
		exit 0
	fi
	touch "$out/.ok"
	;;
summary)
	build=$1; shift
	pass=0; fail=0
	if ! "$build/trainplan-report" --lint chapters/*.md >/dev/null; then
		echo "FAIL: trainplan-report --lint chapters/*.md" >&2; fail=$((fail + 1))
	fi
	for plan in "$@"; do
		name=$(basename "$plan" .ini)
		if [ -f "$build/plans/$name/.ok" ]; then
			pass=$((pass + 1))
		else
			[ -f "$build/plans/$name.fail" ] || echo "FAIL: $name: not checked" >&2
			fail=$((fail + 1))
		fi
	done
	echo "plans: $pass passed, $fail failed"
	[ "$fail" = 0 ]
	;;
*)
	echo "usage: check-plans.sh plan MAKE BUILD PLAN.ini | summary BUILD PLAN.ini..." >&2
	exit 2
	;;
esac
