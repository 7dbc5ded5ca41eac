/*
 * CUPTI's side of the CUDA collector. CUDA loads this library where
 * CUDA_INJECTION64_PATH names it (tr-record sets it) and calls
 * InitializeInjection when the program first uses CUDA: it registers the
 * collector's clock as CUPTI's (one clock for host and GPU records),
 * enables the activity kinds recorded, gives CUPTI buffers and takes them
 * back full, and subscribes to runtime and driver API calls (a driver call
 * made inside a runtime call is the runtime call's, not recorded again).
 * NVTX ranges come from NVTX itself (nvtx.c). At exit everything still
 * buffered is flushed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../log.h"
#include "cudarec.h"

#define BUFFER_SIZE (8u << 20)
#define BUFFER_ALIGN 8

int InitializeInjection(void);

static __thread int in_runtime;		/* runtime calls open on this thread */
static bool started;

static uint64_t now(void)
{
	return (uint64_t)rec_now();
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	*buffer = aligned_alloc(BUFFER_ALIGN, BUFFER_SIZE);
	*size = *buffer ? BUFFER_SIZE : 0;
	*max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
				      size_t valid)
{
	CUpti_Activity *record = NULL;
	size_t dropped = 0;

	(void)ctx;
	(void)stream;
	(void)size;
	while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
		rec_cuda_activity(record);
	if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS && dropped)
		rec_say("CUPTI dropped %zu activity records: the log lacks them", dropped);
	free(buffer);
}

/* A function's name without CUPTI's version suffix: cudaLaunchKernel_v7000 is cudaLaunchKernel. */
static void plain_name(const char *name, char *out, size_t n)
{
	const char *v = name ? strstr(name, "_v") : NULL;
	size_t len = name ? strlen(name) : 0;

	if (v && v[2] >= '0' && v[2] <= '9' && strspn(v + 2, "0123456789") == strlen(v + 2))
		len = (size_t)(v - name);
	snprintf(out, n, "%.*s", (int)len, name ? name : "?");
}

static void CUPTIAPI api_called(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
				const void *data)
{
	const CUpti_CallbackData *cb = data;
	bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
	char name[128];

	(void)userdata;
	(void)cbid;
	if (!runtime && in_runtime)
		return;		/* the runtime call's own driver calls */
	if (cb->callbackSite == CUPTI_API_ENTER) {
		in_runtime += runtime;
		*cb->correlationData = now();
		return;
	}
	in_runtime -= runtime;
	plain_name(cb->functionName, name, sizeof(name));
	rec_cuda_api(name, (int64_t)*cb->correlationData, rec_now(), cb->correlationId,
		     cb->functionReturnValue ? (int64_t) * (const int *)cb->functionReturnValue : 0);
}

static void flush_at_exit(void)
{
	if (started)
		cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

/* A CUPTI call that failed: said once, recording of CUDA off. */
static bool failed(CUptiResult rc, const char *what)
{
	const char *why = NULL;

	if (rc == CUPTI_SUCCESS)
		return false;
	cuptiGetResultString(rc, &why);
	rec_say("CUPTI %s: %s; CUDA is not recorded", what, why ? why : "failed");
	return true;
}

int InitializeInjection(void)
{
	CUpti_SubscriberHandle subscriber;

	if (started || !rec_on())
		return 1;
	if (failed(cuptiActivityRegisterTimestampCallback(now), "cannot take the collector's clock") ||
	    failed(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), "gives no buffers"))
		return 0;
	for (int i = 0; rec_cuda_kinds[i] != CUPTI_ACTIVITY_KIND_INVALID; i++)
		if (failed(cuptiActivityEnable(rec_cuda_kinds[i]), "cannot record an activity kind"))
			return 0;
	if (failed(cuptiSubscribe(&subscriber, api_called, NULL), "takes no subscriber") ||
	    failed(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API), "gives no runtime calls") ||
	    failed(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API), "gives no driver calls"))
		return 0;
	started = true;
	atexit(flush_at_exit);
	return 1;
}
