/*
 * Each process's clock against rank 0's (KOJAK's offline method): the
 * offsets measured at MPI_Init and at MPI_Finalize (rank 0's clock less
 * this one's, from the ping-pong with the shortest round trip), applied
 * linearly between the two, and beyond them along the same line. With
 * one of the two, its offset throughout; with none (a rank that died
 * before MPI_Init's were written out), on rank 0's host none, on
 * another the one the two logs' real-time clocks at their starts give
 * (as close as the hosts' clocks agree: NTP's milliseconds, not the
 * days two monotonic clocks may differ by). The error of
 * an offset is at most half its round trip (a message's two halves may
 * differ by no more), and the drift between the two is taken as
 * constant; where the two offsets differ by no more than their errors
 * (a short run), no drift is measured, and an offset within its error is
 * none.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trlogin_private.h"

/* A drift larger than this is no clock's but a measurement's error: left out. */
#define MAX_DRIFT 1e-3L

/*
 * The offset a synchronization shows: none where it is within its error
 * (half its round trip), as on one host, where every rank reads the same
 * clock: correcting by the error would only move messages of a few
 * microseconds backwards.
 */
static int64_t shown(const struct sync *s)
{
	return llabs(s->offset) <= s->rtt / 2 ? 0 : s->offset;
}

/* t of l on rank 0's clock. */
static int64_t on_rank0(const struct log *l, int64_t t)
{
	long double shift = (long double)l->offset + l->drift * (long double)(t - l->offset_at);

	return t + (int64_t)(shift < 0 ? shift - 0.5L : shift + 0.5L);
}

/* Rank 0's clock less l's, from their real-time clocks at their starts; 0 on one host. */
static int64_t by_realtime(const struct trlogin *in, const struct log *l)
{
	const struct log *r0 = &in->logs[0];
	int64_t offset;

	if (!l->mpi || !r0->mpi || r0->rank != 0 || !strcmp(l->host, r0->host) || l->realtime <= 0 ||
	    r0->realtime <= 0)
		return 0;
	/* times within 2^62 (a_time): no overflow; an offset past a measured one's bound is none */
	offset = (l->realtime - l->start) - (r0->realtime - r0->start);
	return offset > -MAX_OFFSET && offset < MAX_OFFSET ? offset : 0;
}

void trlog_clocks(struct trlogin *in)
{
	in->origin = INT64_MAX;
	for (uint32_t i = 0; i < in->nlogs; i++) {
		struct log *l = &in->logs[i];
		const struct sync *a = &l->sync[TRLOG_SYNC_INIT], *b = &l->sync[TRLOG_SYNC_FINALIZE];

		l->drift = 0;
		l->offset_at = a->have ? a->t : b->t;
		l->offset = a->have ? shown(a) : b->have ? shown(b) : by_realtime(in, l);
		/* a drift within the two offsets' error (a short run) is none measured */
		if (a->have && b->have && b->t > a->t && llabs(shown(b) - shown(a)) > (a->rtt + b->rtt) / 2)
			l->drift = (long double)(shown(b) - shown(a)) / (long double)(b->t - a->t);
		if (fabsl(l->drift) > MAX_DRIFT) {
			l->drift = 0;
			in->drift_dropped++;
		}
		for (int k = 0; k < 2; k++) {
			if (!l->sync[k].have)
				continue;
			if (llabs(shown(&l->sync[k])) > in->max_offset)
				in->max_offset = llabs(shown(&l->sync[k]));
			if ((uint64_t)l->sync[k].rtt / 2 > in->bound)
				in->bound = (uint64_t)l->sync[k].rtt / 2;
		}
		if ((int64_t)(fabsl(l->drift) * 1e9L) > in->max_drift_ppb)
			in->max_drift_ppb = (int64_t)(fabsl(l->drift) * 1e9L);
		if (on_rank0(l, l->start) < in->origin)
			in->origin = on_rank0(l, l->start);
	}
}

int64_t trlog_time(const struct trlogin *in, const struct log *l, int64_t t)
{
	return on_rank0(l, t) - in->origin;
}
