/* The event graph: nodes, their lookup by id, and collection. */
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "../libstream/vec.h"
#include "graph.h"

void an_graph_init(struct an_graph *g)
{
	memset(g, 0, sizeof(*g));
	g->now = INT64_MIN;
}

int an_graph_stream(struct an_graph *g)
{
	if (ls_vec_room(&g->last, &g->last_cap, g->nstreams, sizeof(*g->last)) < 0)
		return LS_ERR_NOMEM;
	g->last[g->nstreams++] = LS_NONE;
	return 0;
}

int an_graph_grow(struct an_graph *g)
{
	return ls_vec_room(&g->n, &g->cap, g->nn, sizeof(*g->n)) < 0 ? LS_ERR_NOMEM : 0;
}

/* The run before node i goes into the id map; i starts the next. */
int an_graph_start_run(struct an_graph *g, uint32_t i)
{
	int rc;

	for (uint32_t k = g->run_at; k < g->run_at + g->run_n; k++)
		if ((rc = ls_idmap_put(&g->ix, g->n[k].id, k)) < 0)
			return rc;
	g->run_at = i;
	g->run_id = g->n[i].id;
	g->run_n = 1;
	return 0;
}

int an_graph_unmark(struct an_graph *g)
{
	if (g->nn && ls_vec_room(&g->moved, &g->moved_cap, g->nn - 1, sizeof(*g->moved)) < 0)
		return LS_ERR_NOMEM;
	memset(g->moved, 0, (size_t)g->nn * sizeof(*g->moved));
	return 0;
}

int an_graph_collect(struct an_graph *g)
{
	uint32_t j = 0;
	int rc;

	for (uint32_t s = 0; s < g->nstreams; s++)
		an_graph_keep(g, g->last[s]);
	for (uint32_t i = 0; i < g->nn; i++) {
		if (g->moved[i]) {
			g->moved[i] = j++;
			continue;
		}
		g->moved[i] = LS_NONE;
		if (!g->dropped || g->n[i].t > g->dropped_t)
			g->dropped_t = g->n[i].t;
		g->dropped = true;
	}
	g->moved_n = g->nn;
	for (uint32_t i = 0; i < g->nn; i++)
		if (g->moved[i] != LS_NONE) {
			g->n[g->moved[i]] = g->n[i];
			g->n[g->moved[i]].prev = an_graph_moved(g, g->n[i].prev);
		}
	for (uint32_t s = 0; s < g->nstreams; s++)
		g->last[s] = an_graph_moved(g, g->last[s]);
	g->nn = j;
	ls_idmap_clear(&g->ix);
	g->run_n = 0;
	for (uint32_t i = 0; i < g->nn; i++)
		if ((rc = an_graph_index(g, i)) < 0)
			return rc;
	return 0;
}

size_t an_graph_bytes_per_node(void)
{
	/* the id map is at most half full: two slots a node, up to four after it grew */
	return sizeof(struct an_gnode) + 2 * sizeof(struct ls_idmap_slot) + sizeof(uint32_t);
}

void an_graph_release(struct an_graph *g)
{
	ls_idmap_release(&g->ix);
	free(g->n);
	free(g->last);
	free(g->moved);
	memset(g, 0, sizeof(*g));
}
