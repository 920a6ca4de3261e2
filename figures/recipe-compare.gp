# figures/recipe-compare.gp -- BF16 against FP8 recipes on this plan: step time (points,
# upper panel) and memory per GPU of the busiest stage (bars, lower panel, with the
# usable capacity): one quantity per axis, so that a step-time point never lands on the
# capacity line (the layout of figures/recompute-compare.gp).
# Dataset recipe-compare (calc/report_catalog.c): recipe, bytes/param, bytes/param per GPU,
# model states, min GPUs, memory per GPU, capacity [bytes], fits, GEMM peak, step [s],
# MFU, run [s].  The plan's recipe is named on its tick (style.gp's plan_tic).

stats datafile using "step" nooutput name "STEP"
stats datafile using "capacity" nooutput name "CAP"
# every recipe has a capacity; a recipe the GPU cannot run has no step time
NREC = CAP_records
stats datafile using (column("memory per GPU")) nooutput name "TOT"

set multiplot
set lmargin 12
set rmargin 4

# upper panel: step time per recipe
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
unset key
plot datafile using 0:"step" with points lc rgb c_step pt 7 ps 1.8 notitle

# lower panel: memory per GPU against the usable capacity
set origin 0, 0
set size 1, 0.66
set tmargin 0.5
set bmargin 5
set xtics nomirror
set ytics autofreq nomirror
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#ffffff'
set boxwidth 0.6
set xlabel 'recipe' offset 0,-0.9
set ylabel 'memory per GPU (GB)'
set key top left horizontal
set yrange [0 : (CAP_max > TOT_max ? CAP_max : TOT_max)/GB*1.4]
set arrow 1 from graph 0, first CAP_max/GB to graph 1, first CAP_max/GB nohead @capacity_style front
set label 1 sprintf('usable capacity %.1f GB', CAP_max/GB) at graph 0.99, first CAP_max/GB offset 0,0.7 right textcolor rgb '#222222' front
plot datafile using (column("memory per GPU")/GB):xtic(strcol(1) eq plan_recipe ? strcol(1)."\n(plan)" : strcol(1)) lc rgb c_step title 'memory per GPU'
unset multiplot
