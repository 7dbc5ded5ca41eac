/*
 * tr-project: re-time a stream with tr-deps' edges under changed
 * durations (what if a region were faster?), and write it again with the
 * projected times and a projection record; --summary says what the run
 * would gain, overall and per process.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/project.h"
#include "../libstream/error.h"
#include "../libstream/vec.h"
#include "run/stage.h"
#include "common/stage-options.h"
#include "common/tool.h"

enum { OPT_WINDOW = 256, OPT_SCALE, OPT_SET, OPT_MIN };

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-project [-hJM] [--scale PATTERN=FACTOR ...] [--set PATTERN=DURATION ...] "
		"[--min FILE] [--window SECONDS] [--summary] [file]\n");
	if (to == stdout)
		tool_help(to,
			  "  --scale PATTERN=FACTOR   regions' own time times FACTOR; repeat for several\n"
			  "  --set PATTERN=DURATION   each activity's own time set (s, or ns, us, ms)\n"
			  "  --min FILE               floors of API calls, a line each: NS NAME\n"
			  "  --window SECONDS         settle events this long after reading them (0.01)\n"
			  "  --summary                run time before and after, per process, on stderr\n", true);
}

static int option(int val, const char *arg, void *ctx)
{
	struct stage_project_args *a = ctx;

	if (val == OPT_WINDOW)
		return tool_window_arg("--window", arg, &a->o.window);
	if (val == OPT_MIN)
		return stage_project_min(arg, a);
	return stage_project_change(val == OPT_SET ? "--set" : "--scale", arg, a);
}

static double gain(int64_t before, int64_t after)
{
	return before ? 100.0 * (double)(before - after) / (double)before : 0;
}

/* The run time before and after, overall and per process, on stderr. */
static void summary(const char *input, const struct an_project *p, const char *spec)
{
	struct an_project_stats st = an_project_stats(p);

	fprintf(stderr, "%s: %s: run %.9f s, projected %.9f s, gain %.9f s (%.2f %%); %" PRIu64
		" of %" PRIu64 " events after scaled work, held at most %" PRIu64 " at once\n",
		input, *spec ? spec : "no change", tool_secs((uint64_t)st.before),
		tool_secs((uint64_t)st.after), (double)(st.before - st.after) / 1e9,
		gain(st.before, st.after), st.scaled, st.events, st.peak);
	fprintf(stderr, "  floors: %" PRIu32 " API functions (their least own time in the input, "
		"or --min), %" PRIu64 " calls held at them\n", st.floors, st.floored);
	if (st.set || st.unset)
		fprintf(stderr, "  --set: %" PRIu64 " activities given their time, %" PRIu64 " not\n",
			st.set, st.unset);
	fprintf(stderr, "  %-20s %16s %16s %16s %8s\n", "process", "run [s]", "projected [s]",
		"gain [s]", "gain");
	for (uint32_t i = 0; i < an_project_processes(p); i++) {
		const char *name;
		char label[64];
		uint64_t id;
		int64_t before, after;

		if (!an_project_process(p, i, &id, &name, &before, &after))
			continue;
		fprintf(stderr, "  %-20s %16.9f %16.9f %16.9f %7.2f%%\n",
			tool_label(label, sizeof(label), id, name),
			(double)before / 1e9, (double)after / 1e9, (double)(before - after) / 1e9,
			gain(before, after));
	}
}

int main(int argc, char **argv)
{
	static const struct option more[] = {
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "scale", required_argument, NULL, OPT_SCALE },
		{ "set", required_argument, NULL, OPT_SET },
		{ "min", required_argument, NULL, OPT_MIN },
		{ NULL, 0, NULL, 0 },
	};
	static struct stage_project_args a;
	const struct an_stage *def = &an_stage_project;
	struct an_floors floors = AN_FLOORS_INIT;
	struct stage_io io;
	struct an_project *p;
	bool want_summary = false;
	int status, rc;

	tool_init("tr-project", argc, argv);
	stage_project_init(&a);
	if ((status = stage_open_with(argc, argv, &(struct stage_args){ "summary", &want_summary,
		     NULL, NULL, more, option, &a }, usage, &io)))
		return status;
	/* a first pass: each API function's least own time */
	if ((rc = ls_reader_rewindable(&io.r)) < 0 || (rc = an_floors_scan(&floors, &io.r, a.o.window ? a.o.window : AN_PROJECT_WINDOW)) < 0 ||
	    (rc = ls_reader_rewind(&io.r)) < 0) {
		if (rc == LS_ERR_NOMEM)
			tool_error("out of memory");
		else
			tool_error("%s: %s", io.r.name, io.r.err);
		status = 1;
		goto out;
	}
	a.o.floors = &floors;
	if (!(p = def->open(&io.w, 1, &a.o))) {
		status = tool_write_error(&io.r, &io.w, LS_ERR_NOMEM);
		goto out;
	}
	status = stage_run(def, p, &io);
	if (!status) {
		stage_report(io.r.name, def, p);
		if (want_summary)
			summary(io.r.name, p, a.spec);
	}
	def->close(p);
out:
	an_floors_release(&floors);
	stage_project_release(&a);
	return stage_close(&io, status);
}
