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
# stacked bars of a time, which has a true zero: the y axis starts at 0, so that a bar's
# height is its step time
set yrange [0:*]
# the x axis runs from the first plan's bar to the last's
set xrange [-0.6 : STATS_records - 0.4]

# the step's colours of figures/style.gp, column by column as the `step` table orders them
# (a host-overhead column, where there is one, before the step)
array SC[7] = [c_compute, c_recompute, c_tp, c_bubble, c_dp, c_optimizer, c_host]
plot for [i=2:STATS_columns] datafile using i:xtic(1) lc rgb (i - 1 <= 7 ? SC[i - 1] : c_host) title columnhead(i)
