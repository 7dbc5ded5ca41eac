/* The stack of open activities of one stream. */
#include <stdlib.h>

#include "stack.h"
#include "../libstream/vec.h"

struct an_frame *an_stack_push(struct an_stack *st)
{
	if (ls_vec_room(&st->f, &st->cap, st->n, sizeof(*st->f)) < 0)
		return NULL;
	return &st->f[st->n++];
}

struct an_frame *an_stack_match(struct an_stack *st, uint32_t region,
				uint32_t *skipped)
{
	for (uint32_t i = st->n; i-- > 0;) {
		if (st->f[i].region == region) {
			*skipped = st->n - 1 - i;
			return &st->f[i];
		}
	}
	return NULL;
}

void an_stack_release(struct an_stack *st)
{
	free(st->f);
	st->f = NULL;
	st->n = st->cap = 0;
}
