/*
 * tr-critpath: the critical path of an analysed stream, as crit records:
 * which activity on which stream the path runs through, and for how long;
 * --summary adds its length and its share per process and stream.
 */
#include <inttypes.h>
#include <stdio.h>

#include "../analysis/critpath.h"
#include "../libstream/error.h"
#include "run/stage.h"
#include "common/stage-options.h"
#include "common/tool.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-critpath [-hJMv] [-j N] [--end WHERE] [--summary] [file]\n");
	if (to == stdout)
		tool_help(to,
			  "  -j N                     threads for the path's pieces (1 to 64)\n"
			  "  --end WHERE              where the path ends: last (the last event),\n"
			  "                           region=NAME (its latest leave), stream=NAME (its\n"
			  "                           last event), SECONDS after the first event\n"
			  "                           (default: MPI_Finalize, else the main work's end)\n"
			  "  --summary                the path per process and stream, on stderr\n"
			  "  -v, --verbose            with --summary, the bytes a kept event takes\n", true);
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
	if (st.team_start)
		fprintf(stderr, "  %.9f s in the OpenMP runtime's team start (from a fork to each "
			"thread's own start in the team)\n", tool_secs(st.team_start));
}

enum { OPT_END = 256 };

/* --end WHERE */
static int end_option(int val, const char *arg, void *ctx)
{
	(void)val;
	return stage_critpath_end(arg, ctx);
}

int main(int argc, char **argv)
{
	static const struct option more[] = {
		{ "end", required_argument, NULL, OPT_END },
		{ NULL, 0, NULL, 0 },
	};
	struct an_crit_end end = { AN_END_RUN, NULL, 0 };
	const struct an_stage *def = &an_stage_critpath;
	struct stage_io io;
	struct an_crit *c;
	bool want_summary = false, verbose = false;
	unsigned jobs = 1;
	int status;

	tool_init("tr-critpath", argc, argv);
	if ((status = stage_open_with(argc, argv, &(struct stage_args){ "summary", &want_summary,
		     &jobs, &verbose, more, end_option, &end }, usage, &io)))
		return status;
	if (!(c = def->open(&io.w, jobs, &end)))
		return stage_close(&io, tool_write_error(&io.r, &io.w, LS_ERR_NOMEM));
	status = stage_run(def, c, &io);
	if (!status) {
		stage_report(io.r.name, def, c);
		if (want_summary)
			summary(io.r.name, c, verbose);
	}
	def->close(c);
	return stage_close(&io, status);
}
