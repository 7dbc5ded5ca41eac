/* What-if re-timing of the event graph (project.h), on the re-timing engine. */
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "../libstream/record.h"
#include "../libstream/times.h"
#include "../libstream/vec.h"
#include "project.h"
#include "retime.h"
#include "stage.h"
#include "trace.h"
#include "unmatched.h"


/* What the rule keeps of a held event (the engine's aux, by node). */
struct pj_node {
	int64_t in_new;		/* the latest new time of a settled source, INT64_MIN: none */
	int64_t in_orig;	/* the latest source's time in the trace, INT64_MIN: no edge */
	int64_t gap;		/* time since the event before it on its stream, in the trace */
	double factor;		/* of the activity open before it */
	uint32_t waiting;	/* edges into it from events not settled */
	uint32_t depth;		/* activities open on its stream after it */
	bool may_wait;		/* the innermost of them can wait (MPI, GPU call, OpenMP) */
	bool coll_end;		/* a member's end of a collective, before its leave */
	bool enter, leave;
	bool settled;
	uint32_t region;	/* a leave's region index */
};

/* Where a stream stands. */
struct pj_stream {
	int64_t read_t;		/* the time of its last event read */
	int64_t L, t;		/* its last event settled: new time, time */
	uint32_t unsettled;	/* events read, not settled */
	uint32_t depth;		/* activities open after its last event settled */
	bool may_wait;		/* the innermost of them can wait */
	bool read, any;		/* an event was read; one was settled */
	int64_t *entered;	/* the new times of the enters of the activities open, settled */
	uint32_t nentered, entered_cap;
};

/* A process's span, read and re-timed. */
struct pj_proc {
	int64_t t0, t1, L0, L1;
	bool any;
};

struct an_project {
	struct an_trace tr;
	struct an_retime rt;
	struct an_project_options o;
	double *factor;		/* per region index */
	int64_t *floor;		/* per region index, -1: none */
	int64_t *set;		/* per region index: its activities' own time, -1: scaled by factor */
	uint32_t factor_cap, floor_cap, set_cap;
	double f_min;		/* the smallest factor, at most 1 */
	struct pj_stream *st;	/* per stream index */
	uint32_t nst, st_cap;
	struct pj_proc *pr;	/* per process index */
	uint32_t pr_cap;
	int64_t written_to;	/* events before it are written */
	int64_t settled_at;	/* the input's time when events were last settled */
	struct pj_proc run;
	struct an_project_stats s;
	struct ls_writer *w;
	struct an_unmatched asked;	/* the scales' patterns (--scale, --set) */
	char why[400];		/* an event projected out of the times a stream holds; a name no region has */
};

static struct pj_node *node(const struct an_project *p, uint32_t i)
{
	return an_retime_aux(&p->rt, i);
}

struct an_project *an_project_new(struct ls_writer *w, const struct an_project_options *o)
{
	struct an_project *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	an_trace_init(&p->tr);
	p->o = *o;
	if (p->o.window <= 0)
		p->o.window = AN_PROJECT_WINDOW;
	an_retime_init(&p->rt, w, &p->tr.defs, p->o.window);
	an_retime_earlier(&p->rt, sizeof(struct pj_node));
	p->f_min = 1;
	for (uint32_t k = 0; k < o->nscales; k++)
		if (o->scales[k].set >= 0 || o->scales[k].factor < p->f_min)
			p->f_min = o->scales[k].set >= 0 ? 0 : o->scales[k].factor;
	p->written_to = p->settled_at = INT64_MIN;
	p->w = w;
	/* (not --min's names: a file of floors may be another run's, of functions this one never calls) */
	if (an_unmatched_init(&p->asked, o->nscales) < 0) {
		an_project_free(p);
		return NULL;
	}
	for (uint32_t k = 0; k < o->nscales; k++)
		an_unmatched_ask(&p->asked, k, o->scales[k].pattern);
	return p;
}

uint64_t an_project_reads(void)
{
	return LS_DEFS_KINDS | ls_class_kinds(LS_C_EVENT) | LS_KIND_BIT(LS_K_EDGE);
}

/* Definitions */

/* The factor of a region named name[0..n): the last scale whose pattern matches, else 1. */
static int region(struct an_project *p, const struct ls_record *rec)
{
	uint32_t r = p->tr.defs.nregions - 1, n;
	const char *name;
	int rc = 0;
	char *z;

	if (ls_vec_room(&p->factor, &p->factor_cap, r, sizeof(*p->factor)) < 0 ||
	    ls_vec_room(&p->floor, &p->floor_cap, r, sizeof(*p->floor)) < 0 ||
	    ls_vec_room(&p->set, &p->set_cap, r, sizeof(*p->set)) < 0)
		return LS_ERR_NOMEM;
	p->factor[r] = 1;
	p->floor[r] = -1;
	p->set[r] = -1;
	if (p->o.floors && an_floors_get(p->o.floors, p->tr.defs.region_ids[r], &p->floor[r]))
		p->s.floors++;
	if ((!p->o.nscales && !p->o.nmins) || ls_get_str(rec, LS_F_NAME, &name, &n) < 0)
		return 0;
	if (!(z = strndup(name, n)))
		return LS_ERR_NOMEM;
	for (uint32_t k = 0; k < p->o.nscales && rc == 0; k++) {
		bool hit = fnmatch(p->o.scales[k].pattern, z, 0) == 0;

		if (hit) {
			p->factor[r] = p->o.scales[k].set >= 0 ? 1 : p->o.scales[k].factor;
			p->set[r] = p->o.scales[k].set;
		}
		rc = an_unmatched_see(&p->asked, k, hit, z, strlen(z));	/* the name as matched: to a NUL in it */
	}
	for (uint32_t k = 0; k < p->o.nmins; k++)
		if (strcmp(p->o.mins[k].name, z) == 0) {
			p->s.floors += p->floor[r] < 0;
			p->floor[r] = p->o.mins[k].ns;
		}
	free(z);
	return rc;
}

static int def(struct an_project *p, struct an_item *it, const char **why)
{
	const struct ls_record *rec;
	int rc;

	if ((rc = an_item_need(it, &rec, why)) < 0 || (rc = an_trace_def(&p->tr, rec, why)) < 0)
		return rc;
	if (rc && rec->kind == LS_K_REGION && (rc = region(p, rec)) < 0)
		return rc;
	if (rc && rec->kind == LS_K_STREAM) {
		uint32_t s = p->tr.defs.nstreams - 1;

		if (ls_vec_room(&p->st, &p->st_cap, s, sizeof(*p->st)) < 0)
			return LS_ERR_NOMEM;
		p->st[s] = (struct pj_stream){ 0 };
		p->nst = s + 1;
		if ((rc = an_retime_stream(&p->rt)) < 0)
			return rc;
	}
	if (rc && rec->kind == LS_K_PROCESS) {
		uint32_t i = p->tr.defs.nprocs - 1;

		if (ls_vec_room(&p->pr, &p->pr_cap, i, sizeof(*p->pr)) < 0)
			return LS_ERR_NOMEM;
		p->pr[i] = (struct pj_proc){ 0 };
	}
	return an_retime_other(&p->rt, it);
}

/* Events */

static bool may_wait(const struct an_stack *st)
{
	const struct an_frame *f = st->n ? &st->f[st->n - 1] : NULL;
	enum ls_role_group g = f ? ls_role_group((enum ls_role)f->role) : LS_G_NONE;

	return g == LS_G_MPI || g == LS_G_GPU_CALL || g == LS_G_OMP;
}

/*
 * The activity that ended at node leave (its enter's event id, at depth
 * on its stream) takes own ns of its own: the work intervals it was the
 * innermost activity in, from its enter on, scaled to add up to that
 * (all still held, not settled: else counted, and left as they are).
 */
static void set_own_time(struct an_project *p, uint32_t leave, uint64_t enter, uint32_t depth,
			 int64_t own)
{
	uint32_t e, x, prev;
	int64_t work = 0;

	if (!an_graph_find(&p->rt.g, enter, &e)) {
		p->s.unset++;
		return;
	}
	for (x = leave; x != e; x = prev) {
		if ((prev = p->rt.g.n[x].prev) == LS_NONE || node(p, x)->settled) {
			p->s.unset++;
			return;
		}
		if (node(p, prev)->depth == depth)
			work += node(p, x)->gap;
	}
	if (!work && own) {	/* no time of its own to stretch */
		p->s.unset++;
		return;
	}
	for (x = leave; x != e; x = p->rt.g.n[x].prev)
		if (node(p, p->rt.g.n[x].prev)->depth == depth)
			node(p, x)->factor = work ? (double)own / (double)work : 1;
	p->s.set++;
}

static int event(struct an_project *p, struct an_item *it, const char **why)
{
	struct an_event ev;
	struct an_stack *stack;
	struct pj_stream *s;
	struct pj_node *x;
	double factor;
	uint32_t i, region = LS_NONE, depth = 0;
	uint64_t enter = 0;
	int rc = 0;

	if ((rc = an_trace_item(&p->tr, it, &ev, why)) < 0)
		return rc;
	stack = &p->tr.stacks[ev.s];
	s = &p->st[ev.s];

	factor = stack->n ? p->factor[stack->f[stack->n - 1].region] : 1;
	if (it->kind == LS_K_ENTER) {
		if (!an_trace_enter(&p->tr, &ev, &rc))
			return rc;
	} else if (it->kind == LS_K_LEAVE) {
		const struct an_frame *f = an_trace_leave(&p->tr, &ev);

		if (f) {
			region = f->region;
			enter = f->id;
			depth = (uint32_t)(f - stack->f) + 1;
			an_stack_pop_to(stack, f);
		}
	}
	if ((rc = an_retime_event(&p->rt, it->raw, it->len, &ev, &i)) < 0)
		return rc;
	x = node(p, i);
	*x = (struct pj_node){ .in_new = INT64_MIN, .in_orig = INT64_MIN,
			       .gap = s->read ? ev.t - s->read_t : 0, .factor = factor,
			       .depth = stack->n, .may_wait = may_wait(stack),
			       .coll_end = it->kind == LS_K_COLL_END,
			       .enter = it->kind == LS_K_ENTER, .leave = region != LS_NONE,
			       .region = region };
	s->read_t = ev.t;
	s->read = true;
	s->unsettled++;
	p->s.events++;
	if (region != LS_NONE && p->set[region] >= 0)
		set_own_time(p, i, enter, depth, p->set[region]);
	return 0;
}

/* Edges */

static int edge(struct an_project *p, struct an_item *it, const char **why)
{
	uint32_t a, b;
	enum ls_edge e;
	struct pj_node *y;
	int rc;

	if ((rc = an_retime_take_edge(&p->rt, it, &e, &a, &b, &p->s.late, &p->s.lost, why)) <= 0 ||
	    a == b)
		return rc < 0 ? rc : 0;
	/*
	 * An edge into a collective's leave holds its member's end of the
	 * collective before it (the wait ends there)
	 */
	if (p->rt.g.n[b].prev != LS_NONE && node(p, p->rt.g.n[b].prev)->coll_end)
		b = p->rt.g.n[b].prev;
	y = node(p, b);
	if (y->settled) {
		p->s.late++;
		return 0;
	}
	if (p->rt.g.n[a].t > p->rt.g.n[b].t) {
		p->s.reverse++;
		return 0;
	}
	if (p->rt.g.n[a].t > y->in_orig)
		y->in_orig = p->rt.g.n[a].t;
	if (node(p, a)->settled) {
		if (p->rt.n[a].L > y->in_new)
			y->in_new = p->rt.n[a].L;
		return 0;
	}
	y->waiting++;
	return an_retime_edge(&p->rt, a, b, 0, true, NULL);
}

/* Settling */


/*
 * The activities open on stream s, as event x settles at *L: an enter is
 * one more; a leave one less, and no earlier than the floor of its region
 * after its enter. Returns 0 or LS_ERR_NOMEM.
 */
static int nesting(struct an_project *p, struct pj_stream *s, const struct pj_node *x, int64_t *L)
{
	if (x->leave && s->nentered > x->depth) {
		int64_t floor = p->floor[x->region], entered = s->entered[x->depth];

		s->nentered = x->depth;
		if (floor >= 0 && *L < ls_time_plus_held(entered, floor)) {
			*L = ls_time_plus_held(entered, floor);
			p->s.floored++;
		}
	}
	if (x->enter && x->depth) {
		if (ls_vec_room(&s->entered, &s->entered_cap, x->depth - 1, sizeof(*s->entered)) < 0)
			return LS_ERR_NOMEM;
		s->entered[x->depth - 1] = *L;
		s->nentered = x->depth;
	}
	return 0;
}

/* Node i's new time, from the last settled event of its stream and its sources. */
static int settle(struct an_project *p, uint32_t i)
{
	struct pj_node *x = node(p, i);
	const struct an_gnode *g = &p->rt.g.n[i];
	struct pj_stream *s = &p->st[g->s];
	struct pj_proc *pr = &p->pr[p->tr.defs.streams[g->s].process];
	int64_t L = g->t, d;
	int rc;

	if (x->in_orig != INT64_MIN) {
		int64_t from = s->any && s->t > x->in_orig ? s->t : x->in_orig;
		int64_t base = x->in_new != INT64_MIN ? x->in_new : x->in_orig;

		if (s->any && s->L > base)
			base = s->L;
		if (!ls_ns_scaled(g->t - from, x->factor, &d) || !ls_time_plus(base, d, &L))
			goto past;
	} else if (s->any && (!ls_ns_scaled(x->gap, x->factor, &d) || !ls_time_plus(s->L, d, &L))) {
		goto past;
	}
	if (x->factor != 1)
		p->s.scaled++;
	if ((rc = nesting(p, s, x, &L)) < 0)
		return rc;
	if (L < p->written_to) {
		L = p->written_to;
		p->s.clamped++;
	}
	p->rt.n[i].L = L;
	x->settled = true;
	s->L = L;
	s->t = g->t;
	s->unsettled--;
	s->depth = x->depth;
	s->may_wait = x->may_wait;
	s->any = true;
	for (struct pj_proc *q = pr; q; q = q == pr ? &p->run : NULL) {
		if (!q->any || g->t < q->t0)
			q->t0 = g->t;
		if (!q->any || g->t > q->t1)
			q->t1 = g->t;
		if (!q->any || L < q->L0)
			q->L0 = L;
		if (!q->any || L > q->L1)
			q->L1 = L;
		q->any = true;
	}
	for (uint32_t k = p->rt.n[i].out; k != LS_NONE; k = p->rt.e[k].next) {
		struct pj_node *y;

		if (p->rt.e[k].to == LS_NONE)
			continue;
		y = node(p, p->rt.e[k].to);
		if (L > y->in_new)
			y->in_new = L;
		y->waiting--;
	}
	return 0;
past:
	snprintf(p->why, sizeof(p->why), "event %" PRIu64 " at t=%" PRId64 " would move out of the times a "
		 "stream may hold ([-2^62, 2^62) ns)", g->id, g->t);
	return LS_ERR_SYNTAX;
}

/*
 * Settle the held events before due in input order, each once the event
 * before it on its stream is settled and its sources are (or, before
 * force, regardless: edges in a cycle); again while one settles.
 */
static int settle_before(struct an_project *p, int64_t due, int64_t force)
{
	bool more = true;
	int rc;

	while (more) {
		more = false;
		for (uint32_t i = p->rt.first_held; i < p->rt.g.nn && p->rt.g.n[i].t < due; i++) {
			struct pj_node *x = node(p, i);
			uint32_t prev = p->rt.g.n[i].prev;

			if (x->settled || (prev != LS_NONE && !node(p, prev)->settled))
				continue;
			if (x->waiting && p->rt.g.n[i].t >= force)
				continue;
			if (x->waiting)
				p->s.cut++;
			if ((rc = settle(p, i)) < 0)
				return rc;
			more = true;
		}
	}
	return 0;
}

/*
 * Where no event still to come can be earlier: the least over the streams
 * of where each can go on. INT64_MAX where none holds anything back.
 */
static int64_t frontier(const struct an_project *p)
{
	int64_t F = INT64_MAX;

	for (uint32_t k = 0; k < p->tr.defs.nstreams; k++) {
		const struct pj_stream *s = &p->st[k];
		int64_t lb, d;

		if (s->unsettled && !s->any)
			return INT64_MIN;
		if (s->unsettled || (s->depth && s->may_wait))
			lb = s->L;
		else if (s->depth)	/* a bound: held to the times, never written */
			lb = ls_ns_scaled(p->rt.now - s->t, p->f_min, &d) ? ls_time_plus_held(s->L, d) : LS_TIME_MAX;
		else
			continue;	/* idle: what comes next has an edge into it */
		if (lb < F)
			F = lb;
	}
	return F;
}

static int step(struct an_project *p)
{
	int64_t F;
	int rc;

	if (p->rt.now == INT64_MIN ||
	    (p->settled_at != INT64_MIN && p->rt.now - p->o.window / 8 <= p->settled_at))
		return an_retime_step(&p->rt);
	p->settled_at = p->rt.now;
	if ((rc = settle_before(p, p->rt.now - p->o.window, p->rt.now - 2 * p->o.window)) < 0)
		return rc;
	F = frontier(p);
	if (F > p->written_to) {
		if ((rc = an_retime_write(&p->rt, F)) < 0)
			return rc;
		p->written_to = F;
	}
	if (an_retime_held(&p->rt) > p->s.peak)
		p->s.peak = an_retime_held(&p->rt);
	return an_retime_step(&p->rt);
}

int an_project_take(struct an_project *p, struct an_item *it, const char **why)
{
	int rc;

	/* a derived record's fields are read where needed: a stage's own edges come typed */
	switch (ls_kind_spec(it->kind)->cls) {
	case LS_C_DEF:
		rc = def(p, it, why);
		break;
	case LS_C_EVENT:
		rc = event(p, it, why);
		break;
	default:
		rc = (rc = an_trace_derived(&p->tr, it, why)) < 0 ? rc :
		     it->kind == LS_K_EDGE ? edge(p, it, why) : an_retime_other(&p->rt, it);
		break;
	}
	if (rc == LS_ERR_SYNTAX)	/* what came before the bad record is written */
		return an_project_finish(p) < 0 ? LS_ERR_IO : rc;
	if (rc == 0 && (rc = step(p)) == LS_ERR_SYNTAX)
		*why = p->why;
	return rc;
}

/*
 * A --scale or --set that no region of the trace matched: the
 * run would come back unchanged, which a typo must not pass for.
 * Returns LS_ERR_SYNTAX with p->why set, or 0.
 */
static int unmatched(struct an_project *p)
{
	const struct an_unmatched_name *x;
	const char *opt;
	uint32_t k;

	if (!(x = an_unmatched_first(&p->asked, &k)))
		return 0;
	opt = p->o.scales[k].set >= 0 ? "--set" : "--scale";
	snprintf(p->why, sizeof(p->why), "%s %.120s: no region of the trace matches it%s%.120s%s: "
		 "nothing would change (tr-rank lists the regions)", opt, x->asked,
		 x->nearest ? " (the nearest: " : "", x->nearest ? x->nearest : "", x->nearest ? ")" : "");
	return LS_ERR_SYNTAX;
}

int an_project_finish(struct an_project *p)
{
	int rc;

	if ((rc = unmatched(p)) < 0 || (rc = settle_before(p, INT64_MAX, INT64_MIN)) < 0 ||
	    (rc = settle_before(p, INT64_MAX, INT64_MAX)) < 0 ||
	    (rc = an_retime_finish(&p->rt)) < 0)
		return rc;
	ls_build_begin(p->w, 4);
	ls_put_kind(p->w, LS_K_PROJECTION);
	ls_put_str(p->w, LS_F_SPEC, p->o.spec ? p->o.spec : "");
	ls_put_u64(p->w, LS_F_BEFORE, (uint64_t)(p->run.t1 - p->run.t0));
	ls_put_u64(p->w, LS_F_AFTER, (uint64_t)(p->run.L1 - p->run.L0));
	return ls_build_end(p->w);
}

struct an_project_stats an_project_stats(const struct an_project *p)
{
	struct an_project_stats st = p->s;

	st.before = p->run.t1 - p->run.t0;
	st.after = p->run.L1 - p->run.L0;
	return st;
}

uint32_t an_project_processes(const struct an_project *p)
{
	return p->tr.defs.nprocs;
}

bool an_project_process(const struct an_project *p, uint32_t i, uint64_t *id, const char **name,
			int64_t *before, int64_t *after)
{
	*id = p->tr.defs.procs[i].id;
	*name = p->tr.defs.procs[i].name;
	*before = p->pr[i].t1 - p->pr[i].t0;
	*after = p->pr[i].L1 - p->pr[i].L0;
	return p->pr[i].any;
}

uint32_t an_project_held(const struct an_project *p)
{
	return an_retime_held(&p->rt);
}

void an_project_free(struct an_project *p)
{
	if (!p)
		return;
	for (uint32_t k = 0; k < p->nst; k++)
		free(p->st[k].entered);
	an_trace_release(&p->tr);
	an_retime_release(&p->rt);
	an_unmatched_release(&p->asked);
	free(p->factor);
	free(p->floor);
	free(p->set);
	free(p->st);
	free(p->pr);
	free(p);
}

/* tr-project as a stage (stage.h): opts, struct an_project_options (the change, the floors) */

static const struct an_typed *typed_project(void *ctx, size_t *n)
{
	struct an_project *p = ctx;

	return an_retime_typed(&p->rt, n);
}

static void *open_project(struct ls_writer *w, unsigned jobs, const void *opts)
{
	static const struct an_project_options none = { 0 };

	(void)jobs;
	return an_project_new(w, opts ? opts : &none);
}

static int take_project(void *ctx, struct an_item *it, const char **why)
{
	return an_project_take(ctx, it, why);
}

static int finish_project(void *ctx, const char **why)
{
	struct an_project *p = ctx;
	int rc = an_project_finish(p);

	if (rc == LS_ERR_SYNTAX)
		*why = p->why;
	return rc;
}

static size_t odd_project(const void *ctx, struct an_count *out)
{
	struct an_project_stats st = an_project_stats(ctx);
	const struct an_count odd[] = {
		{ st.reverse, "edges whose source is later than their target (a GPU clock running "
			      "late, left by tr-clock?): not followed" },
		{ st.late, "edges into events already settled (a longer --window?): not followed" },
		{ st.lost, "edges from events no longer kept (a longer --window?): not followed" },
		{ st.cut, "events settled before an event they depend on (edges in a cycle?)" },
		{ st.clamped, "events that would have come before events already written: written "
			      "after them" },
		{ st.unset, "activities --set could not give their time (longer than --window, or "
			    "with no time of their own): left as they were" },
	};

	memcpy(out, odd, sizeof(odd));
	return sizeof(odd) / sizeof(odd[0]);
}

static void held_project(const void *ctx, char *what, size_t n)
{
	snprintf(what, n, "%" PRIu32 " events held until no event to come can be earlier (a long "
		 "wait on some stream?)", an_project_held(ctx));
}

static void close_project(void *ctx)
{
	an_project_free(ctx);
}

static const char *const project_needs[] = { "tr-deps", NULL };
static const enum ls_kind project_replaces[] = {
	LS_K_WAIT, LS_K_IDLE, LS_K_BLAME, LS_K_CRIT, LS_K_PATH_BLAME, LS_K_RATING, LS_K_WAIT_SUMMARY,
	LS_K_RUN_SUMMARY, LS_K_RATING_DIFF, LS_K_PROJECTION, 0
};

const struct an_stage an_stage_project = {
	.tool = "tr-project", .needs = project_needs, .replaces = project_replaces,
	.reads = an_project_reads, .writes = true, .open = open_project, .take = take_project,
	.typed = typed_project,
	.finish = finish_project, .odd = odd_project, .held = held_project, .close = close_project,
};
