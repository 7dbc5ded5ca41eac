/*
 * tr-clock: re-time a stream with tr-deps' edges so that no event comes
 * before what it depends on (the clock condition); --summary says what
 * moved and how far.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/clock.h"
#include "../libstream/error.h"
#include "stage.h"
#include "tool.h"

enum { OPT_WINDOW = 256, OPT_LATENCY };

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-clock [-hJM] [--window SECONDS] [--latency TYPE=NS] [--summary] "
		"[file]\n");
	if (to == stdout)
		tool_help(to,
			  "  --window SECONDS         hold events this long (0.01)\n"
			  "  --latency TYPE=NS        least latency of an edge type (0); repeat for several\n"
			  "  --summary                what moved and by how much, on stderr\n", true);
}

/* --latency TYPE=NS: an edge type and its least latency, 0 to 10^9 ns. */
static int latency_arg(const char *arg, struct an_clock_options *o)
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

static int option(int val, const char *arg, void *ctx)
{
	struct an_clock_options *o = ctx;

	return val == OPT_WINDOW ? tool_window_arg("--window", arg, &o->window) : latency_arg(arg, o);
}

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_clock_take(ctx, rec, why);
}

static void held(const void *ctx, char *what, size_t n)
{
	snprintf(what, n, "%" PRIu32 " events held until the window has passed them (a smaller "
		 "--window?)", an_clock_held(ctx));
}

static void report(const char *input, const struct an_clock_stats *st)
{
	const struct tool_count odd[] = {
		{ st->gpu_late, "GPU activities that ended after the host call that waited for them "
				"(the GPU's clock runs late there): left as they are" },
		{ st->late, "edges that put their target before their source, read after the target "
			    "was written: not enforced (a longer --window lets them in before it)" },
		{ st->unheld, "edges into events the window no longer held: not checked (a longer "
			      "--window keeps them)" },
		{ st->lost, "edges from events no longer kept (a window older than the input): not checked" },
		{ st->too_far, "events that would move further than the window (or edges in a cycle): "
			       "not moved" },
	};

	tool_report_counts(input, odd, sizeof(odd) / sizeof(odd[0]));
}

/* What moved and why, on stderr. */
static void summary(const char *input, const struct an_clock_stats *st)
{
	uint64_t all = 0;

	for (int e = 0; e < LS_E__COUNT; e++)
		all += st->violations[e];
	fprintf(stderr, "%s: %" PRIu64 " edges broke the clock condition; %" PRIu64 " of %" PRIu64
		" events moved, by %.9f s at most, %.9f s in all\n", input, all, st->moved,
		st->events, tool_secs(st->max_shift), tool_secs(st->total_shift));
	for (int e = 0; e < LS_E__COUNT; e++)
		if (st->violations[e])
			fprintf(stderr, "  %-12s %12" PRIu64 "\n", ls_edge_name((enum ls_edge)e),
				st->violations[e]);
	fprintf(stderr, "  held at most %" PRIu64 " events at once\n", st->peak);
	if (st->shown_pairs)
		fprintf(stderr, "  least message latency the trace shows: %" PRId64 " ns (half the least"
			" round trip, over %" PRIu32 " pairs of processes): --latency msg=%" PRId64 "\n",
			st->shown_msg, st->shown_pairs, st->shown_msg > 0 ? st->shown_msg : 0);
}

int main(int argc, char **argv)
{
	static const char *const needs[] = { "tr-deps", NULL };
	static const char *const before[] = { "tr-waits", "tr-critpath", NULL };
	static const enum ls_kind replaces[] = { 0 };
	static const struct option more[] = {
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "latency", required_argument, NULL, OPT_LATENCY },
		{ NULL, 0, NULL, 0 },
	};
	struct an_clock_options opt = { 0 };
	struct stage_io io;
	struct an_clock *c;
	bool want_summary = false;
	int status, rc;

	tool_init("tr-clock", argc, argv);
	if ((status = stage_open_with(argc, argv, &(struct stage_args){ "summary", &want_summary,
		     NULL, NULL, more, option, &opt }, usage, &io)))
		return status;
	if (!(c = an_clock_new(&io.w, &opt)))
		return stage_close(&io, tool_write_error(&io.r, &io.w, LS_ERR_NOMEM));
	status = stage_run(&(struct stage){ .producer = "tr-clock " TR_VERSION, .needs = needs,
					    .before = before, .replaces = replaces,
					    .reads = an_clock_reads(), .take = take, .writes = true,
					    .held = held, .ctx = c }, &io);
	if (!status && (rc = an_clock_finish(c)) < 0)
		status = tool_write_error(&io.r, &io.w, rc);
	if (!status) {
		struct an_clock_stats st = an_clock_stats(c);

		report(io.r.name, &st);
		if (want_summary)
			summary(io.r.name, &st);
	}
	an_clock_free(c);
	return stage_close(&io, status);
}
