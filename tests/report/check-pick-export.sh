#!/bin/sh
# tests/report/check-pick-export.sh -- the report's table of the command that writes the
# recommendation's launch flags (chapter 8, "The command that writes ...") runs: for each
# shipped plan whose report has the table, the `--plan` and `--set KEY=` rows are put
# together into `trainplan export --for megatron ...`, which must exit 0 and name the
# pick's degrees in its first line.  A plan whose pick Megatron-LM cannot express must say
# so instead.
# usage: check-pick-export.sh TRAINPLAN-REPORT TRAINPLAN [EXPANDED-DIR]
# With EXPANDED-DIR, plans/NAME.ini's expanded chapters are read from EXPANDED-DIR/NAME.md
# when that file is there (tests/report.mk expands each shipped plan once).
rpt=$1; bin=$2; expanded=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; n=0
for plan in plans/*.ini; do
	name=$(basename "$plan" .ini)
	if [ -n "$expanded" ] && [ -f "$expanded/$name.md" ]; then
		cp "$expanded/$name.md" "$tmp/x" || exit 2
	else
		"$rpt" --plan "$plan" --expand chapters/*.md >"$tmp/x" 2>/dev/null || { echo "FAIL: $plan: expand" >&2; fail=1; continue; }
	fi
	if grep -q '^| `trainplan export --for megatron` | value |' "$tmp/x"; then
		set --
		file=$(sed -n 's/^| `--plan` | \(.*\) |$/\1/p' "$tmp/x")
		sed -n 's/^| `--set \([a-z_.]*=\)` | \(.*\) |$/\1\2/p' "$tmp/x" >"$tmp/sets"
		while IFS= read -r kv; do set -- "$@" --set "$kv"; done <"$tmp/sets"
		if ! "$bin" export --for megatron --plan "$file" "$@" >"$tmp/out" 2>"$tmp/err"; then
			echo "FAIL: $plan: the report's export command fails: $(head -1 "$tmp/err")" >&2; fail=1
		fi
		tp=$(sed -n 's/^parallel.tp=//p' "$tmp/sets"); pp=$(sed -n 's/^parallel.pp=//p' "$tmp/sets")
		head -1 "$tmp/out" | grep -q "tp $tp x .* pp $pp " || { echo "FAIL: $plan: export's first line does not name tp $tp, pp $pp" >&2; fail=1; }
		n=$((n + 1))
	elif ! grep -q "cannot be exported as it stands" "$tmp/x"; then
		echo "FAIL: $plan: neither the export command nor why there is none" >&2; fail=1
	fi
done
[ $fail = 0 ] && echo "pick export: $n command(s) run, every plan's pick accounted for"
exit $fail
