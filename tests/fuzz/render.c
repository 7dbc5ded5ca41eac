/*
 * Fuzz target: a picture of an analysed stream as its tool draws it
 * (tool_open_again, then the renderer's passes), over any bytes, its
 * output thrown away. Built once per renderer: -DFUZZ_SVG (tr-svg's
 * timeline), -DFUZZ_REPORT (tr-report's page, its timeline zoomable) or
 * -DFUZZ_CHROME (tr-chrome's JSON).
 */
#include <stdio.h>
#include <unistd.h>

#include "../../cmd/common/tool.h"
#include "input.h"

#if defined(FUZZ_SVG)
#include "../../cmd/render/timeline.h"
#define TOOL "tr-svg"

/* A window from the run's start, so that what lies past it is cut as well as drawn. */
static int draw(struct ls_reader *r)
{
	struct timeline_opts o = { .width = 800 };

	return timeline_arg('t', "0,0.000002", &o) ? 0 : timeline_svg(r, &o);
}
#elif defined(FUZZ_REPORT)
#include "../../cmd/render/report.h"
#define TOOL "tr-report"

static int draw(struct ls_reader *r)
{
	struct rank_opts o = { RANK_TEXT, 0, false, false, false, false };
	struct timeline_opts t = { .width = 800, .inline_svg = true, .zoomable = true };

	return report_page(r, &o, &t);
}
#elif defined(FUZZ_CHROME)
#include "../../cmd/render/chrome.h"
#define TOOL "tr-chrome"

static int draw(struct ls_reader *r)
{
	return chrome_json(r);
}
#else
#error "build with -DFUZZ_SVG, -DFUZZ_REPORT or -DFUZZ_CHROME"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The picture goes nowhere; the tool's messages name it. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	tool_init(TOOL, *argc, *argv);
	return freopen("/dev/null", "w", stdout) ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const needs[] = { "tr-deps", "tr-waits", "tr-critpath", NULL };
	struct ls_reader r;
	char path[64];
	int in = fuzz_input(data, size, path, sizeof(path));

	if (in >= 0 && tool_open_again(&r, path, needs) == 0) {
		draw(&r);
		ls_reader_release(&r);
	}
	if (in >= 0)
		close(in);
	fflush(stdout);
	return 0;
}
