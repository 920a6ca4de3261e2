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

#include <jansson.h>

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
/* On stderr, where the plan set no split: the planner's pick it took (calc_plan_pick_split). */
void cli_split_note(const struct calc_plan *p);
/* Print every message of 'd' to stderr prefixed "trainplan: "; returns 2. */
int cli_fail(struct calc_diag *d);
/* Print "trainplan: error: ..." to stderr; returns 2. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "trainplan: error[E030]: ..." for a message of kind m (calc/diag.c: a usage
 * error of the command line has one); returns 2. */
int cli_error_id(enum calc_msg m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A subcommand that is not part of this build yet. */
int cli_unavailable(const char *cmd);
/* Take the value of option 'name' from rest[i] ("--name V" or "--name=V"); advances *i.
 * Returns the value, or NULL if rest[*i] is not that option. */
const char *cli_opt(const struct cli_opts *o, int *i, const char *name);
/* Fill 'a' from "key=value" words in rest starting at 'from'. Returns 0 or 2. */
int cli_args(const struct cli_opts *o, int from, struct calc_args *a);

/*
 * The envelope of every JSON trainplan prints (README "Machine-readable output"):
 *   {"schema": "trainplan/1", "command": NAME, "plan": {file, model, gpu, gpus, nodes,
 *    gpus_per_node, tp, pp, dp, cp, ep, vpp, sp, zero, recompute, schedule,
 *    micro_batch, global_batch, seq_len, recipe} or null, "units": {field: unit},
 *    "data": ...}
 * in that key order; values in SI base units, bytes as integers, yes/no as
 * true/false.  "units" names the unit of every numeric field of "data" by its key
 * ("1" for counts and ratios).  Begin, add to the data with the helpers, end.
 */
struct cli_json {
	json_t *root;  /* the envelope */
	json_t *units; /* its "units" object (borrowed from root) */
	char clash[64]; /* a field named with two different units ("" = none) */
};
/* Start an envelope for 'command'; 'plan' NULL writes "plan": null (commands without
 * one plan: presets, validate, compare, calibrate, --list). */
void cli_json_begin(struct cli_json *j, const char *command, const struct calc_plan *plan);
/* Name the unit of numeric field 'key'.  Naming one key with two different units is
 * a fault of the command: cli_json_end then refuses to print. */
void cli_json_unit(struct cli_json *j, const char *key, const char *unit);
/* obj[key] = the number v stored in 'unit' (SI; "days" written in s under the key of
 * calc_json_time_key, and left out when obj already has that key), unit named. */
void cli_json_num(struct cli_json *j, json_t *obj, const char *key, double v, const char *unit);
/* obj[key] = true / false. */
void cli_json_bool(json_t *obj, const char *key, int v);
/* obj[q->name] = the catalog value v: text, a yes/no (cli_quantity_is_bool) or a
 * number with its unit. */
/* Whether the plan's split fits (memory.fits): in text a line "fit: NO -- ..." on
 * stdout where it does not, in CSV, Markdown and TSV a warning on stderr, in JSON
 * memory.fits, memory.total and memory.headroom added to 'data'.  Returns 0, or -1 with
 * a diagnostic. */
int cli_fit(struct calc_ctx *c, enum calc_format f, struct cli_json *j, json_t *data, struct calc_diag *d);
void cli_json_quantity(struct cli_json *j, json_t *obj, const struct calc_quantity *q, const struct calc_value *v);
/* A catalog quantity that is a yes/no: unit "1" and a description starting "1 when",
 * "1 with" or "1 if" (memory.fits, checkpoint.async, plan.sp ...). */
int cli_quantity_is_bool(const struct calc_quantity *q);
/* The table 't' as {"table": name, "title": title, "rows": [...]}, units named. */
json_t *cli_json_table(struct cli_json *j, const struct calc_table *t);
/* Set "data" to 'data' (the reference is taken), print the envelope to 'out' with
 * CALC_JSON_FLAGS and a newline, free it.  Returns 0, or 2 after an error message. */
int cli_json_end(struct cli_json *j, json_t *data, FILE *out);
/* One table as a whole envelope on stdout: begin, cli_json_table, end. */
int cli_json_print_table(const char *command, const struct calc_plan *plan, const struct calc_table *t);

/* Write table 't' to stdout in format f: JSON as the envelope of 'command' and
 * 'plan' (cli_json_print_table), the other formats by calc_table_write.  Returns 0 or 2. */
int cli_table_write(const char *command, const struct calc_plan *plan, const struct calc_table *t,
                    enum calc_format f);
/* Every catalog dataset (dataset 1) or table (0) of 'ctx' as DIR/NAME.EXT in format f,
 * one file each, written whole or not at all, DIR made when missing (cmd_table.c: `data
 * --all`, `table --all`, and `trainplan report`, which writes both from one context).
 * Returns 0, or 2 after a message that names the entry that failed. */
int cli_catalog_all(struct calc_ctx *ctx, const struct calc_plan *plan, int dataset, const char *dir,
                    enum calc_format f);

/* ---- the options of every subcommand: one table (options.c) ---- */
/* One option or operand of a command. */
struct cli_optdoc {
	const char *opt;     /* "--top K": the option's word, then its value's placeholder
	                        (none: a flag); or an operand ("NAME", "FILE") */
	const char *meaning; /* one line; {schedules} / {schedules-or}: the schedule table */
	const char *dflt;    /* the default, in words, or NULL when it has none */
	const char *values;  /* what the value completes to: words, @file, @dir, @ini, @list,
	                        @schedules; NULL: nothing to offer */
};
/* One command's page. */
struct cli_cmddoc {
	const char *name;
	const char *synopsis;   /* after "trainplan NAME " */
	const char *about;      /* a few lines, each ending in \n */
	int common;             /* 1: takes --plan, --set, --format; 2: --set and --format only;
	                           0: only its own options */
	const char *formats;    /* allowed --format values */
	const char *format_default; /* NULL: the command takes no --format */
	struct cli_optdoc opts[20]; /* the command's own options, ended by {NULL} */
	const char *example;
};
extern const struct cli_cmddoc cli_cmddocs[];
extern const int cli_ncmddocs;
/* The page of command 'name', or NULL. */
const struct cli_cmddoc *cli_cmddoc_find(const char *name);
/* The length of the word of option 'od' ("--top" of "--top K"). */
size_t cli_optdoc_len(const struct cli_optdoc *od);
/* 1 when option 'od' takes a value ("--top K"), 0 for a flag or an operand. */
int cli_optdoc_takes_value(const struct cli_optdoc *od);
/* od->meaning with {schedules} and {schedules-or} replaced by the schedule table's
 * names, into buf (n bytes); returns buf. */
const char *cli_optdoc_meaning(const struct cli_optdoc *od, char *buf, size_t n);
/*
 * The next word of o->rest for command 'cmd', read by the command's table: an option
 * of the table (also "--name=V") returns the table's word for it ("--top") with its
 * value in *val (NULL for a flag), advancing *i past the value; a word that is not an
 * option ("-" included) returns "" with *val = the word; an option the table does not
 * have, a flag given a value or an option without one prints one error and returns
 * NULL (the caller returns 2).  The shared --plan, --set and --format were taken by
 * cli_parse.
 */
const char *cli_next(const char *cmd, const struct cli_opts *o, int *i, const char **val);
/* "CMD: unexpected argument 'WORD'" with a "did you mean" of the command's options;
 * returns 2. */
int cli_extra(const char *cmd, const char *word);
/* 0 when 'v' is one of the words of the 'values' of option 'opt' of 'cmd' (or that
 * option takes any value), else 2 after "CMD: OPT V: allowed are a, b, c". */
int cli_value_ok(const char *cmd, const char *opt, const char *v);
/* 1 when 'got' (a cli_next result) is the option 'word' ("--top"). */
int cli_is(const char *got, const char *word);
/* Print "CMD: OPT is an option of the table that the command does not read" (a fault
 * of the program, not of the input) and return 2. */
int cli_unhandled(const char *cmd, const char *opt);
/* trainplan --dump-options KIND: the generated parts of completion/trainplan.bash
 * (bash), completion/_trainplan (zsh), man/trainplan.1 (man) and README.md (readme),
 * from this table and the command table 'names'/'summaries' of main.c.  Returns 0, or
 * 2 after an error. */
int cli_dump_options(FILE *f, const char *kind, const char *const *names, const char *const *summaries, int n);

/* Print the help page of subcommand 'name' to f (help.c); 'summary' is its line in
 * the command table, used when the command has no page of its own. */
void cli_help(FILE *f, const char *name, const char *summary);
/* "; did you mean '--top'?" for the unknown option 'arg' of subcommand 'name' (its
 * help page's options and the shared ones, case ignored), or "".  Returns buf. */
const char *cli_option_dym(const char *name, const char *arg, char *buf, size_t n);

/* ---- comparisons of plans (cmd_compare.c, compare_doc.c) ---- */
#define CLI_CMP_MAX 16
/* Plans loaded side by side: plan k from files[k], called label[k] ("A", "B", ...). */
struct cli_cmp {
	int n;
	const char *files[CLI_CMP_MAX];
	char label[CLI_CMP_MAX][4];
	struct calc_ctx *ctx; /* n evaluation contexts, owned */
	char currency[16];    /* plan.currency of every plan when they all name the same ("" none) */
	int currency_mixed;   /* 1: the plans name different currencies: costs are not subtracted */
};
/* One catalog quantity as a column of a comparison table. */
struct cli_cmp_metric {
	const char *quantity; /* catalog name */
	const char *column;   /* header, without unit */
	const char *unit;     /* SI unit of the quantity */
	enum calc_disp disp;
	int prec;
};
/* The columns of `trainplan compare` and of the comparison report's first table. */
extern const struct cli_cmp_metric cli_cmp_headline[];
extern const int cli_cmp_nheadline;
/* Load the n plan files (2..CLI_CMP_MAX, "-" once at most, no file twice) with the
 * options' --set applied to each.  Returns 0, or 2 after printing the error (nothing
 * is left to free then). */
int cli_cmp_load(struct cli_cmp *c, const struct cli_opts *o, const char *const *files, int n);
void cli_cmp_free(struct cli_cmp *c);
/* Table 'name': a row per plan (named by its file, or its label when by_label) with the
 * nm quantities 'm' (and memory.fits as yes/no when 'fits'), then a row per later plan
 * with its difference from the first.  Returns 0, or -1 after a diagnostic in 'd'. */
int cli_cmp_quantities(struct cli_cmp *c, const struct cli_cmp_metric *m, int nm, int fits, int by_label,
                       const char *name, const char *title, struct calc_table *t, struct calc_diag *d);
/* Catalog table 'table' of every plan turned: a row per key (the first column's text,
 * in order of first appearance over the plans, headed 'keyname'), a column per plan
 * with the value of column 'valname' (empty where a plan has no such row), and, when
 * 'deltas' and the column is a number, a column per later plan with its difference
 * from the first.  Returns 0, or -1 after a diagnostic in 'd'. */
int cli_cmp_pivot(struct cli_cmp *c, const char *table, const char *keyname, const char *valname, int deltas,
                  const char *title, struct calc_table *t, struct calc_diag *d);
/* The comparison report's Markdown into 'md' and the datasets of its figures
 * (compare-step.tsv, compare-memory.tsv) into 'datadir'.  Returns 0, or -1 after a
 * diagnostic in 'd'. */
int cli_cmp_write_md(struct cli_cmp *c, FILE *md, const char *datadir, struct calc_diag *d);

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
