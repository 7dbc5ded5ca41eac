/*
 * Preloaded into a tool (LD_PRELOAD=tests/helper/libfault.so) to test
 * each step of moving its output into place: the file-system calls such
 * steps make (mkdir, rename, link, unlink, fsync) are counted, and the
 * one TR_FAULT names goes wrong:
 *
 *   TR_FAULT=N        the N-th call fails with EIO
 *   TR_FAULT=N:kill   the tool is killed (SIGKILL) instead of making it,
 *                     as a crash or a power cut would stop it there
 *   TR_FAULT=N:term   SIGTERM is sent to the tool (to the process, as kill
 *                     sends it: any thread that does not block it may take
 *                     it), then the call is made
 *   TR_FAULT_LOG=F    each call ("N name path") is appended to file F
 *   TR_FAULT_UNDER=D  only calls on paths that begin with D are counted
 *                     (not those of libraries, such as MPI's own folders)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static unsigned long calls;

/* Count this call; true if it is the one to go wrong (after killing, if asked). */
static int faulty(const char *name, const char *path)
{
	const char *spec = getenv("TR_FAULT"), *log = getenv("TR_FAULT_LOG");
	const char *under = getenv("TR_FAULT_UNDER");
	unsigned long n = spec ? strtoul(spec, NULL, 10) : 0;

	if (under && strncmp(path, under, strlen(under)) != 0)
		return 0;
	calls++;
	if (log) {
		FILE *f = fopen(log, "a");

		if (f) {
			fprintf(f, "%lu %s %s\n", calls, name, path);
			fclose(f);
		}
	}
	if (calls != n)
		return 0;
	if (strstr(spec, ":kill"))
		raise(SIGKILL);
	if (strstr(spec, ":term")) {
		kill(getpid(), SIGTERM);
		return 0;
	}
	errno = EIO;
	return 1;
}

/* The path an open file descriptor names, for the log. */
static const char *fd_path(int fd, char *buf, size_t n)
{
	char link[64];
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, buf, n - 1);
	buf[len < 0 ? 0 : len] = '\0';
	return buf;
}

#define NEXT(fn) ((__typeof__(&fn))dlsym(RTLD_NEXT, #fn))

int mkdir(const char *path, mode_t mode)
{
	return faulty("mkdir", path) ? -1 : NEXT(mkdir)(path, mode);
}

int rename(const char *from, const char *to)
{
	return faulty("rename", from) ? -1 : NEXT(rename)(from, to);
}

int link(const char *from, const char *to)
{
	return faulty("link", from) ? -1 : NEXT(link)(from, to);
}

int unlink(const char *path)
{
	return faulty("unlink", path) ? -1 : NEXT(unlink)(path);
}

int fsync(int fd)
{
	char buf[4096];

	return faulty("fsync", fd_path(fd, buf, sizeof(buf))) ? -1 : NEXT(fsync)(fd);
}
