# figures/compare/compare-memory.gp -- memory per GPU of every pipeline stage, one line
# per plan, with each plan's usable GPU memory as the report's capacity line (black,
# dashed, figures/style.gp), labelled with the plans it belongs to, so that two plans on
# GPUs of the same capacity show one line named for both rather than one line hiding
# the other.
# Dataset compare-memory (cli/compare_doc.c, `trainplan report --compare`): stage, then
# one column per plan (A, B, ...: memory.total of that stage, bytes; NaN beyond the
# plan's pipeline), then "cap A", "cap B", ... (usable memory per GPU, bytes).

stats datafile using 1 nooutput
n = (STATS_columns - 1) / 2
set xlabel 'pipeline stage'
set ylabel 'memory per GPU (GB)'
set key outside top center horizontal
# a line per plan, not bars: the y axis runs from the data (stages and capacities), not
# from 0, so that plans whose stages sit far above 0 still show their differences; gnuplot
# extends it to the next tic on either side
set autoscale y
# the x axis runs from the first stage to the last (no tic beyond the data)
set autoscale xfix
# room above the highest capacity line for its label
set offsets 0.3, 0.3, graph 0.1, 0
set xtics 1 nomirror
if (STATS_max > 24) set xtics 4

# each plan's capacity (one value down its column); the capacities within 2 % of the
# largest of each other are drawn as one line, labelled once with each plan's letter and
# value ("usable memory: A 85.0 GB, B 84.9 GB")
array cap[n]
do for [i=1:n] { stats datafile using (column(i + 1 + n)) nooutput name "CAP"; cap[i] = CAP_max }
letters = "A B C D E F G H I J K L M N O P"
capmax = 0
do for [i=1:n] { if (cap[i] > capmax) { capmax = cap[i] } }
near(a, b) = abs(a - b) < 0.02 * capmax
do for [i=1:n] {
	first = 1; txt = ""
	do for [j=1:n] { if (near(cap[j], cap[i])) { if (j < i) { first = 0 }; txt = txt . (strlen(txt) ? ", " : "") . sprintf("%s %.1f GB", word(letters, j), cap[j] / GB) } }
	if (first) { set label (20 + i) "usable memory: " . txt at graph 0.99, first cap[i] / GB right offset 0, 0.6 textcolor rgb '#222222' font ',11' front }
}

# each plan in its colour of figures/style.gp (c_plan), not the line types, whose blue and
# orange mean compute and TP/CP on the step chart beside it
plot for [i=2:n+1] datafile using 1:(column(i)/GB) with linespoints lc rgb plan_colour(i - 1) lw 2 pt plan_point(i - 1) ps 0.8 title columnhead(i), \
     for [i=2:n+1] datafile using 1:(column(i+n)/GB) with lines @capacity_style notitle
