/* Growing a vector by doubling: the one allocation pattern of the tools. */
#ifndef LS_VEC_H
#define LS_VEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

/*
 * Make room for element n of *v, which has room for *cap elements of size
 * bytes. Returns 0, or LS_ERR_NOMEM with *v unchanged.
 */
static inline int ls_vec_room(void *v, uint32_t *cap, uint32_t n, size_t size)
{
	void **pv = v, *p;
	uint32_t c;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 16;
	if (c <= n)
		c = n + 1;
	if (!(p = realloc(*pv, (size_t)c * size)))
		return LS_ERR_NOMEM;
	*pv = p;
	*cap = c;
	return 0;
}

/*
 * A dense table of *n entries of size bytes, indexed by ids a reader
 * numbers itself: make index i exist (ids below limit), new entries zeroed.
 * Returns 0, LS_ERR_RANGE (i >= limit) or LS_ERR_NOMEM, the table unchanged.
 */
static inline int ls_table_reserve(void *v, uint32_t *n, size_t size, uint64_t i, uint64_t limit)
{
	void **pv = v;
	uint32_t want;
	char *p;

	if (i < *n)
		return 0;
	if (i >= limit || limit > (UINT64_C(1) << 31))
		return LS_ERR_RANGE;
	want = *n ? *n : 16;
	while (want <= i)
		want *= 2;
	if (!(p = realloc(*pv, (size_t)want * size)))
		return LS_ERR_NOMEM;
	memset(p + (size_t)*n * size, 0, (size_t)(want - *n) * size);
	*pv = p;
	*n = want;
	return 0;
}

/*
 * Pools: vectors whose elements are taken and given back. A given-back
 * element keeps the index of the next free one in its first 4 bytes.
 */

/*
 * Take an element of *v (n used, room for *cap, each size bytes, free
 * list at *free): a given-back one, else a new one. Its index in *out.
 * Returns 1 for a new element, 0 for a reused one, or LS_ERR_NOMEM.
 */
static inline int ls_pool_take(void *v, uint32_t *n, uint32_t *cap, size_t size,
			       uint32_t *free_head, uint32_t *out)
{
	if (*free_head != UINT32_MAX) {
		*out = *free_head;
		memcpy(free_head, (char *)*(void **)v + (size_t)*out * size,
		       sizeof(*free_head));
		return 0;
	}
	if (ls_vec_room(v, cap, *n, size) < 0)
		return LS_ERR_NOMEM;
	*out = (*n)++;
	return 1;
}

/* Give element i of v back to the free list at *free. */
static inline void ls_pool_give(void *v, size_t size, uint32_t *free_head, uint32_t i)
{
	memcpy((char *)v + (size_t)i * size, free_head, sizeof(*free_head));
	*free_head = i;
}

#endif
