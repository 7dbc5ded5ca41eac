/*
 * The reader front: what every trace reader shares between the events it
 * decodes and the stream it writes. A reader declares its streams and
 * regions, then adds events in whatever order its format delivers them;
 * the front leaves out what -p, -s and -t exclude, puts the rest in the
 * stream's (t, s) order (equal ones as they came), numbers them 0, 1,
 * 2, ..., checks that each stream's leaves match its enters, and counts
 * what it wrote and what was odd, for one report.
 *
 * Order: events wait in memory until the reader says no earlier one will
 * come (ls_front_until; a reader merging in time order says so at every
 * new time, and then holds only the events of one time). A reader that
 * cannot say so holds everything: past the memory bound the front hands
 * what it holds, and every event after it, to an external sort (xsort.h:
 * sorted runs in unlinked temporary files, merged at the end); memory
 * stays bounded, so do open files (64 runs are merged into one before a
 * 65th is made), and nothing is left behind on any exit.
 */
#ifndef LS_FRONT_H
#define LS_FRONT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "event.h"
#include "range.h"
#include "writer.h"
#include "xsort.h"

struct ls_front_options {
	struct ls_ranges processes;	/* empty: all */
	struct ls_ranges streams;	/* empty: all */
	bool window;			/* keep only events with begin <= t <= end */
	int64_t begin, end;
	size_t mem;			/* bytes of events held before spilling; 0: 64 MiB */
	/*
	 * shards > 1: only the processes of shard (shard.h: a block of
	 * them, where the reader says how many there are), the events
	 * numbered shard, shard + shards, shard + 2 shards, ... (ids that
	 * name their shard, unique over all of them)
	 */
	uint32_t shard, shards;
};

/* Every event of the trace. */
#define LS_FRONT_OPTIONS_INIT { LS_RANGES_INIT, LS_RANGES_INIT, false, 0, 0, 0, 0, 0 }

#define LS_FRONT_MAX_ODD 16
#define LS_FRONT_MAX_INPUTS 32

/* Records of the input of one kind (the format's own): how many were read, how many skipped. */
struct ls_front_input {
	const char *kind;
	uint64_t read, skipped;
};

/* What the front wrote and found odd, and what the reader found odd. */
struct ls_front_report {
	uint64_t kinds[LS_K__COUNT];	/* records written, by kind */
	uint64_t roles[LS_R__COUNT];	/* enters written, by region role */
	uint64_t leave_without_enter;
	uint64_t leave_mismatch;	/* leave of another region than the open one */
	uint64_t open_at_end;		/* enters never left */
	uint64_t filtered;		/* events left out by -p, -s, -t */
	uint64_t offered;		/* events the reader offered (ls_front_keeps) */
	int64_t first_t, last_t;	/* the earliest and latest of them */
	uint32_t selected;		/* streams defined that -p and -s select */
	uint64_t runs;			/* sorted runs spilled to temporary files */
	uint64_t merges;		/* times the 64 open runs were merged into one */
	uint64_t ignored;		/* records of the format with no meaning here */
	struct {			/* ... by their kind (ls_front_left_out) */
		uint64_t n;
		const char *kind;
	} left_out[LS_FRONT_MAX_INPUTS];
	uint32_t nleft_out;
	struct {			/* the reader's oddities (ls_front_odd) */
		uint64_t n;
		const char *what;
		bool of_definitions;	/* counted in the definitions: every shard counts them all */
	} odd[LS_FRONT_MAX_ODD];
	uint32_t nodd;
	char odd_words[2][256];		/* the words of odd[] the reader made (ls_front_odd_named) */
	uint32_t nodd_words;
	char note[2][256];		/* what the reader says for --stats (ls_front_note) */
	uint32_t nnotes;
	struct ls_front_input inputs[LS_FRONT_MAX_INPUTS];	/* by the input's kinds (ls_front_input) */
	uint32_t ninputs;
};

struct ls_front_stream {
	bool defined, selected;
	bool in_shard;			/* of this reader's shard (shards > 1), else true */
	uint64_t *open;			/* regions entered and not left */
	uint32_t depth, cap;
};

/* An event held: the external sort's 8 bytes first, so that the sort can take the buffer as it is. */
struct ls_front_held {
	uint64_t sort_seq;
	struct ls_event ev;
};

struct ls_front {
	struct ls_writer *w;
	const struct ls_front_options *opt;
	struct ls_front_report *report;
	struct ls_front_stream *streams;	/* by stream id */
	uint32_t nstreams;
	uint8_t *roles;				/* by region id */
	uint32_t nregions;
	struct ls_front_held *buf;
	uint32_t nbuf, cap, max;		/* max: the bound, in events */
	uint32_t open_from;	/* events from here on came after the last ls_front_until */
	bool any_until;
	int64_t until;
	uint64_t seq, next_id, id_step;	/* ids: next_id, then each id_step on (the shards') */
	uint64_t nprocs;	/* processes 0 .. nprocs-1 (ls_front_processes), 0: not said */
	struct ls_xsort sort;	/* past the bound, every event until the end */
	bool sorting;
	void (*tick)(void *ctx, uint64_t offered, uint64_t done, uint64_t total);	/* ls_front_on_progress */
	void *tick_ctx;
	uint64_t input_done, input_total;	/* ls_front_input_at */
	char err[160];
	int failure;	/* the first failure's code (ls_front_failure) */
	bool keep_written;	/* ls_front_keep_written */
	bool typed_only;	/* ls_front_typed_only */
	struct ls_written *written;
	uint32_t nwritten, written_cap;
};

void ls_front_init(struct ls_front *f, struct ls_writer *w, const struct ls_front_options *opt,
		   struct ls_front_report *report);

/*
 * Keep, for whoever takes the writer's bytes (its sink), the events
 * written since it last took them, as they were given: their kind, id,
 * time, stream and region, so that it need not read them back from the
 * bytes. An event whose writing handed the bytes on is not among them.
 */
static inline void ls_front_keep_written(struct ls_front *f)
{
	f->keep_written = true;
}

/*
 * Besides (ls_front_keep_written): no one reads the bytes of an event
 * whose typed form says all of it (an enter or leave with no optional
 * field, outside a GPU call, whose rules read the call's record): it is
 * kept with no bytes (len 0, at where it would have begun), and the
 * writer handed on (ls_writer_hand_on) every LS_FRONT_HAND_AT of them.
 */
#define LS_FRONT_HAND_AT 2048
static inline void ls_front_typed_only(struct ls_front *f)
{
	f->keep_written = f->typed_only = true;
}

/*
 * The events kept since the last call, in the order written (*n of
 * them): valid until the front writes again.
 */
const struct ls_written *ls_front_written(struct ls_front *f, size_t *n);

/*
 * Declare stream id (of process) and region id (of role). Ids are the
 * reader's own dense numbers, below 2^24. Returns 0, or a negative error
 * with the reason in ls_front_error.
 */
int ls_front_stream(struct ls_front *f, uint64_t id, uint64_t process);

/*
 * The trace's processes are 0 .. n-1: a shard then holds a block of them
 * (shard.h). Call before the first ls_front_stream; without it, a shard
 * holds the processes whose id modulo shards is its own.
 */
static inline void ls_front_processes(struct ls_front *f, uint64_t n)
{
	f->nprocs = n;
}
int ls_front_region(struct ls_front *f, uint64_t id, enum ls_role role);

/*
 * Call tick(ctx, events offered so far, bytes of input read, of all to
 * read) every 65536 events the reader offers and each time it says how far
 * it has read (a tool's progress line).
 */
void ls_front_on_progress(struct ls_front *f, void (*tick)(void *ctx, uint64_t offered, uint64_t done, uint64_t total),
			  void *ctx);

/* The reader has read done bytes of total (all its passes over all its input), where it knows. */
void ls_front_input_at(struct ls_front *f, uint64_t done, uint64_t total);

/* Whether -p, -s and the shard select stream (declared): a reader need not read the others. */
bool ls_front_selected(const struct ls_front *f, uint64_t stream);

/*
 * n events of stream (not selected) that the reader did not read:
 * counted as left out where -p or -s left them out (not the shard).
 */
void ls_front_unread(struct ls_front *f, uint64_t stream, uint64_t n);

/* Whether an event at t on stream is kept (else counted as left out). */
bool ls_front_keeps(struct ls_front *f, uint64_t stream, int64_t t);

/*
 * Room for the next event, with its kind, stream, t and seq set and no
 * optional field; the reader fills in the rest before its next call.
 * NULL on an error (out of memory, a spill that failed, or t before the
 * time the reader said it was done with): ls_front_failure says which,
 * ls_front_error in words.
 */
struct ls_event *ls_front_add(struct ls_front *f, uint64_t stream, int64_t t, enum ls_kind kind);

/*
 * The event of seq, if it came after the last ls_front_until and is still
 * in memory (to add what the format gives later, such as Score-P's callsite
 * id); else NULL.
 */
struct ls_event *ls_front_open(struct ls_front *f, uint64_t seq);

/*
 * No event before t will come: write those held. Returns 0, or a negative
 * error (the write failed: the writer's err says why).
 */
int ls_front_until(struct ls_front *f, int64_t t);

/* Write every event still held, and count the enters never left. */
int ls_front_finish(struct ls_front *f);

/*
 * Odd but legal content the reader met n times (said once, in the order
 * given, after the front's own, where n is not 0); what must outlive f.
 */
void ls_front_odd(struct ls_front *f, uint64_t n, const char *what);

/* As ls_front_odd, for what the reader found in the definitions (which every shard reads whole). */
void ls_front_odd_definitions(struct ls_front *f, uint64_t n, const char *what);

/*
 * As ls_front_odd_definitions, the words made from fmt and kept in the
 * report: for an oddity that names what it is (a file); two at most.
 */
void ls_front_odd_named(struct ls_front *f, uint64_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A line the reader has to say about the whole input, for --stats (two at most). */
void ls_front_note(struct ls_front *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Count records of the input's kind (a name that outlives the front) read
 * and skipped, for --stats; kinds past LS_FRONT_MAX_INPUTS are not counted.
 */
void ls_front_input(struct ls_front *f, const char *kind, uint64_t read, uint64_t skipped);

/*
 * Count n records of the input's kind (a name that outlives the front) that
 * mean nothing to the analysis, left out; kinds past LS_FRONT_MAX_INPUTS
 * count in the total only.
 */
void ls_front_left_out(struct ls_front *f, const char *kind, uint64_t n);

/*
 * ls_front_input's and ls_front_left_out's counting, by kind, on a report
 * itself (the left-out total apart): for adding up the reports of shards.
 */
void ls_report_input(struct ls_front_report *r, const char *kind, uint64_t read, uint64_t skipped);
void ls_report_left_out(struct ls_front_report *r, const char *kind, uint64_t n);

const char *ls_front_error(const struct ls_front *f);

/*
 * Why the front failed, first: LS_ERR_SYNTAX (the reader's events break
 * its rules: an undeclared stream, a time it was done with), LS_ERR_NOMEM,
 * LS_ERR_IO (a spill to TMPDIR, or the stream's writer); 0: it did not.
 * ls_front_error says it in words.
 */
int ls_front_failure(const struct ls_front *f);

void ls_front_release(struct ls_front *f);

#endif
