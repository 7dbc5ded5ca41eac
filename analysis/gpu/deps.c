/* tr-deps for CUDA: launch, synchronization and inter-stream edges. */
#include <string.h>

#include "../../libstream/error.h"
#include "deps.h"
#include "../../libstream/vec.h"

/* Correlation ids and CUDA events are per process: keys pair them. */

void an_gpu_deps_init(struct an_gpu_deps *o, const struct an_trace *tr, struct an_edges *out)
{
	memset(o, 0, sizeof(*o));
	o->free_work = o->free_dep = o->free_sync = LS_NONE;
	o->tr = tr;
	o->out = out;
}

/* FIFO rings. */

static int ring_push(struct an_ring *r, uint32_t x)
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

static uint32_t ring_front(const struct an_ring *r)
{
	return r->n ? r->v[r->head] : LS_NONE;
}

static uint32_t ring_back(const struct an_ring *r)
{
	return r->n ? r->v[(r->head + r->n - 1) & (r->cap - 1)] : LS_NONE;
}

static void ring_pop(struct an_ring *r)
{
	r->head = (r->head + 1) & (r->cap - 1);
	r->n--;
}

/* Work: made by whichever side is seen first, freed when unreferenced. */

static int work_new(struct an_gpu_deps *o, uint32_t proc, uint8_t kind, uint32_t *out)
{
	uint32_t i;

	if (ls_pool_take(&o->work, &o->nwork, &o->work_cap, sizeof(*o->work),
			 &o->free_work, &i) < 0)
		return LS_ERR_NOMEM;
	o->work[i] = (struct an_work){ .proc = proc, .stream = LS_NONE, .ran = LS_NONE,
				       .deps = LS_NONE, .kind = kind,
				       .state = AN_WORK_QUEUED };
	*out = i;
	return 0;
}

static void work_ref(struct an_gpu_deps *o, uint32_t i)
{
	o->work[i].refs++;
}

static void work_unref(struct an_gpu_deps *o, uint32_t i)
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
				work_unref(o, o->dep[d].work);
			ls_pool_give(o->dep, sizeof(*o->dep), &o->free_dep, d);
			d = dn;
		}
		w->state = AN_WORK_DONE;
		w->refs = UINT32_MAX;	/* not live */
		ls_pool_give(o->work, sizeof(*o->work), &o->free_work, i);
		i = next;
	}
}

static bool work_live(const struct an_work *w)
{
	return w->refs != UINT32_MAX && w->refs;
}

/* Set *slot to work i (or LS_NONE), holding a reference. */
static void work_hold(struct an_gpu_deps *o, uint32_t *slot, uint32_t i)
{
	if (i != LS_NONE)
		work_ref(o, i);
	if (*slot != LS_NONE)
		work_unref(o, *slot);
	*slot = i;
}

static int dep_add(struct an_gpu_deps *o, uint32_t w, uint32_t from, enum ls_edge type)
{
	uint32_t d;

	if (ls_pool_take(&o->dep, &o->ndep, &o->dep_cap, sizeof(*o->dep),
			 &o->free_dep, &d) < 0)
		return LS_ERR_NOMEM;
	work_ref(o, from);
	o->dep[d] = (struct an_wdep){ from, o->work[w].deps, (uint8_t)type };
	o->work[w].deps = d;
	return 0;
}

/* Stream s's next work will wait for work w too (each once). */
static int wait_for(struct an_gpu_deps *o, uint32_t s, uint32_t w)
{
	struct an_gpu_stream *g = &o->gs[s];

	for (uint32_t i = 0; i < g->nwaits; i++)
		if (g->waits[i] == w)
			return 0;
	if (ls_vec_room(&g->waits, &g->waits_cap, g->nwaits, sizeof(*g->waits)) < 0)
		return LS_ERR_NOMEM;
	g->waits[g->nwaits++] = w;
	work_ref(o, w);
	return 0;
}

/* Per stream and per process state, sized as they are defined. */

int an_gpu_deps_stream(struct an_gpu_deps *o)
{
	const struct ls_defs *defs = &o->tr->defs;
	uint32_t s = defs->nstreams - 1, p = defs->streams[s].process;
	uint32_t old = o->gp_cap, old_gs = o->gs_cap;
	struct an_gpu_proc *gp;

	if (ls_vec_room(&o->gs, &o->gs_cap, s, sizeof(*o->gs)) < 0)
		return LS_ERR_NOMEM;
	memset(o->gs + old_gs, 0, (o->gs_cap - old_gs) * sizeof(*o->gs));
	if (ls_vec_room(&o->gp, &o->gp_cap, defs->nprocs - 1, sizeof(*o->gp)) < 0)
		return LS_ERR_NOMEM;
	memset(o->gp + old, 0, (o->gp_cap - old) * sizeof(*o->gp));
	o->gs[s] = (struct an_gpu_stream){ .last = LS_NONE, .running = LS_NONE };
	if (!defs->streams[s].gpu)
		return 0;
	gp = &o->gp[p];
	if (ls_vec_room(&gp->streams, &gp->streams_cap, gp->nstreams, sizeof(*gp->streams)) < 0)
		return LS_ERR_NOMEM;
	gp->streams[gp->nstreams++] = s;
	return 0;
}

bool an_gpu_deps_role(enum ls_role r)
{
	enum ls_role_group g = ls_role_group(r);

	return g == LS_G_GPU_CALL || g == LS_G_GPU_WORK;
}

/* The kind of work a host call of region r enqueues, or -1. */
static int work_kind(const struct ls_defs *defs, uint32_t r)
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
static int device_kind(const struct ls_defs *defs, uint32_t r)
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

static bool compatible(int a, int b)
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

static uint32_t ref_stream(struct an_gpu_deps *o, struct an_item *it, uint32_t p)
{
	return stream_field(o, it, p, LS_F_REF_STREAM);
}

/*
 * A synchronization's wait_stream (where the trace names the stream waited
 * for, not the event): the last work enqueued on it, or LS_NONE.
 */
static uint32_t waited_work(struct an_gpu_deps *o, struct an_item *it, uint32_t p)
{
	uint32_t s = an_item_has(it, LS_F_CUDA_EVENT) ? LS_NONE : stream_field(o, it, p, LS_F_WAIT_STREAM);

	return s == LS_NONE ? LS_NONE : o->gs[s].last;
}

/* The legacy default stream of process p's device dev, or LS_NONE. */
static uint32_t null_stream_of(const struct an_gpu_deps *o, uint32_t p, uint64_t dev)
{
	const struct ls_defs *defs = &o->tr->defs;
	const struct an_gpu_proc *gp = &o->gp[p];

	for (uint32_t i = 0; i < gp->nstreams; i++) {
		const struct ls_stream *x = &defs->streams[gp->streams[i]];

		if (x->null && x->device == dev)
			return gp->streams[i];
	}
	return LS_NONE;
}

/*
 * Work w is placed on stream s: it runs after what the null stream
 * serializes it with, and after the stream_wait its stream was told of.
 */
static int place(struct an_gpu_deps *o, uint32_t w, uint32_t s)
{
	const struct ls_defs *defs = &o->tr->defs;
	struct an_gpu_stream *g = &o->gs[s];
	struct an_gpu_proc *gp = &o->gp[o->work[w].proc];
	uint32_t n = null_stream_of(o, o->work[w].proc, defs->streams[s].device);
	int rc;

	if (n == s) {
		for (uint32_t i = 0; i < gp->nstreams; i++) {
			uint32_t x = gp->streams[i], l = o->gs[x].last;

			if (x == s || defs->streams[x].device != defs->streams[s].device ||
			    l == LS_NONE || o->work[l].null_covered)
				continue;
			o->work[l].null_covered = true;
			if ((rc = dep_add(o, w, l, LS_E_NULL_STREAM)) < 0)
				return rc;
		}
	} else if (n != LS_NONE && o->gs[n].last != LS_NONE &&
		   (g->last == LS_NONE ||
		    o->work[o->gs[n].last].placed > o->work[g->last].placed) &&
		   (rc = dep_add(o, w, o->gs[n].last, LS_E_NULL_STREAM)) < 0) {
		return rc;
	}
	for (uint32_t i = 0; i < g->nwaits; i++) {
		if ((rc = dep_add(o, w, g->waits[i], LS_E_STREAM_WAIT)) < 0)
			return rc;
		work_unref(o, g->waits[i]);
	}
	g->nwaits = 0;
	o->work[w].stream = s;
	o->work[w].placed = ++gp->placed;
	work_hold(o, &g->last, w);
	return 0;
}

/* The oldest work of a queue still waiting to run, dropping the others. */
static uint32_t queue_front(struct an_gpu_deps *o, struct an_ring *r)
{
	uint32_t w;

	while ((w = ring_front(r)) != LS_NONE && o->work[w].state != AN_WORK_QUEUED) {
		ring_pop(r);
		work_unref(o, w);
	}
	return w;
}

/*
 * Work w has begun on stream s: what was enqueued on s before it and has
 * not begun never will (a stream runs its work in order), nor will a
 * blocking copy enqueued before it (it returned before w was enqueued):
 * those were not recorded. Returns whether there were any.
 */
static bool lost_before(struct an_gpu_deps *o, uint32_t s, uint32_t w)
{
	struct an_gpu_proc *gp = &o->gp[o->work[w].proc];
	int64_t t = o->work[w].t_launch;
	uint64_t before = o->st.never_ran;
	uint32_t x;

	while ((x = queue_front(o, &o->gs[s].queue)) != LS_NONE && x != w &&
	       o->work[x].t_launch < t) {
		o->work[x].state = AN_WORK_LOST;
		o->st.never_ran++;
	}
	for (int k = 0; k < AN_KINDS; k++) {
		while ((x = queue_front(o, &gp->unplaced[k])) != LS_NONE && x != w &&
		       o->work[x].blocking && o->work[x].t_launch < t) {
			o->work[x].state = AN_WORK_LOST;
			o->st.never_ran++;
		}
	}
	return o->st.never_ran != before;
}

static int unpark(struct an_gpu_deps *o, uint32_t proc);

/* The oldest orphan of kind k in r not yet adopted, or LS_NONE. */
static uint32_t adopt(struct an_gpu_deps *o, struct an_ring *r, int k)
{
	uint32_t w;

	while ((w = ring_front(r)) != LS_NONE && o->work[w].has_launch) {
		ring_pop(r);
		work_unref(o, w);
	}
	return w != LS_NONE && compatible(o->work[w].kind, k) ? w : LS_NONE;
}

/* The oldest orphan of process p a call enqueueing kind k may adopt. */
static uint32_t adopt_unplaced(struct an_gpu_deps *o, uint32_t p, int k)
{
	uint32_t best = LS_NONE;

	for (int j = 0; j < AN_KINDS; j++) {
		uint32_t w;

		if (compatible(j, k) &&
		    (w = adopt(o, &o->gp[p].orphans[j], k)) != LS_NONE &&
		    (best == LS_NONE || o->work[w].t0 < o->work[best].t0))
			best = w;
	}
	return best;
}

/*
 * An edge from the end of work x to event to, at t. If x has not ended
 * (it ends at t, on a stream read later, or the clocks disagree), the
 * edge waits for x's end.
 */
static int after(struct an_gpu_deps *o, uint32_t x, uint64_t to, int64_t t, enum ls_edge type)
{
	const struct an_work *w = &o->work[x];

	if (w->state == AN_WORK_DONE) {
		o->st.order += w->t1 > t;
		return an_edges_write(o->out, w->leave, to, type);
	}
	if (ls_vec_room(&o->pending, &o->pending_cap, o->npending, sizeof(*o->pending)) < 0)
		return LS_ERR_NOMEM;
	o->pending[o->npending++] = (struct an_pending){ .work = x, .type = (uint8_t)type,
							 .to = to, .t = t };
	work_ref(o, x);
	return 0;
}

/* Work w has ended: the edges that waited for it. */
static int pending_edges(struct an_gpu_deps *o, uint32_t w)
{
	uint32_t j = 0;
	int rc = 0;

	for (uint32_t i = 0; i < o->npending; i++) {
		struct an_pending p = o->pending[i];

		if (p.work != w || rc < 0) {
			o->pending[j++] = p;
			continue;
		}
		o->st.order += o->work[w].t1 > p.t;
		rc = an_edges_write(o->out, o->work[w].leave, p.to, p.type);
		work_unref(o, w);
	}
	o->npending = j;
	return rc;
}

/* The edges into work w, which began at its enter, from what it waited for. */
static int began_after(struct an_gpu_deps *o, uint32_t w)
{
	int rc;

	for (uint32_t x = o->work[w].deps; x != LS_NONE; x = o->dep[x].next)
		if ((rc = after(o, o->dep[x].work, o->work[w].enter, o->work[w].t0,
				o->dep[x].type)) < 0)
			return rc;
	return 0;
}

/*
 * Work w began before the call that enqueued it was read (clocks that
 * disagree): only now is it enqueued on the stream it ran on, so no
 * synchronization read before its call waits for it.
 */
static int late_launch(struct an_gpu_deps *o, uint32_t w, const struct an_event *ev,
		       uint32_t *out)
{
	struct an_work *x = &o->work[w];
	bool lost;
	int rc;

	x->launch = ev->id;
	x->t_launch = ev->t;
	x->has_launch = true;
	o->st.late++;
	o->st.no_launch--;
	lost = lost_before(o, x->ran, w);
	*out = w;
	if ((rc = an_edges_write(o->out, ev->id, x->enter, LS_E_LAUNCH)) < 0)
		return rc;
	if (x->stream == LS_NONE && ((rc = place(o, w, x->ran)) < 0 || (rc = began_after(o, w)) < 0))
		return rc;
	/* synchronizations that waited for work now lost */
	return lost ? unpark(o, ev->proc) : 0;
}

/*
 * A host call enqueues work of kind k; returns its index in *out, with a
 * reference the caller lets go of (work whose device activity has already
 * ended may be held by nothing else).
 */
static int enqueue(struct an_gpu_deps *o, struct an_item *it,
		   const struct an_event *ev, int k, bool blocking, uint32_t *out)
{
	uint32_t s = ref_stream(o, it, ev->proc), w;
	uint64_t corr, key = 0;
	int rc;

	if (an_item_u64(it, LS_F_CORR, &corr) == 0 && ls_key_pair(ev->proc, corr, &key))
		key++;
	if (key && ls_idmap_get(&o->corr, key, &w) && !o->work[w].has_launch) {
		/* the map's reference becomes the caller's */
		ls_idmap_del(&o->corr, key);
		o->work[w].key = 0;
		return late_launch(o, w, ev, out);
	}
	if ((w = s == LS_NONE ? adopt_unplaced(o, ev->proc, k) :
		 adopt(o, &o->gs[s].orphans, k)) != LS_NONE) {
		work_ref(o, w);		/* the caller's */
		return late_launch(o, w, ev, out);
	}
	if ((rc = work_new(o, ev->proc, (uint8_t)k, &w)) < 0)
		return rc;
	work_ref(o, w);		/* the caller's */
	*out = w;
	o->work[w].launch = ev->id;
	o->work[w].t_launch = ev->t;
	o->work[w].has_launch = true;
	o->work[w].blocking = blocking;
	if (key && (rc = ls_idmap_put(&o->corr, key, w)) == 0) {
		o->work[w].key = key;
		work_ref(o, w);
	}
	if (rc < 0)
		return rc;
	if (s != LS_NONE) {
		if ((rc = place(o, w, s)) < 0 || (rc = ring_push(&o->gs[s].queue, w)) < 0)
			return rc;
	} else if ((rc = ring_push(&o->gp[ev->proc].unplaced[k], w)) < 0) {
		return rc;
	}
	work_ref(o, w);		/* its queue's */
	return 0;
}

/*
 * The enqueued work a device activity of kind k on stream s runs, with a
 * reference for it as the running one (a queue drops work lazily, and work
 * taken for lost may be held by the correlation map alone).
 */
static uint32_t match(struct an_gpu_deps *o, uint32_t s, int k, uint64_t key)
{
	uint32_t a, b, w;

	/*
	 * By its correlation id, work taken for lost comes back: a blocking
	 * copy from pageable memory may return before its copy runs, and the
	 * first of a trace was taken for one of a kind the trace has none of.
	 */
	if (key && ls_idmap_get(&o->corr, key, &w) &&
	    (o->work[w].state == AN_WORK_QUEUED || o->work[w].state == AN_WORK_LOST) &&
	    compatible(o->work[w].kind, k) && (o->work[w].stream == LS_NONE || o->work[w].stream == s)) {
		o->st.never_ran -= o->work[w].state == AN_WORK_LOST;
		/* the map's reference becomes the running one's */
		ls_idmap_del(&o->corr, key);
		o->work[w].key = 0;
		return w;
	}
	a = queue_front(o, &o->gs[s].queue);
	if (a != LS_NONE && (!compatible(o->work[a].kind, k) || (key && o->work[a].key)))
		a = LS_NONE;
	for (int j = 0; j < AN_KINDS; j++) {
		if (!compatible(j, k))
			continue;
		b = queue_front(o, &o->gp[o->tr->defs.streams[s].process].unplaced[j]);
		if (b != LS_NONE && !(key && o->work[b].key) &&
		    (a == LS_NONE || o->work[b].t_launch < o->work[a].t_launch))
			a = b;
	}
	if (a != LS_NONE)
		work_ref(o, a);
	return a;
}

/* A device activity begins: the work it runs. */
static int device_enter(struct an_gpu_deps *o, struct an_item *it,
			const struct an_event *ev, int k)
{
	uint64_t corr, key = 0;
	bool lost = false;
	uint32_t w;
	int rc;

	if (an_item_u64(it, LS_F_CORR, &corr) == 0 && ls_key_pair(ev->proc, corr, &key))
		key++;
	if ((w = match(o, ev->s, k, key)) == LS_NONE) {
		if ((rc = work_new(o, ev->proc, (uint8_t)k, &w)) < 0)
			return rc;
		o->st.no_launch++;
		/* its launch may come yet */
		if (key) {
			if ((rc = ls_idmap_put(&o->corr, key, w)) < 0)
				return rc;
			o->work[w].key = key;
			work_ref(o, w);
		} else {
			if ((rc = ring_push(&o->gs[ev->s].orphans, w)) < 0)
				return rc;
			work_ref(o, w);
			if ((rc = ring_push(&o->gp[ev->proc].orphans[k], w)) < 0)
				return rc;
			work_ref(o, w);
		}
		work_ref(o, w);		/* as the one running */
	}
	o->gp[ev->proc].seen[k] = true;
	if (o->work[w].has_launch)
		lost = lost_before(o, ev->s, w);
	o->work[w].state = AN_WORK_RUNNING;
	if (o->work[w].kind == AN_KIND_COPY && k > AN_KIND_COPY)
		o->work[w].kind = (uint8_t)k;	/* the direction the copy ran in */
	o->work[w].enter = ev->id;
	o->work[w].t0 = ev->t;
	o->work[w].ran = ev->s;
	/* work whose call is still to come is placed when it comes */
	if (o->work[w].stream == LS_NONE && o->work[w].has_launch &&
	    (rc = place(o, w, ev->s)) < 0)
		return rc;
	work_hold(o, &o->gs[ev->s].running, LS_NONE);
	o->gs[ev->s].running = w;
	if (o->work[w].has_launch &&
	    (rc = an_edges_write(o->out, o->work[w].launch, ev->id, LS_E_LAUNCH)) < 0)
		return rc;
	if ((rc = began_after(o, w)) < 0)
		return rc;
	/* synchronizations that waited for work now lost */
	return lost ? unpark(o, ev->proc) : 0;
}

/* Synchronizations. */

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
		work_unref(o, g->target[k]);
	ls_pool_give(o->sync, sizeof(*o->sync), &o->free_sync, i);
}

static int sync_add(struct an_gpu_deps *o, uint32_t i, uint32_t w)
{
	struct an_gsync *g = &o->sync[i];

	for (uint32_t k = 0; k < g->n; k++)
		if (g->target[k] == w)
			return 0;
	if (ls_vec_room(&g->target, &g->cap, g->n, sizeof(*g->target)) < 0)
		return LS_ERR_NOMEM;
	work_ref(o, w);
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
		if (o->gp[p].seen[j] && compatible(j, k))
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
		    (rc = sync_add(o, g, l)) < 0)
			return rc;
	}
	for (int k = 0; k < AN_KINDS; k++) {
		uint32_t l = ring_back(&gp->unplaced[k]);

		if (l != LS_NONE && o->work[l].state == AN_WORK_QUEUED && seen(o, p, k) &&
		    (rc = sync_add(o, g, l)) < 0)
			return rc;
	}
	return 0;
}

/*
 * The key of the CUDA event a call names in *key, or 0 (counted). Events
 * are addresses, too wide to pair with a process: each address gets a
 * number of its own, kept for the run. Returns 0 or LS_ERR_NOMEM.
 */
static int event_key(struct an_gpu_deps *o, struct an_item *it, uint32_t p, uint64_t *key)
{
	uint64_t e;
	uint32_t n;
	int rc;

	*key = 0;
	if (an_item_u64(it, LS_F_CUDA_EVENT, &e) < 0 || !ls_key_pair(p, 0, key)) {
		o->st.untold++;
		return 0;
	}
	if (!ls_idmap_get(&o->event_numbers, e, &n)) {
		n = (uint32_t)o->event_numbers.count;
		if ((rc = ls_idmap_put(&o->event_numbers, e, n)) < 0)
			return rc;
	}
	ls_key_pair(p, n, key);
	++*key;
	return 0;
}

/* A synchronizing call begins: what it will wait for. */
static int sync_begin(struct an_gpu_deps *o, struct an_frame *f, struct an_item *it,
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
			return (w = waited_work(o, it, ev->proc)) == LS_NONE ? 0 : sync_add(o, g, w);
		if ((rc = event_key(o, it, ev->proc, &key)) < 0 || !key)
			return rc;
		if (ls_idmap_get(&o->events, key, &w))
			return sync_add(o, g, w);
		o->sync[g].event_key = key;	/* its record may come yet */
		return park(o, g);
	}
	if ((s = ref_stream(o, it, ev->proc)) == LS_NONE) {
		o->sync[g].unnamed = f->role == LS_R_STREAM_SYNC || f->role == LS_R_STREAM_QUERY;
		return device_wide(o, g, ev->proc);
	}
	return o->gs[s].last == LS_NONE ? 0 : sync_add(o, g, o->gs[s].last);
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
static int unpark(struct an_gpu_deps *o, uint32_t proc)
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

static int sync_leave(struct an_gpu_deps *o, const struct an_frame *f,
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
		return unpark(o, ev->proc);
	if ((rc = resolve(o, g)) != 0)
		return rc < 0 ? rc : 0;
	return park(o, g);
}

/* cuEventRecord: the event stands for the last work on its stream. */
static int event_record(struct an_gpu_deps *o, struct an_item *it,
			const struct an_event *ev)
{
	uint32_t s = ref_stream(o, it, ev->proc), w, old;
	uint64_t key;
	int rc;

	if ((rc = event_key(o, it, ev->proc, &key)) < 0 || !key)
		return rc;
	/* no stream (or one that is no GPU stream, counted as such): the legacy default one (of device 0) */
	if (s == LS_NONE && (s = null_stream_of(o, ev->proc, 0)) == LS_NONE) {
		o->st.untold += !an_item_has(it, LS_F_REF_STREAM);
		return 0;
	}
	w = o->gs[s].last;
	if (ls_idmap_get(&o->events, key, &old)) {
		ls_idmap_del(&o->events, key);
		work_unref(o, old);
	}
	if (w != LS_NONE) {
		if ((rc = ls_idmap_put(&o->events, key, w)) < 0)
			return rc;
		work_ref(o, w);
	}
	/* synchronizations that came before the record they wait for */
	for (uint32_t i = 0; i < o->nparked; i++) {
		struct an_gsync *g = &o->sync[o->parked[i]];

		if (g->event_key != key)
			continue;
		g->event_key = 0;
		o->st.late_events++;
		if (w != LS_NONE && (rc = sync_add(o, o->parked[i], w)) < 0)
			return rc;
	}
	return unpark(o, ev->proc);
}

/*
 * cuStreamWaitEvent: the stream's next work waits for the event's work
 * (or, where the trace names the stream waited for and not the event, for
 * the last work enqueued on that stream).
 */
static int stream_wait(struct an_gpu_deps *o, struct an_item *it,
		       const struct an_event *ev)
{
	uint32_t s = ref_stream(o, it, ev->proc), w;
	uint64_t key;
	int rc;

	if (s != LS_NONE && an_item_has(it, LS_F_WAIT_STREAM) && !an_item_has(it, LS_F_CUDA_EVENT)) {
		return (w = waited_work(o, it, ev->proc)) == LS_NONE ? 0 : wait_for(o, s, w);
	}
	if ((rc = event_key(o, it, ev->proc, &key)) < 0 || !key)
		return rc;
	if (s == LS_NONE) {	/* a stream named that is not a GPU stream was counted */
		o->st.untold += !an_item_has(it, LS_F_REF_STREAM);
		return 0;
	}
	if (!ls_idmap_get(&o->events, key, &w)) {
		o->st.unrecorded++;
		return 0;
	}
	return wait_for(o, s, w);
}

int an_gpu_deps_enter(struct an_gpu_deps *o, struct an_frame *f,
		     struct an_item *it, const struct an_event *ev)
{
	int k;
	uint32_t w;
	int rc;

	if (o->tr->defs.streams[ev->s].gpu)
		return (k = device_kind(&o->tr->defs, f->region)) < 0 ? 0 :
		       device_enter(o, it, ev, k);
	if (an_role_gpu_sync(f->role) && (rc = sync_begin(o, f, it, ev)) < 0)
		return rc;
	if ((k = work_kind(&o->tr->defs, f->region)) >= 0) {
		/* a blocking copy also waits for the copy it makes */
		if ((rc = enqueue(o, it, ev, k, f->a != 0, &w)) < 0)
			return rc;
		if (f->a) {
			rc = sync_add(o, f->a - 1, w);
			o->sync[f->a - 1].own = w;
		}
		work_unref(o, w);
		if (rc < 0)
			return rc;
	}
	if (f->role == LS_R_EVENT_RECORD)
		return event_record(o, it, ev);
	if (f->role == LS_R_STREAM_WAIT)
		return stream_wait(o, it, ev);
	return 0;
}

/* A device activity ends: so does its work. */
static int device_leave(struct an_gpu_deps *o, const struct an_event *ev)
{
	uint32_t w = o->gs[ev->s].running;
	int rc;

	if (w == LS_NONE)
		return 0;
	o->work[w].state = AN_WORK_DONE;
	o->work[w].leave = ev->id;
	o->work[w].t1 = ev->t;
	o->gs[ev->s].running = LS_NONE;
	if ((rc = pending_edges(o, w)) == 0)
		rc = unpark(o, ev->proc);
	work_unref(o, w);
	return rc;
}

int an_gpu_deps_leave(struct an_gpu_deps *o, const struct an_frame *f,
		     struct an_item *it, const struct an_event *ev)
{
	if (o->tr->defs.streams[ev->s].gpu)
		return device_kind(&o->tr->defs, f->region) < 0 ? 0 : device_leave(o, ev);
	return f->a ? sync_leave(o, f, it, ev) : 0;
}

void an_gpu_deps_finish(struct an_gpu_deps *o)
{
	for (uint32_t i = 0; i < o->nwork; i++)
		o->st.never_ran += work_live(&o->work[i]) &&
				   o->work[i].state == AN_WORK_QUEUED;
	o->st.order += o->npending;	/* their work never ended */
	for (uint32_t i = 0; i < o->nparked; i++) {
		if (o->sync[o->parked[i]].event_key)
			o->st.unrecorded++;
		else
			o->st.unresolved++;
	}
}

void an_gpu_deps_release(struct an_gpu_deps *o)
{
	for (uint32_t i = 0; i < o->nsync; i++)
		free(o->sync[i].target);
	for (uint32_t i = 0; i < o->gs_cap && o->gs; i++) {
		free(o->gs[i].queue.v);
		free(o->gs[i].orphans.v);
		free(o->gs[i].waits);
	}
	for (uint32_t i = 0; i < o->gp_cap && o->gp; i++) {
		for (int k = 0; k < AN_KINDS; k++) {
			free(o->gp[i].unplaced[k].v);
			free(o->gp[i].orphans[k].v);
		}
		free(o->gp[i].streams);
	}
	free(o->work);
	free(o->dep);
	free(o->sync);
	free(o->parked);
	free(o->pending);
	free(o->gs);
	free(o->gp);
	ls_idmap_release(&o->corr);
	ls_idmap_release(&o->events);
	ls_idmap_release(&o->event_numbers);
	an_gpu_deps_init(o, o->tr, o->out);
}
