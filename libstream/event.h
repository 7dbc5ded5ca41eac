/*
 * One event of a trace as every reader hands it to the reader front
 * (front.h): typed, in stream ids and region ids of the stream it will be
 * written to, not yet numbered. ls_event_write writes it as docs/stream.md
 * says, with the id the front gives it.
 */
#ifndef LS_EVENT_H
#define LS_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "schema.h"
#include "writer.h"

/* The optional fields an event carries (ls_event.fields). */
enum {
	LS_EF_REF_STREAM = 1 << 0, LS_EF_CUDA_EVENT = 1 << 1, LS_EF_RESULT = 1 << 2,
	LS_EF_CORR = 1 << 3, LS_EF_BYTES = 1 << 4, LS_EF_REQ = 1 << 5, LS_EF_ROOT = 1 << 6,
	LS_EF_AUX = 1 << 7,	/* threads (fork), lock (lock_*), on (measure), counter (sample) */
	LS_EF_WAIT_STREAM = 1 << 8,
};

/* A sample's value, as the trace gives it. */
enum ls_val_type { LS_VAL_UINT, LS_VAL_INT, LS_VAL_F64 };

struct ls_event {
	int64_t t;
	uint64_t seq;		/* set by the front: the order events came in */
	/*
	 * At equal t and stream, lower first, before the order they came in:
	 * a reader whose format gives activities out of order (Chrome trace
	 * events: an activity as a start and a duration) sets it so that they
	 * nest (ls_event_tie); 0 otherwise.
	 */
	uint64_t tie;
	uint64_t stream;
	enum ls_kind kind;
	uint32_t fields;	/* LS_EF_* */
	uint64_t region;	/* enter, leave */
	uint64_t peer, comm;	/* send, recv (peer, comm); coll_end (comm) */
	int64_t tag;		/* send, recv */
	uint64_t bytes;		/* send, recv; else with LS_EF_BYTES */
	uint64_t sent, recvd;	/* coll_end */
	const char *op;		/* coll_end: a name that outlives the front */
	uint64_t ref_stream, wait_stream, cuda_event, corr, req, root, aux;
	int64_t result;
	enum ls_val_type val_type;	/* sample */
	union {
		uint64_t u;
		int64_t i;
		double f;
	} val;
};

#define LS_TIE_ZERO (UINT64_C(1) << 62)

/*
 * The tie of an activity's enter (leave false) or leave lasting dur ns, so
 * that activities given in any order nest: at one time, the leaves of
 * those that started earlier (the shortest first; of those alike, the one
 * added last first), then those lasting no time (each's enter before its
 * leave, as added), then the enters of those that go on (the longest
 * first; of those alike, as added). An event inside an activity at its
 * enter takes the enter's tie and is added after it; one at its leave
 * takes ls_event_tie_inside.
 */
static inline uint64_t ls_event_tie(int64_t dur, bool leave)
{
	const uint64_t max = LS_TIE_ZERO - 1;
	uint64_t d = dur < 0 ? 0 : (uint64_t)dur > max ? max : (uint64_t)dur;

	if (d == 0)
		return LS_TIE_ZERO;
	return leave ? d : UINT64_C(2) << 62 | (max - d);
}

/* The tie of an event at the leave of an activity lasting dur ns, before that leave (added before it). */
static inline uint64_t ls_event_tie_inside(int64_t dur)
{
	uint64_t t = ls_event_tie(dur, true);

	return t == LS_TIE_ZERO ? t : t - 1;
}

/*
 * An event as it was written (ls_front_keep_written): as the reader gave
 * it, with its id, its len bytes at byte at of what the writer held
 * since it last handed its bytes on. Its op is not to be read: a
 * reader's name need only outlive the event's writing (tr-record's logs
 * reuse theirs).
 */
struct ls_written {
	size_t at;
	uint32_t len;
	uint64_t id;
	struct ls_event ev;
};

/* Write ev as event id. Returns what ls_build_end returns. */
int ls_event_write(struct ls_writer *w, const struct ls_event *ev, uint64_t id);

#endif
