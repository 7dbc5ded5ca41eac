/* Open-addressing hash set of 64-bit ids, kept at most half full. */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "idset.h"

#define EMPTY UINT64_MAX

static inline size_t home(uint64_t id, size_t cap)
{
	return (size_t)((id * UINT64_C(0x9e3779b97f4a7c15)) >> 20) & (cap - 1);
}

static int grow(struct ls_idset *set)
{
	size_t cap = set->cap ? 2 * set->cap : 1024;
	uint64_t *slot = malloc(cap * sizeof(*slot));

	if (!slot)
		return LS_ERR_NOMEM;
	memset(slot, 0xff, cap * sizeof(*slot));
	for (size_t i = 0; i < set->cap; i++) {
		size_t h;

		if (set->slot[i] == EMPTY)
			continue;
		for (h = home(set->slot[i], cap); slot[h] != EMPTY; h = (h + 1) & (cap - 1))
			;
		slot[h] = set->slot[i];
	}
	free(set->slot);
	set->slot = slot;
	set->cap = cap;
	return 0;
}

int ls_idset_add(struct ls_idset *set, uint64_t id)
{
	size_t h;

	if (id == EMPTY) {
		if (set->has_max)
			return 0;
		set->has_max = true;
		return 1;
	}
	if (2 * (set->count + 1) > set->cap && grow(set) < 0)
		return LS_ERR_NOMEM;
	for (h = home(id, set->cap); set->slot[h] != EMPTY; h = (h + 1) & (set->cap - 1))
		if (set->slot[h] == id)
			return 0;
	set->slot[h] = id;
	set->count++;
	return 1;
}

bool ls_idset_has(const struct ls_idset *set, uint64_t id)
{
	if (id == EMPTY)
		return set->has_max;
	if (!set->cap)
		return false;
	for (size_t h = home(id, set->cap); set->slot[h] != EMPTY; h = (h + 1) & (set->cap - 1))
		if (set->slot[h] == id)
			return true;
	return false;
}

void ls_idset_clear(struct ls_idset *set)
{
	if (set->cap)
		memset(set->slot, 0xff, set->cap * sizeof(*set->slot));
	set->count = 0;
	set->has_max = false;
}

void ls_idset_release(struct ls_idset *set)
{
	free(set->slot);
	memset(set, 0, sizeof(*set));
}
