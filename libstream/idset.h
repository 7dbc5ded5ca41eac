/*
 * A set of 64-bit ids (event ids, definition ids) as runs of consecutive
 * ids: insert and look up. Tools number events in runs (tr-read 0, 1,
 * 2, ...; after jq or re-timing, runs with gaps), so a stream's ids take
 * a few runs, not memory per id: tr-cat --check stays flat on any length.
 * Ids in no order at all take a run each, and inserting one in the middle
 * moves the runs after it.
 */
#ifndef LS_IDSET_H
#define LS_IDSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ls_idrun {
	uint64_t lo, hi;	/* inclusive */
};

struct ls_idset {
	struct ls_idrun *run;	/* sorted, apart (never adjacent, never overlapping) */
	size_t n, cap;
};

#define LS_IDSET_INIT { NULL, 0, 0 }

/* Add id. Returns 1 if added, 0 if it was there already, or LS_ERR_NOMEM. */
int ls_idset_add(struct ls_idset *set, uint64_t id);
bool ls_idset_has(const struct ls_idset *set, uint64_t id);

/* Remove every id, keeping the room the set has. */
void ls_idset_clear(struct ls_idset *set);
void ls_idset_release(struct ls_idset *set);

#endif
