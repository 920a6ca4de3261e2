# figures/network-sweep.gp -- step time against the inter-node bandwidth per GPU for the
# plan's split and its two neighbours on the same GPUs (deeper pipeline: pp x 2, dp / 2;
# more data parallelism: pp / 2, dp x 2).  Where the lines cross, the better use of the
# GPUs changes.  Dataset network-sweep (calc/report_catalog.c): network per GPU (Gb/s),
# inter_node_bw [B/s], plan, deeper pipeline, more data parallel [s].

set logscale x 2
set format x '%g'
set xlabel 'inter-node bandwidth per GPU (Gb/s, log scale)'
set ylabel 'time per optimizer step (s)'
set yrange [0:*]
set key top right

plot datafile using 1:"plan" with linespoints lt 1 title 'the plan''s split', \
     '' using 1:"deeper pipeline" with linespoints lt 3 title 'deeper pipeline (pp x 2, dp / 2)', \
     '' using 1:"more data parallel" with linespoints lt 2 title 'more data parallel (pp / 2, dp x 2)'
