/*
 * Reading a record stream from a file or stdin, msgpack or NDJSON (told
 * apart by the first byte), one record at a time, with the position of
 * every problem.
 */
#ifndef LS_READER_H
#define LS_READER_H

#include <stdbool.h>
#include <stdint.h>

#include "buf.h"
#include "json.h"
#include "record.h"

enum ls_format { LS_FMT_UNKNOWN, LS_FMT_MSGPACK, LS_FMT_JSON };

struct ls_reader {
	int fd;
	const char *name;	/* "<stdin>" or the path, for messages */
	uint8_t *buf;
	size_t cap, start, end;
	bool eof;
	enum ls_format format;
	uint64_t recno;		/* records returned so far */
	uint64_t offset;	/* input offset of buf[0] */
	uint64_t rec_offset;	/* input offset of the current record */
	uint64_t line;		/* NDJSON: lines consumed */
	struct ls_json json;
	struct ls_buf jrec;	/* the msgpack form of the current NDJSON line */
	uint64_t skim;		/* kinds only framed (ls_reader_skim) */
	bool trailer_due;	/* it began with a header of 1.1 or later */
	bool ended;		/* its trailer was read */
	char err[256];
};

/*
 * Open path for reading ("-" or NULL: stdin). Returns 0, or LS_ERR_IO with
 * errno set and the message in r->err. Nothing to release on failure.
 */
int ls_reader_open(struct ls_reader *r, const char *path);

/* Read fd (the reader's from then on: released with it, unless stdin), named name in messages. As ls_reader_open. */
int ls_reader_open_fd(struct ls_reader *r, int fd, const char *name);

/*
 * Read the next record into rec. Returns 1, 0 at the end of the input, or
 * a negative error with a one-line message (position first) in r->err.
 * A header record is checked here: a newer major version is LS_ERR_VERSION,
 * stages that are not a list of stages LS_ERR_SYNTAX. The trailer is
 * taken here and not returned: a stream that began with a header of 1.1
 * or later and ends without one was cut (LS_ERR_TRUNCATED); a record after
 * it is LS_ERR_SYNTAX (streams joined by cat, not tr-cat). rec points into
 * the reader's buffer until the next call.
 */
int ls_read(struct ls_reader *r, struct ls_record *rec);

/*
 * From now on, only frame the records of these kinds (a set of
 * LS_KIND_BIT): the caller passes them on without reading their fields,
 * as ls_record_parse says. Headers are always read whole.
 */
void ls_reader_skim(struct ls_reader *r, uint64_t kinds);

/*
 * Where the record last returned by ls_read starts, as "record N (byte B)"
 * or, for NDJSON, "line L"; written to where[0..n), which is returned.
 */
const char *ls_reader_where(const struct ls_reader *r, char *where, size_t n);

/*
 * Make the input readable again from its start (ls_reader_rewind): a
 * regular file is; any other input (a pipe) is copied whole first, into an
 * unlinked temporary file (libstream/tmpfile.h) that is read instead.
 * Call before the first ls_read. Returns 0, or LS_ERR_IO with errno set
 * and the message in r->err (a full disk leaves nothing behind).
 */
int ls_reader_rewindable(struct ls_reader *r);

/* Read the input again from its start (after ls_reader_rewindable). Returns 0 or LS_ERR_IO. */
int ls_reader_rewind(struct ls_reader *r);

/* Close the input (unless stdin) and free the buffers. */
void ls_reader_release(struct ls_reader *r);

#endif
