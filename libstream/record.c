/* Record views: locating the known fields of a msgpack map, typed access. */
#include <string.h>

#include "error.h"
#include "record.h"

long ls_record_parse(struct ls_record *rec, const uint8_t *p,
		     const uint8_t *end, const char **why)
{
	struct mp_item it;
	const uint8_t *q;
	long n;

	n = mp_head(p, end, &it);
	if (n == 0)
		return 0;
	if (n < 0 || it.type != MP_MAP) {
		*why = "record is not a msgpack map";
		return LS_ERR_SYNTAX;
	}
	rec->raw = p;
	rec->nfields = it.v.n;
	rec->kind = LS_K_UNKNOWN;
	rec->kind_str = NULL;
	rec->kind_len = 0;
	memset(rec->present, 0, sizeof(rec->present));
	q = p + n;
	for (uint32_t i = 0; i < rec->nfields; i++) {
		enum ls_field f;
		const uint8_t *key = q;

		n = mp_head(q, end, &it);
		if (n == 0)
			return 0;
		if (n < 0 || it.type != MP_STR) {
			*why = "record has a key that is not a string";
			return LS_ERR_SYNTAX;
		}
		q += n;
		f = ls_field_lookup(it.v.s.p, it.v.s.n);
		if (f != LS_F__NONE) {
			if (ls_has(rec, f)) {
				*why = "record has a key twice";
				return LS_ERR_SYNTAX;
			}
			rec->present[f / 64] |= UINT64_C(1) << (f % 64);
			rec->key[f] = (uint32_t)(key - p);
			rec->off[f] = (uint32_t)(q - p);
		}
		n = mp_skip(q, end);
		if (n == 0)
			return 0;
		if (n < 0) {
			*why = "record holds invalid msgpack";
			return LS_ERR_SYNTAX;
		}
		if (f == LS_F_K) {
			mp_head(q, end, &it);
			if (it.type != MP_STR) {
				*why = "record kind \"k\" is not a string";
				return LS_ERR_SYNTAX;
			}
			rec->kind_str = it.v.s.p;
			rec->kind_len = it.v.s.n;
			rec->kind = ls_kind_lookup(it.v.s.p, it.v.s.n);
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

int ls_get_u64(const struct ls_record *rec, enum ls_field f, uint64_t *out)
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

int ls_get_i64(const struct ls_record *rec, enum ls_field f, int64_t *out)
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

enum ls_class ls_record_class(const struct ls_record *rec)
{
	return ls_kind_spec(rec->kind)->cls;
}
