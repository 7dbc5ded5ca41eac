/*
 * A small MPI program with a compute phase of a given size per rank, that
 * records its own events with real timestamps as an NDJSON record stream
 * (docs/stream.md), for measuring tr-project against runs it projects:
 *   mpirun -n 2 phases ITERATIONS WORK OUT
 * Rank r computes WORK * (1 + r / 2) units an iteration, then rank 1
 * sends to rank 0 (a late sender where rank 1 computes longer) and all
 * meet in an MPI_Allreduce. Each rank writes its events to OUT.RANK; the
 * definitions and the merge are the caller's (bench/accuracy/run).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { R_MAIN, R_COMPUTE, R_SEND, R_RECV, R_ALLREDUCE };

static FILE *out;
static int rank;
static uint64_t next_id;

static int64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void event(const char *kind, int64_t t, const char *more)
{
	fprintf(out, "{\"k\":\"%s\",\"id\":%llu,\"t\":%lld,\"s\":%d%s}\n", kind,
		(unsigned long long)((uint64_t)rank << 40 | next_id++), (long long)t, rank, more);
}

static void region(const char *kind, int64_t t, int r)
{
	char more[32];

	snprintf(more, sizeof(more), ",\"r\":%d", r);
	event(kind, t, more);
}

/* units of work: a sweep over an array of 2^16 doubles each */
static double compute(long units, double *a)
{
	double s = 0;

	for (long u = 0; u < units; u++)
		for (int i = 1; i < (1 << 16) - 1; i++) {
			a[i] = 0.25 * (a[i - 1] + 2 * a[i] + a[i + 1]);
			s += a[i];
		}
	return s;
}

int main(int argc, char **argv)
{
	static double a[1 << 16];
	char path[4096], more[128];
	long iterations, work;
	double sink = 0, x = 1, y;
	int size;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc != 4 || size != 2) {
		if (!rank)
			fprintf(stderr, "usage: mpirun -n 2 phases ITERATIONS WORK OUT\n");
		MPI_Finalize();
		return 2;
	}
	iterations = atol(argv[1]);
	work = atol(argv[2]) * (2 + rank) / 2;
	snprintf(path, sizeof(path), "%s.%d", argv[3], rank);
	if (!(out = fopen(path, "w"))) {
		perror(path);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (int i = 0; i < 1 << 16; i++)
		a[i] = i % 7;
	MPI_Barrier(MPI_COMM_WORLD);
	region("enter", now(), R_MAIN);
	for (long it = 0; it < iterations; it++) {
		region("enter", now(), R_COMPUTE);
		sink += compute(work, a);
		region("leave", now(), R_COMPUTE);
		if (rank == 1) {
			region("enter", now(), R_SEND);
			event("send", now(), ",\"peer\":0,\"tag\":0,\"comm\":0,\"bytes\":8");
			MPI_Send(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
			region("leave", now(), R_SEND);
		} else {
			region("enter", now(), R_RECV);
			MPI_Recv(&y, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			event("recv", now(), ",\"peer\":1,\"tag\":0,\"comm\":0,\"bytes\":8");
			region("leave", now(), R_RECV);
		}
		region("enter", now(), R_ALLREDUCE);
		MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		snprintf(more, sizeof(more), ",\"comm\":0");
		event("coll_end", now(), more);
		region("leave", now(), R_ALLREDUCE);
	}
	region("leave", now(), R_MAIN);
	fclose(out);
	if (sink == 42)
		puts("");
	MPI_Finalize();
	return 0;
}
