/* Idle blame under wait states: the join of idle blame with the waits of the calls it is on. */
#include <stdbool.h>
#include <stdlib.h>

#include "idlewait.h"
#include "../libstream/vec.h"

void an_idlewait_init(struct an_idlewait *w, an_idle_under_fn under, void *ctx)
{
	*w = (struct an_idlewait){ .under = under, .ctx = ctx };
}

void an_idlewait_period(struct an_idlewait *w, uint64_t at, int64_t t, uint64_t dur)
{
	w->idle_known = true;
	w->idle_at = at;
	w->idle_t = t;
	w->idle_end = t + (int64_t)dur;
}

static bool overlap(int64_t t1, int64_t end1, int64_t t2, int64_t end2)
{
	return (t1 > t2 ? t1 : t2) < (end1 < end2 ? end1 : end2);
}

int an_idlewait_blame(struct an_idlewait *w, uint64_t act, uint32_t region, bool waits,
		      uint64_t period, uint64_t ns)
{
	struct an_idle_held *h;
	uint32_t j;

	if (!w->idle_known || period != w->idle_at)
		return 0;
	if (ls_idmap_get(&w->wait_ix, act, &j)) {
		const struct an_wait_span *x = &w->waits[j];

		if (!overlap(x->t, x->end, w->idle_t, w->idle_end))
			return 0;
		return w->under(w->ctx, region, x->pattern, ns);
	}
	if (!waits)
		return 0;
	if (!ls_idmap_get(&w->held_ix, act, &j)) {
		if (ls_vec_room(&w->held, &w->held_cap, w->nheld, sizeof(*w->held)) < 0 ||
		    ls_idmap_put(&w->held_ix, act, w->nheld) < 0)
			return LS_ERR_NOMEM;
		j = w->nheld++;
		w->held[j] = (struct an_idle_held){ .act = act, .region = region };
	}
	h = &w->held[j];
	if (ls_vec_room(&h->v, &h->cap, h->n, sizeof(*h->v)) < 0)
		return LS_ERR_NOMEM;
	h->v[h->n++] = (struct an_idle_part){ ns, w->idle_t, w->idle_end };
	return 0;
}

/* Take held[j] out (the last one moves into its place); it is in *out. */
static int unhold(struct an_idlewait *w, uint32_t j, struct an_idle_held *out)
{
	*out = w->held[j];
	ls_idmap_del(&w->held_ix, out->act);
	if (j == --w->nheld)
		return 0;
	w->held[j] = w->held[w->nheld];
	return ls_idmap_put(&w->held_ix, w->held[j].act, j);
}

int an_idlewait_wait(struct an_idlewait *w, uint64_t act, uint32_t pattern, int64_t t,
		     uint64_t dur)
{
	struct an_wait_span x = { pattern, t, t + (int64_t)dur };
	struct an_idle_held h;
	uint32_t j;
	int rc = 0;

	if (ls_idmap_get(&w->wait_ix, act, &j))
		return 0;	/* its first wait state names it */
	if (ls_vec_room(&w->waits, &w->waits_cap, w->nwaits, sizeof(*w->waits)) < 0 ||
	    ls_idmap_put(&w->wait_ix, act, w->nwaits) < 0)
		return LS_ERR_NOMEM;
	w->waits[w->nwaits++] = x;
	if (!ls_idmap_get(&w->held_ix, act, &j))
		return 0;
	if ((rc = unhold(w, j, &h)) == 0)
		for (uint32_t i = 0; i < h.n && rc == 0; i++)
			if (overlap(x.t, x.end, h.v[i].t, h.v[i].end))
				rc = w->under(w->ctx, h.region, pattern, h.v[i].ns);
	free(h.v);
	return rc;
}

void an_idlewait_release(struct an_idlewait *w)
{
	for (uint32_t i = 0; i < w->nheld; i++)
		free(w->held[i].v);
	free(w->held);
	free(w->waits);
	ls_idmap_release(&w->wait_ix);
	ls_idmap_release(&w->held_ix);
	*w = (struct an_idlewait){ 0 };
}
