# tests/layout.mk -- checks of the PDF typesetter (report/layout.c, pdf.c, textdev.c).
#
#   check-layout  unit tests of the layout (tests/layout/unit.c), then layout goldens:
#                 tests/layout/NAME.md -> NAME.out_text through the fixed-width text
#                 device (tests/layout/run.sh; UPDATE=1 rewrites)
#   check-pdf     every tests/layout/*.md and the report itself as PDF: qpdf --check,
#                 all fonts embedded (pdffonts), every heading in pdftotext's text and
#                 one bookmark per heading (tests/layout/check-pdf.sh), the figures of the
#                 report as vectors (their axis text in the PDF's text, no raster image), the Unicode
#                 test line, two renders byte-identical, and no page of the report more
#                 than half empty but the title, contents, a page before a chapter and
#                 the last (tests/layout/check-fill.sh; check-plans runs it on every plan)
#   check-header-words  no table header word broken between letters (layout documents and
#                 the shipped plans' expanded reports)
#   check-layout-asan  the layout documents through both devices under ASan + UBSan
#
# The layout driver (tests/layout/driver.c) lays out a Markdown file without the
# calculation library or the directive expansion, so the goldens test the layout alone.
# Scratch files go to $(PDFCHECK) (report/pdf.mk).

PDF_LIBS      = -lhpdf -lpng -lz -lcmark-gfm-extensions -lcmark-gfm -lm
LAYOUT_DRIVER = $(BUILD)/tests/layout-driver
LAYOUT_MD     = $(sort $(wildcard tests/layout/*.md))
UNICODE_LINE  = Unicode test line: 8 × 80 GB ≈ 640 GB → fits; µs, α β γ Δ Σ Ω
UNICODE_SMP   = Plane: � is drawn as a replacement character and the line goes on.

# pdf.c asks report/url.c for the URL policy and calc/files.c to open images.  The
# driver links the objects that trainplan-report is built from (and, under ASan, those
# of check-report-asan), so no source is compiled twice.
LAYOUT_SRC = report/layout.c report/pdf.c report/pdflib.c report/svgpdf.c report/textdev.c report/url.c calc/files.c
LAYOUT_OBJ = $(LAYOUT_SRC:%.c=$(BUILD)/%.o)
$(LAYOUT_DRIVER): tests/layout/driver.c $(LAYOUT_OBJ) report/layout.h report/report.h $(wildcard calc/*.h) | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -o $@ tests/layout/driver.c $(LAYOUT_OBJ) $(PDF_LIBS)

# The same driver under AddressSanitizer + UBSan (ASAN_FLAGS and the $(BUILD)/asan/%.o
# rule from tests/tests.mk), run over every layout document through both devices.
LAYOUT_DRIVER_ASAN = $(BUILD)/asan/tests/layout-driver
LAYOUT_OBJ_ASAN    = $(LAYOUT_SRC:%.c=$(BUILD)/asan/%.o)
$(LAYOUT_DRIVER_ASAN): tests/layout/driver.c $(LAYOUT_OBJ_ASAN) report/layout.h report/report.h $(wildcard calc/*.h) \
		| $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(ASAN_TEST_FLAGS) -o $@ tests/layout/driver.c $(LAYOUT_OBJ_ASAN) $(PDF_LIBS)

# cmocka unit tests of single layout decisions, on layout.c alone, and of the PDF
# device's number writer (svgpdf.c) against libharu's.
LAYOUT_UNIT = $(BUILD)/tests/layout-unit
$(LAYOUT_UNIT): tests/layout/unit.c $(BUILD)/report/layout.o $(BUILD)/report/svgpdf.o $(BUILD)/report/pdflib.o \
		report/layout.h report/report.h report/svgpdf.h $(wildcard calc/*.h) | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -o $@ tests/layout/unit.c $(BUILD)/report/layout.o $(BUILD)/report/svgpdf.o \
		$(BUILD)/report/pdflib.o \
		$$(pkg-config --libs cmocka) -lcmark-gfm-extensions -lcmark-gfm -lhpdf -lm

.PHONY: check-layout check-pdf check-layout-asan
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

check-pdf: $(LAYOUT_DRIVER) $(OUT)/report.pdf $(PLAN_EXPANDED)
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
	@# the report's headings are those of the expanded chapters: a heading inside a
	@# conditional block that is false for the plan is not in the report
	@if [ -n "$(CHAPTERS)" ] && [ -f $(OUT)/report.pdf ]; then \
	  exp=$(PLAN_EXPANDED); if [ -z "$$exp" ]; then exp=$(PDFCHECK)/expanded.md; \
	    $(BUILD)/trainplan-report --plan $(PLAN) --expand $(CHAPTERS) > $$exp || exit 1; fi; \
	  sh tests/layout/check-pdf.sh $(OUT)/report.pdf $$exp "micro-batches per step m" || exit 1; \
	  n=$$(pdfimages -list $(OUT)/report.pdf 2>/dev/null | tail -n +3 | wc -l); \
	  [ $$n -eq 0 ] || { echo "FAIL: report.pdf holds $$n raster images; its figures are drawn as vectors" >&2; exit 1; }; \
	  echo "pdf: report.pdf draws its figures as vectors (axis text extractable, no raster image)"; \
	  $(BUILD)/trainplan-report --plan $(PLAN) --out-dir $(OUT) -o $(PDFCHECK)/again $(CHAPTERS) >/dev/null || exit 1; \
	  cmp $(OUT)/report.pdf $(PDFCHECK)/again.pdf || { echo "FAIL: report.pdf differs between two builds" >&2; exit 1; }; \
	  echo "pdf: report.pdf is byte-identical in two builds"; \
	  sh tests/layout/check-fill.sh $(OUT)/report.pdf || exit 1; \
	fi
	@# the fill check refuses a half-empty page: three copies of a short page, the
	@# middle one neither the title nor the last page nor before a chapter (no outline)
	@$(LAYOUT_DRIVER) --pdf $(PDFCHECK)/fill-short.pdf tests/layout/fill/short.md && \
	  qpdf --empty --pages $(PDFCHECK)/fill-short.pdf 1,1,1 -- $(PDFCHECK)/fill-neg.pdf && \
	  if sh tests/layout/check-fill.sh $(PDFCHECK)/fill-neg.pdf 2>/dev/null; then \
	    echo "FAIL: check-fill.sh passes a PDF whose second page is half empty" >&2; exit 1; \
	  else echo "pdf: check-fill.sh refuses a half-empty page"; fi

# check-header-words  no table header of a layout document or of a shipped plan's
#                     report breaks a word between letters (tests/layout/check-header-words.sh)
.PHONY: check-header-words
check-header-words: $(LAYOUT_DRIVER) $(EXPANDED)
	@sh tests/layout/check-header-words.sh $(LAYOUT_DRIVER) $(LAYOUT_MD) $(EXPANDED)

CHECKS  += check-layout check-pdf check-layout-asan check-header-words
