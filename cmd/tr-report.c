/*
 * tr-report: an analysed stream as one self-contained HTML page
 * (render/report.c makes it), or two runs side by side (--diff). Nothing
 * is fetched when it opens: styles, script and picture are in the page.
 */
#include <getopt.h>
#include <stdio.h>
#include <unistd.h>

#include "../libstream/writer.h"
#include "common/tool.h"
#include "render/diff-page.h"
#include "render/rank-table.h"
#include "render/report.h"
#include "render/timeline.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-report [-h] [--idle] [-n rows] [-t from,to] [-w width] [stream | --diff A B]\n");
	if (to == stdout)
		tool_help(to,
			  "  -n ROWS                  the rating's rows (20; 0: all), as tr-rank -n\n"
			  "  --idle                   idle blame rated as blame, as tr-rank --idle\n"
			  "  --diff A B               two runs side by side: each an analysed stream or a\n"
			  "                           tr-rank --json rating, as tr-rank --diff compares them\n"
			  "  -t FROM,TO               the timeline of this window only (seconds from the run's start)\n"
			  "  -w WIDTH                 the timeline's width in pixels (400 to 20000; 1600)\n", false);
}

/* What the page shows: the rating's options, the timeline's. */
struct page {
	const struct rank_opts *rank;
	const struct timeline_opts *timeline;
};

static int draw(struct ls_reader *r, void *ctx)
{
	const struct page *p = ctx;

	return report_page(r, p->rank, p->timeline);
}

/* --diff A B: the two runs side by side. The exit status. */
static int two_runs(int argc, char **argv, const struct rank_opts *o)
{
	struct rank_diff d = { 0 };
	struct ls_writer out;
	int status;

	if (argc != 2) {
		usage(stderr);
		return 2;
	}
	if (!(status = rank_diff_read(&d, argv[0], argv[1], o->idle)))
		diff_page(&d, o->top);
	rank_diff_release(&d);
	ls_writer_init(&out, STDOUT_FILENO, LS_FMT_JSON);
	return tool_finish(&out) | status;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "idle", no_argument, NULL, 'I' },
		{ "diff", no_argument, NULL, 'D' },
		TOOL_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	struct rank_opts o = { RANK_TEXT, 20, false, false, false, false };
	struct timeline_opts t = { .width = 1600, .inline_svg = true, .zoomable = true };
	int ch;

	tool_init("tr-report", argc, argv);
	while ((ch = getopt_long(argc, argv, "hn:t:w:", longopts, NULL)) != -1) {
		tool_help_option(ch, usage);
		switch (ch) {
		case 'n':
			if (rank_rows_arg(optarg, &o))
				return 2;
			break;
		case 'I':
			o.idle = true;
			break;
		case 'D':
			o.diff = true;
			break;
		case 't':
		case 'w':
			if (timeline_arg(ch, optarg, &t))
				return 2;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (o.diff)
		return two_runs(argc - optind, argv + optind, &o);
	return tool_draw(argc, argv, usage, draw, &(struct page){ &o, &t });
}
