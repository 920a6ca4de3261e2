/*
 * tests/fuzz/pdf.c -- libFuzzer harness of the PDF path: chapter loading, the layout and
 * the libharu device (report/layout.c, report/pdf.c), rendered into memory.
 *
 * The input is one chapter read with the default plan, as in tests/fuzz/doc.c.  The
 * contract: rpt_doc_load returns 0, or -1 with diagnostics; a loaded document renders to
 * a PDF (bytes beginning "%PDF-") or fails with a diagnostic, and leaks nothing.
 */
#include "fuzz.h"
#include "calc.h"
#include "report.h"

static struct calc_plan *plan;

/* 1 when the word occurs in the bytes (memmem is a GNU extension). */
static int contains(const unsigned char *data, size_t size, const char *word)
{
	size_t n = strlen(word);
	for (size_t i = 0; i + n <= size; i++)
		if (!memcmp(data + i, word, n))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char path[64];
	struct calc_diag d = {0};
	struct rpt_doc doc;
	struct rpt_opts o = {"figures", "/tmp/trainplan-fuzz-out", 0, NULL, NULL, NULL};
	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (!plan) {
		plan = malloc(sizeof *plan);
		if (calc_plan_load(plan, NULL, NULL, 0, &d) < 0)
			abort();
	}
	/* search tables and quantities run the planner for seconds: leave them out */
	if (contains(data, size, "search"))
		return 0;
	if (fuzz_write_temp(data, size, ".md", path) < 0)
		return 0;
	const char *files[1] = {path};
	memset(&doc, 0, sizeof doc);
	if (rpt_doc_load(&doc, files, 1, plan, &o, &d) == 0) {
		struct rpt_pdf_opts po = {0, 1};
		char *buf = NULL;
		size_t len = 0;
		if (rpt_pdf_render(&doc, &po, "fuzz.pdf", &buf, &len, &d) == 0)
			FUZZ_CHECK(buf && len > 5 && !memcmp(buf, "%PDF-", 5));
		else
			FUZZ_CHECK(d.nerrors > 0);
		free(buf);
	} else {
		FUZZ_CHECK(d.nerrors > 0 && d.text && d.text[d.len - 1] == '\n');
	}
	rpt_doc_free(&doc);
	unlink(path);
	calc_diag_free(&d);
	return 0;
}
