# figures/schedule-gantt-gpipe.gp -- Gantt chart of the gpipe schedule at p = 4, m = 8 with unit
# costs (dataset schedule-gantt-gpipe, calc/pipeline.c's event simulator); the drawing is
# figures/gantt.gpi, shared by every schedule.
load 'figures/gantt.gpi'
