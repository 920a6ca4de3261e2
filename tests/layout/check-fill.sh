#!/bin/sh
# check-fill.sh -- no page of a report PDF is left more than half empty, except the
# title page, the contents, the page before a chapter opens and the last page; and no
# page but the title is blank, the last included.
#
# A page's fill is how far down its text area the lowest word reaches (pdftotext
# -bbox: one box per word and the page's size): the running header above the text area
# and the "page X of Y" footer below it are not counted.  A figure's lowest text is its
# caption, so a figure counts as far down as it reaches.  The text area is the one
# report/layout.c sets (margin_top 68 pt, margin_bottom 62 pt).  Chapters are the
# outline's top-level items, with the page each opens on (qpdf --json outlines).
#
# usage: check-fill.sh FILE.pdf...    exit status 1 if a page is more than half empty
top=68; bottom=62; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for pdf in "$@"; do
	pdftotext -bbox "$pdf" "$tmp/box.html" 2>/dev/null || { echo "FAIL: $pdf: pdftotext -bbox" >&2; fail=1; continue; }
	qpdf --json=2 --json-key=outlines "$pdf" 2>/dev/null |
		jq -r '.outlines[] | .destpageposfrom1 // empty' >"$tmp/opens" ||
		{ echo "FAIL: $pdf: no outline" >&2; fail=1; continue; }
	# one line per page: its number, its fill as a share of the text area
	awk -v top=$top -v bot=$bottom '
		/<page / { n++; match($0, /height="[0-9.]+"/); h[n] = substr($0, RSTART + 8, RLENGTH - 9); low[n] = 0 }
		/<word / {
			match($0, /yMin="[0-9.]+"/); y0 = substr($0, RSTART + 6, RLENGTH - 7) + 0
			match($0, /yMax="[0-9.]+"/); y1 = substr($0, RSTART + 6, RLENGTH - 7) + 0
			if (y0 >= top - 4 && y1 <= h[n] - bot + 4 && y1 > low[n]) low[n] = y1
		}
		END { for (p = 1; p <= n; p++) printf "%d %.3f\n", p, (low[p] - top) / (h[p] - top - bot) }
	' "$tmp/box.html" >"$tmp/fill"
	npages=$(wc -l <"$tmp/fill")
	first=$(sort -n "$tmp/opens" | head -1)
	[ -n "$first" ] || first=1
	awk -v first="$first" -v last="$npages" -v pdf="$pdf" -v opens="$tmp/opens" '
		BEGIN { while ((getline o < opens) > 0) before[o - 1] = 1 }
		{
			p = $1; f = $2
			# no page is blank, the last included (a page break after the last item)
			if (p > 1 && f <= 0) { printf "FAIL: %s: page %d%s is blank\n", pdf, p, p == last ? " (the last)" : "" > "/dev/stderr"; bad = 1; next }
			# the title, the contents, a page before a chapter, the last page
			if (p == 1 || p < first || p == last || (p in before)) next
			if (f < 0.5) { printf "FAIL: %s: page %d is %.0f%% empty (not the title, contents or a page before a chapter)\n", pdf, p, 100 * (1 - f) > "/dev/stderr"; bad = 1 }
			checked++
		}
		END { if (!bad) printf "fill: %s: %d pages checked, none more than half empty\n", pdf, checked; exit bad }
	' "$tmp/fill" || fail=1
done
exit $fail
