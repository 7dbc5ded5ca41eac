/* The id map: open addressing, linear probing, backward-shift removal. */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "idmap.h"

static void place(struct ls_idmap *m, uint64_t key, uint32_t val)
{
	size_t i = ls_idmap_home(m, key);

	while (m->slot[i].used)
		i = (i + 1) & (m->cap - 1);
	m->slot[i] = (struct ls_idmap_slot){ key, val, 1 };
}

static int grow(struct ls_idmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct ls_idmap old = *m;

	m->slot = calloc(cap, sizeof(*m->slot));
	if (!m->slot) {
		*m = old;
		return LS_ERR_NOMEM;
	}
	m->cap = cap;
	for (size_t i = 0; i < old.cap; i++)
		if (old.slot[i].used)
			place(m, old.slot[i].key, old.slot[i].val);
	free(old.slot);
	return 0;
}

int ls_idmap_put(struct ls_idmap *m, uint64_t key, uint32_t val)
{
	size_t i;

	/* at most half full: probes stay short */
	if ((m->count + 1) * 2 > m->cap && grow(m) < 0)
		return LS_ERR_NOMEM;
	for (i = ls_idmap_home(m, key); m->slot[i].used; i = (i + 1) & (m->cap - 1)) {
		if (m->slot[i].key == key) {
			m->slot[i].val = val;
			return 0;
		}
	}
	m->slot[i] = (struct ls_idmap_slot){ key, val, 1 };
	m->count++;
	return 0;
}

bool ls_idmap_del(struct ls_idmap *m, uint64_t key)
{
	size_t mask = m->cap - 1, i, j;

	if (!m->cap)
		return false;
	for (i = ls_idmap_home(m, key);; i = (i + 1) & mask) {
		if (!m->slot[i].used)
			return false;
		if (m->slot[i].key == key)
			break;
	}
	/*
	 * Move later entries of the probe run back into the hole when their
	 * home is not between the hole and where they are (cyclically).
	 */
	for (j = (i + 1) & mask; m->slot[j].used; j = (j + 1) & mask) {
		size_t h = ls_idmap_home(m, m->slot[j].key);

		if (i <= j ? (h <= i || h > j) : (h <= i && h > j)) {
			m->slot[i] = m->slot[j];
			i = j;
		}
	}
	m->slot[i].used = 0;
	m->count--;
	return true;
}

void ls_idmap_clear(struct ls_idmap *m)
{
	if (m->cap)
		memset(m->slot, 0, m->cap * sizeof(*m->slot));
	m->count = 0;
}

void ls_idmap_release(struct ls_idmap *m)
{
	free(m->slot);
	*m = (struct ls_idmap)LS_IDMAP_INIT;
}
