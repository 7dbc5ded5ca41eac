/*
 * tr-waits: the wait states of a stream that has tr-deps' edges, with the
 * pattern of each and the blame for it; --summary adds per-pattern totals.
 */
#include <inttypes.h>
#include <stdio.h>

#include "../analysis/waits.h"
#include "../libstream/error.h"
#include "run/stage.h"
#include "common/tool.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-waits [-hJM] [--summary] [file]\n");
	if (to == stdout)
		tool_help(to,
			  "  --summary                waiting time per pattern, on stderr\n", true);
}

/* The per-pattern table on stderr, in seconds. */
static void summary_table(const char *input, const struct an_waits *a)
{
	const struct ls_defs *d = an_waits_defs(a);

	fprintf(stderr, "%s: wait states\n", input);
	fprintf(stderr, "  %-24s %8s %16s %16s %16s  %s\n", "pattern", "count",
		"time [s]", "min/proc [s]", "max/proc [s]", "most");
	for (int p = 0; p < LS_P__COUNT; p++) {
		uint64_t min, max;
		uint32_t most;
		struct an_tally all = an_waits_total(a, p, &min, &max, &most);
		char label[64];

		if (all.count)
			fprintf(stderr, "  %-24s %8" PRIu64 " %16.9f %16.9f %16.9f  %s\n",
				ls_pattern_name(p), all.count, (double)all.ns / 1e9,
				(double)min / 1e9, (double)max / 1e9,
				tool_label(label, sizeof(label), d->procs[most].id, d->procs[most].name));
	}
}

int main(int argc, char **argv)
{
	const struct an_stage *def = &an_stage_waits;
	struct stage_io io;
	struct an_waits *a;
	bool summary = false;
	int status, rc;

	tool_init("tr-waits", argc, argv);
	if ((status = stage_open(argc, argv, "summary", &summary, NULL, usage, &io)))
		return status;
	if (!(a = def->open(&io.w, 1, NULL)))
		return stage_close(&io, tool_write_error(&io.r, &io.w, LS_ERR_NOMEM));
	status = stage_run(def, a, &io);
	if (!status && summary && (rc = an_waits_summary(a)) < 0)
		status = tool_write_error(&io.r, &io.w, rc);
	if (!status) {
		stage_report(io.r.name, def, a);
		if (summary)
			summary_table(io.r.name, a);
	}
	def->close(a);
	return stage_close(&io, status);
}
