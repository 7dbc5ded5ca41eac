/*
 * Reading tr-record's logs: open them and read each once (logs.c), find
 * each process's clock correction (clock.c), write the definitions, then
 * the events (events.c), and say what was odd.
 */
#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../defs.h"
#include "trlogin.h"
#include "trlogin_private.h"

#define FN_NAME(id, num, name, cls) [num] = name,
const char *const trlog_fn_name[TRLOG_NFN] = { TRLOG_FUNCTIONS(FN_NAME) };
#undef FN_NAME
#define FN_CLASS(id, num, name, cls) [num] = cls,
const enum trlog_class trlog_fn_class[TRLOG_NFN] = { TRLOG_FUNCTIONS(FN_CLASS) };
#undef FN_CLASS

bool trlogin_sniff(const uint8_t *head, size_t n)
{
	static const char first_key[] = "\xa6" "format" "\xa5" "trlog";

	return n > sizeof(first_key) && (head[0] & 0xf0) == 0x80 &&
	       memcmp(head + 1, first_key, sizeof(first_key) - 1) == 0;
}

bool trlogin_sniff_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool empty = true, logs = false;

	if (!d)
		return false;
	while (!logs && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		empty = false;
		logs = trlog_named(e->d_name);
	}
	closedir(d);
	return logs || empty;
}

static int write_process(struct trlogin *in, const struct log *l)
{
	char name[160];

	if (l->mpi)
		snprintf(name, sizeof(name), "MPI Rank %llu", (unsigned long long)l->rank);
	else
		snprintf(name, sizeof(name), "%s (pid %lld)", l->program, (long long)l->pid);
	return fmt_write_process(in->w, l->process, name, l->mpi ? (int64_t)l->rank : -1);
}

static int by_value(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * The ranks the communicators name (sorted, once each) into *out (*n):
 * their processes must be there, with a log or without. As many as the
 * logs' members at most, so that a damaged log's world size costs nothing.
 * Returns 0 or LS_ERR_NOMEM.
 */
static int named_ranks(const struct trlogin *in, uint32_t **out, uint32_t *n)
{
	size_t total = 0, k = 0;
	uint32_t *v;

	for (uint32_t i = 0; i < in->ncomms; i++)
		total += in->comms[i].n;
	if (!(v = malloc((total ? total : 1) * sizeof(*v))))
		return LS_ERR_NOMEM;
	for (uint32_t i = 0; i < in->ncomms; i++)
		for (uint32_t j = 0; j < in->comms[i].n; j++)
			v[k++] = in->comms[i].members[j];
	qsort(v, total, sizeof(*v), by_value);
	*n = 0;
	for (size_t i = 0; i < total; i++)
		if (i == 0 || v[i] != v[i - 1])
			v[(*n)++] = v[i];
	*out = v;
	return 0;
}

/*
 * Every log's process; for MPI, in rank order with them, a process
 * without streams for each rank a communicator names that has no log, so
 * that the communicators' members all name a process.
 */
static int write_processes(struct trlogin *in)
{
	uint32_t *ranks = NULL, nranks = 0, i = 0, j = 0;
	char name[48];
	int rc = 0;

	if (in->logs[0].mpi && (rc = named_ranks(in, &ranks, &nranks)) < 0)
		return rc;
	while (rc == 0 && (i < in->nlogs || j < nranks)) {
		if (j < nranks && i < in->nlogs && in->logs[i].rank == ranks[j])
			j++;	/* named, and with its log */
		else if (j < nranks && (i == in->nlogs || ranks[j] < in->logs[i].rank)) {
			snprintf(name, sizeof(name), "MPI Rank %u", ranks[j]);
			rc = fmt_write_process(in->w, ranks[j], name, (int64_t)ranks[j]);
			j++;
		} else {
			rc = write_process(in, &in->logs[i++]);
		}
	}
	free(ranks);
	return rc;
}

static int write_streams(struct trlogin *in, struct log *l)
{
	char name[32];
	int rc = 0;

	l->first_stream = in->nstreams;
	for (uint64_t j = 0; j < (l->nthreads ? l->nthreads : 1) && rc == 0; j++) {
		uint32_t id = in->nstreams++;

		if (j == 0)
			snprintf(name, sizeof(name), "Master thread");
		else
			snprintf(name, sizeof(name), "Thread %llu", (unsigned long long)j);
		rc = fmt_write_stream(in->front, in->w,
				      &(struct fmt_stream){ id, l->process, name, false, false, -1, (int64_t)j });
	}
	return rc;
}

static int write_comms(struct trlogin *in)
{
	char name[48];
	int rc = 0;

	for (uint32_t i = 0; i < in->ncomms && rc == 0; i++) {
		const struct comm_def *c = &in->comms[i];

		if (c->key <= 1)
			snprintf(name, sizeof(name), "%s", c->key ? "MPI_COMM_SELF" : "MPI_COMM_WORLD");
		else if (c->fn >= 0)	/* "MPI_Comm_split 2" */
			snprintf(name, sizeof(name), "%s %u", trlog_fn_name[c->fn], i);
		else
			snprintf(name, sizeof(name), "comm %u", i);
		in->comm_members_differ += c->differs;
		ls_build_begin(in->w, 4);
		ls_put_str(in->w, LS_F_K, "comm");
		ls_put_u64(in->w, LS_F_ID, i);
		ls_put_str(in->w, LS_F_NAME, name);
		ls_put_uints(in->w, LS_F_MEMBERS, c->members, c->n);
		rc = ls_build_end(in->w);
	}
	return rc;
}

static int write_definitions(struct trlogin *in, const char *source, const struct ls_stage *stage)
{
	char producer[64];
	int rc;

	snprintf(producer, sizeof(producer), "tr-read %s", TR_VERSION);
	if ((rc = ls_write_header(in->w, producer, source, stage)) < 0)
		return rc;
	rc = write_processes(in);
	for (uint32_t i = 0; i < in->nlogs && rc == 0; i++)
		rc = write_streams(in, &in->logs[i]);
	for (uint32_t i = 0; i < in->nlogs && rc == 0; i++)
		rc = trlog_cuda_streams(in, &in->logs[i]);
	if (rc == 0)
		rc = fmt_regions_write(&in->regions, in->front, in->w);
	return rc < 0 ? rc : write_comms(in);
}

/* What was odd, for tr-read's one report; the clock correction, for --stats. */
static void report(struct trlogin *in)
{
	static const struct {
		size_t at;
		const char *what;
	} odd[] = {
		{ offsetof(struct trlogin, cut), "logs cut inside a record (a process killed, or a full disk): read up to there" },
		{ offsetof(struct trlogin, damaged), "logs damaged (not as docs/trlog.md says): read up to the damage" },
		{ offsetof(struct trlogin, unended), "logs without their end (a process that did not exit normally): its program's activity ends at its last record" },
		{ offsetof(struct trlogin, ranks_missing), "ranks of the run without a log (processes without streams: what they sent and received is unmatched)" },
		{ offsetof(struct trlogin, not_files), "entries named like logs that are no files (folders, pipes), left out" },
		{ offsetof(struct trlogin, newer_records), "records of a newer log format, left out" },
		{ offsetof(struct trlogin, unknown_fns), "calls of functions this tr-read does not know, left out" },
		{ offsetof(struct trlogin, unknown_comms), "messages and collectives on communicators the log does not describe, left out" },
		{ offsetof(struct trlogin, comm_members_differ), "communicators whose members the logs disagree on (the first log's taken)" },
		{ offsetof(struct trlogin, drift_dropped), "clock drifts over 1000 ppm between MPI_Init and MPI_Finalize, taken as measurement errors: the offset at MPI_Init kept" },
	};

	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		ls_front_odd(in->front, *(const uint64_t *)((const char *)in + odd[i].at), odd[i].what);
		if (odd[i].at == offsetof(struct trlogin, unended))
			ls_front_odd_named(in->front, in->signalled,
					   "logs ended by a signal or MPI_Abort (%s%s): read up to it",
					   in->signalled_first, in->signalled > 1 ? " and more" : "");
		if (odd[i].at == offsetof(struct trlogin, unended))
			ls_front_odd_named(in->front, in->early,
					   "logs that end before MPI_Init's record (%s%s: a process that died or was "
					   "killed before its first write-out, or a log damaged there): read as the "
					   "launcher's rank, its MPI calls unknown",
					   in->early_name, in->early > 1 ? " and more" : "");
	}
	if (!(in->nlogs > 1 || in->logs[0].sync[0].have))
		return;
	if (!in->max_offset && !in->max_drift_ppb)
		ls_front_note(in->front,
			      "clocks agree with rank 0's within the error of measuring them (at most %llu ns, half the longest round trip kept): not corrected",
			      (unsigned long long)in->bound);
	else
		ls_front_note(in->front,
			      "clocks corrected to rank 0's: offsets up to %lld ns, drift up to %.3f ppm, error at most %llu ns (half the longest round trip kept)",
			      (long long)in->max_offset, (double)in->max_drift_ppb / 1e3,
			      (unsigned long long)in->bound);
}

int trlogin_read(const char *const *paths, int n, const struct ls_stage *stage, struct ls_front *front,
		 struct ls_writer *w, char *err, size_t len)
{
	struct trlogin in;
	int rc;

	memset(&in, 0, sizeof(in));
	memset(in.copy_region, 0xff, sizeof(in.copy_region));
	in.front = front;
	in.w = w;
	in.err = err;
	in.errlen = len;
	err[0] = '\0';
	if ((rc = trlog_open(&in, paths, n)) == 0) {
		trlog_clocks(&in);
		if ((rc = write_definitions(&in, paths[0], stage)) == 0 && (rc = trlog_events(&in)) == 0 &&
		    (rc = ls_front_finish(front)) == 0)
			rc = ls_write_trailer(w);
		if (rc < 0 && !err[0])
			snprintf(err, len, "%s", w->err ? "cannot write the stream" : ls_front_error(front));
		report(&in);
	}
	trlog_close(&in);
	return rc;
}
