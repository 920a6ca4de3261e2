#!/bin/sh
# tests/check-loops.sh BUILD -- no two source files include or call each other in a loop
# (docs/architecture.md §1).  Two graphs, one node per file:
#   calls     an edge a -> b when an object of a uses a symbol that b's object defines
#             (nm on BUILD/{calc,cli,report}/*.o)
#   includes  an edge a -> b when a writes #include "b" (project headers and sources)
# A loop is a pair a, b where each reaches the other; each loop is printed with the
# files on it, and the check fails.  Prints one closing "loops: N passed, N failed" line.
set -u
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0

for o in "$build"/calc/*.o "$build"/cli/*.o "$build"/report/*.o; do
	[ -f "$o" ] || continue
	src=${o#"$build"/}; src=${src%.o}.c
	nm "$o" | awk -v f="$src" '$1 ~ /^[0-9a-f]+$/ && $2 ~ /^[TDBR]$/ { print "def", f, $3 } $1 == "U" { print "use", f, $2 }'
done > "$tmp/syms"
awk '$1 == "def" { d[$3] = $2 } $1 == "use" { u[NR] = $2 " " $3 }
     END { for (i in u) { split(u[i], x, " "); if ((x[2] in d) && d[x[2]] != x[1]) print x[1], d[x[2]] } }' "$tmp/syms" |
	sort -u > "$tmp/calls"

for f in calc/*.c calc/*.h cli/*.c cli/*.h report/*.c report/*.h; do
	[ -f "$f" ] || continue
	dir=$(dirname "$f")
	sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
		t=$(realpath -m --relative-to=. "$dir/$inc")
		[ -f "$t" ] && echo "$f $t"
	done
done | sort -u > "$tmp/includes"

for g in calls includes; do
	out=$(awk '{ n[$1] = 1; n[$2] = 1; r[$1 SUBSEP $2] = 1 }
	     END {
	       for (k in n) for (i in n) if ((i SUBSEP k) in r) for (j in n) if ((k SUBSEP j) in r) r[i SUBSEP j] = 1
	       for (i in n) for (j in n) if (i < j && ((i SUBSEP j) in r) && ((j SUBSEP i) in r)) print i " <-> " j
	     }' "$tmp/$g" | sort)
	edges=$(wc -l < "$tmp/$g")
	if [ -n "$out" ]; then
		echo "FAIL: $g graph ($edges edges) has loops:" >&2
		echo "$out" | sed 's/^/  /' >&2
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done
echo "loops: $pass passed, $fail failed (files that call or include each other in a loop)"
[ $fail = 0 ]
