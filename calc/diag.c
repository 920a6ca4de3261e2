/*
 * diag.c -- diagnostics and the one out-of-memory exit.
 *
 * A diagnostic is a record (file, line, column, severity, message); the text form
 * "FILE:LINE:COL: error: MESSAGE" is made from the record by calc_diag_format, in the
 * layout compilers use, so that editors can jump to the place.  A message of a kind
 * (calc_msgs) carries its stable ID, "error[E010]", as mandoc numbers its messages
 * (mandoc(1), DIAGNOSTICS), so that tests and scripts match the ID and the key.
 */
#include "diag.h"
#include "files.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

static void append(struct calc_diag *d, const char *s, size_t n)
{
	if (d->len + n + 1 > d->cap) {
		d->cap = (d->len + n + 1) * 2 + 64;
		d->text = xrealloc(d->text, d->cap);
	}
	memcpy(d->text + d->len, s, n);
	d->len += n;
	d->text[d->len] = 0;
}

/* The kinds, by enum calc_msg; an ID is never reused. */
static const struct calc_msg_kind calc_msgs[CALC_M_N] = {
	[CALC_M_NONE] = {NULL, CALC_ERROR, "", ""},
	[CALC_M_PLAN_UNREADABLE] = {"E001", CALC_ERROR, "plan-unreadable",
	                            "the plan file cannot be opened or read: missing, not a regular file, too large, a read error"},
	[CALC_M_MALFORMED] = {"E002", CALC_ERROR, "malformed-line",
	                      "a line that is not '[section]', 'key = value' or a comment; a --set word that is not KEY=VALUE"},
	[CALC_M_LINE_TOO_LONG] = {"E003", CALC_ERROR, "line-too-long", "a line longer than a plan line may be"},
	[CALC_M_UNKNOWN_SECTION] = {"E004", CALC_ERROR, "unknown-section", "a [section] the plan format does not have"},
	[CALC_M_OUTSIDE_SECTION] = {"E005", CALC_ERROR, "outside-section",
	                            "a key before any [section] that is not a plan key"},
	[CALC_M_UNKNOWN_KEY] = {"E006", CALC_ERROR, "unknown-key", "a key its section does not have; a --set key that names no key or several"},
	[CALC_M_NO_VALUE] = {"E007", CALC_ERROR, "no-value", "a key without a value"},
	[CALC_M_KEY_TWICE] = {"E008", CALC_ERROR, "key-twice", "a key set twice in one file"},
	[CALC_M_NOT_NUMBER] = {"E009", CALC_ERROR, "not-a-number",
	                       "a value that is not an integer, or not a number of the key's unit"},
	[CALC_M_OUT_OF_RANGE] = {"E010", CALC_ERROR, "out-of-range", "a number outside the key's range"},
	[CALC_M_NOT_ALLOWED] = {"E011", CALC_ERROR, "not-allowed", "a value that is not one of the key's names"},
	[CALC_M_NOT_BOOL] = {"E012", CALC_ERROR, "not-yes-no", "a value that is not yes, no, true, false, 1 or 0"},
	[CALC_M_TOO_LONG] = {"E013", CALC_ERROR, "too-long", "a text value longer than the key allows"},
	[CALC_M_CONTROL_CHAR] = {"E014", CALC_ERROR, "control-character",
	                         "a value with a control character or a byte that is not UTF-8"},
	[CALC_M_INCLUDE] = {"E015", CALC_ERROR, "include",
	                    "include = FILE cannot be followed: unreadable, itself, too deep or too long"},
	[CALC_M_UNKNOWN_PRESET] = {"E016", CALC_ERROR, "unknown-preset",
	                           "a model, cluster, GPU or stack preset that does not exist"},
	[CALC_M_KEY_RULE] = {"E017", CALC_ERROR, "key-rule",
	                     "values the plan's rules do not allow together: a split that does not divide the GPUs "
	                     "or the batch, a schedule's or a framework's condition, the MoE and MLA shapes"},
	[CALC_M_NOT_TEXT] = {"E018", CALC_ERROR, "not-text",
	                     "a plan line with a NUL byte, a byte that is not UTF-8 or a carriage return inside it"},
	[CALC_M_HF_CONFIG] = {"E019", CALC_ERROR, "hf-config",
	                      "model.hf_config names a config.json that cannot be read, is not JSON or does not give "
	                      "a model trainplan reads"},
	[CALC_M_IMPORT] = {"E020", CALC_ERROR, "import",
	                   "trainplan import: a launch script, job TOML or config JSON with a flag, key or value "
	                   "the import does not read or the framework does not take"},
	[CALC_M_HYBRID_PATTERN] = {"E021", CALC_ERROR, "hybrid-pattern",
	                           "model.hybrid_pattern holds a character that is no layer kind trainplan models "
	                           "(allowed: M, G, *, -, E)"},
	[CALC_M_SYNTAX] = {"E022", CALC_ERROR, "directive-syntax",
	                   "trainplan-report: a directive, a calc block or an expression that does not parse"},
	[CALC_M_UNKNOWN_NAME] = {"E023", CALC_ERROR, "unknown-name",
	                         "a quantity, table, dataset or function that the catalog does not have "
	                         "(trainplan get --list, trainplan table --list)"},
	[CALC_M_BAD_ARGUMENT] = {"E024", CALC_ERROR, "bad-argument",
	                         "an argument a table or dataset does not take, a columns= that names no column, a "
	                         "'with' assignment the plan refuses"},
	[CALC_M_EVALUATION] = {"E025", CALC_ERROR, "evaluation",
	                       "trainplan-report: an expression that cannot be evaluated (units that do not match, "
	                       "division by zero, text where a number is needed), a display format that does not fit "
	                       "the value, or a quantity or table that fails"},
	[CALC_M_CONDITIONAL] = {"E026", CALC_ERROR, "conditional",
	                        "trainplan-report: if, elif, else and end that do not pair up or nest too deep"},
	[CALC_M_FIGURE] = {"E027", CALC_ERROR, "figure",
	                   "trainplan-report: an image that names no figure script, or a figure without its caption "
	                   "or a paragraph of its own"},
	[CALC_M_DOCUMENT] = {"E028", CALC_ERROR, "document",
	                     "trainplan-report: an id used twice or too long, a cross-reference to nothing, blocks "
	                     "nested too deep, a table past its cells or a caption past its length"},
	[CALC_M_HAND_NUMBER] = {"E029", CALC_ERROR, "hand-typed-number",
	                        "trainplan-report --lint: a number with a unit typed by hand in prose"},
	[CALC_M_UNKNOWN_OPTION] = {"E030", CALC_ERROR, "unknown-option",
	                           "the command line: an option the command does not have, or an argument it "
	                           "does not take (trainplan help COMMAND lists them)"},
	[CALC_M_OPTION_VALUE] = {"E031", CALC_ERROR, "option-value",
	                         "the command line: an option that takes a value given last without one, or an "
	                         "option that takes none given one with '='"},
	[CALC_M_UNKNOWN_COMMAND] = {"E032", CALC_ERROR, "unknown-command",
	                            "the command line: a command trainplan does not have (trainplan help lists them)"},
	[CALC_M_NO_SPLIT_FITS] = {"E033", CALC_ERROR, "no-split-fits",
	                          "the plan sets no split and no split the planner enumerates fits the cluster's "
	                          "memory: give more GPUs or a split (trainplan search lists the rejects)"},
};

const struct calc_msg_kind *calc_msg_kind(enum calc_msg m)
{
	return m >= 0 && m < CALC_M_N ? &calc_msgs[m] : &calc_msgs[CALC_M_NONE];
}

static const char *severity_word(enum calc_severity s)
{
	switch (s) {
	case CALC_WARNING:
		return "warning";
	case CALC_NOTE:
		return "note";
	case CALC_ERROR:
	default:
		return "error";
	}
}

int calc_diag_format(const struct calc_diag_rec *r, char *buf, size_t n)
{
	char sev[32];
	if (r->kind > CALC_M_NONE && r->kind < CALC_M_N)
		snprintf(sev, sizeof sev, "%s[%s]", severity_word(r->severity), calc_msgs[r->kind].id);
	else
		snprintf(sev, sizeof sev, "%s", severity_word(r->severity));
	if (r->file && r->line > 0 && r->col > 0)
		return snprintf(buf, n, "%s:%d:%d: %s: %s", r->file, r->line, r->col, sev, r->msg);
	if (r->file && r->line > 0)
		return snprintf(buf, n, "%s:%d: %s: %s", r->file, r->line, sev, r->msg);
	if (r->file)
		return snprintf(buf, n, "%s: %s: %s", r->file, sev, r->msg);
	return snprintf(buf, n, "%s: %s", sev, r->msg);
}

/* A copy of s as a terminal may show it: a control byte (but newline and tab) or a byte
 * that is not UTF-8 as \xHH (calc_text_shown).  A file name or a value quoted in a
 * message can hold an ESC, which the terminal showing the message would run. */
static char *shown_dup(const char *s)
{
	size_t n = strlen(s), o = 0;
	char *out, *seg;
	if (calc_text_plain(s) < 0)
		return xstrdup(s);
	out = xmalloc(n * 4 + 1);
	seg = xmalloc(n + 1);
	while (*s) {
		size_t k = strcspn(s, "\n\t");
		memcpy(seg, s, k);
		seg[k] = 0;
		calc_text_shown(out + o, n * 4 + 1 - o, seg);
		o += strlen(out + o);
		s += k;
		if (*s)
			out[o++] = *s++;
	}
	out[o] = 0;
	free(seg);
	return out;
}

static int add(struct calc_diag *d, enum calc_msg kind, const char *file, int line, int col,
               enum calc_severity severity, const char *fmt, va_list ap)
{
	char msg[1024], buf[1024];
	int rc = severity == CALC_ERROR ? -1 : 0;
	if (!d)
		return rc;
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (d->nrecs == d->caprecs) {
		d->caprecs = d->caprecs * 2 + 8;
		d->recs = xrealloc(d->recs, (size_t)d->caprecs * sizeof *d->recs);
	}
	struct calc_diag_rec *r = &d->recs[d->nrecs++];
	r->file = file ? shown_dup(file) : NULL;
	r->line = line > 0 ? line : 0;
	r->col = r->line > 0 && col > 0 ? col : 0;
	r->severity = severity;
	r->msg = shown_dup(msg);
	r->kind = kind;
	/* the formatted line, cut as before at 1022 bytes + newline */
	int n = calc_diag_format(r, buf, sizeof buf);
	if (n > (int)sizeof buf - 2)
		n = (int)sizeof buf - 2;
	buf[n++] = '\n';
	append(d, buf, (size_t)n);
	if (severity == CALC_ERROR)
		d->nerrors++;
	return rc;
}

int calc_error(struct calc_diag *d, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = add(d, CALC_M_NONE, file, line, 0, CALC_ERROR, fmt, ap);
	va_end(ap);
	return rc;
}

int calc_error_id(struct calc_diag *d, enum calc_msg m, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = add(d, m, file, line, 0, calc_msg_kind(m)->severity, fmt, ap);
	va_end(ap);
	return rc;
}

int calc_error_id_at(struct calc_diag *d, enum calc_msg m, const char *file, int line, int col, const char *fmt,
                     ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = add(d, m, file, line, col, calc_msg_kind(m)->severity, fmt, ap);
	va_end(ap);
	return rc;
}

int calc_error_at(struct calc_diag *d, const char *file, int line, int col,
                  enum calc_severity severity, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = add(d, CALC_M_NONE, file, line, col, severity, fmt, ap);
	va_end(ap);
	return rc;
}

const char *calc_diag_first(const struct calc_diag *d, const char *fallback)
{
	return d && d->nrecs > 0 ? d->recs[0].msg : fallback;
}

static int add_kind(struct calc_diag *d, enum calc_msg kind, const char *file, int line, int col,
                    enum calc_severity severity, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
static int add_kind(struct calc_diag *d, enum calc_msg kind, const char *file, int line, int col,
                    enum calc_severity severity, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = add(d, kind, file, line, col, severity, fmt, ap);
	va_end(ap);
	return rc;
}

void calc_diag_append(struct calc_diag *d, const struct calc_diag *src)
{
	for (int i = 0; d && i < src->nrecs; i++) {
		const struct calc_diag_rec *r = &src->recs[i];
		add_kind(d, r->kind, r->file, r->line, r->col, r->severity, "%s", r->msg);
	}
}

void calc_diag_free(struct calc_diag *d)
{
	for (int i = 0; i < d->nrecs; i++) {
		free(d->recs[i].file);
		free(d->recs[i].msg);
	}
	free(d->recs);
	free(d->text);
	memset(d, 0, sizeof *d);
}

static void oom(void)
{
	fputs("trainplan: error: out of memory\n", stderr);
	exit(2);
}

/*
 * Large blocks in transparent huge pages.  The simulator's buffers are the largest the
 * library allocates (interleaved p = 64, v = 4, m = 1,024: 16.8 MB of ops, 524,288 of
 * 32 bytes), each a fresh mmap of malloc's, first touched while it is filled: one page
 * fault per 4 KiB page, 4,100 of them for those ops, 37 % of that simulation's first
 * run (perf record of `trainplan schedule --bench 1`).  A block of HUGE_MIN bytes or
 * more asks the kernel (madvise MADV_HUGEPAGE, Linux's transparent huge pages, in the
 * "madvise" mode most distributions ship) for 2 MiB pages over the 2 MiB-aligned part
 * of the block, one fault per 2 MiB.  Only how the memory is mapped changes, never its
 * contents; where the kernel has no such pages, or refuses, the block stays as malloc
 * gave it (glibc's tunable glibc.malloc.hugetlb=1 does the same for every mmap'd block).
 */
#if defined(__linux__) && defined(MADV_HUGEPAGE)
#define HUGE_MIN ((size_t)4 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)
static void *huge(void *p, size_t n)
{
	if (n >= HUGE_MIN) {
		uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
		uintptr_t b = ((uintptr_t)p + n) & ~(HUGE_PAGE - 1);
		if (b > a)
			madvise((void *)a, b - a, MADV_HUGEPAGE);
	}
	return p;
}
#else
static void *huge(void *p, size_t n)
{
	(void)n;
	return p;
}
#endif

/*
 * The heap of a short command in transparent huge pages (calc_heap_setup, diag.h;
 * docs/architecture.md §11).  A first touch of a 4 KiB page costs a page fault, and on
 * the 2-core virtual machine the project is measured on one costs 15-20 us under load (a
 * program that writes fresh mmap'd memory: 4-5 ms per MB, against 0.2 ms per MB in huge
 * pages): the 1,486 faults of `trainplan search --plan plans/llama3-405b-h100.ini` were
 * most of its CPU time, 865 of them the simulator's re-check of the top (its generated
 * ops, the programs the shape cache keeps, the scratch).  Each block of 128 kB or more
 * was a fresh mmap of malloc's (M_MMAP_THRESHOLD), faulted page by page and given back
 * at free.  So, before anything is allocated (mallopt(3), docs/references.md
 * GLIBC-MALLOPT): blocks up to HEAP_MMAP_MAX come from the heap (M_MMAP_THRESHOLD),
 * freed memory stays in it for the next block (M_TRIM_THRESHOLD), every thread takes its
 * blocks from it (M_ARENA_MAX 1: a thread's own arena would be mapped in 4 KiB pages),
 * and it grows HEAP_PAD at a time (M_TOP_PAD).  Its first growth, made at once, is asked
 * for 2 MiB pages (madvise MADV_HUGEPAGE, as huge() asks for one block; LINUX-THP) from
 * the first 2 MiB boundary past the pages malloc has touched, since a range where a
 * 4 KiB page is mapped keeps taking 4 KiB pages; a block never touched past its header
 * covers the heap below that boundary.  `trainplan search` then faults 142 pages on
 * that plan.  Only where memory lies and how it is mapped change, never what a program
 * computes; where the kernel has no huge pages, or refuses, the heap stays in 4 KiB
 * pages; with another C library, or a malloc that does not grow the heap by sbrk (a
 * sanitizer's), nothing changes.
 */
#if defined(__GLIBC__) && defined(M_TOP_PAD) && defined(__linux__) && defined(MADV_HUGEPAGE)
#define HEAP_MMAP_MAX (4 * 1024 * 1024 * (int)sizeof(long)) /* mallopt(3)'s largest M_MMAP_THRESHOLD */
#define HEAP_PAD (64 << 20)
#define HEAP_PROBE ((size_t)1 << 20)
static void *volatile heap_skip[2]; /* volatile: blocks never read are not left out */
void calc_heap_setup(void)
{
	char *b0, *b1;
	uintptr_t a, b, top;
	mallopt(M_MMAP_THRESHOLD, HEAP_MMAP_MAX);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt(M_TOP_PAD, HEAP_PAD);
#ifdef M_ARENA_MAX
	mallopt(M_ARENA_MAX, 1); /* the threads' blocks from this heap too, not from arenas of their own */
#endif
	b0 = sbrk(0);
	heap_skip[0] = malloc(HEAP_PROBE); /* more than a fresh top holds: the heap grows by HEAP_PAD */
	b1 = sbrk(0);
	if (!heap_skip[0] || b0 == (char *)-1 || b1 == (char *)-1 || b1 <= b0)
		return;
	/* malloc has touched the block's header and the top's after it; a 2 MiB page is had
	 * only where no 4 KiB page was touched before, so the huge pages begin past both */
	top = (uintptr_t)heap_skip[0] + HEAP_PROBE;
	a = (top + 4096 + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	b = (uintptr_t)b1 & ~(HUGE_PAGE - 1);
	if (b <= a || madvise((void *)a, b - a, MADV_HUGEPAGE) != 0)
		return;
	/* a second block up to there, never freed and never touched past its header, so
	 * that what comes next lies in the huge pages */
	heap_skip[1] = malloc(a - top - 256);
}
#else
void calc_heap_setup(void)
{
}
#endif

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return huge(p, n);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return n && size && n <= SIZE_MAX / size ? huge(p, n * size) : p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return huge(p, n);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

