/*
 * tr-waits: the wait states of a stream that has tr-deps' edges, with the
 * pattern of each and the blame for it; --summary adds per-pattern totals.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "../analysis/waits.h"
#include "stage.h"
#include "tool.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-waits [-hJM] [--summary] [file]\n");
}

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_waits_take(ctx, rec, why);
}

static void report(const char *input, const struct an_waits_stats *st)
{
	if (st->clock)
		tool_error("%s: %" PRIu64 " messages received before they were sent "
			   "(clock skew): no wait state for them", input, st->clock);
	if (st->clamped)
		tool_error("%s: %" PRIu64 " wait states cut to their activity's "
			   "duration (clock skew)", input, st->clamped);
	if (st->stray_edges)
		tool_error("%s: %" PRIu64 " edges or instance members naming no "
			   "MPI send, receive or collective", input, st->stray_edges);
	if (st->undecided)
		tool_error("%s: %" PRIu64 " MPI activities still waiting for an edge "
			   "at the end (unmatched messages, incomplete collectives)",
			   input, st->undecided);
}

/* The per-pattern table on stderr, in seconds. */
static void summary_table(const char *input, const struct an_waits *a)
{
	fprintf(stderr, "%s: wait states\n", input);
	fprintf(stderr, "  %-24s %8s %16s %16s %16s\n", "pattern", "count",
		"time [s]", "min/proc [s]", "max/proc [s]");
	for (int p = 0; p < LS_P__COUNT; p++) {
		uint64_t count = 0, ns = 0, min = UINT64_MAX, max = 0;

		for (uint32_t q = 0; q < a->tr.defs.nprocs; q++) {
			uint64_t n = 0;

			if (q < a->tally_procs) {
				count += a->tally[(size_t)q * LS_P__COUNT + p].count;
				n = a->tally[(size_t)q * LS_P__COUNT + p].ns;
			}
			ns += n;
			min = n < min ? n : min;
			max = n > max ? n : max;
		}
		if (count)
			fprintf(stderr, "  %-24s %8" PRIu64 " %16.9f %16.9f %16.9f\n",
				ls_pattern_name(p), count, (double)ns / 1e9,
				(double)min / 1e9, (double)max / 1e9);
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "summary", no_argument, NULL, 'S' },
		TOOL_LONGOPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	static const enum ls_kind replaces[] = {
		LS_K_WAIT, LS_K_BLAME, LS_K_WAIT_SUMMARY, 0
	};
	struct tool_output out = { false, false };
	enum ls_format format;
	struct ls_reader r;
	struct ls_writer w;
	struct an_waits a;
	bool summary = false;
	int ch, status, rc;

	tool_init("tr-waits");
	while ((ch = getopt_long(argc, argv, TOOL_OPTIONS, longopts, NULL)) != -1) {
		if (tool_option(ch, &out, usage))
			continue;
		if (ch != 'S') {
			usage(stderr);
			return 2;
		}
		summary = true;
	}
	if (argc - optind > 1 || tool_output_format(&out, &format) < 0) {
		usage(stderr);
		return 2;
	}
	if (ls_reader_open(&r, argv[optind]) < 0) {
		tool_error("%s: %s", argv[optind], r.err);
		return 1;
	}
	ls_writer_init(&w, STDOUT_FILENO, format);
	an_waits_init(&a, &w);
	status = stage_run(&(struct stage){ "tr-waits " TR_VERSION, replaces, take, &a },
			   &r, &w);
	if (!status && ((rc = an_waits_finish(&a)) < 0 ||
			(summary && (rc = an_waits_summary(&a)) < 0)))
		status = tool_write_error(&r, &w, rc);
	if (!status) {
		report(r.name, &a.st);
		if (summary)
			summary_table(r.name, &a);
	}
	an_waits_release(&a);
	ls_reader_release(&r);
	return tool_finish(&w) | status;
}
