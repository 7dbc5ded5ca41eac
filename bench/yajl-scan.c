/*
 * yajl-scan FILE: the floor of reading a Kineto trace, for make bench: the
 * file (plain or gzip, through zlib as tr-read reads it) parsed by yajl
 * (Debian's streaming JSON parser) with callbacks that only count the
 * elements of traceEvents. Prints that count. Built where libyajl-dev is
 * installed (not a dependency of the tools).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include <yajl_parse.h>

struct scan {
	int depth;
	bool in_events;		/* the top object's key was traceEvents */
	long long events;
};

static int open_map(void *ctx)
{
	struct scan *s = ctx;

	s->events += ++s->depth == 3 && s->in_events;
	return 1;
}

static int map_key(void *ctx, const unsigned char *key, size_t n)
{
	struct scan *s = ctx;

	if (s->depth == 1)
		s->in_events = n == 11 && !memcmp(key, "traceEvents", 11);
	return 1;
}

static int close_map(void *ctx)
{
	((struct scan *)ctx)->depth--;
	return 1;
}

static int open_array(void *ctx)
{
	((struct scan *)ctx)->depth++;
	return 1;
}

static int close_array(void *ctx)
{
	((struct scan *)ctx)->depth--;
	return 1;
}

static int any(void *ctx)
{
	(void)ctx;
	return 1;
}

static int any_bool(void *ctx, int b)
{
	(void)ctx;
	(void)b;
	return 1;
}

static int any_text(void *ctx, const unsigned char *s, size_t n)
{
	(void)ctx;
	(void)s;
	(void)n;
	return 1;
}

int main(int argc, char **argv)
{
	static unsigned char buf[1 << 20];
	static const yajl_callbacks cb = { any, any_bool, NULL, NULL, (int (*)(void *, const char *, size_t))any_text,
					   any_text, open_map, map_key, close_map, open_array, close_array };
	struct scan s = { 0, false, 0 };
	yajl_handle h;
	gzFile f;
	int n;

	if (argc != 2 || !(f = gzopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: yajl-scan FILE.json[.gz]\n");
		return 2;
	}
	h = yajl_alloc(&cb, NULL, &s);
	while ((n = gzread(f, buf, sizeof(buf))) > 0)
		if (yajl_parse(h, buf, (size_t)n) != yajl_status_ok) {
			fprintf(stderr, "yajl-scan: %s: not JSON\n", argv[1]);
			return 1;
		}
	if (yajl_complete_parse(h) != yajl_status_ok) {
		fprintf(stderr, "yajl-scan: %s: cut short\n", argv[1]);
		return 1;
	}
	yajl_free(h);
	gzclose(f);
	printf("%lld\n", s.events);
	return 0;
}
