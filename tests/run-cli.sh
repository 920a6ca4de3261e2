#!/bin/sh
# CLI goldens: tests/cli/NAME.args holds the arguments (one shell line); NAME.out the
# expected stdout followed by a line "exit: N".  Second argument "1" rewrites goldens.
bin=$1; update=$2; pass=0; fail=0
for a in tests/cli/*.args; do
	n=${a%.args}
	got=$(eval "\"$bin\" $(cat "$a")" 2>&1; echo "exit: $?")
	if [ "$update" = 1 ]; then printf '%s\n' "$got" > "$n.out"; fi
	if [ -f "$n.out" ] && [ "$got" = "$(cat "$n.out")" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1)); echo "FAIL: $n" >&2
		printf '%s\n' "$got" | diff -u "$n.out" - | head -n 40 >&2
	fi
done
echo "cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
