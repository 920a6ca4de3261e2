/*
 * common.c -- what every subcommand of `trainplan` shares: the option parser, loading
 * the plan, named arguments, and printing errors and diagnostics.
 *
 * A file of its own, apart from main.c's table of subcommands, so that main.c calls
 * the cmd_*.c files and they call this file, and nothing calls back.
 */
#include "cli.h"
#include "../calc/suggest.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int cli_error(const char *fmt, ...)
{
	va_list ap;
	fputs("trainplan: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

int cli_fail(struct calc_diag *d)
{
	for (int i = 0; i < d->nrecs; i++) {
		char line[1100];
		calc_diag_format(&d->recs[i], line, sizeof line);
		fprintf(stderr, "trainplan: %s\n", line);
	}
	calc_diag_free(d);
	return 2;
}

int cli_unavailable(const char *cmd)
{
	return cli_error("'%s' is not part of this build yet", cmd);
}

int cli_parse(int argc, char **argv, struct cli_opts *o)
{
	memset(o, 0, sizeof *o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		size_t n;
		if (!strcmp(a, "--"))
			continue;
		if (!strncmp(a, "--plan", 6) || !strncmp(a, "--set", 5) || !strncmp(a, "--format", 8)) {
			n = strcspn(a, "=");
			if (!((n == 6 && !strncmp(a, "--plan", 6)) || (n == 5 && !strncmp(a, "--set", 5)) ||
			      (n == 8 && !strncmp(a, "--format", 8)))) {
				goto rest;
			}
			if (a[n] == '=')
				v = a + n + 1;
			else if (i + 1 < argc)
				v = argv[++i];
			else
				return cli_error("option %.*s needs a value", (int)n, a);
			if (n == 6)
				o->plan = v;
			else if (n == 5) {
				if (o->nsets >= CLI_MAX_ARGS)
					return cli_error("too many --set options (at most %d)", CLI_MAX_ARGS);
				o->sets[o->nsets++] = v;
			} else {
				if (calc_format_parse(v, &o->format) < 0) {
					static const char *const fmts[] = {"text", "csv", "json", "md", "tsv", "gantt"};
					struct calc_suggest s;
					char dym[160];
					calc_suggest_init(&s, v);
					for (size_t k = 0; k < sizeof fmts / sizeof fmts[0]; k++)
						calc_suggest_offer(&s, fmts[k]);
					return cli_error("--format %s: allowed are text, csv, json, md, tsv%s", v,
					                 calc_suggest_text(&s, dym, sizeof dym));
				}
				o->format_given = 1;
			}
			continue;
		}
	rest:
		if (o->nrest >= CLI_MAX_ARGS)
			return cli_error("too many arguments (at most %d)", CLI_MAX_ARGS);
		o->rest[o->nrest++] = argv[i];
	}
	return 0;
}

int cli_load(const struct cli_opts *o, struct calc_plan *plan)
{
	struct calc_diag d = {0};
	if (calc_plan_load(plan, o->plan, o->sets, o->nsets, &d) < 0)
		return cli_fail(&d);
	calc_diag_free(&d);
	return 0;
}

const char *cli_opt(const struct cli_opts *o, int *i, const char *name)
{
	const char *a = o->rest[*i];
	size_t n = strlen(name);
	if (strncmp(a, name, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] == 0 && *i + 1 < o->nrest)
		return o->rest[++*i];
	return NULL;
}

int cli_args(const struct cli_opts *o, int from, struct calc_args *a)
{
	memset(a, 0, sizeof *a);
	for (int i = from; i < o->nrest; i++) {
		const char *eq = strchr(o->rest[i], '=');
		if (!eq || o->rest[i][0] == '-')
			return cli_error("argument '%s': expected KEY=VALUE", o->rest[i]);
		if (a->n >= 8)
			return cli_error("too many arguments (at most 8 KEY=VALUE)");
		if ((size_t)(eq - o->rest[i]) >= sizeof a->key[0] || strlen(eq + 1) >= sizeof a->val[0])
			return cli_error("argument '%s' is too long", o->rest[i]);
		memcpy(a->key[a->n], o->rest[i], (size_t)(eq - o->rest[i]));
		strcpy(a->val[a->n], eq + 1);
		a->n++;
	}
	return 0;
}
