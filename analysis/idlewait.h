/*
 * Idle blame under wait states: which part of the GPU idle blame an
 * activity got came while that activity waited, and in which pattern (the
 * GPU starved while the host waited for a late sender). Idle blame from an
 * idle period counts under the activity's wait state (its first) where the
 * two overlap in time. The idle blame of a call whose wait is not known
 * yet is held until it is (every role but cpu can wait); waits are held to
 * the end, so memory grows with the waits and such calls (tr-rank -e only).
 */
#ifndef AN_IDLEWAIT_H
#define AN_IDLEWAIT_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/idmap.h"

/* Part of a call's idle blame: ns from the idle period t .. end. */
struct an_idle_part {
	uint64_t ns;
	int64_t t, end;
};

/* A call's idle blame whose wait is not known yet. */
struct an_idle_held {
	uint64_t act;
	uint32_t region, n, cap;
	struct an_idle_part *v;
};

/* A wait state: its pattern and time. */
struct an_wait_span {
	uint32_t pattern;
	int64_t t, end;
};

/* ns of idle blame under a wait of pattern for region (index): 0 or < 0 to stop. */
typedef int (*an_idle_under_fn)(void *ctx, uint32_t region, uint32_t pattern, uint64_t ns);

struct an_idlewait {
	struct ls_idmap wait_ix, held_ix;	/* activity -> index into waits, held */
	struct an_wait_span *waits;
	struct an_idle_held *held;
	uint32_t nwaits, waits_cap, nheld, held_cap;
	uint64_t idle_at;		/* the idle period the blame that follows is for */
	int64_t idle_t, idle_end;
	bool idle_known;
	an_idle_under_fn under;
	void *ctx;
};

void an_idlewait_init(struct an_idlewait *w, an_idle_under_fn under, void *ctx);

/* Idle period at (its record's at), t .. t + dur: the idle blame that follows is from it. */
void an_idlewait_period(struct an_idlewait *w, uint64_t at, int64_t t, uint64_t dur);

/*
 * Activity act of region (index) got ns of idle blame from idle period
 * period (the blame's wait: if not the last period's, it is under none);
 * waits: whether its region can wait (not cpu). Returns 0, or a negative
 * error (LS_ERR_NOMEM, or under's).
 */
int an_idlewait_blame(struct an_idlewait *w, uint64_t act, uint32_t region, bool waits,
		      uint64_t period, uint64_t ns);

/* Activity act waited t .. t + dur in pattern. Returns 0, or a negative error. */
int an_idlewait_wait(struct an_idlewait *w, uint64_t act, uint32_t pattern, int64_t t,
		     uint64_t dur);

void an_idlewait_release(struct an_idlewait *w);

#endif
