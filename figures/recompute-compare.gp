# figures/recompute-compare.gp -- memory per GPU (bars, lower panel, with the GPU's
# usable capacity) and step time (points, upper panel) for no, selective and full
# recomputation: one quantity per axis, so that a step-time point never lands on the
# capacity line.  Dataset recompute-compare (calc/report_catalog.c): recompute,
# activations, total, capacity [bytes], fits, recompute time, step [s], MFU, HFU.  The
# plan's policy is named on its tick (style.gp's plan_tic).

stats datafile using "step" nooutput name "STEP"
NREC = STEP_records
stats datafile using "capacity" nooutput name "CAP"
stats datafile using (column("total")) nooutput name "TOT"

set multiplot
set lmargin 12
set rmargin 4

# upper panel: step time per policy
set origin 0, 0.66
set size 1, 0.34
set bmargin 0.5
set tmargin 1
set xrange [-1 : NREC]
unset xtics
set ylabel 'step time (s)'
set yrange [0 : STEP_max * 1.25]
# about three tics, the third of the range rounded to the nearest 1, 2 or 5 times a power of
# ten (2 to 5 intervals; rounding up left a single tic where the third was just above 10^n)
tic_raw = STEP_max * 1.25 / 3
tic_p = 10**floor(log10(tic_raw))
tic_m = tic_raw / tic_p
set ytics 0, (tic_m < 1.5 ? 1 : tic_m < 3.5 ? 2 : tic_m < 7.5 ? 5 : 10) * tic_p nomirror
set key top left horizontal
# step time in the dark grey of a total (style.gp's c_step), not the activations' vermillion
plot datafile using 0:"step" with linespoints lc rgb c_step lw 2 pt 7 ps 1.5 title 'step time'

# lower panel: memory per GPU, stacked, against the usable capacity
set origin 0, 0
set size 1, 0.66
set tmargin 0.5
set bmargin 3.5
set xtics nomirror
set ytics autofreq nomirror
set style data histograms
set style histogram rowstacked gap 1
set style fill solid 0.85 border rgb '#ffffff'
set boxwidth 0.5
set xlabel 'activation recomputation'
set ylabel 'memory per GPU (GB)'
set key top left vertical maxrows 2
set yrange [0 : (CAP_max > TOT_max ? CAP_max : TOT_max)/GB*1.4]
set arrow 1 from graph 0, first CAP_max/GB to graph 1, first CAP_max/GB nohead @capacity_style front
set label 1 sprintf('usable capacity %.1f GB', CAP_max/GB) at graph 0.99, first CAP_max/GB offset 0,0.7 right textcolor rgb '#222222' front
plot datafile using ((column("total")-column("activations"))/GB):xtic(plan_tic(strcol(1), plan_recompute)) lc rgb c_states title 'states and overheads', \
     '' using (column("activations")/GB) lc rgb c_activations title 'activations'
unset multiplot
