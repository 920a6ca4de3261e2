# figures/schedule-gantt-dualpipe.gp -- Gantt chart of the dualpipe schedule at p = 4, m = 8 with unit
# costs (dataset schedule-gantt-dualpipe, calc/pipeline.c's event simulator); the drawing is
# figures/gantt.gpi, shared by every schedule.
load 'figures/gantt.gpi'
