# figures/validation-groups.gp -- the error of the time model on each published run,
# grouped by GPU generation and dense / MoE: one row per group, one dot per run, so the
# spread of each group reads at a glance on a projector; the per-run chart with every
# run named follows it in the chapter.  Dataset validation-groups (calc/validate.c, the
# rows of the validation dataset): error [fraction], role (calibrates, held out), class
# ("H100 dense", ...).  x: predicted / published - 1 in %, clipped to +-60 % (a run
# beyond is drawn at the edge); y: the group.  Colours from figures/style.gp: line type 1
# calibrating runs, 2 held-out runs (Okabe & Ito); the +-15 % acceptance band dashed.

set ytics ("A100 dense" 0, "H100 dense" 1, "H100 MoE" 2, "Blackwell dense" 3, "Blackwell MoE" 4) nomirror scale 0
g(s) = s eq 'A100 dense' ? 0 : s eq 'H100 dense' ? 1 : s eq 'H100 MoE' ? 2 : \
       s eq 'Blackwell dense' ? 3 : s eq 'Blackwell MoE' ? 4 : 1/0
# the runs of a group spread over a band of rows, by their place in the table, so that
# runs with the same error do not hide each other; calibrating above, held out below
off(r, i) = (r eq 'calibrates' ? -0.12 : 0.12) + 0.09 * ((int(i) % 3) - 1)
CAP = 60
c(x) = x > CAP ? CAP : x < -CAP ? -CAP : x
set yrange [4.6 : -0.6]
set xrange [-CAP - 12 : CAP + 12]
set xtics -60, 10, 60 nomirror
set grid noytics xtics lc rgb '#dddddd' lw 1 lt 1
set xlabel 'predicted / published - 1 (%)'
unset ylabel
set key outside top center horizontal
set lmargin 18
set arrow 1 from 15, graph 0 to 15, graph 1 nohead @limit_style
set arrow 2 from -15, graph 0 to -15, graph 1 nohead @limit_style
set arrow 3 from 0, graph 0 to 0, graph 1 nohead lc rgb '#555555' lw 1
do for [k=1:4] { set arrow 3 + k from graph 0, first k - 0.5 to graph 1, first k - 0.5 nohead lc rgb '#dddddd' lw 1 }

e = '100 * column("error")'
plot datafile using (strcol("role") eq 'calibrates' ? c(@e) : 1/0):(g(strcol("class")) + off(strcol("role"), $0)) \
         with points lc rgb c_calibrating pt 7 ps 0.75 title 'calibrating run', \
     '' using (strcol("role") eq 'held out' ? c(@e) : 1/0):(g(strcol("class")) + off(strcol("role"), $0)) \
         with points lc rgb c_heldout pt 5 ps 0.65 title 'held-out run', \
     '' using (@e > CAP ? CAP + 1.5 : 1/0):(g(strcol("class")) + off(strcol("role"), $0)):(sprintf('%+.0f%%', @e)) \
         with labels font ',9' left notitle, \
     '' using (@e < -CAP ? -CAP - 1.5 : 1/0):(g(strcol("class")) + off(strcol("role"), $0)):(sprintf('%+.0f%%', @e)) \
         with labels font ',9' right notitle, \
     NaN with lines @limit_style title '±15% band'
