#!/bin/sh
# Large hostile chapters that a small golden cannot hold: each must finish quickly with the
# documented result, neither crashing nor hanging (docs/architecture.md §8).  The inputs are
# generated here, so their sizes are exactly what the limits are about.
# usage: check-hostile.sh TRAINPLAN-REPORT
rpt=$1; pass=0; fail=0
tmp=$(mktemp -d /tmp/trainplan-hostile.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# run trainplan-report on chapter $1 with a 20 s limit; stderr in $tmp/err, status in rc
report() { (cd "$tmp" && timeout 20 "$rpt" --no-pdf -o out/report "$1" >/dev/null 2>err); rc=$?; }
case $rpt in /*) ;; *) rpt=$(pwd)/$rpt ;; esac

# 1. 10,000-term operator chains: refused at the 1001st operator, column 3 + 2*1000
awk 'BEGIN { s = "1"; for (i = 1; i < 10000; i++) s = s "+1"; print "`=" s "`" }' > "$tmp/chain.md"
report chain.md
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "trainplan-report: chain.md:1:2004: error[E022]: expression nests deeper than 1000 operators: split it" ] \
	&& ok || bad "10,000-term chain: exit $rc: $(head -c 300 "$tmp/err")"
awk 'BEGIN { s = "1"; for (i = 1; i < 20000; i++) s = s " && 1"; print "`=" s "`" }' > "$tmp/and.md"
report and.md
[ $rc -eq 2 ] && grep -q 'deeper than 1000 operators' "$tmp/err" && ok || bad "20,000 '&&': exit $rc"

# 2. 20,000 headings with one text: ids same-text, same-text-2 ... same-text-20000, at once
awk 'BEGIN { for (i = 0; i < 20000; i++) print "## Same text\n" }' > "$tmp/same.md"
report same.md
if [ $rc -eq 0 ] && grep -q 'id="same-text-20000"' "$tmp/out/report.html" &&
   [ "$(grep -c 'id="same-text' "$tmp/out/report.html")" -eq 20000 ]; then ok
else bad "20,000 equal headings: exit $rc"; fi

# 3. a section number of 25 bytes (10000.10000.10000.10000.1) does not fit: refused at it
awk 'BEGIN { for (l = 1; l <= 4; l++) for (i = 0; i < 10000; i++) { h = ""; for (k = 0; k < l; k++) h = h "#"; print h " h\n" }
             print "##### last" }' > "$tmp/deep.md"
report deep.md
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "trainplan-report: deep.md:80001:1: error[E028]: section number 10000.10000.10000.10000.1 is longer than 23 bytes: split the chapter or mark headings unnumbered with {-}" ] \
	&& ok || bad "25-byte section number: exit $rc: $(cat "$tmp/err")"

# 4. a cross-reference label is cut at 40 bytes before a character, not inside one:
#    "a" and 19 two-byte "é" are 39 bytes; the 20th "é" would end at byte 41
e=$(printf '\303\251')
{ printf '## a'; for i in $(seq 30); do printf '%s' "$e"; done; printf ' {-}\n\nSee [](#a).\n\n'
  # 5. more than 64 written tables with "Table:" captions: every caption paragraph goes
  for i in $(seq 70); do printf '| x |\n|---|\n| %d |\n\nTable: caption %d\n\n' "$i" "$i"; done
} > "$tmp/labels.md"
report labels.md
want="a$(for i in $(seq 19); do printf '%s' "$e"; done)"
[ $rc -eq 0 ] && grep -q "href=\"#a\">$want</a>" "$tmp/out/report.html" && ok || bad "label cut inside a character: exit $rc"
[ $rc -eq 0 ] && ! grep -q '<p>Table: caption' "$tmp/out/report.html" && ok || bad "caption paragraphs past 64 left in the text"

# 6. one URL policy for HTML and PDF: the PDF keeps the https link and drops javascript:,
#    vbscript: and file: (libharu writes '/' as \057 in the URI strings)
printf '# T\n\n[a](javascript:alert(1)) [b](vbscript:x) [c](file:///etc/passwd) [d](https://example.org/ok)\n' > "$tmp/links.md"
(cd "$tmp" && timeout 20 "$rpt" -o out/links links.md >/dev/null 2>err); rc=$?
if [ $rc -eq 0 ] && grep -aq 'URI (https:\\057\\057example.org\\057ok)' "$tmp/out/links.pdf" &&
   ! grep -aqi 'URI (javascript\|URI (vbscript\|URI (file' "$tmp/out/links.pdf" &&
   ! grep -qi 'href="javascript\|href="vbscript\|href="file' "$tmp/out/links.html"; then ok
else bad "URL policy of the PDF: exit $rc: $(grep -ao 'URI ([^)]*)' "$tmp/out/links.pdf")"; fi

# 7. confinement: `with hf_config=` reads a file inside the project (the folder the report
#    runs in) or the plan's folder, and refuses the same file copied outside both
root=$(pwd)
printf '`=model.layers with hf_config="tests/cli/llama3-8b-config.json" |int`\n' > "$tmp/in.md"
got=$(timeout 20 "$rpt" --expand "$tmp/in.md" 2>&1); rc=$?
[ $rc -eq 0 ] && [ "$got" = "32" ] && ok || bad "a config.json inside the project: exit $rc: $got"
cp tests/cli/llama3-8b-config.json "$tmp/outside.json"
printf '`=model.layers with hf_config="%s"`\n' "$tmp/outside.json" > "$tmp/out.md"
got=$(timeout 20 "$rpt" --expand "$tmp/out.md" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$got" | grep -q "outside the project" && ok || bad "a config.json outside: exit $rc: $got"
# ... unless it is in the plan's folder
cp plans/default.ini "$tmp/plan.ini"
got=$(timeout 20 "$rpt" --plan "$tmp/plan.ini" --expand "$tmp/out.md" 2>&1); rc=$?
[ $rc -eq 0 ] && [ "$got" = "32" ] && ok || bad "a config.json in the plan's folder: exit $rc: $got"

# 8. a NUL byte or invalid UTF-8 in a chapter is refused at its line and column
printf '# T\n\nab\000c\n' > "$tmp/nul.md"
printf '# T\n\nCaf\351\n' > "$tmp/latin1.md"
for c in "nul.md:3:3: error: a NUL byte: a chapter is text" \
         "latin1.md:3:4: error: byte 0xE9 is not UTF-8: a chapter is UTF-8 text"; do
	f=${c%%:*}
	got=$(cd "$tmp" && timeout 20 "$rpt" --expand "$f" 2>&1 >/dev/null); rc=$?
	[ $rc -eq 2 ] && [ "$got" = "trainplan-report: $c" ] && ok || bad "$f: exit $rc: $got"
done

# 9. an explicit id longer than the 95 bytes an id holds is refused, not cut (two
#    headings whose ids agree in the first 95 bytes got one id)
id=$(awk 'BEGIN { for (i = 0; i < 100; i++) printf "a" }')
printf '# One {#%s}\n\n# Two {#%sb}\n' "$id" "$id" > "$tmp/longid.md"
report longid.md
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "$(printf 'trainplan-report: longid.md:1:1: error[E028]: an id of 100 bytes: at most 95\ntrainplan-report: longid.md:3:1: error[E028]: an id of 101 bytes: at most 95')" ] \
	&& ok || bad "a 100-byte id: exit $rc: $(cat "$tmp/err")"

# 10. the confinement holds against a symbolic link swapped while the report runs: 10,000
#     directives read link.json while another process points it in turn at a config.json
#     inside the project and at one outside (7 heads, so that reading it is an error of
#     its own: "does not divide").  The file is checked where it was opened, so the
#     outside one is never read: each directive gives 32 or "outside".
mkdir -p "$tmp/race"
cp tests/cli/llama3-8b-config.json "$tmp/race/in.json"
sed 's/"num_attention_heads": 32/"num_attention_heads": 7/; s/"num_key_value_heads": 8/"num_key_value_heads": 7/' \
	tests/cli/llama3-8b-config.json > "$tmp/out7.json"
awk 'BEGIN { for (i = 1; i <= 10000; i++) printf "`=model.layers with hf_config=\"link.json\", tokens=%d.5e9 |int`\n\n", i }' > "$tmp/race/ch.md"
ln -s in.json "$tmp/race/link.json"
(cd "$tmp/race" && exec sh -c 'while :; do ln -sf in.json l.tmp && mv -T l.tmp link.json; ln -sf ../out7.json l.tmp && mv -T l.tmp link.json; done' 2>/dev/null) &
flip=$!
(cd "$tmp/race" && timeout 60 "$rpt" --expand ch.md >out 2>err)
kill $flip; wait $flip 2>/dev/null
if ! grep -q 'does not divide' "$tmp/race/err" && ! grep -v 'outside the' "$tmp/race/err" | grep -q .; then ok
else bad "a swapped link: the outside file was read: $(grep -v 'outside the' "$tmp/race/err" | head -n 2)"; fi

# 11. a subtitle in Latin-1 or with an ESC does not reach report.html: refused, nothing written
printf '# T\n' > "$tmp/sub.md"
for sub in "$(printf 'Caf\351')" "$(printf 'red \033[31m')"; do
	(cd "$tmp" && timeout 20 "$rpt" --no-pdf -o subout/report --subtitle "$sub" sub.md >/dev/null 2>err); rc=$?
	[ $rc -eq 2 ] && [ ! -e "$tmp/subout" ] && grep -q '^trainplan-report: error: --subtitle: a control character or a byte that is not UTF-8 at byte' "$tmp/err" \
		&& ok || bad "--subtitle with a byte that is not text: exit $rc: $(head -n 1 "$tmp/err")"
done

# 12. a Markdown table of 25,001 rows x 4 cells (1.5 MB; its PDF layout took 555 MB) is
#     refused at its line before any layout; 20,000 cells is the bound
awk 'BEGIN { print "# T\n\n| a | b | c | d |\n|---|---|---|---|"; for (i = 0; i < 25000; i++) printf "| cell %d | text | %d | words |\n", i, i }' > "$tmp/bigtab.md"
(cd "$tmp" && ulimit -v 1048576 && timeout 20 "$rpt" -o bigtab/report bigtab.md >/dev/null 2>err); rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/bigtab" ] && [ "$(cat "$tmp/err")" = "trainplan-report: bigtab.md:3:1: error[E028]: a table of 100004 cells: at most 20000 (a longer one belongs in a CSV file)" ] \
	&& ok || bad "a 100,004-cell table: exit $rc: $(head -c 300 "$tmp/err")"

# 13. 200 `with` variants that each read the planner: 32 searches, then the bound's message
awk 'BEGIN { for (i = 1; i <= 200; i++) printf "`=search.best.tp with training.tokens=%d.5e9 |int`\n\n", i }' > "$tmp/variants.md"
got=$(cd "$tmp" && timeout 60 "$rpt" --plan "$root/plans/default.ini" --expand variants.md 2>&1 >/dev/null); rc=$?
n=$(printf '%s\n' "$got" | grep -c 'error\[E025\]: more than 32 planner searches of `with` variants in one run')
[ $rc -eq 2 ] && [ "$n" -eq 168 ] && ok || bad "200 variant searches: exit $rc, $n refused: $(printf '%s' "$got" | head -n 2)"

echo "hostile chapters: $pass passed, $fail failed"
[ $fail -eq 0 ]
