/*
 * A small MPI program with wait states of known size, for the tests of
 * tr-record: each scenario (argv[1]) delays one rank by a known time
 * (argv[2] ms, 200 by default) before its part, so that the others wait
 * that long.
 *
 *   late-sender   rank 0 sleeps, then sends to rank 1 (blocking)
 *   barrier       the last rank sleeps, then enters MPI_Barrier
 *   nonblocking   rank 0 sleeps, then Isends to every rank, which Irecv
 *                 and Waitall; then rank 1 sleeps and Isends to rank 0,
 *                 which waits with Waitany
 *   icoll         the last rank sleeps, then MPI_Iallreduce + MPI_Wait
 *   comms         MPI_Comm_split (even and odd ranks) and a Cartesian
 *                 communicator: rank 0 of each sleeps into an Allreduce
 *                 of its own communicator
 *   anysource     rank 0 sleeps, then sends to rank 1, which receives
 *                 from MPI_ANY_SOURCE with MPI_STATUS_IGNORE
 *   persistent    twice: rank 0 sleeps, then starts a persistent send to
 *                 rank 1, which started its persistent receive at once
 *                 and waits (MPI_Send_init, MPI_Recv_init, MPI_Start,
 *                 MPI_Startall, MPI_Wait, MPI_Request_free)
 *   cancel        rank 1 posts a receive nobody sends to, cancels it and
 *                 waits for it (MPI_Cancel)
 *   many          rank 1 sleeps, then sends 40 messages to rank 0, which
 *                 waits for their 40 Irecvs in one MPI_Waitall (more
 *                 requests than the recorder keeps on its stack)
 *   dies-HOW      late-sender, then rank 1 dies in a barrier's stead
 *                 (HOW: abort, MPI_Abort; segv, int, term, kill, raising
 *                 that signal) and the launcher ends the others
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) != 0)
		;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "late-sender";
	long ms = argc > 2 ? atol(argv[2]) : 200;
	int rank, size, x = 0, y = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (!strcmp(what, "late-sender")) {
		if (rank == 0) {
			sleep_ms(ms);
			MPI_Send(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
		} else if (rank == 1) {
			MPI_Recv(&x, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	} else if (!strcmp(what, "barrier")) {
		if (rank == size - 1)
			sleep_ms(ms);
		MPI_Barrier(MPI_COMM_WORLD);
	} else if (!strcmp(what, "nonblocking")) {
		MPI_Request reqs[64];
		int n = 0, index;

		if (rank == 0) {
			sleep_ms(ms);
			for (int r = 1; r < size && n < 64; r++)
				MPI_Isend(&x, 1, MPI_INT, r, 3, MPI_COMM_WORLD, &reqs[n++]);
		} else {
			MPI_Irecv(&y, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &reqs[n++]);
		}
		MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
		if (rank == 1) {
			sleep_ms(ms);
			MPI_Isend(&x, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &reqs[0]);
			MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
		} else if (rank == 0) {
			MPI_Irecv(&y, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &reqs[0]);
			MPI_Waitany(1, reqs, &index, MPI_STATUS_IGNORE);
		}
	} else if (!strcmp(what, "many")) {
		MPI_Request reqs[40];
		int bufs[40];

		if (rank == 0) {
			for (int i = 0; i < 40; i++)
				MPI_Irecv(&bufs[i], 1, MPI_INT, 1, i, MPI_COMM_WORLD, &reqs[i]);
			MPI_Waitall(40, reqs, MPI_STATUSES_IGNORE);
		} else if (rank == 1) {
			sleep_ms(ms);
			for (int i = 0; i < 40; i++)
				MPI_Send(&x, 1, MPI_INT, 0, i, MPI_COMM_WORLD);
		}
	} else if (!strcmp(what, "icoll")) {
		MPI_Request req;

		if (rank == size - 1)
			sleep_ms(ms);
		MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
	} else if (!strcmp(what, "comms")) {
		MPI_Comm half, cart;
		int dims[1] = { size }, periods[1] = { 1 }, r;

		MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
		MPI_Comm_rank(half, &r);
		if (r == 0)
			sleep_ms(ms);
		MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, half);
		MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
		MPI_Comm_rank(cart, &r);
		if (r == 0)
			sleep_ms(ms);
		MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, cart);
		MPI_Comm_free(&cart);
		MPI_Comm_free(&half);
	} else if (!strcmp(what, "anysource")) {
		if (rank == 0) {
			sleep_ms(ms);
			MPI_Send(&x, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
		} else if (rank == 1) {
			MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	} else if (!strcmp(what, "persistent")) {
		MPI_Request req = MPI_REQUEST_NULL;

		if (rank == 0)
			MPI_Send_init(&x, 1, MPI_INT, 1, 11, MPI_COMM_WORLD, &req);
		else if (rank == 1)
			MPI_Recv_init(&y, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, &req);
		for (int i = 0; i < 2 && rank < 2; i++) {
			if (rank == 0)
				sleep_ms(ms);
			if (i == 0)
				MPI_Start(&req);
			else
				MPI_Startall(1, &req);
			MPI_Wait(&req, MPI_STATUS_IGNORE);
		}
		if (rank < 2)
			MPI_Request_free(&req);
	} else if (!strcmp(what, "cancel")) {
		MPI_Request req;

		if (rank == 1) {
			MPI_Irecv(&y, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, &req);
			MPI_Cancel(&req);
			MPI_Wait(&req, MPI_STATUS_IGNORE);
		}
	} else if (!strncmp(what, "dies-", 5)) {
		static const struct { const char *how; int sig; } ways[] = {
			{ "abort", 0 }, { "segv", SIGSEGV }, { "int", SIGINT }, { "term", SIGTERM }, { "kill", SIGKILL },
		};

		if (rank == 0) {
			sleep_ms(ms);
			MPI_Send(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
		} else if (rank == 1) {
			MPI_Recv(&x, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			for (size_t i = 0; i < sizeof(ways) / sizeof(ways[0]); i++)
				if (!strcmp(what + 5, ways[i].how) && ways[i].sig)
					raise(ways[i].sig);
			MPI_Abort(MPI_COMM_WORLD, 3);
		}
		MPI_Barrier(MPI_COMM_WORLD);
	} else {
		if (rank == 0)
			fprintf(stderr, "mpi-patterns: no scenario %s\n", what);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Finalize();
	return 0;
}
