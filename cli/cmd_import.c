/*
 * cmd_import.c -- `trainplan import --from megatron|torchtitan|deepspeed|nemo FILE`: the run
 * a user has, as a plan (INI on stdout), so planning starts from it.
 *
 *   trainplan import --from FRAMEWORK FILE|- [--plan BASE] [--gpus N]
 *
 * FILE is a Megatron-LM launch script as the framework ships them (bash: the script's
 * own assignments, `export`, arrays, `${VAR:-default}`, `if [[ ... ]]` on known values,
 * `bash -c STRING` and a here-document given to sbatch are followed; what cannot be
 * known without running it is said in a note), a
 * torchtitan job TOML or its --SECTION.KEY command-line overrides, a Python configuration
 * of current torchtitan (a config_registry.py function, read without running it as the TOML
 * it stands for: import_titan_py.c), a DeepSpeed config JSON, or NeMo 2 / Megatron-Bridge
 * ConfigContainer overrides (KEY=VALUE words or YAML, import_nemo).  The names read are those of
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
#include "import_titan_py.h"
#include "../calc/files.h"
#include "../calc/suggest.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <yaml.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The largest input read [B]: launch scripts and configs are a few kB. */
#define IMP_MAX_BYTES (4L << 20)
/* The largest integer a value may hold; every plan key's range lies below it, so
 * products of up to four such values fit a long long. */
#define IMP_INT_MAX 1000000000L
/* efficiency.dp_overlap where a framework's flag turns the overlap on and the base plan
 * hides nothing: the plan's default (calc/plan.c plan_reset), an assumption that no
 * source measures (docs/references.md §7.12) */
#define IMP_DP_OVERLAP_ASSUMED 0.8

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
	int nemo;                  /* 1: NeMo's keys read as Megatron-LM's flags: messages name the keys */
	const int *line_map;       /* a text read in place of the input: its line i is the input's line_map[i] */
	const char *gpus_from;     /* where gpus came from when not --gpus (NGPU=) */
	int nline_map;
	int no_vocab_pad;          /* 1: the vocabulary as given, unpadded (Megatron-Bridge's model.vocab_size) */
	const char *tt_config;     /* --config NAME: the torchtitan Python function */
	const char *tt_module;     /* --module NAME: its model family */
	char **tt_ovr;             /* the words after --: torchtitan's --SECTION.KEY VALUE overrides */
	int tt_novr;
	int errors_only;           /* 1: notes are not shown (a second reading after errors) */
};

static void imp_msg(struct imp *im, int line, enum calc_severity sev, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The messages one run shows: a file with thousands of unknown flags gets the first
 * ones and a line saying the rest were left out, and its reading stops early. */
#define IMP_MAX_MSGS 100

static void nemo_words_of(char *msg, size_t n);
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
	if (im->errors_only && sev != CALC_ERROR)
		return;
	if (im->line_map && line > 0)
		line = line < im->nline_map ? im->line_map[line] : 0;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (im->nemo)
		nemo_words_of(msg, sizeof msg);
	/* what a message quotes of the input keeps it one line and free of terminal controls */
	for (char *c = msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	if (sev == CALC_ERROR) /* every refusal of the file is one kind (calc/diag.c) */
		calc_error_id_at(&im->d, CALC_M_IMPORT, im->file, line, 0, "%s", msg);
	else
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
	static const char *const sections[] = {"cluster", "model", "training", "parallel", "moe", "efficiency"};
	fprintf(f, "; trainplan import --from %s ", fw);
	put_comment_text(f, im->file);
	if (im->tt_module)
		fputs(" --module ", f), put_comment_text(f, im->tt_module);
	if (im->tt_config)
		fputs(" --config ", f), put_comment_text(f, im->tt_config);
	if (im->tt_novr)
		fputs(" --", f);
	for (int i = 0; i < im->tt_novr; i++)
		fputc(' ', f), put_comment_text(f, im->tt_ovr[i]);
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
	{"--fine-grained-activation-offloading", M_SWITCH}, {"--offload-modules", M_VAL},
	{"--activation-offload-fraction", M_VAL},
	{"--group-query-attention", M_SWITCH}, {"--swiglu", M_SWITCH}, {"--squared-relu", M_SWITCH},
	{"--hybrid-layer-pattern", M_VAL}, {"--hybrid-override-pattern", M_VAL}, {"--mamba-num-heads", M_VAL},
	{"--mamba-head-dim", M_VAL}, {"--mamba-num-groups", M_VAL}, {"--mamba-state-dim", M_VAL},
	{"--linear-num-key-heads", M_VAL}, {"--linear-num-value-heads", M_VAL}, {"--linear-key-head-dim", M_VAL},
	{"--linear-value-head-dim", M_VAL}, {"--linear-conv-kernel-dim", M_VAL},
	{"--attention-output-gate", M_SWITCH}, {"--moe-shared-expert-gate", M_SWITCH},
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
	{"--overlap-grad-reduce", M_SWITCH}, {"--overlap-param-gather", M_SWITCH}, {"--tp-comm-overlap", M_SWITCH},
	{"--cp-comm-type", M_VAL}, {"--hierarchical-context-parallel-sizes", M_VAL},
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
	{"--rampup-batch-size", M_SKIPN}, {"--cuda-graph-modules", M_SKIPN}, {"--cuda-graph-scope", M_SKIPN},
	{"--activation-func-clamp-value", M_SKIP}, {"--glu-linear-offset", M_SKIP}, {"--cuda-graph-impl", M_VAL},
	{"--memory-snapshot-path", M_SKIP}, {"--tp-comm-overlap-cfg", M_SKIP},
	{"--defer-embedding-wgrad-compute", M_SWITCH}, {"--use-mcore-models", M_SKIPFLAG},
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
	int fg_off, off_mod_line; /* --fine-grained-activation-offloading (its line, -1 without
	                             one); --offload-modules' line */
	char off_modules[200];    /* --offload-modules, comma-separated */
	double off_act_frac;      /* --activation-offload-fraction, -1 when absent */
	int off_act_frac_line;
	int line_layers, line_tp, line_pp, line_vocab, line_gb;
	char tokenizer[40], layout[4096], freq[256], rc_method[16], rc_modules[200];
	int freq_line, layout_line, modules_line;
	double hdrop, adrop;
	int gqa, swiglu, untie, nobias, sp, zero, fsdp, strategy, flash, half, fp8, fp8_params, grad_bf16, xent_fused,
		pao, mla, expert_bias, rope, rc, tppp, acc_embed, acc_loss;
	char grads_dt[8], params_dt[8], avg_dt[8], avg_sq_dt[8], fp8_recipe[16];
	/* MoE dispatch (Megatron-Core transformer_config.py at commit d98e8a6) and the FP4 recipe */
	char disp[16], backend[16];
	char graphs[24]; /* --cuda-graph-impl (transformer_config.py cuda_graph_impl at d98e8a64) */
	double capacity;
	int pad, cap_line, ep_overlap, router_fusion, permute_fusion, fp4, fp4_params;
	int model;
	/* overlap (distributed_data_parallel_config.py overlap_grad_reduce, overlap_param_gather;
	 * model_parallel_config.py:265 tp_comm_overlap at d98e8a6) and CP's exchange
	 * (--cp-comm-type, --hierarchical-context-parallel-sizes: arguments.py:3221, :580) */
	int ogr, opg, tpo, cpc_line, hcp_line;
	char cpc[16];
	long hcp[2];
	int hcp_n;
	/* a hybrid model: --hybrid-layer-pattern (or its old name) and the Mamba-2 shape */
	char hybrid[CALC_LAYOUT_MAX];
	int hybrid_line, relu2;
	long mamba_heads, mamba_hd, mamba_groups, mamba_state;
	/* gated delta-net layers (G): --linear-num-key-heads, --linear-num-value-heads,
	 * --linear-key-head-dim, --linear-value-head-dim, --linear-conv-kernel-dim; gated
	 * attention and the shared experts' gate */
	long gdn[5];
	int attn_gate, shared_gate;
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
	else if (IS("--linear-num-key-heads")) m_int(im, val, a, 1, 100000, &m->gdn[0]);
	else if (IS("--linear-num-value-heads")) m_int(im, val, a, 1, 100000, &m->gdn[1]);
	else if (IS("--linear-key-head-dim")) m_int(im, val, a, 1, 100000, &m->gdn[2]);
	else if (IS("--linear-value-head-dim")) m_int(im, val, a, 1, 100000, &m->gdn[3]);
	else if (IS("--linear-conv-kernel-dim")) m_int(im, val, a, 1, 1024, &m->gdn[4]);
	else if (IS("--attention-output-gate")) m->attn_gate = 1;
	else if (IS("--moe-shared-expert-gate")) m->shared_gate = 1;
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
	else if (IS("--fine-grained-activation-offloading")) m->fg_off = f->line > 0 ? f->line : -1;
	else if (IS("--optimizer-cpu-offload")) m->opt_cpu_off = 1;
	else if (IS("--use-tp-pp-dp-mapping")) m->tppp = 1;
	else if (IS("--account-for-embedding-in-pipeline-split")) m->acc_embed = 1;
	else if (IS("--account-for-loss-in-pipeline-split")) m->acc_loss = 1;
	else if (IS("--overlap-grad-reduce")) m->ogr = f->line > 0 ? f->line : -1; /* -1: set, no line */
	else if (IS("--overlap-param-gather")) m->opg = f->line > 0 ? f->line : -1;
	else if (IS("--tp-comm-overlap")) m->tpo = f->line > 0 ? f->line : -1;
	else if (IS("--defer-embedding-wgrad-compute"))
		/* model_parallel_config.py:410 at d98e8a6: the output layer's weight-gradient GEMMs
		 * run in the pipeline flush, which the step model does not place apart */
		NOTE(im, f->line, "import --from megatron: --defer-embedding-wgrad-compute has no plan key (the output "
		     "layer's weight gradient is timed with its backward); not read");
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
	else if (IS("--activation-offload-fraction")) {
		m->off_act_frac_line = val->line;
		m_real(im, val, a, &m->off_act_frac);
	}
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
	} else if (IS("--offload-modules")) {
		/* a list argument of TransformerConfig.offload_modules (transformer_config.py at
		 * d98e8a6), each module its own word as --recompute-modules; the names the plan
		 * models (fused_group_mlp and gdp_qkv are refused by the word list) */
		static const char *const offm[] = {"attn_norm", "qkv_linear", "core_attn", "attn_proj", "mlp_norm",
			"expert_fc1", "moe_act", NULL};
		m->off_mod_line = val->line;
		m->off_modules[0] = 0;
		for ((*i)--; *i < args->n && !args->f[*i].op && !is_flag(args->f[*i].s); (*i)++) {
			char s[24] = "";
			m_word(im, &args->f[*i], a, s, sizeof s, offm);
			if (s[0] && strlen(m->off_modules) + strlen(s) + 2 < sizeof m->off_modules)
				snprintf(m->off_modules + strlen(m->off_modules), sizeof m->off_modules - strlen(m->off_modules),
				         "%s%s", m->off_modules[0] ? "," : "", s);
		}
	} else if (IS("--cp-comm-type")) {
		/* nargs='+': one type for all layers, or one per layer (arguments.py:3221); the
		 * names Transformer Engine takes (context_parallel.py:5096-5139 at d0067d0d): p2p,
		 * all_gather, a2a, a2a+p2p.  The plan has one exchange for every layer. */
		static const char *const ct[] = {"p2p", "all_gather", "a2a", "a2a+p2p", NULL};
		const struct field *w = val;
		int bad = 0;
		m->cpc_line = val->line;
		m->cpc[0] = 0;
		for (;;) {
			char s[16] = "";
			m_word(im, w, a, s, sizeof s, ct);
			if (s[0] && m->cpc[0] && strcmp(s, m->cpc) && !bad++)
				ERR(im, w->line, "import --from megatron: %s with %s and %s: a type per layer is not "
				    "modelled (parallel.cp_comm is one exchange for every layer; allowed: one type)", a, m->cpc, s);
			if (s[0] && !m->cpc[0])
				snprintf(m->cpc, sizeof m->cpc, "%s", s);
			if (eq || *i >= args->n || args->f[*i].op || is_flag(args->f[*i].s))
				break;
			w = &args->f[(*i)++];
		}
	} else if (IS("--hierarchical-context-parallel-sizes")) {
		/* nargs='+' ints whose product is the CP size (arguments.py:580); the plan's a2a+p2p
		 * takes two levels: the all-to-all group A, then cp / A ranks in a ring */
		const struct field *w = val;
		m->hcp_line = val->line;
		m->hcp_n = 0;
		for (;;) {
			long v = 0;
			m_int(im, w, a, 1, 100000, &v);
			if (m->hcp_n < 2)
				m->hcp[m->hcp_n] = v;
			m->hcp_n++;
			if (eq || *i >= args->n || args->f[*i].op || is_flag(args->f[*i].s))
				break;
			w = &args->f[(*i)++];
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
	} else if (IS("--cuda-graph-impl")) {
		static const char *const gi[] = {"none", "local", "transformer_engine", "full_iteration", NULL};
		m_word(im, val, a, m->graphs, sizeof m->graphs, gi);
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
		if (!strchr("MG*-E", *c)) {
			ERR(im, m->hybrid_line, "import --from megatron: --hybrid-layer-pattern: '%c' is not read (allowed: "
			    "M, G, *, -, E and | between pipeline segments; MTP patterns after '/' are not read)", *c);
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

/*
 * Megatron-LM's flags args (the words after the *.py command) and the launcher's words
 * launch as a plan: im's keys.  Also the reading of NeMo's overrides, turned into the
 * same flags (import_nemo).  Returns 0, or -1 with the errors in im->d.
 */
static int megatron_apply(struct imp *im, struct fields *argsp, struct fields *launchp)
{
	struct fields args = *argsp, launch = *launchp;
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
	m.off_act_frac = -1;
	m.hdrop = m.adrop = -1;
	m.capacity = -1;
	{
		static const char *const st[] = {"no_shard", "optim", "optim_grads", "optim_grads_params"};
		for (int j = 0; j < 4; j++)
			if (!strcmp(st[j], mdef_text("--data-parallel-sharding-strategy")))
				m.strategy = j;
	}
	m.rope = -1;
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
			long long mult = im->no_vocab_pad ? 1 : mul(div, tp);
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
			/* the gates: written when set here or in the base plan (nothing of its model stays) */
			if (m.shared_gate || im->base->model.moe.shared_gate)
				put(im, 0, "model.shared_gate", "%s", m.shared_gate ? "yes" : "no");
			if (m.attn_gate || im->base->model.attn_gate)
				put(im, 0, "model.attn_gate", "%s", m.attn_gate ? "yes" : "no");
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
				/* gated delta-net layers: their shape from the --linear-* flags, each one
				 * needed (no default of TransformerConfig is taken for them) */
				if (strchr(hpat, 'G')) {
					static const char *const fl[5] = {"--linear-num-key-heads", "--linear-num-value-heads",
					                                  "--linear-key-head-dim", "--linear-value-head-dim",
					                                  "--linear-conv-kernel-dim"};
					static const char *const key[5] = {"model.gdn_key_heads", "model.gdn_value_heads",
					                                   "model.gdn_key_dim", "model.gdn_value_dim", "model.gdn_conv"};
					char miss[160] = "";
					for (int i = 0; i < 5; i++) {
						if (m.gdn[i] <= 0)
							snprintf(miss + strlen(miss), sizeof miss - strlen(miss), "%s%s", miss[0] ? ", " : "",
							         fl[i]);
						else
							put(im, 0, key[i], "%ld", m.gdn[i]);
					}
					if (miss[0])
						ERR(im, m.hybrid_line, "import --from megatron: --hybrid-layer-pattern has gated "
						    "delta-net layers (G) but %s not given (allowed: each of the five --linear-* flags "
						    "with a positive integer)", miss);
				}
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
	/* CUDA graphs: per-layer ("local", "transformer_engine") leave a dropless MoE layer's
	 * experts uncaptured, "full_iteration" captures the step (docs/references.md §5.16) */
	if (m.graphs[0])
		put(im, 0, "training.cuda_graphs", "%s",
		    !strcmp(m.graphs, "full_iteration") ? "full" : !strcmp(m.graphs, "none") ? "none" : "partial");
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
	/* fine-grained activation offloading (transformer_config.py at d98e8a6): the modules
	 * count only with the switch, which asserts a non-empty list */
	if (m.fg_off && !m.off_modules[0])
		ERR(im, m.fg_off > 0 ? m.fg_off : 0, "import --from megatron: --fine-grained-activation-offloading without "
		    "--offload-modules offloads nothing and Megatron-Core refuses it (allowed: with --offload-modules)");
	else if (m.fg_off) {
		put(im, m.off_mod_line, "training.offload_modules", "%s", m.off_modules);
		if (m.off_act_frac >= 0 && m.off_act_frac != 1)
			put(im, m.off_act_frac_line, "training.offload_fraction", "%g", m.off_act_frac);
	}
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
	/* overlap of the DP and TP collectives: off in Megatron-LM unless the flags say so
	 * (distributed_data_parallel_config.py overlap_grad_reduce / overlap_param_gather = False,
	 * model_parallel_config.py:265 tp_comm_overlap = False at d98e8a6).  No source publishes
	 * the share a flag hides (docs/references.md §4.8, §7.12): with the flag the base plan's
	 * share stays, efficiency.dp_overlap's default assumption where the base has none. */
	{
		int zero = m.fsdp ? m.strategy : m.zero;
		double dpo = im->base->dp_overlap > 0 ? im->base->dp_overlap : IMP_DP_OVERLAP_ASSUMED;
		if (m.opg && !m.ogr)
			ERR(im, m.opg > 0 ? m.opg : 0, "import --from megatron: --overlap-param-gather without --overlap-grad-reduce, which "
			    "Megatron-LM refuses (arguments.py:1028; allowed: both flags, or --overlap-grad-reduce alone)");
		else if (m.opg && zero < 1)
			ERR(im, m.opg > 0 ? m.opg : 0, "import --from megatron: --overlap-param-gather without --use-distributed-optimizer or "
			    "--use-megatron-fsdp, which Megatron-LM refuses (arguments.py:1025)");
		if (m.ogr) {
			if (zero >= 1 && !m.opg)
				NOTE(im, m.ogr > 0 ? m.ogr : 0, "import --from megatron: --overlap-grad-reduce without --overlap-param-gather: "
				     "efficiency.dp_overlap hides the same share of the parameter all-gather as of the gradient "
				     "reduction (one key for both)");
			if (im->base->dp_overlap <= 0)
				NOTE(im, m.ogr > 0 ? m.ogr : 0, "import --from megatron: --overlap-grad-reduce: no source publishes the share "
				     "hidden; efficiency.dp_overlap = %g, the plan's default assumption", dpo);
			put(im, m.ogr > 0 ? m.ogr : 0, "efficiency.dp_overlap", "%g", dpo);
		} else {
			put(im, 0, "efficiency.dp_overlap", "0");
		}
		if (m.tpo && im->base->tp_overlap <= 0)
			NOTE(im, m.tpo > 0 ? m.tpo : 0, "import --from megatron: --tp-comm-overlap: no source publishes the share of the TP "
			     "collectives Transformer Engine's userbuffers hide; efficiency.tp_overlap stays 0 (set it "
			     "to count the overlap)");
		put(im, m.tpo > 0 ? m.tpo : 0, "efficiency.tp_overlap", "%g", m.tpo ? im->base->tp_overlap : 0);
	}
	/* CP's exchange: --cp-comm-type, default p2p (arguments.py:3221 at d98e8a6), a2a+p2p with
	 * its two levels --hierarchical-context-parallel-sizes A cp/A (arguments.py:580-585) */
	if (m.cpc[0] || m.hcp_n || cp > 1) {
		const char *t = m.cpc[0] ? m.cpc : "p2p";
		int line = m.cpc[0] ? m.cpc_line : 0;
		put(im, line, "parallel.cp_comm", "%s", !strcmp(t, "all_gather") ? "allgather" : t);
		put(im, line, "parallel.cp_a2a_size", "0");
		if (!strcmp(t, "a2a+p2p")) {
			if (!m.hcp_n)
				ERR(im, line, "import --from megatron: --cp-comm-type a2a+p2p needs "
				    "--hierarchical-context-parallel-sizes, as Megatron-LM does (arguments.py:584)");
			else if (m.hcp_n != 2 || mul(m.hcp[0], m.hcp[1]) != cp)
				ERR(im, m.hcp_line, "import --from megatron: --hierarchical-context-parallel-sizes: allowed are "
				    "two sizes, the all-to-all group and the ring, whose product is --context-parallel-size %ld "
				    "(arguments.py:582)", cp);
			else
				put(im, m.hcp_line, "parallel.cp_a2a_size", "%ld", m.hcp[0]);
		} else if (m.hcp_n) {
			NOTE(im, m.hcp_line, "import --from megatron: --hierarchical-context-parallel-sizes is read with "
			     "--cp-comm-type a2a+p2p only");
		}
	}
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
	return rc;
}

static int import_megatron(struct imp *im, const char *text)
{
	struct sh sh = {0};
	struct fields args = {0}, launch = {0};
	int rc = -1;
	sh.im = im;
	sh.p = text;
	sh_run(&sh, &args, &launch);
	if (!sh.stop && !args.n)
		ERR(im, 0, "import --from megatron: no command runs a *.py file and no line starts with a flag: "
		    "nothing to import (flags kept in variables are read where a launch command uses them)");
	else if (!sh.stop) /* else the script could not be read to its end: its flags are not read */
		rc = megatron_apply(im, &args, &launch);
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
static const char *const tt_ac[] = {"mode", "selective_ac_option", NULL};
static const char *const tt_ac_skip[] = {"per_op_sac_force_recompute_mm_shapes_by_fqns",
	"early_stop", "memory_budget", "visualize_memory_budget_pareto", NULL};
static const char *const tt_model[] = {"name", "flavor", "converters", NULL};
static const char *const tt_model_skip[] = {"hf_assets_path", "tokenizer_path", "norm_type",
	"print_after_conversion", NULL};

/* torchtitan's model name and flavor (torchtitan/models/NAME/__init__.py, the flavors'
 * table at commit b5bcd76c) and the preset of the same model. */
static const struct {
	const char *name, *flavor, *preset;
} tt_models[] = {
	/* torchtitan/models/llama3/__init__.py:148-188 at b5bcd76c (_1b; not at 238fa995): dim
	 * 2,048, 32 heads, 8 KV heads, 16 layers, vocabulary 128,256, tied (enable_weight_tying),
	 * FFN compute_ffn_hidden_dim(2048, multiple_of=1024, ffn_dim_multiplier=1.5) =
	 * 1024 * ceil(int(1.5 * int(16384 / 3)) / 1024) = 1024 * ceil(8191 / 1024) = 8,192
	 * (models/common/feed_forward.py:18-31): Llama 3.2 1B */
	{"llama3", "1B", "llama3.2-1b"},
	{"llama3", "8B", "llama3-8b"},
	{"llama3", "70B", "llama3-70b"},
	{"llama3", "405B", "llama3.1-405b"},
	{"deepseek_v3", "671B", "deepseek-v3"},
	/* torchtitan/models/qwen3/__init__.py:517-599 at b5bcd76c: 48 layers of 2,048 and 94 of
	 * 4,096, vocabulary 151,936, as the presets (Hugging Face's Qwen3 configs) */
	{"qwen3", "30B-A3B", "qwen3-30b-a3b"},
	{"qwen3", "235B-A22B", "qwen3-235b-a22b"},
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

/* ------------------------------------------------------------------------ */
/* NeMo 2 / Megatron-Bridge (NVIDIA-NeMo/Megatron-Bridge at commit 067f987d, 2026-08-22,
 * with the Megatron-LM it pins in 3rdparty/Megatron-LM, 2a75ac12): the overrides of a
 * ConfigContainer (src/megatron/bridge/training/config.py) that scripts/training/run_recipe.py
 * takes as KEY=VALUE words after --recipe NAME (Hydra's syntax, applied by
 * src/megatron/bridge/training/utils/omegaconf_utils.py parse_hydra_overrides), one per
 * line or as the command line, or the same sections as a YAML file (model:, train:,
 * optimizer:, ddp:, dataset:, dist:, mixed_precision:, as the recipes' override files and
 * ConfigContainer.to_yaml write them).  The ConfigContainer's model fields are
 * Megatron-Core's TransformerConfig and ModelParallelConfig fields, so each key read is
 * turned into the Megatron-LM flag of the same field and read by megatron_apply; what the
 * file leaves out is the recipe's, from nemo_defaults. */

/* The recipe whose defaults the table holds: vanilla_gpt (recipes/gpt/h100/vanilla_gpt.py,
 * exported also as vanilla_gpt_pretrain_config by recipes/gpt/vanilla_gpt.py), "a minimal
 * baseline that mirrors Megatron-LM pretrain_gpt.py defaults": a bare GPTModelProvider. */
static const char *const nemo_recipes[] = {"vanilla_gpt_pretrain_1gpu_h100_bf16_config", "vanilla_gpt_pretrain_config",
	NULL};

/* Recipes whose model is a Hugging Face config (AutoBridge.from_hf_pretrained) that a model
 * preset holds (presets.c, from the same published config): the preset, and the fields the
 * recipe sets over _pretrain_common (recipes/common.py:47-130, which the vanilla_gpt values
 * below match where read), from recipes/llama/h100/llama3.py at 067f987d.  The architecture
 * of such a recipe is the preset's: overriding it is refused. */
static const struct {
	const char *name, *preset, *source;
	const char *const set[40];
} nemo_hf_recipes[] = {
	/* recipes/llama/h100/llama3.py:44-142 at 067f987d: meta-llama/Llama-3.2-1B (:52, the
	 * preset's config), the sequence 8,192 (:62, :72), parallelism 1, 1, 1 without SP
	 * (:65-71), the batch :75-77, the loss fusion :98, no recompute :102, FP32 optimizer
	 * states :116-120, DDP :129-136, bf16_mixed from _pretrain_common; also exported as
	 * llama32_1b_pretrain_config (recipes/llama/llama3.py:92) */
	{"llama32_1b_pretrain_1gpu_h100_bf16_config", "llama3.2-1b", "recipes/llama/h100/llama3.py:44-142",
	 {"dataset.seq_length=8192", "model.seq_length=8192", "model.tensor_model_parallel_size=1",
	  "model.pipeline_model_parallel_size=1", "model.virtual_pipeline_model_parallel_size=null",
	  "model.context_parallel_size=1", "model.sequence_parallel=false", "train.train_iters=1168251",
	  "train.global_batch_size=512", "train.micro_batch_size=1", "model.cross_entropy_loss_fusion=true",
	  "model.recompute_granularity=null", "optimizer.use_precision_aware_optimizer=false",
	  "ddp.overlap_grad_reduce=true", "ddp.overlap_param_gather=true", "ddp.use_distributed_optimizer=true",
	  "ddp.grad_reduce_in_fp32=true", "mixed_precision=bf16_mixed", NULL}},
	{"llama3_8b_pretrain_2gpu_h100_bf16_config", "llama3-8b", "recipes/llama/h100/llama3.py:235-318",
	 {"dataset.seq_length=8192", "model.seq_length=8192", "model.tensor_model_parallel_size=1",
	  "model.pipeline_model_parallel_size=1", "model.context_parallel_size=2", "model.sequence_parallel=false",
	  "train.train_iters=1168251", "train.global_batch_size=512", "train.micro_batch_size=1",
	  "model.cross_entropy_loss_fusion=true", "ddp.overlap_grad_reduce=true", "ddp.overlap_param_gather=true",
	  "ddp.use_distributed_optimizer=true", "ddp.grad_reduce_in_fp32=true", "mixed_precision=bf16_mixed", NULL}},
	{"llama3_70b_pretrain_32gpu_h100_bf16_config", "llama3-70b", "recipes/llama/h100/llama3.py:717-808",
	 {"dataset.seq_length=8192", "model.seq_length=8192", "model.tensor_model_parallel_size=4",
	  "model.pipeline_model_parallel_size=4", "model.virtual_pipeline_model_parallel_size=5",
	  "model.context_parallel_size=2", "model.sequence_parallel=true", "train.train_iters=1168251",
	  "train.global_batch_size=512", "train.micro_batch_size=1", "model.cross_entropy_loss_fusion=true",
	  "ddp.overlap_grad_reduce=true", "ddp.overlap_param_gather=true", "ddp.use_distributed_optimizer=true",
	  "ddp.grad_reduce_in_fp32=true", "comm_overlap.tp_comm_overlap=true", "mixed_precision=bf16_mixed", NULL}},
	{"llama31_405b_pretrain_256gpu_h100_bf16_config", "llama3.1-405b", "recipes/llama/h100/llama3.py:1200-1295",
	 {"dataset.seq_length=131072", "model.seq_length=131072", "model.tensor_model_parallel_size=8",
	  "model.pipeline_model_parallel_size=8", "model.virtual_pipeline_model_parallel_size=2",
	  "model.context_parallel_size=4", "model.sequence_parallel=true",
	  "model.account_for_embedding_in_pipeline_split=true", "model.account_for_loss_in_pipeline_split=true",
	  "train.train_iters=1168251", "train.global_batch_size=512", "train.micro_batch_size=1",
	  "model.cross_entropy_loss_fusion=true", "ddp.overlap_grad_reduce=true", "ddp.overlap_param_gather=true",
	  "ddp.use_distributed_optimizer=true", "ddp.grad_reduce_in_fp32=true", "comm_overlap.tp_comm_overlap=true",
	  "mixed_precision=bf16_mixed", NULL}},
	/* recipes/deepseek/h100/deepseek_v3.py at 067f987d: the model AutoBridge builds from
	 * deepseek-ai/DeepSeek-V3 (:113, the preset's config), parallelism :125-134, MTP :137,
	 * the layout of (pp 16, vp 1) from _get_deepseek_v3_pipeline_layout (:52-58: the
	 * embedding and 4 layers, 14 stages of 4, 1 layer with the MTP module and the loss),
	 * HybridEP (:160) that apply_flex_dispatcher_backend turns into the flex dispatcher on
	 * H100 (training/flex_dispatcher_backend.py:70-80), the fusions :185-188, no recompute
	 * :198, BF16 mixed precision reducing in BF16 (:206-212, :247), the precision-aware
	 * optimizer with FP32 master weights and BF16 main gradients and moments (:221-225), the
	 * batch :164-166, DDP :242-245, no TP overlap :228; the sequence 4,096 (:134 and
	 * _pretrain_common's dataset, recipes/common.py:94). */
	{"deepseek_v3_pretrain_1024gpu_h100_bf16_config", "deepseek-v3", "recipes/deepseek/h100/deepseek_v3.py:105-269",
	 {"dataset.seq_length=4096", "model.seq_length=4096", "model.tensor_model_parallel_size=2",
	  "model.pipeline_model_parallel_size=16", "model.virtual_pipeline_model_parallel_size=null",
	  "model.pipeline_model_parallel_layout=Etttt|tttt|tttt|tttt|tttt|tttt|tttt|tttt|tttt|tttt|tttt|tttt|tttt|tttt|tttt|tmL",
	  "model.context_parallel_size=1", "model.expert_model_parallel_size=64", "model.expert_tensor_parallel_size=1",
	  "model.sequence_parallel=true", "model.mtp_num_layers=1", "model.moe_token_dispatcher_type=flex",
	  "model.moe_flex_dispatcher_backend=hybridep", "model.moe_router_fusion=false", "model.moe_permute_fusion=true",
	  "model.cross_entropy_loss_fusion=true", "model.recompute_granularity=null", "train.train_iters=1000000",
	  "train.global_batch_size=4096", "train.micro_batch_size=1", "mixed_precision.bf16=true",
	  "mixed_precision.grad_reduce_in_fp32=false", "optimizer.use_precision_aware_optimizer=true",
	  "optimizer.main_params_dtype=torch.float32", "optimizer.main_grads_dtype=torch.bfloat16",
	  "optimizer.exp_avg_dtype=torch.bfloat16", "optimizer.exp_avg_sq_dtype=torch.bfloat16",
	  "ddp.grad_reduce_in_fp32=false", "ddp.overlap_grad_reduce=true", "ddp.overlap_param_gather=true",
	  "ddp.use_distributed_optimizer=true", "comm_overlap.tp_comm_overlap=false", NULL}},
	/* recipes/qwen/h100/qwen3_moe.py at 067f987d: Qwen/Qwen3-30B-A3B (:40, the preset's
	 * config), parallelism :53-62, DeepEP (:68) as the flex dispatcher on H100
	 * (flex_dispatcher_backend.py:59-69), fusions :76-79, full uniform recomputation of 1
	 * layer :92-94, FP32 optimizer states :109-113, DDP :128-131; _pretrain_common's batch
	 * (32 sequences of micro-batch 2, 300,000 steps, recipes/common.py:64-67), sequence
	 * 4,096 (:94) and bf16_mixed (:131). */
	{"qwen3_30b_a3b_pretrain_8gpu_h100_bf16_config", "qwen3-30b-a3b", "recipes/qwen/h100/qwen3_moe.py:32-143",
	 {"dataset.seq_length=4096", "model.seq_length=4096", "model.tensor_model_parallel_size=4",
	  "model.pipeline_model_parallel_size=2", "model.virtual_pipeline_model_parallel_size=null",
	  "model.context_parallel_size=1", "model.expert_model_parallel_size=4", "model.expert_tensor_parallel_size=1",
	  "model.sequence_parallel=true", "model.moe_token_dispatcher_type=flex", "model.moe_flex_dispatcher_backend=deepep",
	  "model.moe_router_fusion=false", "model.moe_permute_fusion=true", "model.cross_entropy_loss_fusion=true",
	  "model.recompute_granularity=full", "model.recompute_method=uniform", "model.recompute_num_layers=1",
	  "train.train_iters=300000", "train.global_batch_size=32", "train.micro_batch_size=2",
	  "optimizer.use_precision_aware_optimizer=false", "ddp.grad_reduce_in_fp32=true", "ddp.overlap_grad_reduce=true",
	  "ddp.overlap_param_gather=true", "ddp.use_distributed_optimizer=true", "mixed_precision=bf16_mixed", NULL}},
};

/* Its values where Megatron-LM's own defaults (megatron_defaults) differ or the recipe sets
 * them; every other field is Megatron-Core's TransformerConfig default at 2a75ac12, the same
 * as megatron_defaults (tp, pp, cp 1, GeLU without gating, dropout 0.1, biases, no
 * recomputation, CP exchange p2p). */
static const struct {
	const char *key, *value, *source;
} nemo_defaults[] = {
	{"model.seq_length", "1024", "src/megatron/bridge/models/gpt_provider.py:160"},
	{"dataset.seq_length", "1024", "src/megatron/bridge/recipes/gpt/h100/vanilla_gpt.py:99"},
	{"train.train_iters", "300000", "recipes/gpt/h100/vanilla_gpt.py:80"},
	{"train.global_batch_size", "32", "recipes/gpt/h100/vanilla_gpt.py:81"},
	{"train.micro_batch_size", "2", "recipes/gpt/h100/vanilla_gpt.py:82"},
	{"ddp.grad_reduce_in_fp32", "true", "recipes/gpt/h100/vanilla_gpt.py:92"},
	{"ddp.overlap_grad_reduce", "false", "recipes/gpt/h100/vanilla_gpt.py:93"},
	{"ddp.overlap_param_gather", "false", "recipes/gpt/h100/vanilla_gpt.py:94"},
	{"ddp.use_distributed_optimizer", "false", "recipes/gpt/h100/vanilla_gpt.py:95"},
	{"optimizer.use_distributed_optimizer", "true", "recipes/utils/optimizer_utils.py:150 (either of the two "
	 "turns both on: training/config.py:2114)"},
	{"mixed_precision", "bf16_mixed", "recipes/gpt/h100/vanilla_gpt.py:123"},
	{"tokenizer.vocab_size", "32000", "recipes/utils/tokenizer_utils.py:15 (NullTokenizer); used, padded, "
	 "where model.vocab_size is unset (training/setup.py:762-766)"},
	{"model.make_vocab_size_divisible_by", "128", "models/gpt_provider.py:141"},
	{"model.share_embeddings_and_output_weights", "true", "models/gpt_provider.py:140"},
	{"model.position_embedding_type", "learned_absolute", "models/gpt_provider.py:142"},
	{"model.normalization", "LayerNorm", "models/gpt_provider.py:191"},
	{"model.cross_entropy_loss_fusion", "true", "models/gpt_provider.py:205"},
	{"model.gated_linear_unit", "false", "Megatron-LM megatron/core/transformer/transformer_config.py gated_linear_unit"},
	{"model.activation_func", "gelu", "Megatron-LM transformer_config.py activation_func (F.gelu)"},
};

enum nkind {
	N_VAL,     /* the flag with the value; null: the default */
	N_LIST,    /* the flag with the list's items as its words */
	N_BOOL,    /* true: the flag */
	N_BOOLNEG, /* false: the flag */
	N_READ,    /* read below */
	N_NOEFFECT /* read, decided elsewhere (said where) */
};

/* The keys read, with the Megatron-LM flag of the same Megatron-Core field. */
static const struct {
	const char *key;
	enum nkind kind;
	const char *flag;
} nkeys[] = {
	{"model.num_layers", N_VAL, "--num-layers"}, {"model.hidden_size", N_VAL, "--hidden-size"},
	{"model.num_attention_heads", N_VAL, "--num-attention-heads"}, {"model.num_query_groups", N_READ, "--num-query-groups"},
	{"model.kv_channels", N_VAL, "--kv-channels"}, {"model.ffn_hidden_size", N_VAL, "--ffn-hidden-size"},
	{"model.vocab_size", N_READ, "--vocab-size"}, {"tokenizer.vocab_size", N_READ, NULL},
	{"model.make_vocab_size_divisible_by", N_VAL, "--make-vocab-size-divisible-by"},
	{"model.should_pad_vocab", N_NOEFFECT, NULL}, {"model.seq_length", N_READ, NULL},
	{"dataset.seq_length", N_VAL, "--seq-length"}, {"model.max_position_embeddings", N_VAL, "--max-position-embeddings"},
	{"model.position_embedding_type", N_VAL, "--position-embedding-type"},
	{"model.gated_linear_unit", N_READ, NULL}, {"model.activation_func", N_READ, NULL},
	{"model.normalization", N_VAL, "--normalization"},
	{"model.share_embeddings_and_output_weights", N_BOOLNEG, "--untie-embeddings-and-output-weights"},
	{"model.add_bias_linear", N_BOOLNEG, "--disable-bias-linear"},
	{"model.hidden_dropout", N_VAL, "--hidden-dropout"}, {"model.attention_dropout", N_VAL, "--attention-dropout"},
	{"model.num_moe_experts", N_VAL, "--num-experts"}, {"model.moe_router_topk", N_VAL, "--moe-router-topk"},
	{"model.moe_ffn_hidden_size", N_VAL, "--moe-ffn-hidden-size"},
	{"model.moe_shared_expert_intermediate_size", N_VAL, "--moe-shared-expert-intermediate-size"},
	{"model.moe_router_enable_expert_bias", N_BOOL, "--moe-router-enable-expert-bias"},
	{"model.moe_layer_freq", N_VAL, "--moe-layer-freq"},
	{"model.moe_token_dispatcher_type", N_VAL, "--moe-token-dispatcher-type"},
	{"model.moe_flex_dispatcher_backend", N_VAL, "--moe-flex-dispatcher-backend"},
	{"model.moe_router_num_groups", N_VAL, "--moe-router-num-groups"},
	{"model.moe_router_group_topk", N_VAL, "--moe-router-group-topk"},
	{"model.overlap_moe_expert_parallel_comm", N_BOOL, "--overlap-moe-expert-parallel-comm"},
	{"model.moe_router_fusion", N_BOOL, "--moe-router-fusion"}, {"model.moe_permute_fusion", N_BOOL, "--moe-permute-fusion"},
	{"model.expert_model_parallel_size", N_VAL, "--expert-model-parallel-size"},
	{"model.expert_tensor_parallel_size", N_VAL, "--expert-tensor-parallel-size"},
	{"model.mtp_num_layers", N_VAL, "--mtp-num-layers"},
	{"model.tensor_model_parallel_size", N_VAL, "--tensor-model-parallel-size"},
	{"model.pipeline_model_parallel_size", N_VAL, "--pipeline-model-parallel-size"},
	{"model.context_parallel_size", N_VAL, "--context-parallel-size"},
	{"model.sequence_parallel", N_BOOL, "--sequence-parallel"},
	{"model.virtual_pipeline_model_parallel_size", N_VAL, "--num-virtual-stages-per-pipeline-rank"},
	{"model.pipeline_model_parallel_layout", N_VAL, "--pipeline-model-parallel-layout"},
	{"model.num_layers_in_first_pipeline_stage", N_VAL, "--decoder-first-pipeline-num-layers"},
	{"model.num_layers_in_last_pipeline_stage", N_VAL, "--decoder-last-pipeline-num-layers"},
	{"model.account_for_embedding_in_pipeline_split", N_BOOL, "--account-for-embedding-in-pipeline-split"},
	{"model.account_for_loss_in_pipeline_split", N_BOOL, "--account-for-loss-in-pipeline-split"},
	{"model.recompute_granularity", N_VAL, "--recompute-granularity"},
	{"model.recompute_method", N_VAL, "--recompute-method"},
	{"model.recompute_num_layers", N_VAL, "--recompute-num-layers"},
	{"model.recompute_modules", N_LIST, "--recompute-modules"},
	{"model.cross_entropy_loss_fusion", N_BOOL, "--cross-entropy-loss-fusion"},
	{"model.tp_comm_overlap", N_BOOL, "--tp-comm-overlap"},
	{"comm_overlap.tp_comm_overlap", N_BOOL, "--tp-comm-overlap"},
	{"model.cp_comm_type", N_LIST, "--cp-comm-type"},
	{"model.hierarchical_context_parallel_sizes", N_LIST, "--hierarchical-context-parallel-sizes"},
	{"model.cpu_offloading", N_BOOL, "--cpu-offloading"},
	{"model.cpu_offloading_num_layers", N_VAL, "--cpu-offloading-num-layers"},
	{"model.fine_grained_activation_offloading", N_BOOL, "--fine-grained-activation-offloading"},
	{"model.offload_modules", N_LIST, "--offload-modules"},
	{"model.activation_offload_fraction", N_VAL, "--activation-offload-fraction"},
	{"optimizer.optimizer_cpu_offload", N_BOOL, "--optimizer-cpu-offload"},
	{"optimizer.optimizer_offload_fraction", N_VAL, "--optimizer-offload-fraction"},
	{"train.micro_batch_size", N_VAL, "--micro-batch-size"}, {"train.global_batch_size", N_VAL, "--global-batch-size"},
	{"train.train_iters", N_VAL, "--train-iters"}, {"mixed_precision", N_READ, NULL},
	{"optimizer.use_distributed_optimizer", N_READ, "--use-distributed-optimizer"},
	{"ddp.use_distributed_optimizer", N_READ, "--use-distributed-optimizer"},
	{"optimizer.use_precision_aware_optimizer", N_BOOL, "--use-precision-aware-optimizer"},
	{"optimizer.exp_avg_dtype", N_READ, "--exp-avg-dtype"}, {"optimizer.exp_avg_sq_dtype", N_READ, "--exp-avg-sq-dtype"},
	{"optimizer.main_grads_dtype", N_READ, "--main-grads-dtype"},
	{"optimizer.main_params_dtype", N_READ, "--main-params-dtype"},
	{"ddp.grad_reduce_in_fp32", N_READ, NULL},
	{"ddp.overlap_grad_reduce", N_BOOL, "--overlap-grad-reduce"},
	{"ddp.overlap_param_gather", N_BOOL, "--overlap-param-gather"},
	{"optimizer.overlap_param_gather", N_BOOL, "--overlap-param-gather"},
	{"dist.use_tp_pp_dp_mapping", N_BOOL, "--use-tp-pp-dp-mapping"},
	{"model.attention_backend", N_READ, "--attention-backend"},
	/* the MixedPrecisionConfig written out (ConfigContainer's YAML) */
	{"mixed_precision.bf16", N_READ, NULL}, {"mixed_precision.fp16", N_READ, NULL},
	{"mixed_precision.fp8", N_READ, NULL}, {"mixed_precision.fp8_recipe", N_READ, NULL},
	{"mixed_precision.fp8_param_gather", N_READ, NULL}, {"mixed_precision.fp4", N_READ, NULL},
	{"mixed_precision.fp4_recipe", N_READ, NULL}, {"mixed_precision.fp4_param_gather", N_READ, NULL},
	{"mixed_precision.grad_reduce_in_fp32", N_READ, NULL},
};
#define NNKEYS ((int)(sizeof nkeys / sizeof nkeys[0]))

/* A message of megatron_apply in NeMo's words: "import --from nemo:" and each Megatron-LM
 * flag as the key it was read from (the first key of a flag's in nkeys). */
static void nemo_words_of(char *msg, size_t n)
{
	char out[2048];
	size_t o = 0;
	const char *c = msg, *pre = "import --from megatron:";
	while (*c && o + 1 < sizeof out) {
		const char *rep = NULL;
		size_t len = 0;
		if (!strncmp(c, pre, strlen(pre)))
			rep = "import --from nemo:", len = strlen(pre);
		else if (c[0] == '-' && c[1] == '-' && (c == msg || !isalnum((unsigned char)c[-1])))
			for (int k = 0; k < NNKEYS && !rep; k++) {
				size_t l = nkeys[k].flag ? strlen(nkeys[k].flag) : 0;
				if (l && !strncmp(c, nkeys[k].flag, l) && !isalnum((unsigned char)c[l]) && c[l] != '-')
					rep = nkeys[k].key, len = l;
			}
		if (rep) {
			size_t l = strlen(rep);
			if (o + l + 1 >= sizeof out)
				break;
			memcpy(out + o, rep, l);
			o += l;
			c += len;
		} else {
			out[o++] = *c++;
		}
	}
	out[o] = 0;
	snprintf(msg, n, "%s", out);
}

/* ConfigContainer's sections (training/config.py:962-1010 at 067f987d) */
static const char *const nemo_sections[] = {"model", "train", "optimizer", "ddp", "dataset", "dist", "mixed_precision",
	"scheduler", "validation", "logger", "tokenizer", "checkpoint", "rng", "rerun_state_machine", "ft", "straggler",
	"nvrx_straggler", "profiling", "peft", "comm_overlap", "tensor_inspect", "inprocess_restart", "env_vars",
	"optimizer_config_override_provider", NULL};

struct npair {
	char *key, *val;
	int line;
};
struct npairs {
	struct npair *p;
	int n, cap;
};

static void npairs_set(struct npairs *ps, const char *key, size_t klen, const char *val, int line)
{
	int i;
	for (i = 0; i < ps->n; i++) /* the last assignment wins, as Hydra applies them in order */
		if (strlen(ps->p[i].key) == klen && !strncmp(ps->p[i].key, key, klen))
			break;
	if (i == ps->n) {
		if (ps->n == ps->cap) {
			ps->cap = ps->cap ? ps->cap * 2 : 64;
			ps->p = xrealloc(ps->p, (size_t)ps->cap * sizeof *ps->p);
		}
		ps->p[i].key = xmalloc(klen + 1);
		memcpy(ps->p[i].key, key, klen);
		ps->p[i].key[klen] = 0;
		ps->p[i].val = NULL;
		ps->n++;
	}
	free(ps->p[i].val);
	ps->p[i].val = xstrdup(val);
	ps->p[i].line = line;
}

static const struct npair *npairs_get(const struct npairs *ps, const char *key)
{
	for (int i = 0; i < ps->n; i++)
		if (!strcmp(ps->p[i].key, key))
			return &ps->p[i];
	return NULL;
}

static void npairs_free(struct npairs *ps)
{
	for (int i = 0; i < ps->n; i++) {
		free(ps->p[i].key);
		free(ps->p[i].val);
	}
	free(ps->p);
}

/* A value as Hydra's grammar gives it: quotes away; null, None, ~ and nothing are None. */
static int nemo_null(const char *v)
{
	return !*v || !strcmp(v, "null") || !strcmp(v, "None") || !strcmp(v, "~") || !strcmp(v, "NULL");
}

static int nemo_bool(struct imp *im, const struct npair *p, int *out)
{
	char b[96];
	if (!strcmp(p->val, "true") || !strcmp(p->val, "True"))
		return *out = 1, 0;
	if (!strcmp(p->val, "false") || !strcmp(p->val, "False"))
		return *out = 0, 0;
	ERR(im, p->line, "import --from nemo: %s '%s': allowed are true, false", p->key, shown(p->val, b, sizeof b));
	return -1;
}

/* The words of an override text: shell quoting (' " and \), comments, continuation lines. */
static void nemo_words(struct imp *im, const char *t, struct fields *w)
{
	struct sbuf b = {0};
	int line = 1, start = 1, inword = 0;
	for (const char *c = t;; c++) {
		if (!*c || ((*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r') && inword >= 0)) {
			if (inword) {
				sb_add(&b, "", 0);
				fields_push(w, b.s, start, NULL, 0);
				b.n = 0;
				inword = 0;
			}
			if (!*c)
				break;
			if (*c == '\n')
				line++;
			continue;
		}
		if (!inword && *c == '#') {
			while (c[1] && c[1] != '\n')
				c++;
			continue;
		}
		if (*c == '\\' && c[1] == '\n') {
			c++, line++;
			continue;
		}
		if (!inword)
			inword = 1, start = line;
		if (*c == '\'' || *c == '"') {
			char q = *c;
			const char *e = strchr(c + 1, q);
			if (!e) {
				ERR(im, line, "import --from nemo: a %s quote is not closed", q == '"' ? "double" : "single");
				break;
			}
			for (const char *k = c + 1; k < e; k++)
				line += *k == '\n';
			sb_add(&b, c + 1, (size_t)(e - c - 1));
			c = e;
			continue;
		}
		if (*c == '\\' && c[1])
			c++;
		sb_add(&b, c, 1);
	}
	free(b.s);
}

/* YAML: the nested mappings flattened to SECTION.KEY pairs (libyaml). */
static void nemo_yaml_node(struct imp *im, yaml_document_t *doc, yaml_node_t *n, const char *prefix, struct npairs *ps,
                           int depth)
{
	if (depth > 8)
		return;
	if (n->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(doc, p->key), *v = yaml_document_get_node(doc, p->value);
			char key[256];
			if (!k || !v || k->type != YAML_SCALAR_NODE) {
				ERR(im, (int)n->start_mark.line + 1, "import --from nemo: a mapping key that is not a name");
				continue;
			}
			if (!strcmp((char *)k->data.scalar.value, "_target_"))
				continue;
			snprintf(key, sizeof key, "%s%s%s", prefix, prefix[0] ? "." : "", (char *)k->data.scalar.value);
			if (v->type == YAML_MAPPING_NODE) {
				/* a function as the ConfigContainer's YAML writes it: {_target_: NAME, _call_:
				 * false} (models/config.py:355 at 067f987d) is the value NAME */
				const char *target = NULL;
				int call = 1;
				for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
					yaml_node_t *qk = yaml_document_get_node(doc, q->key), *qv = yaml_document_get_node(doc, q->value);
					if (!qk || !qv || qk->type != YAML_SCALAR_NODE || qv->type != YAML_SCALAR_NODE)
						continue;
					if (!strcmp((char *)qk->data.scalar.value, "_target_"))
						target = (char *)qv->data.scalar.value;
					else if (!strcmp((char *)qk->data.scalar.value, "_call_"))
						call = strcmp((char *)qv->data.scalar.value, "false") && strcmp((char *)qv->data.scalar.value, "False");
				}
				if (target && !call)
					npairs_set(ps, key, strlen(key), target, (int)k->start_mark.line + 1);
				else
					nemo_yaml_node(im, doc, v, key, ps, depth + 1);
			}
			else if (v->type == YAML_SEQUENCE_NODE) {
				struct sbuf b = {0};
				sb_add(&b, "[", 1);
				for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
					yaml_node_t *e = yaml_document_get_node(doc, *it);
					const char *s = e && e->type == YAML_SCALAR_NODE ? (char *)e->data.scalar.value : "?";
					if (it > v->data.sequence.items.start)
						sb_add(&b, ",", 1);
					sb_add(&b, s, strlen(s));
				}
				sb_add(&b, "]", 1);
				npairs_set(ps, key, strlen(key), b.s, (int)k->start_mark.line + 1);
				free(b.s);
			} else {
				const char *s = (char *)v->data.scalar.value;
				/* a plain ~ or null, or nothing, is None; a quoted 'null' is the string */
				if (v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && nemo_null(s))
					s = "null";
				npairs_set(ps, key, strlen(key), s, (int)k->start_mark.line + 1);
			}
		}
	}
}

static int nemo_is_yaml(const char *t)
{
	const char *c = t;
	for (;;) { /* the first line that is not blank or a comment: NAME: */
		while (*c == ' ' || *c == '\t' || *c == '\r')
			c++;
		if (*c == '#') {
			while (*c && *c != '\n')
				c++;
		}
		if (*c == '\n') {
			c++;
			continue;
		}
		break;
	}
	if (!strncmp(c, "---", 3))
		return 1;
	if (!isalpha((unsigned char)*c) && *c != '_')
		return 0;
	while (isalnum((unsigned char)*c) || *c == '_')
		c++;
	return *c == ':' && (c[1] == ' ' || c[1] == '\n' || c[1] == '\r' || !c[1]);
}

static void nemo_read_yaml(struct imp *im, const char *text, struct npairs *ps)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	if (!yaml_parser_initialize(&parser)) {
		ERR(im, 0, "import --from nemo: the YAML reader could not start");
		return;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
	if (!yaml_parser_load(&parser, &doc)) {
		ERR(im, (int)parser.problem_mark.line + 1, "import --from nemo: not YAML: %s%s%s", parser.problem ? parser.problem : "?",
		    parser.context ? " " : "", parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		return;
	}
	root = yaml_document_get_root_node(&doc);
	if (!root || root->type != YAML_MAPPING_NODE)
		ERR(im, root ? (int)root->start_mark.line + 1 : 0, "import --from nemo: the YAML is not a mapping of "
		    "ConfigContainer sections (model:, train:, ...)");
	else
		nemo_yaml_node(im, &doc, root, "", ps, 0);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
}

/* run_recipe.py's convenience options (its docstring, scripts/training/run_recipe.py:24-50) */
static const struct {
	const char *opt, *alt, *key;
} nemo_opts[] = {
	{"-ms", "--max_steps", "train.train_iters"}, {"-gb", "--global_batch_size", "train.global_batch_size"},
	{"-mb", "--micro_batch_size", "train.micro_batch_size"}, {"-sl", "--seq_length", "dataset.seq_length"},
	{"-tp", "--tensor_model_parallel_size", "model.tensor_model_parallel_size"},
	{"-pp", "--pipeline_model_parallel_size", "model.pipeline_model_parallel_size"},
	{"-cp", "--context_parallel_size", "model.context_parallel_size"},
	{"-vp", "--virtual_pipeline_model_parallel_size", "model.virtual_pipeline_model_parallel_size"},
	{"-ep", "--expert_model_parallel_size", "model.expert_model_parallel_size"},
	{"-etp", "--expert_tensor_parallel_size", "model.expert_tensor_parallel_size"},
};

static int nemo_key_ok(const char *k, size_t n)
{
	if (!n || (!isalpha((unsigned char)k[0]) && k[0] != '_'))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)k[i]) && k[i] != '_' && k[i] != '.')
			return 0;
	return 1;
}

/* The overrides: KEY=VALUE words, after an optional launcher line (torchrun ... run_recipe.py
 * --recipe NAME --mode pretrain); the launcher's --nnodes / --nproc-per-node go to launch. */
static void nemo_read_overrides(struct imp *im, const char *text, struct npairs *ps, struct fields *launch,
                                char *recipe, size_t nrecipe)
{
	struct fields w = {0};
	int after_py = 0, has_py = 0;
	char b[96];
	nemo_words(im, text, &w);
	for (int i = 0; i < w.n; i++) {
		size_t l = strlen(w.f[i].s);
		if (l > 3 && !strcmp(w.f[i].s + l - 3, ".py"))
			has_py = 1;
	}
	for (int i = 0; i < w.n && im->d.nrecs < IMP_MAX_MSGS; i++) {
		const char *s = w.f[i].s, *eq = strchr(s, '=');
		int line = w.f[i].line;
		size_t l = strlen(s);
		if (has_py && !after_py) {
			/* the launcher's words, up to the script */
			if (l > 3 && !strcmp(s + l - 3, ".py"))
				after_py = 1;
			else
				fields_push(launch, s, line, NULL, 0);
			continue;
		}
		if (s[0] == '+' || s[0] == '~') {
			if (s[0] == '~') {
				ERR(im, line, "import --from nemo: '%s': deleting a field (~) is not read (allowed: KEY=VALUE)",
				    shown(s, b, sizeof b));
				continue;
			}
			s++; /* +KEY=VALUE adds a field; here the same as KEY=VALUE */
		}
		if (eq && nemo_key_ok(s, (size_t)(strchr(s, '=') - s)) && s[0] != '-') {
			const char *v = strchr(s, '=') + 1;
			npairs_set(ps, s, (size_t)(strchr(s, '=') - s), v, line);
			continue;
		}
		if (!strcmp(s, "--recipe") || !strcmp(s, "--mode") || !strcmp(s, "--model") || !strcmp(s, "--dataset")) {
			const char *v = i + 1 < w.n ? w.f[i + 1].s : "";
			i++;
			if (!strcmp(s, "--recipe"))
				snprintf(recipe, nrecipe, "%s", v);
			else if (!strcmp(s, "--mode") && strcmp(v, "pretrain"))
				ERR(im, line, "import --from nemo: --mode %s: a fine-tuning run's recipe is not read (allowed: "
				    "pretrain)", shown(v, b, sizeof b));
			else if (!strcmp(s, "--model"))
				ERR(im, line, "import --from nemo: --model %s: a model's recipe defaults are not in the table "
				    "(allowed: --recipe vanilla_gpt_pretrain_config with the architecture as overrides)",
				    shown(v, b, sizeof b));
			continue;
		}
		{
			int k, n = (int)(sizeof nemo_opts / sizeof nemo_opts[0]);
			for (k = 0; k < n; k++)
				if (!strcmp(s, nemo_opts[k].opt) || !strcmp(s, nemo_opts[k].alt))
					break;
			if (k < n && i + 1 < w.n) {
				npairs_set(ps, nemo_opts[k].key, strlen(nemo_opts[k].key), w.f[i + 1].s, line);
				i++;
				continue;
			}
		}
		ERR(im, line, "import --from nemo: '%s' is not a KEY=VALUE override of the ConfigContainer (allowed: "
		    "overrides, run_recipe.py's --recipe, --mode and its -tp/-pp/-cp/-vp/-ep/-etp/-mb/-gb/-sl/-ms)",
		    shown(s, b, sizeof b));
	}
	fields_free(&w);
}

/* Hydra's quoted string or list item as the plain word. */
static void nemo_unquote(char *s)
{
	size_t n = strlen(s);
	if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
		memmove(s, s + 1, n - 2);
		s[n - 2] = 0;
	}
}

static void nemo_push_list(struct fields *args, const char *flag, const struct npair *p)
{
	char *v = xstrdup(p->val), *s = v, *e;
	size_t n = strlen(v);
	fields_push(args, flag, p->line, NULL, 0);
	if (n >= 2 && v[0] == '[' && v[n - 1] == ']')
		v[n - 1] = 0, s = v + 1;
	for (char *tok = strtok_r(s, ",", &e); tok; tok = strtok_r(NULL, ",", &e)) {
		while (*tok == ' ')
			tok++;
		for (size_t k = strlen(tok); k && tok[k - 1] == ' ';)
			tok[--k] = 0;
		nemo_unquote(tok);
		fields_push(args, tok, p->line, NULL, 0);
	}
	free(v);
}

/* A key of the model's architecture (of a recipe whose model is a preset's). */
static int nemo_arch_key(const char *k)
{
	static const char *const arch[] = {"model.num_layers", "model.hidden_size", "model.num_attention_heads",
		"model.num_query_groups", "model.ffn_hidden_size", "model.vocab_size", "model.kv_channels",
		"model.activation_func", "model.gated_linear_unit", "model.normalization", "model.add_bias_linear",
		"model.share_embeddings_and_output_weights", "model.position_embedding_type", "model.num_moe_experts",
		"model.moe_ffn_hidden_size", "model.moe_router_topk", "model.moe_shared_expert_intermediate_size",
		"model.moe_layer_freq", "model.hidden_dropout", "model.attention_dropout", "tokenizer.vocab_size", NULL};
	return in_list(arch, k);
}

static int import_nemo(struct imp *im, char *text)
{
	struct npairs ps = {0};
	struct fields args = {0}, launch = {0};
	char recipe[128] = "", skipped[3000] = "", b[96];
	int rc = -1, yaml = nemo_is_yaml(text), known = 0, has_arch = 0, hf = -1;
	const struct npair *p;
	for (size_t i = 0; i < sizeof nemo_defaults / sizeof nemo_defaults[0]; i++)
		npairs_set(&ps, nemo_defaults[i].key, strlen(nemo_defaults[i].key), nemo_defaults[i].value, 0);
	if (yaml)
		nemo_read_yaml(im, text, &ps);
	else
		nemo_read_overrides(im, text, &ps, &launch, recipe, sizeof recipe);
	for (int k = 0; nemo_recipes[k]; k++)
		known |= !strcmp(recipe, nemo_recipes[k]);
	for (size_t k = 0; k < sizeof nemo_hf_recipes / sizeof nemo_hf_recipes[0]; k++)
		if (!strcmp(recipe, nemo_hf_recipes[k].name))
			hf = (int)k, known = 1;
	if (hf >= 0) {
		/* the recipe's values under the file's: re-read with the file's pairs last */
		struct npairs file = ps;
		memset(&ps, 0, sizeof ps);
		for (size_t i = 0; i < sizeof nemo_defaults / sizeof nemo_defaults[0]; i++)
			if (strncmp(nemo_defaults[i].key, "model.", 6) && strcmp(nemo_defaults[i].key, "tokenizer.vocab_size"))
				npairs_set(&ps, nemo_defaults[i].key, strlen(nemo_defaults[i].key), nemo_defaults[i].value, 0);
		for (int j = 0; nemo_hf_recipes[hf].set[j]; j++) {
			const char *kv = nemo_hf_recipes[hf].set[j], *e = strchr(kv, '=');
			npairs_set(&ps, kv, (size_t)(e - kv), e + 1, 0);
		}
		for (int i = 0; i < file.n; i++)
			if (file.p[i].line)
				npairs_set(&ps, file.p[i].key, strlen(file.p[i].key), file.p[i].val, file.p[i].line);
		npairs_free(&file);
		for (int i = 0; i < ps.n; i++)
			if (ps.p[i].line && nemo_arch_key(ps.p[i].key))
				ERR(im, ps.p[i].line, "import --from nemo: %s over the recipe %s: its model is the Hugging Face "
				    "config of preset %s, whose architecture is read as a whole (allowed: parallel, batch and "
				    "precision overrides; or vanilla_gpt_pretrain_config with every architecture key)", ps.p[i].key,
				    recipe, nemo_hf_recipes[hf].preset);
	}
	if (recipe[0] && !known)
		ERR(im, 0, "import --from nemo: --recipe %s: its defaults are not in the table (allowed: "
		    "vanilla_gpt_pretrain_config or vanilla_gpt_pretrain_1gpu_h100_bf16_config, whose model is the bare "
		    "GPTModelProvider, with the architecture as overrides; llama3_8b_pretrain_2gpu_h100_bf16_config, "
		    "llama3_70b_pretrain_32gpu_h100_bf16_config, llama31_405b_pretrain_256gpu_h100_bf16_config, "
		    "deepseek_v3_pretrain_1024gpu_h100_bf16_config, qwen3_30b_a3b_pretrain_8gpu_h100_bf16_config)",
		    shown(recipe, b, sizeof b));
	else if (!recipe[0])
		NOTE(im, 0, "import --from nemo: the file names no recipe: what it leaves out is the vanilla_gpt recipe's "
		     "(Megatron-Bridge recipes/gpt/h100/vanilla_gpt.py at 067f987d)");
	im->nemo = 1;
	/* every pair: a key read, a key of a section not read (one note), or an error */
	for (int i = 0; i < ps.n; i++) {
		const char *key = ps.p[i].key, *dot = strchr(key, '.');
		int k, sec = 0;
		char section[64];
		if (!ps.p[i].line)
			continue; /* a default */
		for (k = 0; k < NNKEYS; k++)
			if (!strcmp(key, nkeys[k].key))
				break;
		if (k < NNKEYS)
			continue;
		snprintf(section, sizeof section, "%.*s", dot ? (int)(dot - key) : 63, key);
		for (int s = 0; nemo_sections[s]; s++)
			sec |= !strcmp(section, nemo_sections[s]);
		if (!sec) {
			struct calc_suggest sg;
			char dym[160];
			calc_suggest_init(&sg, section);
			for (int s = 0; nemo_sections[s]; s++)
				calc_suggest_offer(&sg, nemo_sections[s]);
			ERR(im, ps.p[i].line, "import --from nemo: '%s' is no field of the ConfigContainer (allowed sections: "
			    "model, train, optimizer, ddp, dataset, dist, mixed_precision, ...)%s", shown(key, b, sizeof b),
			    calc_suggest_text(&sg, dym, sizeof dym));
		} else if (!strncmp(key, "model.q_lora_rank", 17) || !strncmp(key, "model.kv_lora_rank", 18) ||
		           !strcmp(key, "model.multi_latent_attention")) {
			ERR(im, ps.p[i].line, "import --from nemo: %s: multi-latent attention is read as a whole, from the "
			    "recipe deepseek_v3_pretrain_1024gpu_h100_bf16_config (the preset deepseek-v3) or import --from "
			    "megatron with --multi-latent-attention; its ranks are not overrides of another model", key);
		} else if (strlen(skipped) + strlen(key) + 3 < sizeof skipped) {
			snprintf(skipped + strlen(skipped), sizeof skipped - strlen(skipped), "%s%s", skipped[0] ? ", " : "", key);
		}
	}
	if (skipped[0])
		NOTE(im, 0, "import --from nemo: not planning inputs, not read: %s", skipped);
	/* a file without the architecture (an override file of another recipe's model) leaves
	 * the base plan's model: no model default of the vanilla recipe is taken then */
	{
		static const char *const arch[] = {"model.num_layers", "model.hidden_size", "model.num_attention_heads"};
		for (int k = 0; k < 3 && !has_arch; k++)
			has_arch = (p = npairs_get(&ps, arch[k])) && p->line;
		if (hf >= 0)
			has_arch = 0; /* the preset's */
		else if (!has_arch)
			NOTE(im, 0, "import --from nemo: no model.num_layers, hidden_size or num_attention_heads: the model "
			     "stays the base plan's");
	}
	/* the keys read, as Megatron-LM's flags of the same fields */
	for (int k = 0; k < NNKEYS; k++) {
		char *v;
		int on = 0;
		if (!(p = npairs_get(&ps, nkeys[k].key)) || nkeys[k].kind == N_READ || nkeys[k].kind == N_NOEFFECT)
			continue;
		if (hf >= 0 && nemo_arch_key(p->key))
			continue; /* refused above: the preset's */
		if (!has_arch && hf < 0 && !p->line && !strncmp(p->key, "model.", 6) &&
		    strcmp(p->key, "model.cross_entropy_loss_fusion"))
			continue;
		v = xstrdup(p->val);
		nemo_unquote(v);
		if (nkeys[k].kind == N_VAL && !nemo_null(v)) {
			fields_push(&args, nkeys[k].flag, p->line, NULL, 0);
			fields_push(&args, v, p->line, NULL, 0);
		} else if (nkeys[k].kind == N_LIST && !nemo_null(v)) {
			nemo_push_list(&args, nkeys[k].flag, p);
		} else if ((nkeys[k].kind == N_BOOL || nkeys[k].kind == N_BOOLNEG) && nemo_bool(im, p, &on) == 0 &&
		           on == (nkeys[k].kind == N_BOOL)) {
			int dup = 0; /* two keys of one field (ddp. and optimizer.overlap_param_gather) */
			for (int j = 0; j < args.n; j++)
				dup |= !strcmp(args.f[j].s, nkeys[k].flag);
			if (!dup)
				fields_push(&args, nkeys[k].flag, p->line, NULL, 0);
		}
		free(v);
	}
	/* GQA: num_query_groups set (None: one per head, transformer_config.py) */
	if ((p = npairs_get(&ps, "model.num_query_groups")) && !nemo_null(p->val)) {
		fields_push(&args, "--group-query-attention", p->line, NULL, 0);
		fields_push(&args, "--num-query-groups", p->line, NULL, 0);
		fields_push(&args, p->val, p->line, NULL, 0);
	}
	/* the vocabulary: model.vocab_size as given, unpadded, or the tokenizer's padded
	 * (training/setup.py:762-776 _validate_and_set_vocab_size) */
	if (!has_arch) {
		p = NULL;
	} else if ((p = npairs_get(&ps, "model.vocab_size")) && !nemo_null(p->val)) {
		im->no_vocab_pad = 1;
	} else {
		p = npairs_get(&ps, "tokenizer.vocab_size");
		if (!p || nemo_null(p->val)) {
			ERR(im, p ? p->line : 0, "import --from nemo: the vocabulary is not known: give model.vocab_size or "
			    "tokenizer.vocab_size (a tokenizer's model file is not read)");
			p = NULL;
		}
	}
	if (p) {
		fields_push(&args, "--vocab-size", p->line, NULL, 0);
		fields_push(&args, p->val, p->line, NULL, 0);
	}
	/* the sequence: the runner copies dataset.seq_length into model.seq_length
	 * (run_recipe.py:38-39) */
	{
		const struct npair *ms = npairs_get(&ps, "model.seq_length"), *ds = npairs_get(&ps, "dataset.seq_length");
		if (ms && ds && ms->line && strcmp(ms->val, ds->val))
			NOTE(im, ms->line, "import --from nemo: model.seq_length %s is replaced by dataset.seq_length %s, as "
			     "run_recipe.py does", ms->val, ds->val);
	}
	/* the MLP: a gated linear unit of SiLU is SwiGLU, GeLU without gating the plain MLP */
	{
		const struct npair *g = npairs_get(&ps, "model.gated_linear_unit"), *a = npairs_get(&ps, "model.activation_func");
		int glu = 0;
		char act[64];
		snprintf(act, sizeof act, "%s", a ? a->val : "gelu");
		nemo_unquote(act);
		if (g && (has_arch || g->line || (a && a->line)) && nemo_bool(im, g, &glu) == 0) {
			const char *base = strrchr(act, '.') ? strrchr(act, '.') + 1 : act; /* torch.nn.functional.silu */
			if (glu && !strcmp(base, "silu"))
				fields_push(&args, "--swiglu", g->line, NULL, 0);
			else if (glu || strcmp(base, "gelu"))
				ERR(im, a && a->line ? a->line : g->line, "import --from nemo: model.activation_func %s with "
				    "model.gated_linear_unit %s is not modelled (allowed: silu with true, SwiGLU; gelu with false)",
				    shown(act, b, sizeof b), glu ? "true" : "false");
		}
	}
	/* the distributed optimizer: either key turns both on (training/config.py:2114) */
	{
		const struct npair *o = npairs_get(&ps, "optimizer.use_distributed_optimizer"),
		                   *d = npairs_get(&ps, "ddp.use_distributed_optimizer");
		int on1 = 0, on2 = 0;
		if ((o && nemo_bool(im, o, &on1) == 0 && on1) || (d && nemo_bool(im, d, &on2) == 0 && on2))
			fields_push(&args, "--use-distributed-optimizer", on1 ? o->line : d->line, NULL, 0);
	}
	/* the precision-aware optimizer's dtypes (Megatron-Core optimizer_config.py exp_avg_dtype,
	 * exp_avg_sq_dtype, main_grads_dtype, main_params_dtype): torch dtypes, which an override
	 * names as str_to_dtype reads them (src/megatron/bridge/utils/activation_map.py:95-128 at
	 * 067f987d: bf16, bfloat16, torch.bfloat16, fp32, float32, 32, torch.float32, fp16, ...) */
	for (int k = 0; k < 4; k++) {
		static const char *const keys[] = {"optimizer.exp_avg_dtype", "optimizer.exp_avg_sq_dtype",
			"optimizer.main_grads_dtype", "optimizer.main_params_dtype"};
		static const char *const flags[] = {"--exp-avg-dtype", "--exp-avg-sq-dtype", "--main-grads-dtype",
			"--main-params-dtype"};
		if ((p = npairs_get(&ps, keys[k])) && !nemo_null(p->val)) {
			char v[64];
			snprintf(v, sizeof v, "%s", p->val);
			nemo_unquote(v);
			if (!strcmp(v, "torch.bfloat16") || !strcmp(v, "bfloat16") || !strcmp(v, "bf16") || !strcmp(v, "bf16-mixed"))
				snprintf(v, sizeof v, "bf16");
			else if (!strcmp(v, "torch.float32") || !strcmp(v, "float32") || !strcmp(v, "fp32") || !strcmp(v, "32") ||
			         !strcmp(v, "32-true"))
				snprintf(v, sizeof v, "fp32");
			else if (!strcmp(v, "torch.float16") || !strcmp(v, "float16") || !strcmp(v, "fp16") || !strcmp(v, "16") ||
			         !strcmp(v, "16-mixed"))
				snprintf(v, sizeof v, "fp16");
			fields_push(&args, flags[k], p->line, NULL, 0);
			fields_push(&args, v, p->line, NULL, 0);
		}
	}
	/* attention: Megatron-Core's AttnBackend by its name */
	if ((p = npairs_get(&ps, "model.attention_backend")) && !nemo_null(p->val)) {
		char v[64];
		snprintf(v, sizeof v, "%s", strrchr(p->val, '.') ? strrchr(p->val, '.') + 1 : p->val);
		nemo_unquote(v);
		fields_push(&args, "--attention-backend", p->line, NULL, 0);
		fields_push(&args, v, p->line, NULL, 0);
	}
	/* mixed precision: the recipe of training/mixed_precision.py by its name (hyphens or
	 * underscores, :169), whose fields overwrite the model's, the optimizer's and DDP's
	 * (update_config_with_precision_overrides, :142): bf16_mixed reduces gradients in FP32
	 * (:194), and the FP8 recipes gather FP8 parameters (:231, :264) */
	{
		char mp[96];
		int grad_fp32 = 1, line = 0;
		const struct npair *mb = npairs_get(&ps, "mixed_precision.bf16");
		p = npairs_get(&ps, "mixed_precision");
		snprintf(mp, sizeof mp, "%s", p ? p->val : "null");
		nemo_unquote(mp);
		for (char *c = mp; *c; c++)
			*c = *c == '-' ? '_' : *c;
		line = p ? p->line : 0;
		if (mb || npairs_get(&ps, "mixed_precision.fp8") || npairs_get(&ps, "mixed_precision.fp4")) {
			/* the MixedPrecisionConfig itself, as ConfigContainer's YAML writes it
			 * (mixed_precision.py:40-75 fields bf16, fp16, grad_reduce_in_fp32, fp8, fp8_recipe,
			 * fp8_param_gather, fp4, fp4_param_gather; defaults False, True, None, ...) */
			static const char *const mk[] = {"mixed_precision.fp8", "mixed_precision.fp8_recipe", "mixed_precision.fp4",
				"mixed_precision.fp4_recipe"};
			static const char *const mf[] = {"--fp8-format", "--fp8-recipe", "--fp4-format", "--fp4-recipe"};
			int on = 0;
			const struct npair *q;
			if (((q = mb) && nemo_bool(im, q, &on) == 0 && on) ||
			    ((q = npairs_get(&ps, "mixed_precision.fp16")) && nemo_bool(im, q, &on) == 0 && on))
				fields_push(&args, "--bf16", q->line, NULL, 0);
			for (int j = 0; j < 4; j++)
				if ((q = npairs_get(&ps, mk[j])) && !nemo_null(q->val) && (j % 2 == 0 ||
				    ((p = npairs_get(&ps, mk[j - 1])) && !nemo_null(p->val)))) {
					char v[64];
					snprintf(v, sizeof v, "%s", q->val);
					nemo_unquote(v);
					fields_push(&args, mf[j], q->line, NULL, 0);
					fields_push(&args, v, q->line, NULL, 0);
				}
			if ((q = npairs_get(&ps, "mixed_precision.fp8_param_gather")) && nemo_bool(im, q, &on) == 0 && on &&
			    (p = npairs_get(&ps, "mixed_precision.fp8")) && !nemo_null(p->val))
				fields_push(&args, "--fp8-param-gather", q->line, NULL, 0);
			if ((q = npairs_get(&ps, "mixed_precision.fp4_param_gather")) && nemo_bool(im, q, &on) == 0 && on &&
			    (p = npairs_get(&ps, "mixed_precision.fp4")) && !nemo_null(p->val))
				fields_push(&args, "--fp4-param-gather", q->line, NULL, 0);
			if ((q = npairs_get(&ps, "mixed_precision.grad_reduce_in_fp32")) && nemo_bool(im, q, &on) == 0 && !on)
				fields_push(&args, "--grad-reduce-in-bf16", q->line, NULL, 0);
			grad_fp32 = 0; /* the config's own grad_reduce_in_fp32 (default True) decides */
		} else if (!strcmp(mp, "bf16_mixed")) {
			fields_push(&args, "--bf16", line, NULL, 0);
		} else if (!strcmp(mp, "bf16_with_fp8_delayed_scaling_mixed") || !strcmp(mp, "bf16_with_fp8_current_scaling_mixed")) {
			fields_push(&args, "--bf16", line, NULL, 0);
			fields_push(&args, "--fp8-format", line, NULL, 0);
			fields_push(&args, "hybrid", line, NULL, 0);
			fields_push(&args, "--fp8-param-gather", line, NULL, 0);
		} else if (!strcmp(mp, "bf16_with_mxfp8_mixed")) {
			static const char *const w[] = {"--bf16", "--fp8-format", "e4m3", "--fp8-recipe", "mxfp8", "--fp8-param-gather"};
			for (size_t j = 0; j < sizeof w / sizeof w[0]; j++)
				fields_push(&args, w[j], line, NULL, 0);
		} else if (!strcmp(mp, "bf16_with_nvfp4_mixed")) {
			static const char *const w[] = {"--bf16", "--fp4-format", "e2m1", "--fp4-recipe", "nvfp4", "--fp4-param-gather"};
			for (size_t j = 0; j < sizeof w / sizeof w[0]; j++)
				fields_push(&args, w[j], line, NULL, 0);
		} else if (!strcmp(mp, "bf16_with_fp8_subchannel_scaling_mixed")) {
			static const char *const w[] = {"--bf16", "--fp8-format", "e4m3", "--fp8-recipe", "blockwise"};
			for (size_t j = 0; j < sizeof w / sizeof w[0]; j++)
				fields_push(&args, w[j], line, NULL, 0);
		} else if (nemo_null(mp)) {
			grad_fp32 = -1; /* no recipe: ddp.grad_reduce_in_fp32 as given; FP32 parameters */
		} else {
			ERR(im, line, "import --from nemo: mixed_precision '%s': allowed are bf16_mixed, "
			    "bf16_with_fp8_delayed_scaling_mixed, bf16_with_fp8_current_scaling_mixed, bf16_with_mxfp8_mixed, "
			    "bf16_with_nvfp4_mixed, bf16_with_fp8_subchannel_scaling_mixed, null", shown(mp, b, sizeof b));
		}
		p = npairs_get(&ps, "ddp.grad_reduce_in_fp32");
		if (!grad_fp32)
			;
		else if (grad_fp32 < 0 && p && nemo_bool(im, p, &grad_fp32) == 0 && !grad_fp32)
			fields_push(&args, "--grad-reduce-in-bf16", p->line, NULL, 0);
		else if (grad_fp32 > 0 && p && p->line && !strcmp(p->val, "false"))
			NOTE(im, p->line, "import --from nemo: ddp.grad_reduce_in_fp32 false is overwritten by the mixed-precision "
			     "recipe %s, which reduces in FP32 (mixed_precision.py:142, :194)", mp);
	}
	/* every problem in one run: the flags are read even after an error above */
	rc = megatron_apply(im, &args, &launch);
	if (hf >= 0)
		put(im, 0, "model.preset", "%s", nemo_hf_recipes[hf].preset);
	if (im->d.nerrors)
		rc = -1;
	fields_free(&args);
	fields_free(&launch);
	npairs_free(&ps);
	return rc;
}

/*
 * torchtitan's [activation_checkpoint] as the plan's recomputation (torchtitan/config/
 * job_config.py:650-660 and torchtitan/distributed/activation_checkpoint.py:24-48, 177-190 at
 * 238fa995; the same options at 9dec370, config_manager.py:522):
 *   none, full       parallel.recompute none, full;
 *   selective "op"   op-level SAC (_apply_op_sac): parallel.recompute = op-sac, which models a
 *                    dense layer with MHA or GQA only (calc/plan.c); on an MoE or MLA model
 *                    the plan keeps selective, with a note;
 *   selective "N"    layer SAC (_apply_layer_sac): a process-wide counter wraps every N-th
 *                    block it sees in full AC (N = 0 every block), so on each PP rank the
 *                    blocks N, 2N, ... of its own layers: floor(c / N) of a chunk's c layers
 *                    (the least per chunk, convention), as parallel.recompute = full with
 *                    recompute_method = block and recompute_num_layers = floor(c / N), which
 *                    keeps the other layers' activations whole as torchtitan does (the
 *                    checkpointed ones are the chunk's first instead of every N-th: the
 *                    same bytes and FLOPs); N <= 1 is full, floor(c / N) = 0 none.
 * torchtitan's defaults are mode "selective" and selective_ac_option "2".
 */
static void tt_ac_map(struct imp *im, const char *mode, int mode_line, const char *opt, int opt_line, long pp)
{
	const struct calc_model *pm = got(im, "model.preset") ? calc_preset_model(got(im, "model.preset")) : NULL;
	const struct calc_model *m = pm ? pm : &im->base->model;
	const char *vs = got(im, "parallel.vpp");
	long long layers = m->layers, v = vs ? atoll(vs) : 1, c, n;
	int line = opt_line ? opt_line : mode_line;
	char *end;

	if (strcmp(mode, "selective")) {
		put(im, mode_line, "parallel.recompute", "%s", mode);
		return;
	}
	if (!strcmp(opt, "op")) {
		if (m->moe.experts > 0 || m->mla.kv_lora_rank > 0) {
			NOTE(im, line, "import --from torchtitan: selective_ac_option = \"op\" is op-level SAC, which trainplan "
			     "models for dense layers with MHA or GQA only: the %s model is planned with selective "
			     "recomputation (attention's core)", m->moe.experts > 0 ? "MoE" : "MLA");
			put(im, line, "parallel.recompute", "selective");
		} else
			put(im, line, "parallel.recompute", "op-sac");
		return;
	}
	n = strtoll(opt, &end, 10);
	if (!*opt || *end || n < 0 || n > 100000) {
		ERR(im, line, "import --from torchtitan: selective_ac_option = \"%.40s\": allowed are \"op\" and a "
		    "layer frequency 0 .. 100000", opt);
		return;
	}
	c = pp > 0 && v > 0 ? layers / (pp * v) : layers;
	if (n <= 1) {
		put(im, line, "parallel.recompute", "full");
		return;
	}
	if (c / n == 0) {
		NOTE(im, line, "import --from torchtitan: selective_ac_option = \"%lld\" checkpoints one block in %lld, "
		     "none of a stage's %lld: no recomputation", n, n, c);
		put(im, line, "parallel.recompute", "none");
		return;
	}
	put(im, line, "parallel.recompute", "full");
	put(im, line, "parallel.recompute_method", "block");
	put(im, line, "parallel.recompute_num_layers", "%lld", c / n);
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
	/* training.mixed_precision_param: 1 bfloat16, 0 float32; absent, torchtitan's default
	 * "bfloat16" (torchtitan/config/job_config.py:282 at 238fa995; configs.py:94 at b5bcd76c) */
	int mpp = 1, mpp_line = 0;
	/* [activation_checkpoint] mode and selective_ac_option, mapped once the model and the
	 * stages are known (tt_ac_map); absent: torchtitan's defaults, "selective" and "2" */
	char ac_mode[16] = "", ac_opt[32] = "";
	int ac_mode_line = 0, ac_opt_line = 0;
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
		if (!strcmp(section, "training") || (!strcmp(section, "compile") && !strcmp(key, "enable"))) {
			/* torch.compile of the blocks: [training] compile (job_config.py at 9dec370) or
			 * [compile] enable (job_config.py:721 at 238fa995); training.compile */
			if (!strcmp(key, "compile") || !strcmp(section, "compile")) {
				if (strcmp(val, "true") && strcmp(val, "false"))
					ERR(im, line, "import --from torchtitan: %s = %.80s: allowed are true, false", key, val);
				else
					put(im, line, "training.compile", "%s", strcmp(val, "true") ? "no" : "yes");
				continue;
			}
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
			if (!strcmp(key, "selective_ac_option")) {
				snprintf(ac_opt, sizeof ac_opt, "%.31s", val);
				ac_opt_line = line;
				continue;
			}
			if (in_list(tt_ac_skip, key))
				continue;
			if (!in_list(tt_ac, key)) {
				unknown_name(im, line, "[activation_checkpoint] key", key, tt_ac, tt_ac_skip);
				continue;
			}
			if (strcmp(val, "none") && strcmp(val, "selective") && strcmp(val, "full"))
				ERR(im, line, "import --from torchtitan: mode = \"%.80s\": allowed are none, selective, full", val);
			else
				snprintf(ac_mode, sizeof ac_mode, "%s", val), ac_mode_line = line;
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
			else
				mpp = !strcmp(val, "bfloat16"), mpp_line = line;
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
	/* the recipe the run has: FSDP2 keeps FP32 parameters, gradients and Adam states and
	 * computes in mixed_precision_param (apply_fsdp's MixedPrecisionPolicy,
	 * torchtitan/models/llama3/infra/parallelize.py:131-139, :313 at 238fa995; recipe.c
	 * torch-mp); torchao's Float8 linears add FP8 GEMMs over the same states (torch-mp-fp8);
	 * float32 computes in FP32 (fp32).  Written over the base plan's recipe, as the Python
	 * configuration's reader does */
	put(im, fp8 ? name_line : mpp_line, "training.recipe", "%s", fp8 ? "torch-mp-fp8" : mpp ? "torch-mp" : "fp32");
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
		     "over the other degrees", shard, gpus, im->gpus_from ? im->gpus_from : im->gpus > 0 ? "--gpus" : "the base plan");
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
	tt_ac_map(im, ac_mode[0] ? ac_mode : "selective", ac_mode_line, ac_opt[0] ? ac_opt : "2", ac_opt_line, pp);
	return im->d.nerrors ? -1 : 0;
}

/*
 * torchtitan's command-line overrides, --SECTION.KEY VALUE (or =VALUE), of the same job
 * config as the TOML (tyro's flags of torchtitan/config/job_config.py at 238fa995; current
 * torchtitan keeps them, frozen: torchtitan/config/README.md at b5bcd76c), after an optional
 * launcher (NGPU=8 ./run_train.sh, torchrun ... -m torchtitan.train): written as the TOML
 * they stand for, each key on a line that maps back to the input's.  Returns the TOML, or
 * NULL when the text has no such override.
 */
static char *tt_cli_toml(struct imp *im, const char *text, int **map, int *nmap)
{
	struct fields w = {0};
	struct sbuf out = {0};
	int first = -1, line = 0, cap = 0;
	char b[96];
	nemo_words(im, text, &w);
	for (int i = 0; i < w.n && first < 0; i++) {
		const char *s = w.f[i].s, *dot = strchr(s, '.');
		if (s[0] == '-' && s[1] == '-' && dot && isalpha((unsigned char)s[2]) && (!strchr(s, '=') || dot < strchr(s, '=')))
			first = i;
	}
	if (first < 0) {
		fields_free(&w);
		return NULL;
	}
	*map = NULL;
	/* the launcher's words: run_train.sh's NGPU (its GPUs, one node: torchrun --nproc_per_node
	 * ${NGPU}, run_train.sh:28, :44 at 238fa995); a job TOML it names is not read */
	{
		int named = 0;
		for (int i = 0; i < w.n; i++)
			named |= !strncmp(w.f[i].s, "CONFIG_FILE=", 12) || !strncmp(w.f[i].s, "--job.config_file", 17) ||
			         !strncmp(w.f[i].s, "--job.config-file", 17);
		if (!named)
			NOTE(im, 0, "import --from torchtitan: no job TOML named: run_train.sh's default "
			     "(./torchtitan/models/llama3/train_configs/debug_model.toml, run_train.sh:30) is not read; what "
			     "the overrides leave out is the base plan's");
	}
	for (int i = 0; i < first; i++) {
		long g;
		if (!strncmp(w.f[i].s, "CONFIG_FILE=", 12))
			NOTE(im, w.f[i].line, "import --from torchtitan: %s: the job TOML the overrides apply to is not read "
			     "here; what the overrides leave out is the base plan's (import that file and give it with --plan)",
			     shown(w.f[i].s, b, sizeof b));
		else if (!strncmp(w.f[i].s, "NGPU=", 5) && !im->gpus) {
			if (parse_int(w.f[i].s + 5, 1, 1000000, 0, &g) == 0)
				im->gpus = g, im->gpus_from = "NGPU";
			else
				ERR(im, w.f[i].line, "import --from torchtitan: %s: allowed is a whole number from 1 to 1000000",
				    shown(w.f[i].s, b, sizeof b));
		}
	}
	/* one table per section, in the order of first appearance; a key given twice: the last */
	{
		char sec[64][128];
		int nsec = 0;
		for (int i = first; i < w.n; i++) {
			const char *s = w.f[i].s, *eq, *dot = strrchr(s, '.');
			char key[128];
			int k;
			if (s[0] != '-' || s[1] != '-' || !dot) {
				if (!strcmp(s, "--module") || !strcmp(s, "--config"))
					ERR(im, w.f[i].line, "import --from torchtitan: %s: a Python configuration function is "
					    "selected, which is in its module's file: import that file with the same --module and "
					    "--config (import --from torchtitan config_registry.py --module FAMILY --config NAME -- "
					    "OVERRIDES)", s);
				else
					ERR(im, w.f[i].line, "import --from torchtitan: '%s' is not a --SECTION.KEY override",
					    shown(s, b, sizeof b));
			} else {
				eq = strchr(s, '=');
				if (eq && eq < dot)
					eq = NULL;
				snprintf(key, sizeof key, "%.*s", (int)((eq ? eq : s + strlen(s)) - s - 2), s + 2);
				if (strrchr(key, '.'))
					*strrchr(key, '.') = 0;
				for (k = 0; k < nsec; k++)
					if (!strcmp(sec[k], key))
						break;
				if (k == nsec && nsec < 64)
					memcpy(sec[nsec++], key, sizeof key);
			}
			while (i + 1 < w.n && !(w.f[i + 1].s[0] == '-' && w.f[i + 1].s[1] == '-'))
				i++; /* the value's words */
		}
		/* the TOML: each section, then its keys (the last value of each) */
		for (int k = 0; k < nsec; k++) {
			char head[160];
			snprintf(head, sizeof head, "[%.126s]\n", sec[k]);
			sb_add(&out, head, strlen(head));
			if (line + 2 >= cap)
				cap = cap * 2 + 64, *map = xrealloc(*map, (size_t)cap * sizeof **map);
			(*map)[++line] = 0; /* the header: the line of its first key, below */
			for (int i = first, head_line = line; i < w.n; i++) {
				const char *s = w.f[i].s, *eq, *dot, *v;
				char key[128], val[512] = "", lineb[700];
				int last = 1;
				if (s[0] != '-' || s[1] != '-' || !(dot = strrchr(s, '.')))
					continue;
				eq = strchr(s, '=');
				if (eq && eq < dot)
					eq = NULL;
				snprintf(key, sizeof key, "%.*s", (int)((eq ? eq : s + strlen(s)) - s - 2), s + 2);
				if (strlen(sec[k]) != (size_t)(strrchr(key, '.') - key) || strncmp(key, sec[k], strlen(sec[k])))
					continue;
				if (eq)
					snprintf(val, sizeof val, "%s", eq + 1);
				else
					for (int j = i + 1; j < w.n && !(w.f[j].s[0] == '-' && w.f[j].s[1] == '-'); j++)
						snprintf(val + strlen(val), sizeof val - strlen(val), "%s%s", val[0] ? "\x1f" : "", w.f[j].s);
				for (int j = i + 1; j < w.n; j++) { /* a later override of the same key wins */
					const char *t = w.f[j].s;
					size_t kl = strlen(key);
					if (t[0] == '-' && t[1] == '-' && !strncmp(t + 2, key, kl) && (!t[kl + 2] || t[kl + 2] == '='))
						last = 0;
				}
				if (!last)
					continue;
				v = val[0] ? val : "true"; /* tyro's boolean flag without a value */
				if (strchr(v, '\x1f') || !strcmp(strrchr(key, '.') + 1, "converters")) {
					/* a list: ["a", "b"] */
					struct sbuf l = {0};
					char *c = xstrdup(v), *e, *tok;
					sb_add(&l, "[", 1);
					for (tok = strtok_r(c, "\x1f,", &e); tok; tok = strtok_r(NULL, "\x1f,", &e))
						sb_add(&l, l.n > 1 ? ", \"" : "\"", l.n > 1 ? 3 : 1), sb_add(&l, tok, strlen(tok)), sb_add(&l, "\"", 1);
					sb_add(&l, "]", 1);
					snprintf(lineb, sizeof lineb, "%s = %s\n", strrchr(key, '.') + 1, l.s);
					free(l.s);
					free(c);
				} else if (!strcmp(v, "true") || !strcmp(v, "True") || !strcmp(v, "false") || !strcmp(v, "False")) {
					snprintf(lineb, sizeof lineb, "%s = %s\n", strrchr(key, '.') + 1, v[0] == 't' || v[0] == 'T' ? "true" : "false");
				} else {
					long x;
					char *end;
					errno = 0;
					(void)strtod(v, &end);
					if ((*v && !*end && !errno) || parse_int(v, LONG_MIN, LONG_MAX, 1, &x) == 0)
						snprintf(lineb, sizeof lineb, "%s = %s\n", strrchr(key, '.') + 1, v);
					else if (strpbrk(v, "\"\\"))
						snprintf(lineb, sizeof lineb, "%s = '%s'\n", strrchr(key, '.') + 1, v);
					else
						snprintf(lineb, sizeof lineb, "%s = \"%s\"\n", strrchr(key, '.') + 1, v);
				}
				sb_add(&out, lineb, strlen(lineb));
				if (line + 2 >= cap)
					cap = cap * 2 + 64, *map = xrealloc(*map, (size_t)cap * sizeof **map);
				(*map)[++line] = w.f[i].line;
				if (!(*map)[head_line])
					(*map)[head_line] = w.f[i].line;
			}
		}
	}
	*nmap = line + 1;
	fields_free(&w);
	if (!out.s)
		sb_add(&out, "", 0);
	return out.s;
}

/* A message of the Python reader (import_titan_py.c), as the import's own. */
static void tt_py_msg(void *ctx, int line, int is_error, const char *text)
{
	imp_msg(ctx, line, is_error ? CALC_ERROR : CALC_NOTE, "%s", text);
}

/* current torchtitan's Python configuration: the function read as the job TOML it stands for */
static int import_torchtitan_py(struct imp *im, const char *text)
{
	struct ttpy_out out;
	char *seen[4096];
	int n = 0, rc;
	char fam[64] = "";
	const char *m = im->tt_module, *at = strstr(im->file, "models/"), *end;
	/* no --module: the family of the file's place in torchtitan's tree,
	 * torchtitan/models/FAMILY/config_registry.py (what --module FAMILY imports,
	 * torchtitan/config/manager.py:105-113 at b5bcd76c) */
	while (at && strstr(at + 1, "models/"))
		at = strstr(at + 1, "models/");
	if (!m && at && (end = strchr(at + 7, '/')) && !strcmp(end, "/config_registry.py") &&
	    end - at - 7 < (long)sizeof fam && end > at + 7) {
		snprintf(fam, sizeof fam, "%.*s", (int)(end - at - 7), at + 7);
		m = fam;
	}
	/* after errors of the Python reader, the TOML of what it read still goes through the
	 * TOML reader, whose checks add their messages: every problem in one run */
	if ((rc = ttpy_read(text, im->tt_config, m, im->tt_ovr, im->tt_novr, tt_py_msg, im, &out)) < 0 && !out.toml)
		return -1;
	im->line_map = out.map, im->nline_map = out.nmap;
	im->errors_only = rc < 0; /* its notes describe a plan that is not written */
	rc = tt_import(im, out.toml, seen, &n) || rc < 0 ? -1 : 0;
	im->line_map = NULL, im->nline_map = 0, im->errors_only = 0;
	for (int i = 0; i < n; i++)
		free(seen[i]);
	if (!rc && !im->d.nerrors) {
		/* enable_sequence_parallel = False keeps TP's activations whole (configs.py:169) */
		if (!out.sp)
			put(im, out.sp_line, "parallel.sp", "no");
		if (out.dispatcher)
			put(im, out.dispatcher_line, "moe.dispatcher", "%s", out.dispatcher);
	}
	free(out.toml);
	free(out.map);
	return rc || im->d.nerrors ? -1 : 0;
}

static int import_torchtitan(struct imp *im, char *text)
{
	char *seen[4096], *toml = NULL;
	int n = 0, rc, py = 0, *map = NULL, nmap = 0;
	if (ttpy_is_python(text, &py))
		return import_torchtitan_py(im, text);
	if (im->tt_config || im->tt_module || im->tt_novr) {
		ERR(im, 0, "import --from torchtitan: --config, --module and the overrides after -- go with a Python "
		    "configuration (config_registry.py); this file is a job TOML or command words");
		return -1;
	}
	if (!strchr(text, '[') || !strstr(text, "]\n")) {
		if ((toml = tt_cli_toml(im, text, &map, &nmap))) {
			im->line_map = map, im->nline_map = nmap;
			rc = tt_import(im, toml, seen, &n);
			im->line_map = NULL, im->nline_map = 0;
			free(map);
			free(toml);
			for (int i = 0; i < n; i++)
				free(seen[i]);
			return rc || im->d.nerrors ? -1 : 0;
		}
	}
	rc = tt_import(im, text, seen, &n);
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
				/* ZeRO-Offload (Ren et al. 2021): the rank's optimizer partition and its fp16
				 * gradients on the host, CPU Adam (docs/references.md §2.13); ZeRO-Infinity's
				 * NVMe and parameter offload (Rajbhandari et al. 2021; §2.15) below; the rest
				 * (cpu_offload's old names, ZenFlow, other devices) refused */
				if (!strcmp(zk, "offload_optimizer") && json_is_string(dev) &&
				    !strcmp(json_string_value(dev), "cpu")) {
					put(im, key_line(text, zk), "training.offload_optimizer", "1");
					put(im, key_line(text, zk), "training.offload_style", "zero-offload");
					continue;
				}
				/* ZeRO-Infinity's optimizer swap to NVMe (offload_config.py at edaa722: device,
				 * pipeline_read, pipeline_write; docs/references.md §2.15): the plan refuses it
				 * outside ZeRO-3 and without cluster.nvme_bw.  Parameter offload stays refused */
				if (!strcmp(zk, "offload_optimizer") && json_is_string(dev) &&
				    !strcmp(json_string_value(dev), "nvme")) {
					json_t *pr = json_object_get(zv, "pipeline_read"), *pw = json_object_get(zv, "pipeline_write");
					put(im, key_line(text, zk), "training.offload_optimizer", "1");
					put(im, key_line(text, zk), "training.offload_style", "zero-offload");
					put(im, key_line(text, zk), "training.offload_device", "nvme");
					if (json_is_true(pr) || json_is_true(pw))
						put(im, key_line(text, json_is_true(pr) ? "pipeline_read" : "pipeline_write"),
						    "training.nvme_pipeline", "yes");
					continue;
				}
				/* ZeRO-3's parameter offload (DeepSpeedZeroOffloadParamConfig: device cpu or
				 * nvme; docs/references.md §2.15): the plan refuses it outside ZeRO-3 */
				if (!strcmp(zk, "offload_param") && json_is_string(dev) &&
				    (!strcmp(json_string_value(dev), "cpu") || !strcmp(json_string_value(dev), "nvme"))) {
					put(im, key_line(text, zk), "training.offload_param", "%s", json_string_value(dev));
					continue;
				}
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
 * 1 torchtitan, 2 DeepSpeed, 3 NeMo) into im's keys, and check the plan they make over
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
	case 2: rc = import_deepspeed(im, text); break;
	default: rc = import_nemo(im, text); break;
	}
	if (!rc)
		rc = check_plan(im);
	return rc || im->d.nerrors ? -1 : 0;
}

int cmd_import(int argc, char **argv)
{
	static const char *const fws[] = {"megatron", "torchtitan", "deepspeed", "nemo", NULL};
	struct cli_opts o;
	struct calc_plan base;
	struct imp im;
	const char *fw = NULL, *path = NULL, *gpus = NULL, *ttconfig = NULL, *ttmodule = NULL;
	char *text, why[256], **ovr = NULL;
	size_t len;
	int rc, which = -1, novr = 0;

	/* the words after --: torchtitan's --SECTION.KEY VALUE overrides of a Python configuration */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			ovr = argv + i + 1, novr = argc - i - 1, argc = i;
			break;
		}
	if ((rc = cli_parse(argc, argv, &o)) != 0)
		return rc;
	if (o.format_given || o.nsets)
		return cli_error("import: writes a plan (INI); --format and --set are not taken");
	for (int i = 0; i < o.nrest; i++) {
		const char *v;
		const char *val, *opt = cli_next("import", &o, &i, &val);
		if (!opt)
			return 2;
		if (cli_is(opt, "--from") && (v = val))
			fw = v;
		else if (cli_is(opt, "--gpus") && (v = val))
			gpus = v;
		else if (cli_is(opt, "--config") && (v = val))
			ttconfig = v;
		else if (cli_is(opt, "--module") && (v = val))
			ttmodule = v;
		else if (*opt)
			return cli_unhandled("import", opt);
		else if (path)
			return cli_error("import: one file at a time");
		else
			path = o.rest[i];
	}
	if (!fw)
		return cli_error("import: name the framework: --from megatron|torchtitan|deepspeed|nemo");
	for (int k = 0; fws[k]; k++)
		if (!strcmp(fw, fws[k]))
			which = k;
	if (which < 0) {
		struct calc_suggest s;
		char dym[160];
		calc_suggest_init(&s, fw);
		for (int k = 0; fws[k]; k++)
			calc_suggest_offer(&s, fws[k]);
		return cli_error("import: unknown framework '%.80s': allowed are megatron, torchtitan, deepspeed, nemo%s", fw,
		                 calc_suggest_text(&s, dym, sizeof dym));
	}
	if (!path)
		return cli_error("import: name the file to read ('-' reads standard input)");
	if ((ttconfig || ttmodule || ovr) && which != 1)
		return cli_error("import: --config, --module and the overrides after -- are torchtitan's (--from torchtitan)");
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
	im.tt_config = ttconfig, im.tt_module = ttmodule, im.tt_ovr = ovr, im.tt_novr = novr;
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
