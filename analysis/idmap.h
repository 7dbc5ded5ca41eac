/*
 * A map from 64-bit ids (event ids, definition ids, packed pairs) to
 * 32-bit values: insert, look up, remove. Open addressing with linear
 * probing; removal shifts entries back, so there are no tombstones and a
 * map whose entries come and go stays small.
 */
#ifndef AN_IDMAP_H
#define AN_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct an_idmap_slot {
	uint64_t key;
	uint32_t val;
	uint32_t used;
};

struct an_idmap {
	struct an_idmap_slot *slot;
	size_t cap, count;	/* cap: 0 or a power of two */
};

#define AN_IDMAP_INIT { NULL, 0, 0 }

/*
 * Set key to val (replacing any value it had). Returns 0, or LS_ERR_NOMEM
 * (the map is unchanged).
 */
int an_idmap_put(struct an_idmap *m, uint64_t key, uint32_t val);

/* The slot where key's probe run starts (cap > 0). */
static inline size_t an_idmap_home(const struct an_idmap *m, uint64_t key)
{
	return (key * UINT64_C(0x9e3779b97f4a7c15)) >> 32 & (m->cap - 1);
}

/* The value of key in *val: true, or false if key is not in the map. */
static inline bool an_idmap_get(const struct an_idmap *m, uint64_t key,
				uint32_t *val)
{
	size_t mask = m->cap - 1;

	if (!m->cap)
		return false;
	for (size_t i = an_idmap_home(m, key);; i = (i + 1) & mask) {
		if (!m->slot[i].used)
			return false;
		if (m->slot[i].key == key) {
			*val = m->slot[i].val;
			return true;
		}
	}
}

/* Remove key. Returns true if it was there. */
bool an_idmap_del(struct an_idmap *m, uint64_t key);

/* Remove every key, keeping the room the map has. */
void an_idmap_clear(struct an_idmap *m);

void an_idmap_release(struct an_idmap *m);

#endif
