/*
 * The analysis stage: what every stage is to whoever runs it (the filters
 * tr-deps, tr-clock, tr-project, tr-waits, tr-critpath, and tr-analyze's
 * chain), and the one runner of the stream protocol they all follow.
 *
 * A stage takes records one at a time and writes what it finds. The
 * protocol: the input's header goes on with the stage added to its stages
 * (a fresh header where the input has none); the kinds the stage replaces
 * are dropped; every other record is passed on before the stage takes it
 * (or, for a stage that writes, the stage writes it, or what it makes of
 * it, itself when it will); what the stage writes goes on after. The
 * library never prints: what was odd comes back as counts in words, and
 * failures as (code, record number, why).
 */
#ifndef AN_STAGE_H
#define AN_STAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../libstream/header.h"
#include "../libstream/record.h"
#include "../libstream/writer.h"
#include "item.h"

/* A count of something odd in the input, and what it counts, in words. */
struct an_count {
	uint64_t n;
	const char *what;
};

/* The most counts a stage gives. */
#define AN_COUNTS_MAX 24

struct an_stage {
	const char *tool;			/* "tr-deps" */
	const char *const *needs;		/* stages that must have made the input, NULL ended */
	const char *const *before;		/* stages that must not have: it goes before them */
	const enum ls_kind *replaces;		/* kinds dropped from the input, ending in 0 */
	uint64_t (*reads)(void);		/* kinds whose fields take reads (LS_KIND_BIT) */
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
	/*
	 * 0, or a negative error: LS_ERR_SYNTAX with *why set, LS_ERR_NOMEM,
	 * a writer's; what the stage finds of the item's event it keeps in
	 * the item (an_trace_item) for the stages after
	 */
	int (*take)(void *ctx, struct an_item *it, const char **why);
	/*
	 * the events the stage wrote since it was last asked, typed, in the
	 * order written, each at its byte offset in what it wrote since (*n
	 * of them): the runner asks after every take and at the end, and
	 * hands them on known (analysis/item.h). NULL: a stage that writes
	 * no events of its own
	 */
	const struct an_typed *(*typed)(void *ctx, size_t *n);
	/*
	 * no one wants the derived records the stage writes as bytes (a
	 * chain whose end writes neither a stream nor an archive): from now
	 * on it notes them typed and writes none of them (an_typed_list's
	 * only). NULL: a stage that writes no derived record of its own but
	 * what its input gave (those keep their bytes, if any)
	 */
	void (*typed_only)(void *ctx);
	/* the input has ended: write what is left; 0 or a negative error, as take's */
	int (*finish)(void *ctx, const char **why);
	/* what was odd in the input, into out (AN_COUNTS_MAX room): how many, zero counts among them */
	size_t (*odd)(const void *ctx, struct an_count *out);
	/*
	 * what else the user should know of the result, in sentences, one
	 * per line, into buf (n bytes): their length (0: none); NULL: never any
	 */
	size_t (*notes)(const void *ctx, char *buf, size_t n);
	/* what the stage holds, in words, for a message when it holds too much */
	void (*held)(const void *ctx, char *what, size_t n);
	void (*close)(void *ctx);
};

/* The stages, in the order a chain runs them: the table a new stage gets its row in. */
extern const struct an_stage an_stage_deps, an_stage_clock, an_stage_project, an_stage_waits,
	an_stage_critpath;
extern const struct an_stage *const an_stages[];

/*
 * Where the records of a running stage go on (it borrowed; a record the
 * stage wrote is made): 0 or a negative error.
 */
typedef int (*an_stage_next)(void *ctx, struct an_item *it);

/* A failure: its error, the stage's record (1 the first) or the input's end, and why, in words. */
struct an_stage_failure {
	int code;		/* 0: none */
	uint64_t recno;
	bool at_end;		/* in the stage's finish, after the last record */
	const char *why;	/* for LS_ERR_SYNTAX; NULL otherwise */
};

/* A stage running over one stream: the runner's state. */
struct an_stage_run {
	const struct an_stage *def;
	void *ctx;			/* what def->open made */
	const struct ls_stage *self;	/* as the header lists it: its name and arguments */
	const char *producer;		/* a fresh header's producer: "tr-deps 0.1.0" */
	/*
	 * what the stage writes to; where next is NULL it is the output, the
	 * records passed on written to it too; else a memory writer, each
	 * record passed on and each the stage wrote going to next
	 */
	struct ls_writer *w;
	an_stage_next next;
	void *next_ctx;
	uint64_t replaced;		/* kinds dropped (LS_KIND_BIT) */
	uint64_t recno;			/* records taken */
	bool header;			/* written */
	struct an_stage_failure failed;
	char why[256];
};

/* Set r up to run def's stage ctx (opened on w) as self, its records to next (NULL: to w). */
void an_stage_run_init(struct an_stage_run *r, const struct an_stage *def, void *ctx,
		       const struct ls_stage *self, const char *producer, struct ls_writer *w,
		       an_stage_next next, void *next_ctx);

/*
 * One input record through the stage (a trailer is the caller's: not
 * taken), as an item (a filter's: an_item_read). Returns 0, or a negative
 * error: r->failed says what and where when the stage failed; an error
 * next returned comes back as it was.
 */
int an_stage_step(struct an_stage_run *r, struct an_item *it);

/* The input has ended: a fresh header if none came, what the stage has left. As an_stage_step. */
int an_stage_end(struct an_stage_run *r);

/* The counts of def's stage ctx that are not 0, into out (AN_COUNTS_MAX room): how many. */
size_t an_stage_odd(const struct an_stage *def, const void *ctx, struct an_count *out);

#endif
