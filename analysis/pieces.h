/*
 * The pieces of a resolved stretch of the critical path: from a chain of
 * events in path order, the time spent in each activity. Between two
 * events of one stream the path is in the activity open after the first;
 * across an edge it is in transit, charged to the activity of the edge's
 * source until that activity ended, and after that to the activity open
 * on the target's stream before the target (a message still being
 * transferred, work queued on a GPU, or clocks that disagree): no piece is
 * longer than its activity. Only a call that communicates or synchronizes
 * (MPI, the GPU runtime, GPU work, OpenMP barriers, critical sections and
 * locks) is charged so: the source of a fork, or of an edge
 * from plain code or no activity, does nothing for the transit, which
 * goes to the target's side whole; a fork's, where the team thread was in
 * no activity, is the OpenMP runtime's team start. Time only goes forward: a step to an earlier time (clocks that
 * disagree) takes 0 ns, and the path goes on from the latest time reached,
 * so the pieces tile the run without overlap. The chain is cut into
 * sub-paths where it changes process, and sub-paths can be resolved on
 * several threads with the same result.
 */
#ifndef AN_PIECES_H
#define AN_PIECES_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/defs.h"
#include "derived.h"
#include "graph.h"

/* What the path keeps of an event besides its graph node (same index). */
struct an_cp_node {
	int64_t since;		/* a dependency later than this was waited for */
	uint64_t own;		/* the activity it belongs to (enter id) */
	uint64_t after;		/* the activity open after it on its stream */
	uint32_t own_r, after_r;	/* their region indices, LS_NONE: none */
	uint32_t pred;		/* what it waited for last (node index) */
	uint32_t leave;		/* an enter: its leave, once read */
	uint32_t own_enter;	/* the enter of its activity (node index), LS_NONE: none kept */
	uint32_t pb;		/* an enter: its activity's blame-on-path entry (pathblame.h); another
				 * event: AN_FORKED where pred is a fork's (a team thread's start); else LS_NONE */
};

#define AN_FORKED (LS_NONE - 1)

/* Whether b continues a: the same activity on the same stream, right after. */
static inline bool an_piece_goes_on(const struct an_piece *a, const struct an_piece *b)
{
	return a->s == b->s && a->act == b->act && a->r == b->r &&
	       a->t + (int64_t)a->dur == b->t;
}

struct an_pieces {
	struct an_piece *v;	/* room for two per step of the chain */
	uint32_t *sub;		/* sub-path k: steps sub[k] .. sub[k+1]-1 */
	int64_t *from;		/* the latest time reached before sub-path k */
	uint32_t *count;	/* pieces of sub-path k, at v + 2 * sub[k] */
	uint32_t *over;		/* sub-path k's transits past their source activity */
	uint64_t *team;		/* sub-path k's ns of team start */
	uint32_t nsub, v_cap, sub_cap, count_cap, from_cap, over_cap, team_cap;
	int64_t clock;		/* the latest time reached: in, and out */
	uint64_t skew;		/* steps to an earlier time */
	uint64_t overrun;	/* transits that outlasted their source activity */
	uint64_t team_start;	/* ns of team start (fork transits) */
	uint32_t team_region;	/* the team start's region index; LS_NONE: none defined (in no activity) */
	const uint8_t *roles;	/* the role of each region index */
};


/*
 * Resolve the steps between consecutive nodes of chain[0 .. n-1] (node
 * indices into g and nodes, path order), going on from p->clock, into pieces,
 * on jobs threads; adds to p->skew, p->overrun and p->team_start. Pieces of one activity
 * that follow each other within a sub-path are one piece; sub-path k's are
 * p->v[2 * p->sub[k] .. + p->count[k]).
 * Returns 0, or LS_ERR_NOMEM.
 */
int an_pieces_resolve(struct an_pieces *p, const struct an_gnode *g,
		      const struct an_cp_node *nodes, const uint32_t *chain, uint32_t n,
		      const struct ls_stream *streams, unsigned jobs);

void an_pieces_release(struct an_pieces *p);

#endif
