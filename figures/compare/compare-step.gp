# figures/compare/compare-step.gp -- step time of each compared plan, stacked by
# component of the critical pipeline stage.
# Dataset compare-step (cli/compare_doc.c, `trainplan report --compare`): plan (A, B,
# ...), then one column per row of the catalog table `step` but the step itself
# (compute, recomputation, exposed TP/CP communication, bubble, exposed DP
# communication, optimizer; seconds).

stats datafile using 2 nooutput
set ylabel 'time per optimizer step (s)'
set xlabel 'plan'
set key outside top center horizontal maxrows 2 font ',11'
set style data histograms
set style histogram rowstacked gap 1
set style fill solid 0.85 border rgb '#ffffff'
set boxwidth 0.6
set yrange [0:*]
# the x axis runs from the first plan's bar to the last's
set xrange [-0.6 : STATS_records - 0.4]

plot for [i=2:STATS_columns] datafile using i:xtic(1) title columnhead(i)
