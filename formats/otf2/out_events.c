/*
 * The writer's events: checked in pass 1 (fields, references, each
 * stream's time order, what OTF2 can hold), written in pass 2 as the OTF2
 * records tr-read reads them from. An activity's corr goes into Score-P's
 * "callsite id" parameter: at the enter's time right after the enter when
 * the enter has it, else just before the leave; device copies become an
 * RMA get (HtoD) or put (DtoH) and its completion.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../../libstream/vec.h"
#include "../../libstream/check.h"
#include "../../libstream/error.h"
#include "otf2out_private.h"
#include "vocab.h"

/* The index field f of rec names in m; NONE with the message if none. */
static uint32_t lookup(struct otf2out *o, const struct ls_record *rec, enum ls_field f,
		       const struct ls_idmap *m, const char *what)
{
	uint64_t id = 0;
	uint32_t ix = ls_get_u64(rec, f, &id) == 0 ? ls_index(m, id) : NONE;

	if (ix == NONE)
		otf2out_fail(o, LS_ERR_SYNTAX, "%s names undefined %s %" PRIu64,
			     ls_kind_name(rec->kind), what, id);
	return ix;
}

/* The rank in comm (an index) of the process field f names; NONE if not a member. */
static uint32_t rank_in(struct otf2out *o, const struct ls_record *rec, enum ls_field f,
			uint32_t comm)
{
	const struct ls_comm *c = &o->defs.comms[comm];
	uint32_t p = lookup(o, rec, f, &o->defs.proc_ix, "process"), rank;

	if (p == NONE)
		return NONE;
	if (c->n == 0)	/* MPI_COMM_SELF: each process alone */
		return 0;
	if ((rank = ls_comm_rank(c, p)) == LS_NONE)
		otf2out_fail(o, LS_ERR_SYNTAX, "%s: process %" PRIu64 " is not a member of comm %"
			     PRIu64, ls_kind_name(rec->kind), o->defs.procs[p].id, c->id);
	return rank;
}

/* What pass 1 checks beyond the fields: references OTF2 must resolve. */
static int check_references(struct otf2out *o, const struct ls_record *rec)
{
	uint32_t comm, counter;
	uint64_t tag;
	struct mp_item val;

	switch (rec->kind) {
	case LS_K_ENTER:
	case LS_K_LEAVE:
		if (lookup(o, rec, LS_F_R, &o->defs.region_ix, "region") == NONE)
			return LS_ERR_SYNTAX;
		if (ls_has(rec, LS_F_REF_STREAM) &&
		    lookup(o, rec, LS_F_REF_STREAM, &o->defs.stream_ix, "stream") == NONE)
			return LS_ERR_SYNTAX;
		return 0;
	case LS_K_SEND:
	case LS_K_RECV:
		if ((comm = lookup(o, rec, LS_F_COMM, &o->defs.comm_ix, "comm")) == NONE ||
		    rank_in(o, rec, LS_F_PEER, comm) == NONE)
			return LS_ERR_SYNTAX;
		ls_get_u64(rec, LS_F_TAG, &tag);
		if (tag > UINT32_MAX)
			return otf2out_fail(o, LS_ERR_SYNTAX, "%s with a tag OTF2 cannot hold",
					    ls_kind_name(rec->kind));
		return 0;
	case LS_K_COLL_END:
		if ((comm = lookup(o, rec, LS_F_COMM, &o->defs.comm_ix, "comm")) == NONE ||
		    (ls_has(rec, LS_F_ROOT) && rank_in(o, rec, LS_F_ROOT, comm) == NONE))
			return LS_ERR_SYNTAX;
		return 0;
	case LS_K_SAMPLE:
		if ((counter = lookup(o, rec, LS_F_COUNTER, &o->counter_ix, "counter")) == NONE)
			return LS_ERR_SYNTAX;
		if (!o->counters[counter].typed) {
			ls_get(rec, LS_F_VAL, &val);
			o->counters[counter].type = val.type == MP_FLOAT ? OTF2_TYPE_DOUBLE :
						    val.type == MP_INT ? OTF2_TYPE_INT64 :
						    OTF2_TYPE_UINT64;
			o->counters[counter].typed = true;
		}
		return 0;
	default:
		return 0;
	}
}

int otf2out_take_event(struct otf2out *o, const struct ls_record *rec)
{
	struct out_stream *st;
	uint32_t s;
	uint64_t id;
	int64_t t;
	int rc;

	if (ls_check_fields(rec, o->err, sizeof(o->err)) < 0)
		return LS_ERR_SYNTAX;
	if ((s = lookup(o, rec, LS_F_S, &o->defs.stream_ix, "stream")) == NONE)
		return LS_ERR_SYNTAX;
	ls_get_u64(rec, LS_F_ID, &id);
	if ((rc = ls_idset_add(&o->event_ids, id)) <= 0)
		return rc < 0 ? otf2out_fail(o, LS_ERR_NOMEM, "out of memory") :
				otf2out_fail(o, LS_ERR_SYNTAX, "%s id %" PRIu64 " is not unique (rule 4)",
					     ls_kind_name(rec->kind), id);
	ls_get_i64(rec, LS_F_T, &t);
	st = &o->streams[s];
	if (st->any && t < st->last_t)
		return otf2out_fail(o, LS_ERR_SYNTAX, "%s at t=%" PRId64 " comes after t=%" PRId64
				    " on its stream (OTF2 keeps each stream in time order)",
				    ls_kind_name(rec->kind), t, st->last_t);
	if (!st->any)
		st->first_t = t;
	st->any = true;
	st->last_t = t;
	if (!o->any_event || t < o->min_t)
		o->min_t = t;
	if (!o->any_event || t > o->max_t)
		o->max_t = t;
	o->any_event = true;
	o->uses[A_STREAM_REF] |= ls_has(rec, LS_F_REF_STREAM);
	o->uses[A_EVENT_REF] |= ls_has(rec, LS_F_CUDA_EVENT);
	o->uses[A_RESULT] |= ls_has(rec, LS_F_RESULT);
	if (rec->kind == LS_K_ENTER) {
		uint64_t r;
		uint32_t ix;

		if (ls_get_u64(rec, LS_F_R, &r) == 0 &&
		    (ix = ls_index(&o->defs.region_ix, r)) != LS_NONE && o->regions[ix].copy)
			st->copies = true;
	}
	return check_references(o, rec);
}

/* --- pass 2 ------------------------------------------------------------ */

/* The attributes tr-read takes ref_stream, cuda_event and result from. */
static OTF2_AttributeList *api_attributes(struct otf2out *o, const struct ls_record *rec)
{
	uint64_t u;
	int64_t i;
	uint32_t x;

	if (ls_get_u64(rec, LS_F_REF_STREAM, &u) == 0)
		OTF2_AttributeList_AddLocationRef(o->attrs, o->attr[A_STREAM_REF],
						  (x = ls_index(&o->defs.stream_ix, u)) == LS_NONE ?
						  OTF2_UNDEFINED_LOCATION : o->streams[x].loc);
	if (ls_get_u64(rec, LS_F_CUDA_EVENT, &u) == 0)
		OTF2_AttributeList_AddUint64(o->attrs, o->attr[A_EVENT_REF], u);
	if (ls_get_i64(rec, LS_F_RESULT, &i) == 0)
		OTF2_AttributeList_AddInt64(o->attrs, o->attr[A_RESULT], i);
	return o->attrs;
}

static uint64_t u64_or(const struct ls_record *rec, enum ls_field f, uint64_t none)
{
	uint64_t v;

	return ls_get_u64(rec, f, &v) == 0 ? v : none;
}

static OTF2_ErrorCode write_enter(struct otf2out *o, OTF2_EvtWriter *w, uint32_t s,
				  const struct ls_record *rec, OTF2_TimeStamp ts,
				  uint64_t id, int64_t t)
{
	struct out_stream *st = &o->streams[s];
	uint32_t r = ls_index(&o->defs.region_ix, u64_or(rec, LS_F_R, 0));
	struct out_frame *f;
	OTF2_ErrorCode rc;
	uint64_t corr;
	int blamed;

	if (ls_vec_room(&st->stack, &st->cap, st->depth, sizeof(*st->stack)) < 0)
		return OTF2_ERROR_MEM_ALLOC_FAILED;
	if (o->regions[r].copy > 0)
		rc = OTF2_EvtWriter_RmaGet(w, NULL, ts, st->win, 0, u64_or(rec, LS_F_BYTES, 0), id);
	else if (o->regions[r].copy < 0)
		rc = OTF2_EvtWriter_RmaPut(w, NULL, ts, st->win, 0, u64_or(rec, LS_F_BYTES, 0), id);
	else
		rc = OTF2_EvtWriter_Enter(w, api_attributes(o, rec), ts,
					  (OTF2_RegionRef)o->defs.region_ids[r]);
	f = &st->stack[st->depth++];
	*f = (struct out_frame){ false, false, LS_P__COUNT, 0, 0, 0 };
	if (rc == OTF2_SUCCESS && ls_get_u64(rec, LS_F_CORR, &corr) == 0) {
		rc = OTF2_EvtWriter_ParameterUnsignedInt(w, NULL, ts, P_CALLSITE, corr);
		f->has_corr = true;
		f->corr = corr;
	}
	if (rc == OTF2_SUCCESS && (blamed = otf2out_blame_of(o, s, id, f)) != 0)
		rc = blamed < 0 || otf2out_write_blame(o, s, t, f, false) < 0 ? OTF2_ERROR_INTEGRITY_FAULT : rc;
	return rc;
}

static OTF2_ErrorCode write_leave(struct otf2out *o, OTF2_EvtWriter *w, uint32_t s,
				  const struct ls_record *rec, OTF2_TimeStamp ts,
				  uint64_t id, int64_t t)
{
	struct out_stream *st = &o->streams[s];
	uint32_t r = ls_index(&o->defs.region_ix, u64_or(rec, LS_F_R, 0));
	struct out_frame *f = st->depth ? &st->stack[--st->depth] : NULL;
	OTF2_ErrorCode rc = OTF2_SUCCESS;
	uint64_t corr;

	if (ls_get_u64(rec, LS_F_CORR, &corr) == 0) {
		if (!f)
			o->report.corr_unplaced++;
		else if (!f->has_corr || f->corr != corr)
			rc = OTF2_EvtWriter_ParameterUnsignedInt(w, NULL, ts, P_CALLSITE, corr);
	} else if (f && f->has_corr) {
		o->report.corr_unplaced++;
	}
	if (rc != OTF2_SUCCESS)
		return rc;
	if (o->regions[r].copy)
		rc = OTF2_EvtWriter_RmaOpCompleteBlocking(w, NULL, ts, st->win, id);
	else
		rc = OTF2_EvtWriter_Leave(w, api_attributes(o, rec), ts,
					  (OTF2_RegionRef)o->defs.region_ids[r]);
	if (rc == OTF2_SUCCESS && f && f->blamed && otf2out_write_blame(o, s, t, f, true) < 0)
		rc = OTF2_ERROR_INTEGRITY_FAULT;
	return rc;
}

static OTF2_ErrorCode write_message(struct otf2out *o, OTF2_EvtWriter *w,
				    const struct ls_record *rec, OTF2_TimeStamp ts)
{
	uint32_t comm = ls_index(&o->defs.comm_ix, u64_or(rec, LS_F_COMM, 0));
	uint32_t rank = rank_in(o, rec, LS_F_PEER, comm);
	OTF2_CommRef ref = (OTF2_CommRef)o->defs.comms[comm].id;
	uint32_t tag = (uint32_t)u64_or(rec, LS_F_TAG, 0);
	uint64_t bytes = u64_or(rec, LS_F_BYTES, 0), req;

	if (ls_get_u64(rec, LS_F_REQ, &req) == 0)
		return rec->kind == LS_K_SEND
		       ? OTF2_EvtWriter_MpiIsend(w, NULL, ts, rank, ref, tag, bytes, req)
		       : OTF2_EvtWriter_MpiIrecv(w, NULL, ts, rank, ref, tag, bytes, req);
	return rec->kind == LS_K_SEND
	       ? OTF2_EvtWriter_MpiSend(w, NULL, ts, rank, ref, tag, bytes)
	       : OTF2_EvtWriter_MpiRecv(w, NULL, ts, rank, ref, tag, bytes);
}

static OTF2_ErrorCode write_coll_end(struct otf2out *o, OTF2_EvtWriter *w,
				     const struct ls_record *rec, OTF2_TimeStamp ts)
{
	uint32_t comm = ls_index(&o->defs.comm_ix, u64_or(rec, LS_F_COMM, 0));
	uint32_t root = ls_has(rec, LS_F_ROOT) ? rank_in(o, rec, LS_F_ROOT, comm)
					       : OTF2_UNDEFINED_UINT32;
	OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_CREATE_HANDLE;
	const char *name;
	uint32_t n;

	if (ls_get_str(rec, LS_F_OP, &name, &n) == 0) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%.*s", (int)n, name);
		op = otf2_op_by_name(buf);
	}
	return OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, ts, op,
					       (OTF2_CommRef)o->defs.comms[comm].id, root,
					       u64_or(rec, LS_F_SENT, 0),
					       u64_or(rec, LS_F_RECVD, 0));
}

static int write_failed(struct otf2out *o)
{
	return otf2out_fail(o, LS_ERR_IO, "cannot write the archive: %s",
			    o->otf2_msg[0] ? o->otf2_msg : "libotf2 failed");
}

/*
 * A lock's acquire or release: its order number in *order (counted over
 * every stream, in every pass alike). OTF2 numbers locks in 32 bits, and
 * a release carries the order number of its stream's acquire of that
 * lock. Returns 0, or the failure (said) of a lock id past 32 bits or no
 * memory.
 */
static int lock_order(struct otf2out *o, uint32_t s, const struct ls_record *rec, uint32_t *order)
{
	uint64_t lock = u64_or(rec, LS_F_LOCK, 0), key;

	if (lock > UINT32_MAX || !ls_key_pair(s, lock, &key))
		return otf2out_fail(o, LS_ERR_SYNTAX, "lock %" PRIu64 " has no OTF2 number "
				    "(OTF2 numbers locks in 32 bits)", lock);
	if (rec->kind == LS_K_LOCK_ACQUIRE || !ls_idmap_get(&o->lock_order, key, order)) {
		*order = (uint32_t)++o->acquires;
		if (ls_idmap_put(&o->lock_order, key, *order) < 0)
			return otf2out_fail(o, LS_ERR_NOMEM, "out of memory");
	}
	return 0;
}

static int write_lock(struct otf2out *o, OTF2_EvtWriter *w, uint32_t s,
		      const struct ls_record *rec, OTF2_TimeStamp ts)
{
	uint32_t lock = (uint32_t)u64_or(rec, LS_F_LOCK, 0), order;
	OTF2_ErrorCode rc;
	int err;

	if ((err = lock_order(o, s, rec, &order)) < 0)
		return err;
	rc = rec->kind == LS_K_LOCK_ACQUIRE ?
	     OTF2_EvtWriter_ThreadAcquireLock(w, NULL, ts, OTF2_PARADIGM_OPENMP, lock, order) :
	     OTF2_EvtWriter_ThreadReleaseLock(w, NULL, ts, OTF2_PARADIGM_OPENMP, lock, order);
	return rc == OTF2_SUCCESS ? 0 : write_failed(o);
}

static OTF2_ErrorCode write_sample(OTF2_EvtWriter *w, const struct ls_record *rec,
				   OTF2_TimeStamp ts)
{
	uint64_t id = u64_or(rec, LS_F_COUNTER, 0);
	struct mp_item val;
	OTF2_MetricValue v;
	OTF2_Type type;

	ls_get(rec, LS_F_VAL, &val);
	if (val.type == MP_FLOAT) {
		type = OTF2_TYPE_DOUBLE;
		v.floating_point = val.v.f;
	} else if (val.type == MP_INT) {
		type = OTF2_TYPE_INT64;
		v.signed_int = val.v.i;
	} else {
		type = OTF2_TYPE_UINT64;
		v.unsigned_int = val.v.u;
	}
	return OTF2_EvtWriter_Metric(w, NULL, ts, (OTF2_MetricRef)id, 1, &type, &v);
}

static OTF2_ErrorCode write_kind(struct otf2out *o, OTF2_EvtWriter *w, uint32_t s,
				 const struct ls_record *rec, int64_t t, uint64_t id)
{
	OTF2_TimeStamp ts = otf2out_ticks(o, t);
	uint64_t req;
	bool on = false;

	switch (rec->kind) {
	case LS_K_ENTER:
		return write_enter(o, w, s, rec, ts, id, t);
	case LS_K_LEAVE:
		return write_leave(o, w, s, rec, ts, id, t);
	case LS_K_SEND:
	case LS_K_RECV:
		return write_message(o, w, rec, ts);
	case LS_K_SEND_DONE:
		req = u64_or(rec, LS_F_REQ, 0);
		return OTF2_EvtWriter_MpiIsendComplete(w, NULL, ts, req);
	case LS_K_RECV_POST:
		req = u64_or(rec, LS_F_REQ, 0);
		return OTF2_EvtWriter_MpiIrecvRequest(w, NULL, ts, req);
	case LS_K_REQ_TEST:
		req = u64_or(rec, LS_F_REQ, 0);
		return OTF2_EvtWriter_MpiRequestTest(w, NULL, ts, req);
	case LS_K_REQ_CANCEL:
		req = u64_or(rec, LS_F_REQ, 0);
		return OTF2_EvtWriter_MpiRequestCancelled(w, NULL, ts, req);
	case LS_K_COLL_BEGIN:
		return OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, ts);
	case LS_K_COLL_END:
		return write_coll_end(o, w, rec, ts);
	case LS_K_FORK:
		return OTF2_EvtWriter_ThreadFork(w, NULL, ts, OTF2_PARADIGM_OPENMP,
						 (uint32_t)u64_or(rec, LS_F_THREADS, 0));
	case LS_K_JOIN:
		return OTF2_EvtWriter_ThreadJoin(w, NULL, ts, OTF2_PARADIGM_OPENMP);
	case LS_K_TEAM_BEGIN:
		return OTF2_EvtWriter_ThreadTeamBegin(w, NULL, ts, OTF2_UNDEFINED_COMM);
	case LS_K_TEAM_END:
		return OTF2_EvtWriter_ThreadTeamEnd(w, NULL, ts, OTF2_UNDEFINED_COMM);
	case LS_K_MEASURE:
		ls_get_bool(rec, LS_F_ON, &on);
		return OTF2_EvtWriter_MeasurementOnOff(w, NULL, ts, on ? OTF2_MEASUREMENT_ON
								       : OTF2_MEASUREMENT_OFF);
	case LS_K_SAMPLE:
		return write_sample(w, rec, ts);
	default:
		return OTF2_SUCCESS;
	}
}

int otf2out_write_event(struct otf2out *o, const struct ls_record *rec)
{
	uint32_t s = ls_index(&o->defs.stream_ix, u64_or(rec, LS_F_S, 0));
	uint64_t id = u64_or(rec, LS_F_ID, 0);
	OTF2_EvtWriter *w;
	uint32_t order;
	int64_t t;
	int rc;

	/* a stream another pass writes: a lock's only counted, for the order */
	if (s < o->round_from || s >= o->round_to)
		return rec->kind == LS_K_LOCK_ACQUIRE || rec->kind == LS_K_LOCK_RELEASE ?
		       lock_order(o, s, rec, &order) : 0;
	ls_get_i64(rec, LS_F_T, &t);
	if (otf2out_write_samples(o, s, t) < 0 || !(w = otf2out_writer(o, s)))
		return write_failed(o);
	if (rec->kind == LS_K_LOCK_ACQUIRE || rec->kind == LS_K_LOCK_RELEASE) {
		if ((rc = write_lock(o, w, s, rec, t)) < 0)
			return rc;
	} else if (write_kind(o, w, s, rec, t, id) != OTF2_SUCCESS) {
		return write_failed(o);
	}
	o->report.events++;
	return 0;
}
