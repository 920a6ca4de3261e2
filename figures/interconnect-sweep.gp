# figures/interconnect-sweep.gp -- step time against the inter-node bandwidth per GPU for
# two placements: TP across nodes and PP across nodes.
# Dataset interconnect-sweep (calc/step.c): inter_gbps, inter_node_bw [B/s],
# time_tp_across, time_pp_across [s], mfu_tp_across, mfu_pp_across.  A placement that is
# not a valid split for the model is NaN; a chart with neither draws a note instead.
# awk runs in the C locale: under a decimal-comma locale "$3+0==$3" is false for 78.84.

# per placement: the lines with a number, so that a placement without one is left out
# of the key as well as the chart (llama3.1-405b: t = 16 does not divide its 8 KV heads)
ntp = int(system("LC_ALL=C awk -F'\t' 'NR>1 && $3+0==$3 && $3!=\"NaN\"{n++} END{print n+0}' '".datafile."'"))
npp = int(system("LC_ALL=C awk -F'\t' 'NR>1 && $4+0==$4 && $4!=\"NaN\"{n++} END{print n+0}' '".datafile."'"))
valid = int(system("LC_ALL=C awk -F'\t' 'NR>1 && ($3+0==$3 || $4+0==$4) && ($3!=\"NaN\" || $4!=\"NaN\"){n++} END{print n+0}' '".datafile."'"))
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
