/* The command line and the read-pass-take loop every analysis stage has. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../libstream/error.h"
#include "maxmem.h"
#include "stage.h"
#include "../common/tool.h"

int stage_open(int argc, char **argv, const char *flag_name, bool *flag,
	       unsigned *jobs, void (*usage)(FILE *), struct stage_io *io)
{
	return stage_open_with(argc, argv, &(struct stage_args){ flag_name, flag, jobs, NULL, NULL,
								 NULL, NULL }, usage, io);
}

int stage_open_with(int argc, char **argv, const struct stage_args *a, void (*usage)(FILE *),
		    struct stage_io *io)
{
	struct option longopts[16] = { { a->flag_name, no_argument, NULL, 'F' } };
	const struct option common[] = { TOOL_LONGOPTIONS, { NULL, 0, NULL, 0 } };
	struct tool_output out = { false, false };
	enum ls_format format;
	char shorts[16];
	size_t n = 1;
	int ch, rc;

	if (a->verbose)
		longopts[n++] = (struct option){ "verbose", no_argument, NULL, 'v' };
	for (const struct option *o = a->more; o && o->name && n < 9; o++)
		longopts[n++] = *o;
	memcpy(longopts + n, common, sizeof(common));
	snprintf(shorts, sizeof(shorts), "%s%s%s", TOOL_OPTIONS, a->jobs ? "j:" : "",
		 a->verbose ? "v" : "");
	while ((ch = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		if (tool_option(ch, &out, usage))
			continue;
		if (ch == 'v' && a->verbose) {
			*a->verbose = true;
			continue;
		}
		if (ch == 'j' && a->jobs) {
			if ((rc = tool_threads_arg("-j", optarg, a->jobs)))
				return rc;
			continue;
		}
		if (ch == 'F') {
			*a->flag = true;
			continue;
		}
		if (a->option && ch != '?' && ch != ':') {
			if ((rc = a->option(ch, optarg, a->ctx)))
				return rc;
			continue;
		}
		usage(stderr);
		return 2;
	}
	if (argc - optind > 1 || tool_output_format(&out, &format) < 0) {
		usage(stderr);
		return 2;
	}
	if (maxmem_limit(&io->max_mem) < 0)
		return 2;
	if (ls_reader_open(&io->r, argv[optind]) < 0) {
		tool_error("%s: %s", argv[optind], io->r.err);
		return 1;
	}
	ls_writer_init(&io->w, STDOUT_FILENO, format);
	return 0;
}

int stage_close(struct stage_io *io, int status)
{
	int rc;

	ls_reader_release(&io->r);
	if (!status && (rc = ls_write_trailer(&io->w)) < 0)
		status = tool_write_error(&io->r, &io->w, rc);
	return tool_finish(&io->w) | status;
}

/* Check memory every this many records: reading it is a system call. */
#define MEM_EVERY 65536

/* Too much memory held: false after the message naming what holds it. */
static bool within_limit(const struct an_stage_run *run, const struct stage_io *io)
{
	char where[320], at[64];

	snprintf(where, sizeof(where), "%s: %s", io->r.name, ls_reader_where(&io->r, at, sizeof(at)));
	return maxmem_within(io->max_mem, where, run->def->held, run->ctx);
}

/* The stage failed (run->failed): 1 after the message. */
static int failed(const struct an_stage_run *run, struct stage_io *io)
{
	char where[64];

	if (run->failed.code != LS_ERR_SYNTAX)
		return tool_write_error(&io->r, &io->w, run->failed.code);
	if (run->failed.at_end)
		tool_error("%s: %s", io->r.name, run->failed.why);
	else
		tool_error("%s: %s: %s", io->r.name, ls_reader_where(&io->r, where, sizeof(where)),
			   run->failed.why);
	return 1;
}

int stage_run(const struct an_stage *def, void *ctx, struct stage_io *io)
{
	struct ls_reader *r = &io->r;
	struct an_stage_run run;
	struct ls_record rec;
	struct an_item it;
	uint64_t reads = def->reads();
	char producer[64];
	int rc;

	snprintf(producer, sizeof(producer), "%s %s", def->tool, TR_VERSION);
	an_stage_run_init(&run, def, ctx, tool_stage(), producer, &io->w, NULL, NULL);
	ls_reader_skim(r, run.replaced | ~reads);
	while ((rc = ls_read(r, &rec)) > 0) {
		/* the fields of what the stage reads, as rule 8 has it; passed on unread, the rest */
		if ((reads & LS_KIND_BIT(rec.kind)) && !(run.replaced & LS_KIND_BIT(rec.kind)) &&
		    tool_check_fields(r, &rec))
			return 1;
		it = an_item_read(&rec);
		if (an_stage_step(&run, &it) < 0)
			return failed(&run, io);
		if (r->recno % MEM_EVERY == 0 && !within_limit(&run, io))
			return 1;
	}
	if (rc < 0) {
		tool_read_error(r);
		return 1;
	}
	if (tool_empty(r))
		return 1;
	return an_stage_end(&run) < 0 ? failed(&run, io) : 0;
}

void stage_report_counts(const char *input, const struct an_count *odd, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (odd[i].n)
			tool_error("%s: %" PRIu64 " %s", input, odd[i].n, odd[i].what);
}

void stage_report(const char *input, const struct an_stage *def, const void *ctx)
{
	struct an_count odd[AN_COUNTS_MAX];
	size_t n = an_stage_odd(def, ctx, odd);
	char notes[2048];

	stage_report_counts(input, odd, n);
	if (!def->notes || !def->notes(ctx, notes, sizeof(notes)))
		return;
	for (char *line = strtok(notes, "\n"); line; line = strtok(NULL, "\n"))
		tool_error("%s: %s", input, line);
}
