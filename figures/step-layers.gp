# figures/step-layers.gp -- one micro-batch's forward through the layers of the critical
# stage: each layer's compute and then the exposed part of its TP/CP collectives, so that
# the collectives are seen inside the layers (figures/step-timeline.gp draws them as totals
# per step).  Dataset step-layers (calc/catalog_step.c): layer, kind, segment (compute,
# TP/CP), start, end, duration [s], stage.  Colours as in the step timeline.

stats datafile using "end" nooutput name "EN"
stats datafile using (strcol("segment") eq "TP/CP" ? column("duration") : 0) nooutput name "TP"
stats datafile using "stage" nooutput name "ST"
unit = 1e-3
set xlabel sprintf('time within one micro-batch''s forward on stage %d, layer by layer (ms)', ST_max)
set xrange [0 : EN_max / unit]
set yrange [-1.2 : 0.9]
set ytics ('layers' 0) nomirror
set xtics nomirror
set grid noytics xtics lc rgb '#eeeeee'
set border 1 lc rgb '#555555'
set key outside top center horizontal samplen 1.5
set style fill solid 1.0 border rgb '#ffffff'
set lmargin 10
h = 0.5
is(g) = strcol("segment") eq g
box(g) = is(g) ? (column("start") + column("end")) / 2 / unit : 1/0
hw = "((column(\"end\")-column(\"start\"))/2/unit)"
mid(d) = is("compute") ? (column("start") + column("end")) / 2 / unit : 1/0
plot datafile using (box("compute")):(0):@hw:(h) with boxxyerror lc rgb c_compute title 'forward compute', \
     '' using (box("TP/CP")):(0):@hw:(h) with boxxyerror lc rgb c_tp \
        title (TP_sum > 0 ? sprintf('exposed TP/CP collectives, %.3g ms a micro-batch', TP_sum / unit) : ''), \
     '' using (mid(0)):(-0.75):(sprintf('%d', column("layer"))) with labels font ',11' tc rgb '#111111' notitle
