/* Writing to file descriptors: the whole of a buffer, whatever the writes take at a time. */
#ifndef LS_FD_H
#define LS_FD_H

#include <stddef.h>

/*
 * Write all n bytes at p to fd, again after an interruption. Returns 0,
 * or -1 with errno set (ENOSPC where the system took nothing more).
 */
int ls_write_all(int fd, const void *p, size_t n);

#endif
