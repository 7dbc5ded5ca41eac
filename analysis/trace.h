/*
 * What every analysis stage follows in a stream: the definitions, each
 * event's id, time and stream, and the activities open on each stream.
 */
#ifndef AN_TRACE_H
#define AN_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/record.h"
#include "../libstream/defs.h"
#include "../libstream/idset.h"
#include "item.h"
#include "stack.h"

struct an_trace {
	struct ls_defs defs;
	struct an_stack *stacks;	/* per stream index */
	uint32_t stacks_cap;
	uint64_t unbalanced;	/* leaves without their enter, enters never left */
	bool any;		/* an event was read: last_t, last_s are its */
	int64_t last_t;
	uint64_t last_s;	/* stream id */
	struct ls_idset ids;	/* the event ids read: each once (runs of them, a few) */
	char why[160];		/* what was wrong with the last event, for *why */
};

void an_trace_init(struct an_trace *tr);

/*
 * A derived record (edge, wait, idle, blame, crit, path_blame) against
 * the events read: each event id it names was read before it (rule 5),
 * and a wait or idle period ends no later than the last event read (it
 * is written once decided); one a stage of this process made is taken
 * as it is. Returns 0, or LS_ERR_SYNTAX with *why (as tr-cat --check
 * says it).
 */
int an_trace_derived(struct an_trace *tr, struct an_item *it, const char **why);

/*
 * Take a definition (ls_defs_take). Returns 1 if rec was one, 0 if not,
 * or a negative error (*why set for LS_ERR_SYNTAX).
 */
int an_trace_def(struct an_trace *tr, const struct ls_record *rec,
		 const char **why);

/*
 * The id, time and stream of event rec (and an enter's or leave's
 * region), checked against the stream's rules: its time in range, and
 * not before the event read before it (by time, then stream id:
 * docs/stream.md rule 4), which every stage relies on. Returns 0, or
 * LS_ERR_SYNTAX with *why set (a field missing or out of range, an
 * undefined stream or region, an event out of order).
 */
int an_trace_event(struct an_trace *tr, const struct ls_record *rec,
		   struct an_event *ev, const char **why);

/*
 * An_trace_event of the item's event, once in a process: an event a stage
 * before found is taken as it found it (its id kept as read, for the
 * references to it), one not yet found is read, checked, and kept in the
 * item for the stages after. Returns as an_trace_event.
 */
int an_trace_item(struct an_trace *tr, struct an_item *it, struct an_event *ev, const char **why);

/* An enter (its region ev->r): push its frame (a, b and c zero). Returns it, or NULL with *rc LS_ERR_NOMEM. */
struct an_frame *an_trace_enter(struct an_trace *tr, const struct an_event *ev, int *rc);

/*
 * A leave (its region ev->r): the frame it closes, still on the stack (pop
 * it with an_stack_pop_to when done with it), or NULL if no open activity
 * is of its region (counted).
 */
struct an_frame *an_trace_leave(struct an_trace *tr, const struct an_event *ev);

/* Count the enters never left; returns the total count of unbalanced. */
uint64_t an_trace_finish(struct an_trace *tr);

void an_trace_release(struct an_trace *tr);

#endif
