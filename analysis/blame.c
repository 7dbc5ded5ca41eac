/* Intervals of exclusive time, and splitting a wait over them exactly. */
#include <stdlib.h>

#include "../libstream/error.h"
#include "blame.h"
#include "../libstream/vec.h"

int an_interval_add(struct an_interval *iv, uint32_t *slot, uint64_t act,
		    uint32_t region, uint64_t ns)
{
	if (!*slot || *slot > iv->n || iv->v[*slot - 1].act != act) {
		if (ls_vec_room(&iv->v, &iv->cap, iv->n, sizeof(*iv->v)) < 0)
			return LS_ERR_NOMEM;
		iv->v[iv->n++] = (struct an_share){ act, 0, region };
		*slot = iv->n;
	}
	iv->v[*slot - 1].ns += ns;
	iv->total += ns;
	return 0;
}

int an_interval_copy(struct an_interval *dst, const struct an_interval *src)
{
	if (src->n && ls_vec_room(&dst->v, &dst->cap, src->n - 1, sizeof(*dst->v)) < 0)
		return LS_ERR_NOMEM;
	for (uint32_t i = 0; i < src->n; i++)
		dst->v[i] = src->v[i];
	dst->n = src->n;
	dst->total = src->total;
	return 0;
}

void an_blame_split(const struct an_interval *iv, uint64_t dur, uint64_t *out)
{
	uint64_t given = 0;
	uint32_t largest = 0;

	for (uint32_t i = 0; i < iv->n; i++) {
		out[i] = (uint64_t)((unsigned __int128)dur * iv->v[i].ns / iv->total);
		given += out[i];
		if (iv->v[i].ns > iv->v[largest].ns)
			largest = i;
	}
	out[largest] += dur - given;
}

void an_interval_release(struct an_interval *iv)
{
	free(iv->v);
	*iv = (struct an_interval){ NULL, 0, 0, 0 };
}

/* An addition of exclusive time to a share. */
struct an_add {
	uint32_t share;
	uint64_t ns;
};

struct an_history {
	struct an_share *shares;	/* act and region (ns unused) */
	uint32_t nshares, shares_cap;
	struct an_add *adds;
	uint32_t nadds, adds_cap;
	uint32_t refs;			/* the stretch's, and a snapshot's each */
};

static void history_drop(struct an_history *h)
{
	if (!h || --h->refs)
		return;
	free(h->shares);
	free(h->adds);
	free(h);
}

int an_stretch_add(struct an_stretch *st, uint32_t *slot, uint64_t act, uint32_t region, uint64_t ns)
{
	struct an_history *h = st->h;

	if (!h) {
		if (!(h = st->h = calloc(1, sizeof(*h))))
			return LS_ERR_NOMEM;
		h->refs = 1;
	}
	if (!*slot || *slot > h->nshares || h->shares[*slot - 1].act != act) {
		if (ls_vec_room(&h->shares, &h->shares_cap, h->nshares, sizeof(*h->shares)) < 0)
			return LS_ERR_NOMEM;
		h->shares[h->nshares++] = (struct an_share){ act, 0, region };
		*slot = h->nshares;
	}
	if (h->nadds == UINT32_MAX || ls_vec_room(&h->adds, &h->adds_cap, h->nadds, sizeof(*h->adds)) < 0)
		return LS_ERR_NOMEM;
	h->adds[h->nadds++] = (struct an_add){ *slot - 1, ns };
	st->total += ns;
	return 0;
}

struct an_snapshot an_stretch_snapshot(const struct an_stretch *st)
{
	struct an_history *h = st->h;

	if (!h)
		return (struct an_snapshot){ NULL, 0, 0, 0 };
	h->refs++;
	return (struct an_snapshot){ h, h->nadds, h->nshares, st->total };
}

struct an_snapshot an_stretch_end(struct an_stretch *st)
{
	struct an_snapshot sn = an_stretch_snapshot(st);

	an_stretch_release(st);
	return sn;
}

void an_stretch_release(struct an_stretch *st)
{
	history_drop(st->h);
	*st = (struct an_stretch){ NULL, 0 };
}

int an_snapshot_interval(const struct an_snapshot *sn, struct an_interval *out)
{
	const struct an_history *h = sn->h;

	out->n = 0;
	out->total = sn->total;
	if (!h || !sn->nshares)
		return 0;
	if (ls_vec_room(&out->v, &out->cap, sn->nshares - 1, sizeof(*out->v)) < 0)
		return LS_ERR_NOMEM;
	for (uint32_t i = 0; i < sn->nshares; i++)
		out->v[i] = h->shares[i];
	for (uint32_t i = 0; i < sn->nadds; i++)
		out->v[h->adds[i].share].ns += h->adds[i].ns;
	out->n = sn->nshares;
	return 0;
}

void an_snapshot_release(struct an_snapshot *sn)
{
	history_drop(sn->h);
	*sn = (struct an_snapshot){ NULL, 0, 0, 0 };
}
