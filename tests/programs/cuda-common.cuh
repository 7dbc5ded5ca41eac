/*
 * What the CUDA test programs share (cuda-patterns.cu, cuda-semantics.cu):
 * a kernel whose length is the same on every GPU, and a call checked.
 */
#ifndef CUDA_COMMON_CUH
#define CUDA_COMMON_CUH

#include <cuda_runtime.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* Spin for ns on the GPU's global timer (ns). */
__global__ void spin(unsigned long long ns)
{
	unsigned long long start, now;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
	do
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
	while (now - start < ns);
}

/* Exit 1, saying what failed and why, unless rc is success. */
static void check(cudaError_t rc, const char *what)
{
	if (rc != cudaSuccess) {
		fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what, cudaGetErrorString(rc));
		exit(1);
	}
}

#endif
