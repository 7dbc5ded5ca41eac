/* What the parts of the tr-record log reader share. */
#ifndef TRLOGIN_PRIVATE_H
#define TRLOGIN_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../libstream/front.h"
#include "../../libstream/idmap.h"
#include "../../libstream/idset.h"
#include "../../libstream/mp.h"
#include "../../libstream/schema.h"
#include "../regions.h"
#include "trlog.h"

/* A position in a log, for decoding one record's fields. */
struct cur {
	const uint8_t *p, *end;
	bool bad;		/* a field missing or of the wrong type */
};

int64_t cur_int(struct cur *c);
uint64_t cur_uint(struct cur *c);
uint32_t cur_array(struct cur *c);
/* A string into buf[0..n) (cut to fit). */
void cur_str(struct cur *c, char *buf, size_t n);
/* A string, malloc'd; NULL (c->bad where it is no string) otherwise. */
char *cur_strdup(struct cur *c);
void cur_skip(struct cur *c);

/*
 * Times a log can hold: CLOCK_MONOTONIC's, from 0 to 2^62 ns (146 years);
 * offsets to rank 0 up to 2^53 ns. Anything else is damage, and the sums
 * of the clock correction cannot overflow.
 */
#define MAX_T ((int64_t)1 << 62)
#define MAX_OFFSET ((int64_t)1 << 53)

/* One process's clock against rank 0's, measured at MPI_Init and MPI_Finalize. */
struct sync {
	bool have;
	int64_t t, offset, rtt;
};

/* A GPU stream of a log: CUPTI's context and stream, the stream id it is written as. */
struct gpu_stream {
	uint32_t ctx, stream, device, id;
};

/* What CUDA records of a correlation id said: the stream and event an API call refers to. */
struct corr_ref {
	uint32_t gpu;			/* index in the log's gpu streams, or UINT32_MAX */
	int64_t event;			/* CUPTI's event id, or -1 */
};

struct gpu_context {
	uint32_t ctx, device, null_stream;
};

struct log {
	char *path;
	const char *name;		/* the file's name, for messages */
	uint8_t *map;
	size_t size;
	size_t body, end;		/* the records: from body to end */
	bool cut;			/* the last record ends past the file */
	bool damaged;			/* not msgpack, or a record not as the format says */
	int64_t pid, start, realtime, launcher_rank;
	uint64_t minor;
	char host[128], program[128], job[128];
	bool mpi;			/* it has TRLOG_INIT */
	uint64_t rank, size_of_world;
	char run[80];
	struct sync sync[2];
	bool ended;
	int ended_by;			/* TRLOG_SIGNAL's signal + 1 (1: MPI_Abort), 0: none */
	int64_t end_t, last_t;
	uint64_t nthreads;
	uint32_t process, first_stream, root_region;
	uint32_t *comm;			/* local comm number -> dense comm id (UINT32_MAX: none) */
	uint32_t ncomm;
	/* CUDA (cuda.c) */
	char **names;			/* TRLOG_NAME by id */
	uint32_t *name_region[2];	/* by id: its region as a CUDA name, as an NVTX range's (cuda.c) */
	uint32_t nnames, names_cap;
	struct gpu_stream *gpu;
	uint32_t ngpu, gpu_cap;
	struct ls_idmap gpu_ix;		/* ctx << 32 | stream -> index in gpu */
	struct gpu_context *ctxs;
	uint32_t nctxs, ctxs_cap;
	struct corr_ref *corr;
	uint32_t ncorr, corr_cap;
	struct ls_idmap corr_ix;	/* correlation id -> index in corr */
	/* the clock correction (clock.c) */
	long double drift;		/* ns of offset per ns */
	int64_t offset_at, offset;	/* offset at offset_at */
};

/* The region of the collector's write-outs (TRLOG_FLUSH), as Score-P names its own. */
#define TRLOG_FLUSH_REGION "tr-record buffer flush"

struct comm_def {
	uint64_t key;
	uint32_t *members;
	uint32_t n;
	int fn;				/* the function that made it, or -1 */
	bool differs;			/* logs gave it other members */
};

struct trlogin {
	struct log *logs;
	uint32_t nlogs, logs_cap;
	struct comm_def *comms;
	uint32_t ncomms, comms_cap;
	struct ls_idmap comm_ix;	/* key -> dense comm id */
	bool fn_used[TRLOG_NFN];
	uint32_t fn_region[TRLOG_NFN];
	char fn_op[TRLOG_NFN][32];	/* a collective's operation: "allreduce" */
	uint32_t flush_region;		/* the collector's write-outs */
	/* regions made in the first pass, for the second (cuda.c, omp.c) */
	uint32_t copy_region[TRLOG_COPY_PTOP + 1][2];	/* by copy kind, host memory pageable */
	uint32_t set_region;
	uint32_t omp_region[8];		/* by omp.c's kind of region */
	struct fmt_regions regions;
	uint32_t nstreams;
	uint64_t newer_records, unknown_fns, comm_members_differ, cut, damaged, unended, ranks_missing;
	uint64_t unknown_comms, drift_dropped;
	uint64_t not_files;		/* entries of a folder named like logs that are no files */
	struct ls_idset reqs_seen;	/* the requests of the call being looked at */
	uint64_t early;			/* logs without MPI's record taken as their launcher's rank */
	char early_name[64];		/* the first of them */
	uint64_t signalled;		/* logs a signal or MPI_Abort ended (TRLOG_SIGNAL) */
	char signalled_first[96];	/* the first: "rank-1.trlog by SIGSEGV" */
	bool signalled_term;		/* ... by SIGTERM */
	int64_t origin;			/* the corrected time that becomes 0 */
	int64_t max_offset, max_drift_ppb;
	uint64_t bound;			/* the correction's error bound: half the longest kept round trip */
	struct ls_front *front;
	struct ls_writer *w;
	char *err;
	size_t errlen;
};

extern const char *const trlog_fn_name[TRLOG_NFN];
extern const enum trlog_class trlog_fn_class[TRLOG_NFN];


/* cuda.c: a CUDA record at c (its type read) in the first pass; 0, LS_ERR_SYNTAX (damaged) or an error. */
int trlog_cuda_look(struct trlogin *in, struct log *l, uint64_t type, struct cur *c);
/* The GPU streams of l, declared to the front and written. */
int trlog_cuda_streams(struct trlogin *in, struct log *l);
void trlog_cuda_release(struct log *l);

/* logs.c: open paths (logs or folders of them), map them, and read each log's header and records once. */
int trlog_open(struct trlogin *in, const char *const *paths, int n);
void trlog_close(struct trlogin *in);

/* clock.c: each log's correction to rank 0's clock, and the time that becomes 0. */
void trlog_clocks(struct trlogin *in);
/* t of log l on the common clock, 0 at the run's start. */
int64_t trlog_time(const struct trlogin *in, const struct log *l, int64_t t);

/* events.c: every log's records as events through the front. */
int trlog_events(struct trlogin *in);

/* What the second pass keeps of a thread of the log being added. */
struct thread_state {
	uint32_t *ranges;		/* the NVTX ranges open, innermost last */
	uint32_t nranges, ranges_cap;
	bool lock_wait;			/* in omp_set_lock, waiting */
	bool in_team;			/* in an OpenMP implicit task */
	int64_t team_since;		/* ... since */
};

/* Adding the events of one log (events.c, cuda.c, omp.c). */
struct adder {
	struct trlogin *in;
	const struct log *l;
	uint64_t stream;
	int rc;
	struct thread_state *threads;	/* by thread number */
	/* OpenMP (omp.c): the last join, the thread that forked, when it last left a barrier */
	int64_t joined_at, released_at;
	uint64_t forker;
	struct ls_idmap locks;		/* OMPT's wait id -> the stream's lock */
	uint32_t nlocks;
	/* nonblocking collectives posted, until completed: req -> index in icolls */
	struct ls_idmap icoll_ix;
	struct icoll {
		uint64_t fn, root;	/* root: a process, or UINT64_MAX */
		int64_t sent, recvd;
	} *icolls;
	uint32_t nicolls, icolls_cap;
};

/* An event at t (the log's clock) on a->stream; NULL where it is left out or failed (a->rc). */
struct ls_event *trlog_add(struct adder *a, int64_t t, enum ls_kind kind);
/* cuda.c: a CUDA record's events (its type read). */
void trlog_cuda_events(struct adder *a, uint64_t type, struct cur *c);

/* omp.c: an OpenMP record ([16, thread, t, what, a, b]) in the first pass, and its events in the second. */
int trlog_omp_look(struct trlogin *in, struct log *l, struct cur *c);
void trlog_omp_events(struct adder *a, struct cur *c);

#endif
