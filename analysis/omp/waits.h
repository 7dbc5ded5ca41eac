/*
 * tr-waits for OpenMP locks and joins: wait states read off tr-deps' lock
 * and join edges. A join's edges come together, right after the join: they
 * are taken as one batch, decided when the next record that is not one of
 * them comes. (The OpenMP barrier is a collective: waits.c.)
 */
#ifndef AN_OMP_WAITS_H
#define AN_OMP_WAITS_H

#include <stdbool.h>
#include <stdint.h>

#include "../../libstream/idmap.h"
#include "../../libstream/record.h"
#include "../blame.h"
#include "../trace.h"
#include "../waitrec.h"

/* Per stream. */
struct an_omp_deps_stream {
	struct an_interval held;	/* exclusive time since a lock acquire */
	uint32_t held_slot;
	uint64_t held_top;
	bool holding;
	struct an_interval released;	/* held, as of its last release */
	uint64_t release, release_act;
	uint32_t release_r, last_left_r;	/* regions of release_act, last_left */
	int64_t release_t;
	uint64_t team_end, last_left;
	int64_t team_end_t;
};

struct an_omp_waits {
	struct an_omp_deps_stream *os;	/* per stream index */
	uint32_t os_cap;
	struct ls_idmap release_ix;	/* lock release id -> stream */
	/* the join being read */
	bool batch;
	uint64_t to;
	uint32_t bs;			/* master stream */
	uint64_t bat, bcause;		/* waiting activity, latest end */
	uint32_t bat_r;			/* the waiting activity's region */
	int64_t bt, bjoin, bend;
	uint32_t bcause_s;
	/* the last lock acquire */
	uint64_t last_acquire, acquire_act;
	uint32_t acquire_act_r;
	int64_t acquire_t, acquire_act_t;
	uint32_t acquire_s;
	uint64_t stray;		/* edges naming activities not (or no longer) followed */
	const struct an_trace *tr;
	struct an_waitrec *out;
};

/* The rules see the trace state tr and write through out (both borrowed). */
void an_omp_waits_init(struct an_omp_waits *o, const struct an_trace *tr, struct an_waitrec *out);

/* A stream was defined (the last one). Returns 0 or LS_ERR_NOMEM. */
int an_omp_waits_stream(struct an_omp_waits *o);

/* Before leave f on a host stream is popped. */
void an_omp_waits_leave(struct an_omp_waits *o, const struct an_frame *f, const struct an_event *ev);

/* team_end, join, lock_acquire, lock_release (its kind). */
int an_omp_waits_event(struct an_omp_waits *o, enum ls_kind kind, const struct an_event *ev);

/* A join or lock edge. */
int an_omp_waits_edge(struct an_omp_waits *o, enum ls_edge type, uint64_t from, uint64_t to);

/* Exclusive time ns of the top activity of stream s (a lock may be held). */
int an_omp_waits_accrue(struct an_omp_waits *o, uint32_t s, const struct an_frame *top,
		       uint64_t ns);

/* Decide the join read so far unless rec continues it. */
int an_omp_waits_flush(struct an_omp_waits *o, struct an_item *it);

void an_omp_waits_release(struct an_omp_waits *o);

#endif
