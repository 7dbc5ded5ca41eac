/*
 * The trace formats tr-read reads, in one table: how each is recognized
 * from its input and read through the reader front (libstream/front.h).
 * Adding a format is adding its adapter under formats/NAME/ and a row
 * here (formats/README.md).
 */
#ifndef READERS_H
#define READERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../libstream/front.h"
#include "../libstream/header.h"

struct reader {
	const char *name;	/* "OTF2 archives" */
	const char *give;	/* how to give one: "by their anchor file, NAME.otf2" */
	/* whether the input, a file starting with head[0..n), is of this format */
	bool (*sniff)(const uint8_t *head, size_t n);
	/* whether the input, a folder, is of this format (NULL: none is) */
	bool (*sniff_dir)(const char *path);
	bool many;		/* several inputs make one trace (logs of one run) */
	bool from_stdin;	/* one file of the format can come on standard input */
	bool shards;		/* reads only a shard's locations (tr-analyze --mpi) */
	/*
	 * Read paths[0..npaths) (one, unless many): the header (with stage)
	 * and definitions to w, the events through front (and its oddities,
	 * ls_front_odd), the trailer. Returns 0, or a negative error with a
	 * one-line message in err[0..n) (w->err set: the output failed).
	 */
	int (*read)(const char *const *paths, int npaths, const struct ls_stage *stage, struct ls_front *front,
		    struct ls_writer *w, char *err, size_t n);
};

/*
 * The reader for path, or NULL with a one-line message in err[0..n): the
 * path cannot be read, or no format fits (the message names those known).
 */
const struct reader *reader_for(const char *path, char *err, size_t n);

/*
 * The reader for paths[0..npaths) together: several only where they are
 * of one format whose reader takes several (many). "-" is standard input,
 * alone, of a format that can come from there (not OTF2, a folder of
 * files): a pipe is copied to a temporary file first (formats/stdin.h).
 * NULL with a one-line message in err[0..n) otherwise.
 */
const struct reader *readers_for(const char *const *paths, int npaths, char *err, size_t n);

/* Read paths[0..npaths) with r, the reader readers_for gave for them: as r->read. */
int readers_read(const struct reader *r, const char *const *paths, int npaths, const struct ls_stage *stage,
		 struct ls_front *front, struct ls_writer *w, char *err, size_t n);

#endif
