/*
 * An OTF2 archive written from a record stream file (tr-otf2's, and
 * tr-analyze -o's): the first pass takes every record (otf2out_take),
 * the second (for a trace of many streams, one per share of its streams:
 * otf2out_rounds) writes the archive into its staging folder, which is
 * then put in place (archive.h).
 */
#ifndef OTF2_WRITE_H
#define OTF2_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../formats/otf2/otf2out.h"
#include "../../libstream/record.h"
#include "archive.h"
#include "../common/progress.h"

/* The progress of reading a stream file twice, where it is drawn. */
struct otf2_reading {
	struct progress line;
	uint64_t size, records;	/* bytes of the file; records read in both passes */
	int pass;		/* passes done */
	uint32_t passes;	/* in all, once known (0: two) */
};

/*
 * One pass over the stream file path (name: how messages call it): each
 * record to each, otf2out_take (pass 1) or otf2out_write (pass 2). What
 * is wrong with a record is said at its position in the input; what goes
 * wrong writing, at out_path. Returns 0, or 1 after a message.
 */
int otf2_pass(struct otf2out *o, const char *path, const char *name, const char *out_path,
	      int (*each)(struct otf2out *, const struct ls_record *), struct otf2_reading *g);

/*
 * The first pass done: write the archive from path into a's staging
 * folder, put it in place (replacing an old one if force), and say what
 * OTF2 could not hold (with stats, what was written). Returns 0, or 1
 * after a message.
 */
int otf2_archive(struct otf2out *o, struct archive *a, const char *path, const char *name,
		 const char *out_path, bool force, bool stats, struct otf2_reading *g);

#endif
