# figures/network-sweep.gp -- step time against the inter-node bandwidth per GPU for the
# plan's split and its two neighbours on the same GPUs (deeper pipeline: pp x 2, dp / 2;
# more data parallelism: pp / 2, dp x 2).  Where the lines cross, the better use of the
# GPUs changes.  Dataset network-sweep (calc/report_catalog.c): network per GPU (Gb/s),
# inter_node_bw [B/s], plan, deeper pipeline, more data parallel [s].

# a neighbour that is not a valid plan at any bandwidth (NaN in every row) is left out
# of the key as well as the chart, with a note low on the left, where the falling
# step-time curves and the plan's bandwidth line at the right never reach; its rows with
# a number counted by one stats pass as in interconnect-sweep.gp
ndeep = 0; nmore = 0
set datafile nocolumnheaders
stats datafile using (ndeep = ndeep + (valid(4) ? column(4) == column(4) : 0), \
	nmore = nmore + (valid(5) ? column(5) == column(5) : 0), 0) nooutput name "ROWS"
set datafile columnheaders
if (ndeep < 1 && nmore < 1) {
	set label 2 'neither neighbour is a valid split of these GPUs' at graph 0.03, graph 0.06 left
} else {
	if (ndeep < 1) {
		set label 2 'deeper pipeline: not a valid split of these GPUs' at graph 0.03, graph 0.06 left
	}
	if (nmore < 1) {
		set label 2 'more data parallel: not a valid split of these GPUs' at graph 0.03, graph 0.06 left
	}
}
set logscale x 2
set format x '%g'
set xlabel 'inter-node bandwidth per GPU (Gb/s, log scale)'
# the step time on a log scale too: from 8 Gb/s to the plan's bandwidth it falls tenfold
# or more, and on a linear axis the lines at the plan's bandwidth, where the choice is
# made, sit on top of each other (DeepSeek-V3: 21.3 s against 19.7 s under a 450 s top)
set logscale y 10
set format y '%g'
set ylabel 'time per optimizer step (s, log scale)'
set key top right
if (plan_bw_gbps > 0) { @plan_bw_arrow }

plot datafile using 1:"plan" with linespoints lc rgb c_plan_ink pt 6 title 'the plan''s split', \
     '' using 1:"deeper pipeline" with linespoints lc rgb c_pp lw 2 pt 9 title (ndeep > 0 ? 'deeper pipeline (pp x 2, dp / 2)' : ''), \
     '' using 1:"more data parallel" with linespoints lc rgb c_dp lw 2 pt 5 title (nmore > 0 ? 'more data parallel (pp / 2, dp x 2)' : '')
