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
#include "common/tool.h"

#define SCALES_MAX 64

enum { OPT_WINDOW = 256, OPT_SCALE, OPT_SET, OPT_MIN };

struct args {
	struct an_project_options o;
	struct an_project_scale scale[SCALES_MAX];
	struct an_project_floor *min;
	uint32_t min_cap;
	char spec[4096];
};

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

/* DURATION of --set: a number of seconds, or with ns, us, ms or s after it; at most a day. */
static bool duration(const char *arg, int64_t *ns)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "ns", 1 },
	};
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || errno || !(v >= 0))
		return false;
	for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++)
		if (strcmp(end, units[k].unit) == 0 && v * units[k].ns <= 86400e9) {
			*ns = llround(v * units[k].ns);
			return true;
		}
	return false;
}

/*
 * --scale PATTERN=FACTOR (a factor from 0 to 1000) or --set
 * PATTERN=DURATION: a region name or glob and the change, kept in order.
 */
static int change_arg(const char *opt, const char *arg, struct args *a)
{
	const char *eq = strrchr(arg, '=');
	size_t used = strlen(a->spec);
	bool set = strcmp(opt, "--set") == 0;
	int64_t ns = -1;
	char *end;
	double f = 1;

	if (!eq || eq == arg) {
		tool_error("%s %s: give PATTERN=%s, a region name or shell glob and %s", opt, arg,
			   set ? "DURATION" : "FACTOR", set ? "a duration" : "a factor");
		return 2;
	}
	if (set && !duration(eq + 1, &ns)) {
		tool_error("--set %s: give the duration in seconds, or with ns, us, ms or s after "
			   "it, up to a day", arg);
		return 2;
	}
	errno = 0;
	if (!set && ((f = strtod(eq + 1, &end)), !eq[1] || *end || errno || !(f >= 0) || f > 1000)) {
		tool_error("--scale %s: give the factor as a number from 0 to 1000", arg);
		return 2;
	}
	if (a->o.nscales == SCALES_MAX || used + strlen(arg) + 2 > sizeof(a->spec)) {
		tool_error("%s %s: at most %d changes, %zu bytes in all", opt, arg, SCALES_MAX,
			   sizeof(a->spec) - 1);
		return 2;
	}
	a->scale[a->o.nscales] = (struct an_project_scale){ strndup(arg, (size_t)(eq - arg)), f, ns };
	if (!a->scale[a->o.nscales++].pattern) {
		tool_error("out of memory");
		return 1;
	}
	snprintf(a->spec + used, sizeof(a->spec) - used, "%s%s%s", used ? " " : "", set ? "set:" : "",
		 arg);
	return 0;
}

/*
 * --min FILE: a floor per API function, a line each: nanoseconds, then
 * the function's name (the rest of the line); blank lines and lines
 * starting with # are skipped.
 */
static int min_arg(const char *path, struct args *a)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *end;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;
	int status = 0;

	if (!f) {
		tool_error("--min %s: %s", path, strerror(errno));
		return 1;
	}
	while (!status && (n = getline(&line, &cap, f)) >= 0) {
		long long ns;

		lineno++;
		if (n && line[n - 1] == '\n')
			line[--n] = 0;
		if (!n || line[0] == '#')
			continue;
		errno = 0;
		ns = strtoll(line, &end, 10);
		if (end == line || errno || ns < 0 || (*end != ' ' && *end != '\t') || !end[1]) {
			tool_error("--min %s: line %lu: give nanoseconds, a space and a function's name",
				   path, lineno);
			status = 1;
		} else if (ls_vec_room(&a->min, &a->min_cap, a->o.nmins, sizeof(*a->min)) < 0 ||
			   !(a->min[a->o.nmins].name = strdup(end + 1))) {
			tool_error("out of memory");
			status = 1;
		} else {
			a->min[a->o.nmins++].ns = ns;
		}
	}
	if (!status && ferror(f)) {
		tool_error("--min %s: %s", path, strerror(errno));
		status = 1;
	}
	free(line);
	fclose(f);
	a->o.mins = a->min;
	return status;
}

static int option(int val, const char *arg, void *ctx)
{
	struct args *a = ctx;

	if (val == OPT_WINDOW)
		return tool_window_arg("--window", arg, &a->o.window);
	if (val == OPT_MIN)
		return min_arg(arg, a);
	return change_arg(val == OPT_SET ? "--set" : "--scale", arg, a);
}

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_project_take(ctx, rec, why);
}

static void held(const void *ctx, char *what, size_t n)
{
	snprintf(what, n, "%" PRIu32 " events held until no event to come can be earlier (a long "
		 "wait on some stream?)", an_project_held(ctx));
}

static void report(const char *input, const struct an_project_stats *st)
{
	const struct tool_count odd[] = {
		{ st->reverse, "edges whose source is later than their target (a GPU clock running "
			       "late, left by tr-clock?): not followed" },
		{ st->late, "edges into events already settled (a longer --window?): not followed" },
		{ st->lost, "edges from events no longer kept (a longer --window?): not followed" },
		{ st->cut, "events settled before an event they depend on (edges in a cycle?)" },
		{ st->clamped, "events that would have come before events already written: written "
			       "after them" },
		{ st->unset, "activities --set could not give their time (longer than --window, or "
			     "with no time of their own): left as they were" },
	};

	tool_report_counts(input, odd, sizeof(odd) / sizeof(odd[0]));
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
	static const char *const needs[] = { "tr-deps", NULL };
	static const enum ls_kind replaces[] = {
		LS_K_WAIT, LS_K_IDLE, LS_K_BLAME, LS_K_CRIT, LS_K_PATH_BLAME, LS_K_RATING, LS_K_WAIT_SUMMARY,
		LS_K_RUN_SUMMARY, LS_K_RATING_DIFF, LS_K_PROJECTION, 0
	};
	static const struct option more[] = {
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "scale", required_argument, NULL, OPT_SCALE },
		{ "set", required_argument, NULL, OPT_SET },
		{ "min", required_argument, NULL, OPT_MIN },
		{ NULL, 0, NULL, 0 },
	};
	static struct args a;
	struct an_floors floors = AN_FLOORS_INIT;
	struct stage_io io;
	struct an_project *p;
	bool want_summary = false;
	int status, rc;

	tool_init("tr-project", argc, argv);
	a.o.scales = a.scale;
	a.o.spec = a.spec;
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
	if (!(p = an_project_new(&io.w, &a.o)))
		return stage_close(&io, tool_write_error(&io.r, &io.w, LS_ERR_NOMEM));
	status = stage_run(&(struct stage){ .producer = "tr-project " TR_VERSION, .needs = needs,
					    .replaces = replaces, .reads = an_project_reads(),
					    .take = take, .writes = true, .held = held, .ctx = p },
			   &io);
	if (!status && (rc = an_project_finish(p)) < 0)
		status = tool_write_error(&io.r, &io.w, rc);
	if (!status) {
		struct an_project_stats st = an_project_stats(p);

		report(io.r.name, &st);
		if (want_summary)
			summary(io.r.name, p, a.spec);
	}
	an_project_free(p);
out:
	an_floors_release(&floors);
	for (uint32_t k = 0; k < a.o.nscales; k++)
		free((char *)a.scale[k].pattern);
	for (uint32_t k = 0; k < a.o.nmins; k++)
		free((char *)a.min[k].name);
	free(a.min);
	return stage_close(&io, status);
}
