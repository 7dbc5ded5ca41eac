/* The log of one recorded process: naming, header, buffer, lock, its write-outs. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../formats/trlog/trlog.h"
#include "../libstream/enc.h"
#include "log.h"

/* Write out at this much; a record may take the buffer past it. */
#define FLUSH_AT (1u << 20)
/*
 * ... and a second after the last write-out, looked at every CHECK_EVERY
 * records: a process killed outright (SIGKILL, the OOM killer) loses a
 * second of records, or CHECK_EVERY, at most.
 */
#define FLUSH_EVERY 1000000000
#define CHECK_EVERY 16
/* Room made at once, so that records past FLUSH_AT seldom move the buffer (dying_write_out reads it). */
#define BUF_ROOM (2 * FLUSH_AT)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ls_buf buf = LS_BUF_INIT;
static int fd = -1;
static bool failed;		/* opening or writing failed: recording is off */
static int64_t start_mono, start_real;
static uint64_t nthreads;
static __thread uint64_t my_thread = UINT64_MAX;
static uint64_t cur_thread;	/* the thread of the record begun: its the time a write-out takes */
static bool forked;		/* this is a child forked from the recorded process: not recorded */
static char log_path[PATH_MAX];	/* for messages */
static int64_t last_out;	/* when the buffer was last written out (coarse_now) */
static unsigned since_check;	/* records since the clock was looked at */

/*
 * What a signal handler may read without the lock (dying_write_out):
 * the buffer, the end of its last whole record, how much of it the
 * write-out under way has written, and which thread writes (a marker of
 * its own).
 */
static uint8_t *whole_p;
static size_t whole_len, out_at;
static const void *writer;
static __thread char writer_mark;
static int dying;		/* a handler has begun the last write-out */

/* A clock cheap enough to read at every record, to the kernel's tick: for when to write out. */
static int64_t coarse_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t rec_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void rec_say(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	fprintf(stderr, "tr-record: %.*s", n, line);
}

/* The rank the launcher gives this process, or -1. */
static long launcher_rank(void)
{
	static const char *const vars[] = {
		"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID",
	};

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);
		char *end;
		long r;

		if (!v || !*v)
			continue;
		errno = 0;
		r = strtol(v, &end, 10);
		if (!*end && !errno && r >= 0 && r < INT_MAX)
			return r;
	}
	return -1;
}

static void enc_key_str(const char *key, const char *val)
{
	ls_enc_str(&buf, key, strlen(key));
	ls_enc_str(&buf, val, strlen(val));
}

static void enc_key_int(const char *key, int64_t val)
{
	ls_enc_str(&buf, key, strlen(key));
	ls_enc_int(&buf, val);
}

static void write_header(long rank)
{
	const char *job = getenv("TR_RECORD_JOB");
	char host[256] = "", program[PATH_MAX] = "";
	ssize_t n = readlink("/proc/self/exe", program, sizeof(program) - 1);
	const char *base;

	program[n > 0 ? n : 0] = '\0';
	base = strrchr(program, '/') ? strrchr(program, '/') + 1 : program;
	gethostname(host, sizeof(host) - 1);
	ls_enc_map(&buf, 9 + (rank >= 0) + (job && *job));
	enc_key_str("format", "trlog");
	enc_key_int("major", TRLOG_MAJOR);
	enc_key_int("minor", TRLOG_MINOR);
	enc_key_str("producer", "tr-record " TR_VERSION);
	enc_key_str("host", host);
	enc_key_int("pid", getpid());
	enc_key_str("program", base);
	enc_key_int("start", start_mono);
	enc_key_int("realtime", start_real);
	if (rank >= 0)
		enc_key_int("launcher_rank", rank);
	if (job && *job)
		enc_key_str("job", job);
}

static void write_out(void);

/* Open the log in TR_RECORD_DIR; under the lock. */
static void open_log(void)
{
	const char *dir = getenv("TR_RECORD_DIR");
	long rank = launcher_rank();
	char path[PATH_MAX];

	if (!dir || !*dir) {
		failed = true;
		return;
	}
	if (rank >= 0)
		snprintf(path, sizeof(path), "%s/rank-%ld%s", dir, rank, TRLOG_SUFFIX);
	else
		snprintf(path, sizeof(path), "%s/pid-%ld%s", dir, (long)getpid(), TRLOG_SUFFIX);
	snprintf(log_path, sizeof(log_path), "%s", path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		rec_say("%s: %s; this process is not recorded", path, strerror(errno));
		failed = true;
		return;
	}
	if (ls_buf_grow(&buf, BUF_ROOM) < 0) {
		rec_say("out of memory; this process is not recorded");
		failed = true;
		return;
	}
	write_header(rank);
	write_out();	/* at once: tr-record's check of the folder reads it */
}

/* The buffer's whole records, for a handler: called where one ends. */
static void mark_whole(void)
{
	__atomic_store_n(&whole_p, buf.p, __ATOMIC_RELEASE);
	__atomic_store_n(&whole_len, buf.len, __ATOMIC_RELEASE);
}

static void write_out(void)
{
	size_t at = 0;

	mark_whole();
	__atomic_store_n(&writer, &writer_mark, __ATOMIC_SEQ_CST);
	while (at < buf.len && !failed) {
		ssize_t n = write(fd, buf.p + at, buf.len - at);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rec_say("writing %s: %s; recording stops here", log_path,
				n < 0 ? strerror(errno) : "nothing written");
			failed = true;
		} else {
			at += (size_t)n;
			__atomic_store_n(&out_at, at, __ATOMIC_RELEASE);
		}
	}
	/* emptied: first nothing whole, then nothing written (a handler between the two writes none) */
	__atomic_store_n(&whole_len, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&out_at, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&writer, NULL, __ATOMIC_SEQ_CST);
	buf.len = 0;
	last_out = coarse_now();
}

bool rec_on(void)
{
	return !failed;
}

struct ls_buf *rec_begin(uint64_t *thread)
{
	if (failed)
		return NULL;
	pthread_mutex_lock(&lock);
	if (fd < 0 && !failed)
		open_log();
	if (failed || forked) {
		pthread_mutex_unlock(&lock);
		return NULL;
	}
	if (thread && my_thread == UINT64_MAX) {
		my_thread = nthreads++;
		ls_enc_array(&buf, 3);
		ls_enc_uint(&buf, TRLOG_THREAD);
		ls_enc_uint(&buf, my_thread);
		ls_enc_uint(&buf, (uint64_t)syscall(SYS_gettid));
	}
	if (thread)
		*thread = my_thread;
	cur_thread = thread ? my_thread : UINT64_MAX;
	return &buf;
}

/*
 * Write the buffer out in a program thread's time: said in the log, so
 * that the analysis shows what recording cost where (not in CUPTI's
 * thread, which is no thread of the program's).
 */
static void write_out_timed(void)
{
	int64_t t0 = rec_now(), t1;

	write_out();
	t1 = rec_now();
	if (cur_thread == UINT64_MAX || failed)
		return;
	ls_enc_array(&buf, 4);
	ls_enc_uint(&buf, TRLOG_FLUSH);
	ls_enc_uint(&buf, cur_thread);
	ls_enc_int(&buf, t0);
	ls_enc_int(&buf, t1);
}

void rec_end(void)
{
	if (buf.len >= FLUSH_AT || (++since_check % CHECK_EVERY == 0 && coarse_now() - last_out >= FLUSH_EVERY))
		write_out_timed();
	else
		mark_whole();
	pthread_mutex_unlock(&lock);
}

void rec_flush(void)
{
	pthread_mutex_lock(&lock);
	if (fd >= 0 && !forked)
		write_out();
	pthread_mutex_unlock(&lock);
}

/* Write n bytes at p, whatever a signal does; false where the disk refuses. */
static bool write_all(const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

void rec_dying(int signo)
{
	uint8_t last[32], *p = last;
	const void *w;
	int64_t until = rec_now() + FLUSH_EVERY / 4;
	size_t from, to;
	int e = errno;

	if (__atomic_exchange_n(&dying, 1, __ATOMIC_SEQ_CST) || fd < 0 || forked || failed)
		goto out;
	/* another thread writing out: let it finish (a quarter second at most) */
	while ((w = __atomic_load_n(&writer, __ATOMIC_SEQ_CST)) && w != &writer_mark && rec_now() < until)
		;
	from = __atomic_load_n(&out_at, __ATOMIC_ACQUIRE);
	to = __atomic_load_n(&whole_len, __ATOMIC_ACQUIRE);
	/* [18, t, signo], encoded in place: no allocation in a handler */
	*p++ = 0x93;
	p = ls_enc_uint_at(p, TRLOG_SIGNAL);
	p = ls_enc_int_at(p, rec_now());
	p = ls_enc_uint_at(p, (uint64_t)signo);
	if (from >= to || write_all(__atomic_load_n(&whole_p, __ATOMIC_ACQUIRE) + from, to - from))
		write_all(last, (size_t)(p - last));
	failed = true;	/* nothing more: what other threads add is not whole */
out:
	errno = e;
}

/* In a child forked (not exec'd) from the program: its log is the parent's, so the child writes none. */
static void in_child(void)
{
	forked = true;
}

__attribute__((constructor)) static void rec_load(void)
{
	struct timespec ts;

	pthread_atfork(NULL, NULL, in_child);
	rec_take_signals(true);
	start_mono = rec_now();
	clock_gettime(CLOCK_REALTIME, &ts);
	start_real = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* At exit: the end record, and everything out. */
__attribute__((destructor)) static void rec_unload(void)
{
	pthread_mutex_lock(&lock);
	if (fd >= 0 && !forked && !failed) {
		ls_enc_array(&buf, 2);
		ls_enc_uint(&buf, TRLOG_END);
		ls_enc_int(&buf, rec_now());
		write_out();
		close(fd);
		fd = -1;
		failed = true;
	}
	pthread_mutex_unlock(&lock);
}
