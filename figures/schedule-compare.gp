# figures/schedule-compare.gp -- every schedule at the plan's p and m: bubble share of the
# step (bars, upper panel, with the five-percent bubble budget, dotted) and total memory
# per GPU of the busiest stage (points, lower panel, filled where the stage fits and open
# where it does not, with the GPU's usable capacity, dashed): one quantity per axis, as figures/recompute-compare.gp; a schedule the plan
# cannot run is marked under its name (the table says why).
# Dataset schedule-compare (calc/catalog_pipeline.c): schedule, v, bubble_overhead,
# bubble_fraction, simulated_fraction, inflight, param_copies, activations, total, note,
# capacity [bytes].

stats datafile using "capacity" nooutput name "CAP"
NREC = CAP_records
stats datafile using (column("total")) nooutput name "TOT"
top = (exists("TOT_max") && TOT_max > CAP_max ? TOT_max : CAP_max)/GB*1.15
# `trainplan data` writes NaN where a schedule does not apply to the plan
na(col) = strcol(col) eq 'NaN' || strcol(col) eq 'nan'
# A schedule the plan cannot run says so under its name, below the axis; the axis title
# moves down to make room for the second line.
tic(col) = na(col) ? strcol(1)."\n(n/a)" : strcol(1) eq plan_schedule ? strcol(1)."\n(plan)" : strcol(1)
stats datafile using (na("simulated_fraction") ? 1 : 0) nooutput name "NA"
# schedules whose busiest stage does not fit: drawn as open points, so that a point just
# above the capacity line does not read as one on it
stats datafile using (column("total") > column("capacity") ? 1 : 0) nooutput name "NF"
stats datafile using (na("simulated_fraction") ? 0 : 100*column("simulated_fraction")) nooutput name "BUB"

set multiplot
set lmargin 12
set rmargin 4
set xrange [-0.6 : NREC - 0.4]

# upper panel: the bubble of each schedule against the five-percent budget
set origin 0, 0.5
set size 1, 0.5
set bmargin 0.5
set tmargin 1
unset xtics
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#ffffff'
set boxwidth 0.6
set ylabel 'bubble (% of step)'
set yrange [0 : (BUB_max > 5 ? BUB_max : 5) * 1.35]
set key top right horizontal
plot datafile using (100*column("simulated_fraction")) lc rgb c_bubble title 'bubble (simulated)', \
     5 with lines @limit_style title '5% bubble budget'

# lower panel: memory per GPU of the busiest stage against the usable capacity
set origin 0, 0
set size 1, 0.5
set tmargin 0.5
set bmargin 5
set xtics nomirror
# the plan's schedule and one the plan cannot run take a second line under their names
set xlabel 'pipeline schedule (at the plan''s p and m)' offset 0,-0.8
set ylabel 'GB per GPU'
# room above the capacity and the points for the key; about three tics, at 1, 2 or 5
# times a power of ten
# (a second key row, "does not fit", takes more room)
ytop = top * (NF_sum > 0 ? 2.4 : 1.9)
set yrange [0 : ytop]
tic_raw = ytop / 3
tic_p = 10**floor(log10(tic_raw))
tic_m = tic_raw / tic_p
set ytics 0, (tic_m < 1.5 ? 1 : tic_m < 3.5 ? 2 : tic_m < 7.5 ? 5 : 10) * tic_p nomirror
# the key at the top, above every point (the points stay below top / 1.15 of a range of
# top * 1.9, or 2.4 with a second key row); an open point (does not fit) is named in the key only where there is one
set key top right horizontal samplen 1.5 width -2
plot datafile using 0:(column("total") <= column("capacity") ? column("total")/GB : NaN):xtic(tic("simulated_fraction")) \
          with points lc rgb c_step pt 7 ps 1.3 title 'memory per GPU', \
     datafile using 0:(column("total") > column("capacity") ? column("total")/GB : NaN) \
          with points lc rgb c_step pt 6 ps 1.3 lw 2 title (NF_sum > 0 ? 'does not fit' : ''), \
     CAP_max/GB with lines @capacity_style title sprintf('usable capacity %.1f GB', CAP_max/GB)
unset multiplot
