/*
 * What the stages write of the trace (docs/stream.md's derived records),
 * typed as the stages after the writer read them: within one process a
 * stage notes each such record it writes (an_typed, item.h), and the
 * stages after it take these instead of locating the record's fields.
 * Streams and regions are indexes of the definitions, not ids.
 */
#ifndef AN_DERIVED_H
#define AN_DERIVED_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/schema.h"

/* A blame record: ns of wait's waiting blamed on activity to. */
struct an_blame {
	uint64_t to, wait, ns;
	uint32_t r;		/* the activity's region index */
	uint32_t s;		/* its stream index */
	enum ls_pattern pattern;
};

/* An edge record: to depends on from. */
struct an_edge_rec {
	uint64_t from, to;
	enum ls_edge type;
};

/* A wait or idle record (idle: its pattern an idleness one). */
struct an_wait {
	uint64_t at;
	int64_t t;
	uint64_t dur, cause;
	uint32_t s;		/* stream index */
	uint8_t pattern;
	bool has_cause;
	uint32_t region;	/* the waiting activity's region index; LS_NONE: not known */
};

/* A piece in a region no activity of the trace records (the team start): its act. */
#define AN_NO_ACT UINT64_MAX

/*
 * A crit record: time of the path in one activity (act 0 and r LS_NONE:
 * in none; act AN_NO_ACT: in region r, no activity).
 */
struct an_piece {
	int64_t t;
	uint64_t dur, act;
	uint32_t s, r;
};

/* A path_blame record: ns of activity act's blame on the path (idle: of its idle blame). */
struct an_path_share {
	uint64_t act, ns;
	uint32_t r, s;		/* its region and stream indexes */
	bool idle;
};

#endif
