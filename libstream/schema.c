/* The stream vocabulary: name tables, lookups, and what each kind requires. */
#include <pthread.h>
#include <string.h>

#include "schema.h"

static const char *const field_names[] = {
#define LS_X(e, s) s,
	LS_FIELDS(LS_X)
#undef LS_X
};

static const char *const kind_names[] = {
	"",
#define LS_X(e, s) s,
	LS_KINDS(LS_X)
#undef LS_X
};

static const char *const role_names[] = {
	"",
#define LS_X(e, s, g) s,
	LS_ROLES(LS_X)
#undef LS_X
};

static const uint8_t role_groups[] = {
	LS_G_NONE,
#define LS_X(e, s, g) LS_G_##g,
	LS_ROLES(LS_X)
#undef LS_X
};

static const char *const stream_types[] = {
#define LS_X(e, s) s,
	LS_STREAM_TYPES(LS_X)
#undef LS_X
	NULL
};
static const char *const dirs[] = {
#define LS_X(e, s) s,
	LS_COPY_DIRS(LS_X)
#undef LS_X
	NULL
};
static const char *const clocks[] = { "ns", NULL };
static const char *const edge_types[] = {
#define LS_X(e, s) s,
	LS_EDGES(LS_X)
#undef LS_X
	NULL
};
static const char *const patterns[] = {
#define LS_X(e, s) s,
	LS_PATTERNS(LS_X)
#undef LS_X
	NULL
};

#define REQ(f, ty) { LS_F_##f, LS_V_##ty, true, LS_REF_NONE, LS_VOCAB_NONE }
#define OPT(f, ty) { LS_F_##f, LS_V_##ty, false, LS_REF_NONE, LS_VOCAB_NONE }
#define REQ_REF(f, ty, ref) { LS_F_##f, LS_V_##ty, true, LS_REF_##ref, LS_VOCAB_NONE }
#define OPT_REF(f, ty, ref) { LS_F_##f, LS_V_##ty, false, LS_REF_##ref, LS_VOCAB_NONE }
#define REQ_VOCAB(f, voc) { LS_F_##f, LS_V_STR, true, LS_REF_NONE, LS_VOCAB_##voc }
#define OPT_VOCAB(f, voc) { LS_F_##f, LS_V_STR, false, LS_REF_NONE, LS_VOCAB_##voc }
#define EVENT_FIELDS REQ(ID, UINT), REQ(T, TIME), REQ_REF(S, UINT, STREAM)
#define API_ATTRS OPT_REF(REF_STREAM, UINT, STREAM), OPT_REF(WAIT_STREAM, UINT, STREAM), OPT(CUDA_EVENT, UINT), \
	OPT(RESULT, INT), OPT(CORR, UINT), OPT(BYTES, UINT)
#define MESSAGE_FIELDS REQ_REF(PEER, UINT, PROCESS), REQ(TAG, INT), \
	REQ_REF(COMM, UINT, COMM), OPT(BYTES, UINT), OPT(REQ, UINT)
#define KIND(k, cls, ...) [LS_K_##k] = { LS_C_##cls, \
	{ __VA_ARGS__ }, \
	sizeof((struct ls_field_spec[]){ __VA_ARGS__ }) / sizeof(struct ls_field_spec) }

const struct ls_kind_spec ls_kind_specs[LS_K__COUNT] = {
	[LS_K_UNKNOWN] = { LS_C_UNKNOWN, { { 0 } }, 0 },
	KIND(HEADER, HEADER, REQ(MAJOR, UINT), REQ(MINOR, UINT),
	     REQ(PRODUCER, STR), REQ_VOCAB(CLOCK, CLOCK), OPT(SOURCE, STR),
	     OPT(EPOCH, INT), OPT(LENGTH, UINT), OPT(STAGES, STAGES)),
	KIND(PROCESS, DEF, REQ(ID, UINT), REQ(NAME, STR), OPT(RANK, UINT)),
	KIND(STREAM, DEF, REQ(ID, UINT), REQ_REF(PROCESS, UINT, PROCESS),
	     REQ(NAME, STR), REQ_VOCAB(TYPE, STREAM_TYPE), OPT(DEVICE, UINT),
	     OPT(NATIVE, UINT), OPT(NULL_STREAM, BOOL), OPT(CONTEXT, STR), OPT(LOCATION, UINT)),
	KIND(REGION, DEF, REQ(ID, UINT), REQ(NAME, STR), REQ_VOCAB(ROLE, ROLE),
	     OPT(PARADIGM, STR), OPT_VOCAB(DIR, DIR)),
	KIND(COMM, DEF, REQ(ID, UINT), REQ_REF(MEMBERS, UINTS, PROCESS),
	     OPT(NAME, STR), OPT(PARADIGM, STR), OPT_REF(STREAMS, UINTS, STREAM)),
	KIND(COUNTER, DEF, REQ(ID, UINT), REQ(NAME, STR), OPT(UNIT, STR)),
	KIND(ENTER, EVENT, EVENT_FIELDS, REQ_REF(R, UINT, REGION), API_ATTRS),
	KIND(LEAVE, EVENT, EVENT_FIELDS, REQ_REF(R, UINT, REGION), API_ATTRS),
	KIND(SEND, EVENT, EVENT_FIELDS, MESSAGE_FIELDS),
	KIND(SEND_DONE, EVENT, EVENT_FIELDS, REQ(REQ, UINT)),
	KIND(RECV, EVENT, EVENT_FIELDS, MESSAGE_FIELDS),
	KIND(RECV_POST, EVENT, EVENT_FIELDS, REQ(REQ, UINT)),
	KIND(REQ_TEST, EVENT, EVENT_FIELDS, REQ(REQ, UINT)),
	KIND(REQ_CANCEL, EVENT, EVENT_FIELDS, REQ(REQ, UINT)),
	KIND(COLL_BEGIN, EVENT, EVENT_FIELDS),
	KIND(COLL_END, EVENT, EVENT_FIELDS, REQ_REF(COMM, UINT, COMM),
	     OPT_REF(ROOT, UINT, PROCESS), OPT(SENT, UINT), OPT(RECVD, UINT),
	     OPT(OP, STR)),
	KIND(FORK, EVENT, EVENT_FIELDS, OPT(THREADS, UINT)),
	KIND(JOIN, EVENT, EVENT_FIELDS),
	KIND(TEAM_BEGIN, EVENT, EVENT_FIELDS),
	KIND(TEAM_END, EVENT, EVENT_FIELDS),
	KIND(LOCK_ACQUIRE, EVENT, EVENT_FIELDS, REQ(LOCK, UINT)),
	KIND(LOCK_RELEASE, EVENT, EVENT_FIELDS, REQ(LOCK, UINT)),
	KIND(MEASURE, EVENT, EVENT_FIELDS, REQ(ON, BOOL)),
	KIND(SAMPLE, EVENT, EVENT_FIELDS, REQ_REF(COUNTER, UINT, COUNTER),
	     REQ(VAL, NUM)),
	KIND(EDGE, DERIVED, REQ(FROM, ID), REQ(TO, ID), REQ_VOCAB(TYPE, EDGE)),
	KIND(INSTANCE, DERIVED, REQ(ACTS, UINTS), OPT_REF(COMM, UINT, COMM),
	     OPT_REF(ROOT, UINT, PROCESS)),
	KIND(WAIT, DERIVED, REQ(AT, ID), REQ(T, TIME), REQ(DUR, DUR),
	     REQ_VOCAB(PATTERN, PATTERN), REQ_REF(S, UINT, STREAM),
	     OPT(CAUSE, ID), OPT_REF(R, UINT, REGION)),
	KIND(IDLE, DERIVED, REQ(AT, ID), REQ(T, TIME), REQ(DUR, DUR),
	     REQ_VOCAB(PATTERN, PATTERN), REQ_REF(S, UINT, STREAM), OPT(CAUSE, ID),
	     OPT_REF(R, UINT, REGION)),
	KIND(BLAME, DERIVED, REQ(TO, ID), REQ_REF(R, UINT, REGION), REQ(NS, DUR),
	     REQ_VOCAB(PATTERN, PATTERN), REQ(WAIT, ID),
	     OPT_REF(S, UINT, STREAM)),
	KIND(CRIT, DERIVED, REQ_REF(S, UINT, STREAM), REQ(T, TIME), REQ(DUR, DUR),
	     OPT(ACT, ID), OPT_REF(R, UINT, REGION)),
	KIND(PATH_BLAME, DERIVED, REQ(ACT, ID), REQ_REF(R, UINT, REGION), REQ(NS, DUR),
	     OPT_REF(S, UINT, STREAM), OPT(IDLE, BOOL)),
	KIND(RATING, DERIVED, REQ(REGION, UINT), REQ(NAME, STR),
	     REQ(CALLS, UINT), REQ(EXCL, UINT), REQ(CP, UINT),
	     REQ(CP_SHARE, NUM), REQ(BLAME, UINT), REQ(BLAME_SHARE, NUM),
	     REQ(RATING, NUM), OPT(BLAME_BY, MAP), OPT(IDLE, UINT), OPT(IDLE_SHARE, NUM),
	     OPT(IDLE_BY, MAP), OPT(CP_BLAME, UINT), OPT(CP_IDLE, UINT)),
	KIND(WAIT_SUMMARY, DERIVED, REQ_VOCAB(PATTERN, PATTERN),
	     REQ(COUNT, UINT), REQ(NS, UINT), OPT_REF(PROCESS, UINT, PROCESS),
	     OPT(MIN, UINT), OPT(MAX, UINT), OPT(MOST, UINT)),
	KIND(RUN_SUMMARY, DERIVED, REQ(RUNTIME, UINT), REQ(CP, UINT), REQ(BLAME, UINT),
	     REQ(WAITING, UINT), OPT(IDLE, UINT), OPT(CP_BLAME, UINT), OPT(CP_HOST_OUTSIDE, UINT),
	     OPT(CP_GPU_BETWEEN, UINT), OPT(PROCESSES, UINT), OPT(HOST_THREADS, UINT), OPT(GPU_STREAMS, UINT)),
	KIND(GPU_SUMMARY, DERIVED, OPT(PROCESS, UINT), OPT(NAME, STR), REQ(BUSY, UINT),
	     REQ(KERNELS, UINT), REQ(KERNEL, UINT), REQ(COPIES, UINT), REQ(COPY, UINT),
	     REQ(COPY_KERNEL, UINT), REQ(KERNEL_KERNEL, UINT), REQ(STARTUPS, UINT),
	     REQ(STARTUP, UINT)),
	KIND(RATING_DIFF, DERIVED, REQ(NAME, STR), REQ(CP_A, UINT), REQ(CP_B, UINT),
	     REQ(BLAME_A, UINT), REQ(BLAME_B, UINT), REQ(RATING_A, NUM),
	     REQ(RATING_B, NUM)),
	KIND(PROJECTION, DERIVED, REQ(SPEC, STR), REQ(BEFORE, UINT),
	     REQ(AFTER, UINT)),
	[LS_K_TRAILER] = { LS_C_TRAILER, { { 0 } }, 0 },
};

/*
 * Open-addressing tables from name to index, filled once at load time
 * (before main, so threads never race on them). Sizes are powers of two
 * at least four times the entry count.
 */
#define TABLE_SIZE 512

struct name_table {
	int16_t slot[TABLE_SIZE];	/* index + 1; 0 = empty */
	uint16_t len[TABLE_SIZE];	/* the length of the name in each slot */
};

static struct name_table fields_by_name, kinds_by_name, roles_by_name, patterns_by_name;

/*
 * Keys and kinds of at most 15 bytes are found by one multiply on their
 * encoding packed into two words, without a loop over their bytes: this is
 * on the path of every field of every record.
 */
struct ls_short_table ls_short_fields, ls_short_kinds, ls_short_patterns;
uint64_t ls_short_mask[2][LS_SHORT_MAX + 1];
uint8_t ls_field_keys[LS_F__COUNT][16];
uint8_t ls_field_key_len[LS_F__COUNT];
uint8_t ls_kind_fields[LS_K__COUNT][16];
uint8_t ls_kind_field_len[LS_K__COUNT];
uint8_t ls_pattern_fields[LS_P__COUNT][32];
uint8_t ls_pattern_field_len[LS_P__COUNT];

/* Place the names in t; false if two share a slot and probing is off. */
static bool short_place(struct ls_short_table *t, const char *const *names,
			int first, int count, bool probe)
{
	for (int i = first; i < count; i++) {
		size_t n = strlen(names[i]);
		uint8_t fixstr[1 + LS_SHORT_MAX];
		struct ls_short_name k;
		uint32_t h;

		if (n > LS_SHORT_MAX)
			continue;
		fixstr[0] = (uint8_t)(0xa0 | n);
		memcpy(fixstr + 1, names[i], n);
		k = ls_short_name(fixstr, fixstr + 1 + n);
		for (h = ls_short_hash(t, k); t->slot[h].name.lo; h = (h + 1) & (LS_SHORT_SIZE - 1))
			if (!probe)
				return false;
		t->slot[h].name = k;
		t->slot[h].index = (int16_t)i;
	}
	return true;
}

/*
 * Fill t with the names, by the first multiplier of a fixed sequence that
 * gives each its own slot (so that a known name is found at the first
 * probe), else by the last with probing.
 */
static void short_fill(struct ls_short_table *t, const char *const *names,
		       int first, int count)
{
	uint64_t mul = UINT64_C(0x9e3779b97f4a7c15);

	for (int tries = 0; tries < 4096; tries++, mul += UINT64_C(0x632be59bd9b4e01a)) {
		memset(t, 0, sizeof(*t));
		t->mul = mul;
		if (short_place(t, names, first, count, false))
			return;
	}
	memset(t, 0, sizeof(*t));
	t->mul = mul;
	short_place(t, names, first, count, true);
}

static inline uint32_t hash(const char *s, uint32_t n)
{
	uint32_t h = 2166136261u;

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

static void table_fill(struct name_table *t, const char *const *names,
		       int first, int count)
{
	for (int i = first; i < count; i++) {
		uint32_t h = hash(names[i], (uint32_t)strlen(names[i]));

		while (t->slot[h & (TABLE_SIZE - 1)])
			h++;
		t->slot[h & (TABLE_SIZE - 1)] = (int16_t)(i + 1);
		t->len[h & (TABLE_SIZE - 1)] = (uint16_t)strlen(names[i]);
	}
}

static inline bool name_eq(const char *name, const char *s, uint32_t n)
{
	return strlen(name) == n && memcmp(name, s, n) == 0;
}

static inline int table_find(const struct name_table *t,
			     const char *const *names, const char *s,
			     uint32_t n)
{
	for (uint32_t h = hash(s, n);; h++) {
		int i = t->slot[h & (TABLE_SIZE - 1)] - 1;

		if (i < 0)
			return -1;
		if (t->len[h & (TABLE_SIZE - 1)] == n && memcmp(names[i], s, n) == 0)
			return i;
	}
}

/*
 * The field key: value, both fixstrs, into out (room bytes, zero-padded);
 * its length. A value too long for the room is cut.
 */
static uint8_t encode_field(uint8_t *out, size_t room, const char *key, const char *value)
{
	size_t k = strlen(key), n = strlen(value);

	if (2 + k + n > room)
		n = room - 2 - k;
	out[0] = (uint8_t)(0xa0 | k);
	memcpy(out + 1, key, k);
	out[1 + k] = (uint8_t)(0xa0 | n);
	memcpy(out + 2 + k, value, n);
	return (uint8_t)(2 + k + n);
}

__attribute__((constructor)) static void schema_init(void)
{
	table_fill(&fields_by_name, field_names, 0, LS_F__COUNT);
	table_fill(&kinds_by_name, kind_names, 1, LS_K__COUNT);
	table_fill(&roles_by_name, role_names, 1, LS_R__COUNT);
	table_fill(&patterns_by_name, patterns, 0, LS_P__COUNT);
	for (int n = 0; n <= LS_SHORT_MAX; n++) {
		int bytes = 1 + n;	/* the first byte, then the name */

		ls_short_mask[0][n] = bytes >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * bytes)) - 1;
		ls_short_mask[1][n] = bytes <= 8 ? 0 :
				      bytes == 16 ? UINT64_MAX : (UINT64_C(1) << (8 * (bytes - 8))) - 1;
	}
	short_fill(&ls_short_fields, field_names, 0, LS_F__COUNT);
	for (int f = 0; f < LS_F__COUNT; f++) {
		const char *name = field_names[f];
		size_t n = strlen(name);

		/* names are short: 15 bytes at most, a test says so */
		ls_field_keys[f][0] = (uint8_t)(0xa0 | n);
		memcpy(&ls_field_keys[f][1], name, n < 15 ? n : 15);
		ls_field_key_len[f] = (uint8_t)(1 + (n < 15 ? n : 15));
	}
	short_fill(&ls_short_kinds, kind_names, 1, LS_K__COUNT);
	short_fill(&ls_short_patterns, patterns, 0, LS_P__COUNT);
	/* names are short enough to fit, a test says so */
	for (int k = 1; k < LS_K__COUNT; k++)
		ls_kind_field_len[k] = encode_field(ls_kind_fields[k], sizeof(ls_kind_fields[k]),
						    "k", kind_names[k]);
	for (int p = 0; p < LS_P__COUNT; p++)
		ls_pattern_field_len[p] = encode_field(ls_pattern_fields[p],
						       sizeof(ls_pattern_fields[p]),
						       "pattern", patterns[p]);
}

enum ls_field ls_field_lookup(const char *s, uint32_t n)
{
	return (enum ls_field)table_find(&fields_by_name, field_names, s, n);
}

const char *ls_field_name(enum ls_field f)
{
	return field_names[f];
}

enum ls_kind ls_kind_lookup(const char *s, uint32_t n)
{
	int i = table_find(&kinds_by_name, kind_names, s, n);

	return i < 0 ? LS_K_UNKNOWN : (enum ls_kind)i;
}

const char *ls_kind_name(enum ls_kind k)
{
	return kind_names[k];
}

/* The kinds of each class, made once: tools ask per record (what a stage reads). */
static uint64_t class_kinds[LS_C_TRAILER + 1];
static pthread_once_t classes_made = PTHREAD_ONCE_INIT;

static void make_classes(void)
{
	for (int k = 0; k < LS_K__COUNT; k++)
		class_kinds[ls_kind_specs[k].cls] |= UINT64_C(1) << k;
}

uint64_t ls_class_kinds(enum ls_class cls)
{
	pthread_once(&classes_made, make_classes);
	return class_kinds[cls];
}

enum ls_role ls_role_lookup(const char *s, uint32_t n)
{
	int i = table_find(&roles_by_name, role_names, s, n);

	return i < 0 ? LS_R_UNKNOWN : (enum ls_role)i;
}

const char *ls_role_name(enum ls_role r)
{
	return role_names[r];
}

enum ls_role_group ls_role_group(enum ls_role r)
{
	return (enum ls_role_group)role_groups[r];
}

const char *ls_edge_name(enum ls_edge e)
{
	return edge_types[e];
}

enum ls_pattern ls_pattern_lookup(const char *s, uint32_t n)
{
	int p = table_find(&patterns_by_name, patterns, s, n);

	return p < 0 ? LS_P__COUNT : (enum ls_pattern)p;
}

enum ls_pattern ls_pattern_at(const uint8_t *p, const uint8_t *end)
{
	int i;

	if ((*p & 0xf0) == 0xa0)	/* up to 15 bytes: a word or two compared */
		i = ls_short_find(&ls_short_patterns, ls_short_name(p, end));
	else if ((*p & 0xe0) == 0xa0)
		i = table_find(&patterns_by_name, patterns, (const char *)p + 1, *p & 0x1f);
	else
		i = -1;
	return i < 0 ? LS_P__COUNT : (enum ls_pattern)i;
}

const char *ls_pattern_name(enum ls_pattern p)
{
	return patterns[p];
}

/* The index of s[0..n) in a NULL-ended list, or -1. */
static int list_index(const char *const *list, const char *s, uint32_t n)
{
	for (int i = 0; list[i]; i++)
		if (name_eq(list[i], s, n))
			return i;
	return -1;
}

static bool list_has(const char *const *list, const char *s, uint32_t n)
{
	return list_index(list, s, n) >= 0;
}

enum ls_stream_type ls_stream_type_lookup(const char *s, uint32_t n)
{
	int i = list_index(stream_types, s, n);

	return i < 0 ? LS_ST__COUNT : (enum ls_stream_type)i;
}

enum ls_copy_dir ls_copy_dir_lookup(const char *s, uint32_t n)
{
	int i = list_index(dirs, s, n);

	return i < 0 ? LS_CD__COUNT : (enum ls_copy_dir)i;
}

bool ls_vocab_has(enum ls_vocab vocab, const char *s, uint32_t n)
{
	switch (vocab) {
	case LS_VOCAB_NONE:
		return true;
	case LS_VOCAB_ROLE:
		return ls_role_lookup(s, n) != LS_R_UNKNOWN;
	case LS_VOCAB_STREAM_TYPE:
		return list_has(stream_types, s, n);
	case LS_VOCAB_DIR:
		return list_has(dirs, s, n);
	case LS_VOCAB_EDGE:
		return ls_edge_lookup(s, n) != LS_E__COUNT;
	case LS_VOCAB_PATTERN:
		return ls_pattern_lookup(s, n) != LS_P__COUNT;
	case LS_VOCAB_CLOCK:
		return list_has(clocks, s, n);
	}
	return false;
}
