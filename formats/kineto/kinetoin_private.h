/* What the Kineto reader's files share: the files, the first pass's findings, the process groups. */
#ifndef KINETOIN_PRIVATE_H
#define KINETOIN_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../libstream/front.h"
#include "../../libstream/idmap.h"
#include "../../libstream/xsort.h"
#include "../regions.h"
#include "json.h"

/* What a trace event is to the reader, by its category (and phase). */
enum kclass {
	KC_HOST,	/* an activity of a host thread: cpu_op, user_annotation, python_function, ... */
	KC_API,		/* cuda_runtime, cuda_driver */
	KC_KERNEL, KC_COPY, KC_SET,	/* on a GPU stream */
	KC_SYNC,	/* cuda_sync: what a call synchronized with (references, no activity) */
	KC_META,	/* M: process and thread names */
	KC_SPAN,	/* Trace: the profiler's own span (when it recorded) */
	KC_SKIP,	/* kept out: flows, instants, counters, GPU-side annotations */
};

/* A stream of a file by its pair of ids: a host thread's (pid, tid), a GPU stream's (device, stream). */
struct kstream {
	int64_t a, b;
	uint32_t id;		/* stream id */
};

/* A file's streams of one kind, found by their pair (kineto_stream). */
struct kstreams {
	struct kstream *v;
	uint32_t n, cap;
	struct ls_idmap ix;	/* hash of the pair -> index */
};

/*
 * What a correlation id says of its call (sorted by corr: refs.c): the GPU
 * stream it refers to, the CUDA event; where the trace names the stream a
 * synchronization waited for but not the event record (older Kineto),
 * that stream. The first 8 bytes are the external sort's.
 */
struct ksays {
	uint64_t sort;
	int64_t corr;
	uint32_t gpu;		/* index into the file's gpus, or UINT32_MAX */
	uint32_t waited;	/* the same, or UINT32_MAX */
	int64_t event;		/* or -1 */
};

/* A call of the first pass, in the file's order (sorted by corr). */
struct kcall {
	uint64_t sort;
	int64_t corr;		/* or -1 */
	uint64_t ordinal;	/* its place among the file's calls */
	uint32_t region, unused;
};

/* A call with what its correlation id says, for the second pass (sorted by file and ordinal). */
struct kref {
	uint64_t sort;
	uint32_t file, region;
	uint64_t ordinal;
	uint32_t gpu, waited;
	int64_t event;
};

/* A name a metadata event gives a process (tid -1) or thread. */
struct kname {
	int64_t pid, tid;
	char *name;
};

/* A file's NCCL collectives on one process group: their sequence numbers. */
struct kseq {
	uint32_t pg;		/* index into in->pgs */
	int64_t lo, hi;
	uint64_t n;
};

struct kfile {
	const char *path;
	struct kj_top top;
	uint32_t process;
	struct kstreams hosts;		/* by (pid, tid) */
	struct kstreams gpus;		/* by (device, stream) */
	uint64_t calls;			/* the calls read in the pass */
	struct kname *names;
	uint32_t nnames, names_cap;
	struct kseq *seqs;
	uint32_t nseqs, seqs_cap;
	int64_t first, last;		/* ns as the file gives them (before its base) */
	bool any;
	int64_t host_first, host_last;	/* of its host threads' activities, apart: clipped to the span */
	bool host_any;
	int64_t span_first, span_last;	/* the profiler's span (its Trace records), where given */
	bool span;
};

/* A process group NCCL collectives run on, as the traces name it. */
struct kpg {
	char *name;
	uint32_t *ranks;		/* its members' ranks in the world, in its rank order */
	uint32_t nranks;
	bool ranks_differ;		/* files gave it other members */
	bool matched;			/* every member's trace given, their sequence numbers agree */
	int64_t lo, hi;			/* the sequence numbers every member recorded */
	uint32_t comm;			/* its comm id, where matched */
};

/* Trace events of a file by what the reader did with them, for --stats. */
enum { KS_READ, KS_SKIPPED };

struct kinetoin {
	struct kfile *files;
	uint32_t nfiles, files_cap;
	struct fmt_regions regions;
	struct kpg *pgs;
	uint32_t npgs, pgs_cap;
	uint32_t nstreams, ncomms;
	int64_t origin;			/* the absolute ns that becomes 0 */
	uint64_t counts[20][2];		/* by the kinds of kineto_count: read, skipped */
	/* oddities */
	uint64_t cut, no_time, clipped, nccl_bare, nccl_p2p, nccl_unmatched, nccl_no_seq, ranks_without_trace;
	uint64_t foreign;		/* events whose category names an accelerator tr-read does not read */
	char foreign_cat[32];		/* the first such category */
	struct ls_front *front;
	struct ls_writer *w;
	char *err;
	size_t errlen;
	bool label;			/* messages name the file (several, or a folder's) */
	struct ls_xsort says, calls;	/* the file's first pass: what correlation ids say, its calls */
	struct ls_xsort refs;		/* every file's calls with what their ids say (struct kref) */
	struct kfile *f;		/* the file being read */
	struct kj *j;			/* its reading */
	uint64_t read_before, input;	/* bytes of the passes' files read before it, of all of them */
	uint64_t since;			/* events since the front was last told how far the reading is */
};

/* look.c: the class of an event; the first pass over one event (kj_walk's fn). */
enum kclass kineto_class(const struct kev *ev);
int kineto_look(void *ctx, const struct kev *ev);

/*
 * A host thread's activity [*t0, *t1] of f clipped to the profiler's span, where f
 * gives one: true where it reached outside (it lies at the span's edge,
 * 0 long, where it lay wholly outside).
 */
bool kineto_clip(const struct kfile *f, int64_t *t0, int64_t *t1);

/* After the first pass over f: its host activities' times, clipped, in its first and last. */
void kineto_span_done(struct kfile *f);
void kineto_file_release(struct kfile *f);

/* look.c: the index in t of the stream of pair (a, b), made where new if make; UINT32_MAX where not found. */
uint32_t kineto_stream(struct kstreams *t, int64_t a, int64_t b, bool make, int *rc);

/* look.c: an event's region (role and paradigm by its class and name), made where new. */
int kineto_region(struct kinetoin *in, const struct kev *ev, enum kclass c, uint32_t *id);

/*
 * refs.c: what correlation ids say, joined to the calls of a file after
 * its first pass, on disk past a bound (memory stays flat however many
 * calls), read back call by call in the second. A call that would enqueue
 * GPU work but whose correlation id no GPU activity has (a set of 0 bytes)
 * becomes a plain API call, of the region "(no GPU activity in the trace) NAME".
 */
int kineto_refs_init(struct kinetoin *in);
int kineto_by_corr_says(const void *a, const void *b);
int kineto_by_corr_call(const void *a, const void *b);
int kineto_says(struct kinetoin *in, int64_t corr, uint32_t gpu, int64_t event, uint32_t waited);
int kineto_call(struct kinetoin *in, int64_t corr, uint32_t region);
int kineto_join(struct kinetoin *in);
int kineto_refs_done(struct kinetoin *in);
const struct kref *kineto_ref(struct kinetoin *in);
void kineto_refs_release(struct kinetoin *in);

/* events.c: the second pass over one event (kj_walk's fn). */
int kineto_events(void *ctx, const struct kev *ev);

/* nccl.c: a kernel's NCCL metadata in the first pass; the process groups matched across files. */
int kineto_nccl_look(struct kinetoin *in, const struct kev *ev);
int kineto_nccl_match(struct kinetoin *in);
int kineto_nccl_comms(struct kinetoin *in);
/* The comm of a kernel's collective where matched (its op into *op), else UINT32_MAX. */
uint32_t kineto_nccl_comm(struct kinetoin *in, const struct kev *ev, const char **op);
/* The bytes a kernel's collective sent and received: its In and Out msg nelems times its dtype's size (0: not known). */
void kineto_nccl_bytes(const struct kev *ev, uint64_t *sent, uint64_t *recvd);
void kineto_nccl_release(struct kinetoin *in);

/* kinetoin.c: how far the reading is, for a progress line (each event). */
void kineto_progress(struct kinetoin *in);

/* kinetoin.c: count an event of the input for --stats. */
void kineto_count(struct kinetoin *in, const struct kev *ev, int how);

#endif
