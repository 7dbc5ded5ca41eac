/*
 * tr-critpath: the critical path of an analysed stream, as crit records:
 * which activity on which stream the path runs through, and for how long;
 * --summary adds its length and its share per process and stream.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "../analysis/critpath.h"
#include "../libstream/error.h"
#include "stage.h"
#include "tool.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-critpath [-hJMv] [-j N] [--summary] [file]\n");
	if (to == stdout)
		tool_help(to,
			  "  -j N                     threads for the path's pieces (1 to 64)\n"
			  "  --summary                the path per process and stream, on stderr\n"
			  "  -v, --verbose            with --summary, the bytes a kept event takes\n", true);
}

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_crit_take(ctx, rec, why);
}

static void report(const char *input, const struct an_crit_stats *st)
{
	const struct tool_count odd[] = {
		{ st->lost, "dependencies came for events whose part of the path was already decided; the path may differ there" },
		{ st->cycles, "dependency cycles (edges against the order of events) cut" },
	};

	tool_report_counts(input, odd, sizeof(odd) / sizeof(odd[0]));
	if (st->unreached)
		tool_error("%s: the run's end does not depend on the path written "
			   "before it (streams that never synchronize)", input);
	if (st->skew)
		tool_error("%s: %" PRIu64 " steps of the path go back in time (clock "
			   "skew): they take 0 ns", input, st->skew);
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/*
 * Length, changes, and the time per process and per stream, on stderr;
 * verbose: the bytes a kept event takes too.
 */
static void summary(const char *input, const struct an_crit *c, bool verbose)
{
	const struct ls_defs *d = an_crit_defs(c);
	struct an_crit_stats st = an_crit_stats(c);
	uint64_t run = st.nodes ? (uint64_t)(st.end - st.first) : 0;

	fprintf(stderr, "%s: critical path %.9f s of a %.9f s run, %" PRIu64
		" changes of stream, %" PRIu64 " events\n", input,
		tool_secs(st.length), tool_secs(run), st.changes, st.nodes);
	fprintf(stderr, "  %-20s %-24s %16s %8s\n", "process", "stream", "time [s]", "share");
	for (uint32_t p = 0; p < d->nprocs; p++) {
		char label[64];
		uint64_t ns = 0;

		for (uint32_t s = 0; s < d->nstreams; s++)
			if (d->streams[s].process == p)
				ns += an_crit_stream_ns(c, s);
		if (!ns)
			continue;
		fprintf(stderr, "  %-20s %-24s %16.9f %7.2f%%\n",
			tool_label(label, sizeof(label), d->procs[p].id, d->procs[p].name), "all",
			tool_secs(ns), share(ns, st.length));
		for (uint32_t s = 0; s < d->nstreams; s++)
			if (d->streams[s].process == p && an_crit_stream_ns(c, s))
				fprintf(stderr, "  %-20s %-24s %16.9f %7.2f%%\n", "",
					tool_label(label, sizeof(label), d->streams[s].id,
						   d->streams[s].name),
					tool_secs(an_crit_stream_ns(c, s)),
					share(an_crit_stream_ns(c, s), st.length));
	}
	fprintf(stderr, "  kept at most %" PRIu64 " events at once", st.peak);
	if (verbose)
		fprintf(stderr, " (%zu bytes each)", an_crit_bytes_per_node());
	fputc('\n', stderr);
	fprintf(stderr, "  %" PRIu64 " steps across an edge outlasted their source's activity, "
		"charged to the target's stream after it ended\n", st.overrun);
}

static void held(const void *ctx, char *what, size_t n)
{
	const struct an_crit *c = ctx;

	snprintf(what, n, "%" PRIu32 " events kept for the critical path (streams that never "
		 "synchronize with the rest, or a message never received?)", an_crit_held(c));
}

int main(int argc, char **argv)
{
	static const char *const needs[] = { "tr-deps", "tr-waits", NULL };
	static const enum ls_kind replaces[] = { LS_K_CRIT, 0 };
	struct stage_io io;
	struct an_crit *c;
	bool want_summary = false, verbose = false;
	unsigned jobs = 1;
	int status, rc;

	tool_init("tr-critpath", argc, argv);
	if ((status = stage_open_with(argc, argv, &(struct stage_args){ "summary", &want_summary,
		     &jobs, &verbose, NULL, NULL, NULL }, usage, &io)))
		return status;
	if (!(c = an_crit_new(&io.w, jobs)))
		return stage_close(&io, tool_write_error(&io.r, &io.w, LS_ERR_NOMEM));
	/* for checking that collecting does not change the path: tr-critpath(1) */
	if (getenv("TR_CRITPATH_KEEP_ALL"))
		an_crit_keep_all(c);
	status = stage_run(&(struct stage){ .producer = "tr-critpath " TR_VERSION, .needs = needs,
					    .replaces = replaces, .reads = an_crit_reads(),
					    .take = take, .held = held, .ctx = c }, &io);
	if (!status && (rc = an_crit_finish(c)) < 0)
		status = tool_write_error(&io.r, &io.w, rc);
	if (!status) {
		struct an_crit_stats st = an_crit_stats(c);

		report(io.r.name, &st);
		if (want_summary)
			summary(io.r.name, c, verbose);
	}
	an_crit_free(c);
	return stage_close(&io, status);
}
