/* tr-deps for OpenMP: fork, join, barrier and lock edges. */
#include <string.h>

#include "../../libstream/error.h"
#include "deps.h"
#include "../../libstream/vec.h"


void an_omp_deps_init(struct an_omp_deps *o, const struct an_trace *tr, struct an_edges *out)
{
	memset(o, 0, sizeof(*o));
	o->tr = tr;
	o->out = out;
}

static struct an_team *team_of(struct an_omp_deps *o, uint32_t p)
{
	uint32_t old = o->team_cap;

	if (ls_vec_room(&o->team, &o->team_cap, p, sizeof(*o->team)) < 0)
		return NULL;
	memset(o->team + old, 0, (o->team_cap - old) * sizeof(*o->team));
	return &o->team[p];
}

/* Index of stream s among the team's last members, or LS_NONE. */
static uint32_t member_of(const struct an_team *t, uint32_t s)
{
	for (uint32_t i = 0; i < t->n; i++)
		if (t->m[i].s == s)
			return i;
	return LS_NONE;
}

/* Index of stream s among the active team's members, or LS_NONE. */
static uint32_t member(const struct an_team *t, uint32_t s)
{
	return t->active ? member_of(t, s) : LS_NONE;
}

static void barriers_drop(struct an_omp_deps *o, struct an_team *t)
{
	o->st.open += t->nb;
	for (uint32_t i = 0; i < t->nb; i++)
		free(t->b[i].part);
	t->nb = 0;
}

static int fork_event(struct an_omp_deps *o, struct an_team *t, const struct an_event *ev)
{
	barriers_drop(o, t);
	t->fork = ev->id;
	t->master = ev->s;
	t->active = true;
	t->joined = false;
	t->n = 0;
	return 0;
}

static int team_begin(struct an_omp_deps *o, struct an_team *t, const struct an_event *ev)
{
	if (!t->active || member(t, ev->s) != LS_NONE) {
		o->st.outside++;
		return 0;
	}
	if (ls_vec_room(&t->m, &t->cap, t->n, sizeof(*t->m)) < 0)
		return LS_ERR_NOMEM;
	t->m[t->n++] = (struct an_team_member){ .s = ev->s };
	return ev->s == t->master ? 0 : an_edges_write(o->out, t->fork, ev->id, LS_E_FORK);
}

static int team_end(struct an_omp_deps *o, struct an_team *t, const struct an_event *ev)
{
	uint32_t i = member(t, ev->s);

	/*
	 * At the very time of the join, after it in the stream (ties go by
	 * stream): a member's end the join could not name yet, its edge now.
	 */
	if (i == LS_NONE && t->joined && ev->t == t->join_t && (i = member_of(t, ev->s)) != LS_NONE &&
	    !t->m[i].ended && ev->s != t->master) {
		t->m[i].end = ev->id;
		t->m[i].ended = true;
		return an_edges_write(o->out, ev->id, t->join, LS_E_JOIN);
	}
	if (i == LS_NONE) {
		o->st.outside++;
		return 0;
	}
	t->m[i].end = ev->id;
	t->m[i].ended = true;
	return 0;
}

static int join_event(struct an_omp_deps *o, struct an_team *t, const struct an_event *ev)
{
	int rc;

	if (!t->active) {
		o->st.outside++;
		return 0;
	}
	for (uint32_t i = 0; i < t->n; i++)
		if (t->m[i].s != ev->s && t->m[i].ended &&
		    (rc = an_edges_write(o->out, t->m[i].end, ev->id, LS_E_JOIN)) < 0)
			return rc;
	barriers_drop(o, t);
	t->active = false;
	t->joined = true;
	t->join = ev->id;
	t->join_t = ev->t;
	return 0;
}

/*
 * A lock is released (kept: one slot per lock), or acquired after its
 * release on another thread (an edge from the release). An acquire that
 * comes while another thread holds the lock was stamped before that
 * thread's release, which it waited for: the edge comes with the release.
 */
static int lock_event(struct an_omp_deps *o, const struct ls_record *rec,
		      const struct an_event *ev)
{
	struct an_lock *l;
	uint64_t lock, key;
	uint32_t i;
	int rc;

	if (ls_get_u64(rec, LS_F_LOCK, &lock) < 0 || !ls_key_pair(ev->proc, lock, &key)) {
		o->st.lock_ids++;
		return 0;
	}
	if (!ls_idmap_get(&o->lock_ix, key, &i)) {
		if (ls_vec_room(&o->locks, &o->locks_cap, o->nlocks, sizeof(*o->locks)) < 0 ||
		    (rc = ls_idmap_put(&o->lock_ix, key, o->nlocks)) < 0)
			return LS_ERR_NOMEM;
		i = o->nlocks++;
		o->locks[i] = (struct an_lock){ 0, 0, LS_NONE, LS_NONE, LS_NONE };
	}
	l = &o->locks[i];
	if (rec->kind == LS_K_LOCK_RELEASE) {
		if (l->early_s != LS_NONE && l->holder == ev->s) {
			o->st.lock_early++;
			l->holder = l->early_s;
			l->early_s = l->release_s = LS_NONE;
			return an_edges_write(o->out, ev->id, l->early, LS_E_LOCK);
		}
		*l = (struct an_lock){ ev->id, 0, ev->s, LS_NONE, LS_NONE };
		return 0;
	}
	if (l->holder != LS_NONE && l->holder != ev->s) {
		l->early = ev->id;
		l->early_s = ev->s;
		return 0;
	}
	l->holder = ev->s;
	if (l->release_s == LS_NONE || l->release_s == ev->s) {
		l->release_s = LS_NONE;
		return 0;
	}
	l->release_s = LS_NONE;
	return an_edges_write(o->out, l->release, ev->id, LS_E_LOCK);
}

int an_omp_deps_event(struct an_omp_deps *o, const struct ls_record *rec, const struct an_event *ev)
{
	struct an_team *t;

	if (ev->kind == LS_K_LOCK_ACQUIRE || ev->kind == LS_K_LOCK_RELEASE)
		return lock_event(o, rec, ev);
	if (!(t = team_of(o, ev->proc)))
		return LS_ERR_NOMEM;
	switch (ev->kind) {
	case LS_K_FORK: return fork_event(o, t, ev);
	case LS_K_TEAM_BEGIN: return team_begin(o, t, ev);
	case LS_K_TEAM_END: return team_end(o, t, ev);
	default: return join_event(o, t, ev);
	}
}

/* The open barrier instance with sequence number seq, made if new. */
static struct an_barrier *barrier(struct an_team *t, uint64_t seq)
{
	struct an_barrier *b;

	for (uint32_t i = 0; i < t->nb; i++)
		if (t->b[i].seq == seq)
			return &t->b[i];
	if (ls_vec_room(&t->b, &t->bcap, t->nb, sizeof(*t->b)) < 0)
		return NULL;
	b = &t->b[t->nb];
	if (!(b->part = calloc(t->n, sizeof(*b->part))))
		return NULL;
	b->seq = seq;
	b->left = 0;
	t->nb++;
	return b;
}

/* Every member has left barrier b: its edges, then its instance. */
static int barrier_done(struct an_omp_deps *o, struct an_team *t, struct an_barrier *b)
{
	uint32_t last = 0;
	int rc;

	for (uint32_t i = 1; i < t->n; i++)
		if (b->part[i].t > b->part[last].t ||
		    (b->part[i].t == b->part[last].t && b->part[i].sid > b->part[last].sid))
			last = i;
	for (uint32_t i = 0; i < t->n; i++)
		if (i != last &&
		    (rc = an_edges_write(o->out, b->part[last].enter, b->part[i].leave,
				       LS_E_BARRIER)) < 0)
			return rc;
	if (ls_vec_room(&o->acts, &o->acts_cap, t->n - 1, sizeof(*o->acts)) < 0)
		return LS_ERR_NOMEM;
	for (uint32_t i = 0; i < t->n; i++)
		o->acts[i] = b->part[i].enter;
	return an_edges_instance(o->out, o->acts, t->n, LS_NONE, LS_NONE);
}

int an_omp_deps_barrier_leave(struct an_omp_deps *o, const struct an_frame *f,
			 const struct an_event *ev)
{
	struct an_team *t = team_of(o, ev->proc);
	struct an_barrier *b;
	uint32_t i;
	int rc;

	if (!t)
		return LS_ERR_NOMEM;
	if ((i = member(t, ev->s)) == LS_NONE) {
		o->st.outside++;
		return an_edges_instance(o->out, &f->id, 1, LS_NONE, LS_NONE);
	}
	if (!(b = barrier(t, t->m[i].barriers++)))
		return LS_ERR_NOMEM;
	b->part[i] = (struct an_barrier_part){ f->id, ev->id, f->t,
					       o->tr->defs.streams[ev->s].id };
	if (++b->left < t->n)
		return 0;
	rc = barrier_done(o, t, b);
	free(b->part);
	memmove(b, b + 1, (size_t)(t->b + --t->nb - b) * sizeof(*b));
	return rc;
}

void an_omp_deps_finish(struct an_omp_deps *o)
{
	for (uint32_t p = 0; p < o->team_cap; p++)
		o->st.open += o->team[p].nb;
}

void an_omp_deps_release(struct an_omp_deps *o)
{
	for (uint32_t p = 0; p < o->team_cap; p++) {
		for (uint32_t i = 0; i < o->team[p].nb; i++)
			free(o->team[p].b[i].part);
		free(o->team[p].b);
		free(o->team[p].m);
	}
	free(o->team);
	free(o->locks);
	free(o->acts);
	ls_idmap_release(&o->lock_ix);
	an_omp_deps_init(o, o->tr, o->out);
}
