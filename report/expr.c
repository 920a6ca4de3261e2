/*
 * expr.c -- the expression language of inline directives `=EXPR |FORMAT`.
 *
 * Grammar (lowest precedence first; docs/architecture.md §6):
 *
 *   expr    := cond [ "with" KEY "=" value { "," KEY "=" value } ]
 *   value   := WORD | cond
 *   cond    := or [ "?" cond ":" cond ]
 *   or      := and { ("||" | "or") and }
 *   and     := cmp { ("&&" | "and") cmp }
 *   cmp     := add [ ("<" | "<=" | ">" | ">=" | "==" | "!=") add ]
 *   add     := mul { ("+" | "-") mul }
 *   mul     := unary { ("*" | "/" | "×" | "÷") unary }
 *   unary   := ("-" | "!" | "not") unary | primary
 *   primary := NUMBER | "STRING" | NAME | "valid" | FUNC "(" expr { "," expr } ")" | "(" expr ")"
 *
 * WORD is a bare word without '.' (full, fp8-te, zero-paper): the value as written.  Any
 * other value is an expression evaluated on the plan the `with` changes, so that
 * `step.time with cp=plan.cp*2, dp=plan.dp/2` and `with inter_node_bw=12.5e9/8` name a
 * scenario relative to whatever plan the report is built for.  All assignments of one
 * `with` are applied together and the variant is validated once; a variant the plan
 * rejects is an error at the assignments, except under `valid`: `valid` is 1 for the
 * plan evaluated, and `valid with ...` is 1 or 0 as the variant is a valid plan or not,
 * which lets a chapter leave out what does not apply (a d that cannot be halved).
 *
 * NAME is a catalog quantity ("memory.total"); FUNC is min, max, ceil, floor, round, abs or
 * isfinite.  isfinite(x) is 1 when x is a finite number and 0 for NaN or an infinity: the
 * variant quantities (cp2.*, network.*) are NaN where the variant is not a valid plan, and
 * a chapter says so in words with `=isfinite(x) ? x : "not applicable" |GB`.  A text
 * written in the chapter ("not applicable") passes through any format unchanged, so one
 * directive can hold both branches; a text from the catalog under a format is an error.
 * A `with` variant evaluates its operand under a copy of the plan changed by
 * calc_plan_variant (the one variant builder, calc/variant.c), so
 * `memory.activations with recompute=full` is the same quantity for another plan.  Values carry their SI unit where it is known so that a format for
 * another unit ("|GB" on seconds) is an error rather than a wrong number.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "../calc/format.h"
#include "../calc/files.h"

/* ======================================================================== */
/* Diagnostics                                                               */
/* ======================================================================== */

int rpt_error(struct calc_diag *d, enum calc_msg kind, const struct rpt_loc *loc, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!loc)
		return calc_error_id(d, kind, NULL, 0, "%s", msg);
	return calc_error_id_at(d, kind, loc->file, loc->line, loc->col, "%s", msg);
}

/* The message of the first record of a library diagnostic, up to its first newline. */
static void diag_message(const struct calc_diag *from, char *buf, size_t n)
{
	snprintf(buf, n, "%s", calc_diag_first(from, "failed"));
	char *nl = strchr(buf, '\n'); /* keep the first line only */
	if (nl)
		*nl = 0;
	size_t l = strlen(buf);
	while (l > 0 && buf[l - 1] == ' ')
		buf[--l] = 0;
}

/* ======================================================================== */
/* Syntax tree                                                               */
/* ======================================================================== */

enum node_kind { E_NUM, E_STR, E_NAME, E_NEG, E_NOT, E_BIN, E_COND, E_CALL, E_WITH, E_VALID };

/* One assignment KEY=VALUE of a `with`: a bare word (full, fp8-te) or an expression. */
struct assign {
	char *key;             /* as written: "cp", "parallel.cp" */
	char *word;            /* the bare word, or NULL */
	struct rpt_expr *val;  /* the expression, or NULL */
};

struct rpt_expr {
	enum node_kind kind;
	int op;             /* E_BIN: '+', '-', '*', '/', '<', 'l' (<=), '>', 'g' (>=), '=', '!', '&', '|' */
	int pos;            /* offset of the node in the source [bytes] */
	double num;
	char *text;         /* E_STR value, E_NAME / E_CALL name, E_WITH assignments */
	struct rpt_expr *a[3];
	struct rpt_expr **args; /* E_CALL */
	int nargs;
	struct assign *as;  /* E_WITH */
	int nas;
	int height;         /* operators on the longest path from this node to a leaf, bounded */
};

static void assigns_free(struct assign *as, int n)
{
	for (int i = 0; i < n; i++) {
		free(as[i].key);
		free(as[i].word);
		rpt_expr_free(as[i].val);
	}
	free(as);
}

void rpt_expr_free(struct rpt_expr *e)
{
	if (!e)
		return;
	for (int i = 0; i < 3; i++)
		rpt_expr_free(e->a[i]);
	for (int i = 0; i < e->nargs; i++)
		rpt_expr_free(e->args[i]);
	free(e->args);
	assigns_free(e->as, e->nas);
	free(e->text);
	free(e);
}

static struct rpt_expr *mk(enum node_kind k, int pos)
{
	struct rpt_expr *e = xcalloc(1, sizeof *e);
	e->kind = k;
	e->pos = pos;
	return e;
}

/* ======================================================================== */
/* Parser                                                                    */
/* ======================================================================== */

struct parser {
	const char *s;
	int i;
	const struct rpt_loc *loc;
	struct calc_diag *d;
	int failed;
	int depth; /* nesting of parentheses, calls and unary operators, bounded */
	int conds; /* nesting of '?:' being parsed, bounded by MAX_HEIGHT */
	enum calc_msg kind; /* the next message's kind; CALC_M_NONE: E022 */
};

/* Parentheses, calls and unary operators recurse in the parser once per level. */
#define MAX_DEPTH 64
/* Evaluation and freeing recurse once per operator on the longest path of the tree, and a
 * chain "1+1+...+1" is as deep as it is long: the height is bounded so that any chain
 * either works or is refused at the operator that passes the bound. */
#define MAX_HEIGHT 1000

/* A parse error is E022 (directive-syntax) unless the parser set another kind for the
 * next message (p->kind: an unknown function is E023). */
static int perr(struct parser *p, int pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int perr(struct parser *p, int pos, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	if (p->failed)
		return -1; /* one message per expression */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	struct rpt_loc at = *p->loc;
	if (at.col > 0)
		at.col += pos;
	p->failed = 1;
	return rpt_error(p->d, p->kind != CALC_M_NONE ? p->kind : CALC_M_SYNTAX, &at, "%s", msg);
}

static void skip_ws(struct parser *p)
{
	while (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n')
		p->i++;
}

static int is_name_start(int c) { return isalpha(c) || c == '_'; }
static int is_name_char(int c) { return isalnum(c) || c == '_' || c == '.'; }

/* Does a keyword 'kw' start at the cursor (followed by a non-name character)? */
static int at_word(struct parser *p, const char *kw)
{
	skip_ws(p);
	size_t n = strlen(kw);
	return strncmp(p->s + p->i, kw, n) == 0 && !is_name_char((unsigned char)p->s[p->i + n]);
}

/* Does operator 'op' start at the cursor?  Consumes it when it does. */
static int accept(struct parser *p, const char *op)
{
	skip_ws(p);
	size_t n = strlen(op);
	if (strncmp(p->s + p->i, op, n) != 0)
		return 0;
	/* "<" must not take the first half of "<=", "=" of "==", "!" of "!=" */
	if (n == 1 && (op[0] == '<' || op[0] == '>' || op[0] == '!') && p->s[p->i + 1] == '=')
		return 0;
	p->i += (int)n;
	return 1;
}

static struct rpt_expr *p_expr(struct parser *p);
static struct rpt_expr *grown(struct parser *p, struct rpt_expr *e);

static const char *const funcs[] = {"min", "max", "ceil", "floor", "round", "abs", "isfinite", NULL};

static struct rpt_expr *p_primary(struct parser *p)
{
	skip_ws(p);
	int pos = p->i;
	const char *s = p->s;
	unsigned char c = (unsigned char)s[p->i];
	if (isdigit(c) || (c == '.' && isdigit((unsigned char)s[p->i + 1]))) {
		char *end;
		double v = strtod(s + p->i, &end);
		p->i = (int)(end - s);
		if (is_name_char((unsigned char)s[p->i])) {
			perr(p, p->i, "a number cannot carry a unit here ('%c'); write SI base units", s[p->i]);
			return NULL;
		}
		struct rpt_expr *e = mk(E_NUM, pos);
		e->num = v;
		return e;
	}
	if (c == '"') {
		char buf[256];
		size_t n = 0;
		p->i++;
		while (s[p->i] && s[p->i] != '"') {
			if (s[p->i] == '\\' && s[p->i + 1])
				p->i++;
			if (n + 1 >= sizeof buf) {
				perr(p, pos, "a text of more than %zu bytes: shorten it or split the sentence",
				     sizeof buf - 1);
				return NULL;
			}
			buf[n++] = s[p->i];
			p->i++;
		}
		if (s[p->i] != '"') {
			perr(p, pos, "unterminated string");
			return NULL;
		}
		p->i++;
		buf[n] = 0;
		struct rpt_expr *e = mk(E_STR, pos);
		e->text = xstrdup(buf);
		return e;
	}
	if (c == '(') {
		p->i++;
		if (++p->depth > MAX_DEPTH) {
			perr(p, pos, "expression nested deeper than %d levels", MAX_DEPTH);
			return NULL;
		}
		struct rpt_expr *e = p_expr(p);
		p->depth--;
		if (!e)
			return NULL;
		if (!accept(p, ")")) {
			rpt_expr_free(e);
			perr(p, p->i, "expected ')'");
			return NULL;
		}
		return e;
	}
	if (is_name_start(c)) {
		int start = p->i;
		while (is_name_char((unsigned char)s[p->i]))
			p->i++;
		int len = p->i - start;
		char name[128];
		if (len >= (int)sizeof name) {
			perr(p, start, "name too long");
			return NULL;
		}
		memcpy(name, s + start, (size_t)len);
		name[len] = 0;
		if (name[len - 1] == '.') {
			perr(p, start, "name '%s' ends with '.'", name);
			return NULL;
		}
		skip_ws(p);
		if (s[p->i] == '(') {
			int known = 0;
			for (int k = 0; funcs[k]; k++)
				known |= strcmp(funcs[k], name) == 0;
			if (!known) {
				p->kind = CALC_M_UNKNOWN_NAME;
				perr(p, start, "unknown function '%s' (functions: min max ceil floor round abs isfinite)",
				     name);
				return NULL;
			}
			p->i++;
			if (++p->depth > MAX_DEPTH) {
				perr(p, start, "expression nested deeper than %d levels", MAX_DEPTH);
				return NULL;
			}
			struct rpt_expr *e = mk(E_CALL, start);
			e->text = xstrdup(name);
			if (!accept(p, ")")) {
				do {
					if (e->nargs == MAX_HEIGHT) {
						perr(p, p->i, "more than %d arguments in %s", MAX_HEIGHT, name);
						rpt_expr_free(e);
						return NULL;
					}
					struct rpt_expr *a = p_expr(p);
					if (!a) {
						rpt_expr_free(e);
						return NULL;
					}
					e->args = xrealloc(e->args, sizeof *e->args * (size_t)(e->nargs + 1));
					e->args[e->nargs++] = a;
				} while (accept(p, ","));
				if (!accept(p, ")")) {
					rpt_expr_free(e);
					perr(p, p->i, "expected ',' or ')' in the arguments of %s", name);
					return NULL;
				}
			}
			p->depth--;
			return grown(p, e);
		}
		/* 'valid': 1 for the plan evaluated; `valid with ...` asks whether a variant is one */
		struct rpt_expr *e = mk(strcmp(name, "valid") ? E_NAME : E_VALID, start);
		e->text = xstrdup(name);
		return e;
	}
	if (!c)
		perr(p, pos, "expression ends too early");
	else
		perr(p, pos, "unexpected '%c'", c);
	return NULL;
}

static struct rpt_expr *p_unary(struct parser *p)
{
	skip_ws(p);
	int pos = p->i;
	int kind = -1;
	if (accept(p, "-"))
		kind = E_NEG;
	else if (accept(p, "!"))
		kind = E_NOT;
	else if (at_word(p, "not")) {
		p->i += 3;
		kind = E_NOT;
	}
	if (kind < 0)
		return p_primary(p);
	if (++p->depth > MAX_DEPTH) {
		perr(p, pos, "expression nested deeper than %d levels", MAX_DEPTH);
		return NULL;
	}
	struct rpt_expr *a = p_unary(p);
	p->depth--;
	if (!a)
		return NULL;
	struct rpt_expr *e = mk((enum node_kind)kind, pos);
	e->a[0] = a;
	return grown(p, e);
}

static struct rpt_expr *bin(int op, int pos, struct rpt_expr *l, struct rpt_expr *r)
{
	struct rpt_expr *e = mk(E_BIN, pos);
	e->op = op;
	e->a[0] = l;
	e->a[1] = r;
	return e;
}

/* Set e's height from its children; past MAX_HEIGHT, free e and fail at its operator. */
static struct rpt_expr *grown(struct parser *p, struct rpt_expr *e)
{
	int h = 0;
	for (int k = 0; k < 3; k++)
		if (e->a[k] && e->a[k]->height > h)
			h = e->a[k]->height;
	for (int k = 0; k < e->nargs; k++)
		if (e->args[k]->height > h)
			h = e->args[k]->height;
	for (int k = 0; k < e->nas; k++)
		if (e->as[k].val && e->as[k].val->height > h)
			h = e->as[k].val->height;
	e->height = h + 1;
	if (e->height > MAX_HEIGHT) {
		perr(p, e->pos, "expression nests deeper than %d operators: split it", MAX_HEIGHT);
		rpt_expr_free(e);
		return NULL;
	}
	return e;
}

static struct rpt_expr *p_mul(struct parser *p)
{
	struct rpt_expr *l = p_unary(p);
	while (l) {
		skip_ws(p);
		int pos = p->i, op;
		if (accept(p, "*") || accept(p, "\xc3\x97")) /* × */
			op = '*';
		else if (accept(p, "/") || accept(p, "\xc3\xb7")) /* ÷ */
			op = '/';
		else
			break;
		struct rpt_expr *r = p_unary(p);
		if (!r) {
			rpt_expr_free(l);
			return NULL;
		}
		l = grown(p, bin(op, pos, l, r));
	}
	return l;
}

static struct rpt_expr *p_add(struct parser *p)
{
	struct rpt_expr *l = p_mul(p);
	while (l) {
		skip_ws(p);
		int pos = p->i, op;
		if (accept(p, "+"))
			op = '+';
		else if (accept(p, "-") || accept(p, "\xe2\x88\x92")) /* − */
			op = '-';
		else
			break;
		struct rpt_expr *r = p_mul(p);
		if (!r) {
			rpt_expr_free(l);
			return NULL;
		}
		l = grown(p, bin(op, pos, l, r));
	}
	return l;
}

static struct rpt_expr *p_cmp(struct parser *p)
{
	struct rpt_expr *l = p_add(p);
	if (!l)
		return NULL;
	skip_ws(p);
	int pos = p->i, op = 0;
	if (accept(p, "<="))
		op = 'l';
	else if (accept(p, ">="))
		op = 'g';
	else if (accept(p, "=="))
		op = '=';
	else if (accept(p, "!="))
		op = '!';
	else if (accept(p, "<"))
		op = '<';
	else if (accept(p, ">"))
		op = '>';
	if (!op)
		return l;
	struct rpt_expr *r = p_add(p);
	if (!r) {
		rpt_expr_free(l);
		return NULL;
	}
	return grown(p, bin(op, pos, l, r));
}

static struct rpt_expr *p_and(struct parser *p)
{
	struct rpt_expr *l = p_cmp(p);
	while (l) {
		skip_ws(p);
		int pos = p->i;
		if (accept(p, "&&"))
			;
		else if (at_word(p, "and"))
			p->i += 3;
		else
			break;
		struct rpt_expr *r = p_cmp(p);
		if (!r) {
			rpt_expr_free(l);
			return NULL;
		}
		l = grown(p, bin('&', pos, l, r));
	}
	return l;
}

static struct rpt_expr *p_or(struct parser *p)
{
	struct rpt_expr *l = p_and(p);
	while (l) {
		skip_ws(p);
		int pos = p->i;
		if (accept(p, "||"))
			;
		else if (at_word(p, "or"))
			p->i += 2;
		else
			break;
		struct rpt_expr *r = p_and(p);
		if (!r) {
			rpt_expr_free(l);
			return NULL;
		}
		l = grown(p, bin('|', pos, l, r));
	}
	return l;
}

static struct rpt_expr *p_cond(struct parser *p)
{
	struct rpt_expr *c = p_or(p);
	if (!c)
		return NULL;
	int pos = p->i;
	if (!accept(p, "?"))
		return c;
	if (++p->conds > MAX_HEIGHT) {
		perr(p, pos, "expression nests deeper than %d operators: split it", MAX_HEIGHT);
		rpt_expr_free(c);
		return NULL;
	}
	struct rpt_expr *t = p_cond(p), *f = NULL;
	if (t && !accept(p, ":"))
		perr(p, p->i, "expected ':' after the first branch of '?'");
	else if (t)
		f = p_cond(p);
	p->conds--;
	if (!t || !f) {
		rpt_expr_free(c);
		rpt_expr_free(t);
		return NULL;
	}
	struct rpt_expr *e = mk(E_COND, pos);
	e->a[0] = c;
	e->a[1] = t;
	e->a[2] = f;
	return grown(p, e);
}

/* Does "KEY=" (not "==") start at s, after blanks? */
static int assignment_follows(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (!is_name_start((unsigned char)*s))
		return 0;
	while (is_name_char((unsigned char)*s))
		s++;
	while (*s == ' ' || *s == '\t')
		s++;
	return s[0] == '=' && s[1] != '=';
}

/* Is the value at s a bare word (full, fp8-te, zero-paper, 1f1b): letters, digits, '_'
 * and '-' with at least one letter, ended by ',', ')' or the end?  A word holds no '.',
 * so a catalog name (plan.cp) is never one. */
static int bare_word(const char *s, int *len)
{
	int n = 0, letters = 0;
	while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '-')
		letters |= isalpha((unsigned char)s[n++]);
	if (!letters)
		return 0;
	int j = n;
	while (s[j] == ' ' || s[j] == '\t')
		j++;
	if (s[j] && s[j] != ',' && s[j] != ')')
		return 0;
	*len = n;
	return 1;
}

/*
 * The assignments after 'with': KEY=VALUE { "," KEY=VALUE }, up to the closing parenthesis
 * of this level, the end, or a ',' that is not followed by KEY= (the next argument of
 * min/max).  VALUE is a bare word or a `cond` expression (a nested 'with' needs
 * parentheses).  Returns 0 with the list in *as, or -1 after a diagnostic.
 */
static int p_assigns(struct parser *p, struct assign **as, int *nas)
{
	*as = NULL;
	*nas = 0;
	for (;;) {
		skip_ws(p);
		int kpos = p->i, klen = 0;
		while (is_name_char((unsigned char)p->s[p->i + klen]))
			klen++;
		int j = p->i + klen;
		while (p->s[j] == ' ' || p->s[j] == '\t')
			j++;
		if (klen == 0 || !is_name_start((unsigned char)p->s[kpos]) || p->s[j] != '=' ||
		    p->s[j + 1] == '=')
			return perr(p, kpos, "expected KEY=VALUE after 'with'");
		if (*nas == 32)
			return perr(p, kpos, "more than 32 assignments in 'with'");
		*as = xrealloc(*as, sizeof **as * (size_t)(*nas + 1));
		struct assign *a = &(*as)[(*nas)++];
		memset(a, 0, sizeof *a);
		a->key = xmalloc((size_t)klen + 1);
		memcpy(a->key, p->s + kpos, (size_t)klen);
		a->key[klen] = 0;
		p->i = j + 1;
		skip_ws(p);
		int wlen;
		if (bare_word(p->s + p->i, &wlen)) {
			a->word = xmalloc((size_t)wlen + 1);
			memcpy(a->word, p->s + p->i, (size_t)wlen);
			a->word[wlen] = 0;
			p->i += wlen;
		} else if (!(a->val = p_cond(p)))
			return -1;
		skip_ws(p);
		if (p->s[p->i] != ',' || !assignment_follows(p->s + p->i + 1))
			return 0;
		p->i++;
	}
}

static struct rpt_expr *p_expr(struct parser *p)
{
	struct rpt_expr *e = p_cond(p);
	if (!e || !at_word(p, "with"))
		return e;
	int pos = p->i;
	p->i += 4;
	skip_ws(p);
	int start = p->i;
	struct rpt_expr *w = mk(E_WITH, pos);
	w->a[0] = e;
	w->num = start; /* offset of the assignments, for messages */
	if (p_assigns(p, &w->as, &w->nas) < 0) {
		rpt_expr_free(w);
		return NULL;
	}
	int end = p->i;
	while (end > start && (p->s[end - 1] == ' ' || p->s[end - 1] == '\t'))
		end--;
	w->text = xmalloc((size_t)(end - start) + 1); /* the assignments as written */
	memcpy(w->text, p->s + start, (size_t)(end - start));
	w->text[end - start] = 0;
	return grown(p, w);
}

struct rpt_expr *rpt_expr_parse(const char *src, const struct rpt_loc *loc, struct calc_diag *d)
{
	struct parser p = {src, 0, loc, d, 0, 0, 0, CALC_M_NONE};
	struct rpt_expr *e = p_expr(&p);
	if (!e)
		return NULL;
	skip_ws(&p);
	if (src[p.i]) {
		perr(&p, p.i, "unexpected '%s' after the expression", src + p.i);
		rpt_expr_free(e);
		return NULL;
	}
	return e;
}

/* ======================================================================== */
/* Evaluation                                                                */
/* ======================================================================== */

static int eerr(struct rpt_scope *sc, const struct rpt_expr *e, struct calc_diag *d, enum calc_msg kind,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The location of the directive being evaluated (messages add the operand's offset). */
static _Thread_local const struct rpt_loc *cur_loc;

static int eerr(struct rpt_scope *sc, const struct rpt_expr *e, struct calc_diag *d, enum calc_msg kind,
                const char *fmt, ...)
{
	(void)sc;
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	struct rpt_loc at = cur_loc ? *cur_loc : (struct rpt_loc){0};
	if (at.col > 0)
		at.col += e->pos;
	return rpt_error(d, kind, &at, "%s", msg);
}

static void set_num(struct rpt_value *v, double x, const char *unit)
{
	memset(v, 0, sizeof *v);
	v->num = x;
	v->unit = unit;
}

/* A unit of measure, as opposed to a count ("1", "GPUs", "tokens", "sequences"). */
static int physical(const char *u)
{
	return !strcmp(u, "B") || !strcmp(u, "s") || !strcmp(u, "B/s") || !strcmp(u, "FLOP") ||
	       !strcmp(u, "FLOP/s");
}

/* Units of a + b, min, max, comparisons: equal, one of them unknown, or a plain number
 * ("1") with a count ("GPUs"). */
static int same_unit(const char *a, const char *b)
{
	if (!a || !b || strcmp(a, b) == 0)
		return 1;
	return (!strcmp(a, "1") && !physical(b)) || (!strcmp(b, "1") && !physical(a));
}

static const char *unit_or(const char *a, const char *b) { return a ? a : b; }

static int catalog_lookup(struct rpt_scope *sc, const char *name, struct rpt_value *out, char *err,
                          size_t nerr)
{
	struct calc_diag tmp = {0};
	struct calc_value v = {0};
	const struct calc_quantity *q = calc_catalog_quantity(name);
	if (calc_catalog_get(sc->ctx, name, &v, &tmp) < 0) {
		diag_message(&tmp, err, nerr);
		calc_diag_free(&tmp);
		return -1;
	}
	calc_diag_free(&tmp);
	memset(out, 0, sizeof *out);
	if (v.str) {
		out->is_str = 1;
		if (strlen(v.str) >= sizeof out->str) {
			snprintf(err, nerr, "%s is a text of more than %zu bytes", name, sizeof out->str - 1);
			return -1;
		}
		snprintf(out->str, sizeof out->str, "%s", v.str);
	} else {
		out->num = v.num;
		out->unit = q && q->unit && q->unit[0] ? q->unit : NULL;
	}
	return 0;
}

static int eval(const struct rpt_expr *e, struct rpt_scope *sc, struct rpt_value *out,
                struct calc_diag *d);

/* The confinement rule of chapters (README, "What a chapter may read"): 'path' must be a
 * regular file inside the current folder (the project) or the folder of 'plan_file'.
 * Returns 0 or -1. */
static int confined(const char *path, const char *plan_file)
{
	char why[128], dir[CALC_PATH_MAX];
	FILE *f = calc_file_open(path, "rb", why, sizeof why);
	if (!f)
		return 0; /* calc_model_from_hf says why it cannot be read */
	fclose(f);
	if (calc_file_inside(path, ".", why, sizeof why))
		return 0;
	const char *slash = plan_file ? strrchr(plan_file, '/') : NULL;
	if (!slash)
		return -1;
	snprintf(dir, sizeof dir, "%.*s", (int)(slash - plan_file), plan_file);
	return calc_file_inside(path, dir[0] ? dir : "/", why, sizeof why) ? 0 : -1;
}

/*
 * A new ctx whose plan is 'base' changed by the assignments 'as' (written as 'raw' at
 * 'at').  Each expression value is evaluated in 'sc' (the base plan) first, then all are
 * applied together and the variant is validated once.  A bad expression is an error at
 * its operand.  A variant the plan rejects is an error at 'at', or, when 'quiet', sets
 * *invalid and adds nothing.  Returns the ctx (free with calc_ctx_free + free), or NULL.
 */
/* 'src' into 'dst' of 'size' bytes, cut to size - 1 bytes as snprintf(dst, size, "%s",
 * src) would write it, without the format's parsing. */
static void copy_cut(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);
	if (n > size - 1)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

static struct calc_ctx *variant_build(struct rpt_scope *sc, const struct calc_plan *base,
                                      const char *raw, const struct assign *as, int nas,
                                      const struct rpt_loc *at, int quiet, int cached, int *invalid,
                                      struct calc_diag *d)
{
	struct calc_ctx *vc = NULL;
	char *kvs[32];
	char shown[600] = "";  /* the evaluated assignments, when any value was an expression */
	int nkv = 0, bad = 0, computed = 0;
	*invalid = 0;
	for (int i = 0; i < nas && i < 32; i++) {
		char val[300];
		if (as[i].word)
			copy_cut(val, sizeof val, as[i].word);
		else {
			struct rpt_value v;
			if (eval(as[i].val, sc, &v, d) < 0) {
				bad = 1;
				break;
			}
			computed |= as[i].val->kind != E_NUM && as[i].val->kind != E_STR;
			if (v.is_str)
				copy_cut(val, sizeof val, v.str);
			else if (!isfinite(v.num)) {
				/* no plan has a NaN degree: the variant does not exist */
				if (quiet) {
					*invalid = 1;
					bad = 1;
					break;
				}
				eerr(sc, as[i].val, d, CALC_M_BAD_ARGUMENT, "with %s: %s is not a finite number", raw, as[i].key);
				bad = 1;
				break;
			} else
				snprintf(val, sizeof val, "%.17g", v.num);
		}
		size_t l = strlen(shown);
		snprintf(shown + l, sizeof shown - l, "%s%s=%s", i ? ", " : "", as[i].key, val);
		size_t kl = strlen(as[i].key), vl = strlen(val);
		kvs[nkv] = xmalloc(kl + vl + 2); /* "KEY=VALUE" */
		memcpy(kvs[nkv], as[i].key, kl);
		kvs[nkv][kl] = '=';
		memcpy(kvs[nkv] + kl + 1, val, vl + 1);
		nkv++;
	}
	/* a chapter reads files only inside the project or the plan's folder */
	for (int i = 0; !bad && i < nas; i++)
		if (!strcmp(as[i].key, "hf_config") || !strcmp(as[i].key, "model.hf_config")) {
			const char *v = strchr(kvs[i], '=') + 1;
			if (confined(v, base->file) < 0) {
				if (quiet)
					*invalid = 1;
				else
					rpt_error(d, CALC_M_BAD_ARGUMENT, at, "with %s: %s is outside the project (the folder "
					          "trainplan-report runs in) and the plan's folder: a chapter reads "
					          "only files inside them", raw, v);
				bad = 1;
			}
		}
	struct calc_plan *copy = NULL;
	if (!bad) {
		copy = xmalloc(sizeof *copy);
		char origin[600];
		if (at && at->file)
			snprintf(origin, sizeof origin, "%s:%d:%d", at->file, at->line, at->col);
		else
			snprintf(origin, sizeof origin, "with");
		/* all assignments first, one validation of the whole variant; with 'cached' the
		 * context is the base context's own (calc_ctx_variant), shared by every
		 * directive with the same assignments */
		struct calc_diag tmp = {0};
		int failed, hf = 0;
		char pdir[CALC_PATH_MAX];
		/* the check above names the rule; this one holds it: the config.json is checked
		 * where it was opened (calc_file_open_confined), not where its name led before */
		for (int i = 0; i < nas; i++)
			hf |= !strcmp(as[i].key, "hf_config") || !strcmp(as[i].key, "model.hf_config");
		if (hf) {
			const char *slash = strrchr(base->file, '/');
			const char *dirs[2] = {".", pdir};
			if (slash)
				snprintf(pdir, sizeof pdir, "%.*s", (int)(slash - base->file), base->file);
			else
				snprintf(pdir, sizeof pdir, ".");
			if (!pdir[0])
				snprintf(pdir, sizeof pdir, "/");
			calc_file_confine(dirs, 2);
		}
		if (cached)
			failed = !(vc = calc_ctx_variant(sc->ctx, (const char *const *)kvs, nkv, origin, &tmp)) ||
			         tmp.nerrors;
		else
			failed = calc_plan_variant(base, NULL, (const char *const *)kvs, nkv, origin, CALC_VARIANT_VALIDATE,
			                           copy, &tmp) < 0 ||
			         tmp.nerrors;
		if (hf)
			calc_file_confine(NULL, 0);
		if (failed) {
			if (quiet)
				*invalid = 1;
			else {
				char msg[512];
				diag_message(&tmp, msg, sizeof msg);
				if (computed)
					rpt_error(d, CALC_M_BAD_ARGUMENT, at, "with %s (%s): %s", raw, shown, msg);
				else
					rpt_error(d, CALC_M_BAD_ARGUMENT, at, "with %s: %s", raw, msg);
			}
			bad = 1;
		}
		calc_diag_free(&tmp);
	}
	for (int i = 0; i < nkv; i++)
		free(kvs[i]);
	if (bad) {
		free(copy);
		return NULL;
	}
	if (cached) {
		free(copy);
		return vc;
	}
	struct calc_ctx *c = xmalloc(sizeof *c);
	calc_ctx_init(c, copy);
	free(copy);
	return c;
}

struct calc_ctx *rpt_variant_ctx(const struct calc_plan *base, const char *assigns,
                                 const struct rpt_loc *loc, struct calc_diag *d)
{
	struct rpt_loc at = loc ? *loc : (struct rpt_loc){0};
	struct parser p = {assigns, 0, &at, d, 0, 0, 0, CALC_M_NONE};
	struct assign *as = NULL;
	int nas = 0;
	if (p_assigns(&p, &as, &nas) < 0)
		return NULL;
	skip_ws(&p);
	if (assigns[p.i]) {
		perr(&p, p.i, "expected KEY=VALUE in 'with', got '%s'", assigns + p.i);
		assigns_free(as, nas);
		return NULL;
	}
	/* the values are evaluated on the base plan */
	struct calc_ctx bc;
	calc_ctx_init(&bc, base);
	struct rpt_scope sc = {&bc, NULL, NULL};
	const struct rpt_loc *saved = cur_loc;
	cur_loc = &at;
	int invalid;
	struct calc_ctx *c = variant_build(&sc, base, assigns, as, nas, &at, 0, 0, &invalid, d);
	cur_loc = saved;
	calc_ctx_free(&bc);
	assigns_free(as, nas);
	return c;
}



static int eval_num(const struct rpt_expr *e, struct rpt_scope *sc, struct rpt_value *out,
                    struct calc_diag *d, const char *what)
{
	if (eval(e, sc, out, d) < 0)
		return -1;
	if (out->is_str)
		return eerr(sc, e, d, CALC_M_EVALUATION, "%s needs a number, got the text \"%s\"", what, out->str);
	return 0;
}

static int truth(const struct rpt_value *v) { return v->is_str ? v->str[0] != 0 : v->num != 0; }

static int eval(const struct rpt_expr *e, struct rpt_scope *sc, struct rpt_value *out,
                struct calc_diag *d)
{
	struct rpt_value a, b;
	switch (e->kind) {
	case E_NUM:
		set_num(out, e->num, NULL);
		return 0;
	case E_STR:
		memset(out, 0, sizeof *out);
		out->is_str = 1;
		if (strlen(e->text) >= sizeof out->str)
			return eerr(sc, e, d, CALC_M_EVALUATION, "a text of %zu bytes: at most %zu fit in one value", strlen(e->text),
			            sizeof out->str - 1);
		snprintf(out->str, sizeof out->str, "%s", e->text);
		out->literal = 1;
		return 0;
	case E_VALID:
		set_num(out, 1, "1");
		return 0;
	case E_NAME: {
		char err[512];
		int rc = sc->lookup ? sc->lookup(sc, e->text, out, err, sizeof err)
		                    : catalog_lookup(sc, e->text, out, err, sizeof err);
		if (rc < 0) /* a name the catalog does not have, or a quantity that fails */
			return eerr(sc, e, d, calc_catalog_quantity(e->text) ? CALC_M_EVALUATION : CALC_M_UNKNOWN_NAME,
			            "%s", err);
		return 0;
	}
	case E_NEG:
		if (eval_num(e->a[0], sc, &a, d, "'-'") < 0)
			return -1;
		set_num(out, -a.num, a.unit);
		return 0;
	case E_NOT:
		if (eval(e->a[0], sc, &a, d) < 0)
			return -1;
		set_num(out, !truth(&a), "1");
		return 0;
	case E_COND:
		if (eval(e->a[0], sc, &a, d) < 0)
			return -1;
		return eval(e->a[truth(&a) ? 1 : 2], sc, out, d);
	case E_WITH: {
		struct rpt_loc at = cur_loc ? *cur_loc : (struct rpt_loc){0};
		if (at.col > 0)
			at.col += (int)e->num;
		if (!sc->ctx)
			return eerr(sc, e, d, CALC_M_EVALUATION, "'with' needs a plan");
		int quiet = e->a[0]->kind == E_VALID, invalid = 0;
		struct calc_ctx *vc = variant_build(sc, &sc->ctx->plan, e->text, e->as, e->nas, &at, quiet, 1,
		                                    &invalid, d);
		if (!vc && invalid) {
			set_num(out, 0, "1");
			return 0;
		}
		if (!vc)
			return -1;
		struct rpt_scope sub = *sc;
		sub.ctx = vc;
		return eval(e->a[0], &sub, out, d); /* vc belongs to sc->ctx */
	}
	case E_CALL: {
		const char *f = e->text;
		int one = !strcmp(f, "ceil") || !strcmp(f, "floor") || !strcmp(f, "round") ||
		          !strcmp(f, "abs") || !strcmp(f, "isfinite");
		if (one && e->nargs != 1)
			return eerr(sc, e, d, CALC_M_SYNTAX, "%s takes one argument, got %d", f, e->nargs);
		if (!one && e->nargs < 1)
			return eerr(sc, e, d, CALC_M_SYNTAX, "%s needs at least one argument", f);
		if (eval_num(e->args[0], sc, &a, d, f) < 0)
			return -1;
		if (!strcmp(f, "isfinite")) {
			set_num(out, isfinite(a.num) ? 1 : 0, "1");
			return 0;
		}
		if (one) {
			double x = !strcmp(f, "ceil")    ? ceil(a.num)
			           : !strcmp(f, "floor") ? floor(a.num)
			           : !strcmp(f, "round") ? round(a.num)
			                                 : fabs(a.num);
			set_num(out, x, a.unit);
			return 0;
		}
		for (int i = 1; i < e->nargs; i++) {
			if (eval_num(e->args[i], sc, &b, d, f) < 0)
				return -1;
			if (!same_unit(a.unit, b.unit))
				return eerr(sc, e->args[i], d, CALC_M_EVALUATION, "%s of different units (%s and %s)", f, a.unit,
				            b.unit);
			int take = !strcmp(f, "min") ? b.num < a.num : b.num > a.num;
			const char *u = unit_or(a.unit, b.unit);
			if (take)
				a = b;
			a.unit = u;
		}
		*out = a;
		return 0;
	}
	case E_BIN:
		break;
	}

	/* Binary operators. */
	if (e->op == '&' || e->op == '|') {
		if (eval(e->a[0], sc, &a, d) < 0)
			return -1;
		int ta = truth(&a);
		if ((e->op == '&' && !ta) || (e->op == '|' && ta)) {
			set_num(out, ta, "1");
			return 0;
		}
		if (eval(e->a[1], sc, &b, d) < 0)
			return -1;
		set_num(out, truth(&b), "1");
		return 0;
	}
	if (eval(e->a[0], sc, &a, d) < 0 || eval(e->a[1], sc, &b, d) < 0)
		return -1;
	if (a.is_str || b.is_str) {
		if ((e->op == '=' || e->op == '!') && a.is_str && b.is_str) {
			int eq = strcmp(a.str, b.str) == 0;
			set_num(out, e->op == '=' ? eq : !eq, "1");
			return 0;
		}
		return eerr(sc, e, d, CALC_M_EVALUATION, "'%c' cannot take text (\"%s\")", e->op == 'l' ? '<' : e->op == 'g' ? '>' : e->op,
		            a.is_str ? a.str : b.str);
	}
	switch (e->op) {
	case '+':
	case '-':
		if (!same_unit(a.unit, b.unit))
			return eerr(sc, e, d, CALC_M_EVALUATION, "cannot %s %s and %s", e->op == '+' ? "add" : "subtract", a.unit,
			            b.unit);
		set_num(out, e->op == '+' ? a.num + b.num : a.num - b.num, unit_or(a.unit, b.unit));
		return 0;
	case '*': {
		const char *u = NULL;
		if (!a.unit || !strcmp(a.unit, "1"))
			u = b.unit;
		else if (!b.unit || !strcmp(b.unit, "1"))
			u = a.unit;
		set_num(out, a.num * b.num, u);
		return 0;
	}
	case '/': {
		if (b.num == 0)
			return eerr(sc, e, d, CALC_M_EVALUATION, "division by zero");
		const char *u = NULL;
		if (a.unit && b.unit && !strcmp(a.unit, b.unit))
			u = "1";
		else if (!b.unit || !strcmp(b.unit, "1"))
			u = a.unit;
		set_num(out, a.num / b.num, u);
		return 0;
	}
	default: {
		if (!same_unit(a.unit, b.unit))
			return eerr(sc, e, d, CALC_M_EVALUATION, "cannot compare %s with %s", a.unit, b.unit);
		int r = e->op == '<'   ? a.num < b.num
		        : e->op == 'l' ? a.num <= b.num
		        : e->op == '>' ? a.num > b.num
		        : e->op == 'g' ? a.num >= b.num
		        : e->op == '=' ? a.num == b.num
		                       : a.num != b.num;
		set_num(out, r, "1");
		return 0;
	}
	}
}

int rpt_expr_eval(const struct rpt_expr *e, struct rpt_scope *sc, struct rpt_value *out,
                  struct calc_diag *d)
{
	return eval(e, sc, out, d);
}

/* ======================================================================== */
/* Formats                                                                   */
/* ======================================================================== */

int rpt_value_format(const struct rpt_value *v, const char *fmt, char *buf, size_t n, char *err,
                     size_t nerr)
{
	char name[32];
	int dec = -1;
	while (*fmt == ' ')
		fmt++;
	size_t fl = strlen(fmt);
	while (fl > 0 && fmt[fl - 1] == ' ')
		fl--;
	if (fl >= sizeof name) {
		snprintf(err, nerr, "unknown format '%.*s'", (int)fl, fmt);
		return -1;
	}
	memcpy(name, fmt, fl);
	name[fl] = 0;
	/* A trailing ".N" sets the decimals: "GB.2", ".3". */
	char *dot = strrchr(name, '.');
	if (dot && dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1)) {
		/* more than two digits is too many decimals, and past int atoi is undefined */
		dec = strlen(dot + 1) > 2 ? 100 : atoi(dot + 1);
		if (dec > 9) {
			snprintf(err, nerr, "at most 9 decimals, got %s", dot + 1);
			return -1;
		}
		*dot = 0;
	}
	/* A printf conversion for one number: "%.3g", "%.2f", "%e" (SI value, no unit). */
	if (name[0] == '%' && name[1] && !v->is_str) {
		const char *q = name + 1;
		if (*q == '.')
			for (q++; *q >= '0' && *q <= '9'; q++)
				;
		if (q[0] && !q[1] && strchr("fFeEgG", q[0]) && strlen(name) < 8) {
			snprintf(buf, n, name, v->num);
			return 0;
		}
		snprintf(err, nerr, "format '%s' is not a printf conversion of one number (e.g. %%.3g)", name);
		return -1;
	}
	if (v->is_str) {
		if ((name[0] || dec >= 0) && !v->literal) {
			snprintf(err, nerr, "format '%s' given to the text \"%s\"", fmt, v->str);
			return -1;
		}
		snprintf(buf, n, "%s", v->str);
		return 0;
	}
	if (!isfinite(v->num)) {
		snprintf(err, nerr, "the value is not a finite number");
		return -1;
	}
	const struct calc_display *f = NULL;
	if (!name[0] && dec < 0 && v->unit) {
		/* No format: the unit's natural display. */
		static const char *const defaults[][2] = {{"B", "GB"}, {"s", "s"}, {NULL, NULL}};
		for (int i = 0; defaults[i][0]; i++)
			if (!strcmp(v->unit, defaults[i][0]))
				snprintf(name, sizeof name, "%s", defaults[i][1]);
	}
	f = calc_display_find(name);
	if (!f || !f->prose) {
		snprintf(err, nerr, "unknown format '%s' (formats: %s .N %%.Ng)", fmt, calc_display_prose_names());
		return -1;
	}
	if (f->need && v->unit && strcmp(f->need, v->unit) != 0) {
		snprintf(err, nerr, "format '%s' needs a value in %s, this one is in %s", name, f->need,
		         v->unit);
		return -1;
	}
	/* digits past 2^53 are not the value's (1e100 printed 63 invented digits), and a
	 * number longer than the buffer was cut: 15 digits before the point at most */
	if (fabs(v->num / f->div) >= 1e15) {
		snprintf(err, nerr, "%g%s has more than 15 digits before the point: use a larger unit or "
		         "%%.3g", v->num / f->div, f->suffix);
		return -1;
	}
	calc_fmt_si(v->num, f, dec, CALC_SEP_LONG, 1, buf, n);
	return 0;
}

/* Split "EXPR |FORMAT" at the last '|' outside a string. */
static const char *format_bar(const char *body)
{
	const char *bar = NULL;
	int in_str = 0;
	for (const char *p = body; *p; p++) {
		if (*p == '\\' && in_str && p[1])
			p++;
		else if (*p == '"')
			in_str = !in_str;
		else if (*p == '|' && !in_str && p[1] != '|' && (p == body || p[-1] != '|'))
			bar = p;
	}
	return bar;
}

int rpt_inline_eval(const char *body, struct rpt_scope *sc, const struct rpt_loc *loc, char *buf,
                    size_t n, struct calc_diag *d)
{
	const char *bar = format_bar(body);
	size_t elen = bar ? (size_t)(bar - body) : strlen(body);
	char *src = xmalloc(elen + 1);
	memcpy(src, body, elen);
	src[elen] = 0;
	struct rpt_expr *e = rpt_expr_parse(src, loc, d);
	free(src);
	if (!e)
		return -1;
	struct rpt_value v;
	const struct rpt_loc *saved = cur_loc;
	cur_loc = loc;
	int rc = eval(e, sc, &v, d);
	cur_loc = saved;
	rpt_expr_free(e);
	if (rc < 0)
		return -1;
	char err[512];
	if (rpt_value_format(&v, bar ? bar + 1 : "", buf, n, err, sizeof err) < 0) {
		struct rpt_loc at = *loc;
		if (at.col > 0 && bar)
			at.col += (int)(bar - body) + 1;
		return rpt_error(d, CALC_M_EVALUATION, &at, "%s", err);
	}
	return 0;
}

int rpt_cond_eval(const char *src, struct rpt_scope *sc, const struct rpt_loc *loc, int *truth_out,
                  struct calc_diag *d)
{
	*truth_out = 0;
	struct rpt_expr *e = rpt_expr_parse(src, loc, d);
	if (!e)
		return -1;
	if (!sc) {
		rpt_expr_free(e);
		return 0;
	}
	struct rpt_value v;
	const struct rpt_loc *saved = cur_loc;
	cur_loc = loc;
	int rc = eval(e, sc, &v, d);
	if (rc == 0 && !v.is_str && !isfinite(v.num))
		rc = eerr(sc, e, d, CALC_M_EVALUATION, "the condition is not a finite number (isfinite tells)");
	cur_loc = saved;
	rpt_expr_free(e);
	if (rc == 0)
		*truth_out = truth(&v);
	return rc;
}

/* ---------------------------------------------------------------- prefetch */

/* The `with` assignments (as written) whose variants are queued already, with their
 * jobs, and the jobs the chapter being read waits for. */
struct prefetch_seen {
	int n;
	char **with;
	const struct calc_job **job; /* of with[i], or NULL */
	struct rpt_needs *needs;     /* of the chapter being read, or NULL */
	const struct calc_job *own;  /* the plan's own search, or NULL */
};

/* Count job j (NULL: none) as one the chapter being read waits for. */
static void need_add(struct prefetch_seen *seen, const struct calc_job *j)
{
	struct rpt_needs *nd = seen->needs;
	if (!j || !nd)
		return;
	for (int i = 0; i < nd->n; i++)
		if (nd->job[i] == j)
			return;
	nd->job = xrealloc(nd->job, (size_t)(nd->n + 1) * sizeof *nd->job);
	nd->job[nd->n++] = j;
}

/* Queue the validation rows (when not yet) and note that the chapter waits for them. */
static void need_validation(struct prefetch_seen *seen)
{
	const struct calc_job *jobs[CALC_VALIDATE_JOBS];
	int n = calc_validate_prefetch(jobs);
	for (int k = 0; k < n; k++)
		need_add(seen, jobs[k]);
}

/* 1 when e names a quantity whose name starts with 'prefix'. */
static int names_prefix(const struct rpt_expr *e, const char *prefix)
{
	if (!e)
		return 0;
	if (e->kind == E_NAME && !strncmp(e->text, prefix, strlen(prefix)))
		return 1;
	for (int i = 0; i < 3; i++)
		if (names_prefix(e->a[i], prefix))
			return 1;
	for (int i = 0; i < e->nargs; i++)
		if (names_prefix(e->args[i], prefix))
			return 1;
	for (int i = 0; i < e->nas; i++)
		if (names_prefix(e->as[i].val, prefix))
			return 1;
	return 0;
}

/* 1 when e names a search quantity that reads the search's counts (calc_search_name_counts),
 * 0 when its search names read only the top. */
static int names_counts(const struct rpt_expr *e)
{
	if (!e)
		return 0;
	if (e->kind == E_NAME && !strncmp(e->text, "search.", 7) && calc_search_name_counts(e->text))
		return 1;
	for (int i = 0; i < 3; i++)
		if (names_counts(e->a[i]))
			return 1;
	for (int i = 0; i < e->nargs; i++)
		if (names_counts(e->args[i]))
			return 1;
	for (int i = 0; i < e->nas; i++)
		if (names_counts(e->as[i].val))
			return 1;
	return 0;
}

/* 1 when every search quantity e names reads only the fastest configuration or the counts
 * (calc_search_name_first). */
static int names_first(const struct rpt_expr *e)
{
	if (!e)
		return 1;
	if (e->kind == E_NAME && !strncmp(e->text, "search.", 7) && !calc_search_name_first(e->text))
		return 0;
	for (int i = 0; i < 3; i++)
		if (!names_first(e->a[i]))
			return 0;
	for (int i = 0; i < e->nargs; i++)
		if (!names_first(e->args[i]))
			return 0;
	for (int i = 0; i < e->nas; i++)
		if (!names_first(e->as[i].val))
			return 0;
	return 1;
}

/* Queue what e will ask for: the search of every plan its search.* names are evaluated
 * on (the base plan, or a `with` variant whose values name no search). */
static void prefetch_walk(const struct rpt_expr *e, struct rpt_scope *sc, struct prefetch_seen *seen)
{
	if (!e)
		return;
	if (e->kind == E_NAME) {
		if (!strncmp(e->text, "network.", 8))
			need_add(seen, calc_network_prefetch(sc->ctx, e->text));
		if (!strncmp(e->text, "search.", 7)) {
			const struct calc_job *j = calc_ctx_search_prefetch(sc->ctx, &sc->ctx->plan);
			need_add(seen, j);
			if (j && !seen->own) {
				/* the pool's threads let go at once: the job queued last, this one,
				 * is theirs first, computed while the rest is read (a few ms of
				 * variants to build) */
				seen->own = j;
				calc_pool_go();
			}
		}
		return;
	}
	if (e->kind == E_WITH) {
		if (!names_prefix(e->a[0], "search."))
			return;
		for (int i = 0; i < e->nas; i++)
			if (names_prefix(e->as[i].val, "search.") || (e->as[i].val && e->as[i].val->kind == E_WITH))
				return;
		int counts = names_counts(e->a[0]); /* else the variant's first search need not count */
		int first = names_first(e->a[0]);   /* else it keeps the recommendation's window */
		for (int i = 0; i < seen->n; i++) /* a table row repeats its scenario */
			if (!strcmp(seen->with[i], e->text)) {
				need_add(seen, seen->job[i]);
				if (counts && seen->job[i]) /* raise the queued job to one that counts */
					calc_search_prefetch_counts(seen->job[i]);
				if (!first && seen->job[i]) /* and to one that keeps the window */
					calc_search_prefetch_all(seen->job[i]);
				return;
			}
		seen->with = xrealloc(seen->with, (size_t)(seen->n + 1) * sizeof *seen->with);
		seen->job = xrealloc(seen->job, (size_t)(seen->n + 1) * sizeof *seen->job);
		seen->job[seen->n] = NULL;
		seen->with[seen->n++] = xstrdup(e->text);
		/* the variant's plan, built as the directive will build it (its messages'
		 * provenance aside), in a context of its own that is dropped again */
		struct calc_diag tmp = {0};
		int invalid = 0;
		struct calc_ctx *vc = variant_build(sc, &sc->ctx->plan, e->text, e->as, e->nas, NULL, 1, 0, &invalid,
		                                    &tmp);
		calc_diag_free(&tmp);
		if (vc) {
			const struct calc_job *j = calc_ctx_search_prefetch_first(sc->ctx, &vc->plan, counts, first);
			seen->job[seen->n - 1] = j;
			need_add(seen, j);
			calc_ctx_free(vc);
			free(vc);
		}
		return;
	}
	for (int i = 0; i < 3; i++)
		prefetch_walk(e->a[i], sc, seen);
	for (int i = 0; i < e->nargs; i++)
		prefetch_walk(e->args[i], sc, seen);
}

/* Parse one directive's expression (src[0..n), '\|' read as '|') and queue what it asks. */
static void prefetch_src(const char *src, size_t n, int inline_, struct rpt_scope *sc,
                         struct prefetch_seen *seen)
{
	char *buf = xmalloc(n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (src[i] == '\\' && i + 1 < n && src[i + 1] == '|')
			continue;
		buf[k++] = src[i];
	}
	buf[k] = 0;
	if (inline_) {
		const char *bar = format_bar(buf);
		if (bar)
			buf[bar - buf] = 0;
	}
	struct calc_diag tmp = {0};
	struct rpt_loc at = {0};
	struct rpt_expr *e = rpt_expr_parse(buf, &at, &tmp);
	if (e) {
		const struct rpt_loc *saved = cur_loc;
		cur_loc = NULL;
		prefetch_walk(e, sc, seen);
		cur_loc = saved;
		rpt_expr_free(e);
	}
	calc_diag_free(&tmp);
	free(buf);
}

/* 1 when 'word' occurs in s[0 .. end). */
static int names_in(const char *s, const char *end, const char *word)
{
	size_t n = strlen(word);
	for (const char *q = s; (q = memchr(q, word[0], (size_t)(end - q))) && (size_t)(end - q) >= n; q++)
		if (!memcmp(q, word, n))
			return 1;
	return 0;
}

/* The directives of 'text' with what they ask for: validation names only (pass 0), or
 * everything else (pass 1). */
static void prefetch_text(const char *text, int pass, struct rpt_scope *sc, struct prefetch_seen *seen)
{
	for (const char *p = text; (p = strpbrk(p, "`<")); ) {
		const char *s = NULL, *end = NULL;
		if (p[0] == '`' && p[1] == '=') {
			s = p + 2;
			end = strchr(s, '`');
		} else if (!strncmp(p, "<!-- if ", 8) || !strncmp(p, "<!-- elif ", 10)) {
			s = p + (p[5] == 'i' ? 8 : 10);
			end = strstr(s, "-->");
		} else {
			p++;
			continue;
		}
		if (!end)
			break;
		if (pass == 0) {
			/* within the directive only: a search to the text's end per directive
			 * was most of the scan ("validation." holds neither '`' nor '-', so a
			 * name that starts before 'end' ends before it too) */
			if (names_in(s, end, "validation."))
				need_validation(seen);
		} else if (names_in(s, end, "search.") || names_in(s, end, "network."))
			/* prefetch_walk queues only for names of these two prefixes, and a name
			 * is its text as written: a directive without either is not parsed */
			prefetch_src(s, (size_t)(end - s), p[0] == '`', sc, seen);
		p = end + 1;
	}
}

void rpt_chapters_prefetch(const char *const *texts, int n, struct rpt_scope *sc, struct rpt_needs *needs)
{
	if (!sc || !sc->ctx || !calc_pool_active())
		return;
	struct prefetch_seen seen = {0};
	for (int i = 0; i < n; i++)
		if (texts[i]) {
			seen.needs = needs ? &needs[i] : NULL;
			prefetch_text(texts[i], 1, sc, &seen);
		}
	/* queued after the scenarios: the pool's threads take the largest job first and,
	 * among equal estimates, the one queued last */
	for (int i = 0; i < n; i++)
		if (texts[i] && strstr(texts[i], "table network-sweep")) {
			seen.needs = needs ? &needs[i] : NULL;
			need_add(&seen, calc_network_prefetch(sc->ctx, "network-sweep"));
		}
	for (int i = 0; i < n; i++)
		if (texts[i] && strstr(texts[i], "table validation")) {
			seen.needs = needs ? &needs[i] : NULL;
			need_validation(&seen);
		}
	for (int i = 0; i < n; i++)
		if (texts[i]) {
			seen.needs = needs ? &needs[i] : NULL;
			prefetch_text(texts[i], 0, sc, &seen);
		}
	/* the plan's own search taken first, before the rows: the first chapter waits for
	 * both, and the pool's thread computing it while the expansion goes through the
	 * chapters that wait for nothing leaves the rows and the scenarios to both threads */
	if (seen.own)
		calc_pool_promote(seen.own);
	for (int i = 0; i < seen.n; i++)
		free(seen.with[i]);
	free(seen.with);
	free(seen.job);
}
