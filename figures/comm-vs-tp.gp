# figures/comm-vs-tp.gp -- TP traffic per GPU per step (bars, left axis) and its time
# (line, right axis) against the TP degree, with the node boundary: left of the dashed
# line the TP group is inside one node (NVLink), right of it the group crosses nodes.
# Dataset comm-vs-tp (calc/comm.c): tp, gpus_per_node, crosses_nodes, tp_bytes,
# tp_net_bytes [bytes], tp_time, tp_layer_time [s].

set logscale x 2
set format x '%.0f'
set xrange [0.7:100]
set xlabel 'tensor-parallel degree t'
set ylabel 'TP traffic per GPU per step (GB)'
set y2label 'TP collective time per step (s)'
set yrange [0:*]
set y2range [0:*]
set y2tics nomirror
set border 11 lc rgb '#555555'
set key top left
set style fill solid 0.85 border rgb '#ffffff'

stats datafile using "gpus_per_node" nooutput name "GPN"
set arrow 1 from first GPN_max*1.41, graph 0 to first GPN_max*1.41, graph 1 nohead @capacity_style front
set label 1 'NVLink   network' at first GPN_max*1.41, graph 0.45 center textcolor rgb '#222222' front

# the plan's own TP degree ringed on the time line (style.gp's plan_mark)
plan_tp_plot = plan_tp > 0 ? ", '' using (column('tp') == plan_tp ? column('tp') : 1/0):'tp_time' axes x1y2 with points ".plan_mark." title 'plan as written'" : ""
plot datafile using "tp":(column("tp_bytes")/GB):(column("tp")*0.25) with boxes lt 1 title 'bytes per GPU', \
     '' using "tp":(column("tp_net_bytes")/GB):(column("tp")*0.25) with boxes lt 2 title 'of which over the network', \
     '' using "tp":"tp_time" axes x1y2 with linespoints lt 6 title 'time (right axis)' \
     @plan_tp_plot
