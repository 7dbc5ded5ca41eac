/*
 * A trace on standard input ("-"): readers open their input by path, some
 * twice (Kineto's two passes) and some with a library that seeks (SQLite),
 * so a pipe is first copied to an unlinked temporary file, which then
 * becomes standard input; /dev/stdin opens it again from its start.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "../libstream/tmpfile.h"
#include "stdin.h"

/* The copy leaves this share of its file system free (and 1 GiB at most). */
#define KEEP_FREE_SHARE 10
#define KEEP_FREE_MAX (UINT64_C(1) << 30)

/* Look at the space left every this many bytes copied. */
#define CHECK_EVERY (UINT64_C(1) << 20)

/* Read up to n bytes of standard input (fewer at its end); the count, or -1. */
static ssize_t read_head(uint8_t *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(STDIN_FILENO, buf + got, n - got);

		if (r == 0)
			break;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		got += (size_t)r;
	}
	return (ssize_t)got;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Whether the file system of fd has room for more of the copy. */
static bool room_left(int fd)
{
	struct statvfs v;
	uint64_t keep;

	if (fstatvfs(fd, &v) < 0)
		return true;	/* nothing known: a full disk says so itself */
	keep = (uint64_t)v.f_blocks * v.f_frsize / KEEP_FREE_SHARE;
	if (keep > KEEP_FREE_MAX)
		keep = KEEP_FREE_MAX;
	return (uint64_t)v.f_bavail * v.f_frsize > keep + CHECK_EVERY;
}

/*
 * Copy head, then the rest of standard input, to fd; 0, -1 with errno set,
 * or 1 where the copy would leave too little room (*copied bytes so far).
 */
static int copy_input(int fd, const uint8_t *head, size_t nhead, uint64_t *copied)
{
	static uint8_t buf[1 << 16];
	uint64_t checked = 0;

	*copied = nhead;
	if (write_all(fd, head, nhead) < 0)
		return -1;
	for (;;) {
		ssize_t got = read(STDIN_FILENO, buf, sizeof(buf));

		if (got == 0)
			return 0;
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (*copied >= checked) {
			if (!room_left(fd))
				return 1;
			checked = *copied + CHECK_EVERY;
		}
		if (write_all(fd, buf, (size_t)got) < 0)
			return -1;
		*copied += (uint64_t)got;
	}
}

int stdin_as_file(bool (*known)(const uint8_t *head, size_t n), char *err, size_t n)
{
	uint8_t head[STDIN_HEAD];
	uint64_t copied = 0;
	struct stat st;
	ssize_t got;
	int fd, rc;

	if (isatty(STDIN_FILENO)) {
		snprintf(err, n, "standard input is a terminal: pipe a trace into it "
			 "(zcat run.json.gz | tr-read -)");
		return -1;
	}
	if (fstat(STDIN_FILENO, &st) < 0) {
		snprintf(err, n, "standard input: %s", strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, n, "standard input is a folder: give a folder of traces by its name");
		return -1;
	}
	if ((got = read_head(head, sizeof(head))) < 0) {
		snprintf(err, n, "standard input: %s", strerror(errno));
		return -1;
	}
	if (!known(head, (size_t)got))
		return STDIN_UNKNOWN;
	if ((fd = ls_tmp_fd("stdin")) < 0) {
		snprintf(err, n, "standard input: cannot keep a copy in %s to read: %s", ls_tmp_named(),
			 strerror(errno));
		return -1;
	}
	if ((rc = copy_input(fd, head, (size_t)got, &copied)) != 0 || dup2(fd, STDIN_FILENO) < 0) {
		if (rc > 0)
			snprintf(err, n, "standard input: its copy in %s reached %.1f %s, and more would "
				 "leave it nearly full: give the trace as a file (or TMPDIR a roomier folder)",
				 ls_tmp_named(), copied >= 1000000000 ? (double)copied / 1e9 : (double)copied / 1e6,
				 copied >= 1000000000 ? "GB" : "MB");
		else
			snprintf(err, n, "standard input: cannot keep a copy in %s to read: %s",
				 ls_tmp_named(), strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}
