/*
 * common.c -- what every subcommand of `trainplan` shares: the option parser, loading
 * the plan, named arguments, printing errors and diagnostics, and the one envelope of
 * every JSON output (schema "trainplan/1", cli.h; jansson builds and prints it).
 *
 * A file of its own, apart from main.c's table of subcommands, so that main.c calls
 * the cmd_*.c files and they call this file, and nothing calls back.
 */
#include "cli.h"
#include "../calc/files.h"
#include "../calc/search.h"
#include "../calc/suggest.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* "trainplan: error: MESSAGE", or "trainplan: error[E030]: MESSAGE" for a message of kind
 * m (its ID and fixed severity from calc_msgs, calc/diag.c, as calc_diag_format writes
 * them); an argument quoted in the message may hold an ESC: shown as \xHH (calc_text_shown). */
static int verror(enum calc_msg m, const char *fmt, va_list ap)
{
	struct calc_diag_rec r = {0};
	char msg[2048], *shown, *line;
	size_t n;
	vsnprintf(msg, sizeof msg, fmt, ap);
	n = strlen(msg) * 4 + 1;
	shown = xmalloc(n);
	line = xmalloc(n + 64);
	r.severity = m > CALC_M_NONE && m < CALC_M_N ? calc_msg_kind(m)->severity : CALC_ERROR;
	r.kind = m;
	r.msg = calc_text_shown(shown, n, msg);
	calc_diag_format(&r, line, n + 64);
	fprintf(stderr, "trainplan: %s\n", line);
	free(line);
	free(shown);
	return 2;
}

int cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(CALC_M_NONE, fmt, ap);
	va_end(ap);
	return 2;
}

int cli_error_id(enum calc_msg m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(m, fmt, ap);
	va_end(ap);
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
				return cli_error_id(CALC_M_OPTION_VALUE, "option %.*s needs a value", (int)n, a);
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
	if (calc_plan_load(plan, o->plan, o->sets, o->nsets, &d) < 0 || calc_plan_pick_split(plan, &d) < 0)
		return cli_fail(&d);
	/* a plan that loads may still carry notes (a config.json default taken, a part of
	 * the model left out): they go to stderr, as the errors would */
	for (int i = 0; i < d.nrecs; i++) {
		char line[1100];
		calc_diag_format(&d.recs[i], line, sizeof line);
		fprintf(stderr, "trainplan: %s\n", line);
	}
	calc_diag_free(&d);
	cli_split_note(plan);
	return 0;
}

void cli_split_note(const struct calc_plan *p)
{
	if (!p->split_picked)
		return;
	fprintf(stderr, "trainplan: note: no parallel degree is set; split derived by the planner (its recommendation, "
	        "as `trainplan search` ranks it): tp %d, pp %d, dp %d, cp %d", p->tp, p->pp, p->dp, p->cp);
	if (p->model.moe.experts > 0)
		fprintf(stderr, ", ep %d, etp %d", p->ep, p->etp);
	fprintf(stderr, ", vpp %d, micro-batch %d, %s, recompute %s, ZeRO %d\n", p->vpp, p->micro_batch,
	        calc_schedule_name(p->schedule), calc_recompute_name(p->recompute), p->zero);
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

/* ---------------------------------------------------------------- JSON envelope */

void cli_json_begin(struct cli_json *j, const char *command, const struct calc_plan *p)
{
	j->root = json_object();
	json_object_set_new(j->root, "schema", json_string("trainplan/1"));
	json_object_set_new(j->root, "command", json_string(command));
	if (p) {
		json_t *o = json_object();
		json_object_set_new(o, "file", json_string(p->file));
		json_object_set_new(o, "model", json_string(p->model.name));
		json_object_set_new(o, "gpu", json_string(p->gpu.name));
		json_object_set_new(o, "gpus", json_integer(calc_plan_gpus(p)));
		json_object_set_new(o, "nodes", json_integer(p->nodes));
		json_object_set_new(o, "gpus_per_node", json_integer(p->gpus_per_node));
		json_object_set_new(o, "tp", json_integer(p->tp));
		json_object_set_new(o, "pp", json_integer(p->pp));
		json_object_set_new(o, "dp", json_integer(p->dp));
		json_object_set_new(o, "cp", json_integer(p->cp));
		json_object_set_new(o, "ep", json_integer(p->ep));
		json_object_set_new(o, "vpp", json_integer(p->vpp));
		json_object_set_new(o, "sp", json_boolean(p->sp));
		json_object_set_new(o, "zero", json_integer(p->zero));
		json_object_set_new(o, "recompute", json_string(calc_recompute_name(p->recompute)));
		json_object_set_new(o, "schedule", json_string(calc_schedule_name(p->schedule)));
		json_object_set_new(o, "micro_batch", json_integer(p->micro_batch));
		json_object_set_new(o, "global_batch", json_integer(p->global_batch));
		json_object_set_new(o, "seq_len", json_integer(p->seq_len));
		json_object_set_new(o, "recipe", json_string(p->recipe ? p->recipe->name : p->recipe_name));
		if (p->split_picked) /* the plan set no split: the planner's pick (calc_plan_pick_split) */
			json_object_set_new(o, "split", json_string("planner"));
		json_object_set_new(j->root, "plan", o);
	} else
		json_object_set_new(j->root, "plan", json_null());
	j->units = json_object();
	j->clash[0] = 0;
	json_object_set_new(j->root, "units", j->units);
}

void cli_json_unit(struct cli_json *j, const char *key, const char *unit)
{
	json_t *u = json_object_get(j->units, key);
	if (!u)
		json_object_set_new(j->units, key, json_string(unit));
	else if (strcmp(json_string_value(u), unit) && !j->clash[0])
		snprintf(j->clash, sizeof j->clash, "%s", key);
}

void cli_json_num(struct cli_json *j, json_t *obj, const char *key, double v, const char *unit)
{
	double scale;
	char name[128];
	const char *u = calc_json_unit(unit, &scale);
	/* a value in days is written in seconds, under the key of its time ("run.days" ->
	 * "run.time"); where that key is already there, the catalog's own value in seconds
	 * stays and the one converted from days is left out */
	calc_json_time_key(key, unit, name, sizeof name);
	if (strcmp(name, key) && json_object_get(obj, name))
		return;
	json_object_set_new(obj, name, calc_json_number(v * scale, u));
	cli_json_unit(j, name, u);
}

void cli_json_bool(json_t *obj, const char *key, int v)
{
	json_object_set_new(obj, key, json_boolean(v));
}

int cli_quantity_is_bool(const struct calc_quantity *q)
{
	return !strcmp(q->unit, "1") &&
	       (!strncmp(q->desc, "1 when ", 7) || !strncmp(q->desc, "1 with ", 7) || !strncmp(q->desc, "1 if ", 5));
}

void cli_json_quantity(struct cli_json *j, json_t *obj, const struct calc_quantity *q, const struct calc_value *v)
{
	if (v->str)
		json_object_set_new(obj, q->name, json_string(v->str));
	else if (cli_quantity_is_bool(q) && !isnan(v->num))
		cli_json_bool(obj, q->name, v->num > 0.5);
	else
		cli_json_num(j, obj, q->name, v->num, q->unit);
}

json_t *cli_json_table(struct cli_json *j, const struct calc_table *t)
{
	json_t *o = json_object(), *units = json_object(), *u;
	const char *key;
	/* the table's units, through cli_json_unit so that a clash is seen */
	json_t *rows = calc_table_json(t, units);
	json_object_foreach(units, key, u)
		cli_json_unit(j, key, json_string_value(u));
	json_decref(units);
	json_object_set_new(o, "table", json_string(t->name));
	json_object_set_new(o, "title", json_string(t->title));
	json_object_set_new(o, "rows", rows);
	return o;
}

int cli_json_end(struct cli_json *j, json_t *data, FILE *out)
{
	char *text;
	json_object_set_new(j->root, "data", data ? data : json_null());
	if (j->clash[0]) {
		json_decref(j->root);
		return cli_error("JSON output: the field '%s' has two units", j->clash);
	}
	text = json_dumps(j->root, CALC_JSON_FLAGS);
	json_decref(j->root);
	j->root = j->units = NULL;
	if (!text)
		return cli_error("cannot write the JSON output (out of memory)");
	fprintf(out, "%s\n", text);
	free(text);
	return 0;
}

int cli_json_print_table(const char *command, const struct calc_plan *plan, const struct calc_table *t)
{
	struct cli_json j;
	cli_json_begin(&j, command, plan);
	return cli_json_end(&j, cli_json_table(&j, t), stdout);
}

int cli_table_write(const char *command, const struct calc_plan *plan, const struct calc_table *t,
                    enum calc_format f)
{
	if (f == CALC_F_JSON)
		return cli_json_print_table(command, plan, t);
	calc_table_write(t, f, stdout);
	return 0;
}

int cli_fit(struct calc_ctx *c, enum calc_format f, struct cli_json *j, json_t *data, struct calc_diag *d)
{
	static const char *const names[] = {"memory.fits", "memory.total", "memory.headroom", "memory.worst_stage"};
	struct calc_value v[4];
	for (int i = 0; i < 4; i++) {
		memset(&v[i], 0, sizeof v[i]);
		if (calc_catalog_get(c, names[i], &v[i], d) < 0)
			return -1;
	}
	if (f == CALC_F_JSON) {
		for (int i = 0; i < 3 && j && data; i++)
			cli_json_quantity(j, data, calc_catalog_quantity(names[i]), &v[i]);
		return 0;
	}
	if (v[0].num)
		return 0;
	/* the times that follow assume a split that cannot run: said, not left to the reader */
	fprintf(f == CALC_F_TEXT ? stdout : stderr,
	        "%sthe split does not fit: stage %d needs %.1f GB per GPU, %.1f GB more than the %.1f GB usable "
	        "(memory.fits = 0; trainplan memory shows the terms, trainplan search a split that fits)\n",
	        f == CALC_F_TEXT ? "fit: NO -- " : "trainplan: warning: ", (int)v[3].num, v[1].num / 1e9,
	        -v[2].num / 1e9, c->plan.gpu_memory / 1e9);
	return 0;
}
