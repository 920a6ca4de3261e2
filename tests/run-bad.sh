#!/bin/sh
# Bad-input corpus: every tests/bad/NAME.ini must be refused with exit status 2 and
# the messages in NAME.err, and no output on stdout.  A message of a kind is kept as its
# ID and key ("FILE:LINE: error[E010] model.layers", docs/architecture.md §9): it
# matches the message with that location, ID and key whatever its words; any other line
# is compared whole (tests/bad-match.awk).  A file NAME.args, if
# present, holds extra arguments (e.g. --set overrides).
bin=$1; update=$2; pass=0; fail=0
same() { # EXPECTED-FILE ACTUAL-TEXT
	[ -f "$1" ] && { cat "$1"; printf '\f\n'; printf '%s\n' "$2"; } | awk -v mode=match -f tests/bad-match.awk
}
for f in tests/bad/*.ini; do
	n=${f%.ini}; extra=""; [ -f "$n.args" ] && extra=$(cat "$n.args")
	err=$(eval "\"$bin\" memory --plan \"$f\" $extra" 2>&1 >/tmp/trainplan-bad.$$); rc=$?
	out=$(cat /tmp/trainplan-bad.$$); rm -f /tmp/trainplan-bad.$$
	if [ "$update" = 1 ]; then printf '%s\n' "$err" | awk -v mode=short -f tests/bad-match.awk > "$n.err"; fi
	if [ $rc -eq 2 ] && [ -z "$out" ] && same "$n.err" "$err"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); echo "FAIL: $f (exit $rc)" >&2
		printf '%s\n' "$err" | diff -u "$n.err" - >&2
	fi
done
# import: tests/bad/import-NAME.FRAMEWORK is read by `import --from FRAMEWORK`, with the
# same rule (exit status 2, nothing on stdout, exactly the messages of NAME.err).
for f in tests/bad/import-*.megatron tests/bad/import-*.torchtitan tests/bad/import-*.deepspeed tests/bad/import-*.nemo; do
	[ -f "$f" ] || continue
	n=${f%.*}; fw=${f##*.}
	err=$("$bin" import --from "$fw" "$f" 2>&1 >/tmp/trainplan-bad.$$); rc=$?
	out=$(cat /tmp/trainplan-bad.$$); rm -f /tmp/trainplan-bad.$$
	if [ "$update" = 1 ]; then printf '%s\n' "$err" | awk -v mode=short -f tests/bad-match.awk > "$n.err"; fi
	if [ $rc -eq 2 ] && [ -z "$out" ] && same "$n.err" "$err"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); echo "FAIL: $f (exit $rc)" >&2
		printf '%s\n' "$err" | diff -u "$n.err" - >&2
	fi
done
echo "bad input: $pass passed, $fail failed"
[ $fail -eq 0 ]
