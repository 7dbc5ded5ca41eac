/*
 * Which shard of a distributed analysis (tr-analyze --mpi) a process
 * belongs to: the rule the reader picks a shard's processes by and the
 * analysis finds a peer's shard by, in one place.
 *
 * Processes 0 .. n-1 go in blocks of consecutive ids, as even as can be:
 * process p to shard p * shards / n. Processes close in id talk to each
 * other most (a stencil's neighbours, a node's ranks), so that most
 * messages stay within a shard, and only a block's edges cross. An id
 * past n (a reader whose ids are not dense, or n not given: 0) goes by
 * id modulo shards.
 */
#ifndef LS_SHARD_H
#define LS_SHARD_H

#include <stdint.h>

static inline uint32_t ls_shard_of(uint64_t process, uint64_t n, uint32_t shards)
{
	if (process < n && n <= UINT64_MAX / shards)
		return (uint32_t)(process * shards / n);
	return (uint32_t)(process % shards);
}

#endif
