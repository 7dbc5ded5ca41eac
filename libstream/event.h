/*
 * One event of a trace as every reader hands it to the reader front
 * (front.h): typed, in stream ids and region ids of the stream it will be
 * written to, not yet numbered. ls_event_write writes it as docs/stream.md
 * says, with the id the front gives it.
 */
#ifndef LS_EVENT_H
#define LS_EVENT_H

#include <stdint.h>

#include "schema.h"
#include "writer.h"

/* The optional fields an event carries (ls_event.fields). */
enum {
	LS_EF_REF_STREAM = 1 << 0, LS_EF_CUDA_EVENT = 1 << 1, LS_EF_RESULT = 1 << 2,
	LS_EF_CORR = 1 << 3, LS_EF_BYTES = 1 << 4, LS_EF_REQ = 1 << 5, LS_EF_ROOT = 1 << 6,
	LS_EF_AUX = 1 << 7,	/* threads (fork), lock (lock_*), on (measure), counter (sample) */
};

/* A sample's value, as the trace gives it. */
enum ls_val_type { LS_VAL_UINT, LS_VAL_INT, LS_VAL_F64 };

struct ls_event {
	int64_t t;
	uint64_t seq;		/* set by the front: the order events came in */
	uint64_t stream;
	enum ls_kind kind;
	uint32_t fields;	/* LS_EF_* */
	uint64_t region;	/* enter, leave */
	uint64_t peer, comm;	/* send, recv (peer, comm); coll_end (comm) */
	int64_t tag;		/* send, recv */
	uint64_t bytes;		/* send, recv; else with LS_EF_BYTES */
	uint64_t sent, recvd;	/* coll_end */
	const char *op;		/* coll_end: a name that outlives the front */
	uint64_t ref_stream, cuda_event, corr, req, root, aux;
	int64_t result;
	enum ls_val_type val_type;	/* sample */
	union {
		uint64_t u;
		int64_t i;
		double f;
	} val;
};

/* Write ev as event id. Returns what ls_build_end returns. */
int ls_event_write(struct ls_writer *w, const struct ls_event *ev, uint64_t id);

#endif
