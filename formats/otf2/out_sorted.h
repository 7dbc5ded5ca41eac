/*
 * What the writer places on streams (metric values, blame), kept out of
 * memory past a bound: pass 1 adds records of one size in any order to
 * an external sort (xsort.h) by stream first; between the passes they are
 * read back in order, made final by the caller, and kept, each stream's
 * records one range: in memory up to OUT_SORTED_MEM bytes, past it in an
 * unlinked temporary file; pass 2 reads each stream's range in order
 * through a cursor of its own, a block at a time. Memory stays bounded
 * however long the run: the sort's bound, this one, and a block per
 * stream being written.
 */
#ifndef OUT_SORTED_H
#define OUT_SORTED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../libstream/xsort.h"

/* The final records held in memory before they go to a temporary file. */
#define OUT_SORTED_MEM ((size_t)16 << 20)

struct out_sorted {
	size_t size;		/* bytes of a record: the first 8 the sort's, then a uint32_t stream */
	struct ls_xsort sort;
	bool sorting;		/* pass 1: records added */
	char *mem;		/* the final records while they fit in OUT_SORTED_MEM */
	size_t cap;		/* records mem has room for */
	int fd;			/* the final records past it; -1: none */
	char *block;		/* being written to fd */
	uint32_t nblock;
	uint64_t n;		/* written */
	uint64_t *begin;	/* stream s's records: [begin[s], begin[s + 1]) */
	uint32_t nstreams, last;	/* streams; the stream written last */
	int err;		/* errno of what failed with the temporary file */
};

/* A cursor on one stream's records. */
struct out_cursor {
	uint64_t next, end;	/* record indexes in the file */
	char *block;		/* read ahead */
	uint32_t at, n;
};

/*
 * Records of size bytes (at least 16: the sort's 8, then the stream as a
 * uint32_t), ordered by cmp (stream first). Returns 0 or LS_ERR_NOMEM.
 */
int out_sorted_init(struct out_sorted *x, size_t size, int (*cmp)(const void *a, const void *b));

/* Pass 1: add rec (its first 8 bytes overwritten). Returns 0 or a negative error (said by out_sorted_error). */
int out_sorted_add(struct out_sorted *x, void *rec);

/* Between the passes: no more to add; read them back in order. 0 or a negative error. */
int out_sorted_done(struct out_sorted *x);

/* The next record in order (valid until the next call); NULL at the end or on an error. */
const void *out_sorted_next(struct out_sorted *x);

/*
 * Write rec as final, after those of streams before its own (records come
 * in stream order), nstreams streams in all. 0 or a negative error.
 */
int out_sorted_put(struct out_sorted *x, const void *rec, uint32_t nstreams);

/* All final records written. 0 or a negative error. */
int out_sorted_seal(struct out_sorted *x, uint32_t nstreams);

/* Pass 2: c at the start of stream s's records. 0 or LS_ERR_NOMEM. */
int out_cursor_open(const struct out_sorted *x, struct out_cursor *c, uint32_t s);

/* The record at c, or NULL past its stream's last (or on an error: x->err set). */
const void *out_cursor_peek(struct out_sorted *x, struct out_cursor *c);

static inline void out_cursor_skip(struct out_cursor *c)
{
	c->next++;
	c->at++;
}

void out_cursor_close(struct out_cursor *c);

/* What failed, in words, for a message ("" where memory did). */
const char *out_sorted_error(const struct out_sorted *x, char *buf, size_t n);

void out_sorted_release(struct out_sorted *x);

#endif
