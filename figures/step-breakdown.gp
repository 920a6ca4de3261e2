# figures/step-breakdown.gp -- step time of a few candidate splits, stacked by component.
# Dataset step-breakdown (calc/step.c): split, tp, pp, dp, compute, recompute, tp_comm,
# bubble, dp_exposed, optimizer, time [s], mfu.  An empty dataset (no valid candidate for
# this plan) draws a note instead of bars.

# its rows counted by one stats pass, the header read as a record (so that a dataset
# without rows is a count of 0 and no warning; as in interconnect-sweep.gp)
rows = -1
set datafile nocolumnheaders
stats datafile using (rows = rows + 1, 0) nooutput name "ROWS"
set datafile columnheaders
set ylabel 'time per optimizer step (s)'
set xlabel 'split (tensor x pipeline x data parallel)'
set key outside top center horizontal maxrows 2
set xtics rotate by -25 left font ',11' nomirror
set bmargin 6
if (rows < 1) {
	set label 1 'no candidate split is valid for this plan' at graph 0.5, graph 0.5 center
	set xrange [0:1]; set yrange [0:1]; unset xtics; unset ytics
	plot 1/0 notitle
} else {
	set style data histograms
	set style histogram rowstacked gap 1
	set style fill solid 0.85 border rgb '#ffffff'
	set boxwidth 0.6
	set yrange [0:*]

	# the plan's own split (style.gp's plan_tp, plan_pp) is named on its tick
	# the step's colours of figures/style.gp, as the step timeline draws them
	plot datafile using "compute":xtic(column("tp") == plan_tp && column("pp") == plan_pp ? "plan: ".strcol(1) : strcol(1)) lc rgb c_compute title 'compute', \
	     '' using "recompute" lc rgb c_recompute title 'recomputation', \
	     '' using "tp_comm" lc rgb c_tp title 'TP/CP communication', \
	     '' using "bubble" lc rgb c_bubble title 'pipeline bubble', \
	     '' using "dp_exposed" lc rgb c_dp title 'exposed DP communication', \
	     '' using "optimizer" lc rgb c_optimizer title 'optimizer'
}
