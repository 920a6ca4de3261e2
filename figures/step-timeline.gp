# figures/step-timeline.gp -- one optimizer step of the critical GPU: its compute stream and
# its communication streams, what is exposed and what hides behind compute.
# Dataset step-timeline (calc/catalog_step.c, from calc/step.c's breakdown): stream
# (0 compute, 1 TP/CP, 2 PP, 3 DP), stream_name, segment, start, end, duration [s],
# exposed (1: on the critical path).  The compute stream's segments add up to the step
# time; the streams below it are drawn under what they overlap.  Of the TP/CP time the
# step charges, "overlap cost" is what hiding collectives costs the GEMMs (the SMs the
# collectives take, docs/references.md §4.8) and "TP/CP wait" the exposed collectives.  Segment names are written
# (or their durations alone) inside the bars wide enough for them, white on the dark colours and near black on the
# light ones.

stats datafile using "end" nooutput name "EN"
# which segments the plan has, so that the key names only those
has(g) = (strcol("segment") eq g) ? 1 : 0
stats datafile using (has("recompute")) nooutput name "RC"
stats datafile using (has("hidden")) nooutput name "HID"
# the overlap cost per step, named in the key (its bars are thin where little is hidden)
stats datafile using (has("overlap cost") ? column("duration") : 0) nooutput name "OVC"
stats datafile using (has("bubble")) nooutput name "BU"
stats datafile using (column("stream") == 2 ? 1 : 0) nooutput name "PPS"
stats datafile using (column("stream") == 3 || strcol("segment") eq "DP wait" ? 1 : 0) nooutput name "DPS"
stats datafile using (strcol("segment") eq "TP/CP wait" || column("stream") == 1 ? 1 : 0) nooutput name "TPS"
T = EN_max
# a MoE plan's TP/CP stream also carries the expert all-to-all
stats datafile using (strcol("stream_name") eq "TP/CP/EP" ? 1 : 0) nooutput name "EPS"
tpname = EPS_max > 0 ? 'TP/CP/EP' : 'TP/CP'
# each stream named with its exposed time per step, which a short bar may not show
expo(k) = sprintf('stats datafile using (column("stream") == %d && column("exposed") > 0 ? column("duration") : 0) nooutput name "E%d"', k, k)
do for [k = 1:3] { eval expo(k) }
unit = T >= 2 ? 1 : 1e-3
uname = T >= 2 ? 's' : 'ms'
set xlabel sprintf('time within one optimizer step (%s)', uname)
set xrange [0 : T / unit]
set yrange [3.6 : -0.6]
ms(x) = x >= 1 ? sprintf('%.3g s', x) : sprintf('%.3g ms', x * 1e3)
set ytics ('compute' 0, sprintf("%s\n%s exposed", tpname, ms(E1_sum)) 1, \
           sprintf("PP\n%s exposed", ms(E2_sum)) 2, sprintf("DP\n%s exposed", ms(E3_sum)) 3) nomirror
set xtics nomirror
set grid noytics xtics lc rgb '#eeeeee'
set border 1 lc rgb '#555555'
set key outside top center horizontal maxcols 4 maxrows 2 samplen 1.5 width -2
set style fill solid 1.0 border rgb '#ffffff'
set lmargin 15

h = 0.36
is(s, g) = (column("stream") == s && strcol("segment") eq g)
box(s, g) = is(s, g) ? (column("start") + column("end")) / 2 / unit : 1/0
hw = "((column(\"end\")-column(\"start\"))/2/unit)"
# a label fits when its text is narrower than its bar (DejaVu Sans: about 0.6 em a
# character at 12 units across the ~620-unit plot width)
fits(txt) = strlen(txt) * 0.6 * 12 / 620.0 * (T / unit) < (column("end") - column("start")) / unit * 0.92
# The segment's name and duration, or its duration alone where the name does not fit
dur(d) = gprintf('%.3g', column("duration") / unit)
lab(d) = fits(sprintf('%s %s', strcol("segment"), dur(0))) ? sprintf('%s %s', strcol("segment"), dur(0)) : dur(0)
dark(d) = strcol("segment") eq "forward" || strcol("segment") eq "recompute" || \
          strcol("segment") eq "bubble" || (column("stream") == 2 && strcol("segment") eq "exposed")
shown(d) = fits(lab(0)) ? (column("start") + column("end")) / 2 / unit : 1/0

plot datafile using (box(0, "bubble")):"stream":@hw:(h) with boxxyerror lc rgb c_bubble title (BU_sum > 0 ? 'pipeline bubble (idle)' : ''), \
     '' using (box(0, "forward")):"stream":@hw:(h) with boxxyerror lc rgb c_compute title 'forward', \
     '' using (box(0, "recompute")):"stream":@hw:(h) with boxxyerror lc rgb c_recompute title (RC_sum > 0 ? 'recomputation' : ''), \
     '' using (box(0, "backward")):"stream":@hw:(h) with boxxyerror lc rgb c_backward title 'backward', \
     '' using (box(0, "TP/CP wait")):"stream":@hw:(h) with boxxyerror lc rgb c_tp title (TPS_sum > 0 ? tpname.' collectives' : ''), \
     '' using (box(0, "overlap cost")):"stream":@hw:(h) with boxxyerror fs solid 1.0 noborder lc rgb c_overlap_cost title (OVC_sum > 0 ? sprintf('cost of hiding them, %s', ms(OVC_sum)) : ''), \
     '' using (box(1, "exposed")):"stream":@hw:(h) with boxxyerror lc rgb c_tp notitle, \
     '' using (box(1, "hidden")):"stream":@hw:(h) with boxxyerror lc rgb c_tp_hidden title (HID_sum > 0 ? 'lighter: hidden' : ''), \
     '' using (box(2, "exposed")):"stream":@hw:(h) with boxxyerror lc rgb c_pp title (PPS_sum > 0 ? 'PP sends' : ''), \
     '' using (box(2, "hidden")):"stream":@hw:(h) with boxxyerror lc rgb c_pp_hidden notitle, \
     '' using (box(0, "DP wait")):"stream":@hw:(h) with boxxyerror lc rgb c_dp title (DPS_sum > 0 ? 'DP gradient reduction' : ''), \
     '' using (box(3, "exposed")):"stream":@hw:(h) with boxxyerror lc rgb c_dp notitle, \
     '' using (box(3, "hidden")):"stream":@hw:(h) with boxxyerror lc rgb c_dp_hidden notitle, \
     '' using (box(0, "optimizer")):"stream":@hw:(h) with boxxyerror lc rgb c_optimizer title 'optimizer', \
     '' using (dark(0) ? shown(0) : 1/0):"stream":(lab(0)) with labels font ',12' tc rgb '#ffffff' notitle, \
     '' using (dark(0) ? 1/0 : shown(0)):"stream":(lab(0)) with labels font ',12' tc rgb '#111111' notitle
