/*
 * Which CUDA calls make the host wait for work already running, measured
 * rather than assumed (tr-deps' rules, docs/stream.md): for each call
 * below, a kernel of DELAY ms (argv[1], 20 by default) is launched on a
 * stream of its own, then the call is made at once, in an NVTX range named
 * after it; cudaDeviceSynchronize ends each probe. Under tr-record, a call
 * that returns before the kernel ends does not wait for it; one that
 * returns after it does. tools/gpu-fixtures records it (part semantics).
 *
 *   malloc          cudaMalloc of 1 MiB
 *   malloc-host     cudaMallocHost of 1 MiB
 *   free            cudaFree
 *   free-host       cudaFreeHost
 *   memset          cudaMemset of device memory
 *   htod-pageable   cudaMemcpy of 64 MiB from malloc'd memory to the device
 *   htod-pinned     the same from cudaMallocHost's memory
 *   dtoh-pageable   cudaMemcpy of 64 MiB from the device to malloc'd memory
 *   dtod            cudaMemcpy of 64 MiB within the device
 *
 * The copies are large, so that a copy that runs after its call returned
 * (staged pageable memory) shows.
 */
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda-common.cuh"

enum { SMALL = 1 << 20, BIG = 64 << 20 };

/* A kernel of ns running on s, then the probe named what, then the device synchronized. */
#define PROBE(what, call)                                              \
	do {                                                           \
		spin<<<1, 1, 0, s>>>(ns);                              \
		nvtxRangePushA(what);                                  \
		check(call, what);                                     \
		nvtxRangePop();                                        \
		check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); \
	} while (0)

int main(int argc, char **argv)
{
	unsigned long long ns = (argc > 1 ? strtoull(argv[1], NULL, 10) : 20) * 1000000ull;
	void *dev, *dev2, *small, *pinned, *pinned_small;
	char *pageable = (char *)calloc(BIG, 1);
	cudaStream_t s;

	if (!pageable) {
		fprintf(stderr, "cuda-semantics: out of memory\n");
		return 1;
	}
	check(cudaStreamCreate(&s), "cudaStreamCreate");
	check(cudaMalloc(&dev, BIG), "cudaMalloc");
	check(cudaMalloc(&dev2, BIG), "cudaMalloc");
	check(cudaMallocHost(&pinned, BIG), "cudaMallocHost");
	check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
	PROBE("malloc", cudaMalloc(&small, SMALL));
	PROBE("malloc-host", cudaMallocHost(&pinned_small, SMALL));
	PROBE("free", cudaFree(small));
	PROBE("free-host", cudaFreeHost(pinned_small));
	PROBE("memset", cudaMemset(dev, 1, BIG));
	PROBE("htod-pageable", cudaMemcpy(dev, pageable, BIG, cudaMemcpyHostToDevice));
	PROBE("htod-pinned", cudaMemcpy(dev, pinned, BIG, cudaMemcpyHostToDevice));
	PROBE("dtoh-pageable", cudaMemcpy(pageable, dev, BIG, cudaMemcpyDeviceToHost));
	PROBE("dtod", cudaMemcpy(dev2, dev, BIG, cudaMemcpyDeviceToDevice));
	printf("cuda-semantics: done (%d)\n", pageable[0]);
	return 0;
}
