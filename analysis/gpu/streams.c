/* tr-deps for CUDA: what a stream's work runs after (the null stream, stream waits). */
#include <stdlib.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "deps_private.h"

/* Stream s's next work will wait for work w too (each once). */
int an_gpu_wait_for(struct an_gpu_deps *o, uint32_t s, uint32_t w)
{
	struct an_gpu_stream *g = &o->gs[s];

	for (uint32_t i = 0; i < g->nwaits; i++)
		if (g->waits[i] == w)
			return 0;
	if (ls_vec_room(&g->waits, &g->waits_cap, g->nwaits, sizeof(*g->waits)) < 0)
		return LS_ERR_NOMEM;
	g->waits[g->nwaits++] = w;
	an_gpu_work_ref(o, w);
	return 0;
}

/* The legacy default stream of process p's device dev, or LS_NONE. */
uint32_t an_gpu_null_stream_of(const struct an_gpu_deps *o, uint32_t p, uint64_t dev)
{
	const struct ls_defs *defs = &o->tr->defs;
	const struct an_gpu_proc *gp = &o->gp[p];

	for (uint32_t i = 0; i < gp->nstreams; i++) {
		const struct ls_stream *x = &defs->streams[gp->streams[i]];

		if (x->null && x->device == dev)
			return gp->streams[i];
	}
	return LS_NONE;
}

/*
 * Work w is placed on stream s: it runs after what the null stream
 * serializes it with, and after the stream_wait its stream was told of.
 */
int an_gpu_place(struct an_gpu_deps *o, uint32_t w, uint32_t s)
{
	const struct ls_defs *defs = &o->tr->defs;
	struct an_gpu_stream *g = &o->gs[s];
	struct an_gpu_proc *gp = &o->gp[o->work[w].proc];
	uint32_t n = an_gpu_null_stream_of(o, o->work[w].proc, defs->streams[s].device);
	int rc;

	if (n == s) {
		for (uint32_t i = 0; i < gp->nstreams; i++) {
			uint32_t x = gp->streams[i], l = o->gs[x].last;

			if (x == s || defs->streams[x].device != defs->streams[s].device ||
			    l == LS_NONE || o->work[l].null_covered)
				continue;
			o->work[l].null_covered = true;
			if ((rc = an_gpu_dep_add(o, w, l, LS_E_NULL_STREAM)) < 0)
				return rc;
		}
	} else if (n != LS_NONE && o->gs[n].last != LS_NONE &&
		   (g->last == LS_NONE ||
		    o->work[o->gs[n].last].placed > o->work[g->last].placed) &&
		   (rc = an_gpu_dep_add(o, w, o->gs[n].last, LS_E_NULL_STREAM)) < 0) {
		return rc;
	}
	for (uint32_t i = 0; i < g->nwaits; i++) {
		if ((rc = an_gpu_dep_add(o, w, g->waits[i], LS_E_STREAM_WAIT)) < 0)
			return rc;
		an_gpu_work_unref(o, g->waits[i]);
	}
	g->nwaits = 0;
	o->work[w].stream = s;
	o->work[w].placed = ++gp->placed;
	an_gpu_work_hold(o, &g->last, w);
	return 0;
}

/*
 * An edge from the end of work x to event to, at t. If x has not ended
 * (it ends at t, on a stream read later, or the clocks disagree), the
 * edge waits for x's end.
 */
static int after(struct an_gpu_deps *o, uint32_t x, uint64_t to, int64_t t, enum ls_edge type)
{
	const struct an_work *w = &o->work[x];

	if (w->state == AN_WORK_DONE) {
		o->st.order += w->t1 > t;
		return an_edges_write(o->out, w->leave, to, type);
	}
	if (ls_vec_room(&o->pending, &o->pending_cap, o->npending, sizeof(*o->pending)) < 0)
		return LS_ERR_NOMEM;
	o->pending[o->npending++] = (struct an_pending){ .work = x, .type = (uint8_t)type,
							 .to = to, .t = t };
	an_gpu_work_ref(o, x);
	return 0;
}

/* Work w has ended: the edges that waited for it. */
int an_gpu_pending_edges(struct an_gpu_deps *o, uint32_t w)
{
	uint32_t j = 0;
	int rc = 0;

	for (uint32_t i = 0; i < o->npending; i++) {
		struct an_pending p = o->pending[i];

		if (p.work != w || rc < 0) {
			o->pending[j++] = p;
			continue;
		}
		o->st.order += o->work[w].t1 > p.t;
		rc = an_edges_write(o->out, o->work[w].leave, p.to, p.type);
		an_gpu_work_unref(o, w);
	}
	o->npending = j;
	return rc;
}

/* The edges into work w, which began at its enter, from what it waited for. */
int an_gpu_began_after(struct an_gpu_deps *o, uint32_t w)
{
	int rc;

	for (uint32_t x = o->work[w].deps; x != LS_NONE; x = o->dep[x].next)
		if ((rc = after(o, o->dep[x].work, o->work[w].enter, o->work[w].t0,
				o->dep[x].type)) < 0)
			return rc;
	return 0;
}
