# figures/interconnect-sweep.gp -- step time against the inter-node bandwidth per GPU for
# two placements: TP across nodes and PP across nodes.
# Dataset interconnect-sweep (calc/step.c): inter_gbps, inter_node_bw [B/s],
# time_tp_across, time_pp_across [s], mfu_tp_across, mfu_pp_across.

set logscale x 2
set format x '%g'
set xlabel 'inter-node bandwidth per GPU (Gb/s, log scale)'
set ylabel 'time per optimizer step (s)'
set yrange [0:*]
set key top right

plot datafile using "inter_gbps":"time_tp_across" with linespoints lt 2 title 'TP across nodes', \
     '' using "inter_gbps":"time_pp_across" with linespoints lt 1 title 'PP across nodes (TP inside the node)'
