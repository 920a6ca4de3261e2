/*
 * cmd_import.c -- `trainplan import --from megatron|torchtitan|deepspeed FILE`: the run
 * a user has, as a plan (INI on stdout), so planning starts from it.
 *
 *   trainplan import --from FRAMEWORK FILE|- [--plan BASE] [--gpus N]
 *
 * FILE is a Megatron-LM launch script as the framework ships them (bash: the script's
 * own assignments, `export`, arrays, `${VAR:-default}`, `if [[ ... ]]` on known values,
 * `bash -c STRING` and a here-document given to sbatch are followed; what cannot be
 * known without running it is said in a note), a
 * torchtitan job TOML or a DeepSpeed config JSON.  The names read are those of
 * Megatron-LM megatron/training/arguments.py and the config dataclasses it builds its
 * flags from, torchtitan torchtitan/config/job_config.py and DeepSpeed
 * docs/_pages/config-json.md.  A Megatron flag that is absent means Megatron-LM's
 * default (the table megatron_defaults below, with the commit it was read from).  A
 * flag of no use to the plan (learning rate, data, checkpoints, logging) is listed in
 * one note; a flag or key this command does not know, a value out of range or of the
 * wrong type is an error at FILE:LINE, every one of them in one run, exit status 2.
 * What the file does not say (the model of a DeepSpeed file, the GPU count of an
 * argument list without its launcher) stays the base plan's: the built-in plan, or
 * --plan BASE, which the output then includes.  The plan written is loaded over the base
 * before it is printed: a plan that would not load is not printed (exit status 2).
 * Every string copied from the input into the INI is checked to be one INI value.
 */
#include "cli.h"
#include "../calc/files.h"
#include "../calc/suggest.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The largest input read [B]: launch scripts and configs are a few kB. */
#define IMP_MAX_BYTES (4L << 20)
/* The largest integer a value may hold; every plan key's range lies below it, so
 * products of up to four such values fit a long long. */
#define IMP_INT_MAX 1000000000L

/* ------------------------------------------------------------------------ */
/* The import: its input, messages and the plan being written. */

struct kv {
	char key[48];  /* "parallel.tp" */
	char *val;     /* owned */
	int line;      /* input line that decided it (0: none) */
};

struct imp {
	const char *file;          /* the input's name in messages */
	const struct calc_plan *base;
	struct calc_diag d;        /* errors and notes, in input order */
	struct kv kv[128];
	int n;
	long gpus;                 /* --gpus N; 0 when not given */
	int base_given;            /* 1: --plan named the base plan */
};

static void imp_msg(struct imp *im, int line, enum calc_severity sev, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The messages one run shows: a file with thousands of unknown flags gets the first
 * ones and a line saying the rest were left out, and its reading stops early. */
#define IMP_MAX_MSGS 100

static void imp_msg(struct imp *im, int line, enum calc_severity sev, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	if (im->d.nrecs >= IMP_MAX_MSGS && !(sev == CALC_ERROR && !im->d.nerrors)) {
		if (im->d.nrecs == IMP_MAX_MSGS)
			calc_error_at(&im->d, im->file, 0, 0, CALC_NOTE, "import: more messages left out (%d are shown)",
			              IMP_MAX_MSGS);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* what a message quotes of the input keeps it one line and free of terminal controls */
	for (char *c = msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	calc_error_at(&im->d, im->file, line, 0, sev, "%s", msg);
}
#define ERR(im, line, ...) imp_msg(im, line, CALC_ERROR, __VA_ARGS__)
#define NOTE(im, line, ...) imp_msg(im, line, CALC_NOTE, __VA_ARGS__)

/* Set plan key 'key' (section.key) to the formatted value, the last assignment winning. */
static void put(struct imp *im, int line, const char *key, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void put(struct imp *im, int line, const char *key, const char *fmt, ...)
{
	va_list ap;
	int i, len;
	char *v;
	for (i = 0; i < im->n; i++)
		if (!strcmp(im->kv[i].key, key))
			break;
	if (i == im->n) {
		if (im->n >= (int)(sizeof im->kv / sizeof im->kv[0]))
			return; /* more keys than the plan has: cannot happen */
		snprintf(im->kv[im->n++].key, sizeof im->kv[0].key, "%s", key);
	}
	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	v = xmalloc((size_t)len + 1);
	va_start(ap, fmt);
	vsnprintf(v, (size_t)len + 1, fmt, ap);
	va_end(ap);
	free(im->kv[i].val);
	im->kv[i].val = v;
	im->kv[i].line = line;
}

static const char *got(const struct imp *im, const char *key)
{
	for (int i = 0; i < im->n; i++)
		if (!strcmp(im->kv[i].key, key))
			return im->kv[i].val;
	return NULL;
}

/* a * b, saturated at LLONG_MAX for non-negative operands (no signed overflow). */
static long long mul(long long a, long long b)
{
	if (a < 0 || b < 0)
		return -1;
	if (a && b > LLONG_MAX / a)
		return LLONG_MAX;
	return a * b;
}

/*
 * Read the whole number s (decimal; with toml, '_' between digits as TOML 1.0 §Integer
 * allows).  Returns 0 with *v in [lo, hi], or -1 when s is not such a number.
 */
static int parse_int(const char *s, long lo, long hi, int toml, long *v)
{
	char buf[64];
	size_t k = 0;
	const char *p = s;
	long long x;
	char *end;
	if (*p == '+' || *p == '-')
		buf[k++] = *p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	for (; *p; p++) {
		if (toml && *p == '_' && isdigit((unsigned char)p[-1]) && isdigit((unsigned char)p[1]))
			continue;
		if (!isdigit((unsigned char)*p) || k + 1 >= sizeof buf)
			return -1;
		buf[k++] = *p;
	}
	buf[k] = 0;
	errno = 0;
	x = strtoll(buf, &end, 10);
	if (errno || *end || x < lo || x > hi)
		return -1;
	*v = (long)x;
	return 0;
}

/* A string that can be written as one INI value as calc/plan.c reads it (inih with
 * inline comments): printable ASCII without ; # [ ] = " and no space at either end. */
static int ini_value_ok(const char *s)
{
	size_t n = strlen(s);
	if (!n || s[0] == ' ' || s[n - 1] == ' ')
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e || strchr(";#[]=\"\\", *s))
			return 0;
	return 1;
}

/* Write s into a comment line: bytes other than printable ASCII as \xHH. */
static void put_comment_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c > 0x7e || c == '\\')
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

static void write_ini(const struct imp *im, const char *fw, const char *base, FILE *f)
{
	static const char *const sections[] = {"cluster", "model", "training", "parallel", "moe"};
	fprintf(f, "; trainplan import --from %s ", fw);
	put_comment_text(f, im->file);
	fputc('\n', f);
	if (base)
		fprintf(f, "include = %s\n", base);
	for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++) {
		size_t n = strlen(sections[s]);
		int head = 0;
		for (int i = 0; i < im->n; i++) {
			if (strncmp(im->kv[i].key, sections[s], n) || im->kv[i].key[n] != '.')
				continue;
			if (!head++)
				fprintf(f, "\n[%s]\n", sections[s]);
			fprintf(f, "%s = %s\n", im->kv[i].key + n + 1, im->kv[i].val);
		}
	}
}

/*
 * Check the plan written: every value one INI value, and the keys applied over the base
 * plan load (calc_plan_set_many validates them as a plan file's would be).  A problem is
 * an error at the input line that decided the key it names.  Returns 0 or -1.
 */
static int check_plan(struct imp *im)
{
	const char *kvs[128];
	char *buf[128];
	struct calc_plan p = *im->base;
	struct calc_diag d = {0};
	int rc = 0;
	for (int i = 0; i < im->n; i++) {
		size_t l = strlen(im->kv[i].key) + strlen(im->kv[i].val) + 2;
		if (!ini_value_ok(im->kv[i].val)) {
			ERR(im, im->kv[i].line, "import: %s: the value taken from the file is not one INI value "
			    "(printable ASCII without ; # [ ] = \" \\); refused", im->kv[i].key);
			rc = -1;
		}
		buf[i] = xmalloc(l);
		snprintf(buf[i], l, "%s=%s", im->kv[i].key, im->kv[i].val);
		kvs[i] = buf[i];
	}
	if (!rc && calc_plan_set_many(&p, kvs, im->n, "import", &d) < 0) {
		for (int r = 0; r < d.nrecs; r++) {
			int line = 0;
			if (d.recs[r].severity != CALC_ERROR)
				continue;
			/* the line of the key the message names, the latest when it names several */
			for (int i = 0; i < im->n; i++) {
				const char *dot = strchr(im->kv[i].key, '.');
				if ((strstr(d.recs[r].msg, im->kv[i].key) || (dot && strstr(d.recs[r].msg, dot + 1))) &&
				    im->kv[i].line > line)
					line = im->kv[i].line;
			}
			ERR(im, line, "import: the plan written would not load: %s", d.recs[r].msg);
		}
		rc = -1;
	}
	calc_diag_free(&d);
	for (int i = 0; i < im->n; i++)
		free(buf[i]);
	return rc;
}

/* The GPU count as nodes x GPUs per node, keeping the base plan's node size when it
 * divides the count. */
static void put_gpus(struct imp *im, int line, long long gpus)
{
	const struct calc_plan *base = im->base;
	if (im->gpus > 0 && gpus != im->gpus) {
		ERR(im, line, "import: the file's degrees make %lld GPUs, --gpus says %ld", gpus, im->gpus);
		return;
	}
	if (gpus % base->gpus_per_node == 0) {
		put(im, line, "cluster.nodes", "%lld", gpus / base->gpus_per_node);
		put(im, line, "cluster.gpus_per_node", "%d", base->gpus_per_node);
	} else {
		put(im, line, "cluster.nodes", "1");
		put(im, line, "cluster.gpus_per_node", "%lld", gpus);
	}
}

static int in_list(const char *const *l, const char *s)
{
	for (int i = 0; l[i]; i++)
		if (!strcmp(l[i], s))
			return 1;
	return 0;
}

static void join(const char *const *l, char *buf, size_t n)
{
	buf[0] = 0;
	for (int i = 0; l[i]; i++)
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? ", " : "", l[i]);
}

static void unknown_name(struct imp *im, int line, const char *what, const char *name, const char *const *allowed,
                         const char *const *skip)
{
	struct calc_suggest s;
	char dym[160], list[1024];
	calc_suggest_init(&s, name);
	for (int i = 0; allowed[i]; i++)
		calc_suggest_offer(&s, allowed[i]);
	for (int i = 0; skip && skip[i]; i++)
		calc_suggest_offer(&s, skip[i]);
	join(allowed, list, sizeof list);
	ERR(im, line, "import: unknown %s '%.100s'; allowed: %s%s", what, name, list, calc_suggest_text(&s, dym, sizeof dym));
}

/* ------------------------------------------------------------------------ */
/* Launch scripts: the part of bash that Megatron-LM's examples use.
 *
 * Followed: NAME=VALUE and `export NAME=VALUE`, arrays NAME=(...) and NAME+=(...),
 * $NAME, ${NAME}, ${NAME[@]}, ${NAME:-default} and ${NAME-default} (a name the script
 * does not set is taken as unset, so the default applies: listed in a note), quotes
 * and backslashes, # comments, continuations, `if [[ A == B ]]` (and =, !=, -z, -n, !,
 * &&, ||) on known values, `bash [-x] -c STRING` and a here-document given to sbatch,
 * bash or sh (each read as a script of its own).  Not followed, and said so: $1 and
 * the other arguments of the script, variables of the environment without a default,
 * $(...) and $((...)), loops, functions, file tests; a flag whose value depends on one
 * is an error when the plan needs it.  The first command that runs a *.py file is the launch: the words
 * before the script are the launcher's (torchrun --nnodes, --nproc-per-node), those
 * after it Megatron-LM's. */

struct field {
	char *s;     /* the word after expansion */
	int line;    /* where the word starts */
	char *unres; /* NULL, or what in it could not be resolved ("$1") */
	int op;      /* 1: an operator (&&, ||, |, &, (, )) rather than a word */
};
struct fields {
	struct field *f;
	int n, cap;
};
struct sbuf {
	char *s;
	size_t n, cap;
};
struct shvar {
	char *name;
	char **el;    /* the elements (a plain variable has one) */
	char **unres; /* per element: NULL, or what in it could not be resolved */
	int nel;
};
struct sh {
	struct imp *im;
	const char *p;
	int line;
	int active;           /* commands here run (not in a branch not taken) */
	struct shvar *v;
	int nv, capv;
	char defaults[400];   /* names taken at their ${NAME:-default} */
	int stop;             /* a syntax error: stop reading */
	int depth;            /* ${A:-${B:-...}} nesting */
	size_t made;          /* bytes the expansions produced [B] */
};

/* Bounds of a script's reading, checked as it goes: a launch script has tens of
 * variables and expands to a few kB, so these stop a file that doubles an array per line
 * or nests defaults without end long before memory or time run out. */
#define SH_MAX_VARS 1024
#define SH_MAX_DEPTH 32
#define SH_MAX_MADE (16L << 20)

static void sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}
static void sb_addc(struct sbuf *b, char c)
{
	sb_add(b, &c, 1);
}

static void fields_push(struct fields *fs, const char *s, int line, const char *unres, int op)
{
	if (fs->n == fs->cap) {
		fs->cap = fs->cap ? fs->cap * 2 : 16;
		fs->f = xrealloc(fs->f, (size_t)fs->cap * sizeof *fs->f);
	}
	fs->f[fs->n].s = xstrdup(s ? s : "");
	fs->f[fs->n].line = line;
	fs->f[fs->n].unres = unres ? xstrdup(unres) : NULL;
	fs->f[fs->n].op = op;
	fs->n++;
}
static void fields_free(struct fields *fs)
{
	for (int i = 0; i < fs->n; i++) {
		free(fs->f[i].s);
		free(fs->f[i].unres);
	}
	free(fs->f);
	fs->f = NULL;
	fs->n = fs->cap = 0;
}

static struct shvar *sh_var(struct sh *sh, const char *name, size_t n)
{
	for (int i = 0; i < sh->nv; i++)
		if (strlen(sh->v[i].name) == n && !strncmp(sh->v[i].name, name, n))
			return &sh->v[i];
	return NULL;
}

/* Set (append: add) variable name to the n values el[] (unres[i]: not resolved). */
static void sh_set(struct sh *sh, const char *name, size_t nlen, char **el, char **unres, int n, int add)
{
	struct shvar *v = sh_var(sh, name, nlen);
	if (!v && sh->nv >= SH_MAX_VARS) {
		if (!sh->stop)
			ERR(sh->im, sh->line, "import --from megatron: more than %d variables; a launch script has tens",
			    SH_MAX_VARS);
		sh->stop = 1;
		return;
	}
	if (!v) {
		if (sh->nv == sh->capv) {
			sh->capv = sh->capv ? sh->capv * 2 : 32;
			sh->v = xrealloc(sh->v, (size_t)sh->capv * sizeof *sh->v);
		}
		v = &sh->v[sh->nv++];
		memset(v, 0, sizeof *v);
		v->name = xmalloc(nlen + 1);
		memcpy(v->name, name, nlen);
		v->name[nlen] = 0;
	} else if (!add) {
		for (int i = 0; i < v->nel; i++)
			free(v->el[i]), free(v->unres[i]);
		v->nel = 0;
	}
	v->el = xrealloc(v->el, (size_t)(v->nel + n + 1) * sizeof *v->el);
	v->unres = xrealloc(v->unres, (size_t)(v->nel + n + 1) * sizeof *v->unres);
	for (int i = 0; i < n; i++) {
		v->el[v->nel] = xstrdup(el[i]);
		v->unres[v->nel++] = unres[i] ? xstrdup(unres[i]) : NULL;
	}
}

static void sh_free(struct sh *sh)
{
	for (int i = 0; i < sh->nv; i++) {
		for (int k = 0; k < sh->v[i].nel; k++)
			free(sh->v[i].el[k]), free(sh->v[i].unres[k]);
		free(sh->v[i].el);
		free(sh->v[i].name);
		free(sh->v[i].unres);
	}
	free(sh->v);
}

/* The state of the word being read. */
struct wstate {
	struct sbuf cur;
	int have;        /* a field is open (even empty: "") */
	char unres[96];  /* the first thing in it not resolved */
	int line;
};

static void w_emit(struct wstate *w, struct fields *out)
{
	if (w->have)
		fields_push(out, w->cur.n ? w->cur.s : "", w->line, w->unres[0] ? w->unres : NULL, 0);
	w->cur.n = 0;
	if (w->cur.s)
		w->cur.s[0] = 0;
	w->have = 0;
	w->unres[0] = 0;
}

/* Add the text s to the word; split: unquoted, so blanks separate fields. */
static void w_text(struct wstate *w, struct fields *out, const char *s, int split)
{
	if (!split) {
		sb_add(&w->cur, s, strlen(s));
		w->have = 1;
		return;
	}
	while (*s) {
		size_t k = strcspn(s, " \t\n");
		if (k) {
			sb_add(&w->cur, s, k);
			w->have = 1;
			s += k;
		}
		if (*s) {
			w_emit(w, out);
			s += strspn(s, " \t\n");
		}
	}
}

static void w_unres(struct wstate *w, const char *what)
{
	sb_add(&w->cur, what, strlen(what));
	w->have = 1;
	if (!w->unres[0])
		snprintf(w->unres, sizeof w->unres, "%s", what);
}

static void sh_word(struct sh *sh, struct fields *out, int split);

/* The end of a ${...} or $(...) starting at p (at the opening bracket), or NULL. */
static const char *matching(const char *p, char open, char close)
{
	int depth = 0;
	char q = 0;
	for (; *p; p++) {
		if (q) {
			if (*p == q)
				q = 0;
			else if (q == '"' && *p == '\\' && p[1])
				p++;
		} else if (*p == '\'' || *p == '"') {
			q = *p;
		} else if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == open) {
			depth++;
		} else if (*p == close && !--depth) {
			return p;
		}
	}
	return NULL;
}

/* A $ expansion at sh->p, into the word w (split: unquoted). */
static void sh_expand(struct sh *sh, struct wstate *w, struct fields *out, int split, int quoted)
{
	const char *p = sh->p + 1, *name, *end;
	size_t nlen;
	int all = 0, op = 0; /* op: 1 ":-", 2 "-" */
	const char *dflt = NULL;
	size_t dlen = 0;
	char what[96];
	struct shvar *v;
	if (*p == '(') {
		const char *e = matching(p, '(', ')');
		for (const char *q = sh->p; e && q < e; q++)
			sh->line += *q == '\n';
		w_unres(w, p[1] == '(' ? "$((...))" : "$(...)");
		sh->p = e ? e + 1 : p + strlen(p);
		return;
	}
	if (*p == '{') {
		const char *e = matching(p, '{', '}');
		if (!e) {
			ERR(sh->im, sh->line, "import --from megatron: '${' without its '}'");
			sh->stop = 1;
			sh->p = p + strlen(p);
			return;
		}
		for (const char *q = p; q < e; q++)
			sh->line += *q == '\n';
		name = p + 1;
		for (end = name; isalnum((unsigned char)*end) || *end == '_'; end++)
			;
		nlen = (size_t)(end - name);
		if (!strncmp(end, "[@]", 3) || !strncmp(end, "[*]", 3)) {
			all = 1;
			end += 3;
		}
		if (end[0] == ':' && end[1] == '-')
			op = 1, dflt = end + 2;
		else if (end[0] == '-')
			op = 2, dflt = end + 1;
		else if (end != e)
			op = -1;
		if (dflt)
			dlen = (size_t)(e - dflt);
		sh->p = e + 1;
		if (!nlen || op < 0) {
			snprintf(what, sizeof what, "${%.*s}", (int)(e - p - 1 < 60 ? e - p - 1 : 60), p + 1);
			w_unres(w, what);
			return;
		}
	} else {
		name = p;
		if (isdigit((unsigned char)*p) || (*p && strchr("@*#?$!-", *p))) {
			end = p + 1;
		} else {
			for (end = p; isalnum((unsigned char)*end) || *end == '_'; end++)
				;
		}
		nlen = (size_t)(end - name);
		sh->p = end;
		if (!nlen) { /* a lone $ */
			w_text(w, out, "$", 0);
			return;
		}
	}
	v = isdigit((unsigned char)name[0]) || (!isalnum((unsigned char)name[0]) && name[0] != '_') ? NULL : sh_var(sh, name, nlen);
	if (v && (op != 1 || (v->nel && (v->nel > 1 || v->el[0][0] || v->unres[0])))) {
		int n = all ? v->nel : v->nel > 0;
		for (int i = 0; i < n; i++) {
			sh->made += strlen(v->el[i]) + 1;
			if (sh->made > SH_MAX_MADE) {
				if (!sh->stop)
					ERR(sh->im, sh->line, "import --from megatron: the expansions make more than %ld bytes; a "
					    "launch script makes a few kB", SH_MAX_MADE);
				sh->stop = 1;
				return;
			}
			if (i)
				w_emit(w, out);
			w_text(w, out, v->el[i], split);
			if (v->unres[i] && !w->unres[0])
				snprintf(w->unres, sizeof w->unres, "%s", v->unres[i]);
		}
		return;
	}
	if (op > 0) {
		/* unset: the default, itself a word (quotes and $ inside) */
		struct sh sub = *sh;
		struct fields tmp = {0};
		char *text;
		if (sh->depth >= SH_MAX_DEPTH) {
			if (!sh->stop)
				ERR(sh->im, sh->line, "import --from megatron: ${NAME:-default} nested deeper than %d", SH_MAX_DEPTH);
			sh->stop = 1;
			return;
		}
		sub.depth++;
		text = xmalloc(dlen + 1);
		memcpy(text, dflt, dlen);
		text[dlen] = 0;
		sub.p = text;
		sh_word(&sub, &tmp, 0);
		snprintf(what, sizeof what, "%.*s", (int)(nlen < 60 ? nlen : 60), name);
		if (sh->active && strlen(sh->defaults) + nlen + 3 < sizeof sh->defaults && !strstr(sh->defaults, what))
			snprintf(sh->defaults + strlen(sh->defaults), sizeof sh->defaults - strlen(sh->defaults), "%s$%.*s",
			         sh->defaults[0] ? ", " : "", (int)nlen, name);
		for (int i = 0; i < tmp.n; i++) {
			if (tmp.f[i].unres)
				w_unres(w, tmp.f[i].unres);
			else
				w_text(w, out, tmp.f[i].s, split);
		}
		sh->stop |= sub.stop;
		sh->made = sub.made;
		fields_free(&tmp);
		free(text);
		return;
	}
	snprintf(what, sizeof what, "$%.*s", (int)(nlen < 60 ? nlen : 60), name);
	w_unres(w, what);
}

/*
 * Read one word at sh->p into fields (split: unquoted expansions split at blanks;
 * an assignment's value is not split).  Stops at a blank or an operator.
 */
static void sh_word(struct sh *sh, struct fields *out, int split)
{
	struct wstate w = {{0}, 0, "", sh->line};
	while (*sh->p && !sh->stop) {
		char c = *sh->p;
		if (c == '\\' && sh->p[1] == '\n') {
			sh->p += 2;
			sh->line++;
		} else if (strchr(" \t\n;&|()<>", c) && split >= 0) {
			break;
		} else if (c == '\\') {
			if (sh->p[1])
				sb_addc(&w.cur, sh->p[1]), sh->p += 2;
			else
				sh->p++;
			w.have = 1;
		} else if (c == '\'') {
			const char *e = strchr(sh->p + 1, '\'');
			if (!e) {
				ERR(sh->im, sh->line, "import --from megatron: a quote (') without its end");
				sh->stop = 1;
				break;
			}
			for (const char *q = sh->p; q < e; q++)
				sh->line += *q == '\n';
			sb_add(&w.cur, sh->p + 1, (size_t)(e - sh->p - 1));
			w.have = 1;
			sh->p = e + 1;
		} else if (c == '"') {
			sh->p++;
			w.have = 1;
			while (*sh->p && *sh->p != '"' && !sh->stop) {
				if (*sh->p == '\\' && sh->p[1] && strchr("$`\"\\\n", sh->p[1])) {
					if (sh->p[1] == '\n')
						sh->line++;
					else
						sb_addc(&w.cur, sh->p[1]);
					sh->p += 2;
				} else if (*sh->p == '$') {
					sh_expand(sh, &w, out, 0, 1);
				} else {
					sh->line += *sh->p == '\n';
					sb_addc(&w.cur, *sh->p++);
				}
			}
			if (*sh->p != '"') {
				if (!sh->stop)
					ERR(sh->im, sh->line, "import --from megatron: a quote (\") without its end");
				sh->stop = 1;
				break;
			}
			sh->p++;
		} else if (c == '$') {
			sh_expand(sh, &w, out, split > 0, 0);
		} else if (c == '`') {
			const char *e = strchr(sh->p + 1, '`');
			w_unres(&w, "`...`");
			sh->p = e ? e + 1 : sh->p + strlen(sh->p);
		} else {
			sb_addc(&w.cur, c);
			w.have = 1;
			sh->p++;
		}
	}
	w_emit(&w, out);
	free(w.cur.s);
}

/* Is sh->p at NAME= or NAME+= ?  Returns the length of NAME (0: not). */
static size_t at_assignment(const char *p, int *add)
{
	size_t n = 0;
	if (!isalpha((unsigned char)*p) && *p != '_')
		return 0;
	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	*add = p[n] == '+';
	return p[n + *add] == '=' ? n : 0;
}

/* Read NAME=VALUE or NAME=( ... ) at sh->p; set it when the branch runs. */
static void sh_assign(struct sh *sh, size_t nlen, int add)
{
	const char *name = sh->p;
	struct fields val = {0};
	char **el, **unres;
	sh->p += nlen + add + 1;
	if (*sh->p == '(') {
		sh->p++;
		for (;;) {
			sh->p += strspn(sh->p, " \t");
			if (*sh->p == '\\' && sh->p[1] == '\n') {
				sh->p += 2, sh->line++;
			} else if (*sh->p == '\n') {
				sh->p++, sh->line++;
			} else if (*sh->p == '#') {
				sh->p += strcspn(sh->p, "\n");
			} else if (*sh->p == ')') {
				sh->p++;
				break;
			} else if (!*sh->p || strchr(";&|(<>", *sh->p) || sh->stop) {
				if (!sh->stop)
					ERR(sh->im, sh->line, "import --from megatron: an array %.*s=( without its ')'", (int)nlen, name);
				sh->stop = 1;
				fields_free(&val);
				return;
			} else {
				sh_word(sh, &val, 1);
			}
		}
	} else {
		struct sbuf b = {0};
		char *un = NULL;
		sh_word(sh, &val, 0);
		/* "${A[@]}" inside a plain value: the elements joined by blanks (bash) */
		sb_add(&b, "", 0);
		for (int i = 0; i < val.n; i++) {
			if (i)
				sb_addc(&b, ' ');
			sb_add(&b, val.f[i].s, strlen(val.f[i].s));
			if (val.f[i].unres && !un)
				un = xstrdup(val.f[i].unres);
		}
		fields_free(&val);
		fields_push(&val, b.s, sh->line, un, 0);
		free(b.s);
		free(un);
	}
	if (sh->active) {
		el = xmalloc((size_t)(val.n + 1) * sizeof *el);
		unres = xmalloc((size_t)(val.n + 1) * sizeof *unres);
		for (int i = 0; i < val.n; i++) {
			el[i] = val.f[i].s;
			unres[i] = val.f[i].unres;
		}
		sh_set(sh, name, nlen, el, unres, val.n, add);
		free(el);
		free(unres);
	}
	fields_free(&val);
}

/* A test [[ ... ]] / [ ... ] / test ...: 1 true, 0 false, -1 not known. */
static int sh_test(struct field *f, int n)
{
	int neg = 0, r;
	if (n >= 1 && !f[0].op && !strcmp(f[0].s, "!"))
		neg = 1, f++, n--;
	for (int i = 0; i < n; i++)
		if (f[i].unres)
			return -1;
	if (n == 1)
		r = f[0].s[0] != 0;
	else if (n == 2 && !strcmp(f[0].s, "-z"))
		r = !f[1].s[0];
	else if (n == 2 && !strcmp(f[0].s, "-n"))
		r = f[1].s[0] != 0;
	else if (n == 3 && (!strcmp(f[1].s, "==") || !strcmp(f[1].s, "=")))
		r = !strcmp(f[0].s, f[2].s);
	else if (n == 3 && !strcmp(f[1].s, "!="))
		r = strcmp(f[0].s, f[2].s) != 0;
	else
		return -1;
	return neg ? !r : r;
}

/* The condition of an if: tests joined by && and ||, left to right. */
static int sh_cond(struct field *f, int n)
{
	int r = -2, op = 0; /* op: 0 first, 1 &&, 2 || */
	for (int i = 0; i < n;) {
		int j = i, t;
		if (f[i].op) {
			op = !strcmp(f[i].s, "&&") ? 1 : !strcmp(f[i].s, "||") ? 2 : -1;
			if (op < 0)
				return -1;
			i++;
			continue;
		}
		while (j < n && !f[j].op)
			j++;
		if (!strcmp(f[i].s, "[[") && j - i >= 2 && !strcmp(f[j - 1].s, "]]"))
			t = sh_test(f + i + 1, j - i - 2);
		else if (!strcmp(f[i].s, "[") && j - i >= 2 && !strcmp(f[j - 1].s, "]"))
			t = sh_test(f + i + 1, j - i - 2);
		else if (!strcmp(f[i].s, "test"))
			t = sh_test(f + i + 1, j - i - 1);
		else if (!strcmp(f[i].s, "true") && j == i + 1)
			t = 1;
		else if (!strcmp(f[i].s, "false") && j == i + 1)
			t = 0;
		else
			t = -1;
		if (r == -2)
			r = t;
		else if (op == 1)
			r = r == 0 || t == 0 ? 0 : r < 0 || t < 0 ? -1 : 1;
		else if (op == 2)
			r = r == 1 || t == 1 ? 1 : r < 0 || t < 0 ? -1 : 0;
		i = j;
	}
	return r == -2 ? -1 : r;
}

struct frame {
	int kind;       /* 'i' if, 'l' loop/case/function (not followed) */
	int outer;      /* the enclosing region runs */
	int taken;      /* a branch of this if ran (or: not known which) */
};

/* Read commands at sh->p to the end (level: bash -c nesting); see sh_run. */
static void sh_block(struct sh *sh, struct fields *args, struct fields *launch, struct fields *bare, int *found,
                     int level);

/* A string run by `bash -c STRING` (srun ... bash -c "$CMD"): read as a script of its own,
 * with the variables of this one, its words placed at line 'line'. */
static void sh_nested(struct sh *sh, const char *text, int line, struct fields *args, struct fields *launch,
                      struct fields *bare, int *found, int level)
{
	struct sh sub = *sh;
	int na = args->n, nl = launch->n, nb = bare->n;
	if (level >= 4) {
		ERR(sh->im, line, "import --from megatron: bash -c nested deeper than 4");
		sh->stop = 1;
		return;
	}
	sub.p = text;
	sub.line = line;
	sh_block(&sub, args, launch, bare, found, level + 1);
	sh->v = sub.v, sh->nv = sub.nv, sh->capv = sub.capv, sh->stop |= sub.stop, sh->made = sub.made;
	memcpy(sh->defaults, sub.defaults, sizeof sh->defaults);
	for (int i = na; i < args->n; i++)
		args->f[i].line = line;
	for (int i = nl; i < launch->n; i++)
		launch->f[i].line = line;
	for (int i = nb; i < bare->n; i++)
		bare->f[i].line = line;
}

static void sh_block(struct sh *sh, struct fields *args, struct fields *launch, struct fields *bare, int *found,
                     int level)
{
	struct frame st[64];
	int depth = 0;
	sh->active = 1;
	while (*sh->p && !sh->stop) {
		struct fields cmd = {0};
		int cmdline = sh->line, skipw = 0, hd_line = 0;
		char hd_delim[64] = "", *hd_body = NULL;
		/* read one command */
		while (*sh->p && !sh->stop) {
			char c = *sh->p;
			int add;
			size_t nl;
			if (c == ' ' || c == '\t' || c == '\r') {
				sh->p++;
			} else if (c == '\\' && sh->p[1] == '\n') {
				sh->p += 2, sh->line++;
			} else if (c == '#') {
				sh->p += strcspn(sh->p, "\n");
			} else if (c == '\n') {
				sh->p++, sh->line++;
				if (hd_delim[0] && !hd_body) {
					/* the here-document: the lines up to the delimiter's */
					struct sbuf b = {0};
					size_t dl = strlen(hd_delim);
					hd_line = sh->line;
					sb_add(&b, "", 0);
					for (;;) {
						const char *e = sh->p + strcspn(sh->p, "\n"), *t = sh->p;
						while (*t == '\t')
							t++;
						if ((size_t)(e - t) == dl && !strncmp(t, hd_delim, dl)) {
							sh->p = *e ? e + 1 : e;
							sh->line++;
							break;
						}
						if (!*sh->p) {
							ERR(sh->im, hd_line - 1, "import --from megatron: the here-document has no line '%s'",
							    hd_delim);
							sh->stop = 1;
							break;
						}
						sb_add(&b, sh->p, (size_t)(e - sh->p) + (*e ? 1 : 0));
						sh->p = *e ? e + 1 : e;
						sh->line++;
					}
					hd_body = b.s;
				}
				if (cmd.n)
					break;
				cmdline = sh->line;
			} else if (c == ';') {
				sh->p += sh->p[1] == ';' ? 2 : 1;
				break;
			} else if ((c == '&' || c == '|') && sh->p[1] == c) {
				fields_push(&cmd, c == '&' ? "&&" : "||", sh->line, NULL, 1);
				sh->p += 2;
			} else if (strchr("&|()", c)) {
				char s[2] = {c, 0};
				fields_push(&cmd, s, sh->line, NULL, 1);
				sh->p++;
			} else if (c == '<' && sh->p[1] == '<' && sh->p[2] != '<') {
				/* <<WORD, <<-WORD, <<'WORD', <<"WORD": a here-document */
				size_t k = 0;
				sh->p += sh->p[2] == '-' ? 3 : 2;
				sh->p += strspn(sh->p, " \t");
				while (*sh->p && !strchr(" \t\n;&|()<>", *sh->p)) {
					if (*sh->p != '\'' && *sh->p != '"' && *sh->p != '\\' && k + 1 < sizeof hd_delim)
						hd_delim[k++] = *sh->p;
					sh->p++;
				}
				hd_delim[k] = 0;
				if (!k) {
					ERR(sh->im, sh->line, "import --from megatron: '<<' without its delimiter word");
					sh->stop = 1;
				}
			} else if (c == '<' || c == '>') {
				sh->p += strspn(sh->p, "<>&0123456789");
				sh->p += strspn(sh->p, " \t");
				skipw = 1;
			} else if (!skipw && (cmd.n == 0 || (cmd.n == 1 && (!strcmp(cmd.f[0].s, "export") ||
			             !strcmp(cmd.f[0].s, "declare") || !strcmp(cmd.f[0].s, "local") ||
			             !strcmp(cmd.f[0].s, "readonly")))) && (nl = at_assignment(sh->p, &add)) > 0) {
				sh_assign(sh, nl, add);
			} else {
				struct fields tmp = {0};
				sh_word(sh, &tmp, 1);
				if (!skipw)
					for (int i = 0; i < tmp.n; i++)
						fields_push(&cmd, tmp.f[i].s, tmp.f[i].line, tmp.f[i].unres, 0);
				skipw = 0;
				fields_free(&tmp);
			}
		}
		/* run it */
		{
			struct field *f = cmd.f;
			int n = cmd.n;
			const char *w0;
		again:
			w0 = n && !f[0].op && !f[0].unres ? f[0].s : "";
			if (!n) {
			} else if (!strcmp(w0, "then") || !strcmp(w0, "do") || (!strcmp(w0, "else") && depth && st[depth - 1].kind == 'i')) {
				if (!strcmp(w0, "else")) {
					struct frame *t = &st[depth - 1];
					sh->active = t->outer && !t->taken;
					t->taken = 1;
				}
				f++, n--;
				goto again;
			} else if (!strcmp(w0, "if") || !strcmp(w0, "elif")) {
				int r;
				if (w0[0] == 'i') {
					if (depth == (int)(sizeof st / sizeof st[0])) {
						ERR(sh->im, cmdline, "import --from megatron: if nested too deep");
						sh->stop = 1;
						goto next;
					}
					st[depth].kind = 'i';
					st[depth].outer = sh->active;
					st[depth].taken = 0;
					depth++;
				} else if (!depth || st[depth - 1].kind != 'i') {
					ERR(sh->im, cmdline, "import --from megatron: elif outside an if");
					sh->stop = 1;
					goto next;
				}
				r = sh_cond(f + 1, n - 1);
				if (r < 0 && st[depth - 1].outer && !st[depth - 1].taken)
					NOTE(sh->im, cmdline, "import --from megatron: the condition of this %s is not known without "
					     "running the script (its branches are not read)", w0);
				sh->active = st[depth - 1].outer && !st[depth - 1].taken && r == 1;
				if (r != 0)
					st[depth - 1].taken = 1;
			} else if (!strcmp(w0, "{") && depth && st[depth - 1].kind == 'f') {
				st[depth - 1].kind = 'l'; /* the body of the function named before */
			} else if (!strcmp(w0, "fi") || !strcmp(w0, "done") || !strcmp(w0, "esac") || !strcmp(w0, "}")) {
				if (!depth) {
					ERR(sh->im, cmdline, "import --from megatron: '%s' without its opening word", w0);
					sh->stop = 1;
					goto next;
				}
				sh->active = st[--depth].outer;
			} else if (!strcmp(w0, "for") || !strcmp(w0, "while") || !strcmp(w0, "until") || !strcmp(w0, "case") ||
			           !strcmp(w0, "select") || !strcmp(w0, "function") || (n >= 3 && f[1].op && f[1].s[0] == '(')) {
				if (depth == (int)(sizeof st / sizeof st[0])) {
					ERR(sh->im, cmdline, "import --from megatron: blocks nested too deep");
					sh->stop = 1;
					goto next;
				}
				if (sh->active)
					NOTE(sh->im, cmdline, "import --from megatron: '%s': loops, case and functions are not followed "
					     "(the block is not read)", w0);
				st[depth].kind = 'l';
				for (int i = 0; i < n; i++) /* `function f` or `f()` with its { on the next line */
					if (!strcmp(w0, "function") || (f[1].op && f[1].s[0] == '('))
						st[depth].kind = 'f';
				for (int i = 0; i < n; i++)
					if (!f[i].op && !strcmp(f[i].s, "{"))
						st[depth].kind = 'l';
				st[depth].outer = sh->active;
				st[depth].taken = 1;
				depth++;
				sh->active = 0;
			} else if (n > 1 && !f[n - 1].op && !strcmp(f[n - 1].s, "{")) {
				/* `cmd || {`: a group run on a condition not known here: not read */
				if (depth == (int)(sizeof st / sizeof st[0])) {
					ERR(sh->im, cmdline, "import --from megatron: blocks nested too deep");
					sh->stop = 1;
					goto next;
				}
				st[depth].kind = 'l';
				st[depth].outer = sh->active;
				st[depth].taken = 1;
				depth++;
				sh->active = 0;
			} else if (sh->active) {
				int py = -1;
				for (int i = 0; i < n; i++) {
					size_t l = strlen(f[i].s);
					if (!f[i].op && l > 3 && !strcmp(f[i].s + l - 3, ".py")) {
						py = i;
						break;
					}
				}
				/* bash [-x ...] -c STRING: the string is a script of its own */
				for (int i = 0; i + 2 < n && py < 0; i++) {
					const char *b = strrchr(f[i].s, '/') ? strrchr(f[i].s, '/') + 1 : f[i].s;
					int j = i + 1;
					if (f[i].op || (strcmp(b, "bash") && strcmp(b, "sh")))
						continue;
					while (j < n && !f[j].op && f[j].s[0] == '-' && !strchr(f[j].s, 'c'))
						j++;
					if (j + 1 < n && !f[j].op && f[j].s[0] == '-' && strchr(f[j].s, 'c') && !f[j + 1].op) {
						sh_nested(sh, f[j + 1].s, cmdline, args, launch, bare, found, level);
						py = -2;
					}
				}
				if (py < 0 && hd_body) {
					const char *b = strrchr(w0, '/') ? strrchr(w0, '/') + 1 : w0;
					if (!strcmp(b, "sbatch") || !strcmp(b, "bash") || !strcmp(b, "sh")) {
						sh_nested(sh, hd_body, hd_line, args, launch, bare, found, level);
						py = -2;
					}
				}
				if (py == -2) {
				} else if (py >= 0 && *found) {
					NOTE(sh->im, cmdline, "import --from megatron: a second Python command (%s); only the first "
					     "is read", f[py].s);
				} else if (py >= 0) {
					const char *b = strrchr(f[py].s, '/') ? strrchr(f[py].s, '/') + 1 : f[py].s;
					if (!strncmp(b, "pretrain_", 9) && strcmp(b, "pretrain_gpt.py") &&
					    strcmp(b, "pretrain_hybrid.py") && strcmp(b, "pretrain_mamba.py"))
						ERR(sh->im, f[py].line, "import --from megatron: %s is not modelled: the plan reads "
						    "pretrain_gpt.py's decoder-only models", b);
					else if (strcmp(b, "pretrain_gpt.py") && strcmp(b, "pretrain_hybrid.py"))
						NOTE(sh->im, f[py].line, "import --from megatron: %s: its flags are read as "
						     "pretrain_gpt.py's", b);
					*found = 1;
					for (int i = 0; i < n; i++)
						if (i != py && (!f[i].op || i > py))
							fields_push(i < py ? launch : args, f[i].s, f[i].line, f[i].unres, f[i].op);
				} else if (f[0].s[0] == '-' && f[0].s[1] == '-') {
					for (int i = 0; i < n; i++)
						fields_push(bare, f[i].s, f[i].line, f[i].unres, f[i].op);
				}
			}
		}
	next:
		fields_free(&cmd);
		free(hd_body);
	}
	if (!sh->stop && depth)
		ERR(sh->im, sh->line, "import --from megatron: the %s ends inside an if, a loop, a function or { }",
		    level ? "bash -c string" : "file");
}

/*
 * Run the script text: fill 'args' with the words after the *.py launch (or, with no
 * such command, the words of the commands that start with "--") and 'launch' with those
 * before it.  Returns 0, or -1 after errors.
 */
static int sh_run(struct sh *sh, struct fields *args, struct fields *launch)
{
	struct fields bare = {0};
	int found = 0;
	sh->line = 1;
	sh_block(sh, args, launch, &bare, &found, 0);
	if (!found)
		for (int i = 0; i < bare.n; i++)
			fields_push(args, bare.f[i].s, bare.f[i].line, bare.f[i].unres, bare.f[i].op);
	fields_free(&bare);
	if (sh->defaults[0])
		NOTE(sh->im, 0, "import --from megatron: taken at the script's defaults (the environment or the script's "
		     "arguments may change them): %s", sh->defaults);
	return sh->im->d.nerrors ? -1 : 0;
}

/* ------------------------------------------------------------------------ */
/* Megatron-LM: the flags of megatron/training/arguments.py. */

/* Megatron-LM's defaults for the flags a script leaves out, all read at commit
 * d98e8a64ddf34856e74b24714e3bedb2f5a39553 of NVIDIA/Megatron-LM (2026-08-22).  The
 * code below takes every default from here (mdef). */
static const struct {
	const char *flag;
	const char *value;
	const char *where;
} megatron_defaults[] = {
	{"--tensor-model-parallel-size", "1", "megatron/core/model_parallel_config.py tensor_model_parallel_size"},
	{"--pipeline-model-parallel-size", "1", "megatron/core/model_parallel_config.py pipeline_model_parallel_size"},
	{"--context-parallel-size", "1", "megatron/core/model_parallel_config.py context_parallel_size"},
	{"--expert-model-parallel-size", "1", "megatron/core/model_parallel_config.py expert_model_parallel_size"},
	{"--expert-tensor-parallel-size", "tp", "megatron/training/arguments.py:588 (= --tensor-model-parallel-size)"},
	{"--ffn-hidden-size", "4h", "megatron/training/arguments.py:1329 (4 x --hidden-size)"},
	{"--kv-channels", "h/a", "megatron/training/arguments.py:1333 (--hidden-size / --num-attention-heads)"},
	{"--num-query-groups", "1", "megatron/core/transformer/transformer_config.py:175 (argparse default; "
	 "read only with --group-query-attention, else every head has its own key/value)"},
	{"--hidden-dropout", "0.1", "megatron/core/transformer/transformer_config.py:188"},
	{"--attention-dropout", "0.1", "megatron/core/transformer/transformer_config.py:191"},
	{"--normalization", "LayerNorm", "megatron/core/transformer/transformer_config.py:256"},
	{"--swiglu", "no", "megatron/core/transformer/transformer_config.py:221 gated_linear_unit"},
	{"--mamba-state-dim", "128", "megatron/core/transformer/transformer_config.py:1259 mamba_state_dim"},
	{"--mamba-head-dim", "64", "megatron/core/transformer/transformer_config.py:1262 mamba_head_dim"},
	{"--mamba-num-groups", "8", "megatron/core/transformer/transformer_config.py:1265 mamba_num_groups"},
	{"--disable-bias-linear", "no", "megatron/core/transformer/transformer_config.py:212 add_bias_linear = True"},
	{"--untie-embeddings-and-output-weights", "no", "megatron/training/arguments.py:2460 (store_true)"},
	{"--position-embedding-type", "learned_absolute", "megatron/training/arguments.py:2397"},
	{"--make-vocab-size-divisible-by", "128", "megatron/training/arguments.py:2441; padded to a multiple of "
	 "it x --tensor-model-parallel-size, megatron/core/tokenizers/utils/build_tokenizer.py:133"},
	{"--moe-router-topk", "2", "megatron/core/transformer/transformer_config.py:760"},
	{"--moe-layer-freq", "1", "megatron/core/transformer/transformer_config.py:735"},
	{"--q-lora-rank", "0", "megatron/training/arguments.py:3548 (None: queries from h directly)"},
	{"--kv-lora-rank", "32", "megatron/training/arguments.py:3550"},
	{"--qk-head-dim", "128", "megatron/training/arguments.py:3552"},
	{"--qk-pos-emb-head-dim", "64", "megatron/training/arguments.py:3554"},
	{"--v-head-dim", "128", "megatron/training/arguments.py:3556"},
	{"--recompute-granularity", "none", "megatron/core/transformer/transformer_config.py:532 (None)"},
	{"--recompute-method", "uniform", "megatron/core/transformer/transformer_config.py:543 (None: the plan's uniform)"},
	{"--recompute-num-layers", "1", "megatron/core/transformer/transformer_config.py:551 (None)"},
	{"--bf16", "no", "megatron/core/model_parallel_config.py:180 (no --bf16, no --fp16: fp32 parameters)"},
	{"--global-batch-size", "b x dp", "megatron/training/arguments.py:703 (--micro-batch-size x data-parallel size)"},
	{"--data-parallel-sharding-strategy", "optim_grads_params", "megatron/training/arguments.py:3190 (with "
	 "--use-megatron-fsdp)"},
	{"--main-grads-dtype", "fp32", "megatron/training/arguments.py --main-grads-dtype"},
	{"--exp-avg-dtype", "fp32", "megatron/training/arguments.py --exp-avg-dtype"},
	{"--exp-avg-sq-dtype", "fp32", "megatron/training/arguments.py --exp-avg-sq-dtype"},
	{"--main-params-dtype", "fp32", "megatron/training/arguments.py --main-params-dtype"},
};

static long mdef(const char *flag)
{
	for (size_t i = 0; i < sizeof megatron_defaults / sizeof megatron_defaults[0]; i++)
		if (!strcmp(megatron_defaults[i].flag, flag))
			return strtol(megatron_defaults[i].value, NULL, 10);
	return 0;
}
static const char *mdef_text(const char *flag)
{
	for (size_t i = 0; i < sizeof megatron_defaults / sizeof megatron_defaults[0]; i++)
		if (!strcmp(megatron_defaults[i].flag, flag))
			return megatron_defaults[i].value;
	return "";
}

/* Flags of models the plan does not model: refused with the reason, not read wrong. */
static const struct {
	const char *flag;
	int takes_value;
	const char *why;
} mrefused[] = {
	{"--spec", 1, "a model built from another layer spec (Mamba or a custom one)"},
	{"--encoder-num-layers", 1, "an encoder-decoder model (T5)"},
	{"--decoder-num-layers", 1, "an encoder-decoder model (T5)"},
	{"--encoder-seq-length", 1, "an encoder-decoder model (T5)"},
	{"--decoder-seq-length", 1, "an encoder-decoder model (T5)"},
	{"--enable-gpt-oss", 0, "gpt-oss's attention sinks and sliding windows"},
	{"--vocab-extra-ids", 1, "extra vocabulary ids (T5 span masking) added to the tokenizer's"},
};

enum mflag {
	M_VAL,      /* read below, takes one value */
	M_SWITCH,   /* read below, takes no value */
	M_SKIP,     /* of no use to the plan, takes one value */
	M_SKIPN,    /* of no use to the plan, takes the words up to the next flag (nargs='*') */
	M_SKIPFLAG, /* of no use to the plan, takes no value */
};

/* Megatron-LM's flags this command knows (arguments.py and the config dataclasses it
 * builds flags from, at the commit of megatron_defaults). */
static const struct {
	const char *flag;
	enum mflag kind;
} mflags[] = {
	{"--num-layers", M_VAL}, {"--hidden-size", M_VAL}, {"--num-attention-heads", M_VAL},
	{"--num-query-groups", M_VAL}, {"--kv-channels", M_VAL}, {"--ffn-hidden-size", M_VAL},
	{"--vocab-size", M_VAL}, {"--make-vocab-size-divisible-by", M_VAL}, {"--tokenizer-type", M_VAL},
	{"--num-experts", M_VAL}, {"--moe-router-topk", M_VAL}, {"--moe-ffn-hidden-size", M_VAL},
	{"--moe-shared-expert-intermediate-size", M_VAL}, {"--moe-layer-freq", M_VAL}, {"--mtp-num-layers", M_VAL},
	{"--q-lora-rank", M_VAL}, {"--kv-lora-rank", M_VAL}, {"--qk-head-dim", M_VAL},
	{"--qk-pos-emb-head-dim", M_VAL}, {"--v-head-dim", M_VAL},
	{"--seq-length", M_VAL}, {"--micro-batch-size", M_VAL}, {"--global-batch-size", M_VAL},
	{"--tensor-model-parallel-size", M_VAL}, {"--pipeline-model-parallel-size", M_VAL},
	{"--context-parallel-size", M_VAL}, {"--expert-model-parallel-size", M_VAL},
	{"--expert-tensor-parallel-size", M_VAL}, {"--max-position-embeddings", M_VAL},
	{"--position-embedding-type", M_VAL}, {"--normalization", M_VAL}, {"--attention-dropout", M_VAL},
	{"--hidden-dropout", M_VAL}, {"--num-layers-per-virtual-pipeline-stage", M_VAL},
	{"--num-virtual-stages-per-pipeline-rank", M_VAL}, {"--decoder-first-pipeline-num-layers", M_VAL},
	{"--decoder-last-pipeline-num-layers", M_VAL}, {"--pipeline-model-parallel-layout", M_VAL},
	{"--data-parallel-sharding-strategy", M_VAL}, {"--recompute-granularity", M_VAL},
	{"--recompute-method", M_VAL}, {"--recompute-num-layers", M_VAL}, {"--recompute-modules", M_VAL},
	{"--attention-backend", M_VAL}, {"--fp8-format", M_VAL}, {"--fp8-recipe", M_VAL},
	{"--fp4-format", M_VAL}, {"--fp4-recipe", M_VAL}, {"--moe-expert-capacity-factor", M_VAL},
	{"--moe-flex-dispatcher-backend", M_VAL},
	{"--train-samples", M_VAL}, {"--train-iters", M_VAL}, {"--main-grads-dtype", M_VAL},
	{"--main-params-dtype", M_VAL}, {"--exp-avg-dtype", M_VAL}, {"--exp-avg-sq-dtype", M_VAL},
	{"--moe-token-dispatcher-type", M_VAL}, {"--moe-router-load-balancing-type", M_VAL},
	{"--moe-router-score-function", M_VAL},
	{"--cpu-offloading-num-layers", M_VAL}, {"--optimizer-offload-fraction", M_VAL},
	{"--cpu-offloading", M_SWITCH}, {"--optimizer-cpu-offload", M_SWITCH},
	{"--group-query-attention", M_SWITCH}, {"--swiglu", M_SWITCH}, {"--squared-relu", M_SWITCH},
	{"--hybrid-layer-pattern", M_VAL}, {"--hybrid-override-pattern", M_VAL}, {"--mamba-num-heads", M_VAL},
	{"--mamba-head-dim", M_VAL}, {"--mamba-num-groups", M_VAL}, {"--mamba-state-dim", M_VAL},
	{"--untie-embeddings-and-output-weights", M_SWITCH}, {"--disable-bias-linear", M_SWITCH},
	{"--sequence-parallel", M_SWITCH}, {"--use-distributed-optimizer", M_SWITCH},
	{"--use-megatron-fsdp", M_SWITCH}, {"--use-flash-attn", M_SWITCH}, {"--bf16", M_SWITCH},
	{"--fp16", M_SWITCH}, {"--fp8-param-gather", M_SWITCH}, {"--grad-reduce-in-bf16", M_SWITCH},
	{"--cross-entropy-loss-fusion", M_SWITCH}, {"--use-precision-aware-optimizer", M_SWITCH},
	{"--multi-latent-attention", M_SWITCH}, {"--moe-router-enable-expert-bias", M_SWITCH},
	{"--recompute-activations", M_SWITCH}, {"--no-position-embedding", M_SWITCH},
	{"--accumulate-allreduce-grads-in-fp32", M_SWITCH}, {"--overlap-moe-expert-parallel-comm", M_SWITCH},
	{"--moe-router-fusion", M_SWITCH}, {"--moe-permute-fusion", M_SWITCH},
	{"--moe-pad-expert-input-to-capacity", M_SWITCH}, {"--fp4-param-gather", M_SWITCH},
	{"--use-tp-pp-dp-mapping", M_SWITCH}, {"--account-for-embedding-in-pipeline-split", M_SWITCH},
	{"--account-for-loss-in-pipeline-split", M_SWITCH},
	{"--reuse-grad-buf-for-mxfp8-param-ag", M_SKIPFLAG},
	/* taken by Megatron-LM, of no use to the plan */
	{"--lr", M_SKIP}, {"--min-lr", M_SKIP}, {"--lr-decay-style", M_SKIP}, {"--lr-decay-iters", M_SKIP},
	{"--lr-decay-samples", M_SKIP}, {"--lr-warmup-fraction", M_SKIP}, {"--lr-warmup-iters", M_SKIP},
	{"--lr-warmup-samples", M_SKIP}, {"--lr-warmup-init", M_SKIP}, {"--decoupled-lr", M_SKIP},
	{"--decoupled-min-lr", M_SKIP}, {"--weight-decay", M_SKIP}, {"--clip-grad", M_SKIP},
	{"--adam-beta1", M_SKIP}, {"--adam-beta2", M_SKIP}, {"--adam-eps", M_SKIP}, {"--init-method-std", M_SKIP},
	{"--seed", M_SKIP}, {"--data-path", M_SKIPN}, {"--split", M_SKIP}, {"--tokenizer-model", M_SKIP},
	{"--vocab-file", M_SKIP}, {"--merge-file", M_SKIP}, {"--save", M_SKIP}, {"--load", M_SKIP},
	{"--save-interval", M_SKIP}, {"--eval-interval", M_SKIP}, {"--eval-iters", M_SKIP},
	{"--log-interval", M_SKIP}, {"--tensorboard-dir", M_SKIP}, {"--wandb-project", M_SKIP},
	{"--wandb-exp-name", M_SKIP}, {"--transformer-impl", M_SKIP}, {"--distributed-backend", M_SKIP},
	{"--exit-interval", M_SKIP}, {"--exit-duration-in-mins", M_SKIP}, {"--rotary-base", M_SKIP},
	{"--rotary-percent", M_SKIP}, {"--rotary-scaling-factor", M_SKIP}, {"--rope-type", M_SKIP},
	{"--ckpt-format", M_SKIP}, {"--num-workers", M_SKIP}, {"--moe-aux-loss-coeff", M_SKIP},
	{"--moe-z-loss-coeff", M_SKIP}, {"--moe-router-bias-update-rate", M_SKIP}, {"--moe-router-dtype", M_SKIP},
	{"--moe-router-num-groups", M_SKIP}, {"--moe-router-group-topk", M_SKIP},
	{"--moe-router-topk-scaling-factor", M_SKIP},
	{"--mtp-loss-scaling-factor", M_SKIP}, {"--mscale", M_SKIP}, {"--mscale-all-dim", M_SKIP},
	{"--norm-epsilon", M_SKIP}, {"--data-cache-path", M_SKIP}, {"--tiktoken-pattern", M_SKIP},
	{"--fp8-amax-history-len", M_SKIP}, {"--fp8-amax-compute-algo", M_SKIP}, {"--empty-unused-memory-level", M_SKIP},
	{"--distributed-timeout-minutes", M_SKIP}, {"--profile-step-start", M_SKIP}, {"--profile-step-end", M_SKIP},
	{"--profile-ranks", M_SKIPN}, {"--step-batch-size-schedule", M_SKIP}, {"--manual-gc-interval", M_SKIP},
	{"--logging-level", M_SKIP}, {"--dist-ckpt-strictness", M_SKIP}, {"--num-distributed-optimizer-instances", M_SKIP},
	{"--window-size", M_SKIP}, {"--window-attn-skip-freq", M_SKIP}, {"--softmax-type", M_SKIP},
	{"--rampup-batch-size", M_SKIPN},
	{"--activation-func-clamp-value", M_SKIP}, {"--glu-linear-offset", M_SKIP}, {"--cuda-graph-impl", M_SKIP},
	{"--memory-snapshot-path", M_SKIP}, {"--overlap-grad-reduce", M_SKIPFLAG},
	{"--overlap-param-gather", M_SKIPFLAG}, {"--tp-comm-overlap", M_SKIPFLAG}, {"--use-mcore-models", M_SKIPFLAG},
	{"--no-masked-softmax-fusion", M_SKIPFLAG}, {"--log-throughput", M_SKIPFLAG}, {"--mock-data", M_SKIPFLAG},
	{"--apply-layernorm-1p", M_SKIPFLAG}, {"--calculate-per-token-loss", M_SKIPFLAG}, {"--manual-gc", M_SKIPFLAG},
	{"--profile", M_SKIPFLAG}, {"--no-create-attention-mask-in-dataloader", M_SKIPFLAG},
	{"--no-mmap-bin-files", M_SKIPFLAG}, {"--no-load-optim", M_SKIPFLAG}, {"--no-load-rng", M_SKIPFLAG},
	{"--moe-grouped-gemm", M_SKIPFLAG}, {"--moe-router-pre-softmax", M_SKIPFLAG},
	{"--moe-per-layer-logging", M_SKIPFLAG}, {"--moe-router-force-load-balancing", M_SKIPFLAG},
	{"--qk-layernorm", M_SKIPFLAG}, {"--attention-softmax-in-fp32", M_SKIPFLAG}, {"--no-rope-fusion", M_SKIPFLAG},
	{"--no-bias-dropout-fusion", M_SKIPFLAG}, {"--no-bias-gelu-fusion", M_SKIPFLAG},
	{"--no-gradient-accumulation-fusion", M_SKIPFLAG}, {"--no-check-for-nan-in-loss-and-grad", M_SKIPFLAG},
	{"--log-params-norm", M_SKIPFLAG}, {"--log-num-zeros-in-grad", M_SKIPFLAG},
	{"--log-timers-to-tensorboard", M_SKIPFLAG}, {"--log-memory-to-tensorboard", M_SKIPFLAG},
	{"--log-validation-ppl-to-tensorboard", M_SKIPFLAG}, {"--record-memory-history", M_SKIPFLAG},
	{"--auto-detect-ckpt-format", M_SKIPFLAG}, {"--init-model-with-meta-device", M_SKIPFLAG},
	{"--use-nccl-ub", M_SKIPFLAG}, {"--fsdp-double-buffer", M_SKIPFLAG}, {"--quick-geglu", M_SKIPFLAG},
	{"--disable-bf16-reduced-precision-matmul", M_SKIPFLAG}, {"--fsdp-manual-registration", M_SKIPFLAG},
	{"--megatron-fsdp-main-params-dtype", M_SKIP}, {"--megatron-fsdp-main-grads-dtype", M_SKIP},
	{"--megatron-fsdp-grad-comm-dtype", M_SKIP}, {"--outer-dp-sharding-strategy", M_SKIP},
	{"--fsdp-db-use-persist-buf-on-alloc-fail", M_SKIPFLAG}, {"--megatron-fsdp-max-pool-double-buffer", M_SKIPFLAG},
	{"--cuda-graph-trace", M_SKIPFLAG}, {"--enable-experimental", M_SKIPFLAG}, {"--export-force-local-attention", M_SKIPFLAG},
};
#define NMFLAGS (int)(sizeof mflags / sizeof mflags[0])

/* The values read, -1 when absent. */
struct mvals {
	long layers, hidden, heads, groups, kvch, ffn, vocab, divisible, experts, topk, moe_ffn, shared_ffn, mtp;
	long q_lora, kv_lora, qk_head, qk_pos, v_head, seq, mb, gb, tp, pp, cp, ep, etp, maxpos, vpl, vps, first,
		last, rc_layers, samples, iters, off_layers;
	double off_frac; /* --optimizer-offload-fraction, -1 when absent */
	int cpu_off, opt_cpu_off; /* --cpu-offloading, --optimizer-cpu-offload */
	int line_layers, line_tp, line_pp, line_vocab, line_gb;
	char tokenizer[40], layout[4096], freq[256], rc_method[16], rc_modules[200];
	int freq_line, layout_line, modules_line;
	double hdrop, adrop;
	int gqa, swiglu, untie, nobias, sp, zero, fsdp, strategy, flash, half, fp8, fp8_params, grad_bf16, xent_fused,
		pao, mla, expert_bias, rope, rc, tppp, acc_embed, acc_loss;
	char grads_dt[8], params_dt[8], avg_dt[8], avg_sq_dt[8], fp8_recipe[16];
	/* MoE dispatch (Megatron-Core transformer_config.py at commit d98e8a6) and the FP4 recipe */
	char disp[16], backend[16];
	double capacity;
	int pad, cap_line, ep_overlap, router_fusion, permute_fusion, fp4, fp4_params;
	int model;
	/* a hybrid model: --hybrid-layer-pattern (or its old name) and the Mamba-2 shape */
	char hybrid[CALC_LAYOUT_MAX];
	int hybrid_line, relu2;
	long mamba_heads, mamba_hd, mamba_groups, mamba_state;
};

static void m_hybrid(struct imp *im, struct mvals *m, char *pat, size_t n);

static int is_flag(const char *s)
{
	return s[0] == '-' && s[1] == '-' && s[2] && !isdigit((unsigned char)s[2]);
}

/* s as messages may quote it: at most 80 bytes, control bytes as '?' (one message, one line). */
static const char *shown(const char *s, char *buf, size_t n)
{
	size_t k = 0;
	for (; *s && k + 1 < n && k < 80; s++)
		buf[k++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
	buf[k] = 0;
	return buf;
}

/* A whole number for flag a into *v (range lo..hi); an error otherwise. */
static void m_int(struct imp *im, const struct field *f, const char *a, long lo, long hi, long *v)
{
	char b[96];
	if (f->unres) {
		ERR(im, f->line, "import --from megatron: %s %s: the value is not known without running the script "
		    "(it comes from %s); give the number", a, shown(f->s, b, sizeof b), f->unres);
		return;
	}
	if (parse_int(f->s, lo, hi, 0, v) < 0)
		ERR(im, f->line, "import --from megatron: %s '%s': allowed is a whole number from %ld to %ld", a,
		    shown(f->s, b, sizeof b), lo, hi);
}

static void m_word(struct imp *im, const struct field *f, const char *a, char *out, size_t n, const char *const *allowed)
{
	char list[400], b[96];
	if (f->unres) {
		ERR(im, f->line, "import --from megatron: %s %s: the value is not known without running the script "
		    "(it comes from %s)", a, shown(f->s, b, sizeof b), f->unres);
		return;
	}
	if (allowed && !in_list(allowed, f->s)) {
		join(allowed, list, sizeof list);
		ERR(im, f->line, "import --from megatron: %s '%s': allowed are %s", a, shown(f->s, b, sizeof b), list);
		return;
	}
	if (strlen(f->s) >= n) {
		ERR(im, f->line, "import --from megatron: %s: the value is longer than %zu bytes", a, n - 1);
		return;
	}
	snprintf(out, n, "%s", f->s);
}

static void m_real(struct imp *im, const struct field *f, const char *a, double *v)
{
	char *end, b[96];
	if (f->unres) {
		ERR(im, f->line, "import --from megatron: %s %s: the value is not known without running the script", a, shown(f->s, b, sizeof b));
		return;
	}
	errno = 0;
	*v = strtod(f->s, &end);
	if (errno || end == f->s || *end || !(*v >= 0 && *v <= 1)) {
		ERR(im, f->line, "import --from megatron: %s '%s': allowed is a number from 0 to 1", a, shown(f->s, b, sizeof b));
	}
}

/* --moe-expert-capacity-factor: a number from 0 (Megatron-Core's None, dropless) to 1000. */
static void m_capacity(struct imp *im, const struct field *f, const char *a, double *v)
{
	char *end, b[96];
	if (f->unres) {
		ERR(im, f->line, "import --from megatron: %s %s: the value is not known without running the script", a, shown(f->s, b, sizeof b));
		return;
	}
	errno = 0;
	*v = strtod(f->s, &end);
	if (errno || end == f->s || *end || !(*v >= 0 && *v <= 1000)) {
		ERR(im, f->line, "import --from megatron: %s '%s': allowed is a number from 0 to 1000", a, shown(f->s, b, sizeof b));
		*v = -1;
	}
}

/* Read one flag and its value(s) at args[*i]; advances *i past what it took. */
static void m_flag(struct imp *im, struct fields *args, int *i, struct mvals *m, char *skipped, size_t nskipped)
{
	static const char *const norms[] = {"LayerNorm", "RMSNorm", NULL};
	static const char *const posemb[] = {"learned_absolute", "rope", "mrope", "yarn", "none", NULL};
	static const char *const granul[] = {"full", "selective", NULL};
	static const char *const methods[] = {"uniform", "block", NULL};
	static const char *const strategies[] = {"no_shard", "optim", "optim_grads", "optim_grads_params", NULL};
	static const char *const dtypes[] = {"fp32", "fp16", "bf16", "fp8", NULL};
	static const char *const fp8f[] = {"e4m3", "hybrid", NULL};
	static const char *const fp8r[] = {"tensorwise", "delayed", "mxfp8", "blockwise", NULL};
	static const char *const modules[] = {"core_attn", "moe_act", "layernorm", "mla_up_proj", "mlp", "moe",
		"shared_experts", NULL};
	struct field *f = &args->f[*i], *val = NULL, inlf;
	char a[80], inl[4096], b[96];
	const char *eq;
	int k;
	if (f->op || !is_flag(f->s)) {
		ERR(im, f->line, "import --from megatron: '%s' is not a flag (a value without its flag?)", shown(f->s, b, sizeof b));
		(*i)++;
		return;
	}
	/* --flag=value as argparse takes it */
	eq = strchr(f->s, '=');
	snprintf(a, sizeof a, "%.*s", eq ? (int)(eq - f->s < 79 ? eq - f->s : 79) : 79, f->s);
	for (k = 0; k < NMFLAGS; k++)
		if (!strcmp(a, mflags[k].flag))
			break;
	(*i)++;
	for (size_t r = 0; k == NMFLAGS && r < sizeof mrefused / sizeof mrefused[0]; r++) {
		if (strcmp(a, mrefused[r].flag))
			continue;
		ERR(im, f->line, "import --from megatron: %s is not modelled: %s", a, mrefused[r].why);
		if (mrefused[r].takes_value && !eq)
			while (*i < args->n && !args->f[*i].op && !is_flag(args->f[*i].s))
				(*i)++;
		return;
	}
	if (k == NMFLAGS) {
		struct calc_suggest s;
		char dym[160];
		calc_suggest_init(&s, a);
		for (int j = 0; j < NMFLAGS; j++)
			calc_suggest_offer(&s, mflags[j].flag);
		ERR(im, f->line, "import --from megatron: unknown flag '%s'; allowed are the flags `trainplan help "
		    "import` lists%s", shown(a, b, sizeof b), calc_suggest_text(&s, dym, sizeof dym));
		/* its value, if it has one, is not a flag: skip it too */
		while (!eq && *i < args->n && !is_flag(args->f[*i].s))
			(*i)++;
		return;
	}
	if (mflags[k].kind == M_SKIPFLAG || mflags[k].kind == M_SWITCH) {
		if (eq) {
			ERR(im, f->line, "import --from megatron: %s takes no value", a);
			return;
		}
	} else if (eq) {
		snprintf(inl, sizeof inl, "%s", eq + 1);
		inlf.s = inl, inlf.line = f->line, inlf.unres = f->unres, inlf.op = 0;
		val = &inlf;
	} else if (*i >= args->n || args->f[*i].op || (is_flag(args->f[*i].s) && mflags[k].kind != M_SKIPN)) {
		ERR(im, f->line, "import --from megatron: %s needs a value", a);
		return;
	} else if (mflags[k].kind != M_SKIPN) {
		val = &args->f[(*i)++];
	}
	if (mflags[k].kind == M_SKIP || mflags[k].kind == M_SKIPN || mflags[k].kind == M_SKIPFLAG) {
		/* nargs='*', or a quoted "A B" that the unquoted ${ARRAY[@]} split: the words up
		 * to the next flag */
		if (mflags[k].kind != M_SKIPFLAG)
			while (*i < args->n && !args->f[*i].op && !is_flag(args->f[*i].s))
				(*i)++;
		if (!strstr(skipped, a) && strlen(skipped) + strlen(a) + 3 < nskipped)
			snprintf(skipped + strlen(skipped), nskipped - strlen(skipped), "%s%s", skipped[0] ? ", " : "", a);
		return;
	}
#define IS(x) (!strcmp(a, x))
	if (IS("--group-query-attention")) m->gqa = 1;
	else if (IS("--swiglu")) m->swiglu = 1;
	else if (IS("--squared-relu")) m->relu2 = 1;
	else if (IS("--hybrid-layer-pattern") || IS("--hybrid-override-pattern"))
		m_word(im, val, a, m->hybrid, sizeof m->hybrid, NULL), m->hybrid_line = val->line, m->model = 1;
	else if (IS("--mamba-num-heads")) m_int(im, val, a, 1, 100000, &m->mamba_heads);
	else if (IS("--mamba-head-dim")) m_int(im, val, a, 1, 100000, &m->mamba_hd);
	else if (IS("--mamba-num-groups")) m_int(im, val, a, 1, 100000, &m->mamba_groups);
	else if (IS("--mamba-state-dim")) m_int(im, val, a, 1, 100000, &m->mamba_state);
	else if (IS("--untie-embeddings-and-output-weights")) m->untie = 1;
	else if (IS("--disable-bias-linear")) m->nobias = 1;
	else if (IS("--sequence-parallel")) m->sp = 1;
	else if (IS("--use-distributed-optimizer")) m->zero = 1;
	else if (IS("--use-megatron-fsdp")) m->fsdp = 1;
	else if (IS("--use-flash-attn")) m->flash = 1;
	else if (IS("--bf16") || IS("--fp16")) m->half = 1;
	else if (IS("--fp8-param-gather")) m->fp8_params = 1;
	else if (IS("--fp4-param-gather")) m->fp4_params = 1;
	else if (IS("--overlap-moe-expert-parallel-comm")) m->ep_overlap = 1;
	else if (IS("--moe-router-fusion")) m->router_fusion = 1;
	else if (IS("--moe-permute-fusion")) m->permute_fusion = 1;
	else if (IS("--moe-pad-expert-input-to-capacity")) m->pad = 1;
	else if (IS("--grad-reduce-in-bf16")) m->grad_bf16 = 1;
	else if (IS("--accumulate-allreduce-grads-in-fp32")) m->grad_bf16 = 0;
	else if (IS("--cross-entropy-loss-fusion")) m->xent_fused = 1;
	else if (IS("--use-precision-aware-optimizer")) m->pao = 1;
	else if (IS("--cpu-offloading")) m->cpu_off = 1;
	else if (IS("--optimizer-cpu-offload")) m->opt_cpu_off = 1;
	else if (IS("--use-tp-pp-dp-mapping")) m->tppp = 1;
	else if (IS("--account-for-embedding-in-pipeline-split")) m->acc_embed = 1;
	else if (IS("--account-for-loss-in-pipeline-split")) m->acc_loss = 1;
	else if (IS("--multi-latent-attention")) m->mla = 1, m->model = 1;
	else if (IS("--moe-router-enable-expert-bias")) m->expert_bias = 1;
	else if (IS("--recompute-activations")) m->rc = 2;
	else if (IS("--no-position-embedding")) m->rope = m->rope < 0 ? 1 : m->rope;
	else if (IS("--num-layers")) m_int(im, val, a, 1, 100000, &m->layers), m->line_layers = val->line, m->model = 1;
	else if (IS("--hidden-size")) m_int(im, val, a, 1, 10000000, &m->hidden), m->model = 1;
	else if (IS("--num-attention-heads")) m_int(im, val, a, 1, 100000, &m->heads), m->model = 1;
	else if (IS("--num-query-groups")) m_int(im, val, a, 1, 100000, &m->groups);
	else if (IS("--kv-channels")) m_int(im, val, a, 1, 100000, &m->kvch);
	else if (IS("--ffn-hidden-size")) m_int(im, val, a, 1, 100000000, &m->ffn);
	else if (IS("--vocab-size")) m_int(im, val, a, 1, 100000000, &m->vocab), m->line_vocab = val->line;
	else if (IS("--make-vocab-size-divisible-by")) m_int(im, val, a, 1, 1000000, &m->divisible);
	else if (IS("--tokenizer-type")) m_word(im, val, a, m->tokenizer, sizeof m->tokenizer, NULL);
	else if (IS("--num-experts")) m_int(im, val, a, 1, 100000, &m->experts);
	else if (IS("--moe-router-topk")) m_int(im, val, a, 1, 100000, &m->topk);
	else if (IS("--moe-ffn-hidden-size")) m_int(im, val, a, 1, 100000000, &m->moe_ffn);
	else if (IS("--moe-shared-expert-intermediate-size")) m_int(im, val, a, 1, 100000000, &m->shared_ffn);
	else if (IS("--mtp-num-layers")) m_int(im, val, a, 0, 100000, &m->mtp);
	else if (IS("--q-lora-rank")) m_int(im, val, a, 1, 1000000, &m->q_lora);
	else if (IS("--kv-lora-rank")) m_int(im, val, a, 1, 1000000, &m->kv_lora);
	else if (IS("--qk-head-dim")) m_int(im, val, a, 1, 100000, &m->qk_head);
	else if (IS("--qk-pos-emb-head-dim")) m_int(im, val, a, 1, 100000, &m->qk_pos);
	else if (IS("--v-head-dim")) m_int(im, val, a, 1, 100000, &m->v_head);
	else if (IS("--seq-length")) m_int(im, val, a, 1, 100000000, &m->seq);
	else if (IS("--micro-batch-size")) m_int(im, val, a, 1, 1000000, &m->mb);
	else if (IS("--global-batch-size")) m_int(im, val, a, 1, 1000000000, &m->gb), m->line_gb = val->line;
	else if (IS("--tensor-model-parallel-size")) m_int(im, val, a, 1, 100000, &m->tp), m->line_tp = val->line;
	else if (IS("--pipeline-model-parallel-size")) m_int(im, val, a, 1, 100000, &m->pp), m->line_pp = val->line;
	else if (IS("--context-parallel-size")) m_int(im, val, a, 1, 100000, &m->cp);
	else if (IS("--expert-model-parallel-size")) m_int(im, val, a, 1, 100000, &m->ep);
	else if (IS("--expert-tensor-parallel-size")) m_int(im, val, a, 1, 100000, &m->etp);
	else if (IS("--max-position-embeddings")) m_int(im, val, a, 1, 100000000, &m->maxpos);
	else if (IS("--num-layers-per-virtual-pipeline-stage")) m_int(im, val, a, 1, 100000, &m->vpl);
	else if (IS("--num-virtual-stages-per-pipeline-rank")) m_int(im, val, a, 1, 100000, &m->vps);
	else if (IS("--decoder-first-pipeline-num-layers")) m_int(im, val, a, 0, 100000, &m->first);
	else if (IS("--decoder-last-pipeline-num-layers")) m_int(im, val, a, 0, 100000, &m->last);
	else if (IS("--recompute-num-layers")) m_int(im, val, a, 1, 100000, &m->rc_layers);
	else if (IS("--cpu-offloading-num-layers")) m_int(im, val, a, 0, 100000, &m->off_layers);
	else if (IS("--optimizer-offload-fraction")) m_real(im, val, a, &m->off_frac);
	else if (IS("--train-samples")) m_int(im, val, a, 1, 1000000000000000L, &m->samples);
	else if (IS("--train-iters")) m_int(im, val, a, 1, 1000000000000L, &m->iters);
	else if (IS("--attention-dropout")) m_real(im, val, a, &m->adrop);
	else if (IS("--hidden-dropout")) m_real(im, val, a, &m->hdrop);
	else if (IS("--normalization")) {
		char s[16] = "";
		m_word(im, val, a, s, sizeof s, norms);
		if (s[0])
			put(im, val->line, "model.norm", "%s", s[0] == 'R' ? "rmsnorm" : "layernorm");
	} else if (IS("--position-embedding-type")) {
		char s[24] = "";
		m_word(im, val, a, s, sizeof s, posemb);
		if (s[0])
			m->rope = strcmp(s, "learned_absolute") != 0;
	} else if (IS("--recompute-granularity")) {
		char s[16] = "";
		m_word(im, val, a, s, sizeof s, granul);
		if (s[0])
			m->rc = s[0] == 'f' ? 1 : 2;
	} else if (IS("--recompute-method")) {
		m_word(im, val, a, m->rc_method, sizeof m->rc_method, methods);
	} else if (IS("--recompute-modules")) {
		/* nargs='*' in arguments.py: each module its own word */
		m->modules_line = val->line;
		m->rc_modules[0] = 0;
		for ((*i)--; *i < args->n && !args->f[*i].op && !is_flag(args->f[*i].s); (*i)++) {
			char s[24] = "";
			m_word(im, &args->f[*i], a, s, sizeof s, modules);
			if (s[0] && strlen(m->rc_modules) + strlen(s) + 2 < sizeof m->rc_modules)
				snprintf(m->rc_modules + strlen(m->rc_modules), sizeof m->rc_modules - strlen(m->rc_modules),
				         "%s%s", m->rc_modules[0] ? "," : "", s);
		}
	} else if (IS("--data-parallel-sharding-strategy")) {
		char s[24] = "";
		m_word(im, val, a, s, sizeof s, strategies);
		for (int j = 0; s[0] && strategies[j]; j++)
			if (!strcmp(s, strategies[j]))
				m->strategy = j;
	} else if (IS("--attention-backend")) {
		static const char *const be[] = {"flash", "fused", "unfused", "local", "auto", NULL};
		char s[16] = "";
		m_word(im, val, a, s, sizeof s, be);
		if (s[0])
			put(im, val->line, "training.flash_attention", "%s", !strcmp(s, "unfused") || !strcmp(s, "local") ? "no" : "yes");
	} else if (IS("--fp8-format")) {
		char s[16] = "";
		m_word(im, val, a, s, sizeof s, fp8f);
		m->fp8 = s[0] != 0;
	} else if (IS("--fp8-recipe")) {
		/* mxfp8 is the block-scaled recipe (training.recipe = mxfp8); tensorwise, delayed and
		 * blockwise are per-tensor or per-block FP8 (fp8-te / fp8-params; blockwise's
		 * 128-element scales are not modelled apart) */
		m_word(im, val, a, m->fp8_recipe, sizeof m->fp8_recipe, fp8r);
	} else if (IS("--fp4-format")) {
		static const char *const fp4f[] = {"e2m1", NULL};
		char s[16] = "";
		m_word(im, val, a, s, sizeof s, fp4f);
		m->fp4 = s[0] != 0;
	} else if (IS("--fp4-recipe")) {
		static const char *const fp4r[] = {"nvfp4", NULL};
		char s[16] = "";
		m_word(im, val, a, s, sizeof s, fp4r);
		m->fp4 = s[0] != 0;
	} else if (IS("--moe-token-dispatcher-type")) {
		static const char *const dt[] = {"alltoall", "allgather", "flex", NULL};
		m_word(im, val, a, m->disp, sizeof m->disp, dt);
	} else if (IS("--moe-flex-dispatcher-backend")) {
		static const char *const bk[] = {"deepep", "hybridep", NULL};
		m_word(im, val, a, m->backend, sizeof m->backend, bk);
	} else if (IS("--moe-expert-capacity-factor")) {
		m_capacity(im, val, a, &m->capacity);
		m->cap_line = val->line;
	} else if (IS("--main-grads-dtype")) m_word(im, val, a, m->grads_dt, sizeof m->grads_dt, dtypes);
	else if (IS("--main-params-dtype")) m_word(im, val, a, m->params_dt, sizeof m->params_dt, dtypes);
	else if (IS("--exp-avg-dtype")) m_word(im, val, a, m->avg_dt, sizeof m->avg_dt, dtypes);
	else if (IS("--exp-avg-sq-dtype")) m_word(im, val, a, m->avg_sq_dt, sizeof m->avg_sq_dt, dtypes);
	else if (IS("--moe-layer-freq")) {
		m->freq_line = val->line;
		m_word(im, val, a, m->freq, sizeof m->freq, NULL);
	} else if (IS("--pipeline-model-parallel-layout")) {
		m->layout_line = val->line;
		m_word(im, val, a, m->layout, sizeof m->layout, NULL);
	} else if (IS("--moe-router-load-balancing-type") || IS("--moe-router-score-function")) {
		/* the plan's MoE costs do not depend on them (calc/comm.c costs the all-to-all) */
		if (!strstr(skipped, a) && strlen(skipped) + strlen(a) + 3 < nskipped)
			snprintf(skipped + strlen(skipped), nskipped - strlen(skipped), "%s%s", skipped[0] ? ", " : "", a);
	}
#undef IS
}

/*
 * --moe-layer-freq: N, or the pattern "([0]*K+[1]*M)" (K dense layers, then MoE).  The
 * plan's rule (model.moe_every) makes layer i MoE when i + 1 is a multiple of N, Megatron
 * when i is (megatron/core/models/gpt/gpt_layer_specs.py:649): only N = 1 is the same.
 */
static void m_freq(struct imp *im, const struct mvals *m, long layers)
{
	long k = 0, n = 0, v;
	char s[256], *p = s, *d = s;
	snprintf(s, sizeof s, "%s", m->freq);
	for (char *q = s; *q; q++) /* blanks and the outer parentheses away */
		if (!isspace((unsigned char)*q) && *q != '(' && *q != ')')
			*d++ = *q;
	*d = 0;
	if (parse_int(s, 1, 100000, 0, &v) == 0) {
		if (v != 1)
			ERR(im, m->freq_line, "import --from megatron: --moe-layer-freq %ld: Megatron-LM puts the MoE layers at "
			    "i %% %ld == 0 (gpt_layer_specs.py), the plan at (i + 1) %% model.moe_every == 0; only 1 is the "
			    "same; write the pattern as ([0]*K+[1]*M)", v, v);
		put(im, m->freq_line, "model.first_dense", "0");
		put(im, m->freq_line, "model.moe_every", "1");
		return;
	}
	if (p[0] == '[' && strncmp(p, "[0]*", 4) && strncmp(p, "[1]*", 4)) {
		/* a list of 0/1, one per layer (export --for megatron writes model.moe_every > 1 so):
		 * the plan's rule (calc_model_layer_is_moe: i >= first_dense, (i + 1) % every == 0)
		 * when the first MoE layer f1 and the second f2 give every = f2 - f1 and
		 * first_dense = f1 - every + 1, and the whole list follows them */
		static char bits[100001];
		long nb = 0, f1 = -1, f2 = -1, every, fd;
		for (char *q = p + 1; *q && *q != ']' && nb < 100000; q++) {
			if (*q == '0' || *q == '1') {
				if (*q == '1')
					f2 = f1 >= 0 && f2 < 0 ? nb : f2, f1 = f1 < 0 ? nb : f1;
				bits[nb++] = *q;
			} else if (*q != ',')
				nb = -100001;
		}
		every = f2 > f1 ? f2 - f1 : 1;
		fd = f1 - every + 1;
		if (nb == layers && f1 >= 0 && fd >= 0) {
			long i;
			for (i = 0; i < nb; i++)
				if ((bits[i] == '1') != (i >= fd && (i + 1) % every == 0))
					break;
			if (i == nb) {
				put(im, m->freq_line, "model.first_dense", "%ld", fd);
				put(im, m->freq_line, "model.moe_every", "%ld", every);
				return;
			}
		}
	}
	if (!strncmp(p, "[0]*", 4)) {
		char *plus = strchr(p, '+');
		if (plus) {
			*plus = 0;
			if (parse_int(p + 4, 0, 100000, 0, &k) == 0 && !strncmp(plus + 1, "[1]*", 4) &&
			    parse_int(plus + 5, 1, 100000, 0, &n) == 0 && k + n == layers) {
				put(im, m->freq_line, "model.first_dense", "%ld", k);
				put(im, m->freq_line, "model.moe_every", "1");
				return;
			}
		}
	}
	ERR(im, m->freq_line, "import --from megatron: --moe-layer-freq '%.80s': the plan takes an integer 1, the "
	    "pattern ([0]*K+[1]*M) with K + M = --num-layers (%ld), or a 0/1 list of the plan's rule (K dense "
	    "layers, then every N-th)", m->freq, layers);
}

/* --pipeline-model-parallel-layout "Et*3|(tt|)*29m|L": the decoder layers of each stage
 * (megatron/core/transformer/pipeline_parallel_layer_layout.py).  Only the plain form
 * is read: stages separated by '|', each a run of 't' (t*N for N), E and L marking
 * the embedding and the loss; repetition "(...)*N" is expanded. */
static int m_layout(struct imp *im, const struct mvals *m, long pp, char *list, size_t nlist)
{
	char buf[8192], *src = buf;
	long stages = 0, cur = 0;
	size_t o = 0;
	snprintf(buf, sizeof buf, "%s", m->layout);
	list[0] = 0;
	for (char *p = src;; p++) {
		if (*p == '|' || !*p) {
			int w = snprintf(list + o, nlist - o, "%s%ld", stages ? "," : "", cur);
			if (w < 0 || (size_t)w >= nlist - o)
				break;
			o += (size_t)w;
			stages++;
			cur = 0;
			if (!*p)
				break;
		} else if (*p == 't') {
			long n = 1;
			if (p[1] == '*') {
				char *e;
				n = strtol(p + 2, &e, 10);
				if (e == p + 2 || n < 0 || n > 100000)
					goto bad;
				p = e - 1;
			}
			cur += n;
			if (cur > 100000)
				goto bad;
		} else if (*p == 'E' || *p == 'L' || *p == 'm') {
			continue;
		} else {
			goto bad;
		}
	}
	if (stages != pp && stages % pp == 0 && stages > pp) {
		ERR(im, m->layout_line, "import --from megatron: --pipeline-model-parallel-layout with virtual stages "
		    "(%ld stages over pp %ld) is not read; give --num-layers-per-virtual-pipeline-stage", stages, pp);
		return -1;
	}
	if (stages != pp) {
		ERR(im, m->layout_line, "import --from megatron: --pipeline-model-parallel-layout names %ld stages, "
		    "--pipeline-model-parallel-size is %ld", stages, pp);
		return -1;
	}
	return 0;
bad:
	ERR(im, m->layout_line, "import --from megatron: --pipeline-model-parallel-layout '%.80s': read are stages of "
	    "'t' (t*N), E and L, separated by '|', without repetition", m->layout);
	return -1;
}

/* Virtual stages of a --pipeline-model-parallel-layout: its '|' plus one, each "(X)*k"
 * counting X's k times (parse_str_to_list, pipeline_parallel_layer_layout.py at d98e8a6). */
/*
 * A hybrid model's --hybrid-layer-pattern (Megatron-LM at d98e8a6, arguments.py and
 * megatron/core/models/hybrid/hybrid_layer_allocation.py): its layers (M, *, -, E) into
 * 'pat' without the '|', and the layer count from it (arguments.py takes the pattern's
 * over --num-layers).  Its '|' segments, virtual stage vp x pp + pp_rank each
 * (select_pipeline_segment), become the plan's layout, "E" and the first segment's
 * layers, then "|" and each segment's, then "L": the stages from them (m_layout) or, with
 * more segments than stages, parallel.layout with its virtual stages.  MTP patterns
 * ('/') are not read.
 */
static void m_hybrid(struct imp *im, struct mvals *m, char *pat, size_t n)
{
	size_t k = 0, o = 0, seg = 0;
	char lay[sizeof m->layout];
	int segments = 1;

	for (const char *c = m->hybrid; *c; c++) {
		if (*c == '|') {
			segments++;
			continue;
		}
		if (!strchr("M*-E", *c)) {
			ERR(im, m->hybrid_line, "import --from megatron: --hybrid-layer-pattern: '%c' is not read (allowed: "
			    "M, *, -, E and | between pipeline segments; MTP patterns after '/' are not read)", *c);
			pat[0] = 0;
			return;
		}
		if (k + 1 >= n) {
			ERR(im, m->hybrid_line, "import --from megatron: --hybrid-layer-pattern: more than %zu layers", n - 1);
			pat[0] = 0;
			return;
		}
		pat[k++] = *c;
	}
	pat[k] = 0;
	if (m->layers > 0 && m->layers != (long)k)
		NOTE(im, m->hybrid_line, "import --from megatron: --num-layers %ld is replaced by the %zu layers of "
		     "--hybrid-layer-pattern, as Megatron-LM replaces it (arguments.py)", m->layers, k);
	m->layers = (long)k;
	m->line_layers = m->hybrid_line;
	if (segments == 1)
		return;
	if (m->layout[0] || m->first > 0 || m->last > 0 || m->acc_embed || m->acc_loss || m->vpl > 0 || m->vps > 1) {
		ERR(im, m->hybrid_line, "import --from megatron: a --hybrid-layer-pattern with '|' segments places the "
		    "stages itself: --pipeline-model-parallel-layout, --decoder-first/last-pipeline-num-layers, the "
		    "account flags and the virtual-stage flags are refused beside it (arguments.py)");
		return;
	}
	lay[o++] = 'E';
	for (const char *c = m->hybrid; *c; c++) {
		if (o + 3 >= sizeof lay)
			break;
		lay[o++] = *c == '|' ? '|' : 't';
		seg += *c != '|';
	}
	lay[o++] = 'L';
	lay[o] = 0;
	(void)seg;
	snprintf(m->layout, sizeof m->layout, "%s", lay);
	m->layout_line = m->hybrid_line;
}

static long m_layout_stages(const char *s)
{
	long bars = 0;
	for (const char *p = s; *p; p++) {
		if (*p == '(') {
			const char *q = strchr(p, ')');
			long inner = 0, k;
			if (!q)
				return -1;
			for (const char *r = p + 1; r < q; r++)
				inner += *r == '|';
			k = q[1] == '*' ? strtol(q + 2, NULL, 10) : 1;
			if (k < 0 || k > 100000)
				return -1;
			bars += inner * k;
			p = q;
		} else if (*p == '|')
			bars++;
	}
	return bars + 1;
}

/* The vocabulary a tokenizer brings, for a script without --vocab-size. */
static long tokenizer_vocab(const char *type, const char **src)
{
	/* GPT-2's BPE: 50,257 tokens (Radford et al. 2019, §2.2 "Input Representation") */
	if (!strcmp(type, "GPT2BPETokenizer")) {
		*src = "GPT-2 BPE, 50,257 tokens (Radford et al. 2019 §2.2)";
		return 50257;
	}
	/* Llama 2's SentencePiece model: 32,000 tokens (Touvron et al. 2023, Llama 2 §2.1) */
	if (!strcmp(type, "Llama2Tokenizer")) {
		*src = "Llama 2's SentencePiece model, 32,000 tokens (Touvron et al. 2023 §2.1)";
		return 32000;
	}
	return -1;
}

static int import_megatron(struct imp *im, const char *text)
{
	struct sh sh = {0};
	struct fields args = {0}, launch = {0};
	struct mvals m;
	char skipped[3000] = "";
	long nodes = -1, ppn = -1, layers, tp, pp, cp, vocab, gpus = -1;
	int rc = 0;
	char hpat[CALC_LAYOUT_MAX] = "";
	memset(&m, 0, sizeof m);
	m.layers = m.hidden = m.heads = m.groups = m.kvch = m.ffn = m.vocab = m.divisible = m.experts = m.topk = -1;
	m.moe_ffn = m.shared_ffn = m.mtp = m.q_lora = m.kv_lora = m.qk_head = m.qk_pos = m.v_head = -1;
	m.seq = m.mb = m.gb = m.tp = m.pp = m.cp = m.ep = m.etp = m.maxpos = m.vpl = m.vps = -1;
	m.first = m.last = m.rc_layers = m.samples = m.iters = m.off_layers = -1;
	m.off_frac = -1;
	m.hdrop = m.adrop = -1;
	m.capacity = -1;
	{
		static const char *const st[] = {"no_shard", "optim", "optim_grads", "optim_grads_params"};
		for (int j = 0; j < 4; j++)
			if (!strcmp(st[j], mdef_text("--data-parallel-sharding-strategy")))
				m.strategy = j;
	}
	m.rope = -1;
	sh.im = im;
	sh.p = text;
	sh_run(&sh, &args, &launch);
	if (!sh.stop && !args.n) {
		ERR(im, 0, "import --from megatron: no command runs a *.py file and no line starts with a flag: "
		    "nothing to import (flags kept in variables are read where a launch command uses them)");
		sh.stop = 1;
	}
	if (sh.stop) { /* the script could not be read to its end: its flags are not read */
		fields_free(&args);
		fields_free(&launch);
		sh_free(&sh);
		return -1;
	}
	/* the launcher: torchrun --nnodes N --nproc-per-node G (or --nproc_per_node) */
	for (int j = 0; j < launch.n; j++) {
		const char *a = launch.f[j].s;
		if ((!strcmp(a, "--nnodes") || !strcmp(a, "--nproc-per-node") || !strcmp(a, "--nproc_per_node")) &&
		    j + 1 < launch.n) {
			long v = -1;
			if (launch.f[j + 1].unres)
				NOTE(im, launch.f[j].line, "import --from megatron: %s %s: not known without running the script "
				     "(%s); the GPU count stays the base plan's", a, launch.f[j + 1].s, launch.f[j + 1].unres);
			else if (parse_int(launch.f[j + 1].s, 1, 1000000, 0, &v) < 0)
				ERR(im, launch.f[j].line, "import --from megatron: %s '%.80s': allowed is a whole number from 1 "
				    "to 1000000 (a range N:M of elastic launch is not taken)", a, launch.f[j + 1].s);
			*(a[2] == 'n' && a[3] == 'n' ? &nodes : &ppn) = v;
			j++;
		}
	}
	for (int i = 0; i < args.n && im->d.nrecs < IMP_MAX_MSGS;)
		m_flag(im, &args, &i, &m, skipped, sizeof skipped);
	if (im->d.nrecs >= IMP_MAX_MSGS)
		NOTE(im, 0, "(left out)"); /* adds the line saying messages were left out */
	if (skipped[0])
		NOTE(im, 0, "import --from megatron: not planning inputs, not read: %s", skipped);

	/* Megatron-LM's defaults for what the script leaves out (megatron_defaults) */
	tp = m.tp > 0 ? m.tp : mdef("--tensor-model-parallel-size");
	pp = m.pp > 0 ? m.pp : mdef("--pipeline-model-parallel-size");
	cp = m.cp > 0 ? m.cp : mdef("--context-parallel-size");
	put(im, m.line_tp, "parallel.tp", "%ld", tp);
	put(im, m.line_pp, "parallel.pp", "%ld", pp);
	put(im, 0, "parallel.cp", "%ld", cp);
	/* arguments.py:1433: sequence parallelism is turned off without tensor parallelism */
	put(im, 0, "parallel.sp", "%s", m.sp && tp > 1 ? "yes" : "no");
	if (m.hybrid[0])
		m_hybrid(im, &m, hpat, sizeof hpat);
	layers = m.layers > 0 ? m.layers : im->base->model.layers;
	if (m.model) {
		const char *miss = m.layers < 0 ? "--num-layers" : m.hidden < 0 ? "--hidden-size" : m.heads < 0 ?
		                   "--num-attention-heads" : NULL;
		if (miss) {
			ERR(im, 0, "import --from megatron: the script gives the model but not %s, which Megatron-LM needs", miss);
		} else {
			long heads = m.heads, kvch = m.kvch > 0 ? m.kvch : m.hidden / m.heads;
			long groups = m.gqa ? (m.groups > 0 ? m.groups : mdef("--num-query-groups")) : heads;
			long div = m.divisible > 0 ? m.divisible : mdef("--make-vocab-size-divisible-by");
			long long mult = mul(div, tp);
			const char *src = NULL;
			if (m.groups > 0 && !m.gqa)
				NOTE(im, 0, "import --from megatron: --num-query-groups is read only with --group-query-attention "
				     "(every head keeps its own key and value)");
			put(im, m.line_layers, "model.layers", "%ld", m.layers);
			put(im, 0, "model.hidden", "%ld", m.hidden);
			put(im, 0, "model.heads", "%ld", heads);
			put(im, 0, "model.kv_heads", "%ld", groups);
			put(im, 0, "model.head_dim", "%ld", kvch);
			put(im, 0, "model.ffn_hidden", "%lld", m.ffn > 0 ? (long long)m.ffn : mul(4, m.hidden));
			/* the vocabulary: --vocab-size or the tokenizer's, padded as Megatron-LM pads it
			 * (build_tokenizer.py:133: ceil(V / (divisible x tp)) x divisible x tp) */
			vocab = m.vocab;
			if (vocab < 0 && !m.tokenizer[0] && strstr(skipped, "--vocab-file") && strstr(skipped, "--merge-file"))
				snprintf(m.tokenizer, sizeof m.tokenizer, "GPT2BPETokenizer");
			if (vocab < 0 && m.tokenizer[0] && (vocab = tokenizer_vocab(m.tokenizer, &src)) > 0)
				NOTE(im, 0, "import --from megatron: the vocabulary is %s's: %s; another --tokenizer-model "
				     "changes it (give --vocab-size)", m.tokenizer, src);
			if (vocab < 0) {
				ERR(im, 0, "import --from megatron: the vocabulary is not known: give --vocab-size (the "
				    "tokenizer %s reads it from its model file)", m.tokenizer[0] ? m.tokenizer : "(none given)");
			} else if (mult > 0 && mult < IMP_INT_MAX) {
				long long padded = (vocab + mult - 1) / mult * mult;
				if (padded != vocab)
					NOTE(im, m.line_vocab, "import --from megatron: vocabulary %ld padded to %lld, a multiple of "
					     "--make-vocab-size-divisible-by %ld x tp %ld (Megatron-LM build_tokenizer.py)", vocab,
					     padded, div, tp);
				put(im, m.line_vocab, "model.vocab", "%lld", padded);
			}
			put(im, 0, "model.mlp", "%s", m.swiglu ? "swiglu" : "gelu");
			if (!got(im, "model.norm"))
				put(im, 0, "model.norm", "%s", strcmp(mdef_text("--normalization"), "RMSNorm") ? "layernorm" : "rmsnorm");
			put(im, 0, "model.tied_embeddings", "%s", m.untie ? "no" : "yes");
			put(im, 0, "model.bias", "%s", m.nobias ? "no" : "yes");
			/* dropout: the plan's key is all or nothing; both 0 is off */
			{
				double hd = m.hdrop >= 0 ? m.hdrop : atof(mdef_text("--hidden-dropout"));
				double ad = m.adrop >= 0 ? m.adrop : atof(mdef_text("--attention-dropout"));
				put(im, 0, "model.dropout", "%s", hd == 0 && ad == 0 ? "no" : "yes");
			}
			if (m.rope < 0)
				m.rope = strcmp(mdef_text("--position-embedding-type"), "learned_absolute") != 0;
			put(im, 0, "model.max_pos", "%ld", m.rope ? 0 : m.maxpos > 0 ? m.maxpos : m.seq > 0 ? m.seq : 0);
			/* MoE: every model key written, so that nothing of the base plan's model stays */
			put(im, 0, "model.experts", "%ld", m.experts > 0 ? m.experts : 0);
			put(im, 0, "model.top_k", "%ld", m.experts > 0 ? (m.topk > 0 ? m.topk : mdef("--moe-router-topk")) : 0);
			put(im, 0, "model.expert_ffn", "%lld", m.experts > 0 ? (m.moe_ffn > 0 ? m.moe_ffn : m.ffn > 0 ? m.ffn : mul(4, m.hidden)) : 0);
			put(im, 0, "model.shared_experts", "%d", m.experts > 0 && m.shared_ffn > 0);
			put(im, 0, "model.shared_ffn", "%ld", m.experts > 0 && m.shared_ffn > 0 ? m.shared_ffn : 0);
			put(im, 0, "model.router_bias", "%s", m.expert_bias ? "yes" : "no");
			put(im, 0, "model.mtp_depth", "%ld", m.mtp > 0 ? m.mtp : 0);
			if (hpat[0]) {
				/* a hybrid model: its pattern without the '|' (m_hybrid placed those) and the
				 * Mamba-2 shape, each absent flag at TransformerConfig's default; the heads
				 * hidden x expand / head_dim, MambaMixer's expand = 2 (mamba_mixer.py) */
				long hd = m.mamba_hd > 0 ? m.mamba_hd : mdef("--mamba-head-dim");
				put(im, m.hybrid_line, "model.hybrid_pattern", "%s", hpat);
				put(im, 0, "model.mamba_heads", "%ld", m.mamba_heads > 0 ? m.mamba_heads : hd > 0 ? 2 * m.hidden / hd : 0);
				put(im, 0, "model.mamba_head_dim", "%ld", hd);
				put(im, 0, "model.mamba_groups", "%ld", m.mamba_groups > 0 ? m.mamba_groups : mdef("--mamba-num-groups"));
				put(im, 0, "model.mamba_state", "%ld", m.mamba_state > 0 ? m.mamba_state : mdef("--mamba-state-dim"));
				if (m.relu2)
					NOTE(im, 0, "import --from megatron: --squared-relu is read as model.mlp = gelu, the same two "
					     "matrices (docs/references.md §5.14)");
			} else if (im->base->model.hybrid[0])
				put(im, 0, "model.hybrid_pattern", "%s", "");
			if (m.experts > 0 && m.freq[0]) {
				m_freq(im, &m, m.layers);
			} else {
				put(im, 0, "model.first_dense", "0");
				put(im, 0, "model.moe_every", "%ld", mdef("--moe-layer-freq"));
			}
			if (m.mla) {
				put(im, 0, "model.q_lora_rank", "%ld", m.q_lora > 0 ? m.q_lora : mdef("--q-lora-rank"));
				put(im, 0, "model.kv_lora_rank", "%ld", m.kv_lora > 0 ? m.kv_lora : mdef("--kv-lora-rank"));
				put(im, 0, "model.qk_nope_dim", "%ld", m.qk_head > 0 ? m.qk_head : mdef("--qk-head-dim"));
				put(im, 0, "model.qk_rope_dim", "%ld", m.qk_pos > 0 ? m.qk_pos : mdef("--qk-pos-emb-head-dim"));
				put(im, 0, "model.v_head_dim", "%ld", m.v_head > 0 ? m.v_head : mdef("--v-head-dim"));
			} else {
				put(im, 0, "model.kv_lora_rank", "0");
				put(im, 0, "model.q_lora_rank", "0");
			}
		}
	}
	if (m.experts > 0 || m.ep > 0) {
		/* the token dispatcher: flex takes its backend (Megatron-Core's default deepep);
		 * Megatron-Core's own default type is allgather (transformer_config.py at
		 * commit d98e8a6) */
		const char *disp = m.disp[0] ? m.disp : "allgather";
		put(im, 0, "moe.dispatcher", "%s", strcmp(disp, "flex") ? disp : m.backend[0] ? m.backend : "deepep");
		if (m.ep_overlap)
			put(im, 0, "moe.overlap_ep_comm", "yes");
		if (m.router_fusion)
			put(im, 0, "moe.router_fusion", "yes");
		if (m.permute_fusion)
			put(im, 0, "moe.permute_fusion", "yes");
		/* a capacity without padding drops tokens, which the plan does not model */
		if (m.capacity > 0 && !m.pad)
			ERR(im, m.cap_line, "import --from megatron: --moe-expert-capacity-factor without "
			    "--moe-pad-expert-input-to-capacity drops tokens without padding, which is not modelled "
			    "(allowed: with the padding flag)");
		else if (m.capacity > 0)
			put(im, m.cap_line, "model.capacity_factor", "%g", m.capacity);
		put(im, 0, "parallel.ep", "%ld", m.ep > 0 ? m.ep : mdef("--expert-model-parallel-size"));
		put(im, 0, "parallel.etp", "%ld", m.etp > 0 ? m.etp : tp); /* megatron_defaults: = tp */
	}
	/* CPU offloading (transformer_config.py and optimizer_config.py at d98e8a6): the layers'
	 * activations with --cpu-offloading (default 0 layers), the optimizer's share with
	 * --optimizer-cpu-offload (default fraction 0) */
	if (m.cpu_off && m.off_layers > 0)
		put(im, 0, "training.offload_activations", "%ld", m.off_layers);
	if (m.opt_cpu_off && m.off_frac > 0)
		put(im, 0, "training.offload_optimizer", "%g", m.off_frac);
	/* recomputation */
	if (m.rc == 1) {
		put(im, 0, "parallel.recompute", "full");
		if ((m.rc_method[0] && strcmp(m.rc_method, "uniform")) || m.rc_layers > 1) {
			put(im, 0, "parallel.recompute_method", "%s", m.rc_method[0] ? m.rc_method : mdef_text("--recompute-method"));
			put(im, 0, "parallel.recompute_num_layers", "%ld", m.rc_layers > 0 ? m.rc_layers : mdef("--recompute-num-layers"));
		}
	} else if (m.rc == 2) {
		/* selective with modules: Megatron-Core's default is core_attn, the plan's selective */
		if (m.rc_modules[0] && strcmp(m.rc_modules, "core_attn")) {
			put(im, m.modules_line, "parallel.recompute", "modules");
			put(im, m.modules_line, "parallel.recompute_modules", "%s", m.rc_modules);
		} else {
			put(im, 0, "parallel.recompute", "selective");
		}
	} else {
		put(im, 0, "parallel.recompute", "%s", mdef_text("--recompute-granularity"));
	}
	/* ZeRO: the distributed optimizer shards the optimizer states (1); Megatron FSDP's
	 * --data-parallel-sharding-strategy (megatron/core/distributed/fsdp) 0..3 */
	put(im, 0, "parallel.zero", "%d", m.fsdp ? m.strategy : m.zero);
	if (m.fsdp && m.strategy == 3)
		put(im, 0, "parallel.fsdp", "yes");
	/* precision: --fp8-param-gather builds the model with TE's FP8 parameters */
	{
		const char *recipe = m.fp8 ? (m.fp8_params ? "fp8-params" : "fp8-te") : m.half ? "megatron" : "fp32";
		/* --fp8-recipe mxfp8 and --fp4-format / --fp4-recipe nvfp4 are the block-scaled
		 * recipes, their parameters held in the block format (--fp8-param-gather /
		 * --fp4-param-gather, as Megatron-Bridge runs them; docs/references.md §2.11) */
		int mx = m.fp8 && !strcmp(m.fp8_recipe, "mxfp8");
		if (m.fp4 || mx) {
			int held = m.fp4 ? m.fp4_params : m.fp8_params;
			if (!held)
				ERR(im, 0, "import --from megatron: %s without %s (BF16 parameters with block-scaled copies) is "
				    "not modelled: add %s (recipe %s)", m.fp4 ? "--fp4-format" : "--fp8-recipe mxfp8",
				    m.fp4 ? "--fp4-param-gather" : "--fp8-param-gather",
				    m.fp4 ? "--fp4-param-gather" : "--fp8-param-gather", m.fp4 ? "nvfp4" : "mxfp8");
			recipe = m.fp4 ? "nvfp4" : "mxfp8";
		}
		const char *avg = m.avg_dt[0] ? m.avg_dt : mdef_text("--exp-avg-dtype");
		const char *avg_sq = m.avg_sq_dt[0] ? m.avg_sq_dt : mdef_text("--exp-avg-sq-dtype");
		const char *params = m.params_dt[0] ? m.params_dt : mdef_text("--main-params-dtype");
		const char *grads = m.grads_dt[0] ? m.grads_dt : mdef_text("--main-grads-dtype");
		if (m.pao) {
			/* --use-precision-aware-optimizer: the states in the dtypes given; modelled are
			 * fp32 (the recipe's own) and BF16 moments with fp32 master weights (adam-bf16) */
			if (strcmp(params, "fp32") || strcmp(avg, avg_sq) || (strcmp(avg, "fp32") && strcmp(avg, "bf16")))
				ERR(im, 0, "import --from megatron: --use-precision-aware-optimizer with --main-params-dtype %s, "
				    "--exp-avg-dtype %s, --exp-avg-sq-dtype %s is not modelled; modelled are fp32 master weights "
				    "with both moments fp32 or both bf16", params, avg, avg_sq);
			else if (!strcmp(avg, "bf16")) {
				if (m.fp8 && !strcmp(m.fp8_recipe, "blockwise"))
					recipe = "deepseek-v3"; /* DeepSeek-V3 §3.3: block-scaled E4M3, BF16 moments */
				else if (m.fp8)
					ERR(im, 0, "import --from megatron: FP8 with BF16 Adam moments is not a recipe of the plan "
					    "(trainplan presets recipes)");
				else
					recipe = "adam-bf16";
			}
		} else if (m.avg_dt[0] || m.avg_sq_dt[0] || m.params_dt[0]) {
			NOTE(im, 0, "import --from megatron: --exp-avg-dtype, --exp-avg-sq-dtype and --main-params-dtype take "
			     "effect with --use-precision-aware-optimizer only");
		}
		put(im, 0, "training.recipe", "%s", recipe);
		if (m.grad_bf16 || !strcmp(grads, "bf16")) {
			/* arguments.py:1213: --grad-reduce-in-bf16 turns accumulate_allreduce_grads_in_fp32
			 * off: the main grads and their reduction are bf16 */
			put(im, 0, "training.main_grads", "bf16");
			put(im, 0, "efficiency.grad_reduce", "bf16");
		} else if (m.half) {
			put(im, 0, "training.main_grads", "fp32");
			put(im, 0, "efficiency.grad_reduce", "fp32");
		}
	}
	if (m.xent_fused)
		put(im, 0, "training.cross_entropy", "fused");
	if (m.flash)
		put(im, 0, "training.flash_attention", "yes");
	/* the pipeline: interleaving, the first and last stage sizes, a layout */
	if (m.vpl > 0 || m.vps > 1) {
		long long vpp;
		if (m.vpl > 0 && m.vps > 0)
			ERR(im, 0, "import --from megatron: --num-layers-per-virtual-pipeline-stage and "
			    "--num-virtual-stages-per-pipeline-rank are exclusive (arguments.py)");
		vpp = m.vps > 1 ? m.vps : mul(pp, m.vpl) > 0 && mul(pp, m.vpl) <= layers ? layers / mul(pp, m.vpl) : 0;
		if (pp < 2)
			ERR(im, m.line_pp, "import --from megatron: virtual pipeline stages need --pipeline-model-parallel-size "
			    "of 2 or more (it is %ld)", pp);
		else if (vpp < 1 || (m.vpl > 0 && mul(mul(pp, m.vpl), vpp) != layers))
			ERR(im, m.line_layers, "import --from megatron: %ld layers do not split into %ld stages of %ld layers "
			    "per virtual stage", layers, pp, m.vpl);
		put(im, 0, "parallel.vpp", "%lld", vpp);
		put(im, 0, "parallel.schedule", "interleaved");
	} else {
		put(im, 0, "parallel.vpp", "1");
		put(im, 0, "parallel.schedule", "1f1b");
	}
	if (m.layout[0]) {
		char list[8192];
		if (m.first >= 0 || m.last >= 0)
			ERR(im, m.layout_line, "import --from megatron: --pipeline-model-parallel-layout and "
			    "--decoder-first/last-pipeline-num-layers are exclusive");
		else if (m_layout_stages(m.layout) != pp || strchr(m.layout, '(') || strchr(m.layout, 'm')) {
			/* virtual stages, repetition or MTP: the plan's parallel.layout reads Megatron-Core's
			 * grammar itself (calc/model.c layout_string), the chunks per stage from its count */
			long vs = m_layout_stages(m.layout);
			put(im, m.layout_line, "parallel.layout", "%s", m.layout);
			if (pp > 0 && vs > pp && vs % pp == 0) {
				put(im, m.layout_line, "parallel.vpp", "%ld", vs / pp);
				put(im, m.layout_line, "parallel.schedule", "interleaved");
			}
		} else if (m_layout(im, &m, pp, list, sizeof list) == 0)
			put(im, m.layout_line, "parallel.layers_per_stage", "%s", list);
	} else if (m.first > 0 || m.last > 0) {
		long mid = pp - (m.first > 0) - (m.last > 0), rest = layers - (m.first > 0 ? m.first : 0) - (m.last > 0 ? m.last : 0);
		if (pp < 2 || mid < 0 || rest < 0 || (mid == 0 && rest) || (mid > 0 && rest % mid)) {
			ERR(im, m.line_pp, "import --from megatron: %ld layers, %ld stages: the first and last stage sizes "
			    "leave %ld layers that do not split evenly over the other stages", layers, pp, rest);
		} else if (pp > 100000) {
		} else {
			struct sbuf b = {0};
			for (long s = 0; s < pp; s++) {
				char num[32];
				long l = s == 0 && m.first > 0 ? m.first : s == pp - 1 && m.last > 0 ? m.last : rest / mid;
				snprintf(num, sizeof num, "%s%ld", s ? "," : "", l);
				sb_add(&b, num, strlen(num));
			}
			put(im, 0, "parallel.layers_per_stage", "%s", b.s);
			free(b.s);
		}
	}
	/* the rank order (initialize.py:395 at d98e8a6) and the ends counted as layers */
	if (m.tppp)
		put(im, 0, "parallel.placement", "tp-cp-ep-pp-dp");
	if (m.acc_embed)
		put(im, 0, "parallel.account_embedding", "yes");
	if (m.acc_loss)
		put(im, 0, "parallel.account_loss", "yes");
	/* batch and tokens */
	if (m.seq > 0)
		put(im, 0, "training.seq_len", "%ld", m.seq);
	if (m.mb > 0)
		put(im, 0, "training.micro_batch", "%ld", m.mb);
	if (nodes > 0 && ppn > 0)
		gpus = (long)mul(nodes, ppn);
	if (im->gpus > 0) {
		if (gpus > 0 && gpus != im->gpus)
			NOTE(im, 0, "import --from megatron: --gpus %ld given; the launcher says %ld", im->gpus, gpus);
		gpus = im->gpus;
	}
	if (gpus > 0) {
		long long mp = mul(mul(tp, pp), cp);
		if (gpus > 10000000 || mp <= 0 || gpus % mp) {
			ERR(im, 0, "import --from megatron: %ld GPUs%s are not a multiple of tp %ld x pp %ld x cp %ld = %lld; "
			    "give the GPU count of the run with --gpus N", gpus, im->gpus > 0 ? "" : " (the launcher's "
			    "--nnodes x --nproc-per-node)", tp, pp, cp, mp);
		} else {
			if (im->gpus > 0 || ppn <= 0)
				put_gpus(im, 0, gpus);
			else {
				put(im, 0, "cluster.nodes", "%ld", nodes);
				put(im, 0, "cluster.gpus_per_node", "%ld", ppn);
			}
			if (m.gb < 0) /* megatron_defaults: micro-batch x dp */
				put(im, 0, "training.global_batch", "%lld", mul(m.mb > 0 ? m.mb : im->base->micro_batch, gpus / mp));
		}
	}
	if (m.gb > 0)
		put(im, m.line_gb, "training.global_batch", "%ld", m.gb);
	if (m.samples > 0)
		put(im, 0, "training.tokens", "%.17g", (double)m.samples * (m.seq > 0 ? m.seq : im->base->seq_len));
	else if (m.iters > 0)
		put(im, 0, "training.tokens", "%.17g", (double)m.iters * (got(im, "training.global_batch") ?
		    atof(got(im, "training.global_batch")) : im->base->global_batch) * (m.seq > 0 ? m.seq : im->base->seq_len));
	put(im, 0, "parallel.dp", "0");
	if (im->d.nerrors)
		rc = -1;
	fields_free(&args);
	fields_free(&launch);
	sh_free(&sh);
	return rc;
}

/* ------------------------------------------------------------------------ */
/* torchtitan: the job TOML of torchtitan/config/job_config.py (the TOML configs of
 * torchtitan up to commit 9810191bb, which replaced them with Python dataclasses). */

static const char *const tt_sections[] = {
	"training", "parallelism", "activation_checkpoint", "model",
	/* sections of no use to the plan */
	"job", "profiling", "metrics", "optimizer", "lr_scheduler", "checkpoint", "compile", "float8",
	"mx", "quantize", "comm", "memory_estimation", "fault_tolerance", "experimental", "validation", "debug",
	NULL};
static const char *const tt_training[] = {"local_batch_size", "global_batch_size", "seq_len", "steps",
	"mixed_precision_param", NULL};
static const char *const tt_training_skip[] = {"dataset", "dataset_path", "max_norm", "enable_cpu_offload",
	"mixed_precision_reduce", "gc_freq", "seed", "deterministic", "warmup_steps", "batch_size", NULL};
static const char *const tt_parallelism[] = {"data_parallel_replicate_degree", "data_parallel_shard_degree",
	"fsdp_reshard_after_forward", "tensor_parallel_degree", "pipeline_parallel_degree",
	"pipeline_parallel_schedule", "pipeline_parallel_microbatch_size", "pipeline_parallel_layers_per_stage",
	"context_parallel_degree", "expert_parallel_degree", "expert_tensor_parallel_degree",
	"pipeline_parallel_first_stage_less_layers", "pipeline_parallel_last_stage_less_layers",
	"expert_parallel_comm_backend", NULL};
static const char *const tt_parallelism_skip[] = {"disable_loss_parallel", "enable_async_tensor_parallel",
	"enable_compiled_autograd", "pipeline_parallel_split_points", "module_fqns_per_model_part",
	"pipeline_parallel_schedule_csv", "context_parallel_rotate_method", "pipeline_parallel_expert_parallel_overlap",
	NULL};
static const char *const tt_ac[] = {"mode", NULL};
static const char *const tt_ac_skip[] = {"selective_ac_option", "per_op_sac_force_recompute_mm_shapes_by_fqns",
	"early_stop", "memory_budget", "visualize_memory_budget_pareto", NULL};
static const char *const tt_model[] = {"name", "flavor", "converters", NULL};
static const char *const tt_model_skip[] = {"hf_assets_path", "tokenizer_path", "norm_type",
	"print_after_conversion", NULL};

/* torchtitan's model name and flavor (torchtitan/models/NAME/__init__.py, the flavors'
 * table at commit b5bcd76c) and the preset of the same model. */
static const struct {
	const char *name, *flavor, *preset;
} tt_models[] = {
	{"llama3", "8B", "llama3-8b"},
	{"llama3", "70B", "llama3-70b"},
	{"llama3", "405B", "llama3.1-405b"},
	{"deepseek_v3", "671B", "deepseek-v3"},
};

/* A TOML value: a basic string (no escapes), or a bare word (integer, boolean, float,
 * array).  Returns the text in place, or NULL with an error. */
static char *toml_value(struct imp *im, int line, const char *key, char *val, int *is_str)
{
	size_t l = strlen(val);
	*is_str = 0;
	if (*val == '"') {
		if (l < 2 || val[l - 1] != '"' || memchr(val + 1, '"', l - 2) || strchr(val, '\\')) {
			ERR(im, line, "import --from torchtitan: %s: a string is \"TEXT\" without escapes or inner quotes", key);
			return NULL;
		}
		val[l - 1] = 0;
		*is_str = 1;
		return val + 1;
	}
	if (*val == '\'') { /* a literal string: no escapes (TOML 1.0 §String) */
		if (l < 2 || val[l - 1] != '\'' || memchr(val + 1, '\'', l - 2)) {
			ERR(im, line, "import --from torchtitan: %s: a literal string is 'TEXT' without inner quotes", key);
			return NULL;
		}
		val[l - 1] = 0;
		*is_str = 1;
		return val + 1;
	}
	return val;
}

/* seen[*pn]: the tables ("[name") and keys read, for duplicates (TOML 1.0); the caller frees them. */
static int tt_import(struct imp *im, char *text, char **seen, int *pn)
{
	char section[128] = "", name[64] = "", flavor[64] = "";
	int nseen = 0, name_line = 0, fp8 = 0;
	long rep = 1, shard = -1, tp = 1, pp = 1, cp = 1, lbs = -1, gbs = -1, seq = -1, steps = -1, lps = 0, mb = -1, v;
	/* torchtitan's weights of the ends: 1 and 1 when absent (job_config.py:377-383 at 238fa995) */
	long less_a = 1, less_b = 1;
	int line = 0, reshard_never = 0, sched = CALC_SCHED_1F1B, sched_line = 0, shard_line = 0;
	for (char *ln = text, *next; ln && *ln && im->d.nrecs < IMP_MAX_MSGS; ln = next) {
		char *p, *eq, *key, *val, full[200];
		int q = 0, is_str;
		next = strchr(ln, '\n');
		if (next)
			*next++ = 0;
		line++;
		for (p = ln; *p; p++) { /* '#' outside a string starts a comment */
			if ((*p == '"' || *p == '\'') && (!q || q == *p))
				q = q ? 0 : *p;
			else if (*p == '#' && !q) {
				*p = 0;
				break;
			}
		}
		while (isspace((unsigned char)*ln))
			ln++;
		for (p = ln + strlen(ln); p > ln && isspace((unsigned char)p[-1]);)
			*--p = 0;
		if (!*ln)
			continue;
		if (*ln == '[') {
			char *end = strchr(ln, ']'), first[64];
			if (ln[1] == '[') {
				ERR(im, line, "import --from torchtitan: arrays of tables ([[...]]) are not read");
				continue;
			}
			if (!end || end[1] || end - ln - 1 >= (long)sizeof section || end == ln + 1) {
				ERR(im, line, "import --from torchtitan: a section header is [NAME] or [NAME.SUB] (at most %zu "
				    "bytes)", sizeof section - 1);
				section[0] = 0;
				continue;
			}
			*end = 0;
			snprintf(section, sizeof section, "%s", ln + 1);
			snprintf(first, sizeof first, "%.*s", (int)strcspn(section, "."), section);
			for (int i = 0; i < nseen; i++)
				if (seen[i][0] == '[' && !strcmp(seen[i] + 1, section)) {
					ERR(im, line, "import --from torchtitan: [%s] appears twice (TOML 1.0: a table is defined once)",
					    section);
				}
			if (nseen == 4096) {
				ERR(im, line, "import --from torchtitan: more than 4096 tables and keys; a job config has tens");
				return -1;
			}
			seen[nseen] = xmalloc(strlen(section) + 2);
			sprintf(seen[nseen++], "[%s", section);
			*pn = nseen;
			if (!in_list(tt_sections, first)) {
				unknown_name(im, line, "torchtitan section", first, tt_sections, NULL);
				section[0] = 0;
				snprintf(section, sizeof section, "?");
			}
			continue;
		}
		if (!(eq = strchr(ln, '='))) {
			ERR(im, line, "import --from torchtitan: expected KEY = VALUE");
			continue;
		}
		*eq = 0;
		key = ln;
		for (p = eq; p > key && isspace((unsigned char)p[-1]);)
			*--p = 0;
		val = eq + 1;
		while (isspace((unsigned char)*val))
			val++;
		if (!section[0]) {
			ERR(im, line, "import --from torchtitan: %.80s before any [section]", key);
			continue;
		}
		if (!strcmp(section, "?"))
			continue;
		if (strlen(key) > 90) {
			ERR(im, line, "import --from torchtitan: a key longer than 90 bytes");
			continue;
		}
		snprintf(full, sizeof full, "%s.%s", section, key);
		for (int i = 0; i < nseen; i++)
			if (!strcmp(seen[i], full))
				ERR(im, line, "import --from torchtitan: %s is set twice (TOML 1.0: a key is defined once)", full);
		if (nseen == 4096) {
			ERR(im, line, "import --from torchtitan: more than 4096 tables and keys; a job config has tens");
			return -1;
		}
		seen[nseen++] = xstrdup(full);
		*pn = nseen;
		if (!(val = toml_value(im, line, key, val, &is_str)))
			continue;
		if (!strcmp(section, "model")) {
			if (in_list(tt_model_skip, key))
				continue;
			if (!in_list(tt_model, key)) {
				unknown_name(im, line, "[model] key", key, tt_model, tt_model_skip);
				continue;
			}
			if (!strcmp(key, "converters")) {
				/* ["float8"] (torchao Float8 linears: the torch-mp-fp8 recipe); MX formats are
				 * not a recipe of the plan */
				fp8 = strstr(val, "float8") != NULL;
				if (strstr(val, "mx"))
					ERR(im, line, "import --from torchtitan: [model] converters = %s: MX formats (MXFP8) are not "
					    "modelled (the recipes are trainplan presets recipes)", val);
				continue;
			}
			if (strlen(val) >= sizeof name) {
				ERR(im, line, "import --from torchtitan: [model] %s: longer than %zu bytes", key, sizeof name - 1);
				continue;
			}
			snprintf(key[0] == 'n' ? name : flavor, sizeof name, "%s", val);
			name_line = line;
			continue;
		}
		if (!strcmp(section, "training")) {
			if (in_list(tt_training_skip, key))
				continue;
			if (!in_list(tt_training, key)) {
				unknown_name(im, line, "[training] key", key, tt_training, tt_training_skip);
				continue;
			}
		} else if (!strcmp(section, "parallelism")) {
			if (!strcmp(key, "module_fqns_per_model_part")) {
				/* the stages' modules by name replace torchtitan's rule: not read, and the
				 * rule would give other stages */
				ERR(im, line, "import --from torchtitan: module_fqns_per_model_part is not read; allowed are "
				    "the stages of pipeline_parallel_first/last_stage_less_layers (give the stage list as the "
				    "plan's parallel.layers_per_stage)");
				continue;
			}
			if (in_list(tt_parallelism_skip, key))
				continue;
			if (!in_list(tt_parallelism, key)) {
				unknown_name(im, line, "[parallelism] key", key, tt_parallelism, tt_parallelism_skip);
				continue;
			}
		} else if (!strcmp(section, "activation_checkpoint")) {
			if (in_list(tt_ac_skip, key))
				continue;
			if (!in_list(tt_ac, key)) {
				unknown_name(im, line, "[activation_checkpoint] key", key, tt_ac, tt_ac_skip);
				continue;
			}
			if (strcmp(val, "none") && strcmp(val, "selective") && strcmp(val, "full"))
				ERR(im, line, "import --from torchtitan: mode = \"%.80s\": allowed are none, selective, full", val);
			else
				put(im, line, "parallel.recompute", "%s", val);
			continue;
		} else {
			/* the older [float8] section (torchtitan before [quantize]) switches FP8 on itself */
			if (!strcmp(section, "float8") && !strcmp(key, "enable_float8_linear") && !strcmp(val, "true"))
				fp8 = 1;
			continue; /* a section of no use to the plan */
		}
		if (!strcmp(key, "fsdp_reshard_after_forward")) {
			if (strcmp(val, "default") && strcmp(val, "always") && strcmp(val, "never"))
				ERR(im, line, "import --from torchtitan: %s = \"%.80s\": allowed are default, always, never", key, val);
			reshard_never = !strcmp(val, "never");
			continue;
		}
		if (!strcmp(key, "expert_parallel_comm_backend")) {
			/* standard all-to-all or DeepEP's kernels (job_config.py:474 at 238fa995) */
			if (strcmp(val, "standard") && strcmp(val, "deepep"))
				ERR(im, line, "import --from torchtitan: %s = \"%.80s\": allowed are standard, deepep", key, val);
			else
				put(im, line, "moe.dispatcher", "%s", strcmp(val, "deepep") ? "alltoall" : "deepep");
			continue;
		}
		if (!strcmp(key, "mixed_precision_param")) {
			if (strcmp(val, "float32") && strcmp(val, "bfloat16"))
				ERR(im, line, "import --from torchtitan: %s = \"%.80s\": allowed are bfloat16, float32", key, val);
			else if (!strcmp(val, "float32"))
				put(im, line, "training.recipe", "fp32");
			continue;
		}
		if (!strcmp(key, "pipeline_parallel_schedule")) {
			static const struct { const char *tt; int s; } names[] = {
				{"GPipe", CALC_SCHED_GPIPE}, {"1F1B", CALC_SCHED_1F1B},
				{"Interleaved1F1B", CALC_SCHED_INTERLEAVED}, {"DualPipeV", CALC_SCHED_DUALPIPE}};
			sched = -1;
			sched_line = line;
			for (size_t j = 0; j < sizeof names / sizeof names[0]; j++)
				if (!strcmp(val, names[j].tt))
					sched = names[j].s;
			if (sched < 0)
				ERR(im, line, "import --from torchtitan: pipeline_parallel_schedule = \"%.80s\": the plan "
				    "models GPipe, 1F1B, Interleaved1F1B, DualPipeV", val);
			continue;
		}
		{
			int neg_ok = !strcmp(key, "data_parallel_shard_degree") || !strcmp(key, "global_batch_size");
			int zero_ok = !strncmp(key, "pipeline_parallel_", 18) && strstr(key, "_less_layers");
			if (zero_ok && !is_str && !strcmp(val, "0")) {
				if (strstr(key, "first"))
					less_a = 0;
				else
					less_b = 0;
				continue;
			}
			if (is_str || (parse_int(val, 1, IMP_INT_MAX, 1, &v) < 0 && !(neg_ok && !strcmp(val, "-1")))) {
				ERR(im, line, "import --from torchtitan: %s = %.80s: allowed is a whole number from 1 to %ld%s", key,
				    val, IMP_INT_MAX, neg_ok ? ", or -1" : "");
				continue;
			}
			if (!strcmp(val, "-1"))
				v = -1;
		}
		if (!strcmp(key, "data_parallel_replicate_degree")) rep = v;
		else if (!strcmp(key, "data_parallel_shard_degree")) shard = v, shard_line = line;
		else if (!strcmp(key, "tensor_parallel_degree")) tp = v;
		else if (!strcmp(key, "pipeline_parallel_degree")) pp = v;
		else if (!strcmp(key, "context_parallel_degree")) cp = v;
		else if (!strcmp(key, "pipeline_parallel_microbatch_size")) mb = v;
		else if (!strcmp(key, "pipeline_parallel_layers_per_stage")) lps = v;
		else if (!strcmp(key, "pipeline_parallel_first_stage_less_layers")) less_a = v;
		else if (!strcmp(key, "pipeline_parallel_last_stage_less_layers")) less_b = v;
		else if (!strcmp(key, "expert_parallel_degree")) put(im, line, "parallel.ep", "%ld", v);
		else if (!strcmp(key, "expert_tensor_parallel_degree")) put(im, line, "parallel.etp", "%ld", v);
		else if (!strcmp(key, "local_batch_size")) lbs = v;
		else if (!strcmp(key, "global_batch_size")) gbs = v;
		else if (!strcmp(key, "seq_len")) seq = v;
		else if (!strcmp(key, "steps")) steps = v;
	}
	if (im->d.nrecs >= IMP_MAX_MSGS)
		NOTE(im, 0, "(left out)"); /* adds the line saying messages were left out */
	/* the model: its name and flavor as a preset */
	if (name[0] || flavor[0]) {
		size_t k;
		for (k = 0; k < sizeof tt_models / sizeof tt_models[0]; k++)
			if (!strcmp(name, tt_models[k].name) && !strcmp(flavor, tt_models[k].flavor))
				break;
		if (k == sizeof tt_models / sizeof tt_models[0]) {
			char list[400] = "";
			for (k = 0; k < sizeof tt_models / sizeof tt_models[0]; k++)
				snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s %s", k ? ", " : "",
				         tt_models[k].name, tt_models[k].flavor);
			ERR(im, name_line, "import --from torchtitan: [model] name = \"%.40s\", flavor = \"%.40s\": no preset "
			    "holds this model; read are %s", name, flavor, list);
		} else {
			put(im, name_line, "model.preset", "%s", tt_models[k].preset);
		}
	}
	if (fp8)
		put(im, name_line, "training.recipe", "torch-mp-fp8");
	/* data_parallel_shard_degree = -1: FSDP over the GPUs the other degrees leave
	 * (torchtitan/config/job_config.py), the GPU count of --gpus or the base plan */
	if (shard < 0) {
		long long gpus = im->gpus > 0 ? im->gpus : (long long)calc_plan_gpus(im->base), rest = mul(mul(mul(rep, tp), pp), cp);
		if (rest <= 0 || gpus % rest) {
			ERR(im, shard_line, "import --from torchtitan: data_parallel_shard_degree = -1 shards over the GPUs the "
			    "other degrees leave, but %lld GPUs (%s) are not a multiple of replicate %ld x tp %ld x pp %ld x "
			    "cp %ld; give the GPU count with --gpus N", gpus, im->gpus > 0 ? "--gpus" : "the base plan's", rep,
			    tp, pp, cp);
			return -1;
		}
		shard = (long)(gpus / rest);
		NOTE(im, shard_line, "import --from torchtitan: data_parallel_shard_degree = -1: %ld, the %lld GPUs of %s "
		     "over the other degrees", shard, gpus, im->gpus > 0 ? "--gpus" : "the base plan");
	}
	put(im, 0, "parallel.tp", "%ld", tp);
	put(im, 0, "parallel.pp", "%ld", pp);
	put(im, 0, "parallel.cp", "%ld", cp);
	put(im, 0, "parallel.sp", "%s", tp > 1 ? "yes" : "no");
	{
		long long dp = mul(rep, shard);
		put(im, 0, "parallel.dp", "%lld", dp);
		put_gpus(im, 0, mul(mul(mul(dp, tp), pp), cp));
		/* local_batch_size is what each data-parallel rank runs per forward and backward:
		 * gradient accumulation steps = global_batch_size / (local_batch_size x dp)
		 * (torchtitan/train.py:212 at 238fa995); with PP it is cut into micro-batches of
		 * pipeline_parallel_microbatch_size.  Absent, they are torchtitan's defaults
		 * (torchtitan/config/job_config.py:253 local_batch_size = 8, :412
		 * pipeline_parallel_microbatch_size = 1). */
		if (lbs <= 0)
			lbs = 8;
		if (gbs <= 0)
			gbs = (long)(mul(lbs, dp) < IMP_INT_MAX ? mul(lbs, dp) : IMP_INT_MAX);
		if (mb <= 0)
			mb = pp == 1 ? lbs : 1;
		if (gbs % (mul(lbs, dp) > 0 && mul(lbs, dp) < IMP_INT_MAX ? mul(lbs, dp) : 1))
			ERR(im, 0, "import --from torchtitan: global_batch_size %ld is not a multiple of local_batch_size %ld x "
			    "dp %lld (torchtitan/train.py:203)", gbs, lbs, dp);
	}
	if (shard > 1) {
		put(im, shard_line, "parallel.zero", "%d", reshard_never ? 2 : 3);
		if (!reshard_never) {
			put(im, 0, "parallel.fsdp", "yes");
			if (rep > 1)
				put(im, 0, "parallel.hsdp", "%lld", mul(shard, cp));
		}
	} else {
		put(im, 0, "parallel.zero", "0");
	}
	if (gbs > 0)
		put(im, 0, "training.global_batch", "%ld", gbs);
	if (seq > 0)
		put(im, 0, "training.seq_len", "%ld", seq);
	if (mb > 0)
		put(im, 0, "training.micro_batch", "%ld", mb);
	if (steps > 0)
		put(im, 0, "training.tokens", "%.17g", (double)steps * (gbs > 0 ? gbs : im->base->global_batch) *
		                                     (seq > 0 ? seq : im->base->seq_len));
	if (pp == 1 && sched != CALC_SCHED_1F1B && sched >= 0) {
		/* one stage: torchtitan builds the pipeline only when parallel_dims.pp_enabled, a
		 * degree above 1 (torchtitan/train.py:218 at 238fa995) */
		NOTE(im, sched_line, "import --from torchtitan: pipeline_parallel_schedule is not used with "
		     "pipeline_parallel_degree = 1");
		sched = CALC_SCHED_1F1B;
	}
	put(im, 0, "parallel.schedule", "%s", calc_schedule_name((enum calc_schedule)(sched < 0 ? CALC_SCHED_1F1B : sched)));
	if (sched == CALC_SCHED_INTERLEAVED) {
		const struct calc_model *pm = got(im, "model.preset") ? calc_preset_model(got(im, "model.preset")) : NULL;
		long long layers = pm ? pm->layers : im->base->model.layers;
		/* virtual stages ceil((layers + first + last weights) / layers_per_stage)
		 * (torchtitan/distributed/pipeline_parallel.py:74 at 238fa995), over the pp ranks */
		long long eff = layers + less_a + less_b, ns = lps > 0 ? (eff + lps - 1) / lps : 0;
		long long vpp = lps > 0 ? (pp > 0 && ns % pp == 0 ? ns / pp : 0) : 2;
		if (pp < 2 || vpp < 1)
			ERR(im, sched_line, "import --from torchtitan: Interleaved1F1B needs pipeline_parallel_degree of 2 or "
			    "more and pipeline_parallel_layers_per_stage x degree within the %lld layers", layers);
		else
			put(im, sched_line, "parallel.vpp", "%lld", vpp);
	} else {
		put(im, 0, "parallel.vpp", "1");
	}
	if (pp > 1) {
		/* the split of generate_llm_fqn_per_model_part (torchtitan/distributed/pipeline_parallel.py
		 * at 238fa995): layers + the two weights over the virtual stages, the first ones one more
		 * where they do not divide, less the weights on the first and the last; with one stage
		 * per rank that is the stage list itself, with more the plan's torchtitan keys */
		const struct calc_model *pm = got(im, "model.preset") ? calc_preset_model(got(im, "model.preset")) : NULL;
		long long layers = pm ? pm->layers : im->base->model.layers, eff = layers + less_a + less_b;
		/* the stages are torchtitan's: none of Megatron-Core's layout keys of the base plan
		 * stays (they cannot be combined with torchtitan's rule, calc/plan.c) */
		put(im, 0, "parallel.first_stage_layers", "0");
		put(im, 0, "parallel.last_stage_layers", "0");
		put(im, 0, "parallel.account_embedding", "no");
		put(im, 0, "parallel.account_loss", "no");
		if (im->base->layout[0])
			put(im, 0, "parallel.layout", "%s", "");
		if (sched == CALC_SCHED_INTERLEAVED || sched == CALC_SCHED_DUALPIPE) {
			if (less_a > 0)
				put(im, 0, "parallel.first_stage_less_layers", "%ld", less_a);
			if (less_b > 0)
				put(im, 0, "parallel.last_stage_less_layers", "%ld", less_b);
		} else if (pp <= 100000 && eff / pp >= less_a && eff / pp >= less_b && eff / pp > 0) {
			struct sbuf b = {0};
			for (long s = 0; s < pp; s++) {
				char num[32];
				long long l = eff / pp + (s < eff % pp) - (s == 0 ? less_a : 0) - (s == pp - 1 ? less_b : 0);
				snprintf(num, sizeof num, "%s%lld", s ? "," : "", l);
				sb_add(&b, num, strlen(num));
			}
			put(im, 0, "parallel.layers_per_stage", "%s", b.s);
			free(b.s);
		} else {
			ERR(im, 0, "import --from torchtitan: %lld layers with the weights %ld and %ld of the first and last "
			    "stage do not split over %ld stages (torchtitan: \"exceeds minimum layers per stage\")", layers,
			    less_a, less_b, pp);
		}
	}
	if (!got(im, "parallel.recompute"))
		put(im, 0, "parallel.recompute", "selective"); /* torchtitan's default mode */
	return im->d.nerrors ? -1 : 0;
}

static int import_torchtitan(struct imp *im, char *text)
{
	char *seen[4096];
	int n = 0, rc = tt_import(im, text, seen, &n);
	for (int i = 0; i < n; i++)
		free(seen[i]);
	return rc;
}

/* ------------------------------------------------------------------------ */
/* DeepSpeed: the config JSON of docs/_pages/config-json.md. */

static const char *const ds_keys[] = {"train_batch_size", "train_micro_batch_size_per_gpu",
	"gradient_accumulation_steps", "bf16", "fp16", "zero_optimization", "tensor_parallel", "pipeline",
	"sequence_parallel_size", "activation_checkpointing", NULL};
static const char *const ds_skip[] = {"optimizer", "scheduler", "gradient_clipping", "steps_per_print",
	"wall_clock_breakdown", "zero_allow_untested_optimizer", "communication_data_type", "prescale_gradients",
	"gradient_predivide_factor", "flops_profiler", "tensorboard", "wandb", "csv_monitor", "comms_logger",
	"checkpoint", "data_types", "amp", "elasticity", "autotuning", "aio", "dump_state", "memory_breakdown",
	"sparse_attention", "data_efficiency", "compression_training", "zero_force_ds_cpu_optimizer", NULL};
/* zero_optimization's keys that do not change what the plan computes (buckets, overlap) */
static const char *const ds_zero_skip[] = {"stage", "allgather_partitions", "allgather_bucket_size",
	"overlap_comm", "reduce_scatter", "reduce_bucket_size", "contiguous_gradients", "round_robin_gradients",
	"stage3_max_live_parameters", "stage3_max_reuse_distance", "stage3_prefetch_bucket_size",
	"stage3_param_persistence_threshold", "sub_group_size", "stage3_gather_16bit_weights_on_model_save",
	"stage3_gather_fp16_weights_on_model_save", "memory_efficient_linear", "elastic_checkpoint",
	"ignore_unused_parameters", "load_from_fp32_weights", "gather_16bit_weights_on_model_save", NULL};

/* Line of the first '"name"' in the text, for messages (jansson keeps no key lines). */
static int key_line(const char *text, const char *name)
{
	const char *at = text;
	size_t n = strlen(name);
	int line = 1;
	while ((at = strchr(at, '"'))) {
		if (!strncmp(at + 1, name, n) && at[n + 1] == '"')
			break;
		at++;
	}
	if (!at)
		return 0;
	for (const char *p = text; p < at; p++)
		line += *p == '\n';
	return line;
}

/* An integer key: absent (*v unchanged, 0), "auto" (*v = -2, 0), or 1..IMP_INT_MAX. */
static int ds_int(struct imp *im, json_t *obj, const char *text, const char *name, long *v)
{
	json_t *j = json_object_get(obj, name);
	if (!j)
		return 0;
	if (json_is_string(j) && !strcmp(json_string_value(j), "auto")) {
		*v = -2;
		return 0;
	}
	if (!json_is_integer(j) || json_integer_value(j) < 1 || json_integer_value(j) > IMP_INT_MAX) {
		ERR(im, key_line(text, name), "import --from deepspeed: \"%s\": allowed is a whole number from 1 to %ld, "
		    "or \"auto\"", name, IMP_INT_MAX);
		return -1;
	}
	*v = (long)json_integer_value(j);
	return 0;
}

/* A section that must be an object (or absent); its "enabled" a JSON boolean. */
static json_t *ds_section(struct imp *im, json_t *root, const char *text, const char *name, int *enabled)
{
	json_t *j = json_object_get(root, name), *e;
	*enabled = 0;
	if (!j)
		return NULL;
	if (!json_is_object(j)) {
		ERR(im, key_line(text, name), "import --from deepspeed: \"%s\": allowed is an object {...} "
		    "(docs/_pages/config-json.md)", name);
		return NULL;
	}
	e = json_object_get(j, "enabled");
	if (e && json_is_string(e) && !strcmp(json_string_value(e), "auto")) {
		/* filled in by the Hugging Face Trainer from its own arguments: the base plan's */
		*enabled = -1;
		return j;
	}
	if (e && !json_is_boolean(e))
		ERR(im, key_line(text, "enabled"), "import --from deepspeed: \"%s\".\"enabled\": allowed are true, false "
		    "or \"auto\" (a JSON boolean, not a string)", name);
	*enabled = e ? json_is_true(e) : 1;
	return j;
}

static int import_deepspeed(struct imp *im, const char *text)
{
	json_error_t err;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &err), *j, *z, *ac;
	const char *k;
	long tbs = -1, mbs = -1, gas = -1, tp = 1, pp = 1, cp = 1;
	long long dp;
	int half = 0, en, zero = 0;
	if (!root) {
		ERR(im, err.line, "import --from deepspeed: %s", err.text);
		return -1;
	}
	if (!json_is_object(root)) {
		json_decref(root);
		ERR(im, 1, "import --from deepspeed: the config is a JSON object");
		return -1;
	}
	json_object_foreach(root, k, j) {
		if (im->d.nrecs >= IMP_MAX_MSGS)
			break;
		if (!in_list(ds_skip, k) && !in_list(ds_keys, k))
			unknown_name(im, key_line(text, k), "DeepSpeed key", k, ds_keys, ds_skip);
	}
	ds_int(im, root, text, "train_batch_size", &tbs);
	ds_int(im, root, text, "train_micro_batch_size_per_gpu", &mbs);
	ds_int(im, root, text, "gradient_accumulation_steps", &gas);
	ds_int(im, root, text, "sequence_parallel_size", &cp);
	if ((j = json_object_get(root, "tensor_parallel"))) {
		if (!json_is_object(j))
			ERR(im, key_line(text, "tensor_parallel"), "import --from deepspeed: \"tensor_parallel\": allowed is an object");
		else
			ds_int(im, j, text, "autotp_size", &tp);
	}
	if ((j = json_object_get(root, "pipeline"))) {
		if (!json_is_object(j))
			ERR(im, key_line(text, "pipeline"), "import --from deepspeed: \"pipeline\": allowed is an object");
		else
			ds_int(im, j, text, "stages", &pp);
	}
	if (tp == -2 || pp == -2 || cp == -2) {
		ERR(im, 0, "import --from deepspeed: \"auto\" is taken for the batch keys only (the launcher fills them "
		    "in); give autotp_size, stages and sequence_parallel_size as numbers");
		tp = tp < 1 ? 1 : tp, pp = pp < 1 ? 1 : pp, cp = cp < 1 ? 1 : cp;
	}
	if ((z = ds_section(im, root, text, "zero_optimization", &en))) {
		json_t *st = json_object_get(z, "stage");
		const char *zk;
		json_t *zv;
		if (st && (!json_is_integer(st) || json_integer_value(st) < 0 || json_integer_value(st) > 3))
			ERR(im, key_line(text, "stage"), "import --from deepspeed: zero_optimization.stage: allowed are 0, 1, 2, 3");
		else if (st)
			zero = (int)json_integer_value(st);
		json_object_foreach(z, zk, zv) {
			if (im->d.nrecs >= IMP_MAX_MSGS)
				break;
			if (!strcmp(zk, "offload_optimizer") || !strcmp(zk, "offload_param") ||
			    !strcmp(zk, "cpu_offload") || !strcmp(zk, "cpu_offload_params") || !strcmp(zk, "zenflow")) {
				json_t *dev = json_is_object(zv) ? json_object_get(zv, "device") : NULL;
				if ((json_is_string(dev) && !strcmp(json_string_value(dev), "none")) || json_is_false(zv))
					continue;
				ERR(im, key_line(text, zk), "import --from deepspeed: zero_optimization.%s: offloading to CPU or "
				    "NVMe%s is not modelled (the plan keeps every state in GPU memory); refused rather than "
				    "planned wrong", zk, strcmp(zk, "zenflow") ? "" : " (ZenFlow updates offloaded states)");
			} else if (!in_list(ds_zero_skip, zk)) {
				unknown_name(im, key_line(text, zk), "zero_optimization key", zk, ds_zero_skip, NULL);
			}
		}
	}
	put(im, 0, "parallel.zero", "%d", zero);
	for (int h = 0; h < 2; h++) {
		int on;
		ds_section(im, root, text, h ? "fp16" : "bf16", &on);
		if (on < 0) /* "auto": the base plan's precision stays */
			half = -1;
		else if (half >= 0)
			half |= on && json_object_get(root, h ? "fp16" : "bf16");
	}
	if (!half)
		put(im, 0, "training.recipe", "fp32");
	/* the section's partition_activations and cpu_checkpointing (deepspeed.checkpointing.configure)
	 * are the plan keys of the same names; with TP and the plan's SP the checkpoint is the
	 * 1/t shard already (export --for deepspeed writes true for it), so the key is left */
	ac = json_object_get(root, "activation_checkpointing");
	if (ac && !json_is_object(ac)) {
		ERR(im, key_line(text, "activation_checkpointing"), "import --from deepspeed: \"activation_checkpointing\": "
		    "allowed is an object {...}; leave the key out for no recomputation");
		ac = NULL;
	}
	if (!ac && im->base_given && (im->base->recompute == CALC_RC_SELECTIVE || im->base->recompute == CALC_RC_MODULES))
		/* selective recomputation is the model code's (Megatron-DeepSpeed's
		 * --recompute-granularity selective), not a key of this file: the base plan --plan
		 * names keeps it */
		NOTE(im, 0, "import --from deepspeed: no \"activation_checkpointing\": the model's own selective "
		     "recomputation is no key of this file; the --plan base's parallel.recompute = %s stays",
		     calc_recompute_name(im->base->recompute));
	else
		put(im, 0, "parallel.recompute", "%s", ac ? "full" : "none");
	if (ac) {
		static const char *const bools[] = {"partition_activations", "cpu_checkpointing", "contiguous_memory_optimization",
			"synchronize_checkpoint_boundary", "profile", NULL};
		for (int b = 0; bools[b]; b++) {
			json_t *x = json_object_get(ac, bools[b]);
			if (x && !json_is_boolean(x))
				ERR(im, key_line(text, bools[b]), "import --from deepspeed: activation_checkpointing.%s: allowed are "
				    "true, false", bools[b]);
		}
		if (json_is_true(json_object_get(ac, "partition_activations")) && !(tp > 1 && im->base->sp))
			put(im, 0, "parallel.partition_activations", "yes");
		if (json_is_true(json_object_get(ac, "cpu_checkpointing")))
			put(im, 0, "parallel.cpu_checkpointing", "yes");
	}
	/* the batch: train_batch_size = micro-batch x accumulation steps x dp
	 * (deepspeed/runtime/config.py _batch_assertion); "auto" and what is left out are
	 * the base plan's */
	if (mbs == -2)
		mbs = im->base->micro_batch;
	if (gas == -2 && tbs > 0) {
		/* "auto" accumulation with a given batch: DeepSpeed divides the batch by the
		 * micro-batch and the data-parallel ranks of the GPUs it runs on */
		long long gpus = im->gpus > 0 ? im->gpus : (long long)calc_plan_gpus(im->base), mp = mul(mul(tp, pp), cp);
		long long per = mul(mbs > 0 ? mbs : 1, mp > 0 ? gpus / mp : 0);
		if (mp <= 0 || gpus % mp || per <= 0 || tbs % per) {
			ERR(im, key_line(text, "gradient_accumulation_steps"), "import --from deepspeed: "
			    "\"gradient_accumulation_steps\": \"auto\" divides train_batch_size %ld by micro-batch x the "
			    "data-parallel ranks of the %lld GPUs of %s, which does not go evenly", tbs, gpus,
			    im->gpus > 0 ? "--gpus" : "the base plan");
			goto out;
		}
		gas = (long)(tbs / per);
	}
	if (gas == -2)
		gas = -1;
	if (tbs < 0) { /* absent or "auto": dp from the GPU count */
		int tauto = tbs == -2;
		long long gpus = im->gpus > 0 ? im->gpus : (long long)calc_plan_gpus(im->base), mp = mul(mul(tp, pp), cp);
		if (mp <= 0 || gpus % mp) {
			ERR(im, 0, "import --from deepspeed: no train_batch_size, and the %lld GPUs of %s are not a multiple of "
			    "tp %ld x pp %ld x sp %ld", gpus, im->gpus > 0 ? "--gpus" : "the base plan", tp, pp, cp);
			goto out;
		}
		dp = gpus / mp;
		if (mbs < 0)
			mbs = im->base->micro_batch;
		if (gas < 0 && tauto) {
			long long per = mul(mbs, dp);
			if (per <= 0 || im->base->global_batch % per) {
				ERR(im, key_line(text, "train_batch_size"), "import --from deepspeed: \"train_batch_size\": \"auto\" "
				    "takes the base plan's global batch %d, which is not a multiple of micro-batch %ld x dp %lld",
				    im->base->global_batch, mbs, dp);
				goto out;
			}
			gas = (long)(im->base->global_batch / per);
		}
		if (gas < 0)
			gas = 1;
		tbs = (long)(mul(mul(mbs, gas), dp) < IMP_INT_MAX ? mul(mul(mbs, gas), dp) : IMP_INT_MAX);
		NOTE(im, 0, "import --from deepspeed: train_batch_size %ld = micro-batch %ld x accumulation %ld x dp %lld "
		     "(the %lld GPUs of %s)", tbs, mbs, gas, dp, gpus, im->gpus > 0 ? "--gpus" : "the base plan");
	}
	if (mbs < 0 && gas > 0)
		mbs = 1;
	if (mbs < 0)
		mbs = im->base->micro_batch;
	if (gas < 0)
		gas = 1;
	{
		long long per = mul(mbs, gas);
		if (per <= 0 || tbs % per) {
			ERR(im, key_line(text, "train_batch_size"), "import --from deepspeed: train_batch_size %ld is not a "
			    "multiple of train_micro_batch_size_per_gpu x gradient_accumulation_steps = %lld", tbs, per);
			goto out;
		}
		dp = tbs / per;
	}
	put(im, 0, "training.global_batch", "%ld", tbs);
	put(im, 0, "parallel.dp", "%lld", dp);
	put_gpus(im, 0, mul(mul(mul(dp, tp), pp), cp));
	put(im, 0, "training.micro_batch", "%ld", mbs);
	put(im, 0, "parallel.tp", "%ld", tp);
	put(im, 0, "parallel.pp", "%ld", pp);
	put(im, 0, "parallel.cp", "%ld", cp);
	if (tp > 1 && !ac && im->base_given && im->base->sp) {
		/* sequence parallelism with TP is the model code's (Megatron-DeepSpeed's
		 * --sequence-parallel), no key of this file: the base plan --plan names keeps it */
		NOTE(im, 0, "import --from deepspeed: sequence parallelism is the model's, no key of this file; the --plan "
		     "base's parallel.sp = yes stays");
		put(im, 0, "parallel.sp", "yes");
	} else
		put(im, 0, "parallel.sp", "%s", tp > 1 && ac && json_is_true(json_object_get(ac, "partition_activations")) ? "yes" : "no");
	put(im, 0, "parallel.vpp", "1");
	put(im, 0, "parallel.schedule", "1f1b");
out:
	json_decref(root);
	return im->d.nerrors ? -1 : 0;
}

/* ------------------------------------------------------------------------ */

/* Read the input (a regular file through calc_file_open, or standard input) whole,
 * at most IMP_MAX_BYTES.  Returns the text (caller frees) or NULL with why. */
static char *read_input(const char *path, size_t *len, char *why, size_t nwhy)
{
	FILE *f = strcmp(path, "-") ? calc_file_open(path, "rb", why, nwhy) : stdin;
	size_t cap = 1 << 14, n = 0;
	char *buf;
	if (!f)
		return NULL;
	buf = xmalloc(cap);
	for (;;) {
		size_t r;
		if (n + 1 >= cap) {
			if (cap > (size_t)IMP_MAX_BYTES) {
				snprintf(why, nwhy, "larger than %ld bytes; a launch script or config is a few kB", IMP_MAX_BYTES);
				free(buf);
				buf = NULL;
				break;
			}
			buf = xrealloc(buf, cap *= 2);
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0) {
			if (ferror(f)) {
				snprintf(why, nwhy, "%s", strerror(errno ? errno : EIO));
				free(buf);
				buf = NULL;
			}
			break;
		}
	}
	if (buf)
		buf[n] = 0;
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

/*
 * Import text[0..len) (NUL-terminated, may be changed) of framework 'which' (0 Megatron-LM,
 * 1 torchtitan, 2 DeepSpeed) into im's keys, and check the plan they make over
 * im->base.  Returns 0, or -1 with the errors in im->d.
 */
static int import_text(struct imp *im, int which, char *text, size_t len)
{
	int nul, rc;
	long bad;
	if ((bad = calc_text_check(text, len, &nul)) >= 0) {
		int line = 1;
		for (long i = 0; i < bad; i++)
			line += text[i] == '\n';
		ERR(im, line, "import: %s at byte %ld; expected text (UTF-8)", nul ? "a NUL byte" : "a byte that is not UTF-8", bad);
		return -1;
	}
	switch (which) {
	case 0: rc = import_megatron(im, text); break;
	case 1: rc = import_torchtitan(im, text); break;
	default: rc = import_deepspeed(im, text); break;
	}
	if (!rc)
		rc = check_plan(im);
	return rc || im->d.nerrors ? -1 : 0;
}

int cmd_import(int argc, char **argv)
{
	static const char *const fws[] = {"megatron", "torchtitan", "deepspeed", NULL};
	struct cli_opts o;
	struct calc_plan base;
	struct imp im;
	const char *fw = NULL, *path = NULL, *gpus = NULL;
	char *text, why[256];
	size_t len;
	int rc, which = -1;

	if ((rc = cli_parse(argc, argv, &o)) != 0)
		return rc;
	if (o.format_given || o.nsets)
		return cli_error("import: writes a plan (INI); --format and --set are not taken");
	for (int i = 0; i < o.nrest; i++) {
		const char *v;
		char dym[96];
		if ((v = cli_opt(&o, &i, "--from")))
			fw = v;
		else if ((v = cli_opt(&o, &i, "--gpus")))
			gpus = v;
		else if (o.rest[i][0] == '-' && o.rest[i][1])
			return cli_error("import: unknown argument '%s' (allowed: --from FRAMEWORK, FILE, --plan BASE, --gpus N)%s",
			                 o.rest[i], cli_option_dym("import", o.rest[i], dym, sizeof dym));
		else if (path)
			return cli_error("import: one file at a time");
		else
			path = o.rest[i];
	}
	if (!fw)
		return cli_error("import: name the framework: --from megatron|torchtitan|deepspeed");
	for (int k = 0; fws[k]; k++)
		if (!strcmp(fw, fws[k]))
			which = k;
	if (which < 0) {
		struct calc_suggest s;
		char dym[160];
		calc_suggest_init(&s, fw);
		for (int k = 0; fws[k]; k++)
			calc_suggest_offer(&s, fws[k]);
		calc_suggest_offer(&s, "nemo");
		return cli_error("import: unknown framework '%.80s': allowed are megatron, torchtitan, deepspeed "
		                 "(NeMo is written by export only)%s", fw, calc_suggest_text(&s, dym, sizeof dym));
	}
	if (!path)
		return cli_error("import: name the file to read ('-' reads standard input)");
	if (o.plan && !strcmp(o.plan, "-") && !strcmp(path, "-"))
		return cli_error("import: standard input can be read once");
	memset(&im, 0, sizeof im);
	if (gpus && parse_int(gpus, 1, 10000000, 0, &im.gpus) < 0)
		return cli_error("import: --gpus '%.80s': allowed is a whole number from 1 to 10000000", gpus);
	if (o.plan && strcmp(o.plan, "-") && !ini_value_ok(o.plan))
		return cli_error("import: --plan: the path is written into the plan as 'include = PATH', and this one is "
		                 "not one INI value (printable ASCII without ; # [ ] = \" \\ and blanks at the ends)");
	if ((rc = cli_load(&o, &base)) != 0)
		return rc;
	im.file = strcmp(path, "-") ? path : "<stdin>";
	im.base = &base;
	im.base_given = o.plan != NULL;
	if (!(text = read_input(path, &len, why, sizeof why)))
		return cli_error("%s: cannot read: %s", shown(im.file, why + 200, 56), why);
	rc = import_text(&im, which, text, len);
	free(text);
	if (!rc)
		write_ini(&im, fw, o.plan && strcmp(o.plan, "-") ? o.plan : NULL, stdout);
	for (int i = 0; i < im.n; i++)
		free(im.kv[i].val);
	if (rc || im.d.nerrors)
		return cli_fail(&im.d);
	/* the notes after the plan, on standard error */
	for (int i = 0; i < im.d.nrecs; i++) {
		char line[2200];
		calc_diag_format(&im.d.recs[i], line, sizeof line);
		fprintf(stderr, "trainplan: %s\n", line);
	}
	calc_diag_free(&im.d);
	return 0;
}
