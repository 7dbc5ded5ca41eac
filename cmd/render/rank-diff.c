/* Two ratings compared: what each region gained or lost (rank-diff.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../analysis/rank.h"
#include "../../libstream/error.h"
#include "../../libstream/header.h"
#include "../../libstream/reader.h"
#include "../../libstream/vec.h"
#include "../../libstream/writer.h"
#include "rank-diff.h"
#include "readable.h"
#include "../common/tool.h"

/* The row of region name in d, made where it is not yet. */
static struct diff_row *row_of(struct rank_diff *d, const char *name, uint32_t len)
{
	for (uint32_t i = 0; i < d->n; i++)
		if (strlen(d->v[i].name) == len && memcmp(d->v[i].name, name, len) == 0)
			return &d->v[i];
	if (ls_vec_room(&d->v, &d->cap, d->n, sizeof(*d->v)) < 0)
		return NULL;
	d->v[d->n] = (struct diff_row){ strndup(name, len), { 0, 0 }, { 0, 0 }, { 0, 0 } };
	return d->v[d->n].name ? &d->v[d->n++] : NULL;
}

/* One side: what it was read as, and its rating where it is a stream. */
struct side {
	struct rank_diff *d;
	int i;
	struct ls_reader r;
	struct an_rank *k;	/* rating the stream; NULL: a rating given */
	uint64_t ratings;
	bool failed;		/* said */
};

/* A rating record (tr-rank --json): its region's row; a name that comes twice (two ids) adds up. */
static int take_rating(struct side *x, const struct ls_record *rec)
{
	const char *name;
	uint32_t len;
	uint64_t cp = 0, blame = 0;
	double rating = 0;
	struct diff_row *row;
	char where[64];

	x->ratings++;
	if (ls_get_str(rec, LS_F_NAME, &name, &len) < 0) {
		tool_error("%s: %s: rating without a name", x->r.name,
			   ls_reader_where(&x->r, where, sizeof(where)));
		return 1;
	}
	if (!(row = row_of(x->d, name, len))) {
		tool_error("out of memory");
		return 1;
	}
	ls_get_u64(rec, LS_F_CP, &cp);
	ls_get_u64(rec, LS_F_BLAME, &blame);
	ls_get_f64(rec, LS_F_RATING, &rating);
	row->cp[x->i] += cp;
	row->blame[x->i] += blame;
	row->rating[x->i] += rating;
	return 0;
}

static void take_run(struct side *x, const struct ls_record *rec)
{
	struct diff_run *run = &x->d->run[x->i];

	run->known = ls_get_u64(rec, LS_F_RUNTIME, &run->runtime) == 0;
	ls_get_u64(rec, LS_F_CP, &run->cp);
	ls_get_u64(rec, LS_F_WAITING, &run->waiting);
	ls_get_u64(rec, LS_F_BLAME, &run->blame);
	ls_get_u64(rec, LS_F_IDLE, &run->idle);
	run->setup = ls_get_u64(rec, LS_F_PROCESSES, &run->procs) == 0 &&
		     ls_get_u64(rec, LS_F_HOST_THREADS, &run->hosts) == 0 &&
		     ls_get_u64(rec, LS_F_GPU_STREAMS, &run->gpus) == 0;
}

/* A record of an analysed stream, to its rating: 0, or 1 after a message. */
static int take_stream(struct side *x, const struct ls_record *rec)
{
	struct an_item it = an_item_read(rec);
	const char *why = NULL;
	char where[64];
	int rc;

	if (!x->k && !(x->k = an_rank_new(0))) {
		tool_error("%s: out of memory", x->r.name);
		return 1;
	}
	if ((rc = an_rank_take(x->k, &it, &why)) < 0) {
		if (rc == LS_ERR_NOMEM)
			tool_error("%s: out of memory", x->r.name);
		else
			tool_error("%s: %s: %s", x->r.name, ls_reader_where(&x->r, where, sizeof(where)),
				   why ? why : "a record the rating cannot take");
		return 1;
	}
	return (an_rank_reads() & LS_KIND_BIT(rec->kind)) && tool_check_fields(&x->r, rec);
}

/* The stream rated: its totals and rows. */
static int rated(struct side *x, bool idle)
{
	const struct an_rank_totals *t = an_rank_totals(x->k);
	struct an_rating *v;
	uint32_t n;

	if (an_rank_rate(x->k, idle, &v, &n) < 0) {
		tool_error("%s: out of memory", x->r.name);
		return 1;
	}
	x->d->run[x->i] = (struct diff_run){ t->events ? (uint64_t)(t->end - t->first) : 0, t->cp,
					     t->waiting, t->blame, t->idle_time, true, an_rank_defs(x->k)->nprocs,
					     an_rank_streams(x->k, false), an_rank_streams(x->k, true), true };
	for (uint32_t j = 0; j < n; j++) {
		const struct an_rank_region *r = an_rank_region(x->k, v[j].region);
		struct diff_row *row = row_of(x->d, r->name, (uint32_t)strlen(r->name));

		if (!row) {
			free(v);
			tool_error("out of memory");
			return 1;
		}
		row->cp[x->i] += r->cp;
		row->blame[x->i] += r->blame;
		row->rating[x->i] += v[j].rating;
	}
	free(v);
	return 0;
}

/*
 * Side i of d from path: a rating (its first record after the header a
 * run_summary or rating) or an analysed stream. The exit status.
 */
static int read_side(struct rank_diff *d, const char *path, int i, bool idle)
{
	static const char *const needs[] = { "tr-deps", "tr-waits", "tr-critpath", NULL };
	struct side x = { d, i, { 0 }, NULL, 0, false };
	struct ls_record rec;
	bool rating = false, decided = false;
	int rc = 0, status = 0;

	d->path[i] = path;
	if (ls_reader_open(&x.r, path) < 0) {
		tool_error("%s: %s", path, x.r.err);
		return 1;
	}
	while (!status && (rc = ls_read(&x.r, &rec)) > 0) {
		if (rec.kind == LS_K_HEADER) {
			/* tr-rank --json's output lists tr-rank, tr-analyze --json's tr-analyze; a stream must have been analysed */
			rating = ls_header_has_stage(&rec, "tr-rank") == 1 || ls_header_has_stage(&rec, "tr-analyze") == 1;
			status = !rating && !tool_made_by(&x.r, &rec, needs);
			continue;
		}
		if (rec.kind == LS_K_TRAILER)
			continue;
		if (!decided) {
			decided = true;
			rating = rating || rec.kind == LS_K_RUN_SUMMARY || rec.kind == LS_K_RATING;
		}
		if (!rating)
			status = take_stream(&x, &rec);
		else if (rec.kind == LS_K_RATING)
			status = take_rating(&x, &rec);
		else if (rec.kind == LS_K_RUN_SUMMARY)
			take_run(&x, &rec);
	}
	if (status) {
		/* said */
	} else if (rc < 0) {
		tool_read_error(&x.r);
		status = 1;
	} else if (!rating) {
		status = x.k ? rated(&x, idle) : tool_empty(&x.r);
	} else if (!x.ratings) {
		tool_error("%s: holds no rating records (give an analysed stream or tr-rank --json output)",
			   x.r.name);
		status = 1;
	}
	an_rank_free(x.k);
	ls_reader_release(&x.r);
	return status;
}

/* ns a row's critical-path time and blame changed by, together. */
static double seconds_changed(const struct diff_row *x)
{
	return fabs((double)x->cp[1] - (double)x->cp[0]) + fabs((double)x->blame[1] - (double)x->blame[0]);
}

/* Largest change first: of seconds (path and blame), then of rating, then by name. */
static int by_change(const void *a, const void *b)
{
	const struct diff_row *x = a, *y = b;
	double sx = seconds_changed(x), sy = seconds_changed(y);
	double dx = fabs(x->rating[1] - x->rating[0]), dy = fabs(y->rating[1] - y->rating[0]);

	if (sx != sy)
		return sx > sy ? -1 : 1;
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->name, y->name);
}

bool rank_diff_setups(const struct rank_diff *d, char *buf, size_t n)
{
	const struct diff_run *a = &d->run[0], *b = &d->run[1];

	if (!a->setup || !b->setup || (a->procs == b->procs && a->hosts == b->hosts && a->gpus == b->gpus))
		return false;
	snprintf(buf, n, "the runs were set up differently: A %" PRIu64 " process%s, %" PRIu64 " host thread%s, %"
		 PRIu64 " GPU stream%s; B %" PRIu64 ", %" PRIu64 ", %" PRIu64 ": a region's change may be the set-up's",
		 a->procs, a->procs == 1 ? "" : "es", a->hosts, a->hosts == 1 ? "" : "s", a->gpus, a->gpus == 1 ? "" : "s",
		 b->procs, b->hosts, b->gpus);
	return true;
}

/* "A s -> B s (change %)" of one figure of the runs. */
static void run_figure(const char *what, uint64_t a, uint64_t b)
{
	printf("%s %.9f s -> %.9f s (%+.2f %%)", what, (double)a / 1e9, (double)b / 1e9,
	       a ? 100.0 * ((double)b - (double)a) / (double)a : 0.0);
}

static double sdiff(uint64_t a, uint64_t b)
{
	return ((double)b - (double)a) / 1e9;
}

int rank_diff_read(struct rank_diff *d, const char *a, const char *b, bool idle)
{
	if (read_side(d, a, 0, idle) || read_side(d, b, 1, idle))
		return 1;
	if (d->n)
		qsort(d->v, d->n, sizeof(*d->v), by_change);
	return 0;
}

void rank_diff_release(struct rank_diff *d)
{
	for (uint32_t i = 0; i < d->n; i++)
		free(d->v[i].name);
	free(d->v);
	memset(d, 0, sizeof(*d));
}

#define DIFF_NAME_COLUMN 32

/* The names of d's first n rows (borrowed), or NULL out of memory. */
static const char **row_names(const struct rank_diff *d, uint32_t n)
{
	const char **names = malloc((n ? n : 1) * sizeof(*names));

	for (uint32_t i = 0; names && i < n; i++)
		names[i] = d->v[i].name;
	return names;
}

int rank_diff(const char *a, const char *b, enum rank_form form, uint32_t top)
{
	struct rank_diff d = { 0 };
	struct ls_writer w;
	uint32_t n = 0;
	const char **names = NULL;
	char **shown = NULL, setups[256];
	int status = rank_diff_read(&d, a, b, false);

	if (status)
		goto out;
	n = top && d.n > top ? top : d.n;
	/* the text's names as people read them, in their column (readable.h) */
	if (form == RANK_TEXT && (!(names = row_names(&d, n)) ||
				  readable_names(names, n, DIFF_NAME_COLUMN, &shown) < 0)) {
		tool_error("out of memory");
		status = 1;
		goto out;
	}
	ls_writer_init(&w, STDOUT_FILENO, LS_FMT_JSON);
	if (form == RANK_TEXT && rank_diff_setups(&d, setups, sizeof(setups)))	/* first, where they differ */
		printf("%s.\n", setups);
	if (form == RANK_TEXT && d.run[0].known && d.run[1].known) {	/* the runs first */
		run_figure("run", d.run[0].runtime, d.run[1].runtime);
		run_figure(", critical path", d.run[0].cp, d.run[1].cp);
		run_figure(", waiting", d.run[0].waiting, d.run[1].waiting);
		putchar('\n');
	}
	if (form == RANK_TEXT)
		printf("%-*s %14s %14s %14s %14s %9s\n", DIFF_NAME_COLUMN, "region", "cp A [s]", "cp B-A [s]",
		       "blame A [s]", "blame B-A [s]", "rating B-A");
	else if (form == RANK_CSV)
		printf("name,cp_a_ns,cp_b_ns,blame_a_ns,blame_b_ns,rating_a,rating_b\n");
	else if (ls_write_header(&w, "tr-rank " TR_VERSION, NULL, tool_stage()) < 0)
		status = 1;
	for (uint32_t i = 0; i < n; i++) {
		const struct diff_row *x = &d.v[i];

		if (form == RANK_TEXT) {
			readable_print(shown[i], DIFF_NAME_COLUMN);
			printf(" %14.9f %+14.9f %14.9f %+14.9f %+9.4f\n",
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
	readable_free(shown, shown ? n : 0);
	free(names);
	rank_diff_release(&d);
	return status;
}
