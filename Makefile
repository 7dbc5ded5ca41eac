# tr: critical-path and wait-state analysis of MPI + CUDA (+ OpenMP) traces.
# make | make check | make bench | make install PREFIX=... DESTDIR=...
# make DEV=1 (warnings are errors, records built are checked) | make SANITIZE=address,undefined

PREFIX ?= /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
# the jq recipes the man pages name, the make recipe and the shell questions
# (pipelines/...; not example.sh, which runs in the source tree)
PIPELINEDIR = $(PREFIX)/share/tr/pipelines
PIPELINES = $(wildcard pipelines/*.jq pipelines/*.mk)
PIPELINE_SCRIPTS = $(filter-out pipelines/example.sh,$(wildcard pipelines/*.sh))

CC ?= cc
CFLAGS ?= -O2 -g
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wformat=2
ifeq ($(DEV),1)
WARN += -Werror -Wconversion -Wno-sign-conversion
CHECKS = -DLS_CHECK_BUILD
endif
ifneq ($(SANITIZE),)
CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SANITIZE)
CHECKS = -DLS_CHECK_BUILD
endif
VERSION = 0.1.0
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE -DTR_VERSION='"$(VERSION)"' $(CHECKS) $(WARN) $(CFLAGS) \
	-MMD -MP $(shell pkg-config --cflags msgpack otf2)
LIBS = $(shell pkg-config --libs msgpack) -lm
# the log reader's C++ demangler (__cxa_demangle): kernels' names as people read them
TRLOGIN_LIBS = -lstdc++
OTF2_LIBS = $(shell pkg-config --libs otf2)

LIBSTREAM_OBJS = libstream/buf.o libstream/check.o libstream/defs.o libstream/event.o \
	libstream/front.o libstream/header.o libstream/idmap.o libstream/idset.o libstream/json.o libstream/mp.o libstream/fd.o libstream/packed.o libstream/pipe.o \
	libstream/range.o libstream/reader.o libstream/record.o libstream/roles.o \
	libstream/schema.o libstream/tmpfile.o libstream/utf8.o libstream/writer.o libstream/xsort.o
OTF2IN_OBJS = formats/otf2/defs.o formats/otf2/events.o formats/otf2/experiment.o formats/otf2/otf2in.o formats/otf2/vocab.o \
	formats/otf2/errors.o formats/otf2/diagnose.o
TRLOGIN_OBJS = formats/regions.o formats/defs.o formats/trlog/trlogin.o formats/trlog/logs.o formats/trlog/clock.o formats/trlog/events.o \
	formats/trlog/cuda.o formats/trlog/omp.o
KINETOIN_OBJS = formats/regions.o formats/defs.o formats/kineto/kinetoin.o formats/kineto/json.o formats/kineto/look.o \
	formats/kineto/events.o formats/kineto/nccl.o formats/kineto/refs.o
NSYSIN_OBJS = formats/regions.o formats/defs.o formats/nsys/nsysin.o formats/nsys/schema.o formats/nsys/defs.o \
	formats/nsys/events.o
OTF2OUT_OBJS = formats/otf2/otf2out.o formats/otf2/out_defs.o formats/otf2/out_events.o \
	formats/otf2/out_metrics.o formats/otf2/out_sorted.o formats/otf2/vocab.o formats/otf2/errors.o
ANALYSIS_OBJS = analysis/blame.o analysis/clock.o analysis/critpath.o analysis/deps.o analysis/edges.o \
	analysis/gpu/deps.o analysis/gpu/events.o analysis/gpu/graphs.o analysis/gpu/launch.o analysis/gpu/streams.o analysis/gpu/sync.o analysis/gpu/work.o analysis/gpu/usage.o analysis/gpu/waits.o analysis/floors.o analysis/graph.o analysis/idlewait.o analysis/item.o analysis/latency.o \
	analysis/mpi/coll.o analysis/mpi/facts.o analysis/mpi/icoll.o analysis/mpi/p2p.o analysis/mpi/waits.o analysis/omp/deps.o analysis/omp/waits.o analysis/pathblame.o analysis/pieces.o analysis/sidework.o \
	analysis/project.o analysis/rank.o analysis/retime.o analysis/stack.o analysis/stage.o analysis/trace.o analysis/unmatched.o analysis/waiters.o analysis/waitrec.o analysis/waits.o
TOOL_OBJS = cmd/common/tool.o
STAGE_OBJS = cmd/run/stage.o cmd/common/stage-options.o cmd/run/maxmem.o $(TOOL_OBJS) analysis/libanalysis.a libstream/libstream.a
PROGRAMS = bin/tr-analyze bin/tr-cat bin/tr-chrome bin/tr-report bin/tr-svg bin/tr-read bin/tr-deps bin/tr-clock bin/tr-waits bin/tr-critpath bin/tr-rank bin/tr-otf2 \
	bin/tr-project bin/tr-record
# the collector tr-record preloads (record/): beside bin/, in lib/tr/
LIBTRDIR = $(PREFIX)/lib/tr
COLLECTORS = lib/tr/libtr-log.so lib/tr/libtr-mpi.so
# and what tr-analyze loads under --mpi
MODULES = lib/tr/libtr-fan.so
CUDA_HOME ?= /usr/local/cuda
HAVE_CUPTI := $(wildcard $(CUDA_HOME)/include/cupti.h)
# OMPT's header (omp-tools.h): LLVM's, beside clang's own headers
OMPT_INC ?= $(shell clang -print-resource-dir 2>/dev/null)/include
HAVE_OMPT := $(wildcard $(OMPT_INC)/omp-tools.h)
HELPERS = tests/helper/ls-unit tests/helper/an-unit tests/helper/libfault.so tests/helper/libfail-malloc.so bench/ls-bench \
	bench/gen-otf2 bench/otf2-read bench/record-calls tests/helper/trlog-skew tests/helper/mpi-patterns tests/helper/mpi-patterns-f \
	tests/helper/mpi-patterns-f08
MAN1 = doc/tr-analyze.1 doc/tr-cat.1 doc/tr-chrome.1 doc/tr-report.1 doc/tr-svg.1 doc/tr-read.1 doc/tr-deps.1 doc/tr-clock.1 doc/tr-waits.1 doc/tr-critpath.1 doc/tr-rank.1 \
	doc/tr-otf2.1 doc/tr-project.1 doc/tr-record.1
MAN7 = doc/tr.7

ifneq ($(HAVE_CUPTI),)
COLLECTORS += lib/tr/libtr-cuda.so
HELPERS += tests/helper/cupti-feed tests/helper/nvtx-ranges bench/cupti-records
endif
ifneq ($(HAVE_OMPT),)
COLLECTORS += lib/tr/libtr-omp.so
HELPERS += tests/helper/omp-patterns
endif

all: $(PROGRAMS) $(COLLECTORS) $(MODULES) $(HELPERS) examples/imbalance
ifeq ($(HAVE_CUPTI),)
	@echo "no CUPTI at $(CUDA_HOME) (CUDA_HOME): the CUDA collector is not built; tr-record does not record CUDA"
endif
ifeq ($(HAVE_OMPT),)
	@echo "no omp-tools.h at $(OMPT_INC) (OMPT_INC): the OpenMP collector is not built; tr-record does not record OpenMP"
endif

# The collectors tr-record loads into the recorded program (so built
# plain, never sanitized): libtr-log.so, the log they share, and one per
# paradigm linked to it. MPI's with mpicc (Open MPI's or another's: the
# wrappers use only the MPI standard's profiling interface); CUDA's where a
# CUDA toolkit with CUPTI is found (CUDA_HOME).
MPICC ?= mpicc
RECORD_FLAGS = -std=gnu11 -D_GNU_SOURCE -DTR_VERSION='"$(VERSION)"' $(WARN) -O2 -g -fPIC
RECORD_LOG_SRCS = record/log.c record/names.c record/signals.c libstream/buf.c
RECORD_MPI_SRCS = record/mpi/c.c record/mpi/coll.c record/mpi/calls.c record/mpi/comms.c \
	record/mpi/requests.c record/mpi/run.c record/mpi/fortran.c
RECORD_CUDA_SRCS = record/cuda/activity.c record/cuda/api.c record/cuda/inject.c record/cuda/nvtx.c
RECORD_LINK = -Llib/tr -ltr-log -Wl,-rpath,'$$ORIGIN' -lpthread

lib/tr/libtr-log.so: $(RECORD_LOG_SRCS) record/log.h record/names.h formats/trlog/trlog.h libstream/enc.h
	@mkdir -p lib/tr
	$(CC) $(RECORD_FLAGS) -shared -o $@ $(RECORD_LOG_SRCS) -lpthread

lib/tr/libtr-mpi.so: $(RECORD_MPI_SRCS) record/mpi/mpirec.h lib/tr/libtr-log.so
	$(MPICC) $(RECORD_FLAGS) -shared -o $@ $(RECORD_MPI_SRCS) $(RECORD_LINK)

lib/tr/libtr-cuda.so: $(RECORD_CUDA_SRCS) record/cuda/cudarec.h lib/tr/libtr-log.so
	$(CC) $(RECORD_FLAGS) -I$(CUDA_HOME)/include -shared -o $@ $(RECORD_CUDA_SRCS) $(RECORD_LINK) \
		-L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcupti

# what tr-analyze --mpi loads (cmd/fan/fan.h): MPI only there; what it uses of
# libstream and tool.c comes from tr-analyze, which exports its symbols.
# Built with tr-analyze's sanitizer, which it runs in (its rank 0 reader's thread too)
FAN_SRCS = cmd/fan/fan.c cmd/fan/ids.c cmd/fan/port.c cmd/fan/nap.c
# (every header it may include a prerequisite: one -MF file cannot list
# the headers of several sources, and a struct of libstream's that changed
# under a stale module is memory corrupted at run time)
lib/tr/libtr-fan.so: $(FAN_SRCS) $(wildcard cmd/fan/*.h libstream/*.h analysis/*.h cmd/common/*.h cmd/output/*.h)
	@mkdir -p lib/tr
	$(MPICC) $(RECORD_FLAGS) $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer) \
		-shared -o $@ $(FAN_SRCS)

lib/tr/libtr-omp.so: record/omp/ompt.c lib/tr/libtr-log.so
	$(CC) $(RECORD_FLAGS) -idirafter $(OMPT_INC) -shared -o $@ record/omp/ompt.c $(RECORD_LINK)

# the CUDA collector's cost per CUPTI record (bench/record)
bench/cupti-records: bench/cupti-records.c record/cuda/activity.c $(RECORD_LOG_SRCS) record/cuda/cudarec.h \
		record/log.h
	$(CC) $(RECORD_FLAGS) -I$(CUDA_HOME)/include -o $@ $(filter %.c,$^) -lpthread

# the CUDA collector's record handling fed CUPTI's structs, without a GPU (tests/3006)
tests/helper/cupti-feed: tests/helper/cupti-feed.c record/cuda/activity.c record/cuda/api.c $(RECORD_LOG_SRCS) \
		record/cuda/cudarec.h record/log.h
	$(CC) $(RECORD_FLAGS) -I$(CUDA_HOME)/include -o $@ $(filter %.c,$^) -lpthread

# a program with NVTX ranges and nothing else, for the collector's NVTX side (tests/3006)
tests/helper/nvtx-ranges: tests/helper/nvtx-ranges.c
	$(CC) $(RECORD_FLAGS) -I$(CUDA_HOME)/include -o $@ $< -ldl

libstream/libstream.a: $(LIBSTREAM_OBJS)
	$(AR) rcs $@ $^

formats/otf2/libotf2in.a: $(OTF2IN_OBJS)
	$(AR) rcs $@ $^

formats/trlog/libtrlogin.a: $(TRLOGIN_OBJS)
	$(AR) rcs $@ $^

formats/kineto/libkinetoin.a: $(KINETOIN_OBJS)
	$(AR) rcs $@ $^

formats/nsys/libnsysin.a: $(NSYSIN_OBJS)
	$(AR) rcs $@ $^

formats/otf2/libotf2out.a: $(OTF2OUT_OBJS)
	$(AR) rcs $@ $^

# thin: members keep their paths (analysis/deps.o, analysis/gpu/deps.o, ...)
analysis/libanalysis.a: $(ANALYSIS_OBJS)
	rm -f $@
	$(AR) rcsT $@ $^

bin/tr-read: cmd/tr-read.o cmd/common/progress.o cmd/common/selection.o formats/readers.o formats/stdin.o $(TOOL_OBJS) formats/otf2/libotf2in.a formats/trlog/libtrlogin.a \
		formats/kineto/libkinetoin.a formats/nsys/libnsysin.a libstream/libstream.a
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(OTF2_LIBS) $(LIBS) $(TRLOGIN_LIBS) -lz -lsqlite3

# the rating as a table, and told in words
RANK_TABLE_OBJS = cmd/render/rank-table.o cmd/render/rating-words.o cmd/render/readable.o cmd/render/pattern-words.o cmd/render/xml.o

bin/tr-rank: cmd/render/rank-diff.o $(RANK_TABLE_OBJS)
bin/tr-record: cmd/common/libdir.o

# the stages of the filters in one process, on threads (cmd/run/chain.c)
bin/tr-analyze: cmd/tr-analyze.o cmd/fan/fan-load.o cmd/common/libdir.o cmd/run/chain.o cmd/output/apart.o cmd/output/stream-file.o cmd/output/staging.o cmd/output/archive.o cmd/output/otf2-write.o cmd/common/progress.o cmd/common/selection.o \
		$(RANK_TABLE_OBJS) formats/readers.o formats/stdin.o formats/otf2/libotf2in.a formats/trlog/libtrlogin.a \
		formats/kineto/libkinetoin.a formats/nsys/libnsysin.a formats/otf2/libotf2out.a $(STAGE_OBJS)
	@mkdir -p bin
	$(CC) $(LDFLAGS) -rdynamic -o $@ $^ $(OTF2_LIBS) $(LIBS) $(TRLOGIN_LIBS) -lz -lsqlite3 -lpthread -ldl

bin/tr-otf2: cmd/tr-otf2.o cmd/output/apart.o cmd/output/otf2-write.o cmd/output/archive.o cmd/output/staging.o cmd/common/progress.o $(TOOL_OBJS) formats/otf2/libotf2out.a \
		libstream/libstream.a
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(OTF2_LIBS) $(LIBS)

bin/tr-deps bin/tr-clock bin/tr-waits bin/tr-critpath bin/tr-rank bin/tr-project: bin/tr-%: cmd/tr-%.o \
		$(STAGE_OBJS)
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) -lpthread

# the pictures of a stream: the definitions they name things by
bin/tr-chrome: cmd/tr-chrome.o cmd/render/chrome.o cmd/render/json-text.o cmd/render/names.o $(TOOL_OBJS) libstream/libstream.a
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

bin/tr-svg: cmd/tr-svg.o cmd/render/timeline.o cmd/render/timeline-data.o cmd/render/json-text.o cmd/render/xml.o cmd/render/names.o $(TOOL_OBJS) libstream/libstream.a
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

# the report: the rating, charts and the timeline in one HTML page
bin/tr-report: cmd/tr-report.o cmd/render/report.o cmd/render/timeline.o cmd/render/timeline-data.o cmd/render/json-text.o cmd/render/timeline-zoom.o cmd/render/names.o cmd/render/page.o cmd/render/diff-page.o \
		$(RANK_TABLE_OBJS) cmd/render/rank-diff.o $(STAGE_OBJS)
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

bin/tr-%: cmd/tr-%.o $(TOOL_OBJS) libstream/libstream.a
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

tests/helper/an-unit: tests/helper/an-unit.o analysis/libanalysis.a libstream/libstream.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

# preloaded into tools under test, sanitized or not: built plain
tests/helper/libfault.so: tests/helper/fault.c
	$(CC) -std=gnu11 -Wall -Wextra -O2 -fPIC -shared -o $@ $< -ldl

# preloaded into a recorded program only (never a sanitized tool): built plain
tests/helper/libfail-malloc.so: tests/helper/fail-malloc.c
	$(CC) -std=gnu11 -Wall -Wextra -O2 -fPIC -shared -o $@ $< -ldl

tests/helper/trlog-skew: tests/helper/trlog-skew.o libstream/libstream.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

# programs tr-record records in the tests and benchmarks: built plain, as a user's would be
bench/record-calls: bench/record-calls.c
	$(MPICC) -std=gnu11 -O2 -g -Wall -o $@ $<

MPIFC ?= mpif90
tests/helper/mpi-patterns: tests/programs/mpi-patterns.c
	$(MPICC) -std=gnu11 -O2 -g -Wall -o $@ $<

tests/helper/omp-patterns: tests/programs/omp-patterns.c
	clang -std=gnu11 -O2 -g -Wall -fopenmp -o $@ $<

tests/helper/mpi-patterns-f: tests/programs/mpi-patterns.F90
	$(MPIFC) -O2 -g -Wall -o $@ $<

tests/helper/mpi-patterns-f08: tests/programs/mpi-patterns.F90
	$(MPIFC) -DF08 -O2 -g -Wall -o $@ $<

tests/helper/ls-unit: tests/helper/ls-unit.o libstream/libstream.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

bench/ls-bench: bench/ls-bench.o libstream/libstream.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

bench/gen-otf2: bench/gen-otf2.o libstream/libstream.a
	$(CC) $(LDFLAGS) -o $@ $^ $(OTF2_LIBS) $(LIBS)

bench/otf2-read: bench/otf2-read.o
	$(CC) $(LDFLAGS) -o $@ $^ $(OTF2_LIBS)

%.o: %.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

check: all
	tests/run

# make check-threads: the tests of the threaded parts (tr-critpath -j,
# tr-analyze's stages) under ThreadSanitizer, after make clean; make SANITIZE=thread
THREAD_TESTS = tests/1005-critpath.bats tests/4004-critpath-corpus.bats tests/3009-analyze.bats \
	tests/4012-analyze-corpus.bats

check-threads: all
	TSAN_OPTIONS=halt_on_error=1 tests/run $(THREAD_TESTS)

# make fuzz [FUZZ_SECONDS=N]: the libFuzzer targets of tests/fuzz, built
# with clang (AddressSanitizer and UBSan on) and run N seconds each
FUZZ_CC = clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS = -std=gnu11 -D_GNU_SOURCE -DTR_VERSION='"$(VERSION)"' -DLS_CHECK_BUILD -g -O1 \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	$(shell pkg-config --cflags msgpack otf2)
FUZZ_STAGES = deps clock project waits critpath rank
FUZZ_RENDERERS = svg report chrome
FUZZ_TARGETS = read front $(FUZZ_STAGES) $(FUZZ_RENDERERS) otf2out otf2in trlogin kinetoin nsysin
FUZZ_BINS = $(addprefix tests/fuzz/out/fuzz-,$(FUZZ_TARGETS))
FUZZ_HEADERS = $(wildcard libstream/*.h analysis/*.h analysis/*/*.h formats/*.h formats/otf2/*.h formats/trlog/*.h \
	formats/kineto/*.h formats/nsys/*.h cmd/*.h cmd/*/*.h tests/fuzz/*.h)
LIBSTREAM_SRCS = $(LIBSTREAM_OBJS:.o=.c)
ANALYSIS_SRCS = $(ANALYSIS_OBJS:.o=.c)

tests/fuzz/out/fuzz-read: tests/fuzz/read.c tests/fuzz/input.c $(LIBSTREAM_SRCS) $(FUZZ_HEADERS)
	@mkdir -p tests/fuzz/out
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(filter %.c,$^) $(LIBS)

tests/fuzz/out/fuzz-front: tests/fuzz/front.c $(LIBSTREAM_SRCS) $(FUZZ_HEADERS)
	@mkdir -p tests/fuzz/out
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(filter %.c,$^) $(LIBS)

$(addprefix tests/fuzz/out/fuzz-,$(FUZZ_STAGES)): tests/fuzz/out/fuzz-%: tests/fuzz/stage.c \
		tests/fuzz/input.c cmd/run/stage.c cmd/run/maxmem.c cmd/common/tool.c $(ANALYSIS_SRCS) $(LIBSTREAM_SRCS) $(FUZZ_HEADERS)
	@mkdir -p tests/fuzz/out
	$(FUZZ_CC) $(FUZZ_FLAGS) -DFUZZ_$(shell echo $* | tr a-z A-Z) -o $@ $(filter %.c,$^) $(LIBS) \
		-lpthread

$(addprefix tests/fuzz/out/fuzz-,$(FUZZ_RENDERERS)): tests/fuzz/out/fuzz-%: tests/fuzz/render.c \
		tests/fuzz/input.c cmd/common/tool.c $(wildcard cmd/render/*.c) $(ANALYSIS_SRCS) $(LIBSTREAM_SRCS) \
		$(FUZZ_HEADERS)
	@mkdir -p tests/fuzz/out
	$(FUZZ_CC) $(FUZZ_FLAGS) -DFUZZ_$(shell echo $* | tr a-z A-Z) -o $@ $(filter %.c,$^) $(LIBS) -lpthread

tests/fuzz/out/fuzz-otf2out: tests/fuzz/otf2out.c tests/fuzz/input.c cmd/output/staging.c \
		$(OTF2OUT_OBJS:.o=.c) $(LIBSTREAM_SRCS) $(FUZZ_HEADERS)
	@mkdir -p tests/fuzz/out
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(sort $(filter %.c,$^)) $(OTF2_LIBS) $(LIBS)

tests/fuzz/out/fuzz-otf2in: tests/fuzz/otf2in.c tests/fuzz/input.c cmd/output/staging.c \
		$(OTF2IN_OBJS:.o=.c) $(LIBSTREAM_SRCS) $(FUZZ_HEADERS)
	@mkdir -p tests/fuzz/out
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(sort $(filter %.c,$^)) $(OTF2_LIBS) $(LIBS)

# the readers of files: one source, a target each
tests/fuzz/out/fuzz-trlogin: tests/fuzz/reader.c tests/fuzz/input.c $(TRLOGIN_OBJS:.o=.c) $(LIBSTREAM_SRCS) \
		$(FUZZ_HEADERS)
	@mkdir -p tests/fuzz/out
	$(FUZZ_CC) $(FUZZ_FLAGS) -DFUZZ_TRLOGIN -o $@ $(filter %.c,$^) $(LIBS) $(TRLOGIN_LIBS)

tests/fuzz/out/fuzz-kinetoin: tests/fuzz/reader.c tests/fuzz/input.c $(KINETOIN_OBJS:.o=.c) $(LIBSTREAM_SRCS) \
		$(FUZZ_HEADERS)
	@mkdir -p tests/fuzz/out
	$(FUZZ_CC) $(FUZZ_FLAGS) -DFUZZ_KINETOIN -o $@ $(filter %.c,$^) $(LIBS) -lz

tests/fuzz/out/fuzz-nsysin: tests/fuzz/reader.c tests/fuzz/input.c $(NSYSIN_OBJS:.o=.c) $(LIBSTREAM_SRCS) \
		$(FUZZ_HEADERS)
	@mkdir -p tests/fuzz/out
	$(FUZZ_CC) $(FUZZ_FLAGS) -DFUZZ_NSYSIN -o $@ $(filter %.c,$^) $(LIBS) -lsqlite3

fuzz: all $(FUZZ_BINS)
	tests/fuzz/run $(FUZZ_SECONDS) $(FUZZ_TARGETS)

bench: all
	bench/run
	bench/analyze
	bench/mpi
	bench/readers
	bench/record

# make bench-analyze: tr-analyze next to the filter pipeline and a plain libotf2 read (also part of make bench)
bench-analyze: all
	bench/analyze

# make bench-mpi: tr-analyze --mpi's time and memory per rank at P = 1, 2, 4 (also part of make bench)
bench-mpi: all
	bench/mpi

# make bench-readers: tr-read of Kineto JSON and Nsight SQLite against their floors (also part of make bench)
bench-readers: all
	bench/readers

# make bench-record: only the cost of recording (also part of make bench)
bench-record: all
	bench/record

bench-mem: all
	bench/mem

# make bench-casita TR_CASITA=path/to/casita: tr-analyze next to CASITA 1.9
# (built outside the checkout: github.com/rdietric/casita, cmake) on every
# archive of ../shared/corpus and on two generated archives of 2.3 M events
# each (MPI + CUDA, 2 ranks; GPU-heavy, 4 ranks: issue 52's), wall time,
# median of 5 runs each
CORPUS ?= ../shared/corpus
CASITA_ARCHIVES = bench/out/casita-r2/traces.otf2 bench/out/casita-r4g/traces.otf2
bench/out/casita-r2/traces.otf2: bench/gen-otf2
	bench/gen-otf2 -r 2 -t 1 -i 40000 $(@:.otf2=) > /dev/null
bench/out/casita-r4g/traces.otf2: bench/gen-otf2
	bench/gen-otf2 -r 4 -t 1 -g 1 -i 20000 $(@:.otf2=) > /dev/null
bench-casita: all $(CASITA_ARCHIVES)
	@[ -x "$(TR_CASITA)" ] || { echo "make bench-casita needs TR_CASITA=path/to/casita (a CASITA you built)" >&2; exit 1; }
	PATH="$(CURDIR)/bin:$$PATH" tools/casita-speed "$(TR_CASITA)" "$(CORPUS)" $$(ls $(CORPUS)/otf2) $(CASITA_ARCHIVES)

# make bench-project: tr-project's projections of real 2-rank MPI runs
# (mpirun), and of a kernel's speed-up on 1 to 4 streams of an H100
# (tests/data/gpu/streams), against the runs they project, beside the
# run-to-run spread
bench-project: all
	bench/accuracy/run
	bench/accuracy/gpu

# make bench-json: libstream's NDJSON parser against yajl doing the same
# (libyajl-dev, not a dependency of the tools: apt-get install libyajl-dev)
bench/json-parse: bench/json-parse.c libstream/libstream.a
	@pkg-config --exists yajl || { echo "make bench-json needs libyajl-dev" >&2; exit 1; }
	$(CC) $(ALL_CFLAGS) $(shell pkg-config --cflags yajl 2>/dev/null) $(LDFLAGS) -o $@ \
		bench/json-parse.c libstream/libstream.a $(shell pkg-config --libs yajl 2>/dev/null) $(LIBS)

bench-json: all bench/json-parse
	bench/json

# the floor of reading a Kineto trace in make bench: yajl alone (where libyajl-dev is)
bench/yajl-scan: bench/yajl-scan.c
	@pkg-config --exists yajl || { echo "the Kineto floor needs libyajl-dev" >&2; exit 1; }
	$(CC) $(ALL_CFLAGS) $(shell pkg-config --cflags yajl 2>/dev/null) $(LDFLAGS) -o $@ bench/yajl-scan.c \
		$(shell pkg-config --libs yajl 2>/dev/null) -lz

# the program the example records, built as a user's would be; its CUDA
# variant where nvcc is (run where a GPU is)
examples/imbalance: examples/imbalance.c
	$(MPICC) -std=gnu11 -O2 -g -Wall -o $@ $<

NVCC = $(CUDA_HOME)/bin/nvcc
EXAMPLE_CUDA = $(if $(wildcard $(NVCC)),examples/imbalance-cuda)

examples/imbalance-cuda: examples/imbalance-cuda.cu
	$(NVCC) -O2 $(shell $(MPICC) --showme:compile) -o $@ $< $(shell $(MPICC) --showme:link)

example: all $(EXAMPLE_CUDA)
	pipelines/example.sh

deps:
	tools/deps

install: $(PROGRAMS) $(COLLECTORS) $(MODULES)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7 \
		$(DESTDIR)$(PIPELINEDIR) $(DESTDIR)$(LIBTRDIR)
	install -m 755 $(PROGRAMS) $(DESTDIR)$(BINDIR)
	install -m 755 $(COLLECTORS) $(MODULES) $(DESTDIR)$(LIBTRDIR)
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(MAN7) $(DESTDIR)$(MANDIR)/man7
	install -m 644 $(PIPELINES) $(DESTDIR)$(PIPELINEDIR)
	install -m 755 $(PIPELINE_SCRIPTS) $(DESTDIR)$(PIPELINEDIR)

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(PROGRAMS)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man7/,$(notdir $(MAN7)))
	rm -f $(addprefix $(DESTDIR)$(PIPELINEDIR)/,$(notdir $(PIPELINES) $(PIPELINE_SCRIPTS)))
	rm -f $(addprefix $(DESTDIR)$(LIBTRDIR)/,$(notdir $(COLLECTORS) $(MODULES)))
	-rmdir $(DESTDIR)$(LIBTRDIR) 2>/dev/null
	-rmdir $(DESTDIR)$(PIPELINEDIR) $(DESTDIR)$(PREFIX)/share/tr 2>/dev/null

clean:
	rm -rf bin lib $(PROGRAMS) $(HELPERS) examples/imbalance examples/imbalance-cuda bench/json-parse bench/yajl-scan tests/fuzz/out libstream/libstream.a formats/otf2/libotf2in.a \
		analysis/libanalysis.a formats/otf2/libotf2out.a formats/trlog/libtrlogin.a formats/kineto/libkinetoin.a formats/nsys/libnsysin.a
	find . -name '*.o' -delete -o -name '*.d' -delete

.PHONY: all check check-threads fuzz bench bench-analyze bench-mpi bench-readers bench-record bench-mem bench-casita bench-project example deps install uninstall clean
.SECONDARY:

-include $(shell find . -name '*.d' 2>/dev/null)
