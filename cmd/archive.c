/* Putting a new OTF2 archive in place, whole, and never more than its own files. */
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive.h"

static int fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

/* DIR/NAME + suffix, or NULL when out of memory. */
static char *part(const char *dir, const char *name, const char *suffix)
{
	char *p;

	return asprintf(&p, "%s/%s%s", dir, name, suffix) < 0 ? NULL : p;
}

/* The archive's own parts: the anchor, the definitions, the folder. */
static const char *const parts[] = { ".otf2", ".def", "" };

/* mkdir -p */
static int make_dirs(char *path)
{
	struct stat st;

	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	if (mkdir(path, 0777) < 0 && errno != EEXIST)
		return -1;
	if (stat(path, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

/* Which of the archive's parts exist: the first found, or NULL. */
static const char *existing_part(const struct archive *a)
{
	struct stat st;

	for (int i = 0; i < 3; i++) {
		char *p = part(a->dir, a->name, parts[i]);
		bool there = p && lstat(p, &st) == 0;

		free(p);
		if (there)
			return parts[i];
	}
	return NULL;
}

int archive_prepare(struct archive *a, const char *path, bool force, char *err, size_t n)
{
	const char *slash = strrchr(path, '/'), *found;

	a->dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	a->name = strdup(slash ? slash + 1 : path);
	a->stage = NULL;
	if (!a->dir || !a->name)
		return fail(err, n, "out of memory");
	if (!a->name[0] || strcmp(a->name, ".") == 0 || strcmp(a->name, "..") == 0)
		return fail(err, n, "%s: give the archive as DIR/NAME (NAME.otf2 is its anchor)", path);
	if (make_dirs(a->dir) < 0)
		return fail(err, n, "%s: %s", a->dir, strerror(errno));
	if ((found = existing_part(a)) && !force)
		return fail(err, n, "%s/%s%s exists; give --force to replace the archive",
			    a->dir, a->name, found);
	if (asprintf(&a->stage, "%s/.%s.tr-otf2-XXXXXX", a->dir, a->name) < 0) {
		a->stage = NULL;
		return fail(err, n, "out of memory");
	}
	if (!mkdtemp(a->stage)) {
		int e = errno;

		free(a->stage);
		a->stage = NULL;
		return fail(err, n, "%s: cannot write there: %s", a->dir, strerror(e));
	}
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* Remove path and, if it is a folder (not a link to one), what it holds. */
static int remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The old archive's parts: the anchor first, so that it stops looking whole. */
static int remove_old(const struct archive *a, char *err, size_t n)
{
	struct stat st;

	for (int i = 0; i < 3; i++) {
		char *p = part(a->dir, a->name, parts[i]);
		int rc;

		if (!p)
			return fail(err, n, "out of memory");
		if (lstat(p, &st) == 0 && (i < 2 ? S_ISDIR(st.st_mode) : !S_ISDIR(st.st_mode))) {
			fail(err, n, "%s is not part of an OTF2 archive; not replacing it", p);
			free(p);
			return -1;
		}
		rc = i < 2 ? (unlink(p) < 0 && errno != ENOENT ? -1 : 0) : remove_tree(p);
		if (rc < 0) {
			fail(err, n, "cannot remove %s: %s", p, strerror(errno));
			free(p);
			return -1;
		}
		free(p);
	}
	return 0;
}

int archive_place(struct archive *a, bool force, char *err, size_t n)
{
	static const char *const suffixes[] = { ".def", "", ".otf2" };	/* the anchor last */
	const char *found = existing_part(a);

	if (found && !force)
		return fail(err, n, "%s/%s%s appeared meanwhile; not replacing it", a->dir,
			    a->name, found);
	if (found && remove_old(a, err, n) < 0)
		return -1;
	for (int i = 0; i < 3; i++) {
		char *from = part(a->stage, a->name, suffixes[i]);
		char *to = part(a->dir, a->name, suffixes[i]);
		int rc = from && to ? rename(from, to) : -1;

		if (rc < 0)
			fail(err, n, "cannot move the archive into %s: %s", a->dir,
			     from && to ? strerror(errno) : "out of memory");
		free(from);
		free(to);
		if (rc < 0)
			return -1;
	}
	return 0;
}

void archive_release(struct archive *a)
{
	if (a->stage)
		remove_tree(a->stage);
	free(a->stage);
	free(a->dir);
	free(a->name);
}
