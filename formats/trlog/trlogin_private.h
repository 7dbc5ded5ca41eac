/* What the parts of the tr-record log reader share. */
#ifndef TRLOGIN_PRIVATE_H
#define TRLOGIN_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../libstream/front.h"
#include "../../libstream/idmap.h"
#include "../../libstream/mp.h"
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
void cur_skip(struct cur *c);

/* One process's clock against rank 0's, measured at MPI_Init and MPI_Finalize. */
struct sync {
	bool have;
	int64_t t, offset, rtt;
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
	int64_t end_t, last_t;
	uint64_t nthreads;
	uint32_t process, first_stream, root_region;
	uint32_t *comm;			/* local comm number -> dense comm id (UINT32_MAX: none) */
	uint32_t ncomm;
	/* the clock correction (clock.c) */
	long double drift;		/* ns of offset per ns */
	int64_t offset_at, offset;	/* offset at offset_at */
};

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
	uint32_t nregions, nstreams;
	uint64_t newer_records, unknown_fns, comm_members_differ, cut, damaged, unended, ranks_missing;
	uint64_t unknown_comms, drift_dropped;
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

/* logs.c: open paths (logs or folders of them), map them, and read each log's header and records once. */
int trlog_open(struct trlogin *in, const char *const *paths, int n);
void trlog_close(struct trlogin *in);

/* clock.c: each log's correction to rank 0's clock, and the time that becomes 0. */
void trlog_clocks(struct trlogin *in);
/* t of log l on the common clock, 0 at the run's start. */
int64_t trlog_time(const struct trlogin *in, const struct log *l, int64_t t);

/* events.c: every log's records as events through the front. */
int trlog_events(struct trlogin *in);

#endif
