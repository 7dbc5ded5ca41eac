/* Reading msgpack in place: value heads and skipping. */
#include <string.h>

#include "mp.h"

static inline uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* Set a signed value, keeping the rule that non-negative means MP_UINT. */
static inline void set_int(struct mp_item *it, int64_t v)
{
	if (v < 0) {
		it->type = MP_INT;
		it->v.i = v;
	} else {
		it->type = MP_UINT;
		it->v.u = (uint64_t)v;
	}
}

static long payload(const uint8_t *p, const uint8_t *end, struct mp_item *it,
		    enum mp_type type, size_t head, uint32_t n)
{
	if ((size_t)(end - p) < head + n)
		return 0;
	it->type = type;
	it->v.s.p = (const char *)p + head;
	it->v.s.n = n;
	return (long)(head + n);
}

long mp_head(const uint8_t *p, const uint8_t *end, struct mp_item *it)
{
	size_t avail = (size_t)(end - p);
	uint8_t c;
	union { uint32_t u; float f; } f32;
	union { uint64_t u; double f; } f64;

	if (avail < 1)
		return 0;
	c = p[0];
	if (c <= 0x7f) {
		it->type = MP_UINT;
		it->v.u = c;
		return 1;
	}
	if (c >= 0xe0) {
		it->type = MP_INT;
		it->v.i = (int8_t)c;
		return 1;
	}
	if (c >= 0xa0 && c <= 0xbf)
		return payload(p, end, it, MP_STR, 1, c & 0x1f);
	if (c >= 0x80 && c <= 0x8f) {
		it->type = MP_MAP;
		it->v.n = c & 0x0f;
		return 1;
	}
	if (c >= 0x90 && c <= 0x9f) {
		it->type = MP_ARRAY;
		it->v.n = c & 0x0f;
		return 1;
	}
	switch (c) {
	case 0xc0:
		it->type = MP_NIL;
		return 1;
	case 0xc2:
	case 0xc3:
		it->type = MP_BOOL;
		it->v.b = c == 0xc3;
		return 1;
	case 0xc4:
		return avail < 2 ? 0 : payload(p, end, it, MP_BIN, 2, p[1]);
	case 0xc5:
		return avail < 3 ? 0 : payload(p, end, it, MP_BIN, 3, be16(p + 1));
	case 0xc6:
		return avail < 5 ? 0 : payload(p, end, it, MP_BIN, 5, be32(p + 1));
	case 0xc7:
		return avail < 3 ? 0 : payload(p, end, it, MP_EXT, 3, p[1]);
	case 0xc8:
		return avail < 4 ? 0 : payload(p, end, it, MP_EXT, 4, be16(p + 1));
	case 0xc9:
		return avail < 6 ? 0 : payload(p, end, it, MP_EXT, 6, be32(p + 1));
	case 0xca:
		if (avail < 5)
			return 0;
		f32.u = be32(p + 1);
		it->type = MP_FLOAT;
		it->v.f = f32.f;
		return 5;
	case 0xcb:
		if (avail < 9)
			return 0;
		f64.u = be64(p + 1);
		it->type = MP_FLOAT;
		it->v.f = f64.f;
		return 9;
	case 0xcc:
		if (avail < 2)
			return 0;
		it->type = MP_UINT;
		it->v.u = p[1];
		return 2;
	case 0xcd:
		if (avail < 3)
			return 0;
		it->type = MP_UINT;
		it->v.u = be16(p + 1);
		return 3;
	case 0xce:
		if (avail < 5)
			return 0;
		it->type = MP_UINT;
		it->v.u = be32(p + 1);
		return 5;
	case 0xcf:
		if (avail < 9)
			return 0;
		it->type = MP_UINT;
		it->v.u = be64(p + 1);
		return 9;
	case 0xd0:
		if (avail < 2)
			return 0;
		set_int(it, (int8_t)p[1]);
		return 2;
	case 0xd1:
		if (avail < 3)
			return 0;
		set_int(it, (int16_t)be16(p + 1));
		return 3;
	case 0xd2:
		if (avail < 5)
			return 0;
		set_int(it, (int32_t)be32(p + 1));
		return 5;
	case 0xd3:
		if (avail < 9)
			return 0;
		set_int(it, (int64_t)be64(p + 1));
		return 9;
	case 0xd4: return payload(p, end, it, MP_EXT, 2, 1);
	case 0xd5: return payload(p, end, it, MP_EXT, 2, 2);
	case 0xd6: return payload(p, end, it, MP_EXT, 2, 4);
	case 0xd7: return payload(p, end, it, MP_EXT, 2, 8);
	case 0xd8: return payload(p, end, it, MP_EXT, 2, 16);
	case 0xd9:
		return avail < 2 ? 0 : payload(p, end, it, MP_STR, 2, p[1]);
	case 0xda:
		return avail < 3 ? 0 : payload(p, end, it, MP_STR, 3, be16(p + 1));
	case 0xdb:
		return avail < 5 ? 0 : payload(p, end, it, MP_STR, 5, be32(p + 1));
	case 0xdc:
	case 0xde:
		if (avail < 3)
			return 0;
		it->type = c == 0xdc ? MP_ARRAY : MP_MAP;
		it->v.n = be16(p + 1);
		return 3;
	case 0xdd:
	case 0xdf:
		if (avail < 5)
			return 0;
		it->type = c == 0xdd ? MP_ARRAY : MP_MAP;
		it->v.n = be32(p + 1);
		return 5;
	default: /* 0xc1 is never used */
		return -1;
	}
}

static long skip(const uint8_t *p, const uint8_t *end, int depth)
{
	struct mp_item it;
	long n = mp_head(p, end, &it);
	uint64_t count;

	if (n <= 0 || (it.type != MP_ARRAY && it.type != MP_MAP))
		return n;
	if (depth >= MP_MAX_DEPTH)
		return -1;
	count = it.type == MP_MAP ? 2 * (uint64_t)it.v.n : it.v.n;
	for (const uint8_t *q = p + n; count > 0; count--) {
		long m = skip(q, end, depth + 1);

		if (m <= 0)
			return m;
		q += m;
		n += m;
	}
	return n;
}

long mp_skip(const uint8_t *p, const uint8_t *end)
{
	return skip(p, end, 0);
}
