# figures/schedule-gantt-1f1b.gp -- Gantt chart of the 1f1b schedule at p = 4, m = 8 with unit
# costs (dataset schedule-gantt-1f1b, calc/pipeline.c's event simulator); the drawing is
# figures/gantt.gpi, shared by every schedule.
load 'figures/gantt.gpi'
