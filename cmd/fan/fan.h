/*
 * tr-analyze --mpi: the trace read and analysed by several MPI ranks.
 * Each of the P ranks reads a shard of the application's processes (a
 * block of consecutive ones, libstream/shard.h; a process with all its
 * threads and GPU streams), so that libotf2 opens only the locations of
 * that shard, and runs tr-deps
 * on it: what crosses shards (a message's sides, a collective's members)
 * goes between the ranks that own its ends as facts (port.h). Each sends
 * the stream it made (its events, the edges its events complete) to rank
 * 0 in batches. Rank 0 reads and analyses its own shard on a thread of
 * its own, whose batches go through a queue, not MPI; it merges the
 * shards' events in the stream's order (time, then stream), each with the
 * edges written after it, numbers them as one reader would (ids.h), and
 * runs the stages after tr-deps on the whole: the same stream, byte for
 * byte, as one process reading the whole trace. Between ranks MPI carries
 * it all: no other channel.
 *
 * Built as lib/tr/libtr-fan.so, which tr-analyze loads under --mpi only
 * (fan_load), so that a run without it neither loads Open MPI nor holds
 * its libraries' memory. The library takes what it uses of libstream and
 * tool.c from tr-analyze (linked with -rdynamic).
 */
#ifndef FAN_H
#define FAN_H

#include <stdbool.h>
#include <stddef.h>

#include "../../analysis/remote.h"
#include "../../analysis/stage.h"
#include "../../libstream/front.h"
#include "../../libstream/writer.h"

struct fan_ops;
struct fan_local;
struct port;

/* What a rank did, as it tells rank 0 at its end. */
struct fan_work {
	uint64_t events;	/* of its shard: read and taken by its stage */
	uint64_t to_rank0;	/* bytes of its stream sent to rank 0 */
	uint64_t to_ranks;	/* bytes of facts sent to the other ranks */
	uint64_t cpu_ns;	/* CPU time of the thread that read and analysed its shard */
};

struct fan {
	const struct fan_ops *ops;	/* the library's (fan_load) */
	int rank, size;
	struct fan_local *local;	/* rank 0: its own shard's reader, and their queue */
	bool taken;		/* rank 0: merge or discard took the shards' streams */
	char err[512];		/* rank 0: what a shard said when it failed (the first by rank) */
	int err_rank;		/* rank 0: that shard's rank */
	char **strings;		/* rank 0: the shards' report texts, which its report names */
	size_t nstrings;
	struct port *port;	/* the facts between the shards' stages */
	struct ls_writer *w;	/* this rank's stream to rank 0 (its shard's reader on rank 0) */
	uint64_t to_rank0;	/* bytes of it sent (other ranks) */
	bool done;		/* rank 0 was told no more of it comes before its end */
	/* rank 0: the shards' stage's counts, added up (what it found odd) */
	struct an_count odd[AN_COUNTS_MAX];
	size_t nodd;
	struct fan_work *work;	/* rank 0: each rank's, by rank */
};

/* What the library gives (tr_fan_ops), as described below. */
struct fan_ops {
	/* MPI_Init (the stages run on threads of their own, MPI on the main one). 0, or 1 after a message. */
	int (*init)(int *argc, char ***argv, struct fan *f);

	/* Rank 0: what start, merge and discard left; then every rank: MPI_Finalize. */
	void (*finish)(struct fan *f);

	/*
	 * Rank 0: run read(arg) on a thread of its own, which reads rank 0's
	 * shard (with shard, writer and end, as the other ranks do). merge
	 * or discard must follow, which take what it sends. Returns 0, or 1
	 * after a message.
	 */
	int (*start)(struct fan *f, int (*read)(void *arg), void *arg);

	/* Every rank: opt selects this rank's shard. */
	void (*shard)(const struct fan *f, struct ls_front_options *opt);

	/*
	 * Every rank: w writes to rank 0, in batches; the stage of the
	 * shard sees the other shards through what it returns.
	 */
	const struct an_remote *(*writer)(struct fan *f, struct ls_writer *w);

	/*
	 * Every rank: the end of this rank's stream: its status (0, or the
	 * reader's or the stage's error, err saying why), its report, the
	 * stage's counts (odd[0..nodd), every count) and the events it took.
	 * Returns 0, or 1 after a message where MPI failed.
	 */
	int (*end)(struct fan *f, struct ls_writer *w, int status, const char *err,
		   const struct ls_front_report *r, const struct an_count *odd, size_t nodd, uint64_t events);

	/*
	 * Rank 0: every shard's stream into out as one: the first shard's
	 * header and definitions, then every event in order, numbered from 0,
	 * each with the records the shard's stage wrote after it, then the
	 * trailer. Their reports are added into r, their stage's counts into
	 * f->odd, what each did into f->work. Returns 0; the error a write to
	 * out returned; or 1 where a shard failed (f->err says why, as "rank
	 * N: message"), after reading the others to their end.
	 */
	int (*merge)(struct fan *f, struct ls_writer *out, struct ls_front_report *r);

	/*
	 * Rank 0, where it fails before merging: every shard's stream read
	 * to its end and let go, so that no rank waits on it.
	 */
	void (*discard)(struct fan *f);
};

/* The library's name in lib/tr/, and the symbol it gives them by. */
#define FAN_LIBRARY "libtr-fan.so"
#define FAN_OPS "tr_fan_ops"

/* The library's operations. */
extern const struct fan_ops tr_fan_ops;

/* tr-analyze: load the library. Its operations, or NULL after a message. */
const struct fan_ops *fan_load(void);

#endif
