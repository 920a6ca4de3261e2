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
set arrow 1 from graph 0, first CAP_max/GB to graph 1, first CAP_max/GB nohead @capacity_style front
set label 1 sprintf('usable capacity %.1f GB', CAP_max/GB) at graph 0.99, first CAP_max/GB offset 0,0.7 right textcolor rgb '#222222' front
# room above the capacity line for the legend and the line's label
set yrange [0:CAP_max/GB*1.3]

plot datafile using (column("weights")/GB):xtic(plan_tic(strcol(1), plan_recipe)) title 'weights', \
     '' using (column("weight_copies")/GB) title 'weight copies', \
     '' using (column("gradients")/GB) title 'gradients', \
     '' using (column("master")/GB) title 'master weights', \
     '' using (column("optimizer")/GB) title 'optimizer', \
     '' using (column("activations")/GB) title 'activations', \
     '' using (column("overhead")/GB) title 'overheads'
