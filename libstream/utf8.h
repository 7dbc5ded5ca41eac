/* UTF-8: what the stream requires of every string, and the repair of one that is not. */
#ifndef LS_UTF8_H
#define LS_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Is s[0..n) valid UTF-8 (shortest forms, no surrogates, at most U+10FFFF)? */
bool ls_utf8_valid(const char *s, size_t n);

/*
 * The length of s[0..n) repaired: every byte that is not part of a valid
 * sequence replaced by U+FFFD, the replacement character (3 bytes).
 */
size_t ls_utf8_repaired_len(const char *s, size_t n);

/*
 * Write s[0..n), repaired, to out, which has room for
 * ls_utf8_repaired_len(s, n) bytes; returns the end of what was written.
 */
char *ls_utf8_repair_to(char *out, const char *s, size_t n);

#endif
