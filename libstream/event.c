/* An event record from a reader's typed event. */
#include "event.h"

/* The fields a kind always has besides k, id, t, s and its optional ones. */
static uint32_t own_fields(enum ls_kind kind)
{
	switch (kind) {
	case LS_K_ENTER:
	case LS_K_LEAVE:
	case LS_K_SAMPLE:
		return 1;
	case LS_K_SEND:
	case LS_K_RECV:
	case LS_K_COLL_END:
		return 4;
	default:
		return 0;
	}
}

static void put_aux(struct ls_writer *w, const struct ls_event *ev)
{
	switch (ev->kind) {
	case LS_K_FORK:
		ls_put_u64(w, LS_F_THREADS, ev->aux);
		break;
	case LS_K_LOCK_ACQUIRE:
	case LS_K_LOCK_RELEASE:
		ls_put_u64(w, LS_F_LOCK, ev->aux);
		break;
	case LS_K_MEASURE:
		ls_put_bool(w, LS_F_ON, ev->aux != 0);
		break;
	case LS_K_SAMPLE:
		ls_put_u64(w, LS_F_COUNTER, ev->aux);
		break;
	default:
		break;
	}
}

int ls_event_write(struct ls_writer *w, const struct ls_event *ev, uint64_t id)
{
	uint32_t n = 4 + own_fields(ev->kind);

	for (uint32_t bits = ev->fields; bits; bits &= bits - 1)
		n++;
	ls_build_begin(w, n);
	ls_put_kind(w, ev->kind);
	ls_put_u64(w, LS_F_ID, id);
	ls_put_i64(w, LS_F_T, ev->t);
	ls_put_u64(w, LS_F_S, ev->stream);
	switch (ev->kind) {
	case LS_K_ENTER:
	case LS_K_LEAVE:
		ls_put_u64(w, LS_F_R, ev->region);
		break;
	case LS_K_SEND:
	case LS_K_RECV:
		ls_put_u64(w, LS_F_PEER, ev->peer);
		ls_put_i64(w, LS_F_TAG, ev->tag);
		ls_put_u64(w, LS_F_COMM, ev->comm);
		ls_put_u64(w, LS_F_BYTES, ev->bytes);
		break;
	case LS_K_COLL_END:
		ls_put_u64(w, LS_F_COMM, ev->comm);
		ls_put_u64(w, LS_F_SENT, ev->sent);
		ls_put_u64(w, LS_F_RECVD, ev->recvd);
		ls_put_str(w, LS_F_OP, ev->op);
		break;
	default:
		break;
	}
	if (ev->fields & LS_EF_REF_STREAM)
		ls_put_u64(w, LS_F_REF_STREAM, ev->ref_stream);
	if (ev->fields & LS_EF_WAIT_STREAM)
		ls_put_u64(w, LS_F_WAIT_STREAM, ev->wait_stream);
	if (ev->fields & LS_EF_CUDA_EVENT)
		ls_put_u64(w, LS_F_CUDA_EVENT, ev->cuda_event);
	if (ev->fields & LS_EF_RESULT)
		ls_put_i64(w, LS_F_RESULT, ev->result);
	if (ev->fields & LS_EF_CORR)
		ls_put_u64(w, LS_F_CORR, ev->corr);
	if (ev->fields & LS_EF_BYTES)
		ls_put_u64(w, LS_F_BYTES, ev->bytes);
	if (ev->fields & LS_EF_REQ)
		ls_put_u64(w, LS_F_REQ, ev->req);
	if (ev->fields & LS_EF_ROOT)
		ls_put_u64(w, LS_F_ROOT, ev->root);
	if (ev->fields & LS_EF_AUX)
		put_aux(w, ev);
	if (ev->kind == LS_K_SAMPLE) {
		if (ev->val_type == LS_VAL_F64)
			ls_put_f64(w, LS_F_VAL, ev->val.f);
		else if (ev->val_type == LS_VAL_INT)
			ls_put_i64(w, LS_F_VAL, ev->val.i);
		else
			ls_put_u64(w, LS_F_VAL, ev->val.u);
	}
	return ls_build_end(w);
}
