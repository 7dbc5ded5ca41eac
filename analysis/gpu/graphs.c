/*
 * tr-deps for CUDA graphs: a graph's launch (cudaGraphLaunch,
 * cuGraphLaunch, hipGraphLaunch) enqueues all its nodes' work under one
 * correlation id, which every activity of the graph carries. They are
 * one work (launch.c matches each by the id, while the stream runs
 * nothing else): each begins after the launch, and a synchronization
 * after the graph waits for its last activity on each stream it ran on.
 * A trace gives no edges between a graph's nodes: its activities on one
 * stream keep their order, those on others may overlap.
 */
#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "deps_private.h"

/* Add graph w's last activity on stream s: 0, or LS_ERR_NOMEM. */
static int add_tail(struct an_gpu_deps *o, uint32_t w, uint32_t s, uint64_t leave, int64_t t)
{
	uint32_t i, *at = &o->work[w].tails;

	if (ls_pool_take(&o->tail, &o->ntail, &o->tail_cap, sizeof(*o->tail), &o->free_tail, &i) < 0)
		return LS_ERR_NOMEM;
	while (*at != LS_NONE)	/* last: the order the streams were first seen */
		at = &o->tail[*at].next;
	o->tail[i] = (struct an_gtail){ leave, t, s, LS_NONE };
	*at = i;
	return 0;
}

int an_gpu_graph_member(struct an_gpu_deps *o, uint32_t w)
{
	struct an_work *x = &o->work[w];

	if (x->graph)
		return 0;
	x->graph = true;
	/* its first activity ended already: the others' ends are noted as they come */
	return x->state == AN_WORK_DONE ? add_tail(o, w, x->ran, x->leave, x->t1) : 0;
}

int an_gpu_graph_ended(struct an_gpu_deps *o, uint32_t w, uint32_t s, uint64_t leave, int64_t t)
{
	for (uint32_t i = o->work[w].tails; i != LS_NONE; i = o->tail[i].next)
		if (o->tail[i].stream == s) {
			o->tail[i].leave = leave;
			o->tail[i].t1 = t;
			return 0;
		}
	return add_tail(o, w, s, leave, t);
}

int an_gpu_graph_edges(struct an_gpu_deps *o, uint32_t w, uint64_t to, enum ls_edge type, bool bounded,
		       int64_t before)
{
	int n = 0, rc;

	for (uint32_t i = o->work[w].tails; i != LS_NONE; i = o->tail[i].next) {
		if (bounded && o->tail[i].t1 > before)
			continue;
		if ((rc = an_edges_write(o->out, o->tail[i].leave, to, type)) < 0)
			return rc;
		n++;
	}
	return n;
}

void an_gpu_graph_free(struct an_gpu_deps *o, uint32_t w)
{
	for (uint32_t i = o->work[w].tails, next; i != LS_NONE; i = next) {
		next = o->tail[i].next;
		ls_pool_give(o->tail, sizeof(*o->tail), &o->free_tail, i);
	}
	o->work[w].tails = LS_NONE;
}
