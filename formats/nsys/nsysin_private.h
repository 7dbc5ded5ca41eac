/* What the Nsight reader's files share: the export's tables, its processes, threads and streams. */
#ifndef NSYSIN_PRIVATE_H
#define NSYSIN_PRIVATE_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "../../libstream/front.h"
#include "../../libstream/idmap.h"
#include "../regions.h"

/* The tables the reader reads, by what they hold (schema.c names them). */
enum ntable {
	NT_STRINGS, NT_RUNTIME, NT_KERNEL, NT_MEMCPY, NT_MEMSET, NT_SYNC, NT_CUDA_EVENT, NT_NVTX, NT_THREAD_NAMES,
	NT_PROCESSES, NT_SESSION, NT_NULL_STREAM, NT__COUNT
};

/* One export: its database, which tables it has, where its times lie. */
struct nfile {
	const char *path;
	sqlite3 *db;
	bool has[NT__COUNT];
	bool kernel_short;		/* names kernels by shortName only (no demangledName) */
	int64_t epoch;			/* utcEpochNs of its session start, or 0 */
	int64_t shift;			/* ns added to its times: its epoch less the earliest file's */
	int64_t mpi_domain;		/* the NVTX domain named "MPI" (Nsight's MPI trace), or -1 */
};

/* A process of an export: its globalPid >> 24, and where it is a rank, the rank. */
struct nprocess {
	uint32_t file;
	int64_t key;			/* globalPid >> 24 (globalTid >> 24) */
	int64_t rank;			/* from a thread named "MPI Rank N", or -1 */
	char *name;
};

/* A thread (key: its globalTid, device -1) or GPU stream (key: globalPid >> 24). */
struct nstream {
	uint32_t file, process;
	int64_t key, device, stream;
	bool null;
	char *name;			/* a thread's, where the export names it */
};

/* What is wrong with a row's start and end. */
enum ntime {
	NTIME_OK,
	NTIME_NULL,		/* one is NULL (a range never ended) */
	NTIME_NOT_INT,		/* one is not an integer (text, a real, a BLOB) */
	NTIME_BACKWARDS,	/* it ends before it starts */
	NTIME_RANGE,		/* outside the times a stream may hold */
	NTIME__COUNT
};

struct nsysin {
	struct nfile *files;
	uint32_t nfiles;
	struct nprocess *procs;
	uint32_t nprocs, procs_cap;
	struct nstream *streams;
	uint32_t nstreams, streams_cap;
	struct ls_idmap stream_ix;	/* (file, key) hash -> stream; checked */
	struct ls_idmap name_ix;	/* (file, StringIds id, class) -> region */
	struct fmt_regions regions;
	struct {			/* a thread's runtime call read last */
		int64_t tid, corr, start, end;
	} kept;
	uint64_t dup_calls;
	uint64_t unread_rows;		/* rows of tables of events tr-read has no reader for */
	char unread[256];		/* those tables and their rows, for --stats */
	char counting[128];		/* the table whose rows are being counted */
	uint64_t odd_time[NTIME__COUNT];	/* rows left out, by what is wrong with their times */
	uint64_t corr_not_int;		/* rows whose correlation id is not an integer */
	uint64_t read[NT__COUNT], skipped[NT__COUNT];
	uint64_t rows_total, rows_done;	/* the event queries' rows, for a progress line */
	struct ls_front *front;
	struct ls_writer *w;
	char *err;
	size_t errlen;
	bool label;			/* messages name the file (several given) */
};

/* What a call's correlation id says (the rows the database joins to it): its GPU stream, its CUDA event. */
struct nref {
	uint32_t stream;		/* stream id, or UINT32_MAX */
	int64_t event;			/* or -1 */
	bool work;			/* a kernel, copy or set ran for it */
};

/* events.c: count the rows the event queries of every file will step through (in->rows_total). 0 or an error. */
int nsys_count_rows(struct nsysin *in);

/* schema.c: the tables and columns of each export, asked of the database; their names. */
int nsys_schema(struct nsysin *in, struct nfile *f);
const char *nsys_table(enum ntable t);
/* The tables of events of f's export tr-read does not read, with their rows (in->unread). 0 or an error. */
int nsys_unread(struct nsysin *in, struct nfile *f);

/* Run sql on f's database, row(in, f, stmt) for each row. Returns 0, what row returned, or an error (said). */
int nsys_each(struct nsysin *in, struct nfile *f, const char *sql,
	      int (*row)(struct nsysin *in, struct nfile *f, sqlite3_stmt *st));
/* The message for an error of f's database. */
int nsys_fail(struct nsysin *in, const struct nfile *f, const char *what);

/* defs.c: processes, threads, streams, what correlation ids say; written as definitions. */
int nsys_find(struct nsysin *in, uint32_t file);
int nsys_write_defs(struct nsysin *in);
uint32_t nsys_stream(struct nsysin *in, uint32_t file, int64_t tid, int64_t device, int64_t stream);
uint32_t nsys_process(struct nsysin *in, uint32_t file, int64_t key);

/* events.c: every row of file's tables as events through the front (regions made as met). */
int nsys_events(struct nsysin *in, uint32_t file);

#endif
