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
