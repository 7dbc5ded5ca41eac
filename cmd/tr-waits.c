/*
 * tr-waits: the wait states of a stream that has tr-deps' edges, with the
 * pattern of each and the blame for it; --summary adds per-pattern totals.
 */
#include <inttypes.h>
#include <stdio.h>

#include "../analysis/waits.h"
#include "../libstream/error.h"
#include "stage.h"
#include "tool.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-waits [-hJM] [--summary] [file]\n");
	if (to == stdout)
		tool_help(to,
			  "  --summary                waiting time per pattern, on stderr\n", true);
}

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_waits_take(ctx, rec, why);
}

static void report(const char *input, const struct an_waits_stats *st)
{
	const struct tool_count odd[] = {
		{ st->clock, "messages received before they were sent (clock skew): no wait state for them" },
		{ st->clamped, "wait states cut to their activity's duration (clock skew)" },
		{ st->stray_edges, "edges or instance members naming no MPI send, receive or collective" },
		{ st->undecided, "MPI activities still waiting for an edge at the end (unmatched messages, incomplete collectives)" },
		{ st->stray_other, "GPU or OpenMP edges naming activities tr-waits does not follow (or no longer keeps)" },
		{ st->outside, "message events in no MPI call: no wait state for them" },
	};

	tool_report_counts(input, odd, sizeof(odd) / sizeof(odd[0]));
}

/* The per-pattern table on stderr, in seconds. */
static void summary_table(const char *input, const struct an_waits *a)
{
	fprintf(stderr, "%s: wait states\n", input);
	fprintf(stderr, "  %-24s %8s %16s %16s %16s\n", "pattern", "count",
		"time [s]", "min/proc [s]", "max/proc [s]");
	for (int p = 0; p < LS_P__COUNT; p++) {
		uint64_t min, max;
		struct an_tally all = an_waits_total(a, p, &min, &max);

		if (all.count)
			fprintf(stderr, "  %-24s %8" PRIu64 " %16.9f %16.9f %16.9f\n",
				ls_pattern_name(p), all.count, (double)all.ns / 1e9,
				(double)min / 1e9, (double)max / 1e9);
	}
}

static void held(const void *ctx, char *what, size_t n)
{
	struct an_waits_stats st = an_waits_stats(ctx);

	snprintf(what, n, "room for %" PRIu32 " activities and %" PRIu32 " message ends whose "
		 "wait states are not decided (messages never received?)", st.acts, st.msgs);
}

int main(int argc, char **argv)
{
	static const char *const needs[] = { "tr-deps", NULL };
	static const enum ls_kind replaces[] = {
		LS_K_WAIT, LS_K_IDLE, LS_K_BLAME, LS_K_WAIT_SUMMARY, 0
	};
	struct stage_io io;
	struct an_waits *a;
	bool summary = false;
	int status, rc;

	tool_init("tr-waits", argc, argv);
	if ((status = stage_open(argc, argv, "summary", &summary, NULL, usage, &io)))
		return status;
	if (!(a = an_waits_new(&io.w)))
		return stage_close(&io, tool_write_error(&io.r, &io.w, LS_ERR_NOMEM));
	status = stage_run(&(struct stage){ .producer = "tr-waits " TR_VERSION, .needs = needs,
					    .replaces = replaces, .reads = an_waits_reads(),
					    .take = take, .held = held, .ctx = a }, &io);
	if (!status && ((rc = an_waits_finish(a)) < 0 ||
			(summary && (rc = an_waits_summary(a)) < 0)))
		status = tool_write_error(&io.r, &io.w, rc);
	if (!status) {
		struct an_waits_stats st = an_waits_stats(a);

		report(io.r.name, &st);
		if (summary)
			summary_table(io.r.name, a);
	}
	an_waits_free(a);
	return stage_close(&io, status);
}
