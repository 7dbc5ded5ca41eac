/*
 * tr-analyze: the whole analysis of a trace in one process, read, tr-deps,
 * tr-waits, tr-critpath and tr-rank, the stages on threads of their own
 * with the records handed on in memory (chain.h); the rating as tr-rank
 * prints it, and on request the analysed stream as the filters write it.
 */
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <sys/stat.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../analysis/clock.h"
#include "../analysis/critpath.h"
#include "../analysis/floors.h"
#include "../analysis/project.h"
#include "../analysis/rank.h"
#include "../formats/readers.h"
#include "../libstream/error.h"
#include "../libstream/tmpfile.h"
#include "output/apart.h"
#include "output/archive.h"
#include "run/chain.h"
#include "fan/fan.h"
#include "run/maxmem.h"
#include "run/stage.h"
#include "output/otf2-write.h"
#include "common/cputime.h"
#include "common/progress.h"
#include "render/rank-table.h"
#include "common/selection.h"
#include "common/stage-options.h"
#include "output/stream-file.h"
#include "common/tool.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-analyze [-efhqv] [-j N] [-n N] [--csv | --json] [--end WHERE] [--idle] "
		"[--latency TYPE=NS] [--min FILE] [--mpi] [--no-clock] [-o dir/name] [--scale PATTERN=FACTOR] "
		"[--set PATTERN=DURATION] [--stream file] [--threads N] [-p processes] [-s streams] "
		"[-t begin:end] [--window SECONDS] trace ...\n");
	if (to == stdout)
		tool_help(to,
			  "  --stream FILE            also write the analysed stream to FILE (as tr-read |\n"
			  "                           tr-deps | tr-clock | tr-waits | tr-critpath would)\n"
			  "  -o, --output DIR/NAME    also write the analysed run as an OTF2 archive (as tr-otf2)\n"
			  "  -f, --force              replace the --stream file (only a record stream) and\n"
			  "                           the archive (only an archive)\n"
			  "  --threads N              threads for the stages (1 to 64; default: the cores it may use)\n"
			  "  --mpi                    under mpirun -n P: each rank reads a shard of the\n"
			  "                           processes, rank 0 merges and analyses (OTF2)\n"
			  "  -j N                     threads for the critical path's pieces (1 to 64)\n"
			  "  --no-clock               leave tr-clock out of the chain\n"
			  "  --window SECONDS         tr-clock's and tr-project's: hold events this long (0.01)\n"
			  "  --latency TYPE=NS        tr-clock's: least latency of an edge type (0)\n"
			  "  --end WHERE              tr-critpath's: where the path ends (last, region=NAME,\n"
			  "                           stream=NAME, SECONDS after the first event)\n"
			  "  --scale PATTERN=FACTOR   tr-project's, run after tr-clock: a what-if, regions'\n"
			  "                           own time times FACTOR; repeat for several\n"
			  "  --set PATTERN=DURATION   tr-project's: each activity's own time set\n"
			  "  --min FILE               tr-project's: floors of API calls, a line each: NS NAME\n"
			  "  -n N                     rows (20; 0: all)\n"
			  "  -e                       blame and idle blame per pattern\n"
			  "  -v                       the first rows also in words, as tr-rank -v\n"
			  "  --csv, --json            the rating as CSV or NDJSON records instead of the table\n"
			  "  --idle                   rate GPU idle blame as blame\n"
			  "  -p, --processes LIST     only these processes' events (ids and ranges: 0-3,7)\n"
			  "  -s, --streams LIST       only these streams' events\n"
			  "  -t, --time BEGIN:END     only events in this window (ns, us, ms, s since the start)\n"
			  "  -q, --quiet              no progress line (drawn where stderr is a terminal)\n", false);
}

/* Options of its own, beside the short ones. */
enum { OPT_CSV = 256, OPT_JSON, OPT_IDLE, OPT_STREAM, OPT_THREADS, OPT_MPI, OPT_NO_CLOCK, OPT_WINDOW,
       OPT_LATENCY, OPT_END, OPT_SCALE, OPT_SET, OPT_MIN };

/* Arguments as each filter of the equivalent pipeline would have had them. */
#define MAX_ARGS 16

struct args {
	char *read[MAX_ARGS];	/* tr-read's: -p, -s, -t as given */
	int nread;
	char *clock[MAX_ARGS];	/* tr-clock's: --window, --latency as given */
	int nclock;
	char *project[MAX_ARGS];	/* tr-project's: --scale, --set, --min as given */
	int nproject;
	char *crit[4];		/* tr-critpath's: -j N, --end WHERE where given */
	int ncrit;
};

struct options {
	struct rank_opts rank;
	struct ls_front_options select;
	const char *stream, *output;
	bool force, quiet, mpi, no_clock;
	bool projecting;	/* --scale, --set or --min: tr-project in the chain */
	bool latency_given;
	unsigned jobs, threads;
	struct an_clock_options clock;
	struct an_crit_end end;
	struct stage_project_args project;	/* --scale, --set, --min: tr-project after tr-clock */
	struct an_floors floors;	/* tr-project's, from what the stages before it write */
	int64_t run_before, run_after;	/* where projecting: the run time, ns, before and after */
	struct args args;
};

/*
 * What takes the analysed records: the rating; the stream, to the
 * --stream file or for -o alone a staged one; the archive's first pass.
 */
struct taker {
	struct an_rank *rank;
	struct stream_file file;
	bool writing;		/* file is open */
	struct archive archive;
	bool archiving;		/* archive is prepared */
	struct otf2out *otf2;	/* where -o */
	const char *output;	/* -o's DIR/NAME */
};

static int take(void *ctx, struct an_item *it, const char **why)
{
	const struct ls_record *rec;
	struct taker *t = ctx;
	int rc;

	if (t->writing && (rc = ls_write_raw(&t->file.w, it->raw, it->len)) < 0) {
		tool_error("%s: %s", t->file.path, rc == LS_ERR_IO ? strerror(t->file.w.err) : "out of memory");
		return LS_ERR_IO;
	}
	if (t->otf2 && ((rc = an_item_need(it, &rec, why)) < 0 || otf2out_take(t->otf2, rec) < 0)) {
		tool_error("%s: %s", t->output, otf2out_error(t->otf2));
		return LS_ERR_IO;
	}
	return an_rank_take(t->rank, it, why);
}

/* The cores this process may run on (taskset, cgroups' cpusets). */
static unsigned cores(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	return 1;
}

static void show_progress(void *progress, uint64_t offered, uint64_t done, uint64_t total)
{
	progress_show(progress, offered, done, total);
}

/*
 * Read traces[0..n) (under --mpi, the shards' streams fanned in) into
 * chain c. Returns 0, or 1 after a message (a stage's or the reader's).
 */
static int read_trace(struct chain *c, char *const *traces, int n, const struct ls_stage *reading,
		      struct options *o, struct fan *fan)
{
	struct ls_front_report report;
	const struct reader *reader;
	struct ls_front front;
	struct progress progress;
	char err[512];
	int status = 0, rc;

	ls_front_init(&front, chain_input(c), &o->select, &report);
	chain_reads_front(c, &front);
	progress_start(&progress, "tr-analyze", "events", o->quiet || fan);
	ls_front_on_progress(&front, show_progress, &progress);
	if (fan) {
		memset(&report, 0, sizeof(report));
		if ((rc = fan->ops->merge(fan, chain_input(c), &report)) == 1)
			snprintf(err, sizeof(err), "%s", fan->err);
		rc = rc ? -1 : 0;
	} else if (!(reader = readers_for((const char *const *)traces, n, err, sizeof(err)))) {
		rc = -1;
	} else {
		rc = readers_read(reader, (const char *const *)traces, n, reading, &front, chain_input(c), err,
				  sizeof(err));
	}
	progress_end(&progress);
	if (rc < 0 && !chain_failed(c))
		tool_error("%s: %s", traces[0], err);
	if (chain_end(c, rc == 0) != 0 || rc < 0)
		status = 1;
	if (!status)
		status = selection_check(traces[0], &o->select, &report);
	ls_front_release(&front);
	selection_report(traces[0], &report);
	/* the shards ran tr-deps: what it found odd, added up, where the chain's stages would say theirs */
	if (fan && !status)
		stage_report_counts(traces[0], fan->odd, fan->nodd);
	return status;
}

/*
 * The stream of the stages before tr-project, kept in an unlinked
 * temporary file for the stages from tr-project on, and the floors
 * tr-project holds API calls at, taken as it passes.
 */
struct kept {
	struct an_floors_pass *floors;
	struct ls_writer w;
	int fd;
};

static int keep_record(void *ctx, struct an_item *it, const char **why)
{
	const struct ls_record *rec;
	struct kept *k = ctx;
	int rc;

	if ((rc = an_item_need(it, &rec, why)) < 0 || (rc = an_floors_pass_take(k->floors, rec)) < 0)
		return rc;
	if ((rc = ls_write_record(&k->w, rec)) < 0) {
		tool_error("cannot keep the stream for tr-project in a temporary file in %s: %s", ls_tmp_named(),
			   strerror(k->w.err));
		return LS_ERR_IO;
	}
	return 0;
}

/* Kept stream k into chain c, from its start. Returns 0, or 1 after a message. */
static int read_kept(struct chain *c, struct kept *k, const char *input)
{
	struct ls_reader r;
	struct ls_record rec;
	int rc = 0;

	if (ls_write_trailer(&k->w) < 0 || ls_writer_flush(&k->w) < 0) {
		tool_error("cannot keep the stream for tr-project in a temporary file in %s: %s", ls_tmp_named(),
			   strerror(k->w.err));
		return chain_end(c, false) | 1;
	}
	if (lseek(k->fd, 0, SEEK_SET) < 0) {
		tool_error("%s: the stream kept for tr-project: %s", input, strerror(errno));
		return chain_end(c, false) | 1;
	}
	rc = ls_reader_open_fd(&r, k->fd, input);
	k->fd = -1;	/* the reader's now */
	if (rc < 0) {
		tool_error("%s: the stream kept for tr-project: %s", input, r.err);
		return chain_end(c, false) | 1;
	}
	ls_reader_skim(&r, ~UINT64_C(0));	/* framed only: the chain parses what it is given */
	while (rc == 0 && (rc = ls_read(&r, &rec)) > 0)
		rc = ls_write_record(chain_input(c), &rec) < 0 ? -1 : 0;
	if (rc < 0 && !chain_failed(c))
		tool_error("%s: the stream kept for tr-project: %s", input, r.err);
	ls_reader_release(&r);
	return chain_end(c, rc == 0) | (rc < 0);
}

/*
 * The stages of links[0..p) (those before tr-project) over the trace into
 * a kept stream and tr-project's floors in o's options; the chain from
 * there is read_kept's. Returns 0, or 1 after a message.
 */
static int keep_for_project(char *const *traces, int n, const struct chain_link *links, int p,
			    const struct ls_stage *reading, struct options *o, struct fan *fan, struct kept *k)
{
	struct chain *c;
	int status, rc;

	if ((k->fd = ls_tmp_fd("project")) < 0) {
		tool_error("cannot make a temporary file in %s to keep the stream for tr-project: %s",
			   ls_tmp_named(), strerror(errno));
		return 1;
	}
	ls_writer_init(&k->w, k->fd, LS_FMT_MSGPACK);
	if (!(k->floors = an_floors_pass_new(&o->floors, o->project.o.window ? o->project.o.window :
							  AN_PROJECT_WINDOW))) {
		tool_error("out of memory");
		return 1;
	}
	if (!(c = chain_new(links, p, traces[0], o->threads ? o->threads : cores(), o->jobs, keep_record,
			    ~UINT64_C(0), false, true, k)))
		return 1;
	status = read_trace(c, traces, n, reading, o, fan);
	for (int i = 0; i < p && !status; i++)
		stage_report(traces[0], links[i].def, chain_stage(c, i));
	chain_free(c);
	rc = an_floors_pass_end(k->floors);
	k->floors = NULL;
	if (rc < 0 && !status) {
		tool_error("out of memory");
		status = 1;
	}
	o->project.o.floors = &o->floors;
	return status;
}

/*
 * The chain of links[0..n) over traces[0..n) into t: at once, or where
 * tr-project is among them, the stages before it first, the rest over
 * what they wrote. Returns 0, or the exit status after a message.
 */
static int analyze(char *const *traces, int n, const struct chain_link *links, int nlinks,
		   const struct ls_stage *reading, struct options *o, struct taker *t, struct fan *fan)
{
	struct kept kept = { .floors = NULL, .fd = -1 };
	struct chain *c;
	int p = 0, status = 0;

	while (p < nlinks && links[p].def != &an_stage_project)
		p++;
	if (p < nlinks && (status = keep_for_project(traces, n, links, p, reading, o, fan, &kept)))
		goto out;
	if (p == nlinks)
		p = 0;
	if (!(c = chain_new(links + p, nlinks - p, traces[0], o->threads ? o->threads : cores(), o->jobs,
			    take, t->otf2 ? ~UINT64_C(0) : an_rank_reads(), t->otf2 != NULL, t->writing || t->otf2,
			    t))) {
		status = 1;
		goto out;
	}
	status = kept.fd >= 0 ? read_kept(c, &kept, traces[0]) : read_trace(c, traces, n, reading, o, fan);
	for (int i = p; i < nlinks && !status; i++)
		stage_report(traces[0], links[i].def, chain_stage(c, i - p));
	if (p < nlinks && links[p].def == &an_stage_project && !status) {	/* the what-if's line before the rating */
		struct an_project_stats st = an_project_stats(chain_stage(c, 0));

		o->run_before = st.before;
		o->run_after = st.after;
	}
	chain_free(c);
out:
	if (kept.floors)
		an_floors_pass_end(kept.floors);
	ls_writer_release(&kept.w);
	if (kept.fd >= 0)
		close(kept.fd);
	return status;
}

static bool link_for(const struct an_stage *def, struct options *o, struct chain_link *l);

/* A shard's stream, with what its tr-deps wrote, on its way to rank 0. */
static int to_rank0(void *ctx, struct an_item *it, const char **why)
{
	(void)why;
	return ls_write_raw(ctx, it->raw, it->len);
}

/*
 * Under --mpi: read this rank's shard of traces[0..n), run tr-deps on it
 * (the other shards' facts taken, its own sent) and send what it wrote to
 * rank 0, failures included (said by rank 0). Returns 0, or 1 where MPI failed.
 */
static int read_shard(char *const *traces, int n, const struct ls_stage *reading, struct options *o,
		      struct fan *fan)
{
	struct ls_front_report report;
	const struct reader *reader;
	struct an_count odd[AN_COUNTS_MAX];
	struct chain_link deps;
	struct ls_front front;
	struct chain *c;
	struct ls_writer w;
	char err[512] = "", said[512];
	uint64_t events = 0;
	size_t nodd = 0;
	int rc = -1;

	fan->ops->shard(fan, &o->select);
	link_for(&an_stage_deps, o, &deps);
	deps.opts = fan->ops->writer(fan, &w);
	memset(&report, 0, sizeof(report));
	tool_error_keep(said, sizeof(said));
	if ((c = chain_new(&deps, 1, "its shard's stream", 1, o->jobs, to_rank0, 0, false, true, &w))) {
		ls_front_init(&front, chain_input(c), &o->select, &report);
		chain_reads_front(c, &front);
		if (!(reader = readers_for((const char *const *)traces, n, err, sizeof(err))))
			rc = -1;
		else if (!reader->shards)
			rc = -1, snprintf(err, sizeof(err), "--mpi reads OTF2 archives (libotf2 opens a shard's "
					  "locations alone); give %s to one process", reader->name);
		else
			rc = readers_read(reader, (const char *const *)traces, n, reading, &front, chain_input(c),
					  err, sizeof(err));
		if (chain_end(c, rc == 0) != 0)
			rc = -1;
		nodd = deps.def->odd(chain_stage(c, 0), odd);
		for (int k = 0; k < LS_K__COUNT; k++)
			events += ls_kind_spec((enum ls_kind)k)->cls == LS_C_EVENT ? report.kinds[k] : 0;
		ls_front_release(&front);
		chain_free(c);
	}
	tool_error_keep(NULL, 0);
	if (rc < 0 && !err[0])
		snprintf(err, sizeof(err), "%s", said[0] ? said : w.err ? "cannot send to rank 0" : "out of memory");
	rc = fan->ops->end(fan, &w, rc < 0, err, &report, odd, nodd, events);
	ls_writer_release(&w);
	return rc;
}

/* Rank 0's own shard, read on a thread of the MPI library's (fan_ops.start). */
struct local_shard {
	char *const *traces;
	int n;
	struct ls_stage reading;
	struct options o;	/* a copy: the shard's selection is its own */
	struct fan *fan;
};

static int read_local_shard(void *arg)
{
	struct local_shard *l = arg;

	return read_shard(l->traces, l->n, &l->reading, &l->o, l->fan);
}

static void release(char **args, int n)
{
	for (int i = 0; i < n; i++)
		free(args[i]);
}

/* Option flag (its argument arg) onto a filter's arguments v[*n], which hold at most max. */
static int keep_in(char **v, int *n, int max, const char *flag, const char *arg)
{
	if (*n + 2 > max)
		return -1;
	v[(*n)++] = strdup(flag);
	v[(*n)++] = strdup(arg);
	return v[*n - 2] && v[*n - 1] ? 0 : -1;
}

/* Keep option flag (its argument arg) for the filter it belongs to. */
static int keep(struct args *a, const char *flag, const char *arg)
{
	if (!strcmp(flag, "-j") || !strcmp(flag, "--end")) {	/* the last of each given */
		for (int i = 0; i + 1 < a->ncrit; i += 2)
			if (!strcmp(a->crit[i], flag)) {
				free(a->crit[i + 1]);
				return (a->crit[i + 1] = strdup(arg)) ? 0 : -1;
			}
		return keep_in(a->crit, &a->ncrit, 4, flag, arg);
	}
	if (!strcmp(flag, "--window") && (keep_in(a->clock, &a->nclock, MAX_ARGS, flag, arg) < 0 ||
					  keep_in(a->project, &a->nproject, MAX_ARGS, flag, arg) < 0))
		return -1;	/* tr-clock's and tr-project's both */
	if (!strcmp(flag, "--window"))
		return 0;
	if (!strcmp(flag, "--latency"))
		return keep_in(a->clock, &a->nclock, MAX_ARGS, flag, arg);
	if (!strcmp(flag, "--scale") || !strcmp(flag, "--set") || !strcmp(flag, "--min"))
		return keep_in(a->project, &a->nproject, MAX_ARGS, flag, arg);
	return keep_in(a->read, &a->nread, MAX_ARGS, flag, arg);
}

/*
 * The --stream file and the -o archive apart from each other, from the
 * traces and from standard output (apart.h): 0, 2 (a misuse) or 1 after
 * a message.
 */
static int outputs_kept_apart(const struct options *o, char *const *traces, int ntraces)
{
	struct output_place outs[2];
	size_t nout = 0;
	char err[512];
	int rc;

	if (o->stream)
		outs[nout++] = (struct output_place){ "--stream", o->stream, false };
	if (o->output)
		outs[nout++] = (struct output_place){ "-o", o->output, true };
	if ((rc = outputs_apart(outs, nout, traces, ntraces, err, sizeof(err))) == 0)
		return 0;
	tool_error("%s", err);
	return rc == -1 ? 2 : 1;
}

/* One option: 0, or the status to exit with (after a message). */
static int option(int ch, const char *arg, struct options *o)
{
	char flag[3] = { '-', (char)ch, 0 };
	const char *name = flag;
	int rc;

	switch (ch) {
	case 'j':
		if (tool_threads_arg("-j", arg, &o->jobs))
			return 2;
		break;
	case OPT_WINDOW:
		if (tool_window_arg("--window", arg, &o->clock.window))
			return 2;
		o->project.o.window = o->clock.window;
		name = "--window";
		break;
	case OPT_LATENCY:
		if (stage_clock_latency(arg, &o->clock))
			return 2;
		o->latency_given = true;
		name = "--latency";
		break;
	case OPT_END:
		if (stage_critpath_end(arg, &o->end))
			return 2;
		name = "--end";
		break;
	case OPT_SCALE:
	case OPT_SET:
		name = ch == OPT_SET ? "--set" : "--scale";
		if ((rc = stage_project_change(name, arg, &o->project)))
			return rc;
		o->projecting = true;
		break;
	case OPT_MIN:
		if ((rc = stage_project_min(arg, &o->project)))
			return rc;
		name = "--min";
		o->projecting = true;
		break;
	case 'n':
		return rank_rows_arg(arg, &o->rank);
	case 'p':
	case 's':
		if (ls_ranges_parse(ch == 'p' ? &o->select.processes : &o->select.streams, arg) < 0) {
			tool_error("-%c %s: not a list of ids and ranges like 0-3,7", ch, arg);
			return 2;
		}
		break;
	case 't':
		if (selection_window(arg, &o->select) < 0) {
			tool_error("-t %s: not a time window like 1.5s:2s, 0:200ms or 1000:", arg);
			return 2;
		}
		break;
	default:
		return 0;
	}
	if (keep(&o->args, name, arg) < 0) {
		tool_error("too many options");
		return 2;
	}
	return 0;
}

static int parse(int argc, char **argv, struct options *o)
{
	uint64_t limit;
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "idle", no_argument, NULL, OPT_IDLE },
		{ "stream", required_argument, NULL, OPT_STREAM },
		{ "threads", required_argument, NULL, OPT_THREADS },
		{ "mpi", no_argument, NULL, OPT_MPI },
		{ "no-clock", no_argument, NULL, OPT_NO_CLOCK },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "latency", required_argument, NULL, OPT_LATENCY },
		{ "end", required_argument, NULL, OPT_END },
		{ "scale", required_argument, NULL, OPT_SCALE },
		{ "set", required_argument, NULL, OPT_SET },
		{ "min", required_argument, NULL, OPT_MIN },
		{ "force", no_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "processes", required_argument, NULL, 'p' },
		{ "streams", required_argument, NULL, 's' },
		{ "time", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		TOOL_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	int ch, rc;

	while ((ch = getopt_long(argc, argv, "efhj:n:o:p:qs:t:v", longopts, NULL)) != -1) {
		tool_help_option(ch, usage);
		switch (ch) {
		case 'v':
			o->rank.words = true;
			break;
		case 'e':
			o->rank.by_pattern = true;
			break;
		case 'f':
			o->force = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case OPT_CSV:
		case OPT_JSON:
			if ((rc = rank_form_arg(ch == OPT_CSV ? RANK_CSV : RANK_JSON, &o->rank)))
				return rc;
			break;
		case OPT_IDLE:
			o->rank.idle = true;
			break;
		case OPT_STREAM:
			o->stream = optarg;
			break;
		case OPT_THREADS:
			if ((rc = tool_threads_arg("--threads", optarg, &o->threads)))
				return rc;
			break;
		case OPT_MPI:
			o->mpi = true;
			break;
		case OPT_NO_CLOCK:
			o->no_clock = true;
			break;
		case OPT_WINDOW:
		case OPT_LATENCY:
		case OPT_END:
		case OPT_SCALE:
		case OPT_SET:
		case OPT_MIN:
		case 'j':
		case 'n':
		case 'p':
		case 's':
		case 't':
			if ((rc = option(ch, optarg, o)))
				return rc;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc || argc - optind > MAX_ARGS - o->args.nread) {
		usage(stderr);
		return 2;
	}
	if (o->no_clock && o->latency_given) {
		tool_error("--latency is tr-clock's: not with --no-clock");
		return 2;
	}
	if (o->no_clock && o->clock.window && !o->projecting) {
		tool_error("--window is tr-clock's and tr-project's: with --no-clock, only with --scale, --set or --min");
		return 2;
	}
	if (o->rank.words && o->rank.form != RANK_TEXT) {
		tool_error("-v tells the rating in words beside its text table: not with --csv or --json");
		return 2;
	}
	if (o->force && !o->stream && !o->output) {
		tool_error("--force replaces the --stream file or the -o archive: give one");
		return 2;
	}
	if (o->stream && strcmp(o->stream, "-") == 0) {
		tool_error("--stream -: standard output takes the rating; give a file (./- for one named -), "
			   "or run the filters to pipe the stream");
		return 2;
	}
	if ((rc = outputs_kept_apart(o, argv + optind, argc - optind)))
		return rc;
	/* a bad TR_MAX_MEM is a misuse, as for every stage: said before any work */
	if (maxmem_limit(&limit) < 0)
		return 2;
	return 0;
}

/* Open what the options ask to be written. Returns 0, or 1 after a message. */
static int open_outputs(const struct options *o, struct taker *t)
{
	char err[512];

	if (o->output) {
		t->archiving = true;
		if (archive_prepare(&t->archive, o->output, o->force, err, sizeof(err)) < 0)
			goto failed;
		if (!(t->otf2 = otf2out_new())) {
			snprintf(err, sizeof(err), "out of memory");
			goto failed;
		}
		t->output = o->output;
	}
	if (o->stream || o->output) {
		/* -o alone: the stream its second pass reads, staged beside the archive */
		if (stream_file_open(&t->file, o->stream ? o->stream : o->output, o->force, o->stream, err,
				     sizeof(err)) < 0)
			goto failed;
		t->writing = true;
	}
	return 0;
failed:
	tool_error("%s", err);
	return 1;
}

/*
 * The analysis done (ok): the stream ended, the archive written from it
 * and put in place, the stream file moved in; else nothing of either left.
 * Returns 0, or 1 after a message.
 */
static int close_outputs(struct taker *t, bool ok, const struct options *o)
{
	struct otf2_reading g = { .size = 0 };
	struct stat st;
	char err[512] = "";
	int status = ok ? 0 : 1;

	if (t->writing && ok && stream_file_end(&t->file, err, sizeof(err)) < 0) {
		tool_error("%s", err);
		status = 1;
	}
	if (t->otf2 && !status) {
		/* its first pass was the analysis: one more to go */
		progress_start(&g.line, "tr-analyze", "records", o->quiet);
		g.pass = 1;
		g.size = stat(t->file.tmp, &st) == 0 ? (uint64_t)st.st_size : 0;
		status = otf2_archive(t->otf2, &t->archive, t->file.tmp, "the analysed stream", t->output,
				      o->force, false, &g);
		progress_end(&g.line);
	}
	if (t->writing && stream_file_close(&t->file, !status, err, sizeof(err)) < 0) {
		tool_error("%s", err);
		status = 1;
	}
	if (t->archiving && archive_release(&t->archive, err, sizeof(err)) < 0) {
		tool_error("%s", err);
		status = 1;
	}
	otf2out_free(t->otf2);
	return status;
}

/*
 * Stage def's link in the chain, with its arguments and options as the
 * filter would have them: false where the options leave it out (the
 * chain is the README's, tr-read | tr-deps | tr-clock | tr-waits |
 * tr-critpath, with tr-project after tr-clock for a what-if).
 */
static bool link_for(const struct an_stage *def, struct options *o, struct chain_link *l)
{
	*l = (struct chain_link){ def, { def->tool, TR_VERSION, 0, NULL }, NULL };
	if (def == &an_stage_clock) {
		l->self.argc = o->args.nclock;
		l->self.argv = o->args.clock;
		l->opts = &o->clock;
		return !o->no_clock;
	}
	if (def == &an_stage_project) {
		l->self.argc = o->args.nproject;
		l->self.argv = o->args.project;
		l->opts = &o->project.o;
		return o->projecting;
	}
	if (def == &an_stage_critpath) {
		l->self.argc = o->args.ncrit;
		l->self.argv = o->args.crit;
		l->opts = &o->end;
	}
	return true;
}

/* Under --mpi with -v: what each rank did, a line each on stderr (rank 0 has their ends). */
static void say_work(const struct fan *fan)
{
	uint64_t all = 0;

	for (int r = 0; r < fan->size; r++) {
		const struct fan_work *w = &fan->work[r];

		all += w->events;
		tool_error("rank %d analysed %" PRIu64 " events of its shard in tr-deps in %.2f s of CPU; sent %" PRIu64
			   " bytes of stream to rank 0 and %" PRIu64 " bytes of facts to the other ranks",
			   r, w->events, (double)w->cpu_ns / 1e9, w->to_rank0, w->to_ranks);
	}
	tool_error("rank 0 analysed all %" PRIu64 " events in the stages after tr-deps: %.2f s of CPU in all, "
		   "its shard's included", all, (double)cpu_time_ns(RUSAGE_SELF) / 1e9);
}

/*
 * Where projecting, the table's first line: the change as given, and the
 * run time before and after (the rating below is the projected run's).
 */
static void what_if_line(const struct options *o)
{
	printf("what-if");
	for (int i = 0; i < o->args.nproject; i++)
		printf(" %s", o->args.project[i]);
	printf(": run %.9f s -> %.9f s (%+.2f %%); the rating below is the projected run's\n",
	       tool_secs((uint64_t)o->run_before), tool_secs((uint64_t)o->run_after),
	       o->run_before ? 100.0 * (double)(o->run_after - o->run_before) / (double)o->run_before : 0.0);
}

/* The rating on standard output: 0, or 1 after a message. */
static int print_rating(const char *input, const struct an_rank *k, const struct options *opts)
{
	const struct rank_opts *o = &opts->rank;
	struct ls_writer out;
	int rc, status = 0;

	if (opts->projecting && o->form == RANK_TEXT)
		what_if_line(opts);
	ls_writer_init(&out, STDOUT_FILENO, LS_FMT_JSON);
	if ((rc = rank_print(input, k, o, &out)) == LS_ERR_NOMEM) {
		tool_error("out of memory");
		status = 1;
	} else if (rc == LS_ERR_IO) {
		status = tool_write_error(NULL, &out, rc);
	} else if (rc < 0) {
		tool_error("the rating has a value JSON cannot hold");
		status = 1;
	}
	return tool_finish(&out) | status;
}

int main(int argc, char **argv)
{
	struct options o = { .rank = { RANK_TEXT, 20, false, false, false, false },
			     .select = LS_FRONT_OPTIONS_INIT, .jobs = 1, .floors = AN_FLOORS_INIT };
	struct taker t = { .rank = NULL };
	struct fan fan, *fanned = NULL;
	struct local_shard local;
	struct ls_stage reading;
	bool mpi_up = false;
	int status, ntraces;

	tool_init("tr-analyze", argc, argv);
	stage_project_init(&o.project);
	if ((status = parse(argc, argv, &o)))
		goto out;
	if (o.mpi && !(fan.ops = fan_load())) {
		status = 1;
		goto out;
	}
	if (o.mpi && (status = fan.ops->init(&argc, &argv, &fan)))
		goto out;
	mpi_up = o.mpi;
	if (o.mpi && fan.size > 1)
		fanned = &fan;
	ntraces = argc - optind;
	for (int i = 0; i < ntraces; i++)
		o.args.read[o.args.nread + i] = argv[optind + i];
	reading = (struct ls_stage){ "tr-read", TR_VERSION, o.args.nread + ntraces, o.args.read };
	if (fanned && fan.rank > 0) {
		status = read_shard(argv + optind, ntraces, &reading, &o, &fan);
		goto out;
	}
	if (fanned) {
		local = (struct local_shard){ argv + optind, ntraces, reading, o, &fan };
		if ((status = fan.ops->start(&fan, read_local_shard, &local)))
			goto out;
	}
	if (!(t.rank = an_rank_new((o.rank.by_pattern ? AN_RANK_BY_WAIT : 0) | (o.rank.words ? AN_RANK_WAITERS : 0)))) {
		tool_error("out of memory");
		status = 1;
		goto out;
	}
	if ((status = open_outputs(&o, &t)) == 0) {
		struct chain_link links[CHAIN_STAGES];
		int n = 0;

		/* the stages of the table the options ask for, in its order (tr-deps: the shards' under --mpi) */
		for (const struct an_stage *const *def = an_stages; *def; def++)
			if (n < CHAIN_STAGES && !(fanned && *def == &an_stage_deps) && link_for(*def, &o, &links[n]))
				n++;
		status = analyze(argv + optind, ntraces, links, n, &reading, &o, &t, fanned);
	}
	/* a usage error (2) stays one: the outputs' failure is said, its status not added */
	if (close_outputs(&t, status == 0, &o) && !status)
		status = 1;
	if (!status && fanned && o.rank.words)
		say_work(fanned);
	if (!status)
		status = print_rating(argv[optind], t.rank, &o);
out:
	/* rank 0 failed before it merged: the shards still end */
	if (fanned && fan.rank == 0 && !fan.taken)
		fan.ops->discard(&fan);
	if (mpi_up)
		fan.ops->finish(&fan);
	an_rank_free(t.rank);
	release(o.args.read, o.args.nread);
	release(o.args.clock, o.args.nclock);
	release(o.args.crit, o.args.ncrit);
	release(o.args.project, o.args.nproject);
	stage_project_release(&o.project);
	an_floors_release(&o.floors);
	ls_ranges_release(&o.select.processes);
	ls_ranges_release(&o.select.streams);
	return status;
}
