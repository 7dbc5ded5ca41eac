/* The command line and the read-pass-take loop every analysis stage has. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../libstream/error.h"
#include "maxmem.h"
#include "stage.h"
#include "../stages/stages.h"
#include "../common/tool.h"

/* The kinds st replaces, as a set. */
static uint64_t replaced(const struct stage *st)
{
	uint64_t kinds = 0;

	for (const enum ls_kind *p = st->replaces; *p; p++)
		kinds |= LS_KIND_BIT(*p);
	return kinds;
}

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
static bool within_limit(const struct stage *st, const struct stage_io *io)
{
	char where[320], at[64];

	snprintf(where, sizeof(where), "%s: %s", io->r.name, ls_reader_where(&io->r, at, sizeof(at)));
	return maxmem_within(io->max_mem, where, st->held, st->ctx);
}

/* No stage of before has made the input (its header): else false, said. */
static bool not_yet(const struct ls_reader *r, const struct ls_record *header,
		    const char *const *before)
{
	char where[64];

	for (; before && *before; before++)
		if (ls_header_has_stage(header, *before) == 1) {
			tool_error("%s: %s: the stream has been through %s already: run %s before it",
				   r->name, ls_reader_where(r, where, sizeof(where)), *before,
				   tool_stage()->tool);
			return false;
		}
	return true;
}

int stage_run(const struct stage *st, struct stage_io *io)
{
	struct ls_reader *r = &io->r;
	struct ls_writer *w = &io->w;
	struct ls_writer_mark mark;
	struct ls_record rec;
	bool header = false;
	const char *why = NULL;
	uint64_t dropped = replaced(st);
	char where[64];
	int rc;

	ls_reader_skim(r, dropped | ~st->reads);
	while ((rc = ls_read(r, &rec)) > 0) {
		/* the fields of what the stage reads, as rule 8 has it; passed on unread, the rest */
		if ((st->reads & LS_KIND_BIT(rec.kind)) && !(dropped & LS_KIND_BIT(rec.kind)) &&
		    tool_check_fields(r, &rec))
			return 1;
		if (!header && rec.kind == LS_K_HEADER) {
			header = true;
			if (!tool_made_by(r, &rec, st->needs) || !not_yet(r, &rec, st->before))
				return 1;
			if ((rc = ls_write_header_from(w, &rec, tool_stage())) < 0)
				return tool_write_error(r, w, rc);
			continue;
		}
		if (!header && (rc = ls_write_header(w, st->producer, NULL, tool_stage())) < 0)
			return tool_write_error(r, w, rc);
		header = true;
		if (dropped & LS_KIND_BIT(rec.kind))
			continue;
		mark = ls_writer_mark(w);
		if (!st->writes && (rc = ls_write_record(w, &rec)) < 0)
			return tool_write_error(r, w, rc);
		if (r->recno % MEM_EVERY == 0 && !within_limit(st, io))
			return 1;
		if ((rc = st->take(st->ctx, &rec, &why)) < 0) {
			if (rc != LS_ERR_SYNTAX)
				return tool_write_error(r, w, rc);
			/* the bad record is not passed on, where it can be helped */
			if (!st->writes)
				ls_writer_unwrite(w, mark);
			tool_error("%s: %s: %s", r->name,
				   ls_reader_where(r, where, sizeof(where)), why);
			return 1;
		}
	}
	if (rc < 0) {
		tool_read_error(r);
		return 1;
	}
	if (tool_empty(r))
		return 1;
	if (!header && (rc = ls_write_header(w, st->producer, NULL, tool_stage())) < 0)
		return tool_write_error(r, w, rc);
	return 0;
}

int stage_run_def(const struct stage_def *def, void *ctx, const char *producer, struct stage_io *io)
{
	return stage_run(&(struct stage){ .producer = producer, .needs = def->needs,
					  .before = def->before, .replaces = def->replaces,
					  .reads = def->reads(), .take = def->take, .writes = def->writes,
					  .held = def->held, .ctx = ctx }, io);
}
