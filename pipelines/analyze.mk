# The whole analysis of a trace as make recipes, its intermediate streams
# kept as files and each made again only when what it is made of changes:
#
#   make -f pipelines/analyze.mk TRACE=run/traces.otf2 [OUT=run-analysis]
#
# TRACE: anything tr-read reads (an OTF2 anchor file, a folder of
# tr-record logs or PyTorch profiles, an Nsight .sqlite export). In OUT
# (default: the trace's name with -analysis):
#   read.tr, deps.tr, waits.tr, analysed.tr   the stream after each stage
#   rating.txt                                 tr-rank's table and pattern summary
#   rating.json                                the same as NDJSON records (tr-rank --diff takes two)
#   annotated.otf2 (.def, annotated/)          the run for Vampir (tr-otf2)
#   perfetto.json                              the run for Perfetto (tr-chrome)
#   timeline.svg                               the run as a picture (tr-svg)
#   report.html                                all of it in one page for a browser (tr-report)
# The tools come from PATH (TR_BIN=dir to take them from a folder). A
# recipe that fails, or is interrupted, leaves nothing of its target
# behind (make removes it); tr-otf2 puts its archive in place whole itself.

ifndef TRACE
$(error give the trace: make -f pipelines/analyze.mk TRACE=path/to/traces.otf2)
endif
OUT ?= $(notdir $(basename $(patsubst %/,%,$(TRACE))))-analysis
TR_BIN ?=
tr = $(if $(TR_BIN),$(TR_BIN)/)$(1)

# what the trace is made of: an OTF2 archive's definitions and location
# files beside its anchor, a folder's files
TRACE_FILES := $(TRACE) $(wildcard $(basename $(TRACE)).def $(basename $(TRACE))/* $(TRACE)/*)

.DELETE_ON_ERROR:
.PHONY: all
all: $(OUT)/rating.txt $(OUT)/rating.json $(OUT)/annotated.otf2 $(OUT)/perfetto.json $(OUT)/timeline.svg \
	$(OUT)/report.html

$(OUT):
	mkdir -p $@

$(OUT)/read.tr: $(TRACE_FILES) | $(OUT)
	$(call tr,tr-read) -q $(TRACE) > $@

$(OUT)/deps.tr: $(OUT)/read.tr
	$(call tr,tr-deps) $< > $@

$(OUT)/waits.tr: $(OUT)/deps.tr
	$(call tr,tr-waits) $< > $@

$(OUT)/analysed.tr: $(OUT)/waits.tr
	$(call tr,tr-critpath) $< > $@

$(OUT)/rating.txt: $(OUT)/analysed.tr
	$(call tr,tr-rank) -n 0 $< > $@

$(OUT)/rating.json: $(OUT)/analysed.tr
	$(call tr,tr-rank) -n 0 --json $< > $@

# tr-otf2 replaces only an archive
$(OUT)/annotated.otf2: $(OUT)/analysed.tr
	$(call tr,tr-otf2) -q --force -o $(OUT)/annotated $<

$(OUT)/perfetto.json: $(OUT)/analysed.tr
	$(call tr,tr-chrome) $< > $@

$(OUT)/timeline.svg: $(OUT)/analysed.tr
	$(call tr,tr-svg) $< > $@

$(OUT)/report.html: $(OUT)/analysed.tr
	$(call tr,tr-report) $< > $@
