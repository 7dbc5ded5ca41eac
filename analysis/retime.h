/*
 * The re-timing engine of the stages that move events (tr-clock,
 * tr-project): every event of the stream held in the event graph with a
 * new time and the edges out of it and into it, so that a stage's rule
 * can move an event and what it leads to, and go back to what held it;
 * and the re-timed stream, written in the order of the new times once
 * the input is a window past them (at each multiple of an eighth of the
 * window the input passes: when depends on the times alone), or, for a
 * rule that also moves events earlier, once they are before the time it
 * says no event still to come can be earlier than (docs/stream.md rule 4):
 * an edge once its two ends and the events read before it that did not
 * move are written, any other record after every event read before it.
 * An event keeps its record's bytes until it is written: unmoved, as it
 * was read; moved, with its new t in place. A stream whose events do not
 * move is written as read.
 *
 * Memory: the events of one window and the records waiting for them;
 * written events are kept until the input is another window past them (an
 * edge may still come from them), then dropped. A rule keeps data of its
 * own per held event beside the engine's (an_retime_aux).
 */
#ifndef AN_RETIME_H
#define AN_RETIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../libstream/buf.h"
#include "../libstream/defs.h"
#include "../libstream/record.h"
#include "../libstream/writer.h"
#include "graph.h"
#include "item.h"

/* The new time of an event whose rule has not settled it yet: held, and holding back what follows. */
#define AN_RT_NOT_YET INT64_MAX

/* What the engine keeps of a held event besides its graph node (same index). */
struct an_rt_node {
	int64_t L;		/* its new time (AN_RT_NOT_YET: not settled) */
	uint64_t seq;		/* its place in the input */
	size_t at;		/* its record's bytes in the held events' bytes */
	uint32_t len;
	uint32_t next;		/* the next node on its stream, LS_NONE: none yet */
	uint32_t out;		/* its first out-edge, LS_NONE: none */
	uint32_t in;		/* its first in-edge (from a node not yet written), LS_NONE: none */
	uint32_t waiters;	/* the first edge record waiting for it to be written */
	uint32_t r;		/* an enter's or leave's region index, LS_NONE */
	enum ls_kind kind;
	bool written;
};

/* An edge out of an event not yet written (dropped when it is written). */
struct an_rt_edge {
	uint32_t from;		/* node */
	uint32_t to;		/* node, LS_NONE: no longer kept */
	uint32_t next;		/* the source's next out-edge */
	uint32_t next_in, prev_in;	/* the target's other in-edges (prev_in LS_NONE: its first) */
	int64_t latency;
	bool moves;		/* the stage moves the target along with the source */
	bool marked;		/* the stage's own mark (tr-clock: counted once) */
};

/*
 * A record that is not an event, waiting for the events read before it
 * that did not move; an edge also for its two ends.
 */
struct an_rt_rec {
	uint64_t seq;
	size_t at;
	uint32_t len;
	uint32_t a, b;		/* an edge's ends (nodes), LS_NONE: not an edge, or an end not kept */
	uint32_t after;		/* the event read last before it (node), LS_NONE: none, or not kept */
	uint32_t next_waiter;	/* the next edge record waiting for the same node */
	bool done;		/* written already */
	bool is_edge;		/* an edge record, edge as read: noted typed when written */
	struct an_edge_rec edge;
};

/* An event to write, in the order of its new time. */
struct an_rt_ready {
	int64_t L;
	uint64_t sid, seq;
	uint32_t i;
};

struct an_retime {
	struct an_graph g;
	struct an_rt_node *n;	/* by the graph's node index */
	uint32_t cap;
	struct an_rt_edge *e;
	uint32_t ne, e_cap, free_e;
	struct an_rt_rec *q;	/* the other records, in input order: q[q_head .. q_n) wait */
	uint32_t first_still;	/* the earliest node neither written nor moved */
	uint32_t q_head, q_n, q_cap;
	struct ls_buf evb, qb;	/* held events' and other records' bytes */
	uint32_t first_held;	/* the earliest node not written */
	struct an_rt_ready *ready;
	uint32_t ready_cap;
	uint32_t *woken;	/* edge records whose ends are written, to write in their order */
	uint32_t nwoken, woken_cap;
	uint32_t gc_at;
	uint64_t seq;
	int64_t now;		/* the latest event time read */
	int64_t stepped;	/* when events were last written */
	int64_t window;
	bool earlier;		/* the rule moves events earlier too: an_retime_write decides */
	void *aux;		/* the rule's data per node (aux_size bytes each, zeroed when held) */
	size_t aux_size;
	uint32_t aux_cap;
	const struct ls_defs *defs;
	struct ls_writer *w;
	uint64_t moved, max_shift, total_shift;	/* over the events written */
	struct an_typed_list typed;	/* the events and edges written since an_retime_typed */
	uint64_t peak;		/* events held at once */
};

/* Write to w, with the stream ids of defs (both borrowed); hold events window ns. */
void an_retime_init(struct an_retime *rt, struct ls_writer *w, const struct ls_defs *defs,
		    int64_t window);

/*
 * For a rule that moves events earlier as well as later: events are then
 * written only through an_retime_write, and the rule keeps size bytes of
 * its own per held event, zeroed when it is held and moved along when the
 * graph is collected (at an_retime_aux). Call before the first event.
 */
void an_retime_earlier(struct an_retime *rt, size_t size);

static inline void *an_retime_aux(const struct an_retime *rt, uint32_t i)
{
	return (char *)rt->aux + (size_t)i * rt->aux_size;
}

/* A stream was defined. Returns 0 or LS_ERR_NOMEM. */
int an_retime_stream(struct an_retime *rt);

/*
 * Where node x goes on from the new time of the node before it on its
 * stream: the interval between them kept (the shift its stream has
 * reached goes on).
 */
static inline int64_t an_retime_go_on(const struct an_retime *rt, uint32_t x)
{
	uint32_t p = rt->g.n[x].prev;

	return p == LS_NONE ? rt->g.n[x].t : rt->n[p].L + (rt->g.n[x].t - rt->g.n[p].t);
}

/*
 * Hold event ev (its record's len bytes at raw) at a new time its
 * stream's shift puts it (an_retime_go_on), or, where the rule moves
 * events earlier, not settled (AN_RT_NOT_YET): its node in *i. Returns 0
 * or LS_ERR_NOMEM.
 */
int an_retime_event(struct an_retime *rt, const uint8_t *raw, uint32_t len, const struct an_event *ev,
		    uint32_t *i);

/*
 * The events (their new times) and edges written since the last call, typed, each
 * at its byte offset in what was written to the writer since: *n of them,
 * valid until the next event is written. The stage hands them to the
 * stages after it (an_stage.typed).
 */
const struct an_typed *an_retime_typed(struct an_retime *rt, size_t *n);

/*
 * Remember the edge from node a (if it is not written yet) to node b: its
 * index in *kept (NULL: not asked), LS_NONE where a is written. Returns 0
 * or LS_ERR_NOMEM.
 */
int an_retime_edge(struct an_retime *rt, uint32_t a, uint32_t b, int64_t latency, bool moves,
		   uint32_t *kept);

/*
 * Hold item it, a record that is neither an event nor an edge, until the
 * events read before it are written. Records keep their order, and never
 * pass an edge before them. Returns 0 or LS_ERR_NOMEM.
 */
int an_retime_other(struct an_retime *rt, const struct an_item *it);

/*
 * Take edge item it (whose ends were read: an_trace_derived): its type in
 * *e, its ends in *a and *b (nodes, held or written). An edge is held
 * until its ends and the events read before it that did not move are
 * written, so that a stage after this one gets it while it still keeps
 * their activities; where the rule moves events earlier, until its ends
 * and the event read last before it are (events that did not move may
 * now come long after). A collective's edges, as its instance, wait for
 * every event read before them (a stage after this one takes them once
 * all members left); so does an edge whose end is no longer kept.
 * Returns 1 where both ends are still kept (the rule's to follow); 0
 * where one is not, the edge counted in *late (its target no longer kept:
 * written long ago) or *lost (its source); LS_ERR_SYNTAX with *why set,
 * or LS_ERR_NOMEM.
 */
int an_retime_take_edge(struct an_retime *rt, struct an_item *it, enum ls_edge *e,
			uint32_t *a, uint32_t *b, uint64_t *late, uint64_t *lost, const char **why);

/*
 * After each record: write what the window has passed (when the input
 * passes a multiple of an eighth of the window; not for a rule that moves
 * events earlier), and drop what is no longer needed. Returns 0 or an error.
 */
int an_retime_step(struct an_retime *rt);

/*
 * Write the held events whose new time is before due, in the order of
 * their new times (the rule says no event still to come, or held not
 * settled yet, will be earlier). Returns 0 or an error.
 */
int an_retime_write(struct an_retime *rt, int64_t due);

/* Write everything held (the input ended, or stopped at a bad record). */
int an_retime_finish(struct an_retime *rt);

/* Events held now. */
static inline uint32_t an_retime_held(const struct an_retime *rt)
{
	return rt->g.nn - rt->first_held;
}

void an_retime_release(struct an_retime *rt);

#endif
