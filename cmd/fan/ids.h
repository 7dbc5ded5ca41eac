/*
 * Rank 0's numbering of the merged stream. A shard numbers its events
 * shard, shard + shards, shard + 2 shards, ... (libstream/front.h), so
 * that every id its stage writes names its event and that event's shard,
 * its own or another's; rank 0 numbers the events 0, 1, 2, ... in the
 * stream's order, as one reader would, and writes every id the stages
 * wrote (an edge's ends, an instance's activities) as that number.
 */
#ifndef FAN_IDS_H
#define FAN_IDS_H

#include <stddef.h>
#include <stdint.h>

#include "../../libstream/record.h"
#include "../../libstream/writer.h"

struct ids {
	uint32_t shards;
	struct ids_shard {
		uint64_t *v;	/* the stream's id of the shard's k-th event */
		size_t n, cap;
	} *of;
};

/* 0, or -1 when out of memory. */
int ids_init(struct ids *m, uint32_t shards);

void ids_release(struct ids *m);

/*
 * Event rec, the next of its shard, to out as the stream's event id:
 * 0, a writer's error, or LS_ERR_SYNTAX where its id is not its shard's next.
 */
int ids_event(struct ids *m, const struct ls_record *rec, uint64_t id, struct ls_writer *out);

/*
 * A record a shard's stage wrote, to out with the stream's ids of the
 * events it names: 0, a writer's error, or LS_ERR_SYNTAX where it names
 * an event not merged yet.
 */
int ids_derived(const struct ids *m, const struct ls_record *rec, struct ls_writer *out);

#endif
