/* tr-waits for OpenMP: lock contention and the wait at a join. */
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "waits.h"

void an_omp_waits_init(struct an_omp_waits *o, const struct an_trace *tr, struct an_waitrec *out)
{
	memset(o, 0, sizeof(*o));
	o->tr = tr;
	o->out = out;
}

int an_omp_waits_stream(struct an_omp_waits *o)
{
	uint32_t s = o->tr->defs.nstreams - 1, old = o->os_cap;

	if (ls_vec_room(&o->os, &o->os_cap, s, sizeof(*o->os)) < 0)
		return LS_ERR_NOMEM;
	memset(o->os + old, 0, (o->os_cap - old) * sizeof(*o->os));
	return 0;
}

void an_omp_waits_leave(struct an_omp_waits *o, const struct an_frame *f, const struct an_event *ev)
{
	o->os[ev->s].last_left = f->id;
	o->os[ev->s].last_left_r = f->region;
}

/* The master waited at the join for the last team thread to end. */
static int decide_join(struct an_omp_waits *o)
{
	int64_t end = o->bend < o->bjoin ? o->bend : o->bjoin;
	struct an_wait x;
	int rc;

	if (end <= o->bt)	/* also no team thread ended after the master (bend INT64_MIN) */
		return 0;
	x = (struct an_wait){ o->bat, o->bt, (uint64_t)(end - o->bt), o->bcause, o->bs,
			      LS_P_OMP_FORK_JOIN, true, o->bat_r };
	if ((rc = an_waitrec_wait(o->out, &x)) < 0)
		return rc;
	return an_waitrec_blame(o->out, o->os[o->bcause_s].last_left, o->os[o->bcause_s].last_left_r,
				x.dur, x.pattern, x.at, o->bcause_s);
}

static int join_edge(struct an_omp_waits *o, uint64_t from, uint64_t to)
{
	const struct ls_process *pr;

	if (!o->batch || o->to != to) {
		o->stray++;
		return 0;
	}
	pr = &o->tr->defs.procs[o->tr->defs.streams[o->bs].process];
	for (uint32_t i = 0; i < pr->nhosts; i++) {
		const struct an_omp_deps_stream *os = &o->os[pr->hosts[i]];

		/* the latest end; of ends at one time, the one read last (its stream after), as ties go by stream */
		if (os->team_end == from && (os->team_end_t > o->bend ||
					     (os->team_end_t == o->bend &&
					      o->tr->defs.streams[pr->hosts[i]].id > o->tr->defs.streams[o->bcause_s].id))) {
			o->bend = os->team_end_t;
			o->bcause = from;
			o->bcause_s = pr->hosts[i];
		}
	}
	return 0;
}

/* Lock contention: the acquiring activity waited for the release. */
static int lock_edge(struct an_omp_waits *o, uint64_t from, uint64_t to)
{
	const struct an_omp_deps_stream *h;
	uint32_t s;
	int64_t end;
	struct an_wait x;
	int rc;

	if (to != o->last_acquire || !ls_idmap_get(&o->release_ix, from, &s)) {
		o->stray++;
		return 0;
	}
	h = &o->os[s];
	end = h->release_t < o->acquire_t ? h->release_t : o->acquire_t;
	if (end <= o->acquire_act_t)
		return 0;
	x = (struct an_wait){ o->acquire_act, o->acquire_act_t,
			      (uint64_t)(end - o->acquire_act_t), from, o->acquire_s,
			      LS_P_OMP_LOCK, true, o->acquire_act_r };
	if ((rc = an_waitrec_wait(o->out, &x)) < 0)
		return rc;
	if (!h->released.total)
		return an_waitrec_blame(o->out, h->release_act, h->release_r, x.dur, x.pattern,
					x.at, s);
	return an_waitrec_blame_split(o->out, &x, &h->released, NULL, s);
}

int an_omp_waits_edge(struct an_omp_waits *o, enum ls_edge type, uint64_t from, uint64_t to)
{
	return type == LS_E_JOIN ? join_edge(o, from, to) :
	       type == LS_E_LOCK ? lock_edge(o, from, to) : 0;
}

int an_omp_waits_event(struct an_omp_waits *o, enum ls_kind kind, const struct an_event *ev)
{
	struct an_omp_deps_stream *os = &o->os[ev->s];
	const struct an_frame *top = an_stack_top(&o->tr->stacks[ev->s]);
	struct an_interval swap;

	switch (kind) {
	case LS_K_TEAM_END:
		os->team_end = ev->id;
		os->team_end_t = ev->t;
		return 0;
	case LS_K_JOIN:
		if (os->team_end_t == 0 && os->team_end == 0)
			return 0;
		o->batch = true;
		o->to = ev->id;
		o->bs = ev->s;
		o->bt = os->team_end_t;
		o->bjoin = ev->t;
		o->bend = INT64_MIN;
		o->bat = top ? top->id : os->last_left;
		o->bat_r = top ? top->region : os->last_left_r;
		return 0;
	case LS_K_LOCK_ACQUIRE:
		o->last_acquire = top ? ev->id : 0;
		o->acquire_t = ev->t;
		o->acquire_act = top ? top->id : 0;
		o->acquire_act_r = top ? top->region : LS_NONE;
		o->acquire_act_t = top ? top->t : 0;
		o->acquire_s = ev->s;
		os->held.n = 0;
		os->held.total = 0;
		os->held_top = UINT64_MAX;
		os->holding = true;
		return 0;
	default:	/* release: what it held is what a waiter is blamed on */
		ls_idmap_del(&o->release_ix, os->release);
		swap = os->released;
		os->released = os->held;
		os->held = swap;
		os->held.n = 0;
		os->held.total = 0;
		os->holding = false;
		os->release = ev->id;
		os->release_t = ev->t;
		os->release_act = top ? top->id : os->last_left;
		os->release_r = top ? top->region : os->last_left_r;
		return ls_idmap_put(&o->release_ix, ev->id, ev->s);
	}
}

int an_omp_waits_accrue(struct an_omp_waits *o, uint32_t s, const struct an_frame *top,
		       uint64_t ns)
{
	struct an_omp_deps_stream *os = &o->os[s];

	if (!os->holding)
		return 0;
	if (os->held_top != top->id)
		os->held_slot = 0;
	os->held_top = top->id;
	return an_interval_add(&os->held, &os->held_slot, top->id, top->region, ns);
}

int an_omp_waits_flush(struct an_omp_waits *o, struct an_item *it)
{
	uint64_t to;
	int64_t t;

	if (!o->batch)
		return 0;
	if (it && it->kind == LS_K_EDGE && an_item_edge_to(it, &to) && to == o->to)
		return 0;
	/*
	 * An event at the join's very time may come after it (the stream's
	 * order breaks ties by stream): a team thread's end that tr-clock
	 * raised onto the join, its edge after it.
	 */
	if (it && ls_kind_spec(it->kind)->cls == LS_C_EVENT && an_item_time(it, &t) == 0 && t == o->bjoin)
		return 0;
	o->batch = false;
	return decide_join(o);
}

void an_omp_waits_release(struct an_omp_waits *o)
{
	for (uint32_t s = 0; s < o->os_cap && o->os; s++) {
		an_interval_release(&o->os[s].held);
		an_interval_release(&o->os[s].released);
	}
	free(o->os);
	ls_idmap_release(&o->release_ix);
	an_omp_waits_init(o, o->tr, o->out);
}
