/*
 * tr-waits for CUDA: wait states read off tr-deps' launch, sync, event,
 * stream_wait and null_stream edges, and GPU idleness.
 *
 * A synchronization's edges come together, right after the edge's target
 * is resolved, and so do the null_stream and stream_wait edges that hold
 * back one kernel or copy. Each such group is taken as one batch, decided
 * when the next record that is not one of them comes: one wait, until its
 * latest source ended.
 */
#ifndef AN_GPU_WAITS_H
#define AN_GPU_WAITS_H

#include <stdbool.h>
#include <stdint.h>

#include "../../libstream/record.h"
#include "../blame.h"
#include "../../libstream/idmap.h"
#include "../trace.h"
#include "../waitrec.h"

/* A device activity, kept while a wait may still be blamed on it. */
struct an_dev_act {
	uint64_t enter, leave, launcher;	/* launcher: the call's enter */
	int64_t t0, t1, ready;		/* ready: when it could have begun */
	uint32_t s, region;
	bool has_launcher, idle_blamed;
};

/* A host GPU call, kept for a while after it began. */
struct an_gcall {
	uint64_t enter, leave;
	int64_t t0, t1;
	uint64_t key;		/* queries: what they query (event or stream) */
	uint32_t s, region;
	uint8_t role;
	bool left, failed;
};

#define AN_GRING 64

/* The most recent records of a stream (pool indices), oldest first. */
struct an_gring {
	uint32_t v[AN_GRING];
	uint32_t head, n;
};

/* Per stream. */
struct an_gstream {
	struct an_gring acts;	/* GPU: finished activities */
	struct an_gring calls;	/* host: GPU calls */
	uint32_t running;	/* GPU: the open activity (pool index) */
	int64_t last_end;	/* GPU: when its last activity ended */
	uint64_t idle_mark;	/* host: its process's idle v when its top last changed */
	struct an_gcall *failed;	/* host: unsuccessful queries pending */
	uint32_t nfailed, failed_cap;
};

/* Per process: when every GPU stream of it is idle, who is busy. */
struct an_gidle {
	uint32_t running;	/* GPU activities open */
	uint32_t busy;		/* host streams inside an activity */
	bool any;		/* a GPU activity has ended */
	int64_t since, last;	/* idle since; accrued until */
	uint64_t ns;		/* idle time with a busy host */
	uint64_t v;		/* a busy thread's due so far, IDLE_UNITS per ns shared */
	uint64_t last_act;	/* the GPU activity that ended last */
	uint32_t last_s, last_r;	/* its stream, its region */
	struct an_interval iv;
	uint32_t *iv_s;		/* the stream of each share */
	struct ls_idmap ix;	/* activity -> its share */
	uint32_t iv_cap;
};

struct an_gpu_waits {
	struct an_dev_act *dev;
	uint32_t ndev, dev_cap, free_dev;
	struct an_gcall *call;
	uint32_t ncall, call_cap, free_call;
	struct ls_idmap dev_leave;	/* leave id -> dev, once ended */
	struct ls_idmap dev_enter;	/* enter id -> dev, while running */
	struct ls_idmap call_enter, call_leave;	/* -> call */
	struct an_gstream *gs;		/* per stream index */
	uint32_t gs_cap;
	struct an_gidle *idle;		/* per process index */
	uint32_t idle_cap;
	/* the synchronization, or the activity held back, being read */
	bool batch, held;		/* held: a held-back activity's */
	uint64_t to;
	uint32_t bcall;			/* the call */
	uint32_t hdev, hlast;		/* the activity held back, its latest source */
	uint8_t hpattern;		/* the latest source's edge's */
	uint32_t *bdev;			/* the devs its edges come from */
	uint32_t nbdev, bdev_cap;
	uint32_t *bss, bss_cap;		/* their streams (scratch) */
	struct an_interval scratch;
	uint32_t *sc_s;			/* the stream of each scratch share */
	uint32_t sc_cap;
	uint64_t stray;		/* edges naming activities not (or no longer) followed */
	const struct an_trace *tr;
	struct an_waitrec *out;
};

/* The rules see the trace state tr and write through out (both borrowed). */
void an_gpu_waits_init(struct an_gpu_waits *g, const struct an_trace *tr, struct an_waitrec *out);

/* A stream was defined (the last one). Returns 0 or LS_ERR_NOMEM. */
int an_gpu_waits_stream(struct an_gpu_waits *g);

/* Before an enter or leave at ev is applied to the stacks. */
int an_gpu_waits_before(struct an_gpu_waits *g, const struct an_event *ev);

/* After enter f was pushed; before leave f is popped. */
/* (the fields of a GPU call's item are read: its result, what a query asks of) */
int an_gpu_waits_enter(struct an_gpu_waits *g, const struct an_frame *f,
		    struct an_item *it, const struct an_event *ev);
int an_gpu_waits_leave(struct an_gpu_waits *g, const struct an_frame *f,
		    struct an_item *it, const struct an_event *ev);

/* After a leave was popped (the stream may now be idle). */
void an_gpu_waits_popped(struct an_gpu_waits *g, const struct an_event *ev);

/* A launch, sync, event, null_stream or stream_wait edge. */
int an_gpu_waits_edge(struct an_gpu_waits *g, enum ls_edge type, uint64_t from, uint64_t to);

/* Decide the batch read so far unless it continues it (NULL: the input has ended). */
int an_gpu_waits_flush(struct an_gpu_waits *g, struct an_item *it);

void an_gpu_waits_release(struct an_gpu_waits *g);

#endif
