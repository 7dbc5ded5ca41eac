/* What a process's GPU did: busy, overlap, kernel start-up delay. */
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "usage.h"

#define KERNEL_FIRST INT64_MIN	/* a pending entry: the kernel began before its launch returned */

void an_gpu_usage_init(struct an_gpu_usage_state *o)
{
	memset(o, 0, sizeof(*o));
	o->free_slot = UINT32_MAX;
	o->began.id = UINT64_MAX;
}

int an_gpu_usage_process(struct an_gpu_usage_state *o, uint32_t i)
{
	uint32_t cap = o->cap;

	if (ls_vec_room(&o->proc, &cap, i, sizeof(*o->proc)) < 0)
		return LS_ERR_NOMEM;
	cap = o->cap;
	if (ls_vec_room(&o->sweep, &cap, i, sizeof(*o->sweep)) < 0)
		return LS_ERR_NOMEM;
	o->cap = cap;
	memset(&o->proc[i], 0, sizeof(o->proc[i]));
	o->sweep[i] = (struct an_gpu_usage_sweep){ INT64_MIN, INT64_MIN, 0, 0 };
	return 0;
}

/* Up to t, process p's GPU ran what runs now. */
static void advance(struct an_gpu_usage_state *o, uint32_t p, int64_t t)
{
	struct an_gpu_usage_sweep *w = &o->sweep[p];
	struct an_gpu_usage *g = &o->proc[p];
	uint64_t dt;

	if (w->at != INT64_MIN && t > w->at) {
		dt = (uint64_t)t - (uint64_t)w->at;
		g->busy += w->kernels || w->copies ? dt : 0;
		g->kernel += w->kernels ? dt : 0;
		g->copy += w->copies ? dt : 0;
		g->copy_kernel += w->kernels && w->copies ? dt : 0;
		g->kernel_kernel += w->kernels > 1 ? dt : 0;
	}
	if (t > w->at)
		w->at = t;
}

/* A pending entry for key, holding launch_end v: 0 or LS_ERR_NOMEM. */
static int pend(struct an_gpu_usage_state *o, uint64_t key, int64_t v)
{
	uint32_t slot;

	if (ls_pool_take(&o->launch_end, &o->nslots, &o->slots_cap, sizeof(*o->launch_end), &o->free_slot,
			 &slot) < 0)
		return LS_ERR_NOMEM;
	o->launch_end[slot] = v;
	if (ls_idmap_put(&o->pending, key, slot) < 0)
		return LS_ERR_NOMEM;
	return 0;
}

/* Take key's pending entry: its launch_end in *v, true; false if none. */
static bool take(struct an_gpu_usage_state *o, uint64_t key, int64_t *v)
{
	uint32_t slot;

	if (!ls_idmap_get(&o->pending, key, &slot))
		return false;
	ls_idmap_del(&o->pending, key);
	*v = o->launch_end[slot];
	ls_pool_give(o->launch_end, sizeof(*o->launch_end), &o->free_slot, slot);
	return true;
}

/* A launch returned: when, for the kernel it enqueued (unless that began already). */
static int launch_left(struct an_gpu_usage_state *o, const struct an_frame *f, int64_t t)
{
	int64_t v;

	if (take(o, f->id, &v))
		return 0;	/* its kernel began before it returned */
	return pend(o, f->id, t);
}

static void gpu_event(struct an_gpu_usage_state *o, enum ls_kind kind, const struct an_event *ev,
		      const struct an_frame *f)
{
	struct an_gpu_usage_sweep *w = &o->sweep[ev->proc];
	struct an_gpu_usage *g = &o->proc[ev->proc];
	bool kernel = f->role == LS_R_KERNEL;

	if (!kernel && f->role != LS_R_DEV_MEMCPY && f->role != LS_R_DEV_MEMSET && f->role != LS_R_DEV_MIGRATE)
		return;
	if (kind == LS_K_LEAVE) {
		uint32_t *n = kernel ? &w->kernels : &w->copies;

		*n -= *n > 0;
		if (!w->kernels && !w->copies)
			w->idle_since = ev->t;
		return;
	}
	if (kernel)	/* its launch edge follows: how the GPU was when it began */
		o->began = (struct an_gpu_usage_began){ ev->id, ev->t, w->idle_since, ev->proc,
							 !w->kernels && !w->copies };
	kernel ? (g->kernels++, w->kernels++) : (g->copies++, w->copies++);
}

int an_gpu_usage_event(struct an_gpu_usage_state *o, const struct ls_defs *d, enum ls_kind kind,
		     const struct an_event *ev, const struct an_frame *f)
{
	const struct ls_stream *s = &d->streams[ev->s];

	if (s->gpu)
		advance(o, ev->proc, ev->t);
	if (!f || (kind != LS_K_ENTER && kind != LS_K_LEAVE))
		return 0;
	if (s->gpu)
		gpu_event(o, kind, ev, f);
	else if (s->host && f->role == LS_R_LAUNCH && kind == LS_K_LEAVE)
		return launch_left(o, f, ev->t);
	return 0;
}

int an_gpu_usage_edge(struct an_gpu_usage_state *o, const struct an_edge_rec *e)
{
	const struct an_gpu_usage_began *b = &o->began;
	int64_t end, since;

	if (e->type != LS_E_LAUNCH || e->to != b->id || b->id == UINT64_MAX)
		return 0;
	if (!take(o, e->from, &end))	/* its launch returns later */
		return pend(o, e->from, KERNEL_FIRST);
	since = end > b->idle_since ? end : b->idle_since;
	if (end != KERNEL_FIRST && b->idle && b->t > since) {
		o->proc[b->proc].startups++;
		o->proc[b->proc].startup += (uint64_t)b->t - (uint64_t)since;
	}
	return 0;
}

void an_gpu_usage_release(struct an_gpu_usage_state *o)
{
	free(o->proc);
	free(o->sweep);
	free(o->launch_end);
	ls_idmap_release(&o->pending);
}
