# figures/schedule-gantt-interleaved.gp -- Gantt chart of the interleaved schedule at p = 4, m = 8 with unit
# costs (dataset schedule-gantt-interleaved, calc/pipeline.c's event simulator); the drawing is
# figures/gantt.gpi, shared by every schedule.
load 'figures/gantt.gpi'
