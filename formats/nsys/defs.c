/*
 * What an Nsight export defines, asked of its tables: the processes (by
 * globalPid; a process whose thread Nsight's MPI trace names "MPI Rank N"
 * is that rank), their threads (by globalTid), their GPU streams (device
 * and stream of a process: those of kernels, copies and sets, and those
 * synchronizations and event records name), the null streams.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "../defs.h"
#include "nsysin_private.h"

static int64_t col(sqlite3_stmt *st, int i)
{
	return sqlite3_column_int64(st, i);
}

/* --- processes and streams --- */

uint32_t nsys_process(struct nsysin *in, uint32_t file, int64_t key)
{
	for (uint32_t i = 0; i < in->nprocs; i++)
		if (in->procs[i].file == file && in->procs[i].key == key)
			return i;
	if (ls_vec_room(&in->procs, &in->procs_cap, in->nprocs, sizeof(*in->procs)) < 0)
		return UINT32_MAX;
	in->procs[in->nprocs] = (struct nprocess){ file, key, -1, NULL };
	return in->nprocs++;
}

static uint64_t stream_hash(uint32_t file, int64_t key, int64_t device, int64_t stream)
{
	uint64_t h = file;

	h = (h ^ (uint64_t)key) * UINT64_C(0x9e3779b97f4a7c15);
	h = (h ^ (uint64_t)device) * UINT64_C(0x9e3779b97f4a7c15);
	return (h ^ (uint64_t)stream) * UINT64_C(0x9e3779b97f4a7c15);
}

static bool is_stream(const struct nstream *s, uint32_t file, int64_t key, int64_t device, int64_t stream)
{
	return s->file == file && s->key == key && s->device == device && s->stream == stream;
}

/* The stream (key, device, stream) of file: a thread where device is -1. UINT32_MAX: none. */
uint32_t nsys_stream(struct nsysin *in, uint32_t file, int64_t key, int64_t device, int64_t stream)
{
	uint32_t i;

	if (ls_idmap_get(&in->stream_ix, stream_hash(file, key, device, stream), &i)) {
		if (is_stream(&in->streams[i], file, key, device, stream))
			return i;
		for (i = 0; i < in->nstreams; i++)	/* two streams of one hash */
			if (is_stream(&in->streams[i], file, key, device, stream))
				return i;
	}
	return UINT32_MAX;
}

static int add_stream(struct nsysin *in, uint32_t file, int64_t key, int64_t device, int64_t stream)
{
	uint64_t h = stream_hash(file, key, device, stream);
	uint32_t p = nsys_process(in, file, device < 0 ? key >> 24 : key), i;
	int rc;

	if (p == UINT32_MAX)
		return LS_ERR_NOMEM;
	if (nsys_stream(in, file, key, device, stream) != UINT32_MAX)
		return 0;
	if ((rc = ls_vec_room(&in->streams, &in->streams_cap, in->nstreams, sizeof(*in->streams))) < 0 ||
	    (!ls_idmap_get(&in->stream_ix, h, &i) && (rc = ls_idmap_put(&in->stream_ix, h, in->nstreams)) < 0))
		return rc;
	in->streams[in->nstreams++] = (struct nstream){ file, p, key, device, stream, false, NULL };
	return 0;
}

static uint32_t file_of(const struct nsysin *in, const struct nfile *f)
{
	return (uint32_t)(f - in->files);
}

static int thread_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	return add_stream(in, file_of(in, f), col(st, 0), -1, -1);
}

static int gpu_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	return add_stream(in, file_of(in, f), col(st, 0) >> 24, col(st, 1), col(st, 2));
}

/* TARGET_INFO_CUDA_NULL_STREAM: (streamId, processId: the pid, deviceId). */
static int null_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	for (uint32_t i = 0; i < in->nstreams; i++) {
		struct nstream *s = &in->streams[i];

		if (s->file == file_of(in, f) && s->device == col(st, 2) && s->stream == col(st, 0) &&
		    (in->procs[s->process].key & 0xffffff) == col(st, 1))
			s->null = true;
	}
	return 0;
}

/* ThreadNames: a thread's name; "MPI Rank N" (Nsight's MPI trace) makes its process rank N. */
static int name_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	uint32_t s = nsys_stream(in, file_of(in, f), col(st, 0), -1, -1);
	const char *name = (const char *)sqlite3_column_text(st, 1);
	long long rank;
	char tail;

	if (s == UINT32_MAX || !name || in->streams[s].name)
		return 0;
	if (!(in->streams[s].name = strdup(name)))
		return LS_ERR_NOMEM;
	if (sscanf(name, "MPI Rank %lld%c", &rank, &tail) == 1 && rank >= 0)
		in->procs[in->streams[s].process].rank = rank;
	return 0;
}

static int process_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	const char *name = (const char *)sqlite3_column_text(st, 2);

	for (uint32_t i = 0; i < in->nprocs; i++) {
		struct nprocess *p = &in->procs[i];
		char buf[256];

		if (p->file != file_of(in, f) || p->key != col(st, 0) >> 24 || p->name || !name)
			continue;
		snprintf(buf, sizeof(buf), "%s (pid %lld)", name, (long long)col(st, 1));
		if (!(p->name = strdup(buf)))
			return LS_ERR_NOMEM;
	}
	return 0;
}

/* --- the records of synchronizations and CUDA events, counted for --stats --- */

static int sync_count_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	(void)f;
	in->read[NT_SYNC] += (uint64_t)col(st, 0);
	return 0;
}

static int event_count_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	(void)f;
	in->read[NT_CUDA_EVENT] += (uint64_t)col(st, 0);
	return 0;
}

/* --- the lot --- */

static int epoch_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	(void)in;
	f->epoch = col(st, 0);
	return 0;
}

static int domain_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	(void)in;
	f->mpi_domain = col(st, 0);
	return 0;
}

static int launches_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	char why[200];

	if (col(st, 0) == 0)
		return 0;
	snprintf(why, sizeof(why), "%lld calls launch kernels, and the export has no table %s",
		 (long long)col(st, 0), nsys_table(NT_KERNEL));
	return nsys_fail(in, f, why);
}

int nsys_find(struct nsysin *in, uint32_t file)
{
	struct nfile *f = &in->files[file];
	char sql[1200];
	int rc = 0;

	f->mpi_domain = -1;
	if (f->has[NT_SESSION])
		rc = nsys_each(in, f, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1", epoch_row);
	if (rc == 0 && f->has[NT_NVTX])
		rc = nsys_each(in, f, "SELECT domainId FROM NVTX_EVENTS WHERE eventType = 75 AND text = 'MPI' LIMIT 1",
			       domain_row);
	if (rc == 0 && f->has[NT_RUNTIME] && !f->has[NT_KERNEL])
		rc = nsys_each(in, f, "SELECT count(DISTINCT r.correlationId) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
				      "WHERE s.value LIKE 'cudaLaunchKernel%' OR s.value LIKE 'cuLaunchKernel%'", launches_row);
	/* threads, in the order of their ids */
	snprintf(sql, sizeof(sql), "%s%s%s ORDER BY 1",
		 f->has[NT_RUNTIME] ? "SELECT DISTINCT globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME" : "",
		 f->has[NT_RUNTIME] && f->has[NT_NVTX] ? " UNION " : "",
		 f->has[NT_NVTX] ? "SELECT DISTINCT globalTid FROM NVTX_EVENTS WHERE eventType IN (59, 60) "
				   "AND end IS NOT NULL AND globalTid IS NOT NULL" : "");
	if (rc == 0)
		rc = nsys_each(in, f, sql, thread_row);
	/* GPU streams, by process, device and stream */
	sql[0] = '\0';
	for (int t = NT_KERNEL; t <= NT_CUDA_EVENT; t++)
		if (f->has[t])
			snprintf(sql + strlen(sql), sizeof(sql) - strlen(sql),
				 "%sSELECT DISTINCT globalPid, deviceId, streamId FROM %s%s", sql[0] ? " UNION " : "",
				 nsys_table((enum ntable)t),
				 t == NT_SYNC ? " WHERE syncType IN (2, 3) AND streamId != 4294967295" :
				 t == NT_CUDA_EVENT ? " WHERE streamId != 4294967295" : "");
	if (rc == 0 && sql[0]) {
		strcat(sql, " ORDER BY 1, 2, 3");
		rc = nsys_each(in, f, sql, gpu_row);
	}
	if (rc == 0 && f->has[NT_NULL_STREAM])
		rc = nsys_each(in, f, "SELECT streamId, processId, deviceId FROM TARGET_INFO_CUDA_NULL_STREAM", null_row);
	if (rc == 0 && f->has[NT_THREAD_NAMES])
		rc = nsys_each(in, f, "SELECT t.globalTid, s.value FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId "
				      "ORDER BY t.priority DESC", name_row);
	if (rc == 0 && f->has[NT_PROCESSES])
		rc = nsys_each(in, f, "SELECT globalPid, pid, name FROM PROCESSES", process_row);
	if (rc == 0 && f->has[NT_SYNC])
		rc = nsys_each(in, f, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", sync_count_row);
	if (rc == 0 && f->has[NT_CUDA_EVENT])
		rc = nsys_each(in, f, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT", event_count_row);
	return rc;
}

/* --- the definitions --- */

static int write_process(struct nsysin *in, uint32_t i)
{
	const struct nprocess *p = &in->procs[i];
	char name[300];

	if (p->rank >= 0)
		snprintf(name, sizeof(name), "MPI Rank %lld", (long long)p->rank);
	else
		snprintf(name, sizeof(name), "%s", p->name ? p->name : in->files[p->file].path);
	return fmt_write_process(in->w, i, name, p->rank);
}

static int write_stream(struct nsysin *in, uint32_t i)
{
	const struct nstream *s = &in->streams[i];
	bool gpu = s->device >= 0;
	char name[300];

	if (gpu)
		snprintf(name, sizeof(name), "CUDA[%lld:%lld]", (long long)s->device, (long long)s->stream);
	else if (s->name)
		snprintf(name, sizeof(name), "%s", s->name);
	else
		snprintf(name, sizeof(name), "thread %lld", (long long)(s->key & 0xffffff));
	return fmt_write_stream(in->front, in->w,
				&(struct fmt_stream){ i, s->process, name, gpu, s->null, gpu ? s->device : -1,
						      gpu ? s->stream : s->key & 0xffffff });
}

int nsys_write_defs(struct nsysin *in)
{
	int rc = 0;

	for (uint32_t i = 0; i < in->nprocs && rc == 0; i++)
		rc = write_process(in, i);
	for (uint32_t i = 0; i < in->nstreams && rc == 0; i++)
		rc = write_stream(in, i);
	return rc;
}
