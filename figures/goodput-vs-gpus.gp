# figures/goodput-vs-gpus.gp -- goodput and effective run days against the cluster size
# at the plan's per-GPU throughput: more GPUs finish sooner but fail more often (job
# MTBF = 1 / (failure rate x GPUs)), so the effective days fall less than the
# failure-free days.
# Dataset goodput-vs-gpus (calc/catalog_run.c): gpus, goodput [fraction],
# effective days, failure-free days.

set logscale x 2
set logscale y2 10
set format x '%.0f'
set xtics rotate by -45
set xlabel 'GPUs'
set ylabel 'goodput (%)'
set y2label 'run time (days)'
set y2tics
set ytics nomirror
set yrange [0:100]
set key bottom left

plot datafile using "gpus":(100*column("goodput")) with linespoints lt 1 title 'goodput (left)', \
     '' using "gpus":"effective days" axes x1y2 with lines lt 2 title 'effective days (right)', \
     '' using "gpus":"failure-free days" axes x1y2 with lines lt 3 dt 2 title 'failure-free days (right)'
