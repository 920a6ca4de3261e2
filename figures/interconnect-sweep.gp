# figures/interconnect-sweep.gp -- step time against the inter-node bandwidth per GPU for
# two placements: TP across nodes and PP across nodes.
# Dataset interconnect-sweep (calc/step.c): inter_gbps, inter_node_bw [B/s],
# time_tp_across, time_pp_across [s], mfu_tp_across, mfu_pp_across.  A placement that is
# not a valid split for the model is NaN; a chart with neither draws a note instead.
# A number is a field that gnuplot reads as one (valid) and that is not NaN (x == x),
# counted by one stats pass over the file (docs/architecture.md §11, "The figures count
# their rows without a shell"): the header read as a record of no number, so that a
# dataset without rows is a count of 0 and no warning.

# per placement: the lines with a number, so that a placement without one is left out
# of the key as well as the chart (llama3.1-405b: t = 16 does not divide its 8 KV heads)
ntp = 0; npp = 0; valid = 0
set datafile nocolumnheaders
stats datafile using (tp_num = valid(3) ? column(3) == column(3) : 0, pp_num = valid(4) ? column(4) == column(4) : 0, \
	ntp = ntp + tp_num, npp = npp + pp_num, valid = valid + (tp_num || pp_num), 0) nooutput name "ROWS"
set datafile columnheaders
set logscale x 2
set format x '%g'
set xlabel 'inter-node bandwidth per GPU (Gb/s, log scale)'
set ylabel 'time per optimizer step (s)'
set key top right
if (plan_bw_gbps > 0) { @plan_bw_arrow }
if (valid < 1) {
	set label 1 'neither placement is a valid split for this model' at graph 0.5, graph 0.5 center
	set yrange [0:1]
	plot datafile using "inter_gbps":(0) with lines lc rgb '#ffffff' notitle
} else {
	# the step time on a log scale too, as in network-sweep.gp: the lines differ by
	# their ratio, which a linear axis hides at the plan's bandwidth
	set logscale y 10
	set format y '%g'
	set ylabel 'time per optimizer step (s, log scale)'
	if (ntp < 1) {
		set label 2 'TP across nodes: not a valid split for this plan' at graph 0.03, graph 0.06 left
	}
	if (npp < 1) {
		set label 3 'PP across nodes: not a valid split for this plan' at graph 0.03, graph 0.06 left
	}
	plot datafile using "inter_gbps":"time_tp_across" with linespoints lc rgb c_tp lw 2 pt 5 title (ntp > 0 ? 'TP across nodes' : ''), \
	     '' using "inter_gbps":"time_pp_across" with linespoints lc rgb c_pp lw 2 pt 7 title (npp > 0 ? 'PP across nodes (TP inside the node)' : '')
}
