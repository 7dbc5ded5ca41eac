/*
 * tr-analyze --mpi: the trace read by several MPI ranks, fanned in to
 * one. Each of the P ranks reads a shard of the application's processes
 * (a process with all its threads and GPU streams; process id modulo P),
 * so that libotf2 opens only the locations of that shard, and sends the
 * stream it read to rank 0 in batches. Rank 0 reads its own shard on a
 * thread of its own, whose batches go through a queue, not MPI; it merges
 * the shards' events in the stream's order (time, then stream), numbers
 * them as one reader would, and analyses the whole: the same stream, byte
 * for byte, as one process reading the whole trace. Between ranks MPI
 * carries it all: no other channel.
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

#include "../../libstream/front.h"
#include "../../libstream/writer.h"

struct fan_ops;
struct fan_local;

struct fan {
	const struct fan_ops *ops;	/* the library's (fan_load) */
	int rank, size;
	struct fan_local *local;	/* rank 0: its own shard's reader, and their queue */
	bool taken;		/* rank 0: merge or discard took the shards' streams */
	char err[512];		/* rank 0: what a shard said when it failed */
	char **strings;		/* rank 0: the shards' report texts, which its report names */
	size_t nstrings;
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

	/* Every rank: w writes to rank 0, in batches. */
	void (*writer)(struct fan *f, struct ls_writer *w);

	/*
	 * Every rank: the end of this rank's stream: its status (0, or the
	 * reader's error, err saying why) and its report. Returns 0, or 1
	 * after a message where MPI failed.
	 */
	int (*end)(struct fan *f, struct ls_writer *w, int status, const char *err,
		   const struct ls_front_report *r);

	/*
	 * Rank 0: every shard's stream into out as one: the first shard's
	 * header and definitions, then every event in order, numbered from 0,
	 * then the trailer. Their reports are added into r. Returns 0; the
	 * error a write to out returned; or 1 where a shard failed (f->err
	 * says why, as "rank N: message"), after reading the others to their end.
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
