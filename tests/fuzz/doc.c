/*
 * tests/fuzz/doc.c -- libFuzzer harness of chapter loading and expansion (report/doc.c,
 * report/expand.c), then the HTML renderer and the layout through the text device.
 *
 * The input is one chapter (GFM Markdown with directives) read with the default plan.
 * Figures are resolved against figures/ (run from the repository root) but their
 * SVG/PNG files are absent, as in a first build.  The contract: rpt_doc_load returns 0,
 * or -1 with diagnostics "FILE:LINE:COL: error: ..."; a loaded document renders.
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
	int rc = rpt_doc_load(&doc, files, 1, plan, &o, &d);
	if (rc < 0) {
		FUZZ_CHECK(d.nerrors > 0 && d.text && d.text[d.len - 1] == '\n');
	} else {
		FILE *null = fopen("/dev/null", "w");
		struct rpt_pdf_opts po = {0, 1};
		char *buf = NULL;
		size_t len = 0;
		if (rpt_html_render(&doc, 0, &buf, &len, &d) == 0)
			FUZZ_CHECK(buf && len > 0);
		free(buf);
		rpt_text_render(&doc, &po, null, &d);
		fclose(null);
	}
	rpt_doc_free(&doc);
	unlink(path);
	calc_diag_free(&d);
	return 0;
}
