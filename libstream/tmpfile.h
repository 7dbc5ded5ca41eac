/*
 * Temporary files that leave nothing behind: made in $TMPDIR (or /tmp)
 * and unlinked at once, so they go with the process however it ends.
 */
#ifndef LS_TMPFILE_H
#define LS_TMPFILE_H

/* The directory temporary files are made in. */
const char *ls_tmp_dir(void);

/*
 * The same for a message: "TMPDIR=DIR" where the environment names it
 * (so that the user sees what to change), else the default folder.
 */
const char *ls_tmp_named(void);

/*
 * A new unlinked temporary file named for what (tr-WHAT-XXXXXX while it
 * has a name), open for reading and writing. Returns its descriptor, or
 * -1 with errno set.
 */
int ls_tmp_fd(const char *what);

#endif
