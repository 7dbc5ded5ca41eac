/*
 * The activities open on one stream: a stack of frames, one per enter not
 * yet left (what a region's role means to the analysis: roles.h).
 */
#ifndef AN_STACK_H
#define AN_STACK_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/schema.h"
#include "roles.h"

struct an_frame {
	uint64_t id;		/* the enter's event id: names the activity */
	int64_t t;		/* when it was entered */
	uint32_t region;	/* index */
	uint8_t role;		/* enum ls_role */
	uint32_t a, b, c;	/* the stage's own per-activity data */
};

struct an_stack {
	struct an_frame *f;
	uint32_t n, cap;
};

/* Push a frame. Returns it, or NULL when out of memory. */
struct an_frame *an_stack_push(struct an_stack *st);

static inline struct an_frame *an_stack_top(struct an_stack *st)
{
	return st->n ? &st->f[st->n - 1] : NULL;
}

/*
 * Find the frame a leave of region closes: the top one if it is of that
 * region, else the nearest one below that is (the frames above it were
 * never left: *skipped says how many). NULL if no open frame is of that
 * region. The caller pops with an_stack_pop_to.
 */
struct an_frame *an_stack_match(struct an_stack *st, uint32_t region,
				uint32_t *skipped);

/* Pop frame f and everything above it. */
static inline void an_stack_pop_to(struct an_stack *st, const struct an_frame *f)
{
	st->n = (uint32_t)(f - st->f);
}

void an_stack_release(struct an_stack *st);

#endif
