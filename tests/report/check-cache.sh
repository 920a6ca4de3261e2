#!/bin/sh
# The planner's results kept between runs (report/cache.c, OUT-DIR/search-cache): a
# report read from the cache is the report searched anew, byte for byte; a second run of
# the same plan searches nothing (the file is not written again: the same inode); a
# changed plan, a file cut short or one of garbage give the report searched anew and a
# whole file again; --no-cache reads and writes none; a run with an error writes none.
# Usage: check-cache.sh TRAINPLAN-REPORT PLAN OUT-DIR WORK-DIR CHAPTER...
bin=$1; plan=$2; out=$3; work=$4; shift 4
rm -rf "$work" && mkdir -p "$work/o" "$work/bad" || exit 1
cp -R "$out/figures" "$out/data" "$work/o/" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*" >&2; fail=$((fail + 1)); }
c=$work/o/search-cache
ino() { ls -i "$c" 2>/dev/null | awk '{ print $1 }'; }
same() { if cmp -s "$work/$1.html" "$work/$2.html"; then ok; else bad "$3"; fi; }

"$bin" --no-cache --plan "$plan" --out-dir "$work/o" --no-pdf -o "$work/ref" "$@" || bad "--no-cache failed"
if [ -e "$c" ]; then bad "--no-cache wrote a cache"; else ok; fi
"$bin" --plan "$plan" --out-dir "$work/o" --no-pdf -o "$work/r1" "$@" || bad "the first run failed"
same ref r1 "the first run's report is not the one searched without a cache"
if [ -s "$c" ]; then ok; else bad "the first run wrote no cache"; fi
i1=$(ino)
"$bin" --plan "$plan" --out-dir "$work/o" --no-pdf -o "$work/r2" "$@" || bad "the second run failed"
same ref r2 "the report read from the cache is not the one searched"
if [ "$(ino)" = "$i1" ]; then ok; else bad "the second run searched again (it wrote the cache)"; fi
"$bin" --no-cache --plan "$plan" --out-dir "$work/o" --no-pdf -o "$work/r3" "$@" || bad "--no-cache failed"
if [ "$(ino)" = "$i1" ]; then ok; else bad "--no-cache wrote the cache"; fi

# another plan: searched anew, the same report as without a cache
set_=cluster.inter_node_bw=25GB/s
"$bin" --no-cache --plan "$plan" --set "$set_" --out-dir "$work/o" --no-pdf -o "$work/ref-bw" "$@" || bad "--set failed"
"$bin" --plan "$plan" --set "$set_" --out-dir "$work/o" --no-pdf -o "$work/bw" "$@" || bad "--set failed"
same ref-bw bw "the changed plan's report is not the one searched without a cache"
if cmp -s "$work/ref.html" "$work/bw.html"; then bad "the changed plan gave the same report: not a test"; else ok; fi
if [ "$(ino)" != "$i1" ]; then ok; else bad "the changed plan searched nothing"; fi

# a file cut short, and garbage: ignored, searched anew, and written whole again
for how in cut junk; do
	if [ $how = cut ]; then
		n=$(wc -c < "$c"); head -c $((n / 2)) "$c" > "$work/half" && mv "$work/half" "$c"
	else
		printf 'trainplan search cache 1\nnot a cache\n' > "$c"
	fi
	"$bin" --plan "$plan" --out-dir "$work/o" --no-pdf -o "$work/$how" "$@" || bad "a run over a $how file failed"
	same ref $how "the report over a $how cache is not the one searched"
	i2=$(ino)
	"$bin" --plan "$plan" --out-dir "$work/o" --no-pdf -o "$work/$how-2" "$@" || bad "the run after the $how file failed"
	same ref $how-2 "the report after a $how cache is not the one searched"
	if [ "$(ino)" = "$i2" ]; then ok; else bad "the file written after a $how one did not serve"; fi
done

# a run with an error writes no cache
mkdir -p "$work/e/figures" && cp -R "$out/figures/." "$work/e/figures/" || exit 1
printf '# T\n\nBroken: `=memory.nonexistent`, `=search.best.tp`.\n' > "$work/bad/bad.md"
"$bin" --plan "$plan" --out-dir "$work/e" --no-pdf -o "$work/e/r" "$work/bad/bad.md" 2>/dev/null
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$work/e/search-cache" ]; then ok; else bad "a run with an error: exit $rc, or it wrote a cache"; fi
echo "cache: $pass passed, $fail failed"
[ $fail -eq 0 ]
