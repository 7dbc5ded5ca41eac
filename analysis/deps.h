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

#include "../libstream/schema.h"
#include "../libstream/writer.h"
#include "item.h"
#include "remote.h"
#include "gpu/deps.h"
#include "omp/deps.h"

struct an_deps_stats {
	uint64_t clock;		/* receives that completed before their send began */
	uint64_t coll_alone;	/* collectives in no instance: no comm, not a member */
	uint64_t mixed;		/* instances whose members ran different operations */
	uint64_t unmatched_sends, unmatched_recvs;	/* so far: waiting for their other side */
	uint64_t open_instances;	/* so far: collective instances missing a member */
	uint64_t unbalanced;	/* enters and leaves that do not pair (at the end) */
	struct an_gpu_deps_stats gpu;
	struct an_omp_deps_stats omp;
	uint64_t edges[LS_E__COUNT];	/* edges written, per type */
	uint64_t instances;	/* collective instances written */
	uint64_t unposted;	/* nonblocking collectives completed without a post known */
};

struct an_deps;


/*
 * Write edges to w (borrowed). remote (borrowed; NULL: none): the other
 * shards of a distributed analysis, this one analysing its own processes'
 * events (analysis/remote.h). Returns NULL when out of memory.
 */
struct an_deps *an_deps_new(struct ls_writer *w, const struct an_remote *remote);

/*
 * Take one input record, after it has been written on. Edges it completes
 * are written after it. Returns 0, or a negative error: LS_ERR_SYNTAX
 * with *why set (the input breaks docs/stream.md), LS_ERR_NOMEM, or a
 * writer error.
 */
int an_deps_take(struct an_deps *d, struct an_item *it,
		 const char **why);

/* The kinds whose fields an_deps_take reads (LS_KIND_BIT): the others it passes over. */
uint64_t an_deps_reads(void);

/*
 * End of input: the other shards' facts still to come taken; count what
 * stayed unmatched or open. Returns 0, or a negative error as an_deps_take's.
 */
int an_deps_finish(struct an_deps *d, const char **why);

/* What it counted and wrote so far. */
struct an_deps_stats an_deps_stats(const struct an_deps *d);

void an_deps_free(struct an_deps *d);

#endif
