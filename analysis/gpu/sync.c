/* tr-deps for CUDA: what a synchronization waits for. */
#include <stdlib.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "deps_private.h"

static int sync_new(struct an_gpu_deps *o, uint32_t s, enum ls_edge type, uint32_t *out)
{
	struct an_gsync *g;
	uint32_t i;
	int rc = ls_pool_take(&o->sync, &o->nsync, &o->sync_cap, sizeof(*o->sync),
			      &o->free_sync, &i);

	if (rc < 0)
		return rc;
	g = &o->sync[i];
	if (rc) {	/* new: its target array is kept from use to use */
		g->target = NULL;
		g->cap = 0;
	}
	g->n = 0;
	g->s = s;
	g->type = (uint8_t)type;
	g->event_key = 0;
	g->own = LS_NONE;
	g->left = g->failed = g->parked = g->unnamed = false;
	*out = i;
	return 0;
}

static void sync_free(struct an_gpu_deps *o, uint32_t i)
{
	struct an_gsync *g = &o->sync[i];

	for (uint32_t k = 0; k < g->n; k++)
		an_gpu_work_unref(o, g->target[k]);
	ls_pool_give(o->sync, sizeof(*o->sync), &o->free_sync, i);
}

int an_gpu_sync_add(struct an_gpu_deps *o, uint32_t i, uint32_t w)
{
	struct an_gsync *g = &o->sync[i];

	for (uint32_t k = 0; k < g->n; k++)
		if (g->target[k] == w)
			return 0;
	if (ls_vec_room(&g->target, &g->cap, g->n, sizeof(*g->target)) < 0)
		return LS_ERR_NOMEM;
	an_gpu_work_ref(o, w);
	g->target[g->n++] = w;
	return 0;
}

static int park(struct an_gpu_deps *o, uint32_t i)
{
	if (o->sync[i].parked)
		return 0;
	if (ls_vec_room(&o->parked, &o->parked_cap, o->nparked, sizeof(*o->parked)) < 0)
		return LS_ERR_NOMEM;
	o->sync[i].parked = true;
	o->parked[o->nparked++] = i;
	return 0;
}

/* Whether process p has run device work that work of kind k can be. */
static bool seen(const struct an_gpu_deps *o, uint32_t p, int k)
{
	for (int j = 0; j < AN_KINDS; j++)
		if (o->gp[p].seen[j] && an_gpu_compatible(j, k))
			return true;
	return false;
}

/* Everything work of process p's device still has to do, not yet synced. */
static int device_wide(struct an_gpu_deps *o, uint32_t g, uint32_t p)
{
	struct an_gpu_proc *gp = &o->gp[p];
	int rc;

	for (uint32_t i = 0; i < gp->nstreams; i++) {
		uint32_t l = o->gs[gp->streams[i]].last;

		if (l != LS_NONE && !o->work[l].synced && o->work[l].state != AN_WORK_LOST &&
		    (rc = an_gpu_sync_add(o, g, l)) < 0)
			return rc;
	}
	for (int k = 0; k < AN_KINDS; k++) {
		uint32_t l = an_gpu_ring_back(&gp->unplaced[k]);

		if (l != LS_NONE && o->work[l].state == AN_WORK_QUEUED && seen(o, p, k) &&
		    (rc = an_gpu_sync_add(o, g, l)) < 0)
			return rc;
	}
	return 0;
}

/* A synchronizing call begins: what it will wait for. */
int an_gpu_sync_begin(struct an_gpu_deps *o, struct an_frame *f, struct an_item *it,
		      const struct an_event *ev)
{
	bool event = f->role == LS_R_EVENT_SYNC || f->role == LS_R_EVENT_QUERY;
	uint32_t g, s, w;
	int64_t result;
	int rc;

	if ((rc = sync_new(o, ev->s, event ? LS_E_EVENT : LS_E_SYNC, &g)) < 0)
		return rc;
	f->a = g + 1;
	o->sync[g].implicit = f->role == LS_R_MEMCPY ||
			      f->role == LS_R_ALLOC || f->role == LS_R_FREE;
	o->sync[g].failed = an_item_i64(it, LS_F_RESULT, &result) == 0 && result != 0;
	if (event) {
		uint64_t key;

		if (an_item_has(it, LS_F_WAIT_STREAM) && !an_item_has(it, LS_F_CUDA_EVENT))
			return (w = an_gpu_waited_work(o, it, ev->proc)) == LS_NONE ? 0 : an_gpu_sync_add(o, g, w);
		if ((rc = an_gpu_event_key(o, it, ev->proc, &key)) < 0 || !key)
			return rc;
		if (ls_idmap_get(&o->events, key, &w))
			return an_gpu_sync_add(o, g, w);
		o->sync[g].event_key = key;	/* its record may come yet */
		return park(o, g);
	}
	if ((s = an_gpu_ref_stream(o, it, ev->proc)) == LS_NONE) {
		o->sync[g].unnamed = f->role == LS_R_STREAM_SYNC || f->role == LS_R_STREAM_QUERY;
		return device_wide(o, g, ev->proc);
	}
	return o->gs[s].last == LS_NONE ? 0 : an_gpu_sync_add(o, g, o->gs[s].last);
}

/*
 * Target k of g, work w, is a blocking copy's own copy to the device: from
 * pageable memory (the usual case; no trace says which) the call returns
 * once the host's data is staged, before its copy need have run, so it
 * waits for the work before it, not for its own copy. A copy whose call
 * names no direction (cudaMemcpy) and that has not begun when it is asked
 * can only be one such.
 */
static bool own_to_device(const struct an_gsync *g, uint32_t k, const struct an_work *w)
{
	return g->target[k] == g->own &&
	       (w->kind == AN_KIND_HTOD || (w->kind == AN_KIND_COPY && w->state == AN_WORK_QUEUED));
}

/*
 * Sync g is done if it has left and all its work has ended: its edges are
 * written and it is freed (returns 1). Returns 0 if it has to wait.
 */
static int resolve(struct an_gpu_deps *o, uint32_t i)
{
	struct an_gsync *g = &o->sync[i];
	int rc;

	if (!g->left)
		return 0;
	if (g->failed) {	/* an error, or a query found it not ready */
		sync_free(o, i);
		return 1;
	}
	if (g->event_key)
		return 0;
	for (uint32_t k = 0; k < g->n; k++) {
		uint8_t state = o->work[g->target[k]].state;

		struct an_work *w = &o->work[g->target[k]];

		if (own_to_device(g, k, w))
			continue;	/* not waited for: it may run after the call */
		if (state == AN_WORK_QUEUED && !seen(o, w->proc, w->kind)) {
			/* the trace has no device activities of its kind */
			w->state = AN_WORK_LOST;
			o->st.never_ran++;
		} else if (state != AN_WORK_DONE && state != AN_WORK_LOST) {
			return 0;	/* device time may lag host time */
		}
	}
	o->st.idle_syncs += g->n == 0 && !g->implicit;
	for (uint32_t k = 0; k < g->n; k++) {
		struct an_work *w = &o->work[g->target[k]];

		if (w->state == AN_WORK_LOST || own_to_device(g, k, w))
			continue;
		if (w->graph) {		/* its last activity on each stream */
			if ((rc = an_gpu_graph_edges(o, g->target[k], g->leave, g->type, g->unnamed, g->t_leave)) < 0)
				return rc;
			o->st.unwaited += rc == 0;
			w->synced = true;
			continue;
		}
		if (g->unnamed && w->t1 > g->t_leave) {
			o->st.unwaited++;	/* it ran on past the call: on another stream */
			continue;
		}
		w->synced = true;
		if ((rc = an_edges_write(o->out, w->leave, g->leave, g->type)) < 0)
			return rc;
	}
	sync_free(o, i);
	return 1;
}

/*
 * Resolve what waited of process proc and now can be, keeping the order
 * they came in. Only an event of the process itself changes what its
 * synchronizations wait for, so each is written after the event of its
 * own process that let it be, whatever other processes do (a shard of
 * processes analysed apart writes it where the whole trace would).
 */
int an_gpu_unpark(struct an_gpu_deps *o, uint32_t proc)
{
	uint32_t j = 0;
	int rc;

	for (uint32_t i = 0; i < o->nparked; i++) {
		uint32_t g = o->parked[i];

		if (o->tr->defs.streams[o->sync[g].s].process != proc) {
			o->parked[j++] = g;
			continue;
		}
		if ((rc = resolve(o, g)) < 0)
			return rc;
		if (!rc)
			o->parked[j++] = g;
	}
	o->nparked = j;
	return 0;
}

int an_gpu_sync_leave(struct an_gpu_deps *o, const struct an_frame *f,
		      struct an_item *it, const struct an_event *ev)
{
	uint32_t g = f->a - 1;
	int64_t result;
	int rc;

	o->sync[g].left = true;
	o->sync[g].leave = ev->id;
	o->sync[g].t_leave = ev->t;
	if (an_item_i64(it, LS_F_RESULT, &result) == 0)
		o->sync[g].failed = result != 0;
	if (o->sync[g].parked)
		return an_gpu_unpark(o, ev->proc);
	if ((rc = resolve(o, g)) != 0)
		return rc < 0 ? rc : 0;
	return park(o, g);
}
