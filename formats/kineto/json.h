/*
 * Reading a Chrome trace-event JSON file (Kineto's) as a stream: the file
 * (plain or gzip) is read a buffer at a time, never whole; each element of
 * its "traceEvents" array is brought into memory alone and parsed into a
 * struct kev, which holds only what the reader uses. Times are read as
 * decimal text into integer nanoseconds, never through a double (a double
 * keeps only about 0.25 us of a time since the epoch in microseconds).
 */
#ifndef KINETO_JSON_H
#define KINETO_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

/* A string of the element, unescaped in place and NUL-terminated. */
struct kstr {
	const char *p;
	uint32_t n;
};

/* The args the reader uses (kev.has). */
enum {
	KA_CORR = 1 << 0, KA_STREAM = 1 << 1, KA_DEVICE = 1 << 2, KA_WAIT_STREAM = 1 << 3,
	KA_WAIT_RECORD = 1 << 4, KA_WAIT_EVENT = 1 << 5, KA_BYTES = 1 << 6, KA_SEQ = 1 << 7,
	KA_IN_NELEMS = 1 << 8, KA_OUT_NELEMS = 1 << 9, KA_RANK = 1 << 10,
	KA_PID = 1 << 11, KA_TID = 1 << 12, KA_TS = 1 << 13, KA_DUR = 1 << 14,
};

/* One trace event: the fields and args the reader uses. */
struct kev {
	char ph;			/* 'X', 'M', 's', 'f', 'i', ...; 0: none given */
	uint32_t has;			/* KA_* */
	struct kstr cat, name;
	int64_t pid, tid;		/* with KA_PID, KA_TID: given as integers */
	int64_t ts, dur;		/* ns, with KA_TS, KA_DUR */
	/* args */
	int64_t corr, stream, device, wait_stream, wait_record, wait_event, bytes, seq, in_nelems, out_nelems;
	int64_t rank;			/* "Rank": the process's rank in the world */
	struct kstr sync_kind, coll, pg, pg_ranks, dtype, arg_name;
};

/* What the file says besides its events. */
struct kj_top {
	bool have_rank;
	int64_t rank;			/* distributedInfo.rank */
	int64_t world;			/* distributedInfo.world_size, or -1 */
	int64_t base;			/* baseTimeNanoseconds: ns to add to every ts (0 where none) */
	bool has_events;		/* the file has traceEvents */
	uint64_t events;		/* elements of traceEvents */
	bool cut;			/* the file ends inside traceEvents: read up to there */
	uint64_t cut_at;		/* byte of the text where it ends */
};

struct kj {
	gzFile gz;
	const char *path, *label;	/* label: what messages start with (NULL: nothing) */
	char *buf;
	size_t cap, at, len;		/* buf[at..len) not yet read */
	uint64_t base;			/* bytes of the text before buf */
	bool eof;
	char *err;
	size_t errlen;
};

/* A failure the reader said (in the err kj_open was given); apart from every LS_ERR_*. */
enum { KJ_ERROR = -100 };

/* Whether head[0..n) begins a JSON object (plain or gzip) that is not a tr stream's NDJSON. */
bool kj_sniff(const uint8_t *head, size_t n);

/*
 * Open path for reading; its messages start with label (NULL: none).
 * Returns 0, or KJ_ERROR with a one-line message in err[0..n).
 */
int kj_open(struct kj *j, const char *path, const char *label, char *err, size_t n);

/*
 * Read the whole file: fn(ctx, ev) for each element of traceEvents, what
 * else it says into *top. A cut file (one that ends inside traceEvents,
 * as a profiler killed leaves it) is read up to the cut (top->cut).
 * Returns 0, what fn returned where not 0, or KJ_ERROR with a one-line
 * message in the err kj_open was given (malformed JSON, not a trace,
 * unreadable).
 */
int kj_walk(struct kj *j, struct kj_top *top, int (*fn)(void *ctx, const struct kev *ev), void *ctx);

/* Bytes of the file (as it is on disk: compressed, for gzip) read so far. */
uint64_t kj_offset(struct kj *j);

void kj_close(struct kj *j);

/*
 * The decimal number text[0..n) times 10^scale, rounded to the nearest
 * integer, into *out. False where it is not a number or out of int64's range.
 */
bool kj_decimal(const char *text, size_t n, int scale, int64_t *out);

#endif
