/* UTF-8: what the stream requires of every string, and the repair of one that is not. */
#ifndef LS_UTF8_H
#define LS_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Is s[0..n) valid UTF-8 (shortest forms, no surrogates, at most U+10FFFF)? */
bool ls_utf8_valid(const char *s, size_t n);

/*
 * A copy of the NUL-terminated s with every byte that is not part of a
 * valid sequence replaced by U+FFFD, the replacement character: the
 * caller frees it. NULL when out of memory.
 */
char *ls_utf8_repair(const char *s);

#endif
