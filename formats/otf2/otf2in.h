/*
 * Reading an OTF2 archive (as Score-P writes it) into the record stream of
 * docs/stream.md: definitions first, then events in global time order.
 */
#ifndef OTF2IN_H
#define OTF2IN_H

#include <stdbool.h>
#include <stdint.h>

#include "../../libstream/header.h"
#include "../../libstream/range.h"
#include "../../libstream/writer.h"

struct otf2in_options {
	const struct ls_stage *stage;	/* the tool reading, for the header's stages */
	struct ls_ranges processes;	/* empty: all */
	struct ls_ranges streams;	/* empty: all */
	bool window;			/* keep only events with begin <= t <= end */
	int64_t begin, end;
};

/* What reading found, for --stats and the oddities reported once. */
struct otf2in_report {
	uint64_t kinds[LS_K__COUNT];	/* records written, by kind */
	uint64_t roles[LS_R__COUNT];	/* enters written, by region role */
	uint64_t leave_without_enter;
	uint64_t leave_mismatch;	/* leave of another region than the open one */
	uint64_t open_at_end;		/* enters never left */
	uint64_t undefined_location;	/* events on locations the archive did not define */
	uint64_t unknown_records;	/* record types this libotf2 does not know */
	uint64_t ignored_records;	/* known record types with no meaning here */
	uint64_t rma_unmatched;		/* RMA completions without an open copy */
	uint64_t filtered;		/* events left out by -p, -s, -t */
	uint64_t unknown_peer;		/* ranks not in their communicator */
	uint64_t unknown_comm;		/* collectives on a communicator not written */
	uint64_t comms_unplaced;	/* MPI communicators with a rank of no process, or twice;
					   teams with a rank of no stream */
	uint64_t orphan_locations;	/* locations of no defined process */
	uint64_t unknown_counter;	/* metric values of an undefined member */
	uint64_t bad_utf8;		/* strings repaired to valid UTF-8 */
};

/*
 * Read the archive whose anchor file is path and write its stream to w,
 * the trailer last. Returns 0; or a negative error with a one-line
 * message in err[0..n) (not an OTF2 archive, a read error, a write
 * error: w->err says which), and then no trailer.
 */
int otf2in_read(const char *path, const struct otf2in_options *opt,
		struct ls_writer *w, struct otf2in_report *report, char *err,
		size_t n);

#endif
