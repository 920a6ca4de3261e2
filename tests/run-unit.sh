#!/bin/sh
# Run cmocka test programs; print one closing line "unit: N passed, N failed" over all.
#   run-unit.sh PROG...            run them one after the other
#   run-unit.sh --one DIR PROG [PART]  run one and keep its counts (and, when it fails,
#                                  its messages) in DIR/NAME (DIR/NAME.PART: one part of
#                                  its tests, UNIT_TESTS or UNIT_SKIP, tests/calc/testutil.h);
#                                  make runs these side by side
#   run-unit.sh --sum DIR PROG...  the messages of those that failed, then the closing line
#                                  over PROG...; a program --one did not run counts as failed
# A program fails when it exits non-zero; its count of failed tests (at least 1) is added.
run() { # PROG: counts in p and f, the messages in out (only when it failed)
	out=$("$1" 2>&1); rc=$?
	p=$(printf '%s\n' "$out" | sed -n 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -n 's/.*\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	p=${p:-0}; f=${f:-0}
	if [ $rc -ne 0 ]; then
		out=$([ -z "$out" ] || printf '%s\n' "$out" | grep -v '^\[ \(RUN\|       OK\) '; echo "FAIL: $1 (exit $rc)")
		[ "$f" != 0 ] || f=1
	else
		out=
	fi
}
pass=0; fail=0
case $1 in
--one)
	dir=$2; r=$2/$(basename "$3")${4:+.$4}
	# the results of an earlier run of the whole program or of its parts go first
	b=$2/$(basename "$3")
	mkdir -p "$dir" && rm -f "$r.counts" "$r.log" "$b.counts" "$b.log" || exit 2
	[ -n "$4" ] || rm -f "$b".*.counts "$b".*.log
	run "$3"
	[ -z "$out" ] || printf '%s\n' "$out" > "$r.log"
	echo "$p $f" > "$r.counts"
	exit 0 ;;
--sum)
	dir=$2; shift 2
	for t in "$@"; do
		r=$dir/$(basename "$t") n=0
		for c in "$r".counts "$r".*.counts; do # the program, or its parts
			[ -f "$c" ] || continue
			read -r p f < "$c"; n=$((n + 1))
			[ ! -f "${c%.counts}.log" ] || cat "${c%.counts}.log" >&2
			pass=$((pass + p)); fail=$((fail + f))
		done
		[ $n -gt 0 ] || { fail=$((fail + 1)); echo "FAIL: $t (did not run)" >&2; }
	done ;;
*)
	for t in "$@"; do
		run "$t"
		pass=$((pass + p)); fail=$((fail + f))
		[ -z "$out" ] || printf '%s\n' "$out" >&2
	done ;;
esac
echo "unit: $pass passed, $fail failed"
[ $fail -eq 0 ]
