#!/bin/sh
# Expansion goldens: tests/expand/*.md hold examples in cmark's spec form
#
#   ```````````````````````````````` example
#   Markdown with directives
#   .
#   the expanded Markdown (trainplan-report --expand), or the diagnostics and "exit: N"
#   ````````````````````````````````
#
# Each example runs in a scratch folder as example.md (so messages read
# "example.md:LINE:COL") against the default plan.  Second argument "1" rewrites
# the expected parts from what the program printed; review the diff like code.
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); update=$2
root=$(pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fence='````````````````````````````````'
pass=0; fail=0
for f in tests/expand/*.md; do
	rm -f "$tmp"/in.* "$tmp"/exp.* "$tmp"/got.*
	# split into in.N and exp.N
	awk -v dir="$tmp" -v fence="$fence" '
		$0 == fence " example" { n++; part = "in"; printf "" > (dir "/in." n); printf "" > (dir "/exp." n); next }
		part == "in" && $0 == "." { part = "exp"; next }
		part != "" && $0 == fence { part = ""; next }
		part == "in"  { print > (dir "/in." n) }
		part == "exp" { print > (dir "/exp." n) }
	' "$f"
	n=1
	while [ -f "$tmp/in.$n" ]; do
		mkdir -p "$tmp/run"; [ -e "$tmp/run/figures" ] || ln -s "$root/figures" "$tmp/run/figures"; cp "$tmp/in.$n" "$tmp/run/example.md"
		(cd "$tmp/run" && "$bin" --expand example.md >"$tmp/out" 2>&1; rc=$?
		 cat "$tmp/out"; [ $rc -eq 0 ] || echo "exit: $rc") > "$tmp/got.$n"
		if cmp -s "$tmp/got.$n" "$tmp/exp.$n"; then pass=$((pass + 1)); elif [ "$update" != 1 ]; then
			fail=$((fail + 1)); echo "FAIL: $f example $n" >&2
			diff -u "$tmp/exp.$n" "$tmp/got.$n" | head -n 30 >&2
		fi
		n=$((n + 1))
	done
	if [ "$update" = 1 ]; then
		awk -v dir="$tmp" -v fence="$fence" '
			$0 == fence " example" { n++; part = "in"; print; next }
			part == "in" && $0 == "." { print; part = "exp"
				while ((getline line < (dir "/got." n)) > 0) print line
				close(dir "/got." n); next }
			part != "" && $0 == fence { part = ""; print; next }
			part == "exp" { next }
			{ print }
		' "$f" > "$tmp/new" && cat "$tmp/new" > "$f"
	fi
done
echo "expand: $pass passed, $fail failed"
[ $fail -eq 0 ]
