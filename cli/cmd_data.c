/*
 * cmd_data.c -- `trainplan data NAME [KEY=VALUE]...`: a catalog dataset as TSV (SI
 * values, one header line of column names), for gnuplot.  Shares cmd_table.c's
 * code: cmd_data is defined there.
 */
