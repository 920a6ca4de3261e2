/*
 * cli.h -- shared pieces of the `trainplan` subcommands (main.c).
 *
 * Every subcommand takes --plan FILE, --set KEY=VALUE (repeatable) and --format;
 * cli_parse consumes those and leaves the rest (positional arguments and the
 * command's own options) in opts->rest for the command to read.
 */
#ifndef CALC_CLI_H
#define CALC_CLI_H

#include "../calc/calc.h"
#include "../calc/format.h"

#define CLI_MAX_ARGS 256

struct cli_opts {
	const char *plan;                 /* --plan FILE, or NULL for the default plan */
	const char *sets[CLI_MAX_ARGS];   /* --set KEY=VALUE, in order */
	int nsets;
	enum calc_format format;          /* --format, CALC_F_TEXT by default */
	int format_given;
	char *rest[CLI_MAX_ARGS];         /* everything else, in order */
	int nrest;
};

/* Parse the common options.  Returns 0, or 2 after printing a usage error. */
int cli_parse(int argc, char **argv, struct cli_opts *o);
/* Load the plan the options name; returns 0, or 2 after printing the diagnostics. */
int cli_load(const struct cli_opts *o, struct calc_plan *plan);
/* Print every message of 'd' to stderr prefixed "trainplan: "; returns 2. */
int cli_fail(struct calc_diag *d);
/* Print "trainplan: error: ..." to stderr; returns 2. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A subcommand that is not part of this build yet. */
int cli_unavailable(const char *cmd);
/* Take the value of option 'name' from rest[i] ("--name V" or "--name=V"); advances *i.
 * Returns the value, or NULL if rest[*i] is not that option. */
const char *cli_opt(const struct cli_opts *o, int *i, const char *name);
/* Fill 'a' from "key=value" words in rest starting at 'from'. Returns 0 or 2. */
int cli_args(const struct cli_opts *o, int from, struct calc_args *a);

/* Print the help page of subcommand 'name' to f (help.c); 'summary' is its line in
 * the command table, used when the command has no page of its own. */
void cli_help(FILE *f, const char *name, const char *summary);

int cmd_memory(int argc, char **argv);
int cmd_comm(int argc, char **argv);
int cmd_step(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_bubble(int argc, char **argv);
int cmd_schedule(int argc, char **argv);
int cmd_search(int argc, char **argv);
int cmd_get(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_data(int argc, char **argv);
int cmd_presets(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);

#endif
