/*
 * Benchmark of libstream's hot path: decode and re-encode a stream of event
 * records, against msgpack-c's object API on the same file in the same run.
 *
 *   ls-bench gen N FILE     write a stream of N event records
 *   ls-bench run FILE RUNS  time both readers RUNS times, print medians
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <msgpack.h>

#include "../libstream/header.h"
#include "../libstream/writer.h"

#define STREAMS 64
#define REGIONS 16

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
	fprintf(stderr, "ls-bench: %s\n", what);
	exit(1);
}

/* Event records as tr-read writes them: mostly enter/leave, some messages. */
static void gen(uint64_t n, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	struct ls_writer w;
	uint64_t depth[STREAMS] = { 0 }, state = 42;
	int64_t t = 1000;

	if (fd < 0)
		die("cannot create the output file");
	ls_writer_init(&w, fd, LS_FMT_MSGPACK);
	ls_write_header(&w, "ls-bench", NULL, &(struct ls_stage){ "ls-bench", TR_VERSION, 0, NULL });
	for (int s = 0; s < STREAMS; s++) {
		ls_build_begin(&w, 5);
		ls_put_str(&w, LS_F_K, "stream");
		ls_put_u64(&w, LS_F_ID, (uint64_t)s);
		ls_put_u64(&w, LS_F_PROCESS, 0);
		ls_put_str(&w, LS_F_NAME, "thread");
		ls_put_str(&w, LS_F_TYPE, "host");
		ls_build_end(&w);
	}
	for (uint64_t id = 0; id < n; id++) {
		uint64_t s, r;
		bool message;

		state = state * 6364136223846793005u + 1442695040888963407u;
		s = (state >> 33) % STREAMS;
		r = (state >> 45) % REGIONS;
		message = (state >> 20) % 16 == 0;
		t += (int64_t)((state >> 50) % 300);
		if (message) {
			ls_build_begin(&w, 8);
			ls_put_str(&w, LS_F_K, (state >> 19) & 1 ? "send" : "recv");
		} else {
			ls_build_begin(&w, 5);
			ls_put_str(&w, LS_F_K, depth[s] && (state >> 19) & 1 ? "leave" : "enter");
		}
		ls_put_u64(&w, LS_F_ID, id);
		ls_put_i64(&w, LS_F_T, t);
		ls_put_u64(&w, LS_F_S, s);
		if (message) {
			ls_put_u64(&w, LS_F_PEER, (s + 1) % STREAMS);
			ls_put_i64(&w, LS_F_TAG, 7);
			ls_put_u64(&w, LS_F_COMM, 0);
			ls_put_u64(&w, LS_F_BYTES, 8192);
		} else {
			ls_put_u64(&w, LS_F_R, r);
			depth[s] += (state >> 19) & 1 ? -1 : 1;
		}
		ls_build_end(&w);
	}
	if (ls_write_trailer(&w) < 0 || ls_writer_flush(&w) < 0 || close(fd) < 0)
		die("cannot write the output file");
	ls_writer_release(&w);
}

/* Decode with libstream, read the fields every stage reads, pass on. */
static uint64_t run_libstream(const char *path, int out)
{
	struct ls_reader r;
	struct ls_writer w;
	struct ls_record rec;
	uint64_t count = 0, sum = 0;
	int rc;

	if (ls_reader_open(&r, path) < 0)
		die("cannot open the input");
	ls_writer_init(&w, out, LS_FMT_MSGPACK);
	while ((rc = ls_read(&r, &rec)) > 0) {
		uint64_t id = 0, s = 0;
		int64_t t = 0;

		if (rec.kind == LS_K_ENTER || rec.kind == LS_K_LEAVE ||
		    rec.kind == LS_K_SEND || rec.kind == LS_K_RECV) {
			ls_get_u64(&rec, LS_F_ID, &id);
			ls_get_i64(&rec, LS_F_T, &t);
			ls_get_u64(&rec, LS_F_S, &s);
		}
		sum += id + (uint64_t)t + s;
		if (ls_write_record(&w, &rec) < 0)
			die("write failed");
		count++;
	}
	if (rc < 0)
		die(r.err);
	count += r.ended;	/* the trailer, which ls_read takes and does not hand out */
	ls_writer_flush(&w);
	ls_writer_release(&w);
	ls_reader_release(&r);
	return sum ? count : 0;
}

static int fd_write(void *data, const char *p, size_t n)
{
	msgpack_sbuffer *sb = data;

	return msgpack_sbuffer_write(sb, p, n);
}

static int64_t object_field(const msgpack_object *o, const char *key)
{
	size_t n = strlen(key);

	for (uint32_t i = 0; i < o->via.map.size; i++) {
		const msgpack_object_kv *kv = &o->via.map.ptr[i];

		if (kv->key.type == MSGPACK_OBJECT_STR && kv->key.via.str.size == n &&
		    memcmp(kv->key.via.str.ptr, key, n) == 0)
			return kv->val.via.i64;
	}
	return 0;
}

/* The same work through msgpack-c's unpacker and object API. */
static uint64_t run_msgpack_c(const char *path, int out)
{
	msgpack_unpacker up;
	msgpack_unpacked result;
	msgpack_sbuffer sb;
	msgpack_packer pk;
	uint64_t count = 0, sum = 0;
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0 || !msgpack_unpacker_init(&up, 1 << 20))
		die("cannot open the input");
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, fd_write);
	msgpack_unpacked_init(&result);
	for (;;) {
		if (msgpack_unpacker_buffer_capacity(&up) < (1 << 18) &&
		    !msgpack_unpacker_reserve_buffer(&up, 1 << 20))
			die("out of memory");
		n = read(fd, msgpack_unpacker_buffer(&up),
			 msgpack_unpacker_buffer_capacity(&up));
		if (n <= 0)
			break;
		msgpack_unpacker_buffer_consumed(&up, (size_t)n);
		while (msgpack_unpacker_next(&up, &result) == MSGPACK_UNPACK_SUCCESS) {
			const msgpack_object *o = &result.data;

			sum += (uint64_t)(object_field(o, "id") + object_field(o, "t") +
					  object_field(o, "s"));
			msgpack_pack_object(&pk, *o);
			if (sb.size >= (1 << 18)) {
				if (write(out, sb.data, sb.size) < 0)
					die("write failed");
				msgpack_sbuffer_clear(&sb);
			}
			count++;
		}
	}
	if (write(out, sb.data, sb.size) < 0)
		die("write failed");
	msgpack_unpacked_destroy(&result);
	msgpack_sbuffer_destroy(&sb);
	msgpack_unpacker_destroy(&up);
	close(fd);
	return sum ? count : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void run(const char *path, int runs)
{
	double ls[64], mc[64], m_ls, m_mc;
	uint64_t records = 0;
	int out = open("/dev/null", O_WRONLY);
	struct stat st;

	if (out < 0 || stat(path, &st) < 0 || runs < 1 || runs > 64)
		die("bad arguments");
	for (int i = 0; i < runs; i++) {
		double t0 = now();

		records = run_libstream(path, out);
		ls[i] = now() - t0;
		t0 = now();
		if (run_msgpack_c(path, out) != records)
			die("the readers disagree on the record count");
		mc[i] = now() - t0;
	}
	m_ls = median(ls, runs);
	m_mc = median(mc, runs);
	printf("libstream decode+encode: %" PRIu64 " records, %.1f bytes/record, median of %d runs\n",
	       records, (double)st.st_size / (double)records, runs);
	printf("  %-24s %8.3f s %8.2f M records/s\n", "libstream", m_ls,
	       (double)records / m_ls / 1e6);
	printf("  %-24s %8.3f s %8.2f M records/s\n", "msgpack-c object API", m_mc,
	       (double)records / m_mc / 1e6);
	printf("  libstream / msgpack-c: %.2fx (target: 20 M records/s)\n", m_mc / m_ls);
	close(out);
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "gen") == 0)
		gen(strtoull(argv[2], NULL, 10), argv[3]);
	else if (argc == 4 && strcmp(argv[1], "run") == 0)
		run(argv[2], atoi(argv[3]));
	else {
		fprintf(stderr, "usage: ls-bench gen N FILE | run FILE RUNS\n");
		return 2;
	}
	return 0;
}
