/*
 * The loop of an analysis stage: read a stream, pass every record on
 * (dropping the derived records the stage replaces), and let the stage
 * take each record after it has been written.
 */
#ifndef STAGE_H
#define STAGE_H

#include <stdbool.h>

#include "../libstream/reader.h"
#include "../libstream/writer.h"

struct stage {
	const char *producer;	/* for a fresh header: "tr-deps 0.1.0" */
	const enum ls_kind *replaces;	/* kinds dropped from the input, ending in 0 */
	/* returns 0 or a negative error, with *why set for LS_ERR_SYNTAX */
	int (*take)(void *ctx, const struct ls_record *rec, const char **why);
	void *ctx;
};

/*
 * Run st over r into w. Returns 0, or 1 after a one-line message naming
 * the input and position of what was wrong.
 */
int stage_run(const struct stage *st, struct ls_reader *r, struct ls_writer *w);

#endif
