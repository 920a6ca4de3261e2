/*
 * html.c -- the HTML renderer of the expanded report.
 *
 * Shaped like cmark's src/html.c: one function S_render_node with a switch over node
 * types, driven by cmark's iterator (enter and exit events), writing to a growing
 * buffer.  What it adds to cmark's renderer: numbered headings with ids, figures with
 * their SVG inlined (ids prefixed so that several charts can share one page), numbered
 * table captions with a link to the table's CSV, numeric columns right-aligned, a
 * table of contents, CSS for screen and print, and one self-contained file (no
 * JavaScript, nothing fetched).  Raw HTML in chapters is escaped unless 'unsafe'.
 * With two threads or more (calc_threads_get) the figures' SVG files are read and
 * renamed on a second thread while the body is rendered (struct svg_prep).
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmark-gfm-core-extensions.h>

#include "report.h"
#include "../calc/files.h"

/* ======================================================================== */
/* Output buffer                                                             */
/* ======================================================================== */

struct buf {
	char *s;
	size_t len, cap;
};

static void put_n(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

static void put(struct buf *b, const char *s) { put_n(b, s, strlen(s)); }

static void putf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(struct buf *b, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < (int)sizeof tmp) {
		put_n(b, tmp, (size_t)n);
		return;
	}
	char *big = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	put_n(b, big, (size_t)n);
	free(big);
}

/* Escape text for element content and attribute values. */
static void esc(struct buf *b, const char *s)
{
	if (!s)
		return;
	for (;;) {
		size_t run = strcspn(s, "&<>\""); /* copied as one piece */
		put_n(b, s, run);
		s += run;
		switch (*s) {
		case '&': put(b, "&amp;"); break;
		case '<': put(b, "&lt;"); break;
		case '>': put(b, "&gt;"); break;
		case '"': put(b, "&quot;"); break;
		default: return; /* the end */
		}
		s++;
	}
}

/* Units that follow a number after one space in the expanded prose and tables (calc/format.c's
 * display suffixes, the chapters' own "GPU-hours", "tokens", rates written "/ s", and the
 * currency of plan.currency).  A no-break space keeps them on the number's line. */
#define NB_UNIT(s) {s, sizeof s - 1} /* a unit and its length, known when compiled */
static const struct nb_unit {
	const char *s;
	size_t n;
} nb_units[] = {
	NB_UNIT("GB/s"), NB_UNIT("Gb/s"), NB_UNIT("TB/s"), NB_UNIT("MB/s"), NB_UNIT("TFLOP/s"), NB_UNIT("PFLOP/s"),
	NB_UNIT("GiB"), NB_UNIT("TiB"), NB_UNIT("TB"), NB_UNIT("GB"), NB_UNIT("MB"), NB_UNIT("KB"), NB_UNIT("PB"),
	NB_UNIT("ms"), NB_UNIT("\xc2\xb5s"), NB_UNIT("us"), NB_UNIT("s"), NB_UNIT("days"), NB_UNIT("day"),
	NB_UNIT("hours"), NB_UNIT("hour"), NB_UNIT("h"), NB_UNIT("GPU-hours"), NB_UNIT("GPUs"), NB_UNIT("GPU"),
	NB_UNIT("MWh"), NB_UNIT("kWh"), NB_UNIT("kW"), NB_UNIT("MW"), NB_UNIT("W"), NB_UNIT("B"), NB_UNIT("tokens"),
	NB_UNIT("billion"), NB_UNIT("million"), NB_UNIT("/"), {NULL, 0}};

/* Length of the unit at p that may be glued to the number before it (0 = none).  A unit
 * ends where the word does; a currency code is two to four capitals ("USD", "EUR").  The
 * units are tried in the table's order, each whose first byte is p's (1,392 calls a
 * report, each once a strlen and a strncmp of all 35). */
static size_t nb_unit_at(const char *p)
{
	for (const struct nb_unit *u = nb_units; u->s; u++) {
		size_t n = u->n;
		if (p[0] == u->s[0] && !strncmp(p, u->s, n) && !isalnum((unsigned char)p[n]) && p[n] != '-' &&
		    p[n] != '_')
			return n;
	}
	size_t n = 0;
	while (n < 5 && p[n] >= 'A' && p[n] <= 'Z')
		n++;
	return n >= 2 && n <= 4 && !isalnum((unsigned char)p[n]) && p[n] != '-' ? n : 0;
}

/* Escape prose text, with a no-break space between a number and its unit ("9.14 s",
 * "1,536 GPUs", "2.1 / s", "5,000 USD"), so that no line wraps them apart. */
static void esc_text(struct buf *b, const char *s)
{
	if (!s)
		return;
	const char *from = s;
	for (const char *p = s; *p; p++) {
		if (*p != ' ' || p == s || !isdigit((unsigned char)p[-1]))
			continue;
		size_t u = nb_unit_at(p + 1);
		if (!u)
			continue;
		char *piece = xmalloc((size_t)(p - from) + 1);
		memcpy(piece, from, (size_t)(p - from));
		piece[p - from] = 0;
		esc(b, piece);
		free(piece);
		put(b, "&nbsp;");
		if (u == 1 && p[1] == '/' && p[2] == ' ' && nb_unit_at(p + 3) && p[3] != '/') {
			put(b, "/&nbsp;"); /* "2.1 / s" */
			p += 2;
		}
		from = p + 1;
	}
	esc(b, from);
}

/* Escape a body cell's text that holds a key=value list or a snake_case word
 * ("account_embedding=yes account_loss=yes"): a <wbr> after each '_' and '=' inside a
 * word lets a narrow column wrap the list at its joints instead of pushing the table
 * past the page.  Other text goes through esc_text. */
static void esc_cell(struct buf *b, const char *s)
{
	if (!s || !strpbrk(s, "_=")) {
		esc_text(b, s);
		return;
	}
	const char *from = s;
	for (const char *p = s; *p; p++) {
		if ((*p != '_' && *p != '=') || !p[1] || p[1] == ' ' || p == s || p[-1] == ' ')
			continue;
		char *piece = xmalloc((size_t)(p - from) + 2);
		memcpy(piece, from, (size_t)(p - from) + 1);
		piece[p - from + 1] = 0;
		esc(b, piece);
		free(piece);
		put(b, "<wbr>");
		from = p + 1;
	}
	esc(b, from);
}

/* Escape a table header's text with each word that holds a hyphen ("ZeRO-1",
 * "micro-batch", "fp8-lm") in a span that does not wrap: a narrow column breaks its
 * header between words, never at a hyphen inside one. */
static void esc_head(struct buf *b, const char *s)
{
	if (!s)
		return;
	while (*s) {
		size_t sp = strspn(s, " ");
		put_n(b, s, sp);
		s += sp;
		size_t w = strcspn(s, " ");
		if (!w)
			break;
		char *word = xmalloc(w + 1);
		memcpy(word, s, w);
		word[w] = 0;
		if (strchr(word, '-')) {
			put(b, "<span class=\"nw\">");
			esc(b, word);
			put(b, "</span>");
		} else
			esc(b, word);
		free(word);
		s += w;
	}
}

/* Escape a URL for an href: percent-encode what may not appear, escape '&' and quotes.
 * A URL from a chapter passes rpt_url_allowed or becomes empty; 'trusted' URLs are
 * the report's own (tables/NAME.csv). */
static void esc_href(struct buf *b, const char *u, int trusted)
{
	if (!u || (!trusted && !rpt_url_allowed(u)))
		return;
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *p = (const unsigned char *)u; *p; p++) {
		if (*p == '&')
			put(b, "&amp;");
		else if (*p == '"')
			put(b, "%22");
		else if (*p == '\'')
			put(b, "&#x27;");
		else if (*p <= ' ' || *p == '<' || *p == '>' || *p == '\\' || *p == '`' || *p >= 0x7f) {
			char e[4] = {'%', hex[*p >> 4], hex[*p & 15], 0};
			put(b, e);
		} else
			put_n(b, (const char *)p, 1);
	}
}

/* ======================================================================== */
/* Style                                                                     */
/* ======================================================================== */

static const char css[] =
	":root{--ink:#1d2330;--muted:#5b6473;--rule:#d9dde3;--accent:#1f5fa8;--shade:#f4f6f8;}\n"
	"*{box-sizing:border-box}\n"
	"html{font-size:17px}\n"
	"body{margin:0;color:var(--ink);background:#fff;font-family:'DejaVu Serif',Georgia,'Times New Roman',serif;"
	"line-height:1.55;display:grid;grid-template-columns:15rem minmax(0,50rem);column-gap:2.5rem;justify-content:center}\n"
	"nav.toc{position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto;padding:2rem 0 2rem 0;"
	"font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;font-size:.82rem;line-height:1.4}\n"
	"nav.toc h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.08em;color:var(--muted);margin:0 0 .6rem}\n"
	"nav.toc ul{list-style:none;margin:0;padding:0}\n"
	"nav.toc li{margin:.25rem 0}\n"
	"nav.toc li.l2{padding-left:1.1rem}\n"
	"nav.toc li.l3{padding-left:2.2rem;font-size:.95em}\n"
	"nav.toc a{color:var(--ink);text-decoration:none;display:block;padding-left:2.3em;text-indent:-2.3em}\n"
	"nav.toc a:hover{color:var(--accent);text-decoration:underline}\n"
	"nav.toc .secnum{color:var(--muted);display:inline-block;min-width:2.3em;text-indent:0}\n"
	"main{padding:2rem 0 4rem;min-width:0}\n"
	"header.title{grid-column:1/-1;border-bottom:1px solid var(--rule);margin:0;padding:2.2rem 0 1.2rem}\n"
	"header.title .report-title{font-size:2rem;line-height:1.2;margin:0 0 .5rem;font-weight:bold}\n"
	"header.title .subtitle,header.title .date{margin:.2rem 0;color:var(--muted);"
	"font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;font-size:.85rem}\n"
	"h1,h2,h3,h4,h5,h6{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;line-height:1.25;margin:2.2rem 0 .8rem}\n"
	"h1{font-size:1.6rem;border-bottom:1px solid var(--rule);padding-bottom:.3rem}\n"
	"h2{font-size:1.3rem}h3{font-size:1.1rem}h4,h5,h6{font-size:1rem}\n"
	".secnum{color:var(--muted);margin-right:.5em;font-variant-numeric:tabular-nums}\n"
	"p{margin:0 0 1rem;hyphens:auto}\n"
	"a{color:var(--accent)}\n"
	"a.xref{text-decoration:none;border-bottom:1px dotted var(--accent)}\n"
	"code,pre{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:.85em}\n"
	"code{background:var(--shade);padding:.05em .3em;border-radius:3px}\n"
	"pre{background:var(--shade);padding:.8rem 1rem;overflow:auto;border-radius:4px;line-height:1.4}\n"
	"pre code{background:none;padding:0}\n"
	"blockquote{margin:0 0 1rem;padding:.2rem 1rem;border-left:3px solid var(--rule);color:var(--muted)}\n"
	"figure{margin:1.8rem 0;text-align:center}\n"
	"figure svg,figure img{max-width:100%;height:auto}\n"
	"figcaption,caption{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;font-size:.85rem;color:var(--muted);"
	"line-height:1.4}\n"
	"figcaption{margin-top:.5rem;text-align:left}\n"
	".label{font-weight:bold;color:var(--ink)}\n"
	".table-wrap{overflow-x:auto;margin:1.6rem 0}\n"
	"table{border-collapse:collapse;margin:0 auto;font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;"
	"font-size:.78rem;line-height:1.35}\n"
	"caption{caption-side:top;text-align:left;padding-bottom:.5rem}\n"
	"caption a.csv{margin-left:.4em;font-size:.9em}\n"
	".table-note{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;font-size:.75rem;color:var(--muted);"
	"margin:.4rem 0 0;line-height:1.4}\n"
	"th,td{padding:.3rem .55rem;border-bottom:1px solid var(--rule);vertical-align:top}\n"
	"table.wide{font-size:.64rem}table.wide th,table.wide td{padding:.2rem .22rem}\n"
	"thead th{border-bottom:2px solid var(--ink);text-align:left;vertical-align:bottom}\n"
	"tbody tr:nth-child(even){background:#fafbfc}\n"
	".num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"th.num{white-space:normal}\n"
	"th{hyphens:manual;overflow-wrap:normal;word-break:normal}th .nw{white-space:nowrap}\n"
	".c{text-align:center}\n"
	"hr{border:0;border-top:1px solid var(--rule);margin:2rem 0}\n"
	"@media (max-width:60rem){body{display:block;padding:0 1.2rem}header.title .report-title{font-size:1.5rem}"
	"nav.toc{position:static;max-height:none;padding:1.5rem 0 0;border-bottom:1px solid var(--rule)}}\n"
	"@media print{html{font-size:11pt}body{display:block}"
	"nav.toc{position:static;max-height:none;overflow:visible;padding:0;page-break-after:always}"
	"main{padding:0}a{color:inherit;text-decoration:none}a.xref{border:0}"
	"h1{page-break-before:always}main>h1:first-child{page-break-before:avoid}"
	"h1,h2,h3,h4{page-break-after:avoid;break-after:avoid}header.title{padding-top:0}"
	"figure,.table-wrap,pre{page-break-inside:avoid;break-inside:avoid}"
	"tbody tr:nth-child(even){background:none}caption a.csv{display:none}}\n";

/* ======================================================================== */
/* Figures: inline SVG                                                       */
/* ======================================================================== */

/* Append to 'b' the SVG file's <svg> element after its "<svg" with every id (and
 * reference to one) prefixed with "NAME-", so two charts' "gpPt0" do not clash in one
 * page.  Any thread: it reads only f's file, name and path. */
static int svg_body(struct buf *b, const struct rpt_figure *f, struct calc_diag *d)
{
	char why[128];
	FILE *in = calc_file_open(f->svg_path, "rb", why, sizeof why);
	if (!in)
		return calc_error(d, f->svg_path, 0, "cannot read figure '%s': %s (was it rendered? see figures/%s.gp)",
		                  f->name, why, f->name);
	struct buf svg = {0};
	char chunk[8192];
	size_t r;
	while ((r = fread(chunk, 1, sizeof chunk, in)) > 0)
		put_n(&svg, chunk, r);
	fclose(in);
	const char *s = svg.s ? strstr(svg.s, "<svg") : NULL;
	if (!s) {
		free(svg.s);
		return calc_error(d, f->svg_path, 0, "not an SVG file");
	}
	/* the ids and references to rename, and gnuplot's <title> (dropped: the caption
	 * names the chart); each pattern's next occurrence is found with strstr and kept,
	 * so the text between them is copied in one piece */
	static const char *const pats[] = {" id='", " id=\"", "href='#", "href=\"#", "url(#", "<title>", NULL};
	enum { NPAT = 6, TITLE = 5 };
	const char *next[NPAT];
	const char *p = s + 4;
	int nseen = 0;
	char *seen[512];
	for (int i = 0; i < NPAT; i++)
		next[i] = strstr(p, pats[i]);
	for (;;) {
		int hit = -1;
		for (int i = 0; i < NPAT; i++) {
			if (next[i] && next[i] < p)
				next[i] = strstr(p, pats[i]);
			if (next[i] && (hit < 0 || next[i] < next[hit]))
				hit = i;
		}
		if (hit < 0) {
			put(b, p);
			break;
		}
		put_n(b, p, (size_t)(next[hit] - p));
		p = next[hit];
		if (hit == TITLE) {
			const char *e = strstr(p, "</title>");
			if (e) {
				p = e + 8;
				continue;
			}
			put_n(b, p, 1);
			p++;
			continue;
		}
		size_t l = strlen(pats[hit]);
		put_n(b, p, l);
		put(b, f->name);
		put(b, "-");
		p += l;
		if (hit <= 1) {
			/* an id: gnuplot repeats some ("gnuplot_plot_1" for a histogram's key and
			 * bars); the second one becomes "...-2" so that ids stay unique */
			size_t n = strcspn(p, "'\"");
			char id[128];
			snprintf(id, sizeof id, "%.*s", (int)(n < 127 ? n : 127), p);
			int k = 1;
			for (int i = 0; i < nseen; i++)
				if (!strcmp(seen[i], id))
					k++;
			if (nseen < 512)
				seen[nseen++] = xstrdup(id);
			put_n(b, p, n);
			if (k > 1)
				putf(b, "-%d", k);
			p += n;
		}
	}
	for (int i = 0; i < nseen; i++)
		free(seen[i]);
	free(svg.s);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Figures read on the pool while the chapters are expanded (struct rpt_svg) */

static void svg_job_run(struct calc_job *j)
{
	struct rpt_svg *e = (struct rpt_svg *)j;
	struct rpt_figure f = {0};
	snprintf(f.name, sizeof f.name, "%s", e->name);
	f.svg_path = e->path;
	struct buf b = {0};
	struct calc_diag d = {0};
	e->rc = svg_body(&b, &f, &d);
	calc_diag_free(&d); /* a failure is read again, and said, where the page needs it */
	e->body = b.s;
	e->len = b.len;
}

void rpt_svg_prefetch(struct rpt_svgs *c, const char *name, const char *path)
{
	if (!c || !calc_pool_active() || strlen(name) >= sizeof c->v[0]->name)
		return;
	struct rpt_svg *e = NULL;
	for (int i = 0; i < c->n && !e; i++)
		if (!strcmp(c->v[i]->path, path) && !strcmp(c->v[i]->name, name))
			e = c->v[i];
	if (e && e->job.state != 3)
		return; /* queued, run or running */
	if (!e) {
		e = xcalloc(1, sizeof *e);
		snprintf(e->name, sizeof e->name, "%s", name);
		e->path = xstrdup(path);
		e->job.run = svg_job_run;
		e->job.cost = 0; /* after every job of a known cost: the threads' idle end */
		c->v = xrealloc(c->v, sizeof *c->v * (size_t)(c->n + 1));
		c->v[c->n++] = e;
	}
	calc_pool_submit(&e->job);
}

void rpt_svgs_free(struct rpt_svgs *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->n; i++) {
		free(c->v[i]->path);
		free(c->v[i]->body);
		free(c->v[i]);
	}
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

/* Figure f's body as read on the pool, or NULL (not read, or it failed).  Call after
 * the pool has stopped (calc_pool_stop: no job of c runs). */
static const struct rpt_svg *svg_early(const struct rpt_svgs *c, const struct rpt_figure *f)
{
	for (int i = 0; c && i < c->n; i++) {
		const struct rpt_svg *e = c->v[i];
		if (e->job.state == 2 && e->rc == 0 && e->body && !strcmp(e->path, f->svg_path) &&
		    !strcmp(e->name, f->name))
			return e;
	}
	return NULL;
}

/*
 * The figures' SVG bodies prepared on a second thread while the body is rendered here
 * (calc_threads_get() > 1), in figure order: the reading and renaming is about a third
 * of the HTML render.  Each body with its diagnostics is kept per figure and taken in
 * the document's order, so the page and the messages are those of one thread.  A
 * figure the renderer reaches before the thread has begun it, the renderer does itself
 * (as on one thread), and the thread goes on with the next one not taken.
 */
struct svg_prep {
	const struct rpt_doc *doc;
	struct buf *body;         /* per figure: svg_body's text */
	struct calc_diag *d;      /* per figure: its diagnostics */
	int *rc;                  /* per figure: svg_body's result */
	int *state;               /* per figure: 0 not begun, 1 taken, 2 prepared here */
	pthread_mutex_t mu;
	pthread_cond_t more;
	pthread_t thread;
};

static void *svg_prep_main(void *arg)
{
	struct svg_prep *p = arg;
	pthread_mutex_lock(&p->mu);
	for (int i = 0; i < p->doc->nfigures; i++) {
		if (p->state[i] || svg_early(p->doc->svgs, &p->doc->figures[i]))
			continue; /* the renderer's, or read already */
		p->state[i] = 1;
		pthread_mutex_unlock(&p->mu);
		int rc = svg_body(&p->body[i], &p->doc->figures[i], &p->d[i]);
		pthread_mutex_lock(&p->mu);
		p->rc[i] = rc;
		p->state[i] = 2;
		pthread_cond_signal(&p->more);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* The lock, the condition and the arrays of 'p' (not the bodies and messages in them). */
static void svg_prep_free(struct svg_prep *p)
{
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->more);
	free(p->body);
	free(p->d);
	free(p->rc);
	free(p->state);
}

/* Start preparing doc's figures; 0, or -1 when no thread is used (then nothing to free). */
static int svg_prep_start(struct svg_prep *p, const struct rpt_doc *doc)
{
	memset(p, 0, sizeof *p);
	if (doc->nfigures == 0 || calc_threads_get() < 2)
		return -1;
	p->doc = doc;
	p->body = xcalloc((size_t)doc->nfigures, sizeof *p->body);
	p->d = xcalloc((size_t)doc->nfigures, sizeof *p->d);
	p->rc = xcalloc((size_t)doc->nfigures, sizeof *p->rc);
	p->state = xcalloc((size_t)doc->nfigures, sizeof *p->state);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->more, NULL);
	if (pthread_create(&p->thread, NULL, svg_prep_main, p) != 0) {
		svg_prep_free(p);
		p->doc = NULL;
		return -1;
	}
	return 0;
}

static void svg_prep_end(struct svg_prep *p)
{
	if (!p->doc)
		return;
	pthread_join(p->thread, NULL);
	for (int i = 0; i < p->doc->nfigures; i++) {
		free(p->body[i].s);
		calc_diag_free(&p->d[i]);
	}
	svg_prep_free(p);
}

/* Append figure f's <svg> element (its body prepared by 'p' when p is running). */
static int inline_svg(struct buf *b, const struct rpt_figure *f, struct svg_prep *p,
                      const struct rpt_svgs *early, struct calc_diag *d)
{
	const struct rpt_svg *e = svg_early(early, f);
	if (e) {
		put(b, "<svg role=\"img\" aria-label=\"");
		esc(b, f->caption);
		put(b, "\"");
		put_n(b, e->body, e->len);
		return 0;
	}
	int i = (int)(f - (p && p->doc ? p->doc->figures : f)), here = 1;
	if (p && p->doc && i >= 0 && i < p->doc->nfigures) {
		pthread_mutex_lock(&p->mu);
		here = p->state[i] == 0; /* not begun: taken here */
		if (here)
			p->state[i] = 1;
		while (!here && p->state[i] != 2)
			pthread_cond_wait(&p->more, &p->mu);
		pthread_mutex_unlock(&p->mu);
	}
	if (here) {
		/* here: a failure discards the page, so the opening may go first */
		put(b, "<svg role=\"img\" aria-label=\"");
		esc(b, f->caption);
		put(b, "\"");
		return svg_body(b, f, d);
	}
	calc_diag_append(d, &p->d[i]);
	if (p->rc[i] < 0)
		return -1;
	put(b, "<svg role=\"img\" aria-label=\"");
	esc(b, f->caption);
	put(b, "\"");
	put_n(b, p->body[i].s ? p->body[i].s : "", p->body[i].len);
	return 0;
}

/* ======================================================================== */
/* The renderer                                                              */
/* ======================================================================== */

struct renderer {
	struct buf *b;
	const struct rpt_doc *doc;
	int unsafe;
	struct calc_diag *d;
	int failed;
	/* the table being rendered */
	const struct rpt_table *table;
	uint8_t *align;
	int in_body;
	int col;
	int in_th; /* inside a header cell */
	int in_td; /* inside a body cell of text (not a number) */
	struct svg_prep *svg; /* the figures' bodies, or NULL */
};

static cmark_node *grandparent(cmark_node *n)
{
	cmark_node *p = cmark_node_parent(n);
	return p ? cmark_node_parent(p) : NULL;
}

static int tight_paragraph(cmark_node *n)
{
	cmark_node *g = grandparent(n);
	return g && cmark_node_get_type(g) == CMARK_NODE_LIST && cmark_node_get_list_tight(g);
}

static int figure_paragraph(cmark_node *n, const struct rpt_figure **out)
{
	cmark_node *c = cmark_node_first_child(n);
	if (!c || cmark_node_next(c) || cmark_node_get_type(c) != CMARK_NODE_IMAGE)
		return 0;
	void *u = cmark_node_get_user_data(c);
	return u && (*out = u) != NULL;
}

/* Plain text of an image's description, for alt attributes. */
static void alt_text(struct buf *b, cmark_node *img)
{
	cmark_iter *it = cmark_iter_new(img);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *c = cmark_iter_get_node(it);
		if (ev == CMARK_EVENT_ENTER && c != img && cmark_node_get_literal(c))
			esc(b, cmark_node_get_literal(c));
	}
	cmark_iter_free(it);
}

/* An HTML comment and nothing else. */
static int is_comment(const char *s)
{
	if (!s || strncmp(s, "<!--", 4) != 0)
		return 0;
	const char *e = strstr(s + 4, "-->");
	return e && strspn(e + 3, " \t\n") == strlen(e + 3);
}

/* Returns 1 when the node's children must be skipped. */
static int S_render_node(struct renderer *r, cmark_node *node, cmark_event_type ev)
{
	struct buf *b = r->b;
	int entering = ev == CMARK_EVENT_ENTER;
	cmark_node_type type = cmark_node_get_type(node);
	const char *lit = cmark_node_get_literal(node);

	if (type == CMARK_NODE_TABLE) {
		if (entering) {
			const struct rpt_table *t = cmark_node_get_user_data(node);
			r->table = t;
			r->align = cmark_gfm_extensions_get_table_alignments(node);
			r->in_body = 0;
			put(b, "<div class=\"table-wrap\">\n<table");
			/* ten columns or more: the smaller type of a wide table (CSS table.wide),
			 * so that the search's tables fit the 50rem column at 1280 px */
			if (cmark_gfm_extensions_get_table_columns(node) >= 10)
				put(b, " class=\"wide\"");
			if (t) {
				put(b, " id=\"");
				esc(b, t->id);
				putf(b, "\">\n<caption><span class=\"label\">Table %d.</span> ", t->number);
				esc_text(b, t->caption);
				if (t->csv_path) {
					put(b, " <a class=\"csv\" href=\"");
					esc_href(b, t->csv_path, 1);
					put(b, "\">CSV</a>");
				}
				put(b, "</caption>\n");
			} else
				put(b, ">\n");
		} else {
			if (r->in_body)
				put(b, "</tbody>\n");
			put(b, "</table>\n");
			if (r->table && r->table->note) {
				put(b, "<p class=\"table-note\">");
				esc_text(b, r->table->note);
				put(b, "</p>\n");
			}
			put(b, "</div>\n");
			r->table = NULL;
		}
		return 0;
	}
	if (type == CMARK_NODE_TABLE_ROW) {
		int header = cmark_gfm_extensions_get_table_row_is_header(node);
		if (entering) {
			if (header)
				put(b, "<thead>\n");
			else if (!r->in_body) {
				put(b, "<tbody>\n");
				r->in_body = 1;
			}
			put(b, "<tr>");
			r->col = 0;
		} else {
			put(b, "</tr>\n");
			if (header)
				put(b, "</thead>\n");
		}
		return 0;
	}
	if (type == CMARK_NODE_TABLE_CELL) {
		cmark_node *row = cmark_node_parent(node);
		int header = row && cmark_gfm_extensions_get_table_row_is_header(row);
		if (entering) {
			int c = r->col;
			int num = r->table && c < r->table->ncols && r->table->numeric_cols[c];
			uint8_t a = r->align ? r->align[c] : 0;
			r->in_th = header;
			r->in_td = !header && !num && a != 'r';
			put(b, header ? "<th" : "<td");
			if (num || a == 'r')
				put(b, " class=\"num\"");
			else if (a == 'c')
				put(b, " class=\"c\"");
			put(b, ">");
		} else {
			put(b, header ? "</th>" : "</td>");
			r->in_th = 0;
			r->in_td = 0;
			r->col++;
		}
		return 0;
	}
	if (type == CMARK_NODE_STRIKETHROUGH) {
		put(b, entering ? "<del>" : "</del>");
		return 0;
	}

	switch (type) {
	case CMARK_NODE_DOCUMENT:
		break;
	case CMARK_NODE_BLOCK_QUOTE:
		put(b, entering ? "<blockquote>\n" : "</blockquote>\n");
		break;
	case CMARK_NODE_LIST: {
		int ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST;
		if (entering) {
			int start = cmark_node_get_list_start(node);
			if (ordered && start != 1)
				putf(b, "<ol start=\"%d\">\n", start);
			else
				put(b, ordered ? "<ol>\n" : "<ul>\n");
		} else
			put(b, ordered ? "</ol>\n" : "</ul>\n");
		break;
	}
	case CMARK_NODE_ITEM:
		put(b, entering ? "<li>" : "</li>\n");
		break;
	case CMARK_NODE_HEADING: {
		const struct rpt_heading *h = cmark_node_get_user_data(node);
		int level = cmark_node_get_heading_level(node);
		if (entering) {
			putf(b, "<h%d", level);
			if (h) {
				put(b, " id=\"");
				esc(b, h->id);
				put(b, "\"");
			}
			put(b, ">");
			if (h && h->number[0]) {
				put(b, "<span class=\"secnum\">");
				esc(b, h->number);
				put(b, "</span>");
			}
		} else
			putf(b, "</h%d>\n", level);
		break;
	}
	case CMARK_NODE_CODE_BLOCK: {
		const char *info = cmark_node_get_fence_info(node);
		put(b, "<pre><code");
		if (info && *info) {
			char lang[64];
			size_t k = strcspn(info, " \t");
			snprintf(lang, sizeof lang, "%.*s", (int)(k < 60 ? k : 60), info);
			put(b, " class=\"language-");
			esc(b, lang);
			put(b, "\"");
		}
		put(b, ">");
		esc(b, lit);
		put(b, "</code></pre>\n");
		break;
	}
	case CMARK_NODE_HTML_BLOCK:
		if (is_comment(lit))
			break; /* comments (lint-ok marks) are not shown */
		if (r->unsafe)
			put(b, lit);
		else {
			put(b, "<pre class=\"raw-html\"><code>");
			esc(b, lit);
			put(b, "</code></pre>\n");
		}
		break;
	case CMARK_NODE_THEMATIC_BREAK:
		put(b, "<hr>\n");
		break;
	case CMARK_NODE_PARAGRAPH: {
		const struct rpt_figure *f = NULL;
		if (figure_paragraph(node, &f)) {
			if (entering) {
				put(b, "<figure id=\"");
				esc(b, f->id);
				put(b, "\">\n");
				if (inline_svg(b, f, r->svg, r->doc->svgs, r->d) < 0)
					r->failed = 1;
				putf(b, "\n<figcaption><span class=\"label\">Figure %d.</span> ", f->number);
				esc_text(b, f->caption);
				put(b, "</figcaption>\n</figure>\n");
			}
			return 1;
		}
		if (tight_paragraph(node))
			break;
		put(b, entering ? "<p>" : "</p>\n");
		break;
	}
	case CMARK_NODE_TEXT:
		if (r->in_th)
			esc_head(b, lit);
		else if (r->in_td)
			esc_cell(b, lit);
		else
			esc_text(b, lit);
		break;
	case CMARK_NODE_LINEBREAK:
		put(b, "<br>\n");
		break;
	case CMARK_NODE_SOFTBREAK:
		put(b, "\n");
		break;
	case CMARK_NODE_CODE:
		put(b, "<code>");
		esc(b, lit);
		put(b, "</code>");
		break;
	case CMARK_NODE_HTML_INLINE:
		if (is_comment(lit))
			break;
		/* a subscript (math such as t<sub>f</sub>) passes in every mode, as the PDF
		 * layout draws it (layout.c) */
		if (lit && (!strcmp(lit, "<sub>") || !strcmp(lit, "</sub>"))) {
			put(b, lit);
			break;
		}
		if (r->unsafe)
			put(b, lit);
		else
			esc(b, lit);
		break;
	case CMARK_NODE_STRONG:
		put(b, entering ? "<strong>" : "</strong>");
		break;
	case CMARK_NODE_EMPH:
		put(b, entering ? "<em>" : "</em>");
		break;
	case CMARK_NODE_LINK:
		if (entering) {
			const char *url = cmark_node_get_url(node);
			const char *title = cmark_node_get_title(node);
			put(b, "<a");
			if (url && url[0] == '#')
				put(b, " class=\"xref\"");
			put(b, " href=\"");
			esc_href(b, url, 0);
			put(b, "\"");
			if (title && *title) {
				put(b, " title=\"");
				esc(b, title);
				put(b, "\"");
			}
			put(b, ">");
		} else
			put(b, "</a>");
		break;
	case CMARK_NODE_IMAGE:
		if (entering) {
			put(b, "<img src=\"");
			esc_href(b, cmark_node_get_url(node), 0); /* expand.c lets only figures through */
			put(b, "\" alt=\"");
			alt_text(b, node);
			put(b, "\">");
		}
		return 1;
	default:
		break;
	}
	return 0;
}

static void render_toc(struct buf *b, const struct rpt_doc *doc)
{
	put(b, "<nav class=\"toc\" aria-label=\"Contents\">\n<h2>Contents</h2>\n<ul>\n");
	for (int i = 0; i < doc->nheadings; i++) {
		const struct rpt_heading *h = &doc->headings[i];
		if (h->level > 3)
			continue;
		putf(b, "<li class=\"l%d\"><a href=\"#", h->level);
		esc(b, h->id);
		put(b, "\">");
		if (h->number[0]) {
			put(b, "<span class=\"secnum\">");
			esc(b, h->number);
			put(b, "</span>");
		}
		esc_text(b, h->text);
		put(b, "</a></li>\n");
	}
	put(b, "</ul>\n</nav>\n");
}

/* Render the body (the chapters) of the document into 'b'. */
static int render_body(struct buf *b, const struct rpt_doc *doc, int unsafe, struct calc_diag *d)
{
	struct svg_prep prep;
	struct renderer r = {b, doc, unsafe, d, 0, NULL, NULL, 0, 0, 0, 0, NULL};
	if (svg_prep_start(&prep, doc) == 0)
		r.svg = &prep;
	cmark_iter *it = cmark_iter_new(doc->root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (S_render_node(&r, n, ev) && ev == CMARK_EVENT_ENTER)
			cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
	}
	cmark_iter_free(it);
	svg_prep_end(&prep);
	return r.failed ? -1 : 0;
}

int rpt_html_render(const struct rpt_doc *doc, int unsafe, char **out, size_t *len,
                    struct calc_diag *d)
{
	struct buf b = {0};
	*out = NULL;
	*len = 0;
	put(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	        "<meta name=\"generator\" content=\"trainplan-report\">\n<title>");
	esc(&b, doc->title);
	put(&b, "</title>\n<style>\n");
	put(&b, css);
	put(&b, "</style>\n</head>\n<body>\n");
	put(&b, "<header class=\"title\">\n<p class=\"report-title\">");
	esc_text(&b, doc->title);
	put(&b, "</p>\n");
	if (doc->subtitle && *doc->subtitle) {
		put(&b, "<p class=\"subtitle\">");
		esc_text(&b, doc->subtitle);
		put(&b, "</p>\n");
	}
	if (doc->date && *doc->date) {
		put(&b, "<p class=\"date\">");
		esc(&b, doc->date);
		put(&b, "</p>\n");
	}
	put(&b, "</header>\n");
	render_toc(&b, doc);
	put(&b, "<main>\n");
	int rc = render_body(&b, doc, unsafe, d);
	put(&b, "</main>\n</body>\n</html>\n");
	if (rc < 0) {
		free(b.s);
		return -1;
	}
	*out = b.s;
	*len = b.len;
	return 0;
}
