/*
 * Where tr-deps' rules put the edges and collective instances they find:
 * written at once, counted. Each paradigm's rules (MPI in deps.c with
 * mpi/, GPU in gpu/, OpenMP in omp/deps.c) get this and the trace
 * state, not tr-deps itself.
 */
#ifndef AN_EDGES_H
#define AN_EDGES_H

#include <stdint.h>

#include "../libstream/defs.h"
#include "../libstream/schema.h"
#include "../libstream/writer.h"
#include "item.h"

struct an_edges {
	struct ls_writer *w;
	const struct ls_defs *defs;	/* for the ids of comms and processes */
	uint64_t count[LS_E__COUNT];
	uint64_t instances;	/* matched collective instances, self ones too */
	struct an_typed_list typed;	/* the edges written since the stage was last asked */
};

/* Write an edge record (counted; noted typed). Returns 0, a writer error or LS_ERR_NOMEM. */
int an_edges_write(struct an_edges *e, uint64_t from, uint64_t to, enum ls_edge type);

/*
 * Write an instance record: acts, and comm and root where not LS_NONE
 * (indices). Returns 0 or a writer error.
 */
int an_edges_instance(struct an_edges *e, const uint64_t *acts, uint32_t n, uint32_t comm,
		      uint32_t root);

#endif
