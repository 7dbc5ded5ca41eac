/*
 * A record stream written to a file the way no user's data is lost: into
 * a staging folder beside it (staging.h), moved in only whole; an
 * existing file is replaced only when asked and only if it is a record
 * stream itself. A device or a named pipe (/dev/null, a FIFO another
 * program reads) has nothing to lose and no folder to stage in: it is
 * written straight. Or a stream only staged, read again and removed (the
 * stream tr-analyze -o writes an archive from).
 */
#ifndef STREAM_FILE_H
#define STREAM_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "../../libstream/writer.h"

struct stream_file {
	const char *path;	/* where it goes */
	bool place;		/* moved there in the end (else only staged) */
	bool straight;		/* a device or a pipe, written as it is: no staging */
	char *stage;		/* the staging folder; NULL where straight */
	char *tmp;		/* the file in it (where straight, path) */
	struct ls_writer w;	/* msgpack, to tmp */
};

/*
 * Start writing path (where place, refused where something is there
 * unless force, and then unless it is a record stream, a device or a
 * pipe being written as they are; else only beside it). Returns 0, or -1 with a one-line message in err[0..n) (nothing to
 * release then).
 */
int stream_file_open(struct stream_file *f, const char *path, bool force, bool place, char *err,
		     size_t n);

/*
 * End the stream (trailer), sync and close it: whole at f->tmp. Returns 0,
 * or -1 with a one-line message in err[0..n).
 */
int stream_file_end(struct stream_file *f, char *err, size_t n);

/*
 * ok (after stream_file_end) and place: move it in; else, or where that
 * fails, leave nothing. Returns 0, or -1 with a one-line message in
 * err[0..n).
 */
int stream_file_close(struct stream_file *f, bool ok, char *err, size_t n);

#endif
