/*
 * A hidden folder beside a tool's output, where the output is made before
 * it is moved in. It is removed on every way the tool can end: success,
 * failure, and the signals that end a process (HUP, INT, QUIT, TERM,
 * ALRM, USR1, USR2); only SIGKILL leaves it, and the next run that
 * makes one in the same folder takes it back (the folder is locked while
 * its run lives). Two per process at most (an archive's and a stream
 * file's). Signals must come to the thread that
 * holds them (the main one): other threads block them.
 */
#ifndef STAGING_H
#define STAGING_H

#include <signal.h>

/*
 * Make DIR/.NAME.TOOL-XXXXXX (tool: the tool's name), first removing
 * those of tool's in DIR that killed runs left (any NAME; but one that
 * holds the backup of an old archive no longer in place: the only whole
 * copy), and have it removed if a signal ends the tool, with the folders the tool made for DIR
 * (made: the outermost of them, a prefix of dir; NULL: none) where they
 * are empty then. Returns its path (the caller frees it), or NULL with
 * errno set.
 */
char *staging_make(const char *dir, const char *name, const char *tool, const char *made);

/*
 * Steps a signal must not cut (moving an archive's parts, making folders
 * before the staging folder that removes them is armed): signals wait
 * from staging_hold until staging_go_on, and are handled then. They nest.
 */
void staging_hold(void);
void staging_go_on(void);

/*
 * Block the ending signals in the calling thread, its mask before in
 * *old: the threads it starts until it sets *old back never take them.
 */
void staging_mask_threads(sigset_t *old);

/*
 * The folder path holds the only whole copy of something (the old
 * archive, after a failure that could not be undone): a signal no longer
 * removes it.
 */
void staging_keep(const char *path);

/* Remove the folder and all it holds; forget it. Returns 0 or -1 (errno). */
int staging_remove(const char *path);

/*
 * Remove path and everything under it, without following links, with
 * calls a signal handler may make. Returns 0 (also if path is not there)
 * or -1 with errno set.
 */
int staging_remove_tree(const char *path);

#endif
