/*
 * trlog-skew OFFSET_NS DRIFT_PPM IN OUT: a tr-record log as if its
 * process's clock had run off by OFFSET_NS plus DRIFT_PPM millionths of
 * the time since it started: every time in it moved by that much, and the
 * offsets to rank 0 it measured moved back by as much (they are rank 0's
 * clock less this one's). For the tests of tr-read's clock correction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../formats/trlog/trlog.h"
#include "../../libstream/enc.h"
#include "../../libstream/mp.h"

static int64_t offset, start;
static double drift;

static int64_t skew(int64_t t)
{
	return offset + (int64_t)(drift * (double)(t - start));
}

static void copy(struct ls_buf *out, const uint8_t **p, const uint8_t *end)
{
	long k = mp_skip(*p, end);

	if (k <= 0) {
		fprintf(stderr, "trlog-skew: not a whole log\n");
		exit(1);
	}
	ls_buf_add(out, *p, (size_t)k);
	*p += k;
}

static int64_t get_int(const uint8_t **p, const uint8_t *end)
{
	struct mp_item it;
	long k = mp_head(*p, end, &it);

	if (k <= 0 || (it.type != MP_INT && it.type != MP_UINT)) {
		fprintf(stderr, "trlog-skew: a time that is not an integer\n");
		exit(1);
	}
	*p += k;
	return it.type == MP_INT ? it.v.i : (int64_t)it.v.u;
}

int main(int argc, char **argv)
{
	struct ls_buf in = LS_BUF_INIT, out = LS_BUF_INIT;
	const uint8_t *p, *end;
	struct mp_item it, key;
	uint8_t chunk[65536];
	size_t got;
	int status;
	FILE *f;

	if (argc != 5 || !(f = fopen(argv[3], "rb"))) {
		fprintf(stderr, "usage: trlog-skew OFFSET_NS DRIFT_PPM IN OUT\n");
		return 2;
	}
	offset = atoll(argv[1]);
	drift = atof(argv[2]) * 1e-6;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		ls_buf_add(&in, chunk, got);
	fclose(f);
	p = in.p;
	end = in.p + in.len;
	/* the header: its start moves */
	p += mp_head(p, end, &it);
	ls_enc_map(&out, it.v.n);
	for (uint32_t i = 0; i < it.v.n; i++) {
		const uint8_t *k = p;

		p += mp_head(p, end, &key);
		ls_buf_add(&out, k, (size_t)(p - k));
		if (key.type == MP_STR && key.v.s.n == 5 && !memcmp(key.v.s.p, "start", 5)) {
			start = get_int(&p, end);
			ls_enc_int(&out, start + skew(start));
		} else {
			copy(&out, &p, end);
		}
	}
	while (p < end) {
		long k = mp_head(p, end, &it);
		int64_t type, t = 0;

		if (k <= 0 || it.type != MP_ARRAY || it.v.n < 2)
			break;	/* a cut log stays cut */
		ls_enc_array(&out, it.v.n);
		p += k;
		type = get_int(&p, end);
		ls_enc_int(&out, type);
		for (uint32_t i = 1; i < it.v.n; i++) {
			bool time = (type == TRLOG_CALL && (i == 3 || i == 4)) || (type == TRLOG_END && i == 1) ||
				    (type == TRLOG_SYNC && i == 2);

			if (type == TRLOG_SYNC && i == 3) {	/* offset: rank 0's less ours */
				ls_enc_int(&out, get_int(&p, end) - skew(t));
			} else if (time) {
				t = get_int(&p, end);
				ls_enc_int(&out, t + skew(t));
			} else {
				copy(&out, &p, end);
			}
		}
	}
	status = !(f = fopen(argv[4], "wb")) || fwrite(out.p, 1, out.len, f) != out.len;
	if ((f && fclose(f) != 0) || status) {
		fprintf(stderr, "trlog-skew: cannot write %s\n", argv[4]);
		status = 1;
	}
	free(in.p);
	free(out.p);
	return status;
}
