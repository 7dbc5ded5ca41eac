/*
 * The C entry points of MPI's collectives and of the calls that make
 * communicators. A collective's bytes are this process's: sent, what its
 * send buffer gives (for every member where it sends to each); received,
 * what its receive buffer takes. MPI_IN_PLACE sends nothing of its own.
 */
#include <stdlib.h>

#include "../log.h"
#include "mpirec.h"

static int comm_size(MPI_Comm comm)
{
	int n = 0, inter = 0;

	PMPI_Comm_test_inter(comm, &inter);
	if (inter)
		PMPI_Comm_remote_size(comm, &n);
	else
		PMPI_Comm_size(comm, &n);
	return n;
}

static int comm_rank(MPI_Comm comm)
{
	int r = -1;

	PMPI_Comm_rank(comm, &r);
	return r;
}

static int64_t sum_bytes(const int *counts, int n, MPI_Datatype type)
{
	int64_t sum = 0;

	for (int i = 0; counts && i < n; i++)
		sum += rec_bytes(counts[i], type);
	return sum;
}

static int64_t own_bytes(const void *sendbuf, int count, MPI_Datatype type)
{
	return sendbuf == MPI_IN_PLACE ? 0 : rec_bytes(count, type);
}

int MPI_Barrier(MPI_Comm comm)
{
	CALL(PMPI_Barrier(comm));

	rec_call_coll(TRLOG_FN_BARRIER, t0, t1, comm, -1, 0, 0);
	return rc;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
	int64_t b = rec_bytes(count, type);
	bool is_root = comm_rank(comm) == root;
	CALL(PMPI_Bcast(buf, count, type, root, comm));

	rec_call_coll(TRLOG_FN_BCAST, t0, t1, comm, root, is_root ? b : 0, is_root ? 0 : b);
	return rc;
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
	       MPI_Comm comm)
{
	int64_t b = rec_bytes(count, type);
	bool is_root = comm_rank(comm) == root;
	CALL(PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm));

	rec_call_coll(TRLOG_FN_REDUCE, t0, t1, comm, root, b, is_root ? b : 0);
	return rc;
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
		  MPI_Comm comm)
{
	int64_t b = rec_bytes(count, type);
	CALL(PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm));

	rec_call_coll(TRLOG_FN_ALLREDUCE, t0, t1, comm, -1, b, b);
	return rc;
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
	       MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	bool is_root = comm_rank(comm) == root;
	int64_t sent = own_bytes(sendbuf, sendcount, sendtype);
	int64_t recvd = is_root ? rec_bytes(recvcount, recvtype) * comm_size(comm) : 0;
	CALL(PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));

	rec_call_coll(TRLOG_FN_GATHER, t0, t1, comm, root, sent, recvd);
	return rc;
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	bool is_root = comm_rank(comm) == root;
	int64_t sent = own_bytes(sendbuf, sendcount, sendtype);
	int64_t recvd = is_root ? sum_bytes(recvcounts, comm_size(comm), recvtype) : 0;
	CALL(PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm));

	rec_call_coll(TRLOG_FN_GATHERV, t0, t1, comm, root, sent, recvd);
	return rc;
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
		MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	bool is_root = comm_rank(comm) == root;
	int64_t sent = is_root ? rec_bytes(sendcount, sendtype) * comm_size(comm) : 0;
	int64_t recvd = recvbuf == MPI_IN_PLACE ? 0 : rec_bytes(recvcount, recvtype);
	CALL(PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));

	rec_call_coll(TRLOG_FN_SCATTER, t0, t1, comm, root, sent, recvd);
	return rc;
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	bool is_root = comm_rank(comm) == root;
	int64_t sent = is_root ? sum_bytes(sendcounts, comm_size(comm), sendtype) : 0;
	int64_t recvd = recvbuf == MPI_IN_PLACE ? 0 : rec_bytes(recvcount, recvtype);
	CALL(PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm));

	rec_call_coll(TRLOG_FN_SCATTERV, t0, t1, comm, root, sent, recvd);
	return rc;
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
		  MPI_Datatype recvtype, MPI_Comm comm)
{
	int64_t sent = own_bytes(sendbuf, sendcount, sendtype);
	int64_t recvd = rec_bytes(recvcount, recvtype) * comm_size(comm);
	CALL(PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));

	rec_call_coll(TRLOG_FN_ALLGATHER, t0, t1, comm, -1, sent, recvd);
	return rc;
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
	int64_t sent = own_bytes(sendbuf, sendcount, sendtype);
	int64_t recvd = sum_bytes(recvcounts, comm_size(comm), recvtype);
	CALL(PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm));

	rec_call_coll(TRLOG_FN_ALLGATHERV, t0, t1, comm, -1, sent, recvd);
	return rc;
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
		 MPI_Datatype recvtype, MPI_Comm comm)
{
	int n = comm_size(comm);
	int64_t sent = own_bytes(sendbuf, sendcount, sendtype) * n;
	int64_t recvd = rec_bytes(recvcount, recvtype) * n;
	CALL(PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));

	rec_call_coll(TRLOG_FN_ALLTOALL, t0, t1, comm, -1, sent, recvd);
	return rc;
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
		  void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
		  MPI_Comm comm)
{
	int n = comm_size(comm);
	int64_t sent = sendbuf == MPI_IN_PLACE ? 0 : sum_bytes(sendcounts, n, sendtype);
	int64_t recvd = sum_bytes(recvcounts, n, recvtype);
	CALL(PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
			    comm));

	rec_call_coll(TRLOG_FN_ALLTOALLV, t0, t1, comm, -1, sent, recvd);
	return rc;
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype type,
		       MPI_Op op, MPI_Comm comm)
{
	int64_t sent = sum_bytes(recvcounts, comm_size(comm), type);
	int64_t recvd = rec_bytes(recvcounts[comm_rank(comm)], type);
	CALL(PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm));

	rec_call_coll(TRLOG_FN_REDUCE_SCATTER, t0, t1, comm, -1, sent, recvd);
	return rc;
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type,
			     MPI_Op op, MPI_Comm comm)
{
	int64_t recvd = rec_bytes(recvcount, type);
	CALL(PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm));

	rec_call_coll(TRLOG_FN_REDUCE_SCATTER_BLOCK, t0, t1, comm, -1, recvd * comm_size(comm), recvd);
	return rc;
}

#define SCAN_WRAPPER(NAME, FN) \
	int MPI_##NAME(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, \
		       MPI_Comm comm) \
	{ \
		int64_t b = rec_bytes(count, type); \
		CALL(PMPI_##NAME(sendbuf, recvbuf, count, type, op, comm)); \
		rec_call_coll(TRLOG_FN_##FN, t0, t1, comm, -1, b, b); \
		return rc; \
	}

SCAN_WRAPPER(Scan, SCAN)
SCAN_WRAPPER(Exscan, EXSCAN)

/* --- nonblocking collectives: posted here, completed in a wait or test --- */

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
	CALL(PMPI_Ibarrier(comm, req));

	rec_call_icoll(TRLOG_FN_IBARRIER, t0, t1, comm, -1, 0, 0, *req);
	return rc;
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request *req)
{
	int64_t b = rec_bytes(count, type);
	bool is_root = comm_rank(comm) == root;
	CALL(PMPI_Ibcast(buf, count, type, root, comm, req));

	rec_call_icoll(TRLOG_FN_IBCAST, t0, t1, comm, root, is_root ? b : 0, is_root ? 0 : b, *req);
	return rc;
}

int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
		MPI_Comm comm, MPI_Request *req)
{
	int64_t b = rec_bytes(count, type);
	bool is_root = comm_rank(comm) == root;
	CALL(PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, req));

	rec_call_icoll(TRLOG_FN_IREDUCE, t0, t1, comm, root, b, is_root ? b : 0, *req);
	return rc;
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
		   MPI_Comm comm, MPI_Request *req)
{
	int64_t b = rec_bytes(count, type);
	CALL(PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, req));

	rec_call_icoll(TRLOG_FN_IALLREDUCE, t0, t1, comm, -1, b, b, *req);
	return rc;
}

int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *req)
{
	int64_t sent = own_bytes(sendbuf, sendcount, sendtype);
	int64_t recvd = rec_bytes(recvcount, recvtype) * comm_size(comm);
	CALL(PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, req));

	rec_call_icoll(TRLOG_FN_IALLGATHER, t0, t1, comm, -1, sent, recvd, *req);
	return rc;
}

int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *req)
{
	int n = comm_size(comm);
	int64_t sent = own_bytes(sendbuf, sendcount, sendtype) * n;
	int64_t recvd = rec_bytes(recvcount, recvtype) * n;
	CALL(PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, req));

	rec_call_icoll(TRLOG_FN_IALLTOALL, t0, t1, comm, -1, sent, recvd, *req);
	return rc;
}

/* --- making and freeing communicators --- */

/* After a call that made *newcomm from parent: its key agreed on, and the call's record. */
#define MADE(FN, EXPR, PARENT, NONBLOCKING) \
	int64_t t0 = rec_now(); \
	int rc = (EXPR); \
	return made(FN, t0, rc, PARENT, *newcomm, NONBLOCKING)

static int made(int fn, int64_t t0, int rc, MPI_Comm parent, MPI_Comm newcomm, bool nonblocking)
{
	int64_t local = rc == MPI_SUCCESS ? rec_comm_made(parent, newcomm, nonblocking) : TRLOG_NO_RANK;

	rec_call_comm(fn, t0, rec_now(), parent, local);
	return rc;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	MADE(TRLOG_FN_COMM_DUP, PMPI_Comm_dup(comm, newcomm), comm, false);
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *req)
{
	MADE(TRLOG_FN_COMM_IDUP, PMPI_Comm_idup(comm, newcomm, req), comm, true);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	MADE(TRLOG_FN_COMM_SPLIT, PMPI_Comm_split(comm, color, key, newcomm), comm, false);
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *newcomm)
{
	MADE(TRLOG_FN_COMM_SPLIT_TYPE, PMPI_Comm_split_type(comm, type, key, info, newcomm), comm,
	     false);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	MADE(TRLOG_FN_COMM_CREATE, PMPI_Comm_create(comm, group, newcomm), comm, false);
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
	MADE(TRLOG_FN_COMM_CREATE_GROUP, PMPI_Comm_create_group(comm, group, tag, newcomm), comm, false);
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
		    MPI_Comm *newcomm)
{
	MADE(TRLOG_FN_CART_CREATE, PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm), comm,
	     false);
}

int MPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm peer, int remote_leader, int tag,
			 MPI_Comm *newcomm)
{
	MADE(TRLOG_FN_INTERCOMM_CREATE,
	     PMPI_Intercomm_create(local, local_leader, peer, remote_leader, tag, newcomm), local, false);
}

int MPI_Intercomm_merge(MPI_Comm inter, int high, MPI_Comm *newcomm)
{
	MADE(TRLOG_FN_INTERCOMM_MERGE, PMPI_Intercomm_merge(inter, high, newcomm), inter, false);
}

int MPI_Comm_free(MPI_Comm *comm)
{
	MPI_Comm gone = *comm;
	CALL(PMPI_Comm_free(comm));

	rec_comm_freed(gone);
	rec_call_plain(TRLOG_FN_COMM_FREE, t0, t1);
	return rc;
}
