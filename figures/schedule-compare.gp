# figures/schedule-compare.gp -- every schedule at the plan's p and m: bubble share of the
# step (bars, left axis) and total memory per GPU of the busiest stage (points, right
# axis), with the five-percent bubble budget (dotted, left axis) and the GPU's usable
# capacity (dashed, right axis); a schedule the plan cannot run is marked under its name
# (the table says why).
# Dataset schedule-compare (calc/catalog_pipeline.c): schedule, v, bubble_overhead,
# bubble_fraction, simulated_fraction, inflight, param_copies, activations, total, note,
# capacity [bytes].

set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#ffffff'
set boxwidth 0.6
set xlabel 'pipeline schedule (at the plan''s p and m)'
set ylabel 'bubble: idle share of the step (%)'
set y2label 'memory per GPU, busiest stage (GB)'
set yrange [0:*]
set y2tics nomirror
set border 11 lc rgb '#555555'
set key outside top center horizontal

stats datafile using "capacity" nooutput name "CAP"
stats datafile using (column("total")) nooutput name "TOT"
top = (exists("TOT_max") && TOT_max > CAP_max ? TOT_max : CAP_max)/GB*1.15
set y2range [0:top]
# the capacity line is named in the key, not by a label on the line, which the memory
# points of schedules near the capacity would cover
# `trainplan data` writes NaN where a schedule does not apply to the plan
na(col) = strcol(col) eq 'NaN' || strcol(col) eq 'nan'

# A schedule the plan cannot run says so under its name, below the axis: a label inside
# the plot would cross the bubble budget and the capacity line; the axis title moves down
# to make room for the second line.
tic(col) = na(col) ? strcol(1)."\n(n/a)" : strcol(1) eq plan_schedule ? strcol(1)."\n(plan)" : strcol(1)
stats datafile using (na("simulated_fraction") ? 1 : 0) nooutput name "NA"
if (NA_sum > 0) { set xlabel offset 0,-0.8 }

plot datafile using (100*column("simulated_fraction")):xtic(tic("simulated_fraction")) lt 1 title 'bubble (simulated)', \
     '' using 0:(column("total")/GB) axes x1y2 with points lt 6 pt 7 ps 1.8 title 'memory per GPU (right axis)', \
     5 with lines lc rgb '#777777' lw 1.5 dt 3 title '5% bubble budget', \
     CAP_max/GB axes x1y2 with lines @capacity_style title sprintf('usable capacity %.1f GB', CAP_max/GB)
