/*
 * The CUDA variant of examples/imbalance.c (make example builds it where
 * a CUDA toolkit is, and runs it where a GPU is): 4 ranks whose work is a
 * GPU kernel out of balance, rank r's lasting 10 + 5 r ms (it spins on
 * the GPU's global timer), each rank waiting for its kernel in
 * cudaStreamSynchronize, then all meeting in MPI_Barrier: per iteration
 * the host of rank r waits its kernel's length on its GPU, and 5 (3 - r)
 * ms at the barrier for rank 3.
 *
 * mpirun -n 4 tr-record -o run -- examples/imbalance-cuda [ITERATIONS]
 */
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void work(unsigned long long ns)
{
	unsigned long long start, now;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
	do
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
	while (now - start < ns);
}

int main(int argc, char **argv)
{
	int iterations = argc > 1 ? atoi(argv[1]) : 5;
	int rank, size, devices = 0;
	cudaStream_t s;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
		if (rank == 0)
			fprintf(stderr, "imbalance-cuda: no GPU\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	cudaSetDevice(rank % devices);
	cudaStreamCreate(&s);
	for (int it = 0; it < iterations; it++) {
		work<<<1, 1, 0, s>>>((10ull + 5ull * (unsigned long long)rank) * 1000000ull);
		cudaStreamSynchronize(s);
		MPI_Barrier(MPI_COMM_WORLD);
	}
	if (rank == 0)
		printf("imbalance-cuda: %d ranks, %d iterations done\n", size, iterations);
	MPI_Finalize();
	return 0;
}
