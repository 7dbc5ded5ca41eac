/*
 * One kernel on 1 to 4 streams at a problem size given, for measuring
 * tr-project's projection of a kernel's speed-up where kernels overlap
 * (the seed paper's Figure 9 set-up), under tr-record on a GPU:
 *   streams STREAMS WORK ITERATIONS HOST_US
 * An iteration launches the kernel once on each of STREAMS streams, each
 * followed by a 4 KiB copy of its result back to pinned host memory on
 * the same stream, computes HOST_US µs on the host meanwhile, and waits
 * for the device in cudaDeviceSynchronize. The kernel is compute bound:
 * each of its threads runs WORK dependent multiply-adds, on as many blocks
 * as the GPU has multiprocessors, so that several streams contend for the
 * multiprocessors' issue slots (a kernel takes longer when others run
 * beside it) without filling the GPU's thread slots. The iterations run
 * in the NVTX range "loop", after a warm-up outside it; the program
 * prints the range's length.
 */
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { THREADS = 256, COPIED = 1024, MAX_STREAMS = 16 };

__global__ void compute(float *x, int work)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = x[i];

	for (int k = 0; k < work; k++)
		v = v * 0.999999f + 0.5f;
	x[i] = v;
}

static void check(cudaError_t rc, const char *what)
{
	if (rc != cudaSuccess) {
		fprintf(stderr, "streams: %s: %s\n", what, cudaGetErrorString(rc));
		exit(1);
	}
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The host's share of an iteration: a busy wait of us µs. */
static void host_work(long us)
{
	double until = seconds() + (double)us / 1e6;

	while (seconds() < until)
		;
}

static void iteration(int streams, cudaStream_t *s, float **x, float **back, int blocks, int work, long host_us)
{
	for (int i = 0; i < streams; i++) {
		compute<<<blocks, THREADS, 0, s[i]>>>(x[i], work);
		check(cudaMemcpyAsync(back[i], x[i], COPIED * sizeof(float), cudaMemcpyDeviceToHost, s[i]),
		      "cudaMemcpyAsync");
	}
	host_work(host_us);
	check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

int main(int argc, char **argv)
{
	cudaStream_t s[MAX_STREAMS];
	float *x[MAX_STREAMS], *back[MAX_STREAMS];
	int streams, work, iterations, blocks;
	long host_us;
	double t0, loop;

	if (argc != 5 || (streams = atoi(argv[1])) < 1 || streams > MAX_STREAMS || (work = atoi(argv[2])) < 1 ||
	    (iterations = atoi(argv[3])) < 1 || (host_us = atol(argv[4])) < 0) {
		fprintf(stderr, "usage: streams STREAMS(1-%d) WORK ITERATIONS HOST_US\n", MAX_STREAMS);
		return 2;
	}
	check(cudaDeviceGetAttribute(&blocks, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
	for (int i = 0; i < streams; i++) {
		check(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking), "cudaStreamCreate");
		check(cudaMalloc(&x[i], (size_t)blocks * THREADS * sizeof(float)), "cudaMalloc");
		check(cudaMemset(x[i], 0, (size_t)blocks * THREADS * sizeof(float)), "cudaMemset");
		check(cudaMallocHost(&back[i], COPIED * sizeof(float)), "cudaMallocHost");
	}
	iteration(streams, s, x, back, blocks, work, host_us);
	nvtxRangePushA("loop");
	t0 = seconds();
	for (int it = 0; it < iterations; it++)
		iteration(streams, s, x, back, blocks, work, host_us);
	loop = seconds() - t0;
	nvtxRangePop();
	printf("streams: %d streams, work %d, %d iterations: loop %.6f s (%g)\n", streams, work, iterations, loop,
	       (double)back[0][0]);
	return 0;
}
