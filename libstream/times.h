/*
 * Arithmetic on a stream's times and durations, checked: times lie in
 * [LS_TIME_MIN, LS_TIME_MAX] (2^62 ns each way), durations in [0,
 * LS_DUR_MAX]. The difference of two times always fits a duration; a
 * time moved by an amount, or an amount scaled, may leave the range:
 * these say so instead of overflowing (undefined behaviour, or a time
 * that no later tool takes).
 */
#ifndef LS_TIMES_H
#define LS_TIMES_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "schema.h"

/* b - a where a <= b, else 0: exact for any two times (and any two int64s). */
static inline uint64_t ls_span(int64_t a, int64_t b)
{
	return b > a ? (uint64_t)b - (uint64_t)a : 0;
}

/* t + d into *out where that is a time; false (*out untouched) where not. */
static inline bool ls_time_plus(int64_t t, int64_t d, int64_t *out)
{
	int64_t r;

	if (__builtin_add_overflow(t, d, &r) || !ls_time_ok(r))
		return false;
	*out = r;
	return true;
}

/* t + d, held to [LS_TIME_MIN, LS_TIME_MAX]: for a bound, not a time written. */
static inline int64_t ls_time_plus_held(int64_t t, int64_t d)
{
	int64_t r;

	if (__builtin_add_overflow(t, d, &r))
		return d < 0 ? LS_TIME_MIN : LS_TIME_MAX;
	return r < LS_TIME_MIN ? LS_TIME_MIN : r > LS_TIME_MAX ? LS_TIME_MAX : r;
}

/*
 * ns times factor (finite, >= 0), rounded to the nearest, into *out where
 * it is an amount a duration can be (|result| <= LS_DUR_MAX); false where
 * not.
 */
static inline bool ls_ns_scaled(int64_t ns, double factor, int64_t *out)
{
	double v;

	if (factor == 1) {
		*out = ns;
		return true;
	}
	v = round((double)ns * factor);
	if (!(fabs(v) < 0x1p63))
		return false;
	*out = (int64_t)v;
	return true;
}

#endif
