/* tr-clock as a stage: the stream re-timed to the clock condition (analysis/clock.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/clock.h"
#include "../common/tool.h"
#include "stages.h"

/* opts: struct an_clock_options (the window, least latencies), NULL: the defaults */
static void *open_clock(struct ls_writer *w, unsigned jobs, const void *opts)
{
	static const struct an_clock_options defaults = { 0 };

	(void)jobs;
	return an_clock_new(w, opts ? opts : &defaults);
}

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_clock_take(ctx, rec, why);
}

static int finish(void *ctx)
{
	return an_clock_finish(ctx);
}

static void report(const char *input, const void *ctx)
{
	struct an_clock_stats st = an_clock_stats(ctx);
	const struct tool_count odd[] = {
		{ st.gpu_late, "GPU activities that ended after the host call that waited for them "
			       "(the GPU's clock runs late there): left as they are" },
		{ st.late, "edges that put their target before their source, read after the target "
			   "was written: not enforced (a longer --window lets them in before it)" },
		{ st.unheld, "edges into events the window no longer held: not checked (a longer "
			     "--window keeps them)" },
		{ st.lost, "edges from events no longer kept (a window older than the input): not checked" },
		{ st.too_far, "events that would move further than the window (or edges in a cycle): "
			      "not moved" },
	};

	tool_report_counts(input, odd, sizeof(odd) / sizeof(odd[0]));
}

static void held(const void *ctx, char *what, size_t n)
{
	snprintf(what, n, "%" PRIu32 " events held until the window has passed them (a smaller "
		 "--window?)", an_clock_held(ctx));
}

static void close_clock(void *ctx)
{
	an_clock_free(ctx);
}

/* --latency TYPE=NS: an edge type and its least latency, 0 to 10^9 ns. */
int stage_clock_latency(const char *arg, struct an_clock_options *o)
{
	const char *eq = strchr(arg, '=');
	enum ls_edge e = eq ? ls_edge_lookup(arg, (uint32_t)(eq - arg)) : LS_E__COUNT;
	char *end;
	long long ns;

	if (e == LS_E__COUNT) {
		tool_error("--latency %s: give TYPE=NS with an edge type of docs/stream.md "
			   "(msg, coll, launch, sync, event, stream_wait, null_stream, fork, join, "
			   "barrier, lock)", arg);
		return 2;
	}
	errno = 0;
	ns = strtoll(eq + 1, &end, 10);
	if (!eq[1] || *end || errno || ns < 0 || ns > 1000000000) {
		tool_error("--latency %s: give the latency in ns, 0 to 1000000000", arg);
		return 2;
	}
	o->latency[e] = ns;
	return 0;
}

static const char *const needs[] = { "tr-deps", NULL };
static const char *const before[] = { "tr-waits", "tr-critpath", NULL };
static const enum ls_kind replaces[] = { 0 };

const struct stage_def stage_clock = {
	.tool = "tr-clock", .needs = needs, .before = before, .replaces = replaces,
	.reads = an_clock_reads, .writes = true, .open = open_clock, .take = take, .finish = finish,
	.report = report, .held = held, .close = close_clock,
};
