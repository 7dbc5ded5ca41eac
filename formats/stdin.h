/* A trace on standard input, made a file the readers can open again. */
#ifndef FORMATS_STDIN_H
#define FORMATS_STDIN_H

#include <stddef.h>

/* Path readers open standard input by, once stdin_as_file made it a file. */
#define STDIN_PATH "/dev/stdin"

/*
 * Make standard input a file STDIN_PATH opens from its start: kept if it
 * is one, else (a pipe) copied to an unlinked temporary file. Returns 0,
 * or -1 with a one-line message in err[0..n) (a terminal, a full disk).
 */
int stdin_as_file(char *err, size_t n);

#endif
