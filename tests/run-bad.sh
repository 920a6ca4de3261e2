#!/bin/sh
# Bad-input corpus: every tests/bad/NAME.ini must be refused with exit status 2 and
# the messages in NAME.err, and no output on stdout.  A message of a kind is kept as its
# ID and key ("FILE:LINE: error[E010] model.layers", docs/architecture.md §9): it
# matches the message with that location, ID and key whatever its words; any other line
# is compared whole (tests/bad-match.awk).  A file NAME.args, if
# present, holds extra arguments (e.g. --set overrides).
# import: tests/bad/import-NAME.FRAMEWORK is read by `import --from FRAMEWORK`, with the
# same rule (exit status 2, nothing on stdout, exactly the messages of NAME.err).
# The cases run JOBS at a time (default: the processors online), a few to a shell; each
# failing case's diff is printed whole, in the order of the cases, after all have run.
same() { # EXPECTED-FILE ACTUAL-TEXT
	[ -f "$1" ] && { cat "$1"; printf '\f\n'; printf '%s\n' "$2"; } | awk -v mode=match -f tests/bad-match.awk
}
if [ "$1" = --case ]; then # --case BIN UPDATE DIR FILES...: run these cases, DIR/N.pass or .fail
	bin=$2; update=$3; dir=$4; shift 4
	for f in "$@"; do
		r=$dir/$(echo "$f" | tr / _)
		case $f in
		*.ini)
			n=${f%.ini}; extra=""; [ -f "$n.args" ] && extra=$(cat "$n.args")
			err=$(eval "\"$bin\" memory --plan \"$f\" $extra" 2>&1 >"$r.stdout"); rc=$? ;;
		*)
			n=${f%.*}; fw=${f##*.}
			err=$("$bin" import --from "$fw" "$f" 2>&1 >"$r.stdout"); rc=$? ;;
		esac
		out=$(cat "$r.stdout"); rm -f "$r.stdout"
		if [ "$update" = 1 ]; then printf '%s\n' "$err" | awk -v mode=short -f tests/bad-match.awk > "$n.err"; fi
		if [ $rc -eq 2 ] && [ -z "$out" ] && same "$n.err" "$err"; then
			: > "$r.pass"
		else
			{ echo "FAIL: $f (exit $rc)"; printf '%s\n' "$err" | diff -u "$n.err" -; } > "$r.fail" 2>&1
		fi
	done
	exit 0
fi
bin=$1; update=$2; pass=0; fail=0
jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
dir=$(mktemp -d "${TMPDIR:-/tmp}/trainplan-bad.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
cases=$(ls tests/bad/*.ini; ls tests/bad/import-*.megatron tests/bad/import-*.torchtitan tests/bad/import-*.deepspeed \
	tests/bad/import-*.nemo 2>/dev/null)
printf '%s\n' "$cases" | xargs -P "$jobs" -n 8 sh "$0" --case "$bin" "$update" "$dir"
for f in $cases; do
	r=$dir/$(echo "$f" | tr / _)
	if [ -f "$r.pass" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1))
		if [ -f "$r.fail" ]; then cat "$r.fail" >&2; else echo "FAIL: $f (did not run)" >&2; fi
	fi
done
echo "bad input: $pass passed, $fail failed"
[ $fail -eq 0 ]
