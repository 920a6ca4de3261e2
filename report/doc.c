/*
 * doc.c -- load the chapters into one document: parse, expand, number, resolve.
 *
 * The pipeline of cmark (parse -> transform -> render), with the transform in three
 * steps: expand.c replaces directives; this file numbers sections ("4.2"), figures and
 * tables in document order, gives every heading a unique id, and turns links to "#ID"
 * into cross-references whose text reads "§4.2", "Figure 3" or "Table 2".  The contract
 * the renderers rely on is stated in report.h.
 *
 * Chapter conventions:
 *  - Each chapter file starts with its level-1 heading; chapters are numbered 1, 2, ...
 *    in the order of the files given (the Makefile passes them sorted by name).
 *  - A heading may end with "{#id}" to fix its anchor, or "{-}" to stay unnumbered.
 *  - A table written in GFM is numbered like a calc table; a paragraph right after it
 *    starting with "Table: " is its caption (and may end with "{#id}").
 *  - "[](#ID)" is a cross-reference: the empty text is filled with the target's label;
 *    a link with text keeps its text.  A "#ID" that names nothing is an error.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmark-gfm-core-extensions.h>

#include "report.h"
#include "../calc/files.h"
#include "../calc/format.h"

char *rpt_node_text(cmark_node *n); /* expand.c */

static cmark_llist *extensions;

cmark_llist *rpt_doc_extensions(void)
{
	if (!extensions) {
		cmark_gfm_core_extensions_ensure_registered();
		cmark_mem *mem = cmark_get_default_mem_allocator();
		const char *names[] = {"table", "strikethrough", "autolink"};
		for (int i = 0; i < 3; i++)
			extensions = cmark_llist_append(mem, extensions, cmark_find_syntax_extension(names[i]));
	}
	return extensions;
}

/* A chapter is tens of kB; reading stops here so that /dev/zero or an endless pipe
 * ends instead of filling the memory. */
#define CHAPTER_MAX_BYTES (16 << 20)

char *rpt_read_chapter(const char *path, struct calc_diag *d)
{
	char why[128];
	FILE *f = calc_file_open(path, "rb", why, sizeof why);
	if (!f) {
		calc_error(d, path, 0, "cannot read: %s", why);
		return NULL;
	}
	size_t cap = 8192, len = 0, r;
	char *buf = xmalloc(cap);
	while ((r = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += r;
		if (len > CHAPTER_MAX_BYTES) {
			fclose(f);
			free(buf);
			calc_error(d, path, 0, "more than %d bytes: not a chapter", CHAPTER_MAX_BYTES);
			return NULL;
		}
		if (cap - len < 2)
			buf = xrealloc(buf, cap *= 2);
	}
	int err = ferror(f);
	fclose(f);
	if (err) {
		free(buf);
		calc_error(d, path, 0, "cannot read: %s", strerror(errno));
		return NULL;
	}
	buf[len] = 0;
	int nul;
	long bad = calc_text_check(buf, len, &nul);
	if (bad >= 0) {
		int line = 1;
		long bol = 0;
		for (long i = 0; i < bad; i++)
			if (buf[i] == '\n')
				line++, bol = i + 1;
		if (nul)
			calc_error_at(d, path, line, (int)(bad - bol) + 1, CALC_ERROR,
			              "a NUL byte: a chapter is text");
		else
			calc_error_at(d, path, line, (int)(bad - bol) + 1, CALC_ERROR,
			              "byte 0x%02X is not UTF-8: a chapter is UTF-8 text",
			              (unsigned char)buf[bad]);
		free(buf);
		return NULL;
	}
	return buf;
}

/* Parse one chapter with the GFM extensions. */
static cmark_node *parse_text(const char *text)
{
	cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT | CMARK_OPT_SMART);
	for (cmark_llist *e = rpt_doc_extensions(); e; e = e->next)
		cmark_parser_attach_syntax_extension(p, (cmark_syntax_extension *)e->data);
	cmark_parser_feed(p, text, strlen(text));
	cmark_node *root = cmark_parser_finish(p);
	cmark_parser_free(p);
	return root;
}

/* Deepest nesting of nodes (block quotes, lists, emphasis ...) a chapter may have: the
 * PDF layout recurses once per level, and 20,000 nested quotes overflowed its stack. */
#define MAX_DEPTH 64

/* Refuse a chapter nested deeper than MAX_DEPTH.  Returns 0, or -1 after a diagnostic
 * at the first node too deep. */
static int check_depth(cmark_node *root, const char *file, struct calc_diag *d)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	int depth = -1, rc = 0; /* the document itself is level 0 */
	while (rc == 0 && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		/* a node with children is entered and exited; leaves are only entered */
		if (!cmark_node_first_child(n))
			continue;
		if (ev == CMARK_EVENT_EXIT)
			depth--;
		else if (++depth > MAX_DEPTH) {
			struct rpt_loc at;
			rpt_node_loc(n, file, &at);
			rc = rpt_error(d, CALC_M_DOCUMENT, &at, "nested more than %d levels deep (block quotes, lists, emphasis)",
			               MAX_DEPTH);
		}
	}
	cmark_iter_free(it);
	return rc;
}

/* ======================================================================== */
/* Ids and attributes                                                        */
/* ======================================================================== */

/* Anchor id from text: lower-case letters and digits, runs of anything else as '-'. */
static void slugify(const char *text, char *out, size_t n)
{
	size_t o = 0;
	int dash = 0;
	for (const unsigned char *p = (const unsigned char *)text; *p && o + 2 < n; p++) {
		if (isalnum(*p)) {
			if (dash && o > 0)
				out[o++] = '-';
			dash = 0;
			out[o++] = (char)tolower(*p);
		} else if (*p < 0x80) {
			dash = 1;
		}
		/* bytes of non-ASCII characters are dropped */
	}
	out[o] = 0;
	if (!o)
		snprintf(out, n, "section");
}

/*
 * Strip a trailing attribute "{#id}" or "{-}" from the last text node of 'n'.
 * Sets id (or leaves it empty) and *unnumbered.  An id that does not fit in idn bytes
 * is not cut: id stays empty and *toolong is its length [B].
 */
static void take_attributes(cmark_node *n, char *id, size_t idn, int *unnumbered, size_t *toolong)
{
	id[0] = 0;
	*unnumbered = 0;
	*toolong = 0;
	cmark_node *last = cmark_node_last_child(n);
	if (!last || cmark_node_get_type(last) != CMARK_NODE_TEXT)
		return;
	const char *lit = cmark_node_get_literal(last);
	size_t len = strlen(lit);
	while (len > 0 && lit[len - 1] == ' ')
		len--;
	if (len < 3 || lit[len - 1] != '}')
		return;
	const char *open = NULL;
	for (size_t i = len; i-- > 0;)
		if (lit[i] == '{') {
			open = lit + i;
			break;
		}
	if (!open)
		return;
	size_t alen = (size_t)(lit + len - open); /* "{...}" */
	if (alen == 3 && open[1] == '-')
		*unnumbered = 1;
	else if (open[1] == '#' && alen > 3) {
		for (const char *p = open + 2; p < lit + len - 1; p++)
			if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
				return; /* not an attribute: leave the text alone */
		if (alen - 3 >= idn)
			*toolong = alen - 3;
		else
			snprintf(id, idn, "%.*s", (int)(alen - 3), open + 2);
	} else
		return;
	char *keep = xstrdup(lit);
	size_t k = (size_t)(open - lit);
	while (k > 0 && keep[k - 1] == ' ')
		k--;
	keep[k] = 0;
	cmark_node_set_literal(last, keep);
	free(keep);
}

/* ======================================================================== */
/* Numbering                                                                 */
/* ======================================================================== */

struct chapter {
	const char *file;
	cmark_node *root;
	struct rpt_srcmap map; /* positions after the conditional blocks were cut */
};

/* The id table used to make ids unique and to resolve cross-references: the targets in
 * document order and an open-addressing hash of their ids, so that registering n ids,
 * however many share a text, takes time linear in n. */
struct target {
	const char *id;
	char label[48];
	int next_suffix; /* the next k to try for "ID-k" when this id comes again */
};

struct numbering {
	struct rpt_doc *doc;
	struct target *targets;
	int ntargets, captargets;
	struct calc_diag *d;
	int *slots;   /* index into targets + 1, 0 for an empty slot */
	size_t nslots; /* a power of two, at least twice ntargets */
};

static size_t id_hash(const char *s)
{
	size_t h = 2166136261u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The slot that holds id, or the empty slot where it would go. */
static int *id_slot(struct numbering *nb, const char *id)
{
	size_t mask = nb->nslots - 1;
	for (size_t i = id_hash(id) & mask;; i = (i + 1) & mask)
		if (!nb->slots[i] || !strcmp(nb->targets[nb->slots[i] - 1].id, id))
			return &nb->slots[i];
}

static struct target *find_target(struct numbering *nb, const char *id)
{
	if (!nb->nslots)
		return NULL;
	int *slot = id_slot(nb, id);
	return *slot ? &nb->targets[*slot - 1] : NULL;
}

/* Register id (making it unique with -2, -3, ... when 'unique'); returns 0 or -1 on a
 * duplicate explicit id. */
static int add_target(struct numbering *nb, char *id, size_t idn, const char *label, int unique,
                      const struct rpt_loc *loc)
{
	struct target *dup = find_target(nb, id);
	if (dup) {
		if (!unique)
			return rpt_error(nb->d, CALC_M_DOCUMENT, loc, "id '%s' is used twice", id);
		char base[96];
		snprintf(base, sizeof base, "%s", id);
		/* the base remembers the suffixes it gave, so that the k-th repeat costs O(1) */
		int k = dup->next_suffix > 2 ? dup->next_suffix : 2;
		for (;; k++) {
			snprintf(id, idn, "%.80s-%d", base, k);
			if (!find_target(nb, id))
				break;
		}
		dup->next_suffix = k + 1;
	}
	if (nb->ntargets == nb->captargets) {
		nb->captargets = nb->captargets ? nb->captargets * 2 : 64;
		nb->targets = xrealloc(nb->targets, (size_t)nb->captargets * sizeof *nb->targets);
	}
	if (2 * ((size_t)nb->ntargets + 1) > nb->nslots) {
		size_t n = nb->nslots ? nb->nslots * 2 : 128;
		free(nb->slots);
		nb->slots = xcalloc(n, sizeof *nb->slots);
		nb->nslots = n;
		for (int i = 0; i < nb->ntargets; i++)
			*id_slot(nb, nb->targets[i].id) = i + 1;
	}
	struct target *t = &nb->targets[nb->ntargets];
	t->id = id;
	t->next_suffix = 0;
	snprintf(t->label, sizeof t->label, "%s", label);
	nb->ntargets++;
	*id_slot(nb, id) = nb->ntargets;
	return 0;
}

/* At most max bytes of text into out (n > max), cut before a character, never inside one. */
static void utf8_prefix(char *out, size_t n, const char *text, size_t max)
{
	size_t len = strlen(text);
	if (len > max) {
		len = max;
		while (len > 0 && ((unsigned char)text[len] & 0xC0) == 0x80)
			len--; /* text[len] continues a character: cut before its first byte */
	}
	if (len >= n)
		len = n - 1;
	memcpy(out, text, len);
	out[len] = 0;
}

/* The cells of one table in a report (rows x columns, the header row included). */
#define RPT_TABLE_MAX_CELLS 20000

static int is_table(cmark_node *n) { return cmark_node_get_type(n) == CMARK_NODE_TABLE; }

static int is_figure_image(cmark_node *n)
{
	if (cmark_node_get_type(n) != CMARK_NODE_IMAGE)
		return 0;
	struct rpt_pending *pd = cmark_node_get_user_data(n);
	return pd && pd->kind == 'f';
}

/* A written table: numeric columns are those whose body cells all read as numbers. */
static void written_table_info(cmark_node *tab, struct rpt_table *t)
{
	int ncols = cmark_gfm_extensions_get_table_columns(tab);
	t->ncols = ncols;
	t->numeric_cols = xcalloc((size_t)(ncols > 0 ? ncols : 1), sizeof(int));
	int *seen = xcalloc((size_t)(ncols > 0 ? ncols : 1), sizeof(int));
	for (int c = 0; c < ncols; c++)
		t->numeric_cols[c] = 1;
	for (cmark_node *row = cmark_node_first_child(tab); row; row = cmark_node_next(row)) {
		if (cmark_gfm_extensions_get_table_row_is_header(row))
			continue;
		int c = 0;
		for (cmark_node *cell = cmark_node_first_child(row); cell && c < ncols;
		     cell = cmark_node_next(cell), c++) {
			char *s = rpt_node_text(cell);
			char *p = s;
			while (*p == ' ')
				p++;
			if (!*p) {
				free(s);
				continue;
			}
			seen[c] = 1;
			/* "1,024", "12.5%", "2.50×": digits with separators and a unit sign */
			char num[64];
			size_t k = 0;
			for (; *p && k + 1 < sizeof num; p++)
				if (*p != ',')
					num[k++] = *p;
			num[k] = 0;
			while (k > 0 && (num[k - 1] == ' ' || num[k - 1] == '%'))
				num[--k] = 0;
			if (k >= 2 && !strcmp(num + k - 2, "\xc3\x97"))
				num[k -= 2] = 0;
			char *end;
			strtod(num, &end);
			if (end == num || *end)
				t->numeric_cols[c] = 0;
			free(s);
		}
	}
	for (int c = 0; c < ncols; c++)
		if (!seen[c])
			t->numeric_cols[c] = 0;
	free(seen);
}

static int number_document(struct numbering *nb, struct chapter *ch, int nch)
{
	struct rpt_doc *doc = nb->doc;
	int nh = 0, nf = 0, nt = 0, rc = 0;
	/* Count. */
	for (int i = 0; i < nch; i++) {
		cmark_iter *it = cmark_iter_new(ch[i].root);
		cmark_event_type ev;
		while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
			cmark_node *n = cmark_iter_get_node(it);
			if (ev != CMARK_EVENT_ENTER)
				continue;
			nh += cmark_node_get_type(n) == CMARK_NODE_HEADING;
			nf += is_figure_image(n);
			nt += is_table(n);
		}
		cmark_iter_free(it);
	}
	doc->headings = xcalloc((size_t)nh + 1, sizeof *doc->headings);
	doc->figures = xcalloc((size_t)nf + 1, sizeof *doc->figures);
	doc->tables = xcalloc((size_t)nt + 1, sizeof *doc->tables);
	/* Number in document order. */
	int counts[6] = {0};
	for (int i = 0; i < nch; i++) {
		rpt_srcmap_use(&ch[i].map);
		cmark_iter *it = cmark_iter_new(ch[i].root);
		cmark_event_type ev;
		cmark_node *n;
		/* Caption paragraphs of written tables are removed after the walk. */
		cmark_node **drop = NULL;
		int ndrop = 0;
		while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
			n = cmark_iter_get_node(it);
			if (ev != CMARK_EVENT_ENTER)
				continue;
			/* the source position of the headings, figures and tables alone, which
			 * their targets and messages name (13,658 nodes looked up, 401 used) */
			int heading = cmark_node_get_type(n) == CMARK_NODE_HEADING, figure = 0;
			if (!heading && !(figure = is_figure_image(n)) && !is_table(n))
				continue;
			struct rpt_loc loc;
			rpt_node_loc(n, ch[i].file, &loc);
			if (heading) {
				struct rpt_heading *h = &doc->headings[doc->nheadings++];
				int unnumbered;
				h->level = cmark_node_get_heading_level(n);
				h->node = n;
				size_t toolong;
				take_attributes(n, h->id, sizeof h->id, &unnumbered, &toolong);
				if (toolong)
					rc = rpt_error(nb->d, CALC_M_DOCUMENT, &loc, "an id of %zu bytes: at most %zu", toolong,
					               sizeof h->id - 1);
				h->text = rpt_node_text(n);
				if (!unnumbered) {
					int L = h->level;
					counts[L - 1]++;
					for (int k = L; k < 6; k++)
						counts[k] = 0;
					char num[6 * 12];
					size_t o = 0;
					for (int k = 0; k < L; k++)
						o += (size_t)snprintf(num + o, sizeof num - o, "%s%d", k ? "." : "",
						                      counts[k]);
					if (o >= sizeof h->number)
						rc = rpt_error(nb->d, CALC_M_DOCUMENT, &loc,
						               "section number %s is longer than %zu bytes: split the "
						               "chapter or mark headings unnumbered with {-}",
						               num, sizeof h->number - 1);
					else
						memcpy(h->number, num, o + 1);
				}
				int explicit_id = h->id[0] != 0;
				if (!explicit_id)
					slugify(h->text, h->id, sizeof h->id);
				char label[48];
				if (h->number[0])
					snprintf(label, sizeof label, "\xc2\xa7%s", h->number); /* § */
				else
					utf8_prefix(label, sizeof label, h->text, 40);
				if (add_target(nb, h->id, sizeof h->id, label, !explicit_id, &loc) < 0)
					rc = -1;
				cmark_node_set_user_data(n, h);
			} else if (figure) {
				struct rpt_pending *pd = cmark_node_get_user_data(n);
				struct rpt_figure *f = &doc->figures[doc->nfigures++];
				f->number = doc->nfigures;
				snprintf(f->id, sizeof f->id, "%s", pd->id);
				snprintf(f->name, sizeof f->name, "%s", pd->name);
				f->caption = pd->caption;
				char p[CALC_PATH_MAX * 2];
				snprintf(p, sizeof p, "%s/figures/%s.svg", doc->out_dir, f->name);
				f->svg_path = xstrdup(p);
				snprintf(p, sizeof p, "%s/figures/%s.png", doc->out_dir, f->name);
				f->png_path = xstrdup(p);
				f->node = n;
				free(pd->numeric_cols);
				free(pd);
				cmark_node_set_user_data(n, f);
				char label[48];
				snprintf(label, sizeof label, "Figure %d", f->number);
				if (add_target(nb, f->id, sizeof f->id, label, 0, &loc) < 0)
					rc = -1;
			} else { /* a table */
				struct rpt_pending *pd = cmark_node_get_user_data(n);
				struct rpt_table *t = &doc->tables[doc->ntables++];
				t->number = doc->ntables;
				t->node = n;
				/* the PDF lays a table out whole, about 5 kB a cell (a 1.5 MB table of
				 * 100,000 cells took 555 MB): its size is checked before any layout */
				long cells = 0;
				for (cmark_node *row = cmark_node_first_child(n); row; row = cmark_node_next(row))
					for (cmark_node *c = cmark_node_first_child(row); c; c = cmark_node_next(c))
						cells++;
				if (cells > RPT_TABLE_MAX_CELLS)
					rc = rpt_error(nb->d, CALC_M_DOCUMENT, &loc, "a table of %ld cells: at most %d (a longer one belongs in "
					               "a CSV file)", cells, RPT_TABLE_MAX_CELLS);
				int explicit_id = 1;
				if (pd) {
					snprintf(t->id, sizeof t->id, "%s", pd->id);
					t->caption = pd->caption;
					t->csv_path = pd->csv_path;
					t->numeric_cols = pd->numeric_cols;
					t->ncols = pd->ncols;
					t->note = pd->note;
					free(pd);
				} else {
					written_table_info(n, t);
					cmark_node *next = cmark_node_next(n);
					char *cap = NULL;
					if (next && cmark_node_get_type(next) == CMARK_NODE_PARAGRAPH) {
						cmark_node *first = cmark_node_first_child(next);
						const char *lit = first ? cmark_node_get_literal(first) : NULL;
						if (first && cmark_node_get_type(first) == CMARK_NODE_TEXT && lit &&
						    !strncmp(lit, "Table: ", 7)) {
							int un;
							size_t toolong;
							take_attributes(next, t->id, sizeof t->id, &un, &toolong);
							if (toolong)
								rc = rpt_error(nb->d, CALC_M_DOCUMENT, &loc, "an id of %zu bytes: at most %zu",
								               toolong, sizeof t->id - 1);
							cap = rpt_node_text(next);
							/* "Table: {#id}" is "Table:" once the id is taken: shorter
							 * than the 7 bytes of "Table: " */
							size_t cl = strlen(cap), skip = cl < 7 ? cl : 7;
							memmove(cap, cap + skip, cl - skip + 1);
							drop = xrealloc(drop, sizeof *drop * (size_t)(ndrop + 1));
							drop[ndrop++] = next;
						}
					}
					t->caption = cap ? cap : xstrdup("");
					if (!t->id[0]) {
						snprintf(t->id, sizeof t->id, "tab-%d", t->number);
						explicit_id = 0;
					}
				}
				cmark_node_set_user_data(n, t);
				char label[48];
				snprintf(label, sizeof label, "Table %d", t->number);
				if (add_target(nb, t->id, sizeof t->id, label, !explicit_id, &loc) < 0)
					rc = -1;
			}
		}
		cmark_iter_free(it);
		for (int k = 0; k < ndrop; k++)
			cmark_node_free(drop[k]);
		free(drop);
	}
	return rc;
}

/* Fill and check cross-references of one chapter. */
static int resolve_links(struct numbering *nb, struct chapter *ch)
{
	int rc = 0;
	cmark_iter *it = cmark_iter_new(ch->root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_LINK)
			continue;
		const char *url = cmark_node_get_url(n);
		if (!url || url[0] != '#')
			continue;
		struct rpt_loc loc;
		rpt_node_loc(n, ch->file, &loc);
		struct target *t = find_target(nb, url + 1);
		if (!t) {
			rc = rpt_error(nb->d, CALC_M_DOCUMENT, &loc, "cross-reference to '%s', which names no section, figure or table", url);
			continue;
		}
		if (!cmark_node_first_child(n)) {
			cmark_node *txt = cmark_node_new(CMARK_NODE_TEXT);
			cmark_node_set_literal(txt, t->label);
			cmark_node_append_child(n, txt);
		}
	}
	cmark_iter_free(it);
	return rc;
}

/* ======================================================================== */
/* The document                                                              */
/* ======================================================================== */

static void doc_dates(struct rpt_doc *doc, const struct calc_plan *plan)
{
	char buf[32];
	if (plan && plan->date[0]) {
		doc->date = xstrdup(plan->date);
		return;
	}
	time_t t = time(NULL);
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	if (sde && *sde)
		t = (time_t)strtoll(sde, NULL, 10);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
	doc->date = xstrdup(buf);
}

static void doc_titles(struct rpt_doc *doc, const struct calc_plan *plan)
{
	char buf[512];
	doc->title = xstrdup(plan && plan->title[0] ? plan->title : "Training plan");
	if (!plan) {
		doc->subtitle = xstrdup("");
		return;
	}
	char cp[32] = "", gpus[32];
	/* the GPU count grouped as every number of the report (docs/references.md §9.20):
	 * 16,384, not 16384 */
	calc_fmt_fixed(calc_plan_gpus(plan), 0, CALC_SEP_LONG, gpus, sizeof gpus);
	if (plan->cp > 1)
		snprintf(cp, sizeof cp, " \xc2\xb7 CP %d", plan->cp);
	snprintf(buf, sizeof buf,
	         "%s on %s \xc3\x97 %s \xc2\xb7 TP %d \xc2\xb7 PP %d \xc2\xb7 DP %d%s \xc2\xb7 recipe %s",
	         plan->model.name, gpus, plan->gpu.name, plan->tp, plan->pp, plan->dp,
	         cp, plan->recipe_name);
	doc->subtitle = xstrdup(buf);
}

/* The chapter a pass of expand_all takes next: the first not expanded yet whose jobs on
 * the pool have all run (or that waits for none); the first not expanded when none is
 * ready.  'order' 0: the first not expanded. */
static int next_chapter(const int *done, const struct rpt_needs *needs, int n, int order)
{
	int first = -1;
	for (int i = 0; i < n; i++) {
		if (done[i])
			continue;
		if (first < 0)
			first = i;
		if (!order)
			break;
		int ready = 1;
		for (int k = 0; k < needs[i].n && ready; k++)
			ready = calc_pool_done(needs[i].job[k]);
		if (ready)
			return i;
	}
	return first;
}

/* Apply the conditions of every chapter and expand its directives into ch[i] (rd[i]: its
 * read errors), on one context of 'plan'.  With the pool's threads, their jobs are
 * queued first, and with 'reorder' a chapter whose jobs are still running waits while
 * the chapters after it that are ready go first, so that this thread expands what it
 * can while the others compute.  The expansion of a chapter does not depend on the ones
 * before it, so the order changes nothing in its tree, and its messages and table files
 * are collected per chapter and passed on in chapter order -- but a quantity that
 * fails says so in full only where it is first asked for, so after an error in an
 * order other than the chapters' the caller expands again in order.  Returns 0; -1
 * after errors; 2 after errors when the order was another (nothing added to 'd'). */
static int expand_all(struct chapter *ch, const char *const *files, const char *const *texts,
                      const struct calc_diag *rd, int nfiles, const struct calc_plan *plan,
                      const struct rpt_opts *o, struct calc_diag *d, int reorder)
{
	struct calc_ctx *ctx = xmalloc(sizeof *ctx);
	struct rpt_needs *needs = xcalloc((size_t)nfiles + 1, sizeof *needs);
	struct calc_diag *cd = xcalloc((size_t)nfiles + 1, sizeof *cd);
	struct rpt_outputs *later = xcalloc((size_t)nfiles + 1, sizeof *later);
	int *done = xcalloc((size_t)nfiles + 1, sizeof *done), rc = 0, moved = 0;

	calc_ctx_init(ctx, plan);
	if (calc_pool_start() > 0) {
		struct rpt_scope sc = {ctx, NULL, NULL};
		rpt_chapters_prefetch(texts, nfiles, &sc, reorder ? needs : NULL);
		calc_pool_go();
	}
	for (int n = 0; n < nfiles; n++) {
		int i = next_chapter(done, needs, nfiles, reorder);
		struct rpt_opts oc = {0};
		if (o) {
			oc = *o;
			if (o->later)
				oc.later = &later[i];
		}
		moved |= i != n;
		done[i] = 1;
		calc_diag_append(&cd[i], &rd[i]);
		ch[i].file = files[i];
		char *kept = NULL;
		struct rpt_scope sc = {ctx, NULL, NULL};
		int cut = texts[i] ? rpt_cond_apply(files[i], texts[i], &sc, &kept, &ch[i].map, &cd[i]) : -1;
		ch[i].root = parse_text(kept ? kept : "");
		free(kept);
		if (cut < 0) {
			rc = -1;
			continue;
		}
		rpt_srcmap_use(&ch[i].map);
		if (check_depth(ch[i].root, files[i], &cd[i]) < 0 ||
		    rpt_expand(ch[i].root, files[i], ctx, o ? &oc : NULL, &cd[i]) < 0)
			rc = -1;
	}
	rpt_srcmap_use(NULL);
	calc_pool_stop(); /* the jobs refer to ctx */
	calc_ctx_free(ctx);
	free(ctx);
	for (int i = 0; i < nfiles; i++)
		if (cd[i].nerrors)
			rc = -1;
	if (rc < 0 && moved)
		rc = 2;
	for (int i = 0; i < nfiles; i++) {
		if (rc != 2)
			calc_diag_append(d, &cd[i]);
		calc_diag_free(&cd[i]);
		if (o && o->later && rc != 2)
			for (int k = 0; k < later[i].n; k++) {
				o->later->v = xrealloc(o->later->v, sizeof *o->later->v * (size_t)(o->later->n + 1));
				o->later->v[o->later->n++] = later[i].v[k];
			}
		else
			rpt_outputs_free(&later[i]);
		if (rc != 2)
			free(later[i].v);
		free(needs[i].job);
	}
	free(needs);
	free(cd);
	free(later);
	free(done);
	return rc;
}

int rpt_doc_load(struct rpt_doc *doc, const char *const *files, int nfiles,
                 const struct calc_plan *plan, const struct rpt_opts *o, struct calc_diag *d)
{
	memset(doc, 0, sizeof *doc);
	doc->plan = plan;
	doc->out_dir = xstrdup(o && o->out_dir ? o->out_dir : "output");
	doc_titles(doc, plan);
	doc->plan_line = 1;
	if (o && o->subtitle) {
		free(doc->subtitle);
		doc->subtitle = xstrdup(o->subtitle);
		doc->plan_line = 0;
	}
	doc_dates(doc, plan);
	doc->svgs = o ? o->svgs : NULL;
	struct chapter *ch = xcalloc((size_t)nfiles + 1, sizeof *ch);
	/* Every chapter is read first, so that the searches and the validation rows its
	 * directives ask for start on the pool's threads (calc_threads_get) while the expansion
	 * goes on here; a chapter's read errors are reported in its turn. */
	char **texts = xcalloc((size_t)nfiles + 1, sizeof *texts);
	struct calc_diag *rd = xcalloc((size_t)nfiles + 1, sizeof *rd);
	for (int i = 0; i < nfiles; i++)
		texts[i] = rpt_read_chapter(files[i], &rd[i]);
	int rc = expand_all(ch, files, (const char *const *)texts, rd, nfiles, plan, o, d, 1);
	if (rc == 2) { /* an error after expanding out of order: again in order, for its messages */
		for (int i = 0; i < nfiles; i++) {
			cmark_node_free(ch[i].root);
			rpt_srcmap_free(&ch[i].map);
		}
		memset(ch, 0, (size_t)nfiles * sizeof *ch);
		if (o && o->later)
			rpt_outputs_free(o->later);
		rc = expand_all(ch, files, (const char *const *)texts, rd, nfiles, plan, o, d, 0);
	}
	for (int i = 0; i < nfiles; i++) {
		free(texts[i]);
		calc_diag_free(&rd[i]);
	}
	free(texts);
	free(rd);
	struct numbering nb = {doc, NULL, 0, 0, d, NULL, 0};
	if (number_document(&nb, ch, nfiles) < 0)
		rc = -1;
	for (int i = 0; i < nfiles; i++) {
		rpt_srcmap_use(&ch[i].map);
		if (resolve_links(&nb, &ch[i]) < 0)
			rc = -1;
	}
	rpt_srcmap_use(NULL);
	for (int i = 0; i < nfiles; i++)
		rpt_srcmap_free(&ch[i].map);
	free(nb.targets);
	free(nb.slots);
	/* One document: the chapters' blocks in order under the first root. */
	doc->root = nfiles > 0 ? ch[0].root : cmark_node_new(CMARK_NODE_DOCUMENT);
	for (int i = 1; i < nfiles; i++) {
		cmark_node *c;
		while ((c = cmark_node_first_child(ch[i].root))) {
			cmark_node_unlink(c);
			cmark_node_append_child(doc->root, c);
		}
		cmark_node_free(ch[i].root);
	}
	free(ch);
	return rc;
}

void rpt_doc_free(struct rpt_doc *doc)
{
	if (!doc)
		return;
	/* Pending structs of figures/tables that were never numbered (errors) leak no
	 * memory worth the walk: numbering runs on every load. */
	if (doc->root)
		cmark_node_free(doc->root);
	for (int i = 0; i < doc->nheadings; i++)
		free(doc->headings[i].text);
	for (int i = 0; i < doc->nfigures; i++) {
		free(doc->figures[i].caption);
		free(doc->figures[i].svg_path);
		free(doc->figures[i].png_path);
	}
	for (int i = 0; i < doc->ntables; i++) {
		free(doc->tables[i].caption);
		free(doc->tables[i].csv_path);
		free(doc->tables[i].numeric_cols);
		free(doc->tables[i].note);
	}
	free(doc->headings);
	free(doc->figures);
	free(doc->tables);
	free(doc->title);
	free(doc->subtitle);
	free(doc->date);
	free(doc->out_dir);
	memset(doc, 0, sizeof *doc);
}
