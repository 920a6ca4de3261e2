# figures/search-pareto.gp -- the design space: memory per GPU of the worst stage against
# step time for the configurations the planner found valid and fitting (a sample of
# those within 1.5 times the best step time, so the chart stays readable and small), the
# memory/time frontier, and the best configuration.
# Dataset search-pareto (calc/catalog_search.c, calc_search_pareto_sample): every
# configuration on the frontier and a bounded sample of the others, at most 600 of them
# within PARETO_WINDOW = 1.5 times the best step time (this chart's y range) and 300
# beyond; columns memory [bytes], step_time [s], frontier (1/0), tp, pp, dp, cp, vpp,
# micro_batch, sp, recompute, zero, schedule.

nodata_column = "step_time"
nodata_reason = "the planner found no configuration of this plan's GPUs that is valid and fits"
load 'figures/nodata.gpi'
# nodata.gpi's statistics are of step_time: its minimum is the best step time (the best
# configuration is on the frontier, so in the dataset), and the dataset is not read once
# more for it
T_min = ND_min
set xlabel 'memory per GPU, worst stage (GB)'
set ylabel 'time per optimizer step (s)'
set yrange [T_min*0.97 : T_min*1.5]
set xrange [0:*]
set key outside top center horizontal maxrows 2
near(t) = t < T_min*1.5

plot datafile using (near(column("step_time")) ? column("memory")/GB : 1/0):"step_time" with points lt 7 pt 7 ps 0.3 title 'valid configurations that fit (sample)', \
     '' using (column("frontier") > 0 && near(column("step_time")) ? column("memory")/GB : 1/0):"step_time" with points lt 1 pt 7 ps 1.0 title 'frontier: fastest for its memory', \
     '' using (column("step_time") == T_min ? column("memory")/GB : 1/0):"step_time" with points lt 6 pt 9 ps 2.5 title 'best configuration', \
     T_min*1.05 with lines @capacity_style title 'within 5% of the best'
