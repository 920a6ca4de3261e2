#!/bin/sh
# The report does not depend on its threads (docs/architecture.md §3, "Threads"), its
# searches run (--no-cache: none read from an earlier run, report/cache.c): the
# chapters of PLAN rendered on one thread and twice on two (where the chapters whose
# searches are still running wait while later ones are expanded) give the same HTML;
# and chapters with errors, one in the first chapter (which waits for searches, so two
# threads expand it after others) and one in the second (which waits for none), give
# the same messages and exit status on one and on two threads, in chapter order.
# Usage: check-threads.sh TRAINPLAN-REPORT PLAN OUT-DIR WORK-DIR CHAPTER...
bin=$1; plan=$2; out=$3; work=$4; shift 4
rm -rf "$work" && mkdir -p "$work/bad" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*" >&2; fail=$((fail + 1)); }
for t in 1 2 2b; do
	"$bin" --no-cache --threads "${t%b}" --plan "$plan" --out-dir "$out" --no-pdf -o "$work/r$t" "$@" || bad "--threads $t failed"
done
for t in 2 2b; do
	if cmp -s "$work/r1.html" "$work/r$t.html"; then ok; else bad "report.html on 1 and 2 threads ($t) differ"; fi
done
# the error chapters: a copy of the chapters, two of them with an unknown quantity
n=0
for f in "$@"; do
	n=$((n + 1))
	cp "$f" "$work/bad/" || exit 1
	case $n in 1|2) printf '\nBroken: `=memory.nonexistent`.\n' >> "$work/bad/$(basename "$f")" ;; esac
done
for t in 1 2; do
	"$bin" --no-cache --threads $t --plan "$plan" --out-dir "$out" --no-pdf -o "$work/e$t" "$work"/bad/*.md 2> "$work/e$t.err"
	echo "rc $?" >> "$work/e$t.err"
done
if [ "$(grep -c 'unknown quantity' "$work/e1.err")" -ne 2 ]; then bad "the error chapters did not fail twice"; else ok; fi
if cmp -s "$work/e1.err" "$work/e2.err"; then ok; else bad "the messages on 1 and 2 threads differ"; diff "$work/e1.err" "$work/e2.err" >&2; fi
if [ -e "$work/e1.html" ] || [ -e "$work/e2.html" ]; then bad "a report with errors was written"; else ok; fi
echo "threads: $pass passed, $fail failed"
[ $fail -eq 0 ]
