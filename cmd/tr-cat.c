/*
 * tr-cat: concatenate record streams, convert between msgpack and NDJSON,
 * or check a stream against the contract of docs/stream.md.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../libstream/check.h"
#include "../libstream/error.h"
#include "common/tool.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-cat [-chJM] [file ...]\n");
	if (to == stdout)
		tool_help(to,
			  "  -c, --check              check each input against the stream contract; write nothing\n", true);
}

/* Check one input as a stream of its own; 0 if it keeps the contract. */
static int check_input(struct ls_reader *r)
{
	struct ls_checker c;
	struct ls_record rec;
	char msg[512], where[64];
	int rc, status = 0;

	ls_checker_init(&c);
	while ((rc = ls_read(r, &rec)) > 0) {
		if ((rc = ls_check(&c, &rec, msg, sizeof(msg))) < 0) {
			if (rc == LS_ERR_NOMEM)
				tool_error("out of memory");
			else
				tool_error("%s: %s: %s", r->name,
					   ls_reader_where(r, where, sizeof(where)), msg);
			status = 1;
			break;
		}
	}
	if (rc < 0 && !status) {
		tool_read_error(r);
		status = 1;
	}
	if (!status && c.records == 0) {
		tool_error("%s: stream is empty (no header)", r->name);
		status = 1;
	}
	ls_checker_release(&c);
	return status;
}

/*
 * Copy one input to w. The output's header is the first input's (or a
 * fresh one when it has none); later headers are dropped.
 */
static int copy_input(struct ls_reader *r, struct ls_writer *w,
		      bool *header_written)
{
	struct ls_record rec;
	int rc;

	while ((rc = ls_read(r, &rec)) > 0) {
		if (rec.kind == LS_K_HEADER) {
			if (*header_written)
				continue;
		} else if (!*header_written &&
			   (rc = ls_write_header(w, "tr-cat " TR_VERSION, NULL, NULL)) < 0) {
			return tool_write_error(r, w, rc);
		}
		*header_written = true;
		if ((rc = ls_write_record(w, &rec)) < 0)
			return tool_write_error(r, w, rc);
	}
	if (rc < 0) {
		tool_read_error(r);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "check", no_argument, NULL, 'c' },
		TOOL_LONGOPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct tool_output out = { false, false };
	bool check = false, header_written = false;
	enum ls_format format;
	struct ls_writer w;
	int ch, status = 0;

	tool_init("tr-cat", argc, argv);
	while ((ch = getopt_long(argc, argv, "c" TOOL_OPTIONS, longopts, NULL)) != -1) {
		if (tool_option(ch, &out, usage))
			continue;
		if (ch != 'c') {
			usage(stderr);
			return 2;
		}
		check = true;
	}
	argc -= optind;
	argv += optind;
	if (tool_output_format(&out, &format) < 0) {
		usage(stderr);
		return 2;
	}

	ls_writer_init(&w, STDOUT_FILENO, format);
	for (int i = 0; i < (argc ? argc : 1); i++) {
		struct ls_reader r;

		if (ls_reader_open(&r, argc ? argv[i] : NULL) < 0) {
			tool_error("%s: %s", argv[i], r.err);
			status = 1;
			continue;
		}
		if (check)
			status |= check_input(&r);
		else
			status |= copy_input(&r, &w, &header_written);
		ls_reader_release(&r);
		if (w.err)
			break;
	}
	if (!check && !header_written && !w.err && status == 0) {
		/* Empty input still makes a valid (empty) stream. */
		if (ls_write_header(&w, "tr-cat " TR_VERSION, NULL, NULL) < 0)
			status = 1;
	}
	/* whole inputs make a whole stream; one cut or failed, one that shows it */
	if (!check && !w.err && status == 0 && ls_write_trailer(&w) < 0)
		status = 1;
	return tool_finish(&w) | status;
}
