/*
 * A trace on standard input ("-"): readers open their input by path, some
 * twice (Kineto's two passes) and some with a library that seeks (SQLite),
 * so a pipe is first copied to an unlinked temporary file, which then
 * becomes standard input; /dev/stdin opens it again from its start.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../libstream/tmpfile.h"
#include "stdin.h"

/* Copy standard input to fd; 0, or -1 with errno set. */
static int copy_input(int fd)
{
	static char buf[1 << 16];

	for (;;) {
		ssize_t got = read(STDIN_FILENO, buf, sizeof(buf)), put = 0;

		if (got == 0)
			return 0;
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		while (put < got) {
			ssize_t w = write(fd, buf + put, (size_t)(got - put));

			if (w < 0 && errno != EINTR)
				return -1;
			put += w > 0 ? w : 0;
		}
	}
}

int stdin_as_file(char *err, size_t n)
{
	struct stat st;
	int fd;

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
	if ((fd = ls_tmp_fd("stdin")) < 0 || copy_input(fd) < 0 || dup2(fd, STDIN_FILENO) < 0) {
		snprintf(err, n, "standard input: cannot keep a copy in %s to read: %s", ls_tmp_dir(),
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}
