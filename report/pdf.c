/*
 * pdf.c -- the PDF device on libharu, and rpt_pdf_render.
 *
 * The layout engine (layout.c) decides where everything goes; this file only turns
 * its drawing calls into libharu calls (libharu 2.3 API reference,
 * https://github.com/libharu/libharu/wiki/API%3A-Page and API:-Font, API:-Document).
 *
 * Fonts: DejaVu Serif, Sans and Sans Mono TrueType files, each loaded when first
 * used and embedded as a subset (HPDF_LoadTTFontFromFile with embedding on: the
 * glyphs used, font_file_data) and addressed through libharu's UTF-8
 * encoder (HPDF_UseUTFEncodings, libharu >= 2.3), so any code point the fonts cover
 * (x, approx, arrows, micro, Greek) is drawn and extracted correctly.  Widths come
 * from the fonts' advance widths per code point (HPDF_Font_GetUnicodeWidth, in
 * 1/1000 em), cached per face.
 *
 * Speed: where libharu's own calls are slow for what this file does with them, the
 * same result is had another way, each described where it is done -- runs of text
 * written with the operators HPDF_Page_TextOut writes (d_text), page operators and
 * numbers written directly and libharu's memory streams filled and read by memcpy
 * (report/svgpdf.c: rpt_page_*, rpt_ftoa, rpt_stream_fast), a font made without
 * libharu's walk of the whole Basic Multilingual Plane and given the glyph map and
 * widths of the code points the document used (font_new, font_maps), its embedded
 * file written in one pass from the font file in memory (font_file_data), the
 * streams deflated at a lower zlib level on a worker thread beside the drawing
 * ("Compression" below).  Each keeps the pages as they were: the PDF before and after
 * each change rendered (pdftoppm) to the same pixels and the same text (pdftotext),
 * and all but font_maps and the 'post' table to the same bytes.
 *
 * Links and bookmarks may point forward (the table of contents links to later
 * pages), so anchors, links and bookmarks are recorded while the pages are drawn and
 * turned into destinations and annotations once every page exists.
 *
 * Determinism: the document info dates are set from the document's date (never the
 * clock); libharu 2.3 writes no file /ID unless encryption is on, and its font tags
 * are counters, so the same input gives the same bytes (checked by report/pdf.mk);
 * zlib gives the same bytes for the same data and level on any thread.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include <hpdf.h>
#include <hpdf_conf.h>
#include <hpdf_utils.h>
#include <zlib.h>

#include "layout.h"
#include "../calc/files.h"
#include "svgpdf.h"
#include "pdflib.h" /* last: its names stand for libharu's functions */

#define FONT_DIR "/usr/share/fonts/truetype/dejavu/"

static const char *const font_file[RPT_NFONTS] = {
	[RPT_SERIF] = "DejaVuSerif.ttf",
	[RPT_SERIF_BOLD] = "DejaVuSerif-Bold.ttf",
	[RPT_SERIF_ITALIC] = "DejaVuSerif-Italic.ttf",
	[RPT_SERIF_BOLDITALIC] = "DejaVuSerif-BoldItalic.ttf",
	[RPT_SANS] = "DejaVuSans.ttf",
	[RPT_SANS_BOLD] = "DejaVuSans-Bold.ttf",
	[RPT_SANS_ITALIC] = "DejaVuSans-Oblique.ttf",
	[RPT_MONO] = "DejaVuSansMono.ttf",
	[RPT_MONO_BOLD] = "DejaVuSansMono-Bold.ttf",
};

struct zjob {
	HPDF_Dict s;            /* the stream object */
	const HPDF_BYTE **buf;  /* its data, in pieces */
	HPDF_UINT *len;         /* [bytes] */
	HPDF_UINT nbuf;
	int level, strategy;    /* zlib's deflateInit2 arguments ("Compression") */
	unsigned char *out;     /* the deflated data */
	size_t outlen;          /* [bytes] */
	int ok, done;
};

struct zqueue {
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	struct zjob **jobs;
	int n, cap, next;       /* jobs[next..n) wait for a thread */
	int closed, running;    /* running: the worker was started */
	int live;               /* initialised and not yet finished */
	pthread_t worker;
};

static void zq_add(struct zqueue *q, HPDF_Dict s, int map);

struct anchor {
	char *id;
	int page;   /* 0-based */
	double y;   /* [pt] */
};

struct plink {
	int page;
	HPDF_Rect r;
	char *target;
};

struct pdev {
	HPDF_Doc pdf;
	HPDF_Page page;
	HPDF_Page *pages;
	int npages, cpages;
	HPDF_Font font[RPT_NFONTS];
	/* advance width per BMP code point [1/1000 em], -1 unknown: 256 blocks of 256
	 * code points per face, a block allocated when one of its code points is first
	 * asked for (a report uses a few blocks of the 256) */
	short *wcache[RPT_NFONTS][256];
	int failed;
	char err[600];
	/* text state of the current page */
	int in_text;
	int cur_font;
	double cur_size;
	unsigned cur_fill;
	unsigned cur_stroke;
	double cur_lw;
	/* images by path */
	char **img_path;
	HPDF_Image *img;
	int nimg;
	struct anchor *anchors;
	int nanchors, canchors;
	struct plink *links;
	int nlinks, clinks;
	HPDF_Outline outline[7]; /* last outline of each level */
	HPDF_Encoder utf8;
	HPDF_Dict tounicode;      /* the shared ToUnicode CMap */
	unsigned char *encsave;   /* the UTF-8 encoder's maps while a font is made (font_new) */
	int made[RPT_NFONTS];     /* the fonts in the order they were made */
	int nmade;
	struct zqueue zq;         /* streams being deflated */
};

static void error_handler(HPDF_STATUS error_no, HPDF_STATUS detail_no, void *user_data)
{
	struct pdev *p = user_data;
	if (!p->failed)
		snprintf(p->err, sizeof p->err, "libharu error 0x%04x (detail %u)", (unsigned)error_no,
		         (unsigned)detail_no);
	p->failed = 1;
}

/*
 * libharu 2.3 gives its UTF-8 fonts (Identity-H, character code = Unicode code point)
 * a ToUnicode CMap written with "begincidrange", an operator a ToUnicode CMap may not
 * use (PDF 32000-1:2008 section 9.10.3; Adobe Technical Note #5411), so readers warn
 * and some extract nothing.  Replace it with the identity written correctly: 256
 * bfranges of one high byte each (a bfrange may only vary in its last byte), in
 * blocks of at most 100 (the block limit of Adobe Technical Note #5014, CMap and
 * CIDFont Files Specification).  One stream is
 * shared by all fonts.
 */
static void fix_tounicode(struct pdev *p, HPDF_Font font)
{
	if (!p->tounicode) {
		HPDF_Dict st = HPDF_DictStream_New(p->pdf->mmgr, p->pdf->xref);
		if (!st)
			return;
		st->filter = HPDF_STREAM_FILTER_FLATE_DECODE;
		HPDF_Stream_WriteStr(st->stream,
		                     "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
		                     "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
		                     "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
		                     "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n");
		char line[64];
		for (int hi = 0; hi < 256; hi++) {
			if (hi % 100 == 0) {
				snprintf(line, sizeof line, "%d beginbfrange\n", 256 - hi < 100 ? 256 - hi : 100);
				HPDF_Stream_WriteStr(st->stream, line);
			}
			snprintf(line, sizeof line, "<%02X00> <%02XFF> <%02X00>\n", hi, hi, hi);
			HPDF_Stream_WriteStr(st->stream, line);
			if (hi % 100 == 99 || hi == 255)
				HPDF_Stream_WriteStr(st->stream, "endbfrange\n");
		}
		HPDF_Stream_WriteStr(st->stream, "endcmap\nCMapName currentdict /CMap defineresource pop\n"
		                                 "end\nend\n");
		p->tounicode = st;
	}
	HPDF_Dict_Add(font, "ToUnicode", p->tounicode);
}

/*
 * A font's CIDFontType2 (HPDF_GetFont with the UTF-8 encoder) gets a glyph map
 * (CIDToGIDMap) and a width array (W) over the whole Basic Multilingual Plane: libharu
 * 2.3's CIDFontType2_New looks up the glyph and the width of each of the 65536 code
 * points, writes 128 kB of map and a W entry for every glyph the font covers (some
 * 11 M instructions per DejaVu face, and 1 MB of maps to deflate for eight faces),
 * whatever the document draws.  It walks every code point only for an encoder whose
 * to_unicode_fn is not HPDF_CMapEncoder_ToUnicode (the UTF-8 encoder's is its own);
 * for a CMap encoder it takes the code points of the encoder's cid_map that are not
 * 0.  So for that one call the UTF-8 encoder is made to look like a CMap encoder that
 * knows the space alone (its cid_map and unicode_map saved, cleared but for U+0020,
 * and put back at once: the UTF-8 encoder keeps its own state in cid_map[0]), and the
 * font comes out with a map and widths for U+0020 only.  The map and W are written
 * again for the code points the document used (font_maps), once every page exists.
 * Returns the font, or NULL (libharu's error handler has the reason).
 */
static HPDF_Font font_new(struct pdev *p, const char *name)
{
	HPDF_Encoder enc = p->utf8;
	HPDF_CMapEncoderAttr ea = enc && enc->type == HPDF_ENCODER_TYPE_DOUBLE_BYTE ? enc->attr : NULL;
	if (!ea)
		return HPDF_GetFont(p->pdf, name, "UTF-8");
	if (!p->encsave)
		p->encsave = xmalloc(sizeof ea->cid_map + sizeof ea->unicode_map);
	memcpy(p->encsave, ea->cid_map, sizeof ea->cid_map);
	memcpy(p->encsave + sizeof ea->cid_map, ea->unicode_map, sizeof ea->unicode_map);
	HPDF_Encoder_ToUnicode_Func keep = enc->to_unicode_fn;
	memset(ea->cid_map, 0, sizeof ea->cid_map);
	ea->cid_map[0][0x20] = 0x20;
	ea->unicode_map[0][0x20] = 0x20;
	enc->to_unicode_fn = HPDF_CMapEncoder_ToUnicode;
	HPDF_Font font = HPDF_GetFont(p->pdf, name, "UTF-8");
	enc->to_unicode_fn = keep;
	memcpy(ea->cid_map, p->encsave, sizeof ea->cid_map);
	memcpy(ea->unicode_map, p->encsave + sizeof ea->cid_map, sizeof ea->unicode_map);
	return font;
}

/*
 * The glyph map and widths of font 'f' for the code points the document used: those
 * whose width the device asked for (every code point drawn or measured passes through
 * glyph_width; the figures' text through rpt_svg_pdf's mark), the rest left out.  The
 * map (PDF 32000-1:2008 section 9.7.4.2, CIDToGIDMap: two bytes per CID, big-endian,
 * CID = code point for Identity-H) runs to the highest used code point, with glyph 0
 * for the unused ones; W (section 9.7.4.3) lists runs "c [w1 w2 ...]" of used code
 * points whose width is not the default DW, with libharu's own glyph lookup and glyph
 * widths (HPDF_TTFontDef_GetGlyphid, HPDF_TTFontDef_GetGidWidth).  Returns 0 or -1.
 */
static int font_maps(struct pdev *p, enum rpt_font f)
{
	HPDF_Font font = p->font[f];
	HPDF_FontAttr fa = (HPDF_FontAttr)font->attr;
	HPDF_FontDef def = fa->fontdef;
	short *const *wc = p->wcache[f];
	HPDF_Array w = fa->descendant_font ? HPDF_Dict_GetItem(fa->descendant_font, "W", HPDF_OCLASS_ARRAY) : NULL;
	if (!fa->map_stream || !w || def->type != HPDF_FONTDEF_TYPE_TRUETYPE)
		return -1;
	long top = -1;
	for (long cp = 0xffff; cp >= 0 && top < 0; cp--)
		if (wc[cp >> 8] && wc[cp >> 8][cp & 255] >= 0)
			top = cp;
	size_t n = top < 0 ? 1 : (size_t)top + 1;
	unsigned char *map = xcalloc(n, 2);
	HPDF_Array_Clear(w);
	HPDF_Array run = NULL;
	int rc = 0;
	for (size_t cp = 0; cp < n && !rc; cp++) {
		if (!wc[cp >> 8] || wc[cp >> 8][cp & 255] < 0) {
			run = NULL;
			continue;
		}
		HPDF_UINT16 gid = HPDF_TTFontDef_GetGlyphid(def, (HPDF_UINT16)cp);
		map[2 * cp] = (unsigned char)(gid >> 8);
		map[2 * cp + 1] = (unsigned char)gid;
		HPDF_INT16 gw = HPDF_TTFontDef_GetGidWidth(def, gid);
		if (gw == def->missing_width) {
			run = NULL;
			continue;
		}
		if (!run) {
			run = HPDF_Array_New(font->mmgr);
			if (!run || HPDF_Array_AddNumber(w, (HPDF_INT32)cp) != HPDF_OK || HPDF_Array_Add(w, run) != HPDF_OK)
				rc = -1;
		}
		if (!rc && HPDF_Array_AddNumber(run, gw) != HPDF_OK)
			rc = -1;
	}
	HPDF_MemStream_FreeData(fa->map_stream->stream);
	if (!rc && rpt_stream_write(fa->map_stream->stream, map, 2 * n) != HPDF_OK)
		rc = -1;
	free(map);
	return rc;
}

static HPDF_Font get_font(struct pdev *p, enum rpt_font f)
{
	if (p->font[f] || p->failed)
		return p->font[f];
	char path[512];
	snprintf(path, sizeof path, "%s%s", FONT_DIR, font_file[f]);
	const char *name = HPDF_LoadTTFontFromFile(p->pdf, path, HPDF_TRUE);
	if (!name) {
		p->failed = 1;
		snprintf(p->err, sizeof p->err, "cannot load font %s", path);
		return NULL;
	}
	p->font[f] = font_new(p, name);
	if (p->font[f]) {
		fix_tounicode(p, p->font[f]);
		p->made[p->nmade++] = f;
	}
	return p->font[f];
}

/* The advance width of code point 'cp' (at most U+FFFF) in font 'f' [1/1000 em], from
 * the cache.  libharu's width lookup also marks the glyph as used, which is what puts
 * it into the embedded subset (HPDF_TTFontDef_GetCharWidth), so every glyph drawn
 * passes through here once. */
static long glyph_width(struct pdev *p, enum rpt_font f, unsigned cp)
{
	short *wc = p->wcache[f][cp >> 8 & 255];
	if (!wc) {
		wc = p->wcache[f][cp >> 8 & 255] = xmalloc(256 * sizeof *wc);
		memset(wc, 0xff, 256 * sizeof *wc);
	}
	short *w = &wc[cp & 255];
	if (*w < 0)
		*w = (short)HPDF_Font_GetUnicodeWidth(p->font[f], (HPDF_UNICODE)cp);
	return *w;
}

static double d_width(void *ctx, enum rpt_font f, double size, const char *s, size_t len)
{
	struct pdev *p = ctx;
	HPDF_Font font = get_font(p, f);
	if (!font)
		return 0.6 * size * (double)len;
	long total = 0;
	size_t i = 0, n;
	while (i < len) {
		unsigned cp = (unsigned char)s[i];
		if (cp < 0x80) /* ASCII: one byte, the code point itself */
			n = 1;
		else
			cp = rpt_utf8_next(s + i, len - i, &n);
		i += n;
		if (cp > 0xffff)
			cp = 0xfffd;
		total += glyph_width(p, f, cp);
	}
	return (double)total * size / 1000.0;
}

static void end_text(struct pdev *p)
{
	if (p->in_text) {
		HPDF_Page_EndText(p->page);
		p->in_text = 0;
	}
}

static void fill(struct pdev *p, unsigned rgb)
{
	if (rgb == p->cur_fill)
		return;
	p->cur_fill = rgb;
	rpt_page_rgb(p->page, ((rgb >> 16) & 255) / 255.0f, ((rgb >> 8) & 255) / 255.0f,
	             (rgb & 255) / 255.0f, 0);
}

static void d_begin(void *ctx, int pageno, double w, double h)
{
	struct pdev *p = ctx;
	(void)pageno;
	p->page = HPDF_AddPage(p->pdf);
	if (!p->page)
		return;
	HPDF_Page_SetWidth(p->page, (HPDF_REAL)w);
	HPDF_Page_SetHeight(p->page, (HPDF_REAL)h);
	if (p->npages == p->cpages) {
		p->cpages = p->cpages ? 2 * p->cpages : 64;
		p->pages = xrealloc(p->pages, p->cpages * sizeof *p->pages);
	}
	p->pages[p->npages++] = p->page;
	rpt_stream_fast(((HPDF_PageAttr)p->page->attr)->stream);
	p->in_text = 0;
	p->cur_font = -1;
	p->cur_size = 0;
	p->cur_fill = 0;   /* PDF default: black */
	p->cur_stroke = 0;
	p->cur_lw = 1;
}

static void d_end(void *ctx)
{
	struct pdev *p = ctx;
	if (!p->page)
		return;
	end_text(p);
	/* close what the save would close on a page left open (libharu 2.3,
	 * Page_BeforeWrite: the path, the text object, saved graphics states), now and
	 * with the same operators, so that the save writes nothing more into the page */
	HPDF_PageAttr attr = (HPDF_PageAttr)p->page->attr;
	if (attr->gmode == HPDF_GMODE_PATH_OBJECT)
		HPDF_Page_EndPath(p->page);
	if (attr->gmode == HPDF_GMODE_TEXT_OBJECT)
		HPDF_Page_EndText(p->page);
	while (attr->gstate && attr->gstate->prev && HPDF_Page_GRestore(p->page) == HPDF_OK)
		;
	if (attr->gmode == HPDF_GMODE_PAGE_DESCRIPTION && attr->gstate && !attr->gstate->prev &&
	    !p->failed)
		zq_add(&p->zq, attr->contents, 0); /* finished: nothing draws on it again */
}

/*
 * Show one run of text at (x, y).  The operators are the ones HPDF_Page_TextOut
 * writes, byte for byte ("dx dy Td" relative to the text matrix, then the string as
 * big-endian UTF-16 code units in hex and "Tj", PDF 32000-1:2008 sections 9.4.2 and
 * 9.4.3; an Identity-H font's character code is the code point), but the width comes
 * from the per-font cache instead of libharu's walk of its encoder and the font's
 * cmap for every character, and no 512-byte scratch buffer is cleared per word.
 * libharu's text state (text matrix, position) is kept as TextOut keeps it.
 */
static void d_text(void *ctx, enum rpt_font f, double size, double x, double y, const char *s,
                   size_t len, unsigned rgb)
{
	struct pdev *p = ctx;
	/* "dx dy Td\n" (two reals of at most 18 characters each), "<", 4 hex digits per
	 * code unit of at most 2048 bytes of text, "> Tj\n" */
	char buf[64 + 4 * 2048 + 8];
	HPDF_Font font = get_font(p, f);
	if (!font || !p->page || len == 0)
		return;
	if (!p->in_text) {
		HPDF_Page_BeginText(p->page);
		p->in_text = 1;
	}
	if (p->cur_font != (int)f || p->cur_size != size) {
		rpt_page_font(p->page, font, (HPDF_REAL)size);
		p->cur_font = (int)f;
		p->cur_size = size;
	}
	fill(p, rgb);
	HPDF_PageAttr attr = (HPDF_PageAttr)p->page->attr;
	if (attr->gmode != HPDF_GMODE_TEXT_OBJECT || p->failed)
		return;

	/* the move: TextPos_AbsToRel and HPDF_Page_MoveTextPos of libharu 2.3, in its
	 * single precision and order of operations so that the numbers come out the same */
	HPDF_TransMatrix *tm = &attr->text_matrix;
	HPDF_REAL xa = (HPDF_REAL)x, ya = (HPDF_REAL)y, dx, dy;
	if (tm->a == 0) {
		dx = (ya - tm->y - (xa - tm->x) * tm->d / tm->c) / tm->b;
		dy = (xa - tm->x) / tm->c;
	} else {
		dy = (ya - tm->y - (xa - tm->x) * tm->b / tm->a) / (tm->d - tm->c * tm->b / tm->a);
		dx = (xa - tm->x - dy * tm->c) / tm->a;
	}
	char *o = buf;
	o = rpt_ftoa(o, dx);
	*o++ = ' ';
	o = rpt_ftoa(o, dy);
	memcpy(o, " Td\012", 4);
	o += 4;
	tm->x += dx * tm->a + dy * tm->c;
	tm->y += dy * tm->d + dx * tm->b;
	attr->text_pos.x = tm->x;
	attr->text_pos.y = tm->y;

	/* the string.  libharu's UTF-8 encoder covers the Basic Multilingual Plane only:
	 * a code point above U+FFFF or a malformed byte is drawn as U+FFFD (and measured
	 * so, see d_width); like TextOut, the text ends at a NUL byte */
	static const char hex[] = "0123456789ABCDEF";
	char *str = o;
	*o++ = '<';
	long width = 0;
	size_t i = 0, k, in = 0;
	while (i < len && s[i] && in + 4 < 2048) {
		unsigned cp = (unsigned char)s[i];
		if (cp < 0x80)
			k = 1;
		else
			cp = rpt_utf8_next(s + i, len - i, &k);
		if (cp > 0xffff || (cp == 0xfffd && k == 1))
			cp = 0xfffd, in += 3;
		else
			in += k;
		i += k;
		width += glyph_width(p, f, cp);
		o[0] = hex[(cp >> 12) & 15];
		o[1] = hex[(cp >> 8) & 15];
		o[2] = hex[(cp >> 4) & 15];
		o[3] = hex[cp & 15];
		o += 4;
	}
	/* ShowText writes nothing for a run of zero width (or no characters) */
	if (width == 0)
		o = str;
	else {
		memcpy(o, "> Tj\012", 5);
		o += 5;
		HPDF_REAL tw = (HPDF_REAL)width * (HPDF_REAL)size / 1000;
		attr->text_pos.x += tw * tm->a;
		attr->text_pos.y += tw * tm->b;
	}
	if (rpt_stream_write(attr->stream, buf, (size_t)(o - buf)) != HPDF_OK &&
	    !p->failed) {
		snprintf(p->err, sizeof p->err, "cannot write a page's text");
		p->failed = 1;
	}
}

static void d_rule(void *ctx, double x0, double y0, double x1, double y1, double lw, unsigned rgb)
{
	struct pdev *p = ctx;
	if (!p->page)
		return;
	end_text(p);
	if (lw != p->cur_lw) {
		rpt_page_linewidth(p->page, (HPDF_REAL)lw);
		p->cur_lw = lw;
	}
	if (rgb != p->cur_stroke) {
		rpt_page_rgb(p->page, ((rgb >> 16) & 255) / 255.0f, ((rgb >> 8) & 255) / 255.0f,
		             (rgb & 255) / 255.0f, 1);
		p->cur_stroke = rgb;
	}
	rpt_page_point(p->page, (HPDF_REAL)x0, (HPDF_REAL)y0, 'm');
	rpt_page_point(p->page, (HPDF_REAL)x1, (HPDF_REAL)y1, 'l');
	HPDF_Page_Stroke(p->page);
}

static void d_rect(void *ctx, double x, double y, double w, double h, unsigned rgb)
{
	struct pdev *p = ctx;
	if (!p->page)
		return;
	end_text(p);
	fill(p, rgb);
	rpt_page_rect(p->page, (HPDF_REAL)x, (HPDF_REAL)y, (HPDF_REAL)w, (HPDF_REAL)h);
	HPDF_Page_Fill(p->page);
}

/* Write the filter of a pass-through PNG image: its IDAT data is a zlib stream of
 * PNG-filtered rows, which PDF reads directly as FlateDecode with the PNG
 * predictors (PDF 32000-1:2008 section 7.4.4.4, Table 8: Predictor >= 10 means
 * "PNG prediction, per row").  libharu drops a /Filter key from streams it does not
 * compress itself, so the keys are written by the dictionary's write hook. */
static HPDF_STATUS png_write_keys(HPDF_Dict obj, HPDF_Stream stream)
{
	HPDF_Number w = HPDF_Dict_GetItem(obj, "Width", HPDF_OCLASS_NUMBER);
	HPDF_Number bpc = HPDF_Dict_GetItem(obj, "BitsPerComponent", HPDF_OCLASS_NUMBER);
	HPDF_Name cs = HPDF_Dict_GetItem(obj, "ColorSpace", HPDF_OCLASS_NAME);
	char buf[200];
	if (!w || !bpc || !cs)
		return HPDF_INVALID_OBJECT;
	snprintf(buf, sizeof buf,
	         "/Filter /FlateDecode\012/DecodeParms << /Predictor 15 /Colors %d "
	         "/BitsPerComponent %d /Columns %d >>\012",
	         strcmp(cs->value, "DeviceRGB") == 0 ? 3 : 1, (int)bpc->value, (int)w->value);
	return HPDF_Stream_WriteStr(stream, buf);
}

/*
 * Load a PNG as an image XObject without decoding it: for 8-bit greyscale or RGB
 * without interlacing (what gnuplot's pngcairo writes), the concatenated IDAT chunks
 * (PNG 1.2 section 11.2.4) are copied into the PDF as they are.  libharu's own
 * loader inflates the pixels and deflates them again, which costs tens of
 * milliseconds per high-resolution figure.  Returns NULL for other PNGs (the caller
 * falls back to libharu's loader) or an unreadable file.
 */
static HPDF_Image png_direct(struct pdev *p, const char *path)
{
	char why[128];
	FILE *f = calc_file_open(path, "rb", why, sizeof why);
	if (!f)
		return NULL;
	unsigned char *buf = NULL;
	size_t n = 0, cap = 0, got;
	unsigned char chunk[65536];
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (n + got > cap) {
			cap = (n + got) * 2;
			buf = xrealloc(buf, cap);
		}
		memcpy(buf + n, chunk, got);
		n += got;
	}
	fclose(f);
	HPDF_Dict img = NULL;
	if (n < 33 || memcmp(buf, "\x89PNG\r\n\x1a\n", 8) != 0 || memcmp(buf + 12, "IHDR", 4) != 0)
		goto out;
	const unsigned char *ih = buf + 16;
	unsigned long w = ((unsigned long)ih[0] << 24) | (ih[1] << 16) | (ih[2] << 8) | ih[3];
	unsigned long h = ((unsigned long)ih[4] << 24) | (ih[5] << 16) | (ih[6] << 8) | ih[7];
	int depth = ih[8], ctype = ih[9], interlace = ih[12];
	if (depth != 8 || (ctype != 0 && ctype != 2) || interlace != 0 || !w || !h || w > 1u << 20 ||
	    h > 1u << 20)
		goto out;
	img = HPDF_DictStream_New(p->pdf->mmgr, p->pdf->xref);
	if (!img)
		goto out;
	img->header.obj_class |= HPDF_OSUBCLASS_XOBJECT;
	img->filter = HPDF_STREAM_FILTER_NONE;
	img->write_fn = png_write_keys;
	HPDF_Dict_AddName(img, "Type", "XObject");
	HPDF_Dict_AddName(img, "Subtype", "Image");
	HPDF_Dict_AddNumber(img, "Width", (HPDF_INT32)w);
	HPDF_Dict_AddNumber(img, "Height", (HPDF_INT32)h);
	HPDF_Dict_AddName(img, "ColorSpace", ctype == 2 ? "DeviceRGB" : "DeviceGray");
	HPDF_Dict_AddNumber(img, "BitsPerComponent", 8);
	size_t at = 8;
	while (at + 12 <= n) {
		unsigned long len = ((unsigned long)buf[at] << 24) | (buf[at + 1] << 16) |
		                    (buf[at + 2] << 8) | buf[at + 3];
		const unsigned char *type = buf + at + 4;
		if (len > n - at - 12)
			break;
		if (memcmp(type, "IDAT", 4) == 0)
			rpt_stream_write(img->stream, buf + at + 8, len);
		if (memcmp(type, "IEND", 4) == 0)
			break;
		at += 12 + len;
	}
out:
	free(buf);
	return (HPDF_Image)img;
}

/* The code points of a figure's text, drawn in RPT_SANS by libharu's UTF-8 encoder
 * (rpt_svg_pdf), as used (font_maps). */
static void svg_mark(void *ctx, const char *text)
{
	struct pdev *p = ctx;
	if (!p->font[RPT_SANS])
		return;
	size_t len = strlen(text), i = 0, n;
	while (i < len) {
		unsigned cp = rpt_utf8_next(text + i, len - i, &n);
		i += n ? n : 1;
		glyph_width(p, RPT_SANS, cp > 0xffff ? 0xfffd : cp);
	}
}

static int d_image(void *ctx, const char *path, double x, double y, double w, double h)
{
	struct pdev *p = ctx;
	HPDF_Image img = NULL;
	if (!p->page)
		return -1;
	size_t pl = strlen(path);
	if (pl > 4 && !strcmp(path + pl - 4, ".svg")) { /* a figure: drawn as vectors */
		end_text(p);
		if (rpt_svg_pdf(p->pdf, p->page, get_font(p, RPT_SANS), path, x, y, w, h, svg_mark, p) < 0)
			return -1;
		p->cur_font = -1; /* the graphics state was restored; the text state is unknown */
		return 0;
	}
	for (int i = 0; i < p->nimg; i++)
		if (strcmp(p->img_path[i], path) == 0)
			img = p->img[i];
	if (!img) {
		char why[128];
		FILE *f = calc_file_open(path, "rb", why, sizeof why); /* a FIFO would block */
		if (!f)
			return -1;
		fclose(f);
		img = png_direct(p, path);
		if (!img)
			img = HPDF_LoadPngImageFromFile(p->pdf, path);
		if (!img)
			return -1;
		p->img_path = xrealloc(p->img_path, (p->nimg + 1) * sizeof *p->img_path);
		p->img = xrealloc(p->img, (p->nimg + 1) * sizeof *p->img);
		p->img_path[p->nimg] = xstrdup(path);
		p->img[p->nimg++] = img;
	}
	end_text(p);
	HPDF_Page_DrawImage(p->page, img, (HPDF_REAL)x, (HPDF_REAL)y, (HPDF_REAL)w, (HPDF_REAL)h);
	return 0;
}

static void d_link(void *ctx, double x, double y, double w, double h, const char *target)
{
	struct pdev *p = ctx;
	if (!p->page || !target || !*target || !rpt_url_allowed(target))
		return; /* the HTML's policy: the text stays, without a link */
	if (p->nlinks == p->clinks) {
		p->clinks = p->clinks ? 2 * p->clinks : 128;
		p->links = xrealloc(p->links, p->clinks * sizeof *p->links);
	}
	struct plink *l = &p->links[p->nlinks++];
	l->page = p->npages - 1;
	l->r.left = (HPDF_REAL)x;
	l->r.bottom = (HPDF_REAL)y;
	l->r.right = (HPDF_REAL)(x + w);
	l->r.top = (HPDF_REAL)(y + h);
	l->target = xstrdup(target);
}

static void d_anchor(void *ctx, const char *id, double y)
{
	struct pdev *p = ctx;
	if (!p->page)
		return;
	if (p->nanchors == p->canchors) {
		p->canchors = p->canchors ? 2 * p->canchors : 128;
		p->anchors = xrealloc(p->anchors, p->canchors * sizeof *p->anchors);
	}
	struct anchor *a = &p->anchors[p->nanchors++];
	a->id = xstrdup(id);
	a->page = p->npages - 1;
	a->y = y;
}

static const struct anchor *find_anchor(const struct pdev *p, const char *id)
{
	for (int i = 0; i < p->nanchors; i++)
		if (strcmp(p->anchors[i].id, id) == 0)
			return &p->anchors[i];
	return NULL;
}

static HPDF_Destination dest_of(struct pdev *p, const struct anchor *a)
{
	HPDF_Destination dst = HPDF_Page_CreateDestination(p->pages[a->page]);
	if (dst)
		HPDF_Destination_SetFitH(dst, (HPDF_REAL)a->y);
	return dst;
}

static void d_bookmark(void *ctx, int level, const char *title, const char *id)
{
	struct pdev *p = ctx;
	const struct anchor *a = find_anchor(p, id);
	if (level < 1)
		level = 1;
	if (level > 6)
		level = 6;
	/* the parent is the last outline of a lower level */
	HPDF_Outline parent = NULL;
	for (int l = level - 1; l >= 1 && !parent; l--)
		parent = p->outline[l];
	HPDF_Outline o = HPDF_CreateOutline(p->pdf, parent, title, p->utf8);
	if (!o)
		return;
	if (a)
		HPDF_Outline_SetDestination(o, dest_of(p, a));
	HPDF_Outline_SetOpened(o, level == 1 ? HPDF_TRUE : HPDF_FALSE);
	p->outline[level] = o;
	for (int l = level + 1; l <= 6; l++)
		p->outline[l] = NULL;
}

static int d_failed(void *ctx)
{
	return ((struct pdev *)ctx)->failed;
}

/* Annotations, once every page exists.  Internal targets that name no anchor
 * get no annotation (the text stays). */
static void make_links(struct pdev *p)
{
	for (int i = 0; i < p->nlinks && !p->failed; i++) {
		struct plink *l = &p->links[i];
		HPDF_Page pg = p->pages[l->page];
		HPDF_Annotation an;
		if (l->target[0] == '#') {
			const struct anchor *a = find_anchor(p, l->target + 1);
			if (!a)
				continue;
			an = HPDF_Page_CreateLinkAnnot(pg, l->r, dest_of(p, a));
		} else
			an = HPDF_Page_CreateURILinkAnnot(pg, l->r, l->target);
		if (an)
			HPDF_LinkAnnot_SetBorderStyle(an, 0, 0, 0);
	}
}

/*
 * Compression.  libharu 2.3 deflates every stream at zlib's default level 6
 * (HPDF_Stream_WriteToStreamWithDeflate passes Z_DEFAULT_COMPRESSION) and its API
 * offers no other level (HPDF_COMP_BEST_SPEED is commented out in hpdf_consts.h).
 * So each stream libharu would deflate is deflated here, through zlib (RFC 1950/1951),
 * at PDF_DEFLATE_LEVEL, a font's CIDToGIDMap with run-length matching
 * (PDF_DEFLATE_MAP_*); the stream then carries the compressed bytes, no filter of
 * libharu's own, and its /Filter key from the dictionary's write hook -- the
 * arrangement png_direct uses.  The data and the decoded pages are unchanged; only the
 * compressed bytes differ.
 *
 * The settings, measured on the default report's 94 streams (3.83 MB before
 * compression) as instructions of zlib 1.2.13's deflate (valgrind --tool=callgrind,
 * memLevel 8), each kind of stream alone:
 *   kind (bytes in)                 level 6        level 4        level 3       level 1
 *   8 CIDToGIDMaps (1,048,560)      63 M / 62.7 kB 57 M / 63.0 kB 31 M / 66.7 kB 30 M / 67.1 kB
 *   8 font files (838,514)         140 M / 344 kB  91 M / 350 kB  74 M / 357 kB 67 M / 361 kB
 *   78 others (1,944,283: pages'   209 M / 340 kB 143 M / 374 kB 100 M / 401 kB 91 M / 443 kB
 *      contents, images, CMaps)
 * A CIDToGIDMap is 65,535 two-byte glyph numbers (CID = code point, hpdf_font_cid.c),
 * zeros but for the code points the font covers (a few thousand of the 65,535):
 * long runs of one byte, which zlib's Z_RLE strategy (matches at distance 1 only)
 * finds in 27 M instructions to 61.8 kB, less than any level's search does; on the
 * fonts and the pages Z_RLE is worse than level 1 (530 kB, 994 kB).  Level 3 is the
 * highest that still takes zlib's greedy deflate_fast (levels 4-9 take the lazy
 * deflate_slow; deflate.c's configuration_table): the three kinds cost 201 M
 * instructions at level 3 + Z_RLE against 291 M at level 4 (-31 %), for 33 kB more
 * (+3 % of the 1.0 MB file); level 1 would save 9 M more for 51 kB more.
 * (Those maps and font files were libharu's; since font_maps writes a map only up to
 * the highest code point used and the font files carry a 'post' table of 32 bytes,
 * the default report deflates 8 maps of at most 18 kB and fonts of about 500 kB in
 * all.)
 *
 * The work runs beside the drawing: a page's contents are queued when the page is
 * finished (nothing draws on it again), the fonts' maps and files and the rest once
 * every page exists, and one worker thread
 * deflates the queue while the main thread goes on; at the end the main thread takes
 * what is left from the queue too, so without a second core nothing waits.  The worker reads only the bytes of the
 * finished streams (pointers taken by the main thread) and its own memory, never
 * libharu; the main thread puts the results into the streams before the save.  zlib
 * gives the same bytes for the same input and level whichever thread runs it.
 */
#define PDF_DEFLATE_LEVEL 3
#define PDF_DEFLATE_MAP_LEVEL 1
#define PDF_DEFLATE_MAP_STRATEGY Z_RLE

static HPDF_STATUS flate_write_keys(HPDF_Dict obj, HPDF_Stream stream)
{
	(void)obj;
	return HPDF_Stream_WriteStr(stream, "/Filter [ /FlateDecode ]\012");
}

/* Deflate one job's data into job->out; job->ok says whether zlib succeeded. */
static void zjob_run(struct zjob *j)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	j->ok = 0;
	/* windowBits 15, memLevel 8: deflateInit's own (zlib.h, deflateInit2) */
	if (deflateInit2(&z, j->level, Z_DEFLATED, 15, 8, j->strategy) != Z_OK)
		return;
	uLong total = 0;
	for (HPDF_UINT i = 0; i < j->nbuf; i++)
		total += j->len[i];
	uLong cap = deflateBound(&z, total);
	j->out = malloc(cap ? cap : 1);
	if (!j->out) {
		deflateEnd(&z);
		return;
	}
	z.next_out = j->out;
	z.avail_out = (uInt)cap;
	int rc = Z_OK;
	for (HPDF_UINT i = 0; i < j->nbuf && rc == Z_OK; i++) {
		z.next_in = (Bytef *)j->buf[i];
		z.avail_in = j->len[i];
		while (rc == Z_OK && z.avail_in > 0)
			rc = deflate(&z, Z_NO_FLUSH);
	}
	if (rc == Z_OK)
		rc = deflate(&z, Z_FINISH);
	j->outlen = z.total_out;
	deflateEnd(&z);
	j->ok = rc == Z_STREAM_END;
}

/* Take the next waiting job, or NULL; with q->mu held. */
static struct zjob *zq_take(struct zqueue *q)
{
	return q->next < q->n ? q->jobs[q->next++] : NULL;
}

static void *zq_worker(void *arg)
{
	struct zqueue *q = arg;
	pthread_mutex_lock(&q->mu);
	for (;;) {
		struct zjob *j = zq_take(q);
		if (!j) {
			if (q->closed)
				break;
			pthread_cond_wait(&q->work, &q->mu);
			continue;
		}
		pthread_mutex_unlock(&q->mu);
		zjob_run(j);
		pthread_mutex_lock(&q->mu);
		j->done = 1;
		pthread_cond_broadcast(&q->done);
	}
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

static void zq_init(struct zqueue *q)
{
	memset(q, 0, sizeof *q);
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->work, NULL);
	pthread_cond_init(&q->done, NULL);
	q->live = 1;
}

/* Queue stream object 's' ('map': a font's CIDToGIDMap) if libharu would deflate it when writing (FlateDecode, no
 * parameters, no write hook of its own, data in memory); from then on it is marked
 * as deflated here (no filter of libharu's, the write hook) and must not change
 * until zq_finish. */
static void zq_add(struct zqueue *q, HPDF_Dict s, int map)
{
	if (!s || !s->stream || s->stream->type != HPDF_STREAM_MEMORY ||
	    s->filter != HPDF_STREAM_FILTER_FLATE_DECODE || s->filterParams || s->write_fn)
		return;
	struct zjob *j = xcalloc(1, sizeof *j);
	j->s = s;
	j->level = map ? PDF_DEFLATE_MAP_LEVEL : PDF_DEFLATE_LEVEL;
	j->strategy = map ? PDF_DEFLATE_MAP_STRATEGY : Z_DEFAULT_STRATEGY;
	j->nbuf = HPDF_MemStream_GetBufCount(s->stream);
	j->buf = xcalloc(j->nbuf + 1, sizeof *j->buf);
	j->len = xcalloc(j->nbuf + 1, sizeof *j->len);
	for (HPDF_UINT i = 0; i < j->nbuf; i++) {
		j->buf[i] = HPDF_MemStream_GetBufPtr(s->stream, i, &j->len[i]);
		if (!j->buf[i])
			j->len[i] = 0;
	}
	s->filter = HPDF_STREAM_FILTER_NONE;
	s->write_fn = flate_write_keys;
	pthread_mutex_lock(&q->mu);
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 128;
		q->jobs = xrealloc(q->jobs, q->cap * sizeof *q->jobs);
	}
	q->jobs[q->n++] = j;
	if (!q->running && pthread_create(&q->worker, NULL, zq_worker, q) == 0)
		q->running = 1;
	pthread_cond_signal(&q->work);
	pthread_mutex_unlock(&q->mu);
}

/* Run what is left of the queue (with the worker), wait for every job, stop the
 * worker and, if 'apply', put each result into its stream; a job zlib failed is left
 * to libharu's own deflate.  Returns 0, or -1 when a stream could not be rewritten.
 * The queue is empty afterwards. */
static int zq_finish(struct zqueue *q, int apply)
{
	if (!q->live)
		return 0;
	q->live = 0;
	pthread_mutex_lock(&q->mu);
	q->closed = 1;
	pthread_cond_broadcast(&q->work);
	struct zjob *j;
	while ((j = zq_take(q))) {
		pthread_mutex_unlock(&q->mu);
		zjob_run(j);
		pthread_mutex_lock(&q->mu);
		j->done = 1;
	}
	for (int i = 0; i < q->n; i++)
		while (!q->jobs[i]->done)
			pthread_cond_wait(&q->done, &q->mu);
	pthread_mutex_unlock(&q->mu);
	if (q->running)
		pthread_join(q->worker, NULL);
	q->running = 0;
	int rc = 0;
	for (int i = 0; i < q->n; i++) {
		j = q->jobs[i];
		if (apply && j->ok) {
			HPDF_MemStream_FreeData(j->s->stream);
			if (rpt_stream_write(j->s->stream, j->out, j->outlen) != HPDF_OK)
				rc = -1;
		} else if (apply) {
			j->s->filter = HPDF_STREAM_FILTER_FLATE_DECODE;
			j->s->write_fn = NULL;
		}
		free(j->out);
		free(j->buf);
		free(j->len);
		free(j);
	}
	free(q->jobs);
	q->jobs = NULL;
	q->n = q->cap = q->next = 0;
	pthread_mutex_destroy(&q->mu);
	pthread_cond_destroy(&q->work);
	pthread_cond_destroy(&q->done);
	return rc;
}

/*
 * A TrueType font's embedded file (FontFile2), written from the font file's bytes in
 * memory.  libharu 2.3 writes it in the font's before-write hook
 * (CIDFontType2_BeforeWrite_Func calls HPDF_TTFontDef_SaveFontData), reading the file
 * four bytes per call through its file stream and summing the checksums four bytes
 * per call through a memory stream: some 16 M instructions per DejaVu face, the
 * largest single cost of the PDF.  Here the same bytes are put together in one buffer:
 * the thirteen tables libharu embeds, in its order (OS/2, cmap, cvt, fpgm, glyf, head,
 * hhea, hmtx, loca, maxp, name, post, prep; a table the font lacks is empty), each
 * copied from the file but for
 *   head  the font's header fields as libharu parsed them, checkSumAdjustment set last;
 *   glyf  only the glyphs the document used (libharu's flags, set as their widths were
 *         asked for), in glyph order, the others empty;
 *   loca  the new offsets (short or long as indexToLocFormat says; a skipped glyph
 *         gets the offset where the last kept one ended);
 *   name  every record's string, records 1 and 4 (family, full name) prefixed with
 *         the subset tag ("ABCDEF+", two bytes per character on platforms 0 and 3);
 * tables packed without padding, each directory entry with its checksum (the sum of
 * its big-endian 32-bit words, the last zero-padded), and checkSumAdjustment =
 * 0xB1B0AFBA minus the sum of the whole words of the tables' area -- libharu's
 * arithmetic, which is what makes the file byte for byte the one libharu writes
 * (TrueType 'head', 'loca', 'name' and the table directory: Apple TrueType Reference
 * Manual, OpenType 1.9).  The object order, keys and filter are those of the hook, which
 * is run with embedding off to make the descriptor and the font's names.
 * Returns the data (length in *len), or NULL when the font needs libharu's own path
 * (a table whose rewriting needs data the font lacks, or a file that does not match
 * what libharu parsed).
 */
static const char font_tags[13][5] = {"OS/2", "cmap", "cvt ", "fpgm", "glyf", "head", "hhea",
                                      "hmtx", "loca", "maxp", "name", "post", "prep"};

struct fbuf {
	unsigned char *b;
	size_t n, cap;
};

static void fb_put(struct fbuf *f, const void *src, size_t n)
{
	if (f->n + n > f->cap) {
		f->cap = (f->n + n) * 2 + 4096;
		f->b = xrealloc(f->b, f->cap);
	}
	memcpy(f->b + f->n, src, n);
	f->n += n;
}

static void fb_u16(struct fbuf *f, unsigned v)
{
	unsigned char b[2] = {(unsigned char)(v >> 8), (unsigned char)v};
	fb_put(f, b, 2);
}

static void fb_u32(struct fbuf *f, unsigned long v)
{
	unsigned char b[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8),
	                      (unsigned char)v};
	fb_put(f, b, 4);
}

/* the sum of the big-endian words of b[0..n), the last one zero-padded if 'pad',
 * dropped otherwise */
static HPDF_UINT32 word_sum(const unsigned char *b, size_t n, int pad)
{
	HPDF_UINT32 s = 0;
	size_t i = 0;
	for (; i + 4 <= n; i += 4)
		s += ((HPDF_UINT32)b[i] << 24) | ((HPDF_UINT32)b[i + 1] << 16) | ((HPDF_UINT32)b[i + 2] << 8) |
		     b[i + 3];
	if (pad && i < n) {
		unsigned char w[4] = {0, 0, 0, 0};
		memcpy(w, b + i, n - i);
		s += ((HPDF_UINT32)w[0] << 24) | ((HPDF_UINT32)w[1] << 16) | ((HPDF_UINT32)w[2] << 8) | w[3];
	}
	return s;
}

static unsigned char *font_file_data(HPDF_TTFontDefAttr a, const char *path, size_t *len)
{
	char why[128];
	FILE *fp = calc_file_open(path, "rb", why, sizeof why);
	if (!fp)
		return NULL;
	/* the file mapped, not read: only the pages of the tables and glyphs copied are
	 * touched (a DejaVu face is 330-760 kB, of which a report uses some 100 kB) */
	struct fbuf t = {0}, out = {0};
	struct {
		const unsigned char *b;
		size_t n;
	} file = {NULL, 0};
	struct stat sb;
	void *map = MAP_FAILED;
	if (fstat(fileno(fp), &sb) == 0 && sb.st_size > 0)
		map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fileno(fp), 0);
	fclose(fp);
	if (map == MAP_FAILED)
		return NULL;
	file.b = map;
	file.n = (size_t)sb.st_size;
	const HPDF_TTF_FontHeader *h = &a->header;
	const HPDF_TTF_GryphOffsets *g = &a->glyph_tbl;
	int shortloc = h->index_to_loc_format == 0;
	HPDF_UINT32 off[13], tlen[13], *loca = xmalloc((a->num_glyphs + 1u) * sizeof *loca);
	size_t adjust_at = 0;
	int ok = 1;
	for (int i = 0; i < 13 && ok; i++) {
		const HPDF_TTFTable *tb = NULL;
		for (HPDF_UINT k = 0; k < a->offset_tbl.num_tables; k++)
			if (memcmp(a->offset_tbl.table[k].tag, font_tags[i], 4) == 0) {
				tb = &a->offset_tbl.table[k];
				break;
			}
		off[i] = (HPDF_UINT32)t.n;
		if (!strcmp(font_tags[i], "head")) {
			fb_put(&t, h->version_number, 4);
			fb_u32(&t, h->font_revision);
			adjust_at = t.n;
			fb_u32(&t, 0);
			fb_u32(&t, h->magic_number);
			fb_u16(&t, h->flags);
			fb_u16(&t, h->units_per_em);
			fb_put(&t, h->created, 8);
			fb_put(&t, h->modified, 8);
			fb_u16(&t, (HPDF_UINT16)h->x_min);
			fb_u16(&t, (HPDF_UINT16)h->y_min);
			fb_u16(&t, (HPDF_UINT16)h->x_max);
			fb_u16(&t, (HPDF_UINT16)h->y_max);
			fb_u16(&t, h->mac_style);
			fb_u16(&t, h->lowest_rec_ppem);
			fb_u16(&t, (HPDF_UINT16)h->font_direction_hint);
			fb_u16(&t, (HPDF_UINT16)h->index_to_loc_format);
			fb_u16(&t, (HPDF_UINT16)h->glyph_data_format);
		} else if (!strcmp(font_tags[i], "glyf")) {
			size_t start = t.n;
			HPDF_UINT32 save = 0;
			for (HPDF_UINT k = 0; k < a->num_glyphs && ok; k++) {
				if (g->flgs[k] != 1) {
					loca[k] = save;
					continue;
				}
				size_t from = g->offsets[k], n = g->offsets[k + 1] - g->offsets[k];
				HPDF_UINT32 at = (HPDF_UINT32)(t.n - start);
				if (shortloc) {
					from *= 2;
					n *= 2;
					at /= 2;
				}
				from += g->base_offset;
				loca[k] = at;
				if (g->offsets[k + 1] < g->offsets[k] || from > file.n || n > file.n - from)
					ok = 0;
				else
					fb_put(&t, file.b + from, n);
				save = (HPDF_UINT32)(t.n - start);
				if (shortloc)
					save /= 2;
			}
			loca[a->num_glyphs] = save;
		} else if (!strcmp(font_tags[i], "loca")) {
			for (HPDF_UINT k = 0; k <= a->num_glyphs; k++) {
				if (shortloc)
					fb_u16(&t, (HPDF_UINT16)loca[k]);
				else
					fb_u32(&t, loca[k]);
			}
		} else if (!strcmp(font_tags[i], "name")) {
			const HPDF_TTF_NamingTable *nt = &a->name_tbl;
			struct fbuf str = {0};
			if (!tb)
				ok = 0;
			fb_u16(&t, nt->format);
			fb_u16(&t, nt->count);
			fb_u16(&t, nt->string_offset);
			for (HPDF_UINT k = 0; k < nt->count && ok; k++) {
				const HPDF_TTF_NameRecord *r = &nt->name_records[k];
				size_t from = (size_t)tb->offset + nt->string_offset + r->offset;
				unsigned n = r->length, rec = (unsigned)str.n;
				if (r->name_id == 1 || r->name_id == 4) {
					if (r->platform_id == 0 || r->platform_id == 3) {
						fb_put(&str, a->tag_name2, sizeof a->tag_name2);
						n += sizeof a->tag_name2;
					} else {
						fb_put(&str, a->tag_name, sizeof a->tag_name);
						n += sizeof a->tag_name;
					}
				}
				fb_u16(&t, r->platform_id);
				fb_u16(&t, r->encoding_id);
				fb_u16(&t, r->language_id);
				fb_u16(&t, r->name_id);
				fb_u16(&t, (HPDF_UINT16)n);
				fb_u16(&t, (HPDF_UINT16)rec);
				if (from > file.n || r->length > file.n - from)
					ok = 0;
				else
					fb_put(&str, file.b + from, r->length);
			}
			if (str.n)
				fb_put(&t, str.b, str.n);
			free(str.b);
		} else if (!strcmp(font_tags[i], "post") && tb && tb->length >= 32 && tb->offset <= file.n &&
		           file.n - tb->offset >= 32) {
			/* version 3.0: the header alone, no glyph names (OpenType 1.9 'post';
			 * PDF 32000-1:2008 section 9.9 does not need the table at all) */
			fb_u32(&t, 0x00030000);
			fb_put(&t, file.b + tb->offset + 4, 28);
		} else if (tb) {
			if (tb->offset > file.n || tb->length > file.n - tb->offset)
				ok = 0;
			else
				fb_put(&t, file.b + tb->offset, tb->length);
		}
		tlen[i] = (HPDF_UINT32)(t.n - off[i]);
	}
	free(loca);
	munmap(map, file.n);
	if (!ok || adjust_at + 4 > t.n) {
		free(t.b);
		return NULL;
	}
	/* the tables' checksums, head's with checkSumAdjustment still 0 (as the 'head'
	 * table's checksum is defined), then the adjustment */
	HPDF_UINT32 sum[13];
	for (int i = 0; i < 13; i++)
		sum[i] = word_sum(t.b + off[i], tlen[i], 1);
	HPDF_UINT32 adjust = 0xB1B0AFBAu - word_sum(t.b, t.n, 0);
	t.b[adjust_at] = (unsigned char)(adjust >> 24);
	t.b[adjust_at + 1] = (unsigned char)(adjust >> 16);
	t.b[adjust_at + 2] = (unsigned char)(adjust >> 8);
	t.b[adjust_at + 3] = (unsigned char)adjust;
	/* the table directory (offset table and 13 entries of 16 bytes) */
	HPDF_UINT32 base = 12 + 16 * 13;
	fb_u32(&out, a->offset_tbl.sfnt_version);
	fb_u16(&out, 13);
	fb_u16(&out, a->offset_tbl.search_range);
	fb_u16(&out, a->offset_tbl.entry_selector);
	fb_u16(&out, a->offset_tbl.range_shift);
	for (int i = 0; i < 13; i++) {
		fb_put(&out, font_tags[i], 4);
		fb_u32(&out, sum[i]);
		fb_u32(&out, off[i] + base);
		fb_u32(&out, tlen[i]);
	}
	fb_put(&out, t.b, t.n);
	free(t.b);
	a->length1 = (HPDF_UINT)out.n;
	*len = out.n;
	return out.b;
}

/* Run font 'f''s before-write hook with its embedded file made by font_file_data: the
 * file's stream object is made first (the object the hook would make first), the hook
 * runs with embedding off (the descriptor, the font's names), and the file is put
 * into the descriptor where the hook puts it, as its first key, with the hook's
 * Length1, Length2 and Length3 and the font's filter.  A font font_file_data cannot
 * write gets the hook as it is.  Returns 0 or -1. */
static int embed_font(struct pdev *p, enum rpt_font f)
{
	HPDF_Font font = p->font[f];
	HPDF_FontAttr fa = (HPDF_FontAttr)font->attr;
	HPDF_FontDef def = fa->fontdef;
	HPDF_TTFontDefAttr da = def && def->type == HPDF_FONTDEF_TYPE_TRUETYPE ? def->attr : NULL;
	unsigned char *data = NULL;
	size_t n = 0;
	if (da && da->embedding && !def->descriptor) {
		char path[512];
		snprintf(path, sizeof path, "%s%s", FONT_DIR, font_file[f]);
		data = font_file_data(da, path, &n);
	}
	if (!data)
		return font->before_write_fn(font) == HPDF_OK ? 0 : -1;
	HPDF_Dict ff = HPDF_DictStream_New(font->mmgr, fa->xref);
	int rc = ff && rpt_stream_write(ff->stream, data, n) == HPDF_OK ? 0 : -1;
	free(data);
	if (rc < 0)
		return -1;
	da->embedding = HPDF_FALSE;
	HPDF_STATUS st = font->before_write_fn(font);
	da->embedding = HPDF_TRUE;
	HPDF_Dict desc = def->descriptor;
	if (st != HPDF_OK || !desc || HPDF_Dict_Add(desc, "FontFile2", ff) != HPDF_OK ||
	    HPDF_Dict_AddNumber(ff, "Length1", (HPDF_INT32)da->length1) != HPDF_OK ||
	    HPDF_Dict_AddNumber(ff, "Length2", 0) != HPDF_OK ||
	    HPDF_Dict_AddNumber(ff, "Length3", 0) != HPDF_OK)
		return -1;
	ff->filter = font->filter;
	HPDF_List l = desc->list; /* FontFile2 first, where the hook puts it */
	void *last = l->obj[l->count - 1];
	memmove(&l->obj[1], &l->obj[0], (l->count - 1) * sizeof *l->obj);
	l->obj[0] = last;
	return 0;
}

/*
 * Queue the rest once every page exists.  libharu makes a TrueType font's embedded
 * file (FontFile2) and sets the filters of its CIDToGIDMap and ToUnicode streams in
 * the font's before-write hook (CIDFontType2_BeforeWrite_Func); the hook is run here,
 * in the order the fonts were made (the order the save would run it), and the font's
 * filter is cleared so that the save's second run of the hook, which only names the
 * existing descriptor again, leaves those streams as they are.  Then every other
 * stream still to be deflated (images, the shared ToUnicode CMap) is queued.
 * Returns 0 or -1.
 */
static int zq_add_rest(struct pdev *p)
{
	for (int k = 0; k < p->nmade; k++) {
		HPDF_Font font = p->font[p->made[k]];
		if (font_maps(p, p->made[k]) < 0 || !font->before_write_fn || embed_font(p, p->made[k]) < 0)
			return -1;
		font->filter = HPDF_STREAM_FILTER_NONE;
		HPDF_FontAttr fa = (HPDF_FontAttr)font->attr;
		HPDF_Dict desc = fa->fontdef ? fa->fontdef->descriptor : NULL;
		zq_add(&p->zq, fa->map_stream, 1);
		zq_add(&p->zq, fa->cmap_stream, 0);
		if (desc)
			zq_add(&p->zq, HPDF_Dict_GetItem(desc, "FontFile2", HPDF_OCLASS_DICT), 0);
	}
	/* a page's contents not queued when it ended are libharu's to finish */
	HPDF_Xref x = p->pdf->xref;
	for (HPDF_UINT i = 0; i < x->entries->count; i++) {
		HPDF_XrefEntry e = HPDF_List_ItemAt(x->entries, i);
		HPDF_Obj_Header *h = e ? e->obj : NULL;
		if (!h || (h->obj_class & HPDF_OCLASS_ANY) != HPDF_OCLASS_DICT)
			continue;
		int contents = 0;
		for (int k = 0; k < p->npages && !contents; k++)
			contents = ((HPDF_PageAttr)p->pages[k]->attr)->contents == (HPDF_Dict)e->obj;
		if (!contents)
			zq_add(&p->zq, (HPDF_Dict)e->obj, 0);
	}
	return 0;
}

/* "YYYY-MM-DD" -> HPDF_Date at 00:00:00 UTC; 1970-01-01 when unparsable. */
static HPDF_Date date_of(const char *s)
{
	HPDF_Date dt;
	memset(&dt, 0, sizeof dt);
	int y = 1970, m = 1, d = 1;
	if (!s || sscanf(s, "%4d-%2d-%2d", &y, &m, &d) != 3 || m < 1 || m > 12 || d < 1 || d > 31)
		y = 1970, m = 1, d = 1;
	dt.year = y;
	dt.month = m;
	dt.day = d;
	dt.ind = 'Z';
	return dt;
}

static void pdev_free(struct pdev *p)
{
	zq_finish(&p->zq, 0);
	for (int f = 0; f < RPT_NFONTS; f++)
		for (int b = 0; b < 256; b++)
			free(p->wcache[f][b]);
	free(p->encsave);
	for (int i = 0; i < p->nimg; i++)
		free(p->img_path[i]);
	free(p->img_path);
	free(p->img);
	for (int i = 0; i < p->nanchors; i++)
		free(p->anchors[i].id);
	free(p->anchors);
	for (int i = 0; i < p->nlinks; i++)
		free(p->links[i].target);
	free(p->links);
	free(p->pages);
	if (p->pdf)
		HPDF_Free(p->pdf);
}

int rpt_pdf_render(const struct rpt_doc *doc, const struct rpt_pdf_opts *o, const char *name,
                   char **out, size_t *len, struct calc_diag *d)
{
	struct pdev p;
	*out = NULL;
	*len = 0;
	memset(&p, 0, sizeof p);
	if (rpt_hpdf_load(name, d) < 0)
		return -1;
	zq_init(&p.zq);
	p.pdf = HPDF_New(error_handler, &p);
	if (!p.pdf)
		return calc_error(d, name, 0, "cannot start the PDF library");
	HPDF_SetCompressionMode(p.pdf, HPDF_COMP_ALL);
	HPDF_UseUTFEncodings(p.pdf);
	HPDF_SetCurrentEncoder(p.pdf, "UTF-8");
	p.utf8 = HPDF_GetEncoder(p.pdf, "UTF-8");
	HPDF_SetPageMode(p.pdf, HPDF_PAGE_MODE_USE_OUTLINE);

	/* document info: no clock, only the document's date */
	HPDF_Date dt = date_of(doc->date);
	HPDF_SetInfoDateAttr(p.pdf, HPDF_INFO_CREATION_DATE, dt);
	HPDF_SetInfoDateAttr(p.pdf, HPDF_INFO_MOD_DATE, dt);
	if (doc->title)
		HPDF_SetInfoAttr(p.pdf, HPDF_INFO_TITLE, doc->title);
	if (doc->subtitle)
		HPDF_SetInfoAttr(p.pdf, HPDF_INFO_SUBJECT, doc->subtitle);
	HPDF_SetInfoAttr(p.pdf, HPDF_INFO_KEYWORDS,
	                 "training plan, memory, parallelism, pipeline, communication, GPU cluster");
	HPDF_SetInfoAttr(p.pdf, HPDF_INFO_CREATOR, "trainplan-report");

	struct rpt_device dev = {
		.ctx = &p,
		.width = d_width,
		.begin_page = d_begin,
		.end_page = d_end,
		.text = d_text,
		.rule = d_rule,
		.rect = d_rect,
		.image = d_image,
		.link = d_link,
		.anchor = d_anchor,
		.bookmark = d_bookmark,
		.failed = d_failed,
	};
	struct rpt_layout_opts lo;
	rpt_layout_defaults(&lo, o ? o->letter : 0, o ? o->justify : 1);
	lo.header_breaks = o ? o->header_breaks : NULL;
	if (rpt_layout_run(doc, &lo, &dev, d) < 0) {
		if (p.failed)
			calc_error(d, name, 0, "%s", p.err);
		pdev_free(&p);
		return -1;
	}
	make_links(&p);
	if (!p.failed && (zq_add_rest(&p) < 0 || zq_finish(&p.zq, 1) < 0) && !p.failed) {
		snprintf(p.err, sizeof p.err, "cannot compress the PDF's streams");
		p.failed = 1;
	}
	if (p.failed) {
		calc_error(d, name, 0, "%s", p.err);
		pdev_free(&p);
		return -1;
	}

	/* the whole file in memory: libharu's own stream (a memory stream, made here so
	 * that the save writes into it by memcpy, as it reads every stream object), its
	 * blocks copied out in order (HPDF_ReadFromStream would copy them byte by byte) */
	if (!p.pdf->stream)
		p.pdf->stream = HPDF_MemStream_New(p.pdf->mmgr, HPDF_STREAM_BUF_SIZ);
	rpt_stream_fast(p.pdf->stream);
	HPDF_Xref x = p.pdf->xref;
	for (HPDF_UINT i = 0; x && i < x->entries->count; i++) {
		HPDF_XrefEntry e = HPDF_List_ItemAt(x->entries, i);
		HPDF_Obj_Header *h = e ? e->obj : NULL;
		if (h && (h->obj_class & HPDF_OCLASS_ANY) == HPDF_OCLASS_DICT)
			rpt_stream_fast(((HPDF_Dict)e->obj)->stream);
	}
	HPDF_STATUS st = HPDF_SaveToStream(p.pdf);
	HPDF_UINT32 size = st == HPDF_OK ? HPDF_GetStreamSize(p.pdf) : 0;
	int rc = 0;
	if (st != HPDF_OK || p.failed || size == 0) {
		rc = calc_error(d, name, 0, "cannot write the PDF (%s)", p.failed ? p.err : "save failed");
	} else {
		char *buf = xmalloc(size);
		HPDF_UINT32 got = 0;
		HPDF_Stream ps = p.pdf->stream;
		if (ps && ps->type == HPDF_STREAM_MEMORY) {
			HPDF_UINT nb = HPDF_MemStream_GetBufCount(ps);
			for (HPDF_UINT i = 0; i < nb && got < size; i++) {
				HPDF_UINT len = 0;
				HPDF_BYTE *b = HPDF_MemStream_GetBufPtr(ps, i, &len);
				if (!b)
					break;
				if (len > size - got)
					len = size - got;
				memcpy(buf + got, b, len);
				got += len;
			}
		} else {
			got = size;
			HPDF_ResetStream(p.pdf);
			if (HPDF_ReadFromStream(p.pdf, (HPDF_BYTE *)buf, &got) != HPDF_OK && got != size)
				got = 0; /* the last read reports end of stream: only a short read fails */
		}
		if (got != size) {
			free(buf);
			rc = calc_error(d, name, 0, "cannot write the PDF (%s)", p.failed ? p.err : "read back failed");
		} else {
			*out = buf;
			*len = size;
		}
	}
	pdev_free(&p);
	return rc;
}
