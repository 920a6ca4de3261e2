# figures/search-heatmap.gp -- best step time over tensor-parallel degree x pipeline stages
# (every other axis chosen by the planner), relative to the best overall; blank cells have
# no valid configuration that fits.
# Dataset search-heatmap (calc/search.c): tp, pp, step_time [s], feasible (count).
# Its own canvas, a seventh flatter than the other charts: drawn across the text width it
# then fits below the short section opening that precedes it instead of leaving that page
# two-thirds empty; the cells keep their labels at the tables' text size.

if (device eq 'png') {
	set terminal pngcairo size 1440,720 noenhanced font 'DejaVu Sans,13' fontscale 2 linewidth 2 background rgb 'white'
} else {
	set terminal svg size 720,360 noenhanced font 'DejaVu Sans,13' linewidth 1.2 background rgb 'white'
}
set output outfile

nodata_column = "step_time"
nodata_reason = "no split of this plan's GPUs into t x p x d is valid and fits"
load 'figures/nodata.gpi'
if (nodata) { exit }
stats datafile using "step_time" nooutput name "T"
set xlabel 'tensor-parallel degree t'
set ylabel 'pipeline stages p'
set logscale cb
set cblabel 'best step time / overall best'
set cbrange [1:2]
set cbtics ('1' 1, '1.1' 1.1, '1.25' 1.25, '1.5' 1.5, '2' 2)
# sequential and colour-blind safe (ColorBrewer YlGnBu): light is fast, blue is slow,
# and the dark labels stay legible on every cell
set palette defined (0 '#ffffd9', 0.35 '#c7e9b4', 0.7 '#7fcdbb', 1 '#41b6c4')
set style fill solid 1.0 border rgb '#ffffff'
set xtics 1
set ytics 1
set grid noytics
set key outside top center horizontal
lg(x) = log(x)/log(2)
set format x ''
set format y ''
stats datafile using (column("feasible") > 0 ? lg(column("tp")) : 1/0) nooutput name "X"
stats datafile using (column("feasible") > 0 ? lg(column("pp")) : 1/0) nooutput name "Y"
set xrange [X_min-0.5 : X_max+0.5]
set yrange [Y_min-0.5 : Y_max+0.5]
do for [i=int(X_min):int(X_max)] { set xtics add (sprintf('%d', 2**i) i) }
do for [i=int(Y_min):int(Y_max)] { set ytics add (sprintf('%d', 2**i) i) }
set tics scale 0

# the cells hold the step time in s; the plan's cell is framed black, the pick's wine red
# (dashed), the colours of style.gp's plan_mark and pick_mark
if (!has_marks) { set key off }
marks_plot = !has_marks ? '' : \
	", marksfile using (lg(column('plan_tp'))):(lg(column('plan_pp'))):(0.47):(0.44) with boxxyerror lc rgb c_plan_ink lw 3 fs empty border title 'plan as written'" . \
	", marksfile using (lg(column('pick_tp'))):(lg(column('pick_pp'))):(0.40):(0.34) with boxxyerror lc rgb c_pick lw 3 dt 2 fs empty border title 'pick'"
plot datafile using (lg(column("tp"))):(lg(column("pp"))):(0.5):(0.5):(column("step_time")/T_min) with boxxyerror fc palette notitle, \
     '' using (lg(column("tp"))):(lg(column("pp"))):(column("step_time") == column("step_time") ? reader(column("step_time"), 2).' s' : '') with labels font ',11' tc rgb '#111111' notitle \
     @marks_plot
