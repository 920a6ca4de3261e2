# figures/memory-breakdown.gp -- per-GPU memory of the worst pipeline stage, stacked by
# tensor class, one bar per recipe, with the GPU's usable capacity as a dashed line.
# Dataset memory-breakdown (calc/memory.c): recipe, weights, weight_copies, gradients,
# master, optimizer, activations, overhead, total, capacity [bytes]; one row per recipe.

set style data histograms
set style histogram rowstacked gap 1
set style fill solid 0.85 border rgb '#ffffff'
set boxwidth 0.65
set ylabel 'memory per GPU (GB)'
set key outside top center horizontal maxrows 3
# eight recipe names do not fit side by side: slanted, they never overlap
set xtics rotate by 30 right

stats datafile using "capacity" nooutput name "CAP"
stats datafile using "total" nooutput name "TOT"
set arrow 1 from graph 0, first CAP_max/GB to graph 1, first CAP_max/GB nohead @capacity_style front
# the line is named in the key; every bar is drawn whole (plain FP32 training can need
# twice the capacity), with room above the tallest
set yrange [0:(CAP_max > TOT_max ? CAP_max : TOT_max)/GB*1.1]

plot datafile using (column("weights")/GB):xtic(plan_tic(strcol(1), plan_recipe)) lc rgb c_weights title 'weights', \
     '' using (column("weight_copies")/GB) lc rgb c_weight_copy title 'weight copies', \
     '' using (column("gradients")/GB) lc rgb c_gradients title 'gradients', \
     '' using (column("master")/GB) lc rgb c_master title 'master weights', \
     '' using (column("optimizer")/GB) lc rgb c_optstates title 'optimizer states', \
     '' using (column("activations")/GB) lc rgb c_activations title 'activations', \
     '' using (column("overhead")/GB) lc rgb c_overhead title 'overheads', \
     keyentry with lines @capacity_style title sprintf('usable capacity %.1f GB', CAP_max/GB)
