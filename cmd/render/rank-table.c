/* The rating as a text table, CSV or NDJSON. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rank-table.h"
#include "rating-words.h"
#include "readable.h"
#include "../common/tool.h"

/* Region r's blame of pattern p, or (under) its idle blame while waiting in p. */
static uint64_t by(const struct an_rank_region *r, bool under, int p)
{
	return under ? r->idle_by[p] : r->by[p];
}

/* The patterns with blame (under: with idle blame on their waits), for -e columns. */
static uint32_t blamed_patterns(const struct an_rank *k, bool under, enum ls_pattern *out)
{
	uint32_t n = 0;

	for (int p = 0; p < LS_P__COUNT; p++) {
		uint64_t sum = 0;

		for (uint32_t i = 0; i < an_rank_defs(k)->nregions; i++)
			sum |= by(an_rank_region(k, i), under, p);
		if (sum)
			out[n++] = (enum ls_pattern)p;
	}
	return n;
}

/* The -e columns: np blame patterns, then ni idle-under-wait patterns. */
struct columns {
	enum ls_pattern pat[LS_P__COUNT], under[LS_P__COUNT];
	uint32_t np, ni;
};

static void columns(const struct an_rank *k, const struct rank_opts *o, struct columns *c)
{
	c->np = o->by_pattern ? blamed_patterns(k, false, c->pat) : 0;
	c->ni = o->by_pattern ? blamed_patterns(k, true, c->under) : 0;
}

/* Column j's heading in the text table: the pattern, or idle@ the wait's. */
static const char *column_name(const struct columns *c, uint32_t j, char *buf, size_t n)
{
	if (j < c->np)
		snprintf(buf, n, "%s", ls_pattern_name(c->pat[j]));
	else
		snprintf(buf, n, "idle@%s", ls_pattern_name(c->under[j - c->np]));
	return buf;
}

/* Process index i's name (or "process ID"), at most n bytes of it. */
static void process_name(const struct an_rank *k, uint32_t i, int n)
{
	const struct ls_process *p = &an_rank_defs(k)->procs[i];

	if (p->name)
		printf("%.*s", n, p->name);
	else
		printf("process %" PRIu64, p->id);
}

/* The pattern summary's rows: the wait states, then the idle periods apart. */
static void pattern_table(const struct an_rank *k)
{
	for (int idle = 0; idle < 2; idle++) {
		bool any = !idle;	/* the wait states' heading is there in any case */

		if (!idle)
			printf("\n%-24s %8s %16s %16s %16s  %s\n", "pattern", "count", "time [s]", "min/proc [s]",
			       "max/proc [s]", "most");
		for (int p = 0; p < LS_P__COUNT; p++) {
			uint64_t min, max;
			uint32_t most;

			if (!an_rank_totals(k)->wait_count[p] || ls_pattern_idle(p) != idle)
				continue;
			if (!any)
				printf("\n%-24s %8s %16s %16s %16s  %s\n", "idle (not waiting)", "count", "time [s]",
				       "min/proc [s]", "max/proc [s]", "most");
			any = true;
			an_rank_wait_range(k, p, &min, &max, &most);
			printf("%-24s %8" PRIu64 " %16.9f %16.9f %16.9f  ", ls_pattern_name(p),
			       an_rank_totals(k)->wait_count[p], tool_secs(an_rank_totals(k)->wait_ns[p]), tool_secs(min),
			       tool_secs(max));
			process_name(k, most, 40);
			putchar('\n');
		}
	}
}

/* The GPUs' summary: what ran on them, overlap, start-up delay, early and late synchronizations. */
static void gpu_table(const struct an_rank *k, uint64_t run)
{
	const struct an_rank_totals *t = an_rank_totals(k);
	struct an_gpu_usage sum;
	uint32_t procs = an_rank_gpu_total(k, &sum);

	if (!procs)
		return;
	printf("\n%-36s %8s %16s  %s\n", "GPU (of the processes that used one)", "count", "time [s]", "");
	printf("%-36s %8s %16.9f  %.2f%% of the run, per process\n", "busy (kernels or copies)", "",
	       tool_secs(sum.busy), run ? 100.0 * (double)sum.busy / ((double)run * procs) : 0);
	printf("%-36s %8" PRIu64 " %16.9f\n", "kernels", sum.kernels, tool_secs(sum.kernel));
	printf("%-36s %8" PRIu64 " %16.9f\n", "copies and sets", sum.copies, tool_secs(sum.copy));
	printf("%-36s %8s %16.9f  %.2f%% of the copy time%s\n", "copies beside kernels", "",
	       tool_secs(sum.copy_kernel), sum.copy ? 100.0 * (double)sum.copy_kernel / (double)sum.copy : 0,
	       sum.copies && sum.kernels && !sum.copy_kernel ? ": transfers never overlap compute" : "");
	printf("%-36s %8s %16.9f\n", "kernels beside kernels", "", tool_secs(sum.kernel_kernel));
	printf("%-36s %8" PRIu64 " %16.9f  %.6f ms per kernel so started\n", "kernel start-up on an idle GPU",
	       sum.startups, tool_secs(sum.startup), sum.startups ? (double)sum.startup / 1e6 / (double)sum.startups : 0);
	printf("%-36s %8" PRIu64 " %16.9f\n", "early synchronization (blame_kernel)",
	       t->wait_count[LS_P_BLAME_KERNEL], tool_secs(t->wait_ns[LS_P_BLAME_KERNEL]));
	printf("%-36s %8" PRIu64 " %16.9f\n", "late synchronization (blame_sync)",
	       t->wait_count[LS_P_BLAME_SYNC], tool_secs(t->wait_ns[LS_P_BLAME_SYNC]));
}

static uint64_t runtime(const struct an_rank *k)
{
	return an_rank_totals(k)->events ? (uint64_t)(an_rank_totals(k)->end - an_rank_totals(k)->first) : 0;
}

/*
 * The width of the table's column of region names, as readable_regions
 * shows them (a C++ name by its qualified name, a longer one by its start
 * and its end), so that the columns after it stay in place (the whole
 * name: --csv, --json).
 */
#define NAME_COLUMN 40

/*
 * The rated regions' totals on the host and on GPUs apart (CASITA's "on
 * host", "on device"): all of them, not only the rows shown.
 */
/*
 * The path's time in no activity, where it has any: the rows and these
 * add up to the whole path (no blame falls there: blame is an activity's).
 */
static void outside_line(const struct an_rank *k, const char *what, uint64_t cp)
{
	uint64_t all = an_rank_totals(k)->cp;

	if (cp)
		printf("%4s  %-*s %10s %14s %14.9f %6.2f%%\n", "", NAME_COLUMN, what, "", "", tool_secs(cp),
		       all ? 100.0 * (double)cp / (double)all : 0.0);
}

static void host_and_gpu(const struct an_rank *k, const struct an_rating *v, uint32_t all)
{
	for (int gpu = 0; gpu < 2; gpu++) {
		struct an_rank_region sum = { 0 };
		double cp_share = 0, blame_share = 0;
		uint32_t regions = 0;
		char what[48];

		for (uint32_t i = 0; i < all; i++) {
			const struct an_rank_region *r = an_rank_region(k, v[i].region);

			if ((ls_role_group(an_rank_defs(k)->roles[v[i].region]) == LS_G_GPU_WORK) != gpu)
				continue;
			regions++;
			sum.calls += r->calls, sum.excl += r->excl, sum.cp += r->cp;
			sum.blame += r->blame, sum.idle += r->idle, sum.cp_blame += r->cp_blame;
			cp_share += v[i].cp_share, blame_share += v[i].blame_share;
		}
		if (!regions)
			continue;
		snprintf(what, sizeof(what), "all %u regions %s", regions, gpu ? "on GPUs" : "on the host");
		printf("%4s  %-*s %10" PRIu64 " %14.9f %14.9f %6.2f%% %14.9f %6.2f%% %14.9f %14.9f\n", "", NAME_COLUMN,
		       what, sum.calls, tool_secs(sum.excl), tool_secs(sum.cp), 100 * cp_share, tool_secs(sum.blame),
		       100 * blame_share, tool_secs(sum.cp_blame), tool_secs(sum.idle));
	}
	outside_line(k, "host code in no region", an_rank_totals(k)->cp_host_outside);
	outside_line(k, "GPU streams between activities", an_rank_totals(k)->cp_gpu_between);
}

/*
 * Where the run's start-up (MPI_Init) holds most of the path, so the
 * rating is mostly the start-up's: said, with the window of the run
 * after it (tr-read's and tr-analyze's -t, from the latest MPI_Init's end).
 */
static void startup_line(const struct an_rank *k)
{
	const struct an_rank_totals *t = an_rank_totals(k);
	uint64_t cp = 0;

	for (uint32_t i = 0; i < an_rank_defs(k)->nregions; i++)
		if (an_rank_defs(k)->roles[i] == LS_R_MPI_INIT)
			cp += an_rank_region(k, i)->cp;
	if (t->init_end != INT64_MIN && t->cp && 2 * (double)cp > (double)t->cp)
		printf("%4s  start-up: MPI_Init holds %.2f %% of the critical path; the run after it: -t %.9fs:\n",
		       "", 100.0 * (double)cp / (double)t->cp, (double)t->init_end / 1e9);
}

/* How many processes and streams, and the least and most any process waited. */
static void streams_line(const struct an_rank *k)
{
	const struct ls_defs *d = an_rank_defs(k);
	uint32_t hosts = an_rank_streams(k, false), gpus = an_rank_streams(k, true), least = 0, most = 0;
	uint64_t min = 0, max = 0;

	for (uint32_t i = 0; i < d->nprocs; i++) {
		uint64_t w = 0;

		for (int p = 0; p < LS_P__COUNT; p++)
			w += ls_pattern_idle(p) ? 0 : an_rank_process_wait(k, i, p);
		if (i == 0 || w < min)
			min = w, least = i;
		if (w > max)
			max = w, most = i;
	}
	printf("\n%u processes, %u host threads, %u GPU streams", d->nprocs, hosts, gpus);
	if (d->nprocs) {
		printf("; waiting per process from %.9f s (", tool_secs(min));
		process_name(k, least, 40);
		printf(") to %.9f s (", tool_secs(max));
		process_name(k, most, 40);
		printf(")");
	}
	putchar('\n');
}

static int text(const char *input, const struct an_rank *k, const struct an_rating *v,
		uint32_t n, uint32_t all, const struct rank_opts *o)
{
	struct columns c;
	char head[2 * LS_P__COUNT][48];
	char **shown;

	if (readable_regions(k, NAME_COLUMN, &shown) < 0)
		return LS_ERR_NOMEM;
	columns(k, o, &c);
	printf("%s: run %.9f s, critical path %.9f s, waiting %.9f s, blame %.9f s (%.9f s on the path), "
	       "GPU idle %.9f s%s\n", input, tool_secs(runtime(k)), tool_secs(an_rank_totals(k)->cp),
	       tool_secs(an_rank_totals(k)->waiting), tool_secs(an_rank_totals(k)->blame),
	       tool_secs(an_rank_totals(k)->cp_blame), tool_secs(an_rank_totals(k)->idle_time),
	       o->idle ? " (rated as blame)" : "");
	printf("%4s  %-*s %10s %14s %14s %7s %14s %7s %14s %14s %7s", "rank", NAME_COLUMN, "region", "calls",
	       "excl [s]", "cp [s]", "cp %", "blame [s]", "blame %", "on path [s]", "idle [s]", "rating");
	for (uint32_t j = 0; j < c.np + c.ni; j++)
		printf(" %14s", column_name(&c, j, head[j], sizeof(head[j])));
	putchar('\n');
	for (uint32_t i = 0; i < n; i++) {
		const struct an_rank_region *r = an_rank_region(k, v[i].region);

		printf("%4u  ", i + 1);
		readable_print(shown[v[i].region], NAME_COLUMN);
		printf(" %10" PRIu64 " %14.9f %14.9f %6.2f%% %14.9f %6.2f%% %14.9f %14.9f %7.4f",
		       r->calls, tool_secs(r->excl), tool_secs(r->cp),
		       100 * v[i].cp_share, tool_secs(r->blame), 100 * v[i].blame_share,
		       tool_secs(r->cp_blame), tool_secs(r->idle), v[i].rating);
		for (uint32_t j = 0; j < c.np + c.ni; j++)
			printf(" %*.9f", (int)(strlen(head[j]) > 14 ? strlen(head[j]) : 14),
			       tool_secs(j < c.np ? r->by[c.pat[j]] : r->idle_by[c.under[j - c.np]]));
		putchar('\n');
	}
	readable_free(shown, an_rank_defs(k)->nregions);
	host_and_gpu(k, v, all);
	for (uint32_t i = 0; i < n; i++) {	/* what the regions the tools made up measure */
		const char *said = rating_made_up(k, v[i].region, false);

		if (said)
			printf("%4s  %s: %s\n", "", an_rank_region(k, v[i].region)->name, said);
	}
	startup_line(k);
	streams_line(k);
	pattern_table(k);
	gpu_table(k, runtime(k));
	return 0;
}

/* An "outside" row: the path's time in no activity (outside_line's), its cp_ns and cp_share. */
static void csv_outside(const struct an_rank *k, const struct columns *c, const char *what, uint64_t cp)
{
	uint64_t all = an_rank_totals(k)->cp;

	if (!cp)
		return;
	printf("outside,%s,,,,%" PRIu64 ",%.6f,,,,,,,", what, cp, all ? (double)cp / (double)all : 0.0);
	for (uint32_t j = 0; j < c->np + c->ni; j++)
		putchar(',');
	printf(",,,,,,\n");
}

static void csv(const struct an_rank *k, const struct an_rating *v, uint32_t n,
		const struct rank_opts *o)
{
	struct columns c;

	columns(k, o, &c);
	printf("kind,name,region,calls,excl_ns,cp_ns,cp_share,blame_ns,blame_share,cp_blame_ns,idle_ns,"
	       "idle_share,cp_idle_ns,rating");
	for (uint32_t j = 0; j < c.np; j++)
		printf(",blame_%s_ns", ls_pattern_name(c.pat[j]));
	for (uint32_t j = 0; j < c.ni; j++)
		printf(",idle_under_%s_ns", ls_pattern_name(c.under[j]));
	printf(",pattern,count,ns,min_ns,max_ns,most_process\n");
	printf("run,,,,%" PRIu64 ",%" PRIu64 ",,%" PRIu64 ",,%" PRIu64 ",%" PRIu64 ",,%" PRIu64 ",", runtime(k),
	       an_rank_totals(k)->cp, an_rank_totals(k)->blame, an_rank_totals(k)->cp_blame, an_rank_totals(k)->idle,
	       an_rank_totals(k)->cp_idle);
	for (uint32_t j = 0; j < c.np + c.ni; j++)
		putchar(',');
	printf(",,,%" PRIu64 ",,,\n", an_rank_totals(k)->waiting);
	for (uint32_t i = 0; i < n; i++) {
		const struct an_rank_region *r = an_rank_region(k, v[i].region);

		printf("rating,");
		tool_csv_str(r->name);
		printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.6f,%" PRIu64 ",%.6f,%" PRIu64 ",%" PRIu64
		       ",%.6f,%" PRIu64 ",%.6f", an_rank_defs(k)->region_ids[v[i].region], r->calls, r->excl, r->cp,
		       v[i].cp_share, r->blame, v[i].blame_share, r->cp_blame, r->idle, v[i].idle_share, r->cp_idle,
		       v[i].rating);
		for (uint32_t j = 0; j < c.np; j++)
			printf(",%" PRIu64, r->by[c.pat[j]]);
		for (uint32_t j = 0; j < c.ni; j++)
			printf(",%" PRIu64, r->idle_by[c.under[j]]);
		printf(",,,,,,\n");
	}
	csv_outside(k, &c, "host code in no region", an_rank_totals(k)->cp_host_outside);
	csv_outside(k, &c, "GPU streams between activities", an_rank_totals(k)->cp_gpu_between);
	for (int p = 0; p < LS_P__COUNT; p++) {
		uint64_t min, max;
		uint32_t most;

		if (!an_rank_totals(k)->wait_count[p])
			continue;
		an_rank_wait_range(k, p, &min, &max, &most);
		printf("wait_summary,,,,,,,,,,,,,");
		for (uint32_t j = 0; j < c.np + c.ni; j++)
			putchar(',');
		printf(",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
		       ls_pattern_name(p), an_rank_totals(k)->wait_count[p], an_rank_totals(k)->wait_ns[p], min, max,
		       an_rank_defs(k)->procs[most].id);
	}
}

/* Region r's blame per pattern (under: idle blame per wait under it) as map f. */
static void put_by(struct ls_writer *w, enum ls_field f, const struct an_rank_region *r,
		   bool under)
{
	uint32_t n = 0;

	for (int p = 0; p < LS_P__COUNT; p++)
		n += by(r, under, p) != 0;
	ls_put_map(w, f, n);
	for (int p = 0; p < LS_P__COUNT; p++)
		if (by(r, under, p))
			ls_put_entry_u64(w, ls_pattern_name(p), by(r, under, p));
}

/* A gpu_summary record per process whose GPU ran anything. */
static int gpu_records(struct ls_writer *w, const struct an_rank *k)
{
	const struct ls_defs *d = an_rank_defs(k);
	int rc;

	for (uint32_t i = 0; i < d->nprocs; i++) {
		const struct an_gpu_usage *g = an_rank_gpu_usage(k, i);

		if (!g)
			continue;
		ls_build_begin(w, 11 + (d->procs[i].name != NULL));
		ls_put_kind(w, LS_K_GPU_SUMMARY);
		ls_put_u64(w, LS_F_PROCESS, d->procs[i].id);
		if (d->procs[i].name)
			ls_put_str(w, LS_F_NAME, d->procs[i].name);
		ls_put_u64(w, LS_F_BUSY, g->busy);
		ls_put_u64(w, LS_F_KERNELS, g->kernels);
		ls_put_u64(w, LS_F_KERNEL, g->kernel);
		ls_put_u64(w, LS_F_COPIES, g->copies);
		ls_put_u64(w, LS_F_COPY, g->copy);
		ls_put_u64(w, LS_F_COPY_KERNEL, g->copy_kernel);
		ls_put_u64(w, LS_F_KERNEL_KERNEL, g->kernel_kernel);
		ls_put_u64(w, LS_F_STARTUPS, g->startups);
		ls_put_u64(w, LS_F_STARTUP, g->startup);
		if ((rc = ls_build_end(w)) < 0)
			return rc;
	}
	return 0;
}

static int json(struct ls_writer *w, const struct an_rank *k, const struct an_rating *v,
		uint32_t n, const struct rank_opts *o)
{
	int rc;

	if ((rc = ls_write_header(w, "tr-rank " TR_VERSION, NULL, tool_stage())) < 0)
		return rc;
	ls_build_begin(w, 12);
	ls_put_kind(w, LS_K_RUN_SUMMARY);
	ls_put_u64(w, LS_F_RUNTIME, runtime(k));
	ls_put_u64(w, LS_F_CP, an_rank_totals(k)->cp);
	ls_put_u64(w, LS_F_BLAME, an_rank_totals(k)->blame);
	ls_put_u64(w, LS_F_CP_BLAME, an_rank_totals(k)->cp_blame);
	ls_put_u64(w, LS_F_WAITING, an_rank_totals(k)->waiting);
	ls_put_u64(w, LS_F_IDLE, an_rank_totals(k)->idle_time);
	ls_put_u64(w, LS_F_CP_HOST_OUTSIDE, an_rank_totals(k)->cp_host_outside);
	ls_put_u64(w, LS_F_CP_GPU_BETWEEN, an_rank_totals(k)->cp_gpu_between);
	ls_put_u64(w, LS_F_PROCESSES, an_rank_defs(k)->nprocs);
	ls_put_u64(w, LS_F_HOST_THREADS, an_rank_streams(k, false));
	ls_put_u64(w, LS_F_GPU_STREAMS, an_rank_streams(k, true));
	if ((rc = ls_build_end(w)) < 0)
		return rc;
	for (uint32_t i = 0; i < n; i++) {
		const struct an_rank_region *r = an_rank_region(k, v[i].region);

		ls_build_begin(w, 14 + (o->by_pattern ? 2 : 0));
		ls_put_kind(w, LS_K_RATING);
		ls_put_u64(w, LS_F_REGION, an_rank_defs(k)->region_ids[v[i].region]);
		ls_put_str(w, LS_F_NAME, r->name);
		ls_put_u64(w, LS_F_CALLS, r->calls);
		ls_put_u64(w, LS_F_EXCL, r->excl);
		ls_put_u64(w, LS_F_CP, r->cp);
		ls_put_f64(w, LS_F_CP_SHARE, v[i].cp_share);
		ls_put_u64(w, LS_F_BLAME, r->blame);
		ls_put_f64(w, LS_F_BLAME_SHARE, v[i].blame_share);
		ls_put_u64(w, LS_F_CP_BLAME, r->cp_blame);
		ls_put_u64(w, LS_F_IDLE, r->idle);
		ls_put_f64(w, LS_F_IDLE_SHARE, v[i].idle_share);
		ls_put_u64(w, LS_F_CP_IDLE, r->cp_idle);
		ls_put_f64(w, LS_F_RATING, v[i].rating);
		if (o->by_pattern) {
			put_by(w, LS_F_BLAME_BY, r, false);
			put_by(w, LS_F_IDLE_BY, r, true);
		}
		if ((rc = ls_build_end(w)) < 0)
			return rc;
	}
	for (int p = 0; p < LS_P__COUNT; p++) {
		uint64_t min, max;
		uint32_t most;

		if (!an_rank_totals(k)->wait_count[p])
			continue;
		an_rank_wait_range(k, p, &min, &max, &most);
		ls_build_begin(w, 7);
		ls_put_kind(w, LS_K_WAIT_SUMMARY);
		ls_put_pattern(w, p);
		ls_put_u64(w, LS_F_COUNT, an_rank_totals(k)->wait_count[p]);
		ls_put_u64(w, LS_F_NS, an_rank_totals(k)->wait_ns[p]);
		ls_put_u64(w, LS_F_MIN, min);
		ls_put_u64(w, LS_F_MAX, max);
		ls_put_u64(w, LS_F_MOST, an_rank_defs(k)->procs[most].id);
		if ((rc = ls_build_end(w)) < 0)
			return rc;
	}
	return (rc = gpu_records(w, k)) < 0 ? rc : ls_write_trailer(w);
}

int rank_print(const char *input, const struct an_rank *k, const struct rank_opts *o,
	       struct ls_writer *w)
{
	struct an_rating *v;
	uint32_t n, all;
	int rc = 0;

	if (an_rank_rate(k, o->idle, &v, &all) < 0)
		return LS_ERR_NOMEM;
	n = o->top && all > o->top ? o->top : all;
	if (o->form == RANK_TEXT) {
		rc = text(input, k, v, n, all, o);
		if (rc == 0 && o->words) {
			printf("\n");
			rc = rating_words(k, v, n, false);
		}
	}
	else if (o->form == RANK_CSV)
		csv(k, v, n, o);
	else
		rc = json(w, k, v, n, o);
	free(v);
	return rc;
}

int rank_rows_arg(const char *arg, struct rank_opts *o)
{
	unsigned long top;
	char *end;

	errno = 0;
	top = strtoul(arg, &end, 10);
	if (!*arg || *end || *arg == '-' || errno || top > UINT32_MAX) {
		tool_error("-n %s: give a number of rows (0: all)", arg);
		return 2;
	}
	o->top = (uint32_t)top;
	return 0;
}

int rank_form_arg(enum rank_form f, struct rank_opts *o)
{
	if (o->form != RANK_TEXT && o->form != f) {
		tool_error("--csv and --json exclude each other");
		return 2;
	}
	o->form = f;
	return 0;
}
