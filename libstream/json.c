/*
 * NDJSON <-> msgpack. Parsing tokenizes first, so that each container's
 * element count is known before its header is encoded.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enc.h"
#include "error.h"
#include "json.h"
#include "mp.h"

enum tok_type { T_OBJ, T_ARR, T_STR, T_NUM, T_TRUE, T_FALSE, T_NULL };

struct ls_json_token {
	enum tok_type type;
	uint32_t count;		/* elements (T_ARR) or members (T_OBJ) */
	size_t start, len;	/* T_STR: inside the quotes; T_NUM: digits */
	bool escaped;		/* T_STR holds a backslash */
};

struct parser {
	struct ls_json *js;
	const char *s;
	size_t n, pos;
	const char *why;
};

static void skip_ws(struct parser *ps)
{
	while (ps->pos < ps->n && (ps->s[ps->pos] == ' ' || ps->s[ps->pos] == '\t' ||
				   ps->s[ps->pos] == '\n' || ps->s[ps->pos] == '\r'))
		ps->pos++;
}

static long new_token(struct parser *ps, enum tok_type type)
{
	struct ls_json *js = ps->js;

	if (js->ntok == js->cap) {
		size_t cap = js->cap ? 2 * js->cap : 64;
		struct ls_json_token *t = realloc(js->tok, cap * sizeof(*t));

		if (!t) {
			ps->why = "out of memory";
			return LS_ERR_NOMEM;
		}
		js->tok = t;
		js->cap = cap;
	}
	memset(&js->tok[js->ntok], 0, sizeof(js->tok[0]));
	js->tok[js->ntok].type = type;
	js->tok[js->ntok].start = ps->pos;
	return (long)js->ntok++;
}

static int fail(struct parser *ps, const char *why)
{
	ps->why = why;
	return LS_ERR_SYNTAX;
}

static int parse_value(struct parser *ps, int depth);

static int parse_string(struct parser *ps)
{
	long t = new_token(ps, T_STR);

	if (t < 0)
		return (int)t;
	ps->pos++; /* opening quote */
	ps->js->tok[t].start = ps->pos;
	while (ps->pos < ps->n) {
		unsigned char c = (unsigned char)ps->s[ps->pos];

		if (c == '"') {
			ps->js->tok[t].len = ps->pos - ps->js->tok[t].start;
			ps->pos++;
			return 0;
		}
		if (c < 0x20)
			return fail(ps, "control character in string");
		if (c == '\\') {
			ps->js->tok[t].escaped = true;
			ps->pos++;
			if (ps->pos >= ps->n)
				break;
			if (ps->s[ps->pos] == '\0' || !strchr("\"\\/bfnrtu", ps->s[ps->pos]))
				return fail(ps, "invalid escape in string");
		}
		ps->pos++;
	}
	return fail(ps, "unterminated string");
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int parse_number(struct parser *ps)
{
	long t = new_token(ps, T_NUM);
	const char *s = ps->s;
	size_t p = ps->pos;

	if (t < 0)
		return (int)t;
	if (p < ps->n && s[p] == '-')
		p++;
	if (p < ps->n && s[p] == '0')
		p++;
	else if (p < ps->n && is_digit(s[p]))
		while (p < ps->n && is_digit(s[p]))
			p++;
	else
		return fail(ps, "invalid number");
	if (p < ps->n && s[p] == '.') {
		p++;
		if (p >= ps->n || !is_digit(s[p]))
			return fail(ps, "invalid number");
		while (p < ps->n && is_digit(s[p]))
			p++;
	}
	if (p < ps->n && (s[p] == 'e' || s[p] == 'E')) {
		p++;
		if (p < ps->n && (s[p] == '+' || s[p] == '-'))
			p++;
		if (p >= ps->n || !is_digit(s[p]))
			return fail(ps, "invalid number");
		while (p < ps->n && is_digit(s[p]))
			p++;
	}
	ps->js->tok[t].len = p - ps->pos;
	ps->pos = p;
	return 0;
}

static int parse_literal(struct parser *ps, const char *word, enum tok_type type)
{
	size_t n = strlen(word);
	long t;

	if (ps->n - ps->pos < n || memcmp(ps->s + ps->pos, word, n) != 0)
		return fail(ps, "invalid literal");
	t = new_token(ps, type);
	if (t < 0)
		return (int)t;
	ps->pos += n;
	return 0;
}

static int parse_container(struct parser *ps, int depth, bool object)
{
	char close = object ? '}' : ']';
	long t = new_token(ps, object ? T_OBJ : T_ARR);
	uint32_t count = 0;
	int rc;

	if (t < 0)
		return (int)t;
	if (depth >= MP_MAX_DEPTH)
		return fail(ps, "nesting too deep");
	ps->pos++;
	skip_ws(ps);
	if (ps->pos < ps->n && ps->s[ps->pos] == close) {
		ps->pos++;
		return 0;
	}
	for (;;) {
		skip_ws(ps);
		if (object) {
			if (ps->pos >= ps->n || ps->s[ps->pos] != '"')
				return fail(ps, "expected a string key");
			if ((rc = parse_string(ps)) < 0)
				return rc;
			skip_ws(ps);
			if (ps->pos >= ps->n || ps->s[ps->pos] != ':')
				return fail(ps, "expected ':'");
			ps->pos++;
		}
		if ((rc = parse_value(ps, depth + 1)) < 0)
			return rc;
		if (count == UINT32_MAX)
			return fail(ps, "too many elements");
		count++;
		skip_ws(ps);
		if (ps->pos < ps->n && ps->s[ps->pos] == ',') {
			ps->pos++;
			continue;
		}
		if (ps->pos < ps->n && ps->s[ps->pos] == close) {
			ps->pos++;
			ps->js->tok[t].count = count;
			return 0;
		}
		return fail(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int parse_value(struct parser *ps, int depth)
{
	skip_ws(ps);
	if (ps->pos >= ps->n)
		return fail(ps, "unexpected end of input");
	switch (ps->s[ps->pos]) {
	case '{':
		return parse_container(ps, depth, true);
	case '[':
		return parse_container(ps, depth, false);
	case '"':
		return parse_string(ps);
	case 't':
		return parse_literal(ps, "true", T_TRUE);
	case 'f':
		return parse_literal(ps, "false", T_FALSE);
	case 'n':
		return parse_literal(ps, "null", T_NULL);
	default:
		return parse_number(ps);
	}
}

static int hex4(const char *p, uint32_t *out)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static void put_utf8(struct ls_buf *b, uint32_t cp)
{
	uint8_t u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (uint8_t)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (uint8_t)(0xc0 | cp >> 6);
		u[1] = (uint8_t)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (uint8_t)(0xe0 | cp >> 12);
		u[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (uint8_t)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (uint8_t)(0xf0 | cp >> 18);
		u[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
		u[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
		u[3] = (uint8_t)(0x80 | (cp & 0x3f));
		n = 4;
	}
	ls_buf_add(b, u, n);
}

/* Decode the escapes of a string token into js->scratch. */
static int unescape(struct parser *ps, const struct ls_json_token *t)
{
	struct ls_buf *b = &ps->js->scratch;
	const char *s = ps->s + t->start, *end = s + t->len;

	b->len = 0;
	if (ls_buf_grow(b, t->len) < 0)
		return LS_ERR_NOMEM;
	while (s < end) {
		uint32_t cp, lo;
		char c = *s++;

		if (c != '\\') {
			b->p[b->len++] = (uint8_t)c;
			continue;
		}
		c = *s++;
		switch (c) {
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case 'u':
			if (end - s < 4 || hex4(s, &cp) < 0)
				goto bad;
			s += 4;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (end - s < 6 || s[0] != '\\' || s[1] != 'u' ||
				    hex4(s + 2, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff)
					goto bad;
				s += 6;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				goto bad;
			}
			/* room: a \uXXXX escape (6 bytes) yields at most 3 */
			put_utf8(b, cp);
			continue;
		default: /* '"', '\\', '/' stand for themselves */
			break;
		}
		b->p[b->len++] = (uint8_t)c;
	}
	return 0;
bad:
	ps->pos = t->start;
	return fail(ps, "invalid \\u escape in string");
}

static int pack_number(struct parser *ps, struct ls_buf *out,
		       const struct ls_json_token *t)
{
	char num[400];
	const char *s = ps->s + t->start;
	bool integral = !memchr(s, '.', t->len) && !memchr(s, 'e', t->len) &&
			!memchr(s, 'E', t->len);
	char *end;

	if (t->len >= sizeof(num))
		goto range;
	memcpy(num, s, t->len);
	num[t->len] = '\0';
	errno = 0;
	if (integral && num[0] == '-') {
		long long v = strtoll(num, &end, 10);

		if (errno)
			goto range;
		return ls_enc_int(out, v);
	}
	if (integral) {
		unsigned long long v = strtoull(num, &end, 10);

		if (errno)
			goto range;
		return ls_enc_uint(out, v);
	}
	{
		double d = strtod(num, &end);

		if (errno == ERANGE && isinf(d))
			goto range;
		return ls_enc_double(out, d);
	}
range:
	ps->pos = t->start;
	return fail(ps, "number out of range");
}

int ls_json_parse(struct ls_json *js, const char *s, size_t n,
		  struct ls_buf *out, const char **why, size_t *where)
{
	struct parser ps = { js, s, n, 0, NULL };
	int rc;

	js->ntok = 0;
	rc = parse_value(&ps, 0);
	if (rc == 0) {
		skip_ws(&ps);
		if (ps.pos < n)
			rc = fail(&ps, "trailing characters after the value");
	}
	for (size_t i = 0; rc == 0 && i < js->ntok; i++) {
		const struct ls_json_token *t = &js->tok[i];

		switch (t->type) {
		case T_OBJ:
			rc = ls_enc_map(out, t->count);
			break;
		case T_ARR:
			rc = ls_enc_array(out, t->count);
			break;
		case T_STR:
			if (t->escaped) {
				if ((rc = unescape(&ps, t)) < 0)
					break;
				rc = ls_enc_str(out, (const char *)js->scratch.p,
						js->scratch.len);
			} else {
				rc = ls_enc_str(out, s + t->start, t->len);
			}
			break;
		case T_NUM:
			rc = pack_number(&ps, out, t);
			break;
		case T_TRUE:
			rc = ls_enc_bool(out, true);
			break;
		case T_FALSE:
			rc = ls_enc_bool(out, false);
			break;
		case T_NULL:
			rc = ls_enc_nil(out);
			break;
		}
	}
	if (rc < 0 && ps.why == NULL) {
		ps.why = "out of memory";
		rc = LS_ERR_NOMEM;
	}
	*why = ps.why;
	*where = ps.pos;
	return rc;
}

void ls_json_release(struct ls_json *js)
{
	free(js->tok);
	js->tok = NULL;
	js->ntok = js->cap = 0;
	ls_buf_release(&js->scratch);
}

static int print_string(const char *s, uint32_t n, struct ls_buf *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t run = 0;

	if (ls_buf_add(out, "\"", 1) < 0)
		return LS_ERR_NOMEM;
	for (uint32_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[6] = { '\\', 0, 0, 0, 0, 0 };
		size_t elen = 2;

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		if (ls_buf_add(out, s + run, i - run) < 0)
			return LS_ERR_NOMEM;
		run = i + 1;
		switch (c) {
		case '"': esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		case '\b': esc[1] = 'b'; break;
		case '\f': esc[1] = 'f'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		default:
			memcpy(esc + 1, "u00", 3);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			elen = 6;
		}
		if (ls_buf_add(out, esc, elen) < 0)
			return LS_ERR_NOMEM;
	}
	if (ls_buf_add(out, s + run, n - run) < 0 || ls_buf_add(out, "\"", 1) < 0)
		return LS_ERR_NOMEM;
	return 0;
}

/* The shortest of %.15g..%.17g that reads back as the same double. */
static int print_double(double d, struct ls_buf *out)
{
	char num[40];
	int len = 0;

	if (!isfinite(d))
		return LS_ERR_JSON;
	for (int prec = 15; prec <= 17; prec++) {
		len = snprintf(num, sizeof(num) - 2, "%.*g", prec, d);
		if (strtod(num, NULL) == d)
			break;
	}
	if (!strpbrk(num, ".e")) {
		memcpy(num + len, ".0", 2);
		len += 2;
	}
	return ls_buf_add(out, num, (size_t)len);
}

static long print_value(const uint8_t *p, const uint8_t *end,
			struct ls_buf *out, int depth)
{
	struct mp_item it;
	long n = mp_head(p, end, &it), m;
	char num[32];
	int len, rc = 0;

	if (n <= 0 || depth > MP_MAX_DEPTH)
		return LS_ERR_SYNTAX;
	switch (it.type) {
	case MP_NIL:
		rc = ls_buf_add(out, "null", 4);
		break;
	case MP_BOOL:
		rc = it.v.b ? ls_buf_add(out, "true", 4) : ls_buf_add(out, "false", 5);
		break;
	case MP_UINT:
		len = snprintf(num, sizeof(num), "%" PRIu64, it.v.u);
		rc = ls_buf_add(out, num, (size_t)len);
		break;
	case MP_INT:
		len = snprintf(num, sizeof(num), "%" PRId64, it.v.i);
		rc = ls_buf_add(out, num, (size_t)len);
		break;
	case MP_FLOAT:
		rc = print_double(it.v.f, out);
		break;
	case MP_STR:
		rc = print_string(it.v.s.p, it.v.s.n, out);
		break;
	case MP_BIN:
	case MP_EXT:
		return LS_ERR_JSON;
	case MP_ARRAY:
	case MP_MAP:
		if (ls_buf_add(out, it.type == MP_MAP ? "{" : "[", 1) < 0)
			return LS_ERR_NOMEM;
		for (uint32_t i = 0; i < it.v.n; i++) {
			if (i > 0 && ls_buf_add(out, ",", 1) < 0)
				return LS_ERR_NOMEM;
			if (it.type == MP_MAP) {
				if (p + n >= end || (p[n] != 0xd9 && p[n] != 0xda &&
						     p[n] != 0xdb && (p[n] & 0xe0) != 0xa0))
					return p + n >= end ? LS_ERR_SYNTAX : LS_ERR_JSON;
				if ((m = print_value(p + n, end, out, depth + 1)) < 0)
					return m;
				n += m;
				if (ls_buf_add(out, ":", 1) < 0)
					return LS_ERR_NOMEM;
			}
			if ((m = print_value(p + n, end, out, depth + 1)) < 0)
				return m;
			n += m;
		}
		rc = ls_buf_add(out, it.type == MP_MAP ? "}" : "]", 1);
		break;
	}
	return rc < 0 ? rc : n;
}

int ls_json_print(const uint8_t *p, const uint8_t *end, struct ls_buf *out)
{
	long n = print_value(p, end, out, 0);

	return n < 0 ? (int)n : 0;
}
