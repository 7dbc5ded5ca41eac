/*
 * Inside tr-deps' CUDA rules (deps.h), one concept per file: the work a
 * GPU runs and its queues (work.c), what a stream's work runs after
 * (streams.c), a launch and the device activity that runs it (launch.c),
 * what a synchronization waits for (sync.c), CUDA events and stream waits
 * (events.c); deps.c takes the events and calls them. Only those files
 * include this.
 */
#ifndef AN_GPU_DEPS_PRIVATE_H
#define AN_GPU_DEPS_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../libstream/defs.h"
#include "deps.h"

/* FIFO rings of work indices. */

static inline uint32_t an_gpu_ring_front(const struct an_ring *r)
{
	return r->n ? r->v[r->head] : LS_NONE;
}

static inline uint32_t an_gpu_ring_back(const struct an_ring *r)
{
	return r->n ? r->v[(r->head + r->n - 1) & (r->cap - 1)] : LS_NONE;
}

static inline void an_gpu_ring_pop(struct an_ring *r)
{
	r->head = (r->head + 1) & (r->cap - 1);
	r->n--;
}

/*
 * work.c: the work a GPU runs: made by whichever side is seen first (the
 * call or the device activity), freed when unreferenced; its kinds; the
 * streams a call names
 */

int an_gpu_ring_push(struct an_ring *r, uint32_t x);

/* New work of kind on process proc, no reference held yet, in *out: 0, or LS_ERR_NOMEM. */
int an_gpu_work_new(struct an_gpu_deps *o, uint32_t proc, uint8_t kind, uint32_t *out);

/* Hold work i, and let go of it: the last reference frees it and the work it depended on. */
void an_gpu_work_ref(struct an_gpu_deps *o, uint32_t i);

void an_gpu_work_unref(struct an_gpu_deps *o, uint32_t i);

/* Whether work w is still held. */
bool an_gpu_work_live(const struct an_work *w);

/* Set *slot to work i (or LS_NONE), holding a reference. */
void an_gpu_work_hold(struct an_gpu_deps *o, uint32_t *slot, uint32_t i);

/* Work w runs after work from (a stream_wait or null_stream edge once it begins): 0, or LS_ERR_NOMEM. */
int an_gpu_dep_add(struct an_gpu_deps *o, uint32_t w, uint32_t from, enum ls_edge type);

/* Whether work of kinds a and b can be the same (a copy of unknown direction goes with any copy). */
bool an_gpu_compatible(int a, int b);

/* The kind of work a host call of region r enqueues, or -1. */
int an_gpu_work_kind(const struct ls_defs *defs, uint32_t r);

/* The kind of work a device activity of region r runs, or -1. */
int an_gpu_device_kind(const struct ls_defs *defs, uint32_t r);

/* The GPU stream of process p a call's ref_stream names, or LS_NONE (a stream that is none of its GPU streams counted). */
uint32_t an_gpu_ref_stream(struct an_gpu_deps *o, struct an_item *it, uint32_t p);

/*
 * A synchronization's wait_stream (where the trace names the stream waited
 * for, not the event): the last work enqueued on it, or LS_NONE.
 */
uint32_t an_gpu_waited_work(struct an_gpu_deps *o, struct an_item *it, uint32_t p);

/*
 * streams.c: what a stream's work runs after: the null stream's order and
 * a stream's wait on an event, as edges into the work once it begins
 */

/* Stream s's next work will wait for work w too (each once). */
int an_gpu_wait_for(struct an_gpu_deps *o, uint32_t s, uint32_t w);

/* The legacy default stream of process p's device dev, or LS_NONE. */
uint32_t an_gpu_null_stream_of(const struct an_gpu_deps *o, uint32_t p, uint64_t dev);

/*
 * Work w is placed on stream s: it runs after what the null stream
 * serializes it with, and after the stream_wait its stream was told of.
 */
int an_gpu_place(struct an_gpu_deps *o, uint32_t w, uint32_t s);

/* Work w has ended: the edges that waited for it. */
int an_gpu_pending_edges(struct an_gpu_deps *o, uint32_t w);

/* The edges into work w, which began at its enter, from what it waited for. */
int an_gpu_began_after(struct an_gpu_deps *o, uint32_t w);

/*
 * launch.c: a launch (or copy, or set) and the device activity that runs
 * it: by correlation id, else in order per stream; an activity before its
 * call (clocks that disagree) adopted when the call comes
 */

/*
 * A host call enqueues work of kind k; returns its index in *out, with a
 * reference the caller lets go of (work whose device activity has already
 * ended may be held by nothing else).
 */
int an_gpu_enqueue(struct an_gpu_deps *o, struct an_item *it,
		   const struct an_event *ev, int k, bool blocking, uint32_t *out);

/* A device activity begins: the work it runs. */
int an_gpu_device_enter(struct an_gpu_deps *o, struct an_item *it,
			const struct an_event *ev, int k);

/* A device activity ends: so does its work. */
int an_gpu_device_leave(struct an_gpu_deps *o, const struct an_event *ev);

/*
 * sync.c: what a synchronization waits for (a stream, the device, an
 * event, a blocking copy), resolved once it has left and its work has
 * ended
 */

int an_gpu_sync_add(struct an_gpu_deps *o, uint32_t i, uint32_t w);

/* CUDA graphs (graphs.c) */

/*
 * Work w, which has begun, runs another activity, on stream s: a graph's
 * (one launch, one correlation id). 0, or LS_ERR_NOMEM.
 */
int an_gpu_graph_member(struct an_gpu_deps *o, uint32_t w);

/* An activity of graph w ended on stream s, event leave at t: 0, or LS_ERR_NOMEM. */
int an_gpu_graph_ended(struct an_gpu_deps *o, uint32_t w, uint32_t s, uint64_t leave, int64_t t);

/*
 * What waits for graph w (event to, of its own type) waits for its last
 * activity on each stream it ran on: an edge from each, in the order the
 * streams were first seen, none from one that ended after before (where
 * bounded). Returns how many, or a negative error.
 */
int an_gpu_graph_edges(struct an_gpu_deps *o, uint32_t w, uint64_t to, enum ls_edge type, bool bounded,
		       int64_t before);

/* Let go of what graph w keeps (its work is freed). */
void an_gpu_graph_free(struct an_gpu_deps *o, uint32_t w);

/* A synchronizing call begins: what it will wait for. */
int an_gpu_sync_begin(struct an_gpu_deps *o, struct an_frame *f, struct an_item *it,
		      const struct an_event *ev);

/* A synchronizing call (activity f) left: resolved now or once its work ends. */
int an_gpu_sync_leave(struct an_gpu_deps *o, const struct an_frame *f,
		      struct an_item *it, const struct an_event *ev);

/*
 * Resolve what waited of process proc and now can be, keeping the order
 * they came in. Only an event of the process itself changes what its
 * synchronizations wait for, so each is written after the event of its
 * own process that let it be, whatever other processes do (a shard of
 * processes analysed apart writes it where the whole trace would).
 */
int an_gpu_unpark(struct an_gpu_deps *o, uint32_t proc);

/*
 * events.c: CUDA events: what a record stands for, and a stream's wait on
 * one
 */

/*
 * The key of the CUDA event a call names in *key, or 0 (counted). Events
 * are addresses, too wide to pair with a process: each address gets a
 * number of its own, kept for the run. Returns 0 or LS_ERR_NOMEM.
 */
int an_gpu_event_key(struct an_gpu_deps *o, struct an_item *it, uint32_t p, uint64_t *key);

/* cuEventRecord: the event stands for the last work on its stream. */
int an_gpu_event_record(struct an_gpu_deps *o, struct an_item *it,
			const struct an_event *ev);

/*
 * cuStreamWaitEvent: the stream's next work waits for the event's work
 * (or, where the trace names the stream waited for and not the event, for
 * the last work enqueued on that stream).
 */
int an_gpu_stream_wait(struct an_gpu_deps *o, struct an_item *it,
		       const struct an_event *ev);

#endif
