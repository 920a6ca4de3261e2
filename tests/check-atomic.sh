#!/bin/sh
# Outputs are whole or absent (docs/architecture.md §8): a run that cannot write its output fails
# with exit status 2 and leaves neither a truncated file nor a temporary behind.
# Write errors are made with /dev/full (ENOSPC) and a file size limit (EFBIG); a failing
# figure stops the report's pipeline before the chapters.
# usage: check-atomic.sh TRAINPLAN TRAINPLAN-REPORT OUT  (OUT holds the figures)
tp=$1; rpt=$2; out=${3:-output}; pass=0; fail=0
tmp=$(mktemp -d /tmp/trainplan-atomic.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# run a command with a file size limit of $1 KiB (SIGXFSZ ignored: writes fail with EFBIG)
limited() { lim=$1; shift; sh -c 'trap "" XFSZ; ulimit -f '"$lim"'; exec "$@"' sh "$@"; }

# 1. stdout on a full disk: exit 2, so that `trainplan data X > f.tmp && mv f.tmp f` stops
"$tp" data bubble-curves > /dev/full 2> "$tmp/err"; rc=$?
if [ $rc -eq 2 ] && grep -q 'cannot write the output' "$tmp/err"; then ok; else bad "data > /dev/full: exit $rc"; fi
"$tp" table memory-stages --format csv > /dev/full 2>/dev/null; rc=$?
if [ $rc -eq 2 ]; then ok; else bad "table > /dev/full: exit $rc"; fi

# 2. table --all past a 4 KiB file size limit: exit 2, no temporary, every file left whole
"$tp" table --all --format csv --dir "$tmp/full" >/dev/null 2>&1
mkdir "$tmp/cut"
limited 4 "$tp" table --all --format csv --dir "$tmp/cut" 2>/dev/null; rc=$?
[ $rc -eq 2 ] && ok || bad "table --all under a size limit: exit $rc"
if ls "$tmp/cut" | grep -q 'tmp'; then bad "table --all left a temporary: $(ls "$tmp/cut")"; else ok; fi
for f in "$tmp"/cut/*.csv; do
	[ -f "$f" ] || continue
	cmp -s "$f" "$tmp/full/${f##*/}" && ok || bad "table --all left a truncated ${f##*/}"
done

# 3. trainplan-report: --expand of the real chapters to a full disk fails for the write (and
#    only for it), not for a missing chapter; HTML past a 16 KiB limit leaves nothing
"$rpt" --expand chapters/*.md > /dev/full 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "trainplan-report: <stdout>: error: cannot write the output: No space left on device" ] &&
	ok || bad "trainplan-report --expand chapters/*.md > /dev/full: exit $rc: $(cat "$tmp/err")"
mkdir "$tmp/rep"
limited 16 "$rpt" -o "$tmp/rep/report" --out-dir "$out" chapters/*.md 2>/dev/null; rc=$?
[ $rc -eq 2 ] && ok || bad "trainplan-report under a size limit: exit $rc"
if [ -n "$(ls "$tmp/rep")" ]; then bad "trainplan-report left: $(ls "$tmp/rep")"; else ok; fi

# 4. a run with an error writes nothing: no folder, no table CSV, no HTML or PDF; and a
#    report already there is left as it was
printf '# T\n\n```calc\ntable memory-breakdown with zero=3\n```\n\n![](bubble-curves)\n' > "$tmp/bad.md"
"$rpt" -o "$tmp/none/report" --out-dir "$out" "$tmp/bad.md" 2>/dev/null; rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/none" ] && ok || bad "a failing run wrote: exit $rc: $(ls -R "$tmp/none" 2>&1)"
mkdir -p "$tmp/old"; echo old > "$tmp/old/report.html"; echo old > "$tmp/old/report.pdf"
"$rpt" -o "$tmp/old/report" --out-dir "$out" "$tmp/bad.md" 2>/dev/null; rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/old/report.html" "$tmp/old/report.pdf")" = "$(printf 'old\nold')" ] &&
	[ "$(ls "$tmp/old")" = "$(printf 'report.html\nreport.pdf')" ] && ok || bad "a failing run replaced: $(ls "$tmp/old")"

# 5. the same with SIGXFSZ at its default action (a shell's `ulimit -f`, which kills at
#    the first write past the limit): the writers hold it, so the write fails with EFBIG,
#    the run exits 2 and no PATH.tmp.PID is left
sized() { lim=$1; shift; sh -c 'ulimit -f '"$lim"'; exec "$@"' sh "$@"; }
mkdir "$tmp/x1" "$tmp/x2" "$tmp/x3"
sized 4 "$tp" table --all --format csv --dir "$tmp/x1" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && [ -z "$(ls "$tmp/x1" | grep tmp)" ] && ok || bad "table --all, SIGXFSZ default: exit $rc: $(ls "$tmp/x1" | grep tmp)"
sized 16 "$rpt" -o "$tmp/x2/report" --out-dir "$out" chapters/*.md >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && [ -z "$(ls "$tmp/x2")" ] && ok || bad "trainplan-report, SIGXFSZ default: exit $rc: $(ls "$tmp/x2")"
# the fitted stack under a limit of 0 blocks: its old contents stay
awk 'BEGIN { printf "# old\n" }' > "$tmp/x3/stack.ini"
sized 0 "$tp" calibrate --measurements tests/cli/calibrate-b200.csv --fit efficiency.gemm:0.3:1 \
	--set cluster.preset=hgx-b200-ndr --write-stack "$tmp/x3/stack.ini" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && [ "$(ls "$tmp/x3")" = stack.ini ] && [ "$(cat "$tmp/x3/stack.ini")" = "# old" ] && ok \
	|| bad "calibrate --write-stack, SIGXFSZ default: exit $rc: $(ls "$tmp/x3")"

# 6. report.html and report.pdf are replaced together or not at all: when the PDF cannot
#    take its place (a folder of that name), the old HTML stays, and nothing else is left
mkdir -p "$tmp/pair/report.pdf/x"; echo old > "$tmp/pair/report.html"
"$rpt" -o "$tmp/pair/report" --out-dir "$out" chapters/*.md >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/pair/report.html")" = old ] && [ "$(ls "$tmp/pair")" = "$(printf 'report.html\nreport.pdf')" ] &&
	ok || bad "a PDF that cannot be renamed: exit $rc, the HTML: $(head -c 20 "$tmp/pair/report.html"), left: $(ls "$tmp/pair")"
# and without an old HTML, none is left
rm "$tmp/pair/report.html"
"$rpt" -o "$tmp/pair/report" --out-dir "$out" chapters/*.md >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && [ "$(ls "$tmp/pair")" = report.pdf ] && ok || bad "a PDF that cannot be renamed, no old HTML: exit $rc: $(ls "$tmp/pair")"

# 7. the report's pipeline (trainplan report): a figure whose script fails stops it before
#    the chapters, with a message that names the figure; the old report stays, no
#    temporary is left; a figure script that names no dataset is refused before any job
mkdir -p "$tmp/share" "$tmp/rep"
cp -r chapters figures "$tmp/share/"
echo 'plot nosuchfunction(x)' >> "$tmp/share/figures/memory-stages.gp"
echo old > "$tmp/rep/report.html"
"$tp" report plans/default.ini -o "$tmp/rep" --share "$tmp/share" --no-pdf >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q '^trainplan: error: report: figure memory-stages: gnuplot (svg) failed' "$tmp/err" &&
	[ "$(cat "$tmp/rep/report.html")" = old ] && [ -z "$(find "$tmp/rep" -name '*.tmp')" ] &&
	ok || bad "trainplan report with a failing figure: exit $rc, the HTML: $(head -c 20 "$tmp/rep/report.html"), $(grep error "$tmp/err")"
cp figures/memory-stages.gp "$tmp/share/figures/no-such-dataset.gp"
cp figures/memory-stages.gp "$tmp/share/figures/memory-stages.gp"
rm -rf "$tmp/rep2"
"$tp" report plans/default.ini -o "$tmp/rep2" --share "$tmp/share" --no-pdf >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "trainplan: error: report: figure no-such-dataset: no dataset of that name (trainplan data --list names them)" ] &&
	[ -z "$(find "$tmp/rep2" -type f)" ] &&
	ok || bad "trainplan report with a figure of no dataset: exit $rc: $(cat "$tmp/err")"

echo "atomic outputs: $pass passed, $fail failed"
[ $fail -eq 0 ]
