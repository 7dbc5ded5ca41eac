/*
 * The Fortran entry points (mpif.h and `use mpi`, as gfortran names them:
 * mpi_send_). Open MPI's Fortran bindings call PMPI_* directly, so the C
 * wrappers never see a Fortran program's calls: each wrapper here calls
 * the Fortran PMPI twin (pmpi_send_) and records through the same calls.c,
 * its handles turned into C ones. The mpi_f08 module's entry points
 * (mpi_send_f08_) are wrapped by the same code.
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

/*
 * The entry points wrapped but MPI_Init and MPI_Finalize: their
 * parameters before ierr, and the names of those parameters. Each has its
 * mpif.h / `use mpi` entry point (mpi_send_) and its mpi_f08 one
 * (mpi_send_f08_), with Fortran PMPI twins of each. Open MPI's mpi_f08
 * entry points take the same arguments (a handle type holds the integer
 * handle, a status type the integers of a status), ierr absent: NULL.
 */
#define FORTRAN_CALLS(X) \
	X(init_thread, (F *required, F *provided), (required, provided)) \
	X(send, (void *buf, F *count, F *type, F *dest, F *tag, F *comm), \
		(buf, count, type, dest, tag, comm)) \
	X(ssend, (void *buf, F *count, F *type, F *dest, F *tag, F *comm), \
		(buf, count, type, dest, tag, comm)) \
	X(recv, (void *buf, F *count, F *type, F *source, F *tag, F *comm, F *status), \
		(buf, count, type, source, tag, comm, status)) \
	X(sendrecv, (void *sbuf, F *scount, F *stype, F *dest, F *stag, void *rbuf, F *rcount, \
		F *rtype, F *source, F *rtag, F *comm, F *status), \
		(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status)) \
	X(isend, (void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *req), \
		(buf, count, type, dest, tag, comm, req)) \
	X(irecv, (void *buf, F *count, F *type, F *source, F *tag, F *comm, F *req), \
		(buf, count, type, source, tag, comm, req)) \
	X(wait, (F *req, F *status), (req, status)) \
	X(waitall, (F *n, F *reqs, F *statuses), (n, reqs, statuses)) \
	X(waitany, (F *n, F *reqs, F *index, F *status), (n, reqs, index, status)) \
	X(test, (F *req, F *flag, F *status), (req, flag, status)) \
	X(barrier, (F *comm), (comm)) \
	X(gather, (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root, \
		F *comm), \
		(sbuf, scount, stype, rbuf, rcount, rtype, root, comm)) \
	X(scatter, (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root, \
		F *comm), \
		(sbuf, scount, stype, rbuf, rcount, rtype, root, comm)) \
	X(allgather, (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *comm), \
		(sbuf, scount, stype, rbuf, rcount, rtype, comm)) \
	X(alltoall, (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *comm), \
		(sbuf, scount, stype, rbuf, rcount, rtype, comm)) \
	X(bcast, (void *buf, F *count, F *type, F *root, F *comm), (buf, count, type, root, comm)) \
	X(reduce, (void *sbuf, void *rbuf, F *count, F *type, F *op, F *root, F *comm), \
		(sbuf, rbuf, count, type, op, root, comm)) \
	X(allreduce, (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm), \
		(sbuf, rbuf, count, type, op, comm)) \
	X(comm_split, (F *comm, F *color, F *key, F *newcomm), (comm, color, key, newcomm)) \
	X(comm_dup, (F *comm, F *newcomm), (comm, newcomm)) \
	X(cart_create, (F *comm, F *ndims, F *dims, F *periods, F *reorder, F *newcomm), \
		(comm, ndims, dims, periods, reorder, newcomm)) \
	X(comm_free, (F *comm), (comm)) \
	X(abort, (F *comm, F *errorcode), (comm, errorcode))

/*
 * The PMPI twins are weak: their addresses are taken (a wrapper is given
 * its twin), which binds them when the collector loads, and a program
 * loads Open MPI's Fortran library of one binding, or none (C).
 */
#define WEAK __attribute__((weak))
#define UNPAREN(...) __VA_ARGS__
#define DECLARE(name, params, args) \
	void mpi_##name##_(UNPAREN params, F *ierr); \
	void pmpi_##name##_(UNPAREN params, F *ierr) WEAK; \
	void mpi_##name##_f08_(UNPAREN params, F *ierr); \
	void pmpi_##name##_f08_(UNPAREN params, F *ierr) WEAK;
FORTRAN_CALLS(DECLARE)
void mpi_init_(F *ierr);
void pmpi_init_(F *ierr) WEAK;
void mpi_init_f08_(F *ierr);
void pmpi_init_f08_(F *ierr) WEAK;
void mpi_finalize_(F *ierr);
void pmpi_finalize_(F *ierr) WEAK;
void mpi_finalize_f08_(F *ierr);
void pmpi_finalize_f08_(F *ierr) WEAK;

/* The PMPI twin a wrapper calls: that of mpif.h's entry point or of mpi_f08's. */
#define PM(name) __typeof__(pmpi_##name##_) *pm

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

static void f_init(PM(init), F *ierr)
{
	int64_t t0 = rec_now();

	pm(ierr);
	if (OK)
		rec_mpi_started(TRLOG_FN_INIT, t0);
}

static void f_init_thread(PM(init_thread), F *required, F *provided, F *ierr)
{
	int64_t t0 = rec_now();

	pm(required, provided, ierr);
	if (OK)
		rec_mpi_started(TRLOG_FN_INIT_THREAD, t0);
}

static void f_finalize(PM(finalize), F *ierr)
{
	int64_t t0 = rec_now();

	rec_mpi_ending();
	pm(ierr);
	rec_mpi_ended(t0);
}

static void f_send(PM(send), void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *ierr)
{
	FCALL(pm(buf, count, type, dest, tag, comm, ierr));
	if (OK)
		rec_call_send(TRLOG_FN_SEND, t0, t1, PMPI_Comm_f2c(*comm), *dest, *tag, fbytes(count, type));
}

static void f_ssend(PM(ssend), void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *ierr)
{
	FCALL(pm(buf, count, type, dest, tag, comm, ierr));
	if (OK)
		rec_call_send(TRLOG_FN_SSEND, t0, t1, PMPI_Comm_f2c(*comm), *dest, *tag, fbytes(count, type));
}

static void f_recv(PM(recv), void *buf, F *count, F *type, F *source, F *tag, F *comm, F *status, F *ierr)
{
	F own[STATUS_WORDS], *st = status_ignored(status) ? own : status;
	FCALL(pm(buf, count, type, source, tag, comm, st, ierr));
	MPI_Status c = c_status(st);

	if (OK)
		rec_call_recv(TRLOG_FN_RECV, t0, t1, PMPI_Comm_f2c(*comm), &c);
}

static void f_sendrecv(PM(sendrecv), void *sbuf, F *scount, F *stype, F *dest, F *stag, void *rbuf, F *rcount,
		       F *rtype, F *source, F *rtag, F *comm, F *status, F *ierr)
{
	F own[STATUS_WORDS], *st = status_ignored(status) ? own : status;
	FCALL(pm(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, st, ierr));
	MPI_Status c = c_status(st);

	if (OK)
		rec_call_sendrecv(TRLOG_FN_SENDRECV, t0, t1, PMPI_Comm_f2c(*comm), *dest, *stag,
				  fbytes(scount, stype), &c);
}

static void f_isend(PM(isend), void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *req, F *ierr)
{
	FCALL(pm(buf, count, type, dest, tag, comm, req, ierr));
	if (OK)
		rec_call_isend(TRLOG_FN_ISEND, t0, t1, PMPI_Comm_f2c(*comm), *dest, *tag, fbytes(count, type),
			       PMPI_Request_f2c(*req));
}

static void f_irecv(PM(irecv), void *buf, F *count, F *type, F *source, F *tag, F *comm, F *req, F *ierr)
{
	FCALL(pm(buf, count, type, source, tag, comm, req, ierr));
	if (OK)
		rec_call_irecv(TRLOG_FN_IRECV, t0, t1, PMPI_Comm_f2c(*comm), PMPI_Request_f2c(*req));
}

static void f_wait(PM(wait), F *req, F *status, F *ierr)
{
	F own[STATUS_WORDS], *st = status_ignored(status) ? own : status;
	MPI_Request before = PMPI_Request_f2c(*req);
	bool done = true;
	FCALL(pm(req, st, ierr));
	MPI_Status c = c_status(st);

	if (OK)
		rec_call_complete(TRLOG_FN_WAIT, t0, t1, 1, &before, &done, &c, false);
}

static void f_waitall(PM(waitall), F *n, F *reqs, F *statuses, F *ierr)
{
	int count = *n > 0 ? *n : 0;
	size_t words = STATUS_WORDS * (size_t)(count ? count : 1);
	bool ignored = statuses == mpi_fortran_statuses_ignore_;
	F *st = ignored ? malloc(sizeof(F) * words) : statuses;
	MPI_Request *before = malloc(sizeof(*before) * (size_t)(count ? count : 1));
	MPI_Status *c = malloc(sizeof(*c) * (size_t)(count ? count : 1));
	bool *done = malloc(sizeof(*done) * (size_t)(count ? count : 1));

	if (!st || !before || !c || !done) {
		pm(n, reqs, statuses, ierr);
		goto out;
	}
	for (int i = 0; i < count; i++) {
		before[i] = PMPI_Request_f2c(reqs[i]);
		done[i] = true;
	}
	{
		FCALL(pm(n, reqs, st, ierr));
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

static void one_done(int fn, int64_t t0, int64_t t1, int n, const MPI_Request *before, int done_at,
		const F *st,
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

static void f_waitany(PM(waitany), F *n, F *reqs, F *index, F *status, F *ierr)
{
	int count = *n > 0 ? *n : 0;
	F own[STATUS_WORDS], *st = status_ignored(status) ? own : status;
	MPI_Request *before = c_requests(reqs, count);

	if (!before) {
		pm(n, reqs, index, status, ierr);
		return;
	}
	{
		FCALL(pm(n, reqs, index, st, ierr));
		/* Fortran's index counts from 1 */
		if (OK)
			one_done(TRLOG_FN_WAITANY, t0, t1, count, before,
		*index == MPI_UNDEFINED ? -1 : *index - 1,
				 st, false);
	}
	free(before);
}

static void f_test(PM(test), F *req, F *flag, F *status, F *ierr)
{
	F own[STATUS_WORDS], *st = status_ignored(status) ? own : status;
	MPI_Request before = PMPI_Request_f2c(*req);
	FCALL(pm(req, flag, st, ierr));

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

static void f_gather(PM(gather), void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root,
		     F *comm, F *ierr)
{
	MPI_Comm c = PMPI_Comm_f2c(*comm);
	bool is_root = frank(c) == *root;
	int64_t sent = fsent(sbuf, scount, stype), recvd = is_root ? fbytes(rcount, rtype) * fsize(c) : 0;
	FCALL(pm(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierr));

	if (OK)
		rec_call_coll(TRLOG_FN_GATHER, t0, t1, c, *root, sent, recvd);
}

static void f_scatter(PM(scatter), void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root,
		      F *comm, F *ierr)
{
	MPI_Comm c = PMPI_Comm_f2c(*comm);
	bool is_root = frank(c) == *root;
	int64_t sent = is_root ? fbytes(scount, stype) * fsize(c) : 0;
	int64_t recvd = rbuf == mpi_fortran_in_place_ ? 0 : fbytes(rcount, rtype);
	FCALL(pm(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierr));

	if (OK)
		rec_call_coll(TRLOG_FN_SCATTER, t0, t1, c, *root, sent, recvd);
}

static void f_allgather(PM(allgather), void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype,
			F *comm, F *ierr)
{
	MPI_Comm c = PMPI_Comm_f2c(*comm);
	int64_t sent = fsent(sbuf, scount, stype), recvd = fbytes(rcount, rtype) * fsize(c);
	FCALL(pm(sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr));

	if (OK)
		rec_call_coll(TRLOG_FN_ALLGATHER, t0, t1, c, -1, sent, recvd);
}

static void f_alltoall(PM(alltoall), void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype,
		       F *comm, F *ierr)
{
	MPI_Comm c = PMPI_Comm_f2c(*comm);
	int n = fsize(c);
	int64_t sent = fsent(sbuf, scount, stype) * n, recvd = fbytes(rcount, rtype) * n;
	FCALL(pm(sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr));

	if (OK)
		rec_call_coll(TRLOG_FN_ALLTOALL, t0, t1, c, -1, sent, recvd);
}

static void f_barrier(PM(barrier), F *comm, F *ierr)
{
	FCALL(pm(comm, ierr));
	if (OK)
		rec_call_coll(TRLOG_FN_BARRIER, t0, t1, PMPI_Comm_f2c(*comm), -1, 0, 0);
}

static void f_bcast(PM(bcast), void *buf, F *count, F *type, F *root, F *comm, F *ierr)
{
	MPI_Comm c = PMPI_Comm_f2c(*comm);
	int64_t b = fbytes(count, type);
	int rank = frank(c);
	FCALL(pm(buf, count, type, root, comm, ierr));
	if (OK)
		rec_call_coll(TRLOG_FN_BCAST, t0, t1, c, *root, rank == *root ? b : 0, rank == *root ? 0 : b);
}

static void f_reduce(PM(reduce), void *sbuf, void *rbuf, F *count, F *type, F *op, F *root, F *comm,
		     F *ierr)
{
	MPI_Comm c = PMPI_Comm_f2c(*comm);
	int64_t b = fbytes(count, type);
	int rank = frank(c);
	FCALL(pm(sbuf, rbuf, count, type, op, root, comm, ierr));
	if (OK)
		rec_call_coll(TRLOG_FN_REDUCE, t0, t1, c, *root, b, rank == *root ? b : 0);
}

static void f_allreduce(PM(allreduce), void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *ierr)
{
	int64_t b = fbytes(count, type);
	FCALL(pm(sbuf, rbuf, count, type, op, comm, ierr));

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

static void f_comm_split(PM(comm_split), F *comm, F *color, F *key, F *newcomm, F *ierr)
{
	int64_t t0 = rec_now();

	pm(comm, color, key, newcomm, ierr);
	fmade(TRLOG_FN_COMM_SPLIT, t0, comm, newcomm, ierr);
}

static void f_comm_dup(PM(comm_dup), F *comm, F *newcomm, F *ierr)
{
	int64_t t0 = rec_now();

	pm(comm, newcomm, ierr);
	fmade(TRLOG_FN_COMM_DUP, t0, comm, newcomm, ierr);
}

static void f_cart_create(PM(cart_create), F *comm, F *ndims, F *dims, F *periods, F *reorder, F *newcomm,
			  F *ierr)
{
	int64_t t0 = rec_now();

	pm(comm, ndims, dims, periods, reorder, newcomm, ierr);
	fmade(TRLOG_FN_CART_CREATE, t0, comm, newcomm, ierr);
}

static void f_comm_free(PM(comm_free), F *comm, F *ierr)
{
	MPI_Comm gone = PMPI_Comm_f2c(*comm);
	FCALL(pm(comm, ierr));

	rec_comm_freed(gone);
	rec_call_plain(TRLOG_FN_COMM_FREE, t0, t1);
}

static void f_abort(PM(abort), F *comm, F *errorcode, F *ierr)
{
	rec_mpi_abort();
	pm(comm, errorcode, ierr);
}

/*
 * The entry points: mpif.h's, and mpi_f08's, whose ierr may be absent
 * (the wrappers read it: one of their own then).
 */
#define ENTRIES(name, params, args) \
	void mpi_##name##_(UNPAREN params, F *ierr) \
	{ \
		f_##name(pmpi_##name##_, UNPAREN args, ierr); \
	} \
	void mpi_##name##_f08_(UNPAREN params, F *ierr) \
	{ \
		F own = MPI_SUCCESS; \
		f_##name(pmpi_##name##_f08_, UNPAREN args, ierr ? ierr : &own); \
	}
FORTRAN_CALLS(ENTRIES)

void mpi_init_(F *ierr)
{
	f_init(pmpi_init_, ierr);
}

void mpi_init_f08_(F *ierr)
{
	F own = MPI_SUCCESS;

	f_init(pmpi_init_f08_, ierr ? ierr : &own);
}

void mpi_finalize_(F *ierr)
{
	f_finalize(pmpi_finalize_, ierr);
}

void mpi_finalize_f08_(F *ierr)
{
	F own = MPI_SUCCESS;

	f_finalize(pmpi_finalize_f08_, ierr ? ierr : &own);
}
