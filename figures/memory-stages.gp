# figures/memory-stages.gp -- memory per GPU of every pipeline stage, stacked by tensor
# class, with the GPU's usable capacity as a dashed line.
# Dataset memory-stages (calc/memory.c): stage, layers, params, weights, weight_copies,
# gradients, master, optimizer, inflight, activations, overhead, total, headroom [bytes].

set style data histograms
set style histogram rowstacked gap 1
set style fill solid 0.85 border rgb '#ffffff'
set boxwidth 0.7
set xlabel 'pipeline stage'
set ylabel 'memory per GPU (GB)'
set key outside top center horizontal maxrows 3

stats datafile using (column("total") + column("headroom")) nooutput name "CAP"
stats datafile using (column("total")) nooutput name "TOT"
set yrange [0 : (CAP_max > TOT_max ? CAP_max : TOT_max)/GB*1.4]
set arrow 1 from graph 0, first CAP_max/GB to graph 1, first CAP_max/GB nohead @capacity_style front
# the line is named in the key, never in a label that bars could run into

plot datafile using (column("weights")/GB):xtic(1) lc rgb c_weights title 'weights', \
     '' using (column("weight_copies")/GB) lc rgb c_weight_copy title 'weight copies', \
     '' using (column("gradients")/GB) lc rgb c_gradients title 'gradients', \
     '' using (column("master")/GB) lc rgb c_master title 'master weights', \
     '' using (column("optimizer")/GB) lc rgb c_optstates title 'optimizer states', \
     '' using (column("activations")/GB) lc rgb c_activations title 'activations', \
     '' using (column("overhead")/GB) lc rgb c_overhead title 'overheads', \
     keyentry with lines @capacity_style title sprintf('usable capacity %.1f GB', CAP_max/GB)
