#!/bin/sh
# Inputs without an end (/dev/zero) are refused after a size limit, with exit status
# 2 and a message, instead of hanging or filling the memory (docs/architecture.md §8).
# usage: check-endless.sh TRAINPLAN-REPORT
rpt=$1; pass=0; fail=0
for mode in --expand --lint --text; do
	err=$(timeout 20 "$rpt" $mode /dev/zero 2>&1 >/dev/null); rc=$?
	if [ $rc -eq 2 ] && [ "$err" = "trainplan-report: /dev/zero: error: more than 16777216 bytes: not a chapter" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); echo "FAIL: trainplan-report $mode /dev/zero: exit $rc: $err" >&2
	fi
done
echo "endless inputs: $pass passed, $fail failed"
[ $fail -eq 0 ]
