/*
 * OTF2 events into the reader front. libotf2's global reader merges the
 * locations by timestamp: each new time tells the front that no earlier
 * event will come, so it holds only the events of one time, which it
 * writes ordered by stream (then as read).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "otf2in_private.h"
#include "vocab.h"

/*
 * Ticks to ns since the trace's start, exactly:
 * floor((ticks - offset) * 1e9 / resolution). In 64 bits as
 * d / res * 1e9 + d % res * 1e9 / res where that cannot overflow (every
 * clock below 18 GHz), in 128 bits otherwise and before the offset.
 */
__int128 otf2in_ticks_to_ns(const struct otf2in *in, OTF2_TimeStamp ticks)
{
	__int128 d, ns;

	if (in->resolution == 1000000000u && ticks >= in->offset)
		return ticks - in->offset;
	if (ticks >= in->offset && in->resolution <= UINT64_MAX / 1000000000u) {
		uint64_t u = ticks - in->offset;

		return u / in->resolution * 1000000000u +
		       u % in->resolution * 1000000000u / in->resolution;
	}
	d = (__int128)ticks - (__int128)in->offset;
	ns = d * 1000000000 / (__int128)in->resolution;
	if (d < 0 && ns * (__int128)in->resolution != d * 1000000000)
		ns--;
	return ns;
}

/*
 * The event's time in *t, checked: in the range a stream may hold, and
 * not before the event read before it (libotf2 merges the locations by
 * their next timestamp, so an event file out of order, as a damaged one
 * can be, shows here). Returns 0, or -1 after otf2in_fail.
 */
static int to_ns(struct otf2in *in, const struct location *l, OTF2_TimeStamp ticks, int64_t *t)
{
	__int128 ns = otf2in_ticks_to_ns(in, ticks);

	if (ns < LS_TIME_MIN || ns > LS_TIME_MAX)
		return otf2in_fail(in, LS_ERR_SYNTAX, "location %" PRIu64 " (%s): timestamp %" PRIu64
				   " is more than 2^62 ns from the trace's start (a damaged event file?)",
				   l->ref, l->name, ticks);
	*t = (int64_t)ns;
	if (in->any_event && *t < in->last_t)
		return otf2in_fail(in, LS_ERR_SYNTAX, "location %" PRIu64 " (%s): an event at %" PRId64
				   " ns after one at %" PRId64 " ns: events out of time order "
				   "(a damaged event file?)", l->ref, l->name, *t, in->last_t);
	in->any_event = true;
	in->last_t = *t;
	return 0;
}

/* A failure of the front, said as ours. */
static int front_failed(struct otf2in *in, int rc)
{
	return otf2in_fail(in, rc, "%s", ls_front_error(in->front)[0] ? ls_front_error(in->front)
								     : "cannot write the stream");
}

/*
 * The location of an event, if it is to be written; NULL (counted) if
 * undefined or left out by the options. A new time lets the front write
 * the events of the time before.
 */
static struct location *event_location(struct otf2in *in, OTF2_LocationRef ref,
				       OTF2_TimeStamp ticks, int64_t *t)
{
	struct location *l = otf2in_location(in, ref);
	int rc;

	if (!(++in->events_read & 0xffff))	/* how far, for a progress line */
		ls_front_input_at(in->front, in->events_read, in->events_total);
	if (!l) {
		in->report.undefined_location++;
		return NULL;
	}
	if (to_ns(in, l, ticks, t) < 0)
		return NULL;
	if (!ls_front_keeps(in->front, l->stream, *t))
		return NULL;
	if ((rc = ls_front_until(in->front, *t)) < 0) {
		front_failed(in, rc);
		return NULL;
	}
	return l;
}

static struct ls_event *add(struct otf2in *in, const struct location *l, int64_t t,
			    enum ls_kind kind)
{
	struct ls_event *ev = ls_front_add(in->front, l->stream, t, kind);

	if (!ev)
		front_failed(in, ls_front_failure(in->front));
	return ev;
}

#define CHECK_STATUS(in) ((in)->status < 0 ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS)

/* The attributes Score-P hangs on CUDA/HIP API calls. */
static void take_attributes(struct otf2in *in, struct ls_event *p, OTF2_AttributeList *attrs)
{
	uint32_t n = attrs ? OTF2_AttributeList_GetNumberOfElements(attrs) : 0;

	for (uint32_t i = 0; i < n; i++) {
		OTF2_AttributeRef ref;
		OTF2_Type type;
		OTF2_AttributeValue v;
		struct location *target;
		uint64_t u;

		if (OTF2_AttributeList_GetAttributeByIndex(attrs, i, &ref, &type, &v) != OTF2_SUCCESS)
			continue;
		u = type == OTF2_TYPE_UINT32 || type == OTF2_TYPE_INT32 ? v.uint32 :
		    type == OTF2_TYPE_UINT8 ? v.uint8 : type == OTF2_TYPE_UINT16 ? v.uint16 : v.uint64;
		if (ref == in->attr_stream_ref && type == OTF2_TYPE_LOCATION) {
			target = otf2in_location(in, v.locationRef);
			if (target) {
				p->ref_stream = target->stream;
				p->fields |= LS_EF_REF_STREAM;
			}
		} else if (ref == in->attr_event_ref) {
			p->cuda_event = u;
			p->fields |= LS_EF_CUDA_EVENT;
		} else if (ref == in->attr_result) {
			p->result = type == OTF2_TYPE_INT32 ? v.int32 : (int64_t)u;
			p->fields |= LS_EF_RESULT;
		}
	}
}

static int push(struct otf2in *in, struct location *l, uint32_t region, uint64_t enter)
{
	if (ls_vec_room(&l->stack, &l->cap, l->depth, sizeof(*l->stack)) < 0)
		return otf2in_fail(in, LS_ERR_NOMEM, "out of memory");
	l->stack[l->depth++] = (struct frame){ region, enter, false, 0 };
	return 0;
}

static OTF2_CallbackCode enter(struct otf2in *in, struct location *l, int64_t t, uint32_t region,
			       OTF2_AttributeList *attrs, uint64_t bytes)
{
	struct ls_event *p = add(in, l, t, LS_K_ENTER);

	if (!p)
		return OTF2_CALLBACK_INTERRUPT;
	p->region = region;
	take_attributes(in, p, attrs);
	if (bytes != UINT64_MAX) {
		p->bytes = bytes;
		p->fields |= LS_EF_BYTES;
	}
	push(in, l, region, p->seq);
	return CHECK_STATUS(in);
}

/* A leave; the front checks that it matches its stream's enter. */
static OTF2_CallbackCode leave(struct otf2in *in, struct location *l, int64_t t, uint32_t region,
			       OTF2_AttributeList *attrs)
{
	struct ls_event *p = add(in, l, t, LS_K_LEAVE);

	if (!p)
		return OTF2_CALLBACK_INTERRUPT;
	p->region = region;
	take_attributes(in, p, attrs);
	if (l->depth == 0)
		return OTF2_CALLBACK_SUCCESS;
	l->depth--;
	if (l->stack[l->depth].has_corr) {
		p->corr = l->stack[l->depth].corr;
		p->fields |= LS_EF_CORR;
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				  OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
	struct otf2in *in = data;
	int64_t t;
	struct location *l = event_location(in, ref, ticks, &t);

	if (!l)
		return CHECK_STATUS(in);
	if (region >= in->regions.n || !in->regions.v[region].defined) {
		in->report.ignored[IGN_ENTER_UNDEFINED]++;
		return OTF2_CALLBACK_SUCCESS;
	}
	return enter(in, l, t, region, attrs, UINT64_MAX);
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				  OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
	struct otf2in *in = data;
	int64_t t;
	struct location *l = event_location(in, ref, ticks, &t);

	if (!l)
		return CHECK_STATUS(in);
	if (region >= in->regions.n || !in->regions.v[region].defined) {
		in->report.ignored[IGN_LEAVE_UNDEFINED]++;
		return OTF2_CALLBACK_SUCCESS;
	}
	return leave(in, l, t, region, attrs);
}

/*
 * Score-P's "callsite id" links a launch to its kernel. It comes inside
 * the activity: on the device at the kernel's own timestamp, so it lands
 * on the enter the front still holds open; on the host later, so it
 * lands on the launch's leave.
 */
static void callsite(struct otf2in *in, struct location *l, uint64_t value)
{
	struct ls_event *ev;
	struct frame *f;

	if (l->depth == 0)
		return;
	f = &l->stack[l->depth - 1];
	f->has_corr = true;
	f->corr = value;
	if ((ev = ls_front_open(in->front, f->enter))) {
		ev->corr = value;
		ev->fields |= LS_EF_CORR;
	}
}

static OTF2_CallbackCode on_param_uint(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				       OTF2_AttributeList *attrs, OTF2_ParameterRef param,
				       uint64_t value)
{
	struct otf2in *in = data;
	int64_t t;
	struct location *l;

	(void)attrs;
	if (param != in->param_callsite) {
		in->report.ignored[IGN_PARAMETER]++;
		return OTF2_CALLBACK_SUCCESS;
	}
	l = event_location(in, ref, ticks, &t);
	if (l)
		callsite(in, l, value);
	return CHECK_STATUS(in);
}

static OTF2_CallbackCode on_param_int(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				      OTF2_AttributeList *attrs, OTF2_ParameterRef param,
				      int64_t value)
{
	return on_param_uint(ref, ticks, data, attrs, param, (uint64_t)value);
}

/* The MPI communicator comm if it was written, else NULL. */
static const struct comm *written_comm(const struct otf2in *in, OTF2_CommRef comm)
{
	return comm < in->comms.n && in->comms.v[comm].written && in->comms.v[comm].mpi ?
	       &in->comms.v[comm] : NULL;
}

/* A rank of communicator comm as a process id; NONE (counted) if unknown. */
static uint32_t peer_process(struct otf2in *in, const struct location *l, OTF2_CommRef comm,
			     uint32_t rank)
{
	const struct comm *c = written_comm(in, comm);

	if (c && c->n == 0 && c->process == NULL)	/* MPI_COMM_SELF */
		return in->lgroups.v[l->group].process;
	if (c && rank < c->n)
		return c->process[rank];
	in->report.unknown_peer++;
	return NONE;
}

static OTF2_CallbackCode message(struct otf2in *in, OTF2_LocationRef ref, OTF2_TimeStamp ticks,
				 enum ls_kind kind, uint32_t rank, OTF2_CommRef comm,
				 uint32_t tag, uint64_t bytes, const uint64_t *req)
{
	int64_t t;
	struct location *l = event_location(in, ref, ticks, &t);
	struct ls_event *p;
	uint32_t peer;

	if (!l)
		return CHECK_STATUS(in);
	peer = peer_process(in, l, comm, rank);
	if (peer == NONE)
		return OTF2_CALLBACK_SUCCESS;
	p = add(in, l, t, kind);
	if (!p)
		return OTF2_CALLBACK_INTERRUPT;
	p->peer = peer;
	p->comm = comm;
	p->tag = tag;
	p->bytes = bytes;
	if (req) {
		p->req = *req;
		p->fields |= LS_EF_REQ;
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_send(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				 OTF2_AttributeList *attrs, uint32_t receiver, OTF2_CommRef comm,
				 uint32_t tag, uint64_t bytes)
{
	(void)attrs;
	return message(data, ref, ticks, LS_K_SEND, receiver, comm, tag, bytes, NULL);
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				  OTF2_AttributeList *attrs, uint32_t receiver, OTF2_CommRef comm,
				  uint32_t tag, uint64_t bytes, uint64_t req)
{
	(void)attrs;
	return message(data, ref, ticks, LS_K_SEND, receiver, comm, tag, bytes, &req);
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				 OTF2_AttributeList *attrs, uint32_t sender, OTF2_CommRef comm,
				 uint32_t tag, uint64_t bytes)
{
	(void)attrs;
	return message(data, ref, ticks, LS_K_RECV, sender, comm, tag, bytes, NULL);
}

static OTF2_CallbackCode on_irecv(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				  OTF2_AttributeList *attrs, uint32_t sender, OTF2_CommRef comm,
				  uint32_t tag, uint64_t bytes, uint64_t req)
{
	(void)attrs;
	return message(data, ref, ticks, LS_K_RECV, sender, comm, tag, bytes, &req);
}

/* An event with at most one small field of its own: req (LS_EF_REQ) or aux. */
static OTF2_CallbackCode simple(struct otf2in *in, OTF2_LocationRef ref, OTF2_TimeStamp ticks,
				enum ls_kind kind, uint32_t field, uint64_t value)
{
	int64_t t;
	struct location *l = event_location(in, ref, ticks, &t);
	struct ls_event *p;

	if (!l)
		return CHECK_STATUS(in);
	p = add(in, l, t, kind);
	if (!p)
		return OTF2_CALLBACK_INTERRUPT;
	p->fields = field;
	if (field == LS_EF_REQ)
		p->req = value;
	else
		p->aux = value;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_isend_complete(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
					   OTF2_AttributeList *attrs, uint64_t req)
{
	(void)attrs;
	return simple(data, ref, ticks, LS_K_SEND_DONE, LS_EF_REQ, req);
}

static OTF2_CallbackCode on_irecv_request(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
					  OTF2_AttributeList *attrs, uint64_t req)
{
	(void)attrs;
	return simple(data, ref, ticks, LS_K_RECV_POST, LS_EF_REQ, req);
}

static OTF2_CallbackCode on_request_test(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
					 OTF2_AttributeList *attrs, uint64_t req)
{
	(void)attrs;
	return simple(data, ref, ticks, LS_K_REQ_TEST, LS_EF_REQ, req);
}

static OTF2_CallbackCode on_request_cancelled(OTF2_LocationRef ref, OTF2_TimeStamp ticks,
					      void *data, OTF2_AttributeList *attrs, uint64_t req)
{
	(void)attrs;
	return simple(data, ref, ticks, LS_K_REQ_CANCEL, LS_EF_REQ, req);
}

static OTF2_CallbackCode on_coll_begin(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				       OTF2_AttributeList *attrs)
{
	(void)attrs;
	return simple(data, ref, ticks, LS_K_COLL_BEGIN, 0, 0);
}

static OTF2_CallbackCode on_coll_end(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				     OTF2_AttributeList *attrs, OTF2_CollectiveOp op,
				     OTF2_CommRef comm, uint32_t root, uint64_t sent,
				     uint64_t recvd)
{
	struct otf2in *in = data;
	int64_t t;
	struct location *l = event_location(in, ref, ticks, &t);
	struct ls_event *p;

	(void)attrs;
	if (!l)
		return CHECK_STATUS(in);
	if (!written_comm(in, comm)) {
		in->report.unknown_comm++;
		return OTF2_CALLBACK_SUCCESS;
	}
	p = add(in, l, t, LS_K_COLL_END);
	if (!p)
		return OTF2_CALLBACK_INTERRUPT;
	p->comm = comm;
	p->sent = sent;
	p->recvd = recvd;
	p->op = otf2_op_name(op);
	if (root != OTF2_UNDEFINED_UINT32) {
		p->root = peer_process(in, l, comm, root);
		if (p->root != NONE)
			p->fields |= LS_EF_ROOT;
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_fork(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				 OTF2_AttributeList *attrs, OTF2_Paradigm model, uint32_t threads)
{
	(void)attrs, (void)model;
	return simple(data, ref, ticks, LS_K_FORK, LS_EF_AUX, threads);
}

static OTF2_CallbackCode on_join(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				 OTF2_AttributeList *attrs, OTF2_Paradigm model)
{
	(void)attrs, (void)model;
	return simple(data, ref, ticks, LS_K_JOIN, 0, 0);
}

static OTF2_CallbackCode on_team_begin(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				       OTF2_AttributeList *attrs, OTF2_CommRef team)
{
	(void)attrs, (void)team;
	return simple(data, ref, ticks, LS_K_TEAM_BEGIN, 0, 0);
}

static OTF2_CallbackCode on_team_end(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				     OTF2_AttributeList *attrs, OTF2_CommRef team)
{
	(void)attrs, (void)team;
	return simple(data, ref, ticks, LS_K_TEAM_END, 0, 0);
}

static OTF2_CallbackCode on_acquire(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				    OTF2_AttributeList *attrs, OTF2_Paradigm model, uint32_t lock,
				    uint32_t order)
{
	(void)attrs, (void)model, (void)order;
	return simple(data, ref, ticks, LS_K_LOCK_ACQUIRE, LS_EF_AUX, lock);
}

static OTF2_CallbackCode on_release(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				    OTF2_AttributeList *attrs, OTF2_Paradigm model, uint32_t lock,
				    uint32_t order)
{
	(void)attrs, (void)model, (void)order;
	return simple(data, ref, ticks, LS_K_LOCK_RELEASE, LS_EF_AUX, lock);
}

static OTF2_CallbackCode on_measurement(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
					OTF2_AttributeList *attrs, OTF2_MeasurementMode mode)
{
	(void)attrs;
	return simple(data, ref, ticks, LS_K_MEASURE, LS_EF_AUX, mode == OTF2_MEASUREMENT_ON);
}

/* One sample per member of the metric class (an instance names its class). */
static OTF2_CallbackCode on_metric(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				   OTF2_AttributeList *attrs, OTF2_MetricRef metric, uint8_t n,
				   const OTF2_Type *types, const OTF2_MetricValue *values)
{
	struct otf2in *in = data;
	const struct metric *m = metric < in->metrics.n ? &in->metrics.v[metric] : NULL;
	int64_t t;
	struct location *l;

	(void)attrs;
	if (m && m->class_ref != NONE)
		m = m->class_ref < in->metrics.n ? &in->metrics.v[m->class_ref] : NULL;
	if (!m || !m->defined || m->n != n) {
		in->report.ignored[IGN_METRIC_UNDEFINED]++;
		return OTF2_CALLBACK_SUCCESS;
	}
	l = event_location(in, ref, ticks, &t);
	if (!l)
		return CHECK_STATUS(in);
	for (uint8_t i = 0; i < n; i++) {
		struct ls_event *p;

		if (m->members[i] >= in->members.n || !in->members.v[m->members[i]].defined) {
			in->report.unknown_counter++;
			continue;
		}
		if (!(p = add(in, l, t, LS_K_SAMPLE)))
			return OTF2_CALLBACK_INTERRUPT;
		p->fields = LS_EF_AUX;
		p->aux = m->members[i];
		if (types[i] == OTF2_TYPE_DOUBLE) {
			p->val_type = LS_VAL_F64;
			p->val.f = values[i].floating_point;
		} else if (types[i] == OTF2_TYPE_INT64) {
			p->val_type = LS_VAL_INT;
			p->val.i = values[i].signed_int;
		} else {
			p->val_type = LS_VAL_UINT;
			p->val.u = values[i].unsigned_int;
		}
	}
	return OTF2_CALLBACK_SUCCESS;
}

/* Score-P writes a device copy as an RMA get (HtoD) or put (DtoH) on the
 * GPU stream, ended by an RMA completion: an activity of ours. */
static OTF2_CallbackCode copy_begin(struct otf2in *in, OTF2_LocationRef ref, OTF2_TimeStamp ticks,
				    uint32_t region, uint64_t bytes)
{
	int64_t t;
	struct location *l = event_location(in, ref, ticks, &t);

	if (!l)
		return CHECK_STATUS(in);
	return enter(in, l, t, region, NULL, bytes);
}

static OTF2_CallbackCode on_rma_get(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				    OTF2_AttributeList *attrs, OTF2_RmaWinRef win, uint32_t remote,
				    uint64_t bytes, uint64_t matching)
{
	struct otf2in *in = data;

	(void)attrs, (void)win, (void)remote, (void)matching;
	return copy_begin(in, ref, ticks, in->region_htod, bytes);
}

static OTF2_CallbackCode on_rma_put(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				    OTF2_AttributeList *attrs, OTF2_RmaWinRef win, uint32_t remote,
				    uint64_t bytes, uint64_t matching)
{
	struct otf2in *in = data;

	(void)attrs, (void)win, (void)remote, (void)matching;
	return copy_begin(in, ref, ticks, in->region_dtoh, bytes);
}

static OTF2_CallbackCode on_rma_complete(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
					 OTF2_AttributeList *attrs, OTF2_RmaWinRef win,
					 uint64_t matching)
{
	struct otf2in *in = data;
	int64_t t;
	struct location *l = event_location(in, ref, ticks, &t);
	uint32_t top;

	(void)attrs, (void)win, (void)matching;
	if (!l)
		return CHECK_STATUS(in);
	top = l->depth ? l->stack[l->depth - 1].region : NONE;
	if (top != in->region_htod && top != in->region_dtoh) {
		in->report.rma_unmatched++;
		return OTF2_CALLBACK_SUCCESS;
	}
	return leave(in, l, t, top, NULL);
}

static OTF2_CallbackCode on_unknown(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				    OTF2_AttributeList *attrs)
{
	struct otf2in *in = data;

	(void)ref, (void)ticks, (void)attrs;
	in->report.unknown_records++;
	return OTF2_CALLBACK_SUCCESS;
}

/*
 * Record types with no meaning to the analysis (OpenMP tasks, program
 * begin and end, RMA windows, pthread create/wait, buffer flushes) are
 * left out, and counted so that --stats accounts for every record.
 */
#define UNUSED __attribute__((unused))
#define IGNORED(name, ...) \
	static OTF2_CallbackCode ignore_##name(OTF2_LocationRef ref UNUSED, \
					       OTF2_TimeStamp ticks UNUSED, void *data, \
					       OTF2_AttributeList *attrs UNUSED, __VA_ARGS__) \
	{ \
		((struct otf2in *)data)->report.ignored[IGN_##name]++; \
		return OTF2_CALLBACK_SUCCESS; \
	}

IGNORED(ProgramBegin, OTF2_StringRef a UNUSED, uint32_t b UNUSED, const OTF2_StringRef *c UNUSED)
IGNORED(ProgramEnd, int64_t a UNUSED)
IGNORED(RmaWinCreate, OTF2_RmaWinRef a UNUSED)
IGNORED(RmaWinDestroy, OTF2_RmaWinRef a UNUSED)
IGNORED(ThreadTaskCreate, OTF2_CommRef a UNUSED, uint32_t b UNUSED, uint32_t c UNUSED)
IGNORED(ThreadTaskSwitch, OTF2_CommRef a UNUSED, uint32_t b UNUSED, uint32_t c UNUSED)
IGNORED(ThreadTaskComplete, OTF2_CommRef a UNUSED, uint32_t b UNUSED, uint32_t c UNUSED)
IGNORED(ThreadCreate, OTF2_CommRef a UNUSED, uint64_t b UNUSED)
IGNORED(ThreadBegin, OTF2_CommRef a UNUSED, uint64_t b UNUSED)
IGNORED(ThreadWait, OTF2_CommRef a UNUSED, uint64_t b UNUSED)
IGNORED(ThreadEnd, OTF2_CommRef a UNUSED, uint64_t b UNUSED)
IGNORED(BufferFlush, OTF2_TimeStamp a UNUSED)
IGNORED(ParameterString, OTF2_ParameterRef a UNUSED, OTF2_StringRef b UNUSED)

int otf2in_register_events(struct otf2in *in, OTF2_GlobalEvtReader *reader)
{
	OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();

	if (!cb)
		return otf2in_fail(in, LS_ERR_NOMEM, "out of memory");
	OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, on_enter);
	OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
	OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
	OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
	OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_isend_complete);
	OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request);
	OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
	OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
	OTF2_GlobalEvtReaderCallbacks_SetMpiRequestTestCallback(cb, on_request_test);
	OTF2_GlobalEvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_request_cancelled);
	OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_coll_begin);
	OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_coll_end);
	OTF2_GlobalEvtReaderCallbacks_SetThreadForkCallback(cb, on_fork);
	OTF2_GlobalEvtReaderCallbacks_SetThreadJoinCallback(cb, on_join);
	OTF2_GlobalEvtReaderCallbacks_SetThreadTeamBeginCallback(cb, on_team_begin);
	OTF2_GlobalEvtReaderCallbacks_SetThreadTeamEndCallback(cb, on_team_end);
	OTF2_GlobalEvtReaderCallbacks_SetThreadAcquireLockCallback(cb, on_acquire);
	OTF2_GlobalEvtReaderCallbacks_SetThreadReleaseLockCallback(cb, on_release);
	OTF2_GlobalEvtReaderCallbacks_SetMeasurementOnOffCallback(cb, on_measurement);
	OTF2_GlobalEvtReaderCallbacks_SetMetricCallback(cb, on_metric);
	OTF2_GlobalEvtReaderCallbacks_SetRmaGetCallback(cb, on_rma_get);
	OTF2_GlobalEvtReaderCallbacks_SetRmaPutCallback(cb, on_rma_put);
	OTF2_GlobalEvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(cb, on_rma_complete);
	OTF2_GlobalEvtReaderCallbacks_SetParameterIntCallback(cb, on_param_int);
	OTF2_GlobalEvtReaderCallbacks_SetParameterUnsignedIntCallback(cb, on_param_uint);
	OTF2_GlobalEvtReaderCallbacks_SetUnknownCallback(cb, on_unknown);
#define SET_IGNORED(name) OTF2_GlobalEvtReaderCallbacks_Set##name##Callback(cb, ignore_##name)
	SET_IGNORED(ProgramBegin);
	SET_IGNORED(ProgramEnd);
	SET_IGNORED(RmaWinCreate);
	SET_IGNORED(RmaWinDestroy);
	SET_IGNORED(ThreadTaskCreate);
	SET_IGNORED(ThreadTaskSwitch);
	SET_IGNORED(ThreadTaskComplete);
	SET_IGNORED(ThreadCreate);
	SET_IGNORED(ThreadBegin);
	SET_IGNORED(ThreadWait);
	SET_IGNORED(ThreadEnd);
	SET_IGNORED(BufferFlush);
	SET_IGNORED(ParameterString);
	OTF2_GlobalEvtReader_SetCallbacks(reader, cb, in);
	OTF2_GlobalEvtReaderCallbacks_Delete(cb);
	return 0;
}

int otf2in_finish_events(struct otf2in *in)
{
	int rc = ls_front_finish(in->front);

	return rc < 0 ? front_failed(in, rc) : 0;
}
