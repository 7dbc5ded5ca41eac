/*
 * Blame: the exclusive time of the activities of one stream between two of
 * its synchronization points (an interval), and the split of a waiting
 * time over them in proportion to it.
 */
#ifndef AN_BLAME_H
#define AN_BLAME_H

#include <stdint.h>

struct an_share {
	uint64_t act;		/* the activity (its enter id) */
	uint64_t ns;		/* its exclusive time in the interval */
	uint32_t region;	/* the activity's region (index) */
};

struct an_interval {
	struct an_share *v;	/* in order of first appearance */
	uint32_t n, cap;
	uint64_t total;
};

/*
 * Add ns of exclusive time to activity act (of region index region),
 * whose share is v[*slot - 1] if *slot is set and still names it (else a
 * new share is made and *slot set). Returns 0, or LS_ERR_NOMEM.
 */
int an_interval_add(struct an_interval *iv, uint32_t *slot, uint64_t act,
		    uint32_t region, uint64_t ns);

/* A copy of src in *dst (empty before). Returns 0, or LS_ERR_NOMEM. */
int an_interval_copy(struct an_interval *dst, const struct an_interval *src);

/*
 * Split dur over the shares of iv (total > 0): out[i] = dur * ns_i / total
 * rounded down, and what rounding left over to the largest share (the
 * first of equal ones), so the parts add up to dur exactly.
 */
void an_blame_split(const struct an_interval *iv, uint64_t dur, uint64_t *out);

void an_interval_release(struct an_interval *iv);

#endif
