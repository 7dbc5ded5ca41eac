/* Placed records kept out of memory (out_sorted.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../libstream/error.h"
#include "../../libstream/fd.h"
#include "../../libstream/tmpfile.h"
#include "out_sorted.h"

/* Records written, or read ahead by a cursor, at a time. */
#define BLOCK 256

static uint32_t stream_of(const void *rec)
{
	uint32_t s;

	memcpy(&s, (const char *)rec + 8, sizeof(s));
	return s;
}

int out_sorted_init(struct out_sorted *x, size_t size, int (*cmp)(const void *a, const void *b))
{
	memset(x, 0, sizeof(*x));
	x->size = size;
	x->fd = -1;
	if (ls_xsort_init(&x->sort, size, cmp, 0) < 0)
		return LS_ERR_NOMEM;
	x->sorting = true;
	return 0;
}

/* The sort's failure as the writer's: memory, or the temporary file (errno kept). */
static int sort_failed(struct out_sorted *x)
{
	if (!x->sort.failed)
		return LS_ERR_NOMEM;
	x->err = x->sort.err ? x->sort.err : EIO;
	return LS_ERR_IO;
}

int out_sorted_add(struct out_sorted *x, void *rec)
{
	return ls_xsort_add(&x->sort, rec) < 0 ? sort_failed(x) : 0;
}

int out_sorted_done(struct out_sorted *x)
{
	return ls_xsort_done(&x->sort) < 0 ? sort_failed(x) : 0;
}

const void *out_sorted_next(struct out_sorted *x)
{
	const void *r = ls_xsort_next(&x->sort);

	if (!r && x->sort.err)
		sort_failed(x);
	return r;
}

/* len bytes at p written to the file: 0, or LS_ERR_IO with x->err set. */
static int write_all(struct out_sorted *x, const char *p, size_t len)
{
	if (ls_write_all(x->fd, p, len) < 0) {
		x->err = errno;
		return LS_ERR_IO;
	}
	return 0;
}

/* The block written to the file. */
static int flush(struct out_sorted *x)
{
	int rc = write_all(x, x->block, (size_t)x->nblock * x->size);

	x->nblock = 0;
	return rc;
}

/* The streams up to s begin here (those without records are empty ranges). */
static void begin_up_to(struct out_sorted *x, uint32_t s)
{
	while (x->last < s)
		x->begin[++x->last] = x->n;
}

/* The records held in memory go to a temporary file, and those after them: 0 or a negative error. */
static int to_file(struct out_sorted *x)
{
	int rc;

	if ((x->fd = ls_tmp_fd("placed")) < 0) {
		x->err = errno;
		return LS_ERR_IO;
	}
	if (!(x->block = malloc(BLOCK * x->size)))
		return LS_ERR_NOMEM;
	if ((rc = write_all(x, x->mem, (size_t)x->n * x->size)) < 0)
		return rc;
	free(x->mem);
	x->mem = NULL;
	return 0;
}

/* Room for one more record in memory: 0, 1 where they go to the file from now on, or a negative error. */
static int room(struct out_sorted *x)
{
	size_t cap;
	char *grown;

	if (x->n < x->cap)
		return 0;
	if ((x->n + 1) * x->size > OUT_SORTED_MEM) {
		int rc = to_file(x);

		return rc < 0 ? rc : 1;
	}
	cap = x->cap ? 2 * x->cap : 1024;
	if (cap * x->size > OUT_SORTED_MEM)
		cap = OUT_SORTED_MEM / x->size;
	if (!(grown = realloc(x->mem, cap * x->size)))
		return LS_ERR_NOMEM;
	x->mem = grown;
	x->cap = cap;
	return 0;
}

int out_sorted_put(struct out_sorted *x, const void *rec, uint32_t nstreams)
{
	uint32_t s = stream_of(rec);
	int rc;

	if (!x->begin) {
		if (!(x->begin = calloc((size_t)nstreams + 1, sizeof(*x->begin))))
			return LS_ERR_NOMEM;
		x->nstreams = nstreams;
	}
	begin_up_to(x, s);
	if (x->fd < 0 && (rc = room(x)) < 0)
		return rc;
	if (x->fd < 0) {
		memcpy(x->mem + (size_t)x->n * x->size, rec, x->size);
		x->n++;
		return 0;
	}
	memcpy(x->block + (size_t)x->nblock * x->size, rec, x->size);
	x->n++;
	return ++x->nblock == BLOCK ? flush(x) : 0;
}

int out_sorted_seal(struct out_sorted *x, uint32_t nstreams)
{
	int rc;

	ls_xsort_release(&x->sort);
	x->sorting = false;
	if (!x->begin && !(x->begin = calloc((size_t)nstreams + 1, sizeof(*x->begin))))
		return LS_ERR_NOMEM;	/* nothing put: every range empty */
	x->nstreams = nstreams;
	begin_up_to(x, nstreams);
	rc = x->fd >= 0 ? flush(x) : 0;
	free(x->block);
	x->block = NULL;
	return rc;
}

int out_cursor_open(const struct out_sorted *x, struct out_cursor *c, uint32_t s)
{
	*c = (struct out_cursor){ x->begin[s], x->begin[s + 1], NULL, 0, 0 };
	if (x->fd >= 0 && c->next < c->end && !(c->block = malloc(BLOCK * x->size)))
		return LS_ERR_NOMEM;
	return 0;
}

const void *out_cursor_peek(struct out_sorted *x, struct out_cursor *c)
{
	if (c->next >= c->end)
		return NULL;
	if (x->fd < 0)		/* all in memory */
		return x->mem + (size_t)c->next * x->size;
	if (c->at == c->n) {	/* the next block of the range */
		uint64_t left = c->end - c->next;
		size_t len = (left < BLOCK ? (size_t)left : BLOCK) * x->size, done = 0;

		while (done < len) {
			ssize_t r = pread(x->fd, c->block + done, len - done,
					  (off_t)(c->next * x->size + done));

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				x->err = r < 0 ? errno : EIO;
				return NULL;
			}
			done += (size_t)r;
		}
		c->at = 0;
		c->n = (uint32_t)(len / x->size);
	}
	return c->block + (size_t)c->at * x->size;
}

void out_cursor_close(struct out_cursor *c)
{
	free(c->block);
	c->block = NULL;
	c->at = c->n = 0;
}

const char *out_sorted_error(const struct out_sorted *x, char *buf, size_t n)
{
	if (!x->err)
		return "";
	snprintf(buf, n, "a temporary file in %s: %s", ls_tmp_named(), strerror(x->err));
	return buf;
}

void out_sorted_release(struct out_sorted *x)
{
	if (x->sorting)
		ls_xsort_release(&x->sort);
	if (x->fd >= 0)
		close(x->fd);
	free(x->mem);
	free(x->block);
	free(x->begin);
	memset(x, 0, sizeof(*x));
	x->fd = -1;
}
