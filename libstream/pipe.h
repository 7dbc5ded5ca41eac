/* Pipes between stages: room enough that stages run side by side. */
#ifndef LS_PIPE_H
#define LS_PIPE_H

/*
 * If fd is a pipe, ask for a 1 MiB buffer instead of Linux's 64 KiB, so a
 * stage writes its 256 KiB flushes without waiting for the next stage to
 * read each 64 KiB. Where the system refuses (its pipe-max-size or a user's
 * limit), or on systems without F_SETPIPE_SZ, the pipe stays as it was.
 */
void ls_pipe_widen(int fd);

#endif
