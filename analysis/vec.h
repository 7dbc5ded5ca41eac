/* Growing a vector by doubling: the one allocation pattern of analysis/. */
#ifndef AN_VEC_H
#define AN_VEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../libstream/error.h"

/*
 * Make room for element n of *v, which has room for *cap elements of size
 * bytes. Returns 0, or LS_ERR_NOMEM with *v unchanged.
 */
static inline int an_vec_room(void *v, uint32_t *cap, uint32_t n, size_t size)
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

#endif
