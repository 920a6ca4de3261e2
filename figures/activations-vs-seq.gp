# figures/activations-vs-seq.gp -- activation memory per GPU (worst stage) against sequence
# length for no, selective and full recomputation, with the GPU's usable capacity.
# Dataset activations-vs-seq (calc/memory.c): seq_len [tokens], none, selective, full,
# budget (usable memory minus model states and fixed overheads), capacity [bytes].

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
plot datafile using "seq_len":(column("none")/GB) with linespoints lw (same ? 2 : 5) \
        title (same ? 'no recompute = selective recompute (equal)' : 'no recompute'), \
     '' using "seq_len":(same ? NaN : column("selective")/GB) with linespoints \
        title (same ? '' : 'selective recompute') lt 2, \
     '' using "seq_len":(column("full")/GB) with linespoints lt 3 title 'full recompute', \
     '' using "seq_len":(column("budget")/GB) with lines lc rgb '#777777' lw 1.5 dt 3 title 'room left for activations', \
     '' using "seq_len":(column("capacity")/GB) with lines @capacity_style title 'usable capacity'
