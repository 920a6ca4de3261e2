# figures/search-pareto.gp -- the design space: memory per GPU of the worst stage against
# step time for the configurations the planner found valid and fitting (a sample of
# those within 1.5 times the best step time, so the chart stays readable and small), the
# memory/time frontier, the plan as written and the planner's pick (style.gp's marks; the
# fastest configuration where no marks file lies beside the dataset).
# Dataset search-pareto (calc/catalog_search.c, calc_search_pareto_sample): every
# configuration on the frontier and a bounded sample of the others, at most 600 of them
# within PARETO_WINDOW = 1.5 times the best step time (this chart's y range) and 300
# beyond; columns memory [bytes], step_time [s], frontier (1/0), tp, pp, dp, cp, vpp,
# micro_batch, sp, recompute, zero, schedule.

nodata_column = "step_time"
nodata_reason = "the planner found no configuration of this plan's GPUs that is valid and fits"
load 'figures/nodata.gpi'
if (nodata) { exit }
# nodata.gpi's statistics are of step_time: its minimum is the best step time (the best
# configuration is on the frontier, so in the dataset), and the dataset is not read once
# more for it
T_min = ND_min
set xlabel 'memory per GPU, worst stage (GB)'
set ylabel 'time per optimizer step (s)'
# the plan as written is drawn too (style.gp's plan_mark), so the range reaches its time
PLAN_T = 0; PLAN_M = 0
if (has_marks) { stats marksfile using "plan_step_time" nooutput name "PM"; PLAN_T = PM_max; \
	stats marksfile using (column("plan_memory")/GB) nooutput name "PMM"; PLAN_M = PMM_max }
# a plan that needs far more memory than any configuration that fits (it does not fit)
# would squeeze the chart: its key entry says so instead of a point
stats datafile using (column("memory")/GB) nooutput name "MEMS"
plan_off = PLAN_M > 1.5 * MEMS_max
plan_off_title = sprintf('plan as written: %.0f GB per GPU, off the chart', PLAN_M)
if (plan_off) { PLAN_T = 0 }
set yrange [T_min*0.97 : (PLAN_T*1.05 > T_min*1.5 ? PLAN_T*1.05 : T_min*1.5)]
set xrange [0:*]
set key outside top center horizontal maxrows 2
near(t) = t < (PLAN_T*1.05 > T_min*1.5 ? PLAN_T*1.05 : T_min*1.5)
marks_plot = !has_marks ? \
	", '' using (column('step_time') == T_min ? column('memory')/GB : 1/0):'step_time' with points ".pick_mark." title 'fastest configuration'" : \
	(plan_off ? ", keyentry with points ".plan_mark." title plan_off_title" : \
	            ", marksfile using (column('plan_memory')/GB):'plan_step_time' with points ".plan_mark." title 'plan as written'") . \
	", marksfile using (column('pick_memory')/GB):'pick_step_time' with points ".pick_mark." title 'pick'"

plot datafile using (near(column("step_time")) ? column("memory")/GB : 1/0):"step_time" with points lc rgb c_sample pt 7 ps 0.3 title 'configurations that fit (sample)', \
     '' using (column("frontier") > 0 && near(column("step_time")) ? column("memory")/GB : 1/0):"step_time" with points lc rgb c_step pt 7 ps 1.0 title 'frontier', \
     T_min*1.05 with lines @limit_style title 'within 5% of the best' \
     @marks_plot
