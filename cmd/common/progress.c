/* The progress line of a tool that reads a file (progress.h). */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

#define REDRAW_NS 250000000	/* four times a second */

static int64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void progress_start(struct progress *p, const char *tool, const char *unit, bool quiet)
{
	p->on = !quiet && isatty(STDERR_FILENO);
	p->drawn = false;
	p->tool = tool;
	p->unit = unit;
	p->start = p->last = p->on ? now() : 0;
}

void progress_show(struct progress *p, uint64_t n, uint64_t done, uint64_t total)
{
	int64_t t;
	double s;

	if (!p->on || (t = now()) - p->last < REDRAW_NS)
		return;
	p->last = t;
	s = (double)(t - p->start) / 1e9;
	fprintf(stderr, "\r%s: %.2f M %s, %.2f M %s/s, %.1f s", p->tool, (double)n / 1e6, p->unit,
		(double)n / 1e6 / s, p->unit, s);
	if (total)
		fprintf(stderr, ", %.0f %% of the input", 100.0 * (double)(done < total ? done : total) / (double)total);
	fputs("\033[K", stderr);
	p->drawn = true;
}

void progress_end(struct progress *p)
{
	if (p->drawn)
		fputs("\r\033[K", stderr);
	p->drawn = false;
}
