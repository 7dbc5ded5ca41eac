/* A set of 64-bit ids (event ids, definition ids): insert and look up. */
#ifndef LS_IDSET_H
#define LS_IDSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ls_idset {
	uint64_t *slot;		/* UINT64_MAX marks an empty slot */
	size_t cap, count;
	bool has_max;		/* UINT64_MAX itself is in the set */
};

#define LS_IDSET_INIT { NULL, 0, 0, false }

/* Add id. Returns 1 if added, 0 if it was there already, or LS_ERR_NOMEM. */
int ls_idset_add(struct ls_idset *set, uint64_t id);
bool ls_idset_has(const struct ls_idset *set, uint64_t id);

/* Remove every id, keeping the room the set has. */
void ls_idset_clear(struct ls_idset *set);
void ls_idset_release(struct ls_idset *set);

#endif
