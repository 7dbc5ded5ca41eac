/*
 * bench/cupti-records N DIR: the CUDA collector's cost per CUPTI record,
 * without a GPU: N activity records as CUPTI delivers them (kernels of 16
 * names, device-to-host copies, in turn) handed to rec_cuda_activity into
 * a log in DIR, against the least a collector could do with them, writing
 * CUPTI's records as they are into a file beside it. Prints ns and bytes
 * per record of each (bench/record, part of make bench).
 */
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../record/cuda/cudarec.h"
#include "../record/log.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	const char *dir = argc > 2 ? argv[2] : ".";
	static char names[16][64];
	CUpti_ActivityKernel10 k;
	CUpti_ActivityMemcpy6 c;
	char path[4096];
	int64_t t0, t1, t2;
	long raw = 0;
	FILE *f;

	for (int i = 0; i < 16; i++)
		snprintf(names[i], sizeof(names[i]), "void solver::kernel_%d<float>(float*, int)", i);
	memset(&k, 0, sizeof(k));
	memset(&c, 0, sizeof(c));
	k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
	c.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
	k.contextId = c.contextId = 1;
	k.streamId = c.streamId = 13;
	c.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
	c.bytes = 1 << 20;
	setenv("TR_RECORD_DIR", dir, 1);
	snprintf(path, sizeof(path), "%s/raw", dir);
	if (!(f = fopen(path, "w"))) {
		perror(path);
		return 1;
	}
	t0 = rec_now();
	for (long i = 0; i < n; i++) {
		uint64_t t = (uint64_t)t0 + 1000 * (uint64_t)i;

		if (i % 2) {
			c.start = t;
			c.end = t + 900;
			c.correlationId = (uint32_t)i;
			fwrite(&c, sizeof(c), 1, f);
			raw += (long)sizeof(c);
		} else {
			k.start = t;
			k.end = t + 900;
			k.correlationId = (uint32_t)i;
			k.name = names[i % 16];
			fwrite(&k, sizeof(k), 1, f);
			raw += (long)sizeof(k);
		}
	}
	fclose(f);
	t1 = rec_now();
	for (long i = 0; i < n; i++) {
		uint64_t t = (uint64_t)t0 + 1000 * (uint64_t)i;

		if (i % 2) {
			c.start = t;
			c.end = t + 900;
			c.correlationId = (uint32_t)i;
			rec_cuda_activity((CUpti_Activity *)&c);
		} else {
			k.start = t;
			k.end = t + 900;
			k.correlationId = (uint32_t)i;
			k.name = names[i % 16];
			rec_cuda_activity((CUpti_Activity *)&k);
		}
	}
	rec_flush();
	t2 = rec_now();
	printf("%ld %lld %lld %ld\n", n, (long long)(t1 - t0), (long long)(t2 - t1), raw);
	return 0;
}
