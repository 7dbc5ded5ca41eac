/*
 * An external sort of fixed-size records: add them in any order, then read
 * them back in order. Past the memory given, what is held is sorted into a
 * run in an unlinked temporary file (tmpfile.h); the runs are merged as
 * they are read; what is held grows by doubling up to the bound, so a
 * small sort takes little. Memory stays bounded whatever the number of
 * records, and so do open files: LS_XSORT_FAN_IN runs are merged into one
 * before one more is made. Nothing is left behind on any exit. Equal
 * records come back in the order they were added.
 */
#ifndef LS_XSORT_H
#define LS_XSORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Runs open at once: past it they are merged into one. */
#define LS_XSORT_FAN_IN 64

struct ls_xsort_run {
	FILE *file;
	uint64_t left;			/* records not yet read from the file */
	char *block;			/* merging: records read a block at a time */
	uint32_t at, n;			/* its current record (the run's head), how many */
};

struct ls_xsort {
	size_t size;			/* bytes of a record, the first 8 a sequence number the sort keeps */
	int (*cmp)(const void *a, const void *b);
	char *buf;			/* held records */
	size_t n, cap, max, at;		/* held, room, the bound; next held record to read when there is no run */
	uint64_t seq;
	struct ls_xsort_run *runs;
	uint32_t nruns, runs_cap;
	uint32_t *heap;			/* runs by their current record, least first */
	uint32_t nheap;
	char *out;			/* the record last read */
	uint64_t spilled, merges;	/* runs made; times LS_XSORT_FAN_IN runs were merged into one */
	int err;			/* an errno once something failed */
	/* what failed, in words: "make", "write" or "read" a temporary file; NULL: memory */
	const char *failed;
};

/*
 * Records of size bytes (at least 8: the first 8 are the sort's own,
 * keeping equal records in the order they came), ordered by cmp (which
 * must not look at those 8), up to mem bytes held in memory (0: 16 MiB).
 * Returns 0 or LS_ERR_NOMEM.
 */
int ls_xsort_init(struct ls_xsort *x, size_t size, int (*cmp)(const void *a, const void *b), size_t mem);

/* Add the record rec (its first 8 bytes are overwritten). Returns 0, or a negative error (x->err). */
int ls_xsort_add(struct ls_xsort *x, void *rec);

/*
 * Take recs (n records of room cap, malloc'd: the sort's to free) as the
 * records held: before any is added. The first 8 bytes of each are
 * overwritten.
 */
void ls_xsort_adopt(struct ls_xsort *x, void *recs, size_t n, size_t cap);

/* No more records: from now on, read them. Returns 0, or a negative error (x->err). */
int ls_xsort_done(struct ls_xsort *x);

/* The next record in order, valid until the next call; NULL at the end or on an error (x->err set). */
const void *ls_xsort_next(struct ls_xsort *x);

void ls_xsort_release(struct ls_xsort *x);

#endif
