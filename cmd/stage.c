/* The read-pass-take loop every analysis stage runs. */
#include "../libstream/error.h"
#include "stage.h"
#include "tool.h"

static bool replaced(const struct stage *st, enum ls_kind k)
{
	for (const enum ls_kind *p = st->replaces; *p; p++)
		if (*p == k)
			return true;
	return false;
}

int stage_run(const struct stage *st, struct ls_reader *r, struct ls_writer *w)
{
	struct ls_writer_mark mark;
	struct ls_record rec;
	bool header = false;
	const char *why = NULL;
	char where[64];
	int rc;

	while ((rc = ls_read(r, &rec)) > 0) {
		if (!header && rec.kind != LS_K_HEADER &&
		    (rc = ls_write_header(w, st->producer, NULL)) < 0)
			return tool_write_error(r, w, rc);
		header = true;
		if (replaced(st, rec.kind))
			continue;
		mark = ls_writer_mark(w);
		if ((rc = ls_write_record(w, &rec)) < 0)
			return tool_write_error(r, w, rc);
		if ((rc = st->take(st->ctx, &rec, &why)) < 0) {
			if (rc != LS_ERR_SYNTAX)
				return tool_write_error(r, w, rc);
			/* the bad record is not passed on, where it can be helped */
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
	if (!header && (rc = ls_write_header(w, st->producer, NULL)) < 0)
		return tool_write_error(r, w, rc);
	return 0;
}
