/*
 * cond.c -- conditional blocks of a chapter: <!-- if EXPR --> ... <!-- elif EXPR --> ...
 * <!-- else --> ... <!-- end -->.
 *
 * The markers are HTML comments, so a chapter stays readable Markdown in any viewer
 * (GitHub shows neither the markers nor their conditions).  They are evaluated on the
 * chapter's text before cmark parses it: the parts whose condition is false are cut out,
 * together with every marker.  A marker alone on its line takes its line with it, so
 * a condition around whole paragraphs, list items, table rows or sections leaves the
 * Markdown around it as if the block had never been written; a marker inside a line
 * chooses words within one sentence.  Markers inside code spans and fenced code blocks
 * are text.  Conditions are expressions of the directive language (expr.c), evaluated
 * for the plan; a condition in a part already left out is parsed but not evaluated.
 *
 * Cutting text moves what follows it, so the cut records where each kept run of text
 * came from (struct rpt_srcmap) and rpt_node_loc turns a node's position in the cut
 * text back into the chapter's line and column for diagnostics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* ======================================================================== */
/* Source map                                                                */
/* ======================================================================== */

static _Thread_local const struct rpt_srcmap *cur_map;

void rpt_srcmap_use(const struct rpt_srcmap *m) { cur_map = m; }

void rpt_srcmap_free(struct rpt_srcmap *m)
{
	free(m->seg);
	memset(m, 0, sizeof *m);
}

void rpt_node_loc(cmark_node *n, const char *file, struct rpt_loc *out)
{
	int line = cmark_node_get_start_line(n), col = cmark_node_get_start_column(n);
	out->file = file;
	out->line = line;
	out->col = col;
	const struct rpt_srcmap *m = cur_map;
	if (!m || m->n == 0 || line <= 0)
		return;
	/* the last run that starts at or before (line, col) */
	int k = -1;
	for (int i = 0; i < m->n; i++) {
		const struct rpt_srcseg *s = &m->seg[i];
		if (s->out_line < line || (s->out_line == line && s->out_col <= col))
			k = i;
		else
			break;
	}
	if (k < 0)
		return;
	const struct rpt_srcseg *s = &m->seg[k];
	out->line = s->src_line + (line - s->out_line);
	if (line == s->out_line && col > 0)
		out->col = s->src_col + (col - s->out_col);
}

/* ======================================================================== */
/* The cut                                                                   */
/* ======================================================================== */

struct frame {
	int parent;        /* 1: the text around the if is kept */
	int taken;         /* 1: a branch has been chosen */
	int on;            /* 1: the current branch is kept */
	int seen_else;
	struct rpt_loc at; /* the if, for "not closed" */
};

struct cut {
	const char *s;
	size_t n;
	const char *file;
	struct rpt_scope *sc;
	struct calc_diag *d;
	char *out;
	size_t len, cap;
	int out_line, out_col;   /* position of the next byte written */
	size_t next_src;         /* source offset that would continue the last run */
	struct rpt_srcmap *map;
	struct frame st[32];
	int depth;
	int rc;
	size_t pos_off;          /* src_pos: the last offset asked for (0: the start) ... */
	int pos_line, pos_col;   /* ... and its line and column (0, 0: not yet) */
};

static int keeping(const struct cut *c) { return c->depth == 0 || c->st[c->depth - 1].on; }

/* Line and column of source offset 'off', counted on from the last offset asked for
 * (the cut asks in source order), from the start when 'off' lies before it. */
static void src_pos(struct cut *c, size_t off, int *line, int *col)
{
	size_t i = c->pos_off;
	int l = c->pos_line, k = c->pos_col;
	if (l == 0 || off < i)
		i = 0, l = 1, k = 1;
	for (; i < off; i++) {
		if (c->s[i] == '\n')
			l++, k = 1;
		else
			k++;
	}
	c->pos_off = off;
	c->pos_line = l;
	c->pos_col = k;
	*line = l;
	*col = k;
}

/* Keep source bytes [from, from + n). */
static void keep(struct cut *c, size_t from, size_t n)
{
	if (!n || !keeping(c))
		return;
	if (from != c->next_src || c->map->n == 0) {
		struct rpt_srcmap *m = c->map;
		m->seg = xrealloc(m->seg, sizeof *m->seg * (size_t)(m->n + 1));
		struct rpt_srcseg *g = &m->seg[m->n++];
		g->out_line = c->out_line;
		g->out_col = c->out_col;
		src_pos(c, from, &g->src_line, &g->src_col);
	}
	if (c->len + n + 1 > c->cap) {
		c->cap = (c->len + n + 1) * 2;
		c->out = xrealloc(c->out, c->cap);
	}
	memcpy(c->out + c->len, c->s + from, n);
	c->len += n;
	c->out[c->len] = 0;
	for (size_t i = 0; i < n; i++) {
		if (c->s[from + i] == '\n')
			c->out_line++, c->out_col = 1;
		else
			c->out_col++;
	}
	c->next_src = from + n;
}

/* Evaluate the condition s[from, to) written at source offset 'from'. */
static int condition(struct cut *c, size_t from, size_t to, int evaluate, int *truth)
{
	struct rpt_loc at;
	at.file = c->file;
	src_pos(c, from, &at.line, &at.col);
	char *src = xmalloc(to - from + 1);
	memcpy(src, c->s + from, to - from);
	src[to - from] = 0;
	int rc = rpt_cond_eval(src, evaluate ? c->sc : NULL, &at, truth, c->d);
	free(src);
	return rc;
}

static int is_blank(int ch) { return ch == ' ' || ch == '\t'; }

/*
 * If a marker <!-- if|elif|else|end ... --> starts at i, act on it and return its length
 * (through "-->"); 0 when there is none (an ordinary comment).
 */
static size_t marker(struct cut *c, size_t i)
{
	const char *s = c->s;
	if (strncmp(s + i, "<!--", 4) != 0)
		return 0;
	const char *close = strstr(s + i + 4, "-->");
	if (!close)
		return 0;
	size_t b = i + 4, e = (size_t)(close - s);
	while (b < e && (is_blank(s[b]) || s[b] == '\n'))
		b++;
	size_t w = b;
	while (w < e && s[w] >= 'a' && s[w] <= 'z')
		w++;
	size_t wl = w - b;
	int kind = wl == 2 && !strncmp(s + b, "if", 2)     ? 'i'
	           : wl == 4 && !strncmp(s + b, "elif", 4) ? 'f'
	           : wl == 4 && !strncmp(s + b, "else", 4) ? 'e'
	           : wl == 3 && !strncmp(s + b, "end", 3)  ? 'n'
	                                                   : 0;
	if (!kind || (w < e && !is_blank(s[w]) && s[w] != '\n'))
		return 0;
	size_t cb = w, ce = e; /* the condition */
	while (cb < ce && (is_blank(s[cb]) || s[cb] == '\n'))
		cb++;
	while (ce > cb && (is_blank(s[ce - 1]) || s[ce - 1] == '\n'))
		ce--;
	struct rpt_loc at = {c->file, 0, 0};
	src_pos(c, i, &at.line, &at.col);
	size_t len = e + 3 - i;
	const char *name = kind == 'i' ? "if" : kind == 'f' ? "elif" : kind == 'e' ? "else" : "end";
	if ((kind == 'i' || kind == 'f') && cb == ce) {
		c->rc = rpt_error(c->d, CALC_M_CONDITIONAL, &at, "'<!-- %s -->' needs a condition: <!-- %s EXPR -->", name, name);
		return len;
	}
	if ((kind == 'e' || kind == 'n') && cb != ce) {
		c->rc = rpt_error(c->d, CALC_M_CONDITIONAL, &at, "'<!-- %s -->' takes no condition, got '%.*s'", name,
		                  (int)(ce - cb), s + cb);
		return len;
	}
	if (kind != 'i' && c->depth == 0) {
		c->rc = rpt_error(c->d, CALC_M_CONDITIONAL, &at, "'<!-- %s -->' without an open '<!-- if EXPR -->'", name);
		return len;
	}
	struct frame *f = c->depth > 0 ? &c->st[c->depth - 1] : NULL;
	int t = 0;
	switch (kind) {
	case 'i': {
		if (c->depth == (int)(sizeof c->st / sizeof c->st[0])) {
			c->rc = rpt_error(c->d, CALC_M_CONDITIONAL, &at, "'<!-- if -->' nested more than %d deep", c->depth);
			return len;
		}
		int parent = keeping(c);
		if (condition(c, cb, ce, parent, &t) < 0) {
			c->rc = -1;
			t = 0;
		}
		f = &c->st[c->depth++];
		f->parent = parent;
		f->on = parent && t;
		f->taken = f->on;
		f->seen_else = 0;
		f->at = at;
		break;
	}
	case 'f':
		if (f->seen_else) {
			c->rc = rpt_error(c->d, CALC_M_CONDITIONAL, &at, "'<!-- elif -->' after '<!-- else -->'");
			return len;
		}
		if (condition(c, cb, ce, f->parent && !f->taken, &t) < 0) {
			c->rc = -1;
			t = 0;
		}
		f->on = f->parent && !f->taken && t;
		f->taken |= f->on;
		break;
	case 'e':
		if (f->seen_else) {
			c->rc = rpt_error(c->d, CALC_M_CONDITIONAL, &at, "a second '<!-- else -->' for one '<!-- if -->'");
			return len;
		}
		f->seen_else = 1;
		f->on = f->parent && !f->taken;
		f->taken = 1;
		break;
	case 'n':
		c->depth--;
		break;
	}
	return len;
}

int rpt_cond_apply(const char *file, const char *text, struct rpt_scope *sc, char **out,
                   struct rpt_srcmap *map, struct calc_diag *d)
{
	struct cut c = {0};
	c.s = text;
	c.n = strlen(text);
	c.file = file;
	c.sc = sc;
	c.d = d;
	c.out_line = c.out_col = 1;
	c.map = map;
	memset(map, 0, sizeof *map);
	c.cap = c.n + 1;
	c.out = xmalloc(c.cap);
	c.out[0] = 0;
	char fence = 0;
	size_t fence_len = 0;
	size_t i = 0;
	while (i < c.n) {
		/* at the start of a line */
		size_t eol = i;
		while (eol < c.n && text[eol] != '\n')
			eol++;
		size_t next = eol < c.n ? eol + 1 : eol;
		size_t k = i, ind = 0;
		while (k < eol && text[k] == ' ' && ind < 4)
			k++, ind++;
		/* fenced code: kept (or left out) as it is */
		if (ind < 4 && (text[k] == '`' || text[k] == '~')) {
			size_t r = k;
			while (r < eol && text[r] == text[k])
				r++;
			if (r - k >= 3 && (!fence || (text[k] == fence && r - k >= fence_len))) {
				if (fence)
					fence = 0;
				else if (text[k] == '~' || !memchr(text + r, '`', eol - r))
					fence = text[k], fence_len = r - k;
				keep(&c, i, next - i);
				i = next;
				continue;
			}
		}
		if (fence) {
			keep(&c, i, next - i);
			i = next;
			continue;
		}
		/* a marker alone on its line takes the line with it */
		size_t b = i;
		while (b < eol && is_blank(text[b]))
			b++;
		size_t ml = marker(&c, b);
		if (ml) {
			size_t a = b + ml;
			while (a < eol && is_blank(text[a]))
				a++;
			if (a == eol && !memchr(text + b, '\n', ml)) {
				i = next;
				continue;
			}
			/* not alone: undo nothing, the marker was acted on; keep the blanks before it */
			keep(&c, i, b - i);
			i = b + ml;
		}
		/* the rest of the line (a code span or a marker may run past it) */
		while (i < c.n) {
			char ch = text[i];
			if (ch == '`') {
				size_t r = i;
				while (r < c.n && text[r] == '`')
					r++;
				size_t run = r - i, j = r, end = 0;
				while (j < c.n) {
					if (text[j] == '`') {
						size_t q = j;
						while (q < c.n && text[q] == '`')
							q++;
						if (q - j == run) {
							end = q;
							break;
						}
						j = q;
					} else if (text[j] == '\n' && j + 1 < c.n && text[j + 1] == '\n')
						break; /* a code span does not cross a blank line */
					else
						j++;
				}
				size_t to = end ? end : r;
				keep(&c, i, to - i);
				i = to;
				continue;
			}
			if (ch == '<') {
				size_t m = marker(&c, i);
				if (m) {
					i += m;
					continue;
				}
			}
			if (ch != '<' && ch != '\n') {
				/* a run of plain text kept as one piece, as its bytes one by one would be */
				size_t r = i + 1;
				while (r < c.n && text[r] != '`' && text[r] != '<' && text[r] != '\n')
					r++;
				keep(&c, i, r - i);
				i = r;
				continue;
			}
			keep(&c, i, 1);
			i++;
			if (ch == '\n')
				break;
		}
	}
	for (int f = c.depth - 1; f >= 0; f--)
		c.rc = rpt_error(d, CALC_M_CONDITIONAL, &c.st[f].at, "'<!-- if -->' is not closed: add '<!-- end -->'");
	*out = c.out;
	return c.rc;
}
