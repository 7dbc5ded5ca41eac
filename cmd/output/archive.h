/*
 * Putting a new OTF2 archive DIR/NAME in place. An archive is three
 * entries (NAME.otf2, the anchor; NAME.def; the folder NAME/), so no one
 * rename swaps it: it is written and synced in a staging folder beside
 * it; an old archive is linked into a backup there; the old parts are
 * moved out and the new ones in, the anchor last; on a failure every
 * move is undone. After a crash at any step DIR holds a whole archive,
 * old or new, or no anchor at all and the staging folder a whole backup
 * of the old one. An existing archive is replaced only when asked, and
 * only where its parts are what an OTF2 writer makes (an anchor file, a
 * definitions file, a folder of location files): never a user's folder.
 */
#ifndef ARCHIVE_H
#define ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>

/* An archive's parts after DIR/NAME, in the order they are moved out: the anchor, the definitions, the folder. */
#define ARCHIVE_PARTS 3
extern const char *const archive_part_suffix[ARCHIVE_PARTS];

struct archive {
	char *dir, *name;	/* DIR and NAME of DIR/NAME */
	char *stage;		/* the staging folder the new archive is written into */
	char *made;		/* the outermost folder made for DIR, NULL: none */
	bool kept;		/* the staging folder holds the only whole old archive */
	bool placed;		/* the new archive is in place */
};

/*
 * Split path (DIR/NAME, or NAME in the current folder; DIR/NAME.otf2, the
 * anchor's name, is DIR/NAME too), refuse an existing
 * archive unless force (and with force, anything that is not one), create
 * DIR if needed and the staging folder in it. Returns 0, or -1 with a
 * one-line message in err[0..n); archive_release either way.
 */
int archive_prepare(struct archive *a, const char *path, bool force, char *err, size_t n);

/*
 * Sync the staged archive and move it into place, replacing the old one if
 * force. Returns 0, or -1 with a one-line message in err[0..n), the old
 * archive (if any) then back in place, or where it could not be put back
 * (a->kept), kept whole in the staging folder, which the message names.
 */
int archive_place(struct archive *a, bool force, char *err, size_t n);

/*
 * Remove the staging folder (unless it is kept) and, where no archive was
 * placed, the folders made for DIR that are empty; free a. Returns 0, or
 * -1 with a one-line message in err[0..n) if the folder could not be removed.
 */
int archive_release(struct archive *a, char *err, size_t n);

#endif
