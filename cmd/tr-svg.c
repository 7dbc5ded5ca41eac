/*
 * tr-svg: a self-contained SVG timeline of an analysed stream
 * (cmd/render/timeline.c draws it).
 */
#include <getopt.h>
#include <stdio.h>
#include <unistd.h>

#include "../libstream/reader.h"
#include "render/timeline.h"
#include "common/tool.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-svg [-h] [-t from,to] [-w width] [stream]\n");
	if (to == stdout)
		tool_help(to,
			  "  -t FROM,TO               only this window of the run (seconds from its start)\n"
			  "  -w WIDTH                 the picture's width in pixels (400 to 20000; 1600)\n", false);
}

static int draw(struct ls_reader *r, void *o)
{
	return timeline_svg(r, o);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		TOOL_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	struct timeline_opts o = { .width = 1600 };
	int ch;

	tool_init("tr-svg", argc, argv);
	while ((ch = getopt_long(argc, argv, "ht:w:", longopts, NULL)) != -1) {
		tool_help_option(ch, usage);
		switch (ch) {
		case 't':
		case 'w':
			if (timeline_arg(ch, optarg, &o))
				return 2;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	return tool_draw(argc, argv, usage, draw, &o);
}
