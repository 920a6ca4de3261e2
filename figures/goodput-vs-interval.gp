# figures/goodput-vs-interval.gp -- goodput (useful share of the wall time, Daly 2006
# Eq. 20) against the compute time between checkpoints, from 1/20 to 20 times Daly's
# optimum, for the plan's checkpoint cost, restart time and job MTBF; the point marks
# the optimum.
# Dataset goodput-vs-interval (calc/catalog_run.c): interval [s], goodput [fraction],
# optimum [1 on the optimum's row], plan [1 on the row of the plan's own interval: the
# optimum's row when the plan checkpoints at Daly's optimum].

set logscale x 10
set format x '%g'
set xlabel 'compute time between checkpoints (minutes)'
set ylabel 'goodput: useful share of the wall time (%)'
set key bottom center

plot datafile using (column("interval")/60):(100*column("goodput")) with lines lc rgb c_step lw 2 title 'goodput', \
     '' using (column("interval")/60):(column("optimum") > 0 ? 100*column("goodput") : 1/0) \
        with points lc rgb c_step pt 7 ps 1.5 title 'optimum (Daly 2006)', \
     '' using (column("interval")/60):(column("plan") > 0 ? 100*column("goodput") : 1/0) \
        with points @plan_mark title 'the plan'
