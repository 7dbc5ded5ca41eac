/* The shards' event ids as the merged stream's. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/mp.h"
#include "../../libstream/record.h"
#include "ids.h"

int ids_init(struct ids *m, uint32_t shards)
{
	m->shards = shards;
	m->of = calloc(shards, sizeof(*m->of));
	return m->of ? 0 : -1;
}

void ids_release(struct ids *m)
{
	for (uint32_t i = 0; m->of && i < m->shards; i++)
		free(m->of[i].v);
	free(m->of);
	m->of = NULL;
}

/* The stream's id of shard event id x into *to: 0, or -1 where it is not merged yet. */
static int lookup(const struct ids *m, uint64_t x, uint64_t *to)
{
	const struct ids_shard *sh = &m->of[x % m->shards];
	uint64_t k = x / m->shards;

	if (k >= sh->n)
		return -1;
	*to = sh->v[k];
	return 0;
}

/* The fields that hold event ids, in the order a record may have them. */
static const enum ls_field id_fields[] = { LS_F_ID, LS_F_FROM, LS_F_TO, LS_F_ACTS };
#define NFIELDS (sizeof(id_fields) / sizeof(id_fields[0]))

/*
 * rec to out, its id fields' values written anew: each uint through
 * map (or, for LS_F_ID, as id), each array of them item by item.
 */
static int rewrite(const struct ids *m, const struct ls_record *rec, uint64_t id, struct ls_writer *out)
{
	enum ls_field f[NFIELDS];
	uint32_t n = 0, at;
	struct mp_item it;
	long head = mp_head(rec->raw, rec->raw + rec->len, &it);

	if (head <= 0)
		return LS_ERR_SYNTAX;
	for (size_t i = 0; i < NFIELDS; i++)
		if (ls_has(rec, id_fields[i]))
			f[n++] = id_fields[i];
	/* in the order of the record's keys */
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t j = i; j > 0 && rec->key[f[j]] < rec->key[f[j - 1]]; j--) {
			enum ls_field x = f[j];

			f[j] = f[j - 1], f[j - 1] = x;
		}
	ls_build_begin(out, rec->nfields);
	at = (uint32_t)head;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *v = rec->raw + rec->off[f[i]], *end = rec->raw + rec->len;
		long vlen = mp_skip(v, end), used;
		uint64_t x;

		if (vlen <= 0 || mp_head(v, end, &it) <= 0)
			return LS_ERR_SYNTAX;
		ls_put_raw(out, rec->raw + at, rec->key[f[i]] - at);
		if (f[i] == LS_F_ID) {
			ls_put_u64(out, f[i], id);
		} else if (it.type == MP_UINT) {
			if (lookup(m, it.v.u, &x) < 0)
				return LS_ERR_SYNTAX;
			ls_put_u64(out, f[i], x);
		} else if (it.type == MP_ARRAY) {
			uint32_t items = it.v.n;

			ls_put_array(out, f[i], items);
			v += mp_head(v, end, &it);
			for (uint32_t k = 0; k < items; k++, v += used) {
				if ((used = mp_head(v, end, &it)) <= 0 || it.type != MP_UINT || lookup(m, it.v.u, &x) < 0)
					return LS_ERR_SYNTAX;
				ls_put_item_u64(out, x);
			}
		} else {
			return LS_ERR_SYNTAX;
		}
		at = rec->off[f[i]] + (uint32_t)vlen;
	}
	ls_put_raw(out, rec->raw + at, rec->len - at);
	return ls_build_end(out);
}

int ids_event(struct ids *m, const struct ls_record *rec, uint64_t id, struct ls_writer *out)
{
	struct ids_shard *sh;
	uint64_t x;

	if (ls_get_u64(rec, LS_F_ID, &x) < 0)
		return LS_ERR_SYNTAX;
	sh = &m->of[x % m->shards];
	if (x / m->shards != sh->n)
		return LS_ERR_SYNTAX;
	if (sh->n == sh->cap) {
		size_t cap = sh->cap ? 2 * sh->cap : 1024;
		uint64_t *v = realloc(sh->v, cap * sizeof(*v));

		if (!v)
			return LS_ERR_NOMEM;
		sh->v = v;
		sh->cap = cap;
	}
	sh->v[sh->n++] = id;
	return rewrite(m, rec, id, out);
}

int ids_derived(const struct ids *m, const struct ls_record *rec, struct ls_writer *out)
{
	return rewrite(m, rec, 0, out);
}
