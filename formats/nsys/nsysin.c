/*
 * Reading Nsight Systems exports: each file's tables checked (schema.c),
 * its processes, threads, streams and correlation ids found (defs.c), the
 * definitions written, then its rows handed to the front as events
 * (events.c), which puts them in order; the regions they name are
 * written before the front writes the first event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "nsysin.h"
#include "nsysin_private.h"

bool nsysin_sniff(const uint8_t *head, size_t n)
{
	static const char magic[] = "SQLite format 3";

	return n >= sizeof(magic) && !memcmp(head, magic, sizeof(magic));
}

static int open_file(struct nsysin *in, struct nfile *f)
{
	char why[300];

	if (sqlite3_open_v2(f->path, &f->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		snprintf(why, sizeof(why), "cannot open the database: %s", f->db ? sqlite3_errmsg(f->db) : "out of memory");
		return nsys_fail(in, f, why);
	}
	return nsys_schema(in, f);
}

/* Each export's times onto the earliest's clock, by their sessions' start in UTC (0 where one lacks it). */
static void align(struct nsysin *in)
{
	int64_t first = INT64_MAX;

	for (uint32_t i = 0; i < in->nfiles; i++) {
		if (!in->files[i].has[NT_SESSION])
			return;
		if (in->files[i].epoch < first)
			first = in->files[i].epoch;
	}
	for (uint32_t i = 0; i < in->nfiles; i++)
		in->files[i].shift = in->files[i].epoch - first;
}

/* What was odd, once each; the rows read and skipped, by table, for --stats. */
static void report(struct nsysin *in)
{
	ls_front_odd(in->front, in->dup_calls,
		     "runtime calls Nsight recorded twice (as cudaMalloc and cudaMalloc_v3020, one correlation id): read once");
	ls_front_odd(in->front, in->odd_time[NTIME_NULL], "calls or GPU activities without a start or end, left out");
	ls_front_odd(in->front, in->odd_time[NTIME_NOT_INT],
		     "calls or activities whose start or end is not an integer, left out");
	ls_front_odd(in->front, in->odd_time[NTIME_BACKWARDS],
		     "calls or activities that end before they start, left out");
	ls_front_odd(in->front, in->odd_time[NTIME_RANGE],
		     "calls or activities outside the times a stream may hold ([-2^61, 2^61) ns), left out");
	ls_front_odd(in->front, in->unread_rows, "rows of tables tr-read has no reader for (OS runtime calls, "
		     "scheduling, CPU samples, ...: tr-read --stats names them), left out");
	if (in->unread_rows)
		ls_front_note(in->front, "tables not read: %s", in->unread);
	ls_front_odd(in->front, in->corr_not_int,
		     "correlation ids that are not integers: those calls and GPU activities not linked");
	for (int t = 0; t < NT__COUNT; t++)
		ls_front_input(in->front, nsys_table((enum ntable)t), in->read[t], in->skipped[t]);
}

static void release(struct nsysin *in)
{
	for (uint32_t i = 0; i < in->nfiles; i++)
		sqlite3_close(in->files[i].db);
	free(in->files);
	for (uint32_t i = 0; i < in->nprocs; i++)
		free(in->procs[i].name);
	free(in->procs);
	for (uint32_t i = 0; i < in->nstreams; i++)
		free(in->streams[i].name);
	free(in->streams);
	ls_idmap_release(&in->stream_ix);
	ls_idmap_release(&in->name_ix);
	fmt_regions_release(&in->regions);
}

int nsysin_read(const char *const *paths, int n, const struct ls_stage *stage, struct ls_front *front,
		struct ls_writer *w, char *err, size_t len)
{
	struct nsysin in;
	char producer[64];
	int rc = 0;

	memset(&in, 0, sizeof(in));
	in.front = front;
	in.w = w;
	in.err = err;
	in.errlen = len;
	in.label = n > 1;
	err[0] = '\0';
	if (!(in.files = calloc((size_t)n, sizeof(*in.files)))) {
		snprintf(err, len, "out of memory");
		return LS_ERR_NOMEM;
	}
	in.nfiles = (uint32_t)n;
	for (int i = 0; i < n && rc == 0; i++) {
		in.files[i].path = paths[i];
		rc = open_file(&in, &in.files[i]);
	}
	for (uint32_t i = 0; i < in.nfiles && rc == 0; i++)
		rc = nsys_find(&in, i);
	if (rc == 0) {
		align(&in);
		snprintf(producer, sizeof(producer), "tr-read %s", TR_VERSION);
		if ((rc = ls_write_header(w, producer, paths[0], stage)) == 0 && (rc = nsys_write_defs(&in)) == 0)
			rc = nsys_count_rows(&in);
	}
	for (uint32_t i = 0; i < in.nfiles && rc == 0; i++)
		if ((rc = nsys_events(&in, i)) == 0)
			rc = nsys_unread(&in, &in.files[i]);
	if (rc == 0 && (rc = fmt_regions_write(&in.regions, front, w)) == 0 && (rc = ls_front_finish(front)) == 0)
		rc = ls_write_trailer(w);
	if (rc < 0 && !err[0])
		snprintf(err, len, "%s", w->err ? "cannot write the stream" :
					  rc == LS_ERR_NOMEM ? "out of memory" : ls_front_error(front));
	report(&in);
	release(&in);
	return rc;
}
