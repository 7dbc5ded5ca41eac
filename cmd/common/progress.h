/*
 * The progress line a tool that reads a file draws on a terminal: events
 * read, their rate, the time so far, on one line of standard error
 * redrawn a few times a second, erased at the end. Silent where standard
 * error is not a terminal, or with -q; in a pipeline only the tool that
 * reads a file draws it, so that stages never write over each other.
 */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct progress {
	bool on, drawn;
	const char *tool, *unit;	/* "events", "records" */
	int64_t start, last;	/* ns, monotonic */
};

/* Start counting unit ("events"): drawn where standard error is a terminal and not quiet. */
void progress_start(struct progress *p, const char *tool, const char *unit, bool quiet);

/*
 * n units read so far, and done bytes of the total input (0: not known):
 * redrawn where a quarter second has passed since the last drawing.
 */
void progress_show(struct progress *p, uint64_t n, uint64_t done, uint64_t total);

/* Erase the line (before anything else is said on standard error). */
void progress_end(struct progress *p);

#endif
