/* The critical path: predecessors, collection, and the crit records. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "../libstream/vec.h"
#include "critpath.h"
#include "graph.h"
#include "pathblame.h"
#include "pieces.h"
#include "sidework.h"
#include "stage.h"
#include "trace.h"
/* Scratch of a collection, per node. */
struct an_crit_mark {
	uint32_t stamp;		/* the chain that reached it first (+1), 0 none */
	uint32_t nchild, child;	/* nodes whose predecessor it is, one of them */
	uint8_t root, drop;
	uint8_t pin;		/* kept though no root reaches it */
};

struct an_crit {
	struct an_trace tr;	/* frames' a: their enter's node + 1; b: 1 once a message sent in it was received;
				 * c: their entry in blame */
	struct an_graph g;	/* the events taken */
	struct an_cp_node *n;	/* what the path keeps of each, by the graph's node index */
	uint32_t cap;
	struct ls_idmap unsent;	/* blocking sends ended, their message not yet received: enter ids */
	uint32_t base;		/* the last node of the path written */
	struct an_crit_end want;	/* where the path is to end */
	char why[192];			/* why the stage failed at the input's end */
	uint32_t end;		/* the end so far, a root: the latest leave of MPI_Finalize (AN_END_RUN),
				 * of the region (AN_END_REGION), the last event by the time (AN_END_TIME) */
	uint8_t *ends_on;	/* per stream index: its last event may end the path (AN_END_RUN: it did
				 * main work; AN_END_STREAM: it is named so) */
	uint8_t *end_region;	/* per region index: named as AN_END_REGION asks */
	uint8_t *forked;	/* per stream index: its last event is a fork */
	uint32_t ends_on_cap, end_region_cap, forked_cap;
	uint32_t gc_at;		/* collect when the graph holds that many nodes */
	struct an_crit_mark *mark;
	uint32_t *roots, *chain, *origins;
	uint32_t mark_cap, roots_cap, chain_cap, origins_cap;
	struct an_pieces pieces;
	struct an_piece open;	/* the last piece, not yet written */
	bool has_open;
	struct an_pathblame blame;	/* the activities' blame on the path */
	struct an_sidework side;	/* the path in plain code while another thread drove the GPU */
	struct an_typed_list typed;	/* the crit and path_blame records written since last asked */
	uint64_t *per_stream;	/* ns on the path per stream index */
	uint32_t per_stream_cap;
	unsigned jobs;
	struct ls_writer *w;
	struct an_crit_stats st;
};


#define GC_MIN (1u << 16)
#define STAMP_BASE UINT32_MAX

struct an_crit *an_crit_new(struct ls_writer *w, unsigned jobs)
{
	struct an_crit *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	an_trace_init(&c->tr);
	an_graph_init(&c->g);
	an_pathblame_init(&c->blame, &c->typed);
	an_sidework_init(&c->side, &c->tr.defs);
	c->base = c->end = LS_NONE;
	c->gc_at = GC_MIN;
	c->jobs = jobs ? jobs : 1;
	c->pieces.clock = INT64_MIN;
	c->pieces.team_region = LS_NONE;
	c->st.end_s = c->st.latest_s = LS_NONE;
	c->w = w;
	return c;
}

void an_crit_end_at(struct an_crit *c, const struct an_crit_end *e)
{
	c->want = *e;
}

void an_crit_keep_all(struct an_crit *c)
{
	c->gc_at = UINT32_MAX;
}

size_t an_crit_bytes_per_node(void)
{
	return an_graph_bytes_per_node() + sizeof(struct an_cp_node) + sizeof(struct an_crit_mark);
}

/* Definitions */

/* Whether a definition's name, or its id, is what AN_END_REGION or AN_END_STREAM asks for. */
static bool named(const struct an_crit *c, const struct ls_record *rec, uint64_t id)
{
	const char *name;
	char digits[24];
	uint32_t n;

	if (ls_get_str(rec, LS_F_NAME, &name, &n) == 0 && strlen(c->want.name) == n &&
	    !memcmp(name, c->want.name, n))
		return true;
	snprintf(digits, sizeof(digits), "%" PRIu64, id);
	return !strcmp(digits, c->want.name);
}

/* A stream was defined: it has no node yet, nor time on the path. */
static int new_stream(struct an_crit *c, const struct ls_record *rec)
{
	uint32_t s = c->tr.defs.nstreams - 1;

	if (an_graph_stream(&c->g) < 0 ||
	    ls_vec_room(&c->per_stream, &c->per_stream_cap, s, sizeof(*c->per_stream)) < 0 ||
	    ls_vec_room(&c->ends_on, &c->ends_on_cap, s, sizeof(*c->ends_on)) < 0 ||
	    ls_vec_room(&c->forked, &c->forked_cap, s, sizeof(*c->forked)) < 0)
		return LS_ERR_NOMEM;
	c->per_stream[s] = 0;
	c->forked[s] = 0;
	c->ends_on[s] = c->want.kind == AN_END_STREAM && named(c, rec, c->tr.defs.streams[s].id);
	return 0;
}

/* A region was defined: whether its leave may end the path (AN_END_REGION); the team start's, where it is that. */
static int new_region(struct an_crit *c, const struct ls_record *rec)
{
	uint32_t r = c->tr.defs.nregions - 1;

	if (ls_vec_room(&c->end_region, &c->end_region_cap, r, sizeof(*c->end_region)) < 0)
		return LS_ERR_NOMEM;
	c->end_region[r] = c->want.kind == AN_END_REGION && named(c, rec, c->tr.defs.region_ids[r]);
	if (c->tr.defs.roles[r] == LS_R_OMP_TEAM_START && c->pieces.team_region == LS_NONE)
		c->pieces.team_region = r;
	return 0;
}

/* Output */

/* Piece pc as a crit record. */
static int write_piece(struct an_crit *c, const struct an_piece *pc)
{
	const struct ls_defs *d = &c->tr.defs;
	bool in = pc->r != LS_NONE, act = in && pc->act != AN_NO_ACT;

	ls_build_begin(c->w, 4 + in + act);
	ls_put_kind(c->w, LS_K_CRIT);
	ls_put_u64(c->w, LS_F_S, d->streams[pc->s].id);
	ls_put_i64(c->w, LS_F_T, pc->t);
	ls_put_u64(c->w, LS_F_DUR, pc->dur);
	if (act)
		ls_put_u64(c->w, LS_F_ACT, pc->act);
	if (in)
		ls_put_u64(c->w, LS_F_R, d->region_ids[pc->r]);
	return ls_build_end(c->w);
}

static int put_piece(struct an_crit *c, const struct an_piece *pc)
{
	size_t at = c->w->out.len;
	int rc;

	if (!c->typed.only && (rc = write_piece(c, pc)) < 0)
		return rc;
	return an_typed_note(&c->typed, c->w, (struct an_typed){ .at = at, .kind = LS_K_CRIT,
								.derived.piece = *pc });
}

/* Activity act's blame-on-path entry, as its enter's node has it (LS_NONE: no node). */
static uint32_t blame_hint(const struct an_crit *c, uint64_t act)
{
	uint32_t i;

	return an_graph_find(&c->g, act, &i) ? c->n[i].pb : LS_NONE;
}

/* Write pc, or join it to the open piece it goes on from. */
static int piece(struct an_crit *c, const struct an_piece *pc)
{
	struct an_piece *o = &c->open;
	int rc;

	c->per_stream[pc->s] += pc->dur;
	c->st.length += pc->dur;
	an_sidework_piece(&c->side, pc);
	if (pc->r != LS_NONE && pc->act != AN_NO_ACT)
		an_pathblame_path(&c->blame, pc->act, blame_hint(c, pc->act), pc->dur);
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
		c->st.changes += c->g.n[c->chain[i]].s != c->g.n[c->chain[i + 1]].s;
	p->skew = 0;
	p->overrun = 0;
	p->team_start = 0;
	p->roles = c->tr.defs.roles;
	if ((rc = an_pieces_resolve(p, c->g.n, c->n, c->chain, len, c->tr.defs.streams,
				    c->jobs)) < 0)
		return rc;
	c->st.skew += p->skew;
	c->st.overrun += p->overrun;
	c->st.team_start += p->team_start;
	for (uint32_t k = 0; k < p->nsub; k++)
		for (uint32_t i = 0; i < p->count[k]; i++)
			if ((rc = piece(c, &p->v[2 * (size_t)p->sub[k] + i])) < 0)
				return rc;
	return 0;
}

/* Nodes and their predecessors */

/* Node i may end the path: the latest such is kept as the end (a root). */
static void end_candidate(struct an_crit *c, uint32_t i)
{
	if (c->end == LS_NONE || c->g.n[i].t >= c->g.n[c->end].t)
		c->end = i;
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
	uint32_t i, last = c->g.last[ev->s];
	int rc;

	if (ls_vec_room(&c->n, &c->cap, c->g.nn, sizeof(*c->n)) < 0)
		return LS_ERR_NOMEM;
	if ((rc = an_graph_add(&c->g, ev->id, ev->t, ev->s, &i)) < 0)
		return rc;
	c->n[i] = (struct an_cp_node){
		.own = own ? own->id : 0, .own_r = own ? own->region : LS_NONE,
		.after = after ? after->id : 0, .after_r = after ? after->region : LS_NONE,
		.pred = last, .leave = LS_NONE,
		/* frames' a is their enter's node + 1; an enter's is set after this */
		.own_enter = own && own->a ? own->a - 1 : LS_NONE, .pb = LS_NONE,
	};
	c->n[i].since = since != INT64_MIN || last == LS_NONE ? since : c->g.n[last].t;
	if (c->want.kind == AN_END_TIME && ev->t - c->g.first <= c->want.ns)
		end_candidate(c, i);
	*out = i;
	return 0;
}

/* A dependency (an edge of type via) from event id `from` to node ti. */
static void depend(struct an_crit *c, uint64_t from, uint32_t ti, enum ls_edge via)
{
	struct an_cp_node *to = &c->n[ti];
	uint32_t fi;

	if (!an_graph_find(&c->g, from, &fi)) {
		/* it may have been later than what the event waited for */
		c->st.lost += c->g.dropped && to->since < c->g.dropped_t;
		return;
	}
	if (fi == ti || c->g.n[fi].t <= to->since)
		return;
	if (ti == c->base) {	/* its part of the path is written */
		c->st.lost++;
		return;
	}
	to->pred = fi;
	to->since = c->g.n[fi].t;
	if (to->own_enter != ti)	/* an enter's pb is its blame entry; a fork leads to a team's start */
		to->pb = via == LS_E_FORK ? AN_FORKED : LS_NONE;
}

/*
 * The message sent at node x was received: its activity, if still open,
 * is marked so (frame b); if it ended, it no longer waits for it.
 */
static void received(struct an_crit *c, uint32_t x)
{
	struct an_stack *st = &c->tr.stacks[c->g.n[x].s];
	uint64_t own = c->n[x].own;

	for (uint32_t k = st->n; k-- > 0;)
		if (st->f[k].id == own) {
			st->f[k].b = 1;
			return;
		}
	ls_idmap_del(&c->unsent, own);
}

/* An edge (its type LS_E__COUNT where the record gives none this version knows). */
static void edge(struct an_crit *c, const struct an_edge_rec *e)
{
	uint32_t fi, ti;

	/* a message received: its send's late receiver wait, if any, has come */
	if (e->type == LS_E_MSG && an_graph_find(&c->g, e->from, &fi))
		received(c, fi);
	if (!an_graph_find(&c->g, e->to, &ti)) {
		c->st.lost++;
		return;
	}
	depend(c, e->from, ti, e->type);
}

/* A late receiver (wait state at for its cause): the send could not end before its receive was posted. */
static void late_receiver(struct an_crit *c, uint64_t at, uint64_t cause)
{
	uint32_t ei;

	if (!an_graph_find(&c->g, at, &ei) || c->n[ei].leave == LS_NONE) {
		c->st.lost++;
		return;
	}
	depend(c, cause, c->n[ei].leave, LS_E_MSG);
}

/*
 * A team's start on the thread that forked it: from its fork to its own
 * team_begin the thread was in the OpenMP runtime's team start, as a team
 * thread is from the fork to its start, not in the function that forked.
 */
static void master_start(struct an_crit *c, uint32_t s, bool forked)
{
	uint32_t fork = c->g.last[s];

	if (!forked || fork == LS_NONE || c->pieces.team_region == LS_NONE)
		return;
	c->n[fork].after = AN_NO_ACT;
	c->n[fork].after_r = c->pieces.team_region;
}

static int event(struct an_crit *c, struct an_item *it, const char **why)
{
	const struct ls_stream *sd;
	struct an_stack *st;
	struct an_frame *f, *top;
	struct an_event ev;
	uint32_t i, enter = LS_NONE;
	bool forked, work;
	int rc = 0;

	if ((rc = an_trace_item(&c->tr, it, &ev, why)) < 0)
		return rc;
	sd = &c->tr.defs.streams[ev.s];
	if (!sd->host && !sd->gpu)
		return 0;
	st = &c->tr.stacks[ev.s];
	forked = c->forked[ev.s];
	c->forked[ev.s] = it->kind == LS_K_FORK;
	if (it->kind == LS_K_TEAM_BEGIN)
		master_start(c, ev.s, forked);
	switch (it->kind) {
	case LS_K_ENTER:
		if (!(f = an_trace_enter(&c->tr, &ev, &rc)))
			return rc;
		if ((rc = add_node(c, &ev, f, f, INT64_MIN, &i)) < 0 ||
		    (rc = an_pathblame_enter(&c->blame, f->id, f->region, ev.s, ev.t, &f->c)) < 0)
			return rc;
		f->a = i + 1;
		c->n[i].own_enter = i;
		c->n[i].pb = f->c;
		work = an_role_main_work((enum ls_role)f->role);
		/* a GPU call that gives work or waits for it (a poll is not work) */
		if (work && sd->host && ls_role_group((enum ls_role)f->role) == LS_G_GPU_CALL &&
		    (rc = an_sidework_call(&c->side, ev.s, ev.t)) < 0)
			return rc;
		if (c->want.kind == AN_END_RUN && work)
			c->ends_on[ev.s] = 1;
		return 0;
	case LS_K_LEAVE:
		if (!(f = an_trace_leave(&c->tr, &ev))) {
			top = an_stack_top(st);
			return add_node(c, &ev, top, top, INT64_MIN, &i);
		}
		if (f->a)
			enter = f->a - 1;
		if ((rc = add_node(c, &ev, f, f > st->f ? f - 1 : NULL, f->t, &i)) < 0)
			return rc;
		if (enter != LS_NONE)
			c->n[enter].leave = i;
		/* the activities above it, never left, end with it */
		for (top = an_stack_top(st); top >= f; top--)
			if ((rc = an_pathblame_leave(&c->blame, top->c, top > st->f ? top[-1].c : LS_NONE,
						     ev.t)) < 0)
				return rc;
		if (an_role_blocking_send(f->role) && !f->b &&
		    (rc = ls_idmap_put(&c->unsent, f->id, 0)) < 0)
			return rc;
		if ((c->want.kind == AN_END_RUN && f->role == LS_R_MPI_FINALIZE) ||
		    (c->want.kind == AN_END_REGION && c->end_region[f->region]))
			end_candidate(c, i);
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
	const struct an_gnode *n = c->g.n;
	const uint32_t *last = c->g.last;
	int64_t h = c->g.now;
	int rc;

	for (uint32_t s = 0; s < d->nstreams; s++)
		if (d->streams[s].host && c->tr.stacks[s].n && last[s] != LS_NONE &&
		    n[last[s]].t < h)
			h = n[last[s]].t;
	for (size_t k = 0; k < c->unsent.cap; k++) {
		uint32_t e;

		if (c->unsent.slot[k].used && an_graph_find(&c->g, c->unsent.slot[k].key, &e) &&
		    n[e].t < h)
			h = n[e].t;
	}
	for (uint32_t s = 0; s < d->nstreams; s++) {
		const struct an_stack *st = &c->tr.stacks[s];

		if ((rc = add_root(c, nroots, last[s])) < 0)
			return rc;
		for (uint32_t k = 0; k < st->n; k++)
			if (st->f[k].a)
				c->mark[st->f[k].a - 1].pin = 1;
	}
	if ((rc = add_root(c, nroots, c->end)) < 0)
		return rc;
	for (uint32_t i = 0; i < c->g.nn; i++)
		if (n[i].t >= h && (rc = add_root(c, nroots, i)) < 0)
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

	const struct an_gnode *g = c->g.n;
	uint32_t prev;

	do {
		uint32_t pred = c->n[y].pred;

		if (pred != g[y].prev && g[pred].t - g[y].t >= worst) {
			worst = g[pred].t - g[y].t;
			cut = y;
		}
		y = pred;
	} while (y != p);
	prev = g[cut].prev;
	c->mark[c->n[cut].pred].nchild--;
	c->n[cut].pred = prev;
	c->n[cut].since = prev == LS_NONE ? INT64_MIN : g[prev].t;
	if (c->n[cut].pb == AN_FORKED)
		c->n[cut].pb = LS_NONE;
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

/*
 * Keep only the reached nodes not written, and the pinned; and for each
 * kept node the event before it on its stream, whose activity a transit
 * to it is charged to past its source's end, and the enter and leave of
 * its own activity, whose end a transit from it is cut at (pieces.h): so
 * that collecting never changes the path.
 */
static int compact(struct an_crit *c)
{
	const struct an_crit_mark *m = c->mark;
	struct an_graph *g = &c->g;
	uint32_t nn = g->nn;
	int rc;

	if ((rc = an_graph_unmark(g)) < 0)
		return rc;
	for (uint32_t i = 0; i < nn; i++) {
		uint32_t e = c->n[i].own_enter;

		if ((m[i].stamp && !m[i].drop) || m[i].pin)
			an_graph_keep(g, i);
		else if (!an_graph_kept(g, i))	/* unless a kept node before it needs it */
			continue;
		an_graph_keep(g, g->n[i].prev);
		if (e == LS_NONE)
			continue;
		an_graph_keep(g, e);
		an_graph_keep(g, c->n[e].leave);
	}
	/* the activities followed whose enter goes: found by their id from now on */
	for (uint32_t i = 0; i < nn; i++)
		if (c->n[i].pb != LS_NONE && c->n[i].pb != AN_FORKED && !an_graph_kept(g, i) &&
		    (rc = an_pathblame_adrift(&c->blame, g->n[i].id, c->n[i].pb)) < 0)
			return rc;
	if ((rc = an_graph_collect(g)) < 0)
		return rc;
	an_graph_move(g, c->n, sizeof(*c->n));
	for (uint32_t i = 0; i < g->nn; i++) {
		c->n[i].pred = an_graph_moved(g, c->n[i].pred);
		c->n[i].leave = an_graph_moved(g, c->n[i].leave);
		c->n[i].own_enter = an_graph_moved(g, c->n[i].own_enter);
	}
	for (uint32_t s = 0; s < c->tr.defs.nstreams; s++) {
		struct an_stack *st = &c->tr.stacks[s];

		for (uint32_t k = 0; k < st->n; k++)
			if (st->f[k].a)
				st->f[k].a = an_graph_moved(g, st->f[k].a - 1) + 1;
	}
	c->end = an_graph_moved(g, c->end);
	c->base = an_graph_moved(g, c->base);
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

	uint32_t nn = c->g.nn;

	if (nn > c->st.peak)
		c->st.peak = nn;
	if (ls_vec_room(&c->mark, &c->mark_cap, nn - 1, sizeof(*c->mark)) < 0)
		return LS_ERR_NOMEM;
	memset(c->mark, 0, (size_t)nn * sizeof(*c->mark));
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
		if ((rc = take_chain(c, m, &len)) < 0 || (rc = write_chain(c, len)) < 0 ||
		    (rc = an_pathblame_settle(&c->blame, c->pieces.clock, &c->tr.defs, c->w)) < 0)
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
	nn = c->g.nn;
	c->gc_at = nn > UINT32_MAX / 2 ? UINT32_MAX : nn * 2 > GC_MIN ? nn * 2 : GC_MIN;
	return 0;
}

uint64_t an_crit_reads(void)
{
	return LS_DEFS_KINDS | ls_class_kinds(LS_C_EVENT) |
	       LS_KIND_BIT(LS_K_EDGE) | LS_KIND_BIT(LS_K_WAIT) | LS_KIND_BIT(LS_K_BLAME);
}

/* A blame share of ns on activity to: its time for the activity's blame on the path (idleness's apart). */
static int blame_share(struct an_crit *c, uint64_t to, uint64_t ns, bool idle)
{
	return an_pathblame_blame(&c->blame, to, blame_hint(c, to), ns, idle, &c->tr.defs, c->w);
}

/* A wait record read from the input: a late receiver's, if it is one. */
static void wait_record(struct an_crit *c, const struct ls_record *rec)
{
	const char *pattern;
	uint64_t at, cause;
	uint32_t len;

	if (ls_get_str(rec, LS_F_PATTERN, &pattern, &len) == 0 &&
	    ls_pattern_lookup(pattern, len) == LS_P_LATE_RECEIVER &&
	    ls_get_u64(rec, LS_F_AT, &at) == 0 && ls_get_u64(rec, LS_F_CAUSE, &cause) == 0)
		late_receiver(c, at, cause);
}

/* A blame record read from the input. */
static int blame(struct an_crit *c, const struct ls_record *rec)
{
	const char *pattern;
	uint64_t to, ns;
	uint32_t len;

	if (ls_get_u64(rec, LS_F_TO, &to) < 0 || ls_get_u64(rec, LS_F_NS, &ns) < 0 ||
	    ls_get_str(rec, LS_F_PATTERN, &pattern, &len) < 0)
		return 0;
	return blame_share(c, to, ns, ls_pattern_name_idle(pattern, len));
}

int an_crit_take(struct an_crit *c, struct an_item *it,
		 const char **why)
{
	const struct ls_record *rec = NULL;
	struct an_edge_rec e;
	int rc;

	/* an event's fields, or a derived record's its writer knew, are read where needed */
	if (ls_kind_spec(it->kind)->cls != LS_C_EVENT && !it->known && (rc = an_item_need(it, &rec, why)) < 0)
		return rc;
	switch (ls_kind_spec(it->kind)->cls) {
	case LS_C_DEF:
		if ((rc = an_trace_def(&c->tr, rec, why)) < 0)
			return rc;
		if ((rc == 1 && rec->kind == LS_K_STREAM && (rc = new_stream(c, rec)) < 0) ||
		    (rc == 1 && rec->kind == LS_K_REGION && (rc = new_region(c, rec)) < 0))
			return rc;
		break;
	case LS_C_EVENT:
		if ((rc = event(c, it, why)) < 0)
			return rc;
		break;
	default:
		if ((rc = an_trace_derived(&c->tr, it, why)) < 0)
			return rc;
		if (it->kind == LS_K_BLAME && it->known) {
			if ((rc = blame_share(c, it->derived.blame.to, it->derived.blame.ns,
					       ls_pattern_idle(it->derived.blame.pattern))) < 0)
				return rc;
		} else if (it->kind == LS_K_EDGE) {
			if ((rc = an_item_edge(it, &e, why)) < 0)
				return rc;
			if (rc != 1)	/* from and to given */
				edge(c, &e);
		} else if (it->kind == LS_K_WAIT && it->known) {
			if (it->derived.wait.pattern == LS_P_LATE_RECEIVER && it->derived.wait.has_cause)
				late_receiver(c, it->derived.wait.at, it->derived.wait.cause);
		} else if (it->kind == LS_K_WAIT) {
			wait_record(c, rec);
		} else if (it->kind == LS_K_BLAME && (rc = blame(c, rec)) < 0) {
			return rc;
		}
		break;
	}
	return c->g.nn >= c->gc_at ? collect(c, LS_NONE) : 0;
}

/* The latest last event of the streams ends_on marks (all, where none is): LS_NONE where none has one. */
static uint32_t latest_of(const struct an_crit *c, bool all)
{
	uint32_t best = LS_NONE;

	for (uint32_t s = 0; s < c->tr.defs.nstreams; s++) {
		uint32_t x = c->g.last[s];

		if (x != LS_NONE && (all || c->ends_on[s]) &&
		    (best == LS_NONE || c->g.n[x].t > c->g.n[best].t ||
		     (c->g.n[x].t == c->g.n[best].t && x > best)))
			best = x;
	}
	return best;
}

static bool any_ends_on(const struct an_crit *c)
{
	for (uint32_t s = 0; s < c->tr.defs.nstreams; s++)
		if (c->ends_on[s] && c->g.last[s] != LS_NONE)
			return true;
	return false;
}

bool an_crit_end_found(const struct an_crit *c)
{
	switch (c->want.kind) {
	case AN_END_REGION: case AN_END_TIME:
		return c->end != LS_NONE;
	case AN_END_STREAM:
		return any_ends_on(c);
	default:
		return true;
	}
}

/* The node the path ends at, and where it is (st). */
static uint32_t the_end(struct an_crit *c)
{
	struct an_crit_stats *st = &c->st;
	uint32_t end = c->end;

	if (c->want.kind == AN_END_LAST)
		end = c->g.nn - 1;
	else if (c->want.kind == AN_END_STREAM || (c->want.kind == AN_END_RUN && end == LS_NONE)) {
		st->by_work = c->want.kind == AN_END_RUN && any_ends_on(c);
		end = latest_of(c, c->want.kind == AN_END_RUN && !st->by_work);
	}
	if (end == LS_NONE)
		return end;
	st->end_t = c->g.n[end].t;
	st->end_s = c->g.n[end].s;
	for (uint32_t s = 0; s < c->tr.defs.nstreams; s++) {
		uint32_t x = c->g.last[s];

		if (x == LS_NONE || c->g.n[x].t <= st->end_t)
			continue;
		st->later++;
		if (st->latest_s == LS_NONE || c->g.n[x].t > st->latest_t) {
			st->latest_s = s;
			st->latest_t = c->g.n[x].t;
		}
	}
	return end;
}

int an_crit_finish(struct an_crit *c)
{
	uint32_t end;
	int rc;

	if (c->g.nn && (end = the_end(c)) != LS_NONE && (rc = collect(c, end)) < 0)
		return rc;
	if (c->has_open && (rc = put_piece(c, &c->open)) < 0)
		return rc;
	c->has_open = false;
	return an_pathblame_settle(&c->blame, INT64_MAX, &c->tr.defs, c->w);
}

struct an_crit_stats an_crit_stats(const struct an_crit *c)
{
	struct an_crit_stats st = c->st;

	st.nodes = c->g.added;
	st.path_blame = c->blame.written;
	st.blame_unknown = c->blame.unknown;
	st.first = c->g.first;
	st.end = c->g.now;
	return st;
}

const struct ls_defs *an_crit_defs(const struct an_crit *c)
{
	return &c->tr.defs;
}

uint64_t an_crit_stream_ns(const struct an_crit *c, uint32_t s)
{
	return c->per_stream[s];
}

int an_crit_beside(const struct an_crit *c, struct an_sidework_note *out)
{
	return an_sidework_worst(&c->side, out);
}

uint32_t an_crit_held(const struct an_crit *c)
{
	return c->g.nn;
}

void an_crit_free(struct an_crit *c)
{
	if (!c)
		return;
	an_trace_release(&c->tr);
	an_graph_release(&c->g);
	an_pathblame_release(&c->blame);
	an_sidework_release(&c->side);
	free(c->typed.v);
	ls_idmap_release(&c->unsent);
	free(c->n);
	free(c->mark);
	free(c->roots);
	free(c->chain);
	free(c->origins);
	free(c->per_stream);
	free(c->ends_on);
	free(c->forked);
	free(c->end_region);
	an_pieces_release(&c->pieces);
	free(c);
}

/* tr-critpath as a stage (stage.h): opts, where the path ends (struct an_crit_end; NULL: the run's end) */

static void *open_crit(struct ls_writer *w, unsigned jobs, const void *opts)
{
	struct an_crit *c = an_crit_new(w, jobs);

	if (c && opts)
		an_crit_end_at(c, opts);
	/* for checking that collecting does not change the path: tr-critpath(1) */
	if (c && getenv("TR_CRITPATH_KEEP_ALL"))
		an_crit_keep_all(c);
	return c;
}

static int take_crit(void *ctx, struct an_item *it, const char **why)
{
	return an_crit_take(ctx, it, why);
}

/* The end asked for was never found: LS_ERR_SYNTAX, why the option it came from in words. */
static int no_end(struct an_crit *c, const char **why)
{
	const struct an_crit_end *e = &c->want;

	if (e->kind == AN_END_TIME)
		snprintf(c->why, sizeof(c->why), "--end %.9f: no event that early", (double)e->ns / 1e9);
	else
		snprintf(c->why, sizeof(c->why), "--end %s=%s: %s", e->kind == AN_END_REGION ? "region" :
			 "stream", e->name, e->kind == AN_END_REGION ? "no region of that name (or id) was left"
			 : "no stream of that name (or id) has an event");
	*why = c->why;
	return LS_ERR_SYNTAX;
}

static int finish_crit(void *ctx, const char **why)
{
	return an_crit_end_found(ctx) ? an_crit_finish(ctx) : no_end(ctx, why);
}

static size_t odd_crit(const void *ctx, struct an_count *out)
{
	struct an_crit_stats st = an_crit_stats(ctx);
	const struct an_count odd[] = {
		{ st.lost, "dependencies came for events whose part of the path was already decided; the path may differ there" },
		{ st.cycles, "dependency cycles (edges against the order of events) cut" },
		{ st.blame_unknown, "ns of blame came for activities whose share of the path was let go of: "
				    "not counted on the path" },
		{ st.skew, "steps of the path go back in time (clock skew, or events stamped after the "
			   "fact): they take 0 ns" },
	};

	memcpy(out, odd, sizeof(odd));
	return sizeof(odd) / sizeof(odd[0]);
}

/* Where the path could not start from the run's end, or ended before some streams did. */
static size_t notes_crit(const void *ctx, char *buf, size_t n)
{
	struct an_crit_stats st = an_crit_stats(ctx);
	struct an_sidework_note side;
	size_t len = 0;
	int k;

	if (st.unreached && (k = snprintf(buf, n, "the run's end does not depend on the path written "
					  "before it (streams that never synchronize)\n")) > 0)
		len = (size_t)k < n ? (size_t)k : n - 1;
	if (st.by_work && st.later) {
		const struct ls_defs *d = an_crit_defs(ctx);
		const struct ls_stream *e = &d->streams[st.end_s], *l = &d->streams[st.latest_s];

		k = snprintf(buf + len, n - len, "the path ends where the run's main work (GPU work, the "
			     "calls that give or wait for it, MPI) ends, %.9f s after the first event, on "
			     "stream %" PRIu64 " (%s); %" PRIu32 " streams went on without it, up to %.9f s "
			     "longer (stream %" PRIu64 ", %s): --end last ends the path there\n",
			     (double)(st.end_t - st.first) / 1e9, e->id, e->name ? e->name : "unnamed",
			     st.later, (double)(st.latest_t - st.end_t) / 1e9, l->id,
			     l->name ? l->name : "unnamed");
		if (k > 0)
			len += (size_t)k < n - len ? (size_t)k : n - len - 1;
	}
	if (an_crit_beside(ctx, &side) && st.length && side.ns >= st.length / 20) {
		const struct ls_defs *d = an_crit_defs(ctx);
		const struct ls_stream *s = &d->streams[side.s], *b = &d->streams[side.by];

		k = snprintf(buf + len, n - len, "%.9f s of the path (%.1f %%) is in plain code on stream %" PRIu64
			     " (%s) while stream %" PRIu64 " (%s) of its process made %" PRIu64 " GPU calls: no event "
			     "of the trace links the two (PyTorch's main thread waits in an annotation while its "
			     "autograd thread works), so the path stays on the waiting thread and the working "
			     "thread's calls are not on it\n",
			     (double)side.ns / 1e9, 100.0 * (double)side.ns / (double)st.length, s->id,
			     s->name ? s->name : "unnamed", b->id, b->name ? b->name : "unnamed", side.calls);
		if (k > 0)
			len += (size_t)k < n - len ? (size_t)k : n - len - 1;
	}
	return len;
}

static void held_crit(const void *ctx, char *what, size_t n)
{
	snprintf(what, n, "%" PRIu32 " events kept for the critical path (streams that never "
		 "synchronize with the rest, or a message never received?)", an_crit_held(ctx));
}

static const struct an_typed *typed_crit(void *ctx, size_t *n)
{
	struct an_crit *c = ctx;

	return an_typed_take(&c->typed, n);
}

static void typed_only_crit(void *ctx)
{
	struct an_crit *c = ctx;

	c->typed.only = true;
}

static void close_crit(void *ctx)
{
	an_crit_free(ctx);
}

static const char *const crit_needs[] = { "tr-deps", "tr-waits", NULL };
static const enum ls_kind crit_replaces[] = { LS_K_CRIT, LS_K_PATH_BLAME, 0 };

const struct an_stage an_stage_critpath = {
	.tool = "tr-critpath", .needs = crit_needs, .replaces = crit_replaces, .reads = an_crit_reads,
	.open = open_crit, .take = take_crit, .typed = typed_crit, .typed_only = typed_only_crit,
	.finish = finish_crit, .odd = odd_crit, .notes = notes_crit, .held = held_crit, .close = close_crit,
};
