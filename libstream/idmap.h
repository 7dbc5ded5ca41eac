/*
 * A map from 64-bit ids (event ids, definition ids, packed pairs) to
 * 32-bit values: insert, look up, remove. Open addressing with linear
 * probing; removal shifts entries back, so there are no tombstones and a
 * map whose entries come and go stays small.
 */
#ifndef LS_IDMAP_H
#define LS_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ls_idmap_slot {
	uint64_t key;
	uint32_t val;
	uint32_t used;
};

struct ls_idmap {
	struct ls_idmap_slot *slot;
	size_t cap, count;	/* cap: 0 or a power of two */
};

#define LS_IDMAP_INIT { NULL, 0, 0 }

/*
 * Set key to val (replacing any value it had). Returns 0, or LS_ERR_NOMEM
 * (the map is unchanged).
 */
int ls_idmap_put(struct ls_idmap *m, uint64_t key, uint32_t val);

/* The slot where key's probe run starts (cap > 0). */
static inline size_t ls_idmap_home(const struct ls_idmap *m, uint64_t key)
{
	return (key * UINT64_C(0x9e3779b97f4a7c15)) >> 32 & (m->cap - 1);
}

/* The value of key in *val: true, or false if key is not in the map. */
static inline bool ls_idmap_get(const struct ls_idmap *m, uint64_t key,
				uint32_t *val)
{
	size_t mask = m->cap - 1;

	if (!m->cap)
		return false;
	for (size_t i = ls_idmap_home(m, key);; i = (i + 1) & mask) {
		if (!m->slot[i].used)
			return false;
		if (m->slot[i].key == key) {
			*val = m->slot[i].val;
			return true;
		}
	}
}

/*
 * The key of a pair in a map: hi, an index the tool numbers densely (a
 * process, a stream), below 2^24, and lo, an id the trace chose (a
 * request, a correlation id, a lock), below 2^40. Returns false, with
 * *key unset, where they do not fit: the caller says what it leaves out.
 */
static inline bool ls_key_pair(uint32_t hi, uint64_t lo, uint64_t *key)
{
	if (hi >= UINT32_C(1) << 24 || lo >= UINT64_C(1) << 40)
		return false;
	*key = (uint64_t)hi << 40 | lo;
	return true;
}

/* Remove key. Returns true if it was there. */
bool ls_idmap_del(struct ls_idmap *m, uint64_t key);

/* Remove every key, keeping the room the map has. */
void ls_idmap_clear(struct ls_idmap *m);

void ls_idmap_release(struct ls_idmap *m);

#endif
