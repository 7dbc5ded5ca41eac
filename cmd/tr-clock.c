/*
 * tr-clock: re-time a stream with tr-deps' edges so that no event comes
 * before what it depends on (the clock condition); --summary says what
 * moved and how far.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/clock.h"
#include "../libstream/error.h"
#include "run/stage.h"
#include "common/stage-options.h"
#include "common/tool.h"

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

static int option(int val, const char *arg, void *ctx)
{
	struct an_clock_options *o = ctx;

	return val == OPT_WINDOW ? tool_window_arg("--window", arg, &o->window) : stage_clock_latency(arg, o);
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
	static const struct option more[] = {
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "latency", required_argument, NULL, OPT_LATENCY },
		{ NULL, 0, NULL, 0 },
	};
	const struct an_stage *def = &an_stage_clock;
	struct an_clock_options opt = { 0 };
	struct stage_io io;
	void *c;
	bool want_summary = false;
	int status;

	tool_init("tr-clock", argc, argv);
	if ((status = stage_open_with(argc, argv, &(struct stage_args){ "summary", &want_summary,
		     NULL, NULL, more, option, &opt }, usage, &io)))
		return status;
	if (!(c = def->open(&io.w, 1, &opt)))
		return stage_close(&io, tool_write_error(&io.r, &io.w, LS_ERR_NOMEM));
	status = stage_run(def, c, &io);
	if (!status) {
		struct an_clock_stats st = an_clock_stats(c);

		stage_report(io.r.name, def, c);
		if (want_summary)
			summary(io.r.name, &st);
	}
	def->close(c);
	return stage_close(&io, status);
}
