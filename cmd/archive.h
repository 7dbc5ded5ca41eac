/*
 * Putting a new OTF2 archive DIR/NAME in place: it is written into a
 * hidden folder beside it, then its three parts (NAME.def, NAME/, and the
 * anchor NAME.otf2 last) are moved in, so that what looks like an archive
 * is a whole one. An existing archive is replaced only when asked, and
 * then only its own three parts are removed.
 */
#ifndef ARCHIVE_H
#define ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>

struct archive {
	char *dir, *name;	/* DIR and NAME of DIR/NAME */
	char *stage;		/* the hidden folder it is written into */
};

/*
 * Split path (DIR/NAME, or NAME in the current folder), refuse an existing
 * archive unless force, create DIR if needed and the staging folder in it.
 * Returns 0, or -1 with a one-line message in err[0..n).
 */
int archive_prepare(struct archive *a, const char *path, bool force, char *err, size_t n);

/* Move the staged archive into place (replacing the old one if force). */
int archive_place(struct archive *a, bool force, char *err, size_t n);

/* Remove the staging folder and everything in it; free a. */
void archive_release(struct archive *a);

#endif
