/* tr-critpath as a stage: the critical path as crit records (analysis/critpath.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/critpath.h"
#include "../common/tool.h"
#include "stages.h"

/* opts: where the path ends (struct an_crit_end), NULL: the run's end */
static void *open_crit(struct ls_writer *w, unsigned jobs, const void *opts)
{
	struct an_crit *c = an_crit_new(w, jobs);

	if (c && opts)
		an_crit_end_at(c, opts);
	/* for checking that collecting does not change the path: tr-critpath(1) */
	if (c && getenv("TR_CRITPATH_KEEP_ALL"))
		an_crit_keep_all(c);
	return c;
}

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_crit_take(ctx, rec, why);
}

static int finish(void *ctx)
{
	return an_crit_finish(ctx);
}

static void report(const char *input, const void *ctx)
{
	struct an_crit_stats st = an_crit_stats(ctx);
	const struct tool_count odd[] = {
		{ st.lost, "dependencies came for events whose part of the path was already decided; the path may differ there" },
		{ st.cycles, "dependency cycles (edges against the order of events) cut" },
		{ st.blame_unknown, "ns of blame came for activities whose share of the path was let go of: "
				    "not counted on the path" },
	};

	tool_report_counts(input, odd, sizeof(odd) / sizeof(odd[0]));
	if (st.unreached)
		tool_error("%s: the run's end does not depend on the path written "
			   "before it (streams that never synchronize)", input);
	if (st.by_work && st.later) {
		const struct ls_defs *d = an_crit_defs(ctx);
		const struct ls_stream *e = &d->streams[st.end_s], *l = &d->streams[st.latest_s];

		tool_error("%s: the path ends where the run's main work (GPU work, the calls that give or "
			   "wait for it, MPI) ends, %.9f s after the first event, on stream %" PRIu64 " (%s); %" PRIu32
			   " streams went on without it, up to %.9f s longer (stream %" PRIu64 ", %s): "
			   "--end last ends the path there",
			   input, tool_secs((uint64_t)(st.end_t - st.first)), e->id, e->name ? e->name : "unnamed",
			   st.later, tool_secs((uint64_t)(st.latest_t - st.end_t)), l->id,
			   l->name ? l->name : "unnamed");
	}
	if (st.skew)
		tool_error("%s: %" PRIu64 " steps of the path go back in time (clock "
			   "skew, or events stamped after the fact): they take 0 ns", input, st.skew);
}

static void held(const void *ctx, char *what, size_t n)
{
	snprintf(what, n, "%" PRIu32 " events kept for the critical path (streams that never "
		 "synchronize with the rest, or a message never received?)", an_crit_held(ctx));
}

static void close_crit(void *ctx)
{
	an_crit_free(ctx);
}

int stage_critpath_end(const char *arg, struct an_crit_end *e)
{
	char *stop;
	double secs;

	if (!strcmp(arg, "last")) {
		e->kind = AN_END_LAST;
		return 0;
	}
	if (!strncmp(arg, "region=", 7) || !strncmp(arg, "stream=", 7)) {
		e->kind = arg[0] == 'r' ? AN_END_REGION : AN_END_STREAM;
		e->name = arg + 7;
		return 0;
	}
	errno = 0;
	secs = strtod(arg, &stop);
	if (!*arg || *stop || errno || !(secs >= 0) || secs > 4e9) {
		tool_error("--end %s: give last, region=NAME, stream=NAME or seconds after the first event", arg);
		return 2;
	}
	e->kind = AN_END_TIME;
	e->ns = (int64_t)llround(secs * 1e9);
	return 0;
}

void stage_critpath_no_end(const char *input, const struct an_crit_end *e)
{
	if (e->kind == AN_END_TIME)
		tool_error("%s: --end %.9f: no event that early", input, tool_secs((uint64_t)e->ns));
	else
		tool_error("%s: --end %s=%s: %s", input, e->kind == AN_END_REGION ? "region" : "stream",
			   e->name, e->kind == AN_END_REGION ? "no region of that name (or id) was left"
							     : "no stream of that name (or id) has an event");
}

static const char *const needs[] = { "tr-deps", "tr-waits", NULL };
static const enum ls_kind replaces[] = { LS_K_CRIT, LS_K_PATH_BLAME, 0 };

const struct stage_def stage_critpath = {
	.tool = "tr-critpath", .needs = needs, .replaces = replaces, .reads = an_crit_reads,
	.open = open_crit, .take = take, .finish = finish, .report = report, .held = held,
	.close = close_crit,
};
