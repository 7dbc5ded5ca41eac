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
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/vec.h"
#include "../../libstream/check.h"
#include "../../libstream/error.h"
#include "otf2out_private.h"

static int add_sample(struct otf2out *o, uint32_t s, int64_t t, enum metric m,
		      double value, uint8_t pattern)
{
	if (ls_vec_room(&o->samples, &o->cap_samples, o->nsamples, sizeof(*o->samples)) < 0)
		return otf2out_fail(o, LS_ERR_NOMEM, "out of memory");
	o->samples[o->nsamples] = (struct out_sample){ t, s, o->nsamples, m, pattern, value };
	o->nsamples++;
	if (t < o->min_t || !o->any_event)
		o->min_t = t;
	if (t > o->max_t || !o->any_event)
		o->max_t = t;
	o->any_event = true;
	o->metrics[m] = true;
	return 0;
}

/*
 * A piece of the critical path on stream s: its start (+1) and end (-1).
 * The pieces come in path order, so one that begins where the stream's
 * last one ended lengthens it instead.
 */
static int add_crit(struct otf2out *o, uint32_t s, int64_t from, int64_t to)
{
	struct out_stream *st = &o->streams[s];
	int rc;

	if (st->crit_end != NONE && o->samples[st->crit_end].t == from) {
		o->samples[st->crit_end].t = to;
		if (to > o->max_t)
			o->max_t = to;
		return 0;
	}
	if ((rc = add_sample(o, s, from, M_CRIT, 1, LS_P__COUNT)) < 0)
		return rc;
	st->crit_end = o->nsamples;
	return add_sample(o, s, to, M_CRIT, -1, LS_P__COUNT);
}

static uint8_t pattern_of(const struct ls_record *rec)
{
	const char *p;
	uint32_t n;

	if (ls_get_str(rec, LS_F_PATTERN, &p, &n) < 0)
		return LS_P__COUNT;
	return (uint8_t)ls_pattern_lookup(p, n);
}

static int take_blame(struct otf2out *o, const struct ls_record *rec)
{
	uint64_t to, ns;
	uint8_t pattern = pattern_of(rec);
	uint32_t b;

	bool idle = pattern < LS_P__COUNT && ls_pattern_idle(pattern);
	struct out_blame *x;
	uint64_t *sum;

	ls_get_u64(rec, LS_F_TO, &to);
	ls_get_u64(rec, LS_F_NS, &ns);
	o->metrics[idle ? M_IDLE_BLAME : M_BLAME] = true;
	if (!ls_idmap_get(&o->blame_of, to, &b)) {
		if (ls_vec_room(&o->blame, &o->cap_blame, o->nblame, sizeof(*o->blame)) < 0 ||
		    ls_idmap_put(&o->blame_of, to, o->nblame) < 0)
			return otf2out_fail(o, LS_ERR_NOMEM, "out of memory");
		b = o->nblame++;
		o->blame[b] = (struct out_blame){ 0, 0, false, LS_P__COUNT };
	}
	x = &o->blame[b];
	sum = idle ? &x->idle_ns : &x->ns;
	if (!idle)	/* the one pattern of the blame for wait states */
		x->pattern = x->ns == 0 || x->pattern == pattern ? pattern : LS_P__COUNT;
	if (__builtin_add_overflow(*sum, ns, sum))
		return otf2out_fail(o, LS_ERR_SYNTAX, "the blame of activity %" PRIu64
				    " adds up to more than 2^64 ns", to);
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

static int by_stream_time(const void *a, const void *b)
{
	const struct out_sample *x = a, *y = b;

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * One stream's samples [i, end) with the critical path's as its changes:
 * the pieces' starts (+1) and ends (-1) are counted through each time, and
 * a value is kept only where being on the path (a count above 0) differs
 * after that time from before it, so pieces that meet leave nothing
 * between them; and at the stream's first event (a mark of 0), its value.
 */
static uint32_t crit_changes(struct otf2out *o, uint32_t i, uint32_t end, uint32_t out)
{
	int64_t count = 0;

	while (i < end) {
		int64_t t = o->samples[i].t, before = count;
		struct out_sample change = o->samples[i];
		bool first = false, crit = false;

		for (; i < end && o->samples[i].t == t; i++) {
			const struct out_sample *x = &o->samples[i];

			if (x->metric != M_CRIT) {
				o->samples[out++] = *x;
				continue;
			}
			count += (int64_t)x->value;
			first |= x->value == 0;
			change = *x;
			crit = true;
		}
		if (crit && (first || (before > 0) != (count > 0))) {
			change.value = count > 0;
			o->samples[out++] = change;
		}
	}
	return out;
}

int otf2out_place_samples(struct otf2out *o)
{
	uint32_t out = 0;

	for (uint32_t s = 0; o->metrics[M_CRIT] && s < o->defs.nstreams; s++)
		if (o->streams[s].any &&
		    add_sample(o, s, o->streams[s].first_t, M_CRIT, 0, LS_P__COUNT) < 0)
			return LS_ERR_NOMEM;
	if (o->nsamples)
		qsort(o->samples, o->nsamples, sizeof(*o->samples), by_stream_time);
	for (uint32_t i = 0; i < o->nsamples;) {
		uint32_t s = o->samples[i].s, end = i;

		while (end < o->nsamples && o->samples[end].s == s)
			end++;
		o->streams[s].next = out;
		out = crit_changes(o, i, end, out);
		o->streams[s].end = out;
		i = end;
	}
	o->nsamples = out;
	return 0;
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
	struct out_stream *st = &o->streams[s];

	for (; st->next < st->end && o->samples[st->next].t <= t; st->next++) {
		const struct out_sample *x = &o->samples[st->next];

		if (write_value(o, s, x->t, x->metric, x->value, x->pattern) < 0)
			return LS_ERR_IO;
	}
	return 0;
}

int otf2out_write_blame(struct otf2out *o, uint32_t s, int64_t t, uint32_t blame, bool at_leave)
{
	struct out_blame *b = &o->blame[blame];
	int rc = 0;

	b->placed |= at_leave;
	if (b->ns || !b->idle_ns)
		rc = write_value(o, s, t, M_BLAME, at_leave ? (double)b->ns / 1e9 : 0,
				 at_leave ? b->pattern : LS_P__COUNT);
	if (rc == 0 && b->idle_ns)
		rc = write_value(o, s, t, M_IDLE_BLAME, at_leave ? (double)b->idle_ns / 1e9 : 0,
				 LS_P__COUNT);
	return rc;
}
