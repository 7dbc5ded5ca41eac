/*
 * The vocabulary of docs/stream.md: record kinds, field names, region roles
 * and the other enumerated strings, with what each kind requires. This is
 * the one table tools and `tr-cat --check` read; docs/stream.md is its prose.
 */
#ifndef LS_SCHEMA_H
#define LS_SCHEMA_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define LS_VERSION_MAJOR 1
#define LS_VERSION_MINOR 1

/*
 * Times lie in [-2^62, 2^62) ns (146 years either side of 0), so that the
 * difference of two is a duration below 2^63; durations lie in [0, 2^63).
 * A time and a duration may add up past int64: times.h checks such sums.
 * docs/stream.md.
 */
#define LS_TIME_MIN (-(INT64_C(1) << 62))
#define LS_TIME_MAX ((INT64_C(1) << 62) - 1)
#define LS_DUR_MAX ((UINT64_C(1) << 63) - 1)

static inline bool ls_time_ok(int64_t t)
{
	return t >= LS_TIME_MIN && t <= LS_TIME_MAX;
}

/* Field names. Order is free; names are what the stream carries. */
#define LS_FIELDS(X) \
	X(K, "k") X(ID, "id") X(T, "t") X(S, "s") X(R, "r") \
	X(NAME, "name") X(ROLE, "role") X(PARADIGM, "paradigm") X(DIR, "dir") \
	X(PROCESS, "process") X(RANK, "rank") X(TYPE, "type") \
	X(DEVICE, "device") X(NATIVE, "native") X(NULL_STREAM, "null") X(LOCATION, "location") \
	X(MEMBERS, "members") X(PEER, "peer") X(TAG, "tag") X(COMM, "comm") \
	X(BYTES, "bytes") X(REQ, "req") X(ROOT, "root") X(SENT, "sent") \
	X(RECVD, "recvd") X(OP, "op") X(REF_STREAM, "ref_stream") X(WAIT_STREAM, "wait_stream") \
	X(CUDA_EVENT, "cuda_event") X(RESULT, "result") X(CORR, "corr") \
	X(THREADS, "threads") X(LOCK, "lock") X(ON, "on") \
	X(COUNTER, "counter") X(VAL, "val") X(UNIT, "unit") \
	X(MAJOR, "major") X(MINOR, "minor") X(PRODUCER, "producer") \
	X(SOURCE, "source") X(CLOCK, "clock") X(EPOCH, "epoch") X(LENGTH, "length") \
	X(FROM, "from") X(TO, "to") X(AT, "at") X(CAUSE, "cause") \
	X(DUR, "dur") X(PATTERN, "pattern") X(NS, "ns") X(WAIT, "wait") \
	X(REGION, "region") X(CALLS, "calls") X(EXCL, "excl") X(CP, "cp") \
	X(CP_SHARE, "cp_share") X(BLAME, "blame") X(CP_BLAME, "cp_blame") X(CP_IDLE, "cp_idle") \
	X(BLAME_SHARE, "blame_share") X(RATING, "rating") \
	X(COUNT, "count") X(MIN, "min") X(MAX, "max") X(SPEC, "spec") \
	X(BEFORE, "before") X(AFTER, "after") X(ACTS, "acts") X(ACT, "act") \
	X(BLAME_BY, "blame_by") X(RUNTIME, "runtime") X(WAITING, "waiting") \
	X(CP_A, "cp_a") X(CP_B, "cp_b") X(BLAME_A, "blame_a") X(BLAME_B, "blame_b") \
	X(RATING_A, "rating_a") X(RATING_B, "rating_b") X(STAGES, "stages") \
	X(IDLE, "idle") X(IDLE_SHARE, "idle_share") X(IDLE_BY, "idle_by") \
	X(STREAMS, "streams") X(CONTEXT, "context") X(MOST, "most") \
	X(BUSY, "busy") X(KERNELS, "kernels") X(KERNEL, "kernel") X(COPIES, "copies") \
	X(COPY, "copy") X(COPY_KERNEL, "copy_kernel") X(KERNEL_KERNEL, "kernel_kernel") \
	X(STARTUPS, "startups") X(STARTUP, "startup") \
	X(CP_HOST_OUTSIDE, "cp_host_outside") X(CP_GPU_BETWEEN, "cp_gpu_between") \
	X(PROCESSES, "processes") X(HOST_THREADS, "host_threads") X(GPU_STREAMS, "gpu_streams")

enum ls_field {
#define LS_X(e, s) LS_F_##e,
	LS_FIELDS(LS_X)
#undef LS_X
	LS_F__COUNT,
	LS_F__NONE = -1
};

/* Record kinds, grouped by class: header, definitions, events, derived. */
#define LS_KINDS(X) \
	X(HEADER, "header") \
	X(PROCESS, "process") X(STREAM, "stream") X(REGION, "region") \
	X(COMM, "comm") X(COUNTER, "counter") \
	X(ENTER, "enter") X(LEAVE, "leave") X(SEND, "send") \
	X(SEND_DONE, "send_done") X(RECV, "recv") X(RECV_POST, "recv_post") \
	X(REQ_TEST, "req_test") X(REQ_CANCEL, "req_cancel") \
	X(COLL_BEGIN, "coll_begin") X(COLL_END, "coll_end") \
	X(FORK, "fork") X(JOIN, "join") X(TEAM_BEGIN, "team_begin") \
	X(TEAM_END, "team_end") X(LOCK_ACQUIRE, "lock_acquire") \
	X(LOCK_RELEASE, "lock_release") X(MEASURE, "measure") \
	X(SAMPLE, "sample") \
	X(EDGE, "edge") X(INSTANCE, "instance") X(WAIT, "wait") X(IDLE, "idle") X(BLAME, "blame") \
	X(CRIT, "crit") X(PATH_BLAME, "path_blame") \
	X(RATING, "rating") X(WAIT_SUMMARY, "wait_summary") \
	X(RUN_SUMMARY, "run_summary") X(GPU_SUMMARY, "gpu_summary") X(RATING_DIFF, "rating_diff") \
	X(PROJECTION, "projection") \
	X(TRAILER, "trailer")

enum ls_kind {
	LS_K_UNKNOWN,	/* a kind this version does not define: passed on */
#define LS_X(e, s) LS_K_##e,
	LS_KINDS(LS_X)
#undef LS_X
	LS_K__COUNT
};

enum ls_class { LS_C_UNKNOWN, LS_C_HEADER, LS_C_DEF, LS_C_EVENT, LS_C_DERIVED, LS_C_TRAILER };

/*
 * Region roles: what an activity means to the analysis, each in its
 * group (ls_role_group): what the analysis asks of a role is asked of its
 * group, never of its place in this list.
 */
#define LS_ROLES(X) \
	X(CPU, "cpu", HOST) \
	X(MPI_SEND, "mpi_send", MPI) X(MPI_RECV, "mpi_recv", MPI) \
	X(MPI_SENDRECV, "mpi_sendrecv", MPI) X(MPI_ISEND, "mpi_isend", MPI) \
	X(MPI_IRECV, "mpi_irecv", MPI) X(MPI_WAIT, "mpi_wait", MPI) \
	X(MPI_TEST, "mpi_test", MPI) X(MPI_BARRIER, "mpi_barrier", MPI) \
	X(MPI_N2N, "mpi_n2n", MPI) X(MPI_ONE2N, "mpi_one2n", MPI) \
	X(MPI_N2ONE, "mpi_n2one", MPI) X(MPI_SCAN, "mpi_scan", MPI) \
	X(MPI_INIT, "mpi_init", MPI) X(MPI_FINALIZE, "mpi_finalize", MPI) \
	X(MPI_ICOLL, "mpi_icoll", MPI) X(MPI_OTHER, "mpi_other", MPI) \
	X(LAUNCH, "launch", GPU_CALL) X(MEMCPY, "memcpy", GPU_CALL) \
	X(MEMCPY_ASYNC, "memcpy_async", GPU_CALL) X(MEMSET, "memset", GPU_CALL) \
	X(MEMSET_ASYNC, "memset_async", GPU_CALL) X(ALLOC, "alloc", GPU_CALL) \
	X(FREE, "free", GPU_CALL) \
	X(STREAM_SYNC, "stream_sync", GPU_CALL) X(CTX_SYNC, "ctx_sync", GPU_CALL) \
	X(EVENT_SYNC, "event_sync", GPU_CALL) X(EVENT_RECORD, "event_record", GPU_CALL) \
	X(EVENT_QUERY, "event_query", GPU_CALL) X(STREAM_QUERY, "stream_query", GPU_CALL) \
	X(STREAM_WAIT, "stream_wait", GPU_CALL) X(GPU_API, "gpu_api", GPU_CALL) \
	X(KERNEL, "kernel", GPU_WORK) X(DEV_MEMCPY, "dev_memcpy", GPU_WORK) \
	X(DEV_MEMSET, "dev_memset", GPU_WORK) X(DEV_MIGRATE, "dev_migrate", GPU_WORK) \
	X(OMP_PARALLEL, "omp_parallel", OMP) \
	X(OMP_IMPLICIT_TASK, "omp_implicit_task", OMP) \
	X(OMP_BARRIER, "omp_barrier", OMP) X(OMP_CRITICAL, "omp_critical", OMP) \
	X(OMP_LOCK, "omp_lock", OMP) X(OMP_UNLOCK, "omp_unlock", OMP) \
	X(OMP_TASK, "omp_task", OMP) X(OMP_OTHER, "omp_other", OMP) \
	X(OMP_TEAM_START, "omp_team_start", OMP)

/*
 * Role groups: plain host code, MPI calls, host calls of a GPU runtime,
 * work running on a GPU stream, OpenMP constructs.
 */
enum ls_role_group { LS_G_NONE, LS_G_HOST, LS_G_MPI, LS_G_GPU_CALL, LS_G_GPU_WORK, LS_G_OMP };

enum ls_role {
	LS_R_UNKNOWN,
#define LS_X(e, s, g) LS_R_##e,
	LS_ROLES(LS_X)
#undef LS_X
	LS_R__COUNT
};

/* Stream types (stream's type). */
#define LS_STREAM_TYPES(X) X(HOST, "host") X(GPU, "gpu") X(METRIC, "metric")

enum ls_stream_type {
#define LS_X(e, s) LS_ST_##e,
	LS_STREAM_TYPES(LS_X)
#undef LS_X
	LS_ST__COUNT
};

/* Copy directions (region's dir). */
#define LS_COPY_DIRS(X) \
	X(HTOD, "htod") X(DTOH, "dtoh") X(DTOD, "dtod") X(HTOH, "htoh") X(PTOP, "ptop")

enum ls_copy_dir {
#define LS_X(e, s) LS_CD_##e,
	LS_COPY_DIRS(LS_X)
#undef LS_X
	LS_CD__COUNT
};

/* Edge types: what kind of dependency an edge is. */
#define LS_EDGES(X) \
	X(MSG, "msg") X(COLL, "coll") X(LAUNCH, "launch") X(SYNC, "sync") \
	X(EVENT, "event") X(STREAM_WAIT, "stream_wait") \
	X(NULL_STREAM, "null_stream") X(FORK, "fork") X(JOIN, "join") \
	X(BARRIER, "barrier") X(LOCK, "lock")

enum ls_edge {
#define LS_X(e, s) LS_E_##e,
	LS_EDGES(LS_X)
#undef LS_X
	LS_E__COUNT
};

/* Wait-state patterns. */
#define LS_PATTERNS(X) \
	X(LATE_SENDER, "late_sender") \
	X(LATE_SENDER_WRONG_ORDER, "late_sender_wrong_order") \
	X(LATE_RECEIVER, "late_receiver") X(WAIT_NXN, "wait_nxn") \
	X(WAIT_BARRIER, "wait_barrier") X(LATE_BROADCAST, "late_broadcast") \
	X(EARLY_REDUCE, "early_reduce") X(EARLY_SCAN, "early_scan") \
	X(WAIT_INIT, "wait_init") X(WAIT_FINALIZE, "wait_finalize") \
	X(BLAME_KERNEL, "blame_kernel") X(BLAME_SYNC, "blame_sync") \
	X(EVENT_QUERY, "event_query") X(STREAM_QUERY, "stream_query") \
	X(NULL_STREAM, "null_stream") X(STREAM_WAIT, "stream_wait") \
	X(GPU_IDLE, "gpu_idle") X(OMP_BARRIER, "omp_barrier") \
	X(OMP_LOCK, "omp_lock") X(OMP_FORK_JOIN, "omp_fork_join")

enum ls_pattern {
#define LS_X(e, s) LS_P_##e,
	LS_PATTERNS(LS_X)
#undef LS_X
	LS_P__COUNT
};

/* Value types a field may be required to have. */
enum ls_vtype {
	LS_V_UINT,	/* non-negative integer */
	LS_V_INT,	/* integer */
	LS_V_NUM,	/* integer or float */
	LS_V_STR,
	LS_V_BOOL,
	LS_V_UINTS,	/* array of non-negative integers */
	LS_V_ID,	/* event id that must have appeared earlier */
	LS_V_MAP,	/* map (of names to values) */
	LS_V_TIME,	/* integer in [LS_TIME_MIN, LS_TIME_MAX] */
	LS_V_DUR,	/* non-negative integer up to LS_DUR_MAX */
	LS_V_STAGES,	/* the header's list of stages (header.h) */
};

/* Namespaces a field's value must have been defined in, if any. */
enum ls_ref { LS_REF_NONE, LS_REF_PROCESS, LS_REF_STREAM, LS_REF_REGION,
	      LS_REF_COMM, LS_REF_COUNTER, LS_REF_EVENT };

/* Enumerated string values a field is checked against, if any. */
enum ls_vocab { LS_VOCAB_NONE, LS_VOCAB_ROLE, LS_VOCAB_STREAM_TYPE,
		LS_VOCAB_DIR, LS_VOCAB_EDGE, LS_VOCAB_PATTERN, LS_VOCAB_CLOCK };

struct ls_field_spec {
	enum ls_field field;
	enum ls_vtype type;
	bool required;
	enum ls_ref ref;
	enum ls_vocab vocab;
};

#define LS_MAX_SPEC_FIELDS 16

struct ls_kind_spec {
	enum ls_class cls;
	struct ls_field_spec fields[LS_MAX_SPEC_FIELDS];
	int nfields;
};

/*
 * Lookup of names of at most 15 bytes by their msgpack encoding, a fixstr:
 * its first byte (which holds the length) and the name, packed into two
 * little-endian words, zero-filled. Every key and nearly every kind is one.
 */
#define LS_SHORT_SIZE 1024
#define LS_SHORT_MAX 15

struct ls_short_name {
	uint64_t lo, hi;	/* encoded bytes 0..7 and 8..15 */
};

struct ls_short_table {
	uint64_t mul;	/* the hash's multiplier, chosen so no two names share a slot */
	struct {
		struct ls_short_name name;	/* lo 0: empty slot */
		int16_t index;
	} slot[LS_SHORT_SIZE];
};

extern struct ls_short_table ls_short_fields, ls_short_kinds, ls_short_patterns;

static inline uint32_t ls_short_hash(const struct ls_short_table *t,
				     struct ls_short_name k)
{
	return (uint32_t)(((k.lo ^ k.hi * UINT64_C(0xff51afd7ed558ccd)) * t->mul) >> 54);
}

static inline uint64_t ls_le64(const uint8_t *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* Masks of a fixstr's encoded bytes in each word, by its length (first byte & 0x0f). */
extern uint64_t ls_short_mask[2][LS_SHORT_MAX + 1];

/* The fixstr at p (*p is 0xa0..0xaf), where 16 bytes may be read, packed. */
static inline struct ls_short_name ls_short_pack(const uint8_t *p)
{
	uint32_t n = *p & 0x0f;

	return (struct ls_short_name){ ls_le64(p) & ls_short_mask[0][n],
				       ls_le64(p + 8) & ls_short_mask[1][n] };
}

/* The same where the fixstr's 1 + (*p & 0x0f) bytes lie before end. */
static inline struct ls_short_name ls_short_name(const uint8_t *p, const uint8_t *end)
{
	struct ls_short_name k;

	if (end - p >= 16) {
		k = ls_short_pack(p);
	} else {
		uint32_t n = *p & 0x0f;
		uint8_t padded[16] = { 0 };

		memcpy(padded, p, 1 + n);
		k.lo = ls_le64(padded);
		k.hi = ls_le64(padded + 8);
	}
	return k;
}

/*
 * The index of the fixstr at p of at most 7 bytes (*p is 0xa0..0xa7) where
 * 8 bytes may be read, or -1: one word, where no longer name can match (its
 * first byte differs), hashed to the slot ls_short_hash gives with hi 0.
 */
static inline int ls_short_find7(const struct ls_short_table *t, const uint8_t *p)
{
	uint64_t lo = ls_le64(p) & ls_short_mask[0][*p & 0x0f];

	for (uint32_t h = (uint32_t)((lo * t->mul) >> 54);; h = (h + 1) & (LS_SHORT_SIZE - 1)) {
		if (t->slot[h].name.lo == lo)
			return t->slot[h].index;
		if (!t->slot[h].name.lo)
			return -1;
	}
}

/* Index of the name packed in k, or -1 if not in t. */
static inline int ls_short_find(const struct ls_short_table *t, struct ls_short_name k)
{
	for (uint32_t h = ls_short_hash(t, k);; h = (h + 1) & (LS_SHORT_SIZE - 1)) {
		if (t->slot[h].name.lo == k.lo && t->slot[h].name.hi == k.hi)
			return t->slot[h].index;
		if (!t->slot[h].name.lo)
			return -1;
	}
}

/* Each field's key, msgpack-encoded (a fixstr), for writing. */
extern uint8_t ls_field_keys[LS_F__COUNT][16];
extern uint8_t ls_field_key_len[LS_F__COUNT];

/* Each known kind's "k" field, key and value msgpack-encoded. */
extern uint8_t ls_kind_fields[LS_K__COUNT][16];
extern uint8_t ls_kind_field_len[LS_K__COUNT];

/* Each pattern's "pattern" field, key and value msgpack-encoded. */
extern uint8_t ls_pattern_fields[LS_P__COUNT][32];
extern uint8_t ls_pattern_field_len[LS_P__COUNT];

/* Field index for a key, or LS_F__NONE. */
enum ls_field ls_field_lookup(const char *s, uint32_t n);
const char *ls_field_name(enum ls_field f);

/* Kind for a kind string; LS_K_UNKNOWN for one this version lacks. */
enum ls_kind ls_kind_lookup(const char *s, uint32_t n);
const char *ls_kind_name(enum ls_kind k);
/* Each kind's fields, by kind: what ls_kind_spec reads (inline: asked per record, by every stage). */
extern const struct ls_kind_spec ls_kind_specs[LS_K__COUNT];

static inline const struct ls_kind_spec *ls_kind_spec(enum ls_kind k)
{
	return &ls_kind_specs[k];
}
/* The kinds of class cls, as a set of LS_KIND_BIT (record.h). */
uint64_t ls_class_kinds(enum ls_class cls);

/* Role for a role string; LS_R_UNKNOWN for one this version lacks. */
enum ls_role ls_role_lookup(const char *s, uint32_t n);
const char *ls_role_name(enum ls_role r);
/* The group of role r (LS_G_NONE for LS_R_UNKNOWN). */
enum ls_role_group ls_role_group(enum ls_role r);

const char *ls_edge_name(enum ls_edge e);

/*
 * Idleness, not a wait state: a GPU stream (blame_sync: until a late
 * synchronization) or every GPU stream of a process (gpu_idle) sat idle.
 * Written as idle records, its blame apart from the blame for wait states.
 */
static inline bool ls_pattern_idle(enum ls_pattern p)
{
	return p == LS_P_GPU_IDLE || p == LS_P_BLAME_SYNC;
}

/* The stream type named s[0..n), or LS_ST__COUNT if there is none. */
enum ls_stream_type ls_stream_type_lookup(const char *s, uint32_t n);

/* The copy direction named s[0..n), or LS_CD__COUNT if there is none. */
enum ls_copy_dir ls_copy_dir_lookup(const char *s, uint32_t n);

/*
 * The edge type named s[0..n), or LS_E__COUNT if there is none. Inline:
 * it is on the path of every edge, and each comparison is of a constant
 * length, which the compiler does in a word or two.
 */
static inline enum ls_edge ls_edge_lookup(const char *s, uint32_t n)
{
#define LS_X(e, name) \
	if (n == sizeof(name) - 1 && memcmp(s, name, sizeof(name) - 1) == 0) \
		return LS_E_##e;
	LS_EDGES(LS_X)
#undef LS_X
	return LS_E__COUNT;
}

/* Pattern for a pattern string; LS_P__COUNT for one this version lacks. */
enum ls_pattern ls_pattern_lookup(const char *s, uint32_t n);

/*
 * The pattern named by the msgpack value at p (before end), a fixstr:
 * ls_pattern_lookup without taking the string apart first; LS_P__COUNT
 * where it names none, or is no fixstr.
 */
enum ls_pattern ls_pattern_at(const uint8_t *p, const uint8_t *end);
const char *ls_pattern_name(enum ls_pattern p);

/* Whether the pattern string s[0..n) names an idle pattern (ls_pattern_idle). */
static inline bool ls_pattern_name_idle(const char *s, uint32_t n)
{
	enum ls_pattern p = ls_pattern_lookup(s, n);

	return p < LS_P__COUNT && ls_pattern_idle(p);
}

/* Whether s is one of the values of vocab (LS_VOCAB_NONE: always true). */
bool ls_vocab_has(enum ls_vocab vocab, const char *s, uint32_t n);

#endif
