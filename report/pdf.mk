# report/pdf.mk -- checks and benchmark of the PDF typesetter (layout.c, pdf.c, textdev.c).
#
#   check-layout  unit tests of the layout (tests/layout/unit.c), then layout goldens: tests/layout/NAME.md -> NAME.out_text through the
#                 fixed-width text device (tests/layout/run.sh; UPDATE=1 rewrites)
#   check-pdf     every tests/layout/*.md and the report itself as PDF: qpdf --check,
#                 all fonts embedded (pdffonts), every heading in pdftotext's text and
#                 one bookmark per heading (tests/layout/check-pdf.sh), the Unicode
#                 test line, and two renders byte-identical
#   check-layout-asan  the layout documents through both devices under ASan + UBSan
#   bench-pdf     PDF render time of the report next to its HTML render time
#
# The layout driver (tests/layout/driver.c) lays out a Markdown file without the
# calculation library or the directive expansion, so the goldens test the layout alone.

PDF_LIBS      = -lhpdf -lpng -lz -lcmark-gfm-extensions -lcmark-gfm -lm
LAYOUT_DRIVER = $(BUILD)/tests/layout-driver
LAYOUT_MD     = $(sort $(wildcard tests/layout/*.md))
PDFCHECK      = $(BUILD)/pdfcheck
UNICODE_LINE  = Unicode test line: 8 × 80 GB ≈ 640 GB → fits; µs, α β γ Δ Σ Ω
UNICODE_SMP   = Plane: � is drawn as a replacement character and the line goes on.

$(LAYOUT_DRIVER): tests/layout/driver.c report/layout.c report/pdf.c report/textdev.c \
		report/layout.h report/report.h calc/calc.h | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -o $@ tests/layout/driver.c report/layout.c report/pdf.c \
		report/textdev.c $(PDF_LIBS)

# The same driver under AddressSanitizer + UBSan (ASAN_FLAGS from tests/tests.mk),
# run over every layout document through both devices.
LAYOUT_DRIVER_ASAN = $(BUILD)/asan/tests/layout-driver
$(LAYOUT_DRIVER_ASAN): tests/layout/driver.c report/layout.c report/pdf.c report/textdev.c \
		report/layout.h report/report.h calc/calc.h | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(ASAN_FLAGS) -o $@ tests/layout/driver.c report/layout.c report/pdf.c \
		report/textdev.c $(PDF_LIBS)

# cmocka unit tests of single layout decisions, on layout.c alone.
LAYOUT_UNIT = $(BUILD)/tests/layout-unit
$(LAYOUT_UNIT): tests/layout/unit.c report/layout.c report/layout.h report/report.h calc/calc.h \
		| $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -o $@ tests/layout/unit.c report/layout.c \
		$$(pkg-config --libs cmocka) -lcmark-gfm-extensions -lcmark-gfm -lm

.PHONY: check-layout check-pdf check-layout-asan bench-pdf
check-layout-asan: $(LAYOUT_DRIVER_ASAN)
	@mkdir -p $(PDFCHECK)
	@fail=0; for m in $(LAYOUT_MD); do \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 $(LAYOUT_DRIVER_ASAN) $$m >/dev/null || fail=1; \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 $(LAYOUT_DRIVER_ASAN) --pdf $(PDFCHECK)/asan.pdf $$m || fail=1; \
	done; [ $$fail = 0 ] && echo "layout under AddressSanitizer + UBSan: $(words $(LAYOUT_MD)) documents, text and PDF"; \
	[ $$fail = 0 ]

check-layout: $(LAYOUT_DRIVER) $(LAYOUT_UNIT)
	@sh tests/run-unit.sh $(LAYOUT_UNIT)
	@sh tests/layout/run.sh $(LAYOUT_DRIVER) $(UPDATE)

check-pdf: $(LAYOUT_DRIVER) $(OUT)/report.pdf
	@mkdir -p $(PDFCHECK)
	@fail=0; for m in $(LAYOUT_MD); do \
	  n=$$(basename $$m .md); \
	  $(LAYOUT_DRIVER) --pdf $(PDFCHECK)/$$n.pdf $$m && \
	  $(LAYOUT_DRIVER) --pdf $(PDFCHECK)/$$n.again.pdf $$m || fail=1; \
	  cmp -s $(PDFCHECK)/$$n.pdf $(PDFCHECK)/$$n.again.pdf || { echo "FAIL: $$n.pdf differs between two renders" >&2; fail=1; }; \
	  if [ $$n = unicode ]; then sh tests/layout/check-pdf.sh $(PDFCHECK)/$$n.pdf $$m "$(UNICODE_LINE)" "$(UNICODE_SMP)" >/dev/null || fail=1; \
	  else sh tests/layout/check-pdf.sh $(PDFCHECK)/$$n.pdf $$m >/dev/null || fail=1; fi; \
	done; [ $$fail = 0 ] && echo "pdf: $(words $(LAYOUT_MD)) layout documents: qpdf, fonts, headings, bookmarks, Unicode line, byte-identical"; \
	[ $$fail = 0 ]
	@if [ -n "$(CHAPTERS)" ] && [ -f $(OUT)/report.pdf ]; then \
	  sh tests/layout/check-pdf.sh $(OUT)/report.pdf "$(CHAPTERS)" || exit 1; \
	  $(BUILD)/trainplan-report --plan $(PLAN) --out-dir $(OUT) -o $(PDFCHECK)/again $(CHAPTERS) >/dev/null || exit 1; \
	  cmp $(OUT)/report.pdf $(PDFCHECK)/again.pdf || { echo "FAIL: report.pdf differs between two builds" >&2; exit 1; }; \
	  echo "pdf: report.pdf is byte-identical in two builds"; \
	fi

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

CHECKS  += check-layout check-pdf check-layout-asan
BENCHES += bench-pdf
