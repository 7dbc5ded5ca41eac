/* Record views: locating the known fields of a msgpack map, typed access. */
#include <string.h>

#include "error.h"
#include "record.h"

/*
 * The length of a value from its first byte, for the encodings event
 * records are made of (fixints, sized ints, floats, short strings, nil,
 * booleans); 0 for the others, whose length mp_skip finds.
 */
static uint8_t value_len[256];

__attribute__((constructor)) static void value_len_init(void)
{
	for (int c = 0; c <= 0x7f; c++)
		value_len[c] = 1;
	for (int c = 0xe0; c <= 0xff; c++)
		value_len[c] = 1;
	for (int c = 0xa0; c <= 0xbf; c++)
		value_len[c] = (uint8_t)(1 + (c & 0x1f));
	value_len[0xc0] = value_len[0xc2] = value_len[0xc3] = 1;
	value_len[0xcc] = value_len[0xd0] = 2;
	value_len[0xcd] = value_len[0xd1] = 3;
	value_len[0xce] = value_len[0xd2] = value_len[0xca] = 5;
	value_len[0xcf] = value_len[0xd3] = value_len[0xcb] = 9;
}

/* Length of the value at q (q < end); 0: the input ends first; -1: invalid. */
static inline long value_length(const uint8_t *q, const uint8_t *end)
{
	long n = value_len[*q];

	if (!n)
		return mp_skip(q, end);
	return end - q >= n ? n : 0;
}

/* value_length, with LS_ERR_SYNTAX and *why set for an invalid value. */
static inline long value_checked(const uint8_t *q, const uint8_t *end,
				 const char **why)
{
	long n = value_length(q, end);

	if (n < 0) {
		*why = "record holds invalid msgpack";
		return LS_ERR_SYNTAX;
	}
	return n;
}

/* The key string at q: its bytes and the length of its encoding. */
static inline long key_string(const uint8_t *q, const uint8_t *end,
			      const uint8_t **s, uint32_t *n)
{
	struct mp_item it;
	long len;

	if (*q >= 0xa0 && *q <= 0xbf) {
		*n = *q & 0x1f;
		*s = q + 1;
		return end - q > *n ? 1 + *n : 0;
	}
	len = mp_head(q, end, &it);
	if (len > 0 && it.type != MP_STR)
		return -1;
	*s = (const uint8_t *)it.v.s.p;
	*n = it.v.s.n;
	return len;
}

/* The field named by the key at q, whose name is the n bytes at s. */
static inline enum ls_field field_of(const uint8_t *q, const uint8_t *s,
				     uint32_t n, const uint8_t *end)
{
	if ((*q & 0xf0) == 0xa0)	/* a fixstr of at most 15 bytes */
		return (enum ls_field)ls_short_find(&ls_short_fields, ls_short_name(q, end));
	return ls_field_lookup((const char *)s, n);
}

/*
 * Bytes that a key of at most 15 bytes and the head of its value take:
 * where this many remain, they are read without checking where input ends.
 */
#define SAFE_SPAN 32

/*
 * The key at q of any encoding, near where input ends or not a short
 * fixstr: its length with *f set; 0 if the input ends inside it or its
 * value's first byte; LS_ERR_SYNTAX with *why set.
 */
static long key_checked(const uint8_t *q, const uint8_t *end,
			enum ls_field *f, const char **why)
{
	const uint8_t *s;
	uint32_t klen;
	long n;

	if (q >= end)
		return 0;
	if ((n = key_string(q, end, &s, &klen)) <= 0) {
		if (n < 0)
			*why = "record has a key that is not a string";
		return n < 0 ? LS_ERR_SYNTAX : 0;
	}
	if (end - q <= n)
		return 0;	/* the value is cut off */
	*f = field_of(q, s, klen, end);
	return n;
}

/*
 * Move *q past count fields, locating none of them: 1; 0 if the input ends
 * inside them; LS_ERR_SYNTAX with *why set. Keys must still be strings and
 * values valid msgpack, so that framing stays right.
 */
static long frame_fields(const uint8_t **q, const uint8_t *safe,
			 const uint8_t *end, uint32_t count, const char **why)
{
	const uint8_t *k = *q, *v;
	enum ls_field f;
	long n;

	for (; count; count--) {
		if (k < safe && (*k & 0xe0) == 0xa0)	/* a fixstr and its value's head */
			v = k + 1 + (*k & 0x1f);
		else if ((n = key_checked(k, end, &f, why)) > 0)
			v = k + n;
		else
			return n;
		if ((n = value_checked(v, end, why)) <= 0)
			return n;
		k = v + n;
	}
	*q = k;
	return 1;
}

/* The record's kind from the fixstr of at most 15 bytes at v, all before end. */
static inline void short_kind(struct ls_record *rec, const uint8_t *v,
			      const uint8_t *end)
{
	int k = ls_short_find(&ls_short_kinds, ls_short_name(v, end));

	rec->kind_str = (const char *)v + 1;
	rec->kind_len = *v & 0x0f;
	rec->kind = k < 0 ? LS_K_UNKNOWN : (enum ls_kind)k;
}

/* The record's kind from its "k" value at v, whose length is known. */
static int take_kind(struct ls_record *rec, const uint8_t *v,
		     const uint8_t *end, const char **why)
{
	const uint8_t *s;
	uint32_t n;

	if ((*v & 0xf0) == 0xa0) {
		short_kind(rec, v, end);
		return 0;
	}
	if (key_string(v, end, &s, &n) <= 0) {
		*why = "record kind \"k\" is not a string";
		return LS_ERR_SYNTAX;
	}
	rec->kind_str = (const char *)s;
	rec->kind_len = n;
	rec->kind = ls_kind_lookup((const char *)s, n);
	return 0;
}

/* ls_record_parse, reading without checks up to safe (SAFE_SPAN readable bytes on). */
static inline long parse(struct ls_record *rec, const uint8_t *p, const uint8_t *end,
			 const uint8_t *safe, uint64_t skim, const char **why)
{
	const uint8_t *q;
	struct mp_item it;
	uint64_t twice = 0;
	uint32_t i;
	long n;

	if (p >= end)
		return 0;
	if (*p >= 0x80 && *p <= 0x8f) {
		rec->nfields = *p & 0x0f;
		q = p + 1;
	} else {
		n = mp_head(p, end, &it);
		if (n == 0)
			return 0;
		if (n < 0 || it.type != MP_MAP) {
			*why = "record is not a msgpack map";
			return LS_ERR_SYNTAX;
		}
		rec->nfields = it.v.n;
		q = p + n;
	}
	rec->raw = p;
	rec->kind = LS_K_UNKNOWN;
	rec->kind_str = NULL;
	rec->kind_len = 0;
	memset(rec->present, 0, sizeof(rec->present));
	i = 0;
	if (rec->nfields && end - q >= 3 && q[0] == 0xa1 && q[1] == 'k' &&
	    (q[2] & 0xf0) == 0xa0 && end - q >= 3 + (q[2] & 0x0f)) {
		/* "k" first, as writers put it, and a kind of at most 15 bytes */
		rec->present[LS_F_K / 64] = UINT64_C(1) << (LS_F_K % 64);
		rec->key[LS_F_K] = (uint32_t)(q - p);
		rec->off[LS_F_K] = (uint32_t)(q + 2 - p);
		short_kind(rec, q + 2, end);
		q += 3 + (q[2] & 0x0f);
		i = 1;
		if (skim >> rec->kind & 1) {
			if ((n = frame_fields(&q, safe, end, rec->nfields - 1, why)) <= 0)
				return n;
			i = rec->nfields;
		}
	}
	for (; i < rec->nfields; i++) {
		const uint8_t *v;
		enum ls_field f;

		if (q < safe && (*q & 0xf8) == 0xa0) {	/* nearly always */
			f = (enum ls_field)ls_short_find7(&ls_short_fields, q);
			v = q + 1 + (*q & 0x0f);
			n = value_len[*v];	/* 0: not of a fixed length */
		} else if (q < safe && (*q & 0xf0) == 0xa0) {
			/* 8 to 15 bytes; a branch of its own, not one nested in the
			 * first: the compiler lays that out 2 % worse (callgrind) */
			f = (enum ls_field)ls_short_find(&ls_short_fields, ls_short_pack(q));
			v = q + 1 + (*q & 0x0f);
			n = value_len[*v];
		} else {
			if ((n = key_checked(q, end, &f, why)) <= 0)
				return n;
			v = q + n;
			n = 0;
		}
		if (!n && (n = value_checked(v, end, why)) <= 0)
			return n;
		if (f != LS_F__NONE) {
			uint32_t u = (uint32_t)f;
			uint64_t bit = UINT64_C(1) << (u % 64);

			twice |= rec->present[u / 64] & bit;
			rec->present[u / 64] |= bit;
			rec->key[u] = (uint32_t)(q - p);
			rec->off[u] = (uint32_t)(v - p);
			if (f == LS_F_K && take_kind(rec, v, end, why) < 0)
				return LS_ERR_SYNTAX;
		}
		q = v + n;
	}
	if (twice) {
		*why = "record has a key twice";
		return LS_ERR_SYNTAX;
	}
	if (!rec->kind_str) {
		*why = "record has no kind \"k\"";
		return LS_ERR_SYNTAX;
	}
	if ((size_t)(q - p) > UINT32_MAX) {
		*why = "record is larger than 4 GiB";
		return LS_ERR_SYNTAX;
	}
	rec->len = (uint32_t)(q - p);
	return (long)rec->len;
}

long ls_record_parse(struct ls_record *rec, const uint8_t *p,
		     const uint8_t *end, uint64_t skim, const char **why)
{
	return parse(rec, p, end, end - p > SAFE_SPAN ? end - SAFE_SPAN : p, skim, why);
}

_Static_assert(LS_RECORD_PAD >= SAFE_SPAN, "the padding covers what is read unchecked");

long ls_record_parse_padded(struct ls_record *rec, const uint8_t *p,
			    const uint8_t *end, uint64_t skim, const char **why)
{
	return parse(rec, p, end, end, skim, why);
}

int ls_get(const struct ls_record *rec, enum ls_field f, struct mp_item *it)
{
	if (!ls_has(rec, f))
		return LS_ERR_ABSENT;
	mp_head(rec->raw + rec->off[f], rec->raw + rec->len, it);
	return 0;
}

int ls_get_u64_slow(const struct ls_record *rec, enum ls_field f, uint64_t *out)
{
	struct mp_item it;

	if (ls_get(rec, f, &it) < 0)
		return LS_ERR_ABSENT;
	if (it.type == MP_INT)
		return LS_ERR_RANGE;
	if (it.type != MP_UINT)
		return LS_ERR_TYPE;
	*out = it.v.u;
	return 0;
}

int ls_get_i64_slow(const struct ls_record *rec, enum ls_field f, int64_t *out)
{
	struct mp_item it;

	if (ls_get(rec, f, &it) < 0)
		return LS_ERR_ABSENT;
	if (it.type == MP_INT) {
		*out = it.v.i;
		return 0;
	}
	if (it.type != MP_UINT)
		return LS_ERR_TYPE;
	if (it.v.u > INT64_MAX)
		return LS_ERR_RANGE;
	*out = (int64_t)it.v.u;
	return 0;
}

int ls_get_f64(const struct ls_record *rec, enum ls_field f, double *out)
{
	struct mp_item it;

	if (ls_get(rec, f, &it) < 0)
		return LS_ERR_ABSENT;
	switch (it.type) {
	case MP_FLOAT:
		*out = it.v.f;
		return 0;
	case MP_UINT:
		*out = (double)it.v.u;
		return 0;
	case MP_INT:
		*out = (double)it.v.i;
		return 0;
	default:
		return LS_ERR_TYPE;
	}
}

int ls_get_bool(const struct ls_record *rec, enum ls_field f, bool *out)
{
	struct mp_item it;

	if (ls_get(rec, f, &it) < 0)
		return LS_ERR_ABSENT;
	if (it.type != MP_BOOL)
		return LS_ERR_TYPE;
	*out = it.v.b;
	return 0;
}

int ls_get_str_slow(const struct ls_record *rec, enum ls_field f,
		    const char **s, uint32_t *n)
{
	struct mp_item it;

	if (ls_get(rec, f, &it) < 0)
		return LS_ERR_ABSENT;
	if (it.type != MP_STR)
		return LS_ERR_TYPE;
	*s = it.v.s.p;
	*n = it.v.s.n;
	return 0;
}

int ls_get_raw_field(const struct ls_record *rec, enum ls_field f,
		     const uint8_t **p, size_t *n)
{
	if (!ls_has(rec, f))
		return LS_ERR_ABSENT;
	*p = rec->raw + rec->key[f];
	*n = rec->off[f] - rec->key[f] +
	     (size_t)mp_skip(rec->raw + rec->off[f], rec->raw + rec->len);
	return 0;
}

int ls_array_at(const uint8_t *p, const uint8_t *end, struct ls_iter *it)
{
	struct mp_item head;
	long n = mp_head(p, end, &head);

	if (n <= 0 || head.type != MP_ARRAY)
		return LS_ERR_TYPE;
	*it = (struct ls_iter){ p + n, end, head.v.n };
	return 0;
}

int ls_array_field(const struct ls_record *rec, enum ls_field f, struct ls_iter *it)
{
	if (!ls_has(rec, f))
		return LS_ERR_ABSENT;
	return ls_array_at(rec->raw + rec->off[f], rec->raw + rec->len, it);
}

bool ls_array_next(struct ls_iter *it, struct mp_item *item, const uint8_t **raw, size_t *len)
{
	long n;

	if (!it->left || (n = mp_head(it->p, it->end, item)) <= 0)
		return false;
	/* a scalar or string is its head; a nested array or map goes on past it */
	if ((item->type == MP_ARRAY || item->type == MP_MAP) && (n = mp_skip(it->p, it->end)) <= 0)
		return false;
	if (raw)
		*raw = it->p;
	if (len)
		*len = (size_t)n;
	it->p += n;
	it->left--;
	return true;
}

int ls_map_at(const uint8_t *p, const uint8_t *end, struct ls_iter *it)
{
	struct mp_item head;
	long n = mp_head(p, end, &head);

	if (n <= 0 || head.type != MP_MAP)
		return LS_ERR_TYPE;
	*it = (struct ls_iter){ p + n, end, head.v.n };
	return 0;
}

bool ls_map_next(struct ls_iter *it, struct mp_item *key, const uint8_t **value,
		 const uint8_t **raw, size_t *len)
{
	long k, v;

	if (!it->left || mp_head(it->p, it->end, key) <= 0 || (k = mp_skip(it->p, it->end)) <= 0 ||
	    (v = mp_skip(it->p + k, it->end)) <= 0)
		return false;
	*value = it->p + k;
	*raw = it->p;
	*len = (size_t)(k + v);
	it->p += k + v;
	it->left--;
	return true;
}
