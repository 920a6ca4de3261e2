#!/bin/sh
# docs/architecture.md §9's recipes name every place an addition touches; this checks
# the places that a forgotten step leaves without a trace in the build, for every row of
# the tables as trainplan itself lists them (trainplan presets ... --format csv):
#   schedule    named in docs/references.md (its source and closed form)
#   stack       named in docs/references.md (§4.10), in efficiency.stack's description
#               (trainplan presets keys) and in tests/calc/plan.c (test_stacks)
#   GPU preset  a row "| NAME |" of docs/references.md §6.1 and named in a unit test
#               (tests/calc/*.c: its figures against the datasheet)
#   plan key    a bad-input case (tests/bad/NAME.ini setting it in its section, or
#               NAME.args setting it with --set), unless tests/recipes-gaps.txt lists it
#               (keys older than the rule); a listed key that has a case must leave the
#               list
# The generated lists (README.md: make readme-presets; completions, man page, help:
# make options) are checked by check-readme-presets and check-options; a layer kind by
# the compiler (-Werror=switch, §9).
# usage: recipes.sh TRAINPLAN
tp=$1; pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
names() { "$tp" presets "$1" --format csv | sed -e 1d -e 's/,.*//' -e 's/^"//' -e 's/"$//'; }
keys=$("$tp" presets keys --format csv) || exit 1
field() { # KEY COLUMN (2 type, 3 allowed, 4 meaning) of trainplan presets keys
	printf '%s\n' "$keys" | awk -F, -v k="$1" -v c="$2" '$1 == k { s = $c; for (i = c + 1; c == 4 && i <= NF; i++) s = s "," $i; print s }'
}

scheds=$(field parallel.schedule 3 | sed 's/ | /\n/g')
[ -n "$scheds" ] || bad "no schedules in trainplan presets keys"
for s in $scheds; do
	grep -qiF -- "$s" docs/references.md && ok || bad "schedule $s: not named in docs/references.md"
done

stackdesc=$(field efficiency.stack 4)
for s in $(names stacks); do
	grep -qF -- "$s" docs/references.md && ok || bad "stack $s: not named in docs/references.md (§4.10)"
	printf '%s\n' "$stackdesc" | grep -qwF -- "$s" && ok || bad "stack $s: not named in efficiency.stack's description (calc/plan.c)"
	grep -qF -- "\"$s\"" tests/calc/plan.c && ok || bad "stack $s: not named in tests/calc/plan.c (test_stacks)"
done

for g in $(names gpus); do
	grep -qF -- "| $g |" docs/references.md && ok || bad "GPU preset $g: no row in docs/references.md §6.1"
	grep -qwF -- "$g" tests/calc/*.c && ok || bad "GPU preset $g: named in no unit test (tests/calc/*.c)"
done

# a key set by a bad-input case: in its section of NAME.ini, or by --set in NAME.args
cased=$(for f in tests/bad/*.ini; do
	awk '/^[ \t]*\[/ { sec = $0; sub(/^[ \t]*\[/, "", sec); sub(/\].*/, "", sec) }
		/=/ && sec != "" { k = $0; sub(/=.*/, "", k); gsub(/[ \t]/, "", k); print sec "." k }' "$f"
done; cat tests/bad/*.args 2>/dev/null | grep -o -- '--set "\{0,1\}[a-z_.]*=' | sed -e 's/--set "\{0,1\}//' -e 's/=$//')
gaps=$(grep -v '^#' tests/recipes-gaps.txt)
for k in $(printf '%s\n' "$keys" | sed -e 1d -e 's/,.*//'); do
	short=${k#*.}
	if printf '%s\n' "$cased" | grep -qxF -e "$k" -e "$short"; then
		printf '%s\n' "$gaps" | grep -qxF -- "$k" && bad "plan key $k: has a bad-input case now; remove it from tests/recipes-gaps.txt" || ok
	else
		printf '%s\n' "$gaps" | grep -qxF -- "$k" && ok || bad "plan key $k: no bad-input case in tests/bad/ (NAME.ini and NAME.err)"
	fi
done
echo "recipes: $pass passed, $fail failed"
[ $fail -eq 0 ]
