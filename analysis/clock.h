/*
 * tr-clock: times that respect the clock condition. A stream with
 * tr-deps' edges says what happened before what; where a clock disagrees
 * (a message received before it was sent, a kernel that began before its
 * launch, a collective left before its last member entered), the edge's
 * target came too early on its stream's clock.
 *
 * A controlled logical clock, after Rabenseifner and Becker et al.: every
 * event gets a new time, at first its own plus the shift its stream has
 * reached (so that the intervals between a stream's events are kept).
 * An edge whose target is earlier than its source plus the least latency
 * of its type raises the target to that time: forward, the target and
 * every later event of its stream move by the same amount; backward, the
 * earlier events of the stream still held move by as much too, as far as
 * the edges they are the source of allow where the target cannot move
 * along (written already, or a host call that waited for the GPU); what
 * every moved event's edges lead to moves along. A clock that is off by
 * a constant is thus corrected as a whole, its intervals kept. Times only
 * move later, and no event moves further than the window.
 *
 * The events are held, and written in the order of their new times, by
 * the re-timing engine (retime.h): a window longer than the clocks
 * disagree lets every edge in before its target is written. An edge into
 * an event already written cannot move it: it is counted (a longer
 * window helps).
 */
#ifndef AN_CLOCK_H
#define AN_CLOCK_H

#include <stdint.h>

#include "../libstream/schema.h"
#include "../libstream/writer.h"
#include "item.h"
#include "latency.h"

struct an_clock_options {
	int64_t window;			/* ns; 0: 10 ms */
	int64_t latency[LS_E__COUNT];	/* least latency per edge type, ns */
};

struct an_clock_stats {
	uint64_t events;		/* events taken */
	uint64_t moved;			/* of them, written at a later time */
	uint64_t max_shift, total_shift;	/* ns, over the events moved */
	uint64_t violations[LS_E__COUNT];	/* edges whose target came too early as recorded (enforced) */
	uint64_t gpu_late;		/* GPU events after the host call that waited for them: left */
	uint64_t late;			/* edges that broke the condition into events already written: not enforced */
	uint64_t unheld;		/* edges into events the window no longer held: not checked */
	uint64_t lost;			/* edges from events no longer kept: not checked */
	uint64_t too_far;		/* raises past the window, or cycles: not made */
	uint64_t peak;			/* events held at once */
	int64_t shown_msg;		/* the least message latency the trace shows (latency.h), ns */
	uint32_t shown_pairs;		/* over so many pairs of processes; 0: none */
};

struct an_clock;

/* Write the re-timed stream to w (borrowed). Returns NULL when out of memory. */
struct an_clock *an_clock_new(struct ls_writer *w, const struct an_clock_options *o);

/*
 * Take one input record (not yet written: an_clock writes it, when its
 * time is settled). Returns 0, or a negative error: LS_ERR_SYNTAX with
 * *why set, LS_ERR_NOMEM, or a writer error.
 */
int an_clock_take(struct an_clock *c, struct an_item *it, const char **why);

/* The kinds whose fields an_clock_take reads (LS_KIND_BIT): the others it passes on as they are. */
uint64_t an_clock_reads(void);

/* The input has ended: write everything still held. Returns 0 or an error. */
int an_clock_finish(struct an_clock *c);

struct an_clock_stats an_clock_stats(const struct an_clock *c);

/* Events it holds now. */
uint32_t an_clock_held(const struct an_clock *c);

void an_clock_free(struct an_clock *c);

#endif
