/*
 * What tr-waits' rules find, as records: wait states (idle records for the
 * idleness patterns), the blame for them, and the tallies per process and
 * pattern for the summaries. The MPI rules (waits.c) and the GPU and
 * OpenMP ones (gpu/waits.c, omp/waits.c) write through this, not through
 * each other.
 */
#ifndef AN_WAITREC_H
#define AN_WAITREC_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/writer.h"
#include "blame.h"
#include "trace.h"

struct an_tally {
	uint64_t count, ns;
};

struct an_waitrec {
	struct ls_writer *w;
	const struct an_trace *tr;
	struct an_tally *tally;		/* [process index][pattern] */
	uint32_t tally_cap;
	uint64_t *split;		/* scratch for an_blame_split */
	uint32_t split_cap;
	struct an_typed_list typed;	/* the records written since an_waitrec_typed */
};

/* Write to w, the trace's ids from tr (both borrowed). */
void an_waitrec_init(struct an_waitrec *o, struct ls_writer *w, const struct an_trace *tr);

/*
 * The wait, idle and blame records written since the last call, typed, each at its byte
 * offset in what was written since: *n of them, valid until the next is
 * written (an_stage.typed).
 */
const struct an_typed *an_waitrec_typed(struct an_waitrec *o, size_t *n);

/* Process nprocs - 1 was defined: a row of tallies for it. Returns 0 or LS_ERR_NOMEM. */
int an_waitrec_process(struct an_waitrec *o, uint32_t nprocs);

/* The tally of pattern p on process index proc. */
static inline struct an_tally *an_waitrec_tally(const struct an_waitrec *o, uint32_t proc,
						enum ls_pattern p)
{
	return &o->tally[(size_t)proc * LS_P__COUNT + p];
}

/*
 * Write wait state x (tallied): a wait record, or for the idleness
 * patterns (ls_pattern_idle) an idle record. Returns 0 or a writer error.
 */
int an_waitrec_wait(struct an_waitrec *o, const struct an_wait *x);

/*
 * Write a blame record: ns of wait state `wait` to activity to (of region
 * index region) on stream s.
 */
int an_waitrec_blame(struct an_waitrec *o, uint64_t to, uint32_t region, uint64_t ns,
		     enum ls_pattern p, uint64_t wait, uint32_t s);

/*
 * Blame x's dur over the shares of iv (total > 0): share i an activity of
 * stream ss[i], or of stream s for all where ss is NULL.
 */
int an_waitrec_blame_split(struct an_waitrec *o, const struct an_wait *x,
			   const struct an_interval *iv, const uint32_t *ss, uint32_t s);

void an_waitrec_release(struct an_waitrec *o);

#endif
