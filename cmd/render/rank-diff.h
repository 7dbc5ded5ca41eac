/* tr-rank --diff: the difference of two ratings (tr-rank --json outputs). */
#ifndef RANK_DIFF_H
#define RANK_DIFF_H

#include <stdint.h>

enum rank_form { RANK_TEXT, RANK_CSV, RANK_JSON };

/*
 * Read ratings a and b, match their regions by name, and print the top
 * rows (0: all), largest change of rating first, in form. Returns the
 * exit status: 0, or 1 after a message.
 */
int rank_diff(const char *a, const char *b, enum rank_form form, uint32_t top);

#endif
