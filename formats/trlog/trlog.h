/*
 * The log format of tr-record (docs/trlog.md): what the collector in
 * record/ writes and formats/trlog/ reads, in one place. A log is one
 * process's msgpack values: a header map, then arrays whose first element
 * is the record type (enum trlog_rec).
 */
#ifndef TRLOG_H
#define TRLOG_H

#include <stdbool.h>
#include <string.h>

#define TRLOG_MAJOR 1
#define TRLOG_MINOR 1
#define TRLOG_SUFFIX ".trlog"

/* Whether a file's name is a log's: NAME.trlog, NAME not empty. */
static inline bool trlog_named(const char *name)
{
	size_t n = strlen(name), m = sizeof(TRLOG_SUFFIX) - 1;

	return n > m && strcmp(name + n - m, TRLOG_SUFFIX) == 0;
}

enum trlog_rec {
	TRLOG_INIT = 1,		/* [1, rank, size, run]: MPI is up */
	TRLOG_SYNC = 2,		/* [2, phase, t, offset, rtt]: offset to rank 0's clock */
	TRLOG_COMM = 3,		/* [3, local, key, [world ranks]]: a communicator */
	TRLOG_THREAD = 4,	/* [4, thread, tid]: a thread's first record */
	TRLOG_CALL = 5,		/* [5, thread, fn, t0, t1, args...]: an MPI call */
	TRLOG_END = 6,		/* [6, t]: the process ended normally */
	/* CUDA, through CUPTI (docs/trlog.md): ctx and stream are CUPTI's ids */
	TRLOG_NAME = 7,		/* [7, id, name]: a string later records name by id */
	TRLOG_CUDA_API = 8,	/* [8, thread, name, t0, t1, corr, result]: a runtime or driver call */
	TRLOG_GPU_CONTEXT = 9,	/* [9, ctx, device, null stream] */
	TRLOG_GPU_KERNEL = 10,	/* [10, ctx, stream, device, t0, t1, corr, name] */
	TRLOG_GPU_COPY = 11,	/* [11, ctx, stream, device, t0, t1, corr, kind, bytes, src, dst] */
	TRLOG_GPU_SET = 12,	/* [12, ctx, stream, device, t0, t1, corr, bytes] */
	TRLOG_GPU_SYNC = 13,	/* [13, type, ctx, stream, event, t0, t1, corr]: what a synchronization waited for */
	TRLOG_GPU_EVENT = 14,	/* [14, ctx, stream, event, corr]: a CUDA event recorded on a stream */
	TRLOG_RANGE = 15,	/* [15, thread, t, name]: an NVTX range pushed; name -1: popped */
	/* OpenMP, through OMPT */
	TRLOG_OMP = 16,		/* [16, thread, t, what, a, b]: an OpenMP event (TRLOG_OMP_*) */
	TRLOG_FLUSH = 17,	/* [17, thread, t0, t1]: the collector wrote its buffer out, in thread's time */
	TRLOG_SIGNAL = 18,	/* [18, t, signal]: the process ends by a signal (0: MPI_Abort), its last record (1.1) */
};

/*
 * TRLOG_OMP events, with their a and b: a team forked (a: the threads
 * asked for) and joined, on the thread that encountered the parallel
 * construct; a thread's implicit task begins (a: its index in the team)
 * and ends; a barrier begins and ends (a: 1 explicit, 0 implicit); a
 * lock is waited for, acquired, released (a: the lock, b: 1 a critical
 * section, 0 an OpenMP lock).
 */
enum {
	TRLOG_OMP_FORK = 0, TRLOG_OMP_JOIN = 1, TRLOG_OMP_TASK_BEGIN = 2, TRLOG_OMP_TASK_END = 3,
	TRLOG_OMP_BARRIER_BEGIN = 4, TRLOG_OMP_BARRIER_END = 5, TRLOG_OMP_LOCK_WAIT = 6,
	TRLOG_OMP_LOCK_ACQUIRED = 7, TRLOG_OMP_LOCK_RELEASED = 8,
};

/* TRLOG_GPU_COPY kinds (CUPTI's CUpti_ActivityMemcpyKind) */
enum { TRLOG_COPY_HTOD = 1, TRLOG_COPY_DTOH = 2, TRLOG_COPY_DTOD = 8, TRLOG_COPY_HTOH = 9, TRLOG_COPY_PTOP = 10 };

/* A TRLOG_GPU_COPY's host memory that is pageable (CUPTI's CUpti_ActivityMemoryKind) */
enum { TRLOG_MEM_PAGEABLE = 1 };

/* TRLOG_SYNC phases */
enum { TRLOG_SYNC_INIT = 0, TRLOG_SYNC_FINALIZE = 1 };

/* Local communicator numbers every process has. */
enum { TRLOG_COMM_WORLD = 0, TRLOG_COMM_SELF = 1 };

/* A peer or root that is none (MPI_PROC_NULL, no root). */
#define TRLOG_NO_RANK (-1)

/* How a request completed, in a TRLOG_CALL of class TRLOG_C_COMPLETE. */
enum { TRLOG_REQ_SEND = 0, TRLOG_REQ_RECV = 1, TRLOG_REQ_COLL = 2, TRLOG_REQ_TESTED = 3, TRLOG_REQ_CANCELLED = 4 };

/*
 * The arguments after t1 of a TRLOG_CALL, by the class of its function
 * (peers and roots are ranks in MPI_COMM_WORLD, comms local numbers):
 */
enum trlog_class {
	TRLOG_C_PLAIN,		/* none */
	TRLOG_C_SEND,		/* comm, peer, tag, bytes */
	TRLOG_C_RECV,		/* comm, source, tag, bytes (the message's, not the wildcards) */
	TRLOG_C_SENDRECV,	/* comm, dest, sendtag, sent, source, recvtag, received */
	TRLOG_C_ISEND,		/* comm, peer, tag, bytes, req */
	TRLOG_C_IRECV,		/* comm, req */
	TRLOG_C_COMPLETE,	/* [[req, how, comm, peer, tag, bytes], ...]: completed or tested */
	TRLOG_C_COLL,		/* comm, root, sent, received */
	TRLOG_C_ICOLL,		/* comm, root, sent, received, req */
	TRLOG_C_COMM,		/* parent comm, new comm (-1: none for this process) */
	TRLOG_C_START,		/* [[req, how, comm, peer, tag, bytes], ...]: persistent requests started */
};

/*
 * The functions: X(ID, number, name, class), TRLOG_FN_ID = number.
 * Numbers are the format's; a new function takes a new number.
 */
#define TRLOG_FUNCTIONS(X) \
	X(INIT, 0, "MPI_Init", TRLOG_C_PLAIN) \
	X(INIT_THREAD, 1, "MPI_Init_thread", TRLOG_C_PLAIN) \
	X(FINALIZE, 2, "MPI_Finalize", TRLOG_C_PLAIN) \
	X(SEND, 3, "MPI_Send", TRLOG_C_SEND) \
	X(SSEND, 4, "MPI_Ssend", TRLOG_C_SEND) \
	X(BSEND, 5, "MPI_Bsend", TRLOG_C_SEND) \
	X(RSEND, 6, "MPI_Rsend", TRLOG_C_SEND) \
	X(RECV, 7, "MPI_Recv", TRLOG_C_RECV) \
	X(SENDRECV, 8, "MPI_Sendrecv", TRLOG_C_SENDRECV) \
	X(SENDRECV_REPLACE, 9, "MPI_Sendrecv_replace", TRLOG_C_SENDRECV) \
	X(ISEND, 10, "MPI_Isend", TRLOG_C_ISEND) \
	X(ISSEND, 11, "MPI_Issend", TRLOG_C_ISEND) \
	X(IBSEND, 12, "MPI_Ibsend", TRLOG_C_ISEND) \
	X(IRSEND, 13, "MPI_Irsend", TRLOG_C_ISEND) \
	X(IRECV, 14, "MPI_Irecv", TRLOG_C_IRECV) \
	X(WAIT, 15, "MPI_Wait", TRLOG_C_COMPLETE) \
	X(WAITALL, 16, "MPI_Waitall", TRLOG_C_COMPLETE) \
	X(WAITANY, 17, "MPI_Waitany", TRLOG_C_COMPLETE) \
	X(WAITSOME, 18, "MPI_Waitsome", TRLOG_C_COMPLETE) \
	X(TEST, 19, "MPI_Test", TRLOG_C_COMPLETE) \
	X(TESTALL, 20, "MPI_Testall", TRLOG_C_COMPLETE) \
	X(TESTANY, 21, "MPI_Testany", TRLOG_C_COMPLETE) \
	X(TESTSOME, 22, "MPI_Testsome", TRLOG_C_COMPLETE) \
	X(BARRIER, 23, "MPI_Barrier", TRLOG_C_COLL) \
	X(BCAST, 24, "MPI_Bcast", TRLOG_C_COLL) \
	X(REDUCE, 25, "MPI_Reduce", TRLOG_C_COLL) \
	X(ALLREDUCE, 26, "MPI_Allreduce", TRLOG_C_COLL) \
	X(GATHER, 27, "MPI_Gather", TRLOG_C_COLL) \
	X(GATHERV, 28, "MPI_Gatherv", TRLOG_C_COLL) \
	X(SCATTER, 29, "MPI_Scatter", TRLOG_C_COLL) \
	X(SCATTERV, 30, "MPI_Scatterv", TRLOG_C_COLL) \
	X(ALLGATHER, 31, "MPI_Allgather", TRLOG_C_COLL) \
	X(ALLGATHERV, 32, "MPI_Allgatherv", TRLOG_C_COLL) \
	X(ALLTOALL, 33, "MPI_Alltoall", TRLOG_C_COLL) \
	X(ALLTOALLV, 34, "MPI_Alltoallv", TRLOG_C_COLL) \
	X(REDUCE_SCATTER, 35, "MPI_Reduce_scatter", TRLOG_C_COLL) \
	X(REDUCE_SCATTER_BLOCK, 36, "MPI_Reduce_scatter_block", TRLOG_C_COLL) \
	X(SCAN, 37, "MPI_Scan", TRLOG_C_COLL) \
	X(EXSCAN, 38, "MPI_Exscan", TRLOG_C_COLL) \
	X(IBARRIER, 39, "MPI_Ibarrier", TRLOG_C_ICOLL) \
	X(IBCAST, 40, "MPI_Ibcast", TRLOG_C_ICOLL) \
	X(IREDUCE, 41, "MPI_Ireduce", TRLOG_C_ICOLL) \
	X(IALLREDUCE, 42, "MPI_Iallreduce", TRLOG_C_ICOLL) \
	X(IALLGATHER, 43, "MPI_Iallgather", TRLOG_C_ICOLL) \
	X(IALLTOALL, 44, "MPI_Ialltoall", TRLOG_C_ICOLL) \
	X(COMM_DUP, 45, "MPI_Comm_dup", TRLOG_C_COMM) \
	X(COMM_IDUP, 46, "MPI_Comm_idup", TRLOG_C_COMM) \
	X(COMM_SPLIT, 47, "MPI_Comm_split", TRLOG_C_COMM) \
	X(COMM_SPLIT_TYPE, 48, "MPI_Comm_split_type", TRLOG_C_COMM) \
	X(COMM_CREATE, 49, "MPI_Comm_create", TRLOG_C_COMM) \
	X(COMM_CREATE_GROUP, 50, "MPI_Comm_create_group", TRLOG_C_COMM) \
	X(CART_CREATE, 51, "MPI_Cart_create", TRLOG_C_COMM) \
	X(INTERCOMM_CREATE, 52, "MPI_Intercomm_create", TRLOG_C_COMM) \
	X(INTERCOMM_MERGE, 53, "MPI_Intercomm_merge", TRLOG_C_COMM) \
	X(COMM_FREE, 54, "MPI_Comm_free", TRLOG_C_PLAIN) \
	X(SEND_INIT, 55, "MPI_Send_init", TRLOG_C_PLAIN) \
	X(SSEND_INIT, 56, "MPI_Ssend_init", TRLOG_C_PLAIN) \
	X(BSEND_INIT, 57, "MPI_Bsend_init", TRLOG_C_PLAIN) \
	X(RSEND_INIT, 58, "MPI_Rsend_init", TRLOG_C_PLAIN) \
	X(RECV_INIT, 59, "MPI_Recv_init", TRLOG_C_PLAIN) \
	X(START, 60, "MPI_Start", TRLOG_C_START) \
	X(STARTALL, 61, "MPI_Startall", TRLOG_C_START) \
	X(REQUEST_FREE, 62, "MPI_Request_free", TRLOG_C_PLAIN) \
	X(CANCEL, 63, "MPI_Cancel", TRLOG_C_PLAIN) \
	X(ABORT, 64, "MPI_Abort", TRLOG_C_PLAIN)

#define TRLOG_FN_ENUM(id, num, name, cls) TRLOG_FN_##id = num,
enum { TRLOG_FUNCTIONS(TRLOG_FN_ENUM) TRLOG_NFN };
#undef TRLOG_FN_ENUM

#endif
