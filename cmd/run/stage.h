/*
 * What every analysis stage does alike: its command line (the common
 * options, one flag of its own, at most one input), and the loop that
 * reads a stream, passes every record on (dropping the derived records
 * the stage replaces), and lets the stage take each record after it has
 * been written; or, for a stage that rewrites and reorders records (its
 * own output), hands it each record to write itself.
 */
#ifndef STAGE_H
#define STAGE_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "../../libstream/reader.h"
#include "../../libstream/writer.h"

struct stage {
	const char *producer;	/* for a fresh header: "tr-deps 0.1.0" */
	const char *const *needs;	/* stages that must have made the input, ending in NULL */
	const char *const *before;	/* stages that must not have: this one goes before them */
	const enum ls_kind *replaces;	/* kinds dropped from the input, ending in 0 */
	uint64_t reads;	/* kinds whose fields take reads (LS_KIND_BIT); the others are only framed */
	/*
	 * returns 0 or a negative error, with *why set for LS_ERR_SYNTAX;
	 * takes each record after it was written, or with writes set before:
	 * the stage writes it (or what it makes of it) itself, when it will
	 */
	int (*take)(void *ctx, const struct ls_record *rec, const char **why);
	bool writes;
	/* what the stage holds, in words, for a message when it holds too much */
	void (*held)(const void *ctx, char *what, size_t n);
	void *ctx;
};

struct stage_io {
	struct ls_reader r;
	struct ls_writer w;
	uint64_t max_mem;	/* TR_MAX_MEM, bytes; 0: none */
};

/*
 * Parse the command line: TOOL_OPTIONS, --NAME (flag_name) setting *flag,
 * and where jobs is not NULL -j N (1 to 64 threads) setting *jobs. Open
 * the input and a writer on stdout. Returns 0, or the status to exit with
 * (2 after the usage, 1 after a message); nothing to release then.
 */
int stage_open(int argc, char **argv, const char *flag_name, bool *flag,
	       unsigned *jobs, void (*usage)(FILE *), struct stage_io *io);

/* A stage's options beyond the common ones. */
struct stage_args {
	const char *flag_name;		/* --NAME, setting *flag */
	bool *flag;
	unsigned *jobs;			/* not NULL: -j N (1 to 64 threads) */
	bool *verbose;			/* not NULL: -v, --verbose (internal figures too) */
	const struct option *more;	/* long options of its own (at most 8), ending in a zero entry */
	/* one of more (its val, its argument): 0, or the status to exit with after a message */
	int (*option)(int val, const char *arg, void *ctx);
	void *ctx;
};

/* stage_open with options of the stage's own (struct option: getopt.h). */
int stage_open_with(int argc, char **argv, const struct stage_args *a, void (*usage)(FILE *),
		    struct stage_io *io);

/*
 * Run st over the input into the output: the input's header with this
 * tool added to its stages (a fresh one where it has none), then every
 * record but those st replaces. A header that lists stages must list
 * those st needs. Where TR_MAX_MEM is set, memory past it stops the
 * stage with a message saying what it holds. Returns 0, or 1 after a
 * one-line message naming the input and position of what was wrong.
 */
int stage_run(const struct stage *st, struct stage_io *io);

struct stage_def;

/* stage_run of a stage of stages/stages.h (ctx: what def->open made). */
int stage_run_def(const struct stage_def *def, void *ctx, const char *producer, struct stage_io *io);

/*
 * Release the input; end the output with the trailer if status is 0 (so
 * that a stream cut by a failure is seen to be cut), flush and close it:
 * the exit status.
 */
int stage_close(struct stage_io *io, int status);

#endif
