/*
 * tr-report's page of an analysed stream: the run's summary, its first
 * rows told in words (tr-rank -v), tr-rank's rating table (sortable),
 * waiting time per pattern and per process as bar charts, and the
 * timeline inline. Passes: the rating (tr-rank's totals) and the
 * header's source; then the timeline's three.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/rank.h"
#include "../../libstream/error.h"
#include "../../libstream/header.h"
#include "../../libstream/reader.h"
#include "../common/tool.h"
#include "page.h"
#include "rank-table.h"
#include "rating-words.h"
#include "readable.h"
#include "report.h"
#include "timeline.h"
#include "timeline-zoom.h"
#include "xml.h"

/* The rating's pass: tr-rank's totals, and what the header says. */
struct rating {
	struct an_rank *k;
	const struct ls_reader *r;
	char source[1024];	/* the trace the stream was read from */
	char tools[512];	/* the stages it went through */
	bool failed;		/* said */
};

/* The header's source and stages, as text. */
static void header(struct rating *g, const struct ls_record *rec)
{
	const char *s;
	uint32_t n;

	if (ls_get_str(rec, LS_F_SOURCE, &s, &n) == 0)
		snprintf(g->source, sizeof(g->source), "%.*s", (int)n, s);
	ls_header_tools(rec, g->tools, sizeof(g->tools));
}

static int take(void *ctx, const struct ls_record *rec)
{
	struct rating *g = ctx;
	struct an_item it = an_item_read(rec);
	const char *why = NULL;
	char where[64];
	int rc;

	if (rec->kind == LS_K_HEADER)
		header(g, rec);
	if ((rc = an_rank_take(g->k, &it, &why)) < 0 && rc != LS_ERR_NOMEM) {
		tool_error("%s: %s: %s", g->r->name, ls_reader_where(g->r, where, sizeof(where)),
			   why ? why : "a record the rating cannot take");
		g->failed = true;
	} else if (rc == 0 && (an_rank_reads() & LS_KIND_BIT(rec->kind)) && tool_check_fields(g->r, rec)) {
		g->failed = true;
		rc = LS_ERR_SYNTAX;	/* said */
	}
	return rc;
}

/* Each pattern's colour in the charts. */
static const char *const pattern_fill[] = {
	"#e53935", "#fb8c00", "#fdd835", "#43a047", "#1e88e5", "#8e24aa", "#6d4c41", "#00acc1",
	"#d81b60", "#7cb342", "#3949ab", "#f4511e", "#546e7a", "#c0ca33", "#5e35b1", "#00897b",
};
#define NFILLS (sizeof(pattern_fill) / sizeof(pattern_fill[0]))

static uint64_t run_ns(const struct an_rank *k)
{
	const struct an_rank_totals *t = an_rank_totals(k);

	return t->events ? (uint64_t)(t->end - t->first) : 0;
}

static void summary(const struct rating *g)
{
	const struct an_rank_totals *t = an_rank_totals(g->k);
	const struct ls_defs *d = an_rank_defs(g->k);
	const struct {
		const char *what;
		uint64_t ns;
		bool if_any;	/* shown where not 0 */
	} rows[] = {
		{ "run", run_ns(g->k), false }, { "critical path", t->cp, false }, { "waiting", t->waiting, false },
		{ "blame", t->blame, false }, { "blame on the path", t->cp_blame, false },
		{ "GPU idle", t->idle_time, false },
		/* the path's time no row of the rating holds */
		{ "path in host code in no region", t->cp_host_outside, true },
		{ "path on GPU streams between activities", t->cp_gpu_between, true },
	};

	printf("<section id=\"summary\"><h2>The run</h2><table class=\"summary\">\n<tr><th>trace</th><td class=\"name\">");
	xml_text(g->source[0] ? g->source : g->r->name);
	printf("</td></tr>\n<tr><th>analysed by</th><td class=\"name\">");
	xml_text(g->tools);
	printf("</td></tr>\n<tr><th>processes</th><td>%u</td></tr>\n<tr><th>streams</th><td>%u</td></tr>\n",
	       d->nprocs, d->nstreams);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!rows[i].if_any || rows[i].ns)
			printf("<tr><th>%s</th><td data-ns=\"%" PRIu64 "\">%.9f s</td></tr>\n", rows[i].what,
			       rows[i].ns, tool_secs(rows[i].ns));
	printf("</table></section>\n");
}

/* A numeric cell: its text, and the value it sorts by. */
static void cell_secs(uint64_t ns)
{
	printf("<td data-v=\"%" PRIu64 "\">%.9f</td>", ns, tool_secs(ns));
}

static void cell_share(double share)
{
	printf("<td data-v=\"%.9f\">%.2f%%</td>", share, 100 * share);
}

static int rating_table(const struct rating *g, const struct rank_opts *o)
{
	static const char *const heads[] = { "rank", "region", "calls", "excl [s]", "cp [s]", "cp %",
					     "blame [s]", "blame %", "on path [s]", "idle [s]", "rating" };
	struct an_rating *v;
	uint32_t n, all;
	char **shown;

	if (an_rank_rate(g->k, o->idle, &v, &all) < 0)
		return LS_ERR_NOMEM;
	n = o->top && all > o->top ? o->top : all;
	if (rating_words(g->k, v, n, true) < 0) {
		free(v);
		return LS_ERR_NOMEM;
	}
	printf("<section id=\"rating\"><h2>Rating</h2><p class=\"note\">The regions to look at first: "
	       "their share of the critical path plus their share of the blame for wait states%s; "
	       "%u of %u rows, as <code>tr-rank -n %u%s</code> prints them. A click on a heading sorts by it.</p>\n"
	       "<table id=\"rating-table\" class=\"sortable\"><thead><tr>", o->idle ? " and GPU idleness" : "",
	       n, all, o->top, o->idle ? " --idle" : "");
	for (size_t j = 0; j < sizeof(heads) / sizeof(heads[0]); j++)
		printf("<th%s data-type=\"%s\">%s</th>", j == 1 ? " class=\"name\"" : "", j == 1 ? "text" : "num",
		       heads[j]);
	printf("</tr></thead><tbody>\n");
	if (readable_regions(g->k, 0, &shown) < 0) {
		free(v);
		return LS_ERR_NOMEM;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct an_rank_region *r = an_rank_region(g->k, v[i].region);

		/* the name as people read it (readable.h), the whole of it on hover */
		printf("<tr><td data-v=\"%u\">%u</td><td class=\"name\" data-v=\"", i + 1, i + 1);
		xml_text(r->name);
		printf("\" title=\"");
		xml_text(r->name);
		printf("\">");
		xml_text(shown[v[i].region]);
		printf("</td><td data-v=\"%" PRIu64 "\">%" PRIu64 "</td>", r->calls, r->calls);
		cell_secs(r->excl);
		cell_secs(r->cp);
		cell_share(v[i].cp_share);
		cell_secs(r->blame);
		cell_share(v[i].blame_share);
		cell_secs(r->cp_blame);
		cell_secs(r->idle);
		printf("<td data-v=\"%.9f\">%.4f</td></tr>\n", v[i].rating, v[i].rating);
	}
	printf("</tbody></table></section>\n");
	readable_free(shown, an_rank_defs(g->k)->nregions);
	free(v);
	return 0;
}

/* A bar of ns against the longest, max, in colour fill. */
static void bar(uint64_t ns, uint64_t max, const char *fill)
{
	printf("<span style=\"width:%.2f%%;background:%s\"></span>", max ? 100.0 * (double)ns / (double)max : 0,
	       fill);
}

static void process_name(const struct ls_defs *d, uint32_t i)
{
	if (d->procs[i].name)
		xml_text(d->procs[i].name);
	else
		printf("process %" PRIu64, d->procs[i].id);
}

static void per_pattern(const struct an_rank *k)
{
	const struct an_rank_totals *t = an_rank_totals(k);
	uint64_t max = 0;

	for (int p = 0; p < LS_P__COUNT; p++)
		if (t->wait_ns[p] > max)
			max = t->wait_ns[p];
	printf("<section id=\"patterns\"><h2>Waiting time per pattern</h2>\n");
	if (!max) {
		printf("<p>No wait states.</p></section>\n");
		return;
	}
	printf("<table class=\"bars\"><thead><tr><th class=\"name\">pattern</th><th>count</th><th>time [s]</th>"
	       "<th>min/proc [s]</th><th>max/proc [s]</th><th class=\"name\">waited most</th><th></th></tr></thead>"
	       "<tbody>\n");
	for (int idle = 0; idle < 2; idle++)
		for (int p = 0; p < LS_P__COUNT; p++) {
			uint64_t min, most;
			uint32_t who;

			if (!t->wait_count[p] || ls_pattern_idle(p) != idle)
				continue;
			an_rank_wait_range(k, p, &min, &most, &who);
			printf("<tr data-pattern=\"%s\"><td class=\"name\">%s%s</td><td>%" PRIu64 "</td><td>%.9f</td>"
			       "<td>%.9f</td><td>%.9f</td><td class=\"name\">", ls_pattern_name(p), ls_pattern_name(p),
			       idle ? " (idle, not waiting)" : "", t->wait_count[p], tool_secs(t->wait_ns[p]),
			       tool_secs(min), tool_secs(most));
			process_name(an_rank_defs(k), who);
			printf("</td><td class=\"bar\">");
			bar(t->wait_ns[p], max, pattern_fill[p % NFILLS]);
			printf("</td></tr>\n");
		}
	printf("</tbody></table></section>\n");
}

static void per_process(const struct an_rank *k)
{
	const struct ls_defs *d = an_rank_defs(k);
	uint64_t max = 0;

	for (uint32_t i = 0; i < d->nprocs; i++) {
		uint64_t sum = 0;

		for (int p = 0; p < LS_P__COUNT; p++)
			sum += ls_pattern_idle(p) ? 0 : an_rank_process_wait(k, i, p);
		if (sum > max)
			max = sum;
	}
	printf("<section id=\"processes\"><h2>Waiting time per process</h2>\n");
	if (!max) {
		printf("<p>No process waited.</p></section>\n");
		return;
	}
	printf("<p class=\"note\">Each bar: the process's wait states, by pattern (colours as above); "
	       "GPU idleness apart.</p>\n<table class=\"bars\"><thead><tr><th class=\"name\">process</th>"
	       "<th>waiting [s]</th><th>GPU idle [s]</th><th></th></tr></thead><tbody>\n");
	for (uint32_t i = 0; i < d->nprocs; i++) {
		uint64_t sum = 0, idle = 0;

		for (int p = 0; p < LS_P__COUNT; p++)
			*(ls_pattern_idle(p) ? &idle : &sum) += an_rank_process_wait(k, i, p);
		printf("<tr data-process=\"%" PRIu64 "\"><td class=\"name\">", d->procs[i].id);
		process_name(d, i);
		printf("</td><td>%.9f</td><td>%.9f</td><td class=\"bar\">", tool_secs(sum), tool_secs(idle));
		for (int p = 0; p < LS_P__COUNT; p++)
			if (!ls_pattern_idle(p) && an_rank_process_wait(k, i, p))
				bar(an_rank_process_wait(k, i, p), max, pattern_fill[p % NFILLS]);
		printf("</td></tr>\n");
	}
	printf("</tbody></table></section>\n");
}

/* What the GPUs did (tr-rank's GPU summary), where a process used one. */
static void gpu(const struct an_rank *k)
{
	const struct an_rank_totals *t = an_rank_totals(k);
	struct an_gpu_usage g;
	uint32_t procs = an_rank_gpu_total(k, &g);
	const struct {
		const char *what;
		bool counted;
		uint64_t count, ns;
	} rows[] = {
		{ "busy (kernels or copies)", false, 0, g.busy },
		{ "kernels", true, g.kernels, g.kernel },
		{ "copies and sets", true, g.copies, g.copy },
		{ "copies beside kernels (transfer overlapping compute)", false, 0, g.copy_kernel },
		{ "kernels beside kernels", false, 0, g.kernel_kernel },
		{ "kernel start-up on an idle GPU (after the launch returned)", true, g.startups, g.startup },
		{ "early synchronization (blame_kernel)", true, t->wait_count[LS_P_BLAME_KERNEL],
		  t->wait_ns[LS_P_BLAME_KERNEL] },
		{ "late synchronization (blame_sync)", true, t->wait_count[LS_P_BLAME_SYNC],
		  t->wait_ns[LS_P_BLAME_SYNC] },
	};

	if (!procs)
		return;
	printf("<section id=\"gpu\"><h2>GPUs</h2><p class=\"note\">Over the %u processes that used one; "
	       "as <code>tr-rank</code>'s GPU summary.</p>\n<table class=\"summary\"><thead><tr><th></th>"
	       "<th>count</th><th>time [s]</th></tr></thead><tbody>\n", procs);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		printf("<tr><th>%s</th><td>", rows[i].what);
		if (rows[i].counted)
			printf("%" PRIu64, rows[i].count);
		printf("</td><td>%.9f</td></tr>\n", tool_secs(rows[i].ns));
	}
	printf("</tbody></table></section>\n");
}

int report_page(struct ls_reader *r, const struct rank_opts *o, const struct timeline_opts *t)
{
	struct rating g = { .r = r };
	int status;

	if (!(g.k = an_rank_new(AN_RANK_WAITERS))) {
		tool_error("%s: out of memory", r->name);
		return 1;
	}
	status = tool_pass(r, take, &g);
	if (status == 0) {
		printf("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		       "<title>tr-report: ");
		xml_text(g.source[0] ? g.source : r->name);
		printf("</title><style>%s</style></head>\n<body>\n<h1>Critical path and wait states: ", page_style);
		xml_text(g.source[0] ? g.source : r->name);
		printf("</h1>\n");
		summary(&g);
		if (rating_table(&g, o) < 0) {
			tool_error("%s: out of memory", r->name);
			status = 1;
		}
	}
	if (status == 0) {
		per_pattern(g.k);
		per_process(g.k);
		gpu(g.k);
		printf("<section id=\"timeline\"><h2>Timeline</h2><div class=\"zoom\" id=\"timeline-zoom\">"
		       "<button data-zoom=\"in\">+</button><button data-zoom=\"out\">&#8722;</button>"
		       "<button data-zoom=\"reset\">reset</button> <span id=\"timeline-window\"></span></div>"
		       "<div class=\"timeline\">\n");
		status = timeline_svg(r, t);
		printf("</div></section>\n<script>%s</script>\n<script>%s</script>\n</body></html>\n", page_script,
		       timeline_zoom_script);
	}
	an_rank_free(g.k);
	return g.failed ? 1 : status;
}
