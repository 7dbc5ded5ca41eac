/* The controlled logical clock over the event graph, and the re-timed stream. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "../libstream/record.h"
#include "../libstream/vec.h"
#include "clock.h"
#include "graph.h"
#include "trace.h"

#define DEFAULT_WINDOW INT64_C(10000000)	/* ns */
#define GC_MIN (1u << 16)
#define RAISES_MAX 1000000	/* raises one edge may cause: past it, a cycle */

/* What the clock keeps of an event besides its graph node (same index). */
struct clk_node {
	int64_t L;		/* its new time */
	uint64_t seq;		/* its place in the input */
	size_t at;		/* its record's bytes in the held events' bytes */
	uint32_t len;
	uint32_t next;		/* the next node on its stream, LS_NONE: none yet */
	uint32_t out;		/* its first out-edge, LS_NONE: none */
	bool written;
};

/*
 * An edge out of an event not yet written: its target moves along with it
 * (GPU to host: it does not, but the source is not moved past it either).
 */
struct clk_edge {
	uint32_t to;		/* node, LS_NONE: no longer kept */
	uint32_t next;		/* the source's next out-edge */
	int64_t latency;
	bool moves;		/* the target is moved to keep it */
};

/* A record that is not an event, waiting for the events read before it. */
struct clk_rec {
	uint64_t seq;
	size_t at;
	uint32_t len;
};

/* Records' bytes, appended; the written ones are dead until compacted. */
struct clk_bytes {
	uint8_t *p;
	size_t n, cap;
};

/* An event to write, in the order of its new time. */
struct clk_ready {
	int64_t L;
	uint64_t sid, seq;
	uint32_t i;
};

struct an_clock {
	struct an_trace tr;
	struct an_graph g;
	struct clk_node *n;	/* by the graph's node index */
	uint32_t cap;
	struct clk_edge *e;
	uint32_t ne, e_cap, free_e;
	struct clk_rec *q;	/* the other records, in input order: q[q_head .. q_n) wait */
	uint32_t q_head, q_n, q_cap;
	struct clk_bytes evb, qb;
	uint32_t first_held;	/* the earliest node not written */
	uint32_t *todo;		/* nodes that moved: their out-edges to check */
	uint32_t ntodo, todo_cap;
	struct clk_ready *ready;
	uint32_t ready_cap;
	uint32_t gc_at;
	uint64_t seq;
	int64_t now;		/* the latest event time read */
	int64_t stepped;	/* when events were last written */
	struct an_clock_options o;
	struct ls_writer *w;
	struct an_clock_stats st;
};

struct an_clock *an_clock_new(struct ls_writer *w, const struct an_clock_options *o)
{
	struct an_clock *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	an_trace_init(&c->tr);
	an_graph_init(&c->g);
	c->o = *o;
	if (c->o.window <= 0)
		c->o.window = DEFAULT_WINDOW;
	c->free_e = LS_NONE;
	c->gc_at = GC_MIN;
	c->now = c->stepped = INT64_MIN;
	c->w = w;
	return c;
}

uint64_t an_clock_reads(void)
{
	return LS_DEFS_KINDS | ls_class_kinds(LS_C_EVENT) | LS_KIND_BIT(LS_K_EDGE);
}

static int bytes_add(struct clk_bytes *b, const struct ls_record *rec, size_t *at)
{
	if (b->cap - b->n < rec->len) {
		size_t cap = b->cap ? 2 * b->cap : 1 << 16;
		uint8_t *p;

		while (cap - b->n < rec->len)
			cap *= 2;
		if (!(p = realloc(b->p, cap)))
			return LS_ERR_NOMEM;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, rec->raw, rec->len);
	*at = b->n;
	b->n += rec->len;
	return 0;
}

/* Writing */

/* Event i as read, or with its new time in place of t (its fields in their order). */
static int write_event(struct an_clock *c, uint32_t i)
{
	const struct clk_node *x = &c->n[i];
	const uint8_t *p = c->evb.p + x->at, *value, *raw;
	uint64_t shift = (uint64_t)(x->L - c->g.n[i].t);
	struct ls_iter it;
	struct mp_item key;
	size_t len;

	if (!shift)
		return ls_write_raw(c->w, p, x->len);
	c->st.moved++;
	c->st.total_shift += shift;
	if (shift > c->st.max_shift)
		c->st.max_shift = shift;
	if (ls_map_at(p, p + x->len, &it) < 0)
		return LS_ERR_SYNTAX;	/* it was read as a record: cannot be */
	ls_build_begin(c->w, it.left);
	while (ls_map_next(&it, &key, &value, &raw, &len)) {
		if (key.v.s.n == 1 && key.v.s.p[0] == 't')
			ls_put_i64(c->w, LS_F_T, x->L);
		else
			ls_put_raw(c->w, raw, len);
	}
	return ls_build_end(c->w);
}

/* Write the other records that wait for no event not yet written. */
static int write_records(struct an_clock *c)
{
	uint64_t limit = c->first_held < c->g.nn ? c->n[c->first_held].seq : UINT64_MAX;
	int rc;

	for (; c->q_head < c->q_n && c->q[c->q_head].seq < limit; c->q_head++)
		if ((rc = ls_write_raw(c->w, c->qb.p + c->q[c->q_head].at,
				       c->q[c->q_head].len)) < 0)
			return rc;
	if (c->q_head == c->q_n) {	/* all written: start again at the front */
		c->q_head = c->q_n = 0;
		c->qb.n = 0;
	} else if (c->q_head >= 4096 && c->q_head >= c->q_n / 2) {
		/* most are written: the rest move to the front */
		size_t from = c->q[c->q_head].at;

		memmove(c->qb.p, c->qb.p + from, c->qb.n - from);
		c->qb.n -= from;
		c->q_n -= c->q_head;
		memmove(c->q, c->q + c->q_head, (size_t)c->q_n * sizeof(*c->q));
		for (uint32_t k = 0; k < c->q_n; k++)
			c->q[k].at -= from;
		c->q_head = 0;
	}
	return 0;
}

/* An event was written: it never moves again, so its out-edges go. */
static void written(struct an_clock *c, uint32_t i)
{
	struct clk_node *x = &c->n[i];

	x->written = true;
	while (x->out != LS_NONE) {
		uint32_t k = x->out;

		x->out = c->e[k].next;
		ls_pool_give(c->e, sizeof(*c->e), &c->free_e, k);
	}
	while (c->first_held < c->g.nn && c->n[c->first_held].written)
		c->first_held++;
}

static int by_new_time(const void *a, const void *b)
{
	const struct clk_ready *x = a, *y = b;

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
static int write_before(struct an_clock *c, int64_t t)
{
	uint32_t nr = 0;
	int rc;

	for (uint32_t i = c->first_held; i < c->g.nn; i++) {
		if (c->n[i].written || c->n[i].L >= t)
			continue;
		if (ls_vec_room(&c->ready, &c->ready_cap, nr, sizeof(*c->ready)) < 0)
			return LS_ERR_NOMEM;
		c->ready[nr++] = (struct clk_ready){
			c->n[i].L, c->tr.defs.streams[c->g.n[i].s].id, c->n[i].seq, i
		};
	}
	/* mostly nothing moved: they are in input order, which is theirs */
	for (uint32_t k = 1; k < nr; k++)
		if (by_new_time(&c->ready[k - 1], &c->ready[k]) > 0) {
			qsort(c->ready, nr, sizeof(*c->ready), by_new_time);
			break;
		}
	for (uint32_t k = 0; k < nr; k++) {
		if ((rc = write_event(c, c->ready[k].i)) < 0)
			return rc;
		written(c, c->ready[k].i);
		if ((rc = write_records(c)) < 0)
			return rc;
	}
	return write_records(c);
}

/* Raising events */

/*
 * Where node x is, going on from the new time of the node before it on
 * its stream: the interval between them kept (the shift its stream has
 * reached goes on).
 */
static int64_t go_on(const struct an_clock *c, uint32_t x)
{
	uint32_t p = c->g.n[x].prev;

	return p == LS_NONE ? c->g.n[x].t : c->n[p].L + (c->g.n[x].t - c->g.n[p].t);
}

static int todo(struct an_clock *c, uint32_t i)
{
	if (ls_vec_room(&c->todo, &c->todo_cap, c->ntodo, sizeof(*c->todo)) < 0)
		return LS_ERR_NOMEM;
	c->todo[c->ntodo++] = i;
	return 0;
}

/*
 * How much later node x may be: as far as the edges it is the source of
 * allow where their target cannot move along (written, no longer kept, or
 * a host call that waited for the GPU).
 */
static int64_t slack(const struct an_clock *c, uint32_t x)
{
	int64_t room = INT64_MAX;

	for (uint32_t k = c->n[x].out; k != LS_NONE; k = c->e[k].next) {
		const struct clk_edge *e = &c->e[k];
		int64_t r;

		if (e->to != LS_NONE && e->moves && !c->n[e->to].written)
			continue;
		r = e->to == LS_NONE ? 0 : c->n[e->to].L - e->latency - c->n[x].L;
		if (r < room)
			room = r;
	}
	return room;
}

/*
 * Node b must be d ns later: it and the rest of its stream move by d;
 * the events of its stream before it, not yet written, move by as much,
 * the latest first, as far as slack allows (a clock off by a constant is
 * thus moved as a whole). Every event moved has its out-edges checked, so
 * that what they lead to moves along. Returns 0 (a raise past the window
 * or of a written event is counted, not made) or LS_ERR_NOMEM.
 */
static int raise(struct an_clock *c, uint32_t b, int64_t d)
{
	int64_t allowed = d;
	int rc;

	if (c->n[b].written) {
		c->st.late++;
		return 0;
	}
	if (c->n[b].L + d - c->g.n[b].t > c->o.window || !ls_time_ok(c->n[b].L + d)) {
		c->st.too_far++;
		return 0;
	}
	c->n[b].L += d;
	if ((rc = todo(c, b)) < 0)
		return rc;
	for (uint32_t x = c->n[b].next; x != LS_NONE; x = c->n[x].next) {
		int64_t L = go_on(c, x);

		if (L <= c->n[x].L)
			break;
		c->n[x].L = L;
		if ((rc = todo(c, x)) < 0)
			return rc;
	}
	for (uint32_t x = c->g.n[b].prev; x != LS_NONE && !c->n[x].written; x = c->g.n[x].prev) {
		int64_t room = slack(c, x);

		if (room < allowed)
			allowed = room;
		if (c->n[x].L + allowed - c->g.n[x].t > c->o.window)
			allowed = c->o.window - (c->n[x].L - c->g.n[x].t);
		if (allowed <= 0)
			break;
		c->n[x].L += allowed;
		if ((rc = todo(c, x)) < 0)
			return rc;
	}
	return 0;
}

/* The edge from node a to node b: b no earlier than a plus its latency. */
static int enforce(struct an_clock *c, uint32_t a, uint32_t b, int64_t latency, enum ls_edge type)
{
	uint32_t raises = 0;
	int rc;

	if (c->n[a].L + latency <= c->n[b].L)
		return 0;
	if (type < LS_E__COUNT)
		c->st.violations[type]++;
	c->ntodo = 0;
	if ((rc = raise(c, b, c->n[a].L + latency - c->n[b].L)) < 0)
		return rc;
	while (c->ntodo) {
		uint32_t x = c->todo[--c->ntodo];

		for (uint32_t k = c->n[x].out; k != LS_NONE; k = c->e[k].next) {
			const struct clk_edge *e = &c->e[k];
			int64_t need = c->n[x].L + e->latency;

			if (e->to == LS_NONE || c->n[e->to].L >= need)
				continue;
			if (!e->moves) {
				c->st.gpu_late++;
				continue;
			}
			if (++raises > RAISES_MAX) {	/* edges in a cycle */
				c->st.too_far++;
				c->ntodo = 0;
				return 0;
			}
			if ((rc = raise(c, e->to, need - c->n[e->to].L)) < 0)
				return rc;
		}
	}
	return 0;
}

static int edge(struct an_clock *c, const struct ls_record *rec, const char **why)
{
	uint64_t from, to;
	uint32_t a, b, n, k;
	const char *type;
	enum ls_edge e;
	int64_t latency;
	bool moves;

	if (ls_get_u64(rec, LS_F_FROM, &from) < 0 || ls_get_u64(rec, LS_F_TO, &to) < 0 ||
	    ls_get_str(rec, LS_F_TYPE, &type, &n) < 0) {
		*why = "edge without a valid 'from', 'to' or 'type'";
		return LS_ERR_SYNTAX;
	}
	e = ls_edge_lookup(type, n);
	latency = e < LS_E__COUNT ? c->o.latency[e] : 0;
	if (!an_graph_find(&c->g, to, &b) || c->n[b].written) {
		c->st.late++;
		return 0;
	}
	if (!an_graph_find(&c->g, from, &a)) {
		c->st.lost++;
		return 0;
	}
	if (a == b)
		return 0;
	/*
	 * A GPU event after the host call that waited for it: the GPU's clock
	 * is late there, and moving the host would carry that into every
	 * launch after it (and round again): such an edge is counted, and
	 * only keeps its source from moving further.
	 */
	moves = !c->tr.defs.streams[c->g.n[a].s].gpu || c->tr.defs.streams[c->g.n[b].s].gpu;
	if (!c->n[a].written) {
		if (ls_pool_take(&c->e, &c->ne, &c->e_cap, sizeof(*c->e), &c->free_e, &k) < 0)
			return LS_ERR_NOMEM;
		c->e[k] = (struct clk_edge){ b, c->n[a].out, latency, moves };
		c->n[a].out = k;
	}
	if (!moves) {
		c->st.gpu_late += c->n[a].L + latency > c->n[b].L;
		return 0;
	}
	return enforce(c, a, b, latency, e);
}

/* Collection */

/*
 * Keep the events not yet written, and those written within a window of
 * the input (edges from them may still come); their bytes move to the
 * front.
 */
static int collect(struct an_clock *c)
{
	struct an_graph *g = &c->g;
	int64_t keep_from = c->now - c->o.window;
	size_t at = 0;
	int rc;

	if (g->nn - c->first_held > c->st.peak)
		c->st.peak = g->nn - c->first_held;
	if ((rc = an_graph_unmark(g)) < 0)
		return rc;
	for (uint32_t i = 0; i < g->nn; i++)
		if (!c->n[i].written || c->n[i].L >= keep_from)
			an_graph_keep(g, i);
	if ((rc = an_graph_collect(g)) < 0)
		return rc;
	an_graph_move(g, c->n, sizeof(*c->n));
	c->first_held = an_graph_moved(g, c->first_held);
	if (c->first_held == LS_NONE)
		c->first_held = g->nn;
	for (uint32_t i = 0; i < g->nn; i++) {
		struct clk_node *x = &c->n[i];

		x->next = an_graph_moved(g, x->next);
		for (uint32_t k = x->out; k != LS_NONE; k = c->e[k].next)
			c->e[k].to = an_graph_moved(g, c->e[k].to);
		if (x->written)
			continue;
		memmove(c->evb.p + at, c->evb.p + x->at, x->len);
		x->at = at;
		at += x->len;
	}
	c->evb.n = at;
	c->gc_at = g->nn > UINT32_MAX / 2 ? UINT32_MAX : g->nn * 2 > GC_MIN ? g->nn * 2 : GC_MIN;
	return 0;
}

/* Taking records */

static int event(struct an_clock *c, const struct ls_record *rec, const char **why)
{
	struct an_event ev;
	uint32_t i, last;
	int rc;

	if ((rc = an_trace_event(&c->tr, rec, &ev, why)) < 0)
		return rc;
	last = c->g.last[ev.s];

	if (ls_vec_room(&c->n, &c->cap, c->g.nn, sizeof(*c->n)) < 0)
		return LS_ERR_NOMEM;
	if ((rc = an_graph_add(&c->g, ev.id, ev.t, ev.s, &i)) < 0)
		return rc;
	c->n[i] = (struct clk_node){ .seq = c->seq++, .len = rec->len, .next = LS_NONE,
				     .out = LS_NONE };
	/* the shift its stream has reached, kept or (gamma < 1) fading */
	c->n[i].L = go_on(c, i);
	if ((rc = bytes_add(&c->evb, rec, &c->n[i].at)) < 0)
		return rc;
	if (last != LS_NONE)
		c->n[last].next = i;
	c->st.events++;
	if (ev.t > c->now)
		c->now = ev.t;
	return 0;
}

/* A record that is not an event: written after the events read before it. */
static int other(struct an_clock *c, const struct ls_record *rec)
{
	if (ls_vec_room(&c->q, &c->q_cap, c->q_n, sizeof(*c->q)) < 0)
		return LS_ERR_NOMEM;
	c->q[c->q_n] = (struct clk_rec){ .seq = c->seq++, .len = rec->len };
	if (bytes_add(&c->qb, rec, &c->q[c->q_n].at) < 0)
		return LS_ERR_NOMEM;
	c->q_n++;
	return 0;
}

int an_clock_take(struct an_clock *c, const struct ls_record *rec, const char **why)
{
	int rc;

	switch (ls_kind_spec(rec->kind)->cls) {
	case LS_C_DEF:
		if ((rc = an_trace_def(&c->tr, rec, why)) < 0)
			return rc;
		if (rec->kind == LS_K_STREAM && (rc = an_graph_stream(&c->g)) < 0)
			return rc;
		rc = other(c, rec);
		break;
	case LS_C_EVENT:
		rc = event(c, rec, why);
		break;
	default:
		if (rec->kind == LS_K_EDGE && (rc = edge(c, rec, why)) < 0)
			return rc;
		rc = other(c, rec);
		break;
	}
	if (rc == LS_ERR_SYNTAX)	/* what came before the bad record is written */
		return write_before(c, INT64_MAX) < 0 ? LS_ERR_IO : rc;
	if (rc < 0)
		return rc;
	/* every eighth of a window, write what the window has passed */
	if (c->st.events && (c->stepped == INT64_MIN || c->now - c->o.window / 8 > c->stepped)) {
		c->stepped = c->now;
		if ((rc = write_before(c, c->now - c->o.window)) < 0)
			return rc;
	}
	if (c->g.nn - c->first_held > c->st.peak)
		c->st.peak = c->g.nn - c->first_held;
	return c->g.nn >= c->gc_at ? collect(c) : write_records(c);
}

int an_clock_finish(struct an_clock *c)
{
	return write_before(c, INT64_MAX);
}

struct an_clock_stats an_clock_stats(const struct an_clock *c)
{
	return c->st;
}

uint32_t an_clock_held(const struct an_clock *c)
{
	return c->g.nn - c->first_held;
}

void an_clock_free(struct an_clock *c)
{
	if (!c)
		return;
	an_trace_release(&c->tr);
	an_graph_release(&c->g);
	free(c->n);
	free(c->e);
	free(c->q);
	free(c->evb.p);
	free(c->qb.p);
	free(c->todo);
	free(c->ready);
	free(c);
}
