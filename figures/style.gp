# figures/style.gp -- the look every chart of the report shares.
#
# Loaded before each figures/NAME.gp (report/report.mk) with three variables set:
#   datafile  the figure's dataset (TSV from `trainplan data NAME`, SI units, header row)
#   outfile   where to write
#   device    'svg' for the report (the HTML inlines it, the PDF draws it as vectors),
#             'png' for a bitmap of the same chart (make output/figures/NAME.png)
# The figure script only says what to plot; fonts, sizes, colours and grid come from here.

if (!exists("device")) device = 'svg'
if (device eq 'png') {
	# 2x the SVG size: 1440 px across a 16 cm text width is ~230 dpi
	set terminal pngcairo size 1440,840 noenhanced font 'DejaVu Sans,13' fontscale 2 linewidth 2 background rgb 'white'
} else {
	# 720 x 420 units drawn across the PDF's 16 cm text width: 13-unit text is 8.2 pt,
	# the size of the tables' text
	set terminal svg size 720,420 noenhanced font 'DejaVu Sans,13' linewidth 1.2 background rgb 'white'
}
set output outfile

set datafile separator "\t"
set datafile columnheaders

# Colours: a qualitative palette that stays distinct in grey print (Okabe & Ito 2008).
set linetype 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.8
set linetype 2 lc rgb '#E69F00' lw 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009E73' lw 2 pt 9 ps 0.8
set linetype 4 lc rgb '#CC79A7' lw 2 pt 11 ps 0.8
set linetype 5 lc rgb '#56B4E9' lw 2 pt 13 ps 0.8
set linetype 6 lc rgb '#D55E00' lw 2 pt 3 ps 0.8
set linetype 7 lc rgb '#999999' lw 2 pt 1 ps 0.8
set linetype 8 lc rgb '#F0E442' lw 2 pt 15 ps 0.8
set linetype cycle 8
# One colour per part of the step on every chart that splits it (the step timeline, the
# step breakdown of candidate splits, the comparison's step chart): compute (forward)
# blue, backward light blue, recomputation green, TP/CP collectives orange, pipeline
# bubble grey, DP reduction reddish purple, PP sends vermillion, optimizer near black,
# host overhead light grey.  The pipeline schedules' Gantt charts (figures/gantt.gpi) split
# the backward pass where a schedule does: its input-gradient part (B) is the backward's
# light blue, its weight-gradient part (W) indigo, the one colour here from outside
# Okabe & Ito's eight, the indigo of Paul Tol's colour-blind-safe "muted" scheme (P. Tol,
# "Colour Schemes", SRON/EPS/TN/09-002 issue 3.2, 2021-08-18; personal.sron.nl/~pault),
# since all eight carry a meaning already;
# it is darker than both blues, so forward, backward and W differ in grey print too.  Idle
# time is the bubble's grey, on the timeline and the Gantt charts alike.
c_compute   = '#0072B2'
c_backward  = '#56B4E9'
c_wgrad     = '#332288'
c_recompute = '#009E73'
c_tp        = '#E69F00'
c_bubble    = '#777777'
c_dp        = '#CC79A7'
c_pp        = '#D55E00'
c_optimizer = '#222222'
c_host      = '#BBBBBB'
# On the step timeline the cost of hiding collectives behind compute is Okabe & Ito's
# yellow, and a collective's hidden share the pale tint of its own colour (the exposed
# share's colour mixed with white), so hidden and exposed TP/CP, PP or DP read as one
# meaning, two shares.
c_overlap_cost = '#F0E442'
c_tp_hidden    = '#F5D08A'
c_pp_hidden    = '#EFA98A'
c_dp_hidden    = '#E8C3D9'
# The plans of a comparison (A, B, ... of `trainplan report --compare`) are told apart by
# colours no part of the step or the memory uses: Tol's muted scheme (as c_wgrad above)
# less its indigo, in its order, with a point type each as well, so that the comparison's
# memory chart draws no plan in the colour its step chart gives compute or TP/CP.
array c_plan[8] = ['#CC6677', '#44AA99', '#DDCC77', '#882255', '#117733', '#88CCEE', '#999933', '#AA4499']
plan_colour(k) = c_plan[(k - 1) % 8 + 1]
plan_point(k) = word("7 5 9 11 13 3 1 15", (k - 1) % 8 + 1) + 0
# Activations are the orange of Tol's "light" scheme (the memory classes' scheme below)
# on every memory chart and on the activations chart: vermillion, which they were, is the
# PP sends' colour on the step timeline, and a colour means one thing.
c_activations = '#EE8866'
# A total (the step time of a policy or schedule, the memory per GPU of a recipe or
# schedule, the search's frontier, a run time in days, the goodput of a run) is dark grey:
# each chart draws one such quantity per axis, so the grey names "the chart's total".
c_step = '#444444'
# The memory charts split the memory per GPU by tensor class in the pale colours of
# Tol's colour-blind-safe "light" scheme (P. Tol, "Colour Schemes", as c_wgrad above),
# in its order: weights light blue, weight copies light cyan, gradients mint, master
# weights pear, optimizer states light yellow, overheads pink; activations keep
# c_activations (the scheme's orange, the strongest colour of the stack), and where a chart sums the states and
# overheads into one bar (figures/recompute-compare.gp) that bar is the scheme's olive.
# No part of the step uses these pale colours, so a memory bar never reads as a step part.
c_weights      = '#77AADD'
c_weight_copy  = '#99DDFF'
c_gradients    = '#44BB99'
c_master       = '#BBCC33'
c_optstates    = '#EEDD88'
c_overhead     = '#FFAABB'
c_states       = '#AAAA00'
# The model-state recipes of figures/states-vs-size.gp (seed, zero-paper, megatron,
# fp8-lm) are solid lines in one ink, c_recipe, told apart by point type, rather than by
# colours every one of which means something else on another chart, or by dashes, which
# mean a capacity (dashed), a limit (dash-dotted) or the plan's value (dotted).
c_recipe = '#333333'
array recipe_point[4] = [7, 5, 9, 11]
# The curves of one quantity at several pipeline depths p (figures/bubble-curves.gp) are
# the bubble's grey in five steps, lighter for the shallower pipelines, with a point type
# each; the interleaved curves take their p's step, dashed.
array c_depth[5] = ['#CCCCCC', '#AAAAAA', '#777777', '#555555', '#333333']
# The validation charts' runs: a calibrating run in the dark blue and a held-out run in
# the dark red of Tol's "high-contrast" scheme (same source), which read apart in grey
# print (dark vs mid grey) and for every colour-vision deficiency Tol lists.
c_calibrating = '#004488'
c_heldout     = '#BB5566'
# The sampled configurations of the search (figures/search-pareto.gp) behind its frontier:
# a mid grey no part of the step uses.
c_sample = '#999999'
# A limit that is not the GPU's capacity (the room left for activations, the 5 % bubble
# budget, the search's 5 % band, the validation's acceptance band, the node boundary of
# the TP chart) is drawn in the capacity's ink, dash-dotted (dotted is the plan's own value,
# as the plan's sequence length or bandwidth).
limit_style = "lc rgb '#222222' lw 1.5 dt 4"
# The GPU's capacity is always drawn the same way: black, dashed.
capacity_style = "lc rgb '#222222' lw 1.5 dt 2"

set border 3 lc rgb '#555555'
set tics nomirror out scale 0.6 textcolor rgb '#333333'
set grid ytics lc rgb '#dddddd' lw 1 lt 1
set key top left reverse Left noautotitle samplen 2 spacing 1.1 textcolor rgb '#333333'
set key opaque box lc rgb '#ffffff'
set xlabel textcolor rgb '#333333'
set ylabel textcolor rgb '#333333'
set format y '%g'

GB = 1e9

# The plan as written and the planner's pick look the same on every chart that marks
# them: the plan a black open circle, the pick a wine-red filled triangle, small enough that
# a mark near a line (the bubble budget, a capacity) does not hide it.  Their numbers are
# data/plan-marks.tsv beside the chart's dataset (`trainplan data plan-marks`: plan_tp,
# plan_pp, plan_memory, plan_step_time, pick_tp, pick_pp, pick_memory, pick_step_time,
# inter_node_bw, plan_schedule, plan_recompute, plan_recipe, plan_microbatches,
# plan_bubble, pick_schedule, pick_microbatches, pick_bubble, plan_gpus, plan_seq_len, plan_params); has_marks is 0 where there is no such file beside the dataset.
c_plan_ink = '#000000'
# the pick in a colour of its own, Tol's "muted" wine (Paul Tol, "Colour schemes",
# SRON/EPS/TN/09-002, the muted scheme: colour-blind safe), which no series uses: the
# PP sends' vermillion, which the pick once shared, means one thing again
# (tests/check-figure-colours.sh fails on two names of one colour)
c_pick = '#882255'
plan_mark = "lc rgb c_plan_ink pt 6 ps 2.0 lw 2.5"
pick_mark = "lc rgb c_pick pt 9 ps 1.7"
marks_dir_end = 0
do for [i=1:strlen(datafile)] { if (datafile[i:i] eq '/') { marks_dir_end = i } }
marksfile = datafile[1:marks_dir_end] . 'plan-marks.tsv'
# has_marks is given by `trainplan report` (render_figure, cli/cmd_report.c: whether that
# file is there, as ls says it), else asked of ls.  Every system() here forks gnuplot
# (82 shared libraries mapped) and starts a shell and a command: the four of this file
# were about 55 ms of CPU of a figure's 130 (perf stat, docs/architecture.md §11).
if (!exists("has_marks")) { has_marks = strlen(system("ls '" . marksfile . "' 2>/dev/null")) > 0 }
# The plan's inter-node bandwidth per GPU, for the charts swept over it: a dotted black
# line (the plan's colour) where the plan sits; plan_bw_gbps is 0 without marks, as are
# plan_tp and plan_pp (the plan's split, for charts whose rows are splits).
plan_bw_gbps = 0; plan_tp = 0; plan_pp = 0
if (has_marks) { stats marksfile using "inter_node_bw" nooutput name "MARK_BW"; plan_bw_gbps = MARK_BW_max * 8 / 1e9; \
	stats marksfile using "plan_tp" nooutput name "MARK_TP"; plan_tp = MARK_TP_max; \
	stats marksfile using "plan_pp" nooutput name "MARK_PP"; plan_pp = MARK_PP_max }
plan_bw_arrow = "set arrow 5 from plan_bw_gbps, graph 0 to plan_bw_gbps, graph 1 nohead lc rgb c_plan_ink dt 3 lw 1.5 back; " . \
                "set label 5 sprintf('plan: %g Gb/s', plan_bw_gbps) at plan_bw_gbps, graph 0.55 right offset -0.6,0 textcolor rgb '#000000' front"
# The plan's schedule, recomputation and recipe by name ("" without marks), for the charts
# whose bars are schedules, policies or recipes: plan_tic(name, planned) adds "(plan)"
# to the plan's (on the same line; a chart with long names puts it on a line of its own).
# The pick's schedule and depth as text too (pick_schedule, pick_pp_text: bubble-curves.gp).
# All five read by one stats pass over the file's one row (strcol of the column named in
# the header: the field's text, as awk printed it), not by one awk through a shell each.
plan_schedule = ""; plan_recompute = ""; plan_recipe = ""; pick_schedule = ""; pick_pp_text = ""
if (has_marks) { stats marksfile using (plan_schedule = strcol("plan_schedule"), plan_recompute = strcol("plan_recompute"), \
	plan_recipe = strcol("plan_recipe"), pick_schedule = strcol("pick_schedule"), pick_pp_text = strcol("pick_pp"), 0) nooutput name "MARK_TEXT" }
plan_tic(name, planned) = name eq planned ? name." (plan)" : name

# The reader's rounding of the text and tables (calc/format.c, calc_fmt_reader_dec): at
# most 'dec' decimals, fewer where the number has digits before the point, so that no
# more than four significant digits show (313.35 -> 313.4, 16.07 -> 16.07).
reader_dec(x, dec) = (x == 0 ? dec : (4 - (floor(log10(abs(x))) + 1) < dec ? (4 - (floor(log10(abs(x))) + 1) < 0 ? 0 : 4 - (floor(log10(abs(x))) + 1)) : dec))
reader(x, dec) = sprintf(sprintf('%%.%df', reader_dec(x, dec)), x)
