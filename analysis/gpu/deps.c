/* tr-deps for CUDA: launch, synchronization and inter-stream edges; each rule in the file of its concept (deps_private.h). */
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "deps_private.h"

/* Correlation ids and CUDA events are per process: keys pair them. */

void an_gpu_deps_init(struct an_gpu_deps *o, const struct an_trace *tr, struct an_edges *out)
{
	memset(o, 0, sizeof(*o));
	o->free_work = o->free_dep = o->free_sync = o->free_tail = LS_NONE;
	o->tr = tr;
	o->out = out;
}

int an_gpu_deps_stream(struct an_gpu_deps *o)
{
	const struct ls_defs *defs = &o->tr->defs;
	uint32_t s = defs->nstreams - 1, p = defs->streams[s].process;
	uint32_t old = o->gp_cap, old_gs = o->gs_cap;
	struct an_gpu_proc *gp;

	if (ls_vec_room(&o->gs, &o->gs_cap, s, sizeof(*o->gs)) < 0)
		return LS_ERR_NOMEM;
	memset(o->gs + old_gs, 0, (o->gs_cap - old_gs) * sizeof(*o->gs));
	if (ls_vec_room(&o->gp, &o->gp_cap, defs->nprocs - 1, sizeof(*o->gp)) < 0)
		return LS_ERR_NOMEM;
	memset(o->gp + old, 0, (o->gp_cap - old) * sizeof(*o->gp));
	o->gs[s] = (struct an_gpu_stream){ .last = LS_NONE, .running = LS_NONE, .kept = LS_NONE };
	if (!defs->streams[s].gpu)
		return 0;
	gp = &o->gp[p];
	if (ls_vec_room(&gp->streams, &gp->streams_cap, gp->nstreams, sizeof(*gp->streams)) < 0)
		return LS_ERR_NOMEM;
	gp->streams[gp->nstreams++] = s;
	return 0;
}

bool an_gpu_deps_role(enum ls_role r)
{
	enum ls_role_group g = ls_role_group(r);

	return g == LS_G_GPU_CALL || g == LS_G_GPU_WORK;
}

int an_gpu_deps_enter(struct an_gpu_deps *o, struct an_frame *f,
		      struct an_item *it, const struct an_event *ev)
{
	int k;
	uint32_t w;
	int rc;

	if (o->tr->defs.streams[ev->s].gpu)
		return (k = an_gpu_device_kind(&o->tr->defs, f->region)) < 0 ? 0 :
		       an_gpu_device_enter(o, it, ev, k);
	if (an_role_gpu_sync(f->role) && (rc = an_gpu_sync_begin(o, f, it, ev)) < 0)
		return rc;
	if ((k = an_gpu_work_kind(&o->tr->defs, f->region)) >= 0) {
		/* a blocking copy also waits for the copy it makes */
		if ((rc = an_gpu_enqueue(o, it, ev, k, f->a != 0, &w)) < 0)
			return rc;
		if (f->a) {
			rc = an_gpu_sync_add(o, f->a - 1, w);
			o->sync[f->a - 1].own = w;
		}
		an_gpu_work_unref(o, w);
		if (rc < 0)
			return rc;
	}
	if (f->role == LS_R_EVENT_RECORD)
		return an_gpu_event_record(o, it, ev);
	if (f->role == LS_R_STREAM_WAIT)
		return an_gpu_stream_wait(o, it, ev);
	return 0;
}

int an_gpu_deps_leave(struct an_gpu_deps *o, const struct an_frame *f,
		      struct an_item *it, const struct an_event *ev)
{
	if (o->tr->defs.streams[ev->s].gpu)
		return an_gpu_device_kind(&o->tr->defs, f->region) < 0 ? 0 : an_gpu_device_leave(o, ev);
	return f->a ? an_gpu_sync_leave(o, f, it, ev) : 0;
}

void an_gpu_deps_finish(struct an_gpu_deps *o)
{
	for (uint32_t i = 0; i < o->nwork; i++)
		o->st.never_ran += an_gpu_work_live(&o->work[i]) &&
				   o->work[i].state == AN_WORK_QUEUED;
	o->st.order += o->npending;	/* their work never ended */
	for (uint32_t i = 0; i < o->nparked; i++) {
		if (o->sync[o->parked[i]].event_key)
			o->st.unrecorded++;
		else
			o->st.unresolved++;
	}
}

void an_gpu_deps_release(struct an_gpu_deps *o)
{
	for (uint32_t i = 0; i < o->nsync; i++)
		free(o->sync[i].target);
	for (uint32_t i = 0; i < o->gs_cap && o->gs; i++) {
		free(o->gs[i].queue.v);
		free(o->gs[i].orphans.v);
		free(o->gs[i].waits);
	}
	for (uint32_t i = 0; i < o->gp_cap && o->gp; i++) {
		for (int k = 0; k < AN_KINDS; k++) {
			free(o->gp[i].unplaced[k].v);
			free(o->gp[i].orphans[k].v);
		}
		free(o->gp[i].streams);
	}
	free(o->work);
	free(o->dep);
	free(o->tail);
	free(o->sync);
	free(o->parked);
	free(o->pending);
	free(o->gs);
	free(o->gp);
	ls_idmap_release(&o->corr);
	ls_idmap_release(&o->events);
	ls_idmap_release(&o->event_numbers);
	an_gpu_deps_init(o, o->tr, o->out);
}
