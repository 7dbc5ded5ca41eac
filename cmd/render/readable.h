/*
 * Region names as people read them in a table: a C++ signature
 * (Thrust's, CUB's, ATen's kernels: hundreds of characters of template
 * arguments) by its qualified name alone, as Nsight Systems shortens
 * kernel names, and no two regions shown alike. The whole name stays
 * where a program reads it (--csv, --json) and in the report's hover.
 */
#ifndef READABLE_H
#define READABLE_H

#include <stddef.h>
#include <stdint.h>

#include "../../analysis/rank.h"

/*
 * name without its template argument lists, its parameter list (and what
 * follows it: const, [clone ...]) and its return type, where it has a
 * template or parameter list ("void at::native::f<float>(int)" is
 * "at::native::f"; "(anonymous namespace)" and an operator's symbol
 * stay); any other name as it is. Into out (n bytes, NUL-ended, cut at
 * n - 1): the length of the whole result.
 */
size_t readable_name(const char *name, char *out, size_t n);

/*
 * The names of names[0..n) as a column of width characters shows them
 * (0: no bound): each readable, one longer than width by its start and
 * its end with "..." between them; regions of different names that would
 * show alike get " #1", " #2", ... in the order given (their whole names
 * in --csv and --json tell which is which). *out: n strings, freed with
 * readable_free. 0, or -1 out of memory.
 */
int readable_names(const char *const *names, uint32_t n, unsigned width, char ***out);

/* readable_names of k's regions, by region index: 0, or -1 out of memory. */
int readable_regions(const struct an_rank *k, unsigned width, char ***out);

void readable_free(char **v, uint32_t n);

/* Print shown padded with spaces to width characters (UTF-8: a character is not a byte). */
void readable_print(const char *shown, unsigned width);

#endif
