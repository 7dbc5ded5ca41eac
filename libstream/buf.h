/* Growable byte buffer: the one place libstream allocates output memory. */
#ifndef LS_BUF_H
#define LS_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "error.h"

struct ls_buf {
	uint8_t *p;
	size_t len;
	size_t cap;
};

#define LS_BUF_INIT { NULL, 0, 0 }

/* Make room for at least n more bytes. Returns 0, or LS_ERR_NOMEM. */
int ls_buf_grow(struct ls_buf *b, size_t n);

/*
 * Append n bytes (none: nothing, where b has no room yet and p is NULL,
 * as a record a stage noted and did not write). Returns 0, or LS_ERR_NOMEM.
 */
static inline int ls_buf_add(struct ls_buf *b, const void *p, size_t n)
{
	if (!n)
		return 0;
	if (b->cap - b->len < n && ls_buf_grow(b, n) < 0)
		return LS_ERR_NOMEM;
	memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

/* Free the contents; the buffer is empty and reusable afterwards. */
void ls_buf_release(struct ls_buf *b);

#endif
