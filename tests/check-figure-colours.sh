#!/bin/sh
# tests/check-figure-colours.sh -- one colour per part of the step on every chart that
# splits it: the step breakdown of candidate splits (figures/step-breakdown.gp) and the
# comparison's step chart (figures/compare/compare-step.gp) draw compute, recomputation,
# TP/CP communication, bubble, DP communication and optimizer, in that order, in the
# colours the step timeline (figures/step-timeline.gp) gives them, which figures/style.gp
# names (c_compute ... c_optimizer).  Each chart is drawn from a small dataset with every
# part non-zero, and the colours of its bars, in the order gnuplot first uses them, are
# compared with the timeline's.  The Gantt charts of the pipeline schedules give the
# forward, backward and weight-gradient passes colours no other meaning uses, and the
# plans of a comparison (c_plan) none of these.  Every series of every chart, for every
# plan given, is in a colour style.gp names (below).
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; n=0
# the timeline's colours, from its source: forward (compute), recomputation, TP/CP,
# bubble, DP, optimizer
# (a colour of figures/style.gp by its name, c_NAME)
hex() {
	c=$(sed -n "s/.*box(0, \"$1\")).*lc rgb \([#'a-zA-Z0-9_]*\).*/\1/p" figures/step-timeline.gp | head -1 | tr -d "'")
	case "$c" in c_*) sed -n "s/^$c *= *'\(#[0-9A-Fa-f]*\)'.*/\1/p" figures/style.gp | head -1 ;; *) echo "$c" ;; esac
}
want=""
for seg in forward recompute "TP\\/CP wait" bubble "DP wait" optimizer; do
	h=$(hex "$seg")
	[ -n "$h" ] || { echo "FAIL: figures/step-timeline.gp: no colour for $seg" >&2; exit 1; }
	want="$want $(printf '%d,%d,%d' 0x$(echo $h | cut -c2-3) 0x$(echo $h | cut -c4-5) 0x$(echo $h | cut -c6-7))"
done
printf 'split\ttp\tpp\tdp\tcompute\trecompute\ttp_comm\tbubble\tdp_exposed\toptimizer\ttime\tmfu\n' >"$tmp/step-breakdown.tsv"
printf 'TP8 PP8 DP8\t8\t8\t8\t6\t1\t1.5\t0.5\t0.4\t0.3\t9.7\t0.4\n' >>"$tmp/step-breakdown.tsv"
printf 'TP4 PP8 DP16\t4\t8\t16\t6\t1\t1\t0.6\t0.5\t0.3\t9.4\t0.4\n' >>"$tmp/step-breakdown.tsv"
printf 'plan\tcompute (forward + backward)\trecomputation\tTP/CP communication (exposed)\tpipeline bubble\tDP communication (exposed)\toptimizer step\n' >"$tmp/compare-step.tsv"
printf 'A\t6\t1\t1.5\t0.5\t0.4\t0.3\nB\t7\t1\t1\t0.6\t0.5\t0.3\n' >>"$tmp/compare-step.tsv"
for f in figures/step-breakdown.gp figures/compare/compare-step.gp; do
	name=$(basename "$f" .gp)
	n=$((n + 1))
	if ! gnuplot -e "datafile='$tmp/$name.tsv'; outfile='$tmp/$name.svg'; device='svg'" \
		figures/style.gp "$f" 2>"$tmp/err"; then
		echo "FAIL: $f: gnuplot failed: $(head -1 "$tmp/err")" >&2; fail=1; continue
	fi
	# the bars' fills in order of first use, less the chart's own greys (text, border,
	# grid) and white
	got=$(grep -o "<polygon fill = 'rgb([ 0-9,]*)'" "$tmp/$name.svg" | sed "s/.*rgb(\(.*\))'/\1/" | tr -d ' ' |
		awk '!seen[$0]++' | grep -v -x -e '51,51,51' -e '85,85,85' -e '221,221,221' -e '255,255,255' | tr '\n' ' ')
	if [ "$(echo $got)" != "$(echo $want)" ]; then
		echo "FAIL: $f: the parts of the step in colours $got, not the step timeline's $want" >&2
		fail=1
	fi
done
# The pipeline schedules' Gantt charts (figures/gantt.gpi): forward, backward (B) and
# weight-gradient (W) passes in c_compute, c_backward and c_wgrad of figures/style.gp,
# the forward and backward the step timeline's, and none of the three a colour that
# style.gp gives another meaning (TP/CP, recomputation, bubble, DP, PP, optimizer, host,
# activations, a total).  Drawn from a dataset of one F, B and W of the first chunk.
rgb() { printf '%d,%d,%d' 0x$(echo $1 | cut -c2-3) 0x$(echo $1 | cut -c4-5) 0x$(echo $1 | cut -c6-7); }
sty() { sed -n "s/^$1 *= *'\(#[0-9A-Fa-f]*\)'.*/\1/p" figures/style.gp | head -1; }
gf=$(sty c_compute); gb=$(sty c_backward); gw=$(sty c_wgrad)
[ -n "$gf" ] && [ -n "$gb" ] && [ -n "$gw" ] || { echo "FAIL: figures/style.gp: no c_compute, c_backward or c_wgrad" >&2; exit 1; }
[ "$gf" = "$(hex forward)" ] && [ "$gb" = "$(hex backward)" ] ||
	{ echo "FAIL: the Gantt charts' forward/backward $gf/$gb, the step timeline's $(hex forward)/$(hex backward)" >&2; fail=1; }
for other in c_recompute c_tp c_bubble c_dp c_pp c_optimizer c_host c_activations c_step; do
	o=$(sty $other)
	for g in "$gf" "$gb" "$gw"; do
		[ "$(echo "$g" | tr a-f A-F)" != "$(echo "$o" | tr a-f A-F)" ] ||
			{ echo "FAIL: figures/style.gp: $other is $o, a colour of the Gantt charts' passes" >&2; fail=1; }
	done
done
# the comparison's plans (c_plan, figures/compare/compare-memory.gp) in colours of their own
plans=$(sed -n "s/^array c_plan\[[0-9]*\] = \[\(.*\)\]$/\1/p" figures/style.gp | tr -d "' " | tr ',' ' ')
[ -n "$plans" ] || { echo "FAIL: figures/style.gp: no c_plan" >&2; fail=1; }
grep -q 'plan_colour(' figures/compare/compare-memory.gp || { echo "FAIL: compare-memory.gp: plans not in c_plan" >&2; fail=1; }
for pc in $plans; do
	for other in c_compute c_backward c_wgrad c_recompute c_tp c_bubble c_dp c_pp c_optimizer c_host c_activations c_step; do
		[ "$(echo "$pc" | tr a-f A-F)" != "$(sty $other | tr a-f A-F)" ] ||
			{ echo "FAIL: figures/style.gp: plan colour $pc is $other's" >&2; fail=1; }
	done
done
[ "$gf" != "$gb" ] && [ "$gf" != "$gw" ] && [ "$gb" != "$gw" ] || { echo "FAIL: forward, backward and W share a colour" >&2; fail=1; }
printf 'stage\top\tkind\tmb\tchunk\tstart\tend\n0\tF\t0\t0\t0\t0\t1\n0\tB\t1\t0\t0\t1\t2\n0\tW\t2\t0\t0\t2\t3\n' >"$tmp/gantt.tsv"
n=$((n + 1))
if gnuplot -e "datafile='$tmp/gantt.tsv'; outfile='$tmp/gantt.svg'; device='svg'" figures/style.gp figures/schedule-gantt-zb-h1.gp 2>"$tmp/err"; then
	got=$(grep -o "<polygon fill = 'rgb([ 0-9,]*)'" "$tmp/gantt.svg" | sed "s/.*rgb(\(.*\))'/\1/" | tr -d ' ' |
		awk '!seen[$0]++' | grep -v -x -e '51,51,51' -e '85,85,85' -e '221,221,221' -e '238,238,238' -e '255,255,255' | tr '\n' ' ')
	want="$(rgb $gf) $(rgb $gb) $(rgb $gw)"
	[ "$(echo $got)" = "$want" ] || { echo "FAIL: figures/gantt.gpi: F, B, W in colours $got, not $want" >&2; fail=1; }
else
	echo "FAIL: figures/gantt.gpi: gnuplot failed: $(head -1 "$tmp/err")" >&2; fail=1
fi
# the second chunk's boxes: no pattern fill, which the PDF's SVG reader (report/svgpdf.c)
# draws black
printf '0\tF\t0\t1\t1\t3\t4\n0\tB\t1\t1\t1\t4\t5\n0\tW\t2\t1\t1\t5\t6\n' >>"$tmp/gantt.tsv"
if gnuplot -e "datafile='$tmp/gantt.tsv'; outfile='$tmp/gantt2.svg'; device='svg'" figures/style.gp figures/schedule-gantt-zb-h1.gp 2>"$tmp/err" &&
	! grep -q 'url(#gpPat' "$tmp/gantt2.svg"; then :; else
	echo "FAIL: figures/gantt.gpi: the second chunk's boxes use a pattern fill" >&2; fail=1
fi
# The diagram of TP and PP (figures/tp-pp-diagram.gp): the layers' GEMMs and the stages in
# c_compute, the collectives inside a layer in c_tp and the sends between stages in c_pp,
# and no fill in another meaning's colour (its only other fills: the other GPUs' slices
# drawn as pale shadows, the arrowheads of the sends (c_pp) and of the data flow (ink),
# and white)
printf 'stage\tfirst_layer\tlast_layer\tlayers\tembedding\thead\ttp\tpp\tvpp\tsp\theads_per_gpu\ttp_message_bytes\ttp_coll_bytes\ttp_colls_fwd\ttp_colls_bwd\ttp_tier\tsend_bytes\tpp_tier\n' >"$tmp/tpp.tsv"
printf '0\t0\t3\t4\t1\t0\t4\t2\t1\tyes\t8\t1e7\t2e7\t2\t2\t0\t5e6\t1\n1\t4\t7\t4\t0\t1\t4\t2\t1\tyes\t8\t1e7\t2e7\t2\t2\t0\t5e6\t1\n' >>"$tmp/tpp.tsv"
n=$((n + 1))
if gnuplot -e "datafile='$tmp/tpp.tsv'; outfile='$tmp/tpp.svg'; device='svg'" figures/style.gp figures/tp-pp-diagram.gp 2>"$tmp/err"; then
	fills=$(grep -o "fill = 'rgb([ 0-9,]*)'" "$tmp/tpp.svg" | sed "s/.*rgb(\(.*\))'/\1/" | tr -d ' ' | sort -u |
		grep -v -x -e "$(rgb "$(sty c_compute)")" -e "$(rgb "$(sty c_tp)")" -e "$(rgb "$(sty c_pp)")" -e '187,215,236' -e '255,255,255' -e '34,34,34' | tr '\n' ' ')
	[ -z "$fills" ] || { echo "FAIL: figures/tp-pp-diagram.gp: fills $fills beside compute, TP and the shadows" >&2; fail=1; }
	for m in c_compute c_tp; do
		grep -q "fill = 'rgb($(rgb "$(sty $m)" | sed 's/,/, */g'))'" "$tmp/tpp.svg" ||
			grep -q "fill = 'rgb( *$(rgb "$(sty $m)" | sed 's/,/, */g'))'" "$tmp/tpp.svg" ||
			{ echo "FAIL: figures/tp-pp-diagram.gp: nothing in $m" >&2; fail=1; }
	done
	grep -q "stroke='rgb( *$(rgb "$(sty c_pp)" | sed 's/,/, */g'))'" "$tmp/tpp.svg" ||
		{ echo "FAIL: figures/tp-pp-diagram.gp: the sends between stages not in c_pp" >&2; fail=1; }
else
	echo "FAIL: figures/tp-pp-diagram.gp: gnuplot failed: $(head -1 "$tmp/err")" >&2; fail=1
fi
# Every series of every chart in a colour figures/style.gp names: no plot clause picks one
# of gnuplot's numbered line types (lt N, ls N), and no series falls back to the default
# order.  The default order is caught by drawing each chart with the eight line types
# recoloured to sentinels (rgb(1,2,k), a colour no chart uses): a sentinel in the SVG is a
# series that names no colour.  Each chart is drawn from every plan given (usage:
# check-figure-colours.sh [TRAINPLAN PLAN.ini...]; `trainplan data --all` writes the
# datasets), and the comparison's step chart from the dataset above.
for f in figures/*.gp figures/*.gpi figures/compare/*.gp; do
	[ "$f" = figures/style.gp ] && continue
	bad=$(grep -v '^[[:space:]]*#' "$f" | grep -v '^[[:space:]]*set grid' | grep -nE '(^|[[:space:]])(lt|ls|linetype|linestyle)[[:space:]]+[0-9]')
	[ -z "$bad" ] || { echo "FAIL: $f: a numbered line type instead of a named colour: $bad" >&2; fail=1; }
	# nor a literal colour for a series (white, an invisible line that only sets the axes,
	# excepted): a colour is named once, in figures/style.gp
	lit=$(grep -v '^[[:space:]]*#' "$f" | grep -nE "with .*(lc|fc|linecolor) rgb ['\"]#" | grep -viE "rgb ['\"]#ffffff['\"]")
	[ -z "$lit" ] || { echo "FAIL: $f: a series in a literal colour instead of a figures/style.gp name: $lit" >&2; fail=1; }
done
printf 'do for [i=1:8] { set linetype i lc rgb sprintf("#01020%%d", i) }\n' >"$tmp/sentinel.gp"
sentinel() { # name dataset script
	n=$((n + 1))
	if ! gnuplot -e "datafile='$2'; outfile='$tmp/s-$1.svg'; device='svg'" figures/style.gp "$tmp/sentinel.gp" "$3" 2>"$tmp/err"; then
		echo "FAIL: $3 ($2): gnuplot failed: $(head -1 "$tmp/err")" >&2; fail=1; return
	fi
	s=$(grep -oE 'rgb\( *1, *2, *[1-8]\)' "$tmp/s-$1.svg" | sed 's/.*, *\([1-8]\))/\1/' | sort -u | tr '\n' ' ')
	[ -z "$s" ] || { echo "FAIL: $3 ($2): series in gnuplot's default line types $s, not a colour of figures/style.gp" >&2; fail=1; }
}
sentinel compare-step "$tmp/compare-step.tsv" figures/compare/compare-step.gp
if [ $# -gt 0 ]; then
	tp=$1; shift
	for p in "$@"; do
		d="$tmp/data-$(basename "$p" .ini)"; mkdir -p "$d"
		"$tp" data --all --dir "$d" --plan "$p" || { echo "FAIL: trainplan data --all --plan $p" >&2; fail=1; continue; }
		for f in figures/*.gp; do
			name=$(basename "$f" .gp); [ "$name" = style ] && continue
			sentinel "$(basename "$p" .ini)-$name" "$d/$name.tsv" "$f"
		done
	done
fi
# One colour, one meaning: no two names of figures/style.gp (c_NAME = '#RRGGBB') share a
# colour, the pick's mark included.
dups=$(sed -n "s/^\(c_[a-z_]*\) *= *'\(#[0-9A-Fa-f]*\)'.*/\2 \1/p" figures/style.gp |
	awk '{$1 = toupper($1); n[$1]++; w[$1]=w[$1]" "$2} END {for (c in n) if (n[c] > 1) print c":"w[c]}')
[ -z "$dups" ] || { echo "FAIL: figures/style.gp: one colour for several meanings: $dups" >&2; fail=1; }
echo "figure colours: $n charts checked against figures/style.gp's colours"
[ $fail -eq 0 ]
