#!/bin/sh
# tests/check-compare.sh BIN -- the comparison report (trainplan report --compare) of
# the four shipped plans says what each plan says alone: every step component of the
# step chart's dataset equals `trainplan get` of that plan, every stage's memory in the
# memory chart's dataset has its worst stage equal to memory.total and its capacity
# equal to memory.total + memory.headroom, and the report's headline table has the
# rows of `trainplan compare --format md` (plan files named by their letters).  The
# normalised table's per-GPU, per-GPU-hour and per-token figures agree with a second
# computation from each plan's step.tokens_per_s, plan.gpus, run.total_cost and plan.tokens;
# costs name the plans' currency (plan.currency) and are not subtracted across two
# currencies; the prose says what differs, and the titles are shown as a key; the
# sentences of tests/compare/NAME.txt are made (or not) for each pair there; the memory
# chart's axis starts where its data does and the step chart's bars at 0; the PDF has no
# blank page (tests/layout/check-fill.sh).
bin=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trainplan-compare.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
plans="plans/default.ini plans/llama2-70b-a100.ini plans/llama3-405b-h100.ini plans/deepseek-v3-h800.ini"
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "compare: FAIL: $*" >&2; }

# shellcheck disable=SC2086
"$bin" report --compare $plans -o "$tmp/rep" --no-pdf >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; echo "compare: 0 passed, 1 failed"; exit 1; }
for f in compare.html compare.md figures/compare-step.svg figures/compare-memory.svg; do
	if [ -s "$tmp/rep/$f" ]; then ok; else bad "$f missing or empty"; fi
done
if [ ! -e "$tmp/rep/compare.pdf" ]; then ok; else bad "--no-pdf wrote a PDF"; fi

k=1
for p in $plans; do
	letter=$(printf "\\$(printf '%03o' $((64 + k)))")
	# the step components, in the columns of compare-step.tsv
	want=$("$bin" get step.compute step.recompute step.tp_comm step.bubble_time step.dp_exposed step.optimizer \
		--format tsv --plan "$p" | awk -F'\t' 'NR > 1 { printf "%s%s", sep, $2; sep = "\t" } END { print "" }')
	got=$(awk -F'\t' -v l="$letter" '$1 == l { sub(/^[^\t]*\t/, ""); print }' "$tmp/rep/data/compare-step.tsv")
	if [ "$got" = "$want" ]; then ok; else bad "$p: step components '$got', trainplan get '$want'"; fi
	# the worst stage and the capacity, from compare-memory.tsv (column k+1 and k+1+n)
	tot=$("$bin" get memory.total --format tsv --plan "$p" | awk -F'\t' 'NR == 2 { print $2 }')
	cap=$("$bin" get memory.total memory.headroom --format tsv --plan "$p" | awk -F'\t' 'NR > 1 { s += $2 } END { printf "%.6e", s }')
	got=$(awk -F'\t' -v c=$((k + 1)) 'NR > 1 && $c != "NaN" { v = $c + 0; if (!n++ || v > m) { m = v; s = $c } } END { print s }' "$tmp/rep/data/compare-memory.tsv")
	if [ "$got" = "$tot" ]; then ok; else bad "$p: worst stage $got, memory.total $tot"; fi
	got=$(awk -F'\t' -v c=$((k + 5)) 'NR == 2 { printf "%.6e", $c }' "$tmp/rep/data/compare-memory.tsv")
	if [ "$got" = "$cap" ]; then ok; else bad "$p: capacity $got, memory.total + memory.headroom $cap"; fi
	# the headline row of trainplan compare, the plan's file replaced by its letter
	# shellcheck disable=SC2086
	want=$("$bin" compare $plans --format md | grep -F "| $p | " | sed "s#^| $p | #| $letter | #")
	if grep -qxF -- "$want" "$tmp/rep/compare.md"; then ok; else bad "$p: headline row '$want' not in compare.md"; fi
	# per GPU, per GPU-hour and per token, computed here from the plan's own totals:
	# tokens/s / GPUs; 10^9 / (3600 x tokens/s per GPU); run.total_cost / plan.tokens x 10^6
	"$bin" get step.tokens_per_s plan.gpus run.total_cost plan.tokens step.tokens_per_s_per_gpu \
		run.gpu_hours_per_btokens run.cost_per_mtokens --format tsv --plan "$p" >"$tmp/n"
	if awk -F'\t' 'NR > 1 { v[NR - 1] = $2 }
		function off(a, b) { return (a - b) / b > 1e-9 || (b - a) / b > 1e-9 }
		END { g = v[1] / v[2]; exit off(v[5], g) || off(v[6], 1e9 / (3600 * g)) || off(v[7], v[3] / v[4] * 1e6) }' "$tmp/n"
	then ok; else bad "$p: normalised figures disagree with the totals: $(tr '\n' ' ' <"$tmp/n")"; fi
	title=$("$bin" get plan.title --format tsv --plan "$p" | awk -F'\t' 'NR == 2 { print $2 }')
	if grep -qxF -- "- **$letter**: $title ($p)" "$tmp/rep/compare.md"; then ok; else bad "$p: title '$title' not in the key"; fi
	k=$((k + 1))
done
# DeepSeek-V3 names USD, the others no currency: costs are in each plan's own, and the
# differences of costs (rows B−A, C−A, D−A) are left empty
if grep -qF "cost (each plan's currency)" "$tmp/rep/compare.md" && ! grep -qF "(currency)" "$tmp/rep/compare.md" &&
	grep -F "| D−A |" "$tmp/rep/compare.md" | head -1 | grep -q "| – |$"
then ok; else bad "mixed currencies: costs not labelled per plan or subtracted"; fi
# the prose: what differs, by input, with both values
if grep -qF "## What differs and why" "$tmp/rep/compare.md" &&
	grep -qF "Plan D (Training DeepSeek-V3 on 2,048 H800 GPUs) against plan A: it differs in the model (deepseek-v3 against dense-100b)" "$tmp/rep/compare.md"
then ok; else bad "no prose of what differs"; fi
# one currency for all: named in every cost header, subtracted
"$bin" report --compare plans/default.ini plans/llama2-70b-a100.ini --set plan.currency=EUR -o "$tmp/eur" --no-pdf \
	>"$tmp/out" 2>"$tmp/err" || cat "$tmp/err" >&2
if grep -qF "| cost (EUR) |" "$tmp/eur/compare.md" && grep -qF "cost per 10⁶ tokens (EUR)" "$tmp/eur/compare.md" &&
	! grep -qF "(currency)" "$tmp/eur/compare.md" && grep -F "| B−A |" "$tmp/eur/compare.md" | head -1 | grep -qv "| – |$"
then ok; else bad "plan.currency = EUR: costs not labelled EUR or not subtracted"; fi
# the sentences each pair of tests/compare/*.txt must (+) or must not (-) make, and the
# axes: the memory chart's lines start where the data does (its y axis from the lowest
# stage or capacity, rounded down to a tic, not from 0 when they sit far above it), the
# step chart's stacked bars of a time at 0
for claims in tests/compare/*.txt; do
	name=$(basename "$claims" .txt)
	# shellcheck disable=SC2046
	"$bin" report --compare $(sed -n 's/^plans: //p' "$claims") -o "$tmp/$name" --no-pdf >"$tmp/out" 2>"$tmp/err" ||
		{ bad "$name: $(head -1 "$tmp/err")"; continue; }
	while IFS= read -r line; do
		case $line in
		"+ "*) if grep -qF -- "${line#+ }" "$tmp/$name/compare.md"; then ok; else bad "$name: missing: ${line#+ }"; fi ;;
		"- "*) if grep -qF -- "${line#- }" "$tmp/$name/compare.md"; then bad "$name: must not say: ${line#- }"; else ok; fi ;;
		esac
	done <"$claims"
	lo=$(awk -F'\t' 'NR > 1 { for (i = 2; i <= NF; i++) if ($i != "NaN" && (m == "" || $i + 0 < m)) m = $i + 0 } END { print m / 1e9 }' \
		"$tmp/$name/data/compare-memory.tsv")
	for fig in compare-memory compare-step; do
		ymin=$(gnuplot -e "datafile='$tmp/$name/data/$fig.tsv'; outfile='$tmp/$fig.svg'; device='svg'" \
			figures/style.gp "figures/compare/$fig.gp" -e "print GPVAL_Y_MIN" 2>&1 | tail -1)
		if [ $fig = compare-step ]; then
			if [ "$ymin" = 0.0 ] || [ "$ymin" = 0 ]; then ok; else bad "$name: the step chart's bars start at $ymin, not 0"; fi
		elif awk -v y="$ymin" -v lo="$lo" 'BEGIN { exit !(y <= lo && (lo < 20 || y > 0)) }'; then ok
		else bad "$name: the memory chart's y axis starts at $ymin GB, the data at $lo GB"; fi
	done
done
# the PDF: no blank page at its end (a page break after the last table left one) and no
# page more than half empty but those check-fill.sh allows
# shellcheck disable=SC2086
if "$bin" report --compare $plans -o "$tmp/pdf" >"$tmp/out" 2>"$tmp/err" &&
	sh tests/layout/check-fill.sh "$tmp/pdf/compare.pdf" >/dev/null 2>"$tmp/fill"
then ok; else bad "the comparison PDF: $(cat "$tmp/err" "$tmp/fill" | head -2)"; fi
echo "compare: $pass passed, $fail failed"
[ $fail -eq 0 ]
