# figures/recipe-compare.gp -- BF16 against FP8 recipes on this plan: memory per GPU of the
# busiest stage (bars, left axis, with the usable capacity) and step time (points, right).
# Dataset recipe-compare (calc/report_catalog.c): recipe, bytes/param, bytes/param per GPU,
# model states, min GPUs, memory per GPU, capacity [bytes], fits, GEMM peak, step [s],
# MFU, run [s].  The plan's recipe is named on its tick (style.gp's plan_tic).

set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#ffffff'
set boxwidth 0.6
set xlabel 'recipe' offset 0,-0.9
set bmargin 5
set ylabel 'memory per GPU, busiest stage (GB)'
set y2label 'step time (s)'
stats datafile using "step" nooutput name "STEP"
set y2range [0:STEP_max*1.35]
set y2tics nomirror
set border 11 lc rgb '#555555'
set key top right

stats datafile using "capacity" nooutput name "CAP"
stats datafile using (column("memory per GPU")) nooutput name "TOT"
set yrange [0 : (CAP_max > TOT_max ? CAP_max : TOT_max)/GB*1.4]
set arrow 1 from graph 0, first CAP_max/GB to graph 1, first CAP_max/GB nohead @capacity_style front
set label 1 sprintf('usable capacity %.1f GB', CAP_max/GB) at graph 0.01, first CAP_max/GB offset 0,-0.8 left textcolor rgb '#222222' front

plot datafile using (column("memory per GPU")/GB):xtic(strcol(1) eq plan_recipe ? strcol(1)."\n(plan)" : strcol(1)) lt 1 title 'memory per GPU', \
     '' using 0:"step" axes x1y2 with points lt 6 pt 7 ps 1.8 title 'step time (right axis)'
