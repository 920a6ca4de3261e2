/*
 * diag.h -- what every part of trainplan shares: diagnostics and allocation.
 *
 * A small header of its own so that the renderers and the layout engine, which need
 * only these, do not recompile when an engine header changes.
 */
#ifndef CALC_DIAG_H
#define CALC_DIAG_H

#include <stddef.h>

/* ======================================================================== */
/* Diagnostics                                                               */
/* ======================================================================== */

/* How grave a diagnostic is.  Only errors count in nerrors. */
enum calc_severity {
	CALC_ERROR,
	CALC_WARNING,
	CALC_NOTE,
};

/*
 * Message kinds with a stable ID and a fixed severity (diag.c, calc_msgs): a test or a
 * script checks "error[E010]" and the key rather than the whole sentence, whose words
 * may improve.  The text form is "FILE:LINE: error[E010]: MESSAGE"; a message of no
 * kind (CALC_M_NONE) has no ID.  IDs are never reused or renumbered: a kind that
 * goes away leaves its ID unused.  trainplan --dump-options diagnostics lists them
 * (the DIAGNOSTICS section of man/trainplan.1).
 */
enum calc_msg {
	CALC_M_NONE,
	CALC_M_PLAN_UNREADABLE, /* E001 the plan cannot be opened or read */
	CALC_M_MALFORMED,       /* E002 a line that is not [section], key = value or a comment */
	CALC_M_LINE_TOO_LONG,   /* E003 */
	CALC_M_UNKNOWN_SECTION, /* E004 */
	CALC_M_OUTSIDE_SECTION, /* E005 a key before any [section] that is no plan key */
	CALC_M_UNKNOWN_KEY,     /* E006 */
	CALC_M_NO_VALUE,        /* E007 */
	CALC_M_KEY_TWICE,       /* E008 a key set twice in one file */
	CALC_M_NOT_NUMBER,      /* E009 not an integer / not a number of the key's unit */
	CALC_M_OUT_OF_RANGE,    /* E010 */
	CALC_M_NOT_ALLOWED,     /* E011 a value outside an enum key's list */
	CALC_M_NOT_BOOL,        /* E012 */
	CALC_M_TOO_LONG,        /* E013 a text value past its length */
	CALC_M_CONTROL_CHAR,    /* E014 a control character or a byte that is not UTF-8 */
	CALC_M_INCLUDE,         /* E015 include = FILE cannot be followed */
	CALC_M_UNKNOWN_PRESET,  /* E016 a model, cluster, GPU or stack preset that does not exist */
	CALC_M_KEY_RULE,        /* E017 values the plan's rules do not allow together */
	CALC_M_NOT_TEXT,        /* E018 a plan line that is not UTF-8 text */
	CALC_M_HF_CONFIG,       /* E019 model.hf_config: a config.json that does not give a model */
	CALC_M_IMPORT,          /* E020 trainplan import: a run's file that does not give a plan */
	CALC_M_HYBRID_PATTERN,  /* E021 a model.hybrid_pattern that is not a layer pattern */
	CALC_M_SYNTAX,          /* E022 a report directive or expression that does not parse */
	CALC_M_UNKNOWN_NAME,    /* E023 a quantity, table, dataset or function the catalog does not have */
	CALC_M_BAD_ARGUMENT,    /* E024 a table argument, columns= or 'with' assignment that is refused */
	CALC_M_EVALUATION,      /* E025 an expression or a quantity that cannot be evaluated */
	CALC_M_CONDITIONAL,     /* E026 <!-- if --> .. <!-- end --> that do not pair up */
	CALC_M_FIGURE,          /* E027 an image that is no figure, without its script, caption or paragraph */
	CALC_M_DOCUMENT,        /* E028 an id, a cross-reference, a nesting or a table size the report refuses */
	CALC_M_HAND_NUMBER,     /* E029 the lint: a number with a unit typed by hand in prose */
	CALC_M_UNKNOWN_OPTION,  /* E030 a command line: an option or argument the command does not take */
	CALC_M_OPTION_VALUE,    /* E031 a command line: an option without its value, or with one it takes none */
	CALC_M_UNKNOWN_COMMAND, /* E032 a command line: a command trainplan does not have */
	CALC_M_NO_SPLIT_FITS,   /* E033 the plan sets no split and the planner finds none that fits */
	CALC_M_N
};
/* One message kind: its ID ("E010"), severity, short name and meaning. */
struct calc_msg_kind {
	const char *id;
	enum calc_severity severity;
	const char *name;
	const char *meaning;
};
/* Kind m (CALC_M_NONE .. CALC_M_N - 1; NONE has id NULL). */
const struct calc_msg_kind *calc_msg_kind(enum calc_msg m);

/* One diagnostic: where it points and what it says. */
struct calc_diag_rec {
	char *file;                  /* path or origin ("--set", "with"); NULL when none applies */
	int line;                    /* 1-based; 0 = no line */
	int col;                     /* 1-based; 0 = no column */
	enum calc_severity severity;
	char *msg;                   /* the message, without location, severity or newline */
	enum calc_msg kind;          /* its kind (ID), CALC_M_NONE when it has none */
};

/*
 * A growing list of diagnostics, kept as records.  'text' is the same list formatted
 * by calc_diag_format (one "FILE:LINE:COL: error: MESSAGE" line each), kept current as
 * records are added, for callers that only print it.  Zero-initialise before use;
 * calc_diag_free releases everything.
 */
struct calc_diag {
	struct calc_diag_rec *recs; /* the records, in the order added */
	int nrecs;                  /* records used */
	int caprecs;                /* records allocated */
	char *text;  /* all records formatted, '\n'-terminated each; NULL when empty */
	size_t len;  /* bytes used in text */
	size_t cap;  /* bytes allocated */
	int nerrors; /* number of records of severity CALC_ERROR */
};

/* Append an error "file:line: error: ..." (line <= 0 omits it; file NULL omits both).
 * Always returns -1 so callers can write `return calc_error(...)`. */
int calc_error(struct calc_diag *d, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Append a message of kind m (its severity, and its ID in the text) at file:line (as
 * calc_error).  Returns -1 for an error kind, 0 otherwise. */
int calc_error_id(struct calc_diag *d, enum calc_msg m, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* calc_error_id with a column (col <= 0 omits it, as calc_error_at). */
int calc_error_id_at(struct calc_diag *d, enum calc_msg m, const char *file, int line, int col, const char *fmt,
                     ...) __attribute__((format(printf, 6, 7)));

/* Append a diagnostic of any severity with a column (col <= 0 omits it, and it is
 * omitted as well when line <= 0).  Returns -1 for CALC_ERROR, 0 otherwise. */
int calc_error_at(struct calc_diag *d, const char *file, int line, int col,
                  enum calc_severity severity, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Write record 'r' as one line without its newline into buf (size n, always
 * NUL-terminated): "FILE:LINE:COL: SEVERITY: MESSAGE", with the parts that do not
 * apply left out and SEVERITY followed by "[ID]" for a message of a kind.  Returns the length the whole line would have (as snprintf). */
int calc_diag_format(const struct calc_diag_rec *r, char *buf, size_t n);

/* The message of the first record, or 'fallback' when there is none. */
const char *calc_diag_first(const struct calc_diag *d, const char *fallback);

/* Append a copy of every record of 'src' to 'd' (NULL: nothing), as if each had been
 * added there; 'src' is unchanged. */
void calc_diag_append(struct calc_diag *d, const struct calc_diag *src);
void calc_diag_free(struct calc_diag *d);

/* Out of memory prints one message and exits with status 2: the only exit. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Sets up malloc for a short-lived command: the heap in transparent huge pages, blocks
 * of up to 32 MB and every thread's blocks from it, freed memory kept (diag.c).  Call
 * first thing in main, before any allocation and any thread; it changes no result, only
 * where memory lies and how it is mapped. */
void calc_heap_setup(void);

#endif
