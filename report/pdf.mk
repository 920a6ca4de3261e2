# report/pdf.mk -- benchmark of the PDF typesetter (layout.c, pdf.c, textdev.c).
#
#   bench-pdf     PDF render time of the report next to its HTML render time
#
# The PDF itself is built with the report (report/report.mk); its checks
# (check-layout, check-pdf, check-layout-asan) are in tests/layout.mk.

PDFCHECK      = $(BUILD)/pdfcheck

.PHONY: bench-pdf
# Best of five runs each: the whole report as HTML only, then HTML and PDF; the PDF
# time is the difference.
bench-pdf: $(BUILD)/trainplan-report $(OUT)/report.pdf
	@mkdir -p $(PDFCHECK)
	@best() { b=999999; for i in 1 2 3 4 5; do \
	    t0=$$(date +%s%N); "$$@" >/dev/null || exit 1; t1=$$(date +%s%N); \
	    t=$$(( (t1 - t0) / 1000 )); [ $$t -lt $$b ] && b=$$t; done; echo $$b; }; \
	html=$$(best $(BUILD)/trainplan-report --plan $(PLAN) --out-dir $(OUT) --no-pdf -o $(PDFCHECK)/bench $(CHAPTERS)); \
	both=$$(best $(BUILD)/trainplan-report --plan $(PLAN) --out-dir $(OUT) -o $(PDFCHECK)/bench $(CHAPTERS)); \
	pdf=$$((both - html)); [ $$pdf -ge 0 ] || pdf=0; \
	pages=$$(pdfinfo $(PDFCHECK)/bench.pdf 2>/dev/null | sed -n 's/^Pages: *//p'); \
	size=$$(wc -c < $(PDFCHECK)/bench.pdf); \
	printf 'report render (best of 5): html %d.%03d ms, html+pdf %d.%03d ms, pdf %d.%03d ms (%s pages, %s bytes)\n' \
	  $$((html / 1000)) $$((html % 1000)) $$((both / 1000)) $$((both % 1000)) \
	  $$((pdf / 1000)) $$((pdf % 1000)) "$$pages" "$$size"

BENCHES += bench-pdf
