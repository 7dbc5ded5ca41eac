/*
 * tr-analyze's stages in one process: a reader writes the stream into the
 * chain, the stages (analysis/stage.h) take it on threads, each run by the
 * analysis' runner as the filters run them, and the last one's records go
 * to a taker (the rating, the stream file).
 *
 * The stages of one thread take each record one after another, as an
 * item (analysis/item.h): the reader's events and what a stage wrote and
 * noted typed go on typed, anything else located once where a stage
 * asks. Between threads items go in batches (64 KiB of records, the
 * bytes copied with what the stages found of them, a located record's
 * field index packed: libstream/packed.h), at most two waiting at each
 * hand-over, so memory stays bounded.
 */
#ifndef CHAIN_H
#define CHAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "../../libstream/header.h"
#include "../../libstream/record.h"
#include "../../libstream/writer.h"
#include "../../analysis/stage.h"
#include "../../libstream/front.h"

/* The most stages a chain has. */
#define CHAIN_STAGES 6

struct chain;

struct chain_link {
	const struct an_stage *def;
	struct ls_stage self;	/* as the stream's header lists it: the filter's name and arguments */
	const void *opts;	/* the stage's own options (an_stage's open), NULL: its defaults */
};

/*
 * What takes the last stage's records, in order (the header first, not
 * the trailer): 0, or a negative error (LS_ERR_SYNTAX with *why set).
 */
typedef int (*chain_take)(void *ctx, struct an_item *it, const char **why);

/*
 * A chain of links[0..n) (at most CHAIN_STAGES), the last one's records
 * to take(ctx), which reads the fields of the kinds take_reads
 * (LS_KIND_BIT; the others come with only their kind located), on as
 * many threads as there are stages, at most threads (the reader's own
 * among them), and one more for take where take_apart (a taker with much
 * work of its own) and threads is 2 or more. Where take_bytes is false
 * (take writes no stream nor archive), the derived records the stages
 * write go on typed alone, with no bytes (an_stage.typed_only). input
 * names the trace in messages; jobs: the threads a stage may use for its
 * own work. Its threads start here. Returns NULL after a message.
 */
struct chain *chain_new(const struct chain_link *links, int n, const char *input, unsigned threads,
			unsigned jobs, chain_take take, uint64_t take_reads, bool take_apart, bool take_bytes,
			void *ctx);

/* Where the reader writes the stream (msgpack, the header first). */
struct ls_writer *chain_input(struct chain *c);

/*
 * The events front f (whose writer is chain_input's) writes go to the
 * first stage as they were given, typed, not read back from their bytes
 * (ls_front_keep_written): f must outlive chain_end.
 */
void chain_reads_front(struct chain *c, struct ls_front *f);

/*
 * The reader is done (ok: it wrote the whole stream): hand on the rest,
 * let every stage finish and wait for them. Returns 0, or 1 where a stage
 * or the taker failed (said, with the stage and position).
 */
int chain_end(struct chain *c, bool ok);

/* Has a stage or the taker failed (the reader's writes fail from then on)? */
bool chain_failed(const struct chain *c);

/* Stage i's own state, for its report (def->report) and summaries. */
void *chain_stage(const struct chain *c, int i);

/* Stop what still runs and free it all. */
void chain_free(struct chain *c);

#endif
