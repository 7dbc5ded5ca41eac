/*
 * The second pass over a Kineto file: each activity (a start and a
 * duration) as an enter and a leave on its stream, tied so that
 * activities given in any order nest (ls_event_tie); each call with the
 * stream and CUDA event its correlation id says it refers to; an NCCL
 * kernel matched across ranks with its part in the collective inside it.
 */
#include <stdio.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/tmpfile.h"
#include "kinetoin_private.h"

/* Room for an event at t on stream, with its tie; NULL where -p, -s or -t leave it out, or on an error. */
static struct ls_event *add(struct kinetoin *in, uint32_t stream, int64_t t, enum ls_kind kind, uint64_t tie,
			    int *rc)
{
	struct ls_event *ev;

	if (*rc < 0 || !ls_front_keeps(in->front, stream, t))
		return NULL;
	if (!(ev = ls_front_add(in->front, stream, t, kind))) {
		*rc = ls_front_failure(in->front);
		return NULL;
	}
	ev->tie = tie;
	return ev;
}

/* The correlation id of an event (GPU side, or a call), where it has one. */
static void corr(const struct kev *kv, struct ls_event *ev)
{
	if ((kv->has & KA_CORR) && kv->corr >= 0) {
		ev->corr = (uint64_t)kv->corr;
		ev->fields |= LS_EF_CORR;
	}
}

/* What a call's correlation id says (refs.c): the stream and event it refers to. */
static void refers(const struct kfile *f, const struct kref *r, struct ls_event *ev)
{
	if (r->gpu != UINT32_MAX) {
		ev->ref_stream = f->gpus.v[r->gpu].id;
		ev->fields |= LS_EF_REF_STREAM;
	}
	if (r->waited != UINT32_MAX) {
		ev->wait_stream = f->gpus.v[r->waited].id;
		ev->fields |= LS_EF_WAIT_STREAM;
	}
	if (r->event >= 0) {
		ev->cuda_event = (uint64_t)r->event;
		ev->fields |= LS_EF_CUDA_EVENT;
	}
}

/* The file changed between the passes: said. */
static int changed(struct kinetoin *in, const struct kfile *f)
{
	snprintf(in->err, in->errlen, "%s%schanged while it was read", in->label ? f->path : "", in->label ? ": " : "");
	return LS_ERR_SYNTAX;
}

/* The next call of the file with what its correlation id says, as refs.c gives them back in the order met. */
static int next_call(struct kinetoin *in, struct kfile *f, const struct kref **r)
{
	if (!(*r = kineto_ref(in)) && in->refs.err) {
		snprintf(in->err, in->errlen, "cannot read back a temporary file in %s: %s", ls_tmp_named(),
			 strerror(in->refs.err));
		return LS_ERR_IO;
	}
	return *r && (*r)->file == (uint32_t)(f - in->files) && (*r)->ordinal == f->calls++ ? 0 : changed(in, f);
}

/* An NCCL kernel's (kv) part in comm's collective (op): begin (end false) or end. */
static void collective(struct kinetoin *in, const struct kev *kv, uint32_t comm, const char *op, uint32_t stream,
		       int64_t t, uint64_t tie, bool end, int *rc)
{
	struct ls_event *ev;

	if (!(ev = add(in, stream, t, end ? LS_K_COLL_END : LS_K_COLL_BEGIN, tie, rc)))
		return;
	if (end) {
		ev->comm = comm;
		ev->op = op;
		kineto_nccl_bytes(kv, &ev->sent, &ev->recvd);
	}
}

/* The stream of an activity of class c, which the first pass found; UINT32_MAX where it did not. */
static uint32_t stream_of(struct kfile *f, const struct kev *kv, enum kclass c)
{
	uint32_t ix;
	int rc = 0;

	if (c == KC_HOST || c == KC_API)
		return (ix = kineto_stream(&f->hosts, kv->pid, kv->tid, false, &rc)) == UINT32_MAX ? ix : f->hosts.v[ix].id;
	ix = kineto_stream(&f->gpus, kv->has & KA_DEVICE ? kv->device : kv->pid, kv->has & KA_STREAM ? kv->stream : kv->tid,
			false, &rc);
	return ix == UINT32_MAX ? ix : f->gpus.v[ix].id;
}

int kineto_events(void *ctx, const struct kev *kv)
{
	struct kinetoin *in = ctx;
	struct kfile *f = in->f;
	enum kclass c = kineto_class(kv);
	int64_t dur = (kv->has & KA_DUR) ? kv->dur : 0, t0, t1, from, to;
	uint32_t region, stream, comm;
	const struct kref *r = NULL;
	const char *op = NULL;
	struct ls_event *ev;
	int rc = 0;

	kineto_progress(in);
	if (c == KC_META || c == KC_SKIP || c == KC_SYNC || c == KC_SPAN || dur < 0 || kv->ts > INT64_MAX - dur)
		return 0;
	from = kv->ts;
	to = kv->ts + dur;
	if ((c == KC_HOST || c == KC_API) && kineto_clip(f, &from, &to)) {
		in->clipped++;
		dur = to - from;
	}
	t0 = f->top.base + from - in->origin;
	t1 = t0 + dur;
	if (c == KC_API) {
		if ((rc = next_call(in, f, &r)) < 0)
			return rc;
		region = r->region;
	} else if ((rc = kineto_region(in, kv, c, &region)) < 0) {
		return rc;
	}
	if ((stream = stream_of(f, kv, c)) == UINT32_MAX)
		return changed(in, f);
	if ((ev = add(in, stream, t0, LS_K_ENTER, ls_event_tie(dur, false), &rc))) {
		ev->region = region;
		if (c != KC_HOST)
			corr(kv, ev);
		if (r)
			refers(f, r, ev);
		if ((c == KC_COPY || c == KC_SET) && (kv->has & KA_BYTES) && kv->bytes >= 0) {
			ev->bytes = (uint64_t)kv->bytes;
			ev->fields |= LS_EF_BYTES;
		}
	}
	if (c == KC_KERNEL && (comm = kineto_nccl_comm(in, kv, &op)) != UINT32_MAX) {
		collective(in, kv, comm, op, stream, t0, ls_event_tie(dur, false), false, &rc);
		collective(in, kv, comm, op, stream, t1, ls_event_tie_inside(dur), true, &rc);
	}
	if ((ev = add(in, stream, t1, LS_K_LEAVE, ls_event_tie(dur, true), &rc))) {
		ev->region = region;
		if (c != KC_HOST)
			corr(kv, ev);	/* as on its enter */
	}
	return rc;
}
