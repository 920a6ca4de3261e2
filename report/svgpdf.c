/*
 * svgpdf.c -- draws a figure's SVG into a PDF page as vectors (rpt_svg_pdf).
 *
 * The figures are written by gnuplot's svg terminal (figures/style.gp), the same file
 * the HTML report inlines, so the PDF needs no second rendering and stays sharp at any
 * zoom.  This is not a general SVG renderer: it reads the subset that terminal writes
 * (gnuplot 5.4, term/svg.trm) -- nested <g> with transform translate / rotate / scale
 * and the presentation attributes fill, stroke, color (for currentColor),
 * stroke-width, stroke-dasharray, fill-opacity, font-size and text-anchor; <path>
 * with the commands M L H V Z (and their relative forms); <polygon>, <rect>,
 * <circle>; <use> of the point symbols in <defs>; <text> with plain character data
 * and the five XML entities plus numeric references (XML 1.0 section 4.6).
 * Filters, titles and descriptions are skipped.  Element and attribute names follow
 * SVG 1.1 (W3C Recommendation 2011), chapters 5 (structure), 7 (transforms), 8
 * (paths), 9 (shapes), 10 (text) and 11 (painting).
 *
 * It also holds the page operators that the figures and the page text (pdf.c) write
 * directly rather than through libharu's calls (rpt_page_point, rpt_page_rgb,
 * rpt_page_concat; PDF 32000-1:2008 sections 8.4.4 cm, 8.5.2 m l, 8.6.8 rg RG).
 *
 * Coordinates: the SVG's viewBox (or width and height) is mapped onto the box the
 * layout gave the figure by one transformation matrix with the y axis flipped
 * (PDF 32000-1:2008 section 8.3.4); text is drawn with the inverse flip in its text
 * matrix (section 9.4.2) so that glyphs stand upright.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hpdf.h>
#include <hpdf_utils.h>

#include "svgpdf.h"
#include "pdflib.h" /* last: its names stand for libharu's functions */

#define MAX_DEPTH 32
#define MAX_DEFS 64

/* The painting state of one <g> level. */
struct style {
	int has_fill, has_stroke; /* 0 none, 1 a colour, 2 currentColor */
	unsigned fill, stroke, color;
	double stroke_width;
	double dash[4];
	int ndash;
	double fill_opacity;
	double font_size;
	char anchor; /* 's' start, 'm' middle, 'e' end */
};

struct def {
	char id[32];
	const char *start; /* the element's text in the file buffer */
	size_t len;
};

struct svg {
	HPDF_Doc doc;
	HPDF_Page page;
	HPDF_Font font;
	struct style st[MAX_DEPTH];
	int depth;
	struct def defs[MAX_DEFS];
	int ndefs;
	HPDF_ExtGState alpha[8];
	double alpha_v[8];
	int nalpha;
	void (*mark)(void *ctx, const char *text); /* told each text drawn (rpt_svg_pdf) */
	void *mark_ctx;
};

/* ---- small parsers */

static const char *skip_ws(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

/*
 * A number as strtod reads it, faster for the plain decimals gnuplot writes
 * ("-12.34", "0.5"): up to 15 significant digits and 22 decimals without an exponent
 * are exact as an integer m and a power of ten 10^k, and m / 10^k is one IEEE 754
 * division, correctly rounded, which is what strtod returns (C11 7.22.1.3 with IEC
 * 60559: correctly rounded); anything else (an exponent, more digits, inf, hex) is
 * strtod's.  Sets *end like strtod.
 */
double rpt_svg_num(const char *p, char **end)
{
	static const double pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
	                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
	const char *q = p;
	while (isspace((unsigned char)*q))
		q++;
	int neg = *q == '-';
	if (*q == '-' || *q == '+')
		q++;
	unsigned long long m = 0;
	int digits = 0, frac = 0, any = 0;
	while (*q >= '0' && *q <= '9') {
		if (m || *q != '0')
			digits++;
		m = m * 10 + (unsigned)(*q++ - '0');
		any = 1;
		if (digits > 15)
			return strtod(p, end);
	}
	if (*q == '.') {
		q++;
		while (*q >= '0' && *q <= '9') {
			if (m || *q != '0')
				digits++;
			m = m * 10 + (unsigned)(*q++ - '0');
			frac++;
			any = 1;
			if (digits > 15 || frac > 22)
				return strtod(p, end);
		}
	}
	if (!any || *q == 'e' || *q == 'E' || *q == 'x' || *q == 'X')
		return strtod(p, end);
	if (end)
		*end = (char *)q;
	double v = (double)m / pow10[frac];
	return neg ? -v : v;
}

/* The attribute after 'p' in the tag text ending before 'e': its name [*name, +*nl)
 * and value [*val, +*vl), without the quotes; returns where the next one may start,
 * or NULL at the end of the tag.  Attributes are name = 'value' or name = "value",
 * spaces allowed around '=' (XML 1.0 section 3.1, productions Attribute and Eq); at
 * the tag's '<' the element's name is skipped first. */
static const char *attr_next(const char *p, const char *e, const char **name, size_t *nl,
                             const char **val, size_t *vl)
{
	if (p < e && *p == '<')
		while (p < e && *p != '>' && !isspace((unsigned char)*p))
			p++;
	while (p < e && isspace((unsigned char)*p))
		p++;
	const char *a = p;
	while (p < e && *p != '=' && *p != '/' && *p != '>' && !isspace((unsigned char)*p))
		p++;
	*name = a;
	*nl = (size_t)(p - a);
	while (p < e && isspace((unsigned char)*p))
		p++;
	if (p >= e || *p != '=' || *nl == 0)
		return NULL; /* the end of the tag, or not an attribute */
	p++;
	while (p < e && isspace((unsigned char)*p))
		p++;
	if (p >= e || (*p != '\'' && *p != '"'))
		return NULL;
	char quote = *p++;
	const char *end = memchr(p, quote, (size_t)(e - p));
	if (!end)
		return NULL;
	*val = p;
	*vl = (size_t)(end - p);
	return end + 1;
}

/* Whether the attribute name [a, +al) is 'name'. */
static int attr_is(const char *a, size_t al, const char *name)
{
	return strlen(name) == al && memcmp(a, name, al) == 0;
}

/* A value [v, +vl) into 'out' of 'n' bytes, cut to fit. */
static void attr_copy(const char *v, size_t vl, char *out, size_t n)
{
	size_t len = vl < n - 1 ? vl : n - 1;
	memcpy(out, v, len);
	out[len] = 0;
}

/* The value of attribute 'name' in the tag text [s, e) into 'out'; 1 if present.
 * The tag is read attribute by attribute (attr_next), each value skipped whole. */
static int attr(const char *s, const char *e, const char *name, char *out, size_t n)
{
	const char *a, *v;
	size_t al, vl;
	for (const char *p = s; (p = attr_next(p, e, &a, &al, &v, &vl));)
		if (attr_is(a, al, name)) {
			attr_copy(v, vl, out, n);
			return 1;
		}
	return 0;
}

static double attr_num(const char *s, const char *e, const char *name, double def)
{
	char v[64];
	return attr(s, e, name, v, sizeof v) ? rpt_svg_num(v, NULL) : def;
}

/* A colour: #rrggbb, #rgb, rgb(r, g, b) or a few names.  Returns 0 none, 1 a colour
 * in *rgb, 2 currentColor, -1 not understood (treated as black). */
static int parse_color(const char *v, unsigned *rgb)
{
	v = skip_ws(v);
	if (!strcmp(v, "none"))
		return 0;
	if (!strcmp(v, "currentColor"))
		return 2;
	if (*v == '#') {
		unsigned x = (unsigned)strtoul(v + 1, NULL, 16);
		if (strlen(v) == 4)
			x = ((x >> 8 & 15) * 17) << 16 | ((x >> 4 & 15) * 17) << 8 | (x & 15) * 17;
		*rgb = x & 0xffffff;
		return 1;
	}
	if (!strncmp(v, "rgb(", 4)) {
		char *e;
		long r = strtol(v + 4, &e, 10);
		e = (char *)skip_ws(e);
		long g = strtol(*e == ',' ? e + 1 : e, &e, 10);
		e = (char *)skip_ws(e);
		long b = strtol(*e == ',' ? e + 1 : e, &e, 10);
		*rgb = (unsigned)((r & 255) << 16 | (g & 255) << 8 | (b & 255));
		return 1;
	}
	static const struct {
		const char *name;
		unsigned rgb;
	} names[] = {{"black", 0x000000}, {"white", 0xffffff}, {"gray", 0x808080}, {"grey", 0x808080},
	             {"lightgrey", 0xd3d3d3}, {"lightgray", 0xd3d3d3}, {"red", 0xff0000}};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(v, names[i].name)) {
			*rgb = names[i].rgb;
			return 1;
		}
	*rgb = 0;
	return -1;
}

/* Apply the presentation attributes of the tag [s, e) to 'st', in one pass over its
 * attributes (each is independent of the others). */
static void apply_style(struct style *st, const char *s, const char *e)
{
	char v[128];
	unsigned c;
	int k;
	const char *a, *val;
	size_t al, vl;
	for (const char *p = s; (p = attr_next(p, e, &a, &al, &val, &vl));) {
		if (attr_is(a, al, "color")) {
			attr_copy(val, vl, v, sizeof v);
			if ((k = parse_color(v, &c)) == 1)
				st->color = c;
		} else if (attr_is(a, al, "fill")) {
			attr_copy(val, vl, v, sizeof v);
			k = parse_color(v, &c);
			st->has_fill = k < 0 ? 1 : k;
			if (k != 0 && k != 2)
				st->fill = c;
		} else if (attr_is(a, al, "stroke")) {
			attr_copy(val, vl, v, sizeof v);
			k = parse_color(v, &c);
			st->has_stroke = k < 0 ? 1 : k;
			if (k != 0 && k != 2)
				st->stroke = c;
		} else if (attr_is(a, al, "stroke-width")) {
			attr_copy(val, vl, v, 64);
			st->stroke_width = rpt_svg_num(v, NULL);
		} else if (attr_is(a, al, "fill-opacity")) {
			attr_copy(val, vl, v, 64);
			st->fill_opacity = rpt_svg_num(v, NULL);
		} else if (attr_is(a, al, "font-size")) {
			attr_copy(val, vl, v, 64);
			st->font_size = rpt_svg_num(v, NULL);
		} else if (attr_is(a, al, "stroke-dasharray")) {
			attr_copy(val, vl, v, sizeof v);
			st->ndash = 0;
			char *p = v;
			while (*p && st->ndash < 4) {
				char *q;
				double x = rpt_svg_num(p, &q);
				if (q == p)
					break;
				st->dash[st->ndash++] = x;
				p = q;
				while (*p == ',' || isspace((unsigned char)*p))
					p++;
			}
		} else if (attr_is(a, al, "text-anchor")) {
			attr_copy(val, vl, v, sizeof v);
			st->anchor = !strcmp(v, "end") ? 'e' : !strcmp(v, "middle") ? 'm' : 's';
		}
	}
}

/* Concatenate the transform list of the tag [s, e) onto the current matrix. */
static void apply_transform(struct svg *g, const char *s, const char *e)
{
	char v[256];
	if (!attr(s, e, "transform", v, sizeof v))
		return;
	const char *p = v;
	while (*(p = skip_ws(p))) {
		double a[6] = {0};
		int n = 0;
		const char *open = strchr(p, '(');
		if (!open)
			break;
		const char *q = open + 1;
		while (n < 6) {
			char *end;
			q = skip_ws(q);
			if (*q == ',')
				q++;
			double x = rpt_svg_num(q, &end);
			if (end == q)
				break;
			a[n++] = x;
			q = end;
		}
		const char *close = strchr(q, ')');
		if (!strncmp(p, "translate", 9))
			rpt_page_concat(g->page, 1, 0, 0, 1, (HPDF_REAL)a[0], (HPDF_REAL)(n > 1 ? a[1] : 0));
		else if (!strncmp(p, "scale", 5))
			rpt_page_concat(g->page, (HPDF_REAL)a[0], 0, 0, (HPDF_REAL)(n > 1 ? a[1] : a[0]), 0, 0);
		else if (!strncmp(p, "rotate", 6)) {
			double r = a[0] * M_PI / 180;
			rpt_page_concat(g->page, (HPDF_REAL)cos(r), (HPDF_REAL)sin(r), (HPDF_REAL)-sin(r),
			                 (HPDF_REAL)cos(r), 0, 0);
		} else if (!strncmp(p, "matrix", 6) && n == 6)
			rpt_page_concat(g->page, (HPDF_REAL)a[0], (HPDF_REAL)a[1], (HPDF_REAL)a[2], (HPDF_REAL)a[3],
			                 (HPDF_REAL)a[4], (HPDF_REAL)a[5]);
		if (!close)
			break;
		p = close + 1;
	}
}

static void set_rgb_fill(struct svg *g, unsigned c)
{
	rpt_page_rgb(g->page, (c >> 16 & 255) / 255.0f, (c >> 8 & 255) / 255.0f, (c & 255) / 255.0f, 0);
}

static void set_alpha(struct svg *g, double a)
{
	if (a > 0.999)
		a = 1;
	for (int i = 0; i < g->nalpha; i++)
		if (g->alpha_v[i] == a) {
			HPDF_Page_SetExtGState(g->page, g->alpha[i]);
			return;
		}
	if (g->nalpha == 8)
		return;
	HPDF_ExtGState gs = HPDF_CreateExtGState(g->doc);
	if (!gs)
		return;
	HPDF_ExtGState_SetAlphaFill(gs, (HPDF_REAL)a);
	g->alpha[g->nalpha] = gs;
	g->alpha_v[g->nalpha++] = a;
	HPDF_Page_SetExtGState(g->page, gs);
}

/* Set the colours, width, dashes and opacity the style paints with.  PDF allows these
 * only outside a path object (PDF 32000-1:2008 section 8.2, Figure 9), so they are set
 * before the path is built and paint() only ends it. */
static void prepare(struct svg *g, const struct style *st)
{
	int f = st->has_fill, s = st->has_stroke && st->stroke_width > 0;
	if (f) {
		set_rgb_fill(g, f == 2 ? st->color : st->fill);
		set_alpha(g, st->fill_opacity);
	}
	if (s) {
		unsigned c = st->has_stroke == 2 ? st->color : st->stroke;
		rpt_page_rgb(g->page, (c >> 16 & 255) / 255.0f, (c >> 8 & 255) / 255.0f,
		             (c & 255) / 255.0f, 1);
		rpt_page_linewidth(g->page, (HPDF_REAL)st->stroke_width);
		/* libharu 2.3 takes whole-number dash lengths: gnuplot's are rounded to
		 * the nearest (at least 1) SVG unit, which keeps the pattern's rhythm */
		if (st->ndash >= 2) {
			HPDF_UINT16 di[4];
			for (int i = 0; i < st->ndash; i++)
				di[i] = (HPDF_UINT16)(st->dash[i] + 0.5 < 1 ? 1 : st->dash[i] + 0.5);
			rpt_page_dash(g->page, di, (HPDF_UINT)st->ndash, 0);
		} else
			rpt_page_dash(g->page, NULL, 0, 0);
	}
}

/* Fill and/or stroke the path just built, as the style says. */
static void paint(struct svg *g, const struct style *st)
{
	int f = st->has_fill, s = st->has_stroke && st->stroke_width > 0;
	if (f && s)
		HPDF_Page_FillStroke(g->page);
	else if (f)
		HPDF_Page_Fill(g->page);
	else if (s)
		HPDF_Page_Stroke(g->page);
	else
		HPDF_Page_EndPath(g->page);
	if (f && st->fill_opacity < 0.999)
		set_alpha(g, 1);
}

/* ---- page operators written directly
 *
 * libharu 2.3 clears a 512-byte scratch buffer byte by byte (HPDF_MemSet) in each
 * call that writes numbers (HPDF_Page_MoveTo, LineTo, SetRGBFill, SetRGBStroke,
 * Concat, ...), which the figures and the page text call thousands of times.  These
 * write the same bytes (the numbers by libharu's HPDF_FToA) and keep the same page
 * state; in a state or with a value libharu would refuse, its own call runs and
 * reports the error. */

/*
 * A number as libharu 2.3's HPDF_FToA writes it (hpdf_utils.c): clamped to +-32767,
 * the integer part truncated from val + 0.000005, five decimals truncated from
 * (float)(val - int + 0.000005) * 100000 in single precision, trailing zeros and a
 * bare point dropped ("0", "-0.5", "12.34567").  The same arithmetic in the same
 * precision, so the same bytes, without HPDF_FToA's copy through a scratch buffer
 * and its digit-by-digit trimming (some 600 instructions a number, tens of thousands
 * of numbers per report).  Writes no NUL; returns the end.
 */
char *rpt_ftoa(char *s, HPDF_REAL val)
{
	if (val != val) /* NaN: libharu's own way */
		return HPDF_FToA(s, val, s + HPDF_REAL_LEN);
	if (val > HPDF_LIMIT_MAX_REAL)
		val = HPDF_LIMIT_MAX_REAL;
	else if (val < HPDF_LIMIT_MIN_REAL)
		val = HPDF_LIMIT_MIN_REAL;
	if (val < 0) {
		*s++ = '-';
		val = -val;
	}
	HPDF_INT32 ip = (HPDF_INT32)(val + 0.000005);
	HPDF_INT32 fp = (HPDF_INT32)((HPDF_REAL)(val - ip + 0.000005) * 100000);
	/* the integer part (0 .. 32767) */
	if (ip >= 10) {
		if (ip >= 100) {
			if (ip >= 1000) {
				if (ip >= 10000)
					*s++ = (char)('0' + ip / 10000);
				*s++ = (char)('0' + ip / 1000 % 10);
			}
			*s++ = (char)('0' + ip / 100 % 10);
		}
		*s++ = (char)('0' + ip / 10 % 10);
	}
	*s++ = (char)('0' + ip % 10);
	/* the five decimals libharu takes (the last five digits), trailing zeros dropped */
	fp %= 100000;
	if (fp > 0) {
		int nd = 5;
		while (fp % 10 == 0) {
			fp /= 10;
			nd--;
		}
		*s++ = '.';
		for (int i = nd - 1; i >= 0; i--) {
			s[i] = (char)('0' + fp % 10);
			fp /= 10;
		}
		s += nd;
	}
	return s;
}

/*
 * libharu's memory streams (HPDF_MemStream_New) are lists of blocks of buf_siz bytes,
 * the last one filled to w_pos, read from block r_ptr_idx at r_pos.  libharu 2.3 copies
 * into and out of them with HPDF_MemCpy, a byte-by-byte loop (hpdf_utils.c), for every
 * write of a page operator and every block the save copies into the file.  mem_write
 * and mem_read do what HPDF_MemStream_WriteFunc and HPDF_MemStream_ReadFunc do
 * (hpdf_streams.c) -- the same blocks, positions and return codes, a new block added
 * as HPDF_MemStream_InWrite adds it (HPDF_GetMem of buf_siz, HPDF_List_Add) -- with
 * memcpy; rpt_stream_fast puts them into a memory stream, rpt_stream_write appends
 * through them.
 */
static HPDF_STATUS mem_write(HPDF_Stream st, const HPDF_BYTE *p, HPDF_UINT n)
{
	if (HPDF_Error_GetCode(st->error) != HPDF_OK)
		return HPDF_THIS_FUNC_WAS_SKIPPED;
	HPDF_MemStreamAttr a = (HPDF_MemStreamAttr)st->attr;
	while (n > 0) {
		HPDF_UINT room = a->buf_siz - a->w_pos;
		if (room == 0) {
			HPDF_BYTE *b = HPDF_GetMem(st->mmgr, a->buf_siz);
			if (!b)
				return HPDF_Error_GetCode(st->error);
			if (HPDF_List_Add(a->buf, b) != HPDF_OK) {
				HPDF_FreeMem(st->mmgr, b);
				a->w_ptr = NULL;
				return HPDF_Error_GetCode(st->error);
			}
			a->w_ptr = b;
			a->w_pos = 0;
			continue;
		}
		HPDF_UINT k = n < room ? n : room;
		memcpy(a->w_ptr, p, k);
		a->w_ptr += k;
		a->w_pos += k;
		p += k;
		n -= k;
	}
	return HPDF_OK;
}

static HPDF_STATUS mem_read(HPDF_Stream st, HPDF_BYTE *buf, HPDF_UINT *size)
{
	HPDF_MemStreamAttr a = (HPDF_MemStreamAttr)st->attr;
	HPDF_UINT want = *size;
	*size = 0;
	while (want > 0) {
		HPDF_UINT count = a->buf->count, avail;
		if (count == 0)
			return HPDF_STREAM_EOF;
		if (a->r_ptr_idx < count - 1)
			avail = a->buf_siz - a->r_pos;
		else if (a->r_ptr_idx == count - 1)
			avail = a->w_pos - a->r_pos;
		else
			return HPDF_STREAM_EOF;
		if (!a->r_ptr)
			a->r_ptr = HPDF_List_ItemAt(a->buf, a->r_ptr_idx);
		if (avail >= want) {
			memcpy(buf, a->r_ptr, want);
			a->r_pos += want;
			a->r_ptr += want;
			*size += want;
			return HPDF_OK;
		}
		memcpy(buf, a->r_ptr, avail);
		buf += avail;
		want -= avail;
		*size += avail;
		if (a->r_ptr_idx == count - 1) {
			a->r_ptr += avail;
			a->r_pos += avail;
			return HPDF_STREAM_EOF;
		}
		a->r_ptr_idx++;
		a->r_pos = 0;
		a->r_ptr = HPDF_List_ItemAt(a->buf, a->r_ptr_idx);
	}
	return HPDF_OK;
}

void rpt_stream_fast(HPDF_Stream st)
{
	if (st && st->type == HPDF_STREAM_MEMORY) {
		st->write_fn = mem_write;
		st->read_fn = mem_read;
	}
}

HPDF_STATUS rpt_stream_write(HPDF_Stream st, const void *data, size_t n)
{
	if (st->type != HPDF_STREAM_MEMORY || n > 0x7fffffff)
		return HPDF_Stream_Write(st, data, (HPDF_UINT)n);
	HPDF_STATUS rc = mem_write(st, data, (HPDF_UINT)n);
	if (rc == HPDF_OK)
		st->size += (HPDF_UINT32)n;
	return rc;
}

/* Write the 'n' numbers of 'v', separated by spaces, then " OP\n", to the page. */
static void put_op(HPDF_Page page, const HPDF_REAL *v, int n, const char *op)
{
	char buf[160], *o = buf; /* 6 numbers of at most 12 characters, an operator */
	for (int i = 0; i < n; i++) {
		if (i)
			*o++ = ' ';
		o = rpt_ftoa(o, v[i]);
	}
	*o++ = ' ';
	size_t k = strlen(op);
	memcpy(o, op, k);
	o += k;
	*o++ = '\012';
	HPDF_PageAttr a = (HPDF_PageAttr)page->attr;
	if (rpt_stream_write(a->stream, buf, (size_t)(o - buf)) != HPDF_OK)
		HPDF_CheckError(page->error);
}

void rpt_page_point(HPDF_Page page, HPDF_REAL x, HPDF_REAL y, char op)
{
	HPDF_PageAttr a = (HPDF_PageAttr)page->attr;
	if (op == 'm' ? !(a->gmode & (HPDF_GMODE_PAGE_DESCRIPTION | HPDF_GMODE_PATH_OBJECT))
	              : a->gmode != HPDF_GMODE_PATH_OBJECT) {
		if (op == 'm')
			HPDF_Page_MoveTo(page, x, y);
		else
			HPDF_Page_LineTo(page, x, y);
		return;
	}
	const HPDF_REAL v[2] = {x, y};
	put_op(page, v, 2, op == 'm' ? "m" : "l");
	a->cur_pos.x = x;
	a->cur_pos.y = y;
	if (op == 'm') {
		a->str_pos = a->cur_pos;
		a->gmode = HPDF_GMODE_PATH_OBJECT;
	}
}

void rpt_page_rgb(HPDF_Page page, HPDF_REAL r, HPDF_REAL g, HPDF_REAL b, int stroke)
{
	HPDF_PageAttr a = (HPDF_PageAttr)page->attr;
	if (!(a->gmode & (HPDF_GMODE_TEXT_OBJECT | HPDF_GMODE_PAGE_DESCRIPTION)) || r < 0 || r > 1 ||
	    g < 0 || g > 1 || b < 0 || b > 1) {
		if (stroke)
			HPDF_Page_SetRGBStroke(page, r, g, b);
		else
			HPDF_Page_SetRGBFill(page, r, g, b);
		return;
	}
	const HPDF_REAL v[3] = {r, g, b};
	put_op(page, v, 3, stroke ? "RG" : "rg");
	HPDF_RGBColor *c = stroke ? &a->gstate->rgb_stroke : &a->gstate->rgb_fill;
	c->r = r;
	c->g = g;
	c->b = b;
	if (stroke)
		a->gstate->cs_stroke = HPDF_CS_DEVICE_RGB;
	else
		a->gstate->cs_fill = HPDF_CS_DEVICE_RGB;
}

void rpt_page_concat(HPDF_Page page, HPDF_REAL ma, HPDF_REAL mb, HPDF_REAL mc, HPDF_REAL md,
                     HPDF_REAL mx, HPDF_REAL my)
{
	HPDF_PageAttr a = (HPDF_PageAttr)page->attr;
	if (a->gmode != HPDF_GMODE_PAGE_DESCRIPTION) {
		HPDF_Page_Concat(page, ma, mb, mc, md, mx, my);
		return;
	}
	const HPDF_REAL v[6] = {ma, mb, mc, md, mx, my};
	put_op(page, v, 6, "cm");
	/* the current transformation matrix, as HPDF_Page_Concat keeps it */
	HPDF_TransMatrix tm = a->gstate->trans_matrix;
	a->gstate->trans_matrix.a = tm.a * ma + tm.b * mc;
	a->gstate->trans_matrix.b = tm.a * mb + tm.b * md;
	a->gstate->trans_matrix.c = tm.c * ma + tm.d * mc;
	a->gstate->trans_matrix.d = tm.c * mb + tm.d * md;
	a->gstate->trans_matrix.x = tm.x + mx * tm.a + my * tm.c;
	a->gstate->trans_matrix.y = tm.y + mx * tm.b + my * tm.d;
}

/* HPDF_Page_SetLineWidth: "w w\n" (PDF 32000-1:2008 section 8.4.4), the state's width. */
void rpt_page_linewidth(HPDF_Page page, HPDF_REAL w)
{
	HPDF_PageAttr a = (HPDF_PageAttr)page->attr;
	if (!(a->gmode & (HPDF_GMODE_PAGE_DESCRIPTION | HPDF_GMODE_TEXT_OBJECT)) || !(w >= 0)) {
		HPDF_Page_SetLineWidth(page, w);
		return;
	}
	put_op(page, &w, 1, "w");
	a->gstate->line_width = w;
}

/* HPDF_Page_SetDash: "[d1 d2 ... ] phase d\n" (section 8.4.3.6; libharu writes a space
 * after each length), the state's dash mode. */
void rpt_page_dash(HPDF_Page page, const HPDF_UINT16 *ptn, HPDF_UINT n, HPDF_UINT phase)
{
	HPDF_PageAttr a = (HPDF_PageAttr)page->attr;
	int ok = (a->gmode & (HPDF_GMODE_PAGE_DESCRIPTION | HPDF_GMODE_TEXT_OBJECT)) && n <= 8 &&
	         (n == 1 || n % 2 == 0) && !(n == 0 && phase > 0) && (ptn || n == 0);
	for (HPDF_UINT i = 0; ok && i < n; i++)
		ok = ptn[i] >= 1 && ptn[i] <= HPDF_MAX_DASH_PATTERN;
	if (!ok) {
		HPDF_Page_SetDash(page, ptn, n, phase);
		return;
	}
	char buf[8 * 6 + 32];
	int k = 0;
	buf[k++] = '[';
	for (HPDF_UINT i = 0; i < n; i++)
		k += snprintf(buf + k, sizeof buf - (size_t)k, "%u ", (unsigned)ptn[i]);
	k += snprintf(buf + k, sizeof buf - (size_t)k, "] %u d\012", (unsigned)phase);
	if (rpt_stream_write(a->stream, buf, (size_t)k) != HPDF_OK) {
		HPDF_CheckError(page->error);
		return;
	}
	HPDF_DashMode m;
	memset(&m, 0, sizeof m);
	m.num_ptn = n;
	m.phase = phase;
	for (HPDF_UINT i = 0; i < n; i++)
		m.ptn[i] = ptn[i];
	a->gstate->dash_mode = m;
}

/* HPDF_Page_SetFontAndSize: "/NAME size Tf\n" (section 9.3.1) with the font's name in
 * the page's resources (HPDF_Page_GetLocalFontName, which adds it there), the state's
 * font, size and writing mode.  A name that would need escaping (section 7.3.5) is
 * left to libharu. */
void rpt_page_font(HPDF_Page page, HPDF_Font font, HPDF_REAL size)
{
	HPDF_PageAttr a = (HPDF_PageAttr)page->attr;
	const char *name = NULL;
	if ((a->gmode & (HPDF_GMODE_PAGE_DESCRIPTION | HPDF_GMODE_TEXT_OBJECT)) && HPDF_Font_Validate(font) &&
	    size > 0 && size <= HPDF_MAX_FONTSIZE && page->mmgr == font->mmgr)
		name = HPDF_Page_GetLocalFontName(page, font);
	size_t len = name ? strlen(name) : 0;
	for (size_t i = 0; i < len && name; i++)
		if (HPDF_NEEDS_ESCAPE((HPDF_BYTE)name[i]))
			name = NULL;
	if (!name || len == 0 || len > 64) {
		HPDF_Page_SetFontAndSize(page, font, size);
		return;
	}
	char buf[64 + 32];
	buf[0] = '/';
	memcpy(buf + 1, name, len);
	char *o = buf + 1 + len;
	*o++ = ' ';
	o = rpt_ftoa(o, size);
	memcpy(o, " Tf\012", 4);
	o += 4;
	if (rpt_stream_write(a->stream, buf, (size_t)(o - buf)) != HPDF_OK) {
		HPDF_CheckError(page->error);
		return;
	}
	a->gstate->font = font;
	a->gstate->font_size = size;
	a->gstate->writing_mode = ((HPDF_FontAttr)font->attr)->writing_mode;
}

/* HPDF_Page_Rectangle: "x y w h re\n" (section 8.5.2.1), the path begun at (x, y). */
void rpt_page_rect(HPDF_Page page, HPDF_REAL x, HPDF_REAL y, HPDF_REAL w, HPDF_REAL h)
{
	HPDF_PageAttr a = (HPDF_PageAttr)page->attr;
	if (!(a->gmode & (HPDF_GMODE_PAGE_DESCRIPTION | HPDF_GMODE_PATH_OBJECT))) {
		HPDF_Page_Rectangle(page, x, y, w, h);
		return;
	}
	const HPDF_REAL v[4] = {x, y, w, h};
	put_op(page, v, 4, "re");
	a->cur_pos.x = x;
	a->cur_pos.y = y;
	a->str_pos = a->cur_pos;
	a->gmode = HPDF_GMODE_PATH_OBJECT;
}

/* HPDF_Page_Circle: a move to (x - r, y) and four Bezier quarters (section 8.5.2.2),
 * their control points at r * 0.552 as libharu 2.3 puts them (KAPPA in
 * hpdf_page_operator.c), in single precision like libharu. */
void rpt_page_circle(HPDF_Page page, HPDF_REAL x, HPDF_REAL y, HPDF_REAL r)
{
	HPDF_PageAttr a = (HPDF_PageAttr)page->attr;
	if (!(a->gmode & (HPDF_GMODE_PAGE_DESCRIPTION | HPDF_GMODE_PATH_OBJECT))) {
		HPDF_Page_Circle(page, x, y, r);
		return;
	}
	const HPDF_REAL k = 0.552F, rk = r * k;
	const HPDF_REAL m[2] = {x - r, y};
	const HPDF_REAL q[4][6] = {
		{x - r, y + rk, x - rk, y + r, x, y + r},
		{x + rk, y + r, x + r, y + rk, x + r, y},
		{x + r, y - rk, x + rk, y - r, x, y - r},
		{x - rk, y - r, x - r, y - rk, x - r, y},
	};
	put_op(page, m, 2, "m");
	for (int i = 0; i < 4; i++)
		put_op(page, q[i], 6, "c");
	a->cur_pos.x = x - r;
	a->cur_pos.y = y;
	a->str_pos = a->cur_pos;
	a->gmode = HPDF_GMODE_PATH_OBJECT;
}

/* HPDF_Page_SetTextMatrix: "a b c d x y Tm\n" (section 9.4.2), the text matrix and
 * position. */
void rpt_page_textmatrix(HPDF_Page page, HPDF_REAL ma, HPDF_REAL mb, HPDF_REAL mc, HPDF_REAL md,
                         HPDF_REAL mx, HPDF_REAL my)
{
	HPDF_PageAttr a = (HPDF_PageAttr)page->attr;
	if (a->gmode != HPDF_GMODE_TEXT_OBJECT || ((ma == 0 || md == 0) && (mb == 0 || mc == 0))) {
		HPDF_Page_SetTextMatrix(page, ma, mb, mc, md, mx, my);
		return;
	}
	const HPDF_REAL v[6] = {ma, mb, mc, md, mx, my};
	put_op(page, v, 6, "Tm");
	a->text_matrix.a = ma;
	a->text_matrix.b = mb;
	a->text_matrix.c = mc;
	a->text_matrix.d = md;
	a->text_matrix.x = mx;
	a->text_matrix.y = my;
	a->text_pos.x = mx;
	a->text_pos.y = my;
}

/* Path data (SVG 1.1 section 8.3): M m L l H h V v Z z, numbers separated by spaces
 * or commas; a command letter may be followed by several coordinate pairs. */
static void path_data(struct svg *g, const char *d)
{
	double x = 0, y = 0, x0 = 0, y0 = 0;
	char cmd = 0;
	int any = 0;
	const char *p = d;
	for (;;) {
		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (isalpha((unsigned char)*p)) {
			cmd = *p++;
			if (cmd == 'Z' || cmd == 'z') {
				if (any)
					HPDF_Page_ClosePath(g->page);
				x = x0, y = y0;
			}
			continue;
		}
		char *e;
		double a = rpt_svg_num(p, &e);
		if (e == p)
			break;
		p = e;
		double b = 0;
		if (cmd == 'M' || cmd == 'm' || cmd == 'L' || cmd == 'l') {
			while (*p == ',' || isspace((unsigned char)*p))
				p++;
			b = rpt_svg_num(p, &e);
			if (e == p)
				break;
			p = e;
		}
		switch (cmd) {
		case 'M': x = a, y = b; goto move;
		case 'm': x += a, y += b;
		move:
			rpt_page_point(g->page, (HPDF_REAL)x, (HPDF_REAL)y, 'm');
			x0 = x, y0 = y, any = 1;
			cmd = cmd == 'M' ? 'L' : 'l'; /* further pairs are line-tos */
			break;
		case 'L': x = a, y = b; goto line;
		case 'l': x += a, y += b; goto line;
		case 'H': x = a; goto line;
		case 'h': x += a; goto line;
		case 'V': y = a; goto line;
		case 'v': y += a;
		line:
			if (any)
				rpt_page_point(g->page, (HPDF_REAL)x, (HPDF_REAL)y, 'l');
			break;
		default:
			return;
		}
	}
}

/* Decode character data with XML's predefined entities and character references. */
static void xml_text(const char *s, const char *e, char *out, size_t n)
{
	size_t o = 0;
	while (s < e && o + 4 < n) {
		if (*s == '&') {
			const char *semi = memchr(s, ';', (size_t)(e - s));
			unsigned cp = 0;
			if (semi && s[1] == '#')
				cp = (unsigned)strtoul(s + 2 + (s[2] == 'x'), NULL, s[2] == 'x' ? 16 : 10);
			else if (semi && !strncmp(s, "&amp;", 5))
				cp = '&';
			else if (semi && !strncmp(s, "&lt;", 4))
				cp = '<';
			else if (semi && !strncmp(s, "&gt;", 4))
				cp = '>';
			else if (semi && !strncmp(s, "&quot;", 6))
				cp = '"';
			else if (semi && !strncmp(s, "&apos;", 6))
				cp = '\'';
			if (cp && cp <= 0xffff) {
				if (cp < 0x80)
					out[o++] = (char)cp;
				else if (cp < 0x800)
					out[o++] = (char)(0xc0 | cp >> 6), out[o++] = (char)(0x80 | (cp & 63));
				else
					out[o++] = (char)(0xe0 | cp >> 12), out[o++] = (char)(0x80 | (cp >> 6 & 63)),
					out[o++] = (char)(0x80 | (cp & 63));
				s = semi + 1;
				continue;
			}
		}
		if (*s != '\n' && *s != '\r' && *s != '\t')
			out[o++] = *s;
		s++;
	}
	out[o] = 0;
}

static void text(struct svg *g, const struct style *st, const char *tag, const char *tag_end,
                 const char *s, const char *e)
{
	char buf[1024];
	xml_text(s, e, buf, sizeof buf);
	if (!buf[0] || st->font_size <= 0)
		return;
	if (g->mark)
		g->mark(g->mark_ctx, buf);
	double x = attr_num(tag, tag_end, "x", 0), y = attr_num(tag, tag_end, "y", 0);
	HPDF_Page_BeginText(g->page);
	rpt_page_font(g->page, g->font, (HPDF_REAL)st->font_size);
	set_rgb_fill(g, st->has_fill == 2 ? st->color : st->has_fill ? st->fill : 0);
	double w = HPDF_Page_TextWidth(g->page, buf);
	double dx = st->anchor == 'e' ? -w : st->anchor == 'm' ? -w / 2 : 0;
	rpt_page_textmatrix(g->page, 1, 0, 0, -1, (HPDF_REAL)(x + dx), (HPDF_REAL)y);
	HPDF_Page_ShowText(g->page, buf);
	HPDF_Page_EndText(g->page);
}

static void element(struct svg *g, const char *s, const char *e, int self_closing, const char **pp,
                    int nest);

/* Draw one shape element whose tag text is [s, e) (after the name). */
static void shape(struct svg *g, const char *name, const char *s, const char *e, int nest)
{
	struct style st = g->st[g->depth];
	apply_style(&st, s, e);
	HPDF_Page_GSave(g->page);
	apply_transform(g, s, e);
	char v[16384];
	if (strcmp(name, "use"))
		prepare(g, &st);
	if (!strcmp(name, "path")) {
		if (attr(s, e, "d", v, sizeof v)) {
			path_data(g, v);
			paint(g, &st);
		}
	} else if (!strcmp(name, "polygon") || !strcmp(name, "polyline")) {
		if (attr(s, e, "points", v, sizeof v)) {
			char *p = v, *q;
			int n = 0;
			for (;;) {
				double x = rpt_svg_num(p, &q);
				if (q == p)
					break;
				p = q + (*q == ',');
				double y = rpt_svg_num(p, &q);
				if (q == p)
					break;
				p = q;
				if (n++ == 0)
					rpt_page_point(g->page, (HPDF_REAL)x, (HPDF_REAL)y, 'm');
				else
					rpt_page_point(g->page, (HPDF_REAL)x, (HPDF_REAL)y, 'l');
			}
			if (n) {
				if (name[4] == 'g')
					HPDF_Page_ClosePath(g->page);
				paint(g, &st);
			}
		}
	} else if (!strcmp(name, "rect")) {
		rpt_page_rect(g->page, (HPDF_REAL)attr_num(s, e, "x", 0), (HPDF_REAL)attr_num(s, e, "y", 0),
		              (HPDF_REAL)attr_num(s, e, "width", 0), (HPDF_REAL)attr_num(s, e, "height", 0));
		paint(g, &st);
	} else if (!strcmp(name, "circle")) {
		double r = attr_num(s, e, "r", 0);
		if (r > 0) {
			rpt_page_circle(g->page, (HPDF_REAL)attr_num(s, e, "cx", 0), (HPDF_REAL)attr_num(s, e, "cy", 0),
			                (HPDF_REAL)r);
			paint(g, &st);
		}
	} else if (!strcmp(name, "use") && nest < 4) {
		if (attr(s, e, "xlink:href", v, sizeof v) && v[0] == '#')
			for (int i = 0; i < g->ndefs; i++)
				if (!strcmp(g->defs[i].id, v + 1)) {
					/* the symbol inherits this use's style (color, fill) */
					if (g->depth + 1 < MAX_DEPTH) {
						g->st[++g->depth] = st;
						const char *p = g->defs[i].start;
						element(g, p, p + g->defs[i].len, 1, NULL, nest + 1);
						g->depth--;
					}
					break;
				}
	}
	HPDF_Page_GRestore(g->page);
}

/* The element starting at '<' s whose tag ends before e ('>' or '/>'). */
static void element(struct svg *g, const char *s, const char *e, int self_closing, const char **pp,
                    int nest)
{
	char name[16];
	size_t k = 0;
	const char *p = s + 1;
	while (k + 1 < sizeof name && (isalnum((unsigned char)*p) || *p == ':'))
		name[k++] = *p++;
	name[k] = 0;
	if (!strcmp(name, "path") || !strcmp(name, "polygon") || !strcmp(name, "polyline") ||
	    !strcmp(name, "rect") || !strcmp(name, "circle") || !strcmp(name, "use"))
		shape(g, name, p, e, nest);
	else if (!strcmp(name, "g") && !self_closing && pp && g->depth + 1 < MAX_DEPTH) {
		g->st[g->depth + 1] = g->st[g->depth];
		g->depth++;
		apply_style(&g->st[g->depth], p, e);
		HPDF_Page_GSave(g->page);
		apply_transform(g, p, e);
	} else if (!strcmp(name, "text") && !self_closing && pp) {
		const char *end = strstr(*pp, "</text>");
		if (!end)
			return;
		struct style st = g->st[g->depth];
		apply_style(&st, p, e);
		HPDF_Page_GSave(g->page);
		apply_transform(g, p, e);
		text(g, &st, p, e, *pp, end);
		HPDF_Page_GRestore(g->page);
		*pp = end + 7;
	}
}

/* Record the elements of <defs> with an id; skip what is not drawn. */
static const char *read_defs(struct svg *g, const char *p)
{
	const char *end = strstr(p, "</defs>");
	if (!end)
		return p + strlen(p);
	while ((p = strchr(p, '<')) && p < end) {
		const char *te = strchr(p, '>');
		if (!te || te > end)
			break;
		char id[32];
		if (p[1] != '/' && g->ndefs < MAX_DEFS && attr(p, te, "id", id, sizeof id) &&
		    strncmp(p + 1, "filter", 6) != 0) {
			struct def *d = &g->defs[g->ndefs++];
			snprintf(d->id, sizeof d->id, "%s", id);
			d->start = p;
			d->len = (size_t)(te - p);
		}
		p = te + 1;
	}
	return end + 7;
}

/* Width and height of the SVG in its units (viewBox, else width and height); 0 or -1. */
int rpt_svg_size(const char *path, double *w, double *h)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	char buf[2048];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *s = strstr(buf, "<svg");
	const char *e = s ? strchr(s, '>') : NULL;
	if (!e)
		return -1;
	char v[128];
	double vw = attr_num(s, e, "width", 0), vh = attr_num(s, e, "height", 0);
	if (attr(s, e, "viewBox", v, sizeof v)) {
		double a, b, c, d;
		if (sscanf(v, "%lf %lf %lf %lf", &a, &b, &c, &d) == 4)
			vw = c, vh = d;
	}
	if (vw <= 0 || vh <= 0)
		return -1;
	*w = vw;
	*h = vh;
	return 0;
}

/* Draw the SVG at 'path' into the box (x, y, w, h) of 'page' (svgpdf.h); 0 or -1. */
int rpt_svg_pdf(HPDF_Doc doc, HPDF_Page page, HPDF_Font font, const char *path, double x, double y,
                double w, double h, void (*mark)(void *ctx, const char *text), void *mark_ctx)
{
	double vw, vh;
	if (!font || rpt_svg_size(path, &vw, &vh) < 0)
		return -1;
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	char *buf = NULL;
	size_t n = 0, cap = 0, got;
	char chunk[65536];
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (n + got + 1 > cap) {
			cap = (n + got + 1) * 2;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
		}
		memcpy(buf + n, chunk, got);
		n += got;
	}
	fclose(f);
	if (!buf)
		return -1;
	buf[n] = 0;
	struct svg *g = calloc(1, sizeof *g);
	if (!g) {
		free(buf);
		return -1;
	}
	g->doc = doc;
	g->page = page;
	g->font = font;
	g->mark = mark;
	g->mark_ctx = mark_ctx;
	/* SVG initial values (SVG 1.1 section 11.2 and 10.10) */
	g->st[0] = (struct style){.has_fill = 1, .fill = 0, .has_stroke = 0, .color = 0, .stroke_width = 1,
	                          .fill_opacity = 1, .font_size = 11, .anchor = 's'};
	HPDF_Page_GSave(page);
	/* the figure's box, clipped, with y pointing down as in the SVG */
	HPDF_Page_Rectangle(page, (HPDF_REAL)x, (HPDF_REAL)y, (HPDF_REAL)w, (HPDF_REAL)h);
	HPDF_Page_Clip(page);
	HPDF_Page_EndPath(page);
	rpt_page_concat(page, (HPDF_REAL)(w / vw), 0, 0, (HPDF_REAL)(-h / vh), (HPDF_REAL)x, (HPDF_REAL)(y + h));
	const char *p = strstr(buf, "<svg");
	p = p ? strchr(p, '>') : NULL;
	int gdepth0 = 0;
	while (p && (p = strchr(p, '<'))) {
		if (!strncmp(p, "<!--", 4)) {
			const char *c = strstr(p, "-->");
			p = c ? c + 3 : NULL;
			continue;
		}
		if (!strncmp(p, "<defs", 5)) {
			p = read_defs(g, p);
			continue;
		}
		if (!strncmp(p, "<title", 6) || !strncmp(p, "<desc", 5) || !strncmp(p, "<filter", 7)) {
			const char *c = strstr(p, p[1] == 't' ? "</title>" : p[1] == 'd' ? "</desc>" : "</filter>");
			p = c ? strchr(c, '>') : NULL;
			continue;
		}
		const char *te = strchr(p, '>');
		if (!te)
			break;
		if (!strncmp(p, "</g", 3)) {
			if (g->depth > gdepth0) {
				HPDF_Page_GRestore(page);
				g->depth--;
			}
			p = te + 1;
			continue;
		}
		if (p[1] == '/' || p[1] == '?' || p[1] == '!') {
			p = te + 1;
			continue;
		}
		int self = te > p && te[-1] == '/';
		const char *next = te + 1;
		element(g, p, self ? te - 1 : te, self, &next, 0);
		p = next;
	}
	while (g->depth > gdepth0) {
		HPDF_Page_GRestore(page);
		g->depth--;
	}
	HPDF_Page_GRestore(page);
	free(g);
	free(buf);
	return 0;
}
