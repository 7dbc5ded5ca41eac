/*
 * A record as a view on its msgpack bytes: where each known field's value
 * starts, and typed access to it. Nothing is copied; the bytes belong to
 * the reader (or whoever parsed them) and stay valid until the next read.
 */
#ifndef LS_RECORD_H
#define LS_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "mp.h"
#include "schema.h"

#define LS_PRESENT_WORDS ((LS_F__COUNT + 63) / 64)

struct ls_record {
	const uint8_t *raw;	/* the whole map, header included */
	uint32_t len;
	uint32_t nfields;
	enum ls_kind kind;
	const char *kind_str;	/* the kind as written, also when unknown */
	uint32_t kind_len;
	uint64_t present[LS_PRESENT_WORDS];
	uint32_t key[LS_F__COUNT];	/* key offset in raw, if present */
	uint32_t off[LS_F__COUNT];	/* value offset in raw, if present */
};

/* A set of kinds: the bits LS_KIND_BIT(k) of one word. */
#define LS_KIND_BIT(k) (UINT64_C(1) << (k))
_Static_assert(LS_K__COUNT <= 64, "a set of kinds fits in one word");

/*
 * Parse the record (a msgpack map) at p, with at most end - p bytes.
 * Returns its length in bytes; 0 if the input ends inside it; or
 * LS_ERR_SYNTAX if it is not a map with string keys, a string "k" and no
 * known key twice, with *why set to a static description.
 *
 * A record whose kind is in the set skim is only framed past its "k": the
 * fields after "k" are checked to have string keys and valid values, but
 * neither located (ls_has is false for them) nor checked for a key twice.
 * A stage skims the kinds it passes on without reading them.
 */
long ls_record_parse(struct ls_record *rec, const uint8_t *p,
		     const uint8_t *end, uint64_t skim, const char **why);

/*
 * ls_record_parse where LS_RECORD_PAD readable bytes follow end (a buffer
 * of one's own with room after its records): the record's last fields
 * are read on the fast path too.
 */
#define LS_RECORD_PAD 32
long ls_record_parse_padded(struct ls_record *rec, const uint8_t *p,
			    const uint8_t *end, uint64_t skim, const char **why);

static inline bool ls_has(const struct ls_record *rec, enum ls_field f)
{
	return rec->present[f / 64] >> (f % 64) & 1;
}

/* The value of field f, decoded by mp_head. Returns 0 or LS_ERR_ABSENT. */
int ls_get(const struct ls_record *rec, enum ls_field f, struct mp_item *it);

/*
 * Typed getters. Each returns 0 and sets *out, LS_ERR_ABSENT, or
 * LS_ERR_TYPE when the value has another type (LS_ERR_RANGE for an
 * integer outside the requested range). Strings point into the record.
 */
int ls_get_u64_slow(const struct ls_record *rec, enum ls_field f, uint64_t *out);
int ls_get_i64_slow(const struct ls_record *rec, enum ls_field f, int64_t *out);

/* Positive fixints and uint 8..64, as ids, times and streams are written. */
static inline bool ls_fast_uint(const uint8_t *v, uint64_t *out)
{
	switch (v[0]) {
	case 0xcc:
		*out = v[1];
		return true;
	case 0xcd:
		*out = (uint64_t)v[1] << 8 | v[2];
		return true;
	case 0xce:
		*out = (uint64_t)v[1] << 24 | (uint64_t)v[2] << 16 |
		       (uint64_t)v[3] << 8 | v[4];
		return true;
	case 0xcf:
		*out = 0;
		for (int i = 1; i <= 8; i++)
			*out = *out << 8 | v[i];
		return true;
	default:
		*out = v[0];
		return v[0] <= 0x7f;
	}
}

static inline int ls_get_u64(const struct ls_record *rec, enum ls_field f,
			     uint64_t *out)
{
	if (ls_has(rec, f) && ls_fast_uint(rec->raw + rec->off[f], out))
		return 0;
	return ls_get_u64_slow(rec, f, out);
}

static inline int ls_get_i64(const struct ls_record *rec, enum ls_field f,
			     int64_t *out)
{
	uint64_t u;

	if (ls_has(rec, f) && ls_fast_uint(rec->raw + rec->off[f], &u) &&
	    u <= INT64_MAX) {
		*out = (int64_t)u;
		return 0;
	}
	return ls_get_i64_slow(rec, f, out);
}
int ls_get_f64(const struct ls_record *rec, enum ls_field f, double *out);
int ls_get_bool(const struct ls_record *rec, enum ls_field f, bool *out);
int ls_get_str_slow(const struct ls_record *rec, enum ls_field f,
		    const char **s, uint32_t *n);

/* A fixstr, as names and vocabulary are written, is read here. */
static inline int ls_get_str(const struct ls_record *rec, enum ls_field f,
			     const char **s, uint32_t *n)
{
	const uint8_t *v;

	if (!ls_has(rec, f))
		return LS_ERR_ABSENT;
	v = rec->raw + rec->off[f];
	if ((*v & 0xe0) == 0xa0) {
		*s = (const char *)v + 1;
		*n = *v & 0x1f;
		return 0;
	}
	return ls_get_str_slow(rec, f, s, n);
}

/* The field's key and value as one byte range of raw (for copying on). */
int ls_get_raw_field(const struct ls_record *rec, enum ls_field f,
		     const uint8_t **p, size_t *n);

/*
 * Walking the items of an array or the entries of a map, one after
 * another, inside a record ls_record_parse accepted (every value in it
 * is whole msgpack).
 */
struct ls_iter {
	const uint8_t *p, *end;
	uint32_t left;
};

/*
 * The items of the array value at p (before end): 0, or LS_ERR_TYPE if
 * it is not an array.
 */
int ls_array_at(const uint8_t *p, const uint8_t *end, struct ls_iter *it);

/* The items of array field f of rec: 0, LS_ERR_ABSENT or LS_ERR_TYPE. */
int ls_array_field(const struct ls_record *rec, enum ls_field f, struct ls_iter *it);

/*
 * The next item: true, its head in *item and its bytes at *raw (*len;
 * raw and len may be NULL); false at the end.
 */
bool ls_array_next(struct ls_iter *it, struct mp_item *item, const uint8_t **raw, size_t *len);

/* The entries of the map value at p: 0, or LS_ERR_TYPE if it is not a map. */
int ls_map_at(const uint8_t *p, const uint8_t *end, struct ls_iter *it);

/*
 * The next entry: true, its key's head in *key (a string in every record
 * ls_record_parse accepted), where its value starts in *value, key and
 * value as the bytes at *raw (*len); false at the end.
 */
bool ls_map_next(struct ls_iter *it, struct mp_item *key, const uint8_t **value,
		 const uint8_t **raw, size_t *len);

#endif
