/*
 * CUPTI's activity records into the log: kernels, copies (direction,
 * pageable or pinned host memory), sets, synchronizations (what each
 * waited for), CUDA events (the stream each was recorded on) and contexts
 * (their device and null stream). Their times are the collector's clock
 * (inject.c registers it with CUPTI). They come from CUPTI's thread, in
 * no thread of the program's.
 */
#include "../../formats/trlog/trlog.h"
#include "../../libstream/enc.h"
#include "../log.h"
#include "../names.h"
#include "cudarec.h"

const CUpti_ActivityKind rec_cuda_kinds[] = {
	CUPTI_ACTIVITY_KIND_CONTEXT, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
	CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, CUPTI_ACTIVITY_KIND_CUDA_EVENT,
	CUPTI_ACTIVITY_KIND_INVALID,
};

/* CUPTI's "no such stream or event" (CUPTI_SYNCHRONIZATION_INVALID_VALUE) as -1. */
static int64_t id_or_none(uint32_t v)
{
	return v == UINT32_MAX ? -1 : (int64_t)v;
}

/* [type, ctx, stream, device, t0, t1, corr]: what kernels, copies and sets begin with. */
static void on_stream(struct ls_buf *b, uint32_t n, int type, uint32_t ctx, uint32_t stream, uint32_t device,
		      uint64_t t0, uint64_t t1, uint32_t corr)
{
	ls_enc_array(b, n);
	ls_enc_uint(b, (uint64_t)type);
	ls_enc_uint(b, ctx);
	ls_enc_uint(b, stream);
	ls_enc_uint(b, device);
	ls_enc_uint(b, t0);
	ls_enc_uint(b, t1);
	ls_enc_uint(b, corr);
}

static void kernel(struct ls_buf *b, const CUpti_ActivityKernel10 *k)
{
	int64_t name = rec_name(b, k->name);

	on_stream(b, 8, TRLOG_GPU_KERNEL, k->contextId, k->streamId, k->deviceId, k->start, k->end,
		  k->correlationId);
	ls_enc_int(b, name);
}

static void copy(struct ls_buf *b, const CUpti_ActivityMemcpy6 *c)
{
	on_stream(b, 11, TRLOG_GPU_COPY, c->contextId, c->streamId, c->deviceId, c->start, c->end,
		  c->correlationId);
	ls_enc_uint(b, c->copyKind);
	ls_enc_uint(b, c->bytes);
	ls_enc_uint(b, c->srcKind);
	ls_enc_uint(b, c->dstKind);
}

static void set(struct ls_buf *b, const CUpti_ActivityMemset4 *s)
{
	on_stream(b, 8, TRLOG_GPU_SET, s->contextId, s->streamId, s->deviceId, s->start, s->end,
		  s->correlationId);
	ls_enc_uint(b, s->bytes);
}

static void sync(struct ls_buf *b, const CUpti_ActivitySynchronization2 *s)
{
	ls_enc_array(b, 8);
	ls_enc_uint(b, TRLOG_GPU_SYNC);
	ls_enc_uint(b, (uint64_t)s->type);
	ls_enc_uint(b, s->contextId);
	ls_enc_int(b, id_or_none(s->streamId));
	ls_enc_int(b, id_or_none(s->cudaEventId));
	ls_enc_uint(b, s->start);
	ls_enc_uint(b, s->end);
	ls_enc_uint(b, s->correlationId);
}

static void event(struct ls_buf *b, const CUpti_ActivityCudaEvent2 *e)
{
	ls_enc_array(b, 5);
	ls_enc_uint(b, TRLOG_GPU_EVENT);
	ls_enc_uint(b, e->contextId);
	ls_enc_uint(b, e->streamId);
	ls_enc_uint(b, e->eventId);
	ls_enc_uint(b, e->correlationId);
}

static void context(struct ls_buf *b, const CUpti_ActivityContext3 *c)
{
	ls_enc_array(b, 4);
	ls_enc_uint(b, TRLOG_GPU_CONTEXT);
	ls_enc_uint(b, c->contextId);
	ls_enc_uint(b, c->deviceId);
	ls_enc_uint(b, c->nullStreamId);
}

void rec_cuda_activity(const CUpti_Activity *record)
{
	struct ls_buf *b;

	switch (record->kind) {
	case CUPTI_ACTIVITY_KIND_CONTEXT:
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
	case CUPTI_ACTIVITY_KIND_MEMCPY:
	case CUPTI_ACTIVITY_KIND_MEMSET:
	case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
	case CUPTI_ACTIVITY_KIND_CUDA_EVENT:
		break;
	default:
		return;
	}
	if (!(b = rec_begin(NULL)))
		return;
	switch (record->kind) {
	case CUPTI_ACTIVITY_KIND_CONTEXT:
		context(b, (const CUpti_ActivityContext3 *)(const void *)record);
		break;
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
		kernel(b, (const CUpti_ActivityKernel10 *)(const void *)record);
		break;
	case CUPTI_ACTIVITY_KIND_MEMCPY:
		copy(b, (const CUpti_ActivityMemcpy6 *)(const void *)record);
		break;
	case CUPTI_ACTIVITY_KIND_MEMSET:
		set(b, (const CUpti_ActivityMemset4 *)(const void *)record);
		break;
	case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
		sync(b, (const CUpti_ActivitySynchronization2 *)(const void *)record);
		break;
	default:
		event(b, (const CUpti_ActivityCudaEvent2 *)(const void *)record);
		break;
	}
	rec_end();
}
