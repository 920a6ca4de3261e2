#!/bin/sh
# tests/check-diag-ids.sh -- the message kinds with stable IDs (calc_msgs, calc/diag.c;
# docs/architecture.md §9) against their use:
#   table    the kinds trainplan --dump-options diagnostics lists are the values of enum
#            calc_msg (calc/diag.h), in order, each with its ID in its comment, no ID twice
#   raised   every kind is raised: its enum name is in a source file of calc/, cli/ or
#            report/ besides diag.c
#   tested   every ID is in an expectation under tests/ (a golden, a bad-input case, a
#            unit test)
#   scheme   where the scheme says a message has a kind, the goldens show its ID: every
#            error of the bad-input corpus (the plan reader, model.hf_config, import), of
#            the expansion goldens and of the lint's golden; wherever a golden shows them,
#            the command line's usage errors (an unknown option or argument E030, an
#            option without its value or with one it takes none E031, an unknown command
#            E032) and the planner's "no split fits" (E033)
#   usage    the program itself: for every command of the options table, an option it
#            does not have is E030, every option that takes a value given last without
#            one E031, every option that takes none given one E031, all with exit status
#            2 and nothing on stdout; a command that does not exist is E032
# usage: check-diag-ids.sh TRAINPLAN
tp=$1; pass=0; fail=0
bad() { echo "FAIL: $*" >&2; fail=$((fail + 1)); }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# table: "NAME ID" from the header's enum, "ID" from the program's table
sed -n 's/^[	 ]*\(CALC_M_[A-Z0-9_]*\), *\/\* \(E[0-9][0-9][0-9]\).*/\1 \2/p' calc/diag.h > "$tmp/enum"
"$tp" --dump-options diagnostics | sed -n 's/^\.It \(E[0-9]*\)$/\1/p' > "$tmp/ids"
n=$(sed -n '/^enum calc_msg {/,/^};/p' calc/diag.h | grep -c '^[	 ]*CALC_M_[A-Z0-9_]*,\{0,1\}$\|^[	 ]*CALC_M_[A-Z0-9_]*, ')
if [ ! -s "$tmp/ids" ]; then
	bad "trainplan --dump-options diagnostics lists no kind"
elif ! cut -d' ' -f2 "$tmp/enum" | cmp -s - "$tmp/ids"; then
	bad "the IDs of enum calc_msg (calc/diag.h) are not those trainplan --dump-options diagnostics lists:"
	cut -d' ' -f2 "$tmp/enum" | diff - "$tmp/ids" >&2
elif [ "$(sort -u "$tmp/ids" | wc -l)" != "$(wc -l < "$tmp/ids")" ]; then
	bad "an ID is given to two kinds: $(sort "$tmp/ids" | uniq -d | tr '\n' ' ')"
elif [ "$n" != "$(($(wc -l < "$tmp/ids") + 2))" ]; then # CALC_M_NONE and CALC_M_N have no ID
	bad "calc/diag.h: $n values in enum calc_msg, $(wc -l < "$tmp/ids") with an ID in their comment (want all but NONE and N)"
else
	pass=$((pass + 1))
fi

# raised: each kind's name outside diag.c and diag.h
while read -r name id; do
	grep -q -w "$name" $(ls calc/*.c cli/*.c report/*.c | grep -v '^calc/diag\.c$') ||
		bad "$id ($name) is in the table but no source raises it"
done < "$tmp/enum"
pass=$((pass + 1))

# tested: each ID in an expectation under tests/
while read -r id; do
	grep -r -q -F "[$id]" tests/cli tests/bad tests/expand tests/report tests/calc tests/*.sh 2>/dev/null ||
		bad "$id is in the table but no test expects it (a golden, a bad-input case or a unit test)"
done < "$tmp/ids"
pass=$((pass + 1))

# scheme: the goldens' errors
f0=$fail
for f in tests/bad/*.err tests/report/lint/*.err; do
	grep -n -E '(^|: )error(: |$)' "$f" > "$tmp/miss" &&
		{ sed "s|^|  $f:|" "$tmp/miss" >&2; bad "$f: an error without its ID (the scheme gives every refusal of these a kind)"; }
done
for f in tests/expand/*.md; do
	grep -n -E '^trainplan-report: .*: error: ' "$f" > "$tmp/miss" &&
		{ sed "s|^|  $f:|" "$tmp/miss" >&2; bad "$f: an error of the expansion without its ID"; }
done
# usage errors and the planner's no split: PATTERN ID, wherever a golden shows the message
while read -r id pat; do
	grep -n -E ": error(\[E[0-9]+\])?: .*($pat)" tests/cli/*.out tests/bad/*.err 2>/dev/null |
		grep -v -F "error[$id]: " > "$tmp/miss"
	if [ -s "$tmp/miss" ]; then
		sed 's/^/  /' "$tmp/miss" >&2; bad "the messages above are not $id"
	fi
done <<'EOF'
E030 unknown option '|unexpected argument '
E031 option [^ ]+( [A-Z]+)? needs a value|option [^ ]+ takes no value
E032 unknown command '
E033 no split of .* fits its
EOF
[ $fail = $f0 ] && pass=$((pass + 1))

# usage: the program's own messages, command by command (the options of the man page's
# "Options of each command", generated from the options table: "Fl -top Ar K" takes a value)
"$tp" --dump-options man | awk '
	/^\.It Cm / { cmd = $3; print cmd, "-", "-"; next }
	cmd != "" && /^\.It Fl / { opt = "-" $3; print cmd, opt, ($4 == "Ar" ? "value" : "flag") }' > "$tmp/opts"
[ -s "$tmp/opts" ] || bad "trainplan --dump-options man lists no command"
f0=$fail; runs=0
# expect ID ARGS...: stderr one line with error[ID], exit status 2, stdout empty
expect() {
	id=$1; shift; runs=$((runs + 1))
	"$tp" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
	if [ $rc != 2 ] || [ -s "$tmp/out" ] || ! grep -q -F "error[$id]: " "$tmp/err"; then
		bad "trainplan $*: exit $rc, want 2, nothing on stdout and error[$id]:"; head -n 3 "$tmp/err" >&2
	fi
}
while read -r cmd opt kind; do
	case $opt in
	-) expect E030 "$cmd" --no-such-option ;;
	--help) ;;
	--compare) ;; # report --compare takes the plans as operands, counted after the parse
	--plan|--set|--format) expect E031 "$cmd" "$opt" ;; # the shared options (cli_parse)
	*) if [ "$kind" = value ]; then expect E031 "$cmd" "$opt"; else expect E031 "$cmd" "$opt=1"; fi ;;
	esac
done < "$tmp/opts"
expect E031 memory --plan
expect E031 memory --set
expect E032 no-such-command
[ $fail = $f0 ] && pass=$((pass + 1))

echo "diagnostics: $pass passed, $fail failed ($(wc -l < "$tmp/ids") kinds, $runs usage errors)"
[ $fail -eq 0 ]
