/* The least message latency a trace shows: half the least round trip between two processes. */
#include <stdlib.h>

#include "../libstream/error.h"
#include "../libstream/vec.h"
#include "latency.h"

static uint64_t key(uint32_t a, uint32_t b)
{
	return (uint64_t)a << 32 | b;
}

int an_latency_see(struct an_latency *l, uint32_t a, uint32_t b, int64_t span)
{
	uint64_t k = key(a, b);
	uint32_t i;

	if (ls_idmap_get(&l->ways, k, &i)) {
		if (span < l->way[i].least)
			l->way[i].least = span;
		return 0;
	}
	if (ls_vec_room(&l->way, &l->cap, l->n, sizeof(*l->way)) < 0 ||
	    ls_idmap_put(&l->ways, k, l->n) < 0)
		return LS_ERR_NOMEM;
	l->way[l->n++] = (struct an_latency_way){ k, span };
	return 0;
}

bool an_latency_least(const struct an_latency *l, int64_t *ns, uint32_t *pairs)
{
	*pairs = 0;
	for (uint32_t i = 0; i < l->n; i++) {
		uint32_t a = (uint32_t)(l->way[i].key >> 32), b = (uint32_t)l->way[i].key, j;
		int64_t half;

		if (!ls_idmap_get(&l->ways, key(b, a), &j) || j < i)
			continue;	/* each pair once, from the way seen first */
		half = (l->way[i].least + l->way[j].least) / 2;
		if (!*pairs || half < *ns)
			*ns = half;
		++*pairs;
	}
	return *pairs > 0;
}

void an_latency_release(struct an_latency *l)
{
	ls_idmap_release(&l->ways);
	free(l->way);
	*l = (struct an_latency)AN_LATENCY_INIT;
}
