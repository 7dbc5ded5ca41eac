/*
 * tr-deps for CUDA (and HIP): which host call enqueued each piece of device
 * work (launch edges), what each synchronization waited for (sync and event
 * edges), and the dependencies between GPU streams (stream_wait and
 * null_stream edges).
 *
 * A piece of work lives from the host call that enqueues it (a launch, an
 * asynchronous or blocking copy or set) to the end of the device activity
 * that runs it. It is matched to that activity by correlation id where both
 * sides carry one, else in FIFO order: the oldest work enqueued on the
 * activity's stream (the call's ref_stream), or the oldest of its kind
 * enqueued without a stream, whichever was enqueued first. Device clocks
 * drift from host clocks, so an activity may come before the call that
 * enqueued it: it waits (an orphan) for the next such call.
 */
#ifndef AN_GPU_DEPS_H
#define AN_GPU_DEPS_H

#include <stdbool.h>
#include <stdint.h>

#include "../../libstream/record.h"
#include "../../libstream/idmap.h"
#include "../edges.h"
#include "../trace.h"


/* LOST: its kind of device activity is not in the trace (never recorded). */
enum an_work_state { AN_WORK_QUEUED, AN_WORK_RUNNING, AN_WORK_DONE, AN_WORK_LOST };

struct an_work {
	uint64_t launch;	/* the enqueueing call's enter id */
	uint64_t enter, leave;	/* the device activity's */
	uint64_t key;		/* its entry in the correlation map, 0 none */
	int64_t t_launch, t0, t1;
	uint64_t placed;	/* order of placement on a stream, per process */
	uint32_t proc, stream;	/* stream index, LS_NONE until placed */
	uint32_t ran;		/* the stream it ran on, LS_NONE until it began */
	uint32_t refs;
	uint32_t deps;		/* its first dependency (an_wdep), LS_NONE */
	uint32_t tails;		/* a graph's: its last activity on each stream (an_gtail), LS_NONE */
	uint8_t kind;		/* enum an_kind */
	uint8_t state;		/* enum an_work_state */
	bool has_launch, synced, null_covered;
	bool graph;		/* a launch that ran more than one activity (a CUDA graph's) */
	bool blocking;		/* enqueued by a blocking copy or set */
};

/* Work that must end before another can start, on another stream. */
struct an_wdep {
	uint32_t work, next;
	uint8_t type;		/* LS_E_STREAM_WAIT or LS_E_NULL_STREAM */
};

/* A graph's last activity on one of the streams it ran on (graphs.c). */
struct an_gtail {
	uint64_t leave;
	int64_t t1;
	uint32_t stream, next;
};

/* An edge into work that began before the work it depends on ended. */
struct an_pending {
	uint64_t to;		/* the dependent work's enter */
	int64_t t;		/* its time */
	uint32_t work;		/* the work it waits for (a reference) */
	uint8_t type;		/* LS_E_STREAM_WAIT or LS_E_NULL_STREAM */
};

/* A FIFO of work indices. */
struct an_ring {
	uint32_t *v;
	uint32_t head, n, cap;	/* cap: 0 or a power of two */
};

struct an_gpu_stream {
	struct an_ring queue;	/* placed on it, not started */
	struct an_ring orphans;	/* begun on it before any call enqueued them */
	uint32_t last;		/* the last work placed on it */
	uint32_t running;	/* the work whose activity is open */
	/*
	 * the work begun last on it whose correlation id stays mapped (held):
	 * a graph's launch (cudaGraphLaunch) gives all its activities its
	 * correlation id, and they come until other work begins on the
	 * stream; LS_NONE: none
	 */
	uint32_t kept;
	uint32_t *waits;	/* stream_wait: what its next work waits for (each held) */
	uint32_t nwaits, waits_cap;
};

/*
 * Kinds of work, queued apart: a copy of unknown direction (a plain
 * cudaMemcpy) goes with a copy of any direction.
 */
enum an_kind { AN_KIND_KERNEL, AN_KIND_SET, AN_KIND_COPY, AN_KIND_HTOD,
	       AN_KIND_DTOH, AN_KIND_COPY_OTHER, AN_KINDS };

/* Per process: work enqueued without a stream, by kind. */
struct an_gpu_proc {
	struct an_ring unplaced[AN_KINDS];
	struct an_ring orphans[AN_KINDS];	/* of each kind, on any stream */
	uint32_t *streams;	/* its GPU stream indices */
	uint32_t nstreams, streams_cap;
	uint64_t placed;
	bool seen[AN_KINDS];	/* a device activity of the kind has been seen */
};

/* A synchronizing call: what it waits for, resolved at its leave. */
struct an_gsync {
	uint64_t leave;
	uint64_t event_key;	/* waiting for the event to be recorded: 0 none */
	uint32_t *target;	/* work indices */
	uint32_t n, cap;
	uint32_t s;
	uint32_t own;		/* a blocking copy's own copy, LS_NONE */
	uint8_t type;		/* LS_E_SYNC or LS_E_EVENT */
	bool left, failed, parked;
	bool implicit;		/* a copy, alloc or free: syncs as a side effect */
	/*
	 * a stream synchronization (or query) whose call names no stream: it
	 * waits for the last work on every GPU stream of its process that
	 * ended by the time it returned (t_leave), none that ran on past it
	 */
	bool unnamed;
	int64_t t_leave;
};

struct an_gpu_deps_stats {
	uint64_t no_launch;	/* device work no enqueueing call was found for */
	uint64_t never_ran;	/* enqueued work that never ran */
	uint64_t idle_syncs;	/* synchronizations that found no GPU work queued: ordinary, not odd */
	uint64_t unwaited;	/* work a synchronization naming no stream did not wait for */
	uint64_t unresolved;	/* synchronizations whose work never ended */
	uint64_t unrecorded;	/* event waits on events never recorded */
	uint64_t late;		/* correlations resolved after the device work began */
	uint64_t late_events;	/* event waits read before the event's record */
	uint64_t stray;		/* GPU calls naming a stream that is no GPU stream of their process */
	uint64_t untold;	/* GPU calls the trace gives without the event or stream they act on */
	uint64_t order;		/* dependencies that ended after their work began,
				   or never ended */
};

struct an_gpu_deps {
	struct an_work *work;
	uint32_t nwork, work_cap, free_work;
	struct an_wdep *dep;
	uint32_t ndep, dep_cap, free_dep;
	struct an_gtail *tail;
	uint32_t ntail, tail_cap, free_tail;
	struct an_gsync *sync;
	uint32_t nsync, sync_cap, free_sync;
	uint32_t *parked;	/* syncs left before their work ended */
	uint32_t nparked, parked_cap;
	struct an_pending *pending;	/* edges waiting for their work to end */
	uint32_t npending, pending_cap;
	struct an_gpu_stream *gs;	/* per stream index */
	uint32_t gs_cap;
	struct an_gpu_proc *gp;		/* per process index */
	uint32_t gp_cap;
	struct ls_idmap corr;		/* (process, corr) -> work */
	struct ls_idmap events;		/* (process, event number) -> work */
	struct ls_idmap event_numbers;	/* event address -> its number */
	const struct an_trace *tr;
	struct an_edges *out;
	struct an_gpu_deps_stats st;
};

/* The rules see the trace state tr and put what they find in out (both borrowed). */
void an_gpu_deps_init(struct an_gpu_deps *o, const struct an_trace *tr, struct an_edges *out);

/* A stream was defined (the last in the trace's defs). Returns 0 or LS_ERR_NOMEM. */
int an_gpu_deps_stream(struct an_gpu_deps *o);

/*
 * An enter or a leave (item it, as ev) of activity f on a stream (before
 * f is popped), its fields read where its rules need them (an_item_u64).
 * Returns 0, or a negative error.
 */
int an_gpu_deps_enter(struct an_gpu_deps *o, struct an_frame *f, struct an_item *it, const struct an_event *ev);
int an_gpu_deps_leave(struct an_gpu_deps *o, const struct an_frame *f, struct an_item *it,
		      const struct an_event *ev);

/* Whether a region of role r is one an_gpu_deps follows. */
bool an_gpu_deps_role(enum ls_role r);

/* End of input: count what stayed unresolved. */
void an_gpu_deps_finish(struct an_gpu_deps *o);

void an_gpu_deps_release(struct an_gpu_deps *o);

#endif
