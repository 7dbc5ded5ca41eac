/* The rating told in words (rating-words.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/roles.h"
#include "../common/tool.h"
#include "pattern-words.h"
#include "rating-words.h"
#include "readable.h"
#include "xml.h"

/* The waits of one pattern by one waiting region, over the processes that waited. */
struct group {
	uint32_t pattern, by_region;
	uint64_t ns;
	uint32_t nprocs;	/* known waiting processes */
	uint32_t procs[2];	/* the first two (largest first) */
};

/* The waiting groups told per region, the rest summed. */
#define GROUPS_TOLD 2
/* The streams named per region's path, the rest counted. */
#define STREAMS_TOLD 2

struct words {
	const struct an_rank *k;
	const struct ls_defs *d;
	char **names;		/* the regions' names as people read them (readable.h) */
	bool html;
	bool named[LS_P__COUNT];	/* patterns named so far: explained at the end */
};

/* Text from the trace (a name): escaped in HTML. */
static void text(const struct words *w, const char *s)
{
	if (w->html)
		xml_text(s);
	else
		fputs(s, stdout);
}

static void pattern(struct words *w, uint32_t p)
{
	w->named[p] = true;
	if (w->html)
		printf("<a href=\"#pattern-%s\">%s</a>", ls_pattern_name(p), ls_pattern_name(p));
	else
		fputs(ls_pattern_name(p), stdout);
}

static void process(const struct words *w, uint32_t i)
{
	if (w->d->procs[i].name)
		text(w, w->d->procs[i].name);
	else
		printf("process %" PRIu64, w->d->procs[i].id);
}

static void stream(const struct words *w, uint32_t i)
{
	const struct ls_stream *s = &w->d->streams[i];

	if (s->name)
		text(w, s->name);
	else
		printf("stream %" PRIu64, s->id);
	printf(" of ");
	process(w, s->process);
}

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* Where region i's time on the critical path lay: its streams, largest first. */
static int path(const struct words *w, uint32_t i, uint64_t cp)
{
	struct an_fact *f;
	uint32_t n;

	if (an_facts_of(&an_rank_waiters(w->k)->path, i, &f, &n) < 0)
		return LS_ERR_NOMEM;
	for (uint32_t j = 0; j < n && j < STREAMS_TOLD; j++) {
		fputs(j == 0 ? ", on " : n > STREAMS_TOLD ? ", " : " and ", stdout);
		stream(w, f[j].pattern);
		if (n > 1)
			printf(" (%.0f %%)", percent(f[j].ns, cp));
	}
	if (n > STREAMS_TOLD)
		printf(" and %u more stream%s", n - STREAMS_TOLD, n - STREAMS_TOLD > 1 ? "s" : "");
	free(f);
	return 0;
}

/* The waits of the facts f[0..n) (one region's, largest first) by pattern and waiting region, largest first. */
static uint32_t group(const struct an_fact *f, uint32_t n, bool idle, struct group *g)
{
	uint32_t ng = 0;

	for (uint32_t j = 0; j < n; j++) {
		uint32_t x = 0;

		if (ls_pattern_idle(f[j].pattern) != idle)
			continue;
		while (x < ng && (g[x].pattern != f[j].pattern || g[x].by_region != f[j].by_region))
			x++;
		if (x == ng)
			g[ng++] = (struct group){ f[j].pattern, f[j].by_region, 0, 0, { 0, 0 } };
		g[x].ns += f[j].ns;
		if (f[j].by_proc != LS_NONE && g[x].nprocs++ < 2)
			g[x].procs[g[x].nprocs - 1] = f[j].by_proc;
	}
	for (uint32_t a = 1; a < ng; a++)	/* few: by insertion, equal ones kept in order */
		for (uint32_t b = a; b > 0 && g[b].ns > g[b - 1].ns; b--) {
			struct group t = g[b];

			g[b] = g[b - 1];
			g[b - 1] = t;
		}
	return ng;
}

/* The processes of a group (one or more): named where one or two, else counted. */
static void processes(const struct words *w, const struct group *g)
{
	if (g->nprocs == w->d->nprocs && g->nprocs > 2) {
		printf("every process");
	} else if (g->nprocs <= 2) {
		process(w, g->procs[0]);
		if (g->nprocs == 2) {
			printf(" and ");
			process(w, g->procs[1]);
		}
	} else {
		printf("%u processes", g->nprocs);
	}
}

/* Who waited for region i's activities: the largest groups, the rest summed. */
static void waiters(struct words *w, const struct group *g, uint32_t ng)
{
	uint64_t rest = 0;

	for (uint32_t x = 0; x < ng; x++) {
		if (x >= GROUPS_TOLD) {
			rest += g[x].ns;
			continue;
		}
		fputs(x ? "; " : ": ", stdout);
		if (g[x].by_region == LS_NONE)
			printf("calls not known");
		else
			text(w, w->names[g[x].by_region]);
		if (g[x].nprocs) {	/* blame apart from its wait knows neither */
			printf(" on ");
			processes(w, &g[x]);
		}
		printf(" waited for it %.6f s (", tool_secs(g[x].ns));
		pattern(w, g[x].pattern);
		printf(")");
	}
	if (rest)
		printf("; other waits %.6f s", tool_secs(rest));
}

/* Region row's idle blame, by pattern. */
static void idle(struct words *w, const struct an_rank_region *r, const struct group *g, uint32_t ng)
{
	bool seen[LS_P__COUNT] = { false };
	bool first = true;

	printf(" Apart from wait states, %.6f s of GPU idle blame: the GPU sat idle while it ran (",
	       tool_secs(r->idle));
	for (uint32_t x = 0; x < ng; x++)
		if (!seen[g[x].pattern]) {
			seen[g[x].pattern] = true;
			fputs(first ? "" : ", ", stdout);
			pattern(w, g[x].pattern);
			first = false;
		}
	printf(").");
}

const char *rating_made_up(const struct an_rank *k, uint32_t i, bool why)
{
	if (an_rank_defs(k)->roles[i] == LS_R_OMP_TEAM_START)
		return why ? "no region of the trace: the OpenMP runtime's work of starting a team's threads, from "
			     "the fork to each thread's own start in the team (usually: parallel regions too short "
			     "for the cost of waking their team, threads asleep under a passive wait policy, or more "
			     "threads than cores)" :
			     "no region of the trace: the OpenMP runtime's work of starting a team's threads, from "
			     "the fork to each thread's own start in the team";
	if (!strncmp(an_rank_region(k, i)->name, LS_NO_GPU_WORK_PREFIX, sizeof(LS_NO_GPU_WORK_PREFIX) - 1))
		return why ? "a call's own time, none of its GPU work in the trace (begun before the profiler's "
			     "window, or lost from its buffers)" :
			     "a call's own time, none of its GPU work in the trace";
	return NULL;
}

/* One row in words. */
static int row(struct words *w, const struct an_rating *v)
{
	const struct an_rank_region *r = an_rank_region(w->k, v->region);
	struct an_fact *f;
	struct group *g;
	const char *said;
	uint32_t n, ng;
	int rc;

	text(w, w->names[v->region]);
	if (!r->cp) {
		printf(": not on the critical path.");
	} else {
		printf(": %.2f %% of the critical path (%.6f s)", 100 * v->cp_share, tool_secs(r->cp));
		if ((rc = path(w, v->region, r->cp)) < 0)
			return rc;
		printf(".");
	}
	if (an_facts_of(&an_rank_waiters(w->k)->blame, v->region, &f, &n) < 0)
		return LS_ERR_NOMEM;
	if (!(g = malloc(((size_t)n + 1) * sizeof(*g)))) {
		free(f);
		return LS_ERR_NOMEM;
	}
	if (!r->blame) {
		printf(" No wait state was blamed on it.");
	} else {
		printf(" %.6f s of blame (%.2f %% of all)", tool_secs(r->blame), 100 * v->blame_share);
		waiters(w, g, group(f, n, false, g));
		printf(".");
	}
	if (r->idle && (ng = group(f, n, true, g)))
		idle(w, r, g, ng);
	if ((said = rating_made_up(w->k, v->region, true)))
		printf(" It is %s.", said);
	free(g);
	free(f);
	return 0;
}

/*
 * The path's time in no activity, where it is at least a twentieth of
 * the path: no row holds it, and a reader of the rows alone would miss it.
 */
#define OUTSIDE_TOLD 0.05

static void outside(const struct words *w)
{
	const struct an_rank_totals *t = an_rank_totals(w->k);
	const struct {
		uint64_t ns;
		const char *where, *why;
	} parts[] = {
		{ t->cp_host_outside, "in host code in no region of the trace",
		  "code between the calls and ranges it records, which no row above holds; an NVTX range or a user "
		  "region around it would name it" },
		{ t->cp_gpu_between, "on GPU streams between their activities",
		  "the GPU waiting for work (launch latency, or work given late), which no row above holds" },
	};

	for (size_t i = 0; i < sizeof(parts) / sizeof(*parts); i++)
		if (t->cp && (double)parts[i].ns >= OUTSIDE_TOLD * (double)t->cp)
			printf("%s%.6f s of the critical path (%.2f %%) is %s: %s.%s", w->html ? "<p>" : "",
			       tool_secs(parts[i].ns), 100.0 * (double)parts[i].ns / (double)t->cp, parts[i].where,
			       parts[i].why, w->html ? "</p>\n" : "\n");
}

/* What the patterns named mean, and what usually causes them. */
static void explain(const struct words *w)
{
	fputs(w->html ? "<dl class=\"patterns\">\n" : "\nThe patterns:\n", stdout);
	for (int p = 0; p < LS_P__COUNT; p++) {
		const struct pattern_words *x = pattern_words(p);

		if (!w->named[p])
			continue;
		if (w->html)
			printf("<dt id=\"pattern-%s\">%s</dt><dd>%s. Usually: %s.</dd>\n", ls_pattern_name(p),
			       ls_pattern_name(p), x->means, x->cause);
		else
			printf("  %s: %s. Usually: %s.\n", ls_pattern_name(p), x->means, x->cause);
	}
	if (w->html)
		printf("</dl>\n");
}

int rating_words(const struct an_rank *k, const struct an_rating *v, uint32_t n, bool html)
{
	struct words w = { k, an_rank_defs(k), NULL, html, { false } };
	int rc = 0;

	if (n > RATING_WORDS_ROWS)
		n = RATING_WORDS_ROWS;
	if (!n || !an_rank_waiters(k))	/* nothing to tell, or its facts not kept */
		return 0;
	if (readable_regions(k, 0, &w.names) < 0)
		return LS_ERR_NOMEM;
	fputs(html ? "<section id=\"words\"><h2>In words</h2>\n<ol>\n" : "In words:\n", stdout);
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		if (html)
			fputs("<li>", stdout);
		else
			printf("%2u. ", i + 1);
		rc = row(&w, &v[i]);
		fputs(html ? "</li>\n" : "\n", stdout);
	}
	if (rc == 0) {
		fputs(html ? "</ol>\n" : "", stdout);
		outside(&w);
		explain(&w);
		fputs(html ? "</section>\n" : "", stdout);
	}
	readable_free(w.names, w.d->nregions);
	return rc;
}
