/* An OTF2 archive written from a record stream file: its two passes, and putting it in place. */
#include <inttypes.h>
#include <stdio.h>

#include "../../libstream/error.h"
#include "otf2-write.h"
#include "../common/tool.h"

int otf2_pass(struct otf2out *o, const char *path, const char *name, const char *out_path,
	      int (*each)(struct otf2out *, const struct ls_record *), struct otf2_reading *g)
{
	struct ls_reader r;
	struct ls_record rec;
	char where[64];
	int rc;

	if (ls_reader_open(&r, path) < 0) {
		tool_error("%s: %s", name, r.err);
		return 1;
	}
	r.name = name;
	while ((rc = ls_read(&r, &rec)) > 0) {
		if (!(++g->records & 0xffff))
			progress_show(&g->line, g->records, (uint64_t)g->pass * g->size + r.rec_offset,
				      (uint64_t)(g->passes ? g->passes : 2) * g->size);
		if ((rc = each(o, &rec)) < 0) {
			if (rc == LS_ERR_SYNTAX)
				tool_error("%s: %s: %s", name,
					   ls_reader_where(&r, where, sizeof(where)),
					   otf2out_error(o));
			else
				tool_error("%s: %s", out_path, otf2out_error(o));
			ls_reader_release(&r);
			return 1;
		}
	}
	g->pass++;
	if (rc < 0)
		tool_read_error(&r);
	else if (tool_empty(&r))
		rc = -1;
	ls_reader_release(&r);
	return rc < 0;
}

/* What OTF2 could not hold: said once each. */
static void report_losses(const char *path, const struct otf2out_report *r)
{
	const struct tool_count lost[] = {
		{ r->roles_by_name, "regions whose role OTF2 cannot carry: tr-read gives them the role their name has" },
		{ r->corr_unplaced, "leaves whose corr is not their enter's: tr-read gives a leave its enter's" },
		{ r->blame_unplaced, "blamed activities never entered or never left in the stream: their blame is not written" },
		{ r->blame_streamless, "blame records without their activity's stream (s): not written" },
		{ r->cut_strings, "names longer than 65536 bytes, cut there: an OTF2 definition holds no more here" },
	};

	tool_report_counts(path, lost, sizeof(lost) / sizeof(lost[0]));
}

static void print_stats(const char *path, const struct otf2out_report *r)
{
	fprintf(stderr, "%s: %" PRIu64 " events written\n", path, r->events);
	for (int m = 0; m < 5; m++)
		if (r->samples[m])
			fprintf(stderr, "  %-14s %12" PRIu64 " values\n", otf2out_metric_names[m],
				r->samples[m]);
	for (int k = 0; k < LS_K__COUNT; k++)
		if (r->left_out[k])
			fprintf(stderr, "%s: %" PRIu64 " %s records left out (OTF2 has no place for them)\n",
				path, r->left_out[k], k ? ls_kind_name((enum ls_kind)k) : "unknown");
}

int otf2_archive(struct otf2out *o, struct archive *a, const char *path, const char *name,
		 const char *out_path, bool force, bool stats, struct otf2_reading *g)
{
	char err[512];

	if (otf2out_open(o, a->stage, a->name) < 0) {
		tool_error("%s: %s", out_path, otf2out_error(o));
		return 1;
	}
	g->passes = 1 + otf2out_rounds(o);
	for (uint32_t k = 0; k < otf2out_rounds(o); k++) {
		if (otf2out_begin_round(o, k) < 0) {
			tool_error("%s: %s", out_path, otf2out_error(o));
			return 1;
		}
		if (otf2_pass(o, path, name, out_path, otf2out_write, g) != 0)
			return 1;
		if (otf2out_end_round(o) < 0) {
			tool_error("%s: %s", out_path, otf2out_error(o));
			return 1;
		}
	}
	if (otf2out_close(o) < 0) {
		tool_error("%s: %s", out_path, otf2out_error(o));
		return 1;
	}
	if (archive_place(a, force, err, sizeof(err)) < 0) {
		tool_error("%s", err);
		return 1;
	}
	progress_end(&g->line);
	report_losses(out_path, otf2out_report(o));
	if (stats)
		print_stats(out_path, otf2out_report(o));
	return 0;
}
