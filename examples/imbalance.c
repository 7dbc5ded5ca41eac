/*
 * The example tr-record records (make example): 4 ranks iterate a
 * stencil-like loop whose work is out of balance, and whose exchange has
 * a late sender. Each rank's "compute" is a sleep of known length, so the
 * wait states the analysis finds are known too, per iteration:
 *
 *   - rank r computes 10 + 5 r ms, then all meet in MPI_Barrier: rank r
 *     waits 5 (3 - r) ms there (30 ms in all per iteration);
 *   - rank 0 prepares a halo for 20 ms more and sends it to rank 1, which
 *     posted its receive at once: a late sender, 20 ms;
 *   - all reduce a residual (MPI_Allreduce): rank 1 arrives last, after
 *     the halo, and the others wait for it.
 *
 * mpirun -n 4 tr-record -o run -- examples/imbalance [ITERATIONS]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void compute(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) != 0)
		;
}

int main(int argc, char **argv)
{
	int iterations = argc > 1 ? atoi(argv[1]) : 5;
	int rank, size;
	double halo[256] = { 0 }, residual = 1, sum;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int it = 0; it < iterations; it++) {
		compute(10 + 5 * rank);
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			compute(20);
			MPI_Send(halo, 256, MPI_DOUBLE, 1, it, MPI_COMM_WORLD);
		} else if (rank == 1) {
			MPI_Recv(halo, 256, MPI_DOUBLE, 0, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
		MPI_Allreduce(&residual, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	if (rank == 0)
		printf("imbalance: %d ranks, %d iterations done\n", size, iterations);
	MPI_Finalize();
	return 0;
}
