/* tr-waits for MPI: wait states from message and collective edges, and
 * their blame. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "../libstream/idmap.h"
#include "../libstream/roles.h"
#include "../libstream/vec.h"
#include "blame.h"
#include "gpu/waits.h"
#include "mpi/coll.h"
#include "omp/waits.h"
#include "stage.h"
#include "trace.h"
#include "waits.h"

/* An MPI activity the analysis follows. */
struct an_act {
	uint64_t id, leave;	/* enter and leave event ids */
	int64_t t0, t1;		/* entered, left */
	uint32_t s, proc;	/* stream and process index */
	uint32_t region;	/* index */
	uint32_t comm;		/* collectives: comm index from the end event */
	uint32_t inputs;	/* edges still to come, +1 while open */
	uint32_t refs;		/* reasons to keep it: free at 0 */
	uint8_t role;
	uint8_t shape;		/* a call completing a nonblocking collective: its shape (a role), else 0 */
	bool live, open;
	bool icoll;		/* a nonblocking collective's post, or the call completing it */
	/* its wait so far: the latest cause */
	uint8_t pattern;
	int64_t cause_t;	/* t0 while there is none */
	uint64_t cause_ev;
	uint32_t cause_act;	/* whose interval the wait is blamed on */
	struct an_interval before;	/* the causing stream's time before it */
};

/* A send, receive or posted receive waiting for its edge. */
struct an_pending {
	uint32_t act;
	int64_t t;		/* send: its activity's enter; else the event's t */
	uint64_t ev, req;
	bool has_req, send;
	uint32_t order, peer;	/* send: its node in the receiver's order queue */
};

/* A send to a process, by when it began: for Messages in Wrong Order. */
struct an_order_node {
	int64_t t;
	uint32_t next;
	bool received;
};

struct an_order_queue {
	uint32_t head, tail;
};

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
	struct an_interval mpi;	/* since the last blocking MPI call (frames' b: their share) */
	struct an_interval omp;	/* since the last OpenMP barrier (frames' c) */
};

struct an_waits {
	struct an_trace tr;
	struct an_stream_time *time;	/* per stream index */
	uint32_t time_cap;
	struct an_act *acts;
	uint32_t nacts, acts_cap, free_act;
	struct an_pending *pend;
	uint32_t npend, pend_cap, free_pend;
	struct ls_idmap ev_ix;		/* event id -> pending (sends, receives) */
	struct ls_idmap act_ix;		/* collective enter/leave id -> act */
	struct ls_idmap post_ix;	/* (process << 40 | req) -> pending post */
	struct an_order_node *order;
	uint32_t norder, order_cap, free_order;
	struct an_order_queue *queues;	/* per process index */
	uint32_t queues_cap;
	struct an_waitrec out;		/* wait states, blame, tallies */
	struct an_gpu_waits g;		/* CUDA */
	struct an_omp_waits omp;		/* OpenMP locks and joins */
	struct an_waits_stats st;
};

struct an_waits *an_waits_new(struct ls_writer *w)
{
	struct an_waits *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	an_trace_init(&a->tr);
	a->free_act = a->free_pend = a->free_order = LS_NONE;
	an_waitrec_init(&a->out, w, &a->tr);
	an_gpu_waits_init(&a->g, &a->tr, &a->out);
	an_omp_waits_init(&a->omp, &a->tr, &a->out);
	return a;
}

/* Activities: made at enter, freed when nothing refers to them. */

static int act_new(struct an_waits *a, const struct an_frame *f,
		   const struct an_event *ev, uint32_t *out)
{
	uint32_t i;

	if (ls_pool_take(&a->acts, &a->nacts, &a->acts_cap, sizeof(*a->acts),
			 &a->free_act, &i) < 0)
		return LS_ERR_NOMEM;
	a->acts[i] = (struct an_act){
		.id = f->id, .t0 = f->t, .t1 = f->t, .s = ev->s, .proc = ev->proc,
		.comm = LS_NONE, .inputs = 1, .refs = 1, .role = f->role, .region = f->region,
		.live = true, .open = true, .cause_t = f->t, .cause_act = LS_NONE,
	};
	*out = i;
	return 0;
}

static void act_ref(struct an_waits *a, uint32_t i)
{
	a->acts[i].refs++;
}

static void act_unref(struct an_waits *a, uint32_t i)
{
	struct an_act *x = &a->acts[i];

	if (--x->refs)
		return;
	an_interval_release(&x->before);
	x->live = false;
	ls_pool_give(a->acts, sizeof(*a->acts), &a->free_act, i);
}

/* Pending sends, receives and posts. */

static int pend_new(struct an_waits *a, struct an_pending p, uint32_t *out)
{
	uint32_t i;

	if (ls_pool_take(&a->pend, &a->npend, &a->pend_cap, sizeof(*a->pend),
			 &a->free_pend, &i) < 0)
		return LS_ERR_NOMEM;
	a->pend[i] = p;
	*out = i;
	return 0;
}

static void pend_free(struct an_waits *a, uint32_t i)
{
	ls_pool_give(a->pend, sizeof(*a->pend), &a->free_pend, i);
}

/* The queue of sends to process p not received yet, oldest first. */
static struct an_order_queue *queue_of(struct an_waits *a, uint32_t p)
{
	uint32_t old = a->queues_cap;

	if (ls_vec_room(&a->queues, &a->queues_cap, p, sizeof(*a->queues)) < 0)
		return NULL;
	for (uint32_t q = old; q < a->queues_cap; q++)
		a->queues[q] = (struct an_order_queue){ LS_NONE, LS_NONE };
	return &a->queues[p];
}

static int order_push(struct an_waits *a, uint32_t p, int64_t t, uint32_t *out)
{
	struct an_order_queue *q = queue_of(a, p);
	uint32_t i = a->free_order;

	if (!q)
		return LS_ERR_NOMEM;
	if (i != LS_NONE) {
		a->free_order = a->order[i].next;
	} else {
		if (ls_vec_room(&a->order, &a->order_cap, a->norder, sizeof(*a->order)) < 0)
			return LS_ERR_NOMEM;
		i = a->norder++;
	}
	a->order[i] = (struct an_order_node){ t, LS_NONE, false };
	if (q->tail == LS_NONE)
		q->head = i;
	else
		a->order[q->tail].next = i;
	q->tail = i;
	*out = i;
	return 0;
}

/* Mark a send received; drop received ones from the front of the queue. */
static void order_received(struct an_waits *a, uint32_t p, uint32_t node)
{
	struct an_order_queue *q = &a->queues[p];

	a->order[node].received = true;
	while (q->head != LS_NONE && a->order[q->head].received) {
		uint32_t next = a->order[q->head].next;

		a->order[q->head].next = a->free_order;
		a->free_order = q->head;
		q->head = next;
	}
	if (q->head == LS_NONE)
		q->tail = LS_NONE;
}

/* Wait states and blame. */

/* Write x's wait state of dur ns and its blame. */
static int wait_record(struct an_waits *a, const struct an_act *x, uint64_t dur)
{
	const struct an_act *c = &a->acts[x->cause_act];
	struct an_wait w = { x->id, x->t0, dur, x->cause_ev, x->s, x->pattern, true };
	int rc;

	if ((rc = an_waitrec_wait(&a->out, &w)) < 0)
		return rc;
	if (c->before.total == 0)	/* nothing ran before the cause: itself */
		return an_waitrec_blame(&a->out, c->id, c->region, dur, x->pattern, x->id, c->s);
	return an_waitrec_blame_split(&a->out, &w, &c->before, NULL, c->s);
}

/* All of x's inputs are in: its wait is decided. */
static int decide(struct an_waits *a, uint32_t i)
{
	struct an_act *x = &a->acts[i];
	uint32_t cause = x->cause_act;
	int rc = 0;

	if (cause != LS_NONE) {
		uint64_t want = (uint64_t)(x->cause_t - x->t0);
		uint64_t lasted = x->t1 > x->t0 ? (uint64_t)(x->t1 - x->t0) : 0;

		a->st.clamped += want > lasted;
		if (want > lasted)
			want = lasted;
		if (want)
			rc = wait_record(a, x, want);
		x->cause_act = LS_NONE;
		act_unref(a, cause);
	}
	act_unref(a, i);
	return rc;
}

static int input_done(struct an_waits *a, uint32_t i)
{
	return --a->acts[i].inputs ? 0 : decide(a, i);
}

/* Activity w could not go on before time t, when ev of activity c happened. */
static void candidate(struct an_waits *a, uint32_t w, int64_t t, uint64_t ev,
		      uint32_t c, enum ls_pattern pattern)
{
	struct an_act *x = &a->acts[w];
	uint32_t old = x->cause_act;

	/* the latest cause; of equal ones, the earliest event, whatever order the edges came in */
	if (t < x->cause_t || (t == x->cause_t && (old == LS_NONE || ev >= x->cause_ev)))
		return;
	act_ref(a, c);
	x->cause_t = t;
	x->cause_ev = ev;
	x->cause_act = c;
	x->pattern = (uint8_t)pattern;
	if (old != LS_NONE)
		act_unref(a, old);
}

/*
 * Late Receiver: a blocking send s that was still running when its
 * receive was posted (in the receiving call w itself, or by an Irecv).
 */
static void late_receiver(struct an_waits *a, uint32_t s, uint32_t w,
			  const struct an_pending *recv)
{
	const struct an_act *x = &a->acts[s];
	uint32_t post = LS_NONE, p;
	int64_t t;
	uint64_t ev, key;

	if (recv->has_req && ls_key_pair(a->acts[w].proc, recv->req, &key) &&
	    ls_idmap_get(&a->post_ix, key, &p)) {
		post = a->pend[p].act;
		t = a->pend[p].t;
		ev = a->pend[p].ev;
	} else if (an_role_blocking_recv(a->acts[w].role)) {
		post = w;
		t = a->acts[w].t0;
		ev = a->acts[w].id;
	}
	if (post != LS_NONE && an_role_blocking_send(x->role) && t > x->t0 &&
	    (x->open || t < x->t1))
		candidate(a, s, t, ev, post, LS_P_LATE_RECEIVER);
}

/* A posted receive is done with (received or cancelled). */
static void post_done(struct an_waits *a, uint32_t proc, uint64_t req)
{
	uint64_t key;
	uint32_t p;

	if (!ls_key_pair(proc, req, &key) || !ls_idmap_get(&a->post_ix, key, &p))
		return;
	ls_idmap_del(&a->post_ix, key);
	act_unref(a, a->pend[p].act);
	pend_free(a, p);
}

static int message_edge(struct an_waits *a, uint64_t from, uint64_t to)
{
	uint32_t ps, pr, s, w;
	struct an_pending send, recv;
	int rc;

	if (!ls_idmap_get(&a->ev_ix, from, &ps) || !ls_idmap_get(&a->ev_ix, to, &pr) ||
	    !a->pend[ps].send || a->pend[pr].send) {
		a->st.stray_edges++;
		return 0;
	}
	send = a->pend[ps];
	recv = a->pend[pr];
	s = send.act;
	w = recv.act;
	order_received(a, send.peer, send.order);
	if (recv.t < send.t) {
		a->st.clock++;
	} else {
		if (send.t > a->acts[w].t0) {
			const struct an_order_queue *q = &a->queues[send.peer];
			/*
			 * Wrong order: an earlier message sat unreceived since
			 * before the receive began. Only a receive of one message
			 * can take messages in the wrong order; a Wait on several
			 * waits for all of them alike.
			 */
			bool wrong = q->head != LS_NONE &&
				     a->order[q->head].t < a->acts[w].t0 &&
				     an_role_blocking_recv(a->acts[w].role);

			candidate(a, w, send.t, from, s, wrong ?
				  LS_P_LATE_SENDER_WRONG_ORDER : LS_P_LATE_SENDER);
		}
		late_receiver(a, s, w, &recv);
	}
	if (recv.has_req)
		post_done(a, a->acts[w].proc, recv.req);
	ls_idmap_del(&a->ev_ix, from);
	ls_idmap_del(&a->ev_ix, to);
	pend_free(a, ps);
	pend_free(a, pr);
	if (an_role_blocking_send(a->acts[s].role) && (rc = input_done(a, s)) < 0)
		return rc;
	act_unref(a, s);
	return input_done(a, w);
}

static enum ls_pattern coll_pattern(enum ls_role r)
{
	switch (r) {
	case LS_R_MPI_BARRIER: return LS_P_WAIT_BARRIER;
	case LS_R_MPI_ONE2N: return LS_P_LATE_BROADCAST;
	case LS_R_MPI_N2ONE: return LS_P_EARLY_REDUCE;
	case LS_R_MPI_SCAN: return LS_P_EARLY_SCAN;
	case LS_R_MPI_INIT: return LS_P_WAIT_INIT;
	case LS_R_MPI_FINALIZE: return LS_P_WAIT_FINALIZE;
	case LS_R_OMP_BARRIER: return LS_P_OMP_BARRIER;
	default: return LS_P_WAIT_NXN;
	}
}

static int edge(struct an_waits *a, const struct ls_record *rec, const char **why)
{
	uint64_t from, to;
	uint32_t c, w;
	const char *type;
	enum ls_edge e;
	uint32_t n;

	if (ls_get_u64(rec, LS_F_FROM, &from) < 0 || ls_get_u64(rec, LS_F_TO, &to) < 0 ||
	    ls_get_str(rec, LS_F_TYPE, &type, &n) < 0) {
		*why = "edge without a valid 'from', 'to' or 'type'";
		return LS_ERR_SYNTAX;
	}
	e = ls_edge_lookup(type, n);
	if (e == LS_E_MSG)
		return message_edge(a, from, to);
	if (e != LS_E_COLL && e != LS_E_BARRIER)
		return e == LS_E_JOIN || e == LS_E_LOCK ? an_omp_waits_edge(&a->omp, e, from, to)
							: an_gpu_waits_edge(&a->g, e, from, to);
	if (!ls_idmap_get(&a->act_ix, from, &c) || !ls_idmap_get(&a->act_ix, to, &w)) {
		a->st.stray_edges++;
		return 0;
	}
	candidate(a, w, a->acts[c].t0, from, c,
		  coll_pattern(a->acts[w].shape ? a->acts[w].shape : a->acts[w].role));
	return 0;
}

/* An instance record: its members' waits are decided. */
static int instance(struct an_waits *a, const struct ls_record *rec, const char **why)
{
	struct ls_iter acts;
	struct mp_item m;
	int rc;

	if (ls_array_field(rec, LS_F_ACTS, &acts) < 0) {
		*why = "instance without a valid 'acts' array";
		return LS_ERR_SYNTAX;
	}
	while (ls_array_next(&acts, &m, NULL, NULL)) {
		uint32_t i;

		if (m.type != MP_UINT) {
			*why = "instance 'acts' holding something else than event ids";
			return LS_ERR_SYNTAX;
		}
		if (!ls_idmap_get(&a->act_ix, m.v.u, &i)) {
			a->st.stray_edges++;
			continue;
		}
		ls_idmap_del(&a->act_ix, a->acts[i].id);
		ls_idmap_del(&a->act_ix, a->acts[i].leave);
		if ((rc = input_done(a, i)) < 0)
			return rc;
	}
	return 0;
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
static struct an_interval *stretch(struct an_stream_time *st, enum ls_role r)
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
			rc = an_interval_add(&st->mpi, &top->b, top->id, top->region, ns);
		if (rc == 0 && !st->in_sync && st->kept_omp)
			rc = an_interval_add(&st->omp, &top->c, top->id, top->region, ns);
		if (rc == 0)
			rc = an_omp_waits_accrue(&a->omp, s, top, ns);
	}
	st->last = t;
	return rc;
}

static int enter(struct an_waits *a, const struct ls_record *rec,
		 const struct an_event *ev, const char **why)
{
	struct an_stream_time *st = &a->time[ev->s];
	struct an_interval *iv;
	struct an_frame *f;
	struct an_act *x;
	uint32_t i;
	int rc;

	if ((rc = an_gpu_waits_before(&a->g, ev)) < 0 || (rc = accrue(a, ev->s, ev->t)) < 0)
		return rc;
	if (!(f = an_trace_enter(&a->tr, rec, ev, &rc, why)))
		return rc;
	if ((rc = an_gpu_waits_enter(&a->g, f, rec, ev)) < 0)
		return rc;
	if (f->role == LS_R_OMP_BARRIER)
		st->kept_omp = true;
	else if (an_role_mpi_comm(f->role))
		st->kept_mpi = true;
	else
		return 0;
	if ((rc = act_new(a, f, ev, &i)) < 0)
		return rc;
	f->a = i + 1;
	x = &a->acts[i];
	iv = stretch(st, f->role);
	if (!sync_point(f->role))
		return an_interval_copy(&x->before, iv);
	/* a synchronization ends its stretch: it is what came before it */
	x->before = *iv;
	*iv = (struct an_interval){ NULL, 0, 0, 0 };
	st->in_sync++;
	return 0;
}

/* Activity f ends at ev (its own leave, or a leave of an enclosing one). */
static int close_frame(struct an_waits *a, const struct an_frame *f,
		       const struct an_event *ev, bool own)
{
	struct an_act *x;
	uint32_t i;
	int rc;

	if (!f->a)
		return 0;
	i = f->a - 1;
	x = &a->acts[i];
	x->t1 = ev->t;
	x->leave = ev->id;
	x->open = false;
	if (sync_point(x->role))
		a->time[ev->s].in_sync--;
	if (own && (an_coll_expected(&a->tr.defs, x->shape ? x->shape : x->role, x->comm, x->proc) ||
		    x->role == LS_R_OMP_BARRIER || x->icoll)) {
		if ((rc = ls_idmap_put(&a->act_ix, x->id, i)) < 0 ||
		    (rc = ls_idmap_put(&a->act_ix, x->leave, i)) < 0)
			return rc;
		x->inputs++;
	}
	return input_done(a, i);
}

static int leave(struct an_waits *a, const struct ls_record *rec,
		 const struct an_event *ev, const char **why)
{
	struct an_stack *stack = &a->tr.stacks[ev->s];
	struct an_frame *f;
	int rc;

	if ((rc = an_gpu_waits_before(&a->g, ev)) < 0 || (rc = accrue(a, ev->s, ev->t)) < 0)
		return rc;
	if (!(f = an_trace_leave(&a->tr, rec, ev, &rc, why)))
		return rc;
	if (a->tr.defs.streams[ev->s].host)
		an_omp_waits_leave(&a->omp, f, ev);
	if ((rc = an_gpu_waits_leave(&a->g, f, rec, ev)) < 0)
		return rc;
	for (struct an_frame *g = an_stack_top(stack); g >= f; g--)
		if ((rc = close_frame(a, g, ev, g == f)) < 0)
			return rc;
	an_stack_pop_to(stack, f);
	an_gpu_waits_popped(&a->g, ev);
	return 0;
}

/* The MPI activity an event happens in, or LS_NONE (counted). */
static uint32_t event_act(struct an_waits *a, const struct an_event *ev)
{
	const struct an_frame *top = an_stack_top(&a->tr.stacks[ev->s]);

	if (top && top->a)
		return top->a - 1;
	a->st.outside++;
	return LS_NONE;
}

static int send_event(struct an_waits *a, const struct ls_record *rec,
		      const struct an_event *ev, const char **why)
{
	uint32_t i = event_act(a, ev), p, peer;
	struct an_pending pend;
	uint64_t id;
	int rc;

	if (i == LS_NONE)
		return 0;
	if (ls_get_u64(rec, LS_F_PEER, &id) < 0 ||
	    (peer = ls_index(&a->tr.defs.proc_ix, id)) == LS_NONE) {
		*why = "message naming an undefined process";
		return LS_ERR_SYNTAX;
	}
	pend = (struct an_pending){ .act = i, .t = a->acts[i].t0, .ev = ev->id,
				    .send = true, .peer = peer };
	if ((rc = order_push(a, peer, pend.t, &pend.order)) < 0 ||
	    (rc = pend_new(a, pend, &p)) < 0 ||
	    (rc = ls_idmap_put(&a->ev_ix, ev->id, p)) < 0)
		return rc;
	act_ref(a, i);
	a->acts[i].inputs += an_role_blocking_send(a->acts[i].role);
	return 0;
}

static int recv_event(struct an_waits *a, const struct ls_record *rec,
		      const struct an_event *ev)
{
	uint32_t i = event_act(a, ev), p;
	struct an_pending pend;
	int rc;

	if (i == LS_NONE)
		return 0;
	pend = (struct an_pending){ .act = i, .t = ev->t, .ev = ev->id };
	pend.has_req = ls_get_u64(rec, LS_F_REQ, &pend.req) == 0;
	if ((rc = pend_new(a, pend, &p)) < 0 ||
	    (rc = ls_idmap_put(&a->ev_ix, ev->id, p)) < 0)
		return rc;
	a->acts[i].inputs++;
	return 0;
}

static int request_event(struct an_waits *a, const struct ls_record *rec,
			 const struct an_event *ev)
{
	uint32_t i, p;
	uint64_t req, key;
	int rc;

	if (ls_get_u64(rec, LS_F_REQ, &req) < 0)
		return 0;
	if (rec->kind == LS_K_REQ_CANCEL) {
		post_done(a, ev->proc, req);
		return 0;
	}
	if ((i = event_act(a, ev)) == LS_NONE || !ls_key_pair(ev->proc, req, &key))
		return 0;
	post_done(a, ev->proc, req);	/* a request id used again */
	if ((rc = pend_new(a, (struct an_pending){ .act = i, .t = a->acts[i].t0,
						   .ev = ev->id }, &p)) < 0 ||
	    (rc = ls_idmap_put(&a->post_ix, key, p)) < 0)
		return rc;
	act_ref(a, i);
	return 0;
}

/*
 * A collective ends: its comm on its activity. A nonblocking one's post
 * (a coll_begin with a request) and the call that completes it (a
 * coll_end with one, and the shape its operation gives) are kept for the
 * edges and the instance tr-deps writes of them.
 */
static int coll_event(struct an_waits *a, const struct ls_record *rec,
		      const struct an_event *ev)
{
	struct an_frame *top = an_stack_top(&a->tr.stacks[ev->s]);
	struct an_act *x;
	const char *op = "";
	uint64_t comm;
	uint32_t n = 0, i;
	int rc;

	if (top && top->role == LS_R_KERNEL && !top->a && rec->kind == LS_K_COLL_BEGIN) {
		/* a kernel that runs a collective (NCCL): an activity of its own */
		if ((rc = act_new(a, top, ev, &i)) < 0 ||
		    (rc = an_interval_copy(&a->acts[i].before, &a->time[ev->s].mpi)) < 0)
			return rc;
		top->a = i + 1;
	}
	if (!(x = top && top->a ? &a->acts[top->a - 1] : NULL))
		return 0;
	if (x->role == LS_R_KERNEL && rec->kind == LS_K_COLL_END) {
		if (ls_get_str(rec, LS_F_OP, &op, &n) < 0)
			n = 0;
		x->shape = (uint8_t)ls_role_by_op(op, n);
	}
	if (ls_has(rec, LS_F_REQ)) {
		x->icoll = true;
		if (rec->kind == LS_K_COLL_END) {
			if (ls_get_str(rec, LS_F_OP, &op, &n) < 0)
				n = 0;
			x->shape = (uint8_t)ls_role_by_op(op, n);
		}
	} else if (rec->kind == LS_K_COLL_END && ls_get_u64(rec, LS_F_COMM, &comm) == 0) {
		x->comm = ls_index(&a->tr.defs.comm_ix, comm);
	}
	return 0;
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

/* The events an_waits_take reads. */
#define EVENTS_READ (LS_KIND_BIT(LS_K_ENTER) | LS_KIND_BIT(LS_K_LEAVE) | \
		     LS_KIND_BIT(LS_K_SEND) | LS_KIND_BIT(LS_K_RECV) | \
		     LS_KIND_BIT(LS_K_RECV_POST) | LS_KIND_BIT(LS_K_REQ_CANCEL) | \
		     LS_KIND_BIT(LS_K_COLL_BEGIN) | LS_KIND_BIT(LS_K_COLL_END) | LS_KIND_BIT(LS_K_TEAM_BEGIN) | \
		     LS_KIND_BIT(LS_K_TEAM_END) | LS_KIND_BIT(LS_K_JOIN) | \
		     LS_KIND_BIT(LS_K_LOCK_ACQUIRE) | LS_KIND_BIT(LS_K_LOCK_RELEASE))

uint64_t an_waits_reads(void)
{
	return LS_DEFS_KINDS | LS_KIND_BIT(LS_K_EDGE) | LS_KIND_BIT(LS_K_INSTANCE) |
	       EVENTS_READ;
}

int an_waits_take(struct an_waits *a, const struct ls_record *rec,
		  const char **why)
{
	struct an_event ev;
	int rc;

	/* most records find no batch open: that is checked before the call */
	if ((a->g.batch && (rc = an_gpu_waits_flush(&a->g, rec)) < 0) ||
	    (a->omp.batch && (rc = an_omp_waits_flush(&a->omp, rec)) < 0))
		return rc;
	if (LS_DEFS_KINDS & LS_KIND_BIT(rec->kind))
		return definition(a, rec, why);
	if (rec->kind == LS_K_EDGE)
		return edge(a, rec, why);
	if (rec->kind == LS_K_INSTANCE)
		return instance(a, rec, why);
	if (!(EVENTS_READ & LS_KIND_BIT(rec->kind)))
		return 0;
	if ((rc = an_trace_event(&a->tr, rec, &ev, why)) < 0)
		return rc;
	switch (rec->kind) {
	case LS_K_ENTER:
		return enter(a, rec, &ev, why);
	case LS_K_LEAVE:
		return leave(a, rec, &ev, why);
	case LS_K_SEND:
		return send_event(a, rec, &ev, why);
	case LS_K_RECV:
		return recv_event(a, rec, &ev);
	case LS_K_COLL_BEGIN: case LS_K_COLL_END:
		return coll_event(a, rec, &ev);
	case LS_K_RECV_POST: case LS_K_REQ_CANCEL:
		return request_event(a, rec, &ev);
	case LS_K_TEAM_BEGIN:
		/* a team thread: its activities can be blamed */
		a->time[ev.s].kept_omp = true;
		return 0;
	default:
		/* a lock's holder is blamed for its time from acquire to release */
		if ((rc = accrue(a, ev.s, ev.t)) < 0)
			return rc;
		return an_omp_waits_event(&a->omp, rec, &ev);
	}
}

int an_waits_finish(struct an_waits *a)
{
	int rc;

	if ((rc = an_gpu_waits_flush(&a->g, NULL)) < 0 || (rc = an_omp_waits_flush(&a->omp, NULL)) < 0)
		return rc;
	for (uint32_t i = 0; i < a->nacts; i++) {
		struct an_act *x = &a->acts[i];

		if (!x->live || !x->inputs)
			continue;
		if (x->open)
			x->t1 = a->time[x->s].last;
		x->open = false;
		a->st.undecided++;
		x->inputs = 1;
		if ((rc = decide(a, i)) < 0)
			return rc;
	}
	return 0;
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
	struct an_waits_stats st = a->st;

	st.stray_other = a->g.stray + a->omp.stray;
	st.acts = a->nacts;
	st.msgs = a->npend;
	return st;
}

void an_waits_free(struct an_waits *a)
{
	if (!a)
		return;
	for (uint32_t i = 0; i < a->nacts; i++)
		if (a->acts[i].live)
			an_interval_release(&a->acts[i].before);
	for (uint32_t s = 0; s < a->tr.defs.nstreams; s++) {
		an_interval_release(&a->time[s].mpi);
		an_interval_release(&a->time[s].omp);
	}
	free(a->time);
	free(a->acts);
	free(a->pend);
	free(a->order);
	free(a->queues);
	an_waitrec_release(&a->out);
	ls_idmap_release(&a->ev_ix);
	ls_idmap_release(&a->act_ix);
	ls_idmap_release(&a->post_ix);
	an_gpu_waits_release(&a->g);
	an_omp_waits_release(&a->omp);
	an_trace_release(&a->tr);
	free(a);
}

/* tr-waits as a stage (stage.h) */

static void *open_waits(struct ls_writer *w, unsigned jobs, const void *opts)
{
	(void)jobs;
	(void)opts;
	return an_waits_new(w);
}

static int take_waits(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_waits_take(ctx, rec, why);
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
	.open = open_waits, .take = take_waits, .finish = finish_waits, .odd = odd_waits,
	.held = held_waits, .close = close_waits,
};
