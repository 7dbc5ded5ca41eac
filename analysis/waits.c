/*
 * tr-waits: each record to the wait rules of its paradigm (mpi/waits.c,
 * which also decides the OpenMP barrier, a collective; gpu/waits.c;
 * omp/waits.c), and each stream's stretches of exclusive time, which the
 * waits are blamed on.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "../libstream/roles.h"
#include "../libstream/vec.h"
#include "blame.h"
#include "gpu/waits.h"
#include "mpi/waits.h"
#include "omp/waits.h"
#include "stage.h"
#include "trace.h"
#include "waits.h"

/*
 * Per stream: exclusive time since its last synchronization, one stretch
 * per paradigm. An MPI wait is blamed on the late process's time since its
 * last blocking MPI call, an OpenMP barrier's on the late thread's since
 * its last barrier: a barrier synchronizes the threads of one process and
 * ends nothing another process waited for, and an MPI call ends nothing
 * the team waits for. The MPI stretch is kept on a stream from its first
 * MPI call, the OpenMP one from its first barrier or team: only a stream
 * that takes part can cause a wait, and GPU streams, worker threads and
 * processes that never call MPI (a PyTorch trace) would otherwise gather
 * shares without end. Time in a synchronization (waiting itself) is in
 * neither.
 */
struct an_stream_time {
	int64_t last;		/* when the top activity last changed */
	uint32_t in_sync;	/* blocking MPI activities and barriers open */
	bool kept_mpi, kept_omp;
	bool forked;		/* its last event is a fork */
	struct an_stretch mpi;	/* since the last blocking MPI call (frames' b: their share) */
	struct an_stretch omp;	/* since the last OpenMP barrier (frames' c) */
};

struct an_waits {
	struct an_trace tr;
	struct an_stream_time *time;	/* per stream index */
	uint32_t time_cap;
	struct an_waitrec out;		/* wait states, blame, tallies */
	struct an_mpi_waits mpi;	/* MPI, and the OpenMP barrier */
	struct an_gpu_waits g;		/* CUDA */
	struct an_omp_waits omp;		/* OpenMP locks and joins */
};

struct an_waits *an_waits_new(struct ls_writer *w)
{
	struct an_waits *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	an_trace_init(&a->tr);
	an_waitrec_init(&a->out, w, &a->tr);
	an_mpi_waits_init(&a->mpi, &a->tr, &a->out);
	an_gpu_waits_init(&a->g, &a->tr, &a->out);
	an_omp_waits_init(&a->omp, &a->tr, &a->out);
	return a;
}

/*
 * Where a stretch of blame ends: a blocking MPI call (the MPI stretch) or
 * an OpenMP barrier (the OpenMP one); the activities before it are what a
 * wait there is blamed on.
 */
static bool sync_point(enum ls_role r)
{
	return an_role_mpi_blocking(r) || r == LS_R_OMP_BARRIER;
}

/* The stretch a wait in an activity of role r is blamed on. */
static struct an_stretch *stretch(struct an_stream_time *st, enum ls_role r)
{
	return r == LS_R_OMP_BARRIER ? &st->omp : &st->mpi;
}

/* Exclusive time: the top activity of stream s ran until t. */
static int accrue(struct an_waits *a, uint32_t s, int64_t t)
{
	struct an_stream_time *st = &a->time[s];
	struct an_frame *top = an_stack_top(&a->tr.stacks[s]);
	uint64_t ns;
	int rc = 0;

	if (t <= st->last)
		return 0;
	if (top) {	/* an activity open: an event came before, and set last */
		ns = (uint64_t)(t - st->last);
		if (!st->in_sync && st->kept_mpi)
			rc = an_stretch_add(&st->mpi, &top->b, top->id, top->region, ns);
		if (rc == 0 && !st->in_sync && st->kept_omp)
			rc = an_stretch_add(&st->omp, &top->c, top->id, top->region, ns);
		if (rc == 0)
			rc = an_omp_waits_accrue(&a->omp, s, top, ns);
	}
	st->last = t;
	return rc;
}

static int enter(struct an_waits *a, struct an_item *it, const struct an_event *ev)
{
	struct an_stream_time *st = &a->time[ev->s];
	struct an_frame *f;
	int rc;

	if ((rc = an_gpu_waits_before(&a->g, ev)) < 0 || (rc = accrue(a, ev->s, ev->t)) < 0)
		return rc;
	if (!(f = an_trace_enter(&a->tr, ev, &rc)))
		return rc;
	if ((rc = an_gpu_waits_enter(&a->g, f, it, ev)) < 0)
		return rc;
	if (f->role == LS_R_OMP_BARRIER)
		st->kept_omp = true;
	else if (an_role_mpi_comm(f->role))
		st->kept_mpi = true;
	else
		return 0;
	st->in_sync += sync_point(f->role);
	/* a synchronization ends its stretch: it is what came before it */
	return an_mpi_waits_enter(&a->mpi, f, ev, sync_point(f->role) ? an_stretch_end(stretch(st, f->role)) :
					      an_stretch_snapshot(stretch(st, f->role)));
}

static int leave(struct an_waits *a, struct an_item *it, const struct an_event *ev)
{
	struct an_stack *stack = &a->tr.stacks[ev->s];
	struct an_frame *f;
	int rc;

	if ((rc = an_gpu_waits_before(&a->g, ev)) < 0 || (rc = accrue(a, ev->s, ev->t)) < 0)
		return rc;
	if (!(f = an_trace_leave(&a->tr, ev)))
		return 0;
	if (a->tr.defs.streams[ev->s].host)
		an_omp_waits_leave(&a->omp, f, ev);
	if ((rc = an_gpu_waits_leave(&a->g, f, it, ev)) < 0)
		return rc;
	for (struct an_frame *g = an_stack_top(stack); g >= f; g--) {
		if (g->a && sync_point((enum ls_role)g->role))
			a->time[ev->s].in_sync--;
		if ((rc = an_mpi_waits_close(&a->mpi, g, ev, g == f)) < 0)
			return rc;
	}
	an_stack_pop_to(stack, f);
	an_gpu_waits_popped(&a->g, ev);
	return 0;
}

/* An edge: to the rules of its paradigm. */
static int edge(struct an_waits *a, struct an_item *it, const char **why)
{
	struct an_edge_rec e;
	int rc;

	if ((rc = an_item_edge(it, &e, why)) != 0) {
		if (rc > 0)
			*why = "edge without a valid 'from', 'to' or 'type'";
		return rc > 0 ? LS_ERR_SYNTAX : rc;
	}
	if (e.type == LS_E_MSG || e.type == LS_E_COLL || e.type == LS_E_BARRIER)
		return an_mpi_waits_edge(&a->mpi, e.type, e.from, e.to);
	if (e.type == LS_E_JOIN || e.type == LS_E_LOCK)
		return an_omp_waits_edge(&a->omp, e.type, e.from, e.to);
	return an_gpu_waits_edge(&a->g, e.type, e.from, e.to);
}

static int definition(struct an_waits *a, const struct ls_record *rec,
		      const char **why)
{
	int rc = an_trace_def(&a->tr, rec, why);
	uint32_t n = a->tr.defs.nstreams, np = a->tr.defs.nprocs;

	if (rc <= 0)
		return rc;
	if (rec->kind == LS_K_PROCESS) {
		/* a row of tallies per process, all patterns */
		return an_waitrec_process(&a->out, np);
	}
	if (rec->kind != LS_K_STREAM)
		return 0;
	if (ls_vec_room(&a->time, &a->time_cap, n - 1, sizeof(*a->time)) < 0 ||
	    an_gpu_waits_stream(&a->g) < 0 || an_omp_waits_stream(&a->omp) < 0)
		return LS_ERR_NOMEM;
	/* an MPI process's first host thread keeps its MPI stretch from the start */
	a->time[n - 1] = (struct an_stream_time){
		.last = INT64_MIN,
		.kept_mpi = a->tr.defs.streams[n - 1].first_host &&
			    a->tr.defs.procs[a->tr.defs.streams[n - 1].process].ranked,
	};
	return 0;
}

/* MPI's events, whose fields an_waits_take reads beyond the typed event's. */
#define MPI_EVENTS (LS_KIND_BIT(LS_K_SEND) | LS_KIND_BIT(LS_K_RECV) | LS_KIND_BIT(LS_K_RECV_POST) | \
		    LS_KIND_BIT(LS_K_REQ_CANCEL) | LS_KIND_BIT(LS_K_COLL_BEGIN) | LS_KIND_BIT(LS_K_COLL_END))
/* The events an_waits_take reads. */
#define EVENTS_READ (LS_KIND_BIT(LS_K_ENTER) | LS_KIND_BIT(LS_K_LEAVE) | MPI_EVENTS | LS_KIND_BIT(LS_K_TEAM_BEGIN) | \
		     LS_KIND_BIT(LS_K_TEAM_END) | LS_KIND_BIT(LS_K_FORK) | LS_KIND_BIT(LS_K_JOIN) | \
		     LS_KIND_BIT(LS_K_LOCK_ACQUIRE) | LS_KIND_BIT(LS_K_LOCK_RELEASE))

uint64_t an_waits_reads(void)
{
	return LS_DEFS_KINDS | LS_KIND_BIT(LS_K_EDGE) | LS_KIND_BIT(LS_K_INSTANCE) |
	       EVENTS_READ;
}

int an_waits_take(struct an_waits *a, struct an_item *it,
		  const char **why)
{
	const struct ls_record *rec = NULL;
	struct an_event ev;
	bool forked;
	int rc;

	/* most records find no batch open: that is checked before the call */
	if ((a->g.batch && (rc = an_gpu_waits_flush(&a->g, it)) < 0) ||
	    (a->omp.batch && (rc = an_omp_waits_flush(&a->omp, it)) < 0))
		return rc;
	/* its edges' ends are not all of the kinds it reads: the stages that read every event check them */
	if (it->kind == LS_K_EDGE)
		return edge(a, it, why);
	if (ls_kind_spec(it->kind)->cls != LS_C_EVENT && (rc = an_item_need(it, &rec, why)) < 0)
		return rc;
	if (LS_DEFS_KINDS & LS_KIND_BIT(it->kind))
		return definition(a, rec, why);
	if (it->kind == LS_K_INSTANCE)
		return an_mpi_waits_instance(&a->mpi, rec, why);
	if (!(EVENTS_READ & LS_KIND_BIT(it->kind)))
		return 0;
	if ((rc = an_trace_item(&a->tr, it, &ev, why)) < 0)
		return rc;
	forked = a->time[ev.s].forked;
	a->time[ev.s].forked = it->kind == LS_K_FORK;
	/* the fields of MPI's events are read here; an enter's or leave's where its rules need them */
	if ((MPI_EVENTS & LS_KIND_BIT(it->kind)) && (rc = an_item_need(it, &rec, why)) < 0)
		return rc;
	switch (it->kind) {
	case LS_K_ENTER:
		return enter(a, it, &ev);
	case LS_K_LEAVE:
		return leave(a, it, &ev);
	case LS_K_SEND:
		return an_mpi_waits_send(&a->mpi, rec, &ev, why);
	case LS_K_RECV:
		return an_mpi_waits_recv(&a->mpi, rec, &ev);
	case LS_K_COLL_BEGIN: case LS_K_COLL_END:
		return an_mpi_waits_coll(&a->mpi, rec, &ev, &a->time[ev.s].mpi);
	case LS_K_RECV_POST: case LS_K_REQ_CANCEL:
		return an_mpi_waits_request(&a->mpi, rec, &ev);
	case LS_K_FORK:
		/* the forking activity ran until the fork: then the team's start (below) */
		return accrue(a, ev.s, ev.t);
	case LS_K_TEAM_BEGIN:
		/* a team thread: its activities can be blamed */
		a->time[ev.s].kept_omp = true;
		/*
		 * the thread that forked it, at its own start: the time since the
		 * fork was the OpenMP runtime's team start, no activity's own
		 */
		if (forked)
			a->time[ev.s].last = ev.t;
		return 0;
	default:
		/* a lock's holder is blamed for its time from acquire to release */
		if ((rc = accrue(a, ev.s, ev.t)) < 0)
			return rc;
		return an_omp_waits_event(&a->omp, it->kind, &ev);
	}
}

/* Stream s's last event's time: where an activity still open at the end ends. */
static int64_t last_time(void *ctx, uint32_t s)
{
	const struct an_waits *a = ctx;

	return a->time[s].last;
}

int an_waits_finish(struct an_waits *a)
{
	int rc;

	if ((rc = an_gpu_waits_flush(&a->g, NULL)) < 0 || (rc = an_omp_waits_flush(&a->omp, NULL)) < 0)
		return rc;
	return an_mpi_waits_finish(&a->mpi, last_time, a);
}

/* Pattern p's summary: of process proc, or (LS_NONE) run-wide with min, max and who waited most. */
static int summary_record(struct an_waits *a, enum ls_pattern p,
			  const struct an_tally *t, uint32_t proc,
			  uint64_t min, uint64_t max, uint32_t most)
{
	ls_build_begin(a->out.w, proc != LS_NONE ? 5 : 7);
	ls_put_kind(a->out.w, LS_K_WAIT_SUMMARY);
	ls_put_pattern(a->out.w, p);
	ls_put_u64(a->out.w, LS_F_COUNT, t->count);
	ls_put_u64(a->out.w, LS_F_NS, t->ns);
	if (proc != LS_NONE) {
		ls_put_u64(a->out.w, LS_F_PROCESS, a->tr.defs.procs[proc].id);
	} else {
		ls_put_u64(a->out.w, LS_F_MIN, min);
		ls_put_u64(a->out.w, LS_F_MAX, max);
		ls_put_u64(a->out.w, LS_F_MOST, a->tr.defs.procs[most].id);
	}
	return ls_build_end(a->out.w);
}

struct an_tally an_waits_total(const struct an_waits *a, enum ls_pattern p,
			       uint64_t *min, uint64_t *max, uint32_t *most)
{
	struct an_tally all = { 0, 0 };

	*min = a->tr.defs.nprocs ? UINT64_MAX : 0;
	*max = 0;
	*most = 0;
	for (uint32_t q = 0; q < a->tr.defs.nprocs; q++) {
		const struct an_tally *t = an_waitrec_tally(&a->out, q, p);

		all.count += t->count;
		all.ns += t->ns;
		*min = t->ns < *min ? t->ns : *min;
		if (t->ns > *max)
			*max = t->ns, *most = q;
	}
	return all;
}

const struct ls_defs *an_waits_defs(const struct an_waits *a)
{
	return &a->tr.defs;
}

int an_waits_summary(struct an_waits *a)
{
	int rc;

	for (int p = 0; p < LS_P__COUNT; p++) {
		uint64_t min, max;
		uint32_t most;
		struct an_tally all = an_waits_total(a, p, &min, &max, &most);

		if (!all.count)
			continue;
		if ((rc = summary_record(a, p, &all, LS_NONE, min, max, most)) < 0)
			return rc;
		for (uint32_t q = 0; q < a->tr.defs.nprocs; q++) {
			const struct an_tally *t = an_waitrec_tally(&a->out, q, p);

			if (t->count && (rc = summary_record(a, p, t, q, 0, 0, 0)) < 0)
				return rc;
		}
	}
	return 0;
}

struct an_waits_stats an_waits_stats(const struct an_waits *a)
{
	const struct an_mpi_waits_counts *m = &a->mpi.st;

	return (struct an_waits_stats){
		.clock = m->clock, .clamped = m->clamped, .stray_edges = m->stray_edges,
		.stray_other = a->g.stray + a->omp.stray, .undecided = m->undecided, .outside = m->outside,
		.acts = a->mpi.nacts, .msgs = a->mpi.npend,
	};
}

void an_waits_free(struct an_waits *a)
{
	if (!a)
		return;
	an_mpi_waits_release(&a->mpi);
	for (uint32_t s = 0; s < a->tr.defs.nstreams; s++) {
		an_stretch_release(&a->time[s].mpi);
		an_stretch_release(&a->time[s].omp);
	}
	free(a->time);
	an_waitrec_release(&a->out);
	an_gpu_waits_release(&a->g);
	an_omp_waits_release(&a->omp);
	an_trace_release(&a->tr);
	free(a);
}

/* tr-waits as a stage (stage.h) */

static const struct an_typed *typed_waits(void *ctx, size_t *n)
{
	struct an_waits *a = ctx;

	return an_waitrec_typed(&a->out, n);
}

static void typed_only_waits(void *ctx)
{
	struct an_waits *a = ctx;

	a->out.typed.only = true;
}

static void *open_waits(struct ls_writer *w, unsigned jobs, const void *opts)
{
	(void)jobs;
	(void)opts;
	return an_waits_new(w);
}

static int take_waits(void *ctx, struct an_item *it, const char **why)
{
	return an_waits_take(ctx, it, why);
}

static int finish_waits(void *ctx, const char **why)
{
	(void)why;
	return an_waits_finish(ctx);
}

static size_t odd_waits(const void *ctx, struct an_count *out)
{
	struct an_waits_stats st = an_waits_stats(ctx);
	const struct an_count odd[] = {
		{ st.clock, "messages received before they were sent (clock skew): no wait state for them" },
		{ st.clamped, "wait states cut to their activity's duration (clock skew)" },
		{ st.stray_edges, "edges or instance members naming no MPI send, receive or collective" },
		{ st.undecided, "MPI activities still waiting for an edge at the end (unmatched messages, incomplete collectives)" },
		{ st.stray_other, "GPU or OpenMP edges naming activities tr-waits does not follow (or no longer keeps)" },
		{ st.outside, "message events in no MPI call: no wait state for them" },
	};

	memcpy(out, odd, sizeof(odd));
	return sizeof(odd) / sizeof(odd[0]);
}

static void held_waits(const void *ctx, char *what, size_t n)
{
	struct an_waits_stats st = an_waits_stats(ctx);

	snprintf(what, n, "room for %" PRIu32 " activities and %" PRIu32 " message ends whose "
		 "wait states are not decided (messages never received?)", st.acts, st.msgs);
}

static void close_waits(void *ctx)
{
	an_waits_free(ctx);
}

static const char *const waits_needs[] = { "tr-deps", NULL };
static const enum ls_kind waits_replaces[] = { LS_K_WAIT, LS_K_IDLE, LS_K_BLAME, LS_K_WAIT_SUMMARY, 0 };

const struct an_stage an_stage_waits = {
	.tool = "tr-waits", .needs = waits_needs, .replaces = waits_replaces, .reads = an_waits_reads,
	.open = open_waits, .take = take_waits, .typed = typed_waits, .typed_only = typed_only_waits,
	.finish = finish_waits, .odd = odd_waits, .held = held_waits, .close = close_waits,
};
