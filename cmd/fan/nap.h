/*
 * Waiting on MPI without holding a core. Open MPI's blocking calls poll
 * without pause: a rank that waits keeps its core busy, and where ranks
 * share cores (more ranks than cores, or rank 0's analysis threads beside
 * its merge) it takes the core from the rank it waits for. Here a wait
 * polls a few times, then sleeps between polls, each sleep twice the
 * last, up to NAP_MAX ns: what comes while a rank sleeps is seen that
 * much later at most.
 */
#ifndef FAN_NAP_H
#define FAN_NAP_H

#include <mpi.h>

#define NAP_MAX 50000L		/* ns */

/* As MPI_Probe: wait for a message from src with tag on comm. MPI_SUCCESS, or MPI's error. */
int nap_probe(int src, int tag, MPI_Comm comm, MPI_Status *st);

/* As MPI_Wait on req. MPI_SUCCESS, or MPI's error. */
int nap_wait(MPI_Request *req);

#endif
