#!/bin/sh
# tests/check-band.sh -- validation.band against a second computation over the rows.
# For each shipped plan: the held-out rows (role not "calibrates") of the plan's stack
# family in `trainplan validate --format tsv` (megatron for the plans, which name no
# stack) whose class begins with the plan's GPU generation (from `trainplan get gpu.name`:
# a100 -> A100; h100, h800, h200 -> H100; b200, b300 -> Blackwell); where fewer than 5, the
# family's rows on every GPU; where those are fewer too, all held-out rows; their |error|
# sorted, and the value at rank ceil(0.9 n) (nearest rank).  Computed here with awk and sort, apart
# from calc_validate_band; must agree with `trainplan get validation.band` to 1e-6.
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" validate --format tsv >"$tmp/rows" 2>/dev/null
[ -s "$tmp/rows" ] || { echo "FAIL: trainplan validate gave no rows" >&2; exit 1; }
fail=0
for plan in plans/*.ini; do
	fam=megatron
	gpu=$("$bin" get gpu.name --plan "$plan" --format tsv 2>/dev/null | tail -1 | awk -F'\t' '{ print $2 }')
	case $gpu in
	*a100*) gen=A100 ;;
	*h100* | *h800* | *h200*) gen=H100 ;;
	*b200* | *b300*) gen=Blackwell ;;
	*) gen=none ;;
	esac
	awk -F'\t' -v f="$fam" -v g="$gen " 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["role"] != "calibrates" && $c["stack"] == f && index($c["class"], g) == 1 {
			e = $c["error"]; printf "%.10g\n", (e < 0 ? -e : e) }' \
		"$tmp/rows" | sort -g >"$tmp/e"
	n=$(wc -l <"$tmp/e")
	if [ "$n" -lt 5 ]; then
		awk -F'\t' -v f="$fam" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["role"] != "calibrates" && $c["stack"] == f { e = $c["error"]; printf "%.10g\n", (e < 0 ? -e : e) }' \
			"$tmp/rows" | sort -g >"$tmp/e"
		n=$(wc -l <"$tmp/e")
	fi
	if [ "$n" -lt 5 ]; then
		awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["role"] != "calibrates" { e = $c["error"]; printf "%.10g\n", (e < 0 ? -e : e) }' "$tmp/rows" | sort -g >"$tmp/e"
		n=$(wc -l <"$tmp/e")
	fi
	k=$(awk -v n="$n" 'BEGIN { k = int(0.9 * n); if (k < 0.9 * n) k++; print k }')
	want=$(sed -n "${k}p" "$tmp/e")
	got=$("$bin" get validation.band --plan "$plan" --format tsv 2>/dev/null | tail -1 | awk -F'\t' '{ print $2 }')
	if awk -v a="$want" -v b="$got" 'BEGIN { d = a - b; exit !(d < 1e-6 && d > -1e-6 && a != "") }'; then
		:
	else
		echo "FAIL: $plan: validation.band is '$got', the rows give '$want' (rank $k of $n)" >&2
		fail=1
	fi
done
[ $fail = 0 ] && echo "band: validation.band agrees with the rows for every plan"
exit $fail
