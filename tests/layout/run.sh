#!/bin/sh
# Layout goldens: each tests/layout/NAME.md is laid out through the fixed-width text
# device by the layout driver (with the options in NAME.args, when that file exists);
# NAME.out_text holds the expected pages followed by a line "exit: N".  Second
# argument "1" rewrites the goldens.
bin=$1; update=$2; pass=0; fail=0
for m in tests/layout/*.md; do
	n=${m%.md}
	args=; [ -f "$n.args" ] && args=$(cat "$n.args")
	got=$("$bin" $args "$m" 2>&1; echo "exit: $?")
	if [ "$update" = 1 ]; then printf '%s\n' "$got" > "$n.out_text"; fi
	if [ -f "$n.out_text" ] && [ "$got" = "$(cat "$n.out_text")" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1)); echo "FAIL: $n" >&2
		printf '%s\n' "$got" | diff -u "$n.out_text" - | head -n 40 >&2
	fi
done
echo "layout: $pass passed, $fail failed"
[ $fail -eq 0 ]
