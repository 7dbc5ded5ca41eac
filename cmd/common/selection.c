/* The part of a trace to read (-p, -s, -t), and what the reader front said of it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selection.h"
#include "tool.h"

/* A time with an optional unit: ns (the default), us, ms, s. */
static int parse_time(const char *s, const char *end, int64_t *out)
{
	static const struct { const char *unit; double scale; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1 },
	};
	char *stop;
	double v;

	errno = 0;
	v = strtod(s, &stop);
	if (stop == s || errno)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = strlen(units[i].unit);

		if ((size_t)(end - stop) == n && strncmp(stop, units[i].unit, n) == 0) {
			v *= units[i].scale;
			if (v > 9.2e18 || v < -9.2e18)
				return -1;
			*out = (int64_t)v;
			return 0;
		}
	}
	return -1;
}

int selection_window(const char *arg, struct ls_front_options *opt)
{
	const char *colon = strchr(arg, ':');

	if (!colon)
		return -1;
	opt->window = true;
	opt->begin = INT64_MIN;
	opt->end = INT64_MAX;
	if (colon > arg && parse_time(arg, colon, &opt->begin) < 0)
		return -1;
	if (colon[1] && parse_time(colon + 1, colon + strlen(colon), &opt->end) < 0)
		return -1;
	return opt->begin <= opt->end ? 0 : -1;
}

void selection_report(const char *path, const struct ls_front_report *r)
{
	struct tool_count odd[3 + LS_FRONT_MAX_ODD] = {
		{ r->leave_without_enter, "leaves without a matching enter (measurement switched off, or a time window)" },
		{ r->leave_mismatch, "leaves of another region than the one entered" },
		{ r->open_at_end, "enters never left (a rank that did not finish, or a time window)" },
	};

	for (uint32_t i = 0; i < r->nodd; i++)
		odd[3 + i] = (struct tool_count){ r->odd[i].n, r->odd[i].what };
	tool_report_counts(path, odd, 3 + r->nodd);
}

int selection_check(const char *path, const struct ls_front_options *opt,
			   const struct ls_front_report *r)
{
	uint64_t written = 0;

	if ((opt->processes.n || opt->streams.n) && !r->selected) {
		tool_error("%s: -p and -s select no stream of the trace", path);
		return 2;
	}
	for (int k = 1; k < LS_K__COUNT; k++)
		if (ls_kind_spec((enum ls_kind)k)->cls == LS_C_EVENT)
			written += r->kinds[k];
	if (opt->window && r->offered && !written) {
		tool_error("%s: -t keeps no event of the trace: its events lie from %.9f s to %.9f s",
			   path, tool_secs((uint64_t)r->first_t), tool_secs((uint64_t)r->last_t));
		return 2;
	}
	return 0;
}

