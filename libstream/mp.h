/*
 * Reading msgpack in place, without msgpack-c's object tree: the type and
 * scalar value at a position, and skipping whole values. This is the hot
 * path of every stage (see docs/stream.md, "Why not the object API").
 */
#ifndef LS_MP_H
#define LS_MP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum mp_type {
	MP_NIL, MP_BOOL, MP_UINT, MP_INT, MP_FLOAT, MP_STR, MP_BIN,
	MP_ARRAY, MP_MAP, MP_EXT
};

struct mp_item {
	enum mp_type type;
	union {
		bool b;
		uint64_t u;	/* MP_UINT: every non-negative integer */
		int64_t i;	/* MP_INT: negative integers only */
		double f;
		uint32_t n;	/* MP_ARRAY, MP_MAP: element count */
		struct {
			const char *p;
			uint32_t n;
		} s;		/* MP_STR, MP_BIN, MP_EXT payload */
	} v;
};

/* Nesting deeper than this is refused rather than recursed into. */
#define MP_MAX_DEPTH 64

/*
 * Decode the head of the value at p: scalars completely, strings, binaries
 * and exts with their payload, arrays and maps up to their element count.
 * Returns the number of bytes consumed, 0 if the input ends first, or -1 if
 * the byte at p is not a msgpack type (0xc1).
 */
long mp_head(const uint8_t *p, const uint8_t *end, struct mp_item *it);

/*
 * Skip the complete value at p, nested ones included. Returns the number of
 * bytes it takes, 0 if the input ends first, -1 if it is not valid msgpack
 * (or nests deeper than MP_MAX_DEPTH).
 */
long mp_skip(const uint8_t *p, const uint8_t *end);

#endif
