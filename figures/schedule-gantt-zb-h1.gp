# figures/schedule-gantt-zb-h1.gp -- Gantt chart of the zb-h1 schedule at p = 4, m = 8 with unit
# costs (dataset schedule-gantt-zb-h1, calc/pipeline.c's event simulator); the drawing is
# figures/gantt.gpi, shared by every schedule.
load 'figures/gantt.gpi'
