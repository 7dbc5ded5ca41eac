/* tr-deps as a stage: the dependency edges between processes (analysis/deps.h). */
#include <inttypes.h>
#include <stdio.h>

#include "../../analysis/deps.h"
#include "../common/tool.h"
#include "stages.h"

static void *open_deps(struct ls_writer *w, unsigned jobs, const void *opts)
{
	(void)jobs;
	(void)opts;
	return an_deps_new(w);
}

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_deps_take(ctx, rec, why);
}

static int finish(void *ctx)
{
	an_deps_finish(ctx);
	return 0;
}

static void report(const char *input, const void *ctx)
{
	struct an_deps_stats st = an_deps_stats(ctx);
	const struct an_gpu_deps_stats *g = &st.gpu;
	const struct tool_count odd[] = {
		{ st.unmatched_sends, "sends never received" },
		{ st.unmatched_recvs, "receives without a send" },
		{ st.clock, "receives that completed before their send began (clock skew)" },
		{ st.open_instances, "collective instances missing a member" },
		{ st.coll_alone, "collectives in no instance (no communicator, or not a member)" },
		{ st.mixed, "collective instances whose members ran different operations" },
		{ st.unposted, "nonblocking collectives completed without their post" },
		{ st.unbalanced, "enters and leaves that do not pair" },
		{ g->no_launch, "GPU activities no launch or copy call was found for" },
		{ g->never_ran, "launches or copies whose GPU activity never came" },
		{ g->idle_syncs, "GPU synchronizations with nothing to wait for" },
		{ g->unresolved, "GPU synchronizations whose work never ended" },
		{ g->unrecorded, "waits on CUDA events never recorded" },
		{ g->late, "GPU activities that came before the call that enqueued them (host and device clocks differ)" },
		{ g->late_events, "event synchronizations read before the event's record (out-of-order records)" },
		{ g->stray, "GPU calls without a valid GPU stream or event" },
		{ g->order, "GPU dependencies that ended after their work began (clock skew)" },
		{ st.omp.outside, "OpenMP team events or barriers outside a known team" },
		{ st.omp.open, "OpenMP barriers some team thread never left" },
		{ st.omp.lock_ids, "lock events without a lock id below 2^40, left out" },
		{ st.omp.lock_early, "lock acquires stamped before the release they waited for (the OpenMP runtime "
				     "calls back after the fact): linked to it all the same" },
	};

	tool_report_counts(input, odd, sizeof(odd) / sizeof(odd[0]));
}

static void held(const void *ctx, char *what, size_t n)
{
	struct an_deps_stats st = an_deps_stats(ctx);

	snprintf(what, n, "%" PRIu64 " sends and %" PRIu64 " receives waiting for their other "
		 "side, %" PRIu64 " collective instances open (a process that never received?)",
		 st.unmatched_sends, st.unmatched_recvs, st.open_instances);
}

static void close_deps(void *ctx)
{
	an_deps_free(ctx);
}

static const enum ls_kind replaces[] = { LS_K_EDGE, LS_K_INSTANCE, 0 };

const struct stage_def stage_deps = {
	.tool = "tr-deps", .needs = NULL, .replaces = replaces, .reads = an_deps_reads,
	.open = open_deps, .take = take, .finish = finish, .report = report, .held = held,
	.close = close_deps,
};
