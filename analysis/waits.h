/*
 * tr-waits: from the events and tr-deps' edges, the wait states of MPI,
 * CUDA and OpenMP activities (which pattern, how long) and the blame for
 * each, by the rules of each paradigm (mpi/waits.h, gpu/waits.h,
 * omp/waits.h). A wait is blamed on the causing stream's activities
 * since its previous synchronization of that paradigm: for MPI, its
 * previous blocking MPI call; for an OpenMP barrier, its previous barrier.
 */
#ifndef AN_WAITS_H
#define AN_WAITS_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/writer.h"
#include "item.h"
#include "waitrec.h"

struct an_waits_stats {
	uint64_t clock;		/* messages received before they were sent */
	uint64_t clamped;	/* wait states cut to their activity's duration */
	uint64_t stray_edges;	/* edges or instance members naming no MPI activity */
	uint64_t stray_other;	/* GPU or OpenMP edges naming activities not followed */
	uint64_t undecided;	/* MPI activities still waiting for an edge at the end */
	uint64_t outside;	/* message events in no MPI activity: no wait state */
	uint32_t acts, msgs;	/* room held for activities and message ends */
};

struct an_waits;


/* Write wait and blame records to w (borrowed). Returns NULL when out of memory. */
struct an_waits *an_waits_new(struct ls_writer *w);

/*
 * Take one input record, after it has been written on; wait states it
 * decides are written after it. Returns 0, or a negative error:
 * LS_ERR_SYNTAX with *why set, LS_ERR_NOMEM, or a writer error.
 */
int an_waits_take(struct an_waits *a, struct an_item *it,
		  const char **why);

/* The kinds whose fields an_waits_take reads (LS_KIND_BIT): the others it passes over. */
uint64_t an_waits_reads(void);

/*
 * End of input: decide what is still open with what came (counted in
 * st.undecided). Returns 0 or a negative error.
 */
int an_waits_finish(struct an_waits *a);

/* The definitions read so far. */
const struct ls_defs *an_waits_defs(const struct an_waits *a);

/*
 * Pattern p over all processes; *min and *max: the smallest and largest
 * per-process time (processes without it count as 0), *most the index of
 * the process with the largest (the first of equal ones; 0 where none).
 */
struct an_tally an_waits_total(const struct an_waits *a, enum ls_pattern p,
			       uint64_t *min, uint64_t *max, uint32_t *most);

/*
 * Write the summary records: per pattern over the run (with the smallest
 * and largest per-process total), then per process.
 */
int an_waits_summary(struct an_waits *a);

/* What it counted, and the room it holds. */
struct an_waits_stats an_waits_stats(const struct an_waits *a);

void an_waits_free(struct an_waits *a);

#endif
