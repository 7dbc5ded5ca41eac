/*
 * Unit tests of libstream, run by tests/0001-libstream-unit.bats:
 *   ls-unit GROUP     run one group of checks, print failures, exit 1 if any
 *   ls-unit kinds     list the record kinds of the schema, one a line
 *   ls-unit roles     list the region roles of the schema, one a line
 *   ls-unit role-table  list the API name table: "name<TAB>role" a line
 *   ls-unit build-miscount  build a record of fewer fields than said
 * msgpack-c's own unpacker serves as the independent judge of our bytes.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <msgpack.h>

#include "../../libstream/xsort.h"
#include "../../libstream/enc.h"
#include "../../libstream/error.h"
#include "../../libstream/front.h"
#include "../../libstream/shard.h"
#include "../../libstream/idmap.h"
#include "../../libstream/idset.h"
#include "../../libstream/json.h"
#include "../../libstream/pipe.h"
#include "../../libstream/packed.h"
#include "../../libstream/record.h"
#include "../../libstream/roles.h"
#include "../../libstream/writer.h"
#include "check.h"

/* JSON text -> msgpack bytes in b (reset first); returns the rc. */
static int to_msgpack(const char *json, struct ls_buf *b)
{
	static struct ls_json js = LS_JSON_INIT;
	const char *why;
	size_t where;

	b->len = 0;
	return ls_json_parse(&js, json, strlen(json), b, &why, &where);
}

static void test_mp(void)
{
	static const struct { const char *hex; enum mp_type type; long len; } cases[] = {
		{ "00", MP_UINT, 1 }, { "7f", MP_UINT, 1 }, { "ff", MP_INT, 1 },
		{ "cc80", MP_UINT, 2 }, { "cd0100", MP_UINT, 3 },
		{ "ce00010000", MP_UINT, 5 }, { "cf0000000100000000", MP_UINT, 9 },
		{ "d080", MP_INT, 2 }, { "d1ff00", MP_INT, 3 },
		{ "d2ffff0000", MP_INT, 5 }, { "d3ffffffff00000000", MP_INT, 9 },
		{ "c0", MP_NIL, 1 }, { "c3", MP_BOOL, 1 }, { "ca3f800000", MP_FLOAT, 5 },
		{ "cb3ff0000000000000", MP_FLOAT, 9 }, { "a3616263", MP_STR, 4 },
		{ "d903616263", MP_STR, 5 }, { "c40201ff", MP_BIN, 4 },
		{ "d40102", MP_EXT, 3 }, { "92", MP_ARRAY, 1 }, { "de0001", MP_MAP, 3 },
	};
	struct mp_item it;
	uint8_t b[16];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = strlen(cases[i].hex) / 2;

		for (size_t j = 0; j < n; j++)
			sscanf(cases[i].hex + 2 * j, "%2hhx", &b[j]);
		CHECK(mp_head(b, b + n, &it) == cases[i].len);
		CHECK(it.type == cases[i].type);
		/* every proper prefix of a value's head is "needs more input" */
		for (size_t j = 0; j < (size_t)cases[i].len && it.type != MP_ARRAY &&
		     it.type != MP_MAP; j++)
			CHECK(mp_head(b, b + j, &it) == 0);
	}
	b[0] = 0xd3;
	memcpy(b + 1, "\x80\0\0\0\0\0\0\0", 8);
	CHECK(mp_head(b, b + 9, &it) == 9 && it.type == MP_INT && it.v.i == INT64_MIN);
	b[0] = 0xc1;
	CHECK(mp_head(b, b + 1, &it) == -1);
	/* [[[...]]] deeper than MP_MAX_DEPTH is refused, not recursed into */
	{
		uint8_t deep[MP_MAX_DEPTH + 2];

		memset(deep, 0x91, sizeof(deep) - 1);
		deep[sizeof(deep) - 1] = 0x00;
		CHECK(mp_skip(deep, deep + sizeof(deep)) == -1);
		CHECK(mp_skip(deep + 2, deep + sizeof(deep)) == MP_MAX_DEPTH);
	}
}

static void test_record(void)
{
	struct ls_buf b = LS_BUF_INIT;
	struct ls_record rec;
	const char *why, *s;
	uint64_t u;
	int64_t i;
	double d;
	uint32_t n;
	bool flag;

	CHECK(to_msgpack("{\"k\":\"enter\",\"id\":300,\"t\":-5,\"s\":70000,\"r\":1,"
			 "\"x\":{\"a\":[1,2]},\"name\":\"é\",\"null\":true,\"val\":2.5}", &b) == 0);
	CHECK(ls_record_parse(&rec, b.p, b.p + b.len, 0, &why) == (long)b.len);
	CHECK(rec.kind == LS_K_ENTER && rec.nfields == 9);
	CHECK(ls_get_u64(&rec, LS_F_ID, &u) == 0 && u == 300);
	CHECK(ls_get_i64(&rec, LS_F_T, &i) == 0 && i == -5);
	CHECK(ls_get_u64(&rec, LS_F_T, &u) == LS_ERR_RANGE);
	CHECK(ls_get_u64(&rec, LS_F_S, &u) == 0 && u == 70000);
	CHECK(ls_get_str(&rec, LS_F_NAME, &s, &n) == 0 && n == 2 && memcmp(s, "é", 2) == 0);
	CHECK(ls_get_bool(&rec, LS_F_NULL_STREAM, &flag) == 0 && flag);
	CHECK(ls_get_f64(&rec, LS_F_VAL, &d) == 0 && d == 2.5);
	CHECK(ls_get_u64(&rec, LS_F_NAME, &u) == LS_ERR_TYPE);
	CHECK(ls_get_u64(&rec, LS_F_PEER, &u) == LS_ERR_ABSENT);
	/* every proper prefix of the record is "needs more input" */
	for (size_t j = 0; j < b.len; j++)
		CHECK(ls_record_parse(&rec, b.p, b.p + j, 0, &why) == 0);

	/* non-canonical but valid encodings read the same */
	{
		static const uint8_t odd[] = {
			0x83, 0xd9, 0x01, 'k', 0xa5, 'l', 'e', 'a', 'v', 'e',
			0xa2, 'i', 'd', 0xcf, 0, 0, 0, 0, 0, 0, 0, 7,
			0xa1, 't', 0xd3, 0, 0, 0, 0, 0, 0, 0x01, 0,
		};

		CHECK(ls_record_parse(&rec, odd, odd + sizeof(odd), 0, &why) == sizeof(odd));
		CHECK(rec.kind == LS_K_LEAVE);
		CHECK(ls_get_u64(&rec, LS_F_ID, &u) == 0 && u == 7);
		CHECK(ls_get_i64(&rec, LS_F_T, &i) == 0 && i == 256);
	}
	CHECK(to_msgpack("{\"k\":\"x\",\"t\":1,\"t\":2}", &b) == 0);
	CHECK(ls_record_parse(&rec, b.p, b.p + b.len, 0, &why) == LS_ERR_SYNTAX);
	CHECK(to_msgpack("{\"id\":1}", &b) == 0);
	CHECK(ls_record_parse(&rec, b.p, b.p + b.len, 0, &why) == LS_ERR_SYNTAX);
	CHECK(to_msgpack("{\"k\":5}", &b) == 0);
	CHECK(ls_record_parse(&rec, b.p, b.p + b.len, 0, &why) == LS_ERR_SYNTAX);
	CHECK(to_msgpack("[1]", &b) == 0);
	CHECK(ls_record_parse(&rec, b.p, b.p + b.len, 0, &why) == LS_ERR_SYNTAX);
	/* "t\0" and "\0" are not "t": the one- and two-byte key table must not alias */
	CHECK(to_msgpack("{\"k\":\"x\",\"t\\u0000\":5,\"\\u0000\":6,\"i\\u0000\":7}", &b) == 0);
	CHECK(ls_record_parse(&rec, b.p, b.p + b.len, 0, &why) == (long)b.len);
	CHECK(!ls_has(&rec, LS_F_T) && !ls_has(&rec, LS_F_ID) && rec.nfields == 4);
	/*
	 * Keys and values more than 32 bytes before the input's end are read
	 * without checks: the same record followed by more input reads the same,
	 * and is still "needs more input" wherever it is cut.
	 */
	{
		static const char *const long_records[] = {
			"{\"k\":\"enter\",\"id\":123456,\"t\":99999999999,\"s\":3,\"r\":7,"
			"\"ref_stream\":5,\"cuda_event\":140737488355328,\"pattern\":\"late_sender\","
			"\"name\":\"a string longer than thirty-one bytes\",\"x\":[1,2,{\"y\":3}],"
			"\"producer\":\"x\",\"my_own_field_name_here\":-1,\"t\\u0000\":5,\"\\u0000\":6}",
			"{\"k\":\"team_begin\",\"name\":\"a string longer than thirty-one bytes\",\"s\":1}",
		};
		struct ls_record cut;

		for (size_t r = 0; r < sizeof(long_records) / sizeof(long_records[0]); r++) {
			uint8_t more[512];

			CHECK(to_msgpack(long_records[r], &b) == 0 && b.len + 48 <= sizeof(more));
			memcpy(more, b.p, b.len);
			memset(more + b.len, 0xc0, 48);
			CHECK(ls_record_parse(&cut, b.p, b.p + b.len, 0, &why) == (long)b.len);
			CHECK(ls_record_parse(&rec, more, more + b.len + 48, 0, &why) == (long)b.len);
			CHECK(rec.kind == cut.kind && rec.nfields == cut.nfields);
			for (int f = 0; f < LS_F__COUNT; f++)
				CHECK(ls_has(&rec, (enum ls_field)f) == ls_has(&cut, (enum ls_field)f) &&
				      (!ls_has(&rec, (enum ls_field)f) ||
				       (rec.off[f] == cut.off[f] && rec.key[f] == cut.key[f])));
			for (size_t j = 0; j < b.len; j++) {
				uint8_t *exact = malloc(j + 1);	/* no room after it to read */

				memcpy(exact, b.p, j);
				CHECK(ls_record_parse(&rec, exact, exact + j, 0, &why) == 0);
				free(exact);
			}
		}
		CHECK(ls_record_parse(&rec, b.p, b.p + b.len, 0, &why) == (long)b.len);
		CHECK(rec.kind == LS_K_TEAM_BEGIN && ls_has(&rec, LS_F_NAME) && ls_has(&rec, LS_F_S));
		/* a key twice, where it is read unchecked */
		CHECK(to_msgpack("{\"k\":\"enter\",\"name\":\"a string longer than thirty-one bytes\","
				 "\"t\":1,\"t\":2,\"name\":\"another string longer than thirty-one bytes\"}", &b) == 0);
		CHECK(ls_record_parse(&rec, b.p, b.p + b.len, 0, &why) == LS_ERR_SYNTAX);
		CHECK(strcmp(why, "record has a key twice") == 0);
	}
	/* an unknown kind is a record all the same */
	CHECK(to_msgpack("{\"k\":\"my_own_kind_with_a_long_name\"}", &b) == 0);
	CHECK(ls_record_parse(&rec, b.p, b.p + b.len, 0, &why) == (long)b.len);
	CHECK(rec.kind == LS_K_UNKNOWN && rec.kind_len == 28);
	/* the field of a key's raw bytes is key and value */
	{
		const uint8_t *p;
		size_t len;

		CHECK(to_msgpack("{\"k\":\"send\",\"peer\":[1,{\"a\":2}],\"tag\":3}", &b) == 0);
		CHECK(ls_record_parse(&rec, b.p, b.p + b.len, 0, &why) == (long)b.len);
		CHECK(ls_get_raw_field(&rec, LS_F_PEER, &p, &len) == 0);
		CHECK(len == 1 + 4 + 1 + 1 + 1 + 2 + 1);
		CHECK(memcmp(p, "\xa4peer\x92\x01\x81\xa1" "a\x02", len) == 0);
	}
	/* a record rebuilt from copied fields and a new one, as a stage extends one */
	{
		struct ls_writer w;
		struct ls_record out;

		CHECK(to_msgpack("{\"k\":\"leave\",\"id\":70000,\"t\":-3,\"peer\":[1,\"x\"]}", &b) == 0);
		CHECK(ls_record_parse(&rec, b.p, b.p + b.len, 0, &why) == (long)b.len);
		ls_writer_init(&w, -1, LS_FMT_MSGPACK);
		ls_build_begin(&w, 4);
		ls_put_field(&w, &rec, LS_F_K);
		ls_put_field(&w, &rec, LS_F_PEER);
		ls_put_field(&w, &rec, LS_F_ID);
		ls_put_u64(&w, LS_F_CORR, 9);
		CHECK(ls_build_end(&w) == 0);
		CHECK(ls_record_parse(&out, w.out.p, w.out.p + w.out.len, 0, &why) == (long)w.out.len);
		CHECK(out.kind == LS_K_LEAVE && out.nfields == 4);
		CHECK(ls_get_u64(&out, LS_F_ID, &u) == 0 && u == 70000);
		CHECK(ls_get_u64(&out, LS_F_CORR, &u) == 0 && u == 9);
		CHECK(!ls_has(&out, LS_F_T));
		CHECK(memcmp(out.raw + out.key[LS_F_PEER], "\xa4peer\x92\x01\xa1x", 9) == 0);
		ls_writer_release(&w);
	}
	ls_buf_release(&b);
}

/* Our msgpack for json must be what msgpack-c itself packs for the value. */
static void same_as_msgpack_c(const char *json)
{
	struct ls_buf b = LS_BUF_INIT;
	msgpack_unpacked up;
	msgpack_sbuffer sb;
	msgpack_packer pk;
	size_t off = 0;

	CHECK(to_msgpack(json, &b) == 0);
	msgpack_unpacked_init(&up);
	CHECK(msgpack_unpack_next(&up, (const char *)b.p, b.len, &off) ==
	      MSGPACK_UNPACK_SUCCESS);
	CHECK(off == b.len);
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_object(&pk, up.data);
	CHECK(sb.size == b.len && memcmp(sb.data, b.p, b.len) == 0);
	msgpack_sbuffer_destroy(&sb);
	msgpack_unpacked_destroy(&up);
	ls_buf_release(&b);
}

/* json -> msgpack -> json gives back want (json itself when want is NULL). */
static void round_trip(const char *json, const char *want)
{
	struct ls_buf b = LS_BUF_INIT, out = LS_BUF_INIT;

	CHECK(to_msgpack(json, &b) == 0);
	CHECK(ls_json_print(b.p, b.p + b.len, &out) == 0);
	ls_buf_add(&out, "", 1);
	if (strcmp((char *)out.p, want ? want : json) != 0) {
		failures++;
		fprintf(stderr, "round trip of %s gave %s\n", json, (char *)out.p);
	}
	same_as_msgpack_c(json);
	ls_buf_release(&b);
	ls_buf_release(&out);
}

static void bad_json(const char *json, const char *want_why)
{
	struct ls_json js = LS_JSON_INIT;
	struct ls_buf b = LS_BUF_INIT;
	const char *why = NULL;
	size_t where;

	CHECK(ls_json_parse(&js, json, strlen(json), &b, &why, &where) == LS_ERR_SYNTAX);
	if (!why || strcmp(why, want_why) != 0) {
		failures++;
		fprintf(stderr, "%s: got \"%s\", want \"%s\"\n", json, why ? why : "", want_why);
	}
	ls_json_release(&js);
	ls_buf_release(&b);
}

static void test_json(void)
{
	struct ls_buf b = LS_BUF_INIT;

	round_trip("{\"k\":\"x\",\"a\":[1,-1,0,127,128,-32,-33,255,256,65535,65536]}", NULL);
	round_trip("{\"u\":18446744073709551615,\"i\":-9223372036854775808}", NULL);
	round_trip("{\"f\":[0.1,2.5,1e+300,-1.5e-07,100.0,0.30000000000000004]}", NULL);
	/* the edges of double: denormals, the largest, 2^53 + 1 (not a double) */
	round_trip("{\"f\":[5e-324,2.2250738585072014e-308,1.7976931348623157e+308,"
		   "9007199254740993.0,-2.5e-10]}",
		   "{\"f\":[4.94065645841247e-324,2.2250738585072014e-308,1.7976931348623157e+308,"
		   "9007199254740992.0,-2.5e-10]}");
	round_trip("{\"f\":[4.94065645841247e-324,9007199254740992.0]}", NULL);
	round_trip("{\"s\":\"q\\\"b\\\\n\\nt\\tc\\u0001\\u001f é 𝄞\"}", NULL);
	round_trip("{\"s\":\"\\u00e9\\ud834\\udd1e\\/\"}", "{\"s\":\"é𝄞/\"}");
	round_trip(" { \"a\" : { } , \"b\" : [ ] , \"c\" : null , \"d\" : true , \"e\" : false } ",
		   "{\"a\":{},\"b\":[],\"c\":null,\"d\":true,\"e\":false}");
	round_trip("{\"long\":\"" "0123456789012345678901234567890123456789" "\"}", NULL);
	round_trip("{\"n\":-0}", "{\"n\":0}");
	round_trip("{\"n\":1E2}", "{\"n\":100.0}");

	bad_json("{\"a\":1,}", "expected a string key");
	bad_json("{\"a\" 1}", "expected ':'");
	bad_json("{\"a\":1", "expected ',' or '}'");
	bad_json("{\"a\":01}", "expected ',' or '}'");
	bad_json("{\"a\":1.}", "invalid number");
	bad_json("{\"a\":tru}", "invalid literal");
	bad_json("{\"a\":\"x}", "unterminated string");
	bad_json("{\"a\":\"\\x\"}", "invalid escape in string");
	bad_json("{\"a\":\"\\ud800\"}", "invalid \\u escape in string");
	bad_json("{\"a\":\"\t\"}", "control character in string");
	bad_json("{\"a\":18446744073709551616}", "number out of range");
	bad_json("{\"a\":-9223372036854775809}", "number out of range");
	bad_json("{\"a\":1e999}", "number out of range");
	bad_json("{} {}", "trailing characters after the value");
	bad_json("", "unexpected end of input");

	/* values JSON cannot hold */
	{
		static const uint8_t bin[] = { 0x81, 0xa1, 'b', 0xc4, 0x01, 0x00 };
		static const uint8_t nan[] = { 0x81, 0xa1, 'f', 0xcb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0 };
		static const uint8_t intkey[] = { 0x81, 0x01, 0x02 };

		CHECK(ls_json_print(bin, bin + sizeof(bin), &b) == LS_ERR_JSON);
		CHECK(ls_json_print(nan, nan + sizeof(nan), &b) == LS_ERR_JSON);
		CHECK(ls_json_print(intkey, intkey + sizeof(intkey), &b) == LS_ERR_JSON);
	}
	ls_buf_release(&b);
}

/* Encode with ours and with msgpack-c's packer; the bytes must be equal. */
static void same_bytes(const struct ls_buf *ours, const msgpack_sbuffer *theirs,
		       const char *what)
{
	if (ours->len != theirs->size || memcmp(ours->p, theirs->data, ours->len) != 0) {
		failures++;
		fprintf(stderr, "encoding of %s differs from msgpack-c's\n", what);
	}
}

/* Whether the len bytes at want are the field key: value as ls_enc_str writes it. */
static bool same_field(struct ls_buf *b, const char *key, const char *value,
		       const uint8_t *want, size_t len)
{
	b->len = 0;
	ls_enc_str(b, key, strlen(key));
	ls_enc_str(b, value, strlen(value));
	return b->len == len && memcmp(b->p, want, len) == 0;
}

static void test_enc(void)
{
	static const uint64_t uints[] = {
		0, 1, 127, 128, 255, 256, 65535, 65536, UINT32_MAX,
		(uint64_t)UINT32_MAX + 1, UINT64_MAX,
	};
	static const int64_t ints[] = {
		-1, -32, -33, -128, -129, -32768, -32769, INT32_MIN,
		(int64_t)INT32_MIN - 1, INT64_MIN, 0, 5, INT64_MAX,
	};
	static const double doubles[] = { 0.0, -0.0, 0.5, 1e300, -2.25 };
	static const size_t lengths[] = { 0, 1, 31, 32, 255, 256, 65535, 65536 };
	static const uint32_t counts[] = { 0, 15, 16, 65535, 65536 };
	static char text[65536];
	struct ls_buf b = LS_BUF_INIT;
	msgpack_sbuffer sb;
	msgpack_packer pk;
	char what[64];

	memset(text, 'x', sizeof(text));
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
#define SAME(ours, theirs, ...) do { \
		b.len = 0; \
		msgpack_sbuffer_clear(&sb); \
		CHECK((ours) == 0); \
		theirs; \
		snprintf(what, sizeof(what), __VA_ARGS__); \
		same_bytes(&b, &sb, what); \
	} while (0)
	for (size_t i = 0; i < sizeof(uints) / sizeof(uints[0]); i++)
		SAME(ls_enc_uint(&b, uints[i]), msgpack_pack_uint64(&pk, uints[i]), "uint %" PRIu64, uints[i]);
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		SAME(ls_enc_int(&b, ints[i]), msgpack_pack_int64(&pk, ints[i]), "int %" PRId64, ints[i]);
	for (size_t i = 0; i < sizeof(doubles) / sizeof(doubles[0]); i++)
		SAME(ls_enc_double(&b, doubles[i]), msgpack_pack_double(&pk, doubles[i]), "double %g", doubles[i]);
	for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++)
		SAME(ls_enc_str(&b, text, lengths[i]), msgpack_pack_str_with_body(&pk, text, lengths[i]),
		     "string of %zu bytes", lengths[i]);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		SAME(ls_enc_map(&b, counts[i]), msgpack_pack_map(&pk, counts[i]), "map of %u", counts[i]);
		SAME(ls_enc_array(&b, counts[i]), msgpack_pack_array(&pk, counts[i]), "array of %u", counts[i]);
	}
	SAME(ls_enc_bool(&b, true), msgpack_pack_true(&pk), "true");
	SAME(ls_enc_bool(&b, false), msgpack_pack_false(&pk), "false");
	SAME(ls_enc_nil(&b), msgpack_pack_nil(&pk), "nil");
#undef SAME
	/* the writer's keys and kinds are the same encodings */
	for (int f = 0; f < LS_F__COUNT; f++) {
		const char *name = ls_field_name((enum ls_field)f);

		b.len = 0;
		ls_enc_str(&b, name, strlen(name));
		CHECK(b.len == ls_field_key_len[f] && memcmp(b.p, ls_field_keys[f], b.len) == 0);
	}
	for (int k = 1; k < LS_K__COUNT; k++)
		CHECK(same_field(&b, "k", ls_kind_name((enum ls_kind)k), ls_kind_fields[k],
				 ls_kind_field_len[k]));
	for (int p = 0; p < LS_P__COUNT; p++)
		CHECK(same_field(&b, "pattern", ls_pattern_name((enum ls_pattern)p),
				 ls_pattern_fields[p], ls_pattern_field_len[p]));
	msgpack_sbuffer_destroy(&sb);
	ls_buf_release(&b);
}

static void test_idset(void)
{
	struct ls_idset set = LS_IDSET_INIT;

	for (uint64_t i = 0; i < 100000; i++)
		CHECK(ls_idset_add(&set, i * 7919) == 1);
	for (uint64_t i = 0; i < 100000; i++)
		CHECK(ls_idset_add(&set, i * 7919) == 0);
	CHECK(ls_idset_has(&set, 7919 * 5) && !ls_idset_has(&set, 7919 * 5 + 1));
	CHECK(!ls_idset_has(&set, UINT64_MAX));
	CHECK(ls_idset_add(&set, UINT64_MAX) == 1 && ls_idset_add(&set, UINT64_MAX) == 0);
	CHECK(ls_idset_has(&set, UINT64_MAX));
	ls_idset_release(&set);
	CHECK(!ls_idset_has(&set, 0));
}

/* Random puts and deletes, mirrored in an array: the map must agree. */
static void test_idmap(void)
{
	enum { KEYS = 5000 };
	static uint32_t want[KEYS];
	static bool in[KEYS];
	struct ls_idmap m = LS_IDMAP_INIT;
	uint64_t state = 1;
	size_t count = 0;

	for (int step = 0; step < 200000; step++) {
		uint32_t k, v;

		state = state * 6364136223846793005u + 1442695040888963407u;
		k = (uint32_t)(state >> 33) % KEYS;
		if (state >> 63) {
			CHECK(ls_idmap_put(&m, (uint64_t)k << 20, (uint32_t)step) == 0);
			count += !in[k];
			in[k] = true;
			want[k] = (uint32_t)step;
		} else {
			CHECK(ls_idmap_del(&m, (uint64_t)k << 20) == in[k]);
			count -= in[k];
			in[k] = false;
		}
		if (step % 997 == 0) {
			for (uint32_t j = 0; j < KEYS; j++) {
				bool got = ls_idmap_get(&m, (uint64_t)j << 20, &v);

				CHECK(got == in[j]);
				CHECK(!got || v == want[j]);
			}
		}
	}
	CHECK(m.count == count);
	CHECK(!ls_idmap_get(&m, UINT64_MAX, &(uint32_t){ 0 }));
	CHECK(ls_idmap_put(&m, UINT64_MAX, 7) == 0);
	ls_idmap_release(&m);
}

/*
 * The reader front against a plain sort as the judge: events of 4 streams
 * at random times, with a bound of 16 events so that most go through
 * sorted runs on disk, come out in (t, s, as added) order, numbered 0, 1,
 * ...; leaves are checked against enters; the runs leave no file behind.
 */
static void front_run(bool spill, bool until)
{
	enum { N = 2000 };
	static struct { int64_t t; unsigned s, seq; } want[N];
	struct ls_front_options opt = { LS_RANGES_INIT, LS_RANGES_INIT, false, 0, 0,
					spill ? 16 * sizeof(struct ls_event) : (size_t)0, 0, 0 };
	struct ls_front_report r;
	struct ls_front f;
	struct ls_writer w;
	FILE *out = tmpfile();
	char line[256], kind[32];
	unsigned long id, st;
	long t;
	unsigned i = 0;

	srand(7);
	ls_writer_init(&w, fileno(out), LS_FMT_JSON);
	ls_front_init(&f, &w, &opt, &r);
	for (unsigned s = 0; s < 4; s++)
		CHECK(ls_front_stream(&f, s, s / 2) == 0);
	CHECK(ls_front_region(&f, 0, LS_R_CPU) == 0);
	for (unsigned k = 0; k < N; k++) {
		/* with until: times rise by steps, and several events share one */
		int64_t at = until ? (int64_t)(k / 5) : rand() % 500;
		unsigned s = (unsigned)rand() % 4;
		struct ls_event *ev = ls_front_add(&f, s, at, k % 2 ? LS_K_LEAVE : LS_K_ENTER);

		CHECK(ev != NULL);
		if (!ev)
			break;
		ev->region = 0;
		want[k].t = at;
		want[k].s = s;
		want[k].seq = k;
		if (until && k % 5 == 4)
			CHECK(ls_front_until(&f, at + 1) == 0);
	}
	CHECK(ls_front_finish(&f) == 0);
	CHECK(ls_writer_flush(&w) == 0);
	/* 2000 events 16 at a time: 125 runs, of which 64 merged into one once */
	CHECK(spill ? r.runs == 125 && r.merges == 1 && f.sort.nruns == 125 - 64 + 1 :
		      r.runs == 0 && r.merges == 0);
	CHECK(r.kinds[LS_K_ENTER] == N / 2 && r.kinds[LS_K_LEAVE] == N / 2);
	CHECK(r.roles[LS_R_CPU] == N / 2);
	/* the judge: a stable sort by time, then stream */
	for (unsigned a = 1; a < N; a++)
		for (unsigned b = a; b > 0 && (want[b - 1].t > want[b].t ||
		     (want[b - 1].t == want[b].t && want[b - 1].s > want[b].s)); b--) {
			typeof(want[0]) x = want[b];

			want[b] = want[b - 1];
			want[b - 1] = x;
		}
	rewind(out);
	while (fgets(line, sizeof(line), out) && i < N) {
		CHECK(sscanf(line, "{\"k\":\"%31[a-z]\",\"id\":%lu,\"t\":%ld,\"s\":%lu", kind, &id,
			     &t, &st) == 4);
		CHECK(id == i && t == want[i].t && st == want[i].s);
		CHECK(strcmp(kind, want[i].seq % 2 ? "leave" : "enter") == 0);
		i++;
	}
	CHECK(i == N);
	ls_front_release(&f);
	ls_writer_release(&w);
	fclose(out);
}

/*
 * A spill that cannot be made (no such folder) or written (the file size
 * limit, as a full disk): the event is refused, said (an I/O failure, for
 * the reader to say so), and nothing is left.
 */
static void front_spill_fails(void)
{
	struct ls_front_options opt = { LS_RANGES_INIT, LS_RANGES_INIT, false, 0, 0,
					16 * sizeof(struct ls_event), 0, 0 };
	const char *tmp = getenv("TMPDIR");
	char *saved = tmp ? strdup(tmp) : NULL;
	struct ls_front_report r;
	struct rlimit was, small;
	struct ls_front f;
	struct ls_writer w;
	const char *want;
	bool refused;

	for (int round = 0; round < 2; round++) {
		ls_writer_init(&w, -1, LS_FMT_MSGPACK);
		ls_front_init(&f, &w, &opt, &r);
		CHECK(ls_front_stream(&f, 0, 0) == 0);
		if (round == 0) {
			setenv("TMPDIR", "/nonexistent-tr-test", 1);
		} else {
			signal(SIGXFSZ, SIG_IGN);
			getrlimit(RLIMIT_FSIZE, &was);
			/* the soft limit only: a process may raise it back, not the hard one */
			small = (struct rlimit){ 1024, was.rlim_max };
			setrlimit(RLIMIT_FSIZE, &small);
		}
		refused = false;
		/* 16 held, then handed to the sort with the 17th: the 18th needs a run */
		for (int k = 0; k < 18 && !refused; k++)
			refused = !ls_front_add(&f, 0, k, LS_K_ENTER);
		CHECK(refused);
		want = round == 0 ?
		       "cannot make a temporary file in TMPDIR=/nonexistent-tr-test to sort events in: " :
		       "cannot sort events in a temporary file in ";
		CHECK(strncmp(ls_front_error(&f), want, strlen(want)) == 0);
		CHECK(ls_front_failure(&f) == LS_ERR_IO);	/* not out of memory, nor bad input */
		if (round == 0) {
			if (saved)
				setenv("TMPDIR", saved, 1);
			else
				unsetenv("TMPDIR");
		} else {
			setrlimit(RLIMIT_FSIZE, &was);
			signal(SIGXFSZ, SIG_DFL);
		}
		ls_front_release(&f);
		ls_writer_release(&w);
	}
	free(saved);
}

/*
 * A disk that fills while 64 runs are merged into one (each run fits,
 * their merge does not): the event that needed the room is refused and
 * the failure said; the runs were unlinked when made, nothing is left.
 */
static void front_merge_fails(void)
{
	struct ls_front_options opt = { LS_RANGES_INIT, LS_RANGES_INIT, false, 0, 0,
					16 * sizeof(struct ls_event), 0, 0 };
	struct rlimit was, small;
	const char *want = "cannot sort events in a temporary file in ";
	struct ls_front_report r;
	struct ls_front f;
	struct ls_writer w;
	bool refused = false;
	int k = 0;

	ls_writer_init(&w, -1, LS_FMT_MSGPACK);
	ls_front_init(&f, &w, &opt, &r);
	CHECK(ls_front_stream(&f, 0, 0) == 0);
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &was);
	small = (struct rlimit){ 8 * 16 * sizeof(struct ls_event), was.rlim_max };
	setrlimit(RLIMIT_FSIZE, &small);
	for (; k < 70 * 16 && !refused; k++)
		refused = !ls_front_add(&f, 0, k, LS_K_ENTER);
	setrlimit(RLIMIT_FSIZE, &was);
	signal(SIGXFSZ, SIG_DFL);
	/*
	 * 64 runs of 16 made, 16 more held by the sort and one by the front:
	 * the event after them wanted a 65th run, and the merge failed
	 */
	CHECK(refused && k == 65 * 16 + 2 && r.runs == 64 && r.merges == 0);
	CHECK(strncmp(ls_front_error(&f), want, strlen(want)) == 0);
	ls_front_release(&f);
	ls_writer_release(&w);
}

/*
 * Shard 1 of 2 (tr-analyze --mpi): processes 1 and 3 are its own; another
 * shard's events are neither kept nor counted, nor its unread ones; -p
 * still leaves out, and counts, the shard's own.
 */
static void front_shard(void)
{
	struct ls_front_options opt = LS_FRONT_OPTIONS_INIT;
	struct ls_front_report r;
	struct ls_front f;
	struct ls_writer w;

	opt.shard = 1;
	opt.shards = 2;
	CHECK(ls_ranges_parse(&opt.processes, "0-2") == 0);
	ls_writer_init(&w, -1, LS_FMT_MSGPACK);
	ls_front_init(&f, &w, &opt, &r);
	for (uint64_t s = 0; s < 4; s++)
		CHECK(ls_front_stream(&f, s, s) == 0);
	CHECK(r.selected == 1);	/* process 1's: 3 is not chosen, 0 and 2 another shard's */
	CHECK(!ls_front_selected(&f, 0) && ls_front_selected(&f, 1) && !ls_front_selected(&f, 2) &&
	      !ls_front_selected(&f, 3));
	CHECK(!ls_front_keeps(&f, 0, 5) && ls_front_keeps(&f, 1, 5) && !ls_front_keeps(&f, 3, 5));
	CHECK(r.offered == 2 && r.filtered == 1);
	ls_front_unread(&f, 2, 100);	/* another shard's: not counted */
	ls_front_unread(&f, 3, 7);	/* its own, not chosen: left out */
	CHECK(r.filtered == 8);
	ls_front_release(&f);
	ls_writer_release(&w);
	ls_ranges_release(&opt.processes);
}

/*
 * The reader says how many processes there are (16): shards hold blocks,
 * by hand p * 3 / 16: 0-5 shard 0, 6-10 shard 1, 11-15 shard 2; an id
 * past them goes by modulo, as every id where the count is not said.
 */
static void front_shard_blocks(void)
{
	struct ls_front_options opt = LS_FRONT_OPTIONS_INIT;
	static const uint32_t want[16] = { 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2 };
	struct ls_front_report r;
	struct ls_front f;
	struct ls_writer w;

	for (uint64_t p = 0; p < 16; p++)
		CHECK(ls_shard_of(p, 16, 3) == want[p] && ls_shard_of(p, 0, 3) == p % 3);
	CHECK(ls_shard_of(20, 16, 3) == 2 && ls_shard_of(16, 16, 3) == 1);
	CHECK(ls_shard_of(UINT64_MAX - 1, UINT64_MAX, 3) == (UINT64_MAX - 1) % 3);	/* p * 3 would not fit */
	opt.shard = 1;
	opt.shards = 3;
	ls_writer_init(&w, -1, LS_FMT_MSGPACK);
	ls_front_init(&f, &w, &opt, &r);
	ls_front_processes(&f, 16);
	for (uint64_t s = 0; s < 17; s++)
		CHECK(ls_front_stream(&f, s, s == 16 ? 4 : s) == 0);	/* stream 16: a thread of process 4 */
	CHECK(r.selected == 5);
	for (uint64_t s = 0; s < 17; s++)
		CHECK(ls_front_selected(&f, s) == (s >= 6 && s <= 10));
	ls_front_release(&f);
	ls_writer_release(&w);
}

static void test_front(void)
{
	struct ls_front_options opt = { LS_RANGES_INIT, LS_RANGES_INIT, true, 10, 20, 0, 0, 0 };
	struct ls_front_report r;
	struct ls_front f;
	struct ls_writer w;
	struct ls_event *ev;

	front_shard_blocks();
	front_run(false, false);
	front_run(true, false);
	front_run(false, true);
	/* selection, open events, a time before the reader's word, balance */
	ls_writer_init(&w, -1, LS_FMT_MSGPACK);
	ls_front_init(&f, &w, &opt, &r);
	CHECK(ls_front_stream(&f, 0, 0) == 0);
	CHECK(ls_front_stream(&f, 1 << 24, 0) == LS_ERR_RANGE);
	CHECK(strcmp(ls_front_error(&f), "stream id 16777216 is past the reader's numbering (2^24)") == 0);
	CHECK(!ls_front_keeps(&f, 0, 9) && ls_front_keeps(&f, 0, 10) && !ls_front_keeps(&f, 0, 21));
	CHECK(!ls_front_keeps(&f, 1, 15) && r.filtered == 3);
	CHECK((ev = ls_front_add(&f, 0, 12, LS_K_ENTER)) && ev->seq == 0);
	ev->region = 1;
	CHECK(ls_front_open(&f, 0) == ev && !ls_front_open(&f, 1));
	CHECK(ls_front_until(&f, 13) == 0);
	CHECK(!ls_front_open(&f, 0));
	CHECK(!ls_front_add(&f, 0, 12, LS_K_LEAVE));
	CHECK(!ls_front_add(&f, 5, 14, LS_K_LEAVE));
	CHECK(ls_front_failure(&f) == LS_ERR_RANGE);	/* the first failure's */
	ls_front_release(&f);
	ls_writer_release(&w);
	/* an event before the time the reader was done with: bad input, said so */
	ls_writer_init(&w, -1, LS_FMT_MSGPACK);
	ls_front_init(&f, &w, &(struct ls_front_options)LS_FRONT_OPTIONS_INIT, &r);
	CHECK(ls_front_stream(&f, 0, 0) == 0 && ls_front_failure(&f) == 0);
	CHECK(ls_front_add(&f, 0, 5, LS_K_ENTER) && ls_front_until(&f, 6) == 0);
	CHECK(!ls_front_add(&f, 0, 4, LS_K_LEAVE) && ls_front_failure(&f) == LS_ERR_SYNTAX);
	ls_front_release(&f);
	ls_writer_release(&w);
	front_spill_fails();
	front_merge_fails();
	front_shard();
}

/* The external sort's record: its 8 bytes, a key, and where it came from. */
struct xrec {
	uint64_t seq;
	uint32_t key, from;
};

static int by_key(const void *a, const void *b)
{
	const struct xrec *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

/*
 * n records of keys (i * 7919) % m sorted with mem bytes in memory: in key
 * order, equal keys as added; want_runs runs made, want_merges times 64
 * of them merged into one, want_open open at the end.
 */
static void xsort_run(uint32_t n, uint32_t m, size_t mem, uint32_t want_runs, uint32_t want_merges,
		      uint32_t want_open)
{
	struct ls_xsort x;
	const struct xrec *r;
	struct xrec rec = { 0, 0, 0 };
	uint32_t got = 0, last_key = 0, last_from = 0;

	CHECK(ls_xsort_init(&x, sizeof(rec), by_key, mem) == 0);
	for (uint32_t i = 0; i < n; i++) {
		rec.key = (uint32_t)(((uint64_t)i * 7919) % m);
		rec.from = i;
		CHECK(ls_xsort_add(&x, &rec) == 0);
	}
	CHECK(ls_xsort_done(&x) == 0);
	CHECK(x.spilled == want_runs && x.nruns == want_open && x.merges == want_merges);
	while ((r = ls_xsort_next(&x))) {
		CHECK(got == 0 || r->key > last_key || (r->key == last_key && r->from > last_from));
		last_key = r->key;
		last_from = r->from;
		got++;
	}
	CHECK(got == n && x.err == 0);
	ls_xsort_release(&x);
}

static void test_xsort(void)
{
	struct ls_xsort x;
	struct xrec rec = { 0, 1, 1 };

	xsort_run(0, 1, 0, 0, 0, 0);
	xsort_run(1000, 97, 0, 0, 0, 0);				/* in memory */
	xsort_run(1000, 97, 16 * sizeof(struct xrec), 63, 0, 63);	/* 62 runs of 16 and one of 8 */
	/* 391 runs of 256: the 65th, 128th, ... found 64 open, merged into one (6 times), 13 left */
	xsort_run(100000, 1000, 4096, 391, 6, 13);
	/* a run that cannot be made is said, and the sort gives nothing */
	CHECK(ls_xsort_init(&x, sizeof(rec), by_key, 16 * sizeof(rec)) == 0);
	setenv("TMPDIR", "/nonexistent/dir", 1);
	for (int i = 0; i < 17; i++)
		ls_xsort_add(&x, &rec);
	unsetenv("TMPDIR");
	CHECK(x.err != 0 && ls_xsort_done(&x) < 0 && !ls_xsort_next(&x));
	ls_xsort_release(&x);
}

/* Ids in runs take a run each; in any order, the set is the set of a bitmap. */
static void test_idset_runs(void)
{
	struct ls_idset set = LS_IDSET_INIT;
	static uint8_t in[4096];
	uint64_t state = 1;

	for (uint64_t i = 0; i < 1000000; i++)	/* as tr-read numbers events */
		CHECK(ls_idset_add(&set, i) == 1);
	CHECK(set.n == 1 && set.run[0].lo == 0 && set.run[0].hi == 999999);
	for (uint64_t i = 2000000; i > 1000001; i--)	/* counting down, with a gap */
		CHECK(ls_idset_add(&set, i) == 1);
	CHECK(set.n == 2 && set.run[1].lo == 1000002);
	CHECK(ls_idset_add(&set, 1000000) == 1 && set.n == 2);
	CHECK(ls_idset_add(&set, 1000001) == 1 && set.n == 1 && set.run[0].hi == 2000000);
	CHECK(ls_idset_add(&set, 1000001) == 0 && ls_idset_has(&set, 0) && !ls_idset_has(&set, 2000001));
	ls_idset_clear(&set);
	CHECK(!ls_idset_has(&set, 5));
	for (int i = 0; i < 100000; i++) {
		uint64_t id;

		state = state * 6364136223846793005u + 1442695040888963407u;
		id = state >> 52;	/* 0 .. 4095, in no order */
		CHECK(ls_idset_add(&set, id) == !in[id]);
		in[id] = 1;
	}
	for (uint64_t id = 0; id < 4096; id++)
		CHECK(ls_idset_has(&set, id) == in[id]);
	for (size_t r = 1; r < set.n; r++)
		CHECK(set.run[r].lo > set.run[r - 1].hi + 1);
	ls_idset_release(&set);
}

/* A role's group as its documented name says it (docs/stream.md's list). */
static enum ls_role_group group_by_name(const char *role)
{
	if (strncmp(role, "mpi_", 4) == 0)
		return LS_G_MPI;
	if (strncmp(role, "omp_", 4) == 0)
		return LS_G_OMP;
	if (strcmp(role, "kernel") == 0 || strncmp(role, "dev_", 4) == 0)
		return LS_G_GPU_WORK;
	if (strcmp(role, "cpu") == 0)
		return LS_G_HOST;
	return LS_G_GPU_CALL;
}

static void test_schema(void)
{
	CHECK(ls_role_group(LS_R_UNKNOWN) == LS_G_NONE);
	for (int r = 1; r < LS_R__COUNT; r++)
		CHECK(ls_role_group((enum ls_role)r) == group_by_name(ls_role_name((enum ls_role)r)));
	CHECK(ls_stream_type_lookup("host", 4) == LS_ST_HOST);
	CHECK(ls_stream_type_lookup("gpu", 3) == LS_ST_GPU);
	CHECK(ls_stream_type_lookup("metric", 6) == LS_ST_METRIC);
	CHECK(ls_stream_type_lookup("gpux", 3) == LS_ST_GPU);
	CHECK(ls_stream_type_lookup("cpu", 3) == LS_ST__COUNT);
	CHECK(ls_copy_dir_lookup("htod", 4) == LS_CD_HTOD);
	CHECK(ls_copy_dir_lookup("dtoh", 4) == LS_CD_DTOH);
	CHECK(ls_copy_dir_lookup("ptop", 4) == LS_CD_PTOP);
	CHECK(ls_copy_dir_lookup("hto", 3) == LS_CD__COUNT);
	CHECK(ls_edge_lookup("stream_wait", 11) == LS_E_STREAM_WAIT);
	for (int e = 0; e < LS_E__COUNT; e++) {
		const char *a = ls_edge_name((enum ls_edge)e);

		CHECK(ls_edge_lookup(a, (uint32_t)strlen(a)) == (enum ls_edge)e);
	}
	CHECK(ls_edge_lookup("mxg", 3) == LS_E__COUNT && ls_edge_lookup("", 0) == LS_E__COUNT);
	CHECK(ls_edge_lookup("stream", 6) == LS_E__COUNT && ls_edge_lookup("msgs", 4) == LS_E__COUNT);
	for (int f = 0; f < LS_F__COUNT; f++) {
		const char *name = ls_field_name((enum ls_field)f);
		uint32_t n = (uint32_t)strlen(name);
		uint8_t fixstr[32] = { 0 };

		CHECK(ls_field_lookup(name, n) == f);
		fixstr[0] = (uint8_t)(0xa0 | n);
		memcpy(fixstr + 1, name, n);
		CHECK(ls_short_find(&ls_short_fields,
				    ls_short_name(fixstr, fixstr + sizeof(fixstr))) == f);
		/* at the first probe */
		CHECK(ls_short_fields.slot[ls_short_hash(&ls_short_fields,
				ls_short_name(fixstr, fixstr + sizeof(fixstr)))].index == f);
		/* read where fewer than 16 bytes follow the key's first byte */
		CHECK(ls_short_find(&ls_short_fields, ls_short_name(fixstr, fixstr + 1 + n)) == f);
	}
	for (int f = 0; f < LS_F__COUNT; f++)
		CHECK(strlen(ls_field_name((enum ls_field)f)) <= 15);
	for (int k = 1; k < LS_K__COUNT; k++) {
		const char *name = ls_kind_name((enum ls_kind)k);

		CHECK(strlen(name) <= 13);
		CHECK((int)ls_kind_lookup(name, (uint32_t)strlen(name)) == k);
		CHECK(ls_kind_spec((enum ls_kind)k)->nfields <= LS_MAX_SPEC_FIELDS);
	}
	for (int r = 1; r < LS_R__COUNT; r++) {
		const char *name = ls_role_name((enum ls_role)r);

		CHECK((int)ls_role_lookup(name, (uint32_t)strlen(name)) == r);
	}
	for (int p = 0; p < LS_P__COUNT; p++) {
		const char *name = ls_pattern_name((enum ls_pattern)p);

		CHECK((int)ls_pattern_lookup(name, (uint32_t)strlen(name)) == p);
	}
	CHECK(ls_pattern_lookup("late_send", 9) == LS_P__COUNT);
	CHECK(ls_kind_lookup("ente", 4) == LS_K_UNKNOWN);
	CHECK(ls_kind_lookup("enter\0", 6) == LS_K_UNKNOWN);
	CHECK(ls_field_lookup("tt", 2) == LS_F__NONE);
	{
		static const uint8_t ref_stream[] = "\xaaref_stream",
				     longer[] = "\xabref_stream\0",
				     shorter[] = "\xa9ref_strea",
				     tiny[] = "\xa1t\0", tiny2[] = "\xa2t\0";

		/* packed keys of 11 bytes: the length and every byte count */
		CHECK(ls_short_find(&ls_short_fields, ls_short_name(ref_stream, ref_stream + 11)) ==
		      LS_F_REF_STREAM);
		CHECK(ls_short_find(&ls_short_fields, ls_short_name(longer, longer + 12)) == -1);
		CHECK(ls_short_find(&ls_short_fields, ls_short_name(shorter, shorter + 10)) == -1);
		/* a NUL after a one-byte key does not make it another key */
		CHECK(ls_short_find(&ls_short_fields, ls_short_name(tiny, tiny + 3)) == LS_F_T);
		CHECK(ls_short_find(&ls_short_fields, ls_short_name(tiny2, tiny2 + 3)) == -1);
		CHECK(ls_short_find(&ls_short_kinds, ls_short_name((const uint8_t *)"\xa5" "enter", (const uint8_t *)"\xa5" "enter" + 6)) == LS_K_ENTER);
	}
	CHECK(ls_role_lookup("kernel", 6) == LS_R_KERNEL);
	CHECK(ls_vocab_has(LS_VOCAB_PATTERN, "late_sender", 11));
	CHECK(!ls_vocab_has(LS_VOCAB_PATTERN, "late_send", 9));
}

static void test_pipe(void)
{
#ifdef F_SETPIPE_SZ
	int fd[2], max = 0;
	FILE *f = fopen("/proc/sys/fs/pipe-max-size", "r");

	if (f) {
		if (fscanf(f, "%d", &max) != 1)
			max = 0;
		fclose(f);
	}
	CHECK(pipe(fd) == 0);
	ls_pipe_widen(fd[1]);
	/* 1 MiB where the system allows it, else as it was */
	CHECK(fcntl(fd[0], F_GETPIPE_SZ) == 1 << 20 ||
	      (max < 1 << 20 && fcntl(fd[0], F_GETPIPE_SZ) == 65536));
	close(fd[0]);
	close(fd[1]);
	/* not a pipe: nothing happens, nothing fails */
	ls_pipe_widen(-1);
	ls_pipe_widen(STDERR_FILENO);
#endif
}

/* Records of the kinds a stage does not read are framed, not indexed. */
static void test_skim(void)
{
	static const char *const skimmed[] = {
		"{\"k\":\"blame\"}",
		"{\"k\":\"blame\",\"to\":6,\"r\":0,\"ns\":3000,\"pattern\":\"wait_init\",\"wait\":1,\"s\":15}",
		"{\"k\":\"blame\",\"my_own_field_with_a_name_over_31_bytes\":[1,{\"a\":\"x\"}],"
		"\"note\":\"a string longer than thirty-one bytes\",\"ns\":-1.5}",
		/* checked for a key twice only where it is read */
		"{\"k\":\"blame\",\"ns\":1,\"ns\":2}",
	};
	const uint64_t skim = LS_KIND_BIT(LS_K_BLAME) | LS_KIND_BIT(LS_K_UNKNOWN);
	struct ls_buf b = LS_BUF_INIT;
	struct ls_record rec;
	const char *why;
	uint64_t u;

	for (size_t r = 0; r < sizeof(skimmed) / sizeof(skimmed[0]); r++) {
		CHECK(to_msgpack(skimmed[r], &b) == 0);
		CHECK(ls_record_parse(&rec, b.p, b.p + b.len, skim, &why) == (long)b.len);
		CHECK(rec.kind == LS_K_BLAME && rec.raw == b.p && rec.len == b.len);
		CHECK(ls_has(&rec, LS_F_K) && !ls_has(&rec, LS_F_NS));
		for (size_t j = 0; j < b.len; j++) {
			uint8_t *exact = malloc(j + 1);	/* no room after it to read */

			memcpy(exact, b.p, j);
			CHECK(ls_record_parse(&rec, exact, exact + j, skim, &why) == 0);
			free(exact);
		}
	}
	/* a kind not in the set is read whole */
	CHECK(to_msgpack("{\"k\":\"wait\",\"dur\":7}", &b) == 0);
	CHECK(ls_record_parse(&rec, b.p, b.p + b.len, skim, &why) == (long)b.len);
	CHECK(ls_get_u64(&rec, LS_F_DUR, &u) == 0 && u == 7);
	/* so is a record whose "k" does not come first */
	CHECK(to_msgpack("{\"ns\":5,\"k\":\"blame\",\"to\":2}", &b) == 0);
	CHECK(ls_record_parse(&rec, b.p, b.p + b.len, skim, &why) == (long)b.len);
	CHECK(rec.kind == LS_K_BLAME && ls_get_u64(&rec, LS_F_TO, &u) == 0 && u == 2);
	/* an unknown kind is skimmed as LS_K_UNKNOWN, its name kept */
	CHECK(to_msgpack("{\"k\":\"mine\",\"ns\":5}", &b) == 0);
	CHECK(ls_record_parse(&rec, b.p, b.p + b.len, skim, &why) == (long)b.len);
	CHECK(rec.kind == LS_K_UNKNOWN && rec.kind_len == 4 && !ls_has(&rec, LS_F_NS));
	/* what would break the framing is still an error */
	{
		static const uint8_t bad_value[] = { 0x82, 0xa1, 'k', 0xa5, 'b', 'l', 'a', 'm', 'e',
						     0xa2, 'n', 's', 0xc1 };
		static const uint8_t bad_key[] = { 0x82, 0xa1, 'k', 0xa5, 'b', 'l', 'a', 'm', 'e',
						   0x05, 0x06 };

		CHECK(ls_record_parse(&rec, bad_value, bad_value + sizeof(bad_value), skim, &why) ==
		      LS_ERR_SYNTAX);
		CHECK(strcmp(why, "record holds invalid msgpack") == 0);
		CHECK(ls_record_parse(&rec, bad_key, bad_key + sizeof(bad_key), skim, &why) ==
		      LS_ERR_SYNTAX);
		CHECK(strcmp(why, "record has a key that is not a string") == 0);
	}
	ls_buf_release(&b);
}

/* The same view: kind, length, fields located and where. */
static bool same_view(const struct ls_record *a, const struct ls_record *b)
{
	if (a->raw != b->raw || a->len != b->len || a->nfields != b->nfields || a->kind != b->kind ||
	    a->kind_str != b->kind_str || a->kind_len != b->kind_len ||
	    memcmp(a->present, b->present, sizeof(a->present)) != 0)
		return false;
	for (int f = 0; f < LS_F__COUNT; f++)
		if (ls_has(a, (enum ls_field)f) && (a->key[f] != b->key[f] || a->off[f] != b->off[f]))
			return false;
	return true;
}

/* Packed records unpack to the view parsing made; padded parsing is parsing. */
static void test_packed(void)
{
	static const char *const records[] = {
		"{\"k\":\"enter\",\"id\":7,\"t\":-12,\"s\":3,\"r\":1,\"corr\":9}",
		"{\"k\":\"blame\",\"to\":6,\"r\":0,\"ns\":3000,\"pattern\":\"wait_init\",\"wait\":1,\"s\":15}",
		"{\"t\":5,\"k\":\"leave\",\"id\":8,\"s\":3,\"r\":1}",
		"{\"k\":\"mine\",\"ns\":5,\"my_own_field_with_a_name_over_31_bytes\":[1,2]}",
		"{\"k\":\"instance\",\"acts\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]}",
	};
	struct ls_buf b = LS_BUF_INIT;
	struct ls_record rec, back, padded;
	struct ls_packed p;
	struct ls_packed_field f[LS_F__COUNT];
	const char *why;

	for (size_t r = 0; r < sizeof(records) / sizeof(records[0]); r++) {
		CHECK(to_msgpack(records[r], &b) == 0);
		CHECK(ls_record_parse(&rec, b.p, b.p + b.len, 0, &why) == (long)b.len);
		ls_record_pack(&rec, &p, f);
		memset(&back, 0xab, sizeof(back));
		ls_record_unpack(&back, b.p, &p, f, false);
		CHECK(same_view(&rec, &back));
		/* skimmed: only "k", as parsing a kind it skims locates it */
		ls_record_unpack(&back, b.p, &p, f, true);
		CHECK(back.kind == rec.kind && back.len == rec.len && back.kind_str == rec.kind_str);
		for (int k = 0; k < LS_F__COUNT; k++)
			CHECK(ls_has(&back, (enum ls_field)k) == (k == LS_F_K));
		CHECK(back.off[LS_F_K] == rec.off[LS_F_K]);
		/* with room after it, parsed the same */
		CHECK(ls_buf_grow(&b, LS_RECORD_PAD) == 0);
		memset(b.p + b.len, 0, LS_RECORD_PAD);
		CHECK(ls_record_parse_padded(&padded, b.p, b.p + b.len, 0, &why) == (long)b.len);
		CHECK(same_view(&rec, &padded));
	}
	ls_buf_release(&b);
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*run)(void); } groups[] = {
		{ "mp", test_mp }, { "record", test_record }, { "json", test_json },
		{ "front", test_front }, { "idmap", test_idmap }, { "idset", test_idset }, { "idset-runs", test_idset_runs }, { "schema", test_schema },
		{ "enc", test_enc },
		{ "pipe", test_pipe }, { "skim", test_skim }, { "xsort", test_xsort },
		{ "packed", test_packed },
	};

	if (argc == 2 && strcmp(argv[1], "kinds") == 0) {
		for (int k = 1; k < LS_K__COUNT; k++)
			puts(ls_kind_name((enum ls_kind)k));
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "build-miscount") == 0) {
		/* a record told of 3 fields and given 2: a checked build stops */
		struct ls_writer w;

		ls_writer_init(&w, STDOUT_FILENO, LS_FMT_MSGPACK);
		ls_build_begin(&w, 3);
		ls_put_kind(&w, LS_K_PROCESS);
		ls_put_u64(&w, LS_F_ID, 0);
		ls_build_end(&w);
		ls_writer_release(&w);
		puts("unchecked");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "roles") == 0) {
		for (int r = 1; r < LS_R__COUNT; r++)
			puts(ls_role_name((enum ls_role)r));
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "role-table") == 0) {
		enum ls_role role;
		const char *name;

		for (int i = 0; (name = ls_role_table_name(i, &role)); i++)
			printf("%s\t%s\n", name, ls_role_name(role));
		return 0;
	}
	for (size_t i = 0; argc == 2 && i < sizeof(groups) / sizeof(groups[0]); i++) {
		if (strcmp(argv[1], groups[i].name) == 0) {
			groups[i].run();
			return failures ? 1 : 0;
		}
	}
	fprintf(stderr, "usage: ls-unit mp|record|skim|packed|json|front|idmap|idset|idset-runs|schema|enc|pipe|kinds|roles|role-table|build-miscount\n");
	return 2;
}
