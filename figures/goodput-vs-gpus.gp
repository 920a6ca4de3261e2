# figures/goodput-vs-gpus.gp -- effective and failure-free run days (upper panel) and
# goodput (lower panel) against the cluster size at the plan's per-GPU throughput: more
# GPUs finish sooner but fail more often (job MTBF = 1 / (failure rate x GPUs)), so the
# effective days fall less than the failure-free days.  One quantity per axis, the two
# panels on one GPU axis (as figures/recompute-compare.gp).
# Dataset goodput-vs-gpus (calc/catalog_run.c): gpus, goodput [fraction],
# effective days, failure-free days, plan (1 on the row of the plan's own GPU count).
# The plan is marked (style.gp's plan mark) on both panels at its GPU count; the pick
# runs on the same GPUs, so it has no mark of its own here.

stats datafile using "gpus" nooutput name "G"
set multiplot
set lmargin 12
set rmargin 4
set logscale x 2
set xrange [G_min / 1.2 : G_max * 1.2]

# upper panel: run time, before and with failures
set origin 0, 0.5
set size 1, 0.5
set bmargin 0.5
set tmargin 1
set format x ''
set logscale y 10
set ylabel 'run time (days)'
set key top right
plan_at(col) = column("plan") > 0 ? column(col) : NaN
plot datafile using "gpus":"effective days" with lines lc rgb c_step lw 2 title 'effective days', \
     '' using "gpus":"failure-free days" with lines lc rgb c_step lw 2 dt 2 title 'failure-free days', \
     '' using "gpus":(plan_at("effective days")) with points @plan_mark title 'plan as written'

# lower panel: goodput
set origin 0, 0
set size 1, 0.5
set tmargin 0.5
set bmargin 4.5
unset logscale y
set format x '%.0f'
set xtics rotate by -45
set xlabel 'GPUs'
set ylabel 'goodput (%)'
set yrange [0:100]
set ytics 0, 25
set key bottom left
plot datafile using "gpus":(100*column("goodput")) with linespoints lc rgb c_step lw 2 pt 7 title 'goodput', \
     '' using "gpus":(100*plan_at("goodput")) with points @plan_mark title 'plan as written'
unset multiplot
