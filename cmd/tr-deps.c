/*
 * tr-deps: the dependencies between processes, as edge records: each
 * message from its send to its receive, each collective member from the
 * member it waited for, with an instance record per collective.
 */
#include <inttypes.h>
#include <stdio.h>

#include "../analysis/deps.h"
#include "../libstream/error.h"
#include "run/stage.h"
#include "common/tool.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-deps [-hJM] [--stats] [file]\n");
	if (to == stdout)
		tool_help(to,
			  "  --stats                  counts of what was matched, on stderr\n", true);
}

/* With --stats: what was found. */
static void print_stats(const char *input, const struct an_deps_stats *st)
{
	fprintf(stderr, "%s: edges\n", input);
	for (int e = 0; e < LS_E__COUNT; e++)
		if (st->edges[e])
			fprintf(stderr, "  %-12s %12" PRIu64 "\n", ls_edge_name(e), st->edges[e]);
	fprintf(stderr, "  %-12s %12" PRIu64 "\n", "instances", st->instances);
	/* nothing queued when it was called: ordinary, and no edge */
	if (st->gpu.idle_syncs)
		fprintf(stderr, "%s: GPU synchronizations\n  %-12s %12" PRIu64 "\n", input, "found idle",
			st->gpu.idle_syncs);
}

int main(int argc, char **argv)
{
	const struct an_stage *def = &an_stage_deps;
	struct stage_io io;
	void *d;
	bool stats = false;
	int status;

	tool_init("tr-deps", argc, argv);
	if ((status = stage_open(argc, argv, "stats", &stats, NULL, usage, &io)))
		return status;
	if (!(d = def->open(&io.w, 1, NULL)))
		return stage_close(&io, tool_write_error(&io.r, &io.w, LS_ERR_NOMEM));
	status = stage_run(def, d, &io);
	if (!status) {
		struct an_deps_stats st = an_deps_stats(d);

		stage_report(io.r.name, def, d);
		if (stats)
			print_stats(io.r.name, &st);
	}
	def->close(d);
	return stage_close(&io, status);
}
