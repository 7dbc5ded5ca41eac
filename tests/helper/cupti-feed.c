/*
 * cupti-feed: the CUDA collector's record handling (record/cuda/activity.c
 * and api.c) fed records built from CUPTI's own structs, as CUPTI would
 * deliver them, without a GPU: one host thread in an NVTX range launches
 * a kernel and a copy on the null stream 7, synchronizes with it, records
 * event 5 there, sets memory on stream 8, makes stream 8 wait for the
 * event, and synchronizes the device. The kernel's and the copy's
 * activity records come before their calls' records, the
 * synchronizations' after (CUPTI delivers either way). Times are B + the
 * ns below, B a moment after the start; the log goes to TR_RECORD_DIR.
 * tests/3006-record-cuda.bats checks the stream tr-read makes of it.
 *
 * cupti-feed graph: instead, a CUDA graph replayed (cudaGraphLaunch,
 * correlation id 20) whose three kernels on stream 7 carry its
 * correlation id, as CUPTI gives a graph's work, and a synchronization
 * with the stream after it.
 */
#include <cupti.h>
#include <string.h>
#include <time.h>

#include "../../record/cuda/cudarec.h"
#include "../../record/log.h"

static int64_t B;

static void kernel(uint32_t stream, int64_t t0, int64_t t1, uint32_t corr, const char *name)
{
	CUpti_ActivityKernel10 k;

	memset(&k, 0, sizeof(k));
	k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
	k.contextId = 1;
	k.streamId = stream;
	k.deviceId = 0;
	k.start = (uint64_t)(B + t0);
	k.end = (uint64_t)(B + t1);
	k.correlationId = corr;
	k.name = name;
	rec_cuda_activity((CUpti_Activity *)&k);
}

static void copy(uint32_t stream, int64_t t0, int64_t t1, uint32_t corr, uint8_t kind, uint64_t bytes)
{
	CUpti_ActivityMemcpy6 c;

	memset(&c, 0, sizeof(c));
	c.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
	c.copyKind = kind;
	c.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
	c.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
	c.bytes = bytes;
	c.contextId = 1;
	c.streamId = stream;
	c.start = (uint64_t)(B + t0);
	c.end = (uint64_t)(B + t1);
	c.correlationId = corr;
	rec_cuda_activity((CUpti_Activity *)&c);
}

static void set(uint32_t stream, int64_t t0, int64_t t1, uint32_t corr, uint64_t bytes)
{
	CUpti_ActivityMemset4 s;

	memset(&s, 0, sizeof(s));
	s.kind = CUPTI_ACTIVITY_KIND_MEMSET;
	s.bytes = bytes;
	s.contextId = 1;
	s.streamId = stream;
	s.start = (uint64_t)(B + t0);
	s.end = (uint64_t)(B + t1);
	s.correlationId = corr;
	rec_cuda_activity((CUpti_Activity *)&s);
}

static void sync(CUpti_ActivitySynchronizationType type, uint32_t stream, uint32_t event, int64_t t0,
		 int64_t t1, uint32_t corr)
{
	CUpti_ActivitySynchronization2 s;

	memset(&s, 0, sizeof(s));
	s.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
	s.type = type;
	s.contextId = 1;
	s.streamId = stream;
	s.cudaEventId = event;
	s.start = (uint64_t)(B + t0);
	s.end = (uint64_t)(B + t1);
	s.correlationId = corr;
	rec_cuda_activity((CUpti_Activity *)&s);
}

static void event(uint32_t stream, uint32_t id, uint32_t corr)
{
	CUpti_ActivityCudaEvent2 e;

	memset(&e, 0, sizeof(e));
	e.kind = CUPTI_ACTIVITY_KIND_CUDA_EVENT;
	e.contextId = 1;
	e.streamId = stream;
	e.eventId = id;
	e.correlationId = corr;
	rec_cuda_activity((CUpti_Activity *)&e);
}

static void api(const char *name, int64_t t0, int64_t t1, uint32_t corr)
{
	rec_cuda_api(name, B + t0, B + t1, corr, 0);
}

/* A graph of three kernels replayed on stream 7, then the stream synchronized. */
static void graph(void)
{
	api("cudaGraphLaunch", 1000, 3000, 20);
	kernel(7, 4000, 14000, 20, "_Z5stageILi0EEvPf");
	kernel(7, 14000, 24000, 20, "_Z5stageILi1EEvPf");
	kernel(7, 24000, 44000, 20, "_Z5stageILi2EEvPf");
	api("cudaStreamSynchronize", 5000, 44500, 21);
	sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, 7, CUPTI_SYNCHRONIZATION_INVALID_VALUE,
	     5000, 44500, 21);
}

/* The solver's calls and records (the header's first scenario). */
static void solver(void)
{
	kernel(7, 4000, 104000, 10, "_Z13jacobi_kernelPKfPfi");	/* mangled, as CUPTI names a C++ kernel */
	copy(7, 104000, 114000, 11, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, 4096);
	api("cudaLaunchKernel", 1000, 3000, 10);
	api("cudaMemcpyAsync", 5000, 6000, 11);
	api("cudaStreamSynchronize", 7000, 114500, 12);
	sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, 7, CUPTI_SYNCHRONIZATION_INVALID_VALUE,
	     7000, 114500, 12);
	api("cudaEventRecord", 115000, 116000, 13);
	event(7, 5, 13);
	api("cudaMemsetAsync", 117000, 118000, 14);
	set(8, 119000, 121000, 14, 1024);
	api("cudaStreamWaitEvent", 122000, 123000, 15);
	sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT, 8, 5, 122000, 123000, 15);
	api("cudaDeviceSynchronize", 124000, 125000, 16);
	sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, CUPTI_SYNCHRONIZATION_INVALID_VALUE,
	     CUPTI_SYNCHRONIZATION_INVALID_VALUE, 124000, 125000, 16);
}

int main(int argc, char **argv)
{
	CUpti_ActivityContext3 ctx;
	struct timespec ts = { 0, 1000 };

	B = rec_now() + 10000;
	memset(&ctx, 0, sizeof(ctx));
	ctx.kind = CUPTI_ACTIVITY_KIND_CONTEXT;
	ctx.contextId = 1;
	ctx.deviceId = 0;
	ctx.nullStreamId = 7;
	rec_cuda_activity((CUpti_Activity *)&ctx);

	rec_cuda_range("solver", B);
	if (argc > 1 && !strcmp(argv[1], "graph"))
		graph();
	else
		solver();
	rec_cuda_range(NULL, B + 126000);
	while (rec_now() <= B + 130000)	/* the end record comes after every record's time */
		nanosleep(&ts, NULL);
	return 0;
}
