/*
 * The CUDA collector: CUPTI's activity records and API callbacks into the
 * log (docs/trlog.md). activity.c and api.c only write records (so that
 * tests feed them records built from CUPTI's own structs, without a GPU);
 * inject.c is CUPTI's side: the injection entry, its buffers, its
 * callbacks.
 */
#ifndef REC_CUDAREC_H
#define REC_CUDAREC_H

#include <cupti.h>
#include <stdint.h>

/* One activity record CUPTI delivered: a log record where it is of a kind recorded. */
void rec_cuda_activity(const CUpti_Activity *record);

/* A runtime or driver API call, by its name, between t0 and t1 (CUPTI's correlation id corr). */
void rec_cuda_api(const char *name, int64_t t0, int64_t t1, uint32_t corr, int64_t result);

/* An NVTX range pushed (its name) or popped (NULL) at t on the calling thread. */
void rec_cuda_range(const char *name, int64_t t);

/* The activity kinds rec_cuda_activity records, to enable: ends with CUPTI_ACTIVITY_KIND_INVALID. */
extern const CUpti_ActivityKind rec_cuda_kinds[];

#endif
