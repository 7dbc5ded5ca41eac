/* tr-deps for CUDA: a launch, copy or set, and the device activity that runs it. */
#include <stdlib.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "deps_private.h"

/* The oldest work of a queue still waiting to run, dropping the others. */
static uint32_t queue_front(struct an_gpu_deps *o, struct an_ring *r)
{
	uint32_t w;

	while ((w = an_gpu_ring_front(r)) != LS_NONE && o->work[w].state != AN_WORK_QUEUED) {
		an_gpu_ring_pop(r);
		an_gpu_work_unref(o, w);
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

/* The oldest orphan of kind k in r not yet adopted, or LS_NONE. */
static uint32_t adopt(struct an_gpu_deps *o, struct an_ring *r, int k)
{
	uint32_t w;

	while ((w = an_gpu_ring_front(r)) != LS_NONE && o->work[w].has_launch) {
		an_gpu_ring_pop(r);
		an_gpu_work_unref(o, w);
	}
	return w != LS_NONE && an_gpu_compatible(o->work[w].kind, k) ? w : LS_NONE;
}

/* The oldest orphan of process p a call enqueueing kind k may adopt. */
static uint32_t adopt_unplaced(struct an_gpu_deps *o, uint32_t p, int k)
{
	uint32_t best = LS_NONE;

	for (int j = 0; j < AN_KINDS; j++) {
		uint32_t w;

		if (an_gpu_compatible(j, k) &&
		    (w = adopt(o, &o->gp[p].orphans[j], k)) != LS_NONE &&
		    (best == LS_NONE || o->work[w].t0 < o->work[best].t0))
			best = w;
	}
	return best;
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
	if (x->stream == LS_NONE && ((rc = an_gpu_place(o, w, x->ran)) < 0 || (rc = an_gpu_began_after(o, w)) < 0))
		return rc;
	/* synchronizations that waited for work now lost */
	return lost ? an_gpu_unpark(o, ev->proc) : 0;
}

/*
 * A host call enqueues work of kind k; returns its index in *out, with a
 * reference the caller lets go of (work whose device activity has already
 * ended may be held by nothing else).
 */
int an_gpu_enqueue(struct an_gpu_deps *o, struct an_item *it,
		   const struct an_event *ev, int k, bool blocking, uint32_t *out)
{
	uint32_t s = an_gpu_ref_stream(o, it, ev->proc), w;
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
	if (key && ls_idmap_get(&o->corr, key, &w)) {
		/* an id used again (a trace's own numbering): the earlier launch's activities have come */
		ls_idmap_del(&o->corr, key);
		o->work[w].key = 0;
		an_gpu_work_unref(o, w);
	}
	if ((w = s == LS_NONE ? adopt_unplaced(o, ev->proc, k) :
		 adopt(o, &o->gs[s].orphans, k)) != LS_NONE) {
		an_gpu_work_ref(o, w);		/* the caller's */
		return late_launch(o, w, ev, out);
	}
	if ((rc = an_gpu_work_new(o, ev->proc, (uint8_t)k, &w)) < 0)
		return rc;
	an_gpu_work_ref(o, w);		/* the caller's */
	*out = w;
	o->work[w].launch = ev->id;
	o->work[w].t_launch = ev->t;
	o->work[w].has_launch = true;
	o->work[w].blocking = blocking;
	if (key && (rc = ls_idmap_put(&o->corr, key, w)) == 0) {
		o->work[w].key = key;
		an_gpu_work_ref(o, w);
	}
	if (rc < 0)
		return rc;
	if (s != LS_NONE) {
		if ((rc = an_gpu_place(o, w, s)) < 0 || (rc = an_gpu_ring_push(&o->gs[s].queue, w)) < 0)
			return rc;
	} else if ((rc = an_gpu_ring_push(&o->gp[ev->proc].unplaced[k], w)) < 0) {
		return rc;
	}
	an_gpu_work_ref(o, w);		/* its queue's */
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
	 * Its id stays mapped while the stream runs nothing else: a graph's
	 * launch gives it to all its activities, of any kind, on any stream.
	 */
	if (key && ls_idmap_get(&o->corr, key, &w) && o->work[w].has_launch &&
	    (o->work[w].state == AN_WORK_RUNNING || o->work[w].state == AN_WORK_DONE)) {
		an_gpu_work_ref(o, w);
		return w;
	}
	if (key && ls_idmap_get(&o->corr, key, &w) &&
	    (o->work[w].state == AN_WORK_QUEUED || o->work[w].state == AN_WORK_LOST) &&
	    an_gpu_compatible(o->work[w].kind, k) && (o->work[w].stream == LS_NONE || o->work[w].stream == s)) {
		o->st.never_ran -= o->work[w].state == AN_WORK_LOST;
		an_gpu_work_ref(o, w);	/* the running one's; the map's stays */
		return w;
	}
	a = queue_front(o, &o->gs[s].queue);
	if (a != LS_NONE && (!an_gpu_compatible(o->work[a].kind, k) || (key && o->work[a].key)))
		a = LS_NONE;
	for (int j = 0; j < AN_KINDS; j++) {
		if (!an_gpu_compatible(j, k))
			continue;
		b = queue_front(o, &o->gp[o->tr->defs.streams[s].process].unplaced[j]);
		if (b != LS_NONE && !(key && o->work[b].key) &&
		    (a == LS_NONE || o->work[b].t_launch < o->work[a].t_launch))
			a = b;
	}
	if (a != LS_NONE)
		an_gpu_work_ref(o, a);
	return a;
}

/*
 * Work w begins on stream s: the correlation id of the work begun there
 * before it is no longer mapped (a graph's activities have all begun once
 * the stream runs other work), and w's stays mapped until then.
 */
static void keep_mapped(struct an_gpu_deps *o, uint32_t s, uint32_t w)
{
	uint32_t x = o->gs[s].kept, mapped;

	if (x == w)
		return;
	if (x != LS_NONE && o->work[x].key && ls_idmap_get(&o->corr, o->work[x].key, &mapped) && mapped == x) {
		ls_idmap_del(&o->corr, o->work[x].key);
		o->work[x].key = 0;
		an_gpu_work_unref(o, x);	/* the map's */
	}
	an_gpu_work_hold(o, &o->gs[s].kept, o->work[w].key ? w : LS_NONE);
}

/* A device activity begins: the work it runs. */
int an_gpu_device_enter(struct an_gpu_deps *o, struct an_item *it,
			const struct an_event *ev, int k)
{
	uint64_t corr, key = 0;
	bool lost = false;
	uint32_t w;
	int rc;

	if (an_item_u64(it, LS_F_CORR, &corr) == 0 && ls_key_pair(ev->proc, corr, &key))
		key++;
	if ((w = match(o, ev->s, k, key)) != LS_NONE && o->work[w].state != AN_WORK_QUEUED &&
	    o->work[w].state != AN_WORK_LOST && (rc = an_gpu_graph_member(o, w)) < 0)
		return rc;
	if (w == LS_NONE) {
		if ((rc = an_gpu_work_new(o, ev->proc, (uint8_t)k, &w)) < 0)
			return rc;
		o->st.no_launch++;
		/* its launch may come yet */
		if (key) {
			if ((rc = ls_idmap_put(&o->corr, key, w)) < 0)
				return rc;
			o->work[w].key = key;
			an_gpu_work_ref(o, w);
		} else {
			if ((rc = an_gpu_ring_push(&o->gs[ev->s].orphans, w)) < 0)
				return rc;
			an_gpu_work_ref(o, w);
			if ((rc = an_gpu_ring_push(&o->gp[ev->proc].orphans[k], w)) < 0)
				return rc;
			an_gpu_work_ref(o, w);
		}
		an_gpu_work_ref(o, w);		/* as the one running */
	}
	o->gp[ev->proc].seen[k] = true;
	keep_mapped(o, ev->s, w);
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
	    (rc = an_gpu_place(o, w, ev->s)) < 0)
		return rc;
	an_gpu_work_hold(o, &o->gs[ev->s].running, LS_NONE);
	o->gs[ev->s].running = w;
	if (o->work[w].has_launch &&
	    (rc = an_edges_write(o->out, o->work[w].launch, ev->id, LS_E_LAUNCH)) < 0)
		return rc;
	if ((rc = an_gpu_began_after(o, w)) < 0)
		return rc;
	/* synchronizations that waited for work now lost */
	return lost ? an_gpu_unpark(o, ev->proc) : 0;
}

/* A device activity ends: so does its work. */
int an_gpu_device_leave(struct an_gpu_deps *o, const struct an_event *ev)
{
	uint32_t w = o->gs[ev->s].running;
	int rc;

	if (w == LS_NONE)
		return 0;
	o->work[w].state = AN_WORK_DONE;
	o->work[w].leave = ev->id;
	o->work[w].t1 = ev->t;
	o->gs[ev->s].running = LS_NONE;
	if (o->work[w].graph && (rc = an_gpu_graph_ended(o, w, ev->s, ev->id, ev->t)) < 0)
		return rc;
	if ((rc = an_gpu_pending_edges(o, w)) == 0)
		rc = an_gpu_unpark(o, ev->proc);
	an_gpu_work_unref(o, w);
	return rc;
}
