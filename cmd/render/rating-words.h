/*
 * The rating told in words: for its first rows, one paragraph each built
 * only from the analysis' own facts (its share of the critical path and
 * on which streams; its blame, which calls on which processes waited for
 * it and in which pattern; its GPU idle blame apart), then what each
 * pattern named means and what usually causes it. For tr-rank -v and
 * tr-report.
 */
#ifndef RATING_WORDS_H
#define RATING_WORDS_H

#include <stdbool.h>
#include <stdint.h>

#include "../../analysis/rank.h"

/* How many rows are told in words. */
#define RATING_WORDS_ROWS 3

/*
 * Rows v[0..n) of k's rating (k kept its waiters: AN_RANK_WAITERS) in
 * words on stdout: plain text, or an HTML section whose patterns link to
 * their explanations. Returns 0 or LS_ERR_NOMEM.
 */
int rating_words(const struct an_rank *k, const struct an_rating *v, uint32_t n, bool html);

/*
 * What region i of k measures where the tools made it up (no region of
 * the trace: the OpenMP runtime's team start, a call whose GPU work the
 * trace lacks), and (why) what usually causes it, as a clause ("no
 * region of the trace: ..."); NULL for a region of the trace.
 */
const char *rating_made_up(const struct an_rank *k, uint32_t i, bool why);

#endif
