/* One MPI call's record, by the class of its function (formats/trlog/trlog.h). */
#include <stdlib.h>

#include "../../libstream/enc.h"
#include "../log.h"
#include "mpirec.h"

int64_t rec_bytes(int count, MPI_Datatype type)
{
	int size = 0;

	if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS)
		return 0;
	return (int64_t)count * size;
}

/* [5, thread, fn, t0, t1, ...] with nargs arguments to come; NULL where recording is off. */
static struct ls_buf *head(int fn, int64_t t0, int64_t t1, uint32_t nargs)
{
	uint64_t thread;
	struct ls_buf *b = rec_begin(&thread);

	if (b) {
		ls_enc_array(b, 5 + nargs);
		ls_enc_uint(b, TRLOG_CALL);
		ls_enc_uint(b, thread);
		ls_enc_uint(b, (uint64_t)fn);
		ls_enc_int(b, t0);
		ls_enc_int(b, t1);
	}
	return b;
}

void rec_call_plain(int fn, int64_t t0, int64_t t1)
{
	if (head(fn, t0, t1, 0))
		rec_end();
}

/* [5, thread, fn, t0, t1, a, b, c, d] and, where req is given, the request's number. */
static void four(int fn, int64_t t0, int64_t t1, const int64_t v[4], const uint64_t *req)
{
	struct ls_buf *b = head(fn, t0, t1, req ? 5 : 4);

	if (!b)
		return;
	for (int i = 0; i < 4; i++)
		ls_enc_int(b, v[i]);
	if (req)
		ls_enc_uint(b, *req);
	rec_end();
}

void rec_call_send(int fn, int64_t t0, int64_t t1, MPI_Comm comm, int dest, int tag, int64_t bytes)
{
	int64_t peer, local = rec_comm_peer(comm, dest, &peer);

	four(fn, t0, t1, (const int64_t[4]){ local, peer, tag, bytes }, NULL);
}

/*
 * A received message: its source (a world rank), tag and bytes, from its
 * status. Found before a record is begun (finding may describe a comm).
 */
struct msg {
	int64_t peer, tag, bytes;
};

static struct msg received(MPI_Comm comm, const MPI_Status *st, int64_t *local)
{
	struct msg m = { TRLOG_NO_RANK, st->MPI_TAG, 0 };
	int count = 0;

	PMPI_Get_count(st, MPI_BYTE, &count);
	m.bytes = count > 0 ? count : 0;
	*local = rec_comm_peer(comm, st->MPI_SOURCE, &m.peer);
	return m;
}

static void enc_msg(struct ls_buf *b, const struct msg *m)
{
	ls_enc_int(b, m->peer);
	ls_enc_int(b, m->tag);
	ls_enc_int(b, m->bytes);
}

void rec_call_recv(int fn, int64_t t0, int64_t t1, MPI_Comm comm, const MPI_Status *st)
{
	int64_t local;
	struct msg m = received(comm, st, &local);
	struct ls_buf *b = head(fn, t0, t1, 4);

	if (!b)
		return;
	ls_enc_int(b, local);
	enc_msg(b, &m);
	rec_end();
}

void rec_call_sendrecv(int fn, int64_t t0, int64_t t1, MPI_Comm comm, int dest, int sendtag,
		       int64_t sent, const MPI_Status *st)
{
	int64_t peer, local = rec_comm_peer(comm, dest, &peer);
	struct msg m = received(comm, st, &local);
	struct ls_buf *b = head(fn, t0, t1, 7);

	if (!b)
		return;
	ls_enc_int(b, local);
	ls_enc_int(b, peer);
	ls_enc_int(b, sendtag);
	ls_enc_int(b, sent);
	enc_msg(b, &m);
	rec_end();
}

void rec_call_isend(int fn, int64_t t0, int64_t t1, MPI_Comm comm, int dest, int tag, int64_t bytes,
		    MPI_Request req)
{
	int64_t peer, local = rec_comm_peer(comm, dest, &peer);
	uint64_t id = rec_req_new(req, TRLOG_REQ_SEND, comm, peer, tag, bytes);

	four(fn, t0, t1, (const int64_t[4]){ local, peer, tag, bytes }, &id);
}

void rec_call_irecv(int fn, int64_t t0, int64_t t1, MPI_Comm comm, MPI_Request req)
{
	int64_t local = rec_comm(comm);
	uint64_t id = rec_req_new(req, TRLOG_REQ_RECV, comm, TRLOG_NO_RANK, 0, 0);
	struct ls_buf *b = head(fn, t0, t1, 2);

	if (!b)
		return;
	ls_enc_int(b, local);
	ls_enc_uint(b, id);
	rec_end();
}

void rec_call_coll(int fn, int64_t t0, int64_t t1, MPI_Comm comm, int root, int64_t sent, int64_t recvd)
{
	int64_t r, local = rec_comm_peer(comm, root, &r);

	four(fn, t0, t1, (const int64_t[4]){ local, r, sent, recvd }, NULL);
}

void rec_call_icoll(int fn, int64_t t0, int64_t t1, MPI_Comm comm, int root, int64_t sent, int64_t recvd,
		    MPI_Request req)
{
	int64_t r, local = rec_comm_peer(comm, root, &r);
	uint64_t id = rec_req_new(req, TRLOG_REQ_COLL, comm, TRLOG_NO_RANK, 0, 0);

	four(fn, t0, t1, (const int64_t[4]){ local, r, sent, recvd }, &id);
}

void rec_call_comm(int fn, int64_t t0, int64_t t1, MPI_Comm parent, int64_t made)
{
	int64_t local = rec_comm(parent);
	struct ls_buf *b = head(fn, t0, t1, 2);

	if (!b)
		return;
	ls_enc_int(b, local);
	ls_enc_int(b, made);
	rec_end();
}

/* A request a wait, test or start names: [req, how, comm, peer, tag, bytes]. */
struct entry {
	uint64_t id, how;
	int64_t comm;
	struct msg m;
};

/* [5, thread, fn, t0, t1, [entries...]] */
static void entries(int fn, int64_t t0, int64_t t1, const struct entry *e, uint32_t n)
{
	struct ls_buf *b = head(fn, t0, t1, 1);

	if (!b)
		return;
	ls_enc_array(b, n);
	for (uint32_t i = 0; i < n; i++) {
		ls_enc_array(b, 6);
		ls_enc_uint(b, e[i].id);
		ls_enc_uint(b, e[i].how);
		ls_enc_int(b, e[i].comm);
		enc_msg(b, &e[i].m);
	}
	rec_end();
}

/*
 * Room for the entries of a call on n requests: on the stack for up to
 * STACK_ENTRIES (every Wait, Test and Start, most of their -all forms),
 * else allocated; where that fails, the stack's, and the entries past it
 * are left out of the log (a call's requests are forgotten all the same,
 * so the request table never keeps what completed). *room: how many fit.
 */
#define STACK_ENTRIES 32
static struct entry *entry_room(int n, struct entry *stack, uint32_t *room)
{
	struct entry *e = n > STACK_ENTRIES ? malloc(sizeof(*e) * (size_t)n) : NULL;

	*room = e ? (uint32_t)n : STACK_ENTRIES;
	return e ? e : stack;
}

void rec_call_complete(int fn, int64_t t0, int64_t t1, int n, const MPI_Request *reqs,
		       const bool *done, const MPI_Status *st, bool tested)
{
	struct entry stack[STACK_ENTRIES] = { 0 }, *e;
	struct rec_req r;
	uint32_t count = 0, room;

	e = entry_room(n, stack, &room);
	for (int i = 0; i < n; i++) {
		if (!(done[i] || tested) || !rec_req_get(reqs[i], &r))
			continue;
		struct msg m = { TRLOG_NO_RANK, 0, 0 };
		int64_t local;
		int cancelled = 0;

		if (done[i] && r.how != TRLOG_REQ_COLL)
			PMPI_Test_cancelled(&st[i], &cancelled);
		if (cancelled) {
			local = rec_comm(r.comm);
		} else if (done[i] && r.how == TRLOG_REQ_RECV) {
			m = received(r.comm, &st[i], &local);
		} else {
			local = rec_comm(r.comm);
			if (done[i])
				m = (struct msg){ r.peer, r.tag, r.bytes };
		}
		if (count < room)
			e[count++] = (struct entry){ r.id, cancelled ? TRLOG_REQ_CANCELLED : done[i] ? (uint64_t)r.how :
						     TRLOG_REQ_TESTED, local, m };
		if (done[i])
			rec_req_done(reqs[i]);
	}
	entries(fn, t0, t1, e, count);
	if (e != stack)
		free(e);
}

void rec_call_start(int fn, int64_t t0, int64_t t1, int n, const MPI_Request *reqs)
{
	struct entry stack[STACK_ENTRIES] = { 0 }, *e;
	uint32_t count = 0, room;
	struct rec_req r;

	e = entry_room(n, stack, &room);
	for (int i = 0; i < n; i++)
		if (rec_req_start(reqs[i], &r) && count < room)
			e[count++] = (struct entry){ r.id, (uint64_t)r.how, rec_comm(r.comm), { r.peer, r.tag, r.bytes } };
	entries(fn, t0, t1, e, count);
	if (e != stack)
		free(e);
}
