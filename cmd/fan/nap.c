/* Waiting on MPI: polls, then sleeps between polls, longer each time. */
#include <stdbool.h>
#include <time.h>

#include "nap.h"

#define SPINS 64		/* polls before the first sleep */
#define NAP_MIN 2000L		/* ns */

/* After poll k that found nothing: sleep where the polls are past SPINS, the sleep after longer. */
static void nap(int k, long *ns)
{
	if (k < SPINS)
		return;
	nanosleep(&(struct timespec){ 0, *ns }, NULL);
	*ns = *ns * 2 > NAP_MAX ? NAP_MAX : *ns * 2;
}

int nap_probe(int src, int tag, MPI_Comm comm, MPI_Status *st)
{
	long ns = NAP_MIN;

	for (int k = 0;; k++) {
		int flag = 0, rc = MPI_Iprobe(src, tag, comm, &flag, st);

		if (rc != MPI_SUCCESS || flag)
			return rc;
		nap(k, &ns);
	}
}

int nap_wait(MPI_Request *req)
{
	long ns = NAP_MIN;

	for (int k = 0;; k++) {
		int flag = 0, rc = MPI_Test(req, &flag, MPI_STATUS_IGNORE);

		if (rc != MPI_SUCCESS || flag)
			return rc;
		nap(k, &ns);
	}
}
