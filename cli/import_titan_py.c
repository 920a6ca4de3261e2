/*
 * import_titan_py.c -- current torchtitan's Python configuration, read without running it.
 *
 * pytorch/torchtitan replaced its job TOML files with Python functions returning
 * Trainer.Config (torchtitan/models/FAMILY/config_registry.py, selected on its command line
 * with --module FAMILY --config FUNCTION: torchtitan/config/manager.py:49-95 and
 * torchtitan/config/README.md at commit b5bcd76c66d0acb1a08b176d9639425bc55e0b2a,
 * 2026-08-21).  The functions it ships are declarative: keyword calls of config classes
 * with literal values, a base function's config changed by `config.a.b = VALUE`.  This file
 * reads that subset:
 *
 *   def NAME() -> Trainer.Config:            (parameters with literal defaults too)
 *       model_spec = model_registry("70B", converters=[Float8LinearConverter.Config(...)])
 *       return Trainer.Config(training=TrainingConfig(...), parallelism=ParallelismConfig(...), ...)
 *
 *   def OTHER() -> Trainer.Config:
 *       config = NAME()
 *       config.parallelism.tensor_parallel_degree = 4
 *       return config
 *
 * Values are int/float/str/bool/None literals ('_' between digits), lists, and the
 * arithmetic + - * / // % ** of literals (8 * 2048).  Anything else (a loop, a condition,
 * a call of a function this reader does not know, a value read back from the config) is
 * kept as "unknown" with its line: a field the plan needs that is unknown is an error
 * naming it, and what the plan does not need is listed in a note.  A field the function
 * leaves out has the default of its dataclass at the same commit (the table tt_defaults).
 * The result is written as the job TOML cmd_import.c's torchtitan reader takes (the
 * same field names: the training and parallelism fields kept theirs), each line mapped
 * back to the Python line that set it.
 */
#include "import_titan_py.h"
#include "../calc/diag.h"
#include "../calc/suggest.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Tokens (Python's lexical structure, docs.python.org/3/reference/lexical_analysis.html) */

enum { TK_END, TK_NAME, TK_NUM, TK_STR, TK_OP, TK_NL };

struct tok {
	int type;
	const char *s;
	int n;
	int line;
	int col;    /* the indentation of its logical line, for the first token of one */
	int first;  /* 1: the first token of a logical line */
	int fstr;   /* a string with an f or b prefix: its value is not a literal */
};

struct toks {
	struct tok *t;
	int n, cap;
};

static void tk_add(struct toks *ts, int type, const char *s, int n, int line, int col, int first, int fstr)
{
	if (ts->n == ts->cap) {
		ts->cap = ts->cap ? 2 * ts->cap : 1024;
		ts->t = xrealloc(ts->t, (size_t)ts->cap * sizeof *ts->t);
	}
	ts->t[ts->n++] = (struct tok){type, s, n, line, col, first, fstr};
}

static void lex(const char *text, struct toks *ts)
{
	const char *p = text;
	int line = 1, depth = 0, col = 0, first = 1, bol = 1;
	while (*p) {
		if (bol) { /* the indentation of a physical line */
			col = 0;
			while (*p == ' ' || *p == '\t' || *p == '\f')
				col = *p++ == '\t' ? (col / 8 + 1) * 8 : col + 1;
			bol = 0;
			continue;
		}
		if (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\r') {
			p++;
			continue;
		}
		if (*p == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n'))) {
			p += p[1] == '\n' ? 2 : 3;
			line++;
			continue;
		}
		if (*p == '#') {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		if (*p == '\n') {
			if (depth == 0 && !first)
				tk_add(ts, TK_NL, p, 0, line, 0, 0, 0), first = 1;
			line++;
			p++;
			bol = depth == 0;
			if (depth)
				bol = 0;
			continue;
		}
		{
			/* a string, with its prefix (r, b, f, u and pairs) */
			const char *q = p;
			int fstr = 0;
			while (q - p < 2 && strchr("rRbBuUfF", *q) && *q)
				fstr |= strchr("bBfF", *q) != NULL, q++;
			if (*q == '"' || *q == '\'') { /* a NAME before it was read whole */
				char c = *q;
				int triple = q[1] == c && q[2] == c, l0 = line;
				const char *e = q + (triple ? 3 : 1);
				for (; *e; e++) {
					if (*e == '\\' && e[1]) {
						if (e[1] == '\n')
							line++;
						e++;
						continue;
					}
					if (*e == '\n') {
						if (!triple)
							break;
						line++;
					}
					if (*e == c && (!triple || (e[1] == c && e[2] == c)))
						break;
				}
				if (*e == c)
					e += triple ? 3 : 1;
				tk_add(ts, TK_STR, p, (int)(e - p), l0, col, first, fstr);
				first = 0;
				p = e;
				continue;
			}
		}
		if (isalpha((unsigned char)*p) || *p == '_' || (unsigned char)*p >= 0x80) {
			const char *e = p;
			while (isalnum((unsigned char)*e) || *e == '_' || (unsigned char)*e >= 0x80)
				e++;
			tk_add(ts, TK_NAME, p, (int)(e - p), line, col, first, 0);
			first = 0;
			p = e;
			continue;
		}
		if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
			const char *e = p;
			while (isalnum((unsigned char)*e) || *e == '_' || *e == '.' ||
			       ((*e == '+' || *e == '-') && (e[-1] == 'e' || e[-1] == 'E') && !(p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))))
				e++;
			tk_add(ts, TK_NUM, p, (int)(e - p), line, col, first, 0);
			first = 0;
			p = e;
			continue;
		}
		{
			static const char *const two[] = {"->", "**", "//", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", ":=",
				"%=", "|=", "&=", "<<", ">>", NULL};
			int n = 1;
			for (int k = 0; two[k]; k++)
				if (p[0] == two[k][0] && p[1] == two[k][1])
					n = 2;
			if (n == 1 && strchr("([{", *p))
				depth++;
			if (n == 1 && strchr(")]}", *p) && depth > 0)
				depth--;
			tk_add(ts, TK_OP, p, n, line, col, first, 0);
			first = 0;
			p += n;
		}
	}
	if (!first)
		tk_add(ts, TK_NL, p, 0, line, 0, 0, 0);
	tk_add(ts, TK_END, p, 0, line, 0, 1, 0);
}

/* ------------------------------------------------------------------------ */
/* Values */

enum { NK_INT, NK_FLOAT, NK_STR, NK_BOOL, NK_NONE, NK_CALL, NK_LIST, NK_UNK };

struct node {
	int kind, line;
	long long i;         /* INT, BOOL */
	double f;            /* FLOAT */
	char *s;             /* STR: the text; CALL: the callee; UNK: what it is */
	struct node **args;  /* CALL's positional arguments, LIST's items */
	int nargs;
	char **kwn;          /* CALL's keyword names ("**" for **mapping) */
	struct node **kwv;
	int nkw;
	int used, note;      /* UNK: reported as an error / to be listed in a note */
	int ovr;             /* given on the command line, after -- */
};

/* A name's value in a function: a node, or a configuration being built (cfg >= 0). */
struct var {
	char name[64];
	struct node *v;
	int cfg;
};

/* One change of a Trainer.Config: the field path ("" the whole config), its value, its line. */
struct asg {
	char path[128];
	struct node *v;
	int line;
};

struct cfg {
	struct asg *a;
	int n, cap;
};

struct func {
	char name[96];
	int line, params, body, end; /* token indexes: '(' of the parameters, the body, past it */
	int trainer;                  /* annotated -> Trainer.Config (or a subclass of the file) */
	char ann[96];                 /* the return annotation */
	int busy;
};

struct rd {
	struct toks ts;
	struct func *fn;
	int nfn;
	char classes[32][96]; /* classes of the file derived from Trainer.Config */
	int nclasses;
	char family[64];
	int family_line;
	struct var glob[256];
	int nglob;
	struct node **nodes;  /* every node, freed at the end */
	int nnodes, capnodes;
	struct cfg *cfgs;
	int ncfgs;
	ttpy_msg_fn msg;
	void *ctx;
	int nerrors;
};

static void rmsg(struct rd *r, int line, int err, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void rmsg(struct rd *r, int line, int err, const char *fmt, ...)
{
	char buf[1600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	r->nerrors += err;
	r->msg(r->ctx, line, err, buf);
}

static struct node *mk(struct rd *r, int kind, int line)
{
	struct node *v = xmalloc(sizeof *v);
	memset(v, 0, sizeof *v);
	v->kind = kind;
	v->line = line;
	if (r->nnodes == r->capnodes) {
		r->capnodes = r->capnodes ? 2 * r->capnodes : 256;
		r->nodes = xrealloc(r->nodes, (size_t)r->capnodes * sizeof *r->nodes);
	}
	r->nodes[r->nnodes++] = v;
	return v;
}

/* The source text of tokens [a, b) on one line, at most 60 bytes. */
static void excerpt(const struct rd *r, int a, int b, char *buf, size_t n)
{
	size_t k = 0;
	if (b <= a)
		b = a + 1;
	for (int i = a; i < b && i < r->ts.n && k + 4 < n && k < 60; i++) {
		const struct tok *t = &r->ts.t[i];
		if (t->type == TK_NL || t->type == TK_END)
			break;
		if (i > a && t->s > r->ts.t[i - 1].s + r->ts.t[i - 1].n && k + 1 < n)
			buf[k++] = ' ';
		for (int j = 0; j < t->n && k + 4 < n && k < 60; j++)
			buf[k++] = t->s[j] == '\n' || t->s[j] == '\t' ? ' ' : t->s[j];
	}
	if (k >= 60 && k + 4 < n)
		buf[k++] = '.', buf[k++] = '.', buf[k++] = '.';
	buf[k] = 0;
}

static struct node *unk(struct rd *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static struct node *unk(struct rd *r, int line, const char *fmt, ...)
{
	struct node *v = mk(r, NK_UNK, line);
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	v->s = xstrdup(buf);
	return v;
}

static int is(const struct tok *t, const char *s)
{
	return (t->type == TK_OP || t->type == TK_NAME) && t->n == (int)strlen(s) && !strncmp(t->s, s, (size_t)t->n);
}

static void tokstr(const struct tok *t, char *buf, size_t n)
{
	snprintf(buf, n, "%.*s", t->n, t->s);
}

/* ------------------------------------------------------------------------ */
/* Expressions */

struct scope {
	struct var v[64];
	int n;
};

struct px {
	struct rd *r;
	struct scope *sc;
	int i;
	int depth; /* of nested expressions: a deeper one is not read (no stack overflow) */
};

static struct var *lookup_var(struct rd *r, struct scope *sc, const char *name)
{
	for (int k = sc ? sc->n - 1 : -1; k >= 0; k--)
		if (!strcmp(sc->v[k].name, name))
			return &sc->v[k];
	for (int k = r->nglob - 1; k >= 0; k--)
		if (!strcmp(r->glob[k].name, name))
			return &r->glob[k];
	return NULL;
}

static int boundary(const struct tok *t)
{
	return t->type == TK_NL || t->type == TK_END || is(t, ",") || is(t, ")") || is(t, "]") || is(t, "}");
}

/* Skip to the end of the expression starting at x->i (',' or a closing bracket at its depth). */
static void skip_expr(struct px *x)
{
	int depth = 0;
	for (; x->r->ts.t[x->i].type != TK_END; x->i++) {
		const struct tok *t = &x->r->ts.t[x->i];
		if (depth == 0 && boundary(t))
			return;
		if (t->type == TK_OP && t->n == 1 && strchr("([{", *t->s))
			depth++;
		if (t->type == TK_OP && t->n == 1 && strchr(")]}", *t->s))
			depth--;
	}
}

static struct node *p_expr(struct px *x);

static struct node *p_number(struct px *x, const struct tok *t)
{
	char buf[80];
	size_t k = 0;
	int fl = 0, base = 10;
	for (int j = 0; j < t->n && k + 1 < sizeof buf; j++)
		if (t->s[j] != '_')
			buf[k++] = t->s[j];
	buf[k] = 0;
	if (buf[0] == '0' && strchr("xXoObB", buf[1]) && buf[1])
		base = strchr("xX", buf[1]) ? 16 : strchr("oO", buf[1]) ? 8 : 2;
	else
		fl = strpbrk(buf, ".eE") != NULL;
	errno = 0;
	if (fl) {
		char *end;
		double f = strtod(buf, &end);
		if (!*end && !errno) {
			struct node *v = mk(x->r, NK_FLOAT, t->line);
			v->f = f;
			return v;
		}
	} else {
		char *end;
		long long i = strtoll(base == 10 ? buf : buf + 2, &end, base);
		if (!*end && !errno && end != buf) {
			struct node *v = mk(x->r, NK_INT, t->line);
			v->i = i;
			return v;
		}
	}
	return unk(x->r, t->line, "the number %.40s", buf);
}

/* A string literal's value (the escapes \\ \' \" \n \t), or NULL when it is not one. */
static char *str_value(const struct tok *t)
{
	const char *s = t->s, *e = t->s + t->n;
	int raw = 0, triple;
	char *out, *o;
	while (*s != '"' && *s != '\'')
		raw |= *s == 'r' || *s == 'R', s++;
	triple = e - s >= 6 && s[1] == s[0] && s[2] == s[0];
	s += triple ? 3 : 1;
	e -= triple ? 3 : 1;
	if (e < s)
		return NULL;
	out = o = xmalloc((size_t)(e - s) + 1);
	for (; s < e; s++) {
		if (*s == '\\' && !raw && s + 1 < e) {
			s++;
			*o++ = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
	return out;
}

static struct node *p_atom(struct px *x)
{
	struct rd *r = x->r;
	const struct tok *t = &r->ts.t[x->i];
	char name[128];
	if (t->type == TK_NUM) {
		x->i++;
		return p_number(x, t);
	}
	if (t->type == TK_STR) {
		struct node *v = mk(r, NK_STR, t->line);
		struct sbufs { char *s; size_t n; } acc = {xstrdup(""), 0};
		int bad = 0;
		for (; r->ts.t[x->i].type == TK_STR; x->i++) { /* adjacent literals concatenate */
			char *s = r->ts.t[x->i].fstr ? NULL : str_value(&r->ts.t[x->i]);
			if (!s) {
				bad = 1;
				continue;
			}
			acc.s = xrealloc(acc.s, acc.n + strlen(s) + 1);
			memcpy(acc.s + acc.n, s, strlen(s) + 1);
			acc.n += strlen(s);
			free(s);
		}
		if (bad) {
			free(acc.s);
			return unk(r, t->line, "an f-string or bytes literal");
		}
		v->s = acc.s;
		return v;
	}
	if (t->type == TK_NAME) {
		int a = x->i;
		struct var *var;
		if (is(t, "True") || is(t, "False")) {
			struct node *v = mk(r, NK_BOOL, t->line);
			v->i = is(t, "True");
			x->i++;
			return v;
		}
		if (is(t, "None")) {
			x->i++;
			return mk(r, NK_NONE, t->line);
		}
		if (is(t, "lambda") || is(t, "not") || is(t, "await") || is(t, "yield")) {
			char ex[80];
			int b;
			skip_expr(x);
			b = x->i;
			excerpt(r, a, b, ex, sizeof ex);
			return unk(r, t->line, "'%s'", ex);
		}
		/* a dotted name */
		tokstr(t, name, sizeof name);
		x->i++;
		while (is(&r->ts.t[x->i], ".") && r->ts.t[x->i + 1].type == TK_NAME && strlen(name) + 2 + (size_t)r->ts.t[x->i + 1].n < sizeof name) {
			snprintf(name + strlen(name), sizeof name - strlen(name), ".%.*s", r->ts.t[x->i + 1].n, r->ts.t[x->i + 1].s);
			x->i += 2;
		}
		if (is(&r->ts.t[x->i], "(")) { /* a call */
			struct node *v = mk(r, NK_CALL, t->line);
			v->s = xstrdup(name);
			x->i++;
			while (!is(&r->ts.t[x->i], ")") && r->ts.t[x->i].type != TK_END) {
				const struct tok *u = &r->ts.t[x->i];
				struct node *arg;
				if (u->type == TK_NAME && is(&r->ts.t[x->i + 1], "=")) {
					char kn[64];
					tokstr(u, kn, sizeof kn);
					x->i += 2;
					arg = p_expr(x);
					v->kwn = xrealloc(v->kwn, (size_t)(v->nkw + 1) * sizeof *v->kwn);
					v->kwv = xrealloc(v->kwv, (size_t)(v->nkw + 1) * sizeof *v->kwv);
					v->kwn[v->nkw] = xstrdup(kn);
					v->kwv[v->nkw++] = arg;
				} else if (is(u, "**") || is(u, "*")) {
					int star2 = is(u, "**"), b0 = x->i;
					char ex[80];
					x->i++;
					skip_expr(x);
					excerpt(r, b0, x->i, ex, sizeof ex);
					arg = unk(r, u->line, "the unpacking %s", ex);
					if (star2) {
						v->kwn = xrealloc(v->kwn, (size_t)(v->nkw + 1) * sizeof *v->kwn);
						v->kwv = xrealloc(v->kwv, (size_t)(v->nkw + 1) * sizeof *v->kwv);
						v->kwn[v->nkw] = xstrdup("**");
						v->kwv[v->nkw++] = arg;
					} else {
						v->args = xrealloc(v->args, (size_t)(v->nargs + 1) * sizeof *v->args);
						v->args[v->nargs++] = arg;
					}
				} else {
					arg = p_expr(x);
					v->args = xrealloc(v->args, (size_t)(v->nargs + 1) * sizeof *v->args);
					v->args[v->nargs++] = arg;
				}
				if (is(&r->ts.t[x->i], ","))
					x->i++;
				else if (!is(&r->ts.t[x->i], ")"))
					skip_expr(x); /* a generator argument and the like: already unknown */
				if (!is(&r->ts.t[x->i], ")") && boundary(&r->ts.t[x->i]) && !is(&r->ts.t[x->i], ","))
					break;
			}
			if (is(&r->ts.t[x->i], ")"))
				x->i++;
			return v;
		}
		{
			char *dot = strchr(name, '.');
			if (dot)
				*dot = 0;
			var = lookup_var(r, x->sc, name);
			if (dot)
				*dot = '.';
			if (var && var->cfg >= 0)
				return unk(r, t->line, "%s, a value read back from the configuration", name);
			if (var && !dot)
				return var->v;
			return unk(r, t->line, "the name %s", name);
		}
	}
	if (is(t, "(")) {
		struct node *v;
		int l = t->line;
		x->i++;
		if (is(&r->ts.t[x->i], ")")) {
			x->i++;
			return mk(r, NK_LIST, l);
		}
		v = p_expr(x);
		if (is(&r->ts.t[x->i], ",")) { /* a tuple: as a list */
			struct node *tu = mk(r, NK_LIST, l);
			tu->args = xmalloc(sizeof *tu->args);
			tu->args[tu->nargs++] = v;
			while (is(&r->ts.t[x->i], ",")) {
				x->i++;
				if (is(&r->ts.t[x->i], ")"))
					break;
				tu->args = xrealloc(tu->args, (size_t)(tu->nargs + 1) * sizeof *tu->args);
				tu->args[tu->nargs++] = p_expr(x);
			}
			v = tu;
		}
		if (is(&r->ts.t[x->i], ")"))
			x->i++;
		return v;
	}
	if (is(t, "[")) {
		struct node *v = mk(r, NK_LIST, t->line);
		x->i++;
		while (!is(&r->ts.t[x->i], "]") && r->ts.t[x->i].type != TK_END) {
			v->args = xrealloc(v->args, (size_t)(v->nargs + 1) * sizeof *v->args);
			v->args[v->nargs++] = p_expr(x);
			if (is(&r->ts.t[x->i], ","))
				x->i++;
			else if (!is(&r->ts.t[x->i], "]"))
				break;
		}
		if (is(&r->ts.t[x->i], "]"))
			x->i++;
		return v;
	}
	{
		int a = x->i;
		char ex[80];
		if (is(t, "{")) { /* a dict or set: skipped whole */
			int depth = 0;
			for (; r->ts.t[x->i].type != TK_END; x->i++) {
				const struct tok *u = &r->ts.t[x->i];
				if (u->type == TK_OP && u->n == 1 && strchr("([{", *u->s))
					depth++;
				if (u->type == TK_OP && u->n == 1 && strchr(")]}", *u->s) && --depth == 0) {
					x->i++;
					break;
				}
			}
		} else {
			skip_expr(x);
		}
		excerpt(r, a, x->i, ex, sizeof ex);
		return unk(r, t->line, "'%s'", ex);
	}
}

static int num(const struct node *v)
{
	return v->kind == NK_INT || v->kind == NK_FLOAT;
}

/* a OP b of two literal numbers, Python's rules (int op int stays int but for /). */
static struct node *arith(struct px *x, struct node *a, const char *op, struct node *b, int line)
{
	struct node *v;
	if (!num(a) || !num(b))
		return NULL;
	if (a->kind == NK_INT && b->kind == NK_INT && strcmp(op, "/")) {
		long long p = a->i, q = b->i, res = 0;
		int ovf = 0;
		if (!strcmp(op, "+"))
			ovf = __builtin_add_overflow(p, q, &res);
		else if (!strcmp(op, "-"))
			ovf = __builtin_sub_overflow(p, q, &res);
		else if (!strcmp(op, "*"))
			ovf = __builtin_mul_overflow(p, q, &res);
		else if (!strcmp(op, "**")) {
			if (q < 0)
				return NULL;
			res = 1;
			if (p == 0 || p == 1)
				res = q ? p : 1;
			else if (p == -1)
				res = q % 2 ? -1 : 1;
			else /* |p| >= 2 overflows within 64 steps */
				for (long long k = 0; k < q && !ovf; k++)
					ovf = __builtin_mul_overflow(res, p, &res);
		} else { /* // and %: floor division */
			if (q == 0 || (p == LLONG_MIN && q == -1))
				return NULL;
			res = p / q;
			if ((p % q) && ((p < 0) != (q < 0)))
				res--;
			if (!strcmp(op, "%"))
				res = p - res * q;
		}
		if (ovf)
			return NULL;
		v = mk(x->r, NK_INT, line);
		v->i = res;
		return v;
	} else {
		double p = a->kind == NK_INT ? (double)a->i : a->f, q = b->kind == NK_INT ? (double)b->i : b->f, res;
		if (!strcmp(op, "+")) res = p + q;
		else if (!strcmp(op, "-")) res = p - q;
		else if (!strcmp(op, "*")) res = p * q;
		else if (!strcmp(op, "/") && q != 0) res = p / q;
		else return NULL; /* float //, %, ** are not needed by a configuration */
		v = mk(x->r, NK_FLOAT, line);
		v->f = res;
		return v;
	}
}

static struct node *p_unary(struct px *x);

static struct node *p_power(struct px *x)
{
	int a = x->i;
	struct node *v = p_atom(x);
	if (is(&x->r->ts.t[x->i], "**")) {
		struct node *w, *res;
		x->i++;
		x->depth += 8; /* a ** chain nests through p_unary */
		w = x->depth >= 64 ? (skip_expr(x), unk(x->r, v->line, "an expression nested more than 64 deep")) : p_unary(x);
		x->depth -= 8;
		if (!(res = arith(x, v, "**", w, v->line))) {
			char ex[80];
			excerpt(x->r, a, x->i, ex, sizeof ex);
			return unk(x->r, v->line, "'%s', arithmetic of values that are not literal numbers or out of range", ex);
		}
		return res;
	}
	return v;
}

static struct node *p_unary(struct px *x)
{
	const struct tok *t = &x->r->ts.t[x->i];
	if (is(t, "-") || is(t, "+")) {
		struct node *v, *zero;
		x->i++;
		if (x->depth >= 64) {
			skip_expr(x);
			return unk(x->r, t->line, "an expression nested more than 64 deep");
		}
		x->depth++;
		v = p_unary(x);
		x->depth--;
		if (is(t, "+"))
			return num(v) ? v : unk(x->r, t->line, "a unary + of a value that is not a number");
		zero = mk(x->r, NK_INT, t->line);
		v = arith(x, zero, "-", v, t->line);
		return v ? v : unk(x->r, t->line, "a negation of a value that is not a number");
	}
	return p_power(x);
}

static struct node *p_term(struct px *x)
{
	int a = x->i;
	struct node *v = p_unary(x);
	for (;;) {
		const struct tok *t = &x->r->ts.t[x->i];
		char op[3];
		struct node *w, *res;
		if (!(is(t, "*") || is(t, "/") || is(t, "//") || is(t, "%")))
			return v;
		tokstr(t, op, sizeof op);
		x->i++;
		w = p_unary(x);
		if (!(res = arith(x, v, op, w, v->line))) {
			char ex[80];
			excerpt(x->r, a, x->i, ex, sizeof ex);
			res = unk(x->r, v->line, "'%s', arithmetic of values that are not literal numbers or out of range", ex);
		}
		v = res;
	}
}

static struct node *p_sum(struct px *x)
{
	int a = x->i;
	struct node *v = p_term(x);
	for (;;) {
		const struct tok *t = &x->r->ts.t[x->i];
		char op[3];
		struct node *w, *res;
		if (!(is(t, "+") || is(t, "-")))
			return v;
		tokstr(t, op, sizeof op);
		x->i++;
		w = p_term(x);
		if (!(res = arith(x, v, op, w, v->line))) {
			char ex[80];
			excerpt(x->r, a, x->i, ex, sizeof ex);
			res = unk(x->r, v->line, "'%s', arithmetic of values that are not literal numbers or out of range", ex);
		}
		v = res;
	}
}

/* An expression up to ',', a closing bracket or the end of the line; what is outside
 * the subset (a comparison, a condition, a subscript, a method of a value) is unknown. */
static struct node *p_expr(struct px *x)
{
	int a = x->i;
	struct node *v;
	if (x->depth >= 64) {
		skip_expr(x);
		return unk(x->r, x->r->ts.t[a].line, "an expression nested more than 64 deep");
	}
	x->depth++;
	v = p_sum(x);
	x->depth--;
	if (!boundary(&x->r->ts.t[x->i]) && !is(&x->r->ts.t[x->i], ":") && !is(&x->r->ts.t[x->i], "=")) {
		char ex[80];
		skip_expr(x);
		excerpt(x->r, a, x->i, ex, sizeof ex);
		return unk(x->r, x->r->ts.t[a].line, "'%s'", ex);
	}
	return v;
}

/* ------------------------------------------------------------------------ */
/* The file's functions and classes */

static void scan_file(struct rd *r)
{
	struct toks *ts = &r->ts;
	for (int i = 0; i < ts->n; i++) {
		const struct tok *t = &ts->t[i];
		if (!t->first || t->col != 0 || t->type == TK_END)
			continue;
		if (is(t, "def") && ts->t[i + 1].type == TK_NAME && is(&ts->t[i + 2], "(")) {
			struct func f;
			int depth = 0, j;
			memset(&f, 0, sizeof f);
			tokstr(&ts->t[i + 1], f.name, sizeof f.name);
			f.line = t->line;
			f.params = i + 2;
			for (j = i + 2; ts->t[j].type != TK_END; j++) {
				if (is(&ts->t[j], "(") || is(&ts->t[j], "["))
					depth++;
				else if (is(&ts->t[j], ")") || is(&ts->t[j], "]"))
					depth--;
				else if (depth == 0 && is(&ts->t[j], "->") && ts->t[j + 1].type == TK_NAME) {
					excerpt(r, j + 1, j + 4, f.ann, sizeof f.ann);
					f.ann[strcspn(f.ann, ": ")] = 0;
				} else if (depth == 0 && is(&ts->t[j], ":"))
					break;
			}
			if (ts->t[j].type != TK_END)
				j++;
			if (ts->t[j].type == TK_NL)
				j++;
			f.body = j;
			for (f.end = j; ts->t[f.end].type != TK_END && !(ts->t[f.end].first && ts->t[f.end].col == 0 && f.end > j);)
				f.end++;
			if (f.body < f.end && ts->t[f.body].line == t->line && ts->t[f.body].type != TK_NL)
				f.end = f.body; /* a one-line def: its statement is read as a body of none */
			r->fn = xrealloc(r->fn, (size_t)(r->nfn + 1) * sizeof *r->fn);
			r->fn[r->nfn++] = f;
		} else if (is(t, "class") && ts->t[i + 1].type == TK_NAME && is(&ts->t[i + 2], "(") && r->nclasses < 32) {
			char bases[96];
			excerpt(r, i + 3, i + 8, bases, sizeof bases);
			if (strstr(bases, "Trainer.Config"))
				tokstr(&ts->t[i + 1], r->classes[r->nclasses++], sizeof r->classes[0]);
		} else if (is(t, "from") && ts->t[i + 1].type == TK_NAME) {
			/* from torchtitan.models.FAMILY[.x] import ..., model_registry */
			char mod[160] = "";
			int j = i + 1, reg = 0;
			while ((ts->t[j].type == TK_NAME && !is(&ts->t[j], "import")) || is(&ts->t[j], ".")) {
				if (strlen(mod) + (size_t)ts->t[j].n + 1 < sizeof mod)
					snprintf(mod + strlen(mod), sizeof mod - strlen(mod), "%.*s", ts->t[j].n, ts->t[j].s);
				j++;
			}
			for (; ts->t[j].type != TK_NL && ts->t[j].type != TK_END; j++)
				reg |= is(&ts->t[j], "model_registry");
			if (reg && !strncmp(mod, "torchtitan.models.", 18) && mod[18]) {
				snprintf(r->family, sizeof r->family, "%.*s", (int)strcspn(mod + 18, "."), mod + 18);
				r->family_line = t->line;
			}
		} else if (t->type == TK_NAME && is(&ts->t[i + 1], "=") && r->nglob < 256) {
			/* a module constant: NAME = VALUE */
			struct px x = {r, NULL, i + 2, 0};
			struct var *g = &r->glob[r->nglob];
			tokstr(t, g->name, sizeof g->name);
			g->v = p_expr(&x);
			g->cfg = -1;
			r->nglob++;
		}
	}
}

static int is_trainer_class(const struct rd *r, const char *callee);

/* Which functions return a Trainer.Config: their annotation names it or a subclass. */
static void mark_trainer(struct rd *r)
{
	for (int k = 0; k < r->nfn; k++)
		r->fn[k].trainer = r->fn[k].ann[0] && is_trainer_class(r, r->fn[k].ann);
}

static struct func *find_func(struct rd *r, const char *name)
{
	for (int k = 0; k < r->nfn; k++)
		if (!strcmp(r->fn[k].name, name))
			return &r->fn[k];
	return NULL;
}

static int is_trainer_class(const struct rd *r, const char *callee)
{
	if (!strcmp(callee, "Trainer.Config"))
		return 1;
	for (int k = 0; k < r->nclasses; k++)
		if (!strcmp(callee, r->classes[k]))
			return 2;
	return 0;
}

static void cfg_add(struct rd *r, int c, const char *path, struct node *v, int line)
{
	struct cfg *g = &r->cfgs[c];
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 32;
		g->a = xrealloc(g->a, (size_t)g->cap * sizeof *g->a);
	}
	snprintf(g->a[g->n].path, sizeof g->a[0].path, "%s", path);
	g->a[g->n].v = v;
	g->a[g->n++].line = line;
}

static int cfg_new(struct rd *r)
{
	r->cfgs = xrealloc(r->cfgs, (size_t)(r->ncfgs + 1) * sizeof *r->cfgs);
	memset(&r->cfgs[r->ncfgs], 0, sizeof *r->cfgs);
	return r->ncfgs++;
}

static int cfg_copy(struct rd *r, int from)
{
	int c = cfg_new(r);
	for (int k = 0; k < r->cfgs[from].n; k++)
		cfg_add(r, c, r->cfgs[from].a[k].path, r->cfgs[from].a[k].v, r->cfgs[from].a[k].line);
	return c;
}

/* A Trainer.Config(...) call as a configuration: each keyword a field. */
static int cfg_of_call(struct rd *r, struct node *call)
{
	int c = cfg_new(r);
	if (is_trainer_class(r, call->s) == 2)
		rmsg(r, call->line, 0, "import --from torchtitan: %s is a Trainer.Config of this file: its fields are read "
		     "as Trainer.Config's, its own methods (checks, __post_init__) are not run", call->s);
	for (int k = 0; k < call->nargs; k++)
		cfg_add(r, c, "", unk(r, call->args[k]->line, "a positional argument of %s", call->s), call->args[k]->line);
	for (int k = 0; k < call->nkw; k++)
		cfg_add(r, c, strcmp(call->kwn[k], "**") ? call->kwn[k] : "", call->kwv[k], call->kwv[k]->line);
	return c;
}

/* The value of a function: a configuration (*cfg >= 0) or a node. */
struct res {
	int cfg;
	struct node *v;
};

static struct res eval_func(struct rd *r, struct func *f, struct node *call, const int *cfgpos, int depth);

/* A call of a function of this file at x->i (NAME '(' ... ')' then the end of the line)? */
static struct func *file_call(struct rd *r, int i)
{
	const struct tok *t = &r->ts.t[i];
	char name[96];
	struct func *f;
	if (t->type != TK_NAME || !is(&r->ts.t[i + 1], "("))
		return NULL;
	tokstr(t, name, sizeof name);
	f = find_func(r, name);
	return f;
}

/* The effects of a statement this reader does not follow (a loop, a condition, a call
 * given the configuration): every name it sets and every field of a configuration it
 * sets or passes on becomes 'u'. */
static void unknown_effects(struct rd *r, struct scope *sc, int a, int b, struct node *u)
{
	u->note = 1;
	for (int i = a; i < b; i++) {
		const struct tok *t = &r->ts.t[i];
		struct var *v;
		char name[64];
		if (t->type != TK_NAME)
			continue;
		tokstr(t, name, sizeof name);
		v = lookup_var(r, sc, name);
		if (v && v->cfg >= 0 && !(i > a && is(&r->ts.t[i - 1], "."))) {
			/* config, config.a.b = ..., f(config), config.a.append(...): that field */
			char path[128] = "";
			int j = i + 1;
			while (is(&r->ts.t[j], ".") && r->ts.t[j + 1].type == TK_NAME && !is(&r->ts.t[j + 2], "(")) {
				snprintf(path + strlen(path), sizeof path - strlen(path), "%s%.*s", path[0] ? "." : "",
				         r->ts.t[j + 1].n, r->ts.t[j + 1].s);
				j += 2;
			}
			if (is(&r->ts.t[j], "=") || is(&r->ts.t[j], "(") || is(&r->ts.t[j], ",") || is(&r->ts.t[j], ")") ||
			    is(&r->ts.t[j], ".") || (r->ts.t[j].type == TK_OP && r->ts.t[j].n == 2 && r->ts.t[j].s[1] == '='))
				cfg_add(r, v->cfg, path, u, t->line);
		} else if (t->first || (i > a && (is(&r->ts.t[i - 1], "for") || is(&r->ts.t[i - 1], "as")))) {
			/* NAME = ..., for NAME in, with ... as NAME */
			const struct tok *n1 = &r->ts.t[i + 1];
			if ((is(n1, "=") || is(n1, "in") || is(n1, ":") || is(n1, ",") || is(n1, ")") ||
			     (n1->type == TK_OP && n1->n == 2 && n1->s[1] == '=' && !is(n1, "==")) || is(&r->ts.t[i - 1], "as")) &&
			    !(v && v->cfg >= 0) && sc->n < 64) {
				snprintf(sc->v[sc->n].name, sizeof sc->v[0].name, "%s", name);
				sc->v[sc->n].v = u;
				sc->v[sc->n++].cfg = -1;
			}
		}
	}
}

/* The end of the statement starting at token a: its line and, for a compound statement,
 * the lines indented below it. */
static int stmt_end(const struct rd *r, int a, int end)
{
	int col = r->ts.t[a].col, i = a + 1;
	while (i < end && !(r->ts.t[i].first && r->ts.t[i].col <= col))
		i++;
	return i;
}

/* Bind a function's parameters: a call's keywords and positions, else the defaults. */
static void bind_params(struct rd *r, struct func *f, struct node *call, struct scope *sc)
{
	int i = f->params + 1, pos = 0;
	while (!is(&r->ts.t[i], ")") && r->ts.t[i].type != TK_END && sc->n < 64) {
		const struct tok *t = &r->ts.t[i];
		struct var *v = &sc->v[sc->n];
		if (t->type != TK_NAME) { /* *, /, *args, **kwargs */
			struct px x = {r, sc, i + 1, 0};
			skip_expr(&x);
			i = x.i + is(&r->ts.t[x.i], ",");
			continue;
		}
		tokstr(t, v->name, sizeof v->name);
		v->cfg = -1;
		v->v = NULL;
		i++;
		if (is(&r->ts.t[i], ":")) { /* the annotation */
			struct px x = {r, sc, i + 1, 0};
			int depth = 0;
			for (; r->ts.t[x.i].type != TK_END; x.i++) {
				const struct tok *u = &r->ts.t[x.i];
				if (depth == 0 && (is(u, "=") || is(u, ",") || is(u, ")")))
					break;
				depth += is(u, "[") || is(u, "(");
				depth -= is(u, "]") || is(u, ")");
			}
			i = x.i;
		}
		if (is(&r->ts.t[i], "=")) {
			struct px x = {r, NULL, i + 1, 0};
			v->v = p_expr(&x);
			i = x.i;
		}
		for (int k = 0; call && k < call->nkw; k++)
			if (!strcmp(call->kwn[k], v->name))
				v->v = call->kwv[k];
		if (call && pos < call->nargs)
			v->v = call->args[pos];
		pos++;
		if (!v->v)
			v->v = unk(r, t->line, "the parameter %s without a value", v->name);
		sc->n++;
		if (is(&r->ts.t[i], ","))
			i++;
	}
}

/* Evaluate the body of f: the configuration it returns, or its value. */
static struct res eval_func(struct rd *r, struct func *f, struct node *call, const int *cfgpos, int depth)
{
	struct scope *sc = xmalloc(sizeof *sc);
	struct res out = {-1, NULL};
	int i = f->body;
	sc->n = 0;
	if (depth > 16 || f->busy) {
		out.v = unk(r, f->line, "%s, called from itself", f->name);
		free(sc);
		return out;
	}
	f->busy = 1;
	bind_params(r, f, call, sc);
	/* a configuration passed by position is the caller's, changed in place (Python's objects) */
	for (int k = 0; cfgpos && k < sc->n && k < 16; k++)
		if (cfgpos[k] >= 0)
			sc->v[k].cfg = cfgpos[k];
	while (i < f->end && r->ts.t[i].type != TK_END) {
		const struct tok *t = &r->ts.t[i];
		int e = stmt_end(r, i, f->end);
		char ex[80];
		excerpt(r, i, e, ex, sizeof ex);
		if (t->type == TK_NL) {
			i++;
			continue;
		}
		if (t->type == TK_STR || is(t, "assert") || is(t, "pass") || is(t, "import") || is(t, "from") ||
		    is(t, "def") || is(t, "class") || is(t, "@")) {
			/* a docstring, a check, an import, a nested definition (its use is what counts) */
		} else if (is(t, "return")) {
			struct func *g = file_call(r, i + 1);
			struct var *v;
			char name[64];
			tokstr(&r->ts.t[i + 1], name, sizeof name);
			v = r->ts.t[i + 1].type == TK_NAME ? lookup_var(r, sc, name) : NULL;
			if (v && v->cfg >= 0 && r->ts.t[i + 2].type == TK_NL) {
				out.cfg = v->cfg;
			} else {
				struct px x = {r, sc, i + 1, 0};
				struct node *val = p_expr(&x);
				if (g && val->kind == NK_CALL) {
					out = eval_func(r, g, val, NULL, depth + 1);
				} else if (val->kind == NK_CALL && is_trainer_class(r, val->s)) {
					out.cfg = cfg_of_call(r, val);
				} else {
					out.v = val;
				}
			}
			break;
		} else if (t->type == TK_NAME && !is(t, "if") && !is(t, "for") && !is(t, "while") && !is(t, "with") &&
		           !is(t, "try") && !is(t, "match") && !is(t, "del") && !is(t, "raise") && !is(t, "global") &&
		           !is(t, "nonlocal") && !is(t, "elif") && !is(t, "else") && !is(t, "except") && !is(t, "finally")) {
			/* NAME[.a.b] = VALUE, or an expression statement */
			char name[64], path[128] = "";
			int j = i + 1;
			struct var *v;
			tokstr(t, name, sizeof name);
			while (is(&r->ts.t[j], ".") && r->ts.t[j + 1].type == TK_NAME) {
				snprintf(path + strlen(path), sizeof path - strlen(path), "%s%.*s", path[0] ? "." : "", r->ts.t[j + 1].n,
				         r->ts.t[j + 1].s);
				j += 2;
			}
			v = lookup_var(r, sc, name);
			if (is(&r->ts.t[j], "=") && (r->ts.t[j + 1].type != TK_NL) && stmt_end(r, i, f->end) == e) {
				struct func *g = !path[0] ? file_call(r, j + 1) : NULL;
				struct px x = {r, sc, j + 1, 0};
				struct node *val;
				int multi;
				val = p_expr(&x);
				multi = is(&r->ts.t[x.i], "=") || is(&r->ts.t[x.i], ",");
				if (multi) {
					struct node *u = unk(r, t->line, "'%s'", ex);
					unknown_effects(r, sc, i, e, u);
				} else if (!path[0]) {
					struct var nv;
					memset(&nv, 0, sizeof nv);
					snprintf(nv.name, sizeof nv.name, "%s", name);
					nv.cfg = -1;
					nv.v = val;
					if (g && val->kind == NK_CALL) {
						struct res rr = eval_func(r, g, val, NULL, depth + 1);
						nv.cfg = rr.cfg >= 0 ? cfg_copy(r, rr.cfg) : -1;
						nv.v = rr.v ? rr.v : val;
					} else if (val->kind == NK_CALL && is_trainer_class(r, val->s)) {
						nv.cfg = cfg_of_call(r, val);
					}
					if (sc->n < 64)
						sc->v[sc->n++] = nv;
				} else if (v && v->cfg >= 0) {
					cfg_add(r, v->cfg, path, val, t->line);
				} else {
					struct node *u = unk(r, t->line, "'%s', a change of %s", ex, name);
					unknown_effects(r, sc, i, e, u);
					if (sc->n < 64) {
						snprintf(sc->v[sc->n].name, sizeof sc->v[0].name, "%s", name);
						sc->v[sc->n].cfg = -1;
						sc->v[sc->n++].v = u;
					}
				}
			} else if (!path[0] && file_call(r, i) && e == stmt_end(r, i, f->end)) {
				/* FUNCTION(config, ...) of this file: its body, with the configuration it is
				 * given by position changed in place */
				int cfgpos[16], k = 0, depth1 = 0;
				struct px x = {r, sc, i, 0};
				struct node *val;
				for (int q = 0; q < 16; q++)
					cfgpos[q] = -1;
				for (int q = i + 2; q < e && r->ts.t[q].type != TK_NL; q++) {
					const struct tok *u = &r->ts.t[q];
					char an[64];
					struct var *av;
					if (depth1 == 0 && is(u, ","))
						k++;
					depth1 += is(u, "(") || is(u, "[") || is(u, "{");
					depth1 -= is(u, ")") || is(u, "]") || is(u, "}");
					if (depth1 || u->type != TK_NAME || !(is(&r->ts.t[q - 1], "(") || is(&r->ts.t[q - 1], ",")) ||
					    !(is(&r->ts.t[q + 1], ",") || is(&r->ts.t[q + 1], ")")) || k >= 16)
						continue;
					tokstr(u, an, sizeof an);
					if ((av = lookup_var(r, sc, an)) && av->cfg >= 0)
						cfgpos[k] = av->cfg;
				}
				val = p_expr(&x);
				if (val->kind == NK_CALL && r->ts.t[x.i].type == TK_NL)
					(void)eval_func(r, file_call(r, i), val, cfgpos, depth + 1);
				else
					unknown_effects(r, sc, i, e, unk(r, t->line, "the statement '%s'", ex));
			} else {
				/* a call or an augmented assignment: what it may change is unknown */
				struct node *u = unk(r, t->line, "the statement '%s'", ex);
				unknown_effects(r, sc, i, e, u);
			}
		} else {
			/* a compound statement (if, for, while, with, try) or del/raise */
			struct node *u = unk(r, t->line, "the statement '%s'", ex);
			unknown_effects(r, sc, i, e, u);
		}
		i = e;
	}
	f->busy = 0;
	free(sc);
	return out;
}

/* ------------------------------------------------------------------------ */
/* Reading the fields */

/* The defaults of the fields read, from torchtitan/config/configs.py and
 * torchtitan/trainer.py at commit b5bcd76c66d0acb1a08b176d9639425bc55e0b2a. */
static const struct {
	const char *path, *def, *where;
} tt_defaults[] = {
	{"training.num_tokens_per_microbatch_per_dp_rank", "16384", "configs.py:37"},
	{"training.num_tokens_per_train_step", "-1", "configs.py:43"},
	{"training.max_context_length", "2048", "configs.py:51"},
	{"training.steps", "10000", "configs.py:67"},
	{"training.enable_cpu_offload", "False", "configs.py:70"},
	{"training.dtype", "\"float32\"", "configs.py:87"},
	{"training.mixed_precision_param", "\"bfloat16\"", "configs.py:94"},
	{"parallelism.data_parallel_replicate_degree", "1", "configs.py:122"},
	{"parallelism.data_parallel_shard_degree", "-1", "configs.py:133"},
	{"parallelism.fsdp_reshard_after_forward", "\"default\"", "configs.py:145"},
	{"parallelism.tensor_parallel_degree", "1", "configs.py:166"},
	{"parallelism.enable_sequence_parallel", "True", "configs.py:169"},
	{"parallelism.pipeline_parallel_degree", "1", "configs.py:180"},
	{"parallelism.module_fqns_per_model_part", "None", "configs.py:187"},
	{"parallelism.pipeline_parallel_first_stage_less_layers", "1", "configs.py:197"},
	{"parallelism.pipeline_parallel_last_stage_less_layers", "1", "configs.py:203"},
	{"parallelism.pipeline_parallel_layers_per_stage", "None", "configs.py:209"},
	{"parallelism.pipeline_parallel_schedule", "\"1F1B\"", "configs.py:216"},
	{"parallelism.pipeline_parallel_schedule_csv", "\"\"", "configs.py:225"},
	{"parallelism.num_pp_microbatches", "1", "configs.py:232"},
	{"parallelism.context_parallel_degree", "1", "configs.py:239"},
	{"parallelism.expert_parallel_degree", "1", "configs.py:282"},
};

/* The other fields of the two dataclasses (configs.py at b5bcd76c): known, of no use to the plan. */
static const char *const tt_training_other[] = {"max_norm", "disable_cuda_graphs", "mixed_precision_reduce", "gc_freq",
	"gc_debug", NULL};
static const char *const tt_parallelism_other[] = {"enable_fsdp_symm_mem", "spmd_backend",
	"context_parallel_load_balancer", "context_parallel_ptrr_mask_key", NULL};
/* Trainer.Config's fields (torchtitan/trainer.py:77-116 at b5bcd76c); the first five are read */
static const char *const tt_trainer_fields[] = {"model_spec", "training", "parallelism", "activation_checkpoint",
	"optimizer", "hf_assets_path", "dump_folder", "profiler", "metrics", "tokenizer", "dataloader", "lr_scheduler",
	"checkpoint", "compile", "comm", "validator", "debug", "override", "loss", NULL};

static int in(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return 1;
	return 0;
}

static struct node *default_of(struct rd *r, const char *path)
{
	for (size_t k = 0; k < sizeof tt_defaults / sizeof tt_defaults[0]; k++)
		if (!strcmp(tt_defaults[k].path, path)) {
			struct toks saved = r->ts;
			struct node *v;
			struct px x = {r, NULL, 0, 0};
			memset(&r->ts, 0, sizeof r->ts);
			lex(tt_defaults[k].def, &r->ts);
			v = p_expr(&x);
			free(r->ts.t);
			r->ts = saved;
			v->line = 0;
			return v;
		}
	return NULL;
}

/* The class a field of Trainer.Config holds when it is read through. */
static const char *class_of(const char *top)
{
	return !strcmp(top, "training") ? "TrainingConfig" : !strcmp(top, "parallelism") ? "ParallelismConfig" : NULL;
}

/* The value of field 'path' ("parallelism.tensor_parallel_degree") in configuration c, the
 * last change winning; *line its line (0: the default).  NULL when nothing sets it. */
static struct node *look(struct rd *r, int c, const char *path, int *line)
{
	const struct cfg *g = &r->cfgs[c];
	*line = 0;
	for (int k = g->n - 1; k >= 0; k--) {
		const struct asg *a = &g->a[k];
		size_t n = strlen(a->path);
		if (!n || !strcmp(a->path, path)) {
			*line = a->line;
			return a->v;
		}
		if (!strncmp(path, a->path, n) && path[n] == '.') {
			/* read through a whole value set: TrainingConfig(...) and its keywords */
			struct node *v = a->v;
			const char *rest = path + n + 1, *cls = class_of(a->path);
			*line = a->line;
			if (v->kind == NK_UNK)
				return v;
			if (v->kind != NK_CALL || (cls && strcmp(v->s, cls)) || strchr(rest, '.'))
				return unk(r, a->line, "%s = %s%s, not %s(...)", a->path, v->kind == NK_CALL ? v->s : "a value",
				           v->kind == NK_CALL ? "(...)" : "", cls ? cls : "a config class");
			for (int j = v->nkw - 1; j >= 0; j--)
				if (!strcmp(v->kwn[j], rest)) {
					*line = v->kwv[j]->line;
					return v->kwv[j];
				}
			for (int j = 0; j < v->nkw; j++)
				if (!strcmp(v->kwn[j], "**"))
					return v->kwv[j];
			if (v->nargs)
				return unk(r, a->line, "a positional argument of %s", v->s);
			return default_of(r, path);
		}
		if (!strncmp(a->path, path, strlen(path)) && a->path[strlen(path)] == '.') {
			/* a part of the value asked for was changed: config.model_spec.x = ... */
			*line = a->line;
			return unk(r, a->line, "config.%s changed in part (config.%s)", path, a->path);
		}
	}
	return default_of(r, path);
}

static const char *kind_name(const struct node *v)
{
	static const char *const n[] = {"a whole number", "a float", "a string", "a boolean", "None", "a call", "a list",
		"unknown"};
	return n[v->kind];
}

/* An error at a value the plan needs that is not a literal of the kind it must be. */
static void need(struct rd *r, const char *path, const struct node *v, int line, const char *allowed)
{
	if (v->kind == NK_UNK && v->used) { /* said once, at its first use */
		r->nerrors++;
		return;
	}
	if (v->kind == NK_UNK) {
		((struct node *)v)->used = 1;
		rmsg(r, v->line ? v->line : line, 1, "import --from torchtitan: %s: %s is not read: its value comes from "
		     "running the code, and the plan depends on it (allowed: %s)", path, v->s, allowed);
	} else if (v->kind == NK_CALL) {
		rmsg(r, v->line ? v->line : line, 1, "import --from torchtitan: %s: %s(...) is a call this reader does not "
		     "follow (allowed: %s)", path, v->s, allowed);
	} else {
		rmsg(r, v->line ? v->line : line, 1, "import --from torchtitan: %s is %s%s; allowed: %s", path, kind_name(v),
		     v->ovr ? " (an override after --)" : "", allowed);
	}
}

static int get_int(struct rd *r, int c, const char *path, long long lo, long long hi, long long *out, int *line)
{
	struct node *v = look(r, c, path, line);
	if (!v)
		return -1;
	if (v->kind == NK_INT && v->i >= lo && v->i <= hi) {
		*out = v->i;
		if (v->line)
			*line = v->line;
		return 0;
	}
	if (v->kind == NK_INT) {
		rmsg(r, v->line ? v->line : *line, 1, "import --from torchtitan: %s = %lld%s: allowed is a whole number from "
		     "%lld to %lld", path, v->i, v->ovr ? " (an override after --)" : "", lo, hi);
		return -1;
	}
	{
		char al[80];
		snprintf(al, sizeof al, "a whole number from %lld to %lld", lo, hi);
		need(r, path, v, *line, al);
	}
	return -1;
}

/* A string field: its value in buf (a bare word of at most n-1 bytes), or NULL when None. */
static int get_str(struct rd *r, int c, const char *path, char *buf, size_t n, int *line, int none_ok)
{
	struct node *v = look(r, c, path, line);
	if (!v)
		return -1;
	if (v->kind == NK_NONE && none_ok) {
		buf[0] = 0;
		return 1;
	}
	if (v->kind == NK_STR && strlen(v->s) < n) {
		for (const char *s = v->s; *s; s++)
			if (!(isalnum((unsigned char)*s) || strchr("_-./ ", *s))) {
				rmsg(r, v->line ? v->line : *line, 1, "import --from torchtitan: %s = \"%.60s\": allowed are letters, "
				     "digits and _ - . /", path, v->s);
				return -1;
			}
		snprintf(buf, n, "%s", v->s);
		if (v->line)
			*line = v->line;
		return 0;
	}
	need(r, path, v, *line, none_ok ? "a string or None" : "a string");
	return -1;
}

static int get_bool(struct rd *r, int c, const char *path, int *out, int *line)
{
	struct node *v = look(r, c, path, line);
	if (!v)
		return -1;
	if (v->kind == NK_BOOL) {
		*out = (int)v->i;
		if (v->line)
			*line = v->line;
		return 0;
	}
	need(r, path, v, *line, "True or False");
	return -1;
}

/* Every field a configuration sets, checked against the dataclasses. */
static void check_fields(struct rd *r, int c)
{
	const struct cfg *g = &r->cfgs[c];
	for (int k = 0; k < g->n; k++) {
		const struct asg *a = &g->a[k];
		char top[64];
		const char *rest;
		snprintf(top, sizeof top, "%.*s", (int)strcspn(a->path, "."), a->path);
		rest = strchr(a->path, '.') ? strchr(a->path, '.') + 1 : NULL;
		if (!a->path[0])
			continue;
		if (!in(tt_trainer_fields, top)) {
			struct calc_suggest s;
			char dym[160];
			calc_suggest_init(&s, top);
			for (int j = 0; tt_trainer_fields[j]; j++)
				calc_suggest_offer(&s, tt_trainer_fields[j]);
			rmsg(r, a->line, 1, "import --from torchtitan: %s is not a field of Trainer.Config (torchtitan/trainer.py:"
			     "77-116 at b5bcd76c)%s", top, calc_suggest_text(&s, dym, sizeof dym));
			continue;
		}
		if (strcmp(top, "training") && strcmp(top, "parallelism"))
			continue;
		{
			const char *const *other = top[0] == 't' ? tt_training_other : tt_parallelism_other;
			const char *names[64];
			int nn = 0;
			if (!rest && a->v->kind == NK_CALL && !strcmp(a->v->s, class_of(top)))
				for (int j = 0; j < a->v->nkw && nn < 64; j++)
					if (strcmp(a->v->kwn[j], "**"))
						names[nn++] = a->v->kwn[j];
			if (rest)
				names[nn++] = rest;
			for (int j = 0; j < nn; j++) {
				char full[160];
				int known = in(other, names[j]);
				snprintf(full, sizeof full, "%s.%s", top, names[j]);
				for (size_t d = 0; d < sizeof tt_defaults / sizeof tt_defaults[0] && !known; d++)
					known = !strcmp(tt_defaults[d].path, full);
				if (!known) {
					struct calc_suggest s;
					char dym[160];
					calc_suggest_init(&s, names[j]);
					for (size_t d = 0; d < sizeof tt_defaults / sizeof tt_defaults[0]; d++)
						if (!strncmp(tt_defaults[d].path, top, strlen(top)))
							calc_suggest_offer(&s, strchr(tt_defaults[d].path, '.') + 1);
					for (int o = 0; other[o]; o++)
						calc_suggest_offer(&s, other[o]);
					rmsg(r, a->line, 1, "import --from torchtitan: %s%s is not a field of %s (torchtitan/config/"
					     "configs.py at b5bcd76c)%s", a->v->ovr ? "the override --" : "", a->v->ovr ? full : names[j],
					     class_of(top), calc_suggest_text(&s, dym, sizeof dym));
				}
			}
		}
	}
}

/* ------------------------------------------------------------------------ */
/* Optimizers other than default_adamw */

/* The optimizer_name of the first parameter group naming Muon in an optimizer value: an
 * OptimizersContainer.Config(param_groups=[ParamGroupConfig(optimizer_name=...), ...]), or
 * a function of the file building one (Kimi's _dist_muon_optimizer: its body is not run,
 * its ParamGroupConfig(optimizer_name="...") keywords are read as written).  Returns the
 * group's line, 0 when no group names Muon. */
static int muon_group(struct rd *r, const struct node *n, char *name, size_t nn)
{
	if (n->kind == NK_CALL && !strcmp(n->s, "OptimizersContainer.Config")) {
		for (int k = 0; k < n->nkw; k++) {
			const struct node *l = n->kwv[k];
			if (strcmp(n->kwn[k], "param_groups") || l->kind != NK_LIST)
				continue;
			for (int j = 0; j < l->nargs; j++) {
				const struct node *g = l->args[j];
				for (int q = 0; g->kind == NK_CALL && q < g->nkw; q++)
					if (!strcmp(g->kwn[q], "optimizer_name") && g->kwv[q]->kind == NK_STR &&
					    strstr(g->kwv[q]->s, "Muon")) {
						snprintf(name, nn, "%s", g->kwv[q]->s);
						return g->kwv[q]->line ? g->kwv[q]->line : g->line;
					}
			}
		}
		return 0;
	}
	if (n->kind == NK_CALL) {
		const struct func *f = find_func(r, n->s);
		for (int i = f ? f->body : 0; f && i + 2 < f->end; i++) {
			const struct tok *t = &r->ts.t[i];
			if (is(t, "optimizer_name") && is(t + 1, "=") && t[2].type == TK_STR && !t[2].fstr) {
				char *v = str_value(&t[2]);
				int hit = v && strstr(v, "Muon");
				if (hit)
					snprintf(name, nn, "%s", v);
				free(v);
				if (hit)
					return t[2].line;
			}
		}
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* The TOML written */

struct sec {
	char *s;
	size_t n;
	int lines[64];
	int nl;
};

static void emit(struct sec *s, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void emit(struct sec *s, int line, const char *fmt, ...)
{
	char buf[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	s->s = xrealloc(s->s, s->n + strlen(buf) + 2);
	memcpy(s->s + s->n, buf, strlen(buf));
	s->n += strlen(buf);
	s->s[s->n++] = '\n';
	s->s[s->n] = 0;
	if (s->nl < 64)
		s->lines[s->nl++] = line;
}

/* torchtitan's command-line overrides over the configuration (ConfigManager: CLI args >
 * config_registry function, torchtitan/config/manager.py:24 at b5bcd76c): --SECTION.KEY
 * VALUE or --SECTION.KEY=VALUE, a value read as a Python literal, else a string. */
static void apply_overrides(struct rd *r, int c, char *const *ovr, int novr)
{
	for (int i = 0; i < novr; i++) {
		const char *w = ovr[i], *eq;
		char key[128], val[256];
		struct node *v;
		if (strncmp(w, "--", 2) || !strchr(w, '.')) {
			rmsg(r, 0, 1, "import --from torchtitan: '%.80s' after --: allowed are torchtitan's --SECTION.KEY VALUE "
			     "overrides", w);
			continue;
		}
		eq = strchr(w, '=');
		snprintf(key, sizeof key, "%.*s", (int)((eq ? eq : w + strlen(w)) - w - 2), w + 2);
		for (char *p = key; *p; p++)
			if (*p == '-')
				*p = '_'; /* tyro takes --a.b-c for a.b_c */
		if (eq)
			snprintf(val, sizeof val, "%s", eq + 1);
		else if (i + 1 < novr && strncmp(ovr[i + 1], "--", 2))
			snprintf(val, sizeof val, "%s", ovr[++i]);
		else
			snprintf(val, sizeof val, "True"); /* a boolean flag alone */
		{
			struct toks saved = r->ts;
			struct px x = {r, NULL, 0, 0};
			memset(&r->ts, 0, sizeof r->ts);
			lex(val, &r->ts);
			v = r->ts.n > 1 ? p_expr(&x) : NULL;
			if (v && (v->kind == NK_UNK || r->ts.t[x.i].type != TK_NL)) {
				v = mk(r, NK_STR, 0);
				v->s = xstrdup(val);
			} else if (!v) {
				v = mk(r, NK_STR, 0);
				v->s = xstrdup(val);
			}
			if (!strcmp(val, "true") || !strcmp(val, "false")) {
				v = mk(r, NK_BOOL, 0);
				v->i = val[0] == 't';
			}
			free(r->ts.t);
			r->ts = saved;
			v->line = 0;
			v->ovr = 1;
		}
		if (strncmp(key, "training.", 9) && strncmp(key, "parallelism.", 12)) {
			rmsg(r, 0, 0, "import --from torchtitan: --%s: of no use to the plan (read are --training.* and "
			     "--parallelism.*)", key);
			continue;
		}
		cfg_add(r, c, key, v, 0);
	}
}

int ttpy_is_python(const char *text, int *line)
{
	int l = 1;
	for (const char *c = text; *c; l++) {
		const char *nl = strchr(c, '\n');
		if (!strncmp(c, "def ", 4) || !strncmp(c, "import ", 7) ||
		    (!strncmp(c, "from ", 5) && strstr(c, " import ") && (!nl || strstr(c, " import ") < nl))) {
			*line = l;
			return 1;
		}
		c = nl ? nl + 1 : c + strlen(c);
	}
	return 0;
}

static void rd_free(struct rd *r)
{
	for (int k = 0; k < r->nnodes; k++) {
		struct node *v = r->nodes[k];
		free(v->s);
		for (int j = 0; j < v->nkw; j++)
			free(v->kwn[j]);
		free(v->kwn);
		free(v->kwv);
		free(v->args);
		free(v);
	}
	free(r->nodes);
	for (int k = 0; k < r->ncfgs; k++)
		free(r->cfgs[k].a);
	free(r->cfgs);
	free(r->fn);
	free(r->ts.t);
}

int ttpy_read(const char *text, const char *config, const char *module, char *const *ovr, int novr,
              ttpy_msg_fn msgfn, void *ctx, struct ttpy_out *out)
{
	struct rd *r = xmalloc(sizeof *r);
	struct func *f = NULL;
	struct res res;
	int c, nsel = 0, rc = -1;
	memset(r, 0, sizeof *r);
	memset(out, 0, sizeof *out);
	r->msg = msgfn;
	r->ctx = ctx;
	lex(text, &r->ts);
	scan_file(r);
	mark_trainer(r);
	/* the function: --config NAME, else the file's only Trainer.Config function */
	for (int k = 0; k < r->nfn; k++)
		nsel += r->fn[k].trainer && r->fn[k].name[0] != '_';
	if (config) {
		if (!(f = find_func(r, config))) {
			struct calc_suggest s;
			char dym[160], list[600] = "";
			calc_suggest_init(&s, config);
			for (int k = 0, m = 0; k < r->nfn; k++)
				if (r->fn[k].trainer && r->fn[k].name[0] != '_') {
					calc_suggest_offer(&s, r->fn[k].name);
					if (m++ < 12)
						snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", m > 1 ? ", " : "", r->fn[k].name);
				}
			rmsg(r, 0, 1, "import --from torchtitan: --config %.80s: the file defines no such function; its "
			     "Trainer.Config functions are %s%s%s", config, list[0] ? list : "none", nsel > 12 ? ", ..." : "",
			     calc_suggest_text(&s, dym, sizeof dym));
			goto done;
		}
	} else {
		char list[600] = "";
		for (int k = 0, m = 0; k < r->nfn; k++)
			if (r->fn[k].trainer && r->fn[k].name[0] != '_') {
				f = &r->fn[k];
				if (m++ < 12)
					snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", m > 1 ? ", " : "", r->fn[k].name);
			}
		if (nsel != 1) {
			rmsg(r, 0, 1, "import --from torchtitan: %s: name the function with --config NAME (torchtitan's "
			     "--config); the file's Trainer.Config functions are %s%s", nsel ? "more than one function" :
			     "no function returning Trainer.Config", list[0] ? list : "none", nsel > 12 ? ", ..." : "");
			goto done;
		}
	}
	res = eval_func(r, f, NULL, NULL, 0);
	if (res.cfg < 0) {
		rmsg(r, f->line, 1, "import --from torchtitan: %s does not return a Trainer.Config this reader can follow "
		     "(%s; read are return Trainer.Config(...), and config = FUNCTION() with config.FIELD = VALUE)", f->name,
		     res.v ? (res.v->kind == NK_UNK ? res.v->s : res.v->kind == NK_CALL ? res.v->s : kind_name(res.v)) :
		     "no return");
		goto done;
	}
	c = cfg_copy(r, res.cfg);
	apply_overrides(r, c, ovr, novr);
	check_fields(r, c);
	{
		struct sec model = {0}, train = {0}, par = {0}, ac = {0};
		char flavor[64] = "", family[64], s[64];
		long long mbtok = 0, step_tok = 0, seq = 0, steps = 0, npp = 1, pp = 1, v;
		int l_mb = 0, l_seq = 0, l_step = 0, l_pp = 0, l_fam = 0, fp8 = 0, b, fline = 0, l, comm = 0, ml, par_err, pp_err;
		char mname[64];
		struct node *ms, *n;
		/* the model: model_registry("FLAVOR", ...) of the family */
		snprintf(family, sizeof family, "%s", module ? module : r->family);
		l_fam = module ? 0 : r->family_line;
		if (!strncmp(family, "torchtitan.models.", 18))
			memmove(family, family + 18, strlen(family + 18) + 1);
		if (strstr(family, ".config_registry"))
			*strstr(family, ".config_registry") = 0;
		ms = look(r, c, "model_spec", &fline);
		if (!ms) {
			rmsg(r, f->line, 1, "import --from torchtitan: %s sets no model_spec (Trainer.Config's default is None: "
			     "no model)", f->name);
		} else if (ms->kind != NK_CALL || strcmp(ms->s, "model_registry")) {
			need(r, "model_spec", ms, fline, "model_registry(\"FLAVOR\", ...)");
		} else {
			struct node *fl = NULL;
			fline = ms->line;
			if (ms->nargs)
				fl = ms->args[0];
			for (int k = 0; k < ms->nkw; k++) {
				const char *kn = ms->kwn[k];
				struct node *kv = ms->kwv[k];
				if (!strcmp(kn, "flavor"))
					fl = kv;
				else if (!strcmp(kn, "converters")) {
					if (kv->kind == NK_NONE)
						continue;
					if (kv->kind != NK_LIST) {
						need(r, "model_registry(converters=...)", kv, ms->line, "a list of converter configs");
						continue;
					}
					for (int j = 0; j < kv->nargs; j++) {
						struct node *cv = kv->args[j];
						if (cv->kind == NK_CALL && (!strcmp(cv->s, "Float8LinearConverter.Config") ||
						                            !strcmp(cv->s, "Float8GroupedExpertsConverter.Config")))
							fp8 = fp8 ? fp8 : cv->line;
						else if (cv->kind == NK_CALL && (strstr(cv->s, "MXFP8") || strstr(cv->s, "NVFP4")))
							/* torchao's MX and NVFP4 linears under FSDP2 keep FP32 weights and quantize
							 * each GEMM: the recipes mxfp8 and nvfp4 are Transformer Engine's (quantized
							 * parameters), so neither holds this run */
							rmsg(r, cv->line, 1, "import --from torchtitan: %s: torchao's %s training is not "
							     "modelled (the plan's mxfp8 and nvfp4 recipes are Transformer Engine's, with "
							     "quantized parameters; trainplan presets recipes)", cv->s,
							     strstr(cv->s, "MXFP8") ? "MXFP8" : "NVFP4");
						else if (cv->kind == NK_CALL && strstr(cv->s, "LoRA"))
							rmsg(r, cv->line, 1, "import --from torchtitan: %s: LoRA (frozen base weights, "
							     "adapters trained) is not modelled", cv->s);
						else
							need(r, "model_registry(converters=...)", cv, cv->line,
							     "Float8LinearConverter.Config, Float8GroupedExpertsConverter.Config");
					}
				} else if (!strcmp(kn, "moe_comm_backend")) {
					comm = 1;
					/* the MoE token exchange (torchtitan/models/deepseek_v3/__init__.py:619 at b5bcd76c,
					 * default "standard"): all-to-all, DeepEP's or its hybrid kernels */
					if (kv->kind == NK_NONE)
						continue;
					if (kv->kind != NK_STR)
						need(r, "model_registry(moe_comm_backend=...)", kv, ms->line, "standard, deepep, hybridep");
					else if (!strcmp(kv->s, "standard") || !strcmp(kv->s, "deepep"))
						emit(&par, kv->line, "expert_parallel_comm_backend = \"%s\"", kv->s);
					else if (!strcmp(kv->s, "hybridep"))
						out->dispatcher = "hybridep", out->dispatcher_line = kv->line;
					else
						rmsg(r, kv->line, 1, "import --from torchtitan: moe_comm_backend = \"%.40s\": the plan models "
						     "standard (all-to-all), deepep and hybridep", kv->s);
				} else if (!strcmp(kn, "attn_backend") || !strcmp(kn, "tp_gemm_backend") ||
				           !strcmp(kn, "non_blocking_capacity_factor")) {
					/* kernels and buffers: not in the plan's model */
				} else {
					rmsg(r, kv->line, 1, "import --from torchtitan: model_registry(%s=...): not read (it changes the "
					     "model; read are the flavor, converters, moe_comm_backend, attn_backend)", kn);
				}
			}
			if (!fl)
				rmsg(r, ms->line, 1, "import --from torchtitan: model_registry(...) names no flavor");
			else if (fl->kind != NK_STR || strlen(fl->s) >= sizeof flavor || strpbrk(fl->s, "\"\\"))
				need(r, "the model flavor", fl, ms->line, "a string such as \"70B\"");
			else
				snprintf(flavor, sizeof flavor, "%s", fl->s), fline = fl->line;
			if (!family[0] && flavor[0])
				rmsg(r, fline, 1, "import --from torchtitan: model_registry(\"%s\"): the model family is not in the "
				     "file (from . import model_registry); name it with --module FAMILY (torchtitan's words: "
				     "--module llama3)", flavor);
			for (const char *p = family; *p; p++)
				if (!(isalnum((unsigned char)*p) || *p == '_')) {
					rmsg(r, l_fam, 1, "import --from torchtitan: --module %.60s: allowed is a model family such as "
					     "llama3 or deepseek_v3", family);
					family[0] = 0;
					break;
				}
			if (!strcmp(family, "deepseek_v3") || !strcmp(family, "qwen3"))
				/* the experts are not split by TP: "EP borrows ranks from FSDP and TP: efsdp =
				 * dp_shard * cp * tp / ep" (configs.py:282-289 at b5bcd76c, which has no expert
				 * TP degree) */
				emit(&par, fline, "expert_tensor_parallel_degree = 1");
			if (!comm && (!strcmp(family, "deepseek_v3") || !strcmp(family, "qwen3")))
				/* model_registry's default, "standard" (deepseek_v3/__init__.py:619; qwen3's MoE
				 * flavors, qwen3/__init__.py:477, :518, :559 at b5bcd76c): all-to-all */
				emit(&par, fline, "expert_parallel_comm_backend = \"standard\"");
			if (family[0] && flavor[0]) {
				emit(&model, fline, "name = \"%s\"", family);
				emit(&model, fline, "flavor = \"%s\"", flavor);
				if (fp8)
					emit(&model, fp8, "converters = [\"float8\"]");
			}
		}
		/* the optimizer: default_adamw (optimizer.py:378-399, AdamW's two moments) */
		/* the optimizer as a whole; config.optimizer.implementation is read below */
		n = NULL, l = 0;
		for (int k = r->cfgs[c].n - 1; k >= 0 && !n; k--) {
			const struct asg *a = &r->cfgs[c].a[k];
			if (!a->path[0] || !strcmp(a->path, "optimizer"))
				n = a->v, l = a->line;
			else if (!strncmp(a->path, "optimizer.", 10) && strcmp(a->path, "optimizer.implementation"))
				n = unk(r, a->line, "config.optimizer changed in part (config.%s)", a->path), l = a->line;
		}
		if (!n)
			rmsg(r, f->line, 0, "import --from torchtitan: %s names no optimizer (OptimizersContainer.Config's "
			     "param_groups default to none, optimizer.py:104 at b5bcd76c); the plan counts AdamW's two moments",
			     f->name);
		else if ((ml = muon_group(r, n, mname, sizeof mname)) > 0)
			/* torchtitan's Muon is DistMuon (the optimizer factories of OptimizersContainer:
			 * Adam, AdamW, DistMuon; optimizer.py:142-150 at b5bcd76c): one momentum buffer,
			 * 5 Newton-Schulz steps (flex_shard/dist_muon.py:271-293), the update of each
			 * matrix computed on one owner rank (Owned) or split into per-head blocks
			 * (BlockShard; flex_shard/optimizer_reshard.py:22-45) */
			rmsg(r, n->line ? n->line : l, 1, "import --from torchtitan: optimizer: the parameter group of "
			     "optimizer_name \"%s\" (line %d) "
			     "is not the plan's muon recipe: FSDP2 keeps its momentum beside FP32 parameters and gradients "
			     "(12 B per parameter; muon counts Megatron-LM's BF16 weights, FP32 main gradients, master weights "
			     "and momentum, 14 B), and DistMuon runs the Newton-Schulz iterations of a matrix on one owner rank "
			     "or on per-head blocks where the plan repeats them on every rank of its DP x TP group "
			     "(docs/references.md §1.9); torchtitan's Muon is not modelled (allowed: default_adamw(...))",
			     mname, ml);
		else if (n->kind == NK_CALL && !strcmp(n->s, "default_adamw")) {
			for (int k = 0; k < n->nkw; k++)
				if (!strcmp(n->kwn[k], "**"))
					need(r, "optimizer", n->kwv[k], l, "default_adamw(lr=...)");
		} else if (n->kind == NK_CALL && !strcmp(n->s, "OptimizersContainer.Config"))
			rmsg(r, n->line, 1, "import --from torchtitan: optimizer = OptimizersContainer.Config(...): parameter "
			     "groups are not read (read is default_adamw(...): AdamW over every parameter)");
		else
			need(r, "optimizer", n, l, "default_adamw(...)");
		{
			char impl[64];
			struct node *iv;
			int il;
			/* set as config.optimizer.implementation = ... (default_adamw's keywords are the
			 * param group's optimizer_kwargs, optimizer.py:385-396, not this field) */
			iv = NULL, il = 0;
			for (int k = r->cfgs[c].n - 1; k >= 0 && !iv; k--)
				if (!strcmp(r->cfgs[c].a[k].path, "optimizer.implementation"))
					iv = r->cfgs[c].a[k].v, il = r->cfgs[c].a[k].line;
			if (iv && iv->kind == NK_STR && !strcmp(iv->s, "fused_opt_states_bf16"))
				rmsg(r, iv->line ? iv->line : il, 1, "import --from torchtitan: optimizer.implementation = "
				     "\"fused_opt_states_bf16\" (FP32 parameters, BF16 Adam moments) is not a recipe of the plan");
			else if (iv && iv->kind != NK_NONE && iv->kind != NK_CALL)
				(void)get_str(r, c, "optimizer.implementation", impl, sizeof impl, &il, 0);
		}
		/* the batch: tokens per data-parallel rank and micro-batch, the context length */
		if (get_int(r, c, "training.num_tokens_per_microbatch_per_dp_rank", 1, 1000000000, &mbtok, &l_mb) < 0)
			mbtok = 0;
		if (get_int(r, c, "training.max_context_length", 1, 10000000, &seq, &l_seq) < 0)
			seq = 0;
		if (get_int(r, c, "training.num_tokens_per_train_step", -1, 1000000000000LL, &step_tok, &l_step) < 0)
			step_tok = -1;
		if (get_int(r, c, "training.steps", 1, 1000000000, &steps, &l) == 0)
			emit(&train, l, "steps = %lld", steps);
		pp_err = r->nerrors;
		if (get_int(r, c, "parallelism.pipeline_parallel_degree", 1, 100000, &pp, &l_pp) < 0)
			pp = 1;
		pp_err = r->nerrors > pp_err;
		if (get_int(r, c, "parallelism.num_pp_microbatches", 1, 1000000, &npp, &l) < 0)
			npp = 1;
		if (mbtok > 0 && seq > 0) {
			/* a micro-batch is one row of num_tokens_per_microbatch_per_dp_rank tokens packed
			 * from documents of at most max_context_length (components/data/packing.py:21-55 at
			 * b5bcd76c): the plan's micro_batch is that many tokens over max_context_length
			 * sequences; a rank runs num_pp_microbatches of them per accumulation step with
			 * pipeline parallelism (trainer.py:409-415) */
			if (mbtok % seq) {
				rmsg(r, l_mb, 1, "import --from torchtitan: num_tokens_per_microbatch_per_dp_rank = %lld is not a "
				     "multiple of max_context_length = %lld: the plan counts a micro-batch in sequences", mbtok, seq);
			} else {
				long long mb = mbtok / seq, lbs = mb * (pp > 1 ? npp : 1);
				emit(&train, l_seq, "seq_len = %lld", seq);
				emit(&train, l_mb, "local_batch_size = %lld", lbs);
				emit(&par, l_mb, "pipeline_parallel_microbatch_size = %lld", mb);
				if (step_tok > 0) {
					if (step_tok % seq)
						rmsg(r, l_step, 1, "import --from torchtitan: num_tokens_per_train_step = %lld is not a "
						     "multiple of max_context_length = %lld", step_tok, seq);
					else if (step_tok / seq > 1000000000)
						rmsg(r, l_step, 1, "import --from torchtitan: num_tokens_per_train_step = %lld: more than "
						     "10^9 sequences", step_tok);
					else
						emit(&train, l_step, "global_batch_size = %lld", step_tok / seq);
				} else if (step_tok == 0 || step_tok < -1) {
					rmsg(r, l_step, 1, "import --from torchtitan: num_tokens_per_train_step = %lld: allowed are -1 "
					     "and a positive number (configs.py:59)", step_tok);
				}
			}
		}
		/* precision */
		if (get_str(r, c, "training.dtype", s, sizeof s, &l, 0) == 0 && strcmp(s, "float32"))
			rmsg(r, l, 1, "import --from torchtitan: training.dtype = \"%s\": training entirely in BF16 (no FP32 "
			     "copy) is not a recipe of the plan", s);
		if (get_str(r, c, "training.mixed_precision_param", s, sizeof s, &l, 0) == 0) {
			if (strcmp(s, "bfloat16") && strcmp(s, "float32"))
				rmsg(r, l, 1, "import --from torchtitan: mixed_precision_param = \"%s\": allowed are bfloat16, float32", s);
			else
				emit(&train, l, "mixed_precision_param = \"%s\"", s);
		}
		if (get_bool(r, c, "training.enable_cpu_offload", &b, &l) == 0 && b)
			rmsg(r, l, 1, "import --from torchtitan: enable_cpu_offload = True: FSDP's CPU offload of parameters, "
			     "gradients and optimizer states is not modelled");
		/* the parallel degrees */
		par_err = r->nerrors;
		{
			static const struct { const char *f; long long lo, hi; } ints[] = {
				{"data_parallel_replicate_degree", 1, 1000000}, {"data_parallel_shard_degree", -1, 1000000},
				{"tensor_parallel_degree", 1, 100000}, {"context_parallel_degree", 1, 100000},
				{"expert_parallel_degree", 1, 100000}, {"pipeline_parallel_first_stage_less_layers", 0, 100000},
				{"pipeline_parallel_last_stage_less_layers", 0, 100000}};
			for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
				char path[96];
				snprintf(path, sizeof path, "parallelism.%s", ints[k].f);
				if (get_int(r, c, path, ints[k].lo, ints[k].hi, &v, &l) == 0) {
					if (v == 0 && !strcmp(ints[k].f, "data_parallel_shard_degree"))
						rmsg(r, l, 1, "import --from torchtitan: data_parallel_shard_degree = 0: allowed are -1 and "
						     "1 or more");
					else
						emit(&par, l ? l : f->line, "%s = %lld", ints[k].f, v);
				}
			}
			emit(&par, l_pp ? l_pp : f->line, "pipeline_parallel_degree = %lld", pp);
			if (look(r, c, "parallelism.pipeline_parallel_layers_per_stage", &l) &&
			    look(r, c, "parallelism.pipeline_parallel_layers_per_stage", &l)->kind != NK_NONE &&
			    get_int(r, c, "parallelism.pipeline_parallel_layers_per_stage", 1, 100000, &v, &l) == 0)
				emit(&par, l, "pipeline_parallel_layers_per_stage = %lld", v);
			if (get_str(r, c, "parallelism.pipeline_parallel_schedule", s, sizeof s, &l, 0) == 0)
				emit(&par, l ? l : f->line, "pipeline_parallel_schedule = \"%s\"", s);
			if (get_str(r, c, "parallelism.fsdp_reshard_after_forward", s, sizeof s, &l, 0) == 0)
				emit(&par, l ? l : f->line, "fsdp_reshard_after_forward = \"%s\"", s);
			if (get_str(r, c, "parallelism.pipeline_parallel_schedule_csv", s, sizeof s, &l, 1) == 0 && s[0])
				rmsg(r, l, 1, "import --from torchtitan: pipeline_parallel_schedule_csv = \"%s\": a schedule from a "
				     "file is not read (allowed: the named schedules)", s);
			n = look(r, c, "parallelism.module_fqns_per_model_part", &l);
			if (n && n->kind == NK_UNK)
				need(r, "parallelism.module_fqns_per_model_part", n, l, "None");
			else if (n && n->kind != NK_NONE)
				rmsg(r, n->line ? n->line : l, 1, "import --from torchtitan: module_fqns_per_model_part is not read; "
				     "allowed are the stages of pipeline_parallel_first/last_stage_less_layers (give the stage list "
				     "as the plan's parallel.layers_per_stage)");
			if (get_bool(r, c, "parallelism.enable_sequence_parallel", &b, &l) == 0)
				out->sp = b, out->sp_line = l;
			else
				out->sp = 1;
		}
		/* a degree refused: the TOML reader's checks of the split would read the others
		 * without it, so the section is left out of the TOML then */
		par_err = r->nerrors > par_err || pp_err;
		/* activation checkpointing: Trainer.Config's default SelectiveAC.Config (trainer.py:108-110),
		 * per-op SAC, the only selective policy since layer SAC left (SelectiveAC in
		 * torchtitan/distributed/activation_checkpoint.py at b5bcd76c): the TOML's
		 * selective_ac_option = "op" */
		n = look(r, c, "activation_checkpoint", &l);
		if (!n) {
			emit(&ac, f->line, "mode = \"selective\"");
			emit(&ac, f->line, "selective_ac_option = \"op\"");
		} else if (n->kind == NK_NONE)
			emit(&ac, n->line ? n->line : l, "mode = \"none\"");
		else if (n->kind == NK_CALL && !strcmp(n->s, "SelectiveAC.Config")) {
			emit(&ac, n->line, "mode = \"selective\"");
			emit(&ac, n->line, "selective_ac_option = \"op\"");
		}
		else if (n->kind == NK_CALL && !strcmp(n->s, "FullAC.Config"))
			emit(&ac, n->line, "mode = \"full\"");
		else if (n->kind == NK_CALL && !strcmp(n->s, "MemoryBudgetAC.Config"))
			rmsg(r, n->line, 1, "import --from torchtitan: MemoryBudgetAC.Config: a memory budget that the compiler "
			     "meets is not modelled (allowed: FullAC.Config(), SelectiveAC.Config(), None)");
		else
			need(r, "activation_checkpoint", n, l, "FullAC.Config(), SelectiveAC.Config(), None");
		/* what the plan did not need, in one note */
		{
			char list[900] = "";
			int m = 0;
			for (int k = 0; k < r->nnodes; k++) {
				struct node *u = r->nodes[k];
				if (u->kind != NK_UNK || !u->note || u->used)
					continue;
				if (m++ < 8)
					snprintf(list + strlen(list), sizeof list - strlen(list), "%sline %d: %s", m > 1 ? "; " : "",
					         u->line, u->s);
			}
			if (m)
				rmsg(r, 0, 0, "import --from torchtitan: not read, and the plan does not depend on it (%d): %s%s", m,
				     list, m > 8 ? "; ..." : "");
		}
		/* the TOML of what was read, errors or not: the TOML reader's checks (the model's
		 * preset, the degrees over the GPUs) then run too, and one run says every problem */
		{
			struct sec *secs[] = {&model, &train, &par, &ac};
			const char *names[] = {"model", "training", "parallelism", "activation_checkpoint"};
			size_t tot = 1;
			int ln = 0;
			out->map = xmalloc(sizeof *out->map * 400);
			out->map[0] = 0;
			for (int k = 0; k < 4; k++)
				tot += secs[k]->n + 32;
			out->toml = xmalloc(tot);
			out->toml[0] = 0;
			for (int k = 0; k < 4; k++) {
				if (!secs[k]->n || (secs[k] == &par && par_err))
					continue;
				sprintf(out->toml + strlen(out->toml), "[%s]\n%s", names[k], secs[k]->s);
				out->map[++ln] = secs[k]->lines[0];
				for (int j = 0; j < secs[k]->nl && ln < 398; j++)
					out->map[++ln] = secs[k]->lines[j];
			}
			out->nmap = ln + 1;
			rc = r->nerrors ? -1 : 0;
		}
		free(model.s);
		free(train.s);
		free(par.s);
		free(ac.s);
	}
done:
	rd_free(r);
	free(r);
	return rc;
}
