/*
 * tr-deps: the dependencies between processes, as edge records: each
 * message from its send to its receive, each collective member from the
 * member it waited for, with an instance record per collective.
 */
#include <inttypes.h>
#include <stdio.h>

#include "../analysis/deps.h"
#include "../libstream/error.h"
#include "stage.h"
#include "tool.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-deps [-hJM] [--stats] [file]\n");
	if (to == stdout)
		tool_help(to,
			  "  --stats                  counts of what was matched, on stderr\n", true);
}

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_deps_take(ctx, rec, why);
}

static void held(const void *ctx, char *what, size_t n)
{
	struct an_deps_stats st = an_deps_stats(ctx);

	snprintf(what, n, "%" PRIu64 " sends and %" PRIu64 " receives waiting for their other "
		 "side, %" PRIu64 " collective instances open (a process that never received?)",
		 st.unmatched_sends, st.unmatched_recvs, st.open_instances);
}

/* What was odd in the input, once each; with --stats what was found. */
static void report(const char *input, const struct an_deps_stats *st, bool stats)
{
	const struct an_offload_stats *g = &st->gpu;
	const struct tool_count odd[] = {
		{ st->unmatched_sends, "sends never received" },
		{ st->unmatched_recvs, "receives without a send" },
		{ st->clock, "receives that completed before their send began (clock skew)" },
		{ st->open_instances, "collective instances missing a member" },
		{ st->coll_alone, "collectives in no instance (no communicator, or not a member)" },
		{ st->mixed, "collective instances whose members ran different operations" },
		{ st->unposted, "nonblocking collectives completed without their post" },
		{ st->unbalanced, "enters and leaves that do not pair" },
		{ g->no_launch, "GPU activities no launch or copy call was found for" },
		{ g->never_ran, "launches or copies whose GPU activity never came" },
		{ g->idle_syncs, "GPU synchronizations with nothing to wait for" },
		{ g->unresolved, "GPU synchronizations whose work never ended" },
		{ g->unrecorded, "waits on CUDA events never recorded" },
		{ g->late, "GPU activities that came before the call that enqueued them (host and device clocks differ)" },
		{ g->late_events, "event synchronizations read before the event's record (out-of-order records)" },
		{ g->stray, "GPU calls without a valid GPU stream or event" },
		{ g->order, "GPU dependencies that ended after their work began (clock skew)" },
		{ st->omp.outside, "OpenMP team events or barriers outside a known team" },
		{ st->omp.open, "OpenMP barriers some team thread never left" },
		{ st->omp.lock_ids, "lock events without a lock id below 2^40, left out" },
	};

	tool_report_counts(input, odd, sizeof(odd) / sizeof(odd[0]));
	if (!stats)
		return;
	fprintf(stderr, "%s: edges\n", input);
	for (int e = 0; e < LS_E__COUNT; e++)
		if (st->edges[e])
			fprintf(stderr, "  %-12s %12" PRIu64 "\n", ls_edge_name(e), st->edges[e]);
	fprintf(stderr, "  %-12s %12" PRIu64 "\n", "instances", st->instances);
}

int main(int argc, char **argv)
{
	static const enum ls_kind replaces[] = { LS_K_EDGE, LS_K_INSTANCE, 0 };
	struct stage_io io;
	struct an_deps *d;
	bool stats = false;
	int status;

	tool_init("tr-deps", argc, argv);
	if ((status = stage_open(argc, argv, "stats", &stats, NULL, usage, &io)))
		return status;
	if (!(d = an_deps_new(&io.w)))
		return stage_close(&io, tool_write_error(&io.r, &io.w, LS_ERR_NOMEM));
	status = stage_run(&(struct stage){ .producer = "tr-deps " TR_VERSION, .replaces = replaces,
					    .reads = an_deps_reads(), .take = take, .held = held,
					    .ctx = d }, &io);
	if (!status) {
		struct an_deps_stats st;

		an_deps_finish(d);
		st = an_deps_stats(d);
		report(io.r.name, &st, stats);
	}
	an_deps_free(d);
	return stage_close(&io, status);
}
