# figures/states-vs-size.gp -- GPUs needed just to hold the model states against model
# size, by recipe (log-log).  Dataset states-vs-size (calc/catalog_memory.c, the
# states-by-size table): parameters, then per recipe the states [bytes] and the
# GPUs counted at the marketed capacity read as decimal GB (gpu.memory_nominal).

set logscale xy 10
set format x '%g'
set format y '%g'
set xlabel 'parameters (billion, log scale)'
set ylabel 'GPUs to hold the model states (log scale)'
set key top left
# the axis starts below one GPU, so that the one-GPU line does not sit on the axis
set yrange [0.7:*]
# the plan's model size (plan_params of data/plan-marks.tsv, figures/style.gp), a dotted
# line in the plan's ink as on the activations chart; none without marks
plan_par = 0
if (has_marks) { stats marksfile using "plan_params" nooutput name "MARK_PAR"; plan_par = MARK_PAR_max }
if (plan_par > 0) { \
	set arrow 6 from plan_par/1e9, graph 0 to plan_par/1e9, graph 1 nohead lc rgb c_plan_ink dt 3 lw 1.5 back; \
	set label 6 sprintf('plan: %.3g B parameters', plan_par/1e9) at plan_par/1e9, graph 0.08 left offset 0.6,0 textcolor rgb '#000000' front }

plot datafile using (column(1)/1e9):"seed GPUs" with linespoints lc rgb c_recipe pt recipe_point[1] ps 1.2 lw 1.5 title 'seed (BF16 + Adam)', \
     '' using (column(1)/1e9):"zero-paper GPUs" with linespoints lc rgb c_recipe pt recipe_point[2] ps 1.2 lw 1.5 title 'zero-paper (mixed precision)', \
     '' using (column(1)/1e9):"megatron GPUs" with linespoints lc rgb c_recipe pt recipe_point[3] ps 1.2 lw 1.5 title 'megatron', \
     '' using (column(1)/1e9):"fp8-lm GPUs" with linespoints lc rgb c_recipe pt recipe_point[4] ps 1.2 lw 1.5 title 'fp8-lm', \
     1 with lines @capacity_style title 'one GPU'
