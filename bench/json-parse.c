/*
 * json-parse FILE.ndjson RUNS: how fast libstream parses NDJSON records
 * into msgpack, against yajl (Debian's streaming JSON parser) doing the
 * same (its callbacks encode msgpack, each container's header written
 * when its end tells how many items it holds) and yajl parsing alone, its
 * callbacks doing nothing (docs/stream.md, "The JSON parser"). Built by
 * make bench-json where libyajl-dev is installed; medians of RUNS.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <yajl_parse.h>

#include "../libstream/enc.h"
#include "../libstream/json.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* yajl's callbacks: accept everything, numbers as text (as ours must: uint64). */
static int on_null(void *ctx) { (void)ctx; return 1; }
static int on_bool(void *ctx, int b) { (void)ctx, (void)b; return 1; }
static int on_number(void *ctx, const char *s, size_t n) { (void)ctx, (void)s, (void)n; return 1; }
static int on_string(void *ctx, const unsigned char *s, size_t n) { (void)ctx, (void)s, (void)n; return 1; }
static int on_start(void *ctx) { (void)ctx; return 1; }
static int on_end(void *ctx) { (void)ctx; return 1; }

static const yajl_callbacks callbacks = {
	on_null, on_bool, NULL, NULL, on_number, on_string,
	on_start, on_string, on_end, on_start, on_end,
};

/* yajl into msgpack: the open containers, their start and item count. */
struct to_mp {
	struct ls_buf *out;
	size_t start[64];
	uint32_t n[64];
	bool map[64];
	int depth;
};

static void item(struct to_mp *c, bool key)
{
	if (c->depth > 0 && c->map[c->depth - 1] == key)
		c->n[c->depth - 1]++;
}

static int mp_null(void *ctx) { item(ctx, false); return ls_enc_nil(((struct to_mp *)ctx)->out) == 0; }
static int mp_bool(void *ctx, int b) { item(ctx, false); return ls_enc_bool(((struct to_mp *)ctx)->out, b) == 0; }

static int mp_number(void *ctx, const char *s, size_t n)
{
	struct to_mp *c = ctx;
	char text[64];

	item(c, false);
	if (n >= sizeof(text))
		return 0;
	memcpy(text, s, n);
	text[n] = '\0';
	if (strpbrk(text, ".eE"))
		return ls_enc_double(c->out, strtod(text, NULL)) == 0;
	if (text[0] == '-')
		return ls_enc_int(c->out, strtoll(text, NULL, 10)) == 0;
	return ls_enc_uint(c->out, strtoull(text, NULL, 10)) == 0;
}

static int mp_string(void *ctx, const unsigned char *s, size_t n)
{
	item(ctx, false);
	return ls_enc_str(((struct to_mp *)ctx)->out, (const char *)s, n) == 0;
}

static int mp_key(void *ctx, const unsigned char *s, size_t n)
{
	item(ctx, true);
	return ls_enc_str(((struct to_mp *)ctx)->out, (const char *)s, n) == 0;
}

static int mp_open(struct to_mp *c, bool map)
{
	item(c, false);
	if (c->depth == 64)
		return 0;
	c->start[c->depth] = c->out->len;
	c->n[c->depth] = 0;
	c->map[c->depth++] = map;
	return 1;
}

/* The header goes in front of the items, now that their number is known. */
static int mp_close(struct to_mp *c)
{
	struct ls_buf head = LS_BUF_INIT;
	size_t at = c->start[--c->depth];
	int ok = ls_enc_container(&head, c->map[c->depth], c->n[c->depth]) == 0 &&
		 ls_buf_add(c->out, head.p, head.len) == 0;

	if (ok) {
		memmove(c->out->p + at + head.len, c->out->p + at, c->out->len - head.len - at);
		memcpy(c->out->p + at, head.p, head.len);
	}
	ls_buf_release(&head);
	return ok;
}

static int mp_start_map(void *ctx) { return mp_open(ctx, true); }
static int mp_start_array(void *ctx) { return mp_open(ctx, false); }
static int mp_end(void *ctx) { return mp_close(ctx); }

static const yajl_callbacks to_msgpack = {
	mp_null, mp_bool, NULL, NULL, mp_number, mp_string,
	mp_start_map, mp_key, mp_end, mp_start_array, mp_end,
};

int main(int argc, char **argv)
{
	FILE *f = argc == 3 ? fopen(argv[1], "rb") : NULL;
	int runs = argc == 3 ? atoi(argv[2]) : 0;
	double *ours, *yajl, *yajl_mp;
	size_t size, lines = 0;
	char *text;

	if (!f || runs < 1) {
		fprintf(stderr, "usage: json-parse FILE.ndjson RUNS\n");
		return 2;
	}
	fseek(f, 0, SEEK_END);
	size = (size_t)ftell(f);
	rewind(f);
	text = malloc(size + 1);
	ours = calloc((size_t)runs, sizeof(*ours));
	yajl = calloc((size_t)runs, sizeof(*yajl));
	yajl_mp = calloc((size_t)runs, sizeof(*yajl_mp));
	if (!text || !ours || !yajl || !yajl_mp || fread(text, 1, size, f) != size)
		return 1;
	fclose(f);
	for (size_t i = 0; i < size; i++)
		lines += text[i] == '\n';
	{	/* the two conversions must give the same bytes, or the race means nothing */
		struct ls_json js = LS_JSON_INIT;
		struct ls_buf a = LS_BUF_INIT, b = LS_BUF_INIT;
		struct to_mp c = { .out = &b };
		yajl_handle h = yajl_alloc(&to_msgpack, NULL, &c);
		size_t differ = 0;

		yajl_config(h, yajl_allow_multiple_values, 1);
		for (char *p = text, *nl; p < text + size; p = nl + 1) {
			const char *why;
			size_t where;

			nl = memchr(p, '\n', (size_t)(text + size - p));
			a.len = b.len = 0;
			if (ls_json_parse(&js, p, (size_t)(nl - p), &a, &why, &where) < 0 ||
			    yajl_parse(h, (const unsigned char *)p, (size_t)(nl - p + 1)) != yajl_status_ok)
				return fprintf(stderr, "cannot parse a line\n"), 1;
			differ += a.len != b.len || memcmp(a.p, b.p, a.len) != 0;
		}
		if (differ)
			printf("  (yajl's msgpack differs from ours on %zu records)\n", differ);
		yajl_free(h);
		ls_json_release(&js);
		ls_buf_release(&a);
		ls_buf_release(&b);
	}
	for (int r = 0; r < runs; r++) {
		struct ls_json js = LS_JSON_INIT;
		struct ls_buf out = LS_BUF_INIT;
		double t0 = now();

		for (char *p = text, *nl; p < text + size; p = nl + 1) {
			const char *why;
			size_t where;

			nl = memchr(p, '\n', (size_t)(text + size - p));
			out.len = 0;
			if (ls_json_parse(&js, p, (size_t)(nl - p), &out, &why, &where) < 0)
				return fprintf(stderr, "ours: %s\n", why), 1;
		}
		ours[r] = now() - t0;
		ls_json_release(&js);
		ls_buf_release(&out);
		/* yajl at its best: one handle over the whole text, values one after another */
		t0 = now();
		{
			yajl_handle h = yajl_alloc(&callbacks, NULL, NULL);

			yajl_config(h, yajl_allow_multiple_values, 1);
			if (yajl_parse(h, (const unsigned char *)text, size) != yajl_status_ok ||
			    yajl_complete_parse(h) != yajl_status_ok)
				return fprintf(stderr, "yajl: cannot parse the text\n"), 1;
			yajl_free(h);
		}
		yajl[r] = now() - t0;
		/* yajl doing our job: each line's record in msgpack */
		t0 = now();
		{
			struct ls_buf mp = LS_BUF_INIT;
			struct to_mp c = { .out = &mp };
			yajl_handle h = yajl_alloc(&to_msgpack, NULL, &c);

			yajl_config(h, yajl_allow_multiple_values, 1);
			for (char *p = text, *nl; p < text + size; p = nl + 1) {
				nl = memchr(p, '\n', (size_t)(text + size - p));
				mp.len = 0;
				if (yajl_parse(h, (const unsigned char *)p, (size_t)(nl - p + 1)) !=
				    yajl_status_ok)
					return fprintf(stderr, "yajl: cannot parse a line\n"), 1;
			}
			yajl_free(h);
			ls_buf_release(&mp);
		}
		yajl_mp[r] = now() - t0;
	}
	printf("%zu records (%zu bytes of NDJSON), median of %d runs\n", lines, size, runs);
	printf("  %-36s %8.3f s %8.2f M records/s\n", "libstream: parse + msgpack", median(ours, runs),
	       (double)lines / median(ours, runs) / 1e6);
	printf("  %-36s %8.3f s %8.2f M records/s\n", "yajl: parse only, no-op callbacks",
	       median(yajl, runs), (double)lines / median(yajl, runs) / 1e6);
	printf("  %-36s %8.3f s %8.2f M records/s\n", "yajl: parse + msgpack (callbacks)",
	       median(yajl_mp, runs), (double)lines / median(yajl_mp, runs) / 1e6);
	printf("  libstream / yajl doing the same: %.2f of the time\n",
	       median(ours, runs) / median(yajl_mp, runs));
	free(text);
	free(ours);
	free(yajl);
	free(yajl_mp);
	return 0;
}
