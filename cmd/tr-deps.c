/*
 * tr-deps: the dependencies between processes, as edge records: each
 * message from its send to its receive, each collective member from the
 * member it waited for, with an instance record per collective.
 */
#include <inttypes.h>
#include <stdio.h>

#include "../analysis/deps.h"
#include "stage.h"
#include "tool.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-deps [-hJM] [--stats] [file]\n");
}

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_deps_take(ctx, rec, why);
}

/* What was odd in the input, once each; with --stats what was found. */
static void report(const char *input, const struct an_deps_stats *st, bool stats)
{
	static const struct { size_t off; const char *what; } odd[] = {
		{ offsetof(struct an_deps_stats, unmatched_sends), "sends never received" },
		{ offsetof(struct an_deps_stats, unmatched_recvs), "receives without a send" },
		{ offsetof(struct an_deps_stats, clock), "receives that completed before their send began (clock skew)" },
		{ offsetof(struct an_deps_stats, open_instances), "collective instances missing a member" },
		{ offsetof(struct an_deps_stats, coll_alone), "collectives in no instance (no communicator, or not a member)" },
		{ offsetof(struct an_deps_stats, mixed), "collective instances whose members ran different operations" },
		{ offsetof(struct an_deps_stats, unbalanced), "enters and leaves that do not pair" },
	};

	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		uint64_t n = *(const uint64_t *)(const void *)((const char *)st + odd[i].off);

		if (n)
			tool_error("%s: %" PRIu64 " %s", input, n, odd[i].what);
	}
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
	struct an_deps d;
	bool stats = false;
	int status;

	tool_init("tr-deps");
	if ((status = stage_open(argc, argv, "stats", &stats, usage, &io)))
		return status;
	an_deps_init(&d, &io.w);
	status = stage_run(&(struct stage){ "tr-deps " TR_VERSION, replaces, take, &d }, &io);
	if (!status) {
		an_deps_finish(&d);
		report(io.r.name, &d.st, stats);
	}
	an_deps_release(&d);
	return stage_close(&io, status);
}
