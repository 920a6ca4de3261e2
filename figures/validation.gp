# figures/validation.gp -- error of the time model against each published run, with the
# ±15% acceptance band, calibrating and held-out runs apart.  Dataset validation
# (calc/validate.c): source, stack, model, GPUs, TP, CP, PP, DP, v, recompute, metric,
# published, predicted, error [fraction], MFU, HFU, peak memory, fits, role, recipe.
#
# One horizontal bar per run, in the table's order from the top, so that every run's
# label reads level at the size of the tables' text however many runs there are: its
# own canvas, as tall as the rows need (10 units a run, 8-unit labels: 68 runs fill
# a page).

stats datafile using 0 nooutput
N = STATS_records
H = 90 + 10 * N
if (device eq 'png') {
	set terminal pngcairo size 1440, 2 * H noenhanced font 'DejaVu Sans,13' fontscale 2 linewidth 2 background rgb 'white'
} else {
	set terminal svg size 720, H noenhanced font 'DejaVu Sans,13' linewidth 1.2 background rgb 'white'
}
set output outfile

# The label names the GPU count and any CP degree too: several sources publish one model
# at several scales or CP degrees (Llama 3 Table 4, MT-NLG, Narayanan Table 2,
# torchtitan Table 2), which would otherwise read alike; and an FP8 recipe, since
# torchtitan's T1 and T3 publish one setting in BF16 and in Float8.
label(s, m, g, c, r, q) = sprintf('%s  %s  %d%s  %s%s', s, m, g, c > 1 ? sprintf(' cp%d', c) : '', \
	r eq 'full' ? 'full' : r eq 'flash+SP' ? 'flash' : r eq 'flash+full' ? 'flash+full' : \
	r eq 'flash+op-sac' ? 'flash+op-sac' : \
	r eq 'flash+selective' ? 'flash+sel.' : 'sel.', \
	strstrt(q, 'fp8') > 0 ? '  fp8' : '')
# The x range holds the errors to +-60 %, at least -40..25 %: a run that misses by more
# is drawn to the edge and its error written beside it, so that one run far off does
# not squeeze the others' bars (and the tics) into a few millimetres.
CAP = 60
stats datafile using (100 * column("error")) name "ERR" nooutput
xmin = ERR_min < -40 ? (ERR_min < -CAP ? -CAP - 15 : 10 * floor(ERR_min / 10) - 5) : -40
xmax = ERR_max > 25 ? (ERR_max > CAP ? CAP + 15 : 10 * ceil(ERR_max / 10) + 5) : 25
set style fill solid 0.85 border rgb '#ffffff'
set yrange [N - 0.4 : -0.6]
set ytics font ",8" nomirror scale 0
set xrange [xmin:xmax]
set xtics 10 nomirror
set grid noytics xtics lc rgb '#dddddd' lw 1 lt 1
set xlabel 'predicted / published - 1 (%)'
set key outside top center horizontal font ',10'
set lmargin 30
set rmargin 3
set arrow 1 from 15, graph 0 to 15, graph 1 nohead @limit_style
set arrow 2 from -15, graph 0 to -15, graph 1 nohead @limit_style
set arrow 3 from 0, graph 0 to 0, graph 1 nohead lc rgb '#555555' lw 1

e(r) = 100 * column("error")
# the bar's error clipped to the drawn range
c(x) = x > CAP ? CAP : x < -CAP ? -CAP : x
plot datafile using (strcol("role") eq 'calibrates' ? c(e(0)) / 2 : 1/0):0:(abs(c(e(0))) / 2):(0.35):ytic(label(strcol("source"), strcol("model"), column("GPUs"), column("CP"), strcol("recompute"), strcol("recipe"))) \
         with boxxyerror lc rgb c_calibrating title 'calibrating run', \
     '' using (strcol("role") eq 'held out' ? c(e(0)) / 2 : 1/0):0:(abs(c(e(0))) / 2):(0.35):ytic(label(strcol("source"), strcol("model"), column("GPUs"), column("CP"), strcol("recompute"), strcol("recipe"))) \
         with boxxyerror lc rgb c_heldout title 'held-out run', \
     '' using (e(0) > CAP ? CAP + 1 : 1/0):0:(sprintf('%+.0f%%', e(0))) with labels font ',8' left notitle, \
     '' using (e(0) < -CAP ? -CAP - 1 : 1/0):0:(sprintf('%+.0f%%', e(0))) with labels font ',8' right notitle, \
     NaN with lines @limit_style title '±15% band'
