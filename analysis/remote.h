/*
 * A stage's view of the other shards of a distributed analysis
 * (tr-analyze --mpi): the trace's processes are split into shards, each
 * analysed apart (blocks of processes, libstream/shard.h), and what one
 * shard finds that another needs goes to it as a fact: a few bytes, keyed by the
 * event whose handling made it (its time and stream id, the stream's
 * order of the whole trace). Before an event of its own that the others'
 * facts decide, a shard takes those with keys before it, each shard's in
 * that shard's order, and so decides as one process reading the whole
 * trace would.
 *
 * Nothing here knows how facts travel: whoever runs the shards gives
 * the functions (cmd/fan/ over MPI). Keys of different shards never tie:
 * a stream belongs to one shard.
 */
#ifndef AN_REMOTE_H
#define AN_REMOTE_H

#include <stdbool.h>
#include <stdint.h>

/* next: a fact may come yet (asked not to wait). */
#define AN_REMOTE_LATER 2

struct an_remote {
	void *ctx;
	uint32_t shard, shards;	/* this one, and how many */
	/* fact (len bytes) made by the event of key (t, s) to shard to: 0, or a negative error */
	int (*send)(void *ctx, uint32_t to, int64_t t, uint64_t s, const void *fact, uint32_t len);
	/*
	 * This shard is at its event of key (t, s): every fact of its own
	 * before it has been sent. A fact of shards from[0..n) (NULL: every
	 * other one) with a key before (t, s), each shard's in its order,
	 * into *fact and *len (valid until the next call): 1; 0 when none
	 * can come any more; AN_REMOTE_LATER where one may come yet and wait
	 * is false (with wait, it waits for the shards that may send one).
	 * Or a negative error. t = INT64_MAX: this shard is at its end,
	 * every fact of the others comes.
	 */
	int (*next)(void *ctx, const uint32_t *from, uint32_t n, int64_t t, uint64_t s, bool wait,
		    const void **fact, uint32_t *len);
	/*
	 * This shard is at its event of key (t, s), which takes no fact of
	 * the others: as next, never waiting, taking nothing.
	 */
	void (*at)(void *ctx, int64_t t, uint64_t s);
};

#endif
