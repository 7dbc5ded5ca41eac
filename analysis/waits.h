/*
 * tr-waits for MPI: from the events and tr-deps' edges, the wait states
 * of MPI activities (which pattern, how long) and the blame for each.
 *
 * An MPI activity's wait is decided once it has left and every edge into
 * it has been read: one per receive in it, one per send in it for a
 * blocking send (Late Receiver is read off the message edge), and the
 * instance record for a collective. Of the edges, the one from the latest
 * cause wins: the activity waited from its enter to that cause, never
 * longer than it lasted. The wait is blamed on the causing stream's
 * activities between its previous blocking MPI call and the cause.
 */
#ifndef AN_WAITS_H
#define AN_WAITS_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/writer.h"
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
int an_waits_take(struct an_waits *a, const struct ls_record *rec,
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
