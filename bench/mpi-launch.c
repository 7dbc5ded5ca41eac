/*
 * The baseline of bench/mpi: what mpirun -n P costs a program that does
 * nothing but MPI_Init and MPI_Finalize (start-up, wire-up, shutdown),
 * the part of tr-analyze --mpi's wall time that no analysis can save.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Finalize();
	return 0;
}
