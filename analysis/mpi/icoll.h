/*
 * Nonblocking collectives (MPI_Iallreduce, ...): a process arrives where
 * it posts one (a coll_begin with its request, in an mpi_icoll activity)
 * and takes its part until the wait or test that completes it (a
 * coll_end with the same request) ends. The posts wait here, by process
 * and request, for their completions; a completion waits, on its stream,
 * for the end of the call it lies in.
 */
#ifndef AN_MPI_ICOLL_H
#define AN_MPI_ICOLL_H

#include <stdint.h>

#include "../../libstream/idmap.h"
#include "../../libstream/schema.h"

/* A post: its activity's enter (event id), time and stream id. */
struct an_icoll_post {
	uint64_t enter;
	int64_t t;
	uint64_t stream;
	uint32_t region;	/* the posting function (index) */
};

/* A completion, until its call ends. */
struct an_icoll_done {
	struct an_icoll_post post;
	uint32_t comm, root;	/* comm index; root process index or LS_NONE */
	enum ls_role shape;	/* from the operation's name: mpi_n2n, ... */
};

struct an_icoll {
	struct ls_idmap post_ix;	/* (process, request) -> index in posts */
	struct an_icoll_post *posts;
	uint32_t nposts, posts_cap;
	uint32_t *free_posts;		/* indices free for the next post */
	uint32_t nfree, free_cap;
	struct an_icoll_done **done;	/* by stream index: completions in its open call */
	uint32_t *ndone, *done_cap;
	uint32_t nstreams;
	uint64_t unposted;		/* completions of no post known (or a request id too large) */
};

void an_icoll_init(struct an_icoll *c);

/* Process proc posted request req. Returns 0 or LS_ERR_NOMEM. */
int an_icoll_post(struct an_icoll *c, uint32_t proc, uint64_t req, struct an_icoll_post post);

/*
 * The collective process proc posted as req completed in a call on
 * stream s (a stream index): kept for that call's end. Returns 0 (also
 * when no post is known: counted) or LS_ERR_NOMEM.
 */
int an_icoll_complete(struct an_icoll *c, uint32_t proc, uint64_t req, uint32_t s, uint32_t comm,
		      uint32_t root, enum ls_role shape);

/* The completions of the call ending on stream s: *n of them, taken (valid until the next call). */
const struct an_icoll_done *an_icoll_ended(struct an_icoll *c, uint32_t s, uint32_t *n);

void an_icoll_release(struct an_icoll *c);

#endif
