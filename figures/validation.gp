# figures/validation.gp -- error of the time model against each published run, with the
# +-15% acceptance band, calibrating and held-out runs apart.  Dataset validation
# (calc/validate.c): source, stack, model, GPUs, TP, CP, PP, DP, v, recompute, metric,
# published, predicted, error [fraction], MFU, HFU, peak memory, fits, role.

set style fill solid 0.85 border rgb '#ffffff'
set boxwidth 0.7
set ylabel 'predicted / published - 1 (%)'
set xlabel 'published run (paper, model, recomputation)'
set yrange [-40:25] # the held-out MoE rows reach -37%
set xtics rotate by -60 font ',7' nomirror
set key top left
set bmargin 9
set rmargin 12

plot datafile using 0:(strcol("role") eq 'calibrates' ? 100*column("error") : 1/0):xtic(sprintf('%s %s %s', strcol("source"), strcol("model"), strcol("recompute") eq 'full' ? 'full' : strcol("recompute") eq 'flash+SP' ? 'flash' : strcol("recompute") eq 'flash+full' ? 'fl.+full' : 'sel.')) with boxes lt 1 title 'calibrating run', \
     '' using 0:(strcol("role") eq 'held out' ? 100*column("error") : 1/0):xtic(sprintf('%s %s %s', strcol("source"), strcol("model"), strcol("recompute") eq 'full' ? 'full' : strcol("recompute") eq 'flash+SP' ? 'flash' : strcol("recompute") eq 'flash+full' ? 'fl.+full' : 'sel.')) with boxes lt 2 title 'held-out run', \
     15 with lines @capacity_style title '+-15% band', \
     -15 with lines @capacity_style notitle
