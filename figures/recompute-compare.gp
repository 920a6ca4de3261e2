# figures/recompute-compare.gp -- memory per GPU (bars, left axis) and step time (points,
# right axis) for no, selective and full recomputation, with the GPU's usable capacity.
# Dataset recompute-compare (calc/report_catalog.c): recompute, activations, total,
# capacity [bytes], fits, recompute time, step [s], MFU, HFU.  The plan's policy is named
# on its tick (style.gp's plan_tic).

set style data histograms
set style histogram rowstacked gap 1
set style fill solid 0.85 border rgb '#ffffff'
set boxwidth 0.5
set xlabel 'activation recomputation'
set ylabel 'memory per GPU, busiest stage (GB)'
set y2label 'step time (s)'
stats datafile using "step" nooutput name "STEP"
set y2range [0:STEP_max*1.35]
set y2tics nomirror
set border 11 lc rgb '#555555'
set key top left vertical maxrows 3

stats datafile using "capacity" nooutput name "CAP"
stats datafile using (column("total")) nooutput name "TOT"
set yrange [0 : (CAP_max > TOT_max ? CAP_max : TOT_max)/GB*1.4]
set arrow 1 from graph 0, first CAP_max/GB to graph 1, first CAP_max/GB nohead @capacity_style front
set label 1 sprintf('usable capacity %.1f GB', CAP_max/GB) at graph 0.01, first CAP_max/GB offset 0,-0.8 left textcolor rgb '#222222' front

plot datafile using ((column("total")-column("activations"))/GB):xtic(plan_tic(strcol(1), plan_recompute)) title 'states and overheads', \
     '' using (column("activations")/GB) title 'activations', \
     '' using 0:"step" axes x1y2 with linespoints lt 6 lw 2 pt 7 ps 1.5 title 'step time (right axis)'
