/*
 * What correlation ids say, for calls the file gives apart from it: in the
 * first pass each kernel, copy, set and synchronization says something of
 * the call of its correlation id (its stream, its event; an event record's
 * stream and event), and each call is noted with its place in the file;
 * after the pass the two are sorted by correlation id and joined, and the
 * calls with what they learned sorted back into the file's order, each
 * step an external sort (libstream/xsort.h), so that memory stays flat
 * however many calls the file holds. The second pass reads them call by
 * call, in the order it meets the calls.
 */
#include <stdio.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/tmpfile.h"
#include "kinetoin_private.h"

int kineto_by_corr_says(const void *a, const void *b)
{
	const struct ksays *x = a, *y = b;

	return (x->corr > y->corr) - (x->corr < y->corr);
}

int kineto_by_corr_call(const void *a, const void *b)
{
	const struct kcall *x = a, *y = b;

	return (x->corr > y->corr) - (x->corr < y->corr);
}

static int by_place(const void *a, const void *b)
{
	const struct kref *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return (x->ordinal > y->ordinal) - (x->ordinal < y->ordinal);
}

/* A sort that failed: what the error says. */
static int sort_failed(struct kinetoin *in, const struct ls_xsort *x)
{
	snprintf(in->err, in->errlen, "cannot sort in a temporary file in %s: %s", ls_tmp_named(),
		 x->err ? strerror(x->err) : "out of memory");
	return LS_ERR_IO;
}

int kineto_refs_init(struct kinetoin *in)
{
	return ls_xsort_init(&in->refs, sizeof(struct kref), by_place, 0);
}

int kineto_says(struct kinetoin *in, int64_t corr, uint32_t gpu, int64_t event, uint32_t waited)
{
	struct ksays s = { 0, corr, gpu, waited, event };

	if (corr < 0)
		return 0;
	return ls_xsort_add(&in->says, &s) < 0 ? sort_failed(in, &in->says) : 0;
}

int kineto_call(struct kinetoin *in, int64_t corr, uint32_t region)
{
	struct kcall c = { 0, corr, in->f->calls++, region, 0 };

	return ls_xsort_add(&in->calls, &c) < 0 ? sort_failed(in, &in->calls) : 0;
}

int kineto_join(struct kinetoin *in)
{
	const struct ksays *s;
	const struct kcall *c;
	struct kref cur = { 0, 0, 0, 0, UINT32_MAX, UINT32_MAX, -1 }, r;
	int64_t cur_corr = -1;
	int rc = 0;

	if (ls_xsort_done(&in->says) < 0)
		return sort_failed(in, &in->says);
	if (ls_xsort_done(&in->calls) < 0)
		return sort_failed(in, &in->calls);
	s = ls_xsort_next(&in->says);
	while (rc == 0 && (c = ls_xsort_next(&in->calls))) {
		if (c->corr != cur_corr || c->corr < 0) {	/* what the call's id says, from all that say it */
			cur = (struct kref){ 0, 0, 0, 0, UINT32_MAX, UINT32_MAX, -1 };
			cur_corr = c->corr;
			while (s && c->corr >= 0 && s->corr < c->corr)
				s = ls_xsort_next(&in->says);
			for (; s && c->corr >= 0 && s->corr == c->corr; s = ls_xsort_next(&in->says)) {
				cur.gpu = s->gpu != UINT32_MAX ? s->gpu : cur.gpu;
				cur.waited = s->waited != UINT32_MAX ? s->waited : cur.waited;
				cur.event = s->event >= 0 ? s->event : cur.event;
			}
		}
		r = cur;
		r.file = (uint32_t)(in->f - in->files);
		r.ordinal = c->ordinal;
		r.region = c->region;
		if (r.gpu == UINT32_MAX)	/* no GPU activity ran for it */
			rc = fmt_region_without_work(&in->regions, c->region, &r.region);
		if (rc == 0 && ls_xsort_add(&in->refs, &r) < 0)
			rc = sort_failed(in, &in->refs);
	}
	if (rc == 0 && (in->says.err || in->calls.err))
		rc = sort_failed(in, in->says.err ? &in->says : &in->calls);
	ls_xsort_release(&in->says);
	ls_xsort_release(&in->calls);
	return rc;
}

int kineto_refs_done(struct kinetoin *in)
{
	return ls_xsort_done(&in->refs) < 0 ? sort_failed(in, &in->refs) : 0;
}

const struct kref *kineto_ref(struct kinetoin *in)
{
	return ls_xsort_next(&in->refs);
}

void kineto_refs_release(struct kinetoin *in)
{
	ls_xsort_release(&in->says);
	ls_xsort_release(&in->calls);
	ls_xsort_release(&in->refs);
}
