/* The least own time of each API function in a trace (floors.h). */
#include <stdlib.h>

#include "../libstream/error.h"
#include "../libstream/vec.h"
#include "floors.h"
#include "trace.h"

/* An instance of an API call: open, or closed and waiting a window for edges into it. */
struct call {
	uint64_t region;	/* id */
	int64_t t0, t1;		/* enter, leave (INT64_MAX: open) */
	int64_t src;		/* the latest source of an edge into it, INT64_MIN: none */
	uint32_t next_free;
};

/* A recent event: its time, and the call it is in (LS_NONE: none). */
struct recent {
	uint64_t id;
	int64_t t;
	uint32_t call;
	bool closes;		/* the call's leave */
};

struct an_floors_pass {
	struct an_floors *f;
	struct an_trace tr;
	struct call *calls;
	uint32_t ncalls, calls_cap, free_call;
	struct recent *ev;	/* a ring of the events of the last window, in input order */
	uint32_t head, n, cap;
	struct ls_idmap ix;	/* event id -> place in ev */
	int64_t window;
	bool stopped;		/* at input the pass after this one stops at */
};

/* A call into a runtime: not a construct around user code (a parallel region, a loop). */
static bool api(enum ls_role r)
{
	enum ls_role_group g = ls_role_group(r);

	return g == LS_G_MPI || g == LS_G_GPU_CALL || r == LS_R_OMP_BARRIER || r == LS_R_OMP_LOCK ||
	       r == LS_R_OMP_UNLOCK;
}

static int floor_of(struct an_floors *f, uint64_t region, int64_t ns)
{
	uint32_t i;

	if (ls_idmap_get(&f->by_id, region, &i)) {
		if (ns < f->ns[i])
			f->ns[i] = ns;
		return 0;
	}
	if (ls_vec_room(&f->ns, &f->cap, f->n, sizeof(*f->ns)) < 0 ||
	    ls_idmap_put(&f->by_id, region, f->n) < 0)
		return LS_ERR_NOMEM;
	f->ns[f->n++] = ns;
	return 0;
}

/* Call c is done with: its own time counts for its region's floor. */
static int call_done(struct an_floors_pass *sc, uint32_t c)
{
	const struct call *x = &sc->calls[c];
	int64_t from = x->src > x->t0 ? (x->src < x->t1 ? x->src : x->t1) : x->t0;

	sc->calls[c].next_free = sc->free_call;
	sc->free_call = c;
	return floor_of(sc->f, x->region, x->t1 - from);
}

/* Forget the events more than a window before t, and the closed calls they were the last of. */
static int forget(struct an_floors_pass *sc, int64_t t)
{
	int rc;

	while (sc->n && sc->ev[sc->head].t < t - sc->window) {
		const struct recent *e = &sc->ev[sc->head];

		ls_idmap_del(&sc->ix, e->id);
		/* a call's leave is its last event: done once it is forgotten */
		if (e->closes && (rc = call_done(sc, e->call)) < 0)
			return rc;
		sc->head = (sc->head + 1) % sc->cap;
		sc->n--;
	}
	return 0;
}

static int remember(struct an_floors_pass *sc, uint64_t id, int64_t t, uint32_t call, bool closes)
{
	if (sc->n == sc->cap) {	/* grow the ring, unwinding it */
		uint32_t cap = sc->cap ? 2 * sc->cap : 1024;
		struct recent *v = malloc((size_t)cap * sizeof(*v));

		if (!v)
			return LS_ERR_NOMEM;
		for (uint32_t k = 0; k < sc->n; k++) {
			v[k] = sc->ev[(sc->head + k) % sc->cap];
			if (ls_idmap_put(&sc->ix, v[k].id, k) < 0) {
				free(v);
				return LS_ERR_NOMEM;
			}
		}
		free(sc->ev);
		sc->ev = v;
		sc->cap = cap;
		sc->head = 0;
	}
	sc->ev[(sc->head + sc->n) % sc->cap] = (struct recent){ id, t, call, closes };
	return ls_idmap_put(&sc->ix, id, (sc->head + sc->n++) % sc->cap) < 0 ? LS_ERR_NOMEM : 0;
}

static int new_call(struct an_floors_pass *sc, uint64_t region, int64_t t0, uint32_t *c)
{
	if (sc->free_call != LS_NONE) {
		*c = sc->free_call;
		sc->free_call = sc->calls[*c].next_free;
	} else {
		if (ls_vec_room(&sc->calls, &sc->calls_cap, sc->ncalls, sizeof(*sc->calls)) < 0)
			return LS_ERR_NOMEM;
		*c = sc->ncalls++;
	}
	sc->calls[*c] = (struct call){ region, t0, INT64_MAX, INT64_MIN, LS_NONE };
	return 0;
}

/* An enter or leave: the calls open on its stream; the call any event is in. */
static int event(struct an_floors_pass *sc, const struct ls_record *rec)
{
	struct an_event ev;
	struct an_frame *fr;
	struct an_stack *st;
	const char *why;
	uint32_t call = LS_NONE;
	bool closes = false;
	int rc = 0;

	if (an_trace_event(&sc->tr, rec, &ev, &why) < 0)
		return 1;
	st = &sc->tr.stacks[ev.s];
	if (rec->kind == LS_K_ENTER) {
		if (!(fr = an_trace_enter(&sc->tr, &ev, &rc)))
			return rc;
		fr->a = LS_NONE;
		if (api((enum ls_role)fr->role) &&
		    (rc = new_call(sc, sc->tr.defs.region_ids[fr->region], ev.t, &fr->a)) < 0)
			return rc;
		call = fr->a;
	} else if (rec->kind == LS_K_LEAVE) {
		if (!(fr = an_trace_leave(&sc->tr, &ev)))
			return 0;
		if (fr->a != LS_NONE)
			sc->calls[fr->a].t1 = ev.t;
		call = fr->a;
		closes = call != LS_NONE;
		an_stack_pop_to(st, fr);
	} else if (st->n) {
		call = st->f[st->n - 1].a;
	}
	if ((rc = forget(sc, ev.t)) < 0)
		return rc;
	return remember(sc, ev.id, ev.t, call, closes);
}

/* An edge into an event of a call: the call waited until its source, at the latest. */
static void edge(struct an_floors_pass *sc, const struct ls_record *rec)
{
	uint64_t from, to;
	uint32_t a, b;

	if (ls_get_u64(rec, LS_F_FROM, &from) < 0 || ls_get_u64(rec, LS_F_TO, &to) < 0 ||
	    !ls_idmap_get(&sc->ix, from, &a) || !ls_idmap_get(&sc->ix, to, &b) ||
	    sc->ev[b].call == LS_NONE)
		return;
	if (sc->ev[a].t > sc->calls[sc->ev[b].call].src)
		sc->calls[sc->ev[b].call].src = sc->ev[a].t;
}

struct an_floors_pass *an_floors_pass_new(struct an_floors *f, int64_t window)
{
	struct an_floors_pass *sc = calloc(1, sizeof(*sc));

	if (!sc)
		return NULL;
	*sc = (struct an_floors_pass){ .f = f, .free_call = LS_NONE, .ix = LS_IDMAP_INIT, .window = window };
	an_trace_init(&sc->tr);
	return sc;
}

uint64_t an_floors_pass_reads(void)
{
	return LS_DEFS_KINDS | ls_class_kinds(LS_C_EVENT) | LS_KIND_BIT(LS_K_EDGE);
}

int an_floors_pass_take(struct an_floors_pass *sc, const struct ls_record *rec)
{
	const char *why;
	int rc = 0;

	if (sc->stopped)
		return 0;
	if (ls_kind_spec(rec->kind)->cls == LS_C_DEF)
		rc = an_trace_def(&sc->tr, rec, &why) < 0 ? LS_ERR_SYNTAX : 0;
	else if (ls_kind_spec(rec->kind)->cls == LS_C_EVENT)
		rc = event(sc, rec);
	else if (rec->kind == LS_K_EDGE)
		edge(sc, rec);
	if (rc == LS_ERR_NOMEM)
		return rc;
	if (rc != 0)	/* input the pass after this one stops at */
		sc->stopped = true;
	return 0;
}

int an_floors_pass_end(struct an_floors_pass *sc)
{
	int rc = forget(sc, INT64_MAX);

	an_trace_release(&sc->tr);
	ls_idmap_release(&sc->ix);
	free(sc->ev);
	free(sc->calls);
	free(sc);
	return rc;
}

int an_floors_scan(struct an_floors *f, struct ls_reader *r, int64_t window)
{
	struct an_floors_pass *sc = an_floors_pass_new(f, window);
	struct ls_record rec;
	int rc = 0, end;

	if (!sc)
		return LS_ERR_NOMEM;
	ls_reader_skim(r, ~an_floors_pass_reads());
	while (rc == 0 && !sc->stopped && ls_read(r, &rec) > 0)
		rc = an_floors_pass_take(sc, &rec);
	end = an_floors_pass_end(sc);
	return rc < 0 ? rc : end;
}

bool an_floors_get(const struct an_floors *f, uint64_t region, int64_t *ns)
{
	uint32_t i;

	if (!ls_idmap_get(&f->by_id, region, &i))
		return false;
	*ns = f->ns[i];
	return true;
}

void an_floors_release(struct an_floors *f)
{
	ls_idmap_release(&f->by_id);
	free(f->ns);
	*f = (struct an_floors)AN_FLOORS_INIT;
}
