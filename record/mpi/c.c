/*
 * The C entry points of MPI that tr-record records: each calls its PMPI_
 * twin between two clock reads and writes one record (calls.c). A status
 * the program ignores is still read: the wrapper passes its own.
 */
#include <stdlib.h>

#include "../log.h"
#include "mpirec.h"

/* --- init, finalize and abort --- */

int MPI_Init(int *argc, char ***argv)
{
	int64_t t0 = rec_now();
	int rc = PMPI_Init(argc, argv);

	if (rc == MPI_SUCCESS)
		rec_mpi_started(TRLOG_FN_INIT, t0);
	return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int64_t t0 = rec_now();
	int rc = PMPI_Init_thread(argc, argv, required, provided);

	if (rc == MPI_SUCCESS)
		rec_mpi_started(TRLOG_FN_INIT_THREAD, t0);
	return rc;
}

int MPI_Finalize(void)
{
	int64_t t0 = rec_now();
	int rc;

	rec_mpi_ending();
	rc = PMPI_Finalize();
	rec_mpi_ended(t0);
	return rc;
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
	rec_mpi_abort();
	return PMPI_Abort(comm, errorcode);
}

/* --- blocking point-to-point --- */

#define SEND_WRAPPER(NAME, FN) \
	int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) \
	{ \
		CALL(PMPI_##NAME(buf, count, type, dest, tag, comm)); \
		rec_call_send(TRLOG_FN_##FN, t0, t1, comm, dest, tag, rec_bytes(count, type)); \
		return rc; \
	}

SEND_WRAPPER(Send, SEND)
SEND_WRAPPER(Ssend, SSEND)
SEND_WRAPPER(Bsend, BSEND)
SEND_WRAPPER(Rsend, RSEND)

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	     MPI_Status *status)
{
	MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
	CALL(PMPI_Recv(buf, count, type, source, tag, comm, st));

	rec_call_recv(TRLOG_FN_RECV, t0, t1, comm, st);
	return rc;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
		 MPI_Comm comm, MPI_Status *status)
{
	MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
	CALL(PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
			   source, recvtag, comm, st));

	rec_call_sendrecv(TRLOG_FN_SENDRECV, t0, t1, comm, dest, sendtag, rec_bytes(sendcount, sendtype), st);
	return rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag, int source,
			 int recvtag, MPI_Comm comm, MPI_Status *status)
{
	MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
	CALL(PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, st));

	rec_call_sendrecv(TRLOG_FN_SENDRECV_REPLACE, t0, t1, comm, dest, sendtag, rec_bytes(count, type), st);
	return rc;
}

/* --- nonblocking point-to-point --- */

#define ISEND_WRAPPER(NAME, FN) \
	int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, \
		       MPI_Request *req) \
	{ \
		CALL(PMPI_##NAME(buf, count, type, dest, tag, comm, req)); \
		rec_call_isend(TRLOG_FN_##FN, t0, t1, comm, dest, tag, rec_bytes(count, type), *req); \
		return rc; \
	}

ISEND_WRAPPER(Isend, ISEND)
ISEND_WRAPPER(Issend, ISSEND)
ISEND_WRAPPER(Ibsend, IBSEND)
ISEND_WRAPPER(Irsend, IRSEND)

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	      MPI_Request *req)
{
	CALL(PMPI_Irecv(buf, count, type, source, tag, comm, req));

	rec_call_irecv(TRLOG_FN_IRECV, t0, t1, comm, *req);
	return rc;
}

/* --- waits and tests --- */

/*
 * The handles of n requests before a call completes them (it sets them to
 * MPI_REQUEST_NULL), statuses where the program ignores them, and which
 * completed: on the stack for a few, else on the heap.
 */
struct many {
	MPI_Request *reqs;
	MPI_Status *st;
	bool *done;
	MPI_Request reqs_few[16];
	MPI_Status st_few[16];
	bool done_few[16];
};

static bool many_init(struct many *m, int n, const MPI_Request *reqs, MPI_Status *statuses)
{
	size_t k = (size_t)(n > 0 ? n : 1);
	bool few = n <= 16;

	m->reqs = few ? m->reqs_few : malloc(sizeof(*m->reqs) * k);
	m->done = few ? m->done_few : calloc(k, sizeof(*m->done));
	m->st = statuses != MPI_STATUSES_IGNORE ? statuses : few ? m->st_few : malloc(sizeof(*m->st) * k);
	if (!m->reqs || !m->done || !m->st)
		return false;
	for (int i = 0; i < n; i++) {
		m->reqs[i] = reqs[i];
		m->done[i] = false;
	}
	return true;
}

static void many_release(struct many *m, MPI_Status *statuses)
{
	if (m->reqs != m->reqs_few)
		free(m->reqs);
	if (m->done != m->done_few)
		free(m->done);
	if (m->st != statuses && m->st != m->st_few)
		free(m->st);
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
	MPI_Request before = *req;
	bool done = true;
	CALL(PMPI_Wait(req, st));

	rec_call_complete(TRLOG_FN_WAIT, t0, t1, 1, &before, &done, st, false);
	return rc;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
	MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
	MPI_Request before = *req;
	bool done;
	CALL(PMPI_Test(req, flag, st));

	done = *flag != 0;
	rec_call_complete(TRLOG_FN_TEST, t0, t1, 1, &before, &done, st, true);
	return rc;
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
	struct many m;

	if (!many_init(&m, n, reqs, statuses)) {
		many_release(&m, statuses);
		return PMPI_Waitall(n, reqs, statuses);
	}
	CALL(PMPI_Waitall(n, reqs, m.st));

	for (int i = 0; i < n; i++)
		m.done[i] = true;
	rec_call_complete(TRLOG_FN_WAITALL, t0, t1, n, m.reqs, m.done, m.st, false);
	many_release(&m, statuses);
	return rc;
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
	struct many m;

	if (!many_init(&m, n, reqs, statuses)) {
		many_release(&m, statuses);
		return PMPI_Testall(n, reqs, flag, statuses);
	}
	CALL(PMPI_Testall(n, reqs, flag, m.st));

	for (int i = 0; i < n; i++)
		m.done[i] = *flag != 0;
	rec_call_complete(TRLOG_FN_TESTALL, t0, t1, n, m.reqs, m.done, m.st, true);
	many_release(&m, statuses);
	return rc;
}

/* Waitany and Testany: the one completed has its status in the caller's (or our) single status. */
static void any_done(int fn, int64_t t0, int64_t t1, struct many *m, int n, int index, MPI_Status *st,
		     bool tested)
{
	if (index >= 0 && index < n) {
		m->done[index] = true;
		m->st[index] = *st;
	}
	rec_call_complete(fn, t0, t1, n, m->reqs, m->done, m->st, tested);
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
	MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
	struct many m;

	if (!many_init(&m, n, reqs, MPI_STATUSES_IGNORE)) {
		many_release(&m, MPI_STATUSES_IGNORE);
		return PMPI_Waitany(n, reqs, index, status);
	}
	CALL(PMPI_Waitany(n, reqs, index, st));

	any_done(TRLOG_FN_WAITANY, t0, t1, &m, n, *index, st, false);
	many_release(&m, MPI_STATUSES_IGNORE);
	return rc;
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
	MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
	struct many m;

	if (!many_init(&m, n, reqs, MPI_STATUSES_IGNORE)) {
		many_release(&m, MPI_STATUSES_IGNORE);
		return PMPI_Testany(n, reqs, index, flag, status);
	}
	CALL(PMPI_Testany(n, reqs, index, flag, st));

	any_done(TRLOG_FN_TESTANY, t0, t1, &m, n, *flag ? *index : MPI_UNDEFINED, st, true);
	many_release(&m, MPI_STATUSES_IGNORE);
	return rc;
}

/* Waitsome and Testsome: the statuses of those completed come first, in the order of indices. */
static void some_done(int fn, int64_t t0, int64_t t1, struct many *m, int n, int outcount,
		      const int *indices, bool tested)
{
	MPI_Status *by_index = malloc(sizeof(*by_index) * (size_t)(n > 0 ? n : 1));

	if (!by_index)
		return;
	for (int i = 0; outcount != MPI_UNDEFINED && i < outcount; i++)
		if (indices[i] >= 0 && indices[i] < n) {
			m->done[indices[i]] = true;
			by_index[indices[i]] = m->st[i];
		}
	rec_call_complete(fn, t0, t1, n, m->reqs, m->done, by_index, tested);
	free(by_index);
}

int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[])
{
	struct many m;

	if (!many_init(&m, n, reqs, statuses)) {
		many_release(&m, statuses);
		return PMPI_Waitsome(n, reqs, outcount, indices, statuses);
	}
	CALL(PMPI_Waitsome(n, reqs, outcount, indices, m.st));

	some_done(TRLOG_FN_WAITSOME, t0, t1, &m, n, *outcount, indices, false);
	many_release(&m, statuses);
	return rc;
}

int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[])
{
	struct many m;

	if (!many_init(&m, n, reqs, statuses)) {
		many_release(&m, statuses);
		return PMPI_Testsome(n, reqs, outcount, indices, statuses);
	}
	CALL(PMPI_Testsome(n, reqs, outcount, indices, m.st));

	some_done(TRLOG_FN_TESTSOME, t0, t1, &m, n, *outcount, indices, true);
	many_release(&m, statuses);
	return rc;
}

/* --- persistent requests: made once, started many times --- */

#define SEND_INIT_WRAPPER(NAME, FN) \
	int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, \
		       MPI_Request *req) \
	{ \
		CALL(PMPI_##NAME(buf, count, type, dest, tag, comm, req)); \
		int64_t peer; \
		rec_comm_peer(comm, dest, &peer); \
		if (rc == MPI_SUCCESS) \
			rec_req_persistent(*req, TRLOG_REQ_SEND, comm, peer, tag, rec_bytes(count, type)); \
		rec_call_plain(TRLOG_FN_##FN, t0, t1); \
		return rc; \
	}

SEND_INIT_WRAPPER(Send_init, SEND_INIT)
SEND_INIT_WRAPPER(Ssend_init, SSEND_INIT)
SEND_INIT_WRAPPER(Bsend_init, BSEND_INIT)
SEND_INIT_WRAPPER(Rsend_init, RSEND_INIT)

int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
		  MPI_Request *req)
{
	CALL(PMPI_Recv_init(buf, count, type, source, tag, comm, req));

	if (rc == MPI_SUCCESS)
		rec_req_persistent(*req, TRLOG_REQ_RECV, comm, TRLOG_NO_RANK, 0, 0);
	rec_call_plain(TRLOG_FN_RECV_INIT, t0, t1);
	return rc;
}

int MPI_Start(MPI_Request *req)
{
	MPI_Request started = *req;
	CALL(PMPI_Start(req));

	rec_call_start(TRLOG_FN_START, t0, t1, rc == MPI_SUCCESS, &started);
	return rc;
}

int MPI_Startall(int n, MPI_Request reqs[])
{
	CALL(PMPI_Startall(n, reqs));

	rec_call_start(TRLOG_FN_STARTALL, t0, t1, rc == MPI_SUCCESS ? n : 0, reqs);
	return rc;
}

int MPI_Request_free(MPI_Request *req)
{
	MPI_Request freed = *req;
	CALL(PMPI_Request_free(req));

	rec_req_free(freed);
	rec_call_plain(TRLOG_FN_REQUEST_FREE, t0, t1);
	return rc;
}

/* Cancelling: the wait or test that completes the request says it was cancelled (calls.c). */
int MPI_Cancel(MPI_Request *req)
{
	CALL(PMPI_Cancel(req));

	rec_call_plain(TRLOG_FN_CANCEL, t0, t1);
	return rc;
}
