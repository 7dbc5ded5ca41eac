/*
 * tr-project: the run re-timed under changed durations (what if this
 * region were twice as fast?), on the graph of tr-deps' edges.
 *
 * The model. Every event gets a new time from the event before it on its
 * stream and from the sources of the edges into it:
 *   - an event no edge leads to comes after the one before it on its
 *     stream by the time between them in the trace (work), scaled by the
 *     factor of the region that ran there (the innermost activity open),
 *     or, for an activity whose own time is set, by the factor that gives
 *     it that time;
 *   - an event edges lead to (a receive, a collective's or a
 *     synchronization's end, a kernel's start, a thread's start in a
 *     parallel region) waited, at most, from the event before it until its
 *     latest source: it comes at the later of the event before it and its
 *     latest source, plus what the trace shows after that (the time from
 *     the later of the two, in the trace, to the event; scaled likewise).
 * So waiting is not work: a wait shrinks when its source comes earlier and
 * grows when it comes later; every interval of work is kept, scaled; and
 * with no change (every factor 1) every event gets its own time back,
 * through the model, not around it. The first event of a stream that no
 * edge leads to keeps its time. An edge whose source is later than its
 * target in the trace (a GPU clock running late, left by tr-clock) says
 * nothing the times can keep, and is not followed (counted). An API call
 * (an MPI, GPU runtime or OpenMP region) never gets shorter than its floor:
 * given by name, or the least time of its own in the trace (floors.h).
 *
 * Streaming: an event's new time is settled once the input is a window
 * past it (every edge into it has come by then) and the events it depends
 * on are settled; events are written in the order of their new times once
 * no event still to come can be earlier (an_retime_write): the least over
 * the streams of where each can go on (a stream inside an activity that
 * can wait, at its last new time; one running work, later by the time
 * since at the smallest factor; an idle one, whose next event has an edge
 * into it, not at all). An event that would still come before what was
 * written is written at the frontier (counted).
 */
#ifndef AN_PROJECT_H
#define AN_PROJECT_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/writer.h"
#include "item.h"
#include "floors.h"

/* A change: a region's own time scaled, or set per activity. */
struct an_project_scale {
	const char *pattern;	/* a region name or shell glob (fnmatch) */
	double factor;		/* >= 0 */
	int64_t set;		/* >= 0: each activity takes this long of its own (ns), factor unused */
};

/* A floor given by name (--min): the least time an API function takes. */
struct an_project_floor {
	const char *name;
	int64_t ns;
};

#define AN_PROJECT_WINDOW INT64_C(10000000)	/* ns: the window unless given */

struct an_project_options {
	int64_t window;		/* ns; 0: AN_PROJECT_WINDOW */
	const struct an_project_scale *scales;	/* later ones win where several match; set: -1 */
	uint32_t nscales;
	const struct an_floors *floors;	/* each API function's least own time; NULL: none */
	const struct an_project_floor *mins;	/* by name, before floors */
	uint32_t nmins;
	const char *spec;	/* the change, for the projection record */
};

struct an_project_stats {
	uint64_t events;
	int64_t before, after;	/* run time, ns: the events' span, read and re-timed */
	uint64_t scaled;	/* events after work that was scaled (factor not 1) */
	uint64_t reverse;	/* edges whose source is later than their target: not followed */
	uint64_t late;		/* edges into events already settled (a longer --window?) */
	uint64_t lost;		/* edges from events no longer kept */
	uint64_t cut;		/* events settled before a source of theirs (edges in a cycle) */
	uint64_t clamped;	/* events that would have come before events already written */
	uint64_t floored;	/* API calls held at their floor */
	uint64_t set, unset;	/* activities given their duration (--set), and those that could not be */
	uint32_t floors;	/* regions with a floor */
	uint64_t peak;		/* events held at once */
};

struct an_project;

/* Write the re-timed stream to w (borrowed). Returns NULL when out of memory. */
struct an_project *an_project_new(struct ls_writer *w, const struct an_project_options *o);

/* The kinds whose fields an_project_take reads (LS_KIND_BIT). */
uint64_t an_project_reads(void);

/*
 * Take one input record (not yet written: an_project writes it). Returns
 * 0, or a negative error: LS_ERR_SYNTAX with *why set, LS_ERR_NOMEM, or a
 * writer error.
 */
int an_project_take(struct an_project *p, struct an_item *it, const char **why);

/* The input has ended: settle and write everything, then the projection record. */
int an_project_finish(struct an_project *p);

struct an_project_stats an_project_stats(const struct an_project *p);

/*
 * Processes defined, and process i's id, name (NULL: none) and run time
 * before and after (ns): false where it had no events.
 */
uint32_t an_project_processes(const struct an_project *p);
bool an_project_process(const struct an_project *p, uint32_t i, uint64_t *id, const char **name,
			int64_t *before, int64_t *after);

/* Events it holds now. */
uint32_t an_project_held(const struct an_project *p);

void an_project_free(struct an_project *p);

#endif
