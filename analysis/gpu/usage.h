/*
 * What a process's GPU did, for tr-rank's offload summary (CASITA's
 * offloading hints): how long some of its GPU streams were busy, in
 * kernels, in copies; how long copies ran beside kernels (overlap of
 * transfer and compute) and kernels beside kernels; and how long kernels
 * took to start on an idle GPU after their launch returned (kernel
 * start-up delay). Early synchronizations (a host call blocked on the
 * GPU: blame_kernel) and late ones (the GPU idle before the call that
 * waited for it: blame_sync) are tr-waits' patterns.
 *
 * One sweep over the events in time order: between two events of a
 * process's GPU streams, what ran there is what ran since the first. A
 * kernel is tied to its launch by tr-deps's launch edge, which follows
 * the kernel's enter. Memory: a few numbers per process, and the launches
 * whose kernel has not begun yet (or kernels whose launch has not
 * returned).
 */
#ifndef AN_GPU_USAGE_H
#define AN_GPU_USAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../libstream/defs.h"
#include "../../libstream/idmap.h"
#include "../../libstream/record.h"
#include "../trace.h"

/* One process's figures (ns, and counts). */
struct an_gpu_usage {
	uint64_t busy;			/* a kernel or a copy running on one of its GPU streams */
	uint64_t kernel, copy;		/* a kernel running; a copy or set running */
	uint64_t copy_kernel;		/* a copy and a kernel at once */
	uint64_t kernel_kernel;		/* two kernels or more at once */
	uint64_t kernels, copies;	/* how many */
	uint64_t startups, startup;	/* kernels that started on an idle GPU after their
					   launch returned; the time from then to their start */
};

/* Where a process's sweep is: what runs since when. */
struct an_gpu_usage_sweep {
	int64_t at;			/* its last GPU event's time */
	int64_t idle_since;		/* when nothing ran last began */
	uint32_t kernels, copies;	/* running now */
};

/* The kernel that began last, until its launch edge (tr-deps writes it next). */
struct an_gpu_usage_began {
	uint64_t id;			/* its enter; UINT64_MAX: none */
	int64_t t, idle_since;		/* when it began; since when its GPU was idle */
	uint32_t proc;
	bool idle;			/* nothing ran on its process's GPU streams as it began */
};

struct an_gpu_usage_state {
	struct an_gpu_usage *proc;	/* per process index */
	struct an_gpu_usage_sweep *sweep;
	uint32_t cap;
	struct an_gpu_usage_began began;
	struct ls_idmap pending;	/* a launch (its enter) -> slot of launch_end */
	int64_t *launch_end;		/* a pool: a launch's return; INT64_MIN: its kernel began first */
	uint32_t nslots, slots_cap, free_slot;
};

void an_gpu_usage_init(struct an_gpu_usage_state *o);

/* Process index i was defined. Returns 0 or LS_ERR_NOMEM. */
int an_gpu_usage_process(struct an_gpu_usage_state *o, uint32_t i);

/*
 * Take event rec (ev) with the frame it entered or left (f: enter, after
 * it was pushed; leave, before it is popped; NULL for other events).
 * Returns 0 or LS_ERR_NOMEM.
 */
int an_gpu_usage_event(struct an_gpu_usage_state *o, const struct ls_defs *d, enum ls_kind kind,
		       const struct an_event *ev, const struct an_frame *f);

/*
 * Take an edge: a launch edge into the kernel that just began gives its
 * start-up delay. Returns 0 or LS_ERR_NOMEM.
 */
int an_gpu_usage_edge(struct an_gpu_usage_state *o, const struct an_edge_rec *e);

/* Whether process index i's GPU ran anything. */
static inline bool an_gpu_usage_any(const struct an_gpu_usage_state *o, uint32_t i)
{
	return o->proc[i].kernels || o->proc[i].copies;
}

void an_gpu_usage_release(struct an_gpu_usage_state *o);

#endif
