/*
 * What every analysis stage's filter does alike: its command line (the
 * common options, one flag of its own, at most one input), and the loop
 * that reads a stream and runs the stage over it (analysis/stage.h) into
 * the output, checking the fields of what the stage reads.
 */
#ifndef STAGE_H
#define STAGE_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "../../libstream/reader.h"
#include "../../analysis/stage.h"
#include "../../libstream/writer.h"

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
 * Run def's stage ctx (opened on io->w) over the input into the output,
 * as the analysis' runner does (analysis/stage.h), to the input's end
 * and the stage's finish. Where TR_MAX_MEM is set, memory past it stops
 * the stage with a message saying what it holds. Returns 0, or 1 after a
 * one-line message naming the input and position of what was wrong.
 */
int stage_run(const struct an_stage *def, void *ctx, struct stage_io *io);

/* What def's stage ctx found odd in the input (named input), and its notes: on stderr, a line each. */
void stage_report(const char *input, const struct an_stage *def, const void *ctx);

/* What was odd, as stage_report says it, from counts odd[0..n) (zero ones left out). */
void stage_report_counts(const char *input, const struct an_count *odd, size_t n);

/*
 * Release the input; end the output with the trailer if status is 0 (so
 * that a stream cut by a failure is seen to be cut), flush and close it:
 * the exit status.
 */
int stage_close(struct stage_io *io, int status);

#endif
