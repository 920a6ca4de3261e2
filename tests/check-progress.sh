#!/bin/sh
# tests/check-progress.sh BIN -- the progress of a long `trainplan search` (over a
# second) appears only on a terminal: with stderr piped there is no progress line, and
# on a terminal (script(1), when installed) the text output shows it, its shares never
# decrease and the last is 100%, while JSON and CSV output show none.  The weighting
# itself is the unit test test_progress (tests/calc/search.c).
bin=$1
# a search of a few seconds on one thread (2.2 s of CPU on a 2-core x86-64 machine of
# December 2026; the planner gets faster, so it is sized to stay well past the 1 s after
# which the progress shows: 2,048 GPUs up to micro-batch 8 had come down to 0.86 s and
# showed none), so that its progress shows on a terminal; each run below is this one, so
# that each could show the progress and what hides it is the output kind
long="search --plan plans/deepseek-v3-h800.ini --gpus 4096 --max-mb 16 --threads 1"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trainplan-progress.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "progress: FAIL: $*" >&2; }

# piped: stdout and stderr are files
# shellcheck disable=SC2086
"$bin" $long >"$tmp/out" 2>"$tmp/err"
if [ -s "$tmp/out" ] && ! grep -q "search: .*%" "$tmp/err"; then ok; else bad "progress with stderr piped: $(head -c 200 "$tmp/err")"; fi

if command -v script >/dev/null 2>&1 && script -qc true /dev/null >/dev/null 2>&1; then
	# a terminal, text output to a file: the progress comes on the terminal
	script -qc "\"$bin\" $long >\"$tmp/out2\"" /dev/null </dev/null | tr '\r' '\n' >"$tmp/tty"
	shares=$(sed -n 's/^search: *\([0-9]*\)% .*/\1/p' "$tmp/tty")
	if [ -n "$shares" ]; then ok; else bad "no progress on a terminal"; fi
	if printf '%s\n' "$shares" | awk 'NR > 1 && $1 < last { bad = 1 } { last = $1 } END { exit bad || last != 100 }'; then ok
	else bad "shares not monotone or not ending at 100: $(printf '%s ' $shares)"; fi
	if cmp -s "$tmp/out" "$tmp/out2"; then ok; else bad "the output on a terminal differs from the piped one"; fi
	for f in json csv; do
		script -qc "\"$bin\" $long --format $f >\"$tmp/out.$f\"" /dev/null </dev/null | tr '\r' '\n' >"$tmp/tty.$f"
		if ! grep -q "search: .*%" "$tmp/tty.$f" && ! grep -q "search: .*%" "$tmp/out.$f"; then ok; else bad "progress with --format $f"; fi
	done
fi
echo "progress: $pass passed, $fail failed"
[ $fail -eq 0 ]
