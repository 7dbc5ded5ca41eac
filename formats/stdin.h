/* A trace on standard input, made a file the readers can open again. */
#ifndef FORMATS_STDIN_H
#define FORMATS_STDIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Path readers open standard input by, once stdin_as_file made it a file. */
#define STDIN_PATH "/dev/stdin"

/* How many of its first bytes stdin_as_file shows known(). */
#define STDIN_HEAD 256

/* stdin_as_file's answer where known() knew none of its first bytes. */
#define STDIN_UNKNOWN (-2)

/*
 * Make standard input a file STDIN_PATH opens from its start: kept if it
 * is one, else (a pipe, a device) copied to an unlinked temporary file,
 * once known(head, n) has said its first bytes are a trace's: a stream of
 * something else is refused before any of it is kept (STDIN_UNKNOWN). The
 * copy stops before it would leave its folder (TMPDIR) nearly full.
 * Returns 0, STDIN_UNKNOWN, or -1 with a one-line message in err[0..n) (a
 * terminal, a folder, a full disk).
 */
int stdin_as_file(bool (*known)(const uint8_t *head, size_t n), char *err, size_t n);

#endif
