# figures/validation.gp -- error of the time model against each published run, with the
# +-15% acceptance band.  Dataset validation (calc/validate.c): source, model, GPUs, TP,
# CP, PP, DP, v, recompute, metric, published, predicted, error [fraction], MFU, HFU.

set style fill solid 0.85 border rgb '#ffffff'
set boxwidth 0.7
set ylabel 'predicted / published - 1 (%)'
set xlabel 'published run (paper, model, recomputation)'
set yrange [-40:25] # the held-out MoE rows reach -37%
set xtics rotate by -50 font ',10' nomirror
set key top left
set bmargin 9
set rmargin 12

plot datafile using 0:(100*column("error")):xtic(sprintf('%s %s %s', strcol("source"), strcol("model"), strcol("recompute") eq 'full' ? 'full' : strcol("recompute") eq 'flash+SP' ? 'flash' : 'sel.')) with boxes lt 1 title 'error of the prediction', \
     15 with lines @capacity_style title '+-15% band', \
     -15 with lines @capacity_style notitle
