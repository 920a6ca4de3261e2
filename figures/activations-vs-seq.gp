# figures/activations-vs-seq.gp -- activation memory per GPU (worst stage) against sequence
# length for no, selective and full recomputation, with the GPU's usable capacity.
# Dataset activations-vs-seq (calc/memory.c): seq_len [tokens], none, selective, full,
# budget (usable memory minus model states and fixed overheads), capacity [bytes].
# The plan's sequence length (plan_seq_len of data/plan-marks.tsv, figures/style.gp) is a
# dotted black line, the plan's colour, labelled with its length; where the sweep has a
# row at that length, the plan's own recomputation policy (plan_recompute) is marked on
# its curve with the plan's open circle.

set logscale x 2
set format x '%.0f'
set xlabel 'sequence length (tokens)'
set ylabel 'activations per GPU (GB)'
set yrange [0:*]
# the legend under the chart: the curves and lines fill the plot area
set key below center horizontal maxcols 3 noopaque nobox

# When 'none' and 'selective' are equal at every length (FlashAttention already keeps
# no s^2 attention scores, which is all selective recomputation drops), one curve is
# drawn and its title says so; otherwise 'none' is drawn wider so that it shows where
# the two meet.
stats datafile using (abs(column("none") - column("selective"))) nooutput name "DIFF"
same = DIFF_max == 0
plan_seq = 0
if (has_marks) { stats marksfile using "plan_seq_len" nooutput name "MARK_SEQ"; plan_seq = MARK_SEQ_max }
if (plan_seq > 0) { \
	set arrow 6 from plan_seq, graph 0 to plan_seq, graph 1 nohead lc rgb c_plan_ink dt 3 lw 1.5 back; \
	set label 6 sprintf('plan: %d tokens', plan_seq) at plan_seq, graph 0.92 right offset -0.6,0 textcolor rgb '#000000' front }
# the column of the plan's recomputation policy ("none", "selective" or "full"; none
# without marks or for a policy the sweep does not draw)
plan_rc_col = (plan_recompute eq "none" || plan_recompute eq "selective" || plan_recompute eq "full") ? plan_recompute : ""
planpt(d) = (plan_rc_col ne "" && column("seq_len") == plan_seq) ? column(plan_rc_col)/GB : NaN
# colours of figures/style.gp: stored activations in c_activations (as on every
# memory chart), the two recomputation policies recomputation's green (c_recompute),
# selective dashed and full solid, each with its own point type
plot datafile using "seq_len":(column("none")/GB) with linespoints lc rgb c_activations pt 7 lw (same ? 2 : 5) \
        title (same ? 'no recompute = selective recompute (equal)' : 'no recompute'), \
     '' using "seq_len":(same ? NaN : column("selective")/GB) with linespoints lc rgb c_recompute lw 2 dt 2 pt 5 \
        title (same ? '' : 'selective recompute'), \
     '' using "seq_len":(column("full")/GB) with linespoints lc rgb c_recompute lw 2 pt 9 title 'full recompute', \
     '' using "seq_len":(column("budget")/GB) with lines @limit_style title 'room left for activations', \
     '' using "seq_len":(column("capacity")/GB) with lines @capacity_style title 'usable capacity', \
     '' using "seq_len":(planpt(0)) with points @plan_mark title (plan_rc_col ne "" ? sprintf('the plan (%s recomputation)', plan_rc_col) : '')
