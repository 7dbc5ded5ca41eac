/* The re-timing engine: held events, their new times and edges, and the re-timed stream. */
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "../libstream/times.h"
#include "../libstream/vec.h"
#include "retime.h"

#define GC_MIN (1u << 16)

void an_retime_init(struct an_retime *rt, struct ls_writer *w, const struct ls_defs *defs,
		    int64_t window)
{
	memset(rt, 0, sizeof(*rt));
	an_graph_init(&rt->g);
	rt->free_e = LS_NONE;
	rt->gc_at = GC_MIN;
	rt->now = rt->stepped = INT64_MIN;
	rt->window = window;
	rt->defs = defs;
	rt->w = w;
}

void an_retime_earlier(struct an_retime *rt, size_t size)
{
	rt->earlier = true;
	rt->aux_size = size;
}

int an_retime_stream(struct an_retime *rt)
{
	return an_graph_stream(&rt->g);
}

/* Writing */

/* Event i moved: counted. */
static void count_move(struct an_retime *rt, uint32_t i)
{
	uint64_t shift = (uint64_t)(rt->n[i].L - rt->g.n[i].t);

	rt->moved++;
	rt->total_shift += shift;
	if (shift > rt->max_shift)
		rt->max_shift = shift;
}

/* Event i with its new time in place of t (its fields in their order). */
static int write_moved(struct an_retime *rt, uint32_t i)
{
	const struct an_rt_node *x = &rt->n[i];
	const uint8_t *p = rt->evb.p + x->at, *value, *raw;
	struct ls_iter it;
	struct mp_item key;
	size_t len;

	if (ls_map_at(p, p + x->len, &it) < 0)
		return LS_ERR_SYNTAX;	/* it was read as a record: cannot be */
	ls_build_begin(rt->w, it.left);
	while (ls_map_next(&it, &key, &value, &raw, &len)) {
		if (key.v.s.n == 1 && key.v.s.p[0] == 't')
			ls_put_i64(rt->w, LS_F_T, x->L);
		else
			ls_put_raw(rt->w, raw, len);
	}
	return ls_build_end(rt->w);
}

/*
 * Event i as read, or with its new time in place of t; noted typed, where
 * it begins in what was written. An event read with no bytes (its typed
 * form says all of it: ls_front_typed_only) is written with none.
 */
static int write_event(struct an_retime *rt, uint32_t i)
{
	const struct an_rt_node *x = &rt->n[i];
	const struct an_gnode *g = &rt->g.n[i];
	size_t at = rt->w->out.len;
	int rc = 0;

	if (x->L != g->t)
		count_move(rt, i);
	if (x->len && (rc = x->L == g->t ? ls_write_raw(rt->w, rt->evb.p + x->at, x->len) :
				     write_moved(rt, i)) < 0)
		return rc;
	return an_typed_note(&rt->typed, rt->w, (struct an_typed){
		.at = at, .kind = x->kind, .ev = { x->kind, g->id, x->L, g->s, rt->defs->streams[g->s].process, x->r }
	});
}

/* Whether node i (LS_NONE: no longer kept, long written) is written. */
static bool written_or_gone(const struct an_retime *rt, uint32_t i)
{
	return i == LS_NONE || rt->n[i].written;
}

/* Most records are written: the rest move to the front (the nodes' waiting lists with them). */
static void move_to_front(struct an_retime *rt)
{
	uint32_t by = rt->q_head;
	size_t from = rt->q[by].at;

	memmove(rt->qb.p, rt->qb.p + from, rt->qb.len - from);
	rt->qb.len -= from;
	rt->q_n -= by;
	memmove(rt->q, rt->q + by, (size_t)rt->q_n * sizeof(*rt->q));
	for (uint32_t k = 0; k < rt->q_n; k++) {
		rt->q[k].at -= from;
		if (rt->q[k].next_waiter != LS_NONE)
			rt->q[k].next_waiter -= by;
	}
	for (uint32_t i = rt->first_held; i < rt->g.nn; i++)
		if (rt->n[i].waiters != LS_NONE)
			rt->n[i].waiters -= by;
	for (uint32_t j = 0; j < rt->nwoken; j++)	/* none written: past the head */
		rt->woken[j] -= by;
	rt->q_head = 0;
}

/* Drop the written records at the front; when most are written, move the rest to the front. */
static inline void compact(struct an_retime *rt)
{
	while (rt->q_head < rt->q_n && rt->q[rt->q_head].done)
		rt->q_head++;
	if (rt->q_head == rt->q_n) {	/* all written: start again at the front */
		rt->q_head = rt->q_n = 0;
		rt->qb.len = 0;
		rt->nwoken = 0;
	} else if (rt->q_head >= 4096 && rt->q_head >= rt->q_n / 2) {
		move_to_front(rt);
	}
}

/*
 * Edge record r's first end not written, or (where the rule moves events
 * earlier) the event read last before it; LS_NONE: none.
 */
static uint32_t awaited(const struct an_retime *rt, const struct an_rt_rec *r)
{
	if (!written_or_gone(rt, r->a))
		return r->a;
	if (!written_or_gone(rt, r->b))
		return r->b;
	return !rt->earlier || written_or_gone(rt, r->after) ? LS_NONE : r->after;
}

static int by_index(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Edge record k waits in the list of the first node it awaits, or is ready to be written (woken). */
static int edge_due(struct an_retime *rt, uint32_t k)
{
	struct an_rt_rec *r = &rt->q[k];
	uint32_t w = awaited(rt, r);

	if (w != LS_NONE) {
		r->next_waiter = rt->n[w].waiters;
		rt->n[w].waiters = k;
		return 0;
	}
	if (ls_vec_room(&rt->woken, &rt->woken_cap, rt->nwoken, sizeof(*rt->woken)) < 0)
		return LS_ERR_NOMEM;
	rt->woken[rt->nwoken++] = k;
	return 0;
}

static int write_rec(struct an_retime *rt, struct an_rt_rec *r)
{
	size_t at = rt->w->out.len;
	int rc;

	r->done = true;
	/* an edge noted and not written (an_stage.typed_only) has no bytes */
	if (r->len && (rc = ls_write_raw(rt->w, rt->qb.p + r->at, r->len)) < 0)
		return rc;
	if (!r->is_edge)
		return 0;
	return an_typed_note(&rt->typed, rt->w, (struct an_typed){ .at = at, .kind = LS_K_EDGE,
								 .derived.edge = r->edge });
}

/*
 * Where the rule moves events earlier: the records in their order, the
 * edges ready among them (their ends and the event read last before them
 * written), the others (and a collective's edges) once every event read
 * before them is written and no edge before them waits; past the first
 * that waits, only the edges ready.
 */
static int write_in_order(struct an_retime *rt)
{
	uint64_t held = rt->first_held < rt->g.nn ? rt->n[rt->first_held].seq : UINT64_MAX;
	uint32_t j = 0, k;
	int rc;

	if (rt->nwoken > 1)
		qsort(rt->woken, rt->nwoken, sizeof(*rt->woken), by_index);
	for (k = rt->q_head; k < rt->q_n; k++) {
		struct an_rt_rec *r = &rt->q[k];

		if (j < rt->nwoken && rt->woken[j] == k) {
			if ((rc = write_rec(rt, r)) < 0)
				return rc;
			j++;
			continue;
		}
		if (r->done)
			continue;
		if (r->a != LS_NONE || r->b != LS_NONE || r->seq > held)
			break;
		if ((rc = write_rec(rt, r)) < 0)
			return rc;
	}
	for (; j < rt->nwoken; j++)
		if ((rc = write_rec(rt, &rt->q[rt->woken[j]])) < 0)
			return rc;
	rt->nwoken = 0;
	compact(rt);
	return 0;
}

/*
 * Write the other records that wait for no event. An edge waits for its
 * ends and for the events read before it that did not move (a moved one
 * is later than its own time, and would hold it back for nothing: a stage
 * after this one may no longer keep its ends' activities then). Any other
 * record (an instance) waits for every event read before it, and for the
 * records before it that are still waiting, edges included (an instance
 * comes after its edges). So: the records in their order while each can
 * go; past the first that waits, only edges, those whose ends are written
 * (woken as their last end was: a scan of every waiting record at every
 * event made this quadratic where many edges wait, as a collective's of
 * hundreds of processes within the window), in their order.
 */
static int write_records(struct an_retime *rt)
{
	uint64_t still, held;
	uint32_t kept = 0;
	int rc;

	if (rt->q_head == rt->q_n)
		return 0;
	if (rt->earlier)
		return write_in_order(rt);
	while (rt->first_still < rt->g.nn && (rt->n[rt->first_still].written ||
					      rt->n[rt->first_still].L != rt->g.n[rt->first_still].t))
		rt->first_still++;
	still = rt->first_still < rt->g.nn ? rt->n[rt->first_still].seq : UINT64_MAX;
	held = rt->first_held < rt->g.nn ? rt->n[rt->first_held].seq : UINT64_MAX;
	for (uint32_t k = rt->q_head; k < rt->q_n && rt->q[k].seq < still; k++) {
		struct an_rt_rec *r = &rt->q[k];
		bool edge = r->a != LS_NONE || r->b != LS_NONE;

		if (r->done)
			continue;
		if (edge ? !written_or_gone(rt, r->a) || !written_or_gone(rt, r->b) : r->seq > held)
			break;
		if ((rc = write_rec(rt, r)) < 0)
			return rc;
	}
	if (rt->nwoken > 1)
		qsort(rt->woken, rt->nwoken, sizeof(*rt->woken), by_index);
	for (uint32_t j = 0; j < rt->nwoken; j++) {
		struct an_rt_rec *r = &rt->q[rt->woken[j]];

		if (r->done)
			continue;
		if (r->seq >= still) {	/* an event read before it is still held */
			rt->woken[kept++] = rt->woken[j];
			continue;
		}
		if ((rc = write_rec(rt, r)) < 0)
			return rc;
	}
	rt->nwoken = kept;
	compact(rt);
	return 0;
}

/*
 * An event was written: it never moves again, so its out-edges go; the
 * edge records that waited for it wait for what else they await, or are
 * ready.
 */
static int written(struct an_retime *rt, uint32_t i)
{
	struct an_rt_node *x = &rt->n[i];
	uint32_t k;
	int rc;

	x->written = true;
	while (x->out != LS_NONE) {
		struct an_rt_edge *e = &rt->e[x->out];

		k = x->out;
		x->out = e->next;
		if (e->next_in != LS_NONE)
			rt->e[e->next_in].prev_in = e->prev_in;
		if (e->prev_in != LS_NONE)
			rt->e[e->prev_in].next_in = e->next_in;
		else if (e->to != LS_NONE)
			rt->n[e->to].in = e->next_in;
		ls_pool_give(rt->e, sizeof(*rt->e), &rt->free_e, k);
	}
	while (rt->first_held < rt->g.nn && rt->n[rt->first_held].written)
		rt->first_held++;
	for (k = x->waiters, x->waiters = LS_NONE; k != LS_NONE;) {
		uint32_t next = rt->q[k].next_waiter;

		if ((rc = edge_due(rt, k)) < 0)
			return rc;
		k = next;
	}
	return 0;
}

static int by_new_time(const void *a, const void *b)
{
	const struct an_rt_ready *x = a, *y = b;

	if (x->L != y->L)
		return x->L < y->L ? -1 : 1;
	if (x->sid != y->sid)
		return x->sid < y->sid ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * Write the held events whose new time is before t (all of them: t =
 * INT64_MAX), in the order of their new times, each followed by the other
 * records that waited for it.
 */
static int write_before(struct an_retime *rt, int64_t t)
{
	bool all = rt->earlier;
	uint32_t nr = 0;
	int rc;

	/*
	 * held in input order, by time: none from the first at t on is due
	 * (L >= its t), unless the rule moves events earlier
	 */
	for (uint32_t i = rt->first_held; i < rt->g.nn && (all || rt->g.n[i].t < t); i++) {
		if (rt->n[i].written || rt->n[i].L >= t)
			continue;
		if (ls_vec_room(&rt->ready, &rt->ready_cap, nr, sizeof(*rt->ready)) < 0)
			return LS_ERR_NOMEM;
		rt->ready[nr++] = (struct an_rt_ready){
			rt->n[i].L, rt->defs->streams[rt->g.n[i].s].id, rt->n[i].seq, i
		};
	}
	/* mostly nothing moved: they are in input order, which is theirs */
	for (uint32_t k = 1; k < nr; k++)
		if (by_new_time(&rt->ready[k - 1], &rt->ready[k]) > 0) {
			qsort(rt->ready, nr, sizeof(*rt->ready), by_new_time);
			break;
		}
	for (uint32_t k = 0; k < nr; k++) {
		if ((rc = write_event(rt, rt->ready[k].i)) < 0 || (rc = written(rt, rt->ready[k].i)) < 0 ||
		    (rc = write_records(rt)) < 0)
			return rc;
	}
	return write_records(rt);
}

/*
 * Keep the events not yet written, and those written within a window of
 * the input (edges from them may still come); their bytes move to the
 * front.
 */
static int collect(struct an_retime *rt)
{
	struct an_graph *g = &rt->g;
	int64_t keep_from = rt->now - rt->window;
	uint32_t nn = g->nn, still;
	size_t at = 0;
	int rc;

	if ((rc = an_graph_unmark(g)) < 0)
		return rc;
	for (uint32_t i = 0; i < g->nn; i++)
		if (!rt->n[i].written || rt->n[i].L >= keep_from || g->n[i].t >= keep_from)
			an_graph_keep(g, i);
	if ((rc = an_graph_collect(g)) < 0)
		return rc;
	an_graph_move(g, rt->n, sizeof(*rt->n));
	if (rt->aux_size)
		an_graph_move(g, rt->aux, rt->aux_size);
	/* not written: kept; past the last node: past the last kept one */
	rt->first_held = rt->first_held < nn ? an_graph_moved(g, rt->first_held) : g->nn;
	/* written since, and dropped: from the first held again */
	still = rt->first_still < nn ? an_graph_moved(g, rt->first_still) : g->nn;
	rt->first_still = still == LS_NONE ? rt->first_held : still;
	for (uint32_t i = 0; i < g->nn; i++) {
		struct an_rt_node *x = &rt->n[i];

		x->next = an_graph_moved(g, x->next);
		for (uint32_t k = x->out; k != LS_NONE; k = rt->e[k].next) {
			rt->e[k].from = i;
			rt->e[k].to = an_graph_moved(g, rt->e[k].to);
		}
		if (x->written)
			continue;
		memmove(rt->evb.p + at, rt->evb.p + x->at, x->len);
		x->at = at;
		at += x->len;
	}
	rt->evb.len = at;
	for (uint32_t k = rt->q_head; k < rt->q_n; k++) {
		rt->q[k].a = an_graph_moved(g, rt->q[k].a);
		rt->q[k].b = an_graph_moved(g, rt->q[k].b);
		rt->q[k].after = an_graph_moved(g, rt->q[k].after);
	}
	rt->gc_at = g->nn > UINT32_MAX / 2 ? UINT32_MAX : g->nn * 2 > GC_MIN ? g->nn * 2 : GC_MIN;
	return 0;
}

int an_retime_event(struct an_retime *rt, const uint8_t *raw, uint32_t len, const struct an_event *ev,
		    uint32_t *i)
{
	uint32_t last = rt->g.last[ev->s];
	int rc;

	if (ls_vec_room(&rt->n, &rt->cap, rt->g.nn, sizeof(*rt->n)) < 0 ||
	    (rt->aux_size && ls_vec_room(&rt->aux, &rt->aux_cap, rt->g.nn, rt->aux_size) < 0))
		return LS_ERR_NOMEM;
	if ((rc = an_graph_add(&rt->g, ev->id, ev->t, ev->s, i)) < 0)
		return rc;
	if (rt->aux_size)
		memset(an_retime_aux(rt, *i), 0, rt->aux_size);
	rt->n[*i] = (struct an_rt_node){ .seq = rt->seq++, .len = len, .next = LS_NONE,
					 .out = LS_NONE, .in = LS_NONE, .waiters = LS_NONE, .r = ev->r,
					 .kind = ev->kind };
	rt->n[*i].L = rt->earlier ? AN_RT_NOT_YET : an_retime_go_on(rt, *i);
	rt->n[*i].at = rt->evb.len;
	if ((rc = ls_buf_add(&rt->evb, raw, len)) < 0)
		return rc;
	if (last != LS_NONE)
		rt->n[last].next = *i;
	if (ev->t > rt->now)
		rt->now = ev->t;
	return 0;
}

const struct an_typed *an_retime_typed(struct an_retime *rt, size_t *n)
{
	return an_typed_take(&rt->typed, n);
}

int an_retime_edge(struct an_retime *rt, uint32_t a, uint32_t b, int64_t latency, bool moves,
		   uint32_t *kept)
{
	uint32_t k;

	if (kept)
		*kept = LS_NONE;
	if (rt->n[a].written)
		return 0;
	if (ls_pool_take(&rt->e, &rt->ne, &rt->e_cap, sizeof(*rt->e), &rt->free_e, &k) < 0)
		return LS_ERR_NOMEM;
	rt->e[k] = (struct an_rt_edge){ a, b, rt->n[a].out, rt->n[b].in, LS_NONE, latency, moves, false };
	rt->n[a].out = k;
	if (rt->n[b].in != LS_NONE)
		rt->e[rt->n[b].in].prev_in = k;
	rt->n[b].in = k;
	if (kept)
		*kept = k;
	return 0;
}

/* Hold a record's len bytes at raw (an edge's: *edge, from node a to node b; else NULL). */
static int hold(struct an_retime *rt, const uint8_t *raw, uint32_t len, const struct an_edge_rec *edge,
		uint32_t a, uint32_t b)
{
	if (ls_vec_room(&rt->q, &rt->q_cap, rt->q_n, sizeof(*rt->q)) < 0)
		return LS_ERR_NOMEM;
	rt->q[rt->q_n] = (struct an_rt_rec){ .seq = rt->seq++, .at = rt->qb.len, .len = len, .a = a, .b = b,
					     .after = rt->g.nn ? rt->g.nn - 1 : LS_NONE,
					     .next_waiter = LS_NONE, .is_edge = edge != NULL };
	if (edge)
		rt->q[rt->q_n].edge = *edge;
	if (ls_buf_add(&rt->qb, raw, len) < 0)
		return LS_ERR_NOMEM;
	rt->q_n++;
	return a != LS_NONE || b != LS_NONE ? edge_due(rt, rt->q_n - 1) : 0;
}

int an_retime_other(struct an_retime *rt, const struct an_item *it)
{
	return hold(rt, it->raw, it->len, NULL, LS_NONE, LS_NONE);
}

int an_retime_write(struct an_retime *rt, int64_t due)
{
	return write_before(rt, due);
}

int an_retime_take_edge(struct an_retime *rt, struct an_item *it, enum ls_edge *e,
			uint32_t *a, uint32_t *b, uint64_t *late, uint64_t *lost, const char **why)
{
	struct an_edge_rec edge;
	bool whole;
	int rc;

	if ((rc = an_item_edge(it, &edge, why)) != 0) {
		if (rc > 0)
			*why = "edge without a valid 'from', 'to' or 'type'";
		return rc > 0 ? LS_ERR_SYNTAX : rc;
	}
	*e = edge.type;
	/* its ends were read (an_trace_derived): one not held was let go of */
	if (!an_graph_find(&rt->g, edge.to, b)) {
		++*late;
		return hold(rt, it->raw, it->len, &edge, LS_NONE, LS_NONE);
	}
	if (!an_graph_find(&rt->g, edge.from, a)) {
		++*lost;
		return hold(rt, it->raw, it->len, &edge, LS_NONE, *b);
	}
	whole = *e == LS_E_COLL || *e == LS_E_BARRIER;
	return (rc = hold(rt, it->raw, it->len, &edge, whole ? LS_NONE : *a, whole ? LS_NONE : *b)) < 0 ? rc : 1;
}

int an_retime_step(struct an_retime *rt)
{
	int rc;

	/*
	 * at each multiple of an eighth of a window the input passes, write
	 * what the window has passed: when an event is written depends on the
	 * times alone, not on which events there are (a shard of the trace
	 * steps where the whole trace would)
	 */
	if (!rt->earlier && rt->now != INT64_MIN) {
		int64_t step = rt->window / 8 > 0 ? rt->window / 8 : 1;

		if (rt->stepped == INT64_MIN || ls_span(rt->stepped, rt->now) >= (uint64_t)step) {
			rt->stepped = rt->now - ((rt->now % step) + step) % step;
			if ((rc = write_before(rt, rt->stepped - rt->window)) < 0)
				return rc;
		}
	}
	if (an_retime_held(rt) > rt->peak)
		rt->peak = an_retime_held(rt);
	return rt->g.nn >= rt->gc_at ? collect(rt) : write_records(rt);
}

int an_retime_finish(struct an_retime *rt)
{
	return write_before(rt, INT64_MAX);
}

void an_retime_release(struct an_retime *rt)
{
	an_graph_release(&rt->g);
	free(rt->n);
	free(rt->aux);
	free(rt->e);
	free(rt->q);
	ls_buf_release(&rt->evb);
	ls_buf_release(&rt->qb);
	free(rt->typed.v);
	free(rt->ready);
	free(rt->woken);
	memset(rt, 0, sizeof(*rt));
}
