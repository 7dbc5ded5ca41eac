/* tr-deps for CUDA: the work a GPU runs, its kinds, and the streams a call names. */
#include <stdlib.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "deps_private.h"

int an_gpu_ring_push(struct an_ring *r, uint32_t x)
{
	if (r->n == r->cap) {
		uint32_t cap = r->cap ? 2 * r->cap : 8;
		uint32_t *v = malloc(cap * sizeof(*v));

		if (!v)
			return LS_ERR_NOMEM;
		for (uint32_t i = 0; i < r->n; i++)
			v[i] = r->v[(r->head + i) & (r->cap - 1)];
		free(r->v);
		r->v = v;
		r->head = 0;
		r->cap = cap;
	}
	r->v[(r->head + r->n++) & (r->cap - 1)] = x;
	return 0;
}

int an_gpu_work_new(struct an_gpu_deps *o, uint32_t proc, uint8_t kind, uint32_t *out)
{
	uint32_t i;

	if (ls_pool_take(&o->work, &o->nwork, &o->work_cap, sizeof(*o->work),
			 &o->free_work, &i) < 0)
		return LS_ERR_NOMEM;
	o->work[i] = (struct an_work){ .proc = proc, .stream = LS_NONE, .ran = LS_NONE,
				       .deps = LS_NONE, .tails = LS_NONE, .kind = kind,
				       .state = AN_WORK_QUEUED };
	*out = i;
	return 0;
}

void an_gpu_work_ref(struct an_gpu_deps *o, uint32_t i)
{
	o->work[i].refs++;
}

void an_gpu_work_unref(struct an_gpu_deps *o, uint32_t i)
{
	while (i != LS_NONE && !--o->work[i].refs) {
		struct an_work *w = &o->work[i];
		uint32_t next = LS_NONE;

		/* a dependency holds one other work: free the chain in turn */
		for (uint32_t d = w->deps; d != LS_NONE;) {
			uint32_t dn = o->dep[d].next;

			if (next == LS_NONE)
				next = o->dep[d].work;
			else
				an_gpu_work_unref(o, o->dep[d].work);
			ls_pool_give(o->dep, sizeof(*o->dep), &o->free_dep, d);
			d = dn;
		}
		an_gpu_graph_free(o, i);
		w->state = AN_WORK_DONE;
		w->refs = UINT32_MAX;	/* not live */
		ls_pool_give(o->work, sizeof(*o->work), &o->free_work, i);
		i = next;
	}
}

bool an_gpu_work_live(const struct an_work *w)
{
	return w->refs != UINT32_MAX && w->refs;
}

/* Set *slot to work i (or LS_NONE), holding a reference. */
void an_gpu_work_hold(struct an_gpu_deps *o, uint32_t *slot, uint32_t i)
{
	if (i != LS_NONE)
		an_gpu_work_ref(o, i);
	if (*slot != LS_NONE)
		an_gpu_work_unref(o, *slot);
	*slot = i;
}

int an_gpu_dep_add(struct an_gpu_deps *o, uint32_t w, uint32_t from, enum ls_edge type)
{
	uint32_t d;

	if (ls_pool_take(&o->dep, &o->ndep, &o->dep_cap, sizeof(*o->dep),
			 &o->free_dep, &d) < 0)
		return LS_ERR_NOMEM;
	an_gpu_work_ref(o, from);
	o->dep[d] = (struct an_wdep){ from, o->work[w].deps, (uint8_t)type };
	o->work[w].deps = d;
	return 0;
}

/* The kind of work a host call of region r enqueues, or -1. */
int an_gpu_work_kind(const struct ls_defs *defs, uint32_t r)
{
	switch (defs->roles[r]) {
	case LS_R_LAUNCH:
		return AN_KIND_KERNEL;
	case LS_R_MEMSET: case LS_R_MEMSET_ASYNC:
		return AN_KIND_SET;
	case LS_R_MEMCPY: case LS_R_MEMCPY_ASYNC:
		return AN_KIND_COPY + defs->dirs[r];
	default:
		return -1;
	}
}

/* The kind of work a device activity of region r runs, or -1. */
int an_gpu_device_kind(const struct ls_defs *defs, uint32_t r)
{
	switch (defs->roles[r]) {
	case LS_R_KERNEL:
		return AN_KIND_KERNEL;
	case LS_R_DEV_MEMSET:
		return AN_KIND_SET;
	case LS_R_DEV_MEMCPY:
		return AN_KIND_COPY + defs->dirs[r];
	default:
		return -1;
	}
}

bool an_gpu_compatible(int a, int b)
{
	return a == b || (a >= AN_KIND_COPY && b >= AN_KIND_COPY &&
			  (a == AN_KIND_COPY || b == AN_KIND_COPY));
}

/* The GPU stream of process p a call's ref_stream names, or LS_NONE. */
static uint32_t stream_field(struct an_gpu_deps *o, struct an_item *it, uint32_t p, enum ls_field f)
{
	const struct ls_defs *defs = &o->tr->defs;
	uint64_t id;
	uint32_t s;

	if (an_item_u64(it, f, &id) < 0)
		return LS_NONE;
	s = ls_index(&defs->stream_ix, id);
	if (s == LS_NONE || !defs->streams[s].gpu || defs->streams[s].process != p) {
		o->st.stray++;
		return LS_NONE;
	}
	return s;
}

uint32_t an_gpu_ref_stream(struct an_gpu_deps *o, struct an_item *it, uint32_t p)
{
	return stream_field(o, it, p, LS_F_REF_STREAM);
}

/*
 * A synchronization's wait_stream (where the trace names the stream waited
 * for, not the event): the last work enqueued on it, or LS_NONE.
 */
uint32_t an_gpu_waited_work(struct an_gpu_deps *o, struct an_item *it, uint32_t p)
{
	uint32_t s = an_item_has(it, LS_F_CUDA_EVENT) ? LS_NONE : stream_field(o, it, p, LS_F_WAIT_STREAM);

	return s == LS_NONE ? LS_NONE : o->gs[s].last;
}
