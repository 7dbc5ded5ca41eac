/*
 * The event graph of a stage that follows dependencies through time (the
 * critical path today; re-timing stages next): every event of a host
 * thread or GPU stream it takes is a node with its time, stream and the
 * node before it on its stream, found again by its event id.
 *
 * Memory: the graph holds the nodes added since its last collection. The
 * stage decides which it still needs (its roots, and what they reach),
 * marks them, and the graph drops the rest and renumbers the kept ones in
 * order; the stage moves its own per-node data the same way
 * (an_graph_move) and maps the node indices it holds (an_graph_moved).
 * Collected at global synchronization points, the graph grows with the
 * time between them, not with the run.
 */
#ifndef AN_GRAPH_H
#define AN_GRAPH_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../libstream/defs.h"
#include "../libstream/idmap.h"

struct an_gnode {
	int64_t t;
	uint64_t id;
	uint32_t s;		/* stream index */
	uint32_t prev;		/* the node before it on its stream, LS_NONE: none kept */
};

struct an_graph {
	struct an_gnode *n;
	uint32_t nn, cap;
	uint32_t *last;		/* per stream index: its last node, LS_NONE: none */
	uint32_t nstreams, last_cap;
	struct ls_idmap ix;	/* event id -> node, for nodes outside the run */
	uint32_t run_at, run_n;	/* the run: the newest nodes, from run_at, with ids run_id, run_id + 1, ... */
	uint64_t run_id;
	uint32_t *moved;	/* a collection's marks (1: keep), then old index -> new (LS_NONE: dropped) */
	uint32_t moved_cap, moved_n;	/* moved_n: the nodes the last collection saw */
	uint64_t added;		/* nodes ever added */
	int64_t first, now;	/* the earliest and latest time added */
	bool dropped;		/* a node was dropped: dropped_t is the latest such time */
	int64_t dropped_t;
};

void an_graph_init(struct an_graph *g);

/* A stream was defined (the next stream index): it has no node yet. Returns 0 or LS_ERR_NOMEM. */
int an_graph_stream(struct an_graph *g);

/* an_graph_add's slow paths: room for one more node; node i starts a new run of ids. */
int an_graph_grow(struct an_graph *g);
int an_graph_start_run(struct an_graph *g, uint32_t i);

/*
 * Find node i by its id from now on. Nodes are added, and kept at a
 * collection, in order: i follows the run, which it extends or ends.
 */
static inline int an_graph_index(struct an_graph *g, uint32_t i)
{
	if (g->run_n && g->n[i].id == g->run_id + g->run_n) {
		g->run_n++;
		return 0;
	}
	return an_graph_start_run(g, i);
}

/*
 * Add a node for event id at time t on stream index s, after the stream's
 * last node: its index in *i. Event ids must be unique. Returns 0 or
 * LS_ERR_NOMEM.
 */
static inline int an_graph_add(struct an_graph *g, uint64_t id, int64_t t, uint32_t s,
			       uint32_t *i)
{
	uint32_t x = g->nn;
	int rc;

	if (x >= g->cap && (rc = an_graph_grow(g)) < 0)
		return rc;
	g->n[x] = (struct an_gnode){ .t = t, .id = id, .s = s, .prev = g->last[s] };
	if ((rc = an_graph_index(g, x)) < 0)
		return rc;
	g->last[s] = x;
	g->nn++;
	if (t > g->now)
		g->now = t;
	if (!g->added++ || t < g->first)
		g->first = t;
	*i = x;
	return 0;
}

/*
 * Event id to node. The newest nodes, whose ids run on by one (as tr-read
 * numbers events), are found by their place in that run, so they need no
 * room in the id map nor time to enter and clear it; the others are in
 * the map.
 */
static inline bool an_graph_find(const struct an_graph *g, uint64_t id, uint32_t *i)
{
	if (id - g->run_id < g->run_n) {
		*i = g->run_at + (uint32_t)(id - g->run_id);
		return true;
	}
	return ls_idmap_get(&g->ix, id, i);
}

/* Collection, first step: every node unmarked (to be dropped). Returns 0 or LS_ERR_NOMEM. */
int an_graph_unmark(struct an_graph *g);

/* Mark node x (LS_NONE: none) to be kept. */
static inline void an_graph_keep(struct an_graph *g, uint32_t x)
{
	if (x != LS_NONE)
		g->moved[x] = 1;
}

static inline bool an_graph_kept(const struct an_graph *g, uint32_t x)
{
	return g->moved[x] != 0;
}

/*
 * Collection, second step: drop every node not marked, renumbering the
 * others in order; every stream's last node is kept. After it, and until
 * the next collection, an_graph_moved maps old indices to new. Returns 0
 * or LS_ERR_NOMEM.
 */
int an_graph_collect(struct an_graph *g);

/* Node x's index after the last collection: LS_NONE if it was dropped, or is LS_NONE. */
static inline uint32_t an_graph_moved(const struct an_graph *g, uint32_t x)
{
	return x == LS_NONE ? LS_NONE : g->moved[x];
}

/* Move a stage's per-node array v (elements of size bytes) as the last collection moved the nodes. */
static inline void an_graph_move(const struct an_graph *g, void *v, size_t size)
{
	for (uint32_t i = 0; i < g->moved_n; i++)
		if (g->moved[i] != LS_NONE && g->moved[i] != i)
			memcpy((char *)v + (size_t)g->moved[i] * size, (char *)v + (size_t)i * size, size);
}

/* Bytes one kept node takes in the graph (node, id map slots, collection mark). */
size_t an_graph_bytes_per_node(void);

void an_graph_release(struct an_graph *g);

#endif
