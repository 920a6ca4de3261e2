# figures/comm-vs-tp.gp -- TP collective time per step (line, upper panel) and TP traffic
# per GPU per step (bars, lower panel) against the TP degree, with the node boundary in
# both: left of the dashed line the TP group is inside one node (NVLink), right of it the
# group crosses nodes.  One quantity per axis (as figures/recompute-compare.gp).
# Dataset comm-vs-tp (calc/comm.c): tp, gpus_per_node, crosses_nodes, tp_bytes,
# tp_net_bytes [bytes], tp_time, tp_layer_time [s].

stats datafile using "gpus_per_node" nooutput name "GPN"
stats datafile using (column("tp_bytes")/GB) nooutput name "BY"
set multiplot
set lmargin 12
set rmargin 4
set logscale x 2
set xrange [0.7:100]
set arrow 1 from first GPN_max*1.41, graph 0 to first GPN_max*1.41, graph 1 nohead @limit_style front

# upper panel: the time of the TP collectives, the plan's degree ringed (style.gp's plan_mark)
set origin 0, 0.5
set size 1, 0.5
set bmargin 0.5
set tmargin 1
set format x ''
set ylabel 'TP time per step (s)'
set yrange [0:*]
set key top left
set label 1 'NVLink   network' at first GPN_max*1.41, graph 0.55 center textcolor rgb '#222222' front
plan_tp_plot = plan_tp > 0 ? ", '' using (column('tp') == plan_tp ? column('tp') : 1/0):'tp_time' with points ".plan_mark." title 'plan as written'" : ""
plot datafile using "tp":"tp_time" with linespoints lc rgb c_tp title 'TP collective time' \
     @plan_tp_plot

# lower panel: the bytes, and where they go
set origin 0, 0
set size 1, 0.5
set tmargin 0.5
set bmargin 3.5
set format x '%.0f'
set xlabel 'tensor-parallel degree t'
set ylabel 'TP GB per GPU'
unset label 1
# room above the bars for the key; about three tics, at 1, 2 or 5 times a power of ten
# (a plan whose TP moves no bytes, one GPU: an axis of 0 to 1 GB)
by_top = BY_max > 0 ? BY_max * 1.6 : 1.0
set yrange [0 : by_top]
tic_raw = by_top / 3.0
tic_p = 10**floor(log10(tic_raw))
tic_m = tic_raw / tic_p
set ytics 0, (tic_m < 1.5 ? 1 : tic_m < 3.5 ? 2 : tic_m < 7.5 ? 5 : 10) * tic_p nomirror
set key top left
set style fill solid 0.85 border rgb '#ffffff'
plot datafile using "tp":(column("tp_bytes")/GB):(column("tp")*0.25) with boxes lc rgb c_tp fs solid 0.35 title 'bytes per GPU per step', \
     '' using "tp":(column("tp_net_bytes")/GB):(column("tp")*0.25) with boxes lc rgb c_tp fs solid 1.0 title 'of which over the network'
unset multiplot
