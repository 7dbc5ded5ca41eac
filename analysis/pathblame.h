/*
 * Blame on the critical path: of the blame an activity received for wait
 * states, the part its time on the path has in its exclusive time. An
 * activity with exclusive time X, C of it on the critical path, that
 * received blame B has floor(B * min(C, X) / X) on the path: its blame
 * spread over its time as the blame is split (blame.h), in proportion to
 * exclusive time. CASITA's "Blame on CP" counts the blame of the
 * stretches between two events of a stream that lie on the path, which is
 * the same where an activity's blame lies evenly on its time.
 *
 * An activity's share is known once the path is written past its leave;
 * blame for it comes before that, or after (a wait decided later). Each
 * activity is followed from its enter until its share is known: then a
 * path_blame record gives the part of its blame so far that is on the
 * path. Blame that comes after adds a path_blame record of its own, by
 * which the activity's floor grew, so that its records add up to
 * floor(B * min(C, X) / X) whatever the order. Known shares are kept for
 * the last AN_PB_KNOWN activities on the path; blame that comes for one
 * let go of before is counted (unknown), not guessed. Late blame comes
 * soon after: with 16 kept, none on the corpus or the 10 M-event bench
 * archive was let go of (a larger ring costs time: its map's misses).
 * Blame for GPU idleness is kept apart from the blame for wait states, as
 * tr-rank keeps it: its path_blame records say idle.
 *
 * The caller finds a followed activity's entry by a hint it keeps
 * (tr-critpath: on the enter's node); a map here holds only those whose
 * hint it let go of (adrift). A map entry for every activity followed
 * cost tr-critpath 0.2 to 0.5 s of 2 s on the 10 M-event bench archive.
 */
#ifndef AN_PATHBLAME_H
#define AN_PATHBLAME_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/defs.h"
#include "../libstream/idmap.h"
#include "../libstream/writer.h"
#include "item.h"

#define AN_PB_KNOWN (1u << 12)

/* An activity followed: its times, children, blame and time on the path so far. */
struct an_pb_open {
	uint64_t act;		/* its enter's id */
	int64_t enter, leave;	/* leave: once left */
	uint64_t child;		/* its children's time (ns) */
	uint64_t blame[2];	/* ns: for wait states, for idleness */
	uint64_t cp;		/* ns */
	uint32_t r, s;		/* region and stream index */
	uint32_t next;		/* the next free entry, where free */
	bool live;		/* followed (not free) */
	bool adrift;		/* in the map: found by its id */
};

/* An activity on the path whose share is known: blame so far (as above), and min(C, X) / X. */
struct an_pb_known {
	uint64_t act, blame[2], num, den;
	uint32_t r, s;
};

struct an_pathblame {
	struct an_pb_open *e;
	uint32_t ne, cap, free;		/* free: the first free entry, or LS_NONE */
	struct ls_idmap adrift;		/* act -> e, for entries whose hint the caller let go of */
	uint32_t *left;			/* entries left, in the order they left (their times in order) */
	uint32_t left_at, left_n, left_cap;
	struct an_pb_known *known;	/* a ring of AN_PB_KNOWN, allocated once needed */
	uint32_t known_at, known_n;
	struct ls_idmap known_map;	/* act -> known */
	bool let_go;			/* a known share was let go of: */
	uint64_t let_go_max;		/* the largest activity id of those */
	uint64_t unknown;		/* ns of blame for activities let go of */
	uint64_t written;		/* ns of path_blame written, idleness's too */
	struct an_typed_list *typed;	/* where each record written is noted typed (borrowed) */
};

/* Each path_blame record written noted in typed (the stage's, borrowed). */
void an_pathblame_init(struct an_pathblame *pb, struct an_typed_list *typed);

/*
 * Activity act (region r, stream s) entered at t: followed as *entry,
 * which its leave names, and the hint that finds it by act while it is
 * followed. Returns 0, or LS_ERR_NOMEM.
 */
int an_pathblame_enter(struct an_pathblame *pb, uint64_t act, uint32_t r, uint32_t s, int64_t t,
		       uint32_t *entry);

/*
 * The activity followed as entry left at t; parent: the entry of the
 * activity open below it on its stream, or LS_NONE. Returns 0, or
 * LS_ERR_NOMEM.
 */
int an_pathblame_leave(struct an_pathblame *pb, uint32_t entry, uint32_t parent, int64_t t);

/*
 * The caller lets go of the hint entry for activity act: if still
 * followed, it is found by act from now on. Returns 0, or LS_ERR_NOMEM.
 */
int an_pathblame_adrift(struct an_pathblame *pb, uint64_t act, uint32_t entry);

/* dur ns of the path in activity act (hint: its entry where the caller has it, else LS_NONE). */
void an_pathblame_path(struct an_pathblame *pb, uint64_t act, uint32_t hint, uint64_t dur);

/*
 * ns of blame for activity act (for idleness where idle; hint as above):
 * added to it, or, where its share is known, its path_blame written to w
 * (ids from d). Returns 0 or a writer error.
 */
int an_pathblame_blame(struct an_pathblame *pb, uint64_t act, uint32_t hint, uint64_t ns, bool idle,
		       const struct ls_defs *d, struct ls_writer *w);

/*
 * The path is written up to clock: the activities left by then have
 * their share, and their path_blame is written to w. Returns 0, or an
 * error (LS_ERR_NOMEM, a writer's).
 */
int an_pathblame_settle(struct an_pathblame *pb, int64_t clock, const struct ls_defs *d,
			struct ls_writer *w);

void an_pathblame_release(struct an_pathblame *pb);

#endif
