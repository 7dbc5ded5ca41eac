/* tr-deps for CUDA: CUDA events, what waits on them, and a stream's wait. */
#include <stdlib.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "deps_private.h"

/*
 * The key of the CUDA event a call names in *key, or 0 (counted). Events
 * are addresses, too wide to pair with a process: each address gets a
 * number of its own, kept for the run. Returns 0 or LS_ERR_NOMEM.
 */
int an_gpu_event_key(struct an_gpu_deps *o, struct an_item *it, uint32_t p, uint64_t *key)
{
	uint64_t e;
	uint32_t n;
	int rc;

	*key = 0;
	if (an_item_u64(it, LS_F_CUDA_EVENT, &e) < 0 || !ls_key_pair(p, 0, key)) {
		o->st.untold++;
		return 0;
	}
	if (!ls_idmap_get(&o->event_numbers, e, &n)) {
		n = (uint32_t)o->event_numbers.count;
		if ((rc = ls_idmap_put(&o->event_numbers, e, n)) < 0)
			return rc;
	}
	ls_key_pair(p, n, key);
	++*key;
	return 0;
}

/* cuEventRecord: the event stands for the last work on its stream. */
int an_gpu_event_record(struct an_gpu_deps *o, struct an_item *it,
			const struct an_event *ev)
{
	uint32_t s = an_gpu_ref_stream(o, it, ev->proc), w, old;
	uint64_t key;
	int rc;

	if ((rc = an_gpu_event_key(o, it, ev->proc, &key)) < 0 || !key)
		return rc;
	/* no stream (or one that is no GPU stream, counted as such): the legacy default one (of device 0) */
	if (s == LS_NONE && (s = an_gpu_null_stream_of(o, ev->proc, 0)) == LS_NONE) {
		o->st.untold += !an_item_has(it, LS_F_REF_STREAM);
		return 0;
	}
	w = o->gs[s].last;
	if (ls_idmap_get(&o->events, key, &old)) {
		ls_idmap_del(&o->events, key);
		an_gpu_work_unref(o, old);
	}
	if (w != LS_NONE) {
		if ((rc = ls_idmap_put(&o->events, key, w)) < 0)
			return rc;
		an_gpu_work_ref(o, w);
	}
	/* synchronizations that came before the record they wait for */
	for (uint32_t i = 0; i < o->nparked; i++) {
		struct an_gsync *g = &o->sync[o->parked[i]];

		if (g->event_key != key)
			continue;
		g->event_key = 0;
		o->st.late_events++;
		if (w != LS_NONE && (rc = an_gpu_sync_add(o, o->parked[i], w)) < 0)
			return rc;
	}
	return an_gpu_unpark(o, ev->proc);
}

/*
 * cuStreamWaitEvent: the stream's next work waits for the event's work
 * (or, where the trace names the stream waited for and not the event, for
 * the last work enqueued on that stream).
 */
int an_gpu_stream_wait(struct an_gpu_deps *o, struct an_item *it,
		       const struct an_event *ev)
{
	uint32_t s = an_gpu_ref_stream(o, it, ev->proc), w;
	uint64_t key;
	int rc;

	if (s != LS_NONE && an_item_has(it, LS_F_WAIT_STREAM) && !an_item_has(it, LS_F_CUDA_EVENT)) {
		return (w = an_gpu_waited_work(o, it, ev->proc)) == LS_NONE ? 0 : an_gpu_wait_for(o, s, w);
	}
	if ((rc = an_gpu_event_key(o, it, ev->proc, &key)) < 0 || !key)
		return rc;
	if (s == LS_NONE) {	/* a stream named that is not a GPU stream was counted */
		o->st.untold += !an_item_has(it, LS_F_REF_STREAM);
		return 0;
	}
	if (!ls_idmap_get(&o->events, key, &w)) {
		o->st.unrecorded++;
		return 0;
	}
	return an_gpu_wait_for(o, s, w);
}
