/*
 * A tool's staging folder: made beside its output, gone however the tool
 * ends; what a killed run left, taken back by the next run in its folder.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "staging.h"

/* The signals whose default action ends the process, and that can be caught. */
static const int ending[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGALRM, SIGUSR1, SIGUSR2 };

/* The folders a signal removes, while armed: an archive's and a stream file's. */
#define FOLDERS 2
static char doomed[FOLDERS][PATH_MAX];
static char made_for[FOLDERS][PATH_MAX];	/* the outermost folder made for its DIR, "" none */
static volatile sig_atomic_t armed[FOLDERS];
/* Each folder open and locked while its tool lives: a lock a killed process can only let go */
static int lock_fd[FOLDERS] = { -1, -1 };

/* What getdents64 returns, one after another. */
struct dent64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

#define MAX_DEPTH 16

static int empty_folder(int fd, int depth);

/* Remove the entry name of the folder open as fd. */
static int remove_entry(int fd, const char *name, unsigned char type, int depth)
{
	int sub, rc;

	if (type != DT_DIR) {
		if (unlinkat(fd, name, 0) == 0)
			return 0;
		if (errno != EISDIR || type != DT_UNKNOWN)
			return -1;
	}
	if (depth == 0) {
		errno = ELOOP;
		return -1;
	}
	if ((sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return -1;
	rc = empty_folder(sub, depth - 1);
	close(sub);
	return rc < 0 ? -1 : unlinkat(fd, name, AT_REMOVEDIR);
}

/*
 * Remove everything in the folder open as fd. Removing entries while
 * reading them can skip some, so it reads again until a pass removes
 * nothing: then the folder is empty, or what is left cannot be removed.
 */
static int empty_folder(int fd, int depth)
{
	char buf[4096] __attribute__((aligned(8)));
	int failed = 0;
	bool removed;
	long n;

	do {
		removed = false;
		if (lseek(fd, 0, SEEK_SET) < 0)
			return -1;
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
			for (long at = 0; at < n;) {
				struct dent64 *d = (struct dent64 *)(void *)(buf + at);

				at += d->reclen;
				if (strcmp(d->name, ".") == 0 || strcmp(d->name, "..") == 0)
					continue;
				if (remove_entry(fd, d->name, d->type, depth) == 0)
					removed = true;
				else
					failed = errno;
			}
		}
		if (n < 0)
			return -1;
	} while (removed);
	if (failed) {
		errno = failed;
		return -1;
	}
	return 0;
}

int staging_remove_tree(const char *path)
{
	struct stat st;
	int fd, rc;

	if (fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return -1;
	rc = empty_folder(fd, MAX_DEPTH);
	close(fd);
	return rc < 0 ? -1 : rmdir(path);
}

/* The folders made for slot i's DIR, from the innermost out to made_for[i], where empty. */
static void remove_made(int i)
{
	char path[PATH_MAX];
	char *slash;

	if (!made_for[i][0])
		return;
	memcpy(path, doomed[i], sizeof(path));
	while ((slash = strrchr(path, '/'))) {
		*slash = '\0';
		if (rmdir(path) < 0 || strcmp(path, made_for[i]) == 0)
			return;
	}
}

/* Remove the folders, then end as the signal would have ended the tool. */
static void on_signal(int sig)
{
	for (int i = 0; i < FOLDERS; i++) {
		if (armed[i] && staging_remove_tree(doomed[i]) == 0)
			remove_made(i);
		armed[i] = 0;
	}
	raise(sig);	/* the handler was reset on entry (SA_RESETHAND) */
}

/* The slot of folder path (NULL: a free one), or -1. */
static int slot_of(const char *path)
{
	for (int i = 0; i < FOLDERS; i++)
		if (path ? armed[i] && strcmp(doomed[i], path) == 0 : !armed[i])
			return i;
	return -1;
}

static void block(int how)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(ending) / sizeof(ending[0]); i++)
		sigaddset(&set, ending[i]);
	sigprocmask(how, &set, NULL);
}

/* How deep staging_hold is nested (the main thread's: signals come to it alone). */
static int holds;

void staging_hold(void)
{
	if (holds++ == 0)
		block(SIG_BLOCK);
}

void staging_go_on(void)
{
	if (holds > 0 && --holds == 0)
		block(SIG_UNBLOCK);
}

void staging_mask_threads(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(ending) / sizeof(ending[0]); i++)
		sigaddset(&set, ending[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

/* Catch the ending signals, but those the tool was started ignoring (nohup). */
static void catch_signals(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(ending) / sizeof(ending[0]); i++)
		if (sigaction(ending[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(ending[i], &sa, NULL);
}

/* Is entry a staging folder's name of tool's (.NAME.TOOL-XXXXXX)? NAME's length in *n. */
static bool staging_name(const char *entry, const char *tool, size_t *n)
{
	size_t len = strlen(entry), tail = strlen(tool) + 8;	/* ".TOOL-XXXXXX" */

	if (entry[0] != '.' || len < tail + 2 || entry[len - tail] != '.' ||
	    strncmp(entry + len - tail + 1, tool, strlen(tool)) != 0 || entry[len - 7] != '-')
		return false;
	for (size_t i = len - 6; i < len; i++)
		if (!isalnum((unsigned char)entry[i]))
			return false;
	*n = len - tail - 1;
	return true;
}

/*
 * Whether the unlocked staging folder (open as fd, of the archive or
 * stream NAME in the folder open as dir) may go: unless it holds the
 * backup of an old archive (old/NAME.otf2) that is not still in place,
 * as when its run was killed while it moved the archive's parts: then
 * the backup may be the only whole copy, and stays.
 */
static bool nothing_only_here(int dir, int fd, const char *name)
{
	char anchor[NAME_MAX + 16];
	struct stat backup, placed;

	snprintf(anchor, sizeof(anchor), "old/%s.otf2", name);
	if (fstatat(fd, "old", &backup, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT;
	if (fstatat(fd, anchor, &backup, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT;	/* the backup begun, the anchor not yet in it: the old is in place */
	return fstatat(dir, anchor + 4, &placed, AT_SYMLINK_NOFOLLOW) == 0 &&
	       placed.st_dev == backup.st_dev && placed.st_ino == backup.st_ino;
}

/*
 * Remove the staging folders of tool's in dir (open as dfd) that no
 * living run holds (their lock free: the run was killed), but where one
 * holds the only copy of an old archive.
 */
static void reclaim(int dfd, const char *dir, const char *tool)
{
	DIR *d;
	struct dirent *e;
	int fd = dup(dfd);

	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		char path[PATH_MAX], name[NAME_MAX + 1];
		size_t n;
		int sub;

		if (!staging_name(e->d_name, tool, &n) ||
		    (sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
			continue;
		memcpy(name, e->d_name + 1, n);
		name[n] = '\0';
		if (flock(sub, LOCK_EX | LOCK_NB) == 0 && nothing_only_here(dfd, sub, name) &&
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < sizeof(path))
			staging_remove_tree(path);
		close(sub);
	}
	closedir(d);
}

char *staging_make(const char *dir, const char *name, const char *tool, const char *made)
{
	char *path;
	int e, i, dfd;

	if (asprintf(&path, "%s/.%s.%s-XXXXXX", dir, name, tool) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	if (strlen(path) >= sizeof(doomed[0]) || (made && strlen(made) >= sizeof(made_for[0]))) {
		free(path);
		errno = ENAMETOOLONG;
		return NULL;
	}
	staging_hold();
	/* dir locked while folders are reclaimed and this one made and locked: none is taken for another's */
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0 && flock(dfd, LOCK_EX) == 0)
		reclaim(dfd, dir, tool);
	if ((i = slot_of(NULL)) < 0 || !mkdtemp(path)) {
		e = i < 0 ? EMFILE : errno;
		if (dfd >= 0)
			close(dfd);
		staging_go_on();
		free(path);
		errno = e;
		return NULL;
	}
	if ((lock_fd[i] = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0)
		flock(lock_fd[i], LOCK_EX | LOCK_NB);
	if (dfd >= 0)
		close(dfd);
	strcpy(doomed[i], path);
	strcpy(made_for[i], made ? made : "");
	armed[i] = 1;
	catch_signals();
	staging_go_on();
	return path;
}

/* Slot i's lock let go. */
static void unlock(int i)
{
	if (lock_fd[i] >= 0)
		close(lock_fd[i]);
	lock_fd[i] = -1;
}

void staging_keep(const char *path)
{
	int i = slot_of(path);

	if (i >= 0) {
		armed[i] = 0;
		unlock(i);
	}
}

int staging_remove(const char *path)
{
	int rc, e, i;

	staging_hold();
	if ((i = slot_of(path)) >= 0)
		armed[i] = 0;
	rc = staging_remove_tree(path);
	if (i >= 0)
		unlock(i);
	e = errno;
	staging_go_on();
	errno = e;
	return rc;
}
