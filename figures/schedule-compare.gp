# figures/schedule-compare.gp -- every schedule at the plan's p and m: bubble share of the
# step (bars, left axis) and total memory per GPU of the busiest stage (points, right
# axis), with the five-percent bubble budget as a dashed line.
# Dataset schedule-compare (calc/pipeline.c): schedule, v, bubble_overhead,
# bubble_fraction, simulated_fraction, inflight, param_copies, activations, total [bytes].

set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#ffffff'
set boxwidth 0.6
set xlabel 'pipeline schedule (at the plan''s p and m)'
set ylabel 'bubble: idle share of the step (%)'
set y2label 'memory per GPU, busiest stage (GB)'
set yrange [0:*]
set y2tics nomirror
set y2range [0:*]
set border 11 lc rgb '#555555'
set key outside top center horizontal

plot datafile using (100*column("simulated_fraction")):xtic(1) lt 1 title 'bubble (simulated)', \
     '' using 0:(column("total")/GB) axes x1y2 with points lt 6 pt 7 ps 1.8 title 'memory per GPU (right axis)', \
     5 with lines @capacity_style title '5% bubble budget'
