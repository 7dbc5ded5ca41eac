/*
 * TR_MAX_MEM: how much memory a tool may hold before it stops with a
 * message naming what holds it, instead of being killed for it.
 */
#ifndef MAXMEM_H
#define MAXMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The limit TR_MAX_MEM gives (a size in bytes, with K, M, G or T for
 * powers of 1024), 0 if it is not set. Returns 0, or -1 after a message
 * (it is not a size).
 */
int maxmem_limit(uint64_t *limit);

/* The process's resident memory now, in bytes (0 where it cannot be read). */
uint64_t maxmem_resident(void);

/*
 * Is the process within limit (0: none)? true; else false after the
 * message "TOOL: where: N MiB held, more than TR_MAX_MEM (L MiB): what",
 * what being what held(ctx) says it holds (held may be NULL).
 */
bool maxmem_within(uint64_t limit, const char *where, void (*held)(const void *ctx, char *what, size_t n),
		   const void *ctx);

#endif
