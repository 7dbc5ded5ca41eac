/* Reading record streams: buffering, format detection, framing, positions. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "fd.h"
#include "header.h"
#include "pipe.h"
#include "reader.h"
#include "tmpfile.h"

#define CHUNK (1 << 20)

int ls_reader_open(struct ls_reader *r, const char *path)
{
	int fd = STDIN_FILENO;

	if (path && strcmp(path, "-") != 0 && (fd = open(path, O_RDONLY)) < 0) {
		memset(r, 0, sizeof(*r));
		snprintf(r->err, sizeof(r->err), "%s", strerror(errno));
		return LS_ERR_IO;
	}
	return ls_reader_open_fd(r, fd, fd == STDIN_FILENO ? "<stdin>" : path);
}

int ls_reader_open_fd(struct ls_reader *r, int fd, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->name = name;
	r->buf = malloc(CHUNK);
	if (!r->buf) {
		if (r->fd != STDIN_FILENO)
			close(r->fd);
		snprintf(r->err, sizeof(r->err), "out of memory");
		return LS_ERR_NOMEM;
	}
	r->cap = CHUNK;
	ls_pipe_widen(r->fd);
	return 0;
}

int ls_reader_rewindable(struct ls_reader *r)
{
	struct stat st;
	ssize_t n;
	int fd;

	if (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode))
		return 0;
	if ((fd = ls_tmp_fd("input")) < 0) {
		snprintf(r->err, sizeof(r->err), "cannot make a temporary file in %s to read the "
			 "input twice: %s", ls_tmp_named(), strerror(errno));
		return LS_ERR_IO;
	}
	while ((n = read(r->fd, r->buf, r->cap)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || ls_write_all(fd, r->buf, (size_t)n) < 0) {
			int e = errno;

			snprintf(r->err, sizeof(r->err), "cannot keep the input in a temporary file in "
				 "%s to read it twice: %s", ls_tmp_named(), strerror(e));
			close(fd);
			errno = e;
			return LS_ERR_IO;
		}
	}
	if (r->fd != STDIN_FILENO)
		close(r->fd);
	r->fd = fd;
	return ls_reader_rewind(r);
}

int ls_reader_rewind(struct ls_reader *r)
{
	if (lseek(r->fd, 0, SEEK_SET) < 0) {
		snprintf(r->err, sizeof(r->err), "cannot read the input again: %s", strerror(errno));
		return LS_ERR_IO;
	}
	r->start = r->end = 0;
	r->eof = r->trailer_due = r->ended = false;
	r->format = LS_FMT_UNKNOWN;
	r->recno = r->offset = r->rec_offset = r->line = r->skim = 0;
	r->jrec.len = 0;
	r->err[0] = 0;
	return 0;
}

void ls_reader_release(struct ls_reader *r)
{
	if (r->fd != STDIN_FILENO && r->fd >= 0)
		close(r->fd);
	free(r->buf);
	ls_json_release(&r->json);
	ls_buf_release(&r->jrec);
	r->buf = NULL;
	r->fd = -1;
}

void ls_reader_skim(struct ls_reader *r, uint64_t kinds)
{
	r->skim = kinds & ~LS_KIND_BIT(LS_K_HEADER);
}

/* Read more input behind what is buffered, moving or growing the buffer. */
static int fill(struct ls_reader *r)
{
	ssize_t n;

	if (r->start > 0 && (r->start == r->end || r->end > r->cap - CHUNK / 4)) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->offset += r->start;
		r->end -= r->start;
		r->start = 0;
	}
	if (r->cap - r->end < CHUNK / 4) {
		uint8_t *p = realloc(r->buf, 2 * r->cap);

		if (!p) {
			snprintf(r->err, sizeof(r->err), "out of memory");
			return LS_ERR_NOMEM;
		}
		r->buf = p;
		r->cap *= 2;
	}
	do
		n = read(r->fd, r->buf + r->end, r->cap - r->end);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		snprintf(r->err, sizeof(r->err), "%s", strerror(errno));
		return LS_ERR_IO;
	}
	if (n == 0)
		r->eof = true;
	r->end += (size_t)n;
	return 0;
}

/* Where record number recno starts, for messages. */
static const char *where_is(const struct ls_reader *r, uint64_t recno,
			    char *where, size_t n)
{
	if (r->format == LS_FMT_JSON)
		snprintf(where, n, "line %" PRIu64, r->line);
	else
		snprintf(where, n, "record %" PRIu64 " (byte %" PRIu64 ")",
			 recno, r->rec_offset);
	return where;
}

/* Where the record being framed (not yet counted) starts. */
static const char *position(const struct ls_reader *r, char *where, size_t n)
{
	return where_is(r, r->recno + 1, where, n);
}

const char *ls_reader_where(const struct ls_reader *r, char *where, size_t n)
{
	return where_is(r, r->recno, where, n);
}

static int check_header(struct ls_reader *r, const struct ls_record *rec)
{
	uint64_t major = 0, minor = 0;
	const char *why;
	char where[64];

	position(r, where, sizeof(where));

	if (ls_get_u64(rec, LS_F_MAJOR, &major) < 0 ||
	    ls_get_u64(rec, LS_F_MINOR, &minor) < 0) {
		snprintf(r->err, sizeof(r->err),
			 "%s: header without integer \"major\" and \"minor\" version", where);
		return LS_ERR_SYNTAX;
	}
	if (major > LS_VERSION_MAJOR) {
		snprintf(r->err, sizeof(r->err),
			 "%s: stream format %" PRIu64 ".%" PRIu64
			 " is newer than this tool reads (%d.x)", where, major,
			 minor, LS_VERSION_MAJOR);
		return LS_ERR_VERSION;
	}
	if (ls_header_check_stages(rec, &why) < 0) {
		snprintf(r->err, sizeof(r->err), "%s: %s", where, why);
		return LS_ERR_SYNTAX;
	}
	if (r->recno == 0)
		r->trailer_due = ls_header_wants_trailer(rec);
	return 0;
}

/* The input ended: where the stream said it would, or cut short. */
static int at_end(struct ls_reader *r)
{
	char where[64];

	if (!r->trailer_due || r->ended)
		return 0;
	if (r->format == LS_FMT_JSON)	/* the read that found the end counted a line */
		snprintf(where, sizeof(where), "line %" PRIu64, r->line - 1);
	else
		snprintf(where, sizeof(where), "record %" PRIu64 " (byte %" PRIu64 ")", r->recno,
			 r->rec_offset);
	snprintf(r->err, sizeof(r->err), "the stream ends at %s without its trailer: it was "
		 "cut short (did a tool before this one fail?)", where);
	return LS_ERR_TRUNCATED;
}

static int read_msgpack(struct ls_reader *r, struct ls_record *rec)
{
	const char *why = NULL;
	char where[64];
	long n;

	for (;;) {
		r->rec_offset = r->offset + r->start;
		n = ls_record_parse(rec, r->buf + r->start, r->buf + r->end, r->skim, &why);
		if (n < 0) {
			snprintf(r->err, sizeof(r->err), "%s: %s",
				 position(r, where, sizeof(where)), why);
			return (int)n;
		}
		if (n > 0)
			break;
		if (r->eof) {
			snprintf(r->err, sizeof(r->err),
				 "%s: input ends inside the record",
				 position(r, where, sizeof(where)));
			return LS_ERR_TRUNCATED;
		}
		if ((n = fill(r)) < 0)
			return (int)n;
	}
	r->start += (size_t)n;
	return 1;
}

static bool blank(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
			return false;
	return true;
}

static int read_json(struct ls_reader *r, struct ls_record *rec)
{
	const char *why = NULL;
	char where[64];
	uint8_t *nl;
	size_t len, at;
	int rc;
	long n;

	for (;;) {
		nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		if (!nl && !r->eof) {
			if ((rc = fill(r)) < 0)
				return rc;
			continue;
		}
		len = nl ? (size_t)(nl - (r->buf + r->start)) : r->end - r->start;
		r->line++;
		if (len == 0 && !nl)
			return 0;
		at = r->start;
		r->start += len + (nl != NULL);
		/* blank lines separate nothing; skip them */
		if (blank(r->buf + at, len)) {
			if (!nl)
				return 0;
			continue;
		}
		break;
	}
	r->jrec.len = 0;
	rc = ls_json_parse(&r->json, (const char *)r->buf + at, len, &r->jrec,
			   &why, &len);
	if (rc < 0) {
		snprintf(r->err, sizeof(r->err), "%s, column %zu: %s",
			 position(r, where, sizeof(where)), len + 1, why);
		return rc;
	}
	if ((r->jrec.p[0] & 0xf0) != 0x80 && r->jrec.p[0] != 0xde &&
	    r->jrec.p[0] != 0xdf) {
		snprintf(r->err, sizeof(r->err), "%s: record is not a JSON object",
			 position(r, where, sizeof(where)));
		return LS_ERR_SYNTAX;
	}
	n = ls_record_parse(rec, r->jrec.p, r->jrec.p + r->jrec.len, r->skim, &why);
	if (n <= 0) {
		snprintf(r->err, sizeof(r->err), "%s: %s",
			 position(r, where, sizeof(where)), why);
		return LS_ERR_SYNTAX;
	}
	return 1;
}

/*
 * A msgpack record is a map, so it starts with 0x80..0x8f, 0xde or 0xdf;
 * text starts with white space or printable ASCII. Other bytes are taken
 * as (broken) msgpack, so that binary garbage is reported as such.
 */
static enum ls_format detect(uint8_t first)
{
	if ((first >= 0x80 && first <= 0x8f) || first == 0xde || first == 0xdf)
		return LS_FMT_MSGPACK;
	if ((first >= 0x20 && first < 0x7f) || first == '\t' || first == '\n' ||
	    first == '\r')
		return LS_FMT_JSON;
	return LS_FMT_MSGPACK;
}

/*
 * The first record failing to parse usually means the input is some other
 * file (an OTF2 archive, a database): say that rather than what the parser
 * stumbled on.
 */
static void not_a_stream(struct ls_reader *r, uint8_t first)
{
	if (r->recno > 0 || (r->format == LS_FMT_JSON && first == '{'))
		return;
	snprintf(r->err, sizeof(r->err),
		 "not a record stream (it starts with neither a msgpack map nor a JSON object)");
}

/* The next record of any kind: 1, 0 at the end of the input, or an error. */
static int next_record(struct ls_reader *r, struct ls_record *rec)
{
	uint8_t first;
	int rc;

	if (r->format == LS_FMT_UNKNOWN) {
		while (r->start == r->end && !r->eof)
			if ((rc = fill(r)) < 0)
				return rc;
		if (r->start == r->end)
			return 0;
		r->format = detect(r->buf[r->start]);
	}
	if (r->format == LS_FMT_MSGPACK) {
		if (r->start == r->end && !r->eof && (rc = fill(r)) < 0)
			return rc;
		if (r->start == r->end)
			return 0;
		first = r->buf[r->start];
		rc = read_msgpack(r, rec);
	} else {
		size_t i = r->start;

		while (i < r->end && strchr(" \t\r\n", r->buf[i]) && r->buf[i])
			i++;
		first = i < r->end ? r->buf[i] : 0;
		rc = read_json(r, rec);
	}
	if (rc == LS_ERR_SYNTAX)
		not_a_stream(r, first);
	return rc;
}

int ls_read(struct ls_reader *r, struct ls_record *rec)
{
	char where[64];
	int rc;

	for (;;) {
		if ((rc = next_record(r, rec)) <= 0)
			return rc == 0 ? at_end(r) : rc;
		if (r->ended) {
			snprintf(r->err, sizeof(r->err), "%s: a record after the stream's trailer "
				 "(two streams one after the other: join them with tr-cat)",
				 position(r, where, sizeof(where)));
			return LS_ERR_SYNTAX;
		}
		if (rec->kind == LS_K_HEADER && r->recno) {
			snprintf(r->err, sizeof(r->err), "%s: a header that is not the first record (two "
				 "streams one after the other: join them with tr-cat)",
				 position(r, where, sizeof(where)));
			return LS_ERR_SYNTAX;
		}
		if (rec->kind == LS_K_HEADER && (rc = check_header(r, rec)) < 0)
			return rc;
		r->recno++;
		if (rec->kind != LS_K_TRAILER)
			return 1;
		r->ended = true;
	}
}
