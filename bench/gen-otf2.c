/*
 * gen-otf2: write an OTF2 archive the way Score-P records an iterative
 * MPI + CUDA + OpenMP program (a Jacobi solver), with imbalance, at any
 * size, the same for the same seed. Used by the benchmarks, and by tests
 * as a fixture whose every event follows from the options.
 *
 * Per iteration and rank: an OpenMP parallel loop with imbalanced threads
 * and an implicit barrier; a kernel launch, then a blocking DtoH copy
 * (even iterations) or a stream synchronization (odd ones); a Sendrecv
 * around a ring; an Allreduce; a stretch of CPU work of random length.
 *
 * With -m, one process without MPI (no Init, Sendrecv, Allreduce or
 * Finalize), as a PyTorch or Nsight trace of one process is.
 *
 * With -f P, the paper's offload experiment (Schmitt et al. 2017, Figure
 * 10): each iteration's 100 us of work, P % of it offloaded, the kernel
 * running while the host threads compute the rest (no imbalance), then a
 * stream synchronization; the CPU work after the Allreduce takes 10 us on
 * every rank. Every time follows from P and the options, none is random.
 *
 * With -g S, a GPU-heavy offload program instead: S GPU streams per rank,
 * stream 0 the null stream, and per iteration the CUDA work of offload_step
 * (kernels on every stream, an event waited for by another stream, an async
 * copy polled with cuEventQuery, cuStreamQuery, a (late) cuStreamSynchronize,
 * a null-stream kernel, a context synchronization), then the Allreduce and
 * the CPU work.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <otf2/otf2.h>

#include "../libstream/roles.h"

static void die(const char *what)
{
	fprintf(stderr, "gen-otf2: %s\n", what);
	exit(1);
}

static void usage(void)
{
	fprintf(stderr, "usage: gen-otf2 [-am] [-f offload-%%] [-g gpu-streams] [-i iterations] "
		"[-k skew] [-o offset] [-r ranks] [-R resolution] [-s seed] [-t threads] dir/name\n");
	exit(2);
}

/* --- definitions ------------------------------------------------------ */

enum {
	R_MAIN, R_INIT, R_FINALIZE, R_PARALLEL, R_LOOP, R_BARRIER, R_UPDATE,
	R_SENDRECV, R_ALLREDUCE, R_LAUNCH, R_MEMCPY_DTOH, R_MEMCPY_HTOD,
	R_STREAM_SYNC, R_MALLOC, R_KERNEL, R__FIXED
};

/* The offload program's regions, defined with -g only (after -a's). */
enum {
	O_MEMCPY_DTOH_ASYNC, O_EVENT_RECORD, O_EVENT_QUERY, O_EVENT_SYNC, O_STREAM_WAIT,
	O_STREAM_QUERY, O_CTX_SYNC, O_HALO_KERNEL, O__COUNT
};

static const char *const offload_regions[O__COUNT] = {
	[O_MEMCPY_DTOH_ASYNC] = "cuMemcpyDtoHAsync_v2", [O_EVENT_RECORD] = "cuEventRecord",
	[O_EVENT_QUERY] = "cuEventQuery", [O_EVENT_SYNC] = "cuEventSynchronize",
	[O_STREAM_WAIT] = "cuStreamWaitEvent", [O_STREAM_QUERY] = "cuStreamQuery",
	[O_CTX_SYNC] = "cuCtxSynchronize", [O_HALO_KERNEL] = "halo_kernel",
};

static const struct {
	const char *name;
	OTF2_RegionRole role;
	OTF2_Paradigm paradigm;
} fixed_regions[R__FIXED] = {
	[R_MAIN] = { "main", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER },
	[R_INIT] = { "MPI_Init", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI },
	[R_FINALIZE] = { "MPI_Finalize", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI },
	[R_PARALLEL] = { "!$omp parallel @jacobi.c:171", OTF2_REGION_ROLE_PARALLEL, OTF2_PARADIGM_OPENMP },
	[R_LOOP] = { "!$omp for @jacobi.c:175", OTF2_REGION_ROLE_LOOP, OTF2_PARADIGM_OPENMP },
	[R_BARRIER] = { "!$omp implicit barrier @jacobi.c:198", OTF2_REGION_ROLE_IMPLICIT_BARRIER, OTF2_PARADIGM_OPENMP },
	[R_UPDATE] = { "update_halo", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER },
	[R_SENDRECV] = { "MPI_Sendrecv", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI },
	[R_ALLREDUCE] = { "MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_PARADIGM_MPI },
	[R_LAUNCH] = { "cuLaunchKernel", OTF2_REGION_ROLE_WRAPPER, OTF2_PARADIGM_CUDA },
	[R_MEMCPY_DTOH] = { "cuMemcpyDtoH_v2", OTF2_REGION_ROLE_WRAPPER, OTF2_PARADIGM_CUDA },
	[R_MEMCPY_HTOD] = { "cuMemcpyHtoD_v2", OTF2_REGION_ROLE_WRAPPER, OTF2_PARADIGM_CUDA },
	[R_STREAM_SYNC] = { "cuStreamSynchronize", OTF2_REGION_ROLE_WRAPPER, OTF2_PARADIGM_CUDA },
	[R_MALLOC] = { "cuMemAlloc_v2", OTF2_REGION_ROLE_WRAPPER, OTF2_PARADIGM_CUDA },
	[R_KERNEL] = { "jacobi_kernel", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_CUDA },
};

enum { A_STREAM_REF, A_EVENT_REF, A_RESULT };
enum { G_MPI_LOCATIONS, G_MPI_WORLD, G_OMP_LOCATIONS, G_CUDA_LOCATIONS, G__FIXED };

/* Communicators: 0 is MPI_COMM_WORLD, then each rank's thread team, then
 * each rank's CUDA window. */
#define TEAM_COMM(r) (1 + (r))
#define CUDA_COMM(g, r) (1 + (g)->o.ranks + (r))

struct options {
	uint32_t ranks, threads, gpus;	/* gpus: GPU streams per rank; more than 1 with -g */
	uint64_t iterations, seed, resolution, offset;
	int64_t skew;		/* ticks rank 1's clock is behind, as ClockOffset records say */
	bool all_api;
	bool no_mpi;		/* -m: one process, no MPI calls */
	uint32_t offload_pct;	/* -f: the share of work offloaded (%), 0: the Jacobi program */
	const char *path;
};

struct gen {
	struct options o;
	OTF2_Archive *archive;
	OTF2_EvtWriter **w;		/* [rank * (threads + gpus) + k]; k >= threads: GPU */
	OTF2_AttributeList *attrs;
	uint64_t state;			/* PCG-style generator */
	uint64_t *now;			/* ns, per rank (master thread) */
	uint64_t *gpu_free;		/* ns, per rank and GPU stream */
	uint64_t end;			/* latest time written */
	uint64_t callsite;		/* the offload program's last callsite id */
	uint32_t offload_base;		/* region id of offload_regions[0] */
};

static uint64_t rnd(struct gen *g, uint64_t n)
{
	g->state = g->state * 6364136223846793005u + 1442695040888963407u;
	return (g->state >> 33) % n;
}

static OTF2_LocationRef master(uint32_t rank)
{
	return rank;
}

static OTF2_LocationRef thread_loc(const struct gen *g, uint32_t rank, uint32_t k)
{
	(void)g;
	return (OTF2_LocationRef)k << 32 | rank;
}

static OTF2_LocationRef gpu_loc(const struct gen *g, uint32_t rank, uint32_t stream)
{
	return (OTF2_LocationRef)(g->o.threads + stream) << 32 | rank;
}

/* k: the rank's threads, then its GPU streams */
static OTF2_LocationRef location(const struct gen *g, uint32_t rank, uint32_t k)
{
	return k < g->o.threads ? thread_loc(g, rank, k) : gpu_loc(g, rank, k - g->o.threads);
}

static OTF2_EvtWriter *writer(struct gen *g, uint32_t rank, uint32_t k)
{
	return g->w[rank * (g->o.threads + g->o.gpus) + k];
}

static uint64_t *gpu_free(struct gen *g, uint32_t rank, uint32_t stream)
{
	return &g->gpu_free[rank * g->o.gpus + stream];
}

/* ns of the run to ticks of the archive's clock. */
static OTF2_TimeStamp ticks(const struct gen *g, uint64_t ns)
{
	return g->o.offset + (OTF2_TimeStamp)((unsigned __int128)ns * g->o.resolution / 1000000000u);
}

static void note_end(struct gen *g, uint64_t t)
{
	if (t > g->end)
		g->end = t;
}

static void enter(struct gen *g, OTF2_EvtWriter *w, uint64_t t, uint32_t region)
{
	OTF2_EvtWriter_Enter(w, g->attrs, ticks(g, t), region);
}

static void leave(struct gen *g, OTF2_EvtWriter *w, uint64_t t, uint32_t region)
{
	OTF2_EvtWriter_Leave(w, g->attrs, ticks(g, t), region);
	note_end(g, t);
}

/* --- the program -------------------------------------------------------- */

/* The threads' loop, each doing len ns of work (0: 20-28 us, imbalanced). */
static void omp_loop(struct gen *g, uint32_t r, uint64_t len)
{
	uint64_t t0 = g->now[r], slowest = 0, *work = calloc(g->o.threads, sizeof(*work));

	if (!work)
		die("out of memory");
	for (uint32_t k = 0; k < g->o.threads; k++) {
		work[k] = len ? len : 20000 + rnd(g, 8000);	/* up to 40% imbalance */
		if (work[k] > slowest)
			slowest = work[k];
	}
	enter(g, writer(g, r, 0), t0, R_PARALLEL);
	OTF2_EvtWriter_ThreadFork(writer(g, r, 0), NULL, ticks(g, t0 + 10), OTF2_PARADIGM_OPENMP, g->o.threads);
	for (uint32_t k = 0; k < g->o.threads; k++) {
		OTF2_EvtWriter *w = writer(g, r, k);

		OTF2_EvtWriter_ThreadTeamBegin(w, NULL, ticks(g, t0 + 20), TEAM_COMM(r));
		enter(g, w, t0 + 30, R_LOOP);
		leave(g, w, t0 + 30 + work[k], R_LOOP);
		enter(g, w, t0 + 30 + work[k], R_BARRIER);
		leave(g, w, t0 + 80 + slowest, R_BARRIER);
		OTF2_EvtWriter_ThreadTeamEnd(w, NULL, ticks(g, t0 + 90 + slowest), TEAM_COMM(r));
	}
	OTF2_EvtWriter_ThreadJoin(writer(g, r, 0), NULL, ticks(g, t0 + 100 + slowest), OTF2_PARADIGM_OPENMP);
	leave(g, writer(g, r, 0), t0 + 110 + slowest, R_PARALLEL);
	g->now[r] = t0 + 120 + slowest;
	free(work);
}

/* cuLaunchKernel at t, taking len ns, of a kernel of dur ns on a stream,
 * which begins once the stream is free and not before ready; returns when
 * the kernel ends. */
static uint64_t launch(struct gen *g, uint32_t r, uint64_t t, uint64_t len, uint64_t callsite,
		       uint32_t stream, uint64_t ready, uint64_t dur, uint32_t kernel)
{
	OTF2_EvtWriter *host = writer(g, r, 0), *dev = writer(g, r, g->o.threads + stream);
	uint64_t *free_at = gpu_free(g, r, stream), start = t + 3000;

	if (*free_at > start)
		start = *free_at;
	if (ready > start)
		start = ready;
	OTF2_AttributeList_AddLocationRef(g->attrs, A_STREAM_REF, gpu_loc(g, r, stream));
	enter(g, host, t, R_LAUNCH);
	OTF2_EvtWriter_ParameterUnsignedInt(host, NULL, ticks(g, t + 10), 0, callsite);
	leave(g, host, t + len, R_LAUNCH);
	enter(g, dev, start, kernel);
	OTF2_EvtWriter_ParameterUnsignedInt(dev, NULL, ticks(g, start), 0, callsite);
	leave(g, dev, start + dur, kernel);
	*free_at = start + dur;
	return start + dur;
}

static void cuda_step(struct gen *g, uint32_t r, uint64_t i)
{
	OTF2_EvtWriter *host = writer(g, r, 0), *dev = writer(g, r, g->o.threads);
	uint64_t t = g->now[r], kend, done;

	kend = launch(g, r, t, 5000, i * g->o.ranks + r + 1, 0, 0, 30000 + rnd(g, 15000), R_KERNEL);
	if (i % 2 == 0) {
		/* a blocking copy waits for the kernel, then copies */
		enter(g, host, t + 5200, R_MEMCPY_DTOH);
		OTF2_EvtWriter_RmaPut(dev, NULL, ticks(g, kend + 100), r, 0, 4096, 42);
		OTF2_EvtWriter_RmaOpCompleteBlocking(dev, NULL, ticks(g, kend + 2100), r, 42);
		done = kend + 2200;
		leave(g, host, done, R_MEMCPY_DTOH);
	} else {
		OTF2_AttributeList_AddLocationRef(g->attrs, A_STREAM_REF, gpu_loc(g, r, 0));
		enter(g, host, t + 5200, R_STREAM_SYNC);
		done = kend + 300;
		leave(g, host, done, R_STREAM_SYNC);
	}
	*gpu_free(g, r, 0) = kend + 2100;
	g->now[r] = done + 100;
}

/* -f: launch the kernel, compute the rest on the host meanwhile, synchronize. */
static void overlapped_step(struct gen *g, uint32_t r, uint64_t i)
{
	OTF2_EvtWriter *host = writer(g, r, 0);
	uint64_t work = 100000, kernel = work * g->o.offload_pct / 100, kend, done;

	kend = launch(g, r, g->now[r], 5000, i * g->o.ranks + r + 1, 0, 0, kernel, R_KERNEL);
	g->now[r] += 5100;
	omp_loop(g, r, work - kernel);
	OTF2_AttributeList_AddLocationRef(g->attrs, A_STREAM_REF, gpu_loc(g, r, 0));
	enter(g, host, g->now[r], R_STREAM_SYNC);
	done = (kend > g->now[r] ? kend : g->now[r]) + 300;
	leave(g, host, done, R_STREAM_SYNC);
	g->now[r] = done + 100;
}

static void sendrecv(struct gen *g, uint64_t i)
{
	uint32_t n = g->o.ranks;
	uint64_t *send = malloc(n * sizeof(*send));

	if (!send)
		die("out of memory");
	for (uint32_t r = 0; r < n; r++) {
		send[r] = g->now[r] + 100;
		enter(g, writer(g, r, 0), g->now[r], R_SENDRECV);
		OTF2_EvtWriter_MpiSend(writer(g, r, 0), NULL, ticks(g, send[r]), (r + 1) % n, 0,
				       (uint32_t)(i % 100), 8192);
	}
	for (uint32_t r = 0; r < n; r++) {
		uint32_t left = (r + n - 1) % n;
		uint64_t arrive = (send[left] > send[r] ? send[left] : send[r]) + 2000;

		OTF2_EvtWriter_MpiRecv(writer(g, r, 0), NULL, ticks(g, arrive), left, 0,
				       (uint32_t)(i % 100), 8192);
		leave(g, writer(g, r, 0), arrive + 100, R_SENDRECV);
		g->now[r] = arrive + 200;
	}
	free(send);
}

static void allreduce(struct gen *g)
{
	uint64_t last = 0;

	for (uint32_t r = 0; r < g->o.ranks; r++) {
		enter(g, writer(g, r, 0), g->now[r], R_ALLREDUCE);
		OTF2_EvtWriter_MpiCollectiveBegin(writer(g, r, 0), NULL, ticks(g, g->now[r] + 50));
		if (g->now[r] + 50 > last)
			last = g->now[r] + 50;
	}
	for (uint32_t r = 0; r < g->o.ranks; r++) {
		OTF2_EvtWriter_MpiCollectiveEnd(writer(g, r, 0), NULL, ticks(g, last + 3000),
						OTF2_COLLECTIVE_OP_ALLREDUCE, 0,
						OTF2_UNDEFINED_UINT32, 8, 8);
		leave(g, writer(g, r, 0), last + 3050, R_ALLREDUCE);
		/* CPU work whose length differs by rank: the next Sendrecv waits */
		enter(g, writer(g, r, 0), last + 3100, R_UPDATE);
		g->now[r] = last + 3100 + (g->o.offload_pct ? 10000 : 5000 + rnd(g, 10000));
		leave(g, writer(g, r, 0), g->now[r], R_UPDATE);
		g->now[r] += 100;
	}
}

/* --- the offload program (-g) ------------------------------------------ */

/* A host call of region at t that takes len ns, on a stream (or none: ~0u),
 * an event (or none: 0), with a result (or none: ~0u); returns its leave. */
static uint64_t call(struct gen *g, uint32_t r, uint64_t t, uint64_t len, uint32_t region,
		     uint32_t stream, uint64_t event, uint32_t result)
{
	OTF2_EvtWriter *host = writer(g, r, 0);

	if (stream != ~0u)
		OTF2_AttributeList_AddLocationRef(g->attrs, A_STREAM_REF, gpu_loc(g, r, stream));
	if (event)
		OTF2_AttributeList_AddUint64(g->attrs, A_EVENT_REF, event);
	enter(g, host, t, region);
	if (result != ~0u)
		OTF2_AttributeList_AddUint32(g->attrs, A_RESULT, result);
	leave(g, host, t + len, region);
	return t + len;
}

static uint32_t offload(const struct gen *g, uint32_t which)
{
	return g->offload_base + which;
}

/* The CUDA event a rank records on a stream (an address, as Score-P has it). */
static uint64_t cuda_event(uint32_t r, uint32_t stream)
{
	return 0x7f0000000000u | (uint64_t)r << 16 | stream;
}

/* The offload program's launch at t, with the next callsite id; returns
 * when the host goes on. */
static uint64_t kernel(struct gen *g, uint32_t r, uint64_t t, uint32_t stream, uint64_t ready,
		       uint64_t dur, uint32_t region)
{
	launch(g, r, t, 2000, ++g->callsite, stream, ready, dur, region);
	return t + 2100;
}

/* cuMemcpyDtoHAsync at t on a stream: the copy runs once the stream is free. */
static uint64_t copy_async(struct gen *g, uint32_t r, uint64_t t, uint32_t stream)
{
	OTF2_EvtWriter *dev = writer(g, r, g->o.threads + stream);
	uint64_t *free_at = gpu_free(g, r, stream), start = t + 2000;

	if (*free_at > start)
		start = *free_at;
	t = call(g, r, t, 1500, offload(g, O_MEMCPY_DTOH_ASYNC), stream, 0, ~0u);
	OTF2_EvtWriter_RmaPut(dev, NULL, ticks(g, start), r, 0, 65536, 42);
	*free_at = start + 4000 + rnd(g, 4000);
	OTF2_EvtWriter_RmaOpCompleteBlocking(dev, NULL, ticks(g, *free_at), r, 42);
	note_end(g, *free_at);
	return t + 100;
}

/* A blocking call at t that returns 200 ns after done (300 ns at least). */
static uint64_t blocking(struct gen *g, uint32_t r, uint64_t t, uint64_t done, uint32_t region,
			 uint32_t stream, uint64_t event)
{
	uint64_t len = done + 200 > t + 300 ? done + 200 - t : 300;

	return call(g, r, t, len, region, stream, event, ~0u) + 100;
}

static void offload_step(struct gen *g, uint32_t r)
{
	uint32_t S = g->o.gpus, last = S - 1;
	uint64_t t = g->now[r], done, latest = 0;
	int polls;

	/* a kernel on every stream but the null stream */
	for (uint32_t s = 1; s < S; s++)
		t = kernel(g, r, t, s, 0, 15000 + rnd(g, 30000), R_KERNEL);
	/* stream 1's next kernel waits for the last stream's, through an event */
	if (last > 1) {
		t = call(g, r, t, 500, offload(g, O_EVENT_RECORD), last, cuda_event(r, last), ~0u) + 100;
		done = *gpu_free(g, r, last);
		t = call(g, r, t, 500, offload(g, O_STREAM_WAIT), 1, cuda_event(r, last), ~0u) + 100;
		t = kernel(g, r, t, 1, done, 10000 + rnd(g, 10000), offload(g, O_HALO_KERNEL));
	}
	/* an async copy on stream 1, polled through its event: up to six
	 * tries, then a blocking cuEventSynchronize */
	t = copy_async(g, r, t, 1);
	t = call(g, r, t, 500, offload(g, O_EVENT_RECORD), 1, cuda_event(r, 1), ~0u) + 100;
	done = *gpu_free(g, r, 1);
	for (polls = 0; polls < 6 && t + 300 < done; polls++)
		t = call(g, r, t, 300, offload(g, O_EVENT_QUERY), ~0u, cuda_event(r, 1), 600) + 8000;
	if (t + 300 >= done)
		t = call(g, r, t, 300, offload(g, O_EVENT_QUERY), ~0u, cuda_event(r, 1), 0) + 100;
	else
		t = blocking(g, r, t, done, offload(g, O_EVENT_SYNC), ~0u, cuda_event(r, 1));
	/* the other streams asked once each, the last one synchronized (mostly
	 * late: it has finished), and each given a second kernel */
	for (uint32_t s = 2; s < S; s++)
		t = call(g, r, t, 300, offload(g, O_STREAM_QUERY), s, 0,
			 t + 300 >= *gpu_free(g, r, s) ? 0 : 600) + 100;
	t = blocking(g, r, t, *gpu_free(g, r, last), R_STREAM_SYNC, last, 0);
	for (uint32_t s = 2; s < S; s++)
		t = kernel(g, r, t, s, 0, 5000 + rnd(g, 20000), R_KERNEL);
	/* a kernel on the null stream waits for all earlier work on the others,
	 * and later work on them for it */
	for (uint32_t s = 1; s < S; s++)
		if (*gpu_free(g, r, s) > latest)
			latest = *gpu_free(g, r, s);
	t = kernel(g, r, t, 0, latest, 5000 + rnd(g, 5000), R_KERNEL);
	for (uint32_t s = 1; s < S; s++)
		*gpu_free(g, r, s) = *gpu_free(g, r, 0);
	g->now[r] = blocking(g, r, t, *gpu_free(g, r, 0), offload(g, O_CTX_SYNC), ~0u, 0);
}

/* One call of every API name in the role table, with the attributes the
 * rules read, on rank 0's master thread. Regions from R__FIXED on. */
static void all_api(struct gen *g)
{
	OTF2_EvtWriter *w = writer(g, 0, 0);
	enum ls_role role;
	const char *name;

	for (int i = 0; (name = ls_role_table_name(i, &role)); i++) {
		uint64_t t = g->now[0];

		if (role == LS_R_LAUNCH || role == LS_R_STREAM_SYNC || role == LS_R_STREAM_QUERY ||
		    role == LS_R_EVENT_RECORD || role == LS_R_STREAM_WAIT || role == LS_R_MEMCPY_ASYNC)
			OTF2_AttributeList_AddLocationRef(g->attrs, A_STREAM_REF, gpu_loc(g, 0, 0));
		if (role == LS_R_EVENT_RECORD || role == LS_R_EVENT_SYNC ||
		    role == LS_R_EVENT_QUERY || role == LS_R_STREAM_WAIT)
			OTF2_AttributeList_AddUint64(g->attrs, A_EVENT_REF, 0xbeef);
		enter(g, w, t, R__FIXED + (uint32_t)i);
		if (role == LS_R_EVENT_QUERY || role == LS_R_STREAM_QUERY)
			OTF2_AttributeList_AddUint32(g->attrs, A_RESULT, 600);	/* CUDA_ERROR_NOT_READY */
		leave(g, w, t + 100, R__FIXED + (uint32_t)i);
		g->now[0] = t + 200;
	}
}

static void run_program(struct gen *g)
{
	for (uint32_t r = 0; r < g->o.ranks; r++) {
		OTF2_EvtWriter *host = writer(g, r, 0), *dev = writer(g, r, g->o.threads);
		uint64_t t = 1000 * r;

		enter(g, host, t, R_MAIN);
		if (!g->o.no_mpi) {
			enter(g, host, t + 100, R_INIT);
			leave(g, host, t + 50000, R_INIT);
		}
		enter(g, host, t + 50100, R_MALLOC);
		leave(g, host, t + 60000, R_MALLOC);
		enter(g, host, t + 60100, R_MEMCPY_HTOD);
		OTF2_EvtWriter_RmaGet(dev, NULL, ticks(g, t + 61000), r, 0, 1 << 20, 42);
		OTF2_EvtWriter_RmaOpCompleteBlocking(dev, NULL, ticks(g, t + 90000), r, 42);
		leave(g, host, t + 90100, R_MEMCPY_HTOD);
		g->now[r] = t + 90200;
		for (uint32_t s = 0; s < g->o.gpus; s++)
			*gpu_free(g, r, s) = t + 90000;
	}
	if (g->o.all_api)
		all_api(g);
	for (uint64_t i = 0; i < g->o.iterations; i++) {
		if (g->o.gpus > 1) {
			for (uint32_t r = 0; r < g->o.ranks; r++)
				offload_step(g, r);
			if (!g->o.no_mpi)
				allreduce(g);
			continue;
		}
		for (uint32_t r = 0; r < g->o.ranks; r++) {
			if (g->o.offload_pct) {
				overlapped_step(g, r, i);
				continue;
			}
			omp_loop(g, r, 0);
			cuda_step(g, r, i);
		}
		if (!g->o.no_mpi) {
			sendrecv(g, i);
			allreduce(g);
		}
	}
	for (uint32_t r = 0; r < g->o.ranks; r++) {
		if (!g->o.no_mpi) {
			enter(g, writer(g, r, 0), g->now[r], R_FINALIZE);
			leave(g, writer(g, r, 0), g->now[r] + 20000, R_FINALIZE);
		}
		leave(g, writer(g, r, 0), g->now[r] + 20100, R_MAIN);
	}
}

/* --- the archive ------------------------------------------------------- */

static OTF2_FlushType pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef loc,
				void *caller, bool final)
{
	(void)data, (void)type, (void)loc, (void)caller, (void)final;
	return OTF2_FLUSH;
}

static uint32_t nstrings;

static OTF2_StringRef str(OTF2_GlobalDefWriter *d, const char *s)
{
	OTF2_GlobalDefWriter_WriteString(d, nstrings, s);
	return nstrings++;
}

static OTF2_Paradigm paradigm_of(const char *name)
{
	if (strncmp(name, "MPI_", 4) == 0)
		return OTF2_PARADIGM_MPI;
	if (strncmp(name, "hip", 3) == 0)
		return OTF2_PARADIGM_HIP;
	if (strncmp(name, "cl", 2) == 0)
		return OTF2_PARADIGM_OPENCL;
	if (strncmp(name, "omp_", 4) == 0)
		return OTF2_PARADIGM_OPENMP;
	return OTF2_PARADIGM_CUDA;
}

static void write_definitions(struct gen *g)
{
	OTF2_GlobalDefWriter *d = OTF2_Archive_GetGlobalDefWriter(g->archive);
	uint32_t R = g->o.ranks, T = g->o.threads, G = g->o.gpus;
	uint64_t *members = malloc((size_t)R * (T + G) * sizeof(*members));
	OTF2_StringRef empty, s_master, s_gpu, s_node;
	enum ls_role role;
	const char *name;
	char buf[64];

	if (!d || !members)
		die("cannot write the definitions");
	empty = str(d, "");
	OTF2_GlobalDefWriter_WriteClockProperties(d, g->o.resolution, g->o.offset,
						  ticks(g, g->end) - g->o.offset + 1,
						  OTF2_UNDEFINED_TIMESTAMP);
	s_node = str(d, "node");
	OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, str(d, "gen-otf2"), s_node,
						 OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	s_master = str(d, "Master thread");
	for (uint32_t r = 0; r < R; r++) {
		/* Score-P names an MPI process by its rank, others "Process" */
		snprintf(buf, sizeof(buf), g->o.no_mpi ? "Process" : "MPI Rank %u", r);
		OTF2_GlobalDefWriter_WriteLocationGroup(d, r, str(d, buf), OTF2_LOCATION_GROUP_TYPE_PROCESS,
							0, OTF2_UNDEFINED_LOCATION_GROUP);
	}
	snprintf(buf, sizeof(buf), "CUDA[0:7]");
	s_gpu = str(d, buf);
	for (uint32_t r = 0; r < R; r++) {
		for (uint32_t k = 0; k < T + G; k++) {
			uint64_t n;

			OTF2_EvtWriter_GetNumberOfEvents(writer(g, r, k), &n);
			if (k == 0) {
				OTF2_GlobalDefWriter_WriteLocation(d, master(r), s_master,
								   OTF2_LOCATION_TYPE_CPU_THREAD, n, r);
			} else if (k < T) {
				snprintf(buf, sizeof(buf), "OMP thread %u", k);
				OTF2_GlobalDefWriter_WriteLocation(d, thread_loc(g, r, k), str(d, buf),
								   OTF2_LOCATION_TYPE_CPU_THREAD, n, r);
			} else {
				if (k > T)
					snprintf(buf, sizeof(buf), "CUDA[0:%u]", 7 + k - T);
				OTF2_GlobalDefWriter_WriteLocation(d, location(g, r, k),
								   k > T ? str(d, buf) : s_gpu,
								   OTF2_LOCATION_TYPE_ACCELERATOR_STREAM, n, r);
			}
		}
	}
	if (G > 1) {
		OTF2_StringRef s_null = str(d, "CUDA_NULL_STREAM");
		OTF2_AttributeValue one = { .uint64 = 1 };

		for (uint32_t r = 0; r < R; r++)
			OTF2_GlobalDefWriter_WriteLocationProperty(d, gpu_loc(g, r, 0), s_null,
								   OTF2_TYPE_UINT64, one);
	}
	for (uint32_t i = 0; i < R__FIXED; i++)
		OTF2_GlobalDefWriter_WriteRegion(d, i, str(d, fixed_regions[i].name), 0, empty,
						 fixed_regions[i].role, fixed_regions[i].paradigm,
						 OTF2_REGION_FLAG_NONE, empty, 0, 0);
	for (int i = 0; g->o.all_api && (name = ls_role_table_name(i, &role)); i++)
		OTF2_GlobalDefWriter_WriteRegion(d, R__FIXED + (uint32_t)i, str(d, name), 0, empty,
						 OTF2_REGION_ROLE_WRAPPER, paradigm_of(name),
						 OTF2_REGION_FLAG_NONE, empty, 0, 0);
	for (uint32_t i = 0; G > 1 && i < O__COUNT; i++)
		OTF2_GlobalDefWriter_WriteRegion(d, g->offload_base + i, str(d, offload_regions[i]), 0,
						 empty, i == O_HALO_KERNEL ? OTF2_REGION_ROLE_FUNCTION
									   : OTF2_REGION_ROLE_WRAPPER,
						 OTF2_PARADIGM_CUDA, OTF2_REGION_FLAG_NONE, empty, 0, 0);
	for (uint32_t r = 0; r < R; r++)
		members[r] = master(r);
	OTF2_GlobalDefWriter_WriteGroup(d, G_MPI_LOCATIONS, empty, OTF2_GROUP_TYPE_COMM_LOCATIONS,
					OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, R, members);
	for (uint32_t r = 0; r < R; r++)
		members[r] = r;
	OTF2_GlobalDefWriter_WriteGroup(d, G_MPI_WORLD, empty, OTF2_GROUP_TYPE_COMM_GROUP,
					OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, R, members);
	for (uint32_t r = 0; r < R; r++)
		for (uint32_t k = 0; k < T; k++)
			members[r * T + k] = thread_loc(g, r, k);
	OTF2_GlobalDefWriter_WriteGroup(d, G_OMP_LOCATIONS, empty, OTF2_GROUP_TYPE_COMM_LOCATIONS,
					OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE, R * T, members);
	for (uint32_t r = 0; r < R; r++) {
		members[(1 + G) * r] = master(r);
		for (uint32_t s = 0; s < G; s++)
			members[(1 + G) * r + 1 + s] = gpu_loc(g, r, s);
	}
	OTF2_GlobalDefWriter_WriteGroup(d, G_CUDA_LOCATIONS, empty, OTF2_GROUP_TYPE_COMM_LOCATIONS,
					OTF2_PARADIGM_CUDA, OTF2_GROUP_FLAG_NONE, (1 + G) * R, members);
	OTF2_GlobalDefWriter_WriteComm(d, 0, str(d, "MPI_COMM_WORLD"), G_MPI_WORLD,
				       OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
	/* per rank: its thread team (group G__FIXED + r, comm TEAM_COMM(r)) ... */
	for (uint32_t r = 0; r < R; r++) {
		for (uint32_t k = 0; k < T; k++)
			members[k] = r * T + k;
		OTF2_GlobalDefWriter_WriteGroup(d, G__FIXED + r, empty, OTF2_GROUP_TYPE_COMM_GROUP,
						OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE, T, members);
	}
	/* ... and its CUDA window (group G__FIXED + R + r, comm CUDA_COMM(r)) */
	for (uint32_t r = 0; r < R; r++) {
		for (uint32_t j = 0; j < 1 + G; j++)
			members[j] = (1 + G) * r + j;
		OTF2_GlobalDefWriter_WriteGroup(d, G__FIXED + R + r, str(d, "CUDA_GROUP"),
						OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_CUDA,
						OTF2_GROUP_FLAG_NONE, 1 + G, members);
	}
	for (uint32_t r = 0; r < R; r++)
		OTF2_GlobalDefWriter_WriteComm(d, TEAM_COMM(r), empty, G__FIXED + r,
					       OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
	for (uint32_t r = 0; r < R; r++)
		OTF2_GlobalDefWriter_WriteComm(d, CUDA_COMM(g, r), empty, G__FIXED + R + r,
					       OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
	for (uint32_t r = 0; r < R; r++)
		OTF2_GlobalDefWriter_WriteRmaWin(d, r, empty, CUDA_COMM(g, r), OTF2_RMA_WIN_FLAG_NONE);
	OTF2_GlobalDefWriter_WriteAttribute(d, A_STREAM_REF, str(d, "CUDA_STREAM_REF"),
					    str(d, "Referenced CUDA stream"), OTF2_TYPE_LOCATION);
	OTF2_GlobalDefWriter_WriteAttribute(d, A_EVENT_REF, str(d, "CUDA_EVENT_REF"),
					    str(d, "ID (address) of referenced CUDA event"), OTF2_TYPE_UINT64);
	OTF2_GlobalDefWriter_WriteAttribute(d, A_RESULT, str(d, "CUDA_DRV_API_RESULT"),
					    str(d, "CUDA driver API function result"), OTF2_TYPE_UINT32);
	OTF2_GlobalDefWriter_WriteParameter(d, 0, str(d, "callsite id"), OTF2_PARAMETER_TYPE_UINT64);
	free(members);
}

static void parse(int argc, char **argv, struct options *o)
{
	int ch;

	*o = (struct options){ .ranks = 4, .threads = 4, .gpus = 1, .iterations = 100, .seed = 1,
			       .resolution = 2100000000, .offset = 9604711018472394 };
	while ((ch = getopt(argc, argv, "af:g:i:k:mo:r:R:s:t:")) != -1) {
		switch (ch) {
		case 'a': o->all_api = true; break;
		case 'f': o->offload_pct = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 'm': o->no_mpi = true; break;
		case 'g': o->gpus = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 'i': o->iterations = strtoull(optarg, NULL, 10); break;
		case 'k': o->skew = strtoll(optarg, NULL, 10); break;
		case 'o': o->offset = strtoull(optarg, NULL, 10); break;
		case 'r': o->ranks = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 'R': o->resolution = strtoull(optarg, NULL, 10); break;
		case 's': o->seed = strtoull(optarg, NULL, 10); break;
		case 't': o->threads = (uint32_t)strtoul(optarg, NULL, 10); break;
		default: usage();
		}
	}
	if (argc - optind != 1 || o->ranks < 1 || o->threads < 1 || o->resolution < 1 || o->gpus < 1 ||
	    (o->no_mpi && o->ranks != 1) || o->offload_pct > 99 || (o->offload_pct && o->gpus > 1))
		usage();
	o->path = argv[optind];
}

int main(int argc, char **argv)
{
	static const OTF2_FlushCallbacks flush = { pre_flush, NULL };
	struct gen g = { 0 };
	char *dir, *name;
	size_t nw;

	parse(argc, argv, &g.o);
	dir = strdup(g.o.path);
	name = dir ? strrchr(dir, '/') : NULL;
	if (!name)
		die("the archive is given as dir/name");
	*name++ = '\0';
	g.state = g.o.seed * 2654435761u + 1;
	g.offload_base = R__FIXED;
	for (enum ls_role role; g.o.all_api && ls_role_table_name((int)(g.offload_base - R__FIXED), &role);)
		g.offload_base++;
	nw = (size_t)g.o.ranks * (g.o.threads + g.o.gpus);
	g.w = calloc(nw, sizeof(*g.w));
	g.now = calloc(g.o.ranks, sizeof(*g.now));
	g.gpu_free = calloc((size_t)g.o.ranks * g.o.gpus, sizeof(*g.gpu_free));
	g.attrs = OTF2_AttributeList_New();
	g.archive = OTF2_Archive_Open(dir, name, OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
				      OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!g.w || !g.now || !g.gpu_free || !g.attrs || !g.archive)
		die("cannot create the archive (does it exist already?)");
	OTF2_Archive_SetFlushCallbacks(g.archive, &flush, NULL);
	OTF2_Archive_SetSerialCollectiveCallbacks(g.archive);
	OTF2_Archive_SetCreator(g.archive, "gen-otf2 (Score-P-like)");
	OTF2_Archive_OpenEvtFiles(g.archive);
	for (uint32_t r = 0; r < g.o.ranks; r++) {
		for (uint32_t k = 0; k < g.o.threads + g.o.gpus; k++)
			g.w[r * (g.o.threads + g.o.gpus) + k] = OTF2_Archive_GetEvtWriter(g.archive, location(&g, r, k));
	}
	run_program(&g);
	write_definitions(&g);
	for (size_t i = 0; i < nw; i++)
		OTF2_Archive_CloseEvtWriter(g.archive, g.w[i]);
	OTF2_Archive_CloseEvtFiles(g.archive);
	OTF2_Archive_OpenDefFiles(g.archive);
	for (uint32_t r = 0; r < g.o.ranks; r++)
		for (uint32_t k = 0; k < g.o.threads + g.o.gpus; k++) {
			OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(g.archive, location(&g, r, k));

			/* -k: rank 1's clock runs behind by a constant, measured at
			 * the start and the end of the run (Score-P's clock offsets) */
			if (r == 1 && g.o.skew) {
				OTF2_DefWriter_WriteClockOffset(dw, g.o.offset, g.o.skew, 0.0);
				OTF2_DefWriter_WriteClockOffset(dw, ticks(&g, g.end), g.o.skew, 0.0);
			}
			OTF2_Archive_CloseDefWriter(g.archive, dw);
		}
	OTF2_Archive_CloseDefFiles(g.archive);
	if (OTF2_Archive_Close(g.archive) != OTF2_SUCCESS)
		die("cannot close the archive");
	OTF2_AttributeList_Delete(g.attrs);
	free(g.w);
	free(g.now);
	free(g.gpu_free);
	free(dir);
	return 0;
}
