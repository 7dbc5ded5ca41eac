/* tr-rank --diff: what each region gained or lost between two ratings. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../libstream/reader.h"
#include "../../libstream/vec.h"
#include "../../libstream/writer.h"
#include "rank-diff.h"
#include "../common/tool.h"

struct row {
	char *name;
	uint64_t cp[2], blame[2];
	double rating[2];
};

struct rows {
	struct row *v;
	uint32_t n, cap;
};

static struct row *row_of(struct rows *t, const char *name, uint32_t len)
{
	for (uint32_t i = 0; i < t->n; i++)
		if (strlen(t->v[i].name) == len && memcmp(t->v[i].name, name, len) == 0)
			return &t->v[i];
	if (ls_vec_room(&t->v, &t->cap, t->n, sizeof(*t->v)) < 0)
		return NULL;
	t->v[t->n] = (struct row){ strndup(name, len), { 0, 0 }, { 0, 0 }, { 0, 0 } };
	return t->v[t->n].name ? &t->v[t->n++] : NULL;
}

/* Take the rating records of a tr-rank --json output as side `side`. */
static int read_side(const char *path, struct rows *t, int side)
{
	struct ls_reader r;
	struct ls_record rec;
	const char *name;
	uint32_t len;
	uint64_t ratings = 0;
	int rc;

	if (ls_reader_open(&r, path) < 0) {
		tool_error("%s: %s", path, r.err);
		return 1;
	}
	while ((rc = ls_read(&r, &rec)) > 0) {
		uint64_t cp = 0, blame = 0;
		double rating = 0;
		struct row *x;

		if (rec.kind != LS_K_RATING)
			continue;
		ratings++;
		if (ls_get_str(&rec, LS_F_NAME, &name, &len) < 0) {
			char where[64];

			tool_error("%s: %s: rating without a name", r.name,
				   ls_reader_where(&r, where, sizeof(where)));
			ls_reader_release(&r);
			return 1;
		}
		if (!(x = row_of(t, name, len))) {
			tool_error("out of memory");
			ls_reader_release(&r);
			return 1;
		}
		/* a region name that comes twice (two ids) adds up */
		ls_get_u64(&rec, LS_F_CP, &cp);
		ls_get_u64(&rec, LS_F_BLAME, &blame);
		ls_get_f64(&rec, LS_F_RATING, &rating);
		x->cp[side] += cp;
		x->blame[side] += blame;
		x->rating[side] += rating;
	}
	if (rc < 0)
		tool_read_error(&r);
	else if (!ratings)
		tool_error("%s: holds no rating records (give tr-rank --json output)", r.name);
	ls_reader_release(&r);
	return rc < 0 || !ratings;
}

static int by_change(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	double dx = fabs(x->rating[1] - x->rating[0]), dy = fabs(y->rating[1] - y->rating[0]);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->name, y->name);
}

static double sdiff(uint64_t a, uint64_t b)
{
	return ((double)b - (double)a) / 1e9;
}

int rank_diff(const char *a, const char *b, enum rank_form form, uint32_t top)
{
	struct rows t = { NULL, 0, 0 };
	struct ls_writer w;
	uint32_t n;
	int status = read_side(a, &t, 0) || read_side(b, &t, 1);

	if (status)
		goto out;
	qsort(t.v, t.n, sizeof(*t.v), by_change);	/* each side has a rating: t.v is not NULL */
	n = top && t.n > top ? top : t.n;
	ls_writer_init(&w, STDOUT_FILENO, LS_FMT_JSON);
	if (form == RANK_TEXT)
		printf("%-32s %14s %14s %14s %14s %9s\n", "region", "cp A [s]", "cp B-A [s]",
		       "blame A [s]", "blame B-A [s]", "rating B-A");
	else if (form == RANK_CSV)
		printf("name,cp_a_ns,cp_b_ns,blame_a_ns,blame_b_ns,rating_a,rating_b\n");
	else if (ls_write_header(&w, "tr-rank " TR_VERSION, NULL, tool_stage()) < 0)
		status = 1;
	for (uint32_t i = 0; i < n; i++) {
		const struct row *x = &t.v[i];

		if (form == RANK_TEXT) {
			printf("%-32s %14.9f %+14.9f %14.9f %+14.9f %+9.4f\n", x->name,
			       tool_secs(x->cp[0]), sdiff(x->cp[0], x->cp[1]), tool_secs(x->blame[0]),
			       sdiff(x->blame[0], x->blame[1]), x->rating[1] - x->rating[0]);
		} else if (form == RANK_CSV) {
			tool_csv_str(x->name);
			printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.6f,%.6f\n",
			       x->cp[0], x->cp[1], x->blame[0], x->blame[1], x->rating[0],
			       x->rating[1]);
		} else {
			ls_build_begin(&w, 8);
			ls_put_kind(&w, LS_K_RATING_DIFF);
			ls_put_str(&w, LS_F_NAME, x->name);
			ls_put_u64(&w, LS_F_CP_A, x->cp[0]);
			ls_put_u64(&w, LS_F_CP_B, x->cp[1]);
			ls_put_u64(&w, LS_F_BLAME_A, x->blame[0]);
			ls_put_u64(&w, LS_F_BLAME_B, x->blame[1]);
			ls_put_f64(&w, LS_F_RATING_A, x->rating[0]);
			ls_put_f64(&w, LS_F_RATING_B, x->rating[1]);
			if (ls_build_end(&w) < 0) {	/* tool_finish says why */
				status = 1;
				break;
			}
		}
	}
	if (form == RANK_JSON && !status && ls_write_trailer(&w) < 0)
		status = 1;
	status |= tool_finish(&w);
out:
	for (uint32_t i = 0; i < t.n; i++)
		free(t.v[i].name);
	free(t.v);
	return status;
}
