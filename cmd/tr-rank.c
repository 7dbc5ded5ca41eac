/*
 * tr-rank: the activity rating of an analysed stream (Schmitt et al. 2017,
 * Table 1) and its pattern summary, as a text table, CSV or NDJSON;
 * --diff (rank-diff.c): the difference of two ratings written with --json.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../analysis/rank.h"
#include "../libstream/error.h"
#include "render/rank-diff.h"
#include "render/rank-table.h"
#include "common/tool.h"


static void usage(FILE *to)
{
	fprintf(to, "usage: tr-rank [-ehv] [-n N] [--csv | --json] [--idle] [--diff A B | file]\n");
	if (to == stdout)
		tool_help(to,
			  "  -n N                     rows (20; 0: all)\n"
			  "  -e                       blame and idle blame per pattern\n"
			  "  -v                       the first rows also in words: where their path time\n"
			  "                           lay, who waited for them, what the patterns mean\n"
			  "  --csv, --json            write CSV or NDJSON records instead of the table\n"
			  "  --idle                   rate GPU idle blame as blame\n"
			  "  --diff A B               compare two ratings (--json output of each)\n", false);
}

/* Read the input and print its rating. */
static int rate(const char *path, const struct rank_opts *o)
{
	static const char *const needs[] = { "tr-deps", "tr-waits", "tr-critpath", NULL };
	struct ls_reader r;
	struct ls_record rec;
	struct an_item it;
	struct an_rank *k;
	struct ls_writer w;
	const char *why = NULL;
	char where[64];
	int rc, status = 0;

	if (ls_reader_open(&r, path) < 0) {
		tool_error("%s: %s", path, r.err);
		return 1;
	}
	if (!(k = an_rank_new((o->by_pattern ? AN_RANK_BY_WAIT : 0) | (o->words ? AN_RANK_WAITERS : 0)))) {
		tool_error("%s: out of memory", r.name);
		ls_reader_release(&r);
		return 1;
	}
	ls_reader_skim(&r, ~an_rank_reads());
	while ((rc = ls_read(&r, &rec)) > 0) {
		if (rec.kind == LS_K_HEADER && r.recno == 1 && !tool_made_by(&r, &rec, needs)) {
			rc = 0;
			status = 1;
			break;
		}
		it = an_item_read(&rec);
		if ((rc = an_rank_take(k, &it, &why)) < 0)
			break;
		/* what the rating does not look at in a kind it reads: rule 8 */
		if ((an_rank_reads() & LS_KIND_BIT(rec.kind)) && tool_check_fields(&r, &rec)) {
			status = 1;
			break;
		}
	}
	if (status) {
		/* said */
	} else if (rc == LS_ERR_SYNTAX && why) {
		tool_error("%s: %s: %s", r.name, ls_reader_where(&r, where, sizeof(where)), why);
		status = 1;
	} else if (rc < 0) {
		tool_read_error(&r);
		status = 1;
	} else if (tool_empty(&r)) {
		status = 1;
	}
	if (!status) {
		ls_writer_init(&w, STDOUT_FILENO, LS_FMT_JSON);
		if ((rc = rank_print(r.name, k, o, &w)) == LS_ERR_NOMEM) {
			tool_error("%s: out of memory", r.name);
			status = 1;
		} else if (rc < 0) {
			status = tool_write_error(&r, &w, rc);
		}
		status |= tool_finish(&w);
	}
	an_rank_free(k);
	ls_reader_release(&r);
	return status;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'J' },
		{ "diff", no_argument, NULL, 'D' },
		{ "idle", no_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		TOOL_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	struct rank_opts o = { RANK_TEXT, 20, false, false, false, false };
	int ch;

	tool_init("tr-rank", argc, argv);
	while ((ch = getopt_long(argc, argv, "hn:ev", longopts, NULL)) != -1) {
		tool_help_option(ch, usage);
		switch (ch) {
		case 'n':
			if (rank_rows_arg(optarg, &o))
				return 2;
			break;
		case 'e':
			o.by_pattern = true;
			break;
		case 'v':
			o.words = true;
			break;
		case 'C':
		case 'J':
			if (rank_form_arg(ch == 'C' ? RANK_CSV : RANK_JSON, &o))
				return 2;
			break;
		case 'D':
			o.diff = true;
			break;
		case 'I':
			o.idle = true;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (o.diff ? argc != 2 : argc > 1) {
		usage(stderr);
		return 2;
	}
	if (o.words && (o.diff || o.form != RANK_TEXT)) {
		tool_error("-v tells the rating in words beside its text table: not with --csv, --json or --diff");
		return 2;
	}
	return o.diff ? rank_diff(argv[0], argv[1], o.form, o.top) : rate(argc ? argv[0] : NULL, &o);
}
