#!/bin/sh
# CLI goldens: tests/cli/NAME.args holds the arguments (one shell line); NAME.out the
# expected stdout followed by a line "exit: N".  Second argument "1" rewrites goldens.
# The cases run JOBS at a time (default: the processors online), a few to a shell; each
# failing case's diff is printed whole, in the order of the cases, after all have run.
if [ "$1" = --case ]; then # --case BIN UPDATE DIR ARGS...: run these cases, DIR/NAME.pass or .fail
	bin=$2; update=$3; dir=$4; shift 4
	for a in "$@"; do
		n=${a%.args}; r=$dir/$(basename "$n")
		got=$(eval "\"$bin\" $(cat "$a")" 2>&1; echo "exit: $?")
		if [ "$update" = 1 ]; then printf '%s\n' "$got" > "$n.out"; fi
		if [ -f "$n.out" ] && [ "$got" = "$(cat "$n.out")" ]; then
			: > "$r.pass"
		else
			{ echo "FAIL: $n"; printf '%s\n' "$got" | diff -u "$n.out" - | head -n 40; } > "$r.fail" 2>&1
		fi
	done
	exit 0
fi
bin=$1; update=$2; pass=0; fail=0
jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
dir=$(mktemp -d "${TMPDIR:-/tmp}/trainplan-cli.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
ls tests/cli/*.args | xargs -P "$jobs" -n 4 sh "$0" --case "$bin" "$update" "$dir"
for a in tests/cli/*.args; do
	n=$(basename "${a%.args}")
	if [ -f "$dir/$n.pass" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1))
		if [ -f "$dir/$n.fail" ]; then cat "$dir/$n.fail" >&2; else echo "FAIL: tests/cli/$n (did not run)" >&2; fi
	fi
done
echo "cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
