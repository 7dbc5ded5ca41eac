/* The rules of docs/stream.md, applied to one record after another. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "error.h"
#include "header.h"
#include "utf8.h"

static const char *const ref_names[] = {
	[LS_REF_NONE] = "", [LS_REF_PROCESS] = "process",
	[LS_REF_STREAM] = "stream", [LS_REF_REGION] = "region",
	[LS_REF_COMM] = "comm", [LS_REF_COUNTER] = "counter",
	[LS_REF_EVENT] = "event",
};

static const char *const type_names[] = {
	[LS_V_UINT] = "a non-negative integer", [LS_V_INT] = "an integer",
	[LS_V_NUM] = "a number", [LS_V_STR] = "a string",
	[LS_V_BOOL] = "a boolean",
	[LS_V_UINTS] = "an array of non-negative integers",
	[LS_V_ID] = "an event id", [LS_V_MAP] = "a map",
	[LS_V_TIME] = "a time in [-2^62, 2^62) ns", [LS_V_DUR] = "a duration in [0, 2^63) ns",
	[LS_V_STAGES] = "a list of stages",
};

/* Definition kinds and the namespace their ids live in. */
static enum ls_ref def_namespace(enum ls_kind k)
{
	switch (k) {
	case LS_K_PROCESS: return LS_REF_PROCESS;
	case LS_K_STREAM: return LS_REF_STREAM;
	case LS_K_REGION: return LS_REF_REGION;
	case LS_K_COMM: return LS_REF_COMM;
	case LS_K_COUNTER: return LS_REF_COUNTER;
	default: return LS_REF_NONE;
	}
}

void ls_checker_init(struct ls_checker *c)
{
	memset(c, 0, sizeof(*c));
}

void ls_checker_release(struct ls_checker *c)
{
	for (size_t i = 0; i < sizeof(c->ids) / sizeof(c->ids[0]); i++)
		ls_idset_release(&c->ids[i]);
	ls_idset_release(&c->items);
}

static int problem(char *msg, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int problem(char *msg, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, n, fmt, ap);
	va_end(ap);
	return LS_ERR_SYNTAX;
}

static bool defined(const struct ls_checker *c, enum ls_ref ref, uint64_t id)
{
	return ref == LS_REF_NONE || ls_idset_has(&c->ids[ref], id);
}

/*
 * Field fs of rec against its spec: present if required, of its type and
 * vocabulary. Returns 1 if present, 0 if absent, or LS_ERR_SYNTAX.
 */
static int check_value(const struct ls_record *rec, const struct ls_field_spec *fs,
		       struct mp_item *it, char *msg, size_t n)
{
	bool ok;

	if (ls_get(rec, fs->field, it) < 0) {
		if (!fs->required)
			return 0;
		return problem(msg, n, "%s without required field \"%s\"", ls_kind_name(rec->kind),
			       ls_field_name(fs->field));
	}
	switch (fs->type) {
	case LS_V_UINT:
	case LS_V_ID:
		ok = it->type == MP_UINT;
		break;
	case LS_V_INT:
		ok = it->type == MP_INT || (it->type == MP_UINT && it->v.u <= INT64_MAX);
		break;
	case LS_V_TIME:
		ok = (it->type == MP_INT && ls_time_ok(it->v.i)) ||
		     (it->type == MP_UINT && it->v.u <= (uint64_t)LS_TIME_MAX);
		break;
	case LS_V_DUR:
		ok = it->type == MP_UINT && it->v.u <= LS_DUR_MAX;
		break;
	case LS_V_NUM:
		ok = it->type == MP_INT || it->type == MP_UINT || it->type == MP_FLOAT;
		break;
	case LS_V_STR:
		ok = it->type == MP_STR;
		break;
	case LS_V_BOOL:
		ok = it->type == MP_BOOL;
		break;
	case LS_V_MAP:
		ok = it->type == MP_MAP;
		break;
	case LS_V_UINTS:
		ok = it->type == MP_ARRAY;
		break;
	case LS_V_STAGES: {
		const char *why;

		if (ls_header_check_stages(rec, &why) < 0)
			return problem(msg, n, "%s", why);
		return 1;
	}
	default:
		ok = false;
	}
	if (!ok && it->type == MP_FLOAT && fs->type != LS_V_NUM)
		/* "t":1e18 in NDJSON: in the range, but a JSON number with an exponent is a float */
		return problem(msg, n, "%s field \"%s\" is %.17g, a number with a fraction or an exponent: "
			       "give it as %s written in digits", ls_kind_name(rec->kind), ls_field_name(fs->field),
			       it->v.f, type_names[fs->type]);
	if (!ok)
		return problem(msg, n, "%s field \"%s\" is not %s", ls_kind_name(rec->kind),
			       ls_field_name(fs->field),
			       type_names[fs->type]);
	if (it->type == MP_STR) {
		if (!ls_utf8_valid(it->v.s.p, it->v.s.n))
			return problem(msg, n, "%s field \"%s\" is not valid UTF-8",
				       ls_kind_name(rec->kind), ls_field_name(fs->field));
		if (!ls_vocab_has(fs->vocab, it->v.s.p, it->v.s.n))
			return problem(msg, n, "%s field \"%s\" has unknown value \"%.*s\"",
				       ls_kind_name(rec->kind), ls_field_name(fs->field), (int)it->v.s.n, it->v.s.p);
	}
	if (fs->type == LS_V_UINTS) {
		const uint8_t *p = rec->raw + rec->off[fs->field], *end = rec->raw + rec->len;
		uint32_t count = it->v.n;
		struct mp_item item;

		p += mp_head(p, end, &item);
		for (uint32_t i = 0; i < count; i++) {
			p += mp_head(p, end, &item);
			if (item.type != MP_UINT)
				return problem(msg, n, "%s field \"%s\" is not %s", ls_kind_name(rec->kind),
					       ls_field_name(fs->field), type_names[fs->type]);
		}
	}
	return 1;
}

/* A span (wait, crit: t and dur) ends where a time may lie. */
static int check_span(const struct ls_record *rec, char *msg, size_t n)
{
	int64_t t;
	uint64_t dur;

	if (!ls_has(rec, LS_F_DUR) || ls_get_i64(rec, LS_F_T, &t) < 0 || ls_get_u64(rec, LS_F_DUR, &dur) < 0 ||
	    dur <= (uint64_t)(LS_TIME_MAX - t))
		return 0;
	return problem(msg, n, "%s from t=%" PRId64 " for %" PRIu64 " ns ends outside the "
		       "times a stream may hold ([-2^62, 2^62) ns)", ls_kind_name(rec->kind), t, dur);
}

/*
 * The items of list field fs of rec (checked: count unsigned integers), in
 * order: each defined, where c is given (nothing looked up otherwise), and
 * each named once (seen: the items so far, cleared first). 0, LS_ERR_SYNTAX
 * with the first item that is not, or LS_ERR_NOMEM.
 */
static int check_list(const struct ls_checker *c, const struct ls_record *rec,
		      const struct ls_field_spec *fs, uint32_t count, struct ls_idset *seen,
		      char *msg, size_t n)
{
	const uint8_t *p = rec->raw + rec->off[fs->field], *end = rec->raw + rec->len;
	const char *kind = ls_kind_name(rec->kind), *name = ls_field_name(fs->field);
	struct mp_item it;
	int rc;

	/* a list names each thing once: a writer sizes its tables by that */
	ls_idset_clear(seen);
	p += mp_head(p, end, &it);
	for (uint32_t i = 0; i < count; i++) {
		p += mp_head(p, end, &it);
		if (c && !defined(c, fs->ref, it.v.u))
			return problem(msg, n, "%s field \"%s\" names undefined %s %" PRIu64,
				       kind, name, ref_names[fs->ref], it.v.u);
		if ((rc = ls_idset_add(seen, it.v.u)) < 0)
			return rc;
		if (rc == 0)
			return problem(msg, n, "%s field \"%s\" lists %" PRIu64 " twice", kind, name, it.v.u);
	}
	return 0;
}

/* Per kind, as present-masks: the fields its spec names, and those it requires; where each is in it. */
static struct {
	uint64_t named[LS_PRESENT_WORDS], required[LS_PRESENT_WORDS];
	int8_t at[LS_F__COUNT];
} shapes[LS_K__COUNT];

__attribute__((constructor)) static void shapes_init(void)
{
	_Static_assert(LS_MAX_SPEC_FIELDS <= INT8_MAX, "a spec's index fits in at[]");
	for (int k = 0; k < LS_K__COUNT; k++) {
		const struct ls_kind_spec *spec = ls_kind_spec((enum ls_kind)k);

		memset(shapes[k].at, -1, sizeof(shapes[k].at));
		for (int i = 0; spec && i < spec->nfields; i++) {
			enum ls_field f = spec->fields[i].field;

			shapes[k].named[f / 64] |= UINT64_C(1) << (f % 64);
			if (spec->fields[i].required)
				shapes[k].required[f / 64] |= UINT64_C(1) << (f % 64);
			shapes[k].at[f] = (int8_t)i;
		}
	}
}

/*
 * Whether every field of spec is as ls_check_fields wants it by a look at
 * the first bytes of its value: the required ones present, the integer
 * ones integers in range. False where one is not, or where a field needs
 * the full check (strings, lists, ...): the stages check every event they
 * read, and this keeps that to a few loads each.
 */
static bool plainly_fine(const struct ls_record *rec, const struct ls_kind_spec *spec)
{
	const typeof(shapes[0]) *sh = &shapes[rec->kind];

	for (int w = 0; w < LS_PRESENT_WORDS; w++) {
		if ((rec->present[w] & sh->required[w]) != sh->required[w])
			return false;
		for (uint64_t bits = rec->present[w] & sh->named[w]; bits; bits &= bits - 1) {
			int f = w * 64 + __builtin_ctzll(bits);
			const struct ls_field_spec *fs = &spec->fields[sh->at[f]];
			const uint8_t *v = rec->raw + rec->off[f];
			uint64_t u;

			switch (fs->type) {
			case LS_V_UINT:
			case LS_V_ID:
				if (!ls_fast_uint(v, &u))
					return false;
				break;
			case LS_V_TIME:
			case LS_V_DUR:
				if (!ls_fast_uint(v, &u) ||
				    u > (fs->type == LS_V_TIME ? (uint64_t)LS_TIME_MAX : LS_DUR_MAX))
					return false;	/* a negative time: the full check */
				break;
			case LS_V_INT:	/* a fixint, or an int or uint of 8 to 64 bits (past INT64_MAX: the full check) */
				if (!(v[0] <= 0x7f || v[0] >= 0xe0 || (v[0] >= 0xd0 && v[0] <= 0xd3) ||
				      (v[0] >= 0xcc && v[0] <= 0xce) || (v[0] == 0xcf && v[1] < 0x80)))
					return false;
				break;
			case LS_V_BOOL:
				if (v[0] != 0xc2 && v[0] != 0xc3)
					return false;
				break;
			case LS_V_STR:	/* a word of a vocabulary (ASCII: valid UTF-8) in a fixstr */
				if (fs->vocab == LS_VOCAB_PATTERN) {
					if (ls_pattern_at(v, rec->raw + rec->len) == LS_P__COUNT)
						return false;
				} else if (fs->vocab == LS_VOCAB_NONE || (v[0] & 0xe0) != 0xa0 ||
					   !ls_vocab_has(fs->vocab, (const char *)v + 1, v[0] & 0x1f)) {
					return false;
				}
				break;
			default:
				return false;
			}
		}
	}
	return true;
}

int ls_check_fields(const struct ls_record *rec, char *msg, size_t n)
{
	const struct ls_kind_spec *spec = ls_kind_spec(rec->kind);
	struct mp_item it;
	int rc;

	if (plainly_fine(rec, spec))
		return check_span(rec, msg, n);
	for (int i = 0; i < spec->nfields; i++) {
		const struct ls_field_spec *fs = &spec->fields[i];
		struct ls_idset seen = LS_IDSET_INIT;

		if ((rc = check_value(rec, fs, &it, msg, n)) == 1 && fs->type == LS_V_UINTS) {
			rc = check_list(NULL, rec, fs, it.v.n, &seen, msg, n);
			ls_idset_release(&seen);
		}
		if (rc < 0)
			return rc;
	}
	return check_span(rec, msg, n);
}

static int check_field(struct ls_checker *c, const struct ls_record *rec,
		       const struct ls_field_spec *fs, char *msg, size_t n)
{
	const char *kind = ls_kind_name(rec->kind);
	const char *name = ls_field_name(fs->field);
	struct mp_item it;
	int rc = check_value(rec, fs, &it, msg, n);

	if (rc <= 0)
		return rc;
	if (fs->type == LS_V_UINTS)
		return check_list(c, rec, fs, it.v.n, &c->items, msg, n);
	if (fs->type == LS_V_ID && !defined(c, LS_REF_EVENT, it.v.u))
		return problem(msg, n, "%s field \"%s\" points at event %" PRIu64
			       ", which is not earlier in the stream", kind, name, it.v.u);
	if (it.type == MP_UINT && !defined(c, fs->ref, it.v.u))
		return problem(msg, n, "%s field \"%s\" names undefined %s %" PRIu64,
			       kind, name, ref_names[fs->ref], it.v.u);
	return 0;
}

static int check_event_order(struct ls_checker *c, const struct ls_record *rec,
			     char *msg, size_t n)
{
	int64_t t;
	uint64_t s;

	ls_get_i64(rec, LS_F_T, &t);
	ls_get_u64(rec, LS_F_S, &s);
	if (c->have_last && (t < c->last_t || (t == c->last_t && s < c->last_s)))
		return problem(msg, n, "%s at t=%" PRId64 " on stream %" PRIu64
			       " comes after t=%" PRId64 " on stream %" PRIu64
			       " (events must be ordered by time, then stream)",
			       ls_kind_name(rec->kind), t, s, c->last_t, c->last_s);
	c->have_last = true;
	c->last_t = t;
	c->last_s = s;
	return 0;
}

int ls_check(struct ls_checker *c, const struct ls_record *rec, char *msg,
	     size_t n)
{
	const struct ls_kind_spec *spec = ls_kind_spec(rec->kind);
	enum ls_ref ns;
	uint64_t id;
	int rc;

	c->records++;
	if (c->records == 1 && rec->kind != LS_K_HEADER)
		return problem(msg, n, "stream does not start with a header");
	if (c->records > 1 && rec->kind == LS_K_HEADER)
		return problem(msg, n, "header is not the first record");
	if (!ls_utf8_valid(rec->kind_str, rec->kind_len))
		return problem(msg, n, "kind is not valid UTF-8");
	for (int i = 0; i < spec->nfields; i++)
		if ((rc = check_field(c, rec, &spec->fields[i], msg, n)) < 0)
			return rc;
	if ((rc = check_span(rec, msg, n)) < 0)
		return rc;
	if (spec->cls == LS_C_EVENT) {
		if ((rc = check_event_order(c, rec, msg, n)) < 0)
			return rc;
		ns = LS_REF_EVENT;
	} else {
		ns = def_namespace(rec->kind);
	}
	if (ns == LS_REF_NONE)
		return 0;
	ls_get_u64(rec, LS_F_ID, &id);
	rc = ls_idset_add(&c->ids[ns], id);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return problem(msg, n, "%s id %" PRIu64 " is not unique",
			       ls_kind_name(rec->kind), id);
	return 0;
}
