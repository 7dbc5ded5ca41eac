/*
 * The names a what-if asks for (tr-project's --scale and --set patterns)
 * against the regions a trace defines: which of them no region matched,
 * and for each the nearest region name, so that a typo is said instead
 * of projecting the run unchanged.
 */
#ifndef AN_UNMATCHED_H
#define AN_UNMATCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct an_unmatched_name {
	const char *asked;	/* the pattern or name asked for (borrowed) */
	bool hit;		/* a region matched it */
	size_t dist;		/* edits from asked to nearest */
	char *nearest;		/* the nearest region name so far; NULL: none */
};

struct an_unmatched {
	struct an_unmatched_name *v;
	uint32_t n;
};

/* Room for n names asked for. Returns 0 or LS_ERR_NOMEM. */
int an_unmatched_init(struct an_unmatched *u, uint32_t n);

/* Name k (asked is the caller's, kept as long as u) is asked as asked. */
static inline void an_unmatched_ask(struct an_unmatched *u, uint32_t k, const char *asked)
{
	u->v[k].asked = asked;
}

/*
 * Region name (n bytes, not terminated) against name k: matched (hit)
 * or not, when it is kept if nearer than any before. Returns 0 or
 * LS_ERR_NOMEM.
 */
int an_unmatched_see(struct an_unmatched *u, uint32_t k, bool hit, const char *name, size_t n);

/* The first name asked that no region matched, or NULL. */
const struct an_unmatched_name *an_unmatched_first(const struct an_unmatched *u, uint32_t *k);

void an_unmatched_release(struct an_unmatched *u);

#endif
