/* A stream file written in a staging folder and moved in whole. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../libstream/header.h"
#include "../../libstream/reader.h"
#include "staging.h"
#include "stream-file.h"

/* Is path a record stream (its first record a header)? */
static bool is_stream(const char *path)
{
	struct ls_reader r;
	struct ls_record rec;
	bool yes;

	if (ls_reader_open(&r, path) < 0)
		return false;
	yes = ls_read(&r, &rec) > 0 && rec.kind == LS_K_HEADER;
	ls_reader_release(&r);
	return yes;
}

int stream_file_open(struct stream_file *f, const char *path, bool force, bool place, char *err,
		     size_t n)
{
	char *d = strdup(path), *b = strdup(path);
	struct stat st;
	int fd = -1;

	memset(f, 0, sizeof(*f));
	f->path = path;
	f->place = place;
	if (!d || !b) {
		snprintf(err, n, "out of memory");
		goto failed;
	}
	if (place && stat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
		if (!(f->tmp = strdup(path)) || (fd = open(path, O_WRONLY | O_CLOEXEC)) < 0) {
			snprintf(err, n, "%s: %s", path, f->tmp ? strerror(errno) : "out of memory");
			goto failed;
		}
		f->straight = true;
		goto opened;
	}
	if (place && lstat(path, &st) == 0) {
		if (!force) {
			snprintf(err, n, "%s is there already: give --force to replace it", path);
			goto failed;
		}
		if (!S_ISREG(st.st_mode) || !is_stream(path)) {
			snprintf(err, n, "%s is not a record stream; not replacing it", path);
			goto failed;
		}
	}
	if (!(f->stage = staging_make(dirname(d), basename(b), "tr-analyze", NULL)) ||
	    asprintf(&f->tmp, "%s/stream", f->stage) < 0 ||
	    (fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0) {
		snprintf(err, n, "%s: %s", path, strerror(errno));
		goto failed;
	}
opened:
	ls_writer_init(&f->w, fd, LS_FMT_MSGPACK);
	free(d);
	free(b);
	return 0;
failed:
	if (f->stage)
		staging_remove(f->stage);
	free(f->stage);
	free(f->tmp);
	free(d);
	free(b);
	return -1;
}

int stream_file_end(struct stream_file *f, char *err, size_t n)
{
	int rc = ls_write_trailer(&f->w) < 0 || ls_writer_flush(&f->w) < 0 ||
		 (!f->straight && fsync(f->w.fd) < 0) ? -1 : 0;

	if (close(f->w.fd) < 0)
		rc = -1;
	f->w.fd = -1;
	if (rc < 0)
		snprintf(err, n, "%s: %s", f->path, strerror(f->w.err ? f->w.err : errno));
	return rc;
}

int stream_file_close(struct stream_file *f, bool ok, char *err, size_t n)
{
	int rc = 0;

	if (ok && f->place && !f->straight && rename(f->tmp, f->path) < 0) {
		snprintf(err, n, "%s: %s", f->path, strerror(errno));
		rc = -1;
	}
	if (f->w.fd >= 0)
		close(f->w.fd);
	ls_writer_release(&f->w);
	if (f->stage && staging_remove(f->stage) < 0 && rc == 0 && ok) {
		snprintf(err, n, "%s: %s", f->stage, strerror(errno));
		rc = -1;
	}
	free(f->stage);
	free(f->tmp);
	return ok ? rc : 0;
}
