/*
 * What tr-report's timeline redraws itself from when zoomed (the page's
 * script, timeline-zoom.c): each lane's activities (the parts where each
 * was the innermost, as the picture draws them) and wait states, and the
 * critical path's pieces in path order, as JSON in the page. Times are
 * ns from the run's first event (at most 2^63 - 1: the span of two
 * times), each item's start as a difference from the one before it, so
 * that a run's worth stays small.
 */
#ifndef TIMELINE_DATA_H
#define TIMELINE_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "../../libstream/buf.h"

/*
 * The most activities and path pieces a page holds (TR_ZOOM_ITEMS in the
 * environment can say fewer or more): past them it is drawn once, not
 * zoomable.
 */
#define TIMELINE_DATA_MAX 2000000

struct tl_lane {
	struct ls_buf acts, waits;
	uint64_t last_act, last_wait;	/* the previous item's start */
	uint64_t nacts, nwaits;
};

struct tl_data {
	struct tl_lane *lane;
	uint32_t nlanes;
	struct ls_buf path;
	uint64_t last_piece;
	uint64_t nitems;	/* activities and pieces */
	uint64_t max;		/* the most kept */
	bool over;		/* more than max: none kept */
	bool oom;
};

/* Room for nlanes lanes: 0 or LS_ERR_NOMEM. */
int tl_data_init(struct tl_data *d, uint32_t nlanes);

/* An activity's part on lane l from t0 to t1, painted paint at depth, of region index region. */
void tl_data_act(struct tl_data *d, uint32_t l, uint64_t t0, uint64_t t1, unsigned paint, unsigned depth,
		 uint32_t region);

void tl_data_wait(struct tl_data *d, uint32_t l, uint64_t t0, uint64_t dur);

/* A piece of the path on lane l (the next in path order). */
void tl_data_piece(struct tl_data *d, uint32_t l, uint64_t t0, uint64_t dur);

/* Whether the items are kept: false past TIMELINE_DATA_MAX, or out of memory. */
bool tl_data_kept(const struct tl_data *d);

/* The lanes' items as JSON members on stdout: "acts":[[...],...],"waits":[[...],...],"path":[...]. */
void tl_data_print(const struct tl_data *d);

void tl_data_release(struct tl_data *d);

#endif
