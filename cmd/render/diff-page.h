/*
 * tr-report --diff: two runs side by side as one HTML page (what tr-rank
 * --diff computes): each run's figures, before and after, and per region
 * its critical-path time, blame and rating in both, the largest change
 * of rating first, sortable.
 */
#ifndef DIFF_PAGE_H
#define DIFF_PAGE_H

#include <stdint.h>

#include "rank-diff.h"

/* The page of d on stdout, its top rows (0: all). */
void diff_page(const struct rank_diff *d, uint32_t top);

#endif
