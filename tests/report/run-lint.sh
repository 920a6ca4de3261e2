#!/bin/sh
# Lint goldens: the chapters and tests/report/lint/good.md must pass; bad.md must give
# exactly the findings in bad.err (stderr followed by "exit: N").  Second argument "1"
# rewrites bad.err.
bin=$1; update=$2; pass=0; fail=0
check() { # name, command status, expected status
	if [ "$2" -eq "$3" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: lint $1 (exit $2, expected $3)" >&2; fi
}
"$bin" --lint chapters/*.md; check chapters $? 0
out=$("$bin" --lint tests/report/lint/good.md 2>&1); rc=$?
[ -z "$out" ] || { echo "$out" >&2; rc=9; }
check good.md $rc 0
got=$("$bin" --lint tests/report/lint/bad.md 2>&1; echo "exit: $?")
[ "$update" = 1 ] && printf '%s\n' "$got" > tests/report/lint/bad.err
if [ "$got" = "$(cat tests/report/lint/bad.err)" ]; then pass=$((pass + 1)); else
	fail=$((fail + 1)); echo "FAIL: lint bad.md" >&2
	printf '%s\n' "$got" | diff -u tests/report/lint/bad.err - | head -n 30 >&2
fi
echo "lint: $pass passed, $fail failed"
[ $fail -eq 0 ]
