/* The timeline of an analysed stream as an SVG picture (cmd/render/timeline.c). */
#ifndef TIMELINE_H
#define TIMELINE_H

#include <stdbool.h>

#include "../../libstream/reader.h"

struct timeline_opts {
	double width;		/* pixels, 400 to 20000 */
	bool window;		/* only from_s to to_s (seconds from the run's start) */
	double from_s, to_s;
	bool inline_svg;	/* for an HTML page: no XML declaration */
	bool zoomable;		/* and the items drawn after it, for the page's script to zoom */
};

/* The option -t FROM,TO or -w WIDTH (opt) into o. Returns 0, or 2 after a message. */
int timeline_arg(int opt, const char *arg, struct timeline_opts *o);

/*
 * Draw r (opened with tool_open_again, read in three passes) on stdout.
 * Returns 0; 1 after a message (a read error, nothing to draw, out of
 * memory); 2 after a message where the window lies past the run's end.
 */
int timeline_svg(struct ls_reader *r, const struct timeline_opts *o);

#endif
