/* tr-waits for CUDA and for OpenMP locks and joins. */
#include <string.h>

#include "../../libstream/error.h"
#include "waits.h"
#include "../../libstream/vec.h"

/* Shares of idle time are in units of 1/IDLE_UNITS ns per busy thread. */
#define IDLE_UNITS 5040

void an_gpu_waits_init(struct an_gpu_waits *g, const struct an_trace *tr, struct an_waitrec *out)
{
	memset(g, 0, sizeof(*g));
	g->free_dev = g->free_call = LS_NONE;
	g->tr = tr;
	g->out = out;
}

static uint32_t ring_push(struct an_gring *r, uint32_t x)
{
	uint32_t old = LS_NONE;

	if (r->n == AN_GRING) {
		old = r->v[r->head];
		r->head = (r->head + 1) % AN_GRING;
		r->n--;
	}
	r->v[(r->head + r->n++) % AN_GRING] = x;
	return old;
}

/* A ring lets go of the oldest activity or call: forget it. */
static void dev_evict(struct an_gpu_waits *g, uint32_t i)
{
	if (i == LS_NONE)
		return;
	ls_idmap_del(&g->dev_leave, g->dev[i].leave);
	ls_pool_give(g->dev, sizeof(*g->dev), &g->free_dev, i);
}

static void call_evict(struct an_gpu_waits *g, uint32_t i)
{
	if (i == LS_NONE)
		return;
	ls_idmap_del(&g->call_enter, g->call[i].enter);
	if (g->call[i].left)
		ls_idmap_del(&g->call_leave, g->call[i].leave);
	ls_pool_give(g->call, sizeof(*g->call), &g->free_call, i);
}

int an_gpu_waits_stream(struct an_gpu_waits *g)
{
	const struct ls_defs *defs = &g->tr->defs;
	uint32_t s = defs->nstreams - 1, p = defs->streams[s].process;
	uint32_t old = g->gs_cap, oldp = g->idle_cap;

	if (ls_vec_room(&g->gs, &g->gs_cap, s, sizeof(*g->gs)) < 0)
		return LS_ERR_NOMEM;
	memset(g->gs + old, 0, (g->gs_cap - old) * sizeof(*g->gs));
	g->gs[s].running = LS_NONE;
	if (ls_vec_room(&g->idle, &g->idle_cap, p, sizeof(*g->idle)) < 0)
		return LS_ERR_NOMEM;
	memset(g->idle + oldp, 0, (g->idle_cap - oldp) * sizeof(*g->idle));
	return 0;
}

static bool device_role(enum ls_role r)
{
	return r == LS_R_KERNEL || r == LS_R_DEV_MEMCPY || r == LS_R_DEV_MEMSET || r == LS_R_DEV_MIGRATE;
}

static bool query_role(enum ls_role r)
{
	return r == LS_R_EVENT_QUERY || r == LS_R_STREAM_QUERY;
}

/* Add ns to act's share of iv, noting its stream in *ss (grown with iv). */
static int share(struct an_interval *iv, uint32_t **ss, uint32_t *ss_cap,
		 uint32_t *slot, uint64_t act, uint32_t region, uint64_t ns, uint32_t s)
{
	int rc = an_interval_add(iv, slot, act, region, ns);

	if (rc < 0 || ls_vec_room(ss, ss_cap, iv->n - 1, sizeof(**ss)) < 0)
		return rc < 0 ? rc : LS_ERR_NOMEM;
	(*ss)[*slot - 1] = s;
	return 0;
}

/*
 * Blame wait x on the GPU activities of streams ss[0 .. n-1] by how much
 * of [t0, t1] each ran; on activity act (of region index region) of
 * stream s if none did.
 */
static int blame_overlap(struct an_gpu_waits *g, const struct an_wait *x,
			 const uint32_t *ss, uint32_t n, int64_t t0, int64_t t1,
			 uint64_t act, uint32_t region, uint32_t s)
{
	struct an_interval *iv = &g->scratch;
	int rc;

	iv->n = 0;
	iv->total = 0;
	for (uint32_t k = 0; k < n; k++) {
		bool seen = false;

		for (uint32_t j = 0; j < k; j++)
			seen |= ss[j] == ss[k];
		if (seen)
			continue;
		const struct an_gring *r = &g->gs[ss[k]].acts;
		uint32_t first = r->n;

		/* a stream's activities end in the ring's order: skip those
		 * that ended by t0 */
		while (first && g->dev[r->v[(r->head + first - 1) % AN_GRING]].t1 > t0)
			first--;
		for (uint32_t i = first; i < r->n; i++) {
			const struct an_dev_act *d = &g->dev[r->v[(r->head + i) % AN_GRING]];
			int64_t lo = d->t0 > t0 ? d->t0 : t0, hi = d->t1 < t1 ? d->t1 : t1;
			uint32_t slot = 0;

			if (hi > lo && (rc = share(iv, &g->sc_s, &g->sc_cap, &slot, d->enter,
						   d->region, (uint64_t)(hi - lo), ss[k])) < 0)
				return rc;
		}
	}
	if (!iv->total)
		return an_waitrec_blame(g->out, act, region, x->dur, x->pattern, x->at, s);
	return an_waitrec_blame_split(g->out, x, iv, g->sc_s, 0);
}

/*
 * GPU idleness. While every GPU stream of a process is idle, v counts what
 * each busy host thread is due: IDLE_UNITS/busy per ns. A thread's top
 * activity is credited with what v gained since the thread's mark when
 * that top changes (and when the idle time ends): constant work per event.
 */
static bool idle(const struct an_gidle *id)
{
	return !id->running && id->any;
}

/* Time passes until t: v grows by the busy threads' due. */
static void idle_accrue(struct an_gidle *id, int64_t t)
{
	uint64_t seg;

	if (!idle(id) || t <= id->last)
		return;
	seg = (uint64_t)(t - id->last);
	id->last = t;
	if (!id->busy)
		return;
	id->ns += seg;
	id->v += seg * IDLE_UNITS / id->busy;
}

/* Host stream s's top activity gets what it is due since its mark. */
static int idle_credit(struct an_gpu_waits *g, struct an_gidle *id, uint32_t s)
{
	struct an_frame *top = an_stack_top(&g->tr->stacks[s]);
	uint64_t due = id->v - g->gs[s].idle_mark;
	uint32_t slot = 0;
	int rc;

	g->gs[s].idle_mark = id->v;
	if (!top || !due)
		return 0;
	/* one share per activity however often it comes back on top */
	if (ls_idmap_get(&id->ix, top->id, &slot))
		slot++;
	if ((rc = share(&id->iv, &id->iv_s, &id->iv_cap, &slot, top->id, top->region, due, s)) < 0)
		return rc;
	return ls_idmap_put(&id->ix, top->id, slot - 1);
}

/* Every GPU stream of process p was idle until t: the gpu_idle wait. */
static int idle_end(struct an_gpu_waits *g, uint32_t p)
{
	struct an_gidle *id = &g->idle[p];
	const struct ls_process *pr = &g->tr->defs.procs[p];
	struct an_wait x = { id->last_act, id->since, id->ns, 0, id->last_s,
			     LS_P_GPU_IDLE, false, id->last_r };
	int rc = 0;

	for (uint32_t i = 0; i < pr->nhosts && id->any; i++)
		if ((rc = idle_credit(g, id, pr->hosts[i])) < 0)
			return rc;

	if (id->any && id->ns && (rc = an_waitrec_wait(g->out, &x)) == 0)
		rc = an_waitrec_blame_split(g->out, &x, &id->iv, id->iv_s, 0);
	for (uint32_t i = 0; i < id->iv.n; i++)
		ls_idmap_del(&id->ix, id->iv.v[i].act);
	id->iv.n = 0;
	id->iv.total = 0;
	id->ns = 0;
	return rc;
}

int an_gpu_waits_before(struct an_gpu_waits *g, const struct an_event *ev)
{
	struct an_gidle *id = &g->idle[ev->proc];

	idle_accrue(id, ev->t);
	/* an enter or leave on a host thread changes its top activity */
	return idle(id) && g->tr->defs.streams[ev->s].host ? idle_credit(g, id, ev->s) : 0;
}

static uint64_t query_key(const struct ls_record *rec, enum ls_role r)
{
	uint64_t v = 0;

	if (r == LS_R_EVENT_QUERY)
		return ls_get_u64(rec, LS_F_CUDA_EVENT, &v) == 0 ? 2 * v + 1 : 0;
	return ls_get_u64(rec, LS_F_REF_STREAM, &v) == 0 ? 2 * v + 2 : 0;
}

int an_gpu_waits_enter(struct an_gpu_waits *g, const struct an_frame *f,
		    struct an_item *it, const struct an_event *ev)
{
	struct an_gstream *gs = &g->gs[ev->s];
	const struct ls_record *rec;
	uint32_t i;
	int64_t result;
	int rc;

	if (g->tr->defs.streams[ev->s].host) {
		if (g->tr->stacks[ev->s].n == 1)
			g->idle[ev->proc].busy++;
		if (ls_role_group(f->role) != LS_G_GPU_CALL)
			return 0;
		if (!(rec = an_item_rec(it)))
			return LS_ERR_SYNTAX;
		if (ls_pool_take(&g->call, &g->ncall, &g->call_cap, sizeof(*g->call),
				 &g->free_call, &i) < 0)
			return LS_ERR_NOMEM;
		g->call[i] = (struct an_gcall){ .enter = f->id, .t0 = ev->t,
			.key = query_key(rec, f->role), .s = ev->s, .region = f->region,
			.role = f->role };
		g->call[i].failed = ls_get_i64(rec, LS_F_RESULT, &result) == 0 && result;
		call_evict(g, ring_push(&gs->calls, i));
		return ls_idmap_put(&g->call_enter, f->id, i);
	}
	if (!device_role(f->role))
		return 0;
	if (!g->idle[ev->proc].running++ && (rc = idle_end(g, ev->proc)) < 0)
		return rc;
	if (ls_pool_take(&g->dev, &g->ndev, &g->dev_cap, sizeof(*g->dev),
			 &g->free_dev, &i) < 0)
		return LS_ERR_NOMEM;
	g->dev[i] = (struct an_dev_act){ .enter = f->id, .t0 = ev->t,
					 .ready = gs->last_end, .s = ev->s,
					 .region = f->region };
	if (gs->running != LS_NONE)
		g->stray++;
	gs->running = i;
	return ls_idmap_put(&g->dev_enter, f->id, i);
}

int an_gpu_waits_leave(struct an_gpu_waits *g, const struct an_frame *f,
		    struct an_item *it, const struct an_event *ev)
{
	const struct ls_record *rec;
	struct an_gstream *gs = &g->gs[ev->s];
	struct an_gidle *id = &g->idle[ev->proc];
	const struct ls_process *pr = &g->tr->defs.procs[ev->proc];
	uint32_t i;
	int64_t result;

	if (g->tr->defs.streams[ev->s].host) {
		if (!ls_idmap_get(&g->call_enter, f->id, &i))
			return 0;
		g->call[i].leave = ev->id;
		g->call[i].t1 = ev->t;
		g->call[i].left = true;
		if (!(rec = an_item_rec(it)))
			return LS_ERR_SYNTAX;
		if (ls_get_i64(rec, LS_F_RESULT, &result) == 0)
			g->call[i].failed = result != 0;
		if (query_role(g->call[i].role) && g->call[i].failed && g->call[i].key) {
			if (ls_vec_room(&gs->failed, &gs->failed_cap, gs->nfailed,
					sizeof(*gs->failed)) < 0)
				return LS_ERR_NOMEM;
			gs->failed[gs->nfailed++] = g->call[i];
		}
		return ls_idmap_put(&g->call_leave, ev->id, i);
	}
	if (!device_role(f->role) || (i = gs->running) == LS_NONE)
		return 0;
	gs->running = LS_NONE;
	ls_idmap_del(&g->dev_enter, g->dev[i].enter);
	g->dev[i].leave = ev->id;
	g->dev[i].t1 = ev->t;
	gs->last_end = ev->t;
	dev_evict(g, ring_push(&gs->acts, i));
	if (id->running && !--id->running) {
		id->any = true;
		id->since = id->last = ev->t;
		id->last_act = f->id;
		id->last_s = ev->s;
		id->last_r = f->region;
		id->v = 0;
		for (uint32_t k = 0; k < pr->nhosts; k++)
			g->gs[pr->hosts[k]].idle_mark = 0;
	}
	return ls_idmap_put(&g->dev_leave, ev->id, i);
}

void an_gpu_waits_popped(struct an_gpu_waits *g, const struct an_event *ev)
{
	if (g->tr->defs.streams[ev->s].host && !g->tr->stacks[ev->s].n &&
	    g->idle[ev->proc].busy)
		g->idle[ev->proc].busy--;
}

/* Device activity d, the source of an edge into event to, in the batch of to's edges (begun where none is). */
static int batch_add(struct an_gpu_waits *g, uint64_t to, uint32_t d)
{
	if (!g->batch) {
		g->batch = true;
		g->to = to;
		g->nbdev = 0;
	}
	if (ls_vec_room(&g->bdev, &g->bdev_cap, g->nbdev, sizeof(*g->bdev)) < 0)
		return LS_ERR_NOMEM;
	g->bdev[g->nbdev++] = d;
	return 0;
}

/* A null_stream or stream_wait edge: part of its activity's batch. */
static int held_back(struct an_gpu_waits *g, uint64_t from, uint64_t to, enum ls_pattern p)
{
	uint32_t si, di;
	int rc;

	if (!ls_idmap_get(&g->dev_leave, from, &si) ||
	    (!g->batch && !ls_idmap_get(&g->dev_enter, to, &di))) {
		g->stray++;
		return 0;
	}
	if (!g->batch) {
		g->held = true;
		g->hdev = di;
	}
	if ((rc = batch_add(g, to, si)) < 0)
		return rc;
	if (g->nbdev == 1 || g->dev[si].t1 > g->dev[g->hlast].t1) {
		g->hlast = si;
		g->hpattern = (uint8_t)p;
	}
	return 0;
}

/*
 * An activity held back by work on other streams: one wait from when it
 * could have begun until its latest source ended, blamed on the sources'
 * work by how much of that time each ran.
 */
static int decide_held(struct an_gpu_waits *g)
{
	const struct an_dev_act *dst = &g->dev[g->hdev], *l = &g->dev[g->hlast];
	int64_t end = l->t1 < dst->t0 ? l->t1 : dst->t0;
	struct an_wait x;
	int rc;

	if (end <= dst->ready)
		return 0;
	if (ls_vec_room(&g->bss, &g->bss_cap, g->nbdev - 1, sizeof(*g->bss)) < 0)
		return LS_ERR_NOMEM;
	for (uint32_t i = 0; i < g->nbdev; i++)
		g->bss[i] = g->dev[g->bdev[i]].s;
	x = (struct an_wait){ dst->enter, dst->ready, (uint64_t)(end - dst->ready), l->leave,
			      dst->s, g->hpattern, true, dst->region };
	if ((rc = an_waitrec_wait(g->out, &x)) < 0)
		return rc;
	return blame_overlap(g, &x, g->bss, g->nbdev, dst->ready, end, l->enter, l->region, l->s);
}

static int launch_edge(struct an_gpu_waits *g, uint64_t from, uint64_t to)
{
	uint32_t d, c;

	if (!ls_idmap_get(&g->dev_enter, to, &d))
		return 0;	/* linked after it ended: nothing waits on that */
	g->dev[d].launcher = from;
	g->dev[d].has_launcher = true;
	if (ls_idmap_get(&g->call_enter, from, &c) && g->call[c].t0 > g->dev[d].ready)
		g->dev[d].ready = g->call[c].t0;
	return 0;
}

/* A sync or event edge: part of its synchronization's batch. */
static int sync_edge(struct an_gpu_waits *g, uint64_t from, uint64_t to)
{
	uint32_t d, c;

	if (!ls_idmap_get(&g->dev_leave, from, &d) ||
	    (!g->batch && !ls_idmap_get(&g->call_leave, to, &c))) {
		g->stray++;
		return 0;
	}
	if (!g->batch)
		g->bcall = c;
	return batch_add(g, to, d);
}

/* Polling: unsuccessful queries of c's target before its work ended at end. */
static int polls(struct an_gpu_waits *g, const struct an_gcall *c, const struct an_dev_act *l)
{
	struct an_gstream *gs = &g->gs[c->s];
	uint32_t j = 0;
	int rc;

	for (uint32_t i = 0; i < gs->nfailed; i++) {
		const struct an_gcall *q = &gs->failed[i];
		int64_t end = q->t1 < l->t1 ? q->t1 : l->t1;
		struct an_wait x;

		if (q->key != c->key || q->role != c->role) {
			gs->failed[j++] = *q;
			continue;
		}
		if (end <= q->t0)
			continue;
		x = (struct an_wait){ q->enter, q->t0, (uint64_t)(end - q->t0), l->leave,
				      q->s, q->role == LS_R_EVENT_QUERY ?
				      LS_P_EVENT_QUERY : LS_P_STREAM_QUERY, true, q->region };
		if ((rc = an_waitrec_wait(g->out, &x)) < 0 ||
		    (rc = blame_overlap(g, &x, &l->s, 1, q->t0, end, l->enter, l->region, l->s)) < 0)
			return rc;
	}
	gs->nfailed = j;
	return 0;
}

static bool explicit_sync(enum ls_role r)
{
	return r == LS_R_STREAM_SYNC || r == LS_R_CTX_SYNC || r == LS_R_EVENT_SYNC;
}

/* A synchronization and the work it waited for: its wait states. */
static int decide_sync(struct an_gpu_waits *g)
{
	const struct an_gcall *c = &g->call[g->bcall];
	const struct an_dev_act *l = NULL;
	uint32_t n = 0;
	int rc;

	/* the work before it, not the copy a blocking copy makes itself */
	for (uint32_t i = 0; i < g->nbdev; i++) {
		const struct an_dev_act *d = &g->dev[g->bdev[i]];

		if (d->has_launcher && d->launcher == c->enter)
			continue;
		g->bdev[n++] = g->bdev[i];
		if (!l || d->t1 > l->t1)
			l = d;
	}
	if (!l)
		return 0;
	if (query_role(c->role))
		return polls(g, c, l);
	if (l->t1 > c->t0) {
		int64_t end = l->t1 < c->t1 ? l->t1 : c->t1;
		struct an_wait x = { c->enter, c->t0, (uint64_t)(end - c->t0), l->leave,
				     c->s, LS_P_BLAME_KERNEL, true, c->region };

		if (end > c->t0) {
			if (ls_vec_room(&g->bss, &g->bss_cap, n - 1, sizeof(*g->bss)) < 0)
				return LS_ERR_NOMEM;
			for (uint32_t i = 0; i < n; i++)
				g->bss[i] = g->dev[g->bdev[i]].s;
			if ((rc = an_waitrec_wait(g->out, &x)) < 0 ||
			    (rc = blame_overlap(g, &x, g->bss, n, c->t0, end, l->enter,
						 l->region, l->s)) < 0)
				return rc;
		}
	}
	if (!explicit_sync(c->role))
		return 0;
	/* late synchronization: the device sat idle until the host came */
	for (uint32_t i = 0; i < n; i++) {
		struct an_dev_act *d = &g->dev[g->bdev[i]];
		struct an_wait x = { d->enter, d->t1, (uint64_t)(c->t0 - d->t1), c->enter,
				     d->s, LS_P_BLAME_SYNC, true, d->region };

		if (d->t1 >= c->t0 || d->idle_blamed)
			continue;
		d->idle_blamed = true;
		if ((rc = an_waitrec_wait(g->out, &x)) < 0 ||
		    (rc = an_waitrec_blame(g->out, c->enter, c->region, x.dur, LS_P_BLAME_SYNC,
					 d->enter, c->s)) < 0)
			return rc;
	}
	return 0;
}

int an_gpu_waits_edge(struct an_gpu_waits *g, enum ls_edge type, uint64_t from, uint64_t to)
{
	switch (type) {
	case LS_E_LAUNCH:
		return launch_edge(g, from, to);
	case LS_E_SYNC:
	case LS_E_EVENT:
		return sync_edge(g, from, to);
	case LS_E_NULL_STREAM:
		return held_back(g, from, to, LS_P_NULL_STREAM);
	case LS_E_STREAM_WAIT:
		return held_back(g, from, to, LS_P_STREAM_WAIT);
	default:
		return 0;
	}
}

int an_gpu_waits_flush(struct an_gpu_waits *g, struct an_item *it)
{
	uint64_t to;

	if (!g->batch)
		return 0;
	if (it && it->kind == LS_K_EDGE && an_item_edge_to(it, &to) && to == g->to)
		return 0;
	g->batch = false;
	if (g->held) {
		g->held = false;
		return decide_held(g);
	}
	return decide_sync(g);
}

void an_gpu_waits_release(struct an_gpu_waits *g)
{
	for (uint32_t s = 0; s < g->gs_cap && g->gs; s++)
		free(g->gs[s].failed);
	for (uint32_t p = 0; p < g->idle_cap && g->idle; p++) {
		an_interval_release(&g->idle[p].iv);
		ls_idmap_release(&g->idle[p].ix);
		free(g->idle[p].iv_s);
	}
	an_interval_release(&g->scratch);
	free(g->sc_s);
	free(g->dev);
	free(g->call);
	free(g->gs);
	free(g->idle);
	free(g->bdev);
	free(g->bss);
	ls_idmap_release(&g->dev_leave);
	ls_idmap_release(&g->dev_enter);
	ls_idmap_release(&g->call_enter);
	ls_idmap_release(&g->call_leave);
	an_gpu_waits_init(g, g->tr, g->out);
}
