/*
 * TR_MAX_MEM: how much memory a tool may hold before it stops with a
 * message naming what holds it, instead of being killed for it.
 */
#ifndef MAXMEM_H
#define MAXMEM_H

#include <stdint.h>

/*
 * The limit TR_MAX_MEM gives (a size in bytes, with K, M, G or T for
 * powers of 1024), 0 if it is not set. Returns 0, or -1 after a message
 * (it is not a size).
 */
int maxmem_limit(uint64_t *limit);

/* The process's resident memory now, in bytes (0 where it cannot be read). */
uint64_t maxmem_resident(void);

#endif
