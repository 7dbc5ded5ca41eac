/*
 * What tr-deps tells other shards of a distributed analysis
 * (analysis/remote.h): one side of a message whose other side is another
 * shard's process, and one member's part in a collective whose other
 * members are partly another shard's. Every shard with a side of a
 * message, or a member of a collective, so sees every side and every
 * member in the whole stream's order, and matches as one process would;
 * the shard whose event completes a match writes its edges.
 */
#ifndef AN_MPI_FACTS_H
#define AN_MPI_FACTS_H

#include <stdint.h>

#include "../../libstream/defs.h"
#include "../remote.h"
#include "coll.h"
#include "p2p.h"

enum an_fact_kind { AN_FACT_MSG = 1, AN_FACT_MEMBER };

/*
 * A fact as it travels (the shards run one program: its layout is
 * theirs), a message's side only as long as it needs.
 */
struct an_fact {
	uint8_t kind;		/* enum an_fact_kind */
	uint8_t side;		/* a message's: enum an_p2p_side */
	uint8_t role;		/* a member's: its collective's shape (enum ls_role) */
	uint32_t comm;		/* comm index, or LS_NONE */
	union {
		struct {
			uint32_t src, dst;	/* its processes (indices) */
			int64_t tag;
			struct an_msg_end end;	/* this side */
		} msg;
		struct {
			uint32_t root, proc;	/* the root named (process index or LS_NONE), its process */
			struct an_coll_member m;	/* its part */
			struct an_coll_key key;	/* where its part ended */
		} member;
	} u;
};

/* The shard that analyses process index proc. */
uint32_t an_fact_owner(const struct an_remote *r, const struct ls_defs *d, uint32_t proc);

/*
 * One side of a message (made by the event of key t, s) to the shard of
 * the process on its other side, where that is another: 0, or a negative error.
 */
int an_fact_msg(const struct an_remote *r, const struct ls_defs *d, int64_t t, uint64_t s,
		enum an_p2p_side side, uint32_t src, uint32_t dst, uint32_t comm, int64_t tag,
		struct an_msg_end end);

/*
 * The other shards with a member in collective group g, into a new
 * array *out (free it) of *n, and the group's members this shard has
 * (their member indices) into a new array *own of *nown: 0, or LS_ERR_NOMEM.
 */
int an_fact_group_shards(const struct an_remote *r, const struct ls_defs *d, const struct an_coll *c, uint32_t g,
			 uint32_t **out, uint32_t *n, uint32_t **own, uint32_t *nown);

/*
 * A member's part (made by the event of key t, s) to shards to[0..n),
 * the other shards with a member in its group: 0, or a negative error.
 */
int an_fact_member(const struct an_remote *r, const uint32_t *to, uint32_t n, int64_t t, uint64_t s,
		   enum ls_role role, uint32_t comm, uint32_t root, uint32_t proc, const struct an_coll_member *m);

/* A fact received (len bytes) into *f: 0, or -1 where it is not one. */
int an_fact_read(const void *p, uint32_t len, struct an_fact *f);

#endif
