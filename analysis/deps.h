/*
 * tr-deps for MPI: the dependency edges between events of different
 * processes. Point-to-point: an edge from each send to its receive.
 * Collectives: an edge per member from the enter of the member it waited
 * for (an_coll_deps) to its leave, then an instance record naming all
 * members. Each is written as soon as both of its ends have been read.
 */
#ifndef AN_DEPS_H
#define AN_DEPS_H

#include <stdint.h>

#include "../libstream/writer.h"
#include "mpi/coll.h"
#include "edges.h"
#include "gpu/deps.h"
#include "omp/deps.h"
#include "mpi/p2p.h"
#include "trace.h"

struct an_deps_stats {
	uint64_t clock;		/* receives that completed before their send began */
	uint64_t coll_alone;	/* collectives in no instance: no comm, not a member */
	uint64_t mixed;		/* instances whose members ran different operations */
	uint64_t unmatched_sends, unmatched_recvs, open_instances, unbalanced;
};

struct an_deps {
	struct an_trace tr;
	struct an_p2p p2p;
	struct an_coll coll;
	struct an_offload gpu;
	struct an_omp omp;
	uint32_t *dep;		/* scratch: an_coll_deps of an instance */
	uint64_t *acts;		/* scratch: its members' activities */
	uint32_t dep_cap, acts_cap;
	struct an_edges out;	/* what the rules of every paradigm find */
	struct an_deps_stats st;
};

/* Write edges to w (borrowed). */
void an_deps_init(struct an_deps *d, struct ls_writer *w);

/*
 * Take one input record, after it has been written on. Edges it completes
 * are written after it. Returns 0, or a negative error: LS_ERR_SYNTAX
 * with *why set (the input breaks docs/stream.md), LS_ERR_NOMEM, or a
 * writer error.
 */
int an_deps_take(struct an_deps *d, const struct ls_record *rec,
		 const char **why);

/* The kinds whose fields an_deps_take reads (LS_KIND_BIT): the others it passes over. */
uint64_t an_deps_reads(void);

/* End of input: fill in the counts of what stayed unmatched. */
void an_deps_finish(struct an_deps *d);

void an_deps_release(struct an_deps *d);

#endif
