/*
 * The OpenMP records of a log (docs/trlog.md) as the stream has OpenMP,
 * as Score-P's traces have it: the encountering thread's parallel region
 * (omp_parallel) from fork to join, each thread's implicit task
 * (omp_implicit_task) between team_begin and team_end, barriers
 * (omp_barrier), a critical section's construct (omp_lock) around its
 * body (omp_critical) with the lock's acquire and release, omp_set_lock
 * (omp_lock) until the lock is acquired.
 *
 * LLVM's runtime lets a team's threads out of the barrier that ends the
 * parallel region lazily: a thread's end of that barrier and of its
 * implicit task can come after the team was joined. What a thread does
 * after the barrier is done is the runtime's waking up, not the
 * program's: those ends are put where the thread that forked the team
 * left that barrier, so that no thread leaves the team after it was
 * joined.
 */
#include "../../libstream/error.h"
#include "../../libstream/roles.h"
#include "trlogin_private.h"

/* The regions, by what they are. */
enum { R_PARALLEL, R_TASK, R_BARRIER, R_IMPLICIT_BARRIER, R_CRITICAL, R_SBLOCK, R_SET_LOCK, R_TEAM_START, R_COUNT };

_Static_assert(R_COUNT <= sizeof(((struct trlogin *)0)->omp_region) / sizeof(uint32_t), "omp_region holds them all");

static const struct {
	const char *name;
	enum ls_role role;
} regions[R_COUNT] = {
	[R_PARALLEL] = { "!$omp parallel", LS_R_OMP_PARALLEL },
	[R_TASK] = { "!$omp implicit task", LS_R_OMP_IMPLICIT_TASK },
	[R_BARRIER] = { "!$omp barrier", LS_R_OMP_BARRIER },
	[R_IMPLICIT_BARRIER] = { "!$omp implicit barrier", LS_R_OMP_BARRIER },
	[R_CRITICAL] = { "!$omp critical", LS_R_OMP_LOCK },
	[R_SBLOCK] = { "!$omp critical sblock", LS_R_OMP_CRITICAL },
	[R_SET_LOCK] = { "omp_set_lock", LS_R_OMP_LOCK },
	/* no event enters it: tr-critpath's fork transits are in it */
	[R_TEAM_START] = { LS_TEAM_START_NAME, LS_R_OMP_TEAM_START },
};

/* Region which, made (in the first pass) where new: in->omp_region[which]. */
static int made(struct trlogin *in, int which)
{
	return fmt_region(&in->regions, regions[which].name, regions[which].role, "openmp", NULL, &in->omp_region[which]);
}

/* The regions an event enters or leaves, made in the first pass. */
static int regions_of(struct trlogin *in, uint64_t what, uint64_t a, uint64_t b)
{
	int rc = 0;

	switch (what) {
	case TRLOG_OMP_FORK:
		return (rc = made(in, R_PARALLEL)) < 0 ? rc : made(in, R_TEAM_START);
	case TRLOG_OMP_TASK_BEGIN:
		return made(in, R_TASK);
	case TRLOG_OMP_BARRIER_BEGIN:
		return made(in, a ? R_BARRIER : R_IMPLICIT_BARRIER);
	case TRLOG_OMP_LOCK_WAIT:
		for (int r = b ? R_CRITICAL : R_SET_LOCK; rc == 0 && r <= (b ? R_SBLOCK : R_SET_LOCK); r++)
			rc = made(in, r);
		return rc;
	default:
		return 0;
	}
}

int trlog_omp_look(struct trlogin *in, struct log *l, struct cur *c)
{
	uint64_t thread = cur_uint(c);
	int64_t t = cur_int(c);
	uint64_t what = cur_uint(c), a = cur_uint(c), b = cur_uint(c);

	if (c->bad || thread >= (1 << 16) || t < 0 || t >= (int64_t)1 << 62 || what > TRLOG_OMP_LOCK_RELEASED)
		return LS_ERR_SYNTAX;
	if (thread >= l->nthreads)
		l->nthreads = thread + 1;
	if (t > l->last_t)
		l->last_t = t;
	return regions_of(in, what, a, b);
}

static void enter(struct adder *a, int64_t t, int which, bool leave)
{
	struct ls_event *ev = trlog_add(a, t, leave ? LS_K_LEAVE : LS_K_ENTER);

	if (ev)
		ev->region = a->in->omp_region[which];
}

/* A lock as the stream numbers it: OMPT's wait ids are addresses; the stream's, 0, 1, ... per log. */
static uint64_t lock_of(struct adder *a, uint64_t wait_id)
{
	uint32_t n;

	if (!ls_idmap_get(&a->locks, wait_id, &n)) {
		n = a->nlocks++;
		if (ls_idmap_put(&a->locks, wait_id, n) < 0)
			a->rc = LS_ERR_NOMEM;
	}
	return n;
}

static void point(struct adder *a, int64_t t, enum ls_kind kind, bool aux, uint64_t value)
{
	struct ls_event *ev = trlog_add(a, t, kind);

	if (ev && aux) {
		ev->aux = value;
		ev->fields |= LS_EF_AUX;
	}
}

void trlog_omp_events(struct adder *a, struct cur *c)
{
	uint64_t thread = cur_uint(c);
	int64_t t = cur_int(c);
	uint64_t what = cur_uint(c), x = cur_uint(c), critical = cur_uint(c);
	struct thread_state *th;

	if (c->bad)
		return;
	a->stream = a->l->first_stream + thread;
	th = &a->threads[thread];
	if ((what == TRLOG_OMP_BARRIER_END || what == TRLOG_OMP_TASK_END) && th->in_team &&
	    th->team_since < a->joined_at && t > a->joined_at)
		t = a->released_at > th->team_since ? a->released_at : a->joined_at;
	switch (what) {
	case TRLOG_OMP_FORK:
		enter(a, t, R_PARALLEL, false);
		point(a, t, LS_K_FORK, true, x);
		a->forker = thread;
		break;
	case TRLOG_OMP_JOIN:
		point(a, t, LS_K_JOIN, false, 0);
		enter(a, t, R_PARALLEL, true);
		a->joined_at = t;
		break;
	case TRLOG_OMP_TASK_BEGIN:
		point(a, t, LS_K_TEAM_BEGIN, false, 0);
		enter(a, t, R_TASK, false);
		th->in_team = true;
		th->team_since = t;
		break;
	case TRLOG_OMP_TASK_END:
		enter(a, t, R_TASK, true);
		point(a, t, LS_K_TEAM_END, false, 0);
		th->in_team = false;
		break;
	case TRLOG_OMP_BARRIER_BEGIN:
	case TRLOG_OMP_BARRIER_END:
		enter(a, t, x ? R_BARRIER : R_IMPLICIT_BARRIER, what == TRLOG_OMP_BARRIER_END);
		if (what == TRLOG_OMP_BARRIER_END && thread == a->forker)
			a->released_at = t;
		break;
	case TRLOG_OMP_LOCK_WAIT:
		enter(a, t, critical ? R_CRITICAL : R_SET_LOCK, false);
		th->lock_wait = !critical;
		break;
	case TRLOG_OMP_LOCK_ACQUIRED:
		point(a, t, LS_K_LOCK_ACQUIRE, true, lock_of(a, x));
		if (critical)
			enter(a, t, R_SBLOCK, false);
		else if (th->lock_wait)
			enter(a, t, R_SET_LOCK, true);
		th->lock_wait = false;
		break;
	default:
		if (critical)
			enter(a, t, R_SBLOCK, true);
		point(a, t, LS_K_LOCK_RELEASE, true, lock_of(a, x));
		if (critical)
			enter(a, t, R_CRITICAL, true);
		break;
	}
}
