#!/bin/sh
# tests/layout/check-header-words.sh -- no table header breaks a word between letters.
# Lays each Markdown file given out through the PDF device with the layout driver
# (--header-breaks: the header words the layout broke inside, report/layout.c, table)
# and fails when any file has one.  A header may break at a space, or after a hyphen,
# a slash or an underscore inside a word; a column is never set narrower than the widest
# such piece of its header, down to 60 % of the table size.  Image lines are dropped (the
# driver reads no figures of an expanded report).  The check first lays out
# tests/layout/header-words/too-wide.md, thirty unbreakable header words no width holds,
# and fails unless it sees that document's breaks: a check that cannot fail is none.
# usage: check-header-words.sh LAYOUT-DRIVER FILE.md...
drv=$1; shift
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
breaks() { # FILE.md -> the count on standard output, or nothing when the layout failed
	grep -v '!\[' "$1" > "$tmp/doc.md"
	"$drv" --header-breaks --pdf "$tmp/doc.pdf" "$tmp/doc.md" 2>&1 >/dev/null | sed -n 's/^header breaks: //p'
}
n=$(breaks tests/layout/header-words/too-wide.md)
if [ -z "$n" ] || [ "$n" -eq 0 ]; then
	echo "FAIL: check-header-words sees no break in tests/layout/header-words/too-wide.md" >&2
	exit 1
fi
pass=0; fail=0
for f in "$@"; do
	n=$(breaks "$f")
	if [ "$n" = 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $f: ${n:-the layout failed: no count of} table header word(s) broken between letters" >&2
	fi
done
echo "header words: $pass documents with no header broken inside a word, $fail failed"
[ "$fail" -eq 0 ]
