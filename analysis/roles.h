/*
 * What a region's role means to the analysis, in one place: which calls a
 * process can wait in, which synchronize with a GPU, which carry a transit
 * of the critical path, which are a run's main work. The rules ask these,
 * never a role's name or its place in the list.
 */
#ifndef AN_ROLES_H
#define AN_ROLES_H

#include <stdbool.h>

#include "../libstream/schema.h"

/* MPI calls a process can wait in (Isend and Irecv never block). */
static inline bool an_role_mpi_blocking(enum ls_role r)
{
	switch (r) {
	case LS_R_MPI_SEND: case LS_R_MPI_RECV: case LS_R_MPI_SENDRECV:
	case LS_R_MPI_WAIT: case LS_R_MPI_TEST: case LS_R_MPI_BARRIER:
	case LS_R_MPI_N2N: case LS_R_MPI_ONE2N: case LS_R_MPI_N2ONE:
	case LS_R_MPI_SCAN: case LS_R_MPI_INIT: case LS_R_MPI_FINALIZE:
		return true;
	default:
		return false;
	}
}

/* MPI calls that take part in communication (all but mpi_other). */
static inline bool an_role_mpi_comm(enum ls_role r)
{
	return an_role_mpi_blocking(r) || r == LS_R_MPI_ISEND ||
	       r == LS_R_MPI_IRECV || r == LS_R_MPI_ICOLL;
}

/* Collective operations over a communicator. */
static inline bool an_role_collective(enum ls_role r)
{
	return r == LS_R_MPI_BARRIER || r == LS_R_MPI_N2N ||
	       r == LS_R_MPI_ONE2N || r == LS_R_MPI_N2ONE ||
	       r == LS_R_MPI_SCAN;
}

/* Init and Finalize: collective over every ranked process. */
static inline bool an_role_world(enum ls_role r)
{
	return r == LS_R_MPI_INIT || r == LS_R_MPI_FINALIZE;
}

/* Blocking sends: they can wait for their receive to be posted (a late receiver). */
static inline bool an_role_blocking_send(enum ls_role r)
{
	return r == LS_R_MPI_SEND || r == LS_R_MPI_SENDRECV;
}

/* Blocking receives of one message: they post it themselves, and can take messages in the wrong order. */
static inline bool an_role_blocking_recv(enum ls_role r)
{
	return r == LS_R_MPI_RECV || r == LS_R_MPI_SENDRECV;
}

/*
 * Host calls that synchronize with a GPU: the host can wait in them for
 * work on it (explicit synchronizations and queries, and the implicitly
 * synchronizing copies, allocations and frees). Not a blocking set
 * (cudaMemset): on device memory it returns before its set has run, as
 * CUDA documents and as an H100 showed (tests/data/gpu).
 */
static inline bool an_role_gpu_sync(enum ls_role r)
{
	switch (r) {
	case LS_R_STREAM_SYNC: case LS_R_CTX_SYNC: case LS_R_EVENT_SYNC:
	case LS_R_EVENT_QUERY: case LS_R_STREAM_QUERY: case LS_R_MEMCPY:
	case LS_R_ALLOC: case LS_R_FREE:
		return true;
	default:
		return false;
	}
}

/*
 * Activities that carry a transit of the critical path from an event in
 * them: calls that communicate or synchronize (MPI, the GPU runtime, GPU
 * work, OpenMP barriers, critical sections and locks). Plain code, a
 * parallel region or a task do nothing for a dependency that leaves them.
 */
static inline bool an_role_carries(enum ls_role r)
{
	switch (ls_role_group(r)) {
	case LS_G_MPI: case LS_G_GPU_CALL: case LS_G_GPU_WORK:
		return true;
	case LS_G_OMP:
		return r == LS_R_OMP_BARRIER || r == LS_R_OMP_CRITICAL || r == LS_R_OMP_LOCK ||
		       r == LS_R_OMP_UNLOCK;
	default:
		return false;
	}
}

/*
 * A run's main work, whose end is the run's without MPI_Finalize: GPU
 * work, a call that gives a GPU work or waits for it, an MPI call that
 * communicates. Polls (queries, MPI_Test) and other runtime calls are not.
 */
static inline bool an_role_main_work(enum ls_role r)
{
	switch (ls_role_group(r)) {
	case LS_G_GPU_WORK:
		return true;
	case LS_G_MPI:
		return r != LS_R_MPI_TEST && r != LS_R_MPI_OTHER;
	case LS_G_GPU_CALL:
		return r != LS_R_EVENT_QUERY && r != LS_R_STREAM_QUERY && r != LS_R_GPU_API;
	default:
		return false;
	}
}

#endif
