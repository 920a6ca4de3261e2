#!/bin/sh
# tests/report/check-numbers.sh -- the reader's rounding (docs/references.md §9.20) in the
# expanded chapters: no number of five or more integer digits without thousands separators
# ("21095" reads 21,095) in prose or tables, and no predicted quantity written with its
# unit (tokens/s, a currency, ms, s, GB, MB, TB, days) in more than four significant
# digits ("2,844,136 tokens/s" reads 2.844 million tokens/s).  Counts (steps, GPUs) and
# published figures (a model card's GPU-hours) keep every digit and are not checked.
# Skipped, as they are not the report's figures but text a reader copies: fenced and
# indented code blocks (launch flags), inline code, link targets and URLs, commit hashes
# ("commit 495218376") and arXiv identifiers (2311.08105).
# Prints one line per offending number (FILE:LINE: NUMBER) and
# "numbers: N files, N not rounded as a reader would"; the exit status is 1 if any.
# With --cover, the cover's subtitle of PLAN (built from a one-line chapter) is checked
# too: its GPU count grouped as the text's (16,384 x h100-sxm-80g, not 16384).
# usage: check-numbers.sh [--cover TRAINPLAN-REPORT PLAN] EXPANDED.md...
bad=0
if [ "$1" = --cover ]; then
	tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
	printf '# Cover\n\nThe cover only.\n' >"$tmp/c.md"
	"$2" --plan "$3" --no-pdf -o "$tmp/r" "$tmp/c.md" || { echo "FAIL: the cover of $3 did not build" >&2; exit 1; }
	sub=$(sed -n 's/.*class="subtitle">\([^<]*\).*/\1/p' "$tmp/r.html")
	case $sub in
	*' on '[0-9]*' '*) ;;
	*) echo "FAIL: $3: no subtitle \"MODEL on N x GPU\" on the cover: \"$sub\"" >&2; bad=$((bad + 1)) ;;
	esac
	if printf '%s\n' "$sub" | grep -Eq ' on [0-9]{5,} '; then
		echo "FAIL: $3: the cover's GPU count is not grouped: \"$sub\"" >&2; bad=$((bad + 1))
	fi
	shift 3
fi
for f in "$@"; do
	n=$(awk -v F="$f" '
	/^(```|~~~)/ { fence = !fence; next }
	fence { next }
	/^(    |\t)/ && (prev == "" || code) { code = 1; prev = $0; next }
	{ code = 0; prev = $0 }
	{
		s = $0
		gsub(/`[^`]*`/, "", s)
		gsub(/\]\([^)]*\)/, "]", s)
		gsub(/https?:\/\/[^ )|]*/, "", s)
		gsub(/[Cc]ommit [0-9a-f]+/, "", s)
		gsub(/[0-9][0-9][0-9][0-9]\.[0-9][0-9][0-9][0-9][0-9]/, "", s)
		while (match(s, /[0-9][0-9,.]*[0-9]|[0-9]/)) {
			num = substr(s, RSTART, RLENGTH)
			before = RSTART > 1 ? substr(s, RSTART - 1, 1) : ""
			after = substr(s, RSTART + RLENGTH, 1)
			s = substr(s, RSTART + RLENGTH)
			if (before ~ /[A-Za-z_\/-]/ || after ~ /[A-Za-z_\/]/)
				continue  # part of a name: h100, llama3-405b, 2e-5
			sub(/[.,]$/, "", num)
			ip = num; sub(/\..*/, "", ip)
			if (ip !~ /,/ && length(ip) >= 5) {
				printf "%s:%d: %s\n", F, NR, num
				count++
			} else if (ip ~ /,/ && s ~ /^ (tokens\/s|USD|EUR|currency|ms|s|GB|MB|TB|days)([^A-Za-z0-9_\/]|$)/) {
				# a predicted quantity with its unit: four significant digits
				d = num; gsub(/[,.]/, "", d); sub(/^0+/, "", d)
				if (num !~ /\./) sub(/0+$/, "", d)
				if (length(d) > 4) {
					printf "%s:%d: %s (more than four significant digits)\n", F, NR, num
					count++
				}
			}
		}
	}
	END { exit count > 0 }' "$f") || { printf '%s\n' "$n" >&2; bad=$((bad + $(printf '%s\n' "$n" | wc -l))); }
done
echo "numbers: $# files, $bad not rounded as a reader would"
[ $bad -eq 0 ]
