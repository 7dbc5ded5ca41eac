/*
 * tr-svg: a self-contained SVG timeline of an analysed stream
 * (cmd/timeline.c draws it).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../libstream/reader.h"
#include "timeline.h"
#include "tool.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-svg [-h] [-t from,to] [-w width] [stream]\n");
	if (to == stdout)
		tool_help(to,
			  "  -t FROM,TO               only this window of the run (seconds from its start)\n"
			  "  -w WIDTH                 the picture's width in pixels (400 to 20000; 1600)\n", false);
}

/* -t FROM,TO in seconds from the run's start: 0, or -1. */
static int window_arg(const char *arg, double *from, double *to)
{
	char *end;

	errno = 0;
	*from = strtod(arg, &end);
	if (end == arg || *end != ',' || errno)
		return -1;
	arg = end + 1;
	*to = strtod(arg, &end);
	return end == arg || *end || errno || !(*from >= 0) || !(*to > *from) ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		TOOL_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	static const char *const needs[] = { "tr-deps", "tr-waits", "tr-critpath", NULL };
	struct timeline_opts o = { .width = 1600 };
	struct ls_reader r;
	struct ls_writer out;
	char *end;
	int ch, status;

	tool_init("tr-svg", argc, argv);
	while ((ch = getopt_long(argc, argv, "ht:w:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			tool_version();
		case 't':
			if (window_arg(optarg, &o.from_s, &o.to_s) < 0) {
				tool_error("-t %s: give a window like 0.5,1.5 (seconds from the run's start)", optarg);
				return 2;
			}
			o.window = true;
			break;
		case 'w':
			o.width = strtod(optarg, &end);
			if (*end || !(o.width >= 400 && o.width <= 20000)) {
				tool_error("-w %s: give a width from 400 to 20000 pixels", optarg);
				return 2;
			}
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind > 1) {
		usage(stderr);
		return 2;
	}
	if (tool_open_again(&r, argv[optind], needs))
		return 1;
	status = timeline_svg(&r, &o);
	ls_reader_release(&r);
	ls_writer_init(&out, STDOUT_FILENO, LS_FMT_JSON);
	return tool_finish(&out) | status;
}
