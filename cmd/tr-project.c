/*
 * tr-project: re-time a stream with tr-deps' edges under changed
 * durations (what if a region were faster?), and write it again with the
 * projected times and a projection record; --summary says what the run
 * would gain, overall and per process.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/project.h"
#include "../libstream/error.h"
#include "stage.h"
#include "tool.h"

#define SCALES_MAX 64

enum { OPT_WINDOW = 256, OPT_SCALE };

struct args {
	struct an_project_options o;
	struct an_project_scale scale[SCALES_MAX];
	char spec[4096];
};

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-project [-hJM] [--scale PATTERN=FACTOR]... [--window SECONDS] "
		"[--summary] [file]\n");
}

/* --scale PATTERN=FACTOR: a region name or glob, and a factor from 0 to 1000. */
static int scale_arg(const char *arg, struct args *a)
{
	const char *eq = strrchr(arg, '=');
	size_t used = strlen(a->spec);
	char *end;
	double f;

	if (!eq || eq == arg) {
		tool_error("--scale %s: give PATTERN=FACTOR, a region name or shell glob and a factor",
			   arg);
		return 2;
	}
	errno = 0;
	f = strtod(eq + 1, &end);
	if (!eq[1] || *end || errno || !(f >= 0) || f > 1000) {
		tool_error("--scale %s: give the factor as a number from 0 to 1000", arg);
		return 2;
	}
	if (a->o.nscales == SCALES_MAX || used + strlen(arg) + 2 > sizeof(a->spec)) {
		tool_error("--scale %s: at most %d changes, %zu bytes in all", arg, SCALES_MAX,
			   sizeof(a->spec) - 1);
		return 2;
	}
	a->scale[a->o.nscales++] = (struct an_project_scale){ strndup(arg, (size_t)(eq - arg)), f };
	if (!a->scale[a->o.nscales - 1].pattern) {
		tool_error("out of memory");
		return 1;
	}
	snprintf(a->spec + used, sizeof(a->spec) - used, "%s%s", used ? " " : "", arg);
	return 0;
}

static int option(int val, const char *arg, void *ctx)
{
	struct args *a = ctx;

	return val == OPT_WINDOW ? tool_window_arg("--window", arg, &a->o.window) : scale_arg(arg, a);
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
	fprintf(stderr, "  %-10s %16s %16s %16s %8s\n", "process", "run [s]", "projected [s]",
		"gain [s]", "gain");
	for (uint32_t i = 0; i < an_project_processes(p); i++) {
		uint64_t id;
		int64_t before, after;

		an_project_process(p, i, &id, &before, &after);
		fprintf(stderr, "  %-10" PRIu64 " %16.9f %16.9f %16.9f %7.2f%%\n", id,
			(double)before / 1e9, (double)after / 1e9, (double)(before - after) / 1e9,
			gain(before, after));
	}
}

int main(int argc, char **argv)
{
	static const char *const needs[] = { "tr-deps", NULL };
	static const enum ls_kind replaces[] = {
		LS_K_WAIT, LS_K_IDLE, LS_K_BLAME, LS_K_CRIT, LS_K_RATING, LS_K_WAIT_SUMMARY,
		LS_K_RUN_SUMMARY, LS_K_RATING_DIFF, LS_K_PROJECTION, 0
	};
	static const struct option more[] = {
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "scale", required_argument, NULL, OPT_SCALE },
		{ NULL, 0, NULL, 0 },
	};
	static struct args a;
	struct stage_io io;
	struct an_project *p;
	bool want_summary = false;
	int status, rc;

	tool_init("tr-project", argc, argv);
	a.o.scales = a.scale;
	a.o.spec = a.spec;
	if ((status = stage_open_with(argc, argv, &(struct stage_args){ "summary", &want_summary,
		     NULL, more, option, &a }, usage, &io)))
		return status;
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
	for (uint32_t k = 0; k < a.o.nscales; k++)
		free((char *)a.scale[k].pattern);
	return stage_close(&io, status);
}
