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
	@med() { i=0; while [ $$i -lt 5 ]; do i=$$((i + 1)); \
	    t0=$$(date +%s%N); "$$@" >/dev/null || exit 1; t1=$$(date +%s%N); \
	    echo $$(( (t1 - t0) / 1000 )); done | sort -n | sed -n 3p; }; \
	html=$$(med $(BUILD)/trainplan-report --plan $(PLAN) --out-dir $(OUT) --no-pdf -o $(PDFCHECK)/bench $(CHAPTERS)); \
	both=$$(med $(BUILD)/trainplan-report --plan $(PLAN) --out-dir $(OUT) -o $(PDFCHECK)/bench $(CHAPTERS)); \
	pdf=$$((both - html)); [ $$pdf -ge 0 ] || pdf=0; \
	pages=$$(pdfinfo $(PDFCHECK)/bench.pdf 2>/dev/null | sed -n 's/^Pages: *//p'); \
	size=$$(wc -c < $(PDFCHECK)/bench.pdf); \
	ok() { [ $$1 -le $$2 ] && echo ok || echo MISSED; }; \
	echo "report render of $(PLAN) (median of 5 runs):"; \
	printf '  html        %4d.%03d ms  (goal <= 50 ms)   %s\n' $$((html / 1000)) $$((html % 1000)) $$(ok $$html 50000); \
	printf '  html + pdf  %4d.%03d ms  (goal <= 150 ms)  %s\n' $$((both / 1000)) $$((both % 1000)) $$(ok $$both 150000); \
	printf '  pdf alone   %4d.%03d ms  (%s pages, %s bytes)\n' $$((pdf / 1000)) $$((pdf % 1000)) "$$pages" "$$size"

BENCHES += bench-pdf
