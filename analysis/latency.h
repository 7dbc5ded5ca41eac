/*
 * The least message latency a trace shows, for tr-clock's --summary. A
 * message's span one way (its receive's time less its send's) holds the
 * latency plus the offset between the two processes' clocks; the way back
 * holds the latency less that offset. Half the least span one way plus the
 * least the other way is thus a latency with the offset cancelled (half
 * the least round trip, as in Cristian's clock synchronization), for every
 * pair of processes with messages both ways; the least over all pairs is
 * what the trace shows, where a network's latency is alike both ways.
 * (A launch and the synchronization after it bound only the sum of two
 * latencies that are not alike, so no launch latency is shown.)
 */
#ifndef AN_LATENCY_H
#define AN_LATENCY_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/idmap.h"

struct an_latency_way {
	uint64_t key;		/* from, to */
	int64_t least;		/* ns */
};

struct an_latency {
	struct ls_idmap ways;	/* key -> index in way */
	struct an_latency_way *way;
	uint32_t n, cap;
};

#define AN_LATENCY_INIT { LS_IDMAP_INIT, NULL, 0, 0 }

/* A message from process a to process b spanning span ns. Returns 0 or LS_ERR_NOMEM. */
int an_latency_see(struct an_latency *l, uint32_t a, uint32_t b, int64_t span);

/*
 * The least latency the trace shows (half the least round trip) in *ns,
 * and over how many pairs of processes with messages both ways (a process
 * to itself one) in *pairs. Returns false where there is none.
 */
bool an_latency_least(const struct an_latency *l, int64_t *ns, uint32_t *pairs);

void an_latency_release(struct an_latency *l);

#endif
