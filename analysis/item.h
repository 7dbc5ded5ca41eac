/*
 * What a stage takes: a record, and what the stages of this process that
 * had it before learnt of it.
 *
 * Within one process (tr-analyze's chain) a record goes from stage to
 * stage as an item. The first stage that reads an event checks it against
 * the stream's rules (an_trace_item) and keeps what it found, typed, in
 * the item: the stages after it take the event's id, time, stream and
 * process as found instead of reading and checking them again. A record
 * a stage of this process wrote is made: the stage that wrote it keeps
 * the contract, and what it names is not looked up again. A filter's
 * records come from its input, neither known nor made (an_item_read).
 */
#ifndef AN_ITEM_H
#define AN_ITEM_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/record.h"

/* An event as the stages read it: typed, its stream and process as indexes of the definitions. */
struct an_event {
	uint64_t id;
	int64_t t;
	uint32_t s;		/* stream index */
	uint32_t proc;		/* its process index */
};

struct an_item {
	const struct ls_record *rec;
	bool made;		/* written by a stage of this process */
	bool known;		/* an event, ev as a stage before found and checked it */
	struct an_event ev;
};

/* A record read from a stage's input. */
static inline struct an_item an_item_read(const struct ls_record *rec)
{
	return (struct an_item){ .rec = rec };
}

#endif
