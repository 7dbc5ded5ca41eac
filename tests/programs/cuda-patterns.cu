/*
 * A CUDA program with waits of known size, for the test of tr-record's
 * CUDA collector on a GPU (tests/3008; skipped where there is none). In
 * an NVTX range "solve", on two streams of its own and the null stream:
 *
 *   a kernel of DELAY ms (argv[1], 100 by default) on stream a, at once
 *   synchronized: the host waits DELAY in cudaStreamSynchronize;
 *   a kernel of DELAY / 2 on a, an event recorded after it, stream b made
 *   to wait for the event, a short kernel on b: b's kernel is held back
 *   until a's ends;
 *   a short kernel on the null stream, then cudaDeviceSynchronize.
 *
 * Kernels spin on the GPU's global timer (ns), so their length is the
 * same on every GPU.
 */
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda-common.cuh"

int main(int argc, char **argv)
{
	unsigned long long ms = argc > 1 ? strtoull(argv[1], NULL, 10) : 100;
	cudaStream_t a, b;
	cudaEvent_t done;

	check(cudaStreamCreate(&a), "cudaStreamCreate");
	check(cudaStreamCreate(&b), "cudaStreamCreate");
	check(cudaEventCreate(&done), "cudaEventCreate");
	nvtxRangePushA("solve");
	spin<<<1, 1, 0, a>>>(ms * 1000000);
	check(cudaStreamSynchronize(a), "cudaStreamSynchronize");
	spin<<<1, 1, 0, a>>>(ms * 500000);
	check(cudaEventRecord(done, a), "cudaEventRecord");
	check(cudaStreamWaitEvent(b, done, 0), "cudaStreamWaitEvent");
	spin<<<1, 1, 0, b>>>(1000000);
	spin<<<1, 1>>>(1000000);
	check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
	nvtxRangePop();
	printf("cuda-patterns: done\n");
	return 0;
}
