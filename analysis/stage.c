/* The stages' table and the runner of their protocol (stage.h). */
#include <stdio.h>
#include <string.h>

#include "../libstream/error.h"
#include "stage.h"

const struct an_stage *const an_stages[] = {
	&an_stage_deps, &an_stage_clock, &an_stage_project, &an_stage_waits, &an_stage_critpath, NULL,
};

void an_stage_run_init(struct an_stage_run *r, const struct an_stage *def, void *ctx,
		       const struct ls_stage *self, const char *producer, struct ls_writer *w,
		       an_stage_next next, void *next_ctx)
{
	memset(r, 0, sizeof(*r));
	r->def = def;
	r->ctx = ctx;
	r->self = self;
	r->producer = producer;
	r->w = w;
	r->next = next;
	r->next_ctx = next_ctx;
	for (const enum ls_kind *kind = def->replaces; *kind; kind++)
		r->replaced |= LS_KIND_BIT(*kind);
}

/* The stage failed with rc (why: for LS_ERR_SYNTAX): rc. */
static int fail(struct an_stage_run *r, int rc, const char *why)
{
	r->failed = (struct an_stage_failure){ rc, r->recno, false, rc == LS_ERR_SYNTAX ? why : NULL };
	return rc;
}

/* The input's header lists the stages this one needs, and none it goes before: else LS_ERR_SYNTAX. */
static int check_header(struct an_stage_run *r, const struct ls_record *header)
{
	for (const char *const *s = r->def->needs; s && *s; s++)
		if (ls_header_has_stage(header, *s) == 0) {
			snprintf(r->why, sizeof(r->why), "the stream has not been through %s: run it "
				 "before %s (tr-read TRACE | tr-deps | tr-waits | tr-critpath | tr-rank)",
				 *s, r->def->tool);
			return fail(r, LS_ERR_SYNTAX, r->why);
		}
	for (const char *const *s = r->def->before; s && *s; s++)
		if (ls_header_has_stage(header, *s) == 1) {
			snprintf(r->why, sizeof(r->why), "the stream has been through %s already: run %s "
				 "before it", *s, r->def->tool);
			return fail(r, LS_ERR_SYNTAX, r->why);
		}
	return 0;
}

/* pass_made's work, where the stage wrote something (typed[0..ntyped) of it noted typed). */
static int pass_written(struct an_stage_run *r, const struct an_typed *typed, size_t ntyped)
{
	struct ls_buf *out = &r->w->out;
	size_t j = 0;
	const uint8_t *end;
	struct an_item made;
	struct ls_record rec;
	const char *why = NULL;
	int rc = 0;

	/* room after the records, zeroed: they are parsed on the fast path to their end */
	if (ls_buf_grow(out, LS_RECORD_PAD) < 0)
		return fail(r, LS_ERR_NOMEM, NULL);
	end = out->p + out->len;
	memset(out->p + out->len, 0, LS_RECORD_PAD);
	/* a record noted and not written (an_stage.typed_only) takes no bytes: none may be left */
	for (const uint8_t *p = out->p; (p < end || j < ntyped) && rc == 0; p += made.len) {
		long len;

		/* what the stage knows typed, as it wrote it: its fields located if a stage after asks */
		if (j < ntyped && typed[j].at == (size_t)(p - out->p)) {
			made = (struct an_item){ .kind = typed[j].kind, .raw = p, .len = typed[j].len,
						 .store = &rec, .padded = true, .made = true, .known = true,
						 .ev = typed[j].ev, .derived = typed[j].derived };
			j++;
#ifdef LS_CHECK_BUILD
			if (made.len && (ls_record_parse_padded(&rec, p, end, 0, &why) != made.len ||
					 !an_item_agrees(&made, &rec)))
				return fail(r, LS_ERR_SYNTAX, "a typed record that is not the record written");
#endif
		} else if ((len = ls_record_parse_padded(&rec, p, end, 0, &why)) <= 0 || len > end - p) {
			return fail(r, LS_ERR_SYNTAX, why ? why : "a record cut off");
		} else {
			made = an_item_of(&rec, true);
		}
		if ((long)made.len > end - p)
			return fail(r, LS_ERR_SYNTAX, "a record cut off");
		rc = r->next(r->next_ctx, &made);
	}
	out->len = 0;
	return rc;
}

/*
 * What the stage wrote, on to next record by record (where next is not
 * NULL, w is in memory): made, an event it knows typed handed on known,
 * its fields located only when a stage after asks for them. After most
 * takes a stage wrote nothing: that is decided here, inline.
 */
static inline int pass_made(struct an_stage_run *r)
{
	size_t ntyped = 0;
	const struct an_typed *typed = r->def->typed ? r->def->typed(r->ctx, &ntyped) : NULL;

	if (!r->next || (!r->w->out.len && !ntyped))
		return 0;
	return pass_written(r, typed, ntyped);
}

/* The header: the input's (NULL: a fresh one) with the stage added. */
static int start(struct an_stage_run *r, const struct ls_record *header)
{
	int rc;

	r->header = true;
	rc = header ? ls_write_header_from(r->w, header, r->self) :
		      ls_write_header(r->w, r->producer, NULL, r->self);
	return rc < 0 ? fail(r, rc, NULL) : pass_made(r);
}

int an_stage_step(struct an_stage_run *r, struct an_item *it)
{
	struct ls_writer_mark mark = { 0, 0 };
	const struct ls_record *rec;
	const char *why = NULL;
	int rc;

	if (it->kind == LS_K_TRAILER)
		return 0;	/* the stream's end is the caller's to write */
	r->recno++;
	if (!r->header) {
		bool is_header = it->kind == LS_K_HEADER;

		if (is_header && (rc = an_item_need(it, &rec, &why)) < 0)
			return fail(r, rc, why);
		if ((is_header && (rc = check_header(r, rec)) < 0) ||
		    (rc = start(r, is_header ? rec : NULL)) < 0 || is_header)
			return rc;
	}
	if (r->replaced & LS_KIND_BIT(it->kind))
		return 0;
	/* a stage that writes its records itself hands this one on when it will */
	if (!r->def->writes) {
		if (r->next) {
			if ((rc = r->next(r->next_ctx, it)) < 0)
				return rc;
		} else {
			mark = ls_writer_mark(r->w);	/* to take it back if the stage refuses it */
			if ((rc = ls_write_raw(r->w, it->raw, it->len)) < 0)
				return fail(r, rc, NULL);
		}
	}
	if ((rc = r->def->take(r->ctx, it, &why)) < 0) {
		/* the bad record is not passed on, where it can be helped */
		if (rc == LS_ERR_SYNTAX && !r->next && !r->def->writes)
			ls_writer_unwrite(r->w, mark);
		return fail(r, rc, why ? why : "a record the stage cannot take");
	}
	return pass_made(r);
}

int an_stage_end(struct an_stage_run *r)
{
	const char *why = NULL;
	int rc;

	if (!r->header && (rc = start(r, NULL)) < 0)
		return rc;
	if ((rc = r->def->finish(r->ctx, &why)) < 0) {
		fail(r, rc, why ? why : "the stage could not finish");
		r->failed.at_end = true;
		return rc;
	}
	return pass_made(r);
}

size_t an_stage_odd(const struct an_stage *def, const void *ctx, struct an_count *out)
{
	struct an_count all[AN_COUNTS_MAX];
	size_t n = def->odd ? def->odd(ctx, all) : 0, k = 0;

	for (size_t i = 0; i < n; i++)
		if (all[i].n)
			out[k++] = all[i];
	return k;
}
