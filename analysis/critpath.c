/* The critical path: predecessors, collection, and the crit records. */
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "critpath.h"
#include "../libstream/vec.h"

#define GC_MIN (1u << 16)
#define STAMP_BASE UINT32_MAX

void an_crit_init(struct an_crit *c, struct ls_writer *w, unsigned jobs)
{
	memset(c, 0, sizeof(*c));
	an_trace_init(&c->tr);
	c->base = c->fin = LS_NONE;
	c->gc_at = GC_MIN;
	c->now = INT64_MIN;
	c->jobs = jobs ? jobs : 1;
	c->pieces.clock = INT64_MIN;
	c->w = w;
}

void an_crit_keep_all(struct an_crit *c)
{
	c->gc_at = UINT32_MAX;
}

size_t an_crit_bytes_per_node(void)
{
	/* the id map is at most half full: two slots a node, up to four after it grew */
	return sizeof(struct an_cp_node) + 2 * sizeof(struct ls_idmap_slot) +
	       sizeof(struct an_crit_mark);
}

/* Output */

static int put_piece(struct an_crit *c, const struct an_piece *pc)
{
	const struct ls_defs *d = &c->tr.defs;
	bool act = pc->r != LS_NONE;

	ls_build_begin(c->w, 4 + 2 * act);
	ls_put_kind(c->w, LS_K_CRIT);
	ls_put_u64(c->w, LS_F_S, d->streams[pc->s].id);
	ls_put_i64(c->w, LS_F_T, pc->t);
	ls_put_u64(c->w, LS_F_DUR, pc->dur);
	if (act) {
		ls_put_u64(c->w, LS_F_ACT, pc->act);
		ls_put_u64(c->w, LS_F_R, d->region_ids[pc->r]);
	}
	return ls_build_end(c->w);
}

/* Write pc, or join it to the open piece it goes on from. */
static int piece(struct an_crit *c, const struct an_piece *pc)
{
	struct an_piece *o = &c->open;
	int rc;

	c->per_stream[pc->s] += pc->dur;
	c->st.length += pc->dur;
	if (c->has_open && an_piece_goes_on(o, pc)) {
		o->dur += pc->dur;
		return 0;
	}
	if (c->has_open && (rc = put_piece(c, o)) < 0)
		return rc;
	*o = *pc;
	c->has_open = true;
	return 0;
}

/* Resolve chain[0 .. len-1] (path order) and write its pieces. */
static int write_chain(struct an_crit *c, uint32_t len)
{
	struct an_pieces *p = &c->pieces;
	int rc;

	for (uint32_t i = 0; i + 1 < len; i++)
		c->st.changes += c->n[c->chain[i]].s != c->n[c->chain[i + 1]].s;
	p->skew = 0;
	p->overrun = 0;
	if ((rc = an_pieces_resolve(p, c->n, c->chain, len, c->tr.defs.streams,
				    c->jobs)) < 0)
		return rc;
	c->st.skew += p->skew;
	c->st.overrun += p->overrun;
	for (uint32_t k = 0; k < p->nsub; k++)
		for (uint32_t i = 0; i < p->count[k]; i++)
			if ((rc = piece(c, &p->v[2 * (size_t)p->sub[k] + i])) < 0)
				return rc;
	return 0;
}

/* Nodes and their predecessors */

/*
 * Event id to node. The newest nodes, whose ids run on by one (as tr-read
 * numbers events), are found by their place in that run, so they need no
 * room in the id map nor time to enter and clear it; the others are in
 * the map.
 */
static bool node_of(const struct an_crit *c, uint64_t id, uint32_t *i)
{
	if (id - c->run_id < c->run_n) {
		*i = c->run_at + (uint32_t)(id - c->run_id);
		return true;
	}
	return ls_idmap_get(&c->ix, id, i);
}

/* Node i starts a run: the run before it goes into the id map. */
static int start_run(struct an_crit *c, uint32_t i)
{
	int rc;

	for (uint32_t k = c->run_at; k < c->run_at + c->run_n; k++)
		if ((rc = ls_idmap_put(&c->ix, c->n[k].id, k)) < 0)
			return rc;
	c->run_at = i;
	c->run_id = c->n[i].id;
	c->run_n = 1;
	return 0;
}

/*
 * Node i was added: it extends the run, or starts the next. Nodes are
 * added, and kept at a collection, in order, so i always follows the run.
 */
static inline int index_node(struct an_crit *c, uint32_t i)
{
	if (c->run_n && c->n[i].id == c->run_id + c->run_n) {
		c->run_n++;
		return 0;
	}
	return start_run(c, i);
}

/*
 * Add event ev as a node, in activity own and with after open after it.
 * since: the time a dependency must pass to be waited for (a leave: its
 * activity's enter), INT64_MIN for that of the event before it.
 */
static int add_node(struct an_crit *c, const struct an_event *ev,
		    const struct an_frame *own, const struct an_frame *after,
		    int64_t since, uint32_t *out)
{
	uint32_t i = c->nn, *last = &c->last[ev->s];
	int rc;

	if (ls_vec_room(&c->n, &c->cap, i, sizeof(*c->n)) < 0)
		return LS_ERR_NOMEM;
	c->n[i] = (struct an_cp_node){
		.t = ev->t, .id = ev->id,
		.own = own ? own->id : 0, .own_r = own ? own->region : LS_NONE,
		.after = after ? after->id : 0, .after_r = after ? after->region : LS_NONE,
		.s = ev->s, .pred = *last, .prev = *last, .leave = LS_NONE,
		/* frames' a is their enter's node + 1; an enter's is set after this */
		.own_enter = own && own->a ? own->a - 1 : LS_NONE,
	};
	c->n[i].since = since != INT64_MIN || *last == LS_NONE ? since : c->n[*last].t;
	if ((rc = index_node(c, i)) < 0)
		return rc;
	*last = i;
	c->nn++;
	c->st.nodes++;
	if (ev->t > c->now)
		c->now = ev->t;
	if (c->st.nodes == 1 || ev->t < c->first)
		c->first = ev->t;
	*out = i;
	return 0;
}

/* A dependency from event id `from` to node ti. */
static void depend(struct an_crit *c, uint64_t from, uint32_t ti)
{
	struct an_cp_node *to = &c->n[ti];
	uint32_t fi;

	if (!node_of(c, from, &fi)) {
		/* it may have been later than what the event waited for */
		c->st.lost += c->dropped && to->since < c->dropped_t;
		return;
	}
	if (fi == ti || c->n[fi].t <= to->since)
		return;
	if (ti == c->base) {	/* its part of the path is written */
		c->st.lost++;
		return;
	}
	to->pred = fi;
	to->since = c->n[fi].t;
}

/*
 * The message sent at node x was received: its activity, if still open,
 * is marked so (frame b); if it ended, it no longer waits for it.
 */
static void received(struct an_crit *c, const struct an_cp_node *x)
{
	struct an_stack *st = &c->tr.stacks[x->s];

	for (uint32_t k = st->n; k-- > 0;)
		if (st->f[k].id == x->own) {
			st->f[k].b = 1;
			return;
		}
	ls_idmap_del(&c->unsent, x->own);
}

static void edge(struct an_crit *c, const struct ls_record *rec)
{
	uint64_t from, to;
	uint32_t fi, ti, n;
	const char *type;

	if (ls_get_u64(rec, LS_F_FROM, &from) < 0 || ls_get_u64(rec, LS_F_TO, &to) < 0)
		return;
	/* a message received: its send's late receiver wait, if any, has come */
	if (ls_get_str(rec, LS_F_TYPE, &type, &n) == 0 && ls_edge_lookup(type, n) == LS_E_MSG &&
	    node_of(c, from, &fi))
		received(c, &c->n[fi]);
	if (!node_of(c, to, &ti)) {
		c->st.lost++;
		return;
	}
	depend(c, from, ti);
}

/* A late receiver: the send could not end before its receive was posted. */
static void wait_state(struct an_crit *c, const struct ls_record *rec)
{
	const char *pattern;
	uint32_t len, ei;
	uint64_t at, cause;

	if (ls_get_str(rec, LS_F_PATTERN, &pattern, &len) < 0 ||
	    ls_pattern_lookup(pattern, len) != LS_P_LATE_RECEIVER ||
	    ls_get_u64(rec, LS_F_AT, &at) < 0 || ls_get_u64(rec, LS_F_CAUSE, &cause) < 0)
		return;
	if (!node_of(c, at, &ei) || c->n[ei].leave == LS_NONE) {
		c->st.lost++;
		return;
	}
	depend(c, cause, c->n[ei].leave);
}

static int event(struct an_crit *c, const struct ls_record *rec, const char **why)
{
	const struct ls_stream *sd;
	struct an_stack *st;
	struct an_frame *f, *top;
	struct an_event ev;
	uint32_t i, enter = LS_NONE;
	int rc = 0;

	if ((rc = an_trace_event(&c->tr, rec, &ev, why)) < 0)
		return rc;
	sd = &c->tr.defs.streams[ev.s];
	if (!sd->host && !sd->gpu)
		return 0;
	st = &c->tr.stacks[ev.s];
	switch (rec->kind) {
	case LS_K_ENTER:
		if (!(f = an_trace_enter(&c->tr, rec, &ev, &rc, why)))
			return rc;
		if ((rc = add_node(c, &ev, f, f, INT64_MIN, &i)) < 0)
			return rc;
		f->a = i + 1;
		c->n[i].own_enter = i;
		return 0;
	case LS_K_LEAVE:
		if (!(f = an_trace_leave(&c->tr, rec, &ev, &rc, why))) {
			if (rc < 0)
				return rc;
			top = an_stack_top(st);
			return add_node(c, &ev, top, top, INT64_MIN, &i);
		}
		if (f->a)
			enter = f->a - 1;
		if ((rc = add_node(c, &ev, f, f > st->f ? f - 1 : NULL, f->t, &i)) < 0)
			return rc;
		if (enter != LS_NONE)
			c->n[enter].leave = i;
		if ((f->role == LS_R_MPI_SEND || f->role == LS_R_MPI_SENDRECV) && !f->b &&
		    (rc = ls_idmap_put(&c->unsent, f->id, 0)) < 0)
			return rc;
		if (f->role == LS_R_MPI_FINALIZE &&
		    (c->fin == LS_NONE || ev.t >= c->n[c->fin].t))
			c->fin = i;
		an_stack_pop_to(st, f);
		return 0;
	default:
		top = an_stack_top(st);
		return add_node(c, &ev, top, top, INT64_MIN, &i);
	}
}

/* Collection */

static int push(uint32_t **v, uint32_t *n, uint32_t *cap, uint32_t x)
{
	if (ls_vec_room(v, cap, *n, sizeof(**v)) < 0)
		return LS_ERR_NOMEM;
	(*v)[(*n)++] = x;
	return 0;
}

static int add_root(struct an_crit *c, uint32_t *nroots, uint32_t x)
{
	if (x == LS_NONE || c->mark[x].root)
		return 0;
	c->mark[x].root = 1;
	return push(&c->roots, nroots, &c->roots_cap, x);
}

/*
 * The roots: nodes later events may still depend on. Every node since
 * the earliest last event of a busy host thread may be the source of an
 * edge to come; before that, an edge's source is never later than its
 * target's stream predecessor. A blocking send whose message has not been
 * received may still get a late receiver's dependency into its leave:
 * every node since its enter stays a root, so that the posting of the
 * receive, which came after it, does too.
 */
static int gather_roots(struct an_crit *c, uint32_t *nroots)
{
	const struct ls_defs *d = &c->tr.defs;
	int64_t h = c->now;
	int rc;

	for (uint32_t s = 0; s < d->nstreams; s++)
		if (d->streams[s].host && c->tr.stacks[s].n && c->last[s] != LS_NONE &&
		    c->n[c->last[s]].t < h)
			h = c->n[c->last[s]].t;
	for (size_t k = 0; k < c->unsent.cap; k++) {
		uint32_t e;

		if (c->unsent.slot[k].used && node_of(c, c->unsent.slot[k].key, &e) &&
		    c->n[e].t < h)
			h = c->n[e].t;
	}
	for (uint32_t s = 0; s < d->nstreams; s++) {
		const struct an_stack *st = &c->tr.stacks[s];

		if ((rc = add_root(c, nroots, c->last[s])) < 0)
			return rc;
		for (uint32_t k = 0; k < st->n; k++)
			if (st->f[k].a)
				c->mark[st->f[k].a - 1].pin = 1;
	}
	if ((rc = add_root(c, nroots, c->fin)) < 0)
		return rc;
	for (uint32_t i = 0; i < c->nn; i++)
		if (c->n[i].t >= h && (rc = add_root(c, nroots, i)) < 0)
			return rc;
	return 0;
}

/*
 * The chain from p has come back to p: edges that contradict each other
 * (a dependency matched to the wrong event). Cut the one that goes back
 * furthest in time: its target waits for the event before it on its
 * stream instead. Returns that target.
 */
static uint32_t cut_cycle(struct an_crit *c, uint32_t p)
{
	uint32_t y = p, cut = LS_NONE;
	int64_t worst = INT64_MIN;

	do {
		const struct an_cp_node *n = &c->n[y];

		if (n->pred != n->prev && c->n[n->pred].t - n->t >= worst) {
			worst = c->n[n->pred].t - n->t;
			cut = y;
		}
		y = n->pred;
	} while (y != p);
	c->mark[c->n[cut].pred].nchild--;
	c->n[cut].pred = c->n[cut].prev;
	c->n[cut].since = c->n[cut].prev == LS_NONE ? INT64_MIN : c->n[c->n[cut].prev].t;
	c->st.cycles++;
	return cut;
}

/*
 * Follow root k's chain of predecessors until a node already reached, the
 * written path's last node, or an event with none (an origin). Each node
 * counts the nodes whose chain reached it. Returns 1 if the chain reached
 * the written path, else 0; LS_ERR_NOMEM.
 */
static int follow(struct an_crit *c, uint32_t k, uint32_t *norigins)
{
	uint32_t x = c->roots[k], p;
	struct an_crit_mark *m = c->mark;

	if (m[x].stamp)
		return 1;
	m[x].stamp = k + 1;
	for (;; x = p) {
		p = c->n[x].pred;
		while (p != LS_NONE && m[p].stamp == k + 1) {	/* a cycle */
			x = cut_cycle(c, p);
			p = c->n[x].pred;
		}
		if (p == LS_NONE) {
			if (c->base == LS_NONE &&
			    push(&c->origins, norigins, &c->origins_cap, x) < 0)
				return LS_ERR_NOMEM;
			return 0;
		}
		m[p].nchild++;
		m[p].child = x;
		if (m[p].stamp)
			return 1;
		m[p].stamp = k + 1;
	}
}

/* The chain from node x back to the written path (or an origin), in path order. */
static int take_chain(struct an_crit *c, uint32_t x, uint32_t *len)
{
	*len = 0;
	for (; x != LS_NONE; x = c->n[x].pred) {
		if (push(&c->chain, len, &c->chain_cap, x) < 0)
			return LS_ERR_NOMEM;
		if (x == c->base)
			break;
	}
	for (uint32_t i = 0, j = *len - 1; i < j; i++, j--) {
		uint32_t t = c->chain[i];

		c->chain[i] = c->chain[j];
		c->chain[j] = t;
	}
	return 0;
}

/* The new index of node x (in the mark's child), LS_NONE if dropped. */
static uint32_t remap(const struct an_crit *c, uint32_t x)
{
	return x == LS_NONE ? LS_NONE : c->mark[x].child;
}

/*
 * Keep only the reached nodes not written, and the pinned, renumbered in
 * order; and for each kept node the event before it on its stream, whose
 * activity a transit to it is charged to past its source's end, and the
 * enter and leave of its own activity, whose end a transit from it is cut
 * at (pieces.h): so that collecting never changes the path.
 */
static int compact(struct an_crit *c)
{
	struct an_crit_mark *m = c->mark;
	uint32_t j = 0;
	int rc;

	for (uint32_t i = 0; i < c->nn; i++) {
		uint32_t e = c->n[i].own_enter;

		if (!((m[i].stamp && !m[i].drop) || m[i].pin))
			continue;
		if (c->n[i].prev != LS_NONE)
			m[c->n[i].prev].pin = 1;
		if (e == LS_NONE)
			continue;
		m[e].pin = 1;
		if (c->n[e].leave != LS_NONE)
			m[c->n[e].leave].pin = 1;
	}
	for (uint32_t i = 0; i < c->nn; i++) {
		if ((m[i].stamp && !m[i].drop) || m[i].pin) {
			m[i].child = j++;
			continue;
		}
		m[i].child = LS_NONE;
		if (!c->dropped || c->n[i].t > c->dropped_t)
			c->dropped_t = c->n[i].t;
		c->dropped = true;
	}
	j = 0;
	for (uint32_t i = 0; i < c->nn; i++) {
		if (m[i].child == LS_NONE)
			continue;
		c->n[j] = c->n[i];
		c->n[j].pred = remap(c, c->n[i].pred);
		c->n[j].prev = remap(c, c->n[i].prev);
		c->n[j].leave = remap(c, c->n[i].leave);
		c->n[j].own_enter = remap(c, c->n[i].own_enter);
		j++;
	}
	for (uint32_t s = 0; s < c->tr.defs.nstreams; s++) {
		struct an_stack *st = &c->tr.stacks[s];

		c->last[s] = remap(c, c->last[s]);
		for (uint32_t k = 0; k < st->n; k++)
			if (st->f[k].a)
				st->f[k].a = remap(c, st->f[k].a - 1) + 1;
	}
	c->fin = remap(c, c->fin);
	c->base = remap(c, c->base);
	c->nn = j;
	ls_idmap_clear(&c->ix);
	c->run_n = 0;
	for (uint32_t i = 0; i < c->nn; i++)
		if ((rc = index_node(c, i)) < 0)
			return rc;
	return 0;
}

/*
 * Collect: write the part of the path every root's chain shares and drop
 * what no chain reaches. At the end (end != LS_NONE) the only root is the
 * run's end, and its whole chain is written.
 */
static int collect(struct an_crit *c, uint32_t end)
{
	uint32_t nroots = 0, norigins = 0, m, len;
	int rc, reached = 1;

	if (c->nn > c->st.peak)
		c->st.peak = c->nn;
	if (ls_vec_room(&c->mark, &c->mark_cap, c->nn - 1, sizeof(*c->mark)) < 0)
		return LS_ERR_NOMEM;
	memset(c->mark, 0, (size_t)c->nn * sizeof(*c->mark));
	if (c->base != LS_NONE)
		c->mark[c->base].stamp = STAMP_BASE;
	if ((rc = end != LS_NONE ? add_root(c, &nroots, end) : gather_roots(c, &nroots)) < 0)
		return rc;
	for (uint32_t k = 0; k < nroots; k++)
		if ((rc = reached = follow(c, k, &norigins)) < 0)
			return rc;
	if (end != LS_NONE) {
		c->st.unreached += c->base != LS_NONE && !reached;
		m = end;
	} else {
		m = c->base != LS_NONE ? c->base : norigins == 1 ? c->origins[0] : LS_NONE;
		while (m != LS_NONE && !c->mark[m].root && c->mark[m].nchild == 1)
			m = c->mark[m].child;
		if (m == LS_NONE || m == c->base)
			m = LS_NONE;
	}
	if (m != LS_NONE) {
		if ((rc = take_chain(c, m, &len)) < 0 || (rc = write_chain(c, len)) < 0)
			return rc;
		for (uint32_t i = 0; i + 1 < len; i++)
			c->mark[c->chain[i]].drop = 1;
		c->n[m].pred = LS_NONE;
		c->base = m;
	}
	if (end != LS_NONE)
		return 0;
	if ((rc = compact(c)) < 0)
		return rc;
	c->gc_at = c->nn > UINT32_MAX / 2 ? UINT32_MAX : c->nn * 2 > GC_MIN ? c->nn * 2 : GC_MIN;
	return 0;
}

/* A stream was defined: it has no node yet, nor time on the path. */
static int new_stream(struct an_crit *c)
{
	uint32_t s = c->tr.defs.nstreams - 1;

	if (ls_vec_room(&c->last, &c->last_cap, s, sizeof(*c->last)) < 0 ||
	    ls_vec_room(&c->per_stream, &c->per_stream_cap, s, sizeof(*c->per_stream)) < 0)
		return LS_ERR_NOMEM;
	c->last[s] = LS_NONE;
	c->per_stream[s] = 0;
	return 0;
}

uint64_t an_crit_reads(void)
{
	return LS_DEFS_KINDS | ls_class_kinds(LS_C_EVENT) |
	       LS_KIND_BIT(LS_K_EDGE) | LS_KIND_BIT(LS_K_WAIT);
}

int an_crit_take(struct an_crit *c, const struct ls_record *rec,
		 const char **why)
{
	int rc;

	switch (ls_kind_spec(rec->kind)->cls) {
	case LS_C_DEF:
		if ((rc = an_trace_def(&c->tr, rec, why)) < 0)
			return rc;
		if (rec->kind == LS_K_STREAM && (rc = new_stream(c)) < 0)
			return rc;
		break;
	case LS_C_EVENT:
		if ((rc = event(c, rec, why)) < 0)
			return rc;
		break;
	default:
		if (rec->kind == LS_K_EDGE)
			edge(c, rec);
		else if (rec->kind == LS_K_WAIT)
			wait_state(c, rec);
		break;
	}
	return c->nn >= c->gc_at ? collect(c, LS_NONE) : 0;
}

int an_crit_finish(struct an_crit *c)
{
	int rc;

	if (c->nn && (rc = collect(c, c->fin != LS_NONE ? c->fin : c->nn - 1)) < 0)
		return rc;
	if (c->has_open && (rc = put_piece(c, &c->open)) < 0)
		return rc;
	c->has_open = false;
	return 0;
}

void an_crit_release(struct an_crit *c)
{
	an_trace_release(&c->tr);
	ls_idmap_release(&c->ix);
	ls_idmap_release(&c->unsent);
	free(c->n);
	free(c->last);
	free(c->mark);
	free(c->roots);
	free(c->chain);
	free(c->origins);
	free(c->per_stream);
	an_pieces_release(&c->pieces);
	memset(c, 0, sizeof(*c));
}
