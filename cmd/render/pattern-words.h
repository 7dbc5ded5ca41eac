/*
 * What each wait-state pattern means and what usually causes it, in a
 * sentence each (tr-waits(1) has the whole story): for the rating told in
 * words (tr-rank -v, tr-report).
 */
#ifndef PATTERN_WORDS_H
#define PATTERN_WORDS_H

#include "../../libstream/schema.h"

struct pattern_words {
	const char *means;	/* what happened */
	const char *cause;	/* what usually makes it happen */
};

/* Pattern p's words (p below LS_P__COUNT). */
const struct pattern_words *pattern_words(enum ls_pattern p);

#endif
