#!/bin/sh
# Run cmocka test programs; print one closing line "N passed, N failed" over all.
pass=0; fail=0
for t in "$@"; do
	out=$("$t" 2>&1); rc=$?
	p=$(printf '%s\n' "$out" | sed -n 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -n 's/.*\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0}))
	if [ $rc -ne 0 ]; then
		printf '%s\n' "$out" | grep -v '^\[ \(RUN\|       OK\) ' >&2
		[ -n "$f" ] || fail=$((fail + 1))
		echo "FAIL: $t (exit $rc)" >&2
	fi
done
echo "unit: $pass passed, $fail failed"
[ $fail -eq 0 ]
