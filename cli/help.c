/*
 * help.c -- the help of every subcommand: `trainplan help CMD` and
 * `trainplan CMD --help` print the same page (stdout, exit status 0).
 *
 * A page is a synopsis, what the command does, each option with its meaning and
 * default, and an example, all read from the command's row of the options table
 * (options.c, cli_cmddocs), which also feeds the parsers, the man page's option lists
 * and the completions.  The options every command shares (--plan, --set, --format)
 * are written here once; a row lists only the command's own.  tests/cli/help-*.args
 * are the goldens of these pages.
 */
#include "cli.h"
#include "../calc/pipeline.h"
#include "../calc/suggest.h"

#include <string.h>

const struct cli_cmddoc *cli_cmddoc_find(const char *name)
{
	for (int i = 0; i < cli_ncmddocs; i++)
		if (!strcmp(cli_cmddocs[i].name, name))
			return &cli_cmddocs[i];
	return NULL;
}

size_t cli_optdoc_len(const struct cli_optdoc *od)
{
	return od->opt[0] == '-' ? strcspn(od->opt, " =") : strlen(od->opt);
}

int cli_optdoc_takes_value(const struct cli_optdoc *od)
{
	return od->opt[0] == '-' && od->opt[cli_optdoc_len(od)] == ' ' && !(od->values && od->values[0] == '+');
}

const char *cli_optdoc_meaning(const struct cli_optdoc *od, char *buf, size_t n)
{
	static const char *const marks[] = {"{schedules-or}", "{schedules}"};
	const char *m = od->meaning, *at = NULL;
	int k = 0;
	for (; k < 2 && !(at = strstr(m, marks[k])); k++)
		;
	if (!at) {
		snprintf(buf, n, "%s", m);
		return buf;
	}
	char names[512], *last;
	calc_schedule_names(names, sizeof names, ", ");
	if (k == 0 && (last = strrchr(names, ','))) /* "a, b, c" -> "a, b or c" */
		snprintf(buf, n, "%.*s%.*s or %s%s", (int)(at - m), m, (int)(last - names), names, last + 2,
		         at + strlen(marks[k]));
	else
		snprintf(buf, n, "%.*s%s%s", (int)(at - m), m, names, at + strlen(marks[k]));
	return buf;
}

static void opt(FILE *f, const char *o, const char *meaning, const char *dflt)
{
	fprintf(f, "  %-22s %s\n", o, meaning);
	if (dflt)
		fprintf(f, "  %-22s (default: %s)\n", "", dflt);
}

void cli_help(FILE *f, const char *name, const char *summary)
{
	const struct cli_cmddoc *c = cli_cmddoc_find(name);
	if (!c) {
		/* a command without a page of its own: its summary and the shared options */
		fprintf(f, "usage: trainplan %s [--plan FILE] [--set KEY=VALUE]... [--format FMT] ...\n\n%s\n\noptions:\n",
		        name, summary);
		opt(f, "--plan FILE", "the plan to read ('-' reads standard input)", "the built-in plan, plans/default.ini");
		opt(f, "--set KEY=VALUE", "override one plan key (repeatable; trainplan presets keys lists them)", "none");
		opt(f, "--format FMT", "text, csv, json, md or tsv", "text");
		opt(f, "--help", "print this help", NULL);
		return;
	}
	fprintf(f, "usage: trainplan %s %s\n\n%s\noptions:\n", c->name, c->synopsis, c->about);
	if (c->common == 1)
		opt(f, "--plan FILE", "the plan to read ('-' reads standard input)", "the built-in plan, plans/default.ini");
	if (c->common)
		opt(f, "--set KEY=VALUE", "override one plan key (repeatable; trainplan presets keys lists them)", "none");
	if (c->format_default) {
		char allowed[96];
		snprintf(allowed, sizeof allowed, "output format: %s", c->formats);
		opt(f, "--format FMT", allowed, c->format_default);
	}
	for (int i = 0; c->opts[i].opt; i++) {
		char meaning[1024];
		opt(f, c->opts[i].opt, cli_optdoc_meaning(&c->opts[i], meaning, sizeof meaning), c->opts[i].dflt);
	}
	opt(f, "--help", "print this help", NULL);
	fprintf(f, "\nexample:\n  %s\n", c->example);
}

const char *cli_option_dym(const char *name, const char *arg, char *buf, size_t n)
{
	static const char *const shared[] = {"--plan", "--set", "--format", "--help", NULL};
	const struct cli_cmddoc *c = cli_cmddoc_find(name);
	char word[64], opts[24][32];
	struct calc_suggest sg;
	int k = 0;
	snprintf(word, sizeof word, "%.*s", (int)strcspn(arg, "="), arg);
	calc_suggest_init(&sg, word);
	for (int i = 0; shared[i]; i++)
		if (i > 2 || !c || c->common == 1 || (c->common == 2 && i > 0) || (i == 2 && c->format_default))
			calc_suggest_offer(&sg, shared[i]);
	for (int i = 0; c && c->opts[i].opt && k < 24; i++) /* "--top K": the option's own word */
		if (c->opts[i].opt[0] == '-') {
			snprintf(opts[k], sizeof opts[k], "%.*s", (int)strcspn(c->opts[i].opt, " ="), c->opts[i].opt);
			calc_suggest_offer(&sg, opts[k++]);
		}
	/* the suggestion points into opts[]: copy it out before they go */
	return calc_suggest_text(&sg, buf, n);
}

/* "--a, --b, --plan, --set, --format": the options command 'c' takes, its own first */
static void allowed(const struct cli_cmddoc *c, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; c->opts[i].opt; i++)
		if (c->opts[i].opt[0] == '-' && k < n)
			k += (size_t)snprintf(buf + k, n - k, "%s%.*s", k ? ", " : "", (int)cli_optdoc_len(&c->opts[i]),
			                      c->opts[i].opt);
	if (c->common == 1 && k < n)
		k += (size_t)snprintf(buf + k, n - k, "%s--plan", k ? ", " : "");
	if (c->common && k < n)
		k += (size_t)snprintf(buf + k, n - k, "%s--set", k ? ", " : "");
	if (c->format_default && k < n)
		snprintf(buf + k, n - k, "%s--format", k ? ", " : "");
}

const char *cli_next(const char *cmd, const struct cli_opts *o, int *i, const char **val)
{
	const struct cli_cmddoc *c = cli_cmddoc_find(cmd);
	const char *a = o->rest[*i];
	char list[512], dym[160];
	*val = NULL;
	if (a[0] != '-' || !a[1]) { /* an operand, "-" (standard input) included */
		*val = a;
		return "";
	}
	for (int k = 0; c && c->opts[k].opt; k++) {
		const struct cli_optdoc *od = &c->opts[k];
		size_t n = cli_optdoc_len(od);
		if (od->opt[0] != '-' || strncmp(a, od->opt, n) || (a[n] && a[n] != '='))
			continue;
		if (!cli_optdoc_takes_value(od)) {
			if (a[n] == '=') {
				cli_error_id(CALC_M_OPTION_VALUE, "%s: option %.*s takes no value ('%s')", cmd, (int)n, od->opt, a);
				return NULL;
			}
		} else if (a[n] == '=')
			*val = a + n + 1;
		else if (*i + 1 < o->nrest)
			*val = o->rest[++*i];
		else {
			cli_error_id(CALC_M_OPTION_VALUE, "%s: option %s needs a value", cmd, od->opt);
			return NULL;
		}
		return od->opt;
	}
	if (c)
		allowed(c, list, sizeof list);
	cli_error_id(CALC_M_UNKNOWN_OPTION, "%s: unknown option '%s' (allowed: %s)%s", cmd, a, c ? list : "--plan, --set, --format",
	          cli_option_dym(cmd, a, dym, sizeof dym));
	return NULL;
}

int cli_unhandled(const char *cmd, const char *opt)
{
	return cli_error("%s: option %s is in the options table but the command does not read it", cmd, opt);
}

int cli_is(const char *got, const char *word)
{
	size_t n = strlen(word);
	return !strncmp(got, word, n) && (!got[n] || got[n] == ' ');
}

int cli_extra(const char *cmd, const char *word)
{
	char dym[160];
	return cli_error_id(CALC_M_UNKNOWN_OPTION, "%s: unexpected argument '%s'%s", cmd, word, cli_option_dym(cmd, word, dym, sizeof dym));
}

int cli_value_ok(const char *cmd, const char *opt, const char *v)
{
	const struct cli_cmddoc *c = cli_cmddoc_find(cmd);
	for (int k = 0; c && c->opts[k].opt; k++) {
		const char *w = c->opts[k].values;
		char list[512];
		size_t n = cli_optdoc_len(&c->opts[k]), m = 0;
		if (strncmp(c->opts[k].opt, opt, n) || (opt[n] && opt[n] != ' ') || !w || w[0] == '@')
			continue;
		for (const char *p = w; *p; p += strspn(p, " ")) { /* the words of 'values' */
			size_t l = strcspn(p, " ");
			if (l == strlen(v) && !strncmp(p, v, l))
				return 0;
			if (m < sizeof list)
				m += (size_t)snprintf(list + m, sizeof list - m, "%s%.*s", m ? ", " : "", (int)l, p);
			p += l;
		}
		return cli_error("%s: %.*s %s: allowed are %s", cmd, (int)n, opt, v, list);
	}
	return 0;
}
