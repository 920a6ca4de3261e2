# figures/bubble-curves.gp -- pipeline bubble as idle share of the step against the number
# of micro-batches m, for p = 2 ... 32 stages (1F1B, solid) and p = 8 interleaved with
# v = 2 and 4 chunks (dashed), with a 5% line as the usual budget.
# Dataset bubble-curves (calc/pipeline.c): m, then pP_1f1b, pP_v2, pP_v4 [fraction].
# The plan as written is marked (style.gp's plan mark) at its own micro-batches per step and
# the closed-form bubble of its schedule on its p stages, from plan-marks' plan_microbatches
# and plan_bubble (the same formula as the curves, at equal op costs); the planner's pick
# likewise (pick_schedule, pick_microbatches, pick_bubble).

set logscale x 2
set format x '%.0f'
set xlabel 'micro-batches per step m'
set ylabel 'bubble: idle share of the step (%)'
set yrange [0:100]
set key outside right top vertical

plan_point = !has_marks ? '' : \
	", marksfile using 'plan_microbatches':(100*column('plan_bubble')) with points ".plan_mark. \
	" title sprintf('plan: %s, p = %d', plan_schedule, plan_pp)"
# the pick likewise (style.gp's pick mark), where the planner has one
pick_p = pick_pp_text
pick_point = (!has_marks || pick_schedule eq '') ? '' : \
	", marksfile using 'pick_microbatches':(100*column('pick_bubble')) with points ".pick_mark. \
	" title 'pick: ".pick_schedule.", p = ".pick_p."'"

plot datafile using "m":(100*column("p2_1f1b")) with linespoints lc rgb c_depth[1] pt 7 pi 8 title 'p = 2, 1F1B', \
     '' using "m":(100*column("p4_1f1b")) with linespoints lc rgb c_depth[2] pt 5 pi 8 title 'p = 4, 1F1B', \
     '' using "m":(100*column("p8_1f1b")) with linespoints lc rgb c_depth[3] pt 9 pi 8 title 'p = 8, 1F1B', \
     '' using "m":(100*column("p16_1f1b")) with linespoints lc rgb c_depth[4] pt 11 pi 8 title 'p = 16, 1F1B', \
     '' using "m":(100*column("p32_1f1b")) with linespoints lc rgb c_depth[5] pt 13 pi 8 title 'p = 32, 1F1B', \
     '' using "m":(100*column("p8_v2")) with lines lc rgb c_depth[3] lw 2 dt 2 title 'p = 8, interleaved v = 2', \
     '' using "m":(100*column("p8_v4")) with lines lc rgb c_depth[3] lw 2 dt 3 title 'p = 8, interleaved v = 4', \
     5 with lines @limit_style title '5% budget' @plan_point @pick_point
