/*
 * Matching collective operations offline: the k-th collective a process
 * leaves on a communicator is its part in the communicator's k-th
 * instance. MPI_Init and MPI_Finalize are instances over every ranked
 * process. An instance is complete when all its members have left it;
 * instances complete in order.
 */
#ifndef AN_MPI_COLL_H
#define AN_MPI_COLL_H

#include <stdbool.h>
#include <stdint.h>

#include "../../libstream/defs.h"
#include "../../libstream/idmap.h"

/*
 * One process's part in an instance: its activity, or a nonblocking
 * one's post (enter, t) and the call that completed it (done_act, leave).
 */
struct an_coll_member {
	uint64_t enter, leave;	/* event ids */
	int64_t t;		/* entered */
	uint64_t stream;	/* stream id: breaks ties between equal t */
	bool left;
	uint64_t done_act;	/* the completing call's enter; UINT64_MAX: the same activity */
	bool remote;		/* another shard's (analysis/remote.h) */
	uint32_t region;	/* the function it ran (index), where members must agree on it; else LS_NONE */
};

/* Where a member's part ended in the stream's order: its leave's time and stream id. */
struct an_coll_key {
	int64_t t;
	uint64_t s;
};

struct an_coll_inst {
	struct an_coll_inst *next;
	uint32_t group;		/* index of its group */
	uint32_t n, left;
	uint8_t role;		/* enum ls_role of the first member to leave (least key) */
	bool mixed;		/* members left different kinds of collective, ran different functions, or named different roots */
	uint32_t region;	/* the function the members that name one ran (the first to leave's), or LS_NONE */
	uint32_t root;		/* member index, or LS_NONE: named by the last member to leave naming one */
	struct an_coll_key role_key, root_key;	/* whose role and root those are */
	struct an_coll_member m[];
};

struct an_coll_group {
	uint32_t comm;		/* comm index, or LS_NONE for Init/Finalize */
	uint32_t n;
	struct ls_idmap world;	/* Init/Finalize: ranked process index -> member */
	uint64_t *seq;		/* per member: instances it has left */
	uint64_t base;		/* sequence number of head */
	struct an_coll_inst *head, *tail;
};

struct an_coll {
	struct ls_idmap group_ix;	/* comm index, or pseudo key -> group */
	struct an_coll_group *groups;
	uint32_t ngroups, groups_cap;
	uint64_t open;			/* instances not complete */
};

/* Where a process takes part: its group and its rank in it. */
struct an_coll_part {
	uint32_t group, rank;
};

void an_coll_init(struct an_coll *c);

/*
 * Whether an activity of this role on process index proc, whose collective
 * end event named comm (a comm index, LS_NONE if it had none), is part of
 * an instance: a collective with a comm it is a member of (or
 * MPI_COMM_SELF), or Init or Finalize of a ranked process.
 */
bool an_coll_expected(const struct ls_defs *d, enum ls_role role,
		      uint32_t comm, uint32_t proc);

/*
 * The instance group of an activity (arguments as an_coll_expected).
 * Returns 1 with *part set; 2 if the process is alone in it
 * (MPI_COMM_SELF: an instance of one, complete at once); 0 if it is part
 * of no instance; or LS_ERR_NOMEM.
 */
int an_coll_part(struct an_coll *c, const struct ls_defs *d, enum ls_role role,
		 uint32_t comm, uint32_t proc, struct an_coll_part *part);

/*
 * The instance the member's next part belongs to (made if new), or NULL
 * when out of memory.
 */
struct an_coll_inst *an_coll_next(struct an_coll *c, struct an_coll_part part);

/*
 * A member left its part, at key: root is the root's process index
 * (LS_NONE if none was named). The instance's shape and root do not
 * depend on the order members are taken in (the least key's shape, the
 * greatest key's root), only its completion does. Returns 1 with *done
 * set when this completed the oldest instance of the group (the caller
 * then owns it and frees it with free()), 0 otherwise, or LS_ERR_NOMEM.
 */
int an_coll_leave(struct an_coll *c, const struct ls_defs *d,
		  struct an_coll_part part,
		  enum ls_role role, uint32_t root, struct an_coll_key key,
		  const struct an_coll_member *m, struct an_coll_inst **done);

/*
 * What each member of a complete instance waited for, by its shape:
 * dep[i] is the member whose arrival member i could not leave before
 * (the latest to enter among those it needs data from), or LS_NONE.
 *  - N-to-N, Barrier, Init, Finalize: every other member;
 *  - one-to-N: a non-root needs the root; the root needs nobody;
 *  - N-to-one: the root needs every other member; the others nobody;
 *  - Scan, Exscan: member i needs members 0 .. i-1.
 * Latest means the greatest (t, stream id) of the enter.
 */
void an_coll_deps(const struct an_coll_inst *inst, uint32_t *dep);

/*
 * Open instances counted once over shards (analysis/remote.h): those
 * whose first member to have left, in rank order, is not another shard's.
 */
uint64_t an_coll_open_own(const struct an_coll *c);

/* Instances still open, for the report; frees them. */
void an_coll_release(struct an_coll *c);

#endif
