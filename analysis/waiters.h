/*
 * Who waited for whom, and where the path ran: the facts the rating is
 * told in words from. Per blamed region its blame by the wait state's
 * pattern, the waiting activity's region and the waiting process; per
 * region its time on the critical path per stream. A blame record is
 * matched to the wait state (or idle period) just before it, as tr-waits
 * writes them (docs/stream.md); blame whose wait did not say its region
 * (older streams), or came apart from its wait, is kept with the waiter
 * not known.
 */
#ifndef AN_WAITERS_H
#define AN_WAITERS_H

#include <stdbool.h>
#include <stdint.h>

/* One fact: a key of four numbers (LS_NONE: not known) and its time. */
struct an_fact {
	uint32_t region;	/* the blamed region; for the path, the region on it */
	uint32_t pattern;	/* the wait state's pattern; for the path, the stream (index) */
	uint32_t by_region;	/* the waiting activity's region (index); for the path, LS_NONE */
	uint32_t by_proc;	/* the waiting process (index); for the path, LS_NONE */
	uint64_t ns;
};

/* A table of facts, each key once. */
struct an_facts {
	struct an_fact *v;
	uint32_t n, cap;
	uint32_t *slot;		/* open addressing: index + 1, 0 empty */
	uint32_t mask;
};

struct an_waiters {
	struct an_facts blame, path;
	/* the last wait state or idle period: its activity, region and process */
	uint64_t at;
	uint32_t at_region, at_proc;
	bool any;
};

void an_waiters_init(struct an_waiters *w);

/* A wait state or idle period of activity at (region and process indexes; LS_NONE: not known). */
void an_waiters_wait(struct an_waiters *w, uint64_t at, uint32_t region, uint32_t proc);

/* ns of blame on region (index) in pattern, for wait state wait (its at): 0 or LS_ERR_NOMEM. */
int an_waiters_blame(struct an_waiters *w, uint32_t region, uint32_t pattern, uint64_t wait,
		     uint64_t ns);

/* ns of the critical path in region (index) on stream (index): 0 or LS_ERR_NOMEM. */
int an_waiters_path(struct an_waiters *w, uint32_t region, uint32_t stream, uint64_t ns);

/*
 * The facts of region in f (the table's), largest first (then in key
 * order), into *out (malloc'd, *n): 0 or LS_ERR_NOMEM.
 */
int an_facts_of(const struct an_facts *f, uint32_t region, struct an_fact **out, uint32_t *n);

void an_waiters_release(struct an_waiters *w);

#endif
