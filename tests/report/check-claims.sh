#!/bin/sh
# tests/report/check-claims.sh -- statements of the report that must (or must not) be
# made for a given plan.  Each tests/report/claims/NAME.txt names a plan on its first
# line ("plan: plans/X.ini") and then holds one check per line:
#
#   - TEXT    TEXT must not occur in the expanded chapters for that plan
#   + TEXT    TEXT must occur
#   ~ RE      the extended regular expression RE (grep -E) must match
#   ! RE      RE must not match
#
# A pattern keeps a check true when a computed number moves (other figures of the model
# change it) while the sentence around it must stay: "~ predicted at [0-9.]+ s, [0-9.]+% slower".
# TEXT is a fixed string matched against the expanded Markdown
# (trainplan-report --expand chapters/*.md) with its line breaks joined into spaces,
# so a sentence wrapped in a chapter still matches.  Lines starting with # are comments;
# an empty line is skipped, and any other line fails (a stray line, such as a merge's
# conflict marker, is never silently ignored).
# Prints "claims: N passed, N failed"; the exit status is 1 if any failed.
# usage: check-claims.sh TRAINPLAN-REPORT [EXPANDED-DIR]
# With EXPANDED-DIR, a plan plans/NAME.ini is read from EXPANDED-DIR/NAME.md when that
# file is there (tests/report.mk expands each shipped plan's chapters once); any other
# plan is expanded here.
bin=$1; expanded=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
for f in tests/report/claims/*.txt; do
	plan=$(sed -n '1s/^plan: //p' "$f")
	name=${plan#plans/}; name=${name%.ini}
	if [ -n "$expanded" ] && [ "$plan" = "plans/$name.ini" ] && [ -f "$expanded/$name.md" ]; then
		cp "$expanded/$name.md" "$tmp/out" || exit 2
	elif ! "$bin" --plan "$plan" --expand chapters/*.md >"$tmp/out" 2>"$tmp/err"; then
		echo "FAIL: $f: trainplan-report --plan $plan --expand failed:" >&2
		head -3 "$tmp/err" >&2; fail=$((fail + 1)); continue
	fi
	tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
	tail -n +2 "$f" | while IFS= read -r line; do
		case $line in
		'- '*) printf '%s\n' "-${line#- }" ;;
		'+ '*) printf '%s\n' "+${line#+ }" ;;
		'~ '*) printf '%s\n' "~${line#\~ }" ;;
		'! '*) printf '%s\n' "!${line#! }" ;;
		'#'* | '') ;;
		*) printf '%s\n' "?$line" ;;
		esac
	done >"$tmp/checks"
	while IFS= read -r c; do
		text=${c#?}
		case $c in
		'?'*) echo "FAIL: $f: not a check (-, +, ~ or ! and a space, # or empty): $text" >&2
			fail=$((fail + 1)); continue ;;
		[-+]*) if grep -q -F -e "$text" "$tmp/flat"; then found=1; else found=0; fi ;;
		*) grep -q -E -e "$text" "$tmp/flat"; rc=$?
		   if [ $rc -gt 1 ]; then fail=$((fail + 1)); echo "FAIL: $f: bad pattern \"$text\"" >&2; continue; fi
		   if [ $rc = 0 ]; then found=1; else found=0; fi ;;
		esac
		case $c in
		-*) if [ $found = 0 ]; then pass=$((pass + 1)); else
			fail=$((fail + 1)); echo "FAIL: $f: says \"$text\"" >&2; fi ;;
		+*) if [ $found = 1 ]; then pass=$((pass + 1)); else
			fail=$((fail + 1)); echo "FAIL: $f: does not say \"$text\"" >&2; fi ;;
		'~'*) if [ $found = 1 ]; then pass=$((pass + 1)); else
			fail=$((fail + 1)); echo "FAIL: $f: nothing matches /$text/" >&2; fi ;;
		'!'*) if [ $found = 0 ]; then pass=$((pass + 1)); else
			fail=$((fail + 1)); echo "FAIL: $f: something matches /$text/" >&2; fi ;;
		esac
	done <"$tmp/checks"
done
echo "claims: $pass passed, $fail failed"
[ $fail -eq 0 ]
