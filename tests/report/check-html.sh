#!/bin/sh
# HTML checks of a rendered report: valid HTML5 (tidy reports no errors), every
# internal link "#ID" names an id of the page, ids are unique (the inlined SVGs
# included), every relative link (CSV tables) names an existing file, and the page
# is self-contained (no script, nothing fetched).
html=$1; dir=$(dirname "$html"); pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $html: $*" >&2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if tidy -q -e "$html" 2>"$tmp/tidy"; then ok; else
	# tidy exits 1 on warnings only; errors are what fail
	if grep -q "Error:" "$tmp/tidy"; then bad "tidy reports errors"; cat "$tmp/tidy" >&2; else ok; fi
fi

grep -o " id=[\"'][^\"']*[\"']" "$html" | sed "s/^ id=.//; s/.\$//" | sort > "$tmp/ids"
uniq -d "$tmp/ids" > "$tmp/dups"
if [ -s "$tmp/dups" ]; then bad "duplicate ids: $(tr '\n' ' ' < "$tmp/dups")"; else ok; fi

grep -o "href=[\"']#[^\"']*[\"']" "$html" | sed "s/^href=.#//; s/.\$//" | sort -u > "$tmp/refs"
n=$(wc -l < "$tmp/refs")
missing=$(comm -23 "$tmp/refs" "$tmp/ids" | tr '\n' ' ')
if [ -n "$missing" ]; then bad "links to missing ids: $missing"; elif [ "$n" -lt 3 ]; then bad "only $n internal links"; else ok; fi

grep -o "href=\"[^\"#:]*\"" "$html" | sed 's/^href="//; s/"$//' | sort -u > "$tmp/files"
nf=0; for f in $(cat "$tmp/files"); do
	nf=$((nf + 1)); [ -f "$dir/$f" ] || bad "link to missing file $f"
done
ok

if grep -qi -e "<script" -e "<link " -e "src=\"http" -e "@import" "$html"; then bad "not self-contained"; else ok; fi

# At a narrow window (800 px) every table scrolls inside its own container and no
# header breaks inside a word: each <table> sits in a <div class="table-wrap"> whose CSS
# scrolls sideways, header cells do not break words, and a header word with a hyphen
# ("ZeRO-1", "micro-batch") is kept in one piece (a span that does not wrap).
nt=$(grep -o "<table" "$html" | wc -l); nw=$(grep -o "<div class=\"table-wrap\">" "$html" | wc -l)
if [ "$nt" != "$nw" ]; then bad "$nt tables but $nw scroll containers"; else ok; fi
if grep -q "\.table-wrap{overflow-x:auto" "$html" && grep -q "th{hyphens:manual;overflow-wrap:normal;word-break:normal}th \.nw{white-space:nowrap}" "$html"
then ok; else bad "the CSS does not scroll wide tables or lets headers break inside a word"; fi
broken=$(grep -o "<th[^>]*>[^<]*" "$html" | sed 's/<th[^>]*>//' | grep -E "[[:alnum:]]-[[:alnum:]]" | head -3 | tr '\n' ' ')
if [ -n "$broken" ]; then bad "header words with a hyphen that may break there: $broken"; else ok; fi

echo "html: $pass passed, $fail failed ($n internal links, $nf files linked, $(wc -l < "$tmp/ids") ids)"
[ $fail -eq 0 ]
