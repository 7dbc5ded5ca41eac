/*
 * The analysis stages as tr-deps, tr-waits and tr-critpath run them, and
 * as tr-analyze runs them in one process: what each reads, replaces and
 * needs, how it is made, fed, finished, and what it says when it ends.
 */
#ifndef STAGES_H
#define STAGES_H

#include <stddef.h>
#include <stdint.h>

#include "../../libstream/schema.h"
#include "../../libstream/writer.h"

struct stage_def {
	const char *tool;			/* "tr-deps" */
	const char *const *needs;		/* stages that must have made the input, NULL ended */
	const enum ls_kind *replaces;		/* kinds dropped from the input, ending in 0 */
	uint64_t (*reads)(void);		/* kinds whose fields take reads */
	/* a stage writing to w (borrowed), its own work on jobs threads; NULL: out of memory */
	void *(*open)(struct ls_writer *w, unsigned jobs);
	int (*take)(void *ctx, const struct ls_record *rec, const char **why);
	/* the input has ended: write what is left; 0 or a negative error */
	int (*finish)(void *ctx);
	/* what was odd in the input, once each, on stderr: "TOOL: input: ..." */
	void (*report)(const char *input, const void *ctx);
	/* what the stage holds, in words, for a message when it holds too much */
	void (*held)(const void *ctx, char *what, size_t n);
	void (*close)(void *ctx);
};

extern const struct stage_def stage_deps, stage_waits, stage_critpath;

#endif
