/*
 * tr-record's records as events (docs/stream.md), through the reader
 * front, which puts them in time order: each MPI call an activity of its
 * function's region, with the message and collective records the
 * analysis matches (a send where a send is posted, a receive where it
 * completes, collectives by communicator and order); the program an
 * activity of its own around them, from the process's start to its end.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "trlogin_private.h"

struct ls_event *trlog_add(struct adder *a, int64_t t, enum ls_kind kind)
{
	struct ls_event *ev;

	t = trlog_time(a->in, a->l, t);
	if (a->rc < 0 || !ls_front_keeps(a->in->front, a->stream, t))
		return NULL;
	if (!(ev = ls_front_add(a->in->front, a->stream, t, kind)))
		a->rc = ls_front_failure(a->in->front);
	return ev;
}

static void add_region(struct adder *a, int64_t t, enum ls_kind kind, uint32_t region)
{
	struct ls_event *ev = trlog_add(a, t, kind);

	if (ev)
		ev->region = region;
}

/* The dense comm id of a log's local number, or LS_NONE (counted). */
static uint32_t comm_of(struct adder *a, int64_t local)
{
	if (local >= 0 && (uint64_t)local < a->l->ncomm && a->l->comm[local] != UINT32_MAX)
		return a->l->comm[local];
	a->in->unknown_comms++;
	return UINT32_MAX;
}

/* A send or receive record, unless its peer is none (MPI_PROC_NULL). */
static struct ls_event *message(struct adder *a, int64_t t, enum ls_kind kind, int64_t local, int64_t peer,
				int64_t tag, int64_t bytes)
{
	uint32_t comm = comm_of(a, local);
	struct ls_event *ev;

	if (peer < 0 || comm == UINT32_MAX || !(ev = trlog_add(a, t, kind)))
		return NULL;
	ev->peer = (uint64_t)peer;
	ev->tag = tag;
	ev->comm = comm;
	ev->bytes = bytes > 0 ? (uint64_t)bytes : 0;
	return ev;
}

static void request(struct adder *a, int64_t t, enum ls_kind kind, uint64_t req)
{
	struct ls_event *ev = trlog_add(a, t, kind);

	if (ev) {
		ev->req = req;
		ev->fields |= LS_EF_REQ;
	}
}

/* A nonblocking collective posted ([comm, root, sent, received, req] read): its begin, kept until it completes. */
static void icoll_post(struct adder *a, uint64_t fn, int64_t t0, int64_t root, int64_t sent, int64_t recvd,
		       uint64_t req)
{
	uint32_t i;

	if (!ls_idmap_get(&a->icoll_ix, req, &i)) {
		if (ls_vec_room(&a->icolls, &a->icolls_cap, a->nicolls, sizeof(*a->icolls)) < 0 ||
		    ls_idmap_put(&a->icoll_ix, req, a->nicolls) < 0) {
			a->rc = LS_ERR_NOMEM;
			return;
		}
		i = a->nicolls++;
	}
	a->icolls[i] = (struct icoll){ fn, root >= 0 ? (uint64_t)root : UINT64_MAX, sent, recvd };
	request(a, t0, LS_K_COLL_BEGIN, req);
}

/* ... and completed in a wait or test: its end, with what its post said. */
static void icoll_done(struct adder *a, int64_t t1, int64_t local, uint64_t req)
{
	uint32_t comm = comm_of(a, local), i;
	const struct icoll *p;
	struct ls_event *ev;

	if (comm == UINT32_MAX || !ls_idmap_get(&a->icoll_ix, req, &i) || !(ev = trlog_add(a, t1, LS_K_COLL_END)))
		return;
	p = &a->icolls[i];
	ev->comm = comm;
	ev->op = a->in->fn_op[p->fn];
	ev->sent = p->sent > 0 ? (uint64_t)p->sent : 0;
	ev->recvd = p->recvd > 0 ? (uint64_t)p->recvd : 0;
	ev->req = req;
	ev->fields |= LS_EF_REQ;
	if (p->root != UINT64_MAX) {
		ev->root = p->root;
		ev->fields |= LS_EF_ROOT;
	}
	ls_idmap_del(&a->icoll_ix, req);
}

/* One of a call's requests: [req, how, comm, peer, tag, bytes]. False where the log is damaged. */
struct req_entry {
	uint64_t req, how;
	int64_t comm, peer, tag, bytes;
};

static bool req_entry(struct cur *c, struct req_entry *e)
{
	cur_array(c);
	e->req = cur_uint(c);
	e->how = cur_uint(c);
	e->comm = cur_int(c);
	e->peer = cur_int(c);
	e->tag = cur_int(c);
	e->bytes = cur_int(c);
	return !c->bad;
}

/* A message of a request at t: a send leaving, or a receive arriving. */
static void req_message(struct adder *a, int64_t t, enum ls_kind kind, const struct req_entry *e)
{
	struct ls_event *ev = message(a, t, kind, e->comm, e->peer, e->tag, e->bytes);

	if (ev) {
		ev->req = e->req;
		ev->fields |= LS_EF_REQ;
	}
}

/* A wait's or test's completions. */
static void completions(struct adder *a, int64_t t1, struct cur *c)
{
	uint32_t n = cur_array(c);
	struct req_entry e;

	for (uint32_t i = 0; i < n && req_entry(c, &e); i++) {
		if (e.how == TRLOG_REQ_SEND)
			request(a, t1, LS_K_SEND_DONE, e.req);
		else if (e.how == TRLOG_REQ_RECV)
			req_message(a, t1, LS_K_RECV, &e);
		else if (e.how == TRLOG_REQ_TESTED)
			request(a, t1, LS_K_REQ_TEST, e.req);
		else if (e.how == TRLOG_REQ_COLL)
			icoll_done(a, t1, e.comm, e.req);
		else if (e.how == TRLOG_REQ_CANCELLED)
			request(a, t1, LS_K_REQ_CANCEL, e.req);
	}
}

/* Persistent requests started: a send's message leaving, a receive posted. */
static void starts(struct adder *a, int64_t t0, struct cur *c)
{
	uint32_t n = cur_array(c);
	struct req_entry e;

	for (uint32_t i = 0; i < n && req_entry(c, &e); i++) {
		if (e.how == TRLOG_REQ_SEND)
			req_message(a, t0, LS_K_SEND, &e);
		else if (e.how == TRLOG_REQ_RECV)
			request(a, t0, LS_K_RECV_POST, e.req);
	}
}

/* A collective's begin and end: comm, root, sent, received. */
static void collective(struct adder *a, uint64_t fn, int64_t t0, int64_t t1, struct cur *c)
{
	int64_t local = cur_int(c), root = cur_int(c), sent = cur_int(c), recvd = cur_int(c);
	uint32_t comm = c->bad ? UINT32_MAX : comm_of(a, local);
	struct ls_event *ev;

	if (comm == UINT32_MAX)
		return;
	trlog_add(a, t0, LS_K_COLL_BEGIN);
	if (!(ev = trlog_add(a, t1, LS_K_COLL_END)))
		return;
	ev->comm = comm;
	ev->op = a->in->fn_op[fn];
	ev->sent = sent > 0 ? (uint64_t)sent : 0;
	ev->recvd = recvd > 0 ? (uint64_t)recvd : 0;
	if (root >= 0) {
		ev->root = (uint64_t)root;
		ev->fields |= LS_EF_ROOT;
	}
}

/* One TRLOG_CALL: [5, thread, fn, t0, t1, args...]. */
static void call(struct adder *a, struct cur *c)
{
	uint64_t thread = cur_uint(c), fn = cur_uint(c);
	int64_t t0 = cur_int(c), t1 = cur_int(c), local, peer, tag, bytes;
	struct ls_event *ev;

	if (c->bad)
		return;
	if (fn >= TRLOG_NFN) {
		a->in->unknown_fns++;
		return;
	}
	a->stream = a->l->first_stream + thread;
	add_region(a, t0, LS_K_ENTER, a->in->fn_region[fn]);
	switch (trlog_fn_class[fn]) {
	case TRLOG_C_SEND:
	case TRLOG_C_ISEND:
		local = cur_int(c);
		peer = cur_int(c);
		tag = cur_int(c);
		bytes = cur_int(c);
		if (!c->bad && (ev = message(a, t0, LS_K_SEND, local, peer, tag, bytes)) &&
		    trlog_fn_class[fn] == TRLOG_C_ISEND) {
			ev->req = cur_uint(c);
			ev->fields |= LS_EF_REQ;
		}
		break;
	case TRLOG_C_RECV:
		local = cur_int(c);
		peer = cur_int(c);
		tag = cur_int(c);
		bytes = cur_int(c);
		if (!c->bad)
			message(a, t1, LS_K_RECV, local, peer, tag, bytes);
		break;
	case TRLOG_C_SENDRECV:
		local = cur_int(c);
		peer = cur_int(c);
		tag = cur_int(c);
		bytes = cur_int(c);
		if (!c->bad)
			message(a, t0, LS_K_SEND, local, peer, tag, bytes);
		peer = cur_int(c);
		tag = cur_int(c);
		bytes = cur_int(c);
		if (!c->bad)
			message(a, t1, LS_K_RECV, local, peer, tag, bytes);
		break;
	case TRLOG_C_IRECV:
		cur_int(c);
		request(a, t0, LS_K_RECV_POST, cur_uint(c));
		break;
	case TRLOG_C_COMPLETE:
		completions(a, t1, c);
		break;
	case TRLOG_C_START:
		starts(a, t0, c);
		break;
	case TRLOG_C_COLL:
		collective(a, fn, t0, t1, c);
		break;
	case TRLOG_C_ICOLL: {	/* posted: its completion is in a wait or test */
		int64_t root, sent, recvd;

		cur_int(c);
		root = cur_int(c);
		sent = cur_int(c);
		recvd = cur_int(c);
		if (!c->bad)
			icoll_post(a, fn, t0, root, sent, recvd, cur_uint(c));
		break;
	}
	case TRLOG_C_COMM:
	case TRLOG_C_PLAIN:
		break;
	}
	add_region(a, t1, LS_K_LEAVE, a->in->fn_region[fn]);
}

/* [17, thread, t0, t1]: the collector's write-out, an activity of the thread it took time from. */
static void flush(struct adder *a, struct cur *c)
{
	uint64_t thread = cur_uint(c);
	int64_t t0 = cur_int(c), t1 = cur_int(c);

	if (c->bad)
		return;
	a->stream = a->l->first_stream + thread;
	add_region(a, t0, LS_K_ENTER, a->in->flush_region);
	add_region(a, t1, LS_K_LEAVE, a->in->flush_region);
}

/*
 * Every record of l in turn; the program's activity around them on its
 * first thread. before: the bytes of records in the logs read before it,
 * total: in all (for a progress line).
 */
static int log_events(struct trlogin *in, const struct log *l, uint64_t before, uint64_t total)
{
	size_t at = l->body, threads = l->nthreads ? l->nthreads : 1;
	uint32_t every = 0;
	struct adder a = { in, l, l->first_stream, 0, calloc(threads, sizeof(struct thread_state)), INT64_MIN,
			   INT64_MIN, 0, LS_IDMAP_INIT, 0, LS_IDMAP_INIT, NULL, 0, 0 };

	if (!a.threads)
		a.rc = LS_ERR_NOMEM;
	add_region(&a, l->start, LS_K_ENTER, l->root_region);
	while (at < l->end && a.rc == 0) {
		long k = mp_skip(l->map + at, l->map + l->end);
		struct cur c = { l->map + at, l->map + at + k, false };
		uint64_t type;

		if (k <= 0)
			break;
		if (!(++every & 0xffff))
			ls_front_input_at(in->front, before + (at - l->body), total);
		type = cur_array(&c) >= 2 ? cur_uint(&c) : 0;
		if (type == TRLOG_CALL)
			call(&a, &c);
		else if (type >= TRLOG_NAME && type <= TRLOG_RANGE)
			trlog_cuda_events(&a, type, &c);
		else if (type == TRLOG_OMP)
			trlog_omp_events(&a, &c);
		else if (type == TRLOG_FLUSH)
			flush(&a, &c);
		at += (size_t)k;
	}
	for (size_t i = 0; a.threads && i < threads; i++)
		free(a.threads[i].ranges);
	free(a.threads);
	ls_idmap_release(&a.locks);
	ls_idmap_release(&a.icoll_ix);
	free(a.icolls);
	a.stream = l->first_stream;
	add_region(&a, l->end_t, LS_K_LEAVE, l->root_region);
	if (a.rc < 0)
		snprintf(in->err, in->errlen, "%s", ls_front_error(in->front)[0] ? ls_front_error(in->front)
									  : "cannot write the stream");
	return a.rc;
}

int trlog_events(struct trlogin *in)
{
	uint64_t total = 0, done = 0;
	int rc = 0;

	for (uint32_t i = 0; i < in->nlogs; i++)
		total += in->logs[i].end - in->logs[i].body;
	for (uint32_t i = 0; i < in->nlogs && rc == 0; i++) {
		rc = log_events(in, &in->logs[i], done, total);
		done += in->logs[i].end - in->logs[i].body;
	}
	return rc;
}
