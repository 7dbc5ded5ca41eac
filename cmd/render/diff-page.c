/* Two runs side by side as a page (diff-page.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "../common/tool.h"
#include "diff-page.h"
#include "page.h"
#include "xml.h"

/* B - A in seconds, signed. */
static double secs_change(uint64_t a, uint64_t b)
{
	return ((double)b - (double)a) / 1e9;
}

/* A cell of seconds (data-v: ns, signed for a change). */
static void cell(uint64_t ns)
{
	printf("<td data-v=\"%" PRIu64 "\">%.9f</td>", ns, tool_secs(ns));
}

static void cell_change(uint64_t a, uint64_t b)
{
	printf("<td data-v=\"%.0f\">%+.9f</td>", (double)b - (double)a, secs_change(a, b));
}

/* B against A as a share of A: "" where A is 0. */
static void cell_percent(uint64_t a, uint64_t b)
{
	if (a)
		printf("<td>%+.2f%%</td>", 100.0 * ((double)b - (double)a) / (double)a);
	else
		printf("<td></td>");
}

static void runs(const struct rank_diff *d)
{
	char setups[256];
	const struct {
		const char *what;
		uint64_t a, b;
	} rows[] = {
		{ "run", d->run[0].runtime, d->run[1].runtime },
		{ "critical path", d->run[0].cp, d->run[1].cp },
		{ "waiting", d->run[0].waiting, d->run[1].waiting },
		{ "blame", d->run[0].blame, d->run[1].blame },
		{ "GPU idle", d->run[0].idle, d->run[1].idle },
	};

	printf("<section id=\"runs\"><h2>The runs</h2><table class=\"summary\"><thead><tr><th></th>"
	       "<th>A</th><th>B</th><th>B &#8722; A [s]</th><th>change</th></tr></thead><tbody>\n"
	       "<tr><th>trace</th><td class=\"name\">");
	xml_text(d->path[0]);
	printf("</td><td class=\"name\">");
	xml_text(d->path[1]);
	printf("</td><td></td><td></td></tr>\n");
	if (!d->run[0].known || !d->run[1].known)
		printf("<tr><td class=\"note\" colspan=\"5\">A rating without its run_summary: its run's "
		       "figures are not known (0).</td></tr>\n");
	if (rank_diff_setups(d, setups, sizeof(setups))) {
		printf("<tr><td class=\"note\" colspan=\"5\">");
		xml_text(setups);
		printf(".</td></tr>\n");
	}
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		printf("<tr data-figure=\"%s\"><th>%s</th>", rows[i].what, rows[i].what);
		cell(rows[i].a);
		cell(rows[i].b);
		cell_change(rows[i].a, rows[i].b);
		cell_percent(rows[i].a, rows[i].b);
		printf("</tr>\n");
	}
	printf("</tbody></table></section>\n");
}

/* A bar of the change of rating: left (red) where it grew, right (green) where it fell. */
static void bar(double change, double max)
{
	double w = max > 0 ? 50.0 * fabs(change) / max : 0;

	printf("<td class=\"bar\"><span style=\"margin-left:%.2f%%;width:%.2f%%;background:%s\"></span></td>",
	       change > 0 ? 50.0 - w : 50.0, w, change > 0 ? "#e53935" : "#43a047");
}

static void regions(const struct rank_diff *d, uint32_t top)
{
	static const char *const heads[] = { "rank", "region", "cp A [s]", "cp B [s]", "cp B&#8722;A [s]",
					     "blame A [s]", "blame B [s]", "blame B&#8722;A [s]", "rating A",
					     "rating B", "rating B&#8722;A" };
	uint32_t n = top && d->n > top ? top : d->n;
	double max = 0;

	for (uint32_t i = 0; i < n; i++)
		max = fmax(max, fabs(d->v[i].rating[1] - d->v[i].rating[0]));
	printf("<section id=\"diff\"><h2>Regions, the largest change of rating first</h2><p class=\"note\">"
	       "Each region of either run, matched by name: its time on the critical path, the blame it "
	       "received and its rating in A and in B; %u of %u rows, as <code>tr-rank --diff</code> "
	       "prints them. The bar: the rating's change, to the left where it grew. A click on a "
	       "heading sorts by it.</p>\n<table id=\"diff-table\" class=\"sortable bars\"><thead><tr>",
	       n, d->n);
	for (size_t j = 0; j < sizeof(heads) / sizeof(heads[0]); j++)
		printf("<th%s data-type=\"%s\">%s</th>", j == 1 ? " class=\"name\"" : "", j == 1 ? "text" : "num",
		       heads[j]);
	printf("<th></th></tr></thead><tbody>\n");
	for (uint32_t i = 0; i < n; i++) {
		const struct diff_row *x = &d->v[i];

		printf("<tr><td data-v=\"%u\">%u</td><td class=\"name\" data-v=\"", i + 1, i + 1);
		xml_text(x->name);
		printf("\">");
		xml_text(x->name);
		printf("</td>");
		cell(x->cp[0]);
		cell(x->cp[1]);
		cell_change(x->cp[0], x->cp[1]);
		cell(x->blame[0]);
		cell(x->blame[1]);
		cell_change(x->blame[0], x->blame[1]);
		printf("<td data-v=\"%.9f\">%.4f</td><td data-v=\"%.9f\">%.4f</td><td data-v=\"%.9f\">%+.4f</td>",
		       x->rating[0], x->rating[0], x->rating[1], x->rating[1], x->rating[1] - x->rating[0],
		       x->rating[1] - x->rating[0]);
		bar(x->rating[1] - x->rating[0], max);
		printf("</tr>\n");
	}
	printf("</tbody></table></section>\n");
}

void diff_page(const struct rank_diff *d, uint32_t top)
{
	printf("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>tr-report: ");
	xml_text(d->path[0]);
	printf(" against ");
	xml_text(d->path[1]);
	printf("</title><style>%s</style></head>\n<body>\n<h1>Two runs side by side: A ", page_style);
	xml_text(d->path[0]);
	printf(", B ");
	xml_text(d->path[1]);
	printf("</h1>\n");
	runs(d);
	regions(d, top);
	printf("<script>%s</script>\n</body></html>\n", page_script);
}
