/*
 * The rows of an Nsight export as events: runtime calls and NVTX push/pop
 * ranges on their threads (Nsight's MPI trace, the ranges of its "MPI"
 * domain, as MPI calls), kernels, copies and sets on their GPU streams,
 * each an enter and a leave tied so that they nest (ls_event_tie); each
 * call with the stream and CUDA event its correlation id says it refers
 * to, from the rows the database joins to it (the reader keeps no table
 * of them: memory stays flat). A call Nsight records twice (the outer runtime row and the inner
 * one of its versioned name, cudaMalloc and cudaMalloc_v3020, one
 * correlation id) is read once.
 */
#include <stdio.h>
#include <string.h>

#include "../../libstream/error.h"
#include "nsysin_private.h"

static int64_t col(sqlite3_stmt *st, int i)
{
	return sqlite3_column_int64(st, i);
}

static uint32_t file_of(const struct nsysin *in, const struct nfile *f)
{
	return (uint32_t)(f - in->files);
}

/* Region classes of the name cache. */
enum { NAME_CALL, NAME_KERNEL, NAME_USER, NAME_MPI };

/* The region of a name (StringIds id, or -1 where the row gives the text), made where new. */
static int region(struct nsysin *in, const struct nfile *f, int cls, int64_t id, const char *name, uint32_t *out)
{
	uint64_t key = (uint64_t)file_of(in, f) << 48 | (uint64_t)cls << 40 | (uint32_t)id;
	const char *dir = NULL, *paradigm = "cuda";
	enum ls_role role = LS_R_CPU;
	int rc;

	if (id >= 0 && id <= UINT32_MAX && ls_idmap_get(&in->name_ix, key, out))
		return 0;
	if (!name)
		name = "(unnamed)";
	switch (cls) {
	case NAME_CALL:
		if ((role = ls_role_by_name(name, &dir)) == LS_R_UNKNOWN)
			role = LS_R_GPU_API;
		break;
	case NAME_KERNEL:
		role = LS_R_KERNEL;
		break;
	case NAME_MPI:
		paradigm = "mpi";
		if ((role = ls_role_by_name(name, &dir)) == LS_R_UNKNOWN)
			role = LS_R_MPI_OTHER;
		break;
	default:
		paradigm = "user";
		break;
	}
	if ((rc = fmt_region(&in->regions, name, role, paradigm, dir, out)) < 0)
		return rc;
	return id >= 0 && id <= UINT32_MAX ? ls_idmap_put(&in->name_ix, key, *out) : 0;
}

/* An activity [t0, t1] of region on stream: its enter (with what ref says) and leave. */
static int activity(struct nsysin *in, uint32_t stream, int64_t t0, int64_t t1, uint32_t region_id, int64_t corr,
		    const struct nref *ref, int64_t bytes)
{
	struct ls_event *ev;
	int64_t dur = t1 - t0;

	if (ls_front_keeps(in->front, stream, t0)) {
		if (!(ev = ls_front_add(in->front, stream, t0, LS_K_ENTER)))
			return ls_front_failure(in->front);
		ev->tie = ls_event_tie(dur, false);
		ev->region = region_id;
		if (corr >= 0) {
			ev->corr = (uint64_t)corr;
			ev->fields |= LS_EF_CORR;
		}
		if (ref && ref->stream != UINT32_MAX) {
			ev->ref_stream = ref->stream;
			ev->fields |= LS_EF_REF_STREAM;
		}
		if (ref && ref->event >= 0) {
			ev->cuda_event = (uint64_t)ref->event;
			ev->fields |= LS_EF_CUDA_EVENT;
		}
		if (bytes >= 0) {
			ev->bytes = (uint64_t)bytes;
			ev->fields |= LS_EF_BYTES;
		}
	}
	if (ls_front_keeps(in->front, stream, t1)) {
		if (!(ev = ls_front_add(in->front, stream, t1, LS_K_LEAVE)))
			return ls_front_failure(in->front);
		ev->tie = ls_event_tie(dur, true);
		ev->region = region_id;
		if (corr >= 0) {
			ev->corr = (uint64_t)corr;
			ev->fields |= LS_EF_CORR;
		}
	}
	return 0;
}

/*
 * A row's times, shifted to the earliest export's clock; NTIME_OK, or what
 * keeps the row from being an activity.
 */
static enum ntime times(const struct nfile *f, sqlite3_stmt *st, int at, int64_t *t0, int64_t *t1)
{
	int a = sqlite3_column_type(st, at), b = sqlite3_column_type(st, at + 1);
	int64_t x, y;

	if (a == SQLITE_NULL || b == SQLITE_NULL)
		return NTIME_NULL;
	if (a != SQLITE_INTEGER || b != SQLITE_INTEGER)
		return NTIME_NOT_INT;
	x = col(st, at);
	y = col(st, at + 1);
	if (y < x)
		return NTIME_BACKWARDS;
	/* the shift is a difference of session epochs: well inside 2^61 */
	if (x < -(INT64_C(1) << 61) || y >= INT64_C(1) << 61)
		return NTIME_RANGE;
	*t0 = x + f->shift;
	*t1 = y + f->shift;
	return *t0 >= -(INT64_C(1) << 61) && *t1 < (INT64_C(1) << 61) ? NTIME_OK : NTIME_RANGE;
}

/* A row of a call or GPU activity has times, or is counted as odd and left out. */
static bool activity_times(struct nsysin *in, const struct nfile *f, sqlite3_stmt *st, int at,
			   int64_t *t0, int64_t *t1)
{
	enum ntime why = times(f, st, at, t0, t1);

	in->odd_time[why] += why != NTIME_OK;
	return why == NTIME_OK;
}

static bool null(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL;
}

/* A CUPTI id of the row, or -1 where it has none (NULL, or 32 bits of -1). */
static int64_t id(sqlite3_stmt *st, int i)
{
	return null(st, i) || col(st, i) == UINT32_MAX ? -1 : col(st, i);
}

/*
 * What the rows the database joined to a call (columns 6 on) say: the
 * stream of its kernel, copy or set (deviceId, streamId); of its
 * synchronization (syncType, deviceId, streamId, eventId: a stream's wait
 * for an event names the waiting stream and the event, a stream
 * synchronization its stream, an event synchronization the event); of its
 * event record (deviceId, streamId, eventId).
 */
static struct nref joined(struct nsysin *in, uint32_t file, int64_t pkey, sqlite3_stmt *st)
{
	struct nref r = { UINT32_MAX, -1, !null(st, 7) };
	int64_t type = null(st, 8) ? -1 : col(st, 8);

	if (r.work)
		r.stream = nsys_stream(in, file, pkey, col(st, 6), col(st, 7));
	else if ((type == 2 || type == 3) && id(st, 10) >= 0)
		r.stream = nsys_stream(in, file, pkey, col(st, 9), col(st, 10));
	else if (id(st, 13) >= 0)
		r.stream = nsys_stream(in, file, pkey, col(st, 12), col(st, 13));
	if ((type == 1 || type == 2) && id(st, 11) >= 0)
		r.event = id(st, 11);
	else if (id(st, 14) >= 0)
		r.event = id(st, 14);
	return r;
}

/* A row's correlation id: -1 where it has none, or one that is not an integer (counted). */
static int64_t correlation(struct nsysin *in, sqlite3_stmt *st, int i)
{
	if (null(st, i))
		return -1;
	if (sqlite3_column_type(st, i) != SQLITE_INTEGER) {
		in->corr_not_int++;
		return -1;
	}
	return col(st, i);
}

/* One more row of the events read: how far, for a progress line. */
static void stepped(struct nsysin *in)
{
	if (!(++in->rows_done & 0xffff))
		ls_front_input_at(in->front, in->rows_done < in->rows_total ? in->rows_done : in->rows_total,
				  in->rows_total);
}

static int count_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	(void)f;
	in->rows_total += (uint64_t)col(st, 0);
	return 0;
}

int nsys_count_rows(struct nsysin *in)
{
	static const struct {
		enum ntable t;
		const char *sql;
	} tables[] = {
		{ NT_RUNTIME, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME" },
		{ NT_KERNEL, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL" },
		{ NT_MEMCPY, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY" },
		{ NT_MEMSET, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET" },
		{ NT_NVTX, "SELECT count(*) FROM NVTX_EVENTS" },
	};
	int rc = 0;

	for (uint32_t i = 0; i < in->nfiles && rc == 0; i++)
		for (size_t k = 0; k < sizeof(tables) / sizeof(tables[0]) && rc == 0; k++)
			if (in->files[i].has[tables[k].t])
				rc = nsys_each(in, &in->files[i], tables[k].sql, count_row);
	return rc;
}

/* globalTid, start, end, correlationId, nameId, name, and what joined() reads */
static int call_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	int64_t t0, t1, tid = col(st, 0);
	uint32_t s = nsys_stream(in, file_of(in, f), tid, -1, -1), r;
	const char *name = (const char *)sqlite3_column_text(st, 5);
	struct nref ref;
	int rc;

	stepped(in);
	if (s == UINT32_MAX || !activity_times(in, f, st, 1, &t0, &t1)) {
		in->skipped[NT_RUNTIME]++;
		return 0;
	}
	/*
	 * a row nested in the thread's call kept last, with its correlation
	 * id: the same call again; the very row again, joined to another
	 * activity of a CUDA graph's launch: not read again, nor counted
	 */
	if (in->kept.tid == tid && in->kept.corr == col(st, 3) && col(st, 2) <= in->kept.end) {
		bool again = col(st, 1) == in->kept.start && col(st, 2) == in->kept.end;

		in->dup_calls += !again;
		in->skipped[NT_RUNTIME] += !again;
		return 0;
	}
	in->kept.tid = tid;
	in->kept.corr = col(st, 3);
	in->kept.start = col(st, 1);
	in->kept.end = col(st, 2);
	in->read[NT_RUNTIME]++;
	ref = joined(in, file_of(in, f), tid >> 24, st);
	if ((rc = region(in, f, NAME_CALL, col(st, 4), name, &r)) < 0 ||
	    (!ref.work && (rc = fmt_region_without_work(&in->regions, r, &r)) < 0))	/* no GPU activity ran for it */
		return rc;
	return activity(in, s, t0, t1, r, correlation(in, st, 3), &ref, -1);
}

/* globalPid, deviceId, streamId, start, end, correlationId, and: the kernel's name; bytes, copyKind; bytes */
static int work_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st, enum ntable t)
{
	static const char *const copies[][2] = {
		[1] = { "Memcpy HtoD", "htod" }, [2] = { "Memcpy DtoH", "dtoh" }, [8] = { "Memcpy DtoD", "dtod" },
		[9] = { "Memcpy HtoH", "htoh" }, [10] = { "Memcpy PtoP", "ptop" },
		/* unified memory's page migrations, which no call enqueues */
		[11] = { "Unified memory HtoD", "htod" }, [12] = { "Unified memory DtoH", "dtoh" },
		[13] = { "Unified memory DtoD", "dtod" },
	};
	uint32_t s = nsys_stream(in, file_of(in, f), col(st, 0) >> 24, col(st, 1), col(st, 2)), r;
	int64_t t0, t1, kind;
	int rc;

	stepped(in);
	if (s == UINT32_MAX || !activity_times(in, f, st, 3, &t0, &t1)) {
		in->skipped[t]++;
		return 0;
	}
	in->read[t]++;
	if (t == NT_KERNEL) {
		if ((rc = region(in, f, NAME_KERNEL, col(st, 6), (const char *)sqlite3_column_text(st, 7), &r)) < 0)
			return rc;
		return activity(in, s, t0, t1, r, correlation(in, st, 5), NULL, -1);
	}
	if (t == NT_MEMCPY) {
		kind = col(st, 7);
		if (kind < 0 || kind > 13 || !copies[kind][0])
			kind = 0;
		rc = fmt_region(&in->regions, kind ? copies[kind][0] : "Memcpy",
				kind >= 11 ? LS_R_DEV_MIGRATE : LS_R_DEV_MEMCPY, "cuda",
				kind ? copies[kind][1] : NULL, &r);
	} else {
		rc = fmt_region(&in->regions, "Memset", LS_R_DEV_MEMSET, "cuda", NULL, &r);
	}
	return rc < 0 ? rc : activity(in, s, t0, t1, r, correlation(in, st, 5), NULL, col(st, 6));
}

static int kernel_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	return work_row(in, f, st, NT_KERNEL);
}

static int copy_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	return work_row(in, f, st, NT_MEMCPY);
}

static int set_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	return work_row(in, f, st, NT_MEMSET);
}

/* globalTid, start, end, textId, text (or the text of textId), domainId, eventType */
static int range_row(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	uint32_t s = nsys_stream(in, file_of(in, f), col(st, 0), -1, -1), r;
	bool mpi = f->mpi_domain >= 0 && sqlite3_column_type(st, 5) != SQLITE_NULL && col(st, 5) == f->mpi_domain;
	int64_t t0, t1, id = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 : col(st, 3);
	enum ntime why = NTIME_NULL;
	int rc;

	stepped(in);
	if (col(st, 6) != 59 || s == UINT32_MAX || (why = times(f, st, 1, &t0, &t1)) != NTIME_OK) {
		/* marks, start/end ranges (not nested), domains, ranges never ended: not odd */
		in->odd_time[why] += why != NTIME_NULL;
		in->skipped[NT_NVTX]++;
		return 0;
	}
	in->read[NT_NVTX]++;
	if ((rc = region(in, f, mpi ? NAME_MPI : NAME_USER, id, (const char *)sqlite3_column_text(st, 4), &r)) < 0)
		return rc;
	return activity(in, s, t0, t1, r, -1, NULL, -1);
}

/*
 * The runtime calls, in each thread's order (an outer row before the rows
 * nested in it), each with the rows of its correlation id the database
 * joins to it (kernels, copies, sets; synchronizations; event records) of
 * its process: what joined() reads. Returns 0, or -1 where sql is too short.
 */
static int call_query(const struct nfile *f, char *sql, size_t n)
{
	size_t at = (size_t)snprintf(sql, n, "SELECT r.globalTid, r.start, r.end, r.correlationId, r.nameId, s.value, %s, %s, %s "
				     "FROM CUPTI_ACTIVITY_KIND_RUNTIME r LEFT JOIN StringIds s ON s.id = r.nameId",
				     f->has[NT_KERNEL] || f->has[NT_MEMCPY] || f->has[NT_MEMSET] ? "w.deviceId, w.streamId" :
				     "NULL, NULL",
				     f->has[NT_SYNC] ? "y.syncType, y.deviceId, y.streamId, y.eventId" : "NULL, NULL, NULL, NULL",
				     f->has[NT_CUDA_EVENT] ? "e.deviceId, e.streamId, e.eventId" : "NULL, NULL, NULL");
	bool first = true;

	for (int t = NT_KERNEL; t <= NT_MEMSET && at < n; t++)
		if (f->has[t]) {
			at += (size_t)snprintf(sql + at, n - at, "%s SELECT globalPid, correlationId, deviceId, streamId, start FROM %s",
					       first ? " LEFT JOIN (" : " UNION ALL", nsys_table((enum ntable)t));
			first = false;
		}
	if (!first && at < n)
		at += (size_t)snprintf(sql + at, n - at, ") w ON w.correlationId = r.correlationId "
				       "AND w.globalPid >> 24 = r.globalTid >> 24");
	if (f->has[NT_SYNC] && at < n)
		at += (size_t)snprintf(sql + at, n - at, " LEFT JOIN CUPTI_ACTIVITY_KIND_SYNCHRONIZATION y "
				       "ON y.correlationId = r.correlationId AND y.globalPid >> 24 = r.globalTid >> 24");
	if (f->has[NT_CUDA_EVENT] && at < n)
		at += (size_t)snprintf(sql + at, n - at, " LEFT JOIN CUPTI_ACTIVITY_KIND_CUDA_EVENT e "
				       "ON e.correlationId = r.correlationId AND e.globalPid >> 24 = r.globalTid >> 24");
	/* a CUDA graph's launch joined to each of its activities (one correlation id): its first first */
	if (at < n)
		at += (size_t)snprintf(sql + at, n - at, " ORDER BY r.globalTid, r.start, r.end DESC%s",
				       first ? "" : ", w.start");
	return at < n ? 0 : -1;
}

int nsys_events(struct nsysin *in, uint32_t file)
{
	struct nfile *f = &in->files[file];
	char sql[400], calls[2000];
	int rc = 0;

	in->kept.tid = -1;
	if (f->has[NT_RUNTIME] && (rc = call_query(f, calls, sizeof(calls))) == 0)
		rc = nsys_each(in, f, calls, call_row);
	if (rc == 0 && f->has[NT_KERNEL]) {
		snprintf(sql, sizeof(sql), "SELECT k.globalPid, k.deviceId, k.streamId, k.start, k.end, k.correlationId, "
			 "k.%s, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k LEFT JOIN StringIds s ON s.id = k.%s",
			 f->kernel_short ? "shortName" : "demangledName", f->kernel_short ? "shortName" : "demangledName");
		rc = nsys_each(in, f, sql, kernel_row);
	}
	if (rc == 0 && f->has[NT_MEMCPY])
		rc = nsys_each(in, f, "SELECT globalPid, deviceId, streamId, start, end, correlationId, bytes, copyKind "
				      "FROM CUPTI_ACTIVITY_KIND_MEMCPY", copy_row);
	if (rc == 0 && f->has[NT_MEMSET])
		rc = nsys_each(in, f, "SELECT globalPid, deviceId, streamId, start, end, correlationId, bytes "
				      "FROM CUPTI_ACTIVITY_KIND_MEMSET", set_row);
	if (rc == 0 && f->has[NT_NVTX])
		rc = nsys_each(in, f, "SELECT n.globalTid, n.start, n.end, n.textId, coalesce(n.text, s.value), n.domainId, "
				      "n.eventType FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId", range_row);
	return rc;
}
