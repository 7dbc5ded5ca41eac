/*
 * Canonical msgpack encoding (docs/stream.md): every integer in its
 * smallest form, non-negative ones unsigned, floats as float64, strings
 * as str. Inline, into a growable buffer: this is on the path of every
 * record a tool builds. tests/helper/ls-unit.c checks it byte for byte
 * against msgpack-c's packer.
 */
#ifndef LS_ENC_H
#define LS_ENC_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "buf.h"

/* n bytes of room at the end of b, or NULL (out of memory). */
static inline uint8_t *ls_enc_room(struct ls_buf *b, size_t n)
{
	uint8_t *p;

	if (b->cap - b->len < n && ls_buf_grow(b, n) < 0)
		return NULL;
	p = b->p + b->len;
	b->len += n;
	return p;
}

static inline void ls_enc_be(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

/* A type byte followed by a big-endian value of bytes bytes. */
static inline int ls_enc_tagged(struct ls_buf *b, uint8_t tag, uint64_t v, int bytes)
{
	uint8_t *p = ls_enc_room(b, 1 + (size_t)bytes);

	if (!p)
		return LS_ERR_NOMEM;
	p[0] = tag;
	ls_enc_be(p + 1, v, bytes);
	return 0;
}

/*
 * Raw forms: write at p, which has room for 9 bytes, and return the end.
 * For callers that check room once for several values.
 */
static inline uint8_t *ls_enc_uint_at(uint8_t *p, uint64_t v)
{
	if (v <= 0x7f) {
		*p = (uint8_t)v;
		return p + 1;
	}
	if (v <= UINT8_MAX) {
		p[0] = 0xcc;
		p[1] = (uint8_t)v;
		return p + 2;
	}
	if (v <= UINT16_MAX) {
		p[0] = 0xcd;
		ls_enc_be(p + 1, v, 2);
		return p + 3;
	}
	if (v <= UINT32_MAX) {
		p[0] = 0xce;
		ls_enc_be(p + 1, v, 4);
		return p + 5;
	}
	p[0] = 0xcf;
	ls_enc_be(p + 1, v, 8);
	return p + 9;
}

static inline uint8_t *ls_enc_int_at(uint8_t *p, int64_t v)
{
	if (v >= 0)
		return ls_enc_uint_at(p, (uint64_t)v);
	if (v >= -32) {
		*p = (uint8_t)v;
		return p + 1;
	}
	if (v >= INT8_MIN) {
		p[0] = 0xd0;
		p[1] = (uint8_t)v;
		return p + 2;
	}
	if (v >= INT16_MIN) {
		p[0] = 0xd1;
		ls_enc_be(p + 1, (uint64_t)v, 2);
		return p + 3;
	}
	if (v >= INT32_MIN) {
		p[0] = 0xd2;
		ls_enc_be(p + 1, (uint64_t)v, 4);
		return p + 5;
	}
	p[0] = 0xd3;
	ls_enc_be(p + 1, (uint64_t)v, 8);
	return p + 9;
}

static inline int ls_enc_uint(struct ls_buf *b, uint64_t v)
{
	if (b->cap - b->len < 9 && ls_buf_grow(b, 9) < 0)
		return LS_ERR_NOMEM;
	b->len = (size_t)(ls_enc_uint_at(b->p + b->len, v) - b->p);
	return 0;
}

static inline int ls_enc_int(struct ls_buf *b, int64_t v)
{
	if (b->cap - b->len < 9 && ls_buf_grow(b, 9) < 0)
		return LS_ERR_NOMEM;
	b->len = (size_t)(ls_enc_int_at(b->p + b->len, v) - b->p);
	return 0;
}

static inline int ls_enc_double(struct ls_buf *b, double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return ls_enc_tagged(b, 0xcb, u, 8);
}

static inline int ls_enc_bool(struct ls_buf *b, bool v)
{
	return ls_enc_tagged(b, v ? 0xc3 : 0xc2, 0, 0);
}

static inline int ls_enc_nil(struct ls_buf *b)
{
	return ls_enc_tagged(b, 0xc0, 0, 0);
}

/* A map or array header: fix form up to 15, then 16 and 32 bits. */
static inline int ls_enc_container(struct ls_buf *b, bool map, uint32_t n)
{
	if (n <= 15)
		return ls_enc_tagged(b, (uint8_t)((map ? 0x80 : 0x90) | n), 0, 0);
	if (n <= UINT16_MAX)
		return ls_enc_tagged(b, map ? 0xde : 0xdc, n, 2);
	return ls_enc_tagged(b, map ? 0xdf : 0xdd, n, 4);
}

static inline int ls_enc_map(struct ls_buf *b, uint32_t n)
{
	return ls_enc_container(b, true, n);
}

static inline int ls_enc_array(struct ls_buf *b, uint32_t n)
{
	return ls_enc_container(b, false, n);
}

static inline int ls_enc_str(struct ls_buf *b, const char *s, size_t n)
{
	int rc;

	if (n > UINT32_MAX)
		return LS_ERR_RANGE;
	if (n <= 31)
		rc = ls_enc_tagged(b, (uint8_t)(0xa0 | n), 0, 0);
	else if (n <= UINT8_MAX)
		rc = ls_enc_tagged(b, 0xd9, n, 1);
	else if (n <= UINT16_MAX)
		rc = ls_enc_tagged(b, 0xda, n, 2);
	else
		rc = ls_enc_tagged(b, 0xdb, n, 4);
	return rc < 0 ? rc : ls_buf_add(b, s, n);
}

#endif
