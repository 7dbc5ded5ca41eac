/*
 * The analysis stages as tr-deps, tr-clock, tr-waits and tr-critpath run
 * them, and as tr-analyze runs them in one process: what each reads,
 * replaces, needs and goes before, whether it writes its records itself,
 * how it is made (with its own options), fed, finished, and what it says
 * when it ends. A stage is one file here and one stage_def.
 */
#ifndef STAGES_H
#define STAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../libstream/schema.h"
#include "../../libstream/writer.h"

struct stage_def {
	const char *tool;			/* "tr-deps" */
	const char *const *needs;		/* stages that must have made the input, NULL ended */
	const char *const *before;		/* stages that must not have: it goes before them */
	const enum ls_kind *replaces;		/* kinds dropped from the input, ending in 0 */
	uint64_t (*reads)(void);		/* kinds whose fields take reads */
	/*
	 * false: each record is passed on before take has it; true: take
	 * writes each record (or what it makes of it) itself, when it will (a
	 * stage that re-times and re-orders the stream)
	 */
	bool writes;
	/*
	 * a stage writing to w (borrowed), its own work on jobs threads, with
	 * its own options (the struct its header names; NULL: its defaults);
	 * NULL: out of memory
	 */
	void *(*open)(struct ls_writer *w, unsigned jobs, const void *opts);
	int (*take)(void *ctx, const struct ls_record *rec, const char **why);
	/* the input has ended: write what is left; 0 or a negative error */
	int (*finish)(void *ctx);
	/* what was odd in the input, once each, on stderr: "TOOL: input: ..." */
	void (*report)(const char *input, const void *ctx);
	/* what the stage holds, in words, for a message when it holds too much */
	void (*held)(const void *ctx, char *what, size_t n);
	void (*close)(void *ctx);
};

extern const struct stage_def stage_deps, stage_clock, stage_waits, stage_critpath;

struct an_clock_options;
struct an_crit_end;

/* tr-clock's --latency TYPE=NS into *o: 0, or 2 after a message. */
int stage_clock_latency(const char *arg, struct an_clock_options *o);

/* tr-critpath's --end WHERE into *e: 0, or 2 after a message. */
int stage_critpath_end(const char *arg, struct an_crit_end *e);

/* The end e asked for, said where the input (named input) had none. */
void stage_critpath_no_end(const char *input, const struct an_crit_end *e);

#endif
