/*
 * The Fortran entry points (mpif.h and `use mpi`, as gfortran names them:
 * mpi_send_). Open MPI's Fortran bindings call PMPI_* directly, so the C
 * wrappers never see a Fortran program's calls: each wrapper here calls
 * the Fortran PMPI twin (pmpi_send_) and records through the same calls.c,
 * its handles turned into C ones. The mpi_f08 module's entry points are
 * not wrapped.
 */
#include <stdlib.h>
#include <string.h>

#include "../log.h"
#include "mpirec.h"

typedef MPI_Fint F;

/* Open MPI's Fortran MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE, MPI_IN_PLACE (weak: absent elsewhere). */
extern F mpi_fortran_status_ignore_[] __attribute__((weak));
extern F mpi_fortran_statuses_ignore_[] __attribute__((weak));
extern F mpi_fortran_in_place_[] __attribute__((weak));

#define STATUS_WORDS (sizeof(MPI_Status) / sizeof(F) + 1)

/* Each entry point wrapped, and the Fortran PMPI twin it calls. */
#define FORTRAN(name, params) \
	void mpi_##name##_ params; \
	void pmpi_##name##_ params;

FORTRAN(init, (F *ierr))
FORTRAN(init_thread, (F *required, F *provided, F *ierr))
FORTRAN(finalize, (F *ierr))
FORTRAN(send, (void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *ierr))
FORTRAN(ssend, (void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *ierr))
FORTRAN(recv, (void *buf, F *count, F *type, F *source, F *tag, F *comm, F *status, F *ierr))
FORTRAN(sendrecv, (void *sbuf, F *scount, F *stype, F *dest, F *stag, void *rbuf, F *rcount,
	F *rtype, F *source, F *rtag, F *comm, F *status, F *ierr))
FORTRAN(isend, (void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *req, F *ierr))
FORTRAN(irecv, (void *buf, F *count, F *type, F *source, F *tag, F *comm, F *req, F *ierr))
FORTRAN(wait, (F *req, F *status, F *ierr))
FORTRAN(waitall, (F *n, F *reqs, F *statuses, F *ierr))
FORTRAN(waitany, (F *n, F *reqs, F *index, F *status, F *ierr))
FORTRAN(test, (F *req, F *flag, F *status, F *ierr))
FORTRAN(barrier, (F *comm, F *ierr))
FORTRAN(gather, (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root,
	F *comm, F *ierr))
FORTRAN(scatter, (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root,
	F *comm, F *ierr))
FORTRAN(allgather, (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *comm, F *ierr))
FORTRAN(alltoall, (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *comm, F *ierr))
FORTRAN(bcast, (void *buf, F *count, F *type, F *root, F *comm, F *ierr))
FORTRAN(reduce, (void *sbuf, void *rbuf, F *count, F *type, F *op, F *root, F *comm, F *ierr))
FORTRAN(allreduce, (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *ierr))
FORTRAN(comm_split, (F *comm, F *color, F *key, F *newcomm, F *ierr))
FORTRAN(comm_dup, (F *comm, F *newcomm, F *ierr))
FORTRAN(cart_create, (F *comm, F *ndims, F *dims, F *periods, F *reorder, F *newcomm, F *ierr))
FORTRAN(comm_free, (F *comm, F *ierr))

/* The times around a Fortran PMPI call (which returns nothing: its error is in ierr). */
#define FCALL(stmt) \
	int64_t t0 = rec_now(); \
	stmt; \
	int64_t t1 = rec_now()

#define OK (*ierr == MPI_SUCCESS)

static bool status_ignored(const F *status)
{
	return status == mpi_fortran_status_ignore_;
}

static MPI_Status c_status(const F *fstatus)
{
	MPI_Status st;

	PMPI_Status_f2c(fstatus, &st);
	return st;
}

static int64_t fbytes(const F *count, const F *type)
{
	return rec_bytes(*count, PMPI_Type_f2c(*type));
}

void mpi_init_(F *ierr)
{
	int64_t t0 = rec_now();

	pmpi_init_(ierr);
	if (OK)
		rec_mpi_started(TRLOG_FN_INIT, t0);
}

void mpi_init_thread_(F *required, F *provided, F *ierr)
{
	int64_t t0 = rec_now();

	pmpi_init_thread_(required, provided, ierr);
	if (OK)
		rec_mpi_started(TRLOG_FN_INIT_THREAD, t0);
}

void mpi_finalize_(F *ierr)
{
	int64_t t0 = rec_now();

	rec_mpi_ending();
	pmpi_finalize_(ierr);
	rec_mpi_ended(t0);
}

void mpi_send_(void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *ierr)
{
	FCALL(pmpi_send_(buf, count, type, dest, tag, comm, ierr));
	if (OK)
		rec_call_send(TRLOG_FN_SEND, t0, t1, PMPI_Comm_f2c(*comm), *dest, *tag, fbytes(count, type));
}

void mpi_ssend_(void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *ierr)
{
	FCALL(pmpi_ssend_(buf, count, type, dest, tag, comm, ierr));
	if (OK)
		rec_call_send(TRLOG_FN_SSEND, t0, t1, PMPI_Comm_f2c(*comm), *dest, *tag, fbytes(count, type));
}

void mpi_recv_(void *buf, F *count, F *type, F *source, F *tag, F *comm, F *status, F *ierr)
{
	F own[STATUS_WORDS], *st = status_ignored(status) ? own : status;
	FCALL(pmpi_recv_(buf, count, type, source, tag, comm, st, ierr));
	MPI_Status c = c_status(st);

	if (OK)
		rec_call_recv(TRLOG_FN_RECV, t0, t1, PMPI_Comm_f2c(*comm), &c);
}

void mpi_sendrecv_(void *sbuf, F *scount, F *stype, F *dest, F *stag, void *rbuf, F *rcount, F *rtype,
		   F *source, F *rtag, F *comm, F *status, F *ierr)
{
	F own[STATUS_WORDS], *st = status_ignored(status) ? own : status;
	FCALL(pmpi_sendrecv_(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, st, ierr));
	MPI_Status c = c_status(st);

	if (OK)
		rec_call_sendrecv(TRLOG_FN_SENDRECV, t0, t1, PMPI_Comm_f2c(*comm), *dest, *stag,
				  fbytes(scount, stype), &c);
}

void mpi_isend_(void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *req, F *ierr)
{
	FCALL(pmpi_isend_(buf, count, type, dest, tag, comm, req, ierr));
	if (OK)
		rec_call_isend(TRLOG_FN_ISEND, t0, t1, PMPI_Comm_f2c(*comm), *dest, *tag, fbytes(count, type),
			       PMPI_Request_f2c(*req));
}

void mpi_irecv_(void *buf, F *count, F *type, F *source, F *tag, F *comm, F *req, F *ierr)
{
	FCALL(pmpi_irecv_(buf, count, type, source, tag, comm, req, ierr));
	if (OK)
		rec_call_irecv(TRLOG_FN_IRECV, t0, t1, PMPI_Comm_f2c(*comm), PMPI_Request_f2c(*req));
}

void mpi_wait_(F *req, F *status, F *ierr)
{
	F own[STATUS_WORDS], *st = status_ignored(status) ? own : status;
	MPI_Request before = PMPI_Request_f2c(*req);
	bool done = true;
	FCALL(pmpi_wait_(req, st, ierr));
	MPI_Status c = c_status(st);

	if (OK)
		rec_call_complete(TRLOG_FN_WAIT, t0, t1, 1, &before, &done, &c, false);
}

void mpi_waitall_(F *n, F *reqs, F *statuses, F *ierr)
{
	int count = *n > 0 ? *n : 0;
	size_t words = STATUS_WORDS * (size_t)(count ? count : 1);
	bool ignored = statuses == mpi_fortran_statuses_ignore_;
	F *st = ignored ? malloc(sizeof(F) * words) : statuses;
	MPI_Request *before = malloc(sizeof(*before) * (size_t)(count ? count : 1));
	MPI_Status *c = malloc(sizeof(*c) * (size_t)(count ? count : 1));
	bool *done = malloc(sizeof(*done) * (size_t)(count ? count : 1));

	if (!st || !before || !c || !done) {
		pmpi_waitall_(n, reqs, statuses, ierr);
		goto out;
	}
	for (int i = 0; i < count; i++) {
		before[i] = PMPI_Request_f2c(reqs[i]);
		done[i] = true;
	}
	{
		FCALL(pmpi_waitall_(n, reqs, st, ierr));
		/* Fortran statuses are MPI_STATUS_SIZE integers apart */
		for (int i = 0; i < count; i++)
			c[i] = c_status(st + (size_t)i * (sizeof(MPI_Status) / sizeof(F)));
		if (OK)
			rec_call_complete(TRLOG_FN_WAITALL, t0, t1, count, before, done, c, false);
	}
out:
	if (ignored)
		free(st);
	free(before);
	free(c);
	free(done);
}

/*
 * Waitany and Test: one request completes, or none. The C handles are
 * taken before the call: a Fortran handle's C request is gone after it.
 */
static MPI_Request *c_requests(const F *reqs, int n)
{
	MPI_Request *c = malloc(sizeof(*c) * (size_t)(n > 0 ? n : 1));

	for (int i = 0; c && i < n; i++)
		c[i] = PMPI_Request_f2c(reqs[i]);
	return c;
}

static void one_done(int fn, int64_t t0, int64_t t1, int n, const MPI_Request *before, int done_at, const F *st,
		     bool tested)
{
	MPI_Status *c = malloc(sizeof(*c) * (size_t)(n > 0 ? n : 1));
	bool *done = calloc((size_t)(n > 0 ? n : 1), sizeof(*done));

	if (c && done) {
		if (done_at >= 0 && done_at < n) {
			done[done_at] = true;
			c[done_at] = c_status(st);
		}
		rec_call_complete(fn, t0, t1, n, before, done, c, tested);
	}
	free(c);
	free(done);
}

void mpi_waitany_(F *n, F *reqs, F *index, F *status, F *ierr)
{
	int count = *n > 0 ? *n : 0;
	F own[STATUS_WORDS], *st = status_ignored(status) ? own : status;
	MPI_Request *before = c_requests(reqs, count);

	if (!before) {
		pmpi_waitany_(n, reqs, index, status, ierr);
		return;
	}
	{
		FCALL(pmpi_waitany_(n, reqs, index, st, ierr));
		/* Fortran's index counts from 1 */
		if (OK)
			one_done(TRLOG_FN_WAITANY, t0, t1, count, before, *index == MPI_UNDEFINED ? -1 : *index - 1,
				 st, false);
	}
	free(before);
}

void mpi_test_(F *req, F *flag, F *status, F *ierr)
{
	F own[STATUS_WORDS], *st = status_ignored(status) ? own : status;
	MPI_Request before = PMPI_Request_f2c(*req);
	FCALL(pmpi_test_(req, flag, st, ierr));

	if (OK)
		one_done(TRLOG_FN_TEST, t0, t1, 1, &before, *flag ? 0 : -1, st, true);
}

/* A Fortran send buffer's bytes: none where it is MPI_IN_PLACE. */
static int64_t fsent(const void *sbuf, const F *count, const F *type)
{
	return sbuf == mpi_fortran_in_place_ ? 0 : fbytes(count, type);
}

static int frank(MPI_Comm c)
{
	int rank = -1;

	PMPI_Comm_rank(c, &rank);
	return rank;
}

static int fsize(MPI_Comm c)
{
	int size = 0;

	PMPI_Comm_size(c, &size);
	return size;
}

void mpi_gather_(void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root, F *comm, F *ierr)
{
	MPI_Comm c = PMPI_Comm_f2c(*comm);
	bool is_root = frank(c) == *root;
	int64_t sent = fsent(sbuf, scount, stype), recvd = is_root ? fbytes(rcount, rtype) * fsize(c) : 0;
	FCALL(pmpi_gather_(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierr));

	if (OK)
		rec_call_coll(TRLOG_FN_GATHER, t0, t1, c, *root, sent, recvd);
}

void mpi_scatter_(void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root, F *comm, F *ierr)
{
	MPI_Comm c = PMPI_Comm_f2c(*comm);
	bool is_root = frank(c) == *root;
	int64_t sent = is_root ? fbytes(scount, stype) * fsize(c) : 0;
	int64_t recvd = rbuf == mpi_fortran_in_place_ ? 0 : fbytes(rcount, rtype);
	FCALL(pmpi_scatter_(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierr));

	if (OK)
		rec_call_coll(TRLOG_FN_SCATTER, t0, t1, c, *root, sent, recvd);
}

void mpi_allgather_(void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *comm, F *ierr)
{
	MPI_Comm c = PMPI_Comm_f2c(*comm);
	int64_t sent = fsent(sbuf, scount, stype), recvd = fbytes(rcount, rtype) * fsize(c);
	FCALL(pmpi_allgather_(sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr));

	if (OK)
		rec_call_coll(TRLOG_FN_ALLGATHER, t0, t1, c, -1, sent, recvd);
}

void mpi_alltoall_(void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *comm, F *ierr)
{
	MPI_Comm c = PMPI_Comm_f2c(*comm);
	int n = fsize(c);
	int64_t sent = fsent(sbuf, scount, stype) * n, recvd = fbytes(rcount, rtype) * n;
	FCALL(pmpi_alltoall_(sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr));

	if (OK)
		rec_call_coll(TRLOG_FN_ALLTOALL, t0, t1, c, -1, sent, recvd);
}

void mpi_barrier_(F *comm, F *ierr)
{
	FCALL(pmpi_barrier_(comm, ierr));
	if (OK)
		rec_call_coll(TRLOG_FN_BARRIER, t0, t1, PMPI_Comm_f2c(*comm), -1, 0, 0);
}

void mpi_bcast_(void *buf, F *count, F *type, F *root, F *comm, F *ierr)
{
	MPI_Comm c = PMPI_Comm_f2c(*comm);
	int64_t b = fbytes(count, type);
	int rank = frank(c);
	FCALL(pmpi_bcast_(buf, count, type, root, comm, ierr));
	if (OK)
		rec_call_coll(TRLOG_FN_BCAST, t0, t1, c, *root, rank == *root ? b : 0, rank == *root ? 0 : b);
}

void mpi_reduce_(void *sbuf, void *rbuf, F *count, F *type, F *op, F *root, F *comm, F *ierr)
{
	MPI_Comm c = PMPI_Comm_f2c(*comm);
	int64_t b = fbytes(count, type);
	int rank = frank(c);
	FCALL(pmpi_reduce_(sbuf, rbuf, count, type, op, root, comm, ierr));
	if (OK)
		rec_call_coll(TRLOG_FN_REDUCE, t0, t1, c, *root, b, rank == *root ? b : 0);
}

void mpi_allreduce_(void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *ierr)
{
	int64_t b = fbytes(count, type);
	FCALL(pmpi_allreduce_(sbuf, rbuf, count, type, op, comm, ierr));

	if (OK)
		rec_call_coll(TRLOG_FN_ALLREDUCE, t0, t1, PMPI_Comm_f2c(*comm), -1, b, b);
}

/* After a Fortran call that made *newcomm from *comm. */
static void fmade(int fn, int64_t t0, const F *comm, const F *newcomm, const F *ierr)
{
	MPI_Comm parent = PMPI_Comm_f2c(*comm);
	int64_t local = OK ? rec_comm_made(parent, PMPI_Comm_f2c(*newcomm), false) : TRLOG_NO_RANK;

	rec_call_comm(fn, t0, rec_now(), parent, local);
}

void mpi_comm_split_(F *comm, F *color, F *key, F *newcomm, F *ierr)
{
	int64_t t0 = rec_now();

	pmpi_comm_split_(comm, color, key, newcomm, ierr);
	fmade(TRLOG_FN_COMM_SPLIT, t0, comm, newcomm, ierr);
}

void mpi_comm_dup_(F *comm, F *newcomm, F *ierr)
{
	int64_t t0 = rec_now();

	pmpi_comm_dup_(comm, newcomm, ierr);
	fmade(TRLOG_FN_COMM_DUP, t0, comm, newcomm, ierr);
}

void mpi_cart_create_(F *comm, F *ndims, F *dims, F *periods, F *reorder, F *newcomm, F *ierr)
{
	int64_t t0 = rec_now();

	pmpi_cart_create_(comm, ndims, dims, periods, reorder, newcomm, ierr);
	fmade(TRLOG_FN_CART_CREATE, t0, comm, newcomm, ierr);
}

void mpi_comm_free_(F *comm, F *ierr)
{
	MPI_Comm gone = PMPI_Comm_f2c(*comm);
	FCALL(pmpi_comm_free_(comm, ierr));

	rec_comm_freed(gone);
	rec_call_plain(TRLOG_FN_COMM_FREE, t0, t1);
}
