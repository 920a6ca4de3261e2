# figures/compare/compare-memory.gp -- memory per GPU of every pipeline stage, one line
# per plan, with each plan's usable GPU memory as a dashed line of its colour.
# Dataset compare-memory (cli/compare_doc.c, `trainplan report --compare`): stage, then
# one column per plan (A, B, ...: memory.total of that stage, bytes; NaN beyond the
# plan's pipeline), then "cap A", "cap B", ... (usable memory per GPU, bytes).

stats datafile using 1 nooutput
n = (STATS_columns - 1) / 2
set xlabel 'pipeline stage'
set ylabel 'memory per GPU (GB)'
set key outside top center horizontal
set yrange [0:*]
# the x axis runs from the first stage to the last (no tic beyond the data)
set autoscale xfix
set offsets 0.3, 0.3, 0, 0
set xtics 1 nomirror
if (STATS_max > 24) set xtics 4

plot for [i=2:n+1] datafile using 1:(column(i)/GB) with linespoints lt (i-1) title columnhead(i), \
     for [i=2:n+1] datafile using 1:(column(i+n)/GB) with lines lt (i-1) dt 2 lw 1.2 notitle
