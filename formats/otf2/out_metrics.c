/*
 * The analysis results as metrics on the streams they concern, the way
 * Vampir shows counters:
 * - "Critical Path" (ABSOLUTE_NEXT, 0 or 1): 1 from where the stream
 *   enters the critical path (tr-critpath's crit pieces) to where it leaves
 *   it, 0 before and after; written where it changes, and 0 at the
 *   stream's first event.
 * - "Waiting Time" (ABSOLUTE_LAST, seconds): per wait state, 0 where it
 *   begins and its length where it ends, with the pattern's name in the
 *   attribute "Wait State".
 * - "Blame" (ABSOLUTE_LAST, seconds): per blamed activity, 0 right after
 *   its enter and the blame it received right after its leave, with the
 *   pattern where all of it came from one.
 * - "GPU Idle Time" and "GPU Idle Blame": the same for GPU idle periods
 *   (on the GPU stream that ended the period) and the blame for them, apart:
 *   idleness is not a wait state.
 * So the values of each add up to the stream's totals.
 *
 * Pass 1 puts the values and the blame shares into external sorts by
 * stream (out_sorted.h), so that memory stays flat however long the run;
 * between the passes they are made final (the path's changes; each
 * activity's blame summed); pass 2 reads each stream's in its order as
 * its events are written. A stream's enters come in the order of their
 * ids, so its activities' blame is met in the order it is sorted in.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/check.h"
#include "../../libstream/error.h"
#include "otf2out_private.h"

static int add_sample(struct otf2out *o, uint32_t s, int64_t t, enum metric m,
		      double value, uint8_t pattern)
{
	struct out_sample x = { 0, s, (uint8_t)m, pattern, t, value };
	int rc;

	if ((rc = out_sorted_add(&o->samples, &x)) < 0)
		return otf2out_sorted_failed(o, &o->samples, rc);
	if (t < o->min_t || !o->any_event)
		o->min_t = t;
	if (t > o->max_t || !o->any_event)
		o->max_t = t;
	o->any_event = true;
	o->metrics[m] = true;
	return 0;
}

/* Stream s's piece of the path not closed yet: its end, now. */
static int close_crit(struct otf2out *o, uint32_t s)
{
	struct out_stream *st = &o->streams[s];

	if (!st->crit_open)
		return 0;
	st->crit_open = false;
	return add_sample(o, s, st->crit_end, M_CRIT, -1, LS_P__COUNT);
}

/*
 * A piece of the critical path on stream s: its start (+1) and end (-1).
 * The pieces come in path order, so one that begins where the stream's
 * last one ended lengthens it instead (its end is placed once known).
 */
static int add_crit(struct otf2out *o, uint32_t s, int64_t from, int64_t to)
{
	struct out_stream *st = &o->streams[s];
	int rc;

	if (st->crit_open && st->crit_end == from) {
		st->crit_end = to;
		return 0;
	}
	if ((rc = close_crit(o, s)) < 0 || (rc = add_sample(o, s, from, M_CRIT, 1, LS_P__COUNT)) < 0)
		return rc;
	st->crit_open = true;
	st->crit_end = to;
	return 0;
}

static uint8_t pattern_of(const struct ls_record *rec)
{
	const char *p;
	uint32_t n;

	if (ls_get_str(rec, LS_F_PATTERN, &p, &n) < 0)
		return LS_P__COUNT;
	return (uint8_t)ls_pattern_lookup(p, n);
}

/* A share of blame: kept by its activity's stream, for the sum and the leave. */
static int take_blame(struct otf2out *o, const struct ls_record *rec)
{
	uint64_t to, ns, sid;
	uint8_t pattern = pattern_of(rec);
	bool idle = pattern < LS_P__COUNT && ls_pattern_idle(pattern);
	uint64_t *total = idle ? &o->idle_blame_total : &o->blame_total;
	struct out_blame x;
	uint32_t s;
	int rc;

	ls_get_u64(rec, LS_F_TO, &to);
	ls_get_u64(rec, LS_F_NS, &ns);
	o->metrics[idle ? M_IDLE_BLAME : M_BLAME] = true;
	/* each activity's is part of all: past 2^64 ns there first */
	if (__builtin_add_overflow(*total, ns, total))
		return otf2out_fail(o, LS_ERR_SYNTAX, "the blame adds up to more than 2^64 ns");
	if (ls_get_u64(rec, LS_F_S, &sid) < 0 || (s = ls_index(&o->defs.stream_ix, sid)) == NONE) {
		o->report.blame_streamless++;
		return 0;
	}
	x = (struct out_blame){ 0, s, idle ? LS_P__COUNT : pattern, { 0 }, to, idle ? 0 : ns, idle ? ns : 0 };
	if ((rc = out_sorted_add(&o->blame, &x)) < 0)
		return otf2out_sorted_failed(o, &o->blame, rc);
	return 0;
}

int otf2out_take_result(struct otf2out *o, const struct ls_record *rec)
{
	uint64_t sid, dur;
	enum metric m;
	uint32_t s;
	int64_t t;
	int rc;

	if (ls_check_fields(rec, o->err, sizeof(o->err)) < 0)
		return LS_ERR_SYNTAX;
	if (rec->kind == LS_K_BLAME)
		return take_blame(o, rec);
	ls_get_u64(rec, LS_F_S, &sid);
	ls_get_i64(rec, LS_F_T, &t);
	ls_get_u64(rec, LS_F_DUR, &dur);
	if ((s = ls_index(&o->defs.stream_ix, sid)) == NONE)
		return otf2out_fail(o, LS_ERR_SYNTAX, "%s names undefined stream %" PRIu64,
				    ls_kind_name(rec->kind), sid);
	if (dur == 0)	/* nothing to mark; a span ends in range (ls_check_fields) */
		return 0;
	if (rec->kind == LS_K_CRIT)
		return add_crit(o, s, t, t + (int64_t)dur);
	m = pattern_of(rec) < LS_P__COUNT && ls_pattern_idle(pattern_of(rec)) ? M_IDLE : M_WAIT;
	if ((rc = add_sample(o, s, t, m, 0, LS_P__COUNT)) < 0)
		return rc;
	return add_sample(o, s, t + (int64_t)dur, m, (double)dur / 1e9, pattern_of(rec));
}

int otf2out_sample_order(const void *a, const void *b)
{
	const struct out_sample *x = a, *y = b;

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->t > y->t) - (x->t < y->t);
}

int otf2out_blame_order(const void *a, const void *b)
{
	const struct out_blame *x = a, *y = b;

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->to > y->to) - (x->to < y->to);
}

/*
 * The samples of one time on one stream, made final: the critical path's
 * as its change (the pieces' starts, +1, and ends, -1, counted through;
 * a value kept only where being on the path, a count above 0, differs
 * after that time from before it, so pieces that meet leave nothing
 * between them; and at the stream's first event, a mark of 0, its value);
 * the others as they are, in the order they were made.
 */
struct at_time {
	bool any;
	uint32_t s;
	int64_t t, count, before;	/* the stream's count through, and before this time */
	bool crit, first;
	struct out_sample change;
};

static int end_time(struct otf2out *o, struct at_time *a)
{
	int rc;

	if (!a->any || !a->crit || !(a->first || (a->before > 0) != (a->count > 0)))
		return 0;
	a->change.value = a->count > 0;
	if ((rc = out_sorted_put(&o->samples, &a->change, o->defs.nstreams)) < 0)
		return otf2out_sorted_failed(o, &o->samples, rc);
	return 0;
}

static int place_sample(struct otf2out *o, struct at_time *a, const struct out_sample *x)
{
	int rc;

	if (!a->any || x->s != a->s || x->t != a->t) {
		if ((rc = end_time(o, a)) < 0)
			return rc;
		if (!a->any || x->s != a->s)
			a->count = 0;
		*a = (struct at_time){ true, x->s, x->t, a->count, a->count, false, false, *x };
	}
	if (x->metric != M_CRIT) {
		if ((rc = out_sorted_put(&o->samples, x, o->defs.nstreams)) < 0)
			return otf2out_sorted_failed(o, &o->samples, rc);
		return 0;
	}
	a->count += (int64_t)x->value;
	a->first |= x->value == 0;
	a->change = *x;
	a->crit = true;
	return 0;
}

/* Each activity's blame summed, with the one pattern of its blame for wait states. */
static int place_blame(struct otf2out *o)
{
	const struct out_blame *x;
	struct out_blame b;
	bool any = false;
	int rc;

	if ((rc = out_sorted_done(&o->blame)) < 0)
		return otf2out_sorted_failed(o, &o->blame, rc);
	while ((x = out_sorted_next(&o->blame))) {
		if (any && (x->s != b.s || x->to != b.to)) {
			if ((rc = out_sorted_put(&o->blame, &b, o->defs.nstreams)) < 0)
				return otf2out_sorted_failed(o, &o->blame, rc);
			any = false;
		}
		if (!any) {
			b = *x;
			b.ns = b.idle_ns = 0;
			any = true;
		}
		if (x->pattern < LS_P__COUNT)	/* a share for a wait state (idle ones have none) */
			b.pattern = b.ns == 0 || b.pattern == x->pattern ? x->pattern : LS_P__COUNT;
		b.ns += x->ns;		/* within 2^64: all of it is (take_blame) */
		b.idle_ns += x->idle_ns;
	}
	if (o->blame.err)
		return otf2out_sorted_failed(o, &o->blame, LS_ERR_IO);
	if (any && (rc = out_sorted_put(&o->blame, &b, o->defs.nstreams)) < 0)
		return otf2out_sorted_failed(o, &o->blame, rc);
	if ((rc = out_sorted_seal(&o->blame, o->defs.nstreams)) < 0)
		return otf2out_sorted_failed(o, &o->blame, rc);
	return 0;
}

int otf2out_place_samples(struct otf2out *o)
{
	const struct out_sample *x;
	struct at_time a = { 0 };
	int rc;

	for (uint32_t s = 0; s < o->defs.nstreams; s++)
		if ((rc = close_crit(o, s)) < 0)
			return rc;
	for (uint32_t s = 0; o->metrics[M_CRIT] && s < o->defs.nstreams; s++)
		if (o->streams[s].any &&
		    (rc = add_sample(o, s, o->streams[s].first_t, M_CRIT, 0, LS_P__COUNT)) < 0)
			return rc;
	if ((rc = out_sorted_done(&o->samples)) < 0)
		return otf2out_sorted_failed(o, &o->samples, rc);
	while ((x = out_sorted_next(&o->samples)))
		if ((rc = place_sample(o, &a, x)) < 0)
			return rc;
	if (o->samples.err)
		return otf2out_sorted_failed(o, &o->samples, LS_ERR_IO);
	if ((rc = end_time(o, &a)) < 0)
		return rc;
	if ((rc = out_sorted_seal(&o->samples, o->defs.nstreams)) < 0)
		return otf2out_sorted_failed(o, &o->samples, rc);
	return place_blame(o);
}

static int write_value(struct otf2out *o, uint32_t s, int64_t t, enum metric m,
		       double value, uint8_t pattern)
{
	OTF2_EvtWriter *w = otf2out_writer(o, s);
	OTF2_AttributeList *attrs = NULL;
	OTF2_Type type = m == M_CRIT ? OTF2_TYPE_UINT64 : OTF2_TYPE_DOUBLE;
	OTF2_MetricValue v;

	if (!w)
		return LS_ERR_IO;
	if (m == M_CRIT)
		v.unsigned_int = value > 0;
	else
		v.floating_point = value;
	if (pattern < LS_P__COUNT) {
		const char *name = ls_pattern_name((enum ls_pattern)pattern);
		OTF2_StringRef ref = otf2out_string(o, name, (uint32_t)strlen(name));

		if (ref == NONE)
			return LS_ERR_NOMEM;
		attrs = o->attrs;
		OTF2_AttributeList_AddStringRef(attrs, o->attr[A_PATTERN], ref);
	}
	o->report.samples[m]++;
	return OTF2_EvtWriter_Metric(w, attrs, otf2out_ticks(o, t),
				     otf2out_metric_ref(o, m), 1, &type, &v) == OTF2_SUCCESS
	       ? 0 : LS_ERR_IO;
}

int otf2out_write_samples(struct otf2out *o, uint32_t s, int64_t t)
{
	struct out_cursor *c = &o->streams[s].samples;
	const struct out_sample *x;

	while ((x = out_cursor_peek(&o->samples, c)) && x->t <= t) {
		if (write_value(o, s, x->t, (enum metric)x->metric, x->value, x->pattern) < 0)
			return LS_ERR_IO;
		out_cursor_skip(c);
	}
	if (o->samples.err)
		return otf2out_sorted_failed(o, &o->samples, LS_ERR_IO);
	return 0;
}

int otf2out_blame_of(struct otf2out *o, uint32_t s, uint64_t id, struct out_frame *f)
{
	struct out_cursor *c = &o->streams[s].blame;
	const struct out_blame *x;

	while ((x = out_cursor_peek(&o->blame, c)) && x->to < id) {	/* an activity never entered */
		o->report.blame_unplaced++;
		out_cursor_skip(c);
	}
	if (o->blame.err)
		return otf2out_sorted_failed(o, &o->blame, LS_ERR_IO);
	if (!x || x->to != id)
		return 0;
	f->blamed = true;
	f->ns = x->ns;
	f->idle_ns = x->idle_ns;
	f->pattern = x->pattern;
	out_cursor_skip(c);
	return 1;
}

int otf2out_write_blame(struct otf2out *o, uint32_t s, int64_t t, const struct out_frame *f, bool at_leave)
{
	int rc = 0;

	if (f->ns || !f->idle_ns)
		rc = write_value(o, s, t, M_BLAME, at_leave ? (double)f->ns / 1e9 : 0,
				 at_leave ? f->pattern : LS_P__COUNT);
	if (rc == 0 && f->idle_ns)
		rc = write_value(o, s, t, M_IDLE_BLAME, at_leave ? (double)f->idle_ns / 1e9 : 0,
				 LS_P__COUNT);
	return rc;
}
