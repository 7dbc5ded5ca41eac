/*
 * tr-chrome: an analysed stream as Chrome trace-event JSON, for Perfetto
 * (ui.perfetto.dev) and chrome://tracing (render/chrome.c writes it).
 */
#include <getopt.h>
#include <stdio.h>

#include "../libstream/reader.h"
#include "common/tool.h"
#include "render/chrome.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-chrome [-h] [stream]\n");
	if (to == stdout)
		tool_help(to, "", false);
}

static int draw(struct ls_reader *r, void *ctx)
{
	(void)ctx;
	return chrome_json(r);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		TOOL_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	tool_init("tr-chrome", argc, argv);
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		tool_help_option(ch, usage);
		switch (ch) {
		default:
			usage(stderr);
			return 2;
		}
	}
	return tool_draw(argc, argv, usage, draw, NULL);
}
