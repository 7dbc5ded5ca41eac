/*
 * The run: its id, which rank 0 makes and sends to every rank, so that
 * tr-read tells logs of two runs apart; and the clock synchronization
 * (KOJAK's offline method): at MPI_Init and at MPI_Finalize each rank
 * measures its offset to rank 0's clock with ping-pongs on a communicator
 * of its own (a dup of MPI_COMM_WORLD, so that no receive of the program,
 * MPI_ANY_SOURCE included, can match them), keeping the one with the
 * shortest round trip. tr-read corrects each rank's times linearly
 * between the two.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../libstream/enc.h"
#include "../log.h"
#include "mpirec.h"

#define PINGPONGS 10
#define RUN_ID 64

static MPI_Comm private_comm = MPI_COMM_NULL;

static void record_sync(int phase, int64_t t, int64_t offset, int64_t rtt)
{
	uint64_t thread;
	struct ls_buf *b = rec_begin(&thread);

	if (!b)
		return;
	ls_enc_array(b, 5);
	ls_enc_uint(b, TRLOG_SYNC);
	ls_enc_uint(b, (uint64_t)phase);
	ls_enc_int(b, t);
	ls_enc_int(b, offset);
	ls_enc_int(b, rtt);
	rec_end();
}

/*
 * Rank 0 answers each rank in turn with its clock; a rank keeps the
 * ping-pong with the shortest round trip: rank 0's clock read in its
 * middle, less its own middle, is the offset. A barrier after it lets
 * the ranks go on together (the first synchronized ones do not start
 * the program ahead of the last).
 */
static void sync_clocks(int phase)
{
	int rank, size;
	int64_t t;

	PMPI_Comm_rank(private_comm, &rank);
	PMPI_Comm_size(private_comm, &size);
	if (rank == 0) {
		for (int r = 1; r < size; r++)
			for (int k = 0; k < PINGPONGS; k++) {
				PMPI_Recv(&t, 1, MPI_INT64_T, r, phase, private_comm, MPI_STATUS_IGNORE);
				t = rec_now();
				PMPI_Send(&t, 1, MPI_INT64_T, r, phase, private_comm);
			}
		t = rec_now();
		record_sync(phase, t, 0, 0);
		PMPI_Barrier(private_comm);
		return;
	}
	int64_t best_rtt = INT64_MAX, best_offset = 0, best_mid = 0;

	for (int k = 0; k < PINGPONGS; k++) {
		int64_t sent = rec_now(), theirs, back;

		PMPI_Send(&sent, 1, MPI_INT64_T, 0, phase, private_comm);
		PMPI_Recv(&theirs, 1, MPI_INT64_T, 0, phase, private_comm, MPI_STATUS_IGNORE);
		back = rec_now();
		if (back - sent < best_rtt) {
			best_rtt = back - sent;
			best_mid = sent + (back - sent) / 2;
			best_offset = theirs - best_mid;
		}
	}
	record_sync(phase, best_mid, best_offset, best_rtt);
	PMPI_Barrier(private_comm);
}

/* [1, rank, size, run]: rank 0's host, pid and start time name the run. */
static void record_init(void)
{
	char run[RUN_ID] = "", host[32] = "";
	uint64_t thread;
	struct ls_buf *b;
	int rank, size;

	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		gethostname(host, sizeof(host) - 1);
		snprintf(run, sizeof(run), "%s-%ld-%lld", host, (long)getpid(), (long long)rec_now());
	}
	PMPI_Bcast(run, RUN_ID, MPI_CHAR, 0, private_comm);
	run[RUN_ID - 1] = '\0';
	if (!(b = rec_begin(&thread)))
		return;
	ls_enc_array(b, 4);
	ls_enc_uint(b, TRLOG_INIT);
	ls_enc_uint(b, (uint64_t)rank);
	ls_enc_uint(b, (uint64_t)size);
	ls_enc_str(b, run, strlen(run));
	rec_end();
}

void rec_mpi_started(int fn, int64_t t0)
{
	if (PMPI_Comm_dup(MPI_COMM_WORLD, &private_comm) != MPI_SUCCESS) {
		rec_say("cannot make a communicator of its own: clocks are not synchronized");
		private_comm = MPI_COMM_NULL;
	} else {
		record_init();
		sync_clocks(TRLOG_SYNC_INIT);
	}
	rec_comm(MPI_COMM_WORLD);
	rec_call_plain(fn, t0, rec_now());
	/* MPI's handlers chained to the log's; the run's name on disk, should the process die early */
	rec_take_signals(false);
	rec_flush();
}

void rec_mpi_ending(void)
{
	if (private_comm == MPI_COMM_NULL)
		return;
	sync_clocks(TRLOG_SYNC_FINALIZE);
	PMPI_Comm_free(&private_comm);
}

void rec_mpi_abort(void)
{
	int64_t t = rec_now();

	rec_call_plain(TRLOG_FN_ABORT, t, t);
	rec_dying(0);
}

void rec_mpi_ended(int64_t t0)
{
	rec_call_plain(TRLOG_FN_FINALIZE, t0, rec_now());
	rec_flush();
}
