/* Reading a Chrome trace-event JSON file as a stream (json.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"

#define CHUNK (1u << 20)

/* Apart from every LS_ERR_* a walk's fn may return. */
enum { CUT = KJ_ERROR - 1 };	/* the text ended inside a value */

static bool blank(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* --- sniffing --- */

static bool object_text(const uint8_t *p, size_t n)
{
	size_t i = 0;

	while (i < n && blank((char)p[i]))
		i++;
	if (i >= n || p[i++] != '{')
		return false;
	while (i < n && blank((char)p[i]))
		i++;
	if (i >= n || p[i] != '"')
		return false;
	/* a tr stream as NDJSON starts with its header's "k" */
	return !(n - i >= 4 && !memcmp(p + i, "\"k\"", 3));
}

bool kj_sniff(const uint8_t *head, size_t n)
{
	uint8_t text[1024];
	z_stream z;
	size_t got;

	if (n < 2 || head[0] != 0x1f || head[1] != 0x8b)
		return object_text(head, n);
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return false;
	z.next_in = (Bytef *)(uintptr_t)head;
	z.avail_in = (uInt)n;
	z.next_out = text;
	z.avail_out = sizeof(text);
	inflate(&z, Z_SYNC_FLUSH);
	got = sizeof(text) - z.avail_out;
	inflateEnd(&z);
	return object_text(text, got);
}

/* --- the buffer --- */

static int fail(struct kj *j, uint64_t at, const char *what)
{
	snprintf(j->err, j->errlen, "%s%sbyte %llu of its text: %s", j->label ? j->label : "", j->label ? ": " : "",
		 (unsigned long long)at, what);
	return KJ_ERROR;
}

int kj_open(struct kj *j, const char *path, const char *label, char *err, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	memset(j, 0, sizeof(*j));
	j->path = path;
	j->label = label;
	j->err = err;
	j->errlen = n;
	if (fd < 0 || !(j->gz = gzdopen(fd, "rb"))) {
		snprintf(err, n, "%s%s%s", label ? label : "", label ? ": " : "", strerror(fd < 0 ? errno : ENOMEM));
		if (fd >= 0)
			close(fd);
		return KJ_ERROR;
	}
	gzbuffer(j->gz, CHUNK);
	if (!(j->buf = malloc(CHUNK))) {
		snprintf(err, n, "%s%sout of memory", label ? label : "", label ? ": " : "");
		kj_close(j);
		return KJ_ERROR;
	}
	j->cap = CHUNK;
	return 0;
}

uint64_t kj_offset(struct kj *j)
{
	z_off_t at = gzoffset(j->gz);

	return at < 0 ? 0 : (uint64_t)at;
}

void kj_close(struct kj *j)
{
	if (j->gz)
		gzclose(j->gz);
	free(j->buf);
	j->gz = NULL;
	j->buf = NULL;
}

/* Make buf[at..at+k) hold k bytes of text where the file has them. Returns 0, CUT (it ends first) or KJ_ERROR. */
static int need(struct kj *j, size_t k)
{
	if (j->len - j->at >= k)
		return 0;
	if (j->at) {
		memmove(j->buf, j->buf + j->at, j->len - j->at);
		j->base += j->at;
		j->len -= j->at;
		j->at = 0;
	}
	if (k > j->cap) {
		size_t cap = j->cap;
		char *grown;

		while (cap < k)
			cap *= 2;
		if (!(grown = realloc(j->buf, cap)))
			return fail(j, j->base, "out of memory (a trace event larger than memory?)");
		j->buf = grown;
		j->cap = cap;
	}
	while (j->len < k && !j->eof) {
		int got = gzread(j->gz, j->buf + j->len, (unsigned)(j->cap - j->len > CHUNK ? CHUNK : j->cap - j->len));
		int zerr;

		if (got < 0) {
			const char *why = gzerror(j->gz, &zerr);

			if (zerr == Z_BUF_ERROR) {	/* a gzip file cut short */
				j->eof = true;
				break;
			}
			if (zerr == Z_DATA_ERROR) {	/* zlib's words, without the "<fd:N>: " it puts first */
				const char *own = strstr(why, ": ");

				snprintf(j->err, j->errlen, "%s%sgzip data damaged (%s), after %llu bytes of its text",
					 j->label ? j->label : "", j->label ? ": " : "", own ? own + 2 : why,
					 (unsigned long long)(j->base + j->len));
				return KJ_ERROR;
			}
			return fail(j, j->base + j->len, zerr == Z_ERRNO ? strerror(errno) : why);
		}
		if (got == 0)
			j->eof = true;
		j->len += (size_t)got;
	}
	return j->len >= k ? 0 : CUT;
}

/* The next byte that is not white space (left unread), or CUT / KJ_ERROR. */
static int peek(struct kj *j)
{
	int rc;

	for (;;) {
		if ((rc = need(j, 1)) < 0)
			return rc;
		if (!blank(j->buf[j->at]))
			return (uint8_t)j->buf[j->at];
		j->at++;
	}
}

/*
 * The length of the JSON value at buf[at] in *n, all of it brought into
 * buf. The value is only delimited here, checked when parsed.
 */
static int span(struct kj *j, size_t *n)
{
	size_t i = 0;
	int depth = 0, rc;
	bool str = false, esc = false;

	for (;; i++) {
		char c;

		if (j->at + i >= j->len && (rc = need(j, i + 1)) < 0) {
			if (rc == CUT && !str && depth == 0 && i > 0) {	/* a number at the end */
				*n = i;
				return 0;
			}
			return rc;
		}
		c = j->buf[j->at + i];
		if (str && !esc && c != '"' && c != '\\') {
			/* the rest of the string: to its next quote or backslash */
			const char *p = j->buf + j->at + i, *e = j->buf + j->len;

			while (p < e && *p != '"' && *p != '\\')
				p++;
			i = (size_t)(p - (j->buf + j->at)) - 1;
			continue;
		}
		if (str) {
			if (esc)
				esc = false;
			else if (c == '\\')
				esc = true;
			else if (c == '"' && (str = false, depth == 0)) {
				*n = i + 1;
				return 0;
			}
		} else if (c == '"') {
			str = true;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']' || (depth == 0 && (c == ',' || c == ':' || blank(c)))) {
			if (depth == 0) {
				*n = i;
				return i ? 0 : fail(j, j->base + j->at, "a value expected");
			}
			if (c != ',' && c != ':' && !blank(c) && --depth == 0) {
				*n = i + 1;
				return 0;
			}
		}
	}
}

/* --- parsing one value in memory --- */

struct kp {
	char *p, *e;
	const char *why;
};

static void skip_blank(struct kp *k)
{
	while (k->p < k->e && blank(*k->p))
		k->p++;
}

static bool bad(struct kp *k, const char *why)
{
	if (!k->why)
		k->why = why;
	return false;
}

/* The four hex digits at p as a number, or -1 if one is not a digit. */
static int hex4(const char *p)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static char *put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | cp >> 6);
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | cp >> 12);
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | cp >> 18);
		*o++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/* An escape at k->p (after the backslash) onto o; the new o, or NULL. */
static char *unescape(struct kp *k, char *o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *at;
	int cp, lo;

	if (k->p >= k->e)
		return NULL;
	if (*k->p != 'u') {
		if (!(at = strchr(from, *k->p)) || !*k->p)
			return NULL;
		k->p++;
		*o++ = to[at - from];
		return o;
	}
	if (k->e - k->p < 5 || (cp = hex4(k->p + 1)) < 0)
		return NULL;
	k->p += 5;
	if (cp >= 0xd800 && cp < 0xdc00 && k->e - k->p >= 6 && k->p[0] == '\\' && k->p[1] == 'u' &&
	    (lo = hex4(k->p + 2)) >= 0xdc00 && lo < 0xe000) {
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		k->p += 6;
	} else if (cp >= 0xd800 && cp < 0xe000) {
		cp = 0xfffd;	/* half a pair: no character UTF-8 can hold */
	}
	return put_utf8(o, (uint32_t)cp);
}

/* A string at k->p, unescaped in place and NUL-terminated. */
static bool string(struct kp *k, struct kstr *s)
{
	char *o;

	if (k->p >= k->e || *k->p != '"')
		return bad(k, "a string expected");
	o = ++k->p;
	s->p = o;
	while (k->p < k->e && *k->p != '"') {
		if ((uint8_t)*k->p < 0x20)
			return bad(k, "a control character in a string");
		if (*k->p == '\\') {
			k->p++;
			if (!(o = unescape(k, o)))
				return bad(k, "a bad escape in a string");
		} else {
			*o++ = *k->p++;
		}
	}
	if (k->p >= k->e)
		return bad(k, "a string without its end");
	k->p++;
	*o = '\0';
	s->n = (uint32_t)(o - s->p);
	return true;
}

static bool literal(struct kp *k, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(k->e - k->p) < n || memcmp(k->p, word, n))
		return bad(k, "a value expected");
	k->p += n;
	return true;
}

/* A number's text at k->p (checked when converted). */
static bool number(struct kp *k, const char **text, size_t *n)
{
	const char *s = k->p;

	while (k->p < k->e && ((*k->p >= '0' && *k->p <= '9') || *k->p == '.' || *k->p == '-' || *k->p == '+' ||
				*k->p == 'e' || *k->p == 'E'))
		k->p++;
	*text = s;
	*n = (size_t)(k->p - s);
	return *n ? true : bad(k, "a value expected");
}

static bool skip_value(struct kp *k, int depth);

/*
 * The object at k->p, its members one by one: fn(k, key, ctx) reads (or
 * skips) each value. False where it is malformed (k->why says how).
 */
static bool members(struct kp *k, bool (*fn)(struct kp *k, const struct kstr *key, void *ctx), void *ctx)
{
	struct kstr key;

	if (k->p >= k->e || *k->p != '{')
		return bad(k, "an object expected");
	k->p++;
	skip_blank(k);
	if (k->p < k->e && *k->p == '}') {
		k->p++;
		return true;
	}
	for (;;) {
		skip_blank(k);
		if (!string(k, &key))
			return false;
		skip_blank(k);
		if (k->p >= k->e || *k->p++ != ':')
			return bad(k, "':' expected after a key");
		skip_blank(k);
		if (!fn(k, &key, ctx))
			return false;
		skip_blank(k);
		if (k->p < k->e && *k->p == ',') {
			k->p++;
			continue;
		}
		if (k->p < k->e && *k->p == '}') {
			k->p++;
			return true;
		}
		return bad(k, "',' or '}' expected in an object");
	}
}

/* A member skipped (ctx: the object's depth). */
static bool skip_member(struct kp *k, const struct kstr *key, void *depth)
{
	(void)key;
	return skip_value(k, *(int *)depth + 1);
}

/* An array whose elements are skipped. */
static bool skip_elements(struct kp *k, int depth)
{
	k->p++;
	skip_blank(k);
	if (k->p < k->e && *k->p == ']') {
		k->p++;
		return true;
	}
	for (;;) {
		skip_blank(k);
		if (!skip_value(k, depth + 1))
			return false;
		skip_blank(k);
		if (k->p < k->e && *k->p == ',') {
			k->p++;
			continue;
		}
		if (k->p < k->e && *k->p == ']') {
			k->p++;
			return true;
		}
		return bad(k, "',' or ']' expected in an array");
	}
}

static bool skip_value(struct kp *k, int depth)
{
	struct kstr s;
	const char *t;
	size_t n;

	if (depth > 64)
		return bad(k, "values nested more than 64 deep");
	if (k->p >= k->e)
		return bad(k, "a value expected");
	switch (*k->p) {
	case '{': return members(k, skip_member, &depth);
	case '[': return skip_elements(k, depth);
	case '"': return string(k, &s);
	case 't': return literal(k, "true");
	case 'f': return literal(k, "false");
	case 'n': return literal(k, "null");
	default: return number(k, &t, &n);
	}
}

bool kj_decimal(const char *text, size_t n, int scale, int64_t *out)
{
	const char *p = text, *e = text + n;
	uint64_t mant = 0;
	int exp10 = scale, digits = 0;
	bool neg = false, any = false, round_up = false;
	long ex = 0;

	if (p < e && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (int frac = 0; frac < 2; frac++) {
		for (; p < e && *p >= '0' && *p <= '9'; p++) {
			any = true;
			if (digits < 19) {
				mant = mant * 10 + (uint64_t)(*p - '0');
				digits += mant > 0;
				exp10 -= frac;
			} else {
				if (!frac)
					exp10++;
				if (digits++ == 19)
					round_up = *p >= '5';
			}
		}
		if (frac == 0 && p < e && *p == '.')
			p++;
		else
			break;
	}
	if (!any)
		return false;
	if (p < e && (*p == 'e' || *p == 'E')) {
		bool eneg = false;

		if (++p < e && (*p == '-' || *p == '+'))
			eneg = *p++ == '-';
		if (p >= e)
			return false;
		for (; p < e && *p >= '0' && *p <= '9'; p++)
			if ((ex = ex * 10 + (*p - '0')) > 1000)
				return false;
		exp10 += (int)(eneg ? -ex : ex);
	}
	if (p != e)
		return false;
	mant += round_up;
	for (; exp10 > 0; exp10--) {
		if (mant > (uint64_t)INT64_MAX / 10)
			return false;
		mant *= 10;
	}
	if (exp10 < 0) {	/* mant / 10^-exp10, rounded half up */
		uint64_t div = 1;

		for (; exp10 < 0 && div <= UINT64_MAX / 10 / 10; exp10++)
			div *= 10;
		mant = exp10 < 0 ? 0 : mant / div + (mant % div >= div / 2);
	}
	if (mant > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? -(int64_t)mant : (int64_t)mant;
	return true;
}

/* --- one trace event --- */

static bool is_n(const struct kstr *s, const char *lit, size_t n)
{
	return s->n == n && !memcmp(s->p, lit, n);
}

/* Whether s is the string literal lit (its length known when compiled). */
#define is(s, lit) is_n((s), (lit), sizeof(lit) - 1)

/* An integer value (a number, or a string holding one) into *v, its bit into has. */
static bool integer(struct kp *k, int scale, int64_t *v, uint32_t *has, uint32_t bit)
{
	const char *t;
	size_t n;

	if (k->p < k->e && *k->p != '-' && (*k->p < '0' || *k->p > '9'))
		return skip_value(k, 1);	/* "Spans", null: not an integer, not used */
	if (!number(k, &t, &n))
		return false;
	if (!kj_decimal(t, n, scale, v))
		return bad(k, "a number out of range");
	*has |= bit;
	return true;
}

/* A member of "args": those the reader uses into the event (to). */
static bool arg(struct kp *k, const struct kstr *key, void *to)
{
#define KEY(s) s, sizeof(s) - 1
	static const struct {
		const char *key;
		size_t n, at;
		uint32_t bit;
	} ints[] = {
		{ KEY("correlation"), offsetof(struct kev, corr), KA_CORR },
		{ KEY("stream"), offsetof(struct kev, stream), KA_STREAM },
		{ KEY("device"), offsetof(struct kev, device), KA_DEVICE },
		{ KEY("wait_on_stream"), offsetof(struct kev, wait_stream), KA_WAIT_STREAM },
		{ KEY("wait_on_cuda_event_record_corr_id"), offsetof(struct kev, wait_record), KA_WAIT_RECORD },
		{ KEY("wait_on_cuda_event_id"), offsetof(struct kev, wait_event), KA_WAIT_EVENT },
		{ KEY("bytes"), offsetof(struct kev, bytes), KA_BYTES },
		{ KEY("Seq"), offsetof(struct kev, seq), KA_SEQ },
		{ KEY("In msg nelems"), offsetof(struct kev, in_nelems), KA_IN_NELEMS },
		{ KEY("Out msg nelems"), offsetof(struct kev, out_nelems), KA_OUT_NELEMS },
		{ KEY("Rank"), offsetof(struct kev, rank), KA_RANK },
	};
	static const struct {
		const char *key;
		size_t n, at;
	} strs[] = {
		{ KEY("cuda_sync_kind"), offsetof(struct kev, sync_kind) },
		{ KEY("Collective name"), offsetof(struct kev, coll) },
		{ KEY("Process Group Name"), offsetof(struct kev, pg) },
		{ KEY("Process Group Ranks"), offsetof(struct kev, pg_ranks) },
		{ KEY("dtype"), offsetof(struct kev, dtype) },
		{ KEY("name"), offsetof(struct kev, arg_name) },
	};
#undef KEY
	struct kev *ev = to;

	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		if (is_n(key, ints[i].key, ints[i].n))
			return integer(k, 0, (int64_t *)((char *)ev + ints[i].at), &ev->has, ints[i].bit);
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (is_n(key, strs[i].key, strs[i].n) && k->p < k->e && *k->p == '"')
			return string(k, (struct kstr *)((char *)ev + strs[i].at));
	return skip_value(k, 2);
}

/* A member of a trace event: those the reader uses into it (to). */
static bool member(struct kp *k, const struct kstr *key, void *to)
{
	struct kev *ev = to;
	struct kstr s;

	if (is(key, "ph")) {
		if (k->p < k->e && *k->p != '"')
			return skip_value(k, 1);
		if (!string(k, &s))
			return false;
		ev->ph = s.n ? s.p[0] : 0;
		return true;
	}
	if (is(key, "cat") && k->p < k->e && *k->p == '"')
		return string(k, &ev->cat);
	if (is(key, "name") && k->p < k->e && *k->p == '"')
		return string(k, &ev->name);
	if (is(key, "pid"))
		return integer(k, 0, &ev->pid, &ev->has, KA_PID);
	if (is(key, "tid"))
		return integer(k, 0, &ev->tid, &ev->has, KA_TID);
	if (is(key, "ts"))
		return integer(k, 3, &ev->ts, &ev->has, KA_TS);
	if (is(key, "dur"))
		return integer(k, 3, &ev->dur, &ev->has, KA_DUR);
	if (is(key, "args"))
		return k->p < k->e && *k->p == '{' ? members(k, arg, ev) : skip_value(k, 1);
	return skip_value(k, 1);
}

/* One element of traceEvents, text[0..n), into *ev. */
static bool event(char *text, size_t n, struct kev *ev, const char **why)
{
	struct kp k = { text, text + n, NULL };

	memset(ev, 0, sizeof(*ev));
	ev->cat = ev->name = (struct kstr){ "", 0 };
	if (*k.p != '{') {
		*why = "an element of traceEvents that is not an object";
		return false;
	}
	if (members(&k, member, ev))
		return true;
	*why = k.why;
	return false;
}

/* --- the file --- */

/* buf[at..at+n) parsed by what, then consumed. */
static int parse_at(struct kj *j, size_t n, bool (*what)(struct kp *k, struct kj_top *top), struct kj_top *top)
{
	struct kp k = { j->buf + j->at, j->buf + j->at + n, NULL };

	if (!what(&k, top))
		return fail(j, j->base + j->at + (uint64_t)(k.p - (j->buf + j->at)), k.why);
	j->at += n;
	return 0;
}

/* A member of distributedInfo: its rank and world size into the top (to). */
static bool distributed_member(struct kp *k, const struct kstr *key, void *to)
{
	struct kj_top *top = to;
	uint32_t has = 0;

	if (is(key, "rank")) {
		if (!integer(k, 0, &top->rank, &has, KA_RANK))
			return false;
		top->have_rank = has & KA_RANK;
		return true;
	}
	return is(key, "world_size") ? integer(k, 0, &top->world, &has, KA_SEQ) : skip_value(k, 1);
}

static bool distributed(struct kp *k, struct kj_top *top)
{
	return *k->p == '{' ? members(k, distributed_member, top) : skip_value(k, 0);
}

static bool base_time(struct kp *k, struct kj_top *top)
{
	uint32_t has = 0;

	return integer(k, 0, &top->base, &has, KA_TS);
}

static bool skip_top(struct kp *k, struct kj_top *top)
{
	(void)top;
	return skip_value(k, 0);
}

/* The elements of traceEvents, from its '[' on. */
static int events(struct kj *j, struct kj_top *top, int (*fn)(void *ctx, const struct kev *ev), void *ctx)
{
	struct kev ev;
	const char *why = NULL;
	size_t n;
	int rc, c;

	if ((c = peek(j)) != '[')
		return c == CUT ? CUT : c < 0 ? c : fail(j, j->base + j->at, "traceEvents is not an array");
	j->at++;
	for (bool first = true;; first = false) {
		if ((c = peek(j)) < 0)
			return c;
		if (c == ']') {
			j->at++;
			return 0;
		}
		if (!first) {
			if (c != ',')
				return fail(j, j->base + j->at, "',' or ']' expected in traceEvents");
			j->at++;
			if ((c = peek(j)) < 0)
				return c;
		}
		if ((rc = span(j, &n)) < 0)
			return rc;
		if (!event(j->buf + j->at, n, &ev, &why))
			return fail(j, j->base + j->at, why ? why : "a malformed trace event");
		j->at += n;
		top->events++;
		if ((rc = fn(ctx, &ev)) != 0)
			return rc;
	}
}

int kj_walk(struct kj *j, struct kj_top *top, int (*fn)(void *ctx, const struct kev *ev), void *ctx)
{
	struct kp k;
	struct kstr key;
	size_t n;
	int c, rc;

	memset(top, 0, sizeof(*top));
	top->world = -1;
	if ((c = peek(j)) != '{')
		return c == KJ_ERROR ? c : fail(j, j->base + j->at, "not a JSON object");
	j->at++;
	for (bool first = true;; first = false) {
		if ((c = peek(j)) == '}')
			break;
		if (!first && c == ',') {
			j->at++;
			c = peek(j);
		} else if (!first) {
			return c == KJ_ERROR ? c : fail(j, j->base + j->at, "',' or '}' expected in the top object");
		}
		if (c < 0)
			return c == KJ_ERROR ? c : fail(j, j->base + j->len, "the text ends inside the top object");
		if ((rc = span(j, &n)) < 0)
			return rc == KJ_ERROR ? rc : fail(j, j->base + j->len, "the text ends inside the top object");
		k = (struct kp){ j->buf + j->at, j->buf + j->at + n, NULL };
		if (!string(&k, &key))
			return fail(j, j->base + j->at, "a key expected in the top object");
		j->at += n;
		if ((c = peek(j)) != ':')
			return c == KJ_ERROR ? c : fail(j, j->base + j->at, "':' expected after a key");
		j->at++;
		if ((c = peek(j)) < 0)
			return c == KJ_ERROR ? c : fail(j, j->base + j->len, "the text ends inside the top object");
		if (is(&key, "traceEvents")) {
			top->has_events = true;
			if ((rc = events(j, top, fn, ctx)) == CUT) {
				top->cut = true;
				top->cut_at = j->base + j->len;
				return 0;
			}
			if (rc != 0)
				return rc;
			continue;
		}
		/* key points into buf, which span may move: decide first */
		bool (*what)(struct kp *, struct kj_top *) =
			is(&key, "distributedInfo") ? distributed : is(&key, "baseTimeNanoseconds") ? base_time : skip_top;

		if ((rc = span(j, &n)) < 0)
			return rc == KJ_ERROR ? rc : fail(j, j->base + j->len, "the text ends inside the top object");
		if ((rc = parse_at(j, n, what, top)) < 0)
			return rc;
	}
	j->at++;
	if ((c = peek(j)) != CUT)
		return c == KJ_ERROR ? c : fail(j, j->base + j->at, "text after the top object");
	return top->has_events ? 0 : fail(j, 0, "no traceEvents: a JSON object, not a Chrome trace-event file");
}
