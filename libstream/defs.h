/*
 * The definitions an analysis stage keeps from the stream: processes,
 * streams, region roles and communicators, each found by its id and
 * numbered densely (an index) in the order of definition.
 */
#ifndef LS_DEFS_H
#define LS_DEFS_H

#include <stdbool.h>
#include <stdint.h>

#include "record.h"
#include "idmap.h"

#define LS_NONE UINT32_MAX

struct ls_process {
	uint64_t id;
	char *name;		/* as defined, NULL: none */
	bool ranked;		/* has an MPI rank: takes part in Init/Finalize */
	uint32_t *hosts;	/* its host streams (indices), in order of definition */
	uint32_t nhosts, hosts_cap;
};

struct ls_stream {
	uint64_t id;
	char *name;		/* as defined, NULL: none */
	uint32_t process;	/* index */
	bool host;		/* a host thread (not a GPU stream or metric) */
	bool first_host;	/* the first host thread of its process */
	bool gpu;		/* a GPU stream */
	bool null;		/* GPU: its device's legacy default stream */
	uint64_t device;	/* GPU: device number (0 if not given) */
};

struct ls_comm {
	uint64_t id;
	uint32_t *members;	/* process indices, in rank order */
	uint32_t n;		/* 0: MPI_COMM_SELF, each process alone */
	struct ls_idmap rank_of;	/* process index -> rank */
	char *paradigm;		/* NULL: MPI; else a team of streams, its paradigm's name */
	uint32_t *streams;	/* with a paradigm: its members, stream indices in rank order */
	uint32_t nstreams;
};

/* A copy's direction, from its region's dir. */
enum ls_dir { LS_DIR_NONE, LS_DIR_HTOD, LS_DIR_DTOH, LS_DIR_OTHER };

struct ls_defs {
	struct ls_process *procs;
	struct ls_stream *streams;
	uint8_t *roles;		/* enum ls_role per region index */
	uint8_t *dirs;		/* copy direction per region index (ls_dir) */
	uint64_t *region_ids;	/* id per region index */
	struct ls_comm *comms;
	uint32_t nprocs, nstreams, nregions, ncomms;
	uint32_t procs_cap, streams_cap, roles_cap, dirs_cap, region_ids_cap, comms_cap;
	uint32_t ranked;	/* processes with a rank */
	struct ls_idmap proc_ix, stream_ix, region_ix, comm_ix;
};

void ls_defs_init(struct ls_defs *d);

/* The definitions ls_defs_take keeps, as a set of LS_KIND_BIT. */
#define LS_DEFS_KINDS (LS_KIND_BIT(LS_K_PROCESS) | LS_KIND_BIT(LS_K_STREAM) | \
		       LS_KIND_BIT(LS_K_REGION) | LS_KIND_BIT(LS_K_COMM))

/*
 * Keep rec if it is a process, stream, region or comm definition.
 * Returns 1 if it was one, 0 for any other record, or a negative error:
 * LS_ERR_NOMEM, or LS_ERR_SYNTAX with *why set (a required field missing
 * or of the wrong type, an id defined twice, an undefined process).
 */
int ls_defs_take(struct ls_defs *d, const struct ls_record *rec,
		 const char **why);

/* Index of a defined id, or LS_NONE. */
static inline uint32_t ls_index(const struct ls_idmap *m, uint64_t id)
{
	uint32_t ix;

	return ls_idmap_get(m, id, &ix) ? ix : LS_NONE;
}

/*
 * The index in m of the definition a field names, read as got (0: id, as
 * read; negative: the field missing), or LS_NONE with *why set to problem
 * (the field missing, or naming no definition).
 */
static inline uint32_t ls_defs_named(const struct ls_idmap *m, int got, uint64_t id, const char *problem,
				     const char **why)
{
	uint32_t ix;

	if (got < 0 || (ix = ls_index(m, id)) == LS_NONE) {
		*why = problem;
		return LS_NONE;
	}
	return ix;
}

/* The index of the definition that field f of rec names in m (ls_defs_named). */
static inline uint32_t ls_defs_field(const struct ls_idmap *m, const struct ls_record *rec,
				     enum ls_field f, const char *problem, const char **why)
{
	uint64_t id = 0;
	int got = ls_get_u64(rec, f, &id);

	return ls_defs_named(m, got, id, problem, why);
}

/* Rank of process index p in comm c, or LS_NONE if it is not a member. */
static inline uint32_t ls_comm_rank(const struct ls_comm *c, uint32_t p)
{
	return ls_index(&c->rank_of, p);
}

void ls_defs_release(struct ls_defs *d);

#endif
