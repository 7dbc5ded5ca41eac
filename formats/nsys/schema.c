/*
 * The tables of an Nsight Systems export the reader reads, and the
 * columns it needs of each, found by asking the database (PRAGMA
 * table_info), so that an export of another Nsight version reads where
 * its tables hold what is needed, and is refused with a message naming
 * the table or column where they do not. Nsight leaves out the tables of
 * what a run did not do (no sets: no MEMSET table).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../../libstream/error.h"
#include "nsysin_private.h"

static const struct {
	const char *name;
	const char *columns[12];	/* needed; NULL-terminated */
} tables[NT__COUNT] = {
	[NT_STRINGS] = { "StringIds", { "id", "value" } },
	[NT_RUNTIME] = { "CUPTI_ACTIVITY_KIND_RUNTIME", { "start", "end", "globalTid", "correlationId", "nameId" } },
	[NT_KERNEL] = { "CUPTI_ACTIVITY_KIND_KERNEL",
			{ "start", "end", "deviceId", "streamId", "correlationId", "globalPid", "shortName" } },
	[NT_MEMCPY] = { "CUPTI_ACTIVITY_KIND_MEMCPY",
			{ "start", "end", "deviceId", "streamId", "correlationId", "globalPid", "bytes", "copyKind" } },
	[NT_MEMSET] = { "CUPTI_ACTIVITY_KIND_MEMSET",
			{ "start", "end", "deviceId", "streamId", "correlationId", "globalPid", "bytes" } },
	[NT_SYNC] = { "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
		      { "start", "end", "deviceId", "streamId", "correlationId", "globalPid", "syncType", "eventId" } },
	[NT_CUDA_EVENT] = { "CUPTI_ACTIVITY_KIND_CUDA_EVENT",
			    { "deviceId", "streamId", "correlationId", "globalPid", "eventId" } },
	[NT_NVTX] = { "NVTX_EVENTS", { "start", "end", "eventType", "text", "globalTid", "textId", "domainId" } },
	[NT_THREAD_NAMES] = { "ThreadNames", { "nameId", "globalTid" } },
	[NT_PROCESSES] = { "PROCESSES", { "globalPid", "pid", "name" } },
	[NT_SESSION] = { "TARGET_INFO_SESSION_START_TIME", { "utcEpochNs" } },
	[NT_NULL_STREAM] = { "TARGET_INFO_CUDA_NULL_STREAM", { "streamId", "processId", "deviceId" } },
};

const char *nsys_table(enum ntable t)
{
	return tables[t].name;
}

int nsys_fail(struct nsysin *in, const struct nfile *f, const char *what)
{
	snprintf(in->err, in->errlen, "%s%s%s", in->label ? f->path : "", in->label ? ": " : "", what);
	return LS_ERR_SYNTAX;
}

int nsys_each(struct nsysin *in, struct nfile *f, const char *sql,
	      int (*row)(struct nsysin *in, struct nfile *f, sqlite3_stmt *st))
{
	sqlite3_stmt *st;
	char why[300];
	int rc = 0, s;

	if (sqlite3_prepare_v2(f->db, sql, -1, &st, NULL) != SQLITE_OK) {
		snprintf(why, sizeof(why), "the database refuses a query: %s", sqlite3_errmsg(f->db));
		return nsys_fail(in, f, why);
	}
	while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW)
		rc = row(in, f, st);
	if (rc == 0 && s != SQLITE_DONE) {
		snprintf(why, sizeof(why), "cannot read the database: %s", sqlite3_errmsg(f->db));
		rc = nsys_fail(in, f, why);
	}
	sqlite3_finalize(st);
	return rc;
}

/* Whether table has every column it needs: 1 yes, 0 no table, or an error (said). */
static int check(struct nsysin *in, struct nfile *f, enum ntable t)
{
	char sql[128], why[300];
	bool found[12] = { false }, any = false;
	sqlite3_stmt *st;

	if (t == NT_KERNEL)
		f->kernel_short = true;	/* unless it has demangledName */
	snprintf(sql, sizeof(sql), "PRAGMA table_info(%s)", tables[t].name);
	if (sqlite3_prepare_v2(f->db, sql, -1, &st, NULL) != SQLITE_OK) {
		snprintf(why, sizeof(why), "not a database tr-read can read: %s", sqlite3_errmsg(f->db));
		return nsys_fail(in, f, why);
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(st, 1);

		any = true;
		for (int i = 0; col && tables[t].columns[i]; i++)
			found[i] |= !strcmp(col, tables[t].columns[i]);
		if (t == NT_KERNEL && col && !strcmp(col, "demangledName"))
			f->kernel_short = false;
	}
	sqlite3_finalize(st);
	if (!any)
		return 0;
	for (int i = 0; tables[t].columns[i]; i++) {
		if (found[i])
			continue;
		snprintf(why, sizeof(why),
			 "table %s has no column %s: an Nsight Systems export tr-read does not know (it knows those of 2022.2 to 2024.5)",
			 tables[t].name, tables[t].columns[i]);
		return nsys_fail(in, f, why);
	}
	return 1;
}

int nsys_schema(struct nsysin *in, struct nfile *f)
{
	int rc;

	for (int t = 0; t < NT__COUNT; t++) {
		if ((rc = check(in, f, (enum ntable)t)) < 0)
			return rc;
		f->has[t] = rc;
	}
	if (!f->has[NT_STRINGS])
		return nsys_fail(in, f, "no table StringIds: not an Nsight Systems export (nsys export --type sqlite)");
	if (!f->has[NT_RUNTIME] && !f->has[NT_NVTX])
		return nsys_fail(in, f, "neither CUPTI_ACTIVITY_KIND_RUNTIME nor NVTX_EVENTS: the export holds no CUDA or NVTX trace (nsys profile --trace=cuda,nvtx)");
	return 0;
}

/* The rows of one table: into in->unread_rows, and named in in->unread. */
static int unread_rows(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	int64_t rows = sqlite3_column_int64(st, 0);
	size_t at = strlen(in->unread);

	(void)f;
	if (rows <= 0)
		return 0;
	in->unread_rows += (uint64_t)rows;
	if (at < sizeof(in->unread) - 1)
		snprintf(in->unread + at, sizeof(in->unread) - at, "%s%s %" PRId64, at ? ", " : "",
			 in->counting, rows);
	return 0;
}

/* A table of recorded activity tr-read has no reader for: its rows counted. */
static int unread_table(struct nsysin *in, struct nfile *f, sqlite3_stmt *st)
{
	const char *name = (const char *)sqlite3_column_text(st, 0);
	char sql[160];

	if (!name || strchr(name, '"') || strlen(name) >= sizeof(in->counting))
		return 0;
	snprintf(in->counting, sizeof(in->counting), "%s", name);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM \"%s\"", name);
	return nsys_each(in, f, sql, unread_rows);
}

int nsys_unread(struct nsysin *in, struct nfile *f)
{
	char sql[1024];
	size_t at;

	/*
	 * the tables of events (a start or timestamp column) or of call stacks
	 * (..._CALLCHAINS) but those read: their rows are said, not hidden
	 */
	at = (size_t)snprintf(sql, sizeof(sql), "SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND "
			      "((SELECT count(*) FROM pragma_table_info(m.name) WHERE name IN ('start', 'timestamp')) "
			      "> 0 OR m.name LIKE '%%CALLCHAINS') AND m.name NOT IN (");
	for (int t = 0; t < NT__COUNT && at < sizeof(sql); t++)
		at += (size_t)snprintf(sql + at, sizeof(sql) - at, "%s'%s'", t ? ", " : "", tables[t].name);
	if (at >= sizeof(sql) - 32)
		return nsys_fail(in, f, "a query too long");
	snprintf(sql + at, sizeof(sql) - at, ") ORDER BY m.name");
	return nsys_each(in, f, sql, unread_table);
}
