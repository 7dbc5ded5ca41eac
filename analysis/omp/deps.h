/*
 * tr-deps for OpenMP: fork to each team thread's team_begin, each team
 * thread's team_end to the join, barrier fan-in/fan-out (an edge from the
 * last thread to arrive to every other thread's leave, then an instance
 * record), and each lock release to the next acquire of the lock by
 * another thread. One team per process at a time (nested parallel regions
 * are taken as part of the enclosing team).
 */
#ifndef AN_OMP_DEPS_H
#define AN_OMP_DEPS_H

#include <stdbool.h>
#include <stdint.h>

#include "../../libstream/record.h"
#include "../../libstream/idmap.h"
#include "../edges.h"
#include "../trace.h"


struct an_team_member {
	uint32_t s;		/* stream index */
	uint64_t end;		/* its team_end, once seen */
	uint64_t barriers;	/* barriers it has entered */
	bool ended;
};

/* A thread's part in a barrier instance. */
struct an_barrier_part {
	uint64_t enter, leave;
	int64_t t;
	uint64_t sid;		/* stream id: breaks ties of t */
};

struct an_barrier {
	uint64_t seq;
	struct an_barrier_part *part;	/* per member */
	uint32_t left;
};

struct an_team {
	uint64_t fork;
	uint32_t master;	/* stream index */
	bool active;
	bool joined;		/* its join came (join, join_t), no fork since */
	uint64_t join;
	int64_t join_t;
	struct an_team_member *m;
	uint32_t n, cap;
	struct an_barrier *b;	/* open barrier instances, oldest first */
	uint32_t nb, bcap;
};

struct an_omp_deps_stats {
	uint64_t outside;	/* team events and barriers outside any team */
	uint64_t lock_ids;	/* lock events whose lock is no id below 2^40: left out */
	uint64_t lock_early;	/* acquires stamped before the release they waited for */
	uint64_t open;		/* barrier instances some member never left */
};

/*
 * A lock: its last release not yet followed by an acquire on another
 * thread, the thread that holds it, and an acquire that came while
 * another thread held it (the runtime calls back after the fact: the
 * next holder's acquire may be stamped before the release it waited for).
 */
struct an_lock {
	uint64_t release, early;
	uint32_t release_s, holder, early_s;	/* LS_NONE: none */
};

struct an_omp_deps {
	struct an_team *team;	/* per process index */
	uint32_t team_cap;
	struct an_lock *locks;
	uint32_t nlocks, locks_cap;
	struct ls_idmap lock_ix;	/* (process, lock) -> index in locks */
	uint64_t *acts;		/* scratch: an instance's activities */
	uint32_t acts_cap;
	const struct an_trace *tr;
	struct an_edges *out;
	struct an_omp_deps_stats st;
};

/* The rules see the trace state tr and put what they find in out (both borrowed). */
void an_omp_deps_init(struct an_omp_deps *o, const struct an_trace *tr, struct an_edges *out);

/*
 * fork, join, team_begin, team_end (rec NULL: their rules read no field),
 * lock_acquire, lock_release (rec its record).
 */
int an_omp_deps_event(struct an_omp_deps *o, const struct ls_record *rec, const struct an_event *ev);

/* A barrier activity f ends at ev. */
int an_omp_deps_barrier_leave(struct an_omp_deps *o, const struct an_frame *f,
			 const struct an_event *ev);

void an_omp_deps_finish(struct an_omp_deps *o);

void an_omp_deps_release(struct an_omp_deps *o);

#endif
