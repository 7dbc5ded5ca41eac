/*
 * OTF2 events into event records. libotf2's global reader merges the
 * locations by timestamp; events with the same timestamp wait in a buffer
 * and are written ordered by stream (then as read), so the output keeps
 * the stream's (t, s) order whatever order libotf2 breaks ties in.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "otf2in_private.h"
#include "vocab.h"

/*
 * Ticks to ns since the trace's start, exactly:
 * floor((ticks - offset) * 1e9 / resolution). In 64 bits as
 * d / res * 1e9 + d % res * 1e9 / res where that cannot overflow (every
 * clock below 18 GHz), in 128 bits otherwise and before the offset.
 */
static __int128 ticks_to_ns(const struct otf2in *in, OTF2_TimeStamp ticks)
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
	__int128 ns = ticks_to_ns(in, ticks);

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

static int write_pending(struct otf2in *in, const struct pending *p, int64_t t)
{
		uint32_t n = 4;

	for (uint32_t bits = p->fields; bits; bits &= bits - 1)
		n++;

	switch (p->kind) {
	case LS_K_ENTER:
	case LS_K_LEAVE:
		n += 1;
		break;
	case LS_K_SEND:
	case LS_K_RECV:
		n += 4;
		break;
	case LS_K_COLL_END:
		n += 4;
		break;
	case LS_K_SAMPLE:
		n += 1;
		break;
	default:
		break;
	}
	ls_build_begin(in->w, n);
	ls_put_kind(in->w, p->kind);
	ls_put_u64(in->w, LS_F_ID, in->next_id++);
	ls_put_i64(in->w, LS_F_T, t);
	ls_put_u64(in->w, LS_F_S, p->stream);
	switch (p->kind) {
	case LS_K_ENTER:
	case LS_K_LEAVE:
		ls_put_u64(in->w, LS_F_R, p->region);
		break;
	case LS_K_SEND:
	case LS_K_RECV:
		ls_put_u64(in->w, LS_F_PEER, p->peer);
		ls_put_i64(in->w, LS_F_TAG, p->tag);
		ls_put_u64(in->w, LS_F_COMM, p->comm);
		ls_put_u64(in->w, LS_F_BYTES, p->bytes);
		break;
	case LS_K_COLL_END:
		ls_put_u64(in->w, LS_F_COMM, p->comm);
		ls_put_u64(in->w, LS_F_SENT, p->sent);
		ls_put_u64(in->w, LS_F_RECVD, p->recvd);
		ls_put_str(in->w, LS_F_OP, p->op);
		break;
	default:
		break;
	}
	if (p->fields & PF_REF_STREAM)
		ls_put_u64(in->w, LS_F_REF_STREAM, p->ref_stream);
	if (p->fields & PF_CUDA_EVENT)
		ls_put_u64(in->w, LS_F_CUDA_EVENT, p->cuda_event);
	if (p->fields & PF_RESULT)
		ls_put_i64(in->w, LS_F_RESULT, p->result);
	if (p->fields & PF_CORR)
		ls_put_u64(in->w, LS_F_CORR, p->corr);
	if (p->fields & PF_BYTES)
		ls_put_u64(in->w, LS_F_BYTES, p->bytes);
	if (p->fields & PF_REQ)
		ls_put_u64(in->w, LS_F_REQ, p->req);
	if (p->fields & PF_ROOT)
		ls_put_u64(in->w, LS_F_ROOT, p->root);
	if (p->fields & PF_AUX) {
		switch (p->kind) {
		case LS_K_FORK:
			ls_put_u64(in->w, LS_F_THREADS, p->aux);
			break;
		case LS_K_LOCK_ACQUIRE:
		case LS_K_LOCK_RELEASE:
			ls_put_u64(in->w, LS_F_LOCK, p->aux);
			break;
		case LS_K_MEASURE:
			ls_put_bool(in->w, LS_F_ON, p->aux != 0);
			break;
		case LS_K_SAMPLE:
			ls_put_u64(in->w, LS_F_COUNTER, p->aux);
			break;
		default:
			break;
		}
	}
	if (p->kind == LS_K_SAMPLE) {
		if (p->val_type == OTF2_TYPE_DOUBLE)
			ls_put_f64(in->w, LS_F_VAL, p->val.floating_point);
		else if (p->val_type == OTF2_TYPE_INT64)
			ls_put_i64(in->w, LS_F_VAL, p->val.signed_int);
		else
			ls_put_u64(in->w, LS_F_VAL, p->val.unsigned_int);
	}
	in->report->kinds[p->kind]++;
	if (p->kind == LS_K_ENTER)
		in->report->roles[in->regions.v[p->region].role]++;
	return ls_build_end(in->w);
}

static int by_stream(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Mostly one or two events share a timestamp: insertion sort those. */
static void sort_by_stream(struct pending *p, uint32_t n)
{
	if (n > 8) {
		qsort(p, n, sizeof(*p), by_stream);
		return;
	}
	for (uint32_t i = 1; i < n; i++) {
		struct pending x = p[i];
		uint32_t j = i;

		while (j > 0 && by_stream(&p[j - 1], &x) > 0) {
			p[j] = p[j - 1];
			j--;
		}
		p[j] = x;
	}
}

static int flush(struct otf2in *in)
{
	int rc = 0;

	/* no frame may point into the buffer once it is written */
	for (uint32_t i = 0; i < in->nbuf; i++) {
		const struct pending *p = &in->buf[i];
		struct location *l = &in->locs[p->loc];

		if (p->kind == LS_K_ENTER && p->depth < l->depth && l->stack[p->depth].pending == i)
			l->stack[p->depth].pending = NONE;
	}
	sort_by_stream(in->buf, in->nbuf);
	for (uint32_t i = 0; i < in->nbuf && rc == 0; i++)
		rc = write_pending(in, &in->buf[i], in->buf_t);
	in->nbuf = 0;
	if (rc < 0)
		return otf2in_fail(in, rc, "cannot write the stream");
	return 0;
}

/*
 * The location of an event, if it is to be written; NULL (counted) if
 * undefined or left out by the options. Flushes the buffer when time moves on.
 */
static struct location *event_location(struct otf2in *in, OTF2_LocationRef ref,
				       OTF2_TimeStamp ticks, int64_t *t)
{
	struct location *l = otf2in_location(in, ref);

	if (!l) {
		in->report->undefined_location++;
		return NULL;
	}
	if (to_ns(in, l, ticks, t) < 0)
		return NULL;
	if (!l->selected || (in->opt->window && (*t < in->opt->begin || *t > in->opt->end))) {
		in->report->filtered++;
		return NULL;
	}
	if (in->nbuf > 0 && *t != in->buf_t && flush(in) < 0)
		return NULL;
	in->buf_t = *t;
	return l;
}

static struct pending *add(struct otf2in *in, const struct location *l, enum ls_kind kind)
{
	struct pending *p;

	if (in->nbuf == in->capbuf) {
		uint32_t cap = in->capbuf ? 2 * in->capbuf : 256;
		struct pending *grown = realloc(in->buf, cap * sizeof(*grown));

		if (!grown) {
			otf2in_fail(in, LS_ERR_NOMEM, "out of memory");
			return NULL;
		}
		in->buf = grown;
		in->capbuf = cap;
	}
	/* only what every kind reads is set; the rest is set by the kind's maker */
	p = &in->buf[in->nbuf++];
	p->kind = kind;
	p->stream = l->stream;
	p->loc = (uint32_t)(l - in->locs);
	p->fields = 0;
	p->seq = in->seq++;
	return p;
}

#define CHECK_STATUS(in) ((in)->status < 0 ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS)

/* The attributes Score-P hangs on CUDA/HIP API calls. */
static void take_attributes(struct otf2in *in, struct pending *p, OTF2_AttributeList *attrs)
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
				p->fields |= PF_REF_STREAM;
			}
		} else if (ref == in->attr_event_ref) {
			p->cuda_event = u;
			p->fields |= PF_CUDA_EVENT;
		} else if (ref == in->attr_result) {
			p->result = type == OTF2_TYPE_INT32 ? v.int32 : (int64_t)u;
			p->fields |= PF_RESULT;
		}
	}
}

static int push(struct otf2in *in, struct location *l, uint32_t region, uint32_t pending)
{
	if (l->depth == l->cap) {
		uint32_t cap = l->cap ? 2 * l->cap : 16;
		struct frame *grown = realloc(l->stack, cap * sizeof(*grown));

		if (!grown)
			return otf2in_fail(in, LS_ERR_NOMEM, "out of memory");
		l->stack = grown;
		l->cap = cap;
	}
	l->stack[l->depth++] = (struct frame){ region, pending, false, 0 };
	return 0;
}

static OTF2_CallbackCode enter(struct otf2in *in, struct location *l, uint32_t region,
			       OTF2_AttributeList *attrs, uint64_t bytes)
{
	struct pending *p = add(in, l, LS_K_ENTER);

	if (!p)
		return OTF2_CALLBACK_INTERRUPT;
	p->region = region;
	p->depth = l->depth;
	take_attributes(in, p, attrs);
	if (bytes != UINT64_MAX) {
		p->bytes = bytes;
		p->fields |= PF_BYTES;
	}
	push(in, l, region, in->nbuf - 1);
	return CHECK_STATUS(in);
}

static OTF2_CallbackCode leave(struct otf2in *in, struct location *l, uint32_t region,
			       OTF2_AttributeList *attrs)
{
	struct pending *p = add(in, l, LS_K_LEAVE);

	if (!p)
		return OTF2_CALLBACK_INTERRUPT;
	p->region = region;
	take_attributes(in, p, attrs);
	if (l->depth == 0) {
		in->report->leave_without_enter++;
		return OTF2_CALLBACK_SUCCESS;
	}
	l->depth--;
	if (l->stack[l->depth].region != region)
		in->report->leave_mismatch++;
	if (l->stack[l->depth].has_corr) {
		p->corr = l->stack[l->depth].corr;
		p->fields |= PF_CORR;
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
		in->report->ignored_records++;
		return OTF2_CALLBACK_SUCCESS;
	}
	return enter(in, l, region, attrs, UINT64_MAX);
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
		in->report->ignored_records++;
		return OTF2_CALLBACK_SUCCESS;
	}
	return leave(in, l, region, attrs);
}

/*
 * Score-P's "callsite id" links a launch to its kernel. It comes inside
 * the activity: on the device at the kernel's own timestamp, so it lands
 * on the enter still waiting in the buffer; on the host later, so it
 * lands on the launch's leave.
 */
static void callsite(struct otf2in *in, struct location *l, uint64_t value)
{
	struct frame *f;

	if (l->depth == 0)
		return;
	f = &l->stack[l->depth - 1];
	f->has_corr = true;
	f->corr = value;
	if (f->pending != NONE) {
		in->buf[f->pending].corr = value;
		in->buf[f->pending].fields |= PF_CORR;
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
		in->report->ignored_records++;
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
	in->report->unknown_peer++;
	return NONE;
}

static OTF2_CallbackCode message(struct otf2in *in, OTF2_LocationRef ref, OTF2_TimeStamp ticks,
				 enum ls_kind kind, uint32_t rank, OTF2_CommRef comm,
				 uint32_t tag, uint64_t bytes, const uint64_t *req)
{
	int64_t t;
	struct location *l = event_location(in, ref, ticks, &t);
	struct pending *p;
	uint32_t peer;

	if (!l)
		return CHECK_STATUS(in);
	peer = peer_process(in, l, comm, rank);
	if (peer == NONE)
		return OTF2_CALLBACK_SUCCESS;
	p = add(in, l, kind);
	if (!p)
		return OTF2_CALLBACK_INTERRUPT;
	p->peer = peer;
	p->comm = comm;
	p->tag = tag;
	p->bytes = bytes;
	if (req) {
		p->req = *req;
		p->fields |= PF_REQ;
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

/* An event with at most one small field of its own: req (PF_REQ) or aux. */
static OTF2_CallbackCode simple(struct otf2in *in, OTF2_LocationRef ref, OTF2_TimeStamp ticks,
				enum ls_kind kind, uint32_t field, uint64_t value)
{
	int64_t t;
	struct location *l = event_location(in, ref, ticks, &t);
	struct pending *p;

	if (!l)
		return CHECK_STATUS(in);
	p = add(in, l, kind);
	if (!p)
		return OTF2_CALLBACK_INTERRUPT;
	p->fields = field;
	if (field == PF_REQ)
		p->req = value;
	else
		p->aux = value;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_isend_complete(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
					   OTF2_AttributeList *attrs, uint64_t req)
{
	(void)attrs;
	return simple(data, ref, ticks, LS_K_SEND_DONE, PF_REQ, req);
}

static OTF2_CallbackCode on_irecv_request(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
					  OTF2_AttributeList *attrs, uint64_t req)
{
	(void)attrs;
	return simple(data, ref, ticks, LS_K_RECV_POST, PF_REQ, req);
}

static OTF2_CallbackCode on_request_test(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
					 OTF2_AttributeList *attrs, uint64_t req)
{
	(void)attrs;
	return simple(data, ref, ticks, LS_K_REQ_TEST, PF_REQ, req);
}

static OTF2_CallbackCode on_request_cancelled(OTF2_LocationRef ref, OTF2_TimeStamp ticks,
					      void *data, OTF2_AttributeList *attrs, uint64_t req)
{
	(void)attrs;
	return simple(data, ref, ticks, LS_K_REQ_CANCEL, PF_REQ, req);
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
	struct pending *p;

	(void)attrs;
	if (!l)
		return CHECK_STATUS(in);
	if (!written_comm(in, comm)) {
		in->report->unknown_comm++;
		return OTF2_CALLBACK_SUCCESS;
	}
	p = add(in, l, LS_K_COLL_END);
	if (!p)
		return OTF2_CALLBACK_INTERRUPT;
	p->comm = comm;
	p->sent = sent;
	p->recvd = recvd;
	p->op = otf2_op_name(op);
	if (root != OTF2_UNDEFINED_UINT32) {
		p->root = peer_process(in, l, comm, root);
		if (p->root != NONE)
			p->fields |= PF_ROOT;
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_fork(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				 OTF2_AttributeList *attrs, OTF2_Paradigm model, uint32_t threads)
{
	(void)attrs, (void)model;
	return simple(data, ref, ticks, LS_K_FORK, PF_AUX, threads);
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
	return simple(data, ref, ticks, LS_K_LOCK_ACQUIRE, PF_AUX, lock);
}

static OTF2_CallbackCode on_release(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				    OTF2_AttributeList *attrs, OTF2_Paradigm model, uint32_t lock,
				    uint32_t order)
{
	(void)attrs, (void)model, (void)order;
	return simple(data, ref, ticks, LS_K_LOCK_RELEASE, PF_AUX, lock);
}

static OTF2_CallbackCode on_measurement(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
					OTF2_AttributeList *attrs, OTF2_MeasurementMode mode)
{
	(void)attrs;
	return simple(data, ref, ticks, LS_K_MEASURE, PF_AUX, mode == OTF2_MEASUREMENT_ON);
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
		in->report->ignored_records++;
		return OTF2_CALLBACK_SUCCESS;
	}
	l = event_location(in, ref, ticks, &t);
	if (!l)
		return CHECK_STATUS(in);
	for (uint8_t i = 0; i < n; i++) {
		struct pending *p;

		if (m->members[i] >= in->members.n || !in->members.v[m->members[i]].defined) {
			in->report->unknown_counter++;
			continue;
		}
		if (!(p = add(in, l, LS_K_SAMPLE)))
			return OTF2_CALLBACK_INTERRUPT;
		p->fields = PF_AUX;
		p->aux = m->members[i];
		p->val_type = types[i];
		p->val = values[i];
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
	return enter(in, l, region, NULL, bytes);
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
		in->report->rma_unmatched++;
		return OTF2_CALLBACK_SUCCESS;
	}
	return leave(in, l, top, NULL);
}

static OTF2_CallbackCode on_unknown(OTF2_LocationRef ref, OTF2_TimeStamp ticks, void *data,
				    OTF2_AttributeList *attrs)
{
	struct otf2in *in = data;

	(void)ref, (void)ticks, (void)attrs;
	in->report->unknown_records++;
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
		((struct otf2in *)data)->report->ignored_records++; \
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
	if (in->nbuf > 0 && flush(in) < 0)
		return in->status;
	for (uint32_t i = 0; i < in->nlocs; i++)
		in->report->open_at_end += in->locs[i].depth;
	return 0;
}
