/*
 * What the MPI wrappers (c.c, fortran.c) share: the communicators and
 * requests a process knows, the clock synchronization, and writing one
 * call's record. Written with MPI's profiling interface: the wrappers call
 * PMPI_*, so nothing they do is recorded again.
 */
#ifndef REC_MPIREC_H
#define REC_MPIREC_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "../../formats/trlog/trlog.h"

/* In a wrapper: t0, the call's rc, t1. */
#define CALL(expr) \
	int64_t t0 = rec_now(); \
	int rc = (expr); \
	int64_t t1 = rec_now()

/* --- communicators (comms.c) --- */

/*
 * The local number of comm (MPI_COMM_WORLD 0, MPI_COMM_SELF 1), described
 * in the log the first time; TRLOG_NO_RANK where it is MPI_COMM_NULL.
 */
int64_t rec_comm(MPI_Comm comm);

/*
 * rec_comm(comm), and in *world the world rank of rank in comm (of its
 * remote group, for an intercommunicator): TRLOG_NO_RANK for
 * MPI_PROC_NULL or none. One look at the table, for every call's record.
 */
int64_t rec_comm_peer(MPI_Comm comm, int rank, int64_t *world);

/*
 * A communicator comm made from parent (or MPI_COMM_NULL for this
 * process): agree on its key with the other members and describe it.
 * Collective over newcomm; nonblocking (MPI_Comm_idup): true where newcomm
 * may not be used yet, and then the key comes from the parent's.
 * Returns its local number, or TRLOG_NO_RANK.
 */
int64_t rec_comm_made(MPI_Comm parent, MPI_Comm newcomm, bool nonblocking);

/* comm is freed: forget it (its handle may come back for another). */
void rec_comm_freed(MPI_Comm comm);

/* --- requests (requests.c) --- */

struct rec_req {
	uint64_t id;		/* the log's request number (persistent: of its last start; 0: not started) */
	int how;		/* TRLOG_REQ_SEND, _RECV, _COLL */
	MPI_Comm comm;
	int64_t peer, tag, bytes;	/* a send's */
	bool persistent;	/* made by MPI_*_init: it lives on after it completes */
};

/* Remember req as a new request; returns its number (0: out of memory). */
uint64_t rec_req_new(MPI_Request req, int how, MPI_Comm comm, int64_t peer, int64_t tag, int64_t bytes);

/* Remember req as a persistent request, not started. */
void rec_req_persistent(MPI_Request req, int how, MPI_Comm comm, int64_t peer, int64_t tag, int64_t bytes);

/* The persistent request req is started: its number for this start, and what it is, in *out (false: not one of ours). */
bool rec_req_start(MPI_Request req, struct rec_req *out);

/* req is freed (MPI_Request_free): forget it, persistent or not. */
void rec_req_free(MPI_Request req);

/* The request req (before it completes), or false where it is not one of ours. */
bool rec_req_get(MPI_Request req, struct rec_req *out);

/* req completed: forget it (a persistent one: until it is started again). */
void rec_req_done(MPI_Request req);

/* --- calls (calls.c) --- */

/* Bytes of count elements of type (0 where count is not positive). */
int64_t rec_bytes(int count, MPI_Datatype type);

void rec_call_plain(int fn, int64_t t0, int64_t t1);
void rec_call_send(int fn, int64_t t0, int64_t t1, MPI_Comm comm, int dest, int tag, int64_t bytes);
void rec_call_recv(int fn, int64_t t0, int64_t t1, MPI_Comm comm, const MPI_Status *st);
void rec_call_sendrecv(int fn, int64_t t0, int64_t t1, MPI_Comm comm, int dest, int sendtag,
		       int64_t sent, const MPI_Status *st);
void rec_call_isend(int fn, int64_t t0, int64_t t1, MPI_Comm comm, int dest, int tag, int64_t bytes,
		    MPI_Request req);
void rec_call_irecv(int fn, int64_t t0, int64_t t1, MPI_Comm comm, MPI_Request req);
void rec_call_coll(int fn, int64_t t0, int64_t t1, MPI_Comm comm, int root, int64_t sent, int64_t recvd);
void rec_call_icoll(int fn, int64_t t0, int64_t t1, MPI_Comm comm, int root, int64_t sent, int64_t recvd,
		    MPI_Request req);
void rec_call_comm(int fn, int64_t t0, int64_t t1, MPI_Comm parent, int64_t made);

/* MPI_Start(all): the n requests started (their handles). */
void rec_call_start(int fn, int64_t t0, int64_t t1, int n, const MPI_Request *reqs);

/*
 * A wait or test over n requests, whose handles before the call were
 * reqs[0..n): done[i] says whether request i completed (and st[i] is its
 * status), else it was tested (tested: the call was a test).
 */
void rec_call_complete(int fn, int64_t t0, int64_t t1, int n, const MPI_Request *reqs,
		       const bool *done, const MPI_Status *st, bool tested);

/* --- the run (run.c) --- */

/* After PMPI_Init(_thread): the run's id and the first clock sync. */
void rec_mpi_started(int fn, int64_t t0);

/* Before PMPI_Abort: the call (it never returns), and the log written out. */
void rec_mpi_abort(void);

/* Before PMPI_Finalize: the last clock sync; after it, rec_mpi_ended. */
void rec_mpi_ending(void);
void rec_mpi_ended(int64_t t0);

#endif
