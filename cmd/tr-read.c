/*
 * tr-read: a trace (an OTF2 archive as Score-P writes it) into the record
 * stream of docs/stream.md, in global time order: the reader of its format
 * (formats/readers.c) through the reader front (libstream/front.h).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../formats/readers.h"
#include "../libstream/error.h"
#include "common/progress.h"
#include "common/selection.h"
#include "common/tool.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-read [-hJMq] [-p processes] [-s streams] [-t begin:end] [--stats] trace ...\n");
	if (to == stdout)
		tool_help(to,
			  "  -p, --processes LIST     only these processes' events (ids and ranges: 0-3,7)\n"
			  "  -s, --streams LIST       only these streams' events\n"
			  "  -t, --time BEGIN:END     only events in this window (ns, us, ms, s since the start)\n"
			  "  -q, --quiet              no progress line (drawn where stderr is a terminal)\n"
			  "  --stats                  records by kind and enters by role on stderr\n", true);
}

static void print_stats(const char *path, const struct ls_front_report *r)
{
	fprintf(stderr, "%s: records by kind\n", path);
	for (int k = 1; k < LS_K__COUNT; k++)
		if (r->kinds[k])
			fprintf(stderr, "  %-14s %12" PRIu64 "\n", ls_kind_name((enum ls_kind)k), r->kinds[k]);
	fprintf(stderr, "%s: enters by role\n", path);
	for (int i = 1; i < LS_R__COUNT; i++)
		if (r->roles[i])
			fprintf(stderr, "  %-18s %12" PRIu64 "\n", ls_role_name((enum ls_role)i), r->roles[i]);
	if (r->filtered)
		fprintf(stderr, "%s: %" PRIu64 " events left out by -p, -s or -t\n", path, r->filtered);
	if (r->ignored) {
		fprintf(stderr, "%s: %" PRIu64 " records without meaning here, left out:", path,
			r->ignored);
		for (uint32_t i = 0; i < r->nleft_out; i++)
			fprintf(stderr, "%s %" PRIu64 " %s", i ? "," : "", r->left_out[i].n,
				r->left_out[i].kind);
		fputc('\n', stderr);
	}
	if (r->ninputs)
		fprintf(stderr, "%s: the input's records by kind       read    skipped\n", path);
	for (uint32_t i = 0; i < r->ninputs; i++)
		fprintf(stderr, "  %-28s %12" PRIu64 " %10" PRIu64 "\n", r->inputs[i].kind, r->inputs[i].read,
			r->inputs[i].skipped);
	for (uint32_t i = 0; i < r->nnotes; i++)
		fprintf(stderr, "%s: %s\n", path, r->note[i]);
	if (r->runs)
		fprintf(stderr, "%s: events sorted in %" PRIu64 " runs on disk (%" PRIu64
			" merges of 64 into one)\n", path, r->runs, r->merges);
}

static void show_progress(void *progress, uint64_t offered, uint64_t done, uint64_t total)
{
	progress_show(progress, offered, done, total);
}

int main(int argc, char **argv)
{
	enum { OPT_STATS = 256 };
	static const struct option longopts[] = {
		TOOL_LONGOPTIONS,
		{ "processes", required_argument, NULL, 'p' },
		{ "streams", required_argument, NULL, 's' },
		{ "time", required_argument, NULL, 't' },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct ls_front_options opt = LS_FRONT_OPTIONS_INIT;
	struct ls_front_report report;
	const struct reader *reader;
	struct ls_front front;
	struct tool_output out = { false, false };
	struct progress progress;
	bool stats = false, quiet = false;
	enum ls_format format;
	struct ls_writer w;
	char err[512];
	int ch, status;

	tool_init("tr-read", argc, argv);
	while ((ch = getopt_long(argc, argv, TOOL_OPTIONS "p:qs:t:", longopts, NULL)) != -1) {
		if (tool_option(ch, &out, usage))
			continue;
		switch (ch) {
		case 'p':
		case 's':
			if (ls_ranges_parse(ch == 'p' ? &opt.processes : &opt.streams, optarg) < 0) {
				tool_error("-%c %s: not a list of ids and ranges like 0-3,7", ch, optarg);
				return 2;
			}
			break;
		case 't':
			if (selection_window(optarg, &opt) < 0) {
				tool_error("-t %s: not a time window like 1.5s:2s, 0:200ms or 1000:", optarg);
				return 2;
			}
			break;
		case OPT_STATS:
			stats = true;
			break;
		case 'q':
			quiet = true;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind < 1 || tool_output_format(&out, &format) < 0) {
		usage(stderr);
		return 2;
	}

	ls_writer_init(&w, STDOUT_FILENO, format);
	ls_front_init(&front, &w, &opt, &report);
	progress_start(&progress, "tr-read", "events", quiet);
	ls_front_on_progress(&front, show_progress, &progress);
	if (!(reader = readers_for((const char *const *)argv + optind, argc - optind, err, sizeof(err))))
		status = 1;
	else
		status = readers_read(reader, (const char *const *)argv + optind, argc - optind, tool_stage(),
				      &front, &w, err, sizeof(err)) < 0;
	progress_end(&progress);
	if (status && !w.err)
		tool_error("%s: %s", argv[optind], err);
	else if (!status)
		status = selection_check(argv[optind], &opt, &report);
	ls_front_release(&front);
	selection_report(argv[optind], &report);
	if (stats)
		print_stats(argv[optind], &report);
	ls_ranges_release(&opt.processes);
	ls_ranges_release(&opt.streams);
	return tool_finish(&w) | status;
}
