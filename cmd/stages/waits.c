/* tr-waits as a stage: wait states, their patterns and blame (analysis/waits.h). */
#include <inttypes.h>
#include <stdio.h>

#include "../../analysis/waits.h"
#include "../common/tool.h"
#include "stages.h"

static void *open_waits(struct ls_writer *w, unsigned jobs, const void *opts)
{
	(void)jobs;
	(void)opts;
	return an_waits_new(w);
}

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_waits_take(ctx, rec, why);
}

static int finish(void *ctx)
{
	return an_waits_finish(ctx);
}

static void report(const char *input, const void *ctx)
{
	struct an_waits_stats st = an_waits_stats(ctx);
	const struct tool_count odd[] = {
		{ st.clock, "messages received before they were sent (clock skew): no wait state for them" },
		{ st.clamped, "wait states cut to their activity's duration (clock skew)" },
		{ st.stray_edges, "edges or instance members naming no MPI send, receive or collective" },
		{ st.undecided, "MPI activities still waiting for an edge at the end (unmatched messages, incomplete collectives)" },
		{ st.stray_other, "GPU or OpenMP edges naming activities tr-waits does not follow (or no longer keeps)" },
		{ st.outside, "message events in no MPI call: no wait state for them" },
	};

	tool_report_counts(input, odd, sizeof(odd) / sizeof(odd[0]));
}

static void held(const void *ctx, char *what, size_t n)
{
	struct an_waits_stats st = an_waits_stats(ctx);

	snprintf(what, n, "room for %" PRIu32 " activities and %" PRIu32 " message ends whose "
		 "wait states are not decided (messages never received?)", st.acts, st.msgs);
}

static void close_waits(void *ctx)
{
	an_waits_free(ctx);
}

static const char *const needs[] = { "tr-deps", NULL };
static const enum ls_kind replaces[] = { LS_K_WAIT, LS_K_IDLE, LS_K_BLAME, LS_K_WAIT_SUMMARY, 0 };

const struct stage_def stage_waits = {
	.tool = "tr-waits", .needs = needs, .replaces = replaces, .reads = an_waits_reads,
	.open = open_waits, .take = take, .finish = finish, .report = report, .held = held,
	.close = close_waits,
};
