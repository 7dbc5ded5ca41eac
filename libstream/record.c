/* Record views: locating the known fields of a msgpack map, typed access. */
#include <string.h>

#include "error.h"
#include "record.h"

/*
 * Length of the value at q if it is one of the encodings event records are
 * made of (fixints, sized ints, floats, short strings, nil, booleans);
 * else the general mp_skip. 0: the input ends first; -1: invalid.
 */
static inline long value_length(const uint8_t *q, const uint8_t *end)
{
	uint8_t c = *q;
	long n;

	if (c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3)
		return 1;
	if (c >= 0xa0 && c <= 0xbf)
		n = 1 + (c & 0x1f);
	else if (c == 0xcc || c == 0xd0)
		n = 2;
	else if (c == 0xcd || c == 0xd1)
		n = 3;
	else if (c == 0xce || c == 0xd2 || c == 0xca)
		n = 5;
	else if (c == 0xcf || c == 0xd3 || c == 0xcb)
		n = 9;
	else
		return mp_skip(q, end);
	return end - q >= n ? n : 0;
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

static inline enum ls_field field_of(const uint8_t *s, uint32_t n,
				     const uint8_t *end)
{
	/* a second byte of 0 would alias the one-byte key: NUL never names a field */
	if (n == 1 || (n == 2 && s[1]))
		return (enum ls_field)(ls_tiny_fields[s[0] | (n == 2 ? s[1] << 8 : 0)] - 1);
	if (n <= 8)
		return (enum ls_field)ls_short_find(&ls_short_fields,
						    ls_short_word(s, n, end), n);
	return ls_field_lookup((const char *)s, n);
}

static inline enum ls_kind kind_of(const uint8_t *s, uint32_t n,
				   const uint8_t *end)
{
	int k;

	if (n > 8)
		return ls_kind_lookup((const char *)s, n);
	k = ls_short_find(&ls_short_kinds, ls_short_word(s, n, end), n);
	return k < 0 ? LS_K_UNKNOWN : (enum ls_kind)k;
}

long ls_record_parse(struct ls_record *rec, const uint8_t *p,
		     const uint8_t *end, const char **why)
{
	struct mp_item it;
	const uint8_t *q;
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
	for (uint32_t i = 0; i < rec->nfields; i++) {
		const uint8_t *key = q, *s;
		enum ls_field f;
		uint32_t klen;

		if (q >= end)
			return 0;
		n = key_string(q, end, &s, &klen);
		if (n == 0)
			return 0;
		if (n < 0) {
			*why = "record has a key that is not a string";
			return LS_ERR_SYNTAX;
		}
		q += n;
		if (q >= end)
			return 0;
		f = field_of(s, klen, end);
		if (f != LS_F__NONE) {
			if (ls_has(rec, f)) {
				*why = "record has a key twice";
				return LS_ERR_SYNTAX;
			}
			rec->present[f / 64] |= UINT64_C(1) << (f % 64);
			rec->key[f] = (uint32_t)(key - p);
			rec->off[f] = (uint32_t)(q - p);
		}
		n = value_length(q, end);
		if (n == 0)
			return 0;
		if (n < 0) {
			*why = "record holds invalid msgpack";
			return LS_ERR_SYNTAX;
		}
		if (f == LS_F_K) {
			if (key_string(q, end, &s, &klen) <= 0) {
				*why = "record kind \"k\" is not a string";
				return LS_ERR_SYNTAX;
			}
			rec->kind_str = (const char *)s;
			rec->kind_len = klen;
			rec->kind = kind_of(s, klen, end);
		}
		q += n;
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

int ls_get_str(const struct ls_record *rec, enum ls_field f,
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
