/*
 * bench/record-calls CALLS: 2 ranks exchange CALLS / 2 empty messages
 * back and forth (MPI_Send, MPI_Recv: CALLS MPI calls per rank), and rank
 * 0 prints the seconds the exchange took (after a barrier, to a barrier),
 * for bench/record: the same program with and without tr-record gives the
 * cost of recording one call.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 200000;
	int rank, x = 0;
	double t0, t1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (long i = 0; i < calls / 2; i++) {
		if (rank == 0) {
			MPI_Send(&x, 0, MPI_INT, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(&x, 0, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(&x, 0, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(&x, 0, MPI_INT, 0, 0, MPI_COMM_WORLD);
		}
	}
	MPI_Barrier(MPI_COMM_WORLD);
	t1 = MPI_Wtime();
	if (rank == 0)
		printf("%.9f\n", t1 - t0);
	MPI_Finalize();
	return 0;
}
