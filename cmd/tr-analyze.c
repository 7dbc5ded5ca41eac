/*
 * tr-analyze: the whole analysis of a trace in one process, read, tr-deps,
 * tr-waits, tr-critpath and tr-rank, the stages on threads of their own
 * with the records handed on in memory (chain.h); the rating as tr-rank
 * prints it, and on request the analysed stream as the filters write it.
 */
#include <errno.h>
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
#include "../analysis/rank.h"
#include "../formats/readers.h"
#include "../libstream/error.h"
#include "output/archive.h"
#include "run/chain.h"
#include "fan/fan.h"
#include "run/maxmem.h"
#include "output/otf2-write.h"
#include "common/progress.h"
#include "render/rank-table.h"
#include "common/selection.h"
#include "output/stream-file.h"
#include "common/tool.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-analyze [-efhq] [-j N] [-n N] [--csv | --json] [--end WHERE] [--idle] "
		"[--latency TYPE=NS] [--mpi] [--no-clock] [-o dir/name] [--stream file] [--threads N] "
		"[-p processes] [-s streams] [-t begin:end] [--window SECONDS] trace ...\n");
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
			  "  --window SECONDS         tr-clock's: hold events this long (0.01)\n"
			  "  --latency TYPE=NS        tr-clock's: least latency of an edge type (0)\n"
			  "  --end WHERE              tr-critpath's: where the path ends (last, region=NAME,\n"
			  "                           stream=NAME, SECONDS after the first event)\n"
			  "  -n N                     rows (20; 0: all)\n"
			  "  -e                       blame and idle blame per pattern\n"
			  "  --csv, --json            the rating as CSV or NDJSON records instead of the table\n"
			  "  --idle                   rate GPU idle blame as blame\n"
			  "  -p, --processes LIST     only these processes' events (ids and ranges: 0-3,7)\n"
			  "  -s, --streams LIST       only these streams' events\n"
			  "  -t, --time BEGIN:END     only events in this window (ns, us, ms, s since the start)\n"
			  "  -q, --quiet              no progress line (drawn where stderr is a terminal)\n", false);
}

/* Options of its own, beside the short ones. */
enum { OPT_CSV = 256, OPT_JSON, OPT_IDLE, OPT_STREAM, OPT_THREADS, OPT_MPI, OPT_NO_CLOCK, OPT_WINDOW,
       OPT_LATENCY, OPT_END };

/* Arguments as each filter of the equivalent pipeline would have had them. */
#define MAX_ARGS 16

struct args {
	char *read[MAX_ARGS];	/* tr-read's: -p, -s, -t as given */
	int nread;
	char *clock[MAX_ARGS];	/* tr-clock's: --window, --latency as given */
	int nclock;
	char *crit[4];		/* tr-critpath's: -j N, --end WHERE where given */
	int ncrit;
};

struct options {
	struct rank_opts rank;
	struct ls_front_options select;
	const char *stream, *output;
	bool force, quiet, mpi, no_clock;
	unsigned jobs, threads;
	struct an_clock_options clock;
	struct an_crit_end end;
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

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	struct taker *t = ctx;
	int rc;

	if (t->writing && (rc = ls_write_record(&t->file.w, rec)) < 0) {
		tool_error("%s: %s", t->file.path, rc == LS_ERR_IO ? strerror(t->file.w.err) : "out of memory");
		return LS_ERR_IO;
	}
	if (t->otf2 && otf2out_take(t->otf2, rec) < 0) {
		tool_error("%s: %s", t->output, otf2out_error(t->otf2));
		return LS_ERR_IO;
	}
	return an_rank_take(t->rank, rec, why);
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
 * Read traces[0..n) through the chain of links into t (under --mpi, the
 * shards' streams fanned in). Returns 0, or the exit status after a message.
 */
static int analyze(char *const *traces, int n, const struct chain_link *links, int nlinks,
		   const struct ls_stage *reading, struct options *o, struct taker *t, struct fan *fan)
{
	struct ls_front_report report;
	const struct reader *reader;
	struct ls_front front;
	struct progress progress;
	struct chain *c;
	char err[512];
	int status = 0, rc;

	if (!(c = chain_new(links, nlinks, traces[0], o->threads ? o->threads : cores(), o->jobs, take,
			    t->otf2 ? ~UINT64_C(0) : an_rank_reads(), t->otf2 != NULL, t)))
		return 1;
	ls_front_init(&front, chain_input(c), &o->select, &report);
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
	for (int i = 0; i < nlinks && !status; i++)
		links[i].def->report(traces[0], chain_stage(c, i));
	chain_free(c);
	return status;
}

/*
 * Under --mpi: read this rank's shard of traces[0..n) and send it to
 * rank 0, failures included. Returns 0, or 1 where MPI failed.
 */
static int read_shard(char *const *traces, int n, const struct ls_stage *reading, struct options *o,
		      struct fan *fan)
{
	struct ls_front_report report;
	const struct reader *reader;
	struct ls_front front;
	struct ls_writer w;
	char err[512] = "";
	int rc;

	fan->ops->shard(fan, &o->select);
	fan->ops->writer(fan, &w);
	ls_front_init(&front, &w, &o->select, &report);
	if (!(reader = readers_for((const char *const *)traces, n, err, sizeof(err))))
		rc = -1;
	else if (!reader->shards)
		rc = -1, snprintf(err, sizeof(err), "--mpi reads OTF2 archives (libotf2 opens a shard's "
				  "locations alone); give %s to one process", reader->name);
	else
		rc = readers_read(reader, (const char *const *)traces, n, reading, &front, &w, err, sizeof(err));
	if (rc < 0 && w.err && !err[0])
		snprintf(err, sizeof(err), "cannot send to rank 0");
	ls_front_release(&front);
	rc = fan->ops->end(fan, &w, rc < 0, err, &report);
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
	if (!strcmp(flag, "--window") || !strcmp(flag, "--latency"))
		return keep_in(a->clock, &a->nclock, MAX_ARGS, flag, arg);
	return keep_in(a->read, &a->nread, MAX_ARGS, flag, arg);
}


/* One option: 0, or the status to exit with (after a message). */
static int option(int ch, const char *arg, struct options *o)
{
	char flag[3] = { '-', (char)ch, 0 };
	const char *name = flag;

	switch (ch) {
	case 'j':
		if (tool_threads_arg("-j", arg, &o->jobs))
			return 2;
		break;
	case OPT_WINDOW:
		if (tool_window_arg("--window", arg, &o->clock.window))
			return 2;
		name = "--window";
		break;
	case OPT_LATENCY:
		if (stage_clock_latency(arg, &o->clock))
			return 2;
		name = "--latency";
		break;
	case OPT_END:
		if (stage_critpath_end(arg, &o->end))
			return 2;
		name = "--end";
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

	while ((ch = getopt_long(argc, argv, "efhj:n:o:p:qs:t:", longopts, NULL)) != -1) {
		tool_help_option(ch, usage);
		switch (ch) {
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
	if (o->no_clock && o->args.nclock) {
		tool_error("--window and --latency are tr-clock's: not with --no-clock");
		return 2;
	}
	if (o->force && !o->stream && !o->output) {
		tool_error("--force replaces the --stream file or the -o archive: give one");
		return 2;
	}
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

/* The rating on standard output: 0, or 1 after a message. */
static int print_rating(const char *input, const struct an_rank *k, const struct rank_opts *o)
{
	struct ls_writer out;
	int rc, status = 0;

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
	struct options o = { .rank = { RANK_TEXT, 20, false, false, false },
			     .select = LS_FRONT_OPTIONS_INIT, .jobs = 1 };
	struct taker t = { .rank = NULL };
	struct fan fan, *fanned = NULL;
	struct local_shard local;
	struct ls_stage reading;
	bool mpi_up = false;
	int status, ntraces;

	tool_init("tr-analyze", argc, argv);
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
	if (!(t.rank = an_rank_new(o.rank.by_pattern))) {
		tool_error("out of memory");
		status = 1;
		goto out;
	}
	if ((status = open_outputs(&o, &t)) == 0) {
		/* the filters the README recommends: tr-read | tr-deps | tr-clock | tr-waits | tr-critpath */
		const struct chain_link links[] = {
			{ &stage_deps, { "tr-deps", TR_VERSION, 0, NULL }, NULL },
			{ &stage_clock, { "tr-clock", TR_VERSION, o.args.nclock, o.args.clock }, &o.clock },
			{ &stage_waits, { "tr-waits", TR_VERSION, 0, NULL }, NULL },
			{ &stage_critpath, { "tr-critpath", TR_VERSION, o.args.ncrit, o.args.crit }, &o.end },
		};
		struct chain_link unclocked[3] = { links[0], links[2], links[3] };

		status = o.no_clock ? analyze(argv + optind, ntraces, unclocked, 3, &reading, &o, &t, fanned) :
				      analyze(argv + optind, ntraces, links, 4, &reading, &o, &t, fanned);
	}
	/* a usage error (2) stays one: the outputs' failure is said, its status not added */
	if (close_outputs(&t, status == 0, &o) && !status)
		status = 1;
	if (!status)
		status = print_rating(argv[optind], t.rank, &o.rank);
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
	ls_ranges_release(&o.select.processes);
	ls_ranges_release(&o.select.streams);
	return status;
}
