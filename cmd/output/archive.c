/* Putting a new OTF2 archive in place, whole, and never more than its own files. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive.h"
#include "staging.h"
#include "../common/tool.h"

/* The archive's parts, in the order they are moved out; moved in the other way round. */
enum part { ANCHOR, DEFS, FOLDER, PARTS };
const char *const archive_part_suffix[ARCHIVE_PARTS] = { ".otf2", ".def", "" };
_Static_assert(PARTS == ARCHIVE_PARTS, "an archive's parts, one suffix each");

static int fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

/* DIR/NAME + suffix, or NULL when out of memory. */
static char *path_of(const char *dir, const char *name, const char *sfx)
{
	char *p;

	return asprintf(&p, "%s/%s%s", dir, name, sfx) < 0 ? NULL : p;
}

/* mkdir -p; the first folder it made (the outermost) in *made, or NULL. */
static int make_dirs(char *path, char **made)
{
	struct stat st;

	*made = NULL;
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) < 0 ? errno != EEXIST : !*made && !(*made = strdup(path))) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	if (mkdir(path, 0777) < 0 ? errno != EEXIST : !*made && !(*made = strdup(path)))
		return -1;
	if (stat(path, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

/* --- what is there ----------------------------------------------------- */

/* A location file of an archive's folder: digits, then .evt, .def or .snap. */
static bool location_file_name(const char *s)
{
	const char *dot = strchr(s, '.');

	if (!dot || dot == s)
		return false;
	for (const char *p = s; p < dot; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return strcmp(dot, ".evt") == 0 || strcmp(dot, ".def") == 0 || strcmp(dot, ".snap") == 0;
}

/*
 * Is the regular file name (at dirfd) one libotf2 wrote? Every file of an
 * archive begins with libotf2's byte-order mark (3, then 'B' or 'L'); an
 * anchor file goes on with "OTF2", a definitions, events or snapshot file
 * with the header of its first chunk (1).
 */
static bool otf2_file(int dirfd, const char *name, bool anchor)
{
	unsigned char head[6];
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	bool ok = fd >= 0 && read(fd, head, sizeof(head)) == (ssize_t)sizeof(head) &&
		  head[0] == 3 && (head[1] == 'B' || head[1] == 'L') &&
		  (anchor ? memcmp(head + 2, "OTF2", 4) == 0 : head[2] == 1);

	if (fd >= 0)
		close(fd);
	return ok;
}

/* A folder holding nothing but location files libotf2 wrote. */
static int check_folder(const char *path, char *err, size_t n)
{
	DIR *d = opendir(path);
	struct dirent *e;
	struct stat st;
	int rc = 0;

	if (!d)
		return fail(err, n, "%s: %s", path, strerror(errno));
	while (rc == 0 && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (!location_file_name(e->d_name) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || !otf2_file(dirfd(d), e->d_name, false))
			rc = fail(err, n, "%s holds %s, which is not part of an OTF2 archive; "
				  "not replacing it", path, e->d_name);
	}
	closedir(d);
	return rc;
}

/* Is the existing part p at path what an OTF2 writer makes? */
static int check_part(const char *path, enum part p, char *err, size_t n)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return fail(err, n, "%s: %s", path, strerror(errno));
	switch (p) {
	case ANCHOR:
		if (!S_ISREG(st.st_mode) || !otf2_file(AT_FDCWD, path, true))
			return fail(err, n, "%s is not an OTF2 anchor file; not replacing it", path);
		return 0;
	case DEFS:
		if (!S_ISREG(st.st_mode) || !otf2_file(AT_FDCWD, path, false))
			return fail(err, n, "%s is not part of an OTF2 archive; not replacing it", path);
		return 0;
	default:
		if (!S_ISDIR(st.st_mode))
			return fail(err, n, "%s is not part of an OTF2 archive; not replacing it", path);
		return check_folder(path, err, n);
	}
}

/*
 * Which of DIR/NAME's parts are there (there[]); with anything there, -1
 * unless force, and with force -1 if a part is not what OTF2 writers make
 * (by its content: a name alone is no sign; parts without their anchor
 * are what a killed run left, replaced where libotf2 wrote them).
 * later: the target existed at the start but was free then.
 */
static int inspect(const struct archive *a, bool force, bool later, bool there[PARTS],
		   char *err, size_t n)
{
	struct stat st;
	int first = -1;

	for (int p = 0; p < PARTS; p++) {
		char *path = path_of(a->dir, a->name, archive_part_suffix[p]);

		if (!path)
			return fail(err, n, "out of memory");
		there[p] = lstat(path, &st) == 0;
		if (!there[p] && errno != ENOENT) {
			fail(err, n, "%s: %s", path, strerror(errno));
			free(path);
			return -1;
		}
		if (there[p] && first < 0)
			first = p;
		if (there[p] && force && check_part(path, (enum part)p, err, n) < 0) {
			free(path);
			return -1;
		}
		free(path);
	}
	if (first >= 0 && !force)
		return fail(err, n, later ? "%s/%s%s appeared meanwhile; not replacing it" :
				   "%s/%s%s exists; give --force to replace the archive",
			    a->dir, a->name, archive_part_suffix[first]);
	return 0;
}

int archive_prepare(struct archive *a, const char *path, bool force, char *err, size_t n)
{
	const char *slash = strrchr(path, '/');
	bool there[PARTS];
	int e;

	a->dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	a->name = strdup(slash ? slash + 1 : path);
	a->stage = a->made = NULL;
	a->kept = a->placed = false;
	if (!a->dir || !a->name)
		return fail(err, n, "out of memory");
	/* DIR/NAME.otf2, the anchor's name, names the archive DIR/NAME too */
	if (strlen(a->name) > strlen(archive_part_suffix[ANCHOR]) &&
	    strcmp(a->name + strlen(a->name) - strlen(archive_part_suffix[ANCHOR]), archive_part_suffix[ANCHOR]) == 0)
		a->name[strlen(a->name) - strlen(archive_part_suffix[ANCHOR])] = '\0';
	if (!a->name[0] || strcmp(a->name, ".") == 0 || strcmp(a->name, "..") == 0)
		return fail(err, n, "%s: give the archive as DIR/NAME (NAME.otf2 is its anchor)", path);
	/* a signal between making the folders and arming the staging folder would leave them */
	staging_hold();
	if (make_dirs(a->dir, &a->made) < 0) {
		e = errno;
		staging_go_on();
		return fail(err, n, "%s: %s", a->dir, strerror(e));
	}
	a->stage = staging_make(a->dir, a->name, tool_stage()->tool, a->made);
	e = errno;
	staging_go_on();
	if (!a->stage)
		return fail(err, n, "%s: cannot write there: %s", a->dir, strerror(e));
	return inspect(a, force, false, there, err, n) < 0 ? -1 : 0;
}

/* --- syncing and the backup -------------------------------------------- */

static int sync_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	if (rc < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

/*
 * Apply each (folder, its file) to every regular file in folder: the
 * first failure's errno, with *what naming the file, or 0.
 */
static int each_file(const char *folder, int (*fn)(const char *, const char *, const void *),
		     const void *data, char **what)
{
	DIR *d = opendir(folder);
	struct dirent *e;
	int rc = 0;

	if (!d) {
		*what = strdup(folder);
		return errno;
	}
	while (rc == 0 && (errno = 0, e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (fn(folder, e->d_name, data) < 0) {
			rc = errno;
			*what = path_of(folder, e->d_name, "");
		}
	}
	if (rc == 0 && errno) {
		rc = errno;
		*what = strdup(folder);
	}
	closedir(d);
	return rc;
}

static int sync_one(const char *folder, const char *file, const void *data)
{
	char *p = path_of(folder, file, "");
	int rc = p ? sync_path(p) : -1;

	(void)data;
	free(p);
	return rc;
}

/* Sync path (a file, or a folder and its files); 0 or an errno, *what naming what failed. */
static int sync_part(const char *path, bool folder, char **what)
{
	int e = folder ? each_file(path, sync_one, NULL, what) : 0;

	if (e == 0 && sync_path(path) < 0) {
		e = errno;
		*what = strdup(path);
	}
	return e;
}

/* Sync the staged archive (its files, then the folders naming them). Returns 0 or an errno. */
static int sync_staged(const struct archive *a, char **what)
{
	int e = 0;

	for (int p = 0; p < PARTS && e == 0; p++) {
		char *path = path_of(a->stage, a->name, archive_part_suffix[p]);

		e = path ? sync_part(path, p == FOLDER, what) : ENOMEM;
		free(path);
	}
	return e ? e : sync_part(a->stage, false, what);
}

static int link_one(const char *folder, const char *file, const void *into)
{
	char *from = path_of(folder, file, ""), *to = path_of(into, file, "");
	int rc = from && to ? link(from, to) : -1;

	free(from);
	free(to);
	return rc;
}

/*
 * Link the old part from into to (a folder: its files into a new folder,
 * which is synced: a link is an entry of the folder that holds it).
 */
static int link_part(const char *from, const char *to, bool folder, char **what)
{
	int e;

	if (folder ? mkdir(to, 0700) < 0 : link(from, to) < 0) {
		*what = strdup(to);
		return errno;
	}
	if (folder && (e = each_file(from, link_one, to, what)) != 0)
		return e;
	return folder ? sync_part(to, false, what) : 0;
}

/*
 * Link the old archive's parts into STAGE/old, the anchor last, and sync
 * it: a whole copy of it, made before anything of it moves. Returns 0 or
 * an errno, *what naming the file.
 */
static int back_up(const struct archive *a, const bool there[PARTS], char **what)
{
	char *old = path_of(a->stage, "old", "");
	int e = old ? 0 : ENOMEM;

	if (e == 0 && mkdir(old, 0700) < 0) {
		e = errno;
		*what = strdup(old);
	}
	for (int p = FOLDER; p >= ANCHOR && e == 0; p--) {
		char *from = path_of(a->dir, a->name, archive_part_suffix[p]), *to = path_of(old, a->name, archive_part_suffix[p]);

		if (!from || !to)
			e = ENOMEM;
		else if (there[p])
			e = link_part(from, to, p == FOLDER, what);
		free(from);
		free(to);
	}
	if (e == 0)
		e = sync_part(old, false, what);
	free(old);
	return e ? e : sync_part(a->stage, false, what);
}

/* --- the moves ---------------------------------------------------------- */

/* One rename of the switch, and whether it was made. */
struct move {
	char *from, *to;
	bool done;
};

#define MOVES (2 * PARTS)

/*
 * The old parts out into STAGE/out*, then the new ones in from STAGE,
 * the anchor last. Only the old parts that are there move.
 */
static int plan(const struct archive *a, const bool there[PARTS], struct move m[MOVES])
{
	memset(m, 0, MOVES * sizeof(*m));
	for (int p = 0; p < PARTS; p++) {
		struct move *out = &m[p], *in = &m[MOVES - 1 - p];

		if (there[p] && (!(out->from = path_of(a->dir, a->name, archive_part_suffix[p])) ||
				 !(out->to = path_of(a->stage, "out", archive_part_suffix[p]))))
			return -1;
		if (!(in->from = path_of(a->stage, a->name, archive_part_suffix[p])) ||
		    !(in->to = path_of(a->dir, a->name, archive_part_suffix[p])))
			return -1;
	}
	return 0;
}

/* Undo the moves made, the last first. Returns 0, or an errno and *what. */
static int undo(struct move m[MOVES], char **what)
{
	for (int i = MOVES - 1; i >= 0; i--) {
		if (!m[i].done)
			continue;
		if (rename(m[i].to, m[i].from) < 0) {
			*what = strdup(m[i].to);
			return errno;
		}
		m[i].done = false;
	}
	return 0;
}

/* Make the moves, then sync DIR. Returns 0, or an errno and *what. */
static int make_moves(const struct archive *a, struct move m[MOVES], char **what)
{
	for (int i = 0; i < MOVES; i++) {
		if (!m[i].from)
			continue;
		if (rename(m[i].from, m[i].to) < 0) {
			*what = strdup(m[i].from);
			return errno;
		}
		m[i].done = true;
	}
	if (sync_path(a->dir) < 0) {
		*what = strdup(a->dir);
		return errno;
	}
	return 0;
}

/*
 * The switch: old parts out, new in, DIR synced; on a failure, every move
 * undone. Returns 0 or -1 with the message.
 */
static int switch_parts(struct archive *a, const bool there[PARTS], bool backed_up,
			char *err, size_t n)
{
	struct move m[MOVES];
	char *what = NULL, *undo_what = NULL;
	int e, ue, rc = 0;

	if (plan(a, there, m) < 0) {
		rc = fail(err, n, "out of memory");
		goto out;
	}
	if ((e = make_moves(a, m, &what)) == 0)
		goto out;
	if ((ue = undo(m, &undo_what)) == 0) {
		rc = fail(err, n, "cannot move the archive into %s: %s: %s%s", a->dir,
			  what ? what : "", strerror(e),
			  backed_up ? "; the old archive is back in place" : "");
		goto out;
	}
	a->kept = backed_up;
	rc = backed_up ?
	     fail(err, n, "cannot move the archive into %s: %s: %s; nor back: %s: %s; "
		  "the old archive is kept whole in %s/old", a->dir, what ? what : "",
		  strerror(e), undo_what ? undo_what : "", strerror(ue), a->stage) :
	     fail(err, n, "cannot move the archive into %s: %s: %s; nor back: %s: %s",
		  a->dir, what ? what : "", strerror(e), undo_what ? undo_what : "",
		  strerror(ue));
out:
	for (int i = 0; i < MOVES; i++) {
		free(m[i].from);
		free(m[i].to);
	}
	free(what);
	free(undo_what);
	return rc;
}

int archive_place(struct archive *a, bool force, char *err, size_t n)
{
	bool there[PARTS];
	char *what = NULL;
	int e, rc;

	if ((e = sync_staged(a, &what)) != 0) {
		rc = fail(err, n, "%s: %s", what ? what : a->stage, strerror(e));
		free(what);
		return rc;
	}
	staging_hold();
	if ((rc = inspect(a, force, true, there, err, n)) < 0)
		goto out;
	if (there[ANCHOR] && (e = back_up(a, there, &what)) != 0) {
		rc = fail(err, n, "cannot keep a copy of the old archive: %s: %s; it is left "
			  "as it was", what ? what : a->stage, strerror(e));
		goto out;
	}
	rc = switch_parts(a, there, there[ANCHOR], err, n);
	a->placed = rc == 0;
out:
	if (a->kept)
		staging_keep(a->stage);
	staging_go_on();
	free(what);
	return rc;
}

int archive_release(struct archive *a, char *err, size_t n)
{
	int rc = 0;

	if (a->stage && !a->kept && staging_remove(a->stage) < 0)
		rc = fail(err, n, "cannot remove %s: %s", a->stage, strerror(errno));
	/* no archive placed: the folders made for it go, from the innermost out, where empty */
	for (size_t len = a->dir ? strlen(a->dir) : 0; a->made && !a->placed && !rc && !a->kept &&
	     len >= strlen(a->made) && rmdir(a->dir) == 0;) {
		while (len > 1 && a->dir[--len] != '/')
			;
		a->dir[len] = '\0';
	}
	free(a->stage);
	free(a->dir);
	free(a->name);
	free(a->made);
	a->stage = a->dir = a->name = a->made = NULL;
	return rc;
}
