/* Growable byte buffer. */
#include <stdlib.h>

#include "buf.h"
#include "error.h"

int ls_buf_grow(struct ls_buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 256;
	uint8_t *p;

	if (n > SIZE_MAX / 2 - b->len)
		return LS_ERR_NOMEM;
	while (cap - b->len < n)
		cap *= 2;
	if (cap == b->cap)
		return 0;
	p = realloc(b->p, cap);
	if (!p)
		return LS_ERR_NOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

void ls_buf_release(struct ls_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}
