/* An external sort of fixed-size records (xsort.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "vec.h"
#include "tmpfile.h"
#include "xsort.h"

int ls_xsort_init(struct ls_xsort *x, size_t size, int (*cmp)(const void *a, const void *b), size_t mem)
{
	memset(x, 0, sizeof(*x));
	x->size = size;
	x->cmp = cmp;
	x->max = (mem ? mem : (size_t)16 << 20) / size;
	if (x->max < 16)
		x->max = 16;
	x->cap = x->max < 1024 ? x->max : 1024;
	if (!(x->buf = malloc(x->cap * size)) || !(x->out = malloc(size))) {
		free(x->buf);
		return LS_ERR_NOMEM;
	}
	return 0;
}

static uint64_t seq_of(const void *rec)
{
	uint64_t s;

	memcpy(&s, rec, sizeof(s));
	return s;
}

/* The record order: cmp's, then as they came. */
static int before(const struct ls_xsort *x, const void *a, const void *b)
{
	int c = x->cmp(a, b);

	if (c)
		return c;
	return (seq_of(a) > seq_of(b)) - (seq_of(a) < seq_of(b));
}

static int by_order(const void *a, const void *b, void *x)
{
	return before(x, a, b);
}

/* What failed (what: "make", "write" or "read" a temporary file; NULL: memory), with errno e. */
static int fail(struct ls_xsort *x, int e, const char *what)
{
	if (!x->err) {
		x->err = e ? e : EIO;
		x->failed = what;
	}
	return LS_ERR_IO;
}

/* An empty run in an unlinked temporary file, gone with the process however it ends. */
static int open_run(struct ls_xsort *x, struct ls_xsort_run *r)
{
	int fd;

	if ((fd = ls_tmp_fd("sort")) < 0)
		return fail(x, errno, "make");
	if (!(r->file = fdopen(fd, "w+b"))) {
		close(fd);
		return fail(x, ENOMEM, NULL);
	}
	r->left = 0;
	r->block = NULL;
	r->at = r->n = 0;
	return 0;
}

static void close_run(struct ls_xsort_run *r)
{
	fclose(r->file);
	free(r->block);
}

/* Bytes of records a run reads back at a time. */
#define BLOCK (64 * 1024)

static char *head(struct ls_xsort *x, uint32_t run)
{
	const struct ls_xsort_run *r = &x->runs[run];

	return r->block + (size_t)r->at * x->size;
}

/* Make run's next record its head, reading a block where it needs: 1, 0 at its end, or an error. */
static int load(struct ls_xsort *x, uint32_t run)
{
	struct ls_xsort_run *r = &x->runs[run];
	size_t per = BLOCK / x->size ? BLOCK / x->size : 1, k;

	if (r->n && ++r->at < r->n)
		return 1;
	if (!r->left)
		return 0;
	if (!r->block && !(r->block = malloc(per * x->size)))
		return fail(x, ENOMEM, NULL);
	k = r->left < per ? (size_t)r->left : per;
	if (fread(r->block, x->size, k, r->file) != k)
		return fail(x, ferror(r->file) ? errno : EIO, "read");
	r->left -= k;
	r->at = 0;
	r->n = (uint32_t)k;
	return 1;
}

static void sift_down(struct ls_xsort *x, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i, t;

		if (l < x->nheap && before(x, head(x, x->heap[l]), head(x, x->heap[m])) < 0)
			m = l;
		if (r < x->nheap && before(x, head(x, x->heap[r]), head(x, x->heap[m])) < 0)
			m = r;
		if (m == i)
			return;
		t = x->heap[i];
		x->heap[i] = x->heap[m];
		x->heap[m] = t;
		i = m;
	}
}

/* Merge the runs from their starts: each one's first record its head, the heap of them built. */
static int merge_start(struct ls_xsort *x)
{
	int rc;

	if (!(x->heap = malloc(x->nruns * sizeof(*x->heap))))
		return fail(x, ENOMEM, NULL);
	x->nheap = 0;
	for (uint32_t i = 0; i < x->nruns; i++) {
		if (fseek(x->runs[i].file, 0, SEEK_SET) != 0)
			return fail(x, errno, "read");
		x->runs[i].at = x->runs[i].n = 0;
		if ((rc = load(x, i)) < 0)
			return rc;
		if (rc)
			x->heap[x->nheap++] = i;
	}
	for (uint32_t i = x->nheap / 2; i-- > 0;)
		sift_down(x, i);
	return 0;
}

/* The merge's next record (in x->out), NULL at its end or on an error. */
static const void *merge_next(struct ls_xsort *x)
{
	uint32_t run;
	int rc;

	if (x->err || !x->nheap)
		return NULL;
	run = x->heap[0];
	memcpy(x->out, head(x, run), x->size);
	if ((rc = load(x, run)) < 0)
		return NULL;
	if (!rc)
		x->heap[0] = x->heap[--x->nheap];
	sift_down(x, 0);
	return x->out;
}

static void merge_end(struct ls_xsort *x)
{
	free(x->heap);
	x->heap = NULL;
	x->nheap = 0;
}

/* LS_XSORT_FAN_IN runs are open: merge them into one, so that files stay few. */
static int merge_runs(struct ls_xsort *x)
{
	struct ls_xsort_run one;
	const void *rec;

	if (open_run(x, &one) < 0)
		return LS_ERR_IO;
	if (merge_start(x) == 0)
		while ((rec = merge_next(x)) && fwrite(rec, x->size, 1, one.file) == 1)
			one.left++;
	merge_end(x);
	if (!x->err && (ferror(one.file) || fflush(one.file) != 0))
		fail(x, errno, "write");
	if (x->err) {
		close_run(&one);
		return LS_ERR_IO;
	}
	for (uint32_t i = 0; i < x->nruns; i++)
		close_run(&x->runs[i]);
	x->runs[0] = one;
	x->nruns = 1;
	x->merges++;
	return 0;
}

/* What is held, sorted into a run on disk. */
static int spill(struct ls_xsort *x)
{
	struct ls_xsort_run r;

	qsort_r(x->buf, x->n, x->size, by_order, x);
	if (x->nruns == LS_XSORT_FAN_IN && merge_runs(x) < 0)
		return LS_ERR_IO;
	if (ls_vec_room(&x->runs, &x->runs_cap, x->nruns, sizeof(*x->runs)) < 0)
		return fail(x, ENOMEM, NULL);
	if (open_run(x, &r) < 0)
		return LS_ERR_IO;
	x->runs[x->nruns++] = r;
	x->spilled++;
	if (fwrite(x->buf, x->size, x->n, r.file) != x->n || fflush(r.file) != 0)
		return fail(x, errno, "write");
	x->runs[x->nruns - 1].left = x->n;
	x->n = 0;
	return 0;
}

int ls_xsort_add(struct ls_xsort *x, void *rec)
{
	if (x->err)
		return LS_ERR_IO;
	if (x->n == x->cap && x->cap < x->max) {	/* room for more, up to the bound */
		size_t cap = 2 * x->cap < x->max ? 2 * x->cap : x->max;
		char *grown = realloc(x->buf, cap * x->size);

		if (!grown)
			return fail(x, ENOMEM, NULL);
		x->buf = grown;
		x->cap = cap;
	}
	if (x->n == x->max && spill(x) < 0)
		return LS_ERR_IO;
	memcpy(rec, &x->seq, sizeof(x->seq));
	x->seq++;
	memcpy(x->buf + x->n++ * x->size, rec, x->size);
	return 0;
}

void ls_xsort_adopt(struct ls_xsort *x, void *recs, size_t n, size_t cap)
{
	free(x->buf);
	x->buf = recs;
	x->cap = cap;
	for (x->n = 0; x->n < n; x->n++, x->seq++)
		memcpy(x->buf + x->n * x->size, &x->seq, sizeof(x->seq));
}

int ls_xsort_done(struct ls_xsort *x)
{
	if (x->err)
		return LS_ERR_IO;
	if (!x->nruns) {	/* all in memory */
		qsort_r(x->buf, x->n, x->size, by_order, x);
		return 0;
	}
	if (x->n && spill(x) < 0)
		return LS_ERR_IO;
	/* what was held is on disk: the runs' blocks take its place */
	free(x->buf);
	x->buf = NULL;
	x->n = x->cap = 0;
	return merge_start(x);
}

const void *ls_xsort_next(struct ls_xsort *x)
{
	if (x->err)
		return NULL;
	if (!x->nruns)
		return x->at < x->n ? x->buf + x->at++ * x->size : NULL;
	return merge_next(x);
}

void ls_xsort_release(struct ls_xsort *x)
{
	for (uint32_t i = 0; i < x->nruns; i++)
		close_run(&x->runs[i]);
	free(x->runs);
	merge_end(x);
	free(x->buf);
	free(x->out);
	memset(x, 0, sizeof(*x));
}
