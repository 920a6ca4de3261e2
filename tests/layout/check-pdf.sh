#!/bin/sh
# PDF checks on one rendered PDF and the Markdown it came from:
#   qpdf --check passes; pdffonts lists only embedded fonts; pdftotext contains every
#   heading of the Markdown (and every further argument, as an exact text) and no tool
#   internal (function names, docs/ paths, make check); the outline has one bookmark per
#   heading.
# usage: check-pdf.sh FILE.pdf "CHAPTER.md..." [TEXT...]
pdf=$1; md=$2; shift 2; fail=0
err() { echo "FAIL: $pdf: $*" >&2; fail=1; }

qpdf --check "$pdf" >/dev/null 2>&1 || err "qpdf --check reports errors"

# pdffonts: two header lines, then one line per font; column "emb" must say yes.
nfonts=$(pdffonts "$pdf" 2>/dev/null | tail -n +3 | wc -l)
# The last five columns are emb sub uni and the object number and generation.
notemb=$(pdffonts "$pdf" 2>/dev/null | tail -n +3 | awk '$(NF-4) != "yes"' | wc -l)
[ "$nfonts" -gt 0 ] || err "no fonts"
[ "$notemb" -eq 0 ] || err "$notemb fonts not embedded"

# Headings of the Markdown: ATX lines outside fenced code, markup removed.
heads=$(mktemp); text=$(mktemp)
awk '/^(```|~~~)/ { f = !f; next } !f && /^#+ / { sub(/^#+ +/, ""); sub(/ +#+ *$/, ""); sub(/ *[{]#[^}]*[}] *$/, ""); gsub(/[`*_]/, ""); print }' $md > "$heads"
pdftotext -enc UTF-8 "$pdf" - 2>/dev/null | tr -s ' \n' '  ' > "$text"
nheads=0
while IFS= read -r h; do
	nheads=$((nheads + 1))
	hh=$(printf '%s' "$h" | tr -s ' ' ' ')
	grep -qF -- "$hh" "$text" || err "heading not in the text: $h"
done < "$heads"
for line in "$@"; do grep -qF -- "$line" "$text" || err "text not in the PDF: $line"; done
# No tool internals on the page, tables' notes included: no function of the library
# (calc_*, cli_*, rpt_*), no file of the source tree's docs, no make target.
internal=$(grep -oE '\b(calc|cli|rpt)_[a-z_]+\b|docs/(references|architecture)\.md|make check' "$text" | sort -u | tr '\n' ' ')
[ -z "$internal" ] || err "tool internals in the text: $internal"

# Bookmarks: every outline item, at any depth.
nbm=$(qpdf --json=2 --json-key=outlines "$pdf" 2>/dev/null | jq '[.. | objects | select(has("title"))] | length')
[ "$nbm" = "$nheads" ] || err "$nbm bookmarks for $nheads headings"
rm -f "$heads" "$text"
[ $fail -eq 0 ] && echo "pdf: $pdf: qpdf ok, $nfonts fonts embedded, $nheads headings in text and outline"
[ $fail -eq 0 ]
