/* tr-waits for MPI and the OpenMP barrier (waits.h): the wait rules of messages and collectives. */
#include <stdlib.h>

#include "../../libstream/error.h"
#include "../../libstream/idmap.h"
#include "../../libstream/roles.h"
#include "../../libstream/vec.h"
#include "../roles.h"
#include "coll.h"
#include "waits.h"

void an_mpi_waits_init(struct an_mpi_waits *m, struct an_trace *tr, struct an_waitrec *out)
{
	*m = (struct an_mpi_waits){ .tr = tr, .out = out, .free_act = LS_NONE, .free_pend = LS_NONE,
				    .free_order = LS_NONE, .ev_ix = LS_IDMAP_INIT, .act_ix = LS_IDMAP_INIT,
				    .post_ix = LS_IDMAP_INIT };
}

/* Activities: made at enter, freed when nothing refers to them. */

static int act_new(struct an_mpi_waits *m, const struct an_frame *f,
		   const struct an_event *ev, uint32_t *out)
{
	uint32_t i;

	if (ls_pool_take(&m->acts, &m->nacts, &m->acts_cap, sizeof(*m->acts),
			 &m->free_act, &i) < 0)
		return LS_ERR_NOMEM;
	m->acts[i] = (struct an_mpi_act){
		.id = f->id, .t0 = f->t, .t1 = f->t, .s = ev->s, .proc = ev->proc,
		.comm = LS_NONE, .inputs = 1, .refs = 1, .role = f->role, .region = f->region,
		.live = true, .open = true, .cause_t = f->t, .cause_act = LS_NONE,
	};
	*out = i;
	return 0;
}

static void act_ref(struct an_mpi_waits *m, uint32_t i)
{
	m->acts[i].refs++;
}

static void act_unref(struct an_mpi_waits *m, uint32_t i)
{
	struct an_mpi_act *x = &m->acts[i];

	if (--x->refs)
		return;
	an_snapshot_release(&x->before);
	x->live = false;
	ls_pool_give(m->acts, sizeof(*m->acts), &m->free_act, i);
}

/* Pending sends, receives and posts. */

static int pend_new(struct an_mpi_waits *m, struct an_mpi_pending p, uint32_t *out)
{
	uint32_t i;

	if (ls_pool_take(&m->pend, &m->npend, &m->pend_cap, sizeof(*m->pend),
			 &m->free_pend, &i) < 0)
		return LS_ERR_NOMEM;
	m->pend[i] = p;
	*out = i;
	return 0;
}

static void pend_free(struct an_mpi_waits *m, uint32_t i)
{
	ls_pool_give(m->pend, sizeof(*m->pend), &m->free_pend, i);
}

/* The queue of sends to process p not received yet, oldest first. */
static struct an_mpi_order_queue *queue_of(struct an_mpi_waits *m, uint32_t p)
{
	uint32_t old = m->queues_cap;

	if (ls_vec_room(&m->queues, &m->queues_cap, p, sizeof(*m->queues)) < 0)
		return NULL;
	for (uint32_t q = old; q < m->queues_cap; q++)
		m->queues[q] = (struct an_mpi_order_queue){ LS_NONE, LS_NONE };
	return &m->queues[p];
}

static int order_push(struct an_mpi_waits *m, uint32_t p, int64_t t, uint32_t *out)
{
	struct an_mpi_order_queue *q = queue_of(m, p);
	uint32_t i = m->free_order;

	if (!q)
		return LS_ERR_NOMEM;
	if (i != LS_NONE) {
		m->free_order = m->order[i].next;
	} else {
		if (ls_vec_room(&m->order, &m->order_cap, m->norder, sizeof(*m->order)) < 0)
			return LS_ERR_NOMEM;
		i = m->norder++;
	}
	m->order[i] = (struct an_mpi_order_node){ t, LS_NONE, false };
	if (q->tail == LS_NONE)
		q->head = i;
	else
		m->order[q->tail].next = i;
	q->tail = i;
	*out = i;
	return 0;
}

/* Mark a send received; drop received ones from the front of the queue. */
static void order_received(struct an_mpi_waits *m, uint32_t p, uint32_t node)
{
	struct an_mpi_order_queue *q = &m->queues[p];

	m->order[node].received = true;
	while (q->head != LS_NONE && m->order[q->head].received) {
		uint32_t next = m->order[q->head].next;

		m->order[q->head].next = m->free_order;
		m->free_order = q->head;
		q->head = next;
	}
	if (q->head == LS_NONE)
		q->tail = LS_NONE;
}

/* Wait states and blame. */

/* Write x's wait state of dur ns and its blame. */
static int wait_record(struct an_mpi_waits *m, const struct an_mpi_act *x, uint64_t dur)
{
	const struct an_mpi_act *c = &m->acts[x->cause_act];
	struct an_wait w = { x->id, x->t0, dur, x->cause_ev, x->s, x->pattern, true, x->region };
	int rc;

	if ((rc = an_waitrec_wait(m->out, &w)) < 0)
		return rc;
	if (c->before.total == 0)	/* nothing ran before the cause: itself */
		return an_waitrec_blame(m->out, c->id, c->region, dur, x->pattern, x->id, c->s);
	if ((rc = an_snapshot_interval(&c->before, &m->shown)) < 0)
		return rc;
	return an_waitrec_blame_split(m->out, &w, &m->shown, NULL, c->s);
}

/* All of x's inputs are in: its wait is decided. */
static int decide(struct an_mpi_waits *m, uint32_t i)
{
	struct an_mpi_act *x = &m->acts[i];
	uint32_t cause = x->cause_act;
	int rc = 0;

	if (cause != LS_NONE) {
		uint64_t want = (uint64_t)(x->cause_t - x->t0);
		uint64_t lasted = x->t1 > x->t0 ? (uint64_t)(x->t1 - x->t0) : 0;

		m->st.clamped += want > lasted;
		if (want > lasted)
			want = lasted;
		if (want)
			rc = wait_record(m, x, want);
		x->cause_act = LS_NONE;
		act_unref(m, cause);
	}
	act_unref(m, i);
	return rc;
}

static int input_done(struct an_mpi_waits *m, uint32_t i)
{
	return --m->acts[i].inputs ? 0 : decide(m, i);
}

/* Activity w could not go on before time t, when ev of activity c happened. */
static void candidate(struct an_mpi_waits *m, uint32_t w, int64_t t, uint64_t ev,
		      uint32_t c, enum ls_pattern pattern)
{
	struct an_mpi_act *x = &m->acts[w];
	uint32_t old = x->cause_act;

	/* the latest cause; of equal ones, the earliest event, whatever order the edges came in */
	if (t < x->cause_t || (t == x->cause_t && (old == LS_NONE || ev >= x->cause_ev)))
		return;
	act_ref(m, c);
	x->cause_t = t;
	x->cause_ev = ev;
	x->cause_act = c;
	x->pattern = (uint8_t)pattern;
	if (old != LS_NONE)
		act_unref(m, old);
}

/*
 * Late Receiver: a blocking send s that was still running when its
 * receive was posted (in the receiving call w itself, or by an Irecv).
 */
static void late_receiver(struct an_mpi_waits *m, uint32_t s, uint32_t w,
			  const struct an_mpi_pending *recv)
{
	const struct an_mpi_act *x = &m->acts[s];
	uint32_t post = LS_NONE, p;
	int64_t t;
	uint64_t ev, key;

	if (recv->has_req && ls_key_pair(m->acts[w].proc, recv->req, &key) &&
	    ls_idmap_get(&m->post_ix, key, &p)) {
		post = m->pend[p].act;
		t = m->pend[p].t;
		ev = m->pend[p].ev;
	} else if (an_role_blocking_recv(m->acts[w].role)) {
		post = w;
		t = m->acts[w].t0;
		ev = m->acts[w].id;
	}
	if (post != LS_NONE && an_role_blocking_send(x->role) && t > x->t0 &&
	    (x->open || t < x->t1))
		candidate(m, s, t, ev, post, LS_P_LATE_RECEIVER);
}

/* A posted receive is done with (received or cancelled). */
static void post_done(struct an_mpi_waits *m, uint32_t proc, uint64_t req)
{
	uint64_t key;
	uint32_t p;

	if (!ls_key_pair(proc, req, &key) || !ls_idmap_get(&m->post_ix, key, &p))
		return;
	ls_idmap_del(&m->post_ix, key);
	act_unref(m, m->pend[p].act);
	pend_free(m, p);
}

static int message_edge(struct an_mpi_waits *m, uint64_t from, uint64_t to)
{
	uint32_t ps, pr, s, w;
	struct an_mpi_pending send, recv;
	int rc;

	if (!ls_idmap_get(&m->ev_ix, from, &ps) || !ls_idmap_get(&m->ev_ix, to, &pr) ||
	    !m->pend[ps].send || m->pend[pr].send) {
		m->st.stray_edges++;
		return 0;
	}
	send = m->pend[ps];
	recv = m->pend[pr];
	s = send.act;
	w = recv.act;
	order_received(m, send.peer, send.order);
	if (recv.t < send.t) {
		m->st.clock++;
	} else {
		if (send.t > m->acts[w].t0) {
			const struct an_mpi_order_queue *q = &m->queues[send.peer];
			/*
			 * Wrong order: an earlier message sat unreceived since
			 * before the receive began. Only a receive of one message
			 * can take messages in the wrong order; a Wait on several
			 * waits for all of them alike.
			 */
			bool wrong = q->head != LS_NONE &&
				     m->order[q->head].t < m->acts[w].t0 &&
				     an_role_blocking_recv(m->acts[w].role);

			candidate(m, w, send.t, from, s, wrong ?
				  LS_P_LATE_SENDER_WRONG_ORDER : LS_P_LATE_SENDER);
		}
		late_receiver(m, s, w, &recv);
	}
	if (recv.has_req)
		post_done(m, m->acts[w].proc, recv.req);
	ls_idmap_del(&m->ev_ix, from);
	ls_idmap_del(&m->ev_ix, to);
	pend_free(m, ps);
	pend_free(m, pr);
	if (an_role_blocking_send(m->acts[s].role) && (rc = input_done(m, s)) < 0)
		return rc;
	act_unref(m, s);
	return input_done(m, w);
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

int an_mpi_waits_edge(struct an_mpi_waits *m, enum ls_edge e, uint64_t from, uint64_t to)
{
	uint32_t c, w;

	if (e == LS_E_MSG)
		return message_edge(m, from, to);
	if (!ls_idmap_get(&m->act_ix, from, &c) || !ls_idmap_get(&m->act_ix, to, &w)) {
		m->st.stray_edges++;
		return 0;
	}
	candidate(m, w, m->acts[c].t0, from, c,
		  coll_pattern(m->acts[w].shape ? m->acts[w].shape : m->acts[w].role));
	return 0;
}

int an_mpi_waits_instance(struct an_mpi_waits *m, const struct ls_record *rec, const char **why)
{
	struct ls_iter acts;
	struct mp_item it;
	int rc;

	if (ls_array_field(rec, LS_F_ACTS, &acts) < 0) {
		*why = "instance without a valid 'acts' array";
		return LS_ERR_SYNTAX;
	}
	while (ls_array_next(&acts, &it, NULL, NULL)) {
		uint32_t i;

		if (it.type != MP_UINT) {
			*why = "instance 'acts' holding something else than event ids";
			return LS_ERR_SYNTAX;
		}
		if (!ls_idmap_get(&m->act_ix, it.v.u, &i)) {
			m->st.stray_edges++;
			continue;
		}
		ls_idmap_del(&m->act_ix, m->acts[i].id);
		ls_idmap_del(&m->act_ix, m->acts[i].leave);
		if ((rc = input_done(m, i)) < 0)
			return rc;
	}
	return 0;
}

/* The MPI activity an event happens in, or LS_NONE (counted). */
static uint32_t event_act(struct an_mpi_waits *m, const struct an_event *ev)
{
	const struct an_frame *top = an_stack_top(&m->tr->stacks[ev->s]);

	if (top && top->a)
		return top->a - 1;
	m->st.outside++;
	return LS_NONE;
}

int an_mpi_waits_send(struct an_mpi_waits *m, const struct ls_record *rec, const struct an_event *ev,
		      const char **why)
{
	uint32_t i = event_act(m, ev), p, peer;
	struct an_mpi_pending pend;
	uint64_t id;
	int rc;

	if (i == LS_NONE)
		return 0;
	if (ls_get_u64(rec, LS_F_PEER, &id) < 0 ||
	    (peer = ls_index(&m->tr->defs.proc_ix, id)) == LS_NONE) {
		*why = "message naming an undefined process";
		return LS_ERR_SYNTAX;
	}
	pend = (struct an_mpi_pending){ .act = i, .t = m->acts[i].t0, .ev = ev->id,
				    .send = true, .peer = peer };
	if ((rc = order_push(m, peer, pend.t, &pend.order)) < 0 ||
	    (rc = pend_new(m, pend, &p)) < 0 ||
	    (rc = ls_idmap_put(&m->ev_ix, ev->id, p)) < 0)
		return rc;
	act_ref(m, i);
	m->acts[i].inputs += an_role_blocking_send(m->acts[i].role);
	return 0;
}

int an_mpi_waits_recv(struct an_mpi_waits *m, const struct ls_record *rec, const struct an_event *ev)
{
	uint32_t i = event_act(m, ev), p;
	struct an_mpi_pending pend;
	int rc;

	if (i == LS_NONE)
		return 0;
	pend = (struct an_mpi_pending){ .act = i, .t = ev->t, .ev = ev->id };
	pend.has_req = ls_get_u64(rec, LS_F_REQ, &pend.req) == 0;
	if ((rc = pend_new(m, pend, &p)) < 0 ||
	    (rc = ls_idmap_put(&m->ev_ix, ev->id, p)) < 0)
		return rc;
	m->acts[i].inputs++;
	return 0;
}

int an_mpi_waits_request(struct an_mpi_waits *m, const struct ls_record *rec, const struct an_event *ev)
{
	uint32_t i, p;
	uint64_t req, key;
	int rc;

	if (ls_get_u64(rec, LS_F_REQ, &req) < 0)
		return 0;
	if (rec->kind == LS_K_REQ_CANCEL) {
		post_done(m, ev->proc, req);
		return 0;
	}
	if ((i = event_act(m, ev)) == LS_NONE || !ls_key_pair(ev->proc, req, &key))
		return 0;
	post_done(m, ev->proc, req);	/* a request id used again */
	if ((rc = pend_new(m, (struct an_mpi_pending){ .act = i, .t = m->acts[i].t0,
						   .ev = ev->id }, &p)) < 0 ||
	    (rc = ls_idmap_put(&m->post_ix, key, p)) < 0)
		return rc;
	act_ref(m, i);
	return 0;
}

int an_mpi_waits_coll(struct an_mpi_waits *m, const struct ls_record *rec, const struct an_event *ev,
		      const struct an_stretch *mpi)
{
	struct an_frame *top = an_stack_top(&m->tr->stacks[ev->s]);
	struct an_mpi_act *x;
	const char *op = "";
	uint64_t comm;
	uint32_t n = 0, i;
	int rc;

	if (top && top->role == LS_R_KERNEL && !top->a && rec->kind == LS_K_COLL_BEGIN) {
		/* a kernel that runs a collective (NCCL): an activity of its own */
		if ((rc = act_new(m, top, ev, &i)) < 0)
			return rc;
		m->acts[i].before = an_stretch_snapshot(mpi);
		top->a = i + 1;
	}
	if (!(x = top && top->a ? &m->acts[top->a - 1] : NULL))
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
		x->comm = ls_index(&m->tr->defs.comm_ix, comm);
	}
	return 0;
}

int an_mpi_waits_close(struct an_mpi_waits *m, const struct an_frame *f, const struct an_event *ev, bool own)
{
	struct an_mpi_act *x;
	uint32_t i;
	int rc;

	if (!f->a)
		return 0;
	i = f->a - 1;
	x = &m->acts[i];
	x->t1 = ev->t;
	x->leave = ev->id;
	x->open = false;
	if (own && (an_coll_expected(&m->tr->defs, x->shape ? x->shape : x->role, x->comm, x->proc) ||
		    x->role == LS_R_OMP_BARRIER || x->icoll)) {
		if ((rc = ls_idmap_put(&m->act_ix, x->id, i)) < 0 ||
		    (rc = ls_idmap_put(&m->act_ix, x->leave, i)) < 0)
			return rc;
		x->inputs++;
	}
	return input_done(m, i);
}

int an_mpi_waits_enter(struct an_mpi_waits *m, struct an_frame *f, const struct an_event *ev,
		       struct an_snapshot before)
{
	uint32_t i;
	int rc;

	if ((rc = act_new(m, f, ev, &i)) < 0) {
		an_snapshot_release(&before);
		return rc;
	}
	f->a = i + 1;
	m->acts[i].before = before;
	return 0;
}

int an_mpi_waits_finish(struct an_mpi_waits *m, int64_t (*last)(void *ctx, uint32_t s), void *ctx)
{
	int rc;

	for (uint32_t i = 0; i < m->nacts; i++) {
		struct an_mpi_act *x = &m->acts[i];

		if (!x->live || !x->inputs)
			continue;
		if (x->open)
			x->t1 = last(ctx, x->s);
		x->open = false;
		m->st.undecided++;
		x->inputs = 1;
		if ((rc = decide(m, i)) < 0)
			return rc;
	}
	return 0;
}

void an_mpi_waits_release(struct an_mpi_waits *m)
{
	for (uint32_t i = 0; i < m->nacts; i++)
		if (m->acts[i].live)
			an_snapshot_release(&m->acts[i].before);
	an_interval_release(&m->shown);
	free(m->acts);
	free(m->pend);
	free(m->order);
	free(m->queues);
	ls_idmap_release(&m->ev_ix);
	ls_idmap_release(&m->act_ix);
	ls_idmap_release(&m->post_ix);
}
