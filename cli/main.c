/*
 * main.c -- `trainplan`: the command-line tool over the calculation library.
 *
 * One table of subcommands, one cmd_<name> function each (cmd_<name>.c).  Only this
 * file and the cmd_*.c files print; the library returns diagnostics.
 * `trainplan help CMD` and `trainplan CMD --help` print the command's page (help.c,
 * from the options table options.c); `trainplan --dump-options KIND` writes the
 * generated parts of the man page, the completions and README.md (dump.c);
 * a misspelt command gets one "did you mean" line (suggest.c).
 * Exit status: 0 success, 1 a valid plan that is infeasible where feasibility was
 * asked, 2 bad input or usage.
 */
#include "cli.h"
#include "../calc/suggest.h"
#include "../calc/version.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} commands[] = {
	{"memory", cmd_memory, "memory per GPU for every pipeline stage"},
	{"comm", cmd_comm, "bytes and time per GPU per step, by dimension and network tier"},
	{"step", cmd_step, "step time breakdown, MFU, run time and cost"},
	{"run", cmd_run, "checkpoints, failures, goodput, effective days, energy and cost"},
	{"bubble", cmd_bubble, "pipeline bubble: one point or curves over m, p, v"},
	{"schedule", cmd_schedule, "per-stage timeline of a pipeline schedule"},
	{"search", cmd_search, "search every valid split and rank it"},
	{"get", cmd_get, "catalog quantities by name (--list for all)"},
	{"table", cmd_table, "catalog tables (NAME or --all)"},
	{"data", cmd_data, "catalog datasets as TSV"},
	{"presets", cmd_presets, "models, gpus, clusters, recipes, stacks, keys"},
	{"validate", cmd_validate, "predictions against published measurements"},
	{"calibrate", cmd_calibrate, "efficiency keys fitted to measured runs, with held-out error"},
	{"compare", cmd_compare, "plans side by side: memory, step time, MFU, bubble, comm, days, cost"},
	{"export", cmd_export, "the plan's split as Megatron-LM, NeMo, torchtitan or DeepSpeed take it"},
	{"import", cmd_import, "a Megatron-LM launch script, torchtitan TOML or Python configuration, DeepSpeed JSON or NeMo overrides as a plan"},
	{"report", cmd_report, "the full HTML + PDF report for a plan, from any folder"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: trainplan COMMAND [--plan FILE] [--set KEY=VALUE]... "
	           "[--format text|csv|json|md] ...\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nWithout --plan the built-in default plan is used (plans/default.ini).\n"
	           "trainplan help COMMAND (or trainplan COMMAND --help) shows its options; "
	           "trainplan --version its version.\n");
}

#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* The table index of command 'name', or -1 after printing an error with the closest
 * command name. */
static int lookup(const char *name)
{
	struct calc_suggest s;
	char dym[160];
	calc_suggest_init(&s, name);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (!strcmp(name, commands[i].name))
			return (int)i;
		calc_suggest_offer(&s, commands[i].name);
	}
	calc_suggest_offer(&s, "help");
	cli_error_id(CALC_M_UNKNOWN_COMMAND, "unknown command '%s'%s", name, calc_suggest_text(&s, dym, sizeof dym));
	if (!s.best)
		usage(stderr);
	return -1;
}

/* 1 when the command's arguments ask for its help (before any "--"). */
static int wants_help(int argc, char **argv)
{
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	calc_heap_setup();
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("trainplan %s\n", CALC_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		int i;
		if (argc < 3 || strcmp(argv[1], "help")) {
			usage(stdout);
			return 0;
		}
		if (argc > 3)
			return cli_error("help: one command at a time (trainplan help COMMAND)");
		if (!strcmp(argv[2], "help")) {
			usage(stdout);
			return 0;
		}
		if ((i = lookup(argv[2])) < 0)
			return 2;
		cli_help(stdout, commands[i].name, commands[i].help);
		return 0;
	}
	if (!strcmp(argv[1], "--dump-options")) { /* the generated parts of the man page,
	                                           * completions and README (dump.c) */
		const char *names[NCOMMANDS], *summaries[NCOMMANDS];
		if (argc != 3)
			return cli_error("--dump-options takes one of bash, zsh, man, readme, diagnostics");
		for (size_t k = 0; k < NCOMMANDS; k++)
			names[k] = commands[k].name, summaries[k] = commands[k].help;
		return cli_dump_options(stdout, argv[2], names, summaries, (int)NCOMMANDS);
	}
	int i = lookup(argv[1]), rc;
	if (i < 0)
		return 2;
	if (wants_help(argc, argv)) {
		cli_help(stdout, commands[i].name, commands[i].help);
		return 0;
	}
	rc = commands[i].fn(argc - 1, argv + 1);
	/* A full disk or a file size limit shows only here: the output is
	 * incomplete, and `trainplan data X > f.tmp && mv f.tmp f` must not
	 * move it into place. */
	if (fflush(stdout) != 0 || ferror(stdout))
		return cli_error("cannot write the output: %s", strerror(errno));
	return rc;
}
