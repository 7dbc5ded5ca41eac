/*
 * The options of the analysis stages (analysis/stage.h) beyond the common
 * ones, as the filters read them and tr-analyze passes them on: each into
 * the struct the stage's open takes. Each returns 0, or the status to exit
 * with after a message (2: a bad argument; 1: a file or memory).
 */
#ifndef STAGE_OPTIONS_H
#define STAGE_OPTIONS_H

#include <stdint.h>

#include "../../analysis/clock.h"
#include "../../analysis/critpath.h"
#include "../../analysis/project.h"

/* tr-clock's --latency TYPE=NS: an edge type and its least latency, 0 to 10^9 ns. */
int stage_clock_latency(const char *arg, struct an_clock_options *o);

/* tr-critpath's --end WHERE: last, region=NAME, stream=NAME or seconds after the first event. */
int stage_critpath_end(const char *arg, struct an_crit_end *e);

#define STAGE_PROJECT_SCALES 64

/* tr-project's change: its options (o), what they point to, the change in words (spec). */
struct stage_project_args {
	struct an_project_options o;
	struct an_project_scale scale[STAGE_PROJECT_SCALES];
	struct an_project_floor *min;
	uint32_t min_cap;
	char spec[4096];
};

/* Point a's options at its arrays: before the first option. */
static inline void stage_project_init(struct stage_project_args *a)
{
	a->o.scales = a->scale;
	a->o.spec = a->spec;
}

/*
 * --scale PATTERN=FACTOR (a factor from 0 to 1000) or --set
 * PATTERN=DURATION (opt says which): a region name or glob and the
 * change, kept in order.
 */
int stage_project_change(const char *opt, const char *arg, struct stage_project_args *a);

/*
 * --min FILE: a floor per API function, a line each: nanoseconds, then
 * the function's name (the rest of the line); blank lines and lines
 * starting with # are skipped.
 */
int stage_project_min(const char *path, struct stage_project_args *a);

/* Free what a's options hold. */
void stage_project_release(struct stage_project_args *a);

#endif
